"""The planes encoding (`encoding="planes"` in every RL interface), derived from any game's encoder.

A game's encoder gives counts: how many of each card type I hold (0..4 in JUNO), scores, pile
sizes. RLCard encodes UNO's hand as binary planes instead: for each card type, one plane each
for 0, 1 and 2 copies held, exactly one of them set. `Planes` does that for any encoder, piece
by piece, from its layout alone:

- a piece of whole numbers whose largest value `high` is 2..`PLANES_CAP` (JUNO's hand and
  DISCARD pile, Iuno Avatar's gems on a figure) becomes one-hot planes over 0..high: shape
  `shape + (high + 1,)`, the plane of its value set;
- a piece whose values are at most 1 (flags, one-hots, ratios) is kept as it is;
- any other piece (a larger count: scores, pile sizes, hit points; or a ratio) is divided by its
  `high`, as `normalize=True` divides it.

So every value lies in [0, 1], the planes are binary, and the map is one-to-one (`to_counts`
gives the counts back). A game whose pieces all have `high` 1 or above `PLANES_CAP` (IUNU, Zun
and Ivion today) gets what `normalize=True` gives, value for value.

The transform is an index map built once: the planed count elements (gathered by one index
array) each set the plane at their plane 0 plus the count, in one scatter over the whole
encoding or batch; the other pieces, merged into runs of adjacent ones, are divided by their
`high` straight into place, one numpy call a run. So its cost grows with the number of runs
(JUNO: 3), not with the number of pieces: one JUNO encoding ~5 us, a batch of 16 ~17 us (JUNO's
`encode_state` itself: ~3.5 us an encoding, the same run; 2026-11-28, a loaded machine).
"""

from __future__ import annotations

import numpy as np

from ...core.encoder import Encoder, Piece, layout_table, layout_views

#: the largest `high` a piece may have to become one-hot planes (RLCard's UNO: 2 copies; JUNO's
#: deck has up to 4 of a card type). A count that can reach more (a hand of 9 Citizens, 12 hit
#: points) is divided by its `high` instead: 10 or more planes per element would make the encoding
#: larger than the signal warrants.
PLANES_CAP = 4


def planed(piece: Piece) -> bool:
    """Whether `piece` becomes one-hot planes: whole numbers with a `high` of 2..PLANES_CAP."""
    high = piece.high
    return piece.whole and not isinstance(high, tuple) and float(high).is_integer() and 2 <= high <= PLANES_CAP


class Planes:
    """The planes layout of `encoder` (module docstring): `from_counts`, `to_counts`, `views` and
    `describe` as the encoder's own layout has them."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.layout: list[Piece] = []
        self.offsets: dict[str, slice] = {}
        planed_source: list[np.ndarray] = []  # the count elements that become planes
        planed_first: list[np.ndarray] = []  # the position of each one's plane 0
        # runs of adjacent pieces kept or divided: counts slice, planes slice, divisors
        self._runs: list[tuple[slice, slice, np.ndarray]] = []
        source: list[np.ndarray] = []  # to_counts: the count element each planes value comes from,
        weight: list[np.ndarray] = []  # and what it is multiplied by: its plane's count, or the divisor
        at = 0
        for p in encoder.layout:
            n, src = p.size, encoder.offsets[p.name]
            if planed(p):
                levels = int(p.top) + 1
                piece = Piece(p.name, (*p.shape, levels), 1, f"{p.doc}; one-hot over 0..{levels - 1}")
                planed_source.append(np.arange(src.start, src.stop))
                planed_first.append(at + levels * np.arange(n))
                source.append(np.repeat(np.arange(src.start, src.stop), levels))
                weight.append(np.tile(np.arange(levels, dtype=np.float64), n))
            else:
                divisors = np.maximum(p.highs, 1.0)  # what normalize divides by (normalize_scale)
                kept = bool((divisors == 1).all())
                doc = p.doc if kept else f"{p.doc}; divided by {p.bound_text()}"
                high = tuple(min(float(h), 1.0) for h in p.high) if isinstance(p.high, tuple) else min(float(p.high), 1.0)
                piece = Piece(p.name, p.shape, high, doc, p.whole and kept)
                last = self._runs[-1] if self._runs else None
                if last is not None and last[0].stop == src.start and last[1].stop == at:
                    self._runs[-1] = (slice(last[0].start, src.stop), slice(last[1].start, at + n),
                                      np.concatenate([last[2], divisors]))
                else:
                    self._runs.append((src, slice(at, at + n), divisors))
                source.append(np.arange(src.start, src.stop))
                weight.append(divisors.astype(np.float64))
            self.layout.append(piece)
            self.offsets[p.name] = slice(at, at + piece.size)
            at += piece.size
        self.size = at
        self.high = np.concatenate([p.highs for p in self.layout])
        self._planed_source = np.concatenate(planed_source or [np.zeros(0)]).astype(np.intp)
        self._planed_first = np.concatenate(planed_first or [np.zeros(0)]).astype(np.intp)
        self._batch_first: dict[int, np.ndarray] = {}  # rows -> plane 0 of every planed element, flat
        self._source = np.concatenate(source).astype(np.intp)
        self._weight = np.concatenate(weight)

    def from_counts(self, counts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The planes of an encoding (`encoder.size` values) or of a batch of them (rows),
        written into `out` when given (C-contiguous, `size` values a row)."""
        counts = np.asarray(counts, np.float32)
        if out is None:
            out = np.zeros((*counts.shape[:-1], self.size), np.float32)
        elif not out.flags.c_contiguous:
            raise ValueError("Planes.from_counts writes into a C-contiguous array only")
        else:
            out.fill(0.0)
        for src, dst, divisors in self._runs:
            np.divide(counts[..., src], divisors, out=out[..., dst])
        if self._planed_source.size:
            # plane 0 plus the count: the plane set (a count of the encoder is a whole number 0..high)
            first = self._first(counts.shape[0] if counts.ndim == 2 else 0)
            where = np.take(counts, self._planed_source, axis=-1).astype(first.dtype, copy=False)
            where += first
            out.reshape(-1)[where.astype(np.intp)] = 1.0
        return out

    def _first(self, rows: int) -> np.ndarray:
        """Plane 0 of every planed element, as flat positions in a batch of `rows` (0: one encoding):
        float32, which adds whole numbers exactly below 2^24 and is cheaper, or float64 past that."""
        first = self._batch_first.get(rows)
        if first is None:
            positions = self._planed_first if not rows else self._planed_first + self.size * np.arange(rows)[:, None]
            exact = np.float32 if max(rows, 1) * self.size < 1 << 24 else np.float64
            first = self._batch_first[rows] = positions.astype(exact)
        return first

    def to_counts(self, planes: np.ndarray) -> np.ndarray:
        """The counts encoding (or batch of them) that `from_counts` turned into `planes`."""
        planes = np.asarray(planes, np.float64)
        rows = planes.reshape(-1, self.size).shape[0]
        n = self.encoder.size
        source = (self._source + n * np.arange(rows, dtype=np.intp)[:, None]).ravel()
        counts = np.bincount(source, weights=(planes.reshape(rows, -1) * self._weight).ravel(), minlength=rows * n)
        return counts.astype(np.float32).reshape(*planes.shape[:-1], n)

    def views(self, array: np.ndarray) -> dict[str, np.ndarray]:
        return layout_views(self.layout, self.offsets, array)

    def describe(self) -> str:
        """The planes layout as a Markdown table, like the encoder's `describe()`."""
        return layout_table(self.layout, self.offsets)
