"""The game registry: `cardtable.make(name, **options)` and `cardtable.games()`.

Games are registered by import path and loaded on first use, so `import cardtable`
stays fast and a broken game cannot break the others.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGame
from .game import Game
from .options import validate_options

# name -> "module:Class". A new game adds one line here.
_GAMES: dict[str, str] = {
    "juno": "cardtable.games.juno.game:Juno",
    "zun": "cardtable.games.zun.game:Zun",
    "iunu": "cardtable.games.iunu.game:Iunu",
}
_LOADED: dict[str, type[Game[Any]]] = {}


def register(name: str, target: str | type[Game[Any]]) -> None:
    """Register a game class (or its "module:Class" path) under `name`."""
    if isinstance(target, str):
        _GAMES[name] = target
        _LOADED.pop(name, None)
    else:
        _GAMES[name] = f"{target.__module__}:{target.__qualname__}"
        _LOADED[name] = target


def games() -> list[str]:
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    cls = _LOADED.get(name)
    if cls is None:
        target = _GAMES.get(name)
        if target is None:
            raise UnknownGame(f"no game named {name!r}; known games: {', '.join(games())}")
        module, _, attr = target.partition(":")
        cls = getattr(importlib.import_module(module), attr)
        _LOADED[name] = cls
    return cls


def make(name: str, **options: Any) -> Game[Any]:
    cls = game_class(name)
    return cls(validate_options(name, cls.Options, options))
