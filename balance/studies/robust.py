"""Policy robustness: a scenario's claims under every member of a policy family.

A balance verdict is a statement about the game played by someone. ``balance check --robust``
plays the scenario once per member of its policy family (the game's ``Game.policy_family``, or the
scenario's ``[robustness]`` table), every seat that kind of player, with the scenario's seed, so
every member plays the same deals (common random numbers). All claims x groups x members form ONE
family for Holm (``stats.evaluate_family``), and each claim gets one reading:

- **robust holds** / **robust fails**: the same decided verdict under every member;
- **policy-sensitive**: decided verdicts that disagree (it holds under some members and fails
  under others; both are error-controlled, so the disagreement itself is shown);
- **undecided**: otherwise (some member leaves it undecided and none contradicts the others).

Under one member a claim with groups (``by = "seat"``) fails when any group fails and holds when
every group holds. A claim that names a policy (``by`` or ``where`` on the policy column) asks
about a mixed table and is left out: under a family member every seat plays the same policy.
Fixed facts of the setup do not depend on the players; they are shown once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from balance.engine.game import FamilyMember, Setup
from balance.engine.runner import SEARCH_CHUNK, Results, Tracker, kept_games, play_parts, round_to_deals
from balance.engine.scenario import Claim, Scenario
from balance.stats import FAILS, HOLDS, UNDECIDED, Units, evaluate_family, fact_text, game_word, plural, verdict_text

ROBUST_HOLDS, ROBUST_FAILS, SENSITIVE = "robust holds", "robust fails", "policy-sensitive"
READINGS = (ROBUST_HOLDS, ROBUST_FAILS, SENSITIVE, UNDECIDED)
POLICY_COLUMN = "policy"


@dataclass
class Robustness:
    """A scenario played by every member of its policy family, with the claims decided as one family."""

    scenario: Scenario
    members: list[FamilyMember]
    setups: list[Setup]
    results: dict[str, Results]  # by member name
    claims: pd.DataFrame  # one row per member, claim and group (stats.evaluate_family)
    facts: pd.DataFrame  # the fixed facts of the setup, under the first member
    readings: pd.DataFrame  # one row per claim: its reading, the range of estimates, members by verdict
    skipped: list[Claim]  # claims that name a policy

    @property
    def games(self) -> int:
        return max(r.n_games for r in self.results.values())

    def claim_rows(self, claim_id: str) -> pd.DataFrame:
        """One claim's rows of the claims table (every member and group)."""
        return self.claims[self.claims["claim"] == claim_id]


def names_a_policy(claim: Claim) -> bool:
    return claim.by == POLICY_COLUMN or POLICY_COLUMN in claim.where


def member_setups(scenario: Scenario) -> list[tuple[FamilyMember, Setup]]:
    """Every member of the scenario's family with its setup (the scenario's, other seats)."""
    members = scenario.family()
    return [(m, scenario.with_seats(m.seat_list(), f"robustness.members[{i}]")) for i, m in enumerate(members)]


def member_scenario(scenario: Scenario, member: FamilyMember, setup: Setup) -> Scenario:
    """The scenario as one member plays it: its table with the member's seats (a kept member's
    folder copies it), no family of its own."""
    data = {k: v for k, v in scenario.data.items() if k not in ("robustness", "skill", "precision")}
    return replace(scenario, path=None, setup=setup, data={**data, "seats": member.seats}, precision=None,
                   robustness=None)


def member_folder(keep: Path | None, index: int, member: FamilyMember) -> Path | None:
    """Where member ``index`` of a family (or a skill rung) is kept: ``keep``/2-tree-search-256-iterations;
    None: played in memory."""
    return keep / f"{index}-{re.sub(r'[^a-z0-9]+', '-', member.name.lower()).strip('-')}" if keep else None


def play_members(scenario: Scenario, pairs: list[tuple[FamilyMember, Setup]], games: int | None,
                 tracker: Tracker | None, keep: Path | None = None, chunk: int = SEARCH_CHUNK) -> dict[str, Results]:
    """Play ``games`` games (default: the scenario's ``games``; whole deals) under every member of
    ``pairs`` (a policy family's, or the skill rungs), on the same deals (the scenario's seed):
    their results by member name. With ``keep``, each member in its study folder there
    (``member_folder``; ``runner.play_parts``: every member's first chunk first; a folder of another
    study is refused before anything plays)."""
    tracker = tracker or Tracker()
    count = scenario.games if games is None else games
    parts = [(member_scenario(scenario, m, setup), member_folder(keep, i, m), round_to_deals(count, setup.rotations))
             for i, (m, setup) in enumerate(pairs)]
    tracker.begin(sum(n for _, _, n in parts),
                  sum(kept_games(folder, sc.setup, scenario.seed, n, chunk) for sc, folder, n in parts))
    return dict(zip((m.name for m, _ in pairs), play_parts(parts, scenario.seed, tracker, chunk)))


def evaluate(scenario: Scenario, games: int | None = None, tracker: Tracker | None = None,
             keep: Path | None = None) -> Robustness:
    """Play every member on the same deals (play_members; with ``keep``, each kept in its study
    folder there) and read every claim over the family."""
    pairs = member_setups(scenario)
    results = play_members(scenario, pairs, games, tracker, keep)
    claims = [c for c in scenario.claims if not names_a_policy(c)]
    table, facts = evaluate_family(results, claims)
    first = pairs[0][0].name
    facts = facts[facts["member"] == first].drop(columns="member").reset_index(drop=True)
    return Robustness(scenario, [m for m, _ in pairs], [s for _, s in pairs], results, table, facts,
                      classify(table, [m.name for m, _ in pairs]),
                      [c for c in scenario.claims if names_a_policy(c)])


