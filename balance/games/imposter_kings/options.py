"""Modes, rule options and the policy ladder of The Imposter Kings (base game: 2 players, Cutthroat for 3,
2v2 for 4; Fragments of Nersetti for 2 players, its steps; Cutthroat and 2v2 Mercenaries for 3 and 4).
The uncertain card texts (the Bard, the Arbiter) are options: an effect from a small menu and its
condition, validated here, named in every report header of a mode that deals them."""

from dataclasses import replace

import numpy as np

from balance.engine.game import Action, Mode, Option, Param, Policy, SetupError
from balance.engine.ismcts import OPPONENTS_MODELLED, TREE_RUNGS, ismcts_policies
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings.policies import (
    GREEDY, HEURISTIC, HEURISTIC_DEFAULTS, ISMCTS, RANDOM, RANDOM_MULLIGAN_DEFAULT, RANDOM_MUSTER_DEFAULT, SEARCH)

MODES = {
    "full": Mode("full", (2,), "The full 2-player base game: 18 cards, 8 each, Accused + unused card, "
                              "Successor and Dungeon, mulligans, scoring 1 + King face up + cards left."),
    "quickplay": Mode("quickplay", (2,), "Learn to play: 14 cards, 7 each, the Assassin is the Accused, "
                                         "Successor only, 1 point per round."),
    "assassin_step": Mode("assassin_step", (2,), "Learning step 1: Quickplay with the Assassin shuffled in "
                                                 "(15 cards, the card left over is the Accused)."),
    "kings_hand_step": Mode("kings_hand_step", (2,), "Learning step 2: also the King's Hand (16 cards; one "
                                                     "leftover is the Accused, the other is unused)."),
    "cutthroat": Mode("cutthroat", (3,), "Cutthroat, 3 players, base game: 25 cards (with Executioner, Herald, "
                                         "Warden, Spy), 8 each, the last card Accused; Reveal 2 then 1, the "
                                         "Exchange, the True King chooses first player and direction; Successor "
                                         "and Dungeon, no mulligans; knock-outs, the Assassin's three-player rule; "
                                         "scoring 1 + King face up + 1 per opponent with cards left, second place 1."),
    "two_v_two": Mode("two_v_two", (4,), "2v2, 4 players in two teams (partners opposite: seats 0 & 2 against "
                                         "1 & 3), base game: 29 cards, 7 each, the last card Accused; Reveal 3, "
                                         "a fourth card for the partner, the True King chooses first player and "
                                         "direction, take a card from the partner's four, mulligans (one free "
                                         "per team), Successors (partners see each other's), the Trade (up to 2 "
                                         "cards), Dungeon; the first knock-out loses the round for its team; "
                                         "team scoring 1 + a King face up + an opponent with cards left."),
    "immortal_step": Mode("immortal_step", (2,), "Fragments of Nersetti for 2 players, step 1: the full 2-player "
                                                 "game with the Immortal and a Warden added (20 cards, 9 each, "
                                                 "Accused + unused card, Successor and Dungeon, mulligans, "
                                                 "scoring 1 + King face up + cards left)."),
    "army_step": Mode("army_step", (2,), "Fragments of Nersetti for 2 players, step 2: the Immortal step with an "
                                         "Army each (Elder, Inquisitor, Soldier, Judge, Oathbound and the Aegis, "
                                         "match-long), the Mustering Phase after the first player is chosen "
                                         "(Recruit, Recommission; the player going second first), no mulligans, "
                                         "every Army card taken into a hand Exhausted at the round's end."),
    "signature_step": Mode("signature_step", (2,), "Fragments of Nersetti for 2 players, step 3: the Army step's "
                                                   "rules with an Army of the five Army cards (no Aegis) and each "
                                                   "player's 3 Signature Cards for the whole match, chosen at the "
                                                   "match's start (option signatures: secretly and revealed at "
                                                   "the same time, Tournament Mode's draft, or at random)."),
    "fon": Mode("fon", (2,), "Fragments of Nersetti for 2 players, the full rules: the 20-card deck (the Immortal "
                             "and a Warden added), 9 each, Accused + unused card; an Army of the five Army cards and "
                             "3 Signature Cards each for the whole match (option signatures); no mulligans; the "
                             "Mustering Phase (the player going second first): Recruit, Recommission and choose a "
                             "new King (the Master Tactician, with its Squire, or the Charismatic Leader; option "
                             "king_facets); Successor (and Squire) and Dungeon; full scoring."),
    "cutthroat_mercenaries": Mode(
        "cutthroat_mercenaries", (3,),
        "Cutthroat Mercenaries, 3 players (Fragments of Nersetti): 25 cards (with 2 Bards), 8 each, the last "
        "card Accused; an Army each (the five Army cards, match-long); 5 of the 9 Signature Cards face up as "
        "Mercenaries each round; the Bid (3 cards revealed, the highest total swaps bid cards for Mercenaries "
        "for free, the True King breaks ties); the True King chooses first player and direction; the Mercenary "
        "muster in reverse turn order (Recruit from the Army, Recruit a Mercenary for an Exhaust, "
        "Recommission, choose a new King: a King with both facets, option king_facets); Successor (and Squire) "
        "and Dungeon, no mulligans; Cutthroat's scoring and Assassin rule."),
    "two_v_two_mercenaries": Mode(
        "two_v_two_mercenaries", (4,),
        "2v2 Mercenaries, 4 players in two teams (partners opposite): 29 cards (2 Bards, the Arbiter), 7 each, "
        "the last card Accused; an Army each; 5 Mercenaries a round; the Bid of 3 cards plus an extra card "
        "(revealed to raise the bid in turn order until nobody does; partners then see it), the free swap, the "
        "True King's first player and direction, the Mercenary muster (Recommission may feed the partner's "
        "Army; the King facets as in Cutthroat Mercenaries), Successors (and Squires) (partners see each other's), the Trade, Dungeon, no mulligans; the first knock-out "
        "loses the round; the winning team scores 1 + 1 per face-up King of the team."),
}
# The long report's parts (balance.report): each family of modes a page of its own, small enough to read.
LEARNING, FRAGMENTS = "Quickplay and learning steps", "Fragments of Nersetti"
REPORT_PARTS = {"quickplay": LEARNING, "assassin_step": LEARNING, "kings_hand_step": LEARNING,
                "full": "Full 2-player game", "immortal_step": f"{FRAGMENTS}, Immortal and Army steps",
                "army_step": f"{FRAGMENTS}, Immortal and Army steps",
                "signature_step": f"{FRAGMENTS}, Signature step and full rules",
                "fon": f"{FRAGMENTS}, Signature step and full rules", "cutthroat": "Cutthroat, 3 players",
                "two_v_two": "2v2, 4 players", "cutthroat_mercenaries": "Mercenaries, 3 and 4 players",
                "two_v_two_mercenaries": "Mercenaries, 3 and 4 players"}
