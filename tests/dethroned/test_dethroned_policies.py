"""The heuristic's role-aware play, decision by decision, on positions built by hand; ties at random."""

import numpy as np

from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.rng import new_stream
from balance.games.dethroned import layout as L
from balance.games.dethroned import policies
from balance.games.dethroned.game import GAME
from balance.games.dethroned.options import POLICIES
from balance.games.dethroned.positions import Position

HEURISTIC = next(p for p in POLICIES if p.name == "heuristic")
TREE_SEARCH = next(p for p in POLICIES if p.name == "ismcts")


class Table:
    """A position plus what the heuristic reads: the compiled role matrices, beliefs, parameters."""

    def __init__(self, pos, **params):
        self.pos = pos
        self.c = GAME.compile(pos.setup)
        players = pos.players
        self.belief = np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS, self.c.roles.shape[0]))
        self.grudge = np.zeros((L.MAX_PLAYERS, L.MAX_PLAYERS))
        policies.init_beliefs(pos.s, self.c.role_count, self.belief, self.grudge)
        self.params = np.zeros((players, MAX_POLICY_PARAMS))
        for i, param in enumerate(HEURISTIC.params):
            self.params[:, i] = params.get(param.name, param.default)
        self.codes = np.full(players, L.POLICY_HEURISTIC, dtype=np.int64)

    def seat_tree_search(self, p):
        """p plays the tree search at its defaults (its code, and its own parameter row)."""
        self.codes[p] = L.POLICY_ISMCTS
        self.params[p] = 0.0
        for i, param in enumerate(TREE_SEARCH.params):
            self.params[p, i] = param.default

    def knows_everyone(self, p):
        """p's beliefs put every other player's true role at certainty."""
        for q in range(self.pos.players):
            self.belief[p, q, :] = 0.0
            self.belief[p, q, self.pos.s[L.pbase(q) + L.PL_ROLE]] = 1.0

    def args(self):
        c = self.c
        return (self.pos.s, c.opts, c.roles, c.want_cond, c.want_kill, c.want_total, self.belief,
                self.grudge, self.params)

    def act(self, p, seed=0):
        return int(policies.heuristic_act(*self.args(), p, new_stream(np.uint64(seed), 0), L.ALL_ANSWERS))

    def vote(self, p, seed=0):
        return int(policies.heuristic_vote(*self.args(), p, new_stream(np.uint64(seed), 0), L.ALL_ANSWERS))

    def target(self, p, seed=0):
        c = self.c
        return int(policies.best_target(self.pos.s, c.opts, c.roles, c.want_cond, c.want_kill,
                                        c.want_total, self.belief, self.grudge, p,
                                        new_stream(np.uint64(seed), 0))[0])


def card(pos, p, action):
    return L.KIND_NAMES[pos.s[L.pbase(p) + L.PL_HAND + L.action_slot(action)]]


ON_SALE = ["Assassin", "Shopkeeper", "Maniac"]
HIGH_DECK = ["10", "7", "6"]  # undrawn Battle cards sum to 23 > 10: the Shopkeeper must cycle


def test_equally_wanted_targets_are_a_random_choice_not_the_lowest_seat():
    # an Assassin wants anybody dead; with uniform beliefs every other player is an equal target
    t = Table(Position(["King", "King's Hand", "Assassin", "Fool"], hands=[["1"], ["2"], ["3"], ["4"]]))
    picks = np.bincount([t.target(2, seed) for seed in range(300)], minlength=4)
    assert picks[2] == 0 and all(60 < picks[q] < 140 for q in (0, 1, 3))


def test_shopkeeper_burns_only_a_low_card_or_one_it_can_beat_itself():
    hands = [["5", "4", "3"], ["8", "Halve", "Double"], ["6", "2", "1"]]
    t = Table(Position(ON_SALE, hands=hands, decks=[[], HIGH_DECK, []]))
    assert all(L.action_kind(t.act(1, seed)) != L.ACT_ATTACK for seed in range(40))  # an 8 could kill
    t = Table(Position(ON_SALE, hands=[hands[0], ["8", "9", "Double"], hands[2]], decks=[[], HIGH_DECK, []]))
    burns = [t.act(1, seed) for seed in range(40)]
    assert any(L.action_kind(a) == L.ACT_ATTACK for a in burns)  # the 9 can beat its own 8
    assert all(card(t.pos, 1, a) == "8" for a in burns if L.action_kind(a) == L.ACT_ATTACK)
    t = Table(Position(ON_SALE, hands=[hands[0], ["2", "9", "Double"], hands[2]], decks=[[], HIGH_DECK, []]))
    burns = [t.act(1, seed) for seed in range(40)]
    assert any(L.action_kind(a) == L.ACT_ATTACK for a in burns)
    assert all(card(t.pos, 1, a) == "2" for a in burns if L.action_kind(a) == L.ACT_ATTACK)


