"""Restricted play in DETHRONED: every decision is posed through the engine's decision interface,
so a seat that forbids a move never makes it while another is legal, and a seat that prefers a
move makes it whenever it is legal, under random and heuristic play alike."""

import numpy as np
import pytest

from balance.engine.decision import FORBID, PREFER, no_restrictions
from balance.engine.game import SetupError
from balance.games.dethroned import combat
from balance.games.dethroned import layout as L
from balance.games.dethroned.game import GAME
from balance.games.dethroned.positions import Steps

ROYAL_SHOWDOWN = ["King", "King's Hand", "Assassin", "Fool"]
TOWN_MEETING = list(L.GT)
MOVES = ("Pass", "Attack", "Defend", "Double", "Halve", "Redirect", "Bomb")
POLICIES = ("random", "heuristic")


def setup(roles, seats="heuristic", **extra):
    return GAME.make_setup("standard", len(roles), seats, rotate=False, extra={"roles": list(roles), **extra})


def menu(st):
    return {a.name: a for a in GAME.actions(st)}


def restriction(st, side, name, players):
    """Every seat forbids (or prefers) the menu's action ``name``."""
    restrict = no_restrictions(players)
    for kind, bit in menu(st)[name].answers:
        restrict[:, kind, side] |= 1 << bit
    return restrict


def positions(roles, policy, count, seed=7):
    """Positions met in play: games stopped after a random number of decisions, back in combat."""
    rng = np.random.default_rng(seed)
    found = []
    game = 0
    while len(found) < count:
        st = GAME.make_setup("standard", len(roles), policy, rotate=False, max_length=int(rng.integers(1, 60)),
                             extra={"roles": list(roles)})
        s, trace, row = GAME.replay(st, seed, game)
        game += 1
        s[L.H_PHASE] = L.PHASE_COMBAT
        for p in range(len(roles)):
            if combat.alive(s, p) and not (combat.defending(s, p) and s[L.pbase(p) + L.PL_UNBEATEN_ON] == 0):
                found.append((st, s.copy(), p))
    return found[:count]


class Seat:
    """A seat's decisions at a position met outside a game, stepped through the game's step kernel
    (positions.Steps): its policy answers every posed step under ``restrict``."""

    def __init__(self, st, s, restrict, seed):
        self.steps = Steps(st)
        self.run = self.steps.at(s, seed)
        self.steps.restrict(self.run)[:] = restrict

    def reaction(self, p):
        return self.steps.reaction(self.run, p)

    def vote(self, p):
        return self.steps.vote(self.run, p)


def legal(st, s, p):
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    n = combat.list_legal(s, GAME.compile(st).opts, p, out)
    return {int(x) for x in out[:n]}


@pytest.mark.parametrize("policy", POLICIES)
def test_a_forbidden_move_is_never_made_while_another_is_legal(policy):
    seen = {name: 0 for name in MOVES}
    for i, (st, s, p) in enumerate(positions(ROYAL_SHOWDOWN, policy, 120)):
        kinds = combat.legal_kinds(s, GAME.compile(st).opts, p)
        for name in MOVES:
            bit = menu(st)[name].bit
            action = Seat(st, s.copy(), restriction(st, FORBID, name, st.players), i).reaction(p)
            assert action in legal(st, s, p)
            if kinds & ~(1 << bit):  # another kind of move is legal (PASS always is)
                assert L.action_kind(action) != bit, (name, i)
            seen[name] += (kinds >> bit) & 1
    assert all(seen[name] > 0 for name in ("Attack", "Defend", "Double", "Halve", "Redirect")), seen


@pytest.mark.parametrize("policy", POLICIES)
def test_a_preferred_move_is_made_whenever_it_is_legal(policy):
    made = {name: 0 for name in MOVES}
    for i, (st, s, p) in enumerate(positions(ROYAL_SHOWDOWN, policy, 120, seed=8)):
        kinds = combat.legal_kinds(s, GAME.compile(st).opts, p)
        for name in MOVES:
            bit = menu(st)[name].bit
            action = Seat(st, s.copy(), restriction(st, PREFER, name, st.players), i).reaction(p)
            assert action in legal(st, s, p)
            if (kinds >> bit) & 1:
                assert L.action_kind(action) == bit, (name, i)
                made[name] += 1
    assert all(made[name] > 0 for name in ("Attack", "Defend", "Double", "Halve", "Redirect")), made


