"""Throne Arcade: the rules kernel. Every rule of the game is here, once.

The state record is laid out in layout.py. The kernel's arguments,
``opts, codes, params, restrict, rng, script, trace, work``, are passed along to every function
that needs them: the rule options vector (the deck included), the policy code, parameter row and
decision restriction of each seat, the match's random stream, the scripted decisions (tests and
positions), the event trace buffer (no rows in batch runs) and the policies' scratch buffer
(allocated once per block of matches). No function here creates an array.

A match is rounds until one player is left in the game. A round: shuffle, deal each player
5 minus the rounds they lost, turn the starting card; turns clockwise from the starter (the last
round's loser); a turn lays one card matching the top card's colour (or the colour a Hand named)
or type, then any further cards of that type, or draws one; the specials act on the next player;
a player who empties their hand leaves the round; the last player holding cards loses it, and is
out of the game if they started the round with one card.

The search policy chooses its first card at the start of its play (fix_searched_lay, in the turn
loop of play_round, after any penalty is drawn): its rollouts play turns through ``take_turn``
with the heuristic, so the rules reach the search only from that loop, never from inside a turn.
"""

import numpy as np
from numba import prange

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.decision import N_KINDS_MAX, PREFER, RESTRICT_SIDES, answer_of, forced, pose
from balance.engine.kernels import allocating_kernel, kernel, seat_policies, seat_restrictions, split_game_index
from balance.engine.rng import below, bit_count, bit_index, open_stream, shuffle
from balance.engine.search import ROLLOUT_SIGNATURE, search_answer
from balance.games.throne_arcade.layout import (
    ACE, ANSWER_PENALTY, COLOUR_CARDS, COLOUR_IN_FORCE, C_ALIVE, C_CAPPED, C_DEAL, C_DRAWN, C_ELIMINATED, C_GAME,
    C_HAND_SIZE, C_LAST_ROUND, C_LOSER, C_MATCH_CAPPED, C_MATCH_ROUNDS, C_MATCH_WINNER, C_PLAYERS, C_PREV_LOSER,
    C_PREV_LOSER_LOST, C_REFRESHES, C_REVIVALS, C_ROTATION, C_ROW, C_SPECIALS, C_STARTER, C_STARTER_LOST, C_TURNS,
    DEALT, DRAWN, DRAW_PER_PENALTY_CARD, ELIMINATED, EV_CAP, EV_DEAL, EV_DRAW, EV_ELIMINATED, EV_LAY, EV_LOSE,
    EV_NAME, EV_OUT, EV_PENALTY, EV_REFRESH, EV_REVIVED, EV_SKIPPED, EV_START_CARD, EV_WIN, FACE, GREEN_LORD, HAND,
    HAND_CARD, IDLE_TURNS, IN_GAME, IN_ROUND, JUST_OUT, KING, KING_DRAW, KING_RULE, LAY_FIRST, LAY_MORE, LORD,
    LOSER, LOSSES, MAX_PLAYERS, NAME_COLOUR, NOBODY, NONE, NO_CARD, N_COLOURS, N_COLUMNS, N_TYPES, OPT_DECK,
    OPT_DECK_SIZE, OPT_HAND_ON_ANYTHING, OPT_KING_DRAWS, OPT_MAX_ROUNDS, OPT_PLAYERS, OPT_PLAY_DRAWN, OPT_STACKING,
    OPT_STARTING_CARD_ACTS, OPT_START_HAND, OPT_TURN_CAP, ORANGE_VII, ORANGE_VII_CARDS, PENALTY_CARDS, PENDING_DRAW,
    PENDING_KING, PENDING_SKIPS, PILE, PLAYERS, PLAY_DRAWN, POLICY_SEARCH, REFRESHES, REVIVALS, REVIVAL_DRAW, ROUND,
    ROUND_CAPPED, SPECIAL_BITS, SPECIAL_MAX, STARTER, START_SIZE, STATE_SIZE, TALON, TALON_LEN, TOP, TRACE_FIELDS,
    TRACE_LEN, TURN, TURNS, TYPE_CARDS, VII, WINNER,
)
from balance.games.throne_arcade.policies import (
    SEARCH_CODES, SEARCH_PARAMS, SEARCH_SAMPLED, SEARCH_SAVED, SEARCH_TOTALS, SEARCH_WORLD, S_HORIZON, S_ROLLOUTS,
    WORK_ROWS, ask, new_search_buffers, new_work_buffer, prepare_rollouts, rollout_score, sample_world,
)
from balance.games.throne_arcade.table import colour_of, matching_cards, next_in_round, type_of

