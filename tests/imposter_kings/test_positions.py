"""Scripted positions: every card, keyword and FAQ answer of the 2-player base game.

All positions go through balance.games.imposter_kings.positions, i.e. the compiled rules
functions the batch kernel runs.
"""

import pytest

from balance.engine.game import SetupError
from balance.games.imposter_kings.positions import Position

P = Position.build


# ---- the basic turn --------------------------------------------------------------------------
def test_first_player_may_play_any_card_and_cannot_flip_on_an_empty_court():
    pos = P(hands={0: ["Fool", "Queen"], 1: ["Elder"]}, successors={0: "Soldier", 1: "Judge"})
    assert pos.phase == "turn" and pos.decider == 0
    assert pos.legal() == ["Fool", "Queen"]


def test_a_card_must_be_equal_or_higher_than_the_throne():
    pos = P(hands={0: ["Elder", "Inquisitor", "Soldier"], 1: ["Fool"]}, court=["Inquisitor"],
            successors={0: "Queen", 1: "Judge"})
    assert pos.legal() == ["Inquisitor", "Soldier", "flip"]


def test_a_player_who_cannot_take_a_turn_loses_and_scoring_counts_king_and_cards_left():
    # Seat 1 has only a Fool on a 9 and its King is already flipped: it loses the round.
    pos = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Queen"], flipped={1: True}, successors={0: "Soldier"},
            turn=1)
    assert pos.over and pos.winner == 0
    assert pos.points == 3  # 1 + own King face up + opponent still has a card
    assert pos.score(0) == 3


def test_scoring_without_bonuses():
    pos = P(hands={0: [], 1: []}, court=["Queen"], flipped={0: True, 1: True}, turn=1)
    assert pos.over and pos.winner == 0 and pos.points == 1


def test_learning_modes_score_one_point():
    pos = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Queen"], flipped={1: True}, turn=1, mode="quickplay",
            accused="Assassin")
    assert pos.over and pos.points == 1


# ---- King, Successor, Assassin ------------------------------------------------------------------
def test_flipping_the_king_disgraces_the_throne_and_takes_the_successor():
    pos = P(hands={0: ["Fool"], 1: ["Elder"]}, court=["Queen"], successors={0: "Soldier", 1: "Judge"})
    pos.apply("flip")
    assert pos.court() == ["Queen (disgraced)"] and pos.throne_value == 1
    assert sorted(pos.hand(0)) == ["Fool", "Soldier"] and pos.successor(0) is None
    assert pos.flipped(0) and pos.turn == 1
    # the King flips once per round
    pos.apply("Elder")
    assert "flip" not in pos.legal()


def test_flip_on_a_disgraced_throne_just_takes_the_successor():
    pos = P(hands={0: ["Fool"], 1: ["Elder"]}, court=["Queen"], disgraced=[0], successors={0: "Soldier"})
    pos.apply("flip")
    assert pos.court() == ["Queen (disgraced)"] and "Soldier" in pos.hand(0)


def test_assassin_reacts_to_a_king_flip_and_the_flipper_loses_keeping_the_successor_bonus():
    # FAQ: assassinated with no cards in hand, the Successor was never taken, so the bonus point counts.
    pos = P(hands={0: [], 1: ["Assassin", "Elder"]}, court=["Queen"], successors={0: "Soldier", 1: "Judge"})
    pos.apply("flip")
    assert pos.phase == "Assassin" and pos.decider == 1
    pos.apply("yes")
    assert pos.over and pos.winner == 1
    assert pos.points == 3  # 1 + King face up + the flipper still has a Successor
    assert pos.successor(0) == "Soldier"


def test_assassin_may_decline():
    pos = P(hands={0: ["Fool"], 1: ["Assassin"]}, court=["Queen"], successors={0: "Soldier"})
    pos.play("flip", "no")
    assert not pos.over and "Soldier" in pos.hand(0) and pos.turn == 1


