"""Effects, triggers and replacements with the loop rule, and the layer's decisions (`UseAbility`,
`FirstTrigger`): `Effects`, asking the state (`EffectHost` and the optional `ChainedHost`,
`ToldHost`, `ChoosingHost`). See the package's docstring (cardtable/core/effects/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from ..actions import Action
from ..state import Decision, State
from ..verbs import QUESTION, Effect, VerbRegistry
from .hosts import ChainedHost, ChoosingHost, EffectHost, ToldHost
from .records import (
    Ability,
    Attempt,
    Context,
    Finish,
    Fire,
    GameEvent,
    Sequence,
    SequenceRecord,
    Triggered,
    Work,
    _work_from_json,
    _work_json,
    bind_decision,
)


# A plain Python class in the compiled build (cardtable/_native.py), so that
# copies and pickles (an encoder's copy holds the game) work as for any Python object.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class EffectActions:
    """The game's action objects the effect layer's decisions offer (the state gives them:
    `EffectHost.effect_actions`, as a game whose actions depend on its cards has them per game)."""

    accept: Action | None = None  # None: the game's abilities are all mandatory (no one is asked)
    decline: Action | None = None
    first: Seq[Action] = ()  # first[i]: the i-th of a controller's triggers goes first


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
        #: each verb's handler once asked for (`_run`: the verbs are registered with the game's rules,
        #: after this engine is made)
        self._handlers: dict[str, Callable[[Any, Any, Any], None]] = {}
        #: the verbs whose activities an ability may answer (None: all); the others just happen
        self.answerable = answerable
        #: the `Sequence` field, for the layout's `typed` (its JSON form reads effects through these verbs)
        self.record = SequenceRecord(verbs)
        self.idle = self.record()  # no sequence under way (immutable: every state shares it)
        kinds, wording = dict(kinds or {}), dict(asks or {})
        #: the layer's decisions, bound to this engine: list them in the state layout's `decisions`
        self.UseAbility: type[UseAbility] = bind_decision(UseAbility, kinds, wording, engine=self)
        self.FirstTrigger: type[FirstTrigger] = bind_decision(FirstTrigger, kinds, wording, engine=self)
        self.decisions: tuple[type[Decision], ...] = (self.UseAbility, self.FirstTrigger)

    def sequence(self, state: State) -> Sequence:
        seq: Sequence = getattr(state, self.field)
        return seq

    def _set(self, state: State, seq: Sequence) -> None:
        setattr(state, self.field, seq)

    def _push(self, state: State, items: tuple[Work, ...]) -> None:
        seq: Sequence = self._get(state)
        self._set(state, seq.with_work(seq.work + items))

    def _run(self, state: State, context: Context, effect: Effect) -> None:
        """The verb's handler does the effect (`VerbRegistry.run`, without its call in between)."""
        run = self._handlers.get(effect.verb)
        if run is None:
            run = self._handlers[effect.verb] = self.verbs.handler(effect.verb)
        run(state, context, effect.params)

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
                self._run(state, context, effect)
                if state.is_over:
                    return False
                if len(pending) > before:
                    self._push(state, tuple([Attempt(e, context) for e in reversed(effects[k + 1:])]))
                    return False
            else:
                return True
        self._push(state, tuple([Attempt(e, context) for e in reversed(effects)]))
        return self._work(state)

    def happen(self, state: State, event: GameEvent) -> None:
        """`event` happened outside any effect (a turn starts): the triggers answering it fire,
        in one effect sequence."""
        host = cast(EffectHost, state)
        answering = host.abilities(event)
        if answering:
            triggers = tuple(a for a in answering if not a.instead)
            if triggers:
                self._push(state, (Triggered(triggers, host.turn_order()[0], event),))
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
            seq: Sequence = self._get(state)
            if state.is_over:
                self._set(state, self.idle)
                return False
            if not seq.work:
                self._set(state, self.idle)
                return True
            item = seq.work[-1]
            self._set(state, seq.with_work(seq.work[:-1]))
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
        seq: Sequence = self._get(state)
        if seq.work and isinstance(seq.work[-1], Attempt) and seq.work[-1].then and self.chained \
                and not cast(ChainedHost, state).possible(attempt.effect, attempt.context):
            # a step of a chained ability that can do nothing: the steps after it do not happen
            work = seq.work
            while work and isinstance(work[-1], Attempt) and work[-1].then:
                work = work[:-1]
            self._set(state, seq.with_work(work))
            return
        if self.answerable is not None and attempt.effect.verb not in self.answerable:
            self._run(state, attempt.context, attempt.effect)  # nothing can answer it
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
        self._run(state, attempt.context, attempt.effect)
        triggers = tuple(a for a in host.abilities(event) if not a.instead)
        if triggers:
            self._push(state, (Triggered(triggers, host.turn_order()[0], event),))

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
        seq: Sequence = self._get(state)
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
            self._push(state, (Triggered(rest, pending.active, pending.event),))
        self._push(state, (Fire(first),))

    def _fire(self, state: State, a: Ability) -> None:
        seq: Sequence = self._get(state)
        if not seq.allows(a):
            return  # the loop rule: a card whose ability fired in this sequence fires no more
        if a.optional:
            state.pending.append(self.UseAbility(a.controller, a, None))
        else:
            self._use(state, a)

    def _use(self, state: State, a: Ability) -> None:
        seq: Sequence = self._get(state)
        self._set(state, seq.with_fired(a.card))
        steps = [Attempt(e, a.context, then=a.chained and i > 0) for i, e in enumerate(a.effects)]
        self._push(state, (Finish(a), *reversed(steps)))
        if self.told:
            cast(ToldHost, state).ability_used(a)

    # -- answers to the layer's decisions ---------------------------------------------------

    def answered(self, state: State, decision: UseAbility, accept: bool) -> None:
        a = decision.ability
        if accept:
            self._use(state, a)
        elif decision.replacing is not None:  # declined: the activity may still be replaced by another, or happen
            self._push(state, (decision.replacing.declining(a.card, a.index),))
        self.run(state)

    def ordered(self, state: State, decision: FirstTrigger, first: Ability) -> None:
        self._first(state, first, decision.abilities, Triggered(decision.abilities, decision.active, decision.event))
        self.run(state)

    def text(self, ability: Ability, wording: Any = None) -> str:
        """What the ability does, in the verbs' words (`wording` "question": as the layer's questions
        put it to everyone, of the seat that decides: "their", never "your")."""
        return (", then " if ability.chained else " and ").join(self.verbs.text(e, wording) for e in ability.effects)


