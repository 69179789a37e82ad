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
triggered before within the same effect sequence") keeps them from firing again.

**The response stack.** A played card becomes a `StackItem` (its card, owner, controller, targets
and the `Payment` made for it); the other player may respond (`Priority`: their responses, or
pass). When a player passes, the cards resolve last-in first-out: a countered card goes to its
owner's discard; a card whose conditions no longer hold is meta-countered (discarded, and what was
paid for it refunded); otherwise it resolves.

Everything pending lives in typed, immutable records on the state (`Sequence`, `Chain`), declared
in its layout's `typed` fields, so a state clones, saves and determinizes in the middle of an effect.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from .actions import Action
from .resources import Payment, Pools
from .state import Decision, State
from .verbs import Effect, VerbRegistry

# -- records ----------------------------------------------------------------------------------


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
    replacement (`instead`). `index` tells a card's abilities apart."""

    card: int
    index: int
    controller: int
    when: str
    effect: Effect
    context: Context
    instead: bool = False
    optional: bool = True

    def to_json(self, verbs: VerbRegistry) -> dict[str, Any]:
        return {"card": self.card, "index": self.index, "controller": self.controller, "when": self.when,
                "effect": self.effect.to_json(), "context": self.context.to_json(), "instead": self.instead,
                "optional": self.optional}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], verbs: VerbRegistry) -> Ability:
        return cls(int(data["card"]), int(data["index"]), int(data["controller"]), str(data["when"]),
                   verbs.from_json(data["effect"]), Context.from_json(data["context"]), bool(data["instead"]),
                   bool(data["optional"]))


@dataclass(frozen=True)
class Attempt:
    """An activity about to happen (replacements are offered first); `declined`: replacements
    their controllers chose not to use for it."""

    effect: Effect
    context: Context
    declined: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Triggered:
    """Abilities that answer one event, still to be put in order and fired."""

    abilities: tuple[Ability, ...]
    active: int  # the seat whose turn it is: its controller's triggers come first


@dataclass(frozen=True)
class Fire:
    """One trigger, next in order (asked if optional, stopped by the loop rule)."""

    ability: Ability


Work = Attempt | Triggered | Fire


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

    accept: Action
    decline: Action
    first: Seq[Action]  # first[i]: the i-th of a controller's triggers goes first


