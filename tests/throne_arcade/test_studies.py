"""Throne Arcade's hand-size and match-level study columns: the seat frame on hand-built result rows
(hand sizes, starters and match results known), the paired contrasts of balance.studies.hand_start,
the rules' tie between starting and a smaller hand on real batches, and the [hand_start] table."""

import numpy as np
import pandas as pd
import pytest

from balance.engine.game import SetupError
from balance.games.throne_arcade import layout as L
from balance.games.throne_arcade.game import GAME
from balance.stats import estimate
from balance.studies.hand_start import contrasts


def rows(game: int, match: list[tuple[int, tuple[int, int], int]], winner: int) -> list[dict]:
    """A 2-player match's result rows: (starter, (hand of seat 0, hand of seat 1), loser or -1 capped)."""
    out = []
    for r, (starter, hands, loser) in enumerate(match):
        row = {c: 0 for c in L.COLUMNS}
        row.update(game=game, deal=game, row=r, players=2, alive=2, starter=starter, loser=loser,
                   capped=int(loser < 0), match_winner=winner, match_capped=int(winner < 0),
                   match_rounds=len(match), last_round=int(r == len(match) - 1))
        for s in range(L.MAX_PLAYERS):
            row[f"hand_{s}"] = hands[s] if s < 2 else -1
            row[f"specials_{s}"] = 0 if s < 2 else -1
        out.append(row)
    return out


# match 0: seat 1 starts round 1 and seat 0 loses it; seat 0 then wins the match (seat 1 loses its
# 5 cards' worth of rounds: rows 1, 2, 4, 5, 6). Match 1: seat 1 loses round 1, round 2 is capped.
DECIDED = [(1, (5, 5), 0), (0, (4, 5), 1), (1, (4, 4), 1), (1, (4, 3), 0), (0, (3, 3), 1), (1, (3, 2), 1),
           (1, (3, 1), 1)]
CAPPED = [(0, (5, 5), 1), (1, (5, 4), -1)]


@pytest.fixture(scope="module")
def seats():
    setup = GAME.make_setup("standard", 2, "heuristic")
    games = pd.DataFrame(rows(0, DECIDED, 0) + rows(1, CAPPED, -1))
    return GAME.seat_frame(setup, games)


def test_seat_frame_hand_and_start_columns_on_known_rows(seats):
    m = seats[seats["game"] == 0].set_index(["seat", "row"])
    assert m.loc[(0, 1), "hand_start"] == "4 cards, started" and m.loc[(1, 1), "hand_start"] == "5 cards, not starting"
    assert m.loc[(1, 0), "hand_start"] == "5 cards, started" and m.loc[(0, 0), "hand_start"] == "5 cards, not starting"
    assert m.loc[(1, 6), "hand_start"] == "1 card, started" and m.loc[(1, 6), "lost_full"] == 1
    assert (seats["full"] == 1).all()  # two players: every round is full-table
    assert len(seats[seats["game"] == 1]) == 2  # the capped round has no loser: no seat rows


def test_match_results_count_decided_matches_only(seats):
    decided = seats[seats["seat_match"] == 1]
    assert list(zip(decided["game"], decided["seat"], decided["row"])) == [(0, 0, 6), (0, 1, 6)]
    assert decided.set_index("seat")["match_edge"].to_dict() == {0: 50.0, 1: -50.0}
    # round 1: seat 1 started and seat 0 lost; in the capped match seat 1 lost round 1, uncounted
    first = seats[seats["row"] == 0].set_index(["game", "seat"])
    assert first["lost_round1"].to_dict() == {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 1}
    assert first["started_round1"].to_dict() == {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 0}
    assert seats["round1_loser_match"].sum() == 1 and seats["round1_loser_edge"].sum() == 50.0
    q = GAME.quantity("match_win", "")
    lost_first = seats[seats["lost_round1"] == 1]
    assert estimate(q.kind, lost_first, q.column, q.denominator).estimate == 1.0  # the capped match is not a loss


def test_contrasts_are_the_differences_of_the_group_rates():
    rng = np.random.default_rng(3)
    parts = []
    codes = {40: "4 cards, not starting", 41: "4 cards, started", 50: "5 cards, not starting", 51: "5 cards, started",
             10: "1 card, not starting"}
    for code, p in ((40, 0.3), (41, 0.2), (50, 0.3), (51, 0.25), (10, 0.1)):
        lost = (rng.random(400) < p).astype(int)
        parts.append(pd.DataFrame({"deal": np.arange(400) % 100, "hand_start": codes[code], "full": 1, "lost_full": lost}))
    seats = pd.concat(parts, ignore_index=True)
    table = contrasts(seats, 5, 4).set_index("held fixed")
    rate = {c: seats[seats["hand_start"] == name]["lost_full"].mean() for c, name in codes.items()}
    assert table.loc["4 cards", "points"] == f"{100 * (rate[40] - rate[41]):+.1f}"
    assert table.loc["5 cards", "points"] == f"{100 * (0.25 - rate[51]):+.1f}"
    hand = contrasts(seats, 5, 4).set_index("effect")
    assert hand.loc["4 cards less (1 instead of 5)", "points"] == f"{100 * (rate[50] - rate[10]):+.1f}"
    low, high = (float(v) for v in hand.loc["4 cards less (1 instead of 5)", "95% interval"].strip("[]").split(","))
    assert low < 100 * (rate[50] - rate[10]) < high
    assert "1 card" not in set(table.index)  # no 1-card starter in these rows: no contrast


def test_the_rules_tie_the_start_to_a_smaller_hand_in_real_matches():
    setup = GAME.make_setup("standard", 4, "heuristic")
    games = GAME.frame(setup, GAME.simulate(setup, 11, 0, 30))
    seats = GAME.seat_frame(setup, games)
    starters = seats[(seats["started"] == 1) & (seats["full"] == 1)]
    assert (starters[starters["row"] == 0]["hand"] == 5).all()
    assert (starters[starters["row"] > 0]["hand"] < 5).all()  # every later starter lost the round before
    full = seats[seats["full"] == 1]  # after an elimination the next player on starts, any hand size
    assert set(full[full["hand_start"] == "5 cards, started"]["row"]) == {0}
    assert (seats["hand_start"] == [f"{h} card{'s' if h > 1 else ''}, {'started' if s else 'not starting'}"
                                    for h, s in zip(seats["hand"], seats["started"])]).all()
    per_match = seats.groupby("game")[["seat_match", "round1_loser_match", "match_won"]].sum()
    assert (per_match == [4, 1, 1]).all().all()  # every match decided: one result per seat, one winner
    assert np.allclose(seats.groupby("game")["match_edge"].sum(), 0.0)


def test_hand_start_table_is_checked():
    setup = GAME.make_setup("standard", 4, "heuristic", extra={"hand_start": {}})
    assert setup.extra["hand_start"] is True
    with pytest.raises(SetupError, match="hand_start.level"):
        GAME.make_setup("standard", 4, "heuristic", extra={"hand_start": {"level": 1}})
    with pytest.raises(SetupError, match="known: hand_start"):
        GAME.make_setup("standard", 4, "heuristic", extra={"hand_stat": {}})
