"""Fragments of Nersetti, Step 4: Facets of the King (option king_facets; on in mode "fon").

Rulebook ("Step 4: Facets of the King"): "During your Mustering Phase you may now also choose a new
King, in any order with your other mustering actions. Place the new King over your current one. If
you hold the True King, use the True King side of your new King. Both players may choose the same
King." "The Master Tactician places a Squire face down next to the Successor, giving more options when
the King is flipped." "The Charismatic Leader reveals the Successor once the round starts, but can
trade it for an Army card when the King is flipped." Full rules: "Each player places their Successor
(and Squire, with the Master Tactician) and their Dungeon card." Glossary: "A Squire is not a
Successor." Card sheet: Master Tactician "(place a Squire beside the Successor; on flip, Disgrace the
Throne card; if the Successor has the same base value as that card you may reveal and take it, Recall
a base Army card, then take the Squire or remove it to Rally; otherwise take the Successor or the
Squire)"; Charismatic Leader "(the Successor is revealed when the round starts; on flip, Disgrace the
Throne card and either take the Successor or remove it from the round to Rally a card of equal or
lower base value)". FAQ: "Can the Master Tactician use its special ability if the card on the Throne
is Disgraced? No. ... flipping the Master Tactician just lets you take your Successor or your Squire."
"""

import numpy as np
import pytest

from balance.engine.game import SetupError
from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME, MAX_ROUNDS
from balance.games.imposter_kings.options import config_row
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.test_search_modes import search_pick, world_of

MODE = "army_step"
ON = {"king_facets": "on"}
T = L.TYPES
MT, CL = "Master Tactician", "Charismatic Leader"
ARMY = ["Elder", "Inquisitor", "Soldier", "Judge", "Oathbound", "Aegis"]


def P(options=None, **kw):
    return Position.build(mode=MODE, options={**ON, **(options or {})}, **kw)


def deal(seed=3, true_king=0, **kw):
    return Position.deal(MODE, seed=seed, true_king=true_king, options=ON, **kw)


def row(pos, zone, p):
    return pos.s[zone + p * T:zone + (p + 1) * T]


# ---- choosing a King while mustering ---------------------------------------------------------------
def test_a_new_king_is_chosen_while_mustering_in_any_order_and_both_may_choose_the_same():
    pos = deal()
    pos.apply("yes")  # the True King (seat 0) goes first: seat 1 musters first
    assert pos.decider == 1 and "king" in pos.legal() and {"yes", "no"} <= set(pos.legal())
    pos.apply("king")
    assert pos.phase_code == L.PH_KING and pos.legal() == [MT, CL]  # "a new King": one of the two facets
    pos.apply(MT)
    assert pos.king(1) == MT and pos.pick_for == "muster" and pos.decider == 1
    assert pos.legal().count("king") == 1
    pos.apply("king")
    assert pos.legal() == [CL]  # not the King it has
    pos.apply(CL)
    pos.apply(pos.hand(1)[0])  # a Recruit after the King: "in any order with your other mustering actions"
    assert pos.pick_for == "Recruit: Exhaust as the cost"
    pos.play("Elder", "Soldier", "no")
    assert pos.decider == 0 and pos.pick_for == "muster"
    pos.play("king", CL, "no")  # "Both players may choose the same King"
    assert pos.king(0) == pos.king(1) == CL


def test_without_the_option_the_mustering_offers_no_king_and_the_true_king_stays_with_its_holder():
    plain = Position.deal(MODE, seed=3, true_king=0)
    plain.apply("yes")
    assert "king" not in plain.legal()
    pos = deal(true_king=1)
    pos.apply("no")  # the True King's holder (seat 1) goes second: it musters first
    assert pos.decider == 1
    pos.play("king", MT)
    assert pos.true_king == 1  # "use the True King side of your new King"


def test_the_chosen_king_is_kept_for_the_next_rounds():
    pos = deal()
    pos.play("yes", "king", MT)
    R.deal_round(pos.s, pos.cfg, new_stream(9, 0), 0, np.zeros(L.MAX_CARDS, dtype=np.int64))
    assert pos.king(1) == MT and pos.king(0) == "King"


def test_king_facets_on_needs_a_mustering_phase():
    with pytest.raises(SetupError, match="king_facets"):
        GAME.make_setup("immortal_step", 2, [("random", {})] * 2, options=ON)
    with pytest.raises(SetupError):
        GAME.make_setup(MODE, 2, [("random", {})] * 2, options={"king_facets": "sometimes"})
    with pytest.raises(SetupError):
        GAME.make_setup(MODE, 2, [("random", {})] * 2, options={**ON, "facet_leftover": "burned"})


