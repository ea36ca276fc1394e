"""What-if sweeps: a scenario played in many cells, each changing some of its keys.

A cell is the scenario with some keys changed (``--vary KEY=V1,V2`` or the scenario's [sweep]
table, documented in ``balance.engine.scenario``). Keys: ``options.X``, ``players``, ``mode``,
``max_length``, a game table (``roles``...), ``seats.policy`` / ``seats.params.X`` (every seat)
and ``seats[i].policy`` / ``seats[i].params.X`` (seat i). Every cell is built and validated
before any game is played.

Each cell is a study folder (``--out DIR/<scenario>/<cell>``, resumable like ``balance run``)
played with the scenario's own seed, so every cell plays the same deals (common random numbers).
Each cell reports the scenario's claims with intervals and verdicts; the sampled claims of all
cells (and of every swept scenario) form one family, adjusted by Benjamini-Hochberg (false
discovery rate, the default) or Holm (family-wise). For each cell and claim group, the paired
difference from the baseline cell (the scenario's own values) is the difference of the two
estimates with a cluster-robust (delta-method) interval over deals: deal d of the cell is paired
with deal d of the baseline. A cell that changes the deal itself (the player count, the mode, a
game table such as the roles, or a deck option) keeps only the deal's seed in common with its
baseline: the difference stays valid, but the pairing removes less noise; the output says so.
A cell identical to the baseline (the same setup to the last digit) is played once and differs
by exactly 0.
"""

from __future__ import annotations

import copy
import glob
import hashlib
import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import false_discovery_control

from balance.engine.runner import (DEFAULT_CHUNK, IN_PROCESS, Executor, Results, Tracker, round_to_deals,
                                   run_to_folder, study_identity, study_key)
from balance.engine.scenario import Scenario, ScenarioError, load_scenario, parse_scenario, read_scenario_data
from balance.games import get_game
from balance.stats import (ALPHA, LEVEL, StudentT, Units, claim_band, claim_rows, decide, holm,
                           reads_in_points, unit_scale)

ADJUSTMENTS = {"bh": lambda p: false_discovery_control(p, method="bh") if len(p) else p, "holm": holm}
ADJUST_WORDS = {"bh": "Benjamini-Hochberg (false discovery rate)", "holm": "Holm (family-wise error)"}
FIXED_KEYS = {"game", "seed", "games", "precision", "claims", "title", "description", "sweep", "min_deals", "rotate"}
SEAT_KEY = re.compile(r"^seats(?:\[(\d+)\])?\.(policy|params\.(\w+))$")
SWEEP_KEYS = {"vary", "cells", "scenarios"}
MAX_FOLDER_NAME = 80  # longer cell names are shortened to a hash
BASELINE = "baseline"


class SweepError(Exception):
    """Bad sweep input: one line naming the file or flag and the key."""


@dataclass
class Cell:
    base: str  # the swept scenario's name
    label: str
    changes: dict[str, Any]
    scenario: Scenario
    deal_changed: bool  # the cell changes the deal itself: pairing with the baseline is approximate

    @property
    def baseline(self) -> bool:
        return not self.changes


@dataclass
class Sweep:
    title: str
    keys: list[str]  # swept keys, in order
    grid: list[str]  # the keys of the grid (``vary``): one or two draw line plots / heatmaps
    cells: list[Cell]
    bases: list[Scenario]
    defaults: dict[str, dict[str, Any]] = field(default_factory=dict)  # base -> key -> the scenario's value


# ---- parsing ---------------------------------------------------------------------------------
def toml_value(text: str) -> Any:
    """A value as TOML reads it (true, 3, 2.5, "art", [..]); a bare word is a string."""
    try:
        return tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def parse_vary(text: str, flag: str = "--vary") -> tuple[str, list[Any]]:
    """``KEY=V1,V2,...`` (values as TOML: true, 4, 0.5, "art", bare words, ["A", "B"] lists)."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise SweepError(f"{flag}: expected KEY=V1,V2,... ; got {text!r}")
    try:
        parsed = tomllib.loads(f"v = [{values}]")["v"]
    except tomllib.TOMLDecodeError:
        parsed = [toml_value(v) for v in values.split(",")]
    return key, parsed


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def cell_label(changes: dict[str, Any]) -> str:
    return ", ".join(f"{k}={value_text(v)}" for k, v in changes.items()) or BASELINE


def apply_changes(data: dict, changes: dict[str, Any], where: str) -> dict:
    """The scenario table with ``changes`` applied (a copy). Seat keys are applied last, on one
    table per seat of the cell's player count."""
    data = copy.deepcopy(data)
    data.pop("sweep", None)
    seat_changes = []
    for key, value in changes.items():
        if SEAT_KEY.match(key):
            seat_changes.append((key, value))
        elif key in FIXED_KEYS:
            raise SweepError(f"{where}: {key}: cannot be swept (every cell keeps the scenario's seed, size and "
                             "claims, so that cells are compared on the same deals)")
        elif key.startswith("options."):
            data["options"] = {**data.get("options", {}), key.split(".", 1)[1]: value}
        elif "." in key or "[" in key:
            raise SweepError(f"{where}: {key}: not a sweep key (options.X, players, mode, max_length, a game "
                             "table, seats.policy, seats.params.X, seats[i].policy, seats[i].params.X)")
        else:
            data[key] = value
    if seat_changes:
        data["seats"] = _seat_tables(data, where)
        for key, value in seat_changes:
            index, part, param = SEAT_KEY.match(key).groups()
            seats = data["seats"] if index is None else [data["seats"][int(index)]] \
                if int(index) < len(data["seats"]) else None
            if seats is None:
                raise SweepError(f"{where}: {key}: the scenario has {len(data['seats'])} seats")
            for seat in seats:
                if part == "policy":
                    seat.update(policy=value, params={})
                else:
                    seat["params"] = {**seat.get("params", {}), param: value}
    return data


