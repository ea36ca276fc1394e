"""A readable DETHRONED position: build a table by hand, list and apply actions, move the clock.

Everything goes through the compiled rules the batch kernel uses (rules.py): ``apply`` checks the
action against ``list_legal`` and calls ``apply_action``; ``advance`` lets attack deadlines expire
in time order (``earliest_deadline`` -> ``credit_candidates`` -> ``kill``), as the event loop does.

    pos = Position(["Fool", "Assassin", "King"], hands=[["2"], ["5", "1", "Double"], ["10"]])
    a = pos.attack(2, "10", 1)          # seat 2 attacks seat 1 with its 10
    pos.defend(1, "5", a); pos.double(1, a, side="defence")
    pos.beaten(a)  -> True
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from balance.games.dethroned import rules
from balance.games.dethroned.game import GAME, describe_action

CARD_KINDS = {name: kind for kind, name in enumerate(rules.KIND_NAMES)}
SIDES = {"attack": rules.SIDE_ATTACK, "defence": rules.SIDE_DEFENCE}


class Position:
    def __init__(self, roles: list[str], hands: list[list[str]], decks: list[list[str]] | None = None,
                 options: dict | None = None, custom_roles: list[dict] | None = None):
        """``roles`` by seat; ``hands`` card names by seat; ``decks`` the undrawn cards by seat, top
        first (default: none left). Cards of a deck in neither are already used (in the centre)."""
        players = len(roles)
        extra = {"roles": list(roles)}
        if custom_roles:
            extra["custom_roles"] = custom_roles
        self.setup = GAME.make_setup("standard", players, [("random", {})] * players, options=options or {},
                                     rotate=False, extra=extra)
        compiled = GAME.compiled(self.setup)
        self.opts = compiled["opts"]
        self.roles = compiled["roles"]
        self.role_names = self.setup.extra["_role_names"]
        self.s = np.zeros(rules.STATE_SIZE, dtype=np.int64)
        seat_roles = np.array([self.role_names.index(r) for r in roles], dtype=np.int64)
        rules.init_state(self.s, players, seat_roles, self.roles, self.opts)
        decks = decks or [[] for _ in roles]
        for p in range(players):
            self._lay_out(p, [CARD_KINDS[c] for c in hands[p]], [CARD_KINDS[c] for c in decks[p]])
        self.legal = np.zeros(rules.MAX_LEGAL, dtype=np.int64)

    def _lay_out(self, p: int, hand: list[int], deck: list[int]) -> None:
        if len(hand) > rules.HAND_SIZE or len(set(hand) | set(deck)) != len(hand) + len(deck):
            raise ValueError(f"seat {p}: a hand holds at most 3 cards and every card exists once")
        used = [k for k in range(rules.DECK_SIZE) if k not in hand and k not in deck]
        order = used + hand + deck
        b = rules.pbase(p)
        self.s[b + rules.PL_DECK: b + rules.PL_DECK + rules.DECK_SIZE] = order
        self.s[b + rules.PL_DECK_POS] = rules.DECK_SIZE - len(deck)
        for k in used:
            self.s[rules.CARD_BASE + rules.card_id(p, k)] = rules.LOC_DISCARD
        for slot, k in enumerate(hand):
            self.s[b + rules.PL_HAND + slot] = k
            self.s[rules.CARD_BASE + rules.card_id(p, k)] = rules.LOC_HAND

    # ---- reading ------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.s[rules.H_PLAYERS])

    @property
    def now(self) -> float:
        return self.s[rules.H_NOW] / 1000

    @property
    def phase(self) -> str:
        return ("combat", "pause", "over")[self.s[rules.H_PHASE]]

    def hand(self, p: int) -> list[str]:
        return [rules.KIND_NAMES[k] for k in self.s[rules.pbase(p) + rules.PL_HAND:][:rules.HAND_SIZE] if k >= 0]

    def alive(self, p: int) -> bool:
        return bool(rules.alive(self.s, p))

    def killed_by(self, p: int) -> int:
        return int(self.s[rules.pbase(p) + rules.PL_KILLED_BY])

    def kills(self, p: int) -> int:
        return int(self.s[rules.pbase(p) + rules.PL_KILLS])

    def defending(self, p: int) -> bool:
        return bool(rules.defending(self.s, p))

    def _exact(self, card: int, exponent: int) -> Fraction:
        return Fraction(card % rules.DECK_SIZE + 1) * Fraction(2) ** int(exponent)

    def value(self, a: int) -> Fraction:
        b = rules.abase(a)
        return self._exact(self.s[b + rules.AT_CARD], self.s[b + rules.AT_EXP])

    def defence_value(self, a: int) -> Fraction | None:
        b = rules.abase(a)
        if self.s[b + rules.AT_DEF_CARD] == rules.NO_CARD:
            return None
        return self._exact(self.s[b + rules.AT_DEF_CARD], self.s[b + rules.AT_DEF_EXP])

    def beaten(self, a: int) -> bool:
        return self.s[rules.abase(a) + rules.AT_STATE] == rules.ATTACK_BEATEN

    def on_table(self, a: int) -> bool:
        return self.s[rules.abase(a) + rules.AT_STATE] != rules.ATTACK_FREE

    def attacker(self, a: int) -> int:
        return int(self.s[rules.abase(a) + rules.AT_OWNER])

    def victim(self, a: int) -> int:
        return int(self.s[rules.abase(a) + rules.AT_VICTIM])

    def won(self) -> list[bool]:
        return [bool(rules.has_won(self.s, self.opts, self.roles, p)) for p in range(self.players)]

    def cards_consistent(self) -> bool:
        return bool(rules.cards_consistent(self.s, np.zeros(rules.MAX_PLAYERS * rules.DECK_SIZE, dtype=np.int64)))

    # ---- acting -------------------------------------------------------------------------------
    def legal_actions(self, p: int) -> list[int]:
        n = rules.list_legal(self.s, self.opts, p, self.legal)
        return [int(x) for x in self.legal[:n]]

    def describe(self, p: int, action: int) -> str:
        card = self.s[rules.pbase(p) + rules.PL_HAND + rules.action_slot(action)]
        return describe_action(action, int(card))

    def apply(self, p: int, action: int) -> None:
        if not self.alive(p):
            raise ValueError(f"seat {p} is dead")
        if action not in self.legal_actions(p):
            raise ValueError(f"seat {p} may not: {self.describe(p, action)}")
        rules.apply_action(self.s, self.opts, p, action)

    def _slot(self, p: int, card: str) -> int:
        hand = self.s[rules.pbase(p) + rules.PL_HAND:][:rules.HAND_SIZE]
        matches = np.flatnonzero(hand == CARD_KINDS[card])
        if len(matches) == 0:
            raise ValueError(f"seat {p} holds no {card}")
        return int(matches[0])

    def attack(self, p: int, card: str, target: int) -> int:
        """Seat p attacks ``target`` with ``card``; returns the attack's index."""
        self.apply(p, rules.encode(rules.ACT_ATTACK, self._slot(p, card), 0, target, 0))
        for a in range(self.s[rules.H_ATTACK_TOP]):
            b = rules.abase(a)
            if (self.s[b + rules.AT_STATE] != rules.ATTACK_FREE and self.s[b + rules.AT_SERIAL]
                    == self.s[rules.H_SERIAL] - 1):
                return a
        raise AssertionError("attack not on the table")

    def defend(self, p: int, card: str, a: int) -> None:
        self.apply(p, rules.encode(rules.ACT_DEFEND, self._slot(p, card), a, 0, 0))

    def double(self, p: int, a: int, side: str = "attack") -> None:
        self.apply(p, rules.encode(rules.ACT_DOUBLE, self._slot(p, "Double"), a, 0, SIDES[side]))

    def halve(self, p: int, a: int, side: str = "attack") -> None:
        self.apply(p, rules.encode(rules.ACT_HALVE, self._slot(p, "Halve"), a, 0, SIDES[side]))

    def redirect(self, p: int, a: int, target: int) -> None:
        self.apply(p, rules.encode(rules.ACT_REDIRECT, self._slot(p, "Redirect"), a, target, 0))

    def bomb(self, p: int, a: int) -> None:
        self.apply(p, rules.encode(rules.ACT_BOMB, self._slot(p, "Bomb"), a, 0, 0))

    def clear(self, p: int) -> None:
        """Clear the beaten attacks in front of p and draw back up to three."""
        self.apply(p, rules.encode(rules.ACT_CLEAR, 0, 0, 0, 0))

    def advance(self, seconds: float, credit_choice: int = 0) -> list[tuple[int, int]]:
        """Let ``seconds`` pass; deadlines that expire kill their victims in time order. Returns
        (victim, credited killer) pairs. ``credit_choice`` picks among equal simultaneous attacks."""
        until = self.s[rules.H_NOW] + round(seconds * 1000)
        deaths = []
        candidates = np.zeros(rules.MAX_ATTACKS, dtype=np.int64)
        while True:
            deadline, a = rules.earliest_deadline(self.s)
            if a < 0 or deadline > until:
                break
            self.s[rules.H_NOW] = deadline
            victim = int(self.s[rules.abase(a) + rules.AT_VICTIM])
            n = rules.credit_candidates(self.s, victim, candidates)
            chosen = int(candidates[min(credit_choice, n - 1)])
            killer = int(self.s[rules.abase(chosen) + rules.AT_CREDIT])
            rules.kill(self.s, self.opts, victim, chosen)
            deaths.append((victim, killer))
        self.s[rules.H_NOW] = until
        return deaths

    def draw(self, p: int) -> int:
        """A free player draws back up to three (the event loop does this at each reaction)."""
        if self.defending(p):
            raise ValueError(f"seat {p} is under attack and may not draw")
        return int(rules.draw_to_full(self.s, p))

    def kill_by(self, killer: int, victim: int, card: str | None = None) -> None:
        """``killer`` attacks ``victim`` (with ``card``, default its highest Battle card) and nobody
        answers: a death with credit, then the game goes on."""
        if card is None:
            battle = [k for k in self.s[rules.pbase(killer) + rules.PL_HAND:][:rules.HAND_SIZE] if rules.is_battle(k)]
            card = rules.KIND_NAMES[max(battle)]
        self.attack(killer, card, victim)
        self.advance((self.opts[rules.O_WINDOW_MS] + self.opts[rules.O_COUNT_MS]) / 1000)
        self.resume()

    def resume(self) -> None:
        """After a pause: clear what is beaten and go on fighting (as a vote to continue does)."""
        rules.clear_all_beaten(self.s)
        self.s[rules.H_PHASE] = rules.PHASE_COMBAT
        self.s[rules.H_DEATHS_SINCE_VOTE] = 0

    def end(self) -> None:
        """The living vote to end the game."""
        rules.end_game(self.s, rules.OUTCOME_VOTE)
