"""The Mercenary modes: Cutthroat Mercenaries (3 players) and 2v2 Mercenaries (4 players), with the
Bard and the Arbiter, whose texts are scenario data.

Rulebook ("Cutthroat Mercenaries", "2v2 Mercenaries", the mustering actions at its end): an Army of
the five Army cards each; "Make a Mercenary deck with one copy of each of the 9 Signature Cards";
each round "Shuffle the Mercenary deck and deal 5 cards face up to the Mercenary area", deal 8 (2v2:
7) each, "The last card is the Accused card"; "Bid. Each player places 3 cards from their hand face
down. When everyone is ready, reveal them and say out loud the total value of your 3 cards"; "The
highest bid wins and may swap any of their revealed cards for any Mercenary cards, for free. If bids
tie, the True King decides who wins"; the True King chooses first player and direction; "Mustering
Phase. Starting with the player going last and going in reverse turn order": "Recruit from your
Army: swap one of your 3 revealed bid cards for a card from your Army (the Army card stays face
down)", "Recruit a Mercenary: Exhaust a card from your Army, then discard one of your 3 revealed bid
cards and take a card from the Mercenary area. You pay this cost every time.", "Recommission:
Exhaust 2 cards from your Army to put 1 Exhausted card back into your Army"; "After the round,
return all Signature Cards to the Mercenary deck". 2v2: "3 cards face down for the bid, plus 1 more
face down card ... This extra card may be added to your bid, and your partner will get to see it";
raising "within a set time"; "When you Recommission, you may return a card to your partner's Army";
"The winning team scores 1 point, plus +1 for each face-up King on their team. There are no bonus
points for cards left in opponents' hands." Card sheet: Bard (4) "When played on a card of base
value 3 or 4, Recall."; the Arbiter (5), FAQ: "Can I play the Arbiter if I have no other cards to
exchange? No."
"""

import random

import numpy as np
import pytest

from balance.engine.decision import no_restrictions
from balance.engine.game import SetupError
from balance.engine.rng import new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME, MAX_ROUNDS
from balance.games.imposter_kings.match import game_buffers
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.views import choose, decisions, kinds_where_hidden_cards_matter

T = L.TYPES
CT = "cutthroat_mercenaries"
TV = "two_v_two_mercenaries"
ARMY = ["Elder", "Inquisitor", "Judge", "Oathbound", "Soldier"]
MERCS = ["Exile", "Conspiracist", "Aegis", "Flag Bearer", "Lockshift"]
# A scripted Cutthroat Mercenaries deal: 24 of the 25 cards (the King's Hand is the Accused).
HANDS = {0: ["Fool", "Elder", "Zealot", "Soldier", "Oathbound", "Mystic", "Sentry", "Queen"],
         1: ["Assassin", "Elder", "Inquisitor", "Bard", "Judge", "Herald", "Warlord", "Princess"],
         2: ["Inquisitor", "Executioner", "Bard", "Soldier", "Oathbound", "Immortal", "Warden", "Spy"]}
BIDS = {0: ["Fool", "Elder", "Zealot"], 1: ["Assassin", "Elder", "Inquisitor"],  # 7, 9
        2: ["Inquisitor", "Executioner", "Bard"]}                                 # 12


def dealt(mode=CT, true_king=0, hands=HANDS, options=None):
    return Position.deal(mode, seed=1, true_king=true_king, hands=hands, accused="King's Hand",
                         mercenaries=MERCS, options=options)


def bid(pos, bids):
    """Every seat places its bid cards (2v2: then its extra card), from the True King's seat on."""
    for _ in range(len(bids)):
        assert pos.phase == "Reveal"
        for card in bids[pos.decider][:3]:
            pos.apply(card)
        if len(bids[pos.decider]) > 3:
            assert pos.pick_for == "fourth card for the partner"
            pos.apply(bids[pos.decider][3])
    return pos


def to_muster(options=None, first=0, direction="clockwise"):
    """Bids placed, seat 2 wins and swaps nothing, the True King (seat 0) lets ``first`` go first; the
    first seat to muster keeps its King (the muster's King step)."""
    pos = bid(dealt(options=options), BIDS)
    pos.apply("no")
    pos.apply(first)
    pos.apply(direction)
    return keep_king(pos)


