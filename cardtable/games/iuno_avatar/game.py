"""Iuno Avatar: the spec, the options and the state factory."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ...core.rng import Rng
from ...core.spec import GameSpec
from .actions import AvatarAction, space_for
from .cards import Card
from .facts import CardFacts
from .options import AvatarOptions
from .state import AvatarState


class IunoAvatar(Game[AvatarState]):
    spec = GameSpec(
        name="iuno_avatar",
        title="Iuno Avatar",
        min_players=2,
        max_players=3,
        rules="iuno-avatar.txt",
        summary="Roll dice to summon figures and cast spells, pay in gems, chain pictogram effects; "
        "empty your Heaven first.",
        heuristic="heuristic",
        encoder="encoder:AvatarEncoder",
        text="text",
        web_view="iuno_avatar.js",
        effects=("sequence",),
    )
    Options = AvatarOptions
    max_length = 100_000

    def __init__(self, options: AvatarOptions) -> None:  # type: ignore[override]
        self.deck = options.card_set()
        self.cards: tuple[Card, ...] = self.deck.cards
        self.space = space_for(self.deck)
        #: per card, what the rules read of it at every activity (facts.py), as plain fields
        self.facts: tuple[CardFacts, ...] = tuple(CardFacts(c) for c in self.cards)
        self.texts: tuple[str, ...] = tuple(c.text() for c in self.cards)  # generated once, shown often
        super().__init__(options)
        self.options: AvatarOptions = options

    def _build_action_space(self) -> Any:
        return self.space.space

    def _empty_state(self) -> AvatarState:
        return AvatarState.__new__(AvatarState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> AvatarState:
        state = AvatarState.__new__(AvatarState)
        state._init_base(self, seed, Rng(seed), record_events)
        state._setup()
        return state

    def parse_action(self, text: str) -> AvatarAction:
        return self.space.space.parse(text)
