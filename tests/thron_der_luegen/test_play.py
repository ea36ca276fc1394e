"""Thron der Lügen under random and heuristic play: the card invariants after every move, rounds
and matches that end, replay equal to the batch, restrictions that bind, and the information rule
(a policy's decision never depends on a throne card its seat cannot see)."""

import numpy as np
import pytest

from balance.engine.rng import new_stream
from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.game import GAME
from balance.engine.decision import pose
from balance.games.thron_der_luegen.match import decide_posed
from balance.games.thron_der_luegen.policies import new_search_buffers
from balance.games.thron_der_luegen.positions import Position
from balance.games.thron_der_luegen.rules import act_choices

SETUPS = [(players, policy, deck) for players in (3, 4, 5, 6) for policy in ("random", "heuristic")
          for deck in ("default",)] + [(4, "heuristic", deck) for deck in ("fae_only", "strong_plain",
                                                                            "other_intrigues")]


@pytest.mark.parametrize("players, policy, deck", SETUPS)
def test_cards_accounted_after_every_move_and_matches_end(players, policy, deck):
    """28 court cards, each in one place, after every turn (OPT_CHECKS counts breaches), every match
    decided or capped, and the winner owns the stones the rules need."""
    setup = GAME.make_setup("base", players, policy, options={"deck": deck, "split_cards": "placer"})
    need = 3 if players >= 5 else 4
    for game in range(12):
        rows, state, trace = GAME.traced(setup, 5, game, checks=True)
        assert state[L.BROKEN] == 0
        played = state[L.ROUND]
        assert 1 <= played <= GAME.length_cap(setup)
        if state[L.MATCH_OVER]:
            stones = state[L.STONES: L.STONES + players]
            assert stones[state[L.WINNER]] >= need and (stones == stones.max()).sum() == 1
        assert (rows[:played, L.COLUMNS.index("row")] == np.arange(played)).all()


def test_replay_equals_batch():
    setup = GAME.make_setup("base", 4, [("heuristic", {}), ("random", {}), ("hasty", {}), ("patient", {})])
    batch = GAME.simulate(setup, 9, 0, 3 * setup.rotations)
    per_match = GAME.length_cap(setup)
    for game in range(3 * setup.rotations):
        rows, state, trace = GAME.traced(setup, 9, game)
        assert np.array_equal(rows, batch[game * per_match: (game + 1) * per_match])
        assert GAME.transcript(setup, 9, game)


def test_round_rows_add_up():
    """The stones of the round rows add up to the match totals; the points edge sums to zero."""
    setup = GAME.make_setup("base", 5, "heuristic")
    games = GAME.frame(setup, GAME.simulate(setup, 3, 0, 60))
    stones = games[[f"stones_{s}" for s in range(5)]].groupby(games["game"]).sum()
    last = games[games["last_round"] == 1].set_index("game")[[f"total_{s}" for s in range(5)]]
    assert np.array_equal(stones.to_numpy(), last.to_numpy())
    seats = GAME.seat_frame(setup, games)
    assert abs(seats.groupby(["game", "row"])["edge"].sum()).max() < 1e-9


# ---- restrictions (the shared decision interface) ------------------------------------------------
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_a_forbidden_action_is_never_taken_and_a_preferred_one_always(policy):
    """Every seat forbids revealing End cards: none is revealed (drawing is always legal). Then every
    seat prefers discarding: no card is ever swapped or played (discarding is always legal)."""
    forbid = GAME.make_setup("base", 4, [(policy, {}, {"forbid": ["reveal End card"]})] * 4)
    prefer = GAME.make_setup("base", 4, [(policy, {}, {"prefer": ["Discard"]})] * 4)
    free = GAME.make_setup("base", 4, policy)
    events = {name: np.concatenate([GAME.traced(s, 2, g)[2][:, 1] for g in range(8)])
              for name, s in (("forbid", forbid), ("prefer", prefer), ("free", free))}
    assert (events["free"] == L.EV_REVEAL_END).any() and (events["free"] == L.EV_SWAP).any()
    assert not (events["forbid"] == L.EV_REVEAL_END).any()
    assert not np.isin(events["prefer"], [L.EV_SWAP, L.EV_INTRIGUE]).any()
    assert forbid.seats[0].label.endswith("[-reveal End card]")


def test_action_names_are_unique():
    names = [a.name.lower() for a in GAME.actions(GAME.make_setup("base", 4, "random"))]
    assert len(names) == len(set(names))


