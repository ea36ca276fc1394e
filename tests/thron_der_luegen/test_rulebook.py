"""Thron der Lügen: an independent audit of the kernel against the rulebook
(../shared/seeds/004_63fa91b936fc92e4.txt), one test per rule sentence that test_positions.py does
not already script, each quoting its sentence; plus a scorer written here from the rulebook alone
(it reads card names, not the deck table or scoring.py) compared with the kernel on random end
states, and the information rule in the paths the other tests leave open.

Throne t lies between seat t and seat t+1: seat s's thrones are t = s (left) and t = s - 1 (right).
Default deck and options unless said."""

import numpy as np
import pytest

from balance.engine.rng import new_stream
from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.game import GAME
from balance.games.thron_der_luegen.layout import (
    DISCARD, DRAW, DRAWN_SLOT, END_MOON_PAIR, END_PILE, HELD, PLAY, REVEAL_END, SWAP_FAR, SWAP_LEFT, SWAP_RIGHT,
)
from balance.games.thron_der_luegen.positions import Position, act
from balance.games.thron_der_luegen.rules import act_choices, deal_round, new_match
from tests.thron_der_luegen.test_play import ask

DEFAULT_NAMES = GAME.deck(GAME.make_setup("base", 4, "random")).names


def bit(pos: Position, name: str) -> int:
    return 1 << pos.deck.names.index(name)


def exhaust_pile_but(pos: Position, keep: int) -> None:
    """Move all but the top ``keep`` cards of the draw pile to the discard pile (earlier turns)."""
    s = pos.state
    for i in range(s[L.PILE_TOP] + keep, L.N_COURT):
        s[L.DISCARDS] |= 1 << s[L.PILE + i]
    order = s[L.PILE + s[L.PILE_TOP]: L.PILE + s[L.PILE_TOP] + keep].copy()
    s[L.PILE_TOP] = L.N_COURT - keep
    s[L.PILE + s[L.PILE_TOP]: L.PILE + L.N_COURT] = order
    assert pos.accounted()


# ---- Setup --------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_deals_a_throne_card_between_each_two_people_and_one_hand_card_each(players):
    """'Place the End cards face down ... Shuffle the court cards ... Place one card face down between
    each two people ... The remaining court cards form the draw pile ... Everyone now draws one court
    card from the pile into their hand.' 'The youngest person begins' (seat 0)."""
    pos = Position.build(players, thrones=list(DEFAULT_NAMES[:players]),
                         hands=list(DEFAULT_NAMES[players:2 * players]), end_shown=3)
    s = pos.state
    new_match(s, pos.opts)
    s[L.END_SHOWN] = 3  # End cards left face up by a previous round are face down again
    deal_round(s, pos.opts, pos.rng, pos.trace)
    assert pos.accounted()
    assert L.N_COURT - s[L.PILE_TOP] == L.N_COURT - 2 * players
    assert s[L.DISCARDS] == 0 and s[L.END_SHOWN] == 0 and s[L.DRAWN] == L.NO_CARD
    assert s[L.TURN_SEAT] == 0 and s[L.END_REASON] in (0, END_MOON_PAIR)


def test_the_deal_is_shuffled():
    """'Shuffle the court cards': different rounds get different throne cards."""
    pos = Position.build(4, thrones=list(DEFAULT_NAMES[:4]), hands=list(DEFAULT_NAMES[4:8]))
    deals = set()
    for seed in range(20):
        new_match(pos.state, pos.opts)
        pos.rng = new_stream(seed, 0)
        deal_round(pos.state, pos.opts, pos.rng, pos.trace)
        deals.add(tuple(pos.thrones()))
    assert len(deals) > 15


