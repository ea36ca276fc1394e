"""What the search's worlds keep of the Signature Cards' knowledge, the Stranger in the restriction
menu, option mystic_royalty and the random policy's `muster`.

The search deals every hidden card from its seat's view only, and a world must hold every card the
seat knows where it is:
- Flag Bearer (card sheet): "Recall once, then Rally twice; reveal the Rallied cards, then return one
  of them secretly to the Army." Everyone saw the Rallied cards; which one went back is secret, so the
  others know the kept card only when both were of one type (README readings table). Then it is in the
  user's hand in every world its opponent deals; otherwise no world gives the secret away.
- Nakturn (card sheet): "if they guess wrong, look at their hand and Condemn one of their cards". With
  3-4 players the card is Condemned face down (the third player only sees a card go): its user knows
  it, in front of the guesser and, once the guesser's turn removes it face down, among the removed cards.
"""

import numpy as np
import pytest

from balance.engine.decision import FORBID, PREFER, no_restrictions
from balance.engine.rng import new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.match import game_buffers
from balance.games.imposter_kings.policies import unseen_counts
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.views import choose
from tests.imposter_kings.test_search_modes import search_pick, world_of
from tests.imposter_kings.test_signature import FB_KW, sig_position
from tests.imposter_kings.test_signature_cards import P

T = L.TYPES
SEEDS = range(12)


def worlds(pos, me):
    """Worlds the search deals for ``me`` at pos (a scripted position holds only some of the mode's
    cards: its hidden places are dealt from all the cards ``me`` cannot see)."""
    out = []
    for seed in SEEDS:
        s = pos.s.copy()
        s[L.DECIDER] = me
        world = world_of(s, pos.cfg, seed)
        assert world[:L.KNOWN].min() >= 0
        out.append(world)
    return out


# ---- the Flag Bearer --------------------------------------------------------------------------------------
def flag_bearer_kept_one_kind(hands=None, dungeons=None):
    """Seat 0 Rallied two Elders and returned one: seat 1 knows seat 0 keeps an Elder."""
    kw = dict(FB_KW, armies={0: ["Elder", "Elder"]}, exhausted={0: []})
    if hands:
        kw.update(hands=hands, dungeons=dungeons)
    pos = sig_position(**kw).play("Flag Bearer", "Flag Bearer", "Elder", "Elder", "Elder")
    assert pos.turn == 1 and pos.decider == 1 and pos.known(1) == ["Elder"]
    return pos


def test_the_flag_bearers_kept_card_the_others_know_is_in_its_users_hand_in_every_world():
    pos = flag_bearer_kept_one_kind()
    for world in worlds(pos, 1):
        assert world[L.HAND + 0 * T + L.ELDER] >= 1
        assert world[L.ARMY + 0 * T + L.ELDER] + world[L.ARMY_TAKEN + 0 * T + L.ELDER] == 2  # the Army's set


def test_the_flag_bearers_secret_return_of_two_kinds_stays_secret_in_the_worlds():
    pos = sig_position(**FB_KW).play("Flag Bearer", "Flag Bearer", "Oathbound", "Oathbound", "Elder", "Elder")
    assert pos.hand(0) == ["Fool", "Oathbound"] and pos.known(1) == []
    kept = {int(w[L.HAND + 0 * T + L.OATHBOUND]) for w in worlds(pos, 1)}
    assert kept == {0, 1}  # some worlds hold the kept Oathbound, some do not: seat 1 cannot tell


def test_after_the_flag_bearer_the_search_decides_from_its_view_only():
    """Seat 0's hidden Fool and Dungeon Warlord trade places: seat 1's view is the same, so is its decision."""
    a = flag_bearer_kept_one_kind()
    b = flag_bearer_kept_one_kind(hands={0: ["Flag Bearer", "Warlord"], 1: ["Zealot", "Mystic"]},
                                  dungeons={0: "Fool", 1: "Oathbound"})
    assert not np.array_equal(a.s, b.s)
    for seed in range(3):
        assert search_pick(a.s, a.cfg, seed) == search_pick(b.s, b.cfg, seed)


# ---- the Nakturn ------------------------------------------------------------------------------------------
def nakturn_three_players():
    """Seat 0's Nakturn (a Mercenary of Cutthroat Mercenaries): seat 2 guesses wrong and seat 0 Condemns
    its Warlord face down."""
    pos = Position.build(mode="cutthroat_mercenaries",
                         hands={0: ["Nakturn", "Princess"], 1: ["Fool", "Zealot", "Elder"], 2: ["Elder", "Warlord"]},
                         successors={0: "Judge", 1: "Sentry", 2: "Soldier"}, court=["Queen", "Inquisitor"],
                         disgraced=[0])
    pos.play("Nakturn", 2, "Queen", "yes", "Warlord")
    assert pos.condemned_face_down(2) == ["Warlord"] and pos.turn == 1
    return pos