# ---- the Master Tactician's Squire -----------------------------------------------------------------
def test_the_master_tactician_places_a_squire_face_down_after_the_successor_then_the_dungeon():
    pos = deal(kings={0: MT})
    pos.play("yes", "no", "no")  # seat 0 first; nobody musters
    assert pos.phase == "Successor" and pos.decider == 0
    hand = pos.hand(0)
    pos.apply(hand[0])
    assert pos.pick_for == "Squire" and sorted(pos.legal()) == sorted(set(hand[1:]))
    pos.apply(hand[1])
    assert pos.squire(0) == hand[1] and len(pos.hand(0)) == 7 and pos.phase == "Dungeon"
    pos.apply(pos.hand(0)[0])
    assert pos.phase == "Successor" and pos.decider == 1  # the base King places no Squire
    pos.play(pos.hand(1)[0], pos.hand(1)[0])
    assert pos.squire(1) is None and pos.phase == "turn"
    assert pos.known(1) == [] and pos.knows_successor(1, 0) is None  # the Squire is face down
    assert np.array_equal(pos.card_counts(), L.IMMORTAL_STEP_DECK)


# ---- the Master Tactician's flip -------------------------------------------------------------------
TACTICIAN = dict(kings={0: MT}, hands={0: ["Fool", "Zealot"], 1: ["Princess", "Mystic"]},
                 successors={0: "Judge", 1: "Sentry"}, squires={0: "Warlord"})


def test_tactician_without_a_match_disgraces_the_throne_then_takes_the_successor_or_the_squire():
    pos = P(court=["Queen"], **TACTICIAN)  # the Queen's 9 is not the Judge's 5
    cards = pos.card_counts()
    pos.apply("flip")
    assert pos.court() == ["Queen (disgraced)"]
    assert pos.pick_for == "Master Tactician: Successor or Squire" and pos.legal() == ["yes", "no"]
    took_squire = pos.copy().apply("no")
    assert sorted(took_squire.hand(0)) == ["Fool", "Warlord", "Zealot"] and took_squire.squire(0) is None
    assert took_squire.successor(0) == "Judge" and took_squire.turn == 1  # facet_leftover 'stays'
    took_successor = pos.copy().apply("yes")
    assert sorted(took_successor.hand(0)) == ["Fool", "Judge", "Zealot"] and took_successor.squire(0) == "Warlord"
    assert took_successor.successor(0) is None and took_successor.known(1) == []  # taken unseen
    for p in (took_squire, took_successor):
        assert np.array_equal(p.card_counts(), cards)


def test_tactician_leftover_removed_option_removes_the_card_not_taken_face_down():
    pos = P(court=["Queen"], options={"facet_leftover": "removed"}, **TACTICIAN)
    cards = pos.card_counts()
    pos.play("flip", "no")
    assert pos.successor(0) is None and pos.removed_face_down() == ["Judge"]
    assert np.array_equal(pos.card_counts(), cards)


def test_tactician_matching_successor_is_revealed_and_taken_then_recall_a_base_army_card_then_squire_or_rally():
    pos = P(court=["Elder", "Soldier"], armies={0: ["Inquisitor", "Oathbound"]},
            exhausted={0: ["Elder", "Soldier", "Aegis"]}, army_taken={0: ["Judge"]},
            **dict(TACTICIAN, hands={0: ["Fool", "Judge"], 1: ["Princess", "Mystic"]}))
    pos.apply("flip")  # the Soldier's base value 5 = the Successor Judge's
    assert pos.pick_for == "Master Tactician: reveal the matching Successor" and pos.legal() == ["yes", "no"]
    assert pos.court() == ["Elder", "Soldier (disgraced)"]
    pos.apply("yes")
    assert pos.hand(0).count("Judge") == 2 and pos.successor(0) is None
    assert pos.known(1) == ["Judge"]  # revealed: the opponent saw it taken
    assert pos.pick_for == "Recall" and sorted(pos.legal()) == ["Elder", "Soldier"]  # "a base Army card": no Aegis
    pos.apply("Soldier")
    assert sorted(pos.army(0)) == ["Inquisitor", "Oathbound", "Soldier"] and sorted(pos.exhausted(0)) == ["Aegis", "Elder"]
    assert pos.pick_for == "Master Tactician: take the Squire or Rally" and pos.legal() == ["yes", "no"]
    rallied = pos.copy().apply("no")  # remove the Squire to Rally
    assert rallied.squire(0) is None and rallied.removed_face_down() == ["Warlord"]
    assert rallied.pick_for == "Rally" and sorted(rallied.legal()) == ["Inquisitor", "Oathbound", "Soldier"]
    rallied.apply("Inquisitor")
    assert "Inquisitor" in rallied.hand(0) and sorted(rallied.army_taken(0)) == ["Inquisitor", "Judge"]
    assert rallied.turn == 1 and rallied.known(1) == ["Judge"]  # Rallied unseen
    kept = pos.copy().apply("yes")
    assert "Warlord" in kept.hand(0) and kept.squire(0) is None and kept.turn == 1
    declined = P(court=["Elder", "Soldier"], **dict(TACTICIAN, hands={0: ["Fool", "Judge"], 1: ["Princess"]}))
    declined.play("flip", "no")  # "you may": declining leaves the ordinary choice
    assert declined.pick_for == "Master Tactician: Successor or Squire"


