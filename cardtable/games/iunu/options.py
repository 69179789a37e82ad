"""IUNU options: `cardtable.make("iunu", players=2, variant="rise-of-aten", cards=None)`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from ...core.options import CardTable, GameOptions, card_file
from .cards import (
    DEFAULT_FILE,
    AfterlifeCard,
    CardSet,
    CitizenValues,
    canonical,
    card_set_from_mapping,
    default_card_set,
    read_card_file,
)

VARIANTS = ("standard", "rise-of-aten", "memphis-and-thebes")
HAND_SIZE = 4   # Setup 4
FORUM_SIZE = 5  # Setup 4
HELIOPOLIS_START = 4  # Memphis and Thebes, Setup


def _checked_cards(cards: Any) -> Any:
    card_set_from_mapping(cards, source="cards option")
    return canonical(cards)


class IunuOptions(GameOptions):
    players: int = Field(2, ge=2, le=4, description="2 to 4 players (the solo sheet is not in the rulebook)")
    variant: Literal["standard", "rise-of-aten", "memphis-and-thebes"] = Field(
        "standard", description="2 players only: rise-of-aten (Forum variant) or memphis-and-thebes (Heliopolis)"
    )
    cards: Annotated[dict[str, Any] | None, card_file(read_card_file, _checked_cards, base=DEFAULT_FILE, tables={
        "citizens": CardTable(CitizenValues, "citizen", fixed="the nine Citizen types are the rulebook's (their "
                              "abilities are rules): change their numbers, none is added or taken out"),
        "afterlife": CardTable(AfterlifeCard, "afterlife card"),
    })] = Field(
        None, description="your own card values: a TOML/JSON file path or a mapping like cards.toml"
    )

    @model_validator(mode="after")
    def _check(self) -> IunuOptions:
        if self.variant != "standard" and self.players != 2:
            raise ValueError(f"the {self.variant} variant is for 2 players (the rulebook's 2-player variants)")
        need = self.players * HAND_SIZE + FORUM_SIZE + (HELIOPOLIS_START if self.variant == "memphis-and-thebes" else 0)
        size = self.card_set().deck_size
        if size <= need:
            raise ValueError(
                f"the Citizen deck has {size} cards; {self.players} players need more than {need} "
                "(4-card hands and a Forum of 5, plus Heliopolis' 4 in memphis-and-thebes)"
            )
        return self

    def card_set(self) -> CardSet:
        return default_card_set() if self.cards is None else card_set_from_mapping(self.cards, "cards option")
