"""Policy matrices and the skill ladder: policies against each other with rotated seats.

``balance matrix`` and ``balance ladder`` share the cells: the row policy in seat slot 0, the
column policy in every other seat, each deal replayed under every seat rotation (common random
numbers: every cell plays the same deals, from the same seed).

The ladder (``Game.ladder``, weakest rung first) adds a Bradley-Terry rating per rung. Its data
are pairwise win counts: in a game (a round, for match games) of cell (a, b), the slot-0 player a
beats each b seat that did not win when a won, and each b seat that won beats a when a did not
(games without a winner, and b seats among themselves, compare nothing). With one winner per game
this is the Luce choice model P(a wins) = s_a / (s_a + (n - 1) s_b) read pairwise; with two
players it is the plain Bradley-Terry model. The log-strengths are fitted by maximum likelihood
(scipy.optimize, the first rung fixed at 0) and shown in Elo points (400 log10 of the strength
ratio). A game's comparisons share its outcome and a deal's rotations share its cards, so the
intervals come from a bootstrap over deals (matches), resampling the same deals in every cell
(they are common to all cells): 95% percentile intervals of the refitted ratings.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize
from scipy.special import expit

from balance.engine.game import Game, Setup, SetupError
from balance.engine.runner import Results, Tracker, play_range, round_to_deals
from balance.engine.scenario import ScenarioError, parse_scenario, read_scenario_data
from balance.stats import LEVEL, estimate

FLAGS = {"mode": "--mode", "players": "--players"}  # scenario keys the matrix's flags set
ELO = 400 / np.log(10)  # Elo points per unit of log-strength
BOOTSTRAP_REPLICATES = 999
BOOTSTRAP_SEED = 20261201  # a fixed stream: the same games always give the same intervals
MAX_LOG_STRENGTH = 30.0  # bounds the fit when a rung never loses (the likelihood has no maximum)


# ---- the cells --------------------------------------------------------------------------------
def matrix_base(g: Game, scenario: Path | None, mode: str | None, players: int | None) -> dict:
    """The scenario table every cell of a matrix shares (its seats set per cell)."""
    if scenario is not None:
        data = read_scenario_data(scenario)
        if data.get("game") != g.name:
            raise SetupError("--scenario", f"{scenario} is a scenario of {data.get('game')!r}, not of {g.name}")
        data.update({k: v for k, v in (("mode", mode), ("players", players)) if v is not None})
    else:
        mode = mode or next(iter(g.modes))
        if mode not in g.modes:
            raise SetupError("--mode", f"unknown mode '{mode}' of {g.name} (known: {', '.join(g.modes)})")
        players = players or g.modes[mode].players[0]
        data = {"game": g.name, "mode": mode, "players": players, **g.default_extra(mode, players)}
    data.update(rotate=True, claims=[])
    data.pop("precision", None)
    data.pop("robustness", None)
    return data


def matrix_setup(data: dict, scenario: Path | None, row: str, column: str, policies_flag: str = "--policies") -> Setup:
    """The setup of one cell: the row policy in slot 0, the column policy in every other seat."""
    players = data["players"] if isinstance(data["players"], int) else 1
    try:
        return parse_scenario({**data, "seats": [row] + [column] * (players - 1)}, scenario).setup
    except ScenarioError as err:
        if scenario is not None:
            raise
        flag = FLAGS.get(err.key, policies_flag if err.key.startswith("seats") else err.key)
        raise SetupError(flag, err.message) from None


def cell_setups(data: dict, scenario: Path | None, names: list[str], diagonal: bool = True,
                policies_flag: str = "--policies") -> dict[tuple[str, str], Setup]:
    """Every (row, column) cell's setup, validated before anything plays (without the diagonal:
    a policy against itself says nothing about strength)."""
    return {(a, b): matrix_setup(data, scenario, a, b, policies_flag) for a in names for b in names
            if diagonal or a != b}


def cell_games(cells: dict[tuple[str, str], Setup], games: int) -> int:
    """Games per cell: whole deals in every cell."""
    return round_to_deals(games, max(s.rotations for s in cells.values()))


def play_cells(cells: dict[tuple[str, str], Setup], games: int, seed: int,
               tracker: Tracker) -> dict[tuple[str, str], Results]:
    """Games [0, games) of every cell, with the same seed (the same deals)."""
    return {key: Results(cell, seed, play_range(cell, seed, 0, games, tracker)) for key, cell in cells.items()}


def _slot(seats: pd.DataFrame, players: int) -> pd.Series:
    """The policy slot of each seat row: slot p sits at seat (p + rotation) % players."""
    return (seats["seat"] - seats["rotation"]) % players


def win_rates(results: dict[tuple[str, str], Results]) -> pd.DataFrame:
    """The row policy's win rate (slot 0) in every cell, with its 95% interval (deal-clustered)."""
    rows = []
    for (a, b), res in results.items():
        cell = res.setup
        seats = res.seats
        est = estimate("rate", seats[_slot(seats, cell.players) == 0], "won")
        rows.append({"game": cell.game.name, "mode": cell.mode, "players": cell.players, "row": a, "column": b,
                     "win_rate": est.estimate, "low": est.low, "high": est.high, "games": res.n_games})
    return pd.DataFrame(rows)


