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

``Ladder.goal`` reads the goal the searches are held to (issue 28): the top search rung at least
GOAL_ELO above the best hand-written rung with the intervals apart, each larger tree-search budget
rated at least as high as the one before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize
from scipy.special import expit

from balance.engine.game import Game, SetupError
from balance.engine.runner import SEARCH_CHUNK, Results, Tracker, kept_games, play_parts, round_to_deals
from balance.engine.scenario import Scenario, ScenarioError, parse_scenario, read_scenario_data
from balance.stats import LEVEL, WIN_RATE, estimate, game_word, plural

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


def matrix_cell(data: dict, scenario: Path | None, row: str, column: str,
                policies_flag: str = "--policies") -> Scenario:
    """One cell, as a scenario of no claims: the row policy in slot 0, the column policy in every
    other seat."""
    players = data["players"] if isinstance(data["players"], int) else 1
    try:
        cell = parse_scenario({**data, "seats": [row] + [column] * (players - 1)}, scenario)
        cell.path = None  # the cell is its table (a kept cell's folder copies it), not the file it extends
        return cell
    except ScenarioError as err:
        if scenario is not None:
            raise
        flag = FLAGS.get(err.key, policies_flag if err.key.startswith("seats") else err.key)
        raise SetupError(flag, err.message) from None


def matrix_cells(data: dict, scenario: Path | None, names: list[str], diagonal: bool = True,
                 policies_flag: str = "--policies") -> dict[tuple[str, str], Scenario]:
    """Every (row, column) cell, validated before anything plays (without the diagonal: a policy
    against itself says nothing about strength)."""
    return {(a, b): matrix_cell(data, scenario, a, b, policies_flag) for a in names for b in names
            if diagonal or a != b}


def cell_games(cells: dict[tuple[str, str], Scenario], games: int) -> int:
    """Games per cell: whole deals in every cell."""
    return round_to_deals(games, max(c.setup.rotations for c in cells.values()))


def cell_folder(keep: Path | None, key: tuple[str, str], cell: Scenario) -> Path | None:
    """Where cell (row, column) of a matrix or ladder is kept: one study folder a cell, under the
    mode and player count (``keep``/full-2p/heuristic--ismcts-64); None: played in memory."""
    return keep / f"{cell.setup.mode}-{cell.setup.players}p" / f"{key[0]}--{key[1]}" if keep else None


def kept_cells(cells: dict[tuple[str, str], Scenario], games: int, seed: int, keep: Path | None,
               chunk: int = SEARCH_CHUNK) -> int:
    """Games of the cells (``games`` each) that their folders under ``keep`` already hold; a folder
    that holds another study is refused before anything plays (``runner.kept_games``)."""
    return sum(kept_games(cell_folder(keep, key, cell), cell.setup, seed, games, chunk) for key, cell in cells.items())


def play_cells(cells: dict[tuple[str, str], Scenario], games: int, seed: int, tracker: Tracker,
               keep: Path | None = None, chunk: int = SEARCH_CHUNK) -> dict[tuple[str, str], Results]:
    """Games [0, games) of every cell, with the same seed (the same deals); with ``keep``, each cell
    in its study folder there (``cell_folder``; ``runner.play_parts``: every cell's first chunk first)."""
    parts = [(cell, cell_folder(keep, key, cell), games) for key, cell in cells.items()]
    return dict(zip(cells, play_parts(parts, seed, tracker, chunk)))


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


def bootstrap_ratings(per_deal: np.ndarray, replicates: int = BOOTSTRAP_REPLICATES,
                      seed: int = BOOTSTRAP_SEED) -> np.ndarray:
    """The ratings (Elo points) refitted on ``replicates`` resamples of the deals, the same resampled
    deals in every cell: shape (replicates, rungs). A rating's interval, and the interval of a
    difference between two rungs (paired: both from the same resample), are their percentiles."""
    deals, k = len(per_deal), per_deal.shape[1]
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, deals, deals), minlength=deals) for _ in range(replicates)])
    totals = (weights @ per_deal.reshape(deals, -1)).reshape(replicates, k, k)
    return fit_bradley_terry(totals) * ELO


