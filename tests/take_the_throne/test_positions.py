"""Take the Throne: the rulebook's example turns and every card's effect, as positions stepped
through the rules kernel.

Seats: 0 is the Monarch unless said otherwise; reveal and resolution go clockwise 0, 1, 2, 3.
"""

import pytest

from balance.games.take_the_throne.positions import Position

CORE_HOUSE = ["attack", "charge", "feint", "infiltrate", "sabotage"]
CORE_CROWN = ["abdicate", "authority", "command", "consolidate", "defend", "raid"]


def test_example_turn_1_charges_cancel_and_defend_discards_attack():
    # Jon (Monarch, 0) Defend; Isaac (1) and Sophie (2) Charge; Helen (3) Attack.
    p = Position(4)
    p.play_round({0: "defend", 1: "charge", 2: "charge", 3: "attack"})
    assert p.monarch == 0
    assert p.vp == [3, 1, 1, 1]  # Jon retains: +2
    assert p.discard(0) == ["defend"] and p.discard(1) == ["charge"] and p.discard(3) == ["attack"]
    assert "charge" not in p.hand(2) and len(p.hand(2)) == 4  # hands shrink after a retention


def test_example_turn_2_sabotage_makes_helen_charge_and_take_the_throne():
    # Jon (0) Consolidate; Isaac (1) Attack; Sophie (2) Sabotage on Helen; Helen (3) swaps her
    # Infiltrate for a Charge and takes the throne with strength 3.
    p = Position(4)
    events = p.play_round({0: "consolidate", 1: "attack", 2: "sabotage", 3: "infiltrate"}, decisions=[3, "charge"])
    assert "  seat 3 replaces Infiltrate with Charge" in events
    assert p.monarch == 3
    assert p.vp == [1, 1, 1, 2]  # Helen +1; Consolidate and Sabotage pay nothing
    assert sorted(p.deck(3)) == sorted(CORE_CROWN)  # Helen takes the crown cards
    assert sorted(p.deck(0)) == sorted(CORE_HOUSE)  # Jon takes Helen's house cards
    for seat in range(4):  # everybody retrieves every card
        assert sorted(p.hand(seat)) == sorted(p.deck(seat)) and p.discard(seat) == []


def test_example_turn_2_one_decision_at_a_time():
    # The same round answered through the step verbs: every answer has a name (a card, a player),
    # the chosen cards stay hidden in their hands until everyone has chosen, and a face-down card
    # is seen only by its player.
    p = Position(4)
    assert p.legal() == sorted(CORE_CROWN) and p.decider == 0
    p.apply("consolidate")
    assert p.legal() == sorted(CORE_HOUSE) and p.decider == 1
    assert "consolidate" in p.hand(0) and p.view(1)["in_play"] == [[], [], [], []]
    for card in ("attack", "sabotage", "infiltrate"):
        p.apply(card)
    assert p.decider == 2 and p.legal() == ["seat 0", "seat 1", "seat 3"]  # Sabotage's target
    assert p.view(2)["in_play"] == [["consolidate"], ["attack"], ["sabotage"], ["face down"]]
    assert p.view(3)["in_play"][3] == ["infiltrate"]
    with pytest.raises(ValueError):
        p.apply("seat 2")  # not itself
    p.apply(3)
    assert p.decider == 3 and p.legal() == ["attack", "charge", "feint", "sabotage"]  # Helen's replacement
    p.apply("charge")
    assert p.legal() == ["seat 3"]  # the Monarch's tie-break among one: forced, yet posed
    p.apply("seat 3")
    assert p.monarch == 3 and p.vp == [1, 1, 1, 2]
    assert p.scores() == [-1.0, -1.0, -1.0, 1.0]  # each seat's VP lead over the best other
    assert not p.over and p.decider is None


def test_a_won_game_is_over_and_asks_nothing():
    p = Position(4, vp=[6, 1, 1, 1])
    p.play_round({0: "defend", 1: "charge", 2: "charge", 3: "attack"})
    assert p.winner == 0 and p.over and p.legal() == []
    assert p.scores() == [27.0, -27.0, -27.0, -27.0]  # the lead and WIN_SCORE
    with pytest.raises(ValueError):
        p.apply("attack")
    with pytest.raises(ValueError):
        p.play_round({0: "raid", 1: "attack", 2: "attack", 3: "attack"})


