"""The `balance` command line: games, run, check, report, replay, bench, matrix, ladder, restrict, sweep,
tune, and a game's own studies (dethroned-roles, arcade-values).

Every input is validated before anything is written or played; bad input (a scenario key, a flag)
is one line naming the file or the flag and the key, exit status 2. Long work shows progress on
stderr; Ctrl-C says what was kept and how to resume (exit status 130).
"""

from __future__ import annotations

import json
import math
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

import numba
import numpy as np
import pandas as pd
import typer
from typer.core import TyperGroup
from typer.core import _click  # Typer's own copy of click: its exceptions are these, not click's

from balance.engine.executor import WORKER_WAIT
from balance.engine.game import INT64_MAX, SetupError, check_number
from balance.engine.kernels import announce_compiles
from balance.engine.runner import (DEFAULT_CHUNK, IN_PROCESS, MANIFEST, SEARCH_CHUNK, SUMMARY, Executor, Results,
                                   RunError, Tracker, held_games, load_results, load_study, play_study, round_to_deals,
                                   run_to_folder, set_threads, study_looks, write_atomic)
from balance.engine.scenario import Scenario, ScenarioError, load_scenario, scenario_files
from balance.engine.stepper import decisions_per_second
from balance.games import game_names, game_title_of, get_game
from balance.stats import game_word, plural, to_jsonable
from balance.studies.restrict import MARGIN

BENCH_PROBE = 64  # games of bench's first timed batch (the next ones are sized from its speed)
BENCH_MAX_BATCH = 2_000_000
SHOW_AFTER = 2.0  # seconds: work expected to take longer shows its progress
LINE_SECONDS = 5.0  # seconds between progress lines when stderr is not a terminal
MAX_BENCH_SECONDS = 3600.0
MAX_WORKER_WAIT = 7 * 24 * 3600.0  # --worker-wait: a week (a longer wait is a mistake, and overflows timers)
INTERRUPTED = 130  # exit status after Ctrl-C (128 + SIGINT)


