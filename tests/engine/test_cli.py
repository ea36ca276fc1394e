"""The command line end to end, bad input included (one line naming file and key, exit 2)."""

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from balance.cli import app

runner = CliRunner()

SMALL = """
game = "take_the_throne"
mode = "core"
players = 3
seed = 5
games = 600
seats = "heuristic"

[[claims]]
id = "fair"
quantity = "win_rate"
by = "seat"
target = 0.333
tolerance = 0.3

[[claims]]
quantity = "game_length"
target = 8
tolerance = 6
"""


def write(tmp_path, text, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def invoke(*args):
    """Exit status and output: stdout alone under --json (progress goes to stderr), else both."""
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout if "--json" in args else result.output


def test_games_lists_every_option_and_policy():
    code, out = invoke("games", "--json")
    assert code == 0
    ttt = next(g for g in json.loads(out) if g["game"] == "take_the_throne")
    assert {o["name"] for o in ttt["options"]} >= {"feint_from_discard", "ambush_on_view", "contest_order"}
    assert {p["name"] for p in ttt["policies"]} >= {"random", "greedy", "heuristic"}
    assert {m["name"] for m in ttt["modes"]} == {"core", "mirror", "asymmetric", "custom", "two_player"}


def test_check_prints_claims_with_intervals_and_verdicts(tmp_path):
    code, out = invoke("check", write(tmp_path, SMALL), "--games", 400, "--json")
    assert code == 0
    [report] = json.loads(out)
    rows = report["claims"]
    assert [r["group"] for r in rows if r["claim"] == "fair"] == ["0", "1", "2"]
    for r in rows:
        assert r["low"] <= r["estimate"] <= r["high"] and r["verdict"] in ("holds", "fails", "undecided")
    assert report["games"] == 400  # identical players: each deal played once (no rotation needed)


def test_check_strict_exits_non_zero_when_a_claim_fails(tmp_path):
    failing = SMALL.replace("tolerance = 6", "tolerance = 0.1").replace("target = 8", "target = 40")
    code, out = invoke("check", write(tmp_path, failing), "--strict")
    assert code == 1 and "fails" in out


def test_check_strict_exits_non_zero_when_only_a_fact_of_the_setup_fails(tmp_path):
    # A Foolish Hunt has 2 Assailants of 3 roles: "half Assailant roles" is a fixed fact, and false
    only_the_fact = """
game = "dethroned"
players = 3
seed = 3
games = 40
rotate = false
seats = "random"
roles = ["Maniac", "Fool", "King"]

[[claims]]
id = "assailants_half"
text = "Setups generally have half Assailant roles"
quantity = "assailant_share"
target = 0.5
tolerance = 0.1
"""
    code, out = invoke("check", write(tmp_path, only_the_fact), "--strict")
    assert code == 1 and "fails" in out
    code, _ = invoke("check", write(tmp_path, only_the_fact.replace("tolerance = 0.1", "tolerance = 0.2")), "--strict")
    assert code == 0


def test_sequential_check_stops_when_decided(tmp_path):
    text = SMALL.replace("games = 600", "precision = { half_width = 0.2, max_games = 50000, batch = 300 }")
    code, out = invoke("check", write(tmp_path, text), "--json")
    assert code == 0
    assert json.loads(out)[0]["games"] < 50000


def test_run_writes_parquet_and_summary_and_resumes(tmp_path):
    scenario = write(tmp_path, SMALL)
    out = tmp_path / "run"
    code, text = invoke("run", scenario, "--out", out, "--chunk", 150)
    assert code == 0, text
    full = pd.read_parquet(out / "results.parquet")
    summary = json.loads((out / "summary.json").read_text())
    assert len(full) == 600 and summary["games"] == 600
    parts = sorted((out / "parts").glob("*.parquet"))
    assert len(parts) == 4
    parts[2].unlink()  # an interrupted run: one part missing
    (out / "results.parquet").unlink()
    code, _ = invoke("run", scenario, "--out", out, "--chunk", 150)
    assert code == 0
    assert pd.read_parquet(out / "results.parquet").equals(full)


def test_run_refuses_a_folder_of_another_study(tmp_path):
    scenario = write(tmp_path, SMALL)
    out = tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 30)[0] == 0
    code, text = invoke("run", scenario, "--out", out, "--games", 30, "--seed", 9)
    assert code == 2 and "another study: seed 9 here, 5 in the folder" in text


