"""The seeded random generator carried inside every game state.

A state must clone cheaply, serialize to JSON exactly and never touch a global RNG
(DESIGN.md, "Randomness lives in the state"). Python's Mersenne Twister carries 625
words of state, which makes clones and JSON heavy, so the state carries a SplitMix64
generator instead: one 64-bit integer, deterministic on every platform.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableSequence
from typing import Any, Final, TypeVar

from .fisher_yates import swap_down

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
# Shuffles of at least this many items draw their numbers with numpy (`Rng._shuffle_vector`);
# below it numpy's per-call cost outweighs the loop it saves.
_VECTOR_MIN: Final = 24
_LITTLE_ENDIAN: Final = sys.byteorder == "little"
_VECTOR_TABLES: dict[int, tuple[Any, Any]] = {}  # per length: the draws' offsets and the bounds i + 1


class Rng:
    """SplitMix64 (Steele, Lea and Flood, 2014). `state` is the whole generator."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
        self.state = seed & _MASK

    def next64(self) -> int:
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) by multiply-shift (bias below n / 2**64)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        return (self.next64() * n) >> 64

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: item i swaps with `below(i + 1)`, from the last item down.

        `next64` and `below` are inlined (the same numbers, about twice as fast): shuffles are
        most of the cost of dealing a game. A deck-sized shuffle draws its numbers with numpy."""
        if len(items) >= _VECTOR_MIN:
            self._shuffle_vector(items)
            return
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s

    def _shuffle_vector(self, items: MutableSequence[T]) -> None:
        """`shuffle` with the generator's numbers computed at once in numpy's uint64 arithmetic
        (which wraps modulo 2**64 as the masks do): the swaps and the generator's final state are
        exactly the scalar loop's (tests/core/test_rng.py), three times faster for a deck.

        The k-th draw is SplitMix64 of `state + k * golden`; `below(i + 1)` is the high 64 bits
        of `z * (i + 1)`, computed from z's 32-bit halves since numpy has no 128-bit product
        (exact while i + 1 < 2**32)."""
        import numpy as np

        n = len(items)
        tables = _VECTOR_TABLES.get(n)
        if tables is None:
            steps = np.arange(1, n, dtype=np.uint64)
            with np.errstate(over="ignore"):
                tables = _VECTOR_TABLES[n] = (steps * np.uint64(_GOLDEN), np.arange(n, 1, -1, dtype=np.uint64))
        offsets, bounds = tables
        u = np.uint64
        with np.errstate(over="ignore"):  # in place: each numpy call costs more than its arithmetic
            z = offsets + u(self.state)
            z ^= z >> u(30)
            z *= u(0xBF58476D1CE4E5B9)
            z ^= z >> u(27)
            z *= u(0x94D049BB133111EB)
            z ^= z >> u(31)
            if _LITTLE_ENDIAN:  # z's 32-bit halves as views: low, high, low, high ...
                halves = z.view(np.uint32)
                high = bounds * halves[1::2]
                high += (bounds * halves[0::2]) >> u(32)
            else:
                high = (z >> u(32)) * bounds + (((z & u(0xFFFFFFFF)) * bounds) >> u(32))
            high >>= u(32)
        picks = high.tolist()
        if type(items) is list:
            swap_down(items, picks)
        else:
            i = n - 1
            for j in picks:
                items[i], items[j] = items[j], items[i]
                i -= 1
        self.state = (self.state + _GOLDEN * (n - 1)) & _MASK

    def shuffled_pops(self, items: list[T]) -> Iterator[T]:
        """What `shuffle(items)` followed by repeated `items.pop()` gives, computed lazily.

        Fisher-Yates fixes the last position first, so the k-th card popped needs only the
        k-th swap: drawing a few cards off a freshly shuffled deck costs a few draws instead of
        a whole shuffle. The generator advances at once exactly as the full shuffle does (a
        SplitMix64 state moves by a constant per draw), so everything after is unchanged.
        `items` is consumed."""
        start = self.state
        n = len(items)
        self.state = (start + _GOLDEN * max(n - 1, 0)) & _MASK
        return self._pops(items, start)

    @staticmethod
    def _pops(items: list[T], s: int) -> Iterator[T]:
        while items:
            i = len(items) - 1
            if i:
                s = (s + _GOLDEN) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                j = ((z ^ (z >> 31)) * (i + 1)) >> 64
                items[i], items[j] = items[j], items[i]
            yield items.pop()

    def spawn(self) -> Rng:
        """An independent stream (for search and determinization), advancing this one."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"


def as_rng(rng: Rng | int | None) -> Rng:
    """Accept an Rng or an integer seed; None gives a fixed seed (never the clock)."""
    if isinstance(rng, Rng):
        return rng
    return Rng(0 if rng is None else rng)
