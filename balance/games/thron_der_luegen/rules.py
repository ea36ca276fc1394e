"""Thron der Lügen: the rules kernel. Every rule of the game is here (scoring in scoring.py), once.

A match is rounds until a person owns enough point stones. A round: the deal (a throne card
between each two neighbours, one hand card each, the rest the draw pile); turns clockwise from the
round's first player: reveal an End card, or draw and then swap a hand card into a throne beside
you (a Sun card into any throne), play an intrigue card, or discard; the round ends when both
Moon 3s lie beside one person (at once, 1 stone, no scoring), when the 4th End card is revealed, or
when the draw pile is used up (that turn is finished); then scoring and the point stones. The next
round begins left of whoever had the last turn.

The kernel's arguments, ``opts, codes, params, restrict, rng, script, trace``, are passed along to
every function that needs them: the options vector (with the deck table), each seat's policy code,
parameter row and restriction, the round's random stream, the scripted answers (tests, positions)
and the event trace (no rows in batch runs). No function here creates an array.

A search seat chooses its turn's choice at the start of its turn (fix_searched_turn, in the round's
loop play_round): its rollouts play turns through ``next_turn`` with the heuristic, so the rules
reach the search only from the loop above a turn, never from inside one.
"""

import numpy as np
from numba import prange

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import (
    allocating_kernel, any_restriction, claim_block, kernel, seat_policies, seat_restrictions, split_game_index,
)
from balance.engine.rng import below, open_stream, shuffle
from balance.engine.decision import N_KINDS_MAX, PREFER, RESTRICT_SIDES, answer_of, forced, pose
from balance.engine.search import ROLLOUT_SIGNATURE, search_answer
from balance.games.thron_der_luegen.layout import (
    ACT, DECK_VALUE2, C_LAST_ROUND, C_MATCH_CAPPED, C_MATCH_ROUNDS, C_MATCH_WINNER, C_SEATS, DISCARD, DISCARDS, DRAWN, DRAWS, END_CARDS, END_MOON_PAIR, END_PILE, END_REASON, END_SHOWN,
    EV_CAP, EV_DEAL, EV_DISCARD, EV_DRAW, EV_HIDE, EV_INTRIGUE, EV_MATCH_WIN, EV_MOON_PAIR, EV_PEEK, EV_REPLACE,
    EV_REVEAL_END, EV_ROUND_END, EV_SCORE, EV_SWAP, EV_THRONES_SWAPPED, FAR_SWAPS, FAR_THRONE, FIRST, FLIP, HAND,
    HIDDEN, HIDE_END, HIGHEST_STONES, INTRIGUE, INTRIGUES, KEEP, KNOWN, LAST_TURN, LONE, LONE_LIMIT, LONE_STONES,
    LOWEST, LOWEST_STONES, MATCH_OVER, MAX_PLAYERS, N_COLUMNS, N_COURT, N_END, NO_CARD, NOBODY, OPT_CHECKS,
    OPT_LONE_ALL_STONES, OPT_MAX_ROUNDS, OPT_MOON_ONE_TOTAL, OPT_PAIR_AT_DEAL, OPT_PLAYERS, OPT_SPLIT_PLACER, OPT_STONES_TO_WIN, PAIR, PAIR_STONES, PENDING, PLACER, PLACING,
    PEEK_CHOICE, PEEK_SWAP, PEEK_TARGET, PILE, PILE_TOP, PLAY, PLAYERS, REACH_OWN, REPLACE_FROM_PILE,
    REPLACE_TARGET, REVEAL_END, REVEALS, ROUND, ROUND_STONES, SCORE, SPLIT, STATE_SIZE, STONES, SUN, SWAP_FAR,
    SWAP_FIRST, SWAP_LEFT, SWAP_RIGHT, SWAP_SECOND, SWAP_THRONES, SWAPS, THRONE, THRONE_SCORE, TIED_STONES,
    TRACE_FIELDS, TRACE_LEN, TURN, TURN_SEAT, TURNS, WINNER, WITH_LEFT, DRAW, BROKEN, POLICY_SEARCH,
)
from balance.games.thron_der_luegen.policies import (
    SEARCH_CODES, SEARCH_PARAMS, SEARCH_SAMPLED, SEARCH_SAVED, SEARCH_TOTALS, SEARCH_WORLD, S_HORIZON, S_ROLLOUTS,
    ask, deck_value2, new_search_buffers, prepare_rollouts, rollout_score, sample_world,
)
from balance.games.thron_der_luegen.scoring import (
    effect_of, kind_of, left_throne, lone_sum, own_thrones_mask, param_of, people_of, placement_flip,
    right_throne, seat_total, throne_score, beside,
)

