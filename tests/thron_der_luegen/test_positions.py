"""Thron der Lügen: every scoring rule and turn rule on hand-built positions, quoting the rulebook
(../shared/seeds/004_63fa91b936fc92e4.txt). Throne t lies between seat t and seat t+1: seat s's
thrones are t = s (left) and t = s - 1 (right). Default deck unless said."""

import pytest

from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.layout import (
    DRAW, DRAWN_SLOT, END_CARDS, END_MOON_PAIR, END_PILE, HELD, KEEP, PLAY, REVEAL_END, SWAP_FAR, SWAP_LEFT,
    SWAP_RIGHT, DISCARD, WITH_LEFT,
)
from balance.games.thron_der_luegen.positions import Position, act



PLAIN = ["Autumn 2", "Autumn 3", "Spring 2", "Spring 3", "Winter 4", "Winter 5", "Summer 4", "Summer 5"]


def seat1(left: str, right: str, hand: str = "Moon 1", players: int = 3, **kw) -> Position:
    """Seat 1 with ``left`` on throne 1, ``right`` on throne 0 and ``hand``; the other places hold
    plain cards not named here."""
    pool = [c for c in PLAIN if c not in (left, right, hand)]
    thrones = [right, left] + pool[: players - 2]
    hands = [pool[players - 2], hand] + pool[players - 1: 2 * players - 3]
    return Position.build(players, thrones=thrones, hands=hands, **kw)


# ---- "Check the Fae peoples of each of your two throne cards" ---------------------------------
def test_same_people_only_the_higher_value_counts():
    # "Same Fae people -> only the value of the higher card counts"
    assert seat1("Winter 4", "Winter 5").throne_score(1) == 5


def test_same_people_equal_values_count_once():
    # "(if the values are equal, only one counts)": seat 1 reads the right half of the Spring 4|1 on its
    # left throne (1) and the left half of the Spring 1|4 on its right throne (1)
    assert seat1("Spring 4|1", "Spring 1|4").throne_score(1) == 1


def test_different_peoples_add():
    # "Different Fae peoples -> add the two values"
    assert seat1("Winter 4", "Summer 5").throne_score(1) == 9


def test_x2_multiplies_the_other_card_of_another_people():
    # "(or multiply, if one is the x2)"; "The value of the other throne card is doubled"
    assert seat1("Winter x2", "Summer 5").throne_score(1) == 10


def test_x2_with_a_card_of_its_own_people_counts_the_higher():
    # "(provided it is of a different Fae people)": beside its own people, the same-people rule
    assert seat1("Winter x2", "Winter 5").throne_score(1) == 5


def test_both_x2_score_4():
    # "If you have both x2 cards as throne cards, your total score is 4."
    assert seat1("Winter x2", "Summer x2").throne_score(1) == 4


def test_x2_with_the_minus_2_of_its_people_scores_2():
    # "If the other throne card is the -2 of the same Fae people, your score is 2."
    assert seat1("Winter x2", "Winter -2").throne_score(1) == 2


def test_x2_doubles_a_minus_2_of_another_people():
    # x2: "The value of the other throne card is doubled (provided it is of a different Fae people)"
    assert seat1("Winter x2", "Summer -2").throne_score(1) == -4


def test_minus_2_beside_its_own_people_does_not_count():
    # "-2 Throne card: The throne card counts as always only if the other card is of a different Fae
    # people (but then -2)."
    assert seat1("Winter -2", "Winter 4").throne_score(1) == 4
    assert seat1("Winter -2", "Summer 4").throne_score(1) == 2


def test_intrigue_cards_count_0():
    # "Intrigue cards count 0 points"
    assert seat1("intrigue: swap_thrones", "Summer 5").throne_score(1) == 5
    assert seat1("intrigue: swap_thrones", "Summer x2").throne_score(1) == 0


def test_wild_hunt_makes_the_other_card_not_count():
    # "Wild Hunt - Throne card: At the end of the round, the respective other throne card does not count for you."
    assert seat1("Wild Hunt 6", "Summer 5").throne_score(1) == 6
    assert seat1("Summer -2", "Wild Hunt 7").throne_score(1) == 7


