"""Agents: `cardtable.agents.make(name, **params)`; each has `needs` (what it reads: `Need`) and
`act(view)`.

Names: "random"; "heuristic" (one name, a policy per game in `cardtable/games/<game>/heuristic.py`, named by its spec); "ismcts"
(information-set MCTS for any game). Difficulty names for people map to agents the same way in
every game (see `DIFFICULTY`). Every factory takes `seed: int`; an unknown or ill-typed
parameter raises AgentError naming the parameters the agent has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.views import Need
from .base import Agent, AgentError, check_params
from .heuristic_agent import HeuristicAgent
from .ismcts import IsmctsAgent
from .random_agent import RandomAgent

_FACTORIES: dict[str, Callable[..., Agent]] = {}

#: difficulty name -> (agent name, params); the same words in every game
DIFFICULTY: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("heuristic", {"epsilon": 0.5}),   # a decent player who blunders half the time
    "medium": ("heuristic", {}),
    "hard": ("ismcts", {"time_limit": 0.5, "rollout": "heuristic", "cutoff": 20}),
    # hard's search with four times the thinking, up to 2 s a move (issue 32); the ladder measures what it buys
    "expert": ("ismcts", {"time_limit": 2.0, "rollout": "heuristic", "cutoff": 20}),
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


def _heuristic(**params: Any) -> Agent:
    check_params("heuristic", params, {"seed": int, "epsilon": (int, float)})
    eps = params.get("epsilon", 0.0)
    if not 0 <= eps <= 1:
        raise AgentError(f"agent 'heuristic': epsilon is a probability between 0 and 1, got {eps}")
    return HeuristicAgent(**params)


def _ismcts(**params: Any) -> Agent:
    check_params(
        "ismcts",
        params,
        {
            "seed": int,
            "iterations": int,
            "time_limit": (int, float),
            "c": (int, float),
            "rollout": str,
            "cutoff": int,
            "bias": (int, float),
            "clock": str,
            "early_stop": bool,
            "root": str,
            "race": (int, float),
        },
    )
    return IsmctsAgent(**params)


register("random", _random)
register("heuristic", _heuristic)
register("ismcts", _ismcts)

__all__ = [
    "Agent", "AgentError", "DIFFICULTY", "HeuristicAgent", "IsmctsAgent", "Need", "RandomAgent", "make", "names",
    "register",
]
