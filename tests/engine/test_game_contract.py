"""The engine's contract, checked on every registered game: results depend on the seed only
(not on threads, batch size or where a run resumed), and every game can be replayed."""

import numba
import numpy as np
import pytest

from balance.engine.runner import study_identity, study_key
from balance.games import game_names, get_game

SETUPS = [(name, label, setup) for name in game_names() for label, setup in get_game(name).bench_setups()[:2]]


@pytest.mark.parametrize("name, label, setup", SETUPS, ids=[f"{n}: {lab}" for n, lab, _ in SETUPS])
def test_same_rows_whatever_threads_batches_and_resume_point(name, label, setup):
    game = get_game(name)
    count = 6 * setup.rotations
    numba.set_num_threads(1)
    try:
        one = game.simulate(setup, 11, 0, count)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    whole = game.simulate(setup, 11, 0, count)
    cut = 2 * setup.rotations
    split = np.concatenate([game.simulate(setup, 11, 0, cut), game.simulate(setup, 11, cut, count - cut)])
    assert np.array_equal(one, whole) and np.array_equal(whole, split)
    assert not np.array_equal(whole, game.simulate(setup, 12, 0, count))


@pytest.mark.parametrize("name, label, setup", SETUPS[::2], ids=[f"{n}: {lab}" for n, lab, _ in SETUPS[::2]])
def test_every_game_replays_as_a_transcript(name, label, setup):
    lines = get_game(name).transcript(setup, 11, 1)
    assert lines and all(isinstance(line, str) for line in lines)


@pytest.mark.parametrize("name", game_names())
def test_every_seat_table_names_its_seats_policies_and_winners(name):
    # the engine's matrix, ladder and restricted play read these columns of every game
    game = get_game(name)
    _, setup = game.bench_setups()[0]
    games = game.frame(setup, game.simulate(setup, 11, 0, 4 * setup.rotations))
    seats = game.seat_frame(setup, games)
    assert {"game", "deal", "rotation", "seat", "policy", "won"} <= set(seats.columns)
    assert seats["won"].isin([0, 1]).all() and seats["won"].sum() > 0


@pytest.mark.parametrize("name", game_names())
def test_every_games_setup_keys_a_study_folder(name):
    # balance run and sweep key a study folder by the setup's identity (JSON, hashed): plain values only
    game = get_game(name)
    key = study_key(study_identity(game.bench_setups()[0][1]), 11, 100)["key"]
    assert study_key(study_identity(game.bench_setups()[0][1]), 11, 100)["key"] == key
    assert study_key(study_identity(game.bench_setups()[1][1]), 11, 100)["key"] != key


CAP_SHARE = 0.001  # every policy ends at least 99.9% of its games before the length cap
ENDING_GAMES = 2000
SEARCH_GAMES = 40  # the searches are thousands of times slower: a handful of games, one setup per game
SEARCHES = ("search", "ismcts-64")  # the flat search and the tree search at its smallest rung


def searching(policy: str) -> bool:
    return policy == "search" or policy.startswith("ismcts")


def ending_setups():
    for name in game_names():
        game = get_game(name)
        for mode, declared in game.modes.items():
            for policy in game.policies:
                if not searching(policy.name):
                    yield name, mode, max(declared.players), policy.name, ENDING_GAMES
        mode, declared = next(iter(game.modes.items()))
        for search in SEARCHES:
            if any(p.name == search for p in game.policies):
                yield name, mode, min(declared.players), search, SEARCH_GAMES


@pytest.mark.parametrize("name, mode, players, policy, games", list(ending_setups()),
                         ids=[f"{n}-{m}-{p}p-{pol}" for n, m, p, pol, _ in ending_setups()])
def test_every_policy_ends_its_games_before_the_cap(name, mode, players, policy, games):
    """A capped game is the cap's, not the game's: a policy that cycles (a heuristic laying the same
    cards back and forth) must not decide a finding. Matches count once, capped if any round was."""
    from balance.engine.runner import simulate

    game = get_game(name)
    setup = game.make_setup(mode, players, policy, extra=game.default_extra(mode, players))
    column = game.quantity(game.cap_quantity, "cap_quantity").column
    rows = simulate(setup, 20261203, games).games
    capped = int(rows.groupby("game")[column].max().sum())
    assert capped <= CAP_SHARE * games, f"{capped} of {games} games reach the cap"
