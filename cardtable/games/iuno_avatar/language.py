"""Iuno Avatar's pictogram effect language: the rulebook's parts and nothing else.

Rulebook ("Operators", "Card types", "Playing Iuno"): the operators **take** (before a
component), **move** (between two areas) and **discard** (after a component); the areas
**Heaven**, **Earth** and **Hell** (and, in the middle of the table, the card stack, the purse of
gems and the dice); the components **die**, **card**, **gem**; the card types **figure**,
**spell**, **gem**; white pictograms are the player's, black ones "an opponent chosen by the
player". Each operator is one verb of the core's closed `VerbRegistry`, with typed parameters
checked when a card file is loaded; its plain-language text and its pictogram sequence are
generated from the same parameters.

- `take` (component die / card / gem, or for black a card of a type; owner; n): white takes from the
  middle (a die from the middle, a card from the stack, a gem from the purse), black takes from a
  chosen opponent (one of their dice, a random card (of the type) of their Heaven, one of their
  gems). What is taken is mine.
- `discard` (component die / gem, or a card of a type; owner; n): white discards mine (a die back
  to the middle, a gem back to the purse, a card of my choice from my Heaven to Hell), black makes
  a chosen opponent discard (a card at random from their Heaven: I cannot see it).
- `move` (a card of a type; from an area, to an area; the owner of each area but Hell, which is
  shared): one card, chosen by the player where they can see it (Earth, Hell, their own Heaven),
  at random from an opponent's Heaven; or a gem: a player's own gem onto their figure (activating or
  levelling it up) or to the middle (paying: the rules' move only).

A card's effect is a sequence of these steps (`sequence_text`, `sequence_pictograms`: the steps
joined by "then"), each happening only if the one before it could. A combination the rules forbid
is refused naming the rule (`effect_problem` for an effect, `activity_problem` for an activity that
can never happen); `language_rows` lists every combination with its verdict, `language_table` the
table of the docs with the cards that use each.

Figures answer *activities* written in the same language (`when`): an activity's colour says
whose it is, relative to the figure's controller: for take, who takes; for discard, whose is
discarded; for move, who owns each area. The turn's actions are activities of the same language
(`_rules_activities`): rolling a die discards it, paying moves a gem card from Heaven to Hell or gems
to the middle, activating moves a gem onto a figure, summoning and casting move a card from Heaven
to Earth. See docs/games/iuno_avatar.md for every reading chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal

from pydantic import Field, ValidationError, model_validator

from ...core.verbs import QUESTION, Effect, Params, VerbRegistry
from .facts import Step

ELEMENTS = ("fire", "earth", "light", "life", "water", "dark")  # NOTES.md: seat order follows this list
CARD_TYPES = ("figure", "spell", "gem")
AREAS = ("heaven", "earth", "hell")
Owner = Literal["white", "black"]
Area = Literal["heaven", "earth", "hell"]
#: a card named by type in an effect: "card" is any card
CardWhat = Literal["card", "figure card", "spell card", "gem card"]
CARD_WHATS: tuple[str, ...] = ("card", "figure card", "spell card", "gem card")

MAX_N = 3
#: the most gems one move carries: a payment of the rest of a cost in gems (cards.MAX_COST)
MAX_GEMS_MOVED = 4


class _Operator(Params):
    """An operator's parameters (one verb each)."""

    verb: ClassVar[str]

    @cached_property
    def step(self) -> Step:
        """These parameters as the rules read them at every activity (facts.py), worked out once."""
        return Step.of(self.verb, self)


class Take(_Operator):
    verb: ClassVar[str] = "take"

    what: Literal["die", "card", "gem", "figure card", "spell card", "gem card"]
    owner: Owner = "white"
    n: int = Field(1, ge=1, le=MAX_N)

    @model_validator(mode="after")
    def _one_card(self) -> Take:
        if self.what.endswith(" card") and self.n != 1:
            raise ValueError("a card of a type is taken one at a time: n must be 1")
        return self


