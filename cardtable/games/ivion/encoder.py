"""Ivion observation encoding (layout in docs/rl.md, "Ivion").

Everything comes from `IvionState.observation(seat)`. Heroes are relative to the observer (0 = me,
1 = the enemy); cards are in the order of the game's card names (`game.card_names`, distinct,
sorted); tiles in the board's order (a1, b1, ..., row by row). The stack is encoded from the top,
`FRAMES` deep. Not encoded: the hero names, the discard piles' order, the decision's text.

Two paths give the same array. `fill` reads the observation dict (the reference, also used by any
caller holding a dict). `encode_state`, what the environments call at every step, reads
`IvionState.seat_view(seat)`: the same view as numbers (card ids, tile numbers), without the names,
texts, targets and tile names the dict carries, written into the same reused buffer (through a
float32 memoryview of it; a discard pile counted per card in a list first, each count written once).
tests/rl/test_encoders.py holds the two paths to the same array in every state of random games.

This module is compiled with the engine (cardtable/_native.py): `IvionEncoder` as a Python class
(`native_class=False`: its base, the core's `Encoder`, is interpreted) whose methods are native,
so `encode_state` reads the compiled `IvionView` natively (25.7 us per call with the dict, about 9 us
compiled, on a loaded machine).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, cast

import numpy as np
from mypy_extensions import mypyc_attr

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from ...core.state import State
from .actions import CONTROLS
from .state import MAX_CONTROL, IvionState
from .verbs import POOLS

DECISIONS = ("main", "choose_target", "unleash", "remove_control", "lose_resource", "second_wind_keep",
             "second_wind_bottom", "discard_down", "priority", "use_ability", "first_trigger", "choose_mode")
FRAMES = 3
HERO = ("hp", "hp_fraction", "actions", "power", "initiative", *CONTROLS, "chivalrous", "wounded", "exhausted",
        "deck", "hand_size", "relics", "feats_used")
_DECISION = {k: i for i, k in enumerate(DECISIONS)}


def _tile(name: str, n: int) -> int:
    """A tile's number on a board of `n` by `n` from its name (a1 0, b1 1, ..., row by row)."""
    return (int(name[1:]) - 1) * n + "abcdefgh".index(name[0])


