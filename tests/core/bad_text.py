"""A text part for tests/core/test_registry.py: its `points` is a list, not the function a text
part's optional `points(observation)` must be."""

from __future__ import annotations

from typing import Any

points = [3, 1]


def render(obs: dict[str, Any], game: Any = None) -> str:
    return str(obs)


def narrate(event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    return None