def _seat_tables(data: dict, where: str) -> list[dict]:
    """The scenario's seats as one {policy, params} table per player."""
    seats = data.get("seats", get_game(data["game"]).policies[0].name)  # the scenario's default
    players = data.get("players")
    if isinstance(seats, str):
        if not isinstance(players, int) or isinstance(players, bool):
            raise SweepError(f"{where}: players: a whole number is needed to change the seats; got {players!r}")
        return [{"policy": seats, "params": {}} for _ in range(players)]
    if not isinstance(seats, list):
        return seats
    return [{"policy": s, "params": {}} if isinstance(s, str) else copy.deepcopy(s) for s in seats]


def current_value(scenario: Scenario, data: dict, key: str) -> Any:
    """The value a key has in the scenario as written (its default where the file says nothing)."""
    setup = scenario.setup
    seat = SEAT_KEY.match(key)
    if seat:
        index, part, param = seat.groups()
        s = setup.seats[int(index or 0)] if int(index or 0) < len(setup.seats) else None
        if s is None:
            return None
        if part == "policy":
            return s.policy.name
        names = [p.name for p in s.policy.params]
        return float(s.row[names.index(param)]) if param in names else None
    if key.startswith("options."):
        return setup.options.get(key.split(".", 1)[1])
    if key == "players":
        return setup.players
    if key == "mode":
        return setup.mode
    if key == "max_length":
        return setup.game.length_cap(setup)
    return data.get(key, setup.extra.get(key))


def changes_deal(game, key: str, value: Any) -> bool:
    """Does a change of ``key`` change the deal itself (who holds what), not only the play?"""
    if key.startswith("options."):
        return isinstance(value, list) or game.option(key.split(".", 1)[1]).deals  # a deck (a list of cards)
    return not SEAT_KEY.match(key) and key != "max_length"


def read_sweep_table(data: dict, where: str) -> tuple[dict[str, list], list[dict], list[str]]:
    """(vary, cells, scenarios) of a [sweep] table, each checked for shape."""
    sweep = data.get("sweep", {})
    if not isinstance(sweep, dict):
        raise SweepError(f"{where}: sweep: expected a table")
    unknown = set(sweep) - SWEEP_KEYS
    if unknown:
        raise SweepError(f"{where}: sweep.{sorted(unknown)[0]}: unknown key (known: {', '.join(sorted(SWEEP_KEYS))})")
    vary = sweep.get("vary", {})
    if not isinstance(vary, dict):
        raise SweepError(f"{where}: sweep.vary: expected a table of KEY = [values]")
    for key, values in vary.items():
        if not isinstance(values, list) or not values:
            raise SweepError(f"{where}: sweep.vary.{key}: expected a non-empty list of values")
    cells = sweep.get("cells", [])
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise SweepError(f"{where}: sweep.cells: expected a list of tables (KEY = value, label = \"...\")")
    for i, cell in enumerate(cells):
        if "label" in cell and not isinstance(cell["label"], str):
            raise SweepError(f"{where}: sweep.cells[{i}].label: expected a string")
    scenarios = sweep.get("scenarios", [])
    if not isinstance(scenarios, list) or not all(isinstance(s, str) for s in scenarios):
        raise SweepError(f"{where}: sweep.scenarios: expected a list of file patterns")
    return vary, cells, scenarios