@pytest.mark.parametrize("pair_at_deal", [True, False])
def test_both_moon_3s_dealt_beside_one_person(pair_at_deal):
    """'If both Moon 3s lie at any time as your throne cards, reveal them. You win the round and receive
    1 point stone. The round ends.' Reading (option pair_at_deal, default true): 'at any time'
    includes the deal."""
    pos = Position.build(4, thrones=list(DEFAULT_NAMES[:4]), hands=list(DEFAULT_NAMES[4:8]),
                         options={"pair_at_deal": pair_at_deal})
    paired = plain = 0
    for seed in range(3000):
        new_match(pos.state, pos.opts)
        pos.rng = new_stream(seed, 0)
        deal_round(pos.state, pos.opts, pos.rng, pos.trace)
        thrones = pos.thrones()
        owner = [s for s in range(4) if thrones[s] == thrones[s - 1] == "Moon 3"]
        if owner:
            paired += 1
            assert pos.end_reason == (END_MOON_PAIR if pair_at_deal else 0)
            assert pos.round_stones() == [int(pair_at_deal and s == owner[0]) for s in range(4)]
        else:
            plain += 1
            assert pos.end_reason == 0 and pos.round_stones() == [0] * 4
    assert paired >= 5 and plain > 0


# ---- Your turn ----------------------------------------------------------------------------------
THRONES4 = ["Winter 5", "Summer 5", "Spring 2", "Autumn 2"]
HANDS4 = ["Autumn 3", "Spring 3", "Winter 4", "Summer 4"]


def test_play_passes_clockwise_to_the_left():
    """'play proceeds clockwise': seat s + 1 (the left neighbour, whose right throne is seat s's left
    throne) plays next, and after the last seat the first again."""
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, first=2)
    seen = []
    for _ in range(5):
        seen.append(pos.turn_seat)
        pos.turn(DRAW, act(DISCARD, DRAWN_SLOT))
    assert seen == [2, 3, 0, 1, 2]


def test_revealing_an_end_card_draws_nothing_and_three_do_not_end_the_round():
    """'you may, as your complete turn, reveal an End card instead of drawing a card'; 'The round ends
    as soon as all 4 End cards have been revealed' (not before)."""
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, end_shown=2)
    pile_top, thrones = int(pos.state[L.PILE_TOP]), pos.thrones()
    pos.turn(REVEAL_END)
    assert pos.state[L.END_SHOWN] == 3 and pos.end_reason == 0 and pos.turn_seat == 1
    assert pos.state[L.PILE_TOP] == pile_top and pos.thrones() == thrones and pos.hand(0) == "Autumn 3"
    assert pos.state[L.DISCARDS] == 0


def test_discard_has_no_further_effect():
    """'or place one of your two hand cards on the discard pile without any further effect.'"""
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["Moon 1"])
    pos.turn(DRAW, act(DISCARD, DRAWN_SLOT))
    assert pos.thrones() == THRONES4 and pos.hand(0) == "Autumn 3"
    assert pos.state[L.DISCARDS] == bit(pos, "Moon 1") and pos.end_reason == 0 and pos.accounted()


def test_an_intrigue_card_is_played_face_up_then_discarded_and_only_an_intrigue_card_is_played():
    """'play an intrigue card face up and carry it out. It is then placed on the discard pile.'
    A Fae card cannot be played, only swapped or discarded."""
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["intrigue: swap_thrones"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 0, 2)
    assert pos.state[L.DISCARDS] == bit(pos, "intrigue: swap_thrones") and pos.hand(0) == "Autumn 3"
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["Moon 1"])
    assert not act_choices(_drawn(pos), pos.opts, 0) >> act(PLAY, HELD) & 1
    with pytest.raises(ValueError):
        pos.turn(DRAW, act(PLAY, DRAWN_SLOT))


def _drawn(pos: Position):
    """The state after seat 0 drew the pile's top card (a copy)."""
    s = pos.state.copy()
    s[L.DRAWN] = s[L.PILE + s[L.PILE_TOP]]
    s[L.PILE_TOP] += 1
    return s


