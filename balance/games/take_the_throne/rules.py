"""Take the Throne: the rules kernel. Every rule of the game is here, once.

The state record is laid out in layout.py. The kernel's arguments,
``opts, codes, params, restrict, rng, script, trace, work``, are passed along to every function that needs
them: the rule options vector, the policy code and parameter row of each seat, the game's random
stream, the scripted decisions (tests and positions), the event trace buffer (size 0 in batch
runs) and the policies' scratch buffer (allocated once per block of games, not per decision).
They are passed as separate arrays, not as a tuple, and no kernel function creates array views:
that lets Numba drop all reference counting from these functions, which would otherwise cost
more than the rules themselves.

Round (3 to 5 players): simultaneous selection; reveal from the Monarch clockwise, each card's
immediate action resolving at once; resolution (Defend and the contest checks, ties chosen by the
Monarch, Entrap and Abdicate); VP for the throne, then the other end-of-turn texts clockwise from
the Monarch; cleanup; the Monarch with 8+ VP after cleanup wins. Defend and Authority act at
resolution unless their timing options move them to their reveal. The 2-player mode has its own
round (play_two_player_round).

The search policy chooses its card before each round (fix_searched_cards, in the game loop
play_on): its rollouts play rounds through ``advance`` with the heuristic, so the rules reach the
search only from the loop above them, never from inside a round.
"""

import numpy as np
from numba import prange

from balance.engine.decision import N_KINDS_MAX, PREFER, RESTRICT_SIDES, answer_of, forced, pose
from balance.engine.search import ROLLOUT_SIGNATURE, search_answer
from balance.engine.kernels import allocating_kernel, kernel, seat_policies, seat_restrictions, split_game_index
from balance.engine.rng import open_stream, random_bit
from balance.engine.game import MAX_POLICY_PARAMS
from balance.games.take_the_throne.layout import (
    ABDICATE, ABDICATED, ACCEPT, ALLY, ALLY_ACCEPT, ALLY_VP, AMBUSH, AMBUSH_SPRUNG, AMBUSH_VP, AMBUSHES, ATTACK,
    AUTHORITY, BY_ALLY, BY_CHARGES, BY_DEFEND, BY_NO_ATTACK, BY_NO_SINGLE_CHARGE, BY_RAID, CHAOS, CHARGE,
    CHARGE_CLASHES, CHECK_CHARGES, CHECK_INFILTRATE, CHOICE, COMMAND, COMMAND_REPLACE, COMMAND_VIEW,
    CONSOLIDATE, CROWN_CORE, DEFEND, DISCARD, DOMINATE, ENTRAP, ENTRAP_FLIPS, ENTRAP_GIVE, EV_AMBUSH, EV_CAP,
    EV_DISCARD, EV_FEINT, EV_PICKUP, EV_REINFORCE, EV_REPLACE, EV_RETAIN, EV_REVEAL, EV_ROUND, EV_SELECT, EV_SWAP,
    EV_TAKE, EV_TAKE_BACK, EV_VIEW, EV_VP, EV_WIN, EXTRA, FEINT, FEINT_EXTRA, HAND, HOUSE_CORE, INFILTRATE, MAIN,
    MAX_PLAYERS, MIRROR_CROWN_KEPT, MIRROR_CROWN_POOL, MIRROR_HOUSE_KEPT, MIRROR_HOUSE_POOL,
    MIRROR_CROWN_KEPT_MASK, MIRROR_HOUSE_KEPT_MASK, MODE_ASYMMETRIC, MODE_CORE, MODE_CUSTOM, MODE_MIRROR,
    MODE_TWO_PLAYER, MONARCH, MONARCH_HAND_SIZE, HOUSE_HAND_SIZE, N_CARDS,
    NO_CARD, NOBODY, OPT_ABDICATE_SABOTAGE, OPT_AMBUSH_ON_VIEW, OPT_AUTHORITY_IMMEDIATE, OPT_CONTEST_ORDER,
    OPT_CUSTOM_CROWN, OPT_CUSTOM_HOUSE, OPT_DEFEND_IMMEDIATE, OPT_ENTRAP_RETAINS_AFTER_ABDICATE,
    OPT_FEINT_FROM_DISCARD, OPT_MAX_ROUNDS, OPT_MODE, OPT_PLAYERS, OPT_REPLACE_PICKS_UP, OPT_SABOTAGE_MONARCH,
    OPT_TAKE_BACK_PAYS, OWNED, POLICY_SEARCH,
    PLAYERS, PLAYS, RAID, RAID_TARGET, RAVEN, REIGNS, REINFORCE, REPLACEMENT_CARD, RETAIN_VP, RETAIN_VP_TWO_PLAYER,
    RETENTIONS, REVEALED, ROUND, RULESET, SABOTAGE, SABOTAGE_TARGET, SELECT_CARD, SHOWN, START_VP,
    START_VP_TWO_PLAYER, STATE_SIZE, STEAL_VICTIM, STRENGTH, TAKE_BACK_PAY, TAKE_BACK_VP, TAKE_VP,
    TAKE_VP_TWO_PLAYER, TAKES, TIE_BREAK,
    TRACE_FIELDS, TRACE_LEN, TWO_PLAYER_CARDS, VIEWED_CARD, VIEWED_SEAT, VP, VP_ABDICATE, VP_ALLY, VP_ALLY_BONUS,
    VP_AMBUSH, VP_AUTHORITY, VP_CONSOLIDATE, VP_ENTRAP, VP_FEINT, VP_FEINT_COST, VP_RAVEN, VP_REINFORCE, VP_RETAIN,
    VP_SABOTAGE, VP_TAKE, VP_TAKE_BACK, WIN_VP, WINNER,
)
from balance.games.take_the_throne.policies import (
    SEARCH_CODES, SEARCH_PARAMS, SEARCH_SAMPLED, SEARCH_SAVED, SEARCH_TOTALS, SEARCH_WORLD, S_HORIZON, S_ROLLOUTS,
    WORK_ROWS, ask, available_cards, new_search_buffers, new_work_buffer, prepare_rollouts, rollout_score,
    sample_world)

