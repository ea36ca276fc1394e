"""Fragments of Nersetti for 2 players, step 3: Signature Cards (mode "signature_step"), and the
Rally and Recall keywords every Signature Card step uses.

Reference: "Rally - Take a card from your Army into your hand without revealing it, at no extra cost
(unlike Recruiting). Some cards have special rules for Rallying. If you don't have enough cards in your
Army, ignore it." "Recall - Put an Exhausted card back into your Army. Some cards have special rules
for Recalling. If you have no valid Exhausted cards, ignore it." "At the end of the round, every Army
card taken into a hand this round (Recruited or Rallied) is Exhausted."
"""

import numpy as np
import pytest

from balance.engine.game import SetupError
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.positions import Position

T = L.TYPES
ARMY_STEP_ARMY = ["Elder", "Inquisitor", "Soldier", "Judge", "Oathbound", "Aegis"]


def army_position(**kw):
    """An Army step position at seat 0's turn (the keywords are the kernel's, whatever the mode)."""
    kw.setdefault("successors", {0: "Judge", 1: "Sentry"})
    kw.setdefault("hands", {0: ["Fool", "Zealot"], 1: ["Warlord", "Mystic"]})
    kw.setdefault("court", ["Queen"])
    kw.setdefault("accused", "Warden")
    return Position.build(mode=kw.pop("mode", "army_step"), **kw)


def run(pos, step, *args):
    """Call a kernel step on the position (as a card's ability would), then run on to the next decision."""
    step(pos.s, pos.cfg, *args)
    R.advance(pos.s, pos.cfg)


def mask_of(*names):
    return sum(1 << L.type_of(n) for n in names)


# ---- Rally ---------------------------------------------------------------------------------------------
def test_rally_takes_an_army_card_into_hand_unseen_and_it_is_exhausted_at_the_rounds_end():
    pos = army_position()
    run(pos, R.rally, 0, L.ALL_TYPES, 1, L.THEN_END_TURN)
    assert pos.pick_for == "Rally" and pos.decider == 0 and sorted(pos.legal()) == sorted(ARMY_STEP_ARMY)
    pos.apply("Soldier")
    assert sorted(pos.hand(0)) == ["Fool", "Soldier", "Zealot"] and "Soldier" not in pos.army(0)
    assert pos.army_taken(0) == ["Soldier"] and pos.known(1) == []  # "without revealing it"
    assert pos.exhausted(0) == []  # "at no extra cost (unlike Recruiting)"
    assert pos.phase == "turn" and pos.turn == 1  # the continuation: the turn ends
    R.exhaust_taken(pos.s, pos.cfg)
    assert pos.exhausted(0) == ["Soldier"]


def test_rally_takes_only_the_types_a_card_allows_and_several_one_at_a_time():
    pos = army_position()
    run(pos, R.rally, 0, mask_of("Elder", "Inquisitor", "Judge"), 2, L.THEN_END_TURN)
    assert sorted(pos.legal()) == ["Elder", "Inquisitor", "Judge"]
    pos.apply("Judge")
    assert pos.pick_for == "Rally" and sorted(pos.legal()) == ["Elder", "Inquisitor"]
    pos.apply("Elder")
    assert sorted(pos.army_taken(0)) == ["Elder", "Judge"] and pos.turn == 1


def test_rally_with_no_army_card_is_ignored():
    pos = army_position(armies={0: []}, exhausted={0: ARMY_STEP_ARMY})
    run(pos, R.rally, 0, L.ALL_TYPES, 1, L.THEN_END_TURN)
    assert pos.phase == "turn" and pos.turn == 1 and pos.hand(0) == ["Fool", "Zealot"]
    pos = army_position(armies={0: ["Soldier"]}, exhausted={0: ARMY_STEP_ARMY[:2] + ARMY_STEP_ARMY[3:]})
    run(pos, R.rally, 0, mask_of("Elder"), 1, L.THEN_END_TURN)  # no VALID card: ignored too
    assert pos.phase == "turn" and pos.turn == 1 and pos.army(0) == ["Soldier"]


