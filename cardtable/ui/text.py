"""Terminal rendering shared by every game.

A game's spec may name a `text` module of its package with `render(observation) -> RenderableType`
and `narrate(event_json, viewer, obs=None) -> str | None` (obs: the viewer's observation just after
the event, when the caller has it); a game without one is shown generically. The module may also
give `choices(observation, move_texts) -> [(index, label)]`: the order and labels in which the
terminal lists the moves (a player's name marked "you", a die with its face).
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from ..core.game import Game
from ..core.registry import game_part


def text_module(game: Game[Any]) -> ModuleType | None:
    module: ModuleType | None = game_part(game.spec.name, "text")
    return module


def render(game: Game[Any], obs: dict[str, Any]) -> RenderableType:
    mod = text_module(game)
    if mod is not None and hasattr(mod, "render"):
        return mod.render(obs)  # type: ignore[no-any-return]
    return Pretty(obs)


def narrate(game: Game[Any], event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    mod = text_module(game)
    if mod is not None and hasattr(mod, "narrate"):
        return mod.narrate(event, viewer, obs)  # type: ignore[no-any-return]
    data = {k: v for k, v in event.items() if k not in ("kind", "to")}
    return f"{event['kind']}: {json.dumps(data)}"


def choices(game: Game[Any], obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The moves as the terminal lists them: (index into `texts`, label), in the game's order."""
    mod = text_module(game)
    if mod is not None and hasattr(mod, "choices"):
        return list(mod.choices(obs, texts))
    return list(enumerate(texts))
