"""The heuristic's play of Step 4's Kings (its parameter ``facet``).

Rulebook ("Step 4: Facets of the King"): "During your Mustering Phase you may now also choose a new
King, in any order with your other mustering actions." "The Master Tactician places a Squire face down
next to the Successor, giving more options when the King is flipped." "The Charismatic Leader reveals
the Successor once the round starts, but can trade it for an Army card when the King is flipped."
Card sheet, Master Tactician: "on flip, Disgrace the Throne card; if the Successor has the same base
value as that card you may reveal and take it, Recall a base Army card, then take the Squire or remove
it to Rally; otherwise take the Successor or the Squire".
"""

import numpy as np
import pytest

from balance.engine.decision import no_restrictions
from balance.engine.rng import new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.match import game_buffers
from tests.imposter_kings.test_facets import CL, MT, TACTICIAN, P, deal
from tests.imposter_kings.test_search_modes import search_pick
from tests.imposter_kings.views import choose, other_world

TACTICIAN_FACET = {"facet": float(L.FACET_TACTICIAN)}
LEADER_FACET = {"facet": float(L.FACET_LEADER)}
HAND = ["Assassin", "Zealot", "Elder", "Soldier", "Mystic", "Warlord", "Sentry", "Princess", "Warden"]


def heuristic(pos, params):
    return search_pick(pos.s, pos.cfg, policy="heuristic", params=params)


def test_the_facet_parameter_chooses_its_king_first_while_mustering_then_musters_as_before():
    # "you may now also choose a new King, in any order with your other mustering actions"
    for params, king in ((TACTICIAN_FACET, MT), (LEADER_FACET, CL)):
        pos = deal()
        pos.apply("yes")  # seat 1 musters first
        assert heuristic(pos, params) == L.ACT_FLIP
        pos.apply("king")
        assert L.FACET_NAMES[heuristic(pos, params)] == king
        pos.apply(king)
        assert pos.king(1) == king and pos.pick_for == "muster"
        assert heuristic(pos, params) != L.ACT_FLIP  # it has the King it wants
        # a facet King is kept for the match ("place the new King over your current one"; no new King is
        # the base one): the default, which wants the base King, chooses none rather than alternate facets
        assert heuristic(pos, {}) != L.ACT_FLIP
    pos = deal()
    pos.apply("yes")
    assert heuristic(pos, {}) != L.ACT_FLIP  # the default keeps the base King


def test_the_leaders_successor_lies_face_up_so_the_heuristic_shows_its_lowest_card():
    # "The Charismatic Leader reveals the Successor once the round starts"
    for kings, highest in (({0: CL}, False), ({}, True)):
        pos = deal(kings=kings, hands={0: HAND})
        pos.play("yes", "no", "no")
        assert pos.phase == "Successor" and pos.decider == 0
        pick = heuristic(pos, {})
        values = [L.BASE_VALUE[L.NAMES.index(c)] for c in HAND if c != "Assassin"]
        assert pick != L.ASSASSIN and L.BASE_VALUE[pick] == (max(values) if highest else min(values))


@pytest.mark.parametrize("court, flips", [(["Elder", "Soldier"], True), (["Elder", "Inquisitor"], False)])
def test_the_tactician_flips_when_its_successor_matches_the_throne_card(court, flips):
    # "if the Successor has the same base value as that card you may reveal and take it, Recall a base
    # Army card, then take the Squire or remove it to Rally": the Successor Judge (5) matches the Soldier (5)
    hands = {0: ["Oathbound", "Warlord"], 1: ["Princess", "Mystic"]}
    pos = P(court=court, **dict(TACTICIAN, hands=hands))
    assert pos.decider == 0 and "flip" in pos.legal()
    assert (heuristic(pos, {}) == L.ACT_FLIP) == flips
    base = P(court=court, **dict(TACTICIAN, hands=hands, kings={}, squires={}))
    assert heuristic(base, {}) != L.ACT_FLIP  # the base King keeps its flip for when it is stuck


def picks_in_worlds(s, cfg, params, rng, worlds=2):
    """The heuristic's answers (with ``params``) at s and in worlds differing only in what the
    decider cannot see, with the same stream."""
    p = GAME.policy("heuristic", "test")
    row = p.param_row(params, "test")
    _, _, actions, scratch, fscratch, _, _, _ = game_buffers()
    restrict = no_restrictions(L.PLAYERS)
    picks = set()
    for k in range(worlds + 1):
        world = s.copy() if k == 0 else other_world(s, s[L.DECIDER], rng, 2)
        R.pose_pending(world, cfg, restrict)
        picks.add(int(choose(world, cfg, p.code, row, restrict, new_stream(17, 3), actions, scratch, fscratch)))
    return picks


def test_the_leaders_successor_is_chosen_from_its_own_view():
    pos = deal(kings={0: CL}, hands={0: HAND})
    pos.play("no", "no", "no")  # seat 1 goes first and places first; nobody musters
    while not (pos.phase == "Successor" and pos.decider == 0):
        pos.apply(pos.legal()[0])
    hidden = pos.hand(1) + [pos.successor(1), L.NAMES[pos.s[L.DUNGEON + 1]]]
    assert "Queen" in hidden and pos.knows_successor(0, 1) is None
    assert len(picks_in_worlds(pos.s, pos.cfg, {}, np.random.default_rng(2), worlds=12)) == 1


def test_the_tacticians_matched_flip_is_chosen_from_its_own_view():
    hands = {0: ["Oathbound", "Warlord"], 1: ["Princess", "Mystic"]}
    pos = P(court=["Elder", "Soldier"], **dict(TACTICIAN, hands=hands))
    assert pos.knows_successor(0, 1) is None  # the opponent's Sentry and its hand are hidden
    assert len(picks_in_worlds(pos.s, pos.cfg, {}, np.random.default_rng(4), worlds=12)) == 1