def test_assassin_played_normally_or_from_the_antechamber_is_a_plain_two():
    pos = P(hands={0: ["Elder"], 1: ["Queen"]}, antechambers={0: ["Assassin"]}, court=["Queen"],
            successors={1: "Fool"})
    assert pos.court() == ["Queen", "Assassin"] and pos.throne_value == 2 and pos.turn == 1
    pos.apply("flip")  # seat 0 holds no Assassin in hand: nothing to react with
    assert pos.turn == 0 and "Fool" in pos.hand(1)


def test_the_mystic_naming_two_cancels_the_assassin():
    # Rulebook tip: "the Mystic to cancel her ability (by naming 2)"; FAQ: it affects cards everywhere.
    pos = P(hands={0: ["Fool"], 1: ["Assassin"]}, court=["Queen"], successors={0: "Soldier"}, muted=2)
    pos.apply("flip")
    assert not pos.over and "Soldier" in pos.hand(0)
    court_only = P(hands={0: ["Fool"], 1: ["Assassin"]}, court=["Queen"], successors={0: "Soldier"}, muted=2,
                   options={"mystic_scope": "court"})
    court_only.apply("flip")
    assert court_only.phase == "Assassin"


def test_kings_hand_cannot_react_to_a_king_flip_but_can_counter_the_assassin():
    pos = P(hands={0: ["King's Hand"], 1: ["Assassin", "Elder"]}, court=["Queen"], successors={0: "Soldier"})
    pos.apply("flip")
    assert pos.phase == "Assassin"
    pos.apply("yes")
    assert pos.phase == "King's Hand" and pos.decider == 0
    pos.apply("yes")
    # both Condemned; the flip goes ahead. Seat 1's turn: it must remove its Condemned Assassin;
    # then seat 0 removes its King's Hand as its turn; then seat 1 plays.
    assert not pos.over and "Soldier" in pos.hand(0) and pos.court() == ["Queen (disgraced)"]
    assert pos.condemned(1) is None and pos.condemned(0) is None and pos.s[pos_index("PLIES")] == 3
    assert sorted(pos.removed()) == ["Assassin", "King's Hand"]
    assert pos.phase == "turn" and pos.decider == 1


def test_kings_hand_never_offered_on_a_flip_without_assassin():
    pos = P(hands={0: ["Fool"], 1: ["King's Hand"]}, court=["Queen"], successors={0: "Soldier"})
    pos.apply("flip")
    assert pos.phase == "turn" and pos.decider == 1


# ---- Fool ------------------------------------------------------------------------------------
def test_fool_takes_a_face_up_court_card_but_not_itself_nor_disgraced_ones():
    pos = P(hands={0: ["Fool", "Elder"], 1: ["Queen"]}, court=["Queen", "Soldier", "Elder"], disgraced=[1, 2])
    pos.apply("Fool")
    assert pos.phase == "Fool" and pos.legal() == [0, "no"]
    pos.apply(0)
    assert pos.court() == ["Soldier (disgraced)", "Elder (disgraced)", "Fool"]
    assert "Queen" in pos.hand(0) and pos.known(1) == ["Queen"]


def test_fool_must_be_played_by_value():
    pos = P(hands={0: ["Fool"], 1: ["Queen"]}, court=["Elder"], flipped={0: True})
    assert pos.over and pos.winner == 1


# ---- Elder, Zealot ---------------------------------------------------------------------------
def test_elder_on_royalty_only():
    assert "Elder" in P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Princess"]).legal()
    assert "Elder" not in P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Mystic"]).legal()
    assert P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Queen"], disgraced=[0]).legal() == ["Elder", "flip"]


def test_zealot_needs_own_king_flipped_and_a_non_royal_throne():
    assert "Zealot" not in P(hands={0: ["Zealot"], 1: ["Fool"]}, court=["Sentry"]).legal()
    assert "Zealot" in P(hands={0: ["Zealot"], 1: ["Fool"]}, court=["Sentry"], flipped={0: True}).legal()
    assert "Zealot" not in P(hands={0: ["Zealot"], 1: ["Fool"]}, court=["Queen"], flipped={0: True}).legal()


