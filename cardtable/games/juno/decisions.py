"""JUNO's pending decisions. The top of the stack owns the current player and the legal actions.

Each is immutable (clones share them) and knows its JSON form.
"""

from __future__ import annotations

from ...core.state import Decision, decision_reader


class Turn(Decision):
    """A player's turn: play a matching card or draw (facing a serious stack: stack or take it)."""

    __slots__ = ()
    kind = "turn"


class AfterDraw(Decision):
    """The card just drawn may be played ("Let's play": playable drawn card) or kept."""

    __slots__ = ("card",)
    kind = "after_draw"
    fields = ("card",)

    def __init__(self, seat: int, card: int) -> None:
        super().__init__(seat)
        self.card = card


class StackMore(Decision):
    """Serious: add another card of the same value to this play (at most 3 in one play)."""

    __slots__ = ("rank", "count")
    kind = "stack"
    fields = ("rank", "count")

    def __init__(self, seat: int, rank: int, count: int) -> None:
        super().__init__(seat)
        self.rank = rank
        self.count = count


class ChooseColor(Decision):
    """After a Wild (or a Wild turned up to start: `opening`), the color that continues play."""

    __slots__ = ("opening",)
    kind = "choose_color"
    fields = ("opening",)

    def __init__(self, seat: int, opening: bool = False) -> None:
        super().__init__(seat)
        self.opening = opening


class SwapHands(Decision):
    """Seven-o: the player of a 7 trades hands with a player of their choice."""

    __slots__ = ()
    kind = "swap"


class Challenge(Decision):
    """Challenge rule: the next player may challenge the Wild Draw Four just played."""

    __slots__ = ("offender", "prev_color")
    kind = "challenge"
    fields = ("offender", "prev_color")

    def __init__(self, seat: int, offender: int, prev_color: int) -> None:
        super().__init__(seat)
        self.offender = offender
        self.prev_color = prev_color


class Catch(Decision):
    """The catch window: `target` did not call UNO; each other seat in turn may catch them."""

    __slots__ = ("target", "rest")
    kind = "catch"
    fields = ("target", "rest")

    def __init__(self, seat: int, target: int, rest: tuple[int, ...]) -> None:
        super().__init__(seat)
        self.target = target
        self.rest = rest


decision_from_json = decision_reader(Turn, AfterDraw, StackMore, ChooseColor, SwapHands, Challenge, Catch)
