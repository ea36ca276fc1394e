"""Throne Arcade: the match loop and the batch entry points, one result row per round.

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
from balance.engine.kernels import allocating_kernel, kernel, seat_policies, seat_restrictions, split_game_index
from balance.engine.rng import bit_count, open_stream
from balance.engine.step import decide, play
from balance.games.throne_arcade.layout import (
    ACE, C_ALIVE, C_CAPPED, C_DEAL, C_DRAWN, C_ELIMINATED, C_GAME, C_HAND_SIZE, C_LAST_ROUND, C_LOSER,
    C_MATCH_CAPPED, C_MATCH_ROUNDS, C_MATCH_WINNER, C_PLAYERS, C_PREV_LOSER, C_PREV_LOSER_LOST, C_REFRESHES,
    C_REVIVALS, C_ROTATION, C_ROW, C_SPECIALS, C_STARTER, C_STARTER_LOST, C_TURNS, DEALT, DRAWN, ELIMINATED,
    HAND_CARD, IN_GAME, LORD, LOSER, MAX_PLAYERS, NOBODY, N_COLUMNS, OPT_MAX_ROUNDS, ORANGE_VII_CARDS,
    PENALTY_CARDS, PLAYERS, REFRESHES, REVIVALS, ROUND_CAPPED, SPECIAL_BITS, SPECIAL_MAX, STARTER, START_SIZE,
    STATE_SIZE, TRACE_FIELDS, TRACE_LEN, TURNS, TYPE_CARDS, VII, WINNER,
)
from balance.games.throne_arcade.policies import new_search_buffers, new_work_buffer, policy, search_at
from balance.games.throne_arcade.rules import (
    advance, apply_answer, count_in, deal_round, over, pose_pending, start_match, start_next_round,
)

BLOCK = 64  # matches per parallel work item at most (kernels.games_per_block; scratch is reused within a block)


# ---- the engine's loop and decide, with this game's rules and policies -------------------------
@kernel
def play_on(state, opts, codes, params, restrict, rng, trace, mind):
    """Play from ``state`` until no decision is pending (the round's end, or state[TURN_STOP])."""
    play(state, (opts, rng, trace), rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer,
         policy, search_at)


@kernel
def decide_posed(state, opts, codes, params, restrict, rng, trace, mind):
    """The answer of the seat's policy (or the search) to the decision posed in ``state``."""
    return decide(state, (opts, rng, trace), rng, codes, params, restrict, mind, policy, search_at)


@kernel(inline="always")  # a thin level: no compiled copy of the whole match of its own (docs/speed.md)
def play_round(state, opts, codes, params, restrict, rng, trace, mind):
    """Deal and play the round to its end: one player left holding cards, or capped (a stalled
    round, or one that reaches the turn cap, stops without a loser)."""
    deal_round(state, opts, rng, trace)
    play_on(state, opts, codes, params, restrict, rng, trace, mind)


# ---- a match -------------------------------------------------------------------------------
@kernel
def packed_specials(state, cards):
    """How many cards of each special kind ``cards`` hold, SPECIAL_BITS bits per kind."""
    vii = cards & state[TYPE_CARDS + VII]
    counts = (bit_count(vii & ~state[ORANGE_VII_CARDS]), bit_count(vii & state[ORANGE_VII_CARDS]),
              bit_count(cards & state[PENALTY_CARDS] & state[TYPE_CARDS + LORD]),
              bit_count(cards & state[TYPE_CARDS + HAND_CARD]), bit_count(cards & state[TYPE_CARDS + ACE]))
    packed = 0
    for kind in range(len(counts)):
        packed |= min(counts[kind], SPECIAL_MAX) << (SPECIAL_BITS * kind)
    return packed


@kernel
def write_round(row, state, game_index, deal_index, rotation, r, alive, prev_loser):
    row[C_GAME], row[C_DEAL], row[C_ROTATION], row[C_ROW] = game_index, deal_index, rotation, r
    row[C_PLAYERS] = state[PLAYERS]
    row[C_ALIVE] = alive
    row[C_STARTER] = state[STARTER]
    capped = state[ROUND_CAPPED]
    loser = NOBODY if capped else state[LOSER]
    row[C_LOSER] = loser
    row[C_STARTER_LOST] = loser != NOBODY and loser == state[STARTER]
    row[C_CAPPED] = capped
    row[C_TURNS] = state[TURNS]
    row[C_DRAWN] = state[DRAWN]
    row[C_REFRESHES] = state[REFRESHES]
    row[C_REVIVALS] = state[REVIVALS]
    row[C_ELIMINATED] = NOBODY if capped else state[ELIMINATED]
    row[C_PREV_LOSER] = prev_loser
    row[C_PREV_LOSER_LOST] = prev_loser != NOBODY and loser == prev_loser
    for s in range(MAX_PLAYERS):
        row[C_HAND_SIZE + s] = state[START_SIZE + s] if s < state[PLAYERS] else -1
        row[C_SPECIALS + s] = packed_specials(state, state[DEALT + s]) if s < state[PLAYERS] else -1


@kernel(inline="always")  # a thin level: no compiled copy of the whole match of its own (docs/speed.md)
def play_match(out, base, state, opts, codes, params, restrict, rng, trace, mind, game_index, deal_index,
               rotation):
    """Rounds until one player is left (or a round or the match hits its cap): rows
    out[base : base + max_rounds], unused rows with -1 in every column but ``game``."""
    start_match(state, opts, rng)
    rows = opts[OPT_MAX_ROUNDS]
    played = 0
    prev_loser = NOBODY
    for r in range(rows):
        alive = count_in(state, IN_GAME)
        play_round(state, opts, codes, params, restrict, rng, trace, mind)
        write_round(out[base + r], state, game_index, deal_index, rotation, r, alive, prev_loser)
        played = r + 1
        if state[ROUND_CAPPED]:
            break
        if state[WINNER] != NOBODY:
            break
        prev_loser = state[LOSER] if state[IN_GAME + state[LOSER]] else NOBODY
        start_next_round(state)
    for r in range(rows):
        row = out[base + r]
        if r < played:
            row[C_MATCH_WINNER] = state[WINNER]
            row[C_MATCH_CAPPED] = state[WINNER] == NOBODY
            row[C_MATCH_ROUNDS] = played
            row[C_LAST_ROUND] = r == played - 1
        else:
            row[:] = -1
            row[C_GAME] = game_index


# ---- batch -------------------------------------------------------------------------------
@allocating_kernel
def match_buffers(players):
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = np.zeros(2, dtype=np.uint64)
    codes = np.zeros(players, dtype=np.int64)
    params = np.zeros((players, MAX_POLICY_PARAMS), dtype=np.float64)
    restrict = np.zeros((players, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
    return state, rng, codes, params, restrict


@kernel
def seat_rotation(bufs, rotation, slot_codes, slot_params, slot_restrict):
    """Seat the policy slots (their codes, parameters and restrictions) as ``rotation`` seats them."""
    _, _, codes, params, restrict = bufs
    seat_policies(rotation, slot_codes, slot_params, codes, params)
    seat_restrictions(rotation, slot_restrict, restrict)


@kernel(inline="always")  # a thin level: no compiled copy of the whole match of its own (docs/speed.md)
def run_match(out, base, bufs, mind, seed, game_index, rotations, opts, trace):
    """One match, its players already seated (seat_rotation) for its rotation."""
    state, rng, codes, params, restrict = bufs
    deal_index, rotation = split_game_index(game_index, rotations)
    open_stream(rng, seed, deal_index)
    play_match(out, base, state, opts, codes, params, restrict, rng, trace, mind, game_index, deal_index, rotation)
    return state[TRACE_LEN]


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, block, rotations, opts, slot_codes, slot_params, slot_restrict):
    """``count`` matches from global index ``start``: rows (count * max_rounds, N_COLUMNS)."""
    rows = opts[OPT_MAX_ROUNDS]
    out = np.empty((count * rows, N_COLUMNS), dtype=np.int32)
    blocks = (count + block - 1) // block
    for b in prange(blocks):
        bufs = match_buffers(len(slot_codes))
        mind = (new_work_buffer(), new_search_buffers())
        no_trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
        seated = -1  # the rotation the buffers hold: with one rotation (self-play) a block seats once
        for i in range(b * block, min(count, (b + 1) * block)):
            rotation = split_game_index(start + i, rotations)[1]
            if rotation != seated:
                seat_rotation(bufs, rotation, slot_codes, slot_params, slot_restrict)
                seated = rotation
            run_match(out, i * rows, bufs, mind, seed, start + i, rotations, opts, no_trace)
    return out


@allocating_kernel
def simulate_traced(seed, game_index, rotations, opts, slot_codes, slot_params, slot_restrict, trace):
    """One match with the trace on, through the batch's own code path: (rows, state, events)."""
    rows = opts[OPT_MAX_ROUNDS]
    out = np.empty((rows, N_COLUMNS), dtype=np.int32)
    bufs = match_buffers(len(slot_codes))
    seat_rotation(bufs, split_game_index(game_index, rotations)[1], slot_codes, slot_params, slot_restrict)
    fill = run_match(out, 0, bufs, (new_work_buffer(), new_search_buffers()), seed, game_index, rotations, opts,
                     trace)
    return out, bufs[0], fill
