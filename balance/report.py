"""Balance reports: HTML (plots embedded) and Markdown (plots beside it) for one or more studies.

The page answers the designer's question first: a summary with, for each game, the verdict of
every claim with the size of its effect and the game's headline figure (the quantities its
``report_view`` names, every study on one zoomed axis against the claim's band; a heatmap when
the headline is grouped, e.g. DETHRONED's roles x setups; the policy matrix when one is given).
One section per study follows: its setup, its claims, the facts of the setup, plots of every
rate by each grouping with the claim's band, the distributions of game length and the outcome
kinds, and in collapsible blocks the full quantity table, per-round breakdowns and convergence.

Figures are drawn at the page's width (text at least 10 px at 100% zoom) and stacked rather than
shrunk. Intervals are clipped to the range of their quantity. The output is byte-for-byte
reproducible: no timestamps, PNGs without version metadata.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter, PercentFormatter  # noqa: E402
from PIL import Image  # noqa: E402

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape  # noqa: E402
from markupsafe import Markup  # noqa: E402

from balance.engine.runner import write_atomic  # noqa: E402
from balance.stats import (FAILS, HOLDS, IN_POINTS, UNDECIDED, WIN_RATE, Units, claim_band, count_text,  # noqa: E402
                           effect_text, estimate_row, fact_text, game_word, is_share, plural, quantity_estimate,
                           quantity_unit, running_estimate, to_jsonable)

TEMPLATE_ENV = Environment(loader=PackageLoader("balance", "templates"), autoescape=select_autoescape(["j2"]),
                           undefined=StrictUndefined, keep_trailing_newline=True, auto_reload=False)
# a link's target: an anchor on this page ("summary"), or a page and a place on it ("report_3_players.html#x")
TEMPLATE_ENV.filters["href"] = lambda target: target if ".html" in target else f"#{target}"
MARKDOWN_ENV = Environment(loader=PackageLoader("balance", "templates"), autoescape=False,
                           undefined=StrictUndefined, keep_trailing_newline=True, auto_reload=False)


def md_cell(text) -> str:
    """A Markdown table cell: its bars escaped, its lines joined by <br>."""
    return str(text).replace("|", "\\|").replace("\n", "<br>")


MARKDOWN_ENV.filters["md_cell"] = md_cell
MARKDOWN_ENV.filters["md_page"] = lambda target: target.replace(".html", ".md", 1)  # a page's Markdown copy

# The templates (and the style sheet they include) are read once, at import, like the code: the pages
# of a long run match the code it started with, even when the files change before it writes them.
for _env, _names in ((TEMPLATE_ENV, ("page.html.j2", "index.html.j2", "report.css")), (MARKDOWN_ENV, ("page.md.j2",))):
    for _name in _names:
        _env.get_template(_name)

DPI = 100
PAGE_INCHES = 9.4  # figure width: 940 px at 100% zoom, the page's content width
FONT_POINTS = 9  # 12.5 px at 100 dpi
# The average glyph of DejaVu Sans (matplotlib's default font) is about 0.6 of the font size wide: text is
# measured with it where a figure must be sized before it is drawn (its renderer does not exist yet).
GLYPH_WIDTH_SHARE = 0.6
TITLE_CHARS_PER_INCH = 72 / (GLYPH_WIDTH_SHARE * (FONT_POINTS + 1))  # 12 characters of a panel title an inch
ROW_INCHES = 0.24  # one row of a dot plot
MAX_TABLE_GROUPS = 12  # a grouping with more groups is left out of the tables and dot plots
BREAKDOWN_GROUPS = 8  # a numbered grouping with more groups (rounds of a match) is a line plot
FOREST_SPLIT_ROWS = 40  # a one-panel headline with more rows is drawn in two columns
P_FLOOR = 1e-6  # smaller p-values print as "< 1e-6" (fmt_p)
VERDICT_WORD = re.compile(rf"\b({HOLDS}|{FAILS}|{UNDECIDED})\b")
VERDICT_COLOURS = {HOLDS: "#187a2f", FAILS: "#b3261e", UNDECIDED: "#c28f00", "": "#4a5a70"}
BAND_COLOUR = "#9fd3a8"
STYLE = {"font.size": FONT_POINTS, "axes.titlesize": FONT_POINTS + 1, "axes.labelsize": FONT_POINTS,
         "xtick.labelsize": FONT_POINTS, "ytick.labelsize": FONT_POINTS, "legend.fontsize": FONT_POINTS,
         "figure.dpi": DPI, "savefig.dpi": DPI, "axes.grid": True, "grid.alpha": 0.3}
VERDICT_LEGEND = ("A claim <b>holds</b> when its <i>deciding interval</i> shows it (for \"about\": both one-sided "
                  "bounds inside the band, edges included; for \"at most\" / \"at least\": the upper / lower bound), "
                  "<b>fails</b> when it shows the opposite, and is <b>undecided</b> otherwise (also with no spread "
                  "or too few deals). The deciding interval is taken at the level left after Holm's correction over "
                  "the study's claims and the alpha spent at the look; <i>p (holds)</i> and <i>p (fails)</i> are "
                  "adjusted for both and compared with 0.05. <i>Effect</i> is the estimate minus the target. "
                  "Every number of a claim is in its units: a share in %, a difference of shares in points, "
                  "anything else as measured. The 95% interval is the estimate's (rates: exact bounds on the "
                  "effective number of deals; means and ratios: cluster-robust by deal, bootstrap-t over few "
                  "deals), clipped to the quantity's range. Fixed facts of the setup have no interval and no test.")


# ---- one study, as the report reads it ---------------------------------------------------
@dataclass
class Study:
    scenario: object
    results: object
    summary: dict
    anchor: str
    page: str = ""  # the part page that shows the study, seen from the overview ("": this page)
    skill: dict = field(default_factory=dict)  # claim id -> SkillReading (balance report --skill-readings)

    @property
    def link(self) -> str:
        """Where a link to the study's section goes: its anchor, on its part page if it has one."""
        return f"{self.page}#{self.anchor}" if self.page else self.anchor

    @property
    def game(self):
        return self.scenario.setup.game

    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def view(self):
        return self.game.report_view(self.scenario.setup)

    @property
    def game_word(self) -> str:
        return game_word(self.scenario.setup)

    def quantity_bounds(self, name: str) -> tuple[float, float]:
        q = self.game.quantity(name, name)
        return quantity_bounds(q, self.results.table(q.table))

    def unit(self, name: str) -> str:
        q = self.game.quantity(name, name)
        return quantity_unit(q, self.results.table(q.table))

    def in_points(self, name: str) -> bool:
        """Its effects read in percentage points: a share or a difference of shares."""
        return self.unit(name) in IN_POINTS

    def title(self, quantity: str, by: str = "") -> str:
        """A quantity as a panel title says it: its meaning (the first clause of its doc) with its unit
        and grouping, e.g. "share of games won by the first Monarch, % (by seat)"."""
        return quantity_title(self.game.quantity(quantity, quantity).doc, self.unit(quantity), by)

    def quantity_rows(self, quantity: str, by: str) -> pd.DataFrame:
        """The quantity table's rows for (quantity, by); the ungrouped estimate of a quantity the
        game declares only by groups is computed here."""
        q = self.summary["quantities"]
        part = q[(q["quantity"] == quantity) & (q["by"] == by)]
        declared = any(d.name == quantity for d in self.game.quantities)
        if len(part) or by or not declared or not (q["quantity"] == quantity).any():
            return part
        d = self.game.quantity(quantity, quantity)
        est = quantity_estimate(self.results, d, self.results.table(d.table))
        return pd.DataFrame([{"quantity": quantity, "by": "", "group": "", **estimate_row(est)}])

    def claim(self, claim_id: str):
        return self.scenario.claim(claim_id)

    def claims_on(self, quantity: str, by: str) -> pd.DataFrame:
        """Claim rows (with verdicts) about ``quantity`` grouped by ``by`` ("" for ungrouped)."""
        claims = self.summary["claims"]
        ids = [c.id for c in self.scenario.claims if c.quantity == quantity and (c.by or "") == by]
        return claims[claims["claim"].isin(ids)]

    def group_label(self, by: str, group: str) -> str:
        return group_label(self.view, by, group)


def group_label(view, by: str, group: str) -> str:
    """A group named by meaning where the game's report view gives one: "seat 0 - first Monarch"."""
    if not by:
        return ""
    meaning = view.group_names.get(by, {}).get(str(group), "")
    text = f"{by} {group}" if str(group).lstrip("-").isdigit() else str(group)
    return f"{text} - {meaning}" if meaning else text


def quantity_bounds(quantity, table: pd.DataFrame) -> tuple[float, float]:
    """The range a quantity can take over ``table`` (its rows): [0, 1] for a share (stats.is_share),
    [0, inf) for a non-negative amount."""
    if is_share(quantity, table):
        return (0.0, 1.0)
    return (0.0 if (table[quantity.column].to_numpy(float) >= 0).all() else -np.inf, np.inf)


def quantity_title(doc: str, unit: str = "", by: str = "") -> str:
    """A panel title from a quantity's doc: its first clause with the unit ("%", "points", else the
    unit the doc states, "..., in stones") and the grouping: "P(a seat wins the match), % (by seat)"."""
    label, rest = _first_clause(doc)
    unit = unit or stated_unit(doc)
    label = label.rstrip(".")
    if unit and label.startswith(unit):  # "percentage points by which ...": the label names its unit
        unit = ""
    label = label[0].lower() + label[1:] if label[1:2].islower() else label
    return f"{label}{', ' + unit if unit else ''}" + (f" (by {by})" if by else "")


def stated_unit(doc: str) -> str:
    """The unit a quantity's doc states after its first clause ("..., in round points (...)"), or ""."""
    stated = re.match(r"in ([^,;(]+)", _first_clause(doc)[1])
    return stated.group(1).strip() if stated else ""


def _first_clause(doc: str) -> tuple[str, str]:
    """A doc's first clause and the rest: it ends at a comma, a semicolon or a trailing aside ("(",
    but not "(the ..." nor one inside the clause: "a seat (or policy) wins"), outside brackets."""
    depth, cut = 0, len(doc)
    for i, char in enumerate(doc):
        if depth == 0 and (doc.startswith((", ", "; "), i) or (doc.startswith(" (", i) and not doc.startswith(" (the ", i)
                                                               and _aside_ends_clause(doc, i + 1))):
            cut = i
            break
        depth += {"(": 1, ")": -1}.get(char, 0)
    return doc[:cut], doc[cut:].lstrip(",; (")


def _aside_ends_clause(doc: str, start: int) -> bool:
    """Whether the bracket opening at ``start`` closes where the clause ends (the doc's end, a comma,
    a semicolon)."""
    depth = 0
    for i in range(start, len(doc)):
        depth += {"(": 1, ")": -1}.get(doc[i], 0)
        if depth == 0:
            return doc[i + 1:].startswith((", ", "; ", ".")) or not doc[i + 1:].strip()
    return True


def _studies(studies) -> list[Study]:
    used: set[str] = set()
    return [Study(scenario, results, summary, unique_anchor(f"{scenario.setup.game.name}-{scenario.name}", used))
            for scenario, results, summary in studies]


def unique_anchor(name: str, used: set[str]) -> str:
    """An anchor for ``name`` that no other section of the page (``used``, which takes it) has."""
    anchor = re.sub(r"[^a-z0-9_-]+", "-", name.lower())
    while anchor in used:
        anchor += "-2"
    used.add(anchor)
    return anchor


