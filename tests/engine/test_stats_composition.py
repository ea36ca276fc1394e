"""The choice-game statistics (stats.composition_choice and its parts) on synthetic outcomes with a
known truth: equilibria of known games, the model's intervals and tests, the chooser's picks."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from scipy.special import expit

from balance import stats


def test_rock_paper_scissors_is_played_uniformly():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
    assert stats.symmetric_equilibrium(rps) == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_an_option_that_beats_every_other_is_always_chosen():
    strength = np.array([0.0, 0.3, 1.0, 0.2])
    payoff = expit(strength[:, None] - strength[None, :]) - 0.5
    assert stats.symmetric_equilibrium(payoff) == pytest.approx([0, 0, 1, 0], abs=1e-9)


def test_independent_columns_drops_a_column_the_others_span():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 3))
    both = np.hstack([x, x[:, :1] + x[:, 2:]])
    kept = stats.independent_columns(both)
    assert len(kept) == 3 and np.linalg.matrix_rank(both[:, kept]) == 3


def test_logistic_fit_recovers_known_coefficients():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(20_000, 2))
    y = rng.random(20_000) < expit(0.2 + x @ np.array([0.5, -1.0]))
    fit = stats.logistic_fit(x, y)
    assert fit.coef == pytest.approx([0.2, 0.5, -1.0], abs=4 * fit.se.max())


def deal(rng, games, items, size):
    """Random sides of ``size`` of ``items`` for both sides of every game (0/1 matrices)."""
    ranks = np.argsort(np.argsort(rng.random((2, games, items)), axis=2), axis=2)
    sets = (ranks < size).astype(float)  # the items of the ``size`` smallest random keys
    return sets[0], sets[1]


def test_a_clearly_best_set_is_found_with_an_interval_that_shows_it():
    rng = np.random.default_rng(2)
    strength = np.array([1.0, 0.8, 0.0, 0.0, -0.2, -0.5])
    a, b = deal(rng, 6000, 6, 2)
    wins = rng.random(6000) < expit((a - b) @ strength)
    found = stats.composition_choice(a, b, wins, 2, 100, seed=3)
    assert found.pick[:2] == pytest.approx([1, 1]) and found.pick_low[:2].min() > 0.5
    assert found.pick_high[4:].max() < 0.5
    assert np.argsort(-found.strength)[:2].tolist() == [0, 1]
    assert found.pick.sum() == pytest.approx(2)
    assert (found.strength_low <= found.strength).all() and (found.strength <= found.strength_high).all()


def test_cards_that_counter_each_other_in_a_circle_are_mixed():
    # single-card sides: 0 beats 1, 1 beats 2, 2 beats 0, no card stronger on its own
    rng = np.random.default_rng(4)
    a, b = deal(rng, 9000, 3, 1)
    beats = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], float)
    wins = rng.random(9000) < expit(np.einsum("gi,ij,gj->g", a, beats, b))
    found = stats.composition_choice(a, b, wins, 1, 100, seed=5)
    assert found.pick == pytest.approx([1 / 3] * 3, abs=0.08)
    assert found.counter_test[2] < 1e-6  # the counters are seen


def test_the_counter_test_keeps_its_error_rate_when_there_are_no_counters():
    """Measured by simulation: strengths only (no counters), 400 studies, the likelihood-ratio test
    at 0.05 rejects at most 0.06 + Monte-Carlo error (binomial 400 at 0.05: sd 0.011)."""
    rng = np.random.default_rng(6)
    strength = np.array([0.4, 0.1, 0.0, -0.2, -0.3])
    rejected = 0
    reps = 400
    for _ in range(reps):
        a, b = deal(rng, 1500, 5, 2)
        wins = rng.random(1500) < expit((a - b) @ strength)
        additive = stats.logistic_fit(stats.composition_features(a, b, ("strength",)), wins)
        counters = stats.logistic_fit(stats.composition_features(a, b, ("counter",)), wins)
        rejected += stats.likelihood_ratio_test(additive, counters)[2] < 0.05
    assert rejected / reps <= 0.06 + 2 * 0.011


def test_every_set_of_the_choice_is_an_option_once():
    rng = np.random.default_rng(7)
    a, b = deal(rng, 3000, 5, 2)
    found = stats.composition_choice(a, b, rng.random(3000) < 0.5, 2, 100, seed=8)
    assert sorted(map(tuple, found.options.astype(int))) == sorted(
        tuple(int(i in c) for i in range(5)) for c in combinations(range(5), 2))
    assert found.equilibrium.sum() == pytest.approx(1)
