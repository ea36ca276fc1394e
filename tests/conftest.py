"""Under pytest-xdist (``-n 2 --dist loadgroup``) the tests of one game's folder run in one worker,
so that a game's kernels are compiled by one worker, not by both at once; the engine's test files,
which play every game, are spread one file a group. Before the workers start, the games' kernels
are compiled into Numba's cache in two processes (tests/compile_kernels.py), so that a worker
loads them instead of compiling them again while the other worker does."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance.games import game_names

ROOT = Path(__file__).resolve().parents[1]
# the slowest game to compile makes one half, every other game (and any game added) the other: with
# an empty cache, one process each, the Imposter Kings took 345 s, the other four 70-125 s each
SLOWEST_TO_COMPILE = ["imposter_kings"]


def pytest_configure(config):
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or no workers at all
    script = str(Path(__file__).with_name("compile_kernels.py"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    halves = ([g for g in game_names() if g not in SLOWEST_TO_COMPILE], SLOWEST_TO_COMPILE)
    compiling = [subprocess.Popen([sys.executable, script, *games], cwd=ROOT, env=env) for games in halves]
    for process in compiling:
        process.wait()  # a kernel that fails to compile fails its tests: they say why


def pytest_collection_modifyitems(config, items):
    for item in items:
        folder = item.path.parent.name
        item.add_marker(pytest.mark.xdist_group(item.path.stem if folder == "engine" else folder))
