"""DETHRONED as a balance Game: setup compilation, the batch entry point, frames, transcripts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from balance.engine.game import Game, Quantity, ReportView, Setup, SetupError
from balance.engine.kernels import seat_policies, slot_at_seat, split_game_index
from balance.engine.rng import STREAM_SIZE, open_stream
from balance.games.dethroned import kernel, rules
from balance.games.dethroned.options import MODES, OPTIONS, POLICIES
from balance.games.dethroned.policies import MARKS, POLICY_SCRIPTED
from balance.games.dethroned.roles import (
    BUILTIN_ROLES, GT, KILL_ASSAILANT, KILL_COMMONER, KILL_ROLE, KILL_ROYAL, NOT_IN_PLAY, ROLE_ASSAILANT_ART,
    ROLE_ASSAILANT_DEFAULT, ROLE_COND_BASE, ROLE_COND_COUNT, ROLE_KILL_CLASS, ROLE_KILL_ROLE, ROLE_MAX_KILLS,
    ROLE_MIN_DEAD, ROLE_MIN_KILLS, ROLE_ROYAL_ART, ROLE_ROYAL_DEFAULT, RoleSpec, parse_custom_role, role_table,
)

DEFAULT_MAX_DECISIONS = 3000
KILL_CLASS_WANT = 0.8  # wanting any player of a class dead, until one is killed
KILL_COUNT_WANT = 0.5  # wanting anybody dead, until enough kills
DEATHS_WANT = 0.3  # wanting deaths by anyone
NO_KILL_RELUCTANCE = 0.3  # a role that must not kill


def want_matrices(table: np.ndarray, art: bool) -> tuple[np.ndarray, np.ndarray]:
    """(want_cond, want_kill): how much role R wants role V dead (>0) or alive (<0)."""
    n = table.shape[0]
    royal = table[:, ROLE_ROYAL_ART if art else ROLE_ROYAL_DEFAULT]
    skull = table[:, ROLE_ASSAILANT_ART if art else ROLE_ASSAILANT_DEFAULT]
    cond = np.zeros((n, n))
    kill = np.zeros((n, n))
    for r in range(n):
        row = table[r]
        for c in range(row[ROLE_COND_COUNT]):
            target, want_alive = row[ROLE_COND_BASE + 2 * c], row[ROLE_COND_BASE + 2 * c + 1]
            if target != NOT_IN_PLAY:
                cond[r, target] += -1.0 if want_alive else 1.0
        if row[ROLE_MAX_KILLS] == 0:
            cond[r, :] -= NO_KILL_RELUCTANCE
        cls = row[ROLE_KILL_CLASS]
        if cls == KILL_ROYAL:
            kill[r, royal == 1] += KILL_CLASS_WANT
        elif cls == KILL_COMMONER:
            kill[r, royal == 0] += KILL_CLASS_WANT
        elif cls == KILL_ASSAILANT:
            kill[r, skull == 1] += KILL_CLASS_WANT
        elif cls == KILL_ROLE and row[ROLE_KILL_ROLE] != NOT_IN_PLAY:
            kill[r, row[ROLE_KILL_ROLE]] += 1.0
        if row[ROLE_MIN_KILLS] > 0:
            kill[r, :] += KILL_COUNT_WANT
        if row[ROLE_MIN_DEAD] > 0:
            kill[r, :] += DEATHS_WANT
    return cond, kill


class Dethroned(Game):
    """Seats and roles: a deal fixes the role assignment (the setup's roles dealt to seats at
    random), the decks and the first claimer; rotation then moves the policies over the seats.
    Scenarios where every seat plays the same policy set ``rotate = false`` (rotations would
    replay identical games). ``seat_frame`` carries each seat's role, so win rate by role is a
    grouped rate; several players can win the same game."""

    name = "dethroned"
    title = "DETHRONED"
    rulebook = "../shared/seeds/000_8eee51061ca1abf8.txt"
    supplement = "../shared/rules/dethroned.md"
    unit = "game"
    modes = MODES
    options = OPTIONS
    policies = POLICIES
    columns = kernel.GAME_COLUMNS + tuple(
        f"{field}_{seat}" for seat in range(rules.MAX_PLAYERS) for field in kernel.SEAT_FIELDS)
    rows_per_game = 1
    default_max_length = DEFAULT_MAX_DECISIONS
    seat_word = "role"
    quantities = (
        Quantity("win_rate", "Share of games a seat wins (capped games are losses)", "rate", "won", table="seats",
                 by=("role", "policy", "seat")),
        Quantity("survival_rate", "Share of games a seat is alive at the end", "rate", "alive", table="seats",
                 by=("role", "policy", "seat")),
        Quantity("assailant_share", "Assailant roles per player at the start (default symbols)", "ratio",
                 "assailants_default", denominator="players"),
        Quantity("assailant_share_art", "Assailant roles per player at the start (printed-art symbols)", "ratio",
                 "assailants_art", denominator="players"),
        Quantity("capped_rate", "Share of games stopped by the decision cap", "rate", "capped"),
        Quantity("deaths", "Deaths per game", "mean", "deaths"),
        Quantity("seconds", "Simulated game length in seconds", "mean", "seconds"),
    )

    # ---- setup ------------------------------------------------------------------------------
    def parse_extra(self, raw: dict[str, Any], setup: Setup, key: str) -> None:
        prefix = f"{key}." if key else ""
        unknown = set(raw) - {"roles", "custom_roles"}
        if unknown:
            name = sorted(unknown)[0]
            raise SetupError(f"{prefix}{name}", f"{self.name} takes no such table (known: roles, custom_roles)")
        customs = raw.get("custom_roles", [])
        if not isinstance(customs, list):
            raise SetupError(f"{prefix}custom_roles", "expected an array of tables ([[custom_roles]])")
        specs: list[RoleSpec] = list(BUILTIN_ROLES)
        for i, entry in enumerate(customs):
            spec = parse_custom_role(entry, f"{prefix}custom_roles[{i}]")
            if any(s.name == spec.name for s in specs):
                raise SetupError(f"{prefix}custom_roles[{i}].name", f"role '{spec.name}' already exists")
            specs.append(spec)
        names = raw.get("roles")
        if names is None:
            raise SetupError(f"{prefix}roles", "missing: the list of roles in play, one per player")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise SetupError(f"{prefix}roles", f"expected a list of role names, got {names!r}")
        if len(names) != setup.players:
            raise SetupError(f"{prefix}roles", f"{len(names)} roles for {setup.players} players")
        known = [s.name for s in specs]
        for i, n in enumerate(names):
            if n not in known:
                raise SetupError(f"{prefix}roles[{i}]", f"unknown role '{n}' (known: {', '.join(known)})")
        distinct = list(dict.fromkeys(names))
        table = role_table(specs, distinct, setup.options["fool_must_kill_king"], f"{prefix}custom_roles")
        setup.extra["roles"] = list(names)
        if customs:
            setup.extra["custom_roles"] = customs
        setup.extra["_role_names"] = distinct
        setup.extra["_table"] = table

    def compiled(self, setup: Setup) -> dict[str, np.ndarray]:
        """The arrays the kernel takes, built from a validated setup."""
        table = setup.extra["_table"]
        names = setup.extra["_role_names"]
        setup_roles = np.array([names.index(n) for n in setup.extra["roles"]], dtype=np.int64)
        role_count = np.bincount(setup_roles, minlength=len(names)).astype(np.int64)
        art = setup.options["symbols"] == "art"
        want_cond, want_kill = want_matrices(table, art)
        o = setup.options
        opts = np.zeros(rules.OPTIONS_SIZE, dtype=np.int64)
        opts[rules.O_WINDOW_MS] = round(o["window_seconds"] * 1000)
        opts[rules.O_COUNT_MS] = round(o["count_seconds"] * 1000)
        opts[rules.O_ART_SYMBOLS] = art
        opts[rules.O_REDIRECT_CREDIT] = o["redirect_credit"]
        opts[rules.O_SHOP_COUNTS_HAND] = o["shopkeeper_deck"] == "deck_and_hand"
        opts[rules.O_SENTINEL_ROYAL_ASSAILANT] = o["sentinel_counts_royal_assailant"]
        opts[rules.O_BOMB_NEEDS_DEFENCE] = o["bomb_needs_defence"]
        opts[rules.O_DEFENDER_REDIRECT] = o["defender_may_redirect"]
        opts[rules.O_FIRST_VOTE_AFTER_TWO_AT_8] = o["first_vote_after_two_at_8"]
        opts[rules.O_MAX_DECISIONS] = setup.max_length or self.default_max_length
        opts[rules.O_IMPASSE_ROUNDS] = o["impasse_rounds"]
        return dict(opts=opts, roles=table, want_cond=want_cond, want_kill=want_kill,
                    want_total=want_cond + want_kill, setup_roles=setup_roles, role_count=role_count)

    def validate(self, setup: Setup) -> None:
        if setup.options["window_seconds"] < 0 or setup.options["count_seconds"] < 0:
            raise SetupError("options.window_seconds", "times must not be negative")
        if setup.options["impasse_rounds"] < 1:
            raise SetupError("options.impasse_rounds", "must be at least 1")

    # ---- running ----------------------------------------------------------------------------
    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        c = self.compiled(setup)
        out = np.empty((count, len(self.columns)), dtype=np.int32)
        kernel.simulate_batch(np.uint64(seed), start, count, setup.rotations, c["opts"], c["roles"], c["want_cond"],
                              c["want_kill"], c["want_total"], c["setup_roles"], c["role_count"],
                              setup.policy_codes, setup.policy_params, out)
        return out

    def assailant_counts(self, setup: Setup) -> tuple[int, int]:
        table = setup.extra["_table"]
        names = setup.extra["_role_names"]
        ids = [names.index(n) for n in setup.extra["roles"]]
        return (int(table[ids, ROLE_ASSAILANT_DEFAULT].sum()), int(table[ids, ROLE_ASSAILANT_ART].sum()))

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        df = pd.DataFrame(table, columns=list(self.columns))
        default, art = self.assailant_counts(setup)
        df["assailants_default"] = default
        df["assailants_art"] = art
        df["outcome_name"] = df["outcome"].map(dict(enumerate(OUTCOME_NAMES)))
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        names = setup.extra["_role_names"]
        labels = [s.label for s in setup.seats]
        players = setup.players
        parts = []
        for seat in range(players):
            part = games[["game", "deal", "rotation", "capped"]].copy()
            part["seat"] = seat
            part["policy"] = [labels[slot_at_seat(seat, r, players)] for r in games["rotation"]]
            for field in kernel.SEAT_FIELDS:
                part[field] = games[f"{field}_{seat}"].to_numpy()
            part["role"] = part["role"].map(dict(enumerate(names)))
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    # ---- one game, readable -----------------------------------------------------------------
    def replay(self, setup: Setup, seed: int, game_index: int, trace_size: int = 20_000,
               script: np.ndarray | None = None, checked: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(state, trace, row) of game ``game_index`` through the batch kernel's play_game."""
        c = self.compiled(setup)
        players = setup.players
        deal_index, rotation = split_game_index(game_index, setup.rotations)
        codes = np.zeros(players, dtype=np.int64)
        params = np.zeros_like(setup.policy_params)
        seat_policies(rotation, setup.policy_codes, setup.policy_params, codes, params)
        if script is not None:
            codes[:] = POLICY_SCRIPTED
        else:
            script = np.zeros((players, 0), dtype=np.int64)
        s = self.last_replay_state = np.zeros(rules.STATE_SIZE, dtype=np.int64)
        stream = np.zeros(STREAM_SIZE, dtype=np.uint64)
        open_stream(stream, np.uint64(seed), deal_index)
        trace = self.last_replay_trace = np.zeros((trace_size, rules.TRACE_FIELDS), dtype=np.int64)
        kernel.play_game(s, c["opts"], c["roles"], c["want_cond"], c["want_kill"], c["want_total"], c["setup_roles"],
                         c["role_count"], codes, params,
                         np.zeros((rules.MAX_PLAYERS, rules.MAX_PLAYERS, c["roles"].shape[0])),
                         np.zeros((rules.MAX_PLAYERS, rules.MAX_PLAYERS)), np.zeros(rules.MAX_LEGAL, dtype=np.int64),
                         np.zeros(rules.MAX_ATTACKS, dtype=np.int64), script,
                         np.zeros((MARKS, players), dtype=np.int64), stream, trace, checked)
        if s[rules.H_ERROR] == rules.ERROR_ILLEGAL_ACTION:
            raise ValueError("policy chose an illegal action")
        if s[rules.H_ERROR] == rules.ERROR_CARDS:
            raise ValueError("a card is not in exactly one place")
        row = np.empty((1, len(self.columns)), dtype=np.int32)
        kernel.write_row(s, c["opts"], c["roles"], row, 0, game_index, deal_index, rotation)
        return s, trace[: s[rules.H_TRACE_LEN]], row[0]

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        s, trace, row = self.replay(setup, seed, game_index)
        names = setup.extra["_role_names"]
        players = setup.players
        lines = [f"DETHRONED game {game_index} (seed {seed}), {players} players: "
                 + ", ".join(f"seat {p} {names[s[rules.pbase(p) + rules.PL_ROLE]]}" for p in range(players))]
        for t, event, player, arg, arg2 in trace:
            lines.append(f"{t / 1000:8.2f}s  {describe_event(event, player, arg, arg2, names)}")
        won = [p for p in range(players) if row[kernel.SEAT_BASE + p * len(kernel.SEAT_FIELDS) + kernel.S_WON]]
        lines.append("winners: " + (", ".join(f"seat {p} ({names[s[rules.pbase(p) + rules.PL_ROLE]]})" for p in won)
                                    or "none"))
        return lines

    def bench_setups(self) -> list[tuple[str, Setup]]:
        royal_family = ["King's Hand", "Princess", "Fool", "Sage", "King"]
        return [
            ("5p The Royal Family, heuristic", self.make_setup("standard", 5, [("heuristic", {})] * 5, rotate=False,
                                                               extra={"roles": royal_family})),
            ("3p Assassin for Hire, random", self.make_setup("standard", 3, [("random", {})] * 3, rotate=False,
                                                             extra={"roles": ["Fool", "King", "Assassin"]})),
            ("8p Town Meeting, heuristic", self.make_setup("standard", 8, [("heuristic", {})] * 8, rotate=False,
                                                           extra={"roles": list(GT)})),
        ]

    def report_view(self, setup: Setup) -> ReportView:
        return ReportView(headline=(("win_rate", "role"),), cap="decisions per game (a guard)",
                          lengths=("seconds", "deaths"), outcome="outcome_name")


