"""What-if sweeps: grids and cell lists parsed and validated before anything plays, common random
numbers (a cell equal to the baseline differs by exactly 0), multiplicity over every cell
(Benjamini-Hochberg or Holm), the tidy table and the report written and readable, resumable
cells, and sweep files over several scenarios (as DETHRONED's sensitivity study)."""

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.engine.runner import load_results, simulate
from balance.engine.scenario import load_scenario, scenario_files
from balance.stats import estimate_rate, evaluate_claims
import balance.studies.sweep as sweep_module
from balance.studies.sweep import (SweepError, apply_changes, folder_name, grid_figures, inert_cells, paired_difference,
                                   parse_vary, play_sweep, plan_sweep, sweep_table, write_sweep_report, write_table)

runner = CliRunner()

STUDY = """
title = "sweep test"
game = "take_the_throne"
mode = "core"
players = 3
seed = 5
games = 300
seats = "heuristic"

[[claims]]
id = "fair"
quantity = "win_rate"
by = "seat"
target = 0.333
tolerance = 0.1

[[claims]]
id = "length"
quantity = "game_length"
target = 9
tolerance = 3
"""


def write(tmp_path, text=STUDY, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_vary_values_are_read_as_toml():
    assert parse_vary("options.take_back_pays=true,false") == ("options.take_back_pays", [True, False])
    assert parse_vary("players=3,4,5") == ("players", [3, 4, 5])
    assert parse_vary("seats.params.temperature=0.5,2") == ("seats.params.temperature", [0.5, 2])
    assert parse_vary("options.symbols=art,default") == ("options.symbols", ["art", "default"])
    assert parse_vary('roles=["King", "Fool"],["Sage", "Fool"]') == ("roles", [["King", "Fool"], ["Sage", "Fool"]])
    with pytest.raises(SweepError, match="--vary"):
        parse_vary("players")


def test_seat_keys_change_every_seat_or_one():
    data = {"game": "take_the_throne", "players": 3, "seats": "heuristic"}
    every = apply_changes(data, {"seats.params.temperature": 0.5}, "--vary")
    assert every["seats"] == [{"policy": "heuristic", "params": {"temperature": 0.5}}] * 3
    one = apply_changes(data, {"seats[2].policy": "random"}, "--vary")
    assert [s["policy"] for s in one["seats"]] == ["heuristic", "heuristic", "random"]
    assert data == {"game": "take_the_throne", "players": 3, "seats": "heuristic"}  # the scenario itself is untouched
    default = apply_changes({"game": "take_the_throne", "players": 3}, {"seats[0].params.temperature": 2}, "--vary")
    assert [s["policy"] for s in default["seats"]] == ["random"] * 3  # no seats: the game's first policy


def test_a_grid_of_two_keys_has_every_combination_and_the_baseline(tmp_path):
    plan = plan_sweep(write(tmp_path), ["options.take_back_pays=true,false", "players=3,4"])
    assert [c.label for c in plan.cells] == [
        "baseline", "options.take_back_pays=true, players=3", "options.take_back_pays=true, players=4",
        "options.take_back_pays=false, players=3", "options.take_back_pays=false, players=4"]
    assert [c.deal_changed for c in plan.cells] == [False, True, True, True, True]
    assert plan.cells[2].scenario.setup.players == 4 and not plan.cells[3].scenario.setup.options["take_back_pays"]


def test_a_cell_list_changes_one_thing_at_a_time(tmp_path):
    text = STUDY + """
[sweep]
cells = [{ label = "no take-back VP", "options.take_back_pays" = false },
         { label = "random seat 0", "seats[0].policy" = "random" }]
"""
    plan = plan_sweep(write(tmp_path, text), [])
    assert [(c.label, c.changes) for c in plan.cells] == [
        ("baseline", {}), ("no take-back VP", {"options.take_back_pays": False}),
        ("random seat 0", {"seats[0].policy": "random"})]
    assert [s.policy.name for s in plan.cells[2].scenario.setup.seats] == ["random", "heuristic", "heuristic"]


def test_a_cell_equal_to_the_baseline_differs_by_exactly_zero_and_is_played_once(tmp_path):
    plan = plan_sweep(write(tmp_path), ["options.take_back_pays=true,false"])  # true is the default
    results = play_sweep(plan, 300, None, tmp_path / "out")
    assert results[0] is results[1]
    assert sorted(p.name for p in (tmp_path / "out" / "study").iterdir()) == ["baseline",
                                                                             "options.take_back_pays=false"]
    table = sweep_table(plan, results)
    same = table[table["cell"] == "options.take_back_pays=true"]
    assert (same["difference"] == 0).all() and (same["difference_low"] == 0).all()
    other = table[table["cell"] == "options.take_back_pays=false"]
    base = table[table["baseline"]]
    # the paired difference is the difference of the two estimates, with an interval around it
    assert np.allclose(other["difference"].to_numpy(), other["estimate"].to_numpy() - base["estimate"].to_numpy())
    assert (other["difference_low"] <= other["difference"]).all() and (other["difference"] <= other["difference_high"]).all()
    # a cell that cannot move any game (here: the default itself) is named in the report's findings
    assert inert_cells(table) == ["options.take_back_pays=true"]
    html, _, _ = write_sweep_report(plan, table, tmp_path / "sweep.html", "bh")
    findings = html.read_text(encoding="utf-8").split('id="findings"')[1].split("</ul>")[0]
    assert "options.take_back_pays=true: every game identical to the baseline" in findings
    assert "options.take_back_pays=false:" not in findings


def test_paired_differences_use_the_pairing_of_the_deals():
    """Two cells that share most deals: the paired interval is far narrower than the unpaired one."""
    rng = np.random.default_rng(3)
    deals = np.arange(2_000)
    base_wins = rng.random(2_000) < 0.5
    cell_wins = np.where(rng.random(2_000) < 0.1, ~base_wins, base_wins)  # 10% of deals change outcome
    frame = lambda wins: pd.DataFrame({"num": wins.astype(float), "den": 1.0}, index=deals)  # noqa: E731
    d, low, high = paired_difference(frame(cell_wins), frame(base_wins))
    assert d == pytest.approx(cell_wins.mean() - base_wins.mean())
    unpaired = 2 * 1.96 * np.sqrt(2 * 0.25 / 2_000)
    assert high - low < unpaired / 2
    assert low < d < high


def test_benjamini_hochberg_is_never_stricter_than_holm_and_the_family_spans_every_cell(tmp_path):
    plan = plan_sweep(write(tmp_path), ["seats.params.temperature=0.5,1,2"])
    results = play_sweep(plan, 300, None, tmp_path / "out")
    bh, hm = sweep_table(plan, results, "bh"), sweep_table(plan, results, "holm")
    for column in ("p_holds_adjusted", "p_fails_adjusted"):
        assert (bh[column] <= hm[column] + 1e-12).all()
    assert (bh["p_holds_adjusted"] < hm["p_holds_adjusted"] - 1e-9).any()
    assert (bh["verdict"] == "holds").sum() >= (hm["verdict"] == "holds").sum()
    # the baseline alone (one study, Holm over its own claims) is adjusted over a smaller family
    alone, _ = evaluate_claims(results[0], plan.cells[0].scenario.claims)
    swept = hm[hm["baseline"]].reset_index(drop=True)
    assert (swept["p_holds_adjusted"] >= alone["p_holds_adjusted"] - 1e-12).all()
    assert (swept["p_holds_adjusted"] > alone["p_holds_adjusted"] + 1e-9).any()


def test_outputs_are_written_and_read_back(tmp_path):
    plan = plan_sweep(write(tmp_path), ["seats.params.temperature=0.5,2", "options.take_back_pays=true,false"])
    table = sweep_table(plan, play_sweep(plan, 300, None, tmp_path / "out"))
    parquet, csv = write_table(table, tmp_path / "out")
    pd.testing.assert_frame_equal(pd.read_parquet(parquet), table)
    assert len(pd.read_csv(csv)) == len(table)
    html, md, csv_beside = write_sweep_report(plan, table, tmp_path / "report.html", "bh")
    assert "What-if sweep" in html.read_text() and "Estimates by cell" in md.read_text()
    assert len(pd.read_csv(csv_beside)) == len(table)
    assert sorted(p.name for p in (tmp_path / "report_files").iterdir()) == ["study-fair.png", "study-length.png"]


def test_every_cell_folder_stands_on_its_own_as_a_study(tmp_path):
    plan = plan_sweep(write(tmp_path), ["seats.params.temperature=0.5,2"])
    results = play_sweep(plan, 300, None, tmp_path / "out")
    for i, cell in enumerate(plan.cells):
        folder = tmp_path / "out" / folder_name(cell.base) / folder_name(cell.label)
        scenario, again = load_results(folder)
        assert scenario.title == cell.scenario.title
        assert scenario.setup.describe() == cell.scenario.setup.describe()  # the cell's temperature
        pd.testing.assert_frame_equal(again.games, results[i].games)


def test_one_key_sweep_from_the_command_line_and_resumed(tmp_path):
    scenario = write(tmp_path)
    args = ["sweep", str(scenario), "--vary", "seats.params.temperature=0.5,2", "-n", "300", "--out",
            str(tmp_path / "out"), "-o", str(tmp_path / "r.html"), "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    table = pd.DataFrame(json.loads(first.stdout)["table"])
    assert set(table["cell"]) == {"baseline", "seats.params.temperature=0.5", "seats.params.temperature=2"}
    assert set(table["seats.params.temperature"]) == {"1", "0.5", "2"}
    parts = sorted((tmp_path / "out").rglob("games-*.parquet"))
    stamps = [p.stat().st_mtime_ns for p in parts]
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert [p.stat().st_mtime_ns for p in parts] == stamps  # every cell kept, nothing played again
    assert json.loads(again.stdout)["table"] == json.loads(first.stdout)["table"]
    assert (tmp_path / "r.csv").exists() and (tmp_path / "r.md").exists()


DET = """
game = "dethroned"
players = 3
seed = 4
games = 60
rotate = false
seats = "heuristic"
roles = {roles}

[[claims]]
id = "roles"
quantity = "win_rate"
by = "role"
target = 0.5
tolerance = 0.1
"""


def test_a_sweep_file_sweeps_several_scenarios_and_folders_skip_it(tmp_path, monkeypatch):
    write(tmp_path, DET.format(roles='["Fool", "King", "Assassin"]'), "a.toml")
    write(tmp_path, DET.format(roles='["King", "Assassin", "Sage"]'), "b.toml")
    sweep_file = write(tmp_path, """
title = "sensitivity"
[sweep]
scenarios = ["*.toml"]
cells = [{ label = "art symbols", "options.symbols" = "art" }, { label = "random play", "seats.policy" = "random" }]
""", "sensitivity.toml")
    assert scenario_files([tmp_path]) == [tmp_path / "a.toml", tmp_path / "b.toml"]
    plan = plan_sweep(sweep_file, [])
    assert [(c.base, c.label) for c in plan.cells] == [
        ("a", "baseline"), ("a", "art symbols"), ("a", "random play"),
        ("b", "baseline"), ("b", "art symbols"), ("b", "random play")]
    table = sweep_table(plan, play_sweep(plan, None, None, tmp_path / "out"))
    assert set(table["scenario"]) == {"a", "b"}
    # each scenario's cells are compared with that scenario's own baseline, role by role
    a = table[(table["scenario"] == "a") & (table["cell"] == "random play")].set_index("group")
    a0 = table[(table["scenario"] == "a") & table["baseline"]].set_index("group")
    assert np.allclose(a["difference"], a["estimate"] - a0["estimate"])
    # the claim in the baseline cell is estimated as balance check does
    res = simulate(load_scenario(tmp_path / "a.toml").setup, 4, 60)
    fool = res.seats[res.seats["role"] == "Fool"]
    assert a0.loc["Fool", "estimate"] == estimate_rate(fool["won"].to_numpy(), fool["deal"].to_numpy()).estimate
    # few scenarios: a figure per scenario and claim; many: one per claim, how far each cell moves it
    assert [name for name, _, _ in grid_figures(plan, table)] == ["a-roles.png", "b-roles.png"]
    monkeypatch.setattr(sweep_module, "MAX_SCENARIO_FIGURES", 1)
    (name, png, caption), = grid_figures(plan, table)
    assert name == "roles-moves.png" and png.startswith(b"\x89PNG") and "largest (bar)" in caption
    # a table of more cell columns than a page holds is left to the CSV
    page = write_sweep_report(plan, table, tmp_path / "wide.html", "bh")[1].read_text()
    assert "| a | roles |" in page
    monkeypatch.setattr(sweep_module, "MAX_CELL_COLUMNS", 2)
    page = write_sweep_report(plan, table, tmp_path / "narrow.html", "bh")[1].read_text()
    assert "| a | roles |" not in page and "estimates of the 3 cells" in page and "narrow.csv" in page
