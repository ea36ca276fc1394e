"""Fragments of Nersetti's Signature Cards: the Stranger, the Nakturn, the Conspiracist and the Exile.

Card sheet (shared/rules/imposter_kings.md, FoN table):
- Stranger (2, Immune to King's Hand): "In hand, may act as any Reaction card that is in the Court below
  the Throne. When played, may copy the name and ability of any card in the Court; the copied card is
  removed from the round." FAQ: "If I take the Stranger back into my hand, does it keep the text it
  copied? No."
- Nakturn (4, 2 in Court): "If the Court has a Disgraced card, may name a card and have an opponent guess
  whether you hold it; if they guess wrong, look at their hand and Condemn one of their cards."
- Conspiracist (6, Steadfast): "Until the end of your next turn, cards in your hand and Antechamber have
  Steadfast and +1 value, and cards played in that time keep it while in the Court. Worth 1 less while on
  the Throne." FAQ: they keep it "As long as the affected card stays in Court"; a card Condemned by the
  King's Hand on the next turn ends that turn, "By then, the Conspiracist's effect has ended."
- Exile (8, Steadfast): "Worth 1 less on the Throne for each Court card of base value 7 or more. When
  played, every card is Muted until the start of your next turn (Steadfast cards excepted)."
Reference: "Muted - The card loses all of its card text, including Royalty and other keywords. Steadfast
always beats Muted"; "Steadfast - The card can't be Muted or have its value lowered by other cards."

No mode deals these cards yet (the Signature step is another branch's), so the tests put them in play
with positions and with test configurations of the Army step: the four cards added to each Army, or
shuffled into the deck (11 cards each, so that the deck is dealt out).
"""

import numpy as np
import pytest

from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import match as M
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.game import GAME
from balance.games.imposter_kings.options import OPTIONS, config_row
from balance.games.imposter_kings.positions import Position
from tests.imposter_kings.test_search_modes import search_pick

MODE = "army_step"
MINE = (L.STRANGER, L.NAKTURN, L.CONSPIRACIST, L.EXILE)
T = L.TYPES


def signature_cfg(options=None, in_deck=False):
    """The Army step with the four cards in each Army (or, ``in_deck``, shuffled into the deck)."""
    opts = {o.name: o.default for o in OPTIONS}
    opts.update(options or {})
    cfg = config_row(MODE, opts)
    for t in MINE:
        cfg[(L.CFG_DECK if in_deck else L.CFG_ARMY) + t] += 1
    if in_deck:
        cfg[L.CFG_HAND] = 11  # 24 cards: 22 dealt, the Accused and the unused card
    cfg[L.CFG_TYPES] = max(MINE) + 1
    return cfg


def P(**kw):
    kw.setdefault("successors", {0: "Judge", 1: "Sentry"})
    kw.setdefault("mode", MODE)
    pos = Position.build(**kw)
    if kw["mode"] == MODE:
        pos.cfg[:] = signature_cfg(kw.get("options"))
    return pos


def value(pos, name, seat=0):
    return int(R.hand_value(pos.s, pos.cfg, seat, L.type_of(name)))


def copy_into(pos, i, name):
    """Court card i (a Stranger) as if it had copied ``name``."""
    pos.s[L.COURT_FLAGS + i] |= (L.type_of(name) + 1) << L.COPIED_SHIFT


# ---- the Stranger -------------------------------------------------------------------------------------------
def test_the_stranger_copies_a_court_cards_name_and_ability_and_that_card_is_removed_from_the_round():
    """"When played, may copy the name and ability of any card in the Court; the copied card is removed
    from the round." The copied Inquisitor's naming happens, and the Stranger keeps its Immunity: the
    King's Hand is not offered (option stranger_immune 'kept')."""
    pos = P(hands={0: ["Stranger", "Elder"], 1: ["Soldier", "King's Hand"]}, court=["Inquisitor", "Fool"])
    pos.apply("Stranger")
    assert pos.pick_for == "Stranger: copy" and pos.legal() == [0, 1, "no"]  # any card below itself
    pos.apply(0)
    assert pos.court() == ["Fool", "Stranger"] and pos.removed() == ["Inquisitor"]
    assert pos.phase == "Inquisitor" and pos.decider == 0
    pos.apply("Soldier")  # seat 1 holds one: to its Antechamber, so it plays it as its turn
    assert pos.court()[-1] == "Soldier" and pos.hand(1) == ["King's Hand"]


