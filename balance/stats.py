"""Estimates with intervals, claim verdicts, multiplicity and look corrections, seat uniformity.

Sampling unit. Games of one deal replayed under several seat rotations share their random
numbers, and a game's seats or a match's rounds are not independent either, so every estimate
treats the deal as the sampling unit (``cluster``).

Reference distributions (each gives the interval and the p-values, so an interval and a test
never disagree):
- Rates: exact Clopper-Pearson bounds on an effective sample size (Korn-Graubard): n divided by
  the design effect of the deal clusters (at least 1), scaled for the deals' degrees of freedom.
  With one row per deal this is the plain exact binomial. Rare events cannot show their own
  design effect, so the bounds are never narrower than those of 0 (or all) events counted once
  per deal: more events never give a better verdict.
- Means and ratios: the ratio of per-deal sums with a cluster-robust (delta-method) standard
  error; a bootstrap-t over deals when deals are few (skewed quantities such as game length), a
  Student t on deals - 1 degrees of freedom otherwise. A sampled quantity without spread (SE 0)
  proves nothing: undecided. A bootstrap p-value is no smaller than 1 / (replicates + 1); one at
  that floor, in a family whose adjustment compares at a smaller level, is resampled with enough
  replicates to tell (``resolved_pvalues``); a family's claims over the same number of deals are
  resampled together (``resolving``). A mean of values the rules bound (a length under its cap,
  ``Quantity.maximum``) over few deals gets distribution-free betting bounds instead (``Betting``):
  a bootstrap cannot see a rare runaway game that 20 deals do not contain; these leave room for it.
- Fixed facts of the setup (declared by the game): a value, inside or outside the band, no test.

Verdicts. "within +/- d" includes the edge. At level ``a`` the deciding interval is the pair of
one-sided (1 - a) bounds [L, U]. "about": holds when [L, U] lies inside the band, fails when it
lies outside it. "at most b": holds when U <= b, fails when L > b ("at least" mirrored). The
p-values are those of the same bounds. Claims (not facts) of one study form one family: p-values
are Holm-adjusted over it, then adjusted for the look of a sequential study; a verdict needs an
adjusted p-value below ALPHA, and the interval shown beside it is taken at the level that decides.

Sequential looks: an O'Brien-Fleming type alpha-spending function (Lan-DeMets),
alpha(t) = 2 - 2 Phi(z_{1 - ALPHA/2} / sqrt(t)) at information fraction t (games so far / planned
maximum); look k tests at its increment alpha(t_k) - alpha(t_{k-1}). By the union bound the
chance of any wrong verdict over all looks stays below ALPHA, whatever the correlation between
looks (slightly conservative compared with exact group-sequential boundaries).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from scipy import optimize, stats

ALPHA = 0.05
LEVEL = 0.95
HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
TOO_FEW_DEALS = "undecided (too few deals)"
NO_SPREAD = "undecided (no spread)"
EXACT = 1e-12  # values closer than this are equal (fixed facts computed in floating point)
BOOTSTRAP_MAX_DEALS = 500  # bootstrap-t over deals up to this many; Student t beyond (CLT)
BOOTSTRAP_REPLICATES = 1999
BOOTSTRAP_SEED = 20261130  # a fixed stream: the same data always give the same interval
# A bootstrap p-value is at least 1 / (replicates + 1): 1 / 2000 is above the level Holm's first
# step compares at in a family of 100 or more claims, so a claim beyond every replicate could never
# be decided there. A family that needs it resamples such a claim again with enough replicates to
# resolve p-values down to a tenth of its finest level (decide), if this many suffice.
BOOTSTRAP_MAX_REPLICATES = 199_999
BOOTSTRAP_RESOLUTION = 10
BOOTSTRAP_CHUNK = 2000  # replicates resampled at once (memory: chunk x deals weights)
BOOTSTRAP_COLUMNS = 200  # estimates resampled together (memory: their replicates' statistics)
# Betting bounds (Betting) for means of values the rules bound (game lengths under a cap)
BETTING_ORDERS = 8  # orders of the deals whose capitals are averaged
BETTING_SEED = 20261202
BETTING_TRUNCATION = 0.5  # the largest fraction of capital staked (Waudby-Smith and Ramdas's c)
BETTING_TUNED = 0.025  # the one-sided level the bets are sized for (the 95% interval's sides)
BETTING_EDGE = 1e-9  # how close to the range's ends a bound is sought
BETTING_XTOL = 1e-10
BOOTSTRAP_KEPT = 4  # deal counts whose first chunk of weights is kept (at most 8 MB each: 500 deals)


# ---- reference distributions --------------------------------------------------------------
class Reference:
    """The sampling distribution of an estimate: one-sided bounds and their dual p-values.

    ``p_above(b)``: p-value against "X <= b" (small when X > b is shown); ``lower(a) > b`` exactly
    when ``p_above(b) < a``. ``p_below`` and ``upper`` mirror it.
    """

    testable = True

    def lower(self, a: float) -> float:
        raise NotImplementedError

    def upper(self, a: float) -> float:
        raise NotImplementedError

    def p_above(self, b: float) -> float:
        raise NotImplementedError

    def p_below(self, b: float) -> float:
        raise NotImplementedError

    def replicates_to_resolve(self, level: float, p: float) -> int:
        """How many replicates a resampled reference needs to tell a p-value ``p`` apart from
        ``level`` (a bootstrap's p-values are whole multiples of 1 / (replicates + 1)); 0: this
        one can, or none can."""
        return 0

    def resolving(self, level: float, p: float) -> Reference:
        """This reference, or one as good that can tell a p-value ``p`` apart from ``level``."""
        return resolving([(self, level, p)])[0]


class Untestable(Reference):
    """No test possible (no spread, a single deal): every p-value is 1, every bound open."""

    testable = False

    def lower(self, a):
        return np.nan

    def upper(self, a):
        return np.nan

    def p_above(self, b):
        return 1.0

    def p_below(self, b):
        return 1.0


@dataclass(frozen=True)
class StudentT(Reference):
    estimate: float
    se: float
    df: int

    def lower(self, a):
        return self.estimate - stats.t.isf(a, self.df) * self.se

    def upper(self, a):
        return self.estimate + stats.t.isf(a, self.df) * self.se

    def p_above(self, b):
        return float(stats.t.sf((self.estimate - b) / self.se, self.df))

    def p_below(self, b):
        return float(stats.t.cdf((self.estimate - b) / self.se, self.df))


@dataclass(frozen=True)
class BootstrapT(Reference):
    """Bootstrap-t: ``t`` holds the sorted (estimate* - estimate) / se* of the replicates, resampled
    from the deals' sums ``y`` / ``x``."""

    estimate: float
    se: float
    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)

    @property
    def floor(self) -> float:
        """The smallest p-value the replicates can give."""
        return 1 / (len(self.t) + 1)

    def replicates_to_resolve(self, level, p):
        replicates = math.ceil(BOOTSTRAP_RESOLUTION / level) - 1
        if p > self.floor or replicates <= len(self.t) or replicates > BOOTSTRAP_MAX_REPLICATES:
            return 0  # nothing to resolve, fine enough, or beyond reach (an early look: a later one decides)
        return replicates

    def _count_at_least(self, s: float) -> int:
        return len(self.t) - int(np.searchsorted(self.t, s, side="left"))

    def _count_at_most(self, s: float) -> int:
        return int(np.searchsorted(self.t, s, side="right"))

    def p_above(self, b):
        return (1 + self._count_at_least((self.estimate - b) / self.se)) / (len(self.t) + 1)

    def p_below(self, b):
        return (1 + self._count_at_most((self.estimate - b) / self.se)) / (len(self.t) + 1)

    def lower(self, a):
        # p_above(b) < a  <=>  fewer than a (B + 1) - 1 replicates reach (estimate - b) / se
        allowed = math.ceil(a * (len(self.t) + 1) - 1) - 1
        if allowed < 0:
            return -np.inf
        if allowed >= len(self.t):
            return np.inf
        return self.estimate - self.se * self.t[len(self.t) - 1 - allowed]

    def upper(self, a):
        allowed = math.ceil(a * (len(self.t) + 1) - 1) - 1
        if allowed < 0:
            return np.inf
        if allowed >= len(self.t):
            return -np.inf
        return self.estimate - self.se * self.t[allowed]