BLOCK = 256  # games per parallel work item (scratch buffers are reused within a block)


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


@kernel
def swap_in(state, seat, new_card, trace):
    slot = replaced_slot(state, seat)
    old = state[slot + seat]
    state[HAND + seat] = (state[HAND + seat] & ~(1 << new_card)) | (1 << old)
    state[slot + seat] = new_card
    log(state, trace, EV_REPLACE, seat, new_card, old, 0)


@kernel
def replace_by_choice(state, seat, opts, codes, params, restrict, rng, script, trace, work):
    """The player swaps their card in play for one of their choice from hand (picking up the
    discard pile first if the hand is empty: can_replace allows that only where the option does)."""
    spring_ambush(state, seat, trace)
    pick_up_if_empty(state, seat, trace)
    new_card = ask(state, REPLACEMENT_CARD, seat, state[HAND + seat], codes, params, restrict, rng, script, work)
    swap_in(state, seat, new_card, trace)


# ---- VP transfers --------------------------------------------------------------------------
@kernel
def take_from_richer(state, seat, codes, params, restrict, rng, script, trace, work):
    """Authority: if another player has more VP, take 1 VP from one of them (the owner's choice)."""
    richer = 0
    for o in range(state[PLAYERS]):
        if o != seat and state[VP + o] > state[VP + seat]:
            richer |= 1 << o
    if richer:
        victim = ask(state, STEAL_VICTIM, seat, richer, codes, params, restrict, rng, script, work)
        steal_vp(state, seat, victim, VP_AUTHORITY, trace)


