"""Take the Throne: the rules kernel. Every rule of the game is here, once; no policy is.

The state record is laid out in layout.py. The rules are a step kernel (balance.engine.step):
``advance`` runs them until a decision is pending (its seat, kind and legal answers in the shared
header, state[PHASE] its kind) or nothing is (``over``); ``apply_answer`` takes the answer. The
game loop (match.py) asks the seats. ``table`` is ``(opts, rng, trace)``: the rule options vector,
the game's random stream and the event trace buffer (size 0 in batch runs). The step functions
take those arrays one by one, not the tuple, and create no array views: that lets Numba drop the
reference counting from them, which would otherwise cost more than the rules themselves.

Round (3 to 5 players): simultaneous selection; reveal from the Monarch clockwise, each card's
immediate action resolving at once; resolution (Defend and the contest checks, ties chosen by the
Monarch, Entrap and Abdicate); VP for the throne, then the other end-of-turn texts clockwise from
the Monarch; cleanup; the Monarch with 8+ VP after cleanup wins. Defend and Authority act at
resolution unless their timing options move them to their reveal. The 2-player mode has its own
round after the selection (resolve_two_player).

The selection is simultaneous: the rules ask the players one at a time, in seat order, but no card
leaves a hand before every player has chosen, and the cards chosen (state[CHOICE]) are hidden
until then: no policy reads them, and a world dealt for the search leaves the others' unmade.
"""

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.step import pose_pending  # noqa: F401 (the rules' pose_pending: the header's decision, narrowed)
from balance.engine.kernels import inlined_into, kernel
from balance.engine.rng import random_bit
from balance.games.take_the_throne.layout import (
    ABDICATE, ABDICATED, ACCEPT, ACTING, ALLY, ALLY_ACCEPT, ALLY_SETTLED, ALLY_VP, AMBUSH, AMBUSH_SPRUNG, AMBUSH_VP,
    AMBUSHES, ATTACK, AUTHORITY, BY_ALLY, BY_CHARGES, BY_DEFEND, BY_NO_ATTACK, BY_NO_SINGLE_CHARGE, BY_RAID, CHAOS,
    CHARGE, CHARGE_CLASHES, CHECK_CHARGES, CHECK_INFILTRATE, CHOICE, COMMAND, COMMAND_REPLACE, COMMAND_VIEW,
    CONSOLIDATE, CROWN_CORE, CURSOR, DECLINE, DEFEND, DISCARD, DOMINATE, ENTRAP, ENTRAP_FLIPS, ENTRAP_GIVE,
    EV_AMBUSH, EV_CAP, EV_DISCARD, EV_FEINT, EV_PICKUP, EV_REINFORCE, EV_REPLACE, EV_RETAIN, EV_REVEAL, EV_ROUND,
    EV_SELECT, EV_SWAP, EV_TAKE, EV_TAKE_BACK, EV_VIEW, EV_VP, EV_WIN, EXTRA, FEINT, FEINT_EXTRA, HAND, HOUSE_CORE,
    INFILTRATE, MAIN, MAX_PLAYERS, MIRROR_CROWN_KEPT, MIRROR_CROWN_KEPT_MASK, MIRROR_CROWN_POOL, MIRROR_HOUSE_KEPT,
    MIRROR_HOUSE_KEPT_MASK, MIRROR_HOUSE_POOL, MODE_ASYMMETRIC, MODE_CORE, MODE_CUSTOM, MODE_MIRROR, MODE_TWO_PLAYER,
    MONARCH, MONARCH_HAND_SIZE, HOUSE_HAND_SIZE, NEVER, NO_CARD, NOBODY, N_KINDS, OPT_ABDICATE_SABOTAGE,
    OPT_AMBUSH_ON_VIEW, OPT_AUTHORITY_IMMEDIATE, OPT_CONTEST_ORDER, OPT_CUSTOM_CROWN, OPT_CUSTOM_HOUSE,
    OPT_DEFEND_IMMEDIATE, OPT_ENTRAP_RETAINS_AFTER_ABDICATE, OPT_FEINT_FROM_DISCARD, OPT_MAX_ROUNDS, OPT_MODE,
    OPT_PLAYERS, OPT_REPLACE_PICKS_UP, OPT_SABOTAGE_MONARCH, OPT_TAKE_BACK_PAYS, OWNED, PHASE, PH_AWARD, PH_CLEANUP,
    PH_COMMAND_REPLACE, PH_ENTRAP, PH_GAME_OVER, PH_REVEAL, PH_ROUND_START, PH_SELECT, PH_SETTLE, PH_TALLY,
    PH_TWO_PLAYER, PLAYERS, PLAYS, RAID, RAID_TARGET, RAVEN, REIGNS, REINFORCE, REPLACEMENT_CARD, RETAIN_VP,
    RETAIN_VP_TWO_PLAYER, RETAINED, RETENTIONS, REVEALED, ROUND, ROUND_STOP, RULESET, SABOTAGE, SABOTAGE_TARGET,
    SELECT_CARD, SHOWN, STAGE, START_VP, START_VP_TWO_PLAYER, STEAL_VICTIM, STRENGTH, TAKE_BACK_PAY, TAKE_BACK_VP,
    TAKER, TAKE_VP, TAKE_VP_TWO_PLAYER, TAKES, TIE_BREAK, TRACE_LEN, TWO_PLAYER_CARDS, VIEWED_CARD, VIEWED_SEAT, VP,
    VP_ABDICATE, VP_ALLY, VP_ALLY_BONUS, VP_AMBUSH, VP_AUTHORITY, VP_CONSOLIDATE, VP_ENTRAP, VP_FEINT,
    VP_FEINT_COST, VP_RAVEN, VP_REINFORCE, VP_RETAIN, VP_SABOTAGE, VP_TAKE, VP_TAKE_BACK, WIN_VP, WINNER,
)

