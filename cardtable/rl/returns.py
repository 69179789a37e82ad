"""The range of a game's returns, for spaces and OpenSpiel's GameInfo."""

from __future__ import annotations

from typing import Any

from ..core.game import Game


def return_range(game: Game[Any]) -> tuple[float, float]:
    """(lowest, highest) return of one seat.

    A game whose returns are not `zero_sum_returns` declares `return_range` on its Game class.
    For `zero_sum_returns` the winners get +1 each and the losers share the cost, so the lowest
    is one loser paying every other seat: -(players - 1)."""
    declared = getattr(game, "return_range", None)
    if declared is not None:
        lo, hi = declared() if callable(declared) else declared
        return float(lo), float(hi)
    return -float(game.players - 1), 1.0
