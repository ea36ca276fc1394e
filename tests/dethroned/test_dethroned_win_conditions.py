"""Each role's win condition on hand-built end states (deaths played through the rules)."""

import pytest

from balance.engine.game import SetupError
from balance.games.dethroned import layout as L
from balance.games.dethroned.positions import Position

TEN_NINE = ["10", "9", "8"]


def table(roles, **kw):
    return Position(roles, hands=[list(TEN_NINE) for _ in roles], **kw)


def test_king_and_kings_hand():
    pos = table(["King", "King's Hand", "Assassin"])
    pos.end()
    assert pos.won()[:2] == [True, True]
    pos = table(["King", "King's Hand", "Assassin"])
    pos.kill_by(2, 0)
    pos.end()
    assert pos.won() == [False, False, True]  # the Assassin killed and is alive


def test_assassin_needs_a_kill_and_to_survive():
    pos = table(["King", "Sage", "Assassin"])
    pos.end()
    assert not pos.won()[2]
    pos = table(["King", "Sage", "Assassin"])
    pos.kill_by(2, 1)
    pos.kill_by(0, 2)
    pos.end()
    assert not pos.won()[2] and pos.kills(2) == 1


@pytest.mark.parametrize("must_kill, killer, fool_wins", [(False, 2, True), (False, 0, True), (True, 2, False),
                                                         (True, 0, True)])
def test_fool_needs_the_king_dead(must_kill, killer, fool_wins):
    pos = table(["Fool", "King", "Assassin"], options={"fool_must_kill_king": must_kill})
    pos.kill_by(killer, 1)
    pos.end()
    assert pos.won()[0] == fool_wins


def test_shopkeeper_deck_sum_no_kill_and_the_hand_reading():
    def shop(deck, hand=("Bomb",), kill=False, reading="undrawn"):
        pos = Position(["Shopkeeper", "King", "Assassin"], hands=[list(hand), ["10"], ["9"]],
                       decks=[deck, [], []], options={"shopkeeper_deck": reading})
        if kill:
            pos = Position(["Shopkeeper", "King", "Assassin"], hands=[list(hand) + ["10"], ["10"], ["9"]],
                           decks=[deck, [], []], options={"shopkeeper_deck": reading})
            pos.kill_by(0, 2, "10")
        pos.end()
        return pos.won()[0]

    assert shop(["10", "Double"])
    assert not shop(["10", "1"])
    assert not shop(["3"], kill=True)
    assert shop(["3"], hand=("5",))
    assert not shop(["10"], hand=("5",), reading="deck_and_hand")


def test_princess_and_sage():
    roles = ["King", "Princess", "Fool", "Sage"]
    pos = table(roles)
    pos.kill_by(2, 0)
    pos.end()
    assert pos.won() == [False, True, True, True]
    pos = table(roles)
    pos.kill_by(0, 1)
    pos.kill_by(0, 3)  # the Sage dead, the Fool alive: the Sage still wins
    pos.end()
    assert pos.won()[3] and not pos.won()[1]
    pos = table(roles)
    pos.kill_by(0, 1)
    pos.kill_by(0, 2)
    pos.end()
    assert not pos.won()[3]


def test_maniac_needs_a_commoner_kill():
    pos = table(["Maniac", "King", "Assassin"])
    pos.kill_by(0, 1)
    pos.end()
    assert not pos.won()[0]
    pos = table(["Maniac", "King", "Assassin"])
    pos.kill_by(0, 2)
    pos.end()
    assert pos.won()[0]


def test_suitor_and_sweetheart_need_each_other():
    pos = table(["Suitor", "Sweetheart", "Butcher"])
    pos.end()
    assert pos.won()[:2] == [True, True]
    pos = table(["Suitor", "Sweetheart", "Butcher"])
    pos.kill_by(2, 1)
    pos.end()
    assert pos.won() == [False, False, False]


def test_alchemist_needs_all_four_modifiers_and_a_royal_kill():
    pos = Position(["Alchemist", "Arbiter", "Butcher"], hands=[["5", "Double", "Halve"], ["1"], []],
                   decks=[["Redirect", "Bomb", "9"], [], []])
    five = pos.attack(0, "5", 1)
    pos.double(0, five)
    pos.halve(0, five)
    assert pos.value(five) == 5
    pos.draw(0)
    pos.redirect(0, five, 1)  # its own attack, back at the same player
    pos.defend(1, "1", five)
    pos.bomb(0, five)
    assert pos.beaten(five)
    pos.clear(1)
    pos.end()
    assert not pos.won()[0]  # four Modifiers, no royal kill
    pos.s[L.H_PHASE] = L.PHASE_COMBAT
    pos.kill_by(0, 1, "9")  # the Arbiter wears a crown
    pos.end()
    assert pos.won()[0]
    never = Position(["Alchemist", "Arbiter", "Butcher"], hands=[["9"], [], []])
    never.kill_by(0, 1)
    never.end()
    assert not never.won()[0]  # a royal kill without the Modifiers


