"""A readable position API over the compiled rules (the same functions the batch kernel runs).

    from balance.games.imposter_kings.positions import Position
    pos = Position.build(
        hands={0: ["Soldier", "Elder"], 1: ["Queen", "Fool"]},
        successors={0: "Mystic", 1: "Warlord"},
        court=["Inquisitor", "Princess"],          # oldest first; the last card is the Throne
        disgraced=[0],                             # Court indices that are Disgraced
        turn=0, mode="full")
    pos.legal()            # ["Elder", "flip"]  (readable names of the pending decision's actions)
    pos.apply("Elder")     # performs it and runs to the next decision
    pos.court(), pos.throne_value, pos.hand(1), pos.phase, pos.decider, pos.winner, pos.points

Actions may be given as readable names ("Soldier", "King's Hand", "flip", "yes", "no",
"clockwise", "counterclockwise") or as numbers: a Court index at the Fool / Soldier-disgrace /
Sentry decisions, the named number at the Mystic's and the Executioner's, a seat at "pick a
player", the clockwise offset from the True King at Cutthroat's first-player choice.

Cutthroat (mode "cutthroat", 3 seats): ``Position.deal("cutthroat", ...)`` starts at the Reveal;
``Position.build(..., mode="cutthroat")`` builds a position in play (``out=[seat, ...]`` lists
players already knocked out, first first; ``direction=-1`` plays counterclockwise).

Step 4's Kings: ``kings={seat: "Master Tactician"}`` (or "Charismatic Leader") and ``squires={seat: name}``
build a facet King's position; while mustering "king" (the flip's code) chooses a new King, then the
King's name; the flipped facet King's choices are "yes" / "no" (``pick_for`` says which).

2v2 (mode "two_v_two", 4 seats, partners 0 & 2 against 1 & 3): ``Position.deal("two_v_two", ...)``
starts at the Reveal; at "pick a card" the take answers "fourth" for the partner's face-down fourth
card and the trade answers "done" (or "no") to stop placing cards. ``scores`` are the two teams'.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.game import SetupError
from balance.engine.stepper import Run, Stepper
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.engine.rng import STREAM_SIZE, below, open_stream
from balance.games.imposter_kings.match import POLICY_SALT, choose_signatures, decide_posed, game_buffers
from balance.games.imposter_kings.policies import sample_world
from balance.games.imposter_kings.options import MODE_PLAYERS, OPTIONS, config_row

INDEX_PHASES = (L.PH_FOOL, L.PH_SOLDIER_DISGRACE, L.PH_SENTRY_PICK, L.PH_PICK_COURT)
NUMBER_PHASES = (L.PH_MYSTIC, L.PH_EXECUTIONER, L.PH_FIRST_SEAT, L.PH_PICK_PLAYER)
WORDS = {"flip": L.ACT_FLIP, "yes": L.ACT_YES, "no": L.ACT_NO, "decline": L.ACT_NO, "stop": L.ACT_NO,
         "fourth": L.ACT_FOURTH, "done": L.ACT_NO, "king": L.ACT_FLIP, "mercenary": L.ACT_FLIP, "keep": L.ACT_NO,
         "clockwise": L.ACT_YES, "counterclockwise": L.ACT_NO}


def action_name(phase: int, action: int, pick_for: int = -1) -> str | int:
    """A decision's action as the API reads and writes it (a card name, a word or a number)."""
    if phase == L.PH_PICK_CARD and pick_for == L.PICK_PARTNER_TAKE and action == L.ACT_FOURTH:
        return "fourth"
    if phase == L.PH_PICK_CARD and pick_for == L.PICK_TRADE and action == L.ACT_NO:
        return "done"
    if phase == L.PH_DIRECTION:
        return "clockwise" if action == L.ACT_YES else "counterclockwise"
    if phase == L.PH_KING:  # the Mercenary muster's King step may keep the King (ACT_NO)
        return "keep" if action == L.ACT_NO else L.FACET_NAMES[action]
    if phase == L.PH_PICK_CARD and pick_for == L.PICK_MUSTER and action == L.ACT_FLIP:
        return "king"
    if phase == L.PH_PICK_CARD and action == L.ACT_FLIP:  # the Mercenary muster's one use of the code
        return "mercenary"
    if action == L.ACT_YES:
        return "yes"
    if action == L.ACT_NO:
        return "no"
    if phase == L.PH_TURN and action == L.ACT_FLIP:
        return "flip"
    if phase in INDEX_PHASES or phase in NUMBER_PHASES:
        return action
    return L.NAMES[action]


