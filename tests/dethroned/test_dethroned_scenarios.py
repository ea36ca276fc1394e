"""Scenario files: the 23 suggested setups load, custom roles need no code, bad input names its key."""

import tomllib
from pathlib import Path

import pytest

from balance.engine.runner import simulate
from balance.engine.scenario import ScenarioError, load_scenario, parse_scenario, scenario_files
from balance.games.dethroned.setups import SUGGESTED_SETUPS

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "dethroned"

CUSTOM = '''
game = "dethroned"
players = 4
seats = "heuristic"
rotate = false
roles = ["King", "Assassin", "Fool", "Shapeshifter"]

[[custom_roles]]
name = "Shapeshifter"
royalty = true
alive = true
roles_dead = ["Assassin"]
kill_class = "Fool"

[[claims]]
quantity = "win_rate"
by = "role"
target = 0.5
tolerance = 0.1
'''


def test_every_suggested_setup_has_its_scenario_with_the_designers_claims_and_the_seat_check():
    files = scenario_files([SCENARIOS])  # the setups' scenarios (the sensitivity sweep file left out)
    assert sorted(f.stem for f in files) == sorted(SUGGESTED_SETUPS)
    for path in files:
        scenario = load_scenario(path)
        assert scenario.setup.extra["roles"] == list(SUGGESTED_SETUPS[path.stem][1])
        assert {c.quantity for c in scenario.claims} == {"win_rate", "assailant_share", "assailant_share_art",
                                                         "seat_edge"}
        seat = next(c for c in scenario.claims if c.quantity == "seat_edge")
        assert seat.by == "seat" and seat.target == 0.0 and 0 < seat.tolerance <= 0.05


def test_a_custom_role_from_a_scenario_file_plays():
    scenario = parse_scenario(tomllib.loads(CUSTOM))
    results = simulate(scenario.setup, 1, 200)
    seats = results.seats
    assert set(seats["role"]) == {"King", "Assassin", "Fool", "Shapeshifter"}
    shifter = seats[seats["role"] == "Shapeshifter"]
    winners = shifter[shifter["won"] == 1]
    assert ((winners["alive"] == 1) & (winners["kills"] >= 1)).all()  # alive, and killed the Fool
    assert (shifter["alive"] == 0).any() and (shifter["won"] == 0).any()


@pytest.mark.parametrize("change, key", [
    (('roles = ["King", "Assassin", "Fool", "Shapeshifter"]', 'roles = ["King", "Assassin", "Fool"]'), "roles"),
    (('kill_class = "Fool"', 'kill_class = "Jester"'), "kill_class"),
    (('royalty = true', 'royalty = "yes"'), "custom_roles[0].royalty"),
    (('rotate = false', 'rotate = false\nhouse_rules = 1'), "house_rules"),
    (('roles_dead = ["Assassin"]', 'roles_dead = ["Assassin"]\nroles_alive = ["Assassin"]'),
     "custom_roles[0].roles_dead"),  # a contradictory custom role: the Assassin both alive and dead
    (('[[custom_roles]]', '[options]\ncount_seconds = nan\n\n[[custom_roles]]'), "options.count_seconds"),
])
def test_bad_scenario_input_names_the_key(change, key):
    text = CUSTOM.replace(*change)
    with pytest.raises(ScenarioError, match=key.replace("[", r"\[").replace("]", r"\]")):
        parse_scenario(tomllib.loads(text))
