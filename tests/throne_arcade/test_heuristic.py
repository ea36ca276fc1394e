"""Throne Arcade's heuristic: a penalty is worth only the cards the next player can draw and
cannot lay straight back. With the talon empty and every VII on the pile, the heuristic used to
draw the VIIs and lay them again, player after player, and the round never ended (issue 28: 0.6%
of 6-player rounds reached the turn cap, 15% of matches)."""

import numpy as np
import pytest

from balance.games.throne_arcade.positions import Position

COLOURS = ("gold", "green", "blue", "orange")
TYPES = ("Lord", "Hand", "King", "VII", "VIII", "IX", "X", "Ace")
NOT_VII = sorted(f"{c} {t}" for c in COLOURS for t in TYPES if t != "VII")
TURN_LIMIT = 1000  # the reproduction cycled past this; greedy ends such rounds in about 65 turns


def every_vii_on_the_pile(seed: int, players: int = 6) -> Position:
    """The other 28 cards in the players' hands (dealt in turn from a shuffle), the four VIIs on the
    pile (gold on top), the talon empty, and seat 1 owing 9 cards for three VIIs just laid."""
    deck = list(NOT_VII)
    np.random.default_rng(seed).shuffle(deck)
    return Position.build(players, {p: deck[p::players] for p in range(players)}, "gold VII",
                          pile=["green VII", "blue VII", "orange VII"], turn=1, pending=9, seed=seed,
                          seats="heuristic")


@pytest.mark.parametrize("seed", range(12))  # seeds 6, 7, 9, 10 and 11 cycled before the fix
def test_the_heuristic_ends_a_round_with_every_vii_on_the_pile(seed):
    pos = every_vii_on_the_pile(seed)
    turns = 0
    while not pos.round_over and turns < TURN_LIMIT:
        pos.step()
        turns += 1
    assert pos.round_over, f"still playing after {TURN_LIMIT} turns"


def test_a_seat_that_drew_back_the_viis_lays_a_plain_card_rather_than_return_them():
    # seat 0 has just drawn the three VIIs (the talon was the pile, the rest of the 9 owed is lost);
    # every other card is in the hands, so laying the VIIs only hands them to seat 1, who lays them
    # back: the gold VIII (its one other card that fits) sheds a card for good
    mine = ["green VII", "blue VII", "orange VII", "gold VIII", "blue X", "green IX", "orange Lord", "blue Hand"]
    pos = Position.build(2, {0: mine, 1: [c for c in NOT_VII if c not in mine]}, "gold VII", turn=0, seed=3,
                         seats="heuristic")
    assert pos.talon == []
    events = pos.step()
    assert events and all(e.endswith("lays gold VIII") for e in events if " lays " in e), events
