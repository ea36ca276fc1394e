"""Throne Arcade: the rules kernel. Every rule of the game is here, once; no policy is.

The state record is laid out in layout.py. The rules are a step kernel (balance.engine.step):
``advance`` runs them until a decision is pending (its seat, kind and legal answers in the shared
header, state[PHASE] its kind) or nothing is (``over``); ``apply_answer`` takes the answer. The
match loop (match.py) asks the seats. ``table`` is ``(opts, rng, trace)``: the rule options vector
(the deck included), the match's random stream and the event trace buffer (no rows in batch runs).
No function here creates an array.

A match is rounds until one player is left in the game. A round: shuffle, deal each player
5 minus the rounds they lost, turn the starting card; turns clockwise from the starter (the last
round's loser); a turn lays one card matching the top card's colour (or the colour a Hand named)
or type, then any further cards of that type, or draws one; the specials act on the next player;
a player who empties their hand leaves the round; the last player holding cards loses it, and is
out of the game if they started the round with one card.
"""

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.step import pose_pending  # noqa: F401 (the rules' pose_pending: the header's decision, narrowed)
from balance.engine.kernels import kernel
from balance.engine.rng import below, bit_count, bit_index, shuffle
from balance.games.throne_arcade.layout import (
    ACE, ANSWER_PENALTY, COLOURS_MASK, COLOUR_CARDS, COLOUR_IN_FORCE, DEALT, DRAWN, DRAWN_BEFORE, DRAW_PER_PENALTY_CARD,
    ELIMINATED, EV_CAP, EV_DEAL, EV_DRAW, EV_ELIMINATED, EV_LAY, EV_LOSE, EV_NAME, EV_OUT, EV_PENALTY, EV_REFRESH,
    EV_REVIVED, EV_SKIPPED, EV_START_CARD, EV_WIN, FACE, GREEN_LORD, HAND, HAND_CARD, IDLE_TURNS, IN_GAME, IN_ROUND,
    JUST_OUT, KING, KING_DRAW, KING_RULE, LAID, LAY_FIRST, LAY_MORE, LORD, LOSER, LOSSES, NAME_COLOUR, NEVER, NOBODY,
    NONE, NONE_BIT, NO_CARD, N_KINDS, N_TYPES, OPT_DECK, OPT_DECK_SIZE, OPT_HAND_ON_ANYTHING, OPT_KING_DRAWS,
    OPT_PLAYERS, OPT_PLAY_DRAWN, OPT_STACKING, OPT_STARTING_CARD_ACTS, OPT_START_HAND, OPT_TURN_CAP, ORANGE_VII,
    ORANGE_VII_CARDS, PENALTY_CARDS, PENDING_DRAW, PENDING_KING, PENDING_SKIPS, PHASE, PH_ACT, PH_END_TURN, PH_MORE,
    PH_PLAY, PH_ROUND_OVER, PH_TURN_START, PILE, PLAYERS, PLAY_DRAWN, REFRESHES, REVIVALS, REVIVAL_DRAW, ROUND,
    ROUND_CAPPED, STARTER, START_SIZE, TALON, TALON_LEN, TOP, TRACE_LEN, TURN, TURNS, TURN_STOP, TYPE_CARDS, VII,
    WINNER,
)
from balance.games.throne_arcade.table import colour_of, matching_cards, next_in_round, type_of




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
def act(state, opts, rng, trace):
    """The effects of the cards laid this turn (state[LAID]): the penalties, the orange VII's return
    of the player who emptied their hand on the last turn; a Hand's player names a colour."""
    laid = state[LAID]
    set_penalties(state, opts, laid)
    if laid & state[ORANGE_VII_CARDS] and state[JUST_OUT] != NOBODY:
        revive(state, state[JUST_OUT], rng, trace)
        state[JUST_OUT] = NOBODY
    if laid & state[TYPE_CARDS + HAND_CARD]:
        pend(state, NAME_COLOUR, COLOURS_MASK)
    else:
        state[PHASE] = PH_END_TURN


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


# ---- a turn: the steps the rules take between decisions --------------------------------------
@kernel(inline="always")
def pend(state, kind, choices):
    """Stop at a decision of state[TURN]'s: its kind and (unrestricted) legal answers."""
    state[D_SEAT] = state[TURN]
    state[D_KIND] = kind
    state[D_CHOICES] = choices
    state[PHASE] = kind


@kernel(inline="always")
def draw_penalty(state, seat, rng, trace):
    log(state, trace, EV_PENALTY, seat, NO_CARD, state[PENDING_DRAW])
    count = state[PENDING_DRAW]
    state[PENDING_DRAW] = 0
    state[PENDING_KING] = -1
    draw_cards(state, seat, count, rng, trace)


@kernel(inline="always")
def start_turn(state, opts, rng, trace):
    """Between turns: the round ends when one player holds cards; the rules stop at TURN_STOP (the
    phase stays PH_TURN_START); a round that reaches the turn cap, or stalls, stops without a loser
    (capped). Otherwise state[TURN]'s turn starts: a penalty waiting is drawn, or answered where a
    rule allows."""
    if count_in(state, IN_ROUND) <= 1:
        finish_round(state, trace)
        state[PHASE] = PH_ROUND_OVER
        return
    if state[TURNS] >= state[TURN_STOP]:
        return
    if state[TURNS] >= opts[OPT_TURN_CAP] or stalled(state):
        state[ROUND_CAPPED] = 1
        log(state, trace, EV_CAP, NOBODY, NO_CARD, state[TURNS])
        state[PHASE] = PH_ROUND_OVER
        return
    seat = state[TURN]
    state[DRAWN_BEFORE] = state[DRAWN]
    state[TURNS] += 1
    state[LAID] = 0
    state[PHASE] = PH_PLAY
    if state[PENDING_DRAW] > 0:
        answers = penalty_answers(state, opts, seat)
        if answers:
            pend(state, ANSWER_PENALTY, answers | NONE_BIT)
        else:
            draw_penalty(state, seat, rng, trace)


