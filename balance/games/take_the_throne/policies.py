"""Take the Throne: compiled policies. Every decision of the kernel comes through ``decide``.

A decision is "pick one set bit of ``choices``" (a card mask or a seat mask, see layout.py).
Policies:
- random: uniform over the legal choices.
- greedy: fixed card priorities (house: Charge, Infiltrate, Attack, ...; Monarch: Defend,
  Consolidate, Raid, ...), targets the VP leader, breaks ties towards the lowest VP.
- heuristic: estimates, from what every player still holds, how likely each card is to take or
  keep the throne (opponents modelled as playing the cards in their hands with weights
  ``w_<card>``), and plays the card with the best expected VP value; near 8 VP it values the
  win, it keeps its strong cards when burning them is likely to be wasted, and it picks targets
  by threat. It draws its card from a softmax over the scores (``temperature``), so players
  in the same spot do not all make the same play. Every weight is a tunable parameter
  (see options.py).
- scripted: replays a list of decisions (tests, positions).

Policies see every player's hand. In the core and Mirror games that is what a player who
remembers the revealed cards knows (all house decks are alike and played cards are shown); in the
Asymmetric and custom games it is a perfect-memory simplification.
"""

import numpy as np
from numba import njit

from balance.engine.rng import bit_count, bit_index, random_bit, uniform
from balance.games.take_the_throne.layout import (
    ABDICATE, ACCEPT, ALLY, ALLY_ACCEPT, AMBUSH, ATTACK, AUTHORITY, CHAOS, CHARGE, COMMAND, COMMAND_REPLACE,
    COMMAND_VIEW, CONSOLIDATE, DECLINE, DEFEND, DISCARD, DOMINATE, ENTRAP, ENTRAP_GIVE, FEINT, FEINT_EXTRA, HAND,
    INFILTRATE, MAIN, EXTRA, MONARCH, NO_CARD, RULESET, MODE_TWO_PLAYER, PLAYERS, POLICY_GREEDY, POLICY_HEURISTIC,
    POLICY_RANDOM, RAID, RAID_TARGET, RAVEN, REINFORCE, REPLACEMENT_CARD, REVEALED, SABOTAGE, SABOTAGE_TARGET,
    SCRIPT_POS, SELECT_CARD, STEAL_VICTIM, STRENGTH, TIE_BREAK, VIEWED_CARD, VIEWED_SEAT, VP, WIN_VP, CROWN_MASK,
    N_CARDS, AMBUSH_VP, RETAIN_VP, RETAIN_VP_TWO_PLAYER, TAKE_VP_TWO_PLAYER,
)

# ---- heuristic parameters (index into the seat's parameter row) ---------------------------
P_W_ATTACK, P_W_INFILTRATE, P_W_CHARGE, P_W_DOMINATE, P_W_OTHER, P_THRONE_VALUE, P_WIN_VALUE, P_KEEP_COST, \
    P_DEFEND_KEEP, P_SABOTAGE_DISRUPT, P_ALLY_REFUSE_VP, P_TEMPERATURE = range(12)

# Rows of the policies' scratch buffer (one per block of games; see new_work_buffer).
ROW_ATTACK, ROW_INFILTRATE, ROW_CHARGE, ROW_DOMINATE, ROW_SCORES, ROW_ODDS = range(6)
WORK_ROWS = 6

# Card priorities of the greedy policy (first = most wanted).
GREEDY_HOUSE_ORDER = np.array([CHARGE, INFILTRATE, ATTACK, DOMINATE, FEINT, SABOTAGE, ALLY, RAVEN, AMBUSH,
                               REINFORCE], dtype=np.int64)
GREEDY_CROWN_ORDER = np.array([DEFEND, CONSOLIDATE, RAID, ENTRAP, COMMAND, AUTHORITY, CHAOS, ABDICATE],
                              dtype=np.int64)


# ---- shared helpers ---------------------------------------------------------------------
@njit(cache=True)
def new_work_buffer():
    return np.zeros((WORK_ROWS, N_CARDS), dtype=np.float64)


@njit(cache=True)
def softmax_pick(rng, choices, scores, temperature):
    """A card of ``choices`` drawn with probability proportional to exp(score / temperature);
    temperature 0 plays the best card. Mixing keeps equal players from all making the same play."""
    best, best_score = -1, -1e300
    for c in range(N_CARDS):
        if choices >> c & 1 and scores[c] > best_score:
            best, best_score = c, scores[c]
    if temperature <= 0.0:
        return best
    total = 0.0
    for c in range(N_CARDS):
        if choices >> c & 1:
            total += np.exp((scores[c] - best_score) / temperature)
    pick = uniform(rng) * total
    for c in range(N_CARDS):
        if choices >> c & 1:
            pick -= np.exp((scores[c] - best_score) / temperature)
            if pick <= 0.0:
                return c
    return best


