"""Reinforcement-learning interfaces (docs/rl.md).

- `pettingzoo_env(game, **options)`: a PettingZoo AEC environment, every seat an agent (also
  `cardtable.rl.pettingzoo.<game>_v0.env()`); `parallel_env(game, **options)` its ParallelEnv form.
- `gym_env(game, seat=0, opponents=[...], **options)`: a Gymnasium environment for one seat
  against cardtable bots.
- `cardtable.rl.openspiel.register_all()`: every game as a pyspiel game ("cardtable_<name>").
- `cardtable.rl.vector.VectorGame(game, n)`: n games stepped together, numpy batches (self-play).
- `encoders`: the per-game observation encodings and action masks they all use.

PettingZoo, Gymnasium and OpenSpiel are optional (`pip install cardtable[rl]`); they are
imported only when an environment is made, except that importing this package registers the
Gymnasium ids (`gymnasium.make("cardtable/Juno-v0")`) when Gymnasium is installed.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any, Literal

from .encoders import Encoder, action_mask, encoder_for, has_encoder, register_encoder

if TYPE_CHECKING:
    from ..core.game import Game
    from .single import CardtableGym


def pettingzoo_env(game: str | Game[Any], **options: Any) -> Any:
    """A PettingZoo AEC environment in PettingZoo's `OrderEnforcingWrapper` (`env.unwrapped` is a
    `CardtableAEC`); options go to `cardtable.make` over the research defaults (2 players, one
    round), plus `illegal_action`, `max_decisions` or `max_cycles`, `normalize` and
    `render_mode`. Also `cardtable.rl.pettingzoo.<game>_v0.env(**options)`."""
    from .aec import pettingzoo_env as make

    return make(game, **options)


def parallel_env(game: str | Game[Any], **options: Any) -> Any:
    """A PettingZoo ParallelEnv: one decision per step, the deciding agent's action applied and the
    others' ignored (PettingZoo's convention for turn-based games); options as `pettingzoo_env`.
    Also `cardtable.rl.pettingzoo.<game>_v0.parallel_env(**options)`."""
    from .parallel import parallel_env as make

    return make(game, **options)


def gym_env(
    game: str | Game[Any], seat: int | Literal["random"] = 0, opponents: Any = None, **options: Any
) -> CardtableGym:
    """A Gymnasium environment for `seat` (or "random": drawn at every reset) against `opponents`
    (agent names or agents), over the research defaults (2 players, one round). Registered ids:
    `gymnasium.make("cardtable/Juno-v0")`."""
    from .single import gym_env as make

    return make(game, seat=seat, opponents=opponents, **options)


if importlib.util.find_spec("gymnasium") is not None:
    from .registration import register_envs

    register_envs()  # gymnasium.make("cardtable/Juno-v0"), one id per game with an encoder

__all__ = [
    "Encoder", "action_mask", "encoder_for", "gym_env", "has_encoder", "parallel_env", "pettingzoo_env", "register_encoder",
]
