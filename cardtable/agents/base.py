"""What every agent is: `needs` says what it reads, `act(view)` returns a legal action of the view
it is handed.

Whoever runs an agent (arena, simulator, server, `cardtable.play`) hands it, for the seat that must
decide, what its `needs` asks for and nothing more (`cardtable.core.views.view_for`): its legal
actions (a `Turn`), its observation (a `Turn` with `observation(seat)`) or `state.determinize(seat,
rng)`; never the true state.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from ..core.actions import Action
from ..core.views import Need


class Agent(Protocol):
    name: str
    #: what the agent reads at its decisions, so that it is handed that and no more
    needs: ClassVar[Need]

    def act(self, view: Any) -> Action:
        """A legal action; `view` is what `needs` asks for (a `Turn` or a determinized state)."""


class AgentError(ValueError):
    """An unknown agent name or a bad parameter."""


def check_params(agent: str, params: dict[str, Any], allowed: dict[str, type | tuple[type, ...]]) -> None:
    for key, value in params.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise AgentError(f"agent {agent!r} has no parameter {key!r} (parameters: {known})")
        if not isinstance(value, allowed[key]) or isinstance(value, bool) and allowed[key] is not bool:
            raise AgentError(f"agent {agent!r}: parameter {key!r} must be {allowed[key]}, got {value!r}")
