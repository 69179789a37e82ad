"""Observation encoders for the RL adapters: which encoder a game has (`encoder_for`), the
observation an interface hands out (`Encoding`: counts or planes, normalized or not), and the
mask of legal actions.

The encoders themselves are the games' (`cardtable/games/<game>/encoder.py`, named by the spec),
written against the core's `Encoder` and `Piece` (`cardtable/core/encoder.py`), which this module
passes on so that `cardtable.rl.encoders.Encoder` still names them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.encoder import Encoder, Piece, relative
from ...core.errors import CardtableError, UnknownGame
from ...core.game import Game
from ...core.registry import game_class, game_part, games
from ...core.state import State
from .planes import PLANES_CAP, Planes

__all__ = [
    "ENCODINGS", "PLANES_CAP", "Encoder", "Encoding", "NoEncoder", "Piece", "Planes", "action_mask", "check_encoding",
    "encoder_for", "has_encoder", "normalize_scale", "register_encoder", "relative",
]

#: the values of the `encoding` option of every interface (PettingZoo, Gymnasium, OpenSpiel,
#: `cardtable.rl.vector`): the game's encoder as it is, or its binary planes (`Planes`)
ENCODINGS = ("counts", "planes")

# Encoders registered at run time (`register_encoder`), over what a game's spec names.
_REGISTERED: dict[str, type[Encoder]] = {}


class NoEncoder(CardtableError):
    """A registered game that has no observation encoder yet."""


def register_encoder(game: str, target: type[Encoder]) -> None:
    """Use `target` as the encoder of game `game` (over the one its spec names)."""
    _REGISTERED[game] = target


def has_encoder(game: str) -> bool:
    try:
        return game in _REGISTERED or bool(game_class(game).spec.encoder)
    except UnknownGame:
        return False


def encoder_for(game: Game[Any]) -> Encoder:
    """The observation encoder of `game` (a `cardtable.make(...)` object)."""
    name = game.spec.name
    cls: type[Encoder] | None = _REGISTERED.get(name)
    if cls is None:
        try:
            cls = game_part(name, "encoder")
        except UnknownGame:
            cls = None
    if cls is None:
        with_one = ", ".join(g for g in games() if has_encoder(g))
        raise NoEncoder(
            f"{game.spec.title} has no RL observation encoder yet (games with one: {with_one}); write "
            f"cardtable/games/{name}/encoder.py and name it in the game's spec (encoder='encoder:Class')"
        )
    return cls(game)


def normalize_scale(encoder: Encoder) -> np.ndarray:
    """What `normalize=True` divides an encoding by: the largest value of each piece (1 for
    pieces whose values are at most 1), so every value lies in [0, 1]."""
    scale: np.ndarray = np.maximum(encoder.high, 1.0).astype(np.float32)
    return scale


def action_mask(state: State, seat: int | None = None) -> np.ndarray:
    """int8 mask over `game.num_actions`: 1 for the legal actions of the seat deciding now.

    With `seat` given, the mask is all zeros unless that seat is the one to decide."""
    size = len(state.game.actions.actions)
    if state.is_over or (seat is not None and state.current_player != seat):
        return np.zeros(size, np.int8)
    # Set bytes, then one numpy view of them: cheaper than numpy's fancy indexing for the few
    # legal actions of a decision.
    buf = bytearray(size)
    for a in state.legal_actions():
        buf[a.index] = 1
    return np.frombuffer(buf, np.int8)


def check_encoding(encoding: object) -> str:
    """`encoding` if it is one of `ENCODINGS`; otherwise a ValueError naming them."""
    if encoding not in ENCODINGS:
        allowed = " or ".join(repr(e) for e in ENCODINGS)
        raise ValueError(f"encoding must be {allowed}, got {encoding!r}")
    return str(encoding)


class Encoding:
    """The observation every interface hands out, from its `encoding` and `normalize` options:
    the encoder's counts ("counts"; with `normalize`, each value divided by the largest its piece
    can hold) or their planes ("planes", already in [0, 1]: `normalize` changes nothing).

    `size`, `high` (per value: the observation space's bound), `layout`, `offsets`, `views` and
    `describe` are those of the encoding handed out; `encoder` is the game's own, which
    writes the counts (`encode_state`), and `finish` turns counts into what is handed out."""

    def __init__(self, encoder: Encoder, encoding: str = "counts", normalize: bool = False) -> None:
        self.name = check_encoding(encoding)
        self.encoder = encoder
        self.normalize = bool(normalize)
        self.planes: Planes | None = Planes(encoder) if self.name == "planes" else None
        self._scale: np.ndarray | None = None
        if self.planes is not None:
            self.layout, self.offsets, self.size = self.planes.layout, self.planes.offsets, self.planes.size
            self.high: np.ndarray = self.planes.high
        else:
            self.layout, self.offsets, self.size = encoder.layout, encoder.offsets, encoder.size
            self.high = np.minimum(encoder.high, 1.0) if self.normalize else encoder.high
            self._scale = normalize_scale(encoder) if self.normalize else None

    def finish(self, counts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """`counts` (an encoding, or a batch of them) as this encoding: divided in place when
        normalized, or its planes (written into `out` when given; otherwise a new array)."""
        if self.planes is not None:
            return self.planes.from_counts(counts, out)
        if self._scale is not None:
            counts /= self._scale
        if out is not None and out is not counts:
            out[...] = counts
            return out
        return counts

    def encode_state(self, state: State, seat: int | None, encoder: Encoder | None = None) -> np.ndarray:
        """A new array: the observation of `seat` in `state` (written by `encoder`, the game's by
        default: an environment that keeps one per game passes its own)."""
        return self.finish((encoder or self.encoder).encode_state(state, seat))

    def views(self, array: np.ndarray) -> dict[str, np.ndarray]:
        return (self.planes or self.encoder).views(array)

    def describe(self) -> str:
        """The layout handed out as a Markdown table (`Encoder.describe`)."""
        return (self.planes or self.encoder).describe()
