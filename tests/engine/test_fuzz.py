"""Property-based fuzzing (hypothesis): generated scenario files (wrong types, unknown keys,
out-of-range numbers, broken TOML, bad UTF-8, bad paths) and command lines for every command.
Whatever the input, a command exits 0 or 1 with its results, or 2 with one line and nothing
written; never a traceback. Examples are few and derandomized: the same cases on every run, fast
enough for CI."""

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from balance.cli import app

runner = CliRunner()
FUZZ = settings(max_examples=12, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
GAMES = "6"  # every valid command plays a handful of games

BASE = {"game": "take_the_throne", "mode": "core", "players": 3, "seed": 5, "games": 6, "seats": "random",
        "claims": [{"id": "fair", "quantity": "win_rate", "by": "seat", "target": 0.333, "tolerance": 0.3}]}
TDL = {"game": "thron_der_luegen", "players": 4, "seed": 6, "games": 4, "seats": "random",
       "options": {"deck": "default"}}

# keys a scenario may hold (and some it may not), where a generated value goes
KEYS = ["game", "mode", "players", "seed", "games", "rotate", "max_length", "min_deals", "title", "seats",
        "options", "options.feint_from_discard", "options.contest_order", "precision", "precision.batch",
        "precision.max_games", "precision.half_width", "claims", "claims[0].target", "claims[0].tolerance",
        "claims[0].compare", "claims[0].by", "claims[0].where", "claims[0].quantity", "robustness", "sweep",
        "seats[0]", "colour", "options.nonsense", "claims[0].weight"]
NUMBERS = st.one_of(st.integers(-10, 10), st.sampled_from([0, -1, 2**63, -(2**63) - 1, 10**30]),
                    st.floats(allow_nan=True, allow_infinity=True, width=64))
TEXTS = st.one_of(st.sampled_from(["", "core", "random", "seat", "about", "at_most", "heuristic", "win_rate"]),
                  st.text(max_size=8))
VALUES = st.recursive(st.one_of(NUMBERS, TEXTS, st.booleans()),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(TEXTS, inner, max_size=3)), max_leaves=6)
PATHS = st.one_of(st.sampled_from(["", ".", "..", "/", "/dev/null", "nope.toml", "decks/none.toml", "a\nb.toml",
                                   "caf\u00e9.toml", "x" * 300, "/proc/self/mem", "\x1b[31m.toml"]),
                  st.text(max_size=12))


