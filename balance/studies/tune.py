"""Tuning a rule to its target: the setting of some scenario keys that brings one claim's estimate
closest to the claim's target (``balance tune``).

The search is optuna's TPE sampler (seeded, so a tuning run is reproducible) over the ranges
given (``KEY=LOW..HIGH``, integers when both ends are; or ``KEY=V1,V2,...`` choices), minimising
|estimate - target| of the claim (one group of it); a third of the trials (at most 10) are random
before TPE models the results, and a setting tried twice is played once. Noise: every trial plays the scenario's own
seed, so trials are compared on the same deals (common random numbers) and their differences are
the settings', not the deals'; then the ``REPEAT_BEST`` best settings are played again on a fresh
seed and ranked by their mean distance over both seeds, so that a setting that was only lucky on
the first deals drops back. The winner is confirmed by a third, fresh seed: its estimate, 95%
interval and verdict (Holm over the scenario's claims, as ``balance check``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.runner import IN_PROCESS, Executor, Tracker, play_study, round_to_deals
from balance.engine.scenario import Scenario, load_scenario, read_scenario_data
from balance.stats import claim_rows, decide, look_alpha
from balance.studies.sweep import SweepError, _cell_scenario, parse_vary, toml_value

REPEAT_BEST = 3  # settings replayed on a fresh seed before the best is chosen
SEED_STEP = 1_000_003  # fresh seeds: the scenario's seed plus multiples of this (mod 2**63)
SEED_SPACE = 2**63
STARTUP_TRIALS = 10  # optuna's default number of random trials before TPE


@dataclass(frozen=True)
class Range:
    key: str
    low: float | None = None
    high: float | None = None
    integer: bool = False
    choices: tuple | None = None

    def suggest(self, trial) -> Any:
        if self.choices is not None:
            return trial.suggest_categorical(self.key, list(self.choices))
        if self.integer:
            return trial.suggest_int(self.key, int(self.low), int(self.high))
        return trial.suggest_float(self.key, self.low, self.high)

    @property
    def ends(self) -> list:
        return list(self.choices) if self.choices is not None else [self.low, self.high]


def parse_range(text: str) -> Range:
    """``KEY=LOW..HIGH`` (integers when both ends are whole numbers written without a point) or
    ``KEY=V1,V2,...`` (choices)."""
    key, sep, rest = text.partition("=")
    key = key.strip()
    if ".." not in rest:
        key, values = parse_vary(text)
        return Range(key, choices=tuple(values))
    low, high = (toml_value(v) for v in rest.split("..", 1))
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (low, high))
    if not sep or not key or not numbers or low >= high:
        raise SweepError(f"--vary: expected KEY=LOW..HIGH with finite numbers LOW < HIGH; got {text!r}")
    return Range(key, float(low), float(high), integer=isinstance(low, int) and isinstance(high, int))


def target_group(scenario: Scenario, spec: str) -> tuple[Any, str]:
    """The claim and group ``CLAIM`` or ``CLAIM:GROUP`` names (groups from one sample deal)."""
    claim_id, _, group = spec.partition(":")
    try:
        claim = scenario.claim(claim_id)
    except KeyError as unknown:
        raise SweepError(f"--target: {unknown.args[0]}") from None
    setup = scenario.setup
    sample = play_study(scenario, scenario.seed, [setup.rotations])
    rows, facts = claim_rows(sample, [claim])
    if facts:
        raise SweepError(f"--target: claim '{claim_id}' is a fixed fact of the setup; nothing to tune")
    groups = [r["group"] for r in rows]
    if not group and len(groups) == 1:
        return claim, groups[0]
    if group not in groups:
        raise SweepError(f"--target: claim '{claim_id}' has groups {', '.join(groups)}; name one as {claim_id}:GROUP")
    return claim, group


def startup_trials(trials: int) -> int:
    """Random trials before TPE models the results: a third of the budget, at most optuna's 10."""
    return max(1, min(STARTUP_TRIALS, trials // 3))


def fresh_seed(seed: int, step: int) -> int:
    return (seed + step * SEED_STEP) % SEED_SPACE


class Tuner:
    """Plays a setting of the ranges' keys and measures the target claim on it."""

    def __init__(self, scenario: Scenario, data: dict, claim, group: str, games: int, executor: Executor,
                 tracker: Tracker):
        self.base, self.data, self.claim, self.group = scenario, data, claim, group
        self.games, self.executor, self.tracker = games, executor, tracker

    def scenario(self, setting: dict[str, Any]) -> Scenario:
        return _cell_scenario(self.base, self.data, setting, "--vary")

    def measure(self, setting: dict[str, Any], seed: int) -> dict:
        """The target claim's row (estimate, interval, p-values) for ``setting`` on ``seed``."""
        sc = self.scenario(setting)
        results = play_study(sc, seed, [round_to_deals(self.games, sc.setup.rotations)], tracker=self.tracker,
                             executor=self.executor)
        rows, _ = claim_rows(results, sc.claims)
        table = decide(rows, look_alpha(None, None))
        row = table[(table["claim"] == self.claim.id) & (table["group"] == self.group)].iloc[0]
        return {**row.to_dict(), "distance": abs(row["estimate"] - self.claim.target), "games": results.n_games}


def tune(path, target: str, ranges: list[Range], trials: int, games: int | None, seed: int | None,
         executor: Executor = IN_PROCESS, tracker: Tracker | None = None) -> dict:
    """Search, re-rank the best settings on a fresh seed, confirm the winner on another."""
    import optuna

    scenario = load_scenario(path)
    if seed is not None:
        scenario.seed = seed
    data = read_scenario_data(scenario.path)
    tuner = Tuner(scenario, data, None, "", games or scenario.games, executor, tracker or Tracker())
    for r in ranges:  # every end (or choice) is a valid scenario, before anything plays
        for value in r.ends:
            tuner.scenario({r.key: int(value) if r.integer else value})
    tuner.claim, tuner.group = target_group(scenario, target)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=scenario.seed % 2**32, n_startup_trials=startup_trials(trials))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    measured: dict[tuple, dict] = {}

    def objective(trial) -> float:
        setting = {r.key: r.suggest(trial) for r in ranges}
        key = tuple(setting.items())
        if key not in measured:  # integer and choice ranges repeat settings: played once
            measured[key] = tuner.measure(setting, scenario.seed)
        return measured[key]["distance"]

    study.optimize(objective, n_trials=trials)
    ranked = sorted(measured.items(), key=lambda kv: kv[1]["distance"])[:REPEAT_BEST]
    second_seed = fresh_seed(scenario.seed, 1)
    repeats = []
    for key, first in ranked:
        again = tuner.measure(dict(key), second_seed)
        repeats.append({"setting": dict(key), "distance_first": first["distance"], "distance_again": again["distance"],
                        "mean_distance": (first["distance"] + again["distance"]) / 2})
    best = min(repeats, key=lambda r: r["mean_distance"])
    confirm_seed = fresh_seed(scenario.seed, 2)
    confirmation = tuner.measure(best["setting"], confirm_seed)
    return {
        "scenario": str(scenario.path), "claim": tuner.claim.id, "group": tuner.group, "target": tuner.claim.target,
        "tolerance": tuner.claim.tolerance, "compare": tuner.claim.compare, "trials": trials,
        "settings_played": len(measured), "games": confirmation["games"], "seed": scenario.seed,
        "tried": [{"setting": dict(k), "estimate": v["estimate"], "distance": v["distance"]} for k, v in measured.items()],
        "repeated": repeats, "best": best["setting"],
        "confirmation": {"seed": confirm_seed, **{k: confirmation[k] for k in (
            "estimate", "low", "high", "decide_low", "decide_high", "verdict", "deals", "distance")}},
    }


def tune_text(result: dict) -> str:
    c = result["confirmation"]
    setting = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in result["best"].items())
    group = f" ({result['group']})" if result["group"] else ""
    lines = [f"tune {result['scenario']}: claim {result['claim']}{group} toward {result['target']:g}; "
             f"{result['trials']} trials ({result['settings_played']} settings), {result['games']:,} games each, "
             f"seed {result['seed']}",
             f"  best {len(result['repeated'])} replayed on a fresh seed (mean distance from the target):"]
    for r in sorted(result["repeated"], key=lambda r: r["mean_distance"]):
        text = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in r["setting"].items())
        lines.append(f"    {text}: {r['mean_distance']:.4f} ({r['distance_first']:.4f}, then {r['distance_again']:.4f})")
    interval = f"[{c['low']:.4f}, {c['high']:.4f}]" if np.isfinite(c["low"]) else "(no interval)"
    lines.append(f"  best setting: {setting}")
    lines.append(f"  confirmed on a fresh seed {c['seed']}: estimate {c['estimate']:.4f} {interval}, "
                 f"{abs(c['estimate'] - result['target']):.4f} from the target; claim {c['verdict']}")
    return "\n".join(lines)
