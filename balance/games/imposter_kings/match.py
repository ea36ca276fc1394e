"""The match loop and the batch entry points: matches of rounds to 7 points, one result row per round.

It sits above both ``rules`` and ``policies`` (the search policy plays rounds through the rules,
so the loop that asks the policies cannot live in ``rules`` without an import circle). The
result row's columns and the trace events are declared in ``layout``.

Game index g is one MATCH: ``deal, rotation = divmod(g, rotations)``. All its deals come from
one counter-based stream of (seed, deal) and the policies' randomness from a second stream of
the same pair, so a deal replayed under the other rotation gives the same cards to the same
policy SLOT, now sitting in the other seat (common random numbers).
"""

import numpy as np
from numba import prange

from balance.engine.decision import N_KINDS_MAX, RESTRICT_SIDES
from balance.engine.kernels import allocating_kernel, any_restriction, kernel, seat_restrictions
from balance.engine.rng import STREAM_SIZE, below, open_stream
from balance.games.imposter_kings.layout import (
    ACCUSED, ASSASSINATED, CAPPED, CFG_PLAYERS, CHOOSER, COURT_LEN, COURT_TYPE, C_ASSASSINATED, C_CAPPED, C_CHOOSER,
    C_CHOOSER_FIRST, C_CHOOSER_WON, C_CLOCKWISE, C_DEAL, C_FIRST, C_FIRST_TK, C_FIRST_TK_WON, C_FIRST_WON, C_GAME,
    C_LAST_ROUND, C_LOSER_FLIPPED, C_MATCH_CAPPED, C_MATCH_WINNER, C_MULLIGANS, C_PLIES, C_POINTS, C_ROTATION, C_ROW,
    C_SCORE0, C_SCORE1, C_SCORE2, C_SECOND, C_WINNER, C_WINNER_FLIPPED, DECIDER, DIRECTION, EVENT_WIDTH, EV_ACTION,
    EV_DEAL, EV_DECIDER, EV_LEGAL, EV_PHASE, EV_ROUND, EV_THRONE, EV_THRONE_VALUE, FIRST, FLIPPED, HAND, HAND_BITS,
    MATCH_OVER, MAX_ACTIONS, MAX_CARDS, MULLIGANS, NCOLS, OUT, PHASE, PH_REDEAL, PH_ROUND_OVER, PLAYERS, PLIES,
    POINTS, ROUND_FIELDS, SCORE, SECOND, STATE_SIZE, TRUE_KING, TYPES, UNUSED, WINNER, CFG_TEAMS,
    CFG_SIGNATURES, C_SIGNATURES0, C_SIGNATURES1, SIGNATURES, SIG_NONE,
    C_KING0, C_KING1, KING_FACET,
)
from balance.games.imposter_kings.rules import (
    apply_action, deal_round, is_disgraced, open_armies, open_signatures, legal_mask, partner_of, pose_pending,
    side_count, side_of, start_signatures, throne_value, wrap_seat, zone_row, zone_types)
from balance.games.imposter_kings.policies import (
    FSCRATCH_ROWS, FSCRATCH_TREE_ROWS, FSCRATCH_WIDTH, FS_TREE_WEIGHTS, FS_WEIGHTS, HEURISTIC_DEFAULTS,
    HEURISTIC_PARAMS, SCRATCH_ROWS, SCRATCH_TREE_ROWS, SCRATCH_WIDTH, choose)

POLICY_SALT = 0x5BD1E995  # separates the policies' stream from the deals' stream of one deal

BLOCK = 64  # matches per parallel work item (scratch buffers are reused within a block)


