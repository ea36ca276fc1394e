"""Throne Arcade: compiled policies. Each answers a decision the rules posed (the engine's shared
header at state offsets 0-2, narrowed by the seat's restriction) choosing only among the bits of
state[D_CHOICES]; the engine's ``decide`` (balance.engine.step) asks ``policy`` after a forced
answer and the random policy, and ``search_at`` when ``policy`` returns SEARCH.

What a policy sees: its own hand, the pile on the table (every card laid since the last talon
refresh, the top card, the colour in force), the penalty and skips waiting, and how many cards
each player holds. Never another player's cards or the talon's order.

- greedy: lays the largest group of one type it can; holds its specials (VII, green Lord, Ace, and
  Kings where they penalise) unless the next player is down to ``HURT_AT`` cards (and the special
  hurts them: a penalty they can lay straight back does not) or nothing else fits, and a Hand unless nothing else fits; orders a group so that the colour it holds most of
  ends on top, laying more of a penalty type only while each card adds to the next player's draw
  (``adds_burden``; the heuristic's "more of the type" too); names the colour it holds most of;
  always answers a penalty and lays a drawn card.
- heuristic: scores each possible play with tunable weights (see options.py): cards shed, the
  harm a special does to the next player against their hand size (a penalty counts only the cards
  they can draw and cannot lay straight back, and cards it draws straight back from the pile are
  not shed: see penalty_draws), the cost of spending a special,
  how much of its own hand fits the new top (colour majority), and by card counting the chance that
  the next player can follow (from the cards it has not seen: deck less its hand less the pile).
- search: the engine's determinized Monte-Carlo search (balance.engine.search) at the card (group)
  laid at the start of a turn: ``rollouts`` worlds dealt from the seat's view (``sample_world``),
  each legal first card played in each, then ``horizon`` further turns of the round (0: to the
  round's end) with the heuristic at its defaults as every player's rollout policy, scored by not
  losing the round and the cards left in hand (``rollout_score``); the best mean. Every other
  decision is the heuristic's at its defaults.
Ties no weight orders are broken at random from the match's stream, never by seat or card index.
"""

import numpy as np

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import allocating_kernel, kernel, no_rows, read_only
from balance.engine.rng import bit_count, bit_index, random_bit, shuffle
from balance.engine.decision import D_CHOICES, D_KIND
from balance.engine.ismcts import ismcts_answer, ismcts_buffers, ismcts_views
from balance.engine.search import (
    DETERMINIZE_SIGNATURE, ROLLOUT_SIGNATURE, copy_world, search_answer, search_buffers, seat_rollout_players,
)
from balance.engine.step import SEARCH, no_search, play
from balance.games.throne_arcade.layout import (
    ACE, COLOURS_MASK, COLOUR_CARDS, DEALT, DRAW_PER_PENALTY_CARD, HAND, HAND_CARD, IN_ROUND, KING, KING_DRAW,
    KING_RULE, LAID, LAY_FIRST, LAY_MORE, MAX_DECK, MAX_PLAYERS, NAME_COLOUR, NEVER, NONE, NONE_BIT, NO_CARD, N_COLOURS,
    PENALTY_CARDS, PILE, PLAYERS, POLICY_GREEDY, POLICY_HEURISTIC, POLICY_ISMCTS, ROUND_CAPPED, STATE_SIZE, TALON, TALON_LEN,
    TOP, TURNS, TURN_STOP, TYPE_CARDS,
)
from balance.games.throne_arcade.options import HEURISTIC_PARAMS
from balance.games.throne_arcade.rules import advance, apply_answer, over, pose_pending
from balance.games.throne_arcade.table import colour_of, next_in_round, type_of

# ---- heuristic parameters (index into the seat's parameter row) ---------------------------
P_SHED, P_HURT_NEXT, P_KEEP_SPECIAL, P_COLOUR_MAJORITY, P_COUNTING = range(5)