def test_after_drawing_each_of_the_two_hand_cards_may_be_swapped_left_or_right_or_discarded():
    """'swap one of your two hand cards with one of the throne cards next to you (left or right) ...
    or place one of your two hand cards on the discard pile'. Any hand card, an intrigue card too."""
    pos = Position.build(4, thrones=THRONES4, hands=["intrigue: peek_swap"] + HANDS4[1:], pile=["Moon 1"])
    choices = act_choices(_drawn(pos), pos.opts, 0)
    for kind in (SWAP_LEFT, SWAP_RIGHT, DISCARD):
        for slot in (HELD, DRAWN_SLOT):
            assert choices >> act(kind, slot) & 1
    pos.turn(DRAW, act(SWAP_LEFT, HELD))  # the intrigue card onto throne 0; it then counts 0 there
    assert pos.thrones()[0] == "intrigue: peek_swap" and pos.hand(0) == "Moon 1"
    assert pos.throne_score(0) == 2  # the Autumn 2 on throne 3 beside an intrigue card (0)


def test_the_sun_swap_into_another_persons_throne_discards_the_old_card_face_up():
    """'The cards of the Sun people can be swapped not only with your own throne cards, but also with the
    throne cards of other people.' A swap: 'The swapped-out card is placed face up on the discard pile'."""
    pos = Position.build(5, thrones=THRONES4 + ["Spring 3"], hands=["Sun +2", "Winter 4", "Summer 4", "Moon 1",
                                                                    "Autumn 3"], pile=["Winter -2"])
    pos.turn(DRAW, act(SWAP_FAR, HELD), 2)  # seat 0's thrones are 0 and 4: throne 2 lies between seats 2, 3
    assert pos.thrones()[2] == "Sun +2" and pos.hand(0) == "Winter -2"
    assert pos.state[L.DISCARDS] == bit(pos, "Spring 2") and pos.accounted()
    assert pos.state[L.PLACER + 2] == 0


# ---- Round end ----------------------------------------------------------------------------------
def test_the_round_goes_on_while_the_draw_pile_holds_a_card():
    """'the draw pile is used up (the person whose turn it is still finishes their turn)': with two
    cards left, the turn that draws one does not end the round; the next turn, drawing the last, does."""
    pos = Position.build(3, thrones=["Winter 5", "Summer 5", "Spring 2"], hands=["Autumn 2", "Autumn 3", "Spring 3"])
    exhaust_pile_but(pos, 2)
    pos.turn(DRAW, act(DISCARD, DRAWN_SLOT))
    assert pos.end_reason == 0
    pos.turn(DRAW, act(SWAP_RIGHT, DRAWN_SLOT))  # seat 1 still finishes its turn: the swap is made
    assert pos.end_reason == END_PILE and pos.state[L.THRONE + 0] != pos.deck.names.index("Winter 5")


def test_a_replace_from_pile_that_takes_the_last_card_ends_the_round_after_the_turn():
    """'the draw pile is used up (the person whose turn it is still finishes their turn)', however it
    is used up (assumed intrigue: replace a throne card with the top card of the draw pile)."""
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, pile=["intrigue: replace_from_pile", "Moon 1"])
    exhaust_pile_but(pos, 2)
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 2)
    assert pos.thrones()[2] == "Moon 1" and pos.end_reason == END_PILE and pos.accounted()


def test_the_moon_3s_end_the_round_at_once_even_on_the_turn_that_uses_up_the_pile():
    """'a person has both Moon 3s lying in front of them as throne cards (the round ends immediately,
    scoring is skipped)': the pair, made with the pile's last card, ends the round as the Moon 3s' end
    and nobody scores the highest score's stones."""
    pos = Position.build(3, thrones=["Moon 3", "Summer 5", "Spring 2"], hands=["Sun +2", "Winter 4", "Autumn 2"],
                         pile=["Moon 3"])
    exhaust_pile_but(pos, 1)
    pos.turn(DRAW, act(SWAP_RIGHT, DRAWN_SLOT))  # seat 0: throne 2 gets the second Moon 3
    assert pos.end_reason == END_MOON_PAIR
    assert pos.end_round() == [1, 0, 0]


