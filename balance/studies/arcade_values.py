"""Throne Arcade: the value of each special card and the length of a match, as tables (the effect of
each rule option is a sweep: scenarios/throne_arcade/options_sweep.toml).

    balance arcade-values -n 4000 > reports/throne_arcade/values.md

Every figure is an estimate of one of the game's declared quantities (or of a seat-row rate) with
its 95% interval, the deal (one match) as the sampling unit (balance.stats.estimate), heuristic
self-play, the same seed for every setup (common random numbers for the deals).

- Special cards: in full-table rounds dealt 5 cards (no loss yet, so the hand size is the same for
  every seat compared), the chance that a seat dealt at least one card of a kind loses the round,
  against a seat dealt none of that kind. Negative: the card helps its holder. The difference's
  interval combines the two rates' standard errors as if independent (approximate).
- Match length: the share of 4-player matches of each length (15 to 19 rounds).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.engine.runner import simulate
from balance.games.throne_arcade import layout as L
from balance.games.throne_arcade.game import GAME
from balance.report import markdown_table
from balance.stats import estimate

SEED = 20261210
Z95 = 1.959964  # the value's interval: normal, from the two rates' cluster-robust standard errors
SPECIAL_WORDS = {"vii": "VII (not orange)", "orange_vii": "orange VII", "green_lord": "green Lord", "hand": "Hand",
                 "ace": "Ace"}


def percent(est) -> str:
    return f"{est.estimate * 100:.1f} [{est.low * 100:.1f}, {est.high * 100:.1f}]"


def specials_table(results) -> pd.DataFrame:
    seats = results.seats
    base = seats[(seats["alive"] == results.setup.players) & (seats["hand"] == L.START_HAND)]
    rows = []
    for kind in L.SPECIAL_KINDS:
        held = base[base[f"has_{kind}"] == 1]
        without = base[base[f"has_{kind}"] == 0]
        with_est = estimate("rate", held, "lost")
        without_est = estimate("rate", without, "lost")
        value = with_est.estimate - without_est.estimate
        half = Z95 * np.hypot(with_est.se, without_est.se)
        rows.append({"card": SPECIAL_WORDS[kind], "seat-rounds holding it": f"{len(held):,}",
                     "P(lose) holding it (%)": percent(with_est), "P(lose) without it (%)": percent(without_est),
                     "value (points; negative helps)": f"{value * 100:+.1f} [{(value - half) * 100:+.1f}, "
                                                       f"{(value + half) * 100:+.1f}]"})
    return pd.DataFrame(rows)


def length_table(results) -> pd.DataFrame:
    last = results.games[results.games["last_round"] == 1]
    decided = last[last["match_winner"] >= 0]
    shares = decided["match_rounds"].value_counts(normalize=True).sort_index()
    frame = pd.DataFrame({"rounds": shares.index, "share of matches (%)": (shares.to_numpy() * 100).round(1)})
    capped = pd.DataFrame({"rounds": ["capped"], "share of matches (%)": [round(100 * (1 - len(decided) / len(last)),
                                                                                   2)]})
    return pd.concat([frame, capped], ignore_index=True)


def values_page(games: int) -> str:
    """The study as a Markdown page: ``games`` matches of 4-player heuristic self-play."""
    default = simulate(GAME.make_setup("standard", 4, "heuristic"), SEED, games)
    return "\n".join([
        "# Throne Arcade: special cards, match length\n",
        f"Made by `balance arcade-values -n {games}` ({games:,} matches per setup, heuristic self-play, seed {SEED}; "
        f"95% intervals, the match as the sampling unit). Assumed deck: 32 cards, 4 colours x 8 types (the option "
        f"`deck`).\n",
        "## The value of each special card (4 players, default rules)\n",
        "Full-table rounds, seats dealt 5 cards: the chance to lose the round holding the card (dealt at least one)"
        " against not holding it. Fair share: 25%.\n",
        markdown_table(specials_table(default)),
        "\nThe effect of each rule option: `balance sweep scenarios/throne_arcade/options_sweep.toml` "
        "(reports/throne_arcade/options.md).",
        "\n## Match length (4 players, default rules)\n",
        "A match lasts 5 x 3 = 15 rounds plus the rounds its winner lost (every eliminated player lost 5).\n",
        markdown_table(length_table(default)),
    ])
