"""DETHRONED's sensitivity sweep: how far each role's win rate moves with the policies' parameters,
the rule readings (options) and the assumed timing.

    python -m balance.games.dethroned.sensitivity -n 3000   # reports/dethroned/sensitivity.{md,csv}
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from balance.engine.runner import simulate
from balance.engine.scenario import load_scenario
from balance.games.dethroned.game import GAME
from balance.games.dethroned.setups import SCENARIO_DIR, WIN_TARGET, WIN_TOLERANCE
from balance.report import markdown_table as md_table

REPORT_DIR = Path("reports/dethroned")


# ---- the sensitivity sweep ---------------------------------------------------------------------
HONEST = {"lying_royalty": 0.0, "lying_assailant": 0.0, "lying_commoner": 0.0}
LIARS = {"lying_royalty": 0.7, "lying_assailant": 0.7, "lying_commoner": 0.7}
SWEEP = (
    # (label, policy, params, options): one change from the baseline each
    ("baseline", "heuristic", {}, {}),
    ("art symbols", "heuristic", {}, {"symbols": "art"}),
    # the assumed timing: reaction speed, the defence window, the attacker's count
    ("fast (0.5 s)", "heuristic", {"reaction_mean": 0.5}, {}),
    ("slow (2 s)", "heuristic", {"reaction_mean": 2.0}, {}),
    ("window 2 s", "heuristic", {}, {"window_seconds": 2.0}),
    ("window 5 s", "heuristic", {}, {"window_seconds": 5.0}),
    ("count 1.5 s", "heuristic", {}, {"count_seconds": 1.5}),
    ("count 5 s", "heuristic", {}, {"count_seconds": 5.0}),
    # the rule readings the two rulebook texts leave open
    ("overwrite attacks", "heuristic", {}, {"attack_by_overwrite": True}),
    ("redirect defences", "heuristic", {}, {"redirect_defending_card": True}),
    ("redirect keeps deadline", "heuristic", {}, {"redirect_restarts_window": False}),
    ("defences stack", "heuristic", {}, {"defence_cards": "stack"}),
    ("impasse after 1 round", "heuristic", {}, {"impasse_rounds": 1}),
    ("impasse after 4 rounds", "heuristic", {}, {"impasse_rounds": 4}),
    # the hidden-role layer
    ("honest (lying 0)", "heuristic", HONEST, {}),
    ("liars (lying 0.7)", "heuristic", LIARS, {}),
    ("honest Royalty", "heuristic", {"lying_royalty": 0.0}, {}),
    ("honest Assailants", "heuristic", {"lying_assailant": 0.0}, {}),
    ("credulous (trust 0.9)", "heuristic", {"trust": 0.9}, {}),
    ("doubting (trust 0.3)", "heuristic", {"trust": 0.3}, {}),
    ("trusting table", "trusting", {}, {}),
    ("suspicious table", "suspicious", {}, {}),
    ("random play", "random", {}, {}),
)


def role_rates(setup, seed: int, games: int) -> pd.Series:
    results = simulate(setup, seed, games)
    return results.seats.groupby("role")["won"].mean()


def verdict_letter(rate: float, games: int) -> str:
    """Quick verdict of 'about 50% +/- 10' with a 95% normal interval (sweep only; the claim
    table uses the engine's TOST verdicts)."""
    half = 1.96 * np.sqrt(max(rate * (1 - rate), 1e-9) / games)
    low, high = rate - half, rate + half
    if low >= WIN_TARGET - WIN_TOLERANCE and high <= WIN_TARGET + WIN_TOLERANCE:
        return "holds"
    if high < WIN_TARGET - WIN_TOLERANCE or low > WIN_TARGET + WIN_TOLERANCE:
        return "fails"
    return "?"


def sweep(games: int, folder: Path = SCENARIO_DIR, out: Path = REPORT_DIR) -> pd.DataFrame:
    rows = []
    for path in sorted(folder.glob("*.toml")):
        scenario = load_scenario(path)
        roles = scenario.setup.extra["roles"]
        for label, policy, params, options in SWEEP:
            setup = GAME.make_setup("standard", len(roles), [(policy, params)] * len(roles),
                                    options={**scenario.setup.options, **options}, rotate=False,
                                    extra={"roles": roles})
            for role, rate in role_rates(setup, scenario.seed, games).items():
                rows.append({"setup": path.stem, "variant": label, "role": role, "win_rate": rate,
                             "verdict": verdict_letter(rate, games)})
    table = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "sensitivity.csv", index=False)
    (out / "sensitivity.md").write_text(sensitivity_markdown(table, games), encoding="utf-8")
    return table


def sensitivity_markdown(table: pd.DataFrame, games: int) -> str:
    labels = [s[0] for s in SWEEP]
    wide = table.pivot_table(index=["setup", "role"], columns="variant", values="win_rate")[labels]
    verdicts = table.pivot_table(index=["setup", "role"], columns="variant", values="verdict", aggfunc="first")[labels]
    holds = (verdicts == "holds").sum().rename("roles within 50% +/- 10")
    flips = (verdicts.ne(verdicts["baseline"], axis=0)).sum().rename("verdicts changed vs baseline")
    moves = wide.sub(wide["baseline"], axis=0).abs()
    median = moves.median().map(lambda v: f"{100 * v:.1f}").rename("median move (points)")
    largest = moves.max().map(lambda v: f"{100 * v:.1f}").rename("largest move (points)")
    lines = [f"# DETHRONED: sensitivity of the role win rates ({games:,} games per cell, seed as in each scenario)",
             "",
             "Each column changes one thing from the baseline (heuristic policy at every seat, default options).",
             "Cell: win rate of the role; verdicts of 'about 50% +/- 10 points' use a 95% normal interval.",
             "",
             "## How many role verdicts each change moves", "",
             md_table(pd.concat([holds, flips, median, largest], axis=1).reset_index()), "",
             "## Win rate by setup, role and variant", "",
             md_table(wide.map(lambda v: f"{v:.3f}").reset_index()), ""]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    games = int(argv[argv.index("-n") + 1]) if "-n" in argv else 5_000
    sweep(games)
    print(f"wrote {REPORT_DIR / 'sensitivity.md'} and {REPORT_DIR / 'sensitivity.csv'}")


if __name__ == "__main__":
    main(sys.argv[1:])