class Effects:
    """Runs effects for one game: its verbs, where its abilities come from, its actions.

    - `abilities(state, event)`: the abilities in force that answer `event` (the game checks their
      conditions: whose gem, which area);
    - `event_of(state, effect, context)`: the activity an effect is, as an event;
    - `turn_order(state)`: the seats in turn order from the player whose turn it is;
    - `done(state)`: the effect sequence is over (the game goes on: the turn continues);
    - `field`: the state attribute holding the `Sequence` (declared in the layout's `typed`)."""

    def __init__(self, verbs: VerbRegistry, actions: EffectActions,
                 abilities: Callable[[Any, GameEvent], list[Ability]],
                 event_of: Callable[[Any, Effect, Context], GameEvent],
                 turn_order: Callable[[Any], list[int]], done: Callable[[Any], None],
                 field: str = "sequence") -> None:
        self.verbs = verbs
        self.done = done
        self.actions = actions
        self.abilities = abilities
        self.event_of = event_of
        self.turn_order = turn_order
        self.field = field
        #: the class of the `Sequence` field (its JSON form reads effects through these verbs)
        self.record = _sequence_record(verbs)
        #: the layer's decisions, bound to this engine: list them in the state layout's `decisions`
        self.UseAbility: type[UseAbility] = type("UseAbility", (UseAbility,), {"__slots__": (), "engine": self})
        self.FirstTrigger: type[FirstTrigger] = type("FirstTrigger", (FirstTrigger,), {"__slots__": (), "engine": self})
        self.decisions: tuple[type[Decision], ...] = (self.UseAbility, self.FirstTrigger)

    def sequence(self, state: State) -> Sequence:
        seq: Sequence = getattr(state, self.field)
        return seq

    def _set(self, state: State, seq: Sequence) -> None:
        setattr(state, self.field, seq)

    def _push(self, state: State, *items: Work) -> None:
        seq = self.sequence(state)
        self._set(state, replace(seq, work=seq.work + items))

    def start(self, state: State, effect: Effect, context: Context) -> None:
        """Carry out `effect` (a spell, an activated figure): it and all it sets off, until a
        player must decide or the sequence is over."""
        self._push(state, Attempt(effect, context))
        self.run(state)

    def run(self, state: State) -> None:
        """Work until a decision is pending or nothing is left; then the sequence forgets what fired
        (the next activity starts a new effect sequence) and the game is told (`done`). A game
        decision pushed by a verb pauses the run too: its resolution calls `run` again."""
        while True:
            seq = self.sequence(state)
            if state.is_over:
                self._set(state, self.record())
                return
            if not seq.work:
                self._set(state, self.record())
                self.done(state)
                return
            item = seq.work[-1]
            self._set(state, replace(seq, work=seq.work[:-1]))
            before = len(state.pending)
            if isinstance(item, Attempt):
                self._attempt(state, item)
            elif isinstance(item, Triggered):
                self._order(state, item)
            else:
                self._fire(state, item.ability)
            if len(state.pending) > before:
                return

    def _attempt(self, state: State, attempt: Attempt) -> None:
        seq = self.sequence(state)
        event = self.event_of(state, attempt.effect, attempt.context)
        order = self.turn_order(state)
        replacements = [
            a for a in self.abilities(state, event)
            if a.instead and seq.allows(a) and (a.card, a.index) not in attempt.declined
        ]
        if replacements:
            a = min(replacements, key=lambda r: (order.index(r.controller), r.card, r.index))
            if a.optional:
                state.pending.append(self.UseAbility(a.controller, a, attempt))
            else:
                self._use(state, a)
            return
        self.verbs.run(state, attempt.context, attempt.effect)
        triggers = tuple(a for a in self.abilities(state, event) if not a.instead)
        if triggers:
            self._push(state, Triggered(triggers, order[0]))

    def _order(self, state: State, pending: Triggered) -> None:
        seq = self.sequence(state)
        live = [a for a in pending.abilities if seq.allows(a)]
        if not live:
            return
        order = self.turn_order(state)
        first_seat = min((a.controller for a in live), key=order.index)
        mine = [a for a in live if a.controller == first_seat]
        if len(mine) > 1:
            state.pending.append(self.FirstTrigger(first_seat, tuple(live), pending.active))
            return
        rest = tuple(a for a in live if a is not mine[0])
        if rest:
            self._push(state, Triggered(rest, pending.active))
        self._push(state, Fire(mine[0]))

    def _fire(self, state: State, a: Ability) -> None:
        if not self.sequence(state).allows(a):
            return  # the loop rule: a card whose ability fired in this sequence fires no more
        if a.optional:
            state.pending.append(self.UseAbility(a.controller, a, None))
        else:
            self._use(state, a)

    def _use(self, state: State, a: Ability) -> None:
        seq = self.sequence(state)
        self._set(state, replace(seq, fired=(*seq.fired, a.card)))
        self._push(state, Attempt(a.effect, a.context))

    # -- answers to the layer's decisions ---------------------------------------------------

    def answered(self, state: State, decision: UseAbility, accept: bool) -> None:
        a = decision.ability
        if accept:
            self._use(state, a)
        elif decision.replacing is not None:  # declined: the activity may still be replaced by another, or happen
            r = decision.replacing
            self._push(state, replace(r, declined=(*r.declined, (a.card, a.index))))
        self.run(state)

    def ordered(self, state: State, decision: FirstTrigger, index: int) -> None:
        mine = decision.mine()
        first = mine[index]
        rest = tuple(a for a in decision.abilities if a is not first)
        if rest:
            self._push(state, Triggered(rest, decision.active))
        self._push(state, Fire(first))
        self.run(state)


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
        return [self.engine.actions.accept, self.engine.actions.decline]

    def resolve(self, state: State, action: Action) -> None:
        self.engine.answered(state, self, action is self.engine.actions.accept)

    def describe(self, state: State) -> str:
        text = self.engine.verbs.text(self.ability.effect)
        how = "instead" if self.ability.instead else "also"
        return f"seat {self.seat} may use card {self.ability.card}'s ability: {how} {text}"

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

    __slots__ = ("abilities", "active")
    kind = "first_trigger"
    engine: ClassVar[Effects]

    def __init__(self, seat: int, abilities: tuple[Ability, ...], active: int) -> None:
        super().__init__(seat)
        self.abilities = abilities
        self.active = active

    def mine(self) -> list[Ability]:
        return [a for a in self.abilities if a.controller == self.seat]

    def legal_actions(self, state: State) -> list[Action]:
        return list(self.engine.actions.first[: len(self.mine())])

    def resolve(self, state: State, action: Action) -> None:
        self.engine.ordered(state, self, list(self.engine.actions.first).index(action))

    def describe(self, state: State) -> str:
        options = "; ".join(f"{i + 1}: {self.engine.verbs.text(a.effect)}" for i, a in enumerate(self.mine()))
        return f"seat {self.seat} chooses which of their abilities happens first ({options})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "active": self.active,
                "abilities": [a.to_json(self.engine.verbs) for a in self.abilities]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FirstTrigger:
        abilities = tuple(Ability.from_json(a, cls.engine.verbs) for a in data["abilities"])
        return cls(int(data["seat"]), abilities, int(data["active"]))


def _work_json(item: Work, verbs: VerbRegistry) -> dict[str, Any]:
    if isinstance(item, Attempt):
        return {"do": "attempt", "effect": item.effect.to_json(), "context": item.context.to_json(),
                "declined": [list(d) for d in item.declined]}
    if isinstance(item, Triggered):
        return {"do": "triggered", "abilities": [a.to_json(verbs) for a in item.abilities], "active": item.active}
    return {"do": "fire", "ability": item.ability.to_json(verbs)}