def keep_king(pos):
    """A seat's Mercenary muster begins with its King step ("a King with both facets"): keep the King."""
    if pos.phase == "choose a King":
        pos.apply("keep")
    return pos


def musters_done(pos):
    """Every seat left keeps its King and musters nothing; the seats in the order they mustered."""
    seen = []
    while pos.phase == "choose a King" or pos.pick_for == "Mercenary muster":
        if pos.pick_for == "Mercenary muster":
            seen.append(pos.decider)
        pos.apply("no")
    return seen


def row(pos, zone, p=0):
    return pos.s[zone + p * T:zone + (p + 1) * T]


def in_round(pos, seats):
    """The round's cards: its deck, the Mercenaries dealt, the Army cards taken this round."""
    deck = L.CUTTHROAT_MERC_DECK if seats == 3 else L.TWO_V_TWO_MERC_DECK
    return deck + row(pos, L.MERC_DEALT) + sum(row(pos, L.ARMY_TAKEN, p) for p in range(seats))


def assert_accounted(pos, seats, taken=None):
    """Every card of the round in one zone (hands, bid cards, Court, removed, the Mercenary area, ...),
    no negative count, each Army with its Exhaust zone and taken cards the five Army cards, no
    Signature Card in an Army, and what a seat knows of another hand is there."""
    expected = in_round(pos, seats) if taken is None else taken
    assert np.array_equal(pos.card_counts(), expected), pos.describe()
    assert pos.s[L.HAND:L.KNOWN_SUCCESSOR].min() >= 0 and row(pos, L.MERC).min() >= 0
    for p in range(seats):
        whole = row(pos, L.ARMY, p) + row(pos, L.EXHAUST, p) + (0 if pos.over else row(pos, L.ARMY_TAKEN, p))
        # (2v2 Mercenaries: a Recommission may put a card into the partner's Army)
        assert (seats == 4 or whole.sum() == 5) and np.all(whole[L.SIGNATURE == 1] == 0), pos.describe()
        for o in range(seats):
            if o != p:
                assert np.all(pos.s[L.known_at(o, p):L.known_at(o, p) + T] <= row(pos, L.HAND, p))
    armies = sum(row(pos, zone, p) for zone in (L.ARMY, L.EXHAUST, L.ARMY_TAKEN) for p in range(seats))
    if not pos.over:
        assert np.array_equal(armies, L.ARMY_CARDS * seats)


def apply_accounted(pos, seats, answer):
    """Apply ``answer`` and check every card is accounted for. The round's end Exhausts the Army cards
    taken, so a round-ending answer is checked against the round's cards before it, and a Rally (the
    King facets') that ends the round adds its card."""
    taken = in_round(pos, seats)
    if pos.phase_code == L.PH_PICK_CARD and pos.s[L.PICK_FOR] == L.PICK_RALLY:
        taken[answer] += 1
    R.apply_action(pos.s, pos.cfg, answer)
    assert_accounted(pos, seats, taken if pos.over else None)


# ---- the deal -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode, seats, hand, deck", [(CT, 3, 8, 25), (TV, 4, 7, 29)])
def test_the_deal_decklist_hands_accused_armies_and_five_mercenaries_face_up(mode, seats, hand, deck):
    deck_counts = L.CUTTHROAT_MERC_DECK if seats == 3 else L.TWO_V_TWO_MERC_DECK
    assert deck_counts.sum() == deck and deck_counts[L.BARD] == 2 and deck_counts[L.ARBITER] == (seats == 4)
    areas = set()
    for seed in range(6):
        pos = Position.deal(mode, seed=seed, true_king=0)
        assert [len(pos.hand(p)) for p in range(seats)] == [hand] * seats  # "The last card is the Accused"
        assert pos.s[L.UNUSED] == -1 and pos.phase == "Reveal" and pos.decider == 0
        for p in range(seats):
            assert sorted(pos.army(p)) == ARMY and pos.exhausted(p) == []
        merc = pos.mercenaries()
        assert len(merc) == len(set(merc)) == 5 and all(L.SIGNATURE[L.type_of(m)] for m in merc)
        areas.add(tuple(merc))
        assert_accounted(pos, seats)
    assert len(areas) > 1