def base_files(path: Path, patterns: list[str]) -> list[Path]:
    """The scenario files a sweep file names (patterns relative to it; sweep files left out)."""
    from balance.engine.scenario import is_sweep_file

    files = sorted({Path(f) for p in patterns for f in glob.glob(str(path.parent / p))})
    files = [f for f in files if f.resolve() != path.resolve() and not is_sweep_file(f)]
    if not files:
        raise SweepError(f"{path}: sweep.scenarios: no scenario file matches {', '.join(patterns)}")
    return files


def plan_sweep(path: Path, flags: list[str]) -> Sweep:
    """Every cell of the sweep, built and validated (nothing is played or written). Each value is
    first tried alone on each swept scenario, so that an error names its own flag or table entry."""
    data = read_scenario_data(path)
    vary, listed, patterns = read_sweep_table(data, str(path))
    sources = {key: f"{path}: sweep.vary.{key}" for key in vary}
    for text in flags:
        key, values = parse_vary(text)
        vary[key] = values
        sources[key] = f"--vary {key}"
    files = base_files(path, patterns) if patterns else [path]
    if not vary and not listed:
        raise SweepError(f"{path}: sweep: nothing to vary (give --vary KEY=V1,V2,... or a [sweep] table)")
    grid = [dict(zip(vary, combo)) for combo in itertools.product(*vary.values())]
    entries = [({k: v for k, v in c.items() if k != "label"}, c.get("label"), f"{path}: sweep.cells[{i}]")
               for i, c in enumerate(listed)] or [({}, None, "")]
    keys = list(dict.fromkeys([*vary, *(k for changes, _, _ in entries for k in changes)]))
    bases, cells, defaults = [], [], {}
    for file in files:
        base = load_scenario(file)
        base_data = read_scenario_data(file)
        named = (lambda where: f"{where} (scenario {file})") if patterns else (lambda where: where)
        for key, values in vary.items():
            for value in values:
                _cell_scenario(base, base_data, {key: value}, named(sources[key]))
        bases.append(base)
        defaults[base.name] = {k: current_value(base, base_data, k) for k in keys}
        cells.append(Cell(base.name, BASELINE, {}, _cell_scenario(base, base_data, {}, ""), False))
        for listed_changes, label, where in entries:
            for point in grid or [{}]:
                changes = {**listed_changes, **point}
                if not changes:
                    continue
                source = "; ".join(filter(None, [where, *(sources[k] for k in point)]))
                scenario = _cell_scenario(base, base_data, changes, named(source))
                name = ", ".join(filter(None, [label, cell_label(point) if point else ""])) if label \
                    else cell_label(changes)
                if any(c.base == base.name and c.label == name for c in cells):
                    raise SweepError(f"{where or path}: label: a second cell named '{name}' (cells are study "
                                     "folders named by their labels)")
                cells.append(Cell(base.name, name, changes, scenario,
                                  any(changes_deal(base.setup.game, k, v) for k, v in changes.items())))
    title = data.get("title", path.stem) if patterns else bases[0].title
    return Sweep(str(title), keys, list(vary), cells, bases, defaults)


def _cell_scenario(base: Scenario, data: dict, changes: dict[str, Any], where: str) -> Scenario:
    """The cell's scenario, validated; errors name ``where`` (the flag or the sweep entry) and the key."""
    try:
        cell = parse_scenario(apply_changes(data, changes, where), base.path)
    except ScenarioError as err:
        if not changes:
            raise
        raise SweepError(f"{where}: {err.key}: {err.message}") from None
    cell.path = None  # a cell has no file of its own; its folder is named by the sweep
    cell.title = f"{base.title} [{cell_label(changes)}]"
    # the table its study folder keeps: one setup (no sweep of its own) under the cell's title
    cell.data = {**{k: v for k, v in cell.data.items() if k != "sweep"}, "title": cell.title}
    return cell


# ---- playing -----------------------------------------------------------------------------------
def folder_name(label: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.=-]+", "_", label).strip("_")
    if len(name) > MAX_FOLDER_NAME:
        name = name[:40] + "-" + hashlib.sha256(label.encode()).hexdigest()[:12]
    return name


def play_sweep(sweep: Sweep, games: int | None, seed: int | None, out: Path, *, chunk: int = DEFAULT_CHUNK,
               tracker_for=lambda cell: Tracker(), executor: Executor = IN_PROCESS) -> dict[int, Results]:
    """Play every cell into its study folder ``out/<scenario>/<cell>`` (resumable); cells with the
    same setup as an earlier one are played once. Returns the results by cell index."""
    played: dict[str, Results] = {}
    results = {}
    for i, cell in enumerate(sweep.cells):
        sc = cell.scenario
        if seed is not None:
            sc.seed = seed
        size = round_to_deals(games or sc.games, sc.setup.rotations)
        identity = study_key(study_identity(sc.setup), sc.seed, size)["key"]
        if identity not in played:
            folder = out / folder_name(cell.base) / folder_name(cell.label)
            played[identity] = run_to_folder(sc, sc.seed, size, folder, chunk=chunk, tracker=tracker_for(cell),
                                             executor=executor)
        results[i] = played[identity]
    return results


