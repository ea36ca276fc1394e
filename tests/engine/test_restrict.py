"""The engine's decision interface (balance.engine.decision): pose narrows a decision by the seat's
restriction and never makes it illegal; restrictions rotate with their policy slot; the scenario
keys forbid/prefer reach labels and the study identity; `balance restrict` reports every action
with the right sign."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.engine.decision import (D_CHOICES, D_KIND, D_SEAT, FORBID, N_KINDS_MAX, PREFER, answer_of, forced,
                                     no_restrictions, pose, random_answer)
from balance.engine.kernels import seat_restrictions
from balance.engine.rng import new_stream
from balance.engine.runner import study_identity
from balance.games.take_the_throne.game import GAME

PLAYERS = 4
KIND = 5


def posed(choices, forbid=0, prefer=0, seat=1, kind=KIND, restricted_seat=1, restricted_kind=KIND):
    restrict = no_restrictions(PLAYERS)
    restrict[restricted_seat, restricted_kind, FORBID] = forbid
    restrict[restricted_seat, restricted_kind, PREFER] = prefer
    state = np.full(8, -7, dtype=np.int64)
    allowed = pose(state, seat, kind, choices, restrict)
    assert state[D_CHOICES] == allowed and state[D_SEAT] == seat and state[D_KIND] == kind
    return allowed


def test_forbid_removes_its_bits():
    assert posed(0b1011, forbid=0b0010) == 0b1001
    assert posed(0b1011, forbid=0b0110) == 0b1001  # a forbidden answer that is not legal changes nothing


def test_forbid_never_leaves_a_decision_without_a_legal_answer():
    assert posed(0b0100, forbid=0b0100) == 0b0100
    assert posed(0b1100, forbid=0b1111) == 0b1100


def test_prefer_narrows_to_the_preferred_answers_when_one_is_legal():
    assert posed(0b1011, prefer=0b1000) == 0b1000
    assert posed(0b1011, prefer=0b1010) == 0b1010
    assert posed(0b1011, prefer=0b0100) == 0b1011  # none legal: no effect


def test_forbid_applies_before_prefer():
    assert posed(0b0111, forbid=0b0001, prefer=0b0011) == 0b0010
    assert posed(0b0011, forbid=0b0011, prefer=0b0001) == 0b0001  # forced back, then preferred


def test_a_restriction_binds_only_its_seat_and_kind():
    assert posed(0b1011, forbid=0b0010, restricted_seat=2) == 0b1011
    assert posed(0b1011, forbid=0b0010, restricted_kind=KIND + 1) == 0b1011


def test_an_all_zero_restriction_is_the_identity():
    rng = np.random.default_rng(3)
    restrict = no_restrictions(PLAYERS)
    state = np.zeros(4, dtype=np.int64)
    for choices in rng.integers(1, 2**62, 500):
        seat, kind = rng.integers(0, PLAYERS), rng.integers(0, N_KINDS_MAX)
        assert pose(state, seat, kind, int(choices), restrict) == choices


def test_forced_and_random_answers():
    state = np.zeros(3, dtype=np.int64)
    state[D_CHOICES] = 1 << 40
    assert forced(state) and answer_of(state) == 40
    state[D_CHOICES] = 0b101001
    assert not forced(state)
    rng = new_stream(5, 0)
    draws = [random_answer(state, rng) for _ in range(3000)]
    counts = np.bincount(draws, minlength=6)
    assert set(np.flatnonzero(counts)) == {0, 3, 5}
    assert counts[[0, 3, 5]].min() > 900  # uniform: about 1000 each


@pytest.mark.parametrize("rotation", range(PLAYERS))
def test_restrictions_rotate_with_their_slot(rotation):
    slots = np.zeros((PLAYERS, N_KINDS_MAX, 2), dtype=np.int64)
    for slot in range(PLAYERS):
        slots[slot, KIND, FORBID] = 1 << slot
    seated = np.empty_like(slots)
    seat_restrictions(rotation, slots, seated)
    for slot in range(PLAYERS):
        assert seated[(slot + rotation) % PLAYERS, KIND, FORBID] == 1 << slot


def test_forbid_and_prefer_reach_labels_setup_and_identity():
    plain = GAME.make_setup("core", 4, "heuristic")
    seats = [("heuristic", {}, {"forbid": ["charge"], "prefer": ["RAID"]})] + [("heuristic", {})] * 3
    restricted = GAME.make_setup("core", 4, seats)
    assert restricted.seats[0].label == "heuristic[-Charge,+Raid]"
    assert restricted.rotations == 4 and plain.rotations == 1  # no longer identical players
    assert not plain.restrict.any()
    charge = next(a for a in GAME.actions(plain) if a.name == "Charge")
    for kind, bit in charge.answers:
        assert restricted.restrict[0, kind, FORBID] >> bit & 1
    assert not restricted.restrict[1:].any()
    assert study_identity(restricted)["seats"][0]["forbid"] == ["Charge"]
    # an unrestricted study keeps the identity (and so the folder key) it had before restrictions
    assert all(set(s) == {"policy", "params"} for s in study_identity(plain)["seats"])


RESTRICT_SCENARIO = """
game = "take_the_throne"
mode = "core"
players = 3
seed = 11
seats = "heuristic"
"""


def test_restrict_lists_every_action_and_shows_the_cost_of_losing_charge(tmp_path):
    scenario = tmp_path / "core_3p.toml"
    scenario.write_text(RESTRICT_SCENARIO)
    result = CliRunner().invoke(app, ["restrict", str(scenario), "--games", "1200", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    rows = {r["action"]: r for r in out["rows"]}
    setup = GAME.make_setup("core", 3, "heuristic")
    assert [a.name for a in GAME.actions(setup)] == [r["action"] for r in out["rows"][:len(rows) - 3]]
    assert {"seat 0 (first Monarch)", "seat 1", "seat 2"} <= set(rows)
    # Charge is the house players' only card that takes the throne alone: losing it must cost
    charge = rows["Charge"]
    assert charge["forbidden_label"] == "heuristic[-Charge]"
    assert charge["importance_low"] > 0 and charge["forbidden"] < charge["baseline"]
    page = tmp_path / "restrict.html"
    text = CliRunner().invoke(app, ["restrict", str(scenario), "--games", "60", "-o", str(page)])
    assert text.exit_code == 0 and all(name in text.stdout for name in rows)
    assert "data:image/png;base64" in page.read_text() and page.with_suffix(".md").exists()


def test_a_clear_cost_measured_on_few_deals_is_decided_among_130_tests():
    # 100 deals: each cost's reference is the bootstrap-t (p-values no smaller than 1 / 2,000), and
    # Holm's first step over 130 tests compares at 0.05 / 130, below that.
    import pandas as pd

    from balance.studies.restrict import verdicts
    from balance.stats import estimate_mean

    rng = np.random.default_rng(7)
    deals = np.arange(100)
    costs = [estimate_mean(rng.normal(0.20, 0.05, 100), deals)] + \
        [estimate_mean(rng.normal(0.02, 0.05, 100), deals) for _ in range(129)]
    table = verdicts(pd.DataFrame({"importance_est": costs}), margin=0.02)
    assert table.loc[0, "important"] == "holds" and table.loc[0, "p_important"] < 0.05
