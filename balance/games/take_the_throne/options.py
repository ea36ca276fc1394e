"""Take the Throne: modes, rule options (scenario keys) and the policy registry."""

from itertools import permutations

from balance.engine.decision import POLICY_RANDOM
from balance.engine.game import Mode, Option, Param, Policy
from balance.engine.ismcts import TREE_RUNGS, ismcts_policies
from balance.games.take_the_throne.layout import (
    MODE_ASYMMETRIC, MODE_CORE, MODE_CUSTOM, MODE_MIRROR, MODE_TWO_PLAYER, POLICY_GREEDY, POLICY_HEURISTIC,
    POLICY_ISMCTS, POLICY_SEARCH,
)

MODES = {
    "core": Mode("core", (3, 4, 5), "First games: the Monarch holds the 6 core crown cards, every house player "
                                    "the 5 core house cards (Attack, Charge, Feint, Infiltrate, Sabotage)."),
    "mirror": Mode("mirror", (3, 4, 5), "Mirror variant: house players keep Attack, Charge, Infiltrate plus the "
                                        "same 2 random cards; the Monarch keeps Raid and Defend plus 4 random."),
    "asymmetric": Mode("asymmetric", (3, 4, 5), "Asymmetric variant: as Mirror, but each house player draws its "
                                                "own 2 random cards."),
    "custom": Mode("custom", (3, 4, 5), "A designer's fixed decks: options monarch_cards and house_cards."),
    "two_player": Mode("two_player", (2,), "2-player mode: Attack, Charge, Dominate, Infiltrate, Reinforce each; "
                                           "start at 0 VP; ties keep the throne."),
}
MODE_CODES = {"core": MODE_CORE, "mirror": MODE_MIRROR, "asymmetric": MODE_ASYMMETRIC, "custom": MODE_CUSTOM,
              "two_player": MODE_TWO_PLAYER}

CONTEST_ORDERS = tuple("".join(p) for p in permutations("abc"))
AUTHORITY_TIMINGS = ("end_of_turn", "immediate")
DEFEND_TIMINGS = ("resolution", "immediate")

OPTIONS = (
    Option("feint_from_discard", True,
           "Feint's additional card may come from the discard pile as well as the hand (rulebook: 'from your "
           "hand or discard pile'); false = hand only."),
    Option("ambush_on_view", True,
           "Command's look at an unrevealed Ambush springs it (rulebook: 'viewed' counts); false = only "
           "discarding or replacing springs it."),
    Option("contest_order", "abc",
           "Order of the contest checks: (a) several Charges are all discarded, (b) an Infiltrate is discarded "
           "when no Attack remains, (c) a Dominate is discarded unless exactly one Charge remains. The checks "
           "commute, so every order gives the same result; the option exists to show that.",
           choices=CONTEST_ORDERS),
    Option("sabotage_pays_on_abdicate", False,
           "When an Abdicating Monarch takes the throne back, Sabotage still pays its 'Monarch retains' VP. "
           "Default false: the rulebook says taking it back does not count as retaining."),
    Option("sabotage_targets_monarch", True,
           "Sabotage may choose the Monarch ('choose another player'); false = house players only."),
    Option("monarch_cards", ["abdicate", "authority", "raid", "command", "consolidate", "defend"],
           "custom mode: the Monarch's 6 crown cards."),
    Option("house_cards", ["attack", "charge", "feint", "infiltrate", "sabotage"],
           "custom mode: every house player's 5 house cards."),
    Option("authority_timing", "end_of_turn",
           "When Authority takes its VP from a richer player: 'end_of_turn' = with the other end-of-turn texts, "
           "after the throne's VP (the rulebook does not mark it; like Raven, it is a conditional VP transfer "
           "and the resolution phase names crown cards among the end-of-turn VP); 'immediate' = at the "
           "Monarch's reveal, before anyone's VP for the throne.",
           choices=AUTHORITY_TIMINGS),
    Option("defend_timing", "resolution",
           "When Defend discards the Attack cards: 'resolution' = at the start of the resolution phase, so an "
           "Attack added by Feint or swapped in later is discarded and a Defend swapped in by Sabotage works, "
           "while a Defend discarded by Ally does nothing (the rulebook does not mark it; Ally's discard of the "
           "Monarch's card has a purpose only against end-of-turn texts); 'immediate' = at the Monarch's reveal.",
           choices=DEFEND_TIMINGS),
    Option("replace_picks_up_discards", True,
           "A player made to replace their card by Sabotage or Command while their hand is empty first picks up "
           "their discard pile (as Chaos says, and as the cleanup rule does for a player out of cards); false = "
           "such a player cannot be chosen. Chaos always picks up (its text says so)."),
    Option("entrap_retains_after_abdicate", True,
           "An Abdicate replaced by Entrap (Sabotage): when Entrap stops a taker, the Monarch retains the throne "
           "(Entrap: 'you retain it instead': 2 VP, and Sabotage pays); false = it counts as taking the throne "
           "back after Abdicate."),
    Option("take_back_pays", True,
           "Taking the throne back after Abdicate pays 1 VP at the end of the turn, on top of Abdicate's "
           "immediate 1 VP (rulebook: 'you would only take 1 VP at the end of the turn instead of 2'); false = "
           "Abdicate's immediate VP is the Monarch's only VP that round."),
)