def test_the_king_s_hand_may_stop_the_stranger_s_copy_only_under_option_stranger_immune_lost():
    pos = P(hands={0: ["Stranger", "Elder"], 1: ["Soldier", "King's Hand"]}, court=["Inquisitor", "Fool"],
            options={"stranger_immune": "lost"})
    pos.play("Stranger", 0, "Soldier")
    assert pos.phase == "King's Hand" and pos.decider == 1
    pos.apply("yes")
    assert pos.court() == ["Fool"] and sorted(pos.removed()) == ["Inquisitor", "King's Hand", "Stranger"]


def test_a_stranger_that_copied_the_soldier_gains_its_plus_two_and_declining_leaves_a_plain_two():
    pos = P(hands={0: ["Stranger", "Elder"], 1: ["Queen", "Zealot"]}, court=["Soldier", "Fool"])
    pos.play("Stranger", 0, "Queen")  # "If any opponent holds it, the Soldier gains +2"
    assert pos.phase == "Soldier disgraces"
    pos.apply("no")
    assert pos.court() == ["Fool", "Stranger"] and pos.court_values() == [1, 4]
    plain = P(hands={0: ["Stranger", "Elder"], 1: ["Queen", "Zealot"]}, court=["Soldier", "Fool"])
    plain.play("Stranger", "no")
    assert plain.court_values() == [5, 1, 2] and plain.removed() == [] and plain.turn == 1


def test_taken_back_into_a_hand_the_stranger_is_the_stranger_again():
    """FAQ: "If I take the Stranger back into my hand, does it keep the text it copied? No.\""""
    pos = P(hands={0: ["Stranger", "Elder"], 1: ["Sentry", "Zealot"]}, court=["Warlord", "Fool"])
    pos.play("Stranger", 0)  # a copied Warlord: 9 with Royalty in the Court, else its 2
    assert pos.court() == ["Fool", "Stranger"] and pos.court_values() == [1, 2]
    pos.play("Sentry", 1, "Zealot")  # the Sentry takes the Stranger into seat 1's hand
    assert "Stranger" in pos.hand(1) and pos.court() == ["Fool", "Zealot", "Sentry (disgraced)"]
    assert (pos.s[L.COURT_FLAGS + 1] >> L.COPIED_SHIFT) == 0


def test_in_hand_the_stranger_acts_as_a_king_s_hand_below_the_throne():
    """"In hand, may act as any Reaction card that is in the Court below the Throne": the King's Hand's
    reaction (both cards are Condemned)."""
    pos = P(hands={0: ["Inquisitor", "Elder"], 1: ["Stranger", "Soldier"]}, court=["King's Hand", "Fool"])
    pos.play("Inquisitor", "Soldier")
    assert pos.phase == "King's Hand" and pos.decider == 1 and pos.legal() == ["Stranger", "no"]
    pos.apply("Stranger")
    assert pos.court() == ["King's Hand", "Fool"] and "Inquisitor" in pos.removed()
    assert pos.hand(1) == ["Soldier"] and pos.antechamber(1) == []
    both = P(hands={0: ["Inquisitor", "Elder"], 1: ["Stranger", "King's Hand"]}, court=["King's Hand", "Fool"])
    both.play("Inquisitor", "Elder")
    assert both.legal() == ["Stranger", "yes", "no"]  # one reaction per trigger, with either card


def test_without_the_reaction_card_below_the_throne_the_stranger_cannot_react():
    pos = P(hands={0: ["Inquisitor", "Elder"], 1: ["Stranger", "Soldier"]}, court=["Zealot", "Fool"])
    pos.play("Inquisitor", "Soldier")
    assert pos.phase != "King's Hand" and pos.court()[-1] == "Soldier"  # the Inquisitor's effect stood
    on_throne = P(hands={0: ["Elder"], 1: ["Stranger", "Soldier"]}, court=["Soldier", "Assassin"])
    on_throne.apply("flip")  # the Assassin is the Throne, not below it: no reaction, the flip completes
    assert on_throne.flipped(0) and on_throne.phase == "turn" and on_throne.turn == 1


