"""Regenerate every committed report under reports/ (docs/reports.md), then reports/index.html.
Each game's balance report comes last: its Findings end with every other page's (``--see``).

    python tools/regenerate_reports.py                  # everything, at the committed game counts
    python tools/regenerate_reports.py --only take_the_throne --only thron_der_luegen
    python tools/regenerate_reports.py --games 40 --out /tmp/small   # tiny counts (tests/engine/test_report_pages.py)
    python tools/regenerate_reports.py --list           # the commands, one a line
    python tools/regenerate_reports.py --file report.html   # only the balance reports of every game

Each report is one `balance` command; ``--games`` replaces every command's game count (-n/--games)
and ``--out`` writes under another folder (the same layout). The long runs (ladders, skill and
robustness pages) keep their games under runs/reports/<game>/<page>/ (with ``--games``, under the
output folder): an interrupted regeneration resumes them when run again. After a change to the rules
or the players those folders hold another study and are refused in one line: delete them. Install with the pins first
(`python -m pip install -c constraints/reports.txt .`) so that the images reproduce.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (game folder, report file, the balance command's arguments; "{out}": the game's output folder).
# A command whose report is its standard output (balance matrix) names it as "> file".
COMMANDS: list[tuple[str, str, list[str]]] = [
    ("take_the_throne", "skill.html", ["report", "--skill", "scenarios/take_the_throne/core_4p.toml", "-n", "800", "-o",
                                       "{out}/skill.html"]),
    ("take_the_throne", "restrict_core_4p.html", ["restrict", "scenarios/take_the_throne/core_4p.toml", "--games",
                                                  "40000", "--forced", "-o", "{out}/restrict_core_4p.html"]),
    ("take_the_throne", "robust.html", ["report", "--robust", "scenarios/take_the_throne/core_4p.toml",
                                        "scenarios/take_the_throne/two_player.toml", "-n", "5000", "-o",
                                        "{out}/robust.html"]),
    ("take_the_throne", "ladder.html", ["ladder", "take_the_throne", "--mode", "core,two_player", "-n", "400", "-o",
                                        "{out}/ladder.html"]),
    ("take_the_throne", "report.html", ["report", "scenarios/take_the_throne/", "-o", "{out}/report.html",
                                        "--skill-readings", "{out}/skill.json"]),
    ("thron_der_luegen", "skill.html", ["report", "--skill", "scenarios/thron_der_luegen/4p.toml", "-n", "400", "-o",
                                        "{out}/skill.html"]),
    ("thron_der_luegen", "readings.html", ["sweep", "scenarios/thron_der_luegen/readings_sweep.toml", "-n", "3000",
                                           "-o", "{out}/readings.html"]),
    ("thron_der_luegen", "decks.html", ["sweep", "scenarios/thron_der_luegen/decks_sweep.toml", "-n", "4000",
                                        "-o", "{out}/decks.html"]),
    ("thron_der_luegen", "restrict_4p.html", ["restrict", "scenarios/thron_der_luegen/4p.toml", "--games", "2000",
                                              "--forced", "-o", "{out}/restrict_4p.html"]),
    ("thron_der_luegen", "robust.html", ["report", "--robust", "scenarios/thron_der_luegen/4p.toml", "-n", "1000",
                                         "-o", "{out}/robust.html"]),
    ("thron_der_luegen", "ladder.html", ["ladder", "thron_der_luegen", "--players", "4", "-n", "200", "-o",
                                         "{out}/ladder.html"]),
    ("thron_der_luegen", "report.html", ["report", "scenarios/thron_der_luegen/", "-o", "{out}/report.html",
                                         "--skill-readings", "{out}/skill.json"]),
    ("throne_arcade", "matrix.json", ["matrix", "throne_arcade", "--policies", "random,greedy,heuristic", "-n",
                                      "4000", "--json", "> {out}/matrix.json"]),
    ("throne_arcade", "matrix_4p.json", ["matrix", "throne_arcade", "--policies", "random,greedy,heuristic",
                                         "--players", "4", "-n", "4000", "--json", "> {out}/matrix_4p.json"]),
    ("throne_arcade", "skill.html", ["report", "--skill", "scenarios/throne_arcade/4p.toml", "-n", "400", "-o",
                                     "{out}/skill.html"]),
    ("throne_arcade", "values.md", ["arcade-values", "-n", "3000", "> {out}/values.md"]),
    ("throne_arcade", "options.html", ["sweep", "scenarios/throne_arcade/options_sweep.toml", "-n", "3000", "-o",
                                       "{out}/options.html"]),
    ("throne_arcade", "restrict_4p.html", ["restrict", "scenarios/throne_arcade/4p.toml", "--games", "4000",
                                           "--forced", "-o", "{out}/restrict_4p.html"]),
    ("throne_arcade", "robust.html", ["report", "--robust", "scenarios/throne_arcade/4p.toml", "-n", "1000", "-o",
                                      "{out}/robust.html"]),
    ("throne_arcade", "ladder.html", ["ladder", "throne_arcade", "--players", "4", "-n", "200", "-o",
                                      "{out}/ladder.html"]),
    ("throne_arcade", "report.html", ["report", "scenarios/throne_arcade/", "-o", "{out}/report.html",
                                      "--skill-readings", "{out}/skill.json", "--matrix",
                                      "{out}/matrix.json", "--matrix", "{out}/matrix_4p.json"]),
    ("dethroned", "check.txt", ["check", "scenarios/dethroned/", "> {out}/check.txt"]),
    ("dethroned", "skill.html", ["report", "--skill", "scenarios/dethroned/dethroned.toml", "-n", "400", "-o",
                                 "{out}/skill.html"]),
    ("dethroned", "sensitivity.html", ["sweep", "scenarios/dethroned/sensitivity.toml", "-n", "3000", "-o",
                                       "{out}/sensitivity.html"]),
    ("dethroned", "restrict.html", ["dethroned-roles", "-n", "4000", "-o", "{out}/restrict.html"]),
    ("dethroned", "robust.html", ["report", "--robust", *(f"scenarios/dethroned/{s}.toml" for s in
                                  ("a_foolish_hunt", "dethroned", "the_royal_family", "in_the_family", "full_house")),
                                  "-n", "4000", "-o", "{out}/robust.html"]),
    # 100 games a cell: with the tree-search rungs 200 a cell took about 100 minutes on 2 cores
    ("dethroned", "ladder.html", ["ladder", "dethroned", "--scenario", "scenarios/dethroned/dethroned.toml", "-n",
                                  "100", "-o", "{out}/ladder.html"]),
    ("dethroned", "report.html", ["report", "scenarios/dethroned/", "-o", "{out}/report.html",
                                  "--skill-readings", "{out}/skill.json"]),
    ("imposter_kings", "matrix.json", ["matrix", "imposter_kings", "--policies", "random,greedy,heuristic", "-n",
                                       "20000", "--json", "> {out}/matrix.json"]),
    ("imposter_kings", "matrix_search.json", ["matrix", "imposter_kings", "--policies", "heuristic,search", "-n",
                                              "400", "--json", "> {out}/matrix_search.json"]),
    ("imposter_kings", "skill.html", ["report", "--skill", "scenarios/imposter_kings/first_player_2p.toml", "-n",
                                      "4000", "-o", "{out}/skill.html"]),
    ("imposter_kings", "restrict_full_2p.html", ["restrict", "scenarios/imposter_kings/true_king_choice_2p.toml",
                                                 "--games", "20000", "--forced", "-o", "{out}/restrict_full_2p.html"]),
    ("imposter_kings", "robust.html", ["report", "--robust", "scenarios/imposter_kings/first_player_2p.toml",
                                       "scenarios/imposter_kings/true_king_choice_2p.toml", "-n", "1000", "-o",
                                       "{out}/robust.html"]),
    ("imposter_kings", "ladder.html", ["ladder", "imposter_kings", "--mode", "full,quickplay", "-n", "400", "-o",
                                       "{out}/ladder.html"]),
    ("imposter_kings", "report.html", ["report", "scenarios/imposter_kings/", "-o", "{out}/report.html",
                                       "--skill-readings", "{out}/skill.json", "--matrix",
                                       "{out}/matrix.json", "--matrix", "{out}/matrix_search.json"]),
]
COUNT_FLAGS = ("-n", "--games")
KEPT = Path("runs") / "reports"  # where the ladders, skill and robustness runs keep their games


def command(args: list[str], out: Path, games: int | None) -> tuple[list[str], Path | None]:
    """The command's arguments for output folder ``out`` (game counts replaced by ``games``, the
    scenarios' own counts too) and the file its standard output goes to, if any."""
    argv, stdout = [], None
    for i, arg in enumerate(args):
        if games is not None and i and args[i - 1] in COUNT_FLAGS:
            arg = str(games)
        arg = arg.replace("{out}", str(out))
        if arg.startswith("> "):
            stdout = Path(arg[2:])
        else:
            argv.append(arg)
    if games is not None and not any(a in COUNT_FLAGS for a in args) and argv[0] in ("report", "check"):
        argv += ["--games", str(games)]
    if argv[0] == "ladder" or (argv[0] == "report" and {"--skill", "--robust"} & set(argv)):
        # the long runs keep their games (an interrupted regeneration resumes); small checks elsewhere
        page = Path(argv[argv.index("-o") + 1]).stem
        argv += ["--out", str(KEPT / out.name / page if games is None else out / f"kept-{page}")]
    return argv, stdout


