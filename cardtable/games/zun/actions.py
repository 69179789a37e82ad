"""Runes of Zun's action space, built once per rune set (its names shape the texts).

- `play <Action>`, `end action phase` (Action Phase 1 and 8);
- `modify with <Modifier>`, `done modifying` (Action Phase 3);
- `target seat N` (Action Phase 4), `blame seat N` (Blame), `redirect to seat N` (Redirect);
- `react with <Reaction>`, `no reaction` (Action Phase 5);
- `mulligan`, `keep hand` (Start of Turn 2);
- `trigger <rune>` (Start of Turn 1: the order of (ongoing) effects);
- `discard <rune>`, `done discarding` (Recovery Phase 1 and discard effects).
"""

from __future__ import annotations

from enum import IntEnum

from mypy_extensions import mypyc_attr

from ...core.actions import ActionSpace, CardAction
from .runes import RuneSet

MAX_SEATS = 8


class Kind(IntEnum):
    PLAY = 0
    END_PHASE = 1
    MODIFY = 2
    DONE_MODIFYING = 3
    TARGET = 4
    BLAME = 5
    REDIRECT = 6
    REACT = 7
    NO_REACTION = 8
    MULLIGAN = 9
    KEEP = 10
    TRIGGER = 11
    DISCARD = 12
    DONE_DISCARDING = 13


class ZunAction(CardAction):
    """`card`: the rune set's index of a rune; `n`: a seat (`target seat N`, `blame seat N`,
    `redirect to seat N`)."""

    __slots__ = ()


# A plain Python class in the compiled build (cardtable/_native.py), so that
# copies and pickles (an encoder's copy holds the game) work as for any Python object.
@mypyc_attr(native_class=False)
class ZunSpace:
    """The action space of one rune set, with lookup tables for the rules."""

    def __init__(self, runes: RuneSet) -> None:
        out: list[tuple[ZunAction, str]] = []
        names = [r.name for r in runes.runes]
        for r in runes.runes:
            if r.kind == "action":
                out.append((ZunAction(Kind.PLAY, r.index), f"play {r.name}"))
        out.append((ZunAction(Kind.END_PHASE), "end action phase"))
        for r in runes.runes:
            if r.kind == "modifier":
                out.append((ZunAction(Kind.MODIFY, r.index), f"modify with {r.name}"))
        out.append((ZunAction(Kind.DONE_MODIFYING), "done modifying"))
        for s in range(MAX_SEATS):
            out.append((ZunAction(Kind.TARGET, n=s), f"target seat {s}"))
        for s in range(MAX_SEATS):
            out.append((ZunAction(Kind.BLAME, n=s), f"blame seat {s}"))
        for s in range(MAX_SEATS):
            out.append((ZunAction(Kind.REDIRECT, n=s), f"redirect to seat {s}"))
        for r in runes.runes:
            if r.kind == "reaction":
                out.append((ZunAction(Kind.REACT, r.index), f"react with {r.name}"))
        out.append((ZunAction(Kind.NO_REACTION), "no reaction"))
        out.append((ZunAction(Kind.MULLIGAN), "mulligan"))
        out.append((ZunAction(Kind.KEEP), "keep hand"))
        for r in runes.runes:
            if r.kind == "action":
                out.append((ZunAction(Kind.TRIGGER, r.index), f"trigger {r.name}"))
        for r in runes.runes:
            out.append((ZunAction(Kind.DISCARD, r.index), f"discard {r.name}"))
        out.append((ZunAction(Kind.DONE_DISCARDING), "done discarding"))
        self.space: ActionSpace[ZunAction] = ActionSpace("zun:" + runes.key(), "Runes of Zun", out)
        n = len(names)
        by = self.space.find
        self.play: dict[int, ZunAction] = {a.card: a for a in self.space if a.kind == Kind.PLAY}
        self.modify: dict[int, ZunAction] = {a.card: a for a in self.space if a.kind == Kind.MODIFY}
        self.react: dict[int, ZunAction] = {a.card: a for a in self.space if a.kind == Kind.REACT}
        self.trigger: dict[int, ZunAction] = {a.card: a for a in self.space if a.kind == Kind.TRIGGER}
        self.discard = [by(Kind.DISCARD, i) for i in range(n)]
        self.target = [by(Kind.TARGET, n=s) for s in range(MAX_SEATS)]
        self.blame = [by(Kind.BLAME, n=s) for s in range(MAX_SEATS)]
        self.redirect = [by(Kind.REDIRECT, n=s) for s in range(MAX_SEATS)]
        self.end_phase = by(Kind.END_PHASE)
        self.done_modifying = by(Kind.DONE_MODIFYING)
        self.no_reaction = by(Kind.NO_REACTION)
        self.mulligan = by(Kind.MULLIGAN)
        self.keep = by(Kind.KEEP)
        self.done_discarding = by(Kind.DONE_DISCARDING)

def space_for(runes: RuneSet) -> ZunSpace:
    """Built once per rune set and shared by every game with it."""
    return ActionSpace.shared("zun:" + runes.key(), lambda: ZunSpace(runes))
