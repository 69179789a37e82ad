"""Runes of Zun's pending decisions. The top of the stack owns the current player.

Each is immutable, knows its JSON form and owns its behaviour: its legal actions, how an action
resolves it, what it asks of a person and why an action is refused. After any action the turn
runs on to the next decision (`ZunState._run`). Two more come from the core's effect layer
(state.py): the reaction window is the response stack's priority decision (`reaction`: play a
Reaction, or pass: `reactions` below gives its responses) and the order of Start of Turn triggers
is its trigger-order decision (`order_triggers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from ...core.actions import Action
from ...core.state import Decision
from .actions import Kind, ZunAction

if TYPE_CHECKING:
    from .state import Resolving, ZunState

MULLIGAN_DRAW: Final = 3  # Start of Turn 2: "draw 3 new cards"


class ZunDecision(Decision):
    """A decision whose action is followed by the rest of the turn, up to the next decision."""

    __slots__ = ()
    #: the action that takes a card from the deciding seat's hand here (refused if not held)
    from_hand: ClassVar[Kind | None] = None

    def resolve(self, state: ZunState, action: ZunAction) -> None:
        self._resolve(state, action)
        state._run()

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot be resolved")

    def why_illegal(self, state: ZunState, action: ZunAction) -> str:
        if action.kind == self.from_hand and action.card not in state.hands[self.seat]:
            return f"seat {self.seat} holds no {state._name(action.card)}; legal now: {legal_now(state)}"
        refused = self._refusal(state, action)
        if refused is None:
            refused = kind_refusal(action)
        if refused is not None:
            return refused
        return f"{action.text!r} is not possible now: {self.describe(state)}; legal now: {legal_now(state)}"

    def _refusal(self, state: ZunState, action: ZunAction) -> str | None:
        """The rule that refuses `action` here, where the general reasons do not say it."""
        return None


class Mulligan(ZunDecision):
    """Start of Turn 2: no Action in hand; you may mulligan once."""

    __slots__ = ()
    kind = "mulligan"
    asks = "may mulligan (no Action in hand: discard the hand, draw 3) or keep the hand"

    def legal_actions(self, state: ZunState) -> list[Action]:
        sp = state.game.space
        return [sp.mulligan, sp.keep]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        if action.kind == Kind.MULLIGAN:
            seat = self.seat
            hand = state.hands[seat]
            state.emit("mulligan", seat=seat, hand=state._names(hand))
            state.discard.extend(hand)
            state.hands[seat] = []
            state._draw(seat, MULLIGAN_DRAW)
        state.phase = "action"


class ActionPhase(ZunDecision):
    """Action Phase 1/8: play an Action from your hand, or declare the phase done."""

    __slots__ = ()
    kind = "action_phase"
    asks = "may play an Action from their hand or end the Action Phase"
    from_hand = Kind.PLAY

    def legal_actions(self, state: ZunState) -> list[Action]:
        sp = state.game.space
        out: list[Action] = [sp.play[r] for r in _distinct(state, state.hands[self.seat], "action")]
        out.append(sp.end_phase)
        return out

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        if action.kind == Kind.PLAY:
            state._play(self.seat, action.card)
        else:
            state.phase = "recovery"


class Modify(ZunDecision):
    """Action Phase 3 (and Modifier cards): add modifiers to the rune just played."""

    __slots__ = ()
    kind = "modify"
    from_hand = Kind.MODIFY

    def question(self, state: ZunState) -> str:
        return f"may add modifiers to {state.rune_words(self.seat)} (the runes it charms), or be done modifying"

    def legal_actions(self, state: ZunState) -> list[Action]:
        sp = state.game.space
        return [*(sp.modify[r] for r in _modifiers_allowed(state, state.top())), sp.done_modifying]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        if action.kind == Kind.MODIFY:
            state._modify(self.seat, action.card)
        else:
            state._done_modifying()

    def _refusal(self, state: ZunState, action: ZunAction) -> str | None:
        return _modifier_refusal(state, action) if action.kind == Kind.MODIFY else None


class DeclareTarget(ZunDecision):
    """Action Phase 4: declare the next target, in the order of resolution."""

    __slots__ = ()
    kind = "declare_target"
    from_hand = Kind.MODIFY

    def question(self, state: ZunState) -> str:
        return (f"must declare the next target of {state.rune_words(self.seat)} (targets resolve in the order "
                "declared; modifiers may still be added before the first)")

    def legal_actions(self, state: ZunState) -> list[Action]:
        # Action Phase 3 then 4: until the first target is declared, modifiers may still be added.
        sp = state.game.space
        f = state.top()
        rune = state.runes[f.copy] if f.copy >= 0 else state.runes[f.rune]
        mods: list[Action] = [] if f.targets else [sp.modify[r] for r in _modifiers_allowed(state, f)]
        return mods + [sp.target[s] for s in state.candidates(rune) if s not in f.targets]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        if action.kind == Kind.MODIFY:
            state._modify(self.seat, action.card)
            return
        f = state._set(state.top(), targets=(*state.top().targets, action.n))
        state.emit("declared", seat=self.seat, target=action.n, card=state._name(f.rune),
                   order=len(f.targets))

    def _refusal(self, state: ZunState, action: ZunAction) -> str | None:
        if action.kind == Kind.MODIFY:
            return _modifier_refusal(state, action)
        if action.kind != Kind.TARGET:
            return None
        f = state.top()
        if action.n in f.targets:
            return f"seat {action.n} is already a target: you may not declare the same player twice"
        if action.n >= state.game.players:
            return f"there is no seat {action.n} at this table"
        return (f"seat {action.n} is Defeated and cannot be targeted by "
                f"{state._name(f.copy if f.copy >= 0 else f.rune)}")


class ChooseBlamed(ZunDecision):
    """Blame: choose the player that Reactions will treat as the Action's player."""

    __slots__ = ()
    kind = "blame"

    def question(self, state: ZunState) -> str:
        return f"must choose whom Blame names as the player of {state.rune_words(self.seat)}"

    def legal_actions(self, state: ZunState) -> list[Action]:
        blame = state.game.space.blame
        return [blame[s] for s in state.living() if s != self.seat]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        state._set(state.top(), actor=action.n, stage="window")
        state.emit("blamed", seat=self.seat, blamed=action.n)


