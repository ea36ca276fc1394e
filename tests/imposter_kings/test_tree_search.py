"""The engine's tree search (balance.engine.ismcts) on the Imposter Kings: its worlds are the flat
search's (dealt from the searcher's view alone), its rollouts play the round out through the rules'
own steps, and a world is worth its side's match score less the other sides' mean (a side is a
seat, in 2v2 a team: "SCORE + 0 is seats 0 & 2's score")."""

import numpy as np
import pytest

from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.policies import tree_score
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.test_search_modes import VIEW_CASES, search_pick
from tests.imposter_kings.views import decisions

T = L.TYPES
TREE = {"iterations": 48}


def tree_pick(s, cfg, seed=17):
    return search_pick(s, cfg, seed, policy="ismcts", params=TREE)


def dealt(mode):
    """A round of ``mode`` just dealt."""
    return Position.deal(mode, seed=1).s


def test_a_deal_records_the_seats_and_teams_the_tree_search_values_by():
    assert (dealt("full")[L.SEATS_IN_PLAY], dealt("full")[L.TEAM_PLAY]) == (2, 0)
    assert (dealt("cutthroat")[L.SEATS_IN_PLAY], dealt("cutthroat")[L.TEAM_PLAY]) == (3, 0)
    assert (dealt("two_v_two")[L.SEATS_IN_PLAY], dealt("two_v_two")[L.TEAM_PLAY]) == (4, 1)


def test_a_world_is_worth_its_sides_score_less_the_other_sides_mean():
    two = dealt("full")
    two[L.SCORE:L.SCORE + 2] = (5, 2)
    assert tree_score(two, 0) == 3 and tree_score(two, 1) == -3
    three = dealt("cutthroat")
    three[L.SCORE:L.SCORE + 3] = (4, 1, 3)
    assert tree_score(three, 0) == 2 and tree_score(three, 1) == -2.5 and tree_score(three, 2) == 0.5
    teams = dealt("two_v_two")
    teams[L.SCORE:L.SCORE + 2] = (6, 1)  # seats 0 & 2 are team 0, seats 1 & 3 team 1
    assert [tree_score(teams, q) for q in range(4)] == [5, -5, 5, -5]


@VIEW_CASES
def test_the_tree_search_decides_from_its_view_only(build, spec, moved):
    a, b = build(spec), build(moved)
    assert not np.array_equal(a.s, b.s)
    for seed in range(3):
        assert tree_pick(a.s, a.cfg, seed) == tree_pick(b.s, b.cfg, seed)


def test_the_tree_search_really_searches_and_sees_what_it_knows():
    """At its turns in the full game it sometimes plays otherwise than the heuristic (no stand-in for
    it), and seeing the opponent's whole hand sometimes changes its card (so the same-view test above
    could fail)."""
    cfg, found = decisions("full", 2, per_kind=10, deals=200)
    differs_from_heuristic = changed_by_view = 0
    for s in (s for key, states in found.items() if key[0] == L.PH_TURN for s in states):
        me = s[L.DECIDER]
        pick = tree_pick(s, cfg)
        differs_from_heuristic += pick != search_pick(s, cfg, policy="heuristic", params={})
        learned = s.copy()
        other = 1 - me
        learned[L.known_at(me, other):L.known_at(me, other) + T] = s[L.HAND + other * T:L.HAND + (other + 1) * T]
        changed_by_view += pick != tree_pick(learned, cfg)
    assert differs_from_heuristic > 0 and changed_by_view > 0


@pytest.mark.parametrize("mode, players, own", [("full", 2, {}), ("cutthroat", 3, {}), ("two_v_two", 4, {}),
                                               ("army_step", 2, {}), ("fon", 2, {"facet": L.FACET_TACTICIAN})])
def test_a_tree_search_seat_plays_matches_in_the_specialized_and_general_kernels(mode, players, own):
    # fon: the searching seat musters the Master Tactician, so from round 2 on its rollouts' heuristic
    # (which wants the base King) holds a facet King it did not choose; once, it flipped for ever
    seats = [("ismcts", {"iterations": 8, **own})] + [("heuristic", {})] * (players - 1)
    setup = GAME.make_setup(mode, players, seats, max_length=2)
    rows = GAME.simulate(setup, 5, 0, 2)
    assert (rows[:, L.C_WINNER] >= 0).sum() >= 2  # rounds were played to a winner
    assert np.array_equal(rows, GAME.simulate(setup, 5, 0, 2))  # one seed, one result