def test_wild_hunt_beside_x2_reading():
    # The x2 doubles "the other throne card", the Hunt says the other card "does not count": option
    assert seat1("Wild Hunt 6", "Summer x2").throne_score(1) == 6
    assert seat1("Wild Hunt 6", "Summer x2", options={"hunt_with_double": "double"}).throne_score(1) == 12


def test_both_wild_hunts_are_one_people():
    # same people: "only the value of the higher card counts"
    assert seat1("Wild Hunt 6", "Wild Hunt 7").throne_score(1) == 7


def test_both_wild_hunts_cancel_each_other_reading():
    # each Hunt: "the respective other throne card does not count for you" (option two_hunts = cancel)
    assert seat1("Wild Hunt 6", "Wild Hunt 7", options={"two_hunts": "cancel"}).throne_score(1) == 0


def test_sun_on_a_throne_counts_its_value():
    # "Throne card: The usual scoring rules apply (see 'Round End'). It is then worth 2 points." / "-1 point"
    assert seat1("Sun +2", "Winter 4").throne_score(1) == 6
    assert seat1("Sun -1", "Winter 4").throne_score(1) == 3
    assert seat1("Sun +2", "Sun -1").throne_score(1) == 2  # one people: the higher


def test_split_card_the_number_on_your_side_counts():
    # "Spring, Autumn - 4 | 1 & 1 | 4 - Throne card: The number on your side (left or right) counts. For
    # the person next to you, the respective other number applies. Make sure that the card always lies
    # upright - not upside down." Throne 1 is seat 1's left throne and seat 2's right throne.
    pos = seat1("Spring 4|1", "Winter 4")
    assert pos.thrones()[2] == "Autumn 2"
    assert pos.throne_score(1) == 4 + 1  # seat 1 reads the card's right half
    assert pos.throne_score(2) == 4 + 2  # seat 2 reads its left half (4), beside the Autumn 2
    pos = seat1("Spring 1|4", "Winter 4")
    assert pos.throne_score(1) == 4 + 4


def test_split_card_placer_option_turns_it_to_the_placer():
    # reading 'placer' (rules supplement: "the player who places one chooses its orientation")
    upright = seat1("Winter 4", "Summer 5", pile=["Spring 4|1"])
    upright.turn(DRAW, act(SWAP_LEFT, DRAWN_SLOT))  # seat 0's turn: its left throne is throne 0
    assert upright.thrones() == ["Spring 4|1", "Winter 4", "Autumn 2"]
    assert upright.throne_score(0) == 1 + 2  # as printed, seat 0 reads the right half: 1
    placer = seat1("Winter 4", "Summer 5", options={"split_cards": "placer"}, pile=["Spring 4|1"])
    placer.turn(DRAW, act(SWAP_LEFT, DRAWN_SLOT))
    assert placer.throne_score(0) == 4 + 2  # turned to its placer
    assert placer.throne_score(1) == 1 + 4


# ---- hand cards -----------------------------------------------------------------------------
def test_sun_plus_2_in_hand_adds_2():
    # "Hand card: You receive +2 to your total score at the end of the round."
    assert seat1("Winter 4", "Summer 5", hand="Sun +2").total(1) == 11


def test_the_printed_scores_of_the_x2_pairs_and_hand_cards_reading():
    # "If you have both x2 cards as throne cards, your total score is 4. If the other throne card is the
    # -2 of the same Fae people, your score is 2." By default the throne score, hand cards still count;
    # option printed_totals = total: the round total, hand cards ignored
    assert seat1("Winter x2", "Summer x2", hand="Sun +2").total(1) == 6
    assert seat1("Winter x2", "Summer x2", hand="Sun +2", options={"printed_totals": "total"}).total(1) == 4
    assert seat1("Winter x2", "Winter -2", hand="Summer -2").total(1) == 0
    assert seat1("Winter x2", "Winter -2", hand="Summer -2", options={"printed_totals": "total"}).total(1) == 2
    # any other pair keeps its hand card under either reading
    assert seat1("Winter x2", "Summer -2", hand="Sun +2", options={"printed_totals": "total"}).total(1) == -2