def test_raid_discards_the_chosen_card_and_monarch_breaks_ties():
    p = Position(4)
    events = p.play_round({0: "raid", 1: "charge", 2: "attack", 3: "attack"}, decisions=[1, 3])
    assert "  seat 1's Charge is discarded (Raid)" in events
    assert p.monarch == 3 and p.vp == [1, 1, 1, 2]


def test_defend_also_removes_infiltrate():
    p = Position(4)
    events = p.play_round({0: "defend", 1: "infiltrate", 2: "attack", 3: "attack"})
    assert any("Infiltrate is discarded (no Attack left)" in e for e in events)
    assert p.monarch == 0 and p.vp == [3, 1, 1, 1]


@pytest.mark.parametrize("timing, defended", [("resolution", True), ("immediate", False)])
def test_a_defend_swapped_in_by_sabotage_discards_the_attacks_only_at_resolution(timing, defended):
    p = Position(4, options={"defend_timing": timing})
    p.play_round({0: "consolidate", 1: "sabotage", 2: "attack", 3: "attack"},
                 decisions=[0, "defend"] + ([] if defended else [2]))  # the Monarch breaks the Attacks' tie
    if defended:
        assert p.monarch == 0 and p.vp == [3, 2, 1, 1]  # retains (+2, Consolidate was swapped out); Sabotage +1
    else:  # the swapped-in Defend's immediate action does not trigger: the Monarch's reveal had passed
        assert p.monarch == 2 and p.vp == [1, 1, 2, 1]


@pytest.mark.parametrize("timing, defended", [("resolution", True), ("immediate", False)])
def test_an_attack_added_by_feint_after_defend_is_discarded_only_at_resolution(timing, defended):
    p = Position(4, options={"defend_timing": timing})
    events = p.play_round({0: "defend", 1: "feint", 2: "charge", 3: "charge"}, decisions=["attack"])
    assert ("  seat 1's Attack is discarded (Defend)" in events) == defended
    if defended:
        assert p.monarch == 0 and p.vp == [3, 0, 1, 1]  # Feint cost seat 1 its VP
    else:
        assert p.monarch == 1 and p.vp == [1, 2, 1, 1]  # 1 - 1 (Feint) + 1 (throne) + 1 (Feint)


def test_consolidate_pays_three_when_the_throne_is_retained():
    p = Position(4, hands={3: ["charge", "attack"]})
    p.play_round({0: "consolidate", 1: "charge", 2: "charge", 3: "charge"})
    assert p.vp == [4, 1, 1, 1]


def test_command_looks_then_forces_a_replacement_chosen_by_that_player():
    p = Position(4)
    events = p.play_round({0: "command", 1: "charge", 2: "attack", 3: "attack"},
                          decisions=[1, 1, "infiltrate"])  # look at seat 1, make seat 1 replace its card
    assert "  seat 0 looks at seat 1's card: Charge" in events
    assert "  seat 1 replaces Charge with Infiltrate" in events
    assert p.monarch == 1 and p.vp == [1, 2, 1, 1]  # the Infiltrate beats both Attacks


@pytest.mark.parametrize("take_back_pays, monarch_vp", [(True, 3), (False, 2)])
def test_taking_the_throne_back_after_abdicate_pays_one_vp_at_the_end_of_the_turn(take_back_pays, monarch_vp):
    # Rulebook: "Take 1 VP immediately. ... This doesn't count as retaining the throne so you would
    # only take 1 VP at the end of the turn instead of 2": 1 now and 1 at the end of the turn.
    p = Position(4, options={"take_back_pays": take_back_pays})
    events = p.play_round({0: "abdicate", 1: "charge", 2: "charge", 3: "infiltrate"})
    assert p.monarch == 0
    assert p.vp == [monarch_vp, 1, 1, 1]  # never the 2 for retaining
    assert ("  seat 0 +1 VP (takes the throne back)" in events) == take_back_pays


@pytest.mark.parametrize("pays, sabotage_vp", [(False, 1), (True, 2)])
def test_abdicate_even_when_replaced_and_sabotage_option(pays, sabotage_vp):
    p = Position(4, options={"sabotage_pays_on_abdicate": pays})
    p.play_round({0: "abdicate", 1: "sabotage", 2: "charge", 3: "charge"}, decisions=[0, "consolidate"])
    assert p.monarch == 0  # Abdicate holds although Sabotage replaced it; nobody takes
    assert p.vp == [3, sabotage_vp, 1, 1]  # and Consolidate pays nothing: the throne was not retained