def test_report_writes_html_and_markdown_with_plots(tmp_path):
    scenario = write(tmp_path, SMALL)
    code, out = invoke("report", scenario, "-o", tmp_path / "rep" / "report.html", "--games", 300)
    assert code == 0, out
    html = (tmp_path / "rep" / "report.html").read_text()
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "data:image/png;base64" in html and "seed" in html and "heuristic" in html
    assert "![study: rates]" in md and (tmp_path / "rep" / "report_files" / "take_the_throne-study_rates.png").exists()


def test_report_from_a_run_folder(tmp_path):
    scenario = write(tmp_path, SMALL)
    out = tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 60)[0] == 0
    code, text = invoke("report", out, "-o", tmp_path / "r.html")
    assert code == 0, text
    assert "60" in (tmp_path / "r.md").read_text()


def test_replay_prints_the_batch_game(tmp_path):
    code, out = invoke("replay", write(tmp_path, SMALL), "--game", 4)
    assert code == 0
    assert out.startswith("Round 1: seat 0") and "VP after the round" in out


def test_bench_reports_rates(tmp_path):
    code, out = invoke("bench", "--game", "take_the_throne", "--seconds", 0.05, "--json")
    assert code == 0
    rows = json.loads(out)
    assert rows[0]["setup"] == "core 4p heuristic" and rows[0]["per_minute"] > 0
    # the last row: the tree search's decisions, timed one by one at its default budget
    search = rows[-1]
    assert search["setup"] == "core 4p tree search (256 iterations), decisions" and search["unit"] == "decisions"
    assert search["count"] >= 1 and search["seconds"] >= 0.05 and search["per_second"] > 0


def test_matrix(tmp_path):
    code, out = invoke("matrix", "take_the_throne", "--mode", "two_player", "--players", 2,
                       "--policies", "random,heuristic", "--games", 300, "--json")
    assert code == 0
    cells = {(r["row"], r["column"]): r for r in json.loads(out)}
    assert cells[("heuristic", "random")]["win_rate"] > cells[("random", "heuristic")]["win_rate"]
    code, text = invoke("matrix", "take_the_throne", "--mode", "two_player", "--players", 2,
                        "--policies", "random,heuristic", "--games", 300)
    assert code == 0 and "Take the Throne, mode two_player, 2 players" in text, text
    assert f"{cells[('heuristic', 'random')]['win_rate']:.3f}" in text


def test_matrix_json_names_the_mode_and_players_it_defaulted_to():
    code, out = invoke("matrix", "take_the_throne", "--policies", "random", "--games", 30, "--json")
    assert code == 0
    assert {(r["mode"], r["players"]) for r in json.loads(out)} == {("core", 3)}


BAD = [
    ("unknown_key", "playerz = 3\n" + SMALL, "playerz"),
    ("wrong_type", SMALL.replace("players = 3", 'players = "three"'), "players"),
    ("impossible_count", SMALL.replace("players = 3", "players = 7"), "players"),
    ("unknown_policy", SMALL.replace('seats = "heuristic"', 'seats = "wizard"'), "seats[0].policy"),
    ("unknown_option", SMALL + "\n[options]\nfeint_from_discrad = true\n", "options.feint_from_discrad"),
    ("bad_choice", SMALL + '\n[options]\ncontest_order = "abd"\n', "options.contest_order"),
    ("unknown_card", SMALL.replace('mode = "core"', 'mode = "custom"') +
     '\n[options]\nhouse_cards = ["attack", "charge", "feint", "infiltrate", "dragon"]\n', "options.house_cards"),
    ("unknown_game", SMALL.replace('"take_the_throne"', '"chess"'), "game"),
    ("unknown_quantity", SMALL.replace('quantity = "game_length"', 'quantity = "fun"'), "claims[1].quantity"),
    ("bad_param", SMALL.replace('seats = "heuristic"', '[[seats]]\npolicy = "heuristic"\nparams = { temperature = -1 }\n'
                                                       '[[seats]]\npolicy = "random"\n[[seats]]\npolicy = "random"'),
     "seats[0].params.temperature"),
    ("not_toml", "game = = 3", "-"),
]


