"""Thron der Lügen: the mode, rule options (scenario keys) and the policy registry."""

from balance.engine.game import Mode, Option, Param, Policy
from balance.engine.ismcts import OPPONENTS_MODELLED, TREE_RUNGS, ismcts_policies
from balance.games.thron_der_luegen.layout import (
    MAX_PLAYERS, MIN_PLAYERS, POLICY_HEURISTIC, POLICY_ISMCTS, POLICY_RANDOM, POLICY_SEARCH,
)

MODES = {
    "base": Mode("base", tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                 "The game as the rulebook describes it, 3 to 6 players, with the deck the option `deck` names."),
}

DEFAULT_DECK = "default"  # the supplement's assumed deck; a sampled composition keeps it (and ignores it)
SPLIT_READINGS = ("upright", "placer")
HUNT_READINGS = ("cancel", "double")
TWO_HUNTS_READINGS = ("one_people", "cancel")
PRINTED_TOTALS_READINGS = ("throne_score", "total")
LONE_SUM_READINGS = ("throne_score", "cards")
LONE_WIN_READINGS = ("highest_stones", "all_stones")
MOON_ONE_READINGS = ("throne_score", "total")

OPTIONS = (
    Option("deck", DEFAULT_DECK,
           "The court cards: a deck file of balance/games/thron_der_luegen/decks/ by name (default, fae_only, "
           "strong_plain, other_intrigues) or a path to a TOML deck file (relative to the scenario's folder). The rulebook does not list the 23 Fae "
           "cards nor the intrigue effects: 'default' is the rules supplement's assumed deck (reports name every assumed deck in their header).",
           deals=True),
    Option("composition", 0,
           "A sampled deck instead of a deck file: 0 = the deck file `deck` names; k = 1, 2, ... = sampled "
           "composition k: the 13 cards the rulebook names (Sun +2, -1; Moon 1, 3, 3; Winter and Summer x2, -2; "
           "Spring and Autumn 4|1, 1|4), 10 Fae cards of the Wild Hunt, Winter, Summer, Spring and Autumn drawn "
           "with values 1-9 (at least one Wild Hunt), and 5 intrigue effects drawn from the menu, every draw "
           "from one seed, so that k names the same deck everywhere (deck must stay 'default').",
           low=0, deals=True),
    Option("split_cards", "upright",
           "How a split card (4|1) lies on a throne: 'upright' = as printed, never turned (rulebook: 'Make sure "
           "that the card always lies upright - not upside down'), so the 4|1 gives the 4 to the seat on its "
           "left half and the 1|4 to the other; 'placer' = whoever places it turns it to their side (the rules "
           "supplement's reading; dealt and pile-drawn cards lie at random).", choices=SPLIT_READINGS),
    Option("hunt_with_double", "cancel",
           "A Wild Hunt beside an x2: 'cancel' = the Wild Hunt's 'the other throne card does not count' removes "
           "the x2 too, so the Hunt counts alone; 'double' = the x2 doubles the Hunt.", choices=HUNT_READINGS),
    Option("two_hunts", "one_people",
           "Both Wild Hunts on one person's thrones: 'one_people' = they are one people, so 'only the value of "
           "the higher card counts'; 'cancel' = each makes 'the respective other throne card' not count, so "
           "neither counts (0).", choices=TWO_HUNTS_READINGS),
    Option("printed_totals", "throne_score",
           "'If you have both x2 cards as throne cards, your total score is 4. If the other throne card is the -2 "
           "of the same Fae people, your score is 2.': 'throne_score' = that is the throne score, and hand cards "
           "still count (the -2 in hand: '-2 points, regardless of the throne cards'); 'total' = that is the "
           "round total, hand cards ignored.", choices=PRINTED_TOTALS_READINGS),
    Option("lone_sum", "throne_score",
           "The Sun -1's 'If the sum of your two throne cards ... is 3 points or less': 'throne_score' = the "
           "throne score by the usual scoring (same people, x2, Wild Hunt); 'cards' = the two cards' values "
           "as they read, added (an intrigue card 0, an x2 2).", choices=LONE_SUM_READINGS),
    Option("lone_win", "highest_stones",
           "The Sun -1's 'you win the round alone and receive 2 point stones': 'highest_stones' = nobody gets "
           "the highest score's stones, and the Moon 1's stone still counts; 'all_stones' = nobody else gets "
           "any stone that round.", choices=LONE_WIN_READINGS),
    Option("moon_one_lowest", "throne_score",
           "The Moon 1's 'the lowest total score of the throne cards': 'throne_score' = the throne score by the "
           "usual scoring; 'total' = the round total, hand cards included.", choices=MOON_ONE_READINGS),
    Option("pair_at_deal", True,
           "Both Moon 3s dealt to one person's thrones end the round before the first turn, for 1 stone "
           "(rulebook: 'at any time'); false = only a move can make the pair."),
    Option("stones_to_win", 0,
           "Point stones that win the match; 0 = the rulebook's 4, or 3 with 5 or 6 people.", low=0, high=20),
)