def test_faq_a_disgraced_throne_never_matches_the_tactician_successor():
    """FAQ: "A Disgraced card has no base value, so your Successor can never match it." A Fool (base
    value 1) Successor does not match a Disgraced card worth 1 either."""
    for successor in ("Judge", "Fool"):
        pos = P(court=["Soldier", "Judge"], disgraced=[1], **dict(TACTICIAN, successors={0: successor, 1: "Sentry"}))
        pos.apply("flip")
        assert pos.pick_for == "Master Tactician: Successor or Squire"


def test_a_tactician_with_only_its_squire_left_takes_it():
    pos = P(court=["Queen"], **dict(TACTICIAN, successors={1: "Sentry"}))
    pos.apply("flip")
    assert "Warlord" in pos.hand(0) and pos.turn == 1


# ---- the Charismatic Leader ------------------------------------------------------------------------
def test_the_charismatic_leaders_successor_is_revealed_once_the_round_starts():
    pos = deal(kings={0: CL})
    pos.play("yes", "no", "no")
    successor = pos.hand(0)[-1]
    pos.apply(successor)
    assert pos.knows_successor(1, 0) is None  # placed face down; the round has not started
    pos.apply(pos.hand(0)[0])
    pos.play(pos.hand(1)[0], pos.hand(1)[0])
    assert pos.phase == "turn" and pos.knows_successor(1, 0) == successor and pos.knows_successor(0, 1) is None


LEADER = dict(kings={0: CL}, hands={0: ["Fool", "Zealot"], 1: ["Princess", "Mystic"]},
              successors={0: "Judge", 1: "Sentry"}, court=["Queen"])


def test_leader_flip_disgraces_the_throne_then_takes_the_known_successor():
    pos = P(**LEADER)
    assert pos.knows_successor(1, 0) == "Judge"
    pos.apply("flip")
    assert pos.court() == ["Queen (disgraced)"] and pos.pick_for == "Charismatic Leader: take the Successor or Rally"
    pos.apply("yes")
    assert "Judge" in pos.hand(0) and pos.known(1) == ["Judge"] and pos.turn == 1


def test_leader_flip_may_remove_the_successor_to_rally_a_card_of_equal_or_lower_base_value():
    pos = P(**dict(LEADER, successors={0: "Inquisitor", 1: "Sentry"}))
    pos.play("flip", "no")
    assert pos.successor(0) is None and pos.removed() == ["Inquisitor"]  # it lay face up
    assert pos.pick_for == "Rally" and sorted(pos.legal()) == ["Aegis", "Elder", "Inquisitor"]  # 4 or lower
    pos.apply("Elder")
    assert "Elder" in pos.hand(0) and pos.army_taken(0) == ["Elder"] and pos.known(1) == []
    assert pos.turn == 1


# ---- the Assassin answers every King's flip ---------------------------------------------------------
@pytest.mark.parametrize("king", ["King", MT, CL])
def test_the_assassin_reacts_to_each_kings_flip(king):
    spec = dict(TACTICIAN, kings={0: king}, court=["Elder", "Soldier"], hands={0: ["Fool"], 1: ["Assassin", "Mystic"]})
    pos = P(**spec)
    pos.apply("flip")
    assert pos.phase == "Assassin" and pos.decider == 1
    killed = pos.copy().apply("yes")
    assert killed.over and killed.winner == 1 and killed.points == 3  # 1 + King face up + seat 0's hand
    declined = pos.copy().apply("no")
    assert declined.court() == ["Elder", "Soldier (disgraced)"]
    expected = {"King": "turn", MT: "flipped King's choice", CL: "flipped King's choice"}[king]
    assert declined.phase == expected


