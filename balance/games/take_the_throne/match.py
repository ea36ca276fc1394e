"""Take the Throne: the game loop and the batch entry point, one result row per game.

A game is the rules' step kernel (rules.py) played through the engine's one loop
(balance.engine.step.play): the rules pose each decision, the seat's policy (policies.py) or the
search answers it. This module sits above both, so the rules never import a policy.

Game index g: ``deal, rotation = divmod(g, rotations)``; the game's cards and the policies' ties
come from one counter-based stream of (seed, deal).
"""

import numpy as np
from numba import prange

from balance.engine.decision import N_KINDS_MAX, RESTRICT_SIDES
from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import (
    allocating_kernel, any_restriction, kernel, seat_policies, seat_restrictions, split_game_index,
)
from balance.engine.rng import open_stream
from balance.engine.step import decide, play
from balance.games.take_the_throne.layout import (
    AMBUSHES, CHARGE_CLASHES, ENTRAP_FLIPS, MAX_PLAYERS, N_CARDS, NOBODY, OPT_PLAYERS, PLAYERS, PLAYS, REIGNS,
    RETENTIONS, ROUND, STATE_SIZE, TAKES, TRACE_FIELDS, VP, WINNER,
)
from balance.games.take_the_throne.policies import new_search_buffers, new_work_buffer, policy, search_at
from balance.games.take_the_throne.rules import advance, apply_answer, deal, over, pose_pending

BLOCK = 256  # games per parallel work item at most (kernels.games_per_block; scratch is reused within a block)


# ---- the engine's loop and decide, with this game's rules and policies -------------------------
@kernel
def play_on(state, opts, codes, params, restrict, rng, trace, mind):
    """Play from ``state`` until the game is over (or state[ROUND_STOP]); ``mind``: (the policies'
    work buffer, the search's buffers)."""
    play(state, (opts, rng, trace), rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer,
         policy, search_at)


@kernel
def decide_posed(state, opts, codes, params, restrict, rng, trace, mind):
    """The answer of the seat's policy (or the search) to the decision posed in ``state``."""
    return decide(state, (opts, rng, trace), rng, codes, params, restrict, mind, policy, search_at)


# ---- batch -------------------------------------------------------------------------------
# Result columns written by write_row (names in game.py).
N_FIXED_COLUMNS = 12


@kernel
def write_row(row, state, game_index, deal_index, rotation):
    row[0], row[1], row[2] = game_index, deal_index, rotation
    row[3] = state[PLAYERS]
    row[4] = state[WINNER]
    row[5] = state[WINNER] == NOBODY
    row[6] = state[ROUND]
    row[7] = state[RETENTIONS]
    row[8] = state[TAKES]
    row[9] = state[CHARGE_CLASHES]
    row[10] = state[AMBUSHES]
    row[11] = state[ENTRAP_FLIPS]
    k = N_FIXED_COLUMNS
    for s in range(MAX_PLAYERS):
        row[k + s] = state[VP + s] if s < state[PLAYERS] else -1
        row[k + MAX_PLAYERS + s] = state[REIGNS + s] if s < state[PLAYERS] else -1
    k += 2 * MAX_PLAYERS
    for c in range(N_CARDS):
        row[k + c] = state[PLAYS + c]


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, block, rotations, opts, slot_codes, slot_params, slot_restrict, out):
    n = opts[OPT_PLAYERS]
    restricted = any_restriction(slot_restrict)  # else ``restrict`` stays all zero: nothing to seat per game
    blocks = (count + block - 1) // block
    for b in prange(blocks):
        state = np.empty(STATE_SIZE, dtype=np.int64)
        rng = np.empty(2, dtype=np.uint64)
        codes = np.empty(n, dtype=np.int64)
        params = np.empty((n, MAX_POLICY_PARAMS), dtype=np.float64)
        restrict = np.zeros((n, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
        no_trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
        mind = (new_work_buffer(), new_search_buffers())
        for i in range(b * block, min(count, (b + 1) * block)):
            game_index = start + i
            deal_index, rotation = split_game_index(game_index, rotations)
            seat_policies(rotation, slot_codes, slot_params, codes, params)
            if restricted:
                seat_restrictions(rotation, slot_restrict, restrict)
            open_stream(rng, seed, deal_index)
            deal(state, opts, rng)
            play_on(state, opts, codes, params, restrict, rng, no_trace, mind)
            write_row(out[i], state, game_index, deal_index, rotation)