def test_the_moon_3s_made_by_another_persons_intrigue_win_for_the_person_beside_them():
    """'If both Moon 3s lie at any time as your throne cards, reveal them. You win the round and receive
    1 point stone. The round ends.' Seat 0's intrigue moves a Moon 3 beside seat 2's other Moon 3."""
    pos = Position.build(4, thrones=["Moon 3", "Summer 5", "Moon 3", "Autumn 2"], hands=HANDS4,
                         pile=["intrigue: swap_thrones", "Winter -2"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 0, 1)  # thrones 0 and 1 exchange: seat 2 has thrones 1 and 2
    assert pos.end_reason == END_MOON_PAIR
    assert pos.end_round() == [0, 0, 1, 0]


def test_the_moon_3s_by_a_replacement_from_the_pile():
    """'If both Moon 3s lie at any time as your throne cards': a Moon 3 drawn onto a throne by an
    intrigue card (assumed: replace a throne card with the top card of the draw pile) makes the pair."""
    pos = Position.build(4, thrones=["Winter 5", "Moon 3", "Summer 5", "Autumn 2"], hands=HANDS4,
                         pile=["intrigue: replace_from_pile", "Moon 3"])
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 2)  # the pile's Moon 3 onto throne 2: seat 2's pair
    assert pos.end_reason == END_MOON_PAIR and pos.end_round() == [0, 0, 1, 0]


# ---- Scoring ------------------------------------------------------------------------------------
def test_cards_without_a_hand_rule_do_not_change_the_total_from_the_hand():
    """'Hand cards can modify the result (see "Special Cards")': only the cards with a 'Hand card' rule
    (Sun +2, Sun -1, -2) change the total; the Moon 1's hand rule gives a stone, not points."""
    for hand in ("Winter 5", "Summer x2", "Wild Hunt 7", "Moon 3", "Moon 1", "Spring 4|1", "intrigue: hide_end 1"):
        pos = Position.build(3, thrones=["Spring 2", "Autumn 3", "Summer 4"], hands=["Winter 4", hand, "Spring 3"])
        assert pos.throne_score(1) == 5 and pos.total(1) == 5, hand


def test_the_highest_total_with_hand_cards_wins_the_stones():
    """'Hand cards can modify the result'; 'The person with the highest score receives 2 point stones.'
    Seat 1 has the best thrones (9) but holds a -2; seat 2 (8) holds the Sun +2."""
    pos = Position.build(3, thrones=["Winter 5", "Summer 4", "Autumn 3"], hands=["Spring 2", "Winter -2", "Sun +2"])
    assert [pos.throne_score(s) for s in range(3)] == [8, 9, 7]
    assert [pos.total(s) for s in range(3)] == [8, 7, 9]
    assert pos.score() == [0, 0, 2]


def test_a_three_way_tie_for_the_highest_gives_each_1_stone():
    """'In case of a tie, the people involved each receive 1 point stone.'"""
    pos = Position.build(4, thrones=["Winter 5", "Summer 4", "Winter 4", "Summer 5"],
                         hands=["Sun -1", "Spring 2", "Autumn 2", "Spring 3"])
    assert [pos.throne_score(s) for s in range(4)] == [10, 9, 8, 9]
    assert [pos.total(s) for s in range(4)] == [9, 9, 8, 9]
    assert pos.score() == [1, 1, 0, 1]


def test_the_sun_minus_1_wins_alone_with_a_negative_throne_score_and_the_others_get_nothing():
    """'If the sum of your two throne cards at the end of the round is 3 points or less, you win the round
    alone and receive 2 point stones.' Seat 1: Summer x2 and Winter -2 (other peoples): -4."""
    pos = Position.build(3, thrones=["Winter -2", "Summer x2", "Wild Hunt 7"],
                         hands=["Winter 5", "Sun -1", "Summer 5"])
    assert pos.throne_score(1) == -4 and pos.total(1) == -5
    assert pos.score() == [0, 2, 0]