# bound to one game by a subclass made when the game is (`bind_decision`)
@mypyc_attr(allow_interpreted_subclasses=True)
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

    def details(self, state: State, viewer: int | None) -> dict[str, Any]:
        return {"card": cast(EffectHost, state).card_name(self.ability.card), "instead": self.ability.instead,
                "effect": self.engine.text(self.ability)}

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "seat": self.seat, "ability": self.ability.to_json()}
        if self.replacing is not None:
            out["replacing"] = _work_json(self.replacing)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UseAbility:
        replacing = data.get("replacing")
        attempt = _work_from_json(replacing, cls.engine.verbs) if replacing is not None else None
        if attempt is not None and not isinstance(attempt, Attempt):
            raise ValueError("a replacement answers an activity about to happen")
        return cls(int(data["seat"]), Ability.from_json(data["ability"], cls.engine.verbs), attempt)


# bound to one game by a subclass made when the game is (`bind_decision`)
@mypyc_attr(allow_interpreted_subclasses=True)
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

    def details(self, state: State, viewer: int | None) -> dict[str, Any]:
        name = cast(EffectHost, state).card_name
        return {"options": [name(a.card) for a in self.mine(state)]}

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "active": self.active, "event": self.event.to_json(),
                "abilities": [a.to_json() for a in self.abilities]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FirstTrigger:
        abilities = tuple(Ability.from_json(a, cls.engine.verbs) for a in data["abilities"])
        return cls(int(data["seat"]), abilities, int(data["active"]), GameEvent.from_json(data["event"]))
