"""A compile-time fix to Numba's inliner: copy a callee's IR with one memo, not one per block.

Every ``inline="always"`` call site has Numba copy the callee's IR twice
(``InlineWorker.inline_ir``'s ``copy_ir``), deep-copying each block on its own. A block's
variables all point to the function's one ``Scope``, which holds every variable of the function,
so each block's copy copies the whole scope again: a copy costs blocks x variables. The games'
loops inline the rules and the policies into a few callers, whose IR runs to hundreds of blocks
and thousands of variables, and a third of a game's cold compile went to these copies (Take the
Throne: deepcopy 52 s of a 163 s profile). Numba's issue #8989 reports the same; upstream has not
changed ``copy_ir`` (0.68).

``install`` makes the blocks of one ``inline_ir`` call share one memo: each object, the scope
included, is copied once, which is what a deep copy of the blocks together gives. The copies are
the same IR, so the same machine code: the results of every bench setup are byte-identical with
and without it (docs/speed.md). Only ``inline_closurecall``'s own ``copy.deepcopy`` of a block
during ``inline_ir`` is changed; a Numba whose ``inline_ir`` no longer copies blocks this way is
left alone.
"""

import copy
import functools
import inspect

from numba.core import inline_closurecall, ir

EXPECTED_SOURCE = "copy.deepcopy(the_ir.blocks[block_label])"  # the line the fix speeds up

_memos: list[dict] = []  # one per inline_ir call in progress (Numba compiles under one lock)


class _SharedMemoCopy:
    """The ``copy`` module as inline_closurecall sees it: ``deepcopy`` of a block during an
    ``inline_ir`` call uses that call's memo; everything else is the copy module's."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(value, memo=None):
        if memo is None and _memos and isinstance(value, ir.Block):
            memo = _memos[-1]
        return copy.deepcopy(value, memo)


def install() -> bool:
    """Install the fix once; False when this Numba's inliner is not the one it fixes."""
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "_one_memo", False):
        return True
    try:
        source = inspect.getsource(worker.inline_ir)
    except (OSError, TypeError):
        return False
    if EXPECTED_SOURCE not in source or inline_closurecall.copy is not copy:
        return False
    numba_inline_ir = worker.inline_ir

    @functools.wraps(numba_inline_ir)
    def inline_ir(self, *args, **kwargs):
        _memos.append({})
        try:
            return numba_inline_ir(self, *args, **kwargs)
        finally:
            _memos.pop()

    inline_ir._one_memo = True
    worker.inline_ir = inline_ir
    inline_closurecall.copy = _SharedMemoCopy()
    return True
