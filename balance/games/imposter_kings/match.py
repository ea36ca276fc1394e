"""The match loop and the batch entry points: matches of rounds to 7 points, one result row per round.

A round (and the match start's choice of Signature Cards) is the rules' step kernel (``rules.py``:
``round_advance``, ``round_over``, ``round_pose``, ``round_apply``) played through the engine's one
loop (balance.engine.step.play): the rules pose each decision, the seat's policy (``policies.policy``)
or the search (``policies.search_at``) answers it. This module sits above both ``rules`` and
``policies`` (the search policy plays rounds through the rules), so the rules never import a
policy. The result row's columns and the trace events are declared in ``layout``.

Game index g is one MATCH: ``deal, rotation = divmod(g, rotations)``. All its deals come from
one counter-based stream of (seed, deal) and the policies' randomness from a second stream of
the same pair, so a deal replayed under the other rotation gives the same cards to the same
policy SLOT, now sitting in the other seat (common random numbers). The slots' policies are seated
once per match (``seat_policies``), so the engine's decide reads them by seat.
"""

import numpy as np
from numba import prange

from balance.engine.decision import N_KINDS_MAX, RESTRICT_SIDES
from balance.engine.kernels import allocating_kernel, any_restriction, kernel, seat_policies, seat_restrictions
from balance.engine.rng import STREAM_SIZE, below, open_stream
from balance.engine.step import decide, play
from balance.games.imposter_kings.layout import (
    ASSASSINATED, CAPPED, CFG_PLAYERS, CHOOSER, C_ASSASSINATED, C_CAPPED, C_CHOOSER, C_CHOOSER_FIRST, C_CHOOSER_WON,
    C_CLOCKWISE, C_DEAL, C_FIRST, C_FIRST_TK, C_FIRST_TK_WON, C_FIRST_WON, C_GAME, C_LAST_ROUND, C_LOSER_FLIPPED,
    C_MATCH_CAPPED, C_MATCH_WINNER, C_MULLIGANS, C_PLIES, C_POINTS, C_ROTATION, C_ROW, C_SCORE0, C_SCORE1, C_SCORE2,
    C_SECOND, C_WINNER, C_WINNER_FLIPPED, DIRECTION, EVENT_WIDTH, FIRST, FLIPPED, MATCH_OVER, MAX_ACTIONS,
    MAX_CARDS, MULLIGANS, NCOLS, OUT, PLAYERS, PLIES, POINTS, ROUND_FIELDS, SCORE, SECOND, STATE_SIZE, TRUE_KING,
    WINNER, CFG_TEAMS, CFG_SIGNATURES, C_SIGNATURES0, C_SIGNATURES1, SIGNATURES, SIG_NONE, C_KING0, C_KING1,
    KING_FACET,
)
from balance.games.imposter_kings.rules import (
    deal_traced, open_armies, open_signatures, partner_of, round_advance, round_apply, round_over, round_pose,
    side_count, side_of, start_signatures, wrap_seat, zone_types)
from balance.games.imposter_kings.policies import (
    FSCRATCH_ROWS, FSCRATCH_TREE_ROWS, FSCRATCH_WIDTH, FS_TREE_WEIGHTS, FS_WEIGHTS, HEURISTIC_DEFAULTS,
    HEURISTIC_PARAMS, SCRATCH_ROWS, SCRATCH_TREE_ROWS, SCRATCH_WIDTH, policy, search_at)

POLICY_SALT = 0x5BD1E995  # separates the policies' stream from the deals' stream of one deal

BLOCK = 64  # matches per parallel work item at most (kernels.games_per_block; scratch is reused within a block)
# The Signature Cards' decisions are traced as round 0's. The index is an int64, as a round's index
# is, so that the rounds and the match's start share one compiled play_on.
SIGNATURE_ROUND = np.int64(0)


# ---- the engine's loop and decide, with this game's rules and policies ----------------------------
@kernel
def play_on(s, table, codes, params, restrict, moves, mind):
    """Every decision until nothing is pending (the round's end, or the Signature Cards chosen):
    ``balance.engine.step.play`` with the round's verbs (``rules.round_advance``: ``table``) and the
    policies drawing from ``moves``; ``codes``, ``params`` and ``restrict`` by seat; ``mind``: (the
    answers' list, the int scratch, the float scratch)."""
    play(s, table, moves, codes, params, restrict, mind, round_advance, round_over, round_pose, round_apply, policy,
         search_at)


@kernel
def decide_posed(s, cfg, codes, params, restrict, moves, mind):
    """The answer of the deciding seat's policy (or the search) to the decision posed in ``s``
    (the policies read only the cfg of the round's table)."""
    return decide(s, (cfg,), moves, codes, params, restrict, mind, policy, search_at)


