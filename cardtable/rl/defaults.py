"""What the research interfaces load when a game is named without options.

Researchers start from the smallest real game: 2 players (or the game's least number, if
higher) and one round, not a match (an option named `match` is set to False wherever a game
has one). Every interface uses these for a game named by a string: PettingZoo
(`pettingzoo_env("juno")`, `juno_v0.env()`), Gymnasium (`gym_env("juno")`,
`gymnasium.make("cardtable/Juno-v0")`), OpenSpiel (`pyspiel.load_game("cardtable_juno")`) and
the batched `cardtable.rl.vector`; every option can still be given on top.
"""

from __future__ import annotations

from typing import Any

import cardtable

from ..core.game import Game
from ..core.registry import game_class

RESEARCH_DEFAULTS: dict[str, Any] = {"players": 2, "match": False}


def research_options(name: str) -> dict[str, Any]:
    """The options the research interfaces give game `name` by default."""
    cls = game_class(name)
    fields = cls.Options.model_fields
    out: dict[str, Any] = {}
    for key, value in RESEARCH_DEFAULTS.items():
        if key == "players":
            out[key] = max(value, cls.spec.min_players)
        elif key in fields and isinstance(fields[key].default, type(value)):
            out[key] = value
    return out


def research_game(game: str | Game[Any], options: dict[str, Any]) -> Game[Any]:
    """The game an interface plays: named, it is made with the research defaults and `options` on
    top; given made, it is taken as it is (and options beside it are refused: they would be lost)."""
    if isinstance(game, str):
        return cardtable.make(game, **{**research_options(game), **options})
    if options:
        raise TypeError("pass options either to cardtable.make or here, not both")
    return game