def test_in_hand_the_stranger_acts_as_an_assassin_below_the_throne_immune_to_king_s_hand():
    pos = P(hands={0: ["Elder", "King's Hand"], 1: ["Stranger", "Soldier"]}, court=["Assassin", "Soldier"])
    pos.apply("flip")
    assert pos.phase == "Assassin" and pos.decider == 1 and pos.legal() == ["Stranger", "no"]
    pos.apply("Stranger")  # seat 0's King's Hand cannot answer it: the round is over
    assert pos.over and pos.winner == 1
    lost = P(hands={0: ["Elder", "King's Hand"], 1: ["Stranger", "Soldier"]}, court=["Assassin", "Soldier"],
             options={"stranger_immune": "lost"})
    lost.play("flip", "Stranger")
    assert lost.phase == "King's Hand" and lost.decider == 0
    lost.apply("yes")  # both Condemned; the flip completes
    assert lost.removed() == ["King's Hand", "Stranger"] and lost.flipped(0) and not lost.over


# ---- the Nakturn ---------------------------------------------------------------------------------------------
NAKTURN = dict(hands={0: ["Nakturn", "Princess", "Elder"], 1: ["Warlord", "Mystic", "Fool"]},
               court=["Queen", "Inquisitor"], disgraced=[0])


def test_the_nakturn_is_a_four_in_hand_a_two_in_court_and_needs_a_disgraced_card():
    pos = P(hands={0: ["Nakturn", "Elder"], 1: ["Fool", "Zealot"]}, court=["Inquisitor"])
    assert value(pos, "Nakturn") == 4 and "Nakturn" in pos.legal()
    pos.apply("Nakturn")
    assert pos.court_values() == [4, 2] and pos.phase == "turn" and pos.turn == 1


def test_a_wrong_guess_lets_the_nakturn_look_at_the_hand_and_condemn_a_card():
    pos = P(**NAKTURN)
    pos.apply("Nakturn")
    assert pos.pick_for == "Nakturn: name" and "no" in pos.legal() and "Queen" in pos.legal()
    pos.apply("Princess")
    assert pos.phase == "Nakturn guess" and pos.decider == 1 and pos.legal() == ["yes", "no"]
    pos.apply("no")  # wrong: seat 0 holds it, and now everyone knows
    assert "Princess" in pos.known(1)
    assert pos.pick_for == "Nakturn: Condemn" and pos.decider == 0 and pos.legal() == ["Fool", "Mystic", "Warlord"]
    assert sorted(pos.known(0)) == sorted(pos.hand(1))  # "look at their hand"
    pos.apply("Warlord")
    # Condemned in front of seat 1, which removes it from the round as its turn
    assert "Warlord" in pos.removed() and pos.hand(1) == ["Fool", "Mystic"] and pos.turn == 0


def test_a_right_guess_ends_the_nakturns_ability_and_a_card_not_held_guessed_held_is_wrong():
    right = P(**NAKTURN).play("Nakturn", "Princess", "yes")
    assert right.turn == 1 and right.phase == "turn" and right.hand(1) == ["Fool", "Mystic", "Warlord"]
    assert "Princess" in right.known(1)
    wrong = P(**NAKTURN).play("Nakturn", "Queen", "yes")
    assert wrong.pick_for == "Nakturn: Condemn" and wrong.known(1) == []


def test_the_king_s_hand_may_stop_the_nakturn_after_it_names_a_card():
    pos = P(hands={0: ["Nakturn", "Princess"], 1: ["King's Hand", "Fool"]}, court=["Queen", "Inquisitor"],
            disgraced=[0])
    pos.play("Nakturn", "Princess")
    assert pos.phase == "King's Hand" and pos.decider == 1
    pos.apply("yes")
    assert pos.court() == ["Queen (disgraced)", "Inquisitor"] and pos.removed() == ["King's Hand", "Nakturn"]


def test_with_three_players_the_nakturns_user_picks_the_guessing_opponent():
    pos = Position.build(mode="cutthroat", hands={0: ["Nakturn", "Princess"], 1: ["Fool", "Zealot"],
                                                  2: ["Elder", "Warlord"]},
                         successors={0: "Judge", 1: "Sentry", 2: "Soldier"}, court=["Queen", "Inquisitor"],
                         disgraced=[0])
    pos.apply("Nakturn")
    assert pos.pick_for == "Nakturn: guesser" and pos.legal() == [1, 2, "no"]
    pos.play(2, "Queen")
    assert pos.phase == "Nakturn guess" and pos.decider == 2
    pos.play("yes", "Warlord")
    assert pos.condemned_face_down(2) == ["Warlord"] and pos.hand(2) == ["Elder"]


