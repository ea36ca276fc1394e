"""Thron der Lügen: deck files. The court cards are data: a TOML file lists the Fae cards (people,
kind, value or split numbers, copies) and the intrigue cards (an effect from a menu, its
parameters, copies); 28 cards in all. A scenario names one with the option ``deck``: the name of a
file in ``balance/games/thron_der_luegen/decks/`` (without .toml) or a path to a TOML file
(relative to the scenario file's folder).

    name = "default"
    assumed = true                    # the rulebook does not list the cards: reports say so
    description = "..."

    [[cards]]
    people = "Winter"                 # Sun, Moon, Wild Hunt, Winter, Summer, Spring, Autumn
    kind = "plain"                    # plain, split, bonus, lone, lowest, pair, hunt, double, minus
    value = 4                         # split cards: left = 4, right = 1 instead; the x2 has none
    copies = 1

    [[intrigues]]
    effect = "swap_thrones"           # swap_thrones, peek_swap, replace_from_pile, hide_end
    reach = "any"                     # the effect's parameters (see EFFECT_DOCS)
    copies = 2

A malformed file is refused with one line naming the file and the entry (``DeckError``).

The option ``composition`` names a deck composed instead (``compose_deck``): the cards the rulebook
names and the rest drawn, reproducibly, from everything the rulebook and the supplement allow.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from balance.games.thron_der_luegen.layout import (
    BONUS, CARD_FIELDS, DOUBLE, DOUBLE_VALUE, EFFECT_NAMES, F_EFFECT, F_KIND, F_LEFT, F_PARAM, F_PEOPLE, F_RIGHT, F_VALUE,
    HIDE_END, INTRIGUE, KIND_NAMES, LONE, N_COURT, N_END, N_FAE, N_INTRIGUE, NO_PEOPLE, PAIR, PEEK_SWAP, PEOPLES,
    REACH_ANY, REACH_OWN,
    REPLACE_FROM_PILE, SPLIT, SWAP_THRONES, VALUE_RANGE, SPLIT_RANGE,
)

DECKS = Path(__file__).parent / "decks"
FAE_KINDS = KIND_NAMES[: KIND_NAMES.index("intrigue")]
REACHES = {"any": REACH_ANY, "own": REACH_OWN}
HAND_KINDS = (BONUS, LONE)  # named with their sign, as printed: Sun +2, Sun -1
MAX_COPIES = N_COURT


class DeckError(ValueError):
    """A malformed deck file: ``where`` is the file and the entry (e.g. ``decks/x.toml: cards[3].people``)."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Deck:
    name: str
    path: Path | None  # None: a sampled composition (compose_deck)
    assumed: bool
    description: str
    table: np.ndarray  # (N_COURT * CARD_FIELDS,) int64: the cards' fields, card by card
    names: tuple[str, ...]  # each card's name, e.g. "Winter x2", "Spring 4|1", "intrigue: swap_thrones"

    def card(self, index: int, field: int) -> int:
        return int(self.table[index * CARD_FIELDS + field])


def deck_path(name: str) -> Path:
    """A deck named in a scenario: a file of the package's decks folder, or a path."""
    if name.endswith(".toml") or "/" in name:
        return Path(name)
    return DECKS / f"{name}.toml"


def deck_names() -> list[str]:
    return sorted(p.stem for p in DECKS.glob("*.toml"))


