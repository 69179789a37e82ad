"""The effect layer: game events, triggers and replacements with the loop rule, and a response
stack (DESIGN.md, "The effect layer"; issue 15, items 2 and 3).

**Triggers and replacements.** An effect (a verb with parameters, cardtable/core/verbs.py) is an
*activity* about to happen: the game says which `GameEvent` it is (`event_of`). Abilities in force
(figures with gems, (ongoing) runes) answer events: a *replacement* ("instead of X, do Y") is
offered before the activity and, used, takes its place; a *trigger* ("when X happens, also do Y")
is offered after it. Either may be optional for its controller (Iuno Avatar: "Players can always
choose whether they want a specific effect to take place or not"): a `UseAbility` decision asks.
Triggers of one event fire by their controllers in turn order, starting with the player whose turn
it is; a controller with several chooses their order (`FirstTrigger`). An *effect sequence* runs
until nothing is left to do and remembers the cards whose abilities fired in it: the loop rule
("an effect of a card doesn't again trigger the same effect or an effect of a card that had already
triggered before within the same effect sequence") keeps them from firing again. An ability's
effects happen top to bottom; a *chained* ability's (Iuno Avatar's effect sequences) each only if
the one before it could happen (the game's `possible`).

**The response stack.** A played card becomes a `StackItem` (its card, owner, controller, targets
and the `Payment` made for it); the other player may respond (`Priority`: their responses, or
pass). When a player passes, the cards resolve last-in first-out: a countered card goes to its
owner's discard; a card whose conditions no longer hold is meta-countered (discarded, and what was
paid for it refunded); otherwise it resolves.

Everything pending lives in typed records on the state (`Sequence`, `Chain`), declared in its
layout's `typed` fields (immutable, except the stack's items: `StackItem`), so a state clones,
saves and determinizes in the middle of an effect.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar, Protocol, TypeVar, cast, runtime_checkable

from .actions import Action
from .resources import Payment, Pools
from .state import Decision, State
from .verbs import QUESTION, Effect, VerbRegistry

R = TypeVar("R")

# -- records ----------------------------------------------------------------------------------


def evolve(record: R, **changes: Any) -> R:
    """A copy of the immutable `record` with `changes` (what `dataclasses.replace` does, without
    calling `__init__` again: pending work changes at every step of an effect, and the records
    are the engine's own, already checked)."""
    values = record.__dict__.copy()  # a copy of the fields, then the changes (cheaper than filling an empty dict)
    values.update(changes)
    new = object.__new__(type(record))
    object.__setattr__(new, "__dict__", values)
    return new



@dataclass(frozen=True)
class GameEvent:
    """Something that happens in a game: who does it, to what card, to whom, how much."""

    kind: str
    seat: int = -1
    card: int = -1
    target: int = -1
    amount: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "card": self.card, "target": self.target, "amount": self.amount}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameEvent:
        return cls(str(data["kind"]), int(data["seat"]), int(data["card"]), int(data["target"]), int(data["amount"]))


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
    when: str
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
        out = {"card": self.card, "index": self.index, "controller": self.controller, "when": self.when,
               "effects": [e.to_json() for e in self.effects], "context": self.context.to_json(), "instead": self.instead,
               "optional": self.optional}
        if self.first:
            out["first"] = True
        if self.chained:
            out["chained"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], verbs: VerbRegistry) -> Ability:
        return cls(int(data["card"]), int(data["index"]), int(data["controller"]), str(data["when"]),
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


# -- the engine -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectActions:
    """The game's action objects the effect layer's decisions offer (the state gives them:
    `EffectHost.effect_actions`, as a game whose actions depend on its cards has them per game)."""

    accept: Action | None = None  # None: the game's abilities are all mandatory (no one is asked)
    decline: Action | None = None
    first: Seq[Action] = ()  # first[i]: the i-th of a controller's triggers goes first


# -- what a state gives the layer (STYLE.md principle 11) ----------------------------------------


@runtime_checkable
class EffectHost(Protocol):
    """What a game's state gives the effect layer (`Effects`): its rules, as methods.

    - `abilities(event)`: the abilities in force that answer `event` (the game checks their
      conditions: whose gem, which area);
    - `event_of(effect, context)`: the activity an effect is, as an event;
    - `turn_order()`: the seats in turn order from the player whose turn it is;
    - `effects_done()`: the effect sequence is over (the game goes on: the turn continues);
    - `card_name(card)`: a card as the questions (and the stack's log) name it;
    - `effect_actions()`: the actions the layer's decisions offer."""

    pending: list[Decision]
    is_over: bool

    def abilities(self, event: GameEvent) -> list[Ability]: ...

    def event_of(self, effect: Effect, context: Context) -> GameEvent: ...

    def turn_order(self) -> list[int]: ...

    def effects_done(self) -> None: ...

    def card_name(self, card: int) -> str: ...

    def effect_actions(self) -> EffectActions: ...


@runtime_checkable
class ChainedHost(EffectHost, Protocol):
    """A game with chained abilities (`Effects(chained=True)`): each step of one happens only if
    the step before it could (Iuno Avatar's effect sequences)."""

    def possible(self, effect: Effect, context: Context) -> bool:
        """Whether an effect can do anything now."""
        ...


@runtime_checkable
class ToldHost(EffectHost, Protocol):
    """A game told when an ability is used (before its effects) and has finished (after them)
    (`Effects(told=True)`): it logs it, or moves its card (Runes of Zun: an (ongoing) rune expires)."""

    def ability_used(self, ability: Ability) -> None: ...

    def ability_finished(self, ability: Ability) -> None: ...


@runtime_checkable
class ChoosingHost(EffectHost, Protocol):
    """A game that names the action putting each trigger first (`Effects(names_first=True)`), not
    by position: abilities under one action are interchangeable (copies of one card), so their
    controller is not asked to order them and the first in the game's order goes first."""

    def trigger_action(self, ability: Ability) -> Action: ...


class Effects:
    """Runs effects for one game: its verbs, and what its state answers (`EffectHost`).

    - `kinds`, `asks`: the names of the layer's decisions in this game (their `kind`) and their
      questions;
    - `answerable`: the verbs whose activities abilities may answer (a game whose abilities only
      answer other events, a turn's start, says so and its effects just happen);
    - `chained`, `told`, `names_first`: the game's state also implements `ChainedHost`, `ToldHost`,
      `ChoosingHost` (`hosts` lists what the state implements);
    - `field`: the state attribute holding the `Sequence` (declared in the layout's `typed`)."""

    def __init__(self, verbs: VerbRegistry, field: str = "sequence", kinds: Mapping[str, str] | None = None,
                 asks: Mapping[str, str] | None = None, answerable: frozenset[str] | None = None,
                 chained: bool = False, told: bool = False, names_first: bool = False) -> None:
        self.verbs = verbs
        self.chained = chained
        self.told = told
        self.names_first = names_first
        #: the protocols a state of this game implements (a conformance test checks each game's)
        self.hosts: tuple[type, ...] = (EffectHost, *(p for p, on in ((ChainedHost, chained), (ToldHost, told),
                                                                       (ChoosingHost, names_first)) if on))
        self.field = field
        self._get: Callable[[State], Any] = attrgetter(field)  # the state's sequence (read at every step)
        #: the verbs whose activities an ability may answer (None: all); the others just happen
        self.answerable = answerable
        #: the class of the `Sequence` field (its JSON form reads effects through these verbs)
        self.record = _sequence_record(verbs)
        self.idle = self.record()  # no sequence under way (immutable: every state shares it)
        kinds, wording = dict(kinds or {}), dict(asks or {})
        #: the layer's decisions, bound to this engine: list them in the state layout's `decisions`
        self.UseAbility: type[UseAbility] = _bind(UseAbility, kinds, wording, engine=self)
        self.FirstTrigger: type[FirstTrigger] = _bind(FirstTrigger, kinds, wording, engine=self)
        self.decisions: tuple[type[Decision], ...] = (self.UseAbility, self.FirstTrigger)

    def sequence(self, state: State) -> Sequence:
        seq: Sequence = getattr(state, self.field)
        return seq

    def _set(self, state: State, seq: Sequence) -> None:
        setattr(state, self.field, seq)

    def _push(self, state: State, *items: Work) -> None:
        seq = self._get(state)
        self._set(state, evolve(seq, work=seq.work + items))

    def busy(self, state: State) -> bool:
        """An effect sequence is under way (work is left in it)."""
        return bool(self._get(state).work)

    def start(self, state: State, effect: Effect, context: Context) -> None:
        """Carry out `effect` (a spell, an activated figure): it and all it sets off, until a
        player must decide or the sequence is over."""
        self.start_all(state, (effect,), context)

    def start_all(self, state: State, effects: Seq[Effect], context: Context) -> None:
        """Carry out `effects`, top to bottom, in one effect sequence."""
        if not self.carry_out(state, effects, context):
            return
        if not state.is_over:
            cast(EffectHost, state).effects_done()

    def carry_out(self, state: State, effects: Seq[Effect], context: Context) -> bool:
        """`start_all` for a game that goes on by itself (Runes of Zun's rune on a target, Ivion's
        card resolving on the stack): True when the effects are over at once
        (no one was asked anything, and `effects_done` is not called: the caller goes on); False when a
        player must decide first or the game is over (then `effects_done` comes when the sequence ends)."""
        answerable = self.answerable
        if answerable is not None and not self._get(state).work:
            # Nothing can answer these effects: each just happens, in order, until one asks a
            # player something; what is left then waits in the sequence.
            pending = state.pending
            for k, effect in enumerate(effects):
                if effect.verb in answerable:
                    effects = effects[k:]
                    break
                before = len(pending)
                self.verbs.run(state, context, effect)
                if state.is_over:
                    return False
                if len(pending) > before:
                    self._push(state, *(Attempt(e, context) for e in reversed(effects[k + 1:])))
                    return False
            else:
                return True
        self._push(state, *(Attempt(e, context) for e in reversed(effects)))
        return self._work(state)

    def happen(self, state: State, event: GameEvent) -> None:
        """`event` happened outside any effect (a turn starts): the triggers answering it fire,
        in one effect sequence."""
        host = cast(EffectHost, state)
        answering = host.abilities(event)
        if answering:
            triggers = tuple(a for a in answering if not a.instead)
            if triggers:
                self._push(state, Triggered(triggers, host.turn_order()[0], event))
        elif not self._get(state).work and not state.is_over:
            # nothing answers it and nothing is under way (most turns start so): the game goes on,
            # as `run` would tell it
            self._set(state, self.idle)
            host.effects_done()
            return
        self.run(state)

    def run(self, state: State) -> None:
        """Work until a decision is pending or nothing is left; then the sequence forgets what fired
        (the next activity starts a new effect sequence) and the game is told (`effects_done`). A
        game decision pushed by a verb pauses the run too: its resolution calls `run` again."""
        if self._work(state):
            cast(EffectHost, state).effects_done()

    def _work(self, state: State) -> bool:
        """`run` without telling the game: True when nothing is left (the sequence is over), False
        when a decision is pending or the game is over."""
        while True:
            seq = self._get(state)
            if state.is_over:
                self._set(state, self.idle)
                return False
            if not seq.work:
                self._set(state, self.idle)
                return True
            item = seq.work[-1]
            self._set(state, evolve(seq, work=seq.work[:-1]))
            before = len(state.pending)
            if isinstance(item, Attempt):
                self._attempt(state, item)
            elif isinstance(item, Triggered):
                self._order(state, item)
            elif isinstance(item, Fire):
                self._fire(state, item.ability)
            elif self.told:
                cast(ToldHost, state).ability_finished(item.ability)
            if len(state.pending) > before:
                return False

    def _attempt(self, state: State, attempt: Attempt) -> None:
        seq = self._get(state)
        if seq.work and isinstance(seq.work[-1], Attempt) and seq.work[-1].then and self.chained \
                and not cast(ChainedHost, state).possible(attempt.effect, attempt.context):
            # a step of a chained ability that can do nothing: the steps after it do not happen
            work = seq.work
            while work and isinstance(work[-1], Attempt) and work[-1].then:
                work = work[:-1]
            self._set(state, evolve(seq, work=work))
            return
        if self.answerable is not None and attempt.effect.verb not in self.answerable:
            self.verbs.run(state, attempt.context, attempt.effect)  # nothing can answer it
            return
        host = cast(EffectHost, state)
        event = host.event_of(attempt.effect, attempt.context)
        replacements = [
            a for a in host.abilities(event)
            if a.instead and seq.allows(a) and (a.card, a.index) not in attempt.declined
        ]
        if replacements:
            order = host.turn_order()
            a = min(replacements, key=lambda r: (order.index(r.controller), r.card, r.index))
            if a.optional:
                state.pending.append(self.UseAbility(a.controller, a, attempt))
            else:
                self._use(state, a)
            return
        self.verbs.run(state, attempt.context, attempt.effect)
        triggers = tuple(a for a in host.abilities(event) if not a.instead)
        if triggers:
            self._push(state, Triggered(triggers, host.turn_order()[0], event))

    def choices(self, state: State, abilities: Seq[Ability]) -> list[Ability]:
        """The abilities a controller chooses among: one of each action (`names_first`), the first."""
        if not self.names_first:
            return list(abilities)
        host = cast(ChoosingHost, state)
        seen: set[Hashable] = set()
        out = []
        for a in abilities:
            key = host.trigger_action(a)
            if key not in seen:
                seen.add(key)
                out.append(a)
        return out

    def _order(self, state: State, pending: Triggered) -> None:
        seq = self._get(state)
        host = cast(EffectHost, state)
        in_force = {(a.card, a.index) for a in host.abilities(pending.event)}
        live = [a for a in pending.abilities if seq.allows(a) and (a.card, a.index) in in_force]
        if not live:
            return
        order = host.turn_order()
        firsts = [a for a in live if a.first]
        if firsts:  # several: by controller in turn order, then in the order the game lists them
            self._first(state, min(firsts, key=lambda a: order.index(a.controller)), live, pending)
            return
        first_seat = min((a.controller for a in live), key=order.index)
        mine = self.choices(state, [a for a in live if a.controller == first_seat])
        if len(mine) > 1:
            state.pending.append(self.FirstTrigger(first_seat, tuple(live), pending.active, pending.event))
            return
        self._first(state, mine[0], live, pending)

    def _first(self, state: State, first: Ability, live: Seq[Ability], pending: Triggered) -> None:
        rest = tuple(a for a in live if a is not first)
        if rest:
            self._push(state, Triggered(rest, pending.active, pending.event))
        self._push(state, Fire(first))

    def _fire(self, state: State, a: Ability) -> None:
        if not self._get(state).allows(a):
            return  # the loop rule: a card whose ability fired in this sequence fires no more
        if a.optional:
            state.pending.append(self.UseAbility(a.controller, a, None))
        else:
            self._use(state, a)

    def _use(self, state: State, a: Ability) -> None:
        seq = self._get(state)
        self._set(state, evolve(seq, fired=(*seq.fired, a.card)))
        steps = [Attempt(e, a.context, then=a.chained and i > 0) for i, e in enumerate(a.effects)]
        self._push(state, Finish(a), *reversed(steps))
        if self.told:
            cast(ToldHost, state).ability_used(a)

    # -- answers to the layer's decisions ---------------------------------------------------

    def answered(self, state: State, decision: UseAbility, accept: bool) -> None:
        a = decision.ability
        if accept:
            self._use(state, a)
        elif decision.replacing is not None:  # declined: the activity may still be replaced by another, or happen
            r = decision.replacing
            self._push(state, evolve(r, declined=(*r.declined, (a.card, a.index))))
        self.run(state)

    def ordered(self, state: State, decision: FirstTrigger, first: Ability) -> None:
        self._first(state, first, decision.abilities, Triggered(decision.abilities, decision.active, decision.event))
        self.run(state)

    def text(self, ability: Ability, wording: Any = None) -> str:
        """What the ability does, in the verbs' words (`wording` "question": as the layer's questions
        put it to everyone, of the seat that decides: "their", never "your")."""
        return (", then " if ability.chained else " ").join(self.verbs.text(e, wording) for e in ability.effects)


D = TypeVar("D", bound=Decision)


def _bind(cls: type[D], kinds: Mapping[str, str], asks: Mapping[str, str], **attrs: Any) -> type[D]:
    """`cls` bound to one game's engine or stack, under the game's name for it (`kind`) and its
    wording of the question (`asks`, after the seat)."""
    if cls.kind in asks:
        attrs["asks"] = asks[cls.kind]
    if cls.kind in kinds:
        attrs["kind"] = kinds[cls.kind]
    bound: type[D] = type(cls.__name__, (cls,), {"__slots__": (), **attrs})
    return bound


class UseAbility(Decision):
    """Use this ability? "Also do ...?" for a trigger, "Instead do ...?" for a replacement.
    (`Effects.UseAbility` is this decision bound to one game's engine.)"""

    __slots__ = ("ability", "replacing")
    kind = "use_ability"
    engine: ClassVar[Effects]

    def __init__(self, seat: int, ability: Ability, replacing: Attempt | None) -> None:
        super().__init__(seat)
        self.ability = ability
        self.replacing = replacing

    def legal_actions(self, state: State) -> list[Action]:
        actions = cast(EffectHost, state).effect_actions()
        if actions.accept is None or actions.decline is None:
            raise TypeError("an optional ability needs the game's accept and decline actions (EffectActions)")
        return [actions.accept, actions.decline]

    def resolve(self, state: State, action: Action) -> None:
        self.engine.answered(state, self, action is cast(EffectHost, state).effect_actions().accept)

    def question(self, state: State) -> str:
        how = "instead" if self.ability.instead else "also"
        # "also do ...?" for a trigger, "instead do ...?" for a replacement, naming the card
        name = cast(EffectHost, state).card_name(self.ability.card)
        return f"may {how} {self.engine.text(self.ability, QUESTION)} ({name})"

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "seat": self.seat, "ability": self.ability.to_json(self.engine.verbs)}
        if self.replacing is not None:
            out["replacing"] = _work_json(self.replacing, self.engine.verbs)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UseAbility:
        replacing = data.get("replacing")
        attempt = _work_from_json(replacing, cls.engine.verbs) if replacing is not None else None
        if attempt is not None and not isinstance(attempt, Attempt):
            raise ValueError("a replacement answers an activity about to happen")
        return cls(int(data["seat"]), Ability.from_json(data["ability"], cls.engine.verbs), attempt)


