"""The Imposter Kings, 2-player base game: card types, values, keywords and the decklists.

Cards of one name are interchangeable, so every zone is a count per card TYPE (0..13). The
tables are plain numpy arrays that compiled code reads as globals (frozen at compile time).
"""

import numpy as np

FOOL = 0
ASSASSIN = 1
ELDER = 2
ZEALOT = 3
INQUISITOR = 4
SOLDIER = 5
JUDGE = 6
OATHBOUND = 7
MYSTIC = 8
WARLORD = 9
KINGS_HAND = 10
SENTRY = 11
PRINCESS = 12
QUEEN = 13
TYPES = 14

NAMES = ("Fool", "Assassin", "Elder", "Zealot", "Inquisitor", "Soldier", "Judge", "Oathbound", "Mystic",
         "Warlord", "King's Hand", "Sentry", "Princess", "Queen")
BASE_VALUE = np.array([1, 2, 3, 3, 4, 5, 5, 6, 7, 7, 8, 8, 9, 9], dtype=np.int64)
ROYALTY = np.array([0] * 12 + [1, 1], dtype=np.int64)
# "Immune to King's Hand" (the Oathbound's follow-up card is immune too: a flag on the play).
IMMUNE = np.zeros(TYPES, dtype=np.int64)
IMMUNE[[ELDER, ZEALOT, OATHBOUND, KINGS_HAND]] = 1

# Decklists (counts per type). Quickplay: 14 cards, the Assassin is the Accused by rule.
QUICKPLAY_DECK = np.array([1, 0, 2, 0, 2, 2, 0, 2, 1, 1, 0, 1, 1, 1], dtype=np.int64)
ASSASSIN_STEP_DECK = QUICKPLAY_DECK.copy()
ASSASSIN_STEP_DECK[ASSASSIN] = 1
KINGS_HAND_STEP_DECK = ASSASSIN_STEP_DECK.copy()
KINGS_HAND_STEP_DECK[KINGS_HAND] = 1
FULL_DECK = KINGS_HAND_STEP_DECK.copy()
FULL_DECK[ZEALOT] = 1
FULL_DECK[JUDGE] = 1
MAX_CARDS = 18
assert FULL_DECK.sum() == MAX_CARDS and QUICKPLAY_DECK.sum() == 14

WARLORD_HAND_WITH_ROYALTY = 8
WARLORD_COURT_WITH_ROYALTY = 9
SOLDIER_BONUS = 2
MUTED_VALUE = 3       # the Mystic's set value
DISGRACED_VALUE = 1
JUDGE_MIN_BASE = 2    # the Judge may put a card of base value 2 or more into the Antechamber
SOLDIER_DISGRACES = 3
MYSTIC_HIGHEST = 8    # the Mystic names a number 1..8
OATHBOUND_VALUE = 6


def type_of(name: str) -> int:
    """Card type from a readable name ("King's Hand", "kings_hand", "kingshand" all work)."""
    key = name.lower().replace("'", "").replace("_", "").replace(" ", "")
    for i, n in enumerate(NAMES):
        if n.lower().replace("'", "").replace(" ", "") == key:
            return i
    raise KeyError(f"unknown card '{name}' (known: {', '.join(NAMES)})")