# ---- numbers as text ---------------------------------------------------------------------
def _fmt(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{v:,}"
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            return "—"
        return f"{v:.4g}"
    return "—" if v is None else str(v)


def fmt_p(p: float) -> str:
    if not np.isfinite(p):
        return "—"
    return "< 1e-6" if p < P_FLOOR else f"{p:.3g}"


def clip_interval(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    """An interval inside the quantity's range (an unbounded or missing end becomes the range's)."""
    lo = bounds[0] if not np.isfinite(low) else max(low, bounds[0])
    hi = bounds[1] if not np.isfinite(high) else min(high, bounds[1])
    return lo, hi


def fmt_interval(low: float, high: float, bounds: tuple[float, float]) -> str:
    lo, hi = clip_interval(low, high, bounds)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "—"
    if lo == hi:
        return "(fixed)"
    return f"[{_fmt(float(lo))}, {_fmt(float(hi))}]"


# A claim's numbers in every table print through stats.Units, the verdict lines' own rule: a share in
# %, a difference of shares in points, anything else as measured; one number of decimals per claim.
def claim_words(row) -> str:
    """A claim row's band (compare, target, tolerance, unit): "about 25% ± 5 points", "at most 30%"."""
    return Units.of(row).band(row["compare"], row["target"], row["tolerance"])


def claim_estimate(row, bounds: tuple[float, float]) -> str:
    """A claim row's estimate with its 95% interval inside the quantity's range: "28.1% [27.9, 28.3]"."""
    return Units.of(row).measured(row["estimate"], *clip_interval(row["low"], row["high"], bounds))


def sentence(text: str) -> str:
    """A finding as a sentence: its final full stop (none added after one, nor to an empty text)."""
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


# ---- tables ------------------------------------------------------------------------------
def _drop_empty(df: pd.DataFrame) -> pd.DataFrame:
    """No column and no row that holds nothing (all missing)."""
    if df.empty:
        return df
    shown = df.replace({"": np.nan, "—": np.nan})
    df = df.loc[:, shown.notna().any(axis=0)]
    return df[shown.loc[:, df.columns].notna().any(axis=1)]


def _table_block(df: pd.DataFrame, verdict_col: str | None = None, text_cols: tuple[str, ...] = (),
                 links: dict[str, dict[str, str]] | None = None, news: dict[str, str] | None = None) -> dict:
    """A table as the page templates draw it. ``verdict_col``: coloured by its worst verdict ("2 holds,
    1 fails" as fails), or by ``news`` (verdict -> css class: what the verdict means for the game,
    where "fails" is not bad news). ``links``: column -> cell text -> the anchor that cell links to.
    A cell of several lines (newlines) shows them as lines, each verdict word in it coloured."""
    links = links or {}
    rows = []
    for row in df.itertuples(index=False):
        cells = []
        for col, v in zip(df.columns, row):
            worst = _worst([v]) if col == verdict_col else ""
            worst = (news or {}).get(worst, worst)
            text = _fmt(v)
            lines = [[(part, part if part in (HOLDS, FAILS, UNDECIDED) and "\n" in text else "")
                      for part in VERDICT_WORD.split(line) if part] for line in text.split("\n")]
            cells.append({"cls": worst or ("text" if col in text_cols else ""), "lines": lines,
                          "link": links.get(col, {}).get(str(v), ""), "md": text})
        rows.append(cells)
    # a text column's heading is aligned as its cells are (left), every other one right
    return {"kind": "table", "header": [str(c) for c in df.columns], "rows": rows,
            "header_classes": ["text" if c in text_cols else "" for c in df.columns]}


def markdown_table(df: pd.DataFrame) -> str:
    lines = ["| " + " | ".join(map(str, df.columns)) + " |", "|" + "---|" * len(df.columns)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(md_cell(_fmt(v)) for v in row) + " |")
    return "\n".join(lines)


# Columns of stats.evaluate_claims the claims table shows in its own way; any other column (a
# deciding interval, an adjusted p-value, an effect...) is shown as it comes, under its name.
CLAIM_SHOWN = {"claim", "group", "compare", "target", "tolerance", "estimate", "low", "high", "decide_low",
               "decide_high", "p_holds_adjusted", "p_fails_adjusted", "verdict", "effect"}
CLAIM_HIDDEN = {"text", "by", "n", "se", "deals", "unit", "decide_level", "p_holds", "p_fails"}


def _claims_view(claims: pd.DataFrame, study: Study) -> pd.DataFrame:
    """The claims table as shown: the claim's band, the estimate, the 95% interval inside the
    quantity's range, the deciding interval and the effect, all in the claim's units (stats.Units),
    Holm p-values, the verdict."""
    if claims.empty:
        return pd.DataFrame()
    rows = []
    extra = [c for c in claims.columns if c not in CLAIM_SHOWN | CLAIM_HIDDEN]
    for r in claims.to_dict("records"):
        claim = study.claim(r["claim"])
        bounds = study.quantity_bounds(claim.quantity)
        units = Units.of(r).resolving(*clip_interval(r["low"], r["high"], bounds))
        effect = r.get("effect", r["estimate"] - r["target"])
        row = {"claim": r["claim"], "group": study.group_label(claim.by or "", r["group"]), "verdict": r["verdict"],
               "says": claim_words(r), "estimate": units.measured(r["estimate"]),
               "95% interval": units.interval(*clip_interval(r["low"], r["high"], bounds)),
               "deciding interval": units.interval(*clip_interval(r["decide_low"], r["decide_high"], bounds)),
               "effect": units.effect(effect) if isinstance(effect, (float, np.floating)) else effect,
               "p (holds)": fmt_p(r["p_holds_adjusted"]), "p (fails)": fmt_p(r["p_fails_adjusted"])}
        for col in extra:
            v = r[col]
            row[col.replace("_", " ")] = fmt_p(v) if col.startswith("p_") else v
        rows.append(row)
    return _drop_empty(pd.DataFrame(rows))


def _facts_view(study: Study) -> pd.DataFrame:
    """Fixed facts of the setup (no sampling error): ``summary["facts"]`` when the statistics
    give it, else the quantities whose interval has zero width."""
    facts = study.summary.get("facts")
    if facts is not None:
        return facts_table(facts)
    q = study.summary["quantities"]
    fixed = q[_is_fact(q)]
    return pd.DataFrame({"fact": fixed["quantity"], "group": [study.group_label(b, g) for b, g in
                                                              zip(fixed["by"], fixed["group"])],
                         "value": fixed["estimate"]}).pipe(_drop_empty)


def facts_table(facts: pd.DataFrame) -> pd.DataFrame:
    """Fact rows (stats.FACT_COLUMNS) as shown: the value and the band in the claim's units (stats.Units),
    inside or outside, the verdict."""
    rows = [{"claim": r["claim"], "group": r["group"], "value": Units.of(r).value(r["value"]), "says": claim_words(r),
             "band": "inside" if r["inside"] else "outside", "verdict": r["verdict"]} for r in facts.to_dict("records")]
    return _drop_empty(pd.DataFrame(rows))


def _is_fact(rows):
    """Whether a quantity row (or each row of a quantity table) is a fixed fact of the setup: ungrouped,
    with an interval of zero width at its estimate."""
    return (rows["by"] == "") & (rows["low"] == rows["high"]) & (rows["high"] == rows["estimate"])


def _is_breakdown(groups: pd.Series) -> bool:
    """A grouping by a running number with many values (the round of a match) is plotted."""
    return len(groups) > BREAKDOWN_GROUPS and groups.astype(str).str.fullmatch(r"-?\d+").all()


def _quantity_view(study: Study) -> pd.DataFrame:
    """Every quantity with its clipped interval and its count in named units; facts, empty groups
    and long breakdowns (shown as plots) left out."""
    q = study.summary["quantities"]
    grouped = q.groupby(["quantity", "by"])["group"]
    counts = grouped.transform("size")
    plotted = grouped.transform(_is_breakdown)
    rows = []
    for r, count, breakdown in zip(q.to_dict("records"), counts, plotted):
        degenerate = r["by"] != "" and count == 1  # one group: the whole study again ("by policy" in self-play)
        if not np.isfinite(r["estimate"]) or _is_fact(r) or degenerate or breakdown or count > MAX_TABLE_GROUPS:
            continue
        quantity = study.game.quantity(r["quantity"], r["quantity"])
        unit = table_unit(study.game, quantity.table)
        rows.append({"quantity": r["quantity"], "by": r["by"], "group": study.group_label(r["by"], r["group"]),
                     "estimate": r["estimate"],
                     "95% interval": "(fixed)" if str(r["method"]).startswith("fixed") else
                     fmt_interval(r["low"], r["high"], study.quantity_bounds(r["quantity"])),
                     "n": f"{r['n']:,} {unit}s", "deals": r.get("clusters", np.nan), "method": r["method"]})
    return _drop_empty(pd.DataFrame(rows))


def table_unit(game, table: str) -> str:
    """What one row of a quantity's table is: a round (game), a seat-round, an army card..."""
    if table == "games":
        return game.unit
    return f"seat-{game.unit}" if table == "seats" else table.replace("_", " ").removesuffix("s")


def scenario_rows(scenario) -> list[tuple[str, str]]:
    """The first rows of every page's setup table: the game, the scenario, its mode, players and options."""
    d = scenario.describe()
    return [("game", f"{scenario.setup.game.title} ({d['game']})"), ("scenario", str(d["scenario"])),
            ("mode", d["mode"]), ("players", str(d["players"])),
            ("options", ", ".join(f"{k}={v}" for k, v in d["options"].items()) or "defaults")]


def header_rows(scenario, summary) -> list[tuple[str, str]]:
    d = scenario.describe()
    game = scenario.setup.game
    view = game.report_view(scenario.setup)
    played = f"{summary['games']:,} {plural(game_word(scenario.setup))}"
    if game.unit != "game":
        played += f" ({summary.get('rows', summary['games']):,} {plural(game.unit)})"
    rows = [*scenario_rows(scenario), ("policies by seat slot", ", ".join(d["policies"])),
            ("seat rotation", d["rotation"]),
            ("played", played), ("seed", str(d["seed"])), ("cap", f"{d['max_length']} {view.cap}")]
    if d["assumed"]:
        rows.append(("assumed facts in use", ", ".join(d["assumed"]) + " (see the rules supplement)"))
    return rows


def capped_count(study: Study) -> tuple[int, int]:
    """(stopped by a cap, played): the study's games, or rounds, that its game's ``cap_quantity``
    counts as capped, out of those it counts at all. (0, 0) for a game that declares none."""
    name = study.game.cap_quantity
    if not name:
        return 0, 0
    q = study.game.quantity(name, name)
    table = study.results.table(q.table)
    played = int(table[q.denominator].sum()) if q.denominator else len(table)
    return int(table[q.column].astype(int).sum()), played


def capped_text(study: Study) -> str:
    """"none of 4,000 games", or "12 of 4,000 rounds (0.30%): the cap's, not the game's"."""
    capped, played = capped_count(study)
    unit = plural(study.game.unit)
    if not capped:
        return f"none of {played:,} {unit}"
    return f"{capped:,} of {played:,} {unit} ({capped / played:.2%}): the cap's result, not the game's"


def seat_uniformity_text(study: Study) -> str:
    uni = study.summary.get("seat_uniformity")
    if not uni or uni.get("untestable") == "one seat":
        return ""
    if uni.get("untestable"):
        return f"Seat uniformity: no test ({uni['untestable']})."
    seats = study.results.seats
    rates = seats.groupby("seat")["won"].mean()
    statistic = (f"F = {uni['statistic']:.2f} on {uni['df']} and {uni['df2']:,} df" if "df2" in uni
                 else f"chi-square = {uni['statistic']:.2f} on {uni['df']} df")
    return (f"Seat uniformity: {uni['test']}, {statistic}, "
            f"p {fmt_p(uni['p']) if uni['p'] < P_FLOOR else '= ' + fmt_p(uni['p'])}. Seat win rates run from "
            f"{rates.min():.1%} to {rates.max():.1%}: a spread of {(rates.max() - rates.min()) * 100:.1f} points.")


def verdict_summary(studies: list[Study]) -> pd.DataFrame:
    """One row per study and claim: the claim, its band, the estimate (or the range over groups),
    the largest effect and the verdict (or how many groups got each verdict)."""
    rows = []
    for s in studies:
        for claim_id, part in s.summary["claims"].groupby("claim", sort=False):
            claim = s.claim(claim_id)
            effect = part["estimate"] - part["target"]
            worst = effect.abs().idxmax() if effect.notna().any() else part.index[0]
            first = part.iloc[0]
            units = Units.of(first)
            if len(part) == 1:
                bounds = s.quantity_bounds(claim.quantity)
                estimate = claim_estimate(first, bounds)
                verdict = first["verdict"]
                # with the decimals its estimate's interval needed ("-0.08 [-0.10, -0.07]": -0.08, not -0.1)
                largest = units.resolving(*clip_interval(first["low"], first["high"], bounds)).effect(effect.iloc[0])
            else:
                estimate = f"{units.span(part['estimate'].min(), part['estimate'].max())} ({len(part)} groups)"
                verdict = _verdict_counts(part["verdict"])
                largest = f"{units.effect(effect[worst])} ({s.group_label(claim.by or '', part.loc[worst, 'group'])})"
            rows.append({"study": s.name, "claim": claim_id, "verdict": verdict, "says": claim_words(first),
                         "estimate (95% interval)": estimate, "effect (largest)": largest})
    return pd.DataFrame(rows)


# ---- findings: the page's first block ------------------------------------------------------------
VERDICT_ORDER = (FAILS, UNDECIDED, HOLDS)  # a claim group's verdict: its worst


def players_text(scenario) -> str:
    """Who played: "heuristic players" (every seat alike), "1 heuristic and 3 random players"."""
    counts: dict[str, int] = {}
    for policy in scenario.describe()["policies"]:
        counts[policy] = counts.get(policy, 0) + 1
    if len(counts) == 1:
        return f"{next(iter(counts))} players"
    parts = [f"{n} {name}" for name, n in counts.items()]
    return f"{', '.join(parts[:-1])} and {parts[-1]} players"


def games_text(studies: list[Study]) -> str:
    """The studies' sizes: "200,000 games", or their range "100,000 to 200,000 games each"."""
    sizes = sorted({s.summary["games"] for s in studies})
    if len(sizes) == 1:
        return count_text(studies[0].summary) + (" each" if len(studies) > 1 else "")
    word = plural(studies[0].game_word)
    return f"{sizes[0]:,} to {sizes[-1]:,} {word} each"


def _worst(verdicts) -> str:
    """The worst verdict that ``verdicts`` name (each a verdict, "undecided (too few deals)", a count
    such as "2 holds, 1 fails", a reading such as "robust holds"): fails, then undecided, then
    holds; "" where none is named."""
    named = set(VERDICT_WORD.findall(" ".join(map(str, verdicts))))
    return next((v for v in VERDICT_ORDER if v in named), "")


def finding_items(studies: list[Study]) -> list[dict]:
    """One plain sentence per claim group: a claim (by id) over every study of the page that makes
    it, in the claim's units (points for shares), with its verdict (the worst over its studies and
    groups), the effect furthest from the target with its deciding interval and band, and the
    players and games it was measured with. Where studies word the claim their own way ("within 3
    points of a third" at 3 players, "of 50%" at 2), the sentence takes the furthest study's words,
    so that it says what the effect shown is measured against. Facts of the setup follow, one per
    claim group too."""
    groups: dict[str, list[tuple[Study, pd.DataFrame]]] = {}
    for s in studies:
        for claim_id, part in s.summary["claims"].groupby("claim", sort=False):
            groups.setdefault(claim_id, []).append((s, part))
    items = []
    for claim_id, measured in groups.items():
        rows = [(s, r) for s, part in measured for r in part.to_dict("records")]
        verdict = _worst(r["verdict"] for _, r in rows)
        s, worst = max(rows, key=lambda sr: abs(sr[1]["estimate"] - sr[1]["target"])
                       if np.isfinite(sr[1]["estimate"]) else -1.0)
        where = s.group_label(worst["by"], worst["group"]) if worst["by"] else ""
        if len(measured) > 1:
            where = f"{s.name}{', ' + where if where else ''}"
        text = s.claim(claim_id).text
        worded = "each study words it for its setup, here as the furthest does; " \
            if len({st.claim(claim_id).text for st, _ in measured}) > 1 else ""
        counts = _verdict_counts(_worst([r["verdict"]]) for _, r in rows)
        spread = f"{counts} over {len(rows)} {'studies and groups' if len(measured) > 1 else 'groups'}; " \
            if len(rows) > 1 else ""
        furthest = f"furthest from the target: {where} " if where else ""
        players = " or ".join(dict.fromkeys(players_text(st.scenario) for st, _ in measured))
        counts_of = f"{len(measured)} studies, " if len(measured) > 1 else ""
        measured_with = f"{counts_of}{players}, {games_text([st for st, _ in measured])}"
        capped = [(st, capped_count(st)) for st, _ in measured]
        if any(c for _, (c, _) in capped):
            # a figure that counts capped games is labelled: they are the cap's, not the game's
            total, played = (sum(x) for x in zip(*(c for _, c in capped)))
            measured_with += f", {total:,} of the {played:,} {plural(measured[0][0].game.unit)} stopped by the cap"
        items.append({"where": claim_id, "anchor": measured[0][0].link, "text": text,
                      "verdict": verdict, "verdict_class": verdict,
                      "detail": f"{spread}{worded}{furthest}{effect_text(worst)}; {measured_with}",
                      "skill": [_skill_item(st, claim_id, len(measured) > 1) for st, _ in measured
                                if claim_id in st.skill]})
    facts: dict[str, list[tuple[Study, dict]]] = {}
    for s in studies:
        table = s.summary.get("facts")
        for r in (table.to_dict("records") if table is not None else []):
            facts.setdefault(r["claim"], []).append((s, r))
    for claim_id, rows in facts.items():
        verdict = _worst(r["verdict"] for _, r in rows)
        s, r = next(((s, r) for s, r in rows if r["verdict"] == verdict), rows[0])
        detail = fact_text(r)
        if len(rows) > 1:
            detail = f"{sum(r['verdict'] == verdict for _, r in rows)} of {len(rows)} {verdict}; e.g. {s.name}, {detail}"
        items.append({"where": claim_id, "anchor": s.link, "text": r["text"], "verdict": verdict,
                      "verdict_class": verdict, "detail": detail})
    return items


def _skill_item(study: Study, claim_id: str, named: bool) -> dict:
    """A claim's reading against skill under its finding (``named``: the finding covers more studies
    than this one, so it names the study read)."""
    reading = study.skill[claim_id]
    return {"where": study.name if named else "", "reading": reading.row["reading"],
            "verdict_class": skill_reading_class(reading.row), "detail": reading.detail()}


def finding_line(items: list[dict]) -> str:
    """A page's one-line finding (its meta description, reports/index.html): how many claim
    groups hold, fail, stay undecided, and the first one."""
    if not items:
        return ""
    first = items[0]
    counts = _verdict_counts(i["verdict"] for i in items)
    return f"{len(items)} claims: {counts}. First: {first['text']}: {first['verdict']}."


def _verdict_counts(verdicts, kinds=(HOLDS, FAILS, UNDECIDED)) -> str:
    """"4 holds, 1 fails": how many of ``verdicts`` are each of ``kinds``, in that order (others, such
    as "undecided (too few deals)", not counted)."""
    verdicts = list(verdicts)
    return ", ".join(f"{verdicts.count(v)} {v}" for v in kinds if v in verdicts)


# ---- figures -----------------------------------------------------------------------------
def _png(fig) -> bytes:
    """The figure as a 256-colour PNG. Its plots use a few hundred colours (the anti-aliased edges of
    a few flat ones), so Pillow's palette (maximum coverage, no dithering) moves no channel by more
    than a few levels of 255 and the file is a third of matplotlib's RGBA one: the pages embed every
    figure, base64 included. Pillow writes no version metadata, so the bytes stay reproducible."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    opaque = Image.open(buf).convert("RGB")  # the figure's facecolor is opaque: the alpha channel says nothing
    out = io.BytesIO()
    opaque.quantize(256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE).save(
        out, format="png", optimize=True, dpi=(DPI, DPI))
    return out.getvalue()


class FittingLocator(MaxNLocator):
    """MaxNLocator on 1-2-5 steps with no more ticks than their labels fit along the axis, measured in
    the labels' own font when the figure is drawn (at its final size): the labels of a narrow panel
    never run together ("0.250.300.350.400.45"), whatever the data's range. Where 1-2-5 steps leave
    one label (a range of 0.8 on a narrow panel: 0.2 too dense, 0.5 one tick), 2.5 steps are tried
    (-0.25, 0, 0.25): one label gives no scale."""

    STEPS = [1, 2, 5, 10]
    FALLBACK_STEPS = [1, 2, 2.5, 5, 10]

    def __init__(self, nbins: int = 6):
        # min_n_ticks=1: on a panel too narrow for two labels of a short range, one label, not five crammed
        super().__init__(nbins=nbins, steps=self.STEPS, min_n_ticks=1)
        self.most = nbins

    def tick_values(self, vmin: float, vmax: float):
        axis = self.axis
        if axis is None or axis.get_scale() != "linear" or vmax == vmin:
            return super().tick_values(vmin, vmax)
        ticks, shown = self._fitting(vmin, vmax, self.STEPS)
        if shown < 2:
            fallback, fallback_shown = self._fitting(vmin, vmax, self.FALLBACK_STEPS)
            if fallback_shown > shown:
                ticks = fallback
        self.set_params(nbins=self.most, steps=self.STEPS)
        return ticks

    def _fitting(self, vmin: float, vmax: float, steps: list[float]):
        """The most ticks on ``steps`` whose labels fit the axis, and how many of them are in range."""
        axis = self.axis
        vertical = axis.axis_name == "y"
        box = axis.axes.get_window_extent()
        length = box.height if vertical else box.width
        renderer = axis.get_figure(root=True).canvas.get_renderer()
        font = axis.get_major_ticks(1)[0].label1.get_fontproperties()
        formatter = axis.get_major_formatter()
        for nbins in range(self.most, 0, -1):
            self.set_params(nbins=nbins, steps=steps)
            ticks = super().tick_values(vmin, vmax)
            shown = [t for t in ticks if min(vmin, vmax) <= t <= max(vmin, vmax)]
            formatter.set_locs(shown)
            sizes = [renderer.get_text_width_height_descent(formatter(t, i), font, ismath=False)
                     for i, t in enumerate(shown)]
            extent = [h for _, h, _ in sizes] if vertical else [w for w, _, _ in sizes]
            gap = font.get_size_in_points() * renderer.points_to_pixels(1.0)  # a blank of one em between labels
            room = abs(length / (vmax - vmin))  # pixels per unit
            if all(abs(b - a) * room >= (ea + eb) / 2 + gap
                   for a, b, ea, eb in zip(shown, shown[1:], extent, extent[1:])):
                break
        return ticks, len(shown)


class PointsFormatter(PercentFormatter):
    """A share as percent ("25%") or a difference of shares as points ("3") with as many decimals as
    the ticks need to read exactly (PercentFormatter sizes them by the axis's range: "26.00%, 28.00%";
    sized by the step alone, 2.5 steps read "33%" at 32.5%)."""

    MOST_DECIMALS = 4

    def set_locs(self, locs):
        super().set_locs(locs)
        values = np.asarray(locs, float) * 100 / self.xmax
        if len(np.unique(values)) < 2:
            self.decimals = None
            return
        tolerance = 1e-6 * max(1.0, float(np.abs(values).max()))
        self.decimals = next((d for d in range(self.MOST_DECIMALS)
                              if np.allclose(values, np.round(values, d), rtol=0, atol=tolerance)), self.MOST_DECIMALS)


def value_text(value: float, unit: str, measured: str = ".3g") -> str:
    """A value as its value_axis reads it: a share in % ("25.0%"), a difference of shares in points
    ("3.1"), else as measured (``measured``: its format)."""
    if unit == "%":
        return f"{value:.1%}"
    return f"{value * 100:.1f}" if unit == "points" else format(value, measured)


def value_axis(axis, unit: str = "", nbins: int = 6) -> None:
    """A value axis as its panel's title reads it: a share in % (0.25 -> 25%), a difference of shares in
    points (0.03 -> 3), else as measured; ticks that fit the panel (FittingLocator)."""
    axis.set_major_locator(FittingLocator(nbins))
    if unit == "%":
        axis.set_major_formatter(PointsFormatter(xmax=1))
    elif unit == "points":
        axis.set_major_formatter(PointsFormatter(xmax=1, symbol=""))


@dataclass
class Dot:
    """One row of a dot plot: a label, the estimate with its interval, the band its claim allows."""

    label: str
    estimate: float = np.nan
    low: float = np.nan
    high: float = np.nan
    verdict: str = ""
    band: tuple[float, float] | None = None
    target: float = np.nan
    heading: bool = False  # a label row that opens a block of rows (a study's name)


def _limits(dots: list[Dot], bounds: tuple[float, float]) -> tuple[float, float]:
    """A zoomed axis: the intervals, targets and finite band edges, padded, inside the range."""
    values = [v for d in dots for v in (d.estimate, d.low, d.high, d.target, *(d.band or ())) if np.isfinite(v)]
    if not values:
        return bounds if all(np.isfinite(bounds)) else (0.0, 1.0)
    lo, hi = min(values), max(values)
    pad = max((hi - lo) * 0.08, 0.01 * max(abs(hi), 1e-9) if bounds != (0.0, 1.0) else 0.01)
    lo, hi = lo - pad, hi + pad
    return max(lo, bounds[0]), min(hi, bounds[1])


def dot_panel(ax, dots: list[Dot], bounds: tuple[float, float], title: str, labels: bool = True,
              unit: str = "") -> None:
    """Rows of dots with 95% intervals on a zoomed axis (``unit``: value_axis); each row's claim band
    shaded, its target a dark tick; dots coloured by the claim's verdict."""
    lo_ax, hi_ax = _limits(dots, bounds)
    for y, d in enumerate(dots):
        if d.band is not None:
            lo, hi = (max(d.band[0], lo_ax), min(d.band[1], hi_ax))
            ax.fill_betweenx([y - 0.42, y + 0.42], lo, hi, color=BAND_COLOUR, alpha=0.55, linewidth=0)
        if np.isfinite(d.target):
            ax.plot([d.target, d.target], [y - 0.42, y + 0.42], color="#1d5f2b", linewidth=1.2)
        if np.isfinite(d.estimate):
            lo, hi = clip_interval(d.low, d.high, bounds)
            colour = VERDICT_COLOURS.get(d.verdict, VERDICT_COLOURS[""])
            ax.plot([lo, hi], [y, y], color=colour, linewidth=1.8)
            ax.plot(d.estimate, y, "o", color=colour, markersize=4.5)
    ax.set_xlim(lo_ax, hi_ax)
    value_axis(ax.xaxis, unit)
    ax.set_ylim(len(dots) - 0.5, -0.5)
    ax.set_yticks(range(len(dots)))
    if labels:
        ax.set_yticklabels([d.label for d in dots])
        for tick, d in zip(ax.get_yticklabels(), dots):
            if d.heading:
                tick.set_fontweight("bold")
    else:
        ax.tick_params(axis="y", labelleft=False)
    ax.grid(axis="y", visible=False)
    ax.set_title(wrapped(ax, title), loc="left")


TITLE_LINE_INCHES = 0.18  # one line of a panel title
MIN_TITLE_CHARS = 16  # a title line never wraps shorter, however narrow its panel
PANEL_AXES_SHARE = 0.8  # of its column, what a panel's axes (and title) span; tick labels take the rest


def text_inches(chars: int, points: float = FONT_POINTS) -> float:
    """The width a text of ``chars`` characters takes at ``points`` (GLYPH_WIDTH_SHARE): an estimate
    for sizing a figure before it is drawn."""
    return chars * points * GLYPH_WIDTH_SHARE / 72


def title_chars(width_inches: float) -> int:
    """How many characters of a title (at FONT_POINTS + 1, the axes' title size) fit one line of
    ``width_inches``: every title is wrapped to it (side-by-side titles ran into each other)."""
    return max(MIN_TITLE_CHARS, int(width_inches * TITLE_CHARS_PER_INCH))


def wrapped(ax, title: str) -> str:
    """A panel title broken into lines that fit its panel."""
    return textwrap.fill(title, width=title_chars(ax.get_position().width * ax.figure.get_figwidth()))


def title_inches(titles, columns: int) -> float:
    """The height the longest of side-by-side panel titles takes beyond its first line (a title wrapped
    to 6 lines over a 3-row panel left the rows no room: their labels ran together), measured before
    the figure is drawn: a panel's axes are then PANEL_AXES_SHARE of its column."""
    chars = title_chars(PAGE_INCHES / columns * PANEL_AXES_SHARE)
    return TITLE_LINE_INCHES * (max(len(textwrap.wrap(t, chars)) for t in titles) - 1)


def verdict_legend(fig) -> None:
    handles = [Line2D([], [], color=c, marker="o", linewidth=1.8, label=v or "no claim")
               for v, c in VERDICT_COLOURS.items()]
    handles.append(plt.Rectangle((0, 0), 1, 1, color=BAND_COLOUR, alpha=0.55, label="claim's band"))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, bbox_to_anchor=(0.5, 1.0))


def study_dots(study: Study, quantity: str, by: str, label_groups: bool = True) -> list[Dot]:
    """The rows of one study for a (quantity, by) panel, with the band and verdict of its claim."""
    part = study.quantity_rows(quantity, by)
    claims = study.claims_on(quantity, by)
    dots = []
    for r in part.to_dict("records"):
        dot = Dot(study.group_label(by, r["group"]) if label_groups else study.name, r["estimate"], r["low"],
                  r["high"])
        match = claims[claims["group"] == r["group"]]
        if len(match):
            c = match.iloc[0]
            dot.verdict, dot.target = c["verdict"], c["target"]
            dot.band = claim_band(c["compare"], c["target"], c["tolerance"])
        dots.append(dot)
    return dots


def rate_figure(study: Study) -> bytes | None:
    """Every share the study measures, by each grouping with 2 to MAX_TABLE_GROUPS groups (a
    grouping with one group, such as "by policy" in self-play, says nothing): dots with 95%
    intervals, the claim's band, groups named by meaning; two panels a row."""
    q = study.summary["quantities"]
    panels = []
    for (quantity, by), part in q[q["by"] != ""].groupby(["quantity", "by"], sort=False):
        if 2 <= len(part) <= MAX_TABLE_GROUPS and not _is_breakdown(part["group"]) and study.unit(quantity) == "%" \
                and part["estimate"].notna().any():
            panels.append((study.title(quantity, by), study_dots(study, quantity, by), study.quantity_bounds(quantity),
                           "%"))
    if not panels:
        return None
    return _panel_grid(panels, columns=2 if len(panels) > 1 else 1)


def _panel_grid(panels, columns: int, extra_rows: float = 0.9, shared_x: bool = False,
                shared_rows: bool = False, heading: str = "") -> bytes:
    """Dot-plot panels (title, dots, bounds, unit), ``columns`` a row, each row as tall as its longest panel. ``shared_x``:
    one axis range for all (the parts of one split panel), ticks on top and bottom. ``shared_rows``:
    every panel has the same rows, labelled in the first column only (room for the dots). ``heading``:
    what every panel measures, said once above them (the panels' titles then name only their part)."""
    rows = [panels[i:i + columns] for i in range(0, len(panels), columns)]
    heights = [max(len(p[1]) for p in row) * ROW_INCHES + extra_rows + title_inches([p[0] for p in row], columns)
               for row in rows]
    heading_lines = textwrap.wrap(heading, title_chars(PAGE_INCHES))
    heading_inches = TITLE_LINE_INCHES * len(heading_lines) + 0.1 if heading else 0
    limits = _limits([d for p in panels for d in p[1]], panels[0][2]) if shared_x else None
    with plt.rc_context(STYLE):
        fig = plt.figure(figsize=(PAGE_INCHES, sum(heights) + heading_inches), layout="constrained")
        if heading:
            fig.suptitle("\n".join(heading_lines), x=0.0, ha="left", fontsize=FONT_POINTS + 1)
        grid = fig.add_gridspec(len(rows), columns, height_ratios=heights)
        for i, row in enumerate(rows):
            for j, (title, dots, bounds, unit) in enumerate(row):
                ax = fig.add_subplot(grid[i, j])
                dot_panel(ax, dots, bounds, title, labels=not shared_rows or j == 0, unit=unit)
                if limits:
                    ax.set_xlim(*limits)
                    ax.tick_params(axis="x", labeltop=True)
        verdict_legend(fig)
        return _png(fig)


def _split_forest(title: str, dots: list[Dot], bounds, unit: str) -> list[tuple[str, list[Dot], tuple, str]]:
    """A long forest in two halves, cut at the study heading nearest the middle."""
    starts = [i for i, d in enumerate(dots) if d.heading] or [len(dots) // 2]
    cut = min(starts, key=lambda i: abs(i - len(dots) / 2)) or len(dots) // 2
    return [(title, dots[:cut], bounds, unit), (f"{title} (continued)", dots[cut:], bounds, unit)]


# ---- the opening table: first-player and seat advantage by mode and policy rung ----------------
@dataclass
class Edge:
    """One line of an advantage cell: an estimate (a share), its 95% interval, the fair share it is
    measured from, the verdict of the study's claim on it ("" without one) and what it is of."""

    estimate: float
    low: float
    high: float
    fair: float
    verdict: str = ""
    what: str = ""

    @property
    def points(self) -> tuple[float, float, float]:
        """The estimate and its interval in percentage points from the fair share."""
        return tuple((v - self.fair) * 100 for v in (self.estimate, self.low, self.high))


ADVANTAGE_LINES = ("first player", "largest seat deviation", "chooser's edge")


def _claim_verdict(study: Study, quantity: str, by: str, group: str = "") -> str:
    claims = study.claims_on(quantity, by)
    match = claims[claims["group"].astype(str) == str(group)] if by else claims
    return str(match["verdict"].iloc[0]) if len(match) else ""


def _ungrouped_edge(study: Study, quantity: str, fair: float) -> Edge | None:
    rows = study.quantity_rows(quantity, "") if quantity else pd.DataFrame()
    if rows.empty or not np.isfinite(rows["estimate"].iloc[0]):
        return None
    r = rows.iloc[0]
    low, high = clip_interval(r["low"], r["high"], (0.0, 1.0))
    return Edge(r["estimate"], low, high, fair, _claim_verdict(study, quantity, ""))


def _largest_seat_edge(study: Study, quantity: str, fair: float) -> Edge | None:
    rows = study.quantity_rows(quantity, "seat") if quantity else pd.DataFrame()
    rows = rows[np.isfinite(rows["estimate"])] if len(rows) else rows
    if len(rows) < 2:
        return None
    r = rows.loc[(rows["estimate"] - fair).abs().idxmax()]
    low, high = clip_interval(r["low"], r["high"], (0.0, 1.0))
    return Edge(r["estimate"], low, high, fair, _claim_verdict(study, quantity, "seat", r["group"]),
                study.group_label("seat", r["group"]))


def _study_key(study: Study) -> tuple[str, str] | None:
    """(row, rung) of a study in the advantage table, or None (no such table, mixed seats)."""
    adv = study.view.advantage
    setup = study.scenario.setup
    if adv is None or not (adv.rung or setup.identical_players):
        return None
    return adv.row or setup.mode, adv.rung or setup.seats[0].policy.name


def advantage_cells(studies: list[Study]) -> dict[tuple[str, str], dict[str, Edge]]:
    """(row, rung) -> the cell's lines (ADVANTAGE_LINES) that some study measures. The first player
    and the seats come from the cell's first study where nobody chooses who goes first (a forced
    first seat), else from its first study with the choice ("first (chosen)"); the chooser's edge
    from its first study with the choice."""
    forced: dict[tuple[str, str], Study] = {}
    chosen: dict[tuple[str, str], tuple[Study, Edge]] = {}
    for s in studies:
        key = _study_key(s)
        if key is None:
            continue
        chooser = _ungrouped_edge(s, s.view.advantage.chooser, s.view.advantage.fair)
        if chooser is None:
            forced.setdefault(key, s)
        else:
            chosen.setdefault(key, (s, chooser))
    cells = {}
    for key in dict.fromkeys([*forced, *chosen]):
        cell = {}
        s = forced.get(key) or chosen[key][0]
        adv = s.view.advantage
        first = _ungrouped_edge(s, adv.first, adv.fair)
        if first is not None:
            first.what = "" if key in forced else "chosen"
            cell["first player"] = first
        seat = _largest_seat_edge(s, adv.seat, adv.fair)
        if seat is not None:
            cell["largest seat deviation"] = seat
        if key in chosen:
            cell["chooser's edge"] = chosen[key][1]
        cells[key] = cell
    return cells


def _ordered_keys(studies: list[Study], cells) -> tuple[list[str], list[str]]:
    """Rows in the order of the game's modes, rungs in the order of its ladder (others after)."""
    game = studies[0].game
    modes, ladder = list(game.modes), list(game.ladder)
    row_mode = {}
    for s in studies:
        key = _study_key(s)
        if key is not None:
            row_mode.setdefault(key[0], s.scenario.setup.mode)
    rows = sorted({r for r, _ in cells}, key=lambda r: (modes.index(row_mode[r]) if row_mode[r] in modes
                                                        else len(modes), r))
    rungs = sorted({c for _, c in cells}, key=lambda c: (ladder.index(c) if c in ladder else len(ladder), c))
    return rows, rungs


def _edge_text(line: str, e: Edge) -> str:
    est, low, high = e.points
    if line == "largest seat deviation":
        name = e.what  # the seat: "seat 2 - goes later"
    else:
        name = {"first player": "first", "chooser's edge": "chooser"}[line] + (f" ({e.what})" if e.what else "")
    verdict = f" {e.verdict}" if e.verdict else ""
    return f"{name} {e.estimate * 100:.1f}% ({est:+.1f} [{low:+.1f}, {high:+.1f}]){verdict}"


def advantage_table(studies: list[Study], cells: dict[tuple[str, str], dict[str, Edge]]) -> pd.DataFrame:
    """The opening table: one row per mode, one column per policy rung; each cell (``advantage_cells``)
    the first player's round win rate with its 95% interval and the verdict of its claim, the largest
    seat deviation, and with the True King's choice the chooser's edge (points from the fair share)."""
    if not cells:
        return pd.DataFrame()
    rows, rungs = _ordered_keys(studies, cells)
    fair = {}
    for s in studies:
        key = _study_key(s)
        if key is not None:
            fair.setdefault(key[0], s.view.advantage.fair)
    table = []
    for r in rows:
        entry = {"mode": r, "fair share": f"{fair[r] * 100:.1f}%"}
        for c in rungs:
            cell = cells.get((r, c), {})
            entry[c] = "\n".join(_edge_text(line, cell[line]) for line in ADVANTAGE_LINES if line in cell)
        table.append(entry)
    return pd.DataFrame(table)


RUNG_COLOURS = ("#7f7f7f", "#e08a1e", "#2a6fbb", "#8e3fb0", "#1b9e77", "#b3261e")


def advantage_figure(studies: list[Study], cells: dict[tuple[str, str], dict[str, Edge]]) -> bytes | None:
    """The opening table as dots: for each line (first player, largest seat deviation, chooser's
    edge) one panel, a row per mode, one dot per policy rung with its 95% interval, in points from
    the fair share (0: fair); a hollow dot: the claim on it fails."""
    if not cells:
        return None
    rows, rungs = _ordered_keys(studies, cells)
    lines = [line for line in ADVANTAGE_LINES if any(line in c for c in cells.values())]
    step = 0.8 / max(len(rungs), 1)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, len(lines), figsize=(PAGE_INCHES, len(rows) * len(rungs) * 0.16 + 1.3),
                                 squeeze=False, sharey=True, layout="constrained")
        for ax, line in zip(axes[0], lines):
            ax.axvline(0.0, color="#1d5f2b", linewidth=1.2)
            for j, rung in enumerate(rungs):
                colour = RUNG_COLOURS[j % len(RUNG_COLOURS)]
                for i, row in enumerate(rows):
                    e = cells.get((row, rung), {}).get(line)
                    if e is None:
                        continue
                    y = i - 0.4 + step * (j + 0.5)
                    est, low, high = e.points
                    ax.plot([low, high], [y, y], color=colour, linewidth=1.8)
                    ax.plot(est, y, "o", color=colour, markersize=4.5,
                            markerfacecolor="white" if e.verdict == FAILS else colour)
            ax.set_yticks(range(len(rows)), rows)
            ax.set_ylim(len(rows) - 0.5, -0.5)
            ax.grid(axis="y", visible=False)
            value_axis(ax.xaxis)
            ax.set_title(f"{line} (pts from fair)", loc="left")
        handles = [Line2D([], [], color=RUNG_COLOURS[j % len(RUNG_COLOURS)], marker="o", linewidth=1.8, label=r)
                   for j, r in enumerate(rungs)]
        handles.append(Line2D([], [], color="#444", marker="o", markerfacecolor="white", linewidth=0,
                              label="claim fails"))
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, bbox_to_anchor=(0.5, 1.0))
        return _png(fig)