@kernel
def record(trace, fill, round_index, s, cfg, action):
    k = fill[0]
    if k < trace.shape[0]:
        trace[k, EV_ROUND] = round_index
        trace[k, EV_PHASE] = s[PHASE]
        trace[k, EV_DECIDER] = s[DECIDER]
        trace[k, EV_ACTION] = action
        top = s[COURT_LEN] - 1
        trace[k, EV_THRONE] = -1
        if top >= 0:
            trace[k, EV_THRONE] = s[COURT_TYPE + top] + (TYPES if is_disgraced(s, top) else 0)
        trace[k, EV_THRONE_VALUE] = throne_value(s, cfg)
        trace[k, EV_LEGAL] = legal_mask(s, cfg)
        fill[0] = k + 1


@kernel
def record_deal(trace, fill, round_index, s, cfg):
    for seat in range(cfg[CFG_PLAYERS]):
        k = fill[0]
        if k >= trace.shape[0]:
            return
        packed = 0
        for t in range(TYPES):
            packed |= s[zone_row(HAND, seat) + t] << (HAND_BITS * t)
        trace[k, EV_ROUND] = round_index
        trace[k, EV_PHASE] = EV_DEAL
        trace[k, EV_DECIDER] = seat
        trace[k, EV_ACTION] = packed
        trace[k, EV_THRONE] = s[ACCUSED]
        trace[k, EV_THRONE_VALUE] = s[UNUSED]
        fill[0] = k + 1


@kernel
def play_round(s, cfg, deals, moves, rotation, codes, params, restrict, cards, actions, scratch, fscratch, trace,
               fill, round_index):
    """Deal (again after each mulligan) and play one round; every decision is posed with the seats'
    restrictions (``restrict`` by seat) and goes to ``choose``."""
    n = cfg[CFG_PLAYERS]
    deal_round(s, cfg, deals, rotation, cards)
    if trace.shape[0] > 0:
        record_deal(trace, fill, round_index, s, cfg)
    while s[PHASE] != PH_ROUND_OVER:
        if s[PHASE] == PH_REDEAL:
            mulligans = s[MULLIGANS]
            deal_round(s, cfg, deals, rotation, cards)
            s[MULLIGANS] = mulligans
            if trace.shape[0] > 0:
                record_deal(trace, fill, round_index, s, cfg)
            continue
        pose_pending(s, cfg, restrict)
        slot = wrap_seat(s[DECIDER] - rotation + n, n)
        a = choose(s, cfg, codes[slot], params[slot], restrict, moves, actions, scratch, fscratch)
        if trace.shape[0] > 0:
            record(trace, fill, round_index, s, cfg, a)
        apply_action(s, cfg, a)


@kernel
def choose_signatures(s, cfg, deals, moves, rotation, codes, params, restrict, cards, actions, scratch, fscratch,
                      trace, fill):
    """Step 3's choice of Signature Cards at the match's start (``rules.start_signatures``), its
    decisions posed and answered as a round's (traced as round 0's, before its deal)."""
    n = cfg[CFG_PLAYERS]
    start_signatures(s, cfg, deals, cards)
    while s[PHASE] != PH_ROUND_OVER:
        pose_pending(s, cfg, restrict)
        slot = wrap_seat(s[DECIDER] - rotation + n, n)
        a = choose(s, cfg, codes[slot], params[slot], restrict, moves, actions, scratch, fscratch)
        if trace.shape[0] > 0:
            record(trace, fill, 0, s, cfg, a)
        apply_action(s, cfg, a)


@kernel(inline="always")
def first_loser(s, cfg):
    """The seat knocked out first this round (-1: nobody was)."""
    for q in range(cfg[CFG_PLAYERS]):
        if s[OUT + q] == 1:
            return q
    return -1


