"""DETHRONED's search policy (the engine's driver, balance.engine.search): it obeys its seat's
restriction, its decision reads only its seat's view, a game with a search seat replays as the
batch played it, and it plays its seat clearly better than a random player would."""

import numpy as np

from balance.engine.decision import PREFER
from balance.engine.rng import STREAM_SIZE, new_stream, open_stream
from balance.games.dethroned import combat, policies, rules
from balance.games.dethroned import layout as L
from balance.games.dethroned.game import GAME

ROYAL_FAMILY = ["King's Hand", "Princess", "Fool", "Sage", "King"]
SEARCH_SEAT = 0
FEW_ROLLOUTS = 4


def table_setup(searcher=("search", {"rollouts": FEW_ROLLOUTS}), rotate=False):
    """The Royal Family, 5p: ``searcher`` in slot 0 (seat 0 when not rotated), four heuristic players."""
    return GAME.make_setup("standard", len(ROYAL_FAMILY), [searcher] + [("heuristic", {})] * 4, rotate=rotate,
                           extra={"roles": ROYAL_FAMILY})


class Table:
    """One game driven event by event through the compiled rules, as rules.play_game drives it,
    so a test can stop at the search seat's reaction (it has drawn) and look at its search."""

    def __init__(self, st, seed, deal):
        self.st = st
        c = self.c = GAME.compiled(st)
        n = st.players
        self.restrict = st.restrict.copy()
        self.s = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.belief = np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS, c["roles"].shape[0]))
        self.grudge = np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS))
        self.marks = np.zeros((policies.MARKS, n), dtype=np.int64)
        self.search = policies.new_search_buffers()
        self.stream = np.zeros(STREAM_SIZE, dtype=np.uint64)
        self.no_trace = np.zeros((0, L.TRACE_FIELDS), dtype=np.int64)
        open_stream(self.stream, np.uint64(seed), deal)
        first = rules.deal(self.s, c["opts"], c["roles"], n, c["setup_roles"], self.stream)
        policies.init_beliefs(self.s, c["role_count"], self.belief, self.grudge)
        policies.forget_plans(self.marks)
        rules.discussion(self.s, *self.tables(), first, self.stream, self.no_trace)
        for p in range(n):
            self.s[L.pbase(p) + L.PL_READY_AT] = policies.reaction_delay(st.policy_params, p, self.stream)

    def tables(self):
        c = self.c
        return (c["opts"], c["roles"], c["want_cond"], c["want_kill"], c["want_total"], c["role_count"],
                self.st.policy_codes, self.st.policy_params, self.belief, self.grudge,
                np.zeros((self.st.players, 0), dtype=np.int64), self.marks, self.restrict)

    def search_args(self):
        t = self.tables()
        return t[:10] + t[11:]  # fix_searched_move takes no script

    def to_search(self):
        """Play on until the search seat begins a reaction it must decide; False at the game's end."""
        s = self.s
        while s[L.H_PHASE] != L.PHASE_OVER and not rules.reached_cap(s, self.c["opts"]):
            deadline, a, p = rules.next_event(s, self.stream)
            if a < 0:
                rules.begin_reaction(s, p, self.no_trace)
                if p == SEARCH_SEAT and not rules.only_clearing(s, p):
                    self.pending = (deadline, a, p)
                    return True
            self.play(deadline, a, p)
        return False

    def play(self, deadline, a, p):
        """The event, as the game plays it (the search seat's move searched and fixed); returns the
        search seat's fixed PREFER masks (kind, target, card) or None."""
        fixed = a < 0 and rules.fix_searched_move(self.s, *self.search_args(), p, self.stream, self.search)
        masks = [int(self.restrict[p, kind, PREFER]) for kind in (L.DK_ACTION, L.DK_TARGET, L.DK_CARD)]
        rules.play_event(self.s, *self.tables()[:10], np.zeros(L.MAX_LEGAL, dtype=np.int64),
                         np.zeros(L.MAX_ATTACKS, dtype=np.int64), *self.tables()[10:], deadline, a, p, self.stream,
                         self.no_trace, False)
        if fixed:
            rules.release_move(self.restrict, p, self.search[0][policies.SEARCH_SAVED])
        rules.after_event(self.s, *self.tables(), self.stream, self.no_trace)
        return masks if fixed else None

    def searched_move(self):
        """The search seat's pending reaction, searched and played: (legal kinds, fixed masks)."""
        kinds = int(combat.legal_kinds(self.s, self.c["opts"], SEARCH_SEAT))
        return kinds, self.play(*self.pending)

    def choice(self):
        """The search's choice at the pending reaction without playing it: (masks, totals, stream)."""
        rules.fix_searched_move(self.s, *self.search_args(), SEARCH_SEAT, self.stream, self.search)
        masks = [int(self.restrict[SEARCH_SEAT, kind, PREFER]) for kind in (L.DK_ACTION, L.DK_TARGET, L.DK_CARD)]
        rules.release_move(self.restrict, SEARCH_SEAT, self.search[0][policies.SEARCH_SAVED])
        return masks, self.search[1][policies.SEARCH_TOTALS].copy(), self.stream.copy()