class OneLineErrors(TyperGroup):
    """Command-line usage errors (an unknown flag, a value of the wrong type) as one line, exit 2,
    like every other bad input; Ctrl-C outside a command as exit 130."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            status = super().main(*args, standalone_mode=False, **kwargs)
        except _click.exceptions.NoArgsIsHelpError as err:
            err.show()
            sys.exit(2)
        except _click.exceptions.UsageError as err:
            typer.echo(f"error: {printable(err.format_message())}", err=True)
            sys.exit(2)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(INTERRUPTED)
        sys.exit(status if isinstance(status, int) else 0)


# Help texts are rich markup: a literal "[" is written "\\[" (else rich takes "[sweep]" for a tag).
app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Monte-Carlo balance analysis for tabletop card games.")

GamesOpt = typer.Option(None, "--games", "-n", help="Games to play (overrides the scenario's games and precision).")
SeedOpt = typer.Option(None, "--seed", "-s", help="Master seed, 0 to 2**63-1 (overrides the scenario).")
ThreadsOpt = typer.Option(None, "--threads", help="Worker threads (default: all cores). Results do not depend on it.")
JsonOpt = typer.Option(False, "--json", help="Print JSON instead of tables (progress stays on stderr).")
KeepOpt = typer.Option(None, "--out", help="With --robust or --skill: keep each member's (rung's) games in a study "
                                            "folder under DIR/<scenario>/, so that an interrupted run resumes when run "
                                            "again (default: played in memory).")
ExecutorOpt = typer.Option("local", "--executor", help="Where games are played: local (this process, the default) "
                                                       "or dask (a Dask LocalCluster). Results do not depend on it.")
SchedulerOpt = typer.Option(None, "--scheduler", help="Address of a Dask scheduler (tcp://host:8786): its workers "
                                                      "play the games. Results do not depend on it.")
WorkerWaitOpt = typer.Option(WORKER_WAIT, "--worker-wait", help="Seconds to wait for a first worker when the "
                                                                  "--scheduler cluster has none (then exit 2).")
EXECUTORS = ("local", "dask")


class UserError(Exception):
    """Bad input: one line, exit status 2."""


def show_version(value: bool) -> None:
    if value:
        from balance import __version__

        typer.echo(f"balance {__version__}")
        raise typer.Exit()


@app.callback()
def app_options(version: bool = typer.Option(False, "--version", callback=show_version, is_eager=True,
                                             help="Print the version and exit.")):
    announce_compiles(game_title_of)  # a command that compiles a game's kernels says so, once per game


def require_optuna() -> None:
    """optuna is the `tune` extra: without it `tune` is one line naming the extra, exit 2."""
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise UserError("balance tune needs optuna: pip install 'balance[tune]'") from None


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (a newline, a control code or a stray
    byte in a file name or key keeps the error on one readable line)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@contextmanager
def user_errors():
    try:
        yield
    except (ScenarioError, RunError, UserError, SetupError) as err:
        typer.echo(f"error: {printable(str(err))}", err=True)
        raise typer.Exit(2)
    except OSError as err:  # a path that cannot be written or read (permissions, a full disk)
        if isinstance(err, BrokenPipeError):
            raise
        typer.echo(f"error: {printable(f'{err.filename}: {err.strerror}')}", err=True)
        raise typer.Exit(2)


def check_flag(value: int | float | None, flag: str, *, integer: bool = True, low: float | None = None,
               high: float | None = None) -> None:
    """A numeric flag: finite, whole where a count is meant, in range; else one line naming it."""
    if value is not None:
        try:
            check_number(value, flag, integer=integer, low=low, high=high)
        except SetupError as err:
            raise UserError(str(err)) from None


def check_common_flags(games: int | None = None, seed: int | None = None, threads: int | None = None,
                       executor: str = "local", worker_wait: float = WORKER_WAIT) -> None:
    check_flag(games, "--games", low=1)
    check_flag(seed, "--seed", low=0, high=INT64_MAX)
    check_flag(threads, "--threads", low=1, high=numba.config.NUMBA_NUM_THREADS)
    check_flag(worker_wait, "--worker-wait", integer=False, low=0, high=MAX_WORKER_WAIT)
    if executor not in EXECUTORS:
        raise UserError(f"--executor: must be one of {', '.join(EXECUTORS)}; got {executor!r}")


@contextmanager
def executor_of(executor: str, scheduler: str | None, worker_wait: float = WORKER_WAIT) -> Iterator[Executor]:
    """The executor the flags name, closed (its cluster stopped) when the command ends; a cluster
    without workers is waited for (``worker_wait`` seconds), saying so on stderr."""
    from balance.engine.executor import make_executor

    chosen = make_executor(executor, scheduler, worker_wait, notice=lambda line: typer.echo(line, err=True))
    try:
        yield chosen
    finally:
        chosen.close()


# ---- progress ------------------------------------------------------------------------------------
def _duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 \
        else f"{seconds // 60}:{seconds % 60:02d}"


class ProgressDisplay(Tracker):
    """Progress on stderr (never stdout, so --json stays clean), for work expected to take more
    than SHOW_AFTER seconds: a bar on a terminal, a line every LINE_SECONDS otherwise. The time
    left is measured on the games played by this run after its first kernel call (which loads or
    compiles the kernel), so a resumed study shows what it still needs; in a study of parts
    (``Tracker.parts``) each part's games are timed apart and each part's games left are counted at
    its own speed (a search rung plays a hundred times slower than a heuristic one). Close it when
    the work is done (the bar goes away)."""

    def __init__(self, label: str, unit: str = "games"):
        self.label, self.unit = label, unit
        self.total = self.done = self.played = 0
        self.started = self.last_line = self.last = time.monotonic()
        self.warm = None  # (time, games played) after the first kernel call
        self.left: list[int] = []  # games left by part (none: one speed for all)
        self.timed: list[tuple[float, int]] = []  # (seconds, games) timed by part
        self.current = None
        self.shown = False
        self.bar = None
        self.task = None
        self.terminal = sys.stderr.isatty()

    def begin(self, total: int, kept: int) -> None:
        self.total, self.done, self.played = total, kept, 0
        self.started = time.monotonic()
        self.warm = None
        self.left, self.timed, self.current = [], [], None
        if kept:
            self.notice(f"{self.label}: {kept:,} {self.unit} kept from an earlier run")

    def parts(self, left: list[int]) -> None:
        self.left, self.timed, self.current = list(left), [(0.0, 0)] * len(left), None

    def part(self, index: int) -> None:
        self.current = index

    def advance(self, n: int) -> None:
        self.done += n
        self.played += n
        now = time.monotonic()
        if self.warm is None:
            self.warm = (now, self.played)
        elif self.current is not None:
            seconds, games = self.timed[self.current]
            self.timed[self.current] = (seconds + now - self.last, games + n)
        if self.current is not None:
            self.left[self.current] = max(self.left[self.current] - n, 0)
        self.last = now
        left = self.time_left(now)
        if not self.shown and now - self.started + (left or 0.0) > SHOW_AFTER:
            self._show()
        status = f"{_duration(left)} left" if left is not None else "time left: measuring"
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, total=self.total, status=status)
        elif self.shown and now - self.last_line >= LINE_SECONDS:
            self._line(f"{self.done:,}/{self.total:,} {self.unit}, {status}")

    def time_left(self, now: float) -> float | None:
        """Seconds still needed (None: not measured yet, before a second kernel call): each part's
        games left at its own speed, a part not timed yet (and games outside the parts) at the
        average speed since the first call."""
        since, played_before = self.warm
        if self.played <= played_before:
            return None
        average = (now - since) / (self.played - played_before)  # seconds a game
        remaining = max(self.total - self.done, 0)
        by_part = sum(g * (seconds / games if games else average) for g, (seconds, games) in zip(self.left, self.timed))
        return by_part + max(remaining - sum(self.left), 0) * average

    def phase(self, text: str) -> None:
        """A last step after the games (summarizing, writing): shown in place of the time left."""
        if self.bar is not None:
            self.bar.update(self.task, status=text)
        elif self.shown:
            self._line(text)

    def notice(self, line: str) -> None:
        if self.bar is not None:
            self.bar.console.print(line)
        else:
            typer.echo(line, err=True)

    def _show(self) -> None:
        self.shown = True
        if not self.terminal:
            self.last_line = -math.inf  # the first line at once
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn(f"{self.unit}, {{task.fields[status]}}"), transient=True,
                            console=Console(stderr=True))
        self.task = self.bar.add_task(self.label, total=self.total, completed=self.done, status="")
        self.bar.start()

    def _line(self, text: str) -> None:
        self.last_line = time.monotonic()
        typer.echo(f"{self.label}: {text}", err=True)

    def close(self, finished: bool = True) -> None:
        """Stop showing progress; a line says "done" only when the work ``finished`` (after Ctrl-C
        or an error the caller says what happened)."""
        if self.bar is not None:
            self.bar.stop()
        elif self.shown and finished:
            self._line(f"done, {self.done:,} {self.unit} in {_duration(time.monotonic() - self.started)}")


@contextmanager
def progress(label: str, unit: str = "games") -> Iterator[ProgressDisplay]:
    display = ProgressDisplay(label, unit)
    try:
        yield display
    except BaseException:
        display.close(finished=False)
        raise
    display.close()


@contextmanager
def on_interrupt(kept: Callable[[], str]) -> Iterator[None]:
    """Ctrl-C: one line saying what was kept (``kept()``), exit status 130."""
    try:
        yield
    except KeyboardInterrupt:
        typer.echo(f"interrupted: {kept()}", err=True)
        raise typer.Exit(INTERRUPTED) from None


def nothing_kept() -> str:
    return "nothing kept (this command plays in memory; `balance run` keeps a resumable study)"


# ---- studies -------------------------------------------------------------------------------------
def load(path: Path | str) -> Scenario:
    return load_scenario(path)


def play(scenario: Scenario, games: int | None, tracker: Tracker, executor: Executor = IN_PROCESS) -> Results:
    """Play a scenario in memory: a fixed count, or sequentially to its precision target."""
    return play_study(scenario, scenario.seed, study_looks(scenario, games), tracker=tracker, executor=executor)


def summary_of(scenario: Scenario, results: Results) -> dict:
    from balance.stats import summarize
    from balance.studies import analyses

    return {"study": scenario.describe(), "games": results.n_games,
            **summarize(results, scenario.claims, analyses(results))}


def on_terminal() -> bool:
    """Colour only for a person at a terminal: never into a file or pipe, nor with NO_COLOR set."""
    import os

    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def claims_text(scenario: Scenario, summary: dict, color: bool = False) -> str:
    """The claims as the terminal shows them (``color``: verdicts coloured)."""
    from balance.stats import count_text, fact_text, p_clause, verdict_text

    lines = [f"{scenario.title}  [{scenario.path}]  {count_text(summary)}, {scenario.setup.rotation_text}, "
             f"seed {scenario.seed}"]
    sequential = summary.get("sequential")
    if sequential:
        lines.append(f"  stopped at look {sequential['look'] + 1} of {len(sequential['looks'])} "
                     f"(alpha spent there {sequential['alpha']:.2g})")
    table = summary["claims"]
    if len(table):
        lines.append("  claims (effect, deciding interval; p adjusted for Holm and the looks):")
        for claim, rows in table.groupby("claim", sort=False):
            lines.append(f"  {claim}: {rows['text'].iloc[0]}")
            lines += [f"    {verdict_text(r, color)}" for r in rows.to_dict("records")]
    facts = summary.get("facts")
    if facts is not None and len(facts):
        lines.append("  facts of the setup:")
        lines += [f"    {fact_text(r, color)}" for r in facts.to_dict("records")]
    for analysis in summary.get("analyses", []):
        lines.append(f"  {analysis['title']}: {analysis['text']}")
        lines += [f"    {line}" for line in analysis["table"].to_string(index=False).splitlines()]
    uni = summary.get("seat_uniformity")
    if uni and uni.get("untestable") and uni["untestable"] != "one seat":
        lines.append(f"  seat uniformity: no test ({uni['untestable']})")
    elif uni and uni["df"]:
        lines.append(f"  seat uniformity: {uni['test']}, statistic {uni['statistic']:.2f} on {uni['df']}"
                     f"{', ' + str(uni['df2']) if 'df2' in uni else ''} df, {p_clause(uni['p'])}")
    return "\n".join(lines)


# ---- commands ------------------------------------------------------------------------------
@app.command()
def games(json_out: bool = JsonOpt):
    """List the games with their modes, rule options and policies."""
    out = []
    for name in game_names():
        g = get_game(name)
        out.append({
            "game": g.name, "title": g.title, "rulebook": g.rulebook, "supplement": g.supplement,
            "modes": [{"name": m.name, "players": list(m.players), "doc": m.doc} for m in g.modes.values()],
            "options": [{"name": o.name, "default": o.default, "choices": list(o.choices) if o.choices else None,
                         "assumed": o.assumed, "doc": o.doc} for o in g.options],
            "policies": [{"name": p.name, "doc": p.doc, "params": [{"name": q.name, "default": q.default,
                                                                     "doc": q.doc} for q in p.params]}
                         for p in g.policies],
            "quantities": [{"name": q.name, "kind": q.kind, "by": list(q.by), "doc": q.doc} for q in g.quantities],
            "policy_family": [{"name": name, "policy": policy, "params": params} for name, policy, params in g.family],
            "ladder": list(g.ladder),
        })
    if json_out:
        typer.echo(json.dumps(out, indent=2, default=str))
        return
    for g in out:
        typer.echo(f"{g['game']}  ({g['title']})")
        for m in g["modes"]:
            typer.echo(f"  mode {m['name']:<14} players {','.join(map(str, m['players'])):<8} {m['doc']}")
        for o in g["options"]:
            typer.echo(f"  option {o['name']} = {o['default']!r}{' (assumed)' if o['assumed'] else ''}: {o['doc']}")
        for p in g["policies"]:
            params = ", ".join(f"{q['name']}={q['default']:g}" for q in p["params"])
            typer.echo(f"  policy {p['name']}: {p['doc']}{'  [' + params + ']' if params else ''}")
        for q in g["quantities"]:
            typer.echo(f"  quantity {q['name']} ({q['kind']}{', by ' + '/'.join(q['by']) if q['by'] else ''}): "
                       f"{q['doc']}")
        for m in g["policy_family"]:
            params = ", ".join(f"{k}={v:g}" for k, v in m["params"].items())
            typer.echo(f"  family member {m['name']!r}: {m['policy']}{'  [' + params + ']' if params else ''}")
        if g["ladder"]:
            typer.echo(f"  ladder: {' < '.join(g['ladder'])}")


@app.command()
def run(scenario: Path = typer.Argument(..., help="Scenario TOML file, or a study folder to resume."),
        games: Optional[int] = GamesOpt, seed: Optional[int] = SeedOpt,
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Study folder (default runs/<scenario>)."),
        chunk: Optional[int] = typer.Option(None, help=f"Games per saved part (resume granularity; default "
                                                       f"{DEFAULT_CHUNK:,})."),
        threads: Optional[int] = ThreadsOpt, executor: str = ExecutorOpt, scheduler: Optional[str] = SchedulerOpt,
        worker_wait: float = WorkerWaitOpt,
        json_out: bool = JsonOpt):
    """Play a scenario into a study folder: results.parquet (one row per game, or per round for
    match games) and summary.json. Plays --games, else the scenario's precision plan, else its games.

    Resume rules: `balance run FOLDER` (or the same command again) continues an interrupted study
    from the folder alone, with the seed, chunk and size it was started with; ask for more --games
    to extend it (only the missing games are played). A folder of another setup, seed or chunk, or
    asking for fewer games than it holds, is refused. A damaged part is played again."""
    with user_errors():
        check_common_flags(games, seed, threads, executor, worker_wait)
        if chunk is not None:
            check_flag(chunk, "--chunk", low=1)
        if scenario.is_dir():
            sc, folder, chunk, games = resumed_study(scenario, games, seed, out, chunk)
        else:
            sc = load(scenario)
            if seed is not None:
                sc.seed = seed
            folder = out or Path("runs") / sc.name
            chunk = DEFAULT_CHUNK if chunk is None else chunk
        set_threads(threads)
        size = f" --games {games}" if games is not None else ""

        def resume() -> str:  # the folder alone once it holds a study; before that the command itself
            if (folder / MANIFEST).exists():
                return f"balance run {folder}{size}"
            return f"balance run {scenario} --out {folder} --seed {sc.seed} --chunk {chunk}{size}"

        with on_interrupt(lambda: f"{held_games(folder):,} games kept in {folder}; resume with: {resume()}"), \
                executor_of(executor, scheduler, worker_wait) as engine:
            with progress(sc.name) as tracker:
                results = run_to_folder(sc, sc.seed, games, folder, chunk=chunk, tracker=tracker, executor=engine)
                tracker.phase("summarizing")
                summary = summary_of(sc, results)
        payload = to_jsonable(summary)
        write_atomic(folder / SUMMARY, json.dumps(payload, indent=2).encode())
        if json_out:
            typer.echo(json.dumps(payload, indent=2))
        else:
            typer.echo(claims_text(sc, summary, color=on_terminal()))
            typer.echo(f"wrote {folder / 'results.parquet'} and {folder / SUMMARY}")


def resumed_study(folder: Path, games: int | None, seed: int | None, out: Path | None,
                  chunk: int | None) -> tuple[Scenario, Path, int, int | None]:
    """A study folder's scenario, folder, chunk and size to resume it from the folder alone: the
    run's own seed and chunk (a flag that differs is refused), its --games unless more are asked."""
    sc, manifest = load_study(folder)
    if out is not None and out.resolve() != folder.resolve():
        raise UserError(f"--out: {folder} is a study folder; it is resumed in place (omit --out)")
    for flag, value, held in (("--seed", seed, sc.seed), ("--chunk", chunk, manifest["chunk"])):
        if value is not None and value != held:
            raise UserError(f"{flag}: the study folder {folder} was run with {flag} {held}; omit {flag} to resume it")
    return sc, folder, manifest["chunk"], manifest.get("asked") if games is None else games


