"""Tuning: optuna's seeded TPE search over a rule parameter finds a known optimum, integer keys
stay integers, and the winner is confirmed on a fresh seed with its interval and verdict."""

import json

import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.studies.sweep import SweepError
from balance.studies.tune import parse_range, tune

runner = CliRunner()

# Take the Throne's shortest 3-player game lasts 3 rounds (heuristic players), so under a round cap
# of c <= 3 every game lasts exactly c rounds, and the mean length grows with the cap beyond: the
# cap that brings the mean length to 2 is 2, exactly.
STUDY = """
game = "take_the_throne"
mode = "core"
players = 3
seed = 5
games = 200
seats = "heuristic"

[[claims]]
id = "length"
quantity = "game_length"
target = 2
tolerance = 0.5

[[claims]]
id = "fair"
quantity = "win_rate"
by = "seat"
target = 0.333
tolerance = 0.2
"""


def test_ranges_are_integers_when_both_ends_are():
    assert parse_range("max_length=1..8").integer
    r = parse_range("seats.params.temperature=0.25..4.0")
    assert not r.integer and (r.low, r.high) == (0.25, 4.0)
    assert parse_range("options.take_back_pays=true,false").choices == (True, False)
    with pytest.raises(SweepError, match="--vary"):
        parse_range("max_length=8..1")


def test_tune_finds_the_known_optimum_and_confirms_it_on_a_fresh_seed(tmp_path):
    scenario = tmp_path / "study.toml"
    scenario.write_text(STUDY)
    result = tune(scenario, "length", [parse_range("max_length=1..12")], trials=20, games=200, seed=None)
    assert result["best"] == {"max_length": 2}
    assert isinstance(result["best"]["max_length"], int)
    confirmation = result["confirmation"]
    assert confirmation["seed"] != result["seed"] and confirmation["estimate"] == 2.0
    assert len(result["repeated"]) == 3


def test_tune_from_the_command_line(tmp_path):
    scenario = tmp_path / "study.toml"
    scenario.write_text(STUDY)
    args = ["tune", str(scenario), "--target", "fair:0", "--vary", "options.take_back_pays=true,false",
            "--trials", "3", "-n", "150", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["claim"] == "fair" and out["group"] == "0"
    assert out["best"]["options.take_back_pays"] in (True, False)
    assert out["confirmation"]["verdict"]
    bad = runner.invoke(app, ["tune", str(scenario), "--target", "fair", "--vary", "max_length=1..3"])
    assert bad.exit_code == 2 and "--target" in bad.output and "fair:GROUP" in bad.output