BLOCK = 64  # matches per block a thread claims (buffers are reused within a block)
NO_SCORE = -(1 << 20)


# ---- small state helpers -----------------------------------------------------------------------
@kernel(inline="always")
def log(state, trace, event, seat, a, b, c):
    """Append an event to the trace (a no-op in batch runs, where the buffer has no rows)."""
    k = state[TRACE_LEN]
    if k < trace.shape[0]:
        trace[k, 0] = state[ROUND]
        trace[k, 1] = event
        trace[k, 2] = seat
        trace[k, 3] = a
        trace[k, 4] = b
        trace[k, 5] = c
        state[TRACE_LEN] = k + 1


@kernel(inline="always")
def pile_left(state):
    return N_COURT - state[PILE_TOP]


@kernel(inline="always")
def draw_card(state):
    card = state[PILE + state[PILE_TOP]]
    state[PILE_TOP] += 1
    return card


@kernel(inline="always")
def to_discards(state, card):
    """Face up on the discard pile: every player sees it."""
    state[DISCARDS] |= 1 << card


@kernel
def put_on_throne(state, opts, throne, card, placer, rng):
    """``card`` goes face down onto ``throne``; the old card goes face up to the discard pile.
    Only the placer (and the throne's two neighbours, who may always look) knows the new card; a
    card placed unseen (replace_from_pile: ``placer`` NOBODY) lies as it comes."""
    n = state[PLAYERS]
    old = state[THRONE + throne]
    state[THRONE + throne] = card
    if placer != NOBODY:
        state[FLIP + throne] = placement_flip(opts, card, throne, placer)
    elif opts[OPT_SPLIT_PLACER] and kind_of(opts, card) == SPLIT:
        state[FLIP + throne] = below(rng, 2)
    else:
        state[FLIP + throne] = 0
    to_discards(state, old)
    state[PLACER + throne] = placer
    for s in range(n):
        state[KNOWN + s * MAX_PLAYERS + throne] = NO_CARD
    if placer != NOBODY:
        state[KNOWN + placer * MAX_PLAYERS + throne] = card
    return old


@kernel(inline="always")
def seen(state, seat, throne):
    """The card ``seat`` knows on ``throne``: its own two it may look at; others if it placed,
    moved or looked at them since they last changed (else NO_CARD)."""
    if beside(seat, throne, state[PLAYERS]):
        return state[THRONE + throne]
    return state[KNOWN + seat * MAX_PLAYERS + throne]


@kernel
def exchange_thrones(state, a, b):
    """Two throne cards change places as they lie, in view of everyone: what a seat knew of either
    card it now knows at the other place."""
    n = state[PLAYERS]
    for s in range(n):
        known_a, known_b = seen(state, s, a), seen(state, s, b)
        state[KNOWN + s * MAX_PLAYERS + a] = known_b
        state[KNOWN + s * MAX_PLAYERS + b] = known_a
    state[THRONE + a], state[THRONE + b] = state[THRONE + b], state[THRONE + a]
    state[FLIP + a], state[FLIP + b] = state[FLIP + b], state[FLIP + a]
    state[PLACER + a], state[PLACER + b] = state[PLACER + b], state[PLACER + a]


