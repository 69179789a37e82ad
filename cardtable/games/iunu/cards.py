"""IUNU card content as data: Citizen values and Afterlife cards (`cards.toml`).

The rulebook prints no card values; NOTES.md gives cardtable's, kept in `cards.toml` so a user
can replace them (`cardtable.make("iunu", cards="my_cards.toml")`). The nine Citizen types are
fixed by the rulebook (their abilities are rules, not data); their numbers are data. Afterlife
cards are data too: each names one effect from a closed list of verbs (`EFFECTS`), whose
parameters are checked on load. Every error names the file, the card and the field.

A file is read by the core's one loader (cardtable/core/cards.py) and checked against the schema
`CardSet`, which is also what a game plays with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationInfo, field_validator, model_validator

from ...core import cards as card_files
from ...core.cards import CardSchema, validate
from ...core.errors import CardFileError

CITIZENS = ("Pharaoh", "Scribe", "Noble", "Priest", "Artisan", "Soldier", "Baker", "Merchant", "Farmer")
PHARAOH, SCRIBE, NOBLE, PRIEST, ARTISAN, SOLDIER, BAKER, MERCHANT, FARMER = range(9)
NUM_TYPES = len(CITIZENS)
DEFAULT_FILE = Path(__file__).with_name("cards.toml")

#: effect verb -> its parameters and their kinds
EFFECTS: dict[str, dict[str, str]] = {
    "double_majority": {},
    "sets": {"types": "types", "vp": "int"},
    "guardians": {},
    "debens_per_vp": {"debens": "int"},
    "most_fed": {"vp": "int"},
    "most_types": {"vp": "int"},
}
AFTERLIFE_DEALT = 5  # Setup 2: "deal out 5 of them"
MAX_VALUE = 100
_CITIZEN_FIELDS = (("cards", 1), ("citizen_vp", 0), ("bread_vp", 0))  # each with its least value


class Citizen(CardSchema):
    """One Citizen type's numbers (`[citizens.<Name>]`)."""

    name: str
    cards: int        # the ◆ number: Majority VP and the number of cards of this type
    citizen_vp: int
    bread_vp: int

    @property
    def majority_vp(self) -> int:
        return self.cards


class Afterlife(CardSchema):
    """One Afterlife card (`[afterlife.<Name>]`): an effect verb and its parameters."""

    name: str
    effect: str
    types: tuple[int, ...] = ()
    vp: int = 0
    debens: int = 3


def _int(where: str, value: Any, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_VALUE:
        raise ValueError(f"{where}: must be a whole number from {low} to {MAX_VALUE}, got {value!r}")
    return value


def _citizen(name: str, entry: Any) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise ValueError(f"citizen {name!r}: expected a table with cards, citizen_vp, bread_vp")
    extra = sorted(set(entry) - {f for f, _ in _CITIZEN_FIELDS})
    if extra:
        raise ValueError(f"citizen {name!r}: unknown field {extra[0]!r} (fields: cards, citizen_vp, bread_vp)")
    out: dict[str, Any] = {"name": name}
    for f, low in _CITIZEN_FIELDS:
        if f not in entry:
            raise ValueError(f"citizen {name!r}: field {f!r} is missing")
        out[f] = _int(f"citizen {name!r} field {f!r}", entry[f], low)
    return out


def _citizen_type(where: str, field: str, name: Any) -> int:
    for t, c in enumerate(CITIZENS):
        if c.lower() == str(name).lower():
            return t
    raise ValueError(f"{where}: field {field!r}: {name!r} is not a Citizen type (types: {', '.join(CITIZENS)})")


def _afterlife(name: Any, entry: Any) -> dict[str, Any]:
    where = f"afterlife card {name!r}"
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where}: expected a table with an 'effect'")
    effect = entry.get("effect")
    if not isinstance(effect, str) or effect not in EFFECTS:
        raise ValueError(f"{where}: field 'effect' must be one of {', '.join(EFFECTS)}, got {effect!r}")
    params = EFFECTS[effect]
    extra = sorted(set(entry) - {"effect", *params})
    if extra:
        allowed = ", ".join(["effect", *params])
        raise ValueError(f"{where}: unknown field {extra[0]!r} for effect {effect!r} (fields: {allowed})")
    out: dict[str, Any] = {"name": str(name), "effect": effect}
    for p, kind in params.items():
        if p not in entry:
            raise ValueError(f"{where}: field {p!r} is missing (effect {effect!r} needs it)")
        value = entry[p]
        if kind == "int":
            out[p] = _int(f"{where} field {p!r}", value, 1)
        elif not isinstance(value, list) or not value:
            raise ValueError(f"{where}: field {p!r} must be a non-empty list of Citizen types")
        else:
            out[p] = tuple(_citizen_type(where, p, t) for t in value)
    return out


class CardSet(CardSchema):
    """A card file (`cards.toml`): the numbers of the nine Citizen types, in the rulebook's order,
    and the Afterlife cards. Citizen types and the types an Afterlife card names are matched
    without regard to case."""

    citizens: tuple[Citizen, ...] = Field(None, validate_default=True)
    afterlife: tuple[Afterlife, ...] = Field(None, validate_default=True)

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, raw: Any) -> Any:
        unknown = sorted(set(raw) - {"citizens", "afterlife"})
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r} (allowed: citizens, afterlife)")
        return raw

    @field_validator("citizens", mode="before")
    @classmethod
    def _citizens(cls, value: Any) -> tuple[dict[str, Any], ...]:
        if not isinstance(value, Mapping):
            raise ValueError("field 'citizens' must be a table with one entry per Citizen type")
        by_lower = {str(k).lower(): k for k in value}
        for k in value:
            if str(k).lower() not in {c.lower() for c in CITIZENS}:
                raise ValueError(f"citizen {k!r} is not an IUNU Citizen type (types: {', '.join(CITIZENS)})")
        out = []
        for name in CITIZENS:
            key = by_lower.get(name.lower())
            if key is None:
                raise ValueError(f"citizen {name!r} is missing (every one of the nine types needs values)")
            out.append(_citizen(name, value[key]))
        return tuple(out)

    @field_validator("afterlife", mode="before")
    @classmethod
    def _afterlife(cls, value: Any, info: ValidationInfo) -> tuple[dict[str, Any], ...]:
        if "citizens" not in info.data:  # the citizens were refused: that is the file's error
            return ()
        if not isinstance(value, Mapping):
            raise ValueError("field 'afterlife' must be a table with one entry per Afterlife card")
        out = tuple(_afterlife(name, entry) for name, entry in value.items())
        if len(out) < AFTERLIFE_DEALT:
            raise ValueError(f"field 'afterlife' needs at least {AFTERLIFE_DEALT} cards (setup deals 5), got {len(out)}")
        if len({a["name"].lower() for a in out}) != len(out):
            raise ValueError("two Afterlife cards share a name")
        return out

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
    return validate(dict(raw), CardSet, source)


def default_cards() -> dict[str, Any]:
    return read_card_file(DEFAULT_FILE)


@lru_cache(maxsize=1)
def default_card_set() -> CardSet:
    """The values of `cards.toml`, read once."""
    return card_set_from_mapping(default_cards(), source=f"card file {DEFAULT_FILE}")