@dataclass(frozen=True)
class EffectiveBinomial(Reference):
    """Clopper-Pearson bounds for ``x`` events of ``n`` effective trials (Korn-Graubard), never
    narrower than 0 (or all) events in ``deals`` independent deals."""

    x: float
    n: float
    deals: int

    def lower(self, a):
        cp = stats.beta.ppf(a, self.x, self.n - self.x + 1) if self.x > 0 else 0.0
        return float(min(cp, a ** (1 / self.deals)))

    def upper(self, a):
        cp = stats.beta.isf(a, self.x + 1, self.n - self.x) if self.x < self.n else 1.0
        return float(max(cp, 1 - a ** (1 / self.deals)))

    def p_above(self, b):
        if b <= 0:
            return 0.0 if self.x > 0 else 1.0
        if b >= 1:
            return 1.0
        cp = stats.beta.cdf(b, self.x, self.n - self.x + 1) if self.x > 0 else 1.0  # P(Bin(n, b) >= x)
        return float(max(cp, b**self.deals))

    def p_below(self, b):
        if b >= 1:
            return 0.0 if self.x < self.n else 1.0
        if b <= 0:
            return 1.0
        cp = stats.beta.sf(b, self.x + 1, self.n - self.x) if self.x < self.n else 1.0  # P(Bin(n, b) <= x)
        return float(max(cp, (1 - b) ** self.deals))


@dataclass(frozen=True, eq=False)
class Betting(Reference):
    """Bounds for the mean of deal means known to lie in [``low``, ``high``] that hold whatever
    their distribution: testing by betting (Waudby-Smith and Ramdas 2023, JRSS-B 86(1), hedged
    capital with predictable plug-in bets). Against "mean <= b" a gambler stakes, deal by deal, a
    fraction of her capital on each deal's mean exceeding b, sized from the deals before it; her
    final capital K is an e-value (expected at most 1 when the mean is <= b), so 1 / K is a
    p-value (Markov) and the bounds are the b she cannot reject. The capital is averaged over
    BETTING_ORDERS fixed orders of the deals (an average of e-values is one), so a verdict does not
    hang on the deals' order. Where bootstrap bounds assume the deals seen show the tail, these
    leave room for what a few deals cannot show: a rare runaway game as long as the cap.

    ``z``: the deals' means rescaled to [0, 1]; ``orders``: their orders, one row each."""

    estimate: float
    z: np.ndarray = field(repr=False)
    low: float
    high: float
    orders: np.ndarray = field(repr=False)

    def _scaled(self, b: float) -> float:
        return (b - self.low) / (self.high - self.low)

    @functools.cached_property
    def _ordered(self) -> tuple[np.ndarray, np.ndarray]:
        """The deals in each order (a row each) and their plug-in bets, the same for every b."""
        z = self.z[self.orders]
        return z, _plug_in_bets(z)

    def _log_capital(self, m: float, side: int) -> float:
        """log of the capital, averaged over the orders, of betting that the mean is above (side
        +1) or below (side -1) ``m`` in (0, 1)."""
        z, bets = self._ordered
        bet = np.minimum(bets, BETTING_TRUNCATION / (m if side > 0 else 1 - m))
        logs = np.log1p(side * bet * (z - m)).sum(axis=1)
        return float(np.logaddexp.reduce(logs) - math.log(len(logs)))

    def p_above(self, b):
        m = self._scaled(b)
        if m <= 0 or m >= 1:
            return 0.0 if m <= 0 and self.z.max() > 0 else 1.0
        return float(min(1.0, math.exp(-self._log_capital(m, +1))))

    def p_below(self, b):
        m = self._scaled(b)
        if m <= 0 or m >= 1:
            return 0.0 if m >= 1 and self.z.min() < 1 else 1.0
        return float(min(1.0, math.exp(-self._log_capital(m, -1))))

    def _bound(self, a: float, side: int) -> float:
        """The b at which the p-value on ``side`` crosses ``a``: between the range's end and the
        estimate (the capital falls monotonically towards the mean)."""
        mean = float(self.z.mean())
        end, inner = (BETTING_EDGE, mean) if side > 0 else (1 - BETTING_EDGE, mean)
        crossing = lambda m: self._log_capital(m, side) + math.log(a)  # noqa: E731
        if crossing(end) <= 0:  # cannot reject even the range's end
            m = 0.0 if side > 0 else 1.0
        elif crossing(inner) >= 0:
            m = inner
        else:
            m = optimize.brentq(crossing, end, inner, xtol=BETTING_XTOL)
        return self.low + m * (self.high - self.low)

    def lower(self, a):
        return self._bound(a, +1)

    def upper(self, a):
        return self._bound(a, -1)


def _plug_in_bets(z: np.ndarray) -> np.ndarray:
    """Each deal's bet before its truncation, from the deals before it (one row per order): the
    predictable plug-in sqrt(2 log(1 / a) / (n var)) tuned for a one-sided 2.5% bound, with the
    running variance started at 1/4 (the widest of [0, 1])."""
    n = z.shape[1]
    seen = np.arange(1, n + 1)
    mean = (0.5 + np.cumsum(z, axis=1)) / (seen + 1)
    var = (0.25 + np.cumsum((z - mean) ** 2, axis=1)) / (seen + 1)
    before = np.concatenate([np.full((len(z), 1), 0.25), var[:, :-1]], axis=1)
    return np.sqrt(2 * math.log(1 / BETTING_TUNED) / (n * before))


def _betting_orders(k: int) -> np.ndarray:
    rng = np.random.default_rng(BETTING_SEED)
    return np.stack([np.arange(k)] + [rng.permutation(k) for _ in range(BETTING_ORDERS - 1)])


@dataclass(frozen=True)
class Fixed(Reference):
    """A fixed fact of the setup: no sampling error, the edge of a band counts as inside."""

    value: float
    testable = False

    def lower(self, a):
        return self.value

    def upper(self, a):
        return self.value

    def p_above(self, b):
        return 0.0 if self.value >= b - EXACT else 1.0

    def p_below(self, b):
        return 0.0 if self.value <= b + EXACT else 1.0


def resolving(requests: list[tuple[Reference, float, float]]) -> list[Reference]:
    """``Reference.resolving`` of many (reference, level, p) at once. The bootstraps to resample
    over the same number of deals to the same number of replicates share their resampled deals:
    one matrix product per chunk for up to BOOTSTRAP_COLUMNS of them (a family of 150 far-off
    claims over 500 deals resamples once, not 150 times)."""
    out = [ref for ref, _, _ in requests]
    groups: dict[tuple[int, int], list[int]] = {}
    for i, (ref, level, p) in enumerate(requests):
        replicates = ref.replicates_to_resolve(level, p)
        if replicates:
            groups.setdefault((len(ref.y), replicates), []).append(i)
    for (_, replicates), members in groups.items():
        for start in range(0, len(members), BOOTSTRAP_COLUMNS):
            batch = members[start:start + BOOTSTRAP_COLUMNS]
            refs = [out[i] for i in batch]
            t = _bootstrap_t(np.stack([r.y for r in refs], axis=1), np.stack([r.x for r in refs], axis=1),
                             [r.estimate for r in refs], [r.se for r in refs], replicates)
            for i, ref, statistics in zip(batch, refs, t):
                out[i] = BootstrapT(ref.estimate, ref.se, statistics, ref.y, ref.x)
    return out


# ---- estimates ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    estimate: float
    low: float  # the estimate's two-sided LEVEL interval
    high: float
    n: int  # rows (games, rounds or seat-rows) behind the estimate
    clusters: int  # independent units (deals) that carry information
    se: float
    method: str
    reference: Reference = Untestable()

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def fixed(self) -> bool:
        return isinstance(self.reference, Fixed)


def _with_reference(estimate: float, n: int, clusters: int, se: float, method: str, ref: Reference,
                    level: float = LEVEL) -> Estimate:
    a = (1 - level) / 2
    return Estimate(float(estimate), float(ref.lower(a)), float(ref.upper(a)), int(n), int(clusters), float(se),
                    method, ref)