def test_the_guesser_decides_from_its_own_view_only():
    """Seat 1's guess: seat 0's hidden hand differs (it holds the named Princess, or not), seat 1's view
    is the same, so the heuristic's and the search's guesses are the same."""
    holds = P(hands={0: ["Nakturn", "Princess", "Elder"], 1: ["Warlord", "Mystic", "Fool"]},
              court=["Queen", "Inquisitor"], disgraced=[0], accused="Zealot")
    lacks = P(hands={0: ["Nakturn", "Oathbound", "Elder"], 1: ["Warlord", "Mystic", "Fool"]},
              court=["Queen", "Inquisitor"], disgraced=[0], accused="Zealot")
    for pos in (holds, lacks):
        pos.play("Nakturn", "Princess")
        assert pos.phase == "Nakturn guess"
    for policy, params in (("heuristic", {}), ("search", None)):
        for seed in range(3):
            assert (search_pick(holds.s, holds.cfg, seed, policy, params)
                    == search_pick(lacks.s, lacks.cfg, seed, policy, params))


# ---- the Conspiracist -------------------------------------------------------------------------------------------
def test_the_conspiracist_gives_its_players_hand_steadfast_and_plus_one_until_the_end_of_its_next_turn():
    pos = P(hands={0: ["Conspiracist", "Elder", "Sentry"], 1: ["Mystic", "Zealot", "Fool"]},
            court=["Immortal", "Oathbound"])
    assert value(pos, "Elder") == 2  # the Immortal's -1
    pos.apply("Conspiracist")
    assert pos.throne_value == 5  # "Worth 1 less while on the Throne"
    assert value(pos, "Elder") == 4 and value(pos, "Sentry") == 9  # Steadfast: no -1; and +1
    assert value(pos, "Mystic", 1) == 7  # the opponent's hand is not affected
    pos.apply("Mystic")
    pos.play("Sentry", "no")  # played in that time: it keeps its Steadfast and +1 in the Court
    assert pos.court() == ["Immortal", "Oathbound", "Conspiracist", "Mystic", "Sentry"]
    assert pos.court_values()[-1] == 9 and pos.s[L.COURT_FLAGS + 4] & L.FLAG_CONSPIRED
    assert value(pos, "Elder") == 2 and pos.turn == 1  # its next turn has ended: so has the effect


def test_faq_a_card_condemned_on_the_next_turn_ends_the_conspiracists_effect():
    """FAQ: "If I play the Conspiracist, then the card I play next turn is Condemned by the King's Hand,
    does my following card still get the bonus? No.\""""
    pos = P(hands={0: ["Conspiracist", "Inquisitor", "Elder", "Sentry"], 1: ["King's Hand", "Soldier", "Zealot"]},
            court=["Fool"])
    pos.play("Conspiracist", "Soldier", "Queen")
    assert pos.throne_value == 5 and value(pos, "Inquisitor") == 5 and "Inquisitor" in pos.legal()
    pos.play("Inquisitor", "Zealot", "yes")  # the King's Hand: the Inquisitor is Condemned, the turn ends
    assert pos.turn == 0 and pos.removed() == ["Inquisitor", "King's Hand"]  # seat 1 removed its King's Hand
    assert value(pos, "Sentry") == 8
    pos.play("Sentry", "no")
    assert pos.court_values()[-1] == 8 and not pos.s[L.COURT_FLAGS + 3] & L.FLAG_CONSPIRED


def test_a_conspired_court_card_keeps_steadfast_against_the_mystic_the_immortal_and_adds_to_the_soldier():
    pos = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Queen", "Sentry"], disgraced=[0], muted=8)
    assert pos.court_values() == [1, 3]
    pos.s[L.COURT_FLAGS + 1] |= L.FLAG_CONSPIRED
    assert pos.court_values() == [1, 9]  # Steadfast beats the Mystic's Mute; +1
    wins = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Queen", "Sentry"], disgraced=[0], muted=8,
             options={"mystic_steadfast": "mystic_wins"})
    wins.s[L.COURT_FLAGS + 1] |= L.FLAG_CONSPIRED
    assert wins.court_values() == [1, 3]  # the Mystic's set value beats the +1
    queen = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Immortal", "Queen"])
    assert queen.court_values() == [5, 8] and not R.court_royalty(queen.s, queen.cfg, 1)
    queen.s[L.COURT_FLAGS + 1] |= L.FLAG_CONSPIRED
    assert queen.court_values() == [5, 10] and R.court_royalty(queen.s, queen.cfg, 1)
    soldier = P(hands={0: ["Elder"], 1: ["Fool"]}, court=["Soldier"], soldier_bonus=[0])
    soldier.s[L.COURT_FLAGS] |= L.FLAG_CONSPIRED
    assert soldier.throne_value == 8  # 5 + 2 + 1


