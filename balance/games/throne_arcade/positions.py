"""Throne Arcade: readable positions, played through the same compiled rules as batch runs.

    >>> from balance.games.throne_arcade.positions import Position
    >>> pos = Position.build(players=3, hands={0: ["orange X", "green X", "gold IX"], 1: ["blue King"],
    ...                      2: ["gold Lord", "blue VIII"]}, top="blue X")
    >>> pos.legal()                    # what the player to move may lay first
    ['green X', 'orange X']
    >>> pos.turn("orange X", "green X", "none")   # lay both Xs (green on top), then stop
    >>> pos.top, pos.hand(0), pos.to_move
    ('green X', ['gold IX'], 1)

Cards are named '<colour> <type>' (``layout.FACE_NAMES``). A turn's answers are given in the order
the rules ask for them: card names for cards, colour names for a Hand's colour, "none" to draw a
penalty, stop laying, or keep a drawn card. A decision with one legal answer is not asked. Cards
no hand, pile or talon list names go to the bottom of the talon in deck order. ``Position.deal``
starts a real round (shuffled by the seed) and ``step`` plays it with the seats' policies.
"""

from __future__ import annotations

import numpy as np

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.rng import new_stream
from balance.games.throne_arcade import layout as L
from balance.engine.decision import no_restrictions
from balance.games.throne_arcade.game import GAME
from balance.games.throne_arcade.policies import new_search_buffers, new_work_buffer
from balance.games.throne_arcade.rules import (
    count_in, deal_round, finish_round, pass_turn, play_turn, stalled, start_match, start_next_round,
)
from balance.games.throne_arcade.table import matching_cards
from balance.games.throne_arcade.transcript import describe_events

SCRIPTED = L.POLICY_SCRIPTED
NO_CARD_WORDS = ("none", "draw", "stop", "keep")


