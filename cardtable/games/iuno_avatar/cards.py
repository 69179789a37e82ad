"""Iuno Avatar's deck as data: `deck.toml` (NOTES.md: 18 figures, 18 spells, 18 gem cards over
six elements; the card list is not public, so cardtable designs it).

A card file is a list of `[[card]]` tables, read by the core's one loader
(cardtable/core/cards.py) and checked against `Deck`; users load their own with
`cardtable.make("iuno_avatar", cards="my_deck.toml")`. Every error names the file, the card and
the field. A card:

- figure: `name`, `element`, `cost` (element symbols), `level` (1-3: at most that many gems,
  rulebook "Figure cards can be leveled up with at most as many gems as their level"), `kind`
  (inclusive: also do; exclusive: instead do), `when` (the activity it answers) and `effect`;
- spell: `name`, `element`, `cost`, `effect` (one-time, on arrival);
- gem: `name`, `element`, `symbols` (how many of its element it pays).

`when` and `effect` are written in the pictogram language (language.py) and validated by its
verbs. An `effect` is one step (a table) or a sequence of steps (a list of tables, the rulebook's
"comprehensive effect descriptions"): the steps happen in order, each only if the one before it
could (docs/games/iuno_avatar.md). A combination the rules forbid is refused naming the rule. A
card's text and pictograms are generated from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, TypeGuard

from pydantic import ValidationInfo, field_validator, model_validator

from ...core.cards import CardSchema, card_list, read_card_file, validate
from ...core.errors import CardFileError
from ...core.verbs import Effect
from .language import (
    CARD_TYPES,
    ELEMENTS,
    VERBS,
    activity_problem,
    activity_text,
    effect_problem,
    pictograms,
    sequence_pictograms,
    sequence_text,
)

DECK_FILE = Path(__file__).with_name("deck.toml")
MAX_COST = 4
MAX_LEVEL = 3
MAX_SYMBOLS = 3
MAX_STEPS = 4  # the steps of one effect sequence
KINDS = ("inclusive", "exclusive")
FIELDS = {
    "figure": ("name", "type", "element", "cost", "level", "kind", "when", "effect"),
    "spell": ("name", "type", "element", "cost", "effect"),
    "gem": ("name", "type", "element", "symbols"),
}


class Card(CardSchema):
    """One card of the deck (its `index` is its place in the file)."""

    index: int
    name: str
    type: str
    element: str
    cost: tuple[int, ...]        # symbols of each element (ELEMENTS order); empty for a gem card
    level: int                   # figures: 1-3; others 0
    kind: str                    # figures: inclusive / exclusive; others ""
    when: Effect | None          # figures: the activity answered
    effects: tuple[Effect, ...]  # figures and spells: the steps of the effect, in order; gem cards: none
    symbols: int                 # gem cards: how many of its element it pays

    @model_validator(mode="before")
    @classmethod
    def _read(cls, raw: Mapping[str, Any], info: ValidationInfo) -> dict[str, Any]:
        where = (info.context or {}).get("where", "card")
        kind_of = raw.get("type")
        if kind_of not in CARD_TYPES:
            raise ValueError(f"{where}: field 'type' must be one of {', '.join(CARD_TYPES)} (got {kind_of!r})")
        allowed = FIELDS[kind_of]
        unknown = sorted(set(raw) - set(allowed))
        if unknown:
            raise ValueError(f"{where}: unknown field {unknown[0]!r} (a {kind_of} card has {', '.join(allowed)})")
        element = raw.get("element")
        if element not in ELEMENTS:
            raise ValueError(f"{where}: field 'element' must be one of {', '.join(ELEMENTS)} (got {element!r})")
        out: dict[str, Any] = {"index": (info.context or {}).get("index", 0), "name": raw.get("name"), "type": kind_of,
                               "element": element, "cost": (), "level": 0, "kind": "", "when": None, "effects": (),
                               "symbols": 0}
        if kind_of == "gem":
            symbols = raw.get("symbols")
            if not _whole(symbols) or not 1 <= symbols <= MAX_SYMBOLS:
                raise ValueError(f"{where}: field 'symbols' must be a whole number from 1 to {MAX_SYMBOLS} (got {symbols!r})")
            return {**out, "symbols": symbols}
        cost = raw.get("cost")
        if not isinstance(cost, list) or not 1 <= len(cost) <= MAX_COST or any(c not in ELEMENTS for c in cost):
            raise ValueError(f"{where}: field 'cost' must be a list of 1 to {MAX_COST} elements "
                             f"({', '.join(ELEMENTS)}) (got {cost!r})")
        out["cost"] = tuple(cost.count(e) for e in ELEMENTS)
        if "effect" not in raw:
            raise ValueError(f"{where}: field 'effect' is missing (a {kind_of} card has an effect)")
        out["effects"] = _steps(raw["effect"], where)
        if kind_of == "figure":
            level = raw.get("level")
            if not _whole(level) or not 1 <= level <= MAX_LEVEL:
                raise ValueError(f"{where}: field 'level' must be a whole number from 1 to {MAX_LEVEL} (got {level!r})")
            kind = raw.get("kind")
            if kind not in KINDS:
                raise ValueError(f"{where}: field 'kind' must be inclusive or exclusive (got {kind!r})")
            if "when" not in raw:
                raise ValueError(f"{where}: field 'when' is missing (the activity the figure answers)")
            when = VERBS.parse(raw["when"], f"{where}: field 'when'")
            problem = activity_problem(when)
            if problem:
                raise ValueError(f"{where}: field 'when': {problem}")
            out.update(level=level, kind=kind, when=when)
        return out

    # The card's data never changes (a frozen model), so what is read from it is worked out once, on
    # first use, and kept on the card: the rules and the bots ask these at every step of a search.

    @cached_property
    def effect(self) -> Effect | None:
        """The first step of the effect (the whole sequence is `effects`): whether the effect is
        offered at all depends on it (a later step needs the one before it)."""
        return self.effects[0] if self.effects else None

    @cached_property
    def element_index(self) -> int:
        return ELEMENTS.index(self.element)

    @cached_property
    def figure(self) -> bool:
        return self.type == "figure"

    @cached_property
    def spell(self) -> bool:
        return self.type == "spell"

    @cached_property
    def gem(self) -> bool:
        return self.type == "gem"

    def cost_text(self) -> str:
        return " ".join(e.title() for e, n in zip(ELEMENTS, self.cost, strict=False) for _ in range(n))

    def text(self) -> str:
        """The card's plain-language text, generated from its data."""
        if self.gem:
            n = self.symbols
            return f"Pays {n} {self.element.title()} symbol{'s' if n > 1 else ''} of a figure or spell cost."
        does = sequence_text(self.effects)
        if self.spell:
            return f"On arrival, you may {does}. Then it goes to Hell."
        assert self.when is not None
        if self.kind == "inclusive":
            return f"Inclusive, while it has a gem: whenever {activity_text(self.when)}, you may also {does}."
        return f"Exclusive, while it has a gem: whenever {activity_text(self.when)}, you may {does} instead."

    def pictograms(self) -> list[dict[str, Any]]:
        """The pictogram sequence a view draws: the effect's marker (a circle for inclusive, a
        rhombus for exclusive), the activity, then what happens."""
        if self.gem:
            return [{"kind": "card type", "name": "gem", "element": self.element}] * self.symbols
        if self.spell:
            return sequence_pictograms(self.effects)
        assert self.when is not None
        marker = {"kind": "marker", "name": "circle" if self.kind == "inclusive" else "rhombus"}
        return [*pictograms(self.when), marker, *sequence_pictograms(self.effects)]


