"""Stand-in for ``balance.engine.decision`` (issue 11's shared decision interface), written against
the contract's names until the engine module is merged; it is deleted at that merge.

The first three entries of every state record are the decision header: who decides, the kind of
decision and its legal answers as a bit mask. ``pose`` writes it and narrows the answers by the
seat's restriction (forbid, then prefer; a restriction never leaves no legal answer).
"""

from dataclasses import dataclass

import numpy as np

from balance.engine.kernels import kernel
from balance.engine.rng import bit_index, random_bit

D_SEAT, D_KIND, D_CHOICES = 0, 1, 2
DECISION_HEADER = 3
N_KINDS_MAX = 32
FORBID, PREFER = 0, 1
POLICY_RANDOM = 0


@dataclass(frozen=True)
class Action:
    """A named answer a scenario seat may forbid or prefer: (kind, bit) pairs of the game's decisions."""

    name: str
    kind: int
    bit: int
    doc: str
    pairs: tuple[tuple[int, int], ...] = ()

    @property
    def all_pairs(self) -> tuple[tuple[int, int], ...]:
        return ((self.kind, self.bit),) + self.pairs


@kernel
def pose(state, seat, kind, choices, restrict):
    """Write the decision header; narrow the answers by the seat's restriction; return them."""
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
    return c & (c - 1) == 0


@kernel(inline="always")
def answer_of(state):
    return bit_index(state[D_CHOICES])


@kernel(inline="always")
def random_answer(state, rng):
    return random_bit(rng, state[D_CHOICES])


@kernel
def seat_restrictions(rotation, slot_restrict, restrict):
    """Slot p's restriction sits at seat (p + rotation) % n, like its policy."""
    n = slot_restrict.shape[0]
    for slot in range(n):
        seat = (slot + rotation) % n
        for kind in range(slot_restrict.shape[1]):
            for k in range(2):
                restrict[seat, kind, k] = slot_restrict[slot, kind, k]


def no_restrictions(players: int) -> np.ndarray:
    return np.zeros((players, N_KINDS_MAX, 2), dtype=np.int64)
