"""How a decent person plays IUNU (rulebook iunu.txt: DYNASTY PHASE, REJUVENATION PHASE,
CITIZEN ABILITIES, GAME END, AFTERLIFE CARDS).

- Majorities: a card that takes (or keeps) the majority of its type is worth its Majority VP
  on top of its Citizen VP ("Players tied for most cards do not receive any such VP").
- Bread: bake on the unfed Citizen with the most Bread VP while a loaf costs no more Debens than
  it is worth (3 Debens are 1 VP at GAME END).
- Debens: always take a Noble's or Merchant's Debens; pay a Soldier's tribute rather than lose
  a Farmer; pay for a second card only when it is worth more than the Deben.
- Take from the Forum what you would most like to play; place what you would least like to.
- Afterlife cards: keep the one that scores most for the Dynasty you have.

Reads only the deciding seat's own hand, Scribe pile and Afterlife card and public facts.
"""

from __future__ import annotations

import math
from typing import cast

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from ...games.iunu.actions import IunuAction, Kind
from ...games.iunu.cards import BAKER, FARMER, MERCHANT, NOBLE, PRIEST, SCRIBE, SOLDIER
from ...games.iunu.decisions import (
    ArtisanDiscount,
    Bake,
    PharaohReroll,
    PlaceCard,
    PlayCitizen,
    PriestDie,
    PriestKeep,
    ScribeTuck,
    SecondCard,
    SoldierSteal,
    TakeCard,
    Tribute,
    UseAbility,
)
from ...games.iunu.state import DEBENS_PER_VP, IunuState

DEBEN_VP = 1.0 / DEBENS_PER_VP


def _majority_gain(s: IunuState, seat: int, t: int) -> float:
    """Majority VP won by one more card of type `t` (taking or securing the majority)."""
    majority = s.game.cards.citizens[t].majority_vp
    mine = s.dynasty[seat][t]
    best_other = max(s.dynasty[o][t] for o in range(len(s.dynasty)) if o != seat)
    if mine + 1 > best_other >= mine:   # takes it (from a tie or from behind by one)
        return float(majority)
    if mine + 1 == best_other:          # ties: at least breaks the other's majority
        return majority / 2
    if mine > best_other:               # secures a lead
        return majority / 4
    return 0.0


def _ability_value(s: IunuState, seat: int, t: int) -> float:
    dice = [v for v in s.dice if v > 0]
    if t == NOBLE:
        return sum(dice) * DEBEN_VP * 1.5
    if t == MERCHANT:
        return ((max(dice) if dice else 0) + s.dynasty[seat][MERCHANT] + 1) * DEBEN_VP * 1.5
    if t == BAKER:
        price = s._bread_price(seat)
        unfed = [u for u in range(len(s.dynasty[seat])) if s.dynasty[seat][u] > s.fed[seat][u]]
        if s.debens[seat] >= price and unfed and s.bread > 0:
            return max(s.game.bread_vp[u] for u in unfed) - price * DEBEN_VP
        return 0.0
    if t == SOLDIER:
        return 1.5 if s._victims(seat) else 0.3
    if t == PRIEST:
        return 1.0 if s._priest_dice(seat) else 0.0
    if t == SCRIBE:
        return 0.8 if s.debens[seat] >= 1 and len(s.hands[seat]) > 1 else 0.0
    return 0.0


def card_value(s: IunuState, seat: int, t: int) -> float:
    """What playing one card of type `t` is worth to `seat` now, in VP."""
    return s.game.citizen_vp[t] + _majority_gain(s, seat, t) + _ability_value(s, seat, t)


def _my_total(s: IunuState, seat: int) -> float:
    return float(s.score_table()[seat]["total"])