@kernel
def check_moon_pair(state, opts, throne, trace):
    """'If both Moon 3s lie at any time as your throne cards, reveal them. You win the round and
    receive 1 point stone. The round ends.' Checked for the two neighbours of a changed throne."""
    if state[END_REASON] != 0:
        return
    n = state[PLAYERS]
    for k in range(2):
        seat = (throne + k) % n
        if kind_of(opts, state[THRONE + left_throne(seat, n)]) == PAIR and \
                kind_of(opts, state[THRONE + right_throne(seat, n)]) == PAIR:
            state[END_REASON] = END_MOON_PAIR
            state[ROUND_STONES + seat] += PAIR_STONES
            log(state, trace, EV_MOON_PAIR, seat, PAIR_STONES, 0, 0)
            return


# ---- the deal ----------------------------------------------------------------------------------
@kernel
def deal_round(state, opts, rng, trace):
    """Shuffle the 28 court cards; one face down between each two people (throne t between seats t
    and t+1); the rest is the draw pile; everyone draws one card, from the first player on."""
    n = state[PLAYERS]
    for c in range(N_COURT):
        state[PILE + c] = c
    state[PILE_TOP] = 0
    shuffle(rng, state[PILE: PILE + N_COURT], N_COURT)
    for t in range(n):
        state[THRONE + t] = draw_card(state)
        state[PLACER + t] = NOBODY
        state[FLIP + t] = below(rng, 2) if opts[OPT_SPLIT_PLACER] and kind_of(opts, state[THRONE + t]) == SPLIT else 0
    for k in range(n):
        seat = (state[FIRST] + k) % n
        state[HAND + seat] = draw_card(state)
    state[DRAWN] = NO_CARD
    state[DISCARDS] = 0
    state[END_SHOWN] = 0
    for i in range(MAX_PLAYERS * MAX_PLAYERS):
        state[KNOWN + i] = NO_CARD
    for s in range(MAX_PLAYERS):
        state[ROUND_STONES + s] = 0
        state[SCORE + s] = 0
        state[THRONE_SCORE + s] = 0
    state[END_REASON] = 0
    state[TURNS] = state[DRAWS] = state[SWAPS] = state[FAR_SWAPS] = state[INTRIGUES] = 0
    state[REVEALS] = state[HIDDEN] = 0
    state[TURN_SEAT] = state[FIRST]
    state[LAST_TURN] = (state[FIRST] + n - 1) % n  # nobody has had a turn: the first player stays first
    log(state, trace, EV_DEAL, state[FIRST], 0, 0, 0)
    if opts[OPT_PAIR_AT_DEAL]:
        for t in range(n):
            check_moon_pair(state, opts, t, trace)


# ---- a turn --------------------------------------------------------------------------------------
@kernel
def act_choices(state, opts, seat):
    """After drawing: each of the two hand cards may be swapped into the left or right throne (a
    Sun card into any throne), played if it is an intrigue card, or discarded."""
    choices = 0
    for slot in range(2):
        card = state[DRAWN] if slot else state[HAND + seat]
        choices |= (1 << (SWAP_LEFT * 2 + slot)) | (1 << (SWAP_RIGHT * 2 + slot)) | (1 << (DISCARD * 2 + slot))
        if people_of(opts, card) == SUN:
            choices |= 1 << (SWAP_FAR * 2 + slot)
        if kind_of(opts, card) == INTRIGUE:
            choices |= 1 << (PLAY * 2 + slot)
    return choices


