"""The step contract's conformance suite (issue 27 item 5), written once and run on every registered
game and mode through its ``Game.stepper`` (balance.engine.stepper): a game is covered by
registering it.

- random play conserves every card at every decision and ends;
- every policy, the search included, answers only within the posed (restricted) choices, and a
  forbidden answer is never posed while another is legal;
- same view, different hidden cards, same decision: at decisions of every policy's own play, the
  answer from a world dealt again from the deciding seat's view (the game's ``sample_world``),
  with the same stream, equals the answer from the true state.
"""

from __future__ import annotations

import pytest

from balance.engine.decision import D_KIND
from balance.engine.rng import new_stream
from balance.games import game_names, get_game

SEED = 20261203
MAX_DECISIONS = 5000  # a run (a game, or a match's first round) ends well before this under random play
VIEW_DECISIONS = 40  # decisions checked per run for view independence
SEARCH_DECISIONS = 6  # the search is slow: fewer
CHEAP_SEARCH = {"rollouts": 2, "horizon": 1, "iterations": 16}  # the searches' parameters here, where a policy has them

NOT_ON_THE_CONTRACT = {}


def modes():
    for name in game_names():
        game = get_game(name)
        for mode, declared in game.modes.items():
            marks = [pytest.mark.xfail(strict=True, raises=NotImplementedError, reason=NOT_ON_THE_CONTRACT[name])] \
                if name in NOT_ON_THE_CONTRACT else []
            yield pytest.param(name, mode, max(declared.players), marks=marks, id=f"{name}-{mode}")


def searches(policy) -> bool:
    return policy.name.startswith(("search", "ismcts"))


def setup_of(game, mode, players, policy="random", restriction=None):
    params = {}
    if policy != "random":
        params = {p.name: CHEAP_SEARCH[p.name] for p in game.policy(policy, "seats").params if p.name in CHEAP_SEARCH}
    seat = (policy, params, restriction) if restriction else (policy, params)
    return game.make_setup(mode, players, [seat] * players, rotate=False, extra=game.default_extra(mode, players))


@pytest.mark.parametrize("name, mode, players", modes())
def test_random_play_conserves_every_card_and_ends(name, mode, players):
    game = get_game(name)
    steps = game.stepper(setup_of(game, mode, players))
    for deal in range(3):
        run = steps.start(SEED, deal)
        assert steps.conserved(run)
        decisions = 0
        while steps.next_decision(run):
            assert steps.conserved(run), f"deal {deal}, decision {decisions}: a card lost or doubled"
            answer = steps.decide(run)
            assert run.choices >> answer & 1, "an answer outside the posed choices"
            steps.apply(run, answer)
            decisions += 1
            assert decisions < MAX_DECISIONS, "random play did not end"
        assert decisions > 0


def forbidden_action(game, setup):
    """An action of the menu whose kind comes up in play: a card (the first of the menu)."""
    menu = game.actions(setup)
    return menu[0] if menu else None


@pytest.mark.parametrize("name, mode, players", modes())
def test_every_policy_answers_within_its_posed_restricted_choices(name, mode, players):
    game = get_game(name)
    action = forbidden_action(game, setup_of(game, mode, players))
    for policy in game.policies:
        restriction = {"forbid": [action.name]} if action else None
        steps = game.stepper(setup_of(game, mode, players, policy.name, restriction))
        run = steps.start(SEED, 1)
        budget = SEARCH_DECISIONS if searches(policy) else VIEW_DECISIONS
        for _ in range(budget):
            if not steps.next_decision(run):
                break
            if action:
                for kind, bit in action.answers:
                    if run.state[D_KIND] == kind and run.choices & ~(1 << bit):
                        assert not run.choices >> bit & 1, f"{policy.name}: {action.name} posed though forbidden"
            answer = steps.decide(run)
            assert run.choices >> answer & 1, f"{policy.name}: an answer outside the posed choices"
            steps.apply(run, answer)


@pytest.mark.parametrize("name, mode, players", modes())
def test_same_view_different_hidden_cards_same_decision(name, mode, players):
    game = get_game(name)
    for policy in game.policies:
        steps = game.stepper(setup_of(game, mode, players, policy.name))
        run = steps.start(SEED, 2)
        budget = SEARCH_DECISIONS if searches(policy) else VIEW_DECISIONS
        for k in range(budget):
            if not steps.next_decision(run):
                break
            seat = run.seat
            answer = steps.decide(run.copy())
            for w in range(2):
                world = steps.world(run, seat, new_stream(SEED + k, w))
                assert steps.conserved(world), f"{policy.name}: a world dealt from seat {seat}'s view loses a card"
                assert steps.decide(world) == answer, \
                    f"{policy.name}, decision {k} (kind {run.state[D_KIND]}): another world, another answer"
            steps.apply(run, steps.decide(run))