# ---- Inquisitor, Antechamber -------------------------------------------------------------------
def test_inquisitor_correct_guess_sends_the_card_to_the_antechamber_played_next_ignoring_values():
    pos = P(hands={0: ["Inquisitor", "Elder"], 1: ["Fool", "Queen"]}, court=["Elder"])
    pos.play("Inquisitor", "Fool")
    # seat 1 must play the Fool from the Antechamber onto the 4, and its ability still happens
    assert pos.hand(1) == ["Queen"]
    assert pos.court() == ["Elder", "Inquisitor", "Fool"] and pos.phase == "Fool" and pos.decider == 1
    pos.apply(1)
    assert sorted(pos.hand(1)) == ["Inquisitor", "Queen"]


def test_inquisitor_wrong_guess_does_nothing():
    pos = P(hands={0: ["Inquisitor", "Elder"], 1: ["Queen"]}, court=["Elder"])
    pos.play("Inquisitor", "Fool")
    assert pos.phase == "turn" and pos.decider == 1 and pos.antechamber(1) == []


def test_condemned_card_comes_before_the_antechamber():
    pos = P(hands={0: ["Elder"], 1: ["Queen"]}, condemned={0: "King's Hand"}, antechambers={0: ["Fool"]},
            court=["Soldier"])
    assert pos.removed() == ["King's Hand"] and pos.turn == 1 and pos.antechamber(0) == ["Fool"]
    pos.apply("Queen")
    assert pos.court()[-1] == "Fool"


# ---- Soldier, value precedence --------------------------------------------------------------
def test_soldier_correct_guess_gains_two_and_may_disgrace_up_to_three_including_itself():
    pos = P(hands={0: ["Soldier", "Elder"], 1: ["Warlord", "Fool"]}, court=["Fool", "Elder", "Inquisitor", "Judge"],
            accused="Assassin")
    pos.play("Soldier", "Warlord")
    assert pos.phase == "Soldier disgraces" and pos.throne_value == 7
    pos.play(0, 1, 2)  # three, then the ability is spent
    assert pos.turn == 1 and pos.court()[:3] == ["Fool (disgraced)", "Elder (disgraced)", "Inquisitor (disgraced)"]
    assert pos.throne_value == 7
    self_disgrace = P(hands={0: ["Soldier", "Elder"], 1: ["Warlord"]}, court=["Fool"])
    self_disgrace.play("Soldier", "Warlord", 1)  # FAQ: the Soldier may Disgrace itself
    assert self_disgrace.throne_value == 1


def test_soldier_wrong_guess_no_bonus():
    pos = P(hands={0: ["Soldier", "Elder"], 1: ["Warlord"]}, court=["Fool"])
    pos.play("Soldier", "Queen")
    assert pos.throne_value == 5 and pos.turn == 1


def test_setting_beats_adding_mystic_on_five_overrides_the_soldiers_bonus():
    pos = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Mystic", "Soldier"], disgraced=[0], soldier_bonus=[1],
            muted=5)
    assert pos.throne_value == 3
    plain = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Soldier"], soldier_bonus=[0])
    assert plain.throne_value == 7


# ---- Judge -----------------------------------------------------------------------------------
def test_judge_correct_guess_puts_a_card_of_base_two_or_more_in_own_antechamber():
    pos = P(hands={0: ["Judge", "Fool", "Assassin", "Elder"], 1: ["Queen", "Princess"]}, court=["Elder"])
    pos.play("Judge", "Queen")
    assert pos.legal() == ["Assassin", "Elder", "no"]  # the Fool (base 1) is not allowed
    pos.apply("Assassin")
    pos.apply("Queen")  # seat 1 plays on the Judge
    # seat 0 must now play the Assassin from its Antechamber onto the Queen, ignoring values
    assert pos.court()[-1] == "Assassin" and pos.turn == 1


