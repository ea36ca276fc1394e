"""The HTML/Markdown report: it parses, its images decode, each game's headline figure leads its
summary, no table shows "nan", every interval lies inside its quantity's range, the bytes are
reproducible. Tiny game counts: these tests check the page, not the games."""

import base64
import html
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from balance.cli import summary_of  # noqa: E402
from balance.engine.game import ReportView  # noqa: E402
from balance.engine.runner import Results, round_to_deals, simulate  # noqa: E402
from balance.engine.scenario import load_scenario  # noqa: E402
from balance.stats import Units, effect_text, quantity_unit, verdict_text  # noqa: E402
from balance.studies.sweep import grid_figures, plan_sweep, sweep_table  # noqa: E402
from balance.report import (DPI, Study, _claims_view, _matrix_figure, _png, _quantity_view,  # noqa: E402
                            advantage_cells, advantage_table, capped_count, finding_items, fmt_interval, fmt_p, sentence,
                            verdict_summary, write_report)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {  # two studies of each game, so that the headline compares studies
    "take_the_throne": ["core_4p", "two_player"],
    "imposter_kings": ["first_player_2p", "true_king_choice_2p"],
    "dethroned": ["crowd_control", "the_royal_family"],
}
GAMES = {"take_the_throne": 60, "imposter_kings": 12, "dethroned": 40}
VOID = {"meta", "img", "br", "hr", "link", "input"}
INTERVAL = re.compile(r"\[(-?[\d.e+-]+|—), (-?[\d.e+-]+|—)\]")


def play(game: str, name: str):
    scenario = load_scenario(ROOT / "scenarios" / game / f"{name}.toml")
    results = simulate(scenario.setup, scenario.seed, round_to_deals(GAMES[game], scenario.setup.rotations))
    return scenario, results, summary_of(scenario, results)


@pytest.fixture(scope="module")
def studies():
    return {game: [play(game, name) for name in names] for game, names in SCENARIOS.items()}


