"""Counter-based random streams for compiled kernels.

Every game (more exactly: every deal) owns its own stream, keyed by the study's master seed and
the deal's index. A draw is a pure function of (key, counter): output_i = mix(key + i * GAMMA),
the SplitMix64 construction. Nothing is shared between games, so a game's result does not depend
on the thread that ran it, on the batch it was part of, or on whether the run was resumed.

A stream is a two-element uint64 array ``[key, counter]`` that kernels carry in their state.
"""

import numpy as np
from numba import njit

KEY = 0
COUNTER = 1
STREAM_SIZE = 2

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)
SEED_SALT = np.uint64(0xD1B54A32D192ED03)
U64_MASK_32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective avalanche of one 64-bit word."""
    z = (z ^ (z >> np.uint64(30))) * MIX_1
    z = (z ^ (z >> np.uint64(27))) * MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def deal_key(master_seed, deal):
    """The stream key of one deal: distinct deals get unrelated streams."""
    return mix64(mix64(np.uint64(master_seed) ^ SEED_SALT) + np.uint64(deal) * GAMMA)


@njit(cache=True)
def new_stream(master_seed, deal):
    stream = np.empty(STREAM_SIZE, dtype=np.uint64)
    open_stream(stream, master_seed, deal)
    return stream


@njit(cache=True)
def open_stream(stream, master_seed, deal):
    """(Re)initialise ``stream`` in place for one deal; used to reuse a buffer between games."""
    stream[KEY] = deal_key(master_seed, deal)
    stream[COUNTER] = np.uint64(0)


@njit(cache=True, inline="always")
def next_u64(stream):
    stream[COUNTER] += np.uint64(1)
    return mix64(stream[KEY] + stream[COUNTER] * GAMMA)


@njit(cache=True, inline="always")
def below(stream, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift)."""
    high = next_u64(stream) >> np.uint64(32)
    return np.int64((high * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform(stream):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def chance(stream, p):
    return uniform(stream) < p


@njit(cache=True)
def random_bit(stream, mask):
    """A uniformly chosen set bit (as its index) of a non-zero integer bit mask."""
    count = 0
    m = mask
    while m:
        m &= m - 1
        count += 1
    pick = below(stream, count)
    m = mask
    while True:
        low = m & -m
        if pick == 0:
            return bit_index(low)
        pick -= 1
        m ^= low


@njit(cache=True, inline="always")
def bit_index(single_bit):
    """Index of the only set bit of a power of two."""
    index = 0
    while single_bit > 1:
        single_bit >>= 1
        index += 1
    return index


@njit(cache=True, inline="always")
def bit_count(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def shuffle(stream, values, count):
    """Fisher-Yates shuffle of values[:count] in place."""
    for i in range(count - 1, 0, -1):
        j = below(stream, i + 1)
        values[i], values[j] = values[j], values[i]
