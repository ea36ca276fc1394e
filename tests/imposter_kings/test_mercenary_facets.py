"""The King facets in the Mercenary modes (option king_facets 'mode': on in both).

Rulebook, Cutthroat Mercenaries: "Each player has an Army of the five Army cards (Elder, Inquisitor,
Soldier, Judge, Oathbound) and a King with both facets (Master Tactician and Charismatic Leader)"; 2v2
Mercenaries: "Each player has an Army of the five Army cards and a King with both facets". Step 4:
"During your Mustering Phase you may now also choose a new King, in any order with your other
mustering actions. Place the new King over your current one." "The Master Tactician places a Squire
face down next to the Successor"; "The Charismatic Leader reveals the Successor once the round starts".
2v2 Mercenaries: "Successor. Everyone places a Successor. Once both partners have, they may look at
each other's Successor." Glossary: "A Squire is not a Successor." Cutthroat: "The Assassin works the
same as in Cutthroat"; 2v2 Mercenaries: "The winning team scores 1 point, plus +1 for each face-up King
on their team."
"""

import numpy as np
import pytest

from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.test_mercenaries import (
    BIDS, CT, MERCS, TV, TV_BIDS, apply_accounted, assert_accounted, bid, dealt, tv_dealt)

T = L.TYPES
MT, CL = "Master Tactician", "Charismatic Leader"


def cutthroat_king_step(options=None):
    """Cutthroat Mercenaries: seat 2 wins the bid and swaps nothing, seat 0 goes first clockwise: seat 2
    musters first (the player going last), at its King step."""
    pos = bid(dealt(options=options), BIDS)
    pos.play("no", 0, "clockwise")
    return pos


# ---- the King choice, the first step of each Mercenary muster ---------------------------------------------
def test_cutthroat_mercenaries_each_muster_begins_with_the_king_choice_apart_from_recruit_a_mercenary():
    pos = cutthroat_king_step()
    assert pos.phase == "choose a King" and pos.decider == 2 and pos.legal() == [MT, CL, "keep"]
    pos.apply(MT)
    assert pos.king(2) == MT and pos.pick_for == "Mercenary muster" and pos.decider == 2
    assert "mercenary" in pos.legal() and "king" not in pos.legal()
    pos.apply("mercenary")  # ACT_FLIP is still Recruit a Mercenary
    assert pos.pick_for == "Recruit a Mercenary: Exhaust"
    pos.play("Elder", "Inquisitor", "Exile", "no")
    assert pos.phase == "choose a King" and pos.decider == 1  # reverse turn order
    pos.play(CL, "no", "keep", "no")
    assert [pos.king(p) for p in range(3)] == ["King", CL, MT]
    assert pos.phase == "Successor" and pos.decider == 0
    assert_accounted(pos, 3)


def test_two_v_two_mercenaries_each_muster_begins_with_the_king_choice():
    pos = bid(tv_dealt(), TV_BIDS)
    pos.play("no", "no", "no", "no", "no", 0, "clockwise")  # seat 2 wins (18), swaps nothing; seat 3 musters first
    order = []
    for king in (MT, "keep", CL, "keep"):
        assert pos.phase == "choose a King" and pos.decider not in order
        order.append(pos.decider)
        pos.play(king, "no")
    assert order == [3, 2, 1, 0] and [pos.king(p) for p in range(4)] == ["King", CL, "King", MT]
    assert pos.phase == "Successor"


def test_without_king_facets_the_mercenary_muster_starts_at_once():
    pos = cutthroat_king_step({"king_facets": "off"})
    assert pos.pick_for == "Mercenary muster" and pos.decider == 2


def test_the_chosen_king_is_kept_for_the_next_rounds_and_offered_no_more():
    pos = cutthroat_king_step()
    pos.play(MT, "no")
    R.deal_round(pos.s, pos.cfg, new_stream(9, 0), 0, np.zeros(L.MAX_CARDS, dtype=np.int64))
    assert pos.king(2) == MT and pos.king(1) == "King"
    R.set_first(pos.s, pos.cfg, 0)
    assert pos.phase == "choose a King" and pos.decider == 2 and pos.legal() == [CL, "keep"]