ENTRAP_CROWN = ["chaos", "entrap", "raid", "defend", "command", "abdicate"]


def test_an_abdicate_replaced_by_entrap_retains_when_entrap_stops_a_taker():
    # Sabotage makes the Abdicating Monarch swap in Entrap; the lone Charge would take the throne.
    # Entrap: "If a house player would take the throne, you retain it instead": a retention (+2,
    # and Sabotage's "if the Monarch retains" pays), on top of Abdicate's immediate 1 VP.
    p = Position(4, decks={0: ENTRAP_CROWN})
    events = p.play_round({0: "abdicate", 1: "sabotage", 2: "charge", 3: "attack"}, decisions=[0, "entrap"])
    assert "  seat 0 retains the throne" in events
    assert p.monarch == 0 and p.vp == [4, 2, 1, 1]
    q = Position(4, decks={0: ENTRAP_CROWN}, options={"entrap_retains_after_abdicate": False})
    events = q.play_round({0: "abdicate", 1: "sabotage", 2: "charge", 3: "attack"}, decisions=[0, "entrap"])
    assert "  nobody takes the throne: seat 0 takes it back (Abdicate)" in events
    assert q.monarch == 0 and q.vp == [3, 1, 1, 1]  # 1 (Abdicate) + 1 (taking it back)


def test_abdicate_with_a_taker():
    p = Position(4)
    p.play_round({0: "abdicate", 1: "charge", 2: "attack", 3: "attack"})
    assert p.monarch == 1 and p.vp == [2, 2, 1, 1]


def test_authority_after_the_throne_vp_leaves_a_retaining_monarch_short_of_eight():
    # At VP [5, 6, 1, 1] nobody takes: retaining brings the Monarch to 7, and then nobody is richer.
    p = Position(4, vp=[5, 6, 1, 1])
    p.play_round({0: "authority", 1: "charge", 2: "charge", 3: "infiltrate"})
    assert p.vp == [7, 6, 1, 1] and p.winner is None


def test_authority_as_an_immediate_action_steals_first_and_the_retention_wins():
    p = Position(4, vp=[5, 6, 1, 1], options={"authority_timing": "immediate"})
    p.play_round({0: "authority", 1: "charge", 2: "charge", 3: "infiltrate"})
    assert p.vp == [8, 5, 1, 1] and p.winner == 0  # 5 + 1 (from seat 1) + 2 (retains)


def test_authority_takes_a_vp_from_a_richer_player():
    p = Position(4, vp=[1, 5, 1, 1])
    p.play_round({0: "authority", 1: "charge", 2: "charge", 3: "attack"}, decisions=[1])
    # The Attack takes the throne (+1 to seat 3); then Authority takes from seat 1 (chosen).
    assert p.monarch == 3 and p.vp == [2, 4, 1, 2]


def test_chaos_replaces_every_house_card_from_hand():
    p = Position(4, decks={0: ["chaos", "entrap", "raid", "defend", "command", "abdicate"]},
                 hands={1: ["charge", "attack"], 2: ["charge", "attack"], 3: ["charge", "attack"]})
    events = p.play_round({0: "chaos", 1: "charge", 2: "charge", 3: "charge"}, decisions=[1])
    assert sum("replaces Charge with Attack" in e for e in events) == 3
    assert p.monarch == 1  # three Attacks tie; the Monarch chose seat 1


def test_entrap_retains_when_someone_would_take():
    p = Position(4, decks={0: ["entrap", "raid", "defend", "command", "abdicate", "chaos"]})
    p.play_round({0: "entrap", 1: "charge", 2: "attack", 3: "sabotage"}, decisions=[2, "feint"])
    assert p.monarch == 0 and p.vp == [3, 1, 1, 2]  # retains +2; Sabotage +1


def test_entrap_gives_the_throne_and_a_vp_when_nobody_would_take():
    p = Position(4, decks={0: ["entrap", "raid", "defend", "command", "abdicate", "chaos"]}, vp=[3, 1, 1, 1])
    p.play_round({0: "entrap", 1: "charge", 2: "charge", 3: "infiltrate"}, decisions=[2])
    assert p.monarch == 2
    assert p.vp == [2, 1, 3, 1]  # 1 VP from the Monarch, 1 for taking the throne