# ---- the Bid and the free swap ---------------------------------------------------------------------------
def test_three_bid_cards_each_revealed_together_the_highest_total_swaps_for_mercenaries():
    pos = dealt()
    for card in BIDS[0]:
        pos.apply(card)
    assert pos.decider == 1 and pos.revealed(0) == [] and sorted(pos.placed(0)) == sorted(BIDS[0])
    bid(pos, {1: BIDS[1], 2: BIDS[2]})
    assert [pos.bid(p) for p in range(3)] == [7, 9, 12] and pos.placed(2) == []
    assert pos.pick_for == "bid swap: take a Mercenary" and pos.decider == 2
    assert sorted(pos.legal()) == sorted(MERCS + ["no"])
    pos.apply("Exile")  # into the hand, in everyone's sight
    assert "Exile" in pos.hand(2) and pos.known(0, 2) == ["Exile"] and pos.known(1, 2) == ["Exile"]
    assert pos.pick_for == "bid swap: give" and sorted(pos.legal()) == ["Bard", "Executioner", "Inquisitor"]
    pos.apply("Bard")  # default bid_swap 'discard': out of the round face up
    assert pos.removed() == ["Bard"] and "Exile" not in pos.mercenaries() and len(pos.mercenaries()) == 4
    assert pos.pick_for == "bid swap: take a Mercenary"
    pos.apply("no")
    assert pos.phase == "first player (seat)" and pos.decider == 0  # the True King chooses


def test_the_swapped_card_may_go_to_the_mercenary_area_instead():
    pos = bid(dealt(options={"bid_swap": "to_mercenary_area"}), BIDS)
    pos.play("Conspiracist", "Executioner")
    assert "Executioner" in pos.mercenaries() and pos.removed() == [] and "Conspiracist" not in pos.mercenaries()
    assert_accounted(pos, 3)


def test_a_tied_bid_is_decided_by_the_true_king_among_the_tied():
    bids = {**BIDS, 0: ["Fool", "Soldier", "Oathbound"]}  # 12, as seat 2's
    pos = bid(dealt(true_king=1), bids)
    assert pos.pick_for == "bid tie" and pos.decider == 1 and pos.legal() == [0, 2]
    pos.apply(0)
    assert pos.pick_for == "bid swap: take a Mercenary" and pos.decider == 0


# ---- the Mustering Phase ------------------------------------------------------------------------------
@pytest.mark.parametrize("first, direction, order", [(0, "clockwise", [2, 1, 0]), (0, "counterclockwise", [1, 2, 0]),
                                                     (1, "clockwise", [0, 2, 1])])
def test_mustering_goes_from_the_player_going_last_in_reverse_turn_order(first, direction, order):
    pos = to_muster(first=first, direction=direction)
    assert musters_done(pos) == order
    # then everyone takes the bid cards back (in everyone's sight), Successors and Dungeons, no mulligan
    assert pos.phase == "Successor" and pos.decider == first and pos.revealed(0) == []
    assert sorted(pos.known(1, 0)) == sorted(BIDS[0]) and len(pos.hand(0)) == 8


def test_recruit_from_the_army_costs_nothing_discards_a_bid_card_and_the_army_card_stays_hidden():
    pos = to_muster()
    assert pos.decider == 2
    legal = pos.legal()
    assert {"Inquisitor", "Executioner", "Bard", "mercenary", "yes", "no"} == set(legal)
    assert "Spy" not in legal  # "you can only swap out the 3 cards you revealed for the bid"
    pos.apply("Bard")
    assert pos.pick_for == "Recruit: take" and sorted(pos.legal()) == ARMY and pos.exhausted(2) == []
    pos.apply("Oathbound")
    assert pos.removed() == ["Bard"] and pos.army_taken(2) == ["Oathbound"] and pos.exhausted(2) == []
    assert pos.known(0, 2) == [] and pos.hand(2).count("Oathbound") == 2 and pos.pick_for == "Mercenary muster"
    assert_accounted(pos, 3)


