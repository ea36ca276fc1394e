"""Thron der Lügen: the rules kernel. Every rule of the game is here (scoring in scoring.py), once; no
policy is.

A match is rounds until a person owns enough point stones. A round: the deal (a throne card
between each two neighbours, one hand card each, the rest the draw pile); turns clockwise from the
round's first player: reveal an End card, or draw and then swap a hand card into a throne beside
you (a Sun card into any throne), play an intrigue card, or discard; the round ends when both
Moon 3s lie beside one person (at once, 1 stone, no scoring), when the 4th End card is revealed, or
when the draw pile is used up (that turn is finished); then scoring and the point stones. The next
round begins left of whoever had the last turn.

The rules are a step kernel (balance.engine.step): ``advance`` runs them until a decision is
pending (its seat, kind and legal answers in the shared header, state[PHASE] its kind) or the round
is over (``over``); ``apply_answer`` takes the answer. The match loop (match.py) asks the seats.
``table`` is ``(opts, rng, trace)``: the options vector (with the deck table), the match's random
stream (the policies draw from it too) and the event trace (no rows in batch runs). No function
here creates an array.
"""

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.step import pose_pending  # noqa: F401 (the rules' pose_pending: the header's decision, narrowed)
from balance.engine.kernels import kernel
from balance.engine.rng import below, shuffle
from balance.games.thron_der_luegen.layout import (
    ACT, BROKEN, DISCARD, DISCARDS, DRAW, DRAWN, DRAWS, END_CARDS, END_MOON_PAIR, END_PILE, END_REASON,
    END_SHOWN, EV_DEAL, EV_DISCARD, EV_DRAW, EV_HIDE, EV_INTRIGUE, EV_MATCH_WIN, EV_MOON_PAIR, EV_PEEK,
    EV_REPLACE, EV_REVEAL_END, EV_ROUND_END, EV_SCORE, EV_SWAP, EV_THRONES_SWAPPED, FAR_SWAPS, FAR_THRONE,
    FIRST, FLIP, HAND, HIDDEN, HIDE_END, HIGHEST_STONES, INTRIGUE, INTRIGUES, KEEP, KNOWN, LAST_TURN, LONE,
    LONE_LIMIT, LONE_STONES, LOWEST, LOWEST_STONES, MATCH_OVER, MAX_PLAYERS, N_COURT, N_END, NO_CARD, NOBODY,
    OPT_CHECKS, OPT_LONE_ALL_STONES, OPT_MOON_ONE_TOTAL, OPT_PAIR_AT_DEAL, OPT_PLAYERS, OPT_SPLIT_PLACER,
    OPT_STONES_TO_WIN, PAIR, PAIR_STONES, PEEK_CHOICE, PEEK_SWAP, PEEK_TARGET, PENDING, PHASE, PH_END_TURN,
    PH_ROUND_OVER, PH_TURN_START, PILE, PILE_TOP, PLACER, PLACING, PLAY, PLAYERS, REACH_OWN, REPLACE_FROM_PILE,
    REPLACE_TARGET, REVEALS, REVEAL_END, ROUND, ROUND_STONES, SCORE, SPLIT, STONES, SUN, SWAP_FAR, SWAP_FIRST,
    SWAP_LEFT, SWAP_RIGHT, SWAP_SECOND, SWAP_THRONES, SWAPS, THRONE, THRONE_SCORE, TIED_STONES, TRACE_LEN,
    TURN, TURNS, TURN_SEAT, USED, WINNER, WITH_LEFT,
)
from balance.games.thron_der_luegen.scoring import (
    beside, effect_of, kind_of, left_throne, lone_sum, own_thrones_mask, param_of, people_of, placement_flip,
    right_throne, seat_total, throne_score,
)

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
    state[PHASE] = PH_TURN_START
    log(state, trace, EV_DEAL, state[FIRST], 0, 0, 0)
    if opts[OPT_PAIR_AT_DEAL]:
        for t in range(n):
            check_moon_pair(state, opts, t, trace)


# ---- the act's choices ----------------------------------------------------------------------------
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


# ---- a turn: the steps the rules take between decisions ----------------------------------------------
@kernel(inline="always")
def pend(state, kind, choices):
    """Stop at a decision of the player whose turn it is: its kind and (unrestricted) legal answers."""
    state[D_SEAT] = state[TURN_SEAT]
    state[D_KIND] = kind
    state[D_CHOICES] = choices
    state[PHASE] = kind


