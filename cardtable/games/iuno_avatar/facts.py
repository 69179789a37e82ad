"""What Iuno Avatar's rules read of an effect's step and of a card at every activity, worked out
once, when the card file is loaded (bench/README.md, issue 37).

A step's parameters (language.py's `Take`, `Discard`, `Move`) and a card (cards.py's `Card`) are
pydantic models, which validate the card file and give its errors; reading one of their fields
is a generic attribute lookup, about ten times a native one, and the rules read dozens at every
activity. So each parameters object has its `Step` (`params.step`, made once) and each card its
`CardFacts` (`game.facts`, made once per deck): the same values as plain fields, which the
compiled rules read in place (this module is compiled, cardtable/_native.py), and the readings
of them that the rules ask at every step (`black`, `needs_card`, ...), each written here once and
used by the rules in state.py. They hold data only: what the rules do with it stays in state.py.
"""

from __future__ import annotations

from typing import Any, Final


class Step:
    """One step of the pictogram language as the rules read it: an operator (`verb`: take, discard,
    move), what it takes, discards or moves, whose (take and discard: `owner`, white or black; move:
    the owner of each area, None for Hell, the middle, a gem's missing area) and how many."""

    def __init__(self, verb: str, what: str, owner: str, from_area: str | None, from_owner: str | None,
                 to_area: str | None, to_owner: str | None, n: int) -> None:
        self.verb: Final = verb
        self.what: Final = what
        self.owner: Final = owner          # take, discard ("" for a move)
        self.from_area: Final = from_area  # move only
        self.from_owner: Final = from_owner
        self.to_area: Final = to_area
        self.to_owner: Final = to_owner
        self.n: Final = n
        #: a card (any card, or a card of a type), not a die or gem
        self.is_card: Final = what.endswith("card")
        #: the type a card must be ("figure", "spell", "gem"; "" for any card, or no card)
        self.card_type: Final = what[: -len(" card")] if what.endswith(" card") else ""
        #: it involves an opponent chosen by the player: a black pictogram (for a move, either area's)
        self.black: Final = owner == "black" if verb != "move" else "black" in (from_owner, to_owner)
        #: a card of a type, at random from an opponent's Heaven, whose types are hidden
        self.from_hidden_heaven: Final = (
            from_area == "heaven" and from_owner == "black" and what != "card" if verb == "move"
            else owner == "black" and what.endswith(" card"))
        #: the player chooses the card: discarding their own, or moving one they can see (not one
        #: drawn at random from an opponent's Heaven)
        self.needs_card: Final = (verb == "discard" and owner == "white") or (
            verb == "move" and not (from_area == "heaven" and from_owner == "black"))

    @staticmethod
    def of(verb: str, params: Any) -> Step:
        """The step of the verb `verb` with the language's parameters `params`."""
        if verb == "move":
            return Step(verb, params.what, "", params.from_area, params.from_owner, params.to_area, params.to_owner,
                        params.n)
        return Step(verb, params.what, params.owner, None, None, None, None, params.n)

    def is_a(self, card_type: str) -> bool:
        """Whether a card of `card_type` is what this step names ("card": any card)."""
        return self.what == "card" or self.card_type == card_type

    def __reduce__(self) -> tuple[Any, ...]:
        return Step, (self.verb, self.what, self.owner, self.from_area, self.from_owner, self.to_area, self.to_owner,
                      self.n)


def step_of(effect: Any) -> Step:
    """An effect's step (an `Effect` of language.py's verbs: its parameters' `step`)."""
    step: Step = effect.params.step
    return step


class CardFacts:
    """One card as the rules read it at every activity (the values of its `Card`, cards.py)."""

    def __init__(self, card: Any) -> None:
        self.card: Final[Any] = card
        self.index: Final[int] = card.index
        self.name: Final[str] = card.name
        self.type: Final[str] = card.type
        #: the card as an activity names what it moves, takes or discards ("figure card", ...)
        self.named: Final[str] = f"{card.type} card"
        self.figure: Final[bool] = card.figure
        self.spell: Final[bool] = card.spell
        self.gem: Final[bool] = card.gem
        self.element_index: Final[int] = card.element_index
        self.symbols: Final[int] = card.symbols
        self.level: Final[int] = card.level
        self.cost: Final[tuple[int, ...]] = card.cost
        #: a figure's effect happens instead of the activity it answers (else: also)
        self.exclusive: Final[bool] = card.kind == "exclusive"
        #: a figure's `when`: the activity its effect answers
        self.when: Final[Step | None] = None if card.when is None else step_of(card.when)
        #: the verb of that activity, if the figure has an effect ("" none)
        self.answers: Final[str] = card.when.verb if card.when is not None and card.effects else ""
        self.effects: Final[tuple[Any, ...]] = card.effects
        #: the steps of the effect, in order
        self.steps: Final[tuple[Step, ...]] = tuple(step_of(e) for e in card.effects)
        #: the first step of the effect: whether the effect is offered at all depends on it
        self.first: Final[Step | None] = self.steps[0] if self.steps else None
        #: a sequence of steps, each after the first happening only if the one before it could
        self.chained: Final[bool] = len(card.effects) > 1

    def __reduce__(self) -> tuple[Any, ...]:
        return CardFacts, (self.card,)
