"""The rulebook's combat examples and the Double/Halve example, played through the position API."""

from fractions import Fraction

import pytest

from balance.games.dethroned import layout as L
from balance.games.dethroned.positions import Position

A, B, C, D = 0, 1, 2, 3


def kinds(pos, p):
    return {L.action_kind(x) for x in pos.legal_actions(p)}


def test_combat_example_fool_attacks_the_assassin_and_the_king_wins():
    # A is the Fool, B the Assassin, C the King. B ends up with 5, 1 and Double.
    pos = Position(["Fool", "Assassin", "King"], hands=[["2", "9"], ["5", "1", "Double"], ["10", "3"]],
                   decks=[[], ["7", "8"], []])
    ten = pos.attack(C, "10", B)
    assert pos.defending(B) and L.ACT_ATTACK not in kinds(pos, B)
    pos.defend(B, "5", ten)
    assert not pos.beaten(ten)
    pos.double(B, ten, side="defence")
    assert pos.beaten(ten) and pos.defence_value(ten) == 10
    # B has beaten the 10 but not cleared it: still defending, cannot draw or attack
    assert pos.defending(B) and kinds(pos, B) == {L.ACT_CLEAR}
    two = pos.attack(A, "2", B)
    assert pos.hand(B) == ["1"]
    assert L.ACT_CLEAR not in kinds(pos, B)  # an unbeaten attack remains: no clearing
    pos.advance(5.9)
    assert pos.alive(B)
    deaths = pos.advance(0.1)  # 3 s window + the 3-2-1 count, C refuses to help
    assert deaths == [(B, A)] and pos.killed_by(B) == A and pos.phase == "pause"
    assert not pos.on_table(ten) and not pos.on_table(two)
    assert pos.cards_consistent()
    pos.end()  # A and C vote to end
    assert pos.won() == [False, False, True]  # the King alive wins; the Fool (King alive) loses


def test_advanced_example_halves_without_rounding():
    pos = Position(["Fool", "Assassin", "King"], hands=[["5"], ["1", "Double", "Halve"], ["Halve"]],
                   decks=[[], ["6", "7", "8", "9"], []])
    five = pos.attack(A, "5", B)
    pos.halve(B, five)
    assert pos.value(five) == Fraction(5, 2)
    pos.defend(B, "1", five)
    pos.double(B, five, side="defence")
    assert pos.defence_value(five) == 2 and not pos.beaten(five)
    assert L.ACT_CLEAR not in kinds(pos, B) and pos.hand(B) == []
    pos.halve(C, five)  # C steps in
    assert pos.value(five) == Fraction(5, 4) and pos.beaten(five)
    pos.clear(B)
    assert sorted(pos.hand(B)) == ["6", "7", "8"] and not pos.defending(B)
    assert L.ACT_ATTACK in kinds(pos, B)
    assert pos.cards_consistent()


def test_double_and_halve_example_five_beats_ten():
    # attacked with a 10, the defender plays a 5; the attacker's ally Doubles the 10, the
    # defender's ally Halves it back and Doubles the 5: 10 against 10, the 5 beats the 10
    pos = Position(["King", "Assassin", "Fool", "King's Hand"],
                   hands=[["5"], ["10"], ["Double"], ["Halve", "Double"]])
    ten = pos.attack(B, "10", A)
    pos.defend(A, "5", ten)
    pos.double(C, ten)
    assert pos.value(ten) == 20
    pos.halve(D, ten)
    assert pos.value(ten) == 10 and not pos.beaten(ten)
    pos.double(D, ten, side="defence")
    assert pos.beaten(ten)
    # modifiers only on unbeaten attacks
    assert all(L.action_attack(x) != ten or L.action_kind(x) == L.ACT_PASS for x in pos.legal_actions(C))


def test_a_seven_halved_twice_is_worth_more_than_a_three_halved_once():
    pos = Position(["King", "Assassin", "Fool", "Sage"], hands=[["3", "2"], ["7", "Halve"], ["Halve"], ["Halve"]])
    seven = pos.attack(B, "7", A)
    pos.halve(B, seven)
    pos.defend(A, "3", seven)  # 3 against 3.5
    pos.halve(D, seven, side="defence")
    pos.halve(C, seven)
    assert pos.value(seven) == Fraction(7, 4) and pos.defence_value(seven) == Fraction(3, 2)
    assert not pos.beaten(seven)
    pos.defend(A, "2", seven)  # a new defending card replaces the old one
    assert pos.beaten(seven)
    assert pos.cards_consistent()