MODE_DECKS = {"full": L.FULL_DECK, "quickplay": L.QUICKPLAY_DECK, "assassin_step": L.ASSASSIN_STEP_DECK,
              "kings_hand_step": L.KINGS_HAND_STEP_DECK, "cutthroat": L.CUTTHROAT_DECK,
              "two_v_two": L.TWO_V_TWO_DECK, "immortal_step": L.IMMORTAL_STEP_DECK,
              "army_step": L.IMMORTAL_STEP_DECK, "signature_step": L.IMMORTAL_STEP_DECK,
              "fon": L.IMMORTAL_STEP_DECK,
              "cutthroat_mercenaries": L.CUTTHROAT_MERC_DECK, "two_v_two_mercenaries": L.TWO_V_TWO_MERC_DECK}
MODE_HAND = {"full": 8, "quickplay": 7, "assassin_step": 7, "kings_hand_step": 7, "cutthroat": 8, "two_v_two": 7,
             "immortal_step": 9, "army_step": 9, "signature_step": 9, "fon": 9, "cutthroat_mercenaries": 8,
             "two_v_two_mercenaries": 7}
# The modes played as the full game (Successor and Dungeon, full scoring; mulligans but in Cutthroat).
FULL_GAME_MODES = ("full", "cutthroat", "two_v_two", "immortal_step", "army_step", "signature_step", "fon",
                   "cutthroat_mercenaries", "two_v_two_mercenaries")
ARMY_MODES = {"army_step": L.ARMY_STEP, "signature_step": L.ARMY_CARDS, "fon": L.ARMY_CARDS,
              "cutthroat_mercenaries": L.ARMY_CARDS, "two_v_two_mercenaries": L.ARMY_CARDS}
SIGNATURE_MODES = ("signature_step", "fon")  # the modes whose players choose Signature Cards for their Army
SIGNATURE_CHOICE = {"choose": L.SIG_CHOOSE, "tournament": L.SIG_TOURNAMENT, "random": L.SIG_RANDOM}
FIXED_SIGNATURE_KEYS = ("signatures_seat0", "signatures_seat1")  # each player's Army at the match's start
TEAM_MODES = ("two_v_two", "two_v_two_mercenaries")
CUTTHROAT_MODES = ("cutthroat", "cutthroat_mercenaries")  # second place scores
MULLIGAN_MODES = ("full", "two_v_two", "immortal_step")
MERC_MODES = ("cutthroat_mercenaries", "two_v_two_mercenaries")  # the Bid, the Mercenaries
# The modes that choose King facets by default (option king_facets 'mode'); the Mercenary modes' "a King with
# both facets".
FACET_MODES = ("fon",) + MERC_MODES
# The modes with the Reveal before play, the True King choosing first player and direction.
REVEAL_MODES = ("cutthroat", "two_v_two") + MERC_MODES
MODE_PLAYERS = {mode: m.players[0] for mode, m in MODES.items()}