@njit(cache=True)
def available_cards(state, seat):
    """What a player can play from: the hand, or the discard pile when the hand is empty."""
    hand = state[HAND + seat]
    return hand if hand != 0 else state[DISCARD + seat]


@njit(cache=True)
def seat_with_max_vp(state, seats):
    best, best_vp = -1, -1
    for s in range(state[PLAYERS]):
        if seats >> s & 1 and state[VP + s] > best_vp:
            best, best_vp = s, state[VP + s]
    return best


@njit(cache=True)
def seat_with_min_vp(state, seats):
    best, best_vp = -1, 1 << 30
    for s in range(state[PLAYERS]):
        if seats >> s & 1 and state[VP + s] < best_vp:
            best, best_vp = s, state[VP + s]
    return best


@njit(cache=True)
def first_in_order(order, choices):
    for c in order:
        if choices >> c & 1:
            return c
    return bit_index(choices & -choices)


# ---- the heuristic's opponent model -----------------------------------------------------
@njit(cache=True)
def card_weight(card, params):
    if card == ATTACK:
        return params[P_W_ATTACK]
    if card == INFILTRATE:
        return params[P_W_INFILTRATE]
    if card == CHARGE:
        return params[P_W_CHARGE]
    if card == DOMINATE:
        return params[P_W_DOMINATE]
    return params[P_W_OTHER]


@njit(cache=True)
def model_player(state, seat, params, work):
    """Column ``seat`` of the odds rows: P(seat plays Attack, Infiltrate, Charge, Dominate)."""
    cards = available_cards(state, seat)
    total = 0.0
    for c in range(ATTACK, REINFORCE + 1):
        if cards >> c & 1:
            total += card_weight(c, params)
    for row, card in ((ROW_ATTACK, ATTACK), (ROW_INFILTRATE, INFILTRATE), (ROW_CHARGE, CHARGE),
                      (ROW_DOMINATE, DOMINATE)):
        work[row, seat] = card_weight(card, params) / total if total > 0.0 and cards >> card & 1 else 0.0


@njit(cache=True)
def model_house(state, params, skip, work):
    """Model every house player except ``skip`` (the Monarch and ``skip`` get zero odds)."""
    monarch = state[MONARCH]
    for s in range(state[PLAYERS]):
        if s == monarch or s == skip:
            for row in (ROW_ATTACK, ROW_INFILTRATE, ROW_CHARGE, ROW_DOMINATE):
                work[row, s] = 0.0
        else:
            model_player(state, s, params, work)


@njit(cache=True)
def p_none(state, work, row_a, row_b):
    """P(no modelled player plays the card of row_a or of row_b); row_b = -1 for none."""
    p = 1.0
    for s in range(state[PLAYERS]):
        p *= 1.0 - work[row_a, s] - (work[row_b, s] if row_b >= 0 else 0.0)
    return p


@njit(cache=True)
def p_exactly_one(state, work, row_one, row_none):
    """P(exactly one modelled player plays row_one's card and nobody plays row_none's);
    row_none = -1 for no second condition. Players are independent."""
    n = state[PLAYERS]
    total = 0.0
    for j in range(n):
        if work[row_one, j] == 0.0:
            continue
        p = work[row_one, j]
        for k in range(n):
            if k != j:
                p *= 1.0 - work[row_one, k] - (work[row_none, k] if row_none >= 0 else 0.0)
        total += p
    return total


@njit(cache=True)
def p_monarch_keeps(state, work, defend):
    """P(no house card survives the contest). A card survives iff exactly one Charge is left
    (Dominate needs that too) or an Attack is left (an Infiltrate needs one); Defend removes
    every Attack."""
    if defend:
        return 1.0 - p_exactly_one(state, work, ROW_CHARGE, -1)
    return p_none(state, work, ROW_ATTACK, -1) - p_exactly_one(state, work, ROW_CHARGE, ROW_ATTACK)


@njit(cache=True)
def monarch_card_odds(state, card):
    hand = available_cards(state, state[MONARCH])
    if not hand >> card & 1:
        return 0.0
    return 1.0 / bit_count(hand)


