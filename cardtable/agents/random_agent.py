"""The uniform random agent: a baseline and the default playout policy."""

from __future__ import annotations

from ..core.actions import Action
from ..core.rng import Rng
from ..core.state import State


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, view: State) -> Action:
        legal = view.legal_actions()
        return legal[self.rng.below(len(legal))]
