"""Iuno Avatar's pictogram effect language: the rulebook's parts and nothing else.

Rulebook ("Operators", "Card types", "Playing Iuno"): the operators **take** (before a
component), **move** (between two areas) and **discard** (after a component); the areas
**Heaven**, **Earth** and **Hell** (and, in the middle of the table, the card stack, the purse of
gems and the dice); the components **die**, **card**, **gem**; the card types **figure**,
**spell**, **gem**; white pictograms are the player's, black ones "an opponent chosen by the
player". Each operator is one verb of the core's closed `VerbRegistry`, with typed parameters
checked when a card file is loaded; its plain-language text and its pictogram sequence are
generated from the same parameters.

- `take` (component die / card / gem; owner; n): white takes from the middle (a die from the
  middle, a card from the stack, a gem from the purse), black takes from a chosen opponent (one
  of their dice, a random card of their Heaven, one of their gems). What is taken is mine.
- `discard` (component die / gem, or a card of a type; owner; n): white discards mine (a die back
  to the middle, a gem back to the purse, a card of my choice from my Heaven to Hell), black makes
  a chosen opponent discard (a card at random from their Heaven: I cannot see it).
- `move` (a card of a type; from an area, to an area; the owner of each area but Hell, which is
  shared): one card, chosen by the player where they can see it (Earth, Hell, their own Heaven),
  at random from an opponent's Heaven.

Figures answer *activities* written in the same language (`when`): an activity's colour says
whose it is, relative to the figure's controller: for take, who takes; for discard, whose is
discarded; for move, who owns each area. See docs/games/iuno_avatar.md for every reading chosen.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ...core.verbs import QUESTION, Effect, Params, VerbRegistry

ELEMENTS = ("fire", "earth", "light", "life", "water", "dark")  # NOTES.md: seat order follows this list
CARD_TYPES = ("figure", "spell", "gem")
AREAS = ("heaven", "earth", "hell")
Owner = Literal["white", "black"]
Area = Literal["heaven", "earth", "hell"]
#: a card named by type in an effect: "card" is any card
CardWhat = Literal["card", "figure card", "spell card", "gem card"]

MAX_N = 3


class Take(Params):
    what: Literal["die", "card", "gem"]
    owner: Owner = "white"
    n: int = Field(1, ge=1, le=MAX_N)


class Discard(Params):
    what: Literal["die", "gem", "card", "figure card", "spell card", "gem card"]
    owner: Owner = "white"
    n: int = Field(1, ge=1, le=MAX_N)

    @model_validator(mode="after")
    def _one_card(self) -> Discard:
        # a card is chosen (or drawn at random) one at a time; dice and gems are alike
        if self.what.endswith("card") and self.n != 1:
            raise ValueError("cards are discarded one at a time: n must be 1 for a card")
        return self


class Move(Params):
    what: CardWhat = "card"
    from_area: Area
    from_owner: Owner | None = None
    to_area: Area
    to_owner: Owner | None = None

    @model_validator(mode="after")
    def _areas(self) -> Move:
        for area, owner, name in ((self.from_area, self.from_owner, "from"), (self.to_area, self.to_owner, "to")):
            if area == "hell" and owner is not None:
                raise ValueError(f"Hell is shared: {name}_owner must be left out when {name}_area is hell")
            if area != "hell" and owner is None:
                raise ValueError(f"{name}_owner must be white or black for {area}")
        if (self.from_area, self.from_owner) == (self.to_area, self.to_owner):
            raise ValueError("a move goes from one area to another")
        if self.from_area == "earth" and self.what not in ("card", "figure card"):
            raise ValueError("only figure cards stay on Earth: from_area earth moves a figure card (or 'card')")
        if self.to_area == "earth" and self.what not in ("figure card", "spell card"):
            raise ValueError("only figure and spell cards arrive on Earth: what must be 'figure card' or 'spell card'")
        return self


def effect_problem(effect: Effect) -> str | None:
    """What a card's *effect* (not an activity it answers) may not do: a card arrives only on its
    player's own Earth ("Whenever a card is played, it is put on Earth"), and never from an
    opponent's Heaven, whose cards the player cannot see; a card leaving Earth goes to Hell."""
    p: Any = effect.params
    if effect.verb == "move" and p.from_area == "earth" and p.to_area == "heaven":
        # "Whenever a card leaves Earth, it is sent to Hell" (an Earth to Earth move stays on Earth)
        return "a card that leaves Earth goes to Hell: to_area must be hell (or earth) when from_area is earth"
    if effect.verb == "move" and p.to_area == "earth":
        if p.to_owner != "white":
            return "a card arrives only on your own Earth: to_owner must be white"
        if p.from_area == "heaven" and p.from_owner == "black":
            return "a card goes to your Earth from your own Heaven, from Hell or from an Earth, not an opponent's Heaven"
    return None