# ---- immediate actions ---------------------------------------------------------------------
@kernel
def resolve_immediate(state, seat, card, opts, codes, params, restrict, rng, script, trace, work):
    """Resolve ``card``'s immediate action. Returns the card whose immediate action follows
    (Feint's additional card), or NO_CARD."""
    monarch = state[MONARCH]
    house = seats_mask(state, monarch)
    if card == RAID:
        targets = 0
        for s in range(state[PLAYERS]):
            if house >> s & 1 and state[MAIN + s] != NO_CARD:
                targets |= 1 << s
        if targets:
            target = ask(state, RAID_TARGET, seat, targets, codes, params, restrict, rng, script, work)
            log(state, trace, EV_REVEAL, target, state[MAIN + target], RAID, 0)
            spring_ambush(state, target, trace)
            discard_slot(state, target, MAIN, BY_RAID, trace)
    elif card == COMMAND:
        viewable = 0
        for s in range(state[PLAYERS]):
            if s != seat and state[MAIN + s] != NO_CARD and not state[REVEALED + s]:
                viewable |= 1 << s
        if viewable:
            viewed = ask(state, COMMAND_VIEW, seat, viewable, codes, params, restrict, rng, script, work)
            state[VIEWED_SEAT], state[VIEWED_CARD] = viewed, state[MAIN + viewed]
            log(state, trace, EV_VIEW, viewed, state[MAIN + viewed], seat, 0)
            if opts[OPT_AMBUSH_ON_VIEW]:
                spring_ambush(state, viewed, trace)
        targets = 0
        for s in range(state[PLAYERS]):
            if house >> s & 1 and can_replace(state, s, opts):
                targets |= 1 << s
        if targets:
            target = ask(state, COMMAND_REPLACE, seat, targets, codes, params, restrict, rng, script, work)
            replace_by_choice(state, target, opts, codes, params, restrict, rng, script, trace, work)
    elif card == CHAOS:
        for k in range(1, state[PLAYERS]):
            s = (monarch + k) % state[PLAYERS]
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
            target = ask(state, SABOTAGE_TARGET, seat, targets, codes, params, restrict, rng, script, work)
            replace_by_choice(state, target, opts, codes, params, restrict, rng, script, trace, work)
    elif card == FEINT:
        sources = state[HAND + seat]
        if opts[OPT_FEINT_FROM_DISCARD]:
            sources |= state[DISCARD + seat]
        if sources:
            if state[VP + seat] > 0:
                add_vp(state, seat, -1, VP_FEINT_COST, trace)
            extra = ask(state, FEINT_EXTRA, seat, sources, codes, params, restrict, rng, script, work)
            state[HAND + seat] &= ~(1 << extra)
            state[DISCARD + seat] &= ~(1 << extra)
            state[EXTRA + seat] = extra
            state[PLAYS + extra] += 1
            log(state, trace, EV_FEINT, seat, extra, NO_CARD, 0)
            return extra
    elif card == ALLY:
        if state[MAIN + monarch] != NO_CARD:
            discard_slot(state, monarch, MAIN, BY_ALLY, trace)
    elif card == DEFEND and opts[OPT_DEFEND_IMMEDIATE]:
        discard_in_play(state, ATTACK, BY_DEFEND, trace)
    elif card == AUTHORITY and opts[OPT_AUTHORITY_IMMEDIATE]:
        take_from_richer(state, seat, codes, params, restrict, rng, script, trace, work)
    return NO_CARD


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


@kernel
def would_take(state, opts, codes, params, restrict, rng, script, trace, work):
    """The house player with the highest strength left (the Monarch breaks ties), or NOBODY."""
    monarch = state[MONARCH]
    top, tied = 0, 0
    for s in range(state[PLAYERS]):
        if s == monarch:
            continue
        strength = strength_of(state, s)
        if strength > top:
            top, tied = strength, 1 << s
        elif strength == top and strength > 0:
            tied |= 1 << s
    if tied == 0:
        return NOBODY
    return ask(state, TIE_BREAK, monarch, tied, codes, params, restrict, rng, script, work)


# ---- a round, 3 to 5 players --------------------------------------------------------------
@kernel
def select_cards(state, opts, codes, params, restrict, rng, script, trace, work):
    """All players choose at once: every choice is made before any card leaves a hand."""
    n = state[PLAYERS]
    for s in range(n):
        pick_up_if_empty(state, s, trace)
    for s in range(n):
        state[CHOICE + s] = ask(state, SELECT_CARD, s, state[HAND + s], codes, params, restrict, rng, script, work)
    for s in range(n):
        card = state[CHOICE + s]
        state[HAND + s] &= ~(1 << card)
        state[MAIN + s] = card
        state[PLAYS + card] += 1
        log(state, trace, EV_SELECT, s, card, NO_CARD, 0)


