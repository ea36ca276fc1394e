"""Invariants under random play, scoring, determinism, replay == batch."""

import numpy as np
import pytest

from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import cards as C
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME, MAX_ROUNDS
from balance.games.imposter_kings.options import MODE_DECKS
from balance.games.imposter_kings.positions import Position

MODES = ("full", "quickplay", "assassin_step", "kings_hand_step")


def expected_counts(mode):
    counts = MODE_DECKS[mode].copy()
    if mode == "quickplay":
        counts[C.ASSASSIN] += 1
    return counts


def expected_points(pos, winner):
    loser = 1 - winner
    if not pos.cfg[R.CFG_FULL_SCORING]:
        return 1
    return 1 + (not pos.flipped(winner)) + (len(pos.hand(loser)) > 0 or pos.successor(loser) is not None)


@pytest.mark.parametrize("mode", MODES)
def test_random_rounds_conserve_cards_end_and_score_as_the_rulebook_says(mode):
    total = expected_counts(mode)
    for seed in range(60):
        stream = new_stream(seed, 7)
        pos = Position.deal(mode, seed=seed, true_king=seed % 2)
        for _ in range(400):
            if pos.phase_code in (R.PH_ROUND_OVER, R.PH_REDEAL):
                break
            legal = pos.legal_codes()
            assert legal, pos.describe()
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            assert np.array_equal(pos.card_counts(), total), pos.describe()
            for p in range(2):  # what a seat "knows" of the other hand is always true
                known = pos.s[R.KNOWN + p * C.TYPES:R.KNOWN + (p + 1) * C.TYPES]
                held = pos.s[R.HAND + (1 - p) * C.TYPES:R.HAND + (2 - p) * C.TYPES]
                assert np.all(known <= held)
        assert pos.phase_code in (R.PH_ROUND_OVER, R.PH_REDEAL)
        if pos.over and pos.winner >= 0:
            assert pos.s[R.CAPPED] == 0
            assert pos.points == expected_points(pos, pos.winner)
            assert pos.score(pos.winner) == pos.points and pos.score(1 - pos.winner) == 0


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_matches_end_and_scores_move_only_by_round_points_or_mulligans(policy):
    setup = GAME.make_setup("full", 2, [(policy, {})] * 2)
    df = GAME.frame(setup, GAME.simulate(setup, 11, 0, 60))
    assert (df["capped"] == 0).all()
    assert (df["match_capped"] == 0).all()
    for _, match in df.groupby("game"):
        match = match.sort_values("row")
        before = np.zeros(2, dtype=int)
        for _, row in match.iterrows():
            after = np.array([row["score0"], row["score1"]])
            gained = after - before
            if row["mulligans"] == 0:
                expected = np.zeros(2, dtype=int)
                expected[row["winner_seat"]] = row["points"]
                assert np.array_equal(gained, expected)
                assert 1 <= row["points"] <= 3
            else:  # a costly mulligan adds 2 to the other player
                assert np.all(gained >= 0) and (gained.sum() - row["points"]) % 2 == 0
            before = after
        assert match["last_round"].sum() == 1
        assert max(before) >= 7


def test_quickplay_matches_need_seven_round_wins():
    setup = GAME.make_setup("quickplay", 2, [("greedy", {})] * 2)
    df = GAME.frame(setup, GAME.simulate(setup, 2, 0, 10))
    assert (df["points"] == 1).all()
    assert (df.groupby("game")["row"].count() >= 7).all()


def test_replay_of_match_k_equals_the_batch_row():
    setup = GAME.make_setup("full", 2, [("random", {}), ("heuristic", {})])
    batch = GAME.simulate(setup, 9, 0, 12)
    for k in (0, 5, 11):
        rows, events = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS])
        assert len(events) > 0
    lines = GAME.transcript(setup, 9, 5)
    assert any("round over" in line for line in lines)


def test_mirrored_deals_swap_the_hands_between_seats():
    for seed in range(5):
        a = Position.deal("full", seed=seed, rotation=0)
        b = Position.deal("full", seed=seed, rotation=1)
        assert a.hand(0) == b.hand(1) and a.hand(1) == b.hand(0)


