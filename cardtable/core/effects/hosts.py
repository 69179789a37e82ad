"""What a game's state gives the effect layer (`EffectHost` and the optional `ChainedHost`,
`ToldHost`, `ChoosingHost`) and the response stack (`PriorityHost`, `StackHost`,
`StagedStackHost`): its rules, as methods (STYLE.md principle 11).

A module of its own so that `sequence.py` and `stack.py` can be compiled (cardtable/_native.py):
mypyc compiles a protocol as a trait, which `runtime_checkable` (the conformance tests'
`isinstance`) does not accept, so the protocols stay interpreted here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..actions import Action
from ..state import Decision
from ..verbs import Effect
from .chain import StackItem
from .records import Ability, Context, GameEvent

if TYPE_CHECKING:
    from .sequence import EffectActions


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