# ---- the table ---------------------------------------------------------------------------------
def deal_sums(results: Results, claim) -> pd.DataFrame:
    """Per (group, deal): the claim's numerator and denominator sums (its estimate is their ratio)."""
    game = results.setup.game
    quantity = game.quantity(claim.quantity, claim.id)
    frame = results.table(quantity.table)
    for column, value in claim.where.items():
        frame = frame[frame[column] == value]
    by = claim.by or None
    parts = pd.DataFrame({"group": frame[by].astype(str) if by else "", "deal": frame["deal"],
                          "num": frame[quantity.column].astype(float),
                          "den": frame[quantity.denominator].astype(float) if quantity.denominator else 1.0})
    return parts.groupby(["group", "deal"], sort=True)[["num", "den"]].sum()


def paired_difference(cell: pd.DataFrame, base: pd.DataFrame) -> tuple[float, float, float]:
    """(difference, low, high): the cell's ratio estimate minus the baseline's, deal d paired with
    deal d, and its 95% interval: the cluster-robust (delta-method) standard error over the deals'
    linearized contributions (a deal missing from one side contributes zero there), Student t on
    deals - 1 degrees of freedom (a difference of two means is close to symmetric; the bootstrap
    of ``stats`` would cost a tenth of a second per group and cell)."""
    both = cell.add_suffix("_c").join(base.add_suffix("_b"), how="outer").fillna(0.0)
    y_c, x_c, y_b, x_b = (both[c].to_numpy() for c in ("num_c", "den_c", "num_b", "den_b"))
    if x_c.sum() == 0 or x_b.sum() == 0:
        return np.nan, np.nan, np.nan
    r_c, r_b = y_c.sum() / x_c.sum(), y_b.sum() / x_b.sum()
    influence = (y_c - r_c * x_c) / x_c.sum() - (y_b - r_b * x_b) / x_b.sum()
    difference = r_c - r_b
    if not influence.any():  # the same outcome in every deal
        return difference, difference, difference
    k = len(influence)
    if k < 2:
        return difference, np.nan, np.nan
    reference = StudentT(difference, float(np.sqrt(k / (k - 1) * np.sum(influence**2))), k - 1)
    tail = (1 - LEVEL) / 2
    return difference, reference.lower(tail), reference.upper(tail)


def sweep_table(sweep: Sweep, results: dict[int, Results], adjust: str = "bh") -> pd.DataFrame:
    """One row per cell, claim and group: the cell's keys, the estimate with its 95% interval, the
    verdict (multiplicity over every cell's sampled claims), the paired difference from the
    baseline cell of the same scenario, and the unit the figures read the claim's quantity in (over
    the cell's games: the claim rows' unit, stats.quantity_unit, as a study's page reads it)."""
    sampled, facts, owners = [], [], []
    for i, cell in enumerate(sweep.cells):
        rows, fact_rows = claim_rows(results[i], cell.scenario.claims)
        sampled += rows
        owners += [i] * len(rows)
        facts += [(i, f) for f in fact_rows]
    decided = decide(sampled, ALPHA, ALPHA, ADJUSTMENTS[adjust])
    decided["cell_index"] = owners
    decided["kind"] = "claim"
    fact_table = pd.DataFrame([{**f, "cell_index": i, "kind": "fact", "estimate": f["value"]} for i, f in facts])
    table = pd.concat([decided, fact_table], ignore_index=True) if len(fact_table) else decided
    baselines = {c.base: i for i, c in enumerate(sweep.cells) if c.baseline}
    sums: dict[tuple[int, str], pd.DataFrame] = {}

    def sums_of(i: int, claim) -> pd.DataFrame:
        if (i, claim.id) not in sums:
            sums[(i, claim.id)] = deal_sums(results[i], claim)
        return sums[(i, claim.id)]

    extra = []
    for row in table.itertuples():
        cell = sweep.cells[row.cell_index]
        claim = cell.scenario.claim(row.claim)
        base_index = baselines[cell.base]
        info = {"scenario": cell.base, "cell": cell.label, "baseline": cell.baseline,
                **{k: value_text(cell.changes.get(k, sweep.defaults[cell.base][k])) for k in sweep.keys},
                "games": results[row.cell_index].n_games,
                "pairing": "approximate (the deal changes)" if cell.deal_changed else "same deals"}
        if row.kind == "fact":
            base_row = table[(table.cell_index == base_index) & (table.claim == row.claim) & (table.group == row.group)]
            d = row.estimate - base_row["estimate"].iloc[0] if len(base_row) else np.nan
            info.update(difference=d, difference_low=d, difference_high=d)
        else:
            cell_sums, base_sums = sums_of(row.cell_index, claim), sums_of(base_index, claim)
            group = str(row.group)
            if group in cell_sums.index.get_level_values(0) and group in base_sums.index.get_level_values(0):
                d, lo, hi = paired_difference(cell_sums.loc[group], base_sums.loc[group])
            else:
                d = lo = hi = np.nan
            info.update(difference=d, difference_low=lo, difference_high=hi)
        extra.append(info)
    columns = ["claim", "text", "by", "group", "kind", "estimate", "low", "high", "deals", "compare", "target",
               "tolerance", "unit", "decide_low", "decide_high", "p_holds_adjusted", "p_fails_adjusted",
               "verdict"]
    out = pd.concat([pd.DataFrame(extra), table.reindex(columns=columns).reset_index(drop=True)], axis=1)
    out["adjustment"] = adjust
    return out


