"""Thron der Lügen: readable positions, stepped through the same compiled rules as the batch kernel.

    >>> from balance.games.thron_der_luegen.positions import Position
    >>> pos = Position.build(4, thrones=["Winter 5", "Summer x2", "Moon 3", "Spring 2"],
    ...                      hands=["Sun +2", "Moon 1", "Winter 4", "Autumn 3"])
    >>> pos.throne_score(1), pos.total(0)      # seat 1: Winter 5 x2 = 10; seat 0: 5 + 2 + Sun +2
    (10, 9)
    >>> pos.legal()                            # seat 0's turn: reveal an End card, or draw
    ['draw', 'reveal end']
    >>> pos.apply("draw")                      # the pile's top card is seat 0's second hand card
    >>> pos.turn(act(SWAP_LEFT, DRAWN_SLOT))   # the rest of the turn: the drawn card onto its left throne

Throne t lies between seat t and seat t+1 (seat t's left throne, seat t+1's right throne). Cards
are named as the deck names them (``Deck.names``: "Sun +2", "Spring 4|1", "intrigue: swap_thrones");
cards not placed go to the draw pile (``pile`` lists its top cards first, the rest follows in a
shuffled order).

The verbs are the step kernel's (balance.engine.step): ``legal`` (the pending decision's answers),
``apply`` (answer it), ``view`` (what a seat sees), ``over``, ``scores``. An answer is a decision's
bit (layout.py) or its name (``answer_name``: "draw", "reveal end", "swap left drawn", "play held",
"throne 2", "keep", "with left"...). ``turn`` answers the rest of a turn in the order the rules ask;
a decision with one legal answer is not asked. A finished turn passes to the next player unless it
ended the round; ``end_round`` scores the round and hands out the stones.
"""

from __future__ import annotations

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND, answer_of, forced, no_restrictions
from balance.engine.rng import new_stream
from balance.engine.stepper import Run, TableSteps
from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.game import GAME, checked
from balance.games.thron_der_luegen.match import decide_posed, start_match
from balance.games.thron_der_luegen.rules import (
    advance, apply_answer, cards_accounted, deal_round, end_round, end_turn, over, pose_pending, score_round,
)
from balance.games.thron_der_luegen.policies import deck_value2, new_search_buffers, rollout_score, sample_world
from balance.games.thron_der_luegen.scoring import beside, seat_total, throne_score

TRACE_ROWS = 4096
ACT_WORDS = ("swap left", "swap right", "swap far", "play", "discard")  # layout.SWAP_LEFT...
SLOT_WORDS = ("held", "drawn")  # layout.HELD, DRAWN_SLOT
TURN_WORDS = ("draw", "reveal end")  # layout.DRAW, REVEAL_END
PEEK_WORDS = ("keep", "with left", "with right")  # layout.KEEP, WITH_LEFT, WITH_RIGHT


def act(kind: int, slot: int) -> int:
    """The ACT answer: do ``kind`` (SWAP_LEFT...) with hand ``slot`` (HELD or DRAWN_SLOT)."""
    return kind * 2 + slot


