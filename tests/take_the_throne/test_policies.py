"""Take the Throne policies see only what their seat may know: two positions that look the same
from the deciding seat get the same decision from the same random stream."""

import numpy as np
import pytest

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.rng import new_stream
from balance.games.take_the_throne import layout as L
from balance.games.take_the_throne.game import GAME
from balance.games.take_the_throne.match import decide_posed
from balance.games.take_the_throne.policies import new_search_buffers, new_work_buffer
from balance.games.take_the_throne.rules import deal


def decided(setup, state, seed):
    """The answer of the deciding seat's policy to the decision posed in ``state``."""
    return decide_posed(state, GAME.compile(setup), setup.policy_codes, setup.policy_params, setup.restrict,
                        new_stream(seed, 1), np.zeros((0, L.TRACE_FIELDS), np.int64),
                        (new_work_buffer(), new_search_buffers()))


def heuristic_decision(kind, seat, choices, played, revealed, seed):
    """The heuristic's answer in a core 4-player round where seat s has played ``played[s]``
    (face down unless s is in ``revealed``)."""
    setup = GAME.make_setup("core", 4, "heuristic", rotate=False)
    opts = GAME.compile(setup)
    state = np.empty(L.STATE_SIZE, dtype=np.int64)
    deal(state, opts, new_stream(0, 0))
    for s, name in played.items():
        card = L.CARD_IDS[name]
        state[L.HAND + s] &= ~(1 << card)
        state[L.MAIN + s] = card
    for s in revealed:
        state[L.REVEALED + s] = 1
    state[D_SEAT], state[D_KIND], state[D_CHOICES] = seat, kind, choices
    return decided(setup, state, seed)


@pytest.mark.parametrize("seed", range(8))
def test_the_monarchs_raid_target_does_not_depend_on_the_face_down_cards(seed):
    # The Monarch has revealed Raid; seats 1 and 2 hold a Charge and a Feint face down, in either
    # order. Their hands alone would tell which played the Charge.
    worlds = [{0: "raid", 1: hidden[0], 2: hidden[1], 3: "attack"}
              for hidden in (("charge", "feint"), ("feint", "charge"))]
    house = 0b1110
    targets = {heuristic_decision(L.RAID_TARGET, 0, house, world, [0], seed) for world in worlds}
    assert len(targets) == 1


@pytest.mark.parametrize("seed", range(8))
def test_a_feinting_players_extra_card_does_not_depend_on_the_face_down_cards(seed):
    # Seat 3 feints at its reveal; seats 1 and 2 are still face down, with two Charges or with a
    # Feint and a Sabotage: from seat 3 both look alike (every house player chose from its full deck).
    worlds = [{0: "consolidate", 1: hidden[0], 2: hidden[1], 3: "feint"}
              for hidden in (("charge", "charge"), ("feint", "sabotage"))]
    choices = L.mask_of((L.ATTACK, L.CHARGE, L.INFILTRATE))
    picks = {heuristic_decision(L.FEINT_EXTRA, 3, choices, world, [0, 3], seed) for world in worlds}
    assert len(picks) == 1


def mirror_selection(seat, monarch_deck, seed):
    """The heuristic's card for ``seat`` at the first selection of a Mirror game whose Monarch holds
    ``monarch_deck`` (Raid and Defend, the kept cards, plus 4 random ones nobody has seen)."""
    setup = GAME.make_setup("mirror", 4, "heuristic", rotate=False)
    opts = GAME.compile(setup)
    state = np.empty(L.STATE_SIZE, dtype=np.int64)
    deal(state, opts, new_stream(0, 0))
    house = L.mask_of((L.ATTACK, L.CHARGE, L.INFILTRATE, L.FEINT, L.SABOTAGE))
    for s in range(1, 4):
        state[L.OWNED + s] = state[L.HAND + s] = state[L.SHOWN + s] = house
    state[L.OWNED] = state[L.HAND] = L.mask_of(L.CARD_IDS[name] for name in monarch_deck)
    state[D_SEAT], state[D_KIND], state[D_CHOICES] = seat, L.SELECT_CARD, state[L.HAND + seat]
    return decided(setup, state, seed)


@pytest.mark.parametrize("seed", range(8))
def test_a_house_player_does_not_see_the_monarchs_unplayed_random_crown_cards(seed):
    decks = (["raid", "defend", "abdicate", "authority", "command", "consolidate"],
             ["raid", "defend", "chaos", "entrap", "command", "consolidate"])
    assert len({mirror_selection(1, deck, seed) for deck in decks}) == 1