def test_recruit_a_mercenary_exhausts_an_army_card_every_time_and_comes_in_sight():
    pos = to_muster()
    for k, (cost, give, merc) in enumerate([("Elder", "Inquisitor", "Exile"), ("Judge", "Executioner", "Aegis")]):
        pos.apply("mercenary")
        assert pos.pick_for == "Recruit a Mercenary: Exhaust" and len(pos.legal()) == 5 - k
        pos.apply(cost)
        assert pos.pick_for == "Recruit a Mercenary: discard"
        pos.apply(give)
        assert pos.pick_for == "Recruit a Mercenary: take" and merc in pos.legal()
        pos.apply(merc)
        assert merc in pos.hand(2) and merc in pos.known(0, 2) and merc not in pos.mercenaries()
    assert sorted(pos.exhausted(2)) == ["Elder", "Judge"] and sorted(pos.removed()) == ["Executioner", "Inquisitor"]
    assert pos.army_taken(2) == [] and pos.revealed(2) == ["Bard"]
    assert_accounted(pos, 3)


def test_with_the_bid_cards_spent_only_recommission_and_done_are_left():
    pos = to_muster()
    pos.play("Bard", "Elder", "Inquisitor", "Judge", "Executioner", "Soldier")
    assert pos.revealed(2) == [] and pos.legal() == ["yes", "no"]  # 2 Army cards left: Recommission
    pos = to_muster()
    pos.play("Bard", "Elder")
    assert set(pos.legal()) == {"Inquisitor", "Executioner", "mercenary", "yes", "no"}


def test_recommission_exhausts_two_army_cards_to_put_one_back():
    pos = to_muster()
    pos.play("yes", "Elder", "Judge")
    assert pos.pick_for == "Recommission: put back" and sorted(pos.legal()) == ["Elder", "Judge"]
    pos.apply("Judge")
    assert pos.exhausted(2) == ["Elder"] and sorted(pos.army(2)) == ["Inquisitor", "Judge", "Oathbound", "Soldier"]
    assert pos.pick_for == "Mercenary muster"


# ---- 2v2 Mercenaries: the extra card, raising, the partner's Army, scoring ------------------------------------
TV_HANDS = {0: ["Queen", "Elder", "Soldier", "Inquisitor", "Oathbound", "Mystic", "Judge"],
            1: ["Princess", "Zealot", "Soldier", "Inquisitor", "Oathbound", "Bard", "Warlord"],
            2: ["King's Hand", "Sentry", "Assassin", "Herald", "Executioner", "Spy", "Warden"],
            3: ["Arbiter", "Assassin", "Fool", "Elder", "Executioner", "Bard", "Fool"]}
TV_BIDS = {0: ["Elder", "Soldier", "Inquisitor", "Queen"],      # 12, extra 9
           1: ["Zealot", "Soldier", "Inquisitor", "Princess"],   # 12, extra 9
           2: ["Sentry", "Herald", "Executioner", "Assassin"],   # 18, extra 2
           3: ["Fool", "Elder", "Executioner", "Bard"]}          # 8, extra 4


def tv_dealt(true_king=0):
    return Position.deal(TV, seed=1, true_king=true_king, hands=TV_HANDS, accused="Immortal", mercenaries=MERCS)


def test_two_v_two_the_extra_card_is_placed_with_the_bid_and_the_partner_sees_it_after_the_bid():
    pos = tv_dealt()
    for card in TV_BIDS[0][:3]:
        pos.apply(card)
    assert pos.pick_for == "fourth card for the partner" and pos.decider == 0 and pos.revealed(0) == []
    pos.apply(TV_BIDS[0][3])
    bid(pos, {q: TV_BIDS[q] for q in (1, 2, 3)})
    assert [pos.bid(q) for q in range(4)] == [12, 12, 18, 8] and pos.phase == "raise the bid"
    assert pos.partner_card(0) == "Queen" and pos.known(2, 0) == []
    assert pos.decider == 0  # in turn order from the True King's seat


def test_two_v_two_raising_restarts_the_timer_and_ends_when_nobody_raises():
    pos = bid(tv_dealt(), TV_BIDS)
    asked = []
    for answer in ("no", "yes", "no", "no", "no"):  # seat 1 raises: 0, 2, 3 are asked again
        asked.append(pos.decider)
        pos.apply(answer)
    assert asked == [0, 1, 0, 2, 3]
    assert pos.bid(1) == 21 and pos.s[L.EXTRA_SHOWN + 1] == 1
    # 21 beats 18: seat 1 swaps
    assert pos.pick_for == "bid swap: take a Mercenary" and pos.decider == 1


