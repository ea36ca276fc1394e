"""A readable DETHRONED position: build a table by hand, list and apply actions, move the clock;
and ``Steps``, a setup's games stepped decision by decision (balance.engine.stepper) with the batch's
compiled rules and policies.

Everything goes through the compiled combat rules the batch kernel uses (combat.py): ``apply`` checks the
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

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.kernels import seat_policies, seat_restrictions
from balance.engine.rng import new_stream
from balance.engine.step import pose_pending
from balance.engine.stepper import Run, Stepper
from balance.games.dethroned import combat
from balance.games.dethroned import layout as L
from balance.games.dethroned.game import GAME, describe_action
from balance.games.dethroned.match import decide_posed, new_table, play_on, start_game
from balance.games.dethroned.policies import (
    MIND_BELIEF, MIND_GRUDGE, MIND_MARKS, MIND_ROLE_COUNT, MIND_SEARCH, forget_plans, init_beliefs, prepare_search,
    sample_world, step_advance, step_answer, step_apply)
from balance.games.dethroned.rules import TABLE_TRACE, begin_move, over, pend

CARD_KINDS = {name: kind for kind, name in enumerate(L.KIND_NAMES)}
SIDES = {"attack": L.SIDE_ATTACK, "defence": L.SIDE_DEFENCE}


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
        compiled = GAME.compile(self.setup)
        self.opts = compiled.opts
        self.roles = compiled.roles
        self.role_names = compiled.role_names
        self.s = np.zeros(L.STATE_SIZE, dtype=np.int64)
        seat_roles = np.array([self.role_names.index(r) for r in roles], dtype=np.int64)
        combat.init_state(self.s, players, seat_roles, self.roles, self.opts)
        decks = decks or [[] for _ in roles]
        for p in range(players):
            self._lay_out(p, [CARD_KINDS[c] for c in hands[p]], [CARD_KINDS[c] for c in decks[p]])
        self.legal = np.zeros(L.MAX_LEGAL, dtype=np.int64)

    def _lay_out(self, p: int, hand: list[int], deck: list[int]) -> None:
        if len(hand) > L.HAND_SIZE or len(set(hand) | set(deck)) != len(hand) + len(deck):
            raise ValueError(f"seat {p}: a hand holds at most 3 cards and every card exists once")
        used = [k for k in range(L.DECK_SIZE) if k not in hand and k not in deck]
        order = used + hand + deck
        b = L.pbase(p)
        self.s[b + L.PL_DECK: b + L.PL_DECK + L.DECK_SIZE] = order
        self.s[b + L.PL_DECK_POS] = L.DECK_SIZE - len(deck)
        for k in used:
            self.s[L.CARD_BASE + L.card_id(p, k)] = L.LOC_DISCARD
        for slot, k in enumerate(hand):
            self.s[b + L.PL_HAND + slot] = k
            self.s[L.CARD_BASE + L.card_id(p, k)] = L.LOC_HAND

    # ---- reading ------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.s[L.H_PLAYERS])

    @property
    def now(self) -> float:
        return self.s[L.H_NOW] / 1000

    @property
    def phase(self) -> str:
        return ("combat", "pause", "over")[self.s[L.H_PHASE]]

    def hand(self, p: int) -> list[str]:
        return [L.KIND_NAMES[k] for k in self.s[L.pbase(p) + L.PL_HAND:][:L.HAND_SIZE] if k >= 0]

    def alive(self, p: int) -> bool:
        return bool(combat.alive(self.s, p))

    def killed_by(self, p: int) -> int:
        return int(self.s[L.pbase(p) + L.PL_KILLED_BY])

    def kills(self, p: int) -> int:
        return int(self.s[L.pbase(p) + L.PL_KILLS])

    def defending(self, p: int) -> bool:
        return bool(combat.defending(self.s, p))

    def _exact(self, card: int, exponent: int) -> Fraction:
        return Fraction(card % L.DECK_SIZE + 1) * Fraction(2) ** int(exponent)

    def value(self, a: int) -> Fraction:
        b = L.abase(a)
        return self._exact(self.s[b + L.AT_CARD], self.s[b + L.AT_EXP])

    def defence_value(self, a: int) -> Fraction | None:
        """The defence's exact value (with defence_cards = "stack", the earlier cards' too)."""
        b = L.abase(a)
        if self.s[b + L.AT_DEF_CARD] == L.NO_CARD:
            return None
        stacked = Fraction(int(self.s[b + L.AT_DEF_STACK]), L.DEFENCE_UNITS)
        return self._exact(self.s[b + L.AT_DEF_CARD], self.s[b + L.AT_DEF_EXP]) + stacked

    def beaten(self, a: int) -> bool:
        return self.s[L.abase(a) + L.AT_STATE] == L.ATTACK_BEATEN

    def on_table(self, a: int) -> bool:
        return self.s[L.abase(a) + L.AT_STATE] != L.ATTACK_FREE

    def attacker(self, a: int) -> int:
        return int(self.s[L.abase(a) + L.AT_OWNER])

    def victim(self, a: int) -> int:
        return int(self.s[L.abase(a) + L.AT_VICTIM])

    def won(self) -> list[bool]:
        return [bool(combat.has_won(self.s, self.opts, self.roles, p)) for p in range(self.players)]

    def cards_consistent(self) -> bool:
        return bool(combat.cards_consistent(self.s, np.zeros(L.MAX_PLAYERS * L.DECK_SIZE, dtype=np.int64)))

    # ---- acting -------------------------------------------------------------------------------
    def legal_actions(self, p: int) -> list[int]:
        n = combat.list_legal(self.s, self.opts, p, self.legal)
        return [int(x) for x in self.legal[:n]]

    def describe(self, p: int, action: int) -> str:
        card = self.s[L.pbase(p) + L.PL_HAND + L.action_slot(action)]
        return describe_action(action, int(card))

    def apply(self, p: int, action: int) -> None:
        if not self.alive(p):
            raise ValueError(f"seat {p} is dead")
        if action not in self.legal_actions(p):
            raise ValueError(f"seat {p} may not: {self.describe(p, action)}")
        combat.apply_action(self.s, self.opts, p, action)

    def _slot(self, p: int, card: str) -> int:
        hand = self.s[L.pbase(p) + L.PL_HAND:][:L.HAND_SIZE]
        matches = np.flatnonzero(hand == CARD_KINDS[card])
        if len(matches) == 0:
            raise ValueError(f"seat {p} holds no {card}")
        return int(matches[0])

    def attack(self, p: int, card: str, target: int) -> int:
        """Seat p attacks ``target`` with ``card``; returns the attack's index."""
        self.apply(p, L.encode(L.ACT_ATTACK, self._slot(p, card), 0, target, 0))
        for a in range(self.s[L.H_ATTACK_TOP]):
            b = L.abase(a)
            if (self.s[b + L.AT_STATE] != L.ATTACK_FREE and self.s[b + L.AT_SERIAL]
                    == self.s[L.H_SERIAL] - 1):
                return a
        raise AssertionError("attack not on the table")

    def defend(self, p: int, card: str, a: int) -> None:
        self.apply(p, L.encode(L.ACT_DEFEND, self._slot(p, card), a, 0, 0))

    def double(self, p: int, a: int, side: str = "attack") -> None:
        self.apply(p, L.encode(L.ACT_DOUBLE, self._slot(p, "Double"), a, 0, SIDES[side]))

    def halve(self, p: int, a: int, side: str = "attack") -> None:
        self.apply(p, L.encode(L.ACT_HALVE, self._slot(p, "Halve"), a, 0, SIDES[side]))

    def redirect(self, p: int, a: int, target: int) -> None:
        self.apply(p, L.encode(L.ACT_REDIRECT, self._slot(p, "Redirect"), a, target, 0))

    def redirect_defence(self, p: int, a: int, target: int) -> None:
        """Main rules' reading (option redirect_defending_card): Redirect attack a's defending card."""
        self.apply(p, L.encode(L.ACT_REDIRECT, self._slot(p, "Redirect"), a, target, L.SIDE_DEFENCE))

    def overwrite(self, p: int, card: str, a: int) -> None:
        """Detailed rules' reading (option attack_by_overwrite): a larger card over another's attack."""
        self.apply(p, L.encode(L.ACT_OVERWRITE, self._slot(p, card), a, 0, 0))

    def bomb(self, p: int, a: int) -> None:
        self.apply(p, L.encode(L.ACT_BOMB, self._slot(p, "Bomb"), a, 0, 0))

    def clear(self, p: int) -> None:
        """Clear the beaten attacks in front of p and draw back up to three."""
        self.apply(p, L.encode(L.ACT_CLEAR, 0, 0, 0, 0))

    def advance(self, seconds: float, credit_choice: int = 0) -> list[tuple[int, int]]:
        """Let ``seconds`` pass; deadlines that expire kill their victims in time order. Returns
        (victim, credited killer) pairs. ``credit_choice`` picks among equal simultaneous attacks."""
        until = self.s[L.H_NOW] + round(seconds * 1000)
        deaths = []
        candidates = np.zeros(L.MAX_ATTACKS, dtype=np.int64)
        while True:
            deadline, a = combat.earliest_deadline(self.s)
            if a < 0 or deadline > until:
                break
            self.s[L.H_NOW] = deadline
            victim = int(self.s[L.abase(a) + L.AT_VICTIM])
            n = combat.credit_candidates(self.s, victim, candidates)
            chosen = int(candidates[min(credit_choice, n - 1)])
            killer = int(self.s[L.abase(chosen) + L.AT_CREDIT])
            combat.kill(self.s, self.opts, victim, chosen)
            deaths.append((victim, killer))
        self.s[L.H_NOW] = until
        return deaths

    def draw(self, p: int) -> int:
        """A free player draws back up to three (the event loop does this at each reaction)."""
        if self.defending(p):
            raise ValueError(f"seat {p} is under attack and may not draw")
        return int(combat.draw_to_full(self.s, p))

    def kill_by(self, killer: int, victim: int, card: str | None = None) -> None:
        """``killer`` attacks ``victim`` (with ``card``, default its highest Battle card) and nobody
        answers: a death with credit, then the game goes on."""
        if card is None:
            battle = [k for k in self.s[L.pbase(killer) + L.PL_HAND:][:L.HAND_SIZE] if L.is_battle(k)]
            card = L.KIND_NAMES[max(battle)]
        self.attack(killer, card, victim)
        self.advance((self.opts[L.O_WINDOW_MS] + self.opts[L.O_COUNT_MS]) / 1000)
        self.resume()

    def resume(self) -> None:
        """After a pause: clear what is beaten and go on fighting (as a vote to continue does)."""
        combat.clear_all_beaten(self.s)
        self.s[L.H_PHASE] = L.PHASE_COMBAT

    def end(self) -> None:
        """The living vote to end the game."""
        combat.end_game(self.s, L.OUTCOME_VOTE)


