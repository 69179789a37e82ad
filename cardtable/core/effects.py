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

from collections.abc import Callable, Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

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
    """An ability's effects have all happened (the game is told: `Effects.finished`)."""

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


@dataclass
class EffectActions:
    """The game's action objects the effect layer's decisions offer."""

    accept: Action | None = None  # None: the game's abilities are all mandatory (no one is asked)
    decline: Action | None = None
    first: Seq[Action] = ()  # first[i]: the i-th of a controller's triggers goes first
    #: or the game names the choice itself: (state, ability) -> the action that puts it first
    choose: Callable[[Any, Ability], Action] | None = None


def _nothing(state: Any, ability: Ability) -> None:
    return None


class Effects:
    """Runs effects for one game: its verbs, where its abilities come from, its actions.

    - `abilities(state, event)`: the abilities in force that answer `event` (the game checks their
      conditions: whose gem, which area);
    - `event_of(state, effect, context)`: the activity an effect is, as an event;
    - `turn_order(state)`: the seats in turn order from the player whose turn it is;
    - `done(state)`: the effect sequence is over (the game goes on: the turn continues);
    - `used(state, ability)`, `finished(state, ability)`: an ability is used (before its effects)
      and has finished (after them): a game logs it, or moves its card;
    - `alike(state, ability)`: abilities with equal keys are interchangeable (copies of one card): their
      controller is not asked to order them, and the first in the game's order goes first;
    - `kinds`, `asks`: the names of the layer's decisions in this game (their `kind`) and their
      questions;
    - `answerable`: the verbs whose activities abilities may answer (a game whose abilities only
      answer other events, a turn's start, says so and its effects just happen);
    - `card_name(state, card)`: a card as the questions name it;
    - `possible(state, effect, context)`: whether an effect can do anything now (read only for a
      chained ability's steps: one that cannot stops the steps after it);
    - `field`: the state attribute holding the `Sequence` (declared in the layout's `typed`)."""

    def __init__(self, verbs: VerbRegistry, actions: EffectActions,
                 abilities: Callable[[Any, GameEvent], list[Ability]],
                 event_of: Callable[[Any, Effect, Context], GameEvent],
                 turn_order: Callable[[Any], list[int]], done: Callable[[Any], None],
                 field: str = "sequence", used: Callable[[Any, Ability], None] = _nothing,
                 finished: Callable[[Any, Ability], None] = _nothing,
                 alike: Callable[[Any, Ability], Any] | None = None, kinds: Mapping[str, str] | None = None,
                 asks: Mapping[str, str] | None = None, answerable: frozenset[str] | None = None,
                 card_name: Callable[[Any, int], str] | None = None,
                 possible: Callable[[Any, Effect, Context], bool] | None = None) -> None:
        self.verbs = verbs
        self.possible = possible
        #: how its questions name a card ("may use Undine's ability: ..."; default "card N")
        self.card_name = card_name or (lambda state, card: f"card {card}")
        self.done = done
        self.used = used
        self.finished = finished
        self.alike = alike
        self.actions = actions
        self.abilities = abilities
        self.event_of = event_of
        self.turn_order = turn_order
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
            self.done(state)

    def carry_out(self, state: State, effects: Seq[Effect], context: Context) -> bool:
        """`start_all` for a game that goes on by itself: True when the effects are over at once
        (no one was asked anything, and `done` is not called: the caller goes on); False when a
        player must decide first or the game is over (then `done` comes when the sequence ends)."""
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
        self.run(state)
        return False

    def happen(self, state: State, event: GameEvent) -> None:
        """`event` happened outside any effect (a turn starts): the triggers answering it fire,
        in one effect sequence."""
        answering = self.abilities(state, event)
        if answering:
            triggers = tuple(a for a in answering if not a.instead)
            if triggers:
                self._push(state, Triggered(triggers, self.turn_order(state)[0], event))
        elif not self._get(state).work and not state.is_over:
            # nothing answers it and nothing is under way (most turns start so): the game goes on,
            # as `run` would tell it
            self._set(state, self.idle)
            self.done(state)
            return
        self.run(state)

    def run(self, state: State) -> None:
        """Work until a decision is pending or nothing is left; then the sequence forgets what fired
        (the next activity starts a new effect sequence) and the game is told (`done`). A game
        decision pushed by a verb pauses the run too: its resolution calls `run` again."""
        while True:
            seq = self._get(state)
            if state.is_over:
                self._set(state, self.idle)
                return
            if not seq.work:
                self._set(state, self.idle)
                self.done(state)
                return
            item = seq.work[-1]
            self._set(state, evolve(seq, work=seq.work[:-1]))
            before = len(state.pending)
            if isinstance(item, Attempt):
                self._attempt(state, item)
            elif isinstance(item, Triggered):
                self._order(state, item)
            elif isinstance(item, Fire):
                self._fire(state, item.ability)
            else:
                self.finished(state, item.ability)
            if len(state.pending) > before:
                return

    def _attempt(self, state: State, attempt: Attempt) -> None:
        seq = self._get(state)
        if seq.work and isinstance(seq.work[-1], Attempt) and seq.work[-1].then and self.possible is not None \
                and not self.possible(state, attempt.effect, attempt.context):
            # a step of a chained ability that can do nothing: the steps after it do not happen
            work = seq.work
            while work and isinstance(work[-1], Attempt) and work[-1].then:
                work = work[:-1]
            self._set(state, evolve(seq, work=work))
            return
        if self.answerable is not None and attempt.effect.verb not in self.answerable:
            self.verbs.run(state, attempt.context, attempt.effect)  # nothing can answer it
            return
        event = self.event_of(state, attempt.effect, attempt.context)
        replacements = [
            a for a in self.abilities(state, event)
            if a.instead and seq.allows(a) and (a.card, a.index) not in attempt.declined
        ]
        if replacements:
            order = self.turn_order(state)
            a = min(replacements, key=lambda r: (order.index(r.controller), r.card, r.index))
            if a.optional:
                state.pending.append(self.UseAbility(a.controller, a, attempt))
            else:
                self._use(state, a)
            return
        self.verbs.run(state, attempt.context, attempt.effect)
        triggers = tuple(a for a in self.abilities(state, event) if not a.instead)
        if triggers:
            self._push(state, Triggered(triggers, self.turn_order(state)[0], event))

    def choices(self, state: State, abilities: Seq[Ability]) -> list[Ability]:
        """The abilities a controller chooses among: one of each kind (`alike`), the first."""
        if self.alike is None:
            return list(abilities)
        seen: set[Any] = set()
        out = []
        for a in abilities:
            key = self.alike(state, a)
            if key not in seen:
                seen.add(key)
                out.append(a)
        return out

    def _order(self, state: State, pending: Triggered) -> None:
        seq = self._get(state)
        in_force = {(a.card, a.index) for a in self.abilities(state, pending.event)}
        live = [a for a in pending.abilities if seq.allows(a) and (a.card, a.index) in in_force]
        if not live:
            return
        order = self.turn_order(state)
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
        self.used(state, a)

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
        actions = self.engine.actions
        if actions.accept is None or actions.decline is None:
            raise TypeError("an optional ability needs the game's accept and decline actions (EffectActions)")
        return [actions.accept, actions.decline]

    def resolve(self, state: State, action: Action) -> None:
        self.engine.answered(state, self, action is self.engine.actions.accept)

    def question(self, state: State) -> str:
        how = "instead" if self.ability.instead else "also"
        # "also do ...?" for a trigger, "instead do ...?" for a replacement, naming the card
        return f"may {how} {self.engine.text(self.ability, QUESTION)} ({self.engine.card_name(state, self.ability.card)})"

    def details(self, state: State, viewer: int | None) -> dict[str, Any]:
        return {"card": self.engine.card_name(state, self.ability.card), "instead": self.ability.instead,
                "effect": self.engine.text(self.ability)}

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
        actions = self.engine.actions
        if actions.choose is not None:
            choose = actions.choose
            # in the order of the game's actions, as every list of legal actions
            return sorted(((choose(state, a), a) for a in self.mine(state)), key=lambda offer: offer[0].index)
        return list(zip(actions.first, self.mine(state), strict=False))

    def legal_actions(self, state: State) -> list[Action]:
        return [action for action, _ in self._offers(state)]

    def resolve(self, state: State, action: Action) -> None:
        first = next(a for act, a in self._offers(state) if act is action)
        self.engine.ordered(state, self, first)

    def question(self, state: State) -> str:
        if self.asks:
            return self.asks
        name = self.engine.card_name
        options = "; ".join(f"{i + 1}: {name(state, a.card)}, {self.engine.text(a, QUESTION)}"
                            for i, a in enumerate(self.mine(state)))
        return f"must choose which of their abilities happens first ({options})"

    def details(self, state: State, viewer: int | None) -> dict[str, Any]:
        return {"options": [self.engine.card_name(state, a.card) for a in self.mine(state)]}

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