def _cluster_sums(values: np.ndarray, weights: np.ndarray, clusters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    codes, _ = pd.factorize(clusters, sort=False)
    k = codes.max() + 1 if len(codes) else 0
    return (np.bincount(codes, weights=values, minlength=k), np.bincount(codes, weights=weights, minlength=k))


def _ratio_se(y: np.ndarray, x: np.ndarray, r: float) -> float:
    """Cluster-robust (delta-method) standard error of sum(y) / sum(x) over k clusters."""
    k = len(y)
    return float(np.sqrt(k / (k - 1) * np.sum((y - r * x) ** 2)) / x.sum())


def _bootstrap_t(y: np.ndarray, x: np.ndarray, r, se, replicates: int = BOOTSTRAP_REPLICATES) -> np.ndarray:
    """Sorted bootstrap-t statistics of the ratio, resampling whole deals (in chunks of
    BOOTSTRAP_CHUNK replicates from one fixed stream). ``y`` and ``x`` are the deals' sums, one
    column per estimate when 2-D (``r``, ``se``: one per column; the result: one row per column):
    estimates over the same number of deals share the resampled deals, so a family's claims cost
    one matrix product per chunk, and each column gets exactly the statistics it would get alone."""
    single = np.ndim(y) == 1
    y, x = np.asarray(y, float).reshape(len(y), -1), np.asarray(x, float).reshape(len(x), -1)
    r, se = np.reshape(r, (1, -1)), np.reshape(se, (1, -1))
    k = len(y)
    moments = np.hstack([y, x, y * y, x * y, x * x])  # the sums a replicate's ratio and SE need
    parts = []
    for w in _resampled_deals(k, replicates):
        sy, sx, syy, sxy, sxx = np.split(w @ moments, 5, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            rb = sy / sx
            ss = syy - 2 * rb * sxy + rb**2 * sxx
            seb = np.sqrt(k / (k - 1) * np.maximum(ss, 0)) / sx
            t = (rb - r) / seb
        # a replicate without spread: its statistic is infinite in the direction it moved
        parts.append(np.where(seb > 0, t, np.where(rb > r, np.inf, np.where(rb < r, -np.inf, 0.0))))
    t = np.sort(np.concatenate(parts).T, axis=1)
    return t[0] if single else t


def _draw_weights(rng: np.random.Generator, replicates: int, k: int) -> np.ndarray:
    """How often each of ``k`` deals is drawn in each of ``replicates`` resamples (rows)."""
    draws = rng.integers(0, k, (replicates, k)) + k * np.arange(replicates)[:, None]
    return np.bincount(draws.ravel(), minlength=replicates * k).reshape(replicates, k).astype(float)


@functools.lru_cache(maxsize=BOOTSTRAP_KEPT)
def _first_chunk(k: int) -> tuple[np.ndarray, dict]:
    """The first BOOTSTRAP_CHUNK replicates' weights over ``k`` deals and the stream's state after
    them. Every bootstrap over k deals starts with them (a study's groups mostly have the same
    deals), and a shorter first chunk is their first rows (the stream fills rows in order)."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    w = _draw_weights(rng, BOOTSTRAP_CHUNK, k)
    w.flags.writeable = False
    return w, rng.bit_generator.state


def _resampled_deals(k: int, replicates: int):
    """The weights of ``replicates`` bootstrap replicates over ``k`` deals, chunk by chunk, from one
    fixed stream (the same data always give the same statistics)."""
    first, state = _first_chunk(k)
    yield first[:replicates]
    if replicates > BOOTSTRAP_CHUNK:
        rng = np.random.default_rng(BOOTSTRAP_SEED)
        rng.bit_generator.state = state
        for start in range(BOOTSTRAP_CHUNK, replicates, BOOTSTRAP_CHUNK):
            yield _draw_weights(rng, min(BOOTSTRAP_CHUNK, replicates - start), k)


def ratio_estimate(numerator: np.ndarray, denominator: np.ndarray, clusters: np.ndarray, level: float = LEVEL,
                   method: str = "ratio", bounds: tuple[float, float] | None = None) -> Estimate:
    """sum(numerator) / sum(denominator), the deal as the sampling unit. ``bounds``: the range the
    rules bound each row's value to; over few deals that all weigh the same, the interval is then
    the betting one, which holds whatever the tail (Betting)."""
    y, x = _cluster_sums(np.asarray(numerator, float), np.asarray(denominator, float), np.asarray(clusters))
    carrying = x != 0  # deals without a denominator hold no information on the ratio
    y, x = y[carrying], x[carrying]
    k = len(y)
    if k == 0:
        return Estimate(np.nan, np.nan, np.nan, len(numerator), 0, np.nan, method)
    r = y.sum() / x.sum()
    se = _ratio_se(y, x, r) if k > 1 else np.nan
    if k < 2 or not se > EXACT * max(1.0, abs(r)):
        return Estimate(float(r), np.nan, np.nan, len(numerator), k, 0.0 if k > 1 else np.nan,
                        f"{method}: no spread", Untestable())
    if k <= BOOTSTRAP_MAX_DEALS and bounds is not None and np.all(x == x[0]):
        low, high = bounds
        z = (y / x - low) / (high - low)
        if not (z.min() >= -EXACT and z.max() <= 1 + EXACT):
            raise ValueError(f"values outside their declared range [{low:g}, {high:g}]")
        ref = Betting(float(r), np.clip(z, 0, 1), float(low), float(high), _betting_orders(k))
        return _with_reference(r, len(numerator), k, se, f"{method}: betting over deals in [{low:g}, {high:g}]",
                               ref, level)
    if k <= BOOTSTRAP_MAX_DEALS:
        return _with_reference(r, len(numerator), k, se, f"{method}: bootstrap-t over deals",
                               BootstrapT(float(r), se, _bootstrap_t(y, x, r, se), y, x), level)
    return _with_reference(r, len(numerator), k, se, f"{method}: t over deals", StudentT(float(r), se, k - 1), level)


def paired_difference(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
                      level: float = LEVEL) -> Estimate:
    """sum(a_y) / sum(a_x) - sum(b_y) / sum(b_x): one ratio's difference between two studies of the
    same deals (common random numbers), each given as its per-deal sums (numerator, denominator),
    aligned by deal. The deal is the unit: the two ratios' delta-method residuals are differenced
    deal by deal, so what the deals share cancels, and the difference gets a Student t on deals - 1
    degrees of freedom (its error rates: tests/engine/test_stats_error_rates.py)."""
    (ay, ax), (by, bx) = ((np.asarray(y, float), np.asarray(x, float)) for y, x in (a, b))
    k = len(ay)
    if k == 0 or ax.sum() == 0 or bx.sum() == 0:
        return Estimate(np.nan, np.nan, np.nan, 0, 0, np.nan, "paired difference")
    ra, rb = ay.sum() / ax.sum(), by.sum() / bx.sum()
    d = ra - rb
    residual = (ay - ra * ax) / ax.mean() - (by - rb * bx) / bx.mean()
    se = float(np.sqrt(k / (k - 1) * np.sum(residual**2)) / k) if k > 1 else np.nan
    if k < 2 or not se > EXACT * max(1.0, abs(ra), abs(rb)):
        return Estimate(float(d), np.nan, np.nan, k, k, 0.0 if k > 1 else np.nan, "paired difference: no spread",
                        Untestable())
    return _with_reference(d, k, k, se, "paired difference: t over deals", StudentT(float(d), se, k - 1), level)


def estimate_mean(values: np.ndarray, clusters: np.ndarray, level: float = LEVEL,
                  bounds: tuple[float, float] | None = None) -> Estimate:
    values = np.asarray(values, dtype=float)
    return ratio_estimate(values, np.ones(len(values)), clusters, level, method="mean", bounds=bounds)


def estimate_rate(values: np.ndarray, clusters: np.ndarray, level: float = LEVEL) -> Estimate:
    """A 0/1 rate: exact binomial bounds on the effective sample size (Korn-Graubard)."""
    values = np.asarray(values, dtype=float)
    clusters = np.asarray(clusters)
    n = len(values)
    if n == 0:
        return Estimate(np.nan, np.nan, np.nan, 0, 0, np.nan, "rate")
    y, m = _cluster_sums(values, np.ones(n), clusters)
    k = len(y)
    p = y.sum() / n
    if k == n:  # one row per deal: the exact binomial
        ref = EffectiveBinomial(float(y.sum()), float(n), n)
        return _with_reference(p, n, k, math.sqrt(p * (1 - p) / n), "exact binomial", ref, level)
    n_eff = float(n)
    if 0 < p < 1 and k > 1:
        deff = _ratio_se(y, m, p) ** 2 / (p * (1 - p) / n)
        n_eff = n / max(1.0, deff)
    if k > 1:  # degrees of freedom of the deals (Korn-Graubard)
        n_eff *= (stats.norm.isf((1 - LEVEL) / 2) / stats.t.isf((1 - LEVEL) / 2, k - 1)) ** 2
    ref = EffectiveBinomial(p * n_eff, n_eff, k)
    return _with_reference(p, n, k, math.sqrt(p * (1 - p) / n_eff), "exact binomial, effective n (deal clusters)",
                           ref, level)


def fixed_fact(frame: pd.DataFrame, column: str, denominator: str | None) -> Estimate:
    """A quantity the game declares fixed by the setup (the same in every game)."""
    num = frame[column].to_numpy(float)
    value = num.sum() / (frame[denominator].to_numpy(float).sum() if denominator else len(num))
    return Estimate(float(value), np.nan, np.nan, len(num), 0, 0.0, "fixed fact of the setup", Fixed(float(value)))


def estimate(kind: str, frame: pd.DataFrame, column: str, denominator: str | None = None,
             cluster: str = "deal", level: float = LEVEL, fixed: bool = False,
             bounds: tuple[float, float] | None = None) -> Estimate:
    """Estimate a declared quantity (``rate``, ``mean`` or ``ratio``) from a result frame. Only the
    rows a ``denominator`` counts (non-zero) enter, so ``n`` is the number of rows in it.
    ``bounds``: the range the rules bound a mean's or ratio's values to (ratio_estimate)."""
    if fixed:
        return fixed_fact(frame, column, denominator)
    if denominator is not None:
        frame = frame[frame[denominator] != 0]
    clusters = frame[cluster].to_numpy()
    if kind == "rate":
        return estimate_rate(frame[column].to_numpy(), clusters, level)
    if kind == "mean":
        return estimate_mean(frame[column].to_numpy(), clusters, level, bounds)
    if kind == "ratio":
        return ratio_estimate(frame[column].to_numpy(), frame[denominator].to_numpy(), clusters, level,
                              bounds=bounds)
    raise ValueError(kind)


# ---- claims -------------------------------------------------------------------------------
def quantity_estimate(results, quantity, frame: pd.DataFrame) -> Estimate:
    """The estimate of a declared ``quantity`` over ``frame`` (rows of ``results``), with the range
    the rules bound its values to in the study's setup."""
    bounds = results.setup.game.value_range(results.setup, quantity)
    return estimate(quantity.kind, frame, quantity.column, quantity.denominator, fixed=quantity.fixed,
                    bounds=bounds)


def claim_pvalues(ref: Reference, target: float, tolerance: float, compare: str) -> tuple[float, float]:
    """(p_holds, p_fails) of an estimate's reference distribution: the p-values of the test whose
    rejection shows the claim true, and of the test whose rejection shows it false. The edge of the
    band belongs to the claim."""
    if compare == "about":
        low, high = target - tolerance, target + tolerance
        return max(ref.p_above(low), ref.p_below(high)), min(ref.p_below(low), ref.p_above(high))
    if compare == "at_most":
        bound = target + tolerance
        return ref.p_below(bound), ref.p_above(bound)
    if compare == "at_least":
        bound = target - tolerance
        return ref.p_above(bound), ref.p_below(bound)
    raise ValueError(compare)


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control)."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def spent_alpha(fraction: float, alpha: float = ALPHA) -> float:
    """O'Brien-Fleming type spending function (Lan-DeMets): alpha spent by information fraction t."""
    if fraction <= 0:
        return 0.0
    return float(2 * stats.norm.sf(stats.norm.isf(alpha / 2) / math.sqrt(min(1.0, fraction))))


def look_alpha(looks: list[int] | None, look: int | None, alpha: float = ALPHA) -> float:
    """The alpha look ``look`` of the planned ``looks`` may spend (all of it for a fixed study)."""
    if not looks:
        return alpha
    look = len(looks) - 1 if look is None else look
    last = looks[-1]
    before = looks[look - 1] / last if look > 0 else 0.0
    return spent_alpha(looks[look] / last, alpha) - spent_alpha(before, alpha)


def sequential_looks(batch: int, max_games: int) -> list[int]:
    """Game counts at which a sequential study looks at its claims: batch, 2 batch, 4 batch, ...,
    max_games."""
    looks = []
    n = batch
    while n < max_games:
        looks.append(n)
        n *= 2
    looks.append(max_games)
    return looks


def _effective_level(p_raw: float, p_family: float, look_level: float, family: int) -> float:
    """The per-claim level at which the raw p-value is compared: Holm and the look together, so that
    the interval at this level decides exactly as the adjusted p-value does."""
    if p_raw > 0 and p_family > 0:
        return look_level * p_raw / p_family
    return look_level / max(1, family)


CLAIM_COLUMNS = ["claim", "text", "by", "group", "estimate", "low", "high", "se", "n", "deals", "compare", "target",
                 "tolerance", "unit", "decide_low", "decide_high", "decide_level", "p_holds", "p_fails",
                 "p_holds_adjusted", "p_fails_adjusted", "verdict"]
FACT_COLUMNS = ["claim", "text", "by", "group", "value", "compare", "target", "tolerance", "band_low", "band_high",
                "unit", "inside", "verdict"]


def claim_rows(results, claims) -> tuple[list[dict], list[dict]]:
    """(sampled rows, fact rows), one per claim and group, each with the unit its quantity reads in
    over the study's games (quantity_unit: the unit of its panels, so that its verdict lines match)."""
    game = results.setup.game
    sampled, facts = [], []
    for claim in claims:
        quantity = game.quantity(claim.quantity, claim.id)
        table = results.table(quantity.table)
        unit = quantity_unit(quantity, table)
        frame = _columns(table, quantity, claim.by, *claim.where)
        for column, value in claim.where.items():
            frame = frame[frame[column] == value]
        groups = [(None, frame)] if claim.by is None else list(frame.groupby(claim.by, sort=True))
        for group, part in groups:
            est = quantity_estimate(results, quantity, part)
            base = {"claim": claim.id, "text": claim.text, "by": claim.by or "",
                    "group": "" if group is None else str(group),
                    "compare": claim.compare, "target": claim.target, "tolerance": claim.tolerance, "unit": unit}
            if est.fixed:
                p_h, _ = claim_pvalues(est.reference, claim.target, claim.tolerance, claim.compare)
                low, high = claim_band(claim.compare, claim.target, claim.tolerance)
                facts.append({**base, "value": est.estimate, "band_low": low, "band_high": high, "inside": p_h == 0,
                              "verdict": HOLDS if p_h == 0 else FAILS})
                continue
            p_h, p_f = claim_pvalues(est.reference, claim.target, claim.tolerance, claim.compare)
            few = est.clusters < claim.min_deals
            reason = TOO_FEW_DEALS if few else (NO_SPREAD if not est.reference.testable else "")
            if reason:
                p_h = p_f = 1.0
            sampled.append({**base, "estimate": est.estimate, "low": est.low, "high": est.high, "se": est.se,
                            "n": est.n, "deals": est.clusters,
                            "p_holds": p_h, "p_fails": p_f, "_reason": reason, "_ref": est.reference,
                            "_claim": claim})
    return sampled, facts


def _columns(frame: pd.DataFrame, quantity, *keys: str | None) -> pd.DataFrame:
    """Only the columns an estimate of ``quantity`` grouped or filtered by ``keys`` reads (grouping
    a wide frame copies every column)."""
    wanted = ["deal", quantity.column, quantity.denominator, *keys]
    return frame[list(dict.fromkeys(c for c in wanted if c is not None))]


def claim_band(compare: str, target: float, tolerance: float) -> tuple[float, float]:
    """The values for which the claim is true."""
    return {"about": (target - tolerance, target + tolerance), "at_most": (-np.inf, target + tolerance),
            "at_least": (target - tolerance, np.inf)}[compare]


def is_share(quantity, frame: pd.DataFrame) -> bool:
    """A share (reported in percentage points): a rate, or a ratio whose every numerator lies
    between 0 and its denominator (rounds kept of rounds played, games won of games)."""
    if quantity.kind == "rate":
        return True
    if quantity.kind != "ratio":
        return False
    numerator, denominator = frame[quantity.column].to_numpy(float), frame[quantity.denominator].to_numpy(float)
    return bool((numerator >= 0).all() and (numerator <= denominator).all())


def quantity_unit(quantity, frame: pd.DataFrame) -> str:
    """How a quantity reads on every page that shows it (a study's panels and tables, the robustness
    and skill strips, a sweep's figures): the one decision, so that no two pages read it differently.
    "%" for a share (is_share); for a difference of shares (its doc names a rate or percentage points:
    DETHRONED's seat_edge, a seat's win rate minus the field's; Throne Arcade's starter_edge, the
    points by which the starter loses less often than the fair 1/n), "points" when it is measured as
    a fraction (every value, per unit of its denominator, between -1 and 1) and MEASURED_POINTS when
    the game measures it in percentage points already (x100); else "" (a panel title then takes the
    unit the quantity's doc states: report.quantity_title)."""
    if is_share(quantity, frame):
        return "%"
    doc = quantity.doc.lower()
    if quantity.kind not in ("mean", "ratio") or not ("rate" in doc or "percentage points" in doc):
        return ""
    values = np.abs(frame[quantity.column].to_numpy(float))
    if quantity.kind == "ratio":
        fractions = bool((values <= frame[quantity.denominator].to_numpy(float)).all())
    else:
        fractions = bool((values <= 1).all())
    if fractions:
        return "points"
    return MEASURED_POINTS if "percentage points" in doc else ""


def study_looks(results) -> tuple[list[int] | None, int | None]:
    """(planned looks, the look the study stopped at) from ``results.meta``; (None, None) for a
    fixed-size study."""
    meta = results.meta or {}
    looks = meta.get("looks")
    if not isinstance(looks, list):
        return None, None
    return looks, meta.get("look", len(looks) - 1)


def evaluate_claims(results, claims, alpha: float = ALPHA, looks: list[int] | None = None,
                    look: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(claims, facts). Claims: one row per sampled claim and group with the estimate, its 95%
    interval, the deciding interval, p-values adjusted for Holm and for the look, and the verdict.
    Facts: the claims on fixed facts of the setup, inside or outside their band. The looks default
    to those in ``results.meta``."""
    if looks is None:
        looks, look = study_looks(results)
    sampled, facts = claim_rows(results, claims)
    return decide(sampled, look_alpha(looks, look, alpha), alpha), pd.DataFrame(facts, columns=FACT_COLUMNS)


def evaluate_family(studies: dict, claims, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The claims of one scenario played by several studies (the members of a policy family, named
    by the keys) as ONE family: Holm over every claim, group and study together, so that a
    statement about all of them at once ("holds under every member") keeps the family-wise error
    at ``alpha``. The tables of :func:`evaluate_claims` with a ``member`` column first."""
    sampled, facts = [], []
    for member, results in studies.items():
        rows, fact_rows = claim_rows(results, claims)
        sampled += [{"member": member, **row} for row in rows]
        facts += [{"member": member, **row} for row in fact_rows]
    return (decide(sampled, alpha, alpha, columns=["member", *CLAIM_COLUMNS]),
            pd.DataFrame(facts, columns=["member", *FACT_COLUMNS]))


def decide(sampled: list[dict], level: float, alpha: float = ALPHA, adjust=holm,
           columns: list[str] = CLAIM_COLUMNS) -> pd.DataFrame:
    """Verdicts of one family of sampled claim rows (``claim_rows``, of one study or of many):
    p-values adjusted by ``adjust`` (Holm; a sweep may pass Benjamini-Hochberg) and for the look
    (``level``: the alpha the look may spend), the deciding interval at the level that decides.
    One row per claim row, with ``columns``."""
    m = len(sampled)
    sampled = _resolved(sampled, level / max(1, m))
    p_h = np.array([r["p_holds"] for r in sampled], float)
    p_f = np.array([r["p_fails"] for r in sampled], float)
    adj_h, adj_f = adjust(p_h), adjust(p_f)
    rows = []
    for i, raw in enumerate(sampled):
        row = dict(raw)
        row["p_holds_adjusted"] = min(1.0, adj_h[i] * alpha / level)
        row["p_fails_adjusted"] = min(1.0, adj_f[i] * alpha / level)
        a_h = _effective_level(p_h[i], adj_h[i], level, m)
        a_f = _effective_level(p_f[i], adj_f[i], level, m)
        if row["_reason"]:
            verdict, a = row["_reason"], min(a_h, a_f)
        elif adj_h[i] < level:
            verdict, a = HOLDS, a_h
        elif adj_f[i] < level:
            verdict, a = FAILS, a_f
        else:
            verdict, a = UNDECIDED, min(a_h, a_f)
        row["decide_low"], row["decide_high"] = row["_ref"].lower(a), row["_ref"].upper(a)
        row["decide_level"], row["verdict"] = a, verdict
        rows.append(row)
    return pd.DataFrame(rows, columns=columns)


def resolved_pvalues(ref: Reference, target: float, tolerance: float, compare: str,
                     finest: float) -> tuple[Reference, float, float]:
    """(reference, p_holds, p_fails) as ``claim_pvalues``, from a reference that can compare them at
    ``finest``, the smallest level the family's adjustment compares at (Holm's or Benjamini-Hochberg's
    first step: alpha / tests): a bootstrap p-value at its floor is resampled with more replicates
    (Reference.resolving)."""
    p_h, p_f = claim_pvalues(ref, target, tolerance, compare)
    sharper = ref.resolving(finest, min(p_h, p_f))
    if sharper is ref:
        return ref, p_h, p_f
    return (sharper, *claim_pvalues(sharper, target, tolerance, compare))


def _resolved(rows: list[dict], finest: float) -> list[dict]:
    """Claim rows (claim_rows) with p-values their family can compare at ``finest``, resampled
    together (``resolving``)."""
    live = [i for i, row in enumerate(rows) if not row["_reason"]]
    refs = resolving([(rows[i]["_ref"], finest, min(rows[i]["p_holds"], rows[i]["p_fails"])) for i in live])
    out = list(rows)
    for i, ref in zip(live, refs):
        if ref is not rows[i]["_ref"]:
            c = rows[i]["_claim"]
            p_h, p_f = claim_pvalues(ref, c.target, c.tolerance, c.compare)
            out[i] = {**rows[i], "_ref": ref, "p_holds": p_h, "p_fails": p_f}
    return out


def should_stop(results, claims, precision, look: int, looks: list[int]) -> bool:
    """At look index ``look`` of the planned ``looks``: is every claim decided, or does every claim
    meet its precision target (its own ``half_width`` / ``relative_half_width``, else the study's)?"""
    if look >= len(looks) - 1:
        return True
    table, _ = evaluate_claims(results, claims, looks=looks, look=look)
    if table.empty:
        return True
    decided = table["verdict"].isin([HOLDS, FAILS]).all()
    by_id = {c.id: c for c in claims}
    precise = all(_precise(row, by_id[row.claim], precision) for row in table.itertuples())
    return bool(decided or precise)


def _precise(row, claim, precision) -> bool:
    """Is the 95% interval's half-width within the claim's own target (absolute or relative to the
    estimate), or else the study's?"""
    absolute, relative = claim.half_width, claim.relative_half_width
    if absolute is None and relative is None:
        absolute, relative = precision.half_width, precision.relative_half_width
    if row.deals < claim.min_deals or not np.isfinite(row.high - row.low):
        return False
    half = (row.high - row.low) / 2
    if absolute is not None and half <= absolute:
        return True
    return relative is not None and half <= relative * abs(row.estimate)


# ---- verdict lines ------------------------------------------------------------------------
P_FLOOR = 1e-6  # smaller p-values are printed as "< 1e-6" (a floating-point 0 is no certainty)


def format_p(p: float) -> str:
    return f"< {P_FLOOR:g}" if p < P_FLOOR else f"{p:.2g}"


def p_clause(p: float) -> str:
    """"p = 0.012" or "p < 1e-06"."""
    return f"p {'' if p < P_FLOOR else '= '}{format_p(p)}"


def _band_text(compare: str, target: float, tolerance: float, units: Units) -> str:
    """The claim's band in its units: "band +/- 5" around the target, or the bound itself."""
    if compare == "about":
        return f"band +/- {units.number(tolerance * units.scale)}"
    bound = target + tolerance if compare == "at_most" else target - tolerance
    return f"{compare.replace('_', ' ')} {units.value(bound)}"


IN_POINTS = ("%", "points")  # the units (quantity_unit) of fractions that print in percentage points (x100)
MEASURED_POINTS = "percentage points"  # the unit of a difference of shares the game measures in points (x1)


def unit_scale(unit: str) -> float:
    """What a value of a quantity in ``unit`` (quantity_unit) is multiplied by to print: 100 for a
    fraction that prints in % or points, else 1."""
    return 100.0 if unit in IN_POINTS else 1.0


def reads_in_points(unit: str) -> bool:
    """Whether a difference of values in ``unit`` reads in percentage points (a share, a difference
    of shares, as a fraction or measured in points)."""
    return unit in IN_POINTS or unit == MEASURED_POINTS


@dataclass(frozen=True)
class Units:
    """How a claim's numbers print, in the unit its quantity reads in on the pages (the row's
    "unit", quantity_unit): a share ("%") and a difference of shares ("points") in percentage
    points (x100), everything else as measured; one number of decimals for every number of the
    claim, fine enough for its band. ``effect_unit`` follows a difference from the target ("+3.1
    points"), ``value_unit`` a value itself ("25%" for a share, "3 points" for a difference)."""
    scale: float
    effect_unit: str
    value_unit: str
    decimals: int

    @classmethod
    def of(cls, row) -> "Units":
        unit = row["unit"]
        scale = unit_scale(unit)
        resolution = row["tolerance"] * scale or abs(row["target"] * scale) or 1.0
        decimals = int(min(3, max(1, 1 - np.floor(np.log10(resolution)))))
        return cls(scale, " points" if reads_in_points(unit) else "",
                   {"%": "%", "points": " points", MEASURED_POINTS: " points"}.get(unit, ""), decimals)

    def number(self, value: float) -> str:
        return f"{value:.{self.decimals}f}".rstrip("0").rstrip(".") if np.isfinite(value) else "—"

    def amount(self, value: float) -> str:
        """A size in the unit of a difference (a band's half-width, a margin): "1.7 points", "1 point",
        "0.5" (a length)."""
        number = self.number(value * self.scale)
        return f"{number}{self.effect_unit[:-1] if number == '1' and self.effect_unit.endswith('s') else self.effect_unit}"

    def resolving(self, low: float, high: float) -> "Units":
        """These units with enough decimals (up to four more) that two different ends of an interval
        print differently: a rate of none in 100,000 games reads "0.000% [0.000, 0.003]", not as the
        fixed-looking "0.00% [0.00, 0.00]"."""
        units = self
        while (np.isfinite(low) and np.isfinite(high) and low != high and units.decimals < self.decimals + 4
               and units.fixed(low) == units.fixed(high)):
            units = replace(units, decimals=units.decimals + 1)
        return units

    def value(self, value: float) -> str:
        """A value of the claim's quantity (not a difference): "25%", "3 points", "8.5"."""
        return f"{self.number(value * self.scale)}{self.value_unit}"

    def signed(self, value: float) -> str:
        text = f"{value + 0.0:+.{self.decimals}f}"  # + 0.0: no "-0.0"
        return "+0" + text[2:] if text.startswith("-") and float(text) == 0 else text

    # The tables' texts (report.py), every number with the claim's decimals; the arguments are
    # values of the claim's quantity as measured (fractions for shares).
    def fixed(self, value: float) -> str:
        """A value in the claim's units with all its decimals, no unit: "28.1" (a share of 0.2807),
        signed for a difference of shares ("+0.9"); "—" when there is none."""
        if not np.isfinite(value):
            return "—"
        if self.value_unit == " points":
            return self.signed(value * self.scale)
        text = f"{value * self.scale + 0.0:.{self.decimals}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text

    def interval(self, low: float, high: float) -> str:
        """"[27.9, 28.3]" in the claim's units, or "—" without one."""
        if not (np.isfinite(low) and np.isfinite(high)):
            return "—"
        units = self.resolving(low, high)
        return f"[{units.fixed(low)}, {units.fixed(high)}]"

    def measured(self, value: float, low: float = np.nan, high: float = np.nan) -> str:
        """An estimate with its unit, and its interval when given: "28.1% [27.9, 28.3]", "+0.9 points
        [+0.0, +1.7]", "8.9 [8.9, 9.0]"."""
        units = self.resolving(low, high)
        text = f"{units.fixed(value)}{units.value_unit}" if np.isfinite(value) else "—"
        return text if np.isnan(low) and np.isnan(high) else f"{text} {units.interval(low, high)}"

    def span(self, low: float, high: float) -> str:
        """The range of several estimates: "23.7% to 28.1%", "-0.6 to +0.9 points", "8.9 to 12.5"; one
        value where both ends print the same ("0.00%")."""
        if self.fixed(low) == self.fixed(high):
            return self.measured(low)
        if self.value_unit.startswith(" "):
            return f"{self.fixed(low)} to {self.fixed(high)}{self.value_unit}"
        return f"{self.measured(low)} to {self.measured(high)}"

    def effect(self, value: float) -> str:
        """A difference from the target: "+3.1 points" (shares), "+0.9" (a length)."""
        return f"{self.signed(value * self.scale)}{self.effect_unit}" if np.isfinite(value) else "—"

    def band(self, compare: str, target: float, tolerance: float, plus_minus: str = "±") -> str:
        """The claim's band: "about 25% ± 5 points", "about 0 ± 3 points" (a difference of shares),
        "about 8 ± 3", "at most 30%", "at least 40%"."""
        if compare == "about":
            value = self.number(target * self.scale) if self.value_unit == self.effect_unit else self.value(target)
            return f"about {value} {plus_minus} {self.amount(tolerance)}"
        low, high = claim_band(compare, target, tolerance)
        return f"{compare.replace('_', ' ')} {self.value(high if compare == 'at_most' else low)}"


# A win rate (a share) as every page prints one: in %, one decimal (the ladder, restricted play).
WIN_RATE = Units(scale=100.0, effect_unit=" points", value_unit="%", decimals=1)

def game_word(setup) -> str:
    """What one simulated game of the setup is called: "game", or "match" where a result row is a
    round (the game's report view says)."""
    return setup.game.report_view(setup).match_word or "game"


def plural(word: str) -> str:
    return word + ("es" if word.endswith(("ch", "sh", "s")) else "s")


def count_text(summary: dict) -> str:
    """The study's size in distinct games (matches and their rounds where a row is a round)."""
    if summary.get("unit") == "round":
        return f"{summary['games']:,} matches ({summary['rows']:,} rounds)"
    return f"{summary['games']:,} games"


def _label(row) -> str:
    return f"{row['by']} {row['group']}" if row["by"] else row["claim"]


def verdict_text(row, color: bool = False) -> str:
    """A claim row (a mapping) as one line: the effect in the claim's units (percentage points for
    shares), the deciding interval, the band, the verdict and its adjusted p-value, e.g.
    "seat 0: +3.6 points [+3.2, +4.0] from 25% (band +/- 5): holds (p < 1e-06)"; an undecided
    verdict says about how many times the games would decide it. ``color``: the verdict coloured
    for a terminal (green holds, red fails, yellow undecided)."""
    p = {HOLDS: row["p_holds_adjusted"], FAILS: row["p_fails_adjusted"]}.get(row["verdict"])
    p_text = f" ({p_clause(p)})" if p is not None else f"; {more_games_text(row)}" if row["verdict"] == UNDECIDED \
        else ""
    verdict = _colored(row["verdict"]) if color else row["verdict"]
    return f"{_label(row)}: {effect_text(row)}: {verdict}{p_text}"


def effect_text(row) -> str:
    """A claim row's effect in its units with the deciding interval and the band, e.g.
    "+3.6 points [+3.2, +4.0] from 25% (band +/- 5)" (verdict lines, the reports' findings)."""
    units = Units.of(row).resolving(row["decide_low"], row["decide_high"])
    target = row["target"]
    effect = (row["estimate"] - target) * units.scale
    low, high = (row["decide_low"] - target) * units.scale, (row["decide_high"] - target) * units.scale
    interval = f"[{units.signed(low)}, {units.signed(high)}]" if np.isfinite(low) and np.isfinite(high) \
        else "[no interval]"
    band = _band_text(row["compare"], target, row["tolerance"], units)
    return f"{units.signed(effect)}{units.effect_unit} {interval} from {units.value(target)} ({band})"


MORE_GAMES_LIMIT = 100  # beyond this many times the games, the advice is that no practical count decides


def more_games_factor(row) -> float:
    """About how many times the games would decide an undecided claim if its estimate stayed
    where it is: the deciding interval narrows as 1/sqrt(games) until it clears the band's nearest
    edge (inside the band: holds; outside: fails). Infinite for an estimate on the edge."""
    edges = {"about": (row["target"] - row["tolerance"], row["target"] + row["tolerance"]),
             "at_most": (row["target"] + row["tolerance"],),
             "at_least": (row["target"] - row["tolerance"],)}[row["compare"]]
    distance = min(abs(row["estimate"] - edge) for edge in edges)
    half = (row["decide_high"] - row["decide_low"]) / 2
    if not (np.isfinite(half) and distance > 0):
        return np.inf
    return max(1.0, (half / distance) ** 2)


def more_games_text(row) -> str:
    factor = more_games_factor(row)
    if factor > MORE_GAMES_LIMIT:
        return ("the estimate sits on the band's edge: no practical number of games decides it "
                "(is the band the claim the rulebook makes?)")
    return f"about {factor:.2g}x the games would decide it, if the estimate stays"


VERDICT_COLORS = {HOLDS: "green", FAILS: "red", UNDECIDED: "yellow"}


def _colored(verdict: str) -> str:
    """ANSI colour for a terminal (bold green, red, yellow; other verdicts as they are)."""
    codes = {"green": 32, "red": 31, "yellow": 33}
    color = VERDICT_COLORS.get(verdict)
    return f"\x1b[1;{codes[color]}m{verdict}\x1b[0m" if color else verdict


def fact_text(row, color: bool = False) -> str:
    """A fact row (a mapping) as one line: its value, the band, inside or outside (shares in %)."""
    units = Units.of(row)
    band = {"about": f"{units.value(row['target'])} +/- {units.amount(row['tolerance'])}",
            "at_most": f"at most {units.value(row['band_high'])}",
            "at_least": f"at least {units.value(row['band_low'])}"}[row["compare"]]
    where = "inside" if row["inside"] else "outside"
    verdict = _colored(row["verdict"]) if color else row["verdict"]
    return f"{_label(row)}: {units.value(row['value'])}, a fixed fact of the setup, {where} {band}: {verdict}"


# ---- seat uniformity ----------------------------------------------------------------------
def seat_uniformity(won: np.ndarray, seat: np.ndarray, clusters: np.ndarray, games: np.ndarray | None = None) -> dict:
    """Test that every seat wins equally often.

    Pearson's chi-square on the win counts when every deal is one game with at most one winner
    (a multinomial); otherwise (rotated deals, several winners in a game) a cluster-robust Wald
    test of equal seat rates over deals, with an F reference (Hotelling's small-sample correction).
    ``games`` identifies a game's rows (for the several-winners check); default: the clusters.
    """
    won = np.asarray(won, float)
    seat = np.asarray(seat)
    clusters = np.asarray(clusters)
    seats = np.unique(seat)
    k = len(seats)
    if k < 2:
        return {"test": "none", "statistic": np.nan, "df": 0, "p": np.nan, "untestable": "one seat"}
    codes, _ = pd.factorize(clusters, sort=False)
    g = codes.max() + 1
    game_codes = codes if games is None else pd.factorize(np.asarray(games), sort=False)[0]
    one_winner = np.bincount(game_codes, weights=won).max() <= 1
    one_game_per_deal = (np.bincount(codes) == k).all() and game_codes.max() + 1 == g
    counts = np.array([won[seat == s].sum() for s in seats])
    if one_winner and one_game_per_deal and counts.sum() > 0:
        st = stats.chisquare(counts)
        return {"test": "pearson chi-square", "statistic": float(st.statistic), "df": k - 1, "p": float(st.pvalue)}
    y = np.zeros((g, k))
    x = np.zeros((g, k))
    for j, s in enumerate(seats):
        mask = seat == s
        y[:, j] = np.bincount(codes[mask], weights=won[mask], minlength=g)
        x[:, j] = np.bincount(codes[mask], minlength=g)
    if g < 2:  # a covariance over deals needs two of them
        return {"test": "cluster-robust Wald F", "statistic": np.nan, "df": 0, "p": np.nan,
                "untestable": "one deal"}
    rates = y.sum(0) / x.sum(0)
    pooled = y.sum() / x.sum()
    # covariance of the seat rates over deals under the null (all seats at the pooled rate): a
    # score-type statistic, better sized with few deals than the unrestricted one
    resid = (y - pooled * x) / x.sum(0)
    cov = g / (g - 1) * resid.T @ resid
    contrast = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    v = contrast @ cov @ contrast.T
    q = int(np.linalg.matrix_rank(v, tol=EXACT * max(1.0, np.abs(v).max())))  # team wins tie seats together
    if q == 0 or g <= q:  # no test: the seats never differ within a deal, or too few deals
        why = "the seats' wins are the same in every deal" if q == 0 else f"{g} deals for {q} seat contrasts"
        return {"test": "cluster-robust Wald F", "statistic": np.nan, "df": 0, "p": np.nan, "untestable": why}
    d = contrast @ rates
    w = float(d @ np.linalg.pinv(v) @ d)
    f = w * (g - q) / ((g - 1) * q)  # Hotelling's T^2 to F
    return {"test": "cluster-robust Wald F", "statistic": f, "df": q, "df2": g - q, "p": float(stats.f.sf(f, q, g - q))}


# ---- study summaries ----------------------------------------------------------------------
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
                for group, part in _columns(frame, q, by).groupby(by, sort=True):
                    est = quantity_estimate(results, q, part)
                    rows.append({"quantity": q.name, "by": by, "group": str(group), **estimate_row(est)})
        else:
            est = quantity_estimate(results, q, frame)
            rows.append({"quantity": q.name, "by": "", "group": "", **estimate_row(est)})
    return pd.DataFrame(rows)


def summarize(results, claims, analyses=()) -> dict:
    """The study's numbers: claims with verdicts (at the look the study stopped at, from
    ``results.meta``), facts of the setup, every declared quantity, seat uniformity, and the
    ``analyses`` made beside the claims (balance.studies.analyses)."""
    seats = results.seats
    claims_table, facts = evaluate_claims(results, claims)
    looks, look = study_looks(results)
    summary = {
        "games": results.n_games,
        "rows": len(results.games),
        "unit": results.setup.game.unit,
        "deals": int(results.games["deal"].nunique()) if len(results.games) else 0,
        "claims": claims_table,
        "facts": facts,
        "quantities": quantity_table(results),
        "analyses": [{"title": a.title, "text": a.text, "table": a.table, "method": a.method}
                     for a in analyses],
    }
    if looks is not None:
        summary["sequential"] = {"looks": list(looks), "look": look, "alpha": look_alpha(looks, look)}
    if "won" in seats.columns and "seat" in seats.columns:
        game_key = seats.groupby(["game", "row"] if "row" in seats.columns else ["game"], sort=False).ngroup()
        summary["seat_uniformity"] = seat_uniformity(seats["won"].to_numpy(), seats["seat"].to_numpy(),
                                                     seats["deal"].to_numpy(), game_key.to_numpy())
    return summary


# ---- choice games: what a player who chooses well picks ------------------------------------
# When each game's options (a player's Army of cards, a faction...) were dealt at random, a
# logistic model of "side A beats side B" on the two options' make-up is a randomized design:
# its coefficients are the options' causal effects on winning, for the players who played them.
# The fitted model is a symmetric zero-sum game between choosers; its equilibrium is how players
# who choose well (against players who choose well) would pick. Its uncertainty comes from the
# coefficients' sampling distribution (parametric bootstrap: draws from their normal approximation).
@dataclass(frozen=True)
class LogisticFit:
    coef: np.ndarray  # intercept first
    cov: np.ndarray  # inverse Fisher information at the maximum
    loglik: float

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.diag(self.cov))


def logistic_fit(features: np.ndarray, wins: np.ndarray) -> LogisticFit:
    """Maximum-likelihood logistic regression of 0/1 ``wins`` on ``features`` with an intercept
    (Newton's method with a trust region: scipy's trust-exact). The columns must be independent
    (``independent_columns``)."""
    from scipy.optimize import minimize
    from scipy.special import expit

    x = np.hstack([np.ones((len(features), 1)), np.asarray(features, float)])
    y = np.asarray(wins, float)

    def information(beta):
        p = expit(x @ beta)
        return (x * (p * (1 - p))[:, None]).T @ x

    def negative_loglik(beta):
        z = x @ beta
        return np.sum(np.logaddexp(0.0, z) - y * z)

    fit = minimize(negative_loglik, np.zeros(x.shape[1]), jac=lambda beta: x.T @ (expit(x @ beta) - y),
                   hess=information, method="trust-exact")
    return LogisticFit(fit.x, np.linalg.inv(information(fit.x)), -float(fit.fun))


def independent_columns(features: np.ndarray, sample: int = 20_000) -> np.ndarray:
    """Indices of a largest set of linearly independent columns (QR with column pivoting on the
    first ``sample`` rows), in their original order."""
    from scipy.linalg import qr

    _, r, pivots = qr(np.asarray(features[:sample], float), mode="economic", pivoting=True)
    diagonal = np.abs(np.diag(r))
    rank = int((diagonal > 1e-9 * diagonal[0]).sum()) if len(diagonal) else 0
    return np.sort(pivots[:rank])


def likelihood_ratio_test(nested: LogisticFit, full: LogisticFit) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p) of the likelihood-ratio test of ``nested`` against ``full``."""
    statistic = max(0.0, 2 * (full.loglik - nested.loglik))
    df = len(full.coef) - len(nested.coef)
    return statistic, df, float(stats.chi2.sf(statistic, df))


def symmetric_equilibrium(payoff: np.ndarray) -> np.ndarray:
    """A maximin mixed strategy of the symmetric zero-sum game whose row player gains
    ``payoff[i, j]`` choosing i against j (antisymmetric: the game's value is 0): x >= 0 with
    sum 1 maximizing min_j (x @ payoff)[j], by linear programming (HiGHS)."""
    from scipy.optimize import linprog

    n = len(payoff)
    cost = np.zeros(n + 1)
    cost[-1] = -1.0  # maximize the guaranteed value v
    bound = np.hstack([-payoff.T, np.ones((n, 1))])  # v - (x @ payoff)[j] <= 0 for every j
    total = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    lp = linprog(cost, A_ub=bound, b_ub=np.zeros(n), A_eq=total, b_eq=[1.0],
                 bounds=[(0, None)] * n + [(None, None)], method="highs")
    if lp.status != 0:
        raise RuntimeError(f"equilibrium: {lp.message}")
    return np.clip(lp.x[:n], 0.0, None) / np.clip(lp.x[:n], 0.0, None).sum()


COMPOSITION_TERMS = ("strength", "counter", "synergy")


def composition_features(a: np.ndarray, b: np.ndarray, terms: tuple[str, ...]) -> np.ndarray:
    """Features of "side A beats side B" from the sides' make-up (``a``, ``b``: games x items, 0/1),
    antisymmetric (swapping the sides negates them): ``strength``, one per item but the first
    (a_k - b_k; the first is the reference); ``counter``, one per pair of items (a_i b_j - a_j b_i:
    i in A against j in B); ``synergy``, one per pair (a_i a_j - b_i b_j: i and j together).
    With sides of a fixed size, counters span the strengths, and synergies partly do too
    (``independent_columns`` keeps a basis)."""
    items = a.shape[1]
    pairs = [(i, j) for i in range(items) for j in range(i + 1, items)]
    columns = []
    if "strength" in terms:
        columns += [a[:, k] - b[:, k] for k in range(1, items)]
    if "counter" in terms:
        columns += [a[:, i] * b[:, j] - a[:, j] * b[:, i] for i, j in pairs]
    if "synergy" in terms:
        columns += [a[:, i] * a[:, j] - b[:, i] * b[:, j] for i, j in pairs]
    return np.stack(columns, axis=1).astype(float)


@dataclass(frozen=True)
class CompositionChoice:
    """``composition_choice``'s findings; every interval at ``LEVEL``. Items are in the input's
    column order; options are ``options`` (rows: 0/1 item sets)."""

    options: np.ndarray
    strength: np.ndarray  # per item, logit scale, centred on the items' mean (additive model)
    strength_low: np.ndarray
    strength_high: np.ndarray
    counter_test: tuple[float, int, float]  # LR: counters (and strengths) against strengths alone
    synergy_test: tuple[float, int, float]  # LR: + synergies against counters
    seat: tuple[float, float]  # side A's own logit edge (the intercept) and its standard error
    pick: np.ndarray  # per item: P(an equilibrium chooser's option holds it)
    pick_low: np.ndarray
    pick_high: np.ndarray
    pick_mean: np.ndarray  # per item: its pick rate averaged over the draws (the uncertainty's mix)
    equilibrium: np.ndarray  # per option: its probability at the fitted model's equilibrium
    field_edge: np.ndarray  # per option: mean win probability - 1/2 against a uniformly random option
    field_edge_low: np.ndarray
    field_edge_high: np.ndarray
    games: int


def composition_choice(a: np.ndarray, b: np.ndarray, wins: np.ndarray, size: int, draws: int,
                       seed: int) -> CompositionChoice:
    """Which items players who choose well would put in their side, when each side is ``size`` of
    the items and the games' sides were dealt at random (``a``, ``b``: games x items, 0/1; ``wins``:
    side A won). The full model (strengths, counters, synergies) is the payoff of the choice game
    between every pair of options; its equilibrium (``symmetric_equilibrium``) gives each item's
    pick rate, and ``draws`` parametric draws of the coefficients (seeded) give the intervals.
    The additive model gives each item's strength; likelihood-ratio tests say whether counters
    and synergies are seen at all."""
    from itertools import combinations

    from scipy.special import expit

    items = a.shape[1]
    additive = logistic_fit(composition_features(a, b, ("strength",)), wins)
    counter_x = composition_features(a, b, ("counter",))
    counters = logistic_fit(counter_x, wins)
    full_x = np.hstack([counter_x, composition_features(a, b, ("synergy",))])  # = the terms counter, synergy
    keep = independent_columns(full_x)
    full = logistic_fit(full_x[:, keep], wins)

    centre = np.eye(items) - 1.0 / items  # strengths relative to the items' mean
    to_strength = centre @ np.vstack([np.zeros((1, items - 1)), np.eye(items - 1)])
    strength = to_strength @ additive.coef[1:]
    strength_se = np.sqrt(np.diag(to_strength @ additive.cov[1:, 1:] @ to_strength.T))
    z = stats.norm.ppf(0.5 + LEVEL / 2)

    options = np.zeros((math.comb(items, size), items))
    for i, chosen in enumerate(combinations(range(items), size)):
        options[i, list(chosen)] = 1.0
    m = len(options)
    pair_x = composition_features(np.repeat(options, m, axis=0), np.tile(options, (m, 1)),
                                  COMPOSITION_TERMS[1:])[:, keep]

    def payoff(coef):
        return (expit(pair_x @ coef[1:]) - 0.5).reshape(m, m)  # the seat's intercept left out

    fitted = payoff(full.coef)
    equilibrium = symmetric_equilibrium(fitted)
    rng = np.random.default_rng(seed)
    sampled = rng.multivariate_normal(full.coef, full.cov, size=draws, method="eigh")
    picks, edges = np.empty((draws, items)), np.empty((draws, m))
    for d, coef in enumerate(sampled):
        game = payoff(coef)
        picks[d] = options.T @ symmetric_equilibrium(game)
        edges[d] = game.mean(axis=1)
    tails = [100 * (1 - LEVEL) / 2, 100 * (1 + LEVEL) / 2]
    pick_low, pick_high = np.percentile(picks, tails, axis=0)
    edge_low, edge_high = np.percentile(edges, tails, axis=0)
    return CompositionChoice(
        options=options, strength=strength, strength_low=strength - z * strength_se,
        strength_high=strength + z * strength_se, counter_test=likelihood_ratio_test(additive, counters),
        synergy_test=likelihood_ratio_test(counters, full), seat=(float(full.coef[0]), float(full.se[0])),
        pick=options.T @ equilibrium, pick_low=pick_low, pick_high=pick_high, pick_mean=picks.mean(axis=0),
        equilibrium=equilibrium,
        field_edge=fitted.mean(axis=1), field_edge_low=edge_low, field_edge_high=edge_high, games=len(wins))


def to_jsonable(obj):
    """Tables and numbers as plain JSON values (a table: a list of rows; a missing or infinite
    number: null)."""
    if isinstance(obj, pd.DataFrame):
        return [{k: to_jsonable(v) for k, v in row.items()} for row in obj.to_dict(orient="records")]
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return None if not math.isfinite(obj) else float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj
