"""Thron der Lügen as a balance Game: matches to 4 point stones (3 with 5-6), one row per round."""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.engine.game import Action, Game, Quantity, ReportView, Setup, SetupError
from balance.engine.kernels import games_per_block, slot_at_seat
from balance.engine.ismcts import skill_rungs
from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.deck import DeckError, compose_deck, deck_path, load_deck_file
from balance.games.thron_der_luegen.options import DEFAULT_DECK, FAMILY, LADDER, MODES, OPTIONS, POLICIES
from balance.games.thron_der_luegen.policies import fill_lookups
from balance.games.thron_der_luegen.match import BLOCK, play_traced, simulate_batch
from balance.games.thron_der_luegen.transcript import describe_events

MAX_ROUNDS = 60  # rows per match at most (the scenario's max_length caps lower)
DEFAULT_ROUNDS = 40
TRACE_ROWS = 50_000
SEAT_WORDS = {"0": "first in round 1"}


def act_pairs(act: int) -> tuple[tuple[int, int], ...]:
    return ((L.ACT, act * 2 + L.HELD), (L.ACT, act * 2 + L.DRAWN_SLOT))


def checked(opts: np.ndarray) -> np.ndarray:
    """A copy of the options row ``opts`` with the card checks on (OPT_CHECKS: tests, positions)."""
    opts = opts.copy()
    opts[L.OPT_CHECKS] = 1
    return opts