def test_the_moon_1_stone_and_the_highest_scores_stones_add_up():
    """'you receive 1 point stone (even if others have the same score)' and 'In case of a tie, the people
    involved each receive 1 point stone': seat 0 holds the Moon 1 with the lowest throne score (5) and,
    the others holding a -2, ties for the highest total (5)."""
    pos = Position.build(3, thrones=["Autumn 3", "Winter 4", "Spring 2"], hands=["Moon 1", "Winter -2", "Summer -2"])
    assert [pos.throne_score(s) for s in range(3)] == [5, 7, 6]
    assert [pos.total(s) for s in range(3)] == [5, 5, 4]
    assert pos.score() == [2, 1, 0]


def test_split_cards_stay_upright_when_moved():
    """'Make sure that the card always lies upright - not upside down': a 4|1 moved to another throne
    gives the 4 to the person on its left half there too (option split_cards = upright)."""
    pos = Position.build(4, thrones=["Spring 4|1", "Summer 5", "Moon 1", "Autumn 2"], hands=HANDS4,
                         pile=["intrigue: swap_thrones"])
    assert pos.throne_score(0) == 1 + 2 and pos.throne_score(1) == 4 + 5
    pos.turn(DRAW, act(PLAY, DRAWN_SLOT), 0, 2)
    assert pos.thrones()[2] == "Spring 4|1"
    assert pos.throne_score(2) == 1 + 5 and pos.throne_score(3) == 4 + 2


# ---- An independent scorer, from the rulebook's text alone ----------------------------------------
def card_of(name: str) -> dict:
    """The card a name stands for in the default deck: people, its rule, its number(s)."""
    if name.startswith("intrigue"):
        return {"people": None, "rule": "intrigue"}
    people, number = name.rsplit(" ", 1)
    if "|" in number:
        left, right = number.split("|")
        return {"people": people, "rule": "split", "left": int(left), "right": int(right)}
    if number == "x2":
        return {"people": people, "rule": "x2"}
    value = int(number)
    rule = {("Sun", 2): "sun+2", ("Sun", -1): "sun-1", ("Moon", 1): "moon1", ("Moon", 3): "moon3"}.get(
        (people, value), "hunt" if people == "Wild Hunt" else "-2" if value == -2 else "plain")
    return {"people": people, "rule": rule, "value": value}


def worth(card: dict, own_left: bool) -> int:
    """'Intrigue cards count 0 points'; a split card: 'The number on your side (left or right) counts'
    (upright, the seat it lies left of sits on its right half); the x2 counts 2 ('both x2 cards ... 4')."""
    if card["rule"] == "intrigue":
        return 0
    if card["rule"] == "split":
        return card["right"] if own_left else card["left"]
    if card["rule"] == "x2":
        return 2
    return card["value"]


def thrones_from_rulebook(left: dict, right: dict, readings: dict) -> int:
    a, b = worth(left, True), worth(right, False)
    hunts = [c for c in (left, right) if c["rule"] == "hunt"]
    hunt_doubled = readings.get("hunt_with_double") == "double"
    if len(hunts) == 2 and readings.get("two_hunts") == "cancel":  # each: 'the other throne card does not count'
        return 0
    if len(hunts) == 1:  # 'the respective other throne card does not count for you'
        other = right if left["rule"] == "hunt" else left
        hunt = hunts[0]["value"]
        return 2 * hunt if hunt_doubled and other["rule"] == "x2" else hunt
    if left["people"] is not None and left["people"] == right["people"]:  # 'only the value of the higher card'
        return max(a, b)
    if left["rule"] == "x2" and right["rule"] == "x2":  # 'your total score is 4'
        return 4
    if left["rule"] == "x2":  # 'The value of the other throne card is doubled'
        return 2 * b
    if right["rule"] == "x2":
        return 2 * a
    return a + b  # 'Different Fae peoples -> add the two values'


HAND_POINTS = {"sun+2": 2, "sun-1": -1, "-2": -2}  # 'Hand card: ...' of the Sun +2, the Sun -1, the -2


def printed_pair(left: dict, right: dict) -> bool:
    """'both x2 cards as throne cards, your total score is 4'; 'the -2 of the same Fae people, your score is 2'"""
    rules = {left["rule"], right["rule"]}
    return rules == {"x2"} or rules == {"x2", "-2"} and left["people"] == right["people"]


