"""The statistics' scenario keys: claims, [precision], min_deals, validated before anything runs;
and self-play setups that need no seat rotation."""

import math
import re

import pytest

from balance.engine.scenario import MIN_DEALS, ScenarioError, parse_scenario
from balance.games import get_game

BASE = {"game": "take_the_throne", "mode": "core", "players": 4, "seats": "heuristic",
        "claims": [{"id": "len", "quantity": "game_length", "target": 8, "tolerance": 3}]}


def scenario(**changes):
    return parse_scenario({**BASE, **changes})


def test_claims_carry_min_deals_and_their_own_precision_target():
    sc = scenario(min_deals=50, precision={"batch": 100, "max_games": 1000, "relative_half_width": 0.05},
                  claims=[{"id": "len", "quantity": "game_length", "target": 8, "tolerance": 3, "half_width": 0.5}])
    [claim] = sc.claims
    assert claim.min_deals == 50 and claim.half_width == 0.5 and claim.relative_half_width is None
    assert sc.precision.relative_half_width == 0.05 and sc.precision.half_width is None
    assert scenario().claims[0].min_deals == MIN_DEALS == 30
    assert scenario(precision={}).precision.half_width == 0.01  # the documented default target


@pytest.mark.parametrize("changes, key", [
    ({"claims": [{"quantity": "game_length", "target": math.nan, "tolerance": 1}]}, "claims[0].target"),
    ({"claims": [{"quantity": "game_length", "target": 8, "tolerance": math.inf}]}, "claims[0].tolerance"),
    ({"claims": [{"quantity": "game_length", "target": 8, "tolerance": 1, "half_width": 0}]}, "claims[0].half_width"),
    ({"claims": [{"quantity": "game_length", "target": 8, "tolerance": 1, "relative_half_width": 2}]},
     "claims[0].relative_half_width"),
    ({"precision": {"batch": 0}}, "precision.batch"),
    ({"precision": {"max_games": -5}}, "precision.max_games"),
    ({"precision": {"max_games": 2**63}}, "precision.max_games"),
    ({"precision": {"batch": 5000, "max_games": 1000}}, "precision.batch"),
    ({"precision": {"half_width": math.nan}}, "precision.half_width"),
    ({"min_deals": 1}, "min_deals"),
    ({"min_deals": 2.5}, "min_deals"),
])
def test_bad_statistics_keys_name_the_key(changes, key):
    with pytest.raises(ScenarioError, match=f": {re.escape(key)}: "):
        scenario(**changes)


def test_identical_players_need_no_rotation_where_rotation_keeps_the_deal():
    ttt = get_game("take_the_throne")
    same = ttt.make_setup("core", 4, [("heuristic", {})] * 3 + [("heuristic", {"temperature": 1.0})])
    assert same.rotations == 1 and "not needed: identical players" in same.describe()["rotation"]
    mixed = ttt.make_setup("core", 4, [("heuristic", {})] * 3 + [("heuristic", {"temperature": 0.5})])
    assert mixed.rotations == 4
    kings = get_game("imposter_kings")  # a rotation hands the deal's cards to the other seat
    assert kings.make_setup("full", 2, [("heuristic", {})] * 2).rotations == 2


def test_a_scenario_gives_a_claim_by_id_or_names_the_claims_it_has():
    sc = scenario()
    assert sc.claim("len") is sc.claims[0]
    with pytest.raises(KeyError, match=re.escape("no claim 'length' in take_the_throne (claims: len)")):
        sc.claim("length")