def test_anarchist_and_butcher_win_dead():
    pos = table(["Anarchist", "Arbiter", "Butcher", "Suitor"])
    pos.kill_by(0, 1)
    pos.kill_by(2, 0)
    pos.end()
    won = pos.won()
    assert won[0] and not won[2]
    pos = table(["Anarchist", "Arbiter", "Butcher", "Suitor"])
    pos.kill_by(2, 3)
    pos.kill_by(2, 0, "9")
    pos.kill_by(1, 2)
    pos.end()
    assert pos.won()[2] and pos.kills(2) == 2


def test_butchers_boy_needs_two_dead_and_to_live():
    pos = table(["Butcher's Boy", "Suitor", "Sweetheart", "Butcher"])
    pos.kill_by(3, 1)
    pos.end()
    assert not pos.won()[0]
    pos = table(["Butcher's Boy", "Suitor", "Sweetheart", "Butcher"])
    pos.kill_by(3, 1)
    pos.kill_by(3, 2, "9")
    pos.end()
    assert pos.won()[0]


def test_arbiter_needs_a_living_seat_neighbour():
    roles = ["Suitor", "Arbiter", "Sweetheart", "Butcher"]
    pos = table(roles)
    pos.kill_by(3, 0)
    pos.end()
    assert pos.won()[1]
    pos = table(roles)
    pos.kill_by(3, 0)
    pos.kill_by(3, 2, "9")
    pos.end()
    assert not pos.won()[1]


@pytest.mark.parametrize("royal_counts", [True, False])
def test_sentinel_needs_an_assailant_kill_at_that_moment(royal_counts):
    opts = {"sentinel_counts_royal_assailant": royal_counts}
    pos = table(["Sentinel", "Butcher", "Suitor"], options=opts)
    pos.kill_by(0, 1)
    pos.end()
    assert pos.won()[0]
    pos = table(["Sentinel", "Butcher", "Suitor", "Sweetheart"], options=opts)
    pos.kill_by(1, 2)  # the Butcher becomes a murderer: no longer an Assailant
    pos.kill_by(0, 1)
    pos.end()
    assert not pos.won()[0]
    pos = table(["Sentinel", "Alchemist", "Suitor"], options=opts)
    pos.kill_by(0, 1)  # crown and skull, no kill yet
    pos.end()
    assert pos.won()[0] == royal_counts


def test_symbol_variants_change_who_is_an_assailant():
    # the Fool is an Assailant by the app's table, not by the card art
    for symbols, sentinel_wins in (("default", True), ("art", False)):
        pos = Position(["Sentinel", "Fool", "King"], hands=[["10"], [], []], options={"symbols": symbols},
                       custom_roles=None)
        pos.kill_by(0, 1)
        pos.end()
        assert pos.won()[0] == sentinel_wins


def test_custom_roles_from_building_blocks():
    shapeshifter = {"name": "Shapeshifter", "royalty": True, "alive": False, "roles_dead": ["King"],
                    "min_dead": 2}
    pos = table(["Shapeshifter", "King", "Assassin"], custom_roles=[shapeshifter])
    pos.kill_by(2, 1)
    pos.end()
    assert not pos.won()[0]  # alive, but must be dead
    pos = table(["Shapeshifter", "King", "Assassin"], custom_roles=[shapeshifter])
    pos.kill_by(2, 1)
    pos.kill_by(2, 0, "9")
    pos.end()
    assert pos.won()[0]
    with pytest.raises(SetupError, match="kill_class"):
        table(["Shapeshifter", "King", "Assassin"], custom_roles=[{"name": "Shapeshifter", "kill_class": "Nobody"}])
    with pytest.raises(SetupError, match="unknown key"):
        table(["Shapeshifter", "King", "Assassin"], custom_roles=[{"name": "Shapeshifter", "wins": True}])


@pytest.mark.parametrize("role, key", [
    ({"alive": True, "roles_alive": ["King"], "roles_dead": ["King"]}, "roles_dead"),  # the King alive and dead
    ({"min_kills": 2, "max_kills": 1}, "min_kills"),
    ({"kill_class": "royalty", "max_kills": 0}, "kill_class"),
    ({"alive": True, "roles_dead": ["Shapeshifter"]}, "roles_dead"),  # alive, and itself dead
    ({"alive": False, "roles_alive": ["Shapeshifter"]}, "roles_alive"),  # dead, and itself alive
    ({"min_dead": 10 ** 30}, "min_dead"),
    ({"modifiers_played": 5}, "modifiers_played"),
])
def test_contradictory_custom_roles_are_refused_naming_the_key(role, key):
    with pytest.raises(SetupError, match=rf"custom_roles\[0\]\.{key}"):
        table(["Shapeshifter", "King", "Assassin"], custom_roles=[{"name": "Shapeshifter", **role}])


def test_a_role_condition_of_either_kind_is_no_contradiction():
    either = {"name": "Shapeshifter", "roles_alive": ["King"], "roles_dead": ["King"], "role_condition": "any"}
    pos = table(["Shapeshifter", "King", "Assassin"], custom_roles=[either])
    pos.end()
    assert pos.won()[0]