def test_minus_2_in_hand_subtracts_2():
    # "-2 Hand card: -2 points, regardless of the throne cards."
    assert seat1("Winter 4", "Summer 5", hand="Winter -2").total(1) == 7


def test_sun_minus_1_in_hand_wins_alone_with_3_or_less():
    # "Hand card: Counts -1 at the end of the round. If the sum of your two throne cards at the end of
    # the round is 3 points or less, you win the round alone and receive 2 point stones."
    pos = Position.build(3, thrones=["Spring 2", "Spring 3", "Winter 5"], hands=["Summer 4", "Sun -1", "Moon 3"])
    assert [pos.total(s) for s in range(3)] == [7, 2, 8]
    assert pos.score() == [0, 2, 0]  # seat 2 is highest, but seat 1 wins alone


def test_sun_minus_1_in_hand_with_4_counts_minus_1_only():
    pos = Position.build(3, thrones=["Spring 2", "Autumn 3", "Winter 5"], hands=["Summer 4", "Sun -1", "Moon 3"])
    assert pos.throne_score(1) == 5 and pos.total(1) == 4
    assert pos.score() == [0, 0, 2]


def test_the_sun_minus_1s_sum_of_two_throne_cards_reading():
    # "If the sum of your two throne cards ... is 3 points or less": seat 1 has Winter 4 and Winter -2,
    # throne score 4 (the same people: only the higher counts), the two cards' values 4 - 2 = 2
    hands = ["Summer 5", "Sun -1", "Moon 3"]
    pos = Position.build(3, thrones=["Winter -2", "Winter 4", "Autumn 3"], hands=hands)
    assert pos.throne_score(1) == 4 and pos.score() == [0, 0, 2]  # not alone: seat 2's 7 is highest
    cards = Position.build(3, thrones=["Winter -2", "Winter 4", "Autumn 3"], hands=hands,
                           options={"lone_sum": "cards"})
    assert cards.score() == [0, 2, 0]


def test_the_sun_minus_1s_win_alone_and_the_moon_1s_stone_reading():
    # seat 1 wins alone (Sun -1, Autumn 2 and Autumn 3: 3); seat 0 holds the Moon 1 with the lowest throne
    # score (Autumn 2 and Winter -2: 0). "you win the round alone": by default only the highest score's
    # stones are not given; option lone_win = all_stones: no other stone either
    thrones, hands = ["Autumn 2", "Autumn 3", "Winter -2"], ["Moon 1", "Sun -1", "Summer 4"]
    assert [Position.build(3, thrones=thrones, hands=hands).throne_score(s) for s in range(3)] == [0, 3, 1]
    assert Position.build(3, thrones=thrones, hands=hands).score() == [1, 2, 0]
    assert Position.build(3, thrones=thrones, hands=hands, options={"lone_win": "all_stones"}).score() == [0, 2, 0]


def test_the_moon_1s_lowest_total_score_of_the_throne_cards_reading():
    # seat 1 holds the Moon 1 (no modifier): throne scores [3, 4, 7, 8], totals [5, 4, 7, 8] (seat 0 holds
    # the Sun +2). The lowest throne score is seat 0's; the lowest total is seat 1's (option moon_one_lowest)
    thrones, hands = ["Spring 2", "Autumn 2", "Winter 5", "Spring 3"], ["Sun +2", "Moon 1", "Summer 4", "Autumn 3"]
    assert [Position.build(4, thrones=thrones, hands=hands).total(s) for s in range(4)] == [5, 4, 7, 8]
    assert Position.build(4, thrones=thrones, hands=hands).score() == [0, 0, 0, 2]
    assert Position.build(4, thrones=thrones, hands=hands, options={"moon_one_lowest": "total"}).score() == [0, 1, 0, 2]


