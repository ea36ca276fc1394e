"""Throne Arcade under random and policy play: every card of the deck accounted for after every move,
rounds and matches that end, eliminations and hand sizes as the rulebook says, the batch's rows
telling the same match as its replay, and what a policy may see."""

import numpy as np
import pytest

from balance.games.throne_arcade import layout as L
from balance.engine.decision import FORBID, PREFER
from balance.games.throne_arcade.game import GAME
from balance.games.throne_arcade.match import decide_posed
from balance.games.throne_arcade.positions import Position
from balance.games.throne_arcade.rules import advance, pose_pending
from balance.games.throne_arcade.table import matching_cards

TURN_LIMIT = 1000


def check_cards(pos: Position) -> None:
    """Hands, talon and pile are disjoint and hold the whole deck; a seat is in the round exactly
    while it holds cards."""
    s = pos.state
    n = pos.setup.players
    talon = 0
    for c in s[L.TALON: L.TALON + s[L.TALON_LEN]]:
        assert not talon >> int(c) & 1, "a card twice in the talon"
        talon |= 1 << int(c)
    zones = [int(s[L.HAND + seat]) for seat in range(n)] + [talon, int(s[L.PILE])]
    union = 0
    for zone in zones:
        assert union & zone == 0, "a card in two places"
        union |= zone
    assert union == (1 << len(pos.deck)) - 1, "a card lost"
    assert s[L.PILE] >> int(s[L.TOP]) & 1
    for seat in range(n):
        assert bool(s[L.IN_ROUND + seat]) == (s[L.HAND + seat] != 0)


def play_round_checked(pos: Position) -> bool:
    """Play the round to its end, checking the cards after every turn; False if it stalled or reached
    the turn cap, which only the 5-card Kings may cause (two players can pass 15-card penalties back
    and forth for ever: the batch counts such a round as capped)."""
    turns = 0
    check_cards(pos)
    while not pos.round_over:
        if pos.stalled or turns == TURN_LIMIT:
            assert pos.setup.options["king_draws_5"], "a round that does not end"
            return False
        pos.step()
        check_cards(pos)
        turns += 1
    return True


OPTION_SETS = [{}, {"stacking": True, "king_draws_5": True},
               {"hand_on_anything": True, "play_drawn_card": True, "starting_card_acts": True}]


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_whole_matches_keep_every_card_and_eliminate_as_the_rulebook_says(policy, players):
    finished = 0
    for seed, options in enumerate(OPTION_SETS):
        pos = Position.deal(players, seats=policy, seed=seed, options=options)
        rounds = 0
        while True:
            sizes = [int(pos.state[L.START_SIZE + s]) for s in range(players)]
            for seat in range(players):  # "he will draw only 2 cards" after 3 losses: 5 minus the losses
                expected = L.START_HAND - pos.state[L.LOSSES + seat] if pos.in_game(seat) else 0
                assert sizes[seat] == expected
            if not play_round_checked(pos):
                break
            rounds += 1
            loser = pos.loser
            assert loser is not None and pos.in_round(loser)
            # "A player that has one drawed card in start of round and will lost the round is then out"
            assert (pos.eliminated == loser) == (sizes[loser] == 1)
            if pos.winner is not None:
                break
            pos.next_round()
            # "In start of next round the player that lost in last round is a starting player."
            if pos.in_game(loser):
                assert pos.state[L.STARTER] == loser
        if pos.winner is None:
            continue
        finished += 1
        assert sum(pos.in_game(s) for s in range(players)) == 1 and pos.in_game(pos.winner)
        # every eliminated player lost 5 rounds; the winner fewer
        assert rounds == L.START_HAND * (players - 1) + pos.state[L.LOSSES + pos.winner]
    assert finished >= 2


