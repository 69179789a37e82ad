"""Terminal rendering shared by every game.

A game's spec may name a `text` module of its package with `render(observation) -> RenderableType`
and `narrate(event_json, viewer) -> str | None`; a game without one is shown generically.
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


def narrate(game: Game[Any], event: dict[str, Any], viewer: int | None) -> str | None:
    mod = text_module(game)
    if mod is not None and hasattr(mod, "narrate"):
        return mod.narrate(event, viewer)  # type: ignore[no-any-return]
    data = {k: v for k, v in event.items() if k not in ("kind", "to")}
    return f"{event['kind']}: {json.dumps(data)}"