# ---- Bradley-Terry ----------------------------------------------------------------------------
def pairwise_counts(results: dict[tuple[str, str], Results], names: list[str]) -> np.ndarray:
    """Per-deal pairwise win counts, shape (deals, rungs, rungs): [d, i, j] = comparisons rung i
    won against rung j in deal d (see the module's docstring)."""
    deals = 1 + max(int(res.games["deal"].max()) for res in results.values())
    counts = np.zeros((deals, len(names), len(names)))
    for (a, b), res in results.items():
        if a == b:
            continue
        seats = res.seats
        key = ["game", "row"] if "row" in seats.columns else ["game"]
        slot = _slot(seats, res.setup.players)
        first = seats.loc[slot == 0, key + ["won"]].rename(columns={"won": "first_won"})
        others = seats.loc[slot != 0, key + ["deal", "won"]].merge(first, on=key)
        deal = others["deal"].to_numpy()
        won, first_won = others["won"].to_numpy(float), others["first_won"].to_numpy(float)
        i, j = names.index(a), names.index(b)
        counts[:, i, j] += np.bincount(deal, weights=first_won * (1 - won), minlength=deals)
        counts[:, j, i] += np.bincount(deal, weights=won * (1 - first_won), minlength=deals)
    return counts


def fit_bradley_terry(wins: np.ndarray) -> np.ndarray:
    """Maximum-likelihood log-strengths of P(i beats j) = expit(t_i - t_j) from the win counts
    ``wins[..., i, j]``, the first rung fixed at 0. Several count matrices (bootstrap replicates,
    leading axes) are fitted in one call: their likelihoods are separate, so the sum is minimised
    (scipy.optimize, L-BFGS-B with the exact gradient; scaled to one comparison)."""
    wins = np.asarray(wins, float)
    shape, k = wins.shape[:-2], wins.shape[-1]
    wins = wins.reshape(-1, k, k)
    scale = max(wins.sum(), 1.0)

    def loss(free):
        theta = np.concatenate([np.zeros((len(wins), 1)), free.reshape(len(wins), k - 1)], axis=1)
        diff = theta[:, :, None] - theta[:, None, :]
        nll = (wins * np.logaddexp(0.0, -diff)).sum() / scale
        slack = wins * expit(-diff)  # w_ij (1 - P(i beats j))
        return nll, -(slack.sum(2) - slack.sum(1))[:, 1:].ravel() / scale

    free = np.zeros(len(wins) * (k - 1))
    if k > 1:
        free = optimize.minimize(loss, free, jac=True, method="L-BFGS-B",
                                 bounds=[(-MAX_LOG_STRENGTH, MAX_LOG_STRENGTH)] * len(free),
                                 options={"maxiter": 10_000, "ftol": 1e-15, "gtol": 1e-10}).x
    theta = np.concatenate([np.zeros((len(wins), 1)), free.reshape(len(wins), k - 1)], axis=1)
    return theta.reshape(*shape, k)


def ratings(per_deal: np.ndarray, names: list[str], replicates: int = BOOTSTRAP_REPLICATES,
            seed: int = BOOTSTRAP_SEED) -> pd.DataFrame:
    """Each rung's Bradley-Terry rating in Elo points (the first rung at 0) with its 95% interval
    from a bootstrap over deals (the same resampled deals in every cell)."""
    deals = len(per_deal)
    rating = fit_bradley_terry(per_deal.sum(0)) * ELO
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, deals, deals), minlength=deals) for _ in range(replicates)])
    totals = (weights @ per_deal.reshape(deals, -1)).reshape(replicates, len(names), len(names))
    boot = fit_bradley_terry(totals) * ELO
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    won, lost = per_deal.sum((0, 2)), per_deal.sum((0, 1))
    return pd.DataFrame({"rung": names, "rating": rating, "low": low, "high": high,
                         "comparisons_won": won, "comparisons_lost": lost})


# ---- the ladder -------------------------------------------------------------------------------
@dataclass
class Ladder:
    """Every rung against every other in one mode: win rates, ratings, how much skill matters."""

    game: Game
    mode: str
    players: int
    rungs: list[str]
    games: int  # per cell
    seed: int
    deals: int  # per cell
    matrix: pd.DataFrame
    ratings: pd.DataFrame
    facts: dict  # the setup's game-specific tables (e.g. DETHRONED's roles)
    average: float  # the average seat's win rate over the cells (1 / players with one winner a game)
    game_word: str  # what one simulated game is called ("match" when result rows are rounds)

    def skill(self) -> dict:
        """How much skill matters: the best-rated rung's win rate against the first rung."""
        best = self.ratings.loc[self.ratings["rating"].idxmax(), "rung"]
        base = self.rungs[0]
        out = {"mode": self.mode, "players": self.players, "best": best, "against": base,
               "average_seat": self.average}
        cell = self.matrix[(self.matrix["row"] == best) & (self.matrix["column"] == base)]
        if len(cell):
            r = cell.iloc[0]
            out.update(win_rate=r["win_rate"], low=r["low"], high=r["high"])
        return out