class Position:
    def __init__(self, setup, state: np.ndarray, seed: int):
        self.setup = setup
        self.deck = GAME.deck(setup)
        self.opts = checked(GAME.compile(setup))
        self.state = state
        self.rng = new_stream(seed, 0)
        self.trace = np.zeros((TRACE_ROWS, L.TRACE_FIELDS), dtype=np.int64)
        self.restrict = no_restrictions(int(state[L.PLAYERS]))

    @property
    def table(self) -> tuple:
        """What the rules read and write besides the state (rules.py)."""
        return self.opts, self.rng, self.trace

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
        state[L.DRAWN] = state[L.PLACING] = state[L.USED] = L.NO_CARD
        state[L.PHASE] = L.PH_TURN_START
        state[L.DECK_VALUE2] = deck_value2(GAME.compile(setup))
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

    @property
    def over(self) -> bool:
        """The round has ended (``end_round`` scores it)."""
        return self.end_reason != 0

    def scores(self) -> list[float]:
        """Each seat's value as the search counts it (policies.rollout_score): its lead in point stones
        and in the round's score (both as scored so far), and the match's win or loss."""
        return [float(rollout_score(self.state, seat)) for seat in range(self.players)]

    def view(self, seat: int) -> dict:
        """What ``seat`` sees (all a policy reads): its hand (and the card it drew), the thrones as it
        knows them ("?" where it does not), the face-up discards, the End cards shown, the stones."""
        s = self.state
        known = [s[L.THRONE + t] if beside(seat, t, self.players) else s[L.KNOWN + seat * L.MAX_PLAYERS + t]
                 for t in range(self.players)]
        return {"hand": self.hand(seat),
                "drawn": self.name(s[L.DRAWN]) if seat == self.turn_seat else "-",
                "thrones": [self.name(c) if c != L.NO_CARD else "?" for c in known],
                "discards": [self.name(c) for c in range(L.N_COURT) if s[L.DISCARDS] >> c & 1],
                "end_shown": int(s[L.END_SHOWN]), "stones": self.stones()}

    # ---- the pending decision ---------------------------------------------------------------
    def _advance(self) -> None:
        """Start the turn of the player whose turn it is, if none is under way (the rules stop at the
        turn's end: ``_end_turn``)."""
        if self.state[L.PHASE] == L.PH_TURN_START:
            if self.over:
                raise ValueError("the round is over")
            advance(self.state, self.table)

    def _end_turn(self) -> None:
        """A finished turn passes to the next player, unless it ended the round."""
        if self.state[L.PHASE] == L.PH_END_TURN and not self.over:
            end_turn(self.state, self.opts)

    @property
    def pending(self) -> bool:
        return self.state[L.PHASE] < L.N_KINDS

    def legal(self) -> list[str]:
        """The names of the pending decision's legal answers (the turn starts first if none is under way)."""
        self._advance()
        if not self.pending:
            return []
        pose_pending(self.state, self.table, self.restrict)
        kind = int(self.state[D_KIND])
        return [self.answer_name(kind, bit) for bit in range(2 * L.N_ACTS) if self.state[D_CHOICES] >> bit & 1]

    def answer_name(self, kind: int, bit: int) -> str:
        if kind == L.TURN:
            return TURN_WORDS[bit]
        if kind == L.ACT:
            return f"{ACT_WORDS[bit // 2]} {SLOT_WORDS[bit % 2]}"
        if kind == L.PEEK_CHOICE:
            return PEEK_WORDS[bit]
        return f"throne {bit}"

    def _answer(self, answer) -> int:
        if isinstance(answer, (int, np.integer)):
            return int(answer)
        kind = int(self.state[D_KIND])
        bits = {L.TURN: len(TURN_WORDS), L.ACT: 2 * L.N_ACTS, L.PEEK_CHOICE: len(PEEK_WORDS)}.get(kind, self.players)
        for bit in range(bits):
            if self.answer_name(kind, bit) == answer.lower():
                return bit
        raise ValueError(f"unknown answer {answer!r} to a {L.KIND_DECISION_NAMES[kind]} decision")

    def _apply(self, answer) -> None:
        pose_pending(self.state, self.table, self.restrict)
        bit = self._answer(answer)
        if not (0 <= bit < 63 and self.state[D_CHOICES] >> bit & 1):
            raise ValueError(f"{answer!r} is not a legal answer at this point")
        apply_answer(self.state, self.table, bit)

    def apply(self, answer) -> None:
        """Answer the pending decision (a bit, or a name as ``legal`` lists it); the rules run on."""
        self._advance()
        if not self.pending:
            raise ValueError(f"no decision is pending: the answer {answer!r} was not asked for")
        self._apply(answer)
        self._end_turn()

    # ---- acting ---------------------------------------------------------------------------------
    def turn(self, *answers) -> list[int]:
        """Play (the rest of) the turn of the seat whose turn it is with these answers, one per
        decision with more than one legal answer; the next seat's turn follows unless the round ended.
        Returns the trace rows of the turn."""
        first = int(self.state[L.TRACE_LEN])
        self._advance()
        left = list(answers)
        while self.pending:
            pose_pending(self.state, self.table, self.restrict)
            if forced(self.state):
                apply_answer(self.state, self.table, answer_of(self.state))
            elif not left:
                raise ValueError("an answer is missing: the rules ask for one more")
            else:
                self._apply(left.pop(0))
        if left:
            raise ValueError(f"{len(left)} answers were not asked for")
        self._end_turn()
        return self.trace[first: self.state[L.TRACE_LEN]].tolist()

    def score(self) -> list[int]:
        """Score the round as the thrones and hands lie (the rules' scoring, not stored in the match):
        the point stones each seat wins."""
        copy = self.state.copy()
        score_round(copy, self.opts, self.trace[:0])
        return [int(v) for v in copy[L.ROUND_STONES: L.ROUND_STONES + self.players]]

    def end_round(self) -> list[int]:
        """Score (unless the Moon 3s ended the round) and hand out the stones; the match stones after."""
        end_round(self.state, self.opts, self.trace[:0])
        self.state[L.PHASE] = L.PH_ROUND_OVER
        return self.stones()


# ---- the step contract from Python (balance.engine.stepper) ---------------------------------------
def card_places(state) -> list[int]:
    """Every court card where it lies, sorted: thrones, hands, the drawn card, the card being placed
    or carried out, the draw pile, the face-up discards (each of the 28 once when conserved)."""
    n = state[L.PLAYERS]
    cards = [*state[L.THRONE:L.THRONE + n], *state[L.HAND:L.HAND + n]]
    cards += [state[f] for f in (L.DRAWN, L.PLACING, L.USED) if state[f] != L.NO_CARD]
    cards += list(state[L.PILE + state[L.PILE_TOP]:L.PILE + L.N_COURT])
    cards += [c for c in range(L.N_COURT) if state[L.DISCARDS] >> c & 1]
    return sorted(int(c) for c in cards)


class Steps(TableSteps):
    """A setup's rounds stepped with the batch's compiled functions (balance.engine.stepper); a run
    is the first round of a match."""

    def __init__(self, setup):
        mind = new_search_buffers()
        super().__init__(setup, GAME.compile(setup), mind, mind[0], L.TRACE_FIELDS,
                         (advance, over, pose_pending, apply_answer), decide_posed, sample_world)

    def start(self, seed: int, deal_index: int) -> Run:
        run = Run(np.zeros(L.STATE_SIZE, dtype=np.int64), new_stream(seed, deal_index))
        start_match(run.state, self.opts)
        deal_round(run.state, self.opts, run.rng, self.no_trace)
        return run

    def conserved(self, run: Run) -> bool:
        return card_places(run.state) == list(range(L.N_COURT))
