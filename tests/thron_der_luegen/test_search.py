"""Thron der Lügen's search policy (the engine's driver, balance.engine.search): it obeys its
restriction, its turn's choice is a function of its seat's information and its stream, replays
equal the batch, and it is not much worse than the heuristic it uses for its rollouts."""

import numpy as np
import pytest
from scipy.stats import binomtest

from balance.engine.rng import new_stream
from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.game import GAME
from balance.games.thron_der_luegen.match import decide_posed, start_match
from balance.games.thron_der_luegen.policies import new_search_buffers
from balance.games.thron_der_luegen.rules import advance, apply_answer, deal_round, end_turn, pose_pending

PLAYERS = 4
QUICK = {"rollouts": 4, "horizon": 1}
NO_TRACE = np.zeros((0, L.TRACE_FIELDS), dtype=np.int64)


def decided(setup, state, rng):
    """Start the turn of the player whose turn it is (rules.advance) and return its seat's answer to
    the turn's choice, posed with its restriction (the search's, for a search seat)."""
    opts = GAME.compile(setup)
    advance(state, (opts, rng, NO_TRACE))
    pose_pending(state, (opts, rng, NO_TRACE), setup.restrict)
    return decide_posed(state, opts, setup.policy_codes, setup.policy_params, setup.restrict, rng, NO_TRACE,
                        new_search_buffers())


def play_turn(setup, state, rng):
    """The turn of the player whose turn it is, every decision its seat's policy's; then the next player."""
    opts = GAME.compile(setup)
    apply_answer(state, (opts, rng, NO_TRACE), decided(setup, state, rng))
    while state[L.PHASE] < L.N_KINDS:
        pose_pending(state, (opts, rng, NO_TRACE), setup.restrict)
        answer = decide_posed(state, opts, setup.policy_codes, setup.policy_params, setup.restrict, rng, NO_TRACE,
                              new_search_buffers())
        apply_answer(state, (opts, rng, NO_TRACE), answer)
    end_turn(state, opts)


def turn_starts(count, seed):
    """Positions at the start of a turn, mid-round, played by heuristic players through the rules."""
    setup = GAME.make_setup("base", PLAYERS, "heuristic", rotate=False)
    opts = GAME.compile(setup)
    found = []
    i = 0
    while len(found) < count:
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        start_match(state, opts)
        rng = new_stream(seed, i)
        deal_round(state, opts, rng, NO_TRACE)
        for _ in range(i % 9):
            if state[L.END_REASON]:
                break
            play_turn(setup, state, rng)
        if not state[L.END_REASON]:
            found.append(state)
        i += 1
    return found


def search_at(seat, restriction=None):
    seats = [("heuristic", {})] * PLAYERS
    seats[seat] = ("search", QUICK, restriction) if restriction else ("search", QUICK)
    return GAME.make_setup("base", PLAYERS, seats, rotate=False)


def searched_turn(setup, state, stream_key):
    """The turn's choice of the search seat whose turn it is, on a copy of ``state``."""
    return decided(setup, state.copy(), new_stream(*stream_key))


def redeal_unseen(state, seat, seed):
    """The same position with the cards ``seat`` cannot see (throne cards it does not know, the
    other hands, the draw pile) dealt again among those places; a seat that knows a throne card
    knows the new one."""
    alt = state.copy()
    n = state[L.PLAYERS]
    thrones = [t for t in range(n) if t != seat and t != (seat - 1) % n
               and state[L.KNOWN + seat * L.MAX_PLAYERS + t] == L.NO_CARD]
    places = [L.THRONE + t for t in thrones] + [L.HAND + o for o in range(n) if o != seat]
    places += [L.PILE + i for i in range(state[L.PILE_TOP], L.N_COURT)]
    alt[places] = np.random.default_rng(seed).permutation(state[places])
    for t in thrones:
        for o in range(n):
            if state[L.KNOWN + o * L.MAX_PLAYERS + t] != L.NO_CARD:
                alt[L.KNOWN + o * L.MAX_PLAYERS + t] = alt[L.THRONE + t]
    return alt


def test_search_obeys_forbid_and_prefer_at_its_turns_choice():
    for i, state in enumerate(turn_starts(6, seed=3)):
        seat = state[L.TURN_SEAT]
        for name, answer in (("reveal End card", L.REVEAL_END), ("draw", L.DRAW)):
            assert searched_turn(search_at(seat, {"prefer": [name]}), state, (i, 1)) == answer
            assert searched_turn(search_at(seat, {"forbid": [name]}), state, (i, 1)) != answer


