"""Shared pieces of the RL tests: the configurations each game is tested in, random play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cardtable
from cardtable.core.rng import Rng
from cardtable.core.state import State

# game -> option sets the RL tests run (short single rounds; options go to cardtable.make)
RL_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "juno": [
        {"players": 2, "match": False},
        {"players": 3, "variant": "seven-o", "wild_draw_four": "challenge", "match": False},
        {"players": 4, "variant": "serious", "match": False},
    ],
    "iunu": [
        {"players": 2},
        {"players": 2, "variant": "rise-of-aten"},
        {"players": 2, "variant": "memphis-and-thebes"},
        {"players": 4},
    ],
    "zun": [
        {"players": 2},
        {"players": 4, "teams": 2},
        {"players": 5},
    ],
    "iuno_avatar": [
        {"players": 2, "turn_limit": 40},
        {"players": 3, "turn_limit": 40},
    ],
    "ivion": [
        {"players": 2},
        {"players": 2, "board": 5, "turn_limit": 60},
    ],
}


def config_ids() -> list[tuple[str, dict[str, Any]]]:
    return [(game, options) for game, sets in RL_CONFIGS.items() for options in sets]


def label(game: str, options: dict[str, Any]) -> str:
    return game + "-" + "-".join(f"{k}={v}" for k, v in options.items())


def random_states(game: str, options: dict[str, Any], seed: int, limit: int = 5000) -> Iterator[State]:
    """Every state of one random game (the same object, advanced in place), then the final one."""
    state = cardtable.make(game, **options).new_state(seed, record_events=False)
    rng = Rng(seed)
    steps = 0
    while not state.is_over and steps < limit:
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        steps += 1
    yield state
