"""Throne Arcade's greedy player (also every heuristic's "lay more of the type"): a penalty card
that adds nothing to the next player's draw is kept. With the talon empty and every VII on the pile,
six short hands laid the VIIs as a pack, the next player drew them straight back and laid them again,
and the round never ended (issue 28: 10 of 2,000 six-player greedy matches and 3 of `aggressive`'s
reached the turn cap)."""

import pytest

from balance.games.throne_arcade.positions import Position

COLOURS = ("gold", "green", "blue", "orange")
TYPES = ("Lord", "Hand", "King", "VII", "VIII", "IX", "X", "Ace")
MINE = ["green VII", "blue VII", "orange VII", "blue X", "orange IX"]  # no gold card: only a VII fits
OTHERS = sorted(f"{c} {t}" for c in COLOURS for t in TYPES if t != "VII" and f"{c} {t}" not in MINE)


def vii_lays(events: list[str]) -> list[str]:
    return [e for e in events if " lays " in e and e.endswith(" VII")]


@pytest.mark.parametrize("policy", ["greedy", "heuristic", "aggressive"])
def test_with_nothing_left_to_draw_a_seat_lays_the_one_vii_it_must_and_keeps_the_others(policy):
    # every card is in a hand or on the table: the next player could draw only the VIIs just laid
    pos = Position.build(6, {0: MINE, **{p: OTHERS[p - 1::5] for p in range(1, 6)}}, "gold VII",
                         turn=0, seed=1, seats=policy)
    assert pos.talon == []
    events = pos.step()
    assert len(vii_lays(events)) == 1, events
    assert sum(c.endswith(" VII") for c in pos.hand(0)) == 2


@pytest.mark.parametrize("policy", ["greedy", "heuristic"])
def test_with_a_talon_to_draw_from_the_whole_group_of_viis_is_laid(policy):
    # the same hand with ten cards left in the talon: each VII makes the next player draw 3 more
    pos = Position.build(6, {0: MINE, **{p: OTHERS[p - 1:15:5] for p in range(1, 6)}}, "gold VII",
                         turn=0, seed=1, seats=policy)
    assert len(pos.talon) == len(OTHERS) - 15
    events = pos.step()
    assert len(vii_lays(events)) == 3, events