@app.command()
def check(scenarios: list[Path] = typer.Argument(..., help="Scenario files or folders."),
          games: Optional[int] = GamesOpt, seed: Optional[int] = SeedOpt, threads: Optional[int] = ThreadsOpt,
          strict: bool = typer.Option(False, "--strict", help="Exit 1 when any claim fails, a fact of the setup included (with --robust: robust fails; with --skill: "
                                                                 "fails at the strongest rung)."),
          robust: bool = typer.Option(False, "--robust", help="Every claim under every member of the policy family "
                                                              "(the same deals), one reading per claim."),
          skill: bool = typer.Option(False, "--skill", help="Every claim under the scenario's players and the two "
                                                            "stronger skill rungs (the same deals): converged, moves "
                                                            "with skill or undecided."),
          out: Optional[Path] = KeepOpt,
          executor: str = ExecutorOpt, scheduler: Optional[str] = SchedulerOpt, worker_wait: float = WorkerWaitOpt,
          json_out: bool = JsonOpt):
    """Play each scenario (in memory) and print its claims: estimate, 95% interval, verdict.
    With --robust: under every member of the game's policy family (or the scenario's \\[robustness]
    members), --games or the scenario's `games` each, Holm over claims x members: robust holds,
    robust fails, policy-sensitive or undecided.
    With --skill: under the scenario's players and every seat moved up to the stronger skill rungs
    (the game's, or the scenario's \\[skill] rungs), the same deals; each claim converged (the two
    strongest rungs agree within a third of its tolerance: the strongest's verdict is the game's),
    moves with skill (they differ: the verdict describes the players) or undecided."""
    from balance.studies.robust import ROBUST_FAILS, robust_json, robust_text
    from balance.studies.skill import skill_json, skill_text

    with user_errors():
        check_common_flags(games, seed, threads, executor, worker_wait)
        if robust and skill:
            raise UserError("--skill: give --robust or --skill, not both")
        checked_keep(out, robust or skill)
        loaded = [load(f) for f in scenario_paths(scenarios)]  # validate every file before playing any
        if robust:
            checked_families(loaded)
        if skill:
            checked_rungs(loaded)
        set_threads(threads)
        reports, failed = [], False
        with on_interrupt(kept_in(out)), executor_of(executor, scheduler, worker_wait) as engine:
            for sc in loaded:
                if seed is not None:
                    sc.seed = seed
                if robust:
                    rob = play_robust(sc, games, out)
                    failed |= bool((rob.readings["reading"] == ROBUST_FAILS).any())
                    reports.append(to_jsonable(robust_json(rob)) if json_out else robust_text(rob))
                    continue
                if skill:
                    study = play_skill(sc, games, out)
                    failed |= bool((study.readings["verdict"] == "fails").any())
                    reports.append(to_jsonable(skill_json(study)) if json_out else skill_text(study))
                    continue
                with progress(sc.name) as tracker:
                    results = play(sc, games, tracker, engine)
                    tracker.phase("summarizing")
                    summary = summary_of(sc, results)
                failed |= any(bool((summary[part]["verdict"] == "fails").any()) for part in ("claims", "facts"))
                reports.append(to_jsonable(summary) if json_out else claims_text(sc, summary, color=on_terminal()))
        typer.echo(json.dumps(reports, indent=2) if json_out else "\n\n".join(reports))
        if strict and failed:
            raise typer.Exit(1)