def choose(view: State, rng: Rng) -> Action:
    s = view
    assert isinstance(s, IunuState)
    d = s.pending[-1]
    seat = d.seat
    legal = cast(list[IunuAction], s.legal_actions())
    kind = type(d)

    def by_kind(k: Kind) -> list[IunuAction]:
        return [a for a in legal if a.kind == k]

    def first(k: Kind) -> IunuAction:
        return by_kind(k)[0]

    if kind is PlayCitizen:
        return max(legal, key=lambda a: (card_value(s, seat, a.arg), -a.arg))
    if kind is SecondCard:
        t = d.citizen  # type: ignore[attr-defined]
        worth = s.game.citizen_vp[t] + _majority_gain(s, seat, t)
        return first(Kind.SECOND) if worth > 2 * DEBEN_VP + 1 else first(Kind.NO_SECOND)
    if kind is PharaohReroll:
        wants_high = any(t in (NOBLE, MERCHANT) for t in s.hands[seat])
        live = [(v, i) for i, v in enumerate(s.dice) if v > 0]
        low, die = min(live)
        if wants_high and low <= 2:
            return next(a for a in legal if a.kind == Kind.REROLL and a.arg == die)
        return first(Kind.KEEP_DICE)
    if kind is UseAbility:
        return first(Kind.USE)  # Noble and Merchant only ever gain Debens
    if kind is ScribeTuck:
        tucks = by_kind(Kind.SCRIBE)
        if s.debens[seat] >= 2 and tucks:
            return max(tucks, key=lambda a: (s.game.citizen_vp[a.arg] + _majority_gain(s, seat, a.arg), -a.arg))
        return first(Kind.SKIP)
    if kind is PriestDie:
        dice = by_kind(Kind.PRIEST_DIE)
        cheap = [a for a in dice if s.dice[a.arg] <= 2 and s.debens[seat] - s.dice[a.arg] >= 1]
        if cheap:
            return min(cheap, key=lambda a: (s.dice[a.arg], a.arg))
        return first(Kind.SKIP)
    if kind is PriestKeep:
        def afterlife_total(a: IunuAction) -> float:
            trial = s.clone()
            if a.kind == Kind.KEEP_AFTERLIFE:
                trial.held[seat] = a.arg
            return _my_total(trial, seat)

        return max(legal, key=lambda a: (afterlife_total(a), a.kind == Kind.KEEP_CURRENT, -a.arg))
    if kind is SoldierSteal:
        steals = by_kind(Kind.STEAL)
        if not steals:
            return first(Kind.SKIP)
        return max(steals, key=lambda a: (s.dynasty[a.arg][SOLDIER] == 0, s.dynasty[a.arg][FARMER], -a.arg))
    if kind is Tribute:
        return first(Kind.TRIBUTE)  # a Deben is a third of a VP; the Farmer is at least one
    if kind is Bake:
        price = d.price  # type: ignore[attr-defined]
        breads = by_kind(Kind.BREAD)
        if breads:
            best = max(breads, key=lambda a: (s.game.bread_vp[a.arg], -a.arg))
            if s.game.bread_vp[best.arg] >= price * DEBEN_VP * 1.5:
                return best
        return first(Kind.STOP_BAKING)
    if kind is ArtisanDiscount:
        return max(legal, key=lambda a: a.arg)  # place as many as allowed: keep the Debens
    if kind is PlaceCard:
        return min(legal, key=lambda a: (card_value(s, seat, a.arg), a.arg))
    if kind is TakeCard:
        return max(legal, key=lambda a: (card_value(s, seat, a.arg), -a.arg))
    return legal[rng.below(len(legal))]


def evaluate(state: State) -> list[float]:
    """Estimated `returns()`: VP as GAME END would score now, plus half the Citizen VP in hand,
    turned into a chance of finishing first."""
    s = state
    assert isinstance(s, IunuState)
    n = s.game.players
    table = s.score_table()
    vp = [table[i]["total"] + 0.5 * sum(s.game.citizen_vp[t] for t in s.hands[i]) for i in range(n)]
    top = max(vp)
    w = [math.exp((v - top) / 6.0) for v in vp]
    total = sum(w)
    p = [x / total for x in w]
    lose = 1.0 / (n - 1)
    return [pi * (1 + lose) - lose for pi in p]
