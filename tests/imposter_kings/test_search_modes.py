"""The search policy in Cutthroat (3 players) and 2v2 (4 players).

Its worlds are dealt from the searcher's view only (rulebook: hands, Successors and Dungeon cards
are hidden; "you may look again at information you learned earlier"; in 2v2 "Once both partners
have [placed a Successor], they may secretly look at each other's Successor" and "you may look at
your partner's fourth card"). So two positions that differ only in what the searcher cannot see
give the same world and the same decision with the same stream, while what it does see (a card it
knows an opponent holds, the partner's Successor it looked at) is kept in every world. A world is a
real position: every card once, each zone as large as in the true position.
"""

import numpy as np
import pytest

from balance.engine.decision import no_restrictions
from balance.engine.rng import new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.match import game_buffers
from balance.games.imposter_kings.policies import SCR_POOL, SCR_UNSEEN, determinize
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.views import choose, decisions

T = L.TYPES
ROLLOUTS = 8
ME = 0


def search_pick(s, cfg, seed=17, policy="search", params=None):
    """The decision of ``policy`` (default: the search, 8 rollouts) at the posed decision of s."""
    p = GAME.policy(policy, "test")
    row = p.param_row({"rollouts": ROLLOUTS} if params is None and policy == "search" else (params or {}), "test")
    _, _, actions, scratch, fscratch, _, _, _ = game_buffers()
    restrict = no_restrictions(L.PLAYERS)
    world = s.copy()
    R.pose_pending(world, cfg, restrict)
    return int(choose(world, cfg, p.code, row, restrict, new_stream(seed, 3), actions, scratch, fscratch))


def world_of(s, cfg, seed=4):
    """One world the search deals for the decider of s."""
    out = np.zeros(L.STATE_SIZE, dtype=np.int64)
    _, _, _, scratch, _, _, _, _ = game_buffers()
    determinize(s, cfg, s[L.DECIDER], out, scratch[SCR_POOL], scratch[SCR_UNSEEN], new_stream(seed, 1))
    return out


# ---- Cutthroat: a scripted position, seat 0 to play on a Soldier ----------------------------------
CUTTHROAT = dict(
    mode="cutthroat", turn=ME, court=["Elder", "Soldier"], accused="Executioner", removed=["Soldier"],
    hands={0: ["Fool", "Inquisitor", "Oathbound", "Warlord", "Princess"],
           1: ["Assassin", "Judge", "Mystic", "Herald", "Warden"],
           2: ["Inquisitor", "Judge", "Oathbound", "Executioner", "Spy"]},
    successors={0: "Queen", 1: "Sentry", 2: "King's Hand"}, dungeons={0: "Elder", 1: "Zealot", 2: "Warden"},
    known={(0, 1): ["Mystic"]})
# The same view for seat 0: an opponent's hand card and a face-down Dungeon card moved between the
# opponents (seat 1's Judge <-> seat 2's Spy; seat 2's Dungeon Warden <-> seat 1's Herald).
CUTTHROAT_HIDDEN_MOVED = dict(CUTTHROAT, hands={0: CUTTHROAT["hands"][0],
                                                1: ["Assassin", "Spy", "Mystic", "Warden", "Warden"],
                                                2: ["Inquisitor", "Judge", "Oathbound", "Executioner", "Judge"]},
                              dungeons={0: "Elder", 1: "Zealot", 2: "Herald"})
# What seat 0 sees changes: it knows seat 1 holds the Assassin (not the Mystic).
CUTTHROAT_SEEN_CHANGED = dict(CUTTHROAT, known={(0, 1): ["Assassin"]})


def cutthroat(spec):
    pos = Position.build(**spec)
    assert pos.phase_code == L.PH_TURN and pos.decider == ME
    assert np.array_equal(pos.card_counts(), L.CUTTHROAT_DECK)
    return pos


def test_cutthroat_worlds_keep_what_the_searcher_saw():
    pos = cutthroat(CUTTHROAT_SEEN_CHANGED)
    worlds = [world_of(pos.s, pos.cfg, seed) for seed in range(12)]
    assert all(w[L.HAND + 1 * T + L.ASSASSIN] == 1 for w in worlds)  # seat 1's known Assassin stays
    assert len({w[L.HAND + 2 * T:L.HAND + 3 * T].tobytes() for w in worlds}) > 1  # the rest is dealt anew
    assert not np.array_equal(worlds[0], world_of(cutthroat(CUTTHROAT).s, pos.cfg, 0))


