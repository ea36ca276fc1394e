"""Throne Arcade: compiled readers of the table that the rules and the policies share (a card's
colour and type, who sits next in the round, which cards fit the pile). They only read the state."""

from balance.engine.kernels import kernel
from balance.games.throne_arcade.layout import (
    COLOUR_CARDS, COLOUR_IN_FORCE, FACE, HAND_CARD, IN_ROUND, N_TYPES, PLAYERS, TOP, TYPE_CARDS,
)


@kernel(inline="always")
def colour_of(state, card):
    return state[FACE + card] // N_TYPES


@kernel(inline="always")
def type_of(state, card):
    return state[FACE + card] % N_TYPES


@kernel(inline="always")
def next_in_round(state, seat):
    """The next seat clockwise still holding cards in this round (``seat`` itself if none)."""
    n = state[PLAYERS]
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0  # clockwise without a division: this runs every turn
        if state[IN_ROUND + s]:
            return s
    return seat


@kernel(inline="always")
def matching_cards(state, opts_hand_on_anything):
    """The cards that may be laid on the pile now: the colour in force or the top card's type (and
    every Hand where the option lays them on anything)."""
    fits = state[COLOUR_CARDS + state[COLOUR_IN_FORCE]] | state[TYPE_CARDS + type_of(state, state[TOP])]
    if opts_hand_on_anything:
        fits |= state[TYPE_CARDS + HAND_CARD]
    return fits