@pytest.mark.parametrize("policy", POLICIES)
def test_votes_follow_the_restriction(policy):
    for i, (st, s, p) in enumerate(positions(TOWN_MEETING, policy, 60, seed=9)):
        can_continue = combat.attack_targets(s, p) != 0
        stay = Seat(st, s.copy(), restriction(st, FORBID, "Pass vote", st.players), i).vote(p)
        assert (L.action_kind(stay) == L.ACT_ATTACK) == can_continue
        assert stay == L.ACT_PASS or stay in legal(st, s, p)
        leave = Seat(st, s.copy(), restriction(st, PREFER, "Pass vote", st.players), i).vote(p)
        assert leave == L.ACT_PASS


def claims(st, seed, games=20):
    out = []
    for g in range(games):
        s, trace, row = GAME.replay(st, seed, g)
        out += [(int(s[L.pbase(player) + L.PL_ROLE]), int(arg)) for t, event, player, arg, _ in trace
                if event == L.EV_CLAIM]
    return out


@pytest.mark.parametrize("policy", POLICIES)
def test_the_claim_follows_the_restriction(policy):
    honest = setup(ROYAL_SHOWDOWN, [(policy, {}, {"forbid": ["Lie about role"]})] * 4)
    assert all(own == claim for own, claim in claims(honest, 3))
    liars = setup(ROYAL_SHOWDOWN, [(policy, {}, {"prefer": ["Lie about role"]})] * 4)
    assert all(own != claim for own, claim in claims(liars, 3))


def test_a_restricted_role_binds_only_the_seat_dealt_it():
    # honest heuristic players who must lie while they hold the King: the King lies, nobody else
    st = setup(ROYAL_SHOWDOWN, [("heuristic", {"lying_royalty": 0.0, "lying_assailant": 0.0,
                                               "lying_commoner": 0.0}, {"prefer": ["Lie about role"]})] * 4,
               restrict_role="King")
    king = GAME.compile(st).role_names.index("King")
    made = claims(st, 4)
    assert all((own == claim) == (own != king) for own, claim in made)
    assert sum(own == king for own, _ in made) == 20


def test_a_restriction_on_a_move_never_legal_changes_no_game():
    # Overwrite is legal only with the option attack_by_overwrite: forbidding it without the
    # option leaves every decision, every draw and so every game as it was
    plain = setup(TOWN_MEETING, "heuristic")
    forbidden = setup(TOWN_MEETING, [("heuristic", {}, {"forbid": ["Overwrite"]})] * 8)
    assert np.array_equal(GAME.simulate(plain, 11, 0, 300), GAME.simulate(forbidden, 11, 0, 300))


def test_restricted_games_stay_legal():
    # checked replays: every move is one list_legal offers and every card stays in one place
    for name in ("Double", "Redirect", "Defend", "Pass"):
        for side in ("forbid", "prefer"):
            st = setup(ROYAL_SHOWDOWN, [("heuristic", {}, {side: [name]}), ("random", {}, {side: [name]}),
                                        ("heuristic", {}, {}), ("random", {}, {})])
            for g in range(10):
                GAME.replay(st, 5, g, checked=True)


def test_restrict_role_must_be_a_role_in_play():
    with pytest.raises(SetupError, match="restrict_role"):
        setup(ROYAL_SHOWDOWN, restrict_role="Sage")


def test_the_posed_heuristic_keeps_plans_that_span_reactions():
    # a defender that cannot beat a 9 but holds a Bomb lays its highest card first, for the Bomb
    # to sit on at its next reaction (bomb_needs_defence): the Bomb is not legal yet, yet the
    # heuristic asked through the posed decision must still plan for it
    from balance.games.dethroned.positions import Position
    pos = Position(ROYAL_SHOWDOWN, hands=[["9"], ["3", "Bomb"], [], []])
    a = pos.attack(0, "9", 1)
    st = setup(ROYAL_SHOWDOWN)
    assert not (combat.legal_kinds(pos.s, GAME.compile(st).opts, 1) >> L.ACT_BOMB) & 1
    action = Seat(st, pos.s.copy(), no_restrictions(4), 0).reaction(1)
    assert action == L.encode(L.ACT_DEFEND, 0, a, 0, 0)
    forbidden = Seat(st, pos.s.copy(), restriction(st, FORBID, "Defend", 4), 0).reaction(1)
    assert L.action_kind(forbidden) != L.ACT_DEFEND