BLOCK = 64  # matches per parallel work item (scratch buffers are reused within a block)
NONE_BIT = 1 << NONE


# ---- small state helpers -------------------------------------------------------------------
@kernel(inline="always")
def log(state, trace, event, seat, card, value):
    """Append an event to the trace (a no-op in batch runs, where the buffer has no rows)."""
    k = state[TRACE_LEN]
    if k < trace.shape[0]:
        trace[k, 0], trace[k, 1], trace[k, 2], trace[k, 3], trace[k, 4] = state[ROUND], event, seat, card, value
        state[TRACE_LEN] = k + 1


@kernel(inline="always")
def next_in_game(state, seat):
    """``seat`` if it is still in the game, else the next seat clockwise that is."""
    n = state[PLAYERS]
    for k in range(n):
        s = (seat + k) % n
        if state[IN_GAME + s]:
            return s
    return NOBODY


@kernel(inline="always")
def count_in(state, block):
    count = 0
    for s in range(state[PLAYERS]):
        count += state[block + s] != 0
    return count


# ---- the talon -----------------------------------------------------------------------------
@kernel
def refresh_talon(state, rng, trace):
    """The talon is empty: the top card stays, the rest of the pile is shuffled into a new talon."""
    rest = state[PILE] & ~(1 << state[TOP])
    k = 0
    while rest:
        card = bit_index(rest & -rest)
        rest &= rest - 1
        state[TALON + k] = card
        k += 1
    state[TALON_LEN] = k
    shuffle(rng, state[TALON:TALON + k], k)
    state[PILE] = 1 << state[TOP]
    state[REFRESHES] += 1
    log(state, trace, EV_REFRESH, NOBODY, NO_CARD, k)


@kernel
def draw_cards(state, seat, count, rng, trace):
    """``seat`` draws ``count`` cards from the talon, refreshing it when it runs out; with every
    other card in hands there is nothing to draw (returns the last card drawn, or NO_CARD)."""
    card = NO_CARD
    for _ in range(count):
        if state[TALON_LEN] == 0:
            refresh_talon(state, rng, trace)
            if state[TALON_LEN] == 0:
                break
        state[TALON_LEN] -= 1
        card = state[TALON + state[TALON_LEN]]
        state[HAND + seat] |= 1 << card
        state[DRAWN] += 1
        log(state, trace, EV_DRAW, seat, card, 0)
    return card


# ---- laying cards and their effects ----------------------------------------------------------
@kernel(inline="always")
def lay(state, seat, card, trace):
    """``card`` goes from the hand onto the pile: the new top card and the colour in force."""
    state[HAND + seat] &= ~(1 << card)
    state[PILE] |= 1 << card
    state[TOP] = card
    state[COLOUR_IN_FORCE] = colour_of(state, card)
    log(state, trace, EV_LAY, seat, card, 0)


@kernel(inline="always")
def lay_group(state, opts, seat, first, codes, params, restrict, rng, script, trace, work):
    """Lay ``first``, then as many further cards of its type as the player wants (each answer is the
    next card; the last one laid is the top). Returns the mask of the cards laid."""
    lay(state, seat, first, trace)
    laid = 1 << first
    same = state[TYPE_CARDS + type_of(state, first)]
    while state[HAND + seat] & same:
        more = ask(state, LAY_MORE, seat, (state[HAND + seat] & same) | NONE_BIT, codes, params, restrict, rng,
                   script, work)
        if more == NONE:
            break
        lay(state, seat, more, trace)
        laid |= 1 << more
    return laid


@kernel
def revive(state, seat, rng, trace):
    """The orange VII: the player who emptied their hand on the last turn is back and draws 3."""
    state[IN_ROUND + seat] = 1
    state[REVIVALS] += 1
    log(state, trace, EV_REVIVED, seat, NO_CARD, 0)
    draw_cards(state, seat, REVIVAL_DRAW, rng, trace)


@kernel(inline="always")
def set_penalties(state, opts, laid):
    """What the cards just laid (``laid``, one type) do to the players after: a draw of 3 per VII or
    green Lord (5 per King where the option says so) for the next player, one skipped player per Ace."""
    state[PENDING_DRAW] += DRAW_PER_PENALTY_CARD * bit_count(laid & state[PENALTY_CARDS])
    kings = bit_count(laid & state[TYPE_CARDS + KING])
    if opts[OPT_KING_DRAWS] and kings:
        state[PENDING_DRAW] += KING_DRAW * kings
        state[PENDING_KING] = colour_of(state, state[TOP])
    state[PENDING_SKIPS] += bit_count(laid & state[TYPE_CARDS + ACE])