@kernel
def resolve_intrigue(state, opts, seat, card, codes, params, restrict, rng, script, trace):
    n = state[PLAYERS]
    effect, param = effect_of(opts, card), param_of(opts, card)
    every = (1 << n) - 1
    own = own_thrones_mask(seat, n)
    if effect == SWAP_THRONES:
        a = ask(state, opts, seat, SWAP_FIRST, own if param == REACH_OWN else every, codes, params, restrict, rng,
                script)
        state[PENDING] = a
        b = ask(state, opts, seat, SWAP_SECOND, every & ~(1 << a), codes, params, restrict, rng, script)
        exchange_thrones(state, a, b)
        log(state, trace, EV_THRONES_SWAPPED, seat, a, b, 0)
        check_moon_pair(state, opts, a, trace)
        check_moon_pair(state, opts, b, trace)
    elif effect == PEEK_SWAP:
        t = ask(state, opts, seat, PEEK_TARGET, every & ~own, codes, params, restrict, rng, script)
        state[KNOWN + seat * MAX_PLAYERS + t] = state[THRONE + t]
        state[PENDING] = t
        log(state, trace, EV_PEEK, seat, t, state[THRONE + t], 0)
        if param:
            choice = ask(state, opts, seat, PEEK_CHOICE, 0b111, codes, params, restrict, rng, script)
            if choice != KEEP:
                mine = left_throne(seat, n) if choice == WITH_LEFT else right_throne(seat, n)
                exchange_thrones(state, t, mine)
                log(state, trace, EV_THRONES_SWAPPED, seat, t, mine, 0)
                check_moon_pair(state, opts, t, trace)
                check_moon_pair(state, opts, mine, trace)
    elif effect == REPLACE_FROM_PILE:
        if pile_left(state) > 0:
            t = ask(state, opts, seat, REPLACE_TARGET, own if param == REACH_OWN else every, codes, params,
                    restrict, rng, script)
            new = draw_card(state)
            old = put_on_throne(state, opts, t, new, NOBODY, rng)
            log(state, trace, EV_REPLACE, seat, t, old, new)
            check_moon_pair(state, opts, t, trace)
    elif effect == HIDE_END:
        hidden = min(param, state[END_SHOWN])
        state[END_SHOWN] -= hidden
        state[HIDDEN] += hidden
        log(state, trace, EV_HIDE, seat, hidden, state[END_SHOWN], 0)


@kernel
def play_turn(state, opts, codes, params, restrict, rng, script, trace):
    """One turn of the player whose turn it is; sets END_REASON when the round ends."""
    seat = state[TURN_SEAT]
    n = state[PLAYERS]
    state[LAST_TURN] = seat
    state[TURNS] += 1
    if ask(state, opts, seat, TURN, (1 << DRAW) | (1 << REVEAL_END), codes, params, restrict, rng,
           script) == REVEAL_END:
        state[END_SHOWN] += 1
        state[REVEALS] += 1
        log(state, trace, EV_REVEAL_END, seat, state[END_SHOWN], 0, 0)
        if state[END_SHOWN] == N_END:
            state[END_REASON] = END_CARDS
        return
    state[DRAWN] = draw_card(state)
    state[DRAWS] += 1
    log(state, trace, EV_DRAW, seat, state[DRAWN], 0, 0)
    answer = ask(state, opts, seat, ACT, act_choices(state, opts, seat), codes, params, restrict, rng, script)
    act, slot = answer // 2, answer % 2
    held, drawn = state[HAND + seat], state[DRAWN]
    used = drawn if slot else held
    state[HAND + seat] = held if slot else drawn
    state[DRAWN] = NO_CARD
    if act == SWAP_LEFT or act == SWAP_RIGHT or act == SWAP_FAR:
        if act == SWAP_LEFT:
            throne = left_throne(seat, n)
        elif act == SWAP_RIGHT:
            throne = right_throne(seat, n)
        else:
            state[PLACING] = used
            throne = ask(state, opts, seat, FAR_THRONE, ((1 << n) - 1) & ~own_thrones_mask(seat, n), codes, params,
                         restrict, rng, script)
            state[FAR_SWAPS] += 1
            state[PLACING] = NO_CARD
        old = put_on_throne(state, opts, throne, used, seat, rng)
        state[SWAPS] += 1
        log(state, trace, EV_SWAP, seat, used, throne, old)
        check_moon_pair(state, opts, throne, trace)
    elif act == PLAY:
        state[INTRIGUES] += 1
        log(state, trace, EV_INTRIGUE, seat, used, effect_of(opts, used), 0)
        resolve_intrigue(state, opts, seat, used, codes, params, restrict, rng, script, trace)
        to_discards(state, used)  # carried out, then placed on the discard pile
    else:
        to_discards(state, used)
        log(state, trace, EV_DISCARD, seat, used, 0, 0)
    if state[END_REASON] == 0 and pile_left(state) == 0:
        state[END_REASON] = END_PILE