def test_the_warlords_set_value_in_hand_beats_the_conspiracists_plus_one():
    pos = P(hands={0: ["Warlord", "Elder"], 1: ["Fool"]}, court=["Immortal", "Oathbound"])
    pos.s[L.CONSPIRING + 0] = 1
    assert value(pos, "Warlord") == 8 and value(pos, "Elder") == 4


# ---- the Exile ------------------------------------------------------------------------------------------------
def test_the_exile_is_worth_one_less_on_the_throne_per_court_card_of_base_seven_or_more():
    for disgraced, counts, expected in (([], "others", 6), ([], "itself", 5), ([0], "others", 7)):
        pos = P(hands={0: ["Exile", "Elder"], 1: ["Fool"]}, court=["Queen", "Mystic", "Elder"], disgraced=disgraced,
                options={"exile_counts": counts})
        pos.apply("Exile")
        assert pos.throne_value == expected, (disgraced, counts)


def test_the_exile_mutes_every_card_until_the_start_of_its_players_next_turn():
    pos = P(hands={0: ["Exile", "Elder"], 1: ["Sentry", "Elder"]}, court=["Queen", "Warlord", "Fool"])
    assert pos.court_values() == [9, 9, 1] and R.court_royalty(pos.s, pos.cfg, 0)
    pos.apply("Exile")
    assert pos.court_values() == [9, 7, 1, 5]  # the Warlord's text is gone; 8 - Queen - Warlord - itself
    assert not R.court_royalty(pos.s, pos.cfg, 0)  # "including Royalty"
    assert "Elder" not in pos.legal()  # the Elder's permission is Muted in hand (option exile_scope)
    pos.apply("Sentry")  # played while the Mute holds: it arrives without its ability
    assert pos.turn == 0 and pos.phase == "turn"
    assert pos.court_values() == [9, 9, 1, 8, 8] and R.court_royalty(pos.s, pos.cfg, 0)  # the Mute has ended


HEAVY = ["Queen", "Mystic", "Spy", "Fool"]  # under an Exile: 8 - 3 - itself


def test_steadfast_cards_are_excepted_from_the_exiles_mute():
    pos = P(hands={0: ["Exile", "Elder"], 1: ["Fool"]}, court=["Immortal", "Queen", "Fool"])
    pos.apply("Exile")
    assert pos.court_values() == [5, 8, 1, 6] and R.court_royalty(pos.s, pos.cfg, 0)  # her text holds
    conspired = P(hands={0: ["Exile", "King's Hand"], 1: ["Inquisitor", "Zealot"]}, court=HEAVY)
    conspired.apply("Exile")
    assert conspired.throne_value == 4
    conspired.s[L.CONSPIRING + 1] = 1  # seat 1's Conspiracist: its hand is Steadfast (the Inquisitor a 5)
    conspired.play("Inquisitor")
    assert conspired.phase == "Inquisitor"  # its ability happens; seat 0's King's Hand is Muted in hand
    conspired.apply("King's Hand")  # so it goes to seat 0's Antechamber, and is played as its turn
    assert conspired.court()[-1] == "King's Hand" and conspired.turn == 1


def test_steadfast_hand_cards_keep_their_play_permissions_under_the_exiles_mute():
    """The Aegis ("may be played on any card") is Steadfast until its player's King is flipped; a
    Conspiracist's hand is Steadfast: the Zealot's permission (a flipped King, a non-Royalty Throne) holds."""
    face_up = P(hands={0: ["Exile", "Elder"], 1: ["Aegis", "Zealot", "Sentry"]}, court=HEAVY)
    face_up.apply("Exile")
    assert face_up.legal() == ["Sentry", "Aegis", "flip"]
    flipped = P(hands={0: ["Exile", "Elder"], 1: ["Aegis", "Zealot", "Sentry"]}, court=HEAVY, flipped={1: True})
    flipped.apply("Exile")
    assert flipped.legal() == ["Sentry"]  # the Aegis lost its Steadfast, the Zealot's text is Muted
    flipped.s[L.CONSPIRING + 1] = 1
    assert flipped.legal() == ["Zealot", "Sentry", "Aegis"]


