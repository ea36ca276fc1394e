"""DETHRONED's search policy (the engine's driver, balance.engine.search): it obeys its seat's
restriction, its decision reads only its seat's view, a game with a search seat replays as the
batch played it, and it plays its seat clearly better than a random player would."""

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.rng import new_stream
from balance.games.dethroned import combat, policies, rules
from balance.games.dethroned import layout as L
from balance.games.dethroned.game import GAME
from balance.games.dethroned.positions import Steps

ROYAL_FAMILY = ["King's Hand", "Princess", "Fool", "Sage", "King"]
SEARCH_SEAT = 0
FEW_ROLLOUTS = 4


def table_setup(searcher=("search", {"rollouts": FEW_ROLLOUTS}), rotate=False):
    """The Royal Family, 5p: ``searcher`` in slot 0 (seat 0 when not rotated), four heuristic players."""
    return GAME.make_setup("standard", len(ROYAL_FAMILY), [searcher] + [("heuristic", {})] * 4, rotate=rotate,
                           extra={"roles": ROYAL_FAMILY})


class Table:
    """One game stepped decision by decision through the step kernel (positions.Steps), as the
    batch plays it, so a test can stop where the search seat decides its move at a reaction."""

    def __init__(self, st, seed, deal):
        self.st = st
        self.c = GAME.compile(st)
        self.steps = Steps(st)
        self.run = self.steps.start(seed, deal)

    @property
    def s(self):
        return self.run.state

    @property
    def mind(self):
        return self.steps.table(self.run)[1]

    def to_search(self, forced_too=False):
        """Play on until the search seat must choose the kind of its move at a reaction (it has
        drawn; ``forced_too``: or has it chosen by its restriction); False at the game's end."""
        while self.steps.next_decision(self.run):
            s = self.s
            if s[D_SEAT] == SEARCH_SEAT and s[D_KIND] == L.DK_ACTION and (
                    forced_too or s[D_CHOICES] & (s[D_CHOICES] - 1)):
                return True
            self.steps.apply(self.run, self.steps.decide(self.run))
        return False

    def searched_move(self):
        """The search seat's pending move kind, searched and played: (its legal kinds, the kind)."""
        kinds = int(combat.legal_kinds(self.s, self.c.opts, SEARCH_SEAT))
        kind = self.steps.decide(self.run)
        self.steps.apply(self.run, kind)
        return kinds, kind

    def choice(self, run=None):
        """The search's choice at the pending reaction, on a copy: (kind, every candidate's total,
        the stream after it)."""
        run = (run or self.run).copy()
        kind = self.steps.decide(run)
        totals = self.steps.table(run)[1][policies.MIND_SEARCH][1][policies.SEARCH_TOTALS].copy()
        return kind, totals, run.rng.copy()


def restricted(side, move):
    """The search seat (slot 0, never rotated) forbids or prefers ``move`` (a menu name)."""
    return table_setup(("search", {"rollouts": FEW_ROLLOUTS}, {side: [move]}))


def searched_moves(st, deals, seed=11):
    for deal in range(deals):
        t = Table(st, seed, deal)
        while t.to_search(forced_too=True):
            yield t.searched_move()


def test_search_never_makes_a_forbidden_move_while_another_is_legal():
    offered = 0
    for kinds, kind in searched_moves(restricted("forbid", "Defend"), deals=6):
        assert kind != L.ACT_DEFEND
        offered += (kinds >> L.ACT_DEFEND) & 1
    assert offered > 0  # a Defend was legal (and refused) at some searched move


def test_search_makes_a_preferred_move_whenever_it_is_legal():
    offered = 0
    for kinds, kind in searched_moves(restricted("prefer", "Attack"), deals=6):
        if (kinds >> L.ACT_ATTACK) & 1:
            assert kind == L.ACT_ATTACK
            offered += 1
    assert offered > 0


def test_forbidden_move_absent_from_a_whole_game_with_a_search_seat():
    st = restricted("forbid", "Defend")
    for game in range(3):
        s, trace, row = GAME.replay(st, 5, game)
        defends = [e for e in trace if e[L.TR_EVENT] == L.EV_ACTION and e[L.TR_PLAYER] == SEARCH_SEAT
                   and L.action_kind(e[L.TR_ARG]) == L.ACT_DEFEND]
        assert defends == []


def hide_differently(t, run, seed):
    """The same view of the search seat with other hidden facts: two other players' roles swapped,
    every unseen card shuffled (its own undrawn deck too), every other player's kill record,
    beliefs and next reaction time changed."""
    s = run.state
    belief = t.steps.table(run)[1][policies.MIND_BELIEF]
    others = [p for p in range(t.st.players) if p != SEARCH_SEAT]
    a = others[0]
    b = next(q for q in others[1:] if s[L.pbase(q) + L.PL_ROLE] != s[L.pbase(a) + L.PL_ROLE])
    rules.swap_roles(s, a, b)
    stream = new_stream(np.uint64(seed), 99)
    pool = np.zeros(L.DECK_SIZE + L.HAND_SIZE, dtype=np.int64)
    rng = np.random.default_rng(seed)
    policies.shuffle_unseen_cards(s, SEARCH_SEAT, False, pool, stream)  # its own undrawn deck's order
    for p in others:
        s[L.pbase(p) + L.PL_KILL_FLAGS] = rng.integers(0, 16)
        s[L.pbase(p) + L.PL_KILLED_ROLES] = rng.integers(0, 32)
        policies.shuffle_unseen_cards(s, p, True, pool, stream)
        s[L.pbase(p) + L.PL_READY_AT] += rng.integers(1, 500)
        belief[p] = rng.random(belief[p].shape)
    assert combat.cards_consistent(s, np.zeros(L.MAX_PLAYERS * L.DECK_SIZE, dtype=np.int64))