@kernel(inline="always")
def act(state, opts, seat, laid, codes, params, restrict, rng, script, trace, work):
    """The effects of the cards ``seat`` just laid: the penalties, the orange VII's return of the
    player who emptied their hand on the last turn, a Hand's colour."""
    set_penalties(state, opts, laid)
    if laid & state[ORANGE_VII_CARDS] and state[JUST_OUT] != NOBODY:
        revive(state, state[JUST_OUT], rng, trace)
        state[JUST_OUT] = NOBODY
    if laid & state[TYPE_CARDS + HAND_CARD]:
        colour = ask(state, NAME_COLOUR, seat, (1 << N_COLOURS) - 1, codes, params, restrict, rng, script, work)
        state[COLOUR_IN_FORCE] = colour
        log(state, trace, EV_NAME, seat, NO_CARD, colour)


@kernel(inline="always")
def penalty_answers(state, opts, seat):
    """The cards ``seat`` may lay instead of drawing a penalty: the Lord of a penalising King's
    colour (option king_draws_5), or, with stacking, a fitting VII or green Lord."""
    hand = state[HAND + seat]
    if state[PENDING_KING] >= 0:
        return hand & state[TYPE_CARDS + LORD] & state[COLOUR_CARDS + state[PENDING_KING]]
    if opts[OPT_STACKING]:
        return hand & state[PENALTY_CARDS] & matching_cards(state, opts[OPT_HAND_ON_ANYTHING])
    return 0


# ---- a turn --------------------------------------------------------------------------------
@kernel(inline="always")
def take_penalty(state, opts, codes, params, restrict, rng, script, trace, work):
    """The start of state[TURN]'s turn: a penalty waiting is drawn, or answered where a rule allows.
    Returns the cards laid answering it (0: none, the turn's play follows)."""
    seat = state[TURN]
    state[TURNS] += 1
    laid = 0
    if state[PENDING_DRAW] > 0:
        answers = penalty_answers(state, opts, seat)
        answer = NONE
        if answers:
            answer = ask(state, ANSWER_PENALTY, seat, answers | NONE_BIT, codes, params, restrict, rng, script, work)
        if answer != NONE:
            if state[PENDING_KING] >= 0:  # the Lord cancels the King's penalty
                state[PENDING_DRAW] = 0
                state[PENDING_KING] = -1
            laid = lay_group(state, opts, seat, answer, codes, params, restrict, rng, script, trace, work)
        else:
            log(state, trace, EV_PENALTY, seat, NO_CARD, state[PENDING_DRAW])
            count = state[PENDING_DRAW]
            state[PENDING_DRAW] = 0
            state[PENDING_KING] = -1
            draw_cards(state, seat, count, rng, trace)
    return laid


@kernel(inline="always")
def playable(state, opts, seat):
    """The cards ``seat`` may lay as the first card of its play."""
    return state[HAND + seat] & matching_cards(state, opts[OPT_HAND_ON_ANYTHING])


@kernel(inline="always")
def finish_turn(state, opts, laid, drawn_before, codes, params, restrict, rng, script, trace, work):
    """The rest of state[TURN]'s turn: one play of cards of one type, or a draw (unless ``laid``
    answered a penalty), the effects of the cards laid; a player left without cards leaves the
    round. ``drawn_before``: state[DRAWN] at the turn's start (a turn in which no card moved is idle)."""
    seat = state[TURN]
    if laid == 0:
        legal = playable(state, opts, seat)
        if legal:
            first = ask(state, LAY_FIRST, seat, legal, codes, params, restrict, rng, script, work)
            laid = lay_group(state, opts, seat, first, codes, params, restrict, rng, script, trace, work)
        else:
            card = draw_cards(state, seat, 1, rng, trace)
            fits = matching_cards(state, opts[OPT_HAND_ON_ANYTHING])
            if card != NO_CARD and opts[OPT_PLAY_DRAWN] and (1 << card) & fits:
                if ask(state, PLAY_DRAWN, seat, (1 << card) | NONE_BIT, codes, params, restrict, rng, script,
                       work) == card:
                    lay(state, seat, card, trace)
                    laid = 1 << card
    if laid:
        act(state, opts, seat, laid, codes, params, restrict, rng, script, trace, work)
    state[IDLE_TURNS] = 0 if laid or state[DRAWN] != drawn_before else state[IDLE_TURNS] + 1
    state[JUST_OUT] = NOBODY
    if state[HAND + seat] == 0:
        state[IN_ROUND + seat] = 0
        state[JUST_OUT] = seat
        log(state, trace, EV_OUT, seat, NO_CARD, 0)


