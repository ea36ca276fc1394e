"""Take the Throne: compiled policies. Each answers a decision the rules posed (the engine's shared
header at state offsets 0-2, narrowed by the seat's restriction, so every policy binds to it
without knowing): "pick one set bit of state[D_CHOICES]" (a card mask or a seat mask, see
layout.py). The engine's ``decide`` (balance.engine.step) asks ``policy`` after a forced answer
and the random policy, and ``search_at`` when ``policy`` returns SEARCH. Policies:
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
- search: the engine's determinized Monte-Carlo search (balance.engine.search) at the round's
  card choice: ``rollouts`` worlds dealt from the seat's view (``sample_world``), each candidate
  card played in each world for ``horizon`` rounds (0: to the end of the game) with the heuristic
  at its defaults as every player's rollout policy, scored by the seat's VP lead and the win
  (``rollout_score``); the best mean. The rollouts play through the rules' own loop
  (``play_out``); every other decision is the heuristic's at its defaults.

What a policy sees: what every player knows who remembers every shown card. At the card
selection, the cards each player can play from, as far as they were shown: the decks of the core
and custom games are known, and every played card is shown or goes back to its hand unseen; the
random cards of Mirror's crown deck and of Asymmetric's decks are known only once played (SHOWN in
the state), until then each unseen candidate counts with its odds (unseen_cards). Of what a
player saw privately only the Monarch's Command look is used (not a deck it once held). Later in the round, only
revealed cards: a face-down card is any of the cards its player chose from (possible_cards).
"""

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND
from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import allocating_kernel, kernel, no_rows
from balance.engine.rng import below, bit_count, bit_index, random_bit, uniform
from balance.engine.ismcts import ismcts_answer, ismcts_buffers, ismcts_views
from balance.engine.search import (
    DETERMINIZE_SIGNATURE, ROLLOUT_SIGNATURE, copy_world, search_answer, search_buffers, seat_rollout_players,
)
from balance.engine.step import SEARCH, no_search, play
from balance.games.take_the_throne.layout import (
    ABDICATE, ACCEPT, ALLY, ALLY_ACCEPT, AMBUSH, AMBUSH_VP, ATTACK, AUTHORITY, CHAOS, CHARGE, CHOICE, COMMAND,
    COMMAND_REPLACE, COMMAND_VIEW, CONSOLIDATE, CROWN_MASK, DECLINE, DEFEND,
    DISCARD, DOMINATE, ENTRAP, ENTRAP_GIVE, EXTRA, FEINT, FEINT_EXTRA, HAND, INFILTRATE, MAIN,
    MAX_PLAYERS, MIRROR_CROWN_POOL_MASK, MIRROR_HOUSE_POOL_MASK, MODE_TWO_PLAYER, MONARCH, NEVER, NOBODY, NO_CARD,
    N_CARDS, OWNED, PLAYERS, POLICY_GREEDY, POLICY_HEURISTIC, POLICY_ISMCTS, RAID, RAID_TARGET, RAVEN, REINFORCE,
    REPLACEMENT_CARD, RETAIN_VP, RETAIN_VP_TWO_PLAYER, REVEALED, ROUND, ROUND_STOP, RULESET, SABOTAGE,
    SABOTAGE_TARGET, SELECT_CARD, SHOWN, STATE_SIZE, STRENGTH, TAKE_BACK_PAY, TAKE_VP_TWO_PLAYER, TIE_BREAK,
    VIEWED_CARD, VIEWED_SEAT, VP, WIN_VP, WINNER,
)
from balance.games.take_the_throne.options import HEURISTIC_PARAMS
from balance.games.take_the_throne.rules import advance, apply_answer, available_cards, over, pose_pending

# ---- heuristic parameters (index into the seat's parameter row) ---------------------------
P_W_ATTACK, P_W_INFILTRATE, P_W_CHARGE, P_W_DOMINATE, P_W_OTHER, P_THRONE_VALUE, P_WIN_VALUE, P_KEEP_COST, \
    P_DEFEND_KEEP, P_SABOTAGE_DISRUPT, P_ALLY_REFUSE_VP, P_TEMPERATURE = range(12)

# The heuristic's parameter row at its defaults: the search's rollout policy and its other decisions.
HEURISTIC_DEFAULTS = np.zeros(MAX_POLICY_PARAMS, dtype=np.float64)
HEURISTIC_DEFAULTS[:len(HEURISTIC_PARAMS)] = [p.default for p in HEURISTIC_PARAMS]

# ---- search parameters (index into the seat's parameter row; declared in options.py) ------
S_ROLLOUTS, S_HORIZON = range(2)
WIN_SCORE = 20.0  # a rollout's score for a won (lost: minus) game, on top of the VP lead: the
                  # heuristic's default win_value, so a win outweighs any lead