def test_search_decision_reads_only_the_seats_view():
    """The same view and stream give the same search (its kind, every candidate's total, the stream
    after it) whatever the hidden roles, cards, kill records and other players' beliefs are: the
    sampled worlds are dealt from the seat's view alone. A determinize that kept the true roles
    fails this test."""
    st = table_setup(("search", {"rollouts": 8}))
    compared = 0
    for deal in range(4):
        t = Table(st, 3, deal)
        for _ in range(4):
            if not t.to_search():
                break
            marks = t.mind[policies.MIND_MARKS]
            searched = marks[policies.MARK_SEEN, SEARCH_SEAT] != t.s[L.H_VERSION]
            kind, totals, after = t.choice()
            hidden = t.run.copy()
            hide_differently(t, hidden, deal)
            other_kind, other_totals, other_after = t.choice(hidden)
            assert kind == other_kind
            np.testing.assert_array_equal(totals, other_totals)
            np.testing.assert_array_equal(after, other_after)
            compared += bool(searched)
            t.searched_move()
    assert compared >= 4


def test_record_kills_rebuilds_what_the_game_recorded():
    """The sampled worlds rebuild every kill record from the dealt roles as combat.kill records it:
    on a finished game's true roles the rebuild gives back the recorded flags."""
    st = table_setup(("heuristic", {}))
    c = GAME.compile(st)
    checked = 0
    for game in range(12):
        s, trace, row = GAME.replay(st, 2, game)
        recorded = [(s[L.pbase(p) + L.PL_KILL_FLAGS], s[L.pbase(p) + L.PL_KILLED_ROLES]) for p in range(st.players)]
        policies.record_kills(s, c.opts, c.roles)
        assert recorded == [(s[L.pbase(p) + L.PL_KILL_FLAGS], s[L.pbase(p) + L.PL_KILLED_ROLES])
                            for p in range(st.players)]
        checked += s[L.H_DEATHS] > 0
    assert checked > 0


def test_replay_equals_batch_with_a_search_seat():
    for searcher in (("search", {"rollouts": FEW_ROLLOUTS}), ("ismcts", {"iterations": 8})):
        st = table_setup(searcher, rotate=True)
        batch = GAME.simulate(st, 9, 0, 10)
        for game in range(10):
            s, trace, row = GAME.replay(st, 9, game)
            np.testing.assert_array_equal(row, batch[game])


def test_the_tree_search_keeps_its_seats_speed_and_leaves_the_game_as_it_found_it():
    """An ismcts seat reacts at the speed its parameters give (the rules read a player's speed
    first in every DETHRONED policy's row), and searching a decision changes neither the game's
    state nor the listeners' beliefs: its worlds are played with beliefs of their own."""
    st = table_setup(("ismcts", {"iterations": 16, "reaction_mean": 0.2, "reaction_spread": 0.0}))
    t = Table(st, 4, 0)
    assert t.to_search()  # its first reaction, 0.2 s into the fight, before any heuristic player's (0.5 s or later)
    assert t.s[L.H_NOW] == 200 and t.s[L.H_DECISIONS] == 1
    state, belief = t.s.copy(), t.mind[policies.MIND_BELIEF].copy()
    t.steps.decide(t.run)
    np.testing.assert_array_equal(t.s, state)
    np.testing.assert_array_equal(t.mind[policies.MIND_BELIEF], belief)


def win_rate_in_slot_0(seats, games, seed=21):
    st = GAME.make_setup("standard", len(ROYAL_FAMILY), seats, extra={"roles": ROYAL_FAMILY})
    df = GAME.frame(st, GAME.simulate(st, seed, 0, games))
    seat_frame = GAME.seat_frame(st, df)
    return seat_frame[seat_frame.policy == st.seats[0].label].won.mean()


def test_search_beats_a_random_player_and_stays_near_the_heuristic():
    """One search seat (16 rollouts) against four heuristic players, every seat in turn, 150 games
    (30 deals x 5 rotations); a random player and a heuristic player in the same seats and deals.
    The search is weaker than the heuristic at 16 rollouts (README): asserted only that it beats
    a random player and is not far below the heuristic."""
    field = [("heuristic", {})] * 4
    search = win_rate_in_slot_0([("search", {})] + field, 150)
    random = win_rate_in_slot_0([("random", {})] + field, 150)
    heuristic = win_rate_in_slot_0([("heuristic", {})] + field, 150)
    assert random < search
    assert search > heuristic - 0.25