def _int(entry: dict, key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    if key not in entry:
        if default is None:
            raise DeckError(f"{where}.{key}", "missing")
        return default
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise DeckError(f"{where}.{key}", f"expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise DeckError(f"{where}.{key}", f"must lie in [{low}, {high}]; got {value}")
    return value


def _check_keys(entry: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise DeckError(f"{where}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(allowed))})")


def _fae(entry: dict, where: str) -> tuple[list[int], str]:
    """One [[cards]] entry: its fields (deck table order) and its name."""
    _check_keys(entry, {"people", "kind", "value", "left", "right", "copies"}, where)
    people = entry.get("people")
    if people not in PEOPLES:
        raise DeckError(f"{where}.people", f"unknown people {people!r} (known: {', '.join(PEOPLES)})")
    kind = entry.get("kind", "plain")
    if kind not in FAE_KINDS:
        raise DeckError(f"{where}.kind", f"unknown kind {kind!r} (known: {', '.join(FAE_KINDS)})")
    code = KIND_NAMES.index(kind)
    fields = [0] * CARD_FIELDS
    fields[F_PEOPLE], fields[F_KIND] = PEOPLES.index(people), code
    if code == SPLIT:
        if "value" in entry:
            raise DeckError(f"{where}.value", "a split card has left and right numbers, not a value")
        fields[F_LEFT] = _int(entry, "left", where, *SPLIT_RANGE)
        fields[F_RIGHT] = _int(entry, "right", where, *SPLIT_RANGE)
        return fields, f"{people} {fields[F_LEFT]}|{fields[F_RIGHT]}"
    for side in ("left", "right"):
        if side in entry:
            raise DeckError(f"{where}.{side}", "only split cards have left and right numbers")
    if code == DOUBLE:
        if "value" in entry:
            raise DeckError(f"{where}.value", "the x2 has no value of its own to set (it counts as 2)")
        fields[F_VALUE] = DOUBLE_VALUE
        return fields, f"{people} x2"
    fields[F_VALUE] = _int(entry, "value", where, *VALUE_RANGE)
    signed = code in HAND_KINDS or fields[F_VALUE] < 0
    return fields, f"{people} {fields[F_VALUE]:+d}" if signed else f"{people} {fields[F_VALUE]}"


def _intrigue(entry: dict, where: str) -> tuple[list[int], str]:
    effect = entry.get("effect")
    if effect not in EFFECT_NAMES:
        raise DeckError(f"{where}.effect", f"unknown effect {effect!r} (known: {', '.join(EFFECT_NAMES)})")
    code = EFFECT_NAMES.index(effect)
    fields = [0] * CARD_FIELDS
    fields[F_PEOPLE], fields[F_KIND], fields[F_EFFECT] = NO_PEOPLE, INTRIGUE, code
    if code in (SWAP_THRONES, REPLACE_FROM_PILE):
        _check_keys(entry, {"effect", "reach", "copies"}, where)
        reach = entry.get("reach", "any")
        if reach not in REACHES:
            raise DeckError(f"{where}.reach", f"must be one of {', '.join(REACHES)}; got {reach!r}")
        fields[F_PARAM] = REACHES[reach]
        return fields, f"intrigue: {effect}" + (" (own)" if reach == "own" else "")
    if code == PEEK_SWAP:
        _check_keys(entry, {"effect", "swap", "copies"}, where)
        swap = entry.get("swap", True)
        if not isinstance(swap, bool):
            raise DeckError(f"{where}.swap", f"expected true or false, got {swap!r}")
        fields[F_PARAM] = int(swap)
        return fields, f"intrigue: {effect}" + ("" if swap else " (look only)")
    _check_keys(entry, {"effect", "count", "copies"}, where)
    fields[F_PARAM] = _int(entry, "count", where, 1, N_END, default=1)
    assert code == HIDE_END
    return fields, f"intrigue: {effect} {fields[F_PARAM]}"


def load_deck(name: str) -> Deck:
    """The deck a scenario names (a package deck's name, or a path from the working directory)."""
    return load_deck_file(deck_path(name))


def load_deck_file(path: Path) -> Deck:
    """Read and validate a deck file; every error names the file and the entry. A file read before
    and unchanged since (same modification time and size) is not read again."""
    try:
        stat = path.stat()
    except OSError as err:
        raise DeckError(str(path), f"no such deck file ({err.strerror}; the package's decks: "
                                   f"{', '.join(deck_names())})") from None
    if not path.is_file():
        raise DeckError(str(path), "not a deck file (a folder or a device)")
    return _read_deck(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _read_deck(path: Path, mtime_ns: int, size: int) -> Deck:
    """``load_deck``'s reading, cached on the file's identity and version (the arguments)."""
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise DeckError(where, f"not a UTF-8 TOML file ({err})") from None
    except OSError as err:
        raise DeckError(where, f"cannot be read ({err.strerror})") from None
    return _deck(data, where, path, path.stem)


def _deck(data: dict, where: str, path: Path | None, default_name: str) -> Deck:
    """A deck from a deck file's table (read from a file, or composed: ``compose_deck``), validated;
    every error names ``where`` and the entry."""
    _check_keys(data, {"name", "assumed", "description", "cards", "intrigues"}, where)
    if not isinstance(data.get("assumed", False), bool):
        raise DeckError(f"{where}: assumed", "expected true or false")
    rows: list[list[int]] = []
    names: list[str] = []
    for table, parse in (("cards", _fae), ("intrigues", _intrigue)):
        entries = data.get(table, [])
        if not isinstance(entries, list):
            raise DeckError(f"{where}: {table}", "expected a list of tables ([[" + table + "]])")
        for i, entry in enumerate(entries):
            at = f"{where}: {table}[{i}]"
            if not isinstance(entry, dict):
                raise DeckError(at, "expected a table")
            fields, card_name = parse(entry, at)
            copies = _int(entry, "copies", at, 1, MAX_COPIES, default=1)
            rows += [fields] * copies
            names += [card_name] * copies
    if len(rows) != N_COURT:
        raise DeckError(f"{where}: cards", f"the deck must hold {N_COURT} court cards (Fae and intrigue); "
                                           f"these entries hold {len(rows)}")
    kinds = [r[F_KIND] for r in rows]
    if kinds.count(PAIR) not in (0, 2):
        raise DeckError(f"{where}: cards", f"'pair' cards (the Moon 3s) come as two or none; got {kinds.count(PAIR)}")
    if kinds.count(LONE) > 1:
        raise DeckError(f"{where}: cards", "at most one 'lone' card (the Sun -1): only one player can win alone")
    table = np.array(rows, dtype=np.int64).reshape(-1)
    table.flags.writeable = False  # the cached Deck is shared by every caller
    return Deck(str(data.get("name", default_name)), path, bool(data.get("assumed", False)),
                str(data.get("description", "")), table, tuple(names))


# ---- sampled compositions (the option ``composition``) -------------------------------------------
# The rulebook fixes 28 court cards, 23 Fae and 5 intrigue, and names these Fae cards: the Sun +2
# and -1, the Moon 1 and "both Moon 3s", Winter's and Summer's x2 ("both x2 cards") and -2 ("the -2
# of the same Fae people"), Spring's and Autumn's 4|1 and 1|4. Every composition holds them; the
# other Fae cards and the intrigue effects are drawn. Readings (docs/games/thron_der_luegen.md):
# the Sun and the Moon have no cards besides those named (the rulebook lists each of theirs); the
# drawn cards are the other five peoples' one-number cards (no more split cards: the rulebook names
# Spring's and Autumn's); a plain value is a digit 1..9 (the only cards worth 0 or less the rulebook
# names are the intrigue cards, the Sun -1 and the -2s); equal values in one people are allowed (the
# rulebook: "if the values are equal, only one counts").
NAMED_FAE = (
    {"people": "Sun", "kind": "bonus", "value": 2},
    {"people": "Sun", "kind": "lone", "value": -1},
    {"people": "Moon", "kind": "lowest", "value": 1},
    {"people": "Moon", "kind": "pair", "value": 3, "copies": 2},
    *({"people": people, "kind": kind, **({"value": -2} if kind == "minus" else {})}
      for people in ("Winter", "Summer") for kind in ("double", "minus")),
    *({"people": people, "kind": "split", "left": left, "right": right}
      for people in ("Spring", "Autumn") for left, right in ((4, 1), (1, 4))),
)
N_DRAWN_FAE = N_FAE - sum(card.get("copies", 1) for card in NAMED_FAE)  # 10
DRAWN_PEOPLES = {"Wild Hunt": "hunt", "Winter": "plain", "Summer": "plain", "Spring": "plain", "Autumn": "plain"}
HUNT = "Wild Hunt"  # the rulebook names the people: a composition holds at least one of its cards
DRAWN_VALUES = (1, 9)
# The intrigue effects the rules implement, each with every value of its parameter: an effect is
# drawn uniformly, then its parameter (the rulebook gives no effect; these are the supplement's).
INTRIGUE_MENU = {
    "swap_thrones": [{"reach": "any"}, {"reach": "own"}],
    "peek_swap": [{"swap": True}, {"swap": False}],
    "replace_from_pile": [{"reach": "any"}, {"reach": "own"}],
    "hide_end": [{"count": c} for c in range(1, N_END + 1)],
}
COMPOSITION_SEED = 20261205  # the one seed every sampled composition is drawn from (number k: [seed, k])


@functools.lru_cache(maxsize=64)
def compose_deck(number: int) -> Deck:
    """Sampled composition ``number`` (1, 2, ...): the rulebook's named cards, 10 Fae cards each of
    a people drawn uniformly from the five with one-number cards (drawn again until the Wild Hunt
    has a card) with a value drawn uniformly from DRAWN_VALUES, and 5 intrigue cards each an effect
    of INTRIGUE_MENU; the same number gives the same deck on every machine."""
    rng = np.random.default_rng([COMPOSITION_SEED, number])
    peoples = list(DRAWN_PEOPLES)
    drawn: list[str] = []
    while HUNT not in drawn:
        drawn = [peoples[i] for i in rng.integers(len(peoples), size=N_DRAWN_FAE)]
    values = rng.integers(DRAWN_VALUES[0], DRAWN_VALUES[1] + 1, size=N_DRAWN_FAE)
    # listed by people and value, so that a deck's card names read in order
    cards = [*NAMED_FAE, *({"people": p, "kind": DRAWN_PEOPLES[p], "value": int(v)}
                           for p, v in sorted(zip(drawn, values), key=lambda pv: (peoples.index(pv[0]), pv[1])))]
    effects = list(INTRIGUE_MENU)
    intrigues = []
    for _ in range(N_INTRIGUE):
        effect = effects[rng.integers(len(effects))]
        params = INTRIGUE_MENU[effect]
        intrigues.append({"effect": effect, **params[rng.integers(len(params))]})
    # listed by effect, then by parameter as text, so that equal cards lie together
    intrigues.sort(key=lambda e: (effects.index(e["effect"]), str(sorted(e.items()))))
    name = f"composition {number}"
    deck = _deck({"name": name, "assumed": True, "cards": cards, "intrigues": intrigues}, name, None, name)
    drawn_names = deck.names[len(deck.names) - N_DRAWN_FAE - N_INTRIGUE:]
    return replace(deck, description=f"sampled from seed {COMPOSITION_SEED}: the rulebook's named cards and "
                                     f"{', '.join(drawn_names)}")