@njit(cache=True)
def p_take_with(state, card, work):
    """P(a house player takes the throne playing contest card ``card``), the others as modelled."""
    house = state[PLAYERS] - 1
    monarch_block = 1.0 - monarch_card_odds(state, RAID) / house - monarch_card_odds(state, ENTRAP) \
        - 0.5 * monarch_card_odds(state, COMMAND) / house
    no_defend = 1.0 - monarch_card_odds(state, DEFEND)
    if card == CHARGE:
        p = p_none(state, work, ROW_CHARGE, ROW_DOMINATE)
    elif card == DOMINATE:
        p = p_exactly_one(state, work, ROW_CHARGE, ROW_DOMINATE)
    elif card == INFILTRATE:
        # some Attack to feed on, and not exactly one Charge; half the ties with other Infiltrates
        p_not_one_charge = 1.0 - p_exactly_one(state, work, ROW_CHARGE, -1)
        p_no_attack_not_one = p_none(state, work, ROW_ATTACK, -1) - p_exactly_one(state, work, ROW_CHARGE, ROW_ATTACK)
        p = (p_not_one_charge - p_no_attack_not_one) * no_defend * half_ties(state, work, ROW_INFILTRATE)
    elif card == ATTACK:
        # no Infiltrate (mine feeds it) and not exactly one Charge; half the ties with other Attacks
        p = (p_none(state, work, ROW_INFILTRATE, -1) - p_exactly_one(state, work, ROW_CHARGE, ROW_INFILTRATE)) \
            * no_defend * half_ties(state, work, ROW_ATTACK)
    else:
        p = 0.0
    return max(0.0, p * monarch_block)


@njit(cache=True)
def half_ties(state, work, row):
    p = 1.0
    for s in range(state[PLAYERS]):
        p *= 1.0 - 0.5 * work[row, s]
    return p


@njit(cache=True)
def win_value(vp_after, params):
    return params[P_WIN_VALUE] if vp_after >= WIN_VP else 0.0


@njit(cache=True)
def best_house_card(state, seat, choices, params, rng, work):
    """The heuristic's card for a house player among ``choices`` (selection, Feint, replacement)."""
    model_house(state, params, seat, work)
    vp = state[VP + seat]
    take_value = 1.0 + params[P_THRONE_VALUE] + win_value(vp + 1, params)
    p_keep = p_monarch_keeps(state, work, monarch_card_odds(state, DEFEND) > 0.5)
    scores = work[ROW_SCORES]
    for card in range(ATTACK, REINFORCE + 1):
        if not choices >> card & 1:
            continue
        if STRENGTH[card] > 0:
            score = p_take_with(state, card, work) * take_value - params[P_KEEP_COST] * STRENGTH[card]
        elif card == SABOTAGE:
            score = p_keep + params[P_SABOTAGE_DISRUPT]
        elif card == FEINT:
            # pay 1 VP, add the best contest card; taking the throne then pays 2 VP
            cost = 1 if vp > 0 else 0
            feint_take_value = 2.0 + params[P_THRONE_VALUE] + win_value(vp - cost + 2, params)
            extra = 0.0
            for c in (ATTACK, INFILTRATE, CHARGE, DOMINATE):
                if (state[HAND + seat] | state[DISCARD + seat]) >> c & 1:
                    extra = max(extra, p_take_with(state, c, work) * feint_take_value
                                - params[P_KEEP_COST] * STRENGTH[c])
            score = extra - cost
        elif card == ALLY:
            score = (1.0 - p_keep) * 2.0 + monarch_card_odds(state, DEFEND) * params[P_SABOTAGE_DISRUPT]
        elif card == AMBUSH:
            hit = (monarch_card_odds(state, RAID) + monarch_card_odds(state, COMMAND)) / (state[PLAYERS] - 1) \
                + monarch_card_odds(state, CHAOS)
            score = AMBUSH_VP * hit
        elif card == RAVEN:
            score = 0.8
        else:
            score = 0.0
        scores[card] = score
    return softmax_pick(rng, choices, scores, params[P_TEMPERATURE])