def test_rallies_beyond_the_army_take_what_there_is_or_by_option_none():
    kw = dict(armies={0: ["Soldier"]}, exhausted={0: ["Elder", "Inquisitor", "Judge", "Oathbound", "Aegis"]})
    pos = army_position(**kw)
    run(pos, R.rally, 0, L.ALL_TYPES, 2, L.THEN_END_TURN)
    pos.apply("Soldier")
    assert pos.army_taken(0) == ["Soldier"] and pos.turn == 1
    pos = army_position(options={"rally_short": "all_or_none"}, **kw)
    run(pos, R.rally, 0, L.ALL_TYPES, 2, L.THEN_END_TURN)
    assert pos.army_taken(0) == [] and pos.army(0) == ["Soldier"] and pos.turn == 1


# ---- Recall --------------------------------------------------------------------------------------------
def test_recall_puts_an_exhausted_card_back_into_the_army():
    pos = army_position(armies={0: ["Elder", "Soldier"]}, exhausted={0: ["Inquisitor", "Judge", "Oathbound", "Aegis"]})
    run(pos, R.recall, 0, L.ALL_TYPES, 1, L.THEN_END_TURN)
    assert pos.pick_for == "Recall" and sorted(pos.legal()) == ["Aegis", "Inquisitor", "Judge", "Oathbound"]
    pos.apply("Judge")
    assert sorted(pos.army(0)) == ["Elder", "Judge", "Soldier"] and "Judge" not in pos.exhausted(0)
    assert pos.hand(0) == ["Fool", "Zealot"] and pos.turn == 1


def test_recall_of_a_restricted_type_and_without_valid_exhausted_cards_is_ignored():
    pos = army_position(armies={0: ["Elder", "Soldier", "Judge", "Oathbound", "Inquisitor"]}, exhausted={0: ["Aegis"]})
    base_army = mask_of("Elder", "Inquisitor", "Soldier", "Judge", "Oathbound")
    run(pos, R.recall, 0, base_army, 1, L.THEN_END_TURN)  # "a base Army card": the Aegis is not one
    assert pos.phase == "turn" and pos.turn == 1 and pos.exhausted(0) == ["Aegis"]
    pos = army_position()
    run(pos, R.recall, 0, L.ALL_TYPES, 1, L.THEN_END_TURN)  # nothing Exhausted
    assert pos.phase == "turn" and pos.turn == 1


def test_the_search_deals_a_rallied_card_from_the_opponents_army_pool():
    from tests.imposter_kings.test_search_modes import world_of
    pos = army_position(turn=1, hands={0: ["Fool", "Zealot"], 1: ["Warlord", "Mystic"]})
    run(pos, R.rally, 1, L.ALL_TYPES, 1, L.THEN_END_TURN)
    pos.apply("Judge")
    other = army_position(turn=1, hands={0: ["Fool", "Zealot"], 1: ["Warlord", "Mystic"]})
    run(other, R.rally, 1, L.ALL_TYPES, 1, L.THEN_END_TURN)
    other.apply("Aegis")
    assert pos.decider == other.decider == 0
    assert np.array_equal(world_of(pos.s, pos.cfg), world_of(other.s, other.cfg))  # same view, same world
    seen = set()
    for seed in range(12):  # which card it was is dealt: the Army is what is left of the Army's cards
        w = Position(world_of(pos.s, pos.cfg, seed), pos.cfg)
        taken = w.army_taken(1)
        assert len(taken) == 1 and len(w.hand(1)) == 3 and len(w.army(1)) == 5
        assert sorted(w.army(1) + taken) == sorted(ARMY_STEP_ARMY)
        seen.add(taken[0])
    assert len(seen) > 1


# ---- Step 3: the choice of Signature Cards --------------------------------------------------------------
# Rulebook, "Step 3: Signature Cards": "Each player starts with an Army of the five Army cards: Elder,
# Inquisitor, Soldier, Judge and Oathbound. No Aegis this time." "Each player secretly chooses 3 of the 9
# Signature Cards for the whole match ... Both players reveal their choices at the same time and add them
# to their Army, for 8 cards each."
MODE = "signature_step"
ARMY_CARDS = ["Elder", "Inquisitor", "Soldier", "Judge", "Oathbound"]
NINE = sorted(["Flag Bearer", "Stranger", "Aegis", "Nakturn", "Ancestor", "Informant", "Lockshift", "Conspiracist",
               "Exile"])


