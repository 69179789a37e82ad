"""Observation encoders for the RL adapters: which encoder a game has (`encoder_for`), and the
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

__all__ = [
    "Encoder", "NoEncoder", "Piece", "action_mask", "encoder_for", "has_encoder", "normalize_scale", "register_encoder",
    "relative",
]

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