def test_with_three_players_the_nakturns_user_knows_the_card_it_condemned_face_down():
    pos = nakturn_three_players()
    for world in worlds(pos, 0):
        assert world[L.CONDEMNED_HIDDEN + 2 * T + L.WARLORD] == 1
    # the third player only saw a card go: its worlds deal that card anew
    assert len({bytes(w[L.CONDEMNED_HIDDEN + 2 * T:L.CONDEMNED_HIDDEN + 3 * T]) for w in worlds(pos, 1)}) > 1


def test_the_nakturns_user_counts_the_card_it_condemned_among_the_cards_it_sees():
    """The heuristic's odds and the search's pool of unseen cards: the Cutthroat deck's one Warlord is
    no longer unseen for seat 0; for seat 1 it is."""
    pos = nakturn_three_players()
    for me, unseen in ((0, 0), (1, 1)):
        counts = np.zeros(T, dtype=np.float64)
        unseen_counts(pos.s, pos.cfg, me, counts)
        assert counts[L.WARLORD] == unseen
    pos.apply("Zealot")  # removed face down at seat 2's turn
    counts = np.zeros(T, dtype=np.float64)
    unseen_counts(pos.s, pos.cfg, 0, counts)
    assert counts[L.WARLORD] == 0


def test_the_nakturns_user_knows_the_condemned_card_once_removed_face_down():
    pos = nakturn_three_players()
    pos.apply("Zealot")  # seat 1 plays; seat 2's turn removes its Condemned card face down, as its turn
    assert pos.condemned_face_down(2) == [] and pos.s[L.REMOVED_HIDDEN + L.WARLORD] == 1 and pos.turn == 0
    for world in worlds(pos, 0):
        assert world[L.REMOVED_HIDDEN + L.WARLORD] == 1
    assert len({bytes(w[L.REMOVED_HIDDEN:L.REMOVED_HIDDEN + T]) for w in worlds(pos, 1)}) > 1


def test_beside_a_face_down_card_it_does_not_know_the_user_cannot_tell_which_one_is_removed():
    """Seat 2 also has a card the Executioner made it Condemn face down (only seat 2 knows it): one
    of the two is removed at seat 2's turn, and seat 0 is one card less sure (nothing leaks)."""
    pos = Position.build(mode="cutthroat_mercenaries",
                         hands={0: ["Nakturn", "Princess"], 1: ["Fool", "Zealot", "Elder"], 2: ["Elder", "Warlord"]},
                         successors={0: "Judge", 1: "Sentry", 2: "Soldier"}, court=["Queen", "Inquisitor"],
                         disgraced=[0], condemned_hidden={2: "Fool"})
    pos.play("Nakturn", 2, "Queen", "yes", "Warlord", "Zealot")
    assert pos.condemned_face_down(2) == ["Warlord"] and pos.turn == 0  # the rule removed the Fool
    assert pos.s[L.known_condemned_at(0, 2):L.known_condemned_at(0, 2) + T].sum() == 0
    assert pos.s[L.KNOWN_REMOVED:L.KNOWN_REMOVED + L.PLAYERS * T].sum() == 0


def test_with_two_players_the_nakturns_condemned_card_is_known_to_both():
    """Condemned face up, then removed face up as the guesser's turn: in every world of both seats."""
    pos = P(hands={0: ["Nakturn", "Princess", "Elder"], 1: ["Warlord", "Mystic", "Fool"]},
            court=["Queen", "Inquisitor"], disgraced=[0]).play("Nakturn", "Queen", "yes", "Warlord")
    assert pos.removed() == ["Warlord"] and pos.turn == 0
    for me in (0, 1):
        for world in worlds(pos, me):
            assert world[L.REMOVED + L.WARLORD] == 1 and world[L.REMOVED_HIDDEN + L.WARLORD] == 0


# ---- the Stranger in the restriction menu -----------------------------------------------------------------
SIGNATURE_MENU = {a.name: a for a in GAME.actions(GAME.make_setup("signature_step", 2, "heuristic"))}


def test_the_menu_counts_the_strangers_reactions_as_uses_of_the_stranger():
    """"In hand, may act as any Reaction card that is in the Court below the Throne": the answer
    STRANGER at the Assassin's and the King's Hand's decisions."""
    for name in ("Stranger", "Stranger reaction"):
        answers = set(SIGNATURE_MENU[name].answers)
        assert {(L.PH_ASSASSIN, L.STRANGER), (L.PH_KINGS_HAND, L.STRANGER)} <= answers
    assert (L.PH_TURN, L.STRANGER) in SIGNATURE_MENU["Stranger"].answers
    assert (L.PH_TURN, L.STRANGER) not in SIGNATURE_MENU["Stranger reaction"].answers


def stranger_reactions():
    """The Stranger may react as the Assassin (legal: Stranger, no) and as the King's Hand beside
    the King's Hand itself (legal: Stranger, yes, no)."""
    assassin = P(hands={0: ["Elder", "King's Hand"], 1: ["Stranger", "Soldier"]}, court=["Assassin", "Soldier"])
    assassin.apply("flip")
    kings_hand = P(hands={0: ["Inquisitor", "Elder"], 1: ["Stranger", "King's Hand"]}, court=["King's Hand", "Fool"])
    kings_hand.play("Inquisitor", "Elder")
    assert assassin.legal() == ["Stranger", "no"] and kings_hand.legal() == ["Stranger", "yes", "no"]
    return assassin, kings_hand


