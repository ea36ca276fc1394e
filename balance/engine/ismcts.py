"""The information-set search, written once for every step game: single-observer information-set
Monte-Carlo tree search (SO-ISMCTS; Cowling, Powley and Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 2012; OpenSpiel's ``is_mcts`` follows the same design).

At a posed decision of seat ``r`` (the header of balance.engine.decision, already narrowed by
``r``'s restriction), each of ``iterations`` iterations:

1. deals a world from ``r``'s view alone (the game's ``sample_world``, the flat search's
   determinizer, balance.engine.search.DETERMINIZE_SIGNATURE);
2. descends the tree in that world from the root. A node is the sequence of answers taken since
   the root; its children are keyed by (deciding seat, decision kind, answer), so the nodes of
   every seat's decisions live in the one tree (that is "single observer": ``r`` cannot tell the
   worlds apart, so they share the tree). At each unforced decision the children legal in this
   world count one more availability; a legal answer with no child is expanded (one per
   iteration, chosen uniformly), else the child of the best UCB1 score
   ``q + c * sqrt(ln(availability) / visits)`` is taken, where ``q`` is the child's mean value for
   its deciding seat, scaled to [0, 1] by the least and greatest value backed up so far in this
   search (so ``c`` means the same whatever a game's score scale). Availability in place of the
   parent's visits compares an answer legal in only some worlds fairly (Cowling et al., sec. 5.3);
3. after the expansion (or where the tree's part of the game ends) the game's ``finish`` plays on
   to the end with the rollout players (every seat the named rollout policy; ``r`` keeps its
   restriction, the others play unrestricted: ``r`` does not know theirs);
4. backs up every deciding seat's value: each node on the path adds ``score(world, its seat)``.

With ``opponents`` 1 the other seats' decisions get no nodes: in each world the rollout policy
answers them, reading that seat's cards there (SO-ISMCTS lets an opponent's node choose one answer
for every world, as if it could not see its own cards; Cowling et al. sec. 7 discuss the cost).
A rollout policy is a model of the other players, and a search that trusts it plays against that
model: modelled as the heuristic, random players are exploited less than the heuristic exploits
them (Thron der Lügen). ``random_opponents`` hedges the model: in each iteration's world each
other seat plays uniformly at random with that chance, else the rollout policy (drawn from the
stream; at 0, the default, nothing is drawn).

The answer is the root's most visited child. With ``anchor`` z > 0 it is the rollout policy's own
answer (asked in the first iteration's world, so from the seat's view) unless the most visited
child's mean value beats that answer's by more than z standard errors of the difference: the search
departs from its model player only on evidence, where the noise of a win scored at the end of a
long game would otherwise pick among near-equal answers at random (DETHRONED: docs/games). Every
draw comes from the game's stream and every tie (the expansion, UCB, the final answer) is broken at
random from it, so a decision is a function of the seat's view and the stream alone. The tree lives in preallocated buffers
(``ismcts_buffers``, one set per block of games, sized for ``MAX_ITERATIONS``, seen through
``ismcts_views``): nothing is allocated per decision.

A game hooks it in a few lines: its ``search_at`` calls ``ismcts_answer`` with its step functions,
``sample_world``, a ``finish`` (usually ``engine.step.play`` with ``no_search``; a game that plays
on past ``over`` deals the next rounds there) and a ``score(world, seat)`` (higher is better).
"""

import numpy as np

from balance.engine.decision import (
    D_CHOICES, D_KIND, D_SEAT, N_KINDS_MAX, POLICY_RANDOM, RESTRICT_SIDES, forced,
)
from balance.engine.game import Param, Policy
from balance.engine.kernels import allocating_kernel, kernel
from balance.engine.rng import below, chance, random_bit
from balance.engine.search import seat_rollout_players
from balance.engine.step import decide, no_search

