"""Where a bench setup's compiled time goes, function by function (Linux ``perf``)::

    python tools/perf_kernels.py dethroned                 # the game's first bench setup
    python tools/perf_kernels.py take_the_throne --setup 2 --seconds 20 --top 30

Plays the setup on one thread under ``perf record`` and prints each compiled function's share of the
samples (its own time: what it inlines counts as its own). perf cannot name code Numba compiled at
run time, so before playing, this script writes the perf map perf reads (/tmp/perf-<pid>.map) from
the symbol tables of the objects in Numba's cache (every function Numba keeps is there, at the
address the JIT loaded it). Needs ``perf`` and ``pyelftools`` (``pip install pyelftools``); a
function compiled in this run without a cache entry stays unnamed.

A ratio between two versions is still `../shared/tools/bench_vs.py`'s to measure: this says where
to look, not how much faster a change made anything.
"""

import argparse
import glob
import io
import os
import re
import subprocess
import sys
import tempfile
import time


def write_perf_map() -> int:
    """/tmp/perf-<pid>.map: every function in the Numba cache's objects at its loaded address."""
    from elftools.elf.elffile import ELFFile
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine._ee
    rows = set()
    for path in glob.glob(os.path.join(os.environ["NUMBA_CACHE_DIR"], "**", "*.nbc"), recursive=True):
        raw = open(path, "rb").read()
        start = raw.find(b"\x7fELF")  # the object code inside Numba's pickled cache entry
        if start < 0:
            continue
        symbols = ELFFile(io.BytesIO(raw[start:])).get_section_by_name(".symtab")
        for sym in symbols.iter_symbols() if symbols else ():
            if sym["st_info"]["type"] == "STT_FUNC" and sym["st_size"] > 0 and sym["st_shndx"] != "SHN_UNDEF":
                address = engine.get_function_address(sym.name)
                if address:
                    rows.add((address, sym["st_size"], sym.name))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        out.writelines(f"{a:x} {s:x} {n}\n" for a, s, n in sorted(rows))
    return len(rows)


def play(game_name: str, setup_index: int, seconds: float) -> None:
    """The child: warm up, write the map, play the setup for ``seconds``."""
    import balance  # noqa: F401  (sets NUMBA_CACHE_DIR)
    from balance.games import get_game

    game = get_game(game_name)
    label, setup = game.bench_setups()[setup_index]
    game.simulate(setup, 1, 0, 20)  # compile or load
    named = write_perf_map()
    games, began, count = 0, time.perf_counter(), 200
    while time.perf_counter() - began < seconds:
        game.simulate(setup, 1, games, count)
        games += count
        count = min(count * 2, 100_000)
    rate = games / (time.perf_counter() - began) * 60
    print(f"{game_name}: {label}: {rate:,.0f} a minute on one thread ({named} functions named)", file=sys.stderr)


def readable(symbol: str) -> str:
    """``balance.games.dethroned.rules.advance`` from Numba's mangled name (``_ZN`` then each part of
    the qualified name as its length and its text, up to the first non-digit)."""
    text = symbol.removeprefix("cfunc.").removeprefix("_ZN").removeprefix("7cpython")
    if text == symbol.removeprefix("cfunc."):
        return symbol  # not a Numba function: perf's own name
    parts, at = [], 0
    while at < len(text) and text[at].isdigit():
        digits = re.match(r"\d+", text[at:]).group()
        at += len(digits)
        parts.append(text[at:at + int(digits)])
        at += int(digits)
    return ".".join(parts) or symbol


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--setup", type=int, default=0, help="index into the game's bench setups (balance bench)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play(args.game, args.setup, args.seconds)
        return
    with tempfile.TemporaryDirectory() as folder:
        data = os.path.join(folder, "perf.data")
        env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
        subprocess.run(["perf", "record", "-q", "-o", data, "--", sys.executable, __file__, args.game, "--setup",
                        str(args.setup), "--seconds", str(args.seconds), "--child"], env=env, check=True,
                       stdin=subprocess.DEVNULL)
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                                capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL).stdout
    shares: dict[str, float] = {}
    for line in report.splitlines():
        found = re.match(r"\s*([\d.]+)%\s+\[.\]\s+(\S+)", line)
        if found:
            name = readable(found.group(2))
            shares[name] = shares.get(name, 0.0) + float(found.group(1))
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{share:6.2f}%  {name}")


if __name__ == "__main__":
    main()
