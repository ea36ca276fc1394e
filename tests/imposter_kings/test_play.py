"""Invariants under random play, scoring, determinism, replay == batch, the result rows' columns
and the rows each quantity counts, the package's shape."""

import numpy as np
import pytest

from balance.engine.config import Config
from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import match as M
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME, MAX_ROUNDS
from balance.games.imposter_kings.options import MODE_DECKS
from balance.games.imposter_kings.positions import Position
from balance.stats import estimate

MODES = ("full", "quickplay", "assassin_step", "kings_hand_step")


def expected_counts(mode):
    counts = MODE_DECKS[mode].copy()
    if mode == "quickplay":
        counts[L.ASSASSIN] += 1
    return counts


def expected_points(pos, winner):
    loser = 1 - winner
    if not pos.cfg[L.CFG_FULL_SCORING]:
        return 1
    return 1 + (not pos.flipped(winner)) + (len(pos.hand(loser)) > 0 or pos.successor(loser) is not None)


@pytest.mark.parametrize("mode", MODES)
def test_random_rounds_conserve_cards_end_and_score_as_the_rulebook_says(mode):
    total = expected_counts(mode)
    for seed in range(60):
        stream = new_stream(seed, 7)
        pos = Position.deal(mode, seed=seed, true_king=seed % 2)
        for _ in range(400):
            if pos.phase_code in (L.PH_ROUND_OVER, L.PH_REDEAL):
                break
            legal = pos.legal_codes()
            assert legal, pos.describe()
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            assert np.array_equal(pos.card_counts(), total), pos.describe()
            for p in range(2):  # what a seat "knows" of the other hand is always true
                known = pos.s[L.known_at(p, 1 - p):L.known_at(p, 1 - p) + L.TYPES]
                held = pos.s[L.HAND + (1 - p) * L.TYPES:L.HAND + (2 - p) * L.TYPES]
                assert np.all(known <= held)
        assert pos.phase_code in (L.PH_ROUND_OVER, L.PH_REDEAL)
        if pos.over and pos.winner >= 0:
            assert pos.s[L.CAPPED] == 0
            assert pos.points == expected_points(pos, pos.winner)
            assert pos.score(pos.winner) == pos.points and pos.score(1 - pos.winner) == 0


@pytest.mark.parametrize("mode", ["full", "cutthroat", "cutthroat_mercenaries"])
def test_a_table_writes_no_observer_row_past_its_seats(mode):
    """A deal zeroes of KNOWN and KNOWN_CONDEMNED only the rows an n-seat table can write
    (rules.observer_rows): under random play every word past them stays zero."""
    for seed in range(20):
        stream = new_stream(seed, 9)
        pos = Position.deal(mode, seed=seed)
        n = int(pos.cfg[L.CFG_PLAYERS])
        written = R.observer_rows(n)
        for _ in range(400):
            if pos.phase_code in (L.PH_ROUND_OVER, L.PH_REDEAL):
                break
            legal = pos.legal_codes()
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            for zone in (L.KNOWN, L.KNOWN_CONDEMNED):
                assert not pos.s[zone + written:zone + L.PLAYERS * L.PLAYERS * L.TYPES].any(), pos.describe()


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


@pytest.mark.parametrize("seats", [[("heuristic", {}), ("greedy", {})], [("search", {}), ("random", {})]])
def test_the_base_game_kernel_compiled_for_its_family_plays_the_general_kernels_games(seats):
    """The base 2-player modes run kernels compiled for their family (GAME.compile(setup).config, layout.BASE_MODES):
    their 14 card types and their table (two seats, no expansion step) constants, so loops, the expansions' card
    texts and the larger tables' branches are cut at compile time. They play exactly the games of the general
    kernels (the plain row), the search too (its rollouts run the kernels its batch runs: play_out_base)."""
    setup = GAME.make_setup("full", 2, seats, max_length=1)
    cfg = GAME.compile(setup).config
    assert isinstance(cfg, Config) and cfg.spec == L.BASE_MODES and cfg.types == L.QUEEN + 1
    args = (setup.policy_codes, setup.policy_params, setup.restrict, np.int64(11), np.int64(0), np.int64(30),
            np.int64(M.BLOCK), np.int64(setup.rotations), np.int64(1))
    assert np.array_equal(M.simulate_batch(cfg, *args), M.simulate_batch(cfg.row, *args))
    for mode in ("quickplay", "assassin_step", "kings_hand_step"):
        assert isinstance(GAME.compile(GAME.make_setup(mode, 2, seats)).config, Config)
    for mode, players in (("cutthroat", 3), ("immortal_step", 2), ("army_step", 2)):  # the general kernels
        assert isinstance(GAME.compile(GAME.make_setup(mode, players, [("random", {})] * players)).config,
                          np.ndarray)


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


