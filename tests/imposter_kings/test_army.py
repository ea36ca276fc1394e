"""Fragments of Nersetti for 2 players, step 2: the Army (mode "army_step").

Rulebook ("Step 2: The Army"): set up as for the Immortal; each player starts the match with an
Army of the five Army cards (Elder, Inquisitor, Soldier, Judge, Oathbound) plus the Aegis; an
Exhaust zone for face-up Army cards no longer available; after the True King chooses who goes
first, a Mustering Phase, the player going second first: Recruit ("remove a card from your hand
from the round (face up), then take 1 card from your Army into your hand without revealing it. If
you haven't Exhausted a card from your Army this Mustering Phase, you must Exhaust 1 now as a
cost") and Recommission ("Exhaust 2 cards from your Army to put 1 Exhausted card back"), as many
times as you like; no mulligans; "at the end of the round, every Army card taken into a hand this
round is Exhausted". The Aegis (card sheet): value 3, Immune to King's Hand, Steadfast until its
owner's King is flipped; may be played on any card, then may Disgrace any Court card.
"""

import numpy as np
import pytest

from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.test_search_modes import search_pick, world_of

MODE = "army_step"
T = L.TYPES
ARMY = ["Elder", "Inquisitor", "Soldier", "Judge", "Oathbound", "Aegis"]


def P(**kw):
    kw.setdefault("successors", {0: "Judge", 1: "Sentry"})
    return Position.build(mode=MODE, **kw)


def row(pos, zone, p):
    return pos.s[zone + p * T:zone + (p + 1) * T]


def assert_army_consistent(pos, taken=None):
    """The round's cards are the deck and the Army cards taken this round (``taken``: once the round
    is over they are Exhausted, so the caller says which they were); each Army, with its Exhaust
    zone and its taken cards, is the six Army cards."""
    if taken is None:
        taken = row(pos, L.ARMY_TAKEN, 0) + row(pos, L.ARMY_TAKEN, 1)
    assert np.array_equal(pos.card_counts(), L.IMMORTAL_STEP_DECK + taken), pos.describe()
    for p in range(2):
        whole = row(pos, L.ARMY, p) + row(pos, L.EXHAUST, p) + (0 if pos.over else row(pos, L.ARMY_TAKEN, p))
        assert np.array_equal(whole, L.ARMY_STEP), pos.describe()


# ---- the Mustering Phase ----------------------------------------------------------------------------
def test_the_player_going_second_musters_first_then_the_first_then_successors_and_no_mulligan():
    pos = Position.deal(MODE, seed=3, true_king=0)
    assert sorted(pos.army(0)) == sorted(pos.army(1)) == sorted(ARMY) and pos.exhausted(0) == []
    pos.apply("yes")  # the True King goes first
    assert pos.pick_for == "muster" and pos.decider == 1
    assert {"yes", "no"} <= set(pos.legal()) and set(pos.hand(1)) <= set(pos.legal())
    pos.apply("no")
    assert pos.pick_for == "muster" and pos.decider == 0
    pos.apply("no")
    assert pos.phase == "Successor" and pos.decider == 0


def test_recruit_removes_a_hand_card_face_up_the_first_costs_an_exhaust_and_the_card_comes_unseen():
    pos = Position.deal(MODE, seed=3, true_king=0, hands={0: ["Fool", "Queen", "Elder", "Zealot", "Mystic",
                                                              "Warlord", "Sentry", "Princess", "Warden"],
                                                          1: ["Assassin", "Inquisitor", "Inquisitor", "Soldier",
                                                              "Soldier", "Judge", "Oathbound", "Oathbound",
                                                              "King's Hand"]})
    pos.apply("no")  # seat 1 goes first: seat 0 musters first
    assert pos.decider == 0
    pos.apply("Fool")
    assert "Fool" not in pos.hand(0) and pos.removed() == ["Fool"]
    assert pos.pick_for == "Recruit: Exhaust as the cost" and sorted(pos.legal()) == sorted(ARMY)
    pos.apply("Elder")
    assert pos.exhausted(0) == ["Elder"] and pos.pick_for == "Recruit: take"
    assert sorted(pos.legal()) == sorted(a for a in ARMY if a != "Elder")
    pos.apply("Oathbound")
    assert "Oathbound" in pos.hand(0) and pos.army_taken(0) == ["Oathbound"] and pos.known(1) == []
    assert len(pos.hand(0)) == 9 and pos.pick_for == "muster" and pos.decider == 0
    pos.apply("Zealot")  # the second Recruit of the phase: no cost
    assert pos.pick_for == "Recruit: take" and pos.exhausted(0) == ["Elder"]
    pos.apply("Soldier")
    assert sorted(pos.army(0)) == ["Aegis", "Inquisitor", "Judge"]
    assert sorted(pos.army_taken(0)) == ["Oathbound", "Soldier"] and pos.removed() == ["Fool", "Zealot"]


