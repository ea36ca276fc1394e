"""Fragments of Nersetti for 2 players, step 1: the Immortal (mode "immortal_step").

Rulebook ("Step 1: The Immortal"): "As long as she is in Court (and not Disgraced or removed), the
Immortal empowers the Warlord and weakens the Royalty and Elders: the Immortal and Warlord gain
Royalty, while the Queen, Princess and Elders lose 1 value and are Muted. She is also Steadfast, so
she can't be Muted or have her value lowered by other cards." Add the Immortal and a Warden to the
18-card deck (20 cards), deal 9 each, otherwise play as normal. Reference: Muted "loses all of its
card text, including Royalty and other keywords"; Steadfast "can't be Muted or have its value
lowered"; "Steadfast always beats Muted". FAQ on values: setting beats adding; its worked example
is test_the_faqs_worked_example_mystic_names_three_with_the_immortal_in_court.
"""

import numpy as np
import pytest

from balance.engine.game import SetupError
from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME, MAX_ROUNDS
from balance.games.imposter_kings.positions import Position
from tests.engine.test_game_contract import test_same_rows_whatever_threads_batches_and_resume_point as contract
from tests.imposter_kings.test_search_modes import search_pick, world_of

MODE = "immortal_step"
T = L.TYPES
SUCCESSORS = {0: "Judge", 1: "Sentry"}


def P(**kw):
    kw.setdefault("successors", SUCCESSORS)
    return Position.build(mode=MODE, **kw)


def hand_value(pos, name, seat=0):
    return int(R.hand_value(pos.s, pos.cfg, seat, L.type_of(name)))


# ---- the deal --------------------------------------------------------------------------------------
def test_the_deck_is_the_2p_fon_decklists_20_cards_nine_each_accused_and_unused():
    assert L.IMMORTAL_STEP_DECK.sum() == 20
    assert np.array_equal(L.IMMORTAL_STEP_DECK - L.FULL_DECK, np.eye(T, dtype=np.int64)[L.IMMORTAL]
                          + np.eye(T, dtype=np.int64)[L.WARDEN])
    seen_immortal = set()
    for seed in range(12):
        pos = Position.deal(MODE, seed=seed)
        assert len(pos.hand(0)) == len(pos.hand(1)) == 9
        assert pos.s[L.ACCUSED] >= 0 and pos.s[L.UNUSED] >= 0  # 20 - 18 = 2 left: Accused + unused
        assert np.array_equal(pos.card_counts(), L.IMMORTAL_STEP_DECK)
        assert pos.phase == "first player"
        seen_immortal |= {p for p in range(2) if "Immortal" in pos.hand(p)}
    assert seen_immortal == {0, 1}


# ---- her own value, Royalty, Steadfast -----------------------------------------------------------
def test_the_immortal_is_a_six_in_hand_and_a_five_in_court():
    pos = P(hands={0: ["Immortal", "Fool"], 1: ["Elder"]}, court=["Oathbound"])
    assert hand_value(pos, "Immortal") == 6 and "Immortal" in pos.legal()  # 6 on a 6
    pos.apply("Immortal")
    assert pos.court_values() == [6, 5] and pos.throne_value == 5


def test_the_immortal_and_the_warlord_gain_royalty_the_warlord_is_8_in_hand_and_9_played():
    pos = P(hands={0: ["Warlord", "Fool"], 1: ["Elder"]}, court=["Immortal", "Sentry"])
    assert hand_value(pos, "Warlord") == 8 and "Warlord" in pos.legal()  # an 8 on the Sentry's 8
    pos.apply("Warlord")
    assert pos.court_values() == [5, 8, 9]
    without = P(hands={0: ["Warlord", "Fool"], 1: ["Elder"]}, court=["Soldier", "Sentry"])
    assert hand_value(without, "Warlord") == 7 and "Warlord" not in without.legal()


def test_the_zealot_may_not_go_onto_the_immortal_or_a_warlord_she_makes_royalty():
    for court in (["Immortal"], ["Immortal", "Warlord"]):
        pos = P(hands={0: ["Zealot", "Fool"], 1: ["Elder"]}, court=court, flipped={0: True})
        assert "Zealot" not in pos.legal()
    plain = P(hands={0: ["Zealot", "Fool"], 1: ["Elder"]}, court=["Soldier", "Warlord"], flipped={0: True})
    assert "Zealot" in plain.legal()  # a Warlord without the Immortal is no Royalty