@pytest.mark.parametrize("policy, params", [("random", {}), ("greedy", {}), ("heuristic", {}),
                                            ("search", {"rollouts": 2})])
@pytest.mark.parametrize("name", ["Stranger", "Stranger reaction"])
def test_a_seat_forbidden_the_stranger_never_reacts_with_it_and_preferring_it_always_does(policy, params, name):
    p = GAME.policy(policy, "test")
    row = p.param_row(params, "test")
    _, _, buffer, scratch, fscratch, _, _, _ = game_buffers()
    action = SIGNATURE_MENU[name]
    for pos in stranger_reactions():
        kind, me = pos.phase_code, pos.decider
        named = sum(1 << b for k, b in action.answers if k == kind)
        for side in (FORBID, PREFER):
            for seed in range(4):
                restrict = no_restrictions(L.PLAYERS)
                restrict[me, kind, side] = named
                world = pos.s.copy()
                R.pose_pending(world, pos.cfg, restrict)
                a = int(choose(world, pos.cfg, p.code, row, restrict, new_stream(seed, 5), buffer, scratch, fscratch))
                assert (a == L.STRANGER) == (side == PREFER), (policy, name, L.PHASE_NAMES[kind])


# ---- option mystic_royalty ---------------------------------------------------------------------------------
# Immortal: "the Immortal and Warlord gain Royalty"; Mystic: "name a number 1-8. For the rest of the
# round, cards of that base value lose their text"; Reference: "Muted - The card loses all of its card
# text, including Royalty and other keywords". Sentry: "pick a face-up, non-Royalty card in the Court".
def warlord_named_by_the_mystic(reading, throne="Fool"):
    return Position.build(mode="immortal_step", hands={0: ["Sentry", "Zealot"], 1: ["Elder", "Fool"]},
                          successors={0: "Judge", 1: "Princess"}, court=["Immortal", "Warlord", throne],
                          muted=7, options={"mystic_royalty": reading})


def test_mystic_royalty_kept_the_named_warlord_keeps_the_royalty_the_immortal_gives_it():
    pos = warlord_named_by_the_mystic("kept")
    assert bool(R.court_royalty(pos.s, pos.cfg, 1)) and pos.court_values()[1] == 3  # set to 3, still Royalty
    pos.apply("Sentry")
    assert 1 not in pos.legal()  # not a non-Royalty card: the Sentry may not pick it


def test_mystic_royalty_lost_the_named_warlord_is_no_royalty():
    pos = warlord_named_by_the_mystic("lost")
    assert not R.court_royalty(pos.s, pos.cfg, 1) and pos.court_values()[1] == 3
    assert R.court_royalty(pos.s, pos.cfg, 0)  # the Immortal (base 6) is not named: her Royalty stays
    pos.apply("Sentry")
    assert 1 in pos.legal()  # the Sentry may pick it now
    on_throne = Position.build(mode="immortal_step", hands={0: ["Sentry"], 1: ["Fool"]},
                               successors={0: "Judge", 1: "Princess"}, court=["Immortal", "Warlord"], muted=7,
                               options={"mystic_royalty": "lost"})
    assert not R.throne_is_royalty(on_throne.s, on_throne.cfg)
    kept = Position.build(mode="immortal_step", hands={0: ["Sentry"], 1: ["Fool"]},
                          successors={0: "Judge", 1: "Princess"}, court=["Immortal", "Warlord"], muted=7)
    assert R.throne_is_royalty(kept.s, kept.cfg)  # the default


def test_mystic_royalty_changes_nothing_where_the_mystic_named_another_number():
    pos = Position.build(mode="immortal_step", hands={0: ["Sentry"], 1: ["Fool"]},
                         successors={0: "Judge", 1: "Princess"}, court=["Immortal", "Warlord"], muted=5,
                         options={"mystic_royalty": "lost"})
    assert R.throne_is_royalty(pos.s, pos.cfg)


# ---- the random policy's muster ----------------------------------------------------------------------------
def test_the_random_policys_muster_probability_is_a_parameter():
    setup = GAME.make_setup("army_step", 2, [("random", {"muster": 0.0}), ("random", {"muster": 1.0})])
    batch = GAME.simulate(setup, 3, 0, 4)
    default = GAME.make_setup("army_step", 2, [("random", {}), ("random", {"muster": 0.25})])
    assert np.array_equal(GAME.simulate(default, 3, 0, 4), GAME.simulate(GAME.make_setup("army_step", 2, "random"),
                                                                          3, 0, 4))
    assert not np.array_equal(batch, GAME.simulate(GAME.make_setup("army_step", 2, "random"), 3, 0, 4))