@pytest.mark.parametrize("players", [2, 3, 5])
def test_batch_rows_are_consistent_matches(players):
    setup = GAME.make_setup("standard", players, "greedy")
    df = GAME.frame(setup, GAME.simulate(setup, 5, 0, 40))
    assert df["capped"].sum() == 0 and df["match_capped"].sum() == 0
    for _, match in df.groupby("game"):
        match = match.sort_values("row")
        assert match["last_round"].sum() == 1 and match["last_round"].iloc[-1] == 1
        assert len(match) == match["match_rounds"].iloc[0]
        winner = match["match_winner"].iloc[0]
        assert winner >= 0 and winner not in set(match["eliminated"])
        assert len(match) == L.START_HAND * (players - 1) + (match["loser"] == winner).sum()
        rows = match.to_dict("records")
        for before, after in zip(rows, rows[1:]):
            if after[f"hand_{before['loser']}"] > 0:
                assert after["starter"] == before["loser"]
                assert after["prev_loser"] == before["loser"]
            assert after["alive"] == before["alive"] - (before["eliminated"] >= 0)
        for row in rows:
            if row["eliminated"] >= 0:
                assert row["eliminated"] == row["loser"] and row[f"hand_{row['loser']}"] == 1
    seats = GAME.seat_frame(setup, df)  # one match result per seat and match (match_win's denominator)
    assert seats["seat_last_round"].sum() == 40 * players and seats["match_won"].sum() == 40


def test_turn_cap_is_its_own_outcome():
    setup = GAME.make_setup("standard", 4, "random", options={"round_turn_cap": 5})
    df = GAME.frame(setup, GAME.simulate(setup, 1, 0, 20))
    assert df["capped"].all() and (df["loser"] == -1).all() and df["match_capped"].all()
    assert (df["turns"] == 5).all() and len(df) == 20
    assert GAME.seat_frame(setup, df).empty


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_replay_equals_batch(policy):
    setup = GAME.make_setup("standard", 4, policy)
    batch = GAME.simulate(setup, 9, 0, 6)
    rows_per_match = GAME.length_cap(setup)
    for k in range(6):
        rows, _, events = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * rows_per_match: (k + 1) * rows_per_match])
        assert len(events) > 0
    lines = GAME.transcript(setup, 9, 3)
    assert any("wins the match" in line for line in lines)


def decision_at(pos: Position, state: np.ndarray, restrict: np.ndarray, rng: np.ndarray) -> int:
    """The answer of the seat to move in ``state`` (a turn's start, no penalty waiting) to its first
    decision, on copies: the rules run to it, it is posed with ``restrict``, the engine decides."""
    state = state.copy()
    state[L.TURN_STOP] = state[L.TURNS] + 1
    table = (pos.opts, rng.copy(), pos.trace[:0])
    advance(state, table)
    assert state[L.PHASE] == L.LAY_FIRST
    pose_pending(state, table, restrict)
    return decide_posed(state, pos.opts, pos.setup.policy_codes, pos.setup.policy_params, restrict, table[1],
                        table[2], pos.mind)


def hidden_shuffled(pos: Position, seat: int, rng: np.random.Generator) -> np.ndarray:
    """The same position from ``seat``'s view with the other hands and the talon dealt anew from the
    cards ``seat`` cannot see (hand sizes and talon length kept)."""
    s = pos.state.copy()
    n = pos.setup.players
    others = [o for o in range(n) if o != seat]
    hidden = [c for o in others for c in range(len(pos.deck)) if s[L.HAND + o] >> c & 1]
    hidden += [int(c) for c in s[L.TALON: L.TALON + s[L.TALON_LEN]]]
    hidden = list(rng.permutation(hidden))
    for o in others:
        size = bin(int(s[L.HAND + o])).count("1")
        s[L.HAND + o] = sum(1 << int(c) for c in hidden[:size])
        hidden = hidden[size:]
    s[L.TALON: L.TALON + s[L.TALON_LEN]] = hidden
    return s