TEXT_EFFECTS = ("none", "recall")  # the menu of effects a text card's data may name (layout.EFFECT_*)
OPTIONS = (
    Option("first_player", "true_king",
           "Who goes first each round: 'true_king' (rulebook: the True King's holder chooses, after seeing "
           "the hand; in Cutthroat after the Exchange, in 2v2 after the fourth card for the partner), or forced: "
           "'seat0' / 'seat1' / 'seat2' / 'seat3' (a study device; seat0 is the issue's 'seat 1'; seat2 from 3 "
           "players, seat3 in 2v2).",
           choices=("true_king", "seat0", "seat1", "seat2", "seat3")),
    Option("direction", "true_king",
           "The direction of play with 3 or 4 players: 'true_king' (rulebook: the True King chooses it with the "
           "first player), or forced 'clockwise' (seat p+1 plays after seat p) / 'counterclockwise'. The 2-player "
           "game has no direction.", choices=("true_king", "clockwise", "counterclockwise")),
    Option("herald_follow", "any",
           "The card the Herald lets its player play next ('another card of value 5 or more'): 'any' such card, "
           "the Herald's permission replacing the Throne rule (else the text's 5 could never follow a 6), or "
           "'on_throne': it must also be at least the Herald's value.", choices=("any", "on_throne")),
    Option("spy_chooser", "player",
           "Who picks the card that becomes the new Successor when the Spy forces a player to exchange: 'player' "
           "(card sheet default: the forced player, from its own hand) or 'spy' (the Spy's user looks at that "
           "hand and picks; it then knows the exchange).", choices=("player", "spy")),
    Option("mystic_scope", "everywhere",
           "Where the Mystic's named value loses its text: 'everywhere' (rulebook FAQ 'Does the Mystic "
           "affect cards everywhere? Yes', and its tip that naming 2 cancels the Assassin: cards in hand "
           "lose text too, value 3 only once played) or 'court' (card sheet ruling 6: played cards only).",
           choices=("everywhere", "court")),
    Option("immortal_scope", "hand_and_court",
           "Where the Immortal's -1 and Mute reach the Queen, Princess and Elders while she is in Court: "
           "'hand_and_court' (rulebook FAQ on values: 'In your hand, an Elder has a value of 2 (the Immortal "
           "gives it -1)'; so in hand an Elder may not go onto Royalty, a Queen or Princess is worth 8) or 'court' "
           "(card sheet: 'default: Court cards only').", choices=("hand_and_court", "court")),
    Option("immortal_arrival", "muted",
           "A Queen or Princess played while the Immortal is in Court: 'muted' (she is Muted as long as the "
           "Immortal is in Court, so the card arrives without its ability) or 'ability_first' (its ability "
           "happens as it is played, the Mute then applies: the Queen Disgraces the Immortal too).",
           choices=("muted", "ability_first")),
    Option("mystic_steadfast", "steadfast_wins",
           "Whether the Mystic's 'lose their text' is a Mute for Steadfast: 'steadfast_wins' (the Reference's "
           "Muted is 'loses all of its card text', so the Mystic Mutes, and 'Steadfast always beats Muted' and "
           "forbids lowering its value: the Immortal keeps her text and her 5 when the Mystic names 6) or "
           "'mystic_wins' (the Mystic's effect reaches every card of the number: the Immortal is worth 3 and "
           "her effect ends).", choices=("steadfast_wins", "mystic_wins")),
    Option("exile_scope", "everywhere",
           "Which cards the Exile's 'every card is Muted until the start of your next turn (Steadfast cards "
           "excepted)' reaches: 'everywhere' (default, 'every card' read literally: the Court, the cards played "
           "while it lasts, and the cards in hands and Antechambers, so reactions and play permissions such as "
           "the Elder's fall silent too) or 'court' (the Court and the cards played while it lasts only).",
           choices=("everywhere", "court")),
    Option("exile_counts", "itself",
           "Whether the Exile on the Throne ('Worth 1 less on the Throne for each Court card of base value 7 or "
           "more') counts itself: 'itself' (default, the literal 'each Court card': an Exile on the Throne is at "
           "most 7, as the Conspiracist's 6 is always a 5 there; the printed 8 still counts in hand) or 'others' "
           "(the other face-up Court cards only).", choices=("itself", "others")),
    Option("stranger_immune", "kept",
           "Whether the Stranger's copied ability, and its reaction as the Assassin, keep the Stranger's Immunity "
           "to King's Hand: 'kept' (default: it copies 'the name and ability', not the keywords, so its own "
           "keyword stays) or 'lost' (the King's Hand may stop what it copied).", choices=("kept", "lost")),
    Option("mystic_royalty", "kept",
           "Whether a card the Mystic's number Muted keeps its Royalty. The Mystic names 1-8, so only the "
           "Warlord the Immortal gives Royalty can be named (the Queen and Princess are 9s): 'kept' (default, "
           "the base game's reading: the Mystic's 'lose their text' takes the card's own text, and its Royalty "
           "comes from the Immortal) or 'lost' (the Reference's Muted 'loses all of its card text, including "
           "Royalty and other keywords': such a Warlord on the Throne is no Royalty for the Elder, the Zealot "
           "or the Ancestor, and the Sentry may pick it).", choices=("kept", "lost")),
    Option("mulligans", "mode",
           "'mode': mulligans in the full game, the Immortal step and 2v2 (one free per team) only (the learning "
           "modes' setup does not list them, Cutthroat and the Army have none); "
           "'always' or 'never'.", choices=("mode", "always", "never"), assumed=True),
    Option("learning_scoring", "one_point",
           "Round scoring in Quickplay and the learning steps: 'one_point' (rulebook: 'The winner of each "
           "round gets 1 point') or 'full' (1 + King face up + cards left, as the full game).",
           choices=("one_point", "full")),
    Option("trade_retries", 1,
           "2v2's Trade: 'If partners put out a different number of cards, try again to match. If you can't, no "
           "cards are traded.' How many times partners whose counts differ take their cards back and place "
           "again (each now knowing the other's count) before the trade is off: 1 (default: 'try again' read as "
           "one more try), 0 (a mismatch ends the trade at once), or more.", low=0),
    Option("rally_short", "partial",
           "Fragments of Nersetti's Rally ('If you don't have enough cards in your Army, ignore it') when a card "
           "asks for more Rallies than the Army holds valid cards (the Flag Bearer's 'Rally twice' with one Army "
           "card): 'partial' (default: each Rally takes one card, and a Rally without a card is ignored, so "
           "the cards there are are taken) or 'all_or_none' (the whole Rally is ignored).",
           choices=("partial", "all_or_none")),
    Option("ancestor_scope", "hand_and_court",
           "Where the Ancestor's 'While in the Court, Elders have Steadfast and +3 value' reaches: 'hand_and_court' "
           "(the text names all Elders; as the Immortal's default reading, after the rulebook FAQ's Elder in hand: "
           "an Elder in hand is a 6 and may go onto any card up to 6) or 'court' (played Elders only).",
           choices=("hand_and_court", "court")),
    Option("ancestor_antechamber", "ability",
           "The Ancestor played from the Antechamber onto a Royalty card: 'ability' (default: it is played on a "
           "Royalty card, and an Antechamber card's ability still happens) or 'hand_only' (its 'if so' needs "
           "its permission, used only from hand: no Recall, no Rally; as the Oathbound's override).",
           choices=("ability", "hand_only")),
    Option("signatures", "choose",
           "Step 3 (mode signature_step): how each player's 3 Signature Cards are chosen at the match's start. "
           "'choose' (rulebook: 'Each player secretly chooses 3 of the 9 Signature Cards for the whole match ... "
           "Both players reveal their choices at the same time'), 'tournament' (Tournament Mode: each secretly "
           "chooses 1; the draft deck is every other Signature Card (one removed if both chose the same); 5 dealt "
           "face up; the player without the True King picks first or second; first 1, second 2, first 1 more) "
           "or 'random' (house rule: 'give each player 3 random Signature Cards', each from its own 9).",
           choices=("choose", "tournament", "random")),
    Option("signatures_seat0", [],
           "Step 3: fix seat 0's three Signature Cards (e.g. [\"Exile\", \"Aegis\", \"Ancestor\"]; 3 distinct "
           "Signature Card names; default []: chosen as option signatures says). A study device: the strength of "
           "an Army holding a card. With 'tournament', fix both seats or neither."),
    Option("signatures_seat1", [], "Step 3: fix seat 1's three Signature Cards (as signatures_seat0)."),
    Option("king_facets", "mode",
           "Step 4, Facets of the King: 'During your Mustering Phase you may now also choose a new King' (the "
           "Master Tactician or the Charismatic Leader, placed over the current King and kept for the next "
           "rounds until another is chosen; the True King stays with its holder: 'use the True King side of "
           "your new King'). 'mode': on in the full Fragments of Nersetti mode ('fon') and the Mercenary modes "
           "('a King with both facets'; its own first step of each Mercenary muster); 'on' (any mode with an "
           "Army) or 'off'.", choices=("mode", "on", "off")),
    Option("facet_leftover", "stays",
           "The card a flipped Master Tactician or Charismatic Leader does not take ('take the Successor or "
           "the Squire'): 'stays' (nothing in the text moves it: a Successor left is still a Successor, so it "
           "counts for scoring's 'cards in their hand or a Successor', the Spy and the Herald; a Squire left lies "
           "out of play like the Dungeon card, and 'A Squire is not a Successor') or 'removed' (removed from the "
           "round face down at the flip).", choices=("stays", "removed")),
    Option("bid_swap", "discard",
           "Mercenary modes: where a bid card goes when the highest bid swaps it for a Mercenary ('may swap any of "
           "their revealed cards for any Mercenary cards, for free'): 'discard' (face up, out of the round, as the "
           "muster's 'Recruit a Mercenary ... discard one of your 3 revealed bid cards', the same exchange with its "
           "cost; default) or 'to_mercenary_area' (a literal swap: the card lies in the Mercenary area, where "
           "anyone may Recruit it).", choices=("discard", "to_mercenary_area")),
    Option("bard_effect", "recall",
           "The Bard's uncertain text (rules sheet: 'When played on a card of base value 3 or 4, Recall'), from the "
           "menu of effects: 'recall' (put one of your Exhausted cards back into your Army; ignored without one) "
           "or 'none' (a plain 4).", choices=TEXT_EFFECTS),
    Option("bard_on_base", "3,4",
           "The base values of the card the Bard must be played on for its effect: 'any', or values 1..9 "
           "separated by commas (rules sheet: '3,4'). A Disgraced card has no base value."),
    Option("arbiter_effect", "none",
           "The Arbiter's text is unknown; default 'none': a plain 5 (inventing an exchange or a guess would put "
           "rules in every number that no source gives). 'recall' as the Bard's is the other menu entry.",
           choices=TEXT_EFFECTS),
    Option("arbiter_on_base", "any", "As bard_on_base, for the Arbiter's effect (default 'any')."),
    Option("arbiter_needs_other", True,
           "The FAQ's one fact about the Arbiter: 'Can I play the Arbiter if I have no other cards to exchange? "
           "No. ... you need another card in your hand to play it.' true: it is never played from hand as the "
           "last card."),
    Option("points_to_win", 7, "Points that win the match (rulebook: 7).", low=1),
    Option("round_turn_cap", 200,
           "Turns after which a round stops and counts as capped (no winner). Rounds end far sooner; "
           "this only guards the loop.", assumed=True, low=1),
)

