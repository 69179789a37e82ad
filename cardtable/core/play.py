"""`cardtable.play`: a whole game between agents, each seeing only what its seat may know."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .errors import CardtableError
from .game import Game
from .rng import Rng
from .state import State


class Agent(Protocol):
    def act(self, view: State) -> Any: ...


def play(
    game: Game[Any],
    agents: Sequence[Agent],
    seed: int = 0,
    record_events: bool = True,
    on_step: Callable[[State, Any], None] | None = None,
) -> State:
    """Play one game from `seed`, seats in order; returns the final (true) state.

    Agents are handed `state.determinize(seat, rng)` — never the true state — so no bot can
    read cards its seat cannot see (DESIGN.md, "Agents")."""
    if len(agents) != game.players:
        raise CardtableError(f"{game.spec.title} with {game.players} players needs {game.players} agents, got {len(agents)}")
    state: State = game.new_state(seed, record_events=record_events)
    views = Rng(seed).spawn()  # a stream of its own: bots never share the game's RNG
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.determinize(seat, views.spawn())
        action = agents[seat].act(view)
        state.apply(action)
        if on_step is not None:
            on_step(state, action)
    return state