def test_each_player_secretly_chooses_three_distinct_signature_cards_then_both_join_the_armies():
    pos = Position.signature_choice(seed=1)
    assert pos.phase == "Signature Card" and pos.decider == 0 and sorted(pos.legal()) == NINE
    assert sorted(pos.army(0)) == sorted(pos.army(1)) == sorted(ARMY_CARDS)  # "No Aegis this time"
    pos.play("Exile", "Aegis")
    assert sorted(pos.legal()) == sorted(set(NINE) - {"Exile", "Aegis"})  # three distinct cards
    pos.apply("Ancestor")
    assert pos.decider == 1 and sorted(pos.legal()) == NINE  # seat 0's choice takes nothing from seat 1's
    assert sorted(pos.army(0)) == sorted(ARMY_CARDS)  # not revealed yet
    pos.play("Exile", "Lockshift", "Informant")
    assert pos.over  # nothing pending: round 1 is dealt next
    assert sorted(pos.army(0)) == sorted(ARMY_CARDS + ["Exile", "Aegis", "Ancestor"])  # "for 8 cards each"
    assert sorted(pos.army(1)) == sorted(ARMY_CARDS + ["Exile", "Lockshift", "Informant"])


def test_the_choice_is_simultaneous_a_choosers_decision_ignores_the_others_secret_choice():
    from tests.imposter_kings.test_search_modes import search_pick
    a = Position.signature_choice(seed=2).play("Exile", "Aegis", "Ancestor")
    b = Position.signature_choice(seed=2).play("Flag Bearer", "Stranger", "Nakturn")
    assert a.decider == b.decider == 1
    for policy in ("random", "greedy", "heuristic", "search"):
        for seed in range(4):
            assert search_pick(a.s, a.cfg, seed, policy=policy, params={}) == \
                search_pick(b.s, b.cfg, seed, policy=policy, params={}), policy


def test_the_heuristic_chooses_the_rulebooks_first_game_three_and_greedy_and_random_any():
    from tests.imposter_kings.test_search_modes import search_pick
    pos = Position.signature_choice(seed=2)
    picks = []
    for _ in range(3):
        picks.append(L.NAMES[search_pick(pos.s, pos.cfg, policy="heuristic", params={})])
        pos.apply(picks[-1])
    assert picks == ["Exile", "Aegis", "Ancestor"]  # "we recommend the Exile, Aegis and Ancestor"
    pos = Position.signature_choice(seed=2)
    for policy in ("greedy", "random"):
        seen = {search_pick(pos.s, pos.cfg, seed, policy=policy, params={}) for seed in range(60)}
        assert len(seen) >= 6 and all(L.SIGNATURE[t] for t in seen)


# Tournament Mode: "Each player secretly chooses 1 Signature Card. Reveal them at the same time. Make a
# draft deck with one copy of every Signature Card except the ones chosen. (If both players chose the same
# card, just remove that one.) Shuffle the draft deck and deal 5 cards face up. The player without the True
# King chooses whether to pick first or second. The first player picks 1 card, the second player picks 2,
# then the first player picks 1 more."
def test_tournament_mode_one_secret_choice_each_then_a_draft_of_five_first_1_second_2_first_1():
    for true_king in (0, 1):
        pos = Position.signature_choice(seed=5, options={"signatures": "tournament"}, true_king=true_king)
        assert pos.phase == "Signature Card" and pos.decider == 0
        pos.apply("Exile")
        assert pos.phase == "Signature Card" and pos.decider == 1 and sorted(pos.legal()) == NINE
        pos.apply("Aegis")
        draft = pos.draft()
        assert len(draft) == 5 and not {"Exile", "Aegis"} & set(draft) and set(draft) <= set(NINE)
        assert pos.phase == "draft order" and pos.decider == 1 - true_king  # "the player without the True King"
        pos.apply("no")  # it picks second
        first = true_king
        order = []
        while not pos.over:
            assert pos.phase == "draft" and sorted(pos.legal()) == sorted(pos.draft())
            order.append(pos.decider)
            pos.apply(pos.legal()[0])
        assert order == [first, 1 - first, 1 - first, first]
        assert len(pos.draft()) == 1  # the leftover card is discarded
        for p in range(2):
            assert len(pos.signatures(p)) == 3 and len(set(pos.signatures(p))) == 3
            assert sorted(pos.army(p)) == sorted(ARMY_CARDS + pos.signatures(p))