@mypyc_attr(native_class=False)  # compiled (cardtable/_native.py), as a Python class: its base is one
class IvionEncoder(Encoder):
    private = ("hand", "looking")  # what only I see: the information state records how it changes

    def pieces(self, game: Game[Any]) -> list[Piece]:
        self.names = sorted(set(game.card_names))  # type: ignore[attr-defined]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.n = game.options.board  # type: ignore[attr-defined]
        c, t = len(self.names), self.n * self.n
        self.frame = c + 2 + 2
        return [
            Piece("heroes", (2, len(HERO)), self.hero_bounds(game), "per relative hero: " + ", ".join(HERO)),
            Piece("tiles", (2, t), 1, "one-hot per relative hero: its tile"),
            Piece("terrain", (2, t), 1, "per tile: difficult, enchanted"),
            Piece("attached_tiles", (2, t), 9, "per relative controller, per tile: cards attached to the tile"),
            Piece("attached_heroes", (2, 2), 9, "[controller][host]: cards attached to a hero, relative seats"),
            Piece("attached_cards", (2, c), 9, "per relative controller: attached cards by name"),
            Piece("hand", (c,), 9, "my hand: how many of each card"),
            Piece("revealed", (c,), 9, "the enemy's revealed cards in hand"),
            Piece("discards", (2, c), 9, "per relative hero: the discard pile by name"),
            Piece("looking", (c,), 5, "my second wind: the cards I look at"),
            Piece("stack_depth", (1,), 20, "unresolved cards"),
            Piece("stack", (FRAMES, self.frame), 1,
                  "the top unresolved cards, top first: one-hot card, relative controller (2), copy, countered"),
            Piece("decision", (len(DECISIONS),), 1, "one-hot: the pending decision: " + ", ".join(DECISIONS)),
            Piece("my_decision", (1,), 1, "1 if I decide now"),
            Piece("my_turn", (1,), 1, "1 if it is my turn"),
        ]

    def hero_bounds(self, game: Game[Any]) -> tuple[float, ...]:
        """Each hero field's largest value in this game (the order of `HERO`): HP up to the largest
        hero's maximum ("the ultimate determines the starting and maximum HP"), resources up to 5
        ("never more than five of each resource"), control up to 5 a type ("up to a maximum of five
        for each type"); the deck, the hand and the relics at most the cards a deck holds, feats at
        most a deck's three; the fraction of HP and the flags at most 1."""
        decks = game.decks  # type: ignore[attr-defined]
        resources = POOLS.bound
        assert resources is not None, "Ivion's resources are bounded"
        cards = float(max(len(d.cards) + len(d.relics) for d in decks))
        bound = {"hp": float(max(d.hp for d in decks)), "actions": float(resources), "power": float(resources),
                 "deck": cards, "hand_size": cards, "relics": float(max(len(d.relics) for d in decks)),
                 "feats_used": float(max(len(d.feats) for d in decks))}
        bound.update({k: float(MAX_CONTROL) for k in CONTROLS})
        return tuple(max(bound.get(field, 1.0), 1.0) for field in HERO)

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        at = self.at
        #: each card id's place in the card pieces (its name's: `index`)
        self._slot: list[int] = [self.index[name] for name in game.fixed.names]  # type: ignore[attr-defined]
        self._decision_at: dict[str, int] = {kind: at["decision"] + i for kind, i in _DECISION.items()}
        #: the buffer as encode_state writes it: a memoryview sets a float32 without array's format parsing
        self._cells = memoryview(self._floats).cast("B").cast("f")
        #: a discard pile's count per card, reset after each pile (a discard pile holds dozens of cards,
        #: fewer names: counted in a list, each count written once)
        self._counts = [0] * len(self.names)
        self._piece_at: tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int] = (
            at["heroes"], at["tiles"], at["discards"], at["revealed"], at["terrain"], at["attached_cards"],
            at["attached_heroes"], at["attached_tiles"], at["hand"], at["looking"], at["stack_depth"], at["stack"],
            at["my_decision"], at["my_turn"])

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`encode(state.observation(seat))`, built from `seat_view(seat)` (module docstring)."""
        v = cast(IvionState, state).seat_view(seat)
        (heroes_at, tiles_at, discards_at, revealed_at, terrain_at, attached_cards_at, attached_heroes_at,
         attached_tiles_at, hand_at, looking_at, depth_at, stack_at, my_decision_at, my_turn_at) = self._piece_at
        me = seat if seat is not None else 0
        n: int = self.n
        t: int = n * n
        c = len(self.names)
        slot, counts = self._slot, self._counts
        self._floats[:] = self._zero_floats
        buf = self._cells
        one: Any = 1.0  # a float object, written as it is (compiled, a literal 1 or 1.0 is boxed at every write)
        hero_size: int = len(HERO)  # (a local: compiled, the loop then reads no module global)
        rel = -me % 2  # seat 0's relative seat; seat 1's is 1 - rel
        for h in v.heroes:
            row = heroes_at + rel * hero_size
            for value in (h.hp, h.hp / h.max_hp, h.actions, h.power, h.initiative, *h.control, h.chivalrous, h.wounded,
                          h.exhausted, h.deck, h.hand_size, h.relics, h.feats_used):
                if value:  # (the buffer holds zeros: a zero is not written)
                    buf[row] = value
                row += 1
            buf[tiles_at + rel * t + h.tile] = one
            base = discards_at + rel * c
            discard = h.discard
            for card in discard:
                counts[slot[card]] += 1
            for card in discard:
                i = slot[card]
                count = counts[i]
                if count:
                    buf[base + i] = count
                    counts[i] = 0
            if rel == 1:
                for card in h.revealed_in_hand:
                    buf[revealed_at + slot[card]] += one
            rel = 1 - rel
        for tile, terrain_kind in v.terrain:
            buf[terrain_at + (0 if terrain_kind == "difficult" else t) + tile] = one
        for card, controller, host, key in v.attached:
            rel = (controller - me) % 2
            buf[attached_cards_at + rel * c + slot[card]] += one
            if host == "hero":
                buf[attached_heroes_at + rel * 2 + (key - me) % 2] += one
            elif host == "tile":  # (in front of a player: no tile)
                buf[attached_tiles_at + rel * t + key] += one
        for card in v.hand:
            buf[hand_at + slot[card]] += one
        for card in v.looking:
            buf[looking_at + slot[card]] += one
        stack = v.stack
        buf[depth_at] = min(len(stack), 20)
        base = stack_at
        frame: int = self.frame
        frames: int = FRAMES
        for card, controller, copy, countered in reversed(stack[-frames:]):
            buf[base + slot[card]] = one
            buf[base + c + (controller - me) % 2] = one
            buf[base + c + 2] = copy
            buf[base + c + 3] = countered
            base += frame
        if v.decision is not None:
            buf[self._decision_at[v.decision]] = one
            buf[my_decision_at] = v.decision_seat == me
        buf[my_turn_at] = v.turn == me
        return self.written(out)

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        at = self.at
        me = obs["seat"] if obs["seat"] is not None else 0
        n: int = self.n
        t, c = n * n, len(self.names)
        idx = self.index

        for s, h in enumerate(obs["heroes"]):
            rel = (s - me) % 2
            row = at["heroes"] + rel * len(HERO)
            values = (h["hp"], h["hp"] / h["max_hp"], h["actions"], h["power"], h["initiative"],
                      *(h["control"][k] for k in CONTROLS), h["chivalrous"], h["wounded"], h["exhausted"],
                      h["deck"], h["hand_size"], h["relics"], sum(f["used"] for f in h["feats"]))
            for i, v in enumerate(values):
                buf[row + i] = float(v)
            buf[at["tiles"] + rel * t + _tile(h["tile"], n)] = 1
            for name in h["discard"]:
                buf[at["discards"] + rel * c + idx[name]] += 1
            if rel == 1:
                for name in h["revealed_in_hand"]:
                    buf[at["revealed"] + idx[name]] += 1
        for name, kind in obs["terrain"].items():
            buf[at["terrain"] + (0 if kind == "difficult" else 1) * t + _tile(name, n)] = 1
        for a in obs["attached"]:
            rel = (a["controller"] - me) % 2
            buf[at["attached_cards"] + rel * c + idx[a["card"]]] += 1
            if a["host"] == "hero":
                buf[at["attached_heroes"] + rel * 2 + (a["seat"] - me) % 2] += 1
            elif a["host"] == "tile":  # (in front of a player: no tile)
                buf[at["attached_tiles"] + rel * t + _tile(a["tile"], n)] += 1
        for name in obs.get("hand", ()):
            buf[at["hand"] + idx[name]] += 1
        for name in obs.get("looking", ()):
            buf[at["looking"] + idx[name]] += 1
        stack = obs["stack"]
        buf[at["stack_depth"]] = min(len(stack), 20)
        for k, item in enumerate(reversed(stack[-FRAMES:])):
            base = at["stack"] + k * self.frame
            buf[base + idx[item["card"]]] = 1
            buf[base + c + (item["controller"] - me) % 2] = 1
            buf[base + c + 2] = float(item["copy"])
            buf[base + c + 3] = float(item["countered"])
        d = obs["decision"]
        if d is not None:
            buf[at["decision"] + _DECISION[d["kind"]]] = 1
            buf[at["my_decision"]] = float(d["seat"] == me)
        buf[at["my_turn"]] = float(obs["turn"] == me)
