"""Throne Arcade card effects and multi-card plays as scripted positions. Each test quotes the
rulebook sentence it checks (seeds/001_19c18b8975696875.txt) or names the supplement's reading
(rules/throne_arcade.md)."""

import pytest

from balance.games.throne_arcade.positions import Position


def test_follow_by_colour_or_type():
    # "others must follow with a card of the same color ... or type of card"
    pos = Position.build(3, {0: ["blue IX", "orange X", "gold King"], 1: ["gold VIII"], 2: ["green IX"]},
                         top="blue X")
    assert pos.legal() == ["blue IX", "orange X"]


def test_several_cards_of_one_type_the_last_laid_is_the_top():
    # "if a there is a blue X on the table and he has orange X and green X on hand then he can draw
    # both cards on the table."
    pos = Position.build(3, {0: ["orange X", "green X", "gold IX"], 1: ["blue King"], 2: ["gold Lord"]},
                         top="blue X")
    assert pos.legal() == ["green X", "orange X"]
    pos.apply("orange X")
    assert pos.legal() == ["green X", "stop"] and pos.top == "orange X"
    pos.apply("green X")
    assert pos.hand(0) == ["gold IX"]
    assert pos.top == "green X" and pos.colour == "green"
    assert pos.to_move == 1
    assert pos.view(1) == {"hand": ["blue King"], "top": "green X", "pile": ["blue X", "green X", "orange X"],
                           "colour": "green", "pending": 0, "skips": 0, "held": [1, 1, 1]}


def test_a_group_may_stop_early():
    pos = Position.build(3, {0: ["orange X", "green X", "gold IX"], 1: ["blue King"], 2: ["gold Lord"]},
                         top="blue X")
    pos.turn("orange X", "none")
    assert pos.hand(0) == ["gold IX", "green X"] and pos.top == "orange X"


def test_unable_to_follow_draws_one_and_the_turn_passes():
    # "If they dont have any color or type of card on hand, they need to draw one card from talon and
    # put it in his hand then next player is on the turn."
    pos = Position.build(3, {0: ["gold IX"], 1: ["blue King"], 2: ["gold Lord"]}, top="blue X",
                         talon=["blue VIII", "orange IX"])
    pos.turn()
    assert pos.hand(0) == ["blue VIII", "gold IX"]  # kept, although it fits (play_drawn_card is off)
    assert pos.top == "blue X" and pos.to_move == 1


def test_play_drawn_card_option_lays_a_fitting_drawn_card():
    # supplement option: "a drawn card that fits may be played at once"
    pos = Position.build(3, {0: ["gold IX"], 1: ["blue King"], 2: ["gold Lord"]}, top="blue X",
                         talon=["blue VIII"], options={"play_drawn_card": True})
    pos.turn("blue VIII")
    assert pos.hand(0) == ["gold IX"] and pos.top == "blue VIII"


def test_two_vii_make_the_next_player_draw_six_then_play_on():
    # "If a player draws two VII`s on the table then next player needs to draw from talon 2 x 3 cards
    # = 6 cards ... After he draws cards from talon he can continue his turn and can put cards on
    # table if he has color or type that suits the last card on table."
    talon = ["gold IX", "gold X", "blue IX", "blue X", "orange IX", "orange X", "green VIII"]
    pos = Position.build(3, {0: ["blue VII", "gold VII", "green IX"], 1: ["gold King"], 2: ["blue Lord"]},
                         top="blue VIII", talon=talon)
    pos.turn("gold VII")  # the blue VII is the only card that fits: it is laid without asking
    assert pos.pending == 6 and pos.to_move == 1
    pos.turn("gold King")  # seat 1 draws six, then lays on the gold VII by colour
    assert pos.hand(1) == sorted(talon[:6]) and pos.top == "gold King"
    assert pos.pending == 0 and pos.talon[0] == "green VIII"


def test_green_lord_draws_three():
    # "Lord with X three cards icon (1 card of green elf color) ... needs to draw 3 cards"
    pos = Position.build(3, {0: ["green Lord", "gold IX"], 1: ["gold King"], 2: ["blue Lord"]},
                         top="green VIII", talon=["gold VIII", "blue VIII", "orange VIII", "green X"])
    pos.turn()  # the green Lord is the only card that fits
    assert pos.pending == 3
    pos.turn()  # seat 1 draws 3; nothing fits the green Lord: draws 1 more
    assert pos.hand(1) == ["blue VIII", "gold King", "gold VIII", "green X", "orange VIII"]


