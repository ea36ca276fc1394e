"""The public Python API: what the command line does, for notebooks and scripts.

    import balance

    scenario = balance.load("scenarios/take_the_throne/core_4p.toml")
    balance.check(scenario, games=20_000)            # the claims: estimate, 95% interval, verdict
    results = balance.play(scenario, games=20_000)   # the games, one row each (results.games, .seats)
    bolder = balance.vary(scenario, {"seats.params.throne_value": 6})   # a variant, validated
    study = balance.run(scenario, "runs/core_4p", games=100_000)       # a resumable study folder
    study = balance.Study("runs/core_4p")            # read one back: .results, .claims, .replay(k)
    balance.estimate("rate", results.seats[results.seats.seat == 0], "won")

The same scenario, seed and game count give the same games as ``balance run`` and ``balance
check``, whatever the thread count. Bad input raises ``ValueError`` with the one line the command
line prints (naming the file and key).
"""

from __future__ import annotations

import importlib
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from balance.engine.game import INT64_MAX, Game, SetupError, check_number
from balance.engine.runner import (DEFAULT_CHUNK, Results, RunError, held_games, load_results, load_study, play_study,
                                   run_to_folder, set_threads, study_looks)
from balance.engine.scenario import Scenario, ScenarioError, load_scenario, parse_scenario
from balance.games import game_names, get_game
from balance.stats import estimate, summarize

__all__ = ["Study", "check", "estimate", "game", "list_games", "load", "play", "position", "run", "summary", "vary"]


def list_games() -> list[str]:
    """The registered games' names (``balance games``; ``balance.games`` is the games' package)."""
    return list(game_names())


def game(name: str) -> Game:
    """A game by name: its modes, options, policies, quantities (``balance games NAME``)."""
    return get_game(name)


def position(name: str) -> type:
    """A game's ``Position`` class: a position built from named cards, stepped through the same
    kernel the batch runs use (``legal()``, ``play(...)``, ``describe()``)."""
    get_game(name)  # an unknown name says which games there are
    return importlib.import_module(f"balance.games.{name}.positions").Position


def load(path: str | Path) -> Scenario:
    """A scenario file, validated (``ValueError`` names the file and key)."""
    with _one_line():
        return load_scenario(path)


def vary(scenario: Scenario, changes: dict[str, Any]) -> Scenario:
    """The scenario with ``changes`` applied, validated: the keys of a sweep (``options.X``,
    ``players``, ``mode``, ``max_length``, ``seats.policy``, ``seats.params.X``,
    ``seats[i].params.X``, a game table), the seed, claims and size kept so that the variant is
    compared on the same deals."""
    from balance.studies.sweep import SweepError, apply_changes, cell_label

    with _one_line():
        try:
            variant = parse_scenario(apply_changes(scenario.data, changes, "vary"), scenario.path)
        except SweepError as err:
            raise ValueError(str(err)) from None
    variant.seed = scenario.seed
    variant.title = f"{scenario.title} [{cell_label(changes)}]"
    return variant


def play(scenario: Scenario, games: int | None = None, seed: int | None = None,
         threads: int | None = None) -> Results:
    """The scenario's games in memory: ``games`` of them, else its precision plan, else its own
    count; ``seed`` overrides the scenario's. ``results.games`` has a row per game (per round in
    match games), ``results.seats`` a row per seat and game."""
    with _one_line():
        _check_counts(games, seed, threads)
        set_threads(threads)
        looks = study_looks(scenario, games)
        return play_study(scenario, scenario.seed if seed is None else seed, looks)


def summary(scenario: Scenario, results: Results) -> dict:
    """Everything ``balance check --json`` prints for played results: ``claims`` (a frame),
    ``facts``, ``quantities``, seat uniformity and the game's own analyses."""
    from balance.studies import analyses

    return summarize(results, scenario.claims, analyses(results))


def check(scenario: Scenario, games: int | None = None, seed: int | None = None,
          threads: int | None = None) -> pd.DataFrame:
    """The scenario's claims, played as ``balance check`` plays them: one row per claim with its
    estimate, 95% interval, verdict and p-value (multiplicity corrected within the scenario)."""
    return summary(scenario, play(scenario, games, seed, threads))["claims"]


def run(scenario: Scenario, folder: str | Path, games: int | None = None, seed: int | None = None,
        chunk: int = DEFAULT_CHUNK, threads: int | None = None) -> Study:
    """Play the scenario into a resumable study folder (as ``balance run``): an interrupted or
    smaller study there is continued, never played twice."""
    with _one_line():
        _check_counts(games, seed, threads)
        check_number(chunk, "chunk", integer=True, low=1)
        set_threads(threads)
        if seed is not None:
            scenario.seed = seed
        run_to_folder(scenario, scenario.seed, games, Path(folder), chunk=chunk)
    return Study(folder)


class Study:
    """A finished study folder, read from the folder alone (its own copy of the scenario and of
    every file it read)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        with _one_line():
            self.scenario, self.manifest = load_study(self.folder)

    @cached_property
    def results(self) -> Results:
        with _one_line():
            return load_results(self.folder)[1]

    @property
    def games(self) -> pd.DataFrame:
        return self.results.games

    @property
    def seats(self) -> pd.DataFrame:
        return self.results.seats

    @cached_property
    def summary(self) -> dict:
        return summary(self.scenario, self.results)

    @property
    def claims(self) -> pd.DataFrame:
        return self.summary["claims"]

    def replay(self, game_index: int) -> list[str]:
        """Game ``game_index`` of the study as a readable transcript, through the batch's kernel."""
        size = held_games(self.folder)
        if not 0 <= game_index < size:
            raise ValueError(f"game_index: the study has games 0 to {size - 1:,}; got {game_index}")
        return self.scenario.setup.game.transcript(self.scenario.setup, self.scenario.seed, game_index)


def _check_counts(games: int | None, seed: int | None, threads: int | None) -> None:
    import numba

    for value, name, high in ((games, "games", None), (seed, "seed", INT64_MAX),
                              (threads, "threads", numba.config.NUMBA_NUM_THREADS)):
        if value is not None:
            check_number(value, name, integer=True, low=0 if name == "seed" else 1, high=high)


class _one_line:
    """The command line's one-line errors as ``ValueError`` (the same text, no internal types)."""

    def __enter__(self):
        return self

    def __exit__(self, kind, err, trace):
        if isinstance(err, (ScenarioError, SetupError, RunError)):
            raise ValueError(str(err)) from None
        return False
