"""DETHRONED: the game loop and the batch entry point, one result row per game.

A game is the rules' step kernel (rules.py) played through the engine's one loop
(balance.engine.step.play): the rules pose each decision, the seat's policy (policies.py) or the
search answers it, and every listener's beliefs see what the answer showed. This module sits above
both, so the rules never import a policy.

Game index g: ``deal, rotation = divmod(g, rotations)``; the game's cards, reaction times and the
policies' ties come from one counter-based stream of (seed, deal).
"""

import numpy as np
from numba import prange

from balance.engine.kernels import (
    allocating_kernel, any_restriction, kernel, seat_policies, seat_restrictions, split_game_index,
)
from balance.engine.rng import STREAM_SIZE, open_stream
from balance.engine.step import decide, play, pose_pending
from balance.games.dethroned.layout import (
    C_CAPPED, C_DEAL, C_DEATHS, C_DECISIONS, C_GAME, C_OUTCOME, C_PLAYERS, C_ROTATION, C_SECONDS, C_VOTES,
    H_DEATHS, H_DECISIONS, H_NOW, H_OUTCOME, H_PLAYERS, H_VOTES, H_WINNERS, MAX_ATTACKS, MAX_LEGAL, MAX_PLAYERS,
    OUTCOME_CAPPED, PL_ALIVE, PL_KILLS, PL_ROLE, SEAT_BASE, SEAT_FIELDS, STATE_SIZE, S_ALIVE, S_KILLS, S_ROLE, S_WON,
    TRACE_FIELDS, pbase,
)
from balance.games.dethroned.policies import (
    MARKS, MIND_BELIEF, MIND_CODES, MIND_GRUDGE, MIND_MARKS, MIND_OPTS, MIND_ROLE_COUNT, forget_plans, init_beliefs, new_search_buffers, policy, search_at, step_advance, step_apply,
)
from balance.games.dethroned.rules import MS_PER_SECOND, deal, over, restrict_to_role

GAMES_PER_BLOCK = 256


# ---- the engine's loop and decide, with this game's rules and policies -------------------------
@kernel
def play_on(s, table, stream, codes, params, restrict):
    """Play from ``s`` until the game is over. ``table``: (the rules' table, the policies' mind)."""
    play(s, table, stream, codes, params, restrict, table[1], step_advance, over, pose_pending, step_apply, policy,
         search_at)


@kernel
def decide_posed(s, table, stream, codes, params, restrict):
    """The answer of the seat's policy (or the search) to the decision posed in ``s``."""
    return decide(s, table, stream, codes, params, restrict, table[1], policy, search_at)


@kernel
def start_game(s, table, stream, roles, setup_roles, restrict, restricted_role):
    """Deal (roles, decks, hands, the first claimer), narrow the restrictions to the restricted
    role's seat, and let every listener start from its prior beliefs."""
    mind = table[1]
    deal(s, mind[MIND_OPTS], roles, mind[MIND_CODES].shape[0], setup_roles, stream)
    restrict_to_role(s, restrict, restricted_role)
    init_beliefs(s, mind[MIND_ROLE_COUNT], mind[MIND_BELIEF], mind[MIND_GRUDGE])
    forget_plans(mind[MIND_MARKS])


@kernel
def write_row(s, out, i, game, deal_index, rotation):
    players = s[H_PLAYERS]
    capped = s[H_OUTCOME] == OUTCOME_CAPPED
    out[i, :] = -1
    out[i, C_GAME] = game
    out[i, C_DEAL] = deal_index
    out[i, C_ROTATION] = rotation
    out[i, C_OUTCOME] = s[H_OUTCOME]
    out[i, C_CAPPED] = capped
    out[i, C_DECISIONS] = s[H_DECISIONS]
    out[i, C_DEATHS] = s[H_DEATHS]
    out[i, C_VOTES] = s[H_VOTES]
    out[i, C_SECONDS] = s[H_NOW] // MS_PER_SECOND
    out[i, C_PLAYERS] = players
    for p in range(players):
        b = SEAT_BASE + p * len(SEAT_FIELDS)
        out[i, b + S_ROLE] = s[pbase(p) + PL_ROLE]
        out[i, b + S_WON] = (s[H_WINNERS] >> p) & 1  # whose win held when the game stopped (rules.stop)
        out[i, b + S_ALIVE] = s[pbase(p) + PL_ALIVE]
        out[i, b + S_KILLS] = s[pbase(p) + PL_KILLS]


@allocating_kernel
def new_table(opts, roles, want_cond, want_kill, want_total, role_count, codes, params, stream, trace, checked):
    """The loop's table for one game at a time: (the rules' table, the policies' mind), with fresh
    scratch buffers, beliefs, marks and search buffers."""
    players = codes.shape[0]
    rules_table = (opts, roles, params, role_count, stream, trace, np.zeros(MAX_LEGAL, dtype=np.int64),
                   np.zeros(MAX_ATTACKS, dtype=np.int64), checked)
    mind = (opts, roles, want_cond, want_kill, want_total, role_count, codes, params,
            np.zeros((MAX_PLAYERS, MAX_PLAYERS, roles.shape[0]), dtype=np.float64),
            np.zeros((MAX_PLAYERS, MAX_PLAYERS), dtype=np.float64), np.zeros((MARKS, players), dtype=np.int64),
            new_search_buffers())
    return rules_table, mind


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, games, rotations, opts, roles, want_cond, want_kill, want_total, setup_roles,
                   role_count, slot_codes, slot_params, slot_restrict, restricted_role, out):
    """Games start .. start + count - 1, in blocks of ``games`` (at most GAMES_PER_BLOCK:
    kernels.games_per_block) reusing scratch buffers."""
    players = slot_codes.shape[0]
    restricted = any_restriction(slot_restrict)  # else ``restrict`` stays all zero: nothing to seat per game
    blocks = (count + games - 1) // games
    for block in prange(blocks):
        # thread-private copies of the read-only inputs: the reference counts of shared arrays
        # would otherwise bounce between cores at every call
        local_opts, local_roles, local_setup_roles, local_count = opts.copy(), roles.copy(), setup_roles.copy(), \
            role_count.copy()
        s = np.zeros(STATE_SIZE, dtype=np.int64)
        stream = np.zeros(STREAM_SIZE, dtype=np.uint64)
        codes = np.zeros(players, dtype=np.int64)
        params = np.zeros(slot_params.shape, dtype=np.float64)
        restrict = np.zeros(slot_restrict.shape, dtype=np.int64)
        table = new_table(local_opts, local_roles, want_cond.copy(), want_kill.copy(), want_total.copy(), local_count,
                          codes, params, stream, np.zeros((0, TRACE_FIELDS), dtype=np.int64), False)
        for i in range(block * games, min(count, (block + 1) * games)):
            game = start + i
            deal_index, rotation = split_game_index(game, rotations)
            open_stream(stream, seed, deal_index)
            seat_policies(rotation, slot_codes, slot_params, codes, params)
            if restricted:
                seat_restrictions(rotation, slot_restrict, restrict)
            start_game(s, table, stream, local_roles, local_setup_roles, restrict, restricted_role)
            play_on(s, table, stream, codes, params, restrict)
            write_row(s, out, i, game, deal_index, rotation)