def headline_panels(studies: list[Study]) -> list[tuple[str, str]]:
    """The game's declared headline panels, or the quantity of each study's first claim."""
    declared = studies[0].view.headline
    if declared:
        return list(declared)
    seen = []
    for s in studies:
        if s.scenario.claims:
            first = s.scenario.claims[0]
            if (first.quantity, first.by or "") not in seen:
                seen.append((first.quantity, first.by or ""))
    return seen


def headline_figure(studies: list[Study]) -> bytes | None:
    """The game's headline quantities for every study on one zoomed axis per panel, against each
    study's claim band: one row per study (or per study and group, under the study's name)."""
    panels = [(q, by) for q, by in headline_panels(studies)
              if any((s.summary["quantities"]["quantity"] == q).any() for s in studies)]
    if not panels:
        return None
    columns = []
    for quantity, by in panels:
        dots = []
        for s in studies:
            rows = study_dots(s, quantity, by, label_groups=bool(by))
            if by:
                dots.append(Dot(s.name, heading=True))
                dots += rows
            else:
                dots += rows or [Dot(s.name)]
        measured = next(s for s in studies if (s.summary["quantities"]["quantity"] == quantity).any())
        columns.append((measured.title(quantity, by), dots, measured.quantity_bounds(quantity),
                        measured.unit(quantity)))
    if len(columns) == 1 and len(columns[0][1]) > FOREST_SPLIT_ROWS:
        return _panel_grid(_split_forest(*columns[0]), columns=2, extra_rows=0.7, shared_x=True)
    height = max(len(c[1]) for c in columns) * ROW_INCHES + 1.0 + title_inches([c[0] for c in columns], len(columns))
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, len(columns), figsize=(PAGE_INCHES, height), squeeze=False,
                                 layout="constrained")
        first_labels = [d.label for d in columns[0][1]]
        for i, (ax, (title, dots, bounds, unit)) in enumerate(zip(axes[0], columns)):
            # a panel grouped otherwise (seats beside positions) names its own rows
            dot_panel(ax, dots, bounds, title, labels=i == 0 or [d.label for d in dots] != first_labels, unit=unit)
        verdict_legend(fig)
        return _png(fig)