def write_table(table: pd.DataFrame, out: Path) -> tuple[Path, Path]:
    """The tidy table as Parquet and CSV in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    table.to_parquet(out / "sweep.parquet", index=False)
    table.to_csv(out / "sweep.csv", index=False)
    return out / "sweep.parquet", out / "sweep.csv"


# ---- text --------------------------------------------------------------------------------------
def _interval(row, low: str, high: str, digits: int = 3) -> str:
    if not np.isfinite(row[low]):
        return ""
    return f"[{row[low]:.{digits}f}, {row[high]:.{digits}f}]"


def sweep_text(sweep: Sweep, table: pd.DataFrame, adjust: str) -> str:
    lines = [f"{sweep.title}: {len(sweep.cells)} cells, verdicts adjusted over every cell by {ADJUST_WORDS[adjust]}; "
             "every cell plays its scenario's seed (the same deals: common random numbers)"]
    approximate = sum(c.deal_changed for c in sweep.cells)  # cells, not labels: a label recurs per scenario
    if approximate:
        lines.append(f"  pairing is approximate where a cell changes the deal itself ({approximate} cells, "
                     "e.g. the player count): the difference is valid, with less noise removed")
    for (base, label), rows in table.groupby(["scenario", "cell"], sort=False):
        lines.append(f"{base} | {label}  ({rows['games'].iloc[0]:,} games)")
        for r in rows.to_dict("records"):
            group = f" {r['group']}" if r["group"] else ""
            diff = "" if r["baseline"] or not np.isfinite(r["difference"]) else \
                f"  vs baseline {r['difference']:+.3f} {_interval(r, 'difference_low', 'difference_high')}"
            lines.append(f"  {r['claim']}{group}: {r['estimate']:.3f} {_interval(r, 'low', 'high')} "
                         f"{r['verdict']}{diff}")
    return "\n".join(lines)


# ---- the report --------------------------------------------------------------------------------
REPORT_FLOAT = "%.6g"  # numbers of the report's CSV


def cell_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per claim and cell (over every swept scenario): groups that hold, verdicts that differ from
    the baseline's, and how far the estimates move (paired differences, in the claim's units)."""
    claims = table[table["kind"] == "claim"].copy()
    key = ["scenario", "claim", "group"]
    base = claims[claims["baseline"]].set_index(key)["verdict"]
    claims["changed"] = claims.set_index(key).index.map(base).to_numpy() != claims["verdict"].to_numpy()
    claims["move"] = claims["difference"].abs()
    claims["shown"] = (claims["difference_low"] > 0) | (claims["difference_high"] < 0)
    rows = []
    for claim, of_claim in claims.groupby("claim", sort=False):
        for label, part in of_claim.groupby("cell", sort=False):
            rows.append({"claim": claim, "cell": label,
                         "claim groups that hold": int((part["verdict"] == "holds").sum()),
                         "verdicts changed vs baseline": int(part["changed"].sum()),
                         "differences shown (95% interval excludes 0)": int(part["shown"].sum()),
                         "median move": part["move"].median(), "largest move": part["move"].max()})
    return pd.DataFrame(rows)


def inert_cells(table: pd.DataFrame) -> list[str]:
    """Cells (not baselines) whose every claim group, in every swept scenario, has the very
    outcome of its baseline in every deal: the players never take the path the cell changes (a
    rule reading no player uses cannot move a result measured with those players)."""
    claims = table[(table["kind"] == "claim") & ~table["baseline"].astype(bool)]
    same = (claims["difference"] == 0) & (claims["difference_low"] == 0) & (claims["difference_high"] == 0)
    return [str(cell) for cell, part in same.groupby(claims["cell"], sort=False) if part.all()]


