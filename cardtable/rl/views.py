"""What the PettingZoo and Gymnasium environments share: the observation space and the text rendering."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from ..core.game import Game
from ..core.state import State
from .encoders import Encoding

RENDER_FPS = 1  # text renderings; `render_fps` is what PettingZoo's and Gymnasium's tools read


def observation_space(encoding: Encoding) -> gymnasium.spaces.Dict:
    """`{"observation": Box(0, encoding.high), "action_mask": Box(0, 1, int8)}`: the bound of each
    value is the largest its piece can hold, or 1 when normalized or in planes."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, encoding.high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (encoding.encoder.game.num_actions,), dtype=np.int8),
        }
    )


def render_text(game: Game[Any], state: State, seat: int | None = None) -> str:
    """What `seat` (None: a spectator) sees, one line per observation field."""
    obs = state.observation(seat)
    return f"{game!r}\n" + "\n".join(f"{k}: {v}" for k, v in obs.items())
