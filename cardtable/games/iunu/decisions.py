"""IUNU's pending decisions. The top of the stack owns the current player and the legal actions.

Each is immutable (clones share them) and knows its JSON form. Rule references are to
../shared/rules/iunu.txt.
"""

from __future__ import annotations

from ...core.state import Decision, decision_reader


class PharaohReroll(Decision):
    """PHARAOH: "you may roll one of the dice again at the start of your turn"."""

    __slots__ = ()
    kind = "pharaoh_reroll"


class PlayCitizen(Decision):
    """DYNASTY PHASE: the active player must play 1 Citizen card."""

    __slots__ = ()
    kind = "play"


class SecondCard(Decision):
    """DYNASTY PHASE: "may then also play exactly 1 additional card of the same type" for 1 Deben."""

    __slots__ = ("citizen",)
    kind = "second_card"
    fields = ("citizen",)

    def __init__(self, seat: int, citizen: int) -> None:
        super().__init__(seat)
        self.citizen = citizen


class UseAbility(Decision):
    """Noble or Merchant: use the Special Ability or not."""

    __slots__ = ("citizen",)
    kind = "use_ability"
    fields = ("citizen",)

    def __init__(self, seat: int, citizen: int) -> None:
        super().__init__(seat)
        self.citizen = citizen


class ScribeTuck(Decision):
    """SCRIBE: pay 1 Deben to put a card from hand under the Scribe, then draw 1."""

    __slots__ = ()
    kind = "scribe"


class PriestDie(Decision):
    """PRIEST: choose one die; draw that many Afterlife cards, paying its value in Debens."""

    __slots__ = ()
    kind = "priest_die"


class PriestKeep(Decision):
    """PRIEST: keep one drawn card, or (holding one) the current card. `drawn` is hidden from others."""

    __slots__ = ("die", "drawn")
    kind = "priest_keep"
    fields = ("die", "drawn")

    def __init__(self, seat: int, die: int, drawn: tuple[int, ...]) -> None:
        super().__init__(seat)
        self.die = die
        self.drawn = drawn


class SoldierSteal(Decision):
    """SOLDIER: "You may steal 1 Farmer (without a Bread token on it) from another player"."""

    __slots__ = ()
    kind = "soldier"


class Tribute(Decision):
    """SOLDIER: the victim (this seat, not the active player) may pay 1 Deben to the thief instead."""

    __slots__ = ("thief",)
    kind = "tribute"
    fields = ("thief",)

    def __init__(self, seat: int, thief: int) -> None:
        super().__init__(seat)
        self.thief = thief


class Bake(Decision):
    """BAKER: buy up to 3 Bread at `price` each, one at a time, each on a Citizen without Bread."""

    __slots__ = ("price", "baked")
    kind = "bake"
    fields = ("price", "baked")

    def __init__(self, seat: int, price: int, baked: int) -> None:
        super().__init__(seat)
        self.price = price
        self.baked = baked


class ArtisanDiscount(Decision):
    """ARTISAN: pay 1 Deben per Artisan to place one fewer card in the Forum (`least` to `most`)."""

    __slots__ = ("least", "most")
    kind = "artisan"
    fields = ("least", "most")

    def __init__(self, seat: int, least: int, most: int) -> None:
        super().__init__(seat)
        self.least = least
        self.most = most


class PlaceCard(Decision):
    """REJUVENATION 1: place cards from hand face up in the Forum, one at a time."""

    __slots__ = ("remaining", "placed")
    kind = "place"
    fields = ("remaining", "placed")

    def __init__(self, seat: int, remaining: int, placed: int) -> None:
        super().__init__(seat)
        self.remaining = remaining
        self.placed = placed


class TakeCard(Decision):
    """REJUVENATION 1: take other cards from the Forum; the last `fresh` Forum cards were just placed."""

    __slots__ = ("remaining", "fresh")
    kind = "take"
    fields = ("remaining", "fresh")

    def __init__(self, seat: int, remaining: int, fresh: int) -> None:
        super().__init__(seat)
        self.remaining = remaining
        self.fresh = fresh


decision_from_json = decision_reader(
    PharaohReroll, PlayCitizen, SecondCard, UseAbility, ScribeTuck, PriestDie, PriestKeep, SoldierSteal,
    Tribute, Bake, ArtisanDiscount, PlaceCard, TakeCard,
)