@pytest.mark.parametrize("policy", ["greedy", "heuristic", "aggressive"])
def test_a_policy_decides_from_its_own_view_only(policy):
    shuffler = np.random.default_rng(0)
    checked = 0
    for seed in range(30):
        pos = Position.deal(4, seats=policy, seed=seed)
        for _ in range(30):
            if pos.round_over:
                break
            seat = pos.to_move
            legal = int(pos.state[L.HAND + seat] & matching_cards(pos.state, 0))
            if bin(legal).count("1") >= 2 and pos.pending == 0:
                answers = set()
                for _ in range(4):
                    answers.add(decision_at(pos, hidden_shuffled(pos, seat, shuffler), pos.restrict, pos.rng))
                assert len(answers) == 1
                checked += 1
            pos.step()
    assert checked > 20


def lays_of(events: list[str], seat: int) -> list[str]:
    return [line.split(" lays ")[1] for line in events if line.startswith(f"  seat {seat} lays ")]


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "search"])
def test_restrictions_bind_every_policy(policy):
    """A seat that forbids Aces never leads with one while another card fits; a seat that prefers
    VIIs leads with one whenever one fits."""
    aces = sum(1 << c for c, f in enumerate(GAME.deck_names(GAME.make_setup("standard", 3, "random")))
               if f.endswith(" Ace"))
    sevens = sum(1 << c for c, f in enumerate(GAME.deck_names(GAME.make_setup("standard", 3, "random")))
                 if f.endswith(" VII"))
    forbid_seen = prefer_seen = 0
    for seed in range(25):
        pos = Position.deal(3, seats=policy, seed=seed)
        pos.restrict[0, L.LAY_FIRST, FORBID] = aces
        pos.restrict[1, L.LAY_FIRST, PREFER] = sevens
        while not pos.round_over:
            seat = pos.to_move
            legal = int(pos.state[L.HAND + seat] & matching_cards(pos.state, 0))
            pending = pos.pending
            events = pos.step()
            first = lays_of(events, seat)[:1]
            if seat == 0 and legal & ~aces and first:
                forbid_seen += bool(legal & aces)
                assert not first[0].endswith(" Ace")
            if seat == 1 and legal & sevens and pending == 0:
                prefer_seen += 1
                assert first and first[0].endswith(" VII")
    assert forbid_seen > 3 and prefer_seen > 3


def test_the_action_menu_names_every_card_type_and_choice_once():
    setup = GAME.make_setup("standard", 4, "greedy")
    actions = GAME.actions(setup)
    names = [a.name.lower() for a in actions]
    assert len(names) == len(set(names))
    assert {f.lower() for f in L.FACE_NAMES} | {t.lower() for t in L.TYPES} <= set(names)
    for action in actions:
        for kind, bit in action.answers:
            assert 0 <= kind < L.N_KINDS and 0 <= bit <= L.NONE
    restricted = GAME.make_setup("standard", 4, [("greedy", {}, {"forbid": ["ace"], "prefer": ["green Lord"]})]
                                 + [("greedy", {})] * 3)
    assert restricted.seats[0].label == "greedy[-Ace,+green Lord]"
    assert restricted.restrict[0, L.LAY_FIRST, 0] == sum(1 << c for c, f in enumerate(L.FACE_NAMES)
                                                         if f.endswith(" Ace"))


def test_bench_counts_what_its_unit_says():
    # a "rounds" setup plays one round per simulated game; a "matches" setup plays whole matches
    for label, setup in GAME.bench_setups()[:3]:
        rows = GAME.frame(setup, GAME.simulate(setup, 3, 0, 8 * setup.rotations))
        played = rows[rows["turns"] >= 0]
        rounds_per_game = played.groupby("game")["row"].count()
        if GAME.bench_unit(setup) == "rounds":
            assert (rounds_per_game == 1).all(), label
        else:
            assert GAME.bench_unit(setup) == "matches" and (rounds_per_game > 1).all(), label
            assert (played.groupby("game")["last_round"].sum() == 1).all(), label