# ---- readings -----------------------------------------------------------------------------
def member_verdict(verdicts) -> str:
    """A claim's verdict under one member from its groups' verdicts: fails when any group fails,
    holds when every group holds, undecided otherwise (too few deals or no spread included)."""
    verdicts = list(verdicts)
    if FAILS in verdicts:
        return FAILS
    if verdicts and all(v == HOLDS for v in verdicts):
        return HOLDS
    return UNDECIDED


def reading(member_verdicts: list[str]) -> str:
    """The overall reading of a claim from its verdict under each member."""
    if member_verdicts and all(v == HOLDS for v in member_verdicts):
        return ROBUST_HOLDS
    if member_verdicts and all(v == FAILS for v in member_verdicts):
        return ROBUST_FAILS
    if HOLDS in member_verdicts and FAILS in member_verdicts:
        return SENSITIVE
    return UNDECIDED


def classify(table: pd.DataFrame, members: list[str] | None = None) -> pd.DataFrame:
    """One row per claim of a claims x groups x members table (columns member, claim, text,
    estimate, low, high, verdict): its reading, the range of estimates and 95% bounds over every
    member and group, and the members under which it holds, fails or stays undecided (in
    ``members`` order, default: as they appear)."""
    members = members or list(dict.fromkeys(table["member"]))
    rows = []
    for claim, part in table.groupby("claim", sort=False):
        by_member = {m: member_verdict(p["verdict"]) for m, p in part.groupby("member", sort=False)}
        verdicts = {v: [m for m in members if by_member.get(m) == v] for v in (HOLDS, FAILS, UNDECIDED)}
        rows.append({"claim": claim, "text": part["text"].iloc[0],
                     "reading": reading([by_member[m] for m in members if m in by_member]),
                     "estimate_min": float(np.nanmin(part["estimate"])) if part["estimate"].notna().any() else np.nan,
                     "estimate_max": float(np.nanmax(part["estimate"])) if part["estimate"].notna().any() else np.nan,
                     "low": float(part["low"].min()), "high": float(part["high"].max()),
                     "holds": verdicts[HOLDS], "fails": verdicts[FAILS], "undecided": verdicts[UNDECIDED]})
    return pd.DataFrame(rows, columns=["claim", "text", "reading", "estimate_min", "estimate_max", "low", "high",
                                       "holds", "fails", "undecided"])


# ---- output -------------------------------------------------------------------------------
def estimates_text(rows: pd.DataFrame) -> str:
    """The estimates of one claim's rows (over members and groups) in the claim's units and decimals
    (stats.Units, as the claims tables print them): "25.3%", or their range "24.8% to 26.1%"."""
    units = Units.of(rows.iloc[0])
    low, high = rows["estimate"].min(), rows["estimate"].max()
    return units.measured(low) if len(rows) == 1 else units.span(low, high)


def worst_group(rows: pd.DataFrame) -> dict:
    """The group farthest from its target (the one a designer looks at first)."""
    effect = (rows["estimate"] - rows["target"]).abs()
    return rows.loc[effect.idxmax() if effect.notna().any() else rows.index[0]].to_dict()


def robust_text(rob: Robustness) -> str:
    sc = rob.scenario
    lines = [f"{sc.title}  [{sc.path}]  policy robustness: {len(rob.members)} members, {rob.games:,} "
             f"{plural(game_word(sc.setup))} each on the same deals, seed {sc.seed}",
             f"  claims x groups x members form one family: Holm over {len(rob.claims)} tests"]
    lines += [f"  member {i + 1}: {m.name}  [{s.seats[0].label}{'' if s.identical_players else ', ...'}]"
              for i, (m, s) in enumerate(zip(rob.members, rob.setups))]
    for r in rob.readings.to_dict("records"):
        lines.append(f"  {r['claim']}: {r['text']}")
        part = rob.claim_rows(r["claim"])
        lines.append(f"    {r['reading'].upper()}: estimates {estimates_text(part)}"
                     + "".join(f"; {v} under {', '.join(r[v])}" for v in (HOLDS, FAILS)
                               if r[v] and r["reading"] in (SENSITIVE, UNDECIDED)))
        for member, rows in part.groupby("member", sort=False):
            worst = worst_group(rows)
            label = " -" if len(rows) == 1 else f" ({len(rows)} groups), farthest from the target:"
            lines.append(f"      {member}: {member_verdict(rows['verdict'])}{label} {verdict_text(worst)}")
    if len(rob.facts):
        lines.append("  facts of the setup (the same under every member):")
        lines += [f"    {fact_text(r)}" for r in rob.facts.to_dict("records")]
    lines += [f"  {c.id}: left out (it names a policy; under a family member every seat plays the same one)"
              for c in rob.skipped]
    return "\n".join(lines)


def robust_json(rob: Robustness) -> dict:
    return {"study": rob.scenario.describe(), "games": rob.games,
            "members": [{"name": m.name, "policies": [seat.label for seat in s.seats]}
                        for m, s in zip(rob.members, rob.setups)],
            "tests": len(rob.claims), "readings": rob.readings, "claims": rob.claims,
            "facts": rob.facts, "skipped": [c.id for c in rob.skipped]}