def test_other_lords_do_nothing():
    # supplement: "King, VIII, IX, X, other Lords: no effect"
    pos = Position.build(3, {0: ["gold Lord", "gold IX"], 1: ["gold King"], 2: ["blue Lord"]}, top="gold VIII")
    pos.turn("gold Lord")
    assert pos.pending == 0 and pos.to_move == 1


def test_hand_names_a_colour_the_next_player_must_follow():
    # "If you draw a Hand on the table you can change to any color of your needs ... next player on the
    # move needs to draw that color from his hand"
    pos = Position.build(3, {0: ["blue Hand", "gold IX"], 1: ["orange X", "blue X", "gold Hand"],
                             2: ["blue Lord"]}, top="blue VIII")
    assert pos.legal() == ["blue Hand"]  # the only card that fits (asked for by apply, not by turn)
    pos.apply("blue Hand")
    assert pos.legal() == ["blue", "gold", "green", "orange"]
    pos.turn("orange")  # its player names orange
    assert pos.top == "blue Hand" and pos.colour == "orange"
    assert pos.legal() == ["gold Hand", "orange X"]  # the named colour, or a Hand by type


def test_hand_on_anything_option():
    pos = Position.build(3, {0: ["gold Hand", "gold IX"], 1: ["orange X"], 2: ["blue Lord"]}, top="blue VIII",
                         options={"hand_on_anything": True})
    assert pos.legal() == ["gold Hand"]
    assert Position.build(3, {0: ["gold Hand", "gold IX"], 1: ["orange X"], 2: ["blue Lord"]},
                          top="blue VIII").legal() == []


def test_two_aces_skip_two_players():
    # "4 player are in the round and one of then layed 2 aces then 2 players that should have turns
    # are stopped and the 3rd player is on his turn instead."
    pos = Position.build(4, {0: ["blue Ace", "gold Ace", "gold IX"], 1: ["gold King"], 2: ["gold Lord"],
                             3: ["gold X"]}, top="blue VIII")
    pos.turn("gold Ace")  # the blue Ace fits, the gold Ace joins it
    assert pos.to_move == 3


def test_skipped_players_are_counted_among_those_still_in_the_round():
    pos = Position.build(4, {0: ["blue Ace", "gold IX"], 1: [], 2: ["gold Lord"], 3: ["gold X"]},
                         top="blue VIII")
    pos.turn()
    assert pos.to_move == 3  # seat 1 is out of the round; seat 2 is the one skipped


def test_orange_vii_brings_back_the_player_who_just_went_out():
    # "If a player in previous turn layed his all cards this card will instantly send him back to game
    # and he has to draw 3 cards from talon in to his hand."
    talon = ["blue IX", "blue X", "gold VIII", "gold IX", "gold X", "green VIII"]
    pos = Position.build(3, {0: ["orange X"], 1: ["orange VII", "blue King"], 2: ["gold Lord", "blue Lord"]},
                         top="orange VIII", talon=talon)
    pos.turn()  # seat 0 lays its last card (forced) and is out
    assert not pos.in_round(0)
    pos.turn()  # the orange VII, the only card that fits
    assert pos.in_round(0) and pos.hand(0) == sorted(talon[:3])
    assert pos.pending == 3 and pos.to_move == 2  # it is a VII as well: the next player draws 3


def test_orange_vii_does_nothing_for_a_player_out_before_the_last_turn():
    pos = Position.build(3, {0: ["orange VII", "blue King"], 1: ["gold Lord", "blue Lord"], 2: []},
                         top="orange VIII", talon=["blue IX", "blue X", "gold VIII"])
    pos.turn()
    assert not pos.in_round(2) and pos.hand(2) == []


def test_talon_refresh_keeps_the_top_card():
    # "If there are all cards drawed from talon then last lying card stayed in center of table and the
    # rest is shuffled and used again as a talon."
    pos = Position.build(3, {0: ["gold IX"], 1: ["gold King"], 2: ["gold Lord"]}, top="blue X",
                         pile=["blue VIII", "green VIII", "orange VIII"], talon=[],
                         options={"deck": ["gold IX", "gold King", "gold Lord", "blue X", "blue VIII",
                                           "green VIII", "orange VIII"], "start_hand": 1})
    pos.turn()
    assert pos.pile == ["blue X"] and pos.top == "blue X"
    assert len(pos.hand(0)) == 2 and len(pos.talon) == 2


