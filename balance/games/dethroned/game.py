"""DETHRONED as a balance Game: setup compilation, the batch entry point, frames, transcripts."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from balance.engine.game import Action, Game, Quantity, ReportView, Setup, SetupError
from balance.engine.ismcts import skill_rungs
from balance.engine.kernels import games_per_block, slot_at_seat
from balance.games.dethroned import layout as L
from balance.games.dethroned import match
from balance.games.dethroned.custom_roles import parse_custom_role, role_table
from balance.games.dethroned.layout import (
    BUILTIN_ROLES, GT, KILL_ASSAILANT, KILL_COMMONER, KILL_ROLE, KILL_ROYAL, NOT_IN_PLAY, ROLE_ASSAILANT_ART,
    ROLE_ASSAILANT_DEFAULT, ROLE_COND_BASE, ROLE_COND_COUNT, ROLE_KILL_CLASS, ROLE_KILL_ROLE, ROLE_MAX_KILLS,
    ROLE_MIN_DEAD, ROLE_MIN_KILLS, ROLE_ROYAL_ART, ROLE_ROYAL_DEFAULT, RoleSpec,
)
from balance.games.dethroned.options import FAMILY, LADDER, MODES, OPTIONS, POLICIES
from balance.games.dethroned.setups import SUGGESTED_SETUPS

DEFAULT_MAX_DECISIONS = 3000
MAX_TIMING_SECONDS = 60.0  # a defence window or count longer than a minute is no real-time game
MAX_IMPASSE_ROUNDS = 100
KILL_CLASS_WANT = 0.8  # wanting any player of a class dead, until one is killed
KILL_COUNT_WANT = 0.5  # wanting anybody dead, until enough kills
DEATHS_WANT = 0.3  # wanting deaths by anyone
NO_KILL_RELUCTANCE = 0.3  # a role that must not kill


def want_matrices(table: np.ndarray, art: bool, royal_assailants: bool) -> tuple[np.ndarray, np.ndarray]:
    """(want_cond, want_kill): how much role R wants role V dead (>0) or alive (<0).
    ``royal_assailants``: a crown-and-skull role counts as an Assailant to kill (option
    sentinel_counts_royal_assailant); whether V has already killed is judged in play (policies)."""
    n = table.shape[0]
    royal = table[:, ROLE_ROYAL_ART if art else ROLE_ROYAL_DEFAULT]
    skull = table[:, ROLE_ASSAILANT_ART if art else ROLE_ASSAILANT_DEFAULT]
    if not royal_assailants:
        skull = skull * (royal == 0)
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


def role_specs(customs: list, key: str) -> list[RoleSpec]:
    """The roles a setup can name: the built-in ones and its ``custom_roles`` (bad input at ``key``)."""
    specs: list[RoleSpec] = list(BUILTIN_ROLES)
    for i, entry in enumerate(customs):
        spec = parse_custom_role(entry, f"{key}[{i}]")
        if any(s.name == spec.name for s in specs):
            raise SetupError(f"{key}[{i}].name", f"role '{spec.name}' already exists")
        specs.append(spec)
    return specs


@dataclass(frozen=True)
class KernelInputs:
    """What the kernels read of a setup (``Game.compile``): the options row (layout O_*), the table
    of the distinct roles in play (``role_names``, in order of first seat; role id = index), how much
    each role wants each other dead or alive, the setup's roles by id, how many of each, and the role
    a restricted seat's restriction binds (NO_ROLE: every role)."""

    opts: np.ndarray
    roles: np.ndarray
    want_cond: np.ndarray
    want_kill: np.ndarray
    want_total: np.ndarray
    setup_roles: np.ndarray
    role_count: np.ndarray
    restricted_role: np.int64
    role_names: tuple[str, ...]


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
    cap_quantity = "capped_rate"
    family = FAMILY
    ladder = LADDER
    skill = skill_rungs()  # the tree search at 256 iterations rates above the heuristic (docs/games/dethroned.md)
    columns = L.GAME_COLUMNS + tuple(
        f"{field}_{seat}" for seat in range(L.MAX_PLAYERS) for field in L.SEAT_FIELDS)
    rows_per_game = 1
    default_max_length = DEFAULT_MAX_DECISIONS
    seat_word = "role"
    rotation_keeps_deal = True  # the role deal and decks stay on the seats; rotation moves the policies
    quantities = (
        Quantity("win_rate", "Share of games a seat wins (capped games are losses)", "rate", "won", table="seats",
                 by=("role", "policy", "seat")),
        Quantity("survival_rate", "Share of games a seat is alive at the end", "rate", "alive", table="seats",
                 by=("role", "policy", "seat")),
        Quantity("assailant_share", "Assailant roles per player at the start (default symbols)", "ratio",
                 "assailants_default", denominator="players", fixed=True),
        Quantity("assailant_share_art", "Assailant roles per player at the start (printed-art symbols)", "ratio",
                 "assailants_art", denominator="players", fixed=True),
        Quantity("seat_edge", "A seat's win rate minus the field's (the mean over the game's seats): no seating "
                 "order exists, so any edge is the model's", "mean", "won_vs_field", table="seats", by=("seat",)),
        Quantity("capped_rate", "Share of games stopped by the decision cap", "rate", "capped"),
        Quantity("deaths", "Deaths per game", "mean", "deaths", maximum="players"),
        Quantity("seconds", "Simulated game length in seconds", "mean", "seconds"),
    )

    # ---- setup ------------------------------------------------------------------------------
    def default_extra(self, mode: str, players: int) -> dict[str, Any]:
        """The roles of the first suggested setup for this many players."""
        return next(({"roles": list(roles)} for _, roles in SUGGESTED_SETUPS.values() if len(roles) == players), {})

    def parse_extra(self, raw: dict[str, Any], setup: Setup, key: str) -> None:
        prefix = f"{key}." if key else ""
        unknown = set(raw) - {"roles", "custom_roles", "restrict_role"}
        if unknown:
            name = sorted(unknown)[0]
            raise SetupError(f"{prefix}{name}", f"{self.name} takes no such key (known: roles, custom_roles, "
                                                f"restrict_role)")
        customs = raw.get("custom_roles", [])
        if not isinstance(customs, list):
            raise SetupError(f"{prefix}custom_roles", "expected an array of tables ([[custom_roles]])")
        specs = role_specs(customs, f"{prefix}custom_roles")
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
        # refused here, where a bad role is the scenario's error; compile builds the table again
        role_table(specs, distinct, setup.options["fool_must_kill_king"], f"{prefix}custom_roles")
        setup.extra["roles"] = list(names)
        if customs:
            setup.extra["custom_roles"] = customs
        restricted = raw.get("restrict_role")
        if restricted is not None:
            if restricted not in distinct:
                raise SetupError(f"{prefix}restrict_role", f"expected a role in play ({', '.join(distinct)}), "
                                                           f"got {restricted!r}")
            setup.extra["restrict_role"] = restricted

    def _compile(self, setup: Setup) -> KernelInputs:
        names = tuple(dict.fromkeys(setup.extra["roles"]))
        table = role_table(role_specs(setup.extra.get("custom_roles", []), "custom_roles"), list(names),
                           setup.options["fool_must_kill_king"], "custom_roles")
        setup_roles = np.array([names.index(n) for n in setup.extra["roles"]], dtype=np.int64)
        role_count = np.bincount(setup_roles, minlength=len(names)).astype(np.int64)
        art = setup.options["symbols"] == "art"
        o = setup.options
        want_cond, want_kill = want_matrices(table, art, o["sentinel_counts_royal_assailant"])
        opts = np.zeros(L.OPTIONS_SIZE, dtype=np.int64)
        opts[L.O_WINDOW_MS] = round(o["window_seconds"] * 1000)
        opts[L.O_COUNT_MS] = round(o["count_seconds"] * 1000)
        opts[L.O_ART_SYMBOLS] = art
        opts[L.O_REDIRECT_CREDIT] = o["redirect_credit"]
        opts[L.O_SHOP_COUNTS_HAND] = o["shopkeeper_deck"] == "deck_and_hand"
        opts[L.O_SENTINEL_ROYAL_ASSAILANT] = o["sentinel_counts_royal_assailant"]
        opts[L.O_BOMB_NEEDS_DEFENCE] = o["bomb_needs_defence"]
        opts[L.O_DEFENDER_REDIRECT] = o["defender_may_redirect"]
        opts[L.O_FIRST_VOTE_AFTER_TWO_AT_8] = o["first_vote_after_two_at_8"]
        opts[L.O_MAX_DECISIONS] = self.length_cap(setup)
        opts[L.O_IMPASSE_ROUNDS] = o["impasse_rounds"]
        opts[L.O_OVERWRITE] = o["attack_by_overwrite"]
        opts[L.O_REDIRECT_DEFENCE] = o["redirect_defending_card"]
        opts[L.O_REDIRECT_RESTARTS] = o["redirect_restarts_window"]
        opts[L.O_DEFENCE_STACK] = o["defence_cards"] == "stack"
        restricted = setup.extra.get("restrict_role")
        return KernelInputs(opts=opts, roles=table, want_cond=want_cond, want_kill=want_kill,
                            want_total=want_cond + want_kill, setup_roles=setup_roles, role_count=role_count,
                            restricted_role=np.int64(names.index(restricted) if restricted else L.NO_ROLE),
                            role_names=names)

    def validate(self, setup: Setup) -> None:
        for name in ("window_seconds", "count_seconds"):
            seconds = setup.options[name]
            if not math.isfinite(seconds) or not 0 <= seconds <= MAX_TIMING_SECONDS:
                raise SetupError(f"options.{name}", f"must be a number of seconds in [0, {MAX_TIMING_SECONDS}]; "
                                                    f"got {seconds!r}")
        if not 1 <= setup.options["impasse_rounds"] <= MAX_IMPASSE_ROUNDS:
            raise SetupError("options.impasse_rounds", f"must be in [1, {MAX_IMPASSE_ROUNDS}]")

    # ---- running ----------------------------------------------------------------------------
    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        c = self.compile(setup)
        out = np.empty((count, len(self.columns)), dtype=np.int32)
        match.simulate_batch(np.uint64(seed), start, count, games_per_block(count, match.GAMES_PER_BLOCK),
                             setup.rotations, c.opts, c.roles, c.want_cond, c.want_kill, c.want_total, c.setup_roles,
                             c.role_count, setup.policy_codes, setup.policy_params, setup.restrict,
                             c.restricted_role, out)
        return out

    def actions(self, setup: Setup) -> list[Action]:
        """The restriction menu: the claim (truth or lie), each kind of move at a reaction (every
        Modifier, Redirect and Bomb is one kind of move), and the vote. With ``restrict_role`` a
        seat's restriction binds it only while it holds that role."""
        lies = tuple((L.DK_CLAIM, bit) for bit in range(1, len(self.compile(setup).role_names)))
        menu = [
            Action("Claim truthfully", L.DK_CLAIM, L.CLAIM_TRUTH, "claim its own role in the discussion"),
            *([Action("Lie about role", *lies[0], "claim another role in play in the discussion", pairs=lies[1:])]
              if lies else []),
            Action("Pass", L.DK_ACTION, L.ACT_PASS, "let a reaction go by without playing a card"),
            Action("Attack", L.DK_ACTION, L.ACT_ATTACK, "attack a player with a Battle card"),
            Action("Defend", L.DK_ACTION, L.ACT_DEFEND, "play a Battle card against an attack (its own, "
                   "or helping another)"),
            Action("Double", L.DK_ACTION, L.ACT_DOUBLE, "play the Double on an attacking or defending card"),
            Action("Halve", L.DK_ACTION, L.ACT_HALVE, "play the Halve on an attacking or defending card"),
            Action("Redirect", L.DK_ACTION, L.ACT_REDIRECT, "play the Redirect: take an attack over and "
                   "send it at a player"),
            Action("Bomb", L.DK_ACTION, L.ACT_BOMB, "play the Bomb: beat every attack on a player"),
            Action("Overwrite", L.DK_ACTION, L.ACT_OVERWRITE, "overwrite another's attack with a larger "
                   "Battle card (only with the option attack_by_overwrite)"),
            Action("Pass vote", L.DK_VOTE, L.VOTE_END, "vote to end the game at a vote (no attack to continue)"),
            Action("Vote to continue", L.DK_VOTE, L.VOTE_CONTINUE, "continue the game at a vote by attacking"),
        ]
        return menu

    def assailant_counts(self, setup: Setup) -> tuple[int, int]:
        c = self.compile(setup)
        return (int(c.roles[c.setup_roles, ROLE_ASSAILANT_DEFAULT].sum()),
                int(c.roles[c.setup_roles, ROLE_ASSAILANT_ART].sum()))

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        df = pd.DataFrame(table, columns=list(self.columns))
        default, art = self.assailant_counts(setup)
        df["assailants_default"] = default
        df["assailants_art"] = art
        df["outcome_name"] = df["outcome"].map(dict(enumerate(OUTCOME_NAMES)))
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        names = self.compile(setup).role_names
        labels = [s.label for s in setup.seats]
        players = setup.players
        parts = []
        for seat in range(players):
            part = games[["game", "deal", "rotation", "capped"]].copy()
            part["seat"] = seat
            part["policy"] = [labels[slot_at_seat(seat, r, players)] for r in games["rotation"]]
            for field in L.SEAT_FIELDS:
                part[field] = games[f"{field}_{seat}"].to_numpy()
            part["role"] = part["role"].map(dict(enumerate(names)))
            parts.append(part)
        seats = pd.concat(parts, ignore_index=True)
        field = sum(games[f"won_{seat}"].to_numpy() for seat in range(players)) / players
        seats["won_vs_field"] = seats["won"] - np.tile(field, players)
        return seats

    # ---- one game, readable -----------------------------------------------------------------
    def replay(self, setup: Setup, seed: int, game_index: int, trace_size: int = 20_000,
               script: np.ndarray | None = None, checked: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(state, trace, row) of game ``game_index``, stepped with the batch's compiled rules and
        policies. ``script``: every seat's moves instead of its policy (``script[p, k]``: the action
        of p's k-th move at a reaction or vote, -1 or past the end: pass; claims truthful, credit
        to the first candidate); ``checked``: stop at an illegal action or a card out of place."""
        from balance.games.dethroned.positions import Steps

        steps = Steps(setup, rotation=game_index % setup.rotations, trace_size=trace_size, checked=checked)
        run = steps.start(seed, game_index // setup.rotations)
        if script is None:
            steps.play(run)
        else:
            steps.play_script(run, script)
        s = run.state
        self.last_replay_state = s
        if s[L.H_ERROR] == L.ERROR_ILLEGAL_ACTION:
            raise ValueError("policy chose an illegal action")
        if s[L.H_ERROR] == L.ERROR_CARDS:
            raise ValueError("a card is not in exactly one place")
        row = np.empty((1, len(self.columns)), dtype=np.int32)
        match.write_row(s, row, 0, game_index, game_index // setup.rotations,
                        game_index % setup.rotations)
        return s, steps.trace(run)[: s[L.H_TRACE_LEN]], row[0]

    def stepper(self, setup: Setup):
        from balance.games.dethroned.positions import Steps

        return Steps(setup)

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        s, trace, row = self.replay(setup, seed, game_index)
        names = self.compile(setup).role_names
        players = setup.players
        lines = [f"DETHRONED game {game_index} (seed {seed}), {players} players: "
                 + ", ".join(f"seat {p} {names[s[L.pbase(p) + L.PL_ROLE]]}" for p in range(players))]
        for t, event, player, arg, arg2 in trace:
            lines.append(f"{t / 1000:8.2f}s  {describe_event(event, player, arg, arg2, names)}")
        won = [p for p in range(players) if row[L.SEAT_BASE + p * len(L.SEAT_FIELDS) + L.S_WON]]
        lines.append("winners: " + (", ".join(f"seat {p} ({names[s[L.pbase(p) + L.PL_ROLE]]})" for p in won)
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
            ("5p The Royal Family, search vs heuristic",
             self.make_setup("standard", 5, [("search", {})] + [("heuristic", {})] * 4,
                             extra={"roles": royal_family})),
        ]

    def report_view(self, setup: Setup) -> ReportView:
        return ReportView(headline=(("win_rate", "role"),), cap="decisions per game (a guard)",
                          lengths=("seconds", "deaths"), outcome="outcome_name")


OUTCOME_NAMES = ("vote", "stalemate", "last_standing", "capped")


def card_name(card: int) -> str:
    return L.KIND_NAMES[card % L.DECK_SIZE]


def describe_action(action: int, card: int) -> str:
    kind = L.ACTION_NAMES[action & L.KIND_MASK]
    a = (action >> L.ATTACK_SHIFT) & L.FIELD_MASK
    target = (action >> L.TARGET_SHIFT) & L.FIELD_MASK
    side = "defence" if (action >> L.SIDE_SHIFT) & 1 else "attack"
    if kind == "attack":
        return f"attacks seat {target} with a {card_name(card)}"
    if kind == "defend":
        return f"defends attack #{a} with a {card_name(card)}"
    if kind in ("double", "halve"):
        return f"plays {kind.title()} on the {side} card of attack #{a}"
    if kind == "redirect" and side == "defence":
        return f"Redirects the defending card of attack #{a} at seat {target}"
    if kind == "redirect":
        return f"Redirects attack #{a} at seat {target}"
    if kind == "overwrite":
        return f"overwrites attack #{a} with a {card_name(card)}"
    if kind == "bomb":
        return f"Bombs the attacks around attack #{a}"
    return kind


def describe_event(event: int, player: int, arg: int, arg2: int, names: list[str]) -> str:
    if event == L.EV_CLAIM:
        return f"seat {player} claims {names[arg]}"
    if event == L.EV_ACTION:
        return f"seat {player} {describe_action(arg, arg2)}"
    if event == L.EV_DEATH:
        return f"seat {player} dies, kill credited to seat {arg}"
    if event == L.EV_VOTE_END:
        return f"seat {player} votes to end"
    if event == L.EV_VOTE_CONTINUE:
        return f"seat {player} votes to continue"
    if event == L.EV_DRAW:
        return f"seat {player} draws {arg}"
    return f"game over ({OUTCOME_NAMES[arg]})"


GAME = Dethroned()
