"""The step contract seen from Python: one setup's game stepped decision by decision with the same
compiled functions its batch runs (pgx's init/step/observe, OpenSpiel's State), the same verbs for
every game, so a check written once (tests/engine/test_conformance.py) holds for every game.

A game's ``Game.stepper(setup)`` returns a :class:`Stepper`; ``start`` deals a :class:`Run` (the
state and the random stream its rules and policies draw from, seats as the setup seats its policy
slots, no rotation). Then:

- ``advance(run)``: the rules run on to the next decision (in the shared header,
  balance.engine.decision: ``state[D_SEAT]`` decides among the bits of ``state[D_CHOICES]``) or
  to the end of what is played (a game, or a round for games played in rounds): ``over(run)``;
- ``pose(run)``: the pending decision narrowed by its seat's restriction;
- ``decide(run)``: the seat's policy's answer to the posed decision (the search's for a search
  seat); ``apply(run, answer)`` applies one;
- ``world(run, seat, stream)``: a world dealt from ``seat``'s view alone (the game's
  ``sample_world``, as the search deals them): the state with every card the seat cannot see
  dealt again;
- ``conserved(run)``: at a decision, every card (or token) of the game is in exactly one place.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.decision import D_CHOICES, D_SEAT


@dataclass
class Run:
    """A game being stepped: its state and the stream its rules (and, in most games, its policies)
    draw from; ``extra`` holds what else a game's step needs per run (a second stream, buffers)."""

    state: np.ndarray
    rng: np.ndarray
    extra: tuple = ()

    def copy(self) -> "Run":
        return Run(self.state.copy(), self.rng.copy(), tuple(x.copy() if isinstance(x, np.ndarray) else x
                                                              for x in self.extra))

    @property
    def seat(self) -> int:
        return int(self.state[D_SEAT])

    @property
    def choices(self) -> int:
        return int(self.state[D_CHOICES])


class Stepper:
    """One setup's step kernel (see the module's docstring); each game implements the verbs."""

    players: int

    def start(self, seed: int, deal: int) -> Run:
        raise NotImplementedError

    def advance(self, run: Run) -> None:
        raise NotImplementedError

    def over(self, run: Run) -> bool:
        raise NotImplementedError

    def pose(self, run: Run) -> None:
        raise NotImplementedError

    def decide(self, run: Run) -> int:
        raise NotImplementedError

    def apply(self, run: Run, answer: int) -> None:
        raise NotImplementedError

    def world(self, run: Run, seat: int, stream: np.ndarray) -> Run:
        raise NotImplementedError

    def conserved(self, run: Run) -> bool:
        raise NotImplementedError

    def next_decision(self, run: Run) -> bool:
        """Run the rules on to the next decision and pose it; False when none comes."""
        self.advance(run)
        if self.over(run):
            return False
        self.pose(run)
        return True