HEURISTIC_PARAMS = (
    Param("w_attack", 1.0, "opponent model: weight of playing Attack", 0.0),
    Param("w_infiltrate", 1.0, "opponent model: weight of playing Infiltrate", 0.0),
    Param("w_charge", 1.5, "opponent model: weight of playing Charge (the expected Charges)", 0.0),
    Param("w_dominate", 1.0, "opponent model: weight of playing Dominate", 0.0),
    Param("w_other", 1.2, "opponent model: weight of any card without strength", 0.0),
    Param("throne_value", 4.0, "value of holding the throne, in VP, beyond the VP it pays"),
    Param("win_value", 20.0, "value of ending the round as Monarch on 8+ VP (and cost of letting another)", 0.0),
    Param("keep_cost", 0.05, "cost per strength point of burning a card (it may go to the discard pile)", 0.0),
    Param("defend_keep", 0.3, "Monarch: cost of spending Defend (kept for likely Attacks)", 0.0),
    Param("sabotage_disrupt", 0.3, "value of disturbing another player's card (Sabotage, Ally)", 0.0),
    Param("ally_refuse_vp", 7.0, "refuse Ally's extra VP when an Ally player would reach this many VP", 0.0),
    Param("temperature", 1.0, "softmax temperature of the card choice, in VP (0 = always the best-scored card; "
                         "low values make self-play near-deterministic and lock outcomes to seats)",
          0.0),
)


# In the order of policies.S_ROLLOUTS, S_HORIZON.
SEARCH_PARAMS = (
    Param("rollouts", 16.0, "sampled worlds per decision; every candidate card is played in each", 1.0, 10000.0,
          integer=True),
    Param("horizon", 3.0, "rounds each rollout plays, the current one included (0 = to the end of the game); "
                          "then it is scored by the VP lead (and +/-20 for a won or lost game)", 0.0, 100.0,
          integer=True),
)


def _preset(**changes):
    return tuple(Param(p.name, changes.get(p.name, p.default), p.doc, p.low, p.high) for p in HEURISTIC_PARAMS)


POLICIES = (
    Policy("random", POLICY_RANDOM, "Uniform over the legal choices at every decision."),
    Policy("greedy", POLICY_GREEDY, "Fixed priorities: house players Charge > Infiltrate > Attack > ...; the "
                                    "Monarch Defend > Consolidate > Raid > ...; targets the VP leader."),
    Policy("heuristic", POLICY_HEURISTIC, "Expected-value play from an opponent model (see parameters): contests "
                                          "with strength chosen against the expected Charges, keeps Defend for "
                                          "likely Attacks, Feints near 8 VP, targets by threat.",
           HEURISTIC_PARAMS),
    Policy("cautious", POLICY_HEURISTIC, "The heuristic with other weights: expects more Charges, values "
                                         "keeping strong cards more and holding the throne less.",
           _preset(keep_cost=0.4, throne_value=1.0, w_charge=2.5)),
    Policy("search", POLICY_SEARCH, "Determinized Monte-Carlo search (the engine's) at the round's card choice: "
                                    "worlds dealt from its view, each card played out for a horizon of rounds "
                                    "with the heuristic as every player's rollout policy, the best mean VP "
                                    "lead; its other decisions are the heuristic's at its defaults.",
           SEARCH_PARAMS),
) + ismcts_policies(POLICY_ISMCTS, "heuristic at its defaults; a rollout plays to the game's end, each seat "
                                   "valued by its VP lead and the win (20)")

# The policy family (``balance check --robust``): the plausible players, every seat the same kind.
# The heuristic's temperature at its issue-11 points (0.25, 1, 4) and its throne weight at the two
# ends that make a playing style: taking the throne at any cost, or playing for VP alone.
FAMILY = (
    ("random", "random", {}),
    ("greedy (fixed priorities)", "greedy", {}),
    ("heuristic, sharp (temperature 0.25)", "heuristic", {"temperature": 0.25}),
    ("heuristic (temperature 1, the default)", "heuristic", {}),
    ("heuristic, loose (temperature 4)", "heuristic", {"temperature": 4.0}),
    ("heuristic, throne-hungry (throne_value 8)", "heuristic", {"throne_value": 8.0}),
    ("heuristic, VP only (throne_value 0)", "heuristic", {"throne_value": 0.0}),
    ("cautious (keeps strong cards, expects Charges)", "cautious", {}),
    ("search (16 rollouts, 3 rounds)", "search", {}),
)
# The strength ladder (``balance ladder``), weakest first: the flat search, then the tree search at
# growing budgets.
LADDER = ("random", "greedy", "heuristic", "search") + TREE_RUNGS