def game_pages(game: str) -> list[str]:
    """The pages of a game's folder besides its report, in the order they are made."""
    return [name for folder, name, _ in COMMANDS if folder == game and name.endswith(".html") and name != "report.html"]


def main() -> None:
    from typer.main import get_command

    from balance.cli import app
    from balance.report import write_index

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", help="a game folder (repeatable; default: every game)")
    parser.add_argument("--out", type=Path, default=Path("reports"), help="the reports folder (default reports/)")
    parser.add_argument("--file", action="append", help="a report file name, e.g. report.html (repeatable)")
    parser.add_argument("--games", type=int, help="every command's game count (small-scale checks)")
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    opts = parser.parse_args()
    os.chdir(ROOT)  # the commands name scenarios from the repository root
    cli = get_command(app)
    for game, name, args in COMMANDS:
        if (opts.only and game not in opts.only) or (opts.file and name not in opts.file):
            continue
        out = opts.out / game
        argv, stdout = command(args, out, opts.games)
        if name == "report.html":  # the report's Findings end with every other page's finding (made before it)
            argv += [arg for page in game_pages(game) for arg in ("--see", str(out / page))]
        if opts.list:
            print("balance " + " ".join(argv) + (f" > {stdout}" if stdout else ""))
            continue
        out.mkdir(parents=True, exist_ok=True)
        print("balance " + " ".join(argv), file=sys.stderr, flush=True)
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            try:
                cli.main(argv, prog_name="balance", standalone_mode=False)
            except SystemExit as stop:
                if stop.code:
                    raise
        if stdout:
            stdout.write_text(captured.getvalue(), encoding="utf-8")
    if not opts.list:
        print(f"wrote {write_index(opts.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