# Rows of the policies' scratch buffer (one per block of games; see new_work_buffer).
# Kernel functions index it directly (no row views) so Numba needs no reference counting.
ROW_ATTACK, ROW_INFILTRATE, ROW_CHARGE, ROW_DOMINATE, ROW_SCORES, ROW_PARAMS, ROW_TAKE, ROW_SUMMARY = range(8)
WORK_ROWS = 8
# Entries of ROW_SUMMARY (see summarize_contest): probabilities over the other house players.
S_NO_CHARGE_NO_DOMINATE, S_ONE_CHARGE_NO_DOMINATE, S_ONE_CHARGE, S_NO_ATTACK, S_ONE_CHARGE_NO_ATTACK, \
    S_NO_INFILTRATE, S_ONE_CHARGE_NO_INFILTRATE, S_HALF_TIES_ATTACK, S_HALF_TIES_INFILTRATE = range(9)
WORK_WIDTH = max(N_CARDS, MAX_POLICY_PARAMS)

# The search's buffers (one set per block of games; see new_search_buffers): an int64 matrix of
# STATE_SIZE columns, a float64 matrix and the rollouts' restrictions.
SEARCH_SAMPLED, SEARCH_WORLD, SEARCH_CODES = range(3)  # int rows: a sampled world, the world a
# rollout plays on, every rollout player's policy code
SEARCH_INT_ROWS = 3
# float rows: the rollouts' work buffer (WORK_ROWS rows), then one parameter row per player, then
# the driver's totals per card
SEARCH_PARAMS = WORK_ROWS
SEARCH_TOTALS = SEARCH_PARAMS + MAX_PLAYERS
SEARCH_FLOAT_ROWS = SEARCH_TOTALS + 1

NEGLIGIBLE_EXPONENT = -30.0  # exp(-30) ~ 1e-13: such a card is never drawn
CONTEST_MASK = (1 << ATTACK) | (1 << INFILTRATE) | (1 << CHARGE) | (1 << DOMINATE)

# Card priorities of the greedy policy (first = most wanted).
GREEDY_HOUSE_ORDER = np.array([CHARGE, INFILTRATE, ATTACK, DOMINATE, FEINT, SABOTAGE, ALLY, RAVEN, AMBUSH,
                               REINFORCE], dtype=np.int64)
GREEDY_CROWN_ORDER = np.array([DEFEND, CONSOLIDATE, RAID, ENTRAP, COMMAND, AUTHORITY, CHAOS, ABDICATE],
                              dtype=np.int64)


# ---- shared helpers ---------------------------------------------------------------------
@allocating_kernel
def new_work_buffer():
    return np.zeros((WORK_ROWS, WORK_WIDTH), dtype=np.float64)


@allocating_kernel
def new_search_buffers():
    """The searches' buffers (rows above): (int matrix, float matrix, the rollouts' restrictions,
    the tree search's words: ``ismcts_views``)."""
    ints, floats, restrict = search_buffers(SEARCH_INT_ROWS, STATE_SIZE, SEARCH_FLOAT_ROWS, WORK_WIDTH, MAX_PLAYERS)
    return ints, floats, restrict, ismcts_buffers(STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS)


@kernel
def softmax_pick(rng, choices, work):
    """A card of ``choices`` drawn with probability proportional to exp(score / temperature)
    (scores in the work buffer's score row); temperature 0 plays the best card. Mixing keeps
    equal players from all making the same play."""
    temperature = work[ROW_PARAMS, P_TEMPERATURE]
    best, best_score = -1, -1e300
    m = choices
    while m:
        c = bit_index(m & -m)
        m &= m - 1
        if work[ROW_SCORES, c] > best_score:
            best, best_score = c, work[ROW_SCORES, c]
    if temperature <= 0.0:
        return best
    total = 0.0
    m = choices
    while m:
        c = bit_index(m & -m)
        m &= m - 1
        z = (work[ROW_SCORES, c] - best_score) / temperature
        if z == 0.0:  # the best card (and any tied with it): exp(0) is exactly 1, no call
            work[ROW_SCORES, c] = 1.0
        else:
            work[ROW_SCORES, c] = np.exp(z) if z > NEGLIGIBLE_EXPONENT else 0.0
        total += work[ROW_SCORES, c]
    pick = uniform(rng) * total
    m = choices
    while m:
        c = bit_index(m & -m)
        m &= m - 1
        pick -= work[ROW_SCORES, c]
        if pick <= 0.0:
            return c
    return best


@kernel(inline="always")
def cards_in_play(state, seat):
    mask = 0
    for slot in (MAIN, EXTRA):
        if state[slot + seat] != NO_CARD:
            mask |= 1 << state[slot + seat]
    return mask


@kernel(inline="always")
def unseen_cards(state, seat):
    """(candidates, odds): the cards ``seat``'s deck may hold that nobody has been shown (the random
    draws of Mirror's crown deck and of Asymmetric's decks), each held with these odds. Unseen
    cards were never played, so they are in the hand. Nothing in decks everyone knows."""
    if state[SHOWN + seat] == state[OWNED + seat]:  # nothing unseen (SHOWN is part of OWNED; sizes are public)
        return 0, 0.0
    unseen = bit_count(state[OWNED + seat]) - bit_count(state[SHOWN + seat])
    pool = MIRROR_CROWN_POOL_MASK if seat == state[MONARCH] else MIRROR_HOUSE_POOL_MASK
    candidates = pool & ~state[SHOWN + seat]
    return candidates, unseen / bit_count(candidates)


