"""Take the Throne: the Game the engine runs (declarations, batch entry, frames, replay)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from balance.engine.game import Action, Game, Quantity, ReportView, Setup, SetupError
from balance.engine.kernels import games_per_block, seat_policies, seat_restrictions, slot_at_seat
from balance.engine.rng import new_stream
from balance.engine.ismcts import skill_rungs
from balance.games.take_the_throne import layout as L
from balance.games.take_the_throne.options import FAMILY, LADDER, MODE_CODES, MODES, OPTIONS, POLICIES
from balance.games.take_the_throne.match import BLOCK, N_FIXED_COLUMNS, play_on, simulate_batch
from balance.games.take_the_throne.policies import new_search_buffers, new_work_buffer
from balance.games.take_the_throne.rules import deal
from balance.games.take_the_throne.transcript import describe_events

SEAT_COLUMNS = [f"vp_{s}" for s in range(L.MAX_PLAYERS)] + [f"reigns_{s}" for s in range(L.MAX_PLAYERS)]
CARD_COLUMNS = [f"plays_{name.lower()}" for name in L.CARD_NAMES]
COLUMNS = ("game", "deal", "rotation", "players", "winner", "capped", "rounds", "retentions", "takes",
           "charge_clashes", "ambushes", "entraps", *SEAT_COLUMNS, *CARD_COLUMNS)
assert len(COLUMNS) == N_FIXED_COLUMNS + len(SEAT_COLUMNS) + len(CARD_COLUMNS)
TRACE_ROWS = 20_000


def card_mask(names: list, key: str, allowed: int) -> int:
    mask = 0
    for name in names:
        card = L.CARD_IDS.get(str(name).lower())
        if card is None:
            raise SetupError(key, f"unknown card '{name}' (known: {', '.join(L.CARD_NAMES)})")
        if not allowed >> card & 1:
            raise SetupError(key, f"'{name}' is not a card of this deck")
        if mask >> card & 1:
            raise SetupError(key, f"'{name}' appears twice; each deck holds one of each card")
        mask |= 1 << card
    return mask


def setup_cards(setup: Setup) -> int:
    """The mask of every card a deck of ``setup`` can hold (the random draws' pools included)."""
    opts = setup.game.compile(setup)
    if setup.mode == "two_player":
        return L.mask_of(L.TWO_PLAYER_CARDS)
    if setup.mode == "custom":
        return int(opts[L.OPT_CUSTOM_CROWN] | opts[L.OPT_CUSTOM_HOUSE])
    if setup.mode == "core":
        return L.mask_of(L.CROWN_CORE + L.HOUSE_CORE)
    return L.mask_of(L.MIRROR_CROWN_KEPT + L.MIRROR_CROWN_POOL + L.MIRROR_HOUSE_KEPT + L.MIRROR_HOUSE_POOL)


def custom_decks(setup: Setup) -> tuple[int, int]:
    """The masks of the options monarch_cards and house_cards (the custom mode's decks)."""
    return (card_mask(setup.options["monarch_cards"], "options.monarch_cards", L.CROWN_MASK),
            card_mask(setup.options["house_cards"], "options.house_cards", L.HOUSE_MASK & ~(1 << L.REINFORCE)))


class TakeTheThrone(Game):
    name = "take_the_throne"
    title = "Take the Throne"
    rulebook = "seeds/002_3e4ea97ed4247968.txt"
    supplement = "rules/take_the_throne.md"
    modes = MODES
    options = OPTIONS
    policies = POLICIES
    cap_quantity = "capped_rate"
    family = FAMILY
    ladder = LADDER
    skill = skill_rungs()
    columns = COLUMNS
    default_max_length = 100
    length_column = "rounds"
    rotation_keeps_deal = True  # the deal stays on the seats; rotation moves the policies
    quantities = (
        Quantity("win_rate", "share of games a seat (or policy) wins; capped games are no win", "rate", "won",
                 table="seats", by=("seat", "policy")),
        Quantity("monarch_retention", "share of rounds the Monarch keeps the throne", "ratio", "retentions",
                 denominator="rounds"),
        Quantity("game_length", "rounds per game", "mean", "rounds", maximum="max_length"),
        Quantity("capped_rate", "share of games stopped by the round cap", "rate", "capped"),
        Quantity("first_monarch_wins", "share of games won by the first Monarch (seat 0)", "rate",
                 "first_monarch_won"),
        Quantity("leader_not_winner", "share of decided games whose winner did not have the most VP "
                                      "(kingmaking)", "rate", "leader_not_winner"),
        Quantity("charge_clash_rate", "share of rounds where several Charges cancelled", "ratio",
                 "charge_clashes", denominator="rounds"),
    )

    # ---- setup ------------------------------------------------------------------------------
    def validate(self, setup: Setup) -> None:
        crown, house = custom_decks(setup)
        if setup.mode == "custom":
            if bin(crown).count("1") != L.MONARCH_HAND_SIZE:
                raise SetupError("options.monarch_cards", f"the Monarch holds {L.MONARCH_HAND_SIZE} crown cards")
            if bin(house).count("1") != L.HOUSE_HAND_SIZE:
                raise SetupError("options.house_cards", f"a house player holds {L.HOUSE_HAND_SIZE} house cards")

    def actions(self, setup: Setup) -> list[Action]:
        """Every card the setup's decks can hold, answered wherever its owner picks it (the card to
        play, a replacement card, Feint's additional card), and Ally's accept/decline."""
        cards = setup_cards(setup)
        menu = [Action(L.CARD_NAMES[c], L.SELECT_CARD, c, f"play {L.CARD_NAMES[c]}",
                       ((L.REPLACEMENT_CARD, c), (L.FEINT_EXTRA, c))) for c in range(L.N_CARDS) if cards >> c & 1]
        if cards >> L.ALLY & 1:
            menu += [Action("accept Ally", L.ALLY_ACCEPT, L.ACCEPT, "take the extra VP Ally offers the taker"),
                     Action("decline Ally", L.ALLY_ACCEPT, L.DECLINE, "refuse the extra VP Ally offers the taker")]
        return menu

    def assumed_facts(self, setup: Setup) -> list[str]:
        if setup.mode in ("mirror", "asymmetric"):
            return ["each house deck holds one of every house card (the random cards' pool)"]
        return []

    def _compile(self, setup: Setup) -> np.ndarray:
        """The kernels' options row (layout OPT_*): the rule options, the mode, the round cap and the
        custom decks."""
        crown, house = custom_decks(setup)
        opts = np.zeros(L.N_OPTIONS, dtype=np.int64)
        o = setup.options
        order = o["contest_order"]
        opts[L.OPT_MODE] = MODE_CODES[setup.mode]
        opts[L.OPT_PLAYERS] = setup.players
        opts[L.OPT_MAX_ROUNDS] = self.length_cap(setup)
        opts[L.OPT_FEINT_FROM_DISCARD] = o["feint_from_discard"]
        opts[L.OPT_AMBUSH_ON_VIEW] = o["ambush_on_view"]
        opts[L.OPT_CONTEST_ORDER] = sum("abc".index(ch) * 10 ** (2 - i) for i, ch in enumerate(order))
        opts[L.OPT_ABDICATE_SABOTAGE] = o["sabotage_pays_on_abdicate"]
        opts[L.OPT_SABOTAGE_MONARCH] = o["sabotage_targets_monarch"]
        opts[L.OPT_AUTHORITY_IMMEDIATE] = o["authority_timing"] == "immediate"
        opts[L.OPT_DEFEND_IMMEDIATE] = o["defend_timing"] == "immediate"
        opts[L.OPT_REPLACE_PICKS_UP] = o["replace_picks_up_discards"]
        opts[L.OPT_ENTRAP_RETAINS_AFTER_ABDICATE] = o["entrap_retains_after_abdicate"]
        opts[L.OPT_TAKE_BACK_PAYS] = o["take_back_pays"]
        opts[L.OPT_CUSTOM_CROWN] = crown
        opts[L.OPT_CUSTOM_HOUSE] = house
        return opts

    # ---- running ----------------------------------------------------------------------------
    def simulate(self, setup: Setup, seed: int, start: int, count: int) -> np.ndarray:
        out = np.empty((count, len(self.columns)), dtype=np.int64)
        simulate_batch(seed, start, count, games_per_block(count, BLOCK), setup.rotations, self.compile(setup),
                       setup.policy_codes, setup.policy_params, setup.restrict, out)
        return out

    def frame(self, setup: Setup, table: np.ndarray) -> pd.DataFrame:
        df = pd.DataFrame(table, columns=list(self.columns))
        small = [c for c in df.columns if c not in ("game", "deal")]
        df[small] = df[small].astype(np.int32)
        df["capped"] = df["capped"].astype(bool)
        n = setup.players
        vp = df[[f"vp_{s}" for s in range(n)]].to_numpy()
        winner = df["winner"].to_numpy()
        decided = winner >= 0
        winner_vp = np.where(decided, vp[np.arange(len(df)), np.clip(winner, 0, None)], -1)
        df["first_monarch_won"] = winner == 0
        df["leader_not_winner"] = decided & (winner_vp < vp.max(axis=1))
        labels = np.array([s.label for s in setup.seats], dtype=object)
        rotation = df["rotation"].to_numpy()
        for seat in range(n):
            df[f"policy_{seat}"] = labels[slot_at_seat(seat, rotation, n)]
        df["winner_policy"] = np.where(decided, labels[slot_at_seat(np.clip(winner, 0, None), rotation, n)], "")
        return df

    def seat_frame(self, setup: Setup, games: pd.DataFrame) -> pd.DataFrame:
        n = setup.players
        labels = np.array([s.label for s in setup.seats], dtype=object)
        parts = []
        for seat in range(n):
            rotation = games["rotation"].to_numpy()
            parts.append(pd.DataFrame({
                "game": games["game"].to_numpy(), "deal": games["deal"].to_numpy(), "rotation": rotation,
                "seat": seat, "policy": labels[slot_at_seat(seat, rotation, n)],
                "won": (games["winner"].to_numpy() == seat), "vp": games[f"vp_{seat}"].to_numpy(),
                "reigns": games[f"reigns_{seat}"].to_numpy(),
            }))
        return pd.concat(parts, ignore_index=True)

    def play_traced(self, setup: Setup, seed: int, game_index: int):
        """Play one game through the batch's own loop with the trace on: (state, trace rows)."""
        deal_index, rotation = divmod(game_index, setup.rotations)
        codes = np.empty(setup.players, dtype=np.int64)
        params = np.empty_like(setup.policy_params)
        restrict = np.empty_like(setup.restrict)
        seat_policies(rotation, setup.policy_codes, setup.policy_params, codes, params)
        seat_restrictions(rotation, setup.restrict, restrict)
        state = np.empty(L.STATE_SIZE, dtype=np.int64)
        trace = np.zeros((TRACE_ROWS, L.TRACE_FIELDS), dtype=np.int64)
        opts, rng = self.compile(setup), new_stream(seed, deal_index)
        deal(state, opts, rng)
        play_on(state, opts, codes, params, restrict, rng, trace, (new_work_buffer(), new_search_buffers()))
        return state, trace[: state[L.TRACE_LEN]]

    def stepper(self, setup: Setup):
        from balance.games.take_the_throne.positions import Steps

        return Steps(setup)

    def transcript(self, setup: Setup, seed: int, game_index: int) -> list[str]:
        state, trace = self.play_traced(setup, seed, game_index)
        rotation = game_index % setup.rotations
        seat_names = [f"seat {s} ({setup.seats[slot_at_seat(s, rotation, setup.players)].label})"
                      for s in range(setup.players)]
        start = L.START_VP_TWO_PLAYER if setup.mode == "two_player" else L.START_VP
        return describe_events(trace, seat_names, [start] * setup.players)

    def bench_setups(self) -> list[tuple[str, Setup]]:
        return [
            ("core 4p heuristic", self.make_setup("core", 4, "heuristic")),
            ("core 3p heuristic", self.make_setup("core", 3, "heuristic")),
            ("core 5p heuristic", self.make_setup("core", 5, "heuristic")),
            ("mirror 4p heuristic", self.make_setup("mirror", 4, "heuristic")),
            ("two_player heuristic", self.make_setup("two_player", 2, "heuristic")),
            ("core 4p random", self.make_setup("core", 4, "random")),
            ("core 4p search vs heuristic", self.make_setup("core", 4, [("search", {})] + [("heuristic", {})] * 3)),
        ]

    def report_view(self, setup: Setup) -> ReportView:
        return ReportView(headline=(("first_monarch_wins", ""), ("monarch_retention", ""), ("game_length", "")),
                          group_names={"seat": {"0": "first Monarch"}}, cap="rounds per game", lengths=("rounds",))


GAME = TakeTheThrone()
