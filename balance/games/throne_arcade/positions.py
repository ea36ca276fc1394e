"""Throne Arcade: readable positions, stepped through the same compiled rules as batch runs.

    >>> from balance.games.throne_arcade.positions import Position
    >>> pos = Position.build(players=3, hands={0: ["orange X", "green X", "gold IX"], 1: ["blue King"],
    ...                      2: ["gold Lord", "blue VIII"]}, top="blue X")
    >>> pos.legal()                    # the pending decision's answers: what seat 0 may lay first
    ['green X', 'orange X']
    >>> pos.apply("orange X")          # answer it; the rules run on to the next decision
    >>> pos.legal()                    # another X, or stop
    ['green X', 'stop']
    >>> events = pos.turn("green X")   # the rest of the turn: lay the green X (then nothing is asked)
    >>> pos.top, pos.hand(0), pos.to_move
    ('green X', ['gold IX'], 1)

The verbs are the step kernel's (balance.engine.step): ``legal`` (the pending decision's answers),
``apply`` (answer it), ``view`` (what a seat sees), ``over``, ``scores``. Every answer has a name:
a card '<colour> <type>' (``layout.FACE_NAMES``), a colour a Hand names, or the decision's "no
card" (``layout.NONE_WORDS``: "draw" a penalty, "stop" laying, "keep" a drawn card; "none" is
each of them). ``turn`` answers the rest of a turn in the order the rules ask; a decision with one
legal answer is not asked. The rules run on by themselves to the next decision of the turn (drawing
a penalty, drawing when nothing fits) and stop at the next turn's start. Cards no hand, pile or
talon list names go to the bottom of the talon in deck order. ``Position.deal`` starts a real round
(shuffled by the seed) and ``step`` plays a turn with the seats' policies.
"""

from __future__ import annotations

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND, answer_of, forced, no_restrictions
from balance.engine.rng import new_stream
from balance.engine.stepper import Run, TableSteps
from balance.games.throne_arcade import layout as L
from balance.games.throne_arcade.game import GAME
from balance.games.throne_arcade.match import decide_posed, play_on
from balance.games.throne_arcade.policies import new_search_buffers, new_work_buffer, rollout_score, sample_world
from balance.games.throne_arcade.rules import (
    advance, apply_answer, count_in, deal_round, over, pose_pending, stalled, start_match, start_next_round,
)
from balance.games.throne_arcade.transcript import describe_events

NO_CARD_WORDS = ("none",) + tuple(word for word in L.NONE_WORDS if word)


