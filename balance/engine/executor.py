"""Playing a study's games on a Dask cluster (``--executor dask``, ``--scheduler ADDRESS``).

The in-process engine (:class:`balance.engine.runner.Executor`) stays the default. The Dask
executor cuts the range of games the driver asks for into tasks of consecutive games, each played
on a worker by the same ``Game.simulate(setup, seed, start, count)`` the local engine calls; the
driver assembles the returned rows by each task's first game, every task exactly once. So the rows
equal the local run's, game for game, whatever the cluster.

A worker lost mid-run loses nothing: Dask recomputes the tasks it held (``allowed-failures``) and
a task that raises is retried (``TASK_RETRIES``); the driver counts each task once, when its rows
arrive. The study folder sits with the driver and saves a part only once all its games are back,
so its resume rules hold unchanged.

A scheduler address that cannot be used is one line naming ``--scheduler``; a cluster without
workers is waited for up to ``--worker-wait`` seconds (``WORKER_WAIT``), before any study folder is
opened, then refused in one line.

Task size: the scheduler costs about a millisecond per task and the driver waits at each saved
part, so a range is cut into ``TASKS_PER_WORKER`` tasks per worker (enough to balance the load
and to lose little when a worker dies) of at least ``MIN_TASK_GAMES`` games. Each worker runs one
task at a time and the compiled kernel uses every core of its machine: start one worker per
machine with ``--nthreads 1``. A worker compiles (or loads from its machine's Numba cache) each
kernel once, on its first task; a worker whose package sources differ from the driver's (another
version of the rules) is refused.
"""

from __future__ import annotations

import math
from typing import Callable

import pandas as pd

import balance
from balance.engine.game import Setup
from balance.engine.runner import Executor, RunError, Tracker, simulate_frame

TASKS_PER_WORKER = 4
MIN_TASK_GAMES = 2_000
TASK_RETRIES = 2  # a task that raises on a worker is tried again this many times
LOCAL_WORKERS = 1  # LocalCluster: one worker process, the kernel parallel over every core inside it
CONNECT_TIMEOUT = "20s"  # reaching the scheduler at --scheduler
LOOP_START_ATTEMPTS = 3  # clients made for --scheduler when distributed's IO loop does not start (scheduler_client)
WORKER_WAIT = 60.0  # seconds to wait for a first worker of a cluster that has none (--worker-wait)
# what distributed raises for an address it cannot use: no port, an unknown scheme ('udp'), a scheme
# that needs configuration ('tls' without certificates), a refused or timed-out connection
ADDRESS_ERRORS = (OSError, ValueError, TypeError, KeyError)


def task_spans(start: int, end: int, workers: int, task_games: int | None = None) -> list[tuple[int, int]]:
    """(first game, count) of each task covering [start, end), in game order."""
    total = end - start
    if total <= 0:
        return []
    size = task_games or max(MIN_TASK_GAMES, math.ceil(total / (TASKS_PER_WORKER * max(1, workers))))
    return [(s, min(size, end - s)) for s in range(start, end, size)]


def play_task(start: int, count: int, setup: Setup, seed: int) -> tuple[int, pd.DataFrame]:
    """One task on a worker: games [start, start + count), tagged with their first game."""
    return start, simulate_frame(setup, seed, start, count)


def worker_source() -> str:
    return balance._source_hash()