# ---- Oathbound -------------------------------------------------------------------------------
def test_oathbound_on_a_higher_card_disgraces_it_and_the_follow_up_uses_its_ability():
    pos = P(hands={0: ["Oathbound", "Inquisitor", "Elder"], 1: ["Fool", "King's Hand"]}, court=["Queen"])
    assert "Oathbound" in pos.legal()
    pos.apply("Oathbound")
    assert pos.phase == "Oathbound follow-up" and pos.court() == ["Queen (disgraced)", "Oathbound"]
    pos.play("Inquisitor", "Fool")
    # the follow-up is Immune to King's Hand: no reaction offered; the named Fool went to seat 1's
    # Antechamber, so seat 1 now plays it and chooses what it takes
    assert pos.court() == ["Queen (disgraced)", "Oathbound", "Inquisitor", "Fool"]
    assert pos.phase == "Fool" and pos.decider == 1 and pos.hand(1) == ["King's Hand"]


def test_oathbound_cannot_be_the_last_card_on_a_higher_throne():
    pos = P(hands={0: ["Oathbound"], 1: ["Fool"]}, court=["Mystic"])
    assert pos.legal() == ["flip"]


def test_oathbound_from_the_antechamber_has_no_ability():
    pos = P(hands={0: ["Elder"], 1: ["Fool"]}, antechambers={0: ["Oathbound"]}, court=["Queen"])
    assert pos.court() == ["Queen", "Oathbound"] and pos.turn == 1


def test_oathbound_played_on_a_lower_card_does_nothing():
    pos = P(hands={0: ["Oathbound", "Elder"], 1: ["Fool"]}, court=["Soldier"])
    pos.apply("Oathbound")
    assert pos.court() == ["Soldier", "Oathbound"] and pos.turn == 1


# ---- Mystic ----------------------------------------------------------------------------------
def test_mystic_needs_a_disgraced_card_and_makes_named_cards_worth_three_once_played():
    assert P(hands={0: ["Mystic", "Elder"], 1: ["Sentry"]}, court=["Soldier"]).play("Mystic").turn == 1
    pos = P(hands={0: ["Mystic", "Elder"], 1: ["Sentry", "Elder"]}, court=["Soldier"], disgraced=[0])
    pos.play("Mystic", 8)
    assert pos.court() == ["Soldier (disgraced)", "Mystic (disgraced)"] and pos.turn == 1
    # FAQ: with 8 named, the opponent may still play an 8 on cards higher than 3 (value in hand 8) ...
    pos.apply("Sentry")
    assert pos.throne_value == 3  # ... and once played it is a 3 without its text
    assert pos.turn == 0 and "Elder" in pos.legal()


# ---- Warlord ---------------------------------------------------------------------------------
def test_warlord_faq():
    # Cannot be played on a Royalty card (8 in hand < 9).
    assert "Warlord" not in P(hands={0: ["Warlord"], 1: ["Fool"]}, court=["Queen"]).legal()
    # With Royalty in Court it may be played on an 8 and becomes a 9.
    pos = P(hands={0: ["Warlord"], 1: ["Fool"]}, court=["Princess", "Sentry"])
    pos.apply("Warlord")
    assert pos.throne_value == 9
    # Disgraced Royalty does not count.
    assert "Warlord" not in P(hands={0: ["Warlord"], 1: ["Fool"]}, court=["Princess", "Sentry"],
                              disgraced=[0]).legal()


# ---- King's Hand -------------------------------------------------------------------------------
def test_kings_hand_counters_the_fool_as_in_the_rulebook_example():
    pos = P(hands={0: ["Fool", "Elder"], 1: ["King's Hand", "Queen"]}, court=["Soldier", "Queen"], disgraced=[1])
    pos.play("Fool", 0)
    assert pos.phase == "King's Hand" and pos.decider == 1
    pos.apply("yes")
    # The Fool is removed at once and the turn ends; seat 1 removes its Condemned King's Hand as its turn;
    # then it is seat 0's turn again, as if the Fool had never been played.
    assert pos.removed() == ["Fool", "King's Hand"] and pos.court() == ["Soldier", "Queen (disgraced)"]
    assert pos.phase == "turn" and pos.decider == 0 and pos.hand(0) == ["Elder"]


def test_kings_hand_cannot_stop_the_queen():
    pos = P(hands={0: ["Queen", "Elder"], 1: ["King's Hand"]}, court=["Soldier", "Mystic"])
    pos.apply("Queen")
    assert pos.court() == ["Soldier (disgraced)", "Mystic (disgraced)", "Queen"] and pos.phase == "turn"


