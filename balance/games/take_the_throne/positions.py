"""Take the Throne: readable positions, played through the same compiled rules as batch runs.

    >>> from balance.games.take_the_throne.positions import Position
    >>> p = Position(players=4, hands={1: ["attack", "charge"], 2: ["charge", "feint"]})
    >>> p.legal_cards(1)
    ['attack', 'charge']
    >>> events = p.play_round({0: "defend", 1: "attack", 2: "charge", 3: "charge"})
    >>> p.vp, p.monarch
    ([3, 1, 1, 1], 0)

Unlisted hands are the mode's full decks (seat ``monarch`` holds the crown cards). Decisions
made inside the round (Raid's target, a tie, a replacement card...) are given in the order the
rules ask for them as ``decisions``: card names for cards, seat numbers for players,
"accept"/"decline" for Ally's offer. A decision with only one legal answer is not asked.
"""

from __future__ import annotations

import numpy as np

from balance.engine.decision import no_restrictions
from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.rng import new_stream
from balance.games.take_the_throne import layout as L
from balance.games.take_the_throne.game import GAME
from balance.games.take_the_throne.policies import new_work_buffer
from balance.games.take_the_throne.rules import advance, deal
from balance.games.take_the_throne.transcript import describe_events

SCRIPTED = L.POLICY_SCRIPTED


def cards_of(mask: int) -> list[str]:
    return [L.CARD_NAMES[c].lower() for c in range(L.N_CARDS) if mask >> c & 1]


def mask_of_names(names) -> int:
    for name in names:
        if name.lower() not in L.CARD_IDS:
            raise ValueError(f"unknown card '{name}'")
    return L.mask_of(L.CARD_IDS[name.lower()] for name in names)


class Position:
    def __init__(self, players: int = 4, *, mode: str | None = None, monarch: int = 0, hands: dict | None = None,
                 discards: dict | None = None, decks: dict | None = None, vp: list[int] | None = None,
                 options: dict | None = None, seed: int = 0):
        mode = mode or ("two_player" if players == 2 else "core")
        self.setup = GAME.make_setup(mode, players, "random", options=options, rotate=False)
        self.opts = self.setup.extra["kernel_options"]
        self.rng = new_stream(seed, 0)
        self.state = np.empty(L.STATE_SIZE, dtype=np.int64)
        deal(self.state, self.opts, self.rng)
        s = self.state
        if monarch != 0:
            s[L.OWNED + 0], s[L.OWNED + monarch] = s[L.OWNED + monarch], s[L.OWNED + 0]
            s[L.SHOWN + 0], s[L.SHOWN + monarch] = s[L.SHOWN + monarch], s[L.SHOWN + 0]
            s[L.MONARCH] = monarch
        for seat, names in (decks or {}).items():
            s[L.OWNED + seat] = s[L.SHOWN + seat] = mask_of_names(names)  # a deck given here is public
        for seat in range(players):
            s[L.HAND + seat] = s[L.OWNED + seat]
        for seat, names in (hands or {}).items():
            s[L.HAND + seat] = mask_of_names(names)
        for seat, names in (discards or {}).items():
            s[L.DISCARD + seat] = mask_of_names(names)
        if vp is not None:
            s[L.VP: L.VP + players] = vp
        self.trace = np.zeros((4096, L.TRACE_FIELDS), dtype=np.int64)

    # ---- reading back ---------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.state[L.PLAYERS])

    @property
    def vp(self) -> list[int]:
        return [int(v) for v in self.state[L.VP: L.VP + self.players]]

    @property
    def monarch(self) -> int:
        return int(self.state[L.MONARCH])

    @property
    def winner(self) -> int | None:
        w = int(self.state[L.WINNER])
        return None if w == L.NOBODY else w

    def hand(self, seat: int) -> list[str]:
        return cards_of(self.state[L.HAND + seat])

    def discard(self, seat: int) -> list[str]:
        return cards_of(self.state[L.DISCARD + seat])

    def deck(self, seat: int) -> list[str]:
        return cards_of(self.state[L.OWNED + seat])

    def legal_cards(self, seat: int) -> list[str]:
        """What ``seat`` may select this round (the discard pile if the hand is empty)."""
        hand = self.state[L.HAND + seat]
        return cards_of(hand if hand else self.state[L.DISCARD + seat])

    # ---- acting -------------------------------------------------------------------------
    def play_round(self, plays: dict[int, str], decisions: list = ()) -> list[str]:
        """Play one round with these selections and in-round decisions; returns its events."""
        script = []
        for seat in range(self.players):
            legal = self.legal_cards(seat)
            card = plays[seat].lower()
            if card not in legal:
                raise ValueError(f"seat {seat} cannot play {card}; legal: {legal}")
            if len(legal) > 1:
                script.append(L.CARD_IDS[card])
        for d in decisions:
            if isinstance(d, str):
                script.append({"accept": L.ACCEPT, "decline": L.DECLINE}.get(d, None)
                              if d in ("accept", "decline") else L.CARD_IDS[d.lower()])
            else:
                script.append(int(d))
        codes = np.full(self.players, SCRIPTED, dtype=np.int64)
        params = np.zeros((self.players, MAX_POLICY_PARAMS))
        self.state[L.SCRIPT_POS] = 0
        first = int(self.state[L.TRACE_LEN])
        vp_before = self.vp
        advance(self.state, self.opts, codes, params, no_restrictions(self.players), self.rng,
                np.array(script, dtype=np.int64), self.trace, new_work_buffer())
        if self.state[L.SCRIPT_ERROR]:
            raise ValueError("a scripted decision was missing or is not legal at that point")
        if self.state[L.SCRIPT_POS] != len(script):
            raise ValueError(f"{len(script) - self.state[L.SCRIPT_POS]} scripted decisions were not asked for")
        return describe_events(self.trace[first: self.state[L.TRACE_LEN]], [f"seat {s}" for s in range(self.players)],
                               vp_before)
