"""Ivion options: `cardtable.make("ivion", decks=["Sir Edda Vane", "my_hero.toml"], board=5)`; your own
content as files (`content=["mine.toml"]`) or inline (`content=[{"class": [...], "card": [...], "hero": [...]}]`);
the base's cards replaced (`cards=[{"name": ..., "archetype": ..., ...}, ...]` or a cards file: the designers' lab's way)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from ...core.errors import CardFileError
from ...core.options import GameOptions, card_file
from .cards import BASE_FILE, CardData, checked_cards, library, read_cards
from .decks import build, hero_from

STARTERS = ["Sir Edda Vane", "Lio Marrow"]


class IvionOptions(GameOptions):
    players: int = Field(2, ge=2, le=2, description="two heroes")
    decks: list[Any] = Field(default_factory=lambda: list(STARTERS), min_length=2, max_length=2,
                             description="a deck per seat: a starter hero's name (`cardtable deck ivion --list` lists them "
                                         "with their lines), a hero file (.toml/.json) or a hero table")
    content: list[str | dict[str, Any]] = Field(
        default_factory=list,
        description="your own content (classes, specializations, cards, heroes): each a content file (.toml/.json; "
                    "the command line only) or the same table inline (over the web, only inline)")
    #: the designers' lab edits Ivion's cards through this option (docs/lab.md): the base file's
    #: [[card]] tables, as data
    cards: Annotated[list[dict[str, Any]] | None,
                     card_file(read_cards, checked_cards, noun="card", base=BASE_FILE, schema=CardData)] = Field(
        None,
        description="the game's cards in place of content.toml's [[card]] tables (its classes, specializations and "
                    "heroes kept): a cards file (.toml/.json with [[card]] tables; the command line only) or the "
                    "list of tables inline")
    board: int = Field(4, ge=3, le=8, description="tiles per side of the square board (4: the box's 4x4)")
    turn_limit: int = Field(200, ge=2, le=10_000,
                            description="turns before the game stops (the rulebook has no bound): the most HP wins")

    @field_validator("content")
    @classmethod
    def _content(cls, value: list[str | dict[str, Any]]) -> list[str | dict[str, Any]]:
        try:
            library(value)
        except CardFileError as exc:
            raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _decks(self) -> IvionOptions:
        try:
            lib = library(self.content, self.cards)
        except CardFileError as exc:  # the content's own cards checked against the edited ones
            raise ValueError(str(exc)) from None
        for seat, d in enumerate(self.decks):
            try:
                build(hero_from(d, lib, f"deck of seat {seat}"), lib)
            except CardFileError as exc:
                raise ValueError(str(exc)) from None
        return self