def test_tournament_mode_removes_a_card_both_chose_once_and_deals_the_other_seven():
    seen = set()
    for seed in range(12):
        pos = Position.signature_choice(seed=seed, options={"signatures": "tournament"}).play("Exile", "Exile")
        assert len(pos.draft()) == 5 and "Exile" not in pos.draft()
        seen |= set(pos.draft())
        pos.apply("yes")
        assert pos.decider == 1  # the player without the True King picks first
    assert seen == set(NINE) - {"Exile"}  # the draft deck: the other eight, shuffled


def test_random_signatures_give_each_player_three_at_once():
    seen = set()
    for seed in range(10):
        pos = Position.signature_choice(seed=seed, options={"signatures": "random"})
        assert pos.over  # no decision
        for p in range(2):
            sig = pos.signatures(p)
            assert len(set(sig)) == 3 and set(sig) <= set(NINE)
            assert sorted(pos.army(p)) == sorted(ARMY_CARDS + sig)
            seen.add(tuple(sorted(sig)))
    assert len(seen) > 5


def test_a_fixed_seats_three_are_not_chosen_and_the_other_chooses():
    fixed = {"signatures_seat0": ["Exile", "Aegis", "Ancestor"]}
    pos = Position.signature_choice(seed=1, options=fixed)
    assert pos.decider == 1 and sorted(pos.army(0)) == sorted(ARMY_CARDS + ["Exile", "Aegis", "Ancestor"])
    pos.play("Flag Bearer", "Informant", "Lockshift")
    assert pos.over and sorted(pos.army(1)) == sorted(ARMY_CARDS + ["Flag Bearer", "Informant", "Lockshift"])
    both = dict(fixed, signatures_seat1=["Exile", "Informant", "Lockshift"])
    for choice in ("choose", "tournament", "random"):
        pos = Position.signature_choice(seed=1, options=dict(both, signatures=choice))
        assert pos.over and sorted(pos.signatures(1)) == ["Exile", "Informant", "Lockshift"]
        assert sorted(pos.army(0)) == sorted(ARMY_CARDS + ["Exile", "Aegis", "Ancestor"])


@pytest.mark.parametrize("options, key", [
    ({"signatures_seat0": ["Exile", "Aegis"]}, "options.signatures_seat0"),
    ({"signatures_seat1": ["Exile", "Exile", "Aegis"]}, "options.signatures_seat1"),
    ({"signatures_seat0": ["Exile", "Aegis", "Queen"]}, "options.signatures_seat0"),
    ({"signatures_seat0": ["Exile", "Aegis", "Squire"]}, "options.signatures_seat0"),
    ({"signatures_seat1": ["Exile", "Aegis", 3]}, "options.signatures_seat1"),
    ({"signatures": "tournament", "signatures_seat1": ["Exile", "Aegis", "Ancestor"]}, "options.signatures_seat1"),
])
def test_bad_fixed_signatures_are_one_clear_setup_error(options, key):
    with pytest.raises(SetupError) as err:
        GAME.validate(GAME.make_setup(MODE, 2, "heuristic", options=options))
    assert err.value.key == key


def test_fixed_signatures_in_a_mode_without_them_are_an_error():
    with pytest.raises(SetupError) as err:
        GAME.validate(GAME.make_setup("army_step", 2, "heuristic",
                                      options={"signatures_seat0": ["Exile", "Aegis", "Ancestor"]}))
    assert err.value.key == "options.signatures_seat0"


# ---- play in the mode -------------------------------------------------------------------------------
def signature_row(pos, zone, p):
    return pos.s[zone + p * T:zone + (p + 1) * T]


def assert_cards_accounted(pos, taken=None):
    """The round's cards are the deck and the Army cards taken this round; each Army with its Exhaust
    zone and taken cards is the five Army cards and its three Signature Cards."""
    if taken is None:
        taken = signature_row(pos, L.ARMY_TAKEN, 0) + signature_row(pos, L.ARMY_TAKEN, 1)
    assert np.array_equal(pos.card_counts(), L.IMMORTAL_STEP_DECK + taken), pos.describe()
    for p in range(2):
        whole = (signature_row(pos, L.ARMY, p) + signature_row(pos, L.EXHAUST, p)
                 + (0 if pos.over else signature_row(pos, L.ARMY_TAKEN, p)))
        assert np.array_equal(whole, L.ARMY_CARDS + signature_row(pos, L.SIGNATURES, p)), pos.describe()


FIXED = {"signatures_seat0": ["Flag Bearer", "Ancestor", "Informant"],
         "signatures_seat1": ["Lockshift", "Informant", "Ancestor"]}


