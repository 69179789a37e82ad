"""Iuno Avatar observation encoding (layout in docs/rl.md, "Iuno Avatar").

Everything comes from `AvatarState.observation(seat)`: my Heaven; every Earth with the gems on
each figure; Hell and the card being played; each seat's Heaven size, dice, gems and avatar; the
middle, the purse and the stack; the pending decision (its kind, seat, the die rolled, what is
still owed, the card it is about). Seats are relative to the observer (0 = me). Cards are in the
order of the game's card file.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from .language import ELEMENTS
from .options import DICE, GEMS
from .state import DIE_FACES

DECISIONS = ("turn", "use_roll", "pay", "choose_opponent", "choose_card", "discard_down", "use_ability", "first_trigger")
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_ELEMENT = {e: i for i, e in enumerate(ELEMENTS)}
MAX_LEVEL = 3
MAX_COST = 4


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
