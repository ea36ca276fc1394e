"""Studies: what is measured with the engine and the games, a layer above both (a game imports
only the engine, never a study). General ones: ladder (policy matrices, skill ratings), robust
(claims under a policy family), restrict (restricted play), sweep (what-if cells), tune (a rule
parameter to a target). A game's own: army_choice (The Imposter Kings), restricted_roles
(DETHRONED), arcade_values and hand_start (Throne Arcade)."""

from __future__ import annotations

from balance.engine.game import Analysis


def analyses(results) -> list[Analysis]:
    """The analyses beside the claims that the results' scenario asks for with a game's table (see
    balance.engine.game.Analysis): The Imposter Kings' ``[army_choice]``, Throne Arcade's
    ``[hand_start]``."""
    found = []
    choice = results.setup.extra.get("army_choice")
    if choice:
        from balance.studies.army_choice import army_choice  # the game's package only when asked for

        found.append(army_choice(results, choice["draws"]))
    if results.setup.extra.get("hand_start"):
        from balance.studies.hand_start import hand_start

        found.append(hand_start(results))
    return found
