"""``balance check --skill``: a scenario's claims read against stronger players (issue 28 item 3)."""

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from balance.engine.scenario import Claim, load_scenario
from balance.studies.skill import (CONVERGED, MOVES, UNDECIDED_READING, evaluate, margin_of, rung_setups,
                                   undecided_text)
from tests.engine.test_cli import SMALL, invoke, write

# Three rungs whose truth is known: the greedy mirror of Take the Throne (3 players) is one fixed
# game (seat 0 always wins: no spread), the heuristic spreads the wins over the seats, random and
# heuristic tables keep the throne about as often (both about 17 points under half).
RUNGS = """
[skill]
rungs = [{name = "random", seats = "random"}, {name = "heuristic", seats = "heuristic"}, {name = "greedy", seats = "greedy"}]
"""


def test_the_default_rungs_are_the_games_strongest_above_the_scenarios_players(tmp_path):
    heuristic = load_scenario(write(tmp_path, SMALL))
    tree = ["tree search, 256 iterations", "tree search, 1024 iterations"]
    assert [m.name for m, _ in rung_setups(heuristic)][1:] == tree
    random = load_scenario(write(tmp_path, SMALL.replace('seats = "heuristic"', 'seats = "random"')))
    names = [m.name for m, s in rung_setups(random)]
    assert names[0] == "the scenario's players (random)" and names[1:] == tree  # at most the two strongest
    setups = [s for _, s in rung_setups(random)]
    assert [s.seats[0].policy.name for s in setups] == ["random", "ismcts-256", "ismcts-1024"]
    assert all(len({seat.policy.name for seat in s.seats}) == 1 for s in setups)


def test_a_scenario_of_the_strongest_players_has_no_rung_above(tmp_path):
    top = write(tmp_path, SMALL.replace('seats = "heuristic"', 'seats = "ismcts-1024"'))
    code, text = invoke("check", "--skill", top)
    assert code == 2 and len(text.strip().splitlines()) == 1 and str(top) in text and " seats:" in text


def test_the_margin_is_a_share_of_the_tolerance_or_of_the_target():
    fair = Claim("fair", "", "win_rate", target=0.333, tolerance=0.3)
    assert margin_of(fair, 1 / 3) == pytest.approx(0.1)
    assert margin_of(replace(fair, tolerance=0.0, compare="at_most"), 0.5) == pytest.approx(0.1665)
    assert margin_of(replace(fair, tolerance=0.0, target=0.0, compare="at_most"), 1.0) is None


def test_skill_reads_a_claim_that_moves_and_one_that_converged(tmp_path):
    scenario = load_scenario(write(tmp_path, SMALL + RUNGS))
    study = evaluate(scenario, games=300)
    assert [m.name for m in study.rungs] == ["the scenario's players (heuristic)", "random", "heuristic", "greedy"]
    readings = {r["claim"]: r for r in study.readings.to_dict("records")}
    # greedy against heuristic: seat 0 wins every greedy game, about a third of the heuristic ones
    fair = readings["fair"]
    assert fair["reading"] == MOVES and fair["largest_group"] == "0" and fair["difference"] > 0.5
    # every rung plays the same deals (common random numbers)
    deals = [set(r.games["deal"]) for r in study.results.values()]
    assert all(d == deals[0] for d in deals) and len(deals[0]) == 300
    comparisons = study.comparisons[study.comparisons["claim"] == "fair"]
    assert list(comparisons["group"]) == ["0", "1", "2"] and (comparisons["stronger"] == "greedy").all()
    assert (comparisons["low"] <= comparisons["estimate"]).all() and (comparisons["estimate"] <= comparisons["high"]).all()


def test_skill_converges_when_the_two_strongest_rungs_agree(tmp_path):
    # random against heuristic in the 3-player core game keep the throne about as often
    text = SMALL.replace("seats = \"heuristic\"", "seats = \"greedy\"") + """
[skill]
rungs = [{name = "random", seats = "random"}, {name = "heuristic", seats = "heuristic"}]

[[claims]]
id = "retention"
quantity = "monarch_retention"
target = 0.5
tolerance = 0.1
"""
    study = evaluate(load_scenario(write(tmp_path, text)), games=400)
    readings = {r["claim"]: r for r in study.readings.to_dict("records")}
    assert readings["retention"]["reading"] == CONVERGED and readings["retention"]["verdict"] == "fails"
    assert readings["retention"]["verdicts"][-2:] == ["fails", "fails"]


def test_check_skill_json_is_the_same_from_the_same_seed_whatever_the_threads(tmp_path):
    scenario = write(tmp_path, SMALL + RUNGS)
    one = invoke("check", "--skill", scenario, "--games", 200, "--json", "--threads", 1)
    two = invoke("check", "--skill", scenario, "--games", 200, "--json", "--threads", 2)
    assert one[0] == two[0] == 0 and one[1] == two[1]
    [report] = json.loads(one[1])
    assert [r["name"] for r in report["rungs"]][1:] == ["random", "heuristic", "greedy"]
    assert {r["reading"] for r in report["readings"]} <= {CONVERGED, MOVES, "undecided"}
    assert report["margin_share"] == pytest.approx(1 / 3)