def headline_heatmap(studies: list[Study]) -> bytes | None:
    """A grouped headline as a study x group heatmap: each cell's estimate (in % for shares),
    coloured by its distance from the claim's target, failing cells in bold."""
    quantity, by = headline_panels(studies)[0]
    if not by:
        return None
    cells = []
    for s in studies:
        for d, g in zip(study_dots(s, quantity, by, label_groups=False), s.quantity_rows(quantity, by)["group"]):
            cells.append({"study": s.name, "group": g, "estimate": d.estimate, "target": d.target,
                          "verdict": d.verdict})
    if not cells:
        return None
    cells = pd.DataFrame(cells)
    study_order = [s.name for s in studies if s.name in set(cells["study"])]
    group_order = list(dict.fromkeys(cells.sort_values("group")["group"]))
    distance = cells.assign(d=cells["estimate"] - cells["target"].fillna(cells["estimate"].mean()))
    grid = distance.pivot_table(index="study", columns="group", values="d", aggfunc="first")
    grid = grid.reindex(index=study_order, columns=group_order)
    points = studies[0].in_points(quantity)
    limit = max(np.nanmax(np.abs(grid.to_numpy())), 1e-9)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(PAGE_INCHES, len(study_order) * 0.3 + 1.8), layout="constrained")
        image = ax.imshow(grid.to_numpy(), cmap="RdBu_r", norm=TwoSlopeNorm(0.0, -limit, limit), aspect="auto")
        for r in cells.itertuples():
            y, x = study_order.index(r.study), group_order.index(r.group)
            text = f"{r.estimate * 100:.0f}" if points else f"{r.estimate:.3g}"
            ax.text(x, y, text, ha="center", va="center", fontsize=FONT_POINTS - 1,
                    fontweight="bold" if r.verdict == FAILS else "normal",
                    color=text_colour_on(image, grid.iat[y, x]))
        ax.set_xticks(range(len(group_order)), group_order, rotation=40, ha="right")
        ax.set_yticks(range(len(study_order)), study_order)
        ax.grid(False)
        ax.set_title(f"{studies[0].title(quantity, by)}; colour: estimate minus the claim's target; bold: the claim "
                     f"fails", loc="left", wrap=True)
        bar = fig.colorbar(image, ax=ax, shrink=0.6, label="estimate - target, points" if points
                           else "estimate - target")
        value_axis(bar.ax.yaxis, "points" if points else "")
        return _png(fig)


