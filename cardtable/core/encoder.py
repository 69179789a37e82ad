"""The observation encoder's base: a seat's `observation(seat)` dict -> a fixed-size float32 array.

An encoder reads only the JSON dict that `state.observation(seat)` returns (DESIGN.md,
"Hidden information is one function"), never the state, so an RL agent cannot see more
than a person in that seat. Each game has its own documented encoder in its package
(`cardtable/games/<game>/encoder.py`), named by its spec; `docs/rl.md` lists every layout.
It lives in the core because the games write their encoders against it and the games import
only the core (STYLE.md principle 14); the RL adapters (`cardtable/rl`) find and use them.

The layout is a list of named pieces, like OpenSpiel's observers: `Encoder.views(array)`
gives each piece as a reshaped view of one flat array.
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .game import Game
from .state import State


@dataclass(frozen=True)
class Piece:
    """One named part of an encoding: `shape`, the largest value it can hold, what it means, and
    whether its values are `whole` numbers (counts, flags, one-hots; False for a ratio such as
    points / target): the RL adapters' planes encoding one-hots a whole piece with a small `high`
    (`cardtable/rl/encoders/planes.py`), which would lose the fraction of a ratio.

    `high` is one bound for the whole piece, or a tuple with the bound of each field along the last
    axis, for a piece whose rows mix fields of different ranges (Ivion's hero: HP up to the largest
    hero's, flags, resources up to 5): `normalize` divides each field by its own bound, so a flag is not divided
    by the piece's largest count."""

    name: str
    shape: tuple[int, ...]
    high: float | tuple[float, ...]
    doc: str
    whole: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.high, tuple) and len(self.high) != self.shape[-1]:
            raise ValueError(f"piece {self.name!r}: {len(self.high)} bounds for {self.shape[-1]} fields")

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def highs(self) -> np.ndarray:
        """Each value's bound, flat, in the piece's order (float32)."""
        bound = np.asarray(self.high, np.float32)
        return np.broadcast_to(bound, self.shape).ravel()

    @property
    def top(self) -> float:
        """The piece's largest bound."""
        return float(max(self.high)) if isinstance(self.high, tuple) else float(self.high)

    def bound_text(self) -> str:
        """The bound as the layout tables print it: one number, or the fields' bounds in order, a
        run of equal bounds as `bound×fields` ("1×49/99×2/1×7")."""
        if not isinstance(self.high, tuple):
            return f"{self.high:g}"
        runs: list[list[float]] = []
        for h in self.high:
            if runs and runs[-1][0] == h:
                runs[-1][1] += 1
            else:
                runs.append([h, 1])
        return "/".join(f"{h:g}" if n == 1 else f"{h:g}×{n:g}" for h, n in runs)


