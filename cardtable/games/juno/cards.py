"""JUNO cards as small integers, and the decks of each rule set.

A card type is `color * 13 + rank` for colored cards (ranks 0-9, Skip, Reverse, Draw Two)
and 52 / 53 for Wild / Wild Draw Four. Cards of one type are interchangeable, so hands and
piles are lists of these integers and nothing is ever mutated on a card (a Wild's chosen
color lives in the state, not on the card: STYLE.md, "mutating shared card objects").
"""

from __future__ import annotations

from typing import Final

COLORS = ("red", "yellow", "green", "blue")
RED, YELLOW, GREEN, BLUE = range(4)
NO_COLOR: Final = 4  # wild cards

SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
WILD_RANK: Final = 13
WILD_DRAW_FOUR_RANK: Final = 14
RANK_NAMES = tuple(str(n) for n in range(10)) + ("skip", "reverse", "draw two", "wild", "wild draw four")

WILD: Final = 52
WILD_DRAW_FOUR: Final = 53
NUM_TYPES: Final = 54


def card_type(color: int, rank: int) -> int:
    return color * 13 + rank


CARD_COLOR: Final[tuple[int, ...]] = tuple(t // 13 for t in range(52)) + (NO_COLOR, NO_COLOR)
CARD_RANK: Final[tuple[int, ...]] = tuple(t % 13 for t in range(52)) + (WILD_RANK, WILD_DRAW_FOUR_RANK)
CARD_NAME: Final[tuple[str, ...]] = tuple(f"{COLORS[t // 13]} {RANK_NAMES[t % 13]}" for t in range(52)) + (
    "wild",
    "wild draw four",
)
CARD_BY_NAME: dict[str, int] = {name: t for t, name in enumerate(CARD_NAME)}

# Scoring (rulebook, "Scoring"): numbers at face value; Draw Two, Reverse, Skip 20; wilds 50.
CARD_POINTS: Final[tuple[int, ...]] = tuple(r if r < 10 else 20 for r in CARD_RANK[:52]) + (50, 50)
# Choosing the dealer (rulebook, "Setup" 1): "count any card with a symbol as zero".
DEALER_VALUE: tuple[int, ...] = tuple(r if r < 10 else 0 for r in CARD_RANK[:52]) + (0, 0)
IS_NUMBER: tuple[bool, ...] = tuple(r < 10 for r in CARD_RANK)


def standard_deck(variant: str) -> list[int]:
    """Counts per card type (index = type). NOTES.md gives the three compositions."""
    counts = [0] * NUM_TYPES
    for color in range(4):
        counts[card_type(color, 0)] = 1
        for rank in range(1, 13):  # 1-9, Skip, Reverse, Draw Two: two each per color
            counts[card_type(color, rank)] = 2
    counts[WILD] = 4
    counts[WILD_DRAW_FOUR] = 4
    if variant == "seven-o":  # "added 4 zero cards and 4 seven cards (1 for each color)": 116
        for color in range(4):
            counts[card_type(color, 0)] += 1
            counts[card_type(color, 7)] += 1
    elif variant == "serious":  # "added 8 reverse, 8 skip, 8 draw +2 (2 per color), 4 wild and 4 wild draw +4": 140
        for color in range(4):
            for rank in (SKIP, REVERSE, DRAW_TWO):
                counts[card_type(color, rank)] += 2
        counts[WILD] += 4
        counts[WILD_DRAW_FOUR] += 4
    return counts


_EXPANDED: dict[tuple[int, ...], tuple[int, ...]] = {}


def expand(counts: list[int]) -> list[int]:
    """A new list of the deck's cards, in card-type order (made once per composition: every deal
    starts from it)."""
    key = tuple(counts)
    cards = _EXPANDED.get(key)
    if cards is None:
        if len(_EXPANDED) >= 64:  # custom decks are few; never let the memo grow without bound
            _EXPANDED.clear()
        cards = _EXPANDED[key] = tuple(t for t, n in enumerate(counts) for _ in range(n))
    return list(cards)