def test_two_v_two_partners_see_the_extra_cards_and_everyone_a_raised_one_when_cards_go_back():
    pos = bid(tv_dealt(), TV_BIDS)
    pos.play("no", "yes", "no", "no", "no", "no", 0, "clockwise")
    musters_done(pos)
    assert pos.phase == "Successor"
    assert "Queen" in pos.known(2, 0) and "Queen" not in pos.known(1, 0)   # unraised: the partner only
    assert all("Princess" in pos.known(o, 1) for o in (0, 2, 3))           # raised: everyone


def test_two_v_two_recommission_may_feed_the_partners_army():
    pos = bid(tv_dealt(), TV_BIDS)
    pos.play("no", "no", "no", "no", "no", 0, "clockwise", "keep")  # seat 2 wins (18) and swaps nothing
    assert pos.pick_for == "Mercenary muster" and pos.decider == 3
    pos.play("yes", "Elder", "Judge")
    assert pos.pick_for == "Recommission: whose Army" and pos.legal() == [1, 3]
    pos.apply(1)
    pos.apply("Judge")
    assert sorted(pos.army(1)) == sorted(ARMY + ["Judge"]) and sorted(pos.army(3)) == ["Inquisitor", "Oathbound", "Soldier"]
    assert pos.exhausted(3) == ["Elder"]


@pytest.mark.parametrize("flipped, points", [({}, 3), ({0: True}, 2), ({0: True, 2: True}, 1)])
def test_two_v_two_mercenaries_scoring_one_plus_each_face_up_king_of_the_team_no_hand_bonus(flipped, points):
    pos = Position.build(mode=TV, hands={0: ["Fool"], 1: ["Fool"], 2: ["Soldier"], 3: ["Elder", "Queen"]},
                         court=["Princess"], turn=1, flipped={**flipped, 1: True},
                         successors={3: "Judge"})
    assert pos.over and pos.winner == 0 and pos.points == points  # seat 1 is stuck: team 0 wins


def test_cutthroat_mercenaries_scoring_is_cutthroats():
    pos = Position.build(mode=CT, hands={0: ["Fool"], 1: ["Fool"], 2: ["Queen", "Elder"]}, court=["Princess"],
                         turn=1, flipped={1: True}, out=[0])
    # seat 1 is stuck (out second): seat 2 wins 1 + its King + 1 per opponent with cards (both); seat 1
    # scores second place's 1; seat 0, out first, takes the True King
    assert pos.over and pos.winner == 2 and pos.points == 4 and pos.score(1) == 1 and pos.true_king == 0


# ---- the Signature Cards return; the round's Army cards are Exhausted ------------------------------------------
def test_after_the_round_signature_cards_return_to_the_mercenary_deck_and_army_cards_are_exhausted():
    """A Mercenary taken into a hand is no Army card: the round's end Exhausts the Army cards taken,
    never it; the next deal deals the area afresh from all nine (the Exile back among them)."""
    pos = to_muster()
    pos.play("mercenary", "Elder", "Inquisitor", "Exile", "Bard", "Soldier")
    R.exhaust_taken(pos.s, pos.cfg)
    assert sorted(pos.exhausted(2)) == ["Elder", "Soldier"] and "Exile" not in pos.army(2) + pos.exhausted(2)
    areas = set()
    for seed in range(12):
        R.deal_round(pos.s, pos.cfg, new_stream(seed, 3), 0, np.zeros(L.MAX_CARDS, dtype=np.int64))
        assert len(pos.mercenaries()) == 5 and np.array_equal(row(pos, L.MERC), row(pos, L.MERC_DEALT))
        assert np.all(row(pos, L.HAND, 2)[L.SIGNATURE == 1] == 0)
        areas |= set(pos.mercenaries())
    assert "Exile" in areas and len(areas) == 9


# ---- the Bard and the Arbiter ----------------------------------------------------------------------------------
def bard_position(on, options=None, exhausted=("Soldier",)):
    return Position.build(mode=CT, hands={0: ["Bard", "Fool"], 1: ["Queen"], 2: ["Princess"]}, court=[on],
                          armies={0: [a for a in ARMY if a not in exhausted]}, exhausted={0: list(exhausted)},
                          options=options)


