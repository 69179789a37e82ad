"""JUNO's action space: one fixed list for every player count and variant.

- `play <card>` / `play <card> uno`: put a card down; the `uno` form calls UNO with it, and
  exists only for the card that leaves one card in hand ("Going out": calling UNO is part
  of playing the next-to-last card).
- `draw`: take a card from the DRAW pile (or, facing a stacked draw in serious, take it).
- `pass`: decline — keep the drawn card, end a serious stack, don't catch, accept a Wild Draw Four.
- `choose <color>`: the color that continues play after a Wild.
- `swap with seat N`: seven-o, the 7's hand trade.
- `catch`: catch a player who did not call UNO.
- `challenge`: challenge a Wild Draw Four (option wild_draw_four="challenge").
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from ...core.actions import Action, ActionSpace
from .cards import CARD_NAME, COLORS, NUM_TYPES

MAX_SEATS: Final = 10


class Kind(IntEnum):
    PLAY = 0
    DRAW = 1
    PASS = 2
    CHOOSE_COLOR = 3
    SWAP = 4
    CATCH = 5
    CHALLENGE = 6


class JunoAction(Action):
    __slots__ = ("kind", "card", "uno", "color", "seat")

    # Every JunoAction is one of the canonical objects of SPACE (built once below; pickling returns
    # them too), so equality by index is identity. Object identity compares in C, which keeps
    # `action in state.legal_actions()` off the Python-level __eq__ on the hot path.
    __eq__ = object.__eq__
    __hash__ = Action.__hash__

    def __init__(self, kind: Kind, card: int = 0, uno: bool = False, color: int = 0, seat: int = 0) -> None:
        self.kind = kind
        self.card = card
        self.uno = uno
        self.color = color
        self.seat = seat


def _build() -> list[tuple[JunoAction, str]]:
    out: list[tuple[JunoAction, str]] = []
    for t in range(NUM_TYPES):
        out.append((JunoAction(Kind.PLAY, card=t), f"play {CARD_NAME[t]}"))
        out.append((JunoAction(Kind.PLAY, card=t, uno=True), f"play {CARD_NAME[t]} uno"))
    out.append((JunoAction(Kind.DRAW), "draw"))
    out.append((JunoAction(Kind.PASS), "pass"))
    for c, name in enumerate(COLORS):
        out.append((JunoAction(Kind.CHOOSE_COLOR, color=c), f"choose {name}"))
    for s in range(MAX_SEATS):
        out.append((JunoAction(Kind.SWAP, seat=s), f"swap with seat {s}"))
    out.append((JunoAction(Kind.CATCH), "catch"))
    out.append((JunoAction(Kind.CHALLENGE), "challenge"))
    return out


SPACE: ActionSpace[JunoAction] = ActionSpace("juno", "JUNO", _build())
PLAY: Final = [[SPACE.actions[2 * t], SPACE.actions[2 * t + 1]] for t in range(NUM_TYPES)]  # PLAY[card][uno]
DRAW: Final = SPACE.parse("draw")
PASS: Final = SPACE.parse("pass")
CHOOSE: Final = [SPACE.parse(f"choose {c}") for c in COLORS]
SWAP: Final = [SPACE.parse(f"swap with seat {s}") for s in range(MAX_SEATS)]
CATCH: Final = SPACE.parse("catch")
CHALLENGE: Final = SPACE.parse("challenge")
