"""Take the Throne: readable positions, stepped through the same compiled rules as batch runs.

    >>> from balance.games.take_the_throne.positions import Position
    >>> p = Position(players=4, hands={1: ["attack", "charge"], 2: ["charge", "feint"]})
    >>> p.legal_cards(1)
    ['attack', 'charge']
    >>> events = p.play_round({0: "defend", 1: "attack", 2: "charge", 3: "charge"})
    >>> p.vp, p.monarch
    ([3, 1, 1, 1], 0)
    >>> p.legal()                      # the next decision: seat 0 (still the Monarch) selects a card
    ['abdicate', 'authority', 'command', 'consolidate', 'raid']
    >>> p.apply("raid")                # answer it; the rules run on to the next decision

Unlisted hands are the mode's full decks (seat ``monarch`` holds the crown cards).

The verbs are the step kernel's (balance.engine.step): ``legal`` (the pending decision's answers),
``apply`` (answer it), ``view`` (what a seat sees), ``over``, ``scores``. Every answer has a name:
a card ('attack'), a player ('seat 2'; ``apply`` takes the number too), or Ally's offer
('accept', 'decline'). The rules run on by themselves to the next decision; once a round is over
they stop, and ``legal`` starts the next one. ``play_round`` answers (the rest of) a round: the
cards each seat plays, then the decisions made inside the round (Raid's target, a tie, a
replacement card...) in the order the rules ask for them; a decision with only one legal answer
is not asked.
"""

from __future__ import annotations

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT, answer_of, forced, no_restrictions
from balance.engine.rng import new_stream
from balance.engine.stepper import Run, TableSteps
from balance.games.take_the_throne import layout as L
from balance.games.take_the_throne.game import GAME
from balance.games.take_the_throne.match import decide_posed
from balance.games.take_the_throne.policies import new_search_buffers, new_work_buffer, rollout_score, sample_world
from balance.games.take_the_throne.rules import advance, apply_answer, available_cards, deal, over, pose_pending
from balance.games.take_the_throne.transcript import describe_events


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
        self.opts = GAME.compile(self.setup)
        self.rng = new_stream(seed, 0)
        self.restrict = no_restrictions(players)
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

    @property
    def table(self) -> tuple:
        """What the rules read and write besides the state (rules.py)."""
        return self.opts, self.rng, self.trace

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

    @property
    def over(self) -> bool:
        """The game is over: a Monarch won, or the round cap is reached."""
        return self.winner is not None or self.state[L.ROUND] >= self.opts[L.OPT_MAX_ROUNDS]

    def hand(self, seat: int) -> list[str]:
        return cards_of(self.state[L.HAND + seat])

    def discard(self, seat: int) -> list[str]:
        return cards_of(self.state[L.DISCARD + seat])

    def deck(self, seat: int) -> list[str]:
        return cards_of(self.state[L.OWNED + seat])

    def legal_cards(self, seat: int) -> list[str]:
        """What ``seat`` may select this round (the discard pile if the hand is empty)."""
        return cards_of(available_cards(self.state, seat))

    def scores(self) -> list[float]:
        """Each seat's score as the search counts it (policies.rollout_score): its VP lead over the
        best other player, plus or minus WIN_SCORE once the game is won."""
        return [rollout_score(self.state, seat) for seat in range(self.players)]

    def view(self, seat: int) -> dict:
        """What ``seat`` sees (all a policy reads): its hand, every discard pile (each card in one was
        shown), the cards of each deck every player has been shown and how many each holds, the VP,
        the Monarch, the cards in play (face down until revealed) and what its Command looked at."""
        s = self.state
        in_play = []
        for other in range(self.players):
            cards = [int(s[slot + other]) for slot in (L.MAIN, L.EXTRA) if s[slot + other] != L.NO_CARD]
            face_up = other == seat or s[L.REVEALED + other]
            in_play.append([L.CARD_NAMES[c].lower() if face_up else "face down" for c in cards])
        looked = s[L.VIEWED_SEAT] != L.NOBODY and seat == s[L.MONARCH]
        return {"hand": self.hand(seat), "discards": [self.discard(o) for o in range(self.players)],
                "shown": [cards_of(s[L.SHOWN + o]) for o in range(self.players)],
                "held": [bin(int(s[L.HAND + o])).count("1") for o in range(self.players)],
                "vp": self.vp, "monarch": self.monarch, "in_play": in_play,
                "looked_at": (int(s[L.VIEWED_SEAT]), L.CARD_NAMES[s[L.VIEWED_CARD]].lower()) if looked else None}

    # ---- the pending decision ---------------------------------------------------------------
    def _advance(self) -> None:
        """Run the rules to the next decision of this round, or to the round's end (the rules stop
        at the next round's start: state[ROUND_STOP]); between rounds, into the next one."""
        if self.state[L.PHASE] == L.PH_ROUND_START:
            self.state[L.ROUND_STOP] = self.state[L.ROUND] + 1
        advance(self.state, self.table)

    @property
    def decider(self) -> int | None:
        """The seat whose decision is pending (None between rounds)."""
        return None if over(self.state) else int(self.state[D_SEAT])

    def legal(self) -> list[str]:
        """The names of the pending decision's legal answers (the rules run on to it first; none once
        the game is over)."""
        self._advance()
        if over(self.state):
            return []
        kind = int(self.state[D_KIND])
        return sorted(self.answer_name(kind, bit) for bit in range(L.N_CARDS) if self.state[D_CHOICES] >> bit & 1)

    @staticmethod
    def answer_name(kind: int, bit: int) -> str:
        if kind in L.CARD_KINDS:
            return L.CARD_NAMES[bit].lower()
        if kind == L.ALLY_ACCEPT:
            return L.ALLY_WORDS[bit]
        return f"seat {bit}"

    def _answer(self, kind: int, answer) -> int:
        """The bit of ``answer`` (a name as ``legal`` lists it, or a seat number) for a decision of
        ``kind``."""
        if isinstance(answer, (int, np.integer)):
            return int(answer)
        for bit in range(L.N_CARDS):
            if self.answer_name(kind, bit) == str(answer).lower():
                return bit
        raise ValueError(f"unknown answer {answer!r}")

    def _apply_posed(self, answer) -> None:
        bit = self._answer(int(self.state[D_KIND]), answer)
        if not self.state[D_CHOICES] >> bit & 1:
            raise ValueError(f"{answer!r} is not a legal answer at this point")
        apply_answer(self.state, self.table, bit)
        advance(self.state, self.table)

    def apply(self, answer) -> None:
        """Answer the pending decision (a name as ``legal`` lists it); the rules run on."""
        self._advance()
        if over(self.state):
            raise ValueError(f"no decision is pending: the answer {answer!r} was not asked for")
        pose_pending(self.state, self.table, self.restrict)
        self._apply_posed(answer)

    # ---- acting -------------------------------------------------------------------------
    def play_round(self, plays: dict[int, str], decisions: list = ()) -> list[str]:
        """Play (the rest of) a round: ``plays`` the card each seat selects, ``decisions`` the other
        answers in the order the rules ask for them (one per decision with more than one legal
        answer). Returns the round's events."""
        if self.over:
            raise ValueError("the game is over")
        if self.state[L.PHASE] == L.PH_ROUND_START:
            for seat in range(self.players):
                legal = self.legal_cards(seat)
                card = plays[seat].lower()
                if card not in legal:
                    raise ValueError(f"seat {seat} cannot play {card}; legal: {legal}")
        first = int(self.state[L.TRACE_LEN])
        vp_before = self.vp
        left = list(decisions)
        self._advance()
        while not over(self.state):
            pose_pending(self.state, self.table, self.restrict)
            if forced(self.state):
                apply_answer(self.state, self.table, answer_of(self.state))
                advance(self.state, self.table)
            elif self.state[D_KIND] == L.SELECT_CARD:
                self._apply_posed(plays[int(self.state[D_SEAT])])
            elif not left:
                raise ValueError("a decision is missing: the rules ask for one more")
            else:
                self._apply_posed(left.pop(0))
        if left:
            raise ValueError(f"{len(left)} decisions were not asked for")
        return describe_events(self.trace[first: self.state[L.TRACE_LEN]], [f"seat {s}" for s in range(self.players)],
                               vp_before)


