"""The public Python API (balance.load, check, play, vary, run, Study, position): the same games and
verdicts as the command line, bad input as one-line ValueErrors, study folders read back alone."""

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import balance
from balance.cli import app
from tests.engine.test_cli import SMALL  # the same small Take the Throne study


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    return path


def test_the_api_names_are_exported_lazily_and_games_stays_the_package():
    from balance import api
    from balance import games as games_package

    assert set(balance.__all__) <= set(dir(api))
    assert balance.list_games() == ["take_the_throne", "imposter_kings", "dethroned", "throne_arcade",
                                    "thron_der_luegen"]
    assert games_package.__name__ == "balance.games"  # the package, not shadowed by a function
    with pytest.raises(AttributeError):
        balance.no_such_name  # noqa: B018


def test_check_gives_the_command_lines_verdicts(scenario_file):
    api = balance.check(balance.load(scenario_file), games=300)
    result = CliRunner().invoke(app, ["check", str(scenario_file), "--games", "300", "--json"])
    assert result.exit_code == 0, result.output
    cli = pd.DataFrame(json.loads(result.output)[0]["claims"])
    assert api["verdict"].tolist() == cli["verdict"].tolist()
    assert api["estimate"].tolist() == pytest.approx(cli["estimate"].tolist(), rel=1e-12)
    assert api["low"].tolist() == pytest.approx(cli["low"].tolist(), rel=1e-12)


def test_play_is_the_scenarios_games_and_seed_overrides(scenario_file):
    scenario = balance.load(scenario_file)
    first, again = balance.play(scenario, games=120), balance.play(scenario, games=120, threads=1)
    assert first.games.equals(again.games)
    assert len(first.games) == 120 and set(first.seats["seat"]) == {0, 1, 2}
    assert not balance.play(scenario, games=120, seed=6).games.equals(first.games)


def test_vary_changes_one_key_validated_and_keeps_seed_and_claims(scenario_file):
    scenario = balance.load(scenario_file)
    bold = balance.vary(scenario, {"seats.params.throne_value": 6})
    assert bold.seed == scenario.seed and [c.id for c in bold.claims] == [c.id for c in scenario.claims]
    assert all(seat.params.get("throne_value") == 6 for seat in bold.setup.seats)
    assert "throne_value=6" in bold.title
    assert not balance.play(bold, games=120).games.equals(balance.play(scenario, games=120).games)
    with pytest.raises(ValueError, match=r"options\.nope: unknown option"):
        balance.vary(scenario, {"options.nope": 1})
    with pytest.raises(ValueError, match="seed: cannot be swept"):
        balance.vary(scenario, {"seed": 3})


@pytest.mark.parametrize("call, named", [
    (lambda sc: balance.play(sc, games=0), "games: must be at least 1"),
    (lambda sc: balance.play(sc, games=10, seed=-1), "seed"),
    (lambda sc: balance.play(sc, games=10, threads=10_000), "threads"),
    (lambda sc: balance.run(sc, "x", games=10, chunk=0), "chunk"),
])
def test_bad_arguments_are_one_line_value_errors_naming_the_argument(scenario_file, tmp_path, monkeypatch, call,
                                                                     named):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=named) as err:
        call(balance.load(scenario_file))
    assert "\n" not in str(err.value)
    assert not (tmp_path / "x").exists()


def test_a_bad_scenario_file_is_a_value_error_naming_file_and_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(SMALL.replace("players = 3", "players = 9"))
    with pytest.raises(ValueError, match=r"bad\.toml: players"):
        balance.load(path)


def test_run_and_study_read_back_the_folder_alone(scenario_file, tmp_path):
    scenario = balance.load(scenario_file)
    study = balance.run(scenario, tmp_path / "study", games=150, chunk=75)
    scenario_file.unlink()
    again = balance.Study(tmp_path / "study")
    assert again.games.equals(balance.play(scenario, games=150).games)
    assert again.claims["verdict"].tolist() == study.claims["verdict"].tolist()
    assert again.replay(4) == scenario.setup.game.transcript(scenario.setup, scenario.seed, 4)
    with pytest.raises(ValueError, match="game_index: the study has games 0 to 149"):
        again.replay(150)
    with pytest.raises(ValueError, match="not a study folder"):
        balance.Study(tmp_path)


def test_position_is_the_games_position_class():
    position = balance.position("imposter_kings").build(
        hands={0: ["Fool", "Elder"], 1: ["King's Hand", "Queen"]}, court=["Soldier", "Queen"], disgraced=[1],
        successors={0: "Mystic"}, turn=0)
    assert position.legal()
    with pytest.raises(ValueError, match="no_such_game"):
        balance.position("no_such_game")