@kernel
def write_round(row, s, cfg, game, deal, rotation, r, first_tk):
    """The round's row. The chooser is the True King's holder of the deal actually played: a
    costly mulligan hands the True King to its caller, who chooses again for the new deal. The
    loser is the player who lost first. In 2v2 the winner is a side (team 0: seats 0 & 2), the
    first player and the chooser win with their team, and the winner "flipped" when neither
    teammate's King is face up (no +1)."""
    winner = s[WINNER]
    row[C_GAME] = game
    row[C_DEAL] = deal
    row[C_ROTATION] = rotation
    row[C_ROW] = r
    row[C_FIRST] = s[FIRST]
    row[C_CHOOSER] = s[CHOOSER]
    row[C_CHOOSER_FIRST] = (1 if s[FIRST] == s[CHOOSER] else 0) if s[CHOOSER] >= 0 else -1
    row[C_WINNER] = winner
    row[C_POINTS] = s[POINTS] if winner >= 0 else 0
    row[C_FIRST_WON] = 1 if winner >= 0 and winner == side_of(cfg, s[FIRST]) else 0
    row[C_CHOOSER_WON] = 1 if winner >= 0 and s[CHOOSER] >= 0 and winner == side_of(cfg, s[CHOOSER]) else 0
    row[C_WINNER_FLIPPED] = s[FLIPPED + winner] if winner >= 0 else 0
    if cfg[CFG_TEAMS] and winner >= 0:
        row[C_WINNER_FLIPPED] = s[FLIPPED + winner] & s[FLIPPED + partner_of(winner)]
    row[C_LOSER_FLIPPED] = s[FLIPPED + first_loser(s, cfg)] if winner >= 0 else 0
    row[C_ASSASSINATED] = s[ASSASSINATED]
    row[C_CAPPED] = s[CAPPED]
    row[C_MULLIGANS] = s[MULLIGANS]
    row[C_PLIES] = s[PLIES]
    row[C_SCORE0] = s[SCORE]
    row[C_SCORE1] = s[SCORE + 1]
    row[C_SCORE2] = s[SCORE + 2]
    row[C_SECOND] = s[SECOND]
    row[C_CLOCKWISE] = 1 if s[DIRECTION] > 0 else 0
    row[C_KING0] = s[KING_FACET]  # the Kings the round was played with (Step 4's facets)
    row[C_KING1] = s[KING_FACET + 1]
    row[C_FIRST_TK] = first_tk
    row[C_SIGNATURES0] = zone_types(s, cfg, SIGNATURES, 0)
    row[C_SIGNATURES1] = zone_types(s, cfg, SIGNATURES, 1)


@kernel
def play_match(out, base, s, cfg, deals, moves, game, deal, rotation, codes, params, restrict, max_rounds,
               cards, actions, scratch, fscratch, trace, fill):
    """Rounds until a player reaches the points (or the round cap); rows out[base : base+max_rounds]."""
    s[ROUND_FIELDS:] = 0  # the match's part; each deal resets the round's
    open_armies(s, cfg)
    n = cfg[CFG_PLAYERS]
    s[TRUE_KING] = wrap_seat(below(deals, n) + rotation, n)
    first_tk = s[TRUE_KING]
    open_signatures(s, cfg)
    if cfg[CFG_SIGNATURES] != SIG_NONE:
        choose_signatures(s, cfg, deals, moves, rotation, codes, params, restrict, cards, actions, scratch, fscratch,
                          trace, fill)
    played = 0
    for r in range(max_rounds):
        play_round(s, cfg, deals, moves, rotation, codes, params, restrict, cards, actions, scratch, fscratch, trace,
                   fill, r)
        write_round(out[base + r], s, cfg, game, deal, rotation, r, first_tk)
        played = r + 1
        if s[MATCH_OVER]:
            break
    match_winner = match_winner_of(s, cfg) if s[MATCH_OVER] else -1
    for r in range(max_rounds):
        row = out[base + r]
        if r < played:
            row[C_MATCH_WINNER] = match_winner
            row[C_MATCH_CAPPED] = 1 if match_winner < 0 else 0
            row[C_FIRST_TK_WON] = 1 if match_winner == side_of(cfg, first_tk) else 0
            row[C_LAST_ROUND] = 1 if r == played - 1 else 0
        else:
            row[:] = -1
            row[C_GAME] = game