def test_entrap_vp_comes_from_the_supply_when_the_monarch_has_none():
    p = Position(4, decks={0: ["entrap", "raid", "defend", "command", "abdicate", "chaos"]}, vp=[0, 1, 1, 1])
    p.play_round({0: "entrap", 1: "charge", 2: "charge", 3: "infiltrate"}, decisions=[1])
    assert p.vp == [0, 3, 1, 1]


def test_single_charge_beats_infiltrate_and_attack():
    p = Position(4)
    p.play_round({0: "consolidate", 1: "attack", 2: "infiltrate", 3: "charge"})
    assert p.monarch == 3


def test_infiltrate_beats_attack_and_needs_one():
    p = Position(4)
    p.play_round({0: "consolidate", 1: "attack", 2: "infiltrate", 3: "feint"}, decisions=["attack"])
    assert p.monarch == 2
    q = Position(4)
    q.play_round({0: "consolidate", 1: "infiltrate", 2: "charge", 3: "charge"})
    assert q.monarch == 0 and q.vp == [4, 1, 1, 1]


def test_sabotage_pays_when_the_monarch_retains():
    p = Position(4)
    p.play_round({0: "defend", 1: "sabotage", 2: "attack", 3: "attack"}, decisions=[2, "infiltrate"])
    assert p.monarch == 0 and p.vp == [3, 2, 1, 1]


def test_sabotage_may_target_the_monarch_unless_the_option_says_no():
    p = Position(4)
    events = p.play_round({0: "defend", 1: "sabotage", 2: "attack", 3: "attack"}, decisions=[0, "consolidate", 2])
    assert "  seat 0 replaces Defend with Consolidate" in events
    assert p.monarch == 2  # without Defend the tied Attacks stand; the Monarch chose seat 2
    q = Position(4, options={"sabotage_targets_monarch": False})
    with pytest.raises(ValueError):
        q.play_round({0: "defend", 1: "sabotage", 2: "attack", 3: "attack"}, decisions=[0, "consolidate"])


def test_feint_pays_a_vp_adds_a_card_and_doubles_the_take():
    p = Position(4, discards={1: ["charge"]}, hands={1: ["feint", "attack"]})
    p.play_round({0: "consolidate", 1: "feint", 2: "attack", 3: "attack"}, decisions=["charge"])
    assert p.monarch == 1
    assert p.vp == [1, 2, 1, 1]  # 1 - 1 (cost) + 1 (throne) + 1 (Feint)


def test_feint_from_discard_can_be_forbidden():
    p = Position(4, discards={1: ["charge"]}, hands={1: ["feint", "attack"]}, options={"feint_from_discard": False})
    with pytest.raises(ValueError):
        p.play_round({0: "consolidate", 1: "feint", 2: "attack", 3: "attack"}, decisions=["charge"])


def test_feint_with_no_vp_is_free():
    p = Position(4, vp=[1, 0, 1, 1], hands={1: ["feint", "charge"]})
    p.play_round({0: "consolidate", 1: "feint", 2: "attack", 3: "attack"})
    assert p.monarch == 1 and p.vp == [1, 2, 1, 1]


def test_sabotage_on_a_feint_player_replaces_the_additional_card():
    p = Position(4, hands={1: ["feint", "charge", "attack", "infiltrate"]})
    events = p.play_round({0: "consolidate", 1: "feint", 2: "sabotage", 3: "infiltrate"},
                          decisions=["charge", 1, "attack"])
    assert "  seat 1 replaces Charge with Attack" in events
    assert p.monarch == 3  # Infiltrate (2) beats the Attack (1); the Feint stayed in play


ADDITIONAL_HOUSE = ["attack", "charge", "infiltrate", "ally", "ambush", "dominate", "raven"]


def test_ally_discards_the_monarchs_card_and_pays_if_the_taker_accepts():
    p = Position(4, decks={1: ADDITIONAL_HOUSE, 2: ADDITIONAL_HOUSE, 3: ADDITIONAL_HOUSE})
    events = p.play_round({0: "defend", 1: "ally", 2: "attack", 3: "ambush"}, decisions=["accept"])
    assert "  seat 0's Defend is discarded (Ally)" in events
    assert p.monarch == 2 and p.vp == [1, 3, 3, 1]  # taker 1 + 1 extra; Ally +2