@dataclass
class StackRules:
    """What a game tells its response stack.

    - `responses(state, seat)`: the actions that answer the top card (playable instants);
    - `respond(state, seat, action)`: carry out a response (pay, and `ResponseStack.play` it);
    - `still_legal(state, item)`: the conditions that allowed the card still hold (else it is
      meta-countered);
    - `resolve(state, item)`: its effects; `discard(state, item)`: to its owner's discard (after
      resolving, unless it stays in play attached);
    - `pools(state, seat)`: the seat's resource pools, for refunds; `next_seat(state, seat)`: who may
      respond to `seat`."""

    responses: Callable[[Any, int], list[Action]]
    respond: Callable[[Any, int, Action], None]
    still_legal: Callable[[Any, StackItem], bool]
    resolve: Callable[[Any, StackItem], None]
    discard: Callable[[Any, StackItem], None]
    pools: Callable[[Any, int], dict[str, int]]
    next_seat: Callable[[Any, int], int]
    after: Callable[[Any], None] = field(default=lambda state: None)  # when the stack is empty again
    #: a player passed: by default every card resolves, the last played first, until the game is
    #: over (`resolve_next`); a game that resolves its cards in stages of its own (Runes of Zun:
    #: target by target) goes on itself
    passed: Callable[[Any, int], None] | None = None
    #: why an action is refused in a priority window (default: the core's wording)
    why_illegal: Callable[[Any, int, Action], str] | None = None
    #: the priority decision's question after "seat N", worded from the state (default: the
    #: stack's `asks`, else "may respond to card X, or pass")
    question: Callable[[Any, int], str] | None = None
    #: a card's name for the log's countered and meta-countered events (`name`; default: none)
    card_name: Callable[[Any, int], str] | None = None