@kernel(inline="always")
def possible_cards(state, seat):
    """(known, candidates, odds): the cards another player must reckon ``seat`` may play or have in
    play: ``known`` for certain, each of ``candidates`` with ``odds`` (see unseen_cards). At the card
    selection: what it can play from. Later in the round: a revealed card is known (only a contest
    card matters); a face-down card is any of the cards it chose from, its hand and that card (the
    hand alone would give the card away); a card raided away is gone."""
    if state[D_KIND] == SELECT_CARD:
        candidates, odds = unseen_cards(state, seat)
        return available_cards(state, seat) & state[SHOWN + seat], candidates, odds
    if state[REVEALED + seat]:
        return cards_in_play(state, seat) & CONTEST_MASK, 0, 0.0
    if state[MAIN + seat] == NO_CARD:
        return 0, 0, 0.0
    candidates, odds = unseen_cards(state, seat)
    return (state[HAND + seat] | (1 << state[MAIN + seat])) & state[SHOWN + seat], candidates, odds


@kernel(inline="always")
def holds(known, candidates, odds, card):
    """P(a player holds ``card``), from possible_cards."""
    return (known >> card & 1) + odds * (candidates >> card & 1)


@kernel
def seat_with_max_vp(state, seats, rng):
    """The seat of ``seats`` with the most VP; ties broken at random, so no seat is favoured."""
    return extreme_vp_seat(state, seats, rng, 1)


@kernel
def seat_with_min_vp(state, seats, rng):
    """The seat of ``seats`` with the fewest VP; ties broken at random."""
    return extreme_vp_seat(state, seats, rng, -1)


@kernel(inline="always")
def extreme_vp_seat(state, seats, rng, sign):
    best, best_key, ties = -1, 0, 0
    for s in range(state[PLAYERS]):
        if not seats >> s & 1:
            continue
        key = sign * state[VP + s]
        if best < 0 or key > best_key:
            best, best_key, ties = s, key, 1
        elif key == best_key:
            ties += 1
            if below(rng, ties) == 0:  # reservoir sampling: each tied seat equally likely
                best = s
    return best


@kernel
def first_in_order(order, choices):
    for c in order:
        if choices >> c & 1:
            return c
    return bit_index(choices & -choices)


# ---- the heuristic's opponent model -----------------------------------------------------
@kernel(inline="always")
def card_weight(card, work):
    if card == ATTACK:
        return work[ROW_PARAMS, P_W_ATTACK]
    if card == INFILTRATE:
        return work[ROW_PARAMS, P_W_INFILTRATE]
    if card == CHARGE:
        return work[ROW_PARAMS, P_W_CHARGE]
    if card == DOMINATE:
        return work[ROW_PARAMS, P_W_DOMINATE]
    return work[ROW_PARAMS, P_W_OTHER]


@kernel(inline="always")
def model_player(state, seat, weights, work):
    """Column ``seat`` of the odds rows: P(seat plays Attack, Infiltrate, Charge, Dominate), over
    its possible cards (a known contest card gets odds 1); ``weights`` as model_house reads them.
    When no card of its deck is unseen (always so in the core and custom games) the odds terms are
    zeros and are left out: the same values, at a fraction of the cost (this runs for every other
    player at every decision of the heuristic)."""
    known, candidates, odds = possible_cards(state, seat)
    if candidates == 0:
        attack, infiltrate, charge = known >> ATTACK & 1, known >> INFILTRATE & 1, known >> CHARGE & 1
        dominate = known >> DOMINATE & 1
        # its other cards counted as all but the contest cards: a mask applied before bit_count
        # keeps the compiler from using the CPU's popcount instruction
        set_player_odds(work, seat, weights, attack, infiltrate, charge, dominate,
                        bit_count(known) - attack - infiltrate - charge - dominate)
    else:
        set_player_odds(work, seat, weights, holds(known, candidates, odds, ATTACK),
                        holds(known, candidates, odds, INFILTRATE), holds(known, candidates, odds, CHARGE),
                        holds(known, candidates, odds, DOMINATE),
                        bit_count(known & ~CONTEST_MASK) + odds * bit_count(candidates & ~CONTEST_MASK))


@kernel(inline="always")
def set_player_odds(work, seat, weights, has_attack, has_infiltrate, has_charge, has_dominate, others):
    """The odds of model_player from how likely ``seat`` holds each contest card and how many other
    cards it holds (integers or floats: an integer weighs as the float of its value). Branch-free:
    hands vary from call to call, and mispredicted branches cost more than the math."""
    w_attack, w_infiltrate, w_charge, w_dominate, w_other = weights
    attack = has_attack * w_attack
    infiltrate = has_infiltrate * w_infiltrate
    charge = has_charge * w_charge
    dominate = has_dominate * w_dominate
    total = attack + infiltrate + charge + dominate + others * w_other
    scale = 1.0 / total if total > 0.0 else 0.0
    work[ROW_ATTACK, seat] = attack * scale
    work[ROW_INFILTRATE, seat] = infiltrate * scale
    work[ROW_CHARGE, seat] = charge * scale
    work[ROW_DOMINATE, seat] = dominate * scale