def test_an_elder_unmuted_in_hand_may_go_onto_the_immortal_or_her_warlord_as_royalty():
    court_only = {"immortal_scope": "court"}
    for court in (["Immortal"], ["Immortal", "Warlord"]):
        pos = P(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=court, options=court_only)
        assert "Elder" in pos.legal()
    # by default the Immortal Mutes the Elder in hand too: no permission, and it is a 2
    pos = P(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Immortal"])
    assert "Elder" not in pos.legal() and hand_value(pos, "Elder") == 2
    # the Sentry may not pick her: she is Royalty
    sentry = P(hands={0: ["Sentry", "Fool"], 1: ["Zealot"]}, court=["Immortal", "Elder"])
    sentry.apply("Sentry")
    assert sentry.legal() == [1, "no"]  # the Elder (index 1), not the Immortal (index 0)


# ---- the Queen, Princess and Elders: -1 and Muted ------------------------------------------------
def test_queen_princess_and_elders_lose_one_value_in_court():
    pos = P(hands={0: ["Fool"], 1: ["Zealot"]}, court=["Immortal", "Elder", "Princess", "Queen"])
    assert pos.court_values() == [5, 2, 8, 8]
    gone = P(hands={0: ["Fool"], 1: ["Zealot"]}, court=["Immortal", "Elder", "Princess", "Queen"], disgraced=[0])
    assert gone.court_values() == [1, 3, 9, 9]  # a Disgraced Immortal has no effect


def test_in_hand_they_lose_one_value_too_by_default_and_not_with_the_court_only_reading():
    court = ["Immortal", "Warlord"]  # a 9 (Royalty from the Immortal)
    pos = P(hands={0: ["Queen", "Princess", "Fool"], 1: ["Zealot"]}, court=court)
    assert hand_value(pos, "Queen") == hand_value(pos, "Princess") == 8
    assert pos.legal() == ["flip"]
    pos = P(hands={0: ["Queen", "Princess", "Fool"], 1: ["Zealot"]}, court=court,
            options={"immortal_scope": "court"})
    assert hand_value(pos, "Queen") == 9 and pos.legal() == ["Princess", "Queen", "flip"]
    pos = P(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Zealot"])  # no Immortal: an Elder is a 3
    assert hand_value(pos, "Elder") == 3 and "Elder" in pos.legal()
    pos = P(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Immortal", "Zealot"])
    assert hand_value(pos, "Elder") == 2 and "Elder" not in pos.legal()


def test_a_muted_queen_or_princess_is_no_royalty_the_elder_may_not_go_onto_it_and_the_sentry_may_pick_it():
    court_only = {"immortal_scope": "court"}  # the Elder keeps its text in hand
    pos = P(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Immortal", "Queen"], options=court_only)
    assert "Elder" not in pos.legal()
    plain = P(hands={0: ["Elder", "Fool"], 1: ["Zealot"]}, court=["Soldier", "Queen"], options=court_only)
    assert "Elder" in plain.legal()
    sentry = P(hands={0: ["Sentry", "Fool"], 1: ["Zealot"]}, court=["Princess", "Immortal"])
    sentry.apply("Sentry")
    assert sentry.legal() == [0, "no"]  # the Muted Princess is no Royalty (the Immortal is)
    sentry = P(hands={0: ["Sentry", "Fool"], 1: ["Zealot"]}, court=["Princess", "Soldier"])
    sentry.apply("Sentry")
    assert sentry.legal() == [1, "no"]


def test_a_queen_played_while_she_is_in_court_is_muted_on_arrival_or_by_option_acts_first():
    hands = {0: ["Queen", "Fool"], 1: ["Zealot"]}
    pos = P(hands=hands, court=["Fool", "Immortal"])
    pos.apply("Queen")
    assert pos.court() == ["Fool", "Immortal", "Queen"] and pos.court_values() == [1, 5, 8] and pos.turn == 1
    first = P(hands=hands, court=["Fool", "Immortal"], options={"immortal_arrival": "ability_first"})
    first.apply("Queen")
    assert first.court() == ["Fool (disgraced)", "Immortal (disgraced)", "Queen"]
    assert first.court_values() == [1, 1, 9]  # her Mute ends with her


def test_a_princess_played_while_she_is_in_court_has_no_ability_by_default():
    hands = {0: ["Princess", "Fool"], 1: ["Zealot", "Elder"]}
    pos = P(hands=hands, court=["Immortal"])
    pos.apply("Princess")
    assert pos.phase == "turn" and pos.decider == 1
    first = P(hands=hands, court=["Immortal"], options={"immortal_arrival": "ability_first"})
    first.apply("Princess")
    assert first.phase == "Princess" and first.decider == 0


def test_once_she_leaves_the_court_her_effect_ends():
    # a Fool from the Antechamber takes the Immortal back into hand: the Elder is a 3 again
    pos = P(hands={0: ["Queen"], 1: ["Zealot"]}, antechambers={0: ["Fool"]}, court=["Immortal", "Elder"])
    assert pos.phase == "Fool"
    pos.apply(0)
    assert pos.court() == ["Elder", "Fool"] and pos.court_values() == [3, 1]
    assert "Immortal" in pos.hand(0) and hand_value(pos, "Queen") == 9


# ---- Steadfast against the Mystic -----------------------------------------------------------------
def test_steadfast_the_mystic_naming_six_leaves_the_immortal_her_text_and_value_by_default():
    pos = P(hands={0: ["Fool"], 1: ["Zealot"]}, court=["Oathbound", "Immortal", "Warlord"], muted=6)
    assert pos.court_values() == [3, 5, 9]  # the Oathbound is a 3; she keeps her 5 and the Warlord's Royalty
    mystic_wins = P(hands={0: ["Fool"], 1: ["Zealot"]}, court=["Oathbound", "Immortal", "Warlord"], muted=6,
                    options={"mystic_steadfast": "mystic_wins"})
    assert mystic_wins.court_values() == [3, 3, 7]


def test_the_mystic_naming_nine_mutes_the_queen_whose_value_is_set_to_three():
    pos = P(hands={0: ["Fool"], 1: ["Zealot"]}, court=["Immortal", "Queen"], muted=9)
    assert pos.court_values() == [5, 3]  # setting beats the -1


def test_the_faqs_worked_example_mystic_names_three_with_the_immortal_in_court():
    """"A Mystic names 3 while the Immortal is in Court. In your hand, an Elder has a value of 2 (the
    Immortal gives it -1). Once played, the Mystic sets its value to 3, which overrides the -1, so
    the Elder is a 3 in Court.\""""
    pos = P(hands={0: ["Mystic", "Fool"], 1: ["Elder", "Zealot"]}, court=["Soldier", "Immortal"], disgraced=[0])
    pos.play("Mystic", 3)
    assert pos.court() == ["Soldier (disgraced)", "Immortal", "Mystic (disgraced)"] and pos.turn == 1
    assert hand_value(pos, "Elder") == 2
    pos.apply("Elder")
    assert pos.court_values()[-1] == 3


# ---- the Warden, a 3-4 player card the step adds ----------------------------------------------------
def test_the_warden_exchanges_a_hand_card_with_the_accused_in_the_two_player_game():
    pos = P(hands={0: ["Warden", "Fool", "Elder"], 1: ["Zealot", "Soldier"]},
            court=["Fool", "Inquisitor", "Soldier"], accused="Immortal")
    pos.play("Warden", "yes")
    assert pos.pick_for == "Warden: give" and pos.legal() == ["Fool", "Elder"]
    pos.apply("Elder")
    assert sorted(pos.hand(0)) == ["Fool", "Immortal"] and pos.s[L.ACCUSED] == L.ELDER
    assert pos.known(1) == ["Immortal"]  # taken in plain sight
    short = P(hands={0: ["Warden", "Fool"], 1: ["Zealot"]}, court=["Inquisitor", "Soldier"])
    short.apply("Warden")  # three face-up cards with the Warden: no ability
    assert short.phase == "turn" and short.decider == 1


# ---- setup and play ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options, key", [({"first_player": "seat2"}, "options.first_player"),
                                          ({"immortal_scope": "deck"}, "setup.options.immortal_scope"),
                                          ({"immortal_arrival": "never"}, "setup.options.immortal_arrival"),
                                          ({"mystic_steadfast": "maybe"}, "setup.options.mystic_steadfast")])
def test_bad_immortal_options_name_their_key(options, key):
    with pytest.raises(SetupError) as err:
        GAME.make_setup(MODE, 2, "heuristic", options=options)
    assert err.value.key == key


def test_random_rounds_conserve_the_20_cards_and_score_as_the_full_game():
    for seed in range(40):
        stream = new_stream(seed, 7)
        pos = Position.deal(MODE, seed=seed, true_king=seed % 2)
        while pos.phase_code not in (L.PH_ROUND_OVER, L.PH_REDEAL):
            legal = pos.legal_codes()
            assert legal, pos.describe()
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
            assert np.array_equal(pos.card_counts(), L.IMMORTAL_STEP_DECK), pos.describe()
        if pos.over and pos.winner >= 0:
            loser = 1 - pos.winner
            assert pos.points == 1 + (not pos.flipped(pos.winner)) + (len(pos.hand(loser)) > 0
                                                                      or pos.successor(loser) is not None)


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "search"])
def test_every_policy_plays_immortal_matches_to_their_end(policy):
    seats = [(policy, {"rollouts": 2} if policy == "search" else {}), ("heuristic", {})]
    setup = GAME.make_setup(MODE, 2, seats, max_length=24 if policy != "search" else 2)
    df = GAME.frame(setup, GAME.simulate(setup, 3, 0, 8 if policy != "search" else 2))
    assert (df["capped"] == 0).all() and (df["decided"].sum() > 0)
    if policy != "search":
        assert (df.groupby("game")["match_winner"].max() >= 0).all()


