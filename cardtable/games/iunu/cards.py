"""IUNU card content as data: Citizen values and Afterlife cards (`cards.toml`).

The rulebook prints no card values; NOTES.md gives cardtable's, kept in `cards.toml` so a user
can replace them (`cardtable.make("iunu", cards="my_cards.toml")`). The nine Citizen types are
fixed by the rulebook (their abilities are rules, not data); their numbers are data. Afterlife
cards are data too: each names one effect from a closed list of verbs (`EFFECTS`), whose
parameters are checked on load. Every error names the file, the card and the field.

A file is read by the core's one loader (cardtable/core/cards.py) and checked against the declared
schema `CardFile` (the nine `Citizens`, each `CitizenValues`; each Afterlife card one of the
`AFTERLIFE_EFFECTS` models, chosen by its `effect`); the checked file becomes the `CardSet` a game
plays with (Citizen types as numbers, in the rulebook's order).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator

from ...core import cards as card_files
from ...core.cards import CardSchema, validate
from ...core.errors import CardFileError

CITIZENS = ("Pharaoh", "Scribe", "Noble", "Priest", "Artisan", "Soldier", "Baker", "Merchant", "Farmer")
PHARAOH, SCRIBE, NOBLE, PRIEST, ARTISAN, SOLDIER, BAKER, MERCHANT, FARMER = range(9)
NUM_TYPES = len(CITIZENS)
DEFAULT_FILE = Path(__file__).with_name("cards.toml")

AFTERLIFE_DEALT = 5  # Setup 2: "deal out 5 of them"
MAX_VALUE = 100


def _type_name(value: Any) -> Any:
    """A Citizen type as the rulebook spells it, matched without regard to case."""
    if isinstance(value, str):
        for c in CITIZENS:
            if c.lower() == value.lower():
                return c
    return value


#: a Citizen type by its rulebook name (`types = ["Scribe", "Noble"]`)
CitizenType = Annotated[Literal["Pharaoh", "Scribe", "Noble", "Priest", "Artisan", "Soldier", "Baker", "Merchant",
                                "Farmer"], BeforeValidator(_type_name)]
Value = Annotated[int, Field(ge=1, le=MAX_VALUE)]


# -- the card file as written: what a file (or the lab's form) may say --------------------------


class CitizenValues(CardSchema):
    """`[citizens.<Name>]`: one Citizen type's numbers."""

    cards: Annotated[int, Field(ge=1, le=MAX_VALUE, description="the ◆ number: Majority VP and the cards of this type")]
    citizen_vp: Annotated[int, Field(ge=0, le=MAX_VALUE, description="Citizen VP of each card")]
    bread_vp: Annotated[int, Field(ge=0, le=MAX_VALUE, description="Bread VP when a Bread token is on the card")]


class Citizens(CardSchema):
    """`[citizens]`: the nine Citizen types of the rulebook, every one, no other (their abilities
    are rules; their numbers are data). A type is named without regard to case."""

    Pharaoh: CitizenValues
    Scribe: CitizenValues
    Noble: CitizenValues
    Priest: CitizenValues
    Artisan: CitizenValues
    Soldier: CitizenValues
    Baker: CitizenValues
    Merchant: CitizenValues
    Farmer: CitizenValues

    @model_validator(mode="before")
    @classmethod
    def _names(cls, raw: Any) -> Any:
        if not isinstance(raw, Mapping):
            raise ValueError("field 'citizens' must be a table with one entry per Citizen type")
        out: dict[str, Any] = {}
        for k, v in raw.items():
            name = _type_name(k)
            if name not in CITIZENS:
                raise ValueError(f"citizen {k!r} is not an IUNU Citizen type (types: {', '.join(CITIZENS)})")
            out[name] = v
        return out


class DoubleMajority(CardSchema):
    """2x the Majority VP of one type you hold the majority of."""

    effect: Literal["double_majority"]


class Sets(CardSchema):
    """`vp` VP for each set of one card of each listed type."""

    effect: Literal["sets"]
    types: Annotated[list[CitizenType], Field(min_length=1)]
    vp: Value


class Guardians(CardSchema):
    """Soldiers score Citizen VP again with at least one Soldier per Farmer."""

    effect: Literal["guardians"]


class DebensPerVp(CardSchema):
    """`debens` Debens per VP instead of 3."""

    effect: Literal["debens_per_vp"]
    debens: Value


class MostFed(CardSchema):
    """`vp` VP for feeding more Citizens than any other player."""

    effect: Literal["most_fed"]
    vp: Value


class MostTypes(CardSchema):
    """`vp` VP for more different Citizen types than any other player."""

    effect: Literal["most_types"]
    vp: Value


