"""Thron der Lügen: the heuristic's lookup tables (layout.OPT_FACE...) say what the scoring rules
say, for every deck file and reading, and the unseen mean the heuristic values a hidden throne card
at counts every face-up discard once, also when the discards start again in a new round."""

import numpy as np
import pytest

from balance.games.thron_der_luegen import layout as L
from balance.games.thron_der_luegen.deck import deck_names
from balance.games.thron_der_luegen.game import GAME
from balance.games.thron_der_luegen.policies import load_view, unseen_mean
from balance.games.thron_der_luegen.positions import Position
from balance.games.thron_der_luegen.scoring import face_value, pair_score, placement_flip

READINGS = [{"split_cards": split, "hunt_with_double": hunt} for split in ("upright", "placer")
            for hunt in ("cancel", "double")]


def face(opts, oriented: int) -> int:
    """The oriented card's value by the rules: seat 0 reads throne 0's right half (its left throne),
    seat 1 the left half, the card lying upright."""
    return int(face_value(opts, oriented // 2, 0, 0 if oriented % 2 else 1, 0))


@pytest.mark.parametrize("deck", deck_names())
@pytest.mark.parametrize("reading", READINGS, ids=lambda r: "-".join(r.values()))
def test_lookup_tables_are_the_scoring_rules(deck, reading):
    opts = GAME.compile(GAME.make_setup("base", 4, "heuristic", options={"deck": deck, **reading}))
    faces = [face(opts, o) for o in range(L.N_ORIENTED)]
    assert list(opts[L.OPT_FACE: L.OPT_FACE + L.N_ORIENTED]) == faces
    pairs = opts[L.OPT_PAIR: L.OPT_PAIR + L.N_ORIENTED ** 2].reshape(L.N_ORIENTED, L.N_ORIENTED)
    for a in range(L.N_ORIENTED):
        for b in range(L.N_ORIENTED):
            assert pairs[a, b] == pair_score(opts, a // 2, faces[a], b // 2, faces[b]), (a, b)
    for card in range(L.N_COURT):
        assert opts[L.OPT_MEAN2 + card] == faces[2 * card] + faces[2 * card + 1]
        for on_left in (0, 1):  # seat 0 places on throne 0 (its left) or throne 1 (not its left)
            assert opts[L.OPT_PLACED_FLIP + 2 * card + on_left] == placement_flip(opts, card, 1 - on_left, 0)


def hand_mean(pos: Position, seat: int) -> float:
    """The mean value (a split card: the mean of its numbers) of the cards ``seat`` has not seen:
    not face up, not in its hand, not on its two thrones."""
    s = pos.state
    n = pos.players
    seen = {int(s[L.HAND + seat]), int(s[L.THRONE + seat]), int(s[L.THRONE + (seat - 1) % n])}
    seen |= {c for c in range(L.N_COURT) if s[L.DISCARDS] >> c & 1}
    values = [(face(pos.opts, 2 * c) + face(pos.opts, 2 * c + 1)) / 2
              for c in range(L.N_COURT) if c not in seen]
    return float(np.mean(values))


def test_unseen_mean_counts_the_discards_also_when_they_start_again():
    pos = Position.build(4, thrones=["Winter 5", "Summer x2", "Moon 3", "Spring 2"],
                         hands=["Sun +2", "Moon 1", "Winter 4", "Autumn 3"],
                         discards=["Summer 4", "Wild Hunt 6", "Spring 4|1"])
    s = pos.state
    view_cards = load_view(s, 0)
    assert unseen_mean(s, pos.opts, 0, view_cards) == pytest.approx(hand_mean(pos, 0))
    s[L.DISCARDS] |= 1 << int(s[L.PILE + s[L.PILE_TOP]])  # one more face up
    assert unseen_mean(s, pos.opts, 0, view_cards) == pytest.approx(hand_mean(pos, 0))
    s[L.DISCARDS] = 1 << int(s[L.PILE + L.N_COURT - 1])  # a new round: other discards, fewer
    assert unseen_mean(s, pos.opts, 0, view_cards) == pytest.approx(hand_mean(pos, 0))
