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

from mypy_extensions import mypyc_attr

from ...core.actions import ActionSpace, CardAction

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


#: the kinds whose `n` indexes a word (a direction, a resource, a control) rather than a number
WORDS: dict[int, tuple[str, ...]] = {Kind.MOVE: DIRECTIONS, Kind.INIT_MOVE: DIRECTIONS, Kind.SPEND: RESOURCES,
                                      Kind.LOSE: RESOURCES, Kind.REMOVE: CONTROLS}
#: each space's card names, which an action's `card` indexes (by the space's key)
_NAMES: dict[str, tuple[str, ...]] = {}


class IvionAction(CardAction):
    """`card`: a card's name as its index in the space's names (`IvionSpace.names`); `n`: a tile, a
    card id, an order, or a direction, resource or control (`WORDS`); the text names them all."""

    __slots__ = ()

    @property
    def name(self) -> str:
        """The card's name, the direction, the resource or the control the action names ("" if none)."""
        words = WORDS.get(self.kind)
        if words is not None:
            return words[self.n]
        return _NAMES[self.space][self.card] if self.card >= 0 else ""


def tile_name(tile: int, size: int) -> str:
    return f"{'abcdefgh'[tile % size]}{tile // size + 1}"


def copy_words(k: int) -> str:
    """How a target names copy `k` of a card: "copy of ", "copy 2 of " (the original: nothing)."""
    return "" if k == 0 else "copy of " if k == 1 else f"copy {k} of "


# A plain Python class in the compiled build (cardtable/_native.py), so that
# copies and pickles (an encoder's copy holds the game) work as for any Python object.
@mypyc_attr(native_class=False)
class IvionSpace:
    def __init__(self, key: str, size: int, plays: list[str], cantrips: list[str], feats: list[str],
                 deck_names: list[str], card_names: list[str]) -> None:
        names = tuple(dict.fromkeys((*plays, *cantrips, *feats, *deck_names, *card_names)))
        at = {n: i for i, n in enumerate(names)}
        out: list[tuple[IvionAction, str]] = [(IvionAction(Kind.END_TURN), "end turn")]
        out += [(IvionAction(Kind.MOVE, n=i), f"move {d}") for i, d in enumerate(DIRECTIONS)]
        out += [(IvionAction(Kind.INIT_MOVE, n=i), f"initiative move {d}") for i, d in enumerate(DIRECTIONS)]
        out.append((IvionAction(Kind.INIT_DRAW), "initiative draw"))
        out += [(IvionAction(Kind.SPEND, n=i), f"spend {r[:-1] if r == 'actions' else r}") for i, r in enumerate(RESOURCES)]
        out += [(IvionAction(Kind.PLAY, at[n]), f"play {n}") for n in plays]
        out += [(IvionAction(Kind.CANTRIP, at[n]), f"cantrip {n}") for n in cantrips]
        out += [(IvionAction(Kind.FEAT, at[n]), f"feat {n}") for n in feats]
        out += [(IvionAction(Kind.TARGET_TILE, n=t), f"target {tile_name(t, size)}") for t in range(size * size)]
        out += [(IvionAction(Kind.TARGET_CARD, at[name], i), f"target {name} #{i}") for i, name in enumerate(card_names)]
        out += [(IvionAction(Kind.TARGET_CARD, at[name], COPY_BASE + i), f"target {copy_words(1)}{name} #{i}")
                for i, name in enumerate(card_names)]
        out += [(IvionAction(Kind.UNLEASH), "unleash"), (IvionAction(Kind.NO_UNLEASH), "don't unleash")]
        out += [(IvionAction(Kind.REMOVE, n=i), f"remove {c}") for i, c in enumerate(CONTROLS)]
        out += [(IvionAction(Kind.LOSE, n=i), f"lose {r[:-1] if r == 'actions' else r}") for i, r in enumerate(RESOURCES)]
        out += [(IvionAction(Kind.KEEP, at[n]), f"keep {n}") for n in deck_names]
        out += [(IvionAction(Kind.BOTTOM, at[n]), f"bottom {n}") for n in deck_names]
        out += [(IvionAction(Kind.DISCARD, at[n]), f"discard {n}") for n in deck_names]
        out += [(IvionAction(Kind.PASS), "pass"), (IvionAction(Kind.YES), "yes"), (IvionAction(Kind.NO), "no")]
        out += [(IvionAction(Kind.FIRST, n=i), f"first {i + 1}") for i in range(4)]
        # further copies last, so that every action before them keeps its index
        out += [(IvionAction(Kind.TARGET_CARD, at[name], k * COPY_BASE + i), f"target {copy_words(k)}{name} #{i}")
                for k in range(2, COPY_SLOTS + 1) for i, name in enumerate(card_names)]
        out += [(IvionAction(Kind.CHOOSE, n=i), f"choose {i + 1}") for i in range(MAX_MODES)]
        self.names = _NAMES[key] = names
        self.space: ActionSpace[IvionAction] = ActionSpace(key, "Ivion", out)
        by = self.space.find
        self.end_turn = by(Kind.END_TURN)
        self.move = {d: by(Kind.MOVE, n=i) for i, d in enumerate(DIRECTIONS)}
        self.init_move = {d: by(Kind.INIT_MOVE, n=i) for i, d in enumerate(DIRECTIONS)}
        self.init_draw = by(Kind.INIT_DRAW)
        self.spend = {r: by(Kind.SPEND, n=i) for i, r in enumerate(RESOURCES)}
        self.play = {n: by(Kind.PLAY, at[n]) for n in plays}
        self.cantrip = {n: by(Kind.CANTRIP, at[n]) for n in cantrips}
        self.feat = {n: by(Kind.FEAT, at[n]) for n in feats}
        self.tile = [by(Kind.TARGET_TILE, n=t) for t in range(size * size)]
        self.card = {a.n: a for a in self.space if a.kind == Kind.TARGET_CARD}
        self.unleash = by(Kind.UNLEASH)
        self.no_unleash = by(Kind.NO_UNLEASH)
        self.remove = {c: by(Kind.REMOVE, n=i) for i, c in enumerate(CONTROLS)}
        self.lose = {r: by(Kind.LOSE, n=i) for i, r in enumerate(RESOURCES)}
        self.keep = {n: by(Kind.KEEP, at[n]) for n in deck_names}
        self.bottom = {n: by(Kind.BOTTOM, at[n]) for n in deck_names}
        self.discard = {n: by(Kind.DISCARD, at[n]) for n in deck_names}
        self.pass_ = by(Kind.PASS)
        self.yes = by(Kind.YES)
        self.no = by(Kind.NO)
        self.first = [by(Kind.FIRST, n=i) for i in range(4)]
        self.choose = [by(Kind.CHOOSE, n=i) for i in range(MAX_MODES)]