@kernel
def reveal_all(state, opts, codes, params, restrict, rng, script, trace, work):
    n = state[PLAYERS]
    for k in range(n):
        s = (state[MONARCH] + k) % n
        state[REVEALED + s] = 1
        card = state[MAIN + s]
        if card != NO_CARD:
            log(state, trace, EV_REVEAL, s, card, NO_CARD, 0)
        while card != NO_CARD:
            card = resolve_immediate(state, s, card, opts, codes, params, restrict, rng, script, trace, work)


@kernel
def settle_throne(state, opts, codes, params, restrict, rng, script, trace, work):
    """Resolution up to who holds the throne. Returns (taker or NOBODY, retained); NOBODY and not
    retained is an Abdicating Monarch taking the throne back."""
    monarch = state[MONARCH]
    if state[MAIN + monarch] == DEFEND and not opts[OPT_DEFEND_IMMEDIATE]:
        discard_in_play(state, ATTACK, BY_DEFEND, trace)
    run_contest_checks(state, opts, trace)
    taker = would_take(state, opts, codes, params, restrict, rng, script, trace, work)
    if state[MAIN + monarch] == ENTRAP:
        state[ENTRAP_FLIPS] += 1
        if taker != NOBODY:
            # "you retain it instead", even when an Abdicate was replaced by this Entrap (option)
            return NOBODY, not state[ABDICATED] or opts[OPT_ENTRAP_RETAINS_AFTER_ABDICATE] != 0
        taker = ask(state, ENTRAP_GIVE, monarch, seats_mask(state, monarch), codes, params, restrict, rng, script, work)
        if state[VP + monarch] > 0:
            add_vp(state, monarch, -1, VP_ENTRAP, trace)
        add_vp(state, taker, 1, VP_ENTRAP, trace)
        return taker, False
    if taker != NOBODY:
        return taker, False
    return NOBODY, not state[ABDICATED]


@kernel
def award_end_of_turn(state, taker, retained, opts, codes, params, restrict, rng, script, trace, work):
    """VP for the throne, then every other end-of-turn text, clockwise from the Monarch."""
    n = state[PLAYERS]
    monarch = state[MONARCH]
    if retained:
        add_vp(state, monarch, RETAIN_VP, VP_RETAIN, trace)
    elif taker != NOBODY:
        add_vp(state, taker, TAKE_VP, VP_TAKE, trace)
    elif state[TAKE_BACK_PAY]:
        add_vp(state, monarch, state[TAKE_BACK_PAY], VP_TAKE_BACK, trace)
    sabotage_pays = retained or (taker == NOBODY and opts[OPT_ABDICATE_SABOTAGE])
    single_raven = count_in_play(state, RAVEN) == 1
    ally_settled = False
    for k in range(n):
        s = (monarch + k) % n
        for slot in (MAIN, EXTRA):
            card = state[slot + s]
            if card == CONSOLIDATE and retained:
                add_vp(state, s, 1, VP_CONSOLIDATE, trace)
            elif card == AUTHORITY and not opts[OPT_AUTHORITY_IMMEDIATE]:
                take_from_richer(state, s, codes, params, restrict, rng, script, trace, work)
            elif card == SABOTAGE and sabotage_pays:
                add_vp(state, s, 1, VP_SABOTAGE, trace)
            elif card == FEINT and taker == s:
                add_vp(state, s, 1, VP_FEINT, trace)
            elif card == ALLY and not ally_settled and taker != NOBODY and taker != s:
                ally_settled = True
                settle_ally(state, taker, opts, codes, params, restrict, rng, script, trace, work)
            elif card == RAVEN and single_raven:
                victims = 0
                for o in range(n):
                    if o != s and state[VP + o] > 0:
                        victims |= 1 << o
                if victims:
                    steal_vp(state, s, ask(state, STEAL_VICTIM, s, victims, codes, params, restrict, rng, script, work),
                             VP_RAVEN, trace)


@kernel
def settle_ally(state, taker, opts, codes, params, restrict, rng, script, trace, work):
    """The taker decides once whether to take the extra VP; if so every Ally player gains 2."""
    if ask(state, ALLY_ACCEPT, taker, (1 << ACCEPT) | 1, codes, params, restrict, rng, script, work) != ACCEPT:
        return
    add_vp(state, taker, 1, VP_ALLY, trace)
    for s in range(state[PLAYERS]):
        if s != taker:
            for slot in (MAIN, EXTRA):
                if state[slot + s] == ALLY:
                    add_vp(state, s, ALLY_VP, VP_ALLY_BONUS, trace)


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