def test_forced_first_player_option():
    setup = GAME.make_setup("full", 2, [("greedy", {})] * 2, options={"first_player": "seat0"})
    df = GAME.frame(setup, GAME.simulate(setup, 1, 0, 10))
    assert (df["first_seat"] == 0).all() and (df["chooser_seat"] == -1).all()
    setup = GAME.make_setup("full", 2, [("heuristic", {})] * 2)
    df = GAME.frame(setup, GAME.simulate(setup, 1, 0, 10))
    assert (df["chooser_seat"] >= 0).all() and set(df["chooser_first"]) <= {0, 1}


def test_max_length_caps_the_rounds_of_a_match():
    setup = GAME.make_setup("full", 2, [("greedy", {})] * 2, max_length=1)
    table = GAME.simulate(setup, 4, 0, 30)
    assert table.shape[0] == 30
    df = GAME.frame(setup, table)
    assert (df["row"] == 0).all() and (df["last_round"] == 1).all()
    assert ((df["match_capped"] == 1) == (df["match_winner"] < 0)).all()


def test_seat_table_holds_played_rounds_and_one_match_result_per_match():
    setup = GAME.make_setup("full", 2, [("random", {})] * 2)
    games = GAME.frame(setup, GAME.simulate(setup, 3, 0, 40))
    seats = GAME.seat_frame(setup, games)
    played = games[games["winner_seat"] >= 0]
    assert len(seats) == 2 * len(played)
    assert (seats.groupby(["game", "row"])["won"].sum() == 1).all()  # exactly one winner per played round
    finished = games[(games["last_round"] == 1) & (games["match_winner"] >= 0)]["game"]
    assert set(seats[seats["match_won"] == 1]["game"]) <= set(finished)
    assert (seats.groupby("game")["match_won"].sum() <= 1).all()


def test_bad_scenario_input_names_the_key():
    from balance.engine.game import SetupError
    from balance.engine.scenario import ScenarioError, parse_scenario

    with pytest.raises(ScenarioError, match="options.first_player"):
        parse_scenario({"game": "imposter_kings", "players": 2, "options": {"first_player": "seat2"}})
    with pytest.raises(ScenarioError, match="players"):
        parse_scenario({"game": "imposter_kings", "players": 3})
    with pytest.raises(SetupError, match="max_length"):
        GAME.make_setup("full", 2, [("greedy", {})] * 2, max_length=25)
    with pytest.raises(ScenarioError, match="rollouts"):
        parse_scenario({"game": "imposter_kings", "players": 2,
                        "seats": [{"policy": "search", "params": {"rollouts": 0}}, "heuristic"]})


def test_search_determinization_keeps_what_the_searcher_knows():
    from balance.games.imposter_kings.policies import determinize

    pos = Position.deal("full", seed=8, true_king=0)
    stream = new_stream(1, 1)
    for _ in range(12):  # play into the round a little with random choices
        if pos.phase_code in (R.PH_ROUND_OVER, R.PH_REDEAL):
            break
        legal = pos.legal_codes()
        R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
    me = pos.decider
    out = np.zeros_like(pos.s)
    pool = np.zeros(2 * C.MAX_CARDS, dtype=np.int64)
    seen = set()
    for k in range(20):
        determinize(pos.s, me, out, pool, stream)
        assert np.array_equal(R.count_cards(out), R.count_cards(pos.s))
        mine = slice(R.HAND + me * C.TYPES, R.HAND + (me + 1) * C.TYPES)
        theirs = slice(R.HAND + (1 - me) * C.TYPES, R.HAND + (2 - me) * C.TYPES)
        assert np.array_equal(out[mine], pos.s[mine])
        assert out[theirs].sum() == pos.s[theirs].sum()
        known = pos.s[R.KNOWN + me * C.TYPES:R.KNOWN + (me + 1) * C.TYPES]
        assert np.all(out[theirs] >= known)
        seen.add(tuple(out[theirs]))
    assert len(seen) > 1  # the hidden cards really are re-dealt