HEURISTIC_POLICY_PARAMS = (
    Param("low_card", HEURISTIC_DEFAULTS[0], "cost of spending a card, per point of value / 9", 0.0, 100.0),
    Param("block", HEURISTIC_DEFAULTS[1], "reward for a Throne value the opponent probably cannot beat", 0.0, 100.0),
    Param("flip_cost", HEURISTIC_DEFAULTS[2], "cost of flipping the King", 0.0, 100.0),
    Param("assassin_fear", HEURISTIC_DEFAULTS[3], "extra flip cost x P(opponent holds the Assassin)", 0.0, 100.0),
    Param("ability", HEURISTIC_DEFAULTS[4], "reward for an ability likely to succeed", 0.0, 100.0),
    Param("first_at", HEURISTIC_DEFAULTS[5], "True King goes first when its hand's mean value is at least this",
          0.0, 10.0),
    Param("mulligan_below", HEURISTIC_DEFAULTS[6], "free mulligan when the hand's mean value is below this",
          0.0, 10.0),
    Param("kings_hand_at", HEURISTIC_DEFAULTS[7], "react with the King's Hand when the harm estimate reaches this",
          0.0, 100.0),
    Param("facet", HEURISTIC_DEFAULTS[8], "Step 4 (mode fon, the Mercenary modes' King step): the King it "
                                          "chooses while mustering: 0 keeps the base King (default), 1 the "
                                          "Master Tactician, 2 the Charismatic Leader. Against the base King "
                                          "(fon, 20,000 mirrored matches): the Leader wins 0.491 [0.482, 0.501], "
                                          "the Tactician 0.245 [0.237, 0.254]", 0.0, 2.0, integer=True),
)