class ThronDerLuegen(Game):
    name = "thron_der_luegen"
    title = "Thron der Lügen"
    rulebook = "../shared/seeds/004_63fa91b936fc92e4.txt"
    supplement = "../shared/rules/thron_der_luegen.md"
    unit = "round"
    modes = MODES
    options = OPTIONS
    policies = POLICIES
    cap_quantity = "capped"
    columns = L.COLUMNS
    default_max_length = DEFAULT_ROUNDS
    length_column = "turns"
    rotation_keeps_deal = True  # the shuffles stay on the seats (seat 0 begins); rotation moves the policies
    family = FAMILY  # read by the robustness checks (merged separately)
    ladder = LADDER
    skill = skill_rungs()
    quantities = (
        Quantity("round_points_edge", "a seat's round score above the table's mean score that round, in round "
                                      "points (rounds that are scored: not ended by the Moon 3s)", "ratio", "edge",
                 table="seats", denominator="scored", by=("position", "seat", "policy")),
        Quantity("match_stones_edge", "a seat's point stones at the end of the match above the table's mean, in "
                                      "stones, one count per match", "ratio", "stone_edge", table="seats",
                 denominator="last_round", by=("seat", "policy")),
        Quantity("match_win", "P(a seat wins the match), one count per match", "ratio", "match_won",
                 table="seats", denominator="last_round", by=("seat", "policy")),
        Quantity("round_stones", "point stones a seat wins per round", "mean", "stones", table="seats",
                 by=("position", "seat", "policy")),
        Quantity("round_turns", "turns per round", "mean", "turns"),
        Quantity("end_by_end_cards", "share of rounds ended by the 4th End card", "rate", "end_cards"),
        Quantity("end_by_pile", "share of rounds ended by the used-up draw pile", "rate", "end_pile"),
        Quantity("end_by_moon_pair", "share of rounds ended by both Moon 3s beside one person", "rate",
                 "end_moon_pair"),
        Quantity("match_rounds", "rounds per match", "ratio", "match_length", denominator="last_round",
                 maximum="max_length"),
        Quantity("capped", "share of rounds played in matches that reach the round cap (no winner)", "rate",
                 "match_capped"),
    )

    # ---- setup ---------------------------------------------------------------------------------
    def validate(self, setup: Setup) -> None:
        if setup.max_length > MAX_ROUNDS:
            raise SetupError("max_length", f"at most {MAX_ROUNDS} rounds per match")
        if setup.options["composition"]:
            if setup.options["deck"] != DEFAULT_DECK:
                raise SetupError("options.composition", f"a sampled composition replaces the deck file: leave "
                                                        f"options.deck at '{DEFAULT_DECK}' (got "
                                                        f"'{setup.options['deck']}')")
        else:
            try:  # read here, where a bad file is the scenario's error; deck() reads it again from the cache
                load_deck_file(setup.files.resolve("options.deck", deck_path(setup.options["deck"])))
            except DeckError as err:
                raise SetupError("options.deck", str(err)) from None

    def deck(self, setup: Setup):
        """The sampled composition the option names, else the deck file validate resolved."""
        if setup.options["composition"]:
            return compose_deck(setup.options["composition"])
        return load_deck_file(setup.files.read["options.deck"])

    def assumed_facts(self, setup: Setup) -> list[str]:
        deck = self.deck(setup)
        if deck.assumed:
            source = deck.path.name if deck.path else deck.description
            return [f"deck '{deck.name}' ({source}): the 23 Fae cards and the 5 intrigue effects are "
                    "assumed, the rulebook does not list them"]
        return []

    def _compile(self, setup: Setup) -> np.ndarray:
        """The kernels' options row (layout OPT_*): the rule options, the match's length, the deck's
        table and the lookup tables computed from it (policies.fill_lookups)."""
        o = setup.options
        opts = np.zeros(L.N_OPTIONS, dtype=np.int64)
        opts[L.OPT_PLAYERS] = setup.players
        opts[L.OPT_STONES_TO_WIN] = o["stones_to_win"] or (
            L.STONES_TO_WIN_LARGE if setup.players >= L.LARGE_TABLE else L.STONES_TO_WIN)
        opts[L.OPT_MAX_ROUNDS] = self.length_cap(setup)
        opts[L.OPT_SPLIT_PLACER] = o["split_cards"] == "placer"
        opts[L.OPT_HUNT_DOUBLED] = o["hunt_with_double"] == "double"
        opts[L.OPT_PAIR_AT_DEAL] = o["pair_at_deal"]
        opts[L.OPT_TWO_HUNTS_CANCEL] = o["two_hunts"] == "cancel"
        opts[L.OPT_PRINTED_TOTALS] = o["printed_totals"] == "total"
        opts[L.OPT_LONE_CARD_SUM] = o["lone_sum"] == "cards"
        opts[L.OPT_LONE_ALL_STONES] = o["lone_win"] == "all_stones"
        opts[L.OPT_MOON_ONE_TOTAL] = o["moon_one_lowest"] == "total"
        opts[L.OPT_DECK:L.OPT_FACE] = self.deck(setup).table
        fill_lookups(opts)
        return opts

    def actions(self, setup: Setup) -> list[Action]:
        """The restriction menu: names a scenario seat may forbid or prefer."""
        acts = [
            Action("reveal End card", L.TURN, L.REVEAL_END, "reveal an End card as the whole turn"),
            Action("draw", L.TURN, L.DRAW, "draw a card"),
            Action("swap left", *act_pairs(L.SWAP_LEFT)[0], "swap a hand card into the left throne",
                   act_pairs(L.SWAP_LEFT)[1:]),
            Action("swap right", *act_pairs(L.SWAP_RIGHT)[0], "swap a hand card into the right throne",
                   act_pairs(L.SWAP_RIGHT)[1:]),
            Action("Sun swap", *act_pairs(L.SWAP_FAR)[0], "swap a Sun card into another person's throne",
                   act_pairs(L.SWAP_FAR)[1:]),
            Action("play intrigue", *act_pairs(L.PLAY)[0], "play an intrigue card", act_pairs(L.PLAY)[1:]),
            Action("discard", *act_pairs(L.DISCARD)[0], "discard a hand card", act_pairs(L.DISCARD)[1:]),
            Action("keep drawn card", L.ACT, L.SWAP_LEFT * 2 + L.HELD, "use the card held before, keep the drawn",
                   tuple((L.ACT, act * 2 + L.HELD) for act in range(1, L.N_ACTS))),
            Action("peek swap", L.PEEK_CHOICE, L.WITH_LEFT, "after peek_swap's look, swap", ((L.PEEK_CHOICE,
                                                                                            L.WITH_RIGHT),)),
        ]
        return acts

    # ---- running -----------------------------------------------------------------------------------
    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        """count matches -> count * max_rounds rows (unused rows have row = -1)."""
        out = np.empty((count * self.length_cap(setup), L.N_COLUMNS), dtype=np.int64)
        simulate_batch(np.int64(seed), np.int64(start), np.int64(count), np.int64(games_per_block(count, BLOCK)),
                       np.int64(setup.rotations),
                       self.compile(setup), setup.policy_codes, setup.policy_params,
                       setup.restrict, out)
        return out

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        df = super().frame(setup, table)
        small = [c for c in df.columns if c not in ("game", "deal")]
        df[small] = df[small].astype(np.int32)
        df["end_cards"] = df["end_reason"] == L.END_CARDS
        df["end_pile"] = df["end_reason"] == L.END_PILE
        df["end_moon_pair"] = df["end_reason"] == L.END_MOON_PAIR
        df["match_length"] = df["match_rounds"] * df["last_round"]
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        n = setup.players
        labels = np.array([s.label for s in setup.seats], dtype=object)
        scores = games[[f"score_{s}" for s in range(n)]].to_numpy()
        totals = games[[f"total_{s}" for s in range(n)]].to_numpy()
        mean_score, mean_total = scores.mean(axis=1), totals.mean(axis=1)
        scored = (games["end_reason"].to_numpy() != L.END_MOON_PAIR).astype(int)
        last = games["last_round"].to_numpy()
        rotation = games["rotation"].to_numpy()
        parts = []
        for seat in range(n):
            parts.append(pd.DataFrame({
                "game": games["game"].to_numpy(), "deal": games["deal"].to_numpy(), "rotation": rotation,
                "row": games["row"].to_numpy(), "seat": seat, "policy": labels[slot_at_seat(seat, rotation, n)],
                "position": (seat - games["first"].to_numpy()) % n,
                "score": scores[:, seat], "scored": scored, "edge": (scores[:, seat] - mean_score) * scored,
                "stones": games[f"stones_{seat}"].to_numpy(), "last_round": last,
                # the engine's per-row win (matrices, ladder, restricted play): the round's point stones
                "won": (games[f"stones_{seat}"].to_numpy() > 0).astype(int),
                "match_won": (games["match_winner"].to_numpy() == seat) & (last == 1),
                "stone_edge": (totals[:, seat] - mean_total) * last,
            }))
        return pd.concat(parts, ignore_index=True)

    def traced(self, setup: Setup, seed: int, game_index: int, checks: bool = False):
        """One match through the batch kernel's code with the trace on: (rows, final state, trace)."""
        opts = checked(self.compile(setup)) if checks else self.compile(setup)
        trace = np.zeros((TRACE_ROWS, L.TRACE_FIELDS), dtype=np.int64)
        rows, state = play_traced(np.int64(seed), np.int64(game_index), np.int64(setup.rotations), opts,
                                  setup.policy_codes, setup.policy_params, setup.restrict, trace)
        return rows, state, trace[: state[L.TRACE_LEN]]

    def stepper(self, setup: Setup):
        from balance.games.thron_der_luegen.positions import Steps

        return Steps(setup)

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        rows, state, trace = self.traced(setup, seed, game_index)
        rotation = game_index % setup.rotations
        names = [f"seat {s} ({setup.seats[slot_at_seat(s, rotation, setup.players)].label})"
                 for s in range(setup.players)]
        head = [f"{self.title}: match {game_index} (seed {seed}, {setup.players} players, deck "
                f"'{self.deck(setup).name}')"]
        return head + describe_events(trace, names, self.deck(setup).names)

    def bench_setups(self) -> list[tuple[str, Setup]]:
        """One-round matches (max_length = 1), so that a benchmarked "game" is exactly one round."""
        return [
            ("4p round, heuristic", self.make_setup("base", 4, "heuristic", max_length=1)),
            ("6p round, random", self.make_setup("base", 6, "random", max_length=1)),
            ("4p round, random", self.make_setup("base", 4, "random", max_length=1)),
            ("3p round, heuristic", self.make_setup("base", 3, "heuristic", max_length=1)),
            ("6p round, heuristic", self.make_setup("base", 6, "heuristic", max_length=1)),
            ("4p round, search vs heuristic", self.make_setup("base", 4, [("search", {})] + [("heuristic", {})] * 3,
                                                              max_length=1)),
        ]

    def report_view(self, setup: Setup) -> ReportView:
        return ReportView(headline=(("round_points_edge", "position"), ("match_stones_edge", "seat")),
                          group_names={"seat": SEAT_WORDS, "position": {"0": "begins the round"}},
                          match_word="match", cap="rounds per match", lengths=("turns",))

    def report_part(self, setup: Setup) -> str:
        """The report's pages by question: the game at every player count, each other deck, a seat
        playing otherwise than the field (the End-card threshold)."""
        if not setup.identical_players:
            return "One seat against the field"
        if setup.options["composition"]:
            return f"Sampled composition {setup.options['composition']}"
        deck = setup.options["deck"]
        return "The default deck, 3 to 6 players" if deck == DEFAULT_DECK else f"The deck {deck}"


GAME = ThronDerLuegen()