# The phase steps ``advance`` and ``apply_answer`` call are inlined into the two game loops, the batch's
# (match.play_on) and a search's rollout (policies.finish): called, each passed its arrays field by
# field, a loop spent more on the calls than on some steps. In a search's tree descent, a few steps
# an iteration, they stay calls: inlined there too, the tree search ran 10% slower (``inlined_into``).
IN_GAME_LOOP = inlined_into("play_on", "finish")


# ---- small state helpers -------------------------------------------------------------------
@kernel(inline="always")
def log(state, trace, event, seat, card, other, value):
    """Append an event to the trace (a no-op in batch runs, where the buffer has no rows)."""
    k = state[TRACE_LEN]
    if k < trace.shape[0]:
        row = trace[k]
        row[0], row[1], row[2], row[3], row[4], row[5] = state[ROUND], event, seat, card, other, value
        state[TRACE_LEN] = k + 1


@kernel(inline="always")
def card_set(cards):
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


@kernel(inline="always")
def add_vp(state, seat, amount, reason, trace):
    state[VP + seat] += amount
    log(state, trace, EV_VP, seat, NO_CARD, reason, amount)


@kernel(inline="always")
def steal_vp(state, thief, victim, reason, trace):
    """Move one VP from victim to thief (nothing if the victim has none)."""
    if state[VP + victim] > 0:
        add_vp(state, victim, -1, reason, trace)
        add_vp(state, thief, 1, reason, trace)


@kernel(inline="always")
def pick_up_if_empty(state, seat, trace):
    """A player with no card in hand picks up their discard pile."""
    if state[HAND + seat] == 0 and state[DISCARD + seat] != 0:
        state[HAND + seat] = state[DISCARD + seat]
        state[DISCARD + seat] = 0
        log(state, trace, EV_PICKUP, seat, NO_CARD, NO_CARD, 0)


@kernel(inline="always")
def in_play(state, seat):
    return state[MAIN + seat] != NO_CARD or state[EXTRA + seat] != NO_CARD


@kernel(inline="always")
def count_in_play(state, card):
    count = 0
    for s in range(state[PLAYERS]):
        count += (state[MAIN + s] == card) + (state[EXTRA + s] == card)
    return count


@kernel(inline="always")
def discard_in_play(state, card, reason, trace):
    """Discard every copy of ``card`` in play (face down to its owner's discard pile)."""
    for s in range(state[PLAYERS]):
        for slot in (MAIN, EXTRA):
            if state[slot + s] == card:
                discard_slot(state, s, slot, reason, trace)


@kernel(inline="always")
def discard_slot(state, seat, slot, reason, trace):
    card = state[slot + seat]
    state[DISCARD + seat] |= 1 << card
    state[slot + seat] = NO_CARD
    log(state, trace, EV_DISCARD, seat, card, NO_CARD, reason)


@kernel(inline="always")
def spring_ambush(state, seat, trace):
    """An unrevealed Ambush that is viewed, discarded or replaced pays 2 VP (once)."""
    if state[MAIN + seat] == AMBUSH and not state[REVEALED + seat] and not state[AMBUSH_SPRUNG + seat]:
        state[AMBUSH_SPRUNG + seat] = 1
        state[AMBUSHES] += 1
        log(state, trace, EV_AMBUSH, seat, AMBUSH, NO_CARD, 0)
        add_vp(state, seat, AMBUSH_VP, VP_AMBUSH, trace)