# ---- information: same view, different hidden card, same decision --------------------------------
def decision_positions(seed: int):
    """Random positions at every decision kind, for seat 0, with the extra state each one needs."""
    rng = np.random.default_rng(seed)
    names = GAME.deck(GAME.make_setup("base", 5, "random")).names
    kinds = {
        L.TURN: ("Winter 4", None), L.ACT: ("Sun +2", "Sun -1"), L.FAR_THRONE: ("Summer 4", "Sun +2"),
        L.SWAP_FIRST: ("Summer 4", "intrigue: swap_thrones"), L.SWAP_SECOND: ("Summer 4", "intrigue: swap_thrones"),
        L.PEEK_TARGET: ("Summer 4", "intrigue: peek_swap"), L.PEEK_CHOICE: ("Summer 4", "intrigue: peek_swap"),
        L.REPLACE_TARGET: ("Summer 4", "intrigue: replace_from_pile"),
    }
    for kind, (held, drawn) in kinds.items():
        others = [n for n in dict.fromkeys(names) if n not in (held, drawn)]
        picks = list(rng.choice(others, size=9, replace=False))
        thrones, hands = picks[:5], [held] + picks[5:9]
        pile = [drawn] if drawn else []
        pos = Position.build(5, thrones=thrones, hands=hands, pile=pile, end_shown=int(rng.integers(0, 4)),
                             seed=seed)
        s = pos.state
        s[L.PLACER: L.PLACER + 5] = rng.integers(-1, 5, size=5)  # who was seen to place each card (public)
        if drawn:
            s[L.DRAWN] = s[L.PILE + s[L.PILE_TOP]]
            s[L.PILE_TOP] += 1
        if kind == L.FAR_THRONE:
            s[L.PLACING], s[L.DRAWN] = s[L.DRAWN], L.NO_CARD
        choices = {L.TURN: 0b11, L.ACT: None, L.FAR_THRONE: 0b01110, L.SWAP_FIRST: 0b11111, L.SWAP_SECOND: 0b11011,
                   L.PEEK_TARGET: 0b01110, L.PEEK_CHOICE: 0b111, L.REPLACE_TARGET: 0b11111}[kind]
        if kind == L.ACT:
            choices = act_choices(s, pos.opts, 0)
        s[L.PENDING] = 2
        if kind == L.PEEK_CHOICE:
            s[L.KNOWN + 2] = s[L.THRONE + 2]  # seat 0 looked at throne 2
        yield kind, pos, choices


def ask(state, opts, seat, kind, choices, codes, params, restrict, rng):
    """Pose ``seat`` a decision as the rules pose it and return its policy's answer."""
    pose(state, seat, kind, choices, restrict)
    return decide_posed(state, opts, codes, params, restrict, rng, np.zeros((0, L.TRACE_FIELDS), dtype=np.int64),
                        new_search_buffers())


def hide_a_card(pos: Position, rng) -> None:
    """Exchange a card seat 0 cannot see (throne 1, 2 or 3, unless it looked at it; another seat's
    hand; a pile card) with another such card."""
    s = pos.state
    hidden = [L.THRONE + t for t in (1, 2, 3) if s[L.KNOWN + t] == L.NO_CARD]
    hidden += [L.HAND + seat for seat in range(1, 5)]
    hidden += [L.PILE + i for i in range(s[L.PILE_TOP], L.N_COURT)]
    a, b = rng.choice(hidden, size=2, replace=False)
    s[a], s[b] = s[b], s[a]


@pytest.mark.parametrize("policy", ["random", "heuristic", "hasty", "patient"])
def test_decisions_depend_only_on_what_the_seat_sees(policy):
    setup = GAME.make_setup("base", 5, policy)
    codes, params = setup.policy_codes, setup.policy_params
    restrict = np.zeros((5, 32, 2), dtype=np.int64)
    rng = np.random.default_rng(1)
    checked = set()
    for seed in range(25):
        for kind, pos, choices in decision_positions(seed):
            before = pos.state.copy()
            answer = ask(pos.state, pos.opts, 0, kind, choices, codes, params, restrict, new_stream(seed, 1))
            for _ in range(4):
                pos.state[:] = before
                hide_a_card(pos, rng)
                again = ask(pos.state, pos.opts, 0, kind, choices, codes, params, restrict, new_stream(seed, 1))
                assert again == answer, (kind, seed)
            checked.add(kind)
    assert checked == set(range(L.N_KINDS))
