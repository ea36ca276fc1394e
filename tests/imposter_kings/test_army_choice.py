"""The Army-choice study ([army_choice] in a scenario of mode signature_step or fon with Armies dealt at
random): what players who choose their three Signature Cards well would pick, with intervals, in the
study's summary, its report and `balance check`. Its statistics are tested on known truths in
tests/engine/test_stats_composition.py; here: the scenario key, and the study from real matches."""

from pathlib import Path

import numpy as np
import pytest

from balance.engine.game import SetupError
from balance.engine.runner import simulate
from balance.engine.scenario import parse_scenario
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings.game import GAME
from balance.report import write_report
from balance.stats import summarize
from balance.studies import analyses
from tests.engine.test_cli import invoke

RANDOM = {"signatures": "random"}
NINE = [L.NAMES[t] for t in np.flatnonzero(L.SIGNATURE)]


def setup_with(extra, mode="signature_step", options=RANDOM):
    return GAME.make_setup(mode, 2, "heuristic", options=options, rotate=False, extra=extra, key="")


@pytest.mark.parametrize("extra, options, mode, key", [
    ({"army_choice": {"draws": 50}}, RANDOM, "signature_step", "army_choice.draws"),
    ({"army_choice": {"draws": 400.5}}, RANDOM, "signature_step", "army_choice.draws"),
    ({"army_choice": {"draw": 400}}, RANDOM, "signature_step", "army_choice.draw"),
    ({"army_choice": 400}, RANDOM, "signature_step", "army_choice"),
    ({"armies": {}}, RANDOM, "signature_step", "armies"),
    ({"army_choice": {}}, RANDOM, "army_step", "army_choice"),
    ({"army_choice": {}}, {}, "signature_step", "army_choice"),  # chosen Armies
    ({"army_choice": {}}, {"signatures": "tournament"}, "fon", "army_choice"),
    ({"army_choice": {}}, dict(RANDOM, signatures_seat0=["Exile", "Aegis", "Ancestor"]), "signature_step",
     "army_choice"),
])
def test_a_bad_army_choice_table_is_one_clear_error_naming_its_key(extra, options, mode, key):
    with pytest.raises(SetupError) as err:
        setup_with(extra, mode, options)
    assert err.value.key == key


def test_a_scenario_file_with_a_bad_army_choice_names_the_file_and_key():
    data = {"game": "imposter_kings", "mode": "signature_step", "players": 2, "options": RANDOM,
            "army_choice": {"draws": 3}}
    with pytest.raises(Exception) as err:
        parse_scenario(data, Path("armies.toml"))
    assert "armies.toml" in str(err.value) and "army_choice.draws" in str(err.value)


@pytest.fixture(scope="module")
def study():
    setup = setup_with({"army_choice": {"draws": 100}})
    results = simulate(setup, 11, 4000)
    return results, summarize(results, [], analyses(results))


def test_the_study_gives_each_card_an_equilibrium_pick_rate_and_a_strength(study):
    results, summary = study
    (analysis,) = summary["analyses"]
    table = analysis["table"]
    assert sorted(table["card"]) == sorted(NINE)
    picks = table["equilibrium pick rate"].astype(float)
    assert picks.between(0, 1).all() and picks.sum() == pytest.approx(L.SIGNATURE_CHOICES, abs=1e-6)
    assert table["mean over draws"].astype(float).sum() == pytest.approx(L.SIGNATURE_CHOICES, abs=0.005)  # rounded
    for est, ci in zip(picks, table["pick rate 95% CI"]):
        low, high = map(float, ci.strip("[]").split(","))
        assert 0 <= low <= high <= 1
    # the heuristic's fixed choice (policies.SIGNATURE_PREFERENCE): Exile, Aegis, Ancestor
    assert sorted(table.loc[table["in the heuristic's Army"] == "yes", "card"]) == ["Aegis", "Ancestor", "Exile"]
    assert "4,000 matches" in analysis["method"] and "always chooses Aegis, Ancestor, Exile" in analysis["text"]
    assert "heuristic" in analysis["text"]  # the players it was measured with


def test_the_study_is_the_same_from_the_same_seed(study):
    results, summary = study
    again_results = simulate(results.setup, 11, 4000)
    again = summarize(again_results, [], analyses(again_results))
    assert again["analyses"][0]["table"].equals(summary["analyses"][0]["table"])
    assert again["analyses"][0]["text"] == summary["analyses"][0]["text"]


def test_no_study_without_the_table(study):
    results, _ = study
    setup = setup_with({})
    assert analyses(simulate(setup, 11, 200)) == []


def test_the_report_shows_the_study(study, tmp_path):
    results, summary = study
    scenario = parse_scenario({"game": "imposter_kings", "mode": "signature_step", "players": 2, "rotate": False,
                               "options": RANDOM, "army_choice": {"draws": 100}}, tmp_path / "armies.toml")
    html, md = write_report([(scenario, results, summary)], tmp_path / "r.html")
    for page in (html.read_text(), md.read_text()):
        assert "The Army choice: what players who choose well pick" in page and "equilibrium pick rate" in page


def test_balance_check_prints_the_study(tmp_path):
    path = tmp_path / "armies.toml"
    path.write_text('game = "imposter_kings"\nmode = "signature_step"\nplayers = 2\nrotate = false\ngames = 1500\n'
                    'seats = "heuristic"\n[options]\nsignatures = "random"\n[army_choice]\ndraws = 100\n')
    code, out = invoke("check", path)
    assert code == 0 and "The Army choice" in out and "Lockshift" in out
