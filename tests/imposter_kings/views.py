"""Shared by the Cutthroat and 2v2 tests: the decisions random play reaches, and worlds that differ
from a position only in what the decider cannot see (the information rule: same view, same
decision)."""

import numpy as np

from balance.engine.decision import no_restrictions
from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.match import decide_posed, game_buffers
from balance.games.imposter_kings.positions import Position

T = L.TYPES


def choose(s, cfg, code, row, restrict, stream, actions, scratch, fscratch):
    """The answer of policy ``code`` (parameter row ``row``) at the decision posed in ``s``, as the
    match's decide gives it (every seat seated with that policy)."""
    codes = np.full(L.PLAYERS, code, dtype=np.int64)
    params = np.tile(row, (L.PLAYERS, 1))
    return decide_posed(s, cfg, codes, params, restrict, stream, (actions, scratch, fscratch))


def assert_consistent(pos, deck, seats):
    """Every card of ``deck`` accounted for, no negative count, and what a seat "knows" of another
    hand is true."""
    assert np.array_equal(pos.card_counts(), deck), pos.describe()
    assert pos.s[L.HAND:L.KNOWN_SUCCESSOR].min() >= 0
    for o in range(seats):
        for q in range(seats):
            if o != q:
                known = pos.s[L.known_at(o, q):L.known_at(o, q) + T]
                assert np.all(known <= pos.s[L.HAND + q * T:L.HAND + (q + 1) * T]), pos.describe()


def decisions(mode, seats, per_kind=6, deals=300):
    """Positions (states) at each decision kind random play reaches with two or more legal answers,
    up to ``per_kind`` each: (cfg, {(phase, PICK_FOR or -1): [states]})."""
    found = {}
    stream = new_stream(8, 1)
    cfg = None
    for deal in range(deals):
        pos = Position.deal(mode, seed=deal, true_king=deal % seats)
        cfg = pos.cfg
        while not pos.over and pos.phase_code != L.PH_REDEAL:
            legal = pos.legal_codes()
            key = (pos.phase_code, int(pos.s[L.PICK_FOR]) if pos.phase_code in (L.PH_PICK_CARD, L.PH_PICK_PLAYER)
                   else -1)
            if len(legal) >= 2 and len(found.setdefault(key, [])) < per_kind:
                found[key].append(pos.s.copy())
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
    return cfg, found


def hidden_from(s, me, seats):
    """The cards ``me`` cannot see and their places: other hands beyond what ``me`` knows (a 2v2
    partner's too), Successors it has not seen, other Dungeons, the 2v2 fourth cards it does not
    see (the opponents', and its partner's while the fourth cards are being placed or, in 2v2
    Mercenaries, during the bid; not one revealed to raise a bid), cards others
    placed face down, face-down Condemned and removed cards but those its Nakturn Condemned."""
    cards, places = [], []
    partner = me ^ 2
    placing_fourths = (s[L.PHASE] == L.PH_PICK_CARD and s[L.PICK_FOR] == L.PICK_PARTNER_CARD
                       or s[L.PHASE] in (L.PH_REVEAL, L.PH_RAISE))  # 2v2 Mercenaries: seen after the bid
    for q in range(seats):
        if q == me:
            continue
        for t in range(T):
            for zone, extra in ((L.HAND, s[L.HAND + q * T + t] - s[L.known_at(me, q) + t]),
                                (L.PLACED, s[L.PLACED + q * T + t]),
                                (L.CONDEMNED_HIDDEN, s[L.CONDEMNED_HIDDEN + q * T + t]
                                 - s[L.known_condemned_at(me, q) + t])):
                cards += [t] * extra
                places += [(zone + q * T, None)] * extra
        for zone, seen in ((L.SUCCESSOR, s[L.KNOWN_SUCCESSOR + me * L.PLAYERS + q] >= 0), (L.DUNGEON, False),
                           (L.PARTNER_CARD, s[L.EXTRA_SHOWN + q] == 1
                            or (seats == 4 and q == partner and not placing_fourths))):
            if s[zone + q] >= 0 and not seen:
                cards.append(s[zone + q])
                places.append((None, zone + q))
    for t in range(T):
        unseen = s[L.REMOVED_HIDDEN + t] - s[L.KNOWN_REMOVED + me * T + t]
        cards += [t] * unseen
        places += [(L.REMOVED_HIDDEN, None)] * unseen
    return cards, places


def other_world(s, me, rng, seats):
    """``s`` with every card ``me`` cannot see dealt anew (the same counts in every place)."""
    world = s.copy()
    cards, places = hidden_from(s, me, seats)
    for zone, slot in places:
        if zone is not None:
            world[zone:zone + T] = 0
    for q in range(seats):
        if q != me:
            world[L.HAND + q * T:L.HAND + (q + 1) * T] = s[L.known_at(me, q):L.known_at(me, q) + T]
    rng.shuffle(cards)
    for card, (zone, slot) in zip(cards, places):
        if zone is not None:
            world[zone + card] += 1
        else:
            world[slot] = card
    assert np.array_equal(R.count_cards(world), R.count_cards(s))
    return world


def answers_in_worlds(policy, s, cfg, seats, rng, worlds=4, seed=1):
    """``policy``'s answer at the pending decision of ``s`` (first), then in ``worlds`` worlds that
    differ from it only in what the decider cannot see (``other_world``), each with the same stream."""
    p = GAME.policy(policy, "test")
    row = p.param_row({}, "test")
    _, _, actions, scratch, fscratch, _, _, _ = game_buffers()
    restrict = no_restrictions(L.PLAYERS)
    picks = []
    for k in range(worlds + 1):
        world = s.copy() if k == 0 else other_world(s, s[L.DECIDER], rng, seats)
        R.pose_pending(world, cfg, restrict)
        picks.append(int(choose(world, cfg, p.code, row, restrict, new_stream(17, seed), actions, scratch, fscratch)))
    return picks


def kinds_where_hidden_cards_matter(policy, cfg, found, seats, rng):
    """The decision kinds (names) at which ``policy`` decided differently in worlds that differ only
    in what the decider cannot see (the position itself and two others, the same stream)."""
    p = GAME.policy(policy, "test")
    row = p.param_row({}, "test")
    _, _, actions, scratch, fscratch, _, _, _ = game_buffers()
    restrict = no_restrictions(L.PLAYERS)
    differ = []
    for key, states in found.items():
        for k, s in enumerate(states):
            me = s[L.DECIDER]
            picks = set()
            for world in (s, other_world(s, me, rng, seats), other_world(s, me, rng, seats)):
                world = world.copy()
                R.pose_pending(world, cfg, restrict)
                picks.add(int(choose(world, cfg, p.code, row, restrict, new_stream(17, k), actions, scratch,
                                     fscratch)))
            if len(picks) > 1:
                differ.append(L.PHASE_NAMES[key[0]])
    return sorted(set(differ))
