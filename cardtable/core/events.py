"""Events: what happened, and who may see it.

A transition may emit events (`played`, `drew`, `color_chosen` ...). Each event is public
(`to is None`) or visible only to the listed seats. Recording can be switched off for speed:
the state then holds `events = None` and games skip building them.
"""

from __future__ import annotations

from typing import Any


class Event:
    __slots__ = ("kind", "data", "to")

    def __init__(self, kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        self.kind = kind
        self.data = data
        self.to = to

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.to is not None:
            out["to"] = list(self.to)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        data = dict(data)
        kind = data.pop("kind")
        to = data.pop("to", None)
        return cls(kind, data, tuple(to) if to is not None else None)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.kind, self.data, self.to) == (other.kind, other.data, other.to)

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r}, to={self.to!r})"
