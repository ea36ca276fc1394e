"""TOML scenario files: a whole study described without code, validated before anything runs.

Keys (top level):
  game, mode, players, title, description, seed, games, rotate, max_length,
  min_deals   independent deals a sampled claim needs before it can be decided (default 30)
  [precision] max_games / batch, and the default precision target of every claim: half_width
              (absolute, in the claim's units) / relative_half_width (of the estimate)
              (sequential stopping instead of a fixed count)
  [options]   the game's rule readings (see ``balance games``)
  [[seats]]   policy = "...", [seats.params] ...   (one table per seat, in seat order), optionally
              forbid = ["card", ...] / prefer = [...]: actions of the game's menu the seat never
              plays while another is legal / plays whenever legal (restricted play), or
  seats = "policy"                                  (every seat plays that policy)
  [[claims]]  id, text, quantity, by, target, tolerance, compare ("about", "at_most", "at_least"),
              where, half_width / relative_half_width (this claim's precision target)
  [robustness] members = [{name = "...", seats = "heuristic", params = {...}}, ...]: the policy
              family ``check --robust`` plays instead of the game's own; ``seats`` a policy every
              seat plays (with ``params``), or one {policy, params} table per seat as in ``seats``
  [skill]     rungs = [{name = "...", seats = "search", params = {...}}, ...] (as [robustness]'s
              members): the players ``check --skill`` moves every seat up to, weakest first,
              instead of the game's own rungs; margin_share = the share of a claim's tolerance
              within which the two strongest rungs must agree (default 1/3)
  [sweep]     what-if cells for ``balance sweep`` (ignored by run, check and report; see below)
  plus any table the game itself declares (``Game.parse_extra``).

The [sweep] table (``balance.studies.sweep``) changes the scenario one cell at a time. Its keys name
what a cell changes: ``options.X`` (a rule option or numeric rule parameter), ``players``,
``mode``, ``max_length``, a game table (``roles``, a deck), ``seats.policy`` /
``seats.params.X`` (every seat) or ``seats[i].policy`` / ``seats[i].params.X`` (one seat):

  [sweep]
  vary = { "options.take_back_pays" = [true, false], players = [3, 4, 5] }   # the full grid
  cells = [ { label = "art symbols", "options.symbols" = "art" },           # or a list of cells,
            { label = "random play", "seats.policy" = "random" } ]          # each a change
  scenarios = ["*.toml"]   # optional: sweep these scenario files (relative to this file) instead

With ``vary`` every combination is a cell; with ``cells`` each entry is one (``label`` names it),
so "one change at a time from the baseline" is a list of one-key cells; given both, every listed
cell is crossed with the grid. The baseline cell (the scenario's own values) is always played. A
file whose [sweep] names ``scenarios`` is a sweep file: it holds only ``title``, ``description``
and [sweep], and folders given to ``check``/``report`` skip it.

A path inside a scenario (a deck file) is relative to the scenario file's folder, as a sweep
file's patterns are.

Every error names the file and the dotted key, as ``SetupError``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from balance.engine.game import FamilyMember, Game, Setup, SetupError, SetupFiles, check_number
from balance.games import get_game

SAMPLE_SEED = 1  # the deal played to see which values a claim's `where` can name
COMPARES = ("about", "at_most", "at_least")
TOP_KEYS = {"game", "mode", "players", "title", "description", "seed", "games", "rotate", "max_length",
            "precision", "options", "seats", "claims", "min_deals", "robustness", "skill", "sweep"}
SEAT_KEYS = ("policy", "params", "forbid", "prefer")
MIN_DEALS = 30  # default: fewer independent deals leave a sampled claim undecided
SKILL_MARGIN_SHARE = 1 / 3  # default: skill rungs agree when within a third of a claim's tolerance
INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Claim:
    """A designer's claim: ``quantity`` (grouped ``by`` a column) is ``compare`` ``target``."""

    id: str
    text: str
    quantity: str
    target: float
    tolerance: float
    compare: str = "about"
    by: str | None = None
    where: dict[str, Any] = field(default_factory=dict)  # keep only rows with these column values
    min_deals: int = MIN_DEALS  # fewer independent deals: "undecided (too few deals)"
    half_width: float | None = None  # precision target in the claim's units (sequential studies)
    relative_half_width: float | None = None  # precision target relative to the estimate


@dataclass(frozen=True)
class Skill:
    """The [skill] table: the rungs ``check --skill`` plays (None: the game's own) and the share of a
    claim's tolerance within which the two strongest rungs must agree."""

    rungs: list[FamilyMember] | None = None
    margin_share: float = SKILL_MARGIN_SHARE