def lengths_by_study(studies: list[Study]) -> bytes | None:
    """The distribution of each length column in every study: box from the first to the third
    quartile, red median, blue mean, whiskers from the 5th to the 95th percentile."""
    columns = [c for c in studies[0].view.lengths if all(c in s.results.games.columns for s in studies)]
    if not columns:
        return None
    height = len(studies) * 0.26 + 1.0
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, len(columns), figsize=(PAGE_INCHES, height), squeeze=False, sharey=True,
                                 layout="constrained")
        for ax, column in zip(axes[0], columns):
            for y, s in enumerate(studies):
                values = s.results.games[column].to_numpy(float)
                p5, p25, p50, p75, p95 = np.percentile(values, [5, 25, 50, 75, 95])
                ax.plot([p5, p95], [y, y], color="#555", linewidth=1)
                ax.add_patch(plt.Rectangle((p25, y - 0.3), p75 - p25, 0.6, facecolor="#dfe8d8", edgecolor="#333"))
                ax.plot([p50, p50], [y - 0.3, y + 0.3], color="#b3261e", linewidth=1.5)
                ax.plot(values.mean(), y, "D", color="#234d8f", markersize=4)
            value_axis(ax.xaxis)
            ax.set_title(f"{column} per {studies[0].game.unit}", loc="left")
        axes[0][0].set_yticks(range(len(studies)), [s.name for s in studies])
        axes[0][0].set_ylim(len(studies) - 0.5, -0.5)
        return _png(fig)


def length_and_outcome_figure(study: Study) -> bytes | None:
    """Histograms of the study's length columns and the share of each outcome kind."""
    games = study.results.games
    columns = [c for c in study.view.lengths if c in games.columns]
    outcome = study.view.outcome if study.view.outcome in games.columns else ""
    count = len(columns) + bool(outcome)
    if not count:
        return None
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, count, figsize=(PAGE_INCHES, 2.6), squeeze=False, layout="constrained")
        for ax, column in zip(axes[0], columns):
            values = games[column].to_numpy()
            span = values.max() - values.min()
            bins = np.arange(values.min(), values.max() + 2) - 0.5 if span < 80 else 60
            ax.hist(values, bins=bins, color="#7aa874")
            ax.axvline(values.mean(), color="#234d8f", linewidth=1.2, label=f"mean {values.mean():.3g}")
            value_axis(ax.xaxis)
            ax.set_xlabel(f"{column} per {study.game.unit}")
            ax.set_ylabel(f"{study.game.unit}s")
            ax.legend(loc="best")
        if outcome:
            shares = games[outcome].value_counts(normalize=True).sort_index()
            ax = axes[0][-1]
            ax.barh(range(len(shares)), shares.to_numpy(), color="#6a8fc7")
            ax.set_yticks(range(len(shares)), shares.index)
            for y, v in enumerate(shares.to_numpy()):
                ax.text(v, y, f" {v:.1%}", va="center")
            ax.set_xlim(0, 1.15)
            value_axis(ax.xaxis, "%")
            ax.set_xlabel(f"share of {study.game.unit}s, %")
            ax.set_title("how games end", loc="left")
        return _png(fig)


def breakdown_figure(study: Study) -> bytes | None:
    """Groupings too long for a table (a quantity by round of the match): estimate with its 95%
    interval (clipped to the range) against the group, with the claim's band for that grouping."""
    q = study.summary["quantities"]
    panels = [(k, p) for k, p in q[q["by"] != ""].groupby(["quantity", "by"], sort=False)
              if _is_breakdown(p["group"]) and p["estimate"].notna().any()]
    if not panels:
        return None
    columns = 2 if len(panels) > 1 else 1
    rows = -(-len(panels) // columns)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(rows, columns, figsize=(PAGE_INCHES, 2.6 * rows), squeeze=False,
                                 layout="constrained")
        for ax in axes.flat[len(panels):]:
            ax.set_visible(False)
        for ax, ((quantity, by), part) in zip(axes.flat, panels):
            part = part[part["estimate"].notna()].copy()
            x = pd.to_numeric(part["group"], errors="coerce")
            x = x if x.notna().all() else pd.Series(range(len(part)), index=part.index)
            bounds = study.quantity_bounds(quantity)
            lo, hi = zip(*(clip_interval(a, b, bounds) for a, b in zip(part["low"], part["high"])))
            ax.fill_between(x, lo, hi, color="#6a8fc7", alpha=0.3, linewidth=0, label="95% interval")
            ax.plot(x, part["estimate"], "o-", color="#234d8f", markersize=3)
            for c in study.claims_on(quantity, "").itertuples():
                band = [v for v in claim_band(c.compare, c.target, c.tolerance) if np.isfinite(v)]
                ax.axhspan(*(band if len(band) == 2 else (band[0], band[0])), color=BAND_COLOUR, alpha=0.4)
            ax.set_xlabel(by)
            value_axis(ax.xaxis)
            value_axis(ax.yaxis, study.unit(quantity))
            ax.set_title(wrapped(ax, study.title(quantity, by)), loc="left")
        return _png(fig)


def convergence_plot(study: Study) -> bytes | None:
    seats = study.results.seats
    if "won" not in seats.columns:
        return None
    seat = seats["seat"].min()
    first = seats[seats["seat"] == seat].sort_values("game")
    run = running_estimate(first["won"].to_numpy())
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(PAGE_INCHES / 2, 2.8), layout="constrained")
        ax.plot(run["n"], run["estimate"], color="#333")
        ax.fill_between(run["n"], run["low"].clip(0, 1), run["high"].clip(0, 1), alpha=0.3)
        ax.set_xscale("log")
        # labels at powers of ten only, short ("10k"): 1-2-5 labels ran together ("1,0002,0005,000")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0,)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: count_label(v)))
        ax.xaxis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel(f"{plural(study.game.unit)} played")
        value_axis(ax.yaxis, "%")
        ax.set_ylabel(f"win rate of {study.group_label('seat', str(seat))}, %")
        return _png(fig)


def count_label(v: float) -> str:
    """A count as a short axis label: 100, 10k, 1M."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if v >= size:
            return f"{v / size:g}{suffix}"
    return f"{v:g}"


def matrix_heatmap(matrix: pd.DataFrame, game_word: str = "game", fair: float | None = None) -> bytes:
    """The policy ladder: the row policy's win rate (one seat) against the column policy; white at
    ``fair`` (default: the mean of the diagonal, where one policy sits in every seat: the average
    seat's rate, 1 / players with one winner a game, 3/4 when a cell counts not losing of four).
    Its square cells are at least as wide as their texts (an interval, a column's name) with a blank
    between neighbours: a figure whose texts overflow is drawn again that much taller (with seven
    rungs the intervals and names of neighbouring columns ran into each other). The figure saved is
    always one drawn afresh, never one laid out to be measured, so that its bytes stay reproducible."""
    size = (min(PAGE_INCHES, 2.2 + 1.3 * matrix["row"].nunique()), 1.2 + 0.7 * matrix["row"].nunique())
    with plt.rc_context(STYLE):
        fig, ax, texts = _matrix_figure(matrix, game_word, fair, size)
        overflow = _cell_overflow(fig, ax, texts, matrix["row"].nunique())
        plt.close(fig)
        fig, _, _ = _matrix_figure(matrix, game_word, fair, (size[0], size[1] * max(1.0, overflow)))
        return _png(fig)


def text_colour_on(image, value: float) -> str:
    """Black or white, whichever reads better on ``image``'s colour for ``value`` (WCAG's relative
    luminance: white below 0.179, where both contrast alike): a number on a heatmap's darkest cells
    stays legible."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in image.to_rgba(value)[:3]]
    return "white" if 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2] < 0.179 else "black"


def _matrix_figure(matrix: pd.DataFrame, game_word: str, fair: float | None, size: tuple[float, float]):
    """The heatmap of matrix_heatmap at ``size`` (inches): the figure, its axes and the texts that must
    fit their cells (each cell's rate and interval, each column's name)."""
    names = list(dict.fromkeys(matrix["row"]))
    grid = matrix.pivot(index="row", columns="column", values="win_rate").reindex(index=names, columns=names)
    fig, ax = plt.subplots(figsize=size, layout="constrained")
    if fair is None:
        fair = float(np.nanmean(np.diag(grid.to_numpy(float))))
    image = ax.imshow(grid.to_numpy(), cmap="RdBu_r", norm=TwoSlopeNorm(fair, 0.0, 1.0))
    cells = [ax.text(names.index(r.column), names.index(r.row),
                     f"{WIN_RATE.measured(r.win_rate)}\n{WIN_RATE.interval(*clip_interval(r.low, r.high, (0.0, 1.0)))}",
                     ha="center", va="center", fontsize=FONT_POINTS - 1, color=text_colour_on(image, r.win_rate))
             for r in matrix.itertuples()]
    category_ticks(ax.xaxis, range(len(names)), names, 1.1 * len(names))
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("policy in the other seats")
    ax.set_ylabel("policy in one seat")
    ax.grid(False)
    fig.colorbar(image, ax=ax, shrink=0.8, label="rate of the row policy", format=PointsFormatter(xmax=1.0))
    games = int(matrix["games"].max())
    players = f", {matrix['players'].iloc[0]} players" if "players" in matrix else ""
    ax.set_title(f"mode {matrix['mode'].iloc[0]}{players}: policy matrix, {games:,} {plural(game_word)} a "
                 f"cell; white: {WIN_RATE.measured(fair)}", loc="left")
    return fig, ax, [*cells, *ax.get_xticklabels()]


def _cell_overflow(fig, ax, texts, columns: int) -> float:
    """How many times wider than its cell the widest of ``texts`` is, a blank of half an em beside it
    (at most 1: every text fits). It lays the figure out to measure it."""
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()
    needed = max(t.get_window_extent(renderer).width for t in texts) + FONT_POINTS * renderer.points_to_pixels(0.5)
    return needed / (ax.get_window_extent(renderer).width / columns)


# ---- sweeps (balance.studies.sweep) --------------------------------------------------------
SWEEP_PANEL_COLUMNS = 3  # heatmap panels per row


def _positions(values: list) -> tuple[list[float], list[str] | None]:
    """x positions of swept values: the numbers themselves, or 0, 1, 2... with the values as labels."""
    if all(isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)) for v in values):
        return [float(v) for v in values], None
    return list(range(len(values))), [str(v) for v in values]


def category_ticks(axis, positions, labels: list[str], width_inches: float) -> None:
    """Named values along an x axis: level while they fit its width, else slanted so that long
    names (a deck, a list of roles) never run into each other."""
    slanted = text_inches(sum(len(label) + 2 for label in labels)) > width_inches
    axis.set_ticks(positions, labels, rotation=35 if slanted else 0, ha="right" if slanted else "center",
                   rotation_mode="anchor")


