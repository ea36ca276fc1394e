"""Restricted play (issue 11): a seat forbidden a card never puts it into play while another answer
is legal, and a seat made to prefer it puts it into play whenever it may, under every policy; the
rest is the game's own rules (a restriction never makes a move illegal: the only legal answer is
given even if forbidden). Checked at single decisions of every kind and over whole matches played
by the batch kernel from scenario seat keys, with the restricted policy slot in either seat."""

import numpy as np
import pytest

from balance.engine.decision import FORBID, PREFER, no_restrictions
from balance.engine.game import SetupError
from balance.engine.rng import new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME, MAX_ROUNDS
from balance.games.imposter_kings.match import game_buffers
from tests.imposter_kings.views import choose

POLICIES = [("random", {}), ("greedy", {}), ("heuristic", {}), ("search", {"rollouts": 2})]
FULL_MENU = GAME.actions(GAME.make_setup("full", 2, "heuristic"))


def bits_at(action, kind):
    """The answers of decision ``kind`` that ``action`` names, as a mask."""
    return sum(1 << b for k, b in action.answers if k == kind)


def test_the_full_game_menu_names_the_14_base_cards_and_the_choices():
    names = [a.name for a in FULL_MENU]
    base_cards = [L.NAMES[t] for t in range(L.TYPES) if L.FULL_DECK[t] > 0]
    assert len(base_cards) == 14
    assert names == base_cards + ["King flip", "Mulligan", "Go first", "Assassin reaction",
                                     "King's Hand reaction"]
    queen = FULL_MENU[L.QUEEN]
    assert set(queen.answers) == {(L.PH_TURN, L.QUEEN), (L.PH_ANTE, L.QUEEN), (L.PH_OATH_FOLLOW, L.QUEEN),
                                  (L.PH_JUDGE_ANTE, L.QUEEN)}
    # the reaction cards are also used by reacting; naming, Successor or Dungeon are not uses
    assert (L.PH_ASSASSIN, L.ACT_YES) in FULL_MENU[L.ASSASSIN].answers
    assert (L.PH_KINGS_HAND, L.ACT_YES) in FULL_MENU[L.KINGS_HAND].answers
    assert not any(k in (L.PH_SUCCESSOR, L.PH_DUNGEON, L.PH_INQUISITOR) for a in FULL_MENU for k, _ in a.answers)


def test_a_learning_mode_offers_only_what_it_deals_and_poses():
    setup = GAME.make_setup("quickplay", 2, "heuristic")
    names = {a.name for a in GAME.actions(setup)}
    assert "Assassin" not in names and "Judge" not in names and "Mulligan" not in names
    assert {"Fool", "Queen", "King flip", "Go first"} <= names
    forced_first = GAME.make_setup("full", 2, "heuristic", options={"first_player": "seat0"})
    assert "Go first" not in {a.name for a in GAME.actions(forced_first)}
    with pytest.raises(SetupError) as err:
        GAME.make_setup("quickplay", 2, [("heuristic", {}, {"forbid": ["Judge"]}), ("heuristic", {})])
    assert err.value.key == "setup.seats[0].forbid"


@pytest.mark.parametrize("policy, params", POLICIES)
def test_at_every_decision_a_policy_answers_within_its_restriction(many_decisions, policy, params):
    cfg, found = many_decisions
    p = GAME.policy(policy, "test")
    row = p.param_row(params, "test")
    _, _, buffer, scratch, fscratch, _, _, _ = game_buffers()
    bound = 0
    for kind, states in found.items():
        for k, s in enumerate(states):
            me = s[L.DECIDER]
            legal = int(R.legal_mask(s, cfg))
            for action in FULL_MENU:
                named = bits_at(action, kind)
                if not legal & named:
                    continue
                for side in (FORBID, PREFER):
                    restrict = no_restrictions(2)
                    restrict[me, kind, side] = named
                    world = s.copy()
                    R.pose_pending(world, cfg, restrict)
                    a = int(choose(world, cfg, p.code, row, restrict, new_stream(23, k), buffer, scratch, fscratch))
                    assert legal >> a & 1, f"{policy} gave an illegal answer at {L.PHASE_NAMES[kind]}"
                    if side == FORBID and legal & ~named:
                        bound += 1
                        assert not named >> a & 1, f"{policy} played the forbidden {action.name}"
                    if side == PREFER:
                        assert named >> a & 1, f"{policy} did not play the preferred {action.name}"
    assert bound > 100  # the restrictions really bound


def restricted_matches(policy, params, side, names, matches=6, seed=31):
    """(restricted seat, decision events) of matches in which policy slot 0 is restricted and slot 1
    plays the heuristic; the deals are replayed with the slots' seats swapped (rotation)."""
    setup = GAME.make_setup("full", 2, [(policy, params, {side: names}), ("heuristic", {})])
    assert setup.rotations == 2
    for g in range(matches * setup.rotations):
        _, events = GAME.traced(setup, seed, g)
        yield g % setup.rotations, events[events[:, L.EV_PHASE] != L.EV_DEAL]


@pytest.mark.parametrize("policy, params", POLICIES)
def test_a_forbidden_card_is_never_put_into_play_while_another_answer_is_legal(policy, params):
    bound = {}
    for action in FULL_MENU:
        bound[action.name] = 0
        for seat, events in restricted_matches(policy, params, "forbid", [action.name]):
            for ev in events[events[:, L.EV_DECIDER] == seat]:
                named, legal = bits_at(action, int(ev[L.EV_PHASE])), int(ev[L.EV_LEGAL])
                if legal & named and legal & ~named:
                    bound[action.name] += 1
                    assert not named >> int(ev[L.EV_ACTION]) & 1, f"{policy} played the forbidden {action.name}"
    assert sum(n > 0 for n in bound.values()) >= 12, bound  # most cards met a decision where it binds


@pytest.mark.parametrize("policy, params", POLICIES)
def test_a_preferred_card_is_put_into_play_whenever_legal(policy, params):
    for action in FULL_MENU:
        for seat, events in restricted_matches(policy, params, "prefer", [action.name], matches=3):
            for ev in events[events[:, L.EV_DECIDER] == seat]:
                named = bits_at(action, int(ev[L.EV_PHASE]))
                if int(ev[L.EV_LEGAL]) & named:
                    assert named >> int(ev[L.EV_ACTION]) & 1, f"{policy} did not play the preferred {action.name}"


def test_a_random_seat_forbidden_to_go_first_always_hands_the_first_turn_over():
    setup = GAME.make_setup("full", 2, [("random", {}, {"forbid": ["Go first"]}), ("random", {})])
    df = GAME.frame(setup, GAME.simulate(setup, 5, 0, 20))
    slot0_chose = df[(df["has_chooser"] == 1) & (df["chooser_seat"] == df["rotation"])]
    other_chose = df[(df["has_chooser"] == 1) & (df["chooser_seat"] != df["rotation"])]
    assert len(slot0_chose) > 30 and (slot0_chose["chooser_first"] == 0).all()
    assert other_chose["chooser_first"].mean() > 0.3  # the unrestricted random player goes first about half the time


def test_replay_of_a_restricted_match_equals_the_batch_row():
    setup = GAME.make_setup("full", 2, [("heuristic", {}, {"forbid": ["Queen", "King flip"],
                                                           "prefer": ["Fool"]}), ("random", {})])
    batch = GAME.simulate(setup, 9, 0, 8)
    for k in (0, 3, 7):
        rows, _ = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS])
    assert not np.array_equal(batch, GAME.simulate(GAME.make_setup("full", 2, [("heuristic", {}), ("random", {})]),
                                                   9, 0, 8))
