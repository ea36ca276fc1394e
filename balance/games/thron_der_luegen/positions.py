"""Thron der Lügen: readable positions, played and scored through the same compiled rules as the
batch kernel.

    >>> from balance.games.thron_der_luegen.positions import Position
    >>> pos = Position.build(4, thrones=["Winter 5", "Summer x2", "Moon 3", "Spring 2"],
    ...                      hands=["Sun +2", "Moon 1", "Winter 4", "Autumn 3"])
    >>> pos.throne_score(1), pos.total(0)      # seat 1: Winter 5 x2 = 10; seat 0: 5 + 2 + Sun +2
    (10, 9)
    >>> pos.turn(DRAW, act(SWAP_LEFT, DRAWN_SLOT))   # seat 0 draws the pile's top card, puts it left

Throne t lies between seat t and seat t+1 (seat t's left throne, seat t+1's right throne). Cards
are named as the deck names them (``Deck.names``: "Sun +2", "Spring 4|1", "intrigue: swap_thrones");
cards not placed go to the draw pile (``pile`` lists its top cards first, the rest follows in a
shuffled order). Answers of a turn are the decisions' bits (layout.py), asked in the rules' order;
a decision with one legal answer is not asked.
"""

from __future__ import annotations

import numpy as np

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.rng import new_stream
from balance.games.thron_der_luegen import layout as L
from balance.engine.decision import no_restrictions
from balance.games.thron_der_luegen.game import GAME
from balance.games.thron_der_luegen.rules import (
    cards_accounted, finish_round, play_turn, score_round,
)
from balance.games.thron_der_luegen.policies import deck_value2
from balance.games.thron_der_luegen.scoring import seat_total, throne_score

TRACE_ROWS = 4096


def act(kind: int, slot: int) -> int:
    """The ACT answer: do ``kind`` (SWAP_LEFT...) with hand ``slot`` (HELD or DRAWN_SLOT)."""
    return kind * 2 + slot


class Position:
    def __init__(self, setup, state: np.ndarray, seed: int):
        self.setup = setup
        self.deck = GAME.deck(setup)
        self.opts = GAME.kernel_options(setup, self.deck, checks=True)
        self.state = state
        self.rng = new_stream(seed, 0)
        self.trace = np.zeros((TRACE_ROWS, L.TRACE_FIELDS), dtype=np.int64)

    @classmethod
    def build(cls, players: int, thrones: list[str], hands: list[str], *, pile: list[str] = (),
              first: int = 0, end_shown: int = 0, discards: list[str] = (), stones: list[int] | None = None,
              options: dict | None = None, seed: int = 0) -> "Position":
        setup = GAME.make_setup("base", players, "random", options=options, rotate=False)
        deck = GAME.deck(setup)
        free = list(range(L.N_COURT))

        def take(name: str) -> int:
            for c in free:
                if deck.names[c] == name:
                    free.remove(c)
                    return c
            raise ValueError(f"no card '{name}' left in deck '{deck.name}' (cards: {sorted(set(deck.names))})")

        if len(thrones) != players or len(hands) != players:
            raise ValueError(f"{players} thrones and {players} hand cards are needed")
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        state[L.PLAYERS] = players
        state[L.WINNER] = L.NOBODY
        state[L.DRAWN] = state[L.PLACING] = L.NO_CARD
        state[L.DECK_VALUE2] = deck_value2(GAME.kernel_options(setup, deck))
        for t, name in enumerate(thrones):
            state[L.THRONE + t] = take(name)
        for s, name in enumerate(hands):
            state[L.HAND + s] = take(name)
        for name in discards:
            state[L.DISCARDS] |= 1 << take(name)
        top = [take(name) for name in pile]
        rest = np.array(free, dtype=np.int64)
        np.random.default_rng(seed).shuffle(rest)
        order = top + rest.tolist()
        state[L.PILE_TOP] = L.N_COURT - len(order)
        state[L.PILE + state[L.PILE_TOP]: L.PILE + L.N_COURT] = order
        state[L.KNOWN: L.KNOWN + L.MAX_PLAYERS * L.MAX_PLAYERS] = L.NO_CARD
        state[L.PLACER: L.PLACER + L.MAX_PLAYERS] = L.NOBODY  # dealt, not placed
        state[L.FIRST] = state[L.TURN_SEAT] = first
        state[L.LAST_TURN] = (first + players - 1) % players
        state[L.END_SHOWN] = end_shown
        if stones is not None:
            state[L.STONES: L.STONES + players] = stones
        return cls(setup, state, seed)

    # ---- reading --------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.state[L.PLAYERS])

    def name(self, card: int) -> str:
        return self.deck.names[card] if card != L.NO_CARD else "-"

    def thrones(self) -> list[str]:
        return [self.name(self.state[L.THRONE + t]) for t in range(self.players)]

    def hand(self, seat: int) -> str:
        return self.name(self.state[L.HAND + seat])

    def throne_score(self, seat: int) -> int:
        return int(throne_score(self.state, self.opts, seat))

    def total(self, seat: int) -> int:
        return int(seat_total(self.state, self.opts, seat, throne_score(self.state, self.opts, seat)))

    @property
    def turn_seat(self) -> int:
        return int(self.state[L.TURN_SEAT])

    @property
    def end_reason(self) -> int:
        return int(self.state[L.END_REASON])

    def stones(self) -> list[int]:
        return [int(v) for v in self.state[L.STONES: L.STONES + self.players]]

    def round_stones(self) -> list[int]:
        return [int(v) for v in self.state[L.ROUND_STONES: L.ROUND_STONES + self.players]]

    def accounted(self) -> bool:
        return bool(cards_accounted(self.state))

    # ---- acting ---------------------------------------------------------------------------------
    def turn(self, *answers: int) -> list[int]:
        """Play the turn of the seat whose turn it is with these answers; the next seat's turn
        follows unless the round ended. Returns the trace rows of the turn."""
        first = int(self.state[L.TRACE_LEN])
        self.state[L.SCRIPT_POS] = 0
        codes = np.full(self.players, L.POLICY_SCRIPTED, dtype=np.int64)
        params = np.zeros((self.players, MAX_POLICY_PARAMS))
        play_turn(self.state, self.opts, codes, params, no_restrictions(self.players), self.rng,
                  np.array(answers, dtype=np.int64), self.trace)
        if self.state[L.SCRIPT_ERROR]:
            raise ValueError("a scripted answer was missing or is not legal at that point")
        if self.state[L.SCRIPT_POS] != len(answers):
            raise ValueError(f"{len(answers) - self.state[L.SCRIPT_POS]} answers were not asked for")
        if self.state[L.END_REASON] == 0:
            self.state[L.TURN_SEAT] = (self.state[L.TURN_SEAT] + 1) % self.players
        return self.trace[first: self.state[L.TRACE_LEN]].tolist()

    def score(self) -> list[int]:
        """Score the round as the thrones and hands lie (the rules' scoring, not stored in the match):
        the point stones each seat wins."""
        copy = self.state.copy()
        score_round(copy, self.opts, self.trace[:0])
        return [int(v) for v in copy[L.ROUND_STONES: L.ROUND_STONES + self.players]]

    def end_round(self) -> list[int]:
        """Score (unless the Moon 3s ended the round) and hand out the stones; the match stones after."""
        if self.state[L.END_REASON] != L.END_MOON_PAIR:
            score_round(self.state, self.opts, self.trace[:0])
        finish_round(self.state, self.opts, self.trace[:0])
        return self.stones()