class Discard(_Operator):
    verb: ClassVar[str] = "discard"

    what: Literal["die", "gem", "card", "figure card", "spell card", "gem card"]
    owner: Owner = "white"
    n: int = Field(1, ge=1, le=MAX_N)

    @model_validator(mode="after")
    def _one_card(self) -> Discard:
        # a card is chosen (or drawn at random) one at a time; dice and gems are alike
        if self.what.endswith("card") and self.n != 1:
            raise ValueError("cards are discarded one at a time: n must be 1 for a card")
        return self


class Move(_Operator):
    """A card between two areas, or a gem: a player's own gem onto one of their figures on Earth
    (activating or levelling it up, rulebook "by moving a(nother) gem on top of it") or to the
    middle (paying: "paying its cost"); a gem comes from its owner's gems (no `from_area`)."""

    verb: ClassVar[str] = "move"

    what: Literal["card", "figure card", "spell card", "gem card", "gem", "die"] = "card"
    from_area: Area | None = None
    from_owner: Owner | None = None
    to_area: Literal["heaven", "earth", "hell", "middle"]
    to_owner: Owner | None = None
    n: int = Field(1, ge=1, le=MAX_GEMS_MOVED)

    @model_validator(mode="after")
    def _areas(self) -> Move:
        if self.what == "die":
            raise ValueError("a die is taken and discarded (rolling discards it), never moved between areas")
        if self.what == "gem":
            if self.from_area is not None or self.from_owner is None:
                raise ValueError("a gem moves from its owner's gems: leave out from_area and give from_owner "
                                 "(white or black)")
            if self.to_area not in ("earth", "middle"):
                raise ValueError("a gem moves onto a figure on Earth (to_area earth: activate or level up) or to the "
                                 "middle (to_area middle: paying)")
            if self.to_area == "earth" and self.to_owner != self.from_owner:
                raise ValueError("a gem moves onto a figure of its own player: to_owner must be from_owner")
            if self.to_area == "middle" and self.to_owner is not None:
                raise ValueError("the middle is shared: to_owner must be left out when to_area is middle")
            if self.n != 1 and self.to_area != "middle":
                raise ValueError("gems go onto a figure one at a time: n must be 1")
            return self
        if self.n != 1:
            raise ValueError("a card moves one at a time: n must be 1")
        if self.from_area is None:
            raise ValueError("a card moves from an area: from_area must be heaven, earth or hell")
        if self.to_area == "middle":
            raise ValueError("only gems go to the middle (paying): to_area must be heaven, earth or hell for a card")
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


# -- what the rules allow -------------------------------------------------------------------------
# Each refusal quotes the rule (shared/rules/iuno-avatar.txt) it follows; `language_rows` lists every
# combination with its verdict for docs/games/iuno_avatar.md.

#: "Whenever a card leaves Earth, it is sent to Hell"
LEAVES_EARTH = "\"Whenever a card leaves Earth, it is sent to Hell\": to_area must be hell (or your Earth) when from_area is earth"
#: "Whenever a card is played, it is put on Earth": a player's own Earth
OWN_EARTH = "\"Whenever a card is played, it is put on Earth\" (the player's own): to_owner must be white"
HIDDEN_HEAVEN = ("a card put on Earth is chosen, and an opponent's Heaven is hidden (\"The cards in a players hand\"): "
                 "a card goes to your Earth from your own Heaven, from Hell or from an Earth")
FACE_DOWN = ("the card stack is face down (\"the card stack, from which players take cards\"): a white take is "
             "its top card, whatever its type: what must be 'card'")
PAYING = ("a gem goes to the middle only as payment, the rules' own move (\"paying its cost\"); an effect gives a gem "
          "back with discard: {verb = \"discard\", what = \"gem\"}")
OWN_GEMS = ("a player activates or levels up their own figure with their own gem (\"activate/level up this figure by "
            "moving a(nother) gem on top of it\"): from_owner and to_owner must be white")