@kernel(inline="always")
def start_turn(state):
    """The turn of the player whose turn it is begins: reveal an End card, or draw."""
    state[LAST_TURN] = state[TURN_SEAT]
    state[TURNS] += 1
    pend(state, TURN, (1 << DRAW) | (1 << REVEAL_END))


@kernel
def choose_turn(state, opts, answer, trace):
    """The turn's choice: an End card revealed (the 4th ends the round), or a card drawn as the second
    hand card, then what to do with one of the two."""
    seat = state[TURN_SEAT]
    if answer == REVEAL_END:
        state[END_SHOWN] += 1
        state[REVEALS] += 1
        log(state, trace, EV_REVEAL_END, seat, state[END_SHOWN], 0, 0)
        if state[END_SHOWN] == N_END:
            state[END_REASON] = END_CARDS
        state[PHASE] = PH_END_TURN
        return
    state[DRAWN] = draw_card(state)
    state[DRAWS] += 1
    log(state, trace, EV_DRAW, seat, state[DRAWN], 0, 0)
    pend(state, ACT, act_choices(state, opts, seat))


@kernel
def place(state, opts, throne, card, rng, trace):
    """The turn's player swaps ``card`` from its hand into ``throne``."""
    seat = state[TURN_SEAT]
    old = put_on_throne(state, opts, throne, card, seat, rng)
    state[SWAPS] += 1
    log(state, trace, EV_SWAP, seat, card, throne, old)
    check_moon_pair(state, opts, throne, trace)
    end_act(state)


@kernel
def do_act(state, opts, answer, rng, trace):
    """A hand card (the one held or the one drawn) swapped into a throne, played or discarded; the
    other stays in hand."""
    seat = state[TURN_SEAT]
    n = state[PLAYERS]
    act, slot = answer // 2, answer % 2
    held, drawn = state[HAND + seat], state[DRAWN]
    used = drawn if slot else held
    state[HAND + seat] = held if slot else drawn
    state[DRAWN] = NO_CARD
    if act == SWAP_LEFT:
        place(state, opts, left_throne(seat, n), used, rng, trace)
    elif act == SWAP_RIGHT:
        place(state, opts, right_throne(seat, n), used, rng, trace)
    elif act == SWAP_FAR:
        state[PLACING] = used
        pend(state, FAR_THRONE, ((1 << n) - 1) & ~own_thrones_mask(seat, n))
    elif act == PLAY:
        state[INTRIGUES] += 1
        log(state, trace, EV_INTRIGUE, seat, used, effect_of(opts, used), 0)
        state[USED] = used
        start_intrigue(state, opts, trace)
    else:
        to_discards(state, used)
        log(state, trace, EV_DISCARD, seat, used, 0, 0)
        end_act(state)


@kernel
def start_intrigue(state, opts, trace):
    """The intrigue card state[USED] is carried out: its first decision, or at once (hide_end, or a
    replace_from_pile with the draw pile used up)."""
    seat = state[TURN_SEAT]
    n = state[PLAYERS]
    card = state[USED]
    effect, param = effect_of(opts, card), param_of(opts, card)
    every = (1 << n) - 1
    own = own_thrones_mask(seat, n)
    if effect == SWAP_THRONES:
        pend(state, SWAP_FIRST, own if param == REACH_OWN else every)
    elif effect == PEEK_SWAP:
        pend(state, PEEK_TARGET, every & ~own)
    elif effect == REPLACE_FROM_PILE and pile_left(state) > 0:
        pend(state, REPLACE_TARGET, own if param == REACH_OWN else every)
    else:
        if effect == HIDE_END:
            hidden = min(param, state[END_SHOWN])
            state[END_SHOWN] -= hidden
            state[HIDDEN] += hidden
            log(state, trace, EV_HIDE, seat, hidden, state[END_SHOWN], 0)
        end_intrigue(state)


