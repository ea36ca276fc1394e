"""Verdicts read against skill (``balance check --skill``): is a claim's verdict the game's, or the
players'?

A scenario's claims are measured with its own players. This study plays the scenario again with
every seat moved up together to the stronger skill rungs (the scenario's ``[skill]`` rungs, else
the game's: ``Game.skill_rungs``, its ladder by default), at most the two strongest above the
scenario's players, with the scenario's seed: every rung plays the same deals (common random
numbers). Each claim is then read on the two strongest rungs played:

- **converged**: they agree within a margin (by default a third of the claim's tolerance; a claim
  without one: a third of its target), shown by a paired equivalence test (two one-sided tests on
  the deal-by-deal difference, ``stats.paired_difference``). The verdict at the strongest rung is
  then the game's;
- **moves with skill**: they differ by more than the margin (the same test's other side): the
  verdict describes the players, and the reading says which way stronger players push the claim;
- **undecided**: neither is shown.

The comparisons of all claims and groups form one family (Holm), as the verdicts under every rung
do (``stats.evaluate_family``). A claim with groups (``by``) converges when every group does and
moves when any group does. Claims that name a policy ask about a mixed table and are left out, as
are fixed facts of the setup (they do not depend on the players).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from balance.engine.game import FamilyMember, Setup, SetupError
from balance.engine.runner import Results, Tracker
from balance.engine.scenario import Claim, Scenario
from balance.stats import (ALPHA, FAILS, HOLDS, NO_SPREAD, TOO_FEW_DEALS, UNDECIDED, Units, claim_pvalues, decide,
                           evaluate_family, fact_text, paired_difference, quantity_unit, verdict_text)
from balance.studies.robust import member_verdict, names_a_policy, play_members, worst_group

CONVERGED, MOVES = "converged", "moves with skill"
READINGS = (CONVERGED, MOVES, UNDECIDED)
STRONGER_RUNGS = 2  # rungs above the scenario's players that are played (the two strongest)
# Fewer deals leave a comparison undecided: the paired t's error rate at the margin, measured by
# simulation (tests/engine/test_stats_error_rates.py), is 0.063 at 30 deals of 4 games, 0.054 at
# 100, at most 0.05 from 200 up.
MIN_DEALS = 200
OWN = "the scenario's players"
COMPARISON_COLUMNS = ["claim", "text", "by", "group", "stronger", "weaker", "estimate", "low", "high", "se",
                      "deals", "margin", "target", "tolerance", "compare", "unit", "p_converged",
                      "p_moves", "decide_low", "decide_high", "verdict"]


@dataclass
class SkillStudy:
    """A scenario played by its own players and the stronger rungs, every claim read against skill."""

    scenario: Scenario
    rungs: list[FamilyMember]  # weakest first; the first is the scenario's own players
    setups: list[Setup]
    results: dict[str, Results]  # by rung name
    claims: pd.DataFrame  # one row per rung, claim and group (stats.evaluate_family)
    facts: pd.DataFrame  # the fixed facts of the setup
    comparisons: pd.DataFrame  # one row per claim and group: the two strongest rungs' difference
    readings: pd.DataFrame  # one row per claim: its reading, the game's verdict, the direction
    skipped: list[tuple[Claim, str]]  # claims left out, with why

    @property
    def games(self) -> int:
        return max(r.n_games for r in self.results.values())


# ---- the rungs ----------------------------------------------------------------------------
def rung_setups(scenario: Scenario) -> list[tuple[FamilyMember, Setup]]:
    """The scenario's own players, then the stronger rungs (every seat the rung), with their setups:
    the scenario's [skill] rungs as given, else the game's rungs above every policy the scenario's
    seats play (the top two of them when no seat plays a rung), at most STRONGER_RUNGS of them."""
    setup = scenario.setup
    own = FamilyMember(f"{OWN} ({', '.join(dict.fromkeys(s.label for s in setup.seats))})",
                       [{"policy": s.policy.name, "params": dict(s.params)} for s in setup.seats])
    if scenario.skill.rungs is not None:
        stronger = list(scenario.skill.rungs)
    else:
        rungs = setup.game.skill_rungs(setup)
        played = {s.policy.name for s in setup.seats}
        placed = [i for i, rung in enumerate(rungs) if rung.seats[0]["policy"] in played]
        stronger = rungs[placed[-1] + 1:] if placed else rungs[-STRONGER_RUNGS:]
        stronger = stronger[-STRONGER_RUNGS:]
        if not stronger:
            raise SetupError("seats", f"every seat already plays the strongest skill rung of {setup.game.name} "
                                      f"({rungs[-1].name}); name stronger players in a [skill] table's rungs")
    key = "skill.rungs" if scenario.skill.rungs is not None else "--skill"
    return [(own, setup)] + [(r, scenario.with_seats(r.seat_list(), f"{key}[{i}]")) for i, r in enumerate(stronger)]


def margin_of(claim: Claim, share: float) -> float | None:
    """How far apart the two strongest rungs may be and still agree: ``share`` of the claim's
    tolerance, or of its target when it has none (None: a claim on 0 with no tolerance has no scale)."""
    scale = claim.tolerance or abs(claim.target)
    return share * scale if scale > 0 else None


# ---- the study ----------------------------------------------------------------------------
def evaluate(scenario: Scenario, games: int | None = None, tracker: Tracker | None = None,
             keep: Path | None = None) -> SkillStudy:
    """Play every rung on the same deals (robust.play_members; with ``keep``, each kept in its study
    folder there) and read every claim against skill."""
    pairs = rung_setups(scenario)
    results = play_members(scenario, pairs, games, tracker, keep)
    names = [m.name for m, _ in pairs]
    skipped = [(c, "it names a policy; every seat of a rung plays the same one") for c in scenario.claims
               if names_a_policy(c)]
    claims = [c for c in scenario.claims if not names_a_policy(c)]
    table, facts = evaluate_family(results, claims)
    facts = facts[facts["member"] == names[0]].drop(columns="member").reset_index(drop=True)
    fixed = set(facts["claim"])
    read = []
    for c in claims:
        if c.id in fixed:
            continue
        if margin_of(c, scenario.skill.margin_share) is None:
            skipped.append((c, "its target is 0 with no tolerance: no scale for a margin"))
        else:
            read.append(c)
    comparisons = compare(results[names[-1]], results[names[-2]], read, scenario.skill.margin_share,
                          (names[-1], names[-2]))
    return SkillStudy(scenario, [m for m, _ in pairs], [s for _, s in pairs], results, table, facts, comparisons,
                      classify(table, comparisons, names, read), skipped)


def deal_sums(results: Results, claim: Claim) -> dict[str, pd.DataFrame]:
    """Per group of ``claim`` (one group "" without ``by``): the per-deal sums of its quantity's
    numerator (y) and denominator (x), indexed by deal."""
    quantity = results.setup.game.quantity(claim.quantity, claim.id)
    keep = ["deal", quantity.column, quantity.denominator, claim.by, *claim.where]
    frame = results.table(quantity.table)[[k for k in dict.fromkeys(keep) if k is not None]]
    for column, value in claim.where.items():
        frame = frame[frame[column] == value]
    x = frame[quantity.denominator].to_numpy(float) if quantity.denominator else np.ones(len(frame))
    frame = frame.assign(_y=frame[quantity.column].to_numpy(float), _x=x)
    groups = [("", frame)] if claim.by is None else [(str(g), part) for g, part in frame.groupby(claim.by, sort=True)]
    return {g: part.groupby("deal")[["_y", "_x"]].sum() for g, part in groups}


def compare(stronger: Results, weaker: Results, claims: list[Claim], share: float,
            names: tuple[str, str]) -> pd.DataFrame:
    """One row per claim and group: the stronger rung's estimate minus the weaker's (paired by
    deal), its interval and the reading of the equivalence test at the claim's margin (Holm over
    every row)."""
    rows = []
    for claim in claims:
        margin = margin_of(claim, share)
        quantity = stronger.setup.game.quantity(claim.quantity, claim.id)
        a, b = deal_sums(stronger, claim), deal_sums(weaker, claim)
        for group in sorted(set(a) | set(b)):
            deals = a.get(group, pd.DataFrame(columns=["_y", "_x"])).index.union(
                b.get(group, pd.DataFrame(columns=["_y", "_x"])).index)
            sa, sb = (s.get(group, pd.DataFrame(columns=["_y", "_x"])).reindex(deals, fill_value=0.0)
                      for s in (a, b))
            est = paired_difference((sa["_y"], sa["_x"]), (sb["_y"], sb["_x"]))
            p_converged, p_moves = claim_pvalues(est.reference, 0.0, margin, "about")
            reason = TOO_FEW_DEALS if est.clusters < max(claim.min_deals, MIN_DEALS) else (
                NO_SPREAD if not est.reference.testable else "")
            if reason:
                p_converged = p_moves = 1.0
            rows.append({"claim": claim.id, "text": claim.text, "by": claim.by or "", "group": group,
                         "stronger": names[0], "weaker": names[1], "estimate": est.estimate, "low": est.low,
                         "high": est.high, "se": est.se, "deals": est.clusters, "margin": margin,
                         "target": claim.target, "tolerance": claim.tolerance, "compare": claim.compare,
                         "unit": quantity_unit(quantity, stronger.table(quantity.table)),
                         "p_holds": p_converged, "p_fails": p_moves, "_reason": reason,
                         "_ref": est.reference, "_claim": claim})
    if not rows:
        return pd.DataFrame(columns=COMPARISON_COLUMNS)
    table = decide(rows, ALPHA, ALPHA, columns=[*COMPARISON_COLUMNS[:-5], "p_holds_adjusted", "p_fails_adjusted",
                                                "decide_low", "decide_high", "verdict"])
    table = table.rename(columns={"p_holds_adjusted": "p_converged", "p_fails_adjusted": "p_moves"})
    table["verdict"] = table["verdict"].map({HOLDS: CONVERGED, FAILS: MOVES}).fillna(table["verdict"])
    return table[COMPARISON_COLUMNS]


# ---- readings -----------------------------------------------------------------------------
def reading(verdicts: list[str]) -> str:
    """A claim's reading from its groups' comparisons: moves when any group moves, converged when
    every group converged, undecided otherwise."""
    if MOVES in verdicts:
        return MOVES
    return CONVERGED if verdicts and all(v == CONVERGED for v in verdicts) else UNDECIDED


def classify(table: pd.DataFrame, comparisons: pd.DataFrame, rungs: list[str], claims: list[Claim]) -> pd.DataFrame:
    """One row per claim read: its reading, its verdict under every rung (the strongest's is the
    game's when it converged), and the group that moved most with its difference."""
    rows = []
    for claim in claims:
        part = comparisons[comparisons["claim"] == claim.id]
        verdicts = {m: member_verdict(p["verdict"]) for m, p in table[table["claim"] == claim.id].groupby(
            "member", sort=False)}
        largest = part.loc[part["estimate"].abs().idxmax()] if part["estimate"].notna().any() else None
        rows.append({"claim": claim.id, "text": claim.text, "reading": reading(list(part["verdict"])),
                     "verdict": verdicts.get(rungs[-1], UNDECIDED),
                     "verdicts": [verdicts.get(m, UNDECIDED) for m in rungs],
                     "largest_group": "" if largest is None else largest["group"],
                     "difference": np.nan if largest is None else float(largest["estimate"])})
    return pd.DataFrame(rows, columns=["claim", "text", "reading", "verdict", "verdicts", "largest_group",
                                       "difference"])


# ---- output -------------------------------------------------------------------------------
def difference_text(row) -> str:
    """A comparison row as one line: the difference in the claim's units, its deciding interval,
    the margin, the reading, e.g. "seat 0: -0.4 points [-1.1, +0.3] (margin ± 1.7 points): converged"."""
    units = Units.of(row).resolving(row["decide_low"], row["decide_high"])
    scale = units.scale
    label = f"{row['by']} {row['group']}" if row["by"] else "difference"
    low, high = row["decide_low"] * scale, row["decide_high"] * scale
    interval = f"[{units.signed(low)}, {units.signed(high)}]" if np.isfinite(low) and np.isfinite(high) \
        else "[no interval]"
    return (f"{label}: {units.signed(row['estimate'] * scale)}{units.effect_unit} {interval} "
            f"(margin ± {units.amount(row['margin'])}): {row['verdict']}")


UNDECIDED_READING = "the two strongest rungs neither agree nor differ beyond the margin"


def undecided_text(reading_row) -> str:
    """An undecided reading, and what every rung's verdict says when they all say the same: a claim
    that fails at every rung fails for these players and stronger ones, whether or not the two
    strongest rungs are shown to agree."""
    verdicts = set(reading_row["verdicts"])
    if len(verdicts) == 1 and UNDECIDED not in verdicts:
        return f"{UNDECIDED_READING}; it {verdicts.pop()} at every rung played"
    return UNDECIDED_READING


def direction_text(reading_row, comparisons: pd.DataFrame) -> str:
    """Which way stronger players push a claim that moves with skill."""
    part = comparisons[(comparisons["claim"] == reading_row["claim"]) & (comparisons["verdict"] == MOVES)]
    row = part.loc[part["estimate"].abs().idxmax()]
    units = Units.of(row)
    where = f" ({row['by']} {row['group']})" if row["by"] else ""
    way = "up" if row["estimate"] > 0 else "down"
    return (f"stronger players push it {way} by {units.amount(abs(row['estimate']))}"
            f"{where}: the verdict describes the players, not the game")


def reading_detail(reading_row, comparisons: pd.DataFrame, strongest: str) -> str:
    """What a claim's reading says, after its name: the game's verdict (converged, at the strongest
    rung), which way stronger players push it (moves with skill), or why it is undecided."""
    if reading_row["reading"] == CONVERGED:
        return f"the game's verdict (at {strongest}): {reading_row['verdict']}"
    if reading_row["reading"] == MOVES:
        return direction_text(reading_row, comparisons)
    return undecided_text(reading_row)


def share_text(share: float) -> str:
    """A margin share as a designer writes it: "1/3", "1/2", else "0.25"."""
    for d in range(1, 11):
        if abs(share * d - round(share * d)) < 1e-9:
            return f"{round(share * d)}/{d}" if d > 1 else f"{share:g}"
    return f"{share:.2g}"


def skill_text(study: SkillStudy) -> str:
    sc = study.scenario
    names = [m.name for m in study.rungs]
    unit = "matches" if sc.setup.game.unit == "round" else "games"
    lines = [f"{sc.title}  [{sc.path}]  skill: {len(names)} rungs, {study.games:,} {unit} each on the same deals, "
             f"seed {sc.seed}",
             f"  read on the two strongest rungs ({names[-2]}; {names[-1]}): they agree within "
             f"{share_text(sc.skill.margin_share)} of a claim's tolerance (paired equivalence test, Holm over "
             f"{len(study.comparisons)} comparisons; the verdicts: Holm over {len(study.claims)} tests)"]
    lines += [f"  rung {i + 1}: {name}" for i, name in enumerate(names)]
    for r in study.readings.to_dict("records"):
        lines.append(f"  {r['claim']}: {r['text']}")
        lines.append(f"    {r['reading'].upper()}: {reading_detail(r, study.comparisons, names[-1])}")
        part = study.claims[study.claims["claim"] == r["claim"]]
        for member, rows in part.groupby("member", sort=False):
            label = " -" if len(rows) == 1 else f" ({len(rows)} groups), farthest from the target:"
            lines.append(f"      {member}: {member_verdict(rows['verdict'])}{label} {verdict_text(worst_group(rows))}")
        for row in study.comparisons[study.comparisons["claim"] == r["claim"]].to_dict("records"):
            lines.append(f"      strongest - second: {difference_text(row)}")
    if len(study.facts):
        lines.append("  facts of the setup (the same for every player):")
        lines += [f"    {fact_text(r)}" for r in study.facts.to_dict("records")]
    lines += [f"  {c.id}: left out ({why})" for c, why in study.skipped]
    return "\n".join(lines)


def skill_json(study: SkillStudy) -> dict:
    return {"study": study.scenario.describe(), "games": study.games,
            "rungs": [{"name": m.name, "policies": [seat.label for seat in s.seats]}
                      for m, s in zip(study.rungs, study.setups)],
            "margin_share": study.scenario.skill.margin_share, "readings": study.readings,
            "comparisons": study.comparisons, "claims": study.claims, "facts": study.facts,
            "skipped": [{"claim": c.id, "why": why} for c, why in study.skipped]}