@kernel
def model_house(state, skip, work):
    """Model every house player except ``skip`` (the Monarch and ``skip`` get zero odds). The
    weights are read once, not once per player."""
    weights = (work[ROW_PARAMS, P_W_ATTACK], work[ROW_PARAMS, P_W_INFILTRATE], work[ROW_PARAMS, P_W_CHARGE],
               work[ROW_PARAMS, P_W_DOMINATE], work[ROW_PARAMS, P_W_OTHER])
    monarch = state[MONARCH]
    for s in range(state[PLAYERS]):
        if s == monarch or s == skip:
            for row in (ROW_ATTACK, ROW_INFILTRATE, ROW_CHARGE, ROW_DOMINATE):
                work[row, s] = 0.0
        else:
            model_player(state, s, weights, work)


@kernel(inline="always")  # one pass per house or crown decision: inlined into its callers
def summarize_contest(state, work, skip):
    """One pass over the modelled house players except ``skip``, keeping the probabilities the
    heuristic needs in ROW_SUMMARY (players independent, each playing one card). "Exactly one
    Charge and no X" is tracked as the pair (P(no Charge, no X so far), P(one Charge, no X so far))."""
    none_cd, one_c_no_d = 1.0, 0.0
    none_c, one_c = 1.0, 0.0
    none_ca, one_c_no_a = 1.0, 0.0
    none_ci, one_c_no_i = 1.0, 0.0
    none_a, none_i, half_ties_a, half_ties_i = 1.0, 1.0, 1.0, 1.0
    for s in range(state[PLAYERS]):
        if s == skip:
            continue
        a, i, c, d = work[ROW_ATTACK, s], work[ROW_INFILTRATE, s], work[ROW_CHARGE, s], work[ROW_DOMINATE, s]
        one_c_no_d = one_c_no_d * (1.0 - c - d) + none_cd * c
        none_cd *= 1.0 - c - d
        one_c = one_c * (1.0 - c) + none_c * c
        none_c *= 1.0 - c
        one_c_no_a = one_c_no_a * (1.0 - c - a) + none_ca * c
        none_ca *= 1.0 - c - a
        one_c_no_i = one_c_no_i * (1.0 - c - i) + none_ci * c
        none_ci *= 1.0 - c - i
        none_a *= 1.0 - a
        none_i *= 1.0 - i
        half_ties_a *= 1.0 - 0.5 * a
        half_ties_i *= 1.0 - 0.5 * i
    work[ROW_SUMMARY, S_NO_CHARGE_NO_DOMINATE] = none_cd
    work[ROW_SUMMARY, S_ONE_CHARGE_NO_DOMINATE] = one_c_no_d
    work[ROW_SUMMARY, S_ONE_CHARGE] = one_c
    work[ROW_SUMMARY, S_NO_ATTACK] = none_a
    work[ROW_SUMMARY, S_ONE_CHARGE_NO_ATTACK] = one_c_no_a
    work[ROW_SUMMARY, S_NO_INFILTRATE] = none_i
    work[ROW_SUMMARY, S_ONE_CHARGE_NO_INFILTRATE] = one_c_no_i
    work[ROW_SUMMARY, S_HALF_TIES_ATTACK] = half_ties_a
    work[ROW_SUMMARY, S_HALF_TIES_INFILTRATE] = half_ties_i


@kernel(inline="always")
def p_monarch_keeps(work, defend):
    """P(no house card survives the contest), from the summary. A card survives iff exactly one
    Charge is left (Dominate needs that too) or an Attack is left (an Infiltrate needs one);
    Defend removes every Attack."""
    if defend:
        return 1.0 - work[ROW_SUMMARY, S_ONE_CHARGE]
    return work[ROW_SUMMARY, S_NO_ATTACK] - work[ROW_SUMMARY, S_ONE_CHARGE_NO_ATTACK]


@kernel(inline="always")
def monarch_card_odds(state, card):
    """P(the Monarch plays ``card``): uniform over its possible cards at the selection (hand sizes are
    public); after that its card is known (the Monarch reveals first)."""
    monarch = state[MONARCH]
    if state[D_KIND] != SELECT_CARD:
        return float(cards_in_play(state, monarch) >> card & 1)
    known, candidates, odds = possible_cards(state, monarch)
    if not (known | candidates) >> card & 1:  # a card it cannot hold: no division
        return 0.0
    return holds(known, candidates, odds, card) / bit_count(available_cards(state, monarch))


