"""Agents: `cardtable.agents.make(name, **params)`; each has `act(view)`.

Names: "random", and whatever modules register below. Difficulty names for people map to
agents the same way in every game (see `DIFFICULTY`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Agent, AgentError, check_params
from .random_agent import RandomAgent

_FACTORIES: dict[str, Callable[..., Agent]] = {}

#: difficulty name -> (agent name, params); the same words in every game
DIFFICULTY: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("random", {}),
}


def register(name: str, factory: Callable[..., Agent]) -> None:
    _FACTORIES[name] = factory


def names() -> list[str]:
    return sorted(_FACTORIES) + sorted(DIFFICULTY)


def make(name: str, **params: Any) -> Agent:
    if name in DIFFICULTY and name not in _FACTORIES:
        base, defaults = DIFFICULTY[name]
        return make(base, **{**defaults, **params})
    factory = _FACTORIES.get(name)
    if factory is None:
        raise AgentError(f"no agent named {name!r}; known agents: {', '.join(names())}")
    return factory(**params)


def _random(**params: Any) -> Agent:
    check_params("random", params, {"seed": int})
    return RandomAgent(**params)


register("random", _random)

__all__ = ["Agent", "AgentError", "DIFFICULTY", "RandomAgent", "make", "names", "register"]