# The tree search's parameter after the engine's (policies.I_FACET): its decisions outside the search are the
# heuristic's, and so is the King it musters, chosen as the heuristic's ``facet``.
TREE_FACET = Param("facet", 0.0, "Step 4 (mode fon, the Mercenary modes' King step): the King it chooses while "
                                 "mustering, as the heuristic's `facet`: 0 keeps the base King (default), 1 the "
                                 "Master Tactician, 2 the Charismatic Leader", 0.0, 2.0, integer=True)

POLICIES = (
    Policy("random", RANDOM, "uniform over the legal actions at every decision but the mulligan, which it calls "
                             "with probability `mulligan` (named in the policy's label), and the Mustering "
                             "Phase, where it takes another action with probability `muster`",
           (Param("mulligan", RANDOM_MULLIGAN_DEFAULT,
                  "probability of calling a mulligan when offered one. Default 0.1: about as many mulligans "
                  "per round as the heuristic calls (0.21 vs 0.28), and 8% of True-King matches end on a "
                  "costly mulligan's points; at 0.5 (the uniform choice) 72% do and rounds no longer decide "
                  "matches", 0.0, 1.0),
            Param("muster", RANDOM_MUSTER_DEFAULT,
                  "probability of taking another mustering action (a uniform one of those legal) rather than "
                  "stopping, at each step of the Mustering Phase (Army modes). Default 0.25: uniform answers "
                  "would spend the whole Army in the first round", 0.0, 1.0)),
           labelled=("mulligan",)),
    Policy("greedy", GREEDY, "play the lowest legal card, flip the King only when stuck; always react; "
                             "never mulligan nor muster; other choices at random"),
    Policy("heuristic", HEURISTIC, "ability-aware weighted scoring with the opponent's hand inferred from "
                                   "everything public and seen", HEURISTIC_POLICY_PARAMS),
    Policy("search", SEARCH, "flat Monte Carlo (PIMC): per legal action, the same determinized worlds (every "
                             "hidden card and hidden pending choice dealt from its seat's view only) played out "
                             "by a fast inner policy; the best mean round result",
           (Param("rollouts", 16.0, "determinized rollouts per legal action", 1.0, 10000.0, integer=True),
            Param("inner", float(HEURISTIC), "inner rollout policy: 1 greedy, 2 heuristic", 1.0, 2.0, integer=True))),
) + tuple(replace(p, params=p.params + (TREE_FACET,)) for p in ismcts_policies(
    ISMCTS, "heuristic at its defaults; a rollout plays the round out, each side valued by its match score less "
            "the other sides' mean. Its decisions are the flat search's (who goes first and the round in play); "
            "the others are the heuristic's (but the King it musters: `facet`)",
    # measured (full, one seat against the heuristic, 200 matches, seed 7): the other seats answered by the
    # rollout heuristic win 0.89 / 0.94 of the matches at 256 / 1,024 iterations, as tree nodes 0.79 / 0.88
    opponents=OPPONENTS_MODELLED))

