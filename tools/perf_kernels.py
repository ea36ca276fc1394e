"""Where a bench setup's compiled time goes, function by function (Linux ``perf``)::

    python tools/perf_kernels.py dethroned                 # the game's first bench setup
    python tools/perf_kernels.py take_the_throne --setup 2 --seconds 20 --top 30
    python tools/perf_kernels.py take_the_throne --calls play_on   # its calls' share of its own time

Plays the setup on one thread under ``perf record`` and prints each compiled function's share of the
samples (its own time: what it inlines counts as its own). perf cannot name code Numba compiled at
run time, so before playing, this script writes the perf map perf reads (/tmp/perf-<pid>.map) from
the symbol tables of the objects in Numba's cache (every function Numba keeps is there, at the
address the JIT loaded it). Needs ``perf`` and ``pyelftools`` (``pip install pyelftools``); a
function compiled in this run without a cache entry stays unnamed.

With ``--calls FUNCTION`` it looks inside one compiled function instead: the share of its own samples
that fall on the machine code of its calls (pushing arguments, the call, restoring the stack; a
Numba call passes every array field by field, seven or nine words each), and its samples grouped
by the call each precedes. It disassembles the function from the Numba cache's object (``objdump``)
whose instructions the samples' addresses hit.

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


def cached_objects():
    """The object code (ELF bytes) of every entry in Numba's cache."""
    for path in glob.glob(os.path.join(os.environ["NUMBA_CACHE_DIR"], "**", "*.nbc"), recursive=True):
        raw = open(path, "rb").read()
        start = raw.find(b"\x7fELF")  # the object code inside Numba's pickled cache entry
        if start >= 0:
            yield raw[start:]


def write_perf_map() -> int:
    """/tmp/perf-<pid>.map: every function in the Numba cache's objects at its loaded address."""
    from elftools.elf.elffile import ELFFile
    from numba.core.registry import cpu_target

    engine = cpu_target.target_context.codegen()._engine._ee
    rows = set()
    for elf in cached_objects():
        symbols = ELFFile(io.BytesIO(elf)).get_section_by_name(".symtab")
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


CALL_OVERHEAD = re.compile(r"(push|call|pop)\b|(add|sub)\s+\$0x[0-9a-f]+,%rsp")  # a call's own instructions


def machine_code(symbol: str, offsets: set[int]) -> list[tuple[int, str, str]] | None:
    """``symbol``'s instructions (offset, text, the callee a call reaches or ""), from the object in
    Numba's cache that holds the copy the JIT loaded: the one whose instruction starts the sampled
    offsets hit (a compiled caller links a copy of each callee into its own object)."""
    for elf in cached_objects():
        if symbol.encode() not in elf:
            continue
        with tempfile.NamedTemporaryFile(suffix=".o") as obj:
            obj.write(elf)
            obj.flush()
            listing = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", f"--disassemble={symbol}", obj.name],
                                     capture_output=True, text=True).stdout
        code, callee, start = [], "", None
        for line in listing.splitlines():
            found = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
            if not found:
                continue
            address, text = int(found.group(1), 16), found.group(2).strip()
            if text.startswith("R_X86_64"):  # the relocation of the instruction above: what it loads
                target = text.split()[-1].split("+")[0]
                callee = callee if target.startswith(".") else readable(target)  # a section: a constant
                continue
            start = address if start is None else start
            code.append((address - start, text, callee if text.startswith("call") else ""))
        if code and sum(1 for offset, _, _ in code if offset in offsets) >= 0.9 * len(offsets):
            return code
    return None


def calls_report(data: str, name: str) -> None:
    """The ``--calls`` report of compiled function ``name`` from the samples in ``data``."""
    import balance  # noqa: F401  (NUMBA_CACHE_DIR, as the child saw it)

    script = subprocess.run(["perf", "script", "-i", data, "-F", "pid,ip,sym"], capture_output=True, text=True,
                            check=True, stdin=subprocess.DEVNULL).stdout
    samples: dict[int, int] = {}
    symbol, total, pid = None, 0, None
    for line in script.split("\n"):
        parts = line.split()
        if len(parts) < 3:
            continue
        pid, total = parts[0], total + 1
        if readable(parts[2]) == name or readable(parts[2]).endswith("." + name):
            symbol = parts[2]
            samples[int(parts[1], 16)] = samples.get(int(parts[1], 16), 0) + 1
    if symbol is None:
        sys.exit(f"--calls: no samples in a compiled function named {name}")
    loaded = next(int(address, 16) for address, _, mapped in map(str.split, open(f"/tmp/perf-{pid}.map"))
                  if mapped == symbol)
    offsets = {ip - loaded: count for ip, count in samples.items()}
    code = machine_code(symbol, set(offsets))
    if code is None:
        sys.exit(f"--calls: {name}'s machine code is not in Numba's cache")
    own = sum(offsets.values())
    text = {offset: instruction for offset, instruction, _ in code}
    overhead = sum(count for offset, count in offsets.items() if CALL_OVERHEAD.match(text.get(offset, "")))
    print(f"{readable(symbol)}: {own / total:.1%} of the samples; {overhead / own:.1%} of its own on its calls' "
          f"instructions (pushes, calls, stack adjustments)")
    by_callee: dict[str, int] = {}
    calls = [(offset, callee) for offset, instruction, callee in code if instruction.startswith("call")]
    for offset, count in offsets.items():
        following = next((callee for at, callee in calls if at >= offset), "(no call after it)")
        by_callee[following] = by_callee.get(following, 0) + count
    for callee, count in sorted(by_callee.items(), key=lambda kv: -kv[1]):
        print(f"{count / own:6.1%}  before the call to {callee or '(an indirect call)'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--setup", type=int, default=0, help="index into the game's bench setups (balance bench)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--calls", metavar="FUNCTION", help="where this compiled function's own time goes: its "
                                                            "calls' share, by the call each sample precedes")
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
        if args.calls:
            calls_report(data, args.calls)
            return
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