def king_of(name: str) -> int:
    """A King facet code from its name ("Master Tactician", "charismatic leader", "King")."""
    for facet, facet_name in enumerate(L.FACET_NAMES):
        if facet_name.lower() == name.lower():
            return facet
    raise SetupError("king", f"unknown King '{name}' (known: {', '.join(L.FACET_NAMES)})")


def _state_field(offset: int, doc: str) -> property:
    """A read-only int property over one state field."""
    return property(lambda self: int(self.s[offset]), doc=doc)


def _types(names) -> list[int]:
    return [L.type_of(n) for n in (names or [])]


@dataclass
class Position:
    s: np.ndarray
    cfg: np.ndarray

    # ---- building ------------------------------------------------------------------------
    @classmethod
    def build(cls, hands: dict, successors: dict | None = None, dungeons: dict | None = None,
              court: list | None = None, disgraced: list | None = None, soldier_bonus: list | None = None,
              antechambers: dict | None = None, condemned: dict | None = None, flipped: dict | None = None,
              removed: list | None = None, accused: str = "Judge", unused: str | None = None, muted: int = 0,
              known: dict | None = None, turn: int = 0, mode: str = "full", options: dict | None = None,
              scores: tuple | None = None, true_king: int = 0, out: list | None = None, direction: int = 1,
              condemned_hidden: dict | None = None, armies: dict | None = None, exhausted: dict | None = None,
              army_taken: dict | None = None, kings: dict | None = None,
              squires: dict | None = None) -> "Position":
        """A position at the start of seat ``turn``'s turn (Condemned/Antechamber rules apply).
        ``known``: {observer: names} (2 players: of the opponent's hand) or {(observer, owner): names}.
        The Army step: ``armies`` / ``exhausted`` / ``army_taken`` ({seat: names}) replace a seat's
        Army (default: the mode's whole Army), its Exhaust zone and the Army cards it took this round
        (already in its hand). Step 4: ``kings`` ({seat: King name}) and ``squires`` ({seat: name}).
        A Charismatic Leader's Successor is revealed (the round has started)."""
        opts = {o.name: o.default for o in OPTIONS}
        opts.update(options or {})
        cfg = config_row(mode, opts)
        players = MODE_PLAYERS[mode]
        s = np.zeros(L.STATE_SIZE, dtype=np.int64)
        for p in range(L.PLAYERS):
            s[L.SUCCESSOR + p] = s[L.DUNGEON + p] = s[L.TAKEN + p] = s[L.PARTNER_CARD + p] = s[L.SQUIRE + p] = -1
            for o in range(L.PLAYERS):
                s[L.KNOWN_SUCCESSOR + o * L.PLAYERS + p] = -1
        for p, name in (kings or {}).items():
            s[L.KING_FACET + p] = king_of(name)
        for p, names in hands.items():
            for t in _types(names):
                s[L.HAND + p * L.TYPES + t] += 1
        for p, names in (antechambers or {}).items():
            for t in _types(names):
                s[L.ANTE + p * L.TYPES + t] += 1
        for key, names in (known or {}).items():
            observer, owner = key if isinstance(key, tuple) else (key, 1 - key)
            for t in _types(names):
                s[L.known_at(observer, owner) + t] += 1
        for zone, given in ((L.SUCCESSOR, successors), (L.DUNGEON, dungeons), (L.SQUIRE, squires)):
            for p, name in (given or {}).items():
                s[zone + p] = L.type_of(name) if name else -1
        for zone, given in ((L.CONDEMNED, condemned), (L.CONDEMNED_HIDDEN, condemned_hidden)):
            for p, name in (given or {}).items():
                if name:
                    s[zone + p * L.TYPES + L.type_of(name)] += 1
        for k, p in enumerate(out or []):
            s[L.OUT + p] = k + 1
            s[L.OUT_BONUS + p] = int(any(s[L.HAND + p * L.TYPES:L.HAND + (p + 1) * L.TYPES]) or s[L.SUCCESSOR + p] >= 0)
        s[L.OUT_COUNT] = len(out or [])
        s[L.DIRECTION] = direction
        for p, value in (flipped or {}).items():
            s[L.FLIPPED + p] = int(bool(value))
        for t in _types(court):
            R.push_court(s, t)
        for i in disgraced or []:
            R.disgrace(s, i)
        for i in soldier_bonus or []:
            s[L.COURT_FLAGS + i] |= L.FLAG_BONUS
        for t in _types(removed):
            s[L.REMOVED + t] += 1
        R.open_armies(s, cfg)
        R.open_signatures(s, cfg)
        for zone, given in ((L.ARMY, armies), (L.EXHAUST, exhausted), (L.ARMY_TAKEN, army_taken)):
            for p, names in (given or {}).items():
                s[zone + p * L.TYPES:zone + (p + 1) * L.TYPES] = 0
                for t in _types(names):
                    s[zone + p * L.TYPES + t] += 1
        s[L.ACCUSED] = L.type_of(accused)
        s[L.UNUSED] = L.type_of(unused) if unused else -1
        s[L.MUTED] = muted
        s[L.WINNER] = -1
        s[L.SECOND] = -1
        s[L.CHOOSER] = -1
        s[L.FIRST] = turn
        s[L.CURRENT] = turn
        sides = R.side_count(cfg[L.CFG_TEAMS], players)
        s[L.SCORE:L.SCORE + sides] = scores or (0,) * sides
        s[L.TRUE_KING] = true_king
        R.reveal_leaders(s, cfg)
        s[L.PHASE] = L.PH_START
        R.advance(s, cfg)
        return cls(s, cfg)

    @classmethod
    def deal(cls, mode: str = "full", seed: int = 0, options: dict | None = None, true_king: int = 0,
             rotation: int = 0, hands: dict | None = None, accused: str | None = None,
             kings: dict | None = None, mercenaries: list | None = None) -> "Position":
        """A freshly dealt round at its first decision (the first-player choice; Cutthroat's Reveal),
        through the kernel's deal. ``hands`` ({seat: names}) and ``accused`` replace the dealt ones
        (a scripted deal; nothing before the first decision reads the hands); ``kings`` ({seat: King
        name}) the Kings the seats start the round with (Step 4); ``mercenaries`` the Mercenary area dealt."""
        from balance.engine.rng import new_stream

        s, cfg = _match_start(mode, options, true_king)
        for p, name in (kings or {}).items():
            s[L.KING_FACET + p] = king_of(name)
        R.deal_round(s, cfg, new_stream(seed, 0), rotation, np.zeros(L.MAX_CARDS, dtype=np.int64))
        for p, names in (hands or {}).items():
            s[L.HAND + p * L.TYPES:L.HAND + (p + 1) * L.TYPES] = 0
            for t in _types(names):
                s[L.HAND + p * L.TYPES + t] += 1
        if accused:
            s[L.ACCUSED] = L.type_of(accused)
        if mercenaries is not None:  # the Mercenary area dealt this round
            s[L.MERC:L.MERC + L.TYPES] = 0
            for t in _types(mercenaries):
                s[L.MERC + t] += 1
            s[L.MERC_DEALT:L.MERC_DEALT + L.TYPES] = s[L.MERC:L.MERC + L.TYPES]
        return cls(s, cfg)

    @classmethod
    def signature_choice(cls, seed: int = 0, options: dict | None = None, true_king: int = 0,
                         mode: str = "signature_step") -> "Position":
        """Step 3's match start, at its first choice of Signature Cards (or, when none is posed, with
        nothing pending: ``over``), through the kernel (the match loop's ``start_signatures``)."""
        from balance.engine.rng import new_stream

        s, cfg = _match_start(mode, options, true_king)
        R.start_signatures(s, cfg, new_stream(seed, 0), np.zeros(L.MAX_CARDS, dtype=np.int64))
        return cls(s, cfg)

    def copy(self) -> "Position":
        return Position(self.s.copy(), self.cfg)

    # ---- actions -------------------------------------------------------------------------
    def legal_codes(self) -> list[int]:
        out = np.zeros(L.MAX_ACTIONS, dtype=np.int64)
        if self.s[L.PHASE] in (L.PH_ROUND_OVER, L.PH_REDEAL):
            return []
        n = R.answers(R.legal_mask(self.s, self.cfg), out)
        return [int(a) for a in out[:n]]

    def legal(self) -> list:
        return [action_name(self.phase_code, a, int(self.s[L.PICK_FOR])) for a in self.legal_codes()]

    def code_of(self, action) -> int:
        if isinstance(action, (int, np.integer)):
            return int(action)
        word = action.lower()
        if word in WORDS:
            return WORDS[word]
        if self.phase_code == L.PH_KING:
            return king_of(action)
        return L.type_of(action)

    def apply(self, action) -> "Position":
        code = self.code_of(action)
        legal = self.legal_codes()
        if code not in legal:
            raise SetupError("action", f"{action!r} is not legal at the {self.phase} decision "
                                       f"(legal: {self.legal()})")
        R.apply_action(self.s, self.cfg, code)
        return self

    def play(self, *actions) -> "Position":
        for a in actions:
            self.apply(a)
        return self

    # ---- reading back ----------------------------------------------------------------------
    @property
    def phase_code(self) -> int:
        return int(self.s[L.PHASE])

    @property
    def phase(self) -> str:
        return L.PHASE_NAMES[self.phase_code]

    @property
    def pick_for(self) -> str | None:
        """What a "pick a player" / "pick a card" / "pick a Court card" decision (or a flipped facet
        King's choice) is for (None at other decisions)."""
        if self.phase_code in (L.PH_PICK_PLAYER, L.PH_PICK_CARD, L.PH_PICK_COURT, L.PH_FACET_TAKE):
            return L.PICK_NAMES[self.s[L.PICK_FOR]]
        return None

    decider = _state_field(L.DECIDER, "the seat that decides the pending decision")
    turn = _state_field(L.CURRENT, "the seat whose turn it is")
    winner = _state_field(L.WINNER, "the round's winner (-1 while it runs)")
    points = _state_field(L.POINTS, "the points the round's winner scored")

    @property
    def over(self) -> bool:
        return self.phase_code == L.PH_ROUND_OVER

    @property
    def throne_value(self) -> int:
        return int(R.throne_value(self.s, self.cfg))

    def score(self, p: int) -> int:
        return int(self.s[L.SCORE + p])

    def _names(self, start: int) -> list[str]:
        """The cards of a per-type count zone starting at state offset ``start``."""
        return [L.NAMES[t] for t in range(L.TYPES) for _ in range(self.s[start + t])]

    def hand(self, p: int) -> list[str]:
        return self._names(L.HAND + p * L.TYPES)

    def antechamber(self, p: int) -> list[str]:
        return self._names(L.ANTE + p * L.TYPES)

    def successor(self, p: int) -> str | None:
        t = self.s[L.SUCCESSOR + p]
        return L.NAMES[t] if t >= 0 else None

    def squire(self, p: int) -> str | None:
        """Step 4: the Master Tactician's Squire (None: none)."""
        t = self.s[L.SQUIRE + p]
        return L.NAMES[t] if t >= 0 else None

    def king(self, p: int) -> str:
        """Step 4: p's King ("King", "Master Tactician" or "Charismatic Leader")."""
        return L.FACET_NAMES[self.s[L.KING_FACET + p]]

    def condemned(self, p: int) -> str | None:
        """The first of p's face-up Condemned cards (None: none)."""
        names = self._names(L.CONDEMNED + p * L.TYPES)
        return names[0] if names else None

    def condemned_face_down(self, p: int) -> list[str]:
        return self._names(L.CONDEMNED_HIDDEN + p * L.TYPES)

    def removed_face_down(self) -> list[str]:
        return self._names(L.REMOVED_HIDDEN)

    def revealed(self, p: int) -> list[str]:
        """Cutthroat: p's revealed cards in front of it (and the one it took in the Exchange)."""
        taken = self.s[L.TAKEN + p]
        return self._names(L.REVEALED + p * L.TYPES) + ([L.NAMES[taken]] if taken >= 0 else [])

    def placed(self, p: int) -> list[str]:
        """Cards p has placed face down (for the Reveal, or 2v2's Trade)."""
        return self._names(L.PLACED + p * L.TYPES)

    def partner_card(self, p: int) -> str | None:
        """2v2: p's fourth card, face down for its partner (None: none)."""
        t = self.s[L.PARTNER_CARD + p]
        return L.NAMES[t] if t >= 0 else None

    def knows_successor(self, p: int, owner: int) -> str | None:
        """The Successor p has seen of ``owner`` (2v2's partners, the Spy), None: not seen."""
        t = self.s[L.KNOWN_SUCCESSOR + p * L.PLAYERS + owner]
        return L.NAMES[t] if t >= 0 else None

    def out(self, p: int) -> int:
        """0 while p is in the round; k once p is the k-th player knocked out."""
        return int(self.s[L.OUT + p])

    @property
    def accused(self) -> str:
        return L.NAMES[self.s[L.ACCUSED]]

    @property
    def players(self) -> int:
        return int(self.cfg[L.CFG_PLAYERS])

    second = _state_field(L.SECOND, "the round's second place (Cutthroat; -1 otherwise)")
    first = _state_field(L.FIRST, "the seat that went (goes) first")
    direction = _state_field(L.DIRECTION, "+1 clockwise, -1 counterclockwise")
    true_king = _state_field(L.TRUE_KING, "the True King's holder")

    def flipped(self, p: int) -> bool:
        return bool(self.s[L.FLIPPED + p])

    def army(self, p: int) -> list[str]:
        """The Army step: the cards in p's Army."""
        return self._names(L.ARMY + p * L.TYPES)

    def exhausted(self, p: int) -> list[str]:
        """The Army step: p's Exhaust zone."""
        return self._names(L.EXHAUST + p * L.TYPES)

    def army_taken(self, p: int) -> list[str]:
        """The Army step: the Army cards p took into its hand this round."""
        return self._names(L.ARMY_TAKEN + p * L.TYPES)

    def signatures(self, p: int) -> list[str]:
        """Step 3: the Signature Cards p has chosen (secret until every player has chosen)."""
        return self._names(L.SIGNATURES + p * L.TYPES)

    def draft(self) -> list[str]:
        """Tournament Mode: the draft's face-up cards."""
        return self._names(L.DRAFT)

    def mercenaries(self) -> list[str]:
        """The Mercenary area (face up)."""
        return self._names(L.MERC)

    def bid(self, p: int) -> int:
        """p's bid total (its revealed bid cards, and its extra card once revealed)."""
        return int(R.bid_total(self.s, self.cfg, p))

    def removed(self) -> list[str]:
        return self._names(L.REMOVED)

    def known(self, p: int, owner: int | None = None) -> list[str]:
        """Cards seat p knows to be in ``owner``'s hand (default: the opponent's, 2 players)."""
        return self._names(L.known_at(p, 1 - p if owner is None else owner))

    def court(self) -> list[str]:
        """Oldest first; Disgraced cards as 'Name (disgraced)'."""
        out = []
        for i in range(self.s[L.COURT_LEN]):
            name = L.NAMES[self.s[L.COURT_TYPE + i]]
            out.append(f"{name} (disgraced)" if R.is_disgraced(self.s, i) else name)
        return out

    def court_values(self) -> list[int]:
        return [int(R.court_value(self.s, self.cfg, i)) for i in range(self.s[L.COURT_LEN])]

    def card_counts(self) -> np.ndarray:
        return R.count_cards(self.s)

    def describe(self) -> str:
        lines = [f"phase: {self.phase} (seat {self.decider} decides); turn: seat {self.turn}",
                 f"Court: {', '.join(self.court()) or '(empty)'}; Throne value {self.throne_value}"]
        for p in range(self.players):
            lines.append(f"seat {p}: hand {self.hand(p)}, Successor {self.successor(p)}, "
                         f"Antechamber {self.antechamber(p)}, King {'flipped' if self.flipped(p) else 'face up'}")
        if self.over:
            lines.append(f"round over: winner seat {self.winner}, {self.points} point(s)")
        return "\n".join(lines)