@kernel
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


@kernel
def play_round(state, opts, codes, params, restrict, rng, script, trace, work):
    trace = trace
    state[REIGNS + state[MONARCH]] += 1
    log(state, trace, EV_ROUND, state[MONARCH], NO_CARD, NO_CARD, 0)
    select_cards(state, opts, codes, params, restrict, rng, script, trace, work)
    reveal_all(state, opts, codes, params, restrict, rng, script, trace, work)
    taker, retained = settle_throne(state, opts, codes, params, restrict, rng, script, trace, work)
    if retained:
        state[RETENTIONS] += 1
        log(state, trace, EV_RETAIN, state[MONARCH], NO_CARD, NO_CARD, 0)
    elif taker != NOBODY:
        state[TAKES] += 1
        log(state, trace, EV_TAKE, taker, NO_CARD, NO_CARD, 0)
    else:
        log(state, trace, EV_TAKE_BACK, state[MONARCH], NO_CARD, NO_CARD, 0)
    award_end_of_turn(state, taker, retained, opts, codes, params, restrict, rng, script, trace, work)
    cleanup(state, taker, trace)


# ---- a round, 2 players ------------------------------------------------------------------
@kernel
def play_two_player_round(state, opts, codes, params, restrict, rng, script, trace, work):
    """Both reveal at once; the non-Monarch takes the throne only with strictly higher strength."""
    monarch = state[MONARCH]
    other = 1 - monarch
    state[REIGNS + monarch] += 1
    log(state, trace, EV_ROUND, monarch, NO_CARD, NO_CARD, 0)
    select_cards(state, opts, codes, params, restrict, rng, script, trace, work)
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


@kernel
def advance(state, opts, codes, params, restrict, rng, script, trace, work):
    """One whole round, then the win check: the Monarch after cleanup with 8+ VP wins."""
    if state[RULESET] == MODE_TWO_PLAYER:
        play_two_player_round(state, opts, codes, params, restrict, rng, script, trace, work)
    else:
        play_round(state, opts, codes, params, restrict, rng, script, trace, work)
    state[ROUND] += 1
    monarch = state[MONARCH]
    if state[VP + monarch] >= WIN_VP:
        state[WINNER] = monarch
        log(state, trace, EV_WIN, monarch, NO_CARD, NO_CARD, state[VP + monarch])


