"""The small interface every game implements, and the validated setup the engine runs.

A game package (``balance/games/<name>/``) keeps its parts apart, as TAG does:
``rules.py`` holds the compiled rules kernel (state layout documented at its definition, a pure
step over a plain state record, a batch entry point), ``policies.py`` the compiled heuristic
policies, ``options.py`` the modes, options and policy registry, ``positions.py`` the readable
position API, and ``game.py`` the :class:`Game` subclass that ties them together.

The engine never looks inside a kernel. It asks a game for a block of result rows
(:meth:`Game.simulate`) and hands it a :class:`Setup` that was validated against the game's own
:class:`Option`, :class:`Mode` and :class:`Policy` declarations; what the kernels read of it is
compiled once per setup (:meth:`Game.compile`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from balance.engine.decision import FORBID, MAX_ANSWERS, N_KINDS_MAX, PREFER, no_restrictions

MAX_POLICY_PARAMS = 24


class SetupError(ValueError):
    """Bad scenario input. ``key`` names the offending scenario key (dotted path)."""

    def __init__(self, key: str, message: str):
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Mode:
    name: str
    players: tuple[int, ...]
    doc: str


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def check_number(value: Any, key: str, *, integer: bool = False, low: float | None = None,
                 high: float | None = None) -> None:
    """A scenario number the kernels can store: finite, integral where an integer is meant (and
    within int64), inside the declared bounds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SetupError(key, f"expected a number, got {value!r}")
    if not math.isfinite(value):
        raise SetupError(key, f"must be a finite number; got {value!r}")
    if integer and value != int(value):
        raise SetupError(key, f"must be a whole number; got {value!r}")
    if integer and not INT64_MIN <= value <= INT64_MAX:
        raise SetupError(key, f"must fit in a 64-bit integer; got {value!r}")
    if low is not None and value < low:
        raise SetupError(key, f"must be at least {low:g}; got {value!r}")
    if high is not None and value > high:
        raise SetupError(key, f"must be at most {high:g}; got {value!r}")


@dataclass(frozen=True)
class Option:
    """A rule reading the rulebook leaves open, or a modelling choice; a scenario key.

    ``assumed`` marks a default that rests on an assumed fact: reports say so in their header.
    ``low``/``high`` bound a numeric option (inclusive). ``deals``: the option changes the cards
    dealt, not only the play (a deck), so a sweep cell that changes it is paired with its baseline
    by the deal's seed only.
    """

    name: str
    default: Any
    doc: str
    choices: tuple | None = None
    assumed: bool = False
    low: float | None = None
    high: float | None = None
    deals: bool = False

    def coerce(self, value: Any, key: str) -> Any:
        expected = type(self.default)
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not expected:
            raise SetupError(key, f"expected {expected.__name__}, got {type(value).__name__} {value!r}")
        if expected in (int, float):
            check_number(value, key, integer=expected is int, low=self.low, high=self.high)
        if self.choices is not None and value not in self.choices:
            raise SetupError(key, f"must be one of {', '.join(map(str, self.choices))}; got {value!r}")
        return value


@dataclass(frozen=True)
class Param:
    """A numeric parameter of a policy, stored as float64 in the kernel's parameter row;
    ``integer`` parameters (counts, codes) must be whole numbers."""

    name: str
    default: float
    doc: str
    low: float = -np.inf
    high: float = np.inf
    integer: bool = False


@dataclass(frozen=True)
class Policy:
    name: str
    code: int
    doc: str
    params: tuple[Param, ...] = ()
    roles: tuple[str, ...] = ()  # empty: usable by every seat/role
    labelled: tuple[str, ...] = ()  # parameters every label names, defaults included (they change what it is)

    def param_row(self, given: dict[str, Any], key: str) -> np.ndarray:
        row = np.zeros(MAX_POLICY_PARAMS, dtype=np.float64)
        known = {p.name: p for p in self.params}
        for name in given:
            if name not in known:
                listing = ", ".join(known) or "none"
                raise SetupError(f"{key}.{name}", f"unknown parameter of policy '{self.name}' (known: {listing})")
        for i, p in enumerate(self.params):
            value = given.get(p.name, p.default)
            check_number(value, f"{key}.{p.name}", integer=p.integer, low=p.low, high=p.high)
            row[i] = float(value)
        return row