def test_ally_pays_nothing_when_the_taker_declines():
    p = Position(4, decks={1: ADDITIONAL_HOUSE, 2: ADDITIONAL_HOUSE, 3: ADDITIONAL_HOUSE})
    p.play_round({0: "defend", 1: "ally", 2: "attack", 3: "ambush"}, decisions=["decline"])
    assert p.monarch == 2 and p.vp == [1, 1, 2, 1]


def test_ambush_springs_when_raided_viewed_or_replaced_but_not_on_its_own_reveal():
    decks = {1: ADDITIONAL_HOUSE, 2: ADDITIONAL_HOUSE, 3: ADDITIONAL_HOUSE}
    raided = Position(4, decks=decks)
    raided.play_round({0: "raid", 1: "ambush", 2: "charge", 3: "charge"}, decisions=[1])
    assert raided.vp[1] == 3
    viewed = Position(4, decks=decks)
    viewed.play_round({0: "command", 1: "ambush", 2: "charge", 3: "charge"}, decisions=[1, 2, "attack"])
    assert viewed.vp[1] == 3
    not_on_view = Position(4, decks=decks, options={"ambush_on_view": False})
    not_on_view.play_round({0: "command", 1: "ambush", 2: "charge", 3: "charge"}, decisions=[1, 2, "attack"])
    assert not_on_view.vp[1] == 1
    replaced = Position(4, decks=decks)
    replaced.play_round({0: "command", 1: "ambush", 2: "charge", 3: "charge"}, decisions=[2, 1, "attack"])
    assert replaced.vp[1] == 4  # 2 for the Ambush, then its Attack takes the throne (+1)
    plain = Position(4, decks=decks)
    plain.play_round({0: "consolidate", 1: "ambush", 2: "charge", 3: "charge"})
    assert plain.vp[1] == 1


def test_dominate_wins_only_against_exactly_one_charge():
    decks = {1: ADDITIONAL_HOUSE, 2: ADDITIONAL_HOUSE, 3: ADDITIONAL_HOUSE}
    p = Position(4, decks=decks)
    p.play_round({0: "consolidate", 1: "dominate", 2: "charge", 3: "attack"})
    assert p.monarch == 1
    q = Position(4, decks=decks)
    events = q.play_round({0: "consolidate", 1: "dominate", 2: "attack", 3: "attack"}, decisions=[2])
    assert "  seat 1's Dominate is discarded (not exactly one Charge)" in events
    assert q.monarch == 2


def test_raven_steals_only_when_it_is_the_only_raven():
    decks = {1: ADDITIONAL_HOUSE, 2: ADDITIONAL_HOUSE, 3: ADDITIONAL_HOUSE}
    p = Position(4, decks=decks, vp=[5, 1, 1, 1])
    p.play_round({0: "defend", 1: "raven", 2: "charge", 3: "charge"}, decisions=[0])
    assert p.vp == [6, 2, 1, 1]  # Monarch retains (+2), then the Raven takes 1 from it
    q = Position(4, decks=decks, vp=[5, 1, 1, 1])
    q.play_round({0: "defend", 1: "raven", 2: "raven", 3: "ambush"})
    assert q.vp == [7, 1, 1, 1]


def test_contest_check_order_does_not_change_the_result():
    results = set()
    for order in ("abc", "acb", "bac", "bca", "cab", "cba"):
        decks = {1: ADDITIONAL_HOUSE, 2: ADDITIONAL_HOUSE, 3: ADDITIONAL_HOUSE}
        p = Position(4, decks=decks, options={"contest_order": order})
        p.play_round({0: "consolidate", 1: "dominate", 2: "charge", 3: "infiltrate"})
        results.add((p.monarch, tuple(p.vp)))
    assert results == {(1, (1, 2, 1, 1))}


def test_winning_needs_eight_vp_and_the_throne_at_the_end_of_the_round():
    p = Position(4, vp=[6, 9, 1, 1])
    p.play_round({0: "defend", 1: "charge", 2: "charge", 3: "attack"})
    assert p.winner == 0  # 8 VP on the throne wins although seat 1 has more
    q = Position(4, vp=[1, 7, 1, 1])
    q.play_round({0: "defend", 1: "charge", 2: "attack", 3: "attack"})
    assert q.winner == 1 and q.monarch == 1
    r = Position(4, vp=[1, 9, 1, 1])
    r.play_round({0: "defend", 1: "charge", 2: "charge", 3: "attack"})
    assert r.winner is None


