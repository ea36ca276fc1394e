"""Fingerprints of results: a sha256 of the result rows of every bench setup and every committed
scenario of a game, at a small game count, to show a refactor of a kernel moves nothing.

    python tools/fingerprint.py [--game G ...] [--games N] [--skip-policy search] > before.txt
    (change the code)
    python tools/fingerprint.py [--game G ...] [--games N] [--skip-policy search] > after.txt
    diff before.txt after.txt

One line per setup: game, source, label, sha256 (first 16 hex digits). Setups with a seat whose
policy name is in ``--skip-policy`` (default: search, whose answers a refactor may change) are
listed as skipped.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's balance, not the installed one (a worktree's own code)

from balance.engine.runner import round_to_deals, simulate_frame  # noqa: E402
from balance.engine.scenario import is_sweep_file, load_scenario  # noqa: E402
from balance.games import game_names, get_game  # noqa: E402

SEED = 20261202


def frame_hash(frame) -> str:
    digest = hashlib.sha256()
    for name in frame.columns:
        digest.update(name.encode())
        values = frame[name].to_numpy()
        if values.dtype == object:  # labels (policy names): their text, not the addresses of the objects
            digest.update("\0".join(map(str, values)).encode())
        else:
            digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()[:16]


def uses(setup, skipped: set[str]) -> bool:
    return any(seat.policy.name in skipped for seat in setup.seats)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", default=[])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--skip-policy", action="append", default=None)
    a = ap.parse_args()
    skipped = set(a.skip_policy if a.skip_policy is not None else ["search"])
    for name in a.game or game_names():
        game = get_game(name)
        setups = [("bench", label, setup) for label, setup in game.bench_setups()]
        for path in sorted((ROOT / "scenarios" / name).glob("*.toml")):
            if not is_sweep_file(path):
                setups.append(("scenario", path.name, load_scenario(path).setup))
        for source, label, setup in setups:
            if uses(setup, skipped):
                print(f"{name}\t{source}\t{label}\tskipped")
                continue
            count = round_to_deals(a.games, setup.rotations)
            print(f"{name}\t{source}\t{label}\t{frame_hash(simulate_frame(setup, SEED, 0, count))}", flush=True)


if __name__ == "__main__":
    main()
