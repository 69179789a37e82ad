"""Ivion: the spec, the options, the decks and the per-game engines (effects, response stack)."""

from __future__ import annotations

import hashlib
from typing import Any

from ...core.effects import Chain, EffectActions, Effects, ResponseStack, StackRules
from ...core.game import Game
from ...core.rng import Rng
from ...core.spec import GameSpec
from ...core.zones import StateLayout
from .actions import COPY_BASE, IvionAction, IvionSpace
from .cards import Card, library
from .decisions import DECISIONS, priority_question, priority_refusal, respond, responses
from .decks import Deck, build, hero_from
from .options import IvionOptions
from .state import POOLS, IvionState, zones
from .verbs import VERBS

_ENGINES: dict[str, tuple[IvionSpace, Effects, ResponseStack, type[IvionState]]] = {}


def _engines(key: str, make_space: Any) -> tuple[IvionSpace, Effects, ResponseStack, type[IvionState]]:
    """One action space per pair of decks and board, with the effect layer's engines bound to it
    (their decisions offer this space's actions) and a state class whose layout lists them."""
    got = _ENGINES.get(key)
    if got is not None:
        return got
    space: IvionSpace = make_space()
    fx = Effects(VERBS, EffectActions(space.yes, space.no, space.first),
                 lambda s, e: s.abilities(e), lambda s, e, c: s.event_of(e, c), lambda s: s.turn_order(),
                 lambda s: s.go_on(), card_name=lambda s, c: s.source_name(c))
    stack = ResponseStack(StackRules(responses, respond, lambda s, i: s.still_legal(i), lambda s, i: s.resolve_item(i),
                                     lambda s, i: s.discard_item(i), lambda s, seat: s.pools[seat],
                                     lambda s, seat: 1 - seat, lambda s: s.go_on(),
                                     # the response window says which rule refuses an action
                                     # (rulebook "Playing Cards", Important)
                                     why_illegal=priority_refusal, question=priority_question,
                                     # the log names a countered card, never its id
                                     card_name=lambda s, c: s.name(c) + (" (copy)" if c >= COPY_BASE else "")),
                          POOLS, space.pass_)
    layout = StateLayout(
        zones=zones(),
        values=("turn", "turn_number", "first", "stack_busy"),
        lists=("hp", "max_hp", "wounded", "initiative", "chivalrous", "pos", "unleashed", "free", "winner_seats",
               "revealed"),
        nested=("feats_used",),
        records=("pools", "controls", "terrain", "staged", "chosen"),
        typed=(("sequence", fx.record), ("chain", Chain)),
        decisions=(*DECISIONS, *fx.decisions, stack.Priority),
    )
    cls = type("IvionState", (IvionState,), {"__slots__": (), "layout": layout})
    got = _ENGINES[key] = (space, fx, stack, cls)
    return got


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
    )
    Options = IvionOptions
    max_length = 50_000

    def __init__(self, options: IvionOptions) -> None:  # type: ignore[override]
        self.library = library(options.content)
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
        plays = sorted({n for d in self.decks for n in d.cards})
        feats = sorted({n for d in self.decks for n in d.feats if not self.library.cards[n].passive})
        cantrips = sorted({n for d in self.decks for n in (*d.cards, *d.feats) if self.library.cards[n].cantrip})
        digest = hashlib.sha256(repr((names, options.board)).encode()).hexdigest()[:16]
        self.space, self.fx, self.stack, self.state_class = _engines(
            f"ivion:{digest}", lambda: IvionSpace(f"ivion:{digest}", options.board, plays, cantrips, feats, plays, names))
        super().__init__(options)
        self.options: IvionOptions = options

    def __reduce__(self) -> tuple[Any, ...]:
        # the library's effects hold their verbs' text functions (lambdas): a game pickles as the
        # options it was made from and is built anew (the engines are shared per action space)
        return (_remake, (self.options.to_json(),))

    def _build_action_space(self) -> Any:
        return self.space.space

    def parse_action(self, text: str) -> IvionAction:
        return self.space.space.parse(text)

    def _empty_state(self) -> IvionState:
        return self.state_class.__new__(self.state_class)

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
