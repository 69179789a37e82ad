"""The effect layer's records (cardtable/core/effects/): what happens (`GameEvent`), whose it is
(`Context`), a standing effect (`Ability`), the pending work of an effect sequence (`Attempt`,
`Triggered`, `Fire`, `Finish`, in a `Sequence`) and the response stack's cards (`StackItem`, in a
`Chain`). All immutable except `StackItem` (see its note), so a state clones, saves and
determinizes in the middle of an effect."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from ..resources import Payment
from ..state import Decision
from ..verbs import Effect, VerbRegistry
from .immutable import evolve

#: what kind of event: a name ("turn_start"), or a tuple of words for a game whose events have
#: several parts (Iuno Avatar: verb, what, from area, to area), read by position, never joined
EventKind = str | tuple[str, ...]


def _kind_json(kind: EventKind) -> Any:
    return kind if isinstance(kind, str) else list(kind)


def _kind_from_json(data: Any) -> EventKind:
    return str(data) if isinstance(data, str) else tuple(str(w) for w in data)


@dataclass(frozen=True)
class GameEvent:
    """Something that happens in a game: who does it, to what card, to whom, how much."""

    kind: EventKind
    seat: int = -1
    card: int = -1
    target: int = -1
    amount: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": _kind_json(self.kind), "seat": self.seat, "card": self.card, "target": self.target,
                "amount": self.amount}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameEvent:
        return cls(_kind_from_json(data["kind"]), int(data["seat"]), int(data["card"]), int(data["target"]),
                   int(data["amount"]))


@dataclass(frozen=True)
class Context:
    """Whose an effect is: its controller, the card it comes from, its targets."""

    controller: int
    source: int = -1
    targets: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"controller": self.controller, "source": self.source, "targets": list(self.targets)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Context:
        return cls(int(data["controller"]), int(data["source"]), tuple(int(t) for t in data["targets"]))


@dataclass(frozen=True)
class Ability:
    """A standing effect of a card in play, answering events of kind `when`: a trigger, or a
    replacement (`instead`). `index` tells a card's abilities apart; its `effects` happen top to
    bottom (Ivion: "effects are resolved from top to bottom")."""

    card: int
    index: int
    controller: int
    when: EventKind
    effects: tuple[Effect, ...]
    context: Context
    instead: bool = False
    optional: bool = True
    #: happens before every other ability answering the same event, nobody choosing (Iuno Avatar: a
    #: spell's effect "immediately come[s] into effect once the spell card arrives on Earth")
    first: bool = False
    #: each of its effects after the first happens only if the one before it could (the game's
    #: `possible`): a sequence of steps read "do this, then that" (Iuno Avatar's effect sequences)
    chained: bool = False

    def to_json(self, verbs: VerbRegistry) -> dict[str, Any]:
        out = {"card": self.card, "index": self.index, "controller": self.controller, "when": _kind_json(self.when),
               "effects": [e.to_json() for e in self.effects], "context": self.context.to_json(), "instead": self.instead,
               "optional": self.optional}
        if self.first:
            out["first"] = True
        if self.chained:
            out["chained"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], verbs: VerbRegistry) -> Ability:
        return cls(int(data["card"]), int(data["index"]), int(data["controller"]), _kind_from_json(data["when"]),
                   tuple(verbs.from_json(e) for e in data["effects"]), Context.from_json(data["context"]), bool(data["instead"]),
                   bool(data["optional"]), bool(data.get("first", False)), bool(data.get("chained", False)))


@dataclass(frozen=True)
class Attempt:
    """An activity about to happen (replacements are offered first); `declined`: replacements
    their controllers chose not to use for it."""

    effect: Effect
    context: Context
    declined: tuple[tuple[int, int], ...] = ()
    #: a later step of a chained ability: it happens only if the step before it could
    then: bool = False


@dataclass(frozen=True)
class Triggered:
    """Abilities that answer one event, still to be put in order and fired (each only while the
    game still has it in force: a card that left play fires no more)."""

    abilities: tuple[Ability, ...]
    active: int  # the seat whose turn it is: its controller's triggers come first
    event: GameEvent


@dataclass(frozen=True)
class Fire:
    """One trigger, next in order (asked if optional, stopped by the loop rule)."""

    ability: Ability


@dataclass(frozen=True)
class Finish:
    """An ability's effects have all happened (a game told of it hears: `ToldHost.ability_finished`)."""

    ability: Ability


Work = Attempt | Triggered | Fire | Finish


@dataclass(frozen=True)
class Sequence:
    """The effect sequence running now: what is left to do (the top is last) and the cards whose
    abilities fired in it (the loop rule)."""

    work: tuple[Work, ...] = ()
    fired: tuple[int, ...] = ()

    def allows(self, ability: Ability) -> bool:
        return ability.card not in self.fired

    # JSON needs the game's verbs (an effect's parameters are typed by its verb): `Effects`
    # gives the layout a record class bound to them (`Effects.record`).


