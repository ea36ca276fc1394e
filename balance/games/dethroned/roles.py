"""DETHRONED's roles and suggested setups as data, and custom roles from scenario files.

A role is one int64 row of ROLE_* fields: its two symbol variants (crown = Royalty, skull =
Assailant; the companion app's table is the default, the printed card art the alternative) and a
conjunction of win-condition building blocks (../shared/rules/dethroned.md):

  self            alive / dead / does not matter
  kills           at least MIN_KILLS and (if MAX_KILLS >= 0) at most MAX_KILLS kills credited
  kill class      credited with killing a Royalty / commoner / Assailant-at-that-moment / a named role
  role conditions up to MAX_ROLE_CONDS (role, alive|dead), all of them or any of them
  players dead    at least MIN_DEAD players dead (by anyone)
  modifiers       has played at least MODS_PLAYED of its own Modifier cards
  deck sum        Battle cards left in its own undrawn deck sum to at most DECK_SUM_MAX
  neighbours      not both of its seat neighbours dead

Role ids number the distinct roles in play (at most 8, so a 64-bit mask can hold "roles
killed"). A referenced role that is not in play is neither alive nor dead: its condition fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.game import SetupError

ROLE_ROYAL_DEFAULT = 0
ROLE_ASSAILANT_DEFAULT = 1
ROLE_ROYAL_ART = 2
ROLE_ASSAILANT_ART = 3
ROLE_SELF = 4  # SELF_ANY / SELF_ALIVE / SELF_DEAD
ROLE_MIN_KILLS = 5
ROLE_MAX_KILLS = 6  # -1: no limit
ROLE_KILL_CLASS = 7  # KILL_NONE / KILL_ROYAL / KILL_COMMONER / KILL_ASSAILANT / KILL_ROLE
ROLE_KILL_ROLE = 8  # role id when ROLE_KILL_CLASS == KILL_ROLE
ROLE_MIN_DEAD = 9
ROLE_MODS_PLAYED = 10
ROLE_DECK_SUM_MAX = 11  # -1: no condition
ROLE_NEIGHBOURS = 12  # 1: not both seat neighbours dead
ROLE_COND_ANY = 13  # 0: every role condition must hold, 1: at least one
ROLE_COND_COUNT = 14
ROLE_COND_BASE = 15  # pairs (role id, want alive 1 / want dead 0)
MAX_ROLE_CONDS = 4
ROLE_FIELDS = ROLE_COND_BASE + 2 * MAX_ROLE_CONDS

SELF_ANY = 0
SELF_ALIVE = 1
SELF_DEAD = 2

KILL_NONE = 0
KILL_ROYAL = 1
KILL_COMMONER = 2
KILL_ASSAILANT = 3
KILL_ROLE = 4

NOT_IN_PLAY = -1  # a referenced role that no player holds: neither alive nor dead

KILL_CLASS_NAMES = {"royalty": KILL_ROYAL, "commoner": KILL_COMMONER, "assailant": KILL_ASSAILANT}


@dataclass(frozen=True)
class RoleSpec:
    """One role card, readable. ``symbols`` = ((royal, assailant) default, (royal, assailant) art)."""

    name: str
    deck: str
    royal: tuple[bool, bool]  # (default, art)
    assailant: tuple[bool, bool]
    alive: bool | None = None  # True: must be alive, False: must be dead, None: does not matter
    min_kills: int = 0
    max_kills: int = -1
    kill_class: str | None = None  # royalty / commoner / assailant / a role name
    roles_alive: tuple[str, ...] = ()
    roles_dead: tuple[str, ...] = ()
    any_role_condition: bool = False
    min_dead: int = 0
    modifiers_played: int = 0
    deck_sum_at_most: int = -1
    neighbours_not_both_dead: bool = False
    text: str = ""


BUILTIN_ROLES: tuple[RoleSpec, ...] = (
    RoleSpec("King", "T&K", (True, True), (False, False), alive=True, text="alive"),
    RoleSpec("King's Hand", "T&K", (True, True), (False, False), alive=True, roles_alive=("King",),
             text="alive, and the King alive"),
    RoleSpec("Assassin", "T&K", (False, False), (True, True), alive=True, min_kills=1,
             text="alive, and credited with at least one kill"),
    RoleSpec("Fool", "T&K", (False, False), (True, False), alive=True, roles_dead=("King",),
             text="alive, and the King dead"),
    RoleSpec("Shopkeeper", "T&K", (False, False), (False, False), alive=True, max_kills=0, deck_sum_at_most=10,
             text="alive, no kill, Battle cards left in its undrawn deck sum to 10 or less"),
    RoleSpec("Princess", "T&K", (True, True), (True, False), alive=True, roles_dead=("King",), roles_alive=("Fool",),
             text="alive, the King dead, and the Fool alive"),
    RoleSpec("Sage", "T&K", (False, True), (False, False), roles_alive=("Princess", "Fool"), any_role_condition=True,
             text="the Princess or the Fool alive"),
    RoleSpec("Maniac", "T&K", (False, False), (True, True), alive=True, kill_class="commoner",
             text="alive, and credited with killing a commoner"),
    RoleSpec("Suitor", "G&T", (False, False), (False, False), alive=True, roles_alive=("Sweetheart",),
             text="alive, and the Sweetheart alive"),
    RoleSpec("Sweetheart", "G&T", (False, True), (False, False), alive=True, roles_alive=("Suitor",),
             text="alive, and the Suitor alive"),
    RoleSpec("Alchemist", "G&T", (True, True), (True, True), modifiers_played=4, kill_class="royalty",
             text="played all four own Modifiers, and credited with killing a Royalty"),
    RoleSpec("Anarchist", "G&T", (False, False), (True, True), kill_class="royalty",
             text="credited with killing a Royalty"),
    RoleSpec("Butcher", "G&T", (False, False), (True, True), min_kills=2, text="credited with at least two kills"),
    RoleSpec("Butcher's Boy", "G&T", (False, False), (True, True), alive=True, min_dead=2,
             text="alive, and at least two players dead"),
    RoleSpec("Arbiter", "G&T", (True, True), (False, False), alive=True, neighbours_not_both_dead=True,
             text="alive, and not both seat neighbours dead"),
    RoleSpec("Sentinel", "G&T", (True, True), (True, True), alive=True, kill_class="assailant",
             text="alive, and credited with killing an Assailant"),
)

TK = ("King", "King's Hand", "Assassin", "Fool", "Shopkeeper", "Princess", "Sage", "Maniac")
GT = ("Suitor", "Sweetheart", "Alchemist", "Anarchist", "Butcher", "Butcher's Boy", "Arbiter", "Sentinel")

# file stem -> (title, roles); the 22 suggested setups, Out To Play in both 7th-role variants
SUGGESTED_SETUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "assassin_for_hire": ("Assassin for Hire", ("Fool", "King", "Assassin")),
    "a_foolish_hunt": ("A Foolish Hunt", ("Maniac", "Fool", "King")),
    "on_sale": ("On Sale", ("Assassin", "Shopkeeper", "Maniac")),
    "a_royal_showdown": ("A Royal Showdown", ("King", "King's Hand", "Assassin", "Fool")),
    "trouble_in_the_family": ("Trouble in the Family", ("King", "Princess", "King's Hand", "Fool")),
    "dethroned": ("Dethroned", ("King", "Princess", "Fool", "Sage")),
    "kings_day_out": ("King's Day Out", ("King", "Assassin", "Shopkeeper", "Maniac")),
    "the_royal_family": ("The Royal Family", ("King's Hand", "Princess", "Fool", "Sage", "King")),
    "the_guest_list": ("The Guest List", ("Assassin", "Princess", "Fool", "Shopkeeper", "Maniac", "King")),
    "the_afterparty": ("The Afterparty",
                       ("King", "King's Hand", "Assassin", "Princess", "Fool", "Shopkeeper", "Maniac")),
    "full_house": ("Full House", TK),
    "a_test_of_faith": ("A Test of Faith", ("Suitor", "Sweetheart", "Butcher")),
    "twins_trials": ("Twin's Trials", ("Sentinel", "Alchemist", "Anarchist")),
    "the_honeymoon": ("The Honeymoon", ("Suitor", "Sweetheart", "Butcher", "Butcher's Boy")),
    "crowd_control": ("Crowd Control", ("Sentinel", "Alchemist", "Anarchist", "Butcher")),
    "divide_and_conquer": ("Divide and Conquer", ("Suitor", "Sweetheart", "Alchemist", "Anarchist")),
    "the_nights_watch": ("The Night's Watch", ("Alchemist", "Anarchist", "Arbiter", "Butcher", "Butcher's Boy")),
    "judge_jury_and_executioner": ("Judge, Jury and Executioner",
                                   ("Sentinel", "Alchemist", "Anarchist", "Arbiter", "Butcher")),
    "in_the_family": ("In The Family", ("Sentinel", "Suitor", "Sweetheart", "Arbiter", "Butcher", "Butcher's Boy")),
    "spring_cleaning": ("Spring Cleaning", ("Sentinel", "Suitor", "Sweetheart", "Alchemist", "Anarchist", "Arbiter")),
    "out_to_play_anarchist": ("Out To Play (7th role: Anarchist)",
                              ("Sentinel", "Suitor", "Sweetheart", "Alchemist", "Arbiter", "Butcher", "Anarchist")),
    "out_to_play_butchers_boy": ("Out To Play (7th role: Butcher's Boy)",
                                 ("Sentinel", "Suitor", "Sweetheart", "Alchemist", "Arbiter", "Butcher",
                                  "Butcher's Boy")),
    "town_meeting": ("Town Meeting", GT),
}


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(key, f"expected true or false, got {value!r}")
    return value


def _count(value: Any, key: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SetupError(key, f"expected an integer >= {low}, got {value!r}")
    return value


def _names(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SetupError(key, f"expected a list of role names, got {value!r}")
    return tuple(value)


CUSTOM_KEYS = ("name", "royalty", "assailant", "royalty_art", "assailant_art", "alive", "min_kills", "max_kills",
               "kill_class", "roles_alive", "roles_dead", "role_condition", "min_dead", "modifiers_played",
               "deck_sum_at_most", "neighbours_not_both_dead", "text")


def parse_custom_role(raw: Any, key: str) -> RoleSpec:
    """A ``[[custom_roles]]`` table: a blank Shapeshifter card written in a scenario file."""
    if not isinstance(raw, dict):
        raise SetupError(key, "expected a table")
    unknown = set(raw) - set(CUSTOM_KEYS)
    if unknown:
        raise SetupError(f"{key}.{sorted(unknown)[0]}", f"unknown key (known: {', '.join(CUSTOM_KEYS)})")
    if not isinstance(raw.get("name"), str) or not raw["name"]:
        raise SetupError(f"{key}.name", "missing (a role name)")
    royal = _flag(raw.get("royalty", False), f"{key}.royalty")
    assailant = _flag(raw.get("assailant", False), f"{key}.assailant")
    alive = raw.get("alive")
    if alive is not None:
        alive = _flag(alive, f"{key}.alive")
    condition = raw.get("role_condition", "all")
    if condition not in ("all", "any"):
        raise SetupError(f"{key}.role_condition", f"must be 'all' or 'any'; got {condition!r}")
    kill_class = raw.get("kill_class")
    if kill_class is not None and not isinstance(kill_class, str):
        raise SetupError(f"{key}.kill_class", "expected royalty, commoner, assailant or a role name")
    max_kills = raw.get("max_kills", -1)
    if max_kills != -1:
        _count(max_kills, f"{key}.max_kills")
    deck_sum = raw.get("deck_sum_at_most", -1)
    if deck_sum != -1:
        _count(deck_sum, f"{key}.deck_sum_at_most")
    return RoleSpec(
        name=raw["name"], deck="custom",
        royal=(royal, _flag(raw.get("royalty_art", royal), f"{key}.royalty_art")),
        assailant=(assailant, _flag(raw.get("assailant_art", assailant), f"{key}.assailant_art")),
        alive=alive, min_kills=_count(raw.get("min_kills", 0), f"{key}.min_kills"), max_kills=max_kills,
        kill_class=kill_class, roles_alive=_names(raw.get("roles_alive", []), f"{key}.roles_alive"),
        roles_dead=_names(raw.get("roles_dead", []), f"{key}.roles_dead"), any_role_condition=condition == "any",
        min_dead=_count(raw.get("min_dead", 0), f"{key}.min_dead"),
        modifiers_played=_count(raw.get("modifiers_played", 0), f"{key}.modifiers_played"),
        deck_sum_at_most=deck_sum,
        neighbours_not_both_dead=_flag(raw.get("neighbours_not_both_dead", False), f"{key}.neighbours_not_both_dead"),
        text=str(raw.get("text", "custom role")),
    )


def role_table(specs: list[RoleSpec], in_play: list[str], fool_must_kill_king: bool, key: str) -> np.ndarray:
    """Compile the distinct roles in play (``in_play``, role id = index) into the kernel's int64
    role table. Names must be known roles (``specs``); a known role not in play becomes id
    NOT_IN_PLAY, whose conditions never hold."""
    known = {spec.name: spec for spec in specs}
    ids = {name: i for i, name in enumerate(in_play)}
    table = np.zeros((len(in_play), ROLE_FIELDS), dtype=np.int64)

    def role_id(name: str, where: str) -> int:
        if name not in known:
            raise SetupError(where, f"unknown role '{name}'")
        return ids.get(name, NOT_IN_PLAY)

    for i, name in enumerate(in_play):
        spec = known[name]
        row = table[i]
        row[ROLE_ROYAL_DEFAULT], row[ROLE_ROYAL_ART] = spec.royal
        row[ROLE_ASSAILANT_DEFAULT], row[ROLE_ASSAILANT_ART] = spec.assailant
        row[ROLE_SELF] = SELF_ANY if spec.alive is None else (SELF_ALIVE if spec.alive else SELF_DEAD)
        row[ROLE_MIN_KILLS] = spec.min_kills
        row[ROLE_MAX_KILLS] = spec.max_kills
        kill_class = spec.kill_class
        roles_dead = spec.roles_dead
        if spec.name == "Fool" and spec.deck == "T&K" and fool_must_kill_king:
            kill_class, roles_dead = "King", ()
        if kill_class is None:
            row[ROLE_KILL_CLASS] = KILL_NONE
        elif kill_class in KILL_CLASS_NAMES:
            row[ROLE_KILL_CLASS] = KILL_CLASS_NAMES[kill_class]
        else:
            row[ROLE_KILL_CLASS] = KILL_ROLE
            row[ROLE_KILL_ROLE] = role_id(kill_class, f"{key}.{spec.name}.kill_class")
        row[ROLE_MIN_DEAD] = spec.min_dead
        row[ROLE_MODS_PLAYED] = spec.modifiers_played
        row[ROLE_DECK_SUM_MAX] = spec.deck_sum_at_most
        row[ROLE_NEIGHBOURS] = int(spec.neighbours_not_both_dead)
        row[ROLE_COND_ANY] = int(spec.any_role_condition)
        conds = [(role_id(n, f"{key}.{spec.name}.roles_alive"), 1) for n in spec.roles_alive]
        conds += [(role_id(n, f"{key}.{spec.name}.roles_dead"), 0) for n in roles_dead]
        if len(conds) > MAX_ROLE_CONDS:
            raise SetupError(f"{key}.{spec.name}", f"at most {MAX_ROLE_CONDS} role conditions")
        row[ROLE_COND_COUNT] = len(conds)
        for c, (rid, want_alive) in enumerate(conds):
            row[ROLE_COND_BASE + 2 * c] = rid
            row[ROLE_COND_BASE + 2 * c + 1] = want_alive
    return table