@njit(cache=True)
def best_crown_card(state, choices, params, rng, work):
    """The heuristic's card for the Monarch among ``choices``."""
    n = state[PLAYERS]
    monarch = state[MONARCH]
    model_house(state, params, -1, work)
    vp = state[VP + monarch]
    danger = 0.0
    richest = -1
    for s in range(n):
        if s != monarch:
            if state[VP + s] + 1 >= WIN_VP:
                danger = params[P_WIN_VALUE]
            if richest < 0 or state[VP + s] > state[VP + richest]:
                richest = s
    lose_value = -params[P_THRONE_VALUE] - danger
    keep = p_monarch_keeps(state, work, False)
    target = threat_target(state, seats_except(state, monarch), params, work)
    scores = work[ROW_SCORES]
    for card in range(ABDICATE, ENTRAP + 1):
        if not choices >> card & 1:
            continue
        bonus = 0.0
        p = keep
        if card == DEFEND:
            p = p_monarch_keeps(state, work, True)
            bonus = -params[P_DEFEND_KEEP]
        elif card == CONSOLIDATE:
            bonus = p
        elif card == RAID or card == COMMAND:
            raided = keep_without(state, work, target)
            p = raided if card == RAID else 0.5 * (raided + keep)
        elif card == ENTRAP:
            p = 1.0 - keep
            bonus = -keep  # the Monarch pays a VP when nobody would have taken it
        elif card == AUTHORITY and state[VP + richest] > vp:
            bonus = 1.0
        if card == ABDICATE:
            score = 1.0 + keep * (params[P_THRONE_VALUE] + win_value(vp + 1, params)) + (1.0 - keep) * lose_value
        else:
            extra = 1 if card == CONSOLIDATE else 0
            retain_value = RETAIN_VP + params[P_THRONE_VALUE] + win_value(vp + RETAIN_VP + extra, params)
            score = p * retain_value + (1.0 - p) * lose_value + bonus
        scores[card] = score
    return softmax_pick(rng, choices, scores, params[P_TEMPERATURE])


@njit(cache=True)
def keep_without(state, work, seat):
    """p_monarch_keeps with ``seat``'s card removed (Raid)."""
    saved = work[ROW_ATTACK, seat], work[ROW_INFILTRATE, seat], work[ROW_CHARGE, seat], work[ROW_DOMINATE, seat]
    work[ROW_ATTACK, seat] = work[ROW_INFILTRATE, seat] = work[ROW_CHARGE, seat] = work[ROW_DOMINATE, seat] = 0.0
    keep = p_monarch_keeps(state, work, False)
    work[ROW_ATTACK, seat], work[ROW_INFILTRATE, seat], work[ROW_CHARGE, seat], work[ROW_DOMINATE, seat] = saved
    return keep


@njit(cache=True)
def seats_except(state, seat):
    return ((1 << state[PLAYERS]) - 1) & ~(1 << seat)


@njit(cache=True)
def threat(state, seat, params, work):
    """How likely ``seat`` is to take the throne this round, with weight on players near 8 VP."""
    model_player(state, seat, params, work)
    t = work[ROW_CHARGE, seat] + work[ROW_DOMINATE, seat] + 0.5 * (work[ROW_ATTACK, seat] + work[ROW_INFILTRATE, seat])
    if state[VP + seat] + 1 >= WIN_VP:
        t += 1.0
    return t


@njit(cache=True)
def threat_target(state, seats, params, work):
    best, best_threat = -1, -1.0
    for s in range(state[PLAYERS]):
        if seats >> s & 1:
            t = threat(state, s, params, work)
            if t > best_threat:
                best, best_threat = s, t
    return best


@njit(cache=True)
def current_leader(state):
    """The revealed contender who would take the throne if play stopped now (-1 if none)."""
    best, best_strength = -1, 0
    for s in range(state[PLAYERS]):
        if s == state[MONARCH] or not state[REVEALED + s]:
            continue
        for slot in (MAIN, EXTRA):
            card = state[slot + s]
            if card != NO_CARD and STRENGTH[card] > best_strength:
                best, best_strength = s, STRENGTH[card]
    return best


# ---- two-player heuristic ----------------------------------------------------------------
@njit(cache=True)
def best_two_player_card(state, seat, choices, params, rng, work):
    """Score each card against the opponent's modelled play by resolving the two-card contest."""
    other = 1 - seat
    monarch = state[MONARCH] == seat
    theirs = available_cards(state, other)
    total = 0.0
    for c in range(ATTACK, REINFORCE + 1):
        if theirs >> c & 1:
            total += card_weight(c, params)
    vp, their_vp = state[VP + seat], state[VP + other]
    scores = work[ROW_SCORES]
    for mine in range(ATTACK, REINFORCE + 1):
        if not choices >> mine & 1:
            continue
        score = 0.0
        for c in range(ATTACK, REINFORCE + 1):
            if not theirs >> c & 1:
                continue
            p = card_weight(c, params) / total
            my_strength = contest_strength(mine, mine, c)
            their_strength = contest_strength(c, mine, c)
            if monarch:
                if their_strength > my_strength:
                    gain = -params[P_THRONE_VALUE] - win_value(their_vp + TAKE_VP_TWO_PLAYER, params)
                else:
                    gain = RETAIN_VP_TWO_PLAYER + params[P_THRONE_VALUE] + win_value(vp + RETAIN_VP_TWO_PLAYER, params)
            elif my_strength > their_strength:
                gain = TAKE_VP_TWO_PLAYER + params[P_THRONE_VALUE] + win_value(vp + TAKE_VP_TWO_PLAYER, params)
            else:
                gain = -win_value(their_vp + RETAIN_VP_TWO_PLAYER, params)
            score += p * gain
        if mine == REINFORCE:
            score += params[P_KEEP_COST] * 4.0 * bit_count(state[DISCARD + seat]) + (0.0 if monarch else 1.0)
        else:
            score -= params[P_KEEP_COST] * STRENGTH[mine]
        scores[mine] = score
    return softmax_pick(rng, choices, scores, params[P_TEMPERATURE])