# ---- scoring: a Squire is not a Successor -----------------------------------------------------------
def test_a_squire_left_scores_no_point_for_the_winner_but_a_successor_does():
    common = dict(kings={1: MT}, hands={0: ["Fool"], 1: []}, court=["Queen"], flipped={1: True}, turn=1)
    squire_only = P(**common, squires={1: "Warlord"}, successors={0: "Judge"})
    assert squire_only.over and squire_only.winner == 0 and squire_only.points == 2
    successor_left = P(**common, squires={1: "Warlord"}, successors={0: "Judge", 1: "Sentry"})
    assert successor_left.over and successor_left.points == 3


# ---- information: the Squire is hidden, the Charismatic Leader's Successor public --------------------
HIDDEN = dict(turn=0, court=["Elder", "Soldier"], accused="Warden", unused="Fool", removed=["Soldier", "Zealot"],
              hands={0: ["Inquisitor", "Oathbound", "Warlord", "Princess"],
                     1: ["Assassin", "Judge", "Mystic", "Immortal", "Queen"]},
              successors={0: "King's Hand", 1: "Sentry"}, dungeons={0: "Elder", 1: "Inquisitor"},
              kings={1: MT}, squires={1: "Oathbound"})
# The same view for seat 0: seat 1's Squire and its Judge change places.
HIDDEN_MOVED = dict(HIDDEN, squires={1: "Judge"}, hands={0: HIDDEN["hands"][0],
                                                         1: ["Assassin", "Oathbound", "Mystic", "Immortal", "Queen"]})


def test_the_opponents_squire_is_hidden_from_every_policy_and_dealt_by_the_search_from_its_view():
    a, b = P(**HIDDEN), P(**HIDDEN_MOVED)
    assert a.phase_code == L.PH_TURN and a.decider == 0
    assert np.array_equal(world_of(a.s, a.cfg), world_of(b.s, b.cfg))
    squires = {int(world_of(a.s, a.cfg, seed)[L.SQUIRE + 1]) for seed in range(16)}
    assert len(squires) > 1 and all(t >= 0 for t in squires)
    for seed in range(16):
        world = Position(world_of(a.s, a.cfg, seed), a.cfg)
        assert np.array_equal(world.card_counts(), a.card_counts())
    for policy in ("heuristic", "greedy", "random", "search"):
        for seed in range(3):
            assert search_pick(a.s, a.cfg, seed, policy=policy) == search_pick(b.s, b.cfg, seed, policy=policy)


def test_the_flipped_tacticians_choice_is_a_function_of_its_view():
    views = []
    for spec in (HIDDEN, HIDDEN_MOVED):
        pos = P(**dict(spec, kings={0: MT, 1: MT}, squires={0: "Princess", 1: spec["squires"][1]},
                       hands={0: ["Inquisitor", "Oathbound", "Warlord"], 1: spec["hands"][1]}))
        pos.play("flip", "no")  # seat 1 holds the Assassin and declines
        assert pos.pick_for == "Master Tactician: Successor or Squire" and pos.decider == 0
        views.append(pos)
    a, b = views
    for policy in ("heuristic", "greedy", "random", "search"):
        for seed in range(3):
            assert search_pick(a.s, a.cfg, seed, policy=policy) == search_pick(b.s, b.cfg, seed, policy=policy)


def test_the_charismatic_leaders_successor_is_known_to_the_search_and_its_own_squire_is_not_dealt_away():
    pos = P(**dict(HIDDEN, kings={1: CL, 0: MT}, squires={0: "Mystic"},
                   hands={0: HIDDEN["hands"][0], 1: ["Assassin", "Judge", "Oathbound", "Immortal", "Queen"]}))
    for seed in range(8):
        world = world_of(pos.s, pos.cfg, seed)
        assert world[L.SUCCESSOR + 1] == L.SENTRY and world[L.SQUIRE] == L.MYSTIC
        assert np.array_equal(Position(world, pos.cfg).card_counts(), pos.card_counts())


# ---- policies ------------------------------------------------------------------------------------------
def test_the_heuristic_keeps_its_king_places_its_lowest_squire_and_takes_the_better_card_at_its_flip():
    pos = deal()
    pos.apply("yes")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) != L.ACT_FLIP
    pos.apply("king")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.FACET_LEADER  # made to choose
    squire = deal(kings={0: MT}, hands={0: ["Fool", "Queen", "Elder", "Zealot", "Mystic", "Warlord", "Sentry",
                                            "Princess", "Warden"]})
    squire.play("yes", "no", "no", "Queen")
    assert squire.pick_for == "Squire" and search_pick(squire.s, squire.cfg, policy="heuristic", params={}) == L.FOOL
    flip = P(court=["Queen"], **TACTICIAN)
    flip.apply("flip")
    assert search_pick(flip.s, flip.cfg, policy="heuristic", params={}) == L.ACT_NO  # the Warlord over the Judge
    leader = P(**dict(LEADER, successors={0: "Soldier", 1: "Sentry"}))
    leader.apply("flip")
    assert search_pick(leader.s, leader.cfg, policy="heuristic", params={}) == L.ACT_NO  # a hidden Soldier
    leader = P(**dict(LEADER, successors={0: "Warlord", 1: "Sentry"}))
    leader.apply("flip")
    assert search_pick(leader.s, leader.cfg, policy="heuristic", params={}) == L.ACT_YES