# ---- 2v2: a scripted position, seat 0 (partner: seat 2) to play on a Soldier ------------------------
TWO_V_TWO = dict(
    mode="two_v_two", turn=ME, court=["Fool", "Elder", "Soldier"], accused="Warden", removed=["Soldier"],
    hands={0: ["Inquisitor", "Oathbound", "Warlord", "Princess"], 1: ["Assassin", "Judge", "Mystic", "Herald"],
           2: ["Inquisitor", "Judge", "Executioner", "Spy"], 3: ["Assassin", "Zealot", "Oathbound", "Executioner"]},
    successors={0: "Queen", 1: "Sentry", 2: "King's Hand", 3: "King's Hand"},
    dungeons={0: "Zealot", 1: "Elder", 2: "Warden", 3: "Fool"},
    known={(0, 2): ["Spy"]})  # seat 0 traded its partner the Spy
# The same view for seat 0: a card of its partner's hand moved to an opponent (the partner's Judge
# <-> seat 1's Mystic), and a face-down card (seat 3's Dungeon Fool <-> seat 1's Herald).
TWO_V_TWO_HIDDEN_MOVED = dict(TWO_V_TWO, hands={0: TWO_V_TWO["hands"][0], 1: ["Assassin", "Judge", "Judge", "Fool"],
                                                2: ["Inquisitor", "Mystic", "Executioner", "Spy"],
                                                3: TWO_V_TWO["hands"][3]},
                              dungeons={0: "Zealot", 1: "Elder", 2: "Warden", 3: "Herald"})
# What seat 0 sees changes: its partner's Successor (which it looked at) is the Assassin.
TWO_V_TWO_SEEN_CHANGED = dict(TWO_V_TWO, hands={**TWO_V_TWO["hands"], 1: ["King's Hand", "Judge", "Mystic", "Herald"]},
                              successors={0: "Queen", 1: "Sentry", 2: "Assassin", 3: "King's Hand"})


def two_v_two(spec):
    pos = Position.build(**spec)
    for q in range(4):  # partners looked at each other's Successor
        pos.s[L.KNOWN_SUCCESSOR + q * L.PLAYERS + (q ^ 2)] = pos.s[L.SUCCESSOR + (q ^ 2)]
    assert pos.phase_code == L.PH_TURN and pos.decider == ME
    assert np.array_equal(pos.card_counts(), L.TWO_V_TWO_DECK)
    return pos


# positions of Cutthroat and 2v2, each with a copy that differs only in what the deciding seat cannot see
VIEW_CASES = pytest.mark.parametrize("build, spec, moved", [(cutthroat, CUTTHROAT, CUTTHROAT_HIDDEN_MOVED),
                                                            (two_v_two, TWO_V_TWO, TWO_V_TWO_HIDDEN_MOVED)],
                                     ids=["cutthroat", "two_v_two"])


@VIEW_CASES
def test_the_search_decides_from_its_view_only(build, spec, moved):
    a, b = build(spec), build(moved)
    assert not np.array_equal(a.s, b.s)
    assert np.array_equal(world_of(a.s, a.cfg), world_of(b.s, b.cfg))
    for seed in range(4):
        assert search_pick(a.s, a.cfg, seed) == search_pick(b.s, b.cfg, seed)


def test_two_v_two_worlds_keep_the_partners_seen_successor():
    for spec, successor in ((TWO_V_TWO, L.KINGS_HAND), (TWO_V_TWO_SEEN_CHANGED, L.ASSASSIN)):
        pos = two_v_two(spec)
        worlds = [world_of(pos.s, pos.cfg, seed) for seed in range(12)]
        assert all(w[L.SUCCESSOR + 2] == successor for w in worlds)
        assert all(w[L.HAND + 2 * T + L.SPY] >= 1 for w in worlds)  # the card it traded its partner
        assert len({w[L.HAND + 2 * T:L.HAND + 3 * T].tobytes() for w in worlds}) > 1  # the rest is dealt anew
        # the opponents saw each other's Successor: in every world they know the one dealt there
        assert all(w[L.KNOWN_SUCCESSOR + 1 * L.PLAYERS + 3] == w[L.SUCCESSOR + 3] for w in worlds)
        assert len({(w[L.SUCCESSOR + 1], w[L.SUCCESSOR + 3], w[L.DUNGEON + 2]) for w in worlds}) > 1
    seen_a = world_of(two_v_two(TWO_V_TWO).s, pos.cfg)
    seen_b = world_of(two_v_two(TWO_V_TWO_SEEN_CHANGED).s, pos.cfg)
    assert not np.array_equal(seen_a, seen_b)