@dataclass(frozen=True)
class Action:
    """An entry of a game's restriction menu: a card, ability or choice a designer names.

    It is answered as bit ``bit`` of decision kind ``kind`` (balance.engine.decision), and also as
    each further (kind, bit) of ``pairs`` where the same card is answered in other decisions (a
    replacement card, an extra card). Names are unique per game, case-insensitive in scenarios.
    """

    name: str
    kind: int
    bit: int
    doc: str = ""
    pairs: tuple[tuple[int, int], ...] = ()

    @property
    def answers(self) -> tuple[tuple[int, int], ...]:
        """Every (kind, bit) this action is answered as."""
        return ((self.kind, self.bit), *self.pairs)


@dataclass(frozen=True)
class SeatPolicy:
    policy: Policy
    params: dict[str, float]
    row: np.ndarray = field(repr=False, compare=False)
    forbid: tuple[str, ...] = ()  # action names (the game's spelling) this seat never plays while another is legal
    prefer: tuple[str, ...] = ()  # action names it plays whenever one is legal
    masks: np.ndarray | None = field(default=None, repr=False, compare=False)  # (N_KINDS_MAX, 2): FORBID, PREFER

    @property
    def label(self) -> str:
        changed = {p.name: p.default for p in self.policy.params if p.name in self.policy.labelled}
        changed.update(self.params)
        label = self.policy.name
        if changed:
            label += "(" + ",".join(f"{k}={v:g}" for k, v in sorted(changed.items())) + ")"
        if self.forbid or self.prefer:
            label += "[" + ",".join([f"-{a}" for a in self.forbid] + [f"+{a}" for a in self.prefer]) + "]"
        return label

    @property
    def restricted(self) -> bool:
        return bool(self.forbid or self.prefer)

    @property
    def restrict_row(self) -> np.ndarray:
        """This slot's (N_KINDS_MAX, 2) forbid/prefer masks (zero: unrestricted)."""
        return self.masks if self.masks is not None else no_restrictions(1)[0]


@dataclass(frozen=True)
class FamilyMember:
    """One kind of player of a game's policy family (``balance check --robust``): a table where
    every seat is that kind of player. ``name`` says what it is to a designer ("heuristic, sharp
    (temperature 0.25)"); ``seats`` is what a scenario's ``seats`` key takes: a policy name, or
    one ``{"policy": ..., "params": {...}}`` table per seat (with ``forbid``/``prefer`` lists where
    the member is restricted)."""

    name: str
    seats: str | list[dict]

    def seat_list(self) -> list[tuple[str, dict]] | str:
        """``seats`` as :meth:`Game.make_setup` takes it."""
        if isinstance(self.seats, str):
            return self.seats
        return [(seat["policy"], dict(seat.get("params", {})),
                 {side: seat[side] for side in ("forbid", "prefer") if side in seat}) for seat in self.seats]


def every_seat(entries: tuple[tuple[str, str, dict], ...], players: int) -> list[FamilyMember]:
    """Tables of ``players`` seats all playing one policy: (a designer's name, policy, parameters) each."""
    return [FamilyMember(name, [{"policy": policy, "params": dict(params)} for _ in range(players)])
            for name, policy, params in entries]


@dataclass(frozen=True)
class Quantity:
    """A measurable quantity that claims can name.

    kind: ``rate`` (mean of a 0/1 column), ``mean`` (mean of a numeric column) or ``ratio``
    (sum of ``column`` over sum of ``denominator``). ``table`` is ``games`` (the game's rows),
    ``seats`` (one row per game and seat) or one of the game's ``extra_frames``. ``by`` lists the columns a claim may group by.
    ``fixed``: a fact of the setup, the same in every game (a share of roles, a constant of the
    deck): reported as a value inside or outside a claim's band, without interval or test.
    ``maximum``: what no row's value can exceed, when the rules bound it: ``max_length`` (the
    setup's length cap: a capped game counts at the cap), ``players``, or an option's name. Values
    are at least 0. A mean of bounded values over few deals gets a distribution-free interval
    (``stats.Betting``) that holds however rare and long the tail (runaway games).
    """

    name: str
    doc: str
    kind: str
    column: str
    table: str = "games"
    denominator: str | None = None
    by: tuple[str, ...] = ()
    fixed: bool = False
    maximum: str | None = None