def test_replay_of_an_immortal_match_equals_the_batch_row():
    setup = GAME.make_setup(MODE, 2, [("random", {}), ("heuristic", {})])
    batch = GAME.simulate(setup, 9, 0, 6)
    for k in (0, 5):
        rows, events = GAME.traced(setup, 9, k)
        assert np.array_equal(rows, batch[k * MAX_ROUNDS:(k + 1) * MAX_ROUNDS]) and len(events) > 0
    assert any("Immortal" in line for line in GAME.transcript(setup, 9, 5))


def test_the_immortal_setup_keeps_the_engines_contract():
    label, setup = next((label, s) for label, s in GAME.bench_setups() if s.mode == MODE)
    contract(GAME.name, label, setup)


# ---- the search deals the 20-card deck from its view only ----------------------------------------------
IMMORTAL_POS = dict(
    mode=MODE, turn=0, court=["Elder", "Soldier"], accused="Warden", unused="Fool", removed=["Soldier"],
    hands={0: ["Inquisitor", "Oathbound", "Warlord", "Princess", "Zealot"],
           1: ["Assassin", "Judge", "Mystic", "Immortal", "Queen", "Inquisitor"]},
    successors={0: "King's Hand", 1: "Sentry"}, dungeons={0: "Elder", 1: "Oathbound"}, known={0: ["Mystic"]})
