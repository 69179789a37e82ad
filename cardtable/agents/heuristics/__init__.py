"""Per-game heuristic policies, found through each game's registration (its spec's `heuristic`:
`cardtable/games/<game>/heuristic.py`).

A game's heuristic module defines
- `choose(view, rng) -> Action`: the move a decent player makes at `view.current_player`'s
  decision, reading only what that seat may know (its own cards and public facts; `view` is a
  determinized copy, so other seats' cards in it are guesses);
- `evaluate(state) -> list[float]`: an estimate of `returns()` per seat for a state that is not
  over, used by ISMCTS to cut rollouts short;
- optionally `SEARCH`: ISMCTS's defaults for this game (`root`, `race`, `bias`), which an agent's own
  parameters override.

Modules are imported on first use, like games, so a game without one gets a clear error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from ...core.actions import Action
from ...core.errors import UnknownGame
from ...core.registry import game_class, game_part
from ...core.registry import games as all_games
from ...core.rng import Rng
from ...core.state import State
from ..base import AgentError


def games() -> list[str]:
    """The games that have a heuristic bot."""
    return [g for g in all_games() if game_class(g).spec.heuristic]


def module_for(game: str) -> ModuleType:
    try:
        mod: ModuleType | None = game_part(game, "heuristic")
    except UnknownGame:
        mod = None
    if mod is None:
        raise AgentError(
            f"there is no heuristic bot for {game!r} yet (heuristics exist for: {', '.join(games())}); "
            "use 'random' or 'ismcts' with rollout='random' and no cutoff"
        )
    return mod


def policy_for(game: str) -> Callable[[State, Rng], Action]:
    return module_for(game).choose  # type: ignore[no-any-return]


def evaluator_for(game: str) -> Callable[[State], list[float]]:
    mod = module_for(game)
    fn: Any = getattr(mod, "evaluate", None)
    if fn is None:
        raise AgentError(f"the {game!r} heuristic has no evaluation function, so ISMCTS cannot cut rollouts short")
    return fn  # type: ignore[no-any-return]


@functools.cache
def search_settings(game: str) -> Mapping[str, Any]:
    """The search's defaults the game's heuristic module sets (`SEARCH`; none, or no heuristic: {})."""
    if game not in games():
        return {}
    return MappingProxyType(dict(getattr(module_for(game), "SEARCH", {})))
