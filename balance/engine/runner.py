"""Batched, seeded, resumable runs of a scenario; results as pandas frames and Parquet.

A run of N games is cut into chunks of ``chunk`` games (a multiple of the seat rotations, so a
deal is never split). Each chunk is one call of the game's parallel kernel. With an output
folder, every finished chunk is written at once as ``parts/part-XXXXXX.parquet`` (written to a
temporary name, then renamed), so an interrupted run resumes where it stopped: finished parts are
read back, the rest is simulated. Because each game draws only from its own counter-based
stream, the resumed result is identical to an uninterrupted one.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import numba
import pandas as pd

from balance.engine.game import Setup
from balance.engine.scenario import Scenario

DEFAULT_CHUNK = 100_000
MANIFEST = "manifest.json"
SCENARIO_COPY = "scenario.toml"  # the scenario as it was run, so the folder stands on its own
RESULTS = "results.parquet"
SUMMARY = "summary.json"

Progress = Callable[[int], None]


class RunError(Exception):
    pass


@dataclass
class Results:
    setup: Setup
    seed: int
    games: pd.DataFrame
    meta: dict = field(default_factory=dict)

    @cached_property
    def seats(self) -> pd.DataFrame:
        return self.setup.game.seat_frame(self.setup, self.games)

    def table(self, name: str) -> pd.DataFrame:
        return self.seats if name == "seats" else self.games

    @property
    def n_games(self) -> int:
        return int(self.games["game"].nunique()) if len(self.games) else 0


def set_threads(threads: int | None) -> None:
    if threads:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


def round_to_deals(games: int, rotations: int) -> int:
    """Whole deals only: every deal is played under all its rotations."""
    return max(rotations, math.ceil(games / rotations) * rotations)


def simulate_frame(setup: Setup, seed: int, start: int, count: int) -> pd.DataFrame:
    table = setup.game.simulate(setup, seed, start, count)
    return setup.game.frame(setup, table)


def simulate(setup: Setup, seed: int, games: int, *, start: int = 0, chunk: int = DEFAULT_CHUNK,
             progress: Progress | None = None) -> Results:
    """Play games [start, start + games) in memory."""
    frames = []
    chunk = round_to_deals(chunk, setup.rotations)
    done = 0
    while done < games:
        n = min(chunk, games - done)
        frames.append(simulate_frame(setup, seed, start + done, n))
        done += n
        if progress:
            progress(n)
    games_df = pd.concat(frames, ignore_index=True) if frames else setup.game.frame(setup, setup.game.simulate(setup, seed, 0, 0))
    return Results(setup, seed, games_df)


def _manifest(scenario: Scenario, seed: int, games: int, chunk: int) -> dict:
    return {"study": scenario.setup.describe(), "seed": seed, "chunk": chunk, "games": games}


def run_to_folder(scenario: Scenario, seed: int, games: int, out: Path, *, chunk: int = DEFAULT_CHUNK,
                  progress: Progress | None = None) -> Results:
    """Play the scenario into ``out`` (resuming whatever parts are already there)."""
    setup = scenario.setup
    chunk = round_to_deals(chunk, setup.rotations)
    games = round_to_deals(games, setup.rotations)
    parts = out / "parts"
    manifest = _manifest(scenario, seed, games, chunk)
    manifest_path = out / MANIFEST
    if manifest_path.exists():
        old = json.loads(manifest_path.read_text())
        same_study = {k: old.get(k) for k in ("study", "seed", "chunk")} == {k: manifest[k] for k in ("study", "seed", "chunk")}
        if not same_study:
            raise RunError(f"{out}: holds results of a different study (scenario, seed or chunk differ); "
                           "choose another --out or delete it")
    parts.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps(manifest, indent=2, default=str))
    if scenario.path is not None:
        shutil.copyfile(scenario.path, out / SCENARIO_COPY)
    frames = []
    for index, start in enumerate(range(0, games, chunk)):
        n = min(chunk, games - start)
        path = parts / f"part-{index:06d}.parquet"
        if path.exists():
            frame = pd.read_parquet(path)
        else:
            frame = simulate_frame(setup, seed, start, n)
            tmp = path.with_suffix(".tmp")
            frame.to_parquet(tmp, index=False)
            os.replace(tmp, path)
        frames.append(frame)
        if progress:
            progress(n)
    results = Results(setup, seed, pd.concat(frames, ignore_index=True))
    tmp = out / (RESULTS + ".tmp")
    results.games.to_parquet(tmp, index=False)
    os.replace(tmp, out / RESULTS)
    return results


def load_results(folder: Path) -> tuple[Scenario, Results]:
    """A finished run folder: its scenario (as run, with the run's seed) and its results."""
    from balance.engine.scenario import load_scenario

    if not (folder / RESULTS).exists():
        raise RunError(f"{folder}: no {RESULTS} (the run did not finish; run it again to resume)")
    manifest = json.loads((folder / MANIFEST).read_text())
    scenario = load_scenario(folder / SCENARIO_COPY)
    scenario.seed = manifest["seed"]
    games = pd.read_parquet(folder / RESULTS)
    return scenario, Results(scenario.setup, manifest["seed"], games, meta=manifest)


def planned_looks(batch: int, max_games: int) -> list[int]:
    """Game counts at which a sequential check looks at its claims: batch, 2 batch, 4 batch, ..."""
    looks = []
    n = batch
    while n < max_games:
        looks.append(n)
        n *= 2
    looks.append(max_games)
    return looks


def run_until_decided(scenario: Scenario, seed: int, *, progress: Progress | None = None,
                      chunk: int = DEFAULT_CHUNK) -> Results:
    """Sequential stopping: play until every claim is decided or meets its precision target, or the
    game cap. Alpha is spent over the planned looks (O'Brien-Fleming type, see balance.stats), so
    the verdicts keep their error rate whatever look stops the run; ``meta`` records the looks."""
    from balance.stats import sequential_looks, should_stop

    precision = scenario.precision
    rotations = scenario.setup.rotations
    looks = [round_to_deals(n, rotations) for n in sequential_looks(precision.batch, precision.max_games)]
    frames: list[pd.DataFrame] = []
    done = 0
    results = None
    for index, look in enumerate(looks):
        part = simulate(scenario.setup, seed, look - done, start=done, chunk=chunk, progress=progress)
        frames.append(part.games)
        done = look
        results = Results(scenario.setup, seed, pd.concat(frames, ignore_index=True),
                          meta={"looks": looks, "look": index})
        if not scenario.claims or should_stop(results, scenario.claims, precision, index, looks):
            break
    return results
