"""Take the Throne under restricted play (the engine's decision interface): a seat that forbids a
card never plays it while another legal card exists, a seat that prefers a card plays it whenever
it is legal, random and heuristic alike, in any decision that picks a card; an unrestricted run is
game-for-game what it was before the interface."""

import hashlib

import numpy as np
import pytest

from balance.engine.decision import pose
from balance.engine.rng import new_stream
from balance.games.take_the_throne import layout as L
from balance.games.take_the_throne.game import GAME
from balance.games.take_the_throne.match import decide_posed, play_on
from balance.games.take_the_throne.policies import new_search_buffers, new_work_buffer
from balance.games.take_the_throne.rules import deal

CARD_KINDS = (L.SELECT_CARD, L.REPLACEMENT_CARD, L.FEINT_EXTRA)


def restricted(mode, players, policy, seat, side, card):
    """A setup (no rotation) whose seat ``seat`` forbids or prefers ``card``; the others are free."""
    seats = [(policy, {}, {side: [L.CARD_NAMES[card]]}) if s == seat else (policy, {}) for s in range(players)]
    return GAME.make_setup(mode, players, seats, rotate=False)


def mind():
    """The policies' scratch buffers (the work buffer, the search's buffers)."""
    return new_work_buffer(), new_search_buffers()


def positions(mode, players, policy, count, seed):
    """Start-of-round positions of games played by ``policy`` (copies of the state)."""
    setup = GAME.make_setup(mode, players, policy, rotate=False)
    opts = GAME.compile(setup)
    out = []
    for d in range(count):
        state = np.empty(L.STATE_SIZE, dtype=np.int64)
        rng = new_stream(seed, d)
        deal(state, opts, rng)
        state[L.ROUND_STOP] = d % 7  # positions from every stage of a game
        play_on(state, opts, setup.policy_codes, setup.policy_params, setup.restrict, rng,
                np.zeros((0, L.TRACE_FIELDS), np.int64), mind())
        if state[L.WINNER] == L.NOBODY:
            out.append(state)
    return out


def ask(setup, state, kind, seat, choices, rng):
    """Pose a decision of ``kind`` to ``seat`` in ``state`` (narrowed by its restriction) and let the
    engine decide it."""
    pose(state, seat, kind, choices, setup.restrict)
    return decide_posed(state, GAME.compile(setup), setup.policy_codes, setup.policy_params,
                        setup.restrict, rng, np.zeros((0, L.TRACE_FIELDS), np.int64), mind())


@pytest.mark.parametrize("mode, players", [("core", 4), ("asymmetric", 5), ("two_player", 2)])
@pytest.mark.parametrize("policy", ["random", "heuristic", "greedy"])
def test_a_restricted_seat_obeys_its_restriction_in_every_card_decision(mode, players, policy):
    setups = {}
    asked = 0
    for i, position in enumerate(positions(mode, players, policy, 24, seed=3)):
        for seat in range(players):
            hand = position[L.HAND + seat]
            legal = hand if hand else position[L.DISCARD + seat]
            for card in range(L.N_CARDS):
                if not legal >> card & 1:
                    continue
                for side in ("forbid", "prefer"):
                    key = (seat, side, card)
                    if key not in setups:
                        setups[key] = restricted(mode, players, policy, seat, side, card)
                    setup = setups[key]
                    kind = CARD_KINDS[(i + card) % len(CARD_KINDS)]
                    state = position.copy()
                    answer = ask(setup, state, kind, seat, legal, new_stream(i, card))
                    asked += 1
                    assert legal >> answer & 1
                    if side == "forbid" and legal != 1 << card:
                        assert answer != card, (L.CARD_NAMES[card], kind)
                    if side == "prefer":
                        assert answer == card, (L.CARD_NAMES[card], kind)
    assert asked > 100


@pytest.mark.parametrize("side", ["forbid", "prefer"])
def test_the_restriction_follows_its_slot_through_a_rotated_batch(side):
    # Slot 0 forbids (or prefers) Charge; in rotation r it sits at seat r. A house player's Feint
    # draws its extra card from a hand and discard pile that always hold Charge and 3 other cards
    # (the rulebook's "from your hand or discard pile"), so its choice shows the restriction.
    seats = [("heuristic", {}, {side: ["Charge"]})] + [("heuristic", {})] * 3
    setup = GAME.make_setup("core", 4, seats)
    feints = 0
    for game_index in range(80):
        rotation = game_index % setup.rotations
        _, trace = GAME.play_traced(setup, 9, game_index)
        for row in trace[(trace[:, 1] == L.EV_FEINT) & (trace[:, 2] == rotation)]:
            feints += 1
            assert (row[3] == L.CHARGE) == (side == "prefer")
    assert feints > 5


# Fingerprints (sha256 of the result table) recorded on the commit before the decision interface
# (aa33b9e): the unrestricted games must not change, draw for draw.
BEFORE = {
    "core4_heuristic": ("core", 4, "heuristic",
                        "f43b07e779ba02acae963f533d81b408bbb6932311d98bb5bb5525236182eed9"),
    "core4_random": ("core", 4, "random",
                     "cb3b4e7051900e98402344730d73a8a67e213a85cc16f00ce3cea198b0de2c39"),
    "mirror4_mixed": ("mirror", 4, [("heuristic", {}), ("greedy", {}), ("random", {}), ("cautious", {})],
                      "7ed5305130def3a34e8dc9eda41efb65749557bba87a7183b4c8a908e8bc2ff9"),
    "two_player": ("two_player", 2, [("heuristic", {}), ("random", {})],
                   "aad80750f52812b5f4616870da4c32e7cbd7dc4d0855d51e1c64074285afce47"),
}


@pytest.mark.parametrize("name", BEFORE)
def test_unrestricted_games_are_identical_to_before_the_interface(name):
    mode, players, seats, digest = BEFORE[name]
    table = GAME.simulate(GAME.make_setup(mode, players, seats), 12345, 0, 600)
    assert hashlib.sha256(np.ascontiguousarray(table, dtype=np.int64).tobytes()).hexdigest() == digest
