"""The statistics: interval coverage on a known coin, verdicts, Holm, uniformity, clusters."""

import numpy as np
import pytest

from balance import stats


def test_wilson_interval_covers_a_known_coin_about_95_percent_of_the_time():
    rng = np.random.default_rng(1)
    p, n, reps = 0.3, 200, 2000
    hits = 0
    for x in rng.binomial(n, p, reps):
        lo, hi = stats.wilson(x, n)
        hits += lo <= p <= hi
    assert 0.93 <= hits / reps <= 0.97


def test_cluster_robust_interval_covers_when_games_share_a_deal():
    # Four correlated games per deal (like seat rotations): a naive binomial interval would be
    # too narrow; the cluster-robust one keeps its coverage.
    rng = np.random.default_rng(2)
    hits, reps = 0, 600
    for _ in range(reps):
        deal_effect = rng.random(300) < 0.5
        values = np.repeat(deal_effect, 4) ^ (rng.random(1200) < 0.2)
        est = stats.estimate_rate(values, np.repeat(np.arange(300), 4))
        hits += est.low <= 0.5 <= est.high
    assert 0.92 <= hits / reps <= 0.975


def verdict(successes, n, target, tolerance, compare="about"):
    est = stats.estimate_rate(np.r_[np.ones(successes), np.zeros(n - successes)], np.arange(n))
    p_h, p_f = stats.claim_pvalues(est, target, tolerance, compare)
    return stats.verdicts(np.array([p_h]), np.array([p_f]))[0][0]


def test_equivalence_verdicts():
    assert verdict(5000, 10000, 0.5, 0.02) == "holds"
    assert verdict(6000, 10000, 0.5, 0.02) == "fails"
    assert verdict(12, 20, 0.5, 0.02) == "undecided"
    assert verdict(10, 10000, 0.0, 0.005, "at_most") == "holds"
    assert verdict(100, 10000, 0.0, 0.005, "at_most") == "fails"
    assert verdict(9000, 10000, 0.8, 0.0, "at_least") == "holds"


def test_tost_matches_the_90_percent_interval_rule():
    # Inside the band exactly when the 90% (two-sided) interval is inside it, up to the method.
    x, n = 5150, 10000
    lo, hi = stats.exact_interval(x, n, level=0.90)
    est = stats.estimate_rate(np.r_[np.ones(x), np.zeros(n - x)], np.arange(n))
    p_h, _ = stats.claim_pvalues(est, 0.5, 0.03, "about")
    assert (p_h < 0.05) == (0.47 <= lo and hi <= 0.53)


def test_holm_adjustment():
    adjusted = stats.holm(np.array([0.01, 0.04, 0.03, 0.005]))
    assert np.allclose(adjusted, [0.03, 0.06, 0.06, 0.02])


def test_seat_uniformity():
    rng = np.random.default_rng(3)
    n = 4000
    winner = rng.integers(0, 4, n)
    seat = np.tile(np.arange(4), n)
    won = (np.repeat(winner, 4) == seat)
    fair = stats.seat_uniformity(won, seat, np.repeat(np.arange(n), 4))
    assert fair["test"] == "pearson chi-square" and fair["p"] > 0.001
    skewed_winner = np.where(rng.random(n) < 0.1, 0, winner)
    skewed = stats.seat_uniformity(np.repeat(skewed_winner, 4) == seat, seat, np.repeat(np.arange(n), 4))
    assert skewed["p"] < 1e-6
    rotated = stats.seat_uniformity(np.repeat(skewed_winner, 4) == seat, seat, np.repeat(np.arange(n // 4), 16))
    assert rotated["test"].startswith("cluster-robust") and rotated["p"] < 1e-3


def test_ratio_estimate_against_a_direct_computation():
    rounds = np.array([5, 7, 3, 9, 4])
    kept = np.array([2, 4, 1, 5, 2])
    est = stats.ratio_estimate(kept, rounds, np.arange(5))
    assert est.estimate == pytest.approx(kept.sum() / rounds.sum())
    assert est.low < est.estimate < est.high


def test_running_estimate_ends_at_the_full_mean():
    values = np.r_[np.ones(30), np.zeros(70)]
    run = stats.running_estimate(values)
    assert run["n"].iloc[-1] == 100 and run["estimate"].iloc[-1] == pytest.approx(0.3)


def test_a_rate_without_variation_still_has_an_honest_interval():
    est = stats.estimate_rate(np.zeros(40), np.repeat(np.arange(10), 4))  # 10 deals, 4 games each
    assert est.low == 0 and 0.2 < est.high < 0.35  # Wilson on 10 deals, not a zero-width interval
    p_h, _ = stats.claim_pvalues(est, 0.001, 0.0, "at_most")
    assert p_h > 0.05  # 10 deals cannot show a rate below 0.1%


def test_a_fixed_fact_on_the_band_edge_holds():
    # "About half the roles are Assailants" for a setup with 2 of 5: exactly 0.4, no sampling error.
    est = stats.Estimate(0.4, 0.4, 0.4, 100, 100, 0.0, "fixed")
    assert stats.verdicts(*map(np.atleast_1d, stats.claim_pvalues(est, 0.5, 0.1, "about")))[0] == ["holds"]
    outside = stats.Estimate(0.375, 0.375, 0.375, 100, 100, 0.0, "fixed")
    assert stats.verdicts(*map(np.atleast_1d, stats.claim_pvalues(outside, 0.5, 0.1, "about")))[0] == ["fails"]