# The same view for seat 0: seat 1's Immortal and its Dungeon Oathbound, and its Judge and the unused
# Fool, change places.
IMMORTAL_HIDDEN_MOVED = dict(IMMORTAL_POS, unused="Judge", dungeons={0: "Elder", 1: "Immortal"},
                             hands={0: IMMORTAL_POS["hands"][0],
                                    1: ["Assassin", "Fool", "Mystic", "Oathbound", "Queen", "Inquisitor"]})


def test_the_search_deals_the_20_cards_and_decides_from_its_view_only():
    a, b = Position.build(**IMMORTAL_POS), Position.build(**IMMORTAL_HIDDEN_MOVED)
    assert a.phase_code == L.PH_TURN and a.decider == 0
    assert np.array_equal(a.card_counts(), L.IMMORTAL_STEP_DECK) and np.array_equal(b.card_counts(),
                                                                                     L.IMMORTAL_STEP_DECK)
    assert not np.array_equal(a.s, b.s)
    worlds = [world_of(a.s, a.cfg, seed) for seed in range(12)]
    assert all(np.array_equal(R.count_cards(w), L.IMMORTAL_STEP_DECK) for w in worlds)
    assert all(w[L.HAND + T + L.MYSTIC] >= 1 and w[L.HAND + T:L.HAND + 2 * T].sum() == 6 for w in worlds)
    assert len({w[L.HAND + T:L.HAND + 2 * T].tobytes() for w in worlds}) > 1
    assert any(w[L.HAND + T + L.IMMORTAL] == 0 for w in worlds)  # she may be dealt to a hidden place
    assert np.array_equal(world_of(a.s, a.cfg), world_of(b.s, b.cfg))
    for seed in range(3):
        assert search_pick(a.s, a.cfg, seed) == search_pick(b.s, b.cfg, seed)
