"""Compiled helpers every game's batch kernel shares: the kernel decorator, game indices, seat
rotation."""

from functools import partial

from numba import njit

# Every compiled function of the project: cached, and with NumPy's error model, so arithmetic
# never raises. A kernel function that cannot raise lets Numba drop its reference counting,
# which otherwise costs more than the game rules themselves.
kernel = partial(njit, cache=True, error_model="numpy")


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
        params[seat, :] = slot_params[slot, :]


def slot_at_seat(seat, rotation, players):
    """Inverse of the seating above (Python side, for result frames)."""
    return (seat - rotation) % players