FIRST_MODES = {"true_king": L.FIRST_BY_TRUE_KING, "seat0": L.FIRST_SEAT0, "seat1": L.FIRST_SEAT1,
               "seat2": L.FIRST_SEAT2, "seat3": L.FIRST_SEAT3}
DIRECTIONS = {"true_king": L.DIRECTION_BY_TRUE_KING, "clockwise": L.CLOCKWISE, "counterclockwise": L.COUNTERCLOCKWISE}


def config_row(mode: str, options: dict) -> np.ndarray:
    """The kernel's configuration row for a mode and validated options."""
    if mode not in MODE_DECKS:
        raise SetupError("mode", f"unknown mode '{mode}'")
    cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
    deck = MODE_DECKS[mode].copy()
    fixed = -1
    if mode == "quickplay":
        fixed = L.ASSASSIN  # set aside face up as the Accused
    cfg[L.CFG_DECK:L.CFG_DECK + L.TYPES] = deck
    cfg[L.CFG_HAND] = MODE_HAND[mode]
    cutthroat = mode in CUTTHROAT_MODES
    teams = mode in TEAM_MODES
    cfg[L.CFG_PLAYERS] = MODE_PLAYERS[mode]
    cfg[L.CFG_REVEAL] = 1 if mode in REVEAL_MODES else 0
    cfg[L.CFG_TEAMS] = 1 if teams else 0
    cfg[L.CFG_SECOND_POINT] = 1 if cutthroat else 0
    cfg[L.CFG_DIRECTION] = DIRECTIONS[options["direction"]]
    cfg[L.CFG_HERALD_ANY] = 1 if options["herald_follow"] == "any" else 0
    cfg[L.CFG_SPY_USER_CHOOSES] = 1 if options["spy_chooser"] == "spy" else 0
    cfg[L.CFG_DUNGEON] = 1 if mode in FULL_GAME_MODES else 0
    mulligans = options["mulligans"]
    if (cutthroat or mode in ARMY_MODES) and mulligans == "always":
        raise SetupError("options.mulligans", f"mode '{mode}' has no mulligans (rulebook)")
    cfg[L.CFG_MULLIGANS] = 1 if mulligans == "always" or (mulligans == "mode" and mode in MULLIGAN_MODES) else 0
    if options["trade_retries"] < 0:
        raise SetupError("options.trade_retries", "must be at least 0")
    cfg[L.CFG_TRADE_RETRIES] = options["trade_retries"]
    if FIRST_MODES[options["first_player"]] - L.FIRST_SEAT0 >= MODE_PLAYERS[mode]:
        raise SetupError("options.first_player", f"'{options['first_player']}' is not a seat of mode '{mode}' "
                                                 f"({MODE_PLAYERS[mode]} players)")
    cfg[L.CFG_FIRST_MODE] = FIRST_MODES[options["first_player"]]
    cfg[L.CFG_FULL_SCORING] = 1 if mode in FULL_GAME_MODES or options["learning_scoring"] == "full" else 0
    cfg[L.CFG_MUTE_HAND] = 1 if options["mystic_scope"] == "everywhere" else 0
    cfg[L.CFG_IMMORTAL_HAND] = 1 if options["immortal_scope"] == "hand_and_court" else 0
    cfg[L.CFG_ARRIVAL_ABILITY] = 1 if options["immortal_arrival"] == "ability_first" else 0
    cfg[L.CFG_MYSTIC_IS_MUTE] = 1 if options["mystic_steadfast"] == "steadfast_wins" else 0
    cfg[L.CFG_MYSTIC_ROYALTY_LOST] = 1 if options["mystic_royalty"] == "lost" else 0
    cfg[L.CFG_EXILE_HAND] = 1 if options["exile_scope"] == "everywhere" else 0
    cfg[L.CFG_EXILE_SELF] = 1 if options["exile_counts"] == "itself" else 0
    cfg[L.CFG_STRANGER_IMMUNE] = 1 if options["stranger_immune"] == "kept" else 0
    cfg[L.CFG_RALLY_ALL_OR_NONE] = 1 if options["rally_short"] == "all_or_none" else 0
    cfg[L.CFG_ANCESTOR_HAND] = 1 if options["ancestor_scope"] == "hand_and_court" else 0
    cfg[L.CFG_ANCESTOR_ANTE] = 1 if options["ancestor_antechamber"] == "ability" else 0
    if options["points_to_win"] < 1:
        raise SetupError("options.points_to_win", "must be at least 1")
    if options["round_turn_cap"] < 1:
        raise SetupError("options.round_turn_cap", "must be at least 1")
    cfg[L.CFG_POINTS] = options["points_to_win"]
    cfg[L.CFG_PLY_CAP] = options["round_turn_cap"]
    cfg[L.CFG_FIXED_ACCUSED] = fixed
    army = ARMY_MODES.get(mode, np.zeros(L.TYPES, dtype=np.int64))
    cfg[L.CFG_ARMY:L.CFG_ARMY + L.TYPES] = army
    facets = options["king_facets"]
    if facets == "on" and mode not in ARMY_MODES:
        raise SetupError("options.king_facets", f"mode '{mode}' has no Mustering Phase to choose a King in")
    cfg[L.CFG_KING_FACETS] = 1 if facets == "on" or (facets == "mode" and mode in FACET_MODES) else 0
    cfg[L.CFG_FACET_LEFTOVER_REMOVED] = 1 if options["facet_leftover"] == "removed" else 0
    cfg[L.CFG_MERC] = 1 if mode in MERC_MODES else 0
    cfg[L.CFG_SWAP_TO_AREA] = 1 if options["bid_swap"] == "to_mercenary_area" else 0
    for k, card in enumerate(("bard", "arbiter")):
        cfg[L.CFG_TEXT_EFFECT + k] = TEXT_EFFECTS.index(options[f"{card}_effect"])
        cfg[L.CFG_TEXT_ON_BASE + k] = base_value_mask(options[f"{card}_on_base"], f"options.{card}_on_base")
    cfg[L.CFG_TEXT_NEEDS_OTHER + 1] = 1 if options["arbiter_needs_other"] else 0
    signature_config(cfg, mode, options)
    chosen = L.SIGNATURE if mode in SIGNATURE_MODES or mode in MERC_MODES else 0  # and Mercenaries
    cfg[L.CFG_TYPES] = max(int(np.flatnonzero(deck + army + chosen)[-1]), fixed) + 1
    return cfg


