"""A study folder stands on its own: every file its setup reads (a Thron der Lügen deck file) is
copied into it and keyed by content, paths in a scenario resolve against the scenario's folder,
and replay, report and resume work from the folder alone, from any working directory, refusing in
one line naming the file when an original changed."""

import json
import shutil

import pandas as pd
from typer.testing import CliRunner

from balance.cli import app
from balance.engine.runner import FILES, MANIFEST

runner = CliRunner()

DECK = """
name = "winter"
description = "every Fae card a Winter 4, every intrigue a throne swap"

[[cards]]
people = "Winter"
value = 4
copies = 23

[[intrigues]]
effect = "swap_thrones"
copies = 5
"""

STUDY = """
game = "thron_der_luegen"
players = 4
seed = 6
games = 8
seats = "random"

[options]
deck = "decks/winter.toml"

[[claims]]
id = "fair"
quantity = "round_points_edge"
by = "position"
target = 0
tolerance = 3
"""


def invoke(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def make_study(tmp_path):
    """A scenario beside its deck (tmp/scenarios/study.toml, tmp/scenarios/decks/winter.toml) and a
    working directory elsewhere (tmp/work)."""
    (tmp_path / "scenarios" / "decks").mkdir(parents=True)
    (tmp_path / "work").mkdir()
    (tmp_path / "scenarios" / "decks" / "winter.toml").write_text(DECK)
    scenario = tmp_path / "scenarios" / "study.toml"
    scenario.write_text(STUDY)
    return scenario, tmp_path / "scenarios" / "decks" / "winter.toml"


def files_under(folder):
    return sorted((p.relative_to(folder), p.read_bytes() if p.is_file() else None) for p in folder.rglob("*"))


def one_line(code, text):
    lines = text.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


def test_a_deck_path_resolves_against_the_scenario_folder_and_is_kept_in_the_study(tmp_path, monkeypatch):
    scenario, deck = make_study(tmp_path)
    monkeypatch.chdir(tmp_path / "work")  # neither the scenario's folder nor the deck's
    code, text = invoke("run", "../scenarios/study.toml", "--out", "study")
    assert code == 0, text
    manifest = json.loads((tmp_path / "work" / "study" / MANIFEST).read_text())
    copy = tmp_path / "work" / "study" / manifest["copies"]["options.deck"]
    assert copy.read_bytes() == deck.read_bytes()
    assert copy.parent.parent.name == FILES and "files" in manifest["study"]
    assert "winter" in invoke("replay", "study", "--game", 0)[1]


def test_replay_and_report_work_from_the_folder_alone_after_the_original_deck_changed(tmp_path, monkeypatch):
    scenario, deck = make_study(tmp_path)
    monkeypatch.chdir(tmp_path / "work")
    assert invoke("run", scenario, "--out", "study")[0] == 0
    code, before = invoke("replay", "study", "--game", 3)
    assert code == 0, before
    deck.write_text(DECK.replace("value = 4", "value = 6"))  # the deck the issue saw replayed as "Winter 6"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, after = invoke("replay", tmp_path / "work" / "study", "--game", 3)
    assert code == 0 and after == before, after
    assert "Winter 6" not in after
    code, text = invoke("report", tmp_path / "work" / "study", "-o", "report.html")
    assert code == 0 and (tmp_path / "elsewhere" / "report.html").exists(), text


def test_resuming_with_a_changed_deck_file_is_refused_naming_the_file(tmp_path, monkeypatch):
    scenario, deck = make_study(tmp_path)
    monkeypatch.chdir(tmp_path / "work")
    assert invoke("run", scenario, "--out", "study")[0] == 0
    deck.write_text(DECK.replace("value = 4", "value = 6"))
    before = files_under(tmp_path)
    line = one_line(*invoke("run", scenario, "--out", "study", "--games", 16))
    assert "options.deck: the file" in line and str(deck) in line and "study was run with" in line, line
    assert "kernel" not in line and "[" not in line.split("options.deck")[1], line
    assert files_under(tmp_path) == before


def test_a_study_folder_whose_copy_was_edited_is_refused_by_replay_and_report(tmp_path, monkeypatch):
    scenario, deck = make_study(tmp_path)
    monkeypatch.chdir(tmp_path / "work")
    assert invoke("run", scenario, "--out", "study")[0] == 0
    manifest = json.loads((tmp_path / "work" / "study" / MANIFEST).read_text())
    copy = tmp_path / "work" / "study" / manifest["copies"]["options.deck"]
    copy.write_text(DECK.replace("value = 4", "value = 6"))
    for command in (["replay", "study", "--game", 3], ["report", "study", "-o", "r.html"]):
        line = one_line(*invoke(*command))
        assert "study" in line and "options.deck" in line and "changed after its run" in line, line
    assert not (tmp_path / "work" / "r.html").exists()


def test_a_package_deck_is_kept_too_and_the_same_study_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scenario = tmp_path / "study.toml"
    scenario.write_text(STUDY.replace('"decks/winter.toml"', '"default"'))
    assert invoke("run", scenario, "--out", "study")[0] == 0
    assert (tmp_path / "study" / FILES / "options.deck" / "default.toml").exists()
    code, text = invoke("run", scenario, "--out", "study", "--games", 16)
    assert code == 0 and "kept from an earlier run" in text, text


def test_a_study_is_extended_from_its_folder_alone_after_the_scenario_and_deck_are_gone(tmp_path, monkeypatch):
    scenario, deck = make_study(tmp_path)
    monkeypatch.chdir(tmp_path / "work")
    assert invoke("run", scenario, "--out", "straight", "--games", 16)[0] == 0
    assert invoke("run", scenario, "--out", "study")[0] == 0
    shutil.rmtree(tmp_path / "scenarios")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, text = invoke("run", tmp_path / "work" / "study", "--games", 16)
    assert code == 0, text
    played = pd.read_parquet(tmp_path / "work" / "study" / "results.parquet")
    assert played.equals(pd.read_parquet(tmp_path / "work" / "straight" / "results.parquet"))
