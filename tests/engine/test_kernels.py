"""The project's kernel decorator: one compiled specialization per argument type, a declared
signature compiled on first use, and the notice of a compile."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import numba
from numba import types

from balance.engine.kernels import BLOCKS_PER_THREAD, KERNEL_OPTIONS, compiler, games_per_block, no_rows, read_only
from balance.engine.search import packed
from balance.games import game_title_of

# The kernel's options without the on-disk cache: a kernel loaded from a warm cache compiles none
# of its callees, and these tests look at what compiling does.
ROOT = Path(__file__).resolve().parents[2]
uncached_kernel = compiler(**{**KERNEL_OPTIONS, "cache": False})

KIND_A, KIND_B = 3, 5


@uncached_kernel
def score(values, kind):
    return values[0] + (1 if kind == KIND_A else 2)


@uncached_kernel
def score_both(values):
    return score(values, KIND_A) + score(values, KIND_B)


def test_a_kernel_called_with_constants_compiles_once_for_their_type():
    assert score_both(np.ones(3)) == 5.0  # the kinds still count: 2 + 3
    assert [str(t) for t in score.signatures[0]] == ["array(float64, 1d, C)", "int64"]
    assert len(score.signatures) == 1  # not once per constant value (Literal[int](3), Literal[int](5))


DECLARED = types.float64(types.float64[::1], types.int64)


@uncached_kernel(DECLARED)
def first_value_plus(values, k):
    return values[0] + k


@uncached_kernel(DECLARED)
def first_value_plus_called(values, k):
    return values[0] + k


@uncached_kernel
def caller(values):
    return first_value_plus_called(values, 2)


def test_a_declared_signature_compiles_on_first_use_and_only_it():
    assert first_value_plus.signatures == []  # importing compiled nothing
    assert first_value_plus(np.ones(2), 3) == 4.0
    assert first_value_plus.signatures == [DECLARED.args]
    with pytest.raises(TypeError, match="No matching definition"):
        first_value_plus(np.ones(2, dtype=np.int64), 3)  # as njit(signature): no other types
    assert first_value_plus.signatures == [DECLARED.args]


def test_a_declared_signature_called_from_a_kernel_compiles_it():
    assert caller(np.ones(2)) == 3.0
    assert first_value_plus_called.signatures == [DECLARED.args]


TOY = """
import sys
import numpy as np
from balance.engine.kernels import announce_compiles, kernel

@kernel
def double(x):
    return 2 * x

@kernel
def quadruple(x):
    return double(double(x))

announce_compiles(lambda module: "Toy" if module == "__main__" else None)
print(quadruple(np.int64(3)))
"""


def test_a_compile_is_announced_once_and_a_warm_cache_says_nothing(tmp_path):
    (tmp_path / "toy_kernels.py").write_text(textwrap.dedent(TOY))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}

    def run():
        return subprocess.run([sys.executable, "toy_kernels.py"], cwd=tmp_path, capture_output=True, text=True,
                              env=env, check=True)

    cold, warm = run(), run()
    assert cold.stdout == warm.stdout == "12\n"
    assert cold.stderr == "compiling Toy kernels (first run only)\n"  # two kernels compiled, one notice
    assert warm.stderr == ""


def test_the_notice_names_a_game_by_its_short_title():
    assert game_title_of("balance.games.take_the_throne.rules") == "Take the Throne"
    assert game_title_of("balance.games.imposter_kings.match") == "The Imposter Kings"
    assert game_title_of("balance.engine.search") is None  # compiled with a game's kernels, named by them


# A rollout hands the rules and policies views of its search buffers where the batch hands them its own
# arrays; a view of another type (layout, read-only) compiles everything it reaches a second time.
DEFAULT_WEIGHTS = np.array([0.5, 2.0])  # a module-level array: Numba types it read-only
FIELDS = 3


@uncached_kernel
def weigh(weights, table):
    return weights[0] * table.shape[0] + weights[1] * table.shape[1]


@uncached_kernel
def weigh_batch_and_rollout(weights, own_table, buffer):
    batch = weigh(read_only(weights), own_table)
    rollout = weigh(DEFAULT_WEIGHTS, packed(buffer[2:4], (2, 5)))
    return batch + rollout


@compiler(**{**KERNEL_OPTIONS, "cache": False, "_nrt": True})  # returns a view to Python
def packed_rows(buffer):
    return packed(buffer[2:4], (2, 5))


@uncached_kernel
def count_rows(trace):
    return trace.shape[0]


@uncached_kernel
def count_batch_and_rollout_rows(own_trace, buffer):
    return count_rows(own_trace) + count_rows(no_rows(buffer))


@uncached_kernel
def count_column_slice_rows(own_trace, buffer):
    return count_rows(own_trace) + count_rows(buffer[:0, :FIELDS])


def test_search_views_are_typed_as_the_batch_arrays_so_nothing_compiles_twice():
    buffer = np.arange(40, dtype=np.float64).reshape(5, 8)
    assert weigh_batch_and_rollout(np.array([1.0, 1.0]), np.zeros((3, 4)), buffer) == 7.0 + 0.5 * 2 + 2.0 * 5
    assert len(weigh.signatures) == 1  # read_only: the caller's row typed as the module's defaults
    view = packed_rows(buffer)  # the rows' first ten values, C-contiguous
    assert view.flags.c_contiguous and view.tolist() == [[16, 17, 18, 19, 20], [21, 22, 23, 24, 25]]
    trace = np.zeros((0, FIELDS), dtype=np.int64)
    assert count_batch_and_rollout_rows(trace, np.zeros((4, 9), dtype=np.int64)) == 0
    assert len(count_rows.signatures) == 1
    count_column_slice_rows(trace, np.zeros((4, 9), dtype=np.int64))
    assert len(count_rows.signatures) == 2  # the column slice's layout ('A') is a second compile


def test_a_search_chunk_gives_every_thread_blocks_and_a_big_batch_keeps_the_games_block():
    """A tree search's chunk of 100 games was one block of 256 (one thread played it, the other
    idled); a batch of thousands of fast games keeps the game's block (its scratch reused)."""
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            for count, most in ((100, 256), (100, 64), (7, 64), (1, 256), (200_000, 256), (3_000, 64)):
                block = games_per_block(count, most)
                blocks = -(-count // block)
                assert 1 <= block <= most
                assert blocks >= min(count, threads * BLOCKS_PER_THREAD) or block == most
        numba.set_num_threads(2)
        assert games_per_block(100, 256) == 13 and games_per_block(200_000, 256) == 256
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