#: effect verb -> the model of an Afterlife card with that effect (its fields: `effect` and its parameters)
AFTERLIFE_EFFECTS: dict[str, type[CardSchema]] = {
    "double_majority": DoubleMajority, "sets": Sets, "guardians": Guardians, "debens_per_vp": DebensPerVp,
    "most_fed": MostFed, "most_types": MostTypes,
}
EFFECTS = tuple(AFTERLIFE_EFFECTS)


def _effect(card: Any) -> Any:
    """The `effect` an Afterlife card names (a table in a file, a model once checked)."""
    effect = card.get("effect") if isinstance(card, Mapping) else getattr(card, "effect", None)
    return effect if isinstance(effect, str) and effect in EFFECTS else None


#: `[afterlife.<Name>]`: one Afterlife card, whose fields are those of its `effect`
AfterlifeCard = Annotated[
    Annotated[DoubleMajority, Tag("double_majority")] | Annotated[Sets, Tag("sets")]
    | Annotated[Guardians, Tag("guardians")] | Annotated[DebensPerVp, Tag("debens_per_vp")]
    | Annotated[MostFed, Tag("most_fed")] | Annotated[MostTypes, Tag("most_types")],
    Discriminator(_effect, custom_error_type="effect",
                  custom_error_message=f"field 'effect' must be one of {', '.join(EFFECTS)}"),
]


class CardFile(CardSchema):
    """A card file (`cards.toml`) as written: the nine Citizen types and the Afterlife cards."""

    CARD_COLLECTIONS: ClassVar[dict[str, str]] = {"citizens": "citizen", "afterlife": "afterlife card"}
    TAGGED: ClassVar[frozenset[str]] = frozenset({"afterlife"})

    citizens: Citizens
    afterlife: dict[str, AfterlifeCard]

    @field_validator("afterlife", mode="after")
    @classmethod
    def _enough(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) < AFTERLIFE_DEALT:
            raise ValueError(f"field 'afterlife' needs at least {AFTERLIFE_DEALT} cards (setup deals 5), got {len(value)}")
        if len({k.lower() for k in value}) != len(value):
            raise ValueError("two Afterlife cards share a name")
        return value


# -- the parsed form: what a game plays with ----------------------------------------------------


class Citizen(BaseModel):
    """One Citizen type's numbers."""

    model_config = ConfigDict(frozen=True)

    name: str
    cards: int        # the ◆ number: Majority VP and the number of cards of this type
    citizen_vp: int
    bread_vp: int

    # kept on the frozen model once read: the heuristic and GAME END scoring ask it at every step of a search
    @cached_property
    def majority_vp(self) -> int:
        return self.cards


class Afterlife(BaseModel):
    """One Afterlife card: its effect verb and its parameters (`types` as Citizen type numbers)."""

    model_config = ConfigDict(frozen=True)

    name: str
    effect: str
    types: tuple[int, ...] = ()
    vp: int = 0
    debens: int = 3


class CardSet(BaseModel):
    """The card values a game plays with: the nine Citizen types in the rulebook's order, and the
    Afterlife cards in the file's order."""

    model_config = ConfigDict(frozen=True)

    citizens: tuple[Citizen, ...]
    afterlife: tuple[Afterlife, ...]

    @classmethod
    def of(cls, file: CardFile) -> CardSet:
        citizens = tuple(Citizen(name=c, **getattr(file.citizens, c).model_dump()) for c in CITIZENS)
        afterlife = []
        for name, card in file.afterlife.items():
            fields = card.model_dump()
            if "types" in fields:
                fields["types"] = tuple(CITIZENS.index(t) for t in fields["types"])
            afterlife.append(Afterlife(name=name, **fields))
        return cls(citizens=citizens, afterlife=tuple(afterlife))

    @property
    def deck_size(self) -> int:
        return sum(c.cards for c in self.citizens)


def read_card_file(path: str | Path) -> dict[str, Any]:
    """The raw mapping of a TOML or JSON card file, validated (the canonical form is returned)."""
    raw = card_files.read_card_file(path, "card file")
    card_set_from_mapping(raw, source=f"card file {Path(path)}")
    return canonical(raw)


def canonical(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Plain JSON form (for options and replays): the same content, dicts and lists only."""
    plain: dict[str, Any] = json.loads(json.dumps(raw))
    return plain


def card_set_from_mapping(raw: Any, source: str = "cards") -> CardSet:
    if not isinstance(raw, Mapping):
        raise CardFileError(f"{source}: expected a table with 'citizens' and 'afterlife'")
    return CardSet.of(validate(dict(raw), CardFile, source))


def default_cards() -> dict[str, Any]:
    return read_card_file(DEFAULT_FILE)


@lru_cache(maxsize=1)
def default_card_set() -> CardSet:
    """The values of `cards.toml`, read once."""
    return card_set_from_mapping(default_cards(), source=f"card file {DEFAULT_FILE}")