def wide_table(table: pd.DataFrame) -> pd.DataFrame:
    """Estimates with their verdict in words: one row per scenario, claim and group, one column per cell."""
    claims = table[table["kind"] == "claim"]
    text = claims.assign(shown=[f"{Units.of(r).measured(r['estimate'])} {r['verdict']}"
                                for r in claims.to_dict("records")])
    order = list(dict.fromkeys(claims["cell"]))
    wide = text.pivot_table(index=["scenario", "claim", "group"], columns="cell", values="shown", aggfunc="first")
    return wide[order].reset_index()


def _band(row) -> tuple[float, float]:
    return claim_band(row["compare"], row["target"], row["tolerance"])


def claim_doc(sweep: Sweep, base: str, claim_id: str) -> str:
    """The doc of the quantity a claim of a swept scenario measures."""
    scenario = next(s for s in sweep.bases if s.name == base)
    claim = scenario.claim(claim_id)
    return scenario.setup.game.quantity(claim.quantity, claim.id).doc


def claim_title(sweep: Sweep, base: str, claim_id: str, unit: str) -> str:
    """What a claim measures, as a panel title says it: its quantity's meaning with its unit (the
    table's ``unit``: "P(a seat wins the match), %"), not the claim's id."""
    from balance.report import quantity_title

    return quantity_title(claim_doc(sweep, base, claim_id), unit)


def _bounds(row) -> tuple[float, float]:
    """The range a claim's intervals are clipped to: [0, 1] for a share, else unbounded."""
    return (0.0, 1.0) if row["unit"] == "%" else (-np.inf, np.inf)


def grid_figures(sweep: Sweep, table: pd.DataFrame) -> list[tuple[str, bytes, str]]:
    """(name, png, caption) for each scenario and claim: a line plot for one swept key, heatmaps
    for two; none for other shapes (the tables hold them)."""
    from balance.report import sweep_heatmap, sweep_line_figure

    if len(sweep.grid) not in (1, 2) or any(k not in sweep.grid for k in sweep.keys):
        if table["scenario"].nunique() > MAX_SCENARIO_FIGURES:
            return cell_move_figures(sweep, table)
        return cell_list_figures(sweep, table)
    figures = []
    claims = table[table["kind"] == "claim"]
    for (base, claim), rows in claims.groupby(["scenario", "claim"], sort=False):
        first = rows.iloc[0]
        default = [value_text(sweep.defaults[base][k]) for k in sweep.grid]
        values = {k: [value_text(v) for v in dict.fromkeys(rows[k])] for k in sweep.grid}
        name = folder_name(f"{base}-{claim}")
        label = (lambda group: f"{first['by']} {group}" if first["by"] else str(group))
        title = f"{base}: {claim_title(sweep, base, claim, first['unit'])}"
        if len(sweep.grid) == 1:
            key = sweep.grid[0]
            lines = {}
            for group, part in rows.groupby("group", sort=True):
                part = part.drop_duplicates(key).set_index(key).reindex(values[key])
                raw = [toml_value(v) for v in values[key]]
                lines[label(group)] = pd.DataFrame({"value": raw, "estimate": part["estimate"].to_numpy(),
                                                  "low": part["low"].to_numpy(), "high": part["high"].to_numpy()})
            png = sweep_line_figure(lines, key, toml_value(default[0]), _band(first), _bounds(first), title,
                                    first["unit"])
            caption = (f"{first['text']}: the estimate for each value of {key} with its 95% interval (band); green: "
                       f"the values the claim allows; dashed: the scenario's own value.")
        else:
            a, b = sweep.grid
            panels = {}
            for group, part in rows.groupby("group", sort=True):
                grid = part.pivot_table(index=a, columns=b, values="estimate", aggfunc="first")
                panels[label(group)] = grid.reindex(index=values[a], columns=values[b])
            png = sweep_heatmap(panels, (a, b), tuple(default), float(first["target"]), title, first["unit"])
            caption = (f"{first['text']}: the estimate in each cell of the grid; blue below the target "
                       f"{first['target']:g}, red above; outlined: the scenario's own values.")
        figures.append((f"{name}.png", png, caption))
    return figures


# A cell list over more scenarios than this draws one figure per claim (how far each cell moves it)
# rather than one per scenario and claim: DETHRONED's 23 setups made a 25 MB page of 46 figures.
MAX_SCENARIO_FIGURES = 4
# The estimates-by-cell table has a column per cell: beyond this many it overflows a page and only
# the CSV holds it.
MAX_CELL_COLUMNS = 8