def test_recommission_exhausts_two_army_cards_to_put_one_exhausted_card_back():
    pos = Position.deal(MODE, seed=4, true_king=1)
    pos.apply("yes")  # seat 1 first: seat 0 musters first
    pos.play("yes", "Elder", "Judge")
    assert pos.pick_for == "Recommission: put back" and sorted(pos.legal()) == ["Elder", "Judge"]
    pos.apply("Elder")
    assert pos.exhausted(0) == ["Judge"] and sorted(pos.army(0)) == sorted(a for a in ARMY if a != "Judge")
    assert pos.pick_for == "muster"
    # the phase's cost is paid by that Exhaust: the next Recruit goes straight to the take
    pos.apply(pos.hand(0)[0])
    assert pos.pick_for == "Recruit: take"


def test_with_one_army_card_left_the_first_recruit_cannot_pay_its_cost():
    pos = P(hands={0: ["Fool"], 1: ["Zealot"]}, court=["Queen"], armies={0: ["Elder"]},
            exhausted={0: ARMY[1:]})
    pos.s[L.FIRST] = 1  # seat 0 is the player going second, mustering first
    R.pick_card(pos.s, L.PICK_MUSTER, 0)
    assert pos.legal() == ["no"]


def test_army_cards_taken_this_round_are_exhausted_when_it_ends():
    pos = P(hands={0: ["Oathbound"], 1: ["Fool"]}, court=["Queen"], flipped={1: True}, turn=1,
            armies={0: ["Elder", "Inquisitor", "Soldier", "Judge"]}, exhausted={0: ["Aegis"]},
            army_taken={0: ["Oathbound"]})
    assert pos.over and pos.winner == 0
    assert sorted(pos.exhausted(0)) == ["Aegis", "Oathbound"] and pos.army_taken(0) == []


# ---- the Aegis ----------------------------------------------------------------------------------------
def test_the_aegis_goes_onto_any_card_then_may_disgrace_any_court_card_and_is_immune_to_kings_hand():
    pos = P(hands={0: ["Aegis", "Fool"], 1: ["King's Hand", "Zealot"]}, court=["Soldier", "Queen"])
    assert "Aegis" in pos.legal()
    pos.apply("Aegis")
    assert pos.pick_for == "Aegis: Disgrace" and pos.legal() == [0, 1, 2, "no"]
    pos.apply(1)
    assert pos.court() == ["Soldier", "Queen (disgraced)", "Aegis"] and pos.turn == 1  # no King's Hand
    assert pos.throne_value == 3


def test_the_aegis_is_steadfast_against_the_mystic_until_its_players_king_is_flipped():
    hands = {0: ["Aegis", "Fool"], 1: ["Zealot"]}
    pos = P(hands=hands, court=["Queen"], muted=3)  # the Mystic named 3: the Aegis's base value
    assert "Aegis" in pos.legal()
    pos.apply("Aegis")
    assert pos.pick_for == "Aegis: Disgrace"
    flipped = P(hands=hands, court=["Queen"], muted=3, flipped={0: True})
    assert "Aegis" not in flipped.legal()  # Muted in hand: no permission, and a 3 on a 9
    plain = P(hands=hands, court=["Queen"], muted=3, flipped={0: True}, options={"mystic_steadfast": "mystic_wins"})
    assert "Aegis" not in plain.legal()
    unflipped_mystic_wins = P(hands=hands, court=["Queen"], muted=3, options={"mystic_steadfast": "mystic_wins"})
    assert "Aegis" not in unflipped_mystic_wins.legal()


