"""DETHRONED's restricted-play study, per role (issue 11).

In DETHRONED the player a designer asks about is a role, not a seat: roles are dealt to seats at
random, so `balance restrict`'s restricted policy slot is a player of whatever role it is dealt.
Here, for each role of a setup and each of the Modifiers (Double, Halve), the Redirect and the
Bomb, every player plays the standard policy and the player dealt that role (scenario key
``restrict_role``) is forbidden the card, or made to play it whenever it can (forced). No role
has an ability of its own (../shared/rules/dethroned.md): every deck holds the same 14 cards, so
every role uses these four, and every role of the setup is studied.

The restricted runs play the baseline's deals from the same streams (common random numbers: the
same roles at the same seats, the same decks and first claimer), so a game differs from its
baseline game only from the restricted role's first changed play. Per role and card: the role's
win rate forbidden and forced, importance = baseline - forbidden and gain = forced - baseline,
paired by deal with 95% intervals, and verdicts against a margin Holm-adjusted over every test of
the study (balance.studies.restrict's statistics).

    balance dethroned-roles -n 4000   # reports/dethroned/restrict.{html,md,csv}
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from balance.engine.game import Setup
from balance.engine.runner import write_atomic
from balance.games.dethroned.game import GAME
from balance.games.dethroned.setups import SUGGESTED_SETUPS
from balance.report import IMPORTANCE_NEWS, DOMINANCE_NEWS, importance_figure, open_page, save_page
from balance.stats import HOLDS
from balance.studies.restrict import FORBID, FORCE, MARGIN, paired, points_text, rate, verdict_cell, verdicts

CARDS = ("Double", "Halve", "Redirect", "Bomb")
SETUPS = ("full_house", "town_meeting")  # the 8 roles of each deck: every role of the game once
POLICY = "heuristic"


def table_setup(stem: str, side: str | None = None, card: str | None = None, role: str | None = None) -> Setup:
    """The setup's table, every player on the standard policy; with ``side`` the player dealt
    ``role`` is forbidden (or made to prefer) ``card``."""
    roles = list(SUGGESTED_SETUPS[stem][1])
    restriction = {side: [card]} if side else {}
    extra = {"roles": roles, **({"restrict_role": role} if side else {})}
    return GAME.make_setup("standard", len(roles), [(POLICY, {}, restriction)] * len(roles), rotate=False,
                           extra=extra)


def role_rows(setup: Setup, seed: int, games: int) -> pd.DataFrame:
    """(deal, role, won) of every seat of games 0..games-1 (one game per deal: identical players)."""
    seats = GAME.seat_frame(setup, GAME.frame(setup, GAME.simulate(setup, seed, 0, games)))
    return seats[["deal", "role", "won"]].astype({"won": float})


def by_deal(rows: pd.DataFrame, deals: pd.Index) -> np.ndarray:
    """The role's result in each deal (a role is held by one seat)."""
    return rows.groupby("deal")["won"].mean().reindex(deals).to_numpy()


def named(name: str, values: dict) -> dict:
    return {f"{name}{suffix}": v for suffix, v in values.items()}


def setup_study(stem: str, seed: int, games: int, log=print) -> list[dict]:
    """One row per role and card of setup ``stem``: baseline, forbidden and forced win rates of the
    role, importance and gain paired by deal (untested: ``verdicts`` tests the whole study)."""
    deals = pd.Index(np.arange(games))
    baseline = role_rows(table_setup(stem), seed, games)
    rows = []
    for role in dict.fromkeys(SUGGESTED_SETUPS[stem][1]):
        base_role = baseline[baseline["role"] == role]
        base_deal = by_deal(base_role, deals)
        for card in CARDS:
            row = {"setup": SUGGESTED_SETUPS[stem][0], "role": role, "card": card, "action": f"{role}: {card}",
                   **named("baseline", rate(base_role))}
            for side in (FORBID, FORCE):
                played = role_rows(table_setup(stem, side, card, role), seed, games)
                played = played[played["role"] == role]
                effect = by_deal(played, deals) - base_deal
                if side == FORBID:
                    row.update(named("forbidden", rate(played)), **named("importance", paired(-effect, deals)))
                else:
                    row.update(named("forced", rate(played)), **named("gain", paired(effect, deals)))
            log(f"{row['setup']}: {role}, {card}: forbidden {row['forbidden']:.3f}, forced {row['forced']:.3f}, "
                f"baseline {row['baseline']:.3f}")
            rows.append(row)
    return rows


