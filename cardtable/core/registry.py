"""The game registry: `cardtable.make(name, **options)` and `cardtable.games()`.

Games are registered by import path and loaded on first use, so `import cardtable`
stays fast and a broken game cannot break the others. A game's other parts (heuristic bot,
RL encoder, terminal text, deck builder) are named by its spec and found here, and only here
(`game_part`, or `part_of` for a game class).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .errors import CardtableError, UnknownGame
from .game import Game
from .options import validate_options
from .spec import OPTIONAL, PARTS

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
    """The part `part` of game `name` (`spec.PARTS`: "heuristic", "encoder", "text", "decks") as
    its spec names it: a module, or for "module:Attribute" that attribute; None when the game
    has no such part. The one lookup of a game's parts (agents, RL, terminal, server)."""
    return part_of(game_class(name), part)


_PARTS: dict[tuple[type[Game[Any]], str], Any] = {}


def part_of(cls: type[Game[Any]], part: str) -> Any:
    """`game_part` for a game class (registered or not): loaded once, and checked to define what
    its part must (`spec.PARTS`), so a spec that names a wrong module fails here, by name."""
    key = (cls, part)
    if key in _PARTS:
        return _PARTS[key]
    if part not in PARTS:
        raise ValueError(f"a game has no part {part!r}; its spec names: {', '.join(PARTS)}")
    ref: str = getattr(cls.spec, part)
    found: Any = None
    if ref:
        module_name, _, attr = ref.partition(":")
        package = cls.__module__.rsplit(".", 1)[0]
        module: ModuleType = importlib.import_module(f"{package}.{module_name}")
        found = getattr(module, attr) if attr else module
        missing = [f for f in PARTS[part] if not callable(getattr(found, f, None))]
        if missing:
            raise CardtableError(
                f"{cls.spec.title}'s spec names {part}={ref!r}, but {package}.{module_name} does not "
                f"define {', '.join(missing)} (a {part} part defines {', '.join(PARTS[part])})"
            )
        wrong = [f for f in OPTIONAL[part] if hasattr(found, f) and not callable(getattr(found, f))]
        if wrong:
            raise CardtableError(
                f"{cls.spec.title}'s {part} part {package}.{module_name} defines {', '.join(wrong)}, "
                f"which must be functions (a {part} part may define {', '.join(OPTIONAL[part])})"
            )
    _PARTS[key] = found
    return found


def part_member(cls: type[Game[Any]], part: str, name: str) -> Any:
    """What a game's part defines by `name`, required (`spec.PARTS`) or optional (`spec.OPTIONAL`):
    None when the game has no such part or its part leaves the optional `name` out. The one way a
    front end finds a part's functions (the terminal's move labels, the card catalogue)."""
    if name not in PARTS.get(part, ()) + OPTIONAL.get(part, ()):
        raise ValueError(f"a {part} part defines no {name!r}; it defines {', '.join(PARTS.get(part, ()) + OPTIONAL.get(part, ()))}")
    return getattr(part_of(cls, part), name, None)


def make(name: str, **options: Any) -> Game[Any]:
    cls = game_class(name)
    return cls(validate_options(name, cls.Options, options))