def test_a_player_with_an_empty_hand_picks_up_the_discard_pile():
    p = Position(4, hands={1: []}, discards={1: CORE_HOUSE})
    assert sorted(p.legal_cards(1)) == sorted(CORE_HOUSE)
    p.play_round({0: "defend", 1: "attack", 2: "charge", 3: "charge"})
    assert p.monarch == 0
    assert sorted(p.hand(1)) == sorted(set(CORE_HOUSE) - {"attack"}) and p.discard(1) == ["attack"]


def test_a_player_made_to_replace_a_card_with_an_empty_hand_picks_up_the_discard_pile():
    # Seat 2 plays its last card; seat 3's whole deck is in play or elsewhere (nothing to swap in).
    # Sabotage (not on the Monarch) can only choose seat 2, who picks up its discards for a Charge:
    # the two Charges cancel, the Monarch retains (Consolidate: 3) and Sabotage pays 1.
    setup = dict(hands={2: ["attack"], 3: ["charge"]}, discards={2: ["charge", "infiltrate"]})
    p = Position(4, **setup, options={"sabotage_targets_monarch": False})
    events = p.play_round({0: "consolidate", 1: "sabotage", 2: "attack", 3: "charge"}, decisions=["charge"])
    assert "  seat 2 picks up their discard pile" in events
    assert p.monarch == 0 and p.vp == [4, 2, 1, 1]
    # Read the other way, an empty-handed player cannot be chosen: Sabotage has no target.
    q = Position(4, **setup, options={"sabotage_targets_monarch": False, "replace_picks_up_discards": False})
    q.play_round({0: "consolidate", 1: "sabotage", 2: "attack", 3: "charge"})
    assert q.monarch == 3 and q.vp == [1, 1, 1, 2]


def test_command_cannot_choose_an_empty_handed_player_unless_discards_are_picked_up():
    setup = dict(hands={2: ["attack"]}, discards={2: ["charge", "infiltrate"]})
    p = Position(4, **setup)
    p.play_round({0: "command", 1: "attack", 2: "attack", 3: "attack"}, decisions=[1, 2, "charge"])
    assert p.monarch == 2
    q = Position(4, **setup, options={"replace_picks_up_discards": False})
    with pytest.raises(ValueError):
        q.play_round({0: "command", 1: "attack", 2: "attack", 3: "attack"}, decisions=[1, 2, "charge"])


def test_two_player_tie_keeps_the_throne_and_higher_strength_takes_it():
    p = Position(2)
    p.play_round({0: "attack", 1: "attack"})
    assert p.monarch == 0 and p.vp == [1, 0]
    p.play_round({0: "infiltrate", 1: "charge"})
    assert p.monarch == 1 and p.vp == [1, 2]
    assert p.discard(0) == ["attack", "infiltrate"]  # played cards stay discarded


def test_two_player_dominate_and_double_charge():
    p = Position(2)
    p.play_round({0: "charge", 1: "dominate"})
    assert p.monarch == 1 and p.vp == [0, 2]
    q = Position(2)
    q.play_round({0: "charge", 1: "charge"})
    assert q.monarch == 0 and q.vp == [1, 0]


def test_two_player_reinforce_returns_discards_and_pays_the_challenger():
    p = Position(2, discards={1: ["attack", "charge"]}, hands={1: ["dominate", "infiltrate", "reinforce"]})
    p.play_round({0: "attack", 1: "reinforce"})
    assert p.vp == [1, 1]
    assert sorted(p.hand(1)) == sorted(["attack", "charge", "dominate", "infiltrate", "reinforce"])
    q = Position(2, discards={0: ["attack"]}, hands={0: ["charge", "dominate", "infiltrate", "reinforce"]})
    q.play_round({0: "reinforce", 1: "attack"})
    assert q.vp == [0, 2] and q.monarch == 1  # the Monarch's Reinforce pays nothing and has no strength


def test_two_player_win_needs_the_token():
    p = Position(2, vp=[7, 9])
    p.play_round({0: "attack", 1: "attack"})
    assert p.winner == 0
