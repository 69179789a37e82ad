"""Custom decks ("Customize your deck!"): a TOML or JSON file giving the composition.

    name = "Big numbers"
    [each_color]            # counts repeated for red, yellow, green and blue
    "0" = 1
    "9" = 4
    skip = 2
    [cards]                 # counts of single cards, added on top
    wild = 4
    "wild draw four" = 2
    "red 5" = 1
    [[card]]                # or card by card, as tables (the deck file deck.toml, the designers' lab)
    name = "blue 7"
    copies = 3

Validation names the file, the card and the field, and says what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import field_validator

from ...core.cards import CardSchema, card_list, read_card_file, validate
from ...core.errors import CardFileError
from .cards import CARD_BY_NAME, CARD_NAME, COLORS, DEALER_VALUE, NUM_TYPES, RANK_NAMES, WILD_DRAW_FOUR

MAX_COPIES = 200
#: the classic deck (108 cards) as `[[card]]` tables: the cards the designers' lab starts from
DECK_FILE = Path(__file__).with_name("deck.toml")
_COLOR_RANKS = RANK_NAMES[:13]


def _count(where: str, n: Any) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_COPIES:
        raise ValueError(f"{where}: count must be a whole number from 0 to {MAX_COPIES}, got {n!r}")
    return n


def _table(field: str, what: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"field {field!r} must be a table of {what}")
    return value


def _card_name(name: Any) -> str:
    key = " ".join(str(name).lower().split())
    if key not in CARD_BY_NAME:
        raise ValueError(
            f"card {name!r} is not a JUNO card (examples: 'red 7', 'blue skip', 'green draw two', 'wild', "
            "'wild draw four')"
        )
    return key


class DeckCard(CardSchema):
    """One `[[card]]` table of a deck file: a JUNO card by its name and its number of copies."""

    name: str
    copies: int

    @field_validator("name", mode="before")
    @classmethod
    def _name(cls, value: Any) -> str:
        try:
            return _card_name(value)
        except ValueError:
            raise ValueError("field 'name' must be a JUNO card's name, like 'red 7', 'blue skip', 'green draw two', "
                             f"'wild' or 'wild draw four' (got {value!r})") from None

    @field_validator("copies", mode="before")
    @classmethod
    def _copies(cls, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COPIES:
            raise ValueError(f"field 'copies' must be a whole number from 0 to {MAX_COPIES} (got {value!r})")
        return value


class DeckFile(CardSchema):
    """A deck file: counts per colored rank (for each of the four colors), per single card, and
    card by card as `[[card]]` tables (name, copies); all three add up."""

    name: str | None = None
    each_color: dict[str, int] = {}
    cards: dict[str, int] = {}
    card: tuple[DeckCard, ...] = ()

    @field_validator("card", mode="before")
    @classmethod
    def _tables(cls, value: Any) -> tuple[DeckCard, ...]:
        return card_list(value, DeckCard, "card")

    @field_validator("each_color", mode="before")
    @classmethod
    def _ranks(cls, value: Any) -> dict[str, int]:
        out: dict[str, int] = {}
        for rank, n in _table("each_color", "rank = count", value).items():
            key = " ".join(str(rank).lower().split())
            if key not in _COLOR_RANKS:
                raise ValueError(f"each_color card {rank!r} is not a colored rank (allowed: {', '.join(_COLOR_RANKS)})")
            out[key] = out.get(key, 0) + _count(f"each_color {rank!r}", n)
        return out

    @field_validator("cards", mode="before")
    @classmethod
    def _cards(cls, value: Any) -> dict[str, int]:
        out: dict[str, int] = {}
        for name, n in _table("cards", "card name = count", value).items():
            key = _card_name(name)
            out[key] = out.get(key, 0) + _count(f"card {name!r}", n)
        return out

    def counts(self) -> dict[str, int]:
        """{card name: count} of the cards present, in card order."""
        counts: dict[str, int] = {}
        for rank, n in self.each_color.items():
            for color in COLORS:
                counts[f"{color} {rank}"] = counts.get(f"{color} {rank}", 0) + n
        for name, n in self.cards.items():
            counts[name] = counts.get(name, 0) + n
        for c in self.card:
            counts[c.name] = counts.get(c.name, 0) + c.copies
        return {k: v for k, v in sorted(counts.items(), key=lambda kv: CARD_BY_NAME[kv[0]]) if v > 0}


def load_deck_file(path: str | Path) -> dict[str, int]:
    """Read and validate a deck file; returns {card name: count} (only cards present)."""
    return deck_from_mapping(read_card_file(path, "deck file"), source=f"deck file {Path(path)}")


def deck_from_mapping(raw: Any, source: str = "deck") -> dict[str, int]:
    """A deck given inline: a deck file's tables, or only its `[[card]]` tables as a list (how the
    designers' lab gives its cards)."""
    if isinstance(raw, list):
        raw = {"card": raw}
    if not isinstance(raw, Mapping):
        raise CardFileError(f"{source}: expected a table with 'each_color', 'cards' and/or 'card'")
    return validate(raw, DeckFile, source).counts()


def counts_from_names(deck: Mapping[str, int]) -> list[int]:
    counts = [0] * NUM_TYPES
    for name, n in deck.items():
        counts[CARD_BY_NAME[name]] += n
    return counts


def check_playable(counts: list[int], players: int, hand_size: int, source: str = "deck") -> None:
    """A deck must let the game start and end: enough cards to deal and turn a start card, a
    start card that is not a Wild Draw Four, and two dealer values so the dealer draw ends."""
    total = sum(counts)
    # The start card is never a Wild Draw Four ("return this card to the deck and pick another"),
    # so after the deal the DRAW pile must hold a card that is not one, whatever the shuffle.
    need = players * hand_size + 1 + counts[WILD_DRAW_FOUR]
    if total < need:
        raise CardFileError(
            f"{source}: {total} cards cannot deal {hand_size} to each of {players} players and turn a start card "
            f"other than a Wild Draw Four (needs at least {need})"
        )
    if total == counts[WILD_DRAW_FOUR]:
        raise CardFileError(f"{source}: needs at least one card other than {CARD_NAME[WILD_DRAW_FOUR]} to start on")
    values = {DEALER_VALUE[t] for t in range(NUM_TYPES) if counts[t]}
    if len(values) < 2:
        raise CardFileError(
            f"{source}: the dealer is chosen by drawing for the highest number, so the deck needs cards of at "
            "least two different values (symbols count as zero)"
        )
