"""The "heuristic" agent: one name for every game, dispatching on the game's name to its
policy in `cardtable/games/<game>/heuristic.py`. `epsilon` mixes in uniform random moves (the "easy" level)."""

from __future__ import annotations

from typing import ClassVar

from ..core.actions import Action
from ..core.rng import Rng
from ..core.state import State
from ..core.views import Need
from .heuristics import policy_for


class HeuristicAgent:
    name = "heuristic"
    #: a game's policy reads the seat's cards and the public facts from a state
    needs: ClassVar[Need] = Need.DETERMINIZED

    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None:
        self.rng = Rng(seed)
        self.epsilon = float(epsilon)

    def act(self, view: State) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return legal[self.rng.below(len(legal))]
        return policy_for(view.game.spec.name)(view, self.rng)
