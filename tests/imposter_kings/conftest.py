"""Positions at every kind of decision, shared by the information and restriction tests."""

import pytest

from balance.engine.rng import below, new_stream
from balance.games.imposter_kings import layout as L
from balance.games.imposter_kings import rules as R
from balance.games.imposter_kings.positions import Position

DECISIONS = tuple(range(L.PH_ASSASSIN + 1))  # every phase a seat decides (PH_FIRST .. PH_ASSASSIN)

# Decision kinds that random play reaches too rarely, built from rulebook situations instead.
BUILT = {
    # two face-up Antechamber cards (an Inquisitor's and a Judge's): the player picks which to play
    L.PH_ANTE: dict(hands={0: ["Fool", "Queen"], 1: ["Elder", "Warlord", "Mystic", "Assassin"]},
                    antechambers={0: ["Soldier", "Elder"]}, successors={0: "Sentry", 1: "Princess"},
                    dungeons={0: "Zealot", 1: "Inquisitor"}, court=["Inquisitor", "Judge"],
                    removed=["Soldier", "Oathbound"], unused="Oathbound", accused="King's Hand"),
}


def collect_decisions(per_kind, mode="full", deals=2000, seed=5):
    """Up to ``per_kind`` positions of every decision kind with a real choice (2+ legal answers),
    from random play, plus the BUILT ones."""
    found = {kind: [] for kind in DECISIONS}
    stream = new_stream(seed, 0)
    cfg = None
    for deal in range(deals):
        pos = Position.deal(mode, seed=deal, true_king=deal % 2)
        cfg = pos.cfg
        while pos.phase_code not in (L.PH_ROUND_OVER, L.PH_REDEAL):
            legal = pos.legal_codes()
            if len(legal) >= 2 and len(found[pos.phase_code]) < per_kind:
                found[pos.phase_code].append(pos.s.copy())
            R.apply_action(pos.s, pos.cfg, legal[below(stream, len(legal))])
        if all(len(v) >= per_kind for k, v in found.items() if k not in BUILT):
            break
    for kind, spec in BUILT.items():
        pos = Position.build(**spec, mode=mode)
        assert pos.phase_code == kind
        found[kind].append(pos.s.copy())
    return cfg, found


@pytest.fixture(scope="module")
def decisions():
    """4 positions per decision kind (the search decides at each, so few)."""
    return collect_decisions(4)


@pytest.fixture(scope="module")
def many_decisions():
    """16 positions per decision kind."""
    return collect_decisions(16)