def totals_from_rulebook(thrones: list[int], pairs: list[tuple[dict, dict]], hands: list[dict],
                         readings: dict) -> list[int]:
    fixed = readings.get("printed_totals") == "total"
    return [thrones[s] if fixed and printed_pair(*pairs[s]) else thrones[s] + HAND_POINTS.get(hands[s]["rule"], 0)
            for s in range(len(thrones))]


def stones_from_rulebook(thrones: list[int], totals: list[int], pairs: list[tuple[dict, dict]], hands: list[dict],
                         readings: dict) -> list[int]:
    n = len(thrones)
    stones = [0] * n
    # 'the sum of your two throne cards': the throne score, or (lone_sum = cards) the two values added
    sums = [worth(pairs[s][0], True) + worth(pairs[s][1], False) if readings.get("lone_sum") == "cards"
            else thrones[s] for s in range(n)]
    alone = [s for s in range(n) if hands[s]["rule"] == "sun-1" and sums[s] <= 3]
    if alone:  # 'you win the round alone and receive 2 point stones'
        stones[alone[0]] = 2
        if readings.get("lone_win") == "all_stones":
            return stones
    else:
        best = [s for s in range(n) if totals[s] == max(totals)]
        for s in best:
            stones[s] = 2 if len(best) == 1 else 1
    lowest = totals if readings.get("moon_one_lowest") == "total" else thrones
    for s in range(n):  # 'the Moon 1 in your hand and ... the lowest total score of the throne cards'
        if hands[s]["rule"] == "moon1" and lowest[s] == min(lowest):
            stones[s] += 1
    return stones


READINGS = [{}, {"hunt_with_double": "double"},
            {"two_hunts": "cancel", "printed_totals": "total", "lone_sum": "cards", "lone_win": "all_stones",
             "moon_one_lowest": "total"}]


@pytest.mark.parametrize("readings", READINGS, ids=["defaults", "hunt_with_double", "other_readings"])
def test_the_kernel_scores_random_end_states_as_the_rulebook_does(readings):
    """Every scoring sentence at once: 300 random end states of 3 to 6 players (thrones and hands drawn
    from the default deck) scored by the scorer above and by the kernel, under each reading: the same
    throne scores, totals and point stones."""
    rng = np.random.default_rng(13)
    checked = 0
    while checked < 300:
        n = int(rng.integers(3, 7))
        names = [DEFAULT_NAMES[i] for i in rng.permutation(L.N_COURT)[:2 * n]]
        thrones, hands = names[:n], names[n:]
        if any(thrones[s] == thrones[s - 1] == "Moon 3" for s in range(n)):
            continue  # that round would have ended at once, unscored
        pos = Position.build(n, thrones=thrones, hands=hands, options=readings)
        pairs = [(card_of(thrones[s]), card_of(thrones[s - 1])) for s in range(n)]  # (left, right) of seat s
        expect = [thrones_from_rulebook(*pairs[s], readings) for s in range(n)]
        cards = [card_of(h) for h in hands]
        totals = totals_from_rulebook(expect, pairs, cards, readings)
        assert [pos.throne_score(s) for s in range(n)] == expect, (thrones, hands)
        assert [pos.total(s) for s in range(n)] == totals, (thrones, hands)
        assert pos.score() == stones_from_rulebook(expect, totals, pairs, cards, readings), (thrones, hands)
        checked += 1


# ---- The next round and the end of the game ---------------------------------------------------------
def test_the_next_round_begins_left_of_whoever_took_the_last_card():
    """'The next round begins with the person to the left of the person who had the last turn.' (the
    round ended by the used-up draw pile, seat 2 drawing the last card)"""
    pos = Position.build(4, thrones=THRONES4, hands=HANDS4, first=1)
    exhaust_pile_but(pos, 2)
    pos.turn(DRAW, act(DISCARD, DRAWN_SLOT))  # seat 1
    pos.turn(DRAW, act(DISCARD, DRAWN_SLOT))  # seat 2 takes the last card
    assert pos.end_reason == END_PILE
    pos.end_round()
    assert pos.state[L.FIRST] == 3


