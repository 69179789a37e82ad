"""The response stack (`ResponseStack`) and its priority window (`Priority`), asking the state
(`StackHost`, or `StagedStackHost` for a game that resolves in stages of its own). See the
package's docstring (cardtable/core/effects/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from ..actions import Action
from ..resources import Pools
from ..state import Decision, State
from .chain import Chain, StackItem, _chain_record
from .hosts import PriorityHost, StackHost, StagedStackHost
from .immutable import evolve
from .records import bind_decision


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
        self.Priority: type[Priority] = bind_decision(Priority, dict(kinds or {}), {}, stack=self)

    def _hold(self, state: State, chain: Chain, items: tuple[StackItem, ...]) -> None:
        """The state's stack becomes `chain` holding `items` instead: a changed copy by the compiled
        `evolve` (`Chain` is an interpreted dataclass: a new one through its `__init__` at every push
        and pop was 2-3% of Runes of Zun's search)."""
        setattr(state, self.field, evolve(chain, items=items))

    def push(self, state: State, item: StackItem) -> None:
        """`item` goes on the stack, without opening a window (the game opens it: `window`)."""
        chain: Chain = self._get(state)
        self._hold(state, chain, (*chain.items, item))

    def window(self, state: State, seat: int) -> None:
        """`seat` may respond to the top card, or pass."""
        state.pending.append(self.Priority(seat))

    def top(self, state: State) -> StackItem:
        chain: Chain = self._get(state)
        return chain.items[-1]

    def update(self, state: State, item: StackItem) -> None:
        """Put `item` in the place of the top card (its progress, a new target)."""
        chain: Chain = self._get(state)
        self._hold(state, chain, (*chain.items[:-1], item))

    def change_top(self, state: State, **changes: Any) -> Any:
        """The top card's progress: `changes` made to it, in place (`StackItem`); the card."""
        item = self._get(state).items[-1]
        item.__dict__.update(changes)
        return item

    def pop(self, state: State) -> StackItem:
        """Take the top card off the stack (it resolved, or left play)."""
        chain: Chain = self._get(state)
        items = chain.items
        self._hold(state, chain, items[:-1])
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
            self._hold(state, chain, chain.items[:-1])
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


# bound to one game by a subclass made when the game is (`bind_decision`)
@mypyc_attr(allow_interpreted_subclasses=True)
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
