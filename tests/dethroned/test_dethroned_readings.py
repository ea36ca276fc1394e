"""The readings the rulebook's two texts leave open, each an option: both sides, on positions."""

from fractions import Fraction

import pytest

from balance.engine.game import SetupError
from balance.games.dethroned import layout as L
from balance.games.dethroned.game import GAME
from balance.games.dethroned.positions import Position

ROLES = ["King", "Assassin", "Fool", "King's Hand"]
HANDS = [["3", "1", "Redirect"], ["5", "4", "1"], ["7", "9", "Redirect"], ["2"]]


def table(**options):
    return Position(ROLES, hands=[list(h) for h in HANDS], options=options)


def test_overwriting_an_attack_with_a_larger_card_is_the_detailed_rules_reading():
    pos = table(attack_by_overwrite=True)
    a = pos.attack(0, "3", 1)
    pos.overwrite(2, "7", a)
    assert pos.attacker(a) == 2 and pos.value(a) == 7 and not pos.beaten(a)
    assert L.ACT_ATTACK in {L.action_kind(x) for x in pos.legal_actions(0)}  # seat 0's attack on 1 is gone
    assert pos.advance(6) == [(1, 2)]  # the kill is the overwriter's
    pos = table()
    a = pos.attack(0, "3", 1)
    with pytest.raises(ValueError):
        pos.overwrite(2, "7", a)  # main rules: attacking cards are not stacked, only separate attacks


def test_an_overwrite_must_be_larger_than_the_attack_now():
    pos = Position(ROLES, hands=[["3", "Double"], ["5"], ["5", "7"], ["2"]], options={"attack_by_overwrite": True})
    a = pos.attack(0, "3", 1)
    pos.double(0, a)  # the 3 is worth 6 now
    with pytest.raises(ValueError):
        pos.overwrite(2, "5", a)
    pos.overwrite(2, "7", a)
    assert pos.value(a) == 7  # the Double modified the overwritten card and went with it


def test_redirecting_a_defending_card_is_the_main_rules_reading():
    pos = table(redirect_defending_card=True)
    a = pos.attack(2, "9", 1)
    pos.defend(1, "5", a)
    pos.redirect_defence(0, a, 3)
    assert pos.defence_value(a) is None and not pos.beaten(a)
    moved = next(x for x in range(pos.s[L.H_ATTACK_TOP]) if pos.on_table(x) and pos.victim(x) == 3)
    assert pos.attacker(moved) == 0 and pos.value(moved) == 5
    pos = table()
    a = pos.attack(2, "9", 1)
    pos.defend(1, "5", a)
    with pytest.raises(ValueError):
        pos.redirect_defence(0, a, 3)  # detailed rules: "It cannot be used to take control of a defense"


@pytest.mark.parametrize("restarts, dies_at", [(True, 8.0), (False, 6.0)])
def test_a_redirect_restarts_the_window_or_keeps_the_deadline(restarts, dies_at):
    pos = table(redirect_restarts_window=restarts)
    a = pos.attack(2, "9", 1)
    pos.advance(2)
    pos.redirect(0, a, 1)
    assert pos.advance(dies_at - 2 - 0.001) == []
    assert pos.advance(0.001) == [(1, 0)]


@pytest.mark.parametrize("reading, beaten, value", [("replace", False, 4), ("stack", True, 9)])
def test_a_second_defending_card_replaces_or_stacks(reading, beaten, value):
    pos = table(defence_cards=reading)
    a = pos.attack(2, "9", 1)
    pos.defend(1, "5", a)
    pos.defend(1, "4", a)
    assert pos.beaten(a) == beaten and pos.defence_value(a) == value
    assert pos.cards_consistent()


def test_stacked_defence_values_stay_exact():
    pos = Position(ROLES, hands=[["9"], ["7", "Halve", "1"], [], []], options={"defence_cards": "stack"})
    a = pos.attack(0, "9", 1)
    pos.defend(1, "7", a)
    pos.halve(1, a, side="defence")  # 3.5
    pos.defend(1, "1", a)
    assert pos.defence_value(a) == Fraction(9, 2) and not pos.beaten(a)


@pytest.mark.parametrize("name", ["window_seconds", "count_seconds"])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e300, -1.0])
def test_timing_must_be_finite_and_in_range(name, value):
    with pytest.raises(SetupError, match=f"options.{name}"):
        GAME.make_setup("standard", 3, [("random", {})] * 3, options={name: value}, rotate=False,
                        extra={"roles": ["King", "Fool", "Assassin"]})
