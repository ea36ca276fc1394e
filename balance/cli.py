"""The `balance` command line: games, run, check, report, replay, bench, matrix."""

from __future__ import annotations

import json
import math
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import numpy as np
import pandas as pd
import typer

from balance.engine.game import SetupError
from balance.engine.runner import (DEFAULT_CHUNK, SUMMARY, Results, RunError, round_to_deals, run_to_folder,
                                   run_until_decided, set_threads, simulate)
from balance.engine.scenario import Scenario, ScenarioError, load_scenario, scenario_files

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Monte-Carlo balance analysis for tabletop card games.")

GamesOpt = typer.Option(None, "--games", "-n", help="Games to play (overrides the scenario).")
SeedOpt = typer.Option(None, "--seed", "-s", help="Master seed (overrides the scenario).")
ThreadsOpt = typer.Option(None, "--threads", help="Worker threads (default: all cores). Results do not depend on it.")
JsonOpt = typer.Option(False, "--json", help="Print JSON instead of tables.")


class UserError(Exception):
    """Bad input: one line, exit status 2."""


@contextmanager
def user_errors():
    try:
        yield
    except (ScenarioError, RunError, UserError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2)
    except SetupError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2)


@contextmanager
def progress_bar(total: int, label: str):
    """A progress bar on stderr for long work; yields the 'advance by n' callback."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    if total < 50_000:
        yield None
        return
    if not sys.stderr.isatty():  # logs: a line at every tenth of the work
        done = [0, 0]

        def advance(n):
            done[0] += n
            if done[0] * 10 // total > done[1] or done[0] >= total:
                done[1] = done[0] * 10 // total
                typer.echo(f"{label}: {done[0]:,}/{total:,}", err=True)

        yield advance
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True, console=None) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def load(path: Path | str) -> Scenario:
    return load_scenario(path)


def play(scenario: Scenario, games: int | None, seed: int | None) -> Results:
    """Play a scenario in memory: a fixed count, or sequentially to its precision target."""
    seed = scenario.seed if seed is None else seed
    if games is None and scenario.precision is not None:
        with progress_bar(scenario.precision.max_games, scenario.name) as advance:
            return run_until_decided(scenario, seed, progress=advance)
    n = round_to_deals(scenario.games if games is None else games, scenario.setup.rotations)
    with progress_bar(n, scenario.name) as advance:
        return simulate(scenario.setup, seed, n, progress=advance)


def to_jsonable(obj):
    if isinstance(obj, pd.DataFrame):
        return [{k: to_jsonable(v) for k, v in row.items()} for row in obj.to_dict(orient="records")]
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return None if not math.isfinite(obj) else float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def summary_of(scenario: Scenario, results: Results) -> dict:
    from balance.stats import summarize

    return {"study": scenario.describe(), "games": results.n_games,
            **summarize(results, scenario.claims, looks=results.meta.get("looks", 1))}


def claims_text(scenario: Scenario, summary: dict) -> str:
    table = summary["claims"]
    lines = [f"{scenario.title}  [{scenario.path}]  {summary['games']:,} games, seed {scenario.seed}"]
    if len(table):
        lines.append(f"  {'claim':<28} {'group':<18} {'estimate':>9} {'95% interval':>19} {'target':>15}  verdict")
        for r in table.itertuples():
            target = {"about": f"{r.target:g}±{r.tolerance:g}", "at_most": f"<= {r.target + r.tolerance:g}",
                      "at_least": f">= {r.target - r.tolerance:g}"}[r.compare]
            lines.append(f"  {r.claim:<28} {r.group:<18} {r.estimate:>9.4f} [{r.low:>8.4f}, {r.high:>8.4f}] "
                         f"{target:>15}  {r.verdict}")
    uni = summary.get("seat_uniformity")
    if uni and uni["df"]:
        lines.append(f"  seat uniformity: {uni['test']}, chi2 = {uni['statistic']:.2f} on {uni['df']} df, "
                     f"p = {uni['p']:.3g}")
    return "\n".join(lines)


# ---- commands ------------------------------------------------------------------------------
@app.command()
def games(json_out: bool = JsonOpt):
    """List the games with their modes, rule options and policies."""
    from balance.games import game_names, get_game

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


@app.command()
def run(scenario: Path = typer.Argument(..., help="Scenario TOML file."),
        games: Optional[int] = GamesOpt, seed: Optional[int] = SeedOpt,
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output folder (default runs/<scenario>)."),
        chunk: int = typer.Option(DEFAULT_CHUNK, help="Games per saved part (resume granularity)."),
        threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """Play a scenario; write results.parquet (one row per game) and summary.json. Resumable."""
    with user_errors():
        sc = load(scenario)
        set_threads(threads)
        if seed is not None:
            sc.seed = seed
        n = round_to_deals(games if games is not None else (sc.precision.max_games if sc.precision else sc.games),
                           sc.setup.rotations)
        folder = out or Path("runs") / sc.name
        with progress_bar(n, sc.name) as advance:
            results = run_to_folder(sc, sc.seed, n, folder, chunk=chunk, progress=advance)
        summary = summary_of(sc, results)
        payload = to_jsonable(summary)
        tmp = folder / (SUMMARY + ".tmp")
        tmp.write_text(json.dumps(payload, indent=2))
        tmp.replace(folder / SUMMARY)
        if json_out:
            typer.echo(json.dumps(payload, indent=2))
        else:
            typer.echo(claims_text(sc, summary))
            typer.echo(f"wrote {folder / 'results.parquet'} and {folder / SUMMARY}")


@app.command()
def check(scenarios: list[Path] = typer.Argument(..., help="Scenario files or folders."),
          games: Optional[int] = GamesOpt, seed: Optional[int] = SeedOpt, threads: Optional[int] = ThreadsOpt,
          strict: bool = typer.Option(False, "--strict", help="Exit 1 when any claim fails."),
          json_out: bool = JsonOpt):
    """Play each scenario and print its claims: estimate, 95% interval, verdict."""
    with user_errors():
        files = scenario_files(scenarios)
        loaded = [load(f) for f in files]  # validate every file before playing any
        if not loaded:
            raise UserError("no scenario files given")
        set_threads(threads)
        reports, failed = [], False
        for sc in loaded:
            if seed is not None:
                sc.seed = seed
            summary = summary_of(sc, play(sc, games, None))
            failed |= bool((summary["claims"]["verdict"] == "fails").any())
            reports.append(to_jsonable(summary) if json_out else claims_text(sc, summary))
        typer.echo(json.dumps(reports, indent=2) if json_out else "\n\n".join(reports))
        if strict and failed:
            raise typer.Exit(1)


@app.command()
def report(sources: list[Path] = typer.Argument(..., help="Scenario files/folders, or run folders (from `run`)."),
           output: Path = typer.Option(..., "-o", "--output", help="The HTML file to write (Markdown beside it)."),
           games: Optional[int] = GamesOpt, seed: Optional[int] = SeedOpt, threads: Optional[int] = ThreadsOpt,
           matrix: list[Path] = typer.Option([], "--matrix", help="A `balance matrix --json` file to show as a "
                                                                    "heatmap under its game (repeatable)."),
           json_out: bool = JsonOpt):
    """Write an HTML (and Markdown) balance report with plots for one or more studies."""
    from balance.engine.runner import MANIFEST, load_results
    from balance.report import write_report

    with user_errors():
        if output.suffix.lower() != ".html":
            raise UserError(f"{output}: the report file must end in .html")
        pending = []
        for src in sources:
            if src.is_dir() and (src / MANIFEST).exists():
                pending.append(("folder", src))
            else:
                pending += [("scenario", f) for f in scenario_files([src])]
        if not pending:
            raise UserError("no scenarios or run folders given")
        matrices = [read_matrix(m) for m in matrix]
        loaded = [(kind, path, load(path) if kind == "scenario" else None) for kind, path in pending]
        set_threads(threads)
        studies = []
        for kind, path, sc in loaded:
            if kind == "folder":
                sc, results = load_results(path)
            else:
                if seed is not None:
                    sc.seed = seed
                results = play(sc, games, None)
            studies.append((sc, results, summary_of(sc, results)))
        html, md = write_report(studies, output, matrices)
        if json_out:
            typer.echo(json.dumps({"html": str(html), "markdown": str(md)}))
        else:
            typer.echo(f"wrote {html} and {md}")


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
def replay(scenario: Path = typer.Argument(..., help="Scenario TOML file."),
           game: int = typer.Option(..., "--game", "-g", help="Index of the game in the batch run (0-based)."),
           seed: Optional[int] = SeedOpt, json_out: bool = JsonOpt):
    """Replay game K of the scenario's batch run as a readable transcript."""
    with user_errors():
        sc = load(scenario)
        if game < 0:
            raise UserError(f"--game: must be 0 or more; got {game}")
        lines = sc.setup.game.transcript(sc.setup, sc.seed if seed is None else seed, game)
        if json_out:
            typer.echo(json.dumps({"game": game, "transcript": lines}, indent=2))
        else:
            typer.echo("\n".join(lines))