class Encoder:
    """Base of every game's encoder. Subclasses give `pieces(game)` and `fill(obs, buf)`, and name
    in `private` the pieces only the seat itself sees (its hand), and in `transient` the public
    pieces that show a chance outcome for one decision only (a die roll): OpenSpiel's
    information-state tensor records how both changed at each decision (the card drawn, the die
    rolled), for perfect recall.

    `fill` writes at `self.at[name]` (the piece's first index) into a zeroed `array('f')` that the
    encoder reuses, copied into one new float32 array at the end: on the RL hot path,
    per-element numpy writes and small numpy calls cost more than the whole encoding, and so
    does converting a Python list of floats (4-8 us for a few hundred values)."""

    #: names of the pieces only the observing seat sees (cardtable/rl/openspiel.py)
    private: tuple[str, ...] = ()
    #: names of public pieces that show a chance outcome only until the next decision (Iuno
    #: Avatar's die roll): the information-state tensor records their changes too, or a seat
    #: would forget what it saw rolled
    transient: tuple[str, ...] = ()

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.layout: list[Piece] = self.pieces(game)
        self.offsets: dict[str, slice] = {}
        self.at: dict[str, int] = {}
        at = 0
        for p in self.layout:
            if p.name in self.offsets:
                raise ValueError(f"duplicate piece {p.name!r} in {type(self).__name__}")
            self.offsets[p.name] = slice(at, at + p.size)
            self.at[p.name] = at
            at += p.size
        self.size = at
        for attribute in ("private", "transient"):
            unknown = [name for name in getattr(self, attribute) if name not in self.offsets]
            if unknown:
                raise ValueError(f"{type(self).__name__}.{attribute} names no piece: {unknown}")
        recalled = set(self.private) | set(self.transient)
        #: the positions of the private and transient pieces in an encoding, in layout order: what
        #: OpenSpiel's information-state tensor records the changes of at every decision
        self.recalled_index = np.asarray(
            [i for p in self.layout if p.name in recalled for i in range(self.offsets[p.name].start, self.offsets[p.name].stop)],
            np.intp)
        self.high = np.concatenate([p.highs for p in self.layout])
        self._zero_floats = array("f", bytes(4 * at))
        self._floats = array("f", self._zero_floats)  # fill's buffer, reused by every encode
        self._floats_view = np.frombuffer(self._floats, np.float32)
        # The whole-number buffer of a fast `encode_state` (`cleared_counts`). Every count and
        # one-hot is at most its piece's `high`, so the smallest unsigned type holding the largest
        # `high` does: a `bytearray` (an item is set twice as fast as an `array`'s, and more than
        # twice as fast as a float's), or 16- or 32-bit integers for larger custom decks.
        top = max((p.top for p in self.layout), default=0)
        self._whole_kind = "B" if top <= 0xFF else "H" if top <= 0xFFFF else "I"
        self._zero_whole = self.zero_counts(at)
        counts = self._new_whole(at)
        self._whole: MutableSequence[int] = counts
        self._whole_view = np.frombuffer(counts, np.dtype(self._whole_kind))

    # An encoder is a function of its game plus scratch buffers (and numpy views of them) that
    # it reuses from call to call. A copy or a pickle rebuilds it from the game, so the copy's
    # views are of its own buffers. Reusing buffers also means one encoder serves one thread:
    # every environment makes its own.
    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["game"])  # type: ignore[misc]

    def pieces(self, game: Game[Any]) -> list[Piece]:
        raise NotImplementedError

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        """Write `obs` into `buf`, `size` zeros (piece `name` starts at `self.at[name]`).

        `buf` is an `array('f')`: it takes ints and floats like a list, and holds float32."""
        raise NotImplementedError

    def views(self, array: np.ndarray) -> dict[str, np.ndarray]:
        return layout_views(self.layout, self.offsets, array)

    def encode(self, obs: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The float32 encoding of one observation dict (written into `out` when given)."""
        buf = self._floats
        buf[:] = self._zero_floats
        self.fill(obs, buf)
        return self.written(out)

    def written(self, out: np.ndarray | None) -> np.ndarray:
        """What was written into the reused buffer, as a new float32 array (or into `out`)."""
        if out is None:
            return self._floats_view.copy()
        out[:] = self._floats_view
        return out

    def zero_counts(self, n: int) -> MutableSequence[int]:
        """`n` zeros, of the whole-number buffer's type (a value it cannot hold raises, never wraps)."""
        return self._new_whole(n)

    def _new_whole(self, n: int) -> bytearray | array[int]:
        if self._whole_kind == "B":
            return bytearray(n)
        return array(self._whole_kind, bytes(n * array(self._whole_kind).itemsize))

    def cleared_counts(self) -> MutableSequence[int]:
        """The reused whole-number buffer, set to zeros: `size` unsigned integers, each piece's
        values up to its `high`."""
        buf = self._whole
        buf[:] = self._zero_whole
        return buf

    def counts_result(self, out: np.ndarray | None = None) -> np.ndarray:
        """The whole-number buffer as float32, in one conversion: a new array, or written into
        `out` when given (an encoder then writes its fractions into the array returned)."""
        if out is None:
            return self._whole_view.astype(np.float32)
        np.copyto(out, self._whole_view)
        return out

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`encode(state.observation(seat))`: what the environments call at every step.

        A game's encoder may override it with a faster path that builds the same array from a
        cheaper form of the same view (JUNO, IUNU, Runes of Zun, Iuno Avatar, Ivion: `seat_view`,
        no card names and no legal-action texts; JUNO, IUNU and Zun write its whole numbers into
        `cleared_counts`); it must read nothing `observation(seat)` does not show, and
        tests/rl/test_encoders.py checks that both paths give the same array in every state of
        random games, for every seat."""
        return self.encode(state.observation(seat), out)

    def describe(self) -> str:
        """The layout as a Markdown table (docs/rl.md is generated from this)."""
        return layout_table(self.layout, self.offsets)


def layout_views(layout: list[Piece], offsets: dict[str, slice], array: np.ndarray) -> dict[str, np.ndarray]:
    """Each piece of a layout as a reshaped view of `array`, by name."""
    return {p.name: array[offsets[p.name]].reshape(p.shape) for p in layout}


def layout_table(layout: list[Piece], offsets: dict[str, slice]) -> str:
    """A layout as a Markdown table: piece, shape, offset, largest value, meaning."""
    rows = ["| piece | shape | offset | max | meaning |", "|---|---|---|---|---|"]
    for p in layout:
        rows.append(f"| `{p.name}` | {p.shape} | {offsets[p.name].start} | {p.bound_text()} | {p.doc} |")
    return "\n".join(rows)


def relative(seat: int, me: int, players: int) -> int:
    """Seats are encoded relative to the observer: 0 is me, 1 the next seat (seat + 1), ..."""
    return (seat - me) % players