# The policy's parameters (index into the seat's parameter row; declared by ``ismcts_policies``).
I_ITERATIONS, I_EXPLORATION, I_ROLLOUT, I_OPPONENTS, I_RANDOM_OPPONENTS, I_ANCHOR = range(6)
N_PARAMS = I_ANCHOR + 1  # a game's own parameters of the tree search follow these
ROLLOUT_RANDOM, ROLLOUT_HEURISTIC = 0, 1  # values of the rollout parameter
OPPONENTS_SEARCHED, OPPONENTS_MODELLED = 0, 1  # values of the opponents parameter

MAX_ITERATIONS = 4096  # the budget's upper limit: the tree buffers hold one node per iteration
MAX_NODES = MAX_ITERATIONS + 1  # and the root
ANSWER_BITS = 6  # an edge key: ((seat * N_KINDS_MAX + kind) << ANSWER_BITS) | answer
ANSWER_MASK = (1 << ANSWER_BITS) - 1
ROOT = 0
NO_NODE = -1

# Rows of the tree's int matrix (one column per node), then the float rows.
T_KEY, T_FIRST_CHILD, T_NEXT_SIBLING, T_VISITS, T_AVAILABLE, T_PATH = range(6)
TREE_INT_ROWS = 6
F_TOTAL, F_SQUARES = 0, 1  # a node's summed values (and squared values) for the seat that chose it
TREE_FLOAT_ROWS = 2


BUDGETS = (64, 256, 1024)  # a ladder's rungs by default: the policy at each budget (``ismcts_policies``)
SKILL_BUDGETS = BUDGETS[-2:]  # the skill rungs (``skill_rungs``): 4,000 games of each stay practical


def tree_rungs(budgets: tuple[int, ...] = BUDGETS) -> tuple[str, ...]:
    """The tree search's rungs at ``budgets``, the top of a game's ladder (``Game.ladder``)."""
    return tuple(f"ismcts-{b}" for b in budgets)


TREE_RUNGS = tree_rungs()


def ismcts_policies(code: int, heuristic: str, opponents: int = OPPONENTS_SEARCHED,
                    random_opponents: float = 0.0, anchor: float = 0.0, budgets: tuple[int, ...] = BUDGETS) -> tuple[Policy, ...]:
    """The search's entries in a game's policy registry: ``ismcts`` (parameters below, the budget
    256 iterations) and one preset per budget of ``budgets`` (at least SKILL_BUDGETS; a game whose
    ladder climbs further adds larger ones), ``ismcts-64`` and so on, the ladder's rungs.
    ``heuristic`` says what the game's rollout heuristic is; ``opponents``, ``random_opponents`` and
    ``anchor`` are the game's defaults of those parameters (the ones its measurements favour)."""
    assert set(SKILL_BUDGETS) <= set(budgets) and max(budgets) <= MAX_ITERATIONS
    def params(iterations):
        return (Param("iterations", float(iterations), "iterations (sampled worlds, one tree descent and rollout "
                                                         "each) per decision", 1.0, float(MAX_ITERATIONS),
                      integer=True),
                Param("exploration", 0.7, "UCB1's exploration constant c (values scaled to [0, 1])", 0.0, 100.0),
                Param("rollout", float(ROLLOUT_HEURISTIC), f"rollout policy of every seat: {ROLLOUT_RANDOM} random, "
                                                           f"{ROLLOUT_HEURISTIC} {heuristic}",
                      ROLLOUT_RANDOM, ROLLOUT_HEURISTIC, integer=True),
                Param("opponents", float(opponents),
                      f"the other seats' decisions: {OPPONENTS_SEARCHED} nodes of the tree (SO-ISMCTS), "
                      f"{OPPONENTS_MODELLED} answered by the rollout policy in each world (it reads that seat's "
                      f"cards there), the tree holding the seat's own decisions only",
                      OPPONENTS_SEARCHED, OPPONENTS_MODELLED, integer=True),
                Param("random_opponents", random_opponents,
                      "the chance, in each iteration's world, that another seat plays uniformly at random instead "
                      "of the rollout policy (a hedge against players weaker than the model)", 0.0, 1.0),
                Param("anchor", anchor,
                      "0: the most visited answer; z > 0: the rollout policy's own answer (in the first world) "
                      "unless the most visited answer's mean beats it by more than z standard errors",
                      0.0, 100.0))

    doc = ("Single-observer information-set MCTS (balance.engine.ismcts) at every decision: worlds dealt from "
           "the seat's view, one tree over every seat's answers (UCB1 with availability counts), rollouts to "
           "the end with the " + heuristic + ", the most visited answer; {} iterations.")
    return ((Policy("ismcts", code, doc.format(256), params(256)),)
            + tuple(Policy(f"ismcts-{b}", code, doc.format(b), params(b)) for b in budgets))