def _work_json(item: Work, verbs: VerbRegistry) -> dict[str, Any]:
    if isinstance(item, Attempt):
        out: dict[str, Any] = {"do": "attempt", "effect": item.effect.to_json(), "context": item.context.to_json(),
                               "declined": [list(d) for d in item.declined]}
        if item.then:
            out["then"] = True
        return out
    if isinstance(item, Triggered):
        return {"do": "triggered", "abilities": [a.to_json(verbs) for a in item.abilities], "active": item.active,
                "event": item.event.to_json()}
    if isinstance(item, Fire):
        return {"do": "fire", "ability": item.ability.to_json(verbs)}
    return {"do": "finish", "ability": item.ability.to_json(verbs)}


def _work_from_json(data: Mapping[str, Any], verbs: VerbRegistry) -> Work:
    if data["do"] == "attempt":
        return Attempt(verbs.from_json(data["effect"]), Context.from_json(data["context"]),
                       tuple((int(c), int(i)) for c, i in data["declined"]), bool(data.get("then", False)))
    if data["do"] == "triggered":
        return Triggered(tuple(Ability.from_json(a, verbs) for a in data["abilities"]), int(data["active"]),
                         GameEvent.from_json(data["event"]))
    if data["do"] == "fire":
        return Fire(Ability.from_json(data["ability"], verbs))
    return Finish(Ability.from_json(data["ability"], verbs))


def _sequence_record(verbs: VerbRegistry) -> type[Sequence]:
    """`Sequence` with the JSON form of one game (its effects are typed by its verbs)."""

    @dataclass(frozen=True)
    class GameSequence(Sequence):
        def to_json(self) -> dict[str, Any]:
            return {"work": [_work_json(w, verbs) for w in self.work], "fired": list(self.fired)}

        @classmethod
        def from_json(cls, data: Mapping[str, Any]) -> GameSequence:
            return cls(tuple(_work_from_json(w, verbs) for w in data["work"]), tuple(int(c) for c in data["fired"]))

    return GameSequence


@dataclass
class StackItem:
    """A played card waiting to resolve: its card, owner and controller, targets, what was paid.

    Unlike the other pending records, an item changes in place: a card's progress changes at
    nearly every decision while it resolves (Runes of Zun: target by target), and a new record for
    each change cost Zun a quarter of its speed. So an item belongs to one state: only the stack's
    methods (`change_top`, `counter`) and its game change it, only while it is on this state's stack,
    and `Chain.copy` copies the items for a clone."""

    card: int
    owner: int
    controller: int
    targets: tuple[int, ...] = ()
    payment: Payment | None = None
    countered: bool = False

    def to_json(self) -> dict[str, Any]:
        """Every field (a game's subclass adds its own): tuples as lists, the payment as its JSON."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.to_json() if isinstance(value, Payment) else list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StackItem:
        values: dict[str, Any] = {}
        for f in fields(cls):
            value = data[f.name]
            if f.name == "payment":
                value = None if value is None else Payment.from_json(value)
            elif isinstance(value, list):
                value = tuple(value)
            values[f.name] = value
        return cls(**values)


@dataclass(frozen=True)
class Chain:
    """The response stack: unresolved cards, the last played last."""

    items: tuple[StackItem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"items": [i.to_json() for i in self.items]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Chain:
        return cls(tuple(StackItem.from_json(i) for i in data["items"]))

    def copy(self) -> Chain:
        """For a clone: the items change in place (`StackItem`), so a clone has its own."""
        if not self.items:
            return self
        return evolve(self, items=tuple(evolve(i) for i in self.items))


def _chain_record(item: type[StackItem]) -> type[Chain]:
    """`Chain` of a game whose stack items carry more (a subclass of `StackItem`)."""
    if item is StackItem:
        return Chain

    @dataclass(frozen=True)
    class GameChain(Chain):
        @classmethod
        def from_json(cls, data: Mapping[str, Any]) -> GameChain:
            return cls(tuple(item.from_json(i) for i in data["items"]))

    return GameChain


D = TypeVar("D", bound=Decision)


def bind_decision(cls: type[D], kinds: Mapping[str, str], asks: Mapping[str, str], **attrs: Any) -> type[D]:
    """`cls` bound to one game's engine or stack, under the game's name for it (`kind`) and its
    wording of the question (`asks`, after the seat)."""
    if cls.kind in asks:
        attrs["asks"] = asks[cls.kind]
    if cls.kind in kinds:
        attrs["kind"] = kinds[cls.kind]
    bound: type[D] = type(cls.__name__, (cls,), {"__slots__": (), **attrs})
    return bound