def test_shopkeeper_continues_a_vote_with_its_lowest_card():
    t = Table(Position(ON_SALE, hands=[["5"], ["2", "9", "Double"], ["6"]], decks=[[], HIGH_DECK, []]))
    votes = [t.vote(1, seed) for seed in range(40)]
    attacks = [a for a in votes if L.action_kind(a) == L.ACT_ATTACK]
    assert attacks and all(card(t.pos, 1, a) == "2" for a in attacks)


def test_shopkeeper_never_takes_a_kill_by_redirecting_an_attack_on_itself():
    # a 10 no one left can beat (the Maniac's last card is a 6, the Assassin's hand is empty): sent
    # on, it would kill and cost the Shopkeeper its "no kill"; it lets it land
    pos = Position(ON_SALE, hands=[["10"], ["Redirect", "1", "2"], ["6"]], decks=[[], HIGH_DECK, []])
    pos.attack(0, "10", 1)
    t = Table(pos)
    assert all(L.action_kind(t.act(1, seed)) != L.ACT_REDIRECT for seed in range(20))
    pos = Position(ON_SALE, hands=[["10"], ["Redirect", "1", "2"], ["6"]], decks=[[], HIGH_DECK, []],
                   options={"redirect_credit": False})
    pos.attack(0, "10", 1)
    assert any(L.action_kind(Table(pos).act(1, seed)) == L.ACT_REDIRECT for seed in range(20))  # no credit: fine


def shopkeeper_attacked_by_a_1(shopkeeper_hand):
    """On Sale: the Assassin attacks the Shopkeeper (holding ``shopkeeper_hand``) with its last card, a
    1; the Maniac holds a 6 and a 3. (position, the attack, the Shopkeeper's move on 30 seeds)"""
    pos = Position(ON_SALE, hands=[["1"], shopkeeper_hand, ["6", "3"]], decks=[["9", "8"], HIGH_DECK, ["10", "7", "5"]])
    a = pos.attack(0, "1", 1)
    t = Table(pos)
    return pos, a, [t.act(1, seed) for seed in range(30)]


def test_shopkeeper_facing_certain_death_redirects_to_the_player_likeliest_to_beat_the_attack():
    # issue 28's reproduction: On Sale, the Shopkeeper holds only Modifiers against a 1 (no Battle
    # card to beat it, a Halve or Double cannot save it). It used to die on every seed. Dead, it has
    # lost; sent on, a 1 is beaten by any Battle card, so its "no kill" survives unless the new
    # victim holds none. The Assassin's hand is empty after its attack; the Maniac holds cards.
    pos, a, moves = shopkeeper_attacked_by_a_1(["Redirect", "Halve", "Double"])
    assert all(L.action_kind(m) == L.ACT_REDIRECT and L.action_target(m) == 2 for m in moves)
    pos.apply(1, moves[0])
    assert pos.victim(a) == 2
    pos.defend(2, "3", a)  # the Maniac beats it: no one dies, the Shopkeeper is alive with no kill
    assert pos.beaten(a)
    assert pos.advance(30) == [] and pos.alive(1) and pos.kills(1) == 0


def test_shopkeeper_that_can_save_itself_does_not_redirect():
    # the same attack with a 2 in hand: it beats the 1 itself and keeps the Redirect
    pos, a, moves = shopkeeper_attacked_by_a_1(["Redirect", "2", "Double"])
    assert all(L.action_kind(m) == L.ACT_DEFEND and card(pos, 1, m) == "2" and L.action_attack(m) == a
               for m in moves)


def test_sentinel_hunts_players_who_have_not_killed():
    # Crowd Control: the Anarchist has killed the Alchemist, so it is a murderer, no longer an
    # Assailant; the Butcher has not killed and is the Sentinel's only fitting victim
    pos = Position(["Sentinel", "Anarchist", "Alchemist", "Butcher"], hands=[["9", "8"], ["7", "1"], ["2"], ["3"]])
    pos.kill_by(1, 2, "7")
    t = Table(pos)
    t.knows_everyone(0)
    assert {t.target(0, seed) for seed in range(20)} == {3}


def believes_won(t, p):
    c = t.c
    return bool(policies.believes_won(t.pos.s, c.opts, c.roles, t.belief, p))


def test_a_killer_goes_by_its_beliefs_about_its_victim_not_the_victims_hidden_role():
    # "If you die, place the killing blow (face up or down) on your Role card, KEEPING THE ROLE
    # HIDDEN until the game ends." The Maniac (alive, credited with killing a commoner) has killed
    # seat 1. Two tables that differ only in whether seat 1 or seat 3 is the King (the other the
    # Shopkeeper) look the same to the Maniac: it must decide the same on both.
    def table(victim, other):
        pos = Position(["Maniac", victim, "Fool", other], hands=[["9", "8", "7"], ["1"], ["5"], ["6"]])
        pos.kill_by(0, 1, "9")
        return Table(pos, stubborn=1.0)

    commoner_killed, king_killed = table("Shopkeeper", "King"), table("King", "Shopkeeper")
    assert commoner_killed.pos.won()[0] and not king_killed.pos.won()[0]  # the truth differs
    # uniform beliefs: two of the Maniac's three unknown roles (Fool, Shopkeeper) are commoners
    assert believes_won(commoner_killed, 0) and believes_won(king_killed, 0)
    for seed in range(10):
        assert commoner_killed.vote(0, seed) == king_killed.vote(0, seed) == L.ACT_PASS  # ends the game
        assert commoner_killed.act(0, seed) == king_killed.act(0, seed)
        assert commoner_killed.target(0, seed) == king_killed.target(0, seed)
    # what it believes of its victim decides: sure that it killed the King, it fights on
    king_killed.knows_everyone(0)
    assert not believes_won(king_killed, 0)
    assert L.action_kind(king_killed.vote(0)) == L.ACT_ATTACK