def ladder_cells(g: Game, rungs: list[str], mode: str | None, players: int | None,
                 scenario: Path | None) -> dict[tuple[str, str], Setup]:
    """The off-diagonal cells of one mode's ladder, validated."""
    return cell_setups(matrix_base(g, scenario, mode, players), scenario, rungs, diagonal=False,
                       policies_flag="--rungs")


def play_ladder(cells: dict[tuple[str, str], Setup], rungs: list[str], games: int, seed: int,
                tracker: Tracker) -> Ladder:
    """Play the cells (``games`` each, whole deals) and fit the ratings."""
    results = play_cells(cells, games, seed, tracker)
    setup = next(iter(cells.values()))
    per_deal = pairwise_counts(results, rungs)
    seats = [res.seats["won"] for res in results.values()]
    average = sum(float(s.sum()) for s in seats) / sum(len(s) for s in seats)
    return Ladder(setup.game, setup.mode, setup.players, rungs, games, seed, len(per_deal), win_rates(results),
                  ratings(per_deal, rungs), setup.extra_description(), average,
                  setup.game.report_view(setup).match_word or "game")


def _rating(value: float) -> str:
    return f"{round(value):+d}"  # an int: no "-0"


def ladder_text(ladder: Ladder) -> str:
    g = ladder.game
    word = ladder.game_word + ("es" if ladder.game_word.endswith("ch") else "s")
    facts = "".join(f", {k} {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in ladder.facts.items())
    lines = [f"{g.title}, mode {ladder.mode}, {ladder.players} players{facts}: ladder {' < '.join(ladder.rungs)}, "
             f"{ladder.games:,} {word} a cell ({ladder.deals:,} deals, rotated seats), seed {ladder.seed}",
             f"win rate{' per round' if g.unit == 'round' else ''} of the row rung (one seat) against the column "
             f"rung (every other seat), 95% interval; the average seat wins {ladder.average:.3g}"]
    width = max(12, *(len(r) for r in ladder.rungs))
    lines.append(" " * width + "".join(f"{b:>26}" for b in ladder.rungs))
    cells = {(r.row, r.column): r for r in ladder.matrix.itertuples()}
    for a in ladder.rungs:
        lines.append(f"{a:<{width}}" + "".join(
            (f"{cells[a, b].win_rate:>8.3f} [{cells[a, b].low:.3f},{cells[a, b].high:.3f}]" if (a, b) in cells
             else "-").rjust(26) for b in ladder.rungs))
    lines.append(f"Bradley-Terry ratings, Elo points ({ladder.rungs[0]} = 0); 95% intervals from a bootstrap over "
                 f"deals ({BOOTSTRAP_REPLICATES} replicates):")
    for r in ladder.ratings.sort_values("rating", ascending=False).itertuples():
        lines.append(f"  {r.rung:<{width}} {_rating(r.rating):>6} [{_rating(r.low)}, {_rating(r.high)}]")
    lines.append(skill_text(ladder.skill()))
    return "\n".join(lines)


def average_seat_note(average: float, players: int, word: str) -> str:
    """What the average seat's win rate says: 1 / players with one winner a game (or round, ``word``);
    above it where a game can have several winners, below where it can have none."""
    fair = 1 / players
    if abs(average - fair) < 5e-4:
        return f"1 / {players}: one winner a {word}"
    return f"not 1 / {players}: a {word} can have {'several winners' if average > fair else 'no winner'}"


def skill_text(skill: dict) -> str:
    if skill["best"] == skill["against"]:
        return f"how much skill matters ({skill['mode']}): no rung is rated above {skill['against']}"
    return (f"how much skill matters ({skill['mode']}, {skill['players']} players): {skill['best']} (the best rung) "
            f"wins {skill['win_rate']:.3f} [{skill['low']:.3f}, {skill['high']:.3f}] against {skill['against']} "
            f"(the average seat wins {skill['average_seat']:.3g})")


def ladder_json(ladder: Ladder) -> dict:
    return {"game": ladder.game.name, "mode": ladder.mode, "players": ladder.players, "rungs": ladder.rungs,
            "games": ladder.games, "deals": ladder.deals, "seed": ladder.seed, "setup": ladder.facts,
            "rating_interval": f"95% percentile, bootstrap over deals, {BOOTSTRAP_REPLICATES} replicates",
            "matrix": ladder.matrix, "ratings": ladder.ratings, "skill": ladder.skill()}
