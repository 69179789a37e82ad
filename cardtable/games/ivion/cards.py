"""Ivion content as data: archetypes (classes and specializations with their colours), cards,
feats (ultimates and traits) and relics, and heroes (content.toml; users add their own files).

Every table is checked against a typed schema when it is read (core/cards.py); an error names the
file, the card and the field. Effects are parsed through the closed verb registry (verbs.py), so an
unknown verb or a bad parameter names the card, the verb and the field. A card's text is generated
from its data (`Card.text`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from ...core.cards import CardSchema, read_card_file, validate
from ...core.errors import CardFileError
from .actions import MAX_MODES
from .card import Ability, Card
from .verbs import VERBS

BASE_FILE = Path(__file__).with_name("content.toml")
#: the rulebook shows red, blue and green archetypes; gold is ours, a fourth colour for our fourth pair
#: of classes (docs/games/ivion.md, "Our content")
COLOURS = ("red", "blue", "green", "gold")
CONTROLS = ("slow", "silence", "disarm")
TARGETS = ("none", "self", "enemy", "tile", "empty_tile", "attached", "stack")
WHEN = ("host_turn_start", "your_turn_start", "enemy_enters")
#: cards of each archetype bearing the Herocrafting icon (rulebook, Herocrafting step 3)
MARKED_PER_ARCHETYPE = 15

Colour = Literal["red", "blue", "green", "gold"]
#: "If the card requires one or more targets, select them now": up to this many of one kind
MAX_TARGETS = 2
#: target kinds a card may take more than one of (a hero target is the one enemy, or yourself)
MULTI_TARGETS = ("tile", "empty_tile", "attached")


class ClassSchema(CardSchema):
    name: str = Field(min_length=1)
    colour: Colour
    #: how the class plays, in a line or two (the deck builder and the lobby show it)
    description: str = Field("", max_length=400)


class SpecializationSchema(CardSchema):
    name: str = Field(min_length=1)
    colours: list[Colour] = Field(min_length=1, max_length=2)
    description: str = Field("", max_length=400)


class CardData(CardSchema):
    """One `[[card]]` table."""

    name: str = Field(min_length=1, max_length=40)
    archetype: str = ""
    copies: int = Field(1, ge=0, le=9)
    marked: int = Field(0, ge=0, le=9)
    feat: Literal["", "ultimate", "trait"] = ""
    relic: bool = False
    hp: int = Field(0, ge=0, le=60)
    pips: list[Colour] = Field(default_factory=list, max_length=3)
    passive: bool = False
    actions: int = Field(0, ge=0, le=5)
    power: int = Field(0, ge=-5, le=5)
    range: int | None = Field(None, ge=0, le=14)
    banner: list[Literal["slow", "silence", "disarm"]] = Field(default_factory=list)
    heroic: bool = False
    instant: bool = False
    cantrip: bool = False
    attach: bool = False
    target: Literal["none", "self", "enemy", "tile", "empty_tile", "attached", "stack"] = "none"
    #: how many different targets of that kind the card takes (rulebook "Playing Cards": "one or more")
    targets: int = Field(1, ge=1, le=MAX_TARGETS)
    effects: list[dict[str, Any]] = Field(default_factory=list)
    #: "If the card requires you to 'choose', decide now": the effects to choose between (each a list
    #: of verbs, run after `effects`)
    modes: list[list[dict[str, Any]]] = Field(default_factory=list, max_length=MAX_MODES)
    unleash: list[dict[str, Any]] = Field(default_factory=list)
    abilities: list[dict[str, Any]] = Field(default_factory=list)
    #: a feat's line on how it plays (traits and ultimates; the deck builder shows it)
    description: str = Field("", max_length=400)

    @model_validator(mode="after")
    def _rules(self) -> CardData:
        if self.heroic and self.banner:
            raise ValueError("field 'heroic': a heroic card has no control banner (it ignores control)")
        if self.marked > self.copies and not self.feat:
            raise ValueError(f"field 'marked': {self.marked} marked copies of {self.copies} (at most 'copies')")
        if self.feat == "ultimate" and self.hp < 1:
            raise ValueError("field 'hp': an ultimate gives the hero's starting and maximum HP (at least 1)")
        if self.feat != "ultimate" and self.hp:
            raise ValueError("field 'hp': only an ultimate gives HP")
        if self.feat == "trait" and not self.pips:
            raise ValueError("field 'pips': a trait shows at least one coloured pip")
        if self.feat != "trait" and self.pips:
            raise ValueError("field 'pips': only a trait has pips")
        if self.feat == "trait" and self.archetype:
            raise ValueError("field 'archetype': a trait belongs to no archetype (its pips say who may take it)")
        if not self.feat and not self.relic and not self.archetype:
            raise ValueError("field 'archetype': a card belongs to a class or a specialization")
        if self.passive and (self.feat == "" or self.effects or self.actions or self.power):
            raise ValueError("field 'passive': only a feat is passive, and a passive feat is never played")
        if self.attach and self.target == "stack":
            raise ValueError("field 'attach': a card attaches to its target (a hero, a tile or an attached card) or, "
                             "with no target, in front of its controller; an unresolved card is no host")
        if self.targets > 1 and self.target not in MULTI_TARGETS:
            raise ValueError(f"field 'targets': only a card targeting {', '.join(MULTI_TARGETS)} takes more than one "
                             f"target (its target is {self.target!r})")
        if self.targets > 1 and self.attach:
            raise ValueError("field 'targets': an attaching card attaches to one target")
        if len(self.modes) == 1:
            raise ValueError("field 'modes': a card that asks to choose offers two or more effects")
        if self.attach and self.target == "tile":
            raise ValueError("field 'target': only an empty tile can have cards attached ('empty_tile')")
        if self.range is not None and self.target in ("none", "self", "stack"):
            raise ValueError(f"field 'range': a card targeting {self.target!r} has no range")
        return self


class HeroData(CardSchema):
    """One `[[hero]]` table: a deck (Herocrafting or Make Your Own Hero)."""

    name: str = Field(min_length=1)
    mode: Literal["herocrafting", "custom"]
    classes: list[str] = Field(min_length=1, max_length=2)
    specialization: str
    traits: list[str]
    ultimate: str = ""
    #: Make Your Own Hero: card name -> copies (30 class cards and 15 specialization cards)
    cards: dict[str, int] = Field(default_factory=dict)
    #: how the hero plays, in a line (the lobby and the terminal list it)
    description: str = Field("", max_length=400)


def _build_card(data: CardData, where: str) -> Card:
    effects = tuple(VERBS.parse(e, where, "effects") for e in data.effects)
    modes = tuple(tuple(VERBS.parse(e, where, "effects") for e in mode) for mode in data.modes)
    if any(not m for m in modes):
        raise CardFileError(f"{where}: field 'modes': each effect to choose is a list of one or more verbs")
    unleash = tuple(VERBS.parse(e, where, "effects") for e in data.unleash)
    abilities: list[Ability] = []
    for raw in data.abilities:
        if not isinstance(raw, dict):
            raise CardFileError(f"{where}: field 'abilities': an ability is a table (got {raw!r})")
        if "when" in raw:
            if raw["when"] not in WHEN or set(raw) != {"when", "effect"}:
                raise CardFileError(f"{where}: field 'abilities': a trigger is {{when = one of {', '.join(WHEN)}, "
                                    f"effect = {{...}} or a list of them}} (got {raw!r})")
            # the effect layer's loop rule lets a card's abilities fire once per effect sequence: one
            # trigger per moment (a card attached to its own player's hero: its host's turn is theirs)
            turn = {"host_turn_start", "your_turn_start"}
            same = turn if data.target == "self" and raw["when"] in turn else {raw["when"]}
            if any(a.when in same for a in abilities):
                raise CardFileError(f"{where}: field 'abilities': one trigger per moment ({raw['when']!r} twice; "
                                    "a trigger does several things as a list: effect = [{...}, {...}])")
            raws = raw["effect"] if isinstance(raw["effect"], list) else [raw["effect"]]
            if not raws:
                raise CardFileError(f"{where}: field 'abilities': a trigger's effect list is empty")
            abilities.append(Ability(raw["when"], tuple(VERBS.parse(e, where, "effects") for e in raws)))
        else:
            abilities.append(Ability("", (VERBS.parse(raw, where, "abilities"),)))
    if data.unleash and not data.effects and not data.modes:
        raise CardFileError(f"{where}: field 'unleash': the secondary effect adds to the card's effects")
    if data.attach is False and data.abilities and not data.feat:
        raise CardFileError(f"{where}: field 'abilities': only an attached card or a feat has abilities")
    if any(e.verb == "fade" for e in (*effects, *(e for m in modes for e in m), *unleash)) or (
            not data.attach and any(e.verb == "fade" for a in abilities for e in a.effects)):
        # a turn token goes on the card whose trigger it is, and only an attached card stays to carry it
        raise CardFileError(f"{where}: verb 'fade' stands only in a trigger of a card that attaches "
                            "(abilities = [{when = ..., effect = {verb = \"fade\", turns = N}}])")
    return Card(data.name, data.archetype, data.copies, data.marked, data.feat, data.relic, data.hp, tuple(data.pips),
                data.passive, data.actions, data.power, data.range, tuple(data.banner), data.heroic, data.instant,
                data.cantrip, data.attach, data.target, effects, unleash, tuple(abilities), data.description,
                data.targets, modes)


@dataclass
class Library:
    """All the content known: the base set plus the user's files."""

    classes: dict[str, str] = field(default_factory=dict)                 # name -> colour
    specializations: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> colours
    cards: dict[str, Card] = field(default_factory=dict)
    heroes: dict[str, HeroData] = field(default_factory=dict)
    #: class and specialization name -> how it plays (empty when its file says nothing)
    descriptions: dict[str, str] = field(default_factory=dict)

    def colours(self, archetype: str) -> tuple[str, ...]:
        if archetype in self.classes:
            return (self.classes[archetype],)
        return self.specializations.get(archetype, ())

    def archetype_cards(self, archetype: str) -> list[Card]:
        return [c for c in self.cards.values() if c.archetype == archetype and not c.feat and not c.relic]

    def ultimate_of(self, specialization: str) -> Card | None:
        return next((c for c in self.cards.values() if c.archetype == specialization and c.feat == "ultimate"), None)

    def traits(self) -> list[Card]:
        return [c for c in self.cards.values() if c.feat == "trait"]

    def relics(self) -> list[Card]:
        return [c for c in self.cards.values() if c.relic]

    def add(self, raw: Any, source: str) -> None:
        """Add the content of one file (its parsed TOML/JSON, or the same table inline); `source` starts
        every message."""
        if not isinstance(raw, dict):
            raise CardFileError(f"{source}: a content file is a table with 'class', 'specialization', 'card' and "
                                f"'hero' lists")
        unknown = sorted(set(raw) - {"class", "specialization", "card", "hero"})
        if unknown:
            raise CardFileError(f"{source}: unknown field {unknown[0]!r} (allowed: class, specialization, card, hero)")
        for i, entry in enumerate(_tables(raw, "class", source)):
            name = entry.get("name", f"#{i + 1}")
            klass = validate(entry, ClassSchema, f"{source}: class {name!r}")
            self._new_archetype(klass.name, f"{source}: class {name!r}")
            self.classes[klass.name] = klass.colour
            self.descriptions[klass.name] = klass.description
        for i, entry in enumerate(_tables(raw, "specialization", source)):
            name = entry.get("name", f"#{i + 1}")
            spec = validate(entry, SpecializationSchema, f"{source}: specialization {name!r}")
            self._new_archetype(spec.name, f"{source}: specialization {name!r}")
            self.specializations[spec.name] = tuple(spec.colours)
            self.descriptions[spec.name] = spec.description
        for i, entry in enumerate(_tables(raw, "card", source)):
            name = entry.get("name", f"#{i + 1}")
            where = f"{source}: card {name!r}"
            data = validate(entry, CardData, where)
            if data.name in self.cards:
                raise CardFileError(f"{where}: field 'name': a card of that name exists (card names are unique)")
            if data.archetype and data.archetype not in self.classes and data.archetype not in self.specializations:
                known = ", ".join([*self.classes, *self.specializations])
                raise CardFileError(f"{where}: field 'archetype': {data.archetype!r} is no class or specialization "
                                    f"(known: {known})")
            if data.feat == "ultimate" and data.archetype not in self.specializations:
                raise CardFileError(f"{where}: field 'archetype': an ultimate comes from a specialization")
            self.cards[data.name] = _build_card(data, where)
        for i, entry in enumerate(_tables(raw, "hero", source)):
            name = entry.get("name", f"#{i + 1}")
            hero = validate(entry, HeroData, f"{source}: hero {name!r}")
            self.heroes[hero.name] = hero

    def _new_archetype(self, name: str, where: str) -> None:
        if name in self.classes or name in self.specializations:
            raise CardFileError(f"{where}: field 'name': an archetype of that name exists")

    def check_marked(self) -> None:
        """Every archetype has exactly 15 Herocrafting-marked cards (rulebook, Herocrafting step 3)."""
        for name in [*self.classes, *self.specializations]:
            marked = sum(c.marked for c in self.archetype_cards(name))
            if marked != MARKED_PER_ARCHETYPE:
                raise CardFileError(f"archetype {name!r}: {marked} Herocrafting-marked cards; every archetype has "
                                    f"exactly {MARKED_PER_ARCHETYPE}")
        for name in self.specializations:
            if self.ultimate_of(name) is None:
                raise CardFileError(f"specialization {name!r}: it has no ultimate")