OUTCOME_NAMES = ("vote", "stalemate", "last_standing", "capped")


def card_name(card: int) -> str:
    return rules.KIND_NAMES[card % rules.DECK_SIZE]


def describe_action(action: int, card: int) -> str:
    kind = rules.ACTION_NAMES[action & rules.KIND_MASK]
    a = (action >> rules.ATTACK_SHIFT) & rules.FIELD_MASK
    target = (action >> rules.TARGET_SHIFT) & rules.FIELD_MASK
    side = "defence" if (action >> rules.SIDE_SHIFT) & 1 else "attack"
    if kind == "attack":
        return f"attacks seat {target} with a {card_name(card)}"
    if kind == "defend":
        return f"defends attack #{a} with a {card_name(card)}"
    if kind in ("double", "halve"):
        return f"plays {kind.title()} on the {side} card of attack #{a}"
    if kind == "redirect":
        return f"Redirects attack #{a} at seat {target}"
    if kind == "bomb":
        return f"Bombs the attacks around attack #{a}"
    return kind


def describe_event(event: int, player: int, arg: int, arg2: int, names: list[str]) -> str:
    if event == rules.EV_CLAIM:
        return f"seat {player} claims {names[arg]}"
    if event == rules.EV_ACTION:
        return f"seat {player} {describe_action(arg, arg2)}"
    if event == rules.EV_DEATH:
        return f"seat {player} dies, kill credited to seat {arg}"
    if event == rules.EV_VOTE_END:
        return f"seat {player} votes to end"
    if event == rules.EV_VOTE_CONTINUE:
        return f"seat {player} votes to continue"
    if event == rules.EV_DRAW:
        return f"seat {player} draws {arg}"
    return f"game over ({OUTCOME_NAMES[arg]})"


GAME = Dethroned()