def test_under_exile_scope_court_hand_cards_keep_their_text():
    pos = P(hands={0: ["Exile", "King's Hand"], 1: ["Inquisitor", "Zealot"]}, court=HEAVY,
            options={"exile_scope": "court"})
    pos.apply("Exile")
    pos.s[L.CONSPIRING + 1] = 1
    pos.play("Inquisitor", "Elder")
    assert pos.phase == "King's Hand" and pos.decider == 0


# ---- play: every card accounted for, rounds end, replay equals batch --------------------------------------------
@pytest.mark.parametrize("in_deck", [True, False])
def test_random_rounds_with_the_four_cards_conserve_every_card_and_end(in_deck):
    cfg = signature_cfg(in_deck=in_deck)
    deck = cfg[L.CFG_DECK:L.CFG_DECK + T]
    out = np.zeros(L.MAX_ACTIONS, dtype=np.int64)
    stream = new_stream(11, 7)
    played = np.zeros(T, dtype=np.int64)
    kinds = set()
    for deal in range(60):
        taken = 0
        s = np.zeros(L.STATE_SIZE, dtype=np.int64)
        s[L.TRUE_KING] = deal % 2
        R.open_armies(s, cfg)
        R.deal_round(s, cfg, new_stream(deal, 0), 0, np.zeros(L.MAX_CARDS, dtype=np.int64))
        while s[L.PHASE] != L.PH_ROUND_OVER:
            n = R.answers(R.legal_mask(s, cfg), out)
            assert n > 0
            a = out[below(stream, n)]
            if s[L.PHASE] == L.PH_TURN and a < T:
                played[a] += 1
            kinds.add((int(s[L.PHASE]), int(s[L.PICK_FOR])))
            R.apply_action(s, cfg, a)
            if s[L.PHASE] != L.PH_ROUND_OVER:  # the Army cards taken this round are Exhausted as it ends
                taken = s[L.ARMY_TAKEN:L.ARMY_TAKEN + T] + s[L.ARMY_TAKEN + T:L.ARMY_TAKEN + 2 * T]
            assert np.array_equal(R.count_cards(s), deck + taken)
        assert s[L.CAPPED] == 0 and s[L.WINNER] >= 0
    assert all(played[t] > 0 for t in MINE)
    if in_deck:
        assert {(L.PH_PICK_COURT, L.PICK_STRANGER_COPY), (L.PH_PICK_CARD, L.PICK_NAKTURN_NAME)} <= kinds
        assert any(k[0] == L.PH_NAKTURN_GUESS for k in kinds)


def run(cfg, seats, seed, count, max_rounds=24):
    setup = GAME.make_setup(MODE, 2, seats, max_length=max_rounds)
    rows = M.simulate_batch(cfg, setup.policy_codes, setup.policy_params, setup.restrict, np.int64(seed),
                            np.int64(0), np.int64(count), np.int64(M.BLOCK), np.int64(setup.rotations),
                            np.int64(max_rounds))
    return setup, rows


@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "search"])
def test_every_policy_plays_matches_with_the_four_cards_to_their_end(policy):
    search = policy == "search"
    seats = [(policy, {"rollouts": 2} if search else {}), ("heuristic", {})]
    for in_deck in (True, False):
        setup, rows = run(signature_cfg(in_deck=in_deck), seats, 5, 2 if search else 6, 2 if search else 24)
        df = GAME.frame(setup, rows)
        assert (df["capped"] == 0).all() and df["decided"].sum() > 0
        if not search:
            assert (df.groupby("game")["match_winner"].max() >= 0).all()


def test_replay_of_a_match_with_the_four_cards_equals_the_batch_row():
    cfg = signature_cfg(in_deck=True)
    setup, batch = run(cfg, [("random", {}), ("heuristic", {})], 9, 4)
    for k in (0, 3):
        rows, fill = M.simulate_traced(cfg, setup.policy_codes, setup.policy_params, setup.restrict, np.int64(9),
                                       np.int64(k), np.int64(setup.rotations), np.int64(24),
                                       np.zeros((20_000, L.EVENT_WIDTH), dtype=np.int64))
        assert np.array_equal(rows, batch[k * 24:(k + 1) * 24]) and fill > 0
