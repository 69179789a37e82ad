"""`cardtable.play`: a whole game between agents, each handed only what its seat may know."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .errors import CardtableError
from .game import Game
from .rng import Rng
from .state import State
from .views import Views, need_of


class Agent(Protocol):
    def act(self, view: Any) -> Any: ...


def play(
    game: Game[Any],
    agents: Sequence[Agent],
    seed: int = 0,
    record_events: bool = True,
) -> State:
    """Play one game from `seed`, seats in order; returns the final (true) state.

    Each agent is handed what it declares it needs (`cardtable.core.views`): its legal actions,
    its observation or `state.determinize(seat, rng)`, never the true state, so no bot can read
    cards its seat cannot see (DESIGN.md, "Agents")."""
    if len(agents) != game.players:
        raise CardtableError(f"{game.spec.title} with {game.players} players needs {game.players} agents, got {len(agents)}")
    state: State = game.new_state(seed, record_events=record_events)
    needs = [need_of(a) for a in agents]
    views = Views(Rng(seed).spawn())  # a stream of its own: bots never share the game's RNG
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(views.of(needs[seat], state, seat)))
    return state