class FirstTrigger(Decision):
    """Several of your abilities answer the same event: which happens first?
    (`Effects.FirstTrigger` is this decision bound to one game's engine.)"""

    __slots__ = ("abilities", "active", "event")
    kind = "first_trigger"
    engine: ClassVar[Effects]

    def __init__(self, seat: int, abilities: tuple[Ability, ...], active: int, event: GameEvent) -> None:
        super().__init__(seat)
        self.abilities = abilities
        self.active = active
        self.event = event

    def mine(self, state: State) -> list[Ability]:
        """The choices: this seat's abilities, one of each kind."""
        return self.engine.choices(state, [a for a in self.abilities if a.controller == self.seat])

    def _offers(self, state: State) -> list[tuple[Action, Ability]]:
        if self.engine.names_first:
            choose = cast(ChoosingHost, state).trigger_action
            # in the order of the game's actions, as every list of legal actions
            return sorted(((choose(a), a) for a in self.mine(state)), key=lambda offer: offer[0].index)
        return list(zip(cast(EffectHost, state).effect_actions().first, self.mine(state), strict=False))

    def legal_actions(self, state: State) -> list[Action]:
        return [action for action, _ in self._offers(state)]

    def resolve(self, state: State, action: Action) -> None:
        first = next(a for act, a in self._offers(state) if act is action)
        self.engine.ordered(state, self, first)

    def question(self, state: State) -> str:
        if self.asks:
            return self.asks
        name = cast(EffectHost, state).card_name
        options = "; ".join(f"{i + 1}: {name(a.card)}, {self.engine.text(a, QUESTION)}"
                            for i, a in enumerate(self.mine(state)))
        return f"must choose which of their abilities happens first ({options})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "active": self.active, "event": self.event.to_json(),
                "abilities": [a.to_json(self.engine.verbs) for a in self.abilities]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FirstTrigger:
        abilities = tuple(Ability.from_json(a, cls.engine.verbs) for a in data["abilities"])
        return cls(int(data["seat"]), abilities, int(data["active"]), GameEvent.from_json(data["event"]))


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