def skill_rungs(hand_written: str = "heuristic") -> tuple[tuple[str, str, dict], ...]:
    """A game's skill rungs (``Game.skill``, read by ``balance check --skill``): its best
    hand-written policy, then the tree search at SKILL_BUDGETS (the players a verdict is re-read
    with; measured stronger than the heuristic in every game that has them: docs/games)."""
    return ((hand_written, hand_written, {}),
            *((f"tree search, {b} iterations", f"ismcts-{b}", {}) for b in SKILL_BUDGETS))


@kernel(inline="always")
def ismcts_words(state_size, max_players, params_width):
    """How many int and float words the search's buffers take (``ismcts_views`` lays them out). A
    game sizes its own scratch with it at import through ``ismcts_words.py_func``."""
    return (TREE_INT_ROWS * MAX_NODES + state_size + max_players + max_players * N_KINDS_MAX * RESTRICT_SIDES,
            TREE_FLOAT_ROWS * MAX_NODES + max_players * params_width + max_players)


@kernel(inline="always")
def ismcts_views(words, state_size, max_players, params_width):
    """The search's buffers as views of ``words``, a flat int and a flat float array of at least
    ``ismcts_words`` words each: the tree (an int matrix and a float matrix, one column per node;
    first in each array), the world an iteration plays in, the rollout players' codes, parameter rows
    and restrictions, and one value per seat. A game carries the two flat arrays (or carves them from
    scratch it already carries) down its hot path, not seven arrays that only a tree search reads."""
    ints, floats = words
    nodes = TREE_INT_ROWS * MAX_NODES
    world = nodes + state_size
    codes = world + max_players
    restricts = codes + max_players * N_KINDS_MAX * RESTRICT_SIDES
    weights = TREE_FLOAT_ROWS * MAX_NODES
    values = weights + max_players * params_width
    return (ints[:nodes].reshape((TREE_INT_ROWS, MAX_NODES)), floats[:weights].reshape((TREE_FLOAT_ROWS, MAX_NODES)),
            ints[nodes:world], ints[world:codes],
            floats[weights:values].reshape((max_players, params_width)),
            ints[codes:restricts].reshape((max_players, N_KINDS_MAX, RESTRICT_SIDES)),
            floats[values:values + max_players])


@allocating_kernel
def ismcts_buffers(state_size, max_players, params_width):
    """The search's words (``ismcts_views``) for one block of games. The tree's part is left unfilled
    (``new_node`` writes every field of a node before it is read): a block that seats no tree search
    pays nothing for it; the rest starts at zero."""
    int_words, float_words = ismcts_words(state_size, max_players, params_width)
    ints = np.empty(int_words, dtype=np.int64)
    floats = np.empty(float_words, dtype=np.float64)
    ints[TREE_INT_ROWS * MAX_NODES:] = 0
    floats[TREE_FLOAT_ROWS * MAX_NODES:] = 0.0
    return ints, floats


@kernel(inline="always")
def decision_key(state):
    """The posed decision's part of an edge key: who decides which kind."""
    return (state[D_SEAT] * N_KINDS_MAX + state[D_KIND]) << ANSWER_BITS


