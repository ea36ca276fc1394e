"""Study folders: resumed, extended, interrupted, damaged or shared studies end with the results of
one uninterrupted run, or the command refuses in one line."""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import balance.engine.runner as runner_module
from balance.cli import app
from balance.engine.runner import LOCK, MANIFEST, PARTS, RESULTS, simulate
from balance.engine.scenario import load_scenario

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]

STUDY = """
game = "take_the_throne"
mode = "core"
players = 3
seed = 5
games = 600
seats = "random"

[[claims]]
id = "fair"
quantity = "win_rate"
by = "seat"
target = 0.333
tolerance = 0.3
"""


def write(tmp_path, text=STUDY, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def invoke(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def uninterrupted(scenario: Path, games: int, seed: int = 5) -> pd.DataFrame:
    return simulate(load_scenario(scenario).setup, seed, games).games


def results_of(folder: Path) -> pd.DataFrame:
    return pd.read_parquet(folder / RESULTS)


def part_bytes(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted((folder / PARTS).glob("*.parquet"))}


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def test_more_games_extend_the_study_playing_only_the_missing_games(tmp_path):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 300, "--chunk", 120)[0] == 0
    before = part_bytes(out)
    code, text = invoke("run", scenario, "--out", out, "--games", 600, "--chunk", 120)
    assert code == 0, text
    after = part_bytes(out)
    assert all(after[name] == data for name, data in before.items())  # kept parts untouched
    assert json.loads((out / MANIFEST).read_text())["parts"][-1]["end"] == 600
    assert results_of(out).equals(uninterrupted(scenario, 600))
    assert "300 games kept" in text


def test_fewer_games_than_the_folder_holds_are_refused(tmp_path):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 600)[0] == 0
    before = part_bytes(out), results_of(out)
    code, text = invoke("run", scenario, "--out", out, "--games", 300)
    assert code == 2
    assert "holds 600 games of this study, more than the 300 asked" in one_line(text)
    assert part_bytes(out) == before[0] and results_of(out).equals(before[1])


def test_a_parameter_changed_in_its_seventh_significant_digit_is_another_study(tmp_path):
    def with_temperature(value):
        seats = (f'[[seats]]\npolicy = "heuristic"\nparams = {{ temperature = {value} }}\n'
                 '[[seats]]\npolicy = "random"\n[[seats]]\npolicy = "random"')
        return STUDY.replace('seats = "random"', seats)

    out = tmp_path / "run"
    assert invoke("run", write(tmp_path, with_temperature(7), "a.toml"), "--out", out, "--games", 60)[0] == 0
    code, text = invoke("run", write(tmp_path, with_temperature(7.000001), "b.toml"), "--out", out, "--games", 120)
    assert code == 2
    assert "seats[0].params.temperature: 7.000001 here, 7.0 in the folder" in one_line(text)


@pytest.mark.parametrize("flag, value, named", [("--seed", 6, "seed 6 here, 5 in the folder"),
                                                ("--chunk", 150, "--chunk 150 here, 600 in the folder")])
def test_another_seed_or_chunk_is_refused_naming_it(tmp_path, flag, value, named):
    scenario, out = write(tmp_path), tmp_path / "run"
    flags = {"--games": 60, "--seed": 5, "--chunk": 600}
    assert invoke("run", scenario, "--out", out, *[x for item in flags.items() for x in item])[0] == 0
    flags[flag] = value
    code, text = invoke("run", scenario, "--out", out, *[x for item in flags.items() for x in item])
    assert code == 2 and named in one_line(text)


def test_a_truncated_or_missing_part_is_recomputed_and_reported(tmp_path):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--chunk", 150)[0] == 0
    parts = sorted((out / PARTS).glob("*.parquet"))
    parts[1].write_bytes(parts[1].read_bytes()[:200])  # truncated
    parts[2].write_bytes(b"\0" * parts[2].stat().st_size)  # same size, corrupt
    parts[3].unlink()  # missing
    (out / RESULTS).unlink()
    code, text = invoke("run", scenario, "--out", out, "--chunk", 150)
    assert code == 0, text
    notes = [line for line in text.splitlines() if "recomputed games" in line]
    assert len(notes) == 3 and str(parts[1]) in notes[0] and "truncated or corrupt" in notes[0]
    assert "missing" in notes[2]
    assert results_of(out).equals(uninterrupted(scenario, 600))