HEURISTIC_PARAMS = (
    Param("end_margin", 2.0, "reveal an End card when its total is at least this many points above the best total "
                             "it expects of another seat (the End-card threshold)", -20.0, 20.0),
    Param("rival", 0.5, "weight of the best other total it expects, against its own total", 0.0, 2.0),
    Param("lone_bonus", 6.0, "value, in points, of holding the Sun -1 with 3 points or less on its thrones "
                             "(winning the round alone)", 0.0),
    Param("lowest_bonus", 3.0, "value of holding the Moon 1 with the lowest throne score it expects", 0.0),
    Param("pair_bonus", 8.0, "value of completing both Moon 3s as its own thrones (1 stone at once)", 0.0),
    Param("keep_weight", 0.2, "value per point of a card kept in hand for later swaps", 0.0),
    Param("hide_weight", 1.0, "value per End card turned face down when behind (a cost when ahead)", 0.0),
    Param("placed_bonus", 1.0, "what it infers of another's view: an unseen throne card that seat was seen to "
                               "put beside itself counts this many points above the unseen mean"),
)

# In the order of policies.S_ROLLOUTS, S_HORIZON.
SEARCH_PARAMS = (
    Param("rollouts", 16.0, "sampled worlds per decision; both answers (draw, reveal an End card) are played in "
                            "each", 1.0, 10000.0, integer=True),
    Param("horizon", 1.0, "rounds each rollout plays, the current one included (1 = to the end of this round, 0 = "
                          "to the end of the match); then it is scored by the point-stone lead (10 points a stone), "
                          "the last round's score lead and +/-20 for a won or lost match", 0.0, 100.0, integer=True),
)


def _preset(**changes):
    return tuple(Param(p.name, changes.get(p.name, p.default), p.doc, p.low, p.high) for p in HEURISTIC_PARAMS)


POLICIES = (
    Policy("random", POLICY_RANDOM, "Uniform over the legal answers of every decision."),
    Policy("heuristic", POLICY_HEURISTIC,
           "Values its two thrones from what its seat knows (the mean of the unseen cards for a throne it has "
           "not seen, more for a card another seat was seen to put beside itself), swaps or plays when that gains against the best other total it expects, and reveals an "
           "End card when it leads that estimate by end_margin points.", HEURISTIC_PARAMS,
           labelled=("end_margin",)),
    Policy("hasty", POLICY_HEURISTIC, "The heuristic that reveals End cards early (end_margin 0) and weighs its "
                                      "rivals less.", _preset(end_margin=0.0, rival=0.3), labelled=("end_margin",)),
    Policy("patient", POLICY_HEURISTIC, "The heuristic that waits for a clear lead (end_margin 4) and weighs its "
                                        "rivals more.", _preset(end_margin=4.0, rival=0.8),
           labelled=("end_margin",)),
    Policy("search", POLICY_SEARCH, "Determinized Monte-Carlo search (the engine's) at the turn's choice (draw, or "
                                    "reveal an End card): worlds dealt from its view, each answer played out for "
                                    "a horizon of rounds with the heuristic as every player's rollout policy, the "
                                    "best mean stone and score lead; its other decisions are the heuristic's at "
                                    "its defaults.", SEARCH_PARAMS),
) + ismcts_policies(POLICY_ISMCTS, "heuristic at its defaults; a rollout plays to the round's end, each seat "
                                   "valued by the point stones it won in the round",
                    # the others' answers by the heuristic reading their own cards in each world:
                    # against 3 heuristic players (4p, 64 matches, 64 iterations) +12 Elo [-22, +42]
                    # where their answers as tree nodes lose 91 [-135, -53]
                    OPPONENTS_MODELLED, random_opponents=0.5)

# The policy family (``balance check --robust``, ``balance report --robust``): the plausible
# players, every seat the same kind: the End-card threshold at the ends that make a playing style
# (hasty, patient), the heuristic blind to its rivals or fixed on them, and the search.
FAMILY = (
    ("random", "random", {}),
    ("hasty (end_margin 0, rival 0.3)", "hasty", {}),
    ("heuristic (end_margin 2, the default)", "heuristic", {}),
    ("patient (end_margin 4, rival 0.8)", "patient", {}),
    ("heuristic, own score only (rival 0)", "heuristic", {"rival": 0.0}),
    ("heuristic, rival-minded (rival 1)", "heuristic", {"rival": 1.0}),
    ("heuristic, no stone chances (lone, lowest and pair bonus 0)", "heuristic",
     {"lone_bonus": 0.0, "lowest_bonus": 0.0, "pair_bonus": 0.0}),
    ("search (16 rollouts, to the round's end)", "search", {}),
)
# The strength ladder (``balance ladder``), weakest first: the threshold study found revealing at a
# lead of 0 costly (hasty), so it sits below the default.
LADDER = ("random", "hasty", "heuristic", "search") + TREE_RUNGS
