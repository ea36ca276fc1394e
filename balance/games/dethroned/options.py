"""DETHRONED's modes, rule readings (options) and policy registry."""

from dataclasses import replace

from balance.engine.decision import POLICY_RANDOM
from balance.engine.game import Mode, Option, Param, Policy
from balance.engine.ismcts import OPPONENTS_MODELLED, TREE_RUNGS, ismcts_policies
from balance.games.dethroned.layout import MAX_PLAYERS, MIN_PLAYERS, POLICY_HEURISTIC, POLICY_ISMCTS, POLICY_SEARCH

MODES = {
    "standard": Mode("standard", tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                     "One game: discussion, real-time combat, votes after deaths, reveal. Roles from the "
                     "scenario's `roles` list (and `[[custom_roles]]`)."),
}

OPTIONS = (
    Option("symbols", "default", "Which symbols the roles carry: 'default' = the companion app's role table, "
           "'art' = the printed card art (Fool, Princess not Assailants; Sage, Sweetheart Royalty).",
           choices=("default", "art")),
    Option("window_seconds", 3.0, "Seconds a defender has before the attacker's count starts (rulebook: 3).",
           low=0, high=3600),
    Option("count_seconds", 3.0, "Seconds of the attacker's 3-2-1 count (a spoken count of three).", assumed=True,
           low=0, high=3600),
    Option("redirect_credit", True, "A Redirect gives the redirector the kill credit of the attack "
           "(rulebook: 'the attack now counts as yours')."),
    Option("shopkeeper_deck", "undrawn", "What the Shopkeeper's deck sum counts: 'undrawn' deck, or "
           "'deck_and_hand'.", choices=("undrawn", "deck_and_hand")),
    Option("sentinel_counts_royal_assailant", True, "A Sentinel's kill of a crown-and-skull role that has "
           "not killed yet counts as killing an Assailant."),
    Option("fool_must_kill_king", False, "The Fool must be credited with the King's kill (as the rulebook's "
           "combat example reads) instead of the King merely dead."),
    Option("bomb_needs_defence", True, "A Bomb must be played on a defending Battle card in front of the "
           "victim (main rules: it 'modifies a defending Player's Battle card'); false: on the player."),
    Option("defender_may_redirect", True, "A player under attack may Redirect an attack against itself "
           "(it may play Modifiers on its own combat, as in the advanced combat example).", assumed=True),
    Option("first_vote_after_two_at_8", False, "With 8 players the first pause and vote come after the "
           "second death (companion text); default: after every death (main rules)."),
    Option("impasse_rounds", 2, "An impasse vote is held when, with no attack on the table, the living "
           "players have passed this many reactions each in a row.", assumed=True, low=1, high=1000),
    Option("attack_by_overwrite", False, "A free player may overwrite another's unbeaten attack with a larger "
           "Battle card, taking the attack (and its credit) over (detailed rules); default: a player already "
           "under attack is attacked only by separate attacks (main rules: attacking cards 'cannot be stacked')."),
    Option("redirect_defending_card", False, "A Redirect may take a defending Battle card and send it as a new "
           "attack (main rules: 'any defending or attacking Battle card'); default: attacks only (detailed "
           "rules: 'It cannot be used to take control of a defense'). No policy plays such a Redirect (the "
           "sensitivity sweep's cell is identical to the baseline game for game), so this reading cannot move "
           "a result measured with them."),
    Option("redirect_restarts_window", True, "A Redirected attack is 'a new attack': its victim gets a fresh "
           "defence window and count; false: the attack keeps its deadline."),
    Option("defence_cards", "replace", "A new defending card on the same attack 'replace's the previous one "
           "(which goes to the centre) or 'stack's on it (their values add up).", choices=("replace", "stack")),
)

SPEED = (
    Param("reaction_mean", 1.0, "Mean reaction delay in seconds.", 0.05, 30.0),
    Param("reaction_spread", 0.5, "Delay uniform in mean * [1 - spread, 1 + spread].", 0.0, 0.95),
)
HEURISTIC_PARAMS = SPEED + (
    # Role-aware defaults, each the lying probability that serves its class best at a table of
    # heuristic players (docs/games/dethroned.md, "Lying"): over the 23 suggested setups, 3,000 games
    # each, a crowned role wins more the more it lies (0.294 honest, 0.327 at 0.3, 0.408 always), an
    # Assailant and a commoner the less (Assailants 0.244 honest, 0.195 always; commoners 0.632 and
    # 0.270), the other classes at these defaults (the same order with them at 0.3). Until 2026-12-04:
    # 0.3 for every class.
    Param("lying_royalty", 1.0, "Probability that a role with a crown and no skull claims another role in "
          "play in the discussion (default: always, as it pays: see the docs).", 0.0, 1.0),
    Param("lying_assailant", 0.0, "The same for a role with a skull (default: never, as it pays).", 0.0, 1.0),
    Param("lying_commoner", 0.0, "The same for a role with neither symbol (default: never, as it pays).", 0.0, 1.0),
    Param("trust", 0.6, "Probability it gives that another player's claim is true.", 0.0, 1.0),
    Param("aggression", 0.5, "Attacks (and pushes attacks) when wanting a player dead exceeds 1 - aggression.",
          0.0, 1.0),
    Param("helping", 0.6, "Helps a player it wants alive when that wish exceeds 1 - helping.", 0.0, 1.0),
    Param("hoarding", 0.5, "Probability of keeping a Modifier instead of spending it outside its own defence.",
          0.0, 1.0),
    Param("stubborn", 0.8, "Probability of voting to continue (by attacking) when it believes it has not won.",
          0.0, 1.0),
    Param("learning", 1.0, "How strongly attacks and help move its beliefs about the actor's role.", 0.0, 10.0),
)

