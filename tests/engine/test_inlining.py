"""balance.engine.inlining: Numba's inliner copies a callee's IR with one memo per copy, so the
callee's scope is copied once per copy, not once per block; the inlined code computes the same."""

import copy

import numpy as np
from numba import njit, types
from numba.core import inline_closurecall, ir

from balance.engine import inlining, kernels


@njit(inline="always")
def branchy(values, limit):
    """A callee of many blocks (every branch and loop is one)."""
    total = 0
    for v in values:
        if v > limit:
            total += 2 * v
        elif v < -limit:
            total -= v
        else:
            total += 1
    if total % 3 == 0:
        total += 7
    while total > 1000:
        total //= 2
    return total


def caller(values):
    return branchy(values, 3) + branchy(values, 5)


def test_the_fix_is_installed_on_this_numba():
    assert inlining.install()
    assert getattr(inline_closurecall.InlineWorker.inline_ir, "_one_memo", False)


def compiled_and_scope_copies(monkeypatch):
    """``caller`` compiled afresh (no cache), and how many times an IR scope was deep-copied meanwhile."""
    copies = []

    def counted_deepcopy(scope, memo):
        copies.append(id(scope))
        new = ir.Scope.__new__(ir.Scope)
        memo[id(scope)] = new
        for name, value in scope.__dict__.items():
            object.__setattr__(new, name, copy.deepcopy(value, memo))
        return new

    monkeypatch.setattr(ir.Scope, "__deepcopy__", counted_deepcopy, raising=False)
    compiled = njit(caller)
    compiled.compile("int64(int64[::1])")
    return compiled, len(copies)


def test_an_inlined_callee_scope_is_copied_a_few_times_not_once_a_block_and_computes_the_same(monkeypatch):
    assert inlining.install()
    fixed, fixed_copies = compiled_and_scope_copies(monkeypatch)
    worker = inline_closurecall.InlineWorker
    monkeypatch.setattr(worker, "inline_ir", worker.inline_ir.__wrapped__)  # Numba's own
    monkeypatch.setattr(inline_closurecall, "copy", copy)
    numbas, numbas_copies = compiled_and_scope_copies(monkeypatch)
    values = np.array([-9, -4, 0, 2, 4, 6, 8, 11], dtype=np.int64)
    assert fixed(values) == numbas(values) == caller(values)
    # two call sites: a few copies each (numba's working copy and the unmutated one it returns),
    # where Numba's own inliner copies the scope once for every block of the callee (more than ten)
    assert fixed_copies <= 8 and numbas_copies > 5 * fixed_copies, (fixed_copies, numbas_copies)


@njit(inline=kernels.inlined_into("game_loop"))
def phase_step(state):
    state[0] += 3
    return state[0]


def game_loop(state):
    return phase_step(state) + phase_step(state)


def search_loop(state):
    return phase_step(state) * 2


def calls_to_phase_step(function) -> int:
    """How many calls to ``phase_step`` ``function``'s typed Numba IR makes (LLVM may inline a call
    later; what the option saves is Numba typing the body again at every inlined site)."""
    compiled = njit(function)
    compiled.compile("int64(int64[::1])")
    typed = next(iter(compiled.overloads.values())).type_annotation
    return sum(1 for expr in typed.calltypes if getattr(expr, "op", None) == "call"
               and isinstance(typed.typemap[expr.func.name], types.Dispatcher)
               and typed.typemap[expr.func.name].dispatcher.py_func is phase_step.py_func)


def test_inlined_into_inlines_into_the_named_loop_and_leaves_a_call_elsewhere():
    assert calls_to_phase_step(game_loop) == 0
    assert calls_to_phase_step(search_loop) == 1
    state = np.zeros(1, dtype=np.int64)
    assert njit(game_loop)(state) == 3 + 6 and njit(search_loop)(state) == 18
