"""Compiled helpers every game's batch kernel shares: the kernel decorator, game indices, seat
rotation of policies and restrictions."""

from functools import partial

from numba import njit

# The two decorators of every compiled function of the project. Both cache their machine code
# and use NumPy's error model (arithmetic never raises).
# - kernel: for functions that create no array. They are compiled without Numba's reference
#   counting, which otherwise costs two atomic operations per array argument per call, more than
#   the game rules themselves.
# - allocating_kernel: for the few functions that create arrays (buffers, the batch entry points).
kernel = partial(njit, cache=True, error_model="numpy", _nrt=False)
allocating_kernel = partial(njit, cache=True, error_model="numpy")


@kernel(inline="always")
def split_game_index(game_index, rotations):
    """(deal, rotation) of a global game index: the rotations of one deal are consecutive."""
    return game_index // rotations, game_index % rotations


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


def slot_at_seat(seat, rotation, players):
    """Inverse of the seating above (Python side, for result frames)."""
    return (seat - rotation) % players