def random_true_king_rounds(mulligan, matches, seed=11):
    """Random self-play under the rulebook's True King rule, as the study's round frame."""
    setup = GAME.make_setup("full", 2, [("random", {"mulligan": mulligan})] * 2, rotate=False)
    return GAME.frame(setup, GAME.simulate(setup, seed, 0, matches))


def test_the_chooser_is_who_chose_for_the_deal_actually_played():
    # Rulebook: "If you mulligan again, you take the True King for the next deal": after a costly
    # mulligan its caller chooses who goes first, and the row names that choice.
    df = random_true_king_rounds(0.5, 150)
    assert (df["mulligans"] >= 2).any()
    chose = df[df["has_chooser"] == 1]
    assert len(chose) > 0
    assert (chose["chooser_first"] == (chose["first_seat"] == chose["chooser_seat"]).astype(int)).all()


def test_a_match_ended_by_mulligan_points_enters_no_round_quantity():
    # Every mulligan called: the first player's free one, then costly ones (+2 to the other player
    # each) until a player has 7 points: the match ends without a round played.
    df = random_true_king_rounds(1.0, 20)
    assert len(df) == 20 and (df["played"] == 0).all() and (df["match_winner"] >= 0).all()
    for q in GAME.quantities:
        if q.table != "games":
            continue
        est = estimate(q.kind, df, q.column, q.denominator)
        if q.denominator == "last_round":  # match quantities count every match
            assert est.n == 20, q.name
        else:
            assert est.n == 0, q.name
    assert estimate("ratio", df, "match_played_rounds", "last_round").estimate == 0
    setup = GAME.make_setup("full", 2, [("random", {"mulligan": 1.0})] * 2, rotate=False)
    assert "no round played: a costly mulligan's points ended the match" in GAME.transcript(setup, 11, 0)[-1]


def test_the_n_of_a_quantity_is_the_number_of_rows_in_its_denominator():
    df = random_true_king_rounds(0.5, 60)
    checked = 0
    for q in GAME.quantities:
        if q.table == "games" and q.denominator:
            est = estimate(q.kind, df, q.column, q.denominator)
            if est.method == "wilson (deals)":  # no variation at all (no capped round): stats counts deals
                continue
            assert est.n == (df[q.denominator] != 0).sum(), q.name
            checked += 1
    assert checked >= 5


def test_the_random_policys_mulligan_probability_is_a_parameter_its_label_names():
    from pathlib import Path

    from balance.engine.scenario import load_scenario

    assert (random_true_king_rounds(0.0, 30)["mulligans"] == 0).all()
    scenario = load_scenario(Path(__file__).parents[2] / "scenarios/imposter_kings/true_king_choice_2p_random.toml")
    assert scenario.setup.describe()["policies"] == ["random(mulligan=0.1)"] * 2
    assert GAME.make_setup("full", 2, [("random", {"mulligan": 0.3})] * 2).seats[0].label == "random(mulligan=0.3)"


def test_the_package_has_the_shared_shape_and_no_import_circle():
    import ast
    from graphlib import TopologicalSorter
    from pathlib import Path

    import balance.games.imposter_kings as package

    root = Path(package.__file__).parent
    modules = {p.stem for p in root.glob("*.py")} - {"__init__"}
    assert {"layout", "rules", "policies", "options", "positions", "game"} <= modules and "cards" not in modules
    prefix = package.__name__
    graph = {}
    for name in modules:
        imported = set()
        for node in ast.walk(ast.parse((root / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == prefix:
                imported |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(prefix + "."):
                imported.add(node.module.split(".")[-1])
        graph[name] = imported & modules
    order = list(TopologicalSorter(graph).static_order())  # raises CycleError on a circle
    assert order.index("layout") < order.index("rules") < order.index("policies") < order.index("game")


def test_the_matrix_finds_a_policy_whose_label_names_a_parameter():
    import json

    from typer.testing import CliRunner

    from balance.cli import app

    result = CliRunner().invoke(app, ["matrix", "imposter_kings", "--policies", "random,greedy", "-n", "40", "--json"])
    assert result.exit_code == 0, result.output
    cells = json.loads(result.output)
    assert len(cells) == 4 and all(0 <= cell["win_rate"] <= 1 for cell in cells)
