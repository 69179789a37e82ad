"""Gymnasium ids for every game with an encoder: `gymnasium.make("cardtable/Juno-v0")`.

`import cardtable.rl` runs `register_envs()` when Gymnasium is installed (Gymnasium's convention
for third-party environments: importing the package registers them). Each id makes
`cardtable.rl.single.CardtableGym` for its game with the research defaults
(`cardtable.rl.defaults`: 2 players, one round); keywords given to `gymnasium.make` or
`gymnasium.make_vec` go on top (`players=4`, `seat="random"`, `opponents=["heuristic"]`,
`normalize=True`, `encoding="planes"`, ...).
"""

from __future__ import annotations

import gymnasium

from ..core.registry import games
from .encoders import has_encoder

NAMESPACE = "cardtable"
VERSION = 0


def env_id(game: str) -> str:
    """The registered Gymnasium id of a game: `cardtable/Juno-v0`, `cardtable/IunoAvatar-v0`."""
    return f"{NAMESPACE}/{''.join(part.capitalize() for part in game.split('_'))}-v{VERSION}"


def register_envs() -> list[str]:
    """Register every game with an encoder with Gymnasium (idempotent); returns the ids."""
    ids = []
    for name in games():
        if not has_encoder(name):
            continue
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(
                id=ident,
                entry_point="cardtable.rl.single:CardtableGym",
                kwargs={"game": name},  # the environment applies the research defaults
                disable_env_checker=False,
            )
        ids.append(ident)
    return ids