def checked_families(scenarios: list[Scenario]) -> None:
    """Build every member's setup before anything plays (bad members are bad input)."""
    from balance.studies.robust import member_setups

    for sc in scenarios:
        try:
            member_setups(sc)
        except SetupError as err:
            raise ScenarioError(str(sc.path), err.key, err.message) from None


def checked_rungs(scenarios: list[Scenario]) -> None:
    """Build every skill rung's setup before anything plays (a scenario without a stronger rung
    is bad input)."""
    from balance.studies.skill import rung_setups

    for sc in scenarios:
        try:
            rung_setups(sc)
        except SetupError as err:
            raise ScenarioError(str(sc.path), err.key, err.message) from None


def play_skill(sc: Scenario, games: int | None, keep: Path | None = None):
    from balance.studies.skill import evaluate

    with progress(f"{sc.name} (skill rungs)") as tracker:
        return evaluate(sc, games, tracker, keep / sc.name if keep else None)


def play_robust(sc: Scenario, games: int | None, keep: Path | None = None):
    from balance.studies.robust import evaluate

    with progress(f"{sc.name} (policy family)") as tracker:
        return evaluate(sc, games, tracker, keep / sc.name if keep else None)


def checked_keep(out: Path | None, family: bool) -> None:
    """--out keeps a family's (or the skill rungs') games: only with --robust or --skill."""
    if out is not None and not family:
        raise UserError("--out: keeps the members' games of --robust or --skill; give one of them")
    if out is not None and out.exists() and not out.is_dir():
        raise UserError(f"--out: {out} is a file, not a folder")


def kept_in(out: Path | None) -> Callable[[], str]:
    """What Ctrl-C says was kept: the study folders (a family's members, skill rungs, a ladder's
    cells) under ``out``, else nothing."""
    if out is None:
        return nothing_kept
    return lambda: f"the played parts are kept in {out}; run the same command to resume"


def scenario_paths(sources: list[Path]) -> list[Path]:
    """The scenario files of the arguments (folders expanded); an empty folder is bad input."""
    for src in sources:
        if src.is_dir() and not scenario_files([src]):
            raise UserError(f"{src}: no scenario files (*.toml) in this folder")
    return scenario_files(sources)


