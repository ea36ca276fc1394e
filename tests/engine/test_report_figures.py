"""No text of a report figure runs into another: every figure the report code draws for small real
studies of every game, their sweeps and a policy matrix is drawn, and no two of its tick labels,
titles, axis labels and legend texts overlap (each Text's window extent, at the size the page shows
it). Tiny game counts: these tests check the drawing, not the games."""

import itertools
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
from matplotlib.text import Text  # noqa: E402

import balance.report as report_module  # noqa: E402
from balance.cli import summary_of  # noqa: E402
from balance.engine.runner import round_to_deals, simulate  # noqa: E402
from balance.engine.scenario import load_scenario  # noqa: E402
from balance.studies.sweep import play_sweep, plan_sweep, sweep_table, write_sweep_report  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STUDIES = {  # game -> (scenarios, games each): every kind of panel the report draws, on few games
    "take_the_throne": (["core_4p", "two_player"], 60),
    "imposter_kings": (["first_player_2p", "true_king_choice_2p"], 12),
    "dethroned": (["crowd_control", "the_royal_family"], 40),
    "throne_arcade": (["2p", "4p", "catch_up_4p"], 24),
    "thron_der_luegen": (["3p", "6p"], 12),
}
# Two labels closer than this run together to the eye ("24.0%25.5%"): their boxes, grown by half of it
# on every side, overlap.
GAP_PIXELS = 3.0


def texts(fig) -> list[Text]:
    """The figure's tick labels (of the ticks inside their axis's view: a locator's ticks beyond it
    are not drawn), titles, axis labels and legend texts that show something (the numbers written
    inside heatmap cells and beside bars are the data's, not labels)."""
    ticks, drawn = set(), []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            slack = (high - low) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                ticks |= {tick.label1, tick.label2}
                if low - slack <= tick.get_loc() <= high + slack:
                    drawn += [tick.label1, tick.label2]
    inside = {t for ax in fig.axes for t in ax.texts}
    others = [t for t in fig.findobj(Text) if t not in ticks and t not in inside]
    return [t for t in drawn + others if t.get_visible() and t.get_text().strip() and t.get_alpha() != 0]


def overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of text elements whose drawn boxes overlap or come closer than GAP_PIXELS."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    shown = texts(fig)
    boxes = [t.get_window_extent(renderer).expanded(1, 1).padded(GAP_PIXELS / 2) for t in shown]
    found = []
    for (a, box_a), (b, box_b) in itertools.combinations(zip(shown, boxes), 2):
        dx = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        dy = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        if dx > 0 and dy > 0:
            found.append((a.get_text(), b.get_text()))
    return found


@pytest.fixture
def drawn(monkeypatch):
    """Every figure the report code encodes (report._png), with the texts that overlap in it."""
    figures = []
    encode = report_module._png

    def check(fig):
        figures.append((fig.axes[0].get_title(loc="left") or fig.axes[0].get_title() or "figure", overlaps(fig)))
        return encode(fig)

    monkeypatch.setattr(report_module, "_png", check)
    return figures


def played(game: str, names: list[str], games: int):
    out = []
    for name in names:
        scenario = load_scenario(ROOT / "scenarios" / game / f"{name}.toml")
        results = simulate(scenario.setup, scenario.seed, round_to_deals(games, scenario.setup.rotations))
        out.append((scenario, results, summary_of(scenario, results)))
    return out


def assert_no_overlap(figures) -> None:
    assert figures
    bad = {title: pairs[:3] for title, pairs in figures if pairs}
    assert not bad, bad


@pytest.mark.parametrize("game", list(STUDIES))
def test_no_text_of_a_report_figure_overlaps_another(game, drawn, tmp_path):
    names, games = STUDIES[game]
    matrix = pd.DataFrame([{"game": game, "mode": "core", "players": 4, "row": a, "column": b, "win_rate": 0.31,
                            "low": 0.2456, "high": 0.3789, "games": 400}
                           for a in ("random", "greedy", "heuristic") for b in ("random", "greedy", "heuristic")])
    report_module.write_report(played(game, names, games), tmp_path / "report.html", [matrix])
    assert_no_overlap(drawn)


SWEEP = """
title = "sweep figures"
game = "take_the_throne"
mode = "core"
players = 3
seed = 5
games = 30
seats = "heuristic"

[[claims]]
id = "fair"
quantity = "win_rate"
by = "seat"
target = 0.333
tolerance = 0.1
"""


