"""Iuno Avatar's decisions, each owning its legal actions, resolution and description. The rules
they resolve through live on the state (state.py); the effect layer's own decisions ("also do
...?", "instead do ...?", which first) are the core's, bound here to Iuno Avatar's verbs (`EFFECTS`:
the state answers it, `AvatarState.abilities` and the other hooks)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.actions import Action
from ...core.effects import Context, EffectActions, Effects
from ...core.state import Decision
from ...core.verbs import QUESTION, Effect
from .actions import FIRST, NO, YES, AvatarAction, Kind
from .language import ELEMENTS, VERBS

if TYPE_CHECKING:
    from .state import AvatarState


#: the core's effect layer bound to Iuno Avatar (cardtable/core/effects/): its rules are the
#: state's hooks (state.py: which abilities answer an activity, what an activity is). A card's
#: effect of several steps is a chained ability: a step that can do nothing stops those after it.
EFFECTS: Final = Effects(VERBS, chained=True)
ANSWERS: Final = EffectActions(YES, NO, FIRST)  # "Players can always choose whether they want a specific effect to take place or not"
#: why a gem card of Heaven does not pay at a decision other than a payment ("Playing Iuno": a card
#: summoned or cast is paid with gems and gem cards)
GEM_CARD_PAYS = "a gem card pays only for a card being summoned or cast, while its cost is owed"


class Turn(Decision):
    """Your turn, after taking a die, a card and a gem: roll a die, or end the turn."""

    __slots__ = ()
    kind = "turn"
    asks = "may roll a die or end the turn"

    def legal_actions(self, state: AvatarState) -> list[Action]:
        sp = state.game.space
        return [sp.roll, sp.end_turn] if state.dice[self.seat] > 0 else [sp.end_turn]

    def resolve(self, state: AvatarState, action: AvatarAction) -> None:
        if action.kind == Kind.ROLL:
            state.roll(self.seat)
        else:
            state.end_turn()

    def why_illegal(self, state: AvatarState, action: Any) -> str:
        if getattr(action, "kind", None) == Kind.ROLL:
            return "you have no die left to roll (take one with an effect, or end the turn)"
        if getattr(action, "kind", None) == Kind.PAY_CARD:
            return GEM_CARD_PAYS
        return f"{action.text!r} is not possible now: roll a die first (summon, cast, activate and level up need a roll)"


class UseRoll(Decision):
    """A die shows `value`: one action it allows (rulebook "Playing Iuno"), or none."""

    __slots__ = ("value",)
    kind = "use_roll"
    fields = ("value",)
    shown = ("value",)

    def __init__(self, seat: int, value: int) -> None:
        super().__init__(seat)
        self.value = value

    def legal_actions(self, state: AvatarState) -> list[Action]:
        return state.roll_actions(self.seat, self.value)

    def resolve(self, state: AvatarState, action: AvatarAction) -> None:
        state.use_roll(self.seat, action)

    def question(self, state: AvatarState) -> str:
        return f"must use the rolled {self.value}: summon, cast, activate or level up, or discard the die"

    def why_illegal(self, state: AvatarState, action: Any) -> str:
        return state.why_not_roll(self.seat, self.value, action)


class Pay(Decision):
    """Pay for the announced `card`: `remaining` symbols per element (ELEMENTS order)."""

    __slots__ = ("card", "remaining")
    kind = "pay"
    fields = ("card", "remaining")

    def __init__(self, seat: int, card: int, remaining: tuple[int, ...]) -> None:
        super().__init__(seat)
        self.card = card
        self.remaining = tuple(remaining)

    def legal_actions(self, state: AvatarState) -> list[Action]:
        return state.pay_actions(self.seat, self.remaining)

    def resolve(self, state: AvatarState, action: AvatarAction) -> None:
        state.pay(self, action)

    def question(self, state: AvatarState) -> str:
        owed = ", ".join(f"{n} {e.title()}" for e, n in zip(ELEMENTS, self.remaining, strict=True) if n)
        return f"must pay for {state.card(self.card).name}: {owed} still owed"

    def why_illegal(self, state: AvatarState, action: Any) -> str:
        return state.why_not_pay(self.seat, self.remaining, action)

    def details(self, state: AvatarState, viewer: int | None) -> dict[str, Any]:
        return {"card": state.card(self.card).name,
                "remaining": {e: n for e, n in zip(ELEMENTS, self.remaining, strict=True) if n}}


class _Pending(Decision):
    """A choice an effect needs before it happens; the effect restarts with the choice made."""

    __slots__ = ("effect", "context")

    def __init__(self, seat: int, effect: Effect, context: Context) -> None:
        super().__init__(seat)
        self.effect = effect
        self.context = context

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "effect": self.effect.to_json(), "context": self.context.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(int(data["seat"]), VERBS.from_json(data["effect"]), Context.from_json(data["context"]))


class ChooseOpponent(_Pending):
    """A black pictogram: "an opponent chosen by the player"."""

    __slots__ = ()
    kind = "choose_opponent"

    def legal_actions(self, state: AvatarState) -> list[Action]:
        sp = state.game.space
        return [sp.opponent[o] for o in state.opponent_choices(self.effect, self.context)]

    def resolve(self, state: AvatarState, action: AvatarAction) -> None:
        card = self.context.targets[1] if len(self.context.targets) > 1 else -1
        EFFECTS.start(state, self.effect, Context(self.seat, self.context.source, (action.n, card)))

    def question(self, state: AvatarState) -> str:
        return f"must choose the opponent for: {VERBS.text(self.effect, QUESTION)}"


class ChooseCard(_Pending):
    """Which card an effect takes, where the player can see the candidates."""

    __slots__ = ()
    kind = "choose_card"

    def legal_actions(self, state: AvatarState) -> list[Action]:
        sp = state.game.space
        return [sp.choose[c] for c in state.card_choices(self.effect, self.context)]

    def resolve(self, state: AvatarState, action: AvatarAction) -> None:
        opp = self.context.targets[0] if self.context.targets else -1
        EFFECTS.start(state, self.effect, Context(self.seat, self.context.source, (opp, action.card)))

    def question(self, state: AvatarState) -> str:
        return f"must choose the card for: {VERBS.text(self.effect, QUESTION)}"


class DiscardDown(Decision):
    """End of turn: "each player must discard ... all but six cards"."""

    __slots__ = ()
    kind = "discard_down"
    asks = "must discard cards from Heaven to Hell until six are left"

    def legal_actions(self, state: AvatarState) -> list[Action]:
        sp = state.game.space
        return [sp.discard[c] for c in sorted(state.heaven[self.seat])]

    def resolve(self, state: AvatarState, action: AvatarAction) -> None:
        state.discard_down(self.seat, action.card)


DECISIONS: tuple[type[Decision], ...] = (Turn, UseRoll, Pay, ChooseOpponent, ChooseCard, DiscardDown, *EFFECTS.decisions)