def test_moon_1_in_hand_with_the_lowest_throne_score_gets_a_stone_even_when_tied():
    # "If at the end of the round you have the Moon 1 in your hand and at the same time the lowest total
    # score of the throne cards, you receive 1 point stone (even if others have the same score)."
    thrones = ["Spring 2", "Autumn 2", "Winter 5", "Spring 3"]
    pos = Position.build(4, thrones=thrones, hands=["Summer 4", "Moon 1", "Sun +2", "Autumn 3"])
    assert [pos.throne_score(s) for s in range(4)] == [3, 4, 7, 8]
    assert pos.score() == [0, 0, 2, 0]  # seat 1 is not lowest: no stone; seat 2 has 7 + 2
    pos = Position.build(4, thrones=thrones, hands=["Moon 1", "Summer 4", "Sun +2", "Autumn 3"])
    assert pos.score() == [1, 0, 2, 0]
    tied = Position.build(4, thrones=["Spring 2", "Summer 4", "Wild Hunt 7", "Winter 4"],
                          hands=["Moon 1", "Autumn 2", "Autumn 3", "Spring 3"])
    assert [tied.throne_score(s) for s in range(4)] == [6, 6, 7, 7]
    assert tied.score() == [1, 0, 1, 1]


# ---- point stones -----------------------------------------------------------------------------
HANDS3 = ["Autumn 2", "Autumn 3", "Spring 3"]
THRONES3 = ["Winter 5", "Summer 5", "Spring 2"]
THRONES4 = ["Winter 5", "Summer 5", "Spring 2", "Autumn 2"]
HANDS4 = ["Autumn 3", "Spring 3", "Winter 4", "Summer 4"]


def test_highest_gets_2_stones_tied_highest_1_each():
    # "The person with the highest score receives 2 point stones. In case of a tie, the people involved
    # each receive 1 point stone."
    pos = Position.build(3, thrones=THRONES3, hands=HANDS3)
    assert [pos.total(s) for s in range(3)] == [7, 10, 7]
    assert pos.score() == [0, 2, 0]
    tie = Position.build(3, thrones=["Winter 4", "Autumn 3", "Summer 5"], hands=["Spring 2", "Sun +2", "Spring 3"])
    assert [tie.total(s) for s in range(3)] == [9, 9, 8]
    assert tie.score() == [1, 1, 0]


# ---- the turn -----------------------------------------------------------------------------------
def test_swap_puts_the_old_throne_card_face_up_on_the_discards():
    # "swap one of your two hand cards with one of the throne cards next to you (left or right). The
    # swapped-out card is placed face up on the discard pile"; "At the end of your turn you may
    # therefore only ever have 1 hand card."
    pos = Position.build(3, thrones=THRONES3, hands=HANDS3, pile=["Moon 1"])
    pos.turn(DRAW, act(SWAP_RIGHT, HELD))  # seat 0: right throne is throne 2; puts its Autumn 2 there
    assert pos.thrones() == ["Winter 5", "Summer 5", "Autumn 2"]
    assert pos.state[L.DISCARDS] == 1 << pos.deck.names.index("Spring 2")
    assert pos.hand(0) == "Moon 1" and pos.accounted() and pos.turn_seat == 1


def test_only_sun_cards_go_to_another_persons_throne():
    # "The cards of the Sun people can be swapped not only with your own throne cards, but also with the
    # throne cards of other people."
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["Sun -1"])
    with pytest.raises(ValueError):
        pos.turn(DRAW, act(SWAP_FAR, HELD))  # Autumn 2 is not a Sun card
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["Sun -1"])
    pos.turn(DRAW, act(SWAP_FAR, DRAWN_SLOT), 2)  # seat 0 puts the Sun -1 on throne 2 (seats 2 and 3)
    assert pos.hand(0) == "Autumn 3"
    assert pos.thrones()[2] == "Sun -1" and pos.accounted()