@kernel
def cards_accounted(state):
    """All 28 court cards, each in exactly one place: thrones, hands, the drawn card, the draw pile,
    the discard pile; and 0..4 End cards revealed."""
    n = state[PLAYERS]
    seen_mask = state[DISCARDS]
    count = 0
    m = seen_mask
    while m:
        m &= m - 1
        count += 1
    for s in range(n):
        for card in (state[THRONE + s], state[HAND + s]):
            if card < 0 or card >= N_COURT or seen_mask >> card & 1:
                return False
            seen_mask |= 1 << card
            count += 1
    if state[DRAWN] != NO_CARD:
        if seen_mask >> state[DRAWN] & 1:
            return False
        seen_mask |= 1 << state[DRAWN]
        count += 1
    for i in range(state[PILE_TOP], N_COURT):
        card = state[PILE + i]
        if seen_mask >> card & 1:
            return False
        seen_mask |= 1 << card
        count += 1
    return count == N_COURT and seen_mask == (1 << N_COURT) - 1 and 0 <= state[END_SHOWN] <= N_END


# ---- scoring and the point stones ----------------------------------------------------------------
@kernel
def score_round(state, opts, trace):
    """Throne scores, totals (scoring.seat_total); the Sun -1's win alone (scoring.lone_sum), else 2
    stones for the highest alone or 1 each for the tied highest; the Moon 1's stone for the lowest
    score (moon_one_score; ties included; none after a win alone with the option lone_win = all_stones)."""
    n = state[PLAYERS]
    best, lowest, lone = NO_SCORE, -NO_SCORE, NOBODY
    for s in range(n):
        thrones = throne_score(state, opts, s)
        state[THRONE_SCORE + s] = thrones
        state[SCORE + s] = seat_total(state, opts, s, thrones)
        best = max(best, state[SCORE + s])
        lowest = min(lowest, moon_one_score(state, opts, s))
        if kind_of(opts, state[HAND + s]) == LONE and lone_sum(state, opts, s, thrones) <= LONE_LIMIT:
            lone = s
    if lone != NOBODY:
        state[ROUND_STONES + lone] += LONE_STONES
    else:
        tied = 0
        for s in range(n):
            tied += state[SCORE + s] == best
        for s in range(n):
            if state[SCORE + s] == best:
                state[ROUND_STONES + s] += HIGHEST_STONES if tied == 1 else TIED_STONES
    moon_one_counts = lone == NOBODY or not opts[OPT_LONE_ALL_STONES]
    for s in range(n):
        if moon_one_counts and kind_of(opts, state[HAND + s]) == LOWEST and moon_one_score(state, opts, s) == lowest:
            state[ROUND_STONES + s] += LOWEST_STONES
    for s in range(n):
        log(state, trace, EV_SCORE, s, state[SCORE + s], state[THRONE_SCORE + s], state[ROUND_STONES + s])


@kernel(inline="always")
def moon_one_score(state, opts, seat):
    """What the Moon 1's "lowest total score of the throne cards" compares: the throne score, or with
    the option moon_one_lowest = total the round total (score_round has set both)."""
    return state[SCORE + seat] if opts[OPT_MOON_ONE_TOTAL] else state[THRONE_SCORE + seat]