@kernel
def new_node(tree, floats, count, parent, key):
    """Node ``count`` as ``parent``'s newest child along ``key``."""
    tree[T_KEY, count] = key
    tree[T_FIRST_CHILD, count] = NO_NODE
    tree[T_NEXT_SIBLING, count] = tree[T_FIRST_CHILD, parent]
    tree[T_FIRST_CHILD, parent] = count
    tree[T_VISITS, count] = 0
    tree[T_AVAILABLE, count] = 0
    floats[F_TOTAL, count] = 0.0
    floats[F_SQUARES, count] = 0.0


@kernel
def select_child(tree, floats, node, state, exploration, low, high, rng):
    """The child of ``node`` taken at the decision posed in ``state``: every child legal here counts
    one more availability; an answer legal here with no child yet is returned negated minus one
    (the caller expands it: drawn uniformly among them); else the best UCB1 child (ties at random)."""
    key = decision_key(state)
    choices = state[D_CHOICES]
    tried = 0
    child = tree[T_FIRST_CHILD, node]
    while child != NO_NODE:
        edge = tree[T_KEY, child]
        answer = edge & ANSWER_MASK
        if edge - answer == key and (choices >> answer) & 1:
            tree[T_AVAILABLE, child] += 1
            tried |= 1 << answer
        child = tree[T_NEXT_SIBLING, child]
    untried = choices & ~tried
    if untried:
        return -1 - random_bit(rng, untried)
    span = high - low
    best, best_score, ties = NO_NODE, 0.0, 0
    child = tree[T_FIRST_CHILD, node]
    while child != NO_NODE:
        edge = tree[T_KEY, child]
        answer = edge & ANSWER_MASK
        if edge - answer == key and (choices >> answer) & 1:
            visits = tree[T_VISITS, child]
            mean = floats[F_TOTAL, child] / visits
            q = (mean - low) / span if span > 0.0 else 0.5
            score = q + exploration * np.sqrt(np.log(tree[T_AVAILABLE, child]) / visits)
            if best == NO_NODE or score > best_score:
                best, best_score, ties = child, score, 1
            elif score == best_score:
                ties += 1
                if below(rng, ties) == 0:
                    best = child
        child = tree[T_NEXT_SIBLING, child]
    return best


@kernel
def most_visited(tree, rng):
    """The root's most visited child (ties at random)."""
    best, best_visits, ties = NO_NODE, -1, 0
    child = tree[T_FIRST_CHILD, ROOT]
    while child != NO_NODE:
        visits = tree[T_VISITS, child]
        if visits > best_visits:
            best, best_visits, ties = child, visits, 1
        elif visits == best_visits:
            ties += 1
            if below(rng, ties) == 0:
                best = child
        child = tree[T_NEXT_SIBLING, child]
    return best


@kernel
def root_child(tree, answer):
    """The root's child along ``answer`` (the root's decision is the one posed), or NO_NODE."""
    child = tree[T_FIRST_CHILD, ROOT]
    while child != NO_NODE and tree[T_KEY, child] & ANSWER_MASK != answer:
        child = tree[T_NEXT_SIBLING, child]
    return child


@kernel
def beats(tree, floats, child, other, z):
    """Whether ``child``'s mean value exceeds ``other``'s by more than ``z`` standard errors of the
    difference (Welch's, each node's own sample variance; a node visited fewer than twice has no
    variance to speak of, so it never beats or is beaten)."""
    visits, others = tree[T_VISITS, child], tree[T_VISITS, other]
    if visits < 2 or others < 2:
        return False
    mean, other_mean = floats[F_TOTAL, child] / visits, floats[F_TOTAL, other] / others
    spread = (max(floats[F_SQUARES, child] / visits - mean * mean, 0.0) / (visits - 1)
              + max(floats[F_SQUARES, other] / others - other_mean * other_mean, 0.0) / (others - 1))
    gap = mean - other_mean
    return gap > z * np.sqrt(spread)


