"""A policy decides from its seat's information only.

Rulebook: hands, Successors and Dungeon cards are hidden ("Your Successor is safely hidden"), the
unused card stays "face down, unseen", and at the Princess's swap the opponent chooses without
seeing the owner's card. So two positions that differ only in those hidden elements look the
same to the deciding seat, and with the same random stream every policy must decide the same in
both, at every kind of decision, restricted or not (a restriction narrows the seat's own
answers). The search policy's sampled worlds must be real positions: every card once, no
negative count, the owner's pending Princess pick in the owner's hand.
"""

import random

import numpy as np
import pytest

from balance.engine.decision import FORBID, PREFER, no_restrictions
from balance.engine.rng import new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.match import game_buffers
from balance.games.imposter_kings.policies import SCR_POOL, SCR_UNSEEN, determinize
from tests.imposter_kings.views import choose

T = L.TYPES


def hidden_places(s, me):
    """The cards ``me`` cannot see, and where they sit: the opponent's hand beyond what ``me``
    knows, its Successor and Dungeon, the unused card."""
    q = 1 - me
    cards, zones = [], []
    for t in range(T):
        extra = s[L.HAND + q * T + t] - s[L.known_at(me, q) + t]
        cards += [t] * extra
        zones += [None] * extra
    for zone in (L.SUCCESSOR + q, L.DUNGEON + q, L.UNUSED):
        if s[zone] >= 0:
            cards.append(s[zone])
            zones.append(zone)
    return cards, zones


def other_world(s, me, rng):
    """The same position as ``me`` sees it, with its hidden elements dealt anew."""
    world = s.copy()
    q = 1 - me
    cards, zones = hidden_places(s, me)
    rng.shuffle(cards)
    world[L.HAND + q * T:L.HAND + (q + 1) * T] = s[L.known_at(me, q):L.known_at(me, q) + T]
    for card, zone in zip(cards, zones):
        if zone is None:
            world[L.HAND + q * T + card] += 1
        else:
            world[zone] = card
    if s[L.PHASE] == L.PH_PRINCESS_OPP and s[L.DECIDER] == me:  # the owner's pick is hidden too
        held = [t for t in range(T) if world[L.HAND + q * T + t] > 0]
        world[L.PEND_GIVE] = rng.choice(held)
    return world


def legal(s, cfg):
    out = np.zeros(L.MAX_ACTIONS, dtype=np.int64)
    n = R.answers(R.legal_mask(s, cfg), out)
    return out, n


def restriction_at(s, cfg, side):
    """A restriction of both seats at this decision's kind: the decider forbids (or prefers) its
    lowest legal answer, the opponent (unknown to the decider) its highest."""
    restrict = no_restrictions(2)
    mask = R.legal_mask(s, cfg)
    restrict[s[L.DECIDER], s[L.PHASE], side] = mask & -mask
    restrict[1 - s[L.DECIDER], s[L.PHASE], side] = 1 << (int(mask).bit_length() - 1)
    return restrict


def test_every_decision_kind_is_covered(decisions):
    _, found = decisions
    assert {kind for kind, states in found.items() if not states} == set()


@pytest.mark.parametrize("restricted", [None, FORBID, PREFER])
@pytest.mark.parametrize("policy, params", [("search", {"rollouts": 6}), ("search", {"rollouts": 3, "inner": 1}),
                                            ("heuristic", {}), ("greedy", {}), ("random", {})])
def test_a_decision_is_a_function_of_the_deciders_information(decisions, policy, params, restricted):
    cfg, found = decisions
    p = GAME.policy(policy, "test")
    row = p.param_row(params, "test")
    _, _, buffer, scratch, fscratch, _, _, _ = game_buffers()
    rng = random.Random(3)
    differ = []
    for kind, states in found.items():
        for k, s in enumerate(states):
            me = s[L.DECIDER]
            actions, n = legal(s, cfg)
            restrict = no_restrictions(2) if restricted is None else restriction_at(s, cfg, restricted)
            picks = set()
            for world in (s, other_world(s, me, rng), other_world(s, me, rng)):
                assert np.array_equal(legal(world, cfg)[0][:n], actions[:n])  # the decider's own options
                world = world.copy()
                R.pose_pending(world, cfg, restrict)
                picks.add(int(choose(world, cfg, p.code, row, restrict, new_stream(17, k), buffer, scratch,
                                     fscratch)))
            if len(picks) > 1:
                differ.append(L.PHASE_NAMES[kind])
    assert differ == [], f"{policy}: the decision depends on hidden cards at {sorted(set(differ))}"


def test_search_worlds_are_real_positions_consistent_with_the_view(decisions):
    """Sampled worlds conserve every card, hold no negative count, keep all that the searcher
    sees, and stay real positions after any legal action (the Princess swap included)."""
    cfg, found = decisions
    out = np.zeros(L.STATE_SIZE, dtype=np.int64)
    _, _, _, scratch, _, _, _, _ = game_buffers()
    stream = new_stream(2, 9)
    varied = 0
    for kind, states in found.items():
        for s in states:
            me = s[L.DECIDER]
            q = 1 - me
            total = R.count_cards(s)
            mine = np.r_[L.HAND + me * T:L.HAND + (me + 1) * T, L.SUCCESSOR + me, L.DUNGEON + me]
            theirs = slice(L.HAND + q * T, L.HAND + (q + 1) * T)
            seen = set()
            for _ in range(12):
                determinize(s, cfg, me, out, scratch[SCR_POOL], scratch[SCR_UNSEEN], stream)
                assert np.array_equal(R.count_cards(out), total), L.PHASE_NAMES[kind]
                assert out[:L.KNOWN].min() >= 0
                assert np.array_equal(out[mine], s[mine])
                assert out[theirs].sum() == s[theirs].sum()
                assert np.all(out[theirs] >= s[L.known_at(me, q):L.known_at(me, q) + T])
                for zone in (L.SUCCESSOR + q, L.DUNGEON + q, L.UNUSED):
                    assert (out[zone] >= 0) == (s[zone] >= 0)
                if kind == L.PH_PRINCESS_OPP:
                    assert out[L.HAND + q * T + out[L.PEND_GIVE]] > 0, "the owner's pick is not in its hand"
                actions, n = legal(out, cfg)
                for a in actions[:n]:
                    after = out.copy()
                    R.apply_action(after, cfg, a)
                    assert after[:L.KNOWN].min() >= 0, f"{L.PHASE_NAMES[kind]}: a negative count after {a}"
                    assert np.array_equal(R.count_cards(after), total)
                seen.add(tuple(out[theirs]) + (out[L.SUCCESSOR + q], out[L.UNUSED]))
            varied += len(seen) > 1
    assert varied > 0  # the hidden cards really are re-dealt