@kernel
def finish_round(state, opts, trace):
    """Stones to their owners; the match check: the first to the stones needed wins; several there:
    the most stones; tied: one more round. The next round begins left of the last turn's player."""
    n = state[PLAYERS]
    log(state, trace, EV_ROUND_END, state[LAST_TURN], state[END_REASON], 0, 0)
    top = 0
    for s in range(n):
        state[STONES + s] += state[ROUND_STONES + s]
        top = max(top, state[STONES + s])
    state[ROUND] += 1
    state[FIRST] = (state[LAST_TURN] + 1) % n
    if top >= opts[OPT_STONES_TO_WIN]:
        leaders = 0
        leader = NOBODY
        for s in range(n):
            if state[STONES + s] == top:
                leaders += 1
                leader = s
        if leaders == 1:
            state[WINNER] = leader
            state[MATCH_OVER] = 1
            log(state, trace, EV_MATCH_WIN, leader, top, 0, 0)


@kernel
def next_turn(state, opts, codes, params, restrict, rng, script, trace):
    """The turn of the player whose turn it is (the card check with OPT_CHECKS); then the next player."""
    play_turn(state, opts, codes, params, restrict, rng, script, trace)
    if opts[OPT_CHECKS] and not cards_accounted(state):
        state[BROKEN] += 1
    state[TURN_SEAT] = (state[TURN_SEAT] + 1) % state[PLAYERS]


@kernel
def end_round(state, opts, trace):
    if state[END_REASON] != END_MOON_PAIR:
        score_round(state, opts, trace)
    finish_round(state, opts, trace)


@kernel
def play_out_round(state, opts, codes, params, restrict, rng, script, trace):
    """The round's remaining turns and its end (the search's rollouts: no search seat plays)."""
    while state[END_REASON] == 0:
        next_turn(state, opts, codes, params, restrict, rng, script, trace)
    end_round(state, opts, trace)


