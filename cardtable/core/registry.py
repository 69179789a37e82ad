"""The game registry: `cardtable.make(name, **options)` and `cardtable.games()`.

Games are registered by import path and loaded on first use, so `import cardtable`
stays fast and a broken game cannot break the others. A game's other parts (heuristic bot,
RL encoder, terminal text) are named by its spec and found here (`game_part`).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .errors import UnknownGame
from .game import Game
from .options import validate_options

# name -> "module:Class". A new game adds one line here.
_GAMES: dict[str, str] = {
    "juno": "cardtable.games.juno.game:Juno",
    "zun": "cardtable.games.zun.game:Zun",
    "iunu": "cardtable.games.iunu.game:Iunu",
    "iuno_avatar": "cardtable.games.iuno_avatar.game:IunoAvatar",
    "ivion": "cardtable.games.ivion.game:Ivion",
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


def game_part(name: str, part: str) -> Any:
    """The part `part` ("heuristic", "encoder", "text") of game `name` as its spec names it: a
    module, or for "module:Attribute" that attribute; None when the game has no such part."""
    cls = game_class(name)
    ref = getattr(cls.spec, part)
    if not ref:
        return None
    module_name, _, attr = ref.partition(":")
    module: ModuleType = importlib.import_module(f"{cls.__module__.rsplit('.', 1)[0]}.{module_name}")
    return getattr(module, attr) if attr else module


def make(name: str, **options: Any) -> Game[Any]:
    cls = game_class(name)
    return cls(validate_options(name, cls.Options, options))