@njit(cache=True)
def contest_strength(card, a, b):
    """Strength left to ``card`` (one of a, b) after the contest checks of a two-card contest."""
    charges = (a == CHARGE) + (b == CHARGE)
    attacks = (a == ATTACK) + (b == ATTACK)
    if card == CHARGE and charges > 1:
        return 0
    if card == INFILTRATE and attacks == 0:
        return 0
    if card == DOMINATE and charges != 1:
        return 0
    return STRENGTH[card]


# ---- dispatch -----------------------------------------------------------------------------
@njit(cache=True)
def scripted_choice(state, choices, script):
    pos = state[SCRIPT_POS]
    if pos >= len(script):
        raise ValueError("scripted policy: the script ran out of decisions")
    state[SCRIPT_POS] = pos + 1
    value = script[pos]
    if not (value >= 0 and choices >> value & 1):
        raise ValueError("scripted policy: scripted decision is not legal here")
    return value


@njit(cache=True)
def greedy_choice(state, kind, seat, choices):
    if kind == SELECT_CARD or kind == REPLACEMENT_CARD or kind == FEINT_EXTRA:
        if choices & CROWN_MASK:
            return first_in_order(GREEDY_CROWN_ORDER, choices)
        return first_in_order(GREEDY_HOUSE_ORDER, choices)
    if kind == TIE_BREAK or kind == ENTRAP_GIVE:
        return seat_with_min_vp(state, choices)
    if kind == ALLY_ACCEPT:
        return ACCEPT
    return seat_with_max_vp(state, choices)


@njit(cache=True)
def heuristic_choice(state, kind, seat, choices, params, rng, work):
    monarch = state[MONARCH]
    if kind == SELECT_CARD or kind == REPLACEMENT_CARD or kind == FEINT_EXTRA:
        if state[RULESET] == MODE_TWO_PLAYER:
            return best_two_player_card(state, seat, choices, params, rng, work)
        if choices & CROWN_MASK:
            return best_crown_card(state, choices, params, rng, work)
        return best_house_card(state, seat, choices, params, rng, work)
    if kind == RAID_TARGET or kind == COMMAND_VIEW:
        return threat_target(state, choices, params, work)
    if kind == COMMAND_REPLACE:
        viewed = state[VIEWED_SEAT]
        if viewed >= 0 and choices >> viewed & 1 and STRENGTH[state[VIEWED_CARD]] > 0:
            return viewed
        others = choices & ~(1 << viewed) if viewed >= 0 else choices
        return threat_target(state, others if others else choices, params, work)
    if kind == SABOTAGE_TARGET:
        leader = current_leader(state)
        if leader >= 0 and choices >> leader & 1:
            return leader
        if choices >> monarch & 1 and state[MAIN + monarch] == DEFEND:
            return monarch
        house = choices & ~(1 << monarch)
        return threat_target(state, house if house else choices, params, work)
    if kind == TIE_BREAK or kind == ENTRAP_GIVE:
        return seat_with_min_vp(state, choices)
    if kind == ALLY_ACCEPT:
        if state[VP + seat] + 1 >= WIN_VP:
            return ACCEPT
        for s in range(state[PLAYERS]):
            if s != seat and state[MAIN + s] == ALLY and state[VP + s] + 2 >= params[P_ALLY_REFUSE_VP]:
                return DECLINE
        return ACCEPT
    return seat_with_max_vp(state, choices)


@njit(cache=True)
def decide(state, kind, seat, choices, policy_codes, policy_params, rng, script, work):
    """The one door through which every decision of the kernel passes."""
    if choices & (choices - 1) == 0:
        return bit_index(choices)  # forced: nothing to decide
    code = policy_codes[seat]
    if code == POLICY_RANDOM:
        return random_bit(rng, choices)
    if code == POLICY_GREEDY:
        return greedy_choice(state, kind, seat, choices)
    if code == POLICY_HEURISTIC:
        return heuristic_choice(state, kind, seat, choices, policy_params[seat], rng, work)
    return scripted_choice(state, choices, script)