def cell_move_figures(sweep: Sweep, table: pd.DataFrame) -> list[tuple[str, bytes, str]]:
    """(name, png, caption) per claim of a cell-list sweep over many scenarios: for each cell, the
    median and the largest absolute paired difference from the baseline over every scenario and
    claim group (cell_summary), in points for shares."""
    import matplotlib.pyplot as plt

    from balance.report import _png, value_axis

    claims = table[table["kind"] == "claim"]
    baselines = set(claims.loc[claims["baseline"].astype(bool), "cell"])
    figures = []
    for claim, part in cell_summary(table).groupby("claim", sort=False):
        part = part[~part["cell"].isin(baselines)]
        rows = claims[claims["claim"] == claim]
        units = set(rows["unit"])
        in_points = len(units) == 1 and reads_in_points(next(iter(units)))
        scale, unit = (unit_scale(next(iter(units))), "points") if in_points else (1.0, "the claim's units")
        measured = claim_title(sweep, rows["scenario"].iloc[0], claim, "")
        y = np.arange(len(part))
        fig, ax = plt.subplots(figsize=(8, 0.28 * len(part) + 1.4))
        ax.barh(y, part["largest move"] * scale, color="#c9d6e8", label="largest move")
        ax.plot(part["median move"] * scale, y, "o", color="#2a6fbb", label="median move")
        ax.set_yticks(y, part["cell"])
        ax.invert_yaxis()
        value_axis(ax.xaxis)
        ax.set_xlabel(f"absolute difference from the baseline, {unit}")
        ax.set_title(f"{measured}: how far each cell moves it", loc="left", fontsize=10, wrap=True)
        ax.legend(loc="lower right", fontsize=8)
        figures.append((f"{folder_name(claim)}-moves.png", _png(fig),
                        f"{rows['text'].iloc[0]}: for each cell, over every scenario and claim group, the median "
                        f"(dot) and largest (bar) absolute paired difference from the scenario's baseline, in {unit}; "
                        "every estimate is in the table below and the CSV beside this report."))
    return figures


# Panels a row in a cell-list figure (a panel per claim group, the cells its rows).
CELL_LIST_COLUMNS = 3


def cell_list_figures(sweep: Sweep, table: pd.DataFrame) -> list[tuple[str, bytes, str]]:
    """(name, png, caption) per scenario and claim of a sweep over a list of cells (no grid): a panel
    per claim group, CELL_LIST_COLUMNS a row on one axis, a row per cell (named in the first column):
    the estimate with its 95% interval, coloured by its verdict, against the claim's band."""
    from balance.report import Dot, _panel_grid

    figures = []
    claims = table[table["kind"] == "claim"]
    for (base, claim), rows in claims.groupby(["scenario", "claim"], sort=False):
        first = rows.iloc[0]
        by = first["by"]
        measured = claim_title(sweep, base, claim, first["unit"])
        panels = [(f"{base}: {measured}{f'; {by} {group}' if by else ''}",
                   [Dot(str(r["cell"]), r["estimate"], r["low"], r["high"], r["verdict"], _band(r), r["target"])
                    for r in part.to_dict("records")], _bounds(first), first["unit"])
                  for group, part in rows.groupby("group", sort=False)]
        png = _panel_grid(panels, columns=min(CELL_LIST_COLUMNS, len(panels)), shared_x=True, shared_rows=True)
        figures.append((f"{folder_name(f'{base}-{claim}')}.png", png,
                        f"{first['text']}: the estimate in each cell with its 95% interval, coloured by its verdict; "
                        f"green: the values the claim allows; dark tick: the target."))
    return figures


def largest_moves(sweep: Sweep, table: pd.DataFrame) -> list[dict]:
    """Findings items, one per claim: the claim group and cell whose paired difference from its
    baseline is the largest, in the claim's units (points for shares, else the unit its quantity
    states) with its 95% interval, and the estimates behind it."""
    from balance.report import stated_unit

    claims = table[(table["kind"] == "claim") & ~table["baseline"].astype(bool) & np.isfinite(table["difference"])]
    base = table[(table["kind"] == "claim") & table["baseline"].astype(bool)].set_index(["scenario", "claim", "group"])
    items = []
    for claim, part in claims.groupby("claim", sort=False):
        item = {"where": f"Largest move of {claim}", "anchor": "", "verdict": "", "verdict_class": "", "detail": ""}
        r = part.loc[part["difference"].abs().idxmax()]
        if r["difference"] == 0:
            items.append({**item, "text": "none: no cell moves it from its baseline"})
            continue
        units = Units.of(r)
        # decimals enough for the move itself, which may be far smaller than the claim's band
        units = replace(units, decimals=int(min(3, max(units.decimals,
                                                       1 - np.floor(np.log10(abs(r["difference"]) * units.scale))))))
        word = units.effect_unit or f" {stated_unit(claim_doc(sweep, r['scenario'], claim))}".rstrip()
        low, high = (units.signed(r[c] * units.scale) if np.isfinite(r[c]) else "—"
                     for c in ("difference_low", "difference_high"))
        group = f", {r['by']} {r['group']}" if r["by"] else ""
        baseline = base.loc[(r["scenario"], claim, r["group"]), "estimate"]
        shown = [units.measured(v) for v in (r["estimate"], baseline)]
        items.append({**item, "text": f"{units.signed(r['difference'] * units.scale)}{word} [{low}, {high}] from the "
                                      f"baseline in {r['scenario']}{group}, cell {r['cell']} ({shown[0]} where the "
                                      f"baseline gives {shown[1]})"})
    return items


