"""Thron der Lügen: the policies. ``policy`` answers the decision the rules posed (balance.engine.step:
the engine's ``decide`` answers a forced decision and the random policy itself, and calls
``search_at`` when ``policy`` returns SEARCH); a policy chooses among the bits of
``state[D_CHOICES]`` only.

The heuristic sees only what its seat may know: its hand (and the card it drew), its two throne
cards, the face-up discard pile, the End cards, and the throne cards it placed, moved or looked at
since they last changed (``seen``). It copies that view into the state's policy scratch (VIEW,
VIEW_FLIP) and scores every seat on it once (ESTIMATE), tries each answer on the copy and scores the
result, rescoring only the seats beside the thrones the answer changes: its own total (the rulebook's
scoring where it knows both cards, the mean of the cards it has not seen where it does not, a
little more for a card the seat itself was seen to put there), less
``rival`` times the best total it expects of another seat, plus the hand cards' stone chances.
Equally good answers are broken at random from the game's stream.

The search policy is the engine's determinized Monte-Carlo search (balance.engine.search) at the
turn's choice (draw, or reveal an End card): ``rollouts`` worlds dealt from the seat's view
(``sample_world``), each answer played in each through the rules' own loop with the heuristic at
its defaults as every player's rollout policy for ``horizon`` rounds (1: to the end of this round)
and scored by ``rollout_score``; the best mean. Its other decisions are the
heuristic's at its defaults.
"""

import numpy as np

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import allocating_kernel, kernel, no_rows, read_only
from balance.engine.rng import below, bit_count, bit_index, random_bit, shuffle
from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.ismcts import ismcts_answer, ismcts_buffers, ismcts_views
from balance.engine.search import (
    DETERMINIZE_SIGNATURE, ROLLOUT_SIGNATURE, copy_world, search_answer, search_buffers, seat_rollout_players,
)
from balance.engine.step import SEARCH, no_search, play
from balance.games.thron_der_luegen.layout import (
    ACT, DECK_VALUE2, DISCARDS, DISCARDS_VALUE2, EXCHANGE_BEST, DOUBLE, DOUBLE_VALUE, DRAWN, END_SHOWN, FAR_THRONE, FLIP, HAND,
    HIDE_END, HUNT, INTRIGUE, KEEP, KNOWN, LONE, LONE_LIMIT, LOWEST, MAX_PLAYERS, N_ACTS, N_COURT, N_ORIENTED, NO_CARD,
    OPT_ALONE, OPT_FACE, OPT_MEAN2, OPT_PAIR, OPT_PARTNER, OPT_PLACED_FLIP, PAIR, PEEK_CHOICE, PEEK_SWAP,
    PEEK_TARGET, PENDING, PLACER, PLACING, PLAY, PLAYERS, REACH_ANY, REVEAL_END, SPLIT, SUMMED_DISCARDS, SWAP_FAR, SWAP_FIRST, SWAP_LEFT, SWAP_RIGHT, SWAP_SECOND,
    SWAP_THRONES, THRONE, TURN, VIEW, VIEW_FLIP, WITH_LEFT, DRAW, ESTIMATE, MATCH_OVER, NOBODY, OPT_SPLIT_PLACER,
    PILE, PILE_TOP, POLICY_HEURISTIC, POLICY_ISMCTS, ROUND, ROUND_STONES, SCORE, STATE_SIZE, STONES,
    TURN_SEAT, USED, WINNER,
    OPT_MAX_ROUNDS,
)
from balance.games.thron_der_luegen.options import HEURISTIC_PARAMS
from balance.games.thron_der_luegen.rules import advance, apply_answer, deal_round, over, pose_pending
from balance.games.thron_der_luegen.scoring import (
    beside, effect_of, face_value, hand_modifier, kind_of, left_throne, own_thrones_mask, pair_score, param_of,
    placement_flip, right_throne,
)

