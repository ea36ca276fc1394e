"""The Imposter Kings' Army-choice study (a scenario's ``[army_choice]`` table, parsed by the game):
what players who choose their Signature Cards well would pick, from matches whose Armies were dealt
at random (``stats.composition_choice``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from balance.engine.game import Analysis
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings.game import SIGNATURE_COLUMNS, SIGNATURE_TYPES
from balance.games.imposter_kings.policies import SIGNATURE_PREFERENCE
from balance.stats import composition_choice


def army_choice(results, draws: int) -> Analysis:
    """What players who choose their Armies well would pick (``stats.composition_choice``), from
    matches whose Armies were dealt at random: each match's two Armies and its winner."""
    games = results.games
    last = games[(games["last_round"] == 1) & (games["match_winner"] >= 0)]
    armies = [np.stack([(last[column].to_numpy() >> t) & 1 for t in SIGNATURE_TYPES], axis=1)
              for column in SIGNATURE_COLUMNS]
    found = composition_choice(armies[0], armies[1], (last["match_winner"] == 0).to_numpy(), L.SIGNATURE_CHOICES,
                               draws, results.seed)
    names = [L.NAMES[t] for t in SIGNATURE_TYPES]

    def army(option) -> str:
        return ", ".join(n for n, held in zip(names, option) if held)

    def points(logit) -> np.ndarray:  # a logit edge as points of win probability from an even match
        return 100 * (expit(logit) - 0.5)

    heuristic = np.isin(SIGNATURE_TYPES, SIGNATURE_PREFERENCE[:L.SIGNATURE_CHOICES]).astype(float)
    best = int(np.argmax(found.field_edge))
    table = pd.DataFrame({
        "card": names,
        "equilibrium pick rate": [f"{p:.3f}" for p in found.pick],
        "pick rate 95% CI": [f"[{lo:.3f}, {hi:.3f}]" for lo, hi in zip(found.pick_low, found.pick_high)],
        "mean over draws": [f"{p:.3f}" for p in found.pick_mean],
        "strength (pts)": [f"{v:+.2f}" for v in points(found.strength)],
        "strength 95% CI": [f"[{lo:+.2f}, {hi:+.2f}]" for lo, hi in zip(points(found.strength_low),
                                                                      points(found.strength_high))],
        "in the heuristic's Army": ["yes" if h else "" for h in heuristic],
    }).iloc[np.lexsort((-found.pick_mean, -found.pick))]

    def listed(mask) -> str:
        return ", ".join(n for n, keep in zip(names, mask) if keep)

    often, rarely = listed(found.pick_low > 0.5), listed(found.pick_high < 0.5)
    verdict = "; ".join(part for part in (f"take {often} in most matches" if often else "",
                                          f"rarely take {rarely}" if rarely else "") if part)
    support = "; ".join(f"{army(o)} {p:.0%}" for o, p in zip(found.options, found.equilibrium) if p >= 0.005)
    stat, df, p = found.counter_test
    syn_stat, syn_df, syn_p = found.synergy_test
    text = (f"Players who choose their three Signature Cards well, against players who do too: "
            f"{verdict or 'no card is clearly in or out'} (95% interval of the pick rate above, or below, 1/2). "
            f"Equilibrium Armies of the fitted model: "
            f"{support}. Best Army against Armies dealt at random: {army(found.options[best])}, "
            f"{100 * found.field_edge[best]:+.1f} points of match win rate [{100 * found.field_edge_low[best]:+.1f}, "
            f"{100 * found.field_edge_high[best]:+.1f}]. The heuristic always chooses {army(heuristic)}. "
            f"Measured with the study's players ({', '.join(dict.fromkeys(s.label for s in results.setup.seats))}): "
            f"the choice is best for players who play the cards as they do.")
    method = (f"From {found.games:,} matches whose Armies were dealt at random (each card's effect is causal). "
              f"Model: P(seat A's Army wins the match) logistic in the two Armies: each card's strength, each card "
              f"against each other card (counters), each pair in one Army (synergies); the equilibrium is a mixed "
              f"choice of Army that no Army beats (linear programming). Intervals: {draws} draws of the model's "
              f"coefficients; their mean pick rate is that of a chooser who weighs the model's uncertainty. "
              f"Strength: a card instead of the nine's average, against an even opponent, in points of match "
              f"win rate (the model without counters and synergies). Counters seen? likelihood-ratio "
              f"{stat:.1f} on {df} df, p = {p:.3g}; synergies: {syn_stat:.1f} on {syn_df} df, p = {syn_p:.3g}.")
    return Analysis("The Army choice: what players who choose well pick", text, table.reset_index(drop=True),
                    method)
