"""The game registry. Each game is a package here; it is imported only when asked for."""

from __future__ import annotations

import importlib

from balance.engine.game import Game, SetupError

# name -> module that defines GAME (a balance.engine.game.Game instance)
REGISTRY = {
    "take_the_throne": "balance.games.take_the_throne.game",
    "imposter_kings": "balance.games.imposter_kings.game",
    "dethroned": "balance.games.dethroned.game",
    "throne_arcade": "balance.games.throne_arcade.game",
    "thron_der_luegen": "balance.games.thron_der_luegen.game",
}


def game_names() -> list[str]:
    return list(REGISTRY)


def get_game(name: str, key: str = "game") -> Game:
    if name not in REGISTRY:
        raise SetupError(key, f"unknown game '{name}' (known: {', '.join(REGISTRY)})")
    return importlib.import_module(REGISTRY[name]).GAME


def game_title_of(module: str) -> str | None:
    """The title of the game whose package holds ``module`` (None: no game's)."""
    for name, game_module in REGISTRY.items():
        if module.startswith(game_module.rpartition(".")[0] + "."):
            return get_game(name).title
    return None