class DaskExecutor(Executor):
    """Chunks of games on a Dask cluster: an existing one (``scheduler``, its address) or a
    LocalCluster started here (``processes=False`` keeps its workers in this process)."""

    def __init__(self, scheduler: str | None = None, *, workers: int = LOCAL_WORKERS, processes: bool = True,
                 task_games: int | None = None, worker_wait: float = WORKER_WAIT,
                 notice: Callable[[str], None] = lambda line: None):
        from distributed import Client, LocalCluster

        self.task_games = task_games
        self.cluster = None
        if scheduler:
            self.client = scheduler_client(scheduler)
            self._await_workers(scheduler, worker_wait, notice)
        else:
            self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                        dashboard_address=":0")  # any free port: never another's
            self.client = Client(self.cluster)
        self._check_sources()

    def _await_workers(self, scheduler: str, wait: float, notice: Callable[[str], None]) -> None:
        """A cluster without workers would take the tasks and never play them: wait up to ``wait``
        seconds for a first worker (saying so once), else refuse in one line."""
        if self.client.scheduler_info(n_workers=-1)["workers"]:
            return
        notice(f"waiting up to {wait:g} s for a worker to join the Dask scheduler at {scheduler} (--worker-wait)")
        try:
            self.client.wait_for_workers(1, timeout=wait)
        except TimeoutError:
            self.close()
            raise RunError(f"--scheduler: no worker joined the Dask scheduler at {scheduler} within {wait:g} s "
                           "(--worker-wait); start one with `dask worker ADDRESS --nthreads 1`") from None

    def _check_sources(self) -> None:
        here = balance._source_hash()
        for address, there in self.client.run(worker_source).items():
            if there != here:
                self.close()
                raise RunError(f"--scheduler: worker {address} runs other balance sources ({there}, here {here}); "
                               "install the same version on every worker")

    @property
    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info(n_workers=-1)["workers"]))

    def play(self, setup: Setup, seed: int, start: int, end: int, tracker: Tracker) -> pd.DataFrame:
        from distributed import as_completed

        spans = task_spans(start, end, self.workers, self.task_games)
        if not spans:
            return simulate_frame(setup, seed, 0, 0)
        futures = self.client.map(play_task, [s for s, _ in spans], [n for _, n in spans], setup=setup, seed=seed,
                                  pure=False, retries=TASK_RETRIES)
        counts = dict(spans)
        frames: dict[int, pd.DataFrame] = {}  # by first game: each task's rows once, however often it ran
        for future, (first, frame) in as_completed(futures, with_results=True):
            frames[first] = frame
            future.release()  # its rows are here: a worker lost later need not play them again
            tracker.advance(counts[first])
        return pd.concat([frames[s] for s, _ in spans], ignore_index=True)

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def scheduler_client(scheduler: str):
    """A client of the Dask scheduler at ``scheduler``, or a RunError naming ``--scheduler``. An
    address without a port or with an unknown scheme is refused before any connection is made.
    distributed starts each client's IO loop in a thread and asserts that it started within 10 s;
    on a loaded machine it sometimes has not (seen in a cold test run), so that is tried again."""
    from distributed import Client
    from distributed.comm.addressing import resolve_address

    try:
        resolve_address(scheduler)
        for _ in range(LOOP_START_ATTEMPTS):
            try:
                return Client(scheduler, timeout=CONNECT_TIMEOUT)
            except AssertionError:  # the IO loop did not start in time (distributed.utils.LoopRunner)
                continue
    except ADDRESS_ERRORS as err:
        raise RunError(f"--scheduler: cannot reach the Dask scheduler {scheduler!r} ({one_line(err)})") from None
    raise RunError(f"--scheduler: Dask's IO loop did not start, {LOOP_START_ATTEMPTS} times: the machine is too "
                   f"loaded to reach the scheduler {scheduler!r}")


def one_line(err: BaseException) -> str:
    """An exception's message on one line (distributed's span several)."""
    return " ".join(str(err).split()) or type(err).__name__


def make_executor(executor: str, scheduler: str | None, worker_wait: float = WORKER_WAIT,
                  notice: Callable[[str], None] = lambda line: None) -> Executor:
    """The executor the command-line flags name: ``local`` (the in-process engine) or ``dask``
    (a LocalCluster, or the cluster at ``scheduler``, waiting up to ``worker_wait`` seconds for a
    worker and telling ``notice`` that it waits)."""
    from balance.engine.runner import IN_PROCESS

    if scheduler:
        return DaskExecutor(scheduler, worker_wait=worker_wait, notice=notice)
    if executor == "dask":
        return DaskExecutor()
    return IN_PROCESS