def effect_problem(effect: Effect) -> str | None:
    """What a card's *effect* (one step; not an activity it answers) may not do, naming the rule."""
    p: Any = effect.params
    if effect.verb == "take" and p.owner == "white" and p.what.endswith(" card"):
        return FACE_DOWN
    if effect.verb != "move":
        return None
    if p.what == "gem":
        if p.to_area == "middle":
            return PAYING
        if p.from_owner != "white":
            return OWN_GEMS
        return None
    if p.from_area == "earth" and p.to_area == "heaven":
        # (an Earth to Earth move, as Soul Theft, stays on Earth)
        return LEAVES_EARTH
    if p.to_area == "earth":
        if p.to_owner != "white":
            return OWN_EARTH
        if p.from_area == "heaven" and p.from_owner == "black":
            return HIDDEN_HEAVEN
    return None


def _swap(owner: str | None) -> str | None:
    return {"white": "black", "black": "white"}.get(owner or "")


def _seen_by(effect: Effect, view: str) -> Effect | None:
    """`effect` (colours from its controller) as a figure's controller sees it: "self" the controller
    itself, "chosen" the opponent it chose (white and black swap), "other" a third player (all
    black); None when that view cannot be written (a move between two opponents' areas of one kind)."""
    p: Any = effect.params
    if view == "self" and effect.verb != "take":
        return effect

    def colour(owner: str | None) -> str | None:
        if owner is None:
            return None
        return _swap(owner) if view == "chosen" else "black"

    if effect.verb == "move":
        values = {**p.model_dump(), "from_owner": colour(p.from_owner), "to_owner": colour(p.to_owner)}
    elif effect.verb == "take":
        # the activity of a take is who takes: the controller (white to itself)
        values = {**p.model_dump(), "owner": "white" if view == "self" else "black"}
    else:
        values = {**p.model_dump(), "owner": colour(p.owner)}
    try:
        return Effect(effect.verb, type(p).model_validate(values))
    except ValueError:
        return None


def _key(effect: Effect) -> tuple[Any, ...]:
    p: Any = effect.params
    if effect.verb == "move":
        return ("move", p.what, p.from_area, p.from_owner, p.to_area, p.to_owner)
    return (effect.verb, p.what, p.owner)


def _rules_activities() -> list[Effect]:
    """The activities of a turn (rulebook "Playing Iuno"), each by the player whose turn it is: take a
    die, a card, a gem; roll (and so discard) a die; pay with gems or gem cards; activate or level up
    a figure (a gem onto it); summon and cast (a figure or spell card from Heaven to Earth)."""
    raw = [{"verb": "take", "what": w} for w in ("die", "card", "gem")] + [
        {"verb": "discard", "what": "die"},
        {"verb": "move", "what": "gem", "from_owner": "white", "to_area": "middle"},
        {"verb": "move", "what": "gem card", "from_area": "heaven", "from_owner": "white", "to_area": "hell"},
        {"verb": "move", "what": "gem", "from_owner": "white", "to_area": "earth", "to_owner": "white"},
    ] + [{"verb": "move", "what": w, "from_area": "heaven", "from_owner": "white", "to_area": "earth",
          "to_owner": "white"} for w in ("figure card", "spell card")]
    return [VERBS.parse(r, "the rules") for r in raw]


def activity_problem(activity: Effect) -> str | None:
    """Why a figure's `when` names an activity that can never happen (None: it can), from the
    figure's controller's side: an activity happens when the rules or an allowed effect do it, by
    the figure's controller (as written), by an opponent it is the chosen one of (white and black
    swapped), or by a third player (in 3-player games: all black)."""
    if _key(activity) in _possible_activities():
        return None
    p: Any = activity.params
    if activity.verb == "move" and p.what != "gem" and p.from_area == "earth" and p.to_area == "heaven":
        return "never happens: " + LEAVES_EARTH.split(":")[0]
    if activity.verb == "move" and p.to_area == "earth":
        return ("never happens: a card arrives on Earth only from its own player's Heaven (played), from Hell or "
                "from an opponent's Earth, and a gem goes only onto its own player's figure")
    return ("never happens: no rule and no effect the rules allow does this (docs/games/iuno_avatar.md, "
            "\"The language table\", lists the activities that can)")


_POSSIBLE: set[tuple[Any, ...]] = set()


