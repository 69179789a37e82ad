"""IUNU's action space: one fixed list per Afterlife card set (the standard one unless the user
loads their own card file, whose Afterlife names appear in `keep <card>`).

Every choice a player makes is one of these actions, including out of turn (a Soldier's victim
choosing tribute). Citizen cards of one type are identical, so actions name the type.
"""

from __future__ import annotations

from enum import IntEnum

from mypy_extensions import mypyc_attr

from ...core.actions import Action, ActionSpace
from .cards import CITIZENS

MAX_SEATS = 4
DICE = 3


class Kind(IntEnum):
    PLAY = 0           # Dynasty phase: the one card that must be played
    SECOND = 1         # pay 1 Deben for a second card of the same type
    NO_SECOND = 2
    REROLL = 3         # Pharaoh: roll one die again at the start of the turn
    KEEP_DICE = 4
    USE = 5            # use the ability (Noble, Merchant)
    SKIP = 6           # do not use the ability
    SCRIBE = 7         # put a card from hand under the Scribe
    PRIEST_DIE = 8     # the die the Priest uses
    KEEP_AFTERLIFE = 9
    KEEP_CURRENT = 10  # Priest: keep the Afterlife card already held
    STEAL = 11         # Soldier: steal a Farmer from this seat
    TRIBUTE = 12       # the Soldier's victim pays 1 Deben instead
    GIVE_FARMER = 13
    BREAD = 14         # Baker: a Bread token on a Citizen of this type
    STOP_BAKING = 15
    PLACE_COUNT = 16   # Artisan: how many cards to place in the Forum
    PLACE = 17         # Rejuvenation 1: a card from hand into the Forum
    TAKE = 18          # Rejuvenation 1: a card from the Forum into hand


class IunuAction(Action):
    __slots__ = ("kind", "arg")

    def __init__(self, kind: Kind, arg: int = 0) -> None:
        self.kind = kind
        self.arg = arg


def _lower(name: str) -> str:
    return name.lower()


def build_space(afterlife_names: tuple[str, ...]) -> ActionSpace[IunuAction]:
    key = "iunu" if afterlife_names == STANDARD_AFTERLIFE else "iunu:" + "|".join(afterlife_names)
    space = _BUILT.get(key)
    if space is not None:
        return space
    out: list[tuple[IunuAction, str]] = []
    for t, c in enumerate(CITIZENS):
        out.append((IunuAction(Kind.PLAY, t), f"play {_lower(c)}"))
    out.append((IunuAction(Kind.SECOND), "play a second card"))
    out.append((IunuAction(Kind.NO_SECOND), "no second card"))
    for d in range(DICE):
        out.append((IunuAction(Kind.REROLL, d), f"reroll die {d + 1}"))
    out.append((IunuAction(Kind.KEEP_DICE), "keep the dice"))
    out.append((IunuAction(Kind.USE), "use ability"))
    out.append((IunuAction(Kind.SKIP), "skip ability"))
    for t, c in enumerate(CITIZENS):
        out.append((IunuAction(Kind.SCRIBE, t), f"put {_lower(c)} under scribe"))
    for d in range(DICE):
        out.append((IunuAction(Kind.PRIEST_DIE, d), f"priest with die {d + 1}"))
    for a, name in enumerate(afterlife_names):
        out.append((IunuAction(Kind.KEEP_AFTERLIFE, a), f"keep {_lower(name)}"))
    out.append((IunuAction(Kind.KEEP_CURRENT), "keep current afterlife card"))
    for s in range(MAX_SEATS):
        out.append((IunuAction(Kind.STEAL, s), f"steal a farmer from seat {s}"))
    out.append((IunuAction(Kind.TRIBUTE), "pay tribute"))
    out.append((IunuAction(Kind.GIVE_FARMER), "give up a farmer"))
    for t, c in enumerate(CITIZENS):
        out.append((IunuAction(Kind.BREAD, t), f"bread on {_lower(c)}"))
    out.append((IunuAction(Kind.STOP_BAKING), "stop baking"))
    for k in range(3):
        out.append((IunuAction(Kind.PLACE_COUNT, k), f"place {k} card{'s' if k != 1 else ''}"))
    for t, c in enumerate(CITIZENS):
        out.append((IunuAction(Kind.PLACE, t), f"place {_lower(c)} in forum"))
    for t, c in enumerate(CITIZENS):
        out.append((IunuAction(Kind.TAKE, t), f"take {_lower(c)}"))
    space = _BUILT[key] = ActionSpace(key, "IUNU", out)
    return space


_BUILT: dict[str, ActionSpace[IunuAction]] = {}


STANDARD_AFTERLIFE = (
    "Peret, the Season of Emergence", "Akhet, the Season of Inundation", "Shemu, the Season of Harvest",
    "The Dynasty of Hatshepsut", "The Dynasty of Amenhotep I", "The Guardians of Anubis",
    "The Judgment of Osiris", "Birth of Nephthys", "The Glory of Khufu",
)


# A plain Python class in the compiled build (cardtable/_native.py), so that
# copies and pickles (an encoder's copy holds the game) work as for any Python object.
@mypyc_attr(native_class=False)
class Lookup:
    """The canonical actions of one space, grouped by kind for the hot path."""

    def __init__(self, space: ActionSpace[IunuAction]) -> None:
        by: dict[Kind, list[Action]] = {k: [] for k in Kind}
        for a in space.actions:
            by[a.kind].append(a)  # typed as Action: legal_actions() returns list[Action]
        self.play = by[Kind.PLAY]
        self.second = by[Kind.SECOND][0]
        self.no_second = by[Kind.NO_SECOND][0]
        self.reroll = by[Kind.REROLL]
        self.keep_dice = by[Kind.KEEP_DICE][0]
        self.use = by[Kind.USE][0]
        self.skip = by[Kind.SKIP][0]
        self.scribe = by[Kind.SCRIBE]
        self.priest_die = by[Kind.PRIEST_DIE]
        self.keep_afterlife = by[Kind.KEEP_AFTERLIFE]
        self.keep_current = by[Kind.KEEP_CURRENT][0]
        self.steal = by[Kind.STEAL]
        self.tribute = by[Kind.TRIBUTE][0]
        self.give_farmer = by[Kind.GIVE_FARMER][0]
        self.bread = by[Kind.BREAD]
        self.stop_baking = by[Kind.STOP_BAKING][0]
        self.place_count = by[Kind.PLACE_COUNT]
        self.place = by[Kind.PLACE]
        self.take = by[Kind.TAKE]
