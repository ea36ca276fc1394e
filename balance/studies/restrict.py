"""Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play",
AIIDE 2012): how much a card, ability or choice is worth, for every game with an action menu.

For every action of the game's menu (``Game.actions``), policy slot 0 of the scenario is
restricted (forbidden the action; with ``forced`` also made to prefer it) against the scenario's
standard field, rotated over every seat, with common random numbers: the restricted runs play the
same deals from the same streams as the unrestricted baseline, so the games differ only where the
restriction changes a play. Per action:

- the restricted slot's win rate and the baseline slot's (slot 0 unrestricted, the same deals),
  each with its 95% interval;
- **importance** = baseline - forbidden rate (what losing the action costs), and with ``forced``
  **gain** = forced rate - baseline: paired by deal (per-deal differences, the deal the sampling
  unit), with their 95% intervals;
- verdicts against a margin: "losing it costs more than the margin" and, forced, "forcing it
  raises the win rate by more than the margin" (the action is **dominant**), each holds / fails /
  undecided, Holm-adjusted over every test of the study.

Seats are restricted-play rows too, from the baseline's games alone: slot 0 forced to sit at seat
s (gain: the value of that seat over the average seat; for the first player, the value of going
first) and forbidden seat s (importance).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from balance.engine.game import Setup
from balance.engine.runner import Results, Tracker, play_range, round_to_deals
from balance.stats import (ALPHA, FAILS, HOLDS, NO_SPREAD, UNDECIDED, WIN_RATE, Estimate, estimate_mean,
                           estimate_rate, holm, p_clause, resolved_pvalues)

MARGIN = 0.02  # default margin of the verdicts: 2 percentage points of win rate
SLOT = 0  # the restricted policy slot
FORBID, FORCE = "forbid", "prefer"  # the two restrictions (scenario keys)


@dataclass
class RestrictStudy:
    setup: Setup  # the unrestricted baseline (rotated)
    seed: int
    games: int  # games of each restricted run (whole deals)
    deals: int
    margin: float
    forced: bool
    table: pd.DataFrame  # one row per action of the menu, then one per seat

    @property
    def slot_label(self) -> str:
        return self.setup.seats[SLOT].label

    def describe(self) -> dict:
        return {"game": self.setup.game.name, "mode": self.setup.mode, "players": self.setup.players,
                "slot": SLOT, "baseline": self.slot_label, "field": [s.label for s in self.setup.seats],
                "seed": self.seed, "games_per_run": self.games, "deals": self.deals, "margin": self.margin,
                "forced": self.forced, "runs": runs(self.setup, self.forced)}


def baseline_setup(setup: Setup) -> Setup:
    """The scenario's setup, rotated (the restricted slot visits every seat)."""
    return replace(setup, rotate=True, seats=list(setup.seats), extra=dict(setup.extra))


def restricted_setup(setup: Setup, action: str, side: str) -> Setup:
    """``setup`` with slot SLOT also forbidden (side "forbid") or made to prefer ("prefer") ``action``."""
    out = baseline_setup(setup)
    seat = out.seats[SLOT]
    restriction = {"forbid": list(seat.forbid), "prefer": list(seat.prefer)}
    restriction[side].append(action)
    out.seats[SLOT] = setup.game.restrict_seat(out, seat, restriction, f"seats[{SLOT}]")
    return out


def runs(setup: Setup, forced: bool) -> int:
    """Restricted runs of a study (the baseline not counted)."""
    return len(setup.game.actions(setup)) * (2 if forced else 1)


def slot_rows(results: Results) -> pd.DataFrame:
    """(deal, seat, won) of every game's restricted slot. Where each deal was played once (identical
    players whose rotation moves only the policies), every seat is the slot in one rotation of
    identical games, so every seat row counts."""
    seats = results.seats
    setup = results.setup
    if setup.rotations > 1:
        seats = seats[(seats["seat"] - seats["rotation"]) % setup.players == SLOT]
    return pd.DataFrame({"deal": seats["deal"].to_numpy(), "seat": seats["seat"].to_numpy(),
                         "won": seats["won"].to_numpy(float)})


def per_deal(rows: pd.DataFrame, deals: pd.Index) -> np.ndarray:
    """The slot's win rate in each deal (over its seats), in the order of ``deals``."""
    return rows.groupby("deal")["won"].mean().reindex(deals).to_numpy()


def rate(rows: pd.DataFrame) -> dict:
    est = estimate_rate(rows["won"].to_numpy(), rows["deal"].to_numpy())
    return {"": est.estimate, "_low": est.low, "_high": est.high}