@kernel(inline="always")
def seats_mask(state, exclude):
    return ((1 << state[PLAYERS]) - 1) & ~(1 << exclude) if exclude >= 0 else (1 << state[PLAYERS]) - 1


@kernel(inline="always")
def clockwise(state, k):
    """The seat ``k`` places clockwise from the Monarch (0 <= k < players): a subtraction, not a
    modulo (an integer division, paid at every reveal and end-of-turn step)."""
    seat = state[MONARCH] + k
    return seat - state[PLAYERS] if seat >= state[PLAYERS] else seat


@kernel(inline="always")
def can_replace(state, seat, opts):
    """Whether Sabotage or Command may make ``seat`` replace its card: it has a card in play and one
    to swap in (from its hand, or from the discard pile it would pick up when the option allows)."""
    if not in_play(state, seat):
        return False
    return state[HAND + seat] != 0 or (opts[OPT_REPLACE_PICKS_UP] and state[DISCARD + seat] != 0)


# ---- replacing a card in play (Command, Sabotage, Chaos) -----------------------------------
@kernel(inline="always")
def replaced_slot(state, seat):
    """A Feint player's additional card is the one replaced; the Feint stays in play."""
    return EXTRA if state[EXTRA + seat] != NO_CARD else MAIN


@kernel(inline=IN_GAME_LOOP)
def swap_in(state, seat, new_card, trace):
    slot = replaced_slot(state, seat)
    old = state[slot + seat]
    state[HAND + seat] = (state[HAND + seat] & ~(1 << new_card)) | (1 << old)
    state[slot + seat] = new_card
    log(state, trace, EV_REPLACE, seat, new_card, old, 0)


@kernel(inline="always")
def available_cards(state, seat):
    """What a player can play from: the hand, or the discard pile when the hand is empty."""
    hand = state[HAND + seat]
    return hand if hand != 0 else state[DISCARD + seat]


# ---- stopping at a decision ----------------------------------------------------------------
@kernel(inline="always")
def pend(state, seat, kind, choices):
    """Stop at a decision of ``seat``'s: its kind and (unrestricted) legal answers."""
    state[D_SEAT] = seat
    state[D_KIND] = kind
    state[D_CHOICES] = choices
    state[PHASE] = kind


@kernel(inline="always")
def start_stage(state, stage):
    """Enter the reveals or the end-of-turn texts at their first step."""
    state[STAGE] = stage
    state[CURSOR] = 0
    state[ACTING] = NO_CARD
    state[PHASE] = stage


@kernel(inline=IN_GAME_LOOP)
def replace_by_choice(state, seat, trace):
    """Command or Sabotage made ``seat`` replace its card in play with one of its choice from hand
    (picking up the discard pile first if the hand is empty: can_replace allows that only where the
    option does)."""
    spring_ambush(state, seat, trace)
    pick_up_if_empty(state, seat, trace)
    pend(state, seat, REPLACEMENT_CARD, state[HAND + seat])


# ---- VP transfers --------------------------------------------------------------------------
@kernel
def take_from_richer(state, seat):
    """Authority: if another player has more VP, its owner chooses one of them to take 1 VP from."""
    richer = 0
    for o in range(state[PLAYERS]):
        if o != seat and state[VP + o] > state[VP + seat]:
            richer |= 1 << o
    if richer:
        state[ACTING] = AUTHORITY
        pend(state, seat, STEAL_VICTIM, richer)


@kernel
def settle_ally(state, taker, trace):
    """The taker took Ally's extra VP: every Ally player gains 2."""
    add_vp(state, taker, 1, VP_ALLY, trace)
    for s in range(state[PLAYERS]):
        if s != taker:
            for slot in (MAIN, EXTRA):
                if state[slot + s] == ALLY:
                    add_vp(state, s, ALLY_VP, VP_ALLY_BONUS, trace)


# ---- a round: the selection ----------------------------------------------------------------
@kernel(inline=IN_GAME_LOOP)
def start_round(state, opts, trace):
    """Between rounds: the game is over once a Monarch has won or the round cap is reached; the
    rules stop at ROUND_STOP (the phase stays PH_ROUND_START). Otherwise a round starts: the
    Monarch's reign is counted, every player with an empty hand picks up their discard pile, and
    nobody has chosen a card."""
    if state[WINNER] != NOBODY:
        state[PHASE] = PH_GAME_OVER
        return
    if state[ROUND] >= opts[OPT_MAX_ROUNDS]:
        log(state, trace, EV_CAP, NOBODY, NO_CARD, NO_CARD, state[ROUND])
        state[PHASE] = PH_GAME_OVER
        return
    if state[ROUND] >= state[ROUND_STOP]:
        return
    state[REIGNS + state[MONARCH]] += 1
    log(state, trace, EV_ROUND, state[MONARCH], NO_CARD, NO_CARD, 0)
    for s in range(state[PLAYERS]):
        pick_up_if_empty(state, s, trace)
        state[CHOICE + s] = NO_CARD
    state[PHASE] = PH_SELECT