def write_sweep_report(sweep: Sweep, table: pd.DataFrame, output: Path, adjust: str) -> tuple[Path, Path, Path]:
    """The sweep's report: ``output`` (HTML), its Markdown copy and the tidy table as CSV beside it
    (6 significant digits)."""
    from balance.report import open_page, save_page

    output.parent.mkdir(parents=True, exist_ok=True)
    page = open_page(output, f"sweep: {sweep.title}", f"What-if sweep: {sweep.title}")
    games = sorted(set(table["games"]))
    moved = cell_summary(table)
    changed = moved.loc[moved["verdicts changed vs baseline"] > 0, "cell"].unique()
    page.finding = (f"{len(sweep.cells)} cells: {len(changed)} change a claim's verdict from the baseline's"
                    + (f" ({', '.join(map(str, changed[:6]))}{', ...' if len(changed) > 6 else ''})." if len(changed)
                       else "."))
    items = [{"where": "Sweep", "anchor": "", "text": page.finding.rstrip("."), "verdict": "",
              "verdict_class": "", "detail": ""}, *largest_moves(sweep, table)]
    inert = inert_cells(table)
    if inert:
        items.append({"where": "No effect possible", "anchor": "", "verdict": "", "verdict_class": "", "detail": "",
                      "text": f"{', '.join(inert)}: every game identical to the baseline's; the players never take "
                              "the path this changes, so it cannot move a finding measured with them (a statement "
                              "about the players, not the rule)"})
    page.findings(items)
    approximate = sum(c.deal_changed for c in sweep.cells)  # cells, not labels: a label recurs per scenario
    page.text(f"{len(sweep.cells)} cells over {len(sweep.bases)} scenario(s), "
              f"{'/'.join(f'{g:,}' for g in games)} games per cell. Every cell plays its scenario's own seed, so "
              "every cell plays the same deals (common random numbers) and a difference from the baseline (the "
              "scenario's own values) is measured deal by deal, with a 95% interval clustered by deal. Verdicts "
              f"are adjusted over the claims of every cell by {ADJUST_WORDS[adjust]}."
              + (f" {approximate} cells change the deal itself (e.g. the player count, the roles or the deck): their "
                 "pairing with the baseline is approximate (the difference is valid, with less noise removed)."
                 if approximate else ""), css="note")
    for name, png, caption in grid_figures(sweep, table):
        page.image(name, png, name.removesuffix(".png"), caption)
    page.heading(2, "How far each cell moves the claims")
    page.text("Per claim and cell, over every swept scenario and claim group: the groups whose claim holds, the "
              "verdicts that differ from the baseline's, the differences whose 95% interval excludes 0, and the "
              "absolute paired differences from the baseline in the claim's units (a share's in points).",
              css="note")
    summary = cell_summary(table)
    firsts = table[table["kind"] == "claim"].drop_duplicates("claim").set_index("claim")
    units = {claim: Units.of(row) for claim, row in firsts.iterrows()}
    for column in ("median move", "largest move"):
        summary[column] = [f"{v * units[c].scale:.{units[c].decimals}f}{units[c].effect_unit}" if np.isfinite(v)
                           else "" for c, v in zip(summary["claim"], summary[column])]
    page.table(summary, text_cols=("claim", "cell"))
    page.heading(2, "Estimates by cell")
    wide = wide_table(table)
    if wide.shape[1] - 3 > MAX_CELL_COLUMNS:
        page.text(f"The estimates of the {wide.shape[1] - 3} cells, by scenario, claim and group, with their "
                  f"intervals, verdicts and differences from the baseline, are in the CSV beside this report "
                  f"({output.with_suffix('.csv').name}): a table of so many columns does not fit a page.", css="note")
    else:
        page.text("Each entry: the estimate and its verdict; every number with its "
                  "interval and difference from the baseline is in the CSV beside this report.", css="note")
        page.table(wide, text_cols=("scenario", "claim", "group"))
    html_path, md_path = save_page(page, output)
    csv_path = output.with_suffix(".csv")
    table.to_csv(csv_path, index=False, float_format=REPORT_FLOAT)  # full precision: sweep.parquet in --out
    return html_path, md_path, csv_path
