"""Counter-based random streams for compiled kernels.

Every game (more exactly: every deal) owns its own stream, keyed by the study's master seed and
the deal's index. A draw is a pure function of (key, counter): output_i = mix(key + i * GAMMA),
the SplitMix64 construction. Nothing is shared between games, so a game's result does not depend
on the thread that ran it, on the batch it was part of, or on whether the run was resumed.

A stream is a two-element uint64 array ``[key, counter]`` that kernels carry in their state.
"""

import numpy as np

from balance.engine.kernels import kernel

KEY = 0
COUNTER = 1
STREAM_SIZE = 2

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)
SEED_SALT = np.uint64(0xD1B54A32D192ED03)
U64_MASK_32 = np.uint64(0xFFFFFFFF)


@kernel(inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective avalanche of one 64-bit word."""
    z = (z ^ (z >> np.uint64(30))) * MIX_1
    z = (z ^ (z >> np.uint64(27))) * MIX_2
    return z ^ (z >> np.uint64(31))


@kernel
def deal_key(master_seed, deal):
    """The stream key of one deal: distinct deals get unrelated streams."""
    return mix64(mix64(np.uint64(master_seed) ^ SEED_SALT) + np.uint64(deal) * GAMMA)


@kernel
def new_stream(master_seed, deal):
    stream = np.empty(STREAM_SIZE, dtype=np.uint64)
    open_stream(stream, master_seed, deal)
    return stream


@kernel
def open_stream(stream, master_seed, deal):
    """(Re)initialise ``stream`` in place for one deal; used to reuse a buffer between games."""
    stream[KEY] = deal_key(master_seed, deal)
    stream[COUNTER] = np.uint64(0)


@kernel(inline="always")
def next_u64(stream):
    stream[COUNTER] += np.uint64(1)
    return mix64(stream[KEY] + stream[COUNTER] * GAMMA)


@kernel(inline="always")
def below(stream, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift)."""
    high = next_u64(stream) >> np.uint64(32)
    return np.int64((high * np.uint64(n)) >> np.uint64(32))


@kernel(inline="always")
def uniform(stream):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel(inline="always")
def chance(stream, p):
    return uniform(stream) < p


@kernel
def random_bit(stream, mask):
    """A uniformly chosen set bit (as its index) of a non-zero integer bit mask."""
    pick = below(stream, bit_count(mask))
    m = mask
    for _ in range(pick):
        m &= m - 1  # drop the lowest set bit
    return bit_index(m & -m)


@kernel(inline="always")
def bit_count(mask):
    """Number of set bits of a non-negative integer below 2**63 (SWAR popcount, no loop)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel(inline="always")
def bit_index(single_bit):
    """Index of the only set bit of a power of two."""
    return bit_count(single_bit - 1)


@kernel
def shuffle(stream, values, count):
    """Fisher-Yates shuffle of values[:count] in place."""
    for i in range(count - 1, 0, -1):
        j = below(stream, i + 1)
        values[i], values[j] = values[j], values[i]
