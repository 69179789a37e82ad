"""Replays: `{game, options, seed, actions}`. Replaying reproduces the game exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CardtableError, ReplayError
from .state import State


@dataclass
class Replay:
    game: str
    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "seed": self.seed, "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: Any) -> Replay:
        if not isinstance(data, dict):
            raise ReplayError("a replay is a JSON object with game, options, seed and actions")
        missing = [k for k in ("game", "options", "seed", "actions") if k not in data]
        if missing:
            raise ReplayError(f"the replay lacks {', '.join(missing)}")
        if not isinstance(data["seed"], int) or not isinstance(data["actions"], list):
            raise ReplayError("the replay's seed must be an integer and its actions a list of action texts")
        if not isinstance(data["options"], dict):
            raise ReplayError("the replay's options must be an object")
        return cls(str(data["game"]), dict(data["options"]), data["seed"], [str(a) for a in data["actions"]])

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise ReplayError(f"cannot read replay {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{path} is not JSON: {exc}") from None
        return cls.from_json(data)

    def states(self, record_events: bool = True) -> list[State]:
        """Every state from the start to the end (the start first)."""
        out = [self.start(record_events)]
        for step, text in enumerate(self.actions, 1):
            state = out[-1].clone()
            self._apply(state, step, text)
            out.append(state)
        return out

    def start(self, record_events: bool = True) -> State:
        from .registry import make

        game = make(self.game, **self.options)
        state: State = game.new_state(self.seed, record_events=record_events)
        return state

    def run(self, record_events: bool = True) -> State:
        """The final state."""
        state = self.start(record_events)
        for step, text in enumerate(self.actions, 1):
            self._apply(state, step, text)
        return state

    @staticmethod
    def _apply(state: State, step: int, text: str) -> None:
        try:
            state.game.replay_step(state, text)
        except CardtableError as exc:
            raise ReplayError(f"replay step {step} ({text!r}) cannot be applied: {exc}") from None