# ---- the search policy: its turn's choice fixed at the start of its turn ---------------------------
@kernel(ROLLOUT_SIGNATURE)
def play_out(world, answer, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout (balance.engine.search): ``seat``'s turn with ``answer`` as its turn's
    choice (the PREFER mask of that decision; its own restriction otherwise holds), the round to its
    end, then rounds to ``horizon`` rounds in all (0: the end of the match), every player the
    heuristic at its defaults (the rows prepare_rollouts filled); scored by ``rollout_score``.
    Trace and script are empty."""
    codes = ints[SEARCH_CODES]
    rollout_params = floats[SEARCH_PARAMS:SEARCH_PARAMS + MAX_PLAYERS]
    no_script = ints[SEARCH_CODES, :0]
    no_trace = ints[:0, :TRACE_FIELDS]
    own = restrict[seat, TURN, PREFER]
    restrict[seat, TURN, PREFER] = 1 << answer
    next_turn(world, opts, codes, rollout_params, restrict, rng, no_script, no_trace)
    restrict[seat, TURN, PREFER] = own
    play_out_round(world, opts, codes, rollout_params, restrict, rng, no_script, no_trace)
    horizon = int(params[S_HORIZON])
    rounds = 1
    while not world[MATCH_OVER] and world[ROUND] < opts[OPT_MAX_ROUNDS] and (horizon == 0 or rounds < horizon):
        deal_round(world, opts, rng, no_trace)
        play_out_round(world, opts, codes, rollout_params, restrict, rng, no_script, no_trace)
        rounds += 1
    return rollout_score(world, seat)


@kernel
def fix_searched_turn(state, opts, codes, params, restrict, rng, search):
    """The search seat whose turn begins chooses its turn's choice by the engine's search (nothing
    happens between the turn's start and that choice, so it sees what it would see then), fixed as
    the PREFER mask of the decision (its own mask kept aside), posed as play_turn poses it."""
    ints, floats, rollout_restrict = search
    seat = state[TURN_SEAT]
    pose(state, seat, TURN, (1 << DRAW) | (1 << REVEAL_END), restrict)
    if forced(state):
        answer = answer_of(state)
    else:
        prepare_rollouts(state, seat, restrict, ints, floats, rollout_restrict)
        answer = search_answer(state, int(params[seat, S_ROLLOUTS]), opts, params[seat], rollout_restrict,
                               ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, rng,
                               sample_world, play_out)
    ints[SEARCH_SAVED, seat] = restrict[seat, TURN, PREFER]
    restrict[seat, TURN, PREFER] = 1 << answer


@kernel
def play_round(state, opts, codes, params, restrict, rng, script, trace, search):
    """A round; ``search``: the search's buffers (policies.new_search_buffers)."""
    deal_round(state, opts, rng, trace)
    while state[END_REASON] == 0:
        seat = state[TURN_SEAT]
        searching = codes[seat] == POLICY_SEARCH
        if searching:
            fix_searched_turn(state, opts, codes, params, restrict, rng, search)
        next_turn(state, opts, codes, params, restrict, rng, script, trace)
        if searching:
            restrict[seat, TURN, PREFER] = search[0][SEARCH_SAVED, seat]
    end_round(state, opts, trace)


@kernel
def new_match(state, opts):
    state[:] = 0
    state[PLAYERS] = opts[OPT_PLAYERS]
    state[FIRST] = 0  # the youngest person begins: seat 0
    state[WINNER] = NOBODY
    state[DRAWN] = NO_CARD
    state[PLACING] = NO_CARD
    state[DECK_VALUE2] = deck_value2(opts)


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
def play_match(out, base, state, opts, codes, params, restrict, rng, script, trace, search, game_index, deal_index,
               rotation):
    """Rounds until the match is decided or the round cap; rows out[base : base + max_rounds]."""
    new_match(state, opts)
    max_rounds = opts[OPT_MAX_ROUNDS]
    while not state[MATCH_OVER] and state[ROUND] < max_rounds:
        first = state[FIRST]
        play_round(state, opts, codes, params, restrict, rng, script, trace, search)
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


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, rotations, opts, slot_codes, slot_params, slot_restrict, out):
    """``count`` matches from global index ``start`` into ``out`` (count * max_rounds rows)."""
    n = opts[OPT_PLAYERS]
    max_rounds = opts[OPT_MAX_ROUNDS]
    blocks = (count + BLOCK - 1) // BLOCK
    claimed = np.zeros(1, dtype=np.int64)
    # nobody restricted: each block's restrict stays all zero (a search seat's fixed turn choice is
    # undone after its turn), so it is not seated again for every match
    restricted = any_restriction(slot_restrict)
    for _ in prange(blocks):  # threads claim blocks until none is left (kernels.claim_block)
        b = claim_block(claimed)
        while b < blocks:
            state = np.zeros(STATE_SIZE, dtype=np.int64)
            rng = np.empty(2, dtype=np.uint64)
            codes = np.empty(n, dtype=np.int64)
            params = np.empty((n, MAX_POLICY_PARAMS), dtype=np.float64)
            restrict = np.zeros((n, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
            no_script = np.zeros(0, dtype=np.int64)
            no_trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
            search = new_search_buffers()
            for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
                game_index = start + i
                deal_index, rotation = split_game_index(game_index, rotations)
                seat_policies(rotation, slot_codes, slot_params, codes, params)
                if restricted:
                    seat_restrictions(rotation, slot_restrict, restrict)
                open_stream(rng, seed, deal_index)
                play_match(out, i * max_rounds, state, opts, codes, params, restrict, rng, no_script, no_trace,
                           search, game_index, deal_index, rotation)
            b = claim_block(claimed)


@allocating_kernel
def play_traced(seed, game_index, rotations, opts, slot_codes, slot_params, slot_restrict, script, trace):
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
    play_match(out, 0, state, opts, codes, params, restrict, rng, script, trace, new_search_buffers(), game_index,
               deal_index, rotation)
    return out, state
