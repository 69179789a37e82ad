"""Terminal rendering shared by every game.

Each game package may provide a `text` module with `render(observation) -> RenderableType`
and `narrate(event_json, viewer) -> str | None`; a game without one is shown generically.
"""

from __future__ import annotations

import functools
import importlib
import json
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from ..core.game import Game


def text_module(game: Game[Any]) -> ModuleType | None:
    return _text_module(type(game).__module__.rsplit(".", 1)[0])


@functools.cache
def _text_module(package: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package}.text")
    except ModuleNotFoundError:
        return None


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
