"""Ivion's action space, built once per pair of decks and board size (their names shape the texts).

- on your turn: `play <card>`, `cantrip <card>` (for an initiative), `feat <feat>`, `move north|south|
  east|west` (an action), `initiative move <direction>`, `initiative draw`, `spend action|power`
  (to remove control), `end turn`;
- choosing: `choose 1|2|3` (the effect of a card that asks to choose), `target <tile>` (a1 .. h8),
  `target <card> #<id>` (an attached or unresolved card),
  `unleash` / `don't unleash`, `remove slow|silence|disarm`, `lose action|power` (stun);
- second wind: `keep <card>`, `bottom <card>`; the hand limit: `discard <card>`;
- the response window: `pass` (or play an instant); the effect layer: `yes` / `no`, `first N`.
"""

from __future__ import annotations

from enum import IntEnum

from ...core.actions import Action, ActionSpace

DIRECTIONS = ("north", "south", "east", "west")
STEP = {"north": (1, 0), "south": (-1, 0), "east": (0, 1), "west": (0, -1)}
CONTROLS = ("slow", "silence", "disarm")
RESOURCES = ("actions", "power")
COPY_BASE = 1000  # a copied card on the stack is k * COPY_BASE + the id of the card it copies
#: how many copies may be unresolved at once: copy k (1..COPY_SLOTS) of a card has its own id and
#: target, so two copies of one card (or a copy of a copy) are told apart
COPY_SLOTS = 6
#: the most effects a card asks its player to choose between (cards.py validates it)
MAX_MODES = 3


class Kind(IntEnum):
    END_TURN = 0
    MOVE = 1
    INIT_MOVE = 2
    INIT_DRAW = 3
    SPEND = 4
    PLAY = 5
    CANTRIP = 6
    FEAT = 7
    TARGET_TILE = 8
    TARGET_CARD = 9
    UNLEASH = 10
    NO_UNLEASH = 11
    REMOVE = 12
    LOSE = 13
    KEEP = 14
    BOTTOM = 15
    DISCARD = 16
    PASS = 17
    YES = 18
    NO = 19
    FIRST = 20
    CHOOSE = 21


class IvionAction(Action):
    __slots__ = ("kind", "name", "n")

    def __init__(self, kind: Kind, name: str = "", n: int = -1) -> None:
        self.kind = kind
        self.name = name  # a card's name, a direction, a control or a resource
        self.n = n        # a tile, a card id, or an order


def tile_name(tile: int, size: int) -> str:
    return f"{'abcdefgh'[tile % size]}{tile // size + 1}"


def copy_words(k: int) -> str:
    """How a target names copy `k` of a card: "copy of ", "copy 2 of " (the original: nothing)."""
    return "" if k == 0 else "copy of " if k == 1 else f"copy {k} of "