@kernel(inline=IN_GAME_LOOP)
def select(state, trace):
    """All players choose at once: the first player (in seat order) who has not chosen chooses from
    their hand; once all have, every card leaves its hand and is played."""
    n = state[PLAYERS]
    for s in range(n):
        if state[CHOICE + s] == NO_CARD:
            pend(state, s, SELECT_CARD, state[HAND + s])
            return
    for s in range(n):
        card = state[CHOICE + s]
        state[HAND + s] &= ~(1 << card)
        state[MAIN + s] = card
        state[PLAYS + card] += 1
        log(state, trace, EV_SELECT, s, card, NO_CARD, 0)
    if state[RULESET] == MODE_TWO_PLAYER:
        state[PHASE] = PH_TWO_PLAYER
    else:
        start_stage(state, PH_REVEAL)


# ---- a round: reveals and immediate actions --------------------------------------------------
@kernel(inline="always")
def reveal_seat(state):
    """The seat whose reveal is resolving (the last one the cursor passed)."""
    return clockwise(state, state[CURSOR] - 1)


@kernel(inline=IN_GAME_LOOP)
def reveal(state, opts, rng, trace):
    """Reveals clockwise from the Monarch, from state[CURSOR] on; each card's immediate action
    resolves at once (a Feint's additional card's right after it). Stops at a decision, or moves on
    to resolution."""
    n = state[PLAYERS]
    while state[PHASE] == PH_REVEAL:
        if state[ACTING] != NO_CARD:
            resolve_immediate(state, opts, rng, trace)
        elif state[CURSOR] < n:
            s = clockwise(state, state[CURSOR])
            state[CURSOR] += 1
            state[REVEALED + s] = 1
            card = state[MAIN + s]
            if card != NO_CARD:
                log(state, trace, EV_REVEAL, s, card, NO_CARD, 0)
                state[ACTING] = card
        else:
            state[PHASE] = PH_SETTLE


@kernel(inline=IN_GAME_LOOP)
def command_replace(state, seat, opts):
    """Command, after its look: the Monarch chooses a house player who replaces its card in play."""
    targets = 0
    house = seats_mask(state, state[MONARCH])
    for s in range(state[PLAYERS]):
        if house >> s & 1 and can_replace(state, s, opts):
            targets |= 1 << s
    if targets:
        pend(state, seat, COMMAND_REPLACE, targets)
    else:
        state[PHASE] = PH_REVEAL


@kernel
def resolve_immediate(state, opts, rng, trace):
    """The immediate action of the revealing seat's card state[ACTING]: it resolves (ACTING
    cleared), or stops at a decision whose answer resolves the rest (apply_answer); Feint's answer
    is the card whose immediate action follows."""
    card = state[ACTING]
    state[ACTING] = NO_CARD
    seat = reveal_seat(state)
    monarch = state[MONARCH]
    house = seats_mask(state, monarch)
    if card == RAID:
        targets = 0
        for s in range(state[PLAYERS]):
            if house >> s & 1 and state[MAIN + s] != NO_CARD:
                targets |= 1 << s
        if targets:
            pend(state, seat, RAID_TARGET, targets)
    elif card == COMMAND:
        viewable = 0
        for s in range(state[PLAYERS]):
            if s != seat and state[MAIN + s] != NO_CARD and not state[REVEALED + s]:
                viewable |= 1 << s
        if viewable:
            pend(state, seat, COMMAND_VIEW, viewable)
        else:
            command_replace(state, seat, opts)
    elif card == CHAOS:
        for k in range(1, state[PLAYERS]):
            s = clockwise(state, k)
            if not in_play(state, s):
                continue
            pick_up_if_empty(state, s, trace)
            if state[HAND + s] != 0:
                spring_ambush(state, s, trace)
                swap_in(state, s, random_bit(rng, state[HAND + s]), trace)
    elif card == ABDICATE:
        state[ABDICATED] = 1
        add_vp(state, seat, 1, VP_ABDICATE, trace)
    elif card == SABOTAGE:
        targets = 0
        for s in range(state[PLAYERS]):
            if s != seat and can_replace(state, s, opts) and (s != monarch or opts[OPT_SABOTAGE_MONARCH]):
                targets |= 1 << s
        if targets:
            pend(state, seat, SABOTAGE_TARGET, targets)
    elif card == FEINT:
        sources = state[HAND + seat]
        if opts[OPT_FEINT_FROM_DISCARD]:
            sources |= state[DISCARD + seat]
        if sources:
            if state[VP + seat] > 0:
                add_vp(state, seat, -1, VP_FEINT_COST, trace)
            pend(state, seat, FEINT_EXTRA, sources)
    elif card == ALLY:
        if state[MAIN + monarch] != NO_CARD:
            discard_slot(state, monarch, MAIN, BY_ALLY, trace)
    elif card == DEFEND and opts[OPT_DEFEND_IMMEDIATE]:
        discard_in_play(state, ATTACK, BY_DEFEND, trace)
    elif card == AUTHORITY and opts[OPT_AUTHORITY_IMMEDIATE]:
        take_from_richer(state, seat)