def assert_consistent(pos, taken):
    assert np.array_equal(pos.card_counts(), L.IMMORTAL_STEP_DECK + taken), pos.describe()
    for p in range(2):
        whole = row(pos, L.ARMY, p) + row(pos, L.EXHAUST, p) + (0 if pos.over else row(pos, L.ARMY_TAKEN, p))
        assert np.array_equal(whole, L.ARMY_STEP), pos.describe()


def test_random_rounds_with_facets_conserve_every_card_squires_included():
    kings = ({}, {0: MT, 1: CL}, {0: MT, 1: MT}, {0: CL, 1: MT})
    for seed in range(40):
        stream = new_stream(seed, 7)
        pos = deal(seed=seed, true_king=seed % 2, kings=kings[seed % 4])
        while not pos.over:
            legal = pos.legal_codes()
            assert legal, pos.describe()
            taken = row(pos, L.ARMY_TAKEN, 0) + row(pos, L.ARMY_TAKEN, 1)
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            assert_consistent(pos, taken if pos.over else row(pos, L.ARMY_TAKEN, 0) + row(pos, L.ARMY_TAKEN, 1))


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_facet_matches_end(policy):
    setup = GAME.make_setup(MODE, 2, [(policy, {})] * 2, options=ON)
    df = GAME.frame(setup, GAME.simulate(setup, 5, 0, 8))
    assert (df["capped"] == 0).all() and (df.groupby("game")["match_winner"].max() >= 0).all()
    if policy == "heuristic":
        assert (df["king0"] == L.FACET_BASE).all() and (df["king1"] == L.FACET_BASE).all()


def test_replay_of_a_facet_match_equals_the_batch_row():
    setup = GAME.make_setup(MODE, 2, [("random", {}), ("heuristic", {})], options=ON)
    batch = GAME.simulate(setup, 9, 0, 4)
    for k in (0, 3):
        rows, events = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS]) and len(events) > 0


# ---- the full 2-player mode "fon" -------------------------------------------------------------------------
def test_fon_is_the_full_rules_setup():
    """Full rules: the 20-card deck, 9 each, the five Army cards and 3 Signature Cards each, no mulligans,
    "Each may Recruit, Recommission and choose a new King"."""
    options = GAME.make_setup("fon", 2, [("random", {})] * 2).options
    row = config_row("fon", options)
    assert np.array_equal(row[L.CFG_DECK:L.CFG_DECK + T], L.IMMORTAL_STEP_DECK) and row[L.CFG_HAND] == 9
    assert np.array_equal(row[L.CFG_ARMY:L.CFG_ARMY + T], L.ARMY_CARDS)
    assert row[L.CFG_MULLIGANS] == 0 and row[L.CFG_KING_FACETS] == 1 and row[L.CFG_SIGNATURES] != L.SIG_NONE
    assert config_row("fon", dict(options, king_facets="off"))[L.CFG_KING_FACETS] == 0


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_fon_matches_end_with_three_signature_cards_each(policy):
    setup = GAME.make_setup("fon", 2, [(policy, {})] * 2)
    df = GAME.frame(setup, GAME.simulate(setup, 5, 0, 6))
    assert (df["capped"] == 0).all() and (df["mulligans"] == 0).all()
    assert (df.groupby("game")["match_winner"].max() >= 0).all()
    for column in ("signatures0", "signatures1"):
        assert all(bin(int(m)).count("1") == 3 for m in df[column])


def test_replay_of_a_fon_match_equals_the_batch_row():
    setup = GAME.make_setup("fon", 2, [("heuristic", {}), ("random", {})])
    batch = GAME.simulate(setup, 9, 0, 4)
    for k in (0, 3):
        rows, events = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS]) and len(events) > 0


def test_a_search_seat_plays_fon():
    setup = GAME.make_setup("fon", 2, [("search", {"rollouts": 4}), ("heuristic", {})])
    df = GAME.frame(setup, GAME.simulate(setup, 3, 0, 2))
    assert (df["capped"] == 0).all() and (df.groupby("game")["match_winner"].max() >= 0).all()