def test_reveal_end_card_is_the_whole_turn_and_the_fourth_ends_the_round():
    # "you may, as your complete turn, reveal an End card instead of drawing a card"; "The round ends as
    # soon as all 4 End cards have been revealed"
    pos = Position.build(3, thrones=THRONES3, hands=HANDS3, end_shown=3)
    pos.turn(REVEAL_END)
    assert pos.end_reason == END_CARDS and pos.hand(0) == "Autumn 2"


def test_the_used_up_pile_ends_the_round_after_that_turn():
    # "the draw pile is used up (the person whose turn it is still finishes their turn)"
    pos = Position.build(3, thrones=THRONES3, hands=HANDS3)
    for i in range(pos.state[L.PILE_TOP], L.N_COURT - 1):  # all but one pile card already discarded
        pos.state[L.DISCARDS] |= 1 << pos.state[L.PILE + i]
    pos.state[L.PILE_TOP] = L.N_COURT - 1
    assert pos.accounted()
    pos.turn(DRAW, act(SWAP_LEFT, DRAWN_SLOT))
    assert pos.end_reason == END_PILE and pos.accounted()


def test_both_moon_3s_end_the_round_at_once_for_1_stone_without_scoring():
    # "a person has both Moon 3s lying in front of them as throne cards (the round ends immediately,
    # scoring is skipped)"; "You win the round and receive 1 point stone."
    pos = Position.build(3, thrones=["Moon 3", "Summer 5", "Spring 2"], hands=["Moon 3", "Sun +2", "Autumn 2"],
                         pile=["Winter 4"])
    pos.turn(DRAW, act(SWAP_RIGHT, HELD))  # seat 0: throne 2 gets the second Moon 3
    assert pos.end_reason == END_MOON_PAIR
    assert pos.end_round() == [1, 0, 0]


def test_intrigue_swap_any_two_throne_cards():
    # assumed effect (rules supplement): "swap any two throne cards on the table"
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["intrigue: swap_thrones"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 1, 3)
    assert pos.thrones() == ["Winter 5", "Autumn 2", "Spring 2", "Summer 5"] and pos.accounted()


def test_everyone_sees_who_places_a_card_and_where_it_moves():
    # the swap is made in view of everyone; the new card's face is not (rules supplement)
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["Moon 1", "intrigue: swap_thrones"])
    pos.turn(DRAW, act(SWAP_LEFT, HELD))  # seat 0 puts its Autumn 3 on throne 0
    assert list(pos.state[L.PLACER: L.PLACER + 4]) == [0, L.NOBODY, L.NOBODY, L.NOBODY]
    assert pos.state[L.KNOWN + 2 * L.MAX_PLAYERS + 0] == L.NO_CARD  # seat 2 does not know the card
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 0, 2)  # seat 1 exchanges thrones 0 and 2
    assert list(pos.state[L.PLACER: L.PLACER + 4]) == [L.NOBODY, L.NOBODY, 0, L.NOBODY]
    assert pos.thrones()[2] == "Autumn 3"
    # seat 1 saw the Autumn 3 beside it, so it knows it on throne 2, which is not beside it
    assert pos.deck.names[pos.state[L.KNOWN + 1 * L.MAX_PLAYERS + 2]] == "Autumn 3"


def test_intrigue_peek_then_swap_with_one_of_yours():
    # assumed effect: "look at any throne card, then you may swap it with one of yours"
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["intrigue: peek_swap"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 1, WITH_LEFT)  # seat 0 looks at throne 1, swaps with throne 0
    assert pos.thrones()[:2] == ["Summer 5", "Winter 5"]
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["intrigue: peek_swap"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 2, KEEP)
    assert pos.thrones()[:2] == ["Winter 5", "Summer 5"]


