"""Verbs: a game's closed registry of effect verbs, each one entry binding its name, its typed
parameters, what it does and how it reads (DESIGN.md, "The effect layer"; issue 15, item 1).

A card's effects are data (`{verb = "lose_hp", amount = 2}`); a card file is validated against the
registry when it is loaded, so an unknown verb or a bad parameter is refused with the file, the
card, the verb and the field. The rules run an effect through its verb's one handler; its text
is generated from the same entry. Nothing else names a verb.

A verb is one of three kinds, so that no verb "does nothing" while checks on its name elsewhere
do its work:

- `Kind.EFFECT`: it happens (a handler changes the state);
- `Kind.STATUS`: it holds while its card is in play (a ward, an exposed hand): the rules ask
  `registry.holds(effects, name)` instead of running it;
- `Kind.ANSWER`: it answers another card on the stack (cancel, redirect): the stack's rules read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import CardFileError


class Params(BaseModel):
    """Base of a verb's typed parameters: frozen, unknown keys refused, no coercion."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class NoParams(Params):
    """A verb without parameters."""


class Kind(Enum):
    EFFECT = "effect"
    STATUS = "status"
    ANSWER = "answer"


P = TypeVar("P", bound=Params)

#: the wording of a verb's text quoted in a decision's question, which everyone at the table reads:
#: it speaks of the seat that decides ("their Heaven", never "your"; `ui.names.addressed` says
#: "your" again to that seat alone)
QUESTION = "question"


@dataclass(frozen=True)
class Verb(Generic[P]):
    name: str
    kind: Kind
    params: type[P]
    #: (state, context, params): what the verb does (EFFECT verbs only)
    run: Callable[[Any, Any, P], None] | None
    #: (params, wording): the verb's English text; `wording` is the game's own (who is meant, ...)
    text: Callable[[P, Any], str]
    #: where on a card it may stand ("effects", "while_in_play", ...); empty: anywhere
    slots: tuple[str, ...] = ()


@dataclass(frozen=True)
class Effect:
    """One effect of a card: a verb and its parameters (JSON: `{"verb": name, **params}`)."""

    verb: str
    params: Params

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, **self.params.model_dump(mode="json")}


class VerbRegistry:
    """The closed set of verbs of one game."""

    def __init__(self, game_title: str) -> None:
        self.game_title = game_title
        self._verbs: dict[str, Verb[Any]] = {}

    def __contains__(self, name: object) -> bool:
        return name in self._verbs

    def names(self) -> list[str]:
        return list(self._verbs)

    def _add(self, verb: Verb[Any]) -> None:
        if verb.name in self._verbs:
            raise ValueError(f"{self.game_title}: the verb {verb.name!r} is defined twice")
        if (verb.kind is Kind.EFFECT) != (verb.run is not None):
            raise ValueError(f"{self.game_title}: verb {verb.name!r}: an effect verb has a handler, and only it")
        self._verbs[verb.name] = verb

    def effect(self, name: str, params: type[P] = NoParams,  # type: ignore[assignment]
               text: Callable[[P, Any], str] | None = None,
               slots: tuple[str, ...] = ()) -> Callable[[Callable[[Any, Any, P], None]], Callable[[Any, Any, P], None]]:
        """Register an EFFECT verb; decorates its handler `(state, context, params)`."""

        def register(run: Callable[[Any, Any, P], None]) -> Callable[[Any, Any, P], None]:
            if text is None:
                raise ValueError(f"{self.game_title}: verb {name!r} needs its text")
            self._add(Verb(name, Kind.EFFECT, params, run, text, slots))
            return run

        return register

    def status(self, name: str, text: Callable[[NoParams, Any], str], slots: tuple[str, ...] = ()) -> None:
        """Register a STATUS verb (it holds while its card is in play)."""
        self._add(Verb(name, Kind.STATUS, NoParams, None, text, slots))

    def answer(self, name: str, text: Callable[[NoParams, Any], str], slots: tuple[str, ...] = ()) -> None:
        """Register an ANSWER verb (it answers a card on the stack)."""
        self._add(Verb(name, Kind.ANSWER, NoParams, None, text, slots))

    def verb(self, name: str) -> Verb[Any]:
        return self._verbs[name]

    # -- card data ------------------------------------------------------------------------------

    def parse(self, raw: Any, where: str, slot: str = "") -> Effect:
        """An effect table of a card file, validated: `where` names the file and the card
        ("rune file runes.toml: rune 'Ember'"), `slot` the place on the card ("effects")."""
        if not isinstance(raw, dict):
            raise CardFileError(f"{where}: an effect is a table with a 'verb' and its parameters, got {raw!r}")
        name = raw.get("verb")
        verb = self._verbs.get(name) if isinstance(name, str) else None
        if verb is None:
            allowed = ", ".join(v for v, e in self._verbs.items() if not slot or not e.slots or slot in e.slots)
            raise CardFileError(f"{where}: field 'verb' must be one of {allowed} (got {name!r})")
        if slot and verb.slots and slot not in verb.slots:
            raise CardFileError(
                f"{where}: verb {name!r} cannot stand in {slot!r} (it belongs in {', '.join(verb.slots)})"
            )
        values = {k: v for k, v in raw.items() if k != "verb"}
        try:
            return Effect(verb.name, verb.params.model_validate(values))
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            field = ".".join(str(p) for p in err["loc"])
            if err["type"] == "extra_forbidden":
                known = ", ".join(verb.params.model_fields) or "none"
                raise CardFileError(f"{where}: verb {name!r}: unknown field {field!r} (its fields: {known})") from None
            got = "" if err["type"] == "missing" else f" (got {err.get('input')!r})"
            raise CardFileError(f"{where}: verb {name!r}: field {field!r}: {err['msg']}{got}") from None

    def from_json(self, data: dict[str, Any]) -> Effect:
        """An effect from its JSON form (a saved state: already validated once)."""
        verb = self._verbs[data["verb"]]
        return Effect(verb.name, verb.params.model_validate({k: v for k, v in data.items() if k != "verb"}))

    # -- the rules and the text -----------------------------------------------------------------

    def run(self, state: Any, context: Any, effect: Effect) -> None:
        self.handler(effect.verb)(state, context, effect.params)

    def handler(self, name: str) -> Callable[[Any, Any, Any], None]:
        """What the EFFECT verb `name` does, `(state, context, params)` (the compiled effect layer
        keeps it, and calls it without going through `run`)."""
        verb = self._verbs[name]
        if verb.run is None:
            raise TypeError(f"{name!r} is a {verb.kind.value} verb: it is not run")
        return verb.run

    def holds(self, effects: Iterable[Effect], name: str) -> bool:
        """Whether a STATUS verb `name` is among `effects`."""
        if self._verbs[name].kind is not Kind.STATUS:
            raise TypeError(f"{name!r} is not a status")
        return any(e.verb == name for e in effects)

    def text(self, effect: Effect, wording: Any = None) -> str:
        return self._verbs[effect.verb].text(effect.params, wording)