@kernel
def play_round(s, cfg, deals, moves, rotation, codes, params, restrict, cards, mind, trace, fill, round_index):
    """Deal (again after each mulligan: ``rules.round_advance``) and play one round."""
    table = (cfg, deals, rotation, cards, trace, fill, round_index)
    deal_traced(s, table)
    play_on(s, table, codes, params, restrict, moves, mind)


@kernel
def choose_signatures(s, cfg, deals, moves, rotation, codes, params, restrict, cards, mind, trace, fill):
    """Step 3's choice of Signature Cards at the match's start (``rules.start_signatures``), its
    decisions posed and answered as a round's (traced as round 0's, before its deal)."""
    start_signatures(s, cfg, deals, cards)
    play_on(s, (cfg, deals, rotation, cards, trace, fill, SIGNATURE_ROUND), codes, params, restrict, moves, mind)


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
               cards, mind, trace, fill):
    """Rounds until a player reaches the points (or the round cap); rows out[base : base+max_rounds]."""
    s[ROUND_FIELDS:] = 0  # the match's part; each deal resets the round's
    open_armies(s, cfg)
    n = cfg[CFG_PLAYERS]
    s[TRUE_KING] = wrap_seat(below(deals, n) + rotation, n)
    first_tk = s[TRUE_KING]
    open_signatures(s, cfg)
    if cfg[CFG_SIGNATURES] != SIG_NONE:
        choose_signatures(s, cfg, deals, moves, rotation, codes, params, restrict, cards, mind, trace, fill)
    played = 0
    for r in range(max_rounds):
        play_round(s, cfg, deals, moves, rotation, codes, params, restrict, cards, mind, trace, fill, r)
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


@allocating_kernel
def seat_buffers(slot_codes, slot_params):
    """The seats' policy codes and parameter rows of a match (``seat_policies`` fills them)."""
    return np.empty_like(slot_codes), np.empty_like(slot_params)


@kernel
def run_one(out, base, bufs, seats, cfg, slot_codes, slot_params, slot_restrict, restricted, seed, g, rotations,
            max_rounds, trace, fill):
    """Match g, its policy slots seated for its rotation (``seats``: the seat-indexed codes and
    parameter rows the engine's decide reads); ``restricted``: some slot has a restriction (else the
    buffers' all-zero ``restrict`` stays as it is: seating it at every match cost a one-round match a
    thirtieth of its time)."""
    s, cards, actions, scratch, fscratch, deals, moves, restrict = bufs
    codes, params = seats
    deal, rotation = divmod(g, rotations)
    open_stream(deals, seed, deal)
    open_stream(moves, seed ^ POLICY_SALT, deal)
    seat_policies(rotation, slot_codes, slot_params, codes, params)
    if restricted:
        seat_restrictions(rotation, slot_restrict, restrict)
    play_match(out, base, s, cfg, deals, moves, g, deal, rotation, codes, params, restrict, max_rounds,
               cards, (actions, scratch, fscratch), trace, fill)


@allocating_kernel(parallel=True)
def simulate_batch(cfg, codes, params, slot_restrict, seed, start, count, block, rotations, max_rounds):
    """``count`` matches from global index ``start``: int32 rows (count*max_rounds, NCOLS).
    ``codes``, ``params`` and ``slot_restrict`` (players, N_KINDS_MAX, RESTRICT_SIDES): each policy
    slot's code, parameter row and forbid/prefer masks (``Setup.restrict``)."""
    out = np.empty((count * max_rounds, NCOLS), dtype=np.int32)
    blocks = (count + block - 1) // block
    no_trace = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
    restricted = any_restriction(slot_restrict)
    for b in prange(blocks):
        bufs = game_buffers()
        seats = seat_buffers(codes, params)
        fill = np.zeros(1, dtype=np.int64)
        for k in range(b * block, min(count, (b + 1) * block)):
            run_one(out, k * max_rounds, bufs, seats, cfg, codes, params, slot_restrict, restricted, seed, start + k,
                    rotations, max_rounds, no_trace, fill)
    return out


@allocating_kernel
def simulate_traced(cfg, codes, params, slot_restrict, seed, g, rotations, max_rounds, trace):
    """One match with the decision trace on (the same code path as the batch)."""
    out = np.empty((max_rounds, NCOLS), dtype=np.int32)
    fill = np.zeros(1, dtype=np.int64)
    run_one(out, 0, game_buffers(), seat_buffers(codes, params), cfg, codes, params, slot_restrict,
            any_restriction(slot_restrict), seed, g, rotations, max_rounds, trace, fill)
    return out, fill[0]
