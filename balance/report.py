"""Balance reports: HTML (plots embedded) and Markdown (plots beside it) for one or more studies.

Each study section has a header (game, mode, options, policies, games, seed, assumed facts), the
claims table with verdicts, every declared quantity with its interval, seat uniformity, and plots:
rates with interval bars per seat and per policy, the distribution of game length, and the
convergence of the estimate over games.
"""

from __future__ import annotations

import base64
import html
import io
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from balance.stats import count_text, format_p, p_clause, running_estimate  # noqa: E402

CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.holds{color:#187a2f;font-weight:bold}
.fails{color:#b3261e;font-weight:bold}.undecided{color:#8a6d00}code{background:#f6f6f6;padding:1px 4px}
img{max-width:100%}"""


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def rate_plot(quantities: pd.DataFrame, title: str) -> bytes | None:
    rates = quantities[(quantities["quantity"] == "win_rate") & (quantities["by"] != "")]
    if rates.empty:
        return None
    groups = list(rates.groupby("by", sort=False))
    fig, axes = plt.subplots(1, len(groups), figsize=(5 * len(groups), 3.2), squeeze=False)
    for ax, (by, part) in zip(axes[0], groups):
        y = part["estimate"].to_numpy()
        err = np.vstack([y - part["low"].to_numpy(), part["high"].to_numpy() - y])
        ax.bar(range(len(part)), y, color="#6a8fc7")
        ax.errorbar(range(len(part)), y, yerr=err, fmt="none", ecolor="black", capsize=4)
        ax.set_xticks(range(len(part)), part["group"], rotation=20, ha="right", fontsize=8)
        ax.set_ylabel("win rate (95% interval)")
        ax.set_title(f"{title}: win rate by {by}", fontsize=9)
        fair = 1 / max(1, len(part)) if by in ("seat", "role") else None
        if fair:
            ax.axhline(fair, color="grey", linestyle="--", linewidth=1)
    return _png(fig)


def length_plot(games: pd.DataFrame, column: str, title: str) -> bytes | None:
    if column not in games.columns:
        return None
    fig, ax = plt.subplots(figsize=(5, 3.2))
    values = games[column].to_numpy()
    bins = np.arange(values.min(), values.max() + 2) - 0.5 if values.max() - values.min() < 80 else 60
    ax.hist(values, bins=bins, color="#7aa874")
    ax.set_xlabel(column)
    ax.set_ylabel("count")
    ax.set_title(f"{title}: distribution of {column}", fontsize=9)
    return _png(fig)


def convergence_plot(seats: pd.DataFrame, title: str) -> bytes | None:
    if "won" not in seats.columns:
        return None
    first = seats[seats["seat"] == seats["seat"].min()].sort_values("game")
    run = running_estimate(first["won"].to_numpy())
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(run["n"], run["estimate"], color="#333")
    ax.fill_between(run["n"], run["low"], run["high"], alpha=0.3)
    ax.set_xscale("log")
    ax.set_xlabel("games")
    ax.set_ylabel(f"win rate of seat {first['seat'].min()}")
    ax.set_title(f"{title}: convergence", fontsize=9)
    return _png(fig)


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _html_table(df: pd.DataFrame, verdict_col: str | None = None) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for row in df.itertuples(index=False):
        cells = []
        for col, v in zip(df.columns, row):
            cls = f' class="{str(v).split()[0]}"' if col == verdict_col else ""
            cells.append(f"<td{cls}>{html.escape(_fmt(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def markdown_table(df: pd.DataFrame) -> str:
    lines = ["| " + " | ".join(map(str, df.columns)) + " |", "|" + "---|" * len(df.columns)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt(v) for v in row) + " |")
    return "\n".join(lines)


def _claims_view(claims: pd.DataFrame) -> pd.DataFrame:
    """The verdict table: the estimate with its 95% interval, the interval that decides (at the
    level Holm and the looks leave), the effect in the claim's units, adjusted p-values."""
    if claims.empty:
        return claims
    view = claims[["claim", "group", "estimate", "low", "high", "decide_low", "decide_high", "compare", "target",
                   "tolerance"]].copy()
    scale = np.where(claims["proportion"], 100.0, 1.0)
    view.insert(7, "effect", [f"{v:+.3g}{' pts' if p else ''}" for v, p in
                              zip((claims["estimate"] - claims["target"]) * scale, claims["proportion"])])
    view["p (holds)"] = claims["p_holds_adjusted"].map(format_p)
    view["p (fails)"] = claims["p_fails_adjusted"].map(format_p)
    view["verdict"] = claims["verdict"]
    return view.rename(columns={"low": "95% low", "high": "95% high", "decide_low": "deciding low",
                                "decide_high": "deciding high"})


def _facts_view(facts: pd.DataFrame) -> pd.DataFrame:
    view = facts[["claim", "group", "value", "compare", "target", "tolerance"]].copy()
    view["inside the band"] = np.where(facts["inside"], "inside", "outside")
    view["verdict"] = facts["verdict"]
    return view


def header_rows(scenario, summary) -> list[tuple[str, str]]:
    d = scenario.describe()
    rows = [("game", f"{scenario.setup.game.title} ({d['game']})"), ("scenario", str(d["scenario"])),
            ("mode", d["mode"]), ("players", str(d["players"])),
            ("options", ", ".join(f"{k}={v}" for k, v in d["options"].items()) or "defaults"),
            ("policies by seat slot", ", ".join(d["policies"])),
            ("seat rotation", d["rotation"]),
            ("games", count_text(summary)), ("seed", str(d["seed"])),
            ("cap", f"{d['max_length']} {scenario.setup.game.unit}s"
                    if scenario.setup.game.unit == "round" else f"{d['max_length']} rounds/turns")]
    if d["assumed"]:
        rows.append(("assumed facts in use", ", ".join(d["assumed"]) + " (see the rules supplement)"))
    return rows


def write_report(studies, output: Path) -> tuple[Path, Path]:
    """studies: (scenario, results, summary) triples. Writes output (.html) and output.md."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    assets = output.with_name(output.stem + "_files")
    assets.mkdir(exist_ok=True)
    html_parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>balance report</title>"
                  f"<style>{CSS}</style></head><body><h1>Balance report</h1>"]
    md_parts = ["# Balance report", ""]
    overview = []
    for scenario, _, summary in studies:
        for r in summary["claims"].itertuples():
            overview.append({"study": scenario.name, "claim": r.claim, "group": r.group, "estimate": r.estimate,
                             "95% low": r.low, "95% high": r.high, "deciding low": r.decide_low,
                             "deciding high": r.decide_high, "verdict": r.verdict})
        for r in summary.get("facts", pd.DataFrame()).itertuples():
            overview.append({"study": scenario.name, "claim": r.claim, "group": r.group, "estimate": r.value,
                             "95% low": "fixed fact", "95% high": "", "deciding low": "", "deciding high": "",
                             "verdict": r.verdict})
    if overview:
        ov = pd.DataFrame(overview)
        html_parts.append("<h2>All claims</h2>" + _html_table(ov, "verdict"))
        md_parts += ["## All claims", "", markdown_table(ov), ""]
    html_parts.append("<p>Estimates come with 95% intervals, the deal as the sampling unit (rates: exact "
                      "binomial bounds on the effective number of deals; means and ratios: cluster-robust, "
                      "bootstrap-t over few deals). The <i>deciding</i> interval is the pair of one-sided bounds "
                      "at the level left after Holm's correction over the study's claims and the alpha spent at "
                      "the look: an <i>about</i> claim holds when it lies inside the band (edges included) and "
                      "fails when it lies outside; an <i>at most</i> / <i>at least</i> claim holds or fails by "
                      "its upper / lower bound. p-values are adjusted for Holm and the looks. Fixed facts of the "
                      "setup have no interval and are not tested.</p>")
    for scenario, results, summary in studies:
        name = scenario.name
        title = scenario.title
        html_parts.append(f"<h2>{html.escape(title)}</h2>")
        md_parts += [f"## {title}", ""]
        if scenario.description:
            html_parts.append(f"<p>{html.escape(scenario.description)}</p>")
            md_parts += [scenario.description, ""]
        head = pd.DataFrame(header_rows(scenario, summary), columns=["", "study"])
        html_parts.append(_html_table(head))
        md_parts += [markdown_table(head), ""]
        claims = _claims_view(summary["claims"])
        if not claims.empty:
            html_parts.append("<h3>Claims</h3>" + _html_table(claims, "verdict"))
            md_parts += ["### Claims", "", markdown_table(claims), ""]
        facts = summary.get("facts")
        if facts is not None and not facts.empty:
            view = _facts_view(facts)
            html_parts.append("<h3>Facts of the setup</h3>" + _html_table(view, "verdict"))
            md_parts += ["### Facts of the setup", "", markdown_table(view), ""]
        uni = summary.get("seat_uniformity")
        if uni and uni["df"]:
            text = (f"Seat uniformity: {uni['test']}, statistic {uni['statistic']:.2f} on {uni['df']}"
                    f"{', ' + str(uni['df2']) if 'df2' in uni else ''} df, {p_clause(uni['p'])}.")
            html_parts.append(f"<p>{text}</p>")
            md_parts += [text, ""]
        q = summary["quantities"][["quantity", "by", "group", "estimate", "low", "high", "n", "method"]]
        html_parts.append("<h3>Quantities</h3>" + _html_table(q))
        md_parts += ["### Quantities", "", markdown_table(q), ""]
        plots = [("rates", rate_plot(summary["quantities"], title)),
                 ("length", length_plot(results.games, scenario.setup.game.length_column, title)),
                 ("convergence", convergence_plot(results.seats, title))]
        for kind, png in plots:
            if png is None:
                continue
            file = assets / f"{name}_{kind}.png"
            file.write_bytes(png)
            html_parts.append(f"<img alt='{kind}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>")
            md_parts += [f"![{kind}]({assets.name}/{file.name})", ""]
    html_parts.append("</body></html>")
    md_path = output.with_suffix(".md")
    for path, text in ((output, "\n".join(html_parts)), (md_path, "\n".join(md_parts))):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    return output, md_path