def test_answers_by_name_step_the_rules_as_the_bits_do_and_a_seat_views_only_what_it_knows():
    # the step kernel's verbs: each pending decision's legal answers by name, answered one at a time
    by_name = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["intrigue: peek_swap"])
    assert by_name.legal() == ["draw", "reveal end"]
    by_name.apply("draw")
    assert by_name.legal() == ["swap left held", "swap left drawn", "swap right held", "swap right drawn",
                               "play drawn", "discard held", "discard drawn"]
    by_name.apply("play drawn")
    assert by_name.legal() == ["throne 1", "throne 2"]  # a throne not its own (seat 0's are 0 and 3)
    by_name.apply("throne 1")
    assert by_name.legal() == ["keep", "with left", "with right"]
    by_name.apply("with left")
    by_bits = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["intrigue: peek_swap"])
    by_bits.turn(DRAW, act(PLAY, DRAWN_SLOT), 1, WITH_LEFT)
    assert by_name.thrones() == by_bits.thrones() == ["Summer 5", "Winter 5", "Spring 2", "Autumn 2"]
    assert by_name.turn_seat == by_bits.turn_seat == 1 and not by_name.over
    # seat 2 saw the Summer 5 beside it move to throne 0; throne 3 it has never seen
    assert by_name.view(2) == {"hand": "Winter 4", "drawn": "-", "thrones": ["Summer 5", "Winter 5", "Spring 2", "?"],
                               "discards": ["intrigue: peek_swap"], "end_shown": 0, "stones": [0, 0, 0, 0]}
    with pytest.raises(ValueError):
        by_name.apply("with left")  # the next turn asks for a turn's choice


def test_intrigue_replace_from_pile_and_hide_end():
    # assumed effects: "replace any throne card with the top card of the draw pile (the old one is
    # discarded face up)"; "turn one revealed End card face down"
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["intrigue: replace_from_pile", "Moon 1"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 2)
    assert pos.thrones()[2] == "Moon 1" and pos.accounted()
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4,
                         pile=["intrigue: hide_end 1"], end_shown=2)
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT))
    assert pos.state[L.END_SHOWN] == 1


def test_discard_keeps_one_hand_card():
    pos = Position.build(3, thrones=THRONES3, hands=HANDS3, pile=["Moon 1"])
    pos.turn(DRAW, act(DISCARD, HELD))
    assert pos.hand(0) == "Moon 1" and pos.accounted()


# ---- the match ---------------------------------------------------------------------------------
def test_next_round_begins_left_of_the_last_turn_and_four_stones_win():
    # "The next round begins with the person to the left of the person who had the last turn."
    # "Whoever first owns 4 point stones wins the game."
    pos = Position.build(3, thrones=THRONES3, hands=HANDS3, end_shown=3,
                         first=0, stones=[0, 3, 3], pile=["Winter 4"])
    pos.turn(DRAW, act(DISCARD, HELD))  # seat 0
    pos.turn(REVEAL_END)  # seat 1 reveals the 4th End card
    assert pos.end_round() == [0, 5, 3]
    assert pos.state[L.FIRST] == 2 and pos.state[L.WINNER] == 1


def test_several_at_four_the_most_wins_a_tie_plays_on():
    # "If several people own 4 or more point stones, the person with the most point stones wins. In
    # case of a tie, one more round is played."
    tie = Position.build(3, thrones=["Winter 4", "Autumn 3", "Summer 5"], hands=["Spring 2", "Sun +2", "Spring 3"],
                         end_shown=4, stones=[3, 3, 3])
    tie.state[L.END_REASON] = END_CARDS
    assert tie.end_round() == [4, 4, 3] and tie.state[L.WINNER] == L.NOBODY and not tie.state[L.MATCH_OVER]


def test_three_stones_win_with_five_or_six():
    # "In a game with 5 or 6 people, 3 point stones are already enough to win the game!"
    pos = Position.build(5, thrones=["Winter 5", "Summer 5", "Spring 2", "Autumn 2", "Spring 3"],
                         hands=["Autumn 3", "Winter 4", "Summer 4", "Moon 1", "Sun +2"], end_shown=4,
                         stones=[1, 1, 0, 0, 0])
    pos.state[L.END_REASON] = END_CARDS
    assert pos.end_round() == [1, 3, 0, 1, 0] and pos.state[L.WINNER] == 1