def test_alchemist_bombs_for_a_player_it_wants_dead_when_it_must():
    # Divide and Conquer: the Alchemist must play all four Modifiers; the Bomb may only go where
    # there is an attack, here on the Anarchist, who wants the Alchemist (a Royalty) dead
    pos = Position(["Alchemist", "Suitor", "Sweetheart", "Anarchist"], hands=[["Bomb"], ["9"], ["1"], ["2"]])
    a = pos.attack(1, "9", 3)
    pos.defend(3, "2", a)
    t = Table(pos)
    t.knows_everyone(0)
    assert L.action_kind(t.act(0)) == L.ACT_BOMB


def test_alchemist_as_the_only_royalty_redirects_onto_itself_and_lets_it_land():
    # Divide and Conquer under the app's symbols: the Alchemist is the only Royalty, so its own
    # death by its own Redirect (the fourth Modifier) is its only route to a win
    pos = Position(["Alchemist", "Suitor", "Sweetheart", "Anarchist"], hands=[["Redirect"], ["9"], ["1"], ["2"]])
    pos.s[L.pbase(0) + L.PL_MODS_PLAYED] = 3
    pos.attack(1, "9", 3)
    t = Table(pos)
    action = t.act(0)
    assert L.action_kind(action) == L.ACT_REDIRECT and L.action_target(action) == 0
    pos.apply(0, action)
    assert L.action_kind(t.act(0)) == L.ACT_PASS  # no defence: the death completes the win
    assert pos.advance(6) == [(0, 0)]
    pos.end()
    assert pos.won()[0]


def test_lying_is_set_per_symbol_class():
    # only crowned roles lie: the King claims another role, the Fool (a skull) and the Shopkeeper
    # (neither symbol) tell the truth
    roles = ["King", "Fool", "Shopkeeper", "Assassin"]
    pos = Position(roles, hands=[["1"], ["2"], ["3"], ["4"]])
    t = Table(pos, lying_royalty=1.0, lying_assailant=0.0, lying_commoner=0.0)
    for seed in range(10):
        claims = [L.claim_role(policies.heuristic_claim(pos.s, t.codes, t.params, t.c.role_count, p,
                                                        new_stream(np.uint64(seed), 0), L.ALL_ANSWERS),
                               pos.s[L.pbase(p) + L.PL_ROLE]) for p in range(4)]
        assert [pos.role_names[c] for c in claims][1:] == roles[1:] and pos.role_names[claims[0]] != "King"


def test_the_tree_search_claims_hears_and_learns_as_the_heuristic_at_its_defaults():
    """A tree-search seat's claim and its beliefs are the heuristic's at its defaults (its own
    parameter row holds the search's parameters, which must not be read as lying rates, trust or
    learning), and it learns from claims and fighting like any heuristic listener: its worlds are
    dealt from those beliefs."""
    roles = ["King", "Fool", "Shopkeeper", "Assassin"]
    pos = Position(roles, hands=[["1"], ["2"], ["3"], ["4"]])
    for p in range(len(roles)):
        heuristic, searcher = Table(pos), Table(pos)
        searcher.seat_tree_search(p)
        claims = {name: [policies.heuristic_claim(pos.s, t.codes, t.params, t.c.role_count, p,
                                                  new_stream(np.uint64(seed), 0), L.ALL_ANSWERS) for seed in range(20)]
                  for name, t in (("heuristic", heuristic), ("tree search", searcher))}
        assert claims["tree search"] == claims["heuristic"]
        # at the defaults a crowned role always lies, the others never (its row there would lie)
        assert (L.CLAIM_TRUTH in claims["heuristic"]) == (roles[p] != "King")
    heuristic, searcher = Table(pos), Table(pos)
    searcher.seat_tree_search(0)
    uniform = heuristic.belief[0, 1].copy()
    for t in (heuristic, searcher):
        policies.observe_claim(pos.s, t.codes, t.params, t.c.role_count, t.belief, 1, pos.role_names.index("Assassin"))
        policies.observe_hostility(pos.s, t.codes, t.params, t.c.want_total, t.belief, t.grudge, 2, 0, 1.0)
    np.testing.assert_allclose(searcher.belief[0], heuristic.belief[0])
    assert not np.allclose(searcher.belief[0, 1], uniform) and not np.allclose(searcher.belief[0, 2], uniform)