@kernel(inline="always")
def ismcts_answer(state, table, rng, players, params_row, heuristic_code, heuristic_params, restrict, mind,
                  buffers, scratch, advance, over, pose_pending, apply_answer, policy, sample_world, finish, score):
    """The answer (a bit index of ``state[D_CHOICES]``) of SO-ISMCTS for the deciding seat over
    the iterations ``params_row`` says (at most MAX_ITERATIONS). ``table`` is the one the search's
    worlds are played with (no trace); the rollout policy is random or ``heuristic_code`` with
    ``heuristic_params`` (never a search); ``mind`` the game's, handed to that policy; ``buffers`` the
    ``ismcts_views`` of the game's words; ``policy`` the game's (the rollout players' answers where the tree has
    none); ``scratch`` the int matrix the game's ``sample_world`` works in (called as
    ``sample_world(state, world, seat, table[0], scratch, rng)``)."""
    tree, floats, world, codes, params, rollout_restrict, values = buffers
    seat = state[D_SEAT]
    iterations = max(1, min(int(params_row[I_ITERATIONS]), MAX_ITERATIONS))
    exploration = params_row[I_EXPLORATION]
    rollout_code = heuristic_code if params_row[I_ROLLOUT] == ROLLOUT_HEURISTIC else POLICY_RANDOM
    modelled = params_row[I_OPPONENTS] == OPPONENTS_MODELLED
    seat_rollout_players(players, seat, restrict, rollout_code, heuristic_params, codes, params, rollout_restrict)
    tree[T_FIRST_CHILD, ROOT] = NO_NODE
    tree[T_VISITS, ROOT] = 0
    count = 1
    low, high = np.inf, -np.inf
    mixed = params_row[I_RANDOM_OPPONENTS]
    anchor = params_row[I_ANCHOR]
    hint = NO_NODE
    for iteration in range(iterations):
        sample_world(state, world, seat, table[0], scratch, rng)
        if anchor > 0.0 and iteration == 0:  # the rollout policy's answer at the root, from the seat's view
            hint = decide(world, table, rng, codes, params, rollout_restrict, mind, policy, no_search)
        if mixed > 0.0:
            for s in range(players):
                if s != seat:
                    codes[s] = POLICY_RANDOM if chance(rng, mixed) else rollout_code
        node = ROOT
        depth = 0
        tree[T_PATH, 0] = ROOT
        while True:  # the tree's part: ``world`` has a posed decision
            if forced(world) or (modelled and world[D_SEAT] != seat):
                apply_answer(world, table, decide(world, table, rng, codes, params, rollout_restrict, mind, policy,
                                                  no_search))
            else:
                child = select_child(tree, floats, node, world, exploration, low, high, rng)
                expanded = child < 0
                if expanded:
                    answer = -1 - child
                    child = count
                    new_node(tree, floats, count, node, decision_key(world) | answer)
                    tree[T_AVAILABLE, child] = 1
                    count += 1
                else:
                    answer = tree[T_KEY, child] & ANSWER_MASK
                node = child
                depth += 1
                tree[T_PATH, depth] = node
                apply_answer(world, table, answer)
                if expanded:
                    break
            advance(world, table)
            if over(world):
                break
            pose_pending(world, table, rollout_restrict)
        finish(world, table, rng, codes, params, rollout_restrict, mind)
        for s in range(players):
            values[s] = score(world, s)
            low = min(low, values[s])
            high = max(high, values[s])
        tree[T_VISITS, ROOT] += 1
        for d in range(1, depth + 1):
            node = tree[T_PATH, d]
            tree[T_VISITS, node] += 1
            value = values[(tree[T_KEY, node] >> ANSWER_BITS) // N_KINDS_MAX]
            floats[F_TOTAL, node] += value
            floats[F_SQUARES, node] += value * value
    best = most_visited(tree, rng)
    if hint != NO_NODE:
        held = root_child(tree, hint)
        if held != NO_NODE and held != best and not beats(tree, floats, best, held, anchor):
            best = held
    return tree[T_KEY, best] & ANSWER_MASK