@pytest.mark.parametrize("sweep", [
    ["seats.params.temperature=0.25,0.5,1,2,4,8,16,32"],  # one key: a line plot
    ["seats.params.temperature=0.5,2", "options.take_back_pays=true,false"],  # two keys: heatmaps
])
def test_no_text_of_a_sweep_figure_overlaps_another(sweep, drawn, tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(SWEEP)
    plan = plan_sweep(path, sweep)
    table = sweep_table(plan, play_sweep(plan, None, None, tmp_path / "out"))
    write_sweep_report(plan, table, tmp_path / "sweep.html", "bh")
    assert_no_overlap(drawn)


@pytest.mark.parametrize("low, high", [(0.2456, 0.2890), (0.25, 0.45), (-0.0312, 0.0471), (1_000.0, 1_000_000.0)])
def test_the_ticks_of_a_narrow_dot_panel_fit_it_whatever_the_range(low, high, drawn):
    """Throne Arcade's rates panels, squeezed beside long group names, ran their labels together
    ("0.2560.2640.2720.2800.288")."""
    def dots(name):
        return [report_module.Dot(name.format(i), v, v - 0.01, v + 0.01) for i, v in enumerate(np.linspace(low, high, 5))]

    panels = [(f"panel {i}", dots(name), (-np.inf, np.inf), unit) for i, (name, unit) in enumerate(
        [("started_round1 {} - did not start round 1", ""), ("lost_round1 {} - got out of round 1 (did not lose it)", "%"),
         ("seat {}", "points"), ("started_round1 {} - did not start round 1", "")])]
    report_module._panel_grid(panels, columns=2)
    assert_no_overlap(drawn)


def test_a_narrow_strip_panel_over_a_short_range_gives_a_scale(drawn, monkeypatch):
    """Thron der Lügen's robustness strips (three panels a row, a band of +/-0.35 round points)
    labelled one tick, "0.0", on each panel: no scale to read a distance from the band by."""
    labels = []  # the ticks labelled on each panel's x axis
    encode = report_module._png

    def keep(fig):
        fig.canvas.draw()
        for ax in fig.axes:
            low, high = ax.get_xlim()
            labels.append([tick for tick in ax.get_xticks() if low <= tick <= high])
        return encode(fig)

    monkeypatch.setattr(report_module, "_png", keep)
    members = ["random", "heuristic, no stone chances (lone, lowest and pair bonus 0)", "search (16 rollouts)"]
    panels = [(f"seat {g}", [report_module.Dot(m, 0.05 * i - 0.05, 0.05 * i - 0.2, 0.05 * i + 0.1, "holds",
                                               (-0.35, 0.35), 0.0) for i, m in enumerate(members)],
               (-np.inf, np.inf), "") for g in range(4)]
    report_module._panel_grid(panels, columns=3, shared_x=True, shared_rows=True, heading="round points")
    assert len(labels) == 4 and all(len(ticks) >= 2 for ticks in labels), labels
    assert_no_overlap(drawn)


@pytest.mark.parametrize("inches", [0.8, 1.0, 1.2, 1.4, 1.6, 2.0])
def test_a_share_axis_reads_its_ticks_exactly(inches):
    """Throne Arcade's rates panels, narrow, on 2.5-point steps labelled the tick at 32.5% "33%" (the
    decimals sized by the step): every label reads its tick."""
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(inches + 0.4, 1.0))
    ax = fig.add_axes([0.2 / (inches + 0.4), 0.3, inches / (inches + 0.4), 0.6])
    ax.set_xlim(0.315, 0.385)
    report_module.value_axis(ax.xaxis, "%")
    fig.canvas.draw()
    shown = [(tick * 100, float(label.get_text().rstrip("%").replace("\u2212", "-")))
             for tick, label in zip(ax.get_xticks(), ax.xaxis.get_majorticklabels()) if 0.315 <= tick <= 0.385]
    plt.close(fig)
    assert shown and all(abs(tick - number) < 1e-6 for tick, number in shown), shown


def test_the_cells_and_column_names_of_a_seven_rung_matrix_fit_them(drawn, monkeypatch):
    """The Imposter Kings' ladder of seven rungs ran the intervals of neighbouring cells, and the
    names of neighbouring columns, into each other ("ismcts-256ismcts-1024")."""
    names = ["random", "greedy", "heuristic", "search", "ismcts-64", "ismcts-256", "ismcts-1024"]
    matrix = pd.DataFrame([{"mode": "full", "players": 2, "row": a, "column": b, "win_rate": 0.5311, "low": 0.4315,
                            "high": 0.6308, "games": 40} for a in names for b in names if a != b])
    cells = []  # (position, drawn box) of every cell's text in the figure saved
    texts = set()
    check = report_module._png

    def measure(fig):
        fig.canvas.draw()
        cells.extend((t.get_position(), t.get_window_extent()) for t in fig.axes[0].texts)
        texts.update(t.get_text() for t in fig.axes[0].texts)
        return check(fig)

    monkeypatch.setattr(report_module, "_png", measure)
    report_module.matrix_heatmap(matrix, "match", 0.5)
    assert_no_overlap(drawn)  # the column names
    neighbours = [(a, b) for (pa, a), (pb, b) in itertools.combinations(cells, 2) if pa[1] == pb[1]]
    assert texts == {"53.1%\n[43.1, 63.1]"}  # a win rate reads in % as on the ladder's tables
    assert len(neighbours) == 7 * 15 and all(a.x1 + GAP_PIXELS <= b.x0 or b.x1 + GAP_PIXELS <= a.x0
                                             for a, b in neighbours)


def test_a_members_strip_grid_of_many_groups_has_no_overlapping_text(drawn):
    """A claim's strip under every member, a panel per group three a row, the members named in the
    first column and what they measure said once above (DETHRONED's Full House: 8 roles x 9 members,
    one full-width panel a role, had made its robustness page 24,791 px tall)."""
    members = ["random", "heuristic (the default)", "heuristic, aggressive (aggression 0.9)", "search (16 rollouts, "
               "to the end)"]
    panels = [(f"seat {g} - a long meaning of this group", [report_module.Dot(m, 0.4 + 0.01 * i, 0.35, 0.5, "holds",
                                                                             (0.4, 0.6), 0.5)
                                                           for i, m in enumerate(members)], (0.0, 1.0), "%")
              for g in range(8)]
    report_module._panel_grid(panels, columns=3, shared_x=True, shared_rows=True,
                              heading="A seat's win rate minus the field's (the mean over the game's seats): no "
                                      "seating order exists, points")
    assert_no_overlap(drawn)