# The heuristic's parameter row at its defaults: the search's rollout policy and its other decisions.
HEURISTIC_DEFAULTS = np.zeros(MAX_POLICY_PARAMS, dtype=np.float64)
HEURISTIC_DEFAULTS[:len(HEURISTIC_PARAMS)] = [p.default for p in HEURISTIC_PARAMS]

# ---- search parameters (index into the seat's parameter row; declared in options.py) ------
S_ROLLOUTS, S_HORIZON = range(2)
LOSE_SCORE = 20.0  # a rollout's cost of losing the round, on top of the cards left in hand: more
                   # than any hand (a deck of 32 cards), so not losing outweighs shedding

# Rows of the policies' scratch buffer (one per block of matches; see new_work_buffer).
ROW_SCORES = 0
WORK_ROWS = 1
WORK_WIDTH = max(MAX_DECK + 1, MAX_POLICY_PARAMS)

# The search's buffers (one set per block of matches; see new_search_buffers): an int64 matrix of
# STATE_SIZE columns, a float64 matrix and the rollouts' restrictions.
SEARCH_SAMPLED, SEARCH_WORLD, SEARCH_CODES = range(3)  # int rows: a sampled world, the world a
# rollout plays on, every rollout player's policy code
SEARCH_INT_ROWS = 3
# float rows: the rollouts' work buffer (WORK_ROWS rows), then one parameter row per player, then
# the driver's totals per answer (at most MAX_DECK answers: WORK_WIDTH holds them)
SEARCH_PARAMS = WORK_ROWS
SEARCH_TOTALS = SEARCH_PARAMS + MAX_PLAYERS
SEARCH_FLOAT_ROWS = SEARCH_TOTALS + 1

HURT_AT = 2  # greedy: a special is worth laying when the next player holds this many cards or fewer
GREEDY_SPECIAL_BONUS = 10.0  # greedy: a special laid on a short hand outranks any plain group...
GREEDY_SPECIAL_HOLD = -10.0  # ...and is held otherwise, as long as a plain card fits
GREEDY_HAND_HOLD = -20.0  # greedy: a Hand fits on its type or colour only; it is kept for when nothing else fits
GOING_OUT = 1e6  # heuristic: emptying the hand ends the player's round; nothing outweighs it


@allocating_kernel
def new_work_buffer():
    return np.zeros((WORK_ROWS, WORK_WIDTH), dtype=np.float64)


@allocating_kernel
def new_search_buffers():
    """The searches' buffers (rows above): (int matrix, float matrix, the rollouts' restrictions,
    the tree search's words: ``ismcts_views``)."""
    ints, floats, restrict = search_buffers(SEARCH_INT_ROWS, STATE_SIZE, SEARCH_FLOAT_ROWS, WORK_WIDTH, MAX_PLAYERS)
    return ints, floats, restrict, ismcts_buffers(STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS)


# ---- what a seat may see -----------------------------------------------------------------
@kernel(inline="always")
def penalising(state):
    """The cards that make the next player draw: the draw-3 cards, and Kings where they draw 5."""
    mask = state[PENALTY_CARDS]
    if state[KING_RULE]:
        mask |= state[TYPE_CARDS + KING]
    return mask


@kernel(inline="always")
def specials(state):
    """The cards that act on the next player: those that make them draw, and Aces."""
    return penalising(state) | state[TYPE_CARDS + ACE]


@kernel(inline="always")
def next_hand_size(state, seat):
    return bit_count(state[HAND + next_in_round(state, seat)])


@kernel(inline="always")
def unseen_cards(state, seat):
    """The cards ``seat`` has not seen: the deck less its hand and the pile."""
    deck = 0
    for colour in range(N_COLOURS):
        deck |= state[COLOUR_CARDS + colour]
    return deck & ~(state[HAND + seat] | state[PILE])


@kernel(inline="always")
def colour_count(state, cards, colour):
    return bit_count(cards & state[COLOUR_CARDS + colour])


