"""Ivion: the spec, the options, the decks and the action space per pair of decks and board."""

from __future__ import annotations

import hashlib
from typing import Any

from ...core.actions import ActionSpace
from ...core.effects import EffectActions
from ...core.game import Game
from ...core.rng import Rng
from ...core.spec import GameSpec
from .actions import COPY_BASE, IvionAction, IvionSpace
from .card import Card
from .cards import library
from .decks import Deck, build, hero_from
from .options import IvionOptions
from .state import Fixed, IvionState


class Ivion(Game[IvionState]):
    spec = GameSpec(
        name="ivion",
        title="Ivion",
        min_players=2,
        max_players=2,
        rules="ivion.txt",
        summary="Two heroes on a tile board: actions, power and initiative; instants on a response stack; "
                "control, feats, terrain. Reduce the enemy hero to 0 HP.",
        heuristic="heuristic",
        encoder="encoder:IvionEncoder",
        text="text",
        decks="decks",
        web_view="ivion.js",
        effects=("sequence", "stack"),
    )
    Options = IvionOptions
    max_length = 50_000

    def __init__(self, options: IvionOptions) -> None:  # type: ignore[override]
        self.library = library(options.content, options.cards)
        self.size: int = options.board
        self.decks: list[Deck] = [build(hero_from(d, self.library), self.library) for d in options.decks]
        heroes = [d.hero for d in self.decks]
        #: each hero as every text names it (the log, the stack, the questions): its name, and when
        #: both seats play the same hero, the seat's number as people count it ("Lio Marrow (2)"),
        #: as two players who chose the same name are told apart (ui.names.seat_names)
        self.hero_names: list[str] = [h if heroes.count(h) == 1 else f"{h} ({s + 1})" for s, h in enumerate(heroes)]
        names: list[str] = []
        owner: list[int] = []
        self.start_ids: list[tuple[list[int], list[int], list[int]]] = []
        for seat, deck in enumerate(self.decks):
            parts = []
            for group in (deck.cards, deck.feats, deck.relics):
                parts.append(list(range(len(names), len(names) + len(group))))
                names += group
                owner += [seat] * len(group)
            self.start_ids.append((parts[0], parts[1], parts[2]))
        assert len(names) < COPY_BASE
        self.card_names = names
        self.owner_of = owner
        self.card_defs: list[Card] = [self.library.cards[n] for n in names]
        #: the same, as every state holds it (read at every decision)
        self.fixed = Fixed(names, self.card_defs, owner, self.size)
        plays = sorted({n for d in self.decks for n in d.cards})
        feats = sorted({n for d in self.decks for n in d.feats if not self.library.cards[n].passive})
        cantrips = sorted({n for d in self.decks for n in (*d.cards, *d.feats) if self.library.cards[n].cantrip})
        digest = hashlib.sha256(repr((names, options.board)).encode()).hexdigest()[:16]
        key = f"ivion:{digest}"
        #: one action space per pair of decks and board (its actions name their cards), shared by
        #: every game made with them
        self.space = space = ActionSpace.shared(
            key, lambda: IvionSpace(key, options.board, plays, cantrips, feats, plays, names))
        #: what the effect layer's decisions offer (`IvionState.effect_actions`): this space's answers
        self.answers = EffectActions(space.yes, space.no, space.first)
        super().__init__(options)
        self.options: IvionOptions = options

    def __reduce__(self) -> tuple[Any, ...]:
        # the library's effects hold their verbs' text functions (lambdas): a game pickles as the
        # options it was made from and is built anew (the action space is shared per pair of decks)
        return (_remake, (self.options.to_json(),))

    def _build_action_space(self) -> Any:
        return self.space.space

    def parse_action(self, text: str) -> IvionAction:
        return self.space.space.parse(text)

    def _empty_state(self) -> IvionState:
        return IvionState.__new__(IvionState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> IvionState:
        s = self._empty_state()
        s._init_base(self, seed, Rng(seed), record_events)
        s._setup()
        return s


def _remake(options: dict[str, Any]) -> Ivion:
    from ...core.registry import make

    game = make("ivion", **options)
    assert isinstance(game, Ivion)
    return game