@kernel(inline="always")
def match_winner_of(s, cfg):
    """The highest score wins the match; a tie goes to the final round's winner (rulebook). In 2v2
    the scores and the winner are the teams'."""
    best = -1
    for q in range(side_count(cfg[CFG_TEAMS], cfg[CFG_PLAYERS])):
        if best < 0 or s[SCORE + q] > s[SCORE + best] or (s[SCORE + q] == s[SCORE + best] and q == s[WINNER]):
            best = q
    return best


@allocating_kernel
def game_buffers():
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    cards = np.zeros(MAX_CARDS, dtype=np.int64)
    actions = np.zeros(MAX_ACTIONS, dtype=np.int64)
    scratch = np.empty((SCRATCH_ROWS + SCRATCH_TREE_ROWS, SCRATCH_WIDTH), dtype=np.int64)
    scratch[:SCRATCH_ROWS] = 0  # the tree search's rows are left unfilled (policies.tree_buffers)
    fscratch = np.empty((FSCRATCH_ROWS + FSCRATCH_TREE_ROWS, FSCRATCH_WIDTH), dtype=np.float64)
    fscratch[:FSCRATCH_ROWS] = 0.0
    fscratch[FS_WEIGHTS, :HEURISTIC_PARAMS] = HEURISTIC_DEFAULTS
    fscratch[FS_TREE_WEIGHTS, :HEURISTIC_PARAMS] = HEURISTIC_DEFAULTS
    deals = np.zeros(STREAM_SIZE, dtype=np.uint64)
    moves = np.zeros(STREAM_SIZE, dtype=np.uint64)
    restrict = np.zeros((PLAYERS, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
    return s, cards, actions, scratch, fscratch, deals, moves, restrict


@kernel
def run_one(out, base, bufs, cfg, codes, params, slot_restrict, restricted, seed, g, rotations, max_rounds, trace,
            fill):
    """Match g; ``restricted``: some slot has a restriction (else the buffers' all-zero ``restrict``
    stays as it is: seating it at every match cost a one-round match a thirtieth of its time)."""
    s, cards, actions, scratch, fscratch, deals, moves, restrict = bufs
    deal, rotation = divmod(g, rotations)
    open_stream(deals, seed, deal)
    open_stream(moves, seed ^ POLICY_SALT, deal)
    if restricted:
        seat_restrictions(rotation, slot_restrict, restrict)
    play_match(out, base, s, cfg, deals, moves, g, deal, rotation, codes, params, restrict, max_rounds,
               cards, actions, scratch, fscratch, trace, fill)


@allocating_kernel(parallel=True)
def simulate_batch(cfg, codes, params, slot_restrict, seed, start, count, rotations, max_rounds):
    """``count`` matches from global index ``start``: int32 rows (count*max_rounds, NCOLS).
    ``slot_restrict`` (players, N_KINDS_MAX, RESTRICT_SIDES): each policy slot's forbid/prefer
    masks (``Setup.restrict``)."""
    out = np.empty((count * max_rounds, NCOLS), dtype=np.int32)
    blocks = (count + BLOCK - 1) // BLOCK
    no_trace = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    restricted = any_restriction(slot_restrict)
    for b in prange(blocks):
        bufs = game_buffers()
        fill = np.zeros(1, dtype=np.int64)
        for k in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            run_one(out, k * max_rounds, bufs, cfg, codes, params, slot_restrict, restricted, seed, start + k,
                    rotations, max_rounds, no_trace, fill)
    return out


@allocating_kernel
def simulate_traced(cfg, codes, params, slot_restrict, seed, g, rotations, max_rounds, trace):
    """One match with the decision trace on (the same code path as the batch)."""
    out = np.empty((max_rounds, NCOLS), dtype=np.int32)
    fill = np.zeros(1, dtype=np.int64)
    run_one(out, 0, game_buffers(), cfg, codes, params, slot_restrict, any_restriction(slot_restrict), seed, g,
            rotations, max_rounds, trace, fill)
    return out, fill[0]
