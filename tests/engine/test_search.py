"""The engine's search driver (balance.engine.search) on a tiny synthetic game whose best answer
is known: a decision with four answers worth 1, 3, 2 and 3 on average, each rollout's score
blurred by noise drawn from the stream (so only the mean over worlds finds the best)."""

import numpy as np
from balance.engine.decision import D_CHOICES, D_SEAT, DECISION_HEADER
from balance.engine.kernels import allocating_kernel, kernel
from balance.engine.rng import new_stream, uniform
from balance.engine.search import DETERMINIZE_SIGNATURE, ROLLOUT_SIGNATURE, search_answer

HIDDEN = DECISION_HEADER  # the synthetic game's one hidden value: a noise scale the seat cannot see
STATE_SIZE = HIDDEN + 1
PAYOFF = np.array([1.0, 3.0, 2.0, 3.0])  # mean score of answer a; answers 1 and 3 tie for best
NOISE = 4.0  # each rollout's score is the payoff plus a uniform draw in [-NOISE, NOISE) * hidden


@kernel(DETERMINIZE_SIGNATURE)
def deal_hidden(state, sampled, seat, cfg, iscratch, rng):
    for i in range(state.shape[0]):
        sampled[i] = state[i]
    sampled[HIDDEN] = 1  # the seat's guess at the hidden value: never reads state[HIDDEN]


@kernel(ROLLOUT_SIGNATURE)
def noisy_payoff(world, answer, seat, cfg, params, restrict, iscratch, fscratch, rng):
    return PAYOFF[answer] + world[HIDDEN] * NOISE * (2.0 * uniform(rng) - 1.0)


@allocating_kernel
def decide(state, rollouts, rng):
    """A game's kernel calling the driver with its compiled functions, as the games do."""
    cfg = np.zeros(1, dtype=np.int64)
    params = np.zeros(1)
    restrict = np.zeros((1, 1, 1), dtype=np.int64)
    sampled = np.zeros(STATE_SIZE, dtype=np.int64)
    world = np.zeros(STATE_SIZE, dtype=np.int64)
    totals = np.zeros(8)
    iscratch = np.zeros((1, 1), dtype=np.int64)
    fscratch = np.zeros((1, 1))
    return search_answer(state, rollouts, cfg, params, restrict, sampled, world, totals, iscratch, fscratch, rng,
                         deal_hidden, noisy_payoff)


def posed(choices, hidden=7):
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[D_SEAT] = 0
    state[D_CHOICES] = choices
    state[HIDDEN] = hidden
    return state


def picks(choices, rollouts, seeds=200, hidden=7):
    return [decide(posed(choices, hidden), rollouts, new_stream(seed, 0))
            for seed in range(seeds)]


def test_finds_the_best_answer_through_the_noise():
    # answers 0, 1, 2: answer 1 (mean 3) beats 2 (mean 2) and 0 (mean 1); one rollout often errs
    many = picks(0b0111, rollouts=400)
    assert many.count(1) >= 195
    one = picks(0b0111, rollouts=1)
    assert one.count(1) < 150  # the noise is real: the mean over worlds is what finds the best


def test_obeys_the_narrowed_choices():
    # the restriction took answer 1 away (pose narrowed D_CHOICES): the best of what is left is 2
    assert set(picks(0b0101, rollouts=400, seeds=50)) == {2}


def test_exact_ties_broken_at_random_never_by_bit_order():
    # without noise answers 1 and 3 tie exactly: each is chosen about half the time
    state_free = picks(0b1010, rollouts=4, seeds=400, hidden=0)
    assert set(state_free) == {1, 3}
    assert 150 <= state_free.count(3) <= 250


def test_a_kernel_calling_the_driver_stays_cacheable():
    # the games' functions enter as first-class function values linked by symbol: the caller's
    # machine code holds no process-specific address, so Numba's on-disk cache keeps it (a
    # process-specific address is what makes Numba refuse to cache, recompiling every run)
    picks(0b0111, rollouts=1, seeds=1)
    (result,) = decide.overloads.values()
    assert not result.library.has_dynamic_globals


def test_decision_reads_only_the_view():
    # the hidden value differs, the view and the stream are the same: the same answer
    assert picks(0b1111, rollouts=3, seeds=50, hidden=7) == picks(0b1111, rollouts=3, seeds=50, hidden=-5)