def signature_config(cfg: np.ndarray, mode: str, options: dict) -> None:
    """Step 3's choice (option signatures) and the seats whose three Signature Cards are fixed."""
    fixed = [options[key] for key in FIXED_SIGNATURE_KEYS]
    if mode not in SIGNATURE_MODES:
        for key, names in zip(FIXED_SIGNATURE_KEYS, fixed):
            if names:
                raise SetupError(f"options.{key}", f"mode '{mode}' has no Signature Cards (mode signature_step)")
        cfg[L.CFG_SIGNATURES] = L.SIG_NONE
        return
    cfg[L.CFG_SIGNATURES] = SIGNATURE_CHOICE[options["signatures"]]
    for seat, (key, names) in enumerate(zip(FIXED_SIGNATURE_KEYS, fixed)):
        if not names:
            continue
        try:
            types = [L.type_of(name) for name in names]
        except (KeyError, AttributeError):
            types = []
        if len(types) != L.SIGNATURE_CHOICES or len(set(types)) != len(types) or not all(L.SIGNATURE[t] for t in types):
            raise SetupError(f"options.{key}", f"must name {L.SIGNATURE_CHOICES} distinct Signature Cards (of "
                                               f"{', '.join(L.NAMES[t] for t in L.SIGNATURE_TYPES)}); got {names!r}")
        cfg[L.CFG_SIGNATURES_FIXED + seat] = sum(1 << t for t in types)
    if options["signatures"] == "tournament" and bool(fixed[0]) != bool(fixed[1]):
        key = FIXED_SIGNATURE_KEYS[0] if fixed[0] else FIXED_SIGNATURE_KEYS[1]
        raise SetupError(f"options.{key}", "Tournament Mode's draft is between both players: fix both seats or neither")


def base_value_mask(text: str, key: str) -> int:
    """A text card's 'played on' condition: 'any' or comma-separated base values 1..9, as bits."""
    if text.strip().lower() == "any":
        return (1 << (int(L.BASE_VALUE.max()) + 1)) - 1
    mask = 0
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= L.BASE_VALUE.max():
            raise SetupError(key, f"expected 'any' or base values 1..{L.BASE_VALUE.max()} separated by commas "
                                  f"(e.g. '3,4'); got {text!r}")
        mask |= 1 << int(part)
    return mask


def assumed_card_texts(mode: str, options: dict) -> list[str]:
    """The uncertain card texts a mode deals, as its report header names them."""
    texts = []
    for t, card in ((L.BARD, "bard"), (L.ARBITER, "arbiter")):
        if MODE_DECKS[mode][t] > 0:
            effect = options[f"{card}_effect"]
            on = options[f"{card}_on_base"]
            rule = "plain card" if effect == "none" else f"{effect} when played on base value {on}"
            if card == "arbiter" and options["arbiter_needs_other"]:
                rule += ", needs another card in hand"
            texts.append(f"{L.NAMES[t]}: {rule}")
    return [f"uses assumed card texts ({'; '.join(texts)})"] if texts else []