# heuristic parameters (order of options.HEURISTIC_PARAMS)
P_END_MARGIN, P_RIVAL, P_LONE, P_LOWEST, P_PAIR, P_KEEP, P_HIDE, P_PLACED = range(8)
TIE = 1e-9  # answers scored within this of the best are equally good
NO_THRONE = -1  # try_change: no throne

# The heuristic's parameter row at its defaults: the search's rollout policy and its other decisions.
HEURISTIC_DEFAULTS = np.zeros(MAX_POLICY_PARAMS, dtype=np.float64)
HEURISTIC_DEFAULTS[:len(HEURISTIC_PARAMS)] = [p.default for p in HEURISTIC_PARAMS]

# ---- search parameters (index into the seat's parameter row; declared in options.py) ------
S_ROLLOUTS, S_HORIZON = range(2)
STONE_POINTS = 10.0  # a rollout's score per point stone of lead: a stone outweighs any usual points lead
WIN_SCORE = 20.0  # on top, for a won (lost: minus) match

# The search's buffers (one set per block of matches; see new_search_buffers): an int64 matrix of
# STATE_SIZE columns, a float64 matrix and the rollouts' restrictions.
SEARCH_SAMPLED, SEARCH_WORLD, SEARCH_CODES, SEARCH_POOL = range(4)  # int rows: a sampled world, the
# world a rollout plays on, every rollout player's policy code, the unseen cards being dealt
SEARCH_INT_ROWS = 4
SEARCH_PARAMS = 0  # float rows: one parameter row per player (the rollouts'), then the driver's totals
SEARCH_TOTALS = SEARCH_PARAMS + MAX_PLAYERS
SEARCH_FLOAT_ROWS = SEARCH_TOTALS + 1


# ---- the seat's view --------------------------------------------------------------------------
@kernel(inline="always")
def load_view(state, seat):
    """Copy the thrones as ``seat`` knows them into the scratch (NO_CARD where it does not); returns
    the cards it knows there (mask), so that the scratch need not be read back at once."""
    n = state[PLAYERS]
    cards = 0
    for t in range(n):
        if beside(seat, t, n):
            card = state[THRONE + t]
        else:
            card = state[KNOWN + seat * MAX_PLAYERS + t]
        state[VIEW + t] = card
        state[VIEW_FLIP + t] = state[FLIP + t] if card != NO_CARD else 0
        if card != NO_CARD:
            cards |= 1 << card
    return cards


