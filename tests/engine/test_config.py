"""balance.engine.config: a configuration row whose card-type count and fixed fields are compile-time constants."""

import numpy as np
import pytest
from numba import njit, typeof

from balance.engine.config import Config, ConfigType, Specialization, config_maker, live_types, row_of

EVERY = 30
FOURTEEN = Specialization(14)
PLAYERS_AT = 3  # a field index, read at a constant index as kernels read theirs (cfg[CFG_PLAYERS])
TWO_SEATS = Specialization(14, ((PLAYERS_AT, 2),))


@njit
def count_and_read(cfg, index):
    """The loop bound a kernel gets, and a read of the row."""
    visited = 0
    for _ in range(live_types(cfg, EVERY)):
        visited += 1
    return visited, cfg[index], row_of(cfg)[index]


def test_a_config_reads_like_its_row_and_bounds_loops_by_its_count():
    row = np.arange(10, dtype=np.int64) * 3
    assert count_and_read(Config(row, FOURTEEN), 4) == (14, 12, 12)
    assert count_and_read(row, 4) == (EVERY, 12, 12)  # a plain row: the general kernels, every type


def test_the_specialization_is_part_of_the_type():
    row = np.array([0, 0, 0, 2], dtype=np.int64)
    assert typeof(Config(row, FOURTEEN)) == ConfigType(FOURTEEN)
    assert typeof(Config(row, FOURTEEN)) != typeof(Config(row, Specialization(18)))
    assert typeof(Config(row, FOURTEEN)) != typeof(Config(row, TWO_SEATS))
    assert live_types(Config(row, FOURTEEN), EVERY) == 14 and live_types(row, EVERY) == EVERY


@njit
def seats_and_field(cfg, index):
    """A fixed field read at a constant index, and a field read at a run-time index."""
    return cfg[PLAYERS_AT], cfg[index]


def test_a_fixed_field_is_the_constant_the_kernels_compiled_with():
    row = np.array([5, 6, 7, 2], dtype=np.int64)
    cfg = Config(row, TWO_SEATS)
    assert seats_and_field(cfg, 1) == (2, 6)
    cfg.row[PLAYERS_AT] = 3  # changed behind the Config's back: the compiled read is the constant
    assert seats_and_field(cfg, 1) == (2, 6) and seats_and_field(cfg, PLAYERS_AT) == (2, 3)
    assert seats_and_field(row, 1) == (3, 6)  # the plain row is read as it is


def test_a_row_without_the_fixed_values_is_refused():
    assert TWO_SEATS.admits(np.array([0, 0, 0, 2])) and not TWO_SEATS.admits(np.array([0, 0, 0, 3]))
    with pytest.raises(ValueError):
        Config(np.array([0, 0, 0, 3], dtype=np.int64), TWO_SEATS)


two_seat_config = config_maker(TWO_SEATS)


@njit
def rewrapped(row):
    """A row made a Config in compiled code (a declared-signature rollout running its caller's kernels)."""
    cfg = two_seat_config(row)
    visited = 0
    for _ in range(live_types(cfg, EVERY)):
        visited += 1
    return visited, cfg[2], cfg[PLAYERS_AT]


def test_a_row_made_a_config_in_compiled_code_keeps_its_specialization():
    assert rewrapped(np.array([0, 1, 2, 9], dtype=np.int64)) == (14, 2, 2)