# ---- the search policy: its card fixed before each round -------------------------------------
@kernel(ROLLOUT_SIGNATURE)
def play_out(world, card, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout (balance.engine.search): this round with ``seat`` playing ``card`` (the
    PREFER mask of its selection; its own restriction otherwise holds), then on to ``horizon``
    rounds in all (0: the end of the game), every player the heuristic at its defaults (the rows
    prepare_rollouts filled); scored by ``rollout_score``. Trace and script are empty."""
    codes = ints[SEARCH_CODES]
    rollout_params = floats[SEARCH_PARAMS:SEARCH_PARAMS + MAX_PLAYERS]
    work = floats[:WORK_ROWS]
    no_script = ints[SEARCH_CODES, :0]
    no_trace = ints[:0, :TRACE_FIELDS]
    own = restrict[seat, SELECT_CARD, PREFER]
    restrict[seat, SELECT_CARD, PREFER] = 1 << card
    advance(world, opts, codes, rollout_params, restrict, rng, no_script, no_trace, work)
    restrict[seat, SELECT_CARD, PREFER] = own
    horizon = int(params[S_HORIZON])
    rounds = 1
    while world[WINNER] == NOBODY and world[ROUND] < opts[OPT_MAX_ROUNDS] and (horizon == 0 or rounds < horizon):
        advance(world, opts, codes, rollout_params, restrict, rng, no_script, no_trace, work)
        rounds += 1
    return rollout_score(world, seat)


@kernel
def fix_searched_cards(state, opts, codes, params, restrict, rng, search):
    """Every search seat chooses its card for the coming round by the engine's search, before the
    selection (nothing public happens between the round's start and the simultaneous selection,
    so it sees what it would see then), and the card is fixed as the PREFER mask of its selection
    (its own mask kept aside). The choice is posed as the selection will be: from its hand, or its
    discard pile when the hand is empty, less what its restriction forbids."""
    ints, floats, rollout_restrict = search
    for seat in range(state[PLAYERS]):
        if codes[seat] != POLICY_SEARCH:
            continue
        pose(state, seat, SELECT_CARD, available_cards(state, seat), restrict)
        if forced(state):
            card = answer_of(state)
        else:
            prepare_rollouts(state, seat, restrict, ints, floats, rollout_restrict)
            card = search_answer(state, int(params[seat, S_ROLLOUTS]), opts, params[seat], rollout_restrict,
                                 ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, rng,
                                 sample_world, play_out)
        ints[SEARCH_SAVED, seat] = restrict[seat, SELECT_CARD, PREFER]
        restrict[seat, SELECT_CARD, PREFER] = 1 << card


@kernel
def release_searched_cards(state, codes, restrict, search):
    """The search seats' own PREFER masks back after the round."""
    ints = search[0]
    for seat in range(state[PLAYERS]):
        if codes[seat] == POLICY_SEARCH:
            restrict[seat, SELECT_CARD, PREFER] = ints[SEARCH_SAVED, seat]


@kernel
def play_on(state, opts, codes, params, restrict, rng, script, trace, work, search):
    """Play rounds until a Monarch wins or the round cap is reached; ``search``: the search's
    buffers (policies.new_search_buffers)."""
    while state[WINNER] == NOBODY and state[ROUND] < opts[OPT_MAX_ROUNDS]:
        fix_searched_cards(state, opts, codes, params, restrict, rng, search)
        advance(state, opts, codes, params, restrict, rng, script, trace, work)
        release_searched_cards(state, codes, restrict, search)
    if state[WINNER] == NOBODY:
        log(state, trace, EV_CAP, NOBODY, NO_CARD, NO_CARD, state[ROUND])


@kernel
def play_game(state, opts, codes, params, restrict, rng, script, trace, work, search):
    deal(state, opts, rng)
    play_on(state, opts, codes, params, restrict, rng, script, trace, work, search)


# ---- batch -------------------------------------------------------------------------------
# Result columns written by write_row (names in game.py).
N_FIXED_COLUMNS = 12


@kernel
def write_row(row, state, game_index, deal_index, rotation):
    row[0], row[1], row[2] = game_index, deal_index, rotation
    row[3] = state[PLAYERS]
    row[4] = state[WINNER]
    row[5] = state[WINNER] == NOBODY
    row[6] = state[ROUND]
    row[7] = state[RETENTIONS]
    row[8] = state[TAKES]
    row[9] = state[CHARGE_CLASHES]
    row[10] = state[AMBUSHES]
    row[11] = state[ENTRAP_FLIPS]
    k = N_FIXED_COLUMNS
    for s in range(MAX_PLAYERS):
        row[k + s] = state[VP + s] if s < state[PLAYERS] else -1
        row[k + MAX_PLAYERS + s] = state[REIGNS + s] if s < state[PLAYERS] else -1
    k += 2 * MAX_PLAYERS
    for c in range(N_CARDS):
        row[k + c] = state[PLAYS + c]


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, rotations, opts, slot_codes, slot_params, slot_restrict, out):
    n = opts[OPT_PLAYERS]
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        state = np.empty(STATE_SIZE, dtype=np.int64)
        rng = np.empty(2, dtype=np.uint64)
        codes = np.empty(n, dtype=np.int64)
        params = np.empty((n, MAX_POLICY_PARAMS), dtype=np.float64)
        restrict = np.empty((n, N_KINDS_MAX, RESTRICT_SIDES), dtype=np.int64)
        no_script = np.zeros(0, dtype=np.int64)
        no_trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
        work = new_work_buffer()
        search = new_search_buffers()
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            game_index = start + i
            deal_index, rotation = split_game_index(game_index, rotations)
            seat_policies(rotation, slot_codes, slot_params, codes, params)
            seat_restrictions(rotation, slot_restrict, restrict)
            open_stream(rng, seed, deal_index)
            play_game(state, opts, codes, params, restrict, rng, no_script, no_trace, work, search)
            write_row(out[i], state, game_index, deal_index, rotation)