def test_check_skill_text_says_which_way_skill_pushes_a_claim(tmp_path):
    code, text = invoke("check", "--skill", write(tmp_path, SMALL + RUNGS), "--games", 300)
    assert code == 0
    assert "MOVES WITH SKILL: stronger players push it up by" in text and "(seat 0)" in text
    assert "they agree within 1/3 of a claim's tolerance" in text


BAD = [
    ("unknown_key", '[skill]\nlevels = 3', "skill.levels"),
    ("share", '[skill]\nmargin_share = 0', "skill.margin_share"),
    ("rung_policy", '[skill]\nrungs = [{name = "a", seats = "wizard"}]', "skill.rungs[0].seats"),
    ("rung_param", '[skill]\nrungs = [{name = "a", seats = "search", params = {rollouts = -1}}]',
     "skill.rungs[0].params.rollouts"),
    ("duplicate", '[skill]\nrungs = [{name = "a", seats = "random"}, {name = "a", seats = "greedy"}]',
     "skill.rungs[1].name"),
]


@pytest.mark.parametrize("name, table, key", BAD, ids=[b[0] for b in BAD])
def test_a_bad_skill_table_is_one_line_naming_file_and_key(tmp_path, name, table, key):
    scenario = write(tmp_path, f"{SMALL}\n{table}\n")
    code, text = invoke("check", "--skill", scenario)
    lines = text.strip().splitlines()
    assert code == 2 and len(lines) == 1 and str(scenario) in lines[0] and f" {key}:" in lines[0], lines


def test_robust_and_skill_together_are_refused(tmp_path):
    code, text = invoke("check", "--skill", "--robust", write(tmp_path, SMALL))
    assert code == 2 and "--skill" in text and len(text.strip().splitlines()) == 1


def test_report_skill_writes_each_claims_reading_and_a_strip_per_claim(tmp_path):
    out = tmp_path / "skill.html"
    code, text = invoke("report", "--skill", write(tmp_path, SMALL + RUNGS), "-n", 300, "-o", out)
    assert code == 0, text
    html = out.read_text()
    assert "moves with skill" in html and "stronger players push it up by" in html
    assert html.index("Findings") < html.index("Readings")
    strips = sorted(p.name for p in (tmp_path / "skill_files").glob("*.png"))
    assert [name for name in strips if name.endswith(("_fair.png", "_game_length.png"))], strips


def test_report_skill_refuses_a_study_folder(tmp_path):
    scenario = write(tmp_path, SMALL)
    folder = tmp_path / "study"
    assert invoke("run", scenario, "--out", folder, "-n", 30)[0] == 0
    code, text = invoke("report", "--skill", folder, "-o", tmp_path / "r.html")
    assert code == 2 and "--skill" in text and len(text.strip().splitlines()) == 1


def test_a_table_already_at_the_strongest_rung_says_so(tmp_path):
    # every seat plays the game's strongest rung and the scenario names no [skill] rungs of its own:
    # there is no stronger player to read its claims with
    committed = Path(__file__).parents[2] / "scenarios" / "dethroned" / "dethroned.toml"
    text = committed.read_text(encoding="utf-8")
    assert "[skill]" not in text and '\nseats = "heuristic"\n' in text
    scenario = tmp_path / "dethroned.toml"
    scenario.write_text(text.replace('\nseats = "heuristic"\n', '\nseats = "ismcts-1024"\n'), encoding="utf-8")
    code, text = invoke("check", "--skill", scenario)
    assert code == 2 and "strongest skill rung of dethroned (tree search, 1024 iterations)" in text
    assert len(text.strip().splitlines()) == 1


def test_an_undecided_reading_says_what_every_rung_agrees_on():
    """DETHRONED's role claim fails with heuristic players and with the tree search at 256 and 1024
    iterations in every seat; the two strongest rungs are not shown to agree, and its finding must
    still say that the claim fails at every rung rather than only "undecided"."""
    assert undecided_text({"verdicts": ["fails", "fails", "fails"]}) == (
        f"{UNDECIDED_READING}; it fails at every rung played")
    assert undecided_text({"verdicts": ["holds", "holds"]}).endswith("it holds at every rung played")
    assert undecided_text({"verdicts": ["fails", "holds", "fails"]}) == UNDECIDED_READING
    assert undecided_text({"verdicts": ["undecided", "undecided"]}) == UNDECIDED_READING


def test_a_reports_findings_say_each_claims_skill_reading(tmp_path):
    scenario = write(tmp_path, SMALL + RUNGS)
    assert invoke("report", "--skill", scenario, "-n", 300, "-o", tmp_path / "skill.html")[0] == 0
    readings = json.loads((tmp_path / "skill.json").read_text())
    assert [r["claim"] for r in readings[0]["readings"]] == ["fair", "game_length"]
    out = tmp_path / "report.html"
    code, text = invoke("report", scenario, "-n", 300, "--skill-readings", tmp_path / "skill.json", "-o", out)
    assert code == 0, text
    findings = out.read_text().split('id="findings"')[1].split("</div>")[0]
    fair = findings.split("<li>")[1]
    assert "Against stronger players: <span" in fair and "moves with skill" in fair
    assert "random, heuristic and greedy in every seat, 300 games a rung" in fair
    assert "stronger players push it up by" in fair
    assert "Against stronger players: **moves with skill** (random, heuristic and greedy" in out.with_suffix(
        ".md").read_text()