def percentile_interval(replicates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 95% percentile interval of bootstrap replicates (along the first axis)."""
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(replicates, [tail, 100 - tail], axis=0)
    return low, high


def ratings(per_deal: np.ndarray, names: list[str], boot: np.ndarray | None = None) -> pd.DataFrame:
    """Each rung's Bradley-Terry rating in Elo points (the first rung at 0) with its 95% interval
    from a bootstrap over deals (``boot``: bootstrap_ratings, computed here when not given)."""
    rating = fit_bradley_terry(per_deal.sum(0)) * ELO
    low, high = percentile_interval(bootstrap_ratings(per_deal) if boot is None else boot)
    won, lost = per_deal.sum((0, 2)), per_deal.sum((0, 1))
    return pd.DataFrame({"rung": names, "rating": rating, "low": low, "high": high,
                         "comparisons_won": won, "comparisons_lost": lost})


# ---- the goal: searches that climb above the hand-written players (issue 28) ------------------------
GOAL_ELO = 100  # the top search rung at least this many Elo points above the best hand-written rung


def is_search(rung: str) -> bool:
    """A search rung (the flat "search", the tree search "ismcts" and its budgets "ismcts-1024");
    every other rung (random, greedy, hasty, heuristic...) is a hand-written policy."""
    return rung == "search" or rung.startswith("ismcts")


def search_budget(rung: str) -> int | None:
    """The iterations of a tree-search budget rung ("ismcts-256": 256), else None."""
    budget = re.fullmatch(r"ismcts-(\d+)", rung)
    return int(budget.group(1)) if budget else None


def _rating(value: float) -> str:
    return f"{round(value):+d}"  # an int: no "-0"


@dataclass(frozen=True)
class Gap:
    """One rung's rating minus another's in Elo points, with its 95% interval (paired bootstrap)."""

    rung: str
    other: str
    difference: float
    low: float
    high: float

    def text(self) -> str:
        """"+120 Elo [+95, +146] above heuristic", or "+15 Elo [-10, +40] below ismcts-256"."""
        if self.difference >= 0:
            return f"{_rating(self.difference)} Elo [{_rating(self.low)}, {_rating(self.high)}] above {self.other}"
        return f"{_rating(-self.difference)} Elo [{_rating(-self.high)}, {_rating(-self.low)}] below {self.other}"


@dataclass(frozen=True)
class Goal:
    """Issue 28's goal on one ladder: the top search rung beats the best hand-written rung by at
    least GOAL_ELO with the two ratings' 95% intervals apart; and each larger tree-search budget
    rates at least as high as the one before, or the ladder says where strength saturates."""

    top: Gap  # the top search rung against the best hand-written rung
    apart: bool  # their ratings' 95% intervals do not overlap
    budgets: list[str]  # the tree-search budget rungs, smallest first
    saturation: Gap | None  # the first budget rated below the one before it (None: none is)

    @property
    def met(self) -> bool:
        return self.top.difference >= GOAL_ELO and self.apart

    @property
    def verdict(self) -> str:
        return "met" if self.met else "not met"

    @property
    def shortfall(self) -> str:
        """Why the goal is not met ("" where it is)."""
        reasons = ([f"{_rating(self.top.difference)} Elo is short of +{GOAL_ELO}"] if self.top.difference < GOAL_ELO
                   else []) + ([] if self.apart else ["the two ratings' intervals overlap"])
        return " and ".join(reasons)

    def text(self) -> str:
        """The finding in plain words, ending where its verdict (met, not met) follows."""
        words = f"{self.top.rung} rates {self.top.text()}, the best hand-written rung"
        if self.saturation is not None:
            words += (f"; strength saturates at {self.saturation.other} ({self.saturation.rung} rates "
                      f"{self.saturation.text()})")
        elif len(self.budgets) > 1:
            words += f", and each larger budget rates at least as high ({', '.join(self.budgets)})"
        return f"{words}; the goal of at least +{GOAL_ELO} Elo with the intervals apart:"

    def line(self) -> str:
        """The text, its verdict and, where the goal is not met, why."""
        return f"{self.text()} {self.verdict}" + (f" ({self.shortfall})" if self.shortfall else "")

    def json(self) -> dict:
        return {"top": self.top.rung, "best_hand_written": self.top.other, "difference": self.top.difference,
                "low": self.top.low, "high": self.top.high, "intervals_apart": self.apart, "met": self.met,
                "budgets": self.budgets, "saturates_at": self.saturation.other if self.saturation else None}


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
    replicates: np.ndarray  # the ratings' bootstrap replicates (bootstrap_ratings): intervals of differences
    facts: dict  # the setup's game-specific tables (e.g. DETHRONED's roles)
    average: float  # the average seat's win rate over the cells (1 / players with one winner a game)
    game_word: str  # what one simulated game is called (stats.game_word: "match" when result rows are rounds)

    @property
    def setup_text(self) -> str:
        """The mode, the players and the game's own setup tables: "mode full, 2 players"."""
        facts = "".join(f", {k} {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in self.facts.items())
        return f"mode {self.mode}, {self.players} players{facts}"

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

    def rating(self, rung: str) -> pd.Series:
        """A rung's rating with its 95% interval (rating, low, high)."""
        return self.ratings.set_index("rung").loc[rung, ["rating", "low", "high"]]

    def rating_text(self, rung: str) -> str:
        """A rung's rating with its interval: "+520 [+495, +546]"."""
        r = self.rating(rung)
        return f"{_rating(r['rating'])} [{_rating(r['low'])}, {_rating(r['high'])}]"

    def gap(self, rung: str, other: str) -> Gap:
        """``rung``'s rating minus ``other``'s, with the 95% interval of the difference (both from the
        same bootstrap resamples)."""
        i, j = self.rungs.index(rung), self.rungs.index(other)
        low, high = percentile_interval(self.replicates[:, i] - self.replicates[:, j])
        return Gap(rung, other, float(self.rating(rung)["rating"] - self.rating(other)["rating"]), float(low),
                   float(high))

    def goal(self) -> Goal | None:
        """Issue 28's goal read on this ladder (Goal), or None without both a search rung and a
        hand-written one. The top rung is the ladder's last search rung; the best hand-written
        rung the best rated of the others, random only when it is the only one."""
        searches = [r for r in self.rungs if is_search(r)]
        written = [r for r in self.rungs if not is_search(r)]
        if not searches or not written:
            return None
        best = max([r for r in written if r != "random"] or written, key=lambda r: self.rating(r)["rating"])
        top = searches[-1]
        apart = bool(self.rating(top)["low"] > self.rating(best)["high"])
        budgets = sorted((r for r in searches if search_budget(r) is not None), key=search_budget)
        steps = (self.gap(larger, smaller) for smaller, larger in zip(budgets, budgets[1:]))
        saturation = next((step for step in steps if step.difference < 0), None)
        return Goal(self.gap(top, best), apart, budgets, saturation)


def ladder_cells(g: Game, rungs: list[str], mode: str | None, players: int | None,
                 scenario: Path | None) -> dict[tuple[str, str], Scenario]:
    """The off-diagonal cells of one mode's ladder, validated."""
    return matrix_cells(matrix_base(g, scenario, mode, players), scenario, rungs, diagonal=False,
                        policies_flag="--rungs")


def play_ladder(cells: dict[tuple[str, str], Scenario], rungs: list[str], games: int, seed: int,
                tracker: Tracker, keep: Path | None = None, chunk: int = SEARCH_CHUNK) -> Ladder:
    """Play the cells (``games`` each, whole deals; with ``keep``, each kept in its study folder
    there: ``play_cells``) and fit the ratings."""
    results = play_cells(cells, games, seed, tracker, keep, chunk)
    setup = next(iter(cells.values())).setup
    per_deal = pairwise_counts(results, rungs)
    boot = bootstrap_ratings(per_deal)
    seats = [res.seats["won"] for res in results.values()]
    average = sum(float(s.sum()) for s in seats) / sum(len(s) for s in seats)
    return Ladder(setup.game, setup.mode, setup.players, rungs, games, seed, len(per_deal), win_rates(results),
                  ratings(per_deal, rungs, boot), boot, setup.extra_description(), average, game_word(setup))


def ladder_text(ladder: Ladder) -> str:
    g = ladder.game
    lines = [f"{g.title}, {ladder.setup_text}: ladder {' < '.join(ladder.rungs)}, "
             f"{ladder.games:,} {plural(ladder.game_word)} a cell ({ladder.deals:,} deals, rotated seats), "
             f"seed {ladder.seed}",
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
    goal = ladder.goal()
    if goal is not None:
        lines.append(f"search goal ({ladder.mode}, {ladder.players} players): {goal.line()}")
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
            f"wins {WIN_RATE.measured(skill['win_rate'], skill['low'], skill['high'])} against {skill['against']} "
            f"(the average seat wins {WIN_RATE.measured(skill['average_seat'])})")


def ladder_json(ladder: Ladder) -> dict:
    goal = ladder.goal()
    return {"game": ladder.game.name, "mode": ladder.mode, "players": ladder.players, "rungs": ladder.rungs,
            "games": ladder.games, "deals": ladder.deals, "seed": ladder.seed, "setup": ladder.facts,
            "rating_interval": f"95% percentile, bootstrap over deals, {BOOTSTRAP_REPLICATES} replicates",
            "matrix": ladder.matrix, "ratings": ladder.ratings, "skill": ladder.skill(),
            "goal": None if goal is None else goal.json()}