def test_kill_credit_highest_unbeaten_attack_modifiers_do_not_take_credit():
    pos = Position(["King", "Assassin", "Fool", "Sage"], hands=[[], ["4"], ["6"], ["Double"]])
    four = pos.attack(B, "4", A)
    pos.attack(C, "6", A)
    pos.double(D, four)
    assert pos.advance(6.0) == [(A, B)]


def test_kill_credit_tie_goes_to_the_first_attack_and_simultaneous_ties_to_the_defender():
    pos = Position(["King", "Assassin", "Fool"], hands=[[], ["6"], ["6"]])
    pos.attack(B, "6", A)
    pos.advance(0.5)
    pos.attack(C, "6", A)
    assert pos.advance(6.0) == [(A, B)]
    pos = Position(["King", "Assassin", "Fool"], hands=[[], ["6"], ["6"]])
    pos.attack(B, "6", A)
    pos.attack(C, "6", A)  # the same moment
    assert pos.advance(6.0, credit_choice=1) == [(A, C)]


@pytest.mark.parametrize("credit, killer", [(True, C), (False, B)])
def test_redirect_takes_the_attack_and_its_modifiers_and_the_kill(credit, killer):
    pos = Position(["King", "Assassin", "Fool"], hands=[["3"], ["5", "Double"], ["Redirect"]],
                   options={"redirect_credit": credit})
    five = pos.attack(B, "5", A)
    pos.double(B, five)
    pos.defend(A, "3", five)
    pos.redirect(C, five, A)  # the same victim, the defence is discarded
    assert pos.defence_value(five) is None and pos.value(five) == 10 and pos.attacker(five) == C
    assert pos.advance(6.0) == [(A, killer)]
    assert pos.cards_consistent()


def test_bomb_beats_every_attack_on_one_player_and_cannot_be_redirected_away():
    pos = Position(["King", "Assassin", "Fool", "Sage"], hands=[["1"], ["9"], ["10"], ["Bomb", "Redirect"]])
    nine = pos.attack(B, "9", A)
    ten = pos.attack(C, "10", A)
    assert L.ACT_BOMB not in kinds(pos, D)  # the Bomb needs a defending card to sit on
    pos.defend(A, "1", nine)
    pos.bomb(D, nine)
    assert pos.beaten(nine) and pos.beaten(ten)
    assert L.ACT_REDIRECT not in kinds(pos, D)
    pos.clear(A)
    assert not pos.defending(A) and pos.cards_consistent()


def test_one_live_attack_per_attacker_and_victim_until_cleared():
    pos = Position(["King", "Assassin", "Fool"], hands=[["10"], ["3", "4"], []])
    three = pos.attack(B, "3", A)
    assert all(not (L.action_kind(x) == L.ACT_ATTACK and L.action_target(x) == A)
               for x in pos.legal_actions(B))
    pos.defend(A, "10", three)
    assert pos.beaten(three)
    assert all(L.action_target(x) != A for x in pos.legal_actions(B) if L.action_kind(x) == L.ACT_ATTACK)
    pos.clear(A)
    assert any(L.action_target(x) == A for x in pos.legal_actions(B) if L.action_kind(x) == L.ACT_ATTACK)


def test_no_attacks_or_redirects_during_the_pause_after_a_death():
    pos = Position(["King", "Assassin", "Fool"], hands=[[], ["9", "8"], ["7", "Redirect"]])
    pos.attack(B, "9", A)
    pos.advance(3.0)
    eight = pos.attack(B, "8", C)
    pos.advance(3.0)
    assert not pos.alive(A) and pos.phase == "pause"
    assert kinds(pos, C) == {L.ACT_PASS, L.ACT_DEFEND}  # only resolving the attack on itself
    pos.defend(C, "7", eight)
    assert not pos.beaten(eight)