# ---- the step contract from Python (balance.engine.stepper) ---------------------------------------
class Steps(TableSteps):
    """A setup's games stepped with the batch's compiled functions (balance.engine.stepper); a run is
    a whole game."""

    def __init__(self, setup):
        mind = (new_work_buffer(), new_search_buffers())
        super().__init__(setup, GAME.compile(setup), mind, mind[1][0], L.TRACE_FIELDS,
                         (advance, over, pose_pending, apply_answer), decide_posed, sample_world)

    def start(self, seed: int, deal_index: int) -> Run:
        run = Run(np.empty(L.STATE_SIZE, dtype=np.int64), new_stream(seed, deal_index))
        deal(run.state, self.opts, run.rng)
        return run

    def conserved(self, run: Run) -> bool:
        """Each seat's cards (its deck, OWNED) are in its hand, its discard pile or in play, each in
        one place; the Monarch holds the crown's hand size, every House the House's."""
        s = run.state
        for seat in range(self.players):
            hand, discard, owned = int(s[L.HAND + seat]), int(s[L.DISCARD + seat]), int(s[L.OWNED + seat])
            in_play = sum(1 << int(s[f + seat]) for f in (L.MAIN, L.EXTRA) if s[f + seat] != L.NO_CARD)
            if hand & discard or discard & in_play or (hand | discard | in_play) != owned:
                return False
            crowned = seat == s[L.MONARCH] and self.setup.mode != "two_player"
            if bin(owned).count("1") != (L.MONARCH_HAND_SIZE if crowned else L.HOUSE_HAND_SIZE):
                return False
        return True