def test_skill_readings_of_another_or_a_changed_scenario_are_refused(tmp_path):
    scenario = write(tmp_path, SMALL + RUNGS)
    readings = tmp_path / "skill.json"
    readings.write_text(invoke("check", "--skill", scenario, "-n", 200, "--json")[1])
    other = write(tmp_path, SMALL, name="other.toml")
    out = tmp_path / "report.html"
    code, text = invoke("report", other, "-n", 30, "--skill-readings", readings, "-o", out)
    assert code == 2 and len(text.strip().splitlines()) == 1 and f"{readings}: {scenario} is not a scenario" in text
    scenario.write_text((SMALL + RUNGS).replace("players = 3", "players = 4"))
    code, text = invoke("report", scenario, "-n", 30, "--skill-readings", readings, "-o", out)
    assert code == 2 and "changed since its skill study (players)" in text and len(text.strip().splitlines()) == 1
    readings.write_text('{"rows": []}')
    code, text = invoke("report", scenario, "-n", 30, "--skill-readings", readings, "-o", out)
    assert code == 2 and f"--skill-readings: {readings}: expected the JSON" in text
    assert not out.exists()


def test_an_interrupted_skill_study_kept_under_out_resumes_and_reads_as_one_run(tmp_path):
    from balance.engine.runner import Tracker
    from tests.engine.test_ladder import StopAfter

    scenario = load_scenario(write(tmp_path, SMALL + RUNGS))
    # 4 rungs of 300 games in parts of 100, every rung's first part first: stopped in the second rung's second part
    with pytest.raises(KeyboardInterrupt):
        evaluate(scenario, 300, StopAfter(700), tmp_path / "kept")
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == [
        "0-the-scenario-s-players-heuristic", "1-random", "2-heuristic", "3-greedy"]
    played = []

    class Counting(Tracker):
        def advance(self, n):
            played.append(n)

    resumed = evaluate(scenario, 300, Counting(), tmp_path / "kept")
    assert sum(played) == 4 * 300 - 600  # whole parts: the one in play when stopped is played again
    fresh = evaluate(scenario, 300)
    pd.testing.assert_frame_equal(resumed.readings, fresh.readings)
    pd.testing.assert_frame_equal(resumed.comparisons, fresh.comparisons)


def test_check_skill_out_keeps_the_rungs_and_reads_them_back(tmp_path):
    scenario = write(tmp_path, SMALL + RUNGS)
    args = ["check", "--skill", scenario, "-n", 200, "--json", "--out", tmp_path / "kept"]
    code, first = invoke(*args)
    assert code == 0 and len(list((tmp_path / "kept" / "study").iterdir())) == 4
    assert invoke(*args) == (0, first)
    assert invoke("check", "--skill", scenario, "-n", 200, "--json") == (0, first)  # as played in memory
    code, text = invoke("check", scenario, "--out", tmp_path / "kept")
    assert code == 2 and len(text.strip().splitlines()) == 1 and "--out" in text


def test_a_reports_findings_end_with_the_findings_of_the_pages_it_is_told_to_see(tmp_path):
    scenario = write(tmp_path, SMALL)
    (tmp_path / "pages").mkdir()
    sweep = tmp_path / "pages" / "decks.html"
    sweep.write_text('<html><head><title>sweep: a game: the decks</title><meta name="description" '
                     'content="12 cells: 3 change a claim&#39;s verdict."></head><body></body></html>')
    out = tmp_path / "report" / "report.html"
    code, text = invoke("report", scenario, "-n", 30, "--see", sweep, "-o", out)
    assert code == 0, text
    findings = out.read_text().split('id="findings"')[1].split("</div>")[0]
    assert findings.split("<li>")[-1].startswith(
        '<a href="../pages/decks.html">Sweep: a game: the decks</a>: 12 cells: 3 change a claim&#39;s verdict.')
    restricted = tmp_path / "pages" / "restrict.html"
    restricted.write_text('<html><head><title>a game, 4 players: restricted play</title><meta name="description" '
                          'content="Restricted play: important: Defend."></head><body></body></html>')
    assert invoke("report", scenario, "-n", 30, "--see", restricted, "-o", out)[0] == 0
    assert "A game, 4 players: restricted play</a>: important: Defend.</li>" in out.read_text()  # said once
    code, text = invoke("report", scenario, "-n", 30, "--see", tmp_path / "nothing.html", "-o", tmp_path / "r.html")
    assert code == 2 and len(text.strip().splitlines()) == 1 and "--see" in text and not (tmp_path / "r.html").exists()
