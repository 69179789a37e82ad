"""Resources: bounded pools, costs and payments that remember what to refund (issue 15, item 4).

A seat's pools are a plain dict on the state (`{"actions": 3, "power": 1}`), so they clone, save
and compare as JSON. Three ways a pool changes, told apart because rules treat them apart:

- `gain`: up to the pool's bound (Ivion: "you can never have more than 5 of each resource");
  what would go over is not gained;
- `pay`: a card's cost is spent and a `Payment` records exactly what was spent, so a
  meta-countered card refunds it (`refund`); spending is what removes control in Ivion;
- `lose`: an effect takes resources away (Ivion's stun): nothing is spent, nothing is refunded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class CannotPay(ValueError):
    """A cost the pools cannot cover; the message says what is missing."""


@dataclass(frozen=True)
class Payment:
    """What was spent on one thing (a card on the stack): refunded as it was paid."""

    seat: int
    spent: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "spent": [list(p) for p in self.spent]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Payment:
        return cls(int(data["seat"]), tuple((str(k), int(n)) for k, n in data["spent"]))

    def total(self, resource: str) -> int:
        return sum(n for k, n in self.spent if k == resource)


@dataclass(frozen=True)
class Pools:
    """The resource kinds of a game and their bound (None: unbounded)."""

    kinds: tuple[str, ...]
    bound: int | None = None

    def empty(self) -> dict[str, int]:
        return dict.fromkeys(self.kinds, 0)

    def gain(self, pools: dict[str, int], resource: str, amount: int) -> int:
        """Add up to `amount` of `resource`; returns what was gained (the bound cuts the rest)."""
        self._known(resource)
        room = amount if self.bound is None else max(0, self.bound - pools[resource])
        gained = max(0, min(amount, room))
        pools[resource] += gained
        return gained

    def lose(self, pools: dict[str, int], resource: str, amount: int) -> int:
        """Take away up to `amount` of `resource` (not a payment: nothing to refund); returns what
        was lost."""
        self._known(resource)
        lost = max(0, min(amount, pools[resource]))
        pools[resource] -= lost
        return lost

    def affords(self, pools: dict[str, int], cost: dict[str, int]) -> bool:
        """Whether `cost` can be paid (a rule asks it of every card in hand at every decision)."""
        for k, n in cost.items():
            if n > pools.get(k, 0):
                return False
        return True

    def can_pay(self, pools: dict[str, int], cost: dict[str, int]) -> str | None:
        """None when `cost` can be paid; else what is missing, for a person."""
        if self.affords(pools, cost):
            return None
        missing = [f"{n - pools.get(k, 0)} {k}" for k, n in cost.items() if n > pools.get(k, 0)]
        return f"short of {', '.join(missing)}"

    def pay(self, pools: dict[str, int], seat: int, cost: dict[str, int]) -> Payment:
        """Spend `cost` (all of it or nothing) and return the record of the payment."""
        for k in cost:
            self._known(k)
        why = self.can_pay(pools, cost)
        if why:
            raise CannotPay(why)
        for k, n in cost.items():
            pools[k] -= n
        return Payment(seat, tuple((k, n) for k, n in cost.items() if n))

    def refund(self, pools: dict[str, int], payment: Payment) -> int:
        """Give back what `payment` spent (a meta-countered card); returns how much came back. The
        bound holds here too (Ivion: "never more than 5"), so resources gained since the payment
        can leave part of a refund unreturned."""
        return sum(self.gain(pools, k, n) for k, n in payment.spent)

    def _known(self, resource: str) -> None:
        if resource not in self.kinds:
            raise KeyError(f"{resource!r} is not a resource here (resources: {', '.join(self.kinds)})")
