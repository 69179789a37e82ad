"""The Game: a spec, validated options and the action codec; it makes states."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from .actions import Action, ActionSpace
from .errors import IllegalAction, ReplayError
from .events import Event
from .options import GameOptions
from .rng import Rng
from .spec import GameSpec
from .state import State

S = TypeVar("S", bound=State)


class Game(ABC, Generic[S]):
    spec: ClassVar[GameSpec]
    Options: ClassVar[type[GameOptions]]
    #: a bound on the number of decisions in one game, used by tests to catch loops
    max_length: int = 100_000

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        self.players: int = options.players
        self.actions: ActionSpace[Any] = self._build_action_space()

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.to_json().items() if k != "deck")
        return f"cardtable.make({self.spec.name!r}, {opts})"

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action_text(self, action: Action) -> str:
        return action.text

    def parse_action(self, text: str) -> Action:
        action: Action = self.actions.parse(text)
        return action

    def retired(self, state: S, action: Action) -> bool:
        """Whether `action`, read from a replay and not legal now, answered a question an earlier
        version asked where this one asks none (JUNO's `pass` after drawing a card that cannot be
        played): replays pass over it, so games saved before the change still load and replay."""
        return False

    def replay_step(self, state: S, text: str) -> None:
        """Apply one recorded action (passing over a retired one: `retired`)."""
        action = self.parse_action(text)
        if self.retired(state, action) and action not in state.legal_actions():
            return
        state.apply(action)

    def action_index(self, action: Action) -> int:
        if not self.actions.owns(action):  # a text, an int, another game's action
            raise IllegalAction(f"action_index takes an action of this {self.spec.title} game; got {action!r}")
        return action.index

    def action_from_index(self, index: int) -> Action:
        action: Action = self.actions.from_index(index)
        return action

    def coerce_action(self, action: object) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, int) and not isinstance(action, bool):
            return self.action_from_index(action)
        raise IllegalAction(f"an action must be an action of {self.spec.title}, its text or its index; got {action!r}")

    @abstractmethod
    def _build_action_space(self) -> ActionSpace[Any]: ...

    @abstractmethod
    def new_state(self, seed: int = 0, record_events: bool = True) -> S: ...

    @abstractmethod
    def _empty_state(self) -> S:
        """A state object with no fields set, for `state_from_json`."""

    def state_from_json(self, data: dict[str, Any]) -> S:
        if not isinstance(data, dict) or data.get("game") != self.spec.name:
            got = data.get("game") if isinstance(data, dict) else type(data).__name__
            raise ReplayError(f"this is not a saved {self.spec.title} state (game: {got!r})")
        if data.get("options") != self.options.to_json():
            raise ReplayError(
                f"the saved state was made with options {data.get('options')}, this game has {self.options.to_json()}"
            )
        state = self._empty_state()
        try:
            state._init_base(self, data["seed"], Rng(0), data["events"] is not None)
            state.rng.state = int(data["rng"])
            state.history = [int(i) for i in data["history"]]
            state.is_over = bool(data["is_over"])
            if data["events"] is not None:
                state.events = [Event.from_json(e) for e in data["events"]]
            state._restore(data["state"], data["pending"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ReplayError(f"saved {self.spec.title} state is damaged: {exc!r}") from None
        return state