class Position:
    def __init__(self, players: int, options: dict | None, seed: int, seats: str | list = "random"):
        self.setup = GAME.make_setup("standard", players, seats, options=options, rotate=False)
        self.opts = self.setup.extra["_kernel_options"]
        self.deck = GAME.deck_names(self.setup)
        self.rng = new_stream(seed, 0)
        self.state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.trace = np.zeros((4096, L.TRACE_FIELDS), dtype=np.int64)
        self.work = new_work_buffer()
        self.search = new_search_buffers()
        self.restrict = no_restrictions(players)
        start_match(self.state, self.opts, self.rng)

    # ---- building -------------------------------------------------------------------------
    @classmethod
    def build(cls, players: int, hands: dict, top: str, *, talon: list | None = None, pile: list | None = None,
              colour: str | None = None, turn: int = 0, pending: int = 0, just_out: int | None = None,
              out_of_round: list | None = None, losses: dict | None = None, options: dict | None = None,
              seed: int = 0) -> "Position":
        """A round in progress: each seat's hand, the top card (and the cards below it), the talon
        from the card drawn first, the colour in force (default: the top card's), whose turn it is,
        a draw penalty waiting, the seat that went out on the last turn."""
        pos = cls(players, options, seed)
        s = pos.state
        free = (1 << len(pos.deck)) - 1
        for seat in range(players):
            s[L.HAND + seat] = pos._take(hands.get(seat, []), free)
            free &= ~s[L.HAND + seat]
            s[L.IN_ROUND + seat] = s[L.HAND + seat] != 0 and seat not in (out_of_round or [])
            s[L.DEALT + seat] = s[L.START_SIZE + seat] = 0
        top_mask = pos._take([top], free)
        free &= ~top_mask
        s[L.TOP] = pos._bit(top_mask)
        s[L.PILE] = top_mask | pos._take(pile or [], free)
        free &= ~s[L.PILE]
        drawn_first = []
        for name in talon or []:
            card = pos._take([name], free)
            free &= ~card
            drawn_first.append(pos._bit(card))
        rest = [c for c in range(len(pos.deck)) if free >> c & 1]
        order = rest + drawn_first[::-1]  # the talon is stored bottom first
        s[L.TALON: L.TALON + len(order)] = order
        s[L.TALON_LEN] = len(order)
        s[L.COLOUR_IN_FORCE] = L.COLOURS.index(colour) if colour else s[L.FACE + s[L.TOP]] // L.N_TYPES
        s[L.TURN] = turn
        s[L.PENDING_DRAW] = pending
        s[L.PENDING_KING] = -1
        s[L.JUST_OUT] = L.NOBODY if just_out is None else just_out
        s[L.LOSER] = s[L.ELIMINATED] = L.NOBODY
        for seat, lost in (losses or {}).items():
            s[L.LOSSES + seat] = lost
        for seat in range(players):
            s[L.START_SIZE + seat] = bin(int(s[L.HAND + seat])).count("1")
        return pos

    @classmethod
    def deal(cls, players: int, *, seats: str | list = "random", starter: int = 0, losses: dict | None = None,
             options: dict | None = None, seed: int = 0) -> "Position":
        """A freshly dealt round (the rules' own deal), played by ``seats``' policies with ``step``."""
        pos = cls(players, options, seed, seats)
        for seat, lost in (losses or {}).items():
            pos.state[L.LOSSES + seat] = lost
        pos.state[L.STARTER] = starter
        deal_round(pos.state, pos.opts, pos.rng, pos.trace)
        return pos

    def _take(self, names, free: int) -> int:
        """The mask of cards with these names among ``free`` (a repeated name takes another copy)."""
        mask = 0
        for name in names:
            face = L.FACE_IDS.get(name.lower())
            if face is None:
                raise ValueError(f"unknown card {name!r}")
            cards = [c for c, f in enumerate(self.deck) if f.lower() == name.lower() and (free & ~mask) >> c & 1]
            if not cards:
                raise ValueError(f"no {name} left in the deck")
            mask |= 1 << cards[0]
        return mask

    @staticmethod
    def _bit(mask: int) -> int:
        return int(mask).bit_length() - 1

    # ---- reading back ---------------------------------------------------------------------
    def names(self, mask: int) -> list[str]:
        return sorted(self.deck[c] for c in range(len(self.deck)) if int(mask) >> c & 1)

    def hand(self, seat: int) -> list[str]:
        return self.names(self.state[L.HAND + seat])

    @property
    def top(self) -> str:
        return self.deck[self.state[L.TOP]]

    @property
    def colour(self) -> str:
        return L.COLOURS[self.state[L.COLOUR_IN_FORCE]]

    @property
    def to_move(self) -> int:
        return int(self.state[L.TURN])

    @property
    def pending(self) -> int:
        return int(self.state[L.PENDING_DRAW])

    def in_round(self, seat: int) -> bool:
        return bool(self.state[L.IN_ROUND + seat])

    def in_game(self, seat: int) -> bool:
        return bool(self.state[L.IN_GAME + seat])

    @property
    def talon(self) -> list[str]:
        """The talon from the card drawn first."""
        n = self.state[L.TALON_LEN]
        return [self.deck[c] for c in self.state[L.TALON: L.TALON + n][::-1]]

    @property
    def pile(self) -> list[str]:
        return self.names(self.state[L.PILE])

    @property
    def loser(self) -> int | None:
        return None if self.state[L.LOSER] == L.NOBODY else int(self.state[L.LOSER])

    @property
    def eliminated(self) -> int | None:
        return None if self.state[L.ELIMINATED] == L.NOBODY else int(self.state[L.ELIMINATED])

    @property
    def winner(self) -> int | None:
        return None if self.state[L.WINNER] == L.NOBODY else int(self.state[L.WINNER])

    @property
    def round_over(self) -> bool:
        return count_in(self.state, L.IN_ROUND) <= 1

    @property
    def stalled(self) -> bool:
        """No card can move any more (the batch ends such a round as capped)."""
        return not self.round_over and bool(stalled(self.state))

    def legal(self) -> list[str]:
        """What the player to move may lay first (no penalty waiting)."""
        fits = matching_cards(self.state, self.opts[L.OPT_HAND_ON_ANYTHING])
        return self.names(self.state[L.HAND + self.to_move] & fits)

    def describe(self) -> str:
        lines = [f"top {self.top} (colour in force {self.colour}), talon {len(self.talon)} cards, "
                 f"pending draw {self.pending}, to move: seat {self.to_move}"]
        lines += [f"seat {s}: {', '.join(self.hand(s)) or '-'}{'' if self.in_round(s) else ' (out of the round)'}"
                  for s in range(self.setup.players)]
        return "\n".join(lines)

    # ---- acting -------------------------------------------------------------------------
    def _answer(self, word) -> int:
        if isinstance(word, int):
            return word
        w = word.lower()
        if w in NO_CARD_WORDS:
            return L.NONE
        if w in L.COLOURS:
            return L.COLOURS.index(w)
        cards = [c for c, f in enumerate(self.deck) if f.lower() == w]
        if not cards:
            raise ValueError(f"unknown answer {word!r}")
        held = [c for c in cards if self.state[L.HAND + self.to_move] >> c & 1]
        return (held or cards)[0]

    def turn(self, *answers) -> list[str]:
        """The player to move takes their turn with these scripted answers; the turn passes on, and
        the round is settled when one player is left holding cards. Returns the turn's events."""
        script = np.array([self._answer(a) for a in answers], dtype=np.int64)
        codes = np.full(self.setup.players, SCRIPTED, dtype=np.int64)
        params = np.zeros((self.setup.players, MAX_POLICY_PARAMS))
        self.state[L.SCRIPT_POS] = 0
        self.state[L.SCRIPT_ERROR] = 0
        events = self._play(codes, params, script)
        if self.state[L.SCRIPT_ERROR]:
            raise ValueError("a scripted answer was missing or is not legal at that point")
        if self.state[L.SCRIPT_POS] != len(script):
            raise ValueError(f"{len(script) - self.state[L.SCRIPT_POS]} scripted answers were not asked for")
        return events

    def step(self) -> list[str]:
        """The player to move takes their turn with their seat's policy."""
        return self._play(self.setup.policy_codes, self.setup.policy_params, np.zeros(0, dtype=np.int64))

    def _play(self, codes, params, script) -> list[str]:
        if self.round_over or self.stalled:
            raise ValueError("the round is over" if self.round_over else "the round is stalled")
        first = int(self.state[L.TRACE_LEN])
        play_turn(self.state, self.opts, codes, params, self.restrict, self.rng, script, self.trace, self.work,
                  self.search)
        pass_turn(self.state, self.trace)
        if self.round_over:
            finish_round(self.state, self.trace)
        return describe_events(self.trace[first: self.state[L.TRACE_LEN]],
                               [f"seat {s}" for s in range(self.setup.players)], self.deck)

    def next_round(self) -> None:
        """After a round: the loser (or the next player still in) starts a new deal."""
        start_next_round(self.state)
        deal_round(self.state, self.opts, self.rng, self.trace)