@dataclass(frozen=True)
class Precision:
    """Sequential stopping: look after batch, 2 batch, 4 batch... games, up to max_games. The
    half-widths are the precision target of every claim that sets none of its own."""

    max_games: int
    batch: int
    half_width: float | None = 0.01
    relative_half_width: float | None = None


def game_tables(data: dict[str, Any]) -> dict[str, Any]:
    """A scenario's tables for the game itself: every key the engine does not read."""
    return {k: v for k, v in data.items() if k not in TOP_KEYS}


@dataclass
class Scenario:
    path: Path | None
    title: str
    description: str
    setup: Setup
    seed: int
    games: int
    claims: list[Claim]
    precision: Precision | None = None
    robustness: list[FamilyMember] | None = None  # the scenario's own policy family ([robustness])
    skill: Skill = field(default_factory=Skill)  # the scenario's [skill] table
    data: dict[str, Any] = field(default_factory=dict)  # the whole TOML table it was read from

    @property
    def tables(self) -> dict[str, Any]:
        """The game's own scenario tables, as written (every key the engine does not read)."""
        return game_tables(self.data)

    @property
    def name(self) -> str:
        return self.path.stem if self.path else self.setup.game.name

    def claim(self, claim_id: str) -> Claim:
        """The claim with id ``claim_id``; a KeyError that names the scenario's claims where it has none."""
        for claim in self.claims:
            if claim.id == claim_id:
                return claim
        known = ", ".join(c.id for c in self.claims) or "none"
        raise KeyError(f"no claim '{claim_id}' in {self.path or self.setup.game.name} (claims: {known})")

    def with_seats(self, seats: list[tuple[str, dict]] | str, key: str = "") -> Setup:
        """The scenario's setup with other seats (a policy-family member), validated; errors name
        ``key``'s sub-keys."""
        s = self.setup
        return s.game.make_setup(s.mode, s.players, seats, options=s.options, rotate=s.rotate,
                                 max_length=s.max_length, extra=self.tables, key=key, files=s.files)

    def family(self) -> list[FamilyMember]:
        """The policy family a robustness check plays: the scenario's [robustness] members, else
        the game's own."""
        return self.robustness or self.setup.game.policy_family(self.setup)

    def describe(self) -> dict[str, Any]:
        return {"scenario": str(self.path) if self.path else None, "title": self.title, "seed": self.seed,
                **self.setup.describe()}


class ScenarioError(Exception):
    """One clear line: file, key, what is wrong."""

    def __init__(self, where: str, key: str, message: str):
        super().__init__(f"{where}: {key}: {message}")
        self.key = key
        self.message = message