@kernel(inline="always")
def best_colour(state, cards, allowed, rng):
    """Of the ``allowed`` colours (bits), the one most of ``cards`` have (ties at random)."""
    best, tied = -1, 0
    for colour in range(N_COLOURS):
        if not allowed >> colour & 1:
            continue
        count = colour_count(state, cards, colour)
        if count > best:
            best, tied = count, 1 << colour
        elif count == best:
            tied |= 1 << colour
    return random_bit(rng, tied)


@kernel(inline="always")
def top_card_last(state, seat, cards, rng):
    """Of cards of one type, the one to lay now: the colour the hand holds least of (outside that
    type) goes first, so that the colour it holds most of ends on top (ties at random)."""
    hand = state[HAND + seat]
    best, tied = 1 << 62, 0
    m = cards
    while m:
        card = bit_index(m & -m)
        m &= m - 1
        count = colour_count(state, hand & ~state[TYPE_CARDS + type_of(state, card)], colour_of(state, card))
        if count < best:
            best, tied = count, 1 << card
        elif count == best:
            tied |= 1 << card
    return random_bit(rng, tied)


@kernel(inline="always")
def pick_best(rng, choices, work):
    """The answer of ``choices`` with the highest score in the work buffer (ties at random)."""
    best, tied = -np.inf, 0
    m = choices
    while m:
        bit = bit_index(m & -m)
        m &= m - 1
        score = work[ROW_SCORES, bit]
        if score > best:
            best, tied = score, 1 << bit
        elif score == best:
            tied |= 1 << bit
    return random_bit(rng, tied)


@kernel(inline="always")
def cards_of(choices):
    """The card answers of a decision (without "no card")."""
    return choices & ~NONE_BIT


# ---- greedy ------------------------------------------------------------------------------
@kernel(inline="always")
def greedy_first(state, seat, choices, rng, work):
    hand = state[HAND + seat]
    special = specials(state)
    short = next_hand_size(state, seat) <= HURT_AT
    m = choices
    while m:
        card = bit_index(m & -m)
        m &= m - 1
        kind = type_of(state, card)
        group = hand & state[TYPE_CARDS + kind]
        score = float(bit_count(group))
        if (1 << card) & special:
            # a penalty that hands over no burden (the next player lays the cards straight back) hurts no one
            hurts = short and (kind == ACE or penalty_effect(state, seat, group, kind)[0] > 0)
            score += GREEDY_SPECIAL_BONUS if hurts else GREEDY_SPECIAL_HOLD
        elif type_of(state, card) == HAND_CARD:
            score += GREEDY_HAND_HOLD
        # within the chosen type, lead with the colour least held (the most held ends on top)
        rest = hand & ~group
        work[ROW_SCORES, card] = score * MAX_DECK - colour_count(state, rest, colour_of(state, card))
    return pick_best(rng, choices, work)


@kernel(inline="always")
def adds_burden(state, seat, cards):
    """Whether laying ``cards`` (more of the type on top) after the cards laid this turn makes the
    next player's draw heavier (penalty_effect). A penalty the talon and the pile cannot supply is a
    card spent for nothing: with the talon empty and every VII on the pile, six short hands laid
    the VIIs as a pack, drew them back and laid them again, and the round never ended. Cards that
    make no one draw (plain cards, Aces) always add."""
    if cards & penalising(state) == 0:
        return True
    kind = type_of(state, state[TOP])
    laid = state[LAID]
    return penalty_effect(state, seat, laid | cards, kind)[0] > penalty_effect(state, seat, laid, kind)[0]


