"""Seeded runs of a scenario, in memory or into a study folder; results as pandas frames and Parquet.

One sequential driver (:func:`play_study`) plays every study: a fixed count is a plan with a
single look; a ``precision`` scenario looks at its claims at the planned game counts and stops
early when they are settled. ``check`` and ``report`` drive it in memory, ``run`` into a folder.

A study folder is an append-only record of one study, keyed by the exact setup (every option and
policy parameter at full precision), the seed and the chunk size:

  manifest.json   the key, the setup it hashes, and every part with its games and checksum
  parts/games-<start>-<end>.parquet   the result rows of games [start, end)
  scenario.toml   the scenario file as last run (written when the folder is made and when the study
                  finishes; the seed, chunk and the --games asked come from the manifest), so that
                  `balance run FOLDER` resumes an interrupted study from the folder alone
  files/<key>/<name>   a copy of each file the setup reads (a deck file), by the scenario key that
                  names it: the study keys on their content, and replays and reports read the copies
  results.parquet, summary.json   the finished study (written by the run that finished it)
  lock            the process id of the run using the folder

Parts tile the games [0, held) in order. A run asking for more games plays only the missing ones
(parts end at multiples of the chunk, or at a look); fewer games, or any difference in the key, is
refused before anything is written, in one line naming the key or the file that differs. Every
file is written to a temporary name, synced and renamed, so a kill leaves either the old file or the
new one; a part whose checksum differs from the
manifest's (truncated, corrupt) or that is missing is played again. Because each game draws only
from its own counter-based stream, a resumed study equals an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd
import tomli_w

from balance.engine.config import Config
from balance.engine.game import Setup
from balance.engine.scenario import Scenario, load_scenario
from balance.stats import sequential_looks, should_stop

DEFAULT_CHUNK = 100_000
# A part of a study folder whose players may search (a ladder's cell, a skill rung): they play a
# few games a second, so an interruption loses at most a minute or so, not the whole folder.
SEARCH_CHUNK = 100
MANIFEST = "manifest.json"
SCENARIO_COPY = "scenario.toml"  # the scenario as it was run, so the folder stands on its own
RESULTS = "results.parquet"
SUMMARY = "summary.json"
PARTS = "parts"
FILES = "files"
LOCK = "lock"
FOLDER_FORMAT = 3  # manifest layout version; folders of another version are refused (3: the key holds "kernel")
FIRST_STEP = 512  # games of the first kernel call of a range (then grown to STEP_SECONDS per call)
STEP_SECONDS = 0.5  # target time of one kernel call: progress stays fresh, calls stay efficient


class RunError(Exception):
    """A run that cannot go ahead (a folder of another study, a lock): one line."""


class Tracker:
    """What the driver reports while it plays; the command line shows it as progress.

    ``begin(total, kept)``: the study will hold ``total`` games (its last planned look), ``kept``
    of them already played in an earlier run. ``advance(n)``: n more games played. A study of
    parts that may differ in cost (ladder cells, skill rungs, family members) also says
    ``parts(left)``, the games each part has still to play, and ``part(i)`` before part i's games.
    ``notice``: one line worth telling (a part recomputed)."""

    def begin(self, total: int, kept: int) -> None:
        pass

    def parts(self, left: list[int]) -> None:
        pass

    def part(self, index: int) -> None:
        pass

    def advance(self, n: int) -> None:
        pass

    def notice(self, line: str) -> None:
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

    @cached_property
    def extra(self) -> dict[str, pd.DataFrame]:
        return self.setup.game.extra_frames(self.setup, self.games, self.seats)

    def table(self, name: str) -> pd.DataFrame:
        """A quantity's table (``Quantity.table``): games, seats or one of the game's extra frames."""
        if name == "games":
            return self.games
        return self.seats if name == "seats" else self.extra[name]

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


def play_range(setup: Setup, seed: int, start: int, end: int, tracker: Tracker,
               max_step: int = DEFAULT_CHUNK) -> pd.DataFrame:
    """Games [start, end) in kernel calls of about STEP_SECONDS each, at most ``max_step`` games
    (the first calls short, so the speed, hence the remaining time, is known early). The rows never
    depend on the steps."""
    frames = []
    step = min(round_to_deals(FIRST_STEP, setup.rotations), max_step)
    while start < end:
        n = min(step, max_step, end - start)
        began = time.perf_counter()
        frames.append(simulate_frame(setup, seed, start, n))
        if time.perf_counter() - began < STEP_SECONDS / 2:
            step *= 2
        start += n
        tracker.advance(n)
    return pd.concat(frames, ignore_index=True) if frames else simulate_frame(setup, seed, 0, 0)


class Executor:
    """Where the games of a range are played. The default plays them in this process, in the
    compiled engine (:func:`play_range`); ``balance.engine.executor.DaskExecutor`` sends chunks to a
    Dask cluster. Every executor returns the rows of games [start, end) in game order, each game
    played by ``Game.simulate(setup, seed, start, count)``, so results never depend on it."""

    def play(self, setup: Setup, seed: int, start: int, end: int, tracker: Tracker) -> pd.DataFrame:
        return play_range(setup, seed, start, end, tracker)

    def close(self) -> None:
        pass


IN_PROCESS = Executor()


def simulate(setup: Setup, seed: int, games: int, *, start: int = 0, chunk: int = DEFAULT_CHUNK,
             tracker: Tracker | None = None) -> Results:
    """Play games [start, start + games) in memory, in kernel calls of at most ``chunk`` games."""
    tracker = tracker or Tracker()
    tracker.begin(games, 0)
    return Results(setup, seed, play_range(setup, seed, start, start + games, tracker, chunk))


# ---- the plan: how many games, when to look ---------------------------------------------------
def study_looks(scenario: Scenario, games: int | None) -> list[int]:
    """The planned looks (game counts, whole deals); the last is the study's full size. A game
    count (given or the scenario's) is one look; otherwise the scenario's precision plan."""
    rotations = scenario.setup.rotations
    if games is None and scenario.precision is not None:
        looks = sequential_looks(scenario.precision.batch, scenario.precision.max_games)
        return sorted({round_to_deals(n, rotations) for n in looks})
    return [round_to_deals(scenario.games if games is None else games, rotations)]


def play_study(scenario: Scenario, seed: int, looks: list[int], *, folder: StudyFolder | None = None,
               tracker: Tracker | None = None, executor: Executor = IN_PROCESS) -> Results:
    """The sequential driver: play to each planned look in turn (reading what the folder already
    holds, saving what is new) and stop at the first look where the claims are settled. New games
    are played by ``executor``."""
    tracker = tracker or Tracker()
    setup = scenario.setup
    tracker.begin(looks[-1], min(folder.held, looks[-1]) if folder else 0)
    frames: list[pd.DataFrame] = []
    played = 0  # games in frames (may pass the current look when a kept part straddles it)
    results = None
    for index, look in enumerate(looks):
        while played < look:
            if folder is not None:
                frame, end = folder.games_from(played, look, seed, tracker, executor)
            else:
                end = look
                frame = executor.play(setup, seed, played, end, tracker)
            frames.append(frame)
            played = end
        games = pd.concat(frames, ignore_index=True)
        if played > look:
            games = games[games["game"] < look].reset_index(drop=True)
        results = Results(setup, seed, games, meta={"looks": looks, "look": index})
        if index == len(looks) - 1 or should_stop(results, scenario.claims, scenario.precision, index, looks):
            break
    return results


# ---- study folders ------------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    """JSON-ready copy with every number at full precision (arrays as lists)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def setup_file_bytes(setup: Setup) -> dict[str, bytes]:
    """The content of every file the setup read, by the scenario key that names it."""
    return {key: path.read_bytes() for key, path in sorted(setup.files.read.items())}


def kernel_digest(inputs: Any) -> str:
    """A sha256 of a setup's kernel inputs (``Game.compile``): every array by its type, shape and
    bytes, a record's fields by name. The cards and tables the kernels read, whatever named them (a
    deck file, a sampled composition, custom roles), and tables computed by the rules' code."""
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        if isinstance(value, (np.ndarray, np.generic)):
            value = np.asarray(value)
            digest.update(f"array {value.dtype.str} {value.shape}".encode())
            digest.update(np.ascontiguousarray(value).tobytes())
        elif isinstance(value, Config):
            digest.update(f"config {value.types}".encode())
            feed(value.row)
        elif is_dataclass(value):
            digest.update(type(value).__name__.encode())
            for f in fields(value):
                digest.update(f"/{f.name}".encode())
                feed(getattr(value, f.name))
        elif isinstance(value, (tuple, list)):
            digest.update(f"sequence {len(value)}".encode())
            for item in value:
                feed(item)
        elif isinstance(value, (str, int, float, bool)):
            digest.update(f"{type(value).__name__} {value!r}".encode())
        else:
            raise TypeError(f"kernel inputs of type {type(value).__name__} cannot key a study")

    feed(inputs)
    return digest.hexdigest()


def study_identity(setup: Setup) -> dict:
    """Everything that decides the games of a setup, at full precision (never display labels): the
    scenario's values, the files it reads by their content (never their name or place) and the
    kernel inputs compiled from them (``kernel``: their digest)."""
    files = {key: _sha256(data) for key, data in setup_file_bytes(setup).items()}
    return _plain({
        "game": setup.game.name, "mode": setup.mode, "players": setup.players,
        "options": setup.options,
        "seats": [{"policy": s.policy.name, "params": {p.name: float(s.row[i]) for i, p in enumerate(s.policy.params)},
                   **({"forbid": list(s.forbid), "prefer": list(s.prefer)} if s.restricted else {})}
                  for s in setup.seats],
        "rotate": setup.rotate, "max_length": setup.game.length_cap(setup),
        "extra": dict(sorted(setup.extra.items())),
        **({"files": files} if files else {}),
        "kernel": kernel_digest(setup.game.compile(setup)),
    })


def study_key(identity: dict, seed: int, chunk: int) -> dict:
    """The folder's key: the setup's identity, seed and chunk, and their hash."""
    key = {"study": identity, "seed": seed, "chunk": chunk}
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    return {"key": digest, **key}


def _flatten(value: Any, key: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out = {}
        for name, inner in value.items():
            out.update(_flatten(inner, f"{key}.{name}" if key else name))
        return out
    if isinstance(value, list):
        out = {}
        for i, inner in enumerate(value):
            out.update(_flatten(inner, f"{key}[{i}]"))
        return out if value else {key: []}
    return {key: value}


KERNEL = "kernel"  # the digest of the kernel inputs, computed from the rest


def first_difference(here: dict, there: dict, setup: Setup | None = None) -> str:
    """What differs, in the scenario's words: a file the setup reads ('options.deck: the file
    decks/mine.toml differs from the one the study was run with'), else the first dotted key
    ('options.x: A here, B in the folder'; game tables without their 'extra.' prefix). The kernel
    inputs the game computes are never named: alone, they differ only with the rules' version."""
    read = setup.files.read if setup is not None else {}
    for key in sorted(set(here.get("files", {})) | set(there.get("files", {}))):
        if here.get("files", {}).get(key) != there.get("files", {}).get(key):
            return f"{key}: the file {read.get(key, '?')} differs from the one the study was run with"
    a, b = _flatten(here), _flatten(there)
    internal = False
    for name in sorted(set(a) | set(b)):
        if a.get(name, "<absent>") != b.get(name, "<absent>"):
            if name == KERNEL:
                internal = True
                continue
            shown = name.removeprefix("extra.")
            return f"{shown}: {a.get(name, '<absent>')!r} here, {b.get(name, '<absent>')!r} in the folder"
    return "the game's rules differ (another version of balance)" if internal else "nothing"


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``path`` so a kill leaves the old file or the new one: temp file, fsync, rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _frame_bytes(frame: pd.DataFrame) -> bytes:
    return frame.to_parquet(index=False)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class StudyFolder:
    """An open study folder, locked by this process until :meth:`close`."""

    def __init__(self, path: Path, setup: Setup, key: dict, manifest: dict):
        self.path = path
        self.setup = setup
        self.key = key
        self.manifest = manifest

    # ---- opening ----
    @classmethod
    def open(cls, path: Path, scenario: Scenario, seed: int, chunk: int, games: int | None,
             asked: int | None) -> StudyFolder:
        """Validate ``path`` for this study (refusing in one line), then lock it and create it if
        new. ``games``: the fixed size the run plays (None for a sequential study); ``asked``: the
        --games the user passed (None: the scenario's own size), kept so that the folder alone can
        resume the run."""
        setup = scenario.setup
        key = study_key(study_identity(setup), seed, chunk)
        if path.exists() and not path.is_dir():
            raise RunError(f"--out: {path} is a file, not a study folder")
        existing = path.is_dir() and any(path.iterdir())
        if existing and not (path / MANIFEST).exists() and not (path / LOCK).exists():
            raise RunError(f"--out: {path} is not empty and holds no study; choose another folder")
        if not path.is_dir():
            path.mkdir(parents=True)
        lock_folder(path)
        try:
            manifest = cls._check(path, key, games, setup)
            if manifest is None:
                manifest = {"format": FOLDER_FORMAT, **key, "parts": [], "copies": _keep_files(path, setup)}
                write_atomic(path / SCENARIO_COPY, _scenario_source(scenario))
            if manifest.get("asked", -1) != asked:
                manifest["asked"] = asked
                write_atomic(path / MANIFEST, _json(manifest))
            (path / PARTS).mkdir(exist_ok=True)
            for stale in path.glob("**/.*.tmp"):  # temp files of a killed run
                stale.unlink()
        except BaseException:
            unlock_folder(path)
            raise
        return cls(path, setup, key, manifest)

    @staticmethod
    def _check(path: Path, key: dict, games: int | None, setup: Setup) -> dict | None:
        """The folder's manifest if it holds this study (None if it holds none yet); a folder that
        holds another study, or more games than a fixed-size run asks for, is refused (RunError)."""
        if not (path / MANIFEST).exists():
            return None
        try:
            manifest = json.loads((path / MANIFEST).read_text())
        except (ValueError, UnicodeDecodeError):
            raise RunError(f"{path / MANIFEST}: not readable; this folder cannot be resumed, "
                           "choose another --out") from None
        if manifest.get("format") != FOLDER_FORMAT:
            raise RunError(f"{path}: written by another version of balance; choose another --out")
        if manifest["key"] != key["key"]:
            for name, flag in (("seed", "seed"), ("chunk", "--chunk")):
                if manifest[name] != key[name]:
                    raise RunError(f"{path}: holds another study: {flag} {key[name]} here, {manifest[name]} "
                                   "in the folder; choose another --out")
            raise RunError(f"{path}: holds another study: "
                           f"{first_difference(key['study'], manifest['study'], setup)}; choose another --out")
        held = _held(manifest)
        if games is not None and games < held:
            raise RunError(f"{path}: holds {held:,} games of this study, more than the {games:,} asked; "
                           f"ask for {held:,} or more, or choose another --out")
        return manifest

    def close(self) -> None:
        unlock_folder(self.path)

    # ---- parts ----
    @property
    def held(self) -> int:
        return _held(self.manifest)

    def games_from(self, start: int, look: int, seed: int, tracker: Tracker,
                   executor: Executor = IN_PROCESS) -> tuple[pd.DataFrame, int]:
        """The part starting at game ``start`` (read back, or played again if damaged), or, past
        what the folder holds, new games up to the next chunk boundary or ``look``, saved. Only
        whole parts are saved, after ``executor`` returned every game of them."""
        for part in self.manifest["parts"]:
            if part["start"] == start:
                return self._read(part, seed, tracker, executor), part["end"]
        chunk = self.key["chunk"]
        end = min(look, (start // chunk + 1) * chunk)
        frame = executor.play(self.setup, seed, start, end, tracker)
        self._save(start, end, frame)
        return frame, end

    def _part_path(self, start: int, end: int) -> Path:
        return self.path / PARTS / f"games-{start:015d}-{end:015d}.parquet"

    def _read(self, part: dict, seed: int, tracker: Tracker, executor: Executor) -> pd.DataFrame:
        path = self._part_path(part["start"], part["end"])
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = None
        if data is not None and _sha256(data) == part["sha256"]:
            return pd.read_parquet(path)
        problem = "missing" if data is None else "truncated or corrupt (checksum differs)"
        frame = executor.play(self.setup, seed, part["start"], part["end"], Tracker())
        data = _frame_bytes(frame)
        write_atomic(path, data)
        part["sha256"] = _sha256(data)
        write_atomic(self.path / MANIFEST, _json(self.manifest))
        tracker.notice(f"{path}: {problem}; recomputed games {part['start']:,}-{part['end'] - 1:,}")
        return frame

    def _save(self, start: int, end: int, frame: pd.DataFrame) -> None:
        data = _frame_bytes(frame)
        write_atomic(self._part_path(start, end), data)
        self.manifest["parts"].append({"start": start, "end": end, "rows": len(frame), "sha256": _sha256(data)})
        write_atomic(self.path / MANIFEST, _json(self.manifest))

    def finish(self, results: Results, scenario: Scenario) -> None:
        """Record the finished study: its results, the scenario as run, the looks it made. A scenario
        with no file of its own (a sweep cell) is written out from its table."""
        write_atomic(self.path / SCENARIO_COPY, _scenario_source(scenario))
        write_atomic(self.path / RESULTS, _frame_bytes(results.games))
        self.manifest.update(games=results.n_games, looks=results.meta["looks"], look=results.meta["look"])
        write_atomic(self.path / MANIFEST, _json(self.manifest))


def _scenario_source(scenario: Scenario) -> bytes:
    """The scenario file's text; a scenario with no file of its own (a sweep cell), its table."""
    return scenario.path.read_bytes() if scenario.path else tomli_w.dumps(scenario.data).encode()


def _keep_files(folder: Path, setup: Setup) -> dict[str, str]:
    """Copy every file the setup reads into ``folder``/files/<key>/; their places there, by key."""
    copies = {}
    for key, data in setup_file_bytes(setup).items():
        copy = Path(FILES) / key / setup.files.read[key].name
        (folder / copy).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / copy, data)
        copies[key] = copy.as_posix()
    return copies


def _held(manifest: dict) -> int:
    """Games a manifest's parts hold (they tile [0, held) in order)."""
    return manifest["parts"][-1]["end"] if manifest["parts"] else 0


def _json(obj: Any) -> bytes:
    return json.dumps(obj, indent=2).encode()


def lock_folder(path: Path) -> None:
    """Take the folder's lock file (holding our pid); refuse if a live process holds it, take it
    over if its holder is dead."""
    lock = path / LOCK
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                holder = int(lock.read_text().strip() or 0)
            except (OSError, ValueError):
                holder = 0
            if holder and _pid_alive(holder):
                raise RunError(f"{path}: in use by another run (process {holder}, lock file {lock})") from None
            lock.unlink(missing_ok=True)  # a stale lock: its holder is gone
            continue
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return
    raise RunError(f"{path}: in use by another run (lock file {lock})")


def unlock_folder(path: Path) -> None:
    lock = path / LOCK
    try:
        if int(lock.read_text().strip()) == os.getpid():
            lock.unlink()
    except (OSError, ValueError):
        pass


def run_to_folder(scenario: Scenario, seed: int, games: int | None, out: Path, *, chunk: int = DEFAULT_CHUNK,
                  tracker: Tracker | None = None, executor: Executor = IN_PROCESS) -> Results:
    """Play the scenario into the study folder ``out``: ``games`` games, or to the scenario's
    precision when None; extends what the folder holds, never plays a game twice."""
    looks = study_looks(scenario, games)
    chunk = round_to_deals(chunk, scenario.setup.rotations)
    folder = StudyFolder.open(out, scenario, seed, chunk, looks[-1] if len(looks) == 1 else None, games)
    try:
        results = play_study(scenario, seed, looks, folder=folder, tracker=tracker, executor=executor)
        if results.n_games < folder.held:
            raise RunError(f"{out}: holds {folder.held:,} games of this study; this sequential run stopped at "
                           f"{results.n_games:,}; pass --games {folder.held} or choose another --out")
        folder.finish(results, scenario)
    finally:
        folder.close()
    return results


def kept_games(folder: Path | None, setup: Setup, seed: int, games: int, chunk: int = SEARCH_CHUNK) -> int:
    """Games of a fixed-size study (``games`` of ``setup`` from ``seed``, saved ``chunk`` a part)
    that ``folder`` already holds, 0 for a new folder (or none: played in memory). Asked before
    anything plays, so that a folder that holds another study is refused (RunError) before any
    other is touched."""
    if folder is None:
        return 0
    key = study_key(study_identity(setup), seed, round_to_deals(chunk, setup.rotations))
    manifest = StudyFolder._check(folder, key, games, setup)
    return min(_held(manifest), games) if manifest else 0


def play_parts(parts: list[tuple[Scenario, Path | None, int]], seed: int, tracker: Tracker,
               chunk: int = SEARCH_CHUNK) -> list[Results]:
    """Games [0, games) of each part of a larger study, (scenario, folder or None, games) each
    (``play_fixed``), every part's first ``chunk`` games before the rest of any part: the parts'
    speeds, which differ a hundredfold between a search rung and a heuristic one, are all measured
    early, so the time left is right from then on (``Tracker.parts``). A part's rows do not depend
    on the order; a part that already holds its first chunk is not played twice."""
    kept = [kept_games(folder, sc.setup, seed, n, chunk) for sc, folder, n in parts]
    tracker.parts([n - k for (_, _, n), k in zip(parts, kept)])
    firsts: dict[int, Results] = {}
    for i, ((sc, folder, n), k) in enumerate(zip(parts, kept)):
        first = min(n, round_to_deals(chunk, sc.setup.rotations))
        if k < first < n:
            tracker.part(i)
            firsts[i] = play_fixed(sc, seed, first, tracker, folder, chunk)
    results = []
    for i, (sc, folder, n) in enumerate(parts):
        tracker.part(i)
        if folder is None and i in firsts:
            played = firsts[i]
            rest = play_range(sc.setup, seed, played.n_games, n, tracker)
            results.append(Results(sc.setup, seed, pd.concat([played.games, rest], ignore_index=True)))
        else:
            results.append(play_fixed(sc, seed, n, tracker, folder, chunk))
    return results


def play_fixed(scenario: Scenario, seed: int, games: int, tracker: Tracker, folder: Path | None = None,
               chunk: int = SEARCH_CHUNK) -> Results:
    """Games [0, games) of one part of a larger study (a ladder's cell, a skill rung, a family
    member), advancing the study's ``tracker``: in memory, or kept in the study folder ``folder``
    (saved ``chunk`` games a part, resumed from what it holds; ``kept_games`` counts that first)."""
    if folder is None:
        return Results(scenario.setup, seed, play_range(scenario.setup, seed, 0, games, tracker))
    return run_to_folder(scenario, seed, games, folder, chunk=chunk, tracker=PartTracker(tracker))


class PartTracker(Tracker):
    """The progress of one study folder inside a larger study (a ladder's cell, a skill rung): its
    games advance the larger study's tracker, which counted what every folder kept before anything
    played (``kept_games``)."""

    def __init__(self, whole: Tracker):
        self.whole = whole

    def advance(self, n: int) -> None:
        self.whole.advance(n)

    def notice(self, line: str) -> None:
        self.whole.notice(line)


def held_games(folder: Path) -> int:
    """Games a study folder holds (0 if it holds none)."""
    try:
        return _held(json.loads((folder / MANIFEST).read_text()))
    except (OSError, ValueError, KeyError):
        return 0


def load_study(folder: Path) -> tuple[Scenario, dict]:
    """A study folder's scenario (as run, with the run's seed, reading the folder's copies of its
    files) and manifest, from the folder alone; refused when they no longer make the study's key."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        raise RunError(f"{folder}: not a study folder (no readable {MANIFEST})") from None
    if manifest.get("format") != FOLDER_FORMAT or not (folder / SCENARIO_COPY).exists():
        raise RunError(f"{folder}: not a study folder of this version of balance")
    copies = {key: folder / place for key, place in manifest.get("copies", {}).items()}
    scenario = load_scenario(folder / SCENARIO_COPY, copies)
    scenario.seed = manifest["seed"]
    identity = study_identity(scenario.setup)
    if study_key(identity, manifest["seed"], manifest["chunk"])["key"] != manifest["key"]:
        raise RunError(f"{folder}: its {SCENARIO_COPY} and copied files no longer make the study it holds "
                       f"({first_difference(identity, manifest['study'], scenario.setup)}); "
                       "the folder was changed after its run")
    return scenario, manifest


def load_results(folder: Path) -> tuple[Scenario, Results]:
    """A finished study folder: its scenario (as run, with the run's seed) and its results."""
    scenario, manifest = load_study(folder)
    if not (folder / RESULTS).exists():
        raise RunError(f"{folder}: no {RESULTS} (the run did not finish; run it again to resume)")
    games = pd.read_parquet(folder / RESULTS)
    return scenario, Results(scenario.setup, manifest["seed"], games, meta=manifest)