# The search's own parameters, after the heuristic's in its row (policies.P_ROLLOUTS, P_HORIZON).
SEARCH_PARAMS = (
    Param("rollouts", 16.0, "sampled worlds per decision; every candidate move is played out in each", 1.0,
          10000.0, integer=True),
    Param("horizon", 0.0, "seconds of game time each rollout plays after the move (0 = to the end of the game); "
                          "then it is scored by whether the seat's win condition holds at that moment", 0.0,
          3600.0),
)


def _with(params: tuple[Param, ...], **defaults: float) -> tuple[Param, ...]:
    return tuple(Param(p.name, defaults.get(p.name, p.default), p.doc, p.low, p.high) for p in params)


# The tree search keeps its rollout heuristic's answer unless another beats it by one standard error
# (ismcts's anchor): in The Dethroned 4p, one ismcts-256 seat against three heuristic players
# (2,000 games, seed 7) won 0.647 of its seats with it, 0.595 without (docs/games/dethroned.md).
TREE_ANCHOR = 1.0

POLICIES = (
    Policy("random", POLICY_RANDOM, "Uniform over legal actions at each reaction; random claims and votes.",
           SPEED),
    Policy("heuristic", POLICY_HEURISTIC, "Role-aware: claims (lying by a tendency set per symbol class), "
           "Bayesian beliefs from claims and actions, targets and play from every part of its win condition, "
           "helps allies, votes by its condition.",
           HEURISTIC_PARAMS),
    Policy("trusting", POLICY_HEURISTIC, "The heuristic at a trusting, honest table.",
           _with(HEURISTIC_PARAMS, lying_royalty=0.1, lying_assailant=0.1, lying_commoner=0.1, trust=0.9,
                 learning=0.5)),
    Policy("suspicious", POLICY_HEURISTIC, "The heuristic at a suspicious, lying table.",
           _with(HEURISTIC_PARAMS, lying_royalty=0.5, lying_assailant=0.5, lying_commoner=0.5, trust=0.3,
                 learning=2.0)),
    Policy("search", POLICY_SEARCH, "Determinized Monte-Carlo search (the engine's) at each move it makes: the "
           "move's kind, and an attack's target, chosen by playing each out in worlds dealt from its view (the "
           "other roles drawn from its beliefs, hidden cards shuffled), every player the heuristic at its "
           "defaults, scored by its win; claims, votes, credit and a move's other steps are the heuristic's "
           "with its own parameters.",
           HEURISTIC_PARAMS + SEARCH_PARAMS),
) + tuple(
    # the tree search's parameters follow a player's speed (every DETHRONED policy's first two, read by the rules)
    replace(policy, params=SPEED + policy.params)
    for policy in ismcts_policies(POLICY_ISMCTS, "heuristic at its defaults, its beliefs dressed from the searcher's "
                                                 "view (the claims it heard, from its dealt role)", OPPONENTS_MODELLED,
                                     anchor=TREE_ANCHOR))

# The policy family (``balance check --robust``): the plausible players, every seat the same kind.
# The heuristic has no temperature and there is no greedy policy; its behavioural parameters at the
# ends of their plausible range (those of the sensitivity sweep) make the styles: lying, trust,
# aggression.
HONEST = {"lying_royalty": 0.0, "lying_assailant": 0.0, "lying_commoner": 0.0}
LIARS = {"lying_royalty": 0.7, "lying_assailant": 0.7, "lying_commoner": 0.7}
FAMILY = (
    ("random", "random", {}),
    ("heuristic (the default)", "heuristic", {}),
    ("heuristic, honest (lying 0)", "heuristic", HONEST),
    ("heuristic, liars (lying 0.7)", "heuristic", LIARS),
    ("heuristic, credulous (trust 0.9)", "heuristic", {"trust": 0.9}),
    ("heuristic, doubting (trust 0.3)", "heuristic", {"trust": 0.3}),
    ("heuristic, timid (aggression 0.2)", "heuristic", {"aggression": 0.2}),
    ("heuristic, aggressive (aggression 0.9)", "heuristic", {"aggression": 0.9}),
    ("search (16 rollouts, to the end)", "search", {}),
)
# The strength ladder (``balance ladder``), weakest first: DETHRONED has no greedy policy; the flat
# search, then the tree search at growing budgets.
LADDER = ("random", "heuristic", "search") + TREE_RUNGS
