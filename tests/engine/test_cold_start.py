"""Commands that play no game compile nothing: with an empty Numba cache they answer in seconds
(a declared kernel signature compiles on first use, not at import)."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from balance.games import game_names

ROOT = Path(__file__).resolve().parents[2]
GENEROUS_SECONDS = 60  # a cold import takes ~4 s; compiling the games' kernels takes minutes


@pytest.mark.parametrize("args", [["games", "--json"], ["games"], ["--help"]])
def test_a_command_that_plays_no_game_compiles_no_kernel(tmp_path, args):
    cache = tmp_path / "numba-cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "balance", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    compiled = [p for p in cache.rglob("*") if p.is_file()]  # Numba makes the folders when it loads a module
    assert compiled == []
    assert "compiling" not in done.stderr
    assert seconds < GENEROUS_SECONDS
    if args == ["games", "--json"]:
        assert [g["game"] for g in json.loads(done.stdout)] == game_names()