def sweep_line_figure(lines: dict[str, pd.DataFrame], key: str, default, band: tuple[float, float],
                      bounds: tuple[float, float], title: str, unit: str = "") -> bytes:
    """A one-key sweep: per group, the estimate against the swept value with its 95% interval as a
    band (columns value, estimate, low, high); the claim's band shaded, the scenario's own value a
    dashed line; the estimate's axis in ``unit`` (value_axis)."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(PAGE_INCHES * 0.7, 3.2), layout="constrained")
        values = list(dict.fromkeys(v for frame in lines.values() for v in frame["value"]))
        xs, labels = _positions(values)
        x_of = dict(zip(values, xs))
        for group, frame in lines.items():
            frame = frame.assign(x=[x_of[v] for v in frame["value"]]).sort_values("x")
            low, high = zip(*(clip_interval(lo, hi, bounds) for lo, hi in zip(frame["low"], frame["high"])))
            ax.plot(frame["x"], frame["estimate"], "o-", markersize=3.5, label=group or "estimate")
            ax.fill_between(frame["x"], low, high, alpha=0.2)
        lo, hi = band
        if np.isfinite(lo) or np.isfinite(hi):
            ax.axhspan(lo if np.isfinite(lo) else ax.get_ylim()[0], hi if np.isfinite(hi) else ax.get_ylim()[1],
                       color=BAND_COLOUR, alpha=0.35, linewidth=0, label="claim's band")
        if default in x_of:
            ax.axvline(x_of[default], color="#333", linestyle="--", linewidth=1, label=f"scenario: {default}")
        if labels:
            category_ticks(ax.xaxis, xs, labels, PAGE_INCHES * 0.5)
        else:
            value_axis(ax.xaxis)
        value_axis(ax.yaxis, unit)
        ax.set_xlabel(key)
        ax.set_title(wrapped(ax, title), loc="left")
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        return _png(fig)


def sweep_heatmap(panels: dict[str, pd.DataFrame], keys: tuple[str, str], default: tuple, target: float,
                  title: str, unit: str = "") -> bytes:
    """A two-key sweep: per group, the estimate over the grid (index: the first key's values,
    columns: the second's), each cell's text the estimate as the colour bar reads it (``unit``:
    value_text); blue below the claim's target, red above; the scenario's own cell outlined."""
    columns = min(SWEEP_PANEL_COLUMNS, len(panels))
    rows = -(-len(panels) // columns)
    first = next(iter(panels.values()))
    # a row at least as tall as the first key's name, which runs up the side of the first panel
    height = max(0.45 * len(first.index), text_inches(len(keys[0])) + 0.2) + 1.0
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(rows, columns, squeeze=False, layout="constrained",
                                 figsize=(PAGE_INCHES, rows * height))
        values = np.concatenate([p.to_numpy(float).ravel() for p in panels.values()])
        spread = max(np.nanmax(np.abs(values - target)) if np.isfinite(values).any() else 0.0, 1e-9)
        norm = TwoSlopeNorm(target, target - spread, target + spread)
        for ax, (group, grid) in zip(axes.ravel(), panels.items()):
            image = ax.imshow(grid.to_numpy(float), cmap="RdBu_r", norm=norm, aspect="auto")
            for (r, c), v in np.ndenumerate(grid.to_numpy(float)):
                if np.isfinite(v):
                    ax.text(c, r, value_text(v, unit), ha="center", va="center",
                            fontsize=FONT_POINTS - 1, color=text_colour_on(image, v))
            rows_at = [str(v) for v in grid.index]
            cols_at = [str(v) for v in grid.columns]
            if str(default[0]) in rows_at and str(default[1]) in cols_at:
                ax.add_patch(plt.Rectangle((cols_at.index(str(default[1])) - 0.5, rows_at.index(str(default[0])) - 0.5),
                                           1, 1, fill=False, edgecolor="black", linewidth=2))
            category_ticks(ax.xaxis, range(len(cols_at)), cols_at, PAGE_INCHES / columns * 0.6)
            ax.set_yticks(range(len(rows_at)), rows_at)
            ax.set_xlabel(keys[1])
            if ax in axes[:, 0]:  # the rows are the same in every panel: named once, on the left
                ax.set_ylabel(keys[0])
            ax.grid(False)
            ax.set_title(group or "estimate", loc="left")
        for ax in axes.ravel()[len(panels):]:
            ax.set_visible(False)
        bar = fig.colorbar(image, ax=axes, shrink=0.8, label=f"estimate (target {value_text(target, unit, 'g')})")
        value_axis(bar.ax.yaxis, unit)
        fig.suptitle(textwrap.fill(title, title_chars(PAGE_INCHES)), x=0.0, ha="left")
        return _png(fig)


# ---- the page ----------------------------------------------------------------------------
class Page:
    """A page as a list of blocks (headings, texts, tables, images...) that the templates
    (balance/templates/page.html.j2 and page.md.j2) draw as HTML and as Markdown; the images are
    embedded in the HTML and written beside the Markdown (in ``assets``)."""

    def __init__(self, assets: Path, title: str = "balance report"):
        self.blocks: list[dict] = []
        self.assets = assets
        self.title = title
        self.images: dict[str, bytes] = {}
        self.finding = ""  # the page's one-line finding (its meta description; reports/index.html)

    def heading(self, level: int, text: str, anchor: str = "") -> None:
        self.blocks.append({"kind": "heading", "level": level, "text": text, "anchor": anchor})

    def text(self, text: str, markup: str | None = None, css: str = "") -> None:
        """A paragraph; ``markup``: its HTML (trusted, made here) where it has more than the text."""
        if text:
            self.blocks.append({"kind": "text", "text": text, "css": css,
                                "markup": Markup(markup) if markup is not None else None})

    def table(self, df: pd.DataFrame, verdict_col: str | None = None, text_cols: tuple[str, ...] = (),
              links: dict[str, dict[str, str]] | None = None, news: dict[str, str] | None = None) -> None:
        if not df.empty:
            self.blocks.append(_table_block(df, verdict_col, text_cols, links, news))

    def image(self, name: str, png: bytes | None, alt: str, caption: str = "") -> None:
        if png is None:
            return
        self.images[name] = png
        width, height = (int.from_bytes(png[at:at + 4], "big") for at in (16, 20))  # the PNG's IHDR
        self.blocks.append({"kind": "image", "name": name, "alt": alt, "width": width, "height": height,
                            "data": base64.b64encode(png).decode()})
        self.text(caption, css="note")

    def findings(self, items: list[dict], related: list[dict] = ()) -> None:
        """The Findings block: one item per claim (where, text, verdict, detail, anchor), then the
        one-line findings of related pages (``see_item``)."""
        if items or related:
            self.blocks.append({"kind": "findings", "items": items, "related": list(related)})

    def contents(self, items: list[tuple[str, str, list[tuple[str, str]]]]) -> None:
        """A contents list: (title, anchor, [(title, anchor)...]) per entry; an anchor may name a page."""
        self.blocks.append({"kind": "contents", "items": items})

    def open_details(self, summary: str) -> None:
        self.blocks.append({"kind": "details", "summary": summary})

    def close_details(self) -> None:
        self.blocks.append({"kind": "end_details"})

    def open_section(self) -> None:
        self.blocks.append({"kind": "section"})

    def close_section(self) -> None:
        self.blocks.append({"kind": "end_section"})

    def render(self) -> tuple[str, str]:
        """The page's HTML and Markdown."""
        context = {"title": self.title, "finding": sentence(self.finding), "blocks": self.blocks,
                   "assets": self.assets.name}
        return (TEMPLATE_ENV.get_template("page.html.j2").render(context),
                re.sub(r"\n{3,}", "\n\n", MARKDOWN_ENV.get_template("page.md.j2").render(context)).strip() + "\n")


def _game_figures(page: Page, name: str, studies: list[Study], matrices: list[pd.DataFrame]) -> None:
    """A game's heading and figures over all its studies: the advantage table, the headline, the
    policy matrices."""
    game = studies[0].game
    page.heading(3, game.title, f"game-{name}")
    panels = headline_panels(studies)
    docs = "; ".join(f"{q.name}: {q.doc}" for q in game.quantities if q.name in {p for p, _ in panels})
    cells = advantage_cells(studies)
    advantage = advantage_table(studies, cells)
    if not advantage.empty:
        page.text("First-player and seat advantage by mode (rows) and policy rung (columns), self-play studies. "
                  "Each cell: the first player's (its side's) round win rate, with the points from the fair share "
                  "and their 95% interval, and the verdict of the study's claim on it (its band is in the "
                  "study's claims); the seat furthest from the fair share; with the True King's choice, the "
                  "chooser's round win rate. The first player and the seats come from the study with a forced "
                  "first seat where there is one (else: \"first (chosen)\").", css="note")
        page.table(advantage, text_cols=tuple(advantage.columns[2:]))
        page.image(f"{name}_advantage.png", advantage_figure(studies, cells), f"{game.title}: advantage",
                   "The table's lines as dots with 95% intervals, in points from the fair share (green line); "
                   "a hollow dot: the claim on it fails.")
    page.image(f"{name}_heatmap.png", headline_heatmap(studies), f"{game.title}: heatmap",
               "Each cell: a study's estimate for one group; blue below the claim's target, red above.")
    page.image(f"{name}_headline.png", headline_figure(studies), f"{game.title}: headline",
               f"Each dot: a study's estimate with its 95% interval, coloured by the verdict of the claim on it; "
               f"green: the values the claim allows; dark tick: its target. {docs}.")
    for i, matrix in enumerate(m for m in matrices if m["game"].iloc[0] == name):
        page.image(f"{name}_matrix_{i}.png", matrix_heatmap(matrix, studies[0].game_word),
                   f"{game.title}: policy matrix",
                   "The row policy's win rate in one seat against the column policy in every other seat, "
                   "with its 95% interval (from `balance matrix --json`).")


def _study_table(page: Page, name: str, studies: list[Study]) -> None:
    """A game's studies side by side: every claim's verdict, and the lengths."""
    game = studies[0].game
    page.table(verdict_summary(studies), "verdict", text_cols=("study", "claim", "verdict"),
               links={"study": {s.name: s.anchor for s in studies}})
    page.image(f"{name}_lengths.png", lengths_by_study(studies), f"{game.title}: length by study",
               "Length by study: box from the first to the third quartile, red median, blue mean, whiskers "
               "from the 5th to the 95th percentile.")


def _study_section(page: Page, s: Study) -> None:
    page.open_section()
    page.heading(3, s.scenario.title, s.anchor)
    page.text(s.scenario.description)
    claims = _claims_view(s.summary["claims"], s)
    if not claims.empty:
        page.heading(4, "Claims")
        page.table(claims, "verdict", text_cols=("claim", "group"))
    # the claims above answer; the setup and the figures behind them open on demand, so that a page
    # of many studies stays short enough to read (the Findings block and these claims come first)
    page.open_details(f"Setup, facts, figures and every quantity of {s.name}")
    rows = header_rows(s.scenario, s.summary)
    if s.game.cap_quantity:
        rows.append(("stopped by the cap", capped_text(s)))
    page.table(pd.DataFrame(rows, columns=["", "setup"]), text_cols=("setup",))
    facts = _facts_view(s)
    if not facts.empty:
        page.heading(4, "Facts of the setup (no sampling error)")
        page.table(facts)
    for analysis in s.summary.get("analyses", []):
        page.heading(4, analysis["title"])
        page.text(analysis["text"])
        page.table(analysis["table"], text_cols=tuple(c for c in analysis["table"].columns
                                                      if analysis["table"][c].dtype == object))
        page.text(analysis["method"], css="note")
    page.text(seat_uniformity_text(s))
    page.image(f"{s.anchor}_rates.png", rate_figure(s), f"{s.name}: rates")
    page.image(f"{s.anchor}_length.png", length_and_outcome_figure(s), f"{s.name}: length and outcomes")
    page.table(_quantity_view(s), text_cols=("quantity", "by", "group"))
    page.image(f"{s.anchor}_breakdown.png", breakdown_figure(s), f"{s.name}: breakdowns")
    page.image(f"{s.anchor}_convergence.png", convergence_plot(s), f"{s.name}: convergence")
    page.close_details()
    page.close_section()


MAX_STUDIES_PER_PAGE = 10  # a report of more studies is split into parts (Game.report_part), a page each


@dataclass
class Part:
    """A page of a split report: its title (Game.report_part), its file (beside the overview) and studies."""

    title: str
    file: str
    studies: list[Study]


def report_parts(studies: list[Study], output: Path) -> list[Part]:
    """The pages of a report too long for one (more than MAX_STUDIES_PER_PAGE studies): a part per
    title the games give (``Game.report_part``), in the order of the games' modes and player counts;
    none when the report stays one page."""
    titles: dict[str, list[Study]] = {}
    for s in studies:
        titles.setdefault(s.game.report_part(s.scenario.setup), []).append(s)
    if len(studies) <= MAX_STUDIES_PER_PAGE or len(titles) < 2:
        return []

    def first_mode(title: str) -> tuple[int, int]:
        return min((list(s.game.modes).index(s.scenario.setup.mode), s.scenario.setup.players)
                   for s in titles[title])

    def file(title: str) -> str:  # "3 players" -> report_3_players.html
        return f"{output.stem}_{re.sub(r'[^a-z0-9]+', '_', title.lower()).strip('_')}.html"

    return [Part(title, file(title), titles[title]) for title in sorted(titles, key=first_mode)]


def _by_game(studies: list[Study]) -> dict[str, list[Study]]:
    games: dict[str, list[Study]] = {}
    for s in studies:
        games.setdefault(s.game.name, []).append(s)
    return games


def _titles(studies: list[Study]) -> str:
    return ", ".join(dict.fromkeys(s.game.title for s in studies))


def _findings_and_summary(page: Page, studies: list[Study], more: tuple[str, str, list] | None = None,
                          see: list[dict] = ()) -> None:
    """The page's Findings block (its one-line finding too; then ``see``, the findings of related
    pages), its contents (with ``more``, an entry after the summary) and the summary's heading with
    the verdicts' legend."""
    items = finding_items(studies)
    page.finding = finding_line(items)
    page.findings(items, see)
    games = [(ss[0].game.title, f"game-{name}") for name, ss in _by_game(studies).items()]
    studies_entry = ("Studies", "studies", [(s.name, s.anchor) for s in studies])
    page.contents([("Findings", "findings", []), ("Summary", "summary", games), more or studies_entry])
    page.heading(2, "Summary", "summary")
    page.text(re.sub("<[^>]+>", "", VERDICT_LEGEND), VERDICT_LEGEND, css="note")


def _studies_sections(page: Page, studies: list[Study]) -> None:
    page.heading(2, "Studies", "studies")
    for s in studies:
        _study_section(page, s)


def _report_page(studies: list[Study], output: Path) -> Page:
    """The report's own page (not a part's), titled by its games."""
    titles = _titles(studies)
    return open_page(output, f"balance report: {titles}", f"{titles}: balance report")


def _one_page(studies: list[Study], output: Path, matrices: list[pd.DataFrame], see: list[dict]) -> Page:
    """The whole report on one page: findings, every game's figures and studies, the study sections."""
    page = _report_page(studies, output)
    _findings_and_summary(page, studies, see=see)
    for name, group in _by_game(studies).items():
        _game_figures(page, name, group, matrices)
        _study_table(page, name, group)
    _studies_sections(page, studies)
    return page


def _overview_page(studies: list[Study], parts: list[Part], output: Path, matrices: list[pd.DataFrame],
                   see: list[dict]) -> Page:
    """A split report's first page: every claim's finding (linked to its part page), every game's
    figures, and the parts with their verdicts."""
    page_of = {s.anchor: part.file for part in parts for s in part.studies}
    linked = [replace(s, page=page_of[s.anchor]) for s in studies]
    page = _report_page(studies, output)
    _findings_and_summary(page, linked, ("Parts", "parts", [(p.title, p.file) for p in parts]), see)
    for name, group in _by_game(linked).items():
        _game_figures(page, name, group, matrices)
    page.heading(2, "Parts", "parts")
    page.text("Each part is a page of its own: its findings, its studies' verdicts side by side and the "
              "studies' sections.", css="note")
    rows = [{"part": p.title, "studies": len(p.studies),
             "claims": _verdict_counts(i["verdict"] for i in finding_items(p.studies))}
            for p in parts]
    page.table(pd.DataFrame(rows), "claims", text_cols=("part",), links={"part": {p.title: p.file for p in parts}})
    return page


def _part_page(part: Part, output: Path) -> Page:
    """A part's page: a link back to the overview, its own findings, its studies' verdicts and lengths,
    and their sections."""
    titles = _titles(part.studies)
    page = open_page(output.with_name(part.file), f"balance report: {titles}, {part.title}", f"{titles}: {part.title}")
    back = f"Part of the balance report of {titles}: every part's findings and the summary figures are in the"
    page.text(f"{back} [overview]({output.with_suffix('.md').name}).",
              f'{html.escape(back)} <a href="{html.escape(output.name)}">overview</a>.', css="note")
    _findings_and_summary(page, part.studies)
    for name, group in _by_game(part.studies).items():
        page.heading(3, group[0].game.title, f"game-{name}")
        _study_table(page, name, group)
    _studies_sections(page, part.studies)
    return page


def write_report(studies, output: Path, matrices: list[pd.DataFrame] = (),
                 skill: dict[str, dict[str, SkillReading]] | None = None, see: list[Path] = ()) -> tuple[Path, Path]:
    """studies: (scenario, results, summary) triples; matrices: `balance matrix --json` tables
    (a ``game`` column places each under its game); skill: by scenario path (``scenario_key``),
    each claim's reading against skill (``skill_readings``), said in its finding; see: related
    pages (a sweep, restricted play, the ladder...) whose one-line findings close the Findings,
    linked. Writes output (.html), output.md and the Markdown's images in output_files/. A report of
    many studies (``report_parts``) is an overview there and a page per part beside it
    (output_<part>.html, .md, _files/)."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    studies = [replace(s, skill=(skill or {}).get(scenario_key(s.scenario.path), {})) for s in _studies(studies)]
    matrices = [pd.DataFrame(m) for m in matrices]
    parts = report_parts(studies, output)
    for part in parts:
        save_page(_part_page(part, output), output.with_name(part.file))
    related = [see_item(p, output) for p in see]
    page = (_overview_page(studies, parts, output, matrices, related) if parts
            else _one_page(studies, output, matrices, related))
    return save_page(page, output)


def see_item(page: Path, output: Path) -> dict:
    """A related page as a Findings item: its title (linked, relative to ``output``) and its one-line
    finding."""
    title, finding = page_summary(page)
    title = re.sub(r"^balance( report)?: ", "", title)
    said = title.rsplit(": ", 1)[-1] + ": "  # "...: restricted play" need not open its finding again
    finding = finding[len(said):] if finding.lower().startswith(said.lower()) else finding
    return {"where": title[0].upper() + title[1:], "anchor": os.path.relpath(page, Path(output).parent),
            "text": finding.rstrip("."), "verdict": "", "verdict_class": "", "detail": ""}


def open_page(output: Path, title: str, heading: str) -> Page:
    """The page to be saved as ``output``, with its head (``title``) and first heading; its images
    go beside it, in output_files/."""
    page = Page(output.with_name(output.stem + "_files"), title)
    page.heading(1, heading)
    return page


def save_page(page: Page, output: Path) -> tuple[Path, Path]:
    """Write the page as ``output`` (HTML), ``output.md`` and the Markdown's images in its assets
    folder (images no longer drawn are removed)."""
    assets = page.assets
    assets.mkdir(exist_ok=True)
    for old in assets.glob("*.png"):
        if old.name not in page.images:
            old.unlink()
    for name, png in page.images.items():
        (assets / name).write_bytes(png)
    md_path = output.with_suffix(".md")
    for path, text in zip((output, md_path), page.render()):
        write_atomic(path, text.encode("utf-8"))
    return output, md_path


# ---- restricted play (balance restrict) ----------------------------------------------------
# What a restricted-play verdict means for the game: an action that is important (a player loses by
# going without it) is news about the design, not bad news; a dominant one (forcing it wins more) is a
# strategy that may crowd out the others: red. A failed test is the quiet case (grey).
IMPORTANCE_NEWS = {HOLDS: "key", FAILS: "quiet", UNDECIDED: UNDECIDED}
DOMINANCE_NEWS = {HOLDS: FAILS, FAILS: "quiet", UNDECIDED: UNDECIDED}
NEWS_COLOURS = {"key": "#2a6fbb", "quiet": "#9a9a9a", FAILS: VERDICT_COLOURS[FAILS],
                UNDECIDED: VERDICT_COLOURS[UNDECIDED]}
NEWS_LABELS = {"importance": {"key": "important", "quiet": "not shown important", UNDECIDED: "undecided"},
               "gain": {FAILS: "dominant (forcing it wins more)", "quiet": "not dominant", UNDECIDED: "undecided"}}


def measured_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of a restricted-play table that measure something (an action never restricted
    in any game has no estimate: an empty row says nothing)."""
    effects = [c for c in ("importance", "gain") if c in table.columns]
    return table[table[effects].notna().any(axis=1)].reset_index(drop=True)


def importance_figure(study) -> bytes:
    """Horizontal bars: each action's importance (and, where played, its gain when forced) in
    points with 95% whiskers, coloured by what the verdict against the margin (dashed) means:
    blue important, red dominant, grey neither, amber undecided."""
    table = measured_rows(study.table)
    panels = [("importance", "important", IMPORTANCE_NEWS,
               "importance: win rate lost when forbidden (points)")]
    if table["gain"].notna().any():
        panels.append(("gain", "dominant", DOMINANCE_NEWS, "gain: win rate gained when forced (points)"))
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, len(panels), sharey=True, squeeze=False, layout="constrained",
                                 figsize=(PAGE_INCHES, 1.0 + ROW_INCHES * 1.3 * len(table)))
        y = np.arange(len(table))
        handles = []
        for ax, (effect, verdict, news, title) in zip(axes[0], panels):
            values = table[effect].to_numpy(float) * 100
            low, high = table[f"{effect}_low"].to_numpy(float) * 100, table[f"{effect}_high"].to_numpy(float) * 100
            colours = [NEWS_COLOURS[news[v]] if isinstance(v, str) and v in news else "#cccccc"
                       for v in table[verdict]]
            ax.barh(y, np.nan_to_num(values), color=colours, alpha=0.8)
            ax.errorbar(values, y, xerr=[values - low, high - values], fmt="none", ecolor="#222", capsize=2,
                        linewidth=1)
            ax.axvline(0, color="#444", linewidth=0.8)
            ax.axvline(study.margin * 100, color="#444", linewidth=0.8, linestyle="--")
            seats = table["action"].str.startswith("seat ").to_numpy()
            if seats.any() and not seats.all():  # the seats' rows apart from the actions'
                ax.axhline(np.argmax(seats) - 0.5, color="#888", linewidth=0.8)
            value_axis(ax.xaxis)
            ax.set_title(title, loc="left")
            ax.grid(axis="y", visible=False)
            handles += [plt.Rectangle((0, 0), 1, 1, color=NEWS_COLOURS[k], label=label)
                        for k, label in NEWS_LABELS[effect].items() if k != UNDECIDED]
        axes[0][0].set_yticks(y, table["action"])
        axes[0][0].set_ylim(len(table) - 0.5, -0.5)
        handles.append(plt.Rectangle((0, 0), 1, 1, color=NEWS_COLOURS[UNDECIDED], label=UNDECIDED))
        handles.append(Line2D([], [], color="#444", linestyle="--", label=f"margin {study.margin * 100:g} points"))
        fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False, bbox_to_anchor=(0.5, 1.0))
        return _png(fig)