def _steps(raw: Any, where: str) -> tuple[Effect, ...]:
    """A card's `effect`: one table (one step) or a list of 1 to MAX_STEPS tables, each a step of
    the language that the rules allow for an effect."""
    if isinstance(raw, list):
        if not 1 <= len(raw) <= MAX_STEPS:
            raise ValueError(f"{where}: field 'effect' must be a table or a list of 1 to {MAX_STEPS} tables "
                             f"(steps), got {len(raw)}")
        places = [f"{where}: field 'effect' step {i + 1}" for i in range(len(raw))]
        items = raw
    else:
        places, items = [f"{where}: field 'effect'"], [raw]
    steps = []
    for place, item in zip(places, items, strict=True):
        step = VERBS.parse(item, place)
        problem = effect_problem(step)
        if problem:
            raise ValueError(f"{place}: {problem}")
        steps.append(step)
    return tuple(steps)


def _whole(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


class Deck(CardSchema):
    """The cards of a card file (its `card` list): names unique, at least one figure or spell."""

    card: tuple[Card, ...]

    @field_validator("card", mode="before")
    @classmethod
    def _cards(cls, raw: Any) -> tuple[Card, ...]:
        return card_list(raw, Card, "card")

    @model_validator(mode="after")
    def _playable(self) -> Deck:
        if not any(not c.gem for c in self.card):
            raise ValueError("the deck needs at least one figure or spell card")
        return self


@dataclass(frozen=True)
class CardSet:
    """A validated deck, as the game plays with it."""

    source: str
    cards: tuple[Card, ...]

    def by_name(self, name: str) -> Card:
        for c in self.cards:
            if c.name.lower() == name.lower():
                return c
        raise KeyError(name)

    def key(self) -> str:
        return "|".join(c.name for c in self.cards)


def read_file(path: str | Path) -> list[dict[str, Any]]:
    """A card file's list of card tables, validated (the error names the file)."""
    p = Path(path)
    raw = read_card_file(p, "card file")
    if not isinstance(raw, Mapping) or not isinstance(raw.get("card"), list):
        raise CardFileError(f"card file {p}: expected a list of cards under 'card' ([[card]] tables in TOML)")
    cards = [dict(c) if isinstance(c, Mapping) else c for c in raw["card"]]
    build(cards, f"card file {p}")
    return cards


def build(raw: list[Any], source: str = "cards") -> CardSet:
    return CardSet(source, validate({"card": raw}, Deck, source).card)


@lru_cache(maxsize=1)
def base_deck() -> CardSet:
    return build(read_file(DECK_FILE), f"card file {DECK_FILE.name}")
