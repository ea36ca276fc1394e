"""Thron der Lügen's sampled deck compositions (option ``composition``): every one holds what the
rulebook says (28 court cards, 23 Fae and 5 intrigue, the cards it names) and the readings chosen
for the rest; the same number is the same deck; the rules keep every card accounted for on each;
and the committed sweep over them runs through the CLI."""

import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.deck import DRAWN_PEOPLES, DRAWN_VALUES, compose_deck
from balance.games.thron_der_luegen.game import GAME

ROOT = Path(__file__).resolve().parents[2]
SWEEP = ROOT / "scenarios" / "thron_der_luegen" / "decks_sweep.toml"
SWEPT = range(1, 25)  # the sweep's compositions
CHECKED = range(1, 201)  # more than the sweep plays, so that a rare draw is seen too
# The Fae cards the rulebook names, by the name the deck gives each: every composition holds exactly these
# (a drawn card never bears one of these names: its value is 1-9, one number)
NAMED = Counter({"Sun +2": 1, "Sun -1": 1, "Moon 1": 1, "Moon 3": 2, "Winter x2": 1, "Winter -2": 1,
                 "Summer x2": 1, "Summer -2": 1, "Spring 4|1": 1, "Spring 1|4": 1, "Autumn 4|1": 1,
                 "Autumn 1|4": 1})


# Each intrigue effect's parameter as the kernel reads it: every value the menu allows
PARAMS = {L.SWAP_THRONES: {L.REACH_ANY, L.REACH_OWN}, L.PEEK_SWAP: {0, 1},
          L.REPLACE_FROM_PILE: {L.REACH_ANY, L.REACH_OWN}, L.HIDE_END: set(range(1, L.N_END + 1))}


def cards(deck):
    return [[deck.card(i, f) for f in range(L.CARD_FIELDS)] for i in range(L.N_COURT)]


@pytest.mark.parametrize("number", CHECKED)
def test_every_composition_holds_what_the_rulebook_says(number):
    deck = compose_deck(number)
    rows = cards(deck)
    fae = [(name, r) for name, r in zip(deck.names, rows) if r[L.F_KIND] != L.INTRIGUE]
    intrigues = [r for r in rows if r[L.F_KIND] == L.INTRIGUE]
    assert (len(rows), len(fae), len(intrigues)) == (28, 23, 5)
    assert Counter(name for name, _ in fae if name in NAMED) == NAMED
    drawn = [(name, r) for name, r in fae if name not in NAMED]
    assert len(drawn) == 10
    for name, r in drawn:
        people = L.PEOPLES[r[L.F_PEOPLE]]
        assert people in DRAWN_PEOPLES, name  # the Sun and the Moon have only their named cards
        assert L.KIND_NAMES[r[L.F_KIND]] == DRAWN_PEOPLES[people], name  # no more split cards, x2 or -2
        assert DRAWN_VALUES[0] <= r[L.F_VALUE] <= DRAWN_VALUES[1], name
    assert any(r[L.F_KIND] == L.HUNT for _, r in drawn)
    for r in intrigues:
        assert r[L.F_PARAM] in PARAMS[r[L.F_EFFECT]] and r[L.F_PEOPLE] == L.NO_PEOPLE


def test_a_number_is_the_same_deck_every_time_and_numbers_differ():
    first = [compose_deck(k).table.copy() for k in SWEPT]
    compose_deck.cache_clear()
    again = [compose_deck(k).table for k in SWEPT]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert len({a.tobytes() for a in first}) == len(first)
    # the committed sweep page played these very cards (a change of the draws would change its decks)
    assert compose_deck(1).description.endswith(
        "Wild Hunt 8, Winter 4, Winter 8, Summer 1, Summer 4, Summer 4, Spring 2, Spring 4, Spring 4, Autumn 7, "
        "intrigue: swap_thrones, intrigue: swap_thrones (own), intrigue: replace_from_pile, "
        "intrigue: replace_from_pile (own), intrigue: hide_end 4")
    # a setup's kernel input is the composition's table, whatever the player count
    setup = GAME.make_setup("base", 6, "heuristic", options={"composition": 7})
    assert np.array_equal(GAME.compile(setup)[L.OPT_DECK:L.OPT_FACE], compose_deck(7).table)


def test_the_sweep_plays_the_sampled_compositions_against_the_default_deck():
    sweep = tomllib.loads(SWEEP.read_text())["sweep"]
    assert sweep["vary"] == {"options.composition": list(SWEPT)}
    assert sweep["scenarios"] == ["3p.toml", "4p.toml", "5p.toml", "6p.toml"]


@pytest.mark.parametrize("number", SWEPT)
def test_cards_accounted_after_every_move_on_every_swept_composition(number):
    for players in (3, 6):
        setup = GAME.make_setup("base", players, "heuristic", options={"composition": number})
        for game in range(3):
            rows, state, trace = GAME.traced(setup, number, game, checks=True)
            assert state[L.BROKEN] == 0
            assert 1 <= state[L.ROUND] <= GAME.length_cap(setup)


def test_the_sweep_runs_through_the_cli_at_a_tiny_game_count(tmp_path):
    out = tmp_path / "decks.html"
    result = CliRunner().invoke(app, ["sweep", str(SWEEP), "-n", "4", "--threads", "1", "--out",
                                      str(tmp_path / "cells"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists() and out.with_suffix(".md").exists()
    table = out.with_suffix(".csv").read_text()
    assert "options.composition=24" in table and "approximate" in table
    assert (tmp_path / "cells" / "6p" / "options.composition=24").is_dir()