RESTRICT_NOTE = ("Importance is what a player loses when forbidden the action (the rules still force it when "
                 "nothing else is legal); gain is what it wins when made to play it whenever legal. \"{lose}\" "
                 "and \"{gain}\" hold when the one-sided bound passes the margin, fail when the other bound stays "
                 "below it, else undecided (p-values Holm-adjusted over every test). Colours say what a verdict "
                 "means for the game: blue an important action, red a dominant one (forcing it wins more: a "
                 "strategy that may crowd out the others), grey neither, amber undecided.")


def write_restrict_report(study, title: str, output: Path) -> tuple[Path, Path]:
    """A restricted-play study (balance.studies.restrict) as a page with its findings, its importance
    chart and its table, and its Markdown copy (images in output_files/)."""
    from balance.studies.restrict import findings_text, header_text, questions, table_view

    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    page = open_page(output, f"{title}: restricted play", f"{title}: restricted play")
    found = findings_text(study)
    page.finding = f"Restricted play: {found}"
    page.findings([{"where": "Restricted play", "text": found, "verdict": "", "detail": "", "anchor": ""}])
    page.text(header_text(study) + ".")
    lose, gain = questions(study)
    page.text(RESTRICT_NOTE.format(lose=lose, gain=gain) + " Seat rows come from the baseline's games: the slot "
              "forced to sit at that seat, or never to.", css="note")
    page.image(f"{output.stem}_importance.png", importance_figure(study), f"{title}: importance",
               "Bars: the estimate, whiskers: its 95% interval (paired by deal), dashed: the margin.")
    view = table_view(replace(study, table=measured_rows(study.table)))
    page.table(view, verdict_col=lose, text_cols=("action",), news=IMPORTANCE_NEWS)
    return save_page(page, output)


# ---- policy robustness (balance check/report --robust) ------------------------------------
ROBUST_LEGEND = ("Every claim is played under every member of the policy family (each a table where every seat "
                 "is that kind of player), on the same deals (same seed). All claims x groups x members form one "
                 "family for Holm's correction. Under one member a claim fails when any of its groups fails and "
                 "holds when all hold. Reading: <b>robust holds</b> / <b>robust fails</b>: the same decided "
                 "verdict under every member; <b>policy-sensitive</b>: it holds under some members and fails under "
                 "others; <b>undecided</b>: otherwise. Strips: each member's estimate with its 95% interval, "
                 "coloured by its verdict, against the claim's band (green).")


STRIP_COLUMNS = 3  # group panels a row in members_strip


def members_strip(rob, claim_id: str) -> bytes | None:
    """One claim under every member of a policy family (or every skill rung): a panel per group, a
    row per member (estimate, 95% interval, verdict colour) against the claim's band. What the claim
    measures (its quantity's meaning, with its range and unit over every member's games) heads the
    figure; each panel is titled by its group's meaning. The groups' panels stand STRIP_COLUMNS a row
    on one axis, the members named in the first column (one full-width panel a group made a
    five-scenario DETHRONED page 24,791 px tall)."""
    part = rob.claims[rob.claims["claim"] == claim_id]
    if part.empty:
        return None
    setup = rob.scenario.setup
    claim = rob.scenario.claim(claim_id)
    quantity = setup.game.quantity(claim.quantity, claim.id)
    columns = [c for c in (quantity.column, quantity.denominator) if c]
    played = pd.concat([r.table(quantity.table)[columns] for r in rob.results.values()], ignore_index=True)
    bounds, unit = quantity_bounds(quantity, played), quantity_unit(quantity, played)
    measured = quantity_title(quantity.doc, unit)
    view = setup.game.report_view(setup)
    panels = []
    for group, rows in part.groupby("group", sort=False):
        dots = [Dot(r["member"], r["estimate"], r["low"], r["high"],
                    UNDECIDED if r["verdict"].startswith(UNDECIDED) else r["verdict"],
                    claim_band(r["compare"], r["target"], r["tolerance"]), r["target"]) for r in rows.to_dict("records")]
        panels.append((group_label(view, claim.by or "", group) or measured, dots, bounds, unit))
    if len(panels) == 1:
        return _panel_grid(panels, columns=1)
    # every group's panel has the same rows (the members): named once, in the first column, on one axis
    return _panel_grid(panels, columns=min(STRIP_COLUMNS, len(panels)), shared_x=True, shared_rows=True,
                       heading=measured)


def _family_table(members, setups, word: str) -> pd.DataFrame:
    """The members of a policy family (or the skill rungs, ``word``), numbered as the readings cite
    them, with the seats each plays."""
    return pd.DataFrame({"#": range(1, len(members) + 1), word: [m.name for m in members],
                         "seats": [", ".join(dict.fromkeys(seat.label for seat in s.seats)) for s in setups]})


def _facts_and_strips(page: Page, study, anchor: str, facts_are: str, members_are: str) -> None:
    """The end of a robustness or skill section (``study``: either): the facts of the setup (``facts_are``:
    "the same under every member"), then a heading, the text and the strip (members_strip) of each
    claim read (``members_are``: its alt text's "under every member")."""
    if len(study.facts):
        page.heading(3, f"Facts of the setup ({facts_are})")
        page.table(facts_table(study.facts))
    for r in study.readings.to_dict("records"):
        page.heading(3, f"{r['claim']}: {r['reading']}")
        page.text(r["text"])
        page.image(f"{anchor}_{r['claim']}.png", members_strip(study, r["claim"]), f"{r['claim']} {members_are}")


def _members_view(members, claims: pd.DataFrame, word: str = "member") -> pd.DataFrame:
    """The claims x members table, a row per member (the page's width holds a few claims, not
    eight member names): each member's verdict on the claim and its estimate (or their range over
    the claim's groups), in the claim's units."""
    from balance.studies.robust import estimates_text, member_verdict

    rows = {m.name: {"#": i + 1, word: m.name} for i, m in enumerate(members)}
    for claim, part in claims.groupby("claim", sort=False):
        for member, cells in part.groupby("member", sort=False):
            rows[member][claim] = f"{member_verdict(cells['verdict'])} {estimates_text(cells)}"
    return pd.DataFrame(list(rows.values()))


def _readings_view(rob) -> pd.DataFrame:
    """A row per claim: its reading, the range of estimates (in the claim's units), the members (by
    number) under which it holds, fails or stays undecided."""
    from balance.studies.robust import estimates_text

    number = {m.name: str(i + 1) for i, m in enumerate(rob.members)}
    rows = []
    for r in rob.readings.to_dict("records"):
        rows.append({"claim": r["claim"], "says": claim_words(rob.claim_rows(r["claim"]).iloc[0]),
                     "reading": r["reading"], "estimates": estimates_text(rob.claim_rows(r["claim"])),
                     **{f"{v} under #": ", ".join(number[m] for m in r[v]) or "—" for v in (HOLDS, FAILS, UNDECIDED)}})
    return pd.DataFrame(rows)


def _open_family_section(page: Page, study, anchor: str, members, word: str, members_heading: str,
                         rows: list[tuple[str, str]]) -> None:
    """The opening of a robustness or skill section (``study``: either): the scenario's title, its
    setup (the games played under each of ``members``, ``word`` each: "member" or "rung"; the seed;
    then ``rows``) and the members with their seats under ``members_heading``."""
    sc = study.scenario
    page.open_section()
    page.heading(2, sc.title, anchor)
    setup = [*scenario_rows(sc),
             ("played", f"{study.games:,} {plural(game_word(sc.setup))} under each of {len(members)} "
                        f"{plural(word)}, the same deals"),
             ("seed", str(sc.seed)), *rows]
    page.table(pd.DataFrame(setup, columns=["", "setup"]), text_cols=("setup",))
    page.heading(3, members_heading)
    page.table(_family_table(members, study.setups, word), text_cols=(word, "seats"))


def _robust_section(page: Page, rob, anchor: str) -> None:
    _open_family_section(page, rob, anchor, rob.members, "member", "Members",
                         [("family", f"Holm over {len(rob.claims)} tests (claims x groups x members)")])
    page.heading(3, "Readings")
    page.table(_readings_view(rob), "reading", text_cols=("claim",))
    page.heading(3, "Claims x members: each member's verdict and estimate (the range over a claim's groups)")
    page.table(_members_view(rob.members, rob.claims), text_cols=("member",))
    for c in rob.skipped:
        page.text(f"{c.id}: left out (it names a policy; under a family member every seat plays the same one).",
                  css="note")
    _facts_and_strips(page, rob, anchor, "the same under every member", "under every member")
    page.close_section()