@app.command()
def report(sources: list[Path] = typer.Argument(..., help="Scenario files/folders, or study folders (from `run`)."),
           output: Path = typer.Option(..., "-o", "--output", help="The HTML file to write (Markdown beside it)."),
           games: Optional[int] = GamesOpt, seed: Optional[int] = SeedOpt, threads: Optional[int] = ThreadsOpt,
           matrix: list[Path] = typer.Option([], "--matrix", help="A `balance matrix --json` file to show as a "
                                                                    "heatmap under its game (repeatable)."),
           robust: bool = typer.Option(False, "--robust", help="A policy-robustness report of scenario files: "
                                                              "claims x members table, a strip per claim."),
           skill: bool = typer.Option(False, "--skill", help="A report of scenario files read against stronger "
                                                            "players: each claim's estimate at every rung, a reading "
                                                            "(its readings beside it as JSON)."),
           skill_readings: list[Path] = typer.Option([], "--skill-readings", help="The JSON a skill report writes "
                                                     "beside it (or `check --skill --json`): each reading said in its "
                                                     "claim's finding (repeatable)."),
           see: list[Path] = typer.Option([], "--see", help="A related page (a sweep, restricted play, the ladder, "
                                                           "a skill page): its one-line finding closes the Findings, "
                                                           "linked (repeatable)."),
           out: Optional[Path] = KeepOpt,
           executor: str = ExecutorOpt, scheduler: Optional[str] = SchedulerOpt, worker_wait: float = WorkerWaitOpt,
           json_out: bool = JsonOpt):
    """Write an HTML (and Markdown) balance report with plots for one or more studies. With
    --robust: the policy-robustness report of scenario files (see `check --robust`); with --skill:
    the skill report (see `check --skill`), its readings beside it as JSON for --skill-readings."""
    from balance.report import write_report, write_robust_report, write_skill_report

    with user_errors():
        check_common_flags(games, seed, threads, executor, worker_wait)
        if output.suffix.lower() != ".html":
            raise UserError(f"-o: {output}: the report file must end in .html")
        if output.is_dir():
            raise UserError(f"-o: {output} is a folder")
        if robust and skill:
            raise UserError("--skill: give --robust or --skill, not both")
        if (robust or skill) and (skill_readings or see):
            flag = "--skill-readings" if skill_readings else "--see"
            raise UserError(f"{flag}: a balance report's findings take them, not --robust or --skill")
        checked_keep(out, robust or skill)
        for page in see:
            if page.suffix.lower() != ".html" or not page.is_file():
                raise UserError(f"--see: {page}: not an HTML page")
        if robust or skill:
            flag = "--robust" if robust else "--skill"
            for src in sources:
                if src.is_dir() and (src / MANIFEST).exists():
                    raise UserError(f"{flag}: {src} is a study folder (one set of players); give scenario files")
            loaded = [load(f) for f in scenario_paths(sources)]
            (checked_families if robust else checked_rungs)(loaded)
            set_threads(threads)
            with on_interrupt(kept_in(out)):
                for sc in loaded:
                    if seed is not None:
                        sc.seed = seed
                if robust:
                    html, md = write_robust_report([play_robust(sc, games, out) for sc in loaded], output)
                else:
                    html, md = write_skill_report([play_skill(sc, games, out) for sc in loaded], output)
            typer.echo(json.dumps({"html": str(html), "markdown": str(md)}) if json_out else f"wrote {html} and {md}")
            return
        pending = []
        for src in sources:
            if src.is_dir() and (src / MANIFEST).exists():
                pending.append(("folder", src, None))
            else:
                pending += [("scenario", f, None) for f in scenario_paths([src])]
        matrices = [read_matrix(m) for m in matrix]
        loaded = [(kind, path, load(path) if kind == "scenario" else load_results(path)) for kind, path, _ in pending]
        readings = read_skill_readings(skill_readings, [src for kind, _, src in loaded if kind == "scenario"])
        set_threads(threads)
        studies = []
        with on_interrupt(nothing_kept), executor_of(executor, scheduler, worker_wait) as engine:
            for kind, path, source in loaded:
                if kind == "folder":
                    sc, results = source
                    studies.append((sc, results, summary_of(sc, results)))
                    continue
                sc = source
                if seed is not None:
                    sc.seed = seed
                with progress(sc.name) as tracker:
                    results = play(sc, games, tracker, engine)
                    tracker.phase("summarizing")
                    studies.append((sc, results, summary_of(sc, results)))
            html, md = write_report(studies, output, matrices, readings, see)
        if json_out:
            typer.echo(json.dumps({"html": str(html), "markdown": str(md)}))
        else:
            typer.echo(f"wrote {html} and {md}")


def read_skill_readings(paths: list[Path], scenarios: list[Scenario]) -> dict:
    """The skill readings of --skill-readings files, by scenario (``report.skill_readings``). Bad
    input is one line naming the file: not a skill study's JSON, a scenario the report does not
    play, or one changed since its skill study."""
    from balance.report import scenario_key, skill_readings

    ours = {scenario_key(sc.path): sc for sc in scenarios}
    readings = {}
    keys = {"study", "games", "rungs", "readings", "comparisons"}
    for path in paths:
        try:
            studies = json.loads(path.read_text())
        except (OSError, ValueError) as err:
            raise UserError(f"--skill-readings: {path}: not a skill study's JSON ({err})")
        if not isinstance(studies, list) or not studies or not all(
                isinstance(st, dict) and keys <= set(st) and isinstance(st["study"], dict)
                and st["study"].get("scenario") for st in studies):
            raise UserError(f"--skill-readings: {path}: expected the JSON of `balance report --skill` or "
                            f"`balance check --skill --json` ({', '.join(sorted(keys))})")
        for st in studies:
            name = st["study"]["scenario"]
            sc = ours.get(scenario_key(name))
            if sc is None:
                raise UserError(f"--skill-readings: {path}: {name} is not a scenario file of this report")
            now = to_jsonable(sc.describe())
            changed = [k for k in dict.fromkeys([*now, *st["study"]]) if k not in ("seed", "title")
                       and now.get(k) != st["study"].get(k)]
            if changed:
                raise UserError(f"--skill-readings: {path}: {name} changed since its skill study ({changed[0]}); "
                                f"play it again with `balance report --skill`")
        readings.update(skill_readings(studies, {scenario_key(sc.path): plural(game_word(sc.setup))
                                                 for sc in scenarios}))
    return readings


def read_matrix(path: Path) -> list[dict]:
    """The rows of a `balance matrix --json` file (bad input: one line naming the file)."""
    try:
        rows = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise UserError(f"{path}: not a matrix JSON file ({err})")
    keys = {"game", "mode", "row", "column", "win_rate", "low", "high", "games"}
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) and keys <= set(r) for r in rows):
        raise UserError(f"{path}: expected the rows of `balance matrix --json` ({', '.join(sorted(keys))})")
    return rows