# ---- the contest -------------------------------------------------------------------------
@kernel
def contest_check(state, check, trace):
    if check == CHECK_CHARGES:
        if count_in_play(state, CHARGE) > 1:
            state[CHARGE_CLASHES] += 1
            discard_in_play(state, CHARGE, BY_CHARGES, trace)
    elif check == CHECK_INFILTRATE:
        if count_in_play(state, ATTACK) == 0:
            discard_in_play(state, INFILTRATE, BY_NO_ATTACK, trace)
    else:
        if count_in_play(state, CHARGE) != 1:
            discard_in_play(state, DOMINATE, BY_NO_SINGLE_CHARGE, trace)


@kernel
def run_contest_checks(state, opts, trace):
    """Checks (a) Charges, (b) Infiltrate, (c) Dominate, in the order the option gives."""
    order = opts[OPT_CONTEST_ORDER]
    contest_check(state, order // 100, trace)
    contest_check(state, order // 10 % 10, trace)
    contest_check(state, order % 10, trace)


@kernel(inline="always")
def strength_of(state, seat):
    best = 0
    for slot in (MAIN, EXTRA):
        card = state[slot + seat]
        if card != NO_CARD and STRENGTH[card] > best:
            best = STRENGTH[card]
    return best


# ---- a round: resolution and the end of the turn ---------------------------------------------
@kernel(inline=IN_GAME_LOOP)
def settle_contest(state, opts, trace):
    """Resolution up to who would take the throne: Defend (at resolution), the contest checks, then
    the house player with the highest strength left; the Monarch chooses among the tied."""
    monarch = state[MONARCH]
    if state[MAIN + monarch] == DEFEND and not opts[OPT_DEFEND_IMMEDIATE]:
        discard_in_play(state, ATTACK, BY_DEFEND, trace)
    run_contest_checks(state, opts, trace)
    top, tied = 0, 0
    for s in range(state[PLAYERS]):
        if s == monarch:
            continue
        strength = strength_of(state, s)
        if strength > top:
            top, tied = strength, 1 << s
        elif strength == top and strength > 0:
            tied |= 1 << s
    state[TAKER] = NOBODY
    if tied:
        pend(state, monarch, TIE_BREAK, tied)
    else:
        state[PHASE] = PH_ENTRAP


@kernel(inline=IN_GAME_LOOP)
def settle_throne(state, opts):
    """Who holds the throne (TAKER, NOBODY if the Monarch keeps it or takes it back; RETAINED):
    Entrap stops a taker, or gives the throne away when nobody would take it; an Abdicating
    Monarch nobody replaces takes it back without retaining it."""
    monarch = state[MONARCH]
    state[PHASE] = PH_TALLY
    if state[MAIN + monarch] == ENTRAP:
        state[ENTRAP_FLIPS] += 1
        if state[TAKER] != NOBODY:
            # "you retain it instead", even when an Abdicate was replaced by this Entrap (option)
            state[TAKER] = NOBODY
            state[RETAINED] = not state[ABDICATED] or opts[OPT_ENTRAP_RETAINS_AFTER_ABDICATE] != 0
        else:
            pend(state, monarch, ENTRAP_GIVE, seats_mask(state, monarch))
        return
    state[RETAINED] = state[TAKER] == NOBODY and not state[ABDICATED]


@kernel(inline=IN_GAME_LOOP)
def tally(state, trace):
    """The throne settled: the round's outcome logged, and VP for it (retaining, taking, or taking
    it back after Abdicate where the option pays); then the other end-of-turn texts."""
    monarch = state[MONARCH]
    taker = state[TAKER]
    if state[RETAINED]:
        state[RETENTIONS] += 1
        log(state, trace, EV_RETAIN, monarch, NO_CARD, NO_CARD, 0)
        add_vp(state, monarch, RETAIN_VP, VP_RETAIN, trace)
    elif taker != NOBODY:
        state[TAKES] += 1
        log(state, trace, EV_TAKE, taker, NO_CARD, NO_CARD, 0)
        add_vp(state, taker, TAKE_VP, VP_TAKE, trace)
    else:
        log(state, trace, EV_TAKE_BACK, monarch, NO_CARD, NO_CARD, 0)
        if state[TAKE_BACK_PAY]:
            add_vp(state, monarch, state[TAKE_BACK_PAY], VP_TAKE_BACK, trace)
    state[ALLY_SETTLED] = 0
    start_stage(state, PH_AWARD)


@kernel(inline=IN_GAME_LOOP)
def award(state, opts, trace):
    """The end-of-turn texts other than the throne's VP, clockwise from the Monarch, each seat's
    main card then its Feint's additional card, from state[CURSOR] on. Stops at a decision
    (Authority's or Raven's victim, the taker's answer to Ally), or moves on to cleanup."""
    n = state[PLAYERS]
    taker = state[TAKER]
    retained = state[RETAINED]
    sabotage_pays = retained or (taker == NOBODY and opts[OPT_ABDICATE_SABOTAGE])
    single_raven = count_in_play(state, RAVEN) == 1
    while state[PHASE] == PH_AWARD:
        step = state[CURSOR]
        if step == 2 * n:
            state[PHASE] = PH_CLEANUP
            return
        state[CURSOR] = step + 1
        s = clockwise(state, step // 2)
        card = state[(MAIN if step % 2 == 0 else EXTRA) + s]
        if card == CONSOLIDATE and retained:
            add_vp(state, s, 1, VP_CONSOLIDATE, trace)
        elif card == AUTHORITY and not opts[OPT_AUTHORITY_IMMEDIATE]:
            take_from_richer(state, s)
        elif card == SABOTAGE and sabotage_pays:
            add_vp(state, s, 1, VP_SABOTAGE, trace)
        elif card == FEINT and taker == s:
            add_vp(state, s, 1, VP_FEINT, trace)
        elif card == ALLY and not state[ALLY_SETTLED] and taker != NOBODY and taker != s:
            state[ALLY_SETTLED] = 1  # the taker decides once, whatever the number of Allies
            pend(state, taker, ALLY_ACCEPT, (1 << ACCEPT) | (1 << DECLINE))
        elif card == RAVEN and single_raven:
            victims = 0
            for o in range(n):
                if o != s and state[VP + o] > 0:
                    victims |= 1 << o
            if victims:
                state[ACTING] = RAVEN
                pend(state, s, STEAL_VICTIM, victims)


@kernel
def clear_round_marks(state):
    for s in range(state[PLAYERS]):
        state[MAIN + s] = NO_CARD
        state[EXTRA + s] = NO_CARD
        state[REVEALED + s] = 0
        state[AMBUSH_SPRUNG + s] = 0
    state[ABDICATED] = 0
    state[VIEWED_SEAT] = NOBODY
    state[VIEWED_CARD] = NO_CARD


@kernel(inline=IN_GAME_LOOP)
def cleanup(state, taker, trace):
    n = state[PLAYERS]
    monarch = state[MONARCH]
    for s in range(n):
        # every card played this round was shown face up (a card swapped out unrevealed went back
        # to the hand unseen); so was every card in a discard pile
        for slot in (MAIN, EXTRA):
            if state[slot + s] != NO_CARD:
                state[SHOWN + s] |= 1 << state[slot + s]
        state[SHOWN + s] |= state[DISCARD + s]
    if taker == NOBODY:
        for s in range(n):
            for slot in (MAIN, EXTRA):
                if state[slot + s] != NO_CARD:
                    state[DISCARD + s] |= 1 << state[slot + s]
    else:
        # Everyone takes back every card; the new Monarch swaps its house cards for the crown.
        state[OWNED + monarch], state[OWNED + taker] = state[OWNED + taker], state[OWNED + monarch]
        state[SHOWN + monarch], state[SHOWN + taker] = state[SHOWN + taker], state[SHOWN + monarch]
        for s in range(n):
            state[HAND + s] = state[OWNED + s]
            state[DISCARD + s] = 0
        state[MONARCH] = taker
        log(state, trace, EV_SWAP, taker, NO_CARD, monarch, 0)
    clear_round_marks(state)


@kernel(inline=IN_GAME_LOOP)
def end_round(state, trace):
    """The round counted; the Monarch after cleanup with 8+ VP wins."""
    state[ROUND] += 1
    monarch = state[MONARCH]
    if state[VP + monarch] >= WIN_VP:
        state[WINNER] = monarch
        log(state, trace, EV_WIN, monarch, NO_CARD, NO_CARD, state[VP + monarch])
    state[PHASE] = PH_ROUND_START


# ---- a round, 2 players ------------------------------------------------------------------
@kernel(inline=IN_GAME_LOOP)
def resolve_two_player(state, opts, trace):
    """After the selection: both reveal at once; the non-Monarch takes the throne only with
    strictly higher strength."""
    monarch = state[MONARCH]
    other = 1 - monarch
    for s in range(2):
        state[REVEALED + s] = 1
        log(state, trace, EV_REVEAL, s, state[MAIN + s], NO_CARD, 0)
    run_contest_checks(state, opts, trace)
    if strength_of(state, other) > strength_of(state, monarch):
        state[TAKES] += 1
        log(state, trace, EV_TAKE, other, NO_CARD, NO_CARD, 0)
        add_vp(state, other, TAKE_VP_TWO_PLAYER, VP_TAKE, trace)
        state[MONARCH] = other
    else:
        state[RETENTIONS] += 1
        log(state, trace, EV_RETAIN, monarch, NO_CARD, NO_CARD, 0)
        add_vp(state, monarch, RETAIN_VP_TWO_PLAYER, VP_RETAIN, trace)
    for s in range(2):
        if state[MAIN + s] == REINFORCE:
            state[MAIN + s] = NO_CARD
            state[HAND + s] |= state[DISCARD + s] | (1 << REINFORCE)
            state[DISCARD + s] = 0
            log(state, trace, EV_REINFORCE, s, REINFORCE, NO_CARD, 0)
            if s != monarch:
                add_vp(state, s, 1, VP_REINFORCE, trace)
    for s in range(2):
        if state[MAIN + s] != NO_CARD:
            state[DISCARD + s] |= 1 << state[MAIN + s]
    clear_round_marks(state)


# ---- a whole game ------------------------------------------------------------------------
@kernel
def draw_from_pool(rng, kept, pool, count):
    """A card mask: the kept cards plus ``count`` distinct random cards of the pool."""
    remaining = card_set(pool)
    drawn = 0
    for _ in range(count):
        card = random_bit(rng, remaining)
        remaining &= ~(1 << card)
        drawn |= 1 << card
    return card_set(kept) | drawn


@kernel
def deal(state, opts, rng):
    """Set up a new game: Monarch at seat 0, decks by mode, starting VP."""
    state[:] = 0
    n = opts[OPT_PLAYERS]
    mode = opts[OPT_MODE]
    state[PLAYERS] = n
    state[RULESET] = mode
    state[TAKE_BACK_PAY] = TAKE_BACK_VP if opts[OPT_TAKE_BACK_PAYS] else 0
    state[WINNER] = NOBODY
    for s in range(MAX_PLAYERS):
        state[MAIN + s] = NO_CARD
        state[EXTRA + s] = NO_CARD
    state[VIEWED_SEAT] = NOBODY
    state[VIEWED_CARD] = NO_CARD
    state[PHASE] = PH_ROUND_START
    state[ROUND_STOP] = NEVER
    if mode == MODE_TWO_PLAYER:
        for s in range(n):
            state[OWNED + s] = card_set(TWO_PLAYER_CARDS)
            state[VP + s] = START_VP_TWO_PLAYER
    else:
        if mode == MODE_CORE:
            state[OWNED] = card_set(CROWN_CORE)
        elif mode == MODE_CUSTOM:
            state[OWNED] = opts[OPT_CUSTOM_CROWN]
        else:
            state[OWNED] = draw_from_pool(rng, MIRROR_CROWN_KEPT, MIRROR_CROWN_POOL,
                                          MONARCH_HAND_SIZE - len(MIRROR_CROWN_KEPT))
        shared_house = 0
        if mode == MODE_MIRROR:
            shared_house = draw_from_pool(rng, MIRROR_HOUSE_KEPT, MIRROR_HOUSE_POOL,
                                          HOUSE_HAND_SIZE - len(MIRROR_HOUSE_KEPT))
        for s in range(1, n):
            if mode == MODE_CORE:
                state[OWNED + s] = card_set(HOUSE_CORE)
            elif mode == MODE_CUSTOM:
                state[OWNED + s] = opts[OPT_CUSTOM_HOUSE]
            elif mode == MODE_MIRROR:
                state[OWNED + s] = shared_house
            else:
                state[OWNED + s] = draw_from_pool(rng, MIRROR_HOUSE_KEPT, MIRROR_HOUSE_POOL,
                                                  HOUSE_HAND_SIZE - len(MIRROR_HOUSE_KEPT))
        for s in range(n):
            state[VP + s] = START_VP
    for s in range(n):
        state[HAND + s] = state[OWNED + s]
        state[SHOWN + s] = state[OWNED + s]  # decks everyone knows, but for the random draws:
    if mode == MODE_MIRROR or mode == MODE_ASYMMETRIC:
        state[SHOWN] = MIRROR_CROWN_KEPT_MASK
    if mode == MODE_ASYMMETRIC:
        for s in range(1, n):
            state[SHOWN + s] = MIRROR_HOUSE_KEPT_MASK


# ---- the step kernel (balance.engine.step) ---------------------------------------------------
@kernel(inline="always")  # into the game loop, as the rules were one call tree before the step
def advance(state, table):
    """Run the rules until a decision is pending or ``over``."""
    opts, rng, trace = table
    while True:
        phase = state[PHASE]
        if phase == PH_ROUND_START:
            start_round(state, opts, trace)
            if state[PHASE] == PH_ROUND_START:  # stopped at ROUND_STOP
                return
        elif phase == PH_SELECT:
            select(state, trace)
        elif phase == PH_REVEAL:
            reveal(state, opts, rng, trace)
        elif phase == PH_COMMAND_REPLACE:
            command_replace(state, reveal_seat(state), opts)
        elif phase == PH_SETTLE:
            settle_contest(state, opts, trace)
        elif phase == PH_ENTRAP:
            settle_throne(state, opts)
        elif phase == PH_TALLY:
            tally(state, trace)
        elif phase == PH_AWARD:
            award(state, opts, trace)
        elif phase == PH_CLEANUP:
            cleanup(state, state[TAKER], trace)
            end_round(state, trace)
        elif phase == PH_TWO_PLAYER:
            resolve_two_player(state, opts, trace)
            end_round(state, trace)
        else:  # a decision is pending, or the game is over
            return


@kernel(inline="always")
def over(state):
    """No decision is pending: the game is over, or the rules stopped at ROUND_STOP."""
    return state[PHASE] >= N_KINDS


@kernel(inline="always")
def apply_answer(state, table, answer):
    """The pending decision answered; the stage it was asked in goes on (``advance``)."""
    opts, rng, trace = table
    kind = state[D_KIND]
    seat = state[D_SEAT]
    if kind == SELECT_CARD:
        state[CHOICE + seat] = answer
        state[PHASE] = PH_SELECT
    elif kind == RAID_TARGET:
        log(state, trace, EV_REVEAL, answer, state[MAIN + answer], RAID, 0)
        spring_ambush(state, answer, trace)
        discard_slot(state, answer, MAIN, BY_RAID, trace)
        state[PHASE] = PH_REVEAL
    elif kind == COMMAND_VIEW:
        state[VIEWED_SEAT], state[VIEWED_CARD] = answer, state[MAIN + answer]
        log(state, trace, EV_VIEW, answer, state[MAIN + answer], seat, 0)
        if opts[OPT_AMBUSH_ON_VIEW]:
            spring_ambush(state, answer, trace)
        state[PHASE] = PH_COMMAND_REPLACE
    elif kind == COMMAND_REPLACE or kind == SABOTAGE_TARGET:
        replace_by_choice(state, answer, trace)
    elif kind == REPLACEMENT_CARD:
        swap_in(state, seat, answer, trace)
        state[PHASE] = PH_REVEAL
    elif kind == FEINT_EXTRA:
        state[HAND + seat] &= ~(1 << answer)
        state[DISCARD + seat] &= ~(1 << answer)
        state[EXTRA + seat] = answer
        state[PLAYS + answer] += 1
        log(state, trace, EV_FEINT, seat, answer, NO_CARD, 0)
        state[ACTING] = answer  # its immediate action follows
        state[PHASE] = PH_REVEAL
    elif kind == STEAL_VICTIM:
        steal_vp(state, seat, answer, VP_RAVEN if state[ACTING] == RAVEN else VP_AUTHORITY, trace)
        state[ACTING] = NO_CARD
        state[PHASE] = state[STAGE]
    elif kind == TIE_BREAK:
        state[TAKER] = answer
        state[PHASE] = PH_ENTRAP
    elif kind == ENTRAP_GIVE:
        monarch = state[MONARCH]
        if state[VP + monarch] > 0:
            add_vp(state, monarch, -1, VP_ENTRAP, trace)
        add_vp(state, answer, 1, VP_ENTRAP, trace)
        state[TAKER] = answer
        state[RETAINED] = 0
        state[PHASE] = PH_TALLY
    else:  # ALLY_ACCEPT
        if answer == ACCEPT:
            settle_ally(state, seat, trace)
        state[PHASE] = PH_AWARD
