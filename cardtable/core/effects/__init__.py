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

The package's rooms: `records.py` (the events, contexts, abilities and pending work: compiled,
native records), `chain.py` (the stack's cards and the stack), `sequence.py` (`Effects`: effects,
triggers, replacements and their decisions), `stack.py`
(`ResponseStack` and `Priority`). What a game gives each is a protocol its state implements
(`EffectHost`, `StackHost`; STYLE.md principle 11), in `hosts.py`. Everything is imported from here.
"""

from __future__ import annotations

from .chain import Chain, StackItem
from .hosts import (
    ChainedHost,
    ChoosingHost,
    EffectHost,
    PriorityHost,
    StackHost,
    StagedStackHost,
    ToldHost,
)
from .immutable import evolve
from .records import (
    Ability,
    Attempt,
    Context,
    EventKind,
    Finish,
    Fire,
    GameEvent,
    Sequence,
    SequenceRecord,
    Triggered,
    Work,
)
from .sequence import (
    EffectActions,
    Effects,
    FirstTrigger,
    UseAbility,
)
from .stack import (
    Priority,
    ResponseStack,
)

__all__ = [
    "Ability",
    "Attempt",
    "Chain",
    "ChainedHost",
    "ChoosingHost",
    "Context",
    "EffectActions",
    "EffectHost",
    "EventKind",
    "Effects",
    "Finish",
    "Fire",
    "FirstTrigger",
    "GameEvent",
    "Priority",
    "PriorityHost",
    "ResponseStack",
    "Sequence",
    "SequenceRecord",
    "StackHost",
    "StackItem",
    "StagedStackHost",
    "ToldHost",
    "Triggered",
    "UseAbility",
    "Work",
    "evolve",
]
