"""Throne Arcade: the Game the engine runs (declarations, batch entry, frames, replay, actions).

Game index g is one MATCH (``deal, rotation = divmod(g, rotations)``); its rounds are the result
rows (``row``), each carrying the match's outcome. A match always ends: one player left, or a
round stopped by the turn cap (``capped``, the match then ``match_capped``); the round count never
reaches the match cap, since a match has exactly start_hand x (players - 1) rounds plus the
winner's losses (every eliminated player lost start_hand rounds).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.engine.game import Action, Game, Quantity, ReportView, Setup, SetupError
from balance.engine.kernels import games_per_block, slot_at_seat
from balance.engine.ismcts import skill_rungs
from balance.games.throne_arcade import layout as L
from balance.games.throne_arcade.options import FAMILY, LADDER, MODES, OPTIONS, POLICIES
from balance.games.throne_arcade.match import BLOCK, simulate_batch, simulate_traced
from balance.games.throne_arcade.transcript import describe_events

TRACE_ROWS = 50_000
POINTS = 100.0  # shares against the fair 1/n are reported in percentage points
FACE_WORDS = {name.lower(): name for name in L.FACE_NAMES}


def cards(n: int) -> str:
    """"1 card", "4 cards"."""
    return f"{n} card{'s' if n != 1 else ''}"


def hand_start_label(hand: int, started: int) -> str:
    """The seat frame's hand_start: a seat's hand size and whether it started, "4 cards, started"."""
    return f"{cards(hand)}, {'started' if started else 'not starting'}"


def hand_start_labels(hand: np.ndarray, started: np.ndarray) -> np.ndarray:
    codes = 2 * hand + started
    names = {c: hand_start_label(c // 2, c % 2) for c in np.unique(codes).tolist()}
    return np.array([names[c] for c in codes.tolist()], dtype=object)


def deck_faces(names, key: str) -> list[int]:
    """The faces of a deck list; an unknown name or a deck of the wrong size is bad input at ``key``."""
    if not names:
        raise SetupError(key, "the deck is empty")
    faces = []
    for i, name in enumerate(names):
        face = L.FACE_IDS.get(str(name).strip().lower())
        if face is None:
            raise SetupError(f"{key}[{i}]", f"unknown card {name!r} (a colour of {', '.join(L.COLOURS)} and a "
                                            f"type of {', '.join(L.TYPES)}, e.g. 'green Lord')")
        faces.append(face)
    if len(faces) > L.MAX_DECK:
        raise SetupError(key, f"at most {L.MAX_DECK} cards; got {len(faces)}")
    return faces


def unpack_specials(packed: np.ndarray, kind: int) -> np.ndarray:
    return (packed >> (L.SPECIAL_BITS * kind)) & L.SPECIAL_MAX


class ThroneArcade(Game):
    name = "throne_arcade"
    title = "Throne Arcade"
    rulebook = "../shared/seeds/001_19c18b8975696875.txt"
    supplement = "../shared/rules/throne_arcade.md"
    unit = "round"
    modes = MODES
    options = OPTIONS
    policies = POLICIES
    cap_quantity = "capped"
    family = FAMILY  # read by the engine's robustness checks (issue 11's robust branch)
    ladder = LADDER
    skill = skill_rungs()
    columns = L.COLUMNS
    default_max_length = L.START_HAND * L.MAX_PLAYERS  # rows per match; a match needs at most start_hand x players - 1
    length_column = "turns"
    rotation_keeps_deal = True  # the cards and the first starter stay on their seats; rotation moves the policies
    quantities = (
        Quantity("starter_edge_full", "percentage points by which the round's starting player loses less often than "
                 "the fair 1/n, rounds with every player of the match still in (positive: starting helps)", "ratio",
                 "starter_edge_full", denominator="full_played"),
        Quantity("starter_loses_full", "P(the round's starting player loses it), rounds with every player of the "
                 "match still in (fair: 1/players)", "ratio", "starter_lost_full", denominator="full_played"),
        Quantity("starter_loses", "P(the round's starting player loses it), by players still in", "ratio",
                 "starter_lost", denominator="played", by=("alive",)),
        Quantity("starter_edge", "percentage points by which the starter loses less often than the fair 1/n, by "
                 "players still in", "ratio", "starter_edge", denominator="played", by=("alive",)),
        Quantity("catch_up_full", "percentage points by which a round's loser loses the next round less often than "
                 "the fair 1/n, every player still in (positive: the handicap acts as a catch-up)", "ratio",
                 "catch_up_full", denominator="has_prev_full"),
        Quantity("repeat_loss_full", "P(a round's loser loses the next round too), every player still in "
                 "(fair: 1/players)", "ratio", "repeat_full", denominator="has_prev_full"),
        Quantity("repeat_loss", "P(a round's loser loses the next round too), by players still in", "ratio",
                 "prev_loser_lost", denominator="has_prev", by=("alive",)),
        Quantity("catch_up", "percentage points by which a round's loser loses the next round less often than the "
                 "fair 1/n, by players still in", "ratio", "catch_up", denominator="has_prev", by=("alive",)),
        Quantity("match_rounds", "rounds per match", "ratio", "match_rounds_last", denominator="last_round",
                 maximum="max_length"),
        Quantity("winner_losses", "rounds the match winner lost (a match lasts start_hand x (players - 1) rounds "
                 "plus these)", "ratio", "winner_losses", denominator="decided_last"),
        Quantity("longest_match", "P(the match runs to the longest possible length: its winner lost "
                 "start_hand - 1 rounds)", "ratio", "longest_match", denominator="decided_last"),
        Quantity("turns", "turns per round (a skipped player takes none)", "ratio", "played_turns",
                 denominator="played", by=("alive",), maximum="round_turn_cap"),
        Quantity("revivals", "players the orange VII brought back, per round", "ratio", "played_revivals",
                 denominator="played"),
        Quantity("capped", "P(a round stops without a loser: stalled, no card able to move, or at the turn "
                 "cap)", "rate", "capped"),
        Quantity("match_capped", "P(a match ends by a capped round), one count per match", "ratio",
                 "match_capped_last", denominator="last_round"),
        Quantity("round_loss", "P(a seat loses the round), rounds it played", "rate", "lost", table="seats",
                 by=("policy", "seat", "started", "hand")),
        # hand size against the start: the starter of every round after the first is the last round's
        # loser, dealt a card less per round lost, so the two come together; in full-table rounds (fair
        # share 1/players throughout) each is measured with the other held fixed (hand_start: both)
        Quantity("round_loss_full", "P(a seat loses a round with every player of the match still in) (fair: "
                 "1/players), by its hand size and whether it started the round", "ratio", "lost_full",
                 table="seats", denominator="full", by=("hand_start", "hand", "started")),
        Quantity("match_win", "P(a seat wins the match), one count per seat and decided match (a capped match is "
                 "the cap's: match_capped)", "ratio", "match_won", table="seats", denominator="seat_match",
                 by=("policy", "seat", "lost_round1", "started_round1")),
        Quantity("match_edge", "percentage points by which a seat wins more decided matches than the fair "
                 "1/players, one count per seat and match (negative: below its fair share)", "ratio",
                 "match_edge", table="seats", denominator="seat_match", by=("seat", "lost_round1", "started_round1")),
        Quantity("round1_loser_match_edge", "percentage points by which the loser of a match's first round wins "
                 "it more often than the fair 1/players (negative: losing round 1 costs match wins)", "ratio",
                 "round1_loser_edge", table="seats", denominator="round1_loser_match"),
        Quantity("plain_loses", "P(a seat dealt no special card loses the round)", "ratio", "lost_plain",
                 table="seats", denominator="plain", by=("alive", "hand")),
        *(Quantity(f"{kind}_holder_loses", f"P(a seat dealt {words} loses the round)", "ratio",
                   f"lost_{kind}", table="seats", denominator=f"has_{kind}", by=("alive", "hand"))
          for kind, words in zip(L.SPECIAL_KINDS, ("a VII (not the orange one)", "the orange VII",
                                                   "the green Lord", "a Hand", "an Ace"))),
    )

    # ---- setup ------------------------------------------------------------------------------
    def validate(self, setup: Setup) -> None:
        faces = deck_faces(setup.options["deck"], "options.deck")
        need = setup.players * setup.options["start_hand"] + 1
        if need > len(faces):
            raise SetupError("players", f"{setup.players} hands of {setup.options['start_hand']} cards and the "
                                        f"starting card need {need} cards; the deck has {len(faces)}")
        if setup.max_length > self.default_max_length * 4:
            raise SetupError("max_length", f"at most {self.default_max_length * 4} rounds per match")

    def parse_extra(self, raw: dict, setup: Setup, key: str) -> None:
        """``[hand_start]`` (no keys): the study of hand size against the start, computed by
        balance.studies.hand_start beside the scenario's claims."""
        if self.study_table(raw, key, "hand_start") is not None:
            setup.extra["hand_start"] = True

    def assumed_facts(self, setup: Setup) -> list[str]:
        return []  # the deck is the option "deck", marked assumed

    def length_cap(self, setup: Setup) -> int:
        """Rows per match: the scenario's max_length, by default the longest a match can be (every row
        is used, and reports show it)."""
        return setup.max_length or setup.options["start_hand"] * setup.players

    def _compile(self, setup: Setup) -> np.ndarray:
        """The kernels' options row (layout OPT_*): the rule options, the rows per match and the deck."""
        o = setup.options
        faces = deck_faces(o["deck"], "options.deck")
        opts = np.zeros(L.N_OPTIONS, dtype=np.int64)
        opts[L.OPT_PLAYERS] = setup.players
        opts[L.OPT_MAX_ROUNDS] = self.length_cap(setup)
        opts[L.OPT_TURN_CAP] = o["round_turn_cap"]
        opts[L.OPT_START_HAND] = o["start_hand"]
        opts[L.OPT_STACKING] = o["stacking"]
        opts[L.OPT_HAND_ON_ANYTHING] = o["hand_on_anything"]
        opts[L.OPT_KING_DRAWS] = o["king_draws_5"]
        opts[L.OPT_PLAY_DRAWN] = o["play_drawn_card"]
        opts[L.OPT_STARTING_CARD_ACTS] = o["starting_card_acts"]
        opts[L.OPT_DECK_SIZE] = len(faces)
        opts[L.OPT_DECK: L.OPT_DECK + len(faces)] = faces
        return opts

    def deck_names(self, setup: Setup) -> list[str]:
        opts = self.compile(setup)
        return [L.FACE_NAMES[f] for f in opts[L.OPT_DECK: L.OPT_DECK + opts[L.OPT_DECK_SIZE]]]

    def actions(self, setup: Setup) -> list[Action]:
        """The restriction menu: each card face and each card type of the deck (in every decision that
        lays a card), the colours a Hand names, and the "no card" answers."""
        deck = self.deck_names(setup)
        card_kinds = (L.LAY_FIRST, L.LAY_MORE, L.ANSWER_PENALTY, L.PLAY_DRAWN)

        def card_action(name, cards, doc):
            pairs = tuple((kind, c) for c in cards for kind in card_kinds)
            return Action(name, pairs[0][0], pairs[0][1], doc, pairs)

        actions = [card_action(face, [i for i, f in enumerate(deck) if f == face], f"lay the {face}")
                   for face in dict.fromkeys(deck)]
        for t, type_name in enumerate(L.TYPES):
            cards = [i for i, f in enumerate(deck) if L.FACE_IDS[f.lower()] % L.N_TYPES == t]
            if cards:
                actions.append(card_action(type_name, cards, f"lay a {type_name} (any colour)"))
        actions += [Action(f"name {c}", L.NAME_COLOUR, i, f"a Hand names {c}") for i, c in enumerate(L.COLOURS)]
        actions += [
            Action("draw the penalty", L.ANSWER_PENALTY, L.NONE, "draw a penalty rather than answer it"),
            Action("stop laying", L.LAY_MORE, L.NONE, "lay no further card of the type"),
            Action("keep the drawn card", L.PLAY_DRAWN, L.NONE, "keep a drawn card that fits (play_drawn_card)"),
        ]
        return actions

    # ---- running ----------------------------------------------------------------------------
    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        return simulate_batch(np.int64(seed), np.int64(start), np.int64(count), np.int64(games_per_block(count, BLOCK)),
                              np.int64(setup.rotations),
                              self.compile(setup), setup.policy_codes, setup.policy_params,
                              setup.restrict)

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        """Round rows, plus the columns each quantity counts (match results on each match's last row)."""
        df = super().frame(setup, table)
        played = 1 - df["capped"].to_numpy()
        alive = df["alive"].to_numpy()
        full = (alive == df["players"].to_numpy()).astype(int)
        has_prev = ((df["prev_loser"].to_numpy() >= 0) & (played == 1)).astype(int)
        last = df["last_round"].to_numpy()
        decided_last = last * (df["match_winner"].to_numpy() >= 0)
        winner_losses = decided_last * (df["match_rounds"].to_numpy()
                                        - setup.options["start_hand"] * (df["players"].to_numpy() - 1))
        df["played"] = played
        df["full_played"] = full * played
        df["starter_lost_full"] = df["starter_lost"] * full
        starter_edge = POINTS * played * (1.0 / alive - df["starter_lost"].to_numpy())
        catch_up = POINTS * has_prev * (1.0 / alive - df["prev_loser_lost"].to_numpy())
        df["starter_edge"] = starter_edge
        df["starter_edge_full"] = starter_edge * full
        df["has_prev"] = has_prev
        df["has_prev_full"] = has_prev * full
        df["repeat_full"] = df["prev_loser_lost"] * full * has_prev
        df["catch_up"] = catch_up
        df["catch_up_full"] = catch_up * full
        df["match_rounds_last"] = df["match_rounds"] * last
        df["decided_last"] = decided_last
        df["winner_losses"] = winner_losses
        df["longest_match"] = decided_last * (winner_losses == setup.options["start_hand"] - 1)
        df["match_capped_last"] = df["match_capped"] * last
        df["played_turns"] = df["turns"] * played
        df["played_revivals"] = df["revivals"] * played
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        """One row per seat in the game of every round played to a loser (a capped round has none)."""
        labels = np.array([s.label for s in setup.seats], dtype=object)
        played = games[games["capped"] == 0]
        first = games[games["row"] == 0].set_index("game")
        first_loser = first["loser"]  # NOBODY (-1) where round 1 was capped
        first_starter = first["starter"]
        parts = []
        for seat in range(setup.players):
            rows = played[played[f"hand_{seat}"] > 0]
            rotation = rows["rotation"].to_numpy()
            lost = (rows["loser"].to_numpy() == seat).astype(int)
            packed = rows[f"specials_{seat}"].to_numpy()
            # the seat's last round of the match (the one that eliminated it, or the match's last): one
            # row per seat and match carries the seat's match result
            last = (rows.groupby("game")["row"].transform("max") == rows["row"]).to_numpy().astype(int)
            match = last * (rows["match_winner"].to_numpy() >= 0)  # decided matches only: a capped one is the cap's
            games_of = rows["game"].to_numpy()
            lost_first = (first_loser.reindex(games_of).to_numpy() == seat).astype(int)
            started = (rows["starter"].to_numpy() == seat).astype(int)
            hand = rows[f"hand_{seat}"].to_numpy()
            full = (rows["alive"].to_numpy() == rows["players"].to_numpy()).astype(int)
            match_won = (rows["match_winner"].to_numpy() == seat).astype(int) * match
            edge = POINTS * (match_won - match / setup.players)
            part = {
                "game": rows["game"].to_numpy(), "deal": rows["deal"].to_numpy(), "rotation": rotation,
                "row": rows["row"].to_numpy(), "seat": seat, "policy": labels[slot_at_seat(seat, rotation,
                                                                                           setup.players)],
                "lost": lost, "won": 1 - lost, "started": started, "hand": hand, "alive": rows["alive"].to_numpy(),
                "full": full, "lost_full": lost * full, "hand_start": hand_start_labels(hand, started),
                "match_won": match_won, "seat_last_round": last, "seat_match": match, "match_edge": edge,
                "lost_round1": lost_first, "started_round1": (first_starter.reindex(games_of).to_numpy() == seat)
                .astype(int), "round1_loser_match": match * lost_first, "round1_loser_edge": edge * lost_first,
            }
            plain = np.ones(len(rows), dtype=int)
            for kind, name in enumerate(L.SPECIAL_KINDS):
                has = (unpack_specials(packed, kind) > 0).astype(int)
                plain &= 1 - has
                part[f"has_{name}"] = has
                part[f"lost_{name}"] = has * lost
            part["plain"] = plain
            part["lost_plain"] = plain * lost
            parts.append(pd.DataFrame(part))
        return pd.concat(parts, ignore_index=True)

    def traced(self, setup: Setup, seed: int, game_index: int):
        """One match through the batch kernel's code path with the trace on: (rows, state, events)."""
        trace = np.zeros((TRACE_ROWS, L.TRACE_FIELDS), dtype=np.int64)
        rows, state, fill = simulate_traced(np.int64(seed), np.int64(game_index), np.int64(setup.rotations),
                                            self.compile(setup), setup.policy_codes,
                                            setup.policy_params, setup.restrict, trace)
        return rows, state, trace[:fill]

    def stepper(self, setup: Setup):
        from balance.games.throne_arcade.positions import Steps

        return Steps(setup)

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        _, _, events = self.traced(setup, seed, game_index)
        rotation = game_index % setup.rotations
        names = [f"seat {s} ({setup.seats[slot_at_seat(s, rotation, setup.players)].label})"
                 for s in range(setup.players)]
        head = f"{self.title}: match {game_index} (seed {seed}, {setup.players} players)"
        return [head, *describe_events(events, names, self.deck_names(setup))]

    def bench_setups(self) -> list[tuple[str, Setup]]:
        """One-round matches (max_length = 1: a benchmarked "round" is exactly one round), and whole
        matches (counted as matches, see bench_unit)."""
        return [
            ("4p round, greedy", self.make_setup("standard", 4, "greedy", max_length=1)),
            ("4p whole match, greedy", self.make_setup("standard", 4, "greedy")),
            ("4p round, heuristic", self.make_setup("standard", 4, "heuristic", max_length=1)),
            ("6p round, random", self.make_setup("standard", 6, "random", max_length=1)),
            ("4p round, search vs heuristic",
             self.make_setup("standard", 4, [("search", {})] + [("heuristic", {})] * 3, max_length=1)),
        ]

    def bench_unit(self, setup: Setup) -> str:
        """A one-round setup counts rounds; any other counts whole matches."""
        return "rounds" if setup.max_length == 1 else "matches"

    def report_view(self, setup: Setup) -> ReportView:
        return ReportView(headline=(("starter_edge_full", ""), ("catch_up_full", ""),
                                    ("round1_loser_match_edge", ""), ("match_rounds", "")),
                          group_names={"started": {"0": "did not start", "1": "started the round"},
                                       "lost_round1": {"0": "got out of round 1 (did not lose it)", "1": "lost round 1"},
                                       "started_round1": {"0": "did not start round 1", "1": "started round 1"}},
                          match_word="match", cap="rounds per match", lengths=("turns",))


GAME = ThroneArcade()
