"""Throne Arcade's hand size against the start (a scenario's ``[hand_start]`` table, parsed by the
game): in full-table rounds, what the start is worth with the hand size held fixed, and what a card
less is worth with the start held fixed, each a difference of two round-loss rates with its interval.

The rules tie the two (the loser starts the next round, dealt a card less), so "the starter's edge"
mixes them; within one hand size starters and non-starters differ only in the start, and among the
seats that did not start, hand sizes differ only in the hand. Both groups of a difference come from
the same matches, so the difference is paired by deal (``stats.paired_difference``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.engine.game import Analysis
from balance.games.throne_arcade.game import POINTS, cards, hand_start_label
from balance.stats import paired_difference, ratio_estimate


def _sums(seats: pd.DataFrame, code: str, deals: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    """Per-deal (losses, seat-rounds) of one hand_start group in full-table rounds, aligned on ``deals``."""
    part = seats[(seats["full"] == 1) & (seats["hand_start"] == code)]
    sums = part.groupby("deal")[["lost_full", "full"]].sum().reindex(deals, fill_value=0)
    return sums["lost_full"].to_numpy(float), sums["full"].to_numpy(float)


def _row(effect: str, held: str, est, seat_rounds: str) -> dict:
    """A result row: the effect in points of round-loss rate with its 95% interval."""
    return {"effect": effect, "held fixed": held, "points": f"{POINTS * est.estimate:+.1f}",
            "95% interval": f"[{POINTS * est.low:+.1f}, {POINTS * est.high:+.1f}]", "seat-rounds": seat_rounds,
            "deals": f"{est.clusters:,}"}


def contrasts(seats: pd.DataFrame, start_hand: int, players: int) -> pd.DataFrame:
    """The start's worth at each hand size (not-starter minus starter round-loss rate) and a card
    less's worth without the start (full-hand non-starter minus non-starter at each smaller hand),
    in points of round-loss rate (positive: it helps), with 95% intervals paired by deal; the start at
    the full hand (round 1 only) against the fair 1/players."""
    deals = pd.Index(np.sort(seats["deal"].unique()))
    rows = []

    def add(what: str, held: str, a: str, b: str) -> None:
        ya, xa = _sums(seats, a, deals)
        yb, xb = _sums(seats, b, deals)
        if xa.sum() == 0 or xb.sum() == 0:
            return
        rows.append(_row(what, held, paired_difference((ya, xa), (yb, xb)), f"{int(xa.sum()):,} vs {int(xb.sum()):,}"))

    for hand in range(1, start_hand):
        add("the start", cards(hand), hand_start_label(hand, 0), hand_start_label(hand, 1))
    full = hand_start_label(start_hand, 1)
    y, x = _sums(seats, full, deals)
    if x.sum():
        rows.append(_row("the start (round 1: every hand full, starter at random)", cards(start_hand),
                         ratio_estimate(x / players - y, x, deals.to_numpy()),
                         f"{int(x.sum()):,} vs the fair 1/{players}"))
    for hand in range(start_hand - 1, 0, -1):
        add(f"{cards(start_hand - hand)} less ({hand} instead of {start_hand})",
            "not starting", hand_start_label(start_hand, 0), hand_start_label(hand, 0))
    return pd.DataFrame(rows)


def hand_start(results) -> Analysis:
    setup = results.setup
    start_hand, players = setup.options["start_hand"], setup.players
    table = contrasts(results.seats, start_hand, players)
    policies = ", ".join(dict.fromkeys(s.label for s in setup.seats))
    text = (f"What the start and a smaller hand are each worth in rounds where all {players} players are still "
            f"in, in points of round-loss rate (positive: it helps; each with the other held fixed). Measured "
            f"with the study's players ({policies}); a capped round has no loser and is left out.")
    method = ("Rows: one per seat and full-table round played to a loser. The start at a hand size: the "
              "round-loss rate of the seats that held that many cards and did not start minus that of the "
              "starters holding as many (every starter after round 1 lost the round before). A card less: the "
              f"{start_hand}-card non-starters' rate minus that of non-starters with fewer cards. Both rates of a "
              "difference come from the same matches: the deal is the unit, the two ratios' residuals are "
              "differenced deal by deal, Student t on deals - 1 degrees of freedom. Round 1's starter (the only "
              f"full-hand starter) is compared with the fair 1/{players} instead.")
    return Analysis("Hand size against the start", text, table, method)