class ResponseStack:
    """The response stack of one game (Ivion's instants; Zun's reactions).

    `item`: the class of its items (a subclass of `StackItem` carrying what else the game needs);
    `record`: the class of the `Chain` field to declare in the layout's `typed`; `kinds` and `asks`:
    the game's name for the priority decision and its question; `pools`: where payments are refunded
    (None: nothing is paid); `pass_action`: the action that passes, or a function of the state
    giving it."""

    def __init__(self, rules: StackRules, pools: Pools | None, pass_action: Action | Callable[[Any], Action],
                 field: str = "chain", item: type[StackItem] = StackItem, kinds: Mapping[str, str] | None = None,
                 asks: Mapping[str, str] | None = None) -> None:
        self.rules = rules
        self.pools = pools
        self.pass_action = pass_action
        self.field = field
        self._get: Callable[[State], Any] = attrgetter(field)  # the state's chain (read at every step)
        self._passing: Callable[[Any], Action] = pass_action if callable(pass_action) else (lambda state: pass_action)
        self.record = _chain_record(item)
        self.empty = self.record()  # nothing on the stack (immutable: every state shares it)
        #: the priority decision bound to this stack: list it in the state layout's `decisions`
        self.Priority: type[Priority] = _bind(Priority, dict(kinds or {}), dict(asks or {}), stack=self)

    def passing(self, state: State) -> Action:
        """The action that passes (a game whose actions depend on its cards gives it per state)."""
        return self._passing(state)

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
        self.window(state, self.rules.next_seat(state, item.controller))

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
        as the game says)."""
        if self.rules.passed is not None:
            self.rules.passed(state, seat)
        else:
            self.resolve_next(state)

    def resolve_next(self, state: State) -> None:
        """Resolve cards until one needs a decision (the game calls this again after it) or none
        is left."""
        while True:
            chain = self._get(state)
            if not chain.items:
                setattr(state, self.field, self.empty)
                self.rules.after(state)
                return
            item = chain.items[-1]
            setattr(state, self.field, self.record(chain.items[:-1]))
            before = len(state.pending)
            named: dict[str, Any] = {} if self.rules.card_name is None else {"name": self.rules.card_name(state, item.card)}
            if item.countered:  # "it has no further effect and is placed in its owner's discard"
                state.emit("countered", card=item.card, owner=item.owner, **named)
                self.rules.discard(state, item)
            elif not self.rules.still_legal(state, item):  # meta-countered: discarded, and refunded
                refunded = 0
                if item.payment is not None and self.pools is not None:
                    refunded = self.pools.refund(self.rules.pools(state, item.payment.seat), item.payment)
                state.emit("meta_countered", card=item.card, owner=item.owner, refunded=refunded, **named)
                self.rules.discard(state, item)
            else:
                self.rules.resolve(state, item)
                self.rules.discard(state, item)
            if len(state.pending) > before or state.is_over:
                return  # a decision to take, or the game ended: nothing more resolves


class Priority(Decision):
    """A card was played: respond with one of yours, or pass (then the stack resolves).
    (`ResponseStack.Priority` is this decision bound to one game's stack.)"""

    __slots__ = ()
    kind = "priority"
    stack: ClassVar[ResponseStack]

    def legal_actions(self, state: State) -> list[Action]:
        return [*self.stack.rules.responses(state, self.seat), self.stack.passing(state)]

    def why_illegal(self, state: State, action: Action) -> str:
        rules = self.stack.rules
        return super().why_illegal(state, action) if rules.why_illegal is None else rules.why_illegal(state, self.seat, action)

    def resolve(self, state: State, action: Action) -> None:
        if action is self.stack.passing(state):
            self.stack.passed(state, self.seat)
        else:
            self.stack.rules.respond(state, self.seat, action)

    def question(self, state: State) -> str:
        if self.stack.rules.question is not None:
            return self.stack.rules.question(state, self.seat)
        if self.asks:
            return self.asks
        top = self.stack.chain(state).items[-1]
        return f"may respond to card {top.card}, or pass"
