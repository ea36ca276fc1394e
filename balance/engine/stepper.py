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

import time
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


def decisions_per_second(steps: Stepper, seconds: float, seed: int = 1) -> tuple[int, float]:
    """(decisions, seconds): the setup's policies timed one decision at a time through the step
    contract, on deals 0, 1, ... of ``seed`` until ``seconds`` of deciding have passed. Only
    decisions with a choice count (a forced answer asks nobody); the first is a warm-up, untimed
    (it compiles or loads the kernels). ``balance bench`` times the tree search with it."""
    count, elapsed, warm, deal = 0, 0.0, False, 0
    while elapsed < seconds:
        run = steps.start(seed, deal)
        while elapsed < seconds and steps.next_decision(run):
            if run.choices & (run.choices - 1):  # two answers or more
                began = time.perf_counter()
                answer = steps.decide(run)
                if warm:
                    elapsed += time.perf_counter() - began
                    count += 1
                warm = True
            else:
                answer = steps.decide(run)
            steps.apply(run, answer)
        deal += 1
    return count, elapsed


class TableSteps(Stepper):
    """The verbs of a game whose compiled rules take the table ``(options, the run's stream, a
    trace)`` and whose policies draw from that same stream (Take the Throne, Thron der Lügen, Throne
    Arcade): its rules' ``advance``, ``over``, ``pose_pending``, ``apply_answer``, its match's
    ``decide_posed`` and its ``sample_world`` (called with ``world_scratch``, the int matrix its search
    deals in). A game adds ``start`` and ``conserved``."""

    def __init__(self, setup, opts, mind, world_scratch, trace_fields: int, rules: tuple, decide_posed,
                 sample_world):
        self.setup, self.players, self.opts, self.mind = setup, setup.players, opts, mind
        self.codes, self.params, self.restrict = setup.policy_codes, setup.policy_params, setup.restrict
        self.world_scratch = world_scratch
        self.no_trace = np.zeros((0, trace_fields), dtype=np.int64)
        self._advance, self._over, self._pose, self._apply = rules
        self._decide, self._sample_world = decide_posed, sample_world

    def table(self, run: Run) -> tuple:
        return self.opts, run.rng, self.no_trace

    def advance(self, run: Run) -> None:
        self._advance(run.state, self.table(run))

    def over(self, run: Run) -> bool:
        return bool(self._over(run.state))

    def pose(self, run: Run) -> None:
        self._pose(run.state, self.table(run), self.restrict)

    def decide(self, run: Run) -> int:
        return int(self._decide(run.state, self.opts, self.codes, self.params, self.restrict, run.rng, self.no_trace,
                                self.mind))

    def apply(self, run: Run, answer: int) -> None:
        self._apply(run.state, self.table(run), answer)

    def world(self, run: Run, seat: int, stream: np.ndarray) -> Run:
        world = run.copy()
        self._sample_world(run.state, world.state, seat, self.opts, self.world_scratch, stream)
        return world