# -- the response stack ------------------------------------------------------------------------


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


@runtime_checkable
class PriorityHost(Protocol):
    """What a game's state gives the response stack's priority window (`Priority`).

    - `responses(seat)`: the actions that answer the top card (playable instants);
    - `respond(seat, action)`: carry out a response (pay, and `ResponseStack.play` it);
    - `pass_action()`: the action that passes (a game whose actions depend on its cards has it per game);
    - `next_priority(seat)`: who may respond to `seat`;
    - `priority_question(seat)`: the window's question after "seat N";
    - `priority_refusal(seat, action)`: why an action is refused in the window."""

    pending: list[Decision]
    is_over: bool

    def responses(self, seat: int) -> list[Action]: ...

    def respond(self, seat: int, action: Action) -> None: ...

    def pass_action(self) -> Action: ...

    def next_priority(self, seat: int) -> int: ...

    def priority_question(self, seat: int) -> str: ...

    def priority_refusal(self, seat: int, action: Action) -> str: ...


@runtime_checkable
class StackHost(PriorityHost, Protocol):
    """A game whose stack the core resolves, card by card, the last played first (`resolve_next`).

    - `still_legal(item)`: the conditions that allowed the card still hold (else it is
      meta-countered);
    - `resolve_item(item)`: its effects; `discard_item(item)`: to its owner's discard (after
      resolving, unless it stays in play attached);
    - `pools_of(seat)`: the seat's resource pools, for refunds;
    - `stack_done()`: the stack is empty again (the game goes on);
    - `card_name(card)`: a card as the log's countered and meta-countered events name it."""

    def still_legal(self, item: StackItem) -> bool: ...

    def resolve_item(self, item: StackItem) -> None: ...

    def discard_item(self, item: StackItem) -> None: ...

    def pools_of(self, seat: int) -> dict[str, int]: ...

    def stack_done(self) -> None: ...

    def card_name(self, card: int) -> str: ...


