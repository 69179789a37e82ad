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
from ...core.state import Decision, State
from .actions import IunuAction, Kind
from .cards import BAKER, FARMER, MERCHANT, NOBLE, NUM_TYPES, PRIEST, SCRIBE, SOLDIER
from .decisions import (
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
from .state import DEBENS_PER_VP, IunuState

DEBEN_VP = 1.0 / DEBENS_PER_VP


def _majority_gain(s: IunuState, seat: int, t: int) -> float:
    """Majority VP won by one more card of type `t` (taking or securing the majority)."""
    majority = s.game.majority_vp[t]
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


def _card_pick(s: IunuState, seat: int, legal: list[IunuAction], most: bool) -> IunuAction:
    """The card of highest `card_value` (`most`; the lowest type first among equals), or of lowest
    (the lowest type first): `max` / `min` by those keys, without a closure made at every decision
    (the Forum and the hand are the rollouts' most frequent decisions)."""
    pick = legal[0]
    if most:
        best = (card_value(s, seat, pick.arg), -pick.arg)
        for a in legal[1:]:
            key = (card_value(s, seat, a.arg), -a.arg)
            if key > best:
                pick, best = a, key
    else:
        least = (card_value(s, seat, pick.arg), pick.arg)
        for a in legal[1:]:
            key = (card_value(s, seat, a.arg), a.arg)
            if key < least:
                pick, least = a, key
    return pick


def choose(view: State, rng: Rng) -> Action:
    s = view
    assert isinstance(s, IunuState)
    d = s.pending[-1]
    seat = d.seat
    legal = cast(list[IunuAction], s.legal_actions())
    kind = type(d)
    if kind is PlayCitizen or kind is TakeCard:
        return _card_pick(s, seat, legal, True)
    if kind is PlaceCard:
        return _card_pick(s, seat, legal, False)
    return _choose_rest(s, d, seat, legal, rng)


def _choose_rest(s: IunuState, d: Decision, seat: int, legal: list[IunuAction], rng: Rng) -> Action:
    """`choose` for the decisions other than a card to play, take or place."""
    kind = type(d)

    def by_kind(k: Kind) -> list[IunuAction]:
        return [a for a in legal if a.kind == k]

    def first(k: Kind) -> IunuAction:
        return by_kind(k)[0]

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
            trial: IunuState = s.clone()  # type: ignore[assignment]
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
    return legal[rng.below(len(legal))]


# -- cut-off evaluation for ISMCTS ---------------------------------------------------------------
#
# The weights below were fitted on 20,000 positions of heuristic-vs-heuristic two-player games
# (log-loss of the predicted winner; docs/agents.md, "IUNU evaluation").
HAND_WEIGHT = 0.5        # Citizen VP of a hand card that there is still a turn to play
HAND_MAJORITY = 0.3      # a hand card of a type counts this much toward that type's majority
DECK_PER_TURN = 1.2      # Citizen cards a turn takes from the deck (reveal + refills), on average
MAJORITY_SPREAD = 0.35   # how soft a majority lead is (in cards) when the game is far from over
SCALE = 6.0              # VP behind which a seat's chance halves... at the end of the game
SCALE_PER_CARD = 0.6     # ...and more per card left in the deck: early leads are less certain


def expected_vp(s: IunuState) -> list[float]:
    """What each seat would score at GAME END, as far as the position shows it (in VP).

    GAME END scoring of the Dynasties as they are (Citizen, Bread, Afterlife), with three changes:
    - Debens at their exact rate (3 per VP, or the held Afterlife card's), not rounded down: a
      Deben spent on Bread or a second card is worth about that much;
    - each Majority counted as the chance of holding it at the end, from the lead in cards (a
      hand card of the type counts a little), softer while many cards are still to come; ties
      at the end give nobody the Majority ("Players tied for most cards do not receive any such VP");
    - the hand: the best cards there are turns left to play, at half their Citizen VP.
    """
    g = s.game
    n = g.players
    who = len(s.dynasty)  # seats, then Heliopolis (Memphis and Thebes)
    cols = [s.columns(w) for w in range(who)]
    scored = s.dynasty_vp(cols)  # GAME END's Citizen, Bread and Afterlife VP, and the Debens a VP costs
    left = 1.0 if s.ending else len(s.deck) / (DECK_PER_TURN * n) + 1.0  # turns left per seat
    playable = math.ceil(left)
    vp: list[float] = []
    for i in range(n):
        points, rate = scored[i]
        v = float(points)
        v += s.debens[i] / rate
        best = sorted((g.citizen_vp[t] for t in s.hands[i]), reverse=True)[:playable]
        v += HAND_WEIGHT * sum(best)
        vp.append(v)
    # Majorities: a logistic of the lead in cards, as soft as the cards still to come make it.
    spread = MAJORITY_SPREAD * (0.5 + 2.0 * min(1.0, len(s.deck) / 32.0)) if not s.ending else MAJORITY_SPREAD * 0.5
    for t in range(NUM_TYPES):
        m = g.majority_vp[t]
        eff = [cols[w][t] + (HAND_MAJORITY * min(playable, s.hands[w].count(t)) if w < n else 0.0)
               for w in range(who)]
        for i in range(n):
            if eff[i] == 0:
                continue
            lead = eff[i] - max(eff[o] for o in range(who) if o != i)
            x = (lead - 0.5) / spread
            vp[i] += m / (1.0 + math.exp(-x)) if x > -30 else 0.0
    return vp


def evaluate(state: State) -> list[float]:
    """Estimated `returns()` of a position that is not over: each seat's expected VP
    (`expected_vp`) turned into a chance of finishing first by a softmax whose scale grows with
    the cards left in the deck (a 6 VP lead at the end is worth more than early on), then mapped
    to the range of `returns()` (1 for a sole winner, -1/(n-1) for each loser).

    Reads only `state`, which ISMCTS gives as a determinized copy: other seats' hands, Scribe
    cards and Afterlife cards in it are guesses."""
    s = state
    assert isinstance(s, IunuState)
    n = s.game.players
    vp = expected_vp(s)
    scale = SCALE + SCALE_PER_CARD * len(s.deck)
    top = max(vp)
    w = [math.exp((v - top) / scale) for v in vp]
    total = sum(w)
    lose = 1.0 / (n - 1)
    return [x / total * (1 + lose) - lose for x in w]