def test_random_rounds_account_for_every_card_in_every_zone():
    from balance.engine.rng import below, new_stream
    reached = set()
    for seed in range(60):
        stream = new_stream(seed, 7)
        pos = Position.deal(MODE, seed=seed, true_king=seed % 2, options=FIXED)
        steps = 0
        while not pos.over:
            legal = pos.legal_codes()
            assert legal, pos.describe()
            if pos.phase_code == L.PH_PICK_CARD:
                reached.add(int(pos.s[L.PICK_FOR]))
            taken = signature_row(pos, L.ARMY_TAKEN, 0) + signature_row(pos, L.ARMY_TAKEN, 1)
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            assert_cards_accounted(pos, taken if pos.over else None)
            steps += 1
            assert steps < 2000
    assert {L.PICK_RALLY, L.PICK_RECALL, L.PICK_FLAG_BEARER, L.PICK_INFORMANT_GUESS, L.PICK_LOCKSHIFT} <= reached


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic"])
def test_signature_matches_end_and_record_each_seats_three(policy):
    setup = GAME.make_setup(MODE, 2, [(policy, {})] * 2)
    df = GAME.frame(setup, GAME.simulate(setup, 5, 0, 6))
    assert (df["capped"] == 0).all() and (df["mulligans"] == 0).all()
    assert (df.groupby("game")["match_winner"].max() >= 0).all()
    played = df[df["winner_seat"] >= 0]
    for col in ("signatures0", "signatures1"):
        masks = played[col].astype(int)
        assert all(bin(m).count("1") == 3 and m & ~L.SIGNATURE_MASK == 0 for m in masks)
        assert (played.groupby("game")[col].nunique() == 1).all()  # for the whole match


def test_the_columns_hold_the_fixed_three_and_other_modes_record_none():
    setup = GAME.make_setup(MODE, 2, "heuristic", options=FIXED)
    df = GAME.frame(setup, GAME.simulate(setup, 3, 0, 2))
    played = df[df["winner_seat"] >= 0]
    assert set(played["signatures0"]) == {mask_of(*FIXED["signatures_seat0"])}
    assert set(played["signatures1"]) == {mask_of(*FIXED["signatures_seat1"])}
    setup = GAME.make_setup("army_step", 2, "heuristic")
    df = GAME.frame(setup, GAME.simulate(setup, 3, 0, 2))
    assert set(df[df["winner_seat"] >= 0]["signatures0"]) == {0}


def test_replay_of_a_signature_match_equals_the_batch_row():
    from balance.games.imposter_kings.game import MAX_ROUNDS
    for options in ({}, {"signatures": "tournament"}):
        setup = GAME.make_setup(MODE, 2, [("random", {}), ("heuristic", {})], options=options)
        batch = GAME.simulate(setup, 9, 0, 4)
        for k in (0, 3):
            rows, events = GAME.traced(setup, 9, k)
            assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS]) and len(events) > 0
    assert any("Signature Card" in line or "draft" in line for line in GAME.transcript(setup, 9, 3))


def test_the_signature_setup_keeps_the_engines_contract():
    from tests.engine.test_game_contract import test_same_rows_whatever_threads_batches_and_resume_point as contract
    label, setup = next((label, s) for label, s in GAME.bench_setups() if s.mode == MODE)
    contract(GAME.name, label, setup)


# ---- the Flag Bearer (1): "If a Disgraced card is in the Court, may Disgrace this card to Recall once, then
# Rally twice; reveal the Rallied cards, then return one of them secretly to the Army." ------------------------
def sig_position(**kw):
    """A Signature step position at seat 0's turn (Armies: the five Army cards and the FIXED three)."""
    kw.setdefault("successors", {0: "Judge", 1: "Sentry"})
    kw.setdefault("dungeons", {0: "Warlord", 1: "Oathbound"})
    kw.setdefault("options", FIXED)
    return Position.build(mode=MODE, **kw)


FB_KW = dict(hands={0: ["Flag Bearer", "Fool"], 1: ["Zealot", "Mystic"]}, court=["Queen", "Soldier"], disgraced=[1],
             armies={0: ["Elder", "Soldier", "Judge"]}, exhausted={0: ["Oathbound", "Inquisitor"]})