@kernel
def take_turn(state, opts, codes, params, restrict, rng, script, trace, work):
    """The turn of state[TURN]: a penalty first (drawn, or answered where a rule allows), then one
    play of cards of one type, or a draw; a player left without cards leaves the round."""
    drawn_before = state[DRAWN]
    laid = take_penalty(state, opts, codes, params, restrict, rng, script, trace, work)
    finish_turn(state, opts, laid, drawn_before, codes, params, restrict, rng, script, trace, work)


@kernel(inline="always")
def skip_from(state, seat, trace):
    """The seat that takes the next turn, ``seat`` or later: one player passed over per pending Ace."""
    while state[PENDING_SKIPS] > 0:
        state[PENDING_SKIPS] -= 1
        log(state, trace, EV_SKIPPED, seat, NO_CARD, 0)
        seat = next_in_round(state, seat)
    return seat


@kernel(inline="always")
def pass_turn(state, trace):
    state[TURN] = skip_from(state, next_in_round(state, state[TURN]), trace)


# ---- a round -------------------------------------------------------------------------------
@kernel
def deal_round(state, opts, rng, trace):
    """Shuffle the whole deck, deal each player in the game 5 minus the rounds they lost, turn the
    starting card; the starter (state[STARTER]) has the first turn."""
    n = state[PLAYERS]
    size = opts[OPT_DECK_SIZE]
    for card in range(size):
        state[TALON + card] = card
    shuffle(rng, state[TALON:TALON + size], size)
    state[TALON_LEN] = size
    for counter in (TURNS, IDLE_TURNS, DRAWN, REFRESHES, REVIVALS, ROUND_CAPPED, PENDING_DRAW, PENDING_SKIPS):
        state[counter] = 0
    state[PENDING_KING] = -1
    state[JUST_OUT] = NOBODY
    state[LOSER] = NOBODY
    state[ELIMINATED] = NOBODY
    for s in range(n):
        state[HAND + s] = 0
        state[IN_ROUND + s] = state[IN_GAME + s]
        hand = opts[OPT_START_HAND] - state[LOSSES + s] if state[IN_GAME + s] else 0
        state[START_SIZE + s] = hand
        for _ in range(hand):
            state[TALON_LEN] -= 1
            state[HAND + s] |= 1 << state[TALON + state[TALON_LEN]]
        state[DEALT + s] = state[HAND + s]
        log(state, trace, EV_DEAL, s, NO_CARD, state[HAND + s])
    state[TALON_LEN] -= 1
    top = state[TALON + state[TALON_LEN]]
    state[TOP] = top
    state[PILE] = 1 << top
    state[COLOUR_IN_FORCE] = colour_of(state, top)
    log(state, trace, EV_START_CARD, NOBODY, top, 0)
    if opts[OPT_STARTING_CARD_ACTS]:  # a starting Hand keeps its own colour: nobody names one
        set_penalties(state, opts, 1 << top)
    state[TURN] = skip_from(state, state[STARTER], trace)


@kernel
def finish_round(state, trace):
    """The last player holding cards loses the round; having started it with one card, they are out
    of the game. The last player left in the game wins the match."""
    loser = NOBODY
    for s in range(state[PLAYERS]):
        if state[IN_ROUND + s]:
            loser = s
    state[LOSER] = loser
    state[LOSSES + loser] += 1
    log(state, trace, EV_LOSE, loser, NO_CARD, state[LOSSES + loser])
    if state[START_SIZE + loser] == 1:
        state[IN_GAME + loser] = 0
        state[ELIMINATED] = loser
        log(state, trace, EV_ELIMINATED, loser, NO_CARD, 0)
    if count_in(state, IN_GAME) == 1:
        state[WINNER] = next_in_game(state, loser)
        log(state, trace, EV_WIN, state[WINNER], NO_CARD, state[ROUND] + 1)


@kernel
def start_next_round(state):
    """The loser starts the next round; an eliminated loser's left-hand neighbour still in does."""
    state[STARTER] = next_in_game(state, state[LOSER])
    state[ROUND] += 1


