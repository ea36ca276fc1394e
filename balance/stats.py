"""Estimates with intervals, claim verdicts, multiplicity correction, seat uniformity.

Independence. Games of one deal replayed under several seat rotations share their random numbers,
so they are not independent. Every estimate therefore treats the deal as the sampling unit
(``cluster``): when each deal contributes one row, a rate is a plain binomial proportion (Wilson
interval, exact binomial tests); otherwise a rate, mean or ratio is estimated from per-deal sums
with a cluster-robust (delta-method) standard error and Student-t tests on deals - 1 degrees of
freedom.

Verdicts. A claim "X is about p (+/- d)" holds when a TOST equivalence test shows X inside
[p - d, p + d] (equivalently: the 90% interval lies inside the band), fails when a test shows X
outside it, and is undecided otherwise. "at most" / "at least" claims are one-sided tests
against target +/- tolerance. All claims of one study form one family: both kinds of p-values
are Holm-adjusted over it before they are compared with alpha.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

ALPHA = 0.05
LEVEL = 0.95
HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
EXACT = 1e-12  # values closer than this are equal (fixed facts computed in floating point)


@dataclass(frozen=True)
class Estimate:
    estimate: float
    low: float
    high: float
    n: int  # rows (games, rounds or seat-rows) behind the estimate
    clusters: int  # independent units (deals)
    se: float
    method: str
    successes: int = -1  # binomial estimates only

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def binomial(self) -> bool:
        return self.successes >= 0


def wilson(successes: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def exact_interval(successes: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def _cluster_sums(values: np.ndarray, weights: np.ndarray, clusters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    codes, _ = pd.factorize(clusters, sort=False)
    k = codes.max() + 1 if len(codes) else 0
    return (np.bincount(codes, weights=values, minlength=k), np.bincount(codes, weights=weights, minlength=k))


def ratio_estimate(numerator: np.ndarray, denominator: np.ndarray, clusters: np.ndarray, level: float = LEVEL,
                   method: str = "cluster-robust") -> Estimate:
    """sum(numerator) / sum(denominator) with a delta-method SE over clusters."""
    y, x = _cluster_sums(np.asarray(numerator, float), np.asarray(denominator, float), np.asarray(clusters))
    k = len(y)
    if k == 0 or x.sum() == 0:
        return Estimate(np.nan, np.nan, np.nan, len(numerator), k, np.nan, method)
    r = y.sum() / x.sum()
    if k > 1:
        resid = y - r * x
        se = float(np.sqrt(k / (k - 1) * np.sum(resid**2)) / x.sum())
        t = stats.t.ppf(0.5 + level / 2, k - 1)
    else:
        se, t = np.inf, np.inf
    return Estimate(float(r), float(r - t * se), float(r + t * se), len(numerator), k, se, method)


def estimate_rate(values: np.ndarray, clusters: np.ndarray, level: float = LEVEL) -> Estimate:
    values = np.asarray(values, dtype=float)
    clusters = np.asarray(clusters)
    n = len(values)
    if n and len(np.unique(clusters)) == n:
        s = int(values.sum())
        lo, hi = wilson(s, n, level)
        p = s / n
        return Estimate(p, lo, hi, n, n, float(np.sqrt(max(p * (1 - p), 1e-12) / n)), "wilson", successes=s)
    est = ratio_estimate(values, np.ones(n), clusters, level, method="cluster-robust")
    if est.se == 0 and est.estimate in (0.0, 1.0):
        # No variation at all (say, no capped game): a binomial on the deals, the conservative count.
        k = est.clusters
        s = int(round(est.estimate * k))
        lo, hi = wilson(s, k, level)
        return Estimate(est.estimate, lo, hi, k, k, 0.0, "wilson (deals)", successes=s)
    return Estimate(est.estimate, max(0.0, est.low), min(1.0, est.high), est.n, est.clusters, est.se, est.method)


def estimate_mean(values: np.ndarray, clusters: np.ndarray, level: float = LEVEL) -> Estimate:
    values = np.asarray(values, dtype=float)
    return ratio_estimate(values, np.ones(len(values)), clusters, level, method="t (deal clusters)")


def _p_greater(est: Estimate, bound: float, inclusive: bool = False) -> float:
    """p-value of H0: X <= bound against X > bound. ``inclusive``: when the quantity has no
    sampling error (a setup's fixed fact), a value on the bound counts as beyond it."""
    if est.binomial:
        if bound >= 1:
            return 1.0
        if bound <= 0:
            return 0.0 if est.successes > 0 else 1.0
        return float(stats.binomtest(est.successes, est.n, bound, alternative="greater").pvalue)
    if not np.isfinite(est.se) or est.clusters < 2:
        return 1.0
    if est.se == 0:
        return 0.0 if est.estimate > bound or (inclusive and abs(est.estimate - bound) < EXACT) else 1.0
    return float(stats.t.sf((est.estimate - bound) / est.se, est.clusters - 1))


def _p_less(est: Estimate, bound: float, inclusive: bool = False) -> float:
    """p-value of H0: X >= bound against X < bound (``inclusive`` as in _p_greater)."""
    if est.binomial:
        if bound <= 0:
            return 1.0
        if bound >= 1:
            return 0.0 if est.successes < est.n else 1.0
        return float(stats.binomtest(est.successes, est.n, bound, alternative="less").pvalue)
    if not np.isfinite(est.se) or est.clusters < 2:
        return 1.0
    if est.se == 0:
        return 0.0 if est.estimate < bound or (inclusive and abs(est.estimate - bound) < EXACT) else 1.0
    return float(stats.t.cdf((est.estimate - bound) / est.se, est.clusters - 1))


def claim_pvalues(est: Estimate, target: float, tolerance: float, compare: str) -> tuple[float, float]:
    """(p that the claim holds is rejected-as-false, p that the claim fails) — i.e. the p-values of
    the test whose rejection shows the claim true, and of the test whose rejection shows it false."""
    if compare == "about":
        low, high = target - tolerance, target + tolerance
        p_holds = max(_p_greater(est, low, True), _p_less(est, high, True))  # TOST
        p_fails = min(1.0, 2 * min(_p_less(est, low), _p_greater(est, high)))
    elif compare == "at_most":
        bound = target + tolerance
        p_holds, p_fails = _p_less(est, bound, True), _p_greater(est, bound)
    elif compare == "at_least":
        bound = target - tolerance
        p_holds, p_fails = _p_greater(est, bound, True), _p_less(est, bound)
    else:
        raise ValueError(compare)
    return p_holds, p_fails


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control)."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p)
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def verdicts(p_holds: np.ndarray, p_fails: np.ndarray, alpha: float = ALPHA) -> tuple[list[str], np.ndarray, np.ndarray]:
    adj_h, adj_f = holm(p_holds), holm(p_fails)
    out = [HOLDS if h < alpha else FAILS if f < alpha else UNDECIDED for h, f in zip(adj_h, adj_f)]
    return out, adj_h, adj_f