def put(table: dict, key: str, value):
    """``table`` with the dotted key (``claims[0].target``) set to ``value``, made where missing."""
    *parents, last = key.replace("[0]", ".0").split(".")
    node = table
    for name in parents:
        child = node[int(name)] if isinstance(node, list) and name.isdigit() else node.get(name) \
            if isinstance(node, dict) else None
        if not isinstance(child, (dict, list)) or (isinstance(child, list) and not child):
            child = {}
            if isinstance(node, list):
                node[int(name)] = child
            else:
                node[name] = child
        node = child
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def clean(value):
    """TOML has no null and its keys are strings: what tomli_w can write."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean(v) for v in value]
    return value


@st.composite
def scenario_bytes(draw) -> bytes:
    kind = draw(st.sampled_from(["table", "table", "table", "deck", "broken", "bytes"]))
    if kind == "broken":
        return draw(st.text(max_size=60)).encode("utf-8", "surrogatepass")
    if kind == "bytes":
        return draw(st.binary(max_size=80))
    table = clean(dict(TDL if kind == "deck" else BASE))
    table["claims"] = [dict(c) for c in table.get("claims", [])]
    table["options"] = dict(table.get("options", {}))
    if kind == "deck":
        table["options"]["deck"] = draw(PATHS)
    for _ in range(draw(st.integers(1, 3))):
        put(table, draw(st.sampled_from(KEYS)), clean(draw(VALUES)))
    try:
        return tomli_w.dumps(table).encode()
    except (TypeError, ValueError):  # a value TOML cannot hold (mixed-type arrays are fine, None not)
        return tomli_w.dumps(clean(dict(BASE))).encode() + b"\ncolour = 1\n"


def snapshot(folder: Path) -> list:
    return sorted((p.relative_to(folder), p.stat().st_size if p.is_file() else None) for p in folder.rglob("*"))


@contextmanager
def workdir():
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            yield Path(tmp)
        finally:
            os.chdir(here)


def assert_clean_outcome(args: list[str], folder: Path) -> None:
    """Exit 0/1 with output, or exit 2 with one line and nothing written; never a traceback."""
    before = snapshot(folder)
    result = runner.invoke(app, args)
    text = result.output
    assert "Traceback" not in text, (args, text)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, text)
    if result.exit_code == 2:
        lines = text.strip().splitlines()
        assert len(lines) == 1 and lines[0], (args, text)
        assert snapshot(folder) == before, (args, text)
    else:
        assert text.strip(), args


@FUZZ
@given(content=scenario_bytes(), command=st.sampled_from(["check", "run"]))
def test_generated_scenario_files_are_played_or_refused_in_one_line(content, command):
    with workdir() as folder:
        (folder / "study.toml").write_bytes(content)
        args = [command, "study.toml", "--games", GAMES] + (["--out", "out"] if command == "run" else [])
        assert_clean_outcome(args, folder)


FLAG_VALUES = st.one_of(st.sampled_from(["0", "-1", "1", "nan", "inf", "x", "", str(2**63), "1e3", "3,4"]),
                        st.text(max_size=6))
SOURCES = st.sampled_from(["study.toml", "nope.toml", "empty", ".", "notes.txt", "study", "caf\u00e9\n.toml"])
POLICIES = st.sampled_from(["random", "random,greedy", "wizard", "", ",", "random,random"])
# per command: its positional arguments, the flags that keep it small, and flags to vary
COMMANDS = {
    "check": (st.lists(SOURCES, min_size=1, max_size=2), ["--games", GAMES],
              ["--seed", "--threads", "--executor", "--worker-wait", "--games"]),
    "run": (st.lists(SOURCES, min_size=1, max_size=1), ["--games", GAMES],
            ["--seed", "--chunk", "--out", "--threads", "--executor", "--worker-wait", "--games"]),
    "report": (st.lists(SOURCES, min_size=1, max_size=2), ["--games", GAMES, "-o", "r.html"],
               ["--seed", "-o", "--matrix", "--threads", "--worker-wait"]),
    "replay": (st.lists(SOURCES, min_size=1, max_size=1), ["--game", "0"], ["--game", "--seed"]),
    "sweep": (st.lists(SOURCES, min_size=1, max_size=1), ["--games", GAMES, "--vary", "players=3,4"],
              ["--vary", "--adjust", "--seed", "--out", "-o", "--chunk", "--worker-wait"]),
    "tune": (st.lists(SOURCES, min_size=1, max_size=1), ["--games", GAMES, "--trials", "1", "--target", "fair:0",
                                                          "--vary", "max_length=1..8"],
             ["--target", "--vary", "--trials", "--seed"]),
    "matrix": (st.just(["take_the_throne"]), ["--policies", "random", "-n", GAMES],
               ["--policies", "--mode", "--players", "--seed", "--scenario"]),
    "ladder": (st.just(["take_the_throne"]), ["-n", GAMES, "--rungs", "random,greedy"],
               ["--rungs", "--mode", "--players", "--seed", "--scenario", "-o"]),
    "restrict": (st.lists(SOURCES, min_size=1, max_size=1), ["-n", GAMES], ["--margin", "--seed", "-o"]),
    "bench": (st.just([]), ["--game", "imaginary"], ["--seconds", "--threads", "--game"]),
    "games": (st.just([]), [], ["--json"]),
}


@st.composite
def command_lines(draw) -> list[str]:
    name = draw(st.sampled_from(sorted(COMMANDS)))
    positional, small, flags = COMMANDS[name]
    args = [name, *draw(positional), *small]
    for flag in draw(st.lists(st.sampled_from(flags), max_size=3)):
        value = draw(POLICIES) if flag in ("--policies", "--rungs") else draw(st.one_of(FLAG_VALUES, SOURCES))
        args += [flag] if flag == "--json" else [flag, value]
    return args


@FUZZ
@given(args=command_lines())
def test_generated_command_lines_run_or_are_refused_in_one_line(args):
    with workdir() as folder:
        (folder / "study.toml").write_text(tomli_w.dumps(BASE))
        (folder / "notes.txt").write_text("not a scenario")
        (folder / "empty").mkdir()
        runner.invoke(app, ["run", "study.toml", "--out", "study", "--games", GAMES])  # a study folder
        assert_clean_outcome(args, folder)
