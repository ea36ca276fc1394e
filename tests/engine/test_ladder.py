"""The skill ladder: the Bradley-Terry fit on a ladder where one rung provably dominates, the
pairwise counts of a real ladder, and `balance ladder` end to end."""

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.report import page_summary
from balance.studies.ladder import (ELO, Ladder, average_seat_note, bootstrap_ratings, fit_bradley_terry,
                                    kept_cells, ladder_cells, pairwise_counts, play_cells, ratings)
from balance.engine.runner import Tracker
from balance.games import get_game

runner = CliRunner()


def synthetic_deals(p: np.ndarray, deals: int = 200, per_pair: int = 10, seed: int = 1) -> np.ndarray:
    """Per-deal win counts (deals, k, k) when rung i beats rung j with probability p[i, j]."""
    rng = np.random.default_rng(seed)
    k = len(p)
    counts = np.zeros((deals, k, k))
    for i in range(k):
        for j in range(i + 1, k):
            won = rng.binomial(per_pair, p[i, j], deals)
            counts[:, i, j], counts[:, j, i] = won, per_pair - won
    return counts


def test_a_rung_that_beats_everyone_with_p_09_is_rated_first_above_the_others():
    names = ["A", "B", "C"]
    p = np.array([[0.5, 0.5, 0.1], [0.5, 0.5, 0.1], [0.9, 0.9, 0.5]])
    table = ratings(synthetic_deals(p), names).set_index("rung")
    assert table["rating"].idxmax() == "C"
    assert table.loc["C", "low"] > table.loc[["A", "B"], "high"].max()
    # the fit recovers the truth: log(0.9 / 0.1) between C and A, nothing between A and B
    assert abs(table.loc["C", "rating"] / ELO - np.log(9)) < 0.15
    assert abs(table.loc["B", "rating"]) / ELO < 0.15
    assert table.loc["A", ["rating", "low", "high"]].tolist() == [0.0, 0.0, 0.0]  # the anchor


def test_the_fit_is_the_maximum_likelihood_of_bradley_terry():
    """Two rungs: the MLE of the log-odds is log(wins / losses) exactly."""
    theta = fit_bradley_terry(np.array([[0.0, 30.0], [10.0, 0.0]]))
    assert abs(theta[1] - np.log(10 / 30)) < 1e-5


def test_pairwise_counts_of_a_real_ladder_follow_the_games():
    """In 2-player Take the Throne every decided game is one comparison: the counts of cell
    (a, b) are a's wins and b's wins there, summed over the deals."""
    g = get_game("take_the_throne")
    names = ["random", "heuristic"]
    cells = ladder_cells(g, names, "two_player", None, None)
    results = play_cells(cells, 60, 3, Tracker())
    counts = pairwise_counts(results, names).sum(0)
    wins = {}
    for (a, b), res in results.items():
        seats = res.seats
        first = (seats["seat"] - seats["rotation"]) % 2 == 0
        wins[a, b] = (seats.loc[first, "won"].sum(), seats.loc[~first, "won"].sum())
    assert counts[1, 0] == wins["heuristic", "random"][0] + wins["random", "heuristic"][1]
    assert counts[0, 1] == wins["random", "heuristic"][0] + wins["heuristic", "random"][1]


def synthetic_ladder(strengths: dict[str, float], deals: int = 300) -> Ladder:
    """A ladder of rungs whose log-strengths are ``strengths`` (Bradley-Terry, one comparison a game)."""
    names = list(strengths)
    theta = np.array(list(strengths.values()))
    per_deal = synthetic_deals(1 / (1 + np.exp(theta[None, :] - theta[:, None])), deals)
    boot = bootstrap_ratings(per_deal)
    return Ladder(None, "full", 2, names, 100, 1, deals, pd.DataFrame(), ratings(per_deal, names, boot), boot, {},
                  0.5, "match")


def test_the_goal_reads_the_top_search_rung_against_the_best_hand_written_one_and_where_budgets_saturate():
    # 0.7 in log-strength is 122 Elo: ismcts-1024 against the heuristic (greedy and random rate lower)
    lad = synthetic_ladder({"random": 0.0, "greedy": 1.0, "heuristic": 1.5, "search": 1.8, "ismcts-64": 1.9,
                            "ismcts-256": 2.4, "ismcts-1024": 2.2})
    goal = lad.goal()
    assert (goal.top.rung, goal.top.other, goal.met, goal.budgets) == (
        "ismcts-1024", "heuristic", True, ["ismcts-64", "ismcts-256", "ismcts-1024"])
    assert goal.top.low < goal.top.difference < goal.top.high and abs(goal.top.difference - 0.7 * ELO) < 25
    assert (goal.saturation.rung, goal.saturation.other) == ("ismcts-1024", "ismcts-256")
    assert goal.line().startswith(f"ismcts-1024 rates +{round(goal.top.difference)} Elo [+")
    assert "above heuristic, the best hand-written rung; strength saturates at ismcts-256 (ismcts-1024 rates +" \
        in goal.line() and goal.line().endswith("below ismcts-256); the goal of at least +100 Elo with the "
                                                "intervals apart: met")


def test_the_goal_is_not_met_short_of_100_elo_and_each_larger_budget_rating_higher_is_said():
    lad = synthetic_ladder({"random": 0.0, "heuristic": 1.5, "ismcts-64": 1.4, "ismcts-256": 1.6,
                            "ismcts-1024": 1.7})
    goal = lad.goal()
    assert not goal.met and goal.saturation is None and goal.top.other == "heuristic"
    assert ", and each larger budget rates at least as high (ismcts-64, ismcts-256, ismcts-1024)" in goal.text()
    assert goal.line().endswith(": not met (" + goal.shortfall + ")") and "short of +100" in goal.shortfall


