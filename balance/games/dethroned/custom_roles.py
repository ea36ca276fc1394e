"""Roles written in a scenario file (the box's blank Shapeshifter cards) and the kernel's role table.

``parse_custom_role`` reads one ``[[custom_roles]]`` table into a RoleSpec and refuses a role that
could never win (a contradictory condition); ``role_table`` compiles the roles in play into the
int64 rows laid out in layout.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.engine.game import SetupError
from balance.games.dethroned.layout import (
    FULL_DECK_SUM, KILL_CLASS_NAMES, KILL_NONE, KILL_ROLE, MAX_PLAYERS, MAX_ROLE_CONDS, MODIFIER_KINDS, NOT_IN_PLAY,
    ROLE_ASSAILANT_ART, ROLE_ASSAILANT_DEFAULT, ROLE_COND_ANY, ROLE_COND_BASE, ROLE_COND_COUNT, ROLE_DECK_SUM_MAX,
    ROLE_FIELDS, ROLE_KILL_CLASS, ROLE_KILL_ROLE, ROLE_MAX_KILLS, ROLE_MIN_DEAD, ROLE_MIN_KILLS, ROLE_MODS_PLAYED,
    ROLE_NEIGHBOURS, ROLE_ROYAL_ART, ROLE_ROYAL_DEFAULT, ROLE_SELF, RoleSpec, SELF_ALIVE, SELF_ANY, SELF_DEAD,
)


def _flag(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(key, f"expected true or false, got {value!r}")
    return value


def _count(value: Any, key: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise SetupError(key, f"expected an integer in [0, {high}], got {value!r}")
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
        _count(max_kills, f"{key}.max_kills", MAX_PLAYERS)
    deck_sum = raw.get("deck_sum_at_most", -1)
    if deck_sum != -1:
        _count(deck_sum, f"{key}.deck_sum_at_most", FULL_DECK_SUM)
    spec = RoleSpec(
        name=raw["name"], deck="custom",
        royal=(royal, _flag(raw.get("royalty_art", royal), f"{key}.royalty_art")),
        assailant=(assailant, _flag(raw.get("assailant_art", assailant), f"{key}.assailant_art")),
        alive=alive, min_kills=_count(raw.get("min_kills", 0), f"{key}.min_kills", MAX_PLAYERS),
        max_kills=max_kills, kill_class=kill_class,
        roles_alive=_names(raw.get("roles_alive", []), f"{key}.roles_alive"),
        roles_dead=_names(raw.get("roles_dead", []), f"{key}.roles_dead"), any_role_condition=condition == "any",
        min_dead=_count(raw.get("min_dead", 0), f"{key}.min_dead", MAX_PLAYERS),
        modifiers_played=_count(raw.get("modifiers_played", 0), f"{key}.modifiers_played", MODIFIER_KINDS),
        deck_sum_at_most=deck_sum,
        neighbours_not_both_dead=_flag(raw.get("neighbours_not_both_dead", False), f"{key}.neighbours_not_both_dead"),
        text=str(raw.get("text", "custom role")),
    )
    check_consistent(spec, key)
    return spec


def check_consistent(spec: RoleSpec, key: str) -> None:
    """Refuse a role that can never win: its conditions contradict each other."""
    every = not spec.any_role_condition
    both = sorted(set(spec.roles_alive) & set(spec.roles_dead))
    if every and both:
        raise SetupError(f"{key}.roles_dead", f"'{both[0]}' must be both alive and dead: the role could never win")
    if spec.max_kills >= 0 and spec.min_kills > spec.max_kills:
        raise SetupError(f"{key}.min_kills", f"at least {spec.min_kills} kills but at most {spec.max_kills}: "
                                             "the role could never win")
    if spec.max_kills == 0 and spec.kill_class is not None:
        raise SetupError(f"{key}.kill_class", "a kill is needed but no kill is allowed (max_kills = 0): "
                                              "the role could never win")
    if every and spec.alive is True and spec.name in spec.roles_dead:
        raise SetupError(f"{key}.roles_dead", f"the role must be alive and '{spec.name}' (itself) dead: "
                                              "it could never win")
    if every and spec.alive is False and spec.name in spec.roles_alive:
        raise SetupError(f"{key}.roles_alive", f"the role must be dead and '{spec.name}' (itself) alive: "
                                               "it could never win")


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