def test_an_unreadable_manifest_is_refused_in_one_line(tmp_path):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 60)[0] == 0
    (out / MANIFEST).write_text('{"format": 2, "ke')
    code, text = invoke("run", scenario, "--out", out, "--games", 60)
    assert code == 2 and "manifest.json: not readable" in one_line(text)


def test_a_live_lock_refuses_naming_folder_and_holder_and_a_stale_lock_is_recovered(tmp_path):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 60)[0] == 0
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / LOCK).write_text(str(holder.pid))
        code, text = invoke("run", scenario, "--out", out, "--games", 120)
        assert code == 2 and f"{out}: in use by another run (process {holder.pid}" in one_line(text)
    finally:
        holder.kill()
        holder.wait()
    code, text = invoke("run", scenario, "--out", out, "--games", 120)  # its holder is dead now
    assert code == 0, text
    assert not (out / LOCK).exists()
    assert results_of(out).equals(uninterrupted(scenario, 120))


def interrupt_the_third_kernel_call(monkeypatch):
    """Ctrl-C in the third kernel call (two parts of 150 games saved by then)."""
    real = runner_module.simulate_frame
    calls = []

    def interrupted_on_the_third_call(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runner_module, "simulate_frame", interrupted_on_the_third_call)
    return real


def test_ctrl_c_says_what_was_kept_and_the_command_that_resumes(tmp_path, monkeypatch):
    scenario, out = write(tmp_path), tmp_path / "run"
    real = interrupt_the_third_kernel_call(monkeypatch)
    code, text = invoke("run", scenario, "--out", out, "--chunk", 150)
    assert code == 130
    line = one_line(text)
    assert line.startswith(f"interrupted: 300 games kept in {out}; resume with: balance run {out}"), line
    assert not (out / LOCK).exists()
    monkeypatch.setattr(runner_module, "simulate_frame", real)
    code, text = invoke(*line.split("resume with: balance ")[1].split())
    assert code == 0, text
    assert results_of(out).equals(uninterrupted(scenario, 600))


def test_an_interrupted_study_resumes_from_its_folder_alone_with_its_seed_chunk_and_size(tmp_path, monkeypatch):
    scenario, out = write(tmp_path), tmp_path / "run"
    real = interrupt_the_third_kernel_call(monkeypatch)
    assert invoke("run", scenario, "--out", out, "--chunk", 150, "--seed", 9, "--games", 450)[0] == 130
    monkeypatch.setattr(runner_module, "simulate_frame", real)
    scenario.unlink()  # the folder alone
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, text = invoke("run", out)
    assert code == 0, text
    manifest = json.loads((out / MANIFEST).read_text())
    assert (manifest["seed"], manifest["chunk"], manifest["games"]) == (9, 150, 450)
    write(tmp_path / "elsewhere")
    assert results_of(out).equals(uninterrupted(tmp_path / "elsewhere" / "study.toml", 450, seed=9))
    code, text = invoke("run", out, "--games", 600)  # extended from the folder too
    assert code == 0 and len(results_of(out)) == 600, text


@pytest.mark.parametrize("flags, named", [(["--seed", 6], "--seed 5"), (["--chunk", 300], "--chunk 150"),
                                          (["--out", "another"], "--out")])
def test_resuming_a_folder_refuses_another_seed_chunk_or_out_naming_the_flag(tmp_path, monkeypatch, flags, named):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--chunk", 150, "--games", 150)[0] == 0
    monkeypatch.chdir(tmp_path)
    before = sorted((p, p.stat().st_mtime_ns) for p in tmp_path.rglob("*"))
    code, text = invoke("run", out, *flags)
    lines = text.strip().splitlines()
    assert code == 2 and len(lines) == 1 and named in lines[0] and str(out) in lines[0], text
    assert sorted((p, p.stat().st_mtime_ns) for p in tmp_path.rglob("*")) == before


def test_a_folder_that_holds_no_study_is_refused_as_a_scenario(tmp_path):
    (tmp_path / "empty").mkdir()
    code, text = invoke("run", tmp_path / "empty")
    assert code == 2 and "not a study folder" in text and len(text.strip().splitlines()) == 1, text


