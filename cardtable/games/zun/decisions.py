"""Runes of Zun's pending decisions. The top of the stack owns the current player.

Reactions are decisions of the targeted seat, pushed on the same stack as the turn's own
decisions (DESIGN.md, "Decisions are atomic"). Each is immutable and knows its JSON form.
"""

from __future__ import annotations

from ...core.state import Decision, decision_reader


class OrderTriggers(Decision):
    """Start of Turn 1: several (ongoing) runes affect you; choose which triggers next."""

    __slots__ = ()
    kind = "order_triggers"


class Mulligan(Decision):
    """Start of Turn 2: no Action in hand; you may mulligan once."""

    __slots__ = ()
    kind = "mulligan"


class ActionPhase(Decision):
    """Action Phase 1/8: play an Action from your hand, or declare the phase done."""

    __slots__ = ()
    kind = "action_phase"


class Modify(Decision):
    """Action Phase 3 (and Modifier cards): add modifiers to the rune just played."""

    __slots__ = ()
    kind = "modify"


class DeclareTarget(Decision):
    """Action Phase 4: declare the next target, in the order of resolution."""

    __slots__ = ()
    kind = "declare_target"


class ChooseBlamed(Decision):
    """Blame: choose the player that Reactions will treat as the Action's player."""

    __slots__ = ()
    kind = "blame"


class ReactionWindow(Decision):
    """Action Phase 5: you are targeted; play a Reaction or not."""

    __slots__ = ()
    kind = "reaction"


class ChooseRedirect(Decision):
    """Redirect: choose the Action's new target."""

    __slots__ = ()
    kind = "redirect"


class ChooseDiscard(Decision):
    """A card effect makes you discard `count` cards of your choice."""

    __slots__ = ("count",)
    kind = "discard"
    fields = ("count",)

    def __init__(self, seat: int, count: int) -> None:
        super().__init__(seat)
        self.count = count


class Recovery(Decision):
    """Recovery Phase 1: discard any number of cards, then draw to 5."""

    __slots__ = ()
    kind = "recovery"


decision_from_json = decision_reader(
    OrderTriggers, Mulligan, ActionPhase, Modify, DeclareTarget, ChooseBlamed, ReactionWindow, ChooseRedirect,
    ChooseDiscard, Recovery,
)