def _possible_activities() -> set[tuple[Any, ...]]:
    if not _POSSIBLE:
        for effect in [*_rules_activities(), *(e for e in all_steps() if effect_problem(e) is None)]:
            for view in ("self", "chosen", "other"):
                seen = _seen_by(effect, view)
                if seen is not None:
                    _POSSIBLE.add(_key(seen))
                    if seen.verb != "move" and seen.params.what.endswith(" card"):  # type: ignore[attr-defined]
                        # a typed card taken or discarded is also "a card" taken or discarded
                        _POSSIBLE.add((seen.verb, "card", seen.params.owner))  # type: ignore[attr-defined]
    return _POSSIBLE


def all_steps() -> list[Effect]:
    """Every combination the language can write (n = 1), each a row of the language table."""
    return [e for raw in _raws() for e in [_refusal(raw)[0]] if e is not None]


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
    where = "at random from the Heaven of" if p.what.endswith("card") else "from"
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
    if p.what == "gem":
        you = _your(wording)
        if p.to_area == "middle":
            return f"pay {_count('gem', p.n)} to the middle"
        return f"put one of {you} gems onto one of {you} figures on Earth (activating or levelling it up)"
    assert p.from_area is not None  # (a card's move: checked by Move)
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
        # rolling a die discards it ("roll and discard their dies")
        rolled = " (rolling one included)" if p.what == "die" else ""
        if p.owner == "white":
            return f"{_count(p.what, 1)} of yours is discarded{rolled}"
        return f"an opponent's {p.what} is discarded{rolled}"
    if p.what == "gem":
        who = "you" if p.from_owner == "white" else "an opponent"
        if p.to_area == "middle":
            return f"{who} {'pay' if who == 'you' else 'pays'} with gems"
        whose = "your" if who == "you" else "their"
        return f"{who} {'put' if who == 'you' else 'puts'} a gem onto one of {whose} figures (activating or levelling it up)"

    def place(area: str, owner: str | None) -> str:
        if area == "hell":
            return "Hell"
        return f"your {area.title()}" if owner == "white" else f"an opponent's {area.title()}"

    paying = " (paying with a gem card included)" if (
        p.from_area == "heaven" and p.to_area == "hell" and p.what in ("card", "gem card")) else ""
    return f"{_count(p.what, 1)} moves from {place(p.from_area, p.from_owner)} to {place(p.to_area, p.to_owner)}{paying}"


# -- pictograms: the sequence a view draws, as data --------------------------------------------------


def _picto(kind: str, name: str, owner: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "name": name}
    if owner is not None:
        out["owner"] = owner
    return out


def pictograms(effect: Effect) -> list[dict[str, Any]]:
    """Rulebook order: take before its component, discard after it, move between two areas."""
    p: Any = effect.params
    if effect.verb == "move" and p.what == "gem":
        to = _picto("area", "middle") if p.to_area == "middle" else _picto("area", "earth", p.to_owner)
        return [*[_picto("component", "gem", p.from_owner)] * p.n, _picto("operator", "move"), to]
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


#: joins the steps of an effect sequence in a card's pictograms ("then": a step happens only if the
#: one before it could; docs/games/iuno_avatar.md)
THEN = _picto("joiner", "then")


