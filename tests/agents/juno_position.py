"""A precise JUNO position for the agent tests: hands, piles, color and the pending decision.

Cards are written by name ("red 7", "wild draw four"); a pile is listed bottom to top."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.core.state import Decision
from cardtable.games.juno.cards import CARD_BY_NAME, CARD_COLOR, COLORS
from cardtable.games.juno.decisions import Turn
from cardtable.games.juno.game import Juno
from cardtable.games.juno.state import JunoState


def juno(**options: Any) -> Juno:
    options.setdefault("match", False)
    game = cardtable.make("juno", **options)
    assert isinstance(game, Juno)
    return game


def cards(names: str) -> list[int]:
    return [CARD_BY_NAME[" ".join(n.split()).lower()] for n in names.split(",") if n.strip()]


def position(
    game: Juno,
    hands: list[str],
    discard: str = "red 5",
    draw: str = "green 1, green 2, green 3, green 4, yellow 1, yellow 2",
    color: str | None = None,
    turn: int = 0,
    pending: list[Decision] | None = None,
) -> JunoState:
    state = game.new_state(seed=1)
    state.hands = [cards(h) for h in hands]
    state.discard = cards(discard)
    state.draw = cards(draw)
    state.color = COLORS.index(color) if color is not None else CARD_COLOR[state.discard[-1]]
    state.direction = 1
    state.turn = turn
    state.pending = [Turn(turn)] if pending is None else list(pending)
    state.penalty = 0
    state.skips = 0
    state.events = []
    state._legal = None
    return state
