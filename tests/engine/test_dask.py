"""The Dask executor: chunks played on a LocalCluster's workers give the rows of the in-process
engine, game for game, in memory and in a study folder (new, resumed, extended), and a worker
lost mid-run loses no game and counts none twice."""

import pandas as pd
import pytest

pytest.importorskip("distributed")

from balance.engine.executor import DaskExecutor, task_spans  # noqa: E402
from balance.engine.runner import RESULTS, Tracker, play_range, run_to_folder  # noqa: E402
from balance.engine.scenario import parse_scenario  # noqa: E402

STUDY = {"game": "take_the_throne", "mode": "core", "players": 3, "seed": 11, "games": 900,
         "seats": [{"policy": "heuristic"}, {"policy": "random"}, {"policy": "greedy"}],
         "claims": [{"id": "fair", "quantity": "win_rate", "by": "seat", "target": 0.333, "tolerance": 0.3}]}
TASK_GAMES = 60  # tiny tasks: many of them, so a worker can be lost while most are still to come


@pytest.fixture(scope="module")
def cluster():
    """Two in-process workers (threads; the compiled kernel releases the GIL)."""
    executor = DaskExecutor(workers=2, processes=False, task_games=TASK_GAMES)
    yield executor
    executor.close()


@pytest.fixture(scope="module")
def scenario():
    return parse_scenario(STUDY)


def test_tasks_tile_the_range_in_order():
    spans = task_spans(100, 1_000, workers=3, task_games=250)
    assert spans == [(100, 250), (350, 250), (600, 250), (850, 150)]
    assert task_spans(0, 10**6, workers=2)[0] == (0, 125_000)  # 4 tasks per worker


def test_dask_rows_equal_the_in_process_engine(cluster, scenario):
    local = play_range(scenario.setup, 11, 0, 900, Tracker())
    remote = cluster.play(scenario.setup, 11, 0, 900, Tracker())
    pd.testing.assert_frame_equal(local, remote)


def test_a_study_folder_resumed_and_extended_on_dask_equals_one_local_run(cluster, scenario, tmp_path):
    local = run_to_folder(scenario, 11, 900, tmp_path / "local", chunk=300).games
    run_to_folder(scenario, 11, 300, tmp_path / "mixed", chunk=300)  # begun in process...
    mixed = run_to_folder(scenario, 11, 900, tmp_path / "mixed", chunk=300, executor=cluster).games  # ...ended on Dask
    pd.testing.assert_frame_equal(local, mixed)
    pd.testing.assert_frame_equal(local, pd.read_parquet(tmp_path / "mixed" / RESULTS))


class LoseAWorker(Tracker):
    """Closes one worker of the cluster when the third task's rows arrive (most tasks still to come),
    and counts the games reported."""

    def __init__(self, executor: DaskExecutor):
        self.executor, self.arrived, self.games = executor, 0, 0

    def advance(self, n: int) -> None:
        self.arrived += 1
        self.games += n
        if self.arrived == 3:
            cluster = self.executor.cluster
            name = next(iter(cluster.workers))
            cluster.sync(cluster.workers[name].close)


def test_a_worker_lost_mid_run_loses_no_game_and_counts_none_twice(scenario):
    executor = DaskExecutor(workers=2, processes=False, task_games=TASK_GAMES)
    try:
        tracker = LoseAWorker(executor)
        rows = executor.play(scenario.setup, 11, 0, 1_200, tracker)
        assert len(executor.cluster.scheduler.workers) == 1  # the worker was gone before the end
    finally:
        executor.close()
    assert tracker.games == 1_200
    assert sorted(rows["game"]) == list(range(1_200))
    pd.testing.assert_frame_equal(rows, play_range(scenario.setup, 11, 0, 1_200, Tracker()))


def test_check_on_a_cluster_by_its_address_prints_what_the_local_check_prints(cluster, tmp_path):
    import json

    from typer.testing import CliRunner

    from balance.cli import app

    path = tmp_path / "study.toml"
    path.write_text('game = "take_the_throne"\nmode = "core"\nplayers = 3\nseed = 11\ngames = 300\nseats = "random"\n'
                    '[[claims]]\nid = "fair"\nquantity = "win_rate"\nby = "seat"\ntarget = 0.333\ntolerance = 0.3\n')
    runner = CliRunner()
    local = runner.invoke(app, ["check", str(path), "--json"])
    remote = runner.invoke(app, ["check", str(path), "--json", "--scheduler", cluster.cluster.scheduler_address])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_a_client_whose_io_loop_did_not_start_is_made_again_then_refused_in_one_line(monkeypatch):
    """distributed asserts that a client's IO loop started within 10 s; on a loaded machine it
    sometimes has not (a cold test run): the client is made again, and after LOOP_START_ATTEMPTS
    failures the command is refused naming --scheduler, not with a traceback."""
    import distributed

    from balance.engine import executor

    made = []

    def loop_starts_on_the_third_try(address, timeout):
        made.append(address)
        assert len(made) >= 3  # what distributed.utils.LoopRunner raises when its loop did not start
        return "client"

    monkeypatch.setattr(distributed, "Client", loop_starts_on_the_third_try)
    assert executor.scheduler_client("tcp://127.0.0.1:8786") == "client"
    assert made == ["tcp://127.0.0.1:8786"] * 3

    made.clear()
    monkeypatch.setattr(executor, "LOOP_START_ATTEMPTS", 2)
    with pytest.raises(executor.RunError, match="^--scheduler: Dask's IO loop did not start, 2 times"):
        executor.scheduler_client("tcp://127.0.0.1:8786")
    assert len(made) == 2


@pytest.mark.parametrize("address", ["tcp://", "not an address", "udp://127.0.0.1:8786"])
def test_an_address_without_a_port_or_with_an_unknown_scheme_is_refused_before_connecting(monkeypatch, address):
    import distributed

    from balance.engine import executor

    monkeypatch.setattr(distributed, "Client", lambda *a, **k: pytest.fail("connected"))
    with pytest.raises(executor.RunError, match="^--scheduler: cannot reach the Dask scheduler"):
        executor.scheduler_client(address)