def test_random_is_the_best_hand_written_rung_only_when_alone_and_a_ladder_without_search_has_no_goal():
    assert synthetic_ladder({"random": 0.0, "greedy": -0.5, "search": 1.0}).goal().top.other == "greedy"
    alone = synthetic_ladder({"random": 0.0, "search": 1.0}).goal()
    assert alone.top.other == "random" and alone.met and alone.budgets == []
    assert synthetic_ladder({"random": 0.0, "heuristic": 1.0}).goal() is None


def invoke(*args):
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout if "--json" in args else result.output


def test_ladder_command(tmp_path):
    out = tmp_path / "ladder.html"
    rungs = ["random", "heuristic", "ismcts-64"]
    code, text = invoke("ladder", "take_the_throne", "--mode", "two_player", "-n", 20, "--rungs", ",".join(rungs),
                        "--json", "-o", out, "--out", tmp_path / "cells")
    assert code == 0
    [lad] = json.loads(text)
    assert (lad["mode"], lad["players"], lad["rungs"]) == ("two_player", 2, rungs)
    assert {(r["row"], r["column"]) for r in lad["matrix"]} == {(a, b) for a in lad["rungs"] for b in lad["rungs"]
                                                                  if a != b}
    assert [r["rung"] for r in lad["ratings"]] == lad["rungs"]
    assert lad["skill"]["against"] == "random" and lad["skill"]["best"] in lad["rungs"]
    assert lad["goal"]["top"] == "ismcts-64" and lad["goal"]["best_hand_written"] == "heuristic"
    assert out.exists() and out.with_suffix(".md").exists()
    markdown = out.with_suffix(".md").read_text()  # random, the anchor, is rated 0 by definition: no interval
    assert "| random | 0 | — (the reference) |" in markdown and "[+0, +0]" not in markdown
    # the page opens with its Findings, and its one-line finding (reports/index.html) says whether the goal is met
    page = out.read_text()
    assert page.index('id="findings"') < page.index('class="note"')
    _, finding = page_summary(out)
    verdict = "met" if lad["goal"]["met"] else "not met"
    assert finding.startswith("two_player, 2 players: ismcts-64 rates ") and finding.endswith(
        f"the goal of at least +100 Elo with the intervals apart: {verdict}."), finding


class StopAfter(Tracker):
    """Ctrl-C once ``games`` games have been played."""

    def __init__(self, games: int):
        self.left = games

    def advance(self, n: int) -> None:
        self.left -= n
        if self.left <= 0:
            raise KeyboardInterrupt


def test_an_interrupted_ladder_resumes_from_its_cells_and_ends_as_one_run_would(tmp_path):
    g = get_game("take_the_throne")
    names = ["random", "greedy", "heuristic"]
    cells = ladder_cells(g, names, "two_player", None, None)
    with pytest.raises(KeyboardInterrupt):  # 6 cells of 40 games in parts of 10: stopped inside the third cell
        play_cells(cells, 40, 7, StopAfter(100), tmp_path / "kept", chunk=10)
    # whole parts only: the one in play when Ctrl-C came is not kept
    assert kept_cells(cells, 40, 7, tmp_path / "kept", chunk=10) == 90
    played = []

    class Counting(Tracker):
        def advance(self, n):
            played.append(n)

    resumed = play_cells(cells, 40, 7, Counting(), tmp_path / "kept", chunk=10)
    assert sum(played) == 6 * 40 - 90  # only what the interrupted run had not kept
    fresh = play_cells(cells, 40, 7, Tracker())
    for key in cells:
        pd.testing.assert_frame_equal(resumed[key].games, fresh[key].games)
        assert resumed[key].games["game"].tolist() == list(range(40))


def test_the_ladder_command_resumes_and_extends_its_cells(tmp_path):
    args = ["ladder", "take_the_throne", "--mode", "two_player", "--rungs", "random,greedy", "--json",
            "--out", tmp_path / "cells", "--chunk", 10]
    code, first = invoke(*args, "-n", 20)
    assert code == 0 and (tmp_path / "cells" / "two_player-2p" / "random--greedy").is_dir()
    assert invoke(*args, "-n", 20) == (0, first)  # every game read back
    code, extended = invoke(*args, "-n", 40)
    fresh = invoke("ladder", "take_the_throne", "--mode", "two_player", "--rungs", "random,greedy", "--json",
                   "--out", tmp_path / "fresh", "-n", 40)
    assert code == 0 and (0, extended) == fresh and extended != first
    code, text = invoke(*args[:-5], "--out", tmp_path / "cells", "-n", 20, "--seed", 2)  # another study: refused
    assert code == 2 and len(text.strip().splitlines()) == 1 and "seed 2 here, 1 in the folder" in text, text


def test_ladder_bad_input_is_one_line(tmp_path):
    for args, flag in ((["--rungs", "random"], "--rungs"), (["--rungs", "random,wizard"], "--rungs"),
                       (["--mode", "core,nope"], "--mode"), (["-n", 0], "--games"),
                       (["-o", tmp_path / "x.txt"], "-o")):
        code, text = invoke("ladder", "take_the_throne", *args)
        assert code == 2 and len(text.strip().splitlines()) == 1 and flag in text, text


def test_the_average_seat_is_explained_by_what_a_game_can_have():
    """1 / players only when every game has one winner (Take the Throne); above it when a round can
    have several (Thron der Lügen shares its stones on a tie: 0.342 at 4 players), below it when a
    game can end without a winner."""
    assert average_seat_note(1 / 3, 3, "game") == "1 / 3: one winner a game"
    assert average_seat_note(0.342, 4, "round") == "not 1 / 4: a round can have several winners"
    assert average_seat_note(0.2, 4, "game") == "not 1 / 4: a game can have no winner"