# ---- the step contract from Python (balance.engine.stepper) ---------------------------------------
class GameRun(Run):
    """A DETHRONED run: ``extra`` is (the loop's table, the seats' restrictions in this game)."""

    def copy(self) -> "GameRun":
        """A run whose state, stream, beliefs, marks and scratch are its own (an array met twice, as
        the stream is, stays one array)."""
        memo: dict[int, np.ndarray] = {}

        def copied(x):
            if isinstance(x, np.ndarray):
                if id(x) not in memo:
                    memo[id(x)] = x.copy()
                return memo[id(x)]
            return tuple(copied(y) for y in x) if isinstance(x, tuple) else x

        extra = copied(self.extra)
        return GameRun(self.state.copy(), copied(self.rng), extra)


class Steps(Stepper):
    """A setup's games stepped with the batch's compiled step kernel, its loop's ``decide`` and its
    search's ``sample_world`` (balance.engine.stepper); a run is a whole game. Seats sit as the
    setup's policy slots at ``rotation``. A run's ``extra`` is the loop's table (the rules' table and
    the policies' mind: beliefs, marks, scratch) with the run's stream, a trace of ``trace_size`` rows
    and, ``checked``, the rules' checks (an illegal move or a card out of place stops the game)."""

    def __init__(self, setup, rotation: int = 0, trace_size: int = 0, checked: bool = False):
        self.setup, self.players = setup, setup.players
        self.compiled = GAME.compile(setup)
        self.codes = np.zeros(setup.players, dtype=np.int64)
        self.params = np.zeros_like(setup.policy_params)
        self.slot_restrict = np.zeros_like(setup.restrict)
        seat_policies(rotation, setup.policy_codes, setup.policy_params, self.codes, self.params)
        seat_restrictions(rotation, setup.restrict, self.slot_restrict)
        self.trace_size, self.checked = trace_size, checked

    def start(self, seed: int, deal: int) -> Run:
        c = self.compiled
        stream = new_stream(np.uint64(seed), deal)
        table = new_table(c.opts, c.roles, c.want_cond, c.want_kill, c.want_total, c.role_count,
                          self.codes, self.params, stream, np.zeros((self.trace_size, L.TRACE_FIELDS), dtype=np.int64),
                          self.checked)
        run = GameRun(np.zeros(L.STATE_SIZE, dtype=np.int64), stream, (table, self.slot_restrict.copy()))
        start_game(run.state, table, stream, c.roles, c.setup_roles, run.extra[1], c.restricted_role)
        return run

    @staticmethod
    def table(run: Run) -> tuple:
        return run.extra[0]

    @staticmethod
    def restrict(run: Run) -> np.ndarray:
        """The seats' restrictions in this game (a restricted role's binds only the seat dealt it)."""
        return run.extra[1]

    def trace(self, run: Run) -> np.ndarray:
        return self.table(run)[0][TABLE_TRACE]

    def advance(self, run: Run) -> None:
        step_advance(run.state, self.table(run))

    def over(self, run: Run) -> bool:
        return bool(over(run.state))

    def pose(self, run: Run) -> None:
        pose_pending(run.state, self.table(run), self.restrict(run))

    def decide(self, run: Run) -> int:
        return int(decide_posed(run.state, self.table(run), run.rng, self.codes, self.params, self.restrict(run)))

    def apply(self, run: Run, answer: int) -> None:
        step_apply(run.state, self.table(run), answer)

    def play(self, run: Run) -> None:
        """The rest of the game, as the batch plays it."""
        play_on(run.state, self.table(run), run.rng, self.codes, self.params, self.restrict(run))

    def world(self, run: Run, seat: int, stream: np.ndarray) -> Run:
        """A world dealt from ``seat``'s view as its search deals them (its beliefs, the grudges on
        the table): other roles dealt again, hidden cards shuffled, others' reaction times drawn."""
        world = run.copy()
        mind = self.table(world)[1]
        opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, marks, search = mind
        ints, floats = search[:2]
        prepare_search(run.state, seat, roles, want_cond, want_kill, want_total, role_count, belief, grudge, ints,
                       floats)
        sample_world(run.state, world.state, seat, opts, ints, stream)
        return world

    def conserved(self, run: Run) -> bool:
        return bool(combat.cards_consistent(run.state, np.zeros(L.MAX_PLAYERS * L.DECK_SIZE, dtype=np.int64)))

    def at(self, s: np.ndarray, seed: int = 0) -> Run:
        """A run at position ``s`` (a state met in play or built by hand), every listener's beliefs
        at their prior, no plans, its stream ``(seed, 0)``."""
        run = self.start(seed, 0)
        run.state[:] = s
        mind = self.table(run)[1]
        init_beliefs(run.state, mind[MIND_ROLE_COUNT], mind[MIND_BELIEF], mind[MIND_GRUDGE])
        forget_plans(mind[MIND_MARKS])
        return run

    def reaction(self, run: Run, p: int) -> int:
        """The move p makes if its reaction comes now (it has drawn): each of its steps posed,
        narrowed by its restriction and answered by its policy (or search), the move applied."""
        s = run.state
        begin_move(s)
        pend(s, p, L.DK_ACTION, combat.legal_kinds(s, self.compiled.opts, p), L.STAGE_REACTION_POSED)
        while s[L.H_STAGE] == L.STAGE_REACTION_POSED:
            self.pose(run)
            self.apply(run, self.decide(run))
        return int(s[L.H_SEEN_ACTION])

    def vote(self, run: Run, p: int) -> int:
        """p's vote if a vote were held now: PASS (to end), or the attack it continues with."""
        s = run.state
        s[L.H_VOTE_BEST], s[L.H_VOTER] = -1, s[L.H_PLAYERS]  # p votes last: its vote settles nothing else
        begin_move(s)
        choices = 1 << L.VOTE_END | (1 << L.VOTE_CONTINUE if combat.attack_targets(s, p) else 0)
        pend(s, p, L.DK_VOTE, choices, L.STAGE_VOTE_POSED)
        while s[L.H_STAGE] == L.STAGE_VOTE_POSED:
            self.pose(run)
            self.apply(run, self.decide(run))
        return int(s[L.H_SEEN_ACTION]) if s[L.H_VOTE_BEST] == p else L.encode(L.ACT_PASS, 0, 0, 0, 0)

    def play_script(self, run: Run, script: np.ndarray) -> None:
        """The rest of the game with every seat's moves from ``script`` (``script[p, k]``: the action
        of p's k-th move at a reaction or a vote; -1 or past the end: pass); claims are truthful,
        credit goes to the first candidate, forced steps are taken as posed. A scripted step the
        rules do not pose raises ValueError."""
        read = [0] * self.players
        plan = [0] * self.players
        while self.next_decision(run):
            s = run.state
            p, kind, choices = int(s[D_SEAT]), int(s[D_KIND]), int(s[D_CHOICES])
            if choices & (choices - 1) == 0:
                answer = choices.bit_length() - 1
            elif kind == L.DK_CLAIM:
                answer = L.CLAIM_TRUTH
            elif kind == L.DK_CREDIT:
                answer = (choices & -choices).bit_length() - 1
            else:
                if kind in (L.DK_ACTION, L.DK_VOTE):
                    k = read[p]
                    move = int(script[p, k]) if k < script.shape[1] else -1
                    read[p] = k + 1
                    plan[p] = L.encode(L.ACT_PASS, 0, 0, 0, 0) if move < 0 else move
                answer = int(step_answer(s, plan[p], kind))
                if not choices >> answer & 1:
                    raise ValueError(f"seat {p}'s scripted move {plan[p]} is not legal at its "
                                     f"{L.DECISION_NAMES[kind]} step")
            self.apply(run, answer)

