"""Game.compile: a setup's kernel inputs, made once per setup object and kept on it; a changed copy
compiles its own; the scenario's tables hold only what the scenario wrote; a study keys on them."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from balance.engine.runner import (FOLDER_FORMAT, MANIFEST, RunError, kernel_digest, load_study, run_to_folder,
                                   study_identity)
from balance.engine.scenario import is_sweep_file, load_scenario
from balance.games import game_names, get_game
from balance.games.dethroned import layout as DL
from balance.games.imposter_kings import layout as IKL
from balance.games.take_the_throne import layout as TTL
from balance.games.thron_der_luegen import layout as TDL
from balance.games.throne_arcade import layout as TAL

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def options_row(game, setup) -> np.ndarray:
    """The compiled options (configuration) row of ``setup``."""
    compiled = game.compile(setup)
    return getattr(compiled, "row", getattr(compiled, "opts", compiled))


# per game: a setup, an option changed by dataclasses.replace, and what its compiled row must then hold
CHANGES = {
    "take_the_throne": (("core", 4, "heuristic"), {"feint_from_discard": False},
                        lambda row: row[TTL.OPT_FEINT_FROM_DISCARD] == 0),
    "thron_der_luegen": (("base", 4, "heuristic"), {"pair_at_deal": False},
                         lambda row: row[TDL.OPT_PAIR_AT_DEAL] == 0),
    # the rows per match follow the hand size when the scenario gives no max_length
    "throne_arcade": (("standard", 4, "greedy"), {"start_hand": 3},
                      lambda row: row[TAL.OPT_START_HAND] == 3 and row[TAL.OPT_MAX_ROUNDS] == 3 * 4),
    "imposter_kings": (("full", 2, "heuristic"), {"points_to_win": 3}, lambda row: row[IKL.CFG_POINTS] == 3),
    "dethroned": (("standard", 5, "heuristic"), {"window_seconds": 1.5}, lambda row: row[DL.O_WINDOW_MS] == 1500),
}


def test_every_registered_game_has_a_change_here():
    assert set(CHANGES) == set(game_names())


def make(name: str):
    game = get_game(name)
    (mode, players, policy), _, _ = CHANGES[name]
    return game, game.make_setup(mode, players, policy, extra=game.default_extra(mode, players))


@pytest.mark.parametrize("name", game_names())
def test_a_setup_compiles_once_and_its_batches_leave_the_inputs_unwritten(name, monkeypatch):
    game, setup = make(name)
    setup = replace(setup)  # a copy compiled by no one yet
    calls = []
    real = type(game)._compile
    monkeypatch.setattr(type(game), "_compile", lambda self, s: calls.append(s) or real(self, s))
    compiled = game.compile(setup)
    digest = kernel_digest(compiled)
    for start in (0, setup.rotations):
        game.simulate(setup, 5, start, setup.rotations)
    game.transcript(setup, 5, 0)
    assert game.compile(setup) is compiled and len(calls) == 1
    assert kernel_digest(game.compile(setup)) == digest  # batches and replays read it, never write it


@pytest.mark.parametrize("name", game_names())
def test_a_replaced_setup_compiles_its_own_inputs(name):
    game, setup = make(name)
    _, change, holds = CHANGES[name]
    before = game.compile(setup)
    changed = replace(setup, options={**setup.options, **change})
    assert game.compile(changed) is not before and holds(options_row(game, changed))
    assert not holds(options_row(game, setup))  # the original keeps its own
    assert study_identity(changed)["kernel"] != study_identity(setup)["kernel"]


def scenarios(name: str):
    return [path for path in sorted((SCENARIOS / name).glob("*.toml")) if not is_sweep_file(path)]


@pytest.mark.parametrize("name", game_names())
def test_a_setups_tables_hold_only_what_its_scenario_wrote(name):
    # kernel inputs live in Game.compile, not in Setup.extra: every key of extra is one of the
    # scenario's own tables (roles, custom_roles, [army_choice], [hand_start]...), no array among them
    def plain(value) -> bool:
        if isinstance(value, dict):
            return all(plain(v) for v in value.values())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return isinstance(value, (str, int, float, bool))

    paths = scenarios(name)
    assert paths
    for path in paths:
        scenario = load_scenario(path)
        extra = scenario.setup.extra
        assert set(extra) <= set(scenario.tables), (path.name, sorted(extra))
        assert all(plain(v) for v in extra.values()), path.name
    for label, setup in get_game(name).bench_setups():
        assert all(not key.startswith("_") and plain(v) for key, v in setup.extra.items()), label


def test_a_study_keys_on_the_deck_it_plays_not_on_how_it_was_named():
    game = get_game("thron_der_luegen")
    one, other = (game.make_setup("base", 4, "heuristic", options={"composition": k}) for k in (1, 2))
    assert study_identity(one)["options"] != study_identity(other)["options"]
    assert study_identity(one)["kernel"] != study_identity(other)["kernel"]
    assert study_identity(one)["kernel"] == kernel_digest(game.compile(one))


def test_a_study_folder_of_the_previous_layout_is_refused_in_one_line(tmp_path):
    # folders written before the key held "kernel" (format 2) keyed on other values: never resumed,
    # never read, so their games cannot mix with this version's
    scenario = load_scenario(scenarios("take_the_throne")[0])
    folder = tmp_path / "study"
    folder.mkdir()
    (folder / MANIFEST).write_text(json.dumps({"format": FOLDER_FORMAT - 1, "key": "0" * 64, "parts": []}))
    with pytest.raises(RunError, match="written by another version of balance"):
        run_to_folder(scenario, 1, 40, folder)
    with pytest.raises(RunError, match="not a study folder of this version"):
        load_study(folder)
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST]