@kernel
def answer_intrigue(state, opts, kind, answer, rng, trace):
    """An intrigue's decision answered: thrones exchanged, a throne card looked at, or one replaced."""
    seat = state[TURN_SEAT]
    n = state[PLAYERS]
    if kind == SWAP_FIRST:
        state[PENDING] = answer
        pend(state, SWAP_SECOND, ((1 << n) - 1) & ~(1 << answer))
        return
    if kind == SWAP_SECOND:
        exchange_thrones_seen(state, opts, seat, state[PENDING], answer, trace)
    elif kind == PEEK_TARGET:
        state[KNOWN + seat * MAX_PLAYERS + answer] = state[THRONE + answer]
        state[PENDING] = answer
        log(state, trace, EV_PEEK, seat, answer, state[THRONE + answer], 0)
        if param_of(opts, state[USED]):
            pend(state, PEEK_CHOICE, 0b111)
            return
    elif kind == PEEK_CHOICE:
        if answer != KEEP:
            mine = left_throne(seat, n) if answer == WITH_LEFT else right_throne(seat, n)
            exchange_thrones_seen(state, opts, seat, state[PENDING], mine, trace)
    else:  # REPLACE_TARGET
        new = draw_card(state)
        old = put_on_throne(state, opts, answer, new, NOBODY, rng)
        log(state, trace, EV_REPLACE, seat, answer, old, new)
        check_moon_pair(state, opts, answer, trace)
    end_intrigue(state)


@kernel(inline="always")
def exchange_thrones_seen(state, opts, seat, a, b, trace):
    exchange_thrones(state, a, b)
    log(state, trace, EV_THRONES_SWAPPED, seat, a, b, 0)
    check_moon_pair(state, opts, a, trace)
    check_moon_pair(state, opts, b, trace)


@kernel(inline="always")
def end_intrigue(state):
    """The intrigue card, carried out, is placed on the discard pile."""
    to_discards(state, state[USED])
    state[USED] = NO_CARD
    end_act(state)


@kernel(inline="always")
def end_act(state):
    """After the card was used: the draw pile used up ends the round (the turn is finished)."""
    if state[END_REASON] == 0 and pile_left(state) == 0:
        state[END_REASON] = END_PILE
    state[PHASE] = PH_END_TURN


@kernel(inline="always")
def end_turn(state, opts):
    """The card check (with OPT_CHECKS), then the next player."""
    if opts[OPT_CHECKS] and not cards_accounted(state):
        state[BROKEN] += 1
    state[TURN_SEAT] = (state[TURN_SEAT] + 1) % state[PLAYERS]
    state[PHASE] = PH_TURN_START


# ---- the card check --------------------------------------------------------------------------------
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
def end_round(state, opts, trace):
    if state[END_REASON] != END_MOON_PAIR:
        score_round(state, opts, trace)
    finish_round(state, opts, trace)


# ---- the step kernel (balance.engine.step) --------------------------------------------------------
@kernel(inline="always")
def advance(state, table):
    """Run the rules until a decision is pending or ``over``: a finished turn passes on; a turn starts,
    or, once the round has ended, the round is scored."""
    opts, rng, trace = table
    if state[PHASE] == PH_END_TURN:
        end_turn(state, opts)
    if state[PHASE] == PH_TURN_START:
        if state[END_REASON] == 0:
            start_turn(state)
        else:
            end_round(state, opts, trace)
            state[PHASE] = PH_ROUND_OVER


@kernel(inline="always")
def over(state):
    """Nothing is pending: the round is over (scored, its stones handed out)."""
    return state[PHASE] == PH_ROUND_OVER


@kernel(inline="always")
def apply_answer(state, table, answer):
    """The pending decision answered: the turn's choice, the act, a Sun card's far throne, an
    intrigue's decision."""
    opts, rng, trace = table
    kind = state[D_KIND]
    if kind == TURN:
        choose_turn(state, opts, answer, trace)
    elif kind == ACT:
        do_act(state, opts, answer, rng, trace)
    elif kind == FAR_THRONE:
        state[FAR_SWAPS] += 1
        used = state[PLACING]
        state[PLACING] = NO_CARD
        place(state, opts, answer, used, rng, trace)
    else:
        answer_intrigue(state, opts, kind, answer, rng, trace)


# ---- a match --------------------------------------------------------------------------------------
@kernel
def new_match(state, opts):
    state[:] = 0
    state[PLAYERS] = opts[OPT_PLAYERS]
    state[FIRST] = 0  # the youngest person begins: seat 0
    state[WINNER] = NOBODY
    state[DRAWN] = NO_CARD
    state[PLACING] = NO_CARD
    state[USED] = NO_CARD
