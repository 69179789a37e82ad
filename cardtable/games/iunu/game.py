"""IUNU: the spec, the options and the state factory."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ...core.rng import Rng
from ...core.spec import GameSpec
from .actions import IunuAction, Lookup, build_space
from .cards import CardSet
from .options import VARIANTS, IunuOptions
from .state import IunuState


class Iunu(Game[IunuState]):
    spec = GameSpec(
        name="iunu",
        title="IUNU",
        min_players=2,
        max_players=4,
        variants=VARIANTS,
        rules="iunu.txt",
        summary="Draft Citizens from the Forum, use the dice, feed them bread, win majorities and the Afterlife.",
        heuristic="heuristic",
        encoder="encoder:IunuEncoder",
        text="text",
        web_view="iunu.js",
    )
    Options = IunuOptions
    max_length = 5_000

    def __init__(self, options: IunuOptions) -> None:  # type: ignore[override]
        self.cards: CardSet = options.card_set()
        self.afterlife_names: tuple[str, ...] = tuple(a.name for a in self.cards.afterlife)
        super().__init__(options)
        self.options: IunuOptions = options
        self.variant = options.variant
        self.heliopolis = options.variant == "memphis-and-thebes"
        self.citizen_vp = tuple(c.citizen_vp for c in self.cards.citizens)
        self.bread_vp = tuple(c.bread_vp for c in self.cards.citizens)
        self.majority_vp = tuple(c.majority_vp for c in self.cards.citizens)
        self.lookup = Lookup(self.actions)

    def _build_action_space(self) -> Any:
        return build_space(self.afterlife_names)

    def _empty_state(self) -> IunuState:
        return IunuState.__new__(IunuState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> IunuState:
        state = IunuState.__new__(IunuState)
        state._init_base(self, seed, Rng(seed), record_events)
        state._setup()
        return state

    def parse_action(self, text: str) -> IunuAction:
        return self.actions.parse(text)  # type: ignore[no-any-return]