# ---- the Squire and the revealed Successor with 3 and 4 players ---------------------------------------------
def test_cutthroat_a_tactician_places_its_squire_after_its_successor_and_a_leaders_successor_is_shown_to_both():
    pos = cutthroat_king_step()
    pos.play(MT, "no", CL, "no", "keep", "no")
    for seat in (0, 1, 2):
        assert pos.phase == "Successor" and pos.decider == seat
        successor = pos.hand(seat)[0]
        pos.apply(successor)
        if seat == 2:
            assert pos.pick_for == "Squire"
            pos.apply(pos.hand(2)[0])
        pos.apply(pos.hand(seat)[0])  # the Dungeon
    assert pos.phase == "turn" and pos.squire(2) is not None and pos.squire(1) is None
    leader = pos.successor(1)
    assert pos.knows_successor(0, 1) == pos.knows_successor(2, 1) == leader  # "reveals the Successor"
    assert pos.knows_successor(0, 2) is None and pos.knows_successor(1, 2) is None  # the Squire is face down
    assert_accounted(pos, 3)


def test_two_v_two_partners_look_at_each_others_successor_not_at_the_squire():
    pos = bid(tv_dealt(), TV_BIDS)
    pos.play("no", "no", "no", "no", "no", 0, "clockwise", MT, "no", "keep", "no", "keep", "no", "keep", "no")
    assert pos.king(3) == MT
    for seat in (0, 1, 2, 3):
        assert pos.phase == "Successor" and pos.decider == seat
        pos.apply(pos.hand(seat)[0])
        if seat == 3:
            assert pos.pick_for == "Squire"
            pos.apply(pos.hand(3)[-1])
    squire = pos.squire(3)
    assert squire is not None and pos.knows_successor(1, 3) == pos.successor(3)
    assert pos.knows_successor(0, 3) is None  # an opponent sees nothing
    assert_accounted(pos, 4)


CUTTHROAT_FLIP = dict(mode=CT, hands={0: ["Fool", "Zealot"], 1: ["Princess", "Mystic"], 2: ["Warden", "Spy"]},
                      successors={0: "Judge", 1: "Sentry", 2: "Herald"})


def test_cutthroat_a_tacticians_matching_successor_is_revealed_to_both_opponents():
    pos = Position.build(court=["Elder", "Soldier"], kings={0: MT}, squires={0: "Warlord"},
                         exhausted={0: ["Elder"]}, armies={0: ["Inquisitor", "Soldier", "Judge", "Oathbound"]},
                         **CUTTHROAT_FLIP)
    cards = pos.card_counts()
    pos.apply("flip")  # the Soldier's base value 5 = the Successor Judge's
    assert pos.court() == ["Elder", "Soldier (disgraced)"]
    assert pos.pick_for == "Master Tactician: reveal the matching Successor"
    pos.apply("yes")
    assert "Judge" in pos.hand(0) and pos.known(1, 0) == ["Judge"] and pos.known(2, 0) == ["Judge"]
    pos.play("Elder", "yes")  # Recall the Elder, take the Squire
    assert "Warlord" in pos.hand(0) and pos.squire(0) is None and pos.turn == 1
    assert np.array_equal(pos.card_counts(), cards)


def test_cutthroat_a_tactician_without_a_match_takes_the_successor_or_the_squire():
    pos = Position.build(court=["Queen"], kings={0: MT}, squires={0: "Warlord"}, **CUTTHROAT_FLIP)
    pos.apply("flip")
    assert pos.pick_for == "Master Tactician: Successor or Squire"
    took = pos.copy().apply("no")
    assert "Warlord" in took.hand(0) and took.successor(0) == "Judge" and took.turn == 1
    assert took.known(1, 0) == [] and took.known(2, 0) == []  # taken unseen


