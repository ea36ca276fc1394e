"""DETHRONED's 22 suggested setups (../shared/rules/dethroned.md) and their scenario files.

    python -m balance.games.dethroned.setups      # (re)write scenarios/dethroned/*.toml
"""

from __future__ import annotations

from pathlib import Path

from balance.games.dethroned.layout import BUILTIN_ROLES, GT, TK

SUGGESTED_SETUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "assassin_for_hire": ("Assassin for Hire", ("Fool", "King", "Assassin")),
    "a_foolish_hunt": ("A Foolish Hunt", ("Maniac", "Fool", "King")),
    "on_sale": ("On Sale", ("Assassin", "Shopkeeper", "Maniac")),
    "a_royal_showdown": ("A Royal Showdown", ("King", "King's Hand", "Assassin", "Fool")),
    "trouble_in_the_family": ("Trouble in the Family", ("King", "Princess", "King's Hand", "Fool")),
    "dethroned": ("Dethroned", ("King", "Princess", "Fool", "Sage")),
    "kings_day_out": ("King's Day Out", ("King", "Assassin", "Shopkeeper", "Maniac")),
    "the_royal_family": ("The Royal Family", ("King's Hand", "Princess", "Fool", "Sage", "King")),
    "the_guest_list": ("The Guest List", ("Assassin", "Princess", "Fool", "Shopkeeper", "Maniac", "King")),
    "the_afterparty": ("The Afterparty",
                       ("King", "King's Hand", "Assassin", "Princess", "Fool", "Shopkeeper", "Maniac")),
    "full_house": ("Full House", TK),
    "a_test_of_faith": ("A Test of Faith", ("Suitor", "Sweetheart", "Butcher")),
    "twins_trials": ("Twin's Trials", ("Sentinel", "Alchemist", "Anarchist")),
    "the_honeymoon": ("The Honeymoon", ("Suitor", "Sweetheart", "Butcher", "Butcher's Boy")),
    "crowd_control": ("Crowd Control", ("Sentinel", "Alchemist", "Anarchist", "Butcher")),
    "divide_and_conquer": ("Divide and Conquer", ("Suitor", "Sweetheart", "Alchemist", "Anarchist")),
    "the_nights_watch": ("The Night's Watch", ("Alchemist", "Anarchist", "Arbiter", "Butcher", "Butcher's Boy")),
    "judge_jury_and_executioner": ("Judge, Jury and Executioner",
                                   ("Sentinel", "Alchemist", "Anarchist", "Arbiter", "Butcher")),
    "in_the_family": ("In The Family", ("Sentinel", "Suitor", "Sweetheart", "Arbiter", "Butcher", "Butcher's Boy")),
    "spring_cleaning": ("Spring Cleaning", ("Sentinel", "Suitor", "Sweetheart", "Alchemist", "Anarchist", "Arbiter")),
    "out_to_play_anarchist": ("Out To Play (7th role: Anarchist)",
                              ("Sentinel", "Suitor", "Sweetheart", "Alchemist", "Arbiter", "Butcher", "Anarchist")),
    "out_to_play_butchers_boy": ("Out To Play (7th role: Butcher's Boy)",
                                 ("Sentinel", "Suitor", "Sweetheart", "Alchemist", "Arbiter", "Butcher",
                                  "Butcher's Boy")),
    "town_meeting": ("Town Meeting", GT),
}

SCENARIO_DIR = Path("scenarios/dethroned")
SEED = 20261130
GAMES = 20_000
WIN_TARGET = 0.5
WIN_TOLERANCE = 0.1
ASSAILANT_TARGET = 0.5
ASSAILANT_TOLERANCE = 0.1
SEAT_TOLERANCE = 0.03  # roles are dealt at random and seating has no order: any seat edge is the model's
DECK_NAMES = {"T&K": "Traitors and Kings", "G&T": "Guards and Thieves"}

SCENARIO = '''title = "DETHRONED: {title} ({players} players)"
description = """{description}"""
game = "dethroned"
players = {players}
seed = {seed}
games = {games}
# every seat plays the same policy, so rotating policies over seats would replay identical games:
# a deal fixes the role assignment and the decks, and each game is its own deal
rotate = false
seats = "heuristic"
roles = [{roles}]

[options]
symbols = "default"

[[claims]]
id = "role_wins_half"
text = "Each role has approximately a 50% chance of winning (+/- 10 points)"
quantity = "win_rate"
by = "role"
target = {win_target}
tolerance = {win_tolerance}

[[claims]]
id = "assailants_half"
text = "Setups generally have half Assailant roles (companion app's symbols)"
quantity = "assailant_share"
target = {assailant_target}
tolerance = {assailant_tolerance}

[[claims]]
id = "assailants_half_art"
text = "Setups generally have half Assailant roles (printed card art's symbols)"
quantity = "assailant_share_art"
target = {assailant_target}
tolerance = {assailant_tolerance}

# a standing check of the model: roles are dealt to seats at random and the table has no seating
# order, so a seat that wins more often than the field points at a tie broken by seat index
[[claims]]
id = "no_seat_effect"
text = "No seat effect: each seat wins within {seat_points} points of the field's win rate"
quantity = "seat_edge"
by = "seat"
target = 0.0
tolerance = {seat_tolerance}
'''


def write_scenarios(folder: Path = SCENARIO_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, (title, roles) in SUGGESTED_SETUPS.items():
        deck = DECK_NAMES[next(s.deck for s in BUILTIN_ROLES if s.name == roles[0])]
        text = SCENARIO.format(
            title=title, players=len(roles), seed=SEED, games=GAMES, roles=", ".join(f'"{r}"' for r in roles),
            description=f"Suggested setup of the {deck} deck: {', '.join(roles)}. Heuristic policies at every seat.",
            win_target=WIN_TARGET, win_tolerance=WIN_TOLERANCE, assailant_target=ASSAILANT_TARGET,
            assailant_tolerance=ASSAILANT_TOLERANCE, seat_tolerance=SEAT_TOLERANCE,
            seat_points=round(100 * SEAT_TOLERANCE))
        path = folder / f"{stem}.toml"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_scenarios():
        print(f"wrote {written_path}")