def study(seed: int, games: int, margin: float = MARGIN, setups=SETUPS, log=print) -> pd.DataFrame:
    rows = [row for stem in setups for row in setup_study(stem, seed, games, log)]
    return verdicts(pd.DataFrame(rows), margin)


def views(table: pd.DataFrame, margin: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The forbidden table (importance) and the forced table (gain), readable."""
    lose, gain = questions(margin)
    records = table.to_dict("records")
    return (_view(records, "forbidden", "importance", lose, "important"),
            _view(records, "forced", "gain", gain, "dominant"))


def _view(records: list[dict], played: str, effect: str, question: str, verdict: str) -> pd.DataFrame:
    """One table: the baseline and the ``played`` win rate, their difference ``effect``, and the
    ``verdict`` on ``question``, a row per role and card."""
    def cell(r, name, signed):
        return points_text(r[name], r[f"{name}_low"], r[f"{name}_high"], signed)
    return pd.DataFrame([{
        "role": r["role"], "card": r["card"],
        "baseline %": cell(r, "baseline", False), f"{played} %": cell(r, played, False),
        effect: cell(r, effect, True), question: verdict_cell(r[verdict], r[f"p_{verdict}"]),
    } for r in records])


def questions(margin: float) -> tuple[str, str]:
    return f"costs > {margin * 100:g} pts", f"forced gains > {margin * 100:g} pts"


def findings(table: pd.DataFrame, margin: float) -> str:
    lose, gain = questions(margin)
    parts = []
    for column, question in (("important", lose), ("dominant", gain)):
        held = table.loc[table[column] == HOLDS]
        names = [f"{r.role}'s {r.card} ({r.setup})" for r in held.itertuples()]
        parts.append(f"{column} ({question} holds): {', '.join(names) if names else 'none shown'}")
    return "; ".join(parts)


def write(table: pd.DataFrame, seed: int, games: int, margin: float, output: Path) -> tuple[Path, Path]:
    """The study as an HTML page (charts inline), its Markdown copy (charts in output_files/) and
    the table of estimates as CSV."""
    output.parent.mkdir(parents=True, exist_ok=True)
    title = "DETHRONED: restricted play per role"
    page = open_page(output, title, title)
    tests = int(table["important"].notna().sum() + table["dominant"].notna().sum())
    page.text(f"Every player plays the {POLICY} policy; the player dealt the role is forbidden the card, or made to "
              f"play it whenever it can (forced), and its win rate is compared with the same role's in the "
              f"unrestricted games of the same deals: {games:,} games (deals) per run, seed {seed}, default "
              f"rule options. Win rates in %, differences in points with 95% intervals paired by deal; verdicts "
              f"against a margin of {margin * 100:g} points, Holm-adjusted over the study's {tests} tests.")
    found = findings(table, margin)
    page.finding = f"Restricted play per role: {found}"
    page.findings([{"where": "Restricted play per role", "text": found, "verdict": "", "detail": "", "anchor": ""}])
    lose, gain = questions(margin)
    page.text(f"No DETHRONED role has an ability of its own: every deck holds the same Double, Halve, Redirect and "
              f"Bomb, so every role of the setups is studied (Full House: the 8 roles of Traitors and Kings; Town "
              f"Meeting: the 8 of Guards and Thieves). A forbidden card is still played when the rules leave "
              f"nothing else (never here: passing is always legal); a forced one is played at every reaction "
              f"where it is legal, where the heuristic would play it, else at random. \"{lose}\" and \"{gain}\" "
              f"hold when the one-sided bound passes the margin, fail when the other bound stays below it, else "
              f"undecided. Made by balance dethroned-roles.", css="note")
    for name in dict.fromkeys(table["setup"]):
        part = table[table["setup"] == name].reset_index(drop=True)
        page.heading(3, name)
        stem = name.lower().replace(" ", "_")
        page.image(f"{output.stem}_{stem}.png", importance_figure(SimpleNamespace(table=part, margin=margin)),
                   f"{name}: importance and gain per role and card",
                   "Bars: the estimate, whiskers: its 95% interval (paired by deal), dashed: the margin; colour: "
                   "the verdict.")
        forbidden, forced = views(part, margin)
        page.text(f"{name}: each role forbidden the card.")
        page.table(forbidden, verdict_col=lose, text_cols=("role", "card"), news=IMPORTANCE_NEWS)
        page.text(f"{name}: each role made to play the card whenever it can.")
        page.table(forced, verdict_col=gain, text_cols=("role", "card"), news=DOMINANCE_NEWS)
    write_atomic(output.with_suffix(".csv"), table.to_csv(index=False, float_format="%.6g").encode())
    return save_page(page, output)