def test_cutthroat_a_leaders_flip_takes_its_known_successor_or_removes_it_to_rally():
    pos = Position.build(court=["Queen"], kings={0: CL}, **CUTTHROAT_FLIP)
    assert pos.knows_successor(1, 0) == pos.knows_successor(2, 0) == "Judge"
    pos.apply("flip")
    assert pos.pick_for == "Charismatic Leader: take the Successor or Rally"
    took = pos.copy().apply("yes")
    assert "Judge" in took.hand(0) and took.known(1, 0) == took.known(2, 0) == ["Judge"] and took.turn == 1
    rallied = pos.copy().apply("no")
    assert rallied.removed() == ["Judge"] and rallied.pick_for == "Rally"
    at_most = L.BASE_VALUE[L.type_of("Judge")]
    assert sorted(rallied.legal()) == sorted(c for c in set(rallied.army(0)) if L.BASE_VALUE[L.type_of(c)] <= at_most)


def test_cutthroat_the_assassins_pool_takes_the_successor_not_the_squire():
    """Cutthroat's Assassin with three players in: the victim's hand and Successor join the pool;
    "A Squire is not a Successor": it stays, face down in front of the knocked-out player."""
    pos = Position.build(court=["Queen"], kings={0: MT}, squires={0: "Warlord"},
                         **dict(CUTTHROAT_FLIP, hands={0: ["Fool"], 1: ["Assassin", "Mystic"], 2: ["Warden"]}))
    cards = pos.card_counts()
    pos.apply("flip")
    assert pos.phase == "Assassin" and pos.decider == 1
    pos.apply("yes")
    assert pos.out(0) == 1 and pos.pick_for == "Assassin: keep"
    assert sorted(pos.legal()) == ["Assassin", "Fool", "Judge"] and pos.squire(0) == "Warlord"
    assert np.array_equal(pos.card_counts(), cards)


# ---- conservation with Squires; scoring ---------------------------------------------------------------------
@pytest.mark.parametrize("mode, seats", [(CT, 3), (TV, 4)])
def test_random_rounds_with_every_king_a_master_tactician_conserve_every_card_squires_included(mode, seats):
    squires = 0
    for seed in range(16):
        stream = new_stream(seed, 11)
        pos = Position.deal(mode, seed=seed, true_king=seed % seats, kings={p: MT for p in range(seats)},
                            mercenaries=MERCS)
        while not pos.over:
            if pos.phase == "choose a King":
                pos.apply("keep")
                continue
            legal = pos.legal_codes()
            assert legal, pos.describe()
            apply_accounted(pos, seats, legal[below(stream, len(legal))])
            squires += pos.phase == "turn" and all(pos.s[L.SQUIRE + p] >= 0 for p in range(seats))
    assert squires > 0  # rounds were played with every Squire placed


@pytest.mark.parametrize("kings", [{}, {0: MT, 2: CL}, {0: CL, 2: MT}, {0: CL, 2: CL}])
@pytest.mark.parametrize("flipped, points", [({}, 3), ({0: True}, 2), ({0: True, 2: True}, 1)])
def test_two_v_two_mercenaries_scoring_counts_face_up_kings_whatever_the_facet(kings, flipped, points):
    pos = Position.build(mode=TV, hands={0: ["Fool"], 1: ["Fool"], 2: ["Soldier"], 3: ["Elder", "Queen"]},
                         court=["Princess"], turn=1, flipped={**flipped, 1: True}, successors={3: "Judge"},
                         kings=kings)
    assert pos.over and pos.winner == 0 and pos.points == points  # seat 1 is stuck: team 0 wins


# ---- policies ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode, seats", [(CT, 3), (TV, 4)])
def test_the_heuristic_keeps_its_king_and_random_play_chooses_facets(mode, seats):
    heuristic = GAME.make_setup(mode, seats, "heuristic")
    df = GAME.frame(heuristic, GAME.simulate(heuristic, 4, 0, 3))
    assert (df["king0"] == L.FACET_BASE).all() and (df["king1"] == L.FACET_BASE).all()
    chooser = GAME.make_setup(mode, seats, "random")
    df = GAME.frame(chooser, GAME.simulate(chooser, 4, 0, 3))
    assert (df["king0"] != L.FACET_BASE).any() and (df["capped"] == 0).all()
