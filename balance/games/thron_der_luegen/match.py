"""Thron der Lügen: the match loop and the batch entry points, one result row per round.

A round is the rules' step kernel (rules.py) played through the engine's one loop
(balance.engine.step.play): the rules pose each decision, the seat's policy (policies.py) or the
search answers it. This module sits above both, so the rules never import a policy.

Game index g is one MATCH: ``deal, rotation = divmod(g, rotations)``; the match's cards and the
policies' ties come from one counter-based stream of (seed, deal).
"""

import numpy as np
from numba import prange

from balance.engine.decision import N_KINDS_MAX, RESTRICT_SIDES
from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import (
    allocating_kernel, any_restriction, claim_block, kernel, seat_policies, seat_restrictions, split_game_index,
)
from balance.engine.rng import open_stream
from balance.engine.step import decide, play
from balance.games.thron_der_luegen.layout import (
    C_LAST_ROUND, C_MATCH_CAPPED, C_MATCH_ROUNDS, C_MATCH_WINNER, C_SEATS, DECK_VALUE2, DRAWS, END_REASON, EV_CAP,
    FAR_SWAPS, FIRST, HIDDEN, INTRIGUES, LAST_TURN, MATCH_OVER, MAX_PLAYERS, N_COLUMNS, NOBODY, OPT_MAX_ROUNDS,
    OPT_PLAYERS,
    PLAYERS, REVEALS, ROUND, ROUND_STONES, SCORE, STATE_SIZE, STONES, SWAPS, THRONE_SCORE, TRACE_FIELDS, TURNS,
    WINNER,
)
from balance.games.thron_der_luegen.policies import deck_value2, new_search_buffers, policy, search_at
from balance.games.thron_der_luegen.rules import (
    advance, apply_answer, deal_round, log, new_match, over, pose_pending,
)

BLOCK = 64  # matches per block a thread claims, at most (kernels.games_per_block; buffers reused within it)


# ---- the engine's loop, with this game's rules and policies ---------------------------------------
@kernel
def play_round(state, opts, codes, params, restrict, rng, trace, mind):
    """Deal and play a round to its end (scored, its stones handed out); ``mind``: the search's
    buffers (policies.new_search_buffers)."""
    deal_round(state, opts, rng, trace)
    play(state, (opts, rng, trace), rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer,
         policy, search_at)


@kernel
def decide_posed(state, opts, codes, params, restrict, rng, trace, mind):
    """The answer of the seat's policy (or the search) to the decision posed in ``state``."""
    return decide(state, (opts, rng, trace), rng, codes, params, restrict, mind, policy, search_at)


# ---- a match, one result row per round -------------------------------------------------------------
@kernel
def write_round(row, state, game_index, deal_index, rotation, first):
    row[0], row[1], row[2], row[3] = game_index, deal_index, rotation, state[ROUND] - 1
    row[4] = state[PLAYERS]
    row[5] = first
    row[6] = state[LAST_TURN]
    row[7] = state[END_REASON]
    row[8], row[9], row[10], row[11] = state[TURNS], state[DRAWS], state[SWAPS], state[FAR_SWAPS]
    row[12], row[13], row[14] = state[INTRIGUES], state[REVEALS], state[HIDDEN]
    for s in range(MAX_PLAYERS):
        present = s < state[PLAYERS]
        row[C_SEATS + s] = state[SCORE + s] if present else -1
        row[C_SEATS + MAX_PLAYERS + s] = state[THRONE_SCORE + s] if present else -1
        row[C_SEATS + 2 * MAX_PLAYERS + s] = state[ROUND_STONES + s] if present else -1
        row[C_SEATS + 3 * MAX_PLAYERS + s] = state[STONES + s] if present else -1


@kernel
def start_match(state, opts):
    """A fresh match (rules.new_match) and the policies' sum of the deck's values, once a match."""
    new_match(state, opts)
    state[DECK_VALUE2] = deck_value2(opts)