@kernel(inline="always")  # once per house decision: inlined into best_house_card
def fill_take_odds(state, defend, work):
    """work[ROW_TAKE, card]: P(the deciding house player takes the throne playing contest card
    ``card``), the other house players as summarised and the Monarch playing any card of its hand
    (``defend``: its odds of Defend, monarch_card_odds, which the caller also needs)."""
    house = state[PLAYERS] - 1
    monarch_block = 1.0 - monarch_card_odds(state, RAID) / house - monarch_card_odds(state, ENTRAP) \
        - 0.5 * monarch_card_odds(state, COMMAND) / house
    no_defend = 1.0 - defend
    summary = ROW_SUMMARY
    # Charge: nobody else plays Charge or Dominate
    charge = work[summary, S_NO_CHARGE_NO_DOMINATE]
    # Dominate: exactly one other Charge and no other Dominate
    dominate = work[summary, S_ONE_CHARGE_NO_DOMINATE]
    # Infiltrate: an Attack to feed on, not exactly one Charge; half the ties with other Infiltrates
    no_attack_not_one = work[summary, S_NO_ATTACK] - work[summary, S_ONE_CHARGE_NO_ATTACK]
    infiltrate = (1.0 - work[summary, S_ONE_CHARGE] - no_attack_not_one) * no_defend \
        * work[summary, S_HALF_TIES_INFILTRATE]
    # Attack: no Infiltrate (mine feeds it), not exactly one Charge; half the ties with other Attacks
    attack = (work[summary, S_NO_INFILTRATE] - work[summary, S_ONE_CHARGE_NO_INFILTRATE]) * no_defend \
        * work[summary, S_HALF_TIES_ATTACK]
    work[ROW_TAKE, CHARGE] = max(0.0, charge * monarch_block)
    work[ROW_TAKE, DOMINATE] = max(0.0, dominate * monarch_block)
    work[ROW_TAKE, INFILTRATE] = max(0.0, infiltrate * monarch_block)
    work[ROW_TAKE, ATTACK] = max(0.0, attack * monarch_block)


@kernel(inline="always")
def win_value(vp_after, work):
    return work[ROW_PARAMS, P_WIN_VALUE] if vp_after >= WIN_VP else 0.0


@kernel
def best_house_card(state, seat, choices, rng, work):
    """The heuristic's card for a house player among ``choices`` (selection, Feint, replacement)."""
    model_house(state, seat, work)
    vp = state[VP + seat]
    take_value = 1.0 + work[ROW_PARAMS, P_THRONE_VALUE] + win_value(vp + 1, work)
    summarize_contest(state, work, seat)
    defend = monarch_card_odds(state, DEFEND)
    p_keep = p_monarch_keeps(work, defend > 0.5)
    fill_take_odds(state, defend, work)
    m = choices
    while m:
        card = bit_index(m & -m)
        m &= m - 1
        if STRENGTH[card] > 0:
            score = work[ROW_TAKE, card] * take_value - work[ROW_PARAMS, P_KEEP_COST] * STRENGTH[card]
        elif card == SABOTAGE:
            score = p_keep + work[ROW_PARAMS, P_SABOTAGE_DISRUPT]
        elif card == FEINT:
            # pay 1 VP, add the best contest card; taking the throne then pays 2 VP
            cost = 1 if vp > 0 else 0
            feint_take_value = 2.0 + work[ROW_PARAMS, P_THRONE_VALUE] + win_value(vp - cost + 2, work)
            extra = 0.0
            for c in (ATTACK, INFILTRATE, CHARGE, DOMINATE):
                if (state[HAND + seat] | state[DISCARD + seat]) >> c & 1:
                    extra = max(extra, work[ROW_TAKE, c] * feint_take_value
                                - work[ROW_PARAMS, P_KEEP_COST] * STRENGTH[c])
            score = extra - cost
        elif card == ALLY:
            score = (1.0 - p_keep) * 2.0 + defend * work[ROW_PARAMS, P_SABOTAGE_DISRUPT]
        elif card == AMBUSH:
            hit = (monarch_card_odds(state, RAID) + monarch_card_odds(state, COMMAND)) / (state[PLAYERS] - 1) \
                + monarch_card_odds(state, CHAOS)
            score = AMBUSH_VP * hit
        elif card == RAVEN:
            score = 0.8
        else:
            score = 0.0
        work[ROW_SCORES, card] = score
    return softmax_pick(rng, choices, work)