def test_ctrl_c_shows_no_done_line_before_what_was_kept(tmp_path, monkeypatch):
    import balance.cli as cli_module

    scenario, out = write(tmp_path), tmp_path / "run"
    interrupt_the_third_kernel_call(monkeypatch)
    monkeypatch.setattr(cli_module, "SHOW_AFTER", -1.0)  # progress lines from the first call on
    code, text = invoke("run", scenario, "--out", out, "--chunk", 150)
    assert code == 130
    lines = text.strip().splitlines()
    assert lines[0].startswith(f"{scenario.stem}: "), text  # the progress line was shown
    assert lines[-1].startswith("interrupted: 300 games kept"), text
    assert not any("done," in line for line in lines), text


def test_run_honours_precision_like_check(tmp_path):
    text = STUDY.replace("games = 600", "precision = { half_width = 0.2, max_games = 30000, batch = 300 }")
    scenario, out = write(tmp_path, text), tmp_path / "run"
    result = runner.invoke(app, ["check", str(scenario), "--json"])
    checked = json.loads(result.stdout)[0]
    assert invoke("run", scenario, "--out", out)[0] == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == checked["games"] < 30000
    assert results_of(out).equals(uninterrupted(scenario, summary["games"]))


def test_progress_goes_to_stderr_and_json_to_stdout(tmp_path, monkeypatch):
    import balance.cli as cli

    monkeypatch.setattr(cli, "SHOW_AFTER", 0.0)
    monkeypatch.setattr(cli, "LINE_SECONDS", 0.0)
    result = runner.invoke(app, ["run", str(write(tmp_path)), "--out", str(tmp_path / "run"), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["games"] == 600
    assert re.search(r"study: \d[\d,]*/600 games, \d+:\d\d left", result.stderr)
    assert "study: done, 600 games" in result.stderr.splitlines()[-1]


def test_replay_takes_seed_and_scenario_from_a_study_folder(tmp_path):
    scenario, out = write(tmp_path), tmp_path / "run"
    assert invoke("run", scenario, "--out", out, "--games", 60, "--seed", 77)[0] == 0
    code, from_folder = invoke("replay", out, "--game", 59)
    assert code == 0
    assert from_folder == invoke("replay", scenario, "--game", 59, "--seed", 77)[1]
    assert from_folder != invoke("replay", scenario, "--game", 59)[1]
    code, text = invoke("replay", out, "--game", 60)
    assert code == 2 and "--game: the study has games 0 to 59; got 60" in one_line(text)


# ---- real processes: killed at random points, and two at once ----------------------------------
KILL_STUDY = STUDY.replace("games = 600", "games = 24000")


def cli_process(*args) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "balance.cli", *map(str, args)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_runs_killed_at_random_points_resume_to_the_uninterrupted_result(tmp_path):
    scenario, out = write(tmp_path, KILL_STUDY), tmp_path / "run"
    rng = random.Random(8)
    for _ in range(4):
        process = cli_process("run", scenario, "--out", out, "--chunk", 1500, "--threads", 1)
        time.sleep(rng.uniform(1.0, 5.0))
        process.send_signal(rng.choice([signal.SIGKILL, signal.SIGINT]))
        _, err = process.communicate()
        assert process.returncode in (0, 130, -signal.SIGKILL, -signal.SIGINT), err
    process = cli_process("run", scenario, "--out", out, "--chunk", 1500)
    _, err = process.communicate()
    assert process.returncode == 0, err
    assert results_of(out).equals(uninterrupted(scenario, 24000))


def test_two_concurrent_runs_one_refused_or_both_agree(tmp_path):
    scenario, out = write(tmp_path, KILL_STUDY), tmp_path / "run"
    first = cli_process("run", scenario, "--out", out, "--chunk", 1500, "--threads", 1)
    deadline = time.monotonic() + 60
    while not (out / LOCK).exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    second = cli_process("run", scenario, "--out", out, "--chunk", 1500, "--threads", 1)
    _, err_first = first.communicate()
    _, err_second = second.communicate()
    assert first.returncode == 0, err_first
    if second.returncode != 0:
        assert second.returncode == 2
        assert f"{out}: in use by another run (process {first.pid}" in one_line(err_second)
    assert results_of(out).equals(uninterrupted(scenario, 24000))