@pytest.mark.parametrize("name, text, key", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_naming_file_and_key(tmp_path, name, text, key):
    scenario = write(tmp_path, text)
    out = tmp_path / "out"
    for command in (["run", scenario, "--out", out], ["check", scenario]):
        code, text_out = invoke(*command)
        assert code == 2
        lines = text_out.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in text_out
        assert str(scenario) in lines[0] and f": {key}:" in lines[0]
        assert not out.exists()  # nothing half-written


def test_missing_file_and_bad_game_index(tmp_path):
    code, out = invoke("check", tmp_path / "nope.toml")
    assert code == 2 and "no such scenario file" in out
    code, out = invoke("replay", write(tmp_path, SMALL), "--game", -1)
    assert code == 2 and "--game" in out


def test_version_prints_the_package_version():
    import balance

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"balance {balance.__version__}\n"


def test_help_texts_show_their_brackets_literally():
    """Help texts are rich markup, where "[sweep]" would be a tag and vanish: every bracketed word
    of a command's help (escaped as \\[ in the source) must reach `--help`, on a wide terminal."""
    import re

    import typer

    group = typer.main.get_command(app)
    shown = {}
    for name, command in group.commands.items():
        result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "250", "TERMINAL_WIDTH": "250"})
        assert result.exit_code == 0
        shown[name] = result.output
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        for text in texts:
            for word in re.findall(r"\\?\[[^\]\s]+\]", text):
                assert word.lstrip("\\") in result.output, (name, word)
    assert "[robustness]" in shown["check"]
    assert "[sweep]" in shown["sweep"] and "[precision]" in shown["sweep"] and "seats[i]" in shown["sweep"]


def test_tune_without_optuna_names_the_extra(tmp_path, monkeypatch):
    """optuna is the `tune` extra: without it, one line naming the extra, exit 2, nothing played."""
    monkeypatch.setitem(__import__("sys").modules, "optuna", None)  # `import optuna` now fails
    scenario = write(tmp_path, SMALL)
    result = runner.invoke(app, ["tune", str(scenario), "--target", "fair:0", "--vary", "max_length=1..12"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["error: balance tune needs optuna: pip install 'balance[tune]'"]


@pytest.fixture(scope="module")
def empty_cluster():
    """A real Dask scheduler that no worker ever joins."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0")
    yield cluster.scheduler_address
    cluster.close()


@pytest.mark.parametrize("command", [["run", "{s}", "--out", "{out}"], ["check", "{s}"],
                                     ["report", "{s}", "-o", "{out}/report.html"],
                                     ["sweep", "{s}", "--vary", "players=3,4", "--out", "{out}"],
                                     ["tune", "{s}", "--target", "fair:0", "--vary", "max_length=1..8"]],
                         ids=["run", "check", "report", "sweep", "tune"])
def test_a_cluster_without_workers_is_waited_for_then_refused_writing_nothing(tmp_path, monkeypatch, empty_cluster,
                                                                               command):
    if command[0] == "tune":
        pytest.importorskip("optuna")
    monkeypatch.chdir(tmp_path)
    scenario, out = write(tmp_path, SMALL), tmp_path / "out"
    args = [a.format(s=scenario, out=out) for a in command] + ["--scheduler", empty_cluster, "--worker-wait", "0.5"]
    before = sorted(tmp_path.rglob("*"))
    code, text = invoke(*args)
    lines = text.strip().splitlines()
    assert code == 2 and "Traceback" not in text, text
    assert len(lines) == 2, text
    assert lines[0] == f"waiting up to 0.5 s for a worker to join the Dask scheduler at {empty_cluster} (--worker-wait)"
    assert lines[1].startswith("error: --scheduler: no worker joined") and "--worker-wait" in lines[1], text
    assert sorted(tmp_path.rglob("*")) == before  # no folder, no lock, no report


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "soon"])
def test_a_bad_worker_wait_is_one_line_naming_the_flag(tmp_path, value):
    code, text = invoke("check", write(tmp_path, SMALL), "--worker-wait", value)
    assert code == 2 and len(text.strip().splitlines()) == 1 and "--worker-wait" in text, text
