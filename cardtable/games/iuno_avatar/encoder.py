"""Iuno Avatar observation encoding (layout in docs/rl.md, "Iuno Avatar").

Everything comes from `AvatarState.observation(seat)`: my Heaven; every Earth with the gems on
each figure; Hell and the card being played; each seat's Heaven size, dice, gems and avatar; the
middle, the purse and the stack; the pending decision (its kind, seat, the die rolled, what is
still owed, the card it is about). Seats are relative to the observer (0 = me). Cards are in the
order of the game's card file.

Two paths give the same array. `fill` reads the observation dict (the reference, also used by any
caller holding a dict). `encode_state`, what the environments call at every step, reads
`AvatarState.seat_view(seat)`: the same view as numbers (card ids, element indices), without the
names, texts, card facts and legal-action texts the dict carries, written into the same reused
buffer (through a float32 memoryview of it) at positions worked out once per observer.
tests/rl/test_encoders.py holds the two paths to the same array in every state of random games.

This module is compiled with the engine (cardtable/_native.py): `AvatarEncoder` as a Python class
(`native_class=False`: its base, the core's `Encoder`, is interpreted) whose methods are native,
so `encode_state` reads the compiled `AvatarView` natively (Iuno Avatar: 29.6 us per call with the
dict, about 4 us compiled, on a loaded machine).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, cast

import numpy as np
from mypy_extensions import mypyc_attr

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from ...core.state import State
from .language import ELEMENTS
from .options import DICE, GEMS
from .state import DIE_FACES, AvatarState

DECISIONS = ("turn", "use_roll", "pay", "choose_opponent", "choose_card", "discard_down", "use_ability", "first_trigger")
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_ELEMENT = {e: i for i, e in enumerate(ELEMENTS)}
MAX_LEVEL = 3
MAX_COST = 4


@mypyc_attr(native_class=False)  # compiled (cardtable/_native.py), as a Python class: its base is one
class AvatarEncoder(Encoder):
    private = ("heaven",)  # what only I see: the information state records how it changes
    # the die just rolled is shown only while it is used: the information state records it, or a
    # seat would forget every past roll (two histories differing only in a roll gave one tensor)
    transient = ("roll",)

    def pieces(self, game: Game[Any]) -> list[Piece]:
        n = game.players
        k = len(game.cards)  # type: ignore[attr-defined]
        self.index = {c.name: i for i, c in enumerate(game.cards)}  # type: ignore[attr-defined]
        return [
            Piece("heaven", (k,), 1, "1 for each card in my Heaven"),
            Piece("earth", (n, k), 1, "1 for each card on each relative seat's Earth"),
            Piece("earth_gems", (n, k), MAX_LEVEL, "gems on each figure on each relative seat's Earth"),
            Piece("hell", (k,), 1, "1 for each card in Hell"),
            Piece("announced", (k,), 1, "1 for the card being paid for"),
            Piece("heaven_size", (n,), float(k), "cards in each relative seat's Heaven"),
            Piece("dice", (n,), float(DICE), "dice of each relative seat"),
            Piece("gems", (n,), float(GEMS), "gems in front of each relative seat"),
            Piece("avatar", (n, len(ELEMENTS)), 1, "one-hot: each relative seat's avatar element"),
            Piece("middle", (1,), float(DICE), "dice in the middle"),
            Piece("purse", (1,), float(GEMS), "gems in the purse"),
            Piece("stack", (1,), float(k), "cards in the stack"),
            Piece("spells_cast", (1,), float(DIE_FACES), "spells cast this turn"),
            Piece("turn", (n,), 1, "one-hot: the relative seat whose turn it is"),
            Piece("decision", (len(DECISIONS),), 1, "one-hot: the pending decision: " + ", ".join(DECISIONS)),
            Piece("decision_seat", (n,), 1, "one-hot: the relative seat that must decide"),
            Piece("roll", (DIE_FACES,), 1, "one-hot: the die rolled (use_roll)"),
            Piece("owed", (len(ELEMENTS),), float(MAX_COST), "symbols still owed per element (pay)"),
            Piece("decision_card", (k,), 1, "one-hot: the card a pay or use_ability decision is about"),
            Piece("instead", (1,), 1, "1 when the offered effect is exclusive (instead)"),
        ]

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        at = self.at
        n, k, e = game.players, len(self.index), len(ELEMENTS)
        #: each card id's place in the card pieces (its name's: `index`)
        self._slot: list[int] = [self.index[c.name] for c in game.cards]  # type: ignore[attr-defined]
        #: per observer, per seat: where its Earth and Earth gems rows, Heaven size, dice, gems and
        #: avatar row start, and its relative seat (the place in the one-hots over seats)
        self._seat_at: list[list[tuple[int, int, int, int, int, int, int]]] = [
            [(at["earth"] + r * k, at["earth_gems"] + r * k, at["heaven_size"] + r, at["dice"] + r, at["gems"] + r,
              at["avatar"] + r * e, r)
             for r in ((s - me) % n for s in range(n))]
            for me in range(n)]
        self._decision_at: dict[str, int] = {kind: at["decision"] + i for kind, i in _DECISION.items()}
        #: the buffer as encode_state writes it: a memoryview sets a float32 without array's format parsing
        self._cells = memoryview(self._floats).cast("B").cast("f")
        self._piece_at: tuple[int, int, int, int, int, int, int, int, int, int, int, int, int] = (
            at["heaven"], at["hell"], at["announced"], at["middle"], at["purse"], at["stack"], at["spells_cast"],
            at["turn"], at["decision_seat"], at["roll"], at["owed"], at["decision_card"], at["instead"])

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`encode(state.observation(seat))`, built from `seat_view(seat)` (module docstring)."""
        v = cast(AvatarState, state).seat_view(seat)
        (heaven_at, hell_at, announced_at, middle_at, purse_at, stack_at, spells_at, turn_at, decision_seat_at, roll_at,
         owed_at, card_at, instead_at) = self._piece_at
        slot = self._slot
        seat_at = self._seat_at[seat if seat is not None else 0]
        self._floats[:] = self._zero_floats
        buf = self._cells
        one: Any = 1.0  # a float object, written as it is (compiled, a literal 1 or 1.0 is boxed at every write)
        for c in v.heaven:
            buf[heaven_at + slot[c]] = one
        for c in v.hell:
            buf[hell_at + slot[c]] = one
        for c in v.announced:
            buf[announced_at + slot[c]] = one
        earth, earth_gems, heaven_size, dice, gems, avatar = v.earth, v.earth_gems, v.heaven_size, v.dice, v.gems, v.avatar
        for s in range(len(seat_at)):
            row, gems_row, size_at, dice_at, gems_at, avatar_row, _ = seat_at[s]
            charges = earth_gems[s]
            for i, c in enumerate(earth[s]):
                place = slot[c]
                buf[row + place] = one
                buf[gems_row + place] = charges[i]
            buf[size_at] = heaven_size[s]
            buf[dice_at] = dice[s]
            buf[gems_at] = gems[s]
            buf[avatar_row + avatar[s]] = one
        buf[middle_at] = v.middle
        buf[purse_at] = v.purse
        buf[stack_at] = v.stack
        buf[spells_at] = min(v.spells_cast, DIE_FACES)
        turn = v.turn
        if turn is not None:
            buf[turn_at + seat_at[turn][6]] = one
        kind = v.decision
        if kind is not None:
            buf[self._decision_at[kind]] = one
            buf[decision_seat_at + seat_at[v.decision_seat][6]] = one
            if v.value >= 0:
                buf[roll_at + v.value - 1] = one
            for e, owed in enumerate(v.remaining):
                if owed:
                    buf[owed_at + e] = owed
            if v.card >= 0:
                buf[card_at + slot[v.card]] = one
            if v.instead:
                buf[instead_at] = one
        return self.written(out)

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        at = self.at
        n = obs["players"]
        k = len(self.index)
        me = obs["seat"] if obs["seat"] is not None else 0
        idx = self.index
        for name in obs.get("heaven", ()):
            buf[at["heaven"] + idx[name]] = 1
        for name in obs["hell"]:
            buf[at["hell"] + idx[name]] = 1
        for name in obs["announced"]:
            buf[at["announced"] + idx[name]] = 1
        for s, p in enumerate(obs["seats"]):
            r = (s - me) % n
            for f in p["earth"]:
                buf[at["earth"] + r * k + idx[f["name"]]] = 1
                buf[at["earth_gems"] + r * k + idx[f["name"]]] = f["gems"]
            buf[at["heaven_size"] + r] = p["heaven_size"]
            buf[at["dice"] + r] = p["dice"]
            buf[at["gems"] + r] = p["gems"]
            buf[at["avatar"] + r * len(ELEMENTS) + _ELEMENT[p["avatar"]]] = 1
        buf[at["middle"]] = obs["middle"]
        buf[at["purse"]] = obs["purse"]
        buf[at["stack"]] = obs["stack"]
        buf[at["spells_cast"]] = min(obs["spells_cast"], DIE_FACES)
        if obs["turn"] is not None:
            buf[at["turn"] + (obs["turn"] - me) % n] = 1
        d = obs["decision"]
        if d is not None:
            buf[at["decision"] + _DECISION[d["kind"]]] = 1
            buf[at["decision_seat"] + (d["seat"] - me) % n] = 1
            if "value" in d:
                buf[at["roll"] + d["value"] - 1] = 1
            for e, owed in d.get("remaining", {}).items():
                buf[at["owed"] + _ELEMENT[e]] = owed
            if "card" in d:
                buf[at["decision_card"] + idx[d["card"]]] = 1
            if d.get("instead"):
                buf[at["instead"]] = 1
