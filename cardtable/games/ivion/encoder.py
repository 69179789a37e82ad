"""Ivion observation encoding (layout in docs/rl.md, "Ivion").

Everything comes from `IvionState.observation(seat)`. Heroes are relative to the observer (0 = me,
1 = the enemy); cards are in the order of the game's card names (`game.card_names`, distinct,
sorted); tiles in the board's order (a1, b1, ..., row by row). The stack is encoded from the top,
`FRAMES` deep. Not encoded: the hero names, the discard piles' order, the decision's text.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from .actions import CONTROLS

DECISIONS = ("main", "choose_target", "unleash", "remove_control", "lose_resource", "second_wind_keep",
             "second_wind_bottom", "discard_down", "priority", "use_ability", "first_trigger", "choose_mode")
FRAMES = 3
HERO = ("hp", "hp_fraction", "actions", "power", "initiative", *CONTROLS, "chivalrous", "wounded", "exhausted",
        "deck", "hand_size", "relics", "feats_used")
_DECISION = {k: i for i, k in enumerate(DECISIONS)}


class IvionEncoder(Encoder):
    private = ("hand", "looking")  # what only I see: the information state records how it changes

    def pieces(self, game: Game[Any]) -> list[Piece]:
        self.names = sorted(set(game.card_names))  # type: ignore[attr-defined]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.n = game.options.board  # type: ignore[attr-defined]
        c, t = len(self.names), self.n * self.n
        self.frame = c + 2 + 2
        return [
            Piece("heroes", (2, len(HERO)), 60.0, "per relative hero: " + ", ".join(HERO)),
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

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        at = self.at
        me = obs["seat"] if obs["seat"] is not None else 0
        n: int = self.n
        t, c = n * n, len(self.names)
        idx = self.index

        def tile(name: str) -> int:
            return (int(name[1:]) - 1) * n + "abcdefgh".index(name[0])

        for s, h in enumerate(obs["heroes"]):
            rel = (s - me) % 2
            row = at["heroes"] + rel * len(HERO)
            values = (h["hp"], h["hp"] / h["max_hp"], h["actions"], h["power"], h["initiative"],
                      *(h["control"][k] for k in CONTROLS), h["chivalrous"], h["wounded"], h["exhausted"],
                      h["deck"], h["hand_size"], h["relics"], sum(f["used"] for f in h["feats"]))
            for i, v in enumerate(values):
                buf[row + i] = float(v)
            buf[at["tiles"] + rel * t + tile(h["tile"])] = 1
            for name in h["discard"]:
                buf[at["discards"] + rel * c + idx[name]] += 1
            if rel == 1:
                for name in h["revealed_in_hand"]:
                    buf[at["revealed"] + idx[name]] += 1
        for name, kind in obs["terrain"].items():
            buf[at["terrain"] + (0 if kind == "difficult" else 1) * t + tile(name)] = 1
        for a in obs["attached"]:
            rel = (a["controller"] - me) % 2
            buf[at["attached_cards"] + rel * c + idx[a["card"]]] += 1
            if a["host"] == "hero":
                buf[at["attached_heroes"] + rel * 2 + (a["seat"] - me) % 2] += 1
            elif a["host"] == "tile":  # (in front of a player: no tile)
                buf[at["attached_tiles"] + rel * t + tile(a["tile"])] += 1
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