@kernel(inline="always")
def playable(state, opts, seat):
    """The cards ``seat`` may lay as the first card of its play."""
    return state[HAND + seat] & matching_cards(state, opts[OPT_HAND_ON_ANYTHING])


@kernel(inline="always")
def play_or_draw(state, opts, rng, trace):
    """No card laid yet: lay a first card that fits, or draw one (and, with the option, lay it if it fits)."""
    seat = state[TURN]
    legal = playable(state, opts, seat)
    if legal:
        pend(state, LAY_FIRST, legal)
        return
    card = draw_cards(state, seat, 1, rng, trace)
    fits = matching_cards(state, opts[OPT_HAND_ON_ANYTHING])
    if card != NO_CARD and opts[OPT_PLAY_DRAWN] and (1 << card) & fits:
        pend(state, PLAY_DRAWN, (1 << card) | NONE_BIT)
    else:
        state[PHASE] = PH_END_TURN


@kernel(inline="always")
def lay_more(state):
    """After a card: more of its type while the hand holds any (the last one laid is the top)."""
    more = state[HAND + state[TURN]] & state[TYPE_CARDS + type_of(state, state[TOP])]
    if more:
        pend(state, LAY_MORE, more | NONE_BIT)
    else:
        state[PHASE] = PH_ACT


@kernel(inline="always")
def end_turn(state, trace):
    """A turn in which no card moved is idle; a player left without cards leaves the round; the turn
    passes on."""
    seat = state[TURN]
    moved = state[LAID] or state[DRAWN] != state[DRAWN_BEFORE]
    state[IDLE_TURNS] = 0 if moved else state[IDLE_TURNS] + 1
    state[JUST_OUT] = NOBODY
    if state[HAND + seat] == 0:
        state[IN_ROUND + seat] = 0
        state[JUST_OUT] = seat
        log(state, trace, EV_OUT, seat, NO_CARD, 0)
    pass_turn(state, trace)
    state[PHASE] = PH_TURN_START


# ---- the step kernel (balance.engine.step) ---------------------------------------------------
@kernel(inline="always")  # into the match loop, as the rules were inlined into their turn before the step
def advance(state, table):
    """Run the rules until a decision is pending or ``over``.

    A turn's steps run in the order of their phases (PH_TURN_START < PH_PLAY < PH_MORE < PH_ACT <
    PH_END_TURN), each moving the phase forward only, so each step falls through to the next one's
    test instead of returning to a dispatch at the loop's head: the loop took a fifth of a random
    six-player round (Throne Arcade's fastest setup) when it dispatched every step."""
    opts, rng, trace = table
    while True:
        phase = state[PHASE]
        if phase == PH_TURN_START:
            start_turn(state, opts, rng, trace)
            phase = state[PHASE]
            if phase == PH_TURN_START:  # stopped at TURN_STOP
                return
        if phase == PH_PLAY:
            play_or_draw(state, opts, rng, trace)
            phase = state[PHASE]
        if phase == PH_MORE:
            lay_more(state)
            phase = state[PHASE]
        if phase == PH_ACT:
            act(state, opts, rng, trace)
            phase = state[PHASE]
        if phase != PH_END_TURN:  # a decision is pending, or the round is over
            return
        end_turn(state, trace)


@kernel(inline="always")
def over(state):
    """No decision is pending: the round is over, or the rules stopped at TURN_STOP."""
    return state[PHASE] >= N_KINDS


@kernel(inline="always")
def apply_answer(state, table, answer):
    """The pending decision answered: a card laid (the first, another of its type, one answering a
    penalty, the drawn one), a colour named, or NONE (stop, keep the drawn card, draw the penalty)."""
    opts, rng, trace = table
    kind = state[D_KIND]
    seat = state[TURN]
    if kind == NAME_COLOUR:
        state[COLOUR_IN_FORCE] = answer
        log(state, trace, EV_NAME, seat, NO_CARD, answer)
        state[PHASE] = PH_END_TURN
    elif answer == NONE:
        if kind == ANSWER_PENALTY:
            draw_penalty(state, seat, rng, trace)
            state[PHASE] = PH_PLAY
        elif kind == LAY_MORE:
            state[PHASE] = PH_ACT
        else:  # PLAY_DRAWN: the drawn card is kept
            state[PHASE] = PH_END_TURN
    else:
        if kind == ANSWER_PENALTY and state[PENDING_KING] >= 0:  # the Lord cancels the King's penalty
            state[PENDING_DRAW] = 0
            state[PENDING_KING] = -1
        lay(state, seat, answer, trace)
        state[LAID] |= 1 << answer
        state[PHASE] = PH_ACT if kind == PLAY_DRAWN else PH_MORE


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
    state[PHASE] = PH_TURN_START
    state[TURN_STOP] = NEVER


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