def test_the_flag_bearer_without_a_disgraced_card_does_nothing():
    pos = sig_position(**dict(FB_KW, disgraced=[]))
    pos.apply("Flag Bearer")
    assert pos.turn == 1 and pos.phase == "turn" and pos.court()[-1] == "Flag Bearer"


def test_the_flag_bearer_may_be_declined():
    pos = sig_position(**FB_KW).apply("Flag Bearer")
    assert pos.pick_for == "Flag Bearer" and sorted(pos.legal()) == ["Flag Bearer", "no"]
    pos.apply("no")
    assert pos.turn == 1 and pos.court()[-1] == "Flag Bearer" and sorted(pos.exhausted(0)) == ["Inquisitor", "Oathbound"]


def test_the_flag_bearer_disgraces_itself_recalls_rallies_twice_reveals_and_returns_one_secretly():
    pos = sig_position(**FB_KW).play("Flag Bearer", "Flag Bearer")
    assert pos.court()[-1] == "Flag Bearer (disgraced)"  # "Disgrace this card"
    assert pos.pick_for == "Recall" and sorted(pos.legal()) == ["Inquisitor", "Oathbound"]  # "Recall once"
    pos.apply("Oathbound")
    assert pos.exhausted(0) == ["Inquisitor"] and sorted(pos.army(0)) == ["Elder", "Judge", "Oathbound", "Soldier"]
    assert pos.pick_for == "Rally"  # "then Rally twice"
    pos.apply("Oathbound")
    assert pos.pick_for == "Rally"
    pos.apply("Elder")
    assert sorted(pos.known(1)) == ["Elder", "Oathbound"]  # "reveal the Rallied cards"
    assert pos.pick_for == "Flag Bearer: return" and sorted(pos.legal()) == ["Elder", "Oathbound"]
    pos.apply("Elder")  # "then return one of them secretly to the Army"
    assert sorted(pos.hand(0)) == ["Fool", "Oathbound"] and sorted(pos.army(0)) == ["Elder", "Judge", "Soldier"]
    assert pos.army_taken(0) == ["Oathbound"] and pos.known(1) == []  # which one: secret
    assert pos.turn == 1


def test_the_flag_bearers_two_rallied_cards_of_one_type_leave_the_kept_one_known():
    pos = sig_position(**dict(FB_KW, armies={0: ["Elder", "Elder"]}, exhausted={0: []}))
    pos.play("Flag Bearer", "Flag Bearer", "Elder", "Elder", "Elder")  # no Exhausted card: the Recall is ignored
    assert pos.known(1) == ["Elder"] and pos.army(0) == ["Elder"] and pos.turn == 1


def test_the_flag_bearer_is_not_immune_to_the_kings_hand():
    kw = dict(FB_KW, hands={0: ["Flag Bearer", "Fool"], 1: ["King's Hand", "Mystic"]})
    pos = sig_position(**kw).play("Flag Bearer", "Flag Bearer")
    assert pos.phase == "King's Hand" and pos.decider == 1
    pos.apply("yes")
    assert pos.exhausted(0) == ["Inquisitor", "Oathbound"] and pos.army_taken(0) == [] and pos.turn == 0


# ---- the Ancestor (4, Immune to King's Hand): "May be played on any Royalty; if so, Recall, then you may
# reveal and remove a hand card to Rally. While in the Court, Elders have Steadfast and +3 value." -------------
ANC_KW = dict(hands={0: ["Ancestor", "Fool", "Elder"], 1: ["King's Hand", "Mystic"]}, court=["Soldier", "Queen"],
              armies={0: ["Soldier", "Judge"]}, exhausted={0: ["Oathbound", "Inquisitor"]})


def test_the_ancestor_may_be_played_on_any_royalty_then_recalls_and_may_remove_a_card_to_rally():
    pos = sig_position(**ANC_KW)
    assert "Ancestor" in pos.legal()  # a 4 onto the Queen's 9
    pos.apply("Ancestor")
    assert pos.phase != "King's Hand"  # Immune to King's Hand
    assert pos.pick_for == "Recall" and sorted(pos.legal()) == ["Inquisitor", "Oathbound"]
    pos.apply("Oathbound")
    assert pos.pick_for == "Ancestor: remove to Rally" and sorted(pos.legal()) == ["Elder", "Fool", "no"]
    pos.apply("Fool")
    assert pos.removed() == ["Fool"] and pos.pick_for == "Rally"  # "reveal and remove a hand card to Rally"
    pos.apply("Oathbound")
    assert sorted(pos.hand(0)) == ["Elder", "Oathbound"] and pos.army_taken(0) == ["Oathbound"] and pos.turn == 1


