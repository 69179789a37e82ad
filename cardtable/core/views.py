"""What an agent is handed when its seat must decide, built from the true state by what it needs.

An agent declares what it reads (`needs`, a `Need`) and `view_for` is the one function that turns
the true state into what the deciding seat's agent is handed. Every runner of agents goes through
it: `cardtable.play` (and so the arena, the simulator and the designers' lab), the server's bots,
the terminal's bots and the RL opponents. Whatever the need, no agent is handed a hidden card:

- `Need.LEGAL_ACTIONS`: a `Turn`, the game, the deciding seat and its legal actions. A seat's legal
  actions are worked out from what that seat knows (the conformance suite checks that they are the
  same in its determinized copies), so they reveal nothing hidden.
- `Need.OBSERVATION`: the same, and `observation(seat)`, exactly what the seat may know.
- `Need.DETERMINIZED`: `state.determinize(seat, rng)`, a whole state in which the cards the seat
  cannot see are dealt anew: what a search or a policy that reads a state needs, and what an agent
  that declares nothing is handed.

A determinized copy is a clone and a new deal of the hidden cards (about 10 us in JUNO, 25 us in Ivion),
paid at every decision; an agent that reads only the legal actions no longer pays it (issue 37:
70% of the time of random JUNO games through `cardtable.play` went into copies no agent read).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Protocol

from .errors import CardtableError
from .rng import Rng

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game
    from .state import State


class Need(Enum):
    """What an agent reads at its decision (`agent.needs`)."""

    LEGAL_ACTIONS = "legal actions"
    OBSERVATION = "observation"
    DETERMINIZED = "determinized state"


class Legal(Protocol):
    """Anything an agent that needs only the legal actions may be handed: a `Turn` or a state."""

    def legal_actions(self) -> list[Action]: ...


class Turn:
    """What an agent that reads no state is handed: the game, the deciding seat (`current_player`,
    named as on a state, so an agent reads either) and its legal actions (a copy: the agent may
    change its list) and, when the agent needs it, the seat's observation."""

    __slots__ = ("game", "current_player", "_legal", "_observation")

    def __init__(self, game: Game[Any], seat: int, legal: list[Action], observation: dict[str, Any] | None) -> None:
        self.game = game
        self.current_player = seat
        self._legal = legal
        self._observation = observation

    def legal_actions(self) -> list[Action]:
        return self._legal

    def observation(self, seat: int | None) -> dict[str, Any]:
        """The deciding seat's observation, as `State.observation` gives it, to an agent that needs it."""
        if self._observation is None:
            raise CardtableError(
                "this agent was handed its legal actions only (its `needs` is Need.LEGAL_ACTIONS); "
                "an agent that reads the observation declares `needs = Need.OBSERVATION`"
            )
        if seat != self.current_player:
            raise CardtableError(f"seat {self.current_player} decides: its agent sees its own observation, not seat {seat}'s")
        return self._observation


# The members as module globals: reading an enum member off its class goes through a descriptor in
# Python 3.11 (200 ns, as much as the rest of a random agent's view), a global is a dict lookup.
_LEGAL_ACTIONS: Final = Need.LEGAL_ACTIONS
_OBSERVATION: Final = Need.OBSERVATION
_DETERMINIZED: Final = Need.DETERMINIZED


def need_of(agent: object) -> Need:
    """What `agent` declares it reads; an agent that declares nothing is handed a determinized state,
    as every agent was before agents said what they need."""
    need = getattr(agent, "needs", _DETERMINIZED)
    if not isinstance(need, Need):
        raise CardtableError(f"{type(agent).__name__}.needs must be a cardtable Need ({', '.join(n.name for n in Need)}), "
                             f"got {need!r}")
    return need


def view_for(need: Need, state: State, seat: int, rng: Callable[[], Rng]) -> State | Turn:
    """What the agent of `seat`, which must decide in `state`, is handed for its `need`.
    `rng()` gives the generator of a determinized copy; it is called only when one is made."""
    if need is _LEGAL_ACTIONS:
        return Turn(state.game, seat, state.legal_actions().copy(), None)
    if need is _OBSERVATION:
        return Turn(state.game, seat, state.legal_actions().copy(), state.observation(seat))
    return state.determinize(seat, rng())


class Views:
    """The views of one game's decisions (`cardtable.play`, the terminal's bots, the RL opponents).

    The determinized copy at the game's k-th decision is dealt from the k-th spawn of `stream`,
    counted over every decision, also those whose agent needed no copy: what one seat's agent
    needs never changes what another seat's agent is handed (the same seed gives the same games
    as when every agent was handed a copy)."""

    __slots__ = ("_stream", "_decisions", "_dealt", "_rng")

    def __init__(self, stream: Rng) -> None:
        self._stream = stream
        self._decisions = 0  # decisions viewed so far
        self._dealt = 0      # spawns taken from the stream so far
        self._rng = self._next_rng

    def of(self, need: Need, state: State, seat: int) -> State | Turn:
        """What the agent of `seat`, with `need`, is handed at the next decision of the game."""
        self._decisions += 1
        return view_for(need, state, seat, self._rng)

    def _next_rng(self) -> Rng:
        stream = self._stream
        for _ in range(self._decisions - 1 - self._dealt):  # the draws of the decisions that made no copy
            stream.next64()
        self._dealt = self._decisions
        return stream.spawn()