def seat_uniformity(won: np.ndarray, seat: np.ndarray, clusters: np.ndarray) -> dict:
    """Chi-square test that every seat wins equally often.

    With one game per deal it is Pearson's goodness-of-fit test on the win counts (scipy); with
    rotated deals (correlated games) a cluster-robust Wald test of equal seat rates, chi-square
    with seats - 1 degrees of freedom.
    """
    won = np.asarray(won, float)
    seats = np.unique(seat)
    k = len(seats)
    if k < 2:
        return {"test": "none", "statistic": np.nan, "df": 0, "p": np.nan}
    counts = np.array([won[seat == s].sum() for s in seats])
    per_seat_rows = np.array([(seat == s).sum() for s in seats])
    game_clusters = pd.Series(clusters)
    independent = all(game_clusters[seat == s].is_unique for s in seats) and \
        len(np.unique(clusters)) == per_seat_rows[0]
    if independent and (per_seat_rows == per_seat_rows[0]).all() and counts.sum() > 0:
        st = stats.chisquare(counts)
        return {"test": "pearson chi-square", "statistic": float(st.statistic), "df": k - 1, "p": float(st.pvalue)}
    codes, _ = pd.factorize(clusters, sort=False)
    g = codes.max() + 1
    y = np.zeros((g, k))
    x = np.zeros((g, k))
    for j, s in enumerate(seats):
        m = seat == s
        y[:, j] = np.bincount(codes[m], weights=won[m], minlength=g)
        x[:, j] = np.bincount(codes[m], minlength=g)
    rates = y.sum(0) / x.sum(0)
    resid = (y - rates * x) / x.sum(0)
    cov = g / (g - 1) * resid.T @ resid
    contrast = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    d = contrast @ rates
    w = float(d @ np.linalg.pinv(contrast @ cov @ contrast.T) @ d)
    return {"test": "cluster-robust Wald chi-square", "statistic": w, "df": k - 1, "p": float(stats.chi2.sf(w, k - 1))}