def restricted(side, move):
    """The search seat (slot 0, never rotated) forbids or prefers ``move`` (a menu name)."""
    return table_setup(("search", {"rollouts": FEW_ROLLOUTS}, {side: [move]}))


def searched_moves(st, deals, seed=11):
    for deal in range(deals):
        t = Table(st, seed, deal)
        while t.to_search():
            yield t.searched_move()


def test_search_never_makes_a_forbidden_move_while_another_is_legal():
    offered = 0
    for kinds, masks in searched_moves(restricted("forbid", "Defend"), deals=6):
        assert masks[0] != 1 << L.ACT_DEFEND
        offered += (kinds >> L.ACT_DEFEND) & 1
    assert offered > 0  # a Defend was legal (and refused) at some searched move


def test_search_makes_a_preferred_move_whenever_it_is_legal():
    offered = 0
    for kinds, masks in searched_moves(restricted("prefer", "Attack"), deals=6):
        if (kinds >> L.ACT_ATTACK) & 1:
            assert masks[0] == 1 << L.ACT_ATTACK
            offered += 1
    assert offered > 0


def test_forbidden_move_absent_from_a_whole_game_with_a_search_seat():
    st = restricted("forbid", "Defend")
    for game in range(3):
        s, trace, row = GAME.replay(st, 5, game)
        defends = [e for e in trace if e[L.TR_EVENT] == L.EV_ACTION and e[L.TR_PLAYER] == SEARCH_SEAT
                   and L.action_kind(e[L.TR_ARG]) == L.ACT_DEFEND]
        assert defends == []


def hide_differently(t, seed):
    """The same view of the search seat with other hidden facts: two other players' roles swapped,
    every unseen card shuffled (its own undrawn deck too), every other player's kill record,
    beliefs and next reaction time changed."""
    s = t.s
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
        t.belief[p] = rng.random(t.belief[p].shape)
    assert combat.cards_consistent(s, np.zeros(L.MAX_PLAYERS * L.DECK_SIZE, dtype=np.int64))


def test_search_decision_reads_only_the_seats_view():
    """The same view and stream give the same search (masks, every candidate's total, the stream
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
            kinds = int(combat.legal_kinds(t.s, t.c["opts"], SEARCH_SEAT))
            searched = kinds & (kinds - 1) and t.marks[policies.MARK_SEEN, SEARCH_SEAT] != t.s[L.H_VERSION]
            saved = (t.s.copy(), t.stream.copy(), t.marks.copy(), t.belief.copy(), t.grudge.copy())
            masks, totals, after = t.choice()
            t.s[:], t.stream[:], t.marks[:], t.belief[:], t.grudge[:] = (x.copy() for x in saved)
            hide_differently(t, deal)
            other_masks, other_totals, other_after = t.choice()
            assert masks == other_masks
            np.testing.assert_array_equal(totals, other_totals)
            np.testing.assert_array_equal(after, other_after)
            compared += bool(searched)
            t.s[:], t.stream[:], t.marks[:], t.belief[:], t.grudge[:] = saved
            t.searched_move()
    assert compared >= 4


def test_record_kills_rebuilds_what_the_game_recorded():
    """The sampled worlds rebuild every kill record from the dealt roles as combat.kill records it:
    on a finished game's true roles the rebuild gives back the recorded flags."""
    st = table_setup(("heuristic", {}))
    c = GAME.compiled(st)
    checked = 0
    for game in range(12):
        s, trace, row = GAME.replay(st, 2, game)
        recorded = [(s[L.pbase(p) + L.PL_KILL_FLAGS], s[L.pbase(p) + L.PL_KILLED_ROLES]) for p in range(st.players)]
        policies.record_kills(s, c["opts"], c["roles"])
        assert recorded == [(s[L.pbase(p) + L.PL_KILL_FLAGS], s[L.pbase(p) + L.PL_KILLED_ROLES])
                            for p in range(st.players)]
        checked += s[L.H_DEATHS] > 0
    assert checked > 0


def test_replay_equals_batch_with_a_search_seat():
    st = table_setup(rotate=True)
    batch = GAME.simulate(st, 9, 0, 10)
    for game in range(10):
        s, trace, row = GAME.replay(st, 9, game)
        np.testing.assert_array_equal(row, batch[game])


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