# ---- play ---------------------------------------------------------------------------------------------
def test_random_rounds_conserve_the_deck_and_the_armies():
    for seed in range(40):
        stream = new_stream(seed, 7)
        pos = Position.deal(MODE, seed=seed, true_king=seed % 2)
        while not pos.over:
            assert pos.phase_code != L.PH_REDEAL
            legal = pos.legal_codes()
            assert legal, pos.describe()
            taken = row(pos, L.ARMY_TAKEN, 0) + row(pos, L.ARMY_TAKEN, 1)
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            assert_army_consistent(pos, taken if pos.over else None)


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_army_matches_end_and_the_armies_run_down(policy):
    setup = GAME.make_setup(MODE, 2, [(policy, {})] * 2)
    df = GAME.frame(setup, GAME.simulate(setup, 5, 0, 8))
    assert (df["capped"] == 0).all() and (df["mulligans"] == 0).all()
    assert (df.groupby("game")["match_winner"].max() >= 0).all()


def test_the_heuristic_recruits_a_weak_card_for_the_armys_best():
    pos = Position.deal(MODE, seed=3, true_king=0, hands={1: ["Fool", "Queen", "Elder", "Zealot", "Mystic",
                                                              "Warlord", "Sentry", "Princess", "Warden"]})
    pos.apply("yes")
    assert pos.decider == 1
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.FOOL
    pos.apply("Fool")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.ELDER  # the cost: the lowest
    pos.apply("Elder")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.OATHBOUND


def test_greedy_never_musters_and_random_musters_now_and_then():
    pos = Position.deal(MODE, seed=3, true_king=0)
    pos.apply("yes")
    assert search_pick(pos.s, pos.cfg, policy="greedy", params={}) == L.ACT_NO
    picks = [search_pick(pos.s, pos.cfg, seed, policy="random", params={}) for seed in range(200)]
    done = sum(a == L.ACT_NO for a in picks)
    assert 120 <= done <= 180  # 0.75 of the time
    assert {a for a in picks if a != L.ACT_NO} <= set(pos.legal_codes())


# ---- the search: an opponent's taken Army cards are hidden ---------------------------------------------
ARMY_POS = dict(
    turn=0, court=["Elder", "Soldier"], accused="Warden", unused="Fool", removed=["Soldier", "Zealot", "Oathbound"],
    hands={0: ["Inquisitor", "Oathbound", "Warlord", "Princess"],
           1: ["Assassin", "Judge", "Mystic", "Immortal", "Queen", "Oathbound"]},
    successors={0: "King's Hand", 1: "Sentry"}, dungeons={0: "Elder", 1: "Inquisitor"},
    armies={1: ["Elder", "Inquisitor", "Soldier", "Judge"]}, exhausted={1: ["Aegis"]},
    army_taken={1: ["Oathbound"]})
# The same view for seat 0: seat 1 took its Judge (not its Oathbound), now in its hand.
ARMY_HIDDEN_MOVED = dict(ARMY_POS, hands={0: ARMY_POS["hands"][0],
                                          1: ["Assassin", "Judge", "Mystic", "Immortal", "Queen", "Judge"]},
                         armies={1: ["Elder", "Inquisitor", "Soldier", "Oathbound"]}, army_taken={1: ["Judge"]})


def test_the_searchs_worlds_deal_the_opponents_hidden_army_from_its_view_only():
    a, b = P(**ARMY_POS), P(**ARMY_HIDDEN_MOVED)
    assert a.phase_code == L.PH_TURN and a.decider == 0
    assert_army_consistent(a)
    assert_army_consistent(b)
    assert np.array_equal(world_of(a.s, a.cfg), world_of(b.s, b.cfg))
    pool = L.ARMY_STEP - np.eye(T, dtype=np.int64)[L.AEGIS]  # seat 1's Army less its Exhaust zone
    armies = set()
    for seed in range(16):
        w = world_of(a.s, a.cfg, seed)
        world = Position(w, a.cfg)
        assert_army_consistent(world)
        assert np.all(row(world, L.ARMY, 1) <= pool) and row(world, L.ARMY, 1).sum() == 4
        assert np.array_equal(row(world, L.ARMY, 0), row(a, L.ARMY, 0))
        armies.add(row(world, L.ARMY, 1).tobytes())
    assert len(armies) > 1
    for seed in range(3):
        assert search_pick(a.s, a.cfg, seed) == search_pick(b.s, b.cfg, seed)
