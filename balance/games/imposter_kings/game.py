"""The Imposter Kings (base game: 2 players, Cutthroat for 3, 2v2 for 4; Fragments of Nersetti for 2
players, its four steps, and its Mercenary modes for 3 and 4) as a balance Game: matches to 7, one row
per round."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from balance.engine.config import Config
from balance.engine.game import Action, AdvantageView, Game, Quantity, ReportView, Setup, SetupError
from balance.engine.ismcts import skill_rungs
from balance.engine.kernels import games_per_block
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import match as M
from balance.games.imposter_kings.options import (
    FAMILY, FIXED_SIGNATURE_KEYS, LADDER, MODES, OPTIONS, POLICIES, REPORT_PARTS, SIGNATURE_MODES, TEAM_MODES,
    action_menu, assumed_card_texts, config_row)
from balance.games.imposter_kings.positions import INDEX_PHASES, action_name

MAX_ROUNDS = 24  # rows per match: Quickplay needs at least 7 rounds to reach 7 points
SECOND_PLACE_POINTS = 1  # Cutthroat: "Second place scores 1 point" (second_seat is -1 with 2 players)
# TEAM_MODES: their winner_seat, match_winner, score0 and score1 are the teams' (seats 0 & 2: team 0)
SIGNATURE_COLUMNS = ("signatures0", "signatures1")  # each seat's Signature Cards (a mask of types), 2-player FoN
SIGNATURE_TYPES = np.flatnonzero(L.SIGNATURE)  # the nine Signature Cards, by type
ARMY_CHOICE_DRAWS = 400  # [army_choice] draws: parametric draws of the fitted model behind each interval
ARMY_CHOICE_MIN_DRAWS = 100  # fewer cannot place a 95% percentile interval's ends


@dataclass(frozen=True)
class KernelInputs:
    """What the kernels read of a setup (``Game.compile``). ``row``: the configuration row (layout
    CFG_*), as positions, steppers and the search's declared signatures take it. ``config``: what a
    batch passes, for a base 2-player mode a ``Config`` of ``layout.BASE_MODES`` that makes its card
    count and table compile-time constants (the loops stop at 14 types, the later cards' texts and
    the branches for larger tables and the expansions' steps compile to nothing: the base game runs
    without their cost); else the plain row (the general kernels). Two compiled variants, not one per
    mode: each is minutes to compile cold."""

    row: np.ndarray
    config: Config | np.ndarray


class ImposterKings(Game):
    name = "imposter_kings"
    title = "The Imposter Kings"  # its modes (base game, Cutthroat, 2v2, Fragments of Nersetti...) are MODES
    rulebook = "../shared/seeds/003_0c03a6eeb1b8edc2.txt"
    supplement = "../shared/rules/imposter_kings.md"
    unit = "round"
    modes = MODES
    options = OPTIONS
    policies = POLICIES
    cap_quantity = "capped"
    family = FAMILY
    ladder = LADDER
    skill = skill_rungs()
    columns = L.COLUMNS
    default_max_length = MAX_ROUNDS
    length_column = "plies"
    quantities = (
        Quantity("first_player_win", "P(the player who goes first wins the round), rounds with a winner",
                 "ratio", "first_won", denominator="decided", by=("rotation", "row")),
        Quantity("chooser_goes_first", "P(the True King's holder chooses to go first), played rounds (True King "
                 "mode; empty when the first player is forced)", "ratio", "chooser_first", denominator="has_chooser",
                 by=("rotation", "row")),
        Quantity("chooser_win", "P(the True King's holder wins the round), rounds with a winner (True King "
                 "mode)", "ratio", "chooser_won", denominator="chooser_decided",
                 by=("rotation", "row", "chooser_first")),
        Quantity("first_true_king_match_win", "P(the match's first True King wins the match), one count "
                 "per match", "ratio", "first_true_king_won", denominator="last_round", by=("rotation",)),
        Quantity("points", "mean points the round's winner scores", "ratio", "points", denominator="decided",
                 by=("rotation",)),
        Quantity("match_rounds", "rounds played per match", "ratio", "match_played_rounds", denominator="last_round",
                 maximum="max_length"),
        Quantity("capped", "P(a played round hits the turn cap)", "rate", "capped", denominator="played"),
        Quantity("win", "P(a seat wins the round; in 2v2: its team does)", "rate", "won", table="seats",
                 by=("policy", "seat", "first")),
        Quantity("second_place", "P(a seat comes second in the round: Cutthroat's 1 point)", "rate", "second",
                 table="seats", by=("policy", "seat", "first")),
        Quantity("match_win", "P(a seat (2v2: its team) wins the match), one count per match", "ratio", "match_won",
                 table="seats", denominator="last_round", by=("policy", "seat")),
        Quantity("signature_pick", "P(a seat's Army holds the Signature Card), one count per seat and match "
                 "(modes with Signature Cards)", "rate", "picked", table="army_cards", by=("card", "policy")),
        Quantity("signature_match_win", "P(a seat whose Army holds the Signature Card wins the match), one count "
                 "per seat and match", "ratio", "won_with", table="army_cards", denominator="picked",
                 by=("card", "policy")),
    )

    # ---- setup ---------------------------------------------------------------------------
    def validate(self, setup: Setup) -> None:
        if setup.max_length > MAX_ROUNDS:
            raise SetupError("max_length", f"at most {MAX_ROUNDS} rounds per match")
        config_row(setup.mode, setup.options)

    def parse_extra(self, raw: dict, setup: Setup, key: str) -> None:
        """``[army_choice]``: the Army-choice study of a scenario whose Armies are dealt at random
        (``draws``: parametric draws behind its intervals, default ARMY_CHOICE_DRAWS), computed by
        balance.studies.army_choice."""
        table = self.study_table(raw, key, "army_choice", ("draws",))
        if table is None:
            return
        where = f"{key}.army_choice" if key else "army_choice"
        draws = table.get("draws", ARMY_CHOICE_DRAWS)
        if isinstance(draws, bool) or not isinstance(draws, int) or draws < ARMY_CHOICE_MIN_DRAWS:
            raise SetupError(f"{where}.draws", f"expected a whole number of at least {ARMY_CHOICE_MIN_DRAWS}, "
                                               f"got {draws!r}")
        if setup.mode not in SIGNATURE_MODES:
            raise SetupError(where, f"mode '{setup.mode}' has no Armies of Signature Cards "
                                    f"({' or '.join(SIGNATURE_MODES)})")
        fixed = [k for k in FIXED_SIGNATURE_KEYS if setup.options[k]]
        if setup.options["signatures"] != "random" or fixed:
            raise SetupError(where, "needs Armies dealt at random (options.signatures = \"random\", no "
                                    "signatures_seat0/1): chosen Armies would confound the cards' effects")
        setup.extra["army_choice"] = {"draws": draws}

    def assumed_facts(self, setup: Setup) -> list[str]:
        return assumed_card_texts(setup.mode, setup.options)

    def _compile(self, setup: Setup) -> KernelInputs:
        row = config_row(setup.mode, setup.options)
        return KernelInputs(row, Config(row, L.BASE_MODES) if L.BASE_MODES.admits(row) else row)

    def _kernel_args(self, setup: Setup):
        return self.compile(setup).config, setup.policy_codes, setup.policy_params, setup.restrict

    def actions(self, setup: Setup) -> list[Action]:
        """The restriction menu: every card of the mode's deck ("play card X") and the choices
        (King flip, mulligan, going first, the two reactions); see ``options.action_menu``."""
        return action_menu(setup.mode, setup.options, self.compile(setup).row)

    # ---- running -------------------------------------------------------------------------
    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        """count matches -> count * max_rounds rows (max_rounds = setup.max_length or 24)."""
        cfg, codes, params, restrict = self._kernel_args(setup)
        return M.simulate_batch(cfg, codes, params, restrict, np.int64(seed), np.int64(start), np.int64(count),
                                np.int64(games_per_block(count, M.BLOCK)), np.int64(setup.rotations),
                                np.int64(self.length_cap(setup)))

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        """Round rows, plus the rows each quantity counts. A row is a PLAYED round unless a costly
        mulligan's points ended the match before its deal was played (no winner, not capped):
        such a row carries the match's result but enters no round quantity."""
        df = super().frame(setup, table)
        df["decided"] = (df["winner_seat"] >= 0).astype(int)
        df["played"] = (df["decided"] | df["capped"]).astype(int)
        df["has_chooser"] = ((df["chooser_seat"] >= 0) & (df["played"] == 1)).astype(int)
        df["chooser_decided"] = df["has_chooser"] * df["decided"]
        df["chooser_first"] = df["chooser_first"] * df["has_chooser"]
        df["first_true_king_won"] = df["first_true_king_won"] * df["last_round"]
        df["match_played_rounds"] = df.groupby("game")["played"].transform("sum") * df["last_round"]
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        """One row per seat of every round PLAYED TO A WINNER (a match that ends on a costly
        mulligan's points has a last games-row without a winner; it is left out here). Match
        results sit on each match's last played round (``last_round``). In 2v2 the round's and the
        match's winner are a team (seat p plays for team p % 2): a seat wins with its team."""
        labels = [s.label for s in setup.seats]
        teams = setup.mode in TEAM_MODES
        played = games[games["winner_seat"] >= 0]
        last = played.groupby("game")["row"].transform("max") == played["row"]
        parts = []
        for seat in range(setup.players):
            side = seat % 2 if teams else seat
            slot = (seat - played["rotation"]) % setup.players
            parts.append(pd.DataFrame({
                "game": played["game"], "deal": played["deal"], "rotation": played["rotation"], "row": played["row"],
                "seat": seat, "slot": slot, "policy": slot.map(lambda k: labels[k]),
                "won": (played["winner_seat"] == side).astype(int),
                "first": (played["first_seat"] == seat).astype(int),
                "true_king": (played["chooser_seat"] == seat).astype(int),
                "second": (played["second_seat"] == seat).astype(int),
                "points": np.where(played["winner_seat"] == side, played["points"],
                                   np.where(played["second_seat"] == seat, SECOND_PLACE_POINTS, 0)),
                "match_won": ((played["match_winner"] == side) & last).astype(int),
                "last_round": last.astype(int),
                "signatures": played[SIGNATURE_COLUMNS[seat]] if seat < len(SIGNATURE_COLUMNS) else 0,
            }))
        return pd.concat(parts, ignore_index=True)

    def extra_frames(self, setup: Setup, games: pd.DataFrame, seats: pd.DataFrame) -> dict[str, pd.DataFrame]:
        """``army_cards``: one row per match, seat and Signature Card, on the match's last played round,
        in the modes with Signature Cards (else empty): whether the seat's Army held the card all match
        (``picked``) and whether the seat won the match holding it (``won_with``)."""
        last = seats[(seats["last_round"] == 1) & (seats["signatures"] != 0)]
        parts = [pd.DataFrame({"game": last["game"], "deal": last["deal"], "rotation": last["rotation"],
                               "seat": last["seat"], "policy": last["policy"], "card": L.NAMES[t],
                               "picked": (last["signatures"] >> t) & 1,
                               "won_with": ((last["signatures"] >> t) & 1) * last["match_won"]})
                 for t in SIGNATURE_TYPES]
        return {"army_cards": pd.concat(parts, ignore_index=True)}

    def stepper(self, setup: Setup):
        from balance.games.imposter_kings.positions import Steps

        return Steps(setup)

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        rows, events = self.traced(setup, seed, game_index)
        labels = [s.label for s in setup.seats]
        rotation = game_index % setup.rotations
        lines = [f"{self.title}: match {game_index} (seed {seed}, mode {setup.mode})"]
        current = -1
        for ev in events:
            r = int(ev[L.EV_ROUND])
            if r != current:
                if current >= 0:
                    lines.append(round_summary(rows[current], setup.mode in TEAM_MODES))
                current = r
                lines.append(f"-- round {r + 1}")
            seat = int(ev[L.EV_DECIDER])
            who = f"seat {seat} ({labels[(seat - rotation) % setup.players]})"
            if ev[L.EV_PHASE] == L.EV_DEAL:
                lines.append(f"   {who:<22} dealt {', '.join(unpack_hand(int(ev[L.EV_ACTION])))}"
                             + (f"   [Accused: {L.NAMES[ev[L.EV_THRONE]]}]" if seat == 0 else ""))
                continue
            lines.append(f"   {who:<22} {L.PHASE_NAMES[ev[L.EV_PHASE]]:<24} -> "
                         f"{describe_action(int(ev[L.EV_PHASE]), int(ev[L.EV_ACTION]))}   "
                         f"[Throne: {describe_throne(int(ev[L.EV_THRONE]), int(ev[L.EV_THRONE_VALUE]))}]")
        if current >= 0:
            lines.append(round_summary(rows[current], setup.mode in TEAM_MODES))
        return lines

    def traced(self, setup: Setup, seed: int, game_index: int, capacity: int = 20_000):
        """The round rows and the decision events of one match, via the batch kernel's code path."""
        cfg, codes, params, restrict = self._kernel_args(setup)
        trace = np.zeros((capacity, L.EVENT_WIDTH), dtype=np.int64)
        rows, fill = M.simulate_traced(cfg, codes, params, restrict, np.int64(seed), np.int64(game_index),
                                       np.int64(setup.rotations), np.int64(self.length_cap(setup)), trace)
        return rows, trace[:fill]

    def bench_setups(self) -> list[tuple[str, Setup]]:
        """One-round matches (max_length = 1), so that a benchmarked "game" is exactly one round."""
        def one_round(seats):
            return self.make_setup("full", 2, seats, max_length=1)

        return [
            ("full round, heuristic vs heuristic", one_round([("heuristic", {})] * 2)),
            ("cutthroat 3p heuristic round", self.make_setup("cutthroat", 3, [("heuristic", {})] * 3, max_length=1)),
            ("2v2 4p heuristic round", self.make_setup("two_v_two", 4, [("heuristic", {})] * 4, max_length=1)),
            ("immortal step round, heuristic vs heuristic",
             self.make_setup("immortal_step", 2, [("heuristic", {})] * 2, max_length=1)),
            ("army step round, heuristic vs heuristic",
             self.make_setup("army_step", 2, [("heuristic", {})] * 2, max_length=1)),
            ("signature step round, heuristic vs heuristic",
             self.make_setup("signature_step", 2, [("heuristic", {})] * 2, max_length=1)),
            ("fon round (full Fragments of Nersetti), heuristic vs heuristic",
             self.make_setup("fon", 2, [("heuristic", {})] * 2, max_length=1)),
            ("cutthroat mercenaries 3p heuristic round",
             self.make_setup("cutthroat_mercenaries", 3, [("heuristic", {})] * 3, max_length=1)),
            ("2v2 mercenaries 4p heuristic round",
             self.make_setup("two_v_two_mercenaries", 4, [("heuristic", {})] * 4, max_length=1)),
            ("full round, greedy vs greedy", one_round([("greedy", {})] * 2)),
            ("full round, search(16) vs heuristic", one_round([("search", {}), ("heuristic", {})])),
            ("cutthroat 3p round, search(16) vs heuristic",
             self.make_setup("cutthroat", 3, [("search", {})] + [("heuristic", {})] * 2, max_length=1)),
            ("2v2 4p round, search(16) vs heuristic",
             self.make_setup("two_v_two", 4, [("search", {})] + [("heuristic", {})] * 3, max_length=1)),
        ]

    def report_view(self, setup: Setup) -> ReportView:
        first = {"seat0": 0, "seat1": 1, "seat2": 2, "seat3": 3}.get(setup.options["first_player"])
        seats = {} if first is None else {str(q): "goes first" if q == first else "goes later"
                                          for q in range(setup.players)}
        if setup.players == 2 and first is not None:
            seats[str(1 - first)] = "goes second"
        went = {"0": "went second", "1": "went first"}
        sides = 2 if setup.mode in TEAM_MODES else setup.players  # 2v2: the first player's team, a seat's team
        dealt = ", random Armies" if setup.mode in SIGNATURE_MODES and setup.options["signatures"] == "random" else ""
        advantage = AdvantageView(first="first_player_win", fair=1 / sides, seat="win", chooser="chooser_win",
                                  row=f"{setup.mode} ({setup.players}p){dealt}")  # chosen and dealt Armies apart
        return ReportView(headline=(("first_player_win", ""), ("chooser_goes_first", ""), ("chooser_win", "")),
                          group_names={"seat": seats, "first": went, "chooser_first": went}, match_word="match",
                          cap="rounds per match", lengths=("plies",), advantage=advantage)

    def report_part(self, setup: Setup) -> str:
        return REPORT_PARTS[setup.mode]