class ChooseRedirect(ZunDecision):
    """Redirect: choose the Action's new target."""

    __slots__ = ()
    kind = "redirect"

    def question(self, state: ZunState) -> str:
        # (the top of the stack is the Redirect; the Action it redirects lies under it)
        return f"must choose the new target of {state.rune_words(self.seat, state.chain.items[-2])}"

    def legal_actions(self, state: ZunState) -> list[Action]:
        redirect = state.game.space.redirect
        return [redirect[s] for s in redirect_targets(state, state.chain.items[-2], self.seat)]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        state._close()  # the Redirect is done; the Action now targets the chosen player
        f = state._set(state.top(), cur=action.n, stage="window")
        state.emit("redirected", seat=self.seat, new_target=action.n, card=state._name(f.rune))


class ChooseDiscard(ZunDecision):
    """A card effect makes you discard `count` cards of your choice."""

    __slots__ = ("count",)
    kind = "discard"
    fields = ("count",)
    shown = ("count",)
    from_hand = Kind.DISCARD

    def question(self, state: ZunState) -> str:
        return f"must discard cards of their choice ({self.count} to go)"

    def __init__(self, seat: int, count: int) -> None:
        super().__init__(seat)
        self.count = count

    def legal_actions(self, state: ZunState) -> list[Action]:
        discard = state.game.space.discard
        return [discard[r] for r in _distinct(state, state.hands[self.seat])]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        _discard(state, self.seat, action.card)
        if self.count > 1 and state.hands[self.seat]:
            state.pending.append(ChooseDiscard(self.seat, self.count - 1))


class Recovery(ZunDecision):
    """Recovery Phase 1: discard any number of cards, then draw to 5."""

    __slots__ = ()
    kind = "recovery"
    asks = "may discard any cards, then draw to 5"
    from_hand = Kind.DISCARD

    def legal_actions(self, state: ZunState) -> list[Action]:
        sp = state.game.space
        return [*(sp.discard[r] for r in _distinct(state, state.hands[self.seat])), sp.done_discarding]

    def _resolve(self, state: ZunState, action: ZunAction) -> None:
        seat = self.seat
        if action.kind == Kind.DISCARD:
            _discard(state, seat, action.card)
            if state.hands[seat]:
                state.pending.append(Recovery(seat))
                return
        state._recover(seat)  # done, or the last card discarded: nothing is left to ask about