def _tables(raw: dict[str, Any], key: str, source: str) -> Iterable[dict[str, Any]]:
    entries = raw.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise CardFileError(f"{source}: field {key!r}: a list of tables ([[{key}]])")
    return entries


@lru_cache(maxsize=1)
def _base_content() -> dict[str, Any]:
    raw: dict[str, Any] = read_card_file(BASE_FILE, "content file")
    return raw


@lru_cache(maxsize=1)
def base_library() -> Library:
    lib = Library()
    lib.add(_base_content(), f"content file {BASE_FILE.name}")
    lib.check_marked()
    return lib


def read_cards(path: str) -> list[dict[str, Any]]:
    """The `[[card]]` tables of a cards file (the `cards` option given a file name: the command line's,
    or a card file the designers' lab saved); checked as `checked_cards` checks them inline."""
    raw = read_card_file(path, "cards file")
    if not isinstance(raw, dict) or set(raw) - {"card"}:
        raise CardFileError(f"cards file {path}: a cards file holds only [[card]] tables (classes, specializations "
                            "and heroes go in a content file, the `content` option)")
    return checked_cards(raw.get("card", []))


def checked_cards(cards: Any) -> list[dict[str, Any]]:
    """`cards` (a list of `[[card]]` tables) checked as the base content's cards in their place: each
    against the card schema, its archetype among the base's classes and specializations, 15 marked
    cards an archetype; messages start "cards: card 'NAME'"."""
    if not isinstance(cards, list):
        raise CardFileError("cards: a list of [[card]] tables")
    library((), cards)
    return cards


def library(content: Iterable[str | dict[str, Any]] = (), cards: list[dict[str, Any]] | None = None) -> Library:
    """The base content plus the user's: each item a content file's name (read by `read_card_file`, so
    never under `inline_only`: the command line's) or the content itself, a table as in the file
    (`class`, `specialization`, `card` and `hero` lists: what the web sends). Each item is validated
    by the same `Library.add`, its messages starting with the file's name or "content item N"; new
    names only. `cards`, when given, are the base's cards in place of its own `[[card]]` tables (its
    classes, specializations and heroes kept: the designers' lab edits a card this way), messages
    starting "cards"."""
    items = tuple(content)
    if not items and cards is None:
        return base_library()
    lib = Library()
    if cards is None:
        base = base_library()
        lib.classes, lib.specializations = dict(base.classes), dict(base.specializations)
        lib.cards, lib.heroes = dict(base.cards), dict(base.heroes)
        lib.descriptions = dict(base.descriptions)
    else:
        lib.add({**_base_content(), "card": cards}, "cards")
    for i, item in enumerate(items):
        if isinstance(item, str):
            lib.add(read_card_file(item, "content file"), f"content file {item}")
        else:
            lib.add(item, f"content item {i + 1}")
    lib.check_marked()
    return lib
