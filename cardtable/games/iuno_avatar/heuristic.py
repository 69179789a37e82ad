"""How a decent person plays Iuno Avatar (rulebook "Playing Iuno": the winner is the first with an
empty Heaven).

- Shed cards: roll every die; summon or cast whatever a roll allows, the dearest first; pay with gem
  cards before gems (a gem card paid is a card out of Heaven).
- With nothing to play, activate or level up a figure (its effect is in force while it has a gem).
- Effects: use one that sheds my cards, gives me dice or gems, or costs a leader gems, dice,
  figures or fresh cards; decline one that fills my Heaven or empties an opponent's.
- Choose the opponent with the fewest cards in Heaven; give away or discard the card hardest to pay.

Reads only the deciding seat's own Heaven and public facts.
"""

from __future__ import annotations

import math
from typing import Any, cast

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from ...core.verbs import Effect
from .actions import AvatarAction, Kind
from .state import AvatarState

PLAY = {Kind.SUMMON: 3.0, Kind.CAST: 3.0, Kind.ACTIVATE: 2.0, Kind.LEVEL_UP: 1.0, Kind.FORGO: 0.0}


def effect_value(effect: Effect) -> float:
    """How good an effect is for its controller (a shedding game: my cards out, theirs in)."""
    p: Any = effect.params
    n = float(getattr(p, "n", 1))
    if effect.verb == "take":
        if p.what == "card":
            return -1.0 * n  # a card more in my Heaven (and, for black, one less in theirs)
        return 1.0 * n
    if effect.verb == "discard":
        if p.what.endswith("card"):
            return 2.0 if p.owner == "white" else -2.0
        return 0.5 * n if p.owner == "black" else -0.5 * n
    value = 0.0
    if p.from_area == "heaven":
        value += 2.0 if p.from_owner == "white" else -2.0
    if p.to_area == "heaven":
        value += -2.0 if p.to_owner == "white" else 2.0
    if p.from_area == "earth" and p.from_owner == "black":
        value += 1.0
    if p.to_area == "earth":
        value += 0.5
    return value


def _difficulty(s: AvatarState, seat: int, c: int) -> float:
    """How hard a card is to get out of Heaven: its cost, or more when I cannot pay it now."""
    card = s.card(c)
    if card.gem:
        return 0.5
    return sum(card.cost) + (3.0 if not s.can_pay(seat, card.cost) else 0.0)


def choose(view: State, rng: Rng) -> Action:
    s = cast(AvatarState, view)
    legal = cast(list[AvatarAction], s.legal_actions())
    d = s.decision
    assert d is not None
    seat = d.seat
    kind = d.kind
    if kind == "turn":
        return legal[0]  # roll while a die is left
    if kind == "use_roll":
        def play_score(a: AvatarAction) -> float:
            base = PLAY.get(a.kind, 0.0)
            if a.kind in (Kind.SUMMON, Kind.CAST):
                card = s.card(a.card)
                bonus = effect_value(card.effect) if card.spell and card.effect is not None else 0.5
                return base + 0.1 * sum(card.cost) + 0.2 * bonus
            return base
        return max(legal, key=play_score)
    if kind == "pay":
        cards = [a for a in legal if a.kind == Kind.PAY_CARD]
        return cards[0] if cards else legal[0]
    if kind == "use_ability":
        ability = d.ability  # type: ignore[attr-defined]
        good = effect_value(ability.effects[0]) > 0
        yes, no = legal[0], legal[1]
        return yes if good else no
    if kind == "choose_opponent":
        return min(legal, key=lambda a: (len(s.heaven[a.n]), a.n))
    if kind == "choose_card":
        effect: Effect = d.effect  # type: ignore[attr-defined]
        p: Any = effect.params
        if effect.verb == "move" and p.from_area == "earth":  # an opponent's best figure
            return max(legal, key=lambda a: (s.charge[a.card], s.card(a.card).level))
        if effect.verb == "move" and p.from_area == "hell":
            return max(legal, key=lambda a: s.card(a.card).level)
        return max(legal, key=lambda a: _difficulty(s, seat, a.card))
    if kind == "discard_down":
        return max(legal, key=lambda a: _difficulty(s, seat, a.card))
    return legal[0]


def evaluate(state: State) -> list[float]:
    """Estimated `returns()`: fewer cards in Heaven is closer to winning; gems, dice and active
    figures help get there. A softmax of these scores, mapped to the range of `returns()`."""
    s = cast(AvatarState, state)
    n = s.game.players
    score = []
    for seat in range(n):
        active = sum(1 for c in s.figures(seat) if s.charge[c])
        score.append(-len(s.heaven[seat]) + 0.25 * s.gems[seat] + 0.3 * active)
    top = max(score)
    w = [math.exp((v - top) / 2.0) for v in score]
    total = sum(w)
    lose = 1.0 / (n - 1)
    return [x / total * (1 + lose) - lose for x in w]
