"""IUNU card content as data: Citizen values and Afterlife cards (`cards.toml`).

The rulebook prints no card values; NOTES.md gives cardtable's, kept in `cards.toml` so a user
can replace them (`cardtable.make("iunu", cards="my_cards.toml")`). The nine Citizen types are
fixed by the rulebook (their abilities are rules, not data); their numbers are data. Afterlife
cards are data too: each names one effect from a closed list of verbs (`EFFECTS`), whose
parameters are checked on load. Every error names the file, the card and the field.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
class Citizen:
    name: str
    cards: int        # the ◆ number: Majority VP and the number of cards of this type
    citizen_vp: int
    bread_vp: int

    @property
    def majority_vp(self) -> int:
        return self.cards


@dataclass(frozen=True)
class Afterlife:
    name: str
    effect: str
    types: tuple[int, ...] = ()
    vp: int = 0
    debens: int = 3


@dataclass(frozen=True)
class CardSet:
    citizens: tuple[Citizen, ...]
    afterlife: tuple[Afterlife, ...]

    @property
    def deck_size(self) -> int:
        return sum(c.cards for c in self.citizens)


def read_card_file(path: str | Path) -> dict[str, Any]:
    """The raw mapping of a TOML or JSON card file, validated (the canonical form is returned)."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise CardFileError(f"card file {p}: cannot read it ({exc.strerror})") from None
    is_json = p.suffix.lower() == ".json"
    try:
        raw = json.loads(text) if is_json else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardFileError(f"card file {p}: not valid {'JSON' if is_json else 'TOML'}: {exc}") from None
    card_set_from_mapping(raw, source=f"card file {p}")
    return canonical(raw)


def canonical(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Plain JSON form (for options and replays): the same content, dicts and lists only."""
    plain: dict[str, Any] = json.loads(json.dumps(raw))
    return plain


def _int(source: str, where: str, value: Any, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= MAX_VALUE:
        raise CardFileError(f"{source}: {where}: must be a whole number from {low} to {MAX_VALUE}, got {value!r}")
    return value


def card_set_from_mapping(raw: Any, source: str = "cards") -> CardSet:
    if not isinstance(raw, Mapping):
        raise CardFileError(f"{source}: expected a table with 'citizens' and 'afterlife'")
    unknown = sorted(set(raw) - {"citizens", "afterlife"})
    if unknown:
        raise CardFileError(f"{source}: unknown field {unknown[0]!r} (allowed: citizens, afterlife)")
    cits = raw.get("citizens")
    if not isinstance(cits, Mapping):
        raise CardFileError(f"{source}: field 'citizens' must be a table with one entry per Citizen type")
    by_lower = {str(k).lower(): k for k in cits}
    for k in cits:
        if str(k).lower() not in {c.lower() for c in CITIZENS}:
            raise CardFileError(f"{source}: citizen {k!r} is not an IUNU Citizen type (types: {', '.join(CITIZENS)})")
    citizens = []
    for name in CITIZENS:
        key = by_lower.get(name.lower())
        if key is None:
            raise CardFileError(f"{source}: citizen {name!r} is missing (every one of the nine types needs values)")
        entry = cits[key]
        if not isinstance(entry, Mapping):
            raise CardFileError(f"{source}: citizen {name!r}: expected a table with cards, citizen_vp, bread_vp")
        extra = sorted(set(entry) - {"cards", "citizen_vp", "bread_vp"})
        if extra:
            raise CardFileError(f"{source}: citizen {name!r}: unknown field {extra[0]!r} (fields: cards, citizen_vp, bread_vp)")
        vals = []
        for f, low in (("cards", 1), ("citizen_vp", 0), ("bread_vp", 0)):
            if f not in entry:
                raise CardFileError(f"{source}: citizen {name!r}: field {f!r} is missing")
            vals.append(_int(source, f"citizen {name!r} field {f!r}", entry[f], low))
        citizens.append(Citizen(name, *vals))
    afters = raw.get("afterlife")
    if not isinstance(afters, Mapping):
        raise CardFileError(f"{source}: field 'afterlife' must be a table with one entry per Afterlife card")
    afterlife = []
    for name, entry in afters.items():
        where = f"afterlife card {name!r}"
        if not isinstance(entry, Mapping):
            raise CardFileError(f"{source}: {where}: expected a table with an 'effect'")
        effect = entry.get("effect")
        if effect not in EFFECTS:
            raise CardFileError(f"{source}: {where}: field 'effect' must be one of {', '.join(EFFECTS)}, got {effect!r}")
        params = EFFECTS[effect]
        extra = sorted(set(entry) - {"effect", *params})
        if extra:
            allowed = ", ".join(["effect", *params])
            raise CardFileError(f"{source}: {where}: unknown field {extra[0]!r} for effect {effect!r} (fields: {allowed})")
        kw: dict[str, Any] = {}
        for p, kind in params.items():
            if p not in entry:
                raise CardFileError(f"{source}: {where}: field {p!r} is missing (effect {effect!r} needs it)")
            if kind == "types":
                value = entry[p]
                if not isinstance(value, list) or not value:
                    raise CardFileError(f"{source}: {where}: field {p!r} must be a non-empty list of Citizen types")
                types = []
                for t in value:
                    match = [i for i, c in enumerate(CITIZENS) if c.lower() == str(t).lower()]
                    if not match:
                        raise CardFileError(
                            f"{source}: {where}: field {p!r}: {t!r} is not a Citizen type (types: {', '.join(CITIZENS)})"
                        )
                    types.append(match[0])
                kw[p] = tuple(types)
            else:
                kw[p] = _int(source, f"{where} field {p!r}", entry[p], 1)
        afterlife.append(Afterlife(str(name), effect, **kw))
    if len(afterlife) < AFTERLIFE_DEALT:
        raise CardFileError(f"{source}: field 'afterlife' needs at least {AFTERLIFE_DEALT} cards (setup deals 5), got {len(afterlife)}")
    if len({a.name.lower() for a in afterlife}) != len(afterlife):
        raise CardFileError(f"{source}: two Afterlife cards share a name")
    return CardSet(tuple(citizens), tuple(afterlife))


def default_cards() -> dict[str, Any]:
    return read_card_file(DEFAULT_FILE)


@lru_cache(maxsize=1)
def default_card_set() -> CardSet:
    """The values of `cards.toml`, read once."""
    return card_set_from_mapping(default_cards(), source=f"card file {DEFAULT_FILE}")
