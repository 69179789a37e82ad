"""The effect layer's records (cardtable/core/effects/): what happens (`GameEvent`), whose it is
(`Context`), a standing effect (`Ability`), the pending work of an effect sequence (`Attempt`,
`Triggered`, `Fire`, `Finish`, in a `Sequence`) and the response stack's cards (`StackItem`, in a
`Chain`, in chain.py). All immutable except `StackItem` (see its note), so a state clones, saves
and determinizes in the middle of an effect.

The module is compiled (cardtable/_native.py), and the records the effect layer makes and reads at
every step (`GameEvent`, `Context`, `Ability`, the pending work and `Sequence`) are native classes:
fixed fields that the compiled rules read in place, no `__dict__`. A changed copy is made by the
record's own method (`Sequence.with_work`, `Attempt.declining`: `evolve` needs a `__dict__`), and
copy and pickle rebuild a record through its constructor (`__reduce__`). They are plain classes with
`Final` fields rather than frozen dataclasses: a compiled dataclass's constructor is the interpreted
one the `dataclasses` module writes, three times the cost of a native one. One game's JSON form of a
`Sequence` is a `SequenceRecord`. The response stack's records, which change in place and which
games extend, are in chain.py, interpreted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, TypeVar

from mypy_extensions import mypyc_attr

from ..state import Decision
from ..verbs import Effect, VerbRegistry

#: what kind of event: a name ("turn_start"), or a tuple of words for a game whose events have
#: several parts (Iuno Avatar: verb, what, from area, to area), read by position, never joined
EventKind = str | tuple[str, ...]


def _kind_json(kind: EventKind) -> Any:
    return kind if isinstance(kind, str) else list(kind)


def _kind_from_json(data: Any) -> EventKind:
    return str(data) if isinstance(data, str) else tuple(str(w) for w in data)


class Record:
    """An immutable record of fixed fields (`FIELDS`, in order, as its constructor takes them):
    equal to a record of its class with equal fields, hashed by them, shown and copied as a
    dataclass is (`__reduce__`: copy and pickle call the constructor again)."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def values(self) -> tuple[Any, ...]:
        """Its fields' values, in the order of `FIELDS`."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Record) and self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.FIELDS, self.values(), strict=True))
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self.values()


class GameEvent(Record):
    """Something that happens in a game: who does it, to what card, to whom, how much."""

    FIELDS = ("kind", "seat", "card", "target", "amount")

    def __init__(self, kind: EventKind, seat: int = -1, card: int = -1, target: int = -1, amount: int = 0) -> None:
        self.kind: Final = kind
        self.seat: Final = seat
        self.card: Final = card
        self.target: Final = target
        self.amount: Final = amount

    def values(self) -> tuple[Any, ...]:
        return self.kind, self.seat, self.card, self.target, self.amount

    def to_json(self) -> dict[str, Any]:
        return {"kind": _kind_json(self.kind), "seat": self.seat, "card": self.card, "target": self.target,
                "amount": self.amount}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameEvent:
        return GameEvent(_kind_from_json(data["kind"]), int(data["seat"]), int(data["card"]), int(data["target"]),
                         int(data["amount"]))


class Context(Record):
    """Whose an effect is: its controller, the card it comes from, its targets."""

    FIELDS = ("controller", "source", "targets")

    def __init__(self, controller: int, source: int = -1, targets: tuple[int, ...] = ()) -> None:
        self.controller: Final = controller
        self.source: Final = source
        self.targets: Final = targets

    def values(self) -> tuple[Any, ...]:
        return self.controller, self.source, self.targets

    def to_json(self) -> dict[str, Any]:
        return {"controller": self.controller, "source": self.source, "targets": list(self.targets)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Context:
        return Context(int(data["controller"]), int(data["source"]), tuple(int(t) for t in data["targets"]))


class Ability(Record):
    """A standing effect of a card in play, answering events of kind `when`: a trigger, or a
    replacement (`instead`). `index` tells a card's abilities apart; its `effects` happen top to
    bottom (Ivion: "effects are resolved from top to bottom").

    `first`: it happens before every other ability answering the same event, nobody choosing (Iuno
    Avatar: a spell's effect "immediately come[s] into effect once the spell card arrives on
    Earth"). `chained`: each of its effects after the first happens only if the one before it could
    (the game's `possible`): a sequence of steps read "do this, then that" (Iuno Avatar's effect
    sequences)."""

    FIELDS = ("card", "index", "controller", "when", "effects", "context", "instead", "optional", "first", "chained")

    def __init__(self, card: int, index: int, controller: int, when: EventKind, effects: tuple[Effect, ...],
                 context: Context, instead: bool = False, optional: bool = True, first: bool = False,
                 chained: bool = False) -> None:
        self.card: Final = card
        self.index: Final = index
        self.controller: Final = controller
        self.when: Final = when
        self.effects: Final = effects
        self.context: Final = context
        self.instead: Final = instead
        self.optional: Final = optional
        self.first: Final = first
        self.chained: Final = chained

    def values(self) -> tuple[Any, ...]:
        return (self.card, self.index, self.controller, self.when, self.effects, self.context, self.instead,
                self.optional, self.first, self.chained)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": self.card, "index": self.index, "controller": self.controller,
                               "when": _kind_json(self.when), "effects": [e.to_json() for e in self.effects],
                               "context": self.context.to_json(), "instead": self.instead, "optional": self.optional}
        if self.first:
            out["first"] = True
        if self.chained:
            out["chained"] = True
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any], verbs: VerbRegistry) -> Ability:
        return Ability(int(data["card"]), int(data["index"]), int(data["controller"]), _kind_from_json(data["when"]),
                       tuple(verbs.from_json(e) for e in data["effects"]), Context.from_json(data["context"]),
                       bool(data["instead"]), bool(data["optional"]), bool(data.get("first", False)),
                       bool(data.get("chained", False)))


class Attempt(Record):
    """An activity about to happen (replacements are offered first); `declined`: replacements
    their controllers chose not to use for it; `then`: a later step of a chained ability (it
    happens only if the step before it could)."""

    FIELDS = ("effect", "context", "declined", "then")

    def __init__(self, effect: Effect, context: Context, declined: tuple[tuple[int, int], ...] = (),
                 then: bool = False) -> None:
        self.effect: Final = effect
        self.context: Final = context
        self.declined: Final = declined
        self.then: Final = then

    def values(self) -> tuple[Any, ...]:
        return self.effect, self.context, self.declined, self.then

    def declining(self, card: int, index: int) -> Attempt:
        """This activity again, the ability (`card`, `index`) declined for it as well."""
        return Attempt(self.effect, self.context, (*self.declined, (card, index)), self.then)


class Triggered(Record):
    """Abilities that answer one event, still to be put in order and fired (each only while the
    game still has it in force: a card that left play fires no more); `active`: the seat whose turn
    it is (its controller's triggers come first)."""

    FIELDS = ("abilities", "active", "event")

    def __init__(self, abilities: tuple[Ability, ...], active: int, event: GameEvent) -> None:
        self.abilities: Final = abilities
        self.active: Final = active
        self.event: Final = event

    def values(self) -> tuple[Any, ...]:
        return self.abilities, self.active, self.event


class Fire(Record):
    """One trigger, next in order (asked if optional, stopped by the loop rule)."""

    FIELDS = ("ability",)

    def __init__(self, ability: Ability) -> None:
        self.ability: Final = ability

    def values(self) -> tuple[Any, ...]:
        return (self.ability,)


class Finish(Record):
    """An ability's effects have all happened (a game told of it hears: `ToldHost.ability_finished`)."""

    FIELDS = ("ability",)

    def __init__(self, ability: Ability) -> None:
        self.ability: Final = ability

    def values(self) -> tuple[Any, ...]:
        return (self.ability,)


Work = Attempt | Triggered | Fire | Finish


class Sequence(Record):
    """The effect sequence running now: what is left to do (the top is last) and the cards whose
    abilities fired in it (the loop rule)."""

    FIELDS = ("work", "fired")

    def __init__(self, work: tuple[Work, ...] = (), fired: tuple[int, ...] = ()) -> None:
        self.work: Final = work
        self.fired: Final = fired

    def values(self) -> tuple[Any, ...]:
        return self.work, self.fired

    def allows(self, ability: Ability) -> bool:
        return ability.card not in self.fired

    def with_work(self, work: tuple[Work, ...]) -> Sequence:
        """This sequence with `work` left to do."""
        return Sequence(work, self.fired)

    def with_fired(self, card: int) -> Sequence:
        """This sequence, `card`'s ability having fired in it (the loop rule)."""
        return Sequence(self.work, (*self.fired, card))

    def to_json(self) -> dict[str, Any]:
        return {"work": [_work_json(w) for w in self.work], "fired": list(self.fired)}


def _work_json(item: Work) -> dict[str, Any]:
    if isinstance(item, Attempt):
        out: dict[str, Any] = {"do": "attempt", "effect": item.effect.to_json(), "context": item.context.to_json(),
                               "declined": [list(d) for d in item.declined]}
        if item.then:
            out["then"] = True
        return out
    if isinstance(item, Triggered):
        return {"do": "triggered", "abilities": [a.to_json() for a in item.abilities], "active": item.active,
                "event": item.event.to_json()}
    if isinstance(item, Fire):
        return {"do": "fire", "ability": item.ability.to_json()}
    return {"do": "finish", "ability": item.ability.to_json()}


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


# a plain Python class in the compiled build (cardtable/_native.py), as `EffectActions`: the game's
# state layout holds it (`typed`), and copies and pickles of a game work as for any Python object
@mypyc_attr(native_class=False)
class SequenceRecord:
    """The `Sequence` field of one game's states, for the layout's `typed`: a new (idle) sequence,
    and its JSON form read back through the game's verbs (an effect's parameters are typed by its
    verb)."""

    def __init__(self, verbs: VerbRegistry) -> None:
        self.verbs = verbs

    def __call__(self) -> Sequence:
        return Sequence()

    def from_json(self, data: Mapping[str, Any]) -> Sequence:
        verbs = self.verbs
        return Sequence(tuple(_work_from_json(w, verbs) for w in data["work"]), tuple(int(c) for c in data["fired"]))


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
