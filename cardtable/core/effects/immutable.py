"""`evolve`: a changed copy of a record that keeps its fields in its `__dict__`, a plain Python
class (the response stack's items and chain, chain.py; Ivion's card being played; Zun's runes).

Its own module, compiled (cardtable/_native.py). The effect layer's native records (records.py)
have no `__dict__`: they change by methods of their own (`Sequence.with_work`)."""

from __future__ import annotations

from typing import Any, TypeVar

R = TypeVar("R")


def evolve(record: R, **changes: Any) -> R:
    """A copy of the immutable `record` with `changes` (what `dataclasses.replace` does, without
    calling `__init__` again: pending work changes at every step of an effect, and the records
    are the engine's own, already checked)."""
    values = record.__dict__.copy()  # a copy of the fields, then the changes (cheaper than filling an empty dict)
    values.update(changes)
    new = object.__new__(type(record))
    object.__setattr__(new, "__dict__", values)
    return new