def sequence_pictograms(steps: tuple[Effect, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, step in enumerate(steps):
        if i:
            out.append(THEN)
        out.extend(pictograms(step))
    return out


def sequence_text(steps: tuple[Effect, ...], wording: Any = None) -> str:
    return ", then ".join(VERBS.text(e, wording) for e in steps)


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


# -- the language table (docs/games/iuno_avatar.md): every combination, its verdict, its cards --------


@dataclass(frozen=True)
class Row:
    """One combination of the language: an operator, a component or card type, whose (white: mine,
    black: a chosen opponent's) and, for move, the two areas; as a card's effect and as a figure's
    activity, None if the rules allow it, else why not."""

    operator: str
    what: str
    source: str          # take / discard: white or black; move: the area it leaves
    target: str          # move: the area it enters ("" for take / discard)
    raw: dict[str, Any]
    as_effect: str | None
    as_activity: str | None


def _refusal(raw: dict[str, Any]) -> tuple[Effect | None, str | None]:
    """The effect `raw` writes, or why the language refuses it (the rule its parameters break)."""
    params: dict[str, type[Params]] = {"take": Take, "discard": Discard, "move": Move}
    try:
        return Effect(raw["verb"], params[raw["verb"]].model_validate({k: v for k, v in raw.items() if k != "verb"})), None
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        return None, str(err["msg"]).removeprefix("Value error, ")


def _place(area: str | None, owner: str | None) -> str:
    if area is None:
        return f"gems ({owner})"
    if area in ("hell", "middle"):
        return area.title()
    return f"{area.title()} ({owner})"


def _raws() -> list[dict[str, Any]]:
    """Every operator x component or card type x area, white and black (a move's areas differ)."""
    raws: list[dict[str, Any]] = []
    for verb in ("take", "discard"):
        for what in ("die", "gem", "card", "figure card", "spell card", "gem card"):
            for owner in ("white", "black"):
                raws.append({"verb": verb, "what": what, "owner": owner})
    places: list[tuple[str, str | None]] = [("heaven", "white"), ("heaven", "black"), ("earth", "white"),
                                            ("earth", "black"), ("hell", None)]
    for what in CARD_WHATS:
        for fa, fo in places:
            for ta, to in places:
                if (fa, fo) != (ta, to):
                    raws.append({"verb": "move", "what": what, "from_area": fa, "from_owner": fo, "to_area": ta,
                                 "to_owner": to})
    for owner in ("white", "black"):
        for ta, to in (("earth", "white"), ("earth", "black"), ("middle", None)):
            raws.append({"verb": "move", "what": "gem", "from_owner": owner, "to_area": ta, "to_owner": to})
    raws.append({"verb": "move", "what": "die", "from_owner": "white", "to_area": "middle"})
    return [{k: v for k, v in raw.items() if v is not None} for raw in raws]


def language_rows() -> list[Row]:
    """Every operator x component or card type x area, white and black, as the rulebook's parts
    combine them, with the verdict of the rules for an effect and for an activity."""
    rows = []
    for raw in _raws():
        effect, why = _refusal(raw)
        as_effect = why if effect is None else effect_problem(effect)
        as_activity = why if effect is None else activity_problem(effect)
        if raw["what"] == "die" and raw["verb"] == "move":
            source, target = "—", "—"
        elif raw["verb"] == "move":
            source = _place(raw.get("from_area"), raw.get("from_owner"))
            target = _place(raw["to_area"], raw.get("to_owner"))
        else:
            source, target = raw["owner"], ""
        rows.append(Row(raw["verb"], raw["what"], source, target, raw, as_effect, as_activity))
    return rows


def _row_key(row: Row) -> tuple[Any, ...]:
    r = row.raw
    if r["verb"] == "move":
        return ("move", r["what"], r.get("from_area"), r.get("from_owner"), r["to_area"], r.get("to_owner"))
    return (r["verb"], r["what"], r["owner"])


def language_table(cards: Any) -> str:
    """The table of docs/games/iuno_avatar.md ("The language table"), from `language_rows` and the
    cards of a deck (each with `name`, `effects` and `when`)."""
    lines = ["| operator | component / card type | whose / from | to | as an effect | as an activity (`when`) | "
             "cards (effect) | cards (when) |", "|---|---|---|---|---|---|---|---|"]
    for row in language_rows():
        key = _row_key(row)
        by_effect = [c.name for c in cards if any(_key(e) == key for e in c.effects)]
        by_when = [c.name for c in cards if c.when is not None and _key(c.when) == key]
        lines.append(f"| {row.operator} | {row.what} | {row.source} | {row.target or '—'} | "
                     f"{_verdict(row.as_effect)} | {_verdict(row.as_activity)} | {', '.join(by_effect) or '—'} | "
                     f"{', '.join(by_when) or '—'} |")
    return "\n".join(lines)


def _verdict(problem: str | None) -> str:
    return "allowed" if problem is None else "forbidden: " + problem.replace("|", "/")