class Position:
    def __init__(self, players: int, options: dict | None, seed: int, seats: str | list = "random"):
        self.setup = GAME.make_setup("standard", players, seats, options=options, rotate=False)
        self.opts = GAME.compile(self.setup)
        self.deck = GAME.deck_names(self.setup)
        self.rng = new_stream(seed, 0)
        self.state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.trace = np.zeros((4096, L.TRACE_FIELDS), dtype=np.int64)
        self.mind = (new_work_buffer(), new_search_buffers())
        self.restrict = no_restrictions(players)
        start_match(self.state, self.opts, self.rng)

    @property
    def table(self) -> tuple:
        """What the rules read and write besides the state (rules.py)."""
        return self.opts, self.rng, self.trace

    # ---- building -------------------------------------------------------------------------
    @classmethod
    def build(cls, players: int, hands: dict, top: str, *, talon: list | None = None, pile: list | None = None,
              colour: str | None = None, turn: int = 0, pending: int = 0, just_out: int | None = None,
              out_of_round: list | None = None, losses: dict | None = None, options: dict | None = None,
              seed: int = 0, seats: str | list = "random") -> "Position":
        """A round in progress: each seat's hand, the top card (and the cards below it), the talon
        from the card drawn first, the colour in force (default: the top card's), whose turn it is,
        a draw penalty waiting, the seat that went out on the last turn; ``seats``' policies play
        it on with ``step``."""
        pos = cls(players, options, seed, seats)
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
        s[L.PHASE] = L.PH_TURN_START
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
    def over(self) -> bool:
        """The round is over: one player holds cards, or it stopped without a loser (capped)."""
        return self.round_over or self.state[L.PHASE] == L.PH_ROUND_OVER

    @property
    def stalled(self) -> bool:
        """No card can move any more (the batch ends such a round as capped)."""
        return not self.round_over and bool(stalled(self.state))

    def scores(self) -> list[float]:
        """Each seat's score of the round as the search counts it (policies.rollout_score): minus the
        cards it holds, and minus LOSE_SCORE for the round's loser."""
        return [rollout_score(self.state, seat) for seat in range(self.setup.players)]

    def view(self, seat: int) -> dict:
        """What ``seat`` sees (all a policy reads): its hand, the pile and its top card, the colour in
        force, the penalty and skips waiting, and how many cards each player holds."""
        return {"hand": self.hand(seat), "top": self.top, "pile": self.pile, "colour": self.colour,
                "pending": self.pending, "skips": int(self.state[L.PENDING_SKIPS]),
                "held": [bin(int(self.state[L.HAND + s])).count("1") for s in range(self.setup.players)]}

    # ---- the pending decision ---------------------------------------------------------------
    def _advance(self) -> None:
        """Run the rules to the next decision of this turn, or to the next turn's start (the rules
        stop there: state[TURN_STOP]), or to the round's end."""
        if self.state[L.PHASE] == L.PH_TURN_START:
            self.state[L.TURN_STOP] = self.state[L.TURNS] + 1
        advance(self.state, self.table)

    def _start_turn(self) -> None:
        if self.over or self.stalled:
            raise ValueError("the round is stalled" if self.stalled else "the round is over")
        self._advance()

    def legal(self) -> list[str]:
        """The names of the pending decision's legal answers (the rules run on to it first; none when
        the turn needed no decision)."""
        self._advance()
        if over(self.state):
            return []
        kind = int(self.state[D_KIND])
        return sorted(self.answer_name(kind, bit) for bit in range(L.NONE + 1) if self.state[D_CHOICES] >> bit & 1)

    def answer_name(self, kind: int, bit: int) -> str:
        if bit == L.NONE:
            return L.NONE_WORDS[kind]
        return L.COLOURS[bit] if kind == L.NAME_COLOUR else self.deck[bit]

    def apply(self, answer) -> None:
        """Answer the pending decision (a name as ``legal`` lists it); the rules run on."""
        self._advance()
        if over(self.state):
            raise ValueError(f"no decision is pending: the answer {answer!r} was not asked for")
        pose_pending(self.state, self.table, self.restrict)
        bit = self._answer(answer)
        if not self.state[D_CHOICES] >> bit & 1:
            raise ValueError(f"{answer!r} is not a legal answer at this point")
        apply_answer(self.state, self.table, bit)
        self._advance()

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
        """The player to move takes (the rest of) their turn with these answers, one per decision with
        more than one legal answer; the turn passes on, and the round is settled when one player is
        left holding cards. Returns the turn's events."""
        first = int(self.state[L.TRACE_LEN])
        self._start_turn()
        left = list(answers)
        while not over(self.state):
            pose_pending(self.state, self.table, self.restrict)
            if forced(self.state):
                bit = answer_of(self.state)
            elif not left:
                raise ValueError("an answer is missing: the rules ask for one more")
            else:
                bit = self._answer(left.pop(0))
                if not self.state[D_CHOICES] >> bit & 1:
                    raise ValueError("an answer is not legal at that point")
            apply_answer(self.state, self.table, bit)
            advance(self.state, self.table)
        if left:
            raise ValueError(f"{len(left)} answers were not asked for")
        return self._events(first)

    def step(self) -> list[str]:
        """The player to move takes (the rest of) their turn with their seat's policy."""
        first = int(self.state[L.TRACE_LEN])
        self._start_turn()
        play_on(self.state, self.opts, self.setup.policy_codes, self.setup.policy_params, self.restrict, self.rng,
                self.trace, self.mind)
        return self._events(first)

    def _events(self, first: int) -> list[str]:
        return describe_events(self.trace[first: self.state[L.TRACE_LEN]],
                               [f"seat {s}" for s in range(self.setup.players)], self.deck)

    def next_round(self) -> None:
        """After a round: the loser (or the next player still in) starts a new deal."""
        start_next_round(self.state)
        deal_round(self.state, self.opts, self.rng, self.trace)


# ---- the step contract from Python (balance.engine.stepper) ---------------------------------------
class Steps(TableSteps):
    """A setup's rounds stepped with the batch's compiled functions (balance.engine.stepper); a run
    is the first round of a match."""

    def __init__(self, setup):
        mind = (new_work_buffer(), new_search_buffers())
        super().__init__(setup, GAME.compile(setup), mind, mind[1][0], L.TRACE_FIELDS,
                         (advance, over, pose_pending, apply_answer), decide_posed, sample_world)

    def start(self, seed: int, deal_index: int) -> Run:
        run = Run(np.zeros(L.STATE_SIZE, dtype=np.int64), new_stream(seed, deal_index))
        start_match(run.state, self.opts, run.rng)
        deal_round(run.state, self.opts, run.rng, self.no_trace)
        return run

    def conserved(self, run: Run) -> bool:
        """Hands, talon and pile hold the whole deck, each card once, the top card on the pile."""
        s = run.state
        talon = [int(c) for c in s[L.TALON: L.TALON + s[L.TALON_LEN]]]
        zones = [int(s[L.HAND + seat]) for seat in range(self.players)] + [int(s[L.PILE])]
        union = 0
        for zone in zones + [1 << c for c in talon]:
            if union & zone:
                return False
            union |= zone
        return union == (1 << int(self.opts[L.OPT_DECK_SIZE])) - 1 and bool(s[L.PILE] >> int(s[L.TOP]) & 1)