def test_kings_hand_stops_the_princess_only_when_her_owner_uses_her():
    pos = P(hands={0: ["Princess", "Fool"], 1: ["King's Hand", "Elder"]}, court=["Soldier"])
    pos.play("Princess", "yes")
    assert pos.phase == "King's Hand"
    pos.apply("yes")
    assert "Princess" in pos.removed()
    declined = P(hands={0: ["Princess", "Fool"], 1: ["King's Hand", "Elder"]}, court=["Soldier"])
    declined.play("Princess", "no")
    assert declined.phase == "turn" and declined.decider == 1


def test_kings_hand_muted_by_the_mystic_cannot_react():
    hands = {0: ["Inquisitor", "Elder"], 1: ["King's Hand", "Fool"]}
    assert P(hands=hands, court=["Elder"]).play("Inquisitor", "Fool").phase == "King's Hand"
    pos = P(hands=hands, court=["Elder"], muted=8)
    pos.play("Inquisitor", "Fool")
    assert pos.phase == "Fool" and pos.court() == ["Elder", "Inquisitor", "Fool"]


def test_kings_hand_counters_a_soldiers_guess():
    pos = P(hands={0: ["Soldier", "Elder"], 1: ["King's Hand", "Warlord"]}, court=["Fool"])
    pos.play("Soldier", "Warlord")
    assert pos.phase == "King's Hand"
    pos.apply("no")
    assert pos.phase == "Soldier disgraces"


# ---- Sentry, Princess, Queen ----------------------------------------------------------------
def test_sentry_exchanges_a_face_up_non_royal_court_card_in_place():
    pos = P(hands={0: ["Sentry", "Fool"], 1: ["Queen"]}, court=["Princess", "Warlord", "Judge"], disgraced=[2])
    pos.apply("Sentry")
    assert pos.legal() == [1, "no"]  # not the Princess (Royalty), not a Disgraced card, not itself
    pos.play(1, "Fool")
    assert pos.court() == ["Princess", "Fool", "Judge (disgraced)", "Sentry (disgraced)"]
    assert pos.hand(0) == ["Warlord"] and pos.throne_value == 1


def test_princess_needs_a_card_in_each_hand():
    pos = P(hands={0: ["Princess"], 1: ["Queen"]}, court=["Soldier"])
    pos.apply("Princess")
    assert pos.turn == 1 and pos.phase == "turn"  # no card left to swap: no ability


def test_princess_swap():
    pos = P(hands={0: ["Princess", "Fool"], 1: ["Queen", "Elder"]}, court=["Soldier"])
    pos.play("Princess", "yes", "Fool", "Queen")
    assert pos.hand(0) == ["Queen"] and sorted(pos.hand(1)) == ["Elder", "Fool"]
    assert pos.known(0) == ["Fool"] and pos.known(1) == ["Queen"]


def test_queen_disgraces_all_other_cards():
    pos = P(hands={0: ["Queen", "Fool"], 1: ["Elder"]}, court=["Soldier", "Mystic", "Sentry"])
    pos.apply("Queen")
    assert pos.court_values() == [1, 1, 1, 9]


# ---- setup: first player, mulligans, Successor and Dungeon -----------------------------------------
def test_true_king_chooses_first_then_mulligans_successor_and_dungeon_in_order():
    pos = Position.deal("full", seed=3, true_king=1)
    assert pos.phase == "first player" and pos.decider == 1
    pos.apply("no")  # seat 1 lets seat 0 go first
    assert pos.phase == "mulligan" and pos.decider == 0
    pos.apply("no")
    assert pos.phase == "Successor" and pos.decider == 0
    pos.apply(pos.legal()[0])
    assert pos.phase == "Dungeon" and pos.decider == 0
    pos.apply(pos.legal()[0])
    assert pos.phase == "mulligan" and pos.decider == 1
    pos.apply("no")
    pos.apply(pos.legal()[0])
    pos.apply(pos.legal()[0])
    assert pos.phase == "turn" and pos.decider == 0 and len(pos.hand(0)) == 6 and len(pos.hand(1)) == 6


