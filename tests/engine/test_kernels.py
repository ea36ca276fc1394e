"""The project's kernel decorator: one compiled specialization per argument type."""

import numpy as np

from balance.engine.kernels import kernel

KIND_A, KIND_B = 3, 5


@kernel
def score(values, kind):
    return values[0] + (1 if kind == KIND_A else 2)


@kernel
def score_both(values):
    return score(values, KIND_A) + score(values, KIND_B)


def test_a_kernel_called_with_constants_compiles_once_for_their_type():
    assert score_both(np.ones(3)) == 5.0  # the kinds still count: 2 + 3
    assert [str(t) for t in score.signatures[0]] == ["array(float64, 1d, C)", "int64"]
    assert len(score.signatures) == 1  # not once per constant value (Literal[int](3), Literal[int](5))