def _work_from_json(data: Mapping[str, Any], verbs: VerbRegistry) -> Work:
    if data["do"] == "attempt":
        return Attempt(verbs.from_json(data["effect"]), Context.from_json(data["context"]),
                       tuple((int(c), int(i)) for c, i in data["declined"]))
    if data["do"] == "triggered":
        return Triggered(tuple(Ability.from_json(a, verbs) for a in data["abilities"]), int(data["active"]))
    return Fire(Ability.from_json(data["ability"], verbs))


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


@dataclass(frozen=True)
class StackItem:
    """A played card waiting to resolve: its card, owner and controller, targets, what was paid."""

    card: int
    owner: int
    controller: int
    targets: tuple[int, ...] = ()
    payment: Payment | None = None
    countered: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "owner": self.owner, "controller": self.controller, "targets": list(self.targets),
                "payment": None if self.payment is None else self.payment.to_json(), "countered": self.countered}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StackItem:
        pay = data["payment"]
        return cls(int(data["card"]), int(data["owner"]), int(data["controller"]), tuple(int(t) for t in data["targets"]),
                   None if pay is None else Payment.from_json(pay), bool(data["countered"]))


@dataclass(frozen=True)
class Chain:
    """The response stack: unresolved cards, the last played last."""

    items: tuple[StackItem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"items": [i.to_json() for i in self.items]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Chain:
        return cls(tuple(StackItem.from_json(i) for i in data["items"]))


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


class ResponseStack:
    """The response stack of one game (Ivion's instants; Zun's reactions)."""

    def __init__(self, rules: StackRules, pools: Pools, pass_action: Action, field: str = "chain") -> None:
        self.rules = rules
        self.pools = pools
        self.pass_action = pass_action
        self.field = field
        #: the priority decision bound to this stack: list it in the state layout's `decisions`
        self.Priority: type[Priority] = type("Priority", (Priority,), {"__slots__": (), "stack": self})

    def chain(self, state: State) -> Chain:
        chain: Chain = getattr(state, self.field)
        return chain

    def play(self, state: State, item: StackItem) -> None:
        """`item` goes on the stack; the next player may respond to it."""
        chain = self.chain(state)
        setattr(state, self.field, replace(chain, items=(*chain.items, item)))
        state.pending.append(self.Priority(self.rules.next_seat(state, item.controller)))

    def counter(self, state: State, card: int) -> bool:
        """Counter the unresolved `card` (the topmost of it): it will not resolve. False if it is
        not on the stack."""
        chain = self.chain(state)
        for i in range(len(chain.items) - 1, -1, -1):
            if chain.items[i].card == card and not chain.items[i].countered:
                items = list(chain.items)
                items[i] = replace(items[i], countered=True)
                setattr(state, self.field, replace(chain, items=tuple(items)))
                return True
        return False

    def passed(self, state: State) -> None:
        """A player passes: every card resolves, the last played first."""
        self.resolve_next(state)

    def resolve_next(self, state: State) -> None:
        """Resolve cards until one needs a decision (the game calls this again after it) or none
        is left."""
        while True:
            chain = self.chain(state)
            if not chain.items:
                setattr(state, self.field, Chain())
                self.rules.after(state)
                return
            item = chain.items[-1]
            setattr(state, self.field, replace(chain, items=chain.items[:-1]))
            before = len(state.pending)
            if item.countered:  # "it has no further effect and is placed in its owner's discard"
                state.emit("countered", card=item.card, owner=item.owner)
                self.rules.discard(state, item)
            elif not self.rules.still_legal(state, item):  # meta-countered: discarded, and refunded
                refunded = 0
                if item.payment is not None:
                    refunded = self.pools.refund(self.rules.pools(state, item.payment.seat), item.payment)
                state.emit("meta_countered", card=item.card, owner=item.owner, refunded=refunded)
                self.rules.discard(state, item)
            else:
                self.rules.resolve(state, item)
                self.rules.discard(state, item)
            if len(state.pending) > before:
                return


class Priority(Decision):
    """A card was played: respond with one of yours, or pass (then the stack resolves).
    (`ResponseStack.Priority` is this decision bound to one game's stack.)"""

    __slots__ = ()
    kind = "priority"
    stack: ClassVar[ResponseStack]

    def legal_actions(self, state: State) -> list[Action]:
        return [*self.stack.rules.responses(state, self.seat), self.stack.pass_action]

    def resolve(self, state: State, action: Action) -> None:
        if action is self.stack.pass_action:
            self.stack.passed(state)
        else:
            self.stack.rules.respond(state, self.seat, action)

    def describe(self, state: State) -> str:
        top = self.stack.chain(state).items[-1]
        return f"seat {self.seat} may respond to card {top.card} or pass"
