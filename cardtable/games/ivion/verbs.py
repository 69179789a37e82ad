"""Ivion's closed registry of effect verbs (core/verbs.py), each with typed parameters, its handler
and its text. A card's effects are data (content.toml); the rules each verb calls live in state.py.

Where a verb may stand (its slot):
- `effects`: what a card does when it resolves, top to bottom ("Resolve its effect");
- `abilities`: a status that holds while its card is attached or in the feat zone (`ward`, `seal`);
- `rules`: the turn's own steps (beginning a turn, moving a tile), run through the same effect
  layer so that what answers them (a snare, chivalry, a passive feat) fires by the same rules.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import Field

from ...core.resources import Pools
from ...core.verbs import QUESTION, Effect, NoParams, Params, VerbRegistry

VERBS = VerbRegistry("Ivion")
POOLS = Pools(("actions", "power"), bound=5)   # "a player can never have more than five of each resource"
EFFECTS_SLOT = ("effects",)


class Damage(Params):
    amount: int = Field(ge=1, le=10)
    to: Literal["target", "enemy", "self"] = "target"
    #: only when the hero it is dealt to is near you (glossary "Near")
    if_near: bool = False


class Heal(Params):
    amount: int = Field(ge=1, le=10)


class Count(Params):
    n: int = Field(1, ge=1, le=5)


class Gain(Params):
    resource: Literal["actions", "power"]
    n: int = Field(1, ge=1, le=5)


class Control(Params):
    kind: Literal["slow", "silence", "disarm"]
    n: int = Field(1, ge=1, le=5)
    to: Literal["target", "enemy", "self"] = "target"


class Stun(Params):
    n: int = Field(1, ge=1, le=5)
    to: Literal["target", "enemy", "self"] = "target"


class Travel(Params):
    who: Literal["self", "enemy"] = "self"


#: glossary "Difficult terrain", "Enchanted terrain"
TerrainKind = Literal["difficult", "enchanted"]


class Terrain(Params):
    kind: TerrainKind


class Recall(Params):
    #: the owner's hand, or the top of the owner's deck (face up there until that deck is shuffled)
    to: Literal["hand", "deck"] = "hand"


class Fade(Params):
    #: the card is destroyed when it carries this many turn tokens
    turns: int = Field(ge=1, le=5)


class Step(Params):
    tile: int = Field(ge=0, le=63)


# A card's text speaks to its player ("Deal 2 damage to your enemy"); quoted in a question
# (wording QUESTION) it speaks of the seat that decides: lower case, "their" for "your".


def _to(to: str, w: Any = None) -> str:
    if w == QUESTION:
        return {"target": "the target", "enemy": "their enemy", "self": "their own hero"}[to]
    return {"target": "the target", "enemy": "your enemy", "self": "yourself"}[to]


def _hero(to: str, w: Any = None) -> str:
    if w == QUESTION:
        return {"target": "the target receives", "enemy": "their enemy receives", "self": "their own hero receives"}[to]
    return {"target": "The target receives", "enemy": "Your enemy receives", "self": "You receive"}[to]


def _say(text: str, w: Any) -> str:
    return text[0].lower() + text[1:] if w == QUESTION else text


@VERBS.effect("damage", Damage, slots=EFFECTS_SLOT,
              text=lambda p, w: _say(f"Deal {p.amount} damage to {_to(p.to, w)}" + (
                  "" if not p.if_near else " if near their own hero" if w == QUESTION else " if they are near you"), w))
def _damage(state: Any, ctx: Any, p: Damage) -> None:
    seat = state.hero_meant(ctx, p.to)
    if p.if_near and not state.near(state.pos[ctx.controller], state.pos[seat]):
        return
    state.deal_damage(seat, p.amount)


@VERBS.effect("heal", Heal, slots=EFFECTS_SLOT, text=lambda p, w: _say(f"Heal {p.amount} HP", w))
def _heal(state: Any, ctx: Any, p: Heal) -> None:
    state.heal(ctx.controller, p.amount)


@VERBS.effect("draw", Count, slots=EFFECTS_SLOT, text=lambda p, w: _say(f"Draw {p.n} card{'s' if p.n > 1 else ''}", w))
def _draw(state: Any, ctx: Any, p: Count) -> None:
    for _ in range(p.n):
        state.draw(ctx.controller)


def amount(n: int, resource: str) -> str:
    """"1 action", "2 actions", "1 power" (power and initiative have no plural)."""
    return f"{n} {resource[:-1] if resource == 'actions' and n == 1 else resource}"


@VERBS.effect("gain", Gain, slots=EFFECTS_SLOT, text=lambda p, w: _say(f"Gain {amount(p.n, p.resource)}", w))
def _gain(state: Any, ctx: Any, p: Gain) -> None:
    state.gain(ctx.controller, p.resource, p.n)


@VERBS.effect("control", Control, slots=EFFECTS_SLOT, text=lambda p, w: _say(f"{_hero(p.to, w)} {p.n} {p.kind}", w))
def _control(state: Any, ctx: Any, p: Control) -> None:
    state.add_control(state.hero_meant(ctx, p.to), p.kind, p.n)


@VERBS.effect("stun", Stun, slots=EFFECTS_SLOT, text=lambda p, w: _say(f"Stun {_to(p.to, w)}" + (f" {p.n} times" if p.n > 1 else ""), w))
def _stun(state: Any, ctx: Any, p: Stun) -> None:
    state.stun(state.hero_meant(ctx, p.to), p.n)


@VERBS.effect("travel", Travel, slots=EFFECTS_SLOT,
              text=lambda p, w: _say("Travel to the target tile" if p.who == "self" else
                                     f"{'Their' if w == QUESTION else 'Your'} enemy travels to the target tile", w))
def _travel(state: Any, ctx: Any, p: Travel) -> None:
    state.travel(state.hero_meant(ctx, "self" if p.who == "self" else "enemy"), ctx.targets[0], ctx.controller)


@VERBS.effect("terrain", Terrain, slots=EFFECTS_SLOT, text=lambda p, w: _say(f"Create {p.kind} terrain in the target tile", w))
def _terrain(state: Any, ctx: Any, p: Terrain) -> None:
    for tile in ctx.targets:  # a card with two targets: each
        state.make_terrain(tile, p.kind)


@VERBS.effect("destroy", NoParams, slots=EFFECTS_SLOT, text=lambda p, w: _say("Destroy the target attached card", w))  # with two targets: each
def _destroy(state: Any, ctx: Any, p: NoParams) -> None:
    for card in ctx.targets:  # a card with two targets: each (one may have gone with the other)
        if state.host_of(card) is not None:
            state.destroy(card)


@VERBS.effect("recall", Recall, slots=EFFECTS_SLOT,
              text=lambda p, w: _say("Return the target attached card to its owner's hand (revealed)" if p.to == "hand"
                                     else "Put the target attached card on top of its owner's deck (revealed)", w))
def _recall(state: Any, ctx: Any, p: Recall) -> None:
    for card in ctx.targets:
        if state.host_of(card) is not None:
            state.recall(card, p.to)


@VERBS.effect("shuffle", NoParams, slots=EFFECTS_SLOT, text=lambda p, w: "shuffle their deck" if w == QUESTION else "Shuffle your deck")
def _shuffle(state: Any, ctx: Any, p: NoParams) -> None:
    state.shuffle_deck(ctx.controller)


@VERBS.effect("counter", NoParams, slots=EFFECTS_SLOT, text=lambda p, w: _say("Counter the target card", w))
def _counter(state: Any, ctx: Any, p: NoParams) -> None:
    state.counter(ctx.targets[0])


@VERBS.effect("copy", NoParams, slots=EFFECTS_SLOT, text=lambda p, w: _say("Copy the target card", w))
def _copy(state: Any, ctx: Any, p: NoParams) -> None:
    state.copy_card(ctx.targets[0], ctx.controller)


@VERBS.effect("chivalry", NoParams, slots=EFFECTS_SLOT, text=lambda p, w: "become chivalrous" if w == QUESTION else "You become chivalrous")
def _chivalry(state: Any, ctx: Any, p: NoParams) -> None:
    state.become_chivalrous(ctx.controller)


@VERBS.effect("fade", Fade, slots=EFFECTS_SLOT,
              text=lambda p, w: _say(f"Put a turn token on this card; with {p.turns} on it, destroy it", w))
def _fade(state: Any, ctx: Any, p: Fade) -> None:
    """Our shape of a card that lasts a few turns (only in a trigger of an attached card: cards.py)."""
    state.fade(ctx.source, p.turns)


@VERBS.effect("relic", NoParams, slots=EFFECTS_SLOT, text=lambda p, w: _say("Gain a random relic", w))
def _relic(state: Any, ctx: Any, p: NoParams) -> None:
    state.gain_relic(ctx.controller)


VERBS.status("ward", text=lambda p, w: "Damage dealt to this hero is reduced by 1", slots=("abilities",))
VERBS.status("seal", text=lambda p, w: "The card this is attached to has no abilities", slots=("abilities",))


@VERBS.effect("begin_turn", NoParams, slots=("rules",), text=lambda p, w: "begin the turn")
def _begin_turn(state: Any, ctx: Any, p: NoParams) -> None:
    state.begin_turn(ctx.controller)


@VERBS.effect("step", Step, slots=("rules",), text=lambda p, w: f"move to tile {p.tile}")
def _step(state: Any, ctx: Any, p: Step) -> None:
    state.enter(ctx.controller, p.tile, ctx.controller)


@VERBS.effect("initiative_draw", NoParams, slots=("rules",), text=lambda p, w: "draw a card (initiative)")
def _initiative_draw(state: Any, ctx: Any, p: NoParams) -> None:
    state.draw(ctx.controller)


#: the turn's own steps, as effects (the `rules` slot)
BEGIN = VERBS.parse({"verb": "begin_turn"}, "the turn", "rules")
INITIATIVE_DRAW = VERBS.parse({"verb": "initiative_draw"}, "initiative", "rules")


@cache
def step_effect(tile: int) -> Effect:
    """The step into `tile` (an effect is immutable: parsed once a tile, not at every move)."""
    return VERBS.parse({"verb": "step", "tile": tile}, "a move", "rules")