@app.command()
def replay(source: Path = typer.Argument(..., help="Scenario TOML file, or a study folder (from `run`)."),
           game: int = typer.Option(..., "--game", "-g", help="Index of the game in the study (0-based)."),
           seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Master seed of a scenario file's study "
                                                                        "(a study folder has its own)."),
           json_out: bool = JsonOpt):
    """Replay game K of a study as a readable transcript, through the very kernel the batch used."""
    with user_errors():
        check_common_flags(seed=seed)
        if source.is_dir():
            sc, manifest = load_study(source)
            if seed is not None and seed != sc.seed:
                raise UserError(f"--seed: the study folder {source} was played with seed {sc.seed}")
            size = held_games(source)
        else:
            sc = load(source)
            if seed is not None:
                sc.seed = seed
            size = study_looks(sc, None)[-1]
        if not 0 <= game < size:
            raise UserError(f"--game: the study has games 0 to {size - 1:,}; got {game}")
        lines = sc.setup.game.transcript(sc.setup, sc.seed, game)
        if json_out:
            typer.echo(json.dumps({"game": game, "transcript": lines}, indent=2))
        else:
            typer.echo("\n".join(lines))


@app.command()
def bench(game: Optional[str] = typer.Option(None, "--game", help="Only this game."),
          seconds: float = typer.Option(5.0, help="Time to spend per setup (after warm-up), above 0."),
          threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """Measure games (or rounds) per second and per minute of each game's benchmark setups, on all
    threads unless --threads says otherwise (JIT warm-up excluded), and the tree search's
    decisions per second at its default budget (one decision at a time, every seat searching)."""
    with user_errors():
        check_common_flags(threads=threads)
        check_flag(seconds, "--seconds", integer=False, high=MAX_BENCH_SECONDS)
        if seconds <= 0:
            raise UserError(f"--seconds: must be above 0; got {seconds:g}")
        names = [game] if game else game_names()
        for n in names:
            get_game(n, "--game")
        set_threads(threads)
        rows = []
        for n in names:
            g = get_game(n)
            for label, setup in g.bench_setups():
                g.simulate(setup, 1, 0, setup.rotations)  # one deal: compile or load the cache
                count, elapsed, batch = 0, 0.0, round_to_deals(BENCH_PROBE, setup.rotations)
                while elapsed < seconds:
                    t = time.perf_counter()
                    g.simulate(setup, 2, count, batch)
                    elapsed += time.perf_counter() - t
                    count += batch
                    # the next batch: about a quarter of the time budget at the speed seen so far
                    # (a search policy plays a few dozen games a second, a rules kernel millions)
                    wanted = count / elapsed * seconds / 4 if elapsed > 0 else batch * 2
                    batch = round_to_deals(int(min(max(wanted, BENCH_PROBE), BENCH_MAX_BATCH)), setup.rotations)
                unit = g.bench_unit(setup)
                rows.append(bench_row(n, label, unit, count, elapsed, json_out))
            label, setup = g.search_bench_setup()
            count, elapsed = decisions_per_second(g.stepper(setup), seconds)
            rows.append(bench_row(n, label, "decisions", count, elapsed, json_out))
        if json_out:
            typer.echo(json.dumps(rows, indent=2))


def bench_row(game: str, label: str, unit: str, count: int, elapsed: float, json_out: bool) -> dict:
    """One row of ``balance bench`` (printed at once unless --json)."""
    if not json_out:
        typer.echo(f"{game:<20} {label:<36} {count / elapsed:>12,.0f} {unit}/s {count / elapsed * 60:>14,.0f} {unit}/min")
    return {"game": game, "setup": label, "unit": unit, "count": count, "seconds": elapsed,
            "per_second": count / elapsed, "per_minute": count / elapsed * 60}


@app.command()
def matrix(game: str = typer.Argument(..., help="Game name (see `balance games`)."),
           policies: str = typer.Option(..., "--policies", help="Comma-separated policy names, e.g. random,heuristic."),
           mode: Optional[str] = typer.Option(None, "--mode", help="Mode (default: the game's first)."),
           players: Optional[int] = typer.Option(None, "--players", help="Players (default: the mode's fewest)."),
           scenario: Optional[Path] = typer.Option(
               None, "--scenario", help="Take mode, players, options and game tables (e.g. DETHRONED's roles) "
                                        "from this scenario file; its seats are replaced."),
           games: int = typer.Option(20_000, "--games", "-n", help="Games per cell (rounded up to whole deals)."),
           seed: int = typer.Option(1, "--seed", "-s", help="Master seed, the same for every cell."),
           threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """Win-rate matrix: each policy in seat slot 0 against every policy in the other seats,
    rotated over seats with common random numbers; the row policy's win rate with its interval.
    Without --scenario the setup is the game's default for the mode and player count (DETHRONED:
    the first suggested setup of that size)."""
    from balance.studies.ladder import cell_games, matrix_base, matrix_cells, play_cells, win_rates

    with user_errors():
        check_common_flags(games, seed, threads)
        g = get_game(game, "GAME")
        names = policy_names(g, policies, "--policies")
        cells = matrix_cells(matrix_base(g, scenario, mode, players), scenario, names)
        setup = next(iter(cells.values())).setup
        n = cell_games(cells, games)
        set_threads(threads)
        with on_interrupt(nothing_kept), progress(f"matrix {g.name}") as tracker:
            tracker.begin(n * len(cells), 0)
            table = win_rates(play_cells(cells, n, seed, tracker))
        if json_out:
            typer.echo(json.dumps(to_jsonable(table), indent=2))
            return
        facts = "".join(f", {k} {', '.join(map(str, v)) if isinstance(v, list) else v}"
                        for k, v in setup.extra_description().items())
        typer.echo(f"{g.title}, mode {setup.mode}, {setup.players} players{facts}: win rate of the row policy "
                   f"(one seat) against the column policy (all other seats), {n:,} games each, seed {seed}")
        width = max(12, *(len(name) for name in names))
        typer.echo(" " * width + "".join(f"{b:>26}" for b in names))
        for a in names:
            cells_of_row = table[table["row"] == a]
            typer.echo(f"{a:<{width}}" + "".join(f"{r.win_rate:>8.3f} [{r.low:.3f},{r.high:.3f}]".rjust(26)
                                                 for r in cells_of_row.itertuples()))


@app.command()
def restrict(scenario: Path = typer.Argument(..., help="Scenario TOML file: the setup and the standard field."),
             games: int = typer.Option(4_000, "--games", "-n", help="Games per restricted run (whole deals; the "
                                                                      "baseline plays the same deals)."),
             seed: Optional[int] = SeedOpt,
             forced: bool = typer.Option(False, "--forced", help="Also make the slot prefer each action "
                                                                 "(is it dominant?)."),
             margin: float = typer.Option(100 * MARGIN, "--margin", help="Margin of the verdicts, in "
                                                                                  "points of win rate."),
             output: Optional[Path] = typer.Option(None, "-o", "--output", help="Also write an HTML section with "
                                                                                "the importance chart (Markdown "
                                                                                "beside it)."),
             threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """Restricted play: for every action of the game's menu (each card, ability or choice), policy
    slot 0 forbidden it (with --forced also made to prefer it) against the scenario's field,
    rotated over the seats, on the baseline's deals (common random numbers). Per action: the
    restricted and baseline win rates, importance = baseline - restricted with its interval
    (paired by deal), Holm-adjusted verdicts against the margin; and each seat as a restricted
    row (the value of going first)."""
    from balance.studies.restrict import restrict_study, study_text

    with user_errors():
        check_common_flags(games, seed, threads)
        check_flag(margin, "--margin", integer=False, low=0, high=100)
        if output is not None and output.suffix.lower() != ".html":
            raise UserError(f"-o: {output}: the report file must end in .html")
        sc = load(scenario)
        if seed is not None:
            sc.seed = seed
        if not sc.setup.game.actions(sc.setup):
            raise UserError(f"{scenario}: {sc.setup.game.name} declares no actions to restrict")
        set_threads(threads)
        with on_interrupt(nothing_kept), progress(f"restrict {sc.name}") as tracker:
            study = restrict_study(sc.setup, sc.seed, games, forced=forced, margin=margin / 100, tracker=tracker)
        if output is not None:
            from balance.report import write_restrict_report

            html, md = write_restrict_report(study, sc.title, output)
        if json_out:
            typer.echo(json.dumps(to_jsonable({"study": {"scenario": str(scenario), **study.describe()},
                                               "rows": study.table}), indent=2))
        else:
            typer.echo(study_text(study))
            if output is not None:
                typer.echo(f"wrote {html} and {md}")


def policy_names(g, text: str, flag: str) -> list[str]:
    """Comma-separated policy names of a flag, each known to the game."""
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise UserError(f"{flag}: no policy named (known: {', '.join(p.name for p in g.policies)})")
    for name in names:
        g.policy(name, flag)
    return names


@app.command()
def ladder(game: str = typer.Argument(..., help="Game name (see `balance games`)."),
           mode: Optional[str] = typer.Option(None, "--mode", help="Mode, or modes separated by commas (default: "
                                                                  "the scenario's, else the game's first)."),
           players: Optional[int] = typer.Option(None, "--players", help="Players (default: each mode's fewest)."),
           scenario: Optional[Path] = typer.Option(
               None, "--scenario", help="Take mode, players, options and game tables from this scenario file."),
           games: int = typer.Option(2_000, "--games", "-n", help="Games per cell (rounded up to whole deals)."),
           rungs: Optional[str] = typer.Option(None, "--rungs", help="Comma-separated policies, weakest first "
                                                                    "(default: the game's ladder)."),
           seed: int = typer.Option(1, "--seed", "-s", help="Master seed, the same for every cell."),
           output: Optional[Path] = typer.Option(None, "-o", "--output", help="Also write an HTML report (and "
                                                                              "Markdown beside it): heatmap, ratings."),
           out: Optional[Path] = typer.Option(None, "--out", help="Folder of the cells' study folders (default "
                                                                 "runs/ladder-<scenario or game>): an interrupted "
                                                                 "ladder resumes from it, a larger -n extends it."),
           chunk: int = typer.Option(SEARCH_CHUNK, help="Games per saved part of each cell (resume granularity)."),
           threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """The skill ladder: every rung against every other (one seat against the rest, rotated seats,
    the same deals in every cell), the win-rate matrix with intervals, a Bradley-Terry rating per
    rung (Elo points, intervals from a bootstrap over deals) and how much skill matters: the best
    rung's win rate against the first rung, per mode. Each cell is a resumable study folder under
    --out."""
    from balance.studies.ladder import (cell_games, kept_cells, ladder_cells, ladder_json, ladder_text, play_ladder,
                                        skill_text)

    with user_errors():
        check_common_flags(games, seed, threads)
        g = get_game(game, "GAME")
        names = policy_names(g, rungs, "--rungs") if rungs else list(g.ladder or (p.name for p in g.policies))
        if len(names) < 2 or len(set(names)) < len(names):
            raise UserError(f"--rungs: name at least two different policies; got {', '.join(names)}")
        if output is not None and (output.suffix.lower() != ".html" or output.is_dir()):
            raise UserError(f"-o: {output}: the report file must end in .html")
        modes = [m.strip() for m in mode.split(",") if m.strip()] if mode else [None]
        check_flag(chunk, "--chunk", low=1)
        plans = [ladder_cells(g, names, m, players, scenario) for m in modes]
        counts = [cell_games(cells, games) for cells in plans]
        folder = out or Path("runs") / f"ladder-{scenario.stem if scenario else g.name}"
        set_threads(threads)
        with on_interrupt(kept_in(folder)), progress(f"ladder {g.name}") as tracker:
            tracker.begin(sum(n * len(cells) for n, cells in zip(counts, plans)),
                          sum(kept_cells(cells, n, seed, folder, chunk) for cells, n in zip(plans, counts)))
            ladders = [play_ladder(cells, names, n, seed, tracker, folder, chunk) for cells, n in zip(plans, counts)]
            if output is not None:
                from balance.report import write_ladder_report

                tracker.phase("writing the report")
                written = write_ladder_report(ladders, output)
        if json_out:
            typer.echo(json.dumps(to_jsonable([ladder_json(lad) for lad in ladders]), indent=2))
        else:
            typer.echo("\n\n".join(ladder_text(lad) for lad in ladders))
            if len(ladders) > 1:
                typer.echo("\nhow much skill matters, per mode:\n" + "\n".join(f"  {skill_text(lad.skill())}"
                                                                               for lad in ladders))
            if output is not None:
                typer.echo(f"wrote {written[0]} and {written[1]}")


@app.command()
def sweep(scenario: Path = typer.Argument(..., help="Scenario TOML file (its \\[sweep] table, if any, adds cells)."),
          vary: list[str] = typer.Option([], "--vary", help="KEY=V1,V2,... : a key and its values (repeatable: the "
                                                            "grid of every combination). Keys: options.X, players, "
                                                            "mode, max_length, a game table, seats.policy, "
                                                            "seats.params.X, seats\\[i].params.X."),
          games: Optional[int] = typer.Option(None, "--games", "-n", help="Games per cell (default: the scenario's games; its \\[precision] plan is not used: every cell plays the same deals)."),
          seed: Optional[int] = SeedOpt,
          adjust: str = typer.Option("bh", "--adjust", help="Multiplicity over every cell's claims: bh "
                                                            "(Benjamini-Hochberg) or holm."),
          out: Optional[Path] = typer.Option(None, "--out", help="Folder of the cells' study folders and the tidy "
                                                                 "table (default runs/sweep-<scenario>)."),
          output: Optional[Path] = typer.Option(None, "-o", "--output", help="Report HTML file (Markdown and CSV "
                                                                             "beside it)."),
          chunk: int = typer.Option(DEFAULT_CHUNK, help="Games per saved part of each cell (resume granularity)."),
          threads: Optional[int] = ThreadsOpt, executor: str = ExecutorOpt,
          scheduler: Optional[str] = SchedulerOpt, worker_wait: float = WorkerWaitOpt, json_out: bool = JsonOpt):
    """What-if sweep: the scenario's claims in every cell of a grid (or list) of changed keys, with
    verdicts adjusted over all cells and paired differences from the baseline (the same deals in
    every cell). Each cell is a resumable study folder under --out."""
    from balance.studies.sweep import (ADJUSTMENTS, SweepError, play_sweep, plan_sweep, sweep_table, sweep_text,
                               write_sweep_report, write_table)

    with user_errors():
        check_common_flags(games, seed, threads, executor, worker_wait)
        check_flag(chunk, "--chunk", low=1)
        if adjust not in ADJUSTMENTS:
            raise UserError(f"--adjust: must be one of {', '.join(ADJUSTMENTS)}; got {adjust!r}")
        if output is not None and output.suffix.lower() != ".html":
            raise UserError(f"-o: {output}: the report file must end in .html")
        try:
            plan = plan_sweep(scenario, vary)
        except SweepError as err:
            raise UserError(str(err)) from None
        folder = out or Path("runs") / f"sweep-{scenario.stem}"
        set_threads(threads)
        with on_interrupt(lambda: f"the finished cells are kept in {folder}; run the same command to resume"), \
                executor_of(executor, scheduler, worker_wait) as engine:
            shown: list[ProgressDisplay] = []  # one display per cell, each closed when the next begins

            def tracker_for(cell) -> ProgressDisplay:
                if shown:
                    shown.pop().close()
                shown.append(ProgressDisplay(f"{cell.base} | {cell.label}"))
                return shown[-1]

            try:
                results = play_sweep(plan, games, seed, folder, chunk=chunk, tracker_for=tracker_for, executor=engine)
            except BaseException:
                if shown:
                    shown.pop().close(finished=False)
                raise
            if shown:
                shown.pop().close()
            table = sweep_table(plan, results, adjust)
            written = [*write_table(table, folder)]
            if output is not None:
                written += [*write_sweep_report(plan, table, output, adjust)]
        if json_out:
            typer.echo(json.dumps({"table": to_jsonable(table), "written": [str(w) for w in written]}, indent=2))
        else:
            typer.echo(sweep_text(plan, table, adjust))
            typer.echo("wrote " + ", ".join(map(str, written)))


@app.command()
def tune(scenario: Path = typer.Argument(..., help="Scenario TOML file."),
         target: str = typer.Option(..., "--target", help="The claim to bring to its target: CLAIM or CLAIM:GROUP."),
         vary: list[str] = typer.Option(..., "--vary", help="KEY=LOW..HIGH (integers when both ends are) or "
                                                            "KEY=V1,V2,... (choices); repeatable."),
         trials: int = typer.Option(20, "--trials", help="Settings the optimizer tries."),
         games: Optional[int] = typer.Option(None, "--games", "-n", help="Games per trial (default: the scenario's)."),
         seed: Optional[int] = SeedOpt, threads: Optional[int] = ThreadsOpt, executor: str = ExecutorOpt,
         scheduler: Optional[str] = SchedulerOpt, worker_wait: float = WorkerWaitOpt, json_out: bool = JsonOpt):
    """Find the setting of rule keys that brings a claim closest to its target (optuna TPE, seeded;
    the best settings replayed on a fresh seed), then confirm it on another fresh seed with its
    interval and verdict."""
    from balance.studies.sweep import SweepError
    from balance.studies.tune import parse_range, tune as run_tune, tune_text

    with user_errors():
        require_optuna()
        check_common_flags(games, seed, threads, executor, worker_wait)
        check_flag(trials, "--trials", low=1)
        try:
            ranges = [parse_range(v) for v in vary]
            set_threads(threads)
            with on_interrupt(nothing_kept), executor_of(executor, scheduler, worker_wait) as engine, \
                    progress(f"tune {scenario.stem}") as tracker:
                result = run_tune(scenario, target, ranges, trials, games, seed, engine, tracker)
        except SweepError as err:
            raise UserError(str(err)) from None
        typer.echo(json.dumps(to_jsonable(result), indent=2) if json_out else tune_text(result))


# ---- a game's own studies (balance.studies) ------------------------------------------------------
@app.command("dethroned-roles")
def dethroned_roles(games: int = typer.Option(2_000, "--games", "-n", help="Games (deals) per run."),
                    seed: int = typer.Option(20261201, "--seed", "-s", help="Master seed, the same for every run."),
                    margin: float = typer.Option(100 * MARGIN, "--margin", help="Margin of the verdicts, in "
                                                                                "points of win rate."),
                    output: Path = typer.Option(Path("reports/dethroned/restrict.html"), "-o", "--output",
                                                help="The HTML page (Markdown and CSV beside it)."),
                    threads: Optional[int] = ThreadsOpt):
    """DETHRONED's restricted play per role: for each role of the Full House and Town Meeting setups
    and each of Double, Halve, Redirect and Bomb, the player dealt the role forbidden the card, then
    made to play it whenever it can, on the baseline's deals; importance and gain paired by deal,
    Holm-adjusted verdicts against the margin."""
    with user_errors():
        check_common_flags(games, seed, threads)
        check_flag(margin, "--margin", integer=False, low=0, high=100)
        if output.suffix.lower() != ".html":
            raise UserError(f"-o: {output}: the report file must end in .html")
        from balance.studies.restricted_roles import study, write

        set_threads(threads)
        with on_interrupt(nothing_kept):
            table = study(seed, games, margin / 100, log=lambda line: typer.echo(line, err=True))
        html, md = write(table, seed, games, margin / 100, output)
        typer.echo(f"wrote {html}, {md} and {html.with_suffix('.csv')}")


@app.command("arcade-values")
def arcade_values(games: int = typer.Option(4_000, "--games", "-n", help="Matches per setup."),
                  threads: Optional[int] = ThreadsOpt):
    """Throne Arcade: the value of each special card (the chance to lose a round holding it against
    not) and the length of a match, as a Markdown page on stdout (4 players, heuristic self-play)."""
    with user_errors():
        check_common_flags(games, None, threads)
        from balance.studies.arcade_values import values_page

        set_threads(threads)
        with on_interrupt(nothing_kept):
            typer.echo(values_page(games))


def main():
    app()


if __name__ == "__main__":
    main()