@runtime_checkable
class StagedStackHost(PriorityHost, Protocol):
    """A game that resolves its stack in stages of its own (`ResponseStack(staged=True)`; Runes of
    Zun: target by target): a pass goes back to the game."""

    def priority_passed(self, seat: int) -> None: ...


class ResponseStack:
    """The response stack of one game (Ivion's instants; Zun's reactions), asking the state
    (`StackHost`, or `StagedStackHost` when `staged`).

    `item`: the class of its items (a subclass of `StackItem` carrying what else the game needs);
    `record`: the class of the `Chain` field to declare in the layout's `typed`; `kinds`: the game's
    name for the priority decision; `pools`: where payments are refunded (None: nothing is paid)."""

    def __init__(self, pools: Pools | None, field: str = "chain", item: type[StackItem] = StackItem,
                 kinds: Mapping[str, str] | None = None, staged: bool = False) -> None:
        self.pools = pools
        self.field = field
        #: the game resolves its cards in stages of its own: a pass is the game's (`priority_passed`)
        self.staged = staged
        #: the protocol a state of this game implements (a conformance test checks each game's)
        self.hosts: tuple[type, ...] = (StagedStackHost,) if staged else (StackHost,)
        self._get: Callable[[State], Any] = attrgetter(field)  # the state's chain (read at every step)
        self.record = _chain_record(item)
        self.empty = self.record()  # nothing on the stack (immutable: every state shares it)
        #: the priority decision bound to this stack: list it in the state layout's `decisions`
        self.Priority: type[Priority] = _bind(Priority, dict(kinds or {}), {}, stack=self)

    def push(self, state: State, item: StackItem) -> None:
        """`item` goes on the stack, without opening a window (the game opens it: `window`)."""
        setattr(state, self.field, self.record((*self._get(state).items, item)))

    def window(self, state: State, seat: int) -> None:
        """`seat` may respond to the top card, or pass."""
        state.pending.append(self.Priority(seat))

    def top(self, state: State) -> StackItem:
        chain: Chain = self._get(state)
        return chain.items[-1]

    def update(self, state: State, item: StackItem) -> None:
        """Put `item` in the place of the top card (its progress, a new target)."""
        setattr(state, self.field, self.record((*self._get(state).items[:-1], item)))

    def change_top(self, state: State, **changes: Any) -> Any:
        """The top card's progress: `changes` made to it, in place (`StackItem`); the card."""
        item = self._get(state).items[-1]
        item.__dict__.update(changes)
        return item

    def pop(self, state: State) -> StackItem:
        """Take the top card off the stack (it resolved, or left play)."""
        items: tuple[StackItem, ...] = self._get(state).items
        setattr(state, self.field, self.record(items[:-1]))
        return items[-1]

    def chain(self, state: State) -> Chain:
        chain: Chain = getattr(state, self.field)
        return chain

    def play(self, state: State, item: StackItem) -> None:
        """`item` goes on the stack; the next player may respond to it."""
        self.push(state, item)
        self.window(state, cast(PriorityHost, state).next_priority(item.controller))

    def counter(self, state: State, card: int) -> bool:
        """Counter the unresolved `card` (the topmost of it): it will not resolve. False if it is
        not on the stack."""
        chain = self._get(state)
        for i in range(len(chain.items) - 1, -1, -1):
            if chain.items[i].card == card and not chain.items[i].countered:
                chain.items[i].countered = True
                return True
        return False

    def passed(self, state: State, seat: int) -> None:
        """A player passes: every card resolves, the last played first, until the game is over (or
        as the game says: `staged`)."""
        if self.staged:
            cast(StagedStackHost, state).priority_passed(seat)
        else:
            self.resolve_next(state)

    def resolve_next(self, state: State) -> None:
        """Resolve cards until one needs a decision (the game calls this again after it) or none
        is left."""
        host = cast(StackHost, state)
        while True:
            chain = self._get(state)
            if not chain.items:
                setattr(state, self.field, self.empty)
                host.stack_done()
                return
            item = chain.items[-1]
            setattr(state, self.field, self.record(chain.items[:-1]))
            before = len(state.pending)
            if item.countered:  # "it has no further effect and is placed in its owner's discard"
                state.emit("countered", card=item.card, owner=item.owner, name=host.card_name(item.card))
                host.discard_item(item)
            elif not host.still_legal(item):  # meta-countered: discarded, and refunded
                refunded = 0
                if item.payment is not None and self.pools is not None:
                    refunded = self.pools.refund(host.pools_of(item.payment.seat), item.payment)
                state.emit("meta_countered", card=item.card, owner=item.owner, refunded=refunded,
                           name=host.card_name(item.card))
                host.discard_item(item)
            else:
                host.resolve_item(item)
                host.discard_item(item)
            if len(state.pending) > before or state.is_over:
                return  # a decision to take, or the game ended: nothing more resolves


class Priority(Decision):
    """A card was played: respond with one of yours, or pass (then the stack resolves).
    (`ResponseStack.Priority` is this decision bound to one game's stack.)"""

    __slots__ = ()
    kind = "priority"
    stack: ClassVar[ResponseStack]

    def legal_actions(self, state: State) -> list[Action]:
        host = cast(PriorityHost, state)
        return [*host.responses(self.seat), host.pass_action()]

    def why_illegal(self, state: State, action: Action) -> str:
        return cast(PriorityHost, state).priority_refusal(self.seat, action)

    def resolve(self, state: State, action: Action) -> None:
        host = cast(PriorityHost, state)
        if action is host.pass_action():
            self.stack.passed(state, self.seat)
        else:
            host.respond(self.seat, action)

    def question(self, state: State) -> str:
        return cast(PriorityHost, state).priority_question(self.seat)
