"""A configuration row whose card-type count is known when the kernels compile.

A game kernel reads its setup from an int64 configuration row (``cfg[CFG_...]``): one compiled
kernel serves every mode and option. What a setup leaves out then still costs it at run time:
the record has room for every card of every expansion, and a base-game round loops over all of
them, asks every expansion card's text whether it holds, and carries that code in every function.
A loop bounded by a count read from the row is no cure: of a runtime length, it is neither
unrolled nor vectorized (measured slower than the full fixed loop).

``Config(row, spec)`` is that row with its ``Specialization`` (the count ``types``) made part of its
Numba *type* (``ConfigType(spec)``): the kernels compile once per specialization, and inside them
``live_types(cfg, every)`` is the constant ``types``. A loop ``range(live_types(cfg, TYPES))``
is then as fixed as ``range(TYPES)`` and shorter, and a card text guarded by ``t <
live_types(cfg, TYPES)`` is dead code the compiler removes for a setup that cannot deal card t.
``cfg[i]`` reads the row as before, so the rules need not know which they were given: called
with the plain row (positions, tests, the search's declared signatures), ``live_types`` is
``every`` and the kernels are the general ones.

A ``Specialization`` also names configuration fields every setup of its family shares (the
table's size, the modes it never plays): ``cfg[CFG_X]`` of such a field, read at a constant index, is
that constant in the compiled kernels, so a 2-player table's branches for 3 and 4 seats, 2v2 or the
Mercenary round are dead code there too. ``Config(row, spec)`` checks that the row has those values.

Each distinct specialization is a compile of the game's kernels (minutes with an empty cache), so a
game specializes few of them (the Imposter Kings: its 2-player base game only).
"""

import operator
from dataclasses import dataclass

import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import (NativeValue, intrinsic, make_attribute_wrapper, models, overload, register_model,
                             typeof_impl, unbox)


@dataclass(frozen=True)
class Specialization:
    """A family of setups compiled apart: the card types 0..``types``-1 it can deal, and ``fixed``, the
    configuration fields (index, value) every setup of it has."""

    types: int
    fixed: tuple[tuple[int, int], ...] = ()

    def admits(self, row: np.ndarray) -> bool:
        """The row has every fixed field's value (its card types are the game's to check)."""
        return all(int(row[index]) == value for index, value in self.fixed)


class Config:
    """A configuration row (int64) and its ``Specialization``."""

    __slots__ = ("row", "spec")

    def __init__(self, row: np.ndarray, spec: Specialization):
        self.row = np.ascontiguousarray(row, dtype=np.int64)
        self.spec = spec
        if not self.spec.admits(self.row):
            raise ValueError(f"the row does not have the fixed fields of {self.spec}")

    @property
    def types(self) -> int:
        return self.spec.types


class ConfigType(types.Type):
    """Numba's type of a ``Config``: its specialization is part of the type."""

    def __init__(self, spec: Specialization):
        self.spec = spec
        self.live = self.spec.types
        self.fixed = dict(self.spec.fixed)
        fixed = "".join(f", [{index}]={value}" for index, value in self.spec.fixed)
        super().__init__(name=f"Config(types={self.live}{fixed})")


@typeof_impl.register(Config)
def _typeof_config(value, context):
    return ConfigType(value.spec)


@register_model(ConfigType)
class _ConfigModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("row", types.int64[::1])])


make_attribute_wrapper(ConfigType, "row", "row")


@unbox(ConfigType)
def _unbox_config(typ, obj, c):
    row_obj = c.pyapi.object_getattr_string(obj, "row")
    row = c.unbox(types.int64[::1], row_obj)
    c.pyapi.decref(row_obj)
    config = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    config.row = row.value
    return NativeValue(config._getvalue(), is_error=row.is_error, cleanup=row.cleanup)


@overload(operator.getitem, prefer_literal=True)  # a constant index is seen as one
def _config_getitem(cfg, index):
    if isinstance(cfg, ConfigType):
        if isinstance(index, types.IntegerLiteral):
            if index.literal_value not in cfg.fixed:
                return None  # typed again as a plain int: one compiled read for every other index
            value = cfg.fixed[index.literal_value]
            return lambda cfg, index: value
        return lambda cfg, index: cfg.row[index]
    return None


def live_types(cfg, every):
    """The card types the setup can deal, a compile-time constant for a ``Config``; ``every`` (the
    record's count) for a plain row."""
    return cfg.types if isinstance(cfg, Config) else every


@overload(live_types)
def _live_types(cfg, every):
    if isinstance(cfg, ConfigType):
        count = cfg.live
        return lambda cfg, every: count
    return lambda cfg, every: every


@intrinsic
def row_of(typingctx, cfg):
    """The plain row, in compiled code (for a function compiled for plain rows only, e.g. the search's
    declared signatures): a Config's row, or the row itself. An intrinsic: a kernel compiled without
    reference counting may return no array it was not given, and a Config's row is its member."""
    if isinstance(cfg, ConfigType):
        def codegen(context, builder, signature, args):
            row = cgutils.create_struct_proxy(cfg)(context, builder, value=args[0]).row
            return impl_ret_borrowed(context, builder, signature.return_type, row)
        return types.int64[::1](cfg), codegen
    if isinstance(cfg, types.Array):
        def codegen(context, builder, signature, args):
            return impl_ret_borrowed(context, builder, signature.return_type, args[0])
        return cfg(cfg), codegen
    return None


def config_maker(spec: Specialization):
    """An intrinsic ``make(row)``: ``Config(row, spec)`` in compiled code, for a function whose declared
    signature takes the plain row, to run the kernels its caller ran (a search's rollouts). The row
    is not checked: it is the caller's, which was."""
    config_type = ConfigType(spec)

    @intrinsic
    def make(typingctx, row):
        if not isinstance(row, types.Array):
            return None

        def codegen(context, builder, signature, args):
            config = cgutils.create_struct_proxy(config_type)(context, builder)
            config.row = args[0]
            return impl_ret_borrowed(context, builder, config_type, config._getvalue())

        return config_type(row), codegen

    return make