def _expect(value: Any, kind: type | tuple, key: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise SetupError(key, f"expected a number, got {value!r}")
    if not isinstance(value, kind):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise SetupError(key, f"expected {name}, got {type(value).__name__} {value!r}")
    return value


def _parse_seats(raw: Any, players: int) -> list[tuple[str, dict]] | str:
    if isinstance(raw, str):
        return raw
    _expect(raw, list, "seats")
    seats = []
    for i, entry in enumerate(raw):
        if isinstance(entry, str):
            seats.append((entry, {}))
            continue
        _expect(entry, dict, f"seats[{i}]")
        unknown = set(entry) - set(SEAT_KEYS)
        if unknown:
            raise SetupError(f"seats[{i}].{sorted(unknown)[0]}", f"unknown key (known: {', '.join(SEAT_KEYS)})")
        if "policy" not in entry:
            raise SetupError(f"seats[{i}].policy", "missing")
        restriction = {side: _expect(entry[side], list, f"seats[{i}].{side}") for side in ("forbid", "prefer")
                       if side in entry}
        seats.append((_expect(entry["policy"], str, f"seats[{i}].policy"),
                      _expect(entry.get("params", {}), dict, f"seats[{i}].params"), restriction))
    return seats


def _finite(value: Any, key: str) -> float:
    value = float(_expect(value, (int, float), key))
    if not math.isfinite(value):
        raise SetupError(key, f"must be a finite number; got {value}")
    return value


def _count(value: Any, key: str, low: int) -> int:
    """An integer in [low, int64 max]."""
    value = _expect(value, int, key)
    if not low <= value <= INT64_MAX:
        raise SetupError(key, f"must lie in [{low}, {INT64_MAX}]; got {value}")
    return value


def _precision_targets(entry: dict, key: str) -> tuple[float | None, float | None]:
    """(half_width, relative_half_width) of a claim or of the [precision] table, each optional."""
    half = relative = None
    if "half_width" in entry:
        half = _finite(entry["half_width"], f"{key}half_width")
        if half <= 0:
            raise SetupError(f"{key}half_width", f"must be positive; got {half}")
    if "relative_half_width" in entry:
        relative = _finite(entry["relative_half_width"], f"{key}relative_half_width")
        if not 0 < relative <= 1:
            raise SetupError(f"{key}relative_half_width", f"must lie in (0, 1]; got {relative}")
    return half, relative


def _parse_claims(raw: Any, game: Game, min_deals: int = MIN_DEALS) -> list[Claim]:
    claims = []
    _expect(raw, list, "claims")
    seen = set()
    for i, entry in enumerate(raw):
        key = f"claims[{i}]"
        _expect(entry, dict, key)
        allowed = {"id", "text", "quantity", "target", "tolerance", "compare", "by", "where", "half_width",
                   "relative_half_width"}
        unknown = set(entry) - allowed
        if unknown:
            raise SetupError(f"{key}.{sorted(unknown)[0]}", f"unknown key (known: {', '.join(sorted(allowed))})")
        for required in ("quantity", "target"):
            if required not in entry:
                raise SetupError(f"{key}.{required}", "missing")
        quantity = game.quantity(_expect(entry["quantity"], str, f"{key}.quantity"), f"{key}.quantity")
        compare = _expect(entry.get("compare", "about"), str, f"{key}.compare")
        if compare not in COMPARES:
            raise SetupError(f"{key}.compare", f"must be one of {', '.join(COMPARES)}; got {compare!r}")
        by = entry.get("by")
        if by is not None and by not in quantity.by:
            raise SetupError(f"{key}.by", f"'{quantity.name}' can be grouped by {', '.join(quantity.by) or 'nothing'}; got {by!r}")
        target = _finite(entry["target"], f"{key}.target")
        tolerance = _finite(entry.get("tolerance", 0.0), f"{key}.tolerance")
        if tolerance < 0:
            raise SetupError(f"{key}.tolerance",
                             f"an '{compare}' claim's tolerance must not be negative; got {tolerance:g}")
        if compare == "about" and tolerance == 0:
            raise SetupError(f"{key}.tolerance", "an 'about' claim needs a positive tolerance")
        if quantity.kind == "rate" and not 0 <= target <= 1:
            raise SetupError(f"{key}.target", f"a rate lies in [0, 1]; got {target}")
        claim_id = _expect(entry.get("id", f"{quantity.name}{'_by_' + by if by else ''}"), str, f"{key}.id")
        if claim_id in seen:
            raise SetupError(f"{key}.id", f"duplicate claim id '{claim_id}'")
        seen.add(claim_id)
        where = _expect(entry.get("where", {}), dict, f"{key}.where")
        text = _expect(entry.get("text", claim_id), str, f"{key}.text")
        half, relative = _precision_targets(entry, f"{key}.")
        claims.append(Claim(claim_id, text, quantity.name, target, tolerance, compare, by, where, min_deals,
                            half, relative))
    return claims


def _parse_robustness(raw: Any, game: Game) -> list[FamilyMember]:
    """The [robustness] table's members (validated against the game's policies; the setups are
    built, hence checked, by the caller)."""
    _expect(raw, dict, "robustness")
    unknown = set(raw) - {"members"}
    if unknown:
        raise SetupError(f"robustness.{sorted(unknown)[0]}", "unknown key (known: members)")
    return _parse_members(raw.get("members"), game, "robustness.members", "member")


def _parse_skill(raw: Any, game: Game) -> Skill:
    """The [skill] table: its rungs (validated as [robustness]'s members) and margin share."""
    _expect(raw, dict, "skill")
    unknown = set(raw) - {"rungs", "margin_share"}
    if unknown:
        raise SetupError(f"skill.{sorted(unknown)[0]}", "unknown key (known: rungs, margin_share)")
    rungs = _parse_members(raw["rungs"], game, "skill.rungs", "rung") if "rungs" in raw else None
    share = _finite(raw.get("margin_share", SKILL_MARGIN_SHARE), "skill.margin_share")
    if not 0 < share <= 1:
        raise SetupError("skill.margin_share", f"must be in (0, 1]; got {share:g}")
    return Skill(rungs, share)


def _parse_members(raw: Any, game: Game, key: str, word: str) -> list[FamilyMember]:
    """A list of tables of players ([robustness] members, [skill] rungs): name, and seats (a policy
    every seat plays, with params, or one {policy, params} table per seat)."""
    entries = _expect(raw, list, key)
    if not entries:
        raise SetupError(key, f"name at least one {word}")
    members, names = [], set()
    for i, entry in enumerate(entries):
        at = f"{key}[{i}]"
        _expect(entry, dict, at)
        unknown = set(entry) - {"name", "seats", "params"}
        if unknown:
            raise SetupError(f"{at}.{sorted(unknown)[0]}", "unknown key (known: name, seats, params)")
        for required in ("name", "seats"):
            if required not in entry:
                raise SetupError(f"{at}.{required}", "missing")
        name = _expect(entry["name"], str, f"{at}.name")
        if name in names:
            raise SetupError(f"{at}.name", f"duplicate {word} name '{name}'")
        names.add(name)
        seats = entry["seats"]
        if isinstance(seats, str):
            params = _expect(entry.get("params", {}), dict, f"{at}.params")
            game.policy(seats, f"{at}.seats").param_row(params, f"{at}.params")
            members.append(FamilyMember(name, [{"policy": seats, "params": params}]))
            continue
        if "params" in entry:
            raise SetupError(f"{at}.params", "give params inside each seat table when seats is a list")
        try:
            parsed = _parse_seats(_expect(seats, list, f"{at}.seats"), 0)
        except SetupError as err:
            raise SetupError(err.key if err.key.startswith(at) else f"{at}.{err.key}", err.message) from None
        members.append(FamilyMember(name, _seat_tables(parsed)))
    return members


def _seat_tables(seats: list[tuple]) -> list[dict]:
    """Parsed seats, (policy, params[, restriction]) each, as a member's seat tables."""
    return [{"policy": p, "params": q, **(r[0] if r else {})} for p, q, *r in seats]


def _member_seats(member: FamilyMember, players: int) -> list[tuple[str, dict]] | str:
    """A [robustness] member's seats for the table: one seat table stands for every seat."""
    seats = member.seat_list()
    return seats * players if isinstance(seats, list) and len(seats) == 1 else seats


def _check_numbers(value: Any, key: str = "") -> None:
    """Every number of a scenario, wherever it stands, is one a kernel can store: floats finite,
    integers within int64 (TOML allows nan, inf and integers of any size)."""
    if isinstance(value, dict):
        for name, inner in value.items():
            _check_numbers(inner, f"{key}.{name}" if key else str(name))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            _check_numbers(inner, f"{key}[{i}]")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        check_number(value, key, integer=isinstance(value, int))


def _check_where(claims: list[Claim], setup: Setup) -> None:
    """A claim's ``where`` names columns of its quantity's table. Grouping columns (seat, policy,
    role...: the setup's labels, all present in every deal) must name a value that occurs in one
    deal played under every rotation; other columns take a number (their values vary by game)."""
    if not any(claim.where for claim in claims):
        return
    game = setup.game
    games = game.frame(setup, game.simulate(setup, SAMPLE_SEED, 0, setup.rotations))
    tables = game.frames(setup, games)
    for i, claim in enumerate(claims):
        quantity = game.quantity(claim.quantity, f"claims[{i}].quantity")
        frame = tables[quantity.table]
        for column, value in claim.where.items():
            key = f"claims[{i}].where.{column}"
            if column not in frame.columns:
                raise SetupError(key, f"no such column for '{quantity.name}' (known: {', '.join(frame.columns)})")
            if column in quantity.by or not pd.api.types.is_numeric_dtype(frame[column]):
                occurring = sorted(map(str, frame[column].unique()))
                if not (frame[column] == value).any():
                    raise SetupError(key, f"no game has {column} = {value!r} (values: {', '.join(occurring)})")
            else:
                check_number(value, key)


def parse_scenario(data: dict[str, Any], path: Path | None = None, copies: dict[str, Path] | None = None) -> Scenario:
    """A validated scenario. The files it names are read relative to the folder of ``path``, or
    from ``copies`` (a study folder's, by the scenario key that names each)."""
    where = str(path) if path else "<scenario>"
    files = SetupFiles(path.parent if path else None, dict(copies or {}))
    try:
        _check_numbers(data)
        if "game" not in data:
            raise SetupError("game", "missing")
        game = get_game(_expect(data["game"], str, "game"), "game")
        sweep = data.get("sweep")
        if isinstance(sweep, dict) and "scenarios" in sweep:
            raise SetupError("sweep.scenarios", "a sweep over other scenario files: play it with `balance sweep`")
        extra = game_tables(data)
        mode = _expect(data.get("mode", next(iter(game.modes))), str, "mode")
        if "players" not in data:
            raise SetupError("players", "missing")
        players = data["players"]
        seats = _parse_seats(data.get("seats", game.policies[0].name), players if isinstance(players, int) else 0)
        setup = game.make_setup(mode, players, seats, options=_expect(data.get("options", {}), dict, "options"),
                                rotate=_expect(data.get("rotate", True), bool, "rotate"),
                                max_length=data.get("max_length", 0), extra=extra, key="", files=files)
        seed = _expect(data.get("seed", 1), int, "seed")
        if not 0 <= seed < 2**63:
            raise SetupError("seed", "must be a non-negative 63-bit integer")
        games = _expect(data.get("games", 10_000), int, "games")
        if games <= 0:
            raise SetupError("games", "must be positive")
        precision = None
        if "precision" in data:
            p = _expect(data["precision"], dict, "precision")
            known = ("half_width", "relative_half_width", "max_games", "batch")
            unknown = set(p) - set(known)
            if unknown:
                raise SetupError(f"precision.{sorted(unknown)[0]}", f"unknown key (known: {', '.join(known)})")
            max_games = _count(p.get("max_games", 1_000_000), "precision.max_games", 1)
            batch = _count(p.get("batch", 20_000), "precision.batch", 1)
            if batch > max_games:
                raise SetupError("precision.batch", f"must not exceed max_games ({max_games}); got {batch}")
            half, relative = _precision_targets(p, "precision.")
            if half is None and relative is None:
                half = Precision.half_width
            precision = Precision(max_games, batch, half, relative)
        def tables_of(members: list[FamilyMember], key: str) -> list[FamilyMember]:
            """The members with a table each of this scenario's size, every setup built (checked)."""
            for i, member in enumerate(members):
                seats = _member_seats(member, players)
                members[i] = FamilyMember(member.name, _seat_tables(seats))
                game.make_setup(mode, players, seats, options=data.get("options", {}), rotate=setup.rotate,
                                max_length=setup.max_length, extra=extra, key=f"{key}[{i}]", files=files)
            return members

        robustness = None
        if "robustness" in data:
            robustness = tables_of(_parse_robustness(data["robustness"], game), "robustness.members")
        skill = Skill()
        if "skill" in data:
            skill = _parse_skill(data["skill"], game)
            if skill.rungs is not None:
                skill = Skill(tables_of(skill.rungs, "skill.rungs"), skill.margin_share)
        min_deals = _count(data.get("min_deals", MIN_DEALS), "min_deals", 2)
        claims = _parse_claims(data.get("claims", []), game, min_deals)
        _check_where(claims, setup)
        title = _expect(data.get("title", path.stem if path else game.title), str, "title")
        description = _expect(data.get("description", ""), str, "description")
    except SetupError as err:
        raise ScenarioError(where, err.key, err.message) from None
    return Scenario(path, title, description, setup, seed, games, claims, precision, robustness, skill, data)


def load_scenario(path: str | Path, copies: dict[str, Path] | None = None) -> Scenario:
    path = Path(path)
    return parse_scenario(read_scenario_data(path), path, copies)


def read_scenario_data(path: Path) -> dict[str, Any]:
    """The TOML table of a scenario file, not yet validated."""
    if not path.is_file():
        raise ScenarioError(str(path), "-", "no such scenario file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise ScenarioError(str(path), "-", f"not UTF-8 text (byte {err.start})") from None
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(str(path), "-", f"not valid TOML ({err})") from None
    except OSError as err:
        raise ScenarioError(str(path), "-", f"cannot be read ({err.strerror})") from None
    return data


def is_sweep_file(path: Path) -> bool:
    """A file whose [sweep] table sweeps other scenario files (no scenario of its own)."""
    try:
        sweep = tomllib.loads(path.read_text(encoding="utf-8")).get("sweep")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # not a sweep file; loading it as a scenario says what is wrong
    return isinstance(sweep, dict) and "scenarios" in sweep


def scenario_files(paths: list[str | Path]) -> list[Path]:
    """Expand directories into their *.toml files (sorted, sweep files left out), keep files as given."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(f for f in sorted(p.rglob("*.toml")) if not is_sweep_file(f))
        else:
            out.append(p)
    return out
