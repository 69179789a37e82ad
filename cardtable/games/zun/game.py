"""Runes of Zun: the spec, the options and the state factory."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ...core.rng import Rng
from ...core.spec import GameSpec
from .actions import ZunAction, space_for
from .options import ZunOptions
from .state import ZunState


class Zun(Game[ZunState]):
    spec = GameSpec(
        name="zun",
        title="Runes of Zun",
        min_players=2,
        max_players=8,
        rules="runes-of-zun.txt",
        summary="Duel with runes: Actions, Reactions and Modifiers; reduce every opponent to 0 HP. Teams or free-for-all.",
        heuristic="heuristic",
        encoder="encoder:ZunEncoder",
        text="text",
        web_view="zun.js",
        effects=("sequence", "stack"),
    )
    Options = ZunOptions
    max_length = 200_000

    def __init__(self, options: ZunOptions) -> None:  # type: ignore[override]
        self.rune_set = options.rune_set()
        self.runes = self.rune_set.runes  # read at almost every step of play
        self.kinds = tuple(r.kind for r in self.runes)  # each rune's kind, as often (its legal actions)
        self.space = space_for(self.rune_set)
        super().__init__(options)
        self.options: ZunOptions = options
        self.counts = [c * options.deck_sets() for c in self.rune_set.counts()]
        self.team_of = [options.team_of(s) for s in range(options.players)]

    def _build_action_space(self) -> Any:
        return self.space.space

    def _empty_state(self) -> ZunState:
        return ZunState.__new__(ZunState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> ZunState:
        state = ZunState.__new__(ZunState)
        state._init_base(self, seed, Rng(seed), record_events)
        state._setup()
        return state

    def parse_action(self, text: str) -> ZunAction:
        return self.space.space.parse(text)

    def retired(self, state: ZunState, action: Any) -> bool:
        """Before 2026-11-23 the Recovery Phase asked a player with an empty hand to be "done
        discarding" (the only answer); replays saved then carry it."""
        return action is self.space.done_discarding