class IvionSpace:
    def __init__(self, key: str, size: int, plays: list[str], cantrips: list[str], feats: list[str],
                 deck_names: list[str], card_names: list[str]) -> None:
        out: list[tuple[IvionAction, str]] = [(IvionAction(Kind.END_TURN), "end turn")]
        out += [(IvionAction(Kind.MOVE, d), f"move {d}") for d in DIRECTIONS]
        out += [(IvionAction(Kind.INIT_MOVE, d), f"initiative move {d}") for d in DIRECTIONS]
        out.append((IvionAction(Kind.INIT_DRAW), "initiative draw"))
        out += [(IvionAction(Kind.SPEND, r), f"spend {r[:-1] if r == 'actions' else r}") for r in RESOURCES]
        out += [(IvionAction(Kind.PLAY, n), f"play {n}") for n in plays]
        out += [(IvionAction(Kind.CANTRIP, n), f"cantrip {n}") for n in cantrips]
        out += [(IvionAction(Kind.FEAT, n), f"feat {n}") for n in feats]
        out += [(IvionAction(Kind.TARGET_TILE, n=t), f"target {tile_name(t, size)}") for t in range(size * size)]
        out += [(IvionAction(Kind.TARGET_CARD, name, i), f"target {name} #{i}") for i, name in enumerate(card_names)]
        out += [(IvionAction(Kind.TARGET_CARD, name, COPY_BASE + i), f"target {copy_words(1)}{name} #{i}")
                for i, name in enumerate(card_names)]
        out += [(IvionAction(Kind.UNLEASH), "unleash"), (IvionAction(Kind.NO_UNLEASH), "don't unleash")]
        out += [(IvionAction(Kind.REMOVE, c), f"remove {c}") for c in CONTROLS]
        out += [(IvionAction(Kind.LOSE, r), f"lose {r[:-1] if r == 'actions' else r}") for r in RESOURCES]
        out += [(IvionAction(Kind.KEEP, n), f"keep {n}") for n in deck_names]
        out += [(IvionAction(Kind.BOTTOM, n), f"bottom {n}") for n in deck_names]
        out += [(IvionAction(Kind.DISCARD, n), f"discard {n}") for n in deck_names]
        out += [(IvionAction(Kind.PASS), "pass"), (IvionAction(Kind.YES), "yes"), (IvionAction(Kind.NO), "no")]
        out += [(IvionAction(Kind.FIRST, n=i), f"first {i + 1}") for i in range(4)]
        # further copies last, so that every action before them keeps its index
        out += [(IvionAction(Kind.TARGET_CARD, name, k * COPY_BASE + i), f"target {copy_words(k)}{name} #{i}")
                for k in range(2, COPY_SLOTS + 1) for i, name in enumerate(card_names)]
        out += [(IvionAction(Kind.CHOOSE, n=i), f"choose {i + 1}") for i in range(MAX_MODES)]
        self.space: ActionSpace[IvionAction] = ActionSpace(key, "Ivion", out)
        by: dict[tuple[Kind, str, int], IvionAction] = {(a.kind, a.name, a.n): a for a in self.space}
        self.by = by
        self.end_turn = by[(Kind.END_TURN, "", -1)]
        self.move = {d: by[(Kind.MOVE, d, -1)] for d in DIRECTIONS}
        self.init_move = {d: by[(Kind.INIT_MOVE, d, -1)] for d in DIRECTIONS}
        self.init_draw = by[(Kind.INIT_DRAW, "", -1)]
        self.spend = {r: by[(Kind.SPEND, r, -1)] for r in RESOURCES}
        self.play = {n: by[(Kind.PLAY, n, -1)] for n in plays}
        self.cantrip = {n: by[(Kind.CANTRIP, n, -1)] for n in cantrips}
        self.feat = {n: by[(Kind.FEAT, n, -1)] for n in feats}
        self.tile = [by[(Kind.TARGET_TILE, "", t)] for t in range(size * size)]
        self.card = {a.n: a for a in self.space if a.kind == Kind.TARGET_CARD}
        self.unleash = by[(Kind.UNLEASH, "", -1)]
        self.no_unleash = by[(Kind.NO_UNLEASH, "", -1)]
        self.remove = {c: by[(Kind.REMOVE, c, -1)] for c in CONTROLS}
        self.lose = {r: by[(Kind.LOSE, r, -1)] for r in RESOURCES}
        self.keep = {n: by[(Kind.KEEP, n, -1)] for n in deck_names}
        self.bottom = {n: by[(Kind.BOTTOM, n, -1)] for n in deck_names}
        self.discard = {n: by[(Kind.DISCARD, n, -1)] for n in deck_names}
        self.pass_ = by[(Kind.PASS, "", -1)]
        self.yes = by[(Kind.YES, "", -1)]
        self.no = by[(Kind.NO, "", -1)]
        self.first = [by[(Kind.FIRST, "", i)] for i in range(4)]
        self.choose = [by[(Kind.CHOOSE, "", i)] for i in range(MAX_MODES)]