@kernel
def best_crown_card(state, choices, rng, work):
    """The heuristic's card for the Monarch among ``choices``."""
    n = state[PLAYERS]
    monarch = state[MONARCH]
    model_house(state, -1, work)
    vp = state[VP + monarch]
    danger = 0.0
    richest = -1
    for s in range(n):
        if s != monarch:
            if state[VP + s] + 1 >= WIN_VP:
                danger = work[ROW_PARAMS, P_WIN_VALUE]
            if richest < 0 or state[VP + s] > state[VP + richest]:
                richest = s
    lose_value = -work[ROW_PARAMS, P_THRONE_VALUE] - danger
    summarize_contest(state, work, -1)
    keep = p_monarch_keeps(work, False)
    keep_with_defend = p_monarch_keeps(work, True)
    target = threat_target(state, seats_except(state, monarch), rng, work)
    raided = keep  # P(the Monarch keeps it) once the target's card is raided away: Raid's, half Command's
    if choices & ((1 << RAID) | (1 << COMMAND)):  # worked out once for both cards
        summarize_contest(state, work, target)
        raided = p_monarch_keeps(work, False)
    m = choices
    while m:
        card = bit_index(m & -m)
        m &= m - 1
        bonus = 0.0
        p = keep
        if card == DEFEND:
            p = keep_with_defend
            bonus = -work[ROW_PARAMS, P_DEFEND_KEEP]
        elif card == CONSOLIDATE:
            bonus = p
        elif card == RAID or card == COMMAND:
            p = raided if card == RAID else 0.5 * (raided + keep)
        elif card == ENTRAP:
            p = 1.0 - keep
            bonus = -keep  # the Monarch pays a VP when nobody would have taken it
        elif card == AUTHORITY and state[VP + richest] > vp:
            bonus = 1.0
        if card == ABDICATE:
            # 1 VP now; kept: the throne back and the take-back VP in force (TAKE_BACK_PAY)
            back = state[TAKE_BACK_PAY]
            score = 1.0 + keep * (back + work[ROW_PARAMS, P_THRONE_VALUE] + win_value(vp + 1 + back, work)) \
                + (1.0 - keep) * lose_value
        else:
            extra = 1 if card == CONSOLIDATE else 0
            retain_value = RETAIN_VP + work[ROW_PARAMS, P_THRONE_VALUE] + win_value(vp + RETAIN_VP + extra, work)
            score = p * retain_value + (1.0 - p) * lose_value + bonus
        work[ROW_SCORES, card] = score
    return softmax_pick(rng, choices, work)


@kernel(inline="always")
def seats_except(state, seat):
    return ((1 << state[PLAYERS]) - 1) & ~(1 << seat)


@kernel(inline="always")  # per seat: inlined into threat_target
def threat(state, seat, work):
    """How likely ``seat`` is to take the throne this round, with weight on players near 8 VP
    (from the modelled odds: model_house must have run)."""
    t = work[ROW_CHARGE, seat] + work[ROW_DOMINATE, seat] + 0.5 * (work[ROW_ATTACK, seat] + work[ROW_INFILTRATE, seat])
    if state[VP + seat] + 1 >= WIN_VP:
        t += 1.0
    return t


@kernel
def threat_target(state, seats, rng, work):
    """The most threatening seat of ``seats``; ties broken at random, so no seat is favoured."""
    best, best_threat, ties = -1, -1.0, 0
    for s in range(state[PLAYERS]):
        if seats >> s & 1:
            t = threat(state, s, work)
            if t > best_threat:
                best, best_threat, ties = s, t, 1
            elif t == best_threat:
                ties += 1
                if below(rng, ties) == 0:
                    best = s
    return best


@kernel
def current_leader(state, rng):
    """The revealed contender who would take the throne if play stopped now (-1 if none); among
    equally strong contenders one at random."""
    best, best_strength, ties = -1, 0, 0
    for s in range(state[PLAYERS]):
        if s == state[MONARCH] or not state[REVEALED + s]:
            continue
        strength = max(STRENGTH[state[MAIN + s]] if state[MAIN + s] != NO_CARD else 0,
                       STRENGTH[state[EXTRA + s]] if state[EXTRA + s] != NO_CARD else 0)
        if strength > best_strength:
            best, best_strength, ties = s, strength, 1
        elif strength == best_strength and strength > 0:
            ties += 1
            if below(rng, ties) == 0:
                best = s
    return best


# ---- two-player heuristic ----------------------------------------------------------------
@kernel
def best_two_player_card(state, seat, choices, rng, work):
    """Score each card against the opponent's modelled play by resolving the two-card contest."""
    other = 1 - seat
    monarch = state[MONARCH] == seat
    theirs = available_cards(state, other)
    total = 0.0
    for c in range(ATTACK, REINFORCE + 1):
        if theirs >> c & 1:
            total += card_weight(c, work)
    vp, their_vp = state[VP + seat], state[VP + other]
    for mine in range(ATTACK, REINFORCE + 1):
        if not choices >> mine & 1:
            continue
        score = 0.0
        for c in range(ATTACK, REINFORCE + 1):
            if not theirs >> c & 1:
                continue
            p = card_weight(c, work) / total
            my_strength = contest_strength(mine, mine, c)
            their_strength = contest_strength(c, mine, c)
            if monarch:
                if their_strength > my_strength:
                    gain = -work[ROW_PARAMS, P_THRONE_VALUE] - win_value(their_vp + TAKE_VP_TWO_PLAYER, work)
                else:
                    gain = RETAIN_VP_TWO_PLAYER + work[ROW_PARAMS, P_THRONE_VALUE] + win_value(vp + RETAIN_VP_TWO_PLAYER, work)
            elif my_strength > their_strength:
                gain = TAKE_VP_TWO_PLAYER + work[ROW_PARAMS, P_THRONE_VALUE] + win_value(vp + TAKE_VP_TWO_PLAYER, work)
            else:
                gain = -win_value(their_vp + RETAIN_VP_TWO_PLAYER, work)
            score += p * gain
        if mine == REINFORCE:
            score += work[ROW_PARAMS, P_KEEP_COST] * 4.0 * bit_count(state[DISCARD + seat]) + (0.0 if monarch else 1.0)
        else:
            score -= work[ROW_PARAMS, P_KEEP_COST] * STRENGTH[mine]
        work[ROW_SCORES, mine] = score
    return softmax_pick(rng, choices, work)


