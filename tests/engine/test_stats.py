"""The statistics: methods against direct computations, verdicts, facts, looks, uniformity.

The helpers at the top (a synthetic game and its results) are shared with
test_stats_error_rates.py, which measures the error rates of the verdicts by simulation."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from balance import stats
from balance.engine.game import Quantity
from balance.engine.runner import Results
from balance.engine.scenario import Claim

# ---- a synthetic game: outcomes with a known truth fed through the project's functions -------
QUANTITIES = (
    Quantity("rate", "a 0/1 outcome per row", "rate", "event"),
    Quantity("length", "a game length per row", "mean", "length"),
    Quantity("capped_length", "a game length the rules cap", "mean", "length", maximum="max_length"),
    Quantity("share", "a ratio of sums", "ratio", "num", denominator="den"),
    Quantity("fact", "a fixed fact of the setup", "ratio", "num", denominator="den", fixed=True),
    Quantity("win", "a seat's win", "rate", "won", table="seats", by=("seat",)),
    Quantity("edge", "a win rate minus the field's", "mean", "edge"),  # a difference of shares
)


LENGTH_CAP = 100


class SyntheticGame:
    name = "synthetic"
    unit = "game"
    quantities = QUANTITIES

    def __init__(self, seats: pd.DataFrame):
        self.seats = seats

    def quantity(self, name, key):
        return next(q for q in self.quantities if q.name == name)

    def value_range(self, setup, quantity):
        return None if quantity.maximum is None else (0.0, float(LENGTH_CAP))

    def seat_frame(self, setup, games):
        return self.seats


def results(games: pd.DataFrame, seats: pd.DataFrame | None = None, meta: dict | None = None) -> Results:
    """Results of the synthetic game; ``games`` needs a ``deal`` column."""
    if "game" not in games:
        games = games.assign(game=np.arange(len(games)))
    game = SyntheticGame(seats if seats is not None else pd.DataFrame())
    return Results(SimpleNamespace(game=game), 1, games, meta=meta or {})


def claim(quantity: str, target: float, tolerance: float, compare: str = "about", min_deals: int = 30,
          **extra) -> Claim:
    return Claim(quantity, quantity, quantity, target, tolerance, compare, min_deals=min_deals, **extra)


def clustered_events(rng, deals: int, games: int, rate: float, shared: float) -> tuple[np.ndarray, np.ndarray]:
    """``games`` correlated 0/1 games per deal with marginal ``rate``: a deal is prone with
    probability rate / shared, and each game of a prone deal has the event with probability
    ``shared`` (shared = 1: a deal's games are identical, as rotations of identical players)."""
    prone = rng.random(deals) < rate / shared
    events = np.repeat(prone, games) & (rng.random(deals * games) < shared)
    return events.astype(float), np.repeat(np.arange(deals), games)


def verdict_of(est: stats.Estimate, target: float, tolerance: float, compare: str = "about") -> str:
    """The verdict of a single claim at one look (no multiplicity)."""
    p_h, p_f = stats.claim_pvalues(est.reference, target, tolerance, compare)
    return stats.HOLDS if p_h < stats.ALPHA else stats.FAILS if p_f < stats.ALPHA else stats.UNDECIDED


def binomial(successes: int, n: int) -> stats.Estimate:
    return stats.estimate_rate(np.r_[np.ones(successes), np.zeros(n - successes)], np.arange(n))


# ---- methods -------------------------------------------------------------------------------
def test_independent_rate_is_the_exact_binomial():
    est = binomial(30, 100)
    ci = stats.stats.binomtest(30, 100).proportion_ci(0.95, method="exact")
    assert (est.low, est.high) == pytest.approx((ci.low, ci.high))
    # the dual test: "at most 0.4" holds exactly when the one-sided 95% upper bound is below 0.4
    assert est.reference.p_below(0.4) == pytest.approx(stats.stats.binom.cdf(30, 100, 0.4))


def test_equivalence_verdicts():
    assert verdict_of(binomial(5000, 10000), 0.5, 0.02) == "holds"
    assert verdict_of(binomial(6000, 10000), 0.5, 0.02) == "fails"
    assert verdict_of(binomial(12, 20), 0.5, 0.02) == "undecided"
    assert verdict_of(binomial(10, 10000), 0.0, 0.005, "at_most") == "holds"
    assert verdict_of(binomial(100, 10000), 0.0, 0.005, "at_most") == "fails"
    assert verdict_of(binomial(9000, 10000), 0.8, 0.0, "at_least") == "holds"


def test_holm_adjustment():
    adjusted = stats.holm(np.array([0.01, 0.04, 0.03, 0.005]))
    assert np.allclose(adjusted, [0.03, 0.06, 0.06, 0.02])


def test_a_mean_beyond_every_bootstrap_replicate_is_decided_in_a_family_of_150_claims():
    # 100 deals: the mean's reference is the bootstrap-t, whose 1,999 replicates give no p-value
    # below 1 / 2,000; Holm's first step in a family of 150 compares at 0.05 / 150, below that.
    rng = np.random.default_rng(5)
    games = pd.DataFrame({"deal": np.arange(100), "length": rng.normal(20, 1, 100), "event": rng.random(100) < 0.5})
    claims = [Claim("far", "", "length", 10, 1.0)] + [Claim(f"r{i}", "", "rate", 0.5, 0.0) for i in range(149)]
    table, _ = stats.evaluate_claims(results(games), claims)
    far = table[table["claim"] == "far"].iloc[0]
    assert far["p_fails"] < 0.05 / 150 / 2 and far["verdict"] == "fails"
    assert np.isfinite(far["decide_low"]) and far["decide_low"] > 11  # the deciding interval is shown, outside the band
    assert (table["verdict"].iloc[1:] == "undecided").all()


def test_a_bootstrap_resolves_its_p_values_only_where_a_family_needs_it():
    rng = np.random.default_rng(6)
    est = stats.estimate_mean(rng.normal(20, 1, 100), np.arange(100))
    ref = est.reference
    assert isinstance(ref, stats.BootstrapT) and len(ref.t) == stats.BOOTSTRAP_REPLICATES
    assert ref.resolving(0.05 / 150, ref.floor) is not ref  # at its floor, too coarse for the family
    assert ref.resolving(0.05 / 10, ref.floor) is ref  # fine enough for 10 claims
    assert ref.resolving(0.05 / 150, 0.3) is ref  # not at its floor: nothing to resolve
    assert ref.resolving(1e-7, ref.floor) is ref  # beyond reach (an early look's level): a later look decides
    finer = ref.resolving(0.05 / 150, ref.floor)
    assert finer.floor * stats.BOOTSTRAP_RESOLUTION <= 0.05 / 150
    # the same statistic, resampled more: its quantiles agree
    assert np.quantile(finer.t, [0.05, 0.5, 0.95]) == pytest.approx(np.quantile(ref.t, [0.05, 0.5, 0.95]), abs=0.15)


def test_a_family_of_150_claims_far_from_their_bands_is_decided_at_500_deals():
    # 500 deals: every claim's reference is the bootstrap-t; Holm's first step compares at
    # 0.05 / 150, below the 1 / 2,000 its 1,999 replicates can give. 75 claims far below their band
    # (mean 9, bands around 20) and 75 far inside theirs (bands of +/- 5 around 9): the family is
    # resampled for its level together, and every claim is decided.
    rng = np.random.default_rng(11)
    games = pd.DataFrame({"deal": np.arange(500), "length": 5 + rng.exponential(4, 500)})
    claims = ([Claim(f"far{i}", "", "length", 20 + i / 100, 1.0) for i in range(75)]
              + [Claim(f"inside{i}", "", "length", 9 + i / 100, 5.0) for i in range(75)])
    table, _ = stats.evaluate_claims(results(games), claims)
    assert len(table) == 150 and table["deals"].eq(500).all()
    far, inside = table[table["claim"].str.startswith("far")], table[table["claim"].str.startswith("inside")]
    assert far["verdict"].eq("fails").all() and inside["verdict"].eq("holds").all()
    assert far["p_fails_adjusted"].max() < 0.05 and inside["p_holds_adjusted"].max() < 0.05
    assert (far["decide_high"] < far["target"] - 1).all()  # the deciding intervals are shown, outside the bands
    assert ((inside["decide_low"] >= inside["target"] - 5) & (inside["decide_high"] <= inside["target"] + 5)).all()


def test_bootstraps_resolved_together_get_the_statistics_each_gets_alone():
    rng = np.random.default_rng(12)
    refs = [stats.estimate_mean(rng.normal(20, 1, 80), np.arange(80)).reference for _ in range(3)]
    refs.append(stats.ratio_estimate(rng.integers(0, 5, 80), rng.integers(1, 6, 80), np.arange(80)).reference)
    level = 0.05 / 40  # 7,999 replicates
    together = stats.resolving([(ref, level, ref.floor) for ref in refs])
    for ref, resolved in zip(refs, together):
        alone = ref.resolving(level, ref.floor)
        assert len(resolved.t) == len(alone.t) > stats.BOOTSTRAP_REPLICATES
        assert resolved.t == pytest.approx(alone.t, rel=1e-12)
        # the first replicates are the estimate's own: more replicates refine, they do not redraw
        assert set(np.round(ref.t, 9)) <= set(np.round(resolved.t, 9))


def test_ratio_estimate_against_a_direct_computation():
    rounds = np.array([5, 7, 3, 9, 4])
    kept = np.array([2, 4, 1, 5, 2])
    est = stats.ratio_estimate(kept, rounds, np.arange(5))
    assert est.estimate == pytest.approx(kept.sum() / rounds.sum())
    resid = kept - est.estimate * rounds
    assert est.se == pytest.approx(np.sqrt(5 / 4 * np.sum(resid**2)) / rounds.sum())
    assert est.low < est.estimate < est.high


def test_running_estimate_ends_at_the_full_mean():
    values = np.r_[np.ones(30), np.zeros(70)]
    run = stats.running_estimate(values)
    assert run["n"].iloc[-1] == 100 and run["estimate"].iloc[-1] == pytest.approx(0.3)


def test_lan_demets_spending_spends_all_alpha_and_little_early():
    looks = stats.sequential_looks(1000, 20_000)
    assert looks == [1000, 2000, 4000, 8000, 16000, 20000]
    spent = [stats.look_alpha(looks, k) for k in range(len(looks))]
    assert sum(spent) == pytest.approx(stats.ALPHA)
    assert spent[0] < 1e-6 and spent[-1] > spent[0]
    assert stats.look_alpha(None, None) == stats.ALPHA  # a fixed-size study spends it at once


# ---- rare events: one method for 0, 1 or many events ---------------------------------------
def test_more_rare_events_never_give_a_better_verdict():
    # 2,000 deals x 4 games; the cap is reached in 0, 1, 2... games, each in its own deal.
    clusters = np.repeat(np.arange(2000), 4)
    p_holds = []
    for events in range(12):
        values = np.zeros(8000)
        values[np.arange(events) * 4] = 1
        p_holds.append(stats.claim_pvalues(stats.estimate_rate(values, clusters).reference, 0.001, 0.0, "at_most")[0])
    assert all(a <= b + 1e-12 for a, b in zip(p_holds, p_holds[1:]))


def test_a_rate_without_events_still_has_an_honest_interval():
    est = stats.estimate_rate(np.zeros(40), np.repeat(np.arange(10), 4))  # 10 deals, 4 games each
    assert est.low == 0 and 0.2 < est.high < 0.35  # as 0 events in 10 deals, not in 40 games
    assert stats.claim_pvalues(est.reference, 0.001, 0.0, "at_most")[0] > 0.05


# ---- what is shown decides ----------------------------------------------------------------
def test_the_deciding_interval_decides_560_wins_of_2000():
    games = pd.DataFrame({"deal": np.arange(2000), "event": np.r_[np.ones(560), np.zeros(1440)]})
    table, _ = stats.evaluate_claims(results(games), [claim("rate", 0.30, 0.0, "at_most")])
    row = table.iloc[0]
    assert row["verdict"] == "holds" and row["decide_high"] <= 0.30 < row["high"]  # one-sided 95% bound


def test_every_verdict_agrees_with_its_deciding_interval_under_holm_and_looks():
    rng = np.random.default_rng(11)
    claims = [claim("rate", 0.3, 0.02), claim("length", 10, 1.0), claim("share", 0.5, 0.0, "at_most"),
              claim("rate", 0.27, 0.0, "at_least")]
    claims = [Claim(f"c{i}", c.text, c.quantity, c.target, c.tolerance, c.compare) for i, c in enumerate(claims)]
    looks = [100, 200, 400]
    checked = set()
    for rep in range(50):
        n = int(rng.choice(looks))
        games = pd.DataFrame({"deal": np.arange(n), "event": rng.random(n) < rng.uniform(0.2, 0.4),
                              "length": rng.gamma(4, rng.uniform(2.2, 2.8), n),
                              "num": rng.random(n) < rng.uniform(0.3, 0.7), "den": np.ones(n)})
        table, _ = stats.evaluate_claims(results(games, meta={"looks": looks, "look": looks.index(n)}), claims)
        for r in table.itertuples():
            stated = next(c for c in claims if c.id == r.claim)
            lo, hi = stats.claim_band(stated.compare, stated.target, stated.tolerance)
            inside = lo <= r.decide_low and r.decide_high <= hi
            outside = r.decide_high < lo or r.decide_low > hi
            assert (r.verdict == "holds") == inside and (r.verdict == "fails") == outside
            assert (r.verdict == "holds") == (r.p_holds_adjusted < stats.ALPHA)
            assert (r.verdict == "fails") == (r.p_fails_adjusted < stats.ALPHA)
            checked.add(r.verdict)
    assert checked == {"holds", "fails", "undecided"}, checked


def test_p_values_print_as_a_bound_not_zero():
    assert stats.format_p(0.0) == "< 1e-06" and stats.format_p(0.0123) == "0.012"


def test_verdict_line_states_the_effect_in_points():
    games = pd.DataFrame({"deal": np.arange(20000), "event": np.r_[np.ones(5720), np.zeros(14280)]})
    table, _ = stats.evaluate_claims(results(games), [claim("rate", 0.25, 0.05)])
    line = stats.verdict_text(table.iloc[0])
    assert line.startswith("rate: +3.6 points [+3.") and "from 25% (band +/- 5): holds" in line


def test_a_difference_of_shares_prints_in_points_as_its_panels_read_it():
    # a mean of win-rate differences (DETHRONED's seat_edge): its panels read it in points
    # (quantity_unit), so do its claim's verdict line and the findings (it printed "+0.010 [...] from 0")
    edge = np.random.default_rng(3).normal(0.01, 0.1, 4000).clip(-1, 1)
    table, _ = stats.evaluate_claims(results(pd.DataFrame({"deal": np.arange(4000), "edge": edge})),
                                     [claim("edge", 0.0, 0.03)])
    row = table.iloc[0]
    assert row["unit"] == stats.quantity_unit(QUANTITIES[-1], pd.DataFrame({"edge": edge})) == "points"
    line = stats.verdict_text(row)
    assert line.startswith(f"edge: {(edge.mean()) * 100:+.1f} points [") and "from 0 points (band +/- 3)" in line, line
    assert stats.effect_text({**row, "compare": "at_most"}).endswith("from 0 points (at most 3 points)")


def test_an_amount_prints_as_measured():
    table, _ = stats.evaluate_claims(results(pd.DataFrame({"deal": np.arange(400), "length": np.arange(400) % 8})),
                                     [claim("length", 4.0, 0.5)])
    line = stats.verdict_text(table.iloc[0])  # a mean of 3.5 against 4 +/- 0.5, in the amount's own terms
    assert table.iloc[0]["unit"] == "" and line.startswith("length: -0.50 [") and "from 4 (band +/- 0.5)" in line, line


def events(count: int, rate: float) -> pd.DataFrame:
    """``count`` games, one per deal, exactly ``rate`` of them with the event (spread evenly)."""
    hits = np.floor((np.arange(count) + 1) * rate) - np.floor(np.arange(count) * rate)
    return pd.DataFrame({"deal": np.arange(count), "event": hits})


def test_an_undecided_line_says_how_many_times_the_games_would_decide_it():
    # a rate of 28% against "25% +/- 5": undecided at 400 games; the line's factor of games decides it
    first, _ = stats.evaluate_claims(results(events(400, 0.28)), [claim("rate", 0.25, 0.05)])
    row = first.iloc[0]
    assert row["verdict"] == "undecided"
    factor = stats.more_games_factor(row)
    assert 2 < factor < 20 and f"about {factor:.2g}x the games would decide it" in stats.verdict_text(row)
    decided, _ = stats.evaluate_claims(results(events(int(400 * factor * 1.2), 0.28)), [claim("rate", 0.25, 0.05)])
    fewer, _ = stats.evaluate_claims(results(events(int(400 * factor * 0.6), 0.28)), [claim("rate", 0.25, 0.05)])
    assert decided.iloc[0]["verdict"] == "holds" and fewer.iloc[0]["verdict"] == "undecided"


def test_an_estimate_on_the_band_edge_is_told_no_count_decides_it():
    table, _ = stats.evaluate_claims(results(events(400, 0.30)), [claim("rate", 0.25, 0.05)])
    assert "no practical number of games decides it" in stats.verdict_text(table.iloc[0])


def test_verdict_numbers_share_one_format_fine_enough_for_the_band():
    table, _ = stats.evaluate_claims(results(events(2000, 0.0005)), [claim("rate", 0.001, 0.0, "at_most")])
    line = stats.verdict_text(table.iloc[0])
    assert line.startswith("rate: -0.05 points [") and "from 0.1% (at most 0.1%)" in line, line
    numbers = line.split("[")[1].split("]")[0].split(", ")
    assert all(len(n.split(".")[1]) == 2 for n in numbers), line  # the effect's decimals, every number
    table, _ = stats.evaluate_claims(results(events(2000, 0.36)), [claim("rate", 0.5, 0.1)])
    assert stats.verdict_text(table.iloc[0]).startswith("rate: -14.0 points [-"), "a share in points, 1 decimal"


def test_verdicts_are_coloured_only_when_asked():
    table, _ = stats.evaluate_claims(results(events(2000, 0.36)), [claim("rate", 0.5, 0.1)])
    assert "\x1b[1;31mfails\x1b[0m" in stats.verdict_text(table.iloc[0], color=True)
    assert "\x1b" not in stats.verdict_text(table.iloc[0])


# ---- no spread is not certainty; facts are facts ------------------------------------------
def test_a_ratio_or_mean_without_spread_is_undecided():
    three_of_three = pd.DataFrame({"deal": np.arange(3), "num": [1, 1, 1], "den": [1, 1, 1],
                                   "length": [8, 8, 8], "event": [0, 0, 0]})
    claims = [claim("share", 0.5, 0.1, min_deals=2), claim("length", 8, 1.0, min_deals=2)]
    claims = [Claim(f"c{i}", c.text, c.quantity, c.target, c.tolerance, min_deals=2) for i, c in enumerate(claims)]
    table, _ = stats.evaluate_claims(results(three_of_three), claims)
    assert list(table["verdict"]) == ["undecided (no spread)"] * 2
    assert (table["p_holds"] == 1).all() and (table["p_fails"] == 1).all()


def test_fixed_facts_are_shown_apart_with_the_edge_inside():
    games = pd.DataFrame({"deal": np.arange(50), "num": 2, "den": 5, "event": 0.0})
    claims = [Claim("edge", "", "fact", 0.5, 0.1), Claim("out", "", "fact", 0.5, 0.09),
              Claim("most", "", "fact", 0.3, 0.1, "at_most")]
    table, facts = stats.evaluate_claims(results(games), claims)
    assert table.empty  # facts are not in the Holm family
    assert list(facts["verdict"]) == ["holds", "fails", "holds"] and list(facts["inside"]) == [True, False, True]
    assert "40%, a fixed fact of the setup, inside 50% +/- 10 points: holds" in stats.fact_text(facts.iloc[0])


def test_too_few_deals_leave_a_claim_undecided():
    games = pd.DataFrame({"deal": np.arange(29), "event": np.zeros(29)})
    table, _ = stats.evaluate_claims(results(games), [claim("rate", 0.5, 0.5)])  # even a sure thing
    assert table.iloc[0]["verdict"] == "undecided (too few deals)"


# ---- sequential stopping ------------------------------------------------------------------
def test_should_stop_on_a_claims_own_precision_in_its_units():
    rng = np.random.default_rng(5)
    games = pd.DataFrame({"deal": np.arange(4000), "length": rng.gamma(4, 2, 4000), "event": 0.0})
    study = SimpleNamespace(half_width=0.01, relative_half_width=None)  # a rate's target, useless for rounds
    looks = [4000, 8000, 16000]
    loose = [claim("length", 8, 0.0001, half_width=0.5)]  # undecidable band, precise enough in rounds
    assert stats.should_stop(results(games), loose, study, 0, looks)
    assert stats.should_stop(results(games), [claim("length", 8, 0.0001, relative_half_width=0.02)], study, 0, looks)
    assert not stats.should_stop(results(games), [claim("length", 8, 0.0001)], study, 0, looks)


# ---- seat uniformity ----------------------------------------------------------------------
def test_seat_uniformity_picks_its_test():
    rng = np.random.default_rng(3)
    n = 4000
    winner = rng.integers(0, 4, n)
    seat = np.tile(np.arange(4), n)
    fair = stats.seat_uniformity(np.repeat(winner, 4) == seat, seat, np.repeat(np.arange(n), 4))
    assert fair["test"] == "pearson chi-square" and fair["p"] > 0.001
    skewed_winner = np.where(rng.random(n) < 0.1, 0, winner)
    skewed = stats.seat_uniformity(np.repeat(skewed_winner, 4) == seat, seat, np.repeat(np.arange(n), 4))
    assert skewed["p"] < 1e-6
    rotated = stats.seat_uniformity(np.repeat(skewed_winner, 4) == seat, seat, np.repeat(np.arange(n // 4), 16))
    assert rotated["test"] == "cluster-robust Wald F" and rotated["p"] < 1e-3
    team = np.repeat(rng.integers(0, 2, n), 4) == seat % 2  # seats 0 and 2 win together, or 1 and 3
    teams = stats.seat_uniformity(team, seat, np.repeat(np.arange(n), 4))
    assert teams["test"] == "cluster-robust Wald F"


def test_seat_uniformity_says_why_it_cannot_test_instead_of_printing_nan():
    # 2v2 team wins over rotated deals: in each deal's four games every seat's team wins twice, so the
    # seats never differ within a deal (the Imposter Kings 2v2 True King study): nothing to test
    seat = np.tile(np.arange(4), 4 * 50)
    game = np.repeat(np.arange(4 * 50), 4)
    won = (seat % 2 == game % 2).astype(float)
    result = stats.seat_uniformity(won, seat, np.repeat(np.arange(50), 16), game)
    assert result["df"] == 0 and result["untestable"] == "the seats' wins are the same in every deal"
    few = stats.seat_uniformity(np.random.default_rng(4).random(8) < 0.5, np.tile(np.arange(4), 2), np.repeat([0, 1], 4),
                                np.arange(8))
    assert few["df"] == 0 and "deals" in few["untestable"]
    # a 2-game study of a rotated 2-player scenario: one deal, no covariance over deals (it raised)
    one = stats.seat_uniformity(np.array([1.0, 0.0, 0.0, 1.0]), np.array([0, 1, 0, 1]), np.zeros(4, int),
                                np.repeat([0, 1], 2))
    assert one["df"] == 0 and one["untestable"] == "one deal"


@pytest.mark.parametrize("kind", ["bootstrap-t", "student-t", "effective binomial", "betting"])
def test_bounds_and_p_values_never_disagree(kind):
    # lower(a) > b exactly when p_above(b) < a (and mirrored), so an interval decides as its test
    rng = np.random.default_rng(12)
    if kind == "effective binomial":
        est = stats.estimate_rate(rng.random(400) < 0.05, np.repeat(np.arange(100), 4))
    elif kind == "betting":
        lengths = np.minimum(rng.geometric(1 / 8, 120), LENGTH_CAP).astype(float)
        est = stats.estimate_mean(np.repeat(lengths, 2), np.repeat(np.arange(120), 2), bounds=(0, LENGTH_CAP))
    else:
        deals = 40 if kind == "bootstrap-t" else stats.BOOTSTRAP_MAX_DEALS + 1
        est = stats.estimate_mean(rng.lognormal(0, 1, deals), np.arange(deals))
    ref = est.reference
    expected = {"bootstrap-t": stats.BootstrapT, "student-t": stats.StudentT, "effective binomial":
                stats.EffectiveBinomial, "betting": stats.Betting}[kind]
    assert isinstance(ref, expected)
    for a in (0.001, 0.01, 0.025, 0.05, 0.2):
        lower, upper = ref.lower(a), ref.upper(a)
        assert lower < est.estimate < upper
        for b in np.linspace(est.estimate - 4 * est.se, est.estimate + 4 * est.se, 201):
            assert (lower > b) == (ref.p_above(b) < a)
            assert (upper < b) == (ref.p_below(b) < a)


def test_a_mean_the_rules_cap_gets_the_betting_interval_that_leaves_room_for_runaways():
    # 40 deals of short games: the bootstrap believes what it sees; the capped quantity's interval
    # knows a game can run to the cap, so its upper bound stays well above every length seen
    games = pd.DataFrame({"deal": np.arange(40), "length": np.tile([6.0, 8.0, 10.0, 12.0], 10)})
    study = results(games)
    capped, free = (stats.quantity_estimate(study, study.setup.game.quantity(name, name), games)
                    for name in ("capped_length", "length"))
    assert capped.method == "mean: betting over deals in [0, 100]"
    assert free.method == "mean: bootstrap-t over deals"
    assert capped.estimate == free.estimate == 9.0
    assert capped.low < free.low < free.high < 12 < capped.high
    # a claim reads the same estimate and decides by the same bounds
    (row,), _ = stats.claim_rows(study, [claim("capped_length", 9.0, 5.0)])
    assert isinstance(row["_ref"], stats.Betting) and row["low"] == capped.low


def test_values_outside_their_declared_range_are_a_defect_not_an_estimate():
    with pytest.raises(ValueError, match="outside their declared range"):
        stats.estimate_mean(np.array([5.0, 120.0, 7.0]), np.arange(3), bounds=(0, LENGTH_CAP))