# ---- an Assassin revealed as a reaction, the King's Hand to answer (2 players) ----------------------
def test_an_assassin_revealed_as_a_reaction_stays_in_its_owners_hand_in_every_world():
    """Card sheet: the Assassin is revealed from hand when another player flips their King, and the
    King's Hand may counter it (ruling 3). While the King's Hand decides, everyone has seen it."""
    pos = Position.build(mode="full", turn=ME, court=["Inquisitor", "Soldier", "Elder"], accused="Oathbound",
                         unused="Oathbound", removed=["Judge"],
                         hands={0: ["King's Hand", "Fool", "Elder", "Mystic"], 1: ["Assassin", "Zealot", "Inquisitor",
                                                                                   "Soldier"]},
                         successors={0: "Queen", 1: "Princess"}, dungeons={0: "Sentry", 1: "Warlord"})
    pos.apply("flip")
    assert pos.phase_code == L.PH_ASSASSIN and pos.decider == 1
    pos.apply("yes")
    assert pos.phase_code == L.PH_KINGS_HAND and pos.decider == ME and pos.s[L.PEND_EFFECT] == L.ASSASSIN
    total = R.count_cards(pos.s)
    for seed in range(12):
        world = world_of(pos.s, pos.cfg, seed)
        assert world[L.HAND + 1 * T + L.ASSASSIN] == 1
        R.apply_action(world, pos.cfg, L.ACT_YES)  # the King's Hand counters: both cards are Condemned
        assert world[:L.KNOWN].min() >= 0 and np.array_equal(R.count_cards(world), total)


# ---- worlds at every kind of decision, random play ------------------------------------------------
def hidden_indices(s, cfg, me):
    """The record entries a world may deal anew for ``me``: the other seats' hands, unseen
    Successors, Dungeons, placed cards, unseen 2v2 fourth cards, face-down Condemned cards; the
    unused card, the cards removed face down; what the others know of each other; the Princess
    owner's pending pick."""
    n = cfg[L.CFG_PLAYERS]
    placing = s[L.PHASE] == L.PH_PICK_CARD and s[L.PICK_FOR] == L.PICK_PARTNER_CARD
    idx = [L.UNUSED, L.PEND_GIVE, *range(L.REMOVED_HIDDEN, L.REMOVED_HIDDEN + T)]
    for q in range(n):
        if q == me:
            continue
        for zone in (L.HAND, L.PLACED, L.CONDEMNED_HIDDEN):
            idx += range(zone + q * T, zone + (q + 1) * T)
        idx += [L.DUNGEON + q]
        if s[L.KNOWN_SUCCESSOR + me * L.PLAYERS + q] < 0:
            idx.append(L.SUCCESSOR + q)
        if not (cfg[L.CFG_TEAMS] and q == me ^ 2 and not placing):
            idx.append(L.PARTNER_CARD + q)
        for o in range(n):
            if o not in (me, q):
                idx += range(L.known_at(o, q), L.known_at(o, q) + T)
                idx.append(L.KNOWN_SUCCESSOR + o * L.PLAYERS + q)
    return np.array(idx)


def zone_sizes(s, cfg):
    n = cfg[L.CFG_PLAYERS]
    sizes = [s[L.REMOVED_HIDDEN:L.REMOVED_HIDDEN + T].sum(), s[L.UNUSED] >= 0]
    for q in range(n):
        sizes += [s[zone + q * T:zone + (q + 1) * T].sum() for zone in (L.HAND, L.PLACED, L.CONDEMNED_HIDDEN)]
        sizes += [s[zone + q] >= 0 for zone in (L.SUCCESSOR, L.DUNGEON, L.PARTNER_CARD)]
    return sizes