@kernel
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


# ---- the policies' answers ------------------------------------------------------------------
@kernel
def greedy_choice(state, kind, seat, choices, rng):
    if kind == SELECT_CARD or kind == REPLACEMENT_CARD or kind == FEINT_EXTRA:
        if choices & CROWN_MASK:
            return first_in_order(GREEDY_CROWN_ORDER, choices)
        return first_in_order(GREEDY_HOUSE_ORDER, choices)
    if kind == TIE_BREAK or kind == ENTRAP_GIVE:
        return seat_with_min_vp(state, choices, rng)
    if kind == ALLY_ACCEPT:
        return ACCEPT
    return seat_with_max_vp(state, choices, rng)


@kernel(inline="always")  # into policy: a dispatch entered at every decision, its callees' arguments passed once
def heuristic_choice(state, kind, seat, choices, rng, work):
    monarch = state[MONARCH]
    if kind == SELECT_CARD or kind == REPLACEMENT_CARD or kind == FEINT_EXTRA:
        if state[RULESET] == MODE_TWO_PLAYER:
            return best_two_player_card(state, seat, choices, rng, work)
        if choices & CROWN_MASK:
            return best_crown_card(state, choices, rng, work)
        return best_house_card(state, seat, choices, rng, work)
    model_house(state, -1, work)
    if kind == RAID_TARGET or kind == COMMAND_VIEW:
        return threat_target(state, choices, rng, work)
    if kind == COMMAND_REPLACE:
        viewed = state[VIEWED_SEAT]
        if viewed >= 0 and choices >> viewed & 1 and STRENGTH[state[VIEWED_CARD]] > 0:
            return viewed
        others = choices & ~(1 << viewed) if viewed >= 0 else choices
        return threat_target(state, others if others else choices, rng, work)
    if kind == SABOTAGE_TARGET:
        leader = current_leader(state, rng)
        if leader >= 0 and choices >> leader & 1:
            return leader
        if choices >> monarch & 1 and state[MAIN + monarch] == DEFEND:
            return monarch
        house = choices & ~(1 << monarch)
        return threat_target(state, house if house else choices, rng, work)
    if kind == TIE_BREAK or kind == ENTRAP_GIVE:
        return seat_with_min_vp(state, choices, rng)
    if kind == ALLY_ACCEPT:
        if state[VP + seat] + 1 >= WIN_VP:
            return ACCEPT
        for s in range(state[PLAYERS]):
            if s != seat and state[MAIN + s] == ALLY and state[VP + s] + 2 >= work[ROW_PARAMS, P_ALLY_REFUSE_VP]:
                return DECLINE
        return ACCEPT
    return seat_with_max_vp(state, choices, rng)


# ---- every decision but the random policy's (balance.engine.step.decide) ----------------------
@kernel(inline="always")
def policy(state, table, seat, code, params_row, rng, mind):
    """The seat's answer to the posed decision by its policy ``code`` (parameter row
    ``params_row``); a search seat's card is the search's (SEARCH), its other answers the
    heuristic's at its defaults; an ismcts seat's every answer is the tree search's (SEARCH).
    ``mind``: (the work buffer, the searches' buffers)."""
    work = mind[0]
    kind = state[D_KIND]
    choices = state[D_CHOICES]
    if code == POLICY_GREEDY:
        return greedy_choice(state, kind, seat, choices, rng)
    if code == POLICY_HEURISTIC:
        for k in range(MAX_POLICY_PARAMS):
            work[ROW_PARAMS, k] = params_row[k]
        return heuristic_choice(state, kind, seat, choices, rng, work)
    if code == POLICY_ISMCTS or kind == SELECT_CARD:  # or POLICY_SEARCH's card
        return SEARCH
    for k in range(MAX_POLICY_PARAMS):
        work[ROW_PARAMS, k] = HEURISTIC_DEFAULTS[k]
    return heuristic_choice(state, kind, seat, choices, rng, work)


# ---- the search policy's per-game pieces (the driver is balance.engine.search) ----------------
@kernel(inline="always")
def known_cards(state, seat, other):
    """The cards of ``other``'s deck ``seat`` knows: those every player was shown, its discard pile
    (every card in it was shown), its cards in play once revealed, and the card the Monarch's
    Command looked at."""
    known = state[SHOWN + other] | state[DISCARD + other]
    if other == seat or state[REVEALED + other]:
        for slot in (MAIN, EXTRA):
            if state[slot + other] != NO_CARD:
                known |= 1 << state[slot + other]
    if seat == state[MONARCH] and state[VIEWED_SEAT] == other and state[VIEWED_CARD] != NO_CARD:
        known |= 1 << state[VIEWED_CARD]
    return known & state[OWNED + other]