def write_robust_report(robs, output: Path) -> tuple[Path, Path]:
    """The policy-robustness report of one or more scenarios (``balance.studies.robust.Robustness``)."""
    from balance.studies.robust import estimates_text

    items = [{"where": r["claim"], "anchor": "", "text": rob.scenario.claim(r["claim"]).text,
              "verdict": r["reading"], "verdict_class": _worst([r["reading"]]) or UNDECIDED,
              "detail": f"{rob.scenario.name}: estimates {estimates_text(rob.claim_rows(r['claim']))} over "
                        f"{len(rob.members)} members"}
             for rob in robs for r in rob.readings.to_dict("records")]
    return _scenario_sections_page(robs, output, "policy robustness", items,
                                   "claims under every member of the policy family", ROBUST_LEGEND, _robust_section)


def _scenario_sections_page(studies, output: Path, what: str, items: list[dict], finding: str, legend: str,
                            section) -> tuple[Path, Path]:
    """A page of one section per scenario (``section(page, study, anchor)``), its Findings first
    (``items``, summed up as "N ``finding``: k of each reading") and the ``legend``."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    titles = ", ".join(dict.fromkeys(st.scenario.setup.game.title for st in studies))
    page = open_page(output, f"balance: {titles} {what}", f"{titles}: {what}")
    readings = [i["verdict"] for i in items]
    page.finding = f"{len(items)} {finding}: {_verdict_counts(readings, dict.fromkeys(readings))}."
    page.findings(items)
    page.text(re.sub("<[^>]+>", "", legend), legend, css="note")
    used: set[str] = set()
    for st in studies:
        section(page, st, unique_anchor(st.scenario.name, used))
    return save_page(page, output)


# ---- verdicts read against skill (balance check/report --skill) ------------------------------
SKILL_LEGEND = ("Every claim is played by the scenario's players and again with every seat moved up together to "
                "the stronger skill rungs, on the same deals (same seed). Each claim is read on the two strongest "
                "rungs: <b>converged</b>: they agree within the margin (a share of the claim's tolerance), shown by "
                "a paired equivalence test, so the verdict at the strongest rung is the game's; <b>moves with "
                "skill</b>: they differ by more than the margin, so the verdict describes the players; "
                "<b>undecided</b>: neither is shown. Holm over the comparisons. Strips: each rung's estimate with its "
                "95% interval, coloured by its verdict, against the claim's band (green).")


def _skill_finding(study, r: dict) -> dict:
    from balance.studies.skill import reading_detail

    return {"where": r["claim"], "anchor": "", "text": r["text"], "verdict": r["reading"],
            "verdict_class": skill_reading_class(r),
            "detail": f"{study.scenario.name}: {reading_detail(r, study.comparisons, study.rungs[-1].name)}"}


def skill_reading_class(reading_row) -> str:
    """A skill reading's colour: a converged claim's verdict is the game's (its colour); moves with
    skill and undecided say nothing about the game yet (amber)."""
    from balance.studies.skill import CONVERGED

    return (_worst([reading_row["verdict"]]) or UNDECIDED) if reading_row["reading"] == CONVERGED else UNDECIDED


def _skill_section(page: Page, study, anchor: str) -> None:
    from balance.studies.skill import difference_text, share_text

    sc = study.scenario
    _open_family_section(page, study, anchor, study.rungs, "rung", "Rungs (weakest first)",
                         [("margin", f"{share_text(sc.skill.margin_share)} of each claim's tolerance"),
                          ("family", f"Holm over {len(study.comparisons)} comparisons; verdicts: Holm over "
                                     f"{len(study.claims)} tests")])
    page.heading(3, "Readings")
    rows = []
    for r in study.readings.to_dict("records"):
        comparisons = study.comparisons[study.comparisons["claim"] == r["claim"]].to_dict("records")
        rows.append({"claim": r["claim"], "reading": r["reading"],
                     "says": claim_words(study.claims[study.claims["claim"] == r["claim"]].iloc[0]),
                     "at the strongest rung": r["verdict"],
                     "strongest - second": "; ".join(difference_text(c) for c in comparisons)})
    page.table(pd.DataFrame(rows), "reading", text_cols=("claim", "strongest - second"))
    page.heading(3, "Claims x rungs: each rung's verdict and estimate (the range over a claim's groups)")
    page.table(_members_view(study.rungs, study.claims, "rung"), text_cols=("rung",))
    for c, why in study.skipped:
        page.text(f"{c.id}: left out ({why}).", css="note")
    _facts_and_strips(page, study, anchor, "the same for every player", "at every rung")
    page.close_section()


def write_skill_report(studies, output: Path) -> tuple[Path, Path]:
    """The skill report of one or more scenarios (``balance.studies.skill.SkillStudy``): each claim's
    estimate at every rung against its band, and its reading. Its readings go beside it as JSON
    (output.json, as `balance check --skill --json` prints them), for a balance report's Findings
    (``skill_readings``)."""
    from balance.studies.skill import skill_json

    items = [_skill_finding(st, r) for st in studies for r in st.readings.to_dict("records")]
    pages = _scenario_sections_page(studies, output, "verdicts against skill", items,
                                    "claims read against stronger players", SKILL_LEGEND, _skill_section)
    write_atomic(Path(output).with_suffix(".json"),
                 (json.dumps(to_jsonable([skill_json(st) for st in studies]), indent=2) + "\n").encode())
    return pages


@dataclass(frozen=True)
class SkillReading:
    """One claim's reading against skill, as a balance report's finding says it."""

    row: dict  # its row of the skill study's readings
    comparisons: pd.DataFrame  # the skill study's comparisons
    rungs: tuple[str, ...]  # weakest first: the scenario's players, then the stronger rungs
    size: str  # the games (matches) played at each rung

    def detail(self) -> str:
        from balance.studies.skill import reading_detail

        return (f"{rung_names(self.rungs[1:])} in every seat, {self.size} a rung, the same deals: "
                f"{reading_detail(self.row, self.comparisons, self.rungs[-1])}")


def rung_names(names: tuple[str, ...]) -> str:
    """Rungs as a sentence names them, the words they share said once: "tree search, 256 and 1024
    iterations" for "tree search, 256 iterations" and "tree search, 1024 iterations"."""
    words = [name.split(" ") for name in names]
    lead = len(os.path.commonprefix(words))
    tail = len(os.path.commonprefix([w[lead:][::-1] for w in words]))
    middles = [" ".join(w[lead:len(w) - tail]) for w in words]
    if len(names) < 2 or not all(middles):
        middles, lead, tail = list(names), 0, 0
    listed = ", ".join(middles[:-1]) + " and " + middles[-1] if len(middles) > 1 else middles[0]
    return " ".join([*words[0][:lead], listed, *words[0][len(words[0]) - tail:]])


def scenario_key(path) -> str:
    """A scenario file as a skill study names it and a report finds it again: its resolved path
    ("" for a scenario without a file)."""
    return str(Path(path).resolve()) if path else ""


def skill_readings(studies: list[dict], unit: dict[str, str]) -> dict[str, dict[str, SkillReading]]:
    """Skill studies' readings (`balance check --skill --json`, or the JSON a skill page writes beside
    it) by scenario (``scenario_key``) and claim id; ``unit``: each scenario's word for what a rung
    counts ("games", "matches")."""
    found: dict[str, dict[str, SkillReading]] = {}
    for st in studies:
        key = scenario_key(st["study"]["scenario"])
        comparisons = pd.DataFrame(st["comparisons"]).astype({"estimate": float, "decide_low": float,
                                                              "decide_high": float, "margin": float})
        rungs = tuple(r["name"] for r in st["rungs"])
        size = f"{st['games']:,} {unit.get(key, 'games')}"
        found[key] = {r["claim"]: SkillReading(r, comparisons, rungs, size) for r in st["readings"]}
    return found


# ---- the skill ladder (balance ladder) ----------------------------------------------------
def ratings_figure(ladder) -> bytes:
    """Each rung's Bradley-Terry rating (Elo points) with its 95% interval, strongest on top."""
    order = ladder.ratings.sort_values("rating", ascending=False)
    dots = [Dot(r.rung, r.rating, r.low, r.high) for r in order.itertuples()]
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(PAGE_INCHES * 0.6, len(dots) * ROW_INCHES * 1.6 + 0.9), layout="constrained")
        dot_panel(ax, dots, (-np.inf, np.inf),
                  f"Bradley-Terry rating, Elo points ({ladder.rungs[0]} = 0), 95% interval")
        ax.axvline(0, color="#555", linewidth=0.8)
        return _png(fig)


def _ladder_finding(lad) -> dict:
    """A mode's finding: whether its ladder meets the search goal (``Ladder.goal``: its top search rung
    against the best hand-written rung, and its budgets), else how much skill matters."""
    from balance.studies.ladder import skill_text

    item = {"where": f"{lad.mode}, {lad.players} players", "anchor": f"mode-{lad.mode}-{lad.players}"}
    goal = lad.goal()
    if goal is None:
        return {**item, "text": skill_text(lad.skill()), "verdict": "", "verdict_class": "", "detail": ""}
    why = f"{goal.shortfall}; " if goal.shortfall else ""
    ratings = ", ".join(f"{rung} {lad.rating_text(rung)}" for rung in (goal.top.rung, goal.top.other))
    return {**item, "text": goal.text(), "verdict": goal.verdict, "verdict_class": HOLDS if goal.met else FAILS,
            "detail": f"{why}Elo above {lad.rungs[0]}: {ratings}; {lad.games:,} {plural(lad.game_word)} a cell"}


def write_ladder_report(ladders, output: Path) -> tuple[Path, Path]:
    """The skill ladder of one game in one or more modes (``balance.studies.ladder.Ladder``): its Findings
    first (per mode, whether the search goal is met: _ladder_finding), then per mode the win-rate
    heatmap, the ratings and how much skill matters."""
    from balance.studies.ladder import BOOTSTRAP_REPLICATES, average_seat_note, skill_text

    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    game = ladders[0].game
    page = open_page(output, f"balance: {game.title} skill ladder", f"{game.title}: skill ladder")
    items = [_ladder_finding(lad) for lad in ladders]
    page.finding = ". ".join(f"{i['where']}: {i['text']}" + (f" {i['verdict']}" if i["verdict"] else "")
                             for i in items) + "."
    page.findings(items)
    page.text(f"Each rung (a policy, weakest first: {', '.join(ladders[0].rungs)}) plays in one seat against "
              f"another rung in every other seat, every deal replayed under every seat rotation, the same deals in "
              f"every cell. The ratings are a Bradley-Terry fit (maximum likelihood, scipy.optimize) on the pairwise "
              f"win counts: in a game the one-seat player beats each other seat that did not win when it won, and "
              f"each other seat that won beats it. Intervals: 95% percentile bootstrap over deals "
              f"({BOOTSTRAP_REPLICATES} replicates, the same deals resampled in every cell). A rung against itself "
              f"is not played.", css="note")
    skills = pd.DataFrame([lad.skill() for lad in ladders])
    page.heading(2, "How much skill matters")
    page.table(pd.DataFrame({"mode": skills["mode"], "players": skills["players"], "best rung": skills["best"],
                             "against": skills["against"],
                             "win rate": [WIN_RATE.measured(r.get("win_rate", np.nan))
                                          for r in skills.to_dict("records")],
                             "95% interval": [WIN_RATE.interval(*clip_interval(r["low"], r["high"], (0.0, 1.0)))
                                              if np.isfinite(r.get("low", np.nan)) else "—"
                                              for r in skills.to_dict("records")],
                             "average seat": [WIN_RATE.measured(a) for a in skills["average_seat"]]}))
    for lad in ladders:
        page.heading(2, lad.setup_text[0].upper() + lad.setup_text[1:], f"mode-{lad.mode}-{lad.players}")
        skill = skill_text(lad.skill())
        page.text(f"{lad.games:,} {plural(lad.game_word)} a cell ({lad.deals:,} deals), seed {lad.seed}. "
                  f"{skill[0].upper()}{skill[1:]}.")
        page.image(f"{lad.mode}_{lad.players}_matrix.png", matrix_heatmap(lad.matrix, lad.game_word, lad.average),
                   f"{game.title}, {lad.mode}: win-rate matrix",
                   f"The row rung's win rate{' per round' if game.unit == 'round' else ''} in one seat against the "
                   f"column rung in every other seat, with its 95% interval; white: the average seat's win rate "
                   f"({WIN_RATE.measured(lad.average)}: {average_seat_note(lad.average, lad.players, game.unit)}).")
        page.image(f"{lad.mode}_{lad.players}_ratings.png", ratings_figure(lad), f"{game.title}, {lad.mode}: ratings")
        table = lad.ratings.sort_values("rating", ascending=False)
        page.table(pd.DataFrame({"rung": table["rung"], "rating (Elo)": [round(r) for r in table["rating"]],
                                 # the anchor's rating is 0 by definition, not a measured [+0, +0]
                                 "95% interval": ["— (the reference)" if lo == hi else f"[{round(lo):+d}, {round(hi):+d}]"
                                                  for lo, hi in zip(table["low"], table["high"])],
                                 "comparisons won": table["comparisons_won"].round(0).astype(int),
                                 "comparisons lost": table["comparisons_lost"].round(0).astype(int)}))
    return save_page(page, output)


# ---- reports/index.html ---------------------------------------------------------------------
GAME_FOLDERS = {"take_the_throne": "Take the Throne", "dethroned": "DETHRONED", "imposter_kings": "The Imposter Kings",
                "throne_arcade": "Throne Arcade", "thron_der_luegen": "Thron der Lügen"}


def page_summary(path: Path) -> tuple[str, str]:
    """A report page's title and one-line finding (its meta description; "" for an older page)."""
    head = path.read_text(encoding="utf-8")[:4000]
    title = re.search(r"<title>([^<]*)</title>", head)
    finding = re.search(r'<meta name="description" content="([^"]*)"', head)
    return (html.unescape(title.group(1)) if title else path.stem,
            html.unescape(finding.group(1)) if finding else "")


def write_index(folder: Path) -> Path:
    """``folder``/index.html: every report page under ``folder`` (one sub-folder per game) with its
    one-line finding."""
    games = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        pages = []
        for page in sorted(sub.glob("*.html")):
            title, finding = page_summary(page)
            pages.append({"href": f"{sub.name}/{page.name}", "title": title, "finding": finding})
        if pages:
            games.append((GAME_FOLDERS.get(sub.name, sub.name), pages))
    out = folder / "index.html"
    out.write_text(TEMPLATE_ENV.get_template("index.html.j2").render(games=games), encoding="utf-8")
    return out