def running_estimate(values: np.ndarray, points: int = 60, level: float = LEVEL) -> pd.DataFrame:
    """The estimate after the first n rows, at ``points`` values of n (for convergence plots).

    Uses a normal-approximation interval on the running mean; a plot aid, not a verdict.
    """
    values = np.asarray(values, float)
    n_all = len(values)
    if n_all == 0:
        return pd.DataFrame(columns=["n", "estimate", "low", "high"])
    ns = np.unique(np.geomspace(min(20, n_all), n_all, points).astype(int))
    csum, csq = np.cumsum(values), np.cumsum(values**2)
    mean = csum[ns - 1] / ns
    var = np.maximum(csq[ns - 1] / ns - mean**2, 0)
    z = stats.norm.ppf(0.5 + level / 2)
    half = z * np.sqrt(var / ns)
    return pd.DataFrame({"n": ns, "estimate": mean, "low": mean - half, "high": mean + half})


def estimate(kind: str, frame: pd.DataFrame, column: str, denominator: str | None = None,
             cluster: str = "deal", level: float = LEVEL) -> Estimate:
    """Estimate a declared quantity (``rate``, ``mean`` or ``ratio``) from a result frame. Only the
    rows a ``denominator`` counts (non-zero) enter, so ``n`` is the number of rows in it."""
    if denominator is not None:
        frame = frame[frame[denominator] != 0]
    clusters = frame[cluster].to_numpy()
    if kind == "rate":
        return estimate_rate(frame[column].to_numpy(), clusters, level)
    if kind == "mean":
        return estimate_mean(frame[column].to_numpy(), clusters, level)
    if kind == "ratio":
        return ratio_estimate(frame[column].to_numpy(), frame[denominator].to_numpy(), clusters, level)
    raise ValueError(kind)


CLAIM_COLUMNS = ["claim", "text", "group", "estimate", "low", "high", "n", "compare", "target", "tolerance",
                 "p_holds", "p_fails", "p_holds_holm", "p_fails_holm", "verdict"]


def evaluate_claims(results, claims, alpha: float = ALPHA, looks: int = 1) -> pd.DataFrame:
    """One row per claim and group with the estimate, its 95% interval, Holm-adjusted p-values and
    the verdict. ``looks`` > 1 (sequential stopping) splits alpha over the planned looks."""
    game = results.setup.game
    rows = []
    for claim in claims:
        quantity = game.quantity(claim.quantity, claim.id)
        frame = results.table(quantity.table)
        for column, value in claim.where.items():
            frame = frame[frame[column] == value]
        groups = [(None, frame)] if claim.by is None else list(frame.groupby(claim.by, sort=True))
        for group, part in groups:
            est = estimate(quantity.kind, part, quantity.column, quantity.denominator)
            p_h, p_f = claim_pvalues(est, claim.target, claim.tolerance, claim.compare)
            rows.append({"claim": claim.id, "text": claim.text, "group": "" if group is None else str(group),
                         "estimate": est.estimate, "low": est.low, "high": est.high, "n": est.n,
                         "compare": claim.compare, "target": claim.target, "tolerance": claim.tolerance,
                         "p_holds": p_h, "p_fails": p_f})
    table = pd.DataFrame(rows, columns=CLAIM_COLUMNS[:-3])
    verdict, adj_h, adj_f = verdicts(table["p_holds"].to_numpy(), table["p_fails"].to_numpy(), alpha / looks)
    table["p_holds_holm"], table["p_fails_holm"], table["verdict"] = adj_h, adj_f, verdict
    return table[CLAIM_COLUMNS]


def estimate_row(est: Estimate) -> dict:
    return {"estimate": est.estimate, "low": est.low, "high": est.high, "n": est.n, "clusters": est.clusters,
            "method": est.method}


def quantity_table(results) -> pd.DataFrame:
    """Every quantity the game declares, overall and by each grouping it allows."""
    game = results.setup.game
    rows = []
    for q in game.quantities:
        frame = results.table(q.table)
        if q.by:
            for by in q.by:
                for group, part in frame.groupby(by, sort=True):
                    est = estimate(q.kind, part, q.column, q.denominator)
                    rows.append({"quantity": q.name, "by": by, "group": str(group), **estimate_row(est)})
        else:
            est = estimate(q.kind, frame, q.column, q.denominator)
            rows.append({"quantity": q.name, "by": "", "group": "", **estimate_row(est)})
    return pd.DataFrame(rows)


def summarize(results, claims, looks: int = 1) -> dict:
    """The study's numbers: claims with verdicts, every declared quantity, seat uniformity."""
    seats = results.seats
    summary = {
        "games": results.n_games,
        "rows": len(results.games),
        "claims": evaluate_claims(results, claims, looks=looks),
        "quantities": quantity_table(results),
    }
    if "won" in seats.columns and "seat" in seats.columns:
        summary["seat_uniformity"] = seat_uniformity(seats["won"].to_numpy(), seats["seat"].to_numpy(),
                                                     seats["deal"].to_numpy())
    return summary