@kernel(DETERMINIZE_SIGNATURE)
def sample_world(state, sampled, seat, opts, ints, rng):
    """A world consistent with what ``seat`` knows (the view the heuristic reads, see the module
    docstring), built from that view alone: a copy of the state in which every other player's cards
    it does not know (Mirror's and Asymmetric's random cards never shown: in the hand, or in play
    face down) are dealt again at random from the cards its deck may hold that nobody has been
    shown, a card face down in play first. Only how many such cards a player holds is read (deck
    sizes are public), never which, so one view and one stream give one world. Everything else is
    shown or public but the cards the others chose this round (the selection is simultaneous): they
    are left unmade, and the rollouts draw them."""
    copy_world(sampled, state, STATE_SIZE)
    for other in range(state[PLAYERS]):
        if other == seat:
            continue
        sampled[CHOICE + other] = NO_CARD
        known = known_cards(state, seat, other)
        unseen = bit_count(state[OWNED + other]) - bit_count(known)
        if unseen == 0:
            continue
        pool = MIRROR_CROWN_POOL_MASK if other == state[MONARCH] else MIRROR_HOUSE_POOL_MASK
        candidates = pool & ~known
        dealt = 0
        for _ in range(unseen):
            card = random_bit(rng, candidates)
            candidates &= ~(1 << card)
            dealt |= 1 << card
        sampled[OWNED + other] = known | dealt
        for slot in (MAIN, EXTRA):  # a card face down in play is one of the unknown ones
            card = state[slot + other]
            if card != NO_CARD and not known >> card & 1:
                card = random_bit(rng, dealt)
                sampled[slot + other] = card
                dealt &= ~(1 << card)
        sampled[HAND + other] = (state[HAND + other] & known) | dealt


@kernel
def rollout_score(world, seat):
    """A rollout's end for ``seat``: its VP lead over the best other player, plus WIN_SCORE for a
    won game (minus for a lost one)."""
    best_other = -1
    for s in range(world[PLAYERS]):
        if s != seat and (best_other < 0 or world[VP + s] > best_other):
            best_other = world[VP + s]
    score = float(world[VP + seat] - best_other)
    if world[WINNER] == seat:
        return score + WIN_SCORE
    if world[WINNER] != NOBODY:
        return score - WIN_SCORE
    return score


@kernel  # a loop of its own, the rules' phase steps inlined into it (rules.IN_GAME_LOOP, docs/speed.md)
def finish(world, table, rng, codes, params, restrict, mind):
    """A search's rollout (the tree search's, and the flat search's after its card): the game played
    to its end (or ``world[ROUND_STOP]``) through the rules' own loop."""
    play(world, table, rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer, policy,
         no_search)


@kernel(ROLLOUT_SIGNATURE)
def play_out(world, card, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout: ``seat`` plays ``card`` (its pending selection in ``world``), then the
    round and on to ``horizon`` rounds in all (0: the end of the game) through the rules' own loop,
    every player the heuristic at its defaults (the rows search_at filled; the searcher keeps its
    restriction); scored by ``rollout_score``. No trace."""
    horizon = int(params[S_HORIZON])
    world[ROUND_STOP] = world[ROUND] + horizon if horizon else NEVER
    table = (opts, rng, no_rows(ints))
    # in place of the tree search's words (a rollout never reads them), two rows of this search's
    # buffers: the mind has the type ``finish`` is compiled for, so the game's loop compiles once
    mind = (floats[:WORK_ROWS], (ints, floats, restrict, (ints[0], floats[0])))
    apply_answer(world, table, card)
    finish(world, table, rng, ints[SEARCH_CODES], floats[SEARCH_PARAMS:SEARCH_PARAMS + MAX_PLAYERS], restrict, mind)
    return rollout_score(world, seat)


@kernel
def search_at(state, table, seat, code, params_row, restrict, rng, mind):
    """The tree search's answer for ``seat`` (balance.engine.ismcts, every rollout player random or
    the heuristic at its defaults, each seat valued by ``rollout_score``), or the flat search's card
    (its posed selection): every rollout player the heuristic at its defaults, the driver
    balance.engine.search with ``sample_world`` and ``play_out``."""
    ints, floats, rollout_restrict, tree = mind[1]
    if code == POLICY_ISMCTS:
        return ismcts_answer(state, (table[0], rng, no_rows(ints)), rng, state[PLAYERS], params_row,
                             POLICY_HEURISTIC, HEURISTIC_DEFAULTS, restrict, mind,
                             ismcts_views(tree, STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS), ints, advance, over,
                             pose_pending, apply_answer, policy, sample_world, finish, rollout_score)
    seat_rollout_players(state[PLAYERS], seat, restrict, POLICY_HEURISTIC, HEURISTIC_DEFAULTS, ints[SEARCH_CODES],
                         floats[SEARCH_PARAMS:], rollout_restrict)
    return search_answer(state, int(params_row[S_ROLLOUTS]), table[0], params_row, rollout_restrict,
                         ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, rng,
                         sample_world, play_out)