@dataclass(frozen=True)
class Analysis:
    """A study's finding that is not a claim's verdict (a study computes it from the results, e.g.
    the equilibrium of a choice, when a game's scenario table asks: balance.studies.analyses): a
    title, what it shows (``text``), its table (every estimate with its interval) and how it was
    computed (``method``)."""

    title: str
    text: str
    table: pd.DataFrame
    method: str = ""


@dataclass(frozen=True)
class AdvantageView:
    """The report's opening table: first-player and seat advantage, one row per ``row`` (default:
    the setup's mode), one column per ``rung`` (default: the seats' policy, when every seat plays
    the same one; studies of mixed seats stay out). ``first``: the quantity "the first player (its
    side) wins"; ``seat``: a quantity claims group by seat (its largest deviation from ``fair``);
    ``chooser``: the quantity "the player who chose who goes first wins" (empty in studies where
    nobody chooses); ``fair``: the fair share of the setup (1 / players, 1 / sides in a team game)."""

    first: str
    fair: float
    seat: str = ""
    chooser: str = ""
    row: str = ""
    rung: str = ""


@dataclass(frozen=True)
class ReportView:
    """How reports present a game's studies; every field is optional.

    ``headline``: (quantity, by) panels of the game's headline figure, the first one the headline
    (by "" for an ungrouped quantity); empty: the quantity of each study's first claim.
    ``group_names``: a label by meaning for group values, per grouping column, e.g.
    ``{"seat": {"0": "first Monarch"}}``. ``match_word``: what one simulated game is called when
    result rows are rounds ("match"). ``cap``: what the scenario's ``max_length`` counts.
    ``lengths``: result columns whose distribution is plotted. ``outcome``: a result column
    naming how each game ended (stalemate, capped...). ``advantage``: the first-player and seat
    advantage table the report opens with (see :class:`AdvantageView`); None: no such table.
    """

    headline: tuple[tuple[str, str], ...] = ()
    group_names: dict[str, dict[str, str]] = field(default_factory=dict)
    match_word: str = ""
    cap: str = "rounds"
    lengths: tuple[str, ...] = ()
    outcome: str = ""
    advantage: AdvantageView | None = None


@dataclass
class SetupFiles:
    """The files a setup reads (a deck file...), each by the scenario key that names it.

    A relative path resolves against ``base``, the scenario file's folder (the working directory
    when None); a study folder passes the ``copies`` it keeps instead, by key. ``read`` records each
    file read, by key: a study keys on their content and keeps a copy of each."""

    base: Path | None = None
    copies: dict[str, Path] = field(default_factory=dict)
    read: dict[str, Path] = field(default_factory=dict)

    def resolve(self, key: str, path: Path) -> Path:
        """Where the file that scenario key ``key`` names (``path``, as written) is read."""
        found = self.copies.get(key) or (self.base / path if self.base is not None else path)
        self.read[key] = found
        return found