def paired(differences: np.ndarray, deals: pd.Index) -> dict:
    """The mean per-deal difference with its 95% interval and its tests against the margin (the
    deal the sampling unit: one value per deal)."""
    est = estimate_mean(differences, np.asarray(deals))
    return {"": est.estimate, "_low": est.low, "_high": est.high, "_est": est}


def _named(name: str, values: dict) -> dict:
    return {f"{name}{suffix}": v for suffix, v in values.items()}


def play(setup: Setup, seed: int, games: int, tracker: Tracker) -> pd.DataFrame:
    return slot_rows(Results(setup, seed, play_range(setup, seed, 0, games, tracker)))


def restrict_study(setup: Setup, seed: int, games: int, *, forced: bool = False, margin: float = MARGIN,
                   tracker: Tracker | None = None) -> RestrictStudy:
    """Play the baseline and every restricted run (``games`` games each, whole deals) and tabulate
    importance (and with ``forced`` dominance) per action, then the seats' rows."""
    tracker = tracker or Tracker()
    game = setup.game
    base = baseline_setup(setup)
    actions = game.actions(base)
    restricted_rotations = base.players  # a restricted slot is never identical to the field
    deals = round_to_deals(games, restricted_rotations) // restricted_rotations
    games = deals * restricted_rotations
    base_games = deals * base.rotations
    sides = (FORBID, FORCE) if forced else (FORBID,)
    tracker.begin(base_games + games * len(actions) * len(sides), 0)
    baseline_rows = play(base, seed, base_games, tracker)
    deal_index = pd.Index(np.arange(deals))
    baseline_deal = per_deal(baseline_rows, deal_index)
    baseline = _named("baseline", rate(baseline_rows))
    rows = []
    for action in actions:
        row = {"action": action.name, "doc": action.doc, **baseline}
        for side in sides:
            setup_r = restricted_setup(base, action.name, side)
            played = play(setup_r, seed, games, tracker)
            restricted_deal = per_deal(played, deal_index)
            if side == FORBID:
                row["forbidden_label"] = setup_r.seats[SLOT].label
                row.update(_named("forbidden", rate(played)))
                row.update(_named("importance", paired(baseline_deal - restricted_deal, deal_index)))
            else:
                row["forced_label"] = setup_r.seats[SLOT].label
                row.update(_named("forced", rate(played)))
                row.update(_named("gain", paired(restricted_deal - baseline_deal, deal_index)))
        rows.append(row)
    rows += seat_rows(base, baseline_rows, deal_index, baseline_deal, baseline)
    table = verdicts(pd.DataFrame(rows), margin)
    return RestrictStudy(base, seed, games, deals, margin, forced, table)


def seat_rows(setup: Setup, rows: pd.DataFrame, deal_index: pd.Index, baseline_deal: np.ndarray,
              baseline: dict) -> list[dict]:
    """Each seat as a restricted-play row, from the baseline's games: slot 0 forced to sit there
    (gain: the seat's value over the average seat) and forbidden to (importance)."""
    names = setup.game.report_view(setup).group_names.get("seat", {})
    out = []
    for seat in range(setup.players):
        meaning = names.get(str(seat), "")
        here, elsewhere = rows[rows["seat"] == seat], rows[rows["seat"] != seat]
        out.append({"action": f"seat {seat}" + (f" ({meaning})" if meaning else ""),
                    "doc": f"sit at seat {seat}" + (f", the {meaning}" if meaning else ""), **baseline,
                    "forbidden_label": f"never at seat {seat}", **_named("forbidden", rate(elsewhere)),
                    **_named("importance", paired(baseline_deal - per_deal(elsewhere, deal_index), deal_index)),
                    "forced_label": f"always at seat {seat}", **_named("forced", rate(here)),
                    **_named("gain", paired(per_deal(here, deal_index) - baseline_deal, deal_index))})
    return out


def verdicts(table: pd.DataFrame, margin: float) -> pd.DataFrame:
    """Each importance and gain tested against the margin ("more than the margin" holds when the
    deciding bound passes it, fails when the other bound stays below it), Holm-adjusted over every
    test of the table together."""
    tests = [(i, effect) for effect in ("importance", "gain") if f"{effect}_est" in table.columns
             for i in table.index if isinstance(table.at[i, f"{effect}_est"], Estimate)]
    p_holds, p_fails, untestable = [], [], []
    for i, effect in tests:
        ref, p_h, p_f = resolved_pvalues(table.at[i, f"{effect}_est"].reference, margin, 0.0, "at_least",
                                         ALPHA / len(tests))
        untestable.append(not ref.testable)
        p_holds.append(1.0 if untestable[-1] else p_h)
        p_fails.append(1.0 if untestable[-1] else p_f)
    holm_h, holm_f = holm(np.array(p_holds)), holm(np.array(p_fails))
    for k, (i, effect) in enumerate(tests):
        question = "important" if effect == "importance" else "dominant"
        if untestable[k]:
            verdict, p = NO_SPREAD, np.nan
        elif holm_h[k] < ALPHA:
            verdict, p = HOLDS, holm_h[k]
        elif holm_f[k] < ALPHA:
            verdict, p = FAILS, holm_f[k]
        else:
            verdict, p = UNDECIDED, min(holm_h[k], holm_f[k])
        table.loc[i, question] = verdict
        table.loc[i, f"p_{question}"] = p
    return table.drop(columns=[c for c in table.columns if c.endswith("_est")])


