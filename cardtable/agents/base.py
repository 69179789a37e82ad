"""What every agent is: `act(view)` returns a legal action of the view it is handed.

`view` is always `state.determinize(seat, rng)` for the seat that must decide: whoever runs
an agent (arena, simulator, server, `cardtable.play`) hands it that copy, never the true state.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..core.actions import Action
from ..core.state import State


class Agent(Protocol):
    name: str

    def act(self, view: State) -> Action: ...


class AgentError(ValueError):
    """An unknown agent name or a bad parameter."""


def check_params(agent: str, params: dict[str, Any], allowed: dict[str, type | tuple[type, ...]]) -> None:
    for key, value in params.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise AgentError(f"agent {agent!r} has no parameter {key!r} (parameters: {known})")
        if not isinstance(value, allowed[key]) or isinstance(value, bool) and allowed[key] is not bool:
            raise AgentError(f"agent {agent!r}: parameter {key!r} must be {allowed[key]}, got {value!r}")
