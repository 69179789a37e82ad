"""A small duel written only against the core's effect layer (cardtable/core/effects/), with test
cards for every part of it: the worked example of docs/developing.md ("The effect layer").

Each player has gems, cards drawn, sparks, HP and a power pool (at most 5). Figures in play carry
abilities (data, `FIGURES`): a trigger answers an event ("when you gain a gem, also draw a card"),
a replacement takes its place ("instead of drawing, gain 2 gems"). On your turn you `cast gain`
(gain a gem), `play bolt` (2 power: the opponent loses 3 HP) or `pass` the turn. A played bolt
goes on the response stack; the opponent may answer with an instant: `play negate` (1 power:
counter the top card) or `play ward` (1 power: wards them, so a bolt aimed at them can no longer
resolve and is meta-countered, its power refunded); or pass, and the stack resolves.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cardtable.core import Action, ActionSpace, Decision, Game, GameOptions, GameSpec, Rng, State, StateLayout
from cardtable.core.effects import (
    Ability,
    Chain,
    Context,
    EffectActions,
    Effects,
    GameEvent,
    ResponseStack,
    StackItem,
)
from cardtable.core.resources import Pools
from cardtable.core.verbs import Effect, Params, VerbRegistry

# -- verbs ------------------------------------------------------------------------------------


class Amount(Params):
    n: int = Field(1, ge=1, le=5)


VERBS = VerbRegistry("Duel")


@VERBS.effect("gain_gem", Amount, text=lambda p, w: f"gain {p.n} gem{'s' if p.n > 1 else ''}")
def _gain_gem(state: DuelState, ctx: Context, p: Amount) -> None:
    state.gems[ctx.controller] += p.n


@VERBS.effect("draw", Amount, text=lambda p, w: f"draw {p.n} card{'s' if p.n > 1 else ''}")
def _draw(state: DuelState, ctx: Context, p: Amount) -> None:
    state.drawn[ctx.controller] += p.n


@VERBS.effect("spark", Amount, text=lambda p, w: f"make {p.n} spark{'s' if p.n > 1 else ''}")
def _spark(state: DuelState, ctx: Context, p: Amount) -> None:
    state.sparks[ctx.controller] += p.n


@VERBS.effect("spend_gem", Amount, text=lambda p, w: f"spend {p.n} gem{'s' if p.n > 1 else ''}")
def _spend_gem(state: DuelState, ctx: Context, p: Amount) -> None:
    state.gems[ctx.controller] -= min(p.n, state.gems[ctx.controller])


# -- figures (test cards): what each does, as data ------------------------------------------------

FIGURES: dict[str, list[dict[str, Any]]] = {
    # a trigger
    "Miner": [{"when": "draw", "effect": {"verb": "gain_gem", "n": 1}}],
    # a replacement
    "Alchemist": [{"when": "draw", "instead": True, "effect": {"verb": "gain_gem", "n": 2}}],
    # a two-card loop: Scholar draws on a gem, Miner gains a gem on a draw
    "Scholar": [{"when": "gain_gem", "effect": {"verb": "draw", "n": 1}}],
    # a three-card loop with Scholar and Miner... no: gem -> draw (Scholar), draw -> spark (Tinker),
    # spark -> gem (Smith), and Scholar would fire again
    "Tinker": [{"when": "draw", "effect": {"verb": "spark", "n": 1}}],
    "Smith": [{"when": "spark", "effect": {"verb": "gain_gem", "n": 1}}],
    # mandatory: its controller is not asked
    "Forge": [{"when": "spark", "optional": False, "effect": {"verb": "spark", "n": 1}}],
    # answers the opponent's activity: its controller draws when the opponent gains a gem
    "Spy": [{"when": "gain_gem", "who": "opponent", "effect": {"verb": "draw", "n": 1}}],
    # goes before every other ability answering the same event, nobody asked the order
    "Herald": [{"when": "draw", "first": True, "effect": {"verb": "spark", "n": 1}}],
    # chained: each effect only if the one before it could happen ("spend a gem, then draw")
    "Trader": [{"when": "gain_gem", "effect": [{"verb": "spend_gem", "n": 1}, {"verb": "draw", "n": 1}]}],
    "Miser": [{"when": "gain_gem", "effect": [{"verb": "spend_gem", "n": 2}, {"verb": "draw", "n": 1}]}],
}
CARD_NAMES = list(FIGURES)
ABILITIES: dict[str, list[tuple[str, bool, bool, bool, bool, tuple[Effect, ...]]]] = {
    name: [(a["when"], a.get("who") == "opponent", a.get("instead", False), a.get("optional", True),
            a.get("first", False), tuple(VERBS.parse(e, f"figure {name!r}")
                                         for e in (a["effect"] if isinstance(a["effect"], list) else [a["effect"]])))
           for a in abilities]
    for name, abilities in FIGURES.items()
}
BOLT, NEGATE, WARD = 100, 101, 102  # spell cards' ids (figures are 0..7)
GAIN = VERBS.parse({"verb": "gain_gem", "n": 1}, "the cast")

# -- actions ----------------------------------------------------------------------------------


class DuelAction(Action):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


SPACE = ActionSpace("duel", "Duel", [(DuelAction(t), t) for t in (
    "cast gain", "play bolt", "play negate", "play ward", "pass", "yes", "no", "first 1", "first 2", "first 3",
)])
A = {a.text: a for a in SPACE}
COST = {BOLT: 2, NEGATE: 1, WARD: 1}
SPELL = {"play bolt": BOLT, "play negate": NEGATE, "play ward": WARD}
POOLS = Pools(("power",), bound=5)


class DuelOptions(GameOptions):
    players: int = Field(2, ge=2, le=2)
    figures: list[list[str]] = Field(default_factory=lambda: [[], []])
    power: int = 5


# -- the layers: what the state answers them is its methods (DuelState) ----------------------------

ANSWERS = EffectActions(A["yes"], A["no"], [A["first 1"], A["first 2"], A["first 3"]])
EFFECTS = Effects(VERBS, chained=True)
STACK = ResponseStack(POOLS)


class Turn(Decision):
    __slots__ = ()
    kind = "turn"

    def legal_actions(self, state: DuelState) -> list[Action]:
        out = [A["cast gain"], A["pass"]]
        if state.power[self.seat]["power"] >= COST[BOLT]:
            out.insert(1, A["play bolt"])
        return out

    def resolve(self, state: DuelState, action: Action) -> None:
        if action.text == "cast gain":
            EFFECTS.start(state, GAIN, Context(self.seat))
        elif action.text == "play bolt":
            paid = POOLS.pay(state.power[self.seat], self.seat, {"power": COST[BOLT]})
            STACK.play(state, StackItem(BOLT, self.seat, self.seat, (1 - self.seat,), paid))
        else:
            state.turn = 1 - self.seat
            state.turns += 1
            if state.turns >= 6:
                state.is_over = True
            else:
                state.pending.append(Turn(state.turn))

    def describe(self, state: DuelState) -> str:
        return f"seat {self.seat} casts, plays a bolt or passes"


class DuelState(State):
    layout = StateLayout(
        zones=(),
        values=("turn", "turns"),
        lists=("gems", "drawn", "sparks", "hp", "warded"),
        nested=("figures", "discard", "power"),
        typed=(("sequence", EFFECTS.record), ("chain", Chain)),
        decisions=(Turn, *EFFECTS.decisions, STACK.Priority),
    )
    __slots__ = ("turn", "turns", "gems", "drawn", "sparks", "hp", "warded", "figures", "discard", "power",
                 "sequence", "chain")

    # -- the effect layer's hooks (EffectHost, ChainedHost) -----------------------------------------

    def abilities(self, event: GameEvent) -> list[Ability]:
        out = []
        for seat, cards in enumerate(self.figures):
            for card in cards:
                for i, (when, opponent, instead, optional, first, effects) in enumerate(ABILITIES[CARD_NAMES[card]]):
                    if when == event.kind and (event.seat != seat if opponent else event.seat == seat):
                        out.append(Ability(card, i, seat, when, effects, Context(seat, card), instead, optional, first,
                                           chained=len(effects) > 1))
        return out

    def event_of(self, effect: Effect, context: Context) -> GameEvent:
        return GameEvent(effect.verb, seat=context.controller, amount=effect.params.n)  # type: ignore[attr-defined]

    def turn_order(self) -> list[int]:
        return [self.turn, 1 - self.turn]

    def effects_done(self) -> None:
        self.pending.append(Turn(self.turn))

    def card_name(self, card: int) -> str:
        return CARD_NAMES[card] if card < len(CARD_NAMES) else {BOLT: "Bolt", NEGATE: "Negate", WARD: "Ward"}[card]

    def effect_actions(self) -> EffectActions:
        return ANSWERS

    def possible(self, effect: Effect, context: Context) -> bool:
        """Only spending needs something: the gems to spend."""
        return effect.verb != "spend_gem" or self.gems[context.controller] >= effect.params.n  # type: ignore[attr-defined]

    # -- the response stack's hooks (StackHost) -----------------------------------------------------

    def responses(self, seat: int) -> list[Action]:
        return [A[t] for t in ("play negate", "play ward") if self.power[seat]["power"] >= 1]

    def respond(self, seat: int, action: Action) -> None:
        card = SPELL[action.text]
        paid = POOLS.pay(self.power[seat], seat, {"power": COST[card]})
        if card == NEGATE:  # an instant that counters the card it answers
            top = STACK.chain(self).items[-1]
            STACK.play(self, StackItem(card, seat, seat, (top.card,), paid))
        else:
            STACK.play(self, StackItem(card, seat, seat, (seat,), paid))

    def pass_action(self) -> Action:
        return A["pass"]

    def next_priority(self, seat: int) -> int:
        return 1 - seat

    def priority_question(self, seat: int) -> str:
        return f"may respond to {self.card_name(self.chain.items[-1].card)}, or pass"

    def priority_refusal(self, seat: int, action: Action) -> str:
        return f"{action.text!r}: only an instant (negate, ward) answers a card being played, or a pass"

    def still_legal(self, item: StackItem) -> bool:
        # a bolt needs a target that is not warded (checked again when it resolves)
        return item.card != BOLT or not self.warded[item.targets[0]]

    def resolve_item(self, item: StackItem) -> None:
        if item.card == BOLT:
            self.hp[item.targets[0]] -= 3
        elif item.card == NEGATE:
            STACK.counter(self, item.targets[0])
        else:
            self.warded[item.targets[0]] = True

    def discard_item(self, item: StackItem) -> None:
        self.discard[item.owner].append(item.card)

    def pools_of(self, seat: int) -> dict[str, int]:
        return self.power[seat]

    def stack_done(self) -> None:
        self.pending.append(Turn(self.turn))

    # -- the contract -------------------------------------------------------------------------------

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {"gems": list(self.gems), "drawn": list(self.drawn), "sparks": list(self.sparks), "hp": list(self.hp),
                "stack": [i.card for i in self.chain.items], "decision": self.decision and self.decision.to_json()}

    def _returns(self) -> list[float]:
        return [0.0, 0.0]

    def _winners(self) -> list[int]:
        return [0, 1]


class Duel(Game[DuelState]):
    spec = GameSpec(name="duel", title="Duel", min_players=2, max_players=2, effects=("sequence", "stack"))
    Options = DuelOptions

    def _build_action_space(self) -> ActionSpace[Any]:
        return SPACE

    def _empty_state(self) -> DuelState:
        return DuelState.__new__(DuelState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> DuelState:
        s = DuelState.__new__(DuelState)
        s._init_base(self, seed, Rng(seed), record_events)
        opts: DuelOptions = self.options  # type: ignore[assignment]
        s.turn = 0
        s.turns = 0
        s.gems = [0, 0]
        s.drawn = [0, 0]
        s.sparks = [0, 0]
        s.hp = [10, 10]
        s.warded = [False, False]
        s.figures = [[CARD_NAMES.index(n) for n in names] for names in opts.figures]
        s.discard = [[], []]
        s.power = [{"power": opts.power}, {"power": opts.power}]
        s.sequence = EFFECTS.record()
        s.chain = Chain()
        s.pending.append(Turn(0))
        return s