# ---- the lookup tables (layout.OPT_FACE...), written into opts once per setup -----------------
@kernel
def fill_lookups(opts):
    """Write the deck's lookup tables into ``opts`` (its deck table and options already set), each
    entry computed by the scoring rule or heuristic rule it stands for."""
    for o in range(N_ORIENTED):
        card, reads_right = o // 2, o % 2
        opts[OPT_FACE + o] = face_value(opts, card, 0, 0, 1 - reads_right)  # seat 0 on throne 0: turned = left
    for o in range(N_ORIENTED):
        for other in range(N_ORIENTED):
            opts[OPT_PAIR + o * N_ORIENTED + other] = pair_score(opts, o // 2, opts[OPT_FACE + o], other // 2,
                                                                 opts[OPT_FACE + other])
        kind = kind_of(opts, o // 2)
        opts[OPT_ALONE + o] = 0 if kind == DOUBLE else opts[OPT_FACE + o]
        opts[OPT_PARTNER + o] = 0 if kind == HUNT else DOUBLE_VALUE if kind == DOUBLE else 1
    for card in range(N_COURT):
        opts[OPT_MEAN2 + card] = opts[OPT_FACE + 2 * card] + opts[OPT_FACE + 2 * card + 1]
        opts[OPT_PLACED_FLIP + 2 * card] = placement_flip(opts, card, 1, 0)
        opts[OPT_PLACED_FLIP + 2 * card + 1] = placement_flip(opts, card, 0, 0)


@kernel(inline="always")
def read_on_left_throne(card, flip):
    """``card`` as the seat whose left throne it lies on reads it (oriented): the card's right half
    faces that seat unless the card is turned (scoring.face_value)."""
    return 2 * card + (flip != 1)


@kernel(inline="always")
def read_on_right_throne(card, flip):
    return 2 * card + (flip == 1)


@kernel(inline="always")
def placed_flip(opts, card, throne, placer):
    """scoring.placement_flip, looked up."""
    return opts[OPT_PLACED_FLIP + 2 * card + (placer == throne)]


@kernel(inline="always")
def mean_face(opts, card):
    """A card's value on a throne, read from either side (a split card: the mean of its numbers)."""
    return 0.5 * opts[OPT_MEAN2 + card]


@kernel
def deck_value2(opts):
    """Twice the summed ``mean_face`` of the 28 court cards (a whole number: split means end in .5)."""
    total = 0
    for c in range(N_COURT):
        total += opts[OPT_MEAN2 + c]
    return total


@kernel(inline="always")
def discards_value2(state, opts):
    """Twice the summed ``mean_face`` of the face-up discards, kept in the policy scratch with the
    mask it was summed for: the discards only grow during a round, so a decision adds the new ones
    (fewer discards than summed, as in a new round: summed again)."""
    discards = state[DISCARDS]
    summed, total = state[SUMMED_DISCARDS], state[DISCARDS_VALUE2]
    if summed & ~discards:
        summed, total = 0, 0
    new = discards & ~summed
    while new:
        total += opts[OPT_MEAN2 + bit_index(new & -new)]
        new &= new - 1
    state[SUMMED_DISCARDS], state[DISCARDS_VALUE2] = discards, total
    return total


@kernel(inline="always")
def unseen_mean(state, opts, seat, view_cards):
    """The mean value of the court cards ``seat`` has not seen (not face up, not in its hand, not on a
    throne it knows: ``view_cards``, from load_view; the intrigue card being carried out is face up): what an unknown throne card is worth on average.
    The deck's total less the seen cards' values, in whole numbers (twice the values), so the mean
    does not depend on the order."""
    discards = state[DISCARDS]
    seen_mask = 1 << state[HAND + seat] | view_cards
    if state[DRAWN] != NO_CARD:
        seen_mask |= 1 << state[DRAWN]
    if state[PLACING] != NO_CARD:
        seen_mask |= 1 << state[PLACING]
    if state[USED] != NO_CARD:  # the intrigue card being carried out lies face up
        seen_mask |= 1 << state[USED]
    seen_mask &= ~discards
    count = N_COURT - bit_count(seen_mask | discards)
    total2 = state[DECK_VALUE2] - discards_value2(state, opts)
    m = seen_mask
    while m:
        total2 -= opts[OPT_MEAN2 + bit_index(m & -m)]
        m &= m - 1
    return 0.5 * total2 / count if count else 0.0


@kernel(inline="always")
def unknown_value(state, throne, seat, mu, p):
    """What an unseen card on ``throne`` is worth to ``seat``: the unseen mean, and ``placed_bonus``
    more when ``seat`` put it there itself from its hand (everyone saw it choose that card)."""
    return mu + p[P_PLACED] if state[PLACER + throne] == seat else mu


@kernel(inline="always")
def estimate(state, opts, seat, mu, p):
    """``seat``'s throne score as the viewer's scratch knows its thrones (unseen cards: unknown_value)."""
    n = state[PLAYERS]
    tl, tr = left_throne(seat, n), right_throne(seat, n)
    a, b = state[VIEW + tl], state[VIEW + tr]
    if a != NO_CARD and b != NO_CARD:
        return 1.0 * opts[OPT_PAIR + read_on_left_throne(a, state[VIEW_FLIP + tl]) * N_ORIENTED
                          + read_on_right_throne(b, state[VIEW_FLIP + tr])]
    if a == NO_CARD and b == NO_CARD:
        return unknown_value(state, tl, seat, mu, p) + unknown_value(state, tr, seat, mu, p)
    if a != NO_CARD:
        known, other = read_on_left_throne(a, state[VIEW_FLIP + tl]), tr
    else:
        known, other = read_on_right_throne(b, state[VIEW_FLIP + tr]), tl
    # the known card alone (a Wild Hunt: its value; an x2: nothing) and the unseen one as often as it counts
    return opts[OPT_ALONE + known] + opts[OPT_PARTNER + known] * unknown_value(state, other, seat, mu, p)


@kernel(inline="always")
def load_estimates(state, opts, mu, p, est):
    """Every seat's ``estimate`` of the loaded view, once per decision: an answer that changes some
    thrones rescores only the seats beside them (``seats_touched``)."""
    for o in range(state[PLAYERS]):
        est[o] = estimate(state, opts, o, mu, p)


@kernel(inline="always")
def seats_touched(thrones, n):
    """The seats (mask) beside any of ``thrones`` (mask): throne t lies between seats t and t + 1."""
    return (thrones | thrones << 1 | thrones >> (n - 1)) & ((1 << n) - 1)


@kernel(inline="always")
def current_estimate(state, opts, seat, mu, p, est, touched):
    """``seat``'s estimate of the scratch: rescored if its thrones changed (``touched``), else loaded."""
    return estimate(state, opts, seat, mu, p) if touched >> seat & 1 else est[seat]


@kernel(inline="always")
def utility(state, opts, seat, kept, mu, p, est, changed):
    """How good the scratch position is for ``seat`` keeping ``kept`` in hand, in points; the thrones
    in ``changed`` (mask) differ from the loaded view."""
    n = state[PLAYERS]
    touched = seats_touched(changed, n)
    thrones = current_estimate(state, opts, seat, mu, p, est, touched)
    best_other, lowest_other = -1e9, 1e9
    for o in range(n):
        if o != seat:
            e = current_estimate(state, opts, o, mu, p, est, touched)
            best_other = max(best_other, e)
            lowest_other = min(lowest_other, e)
    value = thrones + hand_modifier(opts, kept) - p[P_RIVAL] * best_other
    kind = kind_of(opts, kept)
    if kind == LONE and thrones <= LONE_LIMIT:
        value += p[P_LONE]
    elif kind == LOWEST and thrones <= lowest_other:
        value += p[P_LOWEST]
    elif kind != INTRIGUE:
        value += p[P_KEEP] * mean_face(opts, kept)
    tl, tr = left_throne(seat, n), right_throne(seat, n)
    if state[VIEW + tl] != NO_CARD and state[VIEW + tr] != NO_CARD and \
            kind_of(opts, state[VIEW + tl]) == PAIR and kind_of(opts, state[VIEW + tr]) == PAIR:
        value += p[P_PAIR]
    return value


@kernel(inline="always")
def try_change(state, opts, seat, a, b, card, kept, mu, p, est):
    """Utility after a change of the scratch (restored afterwards): none (a = NO_THRONE), ``card``
    placed by ``seat`` on throne a (b = NO_THRONE), or the cards of thrones a and b exchanged.
    Answers are tried by the hundred a round, and a call passes some 30 words: this is compiled into
    its callers, each of which calls it once (best_change)."""
    changed = 0
    saved, saved_flip = NO_CARD, 0
    if a != NO_THRONE:
        saved, saved_flip = state[VIEW + a], state[VIEW_FLIP + a]
        if b == NO_THRONE:
            state[VIEW + a] = card
            state[VIEW_FLIP + a] = placed_flip(opts, card, a, seat) if card != NO_CARD else 0
            changed = 1 << a
        else:
            state[VIEW + a], state[VIEW_FLIP + a] = state[VIEW + b], state[VIEW_FLIP + b]
            state[VIEW + b], state[VIEW_FLIP + b] = saved, saved_flip
            changed = 1 << a | 1 << b
    value = utility(state, opts, seat, kept, mu, p, est, changed)
    if a != NO_THRONE:
        if b != NO_THRONE:
            state[VIEW + b], state[VIEW_FLIP + b] = state[VIEW + a], state[VIEW_FLIP + a]
        state[VIEW + a], state[VIEW_FLIP + a] = saved, saved_flip
    return value


@kernel(inline="always")
def lowest_throne(thrones):
    """The lowest throne of ``thrones`` (mask), NO_THRONE if there is none."""
    return bit_index(thrones & -thrones) if thrones else NO_THRONE


@kernel(inline="always")
def best_change(state, opts, seat, thrones, b, card, kept, mu, p, est):
    """The best ``try_change`` with a any throne of ``thrones`` (mask; 0: the view unchanged)."""
    best = -1e18
    while True:  # one call of try_change, so it is compiled into the caller once
        best = max(best, try_change(state, opts, seat, lowest_throne(thrones), b, card, kept, mu, p, est))
        thrones &= thrones - 1
        if thrones == 0:
            return best


@kernel
def exchange_values(state, opts, seat, thrones, kept, mu, p, est, best):
    """For each throne of ``thrones`` (mask), the best swap_thrones exchange of its card with another
    throne's, into ``best`` (per throne); an exchange is the same both ways, so each pair is tried once."""
    n = state[PLAYERS]
    for t in range(n):
        best[t] = -1e18
    for a in range(n):
        for b in range(a + 1, n):
            if (thrones >> a | thrones >> b) & 1:
                v = try_change(state, opts, seat, a, b, NO_CARD, kept, mu, p, est)
                best[a] = max(best[a], v)
                best[b] = max(best[b], v)


@kernel(inline="always")
def exchange_scratch(state):
    """The policy scratch exchange_values fills (float64 per throne, no copy)."""
    return state[EXCHANGE_BEST:EXCHANGE_BEST + MAX_PLAYERS].view(np.float64)


@kernel
def play_value(state, opts, seat, card, kept, mu, p, est):
    """What playing intrigue ``card`` is worth (its best use), keeping ``kept``."""
    n = state[PLAYERS]
    every = (1 << n) - 1
    own = (1 << left_throne(seat, n)) | (1 << right_throne(seat, n))
    effect = effect_of(opts, card)
    if effect == SWAP_THRONES:
        firsts = own if param_of(opts, card) else every
        best = exchange_scratch(state)
        exchange_values(state, opts, seat, firsts, kept, mu, p, est, best)
        value = -1e18
        for t in range(n):
            if firsts >> t & 1:
                value = max(value, best[t])
        return value
    base = best_change(state, opts, seat, 0, NO_THRONE, NO_CARD, kept, mu, p, est)  # the view unchanged
    if effect == HIDE_END:
        hidden = min(param_of(opts, card), state[END_SHOWN])
        behind = margin(state, opts, seat, kept, est) < p[P_END_MARGIN]
        return base + (p[P_HIDE] if behind else -p[P_HIDE]) * hidden
    if effect == PEEK_SWAP:
        if not param_of(opts, card):  # a look only
            return base
        thrones, seconds = every & ~own, own  # a card not its own exchanged with one of its own
    else:  # REPLACE_FROM_PILE: a card replaced by one unseen from the pile
        thrones, seconds = every if param_of(opts, card) == REACH_ANY else own, 0
    best = base
    while True:
        best = max(best, best_change(state, opts, seat, thrones, lowest_throne(seconds), NO_CARD, kept, mu, p, est))
        seconds &= seconds - 1
        if seconds == 0:
            return best


@kernel(inline="always")
def margin(state, opts, seat, kept, est):
    """The seat's total less the best total it expects of another seat (the loaded view)."""
    n = state[PLAYERS]
    best_other = -1e9
    for o in range(n):
        if o != seat:
            best_other = max(best_other, est[o])
    return est[seat] + hand_modifier(opts, kept) - best_other


@kernel(inline="always")
def placement_thrones(act, seat, n):
    """Where the turn's act puts its card (mask): a swap's thrones, none for a discard."""
    if act == SWAP_LEFT:
        return 1 << left_throne(seat, n)
    if act == SWAP_RIGHT:
        return 1 << right_throne(seat, n)
    if act == SWAP_FAR:
        return ((1 << n) - 1) & ~own_thrones_mask(seat, n)
    return 0


@kernel
def pick_best(state, opts, mu, p, est, rng):
    """The best-scored answer among the legal bits of the posed decision (ties at random)."""
    choices = state[D_CHOICES]
    kind = state[D_KIND]
    n = state[PLAYERS]
    if kind == SWAP_FIRST:  # every first throne's best exchange at once (answer_value reads them)
        seat = state[D_SEAT]
        exchange_values(state, opts, seat, choices, state[HAND + seat], mu, p, est, exchange_scratch(state))
    best, best_mask = -1e18, 0
    for bit in range(2 * N_ACTS if kind == ACT else n if kind != PEEK_CHOICE else 3):
        if not choices >> bit & 1:
            continue
        v = answer_value(state, opts, kind, bit, mu, p, est)
        if v > best + TIE:
            best, best_mask = v, 1 << bit
        elif v >= best - TIE:
            best_mask |= 1 << bit
    return random_bit(rng, best_mask)


@kernel(inline="always")
def answer_value(state, opts, kind, bit, mu, p, est):
    """What an answer is worth: most answers are a change of the view (best_change: a card placed on
    the best of some thrones, two thrones' cards exchanged, or nothing), kept the hand card."""
    seat = state[D_SEAT]
    n = state[PLAYERS]
    held = state[HAND + seat]
    kept, thrones, b, card = held, 0, NO_THRONE, NO_CARD
    if kind == ACT:
        act, slot = bit // 2, bit % 2
        card, kept = (state[DRAWN], held) if slot else (held, state[DRAWN])
        if act == PLAY:
            return play_value(state, opts, seat, card, kept, mu, p, est)
        thrones = placement_thrones(act, seat, n)
    elif kind == SWAP_FIRST:
        return exchange_scratch(state)[bit]  # pick_best's exchange_values
    elif kind == PEEK_TARGET:
        return 1.0 if state[VIEW + bit] == NO_CARD else 0.0  # look where it knows nothing yet
    elif kind == SWAP_SECOND:
        thrones, b = 1 << state[PENDING], bit
    elif kind == PEEK_CHOICE:
        if bit != KEEP:
            thrones = 1 << state[PENDING]
            b = left_throne(seat, n) if bit == WITH_LEFT else right_throne(seat, n)
    else:  # FAR_THRONE: the Sun card being placed; REPLACE_TARGET: the new card comes unseen from the pile
        thrones, card = 1 << bit, state[PLACING] if kind == FAR_THRONE else NO_CARD
    return best_change(state, opts, seat, thrones, b, card, kept, mu, p, est)


@kernel
def heuristic(state, opts, p, rng):
    """The heuristic's answer to the posed decision (its seat and kind in the state's header)."""
    seat = state[D_SEAT]
    mu = unseen_mean(state, opts, seat, load_view(state, seat))
    est = state[ESTIMATE:ESTIMATE + MAX_PLAYERS].view(np.float64)  # the scratch, no copy
    load_estimates(state, opts, mu, p, est)
    if state[D_KIND] == TURN:
        held = state[HAND + seat]
        lone = kind_of(opts, held) == LONE and est[seat] <= LONE_LIMIT
        reveal = lone or margin(state, opts, seat, held, est) >= p[P_END_MARGIN]
        return REVEAL_END if reveal and state[D_CHOICES] >> REVEAL_END & 1 else DRAW if state[D_CHOICES] & 1 \
            else REVEAL_END
    return pick_best(state, opts, mu, p, est, rng)


# ---- every decision but the random policy's (balance.engine.step.decide) ----------------------
@kernel(inline="always")
def policy(state, table, seat, code, p, rng, mind):
    """The seat's answer to the posed decision by its policy ``code`` (parameter row ``p``): a search
    seat's turn's choice is the search's (SEARCH), its other answers the heuristic's at its defaults;
    an ismcts seat's every answer is the tree search's (SEARCH). ``mind``: the searches' buffers."""
    if code == POLICY_HEURISTIC:
        return heuristic(state, table[0], read_only(p), rng)  # typed as the defaults are: one compile
    if code == POLICY_ISMCTS or state[D_KIND] == TURN:  # or POLICY_SEARCH's turn
        return SEARCH
    return heuristic(state, table[0], HEURISTIC_DEFAULTS, rng)


# ---- the search policy's per-game pieces (the driver is balance.engine.search) ----------------
@allocating_kernel
def new_search_buffers():
    """The searches' buffers (rows above): (int matrix, float matrix, the rollouts' restrictions,
    the tree search's words: ``ismcts_views``)."""
    ints, floats, restrict = search_buffers(SEARCH_INT_ROWS, STATE_SIZE, SEARCH_FLOAT_ROWS, MAX_POLICY_PARAMS,
                                            MAX_PLAYERS)
    return ints, floats, restrict, ismcts_buffers(STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS)


@kernel
def unseen_cards(state, seat):
    """The court cards ``seat`` has not seen (mask): not face up (the discards, the intrigue card
    being carried out), not in its hand or drawn by it, not on a throne it knows."""
    n = state[PLAYERS]
    seen_mask = state[DISCARDS] | (1 << state[HAND + seat])
    if state[DRAWN] != NO_CARD and state[TURN_SEAT] == seat:
        seen_mask |= 1 << state[DRAWN]
    if state[PLACING] != NO_CARD and state[TURN_SEAT] == seat:
        seen_mask |= 1 << state[PLACING]
    if state[USED] != NO_CARD:  # the intrigue card being carried out lies face up
        seen_mask |= 1 << state[USED]
    for t in range(n):
        card = state[THRONE + t] if beside(seat, t, n) else state[KNOWN + seat * MAX_PLAYERS + t]
        if card != NO_CARD:
            seen_mask |= 1 << card
    return ((1 << N_COURT) - 1) & ~seen_mask


@kernel(DETERMINIZE_SIGNATURE)
def sample_world(state, sampled, seat, opts, ints, rng):
    """A world consistent with what ``seat`` knows, built from its view alone: a copy of the state
    in which the cards it has not seen are shuffled and dealt again to the places it cannot see, in
    a fixed order: the throne cards it does not know, the other hands (and another's drawn card),
    the draw pile. Which places those are and how many is public (every swap, look and draw is
    seen); which cards lie there is not read. A seat known to know a throne card (it placed, moved
    or looked at it) knows the new one; a split card lies as its placer (public) turns it where it
    now lies, at random when dealt or drawn onto a throne (option split_cards = placer)."""
    copy_world(sampled, state, STATE_SIZE)
    n = state[PLAYERS]
    pool = ints[SEARCH_POOL]
    count = 0
    m = unseen_cards(state, seat)
    while m:
        pool[count] = bit_index(m & -m)
        m &= m - 1
        count += 1
    shuffle(rng, pool, count)
    k = 0
    for t in range(n):
        if beside(seat, t, n) or state[KNOWN + seat * MAX_PLAYERS + t] != NO_CARD:
            continue
        card = pool[k]
        k += 1
        sampled[THRONE + t] = card
        placer = state[PLACER + t]
        if placer != NOBODY:
            sampled[FLIP + t] = placement_flip(opts, card, t, placer)
        elif opts[OPT_SPLIT_PLACER] and kind_of(opts, card) == SPLIT:
            sampled[FLIP + t] = below(rng, 2)
        else:
            sampled[FLIP + t] = 0
        for o in range(n):
            if state[KNOWN + o * MAX_PLAYERS + t] != NO_CARD:
                sampled[KNOWN + o * MAX_PLAYERS + t] = card
    for o in range(n):
        if o != seat:
            sampled[HAND + o] = pool[k]
            k += 1
    if state[DRAWN] != NO_CARD and state[TURN_SEAT] != seat:
        sampled[DRAWN] = pool[k]
        k += 1
    for i in range(state[PILE_TOP], N_COURT):
        sampled[PILE + i] = pool[k]
        k += 1


@kernel
def rollout_score(world, seat):
    """A rollout's end for ``seat``: its point-stone lead over the best other seat (STONE_POINTS
    each) plus its lead in the last round's score over the best other score, and WIN_SCORE for a
    won match (minus for a lost one)."""
    best_stones, best_score = -1, -(1 << 20)
    for s in range(world[PLAYERS]):
        if s != seat:
            best_stones = max(best_stones, world[STONES + s])
            best_score = max(best_score, world[SCORE + s])
    score = STONE_POINTS * (world[STONES + seat] - best_stones) + (world[SCORE + seat] - best_score)
    if world[MATCH_OVER]:
        return score + (WIN_SCORE if world[WINNER] == seat else -WIN_SCORE)
    return score


@kernel(ROLLOUT_SIGNATURE)
def play_out(world, answer, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout: ``seat`` answers its turn's choice (the pending decision in ``world``)
    with ``answer``, then the round is played to its end, then rounds to ``horizon`` rounds in all
    (0: the end of the match), through the rules' own loop, every player the heuristic at its
    defaults (the rows search_at filled; the searcher keeps its restriction); scored by
    ``rollout_score``. No trace."""
    table = (opts, rng, no_rows(ints))
    apply_answer(world, table, answer)
    play_rounds(world, table, rng, ints[SEARCH_CODES], floats[SEARCH_PARAMS:SEARCH_PARAMS + MAX_PLAYERS], restrict,
                (ints, floats, restrict), int(params[S_HORIZON]))
    return rollout_score(world, seat)


@kernel
def play_rounds(world, table, rng, codes, params, restrict, mind, horizon):
    """A rollout's play: the round to its end, then rounds to ``horizon`` rounds in all (0: the end of
    the match), through the rules' own loop."""
    opts = table[0]
    rounds = 0
    while True:  # one copy of the loop (each copy of the inlined loop is compiled anew)
        play(world, table, rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer, policy,
             no_search)
        rounds += 1
        if world[MATCH_OVER] or world[ROUND] >= opts[OPT_MAX_ROUNDS] or (horizon != 0 and rounds >= horizon):
            return
        deal_round(world, opts, rng, table[2])


@kernel
def finish(world, table, rng, codes, params, restrict, mind):
    """The tree search's rollout: the round played to its end (its stones handed out). To the match's
    end the rounds after it swamp the round's value: the flat search lost 125 Elo to the heuristic
    with horizon 0 and 58 with horizon 1 (4 players, 64 matches each)."""
    play_rounds(world, table, rng, codes, params, restrict, mind, 1)


@kernel
def round_stones(world, seat):
    """The tree search's value of a round for ``seat``: the point stones it won (the game's points;
    the highest and the lowest score both win some, so a lead in score is no value of its own)."""
    return float(world[ROUND_STONES + seat])


@kernel
def search_at(state, table, seat, code, params_row, restrict, rng, mind):
    """The tree search's answer for ``seat`` (balance.engine.ismcts, every rollout player random or
    the heuristic at its defaults, each seat valued by ``round_stones``), or the flat search's
    turn's choice (the posed TURN): every rollout player the heuristic at its defaults, the driver
    balance.engine.search with ``sample_world`` and ``play_out``."""
    ints, floats, rollout_restrict, tree = mind
    if code == POLICY_ISMCTS:  # its rollouts get the flat search's mind: one compiled play_rounds for both
        return ismcts_answer(state, (table[0], rng, no_rows(ints)), rng, state[PLAYERS], params_row,
                             POLICY_HEURISTIC, HEURISTIC_DEFAULTS, restrict, (ints, floats, rollout_restrict),
                             ismcts_views(tree, STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS), ints, advance, over,
                             pose_pending, apply_answer, policy, sample_world, finish, round_stones)
    seat_rollout_players(state[PLAYERS], seat, restrict, POLICY_HEURISTIC, HEURISTIC_DEFAULTS, ints[SEARCH_CODES],
                         floats[SEARCH_PARAMS:], rollout_restrict)
    return search_answer(state, int(params_row[S_ROLLOUTS]), table[0], params_row, rollout_restrict,
                         ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, rng,
                         sample_world, play_out)
