"""The worlds the search deals in the Mercenary modes conserve every Army and every card (issue 28:
Armies dealt one opponent at a time from a pool that earlier hands had used up left 44-57% of the
worlds at a first turn impossible: a face-down Army shrank and its cards vanished)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.test_mercenaries import CT, TV, row
from tests.imposter_kings.test_search_modes import world_of

WORLDS = 200


def first_turn(mode, seed):
    """A dealt round played to its first turn: bids, swaps, first player and musters, each the first
    legal answer."""
    pos = Position.deal(mode, seed=seed)
    while pos.phase_code != L.PH_TURN:
        pos.apply(pos.legal()[0])
    return pos


def every_card(s, seats):
    """Every card of the game by type: the round's zones and the face-down Armies (which of an
    Army's cards were taken into the round is hidden, so a world may move a type between the two)."""
    return R.count_cards(s) + sum(s[L.ARMY + q * L.TYPES:L.ARMY + (q + 1) * L.TYPES] for q in range(seats))


@pytest.mark.parametrize("mode, seats", [(CT, 3), (TV, 4)])
@pytest.mark.parametrize("seed", [1, 3])
def test_every_world_at_a_first_turn_keeps_each_army_and_every_card(mode, seats, seed):
    pos = first_turn(mode, seed)
    me = pos.decider
    truth = every_card(pos.s, seats)
    for seed in range(WORLDS):
        world = world_of(pos.s, pos.cfg, seed)
        assert np.array_equal(every_card(world, seats), truth), f"world {seed}: a card vanished or appeared"
        for q in range(seats):
            army, taken = row(pos, L.ARMY, q), row(pos, L.ARMY_TAKEN, q)
            dealt_army = world[L.ARMY + q * L.TYPES:L.ARMY + (q + 1) * L.TYPES]
            dealt_taken = world[L.ARMY_TAKEN + q * L.TYPES:L.ARMY_TAKEN + (q + 1) * L.TYPES]
            assert dealt_army.sum() == army.sum(), f"world {seed}: seat {q}'s Army shrank"
            # a face-down Army holds only types its Army pool allows; its own Army is as it is
            assert np.all(dealt_army + dealt_taken == army + taken), f"world {seed}: seat {q}'s Army pool"
            if q == me:
                assert np.array_equal(dealt_army, army)
