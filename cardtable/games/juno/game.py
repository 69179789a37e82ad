"""JUNO: the spec, the options and the state factory."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ...core.rng import Rng
from ...core.spec import GameSpec
from .actions import PASS, SPACE, JunoAction
from .options import JunoOptions
from .state import JunoState


class Juno(Game[JunoState]):
    spec = GameSpec(
        name="juno",
        title="JUNO",
        min_players=2,
        max_players=10,
        variants=("classic", "seven-o", "serious"),
        rules="juno.txt",
        summary="Shed your hand by matching number, color or symbol; first to 500 points.",
        heuristic="heuristic",
        encoder="encoder:JunoEncoder",
        text="text",
        web_view="juno.js",
    )
    Options = JunoOptions
    max_length = 200_000

    def __init__(self, options: JunoOptions) -> None:  # type: ignore[override]
        super().__init__(options)
        self.options: JunoOptions = options
        self.seven_o = options.variant == "seven-o"
        self.serious = options.variant == "serious"
        self.challenge = options.wild_draw_four == "challenge"
        self.match = options.match
        self.target = options.target
        self.hand_size = options.cards_dealt()
        self.counts = options.card_counts()
        self.deck_size = sum(self.counts)

    def _build_action_space(self) -> Any:
        return SPACE

    def _empty_state(self) -> JunoState:
        return JunoState.__new__(JunoState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> JunoState:
        state = JunoState.__new__(JunoState)
        state._init_base(self, seed, Rng(seed), record_events)
        state._setup()
        return state

    def parse_action(self, text: str) -> JunoAction:
        return SPACE.parse(text)

    def retired(self, state: JunoState, action: Any) -> bool:
        """Before 2026-11-23 a drawn card that cannot be played was followed by a question whose
        only answer was `pass` (issue 21, item 8); replays saved then carry that `pass`."""
        return action is PASS