@app.command()
def bench(game: Optional[str] = typer.Option(None, "--game", help="Only this game."),
          seconds: float = typer.Option(5.0, help="Time to spend per setup (after warm-up)."),
          threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """Measure games (or rounds) per second and per minute of each game's benchmark setups, on all
    threads unless --threads says otherwise (JIT warm-up excluded)."""
    from balance.games import game_names, get_game

    with user_errors():
        names = [game] if game else game_names()
        for n in names:
            get_game(n, "--game")
        set_threads(threads)
        rows = []
        for n in names:
            g = get_game(n)
            for label, setup in g.bench_setups():
                g.simulate(setup, 1, 0, round_to_deals(512, setup.rotations))  # compile / load the cache
                count, elapsed, batch = 0, 0.0, round_to_deals(20_000, setup.rotations)
                while elapsed < seconds:
                    t = time.perf_counter()
                    g.simulate(setup, 2, count, batch)
                    elapsed += time.perf_counter() - t
                    count += batch
                    batch = min(batch * 2, 2_000_000)
                unit = f"{g.unit}s"
                rows.append({"game": n, "setup": label, "unit": unit, "count": count, "seconds": elapsed,
                             "per_second": count / elapsed, "per_minute": count / elapsed * 60})
                if not json_out:
                    typer.echo(f"{n:<20} {label:<36} {count / elapsed:>12,.0f} {unit}/s "
                               f"{count / elapsed * 60:>14,.0f} {unit}/min")
        if json_out:
            typer.echo(json.dumps(rows, indent=2))


@app.command()
def matrix(game: str = typer.Argument(..., help="Game name."),
           policies: str = typer.Option(..., "--policies", help="Comma-separated policy names."),
           mode: Optional[str] = typer.Option(None, "--mode"), players: int = typer.Option(2, "--players"),
           games: int = typer.Option(20_000, "--games", "-n"), seed: int = typer.Option(1, "--seed", "-s"),
           threads: Optional[int] = ThreadsOpt, json_out: bool = JsonOpt):
    """Win-rate matrix: each policy in seat slot 0 against every policy in the other seats,
    rotated over seats with common random numbers; the row policy's win rate with its interval."""
    from balance.games import get_game
    from balance.stats import estimate

    with user_errors():
        g = get_game(game, "game")
        names = [p.strip() for p in policies.split(",") if p.strip()]
        mode = mode or next(iter(g.modes))
        for name in names:
            g.policy(name, "--policies")
        set_threads(threads)
        rows = []
        for a in names:
            for b in names:
                setup = g.make_setup(mode, players, [(a, {})] + [(b, {})] * (players - 1))
                res = simulate(setup, seed, round_to_deals(games, setup.rotations))
                seats = res.seats
                slot0 = seats[seats["policy"].eq(a) & ((seats["seat"] - seats["rotation"]) % players == 0)]
                est = estimate("rate", slot0, "won")
                rows.append({"game": g.name, "mode": mode, "players": players, "row": a, "column": b,
                             "win_rate": est.estimate, "low": est.low, "high": est.high, "games": res.n_games})
        table = pd.DataFrame(rows)
        if json_out:
            typer.echo(json.dumps(to_jsonable(table), indent=2))
            return
        typer.echo(f"{g.title}, mode {mode}, {players} players: win rate of the row policy (one seat) against the "
                   f"column policy (all other seats), {games:,} games each, seed {seed}")
        width = max(12, *(len(n) for n in names))
        typer.echo(" " * width + "".join(f"{b:>26}" for b in names))
        for a in names:
            cells = table[table["row"] == a]
            typer.echo(f"{a:<{width}}" + "".join(f"{r.win_rate:>8.3f} [{r.low:.3f},{r.high:.3f}]".rjust(26)
                                                 for r in cells.itertuples()))


def main():
    app()


if __name__ == "__main__":
    main()