@kernel(inline="always")
def greedy_choice(state, seat, rng, work):
    kind = state[D_KIND]
    choices = state[D_CHOICES]
    if kind == NAME_COLOUR:
        return best_colour(state, state[HAND + seat], choices, rng)
    if kind == LAY_FIRST:
        return greedy_first(state, seat, choices, rng, work)
    cards = cards_of(choices)
    if cards == 0:
        return NONE
    if kind == LAY_MORE:
        if not adds_burden(state, seat, cards):
            return NONE
        return top_card_last(state, seat, cards, rng)
    return random_bit(rng, cards)  # answer a penalty, lay the drawn card: shedding beats drawing


# ---- heuristic ----------------------------------------------------------------------------
@kernel(inline="always")
def p_next_follows(state, unseen, next_cards, colour, kind):
    """Card counting: the chance that the next player, holding ``next_cards`` cards, holds a card of
    ``colour`` or type ``kind``, their cards drawn from ``unseen`` (the deciding seat's unseen_cards)."""
    total = bit_count(unseen)
    if total == 0:
        return 0.0
    fitting = bit_count(unseen & (state[COLOUR_CARDS + colour] | state[TYPE_CARDS + kind]))
    misses = 1.0 - fitting / total
    return 1.0 - misses ** next_cards


@kernel(inline="always")
def colour_value(state, rest, unseen, next_cards, colour, kind, weights):
    """How good a top of ``colour`` and type ``kind`` is for a seat keeping ``rest``: its own cards
    that fit it (colour majority) against the next player's chance to follow (counting, from the
    seat's ``unseen`` cards and the ``next_cards`` the next player holds)."""
    fits = bit_count(rest & (state[COLOUR_CARDS + colour] | state[TYPE_CARDS + kind]))
    value = weights[P_COLOUR_MAJORITY] * fits / (1.0 + bit_count(rest))
    return value - weights[P_COUNTING] * p_next_follows(state, unseen, next_cards, colour, kind)


@kernel(inline="always")
def penalty_draws(state, group, owed, kind, unseen):
    """What the next player's draw of the ``owed`` cards does once ``group`` (of type ``kind``) is
    laid: (burden, returned). They draw no more than the talon and then the pile refreshed under
    the top card hold (the rest of a penalty is never drawn). The burden is the cards drawn less
    those of ``kind``, which they lay straight back on the group's top; returned, the cards of
    ``kind`` drawn from the refreshed pile: cards just laid that go straight back into play, so not
    shed at all. The talon's cards are counted by expectation over the seat's ``unseen`` cards; the
    pile's are known. Without this, with the talon empty and every VII on the pile, each player in
    turn drew the VIIs and laid them again, and the round never ended."""
    from_talon = min(owed, state[TALON_LEN])
    refreshed = state[PILE] | group
    refreshed_count = bit_count(refreshed) - 1  # the top card stays
    from_pile = min(owed - from_talon, refreshed_count)
    same_kind = state[TYPE_CARDS + kind]
    talon_back = 0.0
    if from_talon > 0 and unseen != 0:
        talon_back = from_talon * bit_count(unseen & same_kind) / bit_count(unseen)
    returned = 0.0
    if from_pile > 0:
        returned = from_pile * (bit_count(refreshed & same_kind) - 1) / refreshed_count
    return from_talon + from_pile - talon_back - returned, returned


@kernel(inline="always")
def penalty_effect(state, seat, group, kind):
    """(burden, returned) of laying ``group`` (penalty_draws; (0, 0) for a group that makes no one
    draw)."""
    kings = bit_count(group & state[TYPE_CARDS + KING]) * state[KING_RULE]
    owed = bit_count(group & state[PENALTY_CARDS]) * DRAW_PER_PENALTY_CARD + kings * KING_DRAW
    if owed == 0:
        return 0.0, 0.0
    return penalty_draws(state, group, owed, kind, unseen_cards(state, seat))