@pytest.mark.parametrize("on", ["Elder", "Inquisitor", "Bard"])
def test_the_bard_played_on_base_value_3_or_4_recalls_an_exhausted_card(on):
    pos = bard_position(on).apply("Bard")
    assert pos.pick_for == "Recall" and pos.decider == 0 and pos.legal() == ["Soldier"]
    pos.apply("Soldier")
    assert pos.exhausted(0) == [] and "Soldier" in pos.army(0) and pos.turn == 1


@pytest.mark.parametrize("on, options, exhausted", [("Fool", None, ("Soldier",)), ("Assassin", None, ("Soldier",)),
                                                    ("Elder", None, ()), ("Elder", {"bard_effect": "none"}, ("Soldier",)),
                                                    ("Elder", {"bard_on_base": "5,6"}, ("Soldier",))])
def test_the_bard_does_nothing_on_other_cards_without_an_exhausted_card_or_as_a_plain_4(on, options, exhausted):
    pos = bard_position(on, options, exhausted).apply("Bard")
    assert pos.turn == 1 and pos.phase == "turn" and pos.exhausted(0) == list(exhausted)


def test_the_bard_follows_the_scenarios_values_and_a_disgraced_card_has_none():
    pos = bard_position("Assassin", {"bard_on_base": "2"}).apply("Bard")
    assert pos.pick_for == "Recall"
    pos = Position.build(mode=CT, hands={0: ["Bard", "Fool"], 1: ["Queen"], 2: ["Princess"]}, court=["Elder"],
                         disgraced=[0], armies={0: ARMY[:4]}, exhausted={0: ["Soldier"]})
    pos.apply("Bard")
    assert pos.turn == 1


def test_the_arbiter_needs_another_card_in_hand():
    hands = {0: ["Arbiter"], 1: ["Queen"], 2: ["Princess"], 3: ["Fool"]}
    pos = Position.build(mode=TV, hands=hands, court=["Elder"])
    assert pos.legal() == ["flip"]
    pos = Position.build(mode=TV, hands={**hands, 0: ["Arbiter", "Fool"]}, court=["Elder"])
    assert "Arbiter" in pos.legal()
    pos.apply("Arbiter")  # default text: a plain 5
    assert pos.turn == 1 and pos.throne_value == 5
    pos = Position.build(mode=TV, hands=hands, court=["Elder"], options={"arbiter_needs_other": False})
    assert "Arbiter" in pos.legal()


def test_the_court_room_caps_a_round_that_would_outgrow_it():
    court = ["Fool"] * (L.COURT_ROOM + 1)
    pos = Position.build(mode=CT, hands={0: ["Queen"], 1: ["Queen"], 2: ["Queen"]}, court=court)
    assert pos.over and pos.s[L.CAPPED] == 1 and pos.winner == -1
    pos = Position.build(mode=CT, hands={0: ["Queen"], 1: ["Queen"], 2: ["Queen"]}, court=court[1:])
    assert pos.phase == "turn"


@pytest.mark.parametrize("options, key", [({"bard_on_base": "3,x"}, "options.bard_on_base"),
                                          ({"arbiter_on_base": "0"}, "options.arbiter_on_base"),
                                          ({"bard_effect": "sing"}, "options.bard_effect"),
                                          ({"arbiter_effect": "guess"}, "options.arbiter_effect"),
                                          ({"arbiter_needs_other": "yes"}, "options.arbiter_needs_other"),
                                          ({"bid_swap": "keep"}, "options.bid_swap"),
                                          ({"mulligans": "always"}, "options.mulligans")])
def test_bad_card_text_data_names_its_key_in_one_line(options, key):
    with pytest.raises(SetupError) as err:
        GAME.make_setup(CT, 3, "heuristic", options=options)
    assert err.value.key.split("setup.")[-1] == key and "\n" not in str(err.value)


def test_reports_say_the_mode_uses_assumed_card_texts():
    assumed = GAME.make_setup(TV, 4, "heuristic").describe()["assumed"]
    assert any("uses assumed card texts" in a and "Bard" in a and "Arbiter" in a for a in assumed)
    assert not any("card texts" in a for a in GAME.make_setup("cutthroat", 3, "heuristic").describe()["assumed"])