@kernel(inline="always")  # a thin level: no compiled copy of the whole match of its own (docs/speed.md)
def play_match(out, base, state, opts, codes, params, restrict, rng, trace, mind, game_index, deal_index, rotation):
    """Rounds until the match is decided or the round cap; rows out[base : base + max_rounds]."""
    start_match(state, opts)
    max_rounds = opts[OPT_MAX_ROUNDS]
    while not state[MATCH_OVER] and state[ROUND] < max_rounds:
        first = state[FIRST]
        play_round(state, opts, codes, params, restrict, rng, trace, mind)
        write_round(out[base + state[ROUND] - 1], state, game_index, deal_index, rotation, first)
    if not state[MATCH_OVER]:
        log(state, trace, EV_CAP, NOBODY, state[ROUND], 0, 0)
    played = state[ROUND]
    for r in range(max_rounds):
        row = out[base + r]
        if r < played:
            row[C_MATCH_WINNER] = state[WINNER]
            row[C_LAST_ROUND] = 1 if r == played - 1 else 0
            row[C_MATCH_CAPPED] = 0 if state[MATCH_OVER] else 1
            row[C_MATCH_ROUNDS] = played
        else:
            for k in range(row.shape[0]):
                row[k] = -1
            row[0] = game_index


# ---- batch ---------------------------------------------------------------------------------------
@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, block, rotations, opts, slot_codes, slot_params, slot_restrict, out):
    """``count`` matches from global index ``start`` into ``out`` (count * max_rounds rows)."""
    n = opts[OPT_PLAYERS]
    max_rounds = opts[OPT_MAX_ROUNDS]
    blocks = (count + block - 1) // block
    claimed = np.zeros(1, dtype=np.int64)
    # nobody restricted: each block's restrict stays all zero, so it is not seated again for every match
    restricted = any_restriction(slot_restrict)
    for _ in prange(blocks):  # threads claim blocks until none is left (kernels.claim_block)
        b = claim_block(claimed)
        while b < blocks:
            state = np.zeros(STATE_SIZE, dtype=np.int64)
            rng = np.empty(2, dtype=np.uint64)
            codes = np.empty(n, dtype=np.int64)
            params = np.empty((n, MAX_POLICY_PARAMS), dtype=np.float64)
            restrict = np.zeros((n, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
            no_trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
            mind = new_search_buffers()
            for i in range(b * block, min(count, (b + 1) * block)):
                game_index = start + i
                deal_index, rotation = split_game_index(game_index, rotations)
                seat_policies(rotation, slot_codes, slot_params, codes, params)
                if restricted:
                    seat_restrictions(rotation, slot_restrict, restrict)
                open_stream(rng, seed, deal_index)
                play_match(out, i * max_rounds, state, opts, codes, params, restrict, rng, no_trace, mind,
                           game_index, deal_index, rotation)
            b = claim_block(claimed)


@allocating_kernel
def play_traced(seed, game_index, rotations, opts, slot_codes, slot_params, slot_restrict, trace):
    """One match with the trace on, through the batch kernel's own code: (rows, final state)."""
    n = opts[OPT_PLAYERS]
    out = np.empty((opts[OPT_MAX_ROUNDS], N_COLUMNS), dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = np.empty(2, dtype=np.uint64)
    codes = np.empty(n, dtype=np.int64)
    params = np.empty((n, MAX_POLICY_PARAMS), dtype=np.float64)
    restrict = np.zeros((n, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
    deal_index, rotation = split_game_index(game_index, rotations)
    seat_policies(rotation, slot_codes, slot_params, codes, params)
    seat_restrictions(rotation, slot_restrict, restrict)
    open_stream(rng, seed, deal_index)
    play_match(out, 0, state, opts, codes, params, restrict, rng, trace, new_search_buffers(), game_index,
               deal_index, rotation)
    return out, state
