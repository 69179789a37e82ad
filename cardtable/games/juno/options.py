"""JUNO options: `cardtable.make("juno", players=4, variant="classic", match=False, ...)`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_serializer, model_validator

from ...core.errors import CardFileError
from ...core.options import GameOptions, card_file
from .cards import standard_deck
from .decks import DECK_FILE, DeckCard, check_playable, counts_from_names, deck_from_mapping, load_deck_file


class JunoOptions(GameOptions):
    players: int = Field(4, ge=2, le=10, description="2 to 10 players")
    variant: Literal["classic", "seven-o", "serious"] = "classic"
    match: bool = Field(True, description="play rounds until someone reaches the target; False: a single round")
    target: int = Field(500, ge=1, description="match points to win (rulebook: 500)")
    wild_draw_four: Literal["enforced", "challenge"] = Field(
        "enforced",
        description="enforced: the engine allows Wild Draw Four only without a card of the color in play; "
        "challenge: the public challenge rule",
    )
    hand_size: int | None = Field(None, ge=1, le=30, description="cards dealt; default 7 (serious: 11)")
    # card by card ([[card]] tables: name, copies), the classic deck is the designers' lab's base
    deck: Annotated[dict[str, int] | None,
                    card_file(load_deck_file, deck_from_mapping, noun="card", base=DECK_FILE, schema=DeckCard)] = Field(
        None, description="custom deck: a file path, {card: count} tables or a list of [[card]] tables")

    @field_serializer("deck")
    def _deck_as_file(self, deck: dict[str, int] | None) -> dict[str, Any] | None:
        # Written as a deck file's `cards` table, so saved options (replays, saved states, the
        # server's tables) make the same game again.
        return None if deck is None else {"cards": dict(deck)}

    @model_validator(mode="after")
    def _check(self) -> JunoOptions:
        if self.variant == "serious" and self.wild_draw_four == "challenge":
            raise ValueError(
                "the challenge rule is not available with serious stacking (a stacked Wild Draw Four is answered by "
                "stacking or drawing); use wild_draw_four='enforced'"
            )
        try:
            check_playable(self.card_counts(), self.players, self.cards_dealt(), "custom deck" if self.deck else "deck")
        except CardFileError as exc:
            raise ValueError(str(exc)) from None
        return self

    def cards_dealt(self) -> int:
        if self.hand_size is not None:
            return self.hand_size
        return 11 if self.variant == "serious" else 7  # serious: "Each player starts with 11 cards"

    def card_counts(self) -> list[int]:
        return counts_from_names(self.deck) if self.deck is not None else standard_deck(self.variant)
