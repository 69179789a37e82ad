"""Per-game heuristic policies: `cardtable/agents/heuristics/<game>.py`.

A game's module defines
- `choose(view, rng) -> Action`: the move a decent player makes at `view.current_player`'s
  decision, reading only what that seat may know (its own cards and public facts; `view` is a
  determinized copy, so other seats' cards in it are guesses);
- `evaluate(state) -> list[float]`: an estimate of `returns()` per seat for a state that is not
  over, used by ISMCTS to cut rollouts short.

Modules are imported on first use, like games, so a game without one gets a clear error.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from ..base import AgentError

# game name -> module; a game adds one line here when its heuristic lands.
_MODULES: dict[str, str] = {
    "juno": "cardtable.agents.heuristics.juno",
    "iunu": "cardtable.agents.heuristics.iunu",
    "zun": "cardtable.agents.heuristics.zun",
}
_LOADED: dict[str, ModuleType] = {}


def games() -> list[str]:
    return sorted(_MODULES)


def module_for(game: str) -> ModuleType:
    mod = _LOADED.get(game)
    if mod is None:
        path = _MODULES.get(game)
        if path is None:
            raise AgentError(
                f"there is no heuristic bot for {game!r} yet (heuristics exist for: {', '.join(games())}); "
                "use 'random' or 'ismcts' with rollout='random' and no cutoff"
            )
        mod = _LOADED[game] = importlib.import_module(path)
    return mod


def policy_for(game: str) -> Callable[[State, Rng], Action]:
    return module_for(game).choose  # type: ignore[no-any-return]


def evaluator_for(game: str) -> Callable[[State], list[float]]:
    mod = module_for(game)
    fn: Any = getattr(mod, "evaluate", None)
    if fn is None:
        raise AgentError(f"the {game!r} heuristic has no evaluation function, so ISMCTS cannot cut rollouts short")
    return fn  # type: ignore[no-any-return]
