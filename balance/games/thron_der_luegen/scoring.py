"""Thron der Lügen: reading the deck table and scoring a seat's thrones and hand (compiled).

The rules kernel scores with these functions, and the heuristic estimates with the same ones, so
every scoring rule is written once, here.
"""

from balance.engine.kernels import kernel
from balance.games.thron_der_luegen.layout import (
    CARD_FIELDS, DOUBLE, DOUBLE_VALUE, F_EFFECT, F_KIND, F_LEFT, F_PARAM, F_PEOPLE, F_RIGHT, F_VALUE, FLIP,
    HUNT, INTRIGUE, LONE, MINUS, BONUS, NO_CARD, NO_PEOPLE, OPT_DECK, OPT_HUNT_DOUBLED, OPT_SPLIT_PLACER, PLAYERS,
    SPLIT, THRONE,
)


# ---- the deck table ----------------------------------------------------------------------------
@kernel(inline="always")
def card_field(opts, card, field):
    return opts[OPT_DECK + card * CARD_FIELDS + field]


@kernel(inline="always")
def kind_of(opts, card):
    return card_field(opts, card, F_KIND)


@kernel(inline="always")
def people_of(opts, card):
    return card_field(opts, card, F_PEOPLE)


@kernel(inline="always")
def effect_of(opts, card):
    return card_field(opts, card, F_EFFECT)


@kernel(inline="always")
def param_of(opts, card):
    return card_field(opts, card, F_PARAM)


# ---- seats and thrones -------------------------------------------------------------------------
@kernel(inline="always")
def left_throne(seat, n):
    """Throne between ``seat`` and its left neighbour seat + 1."""
    return seat


@kernel(inline="always")
def right_throne(seat, n):
    """Throne between ``seat`` and its right neighbour seat - 1 (seat 0: n - 1; no division, it is
    asked hundreds of times a round)."""
    return seat - 1 if seat > 0 else n - 1


@kernel(inline="always")
def beside(seat, throne, n):
    """Whether ``throne`` is one of ``seat``'s two throne cards (which it may look at any time)."""
    return throne == seat or throne == right_throne(seat, n)


@kernel(inline="always")
def own_thrones_mask(seat, n):
    return (1 << left_throne(seat, n)) | (1 << right_throne(seat, n))


@kernel
def placement_flip(opts, card, throne, placer):
    """How a split card lies when ``placer`` puts it on ``throne``: upright as printed (0) unless the
    option lets the placer turn it, in which case a neighbour of the throne turns it to its side."""
    if not opts[OPT_SPLIT_PLACER] or kind_of(opts, card) != SPLIT:
        return 0
    upright_for_placer = card_field(opts, card, F_RIGHT) if placer == throne else card_field(opts, card, F_LEFT)
    turned_for_placer = card_field(opts, card, F_LEFT) if placer == throne else card_field(opts, card, F_RIGHT)
    return 1 if turned_for_placer > upright_for_placer else 0


@kernel
def face_value(opts, card, throne, seat, flip):
    """What ``card`` on ``throne`` is worth to ``seat`` before the pairing rules. A split card lies
    upright between seat t (throne t is its left throne) and seat t+1: the number on the card's right
    half faces seat t, the left half seat t+1 (``flip`` turns it). Intrigue cards count 0; the x2 2."""
    kind = kind_of(opts, card)
    if kind == SPLIT:
        reads_right = (seat == throne) != (flip == 1)
        return card_field(opts, card, F_RIGHT) if reads_right else card_field(opts, card, F_LEFT)
    if kind == INTRIGUE:
        return 0
    if kind == DOUBLE:
        return DOUBLE_VALUE
    return card_field(opts, card, F_VALUE)


@kernel
def pair_score(opts, a, va, b, vb):
    """The throne score of two cards a, b worth va, vb to their seat (the rulebook's scoring):
    a Wild Hunt makes the other card not count (two Hunts: one people, so the higher counts); the
    same people: only the higher value; different peoples: the sum, or the product with an x2 (both
    x2: 4; an x2 and the -2 of its people: the same people, so 2)."""
    ka, kb = kind_of(opts, a), kind_of(opts, b)
    pa, pb = people_of(opts, a), people_of(opts, b)
    same = pa == pb and pa != NO_PEOPLE
    if ka == HUNT and kb == HUNT:
        return max(va, vb)
    if ka == HUNT or kb == HUNT:
        hunt_value = va if ka == HUNT else vb
        other_kind = kb if ka == HUNT else ka
        if other_kind == DOUBLE and opts[OPT_HUNT_DOUBLED] and not same:
            return DOUBLE_VALUE * hunt_value
        return hunt_value
    if same:
        return max(va, vb)
    if ka == DOUBLE:
        return DOUBLE_VALUE * vb
    if kb == DOUBLE:
        return DOUBLE_VALUE * va
    return va + vb


@kernel
def throne_score(state, opts, seat):
    """The score of ``seat``'s two throne cards as they lie."""
    n = state[PLAYERS]
    tl, tr = left_throne(seat, n), right_throne(seat, n)
    a, b = state[THRONE + tl], state[THRONE + tr]
    return pair_score(opts, a, face_value(opts, a, tl, seat, state[FLIP + tl]),
                      b, face_value(opts, b, tr, seat, state[FLIP + tr]))


@kernel(inline="always")
def hand_modifier(opts, card):
    """What a hand card adds to its holder's total: Sun +2, Sun -1 and the -2 count from the hand."""
    if card == NO_CARD:
        return 0
    kind = kind_of(opts, card)
    if kind == BONUS or kind == LONE or kind == MINUS:
        return card_field(opts, card, F_VALUE)
    return 0
