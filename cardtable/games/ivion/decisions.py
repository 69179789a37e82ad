"""Ivion's decisions, each owning its legal actions, its resolution and its words.

Playing a card (rulebook "Playing Cards") is a short flow on a staged record (`state.staged`, a `Play`):
choose the card -> choose its effect if it asks to (`ChooseMode`) -> choose its target, or each of
its targets (`ChooseTarget`) -> unleash or not (`Unleash`) -> pay, which
removes that much control (`RemoveControl` when the kinds to remove are a real choice) -> on the
response stack, where the other player may respond (the core's `Priority`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any, Final

from ...core.actions import Action
from ...core.effects import Context, Effects, ResponseStack, StackItem
from ...core.effects.records import Record
from ...core.resources import Payment
from ...core.state import Decision
from ...core.verbs import QUESTION
from .actions import CONTROLS, DIRECTIONS, IvionAction, Kind
from .card import NUMBERS, ORDINALS
from .verbs import INITIATIVE_DRAW, POOLS, VERBS, amount, step_effect

if TYPE_CHECKING:
    from .state import IvionState


#: the core's effect layer and response stack, bound to Ivion's verbs: what they ask of the game
#: is the state's (`IvionState.abilities`, `resolve_item` and the other hooks); the actions their
#: decisions offer are the game's own action space's (`effect_actions`, `pass_action`)
EFFECTS = Effects(VERBS)
STACK = ResponseStack(POOLS)



class Play(Record):
    """A card being played (rulebook "Playing Cards"): chosen, its effect chosen, targeted, paid for,
    not yet on the stack. Its JSON is the record's fields (the payment once paid). Immutable: each
    step of the play makes a changed copy (`aimed`, `choosing`, `unleashing`, `paid`)."""

    FIELDS = ("seat", "card", "how", "target", "targets", "unleash", "mode", "payment")

    def __init__(self, seat: int, card: int, how: str, target: int = -1, targets: tuple[int, ...] = (),
                 unleash: bool = False, mode: int = 0, payment: Payment | None = None) -> None:
        self.seat: Final = seat
        self.card: Final = card
        self.how: Final = how                # "play", "cantrip" (for an initiative) or "feat"
        self.target: Final = target          # its first target (-1: none)
        self.targets: Final = targets        # every target, in the order chosen
        self.unleash: Final = unleash
        self.mode: Final = mode              # the effect chosen ("choose")
        self.payment: Final = payment        # what was paid

    def values(self) -> tuple[Any, ...]:
        return self.seat, self.card, self.how, self.target, self.targets, self.unleash, self.mode, self.payment

    def aimed(self, target: int, targets: tuple[int, ...]) -> Play:
        return Play(self.seat, self.card, self.how, target, targets, self.unleash, self.mode, self.payment)

    def choosing(self, mode: int) -> Play:
        return Play(self.seat, self.card, self.how, self.target, self.targets, self.unleash, mode, self.payment)

    def unleashing(self, unleash: bool) -> Play:
        return Play(self.seat, self.card, self.how, self.target, self.targets, unleash, self.mode, self.payment)

    def paid(self, payment: Payment) -> Play:
        return Play(self.seat, self.card, self.how, self.target, self.targets, self.unleash, self.mode, payment)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "card": self.card, "how": self.how, "target": self.target,
                               "targets": list(self.targets), "unleash": self.unleash, "mode": self.mode}
        if self.payment is not None:
            out["payment"] = self.payment.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Play:
        payment = data.get("payment")
        return cls(int(data["seat"]), int(data["card"]), str(data["how"]), int(data["target"]),
                   tuple(int(t) for t in data["targets"]), bool(data["unleash"]), int(data["mode"]),
                   None if payment is None else Payment.from_json(payment))


class Then(StrEnum):
    """What comes after control is removed for the resources spent."""

    STACK = "stack"  # the card being played goes on the stack
    STEP = "step"    # the hero moves to a tile
    TURN = "turn"    # the turn goes on


# -- what may be played -------------------------------------------------------------------------


def held(state: IvionState, seat: int, how: str) -> dict[str, int]:
    """The cards `how` ("play", "cantrip", "feat") could take from `seat`, by name: the id of the
    copy it would take (a card's copies are alike; a feat played this turn is not there)."""
    out: dict[str, int] = {}
    if how != "feat":
        for zone in (state.shown[seat], state.hand[seat]):  # a revealed copy first: the rest stays hidden
            for c in zone:
                out.setdefault(state.name(c), c)
    if how != "play":
        used = state.feats_used[seat]
        for c in state.feats[seat]:
            if c not in used:
                out.setdefault(state.name(c), c)
    return out


def find(state: IvionState, seat: int, how: str, name: str) -> int:
    """The id of the card `name` that `how` ("play", "cantrip", "feat") would take, or -1."""
    return held(state, seat, how).get(name, -1)


class Refused(IntEnum):
    """Why a card cannot be played some way now (`refused`, the rule); `refusal` says it."""

    NOT_HELD = 0      # no such card to play that way (a feat: or it was played this turn)
    PASSIVE = 1       # a passive feat
    NOT_INSTANT = 2   # answering a card being played, with no instant
    NO_CANTRIP_NOW = 3  # expending an initiative while cards are unresolved
    PREVENTED = 4     # control its banner names
    NO_CANTRIP = 5    # played for an initiative, without a cantrip
    NO_INITIATIVE = 6
    COST = 7          # short of its cost
    NO_TARGET = 8


def refused(state: IvionState, seat: int, how: str, card_id: int, responding: bool) -> Refused | None:
    """Why `seat` cannot play the card `card_id` (-1: it holds none) this way now (None: it can).
    The legal moves ask this of every card held at every decision; `refusal` puts it in words
    when someone asks why."""
    if card_id < 0:
        return Refused.NOT_HELD
    c = state.card(card_id)
    if c.passive:
        return Refused.PASSIVE
    if responding and not c.instant:
        return Refused.NOT_INSTANT
    if responding and how == "cantrip":
        return Refused.NO_CANTRIP_NOW
    if state.prevented_by(seat, c):
        return Refused.PREVENTED
    if how == "cantrip":
        if not c.cantrip:
            return Refused.NO_CANTRIP
        if state.initiative[seat] < 1:
            return Refused.NO_INITIATIVE
    elif not POOLS.affords(state.pools[seat], c.cost):
        return Refused.COST
    if not state.has_target(seat, c):
        return Refused.NO_TARGET
    return None


def refusal(state: IvionState, seat: int, how: str, name: str, responding: bool) -> str | None:
    """Why `seat` cannot play `name` this way now (None: it can), in the rulebook's words."""
    card_id = find(state, seat, how, name)
    why = refused(state, seat, how, card_id, responding)
    if why is None:
        return None
    if why == Refused.NOT_HELD:
        if how == "feat" and any(state.name(c) == name for c in state.feats[seat]):
            return f"{name} was played since your turn began: a feat is played once until your next turn"
        return f"you have no {name} to play" + (" in your feat zone" if how == "feat" else " in hand")
    c = state.card(card_id)
    if why == Refused.PASSIVE:
        return f"{name} is a passive feat: it has effect while in the feat zone, and is never played"
    if why == Refused.NOT_INSTANT:
        return f"{name} is not an instant: only instants answer a card being played"
    if why == Refused.NO_CANTRIP_NOW:
        return "no initiative can be expended while cards are unresolved"
    if why == Refused.PREVENTED:
        k = state.prevented_by(seat, c)[0]
        word = {"slow": "slowed", "silence": "silenced", "disarm": "disarmed"}[k]
        return f"{word}: this card's banner includes {k}"
    if why == Refused.NO_CANTRIP:
        return f"{name} has no cantrip"
    if why == Refused.NO_INITIATIVE:
        return "a cantrip is played by expending an initiative, and you have none"
    if why == Refused.COST:
        have = state.pools[seat]
        short = [amount(n - have[r], r) for r, n in c.cost.items() if n > have[r]]
        costs = " and ".join(amount(n, r) for r, n in c.cost.items() if n)
        return f"{name} costs {costs}: you are short of {' and '.join(short)}"
    return f"{name} has no target in range" if c.range is not None else f"{name} has no target"


def plays(state: IvionState, seat: int, responding: bool) -> list[Action]:
    sp = state.game.space
    out: list[Action] = []
    hand = held(state, seat, "play")
    for name in sorted(hand):
        if refused(state, seat, "play", hand[name], responding) is None:
            out.append(sp.play[name])
    if not responding:
        cantrips = held(state, seat, "cantrip")
        for name in sorted(cantrips):
            if name in sp.cantrip and refused(state, seat, "cantrip", cantrips[name], responding) is None:
                out.append(sp.cantrip[name])
    feats = held(state, seat, "feat")
    for name in sorted(feats):
        if name in sp.feat and refused(state, seat, "feat", feats[name], responding) is None:
            out.append(sp.feat[name])
    return out


#: the moves that play a card a seat holds (`card_moves`): a decision that plays none refuses them
#: with what it asks instead (the core's "not possible now: ...")
CARD_KINDS: Final = frozenset({Kind.PLAY, Kind.CANTRIP, Kind.FEAT, Kind.DISCARD})


def card_moves(state: IvionState, seat: int) -> dict[str, list[Action]]:
    """The moves that play each card `seat` holds, at every decision: `play X` for a card of the hand
    and `feat X` for a feat that is played (then, for a cantrip, `cantrip X`: played for an
    initiative); at the hand limit, `discard X`. At a decision that plays no card (a target, unleash,
    second wind ...) the same moves, which the decision refuses with what it asks instead."""
    sp = state.game.space
    hand = sorted({state.name(c) for c in (*state.hand[seat], *state.shown[seat])})
    if isinstance(state.decision, DiscardDown):
        return {n: [sp.discard[n]] for n in hand}
    out: dict[str, list[Action]] = {n: [sp.play[n], *([sp.cantrip[n]] if n in sp.cantrip else [])] for n in hand}
    out.update({n: [sp.feat[n], *([sp.cantrip[n]] if n in sp.cantrip else [])]  # (Wayfinder: a feat with a cantrip)
                for n in sorted({state.name(c) for c in state.feats[seat]}) if n in sp.feat})
    return out


def start_play(state: IvionState, seat: int, how: str, name: str) -> None:
    card_id = find(state, seat, how, name)
    c = state.card(card_id)
    state.staged = Play(seat, card_id, how)
    if c.modes:  # "If the card requires you to 'choose', decide now."
        state.pending.append(ChooseMode(seat))
        return
    to_targets(state)


def to_targets(state: IvionState) -> None:
    """"If the card requires one or more targets, select them now": each of them in turn."""
    staged = state.staged
    assert staged is not None
    seat = staged.seat
    c = state.card(staged.card)
    if c.target in ("tile", "empty_tile", "attached", "stack"):
        state.pending.append(ChooseTarget(seat))
        return
    target = state.targets_for(seat, c)[0]
    state.staged = staged.aimed(target, () if target < 0 else (target,))
    after_target(state)


def after_target(state: IvionState) -> None:
    staged = state.staged
    assert staged is not None
    seat = staged.seat
    c = state.card(staged.card)
    if c.may_unleash(state.pools[seat]["power"], free=staged.how == "cantrip"):
        state.pending.append(Unleash(seat))
        return
    pay(state)


def pay(state: IvionState) -> None:
    """"Pay its cost": spend resources (cantrip: an initiative instead, for free); the card leaves
    the hand for the field; control is removed as resources are spent."""
    staged = state.staged
    assert staged is not None
    seat, card_id, how = staged.seat, staged.card, staged.how
    c = state.card(card_id)
    if how == "cantrip":
        state.initiative[seat] -= 1
        cost = {"actions": 0, "power": 0}
    else:
        cost = dict(c.cost)
    if staged.unleash:  # "you spend the rest of your remaining power"
        cost["power"] = state.pools[seat]["power"]
    payment = POOLS.pay(state.pools[seat], seat, cost)
    for zone in (state.shown[seat], state.hand[seat], state.feats[seat]):
        if card_id in zone:
            zone.remove(card_id)
            break
    state.played.append(card_id)
    if c.feat:
        state.feats_used[seat].append(card_id)
    if how == "cantrip":
        state.free.append(card_id)
    if staged.unleash:
        state.unleashed.append(card_id)
    if c.modes:
        state.chosen[card_id] = staged.mode
    target = staged.target
    state.check_chivalry_on_play(seat, c, (target,))
    # a hero target is named (and its seat given, so that its own player reads "you")
    state.emit("played", seat=seat, card=state.name(card_id), how=how,
               target=" and ".join(state.target_name(card_id, t) for t in staged.targets),
               hero=target if c.target in ("self", "enemy") else None, unleashed=staged.unleash)
    spent = sum(n for _, n in payment.spent)
    state.staged = staged.paid(payment)
    remove_control(state, seat, spent, Then.STACK)


def remove_control(state: IvionState, seat: int, n: int, then: Then, tile: int = -1) -> None:
    """"After you spend resources in any way, you remove that many control tokens in any combination." """
    ctrl = state.controls[seat]
    kinds = [k for k in CONTROLS if ctrl[k] > 0]
    if n > 0 and kinds:
        if len(kinds) == 1 or sum(ctrl.values()) <= n:  # no real choice: remove what there is
            for _ in range(n):
                left = [k for k in CONTROLS if ctrl[k] > 0]
                if not left:
                    break
                ctrl[left[0]] -= 1
        else:
            state.pending.append(RemoveControl(seat, n, then, tile))
            return
    carry_on(state, seat, then, tile)


def carry_on(state: IvionState, seat: int, then: Then, tile: int) -> None:
    """The card goes on the stack, the hero steps to `tile`, or the turn goes on."""
    if then is Then.STACK:
        staged = state.staged
        assert staged is not None
        state.staged = None
        STACK.play(state, StackItem(staged.card, state.owner(staged.card), seat, staged.targets, staged.payment))
    elif then is Then.STEP:
        EFFECTS.start(state, step_effect(tile), Context(seat))
    else:
        state.pending.append(Main(seat))


# -- decisions ------------------------------------------------------------------------------------


#: how a card is played, by the action that plays it (keyed by int: a compiled action's kind is one)
HOW: dict[int, str] = {Kind.PLAY: "play", Kind.CANTRIP: "cantrip", Kind.FEAT: "feat"}


class Main(Decision):
    """Your turn, with no card unresolved: play, move, use your initiative, spend to remove
    control, or end the turn."""

    __slots__ = ()
    kind = "main"
    asks = "may play a card, move, use initiative or end the turn"

    def legal_actions(self, state: IvionState) -> list[Action]:
        seat = self.seat
        sp = state.game.space
        out: list[Action] = plays(state, seat, responding=False)
        for d in DIRECTIONS:
            if self._move_refusal(state, d, initiative=False) is None:
                out.append(sp.move[d])
            if self._move_refusal(state, d, initiative=True) is None:
                out.append(sp.init_move[d])
        if state.initiative[seat] > 0:
            out.append(sp.init_draw)
        if any(state.controls[seat].values()):
            for r in ("actions", "power"):
                if state.pools[seat][r] > 0:
                    out.append(sp.spend[r])
        out.append(sp.end_turn)
        return out

    def _move_refusal(self, state: IvionState, direction: str, initiative: bool) -> str | None:
        seat = self.seat
        if state.controls[seat]["slow"] > 0:
            return "slowed: you can't move nor spend an initiative to move"
        tile = state.neighbour(state.pos[seat], direction)
        if tile < 0:
            return f"there is no tile {direction} of you"
        if tile == state.pos[1 - seat]:
            return "a player can't enter a tile that has an opponent in it"
        difficult = state.terrain.get(tile) == "difficult"
        if initiative:
            if state.initiative[seat] < 1:
                return "you have no initiative left this turn"
            if difficult:
                return "difficult terrain can't be entered with an initiative (it costs two actions)"
        elif state.pools[seat]["actions"] < (2 if difficult else 1):
            return "moving costs one action" + (" (two into difficult terrain)" if difficult else "")
        return None

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        seat = self.seat
        k = action.kind
        if k == Kind.END_TURN:
            state.end_turn()
        elif k in (Kind.PLAY, Kind.CANTRIP, Kind.FEAT):
            start_play(state, seat, HOW[k], action.name)
        elif k == Kind.MOVE:
            tile = state.neighbour(state.pos[seat], action.name)
            cost = 2 if state.terrain.get(tile) == "difficult" else 1
            payment = POOLS.pay(state.pools[seat], seat, {"actions": cost})
            remove_control(state, seat, sum(n for _, n in payment.spent), Then.STEP, tile)
        elif k == Kind.INIT_MOVE:
            state.initiative[seat] -= 1
            EFFECTS.start(state, step_effect(state.neighbour(state.pos[seat], action.name)), Context(seat))
        elif k == Kind.INIT_DRAW:
            state.initiative[seat] -= 1
            EFFECTS.start(state, INITIATIVE_DRAW, Context(seat))
        elif k == Kind.SPEND:  # "spend resources during their turn for the sole purpose of removing control"
            POOLS.pay(state.pools[seat], seat, {action.name: 1})
            remove_control(state, seat, 1, Then.TURN)

    def why_illegal(self, state: IvionState, action: IvionAction) -> str:
        k = action.kind
        if k in (Kind.PLAY, Kind.CANTRIP, Kind.FEAT):
            how = HOW[k]
            return refusal(state, self.seat, how, action.name, False) or f"{action.text!r} is not possible now"
        if k in (Kind.MOVE, Kind.INIT_MOVE):
            return self._move_refusal(state, action.name, k == Kind.INIT_MOVE) or "not possible now"
        if k == Kind.INIT_DRAW:
            return "you have no initiative left this turn"
        if k == Kind.SPEND:
            return "you spend resources to remove control only while controlled, and only resources you have"
        return f"{action.text!r} is not possible now: {self.describe(state)}"


class ChooseTarget(Decision):
    __slots__ = ()
    kind = "choose_target"

    def legal_actions(self, state: IvionState) -> list[Action]:
        staged = state.staged
        assert staged is not None
        sp = state.game.space
        c = state.card(staged.card)
        # "one or more targets": each a different one
        targets = [t for t in state.targets_for(self.seat, c) if t not in staged.targets]
        if c.target in ("tile", "empty_tile"):
            return [sp.tile[t] for t in targets]
        return [sp.card[t] for t in targets]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        assert state.staged is not None
        chosen = (*state.staged.targets, action.n)
        state.staged = state.staged.aimed(chosen[0], chosen)
        if len(chosen) < state.card(state.staged.card).targets:
            state.pending.append(ChooseTarget(self.seat))
            return
        after_target(state)

    def _wanted(self, state: IvionState) -> str:
        """The kind of target the staged card takes: "enemy hero, range 3"."""
        assert state.staged is not None
        c = state.card(state.staged.card)
        return c.target.replace("_", " ") + (f", range {c.range}" if c.range is not None else "")

    def question(self, state: IvionState) -> str:
        assert state.staged is not None
        c = state.card(state.staged.card)
        chosen = state.staged.targets
        if c.targets == 1:
            return f"must choose the target of {c.name} ({self._wanted(state)})"
        # "one or more targets": the first, then the second, each different from those chosen
        nth = ORDINALS[len(chosen)]
        besides = f", not {' or '.join(state.target_name(state.staged.card, t) for t in chosen)}" if chosen else ""
        return f"must choose the {nth} of the {NUMBERS[c.targets]} targets of {c.name} ({self._wanted(state)}{besides})"

    def why_illegal(self, state: IvionState, action: IvionAction) -> str:
        if action.kind in CARD_KINDS:
            return super().why_illegal(state, action)
        return f"{action.text!r}: the target must be a legal {self._wanted(state)}"


class ChooseMode(Decision):
    """"If the card requires you to 'choose', decide now": which of its effects it will have."""

    __slots__ = ()
    kind = "choose_mode"

    def details(self, state: IvionState, viewer: int | None) -> dict[str, Any]:
        """Each effect to choose, in words, in the order of `choose 1`, `choose 2` (the move labels)."""
        assert state.staged is not None
        c = state.card(state.staged.card)
        return {"modes": [c.mode_text(i, QUESTION) for i in range(len(c.modes))]}

    def legal_actions(self, state: IvionState) -> list[Action]:
        assert state.staged is not None
        offered: list[Action] = [*state.game.space.choose[:len(state.card(state.staged.card).modes)]]
        return offered

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        assert state.staged is not None
        state.staged = state.staged.choosing(action.n)
        to_targets(state)

    def question(self, state: IvionState) -> str:
        assert state.staged is not None
        c = state.card(state.staged.card)
        # "Verdict: deal 3 damage to the target, or ...?": each effect in words, from the card's data
        options = ", or ".join(c.mode_text(i, QUESTION) for i in range(len(c.modes)))
        return f"must choose what {c.name} does: {options}?"

    def why_illegal(self, state: IvionState, action: IvionAction) -> str:
        if action.kind in CARD_KINDS:
            return super().why_illegal(state, action)
        assert state.staged is not None
        c = state.card(state.staged.card)
        return f"{action.text!r}: {c.name} offers {len(c.modes)} effects to choose from"


class Unleash(Decision):
    __slots__ = ()
    kind = "unleash"
    asks = "may unleash (spending all remaining power), or not"

    def legal_actions(self, state: IvionState) -> list[Action]:
        return [state.game.space.unleash, state.game.space.no_unleash]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        assert state.staged is not None
        state.staged = state.staged.unleashing(action.kind == Kind.UNLEASH)
        pay(state)


class RemoveControl(Decision):
    __slots__ = ("n", "then", "tile")
    kind = "remove_control"
    fields = ("n", "then", "tile")

    def __init__(self, seat: int, n: int, then: Then, tile: int = -1) -> None:
        super().__init__(seat)
        self.n = n
        self.then = then
        self.tile = tile  # where the hero steps (`Then.STEP`)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RemoveControl:
        return cls(int(data["seat"]), int(data["n"]), Then(data["then"]), int(data["tile"]))

    def legal_actions(self, state: IvionState) -> list[Action]:
        return [state.game.space.remove[k] for k in CONTROLS if state.controls[self.seat][k] > 0]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        state.controls[self.seat][action.name] -= 1
        remove_control(state, self.seat, self.n - 1, self.then, self.tile)

    def question(self, state: IvionState) -> str:
        return f"must remove control for the resources spent ({self.n} to remove)"


class LoseResource(Decision):
    __slots__ = ("n",)
    kind = "lose_resource"
    fields = ("n",)

    def __init__(self, seat: int, n: int) -> None:
        super().__init__(seat)
        self.n = n

    def legal_actions(self, state: IvionState) -> list[Action]:
        return [state.game.space.lose[r] for r in ("actions", "power") if state.pools[self.seat][r] > 0]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        POOLS.lose(state.pools[self.seat], action.name, 1)  # lost, not spent: no control is removed
        before = len(state.pending)
        state.stun(self.seat, self.n - 1)
        if len(state.pending) == before:
            EFFECTS.run(state)

    def question(self, state: IvionState) -> str:
        return f"must lose an action or a power to the stun ({self.n} to lose)"


class SecondWindKeep(Decision):
    __slots__ = ("n",)
    kind = "second_wind_keep"
    fields = ("n",)

    def __init__(self, seat: int, n: int) -> None:
        super().__init__(seat)
        self.n = n

    def legal_actions(self, state: IvionState) -> list[Action]:
        sp = state.game.space
        return [sp.keep[n] for n in sorted({state.name(c) for c in state.looking[self.seat]})]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        seat = self.seat
        card = next(c for c in state.looking[seat] if state.name(c) == action.name)
        state.looking[seat].remove(card)
        if card in state.revealed:  # a face-up card stays face up in the hand
            state.revealed.remove(card)
            state.shown[seat].append(card)
        else:
            state.hand[seat].append(card)
        if self.n > 1 and state.looking[seat]:
            state.pending.append(SecondWindKeep(seat, self.n - 1))
        else:
            _bottom_or_done(state, seat)

    def question(self, state: IvionState) -> str:
        return f"must keep a card of the top five for their second wind ({self.n} to keep)"


def _bottom_or_done(state: IvionState, seat: int) -> None:
    if len(state.looking[seat]) > 1:
        state.pending.append(SecondWindBottom(seat))
        return
    if state.looking[seat]:
        state.deck[seat].insert(0, state.looking[seat].pop())
    EFFECTS.run(state)


class SecondWindBottom(Decision):
    """The rest go to the bottom in the order chosen: each card chosen goes under the deck, so the
    last one chosen is the bottom card."""

    __slots__ = ()
    kind = "second_wind_bottom"
    asks = "must put the next card of their second wind on the bottom of the deck"

    def legal_actions(self, state: IvionState) -> list[Action]:
        sp = state.game.space
        return [sp.bottom[n] for n in sorted({state.name(c) for c in state.looking[self.seat]})]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        seat = self.seat
        card = next(c for c in state.looking[seat] if state.name(c) == action.name)
        state.looking[seat].remove(card)
        state.deck[seat].insert(0, card)
        _bottom_or_done(state, seat)


class DiscardDown(Decision):
    __slots__ = ()
    kind = "discard_down"

    def legal_actions(self, state: IvionState) -> list[Action]:
        sp = state.game.space
        s = self.seat
        return [sp.discard[n] for n in sorted({state.name(c) for c in (*state.hand[s], *state.shown[s])})]

    def resolve(self, state: IvionState, action: IvionAction) -> None:
        s = self.seat
        card = find(state, s, "play", action.name)
        (state.shown[s] if card in state.shown[s] else state.hand[s]).remove(card)
        state.discard[s].append(card)
        state.end_turn()

    def question(self, state: IvionState) -> str:
        s = self.seat
        return f"must discard down to the hand limit of 7 ({len(state.hand[s]) + len(state.shown[s])} in hand)"


DECISIONS: tuple[type[Decision], ...] = (
    Main, ChooseMode, ChooseTarget, Unleash, RemoveControl, LoseResource, SecondWindKeep, SecondWindBottom, DiscardDown,
)