# ---- play: invariants, matches, replay, information ------------------------------------------------------------
@pytest.mark.parametrize("mode, seats", [(CT, 3), (TV, 4)])
@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_rounds_account_for_every_card_in_every_zone_and_end(mode, seats, policy):
    p = GAME.policy(policy, "test")
    prow = p.param_row({}, "test")
    _, _, actions, scratch, fscratch, _, _, _ = game_buffers()
    restrict = no_restrictions(L.PLAYERS)
    for seed in range(12):
        stream = new_stream(seed, 3)
        pos = Position.deal(mode, seed=seed, true_king=seed % seats)
        while not pos.over:
            R.pose_pending(pos.s, pos.cfg, restrict)
            apply_accounted(pos, seats, choose(pos.s, pos.cfg, p.code, prow, restrict, stream, actions, scratch,
                                               fscratch))
        assert pos.s[L.CAPPED] == 0 and pos.winner >= 0


@pytest.mark.parametrize("mode, seats", [(CT, 3), (TV, 4)])
def test_mercenary_matches_end_and_replay_equals_the_batch(mode, seats):
    setup = GAME.make_setup(mode, seats, [("random", {}), ("heuristic", {}), ("greedy", {}), ("heuristic", {})][:seats])
    batch = GAME.simulate(setup, 9, 0, 6)
    df = GAME.frame(setup, batch)
    assert (df["capped"] == 0).all() and (df["mulligans"] == 0).all()
    assert (df.groupby("game")["match_winner"].max() >= 0).all()
    for k in (0, 4):
        rows, events = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS])
    assert any("raise the bid" in line or "Reveal" in line for line in GAME.transcript(setup, 9, 1))


@pytest.mark.parametrize("mode, seats", [(CT, 3), (TV, 4)])
@pytest.mark.parametrize("policy", ["heuristic", "greedy", "random", "search"])
def test_a_mercenary_decision_is_a_function_of_the_deciders_view(mode, seats, policy):
    cfg, found = decisions(mode, seats, per_kind=3, deals=60)
    picks = {key[1] for key in found if key[0] in (L.PH_PICK_CARD, L.PH_PICK_PLAYER)}
    assert {L.PICK_SWAP_TAKE, L.PICK_MERC_MUSTER, L.PICK_RECRUIT_TAKE, L.PICK_MERC_TAKE} <= picks
    if seats == 4:
        assert L.PH_RAISE in {key[0] for key in found}
    differ = kinds_where_hidden_cards_matter(policy, cfg, found, seats, random.Random(5))
    assert differ == [], f"{policy}: the decision depends on hidden cards at {differ}"


def test_the_heuristic_bids_low_swaps_up_and_raises_only_to_take_the_lead():
    pos = dealt()
    assert R.legal_mask(pos.s, pos.cfg) and heuristic_answer(pos) == L.FOOL  # the weakest card
    pos = bid(dealt(), BIDS)
    assert heuristic_answer(pos) == L.EXILE  # 8 > its lowest bid card (4)
    pos.apply("Exile")
    assert heuristic_answer(pos) in (L.INQUISITOR, L.EXECUTIONER, L.BARD)
    pos = bid(tv_dealt(), TV_BIDS)
    assert pos.decider == 0 and heuristic_answer(pos) == L.ACT_NO    # its team leads (seat 2's 18)
    pos.apply("no")
    assert pos.decider == 1 and heuristic_answer(pos) == L.ACT_YES   # 12 + 9 = 21 > 18
    pos.apply("yes")
    assert pos.decider == 0 and heuristic_answer(pos) == L.ACT_NO    # 12 + 9 = 21 would tie, not lead


def heuristic_answer(pos):
    p = GAME.policy("heuristic", "test")
    _, _, actions, scratch, fscratch, _, _, _ = game_buffers()
    restrict = no_restrictions(L.PLAYERS)
    s = pos.s.copy()
    R.pose_pending(s, pos.cfg, restrict)
    return int(choose(s, pos.cfg, p.code, p.param_row({}, "test"), restrict, new_stream(1, 1), actions, scratch,
                      fscratch))
