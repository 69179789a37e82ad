"""The response stack's records (cardtable/core/effects/stack.py): a played card waiting to resolve
(`StackItem`) and the stack of them (`Chain`).

Interpreted (cardtable/_native.py), unlike records.py: an item changes in place through its
`__dict__` (`ResponseStack.change_top`, `evolve`), games extend `StackItem` with items of their own
(Runes of Zun's `Resolving`), and a game's `Chain` is a class made when the game is
(`_chain_record`), none of which a compiled class allows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..resources import Payment
from .immutable import evolve


@dataclass
class StackItem:
    """A played card waiting to resolve: its card, owner and controller, targets, what was paid.

    Unlike the other pending records, an item changes in place: a card's progress changes at
    nearly every decision while it resolves (Runes of Zun: target by target), and a new record for
    each change cost Zun a quarter of its speed. So an item belongs to one state: only the stack's
    methods (`change_top`, `counter`) and its game change it, only while it is on this state's stack,
    and `Chain.copy` copies the items for a clone."""

    card: int
    owner: int
    controller: int
    targets: tuple[int, ...] = ()
    payment: Payment | None = None
    countered: bool = False

    def to_json(self) -> dict[str, Any]:
        """Every field (a game's subclass adds its own): tuples as lists, the payment as its JSON."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.to_json() if isinstance(value, Payment) else list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StackItem:
        values: dict[str, Any] = {}
        for f in fields(cls):
            value = data[f.name]
            if f.name == "payment":
                value = None if value is None else Payment.from_json(value)
            elif isinstance(value, list):
                value = tuple(value)
            values[f.name] = value
        return cls(**values)


@dataclass(frozen=True)
class Chain:
    """The response stack: unresolved cards, the last played last."""

    items: tuple[StackItem, ...] = ()
    #: the class of its items (a game's subclass of `StackItem`: `_chain_record`), for its JSON
    item: ClassVar[type[StackItem]] = StackItem

    def to_json(self) -> dict[str, Any]:
        return {"items": [i.to_json() for i in self.items]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Chain:
        return cls(tuple(cls.item.from_json(i) for i in data["items"]))

    def copy(self) -> Chain:
        """For a clone: the items change in place (`StackItem`), so a clone has its own."""
        if not self.items:
            return self
        return evolve(self, items=tuple(evolve(i) for i in self.items))


def _chain_record(item: type[StackItem]) -> type[Chain]:
    """`Chain` of a game whose stack items carry more (a subclass of `StackItem`)."""
    if item is StackItem:
        return Chain
    game_chain: type[Chain] = type("GameChain", (Chain,), {"item": item, "__doc__": Chain.__doc__})
    return game_chain