VERBS = VerbRegistry("Iuno Avatar")

# -- text -------------------------------------------------------------------------------------

_NUM = {1: "a", 2: "two", 3: "three"}
_PLURAL = {"die": "dice", "gem": "gems", "card": "cards"}


def _count(what: str, n: int) -> str:
    if n == 1:
        return f"{'an' if what[0] in 'aeiou' else 'a'} {what}"
    last = what.split()[-1]
    return f"{_NUM[n]} {what[: -len(last)]}{_PLURAL.get(last, last + 's')}"


# A card's text speaks to its player ("your Heaven"); quoted in a question (wording QUESTION) it
# speaks of the seat that decides ("their Heaven").


def _your(wording: Any) -> str:
    return "their" if wording == QUESTION else "your"


def _area(area: str, owner: str | None, wording: Any = None) -> str:
    if area == "hell":
        return "Hell"
    you = _your(wording)
    return f"{you} {area.title()}" if owner == "white" else f"the {area.title()} of an opponent of {you} choice"


def take_text(p: Take, wording: Any = None) -> str:
    thing = _count(p.what, p.n)
    if p.owner == "white":
        where = {"die": "from the middle", "card": "from the stack", "gem": "from the purse"}[p.what]
        return f"take {thing} {where}"
    where = "at random from the Heaven of" if p.what == "card" else "from"
    return f"take {thing} {where} an opponent of {_your(wording)} choice"


def discard_text(p: Discard, wording: Any = None) -> str:
    thing = _count(p.what, p.n)
    back = {"die": " back to the middle", "gem": " back to the purse"}.get(p.what, "")
    you = _your(wording)
    if p.owner == "white":
        if p.what.endswith("card"):
            return f"discard {thing} of {you} choice from {you} Heaven to Hell"
        return f"discard {thing}{back}"
    if p.what.endswith("card"):
        # (in a question "their" is the deciding seat's alone: the opponent is named otherwise)
        whose = "that opponent's" if wording == QUESTION else "their"
        return f"make an opponent of {you} choice discard {thing} at random from {whose} Heaven to Hell"
    return f"make an opponent of {you} choice discard {thing}{back}"


def move_text(p: Move, wording: Any = None) -> str:
    return (f"move {_count(p.what, 1)} from {_area(p.from_area, p.from_owner, wording)} to "
            f"{_area(p.to_area, p.to_owner, wording)}")


# -- activities (what a figure answers): the same parts, read as "whenever ..." --------------------


def activity_text(effect: Effect) -> str:
    """A figure's `when`, in words: white is the figure's controller, black an opponent."""
    p: Any = effect.params
    if effect.verb == "take":
        who = "you take" if p.owner == "white" else "an opponent takes"
        return f"{who} {_count(p.what, 1)}"
    if effect.verb == "discard":
        if p.owner == "white":
            return f"{_count(p.what, 1)} of yours is discarded"
        return f"an opponent's {p.what} is discarded"

    def place(area: str, owner: str | None) -> str:
        if area == "hell":
            return "Hell"
        return f"your {area.title()}" if owner == "white" else f"an opponent's {area.title()}"

    return f"{_count(p.what, 1)} moves from {place(p.from_area, p.from_owner)} to {place(p.to_area, p.to_owner)}"


# -- pictograms: the sequence a view draws, as data --------------------------------------------------


def _picto(kind: str, name: str, owner: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "name": name}
    if owner is not None:
        out["owner"] = owner
    return out


def pictograms(effect: Effect) -> list[dict[str, Any]]:
    """Rulebook order: take before its component, discard after it, move between two areas."""
    p: Any = effect.params
    if effect.verb == "move":
        kind = "component" if p.what == "card" else "card type"
        name = p.what.split()[0]
        return [_picto("area", p.from_area, p.from_owner), _picto(kind, name), _picto("operator", "move"),
                _picto("area", p.to_area, p.to_owner)]
    kind = "component" if p.what in ("die", "card", "gem") else "card type"
    thing = [_picto(kind, p.what.split()[0], p.owner)] * p.n
    if effect.verb == "take":
        return [_picto("operator", "take"), *thing]
    return [*thing, _picto("operator", "discard")]


# One handler per operator: the rules live on the state (state.py), which carries them out.
@VERBS.effect("take", Take, text=take_text)
def _take(state: Any, context: Any, p: Take) -> None:
    state.do_take(context, p)


@VERBS.effect("discard", Discard, text=discard_text)
def _discard(state: Any, context: Any, p: Discard) -> None:
    state.do_discard(context, p)


@VERBS.effect("move", Move, text=move_text)
def _move(state: Any, context: Any, p: Move) -> None:
    state.do_move(context, p)
