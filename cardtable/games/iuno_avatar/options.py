"""Iuno Avatar options: `cardtable.make("iuno_avatar", players=3, avatars=["water", "fire", "dark"])`."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from ...core.options import GameOptions, card_file
from .cards import DECK_FILE, Card, CardSet, base_deck, build, read_file
from .language import ELEMENTS

HEAVEN_START = 6  # "every player receives three gems and six cards in Heaven"
GEMS_START = 3
HELL_START = 6    # "Six cards are placed in Hell face up"
DICE = 6          # "The game consists of 6 dies, 54 cards per deck and 30 gems"
GEMS = 30
KEEP = 6          # "each player must discard ... all but six cards, all but six gems"


def _checked_cards(cards: Any) -> Any:
    build(cards, "cards")
    return cards


class AvatarOptions(GameOptions):
    players: int = Field(2, ge=2, le=3, description="2 or 3 players per card deck")
    avatars: list[str] | None = Field(
        None, description="each seat's element (Fire, Earth, Light, Life, Water, Dark; all different); seat "
        "order follows that list, so Dark never starts. None: dealt at random",
    )
    cards: Annotated[list[dict[str, Any]] | None, card_file(read_file, _checked_cards, noun="card", base=DECK_FILE, schema=Card)] = Field(
        None, description="your own deck: a card file path or a list of cards"
    )
    turn_limit: int = Field(
        200, ge=1, le=100_000,
        description="turns before the game stops (the rulebook has no bound): fewest cards in Heaven win",
    )

    @field_validator("avatars")
    @classmethod
    def _avatars(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        low = [v.lower() for v in value]
        bad = [v for v in low if v not in ELEMENTS]
        if bad:
            raise ValueError(f"{bad[0]!r} is not an element (elements: {', '.join(ELEMENTS)})")
        if len(set(low)) != len(low):
            raise ValueError("each player's avatar is a different element")
        return low

    @model_validator(mode="after")
    def _check(self) -> AvatarOptions:
        if self.avatars is not None and len(self.avatars) != self.players:
            raise ValueError(f"give one avatar element per player ({self.players}), got {len(self.avatars)}")
        size = len(self.card_set().cards)
        need = HEAVEN_START * self.players + HELL_START
        if size < need + 1:
            raise ValueError(f"a deck of {size} cards cannot deal {HEAVEN_START} to each of {self.players} players, "
                             f"{HELL_START} to Hell and leave a stack")
        return self

    def card_set(self) -> CardSet:
        return base_deck() if self.cards is None else build(self.cards, "cards")