# ---- as text -------------------------------------------------------------------------------
def points_text(value: float, low: float, high: float, signed: bool) -> str:
    """A share in percent (or a difference in points) with its 95% interval."""
    sign = "+" if signed else ""
    interval = f"[{low * 100:{sign}.1f}, {high * 100:{sign}.1f}]" if np.isfinite(low) and np.isfinite(high) \
        else "[no interval]"
    return f"{value * 100:{sign}.1f} {interval}"


def verdict_cell(verdict, p) -> str:
    if not isinstance(verdict, str):
        return ""
    return f"{verdict} ({p_clause(p)})" if verdict in (HOLDS, FAILS) else verdict


def questions(study: RestrictStudy) -> tuple[str, str]:
    """The two questions the verdicts answer, in words."""
    margin = f"{study.margin * 100:g} pts"
    return f"costs > {margin}", f"forced gains > {margin}"


def header_text(study: RestrictStudy) -> str:
    setup = study.setup
    field = ", ".join(s.label for i, s in enumerate(setup.seats) if i != SLOT)
    baseline = study.table[["baseline", "baseline_low", "baseline_high"]].iloc[0]
    return (f"{setup.game.title}, mode {setup.mode}, {setup.players} players: slot {SLOT} ({study.slot_label}) "
            f"restricted against {field}, rotated over the seats; {study.games:,} games per restricted run "
            f"({study.deals:,} deals x {setup.players} seats, the baseline's deals), seed {study.seed}; "
            f"the unrestricted slot (baseline) wins {WIN_RATE.measured(*baseline)}; win rates in %, differences "
            f"in points, 95% intervals paired by deal; verdicts against a margin of {study.margin * 100:g} "
            f"points, Holm-adjusted over the {verdict_count(study)} tests")


def findings_text(study: RestrictStudy) -> str:
    """The verdicts that hold, in one line: which actions are important, which dominant."""
    t = study.table
    lose, gain = questions(study)
    parts = []
    for column, question in (("important", lose), ("dominant", gain)):
        names = t.loc[t[column] == HOLDS, "action"].tolist() if column in t.columns else []
        parts.append(f"{column} ({question} holds): {', '.join(names) if names else 'none shown'}")
    return "; ".join(parts)


def verdict_count(study: RestrictStudy) -> int:
    t = study.table
    return int(sum(t[c].notna().sum() for c in ("important", "dominant") if c in t.columns))


def table_view(study: RestrictStudy) -> pd.DataFrame:
    """The study's table as readable columns (text, Markdown, HTML)."""
    lose, gain = questions(study)
    rows = []
    for r in study.table.to_dict("records"):
        row = {"action": r["action"], "forbidden %": points_text(r["forbidden"], r["forbidden_low"], r["forbidden_high"], False),
               "importance": points_text(r["importance"], r["importance_low"], r["importance_high"], True),
               lose: verdict_cell(r["important"], r["p_important"])}
        if study.forced or isinstance(r.get("dominant"), str):
            forced = isinstance(r.get("gain"), float) and np.isfinite(r["gain"])
            row["forced %"] = points_text(r["forced"], r["forced_low"], r["forced_high"], False) if forced else ""
            row["gain"] = points_text(r["gain"], r["gain_low"], r["gain_high"], True) if forced else ""
            row[gain] = verdict_cell(r.get("dominant"), r.get("p_dominant"))
        rows.append(row)
    return pd.DataFrame(rows).fillna("")


def study_text(study: RestrictStudy) -> str:
    view = table_view(study)
    widths = {c: max(len(c), *(len(str(v)) for v in view[c])) for c in view.columns}
    lines = [header_text(study), findings_text(study), "  ".join(c.ljust(widths[c]) for c in view.columns)]
    lines += ["  ".join(str(v).ljust(widths[c]) for c, v in zip(view.columns, row))
              for row in view.itertuples(index=False)]
    return "\n".join(line.rstrip() for line in lines)
