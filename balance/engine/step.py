"""The step-kernel contract (issue 27), written once for every game: the rules pose a decision in
the shared header (balance.engine.decision) and stop; the engine asks the deciding seat and hands
the answer back. Rules never call a policy.

A game supplies compiled functions; the engine's ``decide`` and ``play`` take them as arguments:

- ``advance(state, table)``: run the rules until a decision is pending (its seat, kind and legal
  answers written to the header, unrestricted) or ``over(state)``;
- ``over(state)``: nothing is pending: the game (or the part of it being played, a round, a
  rollout's horizon) is over;
- ``pose_pending(state, table, restrict)``: narrow the pending decision by the deciding seat's
  restriction (``decision.pose``); this module's own serves every game whose rules leave the
  decision in the header alone;
- ``apply_answer(state, table, answer)``: the pending decision answered;
- ``policy(state, table, seat, code, params_row, rng, mind)``: the seat's hand-written policies
  (every code but POLICY_RANDOM) answering the posed decision, or ``SEARCH`` to have ``search_at``
  answer it instead;
- ``search_at(state, table, seat, code, params_row, restrict, rng, mind)``: the answer of the search
  policy ``code`` (the flat balance.engine.search, or the tree search balance.engine.ismcts, with
  the game's ``sample_world`` and rollouts through ``play``);
- ``score(state, seat)`` and ``sample_world`` (balance.engine.search.DETERMINIZE_SIGNATURE): a
  rollout's value and a world dealt from the seat's view.

``table`` is the game's tuple of what its rules read and write besides the state (options, the
rules' random stream, the trace buffer); ``mind`` the game's tuple of what its policies use
(scratch buffers); ``rng`` the policies' random stream. The engine only hands them on.

``decide`` and ``play`` are inlined into the game's caller, which names its functions as globals:
the calls then resolve at compile time (each game's loop is compiled for its own functions, a
policy inlined when the game marks it so), nothing is dispatched at run time, and the caller
stays in the on-disk cache (a compiled function that took function arguments would not).
"""

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT, POLICY_RANDOM, answer_of, forced, pose, random_answer
from balance.engine.kernels import kernel

SEARCH = -1  # a policy's answer "let the search decide this one" (search_at answers it)


@kernel(inline="always")
def decide(state, table, rng, codes, params, restrict, mind, policy, search_at):
    """The answer to the posed decision (already narrowed by the seat's restriction): a forced one
    as it is, uniform for POLICY_RANDOM, else the seat's policy, then the search if it asks."""
    if forced(state):
        return answer_of(state)
    seat = state[D_SEAT]
    code = codes[seat]
    if code == POLICY_RANDOM:
        return random_answer(state, rng)
    answer = policy(state, table, seat, code, params[seat], rng, mind)
    if answer == SEARCH:
        answer = search_at(state, table, seat, code, params[seat], restrict, rng, mind)
    return answer


@kernel(inline="always")
def play(state, table, rng, codes, params, restrict, mind, advance, over, pose_pending, apply_answer, policy,
         search_at):
    """Play from ``state`` until ``over``: every decision posed, narrowed, decided and applied."""
    advance(state, table)
    while not over(state):
        pose_pending(state, table, restrict)
        apply_answer(state, table, decide(state, table, rng, codes, params, restrict, mind, policy, search_at))
        advance(state, table)


@kernel(inline="always")
def pose_pending(state, table, restrict):
    """The pending decision, as the rules left it in the header, narrowed by its seat's restriction
    (``decision.pose``): the ``pose_pending`` of every game whose rules pend in the header alone."""
    pose(state, state[D_SEAT], state[D_KIND], state[D_CHOICES], restrict)


@kernel
def no_search(state, table, seat, code, params_row, restrict, rng, mind):
    """``search_at`` for a loop whose policies never ask the search (a rollout's): never called."""
    return SEARCH
