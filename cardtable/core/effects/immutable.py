"""`evolve`: a changed copy of one of the effect layer's immutable records (records.py).

Its own module so that it is compiled (cardtable/_native.py) while records.py cannot be: an effect
sequence makes a new `Sequence` at every step (`Effects._work`, `_push`), so the compiled layer
would otherwise call into the interpreter at every step (bench/README.md, issue 37)."""

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