def test_the_ancestors_rally_may_be_declined_and_it_is_not_played_on_a_higher_non_royalty():
    pos = sig_position(**ANC_KW).play("Ancestor", "Oathbound", "no")
    assert sorted(pos.hand(0)) == ["Elder", "Fool"] and pos.turn == 1
    pos = sig_position(**dict(ANC_KW, court=["Queen", "Soldier"]))
    assert "Ancestor" not in pos.legal()
    pos = sig_position(**dict(ANC_KW, court=["Queen", "Elder"]))  # played normally (4 on 3): no "if so"
    pos.apply("Ancestor")
    assert pos.turn == 1 and pos.exhausted(0) == ["Inquisitor", "Oathbound"]


def test_the_ancestor_from_the_antechamber_onto_royalty_recalls_unless_the_option_says_hand_only():
    kw = dict(ANC_KW, hands={0: ["Fool"], 1: ["Zealot"]}, antechambers={0: ["Ancestor"]})
    assert sig_position(**kw).pick_for == "Recall"
    pos = sig_position(**dict(kw, options=dict(FIXED, ancestor_antechamber="hand_only")))
    assert pos.turn == 1 and pos.exhausted(0) == ["Inquisitor", "Oathbound"]


def test_while_the_ancestor_is_in_court_elders_are_worth_3_more_in_court_and_in_hand():
    kw = dict(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Ancestor", "Elder"])
    pos = sig_position(**kw)
    assert pos.court_values() == [4, 6]
    assert R.hand_value(pos.s, pos.cfg, L.ELDER) == 6
    pos = sig_position(**dict(kw, court=["Ancestor", "Oathbound"]))
    assert "Elder" in pos.legal()  # a 6 in hand onto the Oathbound's 6
    pos = sig_position(**dict(kw, options=dict(FIXED, ancestor_scope="court")))
    assert pos.court_values() == [4, 6] and R.hand_value(pos.s, pos.cfg, L.ELDER) == 3
    pos = sig_position(**dict(kw, court=["Ancestor", "Elder"], disgraced=[0]))
    assert pos.court_values() == [1, 3]  # a Disgraced Ancestor has no text


def test_the_ancestors_steadfast_elders_resist_the_immortal_and_the_mystic():
    kw = dict(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Ancestor", "Immortal", "Elder"])
    pos = sig_position(**kw)
    assert pos.court_values() == [4, 5, 6]  # not lowered, +3
    pos = sig_position(**dict(kw, court=["Immortal", "Elder"]))
    assert pos.court_values() == [5, 2]  # without the Ancestor: -1 (the Immortal)
    kw = dict(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Ancestor", "Elder"], muted=3)
    assert sig_position(**kw).court_values() == [4, 6]  # "Steadfast always beats Muted"
    mystic_wins = dict(FIXED, mystic_steadfast="mystic_wins")
    assert sig_position(**dict(kw, options=mystic_wins)).court_values() == [4, 3]
    assert sig_position(**dict(kw, muted=4)).court_values() == [3, 3]  # the Ancestor's own text is gone


# ---- the Informant (4, Immune to King's Hand): "Guess the card in an opponent's Dungeon; if right they
# reveal it and you either take it into your hand or Rally." ---------------------------------------------------
INF_KW = dict(hands={0: ["Informant", "Fool"], 1: ["King's Hand", "Mystic"]}, court=["Elder"],
              armies={0: ["Soldier", "Judge"]})


def test_the_informant_guesses_the_opponents_dungeon_card_wrong_nothing_happens():
    pos = sig_position(**INF_KW).apply("Informant")
    assert pos.phase != "King's Hand" and pos.pick_for == "Informant: guess"  # Immune to King's Hand
    assert "Oathbound" in pos.legal() and "Exile" in pos.legal()
    pos.apply("Warlord")
    assert pos.turn == 1 and pos.s[L.DUNGEON + 1] == L.OATHBOUND and pos.s[L.DUNGEON_SHOWN + 1] == 0


def test_the_informants_right_guess_reveals_it_and_the_card_is_taken_into_hand():
    pos = sig_position(**INF_KW).play("Informant", "Oathbound")
    assert pos.s[L.DUNGEON_SHOWN + 1] == 1  # "they reveal it"
    assert pos.pick_for == "Informant: take or Rally" and sorted(pos.legal()) == ["Oathbound", "yes"]
    pos.apply("Oathbound")
    assert sorted(pos.hand(0)) == ["Fool", "Oathbound"] and pos.known(1) == ["Oathbound"]
    assert pos.s[L.DUNGEON + 1] == -1 and pos.turn == 1


def test_the_informant_may_rally_instead_and_the_dungeon_card_stays_face_up_for_the_search():
    from tests.imposter_kings.test_search_modes import world_of
    pos = sig_position(**INF_KW).play("Informant", "Oathbound", "yes")
    assert pos.pick_for == "Rally"
    pos.apply("Judge")
    assert sorted(pos.hand(0)) == ["Fool", "Judge"] and pos.s[L.DUNGEON + 1] == L.OATHBOUND
    assert pos.turn == 1 and pos.decider == 1
    for seed in range(4):  # seat 1's worlds keep its own Dungeon; seat 0's (at its next decision) the face-up one
        assert world_of(pos.s, pos.cfg, seed)[L.DUNGEON + 1] == L.OATHBOUND
    pos.apply(pos.legal()[0])
    if pos.decider == 0 and not pos.over:
        for seed in range(4):
            assert world_of(pos.s, pos.cfg, seed)[L.DUNGEON + 1] == L.OATHBOUND


# ---- the Lockshift (5): "May make all other players reveal their Dungeon card; if so, every player puts their
# Dungeon card into their hand." (errata) ----------------------------------------------------------------------
LOCK_KW = dict(hands={0: ["Lockshift", "Fool"], 1: ["Zealot", "Mystic"]}, court=["Elder"])


def test_the_lockshift_may_be_declined():
    pos = sig_position(**LOCK_KW).apply("Lockshift")
    assert pos.pick_for == "Lockshift" and sorted(pos.legal()) == ["Lockshift", "no"]
    pos.apply("no")
    assert pos.s[L.DUNGEON] == L.WARLORD and pos.s[L.DUNGEON + 1] == L.OATHBOUND and pos.turn == 1


def test_the_lockshift_reveals_the_others_dungeon_cards_and_every_player_takes_theirs():
    pos = sig_position(**LOCK_KW).play("Lockshift", "Lockshift")
    assert sorted(pos.hand(0)) == ["Fool", "Warlord"] and sorted(pos.hand(1)) == ["Mystic", "Oathbound", "Zealot"]
    assert pos.known(0) == ["Oathbound"]  # revealed
    assert pos.known(1) == []  # the Lockshift player's own was not
    assert pos.s[L.DUNGEON] == pos.s[L.DUNGEON + 1] == -1 and pos.turn == 1


def test_the_lockshift_is_not_immune_to_the_kings_hand():
    pos = sig_position(**dict(LOCK_KW, hands={0: ["Lockshift", "Fool"], 1: ["King's Hand", "Mystic"]}))
    pos.play("Lockshift", "Lockshift")
    assert pos.phase == "King's Hand"
    pos.apply("yes")
    assert pos.s[L.DUNGEON] == L.WARLORD and pos.hand(0) == ["Fool"]


# ---- the heuristic uses the cards --------------------------------------------------------------------------
def test_the_heuristic_uses_the_flag_bearer_returns_the_lower_card_and_rallies_the_highest():
    from tests.imposter_kings.test_search_modes import search_pick
    pos = sig_position(**FB_KW).apply("Flag Bearer")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.FLAG_BEARER
    pos.apply("Flag Bearer")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.OATHBOUND  # Recall the highest
    pos.play("Oathbound")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.OATHBOUND  # Rally the highest
    pos.play("Oathbound", "Judge")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.JUDGE  # return the lower


def test_the_heuristic_uses_the_lockshift_for_a_strong_own_dungeon_card_only():
    from tests.imposter_kings.test_search_modes import search_pick
    pos = sig_position(**LOCK_KW).apply("Lockshift")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.LOCKSHIFT  # own Warlord (7)
    pos = sig_position(**dict(LOCK_KW, dungeons={0: "Fool", 1: "Oathbound"})).apply("Lockshift")
    assert search_pick(pos.s, pos.cfg, policy="heuristic", params={}) == L.ACT_NO