def test_going_out_and_the_last_player_holding_cards_loses():
    # "If a player lies all of his cards from hand on the table then he is out of the round ... until
    # there is last one with cards in his hand. Then the round is ended. That last one player looses"
    pos = Position.build(3, {0: ["blue IX"], 1: ["gold King", "gold Lord"], 2: ["blue Lord"]}, top="blue X",
                         talon=["gold VIII"])
    pos.turn()  # seat 0 out
    assert not pos.in_round(0) and not pos.round_over
    pos.turn()  # seat 1 cannot follow the blue IX: draws
    pos.turn()  # seat 2 lays the blue Lord: out; seat 1 is left
    assert pos.round_over and pos.loser == 1 and pos.eliminated is None
    assert pos.over and pos.legal() == []
    assert pos.scores() == [0.0, -23.0, 0.0]  # the loser: its 3 cards and LOSE_SCORE
    with pytest.raises(ValueError):
        pos.turn()


def test_losing_a_round_started_with_one_card_eliminates():
    # "A player that has one drawed card in start of round and will lost the round is then out of game."
    pos = Position.build(2, {0: ["blue IX"], 1: ["gold King"]}, top="blue X", losses={1: 4})
    pos.turn()
    assert pos.loser == 1 and pos.eliminated == 1 and not pos.in_game(1)
    # "Absolute winner of the game is a player that is the last one with cards in his hand"
    assert pos.winner == 0


def test_hand_size_is_five_minus_rounds_lost_and_the_loser_starts():
    # "If a player lost 3 rounds, he will draw only 2 cards in start of next round."
    pos = Position.deal(4, losses={2: 3}, starter=2, seed=4)
    assert [len(pos.hand(s)) for s in range(4)] == [5, 5, 2, 5]
    # "In start of next round the player that lost in last round is a starting player."
    assert pos.to_move == 2


def test_stacking_option_passes_the_penalty_on():
    # supplement option: "stacking as in Prsi"
    pos = Position.build(3, {0: ["blue VII", "gold IX"], 1: ["gold VII", "gold King"], 2: ["blue Lord"]},
                         top="blue VIII", options={"stacking": True},
                         talon=["gold VIII", "blue IX", "blue X", "orange IX", "orange X", "green X", "green IX"])
    pos.turn()  # the blue VII, the only card that fits
    pos.turn("gold VII")  # seat 1 answers the draw with its VII instead of drawing
    assert pos.pending == 6 and pos.hand(1) == ["gold King"] and pos.to_move == 2
    pos.turn()  # seat 2 has no VII: draws six, then follows the gold VII with the gold VIII it drew
    assert len(pos.hand(2)) == 6 and pos.pending == 0 and pos.top == "gold VIII"


def test_king_draws_five_cancelled_by_the_lord_of_its_colour():
    # supplement option: "King = next player draws 5, cancelled by the Lord of the same colour"
    pos = Position.build(3, {0: ["blue King", "gold IX"], 1: ["blue Lord", "gold King"], 2: ["orange Lord"]},
                         top="blue VIII", options={"king_draws_5": True})
    pos.turn()  # the blue King, the only card that fits
    assert pos.pending == 5
    pos.turn("blue Lord")
    assert pos.pending == 0 and pos.hand(1) == ["gold King"] and pos.top == "blue Lord"


def test_starting_card_acts_option():
    # without the option the first player is not penalised by the starting card
    plain = Position.deal(3, seed=0)
    acting = Position.deal(3, seed=0, options={"starting_card_acts": True})
    assert plain.top == acting.top
    kind = plain.top.split()[1]
    if kind == "VII":
        assert plain.pending == 0 and acting.pending == 3
    elif kind == "Ace":
        assert plain.to_move == 0 and acting.to_move == 1


@pytest.mark.parametrize("seed", range(40))
def test_starting_card_acts_for_every_special(seed):
    acting = Position.deal(3, seed=seed, options={"starting_card_acts": True})
    kind = acting.top.split()[1]
    expected_pending = 3 if kind == "VII" or acting.top == "green Lord" else 0
    assert acting.pending == expected_pending
    assert acting.to_move == (1 if kind == "Ace" else 0)


def test_illegal_missing_or_unasked_answers_are_refused():
    def build():
        return Position.build(3, {0: ["blue IX", "orange X", "gold King"], 1: ["gold VIII"], 2: ["green IX"]},
                              top="blue X")
    for answers in (("gold King",), (), ("blue IX", "orange X")):
        with pytest.raises(ValueError):
            build().turn(*answers)
    with pytest.raises(ValueError):
        build().apply("stop")
