"""The search policy, written once for every game: determinized Monte-Carlo rollouts (flat Monte
Carlo over sampled worlds, "PIMC").

At a posed decision (the header of balance.engine.decision: ``state[D_SEAT]`` decides among the
bits of ``state[D_CHOICES]``, already narrowed by the seat's restriction, so a restricted search
obeys its restriction), for each of ``rollouts`` samples:

1. the game's ``determinize`` deals the cards the seat cannot see consistently with its
   information, into ``sampled`` (a world built from the seat's view alone);
2. for every legal answer, in bit order, ``world`` becomes a copy of ``sampled`` and the game's
   ``rollout`` plays the rest of the game (or round, or a horizon, per the game) from it with that
   answer, scoring it for the seat.

The answer with the best mean score is chosen; exact ties are broken at random from the stream
(reservoir sampling, so no draw is made when there is no tie), never by bit order.

The per-game pieces are compiled functions with the explicit signatures below, passed in as
first-class function values (``numba.types.FunctionType``), and the driver itself is compiled
with an explicit signature naming those function types and inlined into its caller. A game's
kernel simply calls ``search_answer(..., its_determinize, its_rollout)`` with its compiled
functions: the calls are linked by symbol and, the driver being inlined, the Python object
addresses that Numba also stores in a function value are dropped as unused, so the caller keeps
no process-specific address and stays in the on-disk cache (checked across two processes, and by
tests/engine/test_search.py). A driver compiled on its own would receive those addresses and make
its callers uncacheable; one that took plain dispatcher arguments, or a closure made by a
factory, recompiles in every process.

``cfg``, ``params``, ``restrict``, ``iscratch`` and ``fscratch`` are the game's own arrays (its
options, the seat's policy parameters, restrictions, scratch buffers): the driver only hands them
on. Nothing here allocates.
"""

import numpy as np
from numba import types

from balance.engine.decision import D_CHOICES, D_SEAT, N_KINDS_MAX, RESTRICT_SIDES
from balance.engine.kernels import allocating_kernel, kernel
from balance.engine.rng import below, bit_index

# Every array is C-contiguous (``[::1]``), as the batch kernels' arrays are, so the rollouts call the
# rules functions the batch has already compiled instead of a second, any-layout copy of each.
# determinize(state, sampled, seat, cfg, iscratch, rng): write into ``sampled`` a world consistent
# with what ``seat`` knows in ``state``, reading only that seat's view.
DETERMINIZE_SIGNATURE = types.void(types.int64[::1], types.int64[::1], types.int64, types.int64[::1],
                                   types.int64[:, ::1], types.uint64[::1])
# rollout(world, answer, seat, cfg, params, restrict, iscratch, fscratch, rng) -> the score of
# ``answer`` for ``seat`` after playing on from ``world`` (higher is better).
ROLLOUT_SIGNATURE = types.float64(types.int64[::1], types.int64, types.int64, types.int64[::1], types.float64[::1],
                                  types.int64[:, :, ::1], types.int64[:, ::1], types.float64[:, ::1],
                                  types.uint64[::1])
DETERMINIZE = types.FunctionType(DETERMINIZE_SIGNATURE)
ROLLOUT = types.FunctionType(ROLLOUT_SIGNATURE)


@kernel
def seat_rollout_players(players, seat, restrict, policy_code, params_row, codes, params, rollout_restrict):
    """The players of a rollout: every seat plays ``policy_code`` with ``params_row``; the searcher
    keeps its own restriction, the others play unrestricted (it does not know theirs)."""
    for s in range(players):
        codes[s] = policy_code
        for k in range(len(params_row)):
            params[s, k] = params_row[k]
        for kind in range(N_KINDS_MAX):
            for side in range(RESTRICT_SIDES):
                rollout_restrict[s, kind, side] = restrict[seat, kind, side] if s == seat else 0


@allocating_kernel
def search_buffers(int_rows, state_size, float_rows, float_width, max_players):
    """A game's search buffers (one set per block of games; the game names their rows): an int
    matrix ``int_rows`` x ``state_size``, a float matrix ``float_rows`` x ``float_width``, and the
    rollouts' restrictions, one row per seat."""
    return (np.zeros((int_rows, state_size), dtype=np.int64),
            np.zeros((float_rows, float_width), dtype=np.float64),
            np.zeros((max_players, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64))


@kernel(inline="always")
def packed(block, shape):
    """An array of ``shape`` packed at the start of ``block`` (whole rows of a search buffer, or any
    C-contiguous array with room for it), itself C-contiguous like the batch kernel's own arrays.
    A view cut from a buffer's columns (``ints[a:b, :n]``) has another layout, and every function
    it reaches (a game's whole heuristic) compiles a second time for it."""
    count = 1
    for extent in shape:
        count *= extent
    return block.reshape(block.size)[:count].reshape(shape)


@kernel(inline="always")
def copy_world(world, sampled, size):
    """An element loop: a slice assignment between arrays Numba cannot prove disjoint copies
    through a temporary (an allocation per rollout)."""
    for i in range(size):
        world[i] = sampled[i]


@kernel
def best_answer(choices, totals, rng):
    """The answer of the highest total (answers in bit order, ``totals`` in the same order); exact
    ties broken uniformly at random by reservoir sampling (a draw only when a tie occurs)."""
    best, best_total, ties = -1, 0.0, 0
    i = 0
    m = choices
    while m:
        answer = bit_index(m & -m)
        m &= m - 1
        if best < 0 or totals[i] > best_total:
            best, best_total, ties = answer, totals[i], 1
        elif totals[i] == best_total:
            ties += 1
            if below(rng, ties) == 0:
                best = answer
        i += 1
    return best


SEARCH_SIGNATURE = types.int64(types.int64[::1], types.int64, types.int64[::1], types.float64[::1],
                                types.int64[:, :, ::1], types.int64[::1], types.int64[::1], types.float64[::1],
                                types.int64[:, ::1], types.float64[:, ::1], types.uint64[::1], DETERMINIZE, ROLLOUT)


@kernel(SEARCH_SIGNATURE, inline="always")
def search_answer(state, rollouts, cfg, params, restrict, sampled, world, totals, iscratch, fscratch, rng,
                  determinize, rollout):
    """The answer (a bit index of ``state[D_CHOICES]``) with the best mean rollout score for the
    deciding seat over ``rollouts`` sampled worlds; every answer is scored on the same worlds.
    ``sampled`` and ``world`` hold at least ``len(state)`` entries, ``totals`` one per answer."""
    seat = state[D_SEAT]
    choices = state[D_CHOICES]
    size = state.shape[0]
    n = 0
    m = choices
    while m:
        totals[n] = 0.0
        n += 1
        m &= m - 1
    for _ in range(max(1, rollouts)):
        determinize(state, sampled, seat, cfg, iscratch, rng)
        i = 0
        m = choices
        while m:
            answer = bit_index(m & -m)
            m &= m - 1
            copy_world(world, sampled, size)
            totals[i] += rollout(world, answer, seat, cfg, params, restrict, iscratch, fscratch, rng)
            i += 1
    return best_answer(choices, totals, rng)