@pytest.mark.parametrize("mode, seats, deals", [("cutthroat", 3, 300), ("two_v_two", 4, 200)], ids=["cutthroat", "two_v_two"])
def test_worlds_are_real_positions_that_keep_the_view(mode, seats, deals):
    """Every card once, each zone its true size, every entry the searcher sees unchanged, the
    others' knowledge true in the world, and a real position after any legal action."""
    cfg, found = decisions(mode, seats, per_kind=3, deals=deals)
    out = np.zeros(L.STATE_SIZE, dtype=np.int64)
    _, _, _, scratch, _, _, _, _ = game_buffers()
    stream = new_stream(2, 9)
    n = cfg[L.CFG_PLAYERS]
    varied = 0
    for key, states in found.items():
        for s in states:
            me = s[L.DECIDER]
            total = R.count_cards(s)
            seen = np.ones(L.STATE_SIZE, dtype=bool)
            seen[hidden_indices(s, cfg, me)] = False
            worlds = set()
            for _ in range(6):
                determinize(s, cfg, me, out, scratch[SCR_POOL], scratch[SCR_UNSEEN], stream)
                assert np.array_equal(R.count_cards(out), total), L.PHASE_NAMES[key[0]]
                assert out[:L.KNOWN].min() >= 0
                assert zone_sizes(out, cfg) == zone_sizes(s, cfg)
                assert np.array_equal(out[seen], s[seen]), L.PHASE_NAMES[key[0]]
                for o in range(n):
                    for q in range(n):
                        if o != q:  # what a player is sure of is there
                            assert np.all(out[L.HAND + q * T:L.HAND + (q + 1) * T]
                                          >= out[L.known_at(o, q):L.known_at(o, q) + T])
                            if out[L.KNOWN_SUCCESSOR + o * L.PLAYERS + q] >= 0:
                                assert out[L.KNOWN_SUCCESSOR + o * L.PLAYERS + q] == out[L.SUCCESSOR + q]
                if key[0] == L.PH_PRINCESS_OPP:
                    assert out[L.HAND + s[L.PEND_USER] * T + out[L.PEND_GIVE]] > 0
                if key[0] == L.PH_KINGS_HAND and s[L.PEND_EFFECT] == L.ASSASSIN:  # revealed as a reaction
                    assert out[L.HAND + s[L.PEND_USER] * T + L.ASSASSIN] > 0
                legal = np.zeros(L.MAX_ACTIONS, dtype=np.int64)
                for a in legal[:R.answers(R.legal_mask(out, cfg), legal)]:
                    after = out.copy()
                    R.apply_action(after, cfg, a)
                    assert after[:L.KNOWN].min() >= 0 and np.array_equal(R.count_cards(after), total)
                worlds.add(out[~seen].tobytes())
            varied += len(worlds) > 1
    assert varied > 0


@pytest.mark.parametrize("mode, seats, deals", [("cutthroat", 3, 300), ("two_v_two", 4, 200)], ids=["cutthroat", "two_v_two"])
def test_the_search_really_searches_and_sees_what_it_knows(mode, seats, deals):
    """At the decisions it searches, the search sometimes decides otherwise than the heuristic (it
    is no stand-in for it), and learning an opponent's hidden card sometimes changes its decision
    (so the same-view tests above could fail)."""
    cfg, found = decisions(mode, seats, per_kind=8, deals=deals)
    differs_from_heuristic = changed_by_view = 0
    for key, states in found.items():
        if key[0] != L.PH_TURN:
            continue
        for s in states:
            me = s[L.DECIDER]
            pick = search_pick(s, cfg)
            differs_from_heuristic += pick != search_pick(s, cfg, policy="heuristic", params={})
            opponent = next(q for q in range(cfg[L.CFG_PLAYERS]) if R.is_opponent(cfg, me, q)
                            and s[L.HAND + q * T:L.HAND + (q + 1) * T].sum() > 0)
            learned = s.copy()
            hand = learned[L.HAND + opponent * T:L.HAND + (opponent + 1) * T]
            learned[L.known_at(me, opponent):L.known_at(me, opponent) + T] = hand  # it saw the whole hand
            changed_by_view += pick != search_pick(learned, cfg)
    assert differs_from_heuristic > 0 and changed_by_view > 0


# ---- setups, family, a played match ----------------------------------------------------------------
@pytest.mark.parametrize("mode, players", [("cutthroat", 3), ("two_v_two", 4)])
def test_a_search_seat_plays_in_every_mode_and_the_family_has_it(mode, players):
    seats = [("search", {"rollouts": 2})] + [("heuristic", {})] * (players - 1)
    setup = GAME.make_setup(mode, players, seats, max_length=2)
    rows = GAME.simulate(setup, 5, 0, 2)
    winners = rows[:, L.C_WINNER]
    assert (winners >= 0).sum() >= 2  # rounds were played to a winner
    names = [m.name for m in GAME.policy_family(GAME.make_setup(mode, players, "heuristic"))]
    assert "search (16 rollouts)" in names