@kernel(inline="always")
def heuristic_first(state, seat, choices, weights, rng, work):
    """Score laying each legal card with every further card of its type, ending on the best colour.
    The play is the card's whole type, so the legal cards of one type share one score (scored once)."""
    hand = state[HAND + seat]
    special = specials(state)
    next_cards = next_hand_size(state, seat)
    next_size = max(1, next_cards)
    unseen = unseen_cards(state, seat)
    m = choices
    while m:
        kind = type_of(state, bit_index(m & -m))
        same = m & state[TYPE_CARDS + kind]
        m &= ~same
        group = hand & state[TYPE_CARDS + kind]
        rest = hand & ~group
        harm = shed = 0.0
        if group & special:
            burden, returned = penalty_effect(state, seat, group, kind)
            harm = (burden / DRAW_PER_PENALTY_CARD + bit_count(group & state[TYPE_CARDS + ACE])) / next_size
            shed = -min(returned, bit_count(group))
        score = weights[P_SHED] * (bit_count(group) + shed) + weights[P_HURT_NEXT] * harm \
            - weights[P_KEEP_SPECIAL] * bit_count(group & special)
        if rest == 0:
            score += GOING_OUT
        best_top = -np.inf
        for colour in range(N_COLOURS):
            # a Hand names any colour; otherwise the top's colour is one of the group's
            if kind == HAND_CARD or colour_count(state, group, colour) > 0:
                best_top = max(best_top, colour_value(state, rest, unseen, next_cards, colour, kind, weights))
        while same:
            work[ROW_SCORES, bit_index(same & -same)] = score + best_top
            same &= same - 1
    return pick_best(rng, choices, work)


@kernel
def heuristic_choice(state, seat, weights, rng, work):
    """The heuristic's answer, its weights (the parameter row, see options.py) ``weights``."""
    kind = state[D_KIND]
    choices = state[D_CHOICES]
    if kind == LAY_FIRST:
        return heuristic_first(state, seat, choices, weights, rng, work)
    if kind == NAME_COLOUR:
        rest = state[HAND + seat]
        unseen = unseen_cards(state, seat)
        next_cards = next_hand_size(state, seat)
        for colour in range(N_COLOURS):
            work[ROW_SCORES, colour] = colour_value(state, rest, unseen, next_cards, colour, HAND_CARD, weights)
        return pick_best(rng, choices & COLOURS_MASK, work)
    return greedy_choice(state, seat, rng, work)  # more of the type, penalties, drawn cards: as greedy


# ---- every decision but the random policy's (balance.engine.step.decide) ----------------------
@kernel(inline="always")
def policy(state, table, seat, code, weights, rng, mind):
    """The seat's answer to the posed decision by its policy ``code`` (parameter row ``weights``);
    a search seat's first card of a play is the search's (SEARCH), its other answers the heuristic's
    at its defaults; an ismcts seat's every answer is the tree search's (SEARCH). ``mind``: (the
    work buffer, the searches' buffers)."""
    work = mind[0]
    if code == POLICY_GREEDY:
        return greedy_choice(state, seat, rng, work)
    if code == POLICY_HEURISTIC:
        return heuristic_choice(state, seat, read_only(weights), rng, work)  # typed as the defaults are: one compile
    if code == POLICY_ISMCTS or state[D_KIND] == LAY_FIRST:  # or POLICY_SEARCH's card
        return SEARCH
    return heuristic_choice(state, seat, HEURISTIC_DEFAULTS, rng, work)


