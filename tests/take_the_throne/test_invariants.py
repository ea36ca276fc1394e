"""Take the Throne under random and heuristic play: invariants round by round, determinism,
replay equals batch."""

import numba
import numpy as np
import pytest

from balance.engine.rng import new_stream
from balance.engine.runner import simulate
from balance.games.take_the_throne import layout as L
from balance.games.take_the_throne.game import GAME
from balance.games.take_the_throne.match import play_on
from balance.games.take_the_throne.policies import new_search_buffers, new_work_buffer
from balance.games.take_the_throne.rules import deal

SETUPS = [("core", 3), ("core", 4), ("core", 5), ("mirror", 4), ("asymmetric", 5), ("two_player", 2)]
# Every reading option away from its default, on a table where all of them can come up.
OTHER_READINGS = {"defend_timing": "immediate", "authority_timing": "immediate", "replace_picks_up_discards": False,
                  "entrap_retains_after_abdicate": False, "take_back_pays": False, "feint_from_discard": False,
                  "ambush_on_view": False, "sabotage_pays_on_abdicate": True, "sabotage_targets_monarch": False}


def popcount(x):
    return bin(int(x)).count("1")


@pytest.mark.parametrize("mode, players, options",
                         [(m, n, None) for m, n in SETUPS] + [("asymmetric", 4, OTHER_READINGS)])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_cards_are_conserved_vp_moves_only_by_rule_and_games_end(mode, players, options, policy):
    setup = GAME.make_setup(mode, players, policy, options=options, rotate=False)
    opts = GAME.compile(setup)
    for deal_index in range(40):
        state = np.empty(L.STATE_SIZE, dtype=np.int64)
        rng = new_stream(7, deal_index)
        trace = np.zeros((400, L.TRACE_FIELDS), dtype=np.int64)
        kernel_args = (opts, setup.policy_codes, setup.policy_params, setup.restrict, rng, trace,
                       (new_work_buffer(), new_search_buffers()))
        deal(state, opts, rng)
        decks = sorted(int(state[L.OWNED + s]) for s in range(players))
        crown = [int(state[L.OWNED + s]) & L.CROWN_MASK for s in range(players)]
        assert sum(1 for c in crown if c) == (0 if mode == "two_player" else 1)
        while state[L.WINNER] == L.NOBODY and state[L.ROUND] < opts[L.OPT_MAX_ROUNDS]:
            vp_before = state[L.VP: L.VP + players].copy()
            state[L.TRACE_LEN] = 0
            state[L.ROUND_STOP] = state[L.ROUND] + 1  # one round
            play_on(state, *kernel_args)
            for s in range(players):
                hand, discard, owned = state[L.HAND + s], state[L.DISCARD + s], state[L.OWNED + s]
                assert hand & discard == 0, "a card in hand and discard pile at once"
                assert hand | discard == owned, "a card lost or created"
                shown = state[L.SHOWN + s]
                assert shown & ~owned == 0, "a card shown as part of a deck it is not in"
                assert discard & ~shown == 0, "a discarded card was never shown"
                if mode not in ("mirror", "asymmetric"):
                    assert shown == owned, "a deck everyone knows has unseen cards"
                assert state[L.MAIN + s] == L.NO_CARD and state[L.EXTRA + s] == L.NO_CARD
                assert state[L.VP + s] >= 0
                expected = L.MONARCH_HAND_SIZE if s == state[L.MONARCH] and mode != "two_player" else \
                    L.HOUSE_HAND_SIZE
                assert popcount(owned) == expected
            # the decks are only passed around, never changed
            assert sorted(int(state[L.OWNED + s]) for s in range(players)) == decks
            # every VP change is one logged, reasoned event
            events = trace[: state[L.TRACE_LEN]]
            deltas = np.zeros(players, dtype=np.int64)
            for row in events[events[:, 1] == L.EV_VP]:
                deltas[row[2]] += row[5]
            assert (state[L.VP: L.VP + players] - vp_before == deltas).all()
        assert state[L.WINNER] != L.NOBODY or state[L.ROUND] == opts[L.OPT_MAX_ROUNDS]
        if state[L.WINNER] != L.NOBODY:
            assert state[L.WINNER] == state[L.MONARCH] and state[L.VP + state[L.WINNER]] >= L.WIN_VP


def test_capped_games_are_their_own_outcome():
    setup = GAME.make_setup("core", 4, "random", max_length=3)
    games = simulate(setup, 11, 400).games
    assert games["rounds"].max() == 3
    capped = games[games["capped"]]
    assert len(capped) > 0 and (capped["winner"] == -1).all() and (capped["rounds"] == 3).all()
    assert not GAME.seat_frame(setup, capped)["won"].any()


def test_same_table_whatever_threads_and_batches():
    setup = GAME.make_setup("mirror", 4, [("heuristic", {}), ("random", {}), ("greedy", {}), ("cautious", {})])
    numba.set_num_threads(1)
    one = simulate(setup, 99, 2000, chunk=2000).games
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    split = simulate(setup, 99, 2000, chunk=300).games
    resumed = simulate(setup, 99, 1200, start=800, chunk=400).games
    assert one.equals(split)
    assert one.iloc[800:].reset_index(drop=True).equals(resumed)
    other_seed = simulate(setup, 100, 2000).games
    assert not one.equals(other_seed)


def test_rotation_replays_the_same_deal_with_policies_moved():
    setup = GAME.make_setup("asymmetric", 4, [("heuristic", {}), ("random", {}), ("random", {}), ("random", {})])
    assert setup.rotations == 4
    seats = simulate(setup, 5, 400).seats
    per_deal = seats[seats["policy"] == "heuristic"].groupby("deal")["seat"].apply(sorted)
    assert all(s == [0, 1, 2, 3] for s in per_deal)  # the heuristic sits in every seat of every deal


def test_replay_equals_batch_game():
    setup = GAME.make_setup("core", 5, [("heuristic", {}), ("random", {}), ("greedy", {}), ("heuristic", {}),
                                         ("cautious", {})])
    games = simulate(setup, 3, 60).games
    for k in (0, 7, 33, 59):
        state, trace = GAME.play_traced(setup, 3, k)
        row = games.iloc[k]
        assert state[L.WINNER] == row["winner"] and state[L.ROUND] == row["rounds"]
        assert [state[L.VP + s] for s in range(5)] == [row[f"vp_{s}"] for s in range(5)]
        lines = GAME.transcript(setup, 3, k)
        assert lines[0].startswith("Round 1: seat 0")
        if row["winner"] >= 0:
            assert lines[-1].startswith(f"seat {row['winner']} ") and "wins on the throne" in lines[-1]


def test_heuristic_beats_random_and_greedy():
    for field in ("random", "greedy"):
        setup = GAME.make_setup("core", 4, [("heuristic", {})] + [(field, {})] * 3)
        seats = simulate(setup, 21, 4000).seats
        mine = seats[seats["policy"] == "heuristic"]["won"].mean()
        assert mine > 0.3, (field, mine)