@pytest.fixture(scope="module")
def report(studies, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    everything = [s for group in studies.values() for s in group]
    write_report(everything, out)
    return out


class Page(HTMLParser):
    """Checks that every element is closed in order; collects images, headings and table cells."""

    def __init__(self):
        super().__init__()
        self.open: list[str] = []
        self.images: list[dict] = []
        self.cells: list[str] = []
        self.order: list[tuple[str, str]] = []  # ("id", anchor) and ("img", alt) in page order
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.order.append(("id", attrs["id"]))
        if tag == "img":
            self.images.append(attrs)
            self.order.append(("img", attrs.get("alt", "")))
        if tag in ("td", "th"):
            self._cell = []
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()
        if tag in ("td", "th"):
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    assert page.open == [], f"unclosed elements: {page.open}"
    return page


def test_html_parses_and_every_image_decodes(report):
    page = parse(report)
    assert page.images
    for img in page.images:
        assert img["src"].startswith("data:image/png;base64,")
        pixels = plt.imread(io.BytesIO(base64.b64decode(img["src"].split(",", 1)[1])), format="png")
        assert pixels.shape[0] > 50 and pixels.shape[1] > 50
    markdown = report.with_suffix(".md").read_text(encoding="utf-8")
    files = re.findall(r"!\[[^]]*\]\(([^)]+)\)", markdown)
    assert len(files) == len(page.images)
    for name in files:
        assert plt.imread(report.parent / name).ndim == 3


def test_a_figure_is_a_palette_png_that_looks_like_matplotlibs_drawing():
    """Every page embeds its figures: a 256-colour PNG is well under half of matplotlib's full-colour
    one, and no pixel moves by more than a few levels (a colour scale's hundreds of shades included)."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.imshow(np.linspace(0, 1, 400).reshape(20, 20), cmap="RdBu")
    ax.errorbar([1, 5, 9], [3, 10, 17], xerr=2, fmt="o")
    ax.set_title("P(a seat loses the round), %")
    full = io.BytesIO()
    fig.savefig(full, format="png", dpi=DPI, bbox_inches="tight")
    drawn = _png(fig)
    palette = Image.open(io.BytesIO(drawn))
    assert palette.mode == "P" and len(drawn) < len(full.getvalue()) / 2
    moved = np.abs(np.asarray(palette.convert("RGB"), int) - np.asarray(Image.open(full).convert("RGB"), int))
    assert moved.max() <= 8


def test_each_game_opens_with_its_headline_figure(report, studies):
    page = parse(report)
    order = page.order
    studies_at = order.index(("id", "studies"))
    for game, group in studies.items():
        title = group[0][0].setup.game.title
        start = order.index(("id", f"game-{game}"))
        first_image = next(item for item in order[start:] if item[0] == "img")
        assert first_image[1] in (f"{title}: advantage", f"{title}: headline", f"{title}: heatmap")
        assert order.index(("img", f"{title}: headline")) < studies_at
    dethroned = studies["dethroned"][0][0].setup.game.title
    assert ("img", f"{dethroned}: heatmap") in order  # a grouped headline (roles x setups) also as a heatmap


def test_no_table_shows_nan_or_inf(report):
    page = parse(report)
    assert page.cells
    bad = [c for c in page.cells if re.search(r"\b(nan|inf)\b", c, re.IGNORECASE)]
    assert not bad, bad[:5]
    assert not re.search(r"\bnan\b", report.with_suffix(".md").read_text(), re.IGNORECASE)


def test_every_shown_interval_lies_in_its_quantitys_range(studies):
    for group in studies.values():
        for scenario, results, summary in group:
            study = Study(scenario, results, summary, scenario.name)
            claims = summary["claims"]
            # the claims table prints in the claim's units (a share in %), the quantity table as measured
            views = [(_claims_view(claims, study), [study.claim(c).quantity for c in claims["claim"]],
                      [Units.of(r).scale for r in claims.to_dict("records")]),
                     (_quantity_view(study), None, None)]
            for view, quantities, scales in views:
                if view.empty:
                    continue
                names = quantities if quantities is not None else view["quantity"]
                for text, name, scale in zip(view["95% interval"], names, scales or [1.0] * len(view)):
                    lo_bound, hi_bound = (b * scale for b in study.quantity_bounds(name))
                    if text in ("(fixed)", "—"):
                        continue
                    lo, hi = (float(v) for v in INTERVAL.fullmatch(text).groups())
                    assert lo_bound <= lo <= hi <= hi_bound, (scenario.name, name, text)


def test_intervals_are_clipped_and_p_values_floored():
    assert fmt_interval(-1.363, 2.363, (0.0, 1.0)) == "[0, 1]"
    assert fmt_interval(-np.inf, np.inf, (0.0, 1.0)) == "[0, 1]"  # one deal: no information
    assert fmt_interval(np.nan, np.nan, (0.0, np.inf)) == "—"
    share = Units.of({"unit": "%", "target": 0.25, "tolerance": 0.05})
    assert share.effect(-0.0004) == "+0.0 points" and share.effect(0.0356) == "+3.6 points"
    assert fmt_p(0.0) == "< 1e-6" and fmt_p(3.2e-7) == "< 1e-6" and fmt_p(0.0123) == "0.0123"


def test_an_interval_never_prints_both_ends_alike_and_one_point_is_singular():
    rare = Units.of({"unit": "%", "target": 0.0, "tolerance": 0.001})  # "at most 0.1%": two decimals
    # none in 100,000 games: the upper end 0.003% must not print as a fixed-looking [0.00, 0.00]
    assert rare.measured(0.0, 0.0, 3e-5) == "0.000% [0.000, 0.003]"
    assert rare.interval(0.0, 0.0) == "[0.00, 0.00]" and rare.measured(0.02, 0.01, 0.03) == "2.00% [1.00, 3.00]"
    row = {"unit": "%", "target": 0.001, "tolerance": 0.0, "compare": "at_most", "estimate": 0.0, "decide_low": 0.0,
           "decide_high": 2e-5}  # the deciding interval of a cap's rate, none capped in 200,000 games
    assert effect_text(row) == "-0.100 points [-0.100, -0.098] from 0.1% (at most 0.1%)"
    share = Units.of({"unit": "%", "target": 0.25, "tolerance": 0.01})
    assert share.band("about", 0.25, 0.01) == "about 25% ± 1 point"
    assert share.amount(0.017) == "1.7 points" and share.amount(0.01) == "1 point"


def test_take_the_throne_seats_are_labelled_by_meaning(studies):
    scenario, results, summary = studies["take_the_throne"][0]
    view = _claims_view(summary["claims"], Study(scenario, results, summary, "core_4p"))
    assert "seat 0 - first Monarch" in set(view["group"])
    assert {"says", "verdict", "effect"} <= set(view.columns)


def test_a_game_without_a_declared_headline_gets_its_first_claim(studies, tmp_path, monkeypatch):
    game = studies["take_the_throne"][0][0].setup.game
    monkeypatch.setattr(type(game), "report_view", lambda self, setup: ReportView())
    write_report(studies["take_the_throne"], tmp_path / "r.html")
    page = parse(tmp_path / "r.html")
    assert ("img", f"{game.title}: headline") in page.order


def test_claims_table_shows_extra_statistics_columns(studies):
    scenario, results, summary = studies["imposter_kings"][0]
    claims = summary["claims"].assign(effect=0.25, deciding_low=0.1)
    view = _claims_view(claims, Study(scenario, results, summary, "x"))
    assert "deciding low" in view.columns  # each claim's decimals: 0.1 for a band of points, 0.01 for at most 0.1%
    assert set(view["effect"]) == {"+25.0 points", "+25.00 points"}


def test_report_is_reproducible_byte_for_byte(studies, tmp_path):
    group = studies["imposter_kings"]
    for folder in ("a", "b"):
        write_report(group, tmp_path / folder / "report.html")
    for name in ("report.html", "report.md"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    pngs = sorted(p.name for p in (tmp_path / "a" / "report_files").glob("*.png"))
    assert pngs
    for name in pngs:
        assert (tmp_path / "a" / "report_files" / name).read_bytes() == \
            (tmp_path / "b" / "report_files" / name).read_bytes()


def test_policy_matrix_shows_as_a_heatmap_under_its_game(studies, tmp_path):
    matrix = pd.DataFrame([{"game": "imposter_kings", "mode": "full", "players": 2, "row": a, "column": b,
                            "win_rate": 0.5, "low": 0.45, "high": 0.55, "games": 100}
                           for a in ("greedy", "heuristic") for b in ("greedy", "heuristic")])
    write_report(studies["imposter_kings"], tmp_path / "r.html", [matrix])
    page = parse(tmp_path / "r.html")
    title = studies["imposter_kings"][0][0].setup.game.title
    assert ("img", f"{title}: policy matrix") in page.order


def test_a_matrix_cells_number_reads_white_on_its_darkest_colours_black_on_the_pale_ones():
    rates = {("greedy", "greedy"): 0.5, ("greedy", "heuristic"): 0.02, ("heuristic", "greedy"): 0.98,
             ("heuristic", "heuristic"): 0.6}
    matrix = pd.DataFrame([{"mode": "full", "row": a, "column": b, "win_rate": v, "low": v - 0.01, "high": v + 0.01,
                            "games": 100} for (a, b), v in rates.items()])
    fig, _, texts = _matrix_figure(matrix, "game", 0.5, (4.0, 3.0))
    colours = {t.get_text().split("\n")[0]: matplotlib.colors.to_hex(t.get_color()) for t in texts[:len(rates)]}
    plt.close(fig)
    assert colours == {"50.0%": "#000000", "2.0%": "#ffffff", "98.0%": "#ffffff", "60.0%": "#000000"}


def test_report_refuses_a_bad_matrix_file_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from balance.cli import app

    bad = tmp_path / "matrix.json"
    bad.write_text('[{"row": "greedy"}]')
    scenario = ROOT / "scenarios" / "take_the_throne" / "core_4p.toml"
    result = CliRunner().invoke(app, ["report", str(scenario), "-o", str(tmp_path / "r.html"), "--matrix", str(bad)])
    assert result.exit_code == 2
    assert str(bad) in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "r.html").exists()


def test_a_headline_panel_grouped_otherwise_names_its_own_rows(monkeypatch):
    """Thron der Lügen's headline: points by position beside stones by seat. The seat panel's rows
    are seats, so it must not borrow the position panel's labels ("position 0 - begins the round")."""
    import balance.report as report_module

    shown = {}
    drawn = report_module.dot_panel

    def record(ax, dots, bounds, title, labels=True, unit=""):
        shown[title] = labels
        drawn(ax, dots, bounds, title, labels, unit)

    monkeypatch.setattr(report_module, "dot_panel", record)
    scenario = load_scenario(ROOT / "scenarios" / "thron_der_luegen" / "4p.toml")
    results = simulate(scenario.setup, scenario.seed, round_to_deals(8, scenario.setup.rotations))
    study = Study(scenario, results, summary_of(scenario, results), scenario.name)
    assert report_module.headline_figure([study])
    assert shown == {study.title("round_points_edge", "position"): True, study.title("match_stones_edge", "seat"): True}


def test_table_cells_wrap_so_a_wide_table_fits_the_page():
    # cells kept on one line pushed the verdict column out of sight behind a horizontal scroll
    css = (ROOT / "balance" / "templates" / "report.css").read_text()
    assert "nowrap" not in css and "overflow-x" not in css


def test_the_page_opens_with_its_findings_one_per_claim(report, studies):
    page = parse(report)
    assert page.order[0] == ("id", "findings")
    html_text = report.read_text(encoding="utf-8")
    claims = {c.id for group in studies.values() for sc, _, _ in group for c in sc.claims}
    findings = html_text[html_text.index('id="findings"'):html_text.index("</ul>")]
    assert {c for c in claims if f'>{c}</a>:' in findings} == claims
    assert re.search(r'<meta name="description" content="\d+ claims: ', html_text)


# ---- the opening table: first-player and seat advantage by mode and policy rung ---------------------
ADVANTAGE_CELL = re.compile(r"(first|first \(chosen\)|chooser|seat \d+( - [a-z ]+)?) \d+\.\d% "
                            r"\([+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]\)( (holds|fails|undecided)( \(.+\))?)?")


def test_the_report_opens_with_first_player_and_seat_advantage_by_mode_and_rung(studies, tmp_path):
    more = [play("imposter_kings", name) for name in ("cutthroat_3p_random", "cutthroat_3p_true_king_random")]
    group = studies["imposter_kings"] + more
    reported = [Study(*s, s[0].name) for s in group]
    table = advantage_table(reported, advantage_cells(reported))
    # rows: the modes in the game's order; columns: the rungs in the ladder's order
    assert list(table["mode"]) == ["full (2p)", "cutthroat (3p)"]
    assert list(table.columns) == ["mode", "fair share", "random", "heuristic"]
    assert list(table["fair share"]) == ["50.0%", "33.3%"]
    cutthroat = table.set_index("mode").loc["cutthroat (3p)"]
    lines = cutthroat["random"].split("\n")
    # the forced-first study gives the first player and the seats, the True King study the chooser
    assert [line.split(" ")[0] for line in lines] == ["first", "seat", "chooser"]
    assert all(ADVANTAGE_CELL.fullmatch(line) for line in lines), lines
    assert cutthroat["heuristic"] == ""  # no heuristic Cutthroat study in this report
    full = table.set_index("mode").loc["full (2p)", "heuristic"].split("\n")
    assert [line.split(" ")[0] for line in full] == ["first", "seat", "chooser"]
    write_report(group, tmp_path / "r.html")
    page = parse(tmp_path / "r.html")
    title = group[0][0].setup.game.title
    start = page.order.index(("id", "game-imposter_kings"))
    assert next(item for item in page.order[start:] if item[0] == "img") == ("img", f"{title}: advantage")
    assert any(cell.startswith("first ") and "chooser " in cell for cell in page.cells)
    assert "| mode | fair share | random | heuristic |" in (tmp_path / "r.md").read_text()


# ---- a capped game is the cap's, not the game's ---------------------------------------------------
def test_a_study_with_capped_games_counts_them_and_labels_its_findings(studies, tmp_path):
    text = (ROOT / "scenarios" / "take_the_throne" / "core_4p.toml").read_text(encoding="utf-8")
    path = tmp_path / "capped.toml"
    path.write_text(text.replace('seats = "heuristic"', 'seats = "heuristic"\nmax_length = 6', 1), encoding="utf-8")
    scenario = load_scenario(path)
    results = simulate(scenario.setup, scenario.seed, 60)
    study = Study(scenario, results, summary_of(scenario, results), "capped")
    capped, played = capped_count(study)
    assert played == 60 and 0 < capped == int(results.games["capped"].sum()) < 60
    label = f"{capped:,} of the 60 games stopped by the cap"
    assert all(label in item["detail"] for item in finding_items([study]))
    out = tmp_path / "report.html"
    write_report([(scenario, results, study.summary)], out)
    assert f"{capped:,} of 60 games ({capped / 60:.2%}): the cap's result, not the game's" in \
        html.unescape(out.read_text(encoding="utf-8"))
    uncapped = Study(*studies["take_the_throne"][0], "core")
    assert capped_count(uncapped)[0] == 0
    assert not any("stopped by the cap" in item["detail"] for item in finding_items([uncapped]))


def test_a_long_report_is_an_overview_and_a_page_per_part(studies, tmp_path, monkeypatch):
    """Over MAX_STUDIES_PER_PAGE studies, a page per part (Game.report_part: by default the player
    count): the overview's findings and contents link into the part pages, each part links back and
    has its own findings, linked to its own sections."""
    monkeypatch.setattr("balance.report.MAX_STUDIES_PER_PAGE", 1)
    overview = tmp_path / "report.html"
    write_report(studies["take_the_throne"], overview)  # core_4p and two_player
    parts = [tmp_path / "report_4_players.html", tmp_path / "report_2_players.html"]  # in the game's mode order
    text = overview.read_text(encoding="utf-8")
    table = text[text.index('id="parts"'):]
    assert re.findall(r'<a href="(report_[^"#]+)">', table) == [p.name for p in parts]
    assert ("id", "studies") not in parse(overview).order
    links = re.findall(r'<li><a href="([^"#]+)#([^"]+)">', text[text.index('id="findings"'):])
    assert {page for page, _ in links} == {p.name for p in parts}
    for page, anchor in links:
        assert ("id", anchor) in parse(tmp_path / page).order
    for part in parts:
        page = part.read_text(encoding="utf-8")
        assert 'href="report.html"' in page and 'id="findings"' in page
        sections = [a for kind, a in parse(part).order if kind == "id" and a.startswith("take_the_throne-")]
        assert len(sections) == 1 and f'<a href="#{sections[0]}">' in page
        assert part.with_suffix(".md").exists() and any(part.with_name(part.stem + "_files").glob("*.png"))
        assert "[overview](report.md)" in part.with_suffix(".md").read_text(encoding="utf-8")
    markdown = overview.with_suffix(".md").read_text(encoding="utf-8")  # the Markdown copies link likewise
    assert re.findall(r"\[[^]]+\]\((report_[^)#]+)\)", markdown[markdown.index("## Parts"):]) == \
        [p.with_suffix(".md").name for p in parts]


def test_a_report_of_few_studies_stays_one_page(studies, tmp_path):
    write_report(studies["take_the_throne"], tmp_path / "report.html")
    assert [p.name for p in tmp_path.glob("*.html")] == ["report.html"]


# ---- a quantity reads the same on every page: study panels, robustness / skill strips, sweeps ------
class Played:
    """Results as the figures read them (a quantity's table by name), without playing a game."""

    def __init__(self, **tables: pd.DataFrame):
        self.tables = tables

    def table(self, name: str) -> pd.DataFrame:
        return self.tables[name]


def strip_panels(scenario, claim_id: str, played: Played, monkeypatch) -> tuple[list[tuple], str]:
    """The panels (title, dots, bounds, unit) members_strip draws for ``claim_id`` under two members
    that both played ``played`` (groups 0 and 1 of a grouped claim), and what the figure says they
    measure (its heading, or the title of its one panel)."""
    import balance.report as report_module

    claim = scenario.claim(claim_id)
    quantity = scenario.setup.game.quantity(claim.quantity, claim.id)
    unit = quantity_unit(quantity, played.table(quantity.table))  # the claims' unit, as stats.claim_rows sets it
    rows = pd.DataFrame([{"member": member, "claim": claim_id, "by": claim.by or "", "group": group, "estimate": 0.01,
                          "low": 0.0, "high": 0.02, "compare": claim.compare, "target": claim.target,
                          "tolerance": claim.tolerance, "unit": unit, "verdict": "holds"}
                         for member in ("random", "heuristic") for group in (("0", "1") if claim.by else ("",))])
    rob = type("Robustness", (), {"scenario": scenario, "claims": rows, "results": {"random": played,
                                                                                   "heuristic": played}})
    drawn, headings = [], []
    monkeypatch.setattr(report_module, "_panel_grid",
                        lambda panels, heading="", **_: drawn.extend(panels) or headings.append(heading) or b"")
    report_module.members_strip(rob, claim_id)
    return drawn, headings[0] or drawn[0][0]


def sweep_title(path: Path, claim_id: str, tables: dict[str, pd.DataFrame], monkeypatch) -> tuple[str, str, str]:
    """(title, unit) of the line figure a one-key sweep of the scenario at ``path`` draws for
    ``claim_id`` (its only claim here), every cell having played ``tables``, and the verdict line of
    the claim's first row (stats.verdict_text: as `balance check` and the findings print it)."""
    import balance.report as report_module

    plan = plan_sweep(path, ["max_length=100,200"])
    results = {}
    for i, cell in enumerate(plan.cells):
        cell.scenario.claims = [c for c in cell.scenario.claims if c.id == claim_id]
        results[i] = Results(cell.scenario.setup, 0, tables["games"])
        results[i].__dict__.update(tables)  # the seats table as given (Results derives it from the games otherwise)
    drawn = []
    monkeypatch.setattr(report_module, "sweep_line_figure",
                        lambda lines, key, default, band, bounds, title, unit: drawn.append((title, unit)) or b"")
    table = sweep_table(plan, results)
    grid_figures(plan, table)
    [(title, unit)] = drawn
    return title, unit, verdict_text(table.iloc[0])


RNG = np.random.default_rng(7)
DEALT = pd.DataFrame({"game": range(40), "deal": range(40)})  # 40 games, a deal each
UNITS = [  # (game, scenario, claim, its quantity's table, the unit every page reads it in)
    ("take_the_throne", "core_4p", "first_monarch_no_edge",
     {"games": DEALT.assign(first_monarch_won=RNG.integers(0, 2, 40))}, "%"),
    ("take_the_throne", "core_4p", "length", {"games": DEALT.assign(rounds=RNG.integers(3, 15, 40))}, ""),
    ("dethroned", "the_honeymoon", "no_seat_effect",
     {"games": DEALT, "seats": pd.DataFrame({"game": np.repeat(range(40), 4), "deal": np.repeat(range(40), 4),
                                             "seat": np.tile(range(4), 40),
                                             "won_vs_field": RNG.uniform(-0.75, 0.75, 160)})}, "points"),
]


@pytest.mark.parametrize("game, name, claim_id, tables, unit", UNITS, ids=[u[2] for u in UNITS])
def test_a_quantity_reads_in_one_unit_on_a_study_page_a_robustness_strip_a_sweep_and_a_verdict_line(
        game, name, claim_id, tables, unit, monkeypatch):
    """A share in %, a difference of shares (DETHRONED's seat_edge) in points, an amount as measured:
    the same in a study's panel title and axis as in the strip of the claim under every member, in
    the figure of a sweep and in the claim's verdict line (which read a difference of shares raw
    while its unit came from the claims' share flag alone)."""
    path = ROOT / "scenarios" / game / f"{name}.toml"
    scenario = load_scenario(path)
    played = Played(**tables)
    study = Study(scenario, played, {}, name)
    quantity = scenario.claim(claim_id).quantity
    [(_, _, bounds, strip_unit), *_], title = strip_panels(scenario, claim_id, played, monkeypatch)
    swept_title, swept_unit, verdict_line = sweep_title(path, claim_id, tables, monkeypatch)
    assert study.unit(quantity) == strip_unit == swept_unit == unit
    # its verdict line too: a share and a difference of shares in points, an amount as measured
    assert (" points [" in verdict_line) == (unit in ("%", "points")), verdict_line
    assert title.startswith(study.title(quantity)) and (f", {unit}" in title) == bool(unit)
    assert swept_title == f"{scenario.name}: {study.title(quantity)}"
    assert bounds == study.quantity_bounds(quantity)


def test_a_robustness_strip_is_headed_by_what_the_claim_measures_and_its_panels_by_group(monkeypatch):
    scenario = load_scenario(ROOT / "scenarios" / "take_the_throne" / "core_4p.toml")
    played = Played(games=pd.DataFrame({"first_monarch_won": [0, 1, 1, 0]}),
                    seats=pd.DataFrame({"won": [0, 1, 0, 0], "seat": [0, 1, 2, 3]}))
    [(title, dots, _, _)], measured = strip_panels(scenario, "first_monarch_no_edge", played, monkeypatch)
    assert title == measured == "share of games won by the first Monarch, %"
    assert [d.label for d in dots] == ["random", "heuristic"]
    panels, measured = strip_panels(scenario, "seat_fairness", played, monkeypatch)
    assert measured == "share of games a seat (or policy) wins, %"
    assert [p[0] for p in panels] == ["seat 0 - first Monarch", "seat 1"]


SHARE = r"\d+\.\d%"  # 28.1%
NUMBER = r"-?\d+\.\d"  # 8.9
SIGNED = r"[+-]\d+\.\d"  # +0.9


def _row(table: pd.DataFrame, study: str, claim: str) -> dict:
    return table[(table["study"] == study) & (table["claim"] == claim)].iloc[0].to_dict()


def test_the_claims_overview_prints_every_number_in_the_claims_units(studies):
    """A share claim in % with its band in points, a difference of shares (DETHRONED's seat_edge) in
    points, a game length as measured: one number of decimals per claim, fine enough for its band."""
    table = verdict_summary([Study(sc, res, summ, sc.name) for group in studies.values() for sc, res, summ in group])
    share = _row(table, "core_4p", "first_monarch_no_edge")
    assert share["says"] == "at most 30%"
    assert re.fullmatch(rf"{SHARE} \[{NUMBER}, {NUMBER}\]", share["estimate (95% interval)"]), share
    assert re.fullmatch(rf"{SIGNED} points", share["effect (largest)"]), share
    seats = _row(table, "core_4p", "seat_fairness")
    assert seats["says"] == "about 25% ± 5 points"
    assert re.fullmatch(rf"{SHARE} to {SHARE} \(4 groups\)", seats["estimate (95% interval)"]), seats
    assert re.fullmatch(rf"{SIGNED} points \(seat \d( - .+)?\)", seats["effect (largest)"]), seats
    length = _row(table, "core_4p", "length")
    assert length["says"] == "about 8 ± 3"
    assert re.fullmatch(rf"{NUMBER} \[{NUMBER}, {NUMBER}\]", length["estimate (95% interval)"]), length
    assert re.fullmatch(SIGNED, length["effect (largest)"]), length
    edge = _row(table, "crowd_control", "no_seat_effect")
    assert edge["says"] == "about 0 ± 3 points"
    assert re.fullmatch(rf"{SIGNED} to {SIGNED} points \(\d groups\)", edge["estimate (95% interval)"]), edge
    assert re.fullmatch(rf"{SIGNED} points \(seat \d\)", edge["effect (largest)"]), edge
    rare = _row(table, "core_4p", "no_endless_games")
    assert rare["says"] == "at most 0.1%"
    assert re.fullmatch(r"\d+\.\d\d% \[\d+\.\d\d, \d+\.\d\d\]", rare["estimate (95% interval)"]), rare


def test_a_studys_claims_table_reads_like_the_overview(studies):
    scenario, results, summary = studies["take_the_throne"][0]
    view = _claims_view(summary["claims"], Study(scenario, results, summary, "core_4p")).set_index("claim")
    first = view.loc["first_monarch_no_edge"]
    assert first["says"] == "at most 30%" and re.fullmatch(SHARE, first["estimate"])
    assert re.fullmatch(rf"\[{NUMBER}, {NUMBER}\]", first["95% interval"])
    assert re.fullmatch(rf"\[{NUMBER}, {NUMBER}\]", first["deciding interval"])
    assert re.fullmatch(rf"{SIGNED} points", first["effect"])
    length = view.loc["length"]
    assert re.fullmatch(NUMBER, length["estimate"]) and re.fullmatch(SIGNED, length["effect"])


def test_a_finding_ends_with_its_full_stop():
    assert sentence("Restricted play: important (costs > 2 pts holds): Defend") == \
        "Restricted play: important (costs > 2 pts holds): Defend."
    assert sentence("3 claims: 3 holds.") == "3 claims: 3 holds." and sentence("") == ""


def test_skill_rungs_are_named_with_their_shared_words_once():
    from balance.report import rung_names

    assert rung_names(("tree search, 256 iterations", "tree search, 1024 iterations")) == \
        "tree search, 256 and 1024 iterations"
    assert rung_names(("random", "heuristic", "greedy")) == "random, heuristic and greedy"
    assert rung_names(("heuristic", "heuristic sharp")) == "heuristic and heuristic sharp"
    assert rung_names(("ismcts-1024",)) == "ismcts-1024"


def test_pages_are_written_with_the_templates_read_at_import(studies, tmp_path, monkeypatch):
    """A long run writes its pages at its end: with the template files changed (here: unreadable)
    meanwhile, they still match the code it started with."""
    from jinja2 import PackageLoader

    def gone(*args):
        raise OSError("the template files changed during the run")

    monkeypatch.setattr(PackageLoader, "get_source", gone)
    write_report(studies["take_the_throne"], tmp_path / "r.html")
    assert 'id="findings"' in (tmp_path / "r.html").read_text()


def test_a_finding_over_studies_that_word_a_claim_differently_takes_the_furthest_studys_words(studies):
    """The Imposter Kings' first_player_fair is "within 2 points of 50%" at 2 players and "within 3
    points of a third" at 3: the sentence must say what its estimate is measured against."""
    from dataclasses import replace

    one = Study(*studies["take_the_throne"][0], "core")
    claim = one.scenario.claim("seat_fairness")
    reworded = replace(claim, text="Every seat wins about a third of the games")
    other = Study(replace(one.scenario, claims=[reworded if c is claim else c for c in one.scenario.claims]),
                  one.results, one.summary, "other")
    [alike] = [i for i in finding_items([one, one]) if i["where"] == "seat_fairness"]
    assert alike["text"] == claim.text and "words it" not in alike["detail"]
    [item] = [i for i in finding_items([one, other]) if i["where"] == "seat_fairness"]
    assert item["detail"].split("; ")[1] == "each study words it for its setup, here as the furthest does"
    furthest = item["detail"].split("furthest from the target: ")[1].split(",")[0]
    assert item["text"] == (claim.text if furthest == one.name else reworded.text)


def test_a_text_columns_heading_is_aligned_as_its_cells(tmp_path):
    """Text columns are left-aligned, numbers right-aligned; a text column's heading (reports/index.html's
    "finding", a robustness page's "seats") stood right-aligned above its left-aligned cells."""
    from balance.report import open_page, save_page

    page = open_page(tmp_path / "p.html", "a page", "a page")
    page.table(pd.DataFrame({"member": ["random"], "seats": ["random, random"], "games": [4000]}),
               text_cols=("member", "seats"))
    text = save_page(page, tmp_path / "p.html")[0].read_text(encoding="utf-8")
    assert '<tr><th class="text">member</th><th class="text">seats</th><th>games</th></tr>' in text
    assert re.search(r"th\.text\s*[,{][^}]*text-align:\s*left", text)
