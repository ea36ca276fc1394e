"""Throne Arcade: the mode, rule options (scenario keys) and the policy registry."""

from balance.engine.game import Mode, Option, Param, Policy
from balance.engine.ismcts import BUDGETS, ismcts_policies, tree_rungs
from balance.games.throne_arcade.layout import (
    DEFAULT_DECK, MAX_PLAYERS, MIN_PLAYERS, POLICY_GREEDY, POLICY_HEURISTIC, POLICY_ISMCTS, POLICY_RANDOM,
    POLICY_SEARCH, START_HAND,
)

MODES = {
    "standard": Mode("standard", tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                     "The rulebook's game: rounds of shedding with the handicap of one card less per round "
                     "lost, until one player is left (2 to 6 players, the supplement's range)."),
}

OPTIONS = (
    Option("deck", list(DEFAULT_DECK),
           "The deck, one entry per card, named '<colour> <type>' (colours gold, green, blue, orange; types Lord, "
           "Hand, King, VII, VIII, IX, X, Ace); a name may repeat. Default, assumed (the rulebook gives no deck "
           "list): the 32 cards of 4 colours x 8 types, one of each, the shape of Prsi.", assumed=True),
    Option("start_hand", START_HAND, "Cards dealt to a player who has lost no round (rulebook: 5); one card "
                                     "less per round lost.", low=1),
    Option("stacking", False,
           "A player facing a VII's (or the green Lord's) draw may lay a fitting VII or green Lord instead, and "
           "the draws add up for the next player (Prsi). Default false: the rulebook's next player draws, then "
           "plays on."),
    Option("hand_on_anything", False,
           "A Hand may be laid on any card (Prsi custom). Default false: a Hand matches by colour or type like "
           "any card."),
    Option("king_draws_5", False,
           "A King makes the next player draw 5, unless they lay the Lord of the King's colour, which cancels it "
           "(some Prsi variants). Default false: Kings have no effect (the rulebook lists none)."),
    Option("play_drawn_card", False,
           "A card drawn because nothing fitted may be laid at once if it fits. Default false: the rulebook's "
           "player draws one card and the next player is on the turn."),
    Option("starting_card_acts", False,
           "The starting card's effect applies to the first player (a VII or green Lord: draw 3; an Ace: the "
           "starter is skipped; a King with king_draws_5: draw 5). Default false: the rulebook's effects come "
           "from cards a player lays ('drawed on the table' by a player)."),
    Option("round_turn_cap", 1000,
           "Turns after which a round stops and counts as capped (no loser; the match ends capped). Rounds end "
           "far sooner; this only guards the loop.", assumed=True, low=1),
)

HEURISTIC_PARAMS = (
    Param("shed", 1.0, "value of each card laid this turn", 0.0, 100.0),
    Param("hurt_next", 3.0, "value of a special's effect (a draw of 3, a skip) divided by the next player's "
                            "hand size; a draw counts the cards they can draw and cannot lay straight back",
          0.0, 100.0),
    Param("keep_special", 1.0, "cost of spending a special card (it is worth more later)", 0.0, 100.0),
    Param("colour_majority", 2.0, "value of the share of its remaining hand that fits the new top card "
                                  "(colour majority)", 0.0, 100.0),
    Param("counting", 1.5, "cost of the chance that the next player can follow the new top card, counted "
                           "from the cards the player has not seen", 0.0, 100.0),
)

# In the order of policies.S_ROLLOUTS, S_HORIZON.
SEARCH_PARAMS = (
    Param("rollouts", 16.0, "sampled worlds per decision; every legal first card is played in each", 1.0, 10000.0,
          integer=True),
    Param("horizon", 0.0, "turns each rollout plays after the searched one (0 = to the round's end)", 0.0, 1000.0,
          integer=True),
)


def _preset(**changes):
    return tuple(Param(p.name, changes.get(p.name, p.default), p.doc, p.low, p.high) for p in HEURISTIC_PARAMS)


# The tree search's ladder budgets: one more than the engine's, because at 1,024 iterations the
# search rates +94 Elo [+89, +99] above greedy, short of the ladder's +100 goal, and one search seat
# against three greedy players wins 64.0% at 4,096 against 60.0% at 1,024 (docs/games/throne_arcade.md).
LADDER_BUDGETS = BUDGETS + (4096,)

POLICIES = (
    Policy("random", POLICY_RANDOM, "Uniform over the legal answers at every decision."),
    Policy("greedy", POLICY_GREEDY, "Largest legal group of one type first; specials held until the next player "
                                    "holds 2 cards or fewer (or nothing else fits), Hands until nothing else fits; "
                                    "the colour it holds most of ends on top and is the colour it names."),
    Policy("heuristic", POLICY_HEURISTIC, "Scores each play by cards shed, harm to the next player by hand size, "
                                          "the cost of spending a special, colour majority and card counting "
                                          "(weights below).", HEURISTIC_PARAMS),
    Policy("aggressive", POLICY_HEURISTIC, "The heuristic spending its specials at once: hurt_next 6, "
                                           "keep_special 0.", _preset(hurt_next=6.0, keep_special=0.0)),
    Policy("search", POLICY_SEARCH, "Determinized Monte-Carlo search (the engine's) at the card (group) laid at the "
                                    "start of a turn: each legal first card played in worlds dealt from the seat's "
                                    "view, the round played on with the heuristic as every player's rollout "
                                    "policy, the best mean of not losing the round (20) and cards left in hand; "
                                    "its other decisions are the heuristic's at its defaults.", SEARCH_PARAMS),
) + ismcts_policies(POLICY_ISMCTS, "heuristic at its defaults; a rollout plays to the round's end, each seat "
                                   "valued by not losing the round (20) and cards left in hand", budgets=LADDER_BUDGETS)

# The policy family (``balance check --robust``): the plausible players, every seat the same kind.
FAMILY = (
    ("random", "random", {}),
    ("greedy (largest group, specials held)", "greedy", {}),
    ("heuristic (the default weights)", "heuristic", {}),
    ("heuristic, no card counting (counting 0)", "heuristic", {"counting": 0.0}),
    ("heuristic, colour-blind (colour_majority 0)", "heuristic", {"colour_majority": 0.0}),
    ("heuristic, hoarder (keep_special 3)", "heuristic", {"keep_special": 3.0}),
    ("aggressive (specials at once)", "aggressive", {}),
    ("search (16 rollouts, to the round's end)", "search", {}),
)
# The strength ladder (``balance ladder``), weakest first: the flat search, then the tree search at
# growing budgets.
LADDER = ("random", "greedy", "heuristic", "search") + tree_rungs(LADDER_BUDGETS)