DECISIONS: Final[tuple[type[Decision], ...]] = (
    Mulligan, ActionPhase, Modify, DeclareTarget, ChooseBlamed, ChooseRedirect, ChooseDiscard, Recovery,
)


# -- what the decisions share ----------------------------------------------------------------


def _distinct(state: ZunState, cards: list[int], kind: str | None = None) -> list[int]:
    """The different runes among `cards` (of `kind`, if given), in rune order."""
    if kind is None:
        return sorted(set(cards))
    kinds = state.game.kinds
    return [r for r in sorted(set(cards)) if kinds[r] == kind]


def reactions(state: ZunState, seat: int) -> list[Action]:
    """Action Phase 5: the Reactions a targeted player may play (the responses of the reaction
    window; Redirect needs another player to name)."""
    react = state.game.space.react
    held = _distinct(state, state.hands[seat], "reaction")
    runes = state.runes
    if any(runes[r].answer_verb == "redirect" for r in held) and not redirect_targets(state, state.top(), seat):
        held = [r for r in held if runes[r].answer_verb != "redirect"]
    return [react[r] for r in held]


def _modifiers_allowed(state: ZunState, f: Resolving) -> list[int]:
    """The modifiers in the rune's player's hand that are its charms (Share: while a player is
    left to add as a target)."""
    runes = state.runes
    rune = runes[f.rune]
    out = []
    for r in _distinct(state, state.hands[f.controller], "modifier"):
        m = runes[r]
        if m.name not in rune.charms:
            continue
        if m.modifier is not None and m.modifier.verb == "share":
            copy = runes[f.copy] if f.copy >= 0 else rune
            # an All Players rune (a Mimic copying Banish) targets no player: nobody to share with
            if copy.all_players or len(state.candidates(copy)) < 2 + f.shares:
                continue
        out.append(r)
    return out


def redirect_targets(state: ZunState, f: Any, seat: int) -> list[int]:
    """Redirect: any other player the redirected rune could target."""
    rune = state.runes[f.copy] if f.copy >= 0 else state.runes[f.rune]
    return [s for s in state.candidates(rune) if s != seat]


def _discard(state: ZunState, seat: int, r: int) -> None:
    """Discarding cards: a card of the seat's choice goes from its hand to the discard pile."""
    state.hands[seat].remove(r)
    state.discard.append(r)
    state.emit("discarded", seat=seat, card=state._name(r))


#: when a rune of each kind is played, as "Playing cards" says, for a rune of the hand played at a
#: decision that does not play its kind (`ZunState.card_moves` offers each rune's own move at every
#: decision, so each rune of the hand says why it cannot be played now)
KIND_RULES: Final[dict[int, str]] = {  # keyed by int: a compiled action's kind is a plain int
    Kind.PLAY: ("an Action is played from your hand in your own Action Phase, one at a time: the one before it "
                "must resolve first (Action cards; Action Phase 1, 7)"),
    Kind.MODIFY: ("a modifier is played only on the Action or Reaction just played, before its targets are "
                  "declared (Modifier cards; Action Phase 3)"),
    Kind.REACT: "a Reaction is played only when an Action targets you (Reaction cards; Action Phase 5)",
}


def kind_refusal(action: ZunAction) -> str | None:
    """Why a rune's own move is refused at a decision that does not play its kind (None: another move)."""
    return KIND_RULES.get(action.kind)


def legal_now(state: ZunState) -> str:
    return ", ".join(a.text for a in state.legal_actions()[:10])


def _modifier_refusal(state: ZunState, action: ZunAction) -> str:
    """Why a modifier held in hand cannot modify the rune being played."""
    f = state.top()
    if f.targets:
        return "modifiers go on before the targets are declared (Action Phase 3, then 4)"
    card = state.runes[f.rune]
    name = state._name(action.card)
    if name not in card.charms:
        charms = ", ".join(card.charms) or "none"
        return f"{name} is not a charm of {card.name} (its legal modifiers: {charms})"
    return (f"Share adds a different target, and there are not enough players to target "
            f"(you may not target the same player twice); legal now: {legal_now(state)}")