def test_the_next_round_begins_left_of_whoever_made_the_moon_pair():
    """'The next round begins with the person to the left of the person who had the last turn.' (seat 2
    begins, seat 3 completes its own Moon pair: seat 0 begins the next round)"""
    pos = Position.build(4, thrones=["Summer 5", "Spring 2", "Moon 3", "Autumn 2"], hands=HANDS4[:3] + ["Moon 3"],
                         first=2, pile=["Winter -2", "Summer -2"])
    pos.turn(DRAW, act(DISCARD, DRAWN_SLOT))  # seat 2
    pos.turn(DRAW, act(SWAP_LEFT, HELD))  # seat 3's thrones are 3 (left) and 2 (right)
    assert pos.end_reason == END_MOON_PAIR
    assert pos.end_round() == [0, 0, 0, 1] and pos.state[L.FIRST] == 0


def _ended(players: int, stones: list[int]) -> Position:
    """A round ended by the 4th End card in which seat 1 alone has the highest total (2 stones)."""
    thrones = ["Winter 5", "Summer 5", "Spring 2", "Autumn 2", "Spring 3", "Autumn 3"][:players]
    hands = ["Autumn 4|1", "Sun +2", "Winter 4", "Moon 3", "Summer 4", "Wild Hunt 6"][:players]
    pos = Position.build(players, thrones=thrones, hands=hands, end_shown=3, stones=stones)
    pos.turn(REVEAL_END)  # seat 0 reveals the 4th End card
    return pos


def test_four_stones_win_and_the_most_of_several_at_four_or_more_wins():
    """'Whoever first owns 4 point stones wins the game. If several people own 4 or more point stones,
    the person with the most point stones wins.'"""
    pos = _ended(4, [0, 2, 0, 0])
    assert pos.score() == [0, 2, 0, 0]
    assert pos.end_round() == [0, 4, 0, 0] and pos.state[L.WINNER] == 1 and pos.state[L.MATCH_OVER]
    pos = _ended(4, [0, 3, 4, 0])  # seat 1 reaches 5, seat 2 holds 4: seat 1 has the most
    assert pos.end_round() == [0, 5, 4, 0] and pos.state[L.WINNER] == 1
    pos = _ended(4, [0, 1, 4, 0])  # seat 2 owns 4, seat 1 reaches 3: seat 2
    assert pos.end_round() == [0, 3, 4, 0] and pos.state[L.WINNER] == 2


def test_a_tie_at_four_plays_one_more_round_which_decides():
    """'In case of a tie, one more round is played.' After it, the most stones win."""
    pos = _ended(4, [4, 2, 0, 0])
    assert pos.end_round() == [4, 4, 0, 0] and not pos.state[L.MATCH_OVER]
    again = _ended(4, pos.stones())
    assert again.end_round() == [4, 6, 0, 0] and again.state[L.WINNER] == 1


@pytest.mark.parametrize("players, need", [(3, 4), (4, 4), (5, 3), (6, 3)])
def test_the_stones_needed_by_player_count(players, need):
    """'The first person to own 4 point stones wins the game.' 'In a game with 5 or 6 people, 3 point
    stones are already enough to win the game!'"""
    short = _ended(players, [0, need - 3] + [0] * (players - 2))
    assert short.end_round()[1] == need - 1 and not short.state[L.MATCH_OVER]
    enough = _ended(players, [0, need - 2] + [0] * (players - 2))
    assert enough.end_round()[1] == need and enough.state[L.WINNER] == 1


