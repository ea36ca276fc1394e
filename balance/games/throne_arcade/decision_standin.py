"""LOCAL STAND-IN for balance/engine/decision.py (issue 11, branch `decision`), written against
/work/briefs/decision_contract.md. Deleted when the engine module is merged: every import of this
module then reads from balance.engine.decision instead."""

from dataclasses import dataclass

import numpy as np

from balance.engine.kernels import kernel
from balance.engine.rng import bit_index, random_bit

D_SEAT, D_KIND, D_CHOICES = 0, 1, 2
DECISION_HEADER = 3
N_KINDS_MAX = 32
FORBID, PREFER = 0, 1
POLICY_RANDOM = 0


@kernel
def pose(state, seat, kind, choices, restrict):
    """Write the decision header and narrow the legal answers by the seat's restriction."""
    state[D_SEAT] = seat
    state[D_KIND] = kind
    allowed = choices & ~restrict[seat, kind, FORBID]
    if allowed == 0:
        allowed = choices
    preferred = allowed & restrict[seat, kind, PREFER]
    if preferred != 0:
        allowed = preferred
    state[D_CHOICES] = allowed
    return allowed


@kernel(inline="always")
def forced(state):
    c = state[D_CHOICES]
    return c != 0 and (c & (c - 1)) == 0


@kernel(inline="always")
def answer_of(state):
    return bit_index(state[D_CHOICES])


@kernel(inline="always")
def random_answer(state, rng):
    return random_bit(rng, state[D_CHOICES])


@kernel
def seat_restrictions(rotation, slot_restrict, restrict):
    """Slot p's restriction sits at seat (p + rotation) % n, as its policy does."""
    n = slot_restrict.shape[0]
    for slot in range(n):
        seat = (slot + rotation) % n
        for k in range(N_KINDS_MAX):
            restrict[seat, k, FORBID] = slot_restrict[slot, k, FORBID]
            restrict[seat, k, PREFER] = slot_restrict[slot, k, PREFER]


def no_restriction(players: int) -> np.ndarray:
    return np.zeros((players, N_KINDS_MAX, 2), dtype=np.int64)


@dataclass(frozen=True)
class Action:
    name: str
    kind: int
    bit: int
    doc: str
    pairs: tuple = ()
