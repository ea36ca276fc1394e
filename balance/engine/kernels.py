"""Compiled helpers every game's batch kernel shares: the kernel decorator, game indices, the
claiming of blocks of games by threads, seat rotation of policies and restrictions."""

import inspect
import sys
from typing import Callable

from numba import get_num_threads, njit, types
from numba.core import event
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from balance.engine import inlining

inlining.install()  # before any kernel compiles: Numba's inliner copies a callee's IR once, not once a block


def typed_by_type(dispatcher):
    """``dispatcher``, compiled once per argument *type* when another compiled function calls it.

    Numba types a constant argument at a call site (``ask(state, SWAP_FIRST, ...)``) as a literal
    and compiles the callee, with everything it calls, once per constant value: a game's whole
    policy compiled eight times over, most of the test suite's time. Typing the call with the
    plain types compiles it once; a function that needs a value at compile time has none here.
    """
    by_value = dispatcher.get_call_template

    def get_call_template(args, kws):
        return by_value(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def compiled_on_first_use(dispatcher, signature):
    """``dispatcher``, compiled for ``signature`` alone, at its first use rather than at import.

    ``njit(signature)`` compiles when the module is imported: every command (``balance games``,
    ``--help``) would pay for every game's kernels, minutes with an empty cache. This one compiles
    (or loads from the cache) the declared signature the first time it is called from Python,
    typed by a compiled caller or converted to a function value (``numba.types.FunctionType``),
    then accepts no other, as ``njit(signature)`` does.
    """
    typed, compile_for_args, compile_result = (dispatcher.get_call_template, dispatcher._compile_for_args,
                                               dispatcher.get_compile_result)

    def compile_declared():
        if dispatcher._can_compile:
            dispatcher.compile(signature)
            dispatcher.disable_compile()

    def get_call_template(args, kws):
        compile_declared()
        return typed(args, kws)

    def get_compile_result(sig):
        compile_declared()
        return compile_result(sig)

    def first_call(*args, **kws):  # returns what the call then runs: the dispatcher, now compiled
        if not dispatcher._can_compile:
            return compile_for_args(*args, **kws)  # says which types did not match
        compile_declared()
        return dispatcher

    dispatcher.get_call_template = get_call_template
    dispatcher.get_compile_result = get_compile_result
    dispatcher._compile_for_args = first_call
    return dispatcher


def compiler(**defaults):
    """A decorator like ``njit`` (bare, or with a signature and options) with ``defaults``; a declared
    signature is compiled on first use (``compiled_on_first_use``), not at import."""

    def decorate(signature_or_function=None, **options):
        if inspect.isfunction(signature_or_function):
            return typed_by_type(njit(signature_or_function, **defaults))
        if signature_or_function is None:
            return lambda function: typed_by_type(njit(**defaults, **options)(function))
        return lambda function: compiled_on_first_use(typed_by_type(njit(**defaults, **options)(function)),
                                                      signature_or_function)

    return decorate


class CompileNotice(event.Listener):
    """Says on stderr, once per game and process, that a game's kernels are being compiled.

    Numba announces a compile ("numba:compile") only on a cache miss, so a warm cache says nothing.
    ``game_of(module)`` names the game a compiled function's module belongs to (None: no game).
    """

    def __init__(self, game_of: Callable[[str], str | None]):
        self.game_of = game_of
        self.said: set[str] = set()

    def on_start(self, started):
        game = self.game_of(started.data["dispatcher"].py_func.__module__)
        if game is not None and game not in self.said:
            self.said.add(game)
            print(f"compiling {game} kernels (first run only)", file=sys.stderr, flush=True)

    def on_end(self, ended):
        pass


_notice: list[CompileNotice] = []  # the one registered in this process


def announce_compiles(game_of: Callable[[str], str | None]) -> None:
    """From now on say when a game's kernels compile (``CompileNotice``); called again, it
    replaces the naming and keeps what was said."""
    if not _notice:
        _notice.append(CompileNotice(game_of))
        event.register("numba:compile", _notice[0])
    _notice[0].game_of = game_of


# The two decorators of every compiled function of the project. Both cache their machine code
# and use NumPy's error model (arithmetic never raises).
# - kernel: for functions that create no array. They are compiled without Numba's reference
#   counting, which otherwise costs two atomic operations per array argument per call, more than
#   the game rules themselves.
# - allocating_kernel: for the few functions that create arrays (buffers, the batch entry points).
#   Reference counting is asked for explicitly: a function compiled while its caller compiles
#   inherits the caller's setting otherwise, and a kernel's caller has none.
KERNEL_OPTIONS = {"cache": True, "error_model": "numpy", "_nrt": False}
kernel = compiler(**KERNEL_OPTIONS)
allocating_kernel = compiler(**{**KERNEL_OPTIONS, "_nrt": True})


def inlined_into(*callers: str):
    """An ``inline`` option (Numba's cost model, asked at each call site) that inlines a function
    into the compiled functions named ``callers`` and leaves it a call everywhere else.

    A call passes every array as its seven or nine fields, most of them pushed on the stack: in a
    game loop that calls a rules step per phase, the pushes took more time than some of the steps
    (tools/perf_kernels.py, docs/speed.md). Inlined everywhere, the same steps slowed the searches,
    whose rollout and tree loops are inlined into one large function, and tripled the compile."""
    def cost_model(expr, caller, callee):
        return caller.func_id.func_name in callers

    return cost_model


@intrinsic
def read_only(typingctx, array):
    """``array`` typed read-only, the same memory. Numba types a module-level array (a policy's
    ``HEURISTIC_DEFAULTS``) as read-only, a type of its own: a policy called with that row in one
    place and with a parameter buffer's row in another compiled twice, a whole heuristic twice.
    Passing every parameter row through this compiles it once (a policy never writes its parameters)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, signature.return_type, args[0])

    return array.copy(readonly=True)(array), codegen


@kernel(inline="always")
def no_rows(buffer):
    """``buffer`` cut to no rows: a trace that records nothing (the searches' rollouts). It is
    C-contiguous like the batch kernel's own empty trace; a column slice (``buffer[:0, :FIELDS]``)
    is another array layout, and every rules function that takes the trace compiled twice for it."""
    return buffer[:0]


@kernel(inline="always")
def split_game_index(game_index, rotations):
    """(deal, rotation) of a global game index: the rotations of one deal are consecutive."""
    return game_index // rotations, game_index % rotations


BLOCKS_PER_THREAD = 4  # at least this many blocks a thread, where a batch has the games for it


def games_per_block(count: int, most: int) -> int:
    """Games per block (a batch kernel's parallel work item, its scratch reused from game to game)
    for a batch of ``count``: the game's ``most``, but few enough that every thread gets
    BLOCKS_PER_THREAD blocks. A tree search's chunk of 100 games in blocks of 256 was one block,
    played by one thread while the other idled (in blocks of 64, 64 + 36 left one idle for a third
    of the chunk); a batch of thousands of fast games keeps ``most``. Each game draws from its own
    stream, so the blocks never change a result. Computed here and passed to the kernel: a kernel
    that asks numba for its thread count cannot be cached."""
    return max(1, min(most, -(-count // (get_num_threads() * BLOCKS_PER_THREAD))))


@intrinsic
def claim_block(typingctx, claimed):
    """The next block of games for the calling thread: ``claimed[0]`` (an int64 array of one, zero at
    the batch's start), raised by one in a single atomic step, so no two threads get the same block.

    Numba's default threading layers (omp, workqueue) give each thread a fixed share of a prange,
    cut before the loop starts (``parallel_chunksize`` changes that only under TBB): a thread on a
    slower or busier core then finishes last while the others wait. A batch kernel instead lets
    every thread claim blocks until none is left::

        claimed = np.zeros(1, dtype=np.int64)
        for _ in prange(blocks):  # each thread's first iteration does the work, the rest find none
            b = claim_block(claimed)
            while b < blocks:
                ...  # the games of block b
                b = claim_block(claimed)

    Which thread plays a block never changes its games: each draws only from its own stream.
    """
    signature = types.int64(claimed)

    def codegen(context, builder, sig, args):
        array = context.make_array(sig.args[0])(context, builder, args[0])
        return builder.atomic_rmw("add", array.data, context.get_constant(types.int64, 1), "monotonic")

    return signature, codegen


@kernel
def seat_policies(rotation, slot_codes, slot_params, codes, params):
    """Seat the scenario's policy slots for one rotation: slot p sits at seat (p + rotation) % n."""
    n = len(slot_codes)
    for slot in range(n):
        seat = (slot + rotation) % n
        codes[seat] = slot_codes[slot]
        for k in range(slot_params.shape[1]):
            params[seat, k] = slot_params[slot, k]


@kernel
def seat_restrictions(rotation, slot_restrict, restrict):
    """Seat the policy slots' restrictions (balance.engine.decision) as ``seat_policies`` seats their
    policies: slot p's restriction applies at seat (p + rotation) % n."""
    n = slot_restrict.shape[0]
    for slot in range(n):
        seat = (slot + rotation) % n
        for kind in range(slot_restrict.shape[1]):
            for side in range(slot_restrict.shape[2]):
                restrict[seat, kind, side] = slot_restrict[slot, kind, side]


@kernel
def any_restriction(slot_restrict):
    """Whether any policy slot is restricted (``seat_restrictions`` would write anything but zeros)."""
    for slot in range(slot_restrict.shape[0]):
        for kind in range(slot_restrict.shape[1]):
            for side in range(slot_restrict.shape[2]):
                if slot_restrict[slot, kind, side] != 0:
                    return True
    return False


def slot_at_seat(seat, rotation, players):
    """Inverse of the seating above (Python side, for result frames)."""
    return (seat - rotation) % players
