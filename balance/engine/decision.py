"""The decision interface every game kernel follows (issue 11), written once for every game.

A pending decision lives in the first entries of the game's int64 state record (the decision
header), so one compiled ``decide`` per game answers every kind of decision:

- ``state[D_SEAT]``    the seat that decides,
- ``state[D_KIND]``    the game's decision-kind code (below N_KINDS_MAX),
- ``state[D_CHOICES]`` its legal answers as a bit mask (bit i = answer i; at most 63 answers).

A game's own layout starts at ``DECISION_HEADER``. A game whose state is not one flat int64
array keeps a small int64 "decision" array with the same offsets and passes that as ``state``.

Restricted play (Jaffe et al., AIIDE 2012) is applied here, before any policy looks: ``pose``
narrows the legal answers by the deciding seat's restriction, an int64 array of shape
(players, N_KINDS_MAX, RESTRICT_SIDES): ``restrict[seat, kind, FORBID]`` bits are removed unless
that leaves nothing (the rules then force the play: a restriction never makes a game illegal);
then, if ``restrict[seat, kind, PREFER]`` meets what is left, only those bits are kept. Policies
choose only among ``state[D_CHOICES]``, so a restriction binds them without their knowing. An
all-zero array is no restriction. Restrictions belong to policy slots and rotate with them
(``balance.engine.kernels.seat_policies``).

Every game's ``decide`` starts the same way: ``pose`` has run; if ``forced(state)``, the answer
is ``answer_of(state)``; if the seat's policy code is ``POLICY_RANDOM``, ``random_answer``;
otherwise the game's own policies.
"""

import numpy as np

from balance.engine.kernels import kernel
from balance.engine.rng import bit_index, random_bit

# ---- the decision header (offsets into a game's state record) -------------------------------
D_SEAT = 0  # who decides
D_KIND = 1  # the game's decision-kind code
D_CHOICES = 2  # the legal answers, an int64 bit mask
DECISION_HEADER = 3  # the first free offset: a game's own layout starts here

# ---- restrictions ---------------------------------------------------------------------------
N_KINDS_MAX = 48  # decision kinds a game may declare (codes 0..N_KINDS_MAX - 1)
FORBID = 0  # restrict[seat, kind, FORBID]: answers the seat never gives while another is legal
PREFER = 1  # restrict[seat, kind, PREFER]: answers the seat gives whenever one of them is legal
RESTRICT_SIDES = 2
MAX_ANSWERS = 63  # bits of a non-negative int64 mask

# ---- policy codes ---------------------------------------------------------------------------
POLICY_RANDOM = 0  # reserved in every game: uniform over the legal answers


def no_restrictions(players: int) -> np.ndarray:
    """The all-zero restrict array of ``players`` seats (or slots): nobody is restricted."""
    return np.zeros((players, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)


@kernel(inline="always")
def pose(state, seat, kind, choices, restrict):
    """Pose a decision: write the header and narrow its legal answers by ``seat``'s restriction.
    Returns the narrowed mask (also in ``state[D_CHOICES]``)."""
    state[D_SEAT] = seat
    state[D_KIND] = kind
    allowed = choices & ~restrict[seat, kind, FORBID]
    if allowed == 0:  # forbidding every legal answer would make the game illegal: the rules force it
        allowed = choices
    preferred = allowed & restrict[seat, kind, PREFER]
    if preferred != 0:
        allowed = preferred
    state[D_CHOICES] = allowed
    return allowed


@kernel(inline="always")
def forced(state):
    """Exactly one legal answer (nothing to decide)."""
    choices = state[D_CHOICES]
    return choices & (choices - 1) == 0


@kernel(inline="always")
def answer_of(state):
    """The answer of a forced decision (its only set bit)."""
    return bit_index(state[D_CHOICES])


@kernel(inline="always")
def random_answer(state, rng):
    """A legal answer drawn uniformly from the game's stream (POLICY_RANDOM)."""
    return random_bit(rng, state[D_CHOICES])
