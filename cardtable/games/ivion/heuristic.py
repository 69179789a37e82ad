"""How a plain, sensible player plays Ivion (rulebook "Saving Resources", "Staying Vigilant",
"Moving Methodically", "Initiative Strategy"):

- attack: play the card that deals the most damage to the enemy; unleash when possible;
- keep the enemy in range: with cards but no target in range, move toward the enemy;
- counter an enemy card that would deal 3 or more damage, or that would attach to you;
- escape control by spending resources that would otherwise be wasted (control is removed as
  cards are paid for); remove first the control that blocks most of the hand;
- initiative: draw while the hand is small, else move toward the enemy;
- keep the damage cards on a second wind, discard the weakest at the hand limit.

Reads only the deciding seat's own hand and what is public.
"""

from __future__ import annotations

import math
from typing import Any

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from .actions import COPY_BASE, IvionAction, Kind
from .cards import Card
from .state import IvionState


def card_value(c: Card) -> float:
    """Damage it deals, plus control, cards and power it gives."""
    v = 0.0
    for e in (*c.effects, *c.unleash):
        p: Any = e.params
        if e.verb == "damage" and p.to != "self":
            v += p.amount
        elif e.verb in ("control", "stun"):
            v += 0.8 * p.n
        elif e.verb == "draw":
            v += 0.7 * p.n
        elif e.verb == "heal":
            v += 0.5 * p.amount
        elif e.verb in ("counter", "copy", "relic", "chivalry", "destroy", "recall"):
            v += 1.0
    v += 0.5 * max(0, c.power) + (1.5 if c.attach else 0)
    return v


def _toward(s: IvionState, seat: int, tile: int) -> int:
    return -s.distance(tile, s.pos[1 - seat])


def _score(s: IvionState, seat: int, a: IvionAction) -> float:
    k = a.kind
    lib = s.game.library
    if k in (Kind.PLAY, Kind.FEAT, Kind.CANTRIP):
        c = lib.cards[a.name]
        if c.target == "stack":
            top = s.chain.items[-1] if s.chain.items else None
            if top is None or top.controller == seat:
                return -1.0
            threat = card_value(s.card(top.card))
            return threat - 2.0 if threat >= 3 or s.card(top.card).attach else -1.0
        bonus = 0.5 if k == Kind.CANTRIP else 0.0
        if any(e.verb == "draw" for e in c.effects) and len(s.deck[seat]) < 12:
            return -0.2  # drawing toward exhaustion
        if any(e.verb == "heal" for e in c.effects) and s.hp[seat] > s.max_hp[seat] - 3:
            return -0.2
        if s.chain.items and not any(e.verb == "control" for e in c.effects):
            return -1.0  # answer with instants that matter only
        return 1.0 + card_value(c) + bonus
    if k == Kind.MOVE or k == Kind.INIT_MOVE:
        tile = s.neighbour(s.pos[seat], a.name)
        closer = s.distance(s.pos[seat], s.pos[1 - seat]) - s.distance(tile, s.pos[1 - seat])
        return (0.6 if k == Kind.INIT_MOVE else 0.3) * closer
    if k == Kind.INIT_DRAW:
        if len(s.deck[seat]) < 15:
            return -0.5  # the deck is the clock: exhaustion deals 5 a draw
        return 0.9 if len(s.hand[seat]) + len(s.shown[seat]) < 3 else -0.1
    if k == Kind.SPEND:
        return 0.1 if s.pools[seat][a.name] >= 5 else -0.5
    if k == Kind.TARGET_TILE:
        return _toward(s, seat, a.n)
    if k == Kind.TARGET_CARD:
        if a.n >= COPY_BASE or any(i.card == a.n for i in s.chain.items):
            item = next((i for i in s.chain.items if i.card == a.n), None)
            return 1.0 if item is not None and item.controller != seat else -1.0
        return 1.0 if s.owner(a.n) != seat else -1.0
    if k == Kind.UNLEASH:
        return 1.0
    if k == Kind.REMOVE:
        return sum(1 for c in s.hand[seat] if a.name in s.card(c).banner)
    if k == Kind.LOSE:
        return s.pools[seat][a.name]
    if k == Kind.KEEP:
        return card_value(lib.cards[a.name])
    if k in (Kind.BOTTOM, Kind.DISCARD):
        return -card_value(lib.cards[a.name])
    if k == Kind.END_TURN:
        return 0.0
    return 0.0  # pass, yes, first N, don't unleash


def choose(view: State, rng: Rng) -> Action:
    s = view
    assert isinstance(s, IvionState)
    seat = s.current_player
    assert seat is not None
    legal = s.legal_actions()
    scored = [(_score(s, seat, a), rng.random(), a) for a in legal]  # type: ignore[arg-type]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def evaluate(state: State) -> list[float]:
    """Estimated returns: the difference of the heroes' HP fractions, squashed to (-1, 1)."""
    s = state
    assert isinstance(s, IvionState)
    lead = s.hp[0] / s.max_hp[0] - s.hp[1] / s.max_hp[1]
    lead += 0.02 * (len(s.deck[0]) - len(s.deck[1]))
    x = math.tanh(2.0 * lead)
    return [x, -x]
