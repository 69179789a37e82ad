"""Iuno Avatar's action space, built once per deck (its card names shape the texts).

- `roll a die`, `end turn` (your turn: "The player can then roll and discard their dies");
- with a rolled die: `summon <figure>`, `cast <spell>`, `activate <figure>`, `level up <figure>`,
  or `discard the die` (no action with it);
- paying: `pay with <gem card>`, `pay the rest with gems`;
- effects: `yes` / `no` ("also do ...?" / "instead do ...?"), `first N` (which of your effects
  happens first), `opponent seat N` (black pictograms: the opponent you choose), `choose <card>`;
- end of turn: `discard <card>` (all but six cards).
"""

from __future__ import annotations

from enum import IntEnum

from mypy_extensions import mypyc_attr

from ...core.actions import ActionSpace, CardAction
from .cards import CardSet

MAX_SEATS = 3
MAX_FIRST = 8  # several of one player's effects answering one activity: at most its figures and a spell


class Kind(IntEnum):
    ROLL = 0
    END_TURN = 1
    FORGO = 2
    SUMMON = 3
    CAST = 4
    ACTIVATE = 5
    LEVEL_UP = 6
    PAY_CARD = 7
    PAY_GEMS = 8
    YES = 9
    NO = 10
    FIRST = 11
    OPPONENT = 12
    CHOOSE = 13
    DISCARD = 14


class AvatarAction(CardAction):
    """`card`: the deck's card index; `n`: a seat (`opponent seat N`) or an order (`first N`)."""

    __slots__ = ()


#: The effect layer's answers (core `EffectActions`): one set of objects shared by every deck's
#: space, at the same indices, because the layer's decisions recognise them by identity.
YES = AvatarAction(Kind.YES)
NO = AvatarAction(Kind.NO)
FIRST = [AvatarAction(Kind.FIRST, n=i) for i in range(MAX_FIRST)]


# A plain Python class in the compiled build (cardtable/_native.py), so that
# copies and pickles (an encoder's copy holds the game) work as for any Python object.
@mypyc_attr(native_class=False)
class AvatarSpace:
    """The actions of one deck, with lookup tables for the rules."""

    def __init__(self, deck: CardSet) -> None:
        cards = deck.cards
        out: list[tuple[AvatarAction, str]] = [(YES, "yes"), (NO, "no")]
        out += [(a, f"first {i + 1}") for i, a in enumerate(FIRST)]
        out += [
            (AvatarAction(Kind.ROLL), "roll a die"),
            (AvatarAction(Kind.END_TURN), "end turn"),
            (AvatarAction(Kind.FORGO), "discard the die"),
        ]
        out += [(AvatarAction(Kind.SUMMON, c.index), f"summon {c.name}") for c in cards if c.figure]
        out += [(AvatarAction(Kind.CAST, c.index), f"cast {c.name}") for c in cards if c.spell]
        out += [(AvatarAction(Kind.ACTIVATE, c.index), f"activate {c.name}") for c in cards if c.figure]
        out += [(AvatarAction(Kind.LEVEL_UP, c.index), f"level up {c.name}") for c in cards if c.figure]
        out += [(AvatarAction(Kind.PAY_CARD, c.index), f"pay with {c.name}") for c in cards if c.gem]
        out.append((AvatarAction(Kind.PAY_GEMS), "pay the rest with gems"))
        out += [(AvatarAction(Kind.OPPONENT, n=s), f"opponent seat {s}") for s in range(MAX_SEATS)]
        out += [(AvatarAction(Kind.CHOOSE, c.index), f"choose {c.name}") for c in cards]
        out += [(AvatarAction(Kind.DISCARD, c.index), f"discard {c.name}") for c in cards]
        self.space: ActionSpace[AvatarAction] = ActionSpace("iuno_avatar:" + deck.key(), "Iuno Avatar", out)
        by = self.space.find
        n = len(cards)
        self.roll = by(Kind.ROLL)
        self.end_turn = by(Kind.END_TURN)
        self.forgo = by(Kind.FORGO)
        self.summon = {c.index: by(Kind.SUMMON, c.index) for c in cards if c.figure}
        self.cast = {c.index: by(Kind.CAST, c.index) for c in cards if c.spell}
        self.activate = {c.index: by(Kind.ACTIVATE, c.index) for c in cards if c.figure}
        self.level_up = {c.index: by(Kind.LEVEL_UP, c.index) for c in cards if c.figure}
        self.pay_card = {c.index: by(Kind.PAY_CARD, c.index) for c in cards if c.gem}
        self.pay_gems = by(Kind.PAY_GEMS)
        self.opponent = [by(Kind.OPPONENT, n=s) for s in range(MAX_SEATS)]
        self.choose = [by(Kind.CHOOSE, i) for i in range(n)]
        self.discard = [by(Kind.DISCARD, i) for i in range(n)]

def space_for(deck: CardSet) -> AvatarSpace:
    """Built once per deck and shared by every game with it."""
    return ActionSpace.shared("iuno_avatar:" + deck.key(), lambda: AvatarSpace(deck))