# ---- the search policy's per-game pieces (the driver is balance.engine.search) ----------------
@kernel(DETERMINIZE_SIGNATURE)
def sample_world(state, sampled, seat, opts, ints, rng):
    """A world consistent with what ``seat`` knows (the view the heuristic reads, see the module
    docstring), built from that view alone: a copy of the state in which the cards it has not seen
    (the deck less its hand and the pile) are shuffled and dealt again, as many to each other player
    as that player holds, the rest to the talon (as many as it holds). Only how many cards each
    holds is read, never which, so one view and one stream give one world. The other players'
    dealt cards (DEALT, read only by the result rows, which rollouts never write) are left empty."""
    copy_world(sampled, state, STATE_SIZE)
    unseen = unseen_cards(state, seat)
    k = 0
    while unseen:
        sampled[TALON + k] = bit_index(unseen & -unseen)
        unseen &= unseen - 1
        k += 1
    for i in range(k, MAX_DECK):
        sampled[TALON + i] = NO_CARD
    shuffle(rng, sampled[TALON:TALON + k], k)
    for other in range(state[PLAYERS]):
        if other == seat:
            continue
        hand = 0
        for _ in range(bit_count(state[HAND + other])):
            k -= 1
            hand |= 1 << sampled[TALON + k]
        sampled[HAND + other] = hand
        sampled[DEALT + other] = 0
    sampled[TALON_LEN] = k


@kernel
def rollout_score(world, seat):
    """A round's end for ``seat`` (a rollout's value): minus the cards it still holds, and minus
    LOSE_SCORE when it lost the round (the last player holding cards; a capped round has no loser)."""
    value = -float(bit_count(world[HAND + seat]))
    if world[IN_ROUND + seat] and not world[ROUND_CAPPED]:
        others_in = 0
        for s in range(world[PLAYERS]):
            others_in += s != seat and world[IN_ROUND + s] != 0
        if others_in == 0:
            value -= LOSE_SCORE
    return value


@kernel(ROLLOUT_SIGNATURE)
def play_out(world, card, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout: ``seat`` lays ``card`` first (its pending decision in ``world``), then the
    rest of this turn and ``horizon`` further turns (0: to the round's end) through the rules' own
    loop, every player the heuristic at its defaults (the rows prepare_rollouts filled; the searcher
    keeps its restriction); scored by ``rollout_score``. No trace."""
    horizon = int(params[S_HORIZON])
    world[TURN_STOP] = world[TURNS] + horizon if horizon else NEVER
    table = (opts, rng, no_rows(ints))
    mind = (floats[:WORK_ROWS], (ints, floats, restrict))
    apply_answer(world, table, card)
    finish(world, table, rng, ints[SEARCH_CODES], floats[SEARCH_PARAMS:SEARCH_PARAMS + MAX_PLAYERS], restrict, mind)
    return rollout_score(world, seat)


@kernel
def finish(world, table, rng, codes, params, restrict, mind):
    """A rollout's play through the rules' own loop: the tree search's to the round's end, the flat
    search's to its TURN_STOP (one compiled loop for both: the same argument types)."""
    play(world, table, rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer, policy,
         no_search)


@kernel
def search_at(state, table, seat, code, params_row, restrict, rng, mind):
    """The tree search's answer for ``seat`` (balance.engine.ismcts, every rollout player random or
    the heuristic at its defaults, each seat valued by ``rollout_score``), or the flat search's first
    card (the posed LAY_FIRST): every rollout player the heuristic at its defaults, the driver
    balance.engine.search with ``sample_world`` and ``play_out``."""
    ints, floats, rollout_restrict, tree = mind[1]
    if code == POLICY_ISMCTS:  # its rollouts get the flat search's mind: one compiled finish for both
        return ismcts_answer(state, (table[0], rng, no_rows(ints)), rng, state[PLAYERS], params_row,
                             POLICY_HEURISTIC, HEURISTIC_DEFAULTS, restrict,
                             (floats[:WORK_ROWS], (ints, floats, rollout_restrict)),
                             ismcts_views(tree, STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS), ints, advance, over,
                             pose_pending, apply_answer, policy, sample_world, finish, rollout_score)
    seat_rollout_players(state[PLAYERS], seat, restrict, POLICY_HEURISTIC, HEURISTIC_DEFAULTS, ints[SEARCH_CODES],
                         floats[SEARCH_PARAMS:], rollout_restrict)
    return search_answer(state, int(params_row[S_ROLLOUTS]), table[0], params_row, rollout_restrict,
                         ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, rng,
                         sample_world, play_out)