def describe_action(phase: int, action: int) -> str:
    name = action_name(phase, action)
    if phase in INDEX_PHASES:
        return f"Court card #{name}"
    if phase in (L.PH_MYSTIC, L.PH_EXECUTIONER) and action != L.ACT_NO:
        return f"names {name}"
    if phase == L.PH_PICK_PLAYER and action != L.ACT_NO:
        return f"seat {name}"
    if phase == L.PH_FIRST_SEAT:
        return f"{name} seat(s) clockwise from the True King goes first"
    if phase == L.PH_DIRECTION:
        return "clockwise" if action == L.ACT_YES else "counterclockwise"
    return str(name)


def unpack_hand(packed: int) -> list[str]:
    mask = (1 << L.HAND_BITS) - 1
    return [L.NAMES[t] for t in range(L.TYPES) for _ in range((packed >> (L.HAND_BITS * t)) & mask)]


def describe_throne(card: int, value: int) -> str:
    if card < 0:
        return "empty"
    if card >= L.TYPES:
        return f"{L.NAMES[card - L.TYPES]} (disgraced) {value}"
    return f"{L.NAMES[card]} {value}"


def round_summary(row, teams: bool = False) -> str:
    col = {name: int(row[i]) for i, name in enumerate(L.COLUMNS)}
    if col["second_seat"] >= 0:  # Cutthroat
        col["score1"] = f"{col['score1']}-{col['score2']}"
    if col["capped"]:
        return f"   round over: capped at the turn cap, no winner; score {col['score0']}-{col['score1']}"
    if col["winner_seat"] < 0:
        return (f"   no round played: a costly mulligan's points ended the match; "
                f"score {col['score0']}-{col['score1']}")
    who = (f"team {col['winner_seat']} (seats {col['winner_seat']} & {col['winner_seat'] + 2})" if teams
           else f"seat {col['winner_seat']}")
    return (f"   round over: {who} wins {col['points']} point(s)"
            f"{' by the Assassin' if col['assassinated'] else ''}; score {col['score0']}-{col['score1']}")


GAME = ImposterKings()