@dataclass
class Setup:
    """A validated study configuration: everything a kernel needs, nothing it must re-check."""

    game: "Game"
    mode: str
    players: int
    options: dict[str, Any]
    seats: list[SeatPolicy]
    rotate: bool = True
    max_length: int = 0  # round/turn cap; 0 = the game's default
    extra: dict[str, Any] = field(default_factory=dict)  # the game's own scenario tables (roles, a study's table)
    files: SetupFiles = field(default_factory=SetupFiles, repr=False, compare=False)
    # Game.compile's result, made on first use. Not an init field: dataclasses.replace leaves it
    # behind, so a changed copy of a setup compiles its own.
    _compiled: Any = field(default=None, init=False, repr=False, compare=False)

    @property
    def identical_players(self) -> bool:
        """Every seat plays the same policy with the same parameters."""
        first = self.seats[0]
        return all(s.policy.code == first.policy.code and np.array_equal(s.row, first.row)
                   and np.array_equal(s.restrict_row, first.restrict_row) for s in self.seats)

    @property
    def rotation_needed(self) -> bool:
        """False when rotated replays would be identical games (identical players, and a game whose
        rotation moves only the policies over the seats)."""
        return not (self.game.rotation_keeps_deal and self.identical_players)

    @property
    def rotations(self) -> int:
        """How many seat rotations each deal is replayed under (common random numbers)."""
        return len(self.seats) if self.rotate and self.rotation_needed else 1

    @property
    def rotation_text(self) -> str:
        if not self.rotate:
            return "off"
        if not self.rotation_needed:
            return "rotation not needed: identical players (each deal played once)"
        return f"on ({self.rotations} rotations of every deal)"

    @property
    def policy_codes(self) -> np.ndarray:
        return np.array([s.policy.code for s in self.seats], dtype=np.int64)

    @property
    def policy_params(self) -> np.ndarray:
        return np.stack([s.row for s in self.seats]).astype(np.float64)

    @property
    def restrict(self) -> np.ndarray:
        """The policy slots' restrictions, (players, N_KINDS_MAX, 2) int64 (all zero:
        nobody restricted); kernels seat them with ``seat_restrictions``."""
        return np.stack([s.restrict_row for s in self.seats]).astype(np.int64)

    def describe(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "mode": self.mode,
            "players": self.players,
            "options": dict(self.options),
            "policies": [s.label for s in self.seats],
            "rotate": self.rotate,
            "rotation": self.rotation_text,
            "max_length": self.game.length_cap(self),
            "assumed": [o.name for o in self.game.options if o.assumed and self.options.get(o.name) == o.default]
            + self.game.assumed_facts(self),
            **({"extra": shown} if (shown := self.extra_description()) else {}),
        }

    def extra_description(self) -> dict[str, Any]:
        """The game-specific scenario data a report should show."""
        return {k: v for k, v in self.extra.items() if isinstance(v, (str, int, float, bool, list, dict))}


