"""The uniform random agent: a baseline and the default playout policy."""

from __future__ import annotations

from typing import ClassVar

from ..core.actions import Action
from ..core.rng import Rng
from ..core.views import Legal, Need


class RandomAgent:
    name = "random"
    #: it reads nothing but the legal actions, so it is handed no copy of the state
    needs: ClassVar[Need] = Need.LEGAL_ACTIONS

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, view: Legal) -> Action:
        legal = view.legal_actions()
        return legal[self.rng.below(len(legal))]
