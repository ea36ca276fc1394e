"""balance.engine.config: a configuration row whose card-type count is a compile-time constant."""

import numpy as np
from numba import njit, typeof

from balance.engine.config import Config, ConfigType, as_config, live_types, row_of

EVERY = 30


@njit
def count_and_read(cfg, index):
    """The loop bound a kernel gets, and a read of the row."""
    visited = 0
    for _ in range(live_types(cfg, EVERY)):
        visited += 1
    return visited, cfg[index], row_of(cfg)[index]


def test_a_config_reads_like_its_row_and_bounds_loops_by_its_count():
    row = np.arange(10, dtype=np.int64) * 3
    assert count_and_read(Config(row, 14), 4) == (14, 12, 12)
    assert count_and_read(row, 4) == (EVERY, 12, 12)  # a plain row: the general kernels, every type


def test_the_count_is_part_of_the_type():
    row = np.zeros(3, dtype=np.int64)
    assert typeof(Config(row, 14)) == ConfigType(14)
    assert typeof(Config(row, 14)) != typeof(Config(row, 18))
    assert live_types(Config(row, 14), EVERY) == 14 and live_types(row, EVERY) == EVERY


@njit
def rewrapped_count(row):
    """A row made a Config in compiled code (a declared-signature rollout running its caller's kernels)."""
    cfg = as_config(row, 14)
    visited = 0
    for _ in range(live_types(cfg, EVERY)):
        visited += 1
    return visited, cfg[2]


def test_a_row_made_a_config_in_compiled_code_keeps_its_count():
    assert rewrapped_count(np.arange(5, dtype=np.int64)) == (14, 2)