@kernel(inline="always")
def stalled(state):
    """Every player in the round took a turn in which no card moved (the talon and the pile are
    empty but for the top card, and nobody can follow it): every later turn would be the same."""
    return state[IDLE_TURNS] > 0 and state[IDLE_TURNS] >= count_in(state, IN_ROUND)


@kernel(inline="always")
def round_goes_on(state, opts, trace):
    """More than one player holds cards and the round is neither capped nor stalled; a round that
    reaches the turn cap, or stalls, stops without a loser (capped)."""
    if count_in(state, IN_ROUND) <= 1:
        return False
    if state[TURNS] >= opts[OPT_TURN_CAP] or stalled(state):
        state[ROUND_CAPPED] = 1
        log(state, trace, EV_CAP, NOBODY, NO_CARD, state[TURNS])
        return False
    return True


# ---- the search policy: its first card fixed at the start of its play ------------------------
@kernel(ROLLOUT_SIGNATURE)
def play_out(world, card, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout (balance.engine.search): the rest of this turn with ``seat`` laying
    ``card`` first (the PREFER mask of its LAY_FIRST; its own restriction otherwise holds), then
    ``horizon`` further turns (0: to the round's end), every player the heuristic at its defaults
    (the rows prepare_rollouts filled); scored by ``rollout_score``. Trace and script are empty."""
    codes = ints[SEARCH_CODES]
    rollout_params = floats[SEARCH_PARAMS:SEARCH_PARAMS + MAX_PLAYERS]
    work = floats[:WORK_ROWS]
    no_script = ints[SEARCH_CODES, :0]
    no_trace = ints[:0, :TRACE_FIELDS]
    own = restrict[seat, LAY_FIRST, PREFER]
    restrict[seat, LAY_FIRST, PREFER] = 1 << card
    # the seat lays a card, so the turn is not idle whatever drawn_before says
    finish_turn(world, opts, 0, world[DRAWN], codes, rollout_params, restrict, rng, no_script, no_trace, work)
    restrict[seat, LAY_FIRST, PREFER] = own
    pass_turn(world, no_trace)
    horizon = int(params[S_HORIZON])
    turns = 0
    while (horizon == 0 or turns < horizon) and round_goes_on(world, opts, no_trace):
        take_turn(world, opts, codes, rollout_params, restrict, rng, no_script, no_trace, work)
        pass_turn(world, no_trace)
        turns += 1
    return rollout_score(world, seat)


@kernel
def fix_searched_lay(state, opts, codes, params, restrict, rng, search):
    """A search seat about to lay its first card (its penalty, if any, drawn) chooses it by the
    engine's search; the card is fixed as the PREFER mask of its LAY_FIRST (its own mask kept
    aside, see release_searched_lay). The choice is posed as the play will pose it. Returns 1 when
    a card was fixed (the seat has a card to lay), else 0."""
    seat = state[TURN]
    legal = playable(state, opts, seat)
    if legal == 0:
        return 0
    ints, floats, rollout_restrict = search
    pose(state, seat, LAY_FIRST, legal, restrict)
    if forced(state):
        card = answer_of(state)
    else:
        prepare_rollouts(state, seat, restrict, ints, floats, rollout_restrict)
        card = search_answer(state, int(params[seat, S_ROLLOUTS]), opts, params[seat], rollout_restrict,
                             ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, rng,
                             sample_world, play_out)
    ints[SEARCH_SAVED, seat] = restrict[seat, LAY_FIRST, PREFER]
    restrict[seat, LAY_FIRST, PREFER] = 1 << card
    return 1


@kernel
def release_searched_lay(seat, restrict, search):
    """The search seat's own PREFER mask back after its turn."""
    restrict[seat, LAY_FIRST, PREFER] = search[0][SEARCH_SAVED, seat]


@kernel(inline="always")
def play_turn(state, opts, codes, params, restrict, rng, script, trace, work, search):
    """The turn of state[TURN] as every match plays it: ``take_turn``'s two halves, with a search
    seat's first card searched and fixed between them (after its penalty is drawn). ``search``: the
    search's buffers (policies.new_search_buffers)."""
    seat = state[TURN]
    drawn_before = state[DRAWN]
    laid = take_penalty(state, opts, codes, params, restrict, rng, script, trace, work)
    fixed = 0
    if laid == 0 and codes[seat] == POLICY_SEARCH:
        fixed = fix_searched_lay(state, opts, codes, params, restrict, rng, search)
    finish_turn(state, opts, laid, drawn_before, codes, params, restrict, rng, script, trace, work)
    if fixed:
        release_searched_lay(seat, restrict, search)


@kernel
def play_round(state, opts, codes, params, restrict, rng, script, trace, work, search):
    """Deal and play turns until one player holds cards; a stalled round, or one that reaches the
    turn cap, stops without a loser (capped)."""
    deal_round(state, opts, rng, trace)
    while round_goes_on(state, opts, trace):
        play_turn(state, opts, codes, params, restrict, rng, script, trace, work, search)
        pass_turn(state, trace)
    if not state[ROUND_CAPPED]:
        finish_round(state, trace)


# ---- a match -------------------------------------------------------------------------------
@kernel
def start_match(state, opts, rng):
    """A fresh match: the deck's card faces and masks, every player in with no loss; the first
    round's starter is drawn at random (the rulebook's youngest player)."""
    state[:] = 0
    n = opts[OPT_PLAYERS]
    state[PLAYERS] = n
    state[WINNER] = NOBODY
    for card in range(opts[OPT_DECK_SIZE]):
        face = opts[OPT_DECK + card]
        state[FACE + card] = face
        bit = 1 << card
        state[COLOUR_CARDS + face // N_TYPES] |= bit
        state[TYPE_CARDS + face % N_TYPES] |= bit
        if face % N_TYPES == VII or face == GREEN_LORD:
            state[PENALTY_CARDS] |= bit
        if face == ORANGE_VII:
            state[ORANGE_VII_CARDS] |= bit
    state[KING_RULE] = opts[OPT_KING_DRAWS]
    for s in range(n):
        state[IN_GAME + s] = 1
    state[STARTER] = below(rng, n)


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


@kernel
def play_match(out, base, state, opts, codes, params, restrict, rng, script, trace, work, search, game_index,
               deal_index, rotation):
    """Rounds until one player is left (or a round or the match hits its cap): rows
    out[base : base + max_rounds], unused rows with -1 in every column but ``game``."""
    start_match(state, opts, rng)
    rows = opts[OPT_MAX_ROUNDS]
    played = 0
    prev_loser = NOBODY
    for r in range(rows):
        alive = count_in(state, IN_GAME)
        play_round(state, opts, codes, params, restrict, rng, script, trace, work, search)
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


@kernel
def run_match(out, base, bufs, work, search, seed, game_index, rotations, opts, script, trace):
    """One match, its players already seated (seat_rotation) for its rotation."""
    state, rng, codes, params, restrict = bufs
    deal_index, rotation = split_game_index(game_index, rotations)
    open_stream(rng, seed, deal_index)
    play_match(out, base, state, opts, codes, params, restrict, rng, script, trace, work, search, game_index,
               deal_index, rotation)
    return state[TRACE_LEN]


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, rotations, opts, slot_codes, slot_params, slot_restrict):
    """``count`` matches from global index ``start``: rows (count * max_rounds, N_COLUMNS)."""
    rows = opts[OPT_MAX_ROUNDS]
    out = np.empty((count * rows, N_COLUMNS), dtype=np.int32)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        bufs = match_buffers(len(slot_codes))
        work = new_work_buffer()
        search = new_search_buffers()
        no_script = np.zeros(0, dtype=np.int64)
        no_trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
        seated = -1  # the rotation the buffers hold: with one rotation (self-play) a block seats once
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rotation = split_game_index(start + i, rotations)[1]
            if rotation != seated:
                seat_rotation(bufs, rotation, slot_codes, slot_params, slot_restrict)
                seated = rotation
            run_match(out, i * rows, bufs, work, search, seed, start + i, rotations, opts, no_script, no_trace)
    return out


@allocating_kernel
def simulate_traced(seed, game_index, rotations, opts, slot_codes, slot_params, slot_restrict, trace):
    """One match with the trace on, through the batch's own code path: (rows, state, events)."""
    rows = opts[OPT_MAX_ROUNDS]
    out = np.empty((rows, N_COLUMNS), dtype=np.int32)
    bufs = match_buffers(len(slot_codes))
    seat_rotation(bufs, split_game_index(game_index, rotations)[1], slot_codes, slot_params, slot_restrict)
    fill = run_match(out, 0, bufs, new_work_buffer(), new_search_buffers(), seed, game_index, rotations, opts,
                     np.zeros(0, dtype=np.int64), trace)
    return out, bufs[0], fill