# ---- Information: 'Each person may look at the two throne cards to their left and right at any time' --
SPLITS = ["Spring 4|1", "Spring 1|4", "Autumn 4|1", "Autumn 1|4"]
KINDS = {  # kind: (seat 0's hand card, the card it drew or is placing, the legal answers or None for the rules')
    L.TURN: ("Winter 4", None, 0b11), L.ACT: ("Sun +2", "intrigue: swap_thrones", None),
    L.FAR_THRONE: ("Summer 4", "Sun -1", 0b01110), L.SWAP_FIRST: ("Summer 4", None, 0b11111),
    L.SWAP_SECOND: ("Summer 4", None, 0b11011), L.PEEK_TARGET: ("Summer 4", None, 0b01110),
    L.PEEK_CHOICE: ("Summer 4", None, 0b111), L.REPLACE_TARGET: ("Summer 4", None, 0b11111),
}


def hidden_places(pos: Position) -> list[int]:
    """The state entries seat 0 of 5 cannot see: throne cards 1-3 it does not know, the other hands,
    the draw pile."""
    s = pos.state
    places = [L.THRONE + t for t in (1, 2, 3) if s[L.KNOWN + t] == L.NO_CARD]
    return places + [L.HAND + o for o in range(1, 5)] + [L.PILE + i for i in range(s[L.PILE_TOP], L.N_COURT)]


def redeal_hidden(pos: Position, rng) -> None:
    """Another world of the same view: the hidden cards dealt again among the hidden places; a split
    card on a hidden throne turned at random (option placer: dealt cards lie either way); seat 4, who
    looked at throne 2, knows its new card."""
    s = pos.state
    places = hidden_places(pos)
    s[places] = rng.permutation(s[places])
    for t in (1, 2, 3):
        if L.THRONE + t in places:
            s[L.FLIP + t] = rng.integers(0, 2)
    s[L.KNOWN + 4 * L.MAX_PLAYERS + 2] = s[L.THRONE + 2]


@pytest.mark.parametrize("policy", ["heuristic", "hasty", "patient"])
def test_decisions_ignore_hidden_split_orientations_and_what_others_know(policy):
    """A policy sees only its seat's view, with split cards turned by their placers (option placer):
    how a split card it cannot see lies, and which card another seat knows, never change its answer
    (test_play's information test plays upright split cards, where every hidden throne lies alike)."""
    setup = GAME.make_setup("base", 5, policy, options={"split_cards": "placer"})
    restrict = np.zeros((5, 32, 2), dtype=np.int64)
    rng = np.random.default_rng(4)
    for seed in range(12):
        for kind, (held, drawn, choices) in KINDS.items():
            free = [c for c in dict.fromkeys(DEFAULT_NAMES) if c not in (held, drawn) and c not in SPLITS]
            picks = list(rng.choice(free, size=7, replace=False))
            splits = list(rng.permutation(SPLITS))
            thrones = [picks[0], splits[0], picks[1], splits[1], picks[2]]
            hands = [held, splits[2], picks[3], splits[3], picks[4]]
            pos = Position.build(5, thrones=thrones, hands=hands, pile=[drawn] if drawn else [], seed=seed,
                                 options={"split_cards": "placer"})
            s = pos.state
            s[L.FLIP + 1], s[L.FLIP + 3] = rng.integers(0, 2, size=2)
            s[L.KNOWN + 4 * L.MAX_PLAYERS + 2] = s[L.THRONE + 2]
            s[L.PENDING] = 2
            if drawn:
                s[L.DRAWN] = s[L.PILE + s[L.PILE_TOP]]
                s[L.PILE_TOP] += 1
            if kind == L.FAR_THRONE:
                s[L.PLACING], s[L.DRAWN] = s[L.DRAWN], L.NO_CARD
            if kind == L.PEEK_CHOICE:
                s[L.KNOWN + 2] = s[L.THRONE + 2]  # seat 0 looked at throne 2
            legal = act_choices(s, pos.opts, 0) if choices is None else choices
            before = s.copy()
            answers = set()
            for world in range(5):
                s[:] = before
                if world:
                    redeal_hidden(pos, rng)
                answers.add(ask(s, pos.opts, 0, kind, legal, setup.policy_codes, setup.policy_params, restrict,
                                new_stream(seed, 1)))
            assert len(answers) == 1, (kind, seed)