class Game:
    """What the engine needs of a game. Subclasses set the class attributes and the methods.

    ``_compile`` builds what the kernels read of a setup (its kernel inputs), once per setup:
    every method reads them through :meth:`compile`.
    ``simulate`` is the only hot path: it must call one compiled batch kernel that plays
    ``count`` games starting at global game index ``start`` (parallel over games with prange),
    each game drawing only from ``rng.new_stream(seed, deal)`` where
    ``deal, rotation = divmod(game_index, setup.rotations)``; in rotation r, policy slot p sits at
    seat (p + r) % players. It returns an integer array with ``len(columns)`` columns: one row per
    game, or for a match of rounds up to ``max_length`` rows per match, unused rows having -1 in
    the column ``row``.
    """

    name: str = ""
    title: str = ""
    rulebook: str = ""
    supplement: str = ""
    unit: str = "game"  # what one result row is: "game" or "round"
    modes: dict[str, Mode] = {}
    options: tuple[Option, ...] = ()
    policies: tuple[Policy, ...] = ()
    columns: tuple[str, ...] = ()
    default_max_length: int = 0
    length_column: str = ""  # the result column that measures a game's length (report plots)
    seat_word: str = "seat"  # how the report names a seat: "seat" or "role"
    # True when a rotation moves only the policies over the seats and the deal (cards, roles,
    # who starts) stays on its seats: rotated replays of identical players are then identical
    # games, so such a setup plays each deal once. False when a rotation also moves the deal.
    rotation_keeps_deal: bool = False
    # The policy family (robustness checks): (a designer's name, policy, parameters) per member,
    # spanning the plausible players; declared in the game's options.py next to its policies.
    family: tuple[tuple[str, str, dict], ...] = ()
    # The strength ladder (``balance ladder``): policy names from the weakest rung up.
    ladder: tuple[str, ...] = ()
    # The skill rungs (``balance check --skill``): (a designer's name, policy, parameters) from the
    # weakest up, every seat playing the rung; declared where a game's strongest players need
    # parameters (a search's budget). Default: the ladder's policies at their defaults.
    skill: tuple[tuple[str, str, dict], ...] = ()
    # The quantity (a rate) that counts the games, or rounds, stopped by a cap: a capped game is the
    # cap's, never the game's, so reports count them and label every figure of a study that has any.
    cap_quantity: str = ""

    # ---- declarations -------------------------------------------------------------------
    def policy(self, name: str, key: str) -> Policy:
        for p in self.policies:
            if p.name == name:
                return p
        raise SetupError(key, f"unknown policy '{name}' for {self.name} (known: {', '.join(p.name for p in self.policies)})")

    def policy_family(self, setup: Setup) -> list[FamilyMember]:
        """The members of the game's policy family for ``setup``, every seat playing the member
        (default without a declared family: each policy at its defaults)."""
        return every_seat(self.family or tuple((p.name, p.name, {}) for p in self.policies), setup.players)

    def skill_rungs(self, setup: Setup) -> list[FamilyMember]:
        """The game's skill rungs for ``setup``, weakest first, every seat playing the rung."""
        return every_seat(self.skill or tuple((p, p, {}) for p in self.ladder), setup.players)

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def parse_options(self, raw: dict[str, Any], key: str) -> dict[str, Any]:
        known = {o.name: o for o in self.options}
        out = {o.name: o.default for o in self.options}
        for name, value in raw.items():
            if name not in known:
                raise SetupError(f"{key}.{name}", f"unknown option of {self.name} (known: {', '.join(known)})")
            out[name] = known[name].coerce(value, f"{key}.{name}")
        return out

    def default_extra(self, mode: str, players: int) -> dict[str, Any]:
        """The game-specific scenario tables a setup of ``mode`` for ``players`` players takes when
        none are given (``balance matrix`` without a scenario). Default: none."""
        return {}

    def parse_extra(self, raw: dict[str, Any], setup: Setup, key: str) -> None:
        """Game-specific scenario tables (custom roles, deck files...). Default: none allowed."""
        if raw:
            name = next(iter(raw))
            raise SetupError(f"{key}.{name}" if key else name, f"unknown scenario key for {self.name}")

    def study_table(self, raw: dict[str, Any], key: str, name: str, known: tuple[str, ...] = ()) -> dict | None:
        """For a ``parse_extra`` that takes one study's table ``[name]``: the table (keys among
        ``known``), None if the scenario has none; any other key is bad input."""
        prefix = f"{key}." if key else ""
        for other in raw:
            if other != name:
                raise SetupError(f"{prefix}{other}", f"{self.name} takes no such key (known: {name})")
        if name not in raw:
            return None
        table = raw[name]
        if not isinstance(table, dict):
            raise SetupError(f"{prefix}{name}", f"expected a table ([{name}])")
        for k in table:
            if k not in known:
                raise SetupError(f"{prefix}{name}.{k}", f"unknown key (known: {', '.join(known)})" if known
                                 else f"unknown key ([{name}] takes none)")
        return table

    def validate(self, setup: Setup) -> None:
        """Cross-checks that need the whole setup (player count per mode is checked already)."""

    def assumed_facts(self, setup: Setup) -> list[str]:
        """Facts the setup relies on that the rulebook does not give (reports name them)."""
        return []

    # ---- running ------------------------------------------------------------------------
    def compile(self, setup: Setup) -> Any:
        """What the game's kernels read of ``setup`` besides the seed, the game range and the seats'
        policies, parameters and restrictions: its options row, tables, configuration (one object,
        the game's own record). Made once per setup object and kept on it, so a batch never
        recomputes it; a setup is not changed once made (``dataclasses.replace`` makes a changed
        copy, which compiles its own)."""
        if setup._compiled is None:
            setup._compiled = self._compile(setup)
        return setup._compiled

    def _compile(self, setup: Setup) -> Any:
        """``setup``'s kernel inputs, computed from a validated setup (see :meth:`compile`); bad
        input is refused before, by ``parse_extra`` and ``validate``."""
        raise NotImplementedError

    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        raise NotImplementedError

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        """Name the kernel's columns; drop unused rows; add readable columns (policy labels)."""
        df = pd.DataFrame(table, columns=list(self.columns))
        if "row" in df.columns:
            df = df[df["row"] >= 0].reset_index(drop=True)
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        """One row per (game or round, seat): game, deal, rotation, seat, policy, won, ..."""
        raise NotImplementedError

    def extra_frames(self, setup: Setup, games: pd.DataFrame, seats: pd.DataFrame) -> dict[str, pd.DataFrame]:
        """The game's further tables that quantities may name besides ``games`` and ``seats`` (each
        with a ``deal`` column, the sampling unit), e.g. one row per seat and Signature Card. Default: none."""
        return {}

    def frames(self, setup: Setup, games: pd.DataFrame) -> dict[str, pd.DataFrame]:
        """Every table a quantity may name, by name (``Quantity.table``)."""
        seats = self.seat_frame(setup, games)
        return {"games": games, "seats": seats, **self.extra_frames(setup, games, seats)}

    quantities: tuple[Quantity, ...] = ()

    def length_cap(self, setup: Setup) -> int:
        """The setup's length cap (rounds, turns or decisions, as ``max_length`` counts them)."""
        return setup.max_length or self.default_max_length

    def value_range(self, setup: Setup, quantity: Quantity) -> tuple[float, float] | None:
        """The range the rules bound ``quantity``'s values to in ``setup`` (None: unbounded)."""
        if quantity.maximum is None:
            return None
        if quantity.maximum == "max_length":
            return 0.0, float(self.length_cap(setup))
        if quantity.maximum == "players":
            return 0.0, float(setup.players)
        return 0.0, float(setup.options[quantity.maximum])

    def quantity(self, name: str, key: str) -> Quantity:
        for q in self.quantities:
            if q.name == name:
                return q
        raise SetupError(key, f"unknown quantity '{name}' for {self.name} (known: {', '.join(q.name for q in self.quantities)})")

    def actions(self, setup: Setup) -> list[Action]:
        """The restriction menu of ``setup``: the cards, abilities and choices a seat can be
        forbidden or made to prefer (scenario keys ``forbid``/``prefer``). Default: none."""
        return []

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        """Game ``game_index`` replayed through the batch kernel, as readable lines."""
        raise NotImplementedError

    def stepper(self, setup: Setup):
        """``setup``'s games stepped decision by decision from Python with the batch's compiled
        functions (a balance.engine.stepper.Stepper)."""
        raise NotImplementedError

    def bench_setups(self) -> list[tuple[str, Setup]]:
        """The (label, setup) pairs ``balance bench`` measures."""
        return []

    def search_bench_setup(self) -> tuple[str, Setup]:
        """The (label, setup) whose tree-search decisions ``balance bench`` times: the first bench
        setup's mode, players and options with every seat the search at its default budget."""
        _, first = self.bench_setups()[0]
        search = self.policy("ismcts", "bench")
        budget = int(next(p.default for p in search.params if p.name == "iterations"))
        label = f"{first.mode} {first.players}p tree search ({budget} iterations), decisions"
        return label, self.make_setup(first.mode, first.players, search.name, options=first.options,
                                      extra=first.extra)

    def bench_unit(self, setup: Setup) -> str:
        """What ``balance bench`` counts for ``setup`` (one per simulated game), plural."""
        return f"{self.unit}s"

    # ---- building a setup ---------------------------------------------------------------
    def make_setup(self, mode: str, players: int, seats: list[tuple[str, dict]] | str, options: dict | None = None,
                   rotate: bool = True, max_length: int = 0, extra: dict | None = None, key: str = "setup",
                   files: SetupFiles | None = None) -> Setup:
        """A validated setup (scenario files, tests, benches, notebooks). ``seats`` is one
        (policy, params) pair per seat, or one policy name for every seat; errors name ``key``'s
        dotted sub-keys; ``files`` says where the files the setup names are read."""
        prefix = f"{key}." if key else ""
        if mode not in self.modes:
            raise SetupError(f"{prefix}mode", f"unknown mode '{mode}' of {self.name} (known: {', '.join(self.modes)})")
        allowed = self.modes[mode].players
        if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
            raise SetupError(f"{prefix}players", f"{self.name} mode '{mode}' is for "
                                                 f"{', '.join(map(str, allowed))} players; got {players!r}")
        if isinstance(seats, str):
            seats = [(seats, {})] * players
        if len(seats) != players:
            raise SetupError(f"{prefix}seats", f"{len(seats)} seat policies given for {players} players")
        seat_policies = []
        for i, (name, params, *_) in enumerate(seats):
            policy = self.policy(name, f"{prefix}seats[{i}].policy")
            row = policy.param_row(params, f"{prefix}seats[{i}].params")
            seat_policies.append(SeatPolicy(policy, dict(params), row))
        check_number(max_length, f"{prefix}max_length", integer=True, low=0)
        setup = Setup(game=self, mode=mode, players=players, seats=seat_policies, rotate=bool(rotate),
                      options=self.parse_options(options or {}, f"{prefix}options"), max_length=int(max_length),
                      files=files or SetupFiles())
        self.parse_extra(extra or {}, setup, key)
        self.validate(setup)
        for i, (_, _, *restriction) in enumerate(seats):
            if restriction and restriction[0]:
                setup.seats[i] = self.restrict_seat(setup, setup.seats[i], restriction[0], f"{prefix}seats[{i}]")
        return setup

    def restrict_seat(self, setup: Setup, seat: SeatPolicy, restriction: dict, key: str) -> SeatPolicy:
        """``seat`` with the forbid/prefer lists of ``restriction`` resolved against the menu of
        ``setup`` (names case-insensitive) into its masks."""
        menu = {a.name.lower(): a for a in self.actions(setup)}
        masks = no_restrictions(1)[0]
        names: dict[str, tuple[str, ...]] = {}
        for side_name, side in (("forbid", FORBID), ("prefer", PREFER)):
            given = restriction.get(side_name, [])
            if not isinstance(given, list) or not all(isinstance(n, str) for n in given):
                raise SetupError(f"{key}.{side_name}", f"expected a list of action names, got {given!r}")
            resolved = []
            for name in given:
                action = menu.get(name.lower())
                if action is None:
                    known = ", ".join(a.name for a in menu.values()) or "none"
                    raise SetupError(f"{key}.{side_name}", f"unknown action '{name}' of {self.name} {setup.mode} "
                                                           f"(known: {known})")
                if action.name not in resolved:
                    resolved.append(action.name)
                for kind, bit in action.answers:
                    if not (0 <= kind < N_KINDS_MAX and 0 <= bit < MAX_ANSWERS):
                        raise ValueError(f"{self.name} action {action.name}: kind {kind} or bit {bit} out of range")
                    masks[kind, side] |= 1 << bit
            names[side_name] = tuple(resolved)
        both = set(names["forbid"]) & set(names["prefer"])
        if both:
            raise SetupError(f"{key}.prefer", f"'{sorted(both)[0]}' is both forbidden and preferred")
        return replace(seat, forbid=names["forbid"], prefer=names["prefer"], masks=masks)

    # ---- reports --------------------------------------------------------------------------
    def report_view(self, setup: Setup) -> ReportView:
        """How reports headline and label this game's studies (see :class:`ReportView`)."""
        return ReportView(lengths=(self.length_column,) if self.length_column else ())

    def report_part(self, setup: Setup) -> str:
        """The part of a long report (a page of its own) that shows a study of ``setup``, by title:
        by default its player count. Override with families of modes that each fit a page."""
        return f"{setup.players} players"