# The policy family (``balance check --robust``): the plausible players, every seat the same kind.
# The heuristic scores its cards without a temperature; its behavioural end is the True King's
# choice (``first_at``: always go first, never go first), the choice the first-player study asks about.
FAMILY = (
    ("random (mulligan 0.1)", "random", {}),
    ("greedy (lowest card first)", "greedy", {}),
    ("heuristic (the default)", "heuristic", {}),
    ("heuristic, always first (first_at 0)", "heuristic", {"first_at": 0.0}),
    ("heuristic, always second (first_at 10)", "heuristic", {"first_at": 10.0}),
    ("search (16 rollouts)", "search", {}),
)
# The strength ladder (``balance ladder``), weakest first: the hand-written policies, the flat search, then the
# tree search at growing budgets (ismcts.TREE_RUNGS).
LADDER = ("random", "greedy", "heuristic", "search") + TREE_RUNGS
# ---- the restriction menu (issue 11: restricted play) -----------------------------------------
# Forbidding a card means the seat never PUTS IT INTO PLAY while another answer is legal: it does
# not play it onto the Throne from hand, from its Antechamber or as the Oathbound's follow-up, does
# not put it into its Antechamber with the Judge (from there it would have to be played), and does
# not react with it (the Assassin on a King flip, the King's Hand on a chosen ability: revealing
# it is how those cards are used). The seat may still hold it, keep it as Successor or Dungeon,
# name it (Inquisitor, Soldier, Judge) and give it away (Sentry, Princess): those answers are
# about the card, not uses of it, and forbidding them would change the rest of the play. Rules
# still force it when nothing else is legal (the only card left to play, a lone Antechamber card).
# The Stranger in hand "may act as any Reaction card that is in the Court below the Throne": its
# reactions (answer STRANGER at the Assassin's and the King's Hand's decisions) are uses of the Stranger.
# Preferring a card: the seat puts it into play in every one of those decisions where it may.
# With 3 or 4 players the Herald's follow-up is one more way to put a card into play.
PLAY_KINDS = (L.PH_TURN, L.PH_ANTE, L.PH_OATH_FOLLOW, L.PH_JUDGE_ANTE)
CUTTHROAT_PLAY_KINDS = PLAY_KINDS + (L.PH_HERALD_PLAY,)
REACTIONS = {L.ASSASSIN: ((L.PH_ASSASSIN, L.ACT_YES),), L.KINGS_HAND: ((L.PH_KINGS_HAND, L.ACT_YES),),
             L.STRANGER: ((L.PH_ASSASSIN, L.STRANGER), (L.PH_KINGS_HAND, L.STRANGER))}


def card_action(t: int, kinds: tuple = PLAY_KINDS) -> Action:
    """The action "play card X": its bit in every decision that puts a card into play (and its reaction)."""
    pairs = tuple((kind, t) for kind in kinds[1:])
    doc = "play it (from hand, Antechamber, as the Oathbound's follow-up, or into the Antechamber by the Judge)"
    if t in REACTIONS:
        pairs += REACTIONS[t]
        doc += " or react with it" + (" (as the Assassin or the King's Hand)" if t == L.STRANGER else "")
    return Action(L.NAMES[t], PLAY_KINDS[0], t, doc, pairs)


def action_menu(mode: str, options: dict, cfg: np.ndarray) -> list[Action]:
    """The restriction menu of a setup (its mode, options and configuration row): every card dealt in
    the mode, then the choices it poses."""
    deck = (MODE_DECKS[mode] + ARMY_MODES.get(mode, 0)
            + (L.SIGNATURE if mode in SIGNATURE_MODES or mode in MERC_MODES else 0))
    kinds = CUTTHROAT_PLAY_KINDS if mode in REVEAL_MODES else PLAY_KINDS
    menu = [card_action(t, kinds) for t in range(L.TYPES) if deck[t] > 0]
    menu.append(Action("King flip", L.PH_TURN, L.ACT_FLIP, "flip the King (Disgrace the Throne, take the Successor)"))
    if cfg[L.CFG_MULLIGANS]:
        menu.append(Action("Mulligan", L.PH_MULLIGAN, L.ACT_YES, "call a mulligan when offered one"))
    if options["first_player"] == "true_king" and mode in REVEAL_MODES:
        menu.append(Action("Go first", L.PH_FIRST_SEAT, 0, "as the True King's holder, choose to go first "
                                                           "(forbidden: always let another player go first)"))
    elif options["first_player"] == "true_king":
        menu.append(Action("Go first", L.PH_FIRST, L.ACT_YES, "as the True King's holder, choose to go first "
                                                              "(forbidden: always go second)"))
    if cfg[L.CFG_KING_FACETS]:
        menu.append(Action("Choose a King", L.PH_PICK_CARD, L.ACT_FLIP, "choose a new King while mustering "
                                                                       "(forbidden: keep the current one)"))
        for facet in (L.FACET_TACTICIAN, L.FACET_LEADER):
            menu.append(Action(L.FACET_NAMES[facet], L.PH_KING, facet, f"choose the {L.FACET_NAMES[facet]} when "
                                                                       "choosing a King"))
    for t, ((kind, answer), *more) in REACTIONS.items():
        if deck[t] > 0:
            menu.append(Action(f"{L.NAMES[t]} reaction", kind, answer, f"react with the {L.NAMES[t]} when "
                                                                       "it may (its play onto the Throne "
                                                                       "is not restricted)", tuple(more)))
    return menu
