"""A configuration row whose card-type count is known when the kernels compile.

A game kernel reads its setup from an int64 configuration row (``cfg[CFG_...]``): one compiled
kernel serves every mode and option. What a setup leaves out then still costs it at run time:
the record has room for every card of every expansion, and a base-game round loops over all of
them, asks every expansion card's text whether it holds, and carries that code in every function.
A loop bounded by a count read from the row is no cure: of a runtime length, it is neither
unrolled nor vectorized (measured slower than the full fixed loop).

``Config(row, types)`` is that row with ``types`` made part of its Numba *type*
(``ConfigType(types)``): the kernels compile once per distinct count, and inside them
``live_types(cfg, every)`` is the constant ``types``. A loop ``range(live_types(cfg, TYPES))``
is then as fixed as ``range(TYPES)`` and shorter, and a card text guarded by ``t <
live_types(cfg, TYPES)`` is dead code the compiler removes for a setup that cannot deal card t.
``cfg[i]`` reads the row as before, so the rules need not know which they were given: called
with the plain row (positions, tests, the search's declared signatures), ``live_types`` is
``every`` and the kernels are the general ones.

Each distinct count is a compile of the game's kernels (minutes with an empty cache), so a game
specializes few of them (the Imposter Kings: its 2-player base game only).
"""

import operator

import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import (NativeValue, intrinsic, make_attribute_wrapper, models, overload, register_model,
                             typeof_impl, unbox)


class Config:
    """A configuration row (int64) and the number of card types the setup can deal (types 0..types-1)."""

    __slots__ = ("row", "types")

    def __init__(self, row: np.ndarray, types: int):
        self.row = np.ascontiguousarray(row, dtype=np.int64)
        self.types = int(types)


class ConfigType(types.Type):
    """Numba's type of a ``Config``: the card-type count is part of the type."""

    def __init__(self, live: int):
        self.live = live
        super().__init__(name=f"Config(types={live})")


@typeof_impl.register(Config)
def _typeof_config(value, context):
    return ConfigType(value.types)


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


@overload(operator.getitem)
def _config_getitem(cfg, index):
    if isinstance(cfg, ConfigType):
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


@intrinsic
def as_config(typingctx, row, types_count):
    """``Config(row, types_count)`` in compiled code (``types_count`` a constant): for a function whose
    declared signature takes the plain row, to run the kernels its caller ran (a search's rollouts)."""
    if not isinstance(row, types.Array) or not isinstance(types_count, types.IntegerLiteral):
        return None
    config_type = ConfigType(types_count.literal_value)

    def codegen(context, builder, signature, args):
        config = cgutils.create_struct_proxy(config_type)(context, builder)
        config.row = args[0]
        return impl_ret_borrowed(context, builder, config_type, config._getvalue())

    return config_type(row, types_count), codegen