def test_mulligans_first_free_then_costly():
    pos = Position.deal("full", seed=3, true_king=1)
    pos.play("yes", "yes")  # seat 1 goes first and calls its free mulligan
    assert pos.phase == "redeal" and pos.score(0) == 0 and pos.s[pos_index("TRUE_KING")] == 1
    pos2 = Position.deal("full", seed=3, true_king=1)
    pos2.s[pos_index("FREE_MULLIGAN_USED") + 1] = 1
    pos2.play("yes", "yes")
    assert pos2.phase == "redeal" and pos2.score(0) == 2 and pos2.s[pos_index("TRUE_KING")] == 1


def test_quickplay_deal_has_assassin_accused_and_no_dungeon():
    pos = Position.deal("quickplay", seed=5)
    assert len(pos.hand(0)) == 7 and len(pos.hand(1)) == 7
    assert "Assassin" not in pos.hand(0) + pos.hand(1)
    pos.play("yes", "Queen" if "Queen" in pos.hand(0) else pos.legal()[0])
    assert pos.phase == "Successor" and pos.decider == 1  # no mulligan, no Dungeon in Quickplay


def test_illegal_action_is_refused():
    pos = P(hands={0: ["Fool"], 1: ["Elder"]}, court=["Queen"])
    with pytest.raises(SetupError):
        pos.apply("Queen")


def pos_index(name):
    from balance.games.imposter_kings import layout
    return getattr(layout, name)


def test_the_readme_example():
    pos = P(hands={0: ["Fool", "Elder"], 1: ["King's Hand", "Queen"]}, court=["Soldier", "Queen"], disgraced=[1],
            successors={0: "Mystic"}, turn=0)
    assert pos.legal() == ["Fool", "Elder", "flip"]
    pos.play("Fool", 0)
    assert (pos.phase, pos.decider) == ("King's Hand", 1)
    pos.apply("yes")
    assert pos.court() == ["Soldier", "Queen (disgraced)"] and pos.hand(0) == ["Elder"]
    assert pos.removed() == ["Fool", "King's Hand"] and pos.phase == "turn" and pos.decider == 0


# ---- the King's Hand timing table (rulebook FAQ), one card at a time ----------------------------
def test_kings_hand_counters_the_sentry_after_the_choice_before_the_exchange():
    pos = P(hands={0: ["Sentry", "Fool"], 1: ["King's Hand", "Queen"]}, court=["Warlord", "Judge"])
    pos.play("Sentry", 0)
    assert pos.phase == "King's Hand"
    pos.apply("yes")
    assert pos.court() == ["Warlord", "Judge"] and pos.hand(0) == ["Fool"]
    assert sorted(pos.removed()) == ["King's Hand", "Sentry"]


def test_kings_hand_counters_the_mystic_after_the_number():
    pos = P(hands={0: ["Mystic", "Fool"], 1: ["King's Hand", "Queen"]}, court=["Soldier"], disgraced=[0])
    pos.play("Mystic", 2)
    assert pos.phase == "King's Hand"
    pos.apply("yes")
    assert pos.s[pos_index("MUTED")] == 0 and "Mystic" in pos.removed()


def test_kings_hand_counters_the_judge_before_anything_is_revealed():
    pos = P(hands={0: ["Judge", "Elder"], 1: ["King's Hand", "Queen"]}, court=["Soldier"])
    pos.play("Judge", "Queen")
    assert pos.phase == "King's Hand"
    pos.apply("yes")
    assert pos.antechamber(0) == [] and pos.known(0) == [] and "Judge" in pos.removed()


def test_a_countered_ability_from_the_antechamber_is_condemned_too():
    pos = P(hands={0: ["Elder"], 1: ["King's Hand", "Queen", "Fool"]}, antechambers={0: ["Inquisitor"]},
            court=["Soldier"])
    assert pos.court() == ["Soldier", "Inquisitor"] and pos.phase == "Inquisitor"
    pos.play("Queen", "yes")
    assert pos.court() == ["Soldier"] and pos.antechamber(1) == [] and "Queen" in pos.hand(1)