def test_search_seats_obey_their_restrictions_in_play():
    """Search seats that forbid revealing End cards never reveal one; search seats that prefer
    discarding never swap a card or play an intrigue (their other decisions are the heuristic's)."""
    searchers = [0, 2]
    for side, name, banned in (("forbid", "reveal End card", [L.EV_REVEAL_END]),
                               ("prefer", "discard", [L.EV_SWAP, L.EV_INTRIGUE])):
        setup = GAME.make_setup("base", PLAYERS, [("search", QUICK, {side: [name]}), ("heuristic", {})] * 2,
                                rotate=False)
        for game in range(3):
            trace = GAME.traced(setup, 6, game)[2]
            assert not np.isin(trace[np.isin(trace[:, 2], searchers), 1], banned).any()


def test_the_turns_choice_depends_only_on_the_seats_view():
    """Same view, other hidden cards (throne cards it does not know, the other hands, the pile),
    same stream: the same choice."""
    compared = 0
    for i, state in enumerate(turn_starts(24, seed=8)):
        setup = search_at(state[L.TURN_SEAT])
        chosen = searched_turn(setup, state, (i, 1))
        for k in range(2):
            alt = redeal_unseen(state, state[L.TURN_SEAT], 10 * i + k)
            assert searched_turn(setup, alt, (i, 1)) == chosen
            compared += 1
    assert compared >= 48


def test_replay_equals_batch_with_search_seats():
    setup = GAME.make_setup("base", PLAYERS, [("search", QUICK), ("heuristic", {}), ("search", QUICK), ("random", {})])
    batch = GAME.simulate(setup, 4, 0, 6)
    per_match = GAME.length_cap(setup)
    for game in (0, 3, 5):
        rows = GAME.traced(setup, 4, game)[0]
        assert np.array_equal(rows, batch[game * per_match: (game + 1) * per_match])


def test_search_is_not_much_worse_than_the_heuristic():
    # One search seat (16 rollouts, to the round's end) against three heuristic players, rotated
    # over the seats: a quarter of the matches is the par of equal players. Measured: it wins
    # 0.171 [0.155, 0.188] and 0.195 [0.177, 0.213] of 2,000 matches (seeds 11 and 12), below par
    # (README). Asserted only what holds robustly: it keeps above half of par.
    setup = GAME.make_setup("base", PLAYERS, [("search", {})] + [("heuristic", {})] * 3)
    games = GAME.frame(setup, GAME.simulate(setup, 11, 0, 400))
    seats = GAME.seat_frame(setup, games)
    won = seats[(seats["policy"] == setup.seats[0].label) & (seats["last_round"] == 1)]["match_won"]
    assert len(won) == 400
    assert binomtest(int(won.sum()), len(won), 0.125, alternative="greater").pvalue < 0.05


def intrigue_decisions(seed, count):
    """Positions where an intrigue card is being carried out and its player decides (heuristic play)."""
    setup = GAME.make_setup("base", PLAYERS, "heuristic", rotate=False)
    opts = GAME.compile(setup)
    found, i = [], 0
    while len(found) < count:
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        start_match(state, opts)
        rng = new_stream(seed, i)
        deal_round(state, opts, rng, NO_TRACE)
        while not state[L.END_REASON] and len(found) < count:
            apply_answer(state, (opts, rng, NO_TRACE), decided(setup, state, rng))
            while state[L.PHASE] < L.N_KINDS:
                pose_pending(state, (opts, rng, NO_TRACE), setup.restrict)
                if state[L.USED] != L.NO_CARD:
                    found.append(state.copy())
                answer = decide_posed(state, opts, setup.policy_codes, setup.policy_params, setup.restrict, rng,
                                      NO_TRACE, new_search_buffers())
                apply_answer(state, (opts, rng, NO_TRACE), answer)
            end_turn(state, opts)
        i += 1
    return setup, found


def test_the_intrigue_card_being_carried_out_is_seen_by_every_seat():
    # issue 28: while an intrigue card was carried out, the heuristic counted it among the unseen
    # cards and the search's worlds dealt it again (a card twice, another lost)
    from balance.games.thron_der_luegen.policies import load_view, sample_world, unseen_cards, unseen_mean
    from balance.games.thron_der_luegen.positions import card_places

    setup, positions = intrigue_decisions(5, 12)
    opts = GAME.compile(setup)
    ints = new_search_buffers()[0]
    for state in positions:
        assert card_places(state) == list(range(L.N_COURT))
        for seat in range(PLAYERS):
            assert not unseen_cards(state, seat) >> state[L.USED] & 1
            world = np.zeros_like(state)
            sample_world(state, world, seat, opts, ints, new_stream(1, seat))
            assert card_places(world) == list(range(L.N_COURT))
            unseen = [c for c in range(L.N_COURT) if unseen_cards(state, seat) >> c & 1]
            mean = np.mean([opts[L.OPT_MEAN2 + c] / 2 for c in unseen])
            assert unseen_mean(state, opts, seat, load_view(state, seat)) == pytest.approx(mean)