def _match_start(mode: str, options: dict | None, true_king: int) -> tuple[np.ndarray, np.ndarray]:
    """A match's state before its first deal (the True King, the Armies, the fixed Signature Cards)
    and the setup's configuration row."""
    opts = {o.name: o.default for o in OPTIONS}
    opts.update(options or {})
    cfg = config_row(mode, opts)
    s = np.zeros(L.STATE_SIZE, dtype=np.int64)
    s[L.TRUE_KING] = true_king
    R.open_armies(s, cfg)
    R.open_signatures(s, cfg)
    return s, cfg


# ---- the step contract from Python (balance.engine.stepper) ---------------------------------------
def every_card(s: np.ndarray, cfg: np.ndarray) -> np.ndarray:
    """Every card of the match by type: the round's zones, the face-down Armies and their Exhaust
    zones (an Army card taken into the round moves between them)."""
    seats = int(cfg[L.CFG_PLAYERS])
    return R.count_cards(s) + sum(s[zone + q * L.TYPES:zone + (q + 1) * L.TYPES]
                                  for q in range(seats) for zone in (L.ARMY, L.EXHAUST))


class Steps(Stepper):
    """A setup's rounds stepped with the batch's compiled functions (balance.engine.stepper): the
    round's step verbs (``rules.round_advance`` ...) and the match's ``decide_posed``; a run is a
    match's first round, after the match's start (the True King drawn, the Armies, the Signature
    Cards chosen by the seats' policies as the batch does)."""

    def __init__(self, setup):
        self.setup, self.players = setup, setup.players
        self.cfg = setup.game.compile(setup).row
        self.codes, self.params, self.restrict = setup.policy_codes, setup.policy_params, setup.restrict
        _, self.cards, actions, scratch, fscratch, _, _, _ = game_buffers()
        self.mind = (actions, scratch, fscratch)
        self.no_trace = np.zeros((0, L.EVENT_WIDTH), dtype=np.int64)
        self.fill = np.zeros(1, dtype=np.int64)

    def table(self, deals: np.ndarray) -> tuple:
        """The round's table (``rules.round_advance``) dealing from ``deals``: no rotation (the seats
        are the policy slots), no trace."""
        return self.cfg, deals, 0, self.cards, self.no_trace, self.fill, 0

    def start(self, seed: int, deal_index: int) -> Run:
        """The batch's match start (match.play_match) and its first deal; ``run.rng`` is the deals'
        stream, ``run.extra`` the policies' stream and the match's census of cards."""
        cfg = self.cfg
        s = np.zeros(L.STATE_SIZE, dtype=np.int64)
        deals, moves = np.zeros(STREAM_SIZE, dtype=np.uint64), np.zeros(STREAM_SIZE, dtype=np.uint64)
        open_stream(deals, seed, deal_index)
        open_stream(moves, seed ^ POLICY_SALT, deal_index)
        R.open_armies(s, cfg)
        s[L.TRUE_KING] = below(deals, int(cfg[L.CFG_PLAYERS]))
        R.open_signatures(s, cfg)
        if cfg[L.CFG_SIGNATURES] != L.SIG_NONE:
            choose_signatures(s, cfg, deals, moves, 0, self.codes, self.params, self.restrict, self.cards, self.mind,
                              self.no_trace, self.fill)
        R.deal_traced(s, self.table(deals))
        return Run(s, deals, (moves, every_card(s, cfg)))

    def advance(self, run: Run) -> None:
        """A called mulligan deals again (the rules run on by themselves after every answer)."""
        R.round_advance(run.state, self.table(run.rng))

    def over(self, run: Run) -> bool:
        return bool(R.round_over(run.state))

    def pose(self, run: Run) -> None:
        R.round_pose(run.state, self.table(run.rng), self.restrict)

    def decide(self, run: Run) -> int:
        return int(decide_posed(run.state, self.cfg, self.codes, self.params, self.restrict, run.extra[0], self.mind))

    def apply(self, run: Run, answer: int) -> None:
        R.round_apply(run.state, self.table(run.rng), answer)

    def world(self, run: Run, seat: int, stream: np.ndarray) -> Run:
        world = run.copy()
        sample_world(run.state, world.state, seat, self.cfg, self.mind[1], stream)
        return world

    def conserved(self, run: Run) -> bool:
        return bool(np.array_equal(every_card(run.state, self.cfg), run.extra[1]))
