"""How a plain, sensible player plays Ivion (rulebook "Saving Resources", "Staying Vigilant",
"Moving Methodically", "Initiative Strategy"):

- attack: play the card that deals the most damage to the enemy; unleash when possible;
- keep the enemy in range: with cards but no target in range, move toward the enemy;
- counter an enemy card that would deal 3 or more damage, or that would attach to you;
- keep an instant heal for the enemy's turn, and play it on the blow that would end you;
- escape control by spending resources that would otherwise be wasted (control is removed as
  cards are paid for); remove first the control that blocks most of the hand;
- initiative: draw while the hand is small, else move toward the enemy;
- keep the damage cards on a second wind, discard the weakest at the hand limit.

Reads only the deciding seat's own hand and what is public.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any, Final, cast

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from ...core.verbs import Effect
from .actions import COPY_BASE, IvionAction, Kind
from .card import Card
from .state import EXHAUSTION_DAMAGE, IvionState, host_key

if TYPE_CHECKING:
    from .game import Ivion


#: ISMCTS's defaults for Ivion (cardtable/agents/ismcts.py): paired rollouts. Heuristic play of
#: Ivion hangs mostly on the hidden cards (the same deal is won by the same seat whichever of two
#: heuristics plays it), so the tree, whose every iteration sees other hidden cards, ranked moves
#: by their determinizations' luck: at 0.5 s it picked the same move on two seeds at 14 of 30
#: positions and the heuristic's move at 11 of 60, and lost to medium (34 of 108). Paired
#: rollouts compare the moves on the same hidden cards, and race them (docs/games/ivion.md, the
#: hard bot: 149 of 200 against medium with the race and the fitted `evaluate`, on the content of
#: stop 42).
SEARCH = {"root": "rollouts"}


def card_value(c: Card) -> float:
    """Damage it deals, plus control, cards and power it gives (of a card that asks to choose: its
    best effect). A card's data decides it, so it is worked out once per card (the hard bot's
    rollouts ask it at every choice)."""
    known = _VALUE.get(id(c))
    if known is not None and known[0] is c:
        return known[1]
    best = 0.0  # (each effect's value is 0 or more; a loop, as `max(..., default=)` is a slow call compiled)
    for m in c.modes:
        best = max(best, effects_value(m))
    value = effects_value((*c.effects, *c.unleash)) + best + 0.5 * max(0, c.power) + (1.5 if c.attach else 0)
    _VALUE[id(c)] = (c, value)
    return value


#: card_value by the card's id; the card is kept with its value, so its id cannot stand for another card
_VALUE: dict[int, tuple[Card, float]] = {}


def effects_value(effects: tuple[Effect, ...]) -> float:
    v = 0.0
    for e in effects:
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
        elif e.verb == "gain":
            v += 0.5 * p.n
    return v


def damage(c: Card, unleashed: bool = False, ward: int = 0, mode: int | None = None) -> int:
    """The damage it deals to the enemy hero (`ward`: taken off each hit); of a card that asks to
    choose, with the effect `mode` (None: the most damaging). From the card's hits, worked out once
    when it was read (`Card.hits`: the hard bot's rollouts ask this of every card in hand at every
    choice)."""
    modes = 0
    if mode is None:  # the most damaging
        for m in c.mode_hits:
            modes = max(modes, _warded(m, ward))
    elif c.modes:
        modes = _warded(c.mode_hits[mode], ward)
    return _warded(c.hits, ward) + (_warded(c.unleash_hits, ward) if unleashed else 0) + modes


def _warded(hits: tuple[int, ...], ward: int) -> int:
    """What `hits` deal with `ward` taken off each."""
    total = 0
    for n in hits:
        total += max(0, n - ward)
    return total


def _hand(s: IvionState, seat: int) -> list[Card]:
    out = [s.card(c) for c in s.hand[seat]]
    for c in s.shown[seat]:
        out.append(s.card(c))
    return out


def _attacks(s: IvionState, seat: int) -> list[Card]:
    return [c for c in _hand(s, seat) if c.target == "enemy" and damage(c) > 0 and not c.instant]


def _reach(s: IvionState, seat: int, tile: int, enemy_tile: int, attacks: list[Card]) -> float:
    """What this seat's attacks in hand could deal from `tile` (those not blocked by control)."""
    d = s.distance(tile, enemy_tile)
    return sum(damage(c) for c in attacks
               if (c.range is None or d <= c.range) and not s.prevented_by(seat, c))


def _ranges(cards: list[Card]) -> list[int]:
    """The reach of each attack among `cards` (no limit: 9)."""
    return [c.range if c.range is not None else 9 for c in cards
            if c.target == "enemy" and damage(c) > 0 and not c.instant]


#: each game's heroes' attack ranges, from the decks their players built (cards and feats)
_DECK_RANGES: weakref.WeakKeyDictionary[Ivion, list[list[int]]] = weakref.WeakKeyDictionary()


def _deck_ranges(s: IvionState, seat: int) -> list[int]:
    """The reach of the attacks in this seat's whole deck and feats: its own player built it."""
    per = _DECK_RANGES.get(s.game)
    if per is None:
        lib = s.game.library
        per = _DECK_RANGES[s.game] = [_ranges([lib.cards[n] for n in (*d.cards, *d.feats)]) for d in s.game.decks]
    return per[seat]


def _desired(s: IvionState, seat: int) -> int:
    """The distance to keep. A hero most of whose attacks reach 2 or more fights from range: it
    keeps to its usual reach (at most 3), out of the enemy's melee and a step beyond it, so that a
    melee enemy spends actions walking instead of striking; a melee hero closes to 1. The hand's
    attacks say which; with none in hand, the deck does (a ranged hero with an empty hand still
    keeps away)."""
    ranges = _ranges(_hand(s, seat)) or _deck_ranges(s, seat)
    if not ranges:
        return 1
    far = sorted(r for r in ranges if r >= 2)
    return min(3, far[len(far) // 2]) if len(far) * 2 >= len(ranges) else 1


def _trap(s: IvionState, seat: int, tile: int) -> float:
    """Cards of the enemy attached to a tile (snares, static fields) and hostile terrain."""
    bad = sum(1.0 for c in s.attached.get(host_key("tile", tile), ()) if s.owner(c) != seat)
    return bad + (0.3 if s.terrain.get(tile) == "difficult" else 0.0)


class _Footing:
    """What the score of every tile asks of the deciding seat's hand, worked out at most once a
    decision (the state does not change while its moves are scored): its attacks and the distance
    it wants to keep."""

    def __init__(self, s: IvionState, seat: int) -> None:
        self.s: Final = s
        self.seat: Final = seat
        self._attacks: list[Card] | None = None
        self._desired = -1

    def attacks(self) -> list[Card]:
        if self._attacks is None:
            self._attacks = _attacks(self.s, self.seat)
        return self._attacks

    def desired(self) -> int:
        if self._desired < 0:
            self._desired = _desired(self.s, self.seat)
        return self._desired


def _tile_score(s: IvionState, seat: int, tile: int, foot: _Footing) -> float:
    """How good a tile is to stand on: the hand's damage that reaches the enemy from it, at the
    distance this hand wants, away from the enemy's traps."""
    enemy = s.pos[1 - seat]
    d = s.distance(tile, enemy)
    return 0.5 * _reach(s, seat, tile, enemy, foot.attacks()) - 0.6 * abs(d - foot.desired()) - 1.5 * _trap(s, seat, tile)


def _may_draw(s: IvionState, seat: int) -> bool:
    """Whether drawing an extra card is safe: the deck is the clock (exhaustion deals 5 a draw),
    so draw extra only while this deck is not the shorter one, or early."""
    mine, theirs = len(s.deck[seat]), len(s.deck[1 - seat])
    return mine >= 22 or mine - 1 >= theirs + 2


def _exhausting(s: IvionState, seat: int, n: int) -> float:
    """What drawing `n` cards would cost in HP beyond the deck: "if you would draw a card, instead take
    5 damage" for each card the deck no longer holds (a draw that would end this hero: as much as a
    lethal blow is worth). Before 2026-11-28 the bot weighed an exhausted draw only as the deck's
    clock (-2), and drew itself to death: a PPO policy that outlasted its deck beat it 85% of 300."""
    short = max(0, n - len(s.deck[seat]))
    hurt = EXHAUSTION_DAMAGE * short
    return 0.0 if not hurt else 100.0 if hurt >= s.hp[seat] else float(hurt)


def _mends(c: Card) -> bool:
    """An instant that only heals: an answer to the blow that would end you ("Staying Vigilant")."""
    return c.instant and bool(c.effects) and all(e.verb == "heal" for e in c.effects)


def _reactive(s: IvionState, seat: int) -> Card | None:
    """An instant in hand kept for the enemy's turn (a counter or a copy; an instant heal once
    wounded), if its cost can be kept."""
    for c in _hand(s, seat):
        if c.instant and (c.target == "stack" or (_mends(c) and s.wounded[seat])) and not s.prevented_by(seat, c):
            return c
    return None


def _play_score(s: IvionState, seat: int, a: IvionAction, foot: _Footing) -> float:
    lib = s.game.library
    c = lib.cards[a.name]
    pools = s.pools[seat]
    enemy = 1 - seat
    if c.target == "stack":  # a counter or a copy: for what hurts
        top = s.chain.items[-1] if s.chain.items else None
        if top is None or top.controller == seat:
            return -1.0
        tc = s.card(top.card)
        threat = damage(tc, top.card in s.unleashed) + (2.0 if tc.attach and tc.target in ("enemy", "attached") else 0)
        # (the params read as Any: with an unknown attribute mypy takes this sum for an int, which
        # the compiled module would then insist on)
        threat += sum(0.8 * cast(Any, e.params).n for e in tc.effects if e.verb in ("control", "stun"))
        if any(e.verb == "copy" for e in c.effects):
            threat = damage(tc) - 0.5  # a copy hits back with the same card
        return threat - 1.5 if threat >= 2.5 else -1.0
    if s.chain.items and _mends(c):  # on the blow that would end you (or leave you at 1)
        hit = _incoming(s, seat)
        return 4.0 if hit is not None and hit[1] >= s.hp[seat] - 1 else -1.0
    if s.chain.items and _dodge(s, seat, c) is not None:  # stepping out of the range of what hits you
        return _dodge(s, seat, c) or -1.0
    if s.chain.items:  # answering with an instant that is not a counter: control or damage that matters
        return 0.5 + card_value(c) if damage(c) + sum(1 for e in c.effects if e.verb in ("control", "stun")) >= 2 else -1.0
    v = card_value(c)
    ward = 1 if "ward" in s.statuses_on(enemy) and not s.exhausted(enemy) else 0
    unleash = c.may_unleash(pools["power"], free=a.kind == Kind.CANTRIP)
    dmg = damage(c, unleash, ward)
    if dmg >= s.hp[enemy]:
        return 100.0 + dmg  # lethal
    v -= damage(c, True) - damage(c, True, ward)  # what the enemy's ward takes off
    hand = _hand(s, seat)
    draws = sum(cast(Any, e.params).n for e in c.effects if e.verb == "draw")
    if draws:
        v += 1.0 if len(hand) <= 2 else 0.0
        if not _may_draw(s, seat):
            v -= 2.0  # the deck is the clock: exhaustion deals 5 a draw
        v -= _exhausting(s, seat, draws)
    for e in c.effects:
        p: Any = e.params
        if e.verb == "heal":
            missing = s.max_hp[seat] - s.hp[seat]
            v += 0.8 * min(missing, p.amount) - 0.5 * p.amount - 0.5
        elif e.verb == "chivalry" and s.chivalrous[seat]:
            v -= 2.0
        elif e.verb == "chivalry":
            v += 1.5
        elif e.verb == "travel" and p.who == "self":
            # a step is worth what the tile it reaches is better than this one (none better: a
            # wasted card or initiative)
            v += (_tile_best(s, seat, c, foot) - _tile_score(s, seat, s.pos[seat], foot)) * 0.8 - 0.5
        elif e.verb == "terrain":
            v -= 0.3
    if c.attach and "ward" in c.statuses and "ward" in s.statuses_on(seat):
        v -= 2.0  # wards do not add up
    if c.grants and not dmg:
        v -= 0.5 * max(0, pools["power"] + c.grants - 5)  # power beyond five is lost
    if c.cost["power"]:
        v -= 0.25 * c.cost["power"]
    if c.target == "attached":
        theirs = [x for cs in s.attached.values() for x in cs if s.owner(x) != seat]
        v += 0.5 if len(theirs) >= c.targets else -2.0  # (two targets: not one of its own as the second)
    if c.instant and c.target == "enemy":
        v -= 0.4  # kept for the enemy's turn, when it is as good
    if _mends(c):
        v -= 1.5  # kept for the enemy's turn, when it saves you from a blow
    # keep an action and the power for a counter in hand, unless the turn has actions to spare
    keep = _reactive(s, seat)
    if keep is not None and keep is not c and a.kind != Kind.CANTRIP:
        left_a = pools["actions"] - c.cost["actions"]
        left_p = pools["power"] - c.cost["power"] + c.grants
        if left_a < keep.cost["actions"] or left_p < keep.cost["power"]:
            v -= 1.5
    if a.kind == Kind.CANTRIP:
        v += 0.5
    else:
        v -= 0.5 * (c.actions - 1)
    return 0.5 + v


def _incoming(s: IvionState, seat: int) -> tuple[int, int] | None:
    """The enemy's card on top of the stack aimed at this seat with a range: (its range, its damage)."""
    top = s.chain.items[-1] if s.chain.items else None
    if top is None or top.controller == seat:
        return None
    tc = s.card(top.card)
    if tc.target != "enemy" or tc.range is None:
        return None
    return tc.range, damage(tc, top.card in s.unleashed)


def _dodge(s: IvionState, seat: int, c: Card) -> float | None:
    """An instant that travels this seat, answering an enemy card: what stepping out of its range
    saves (0: nothing to dodge; None: the card does not travel this seat)."""
    if not any(e.verb == "travel" and e.params.who == "self" for e in c.effects):  # type: ignore[attr-defined]
        return None
    hit = _incoming(s, seat)
    if hit is None or hit[1] < 2:
        return 0.0
    enemy = s.pos[1 - seat]
    out = [t for t in s.targets_for(seat, c) if s.distance(t, enemy) > hit[0]]
    return 0.5 + hit[1] if out else 0.0


def _toward(s: IvionState, seat: int, tile: int) -> int:
    return -s.distance(tile, s.pos[1 - seat])


def _tile_best(s: IvionState, seat: int, c: Card, foot: _Footing) -> float:
    best = -99.0
    for tile in range(s.size * s.size):
        if tile in s.pos or c.range is not None and s.distance(s.pos[seat], tile) > c.range:
            continue
        best = max(best, _tile_score(s, seat, tile, foot))
    return best


def _score(s: IvionState, seat: int, a: IvionAction, foot: _Footing) -> float:
    k = a.kind
    lib = s.game.library
    pools = s.pools[seat]
    if k in (Kind.PLAY, Kind.FEAT, Kind.CANTRIP):
        return _play_score(s, seat, a, foot)
    if k == Kind.MOVE or k == Kind.INIT_MOVE:
        tile = s.neighbour(s.pos[seat], a.name)
        gain = _tile_score(s, seat, tile, foot) - _tile_score(s, seat, s.pos[seat], foot)
        if k == Kind.INIT_MOVE:
            return 0.2 + gain  # an initiative is lost at the end of the turn
        # an action: worth it when the turn has actions to spare (more than two kept)
        spare = pools["actions"] > 2 or not foot.attacks()
        return gain - (0.2 if spare else 1.0)
    if k == Kind.INIT_DRAW:
        if not _may_draw(s, seat):
            return -1.0 - _exhausting(s, seat, 1)
        return 0.4 + (0.5 if len(_hand(s, seat)) < 3 else -0.5)
    if k == Kind.SPEND:
        # removing control that blocks the hand, with resources that would otherwise wait
        blocked = sum(1 for c in _hand(s, seat) if s.prevented_by(seat, c))
        if not blocked:
            return 0.1 if pools[a.name] >= 5 else -0.5
        return 0.5 * blocked - (0.2 if a.name == "power" else 0.6)
    if k == Kind.TARGET_TILE:
        c = s.card(s.staged.card) if s.staged is not None else None
        enemy = s.pos[1 - seat]
        if c is not None and any(e.verb == "travel" and e.params.who != "enemy" for e in c.effects):  # type: ignore[attr-defined]
            hit = _incoming(s, seat) if s.chain.items else None
            dodged = 5.0 if hit is not None and s.distance(a.n, enemy) > hit[0] else 0.0
            return _tile_score(s, seat, a.n, foot) + dodged
        if c is not None and any(e.verb == "travel" for e in c.effects):  # moving the enemy: far from me, into my traps
            return s.distance(a.n, s.pos[seat]) * 0.2 + 1.5 * _trap(s, 1 - seat, a.n)
        if c is not None and c.attach:  # a snare: where the enemy would step toward me
            d = s.distance(a.n, enemy)
            return -abs(d - 1) - 0.3 * s.distance(a.n, s.pos[seat])
        return _toward(s, seat, a.n)
    if k == Kind.TARGET_CARD:
        if a.n >= COPY_BASE or any(i.card == a.n for i in s.chain.items):
            item = next((i for i in s.chain.items if i.card == a.n), None)
            return 1.0 + damage(s.card(a.n)) if item is not None and item.controller != seat else -1.0
        holder = s.host_of(a.n)
        on_me = holder == host_key("hero", seat)
        return (2.0 if on_me else 1.0) + card_value(s.card(a.n)) if s.owner(a.n) != seat else -1.0
    if k == Kind.UNLEASH:
        return 1.0
    if k == Kind.CHOOSE:
        return _mode_score(s, seat, a.n)
    if k == Kind.REMOVE:
        return sum(1 for c in _hand(s, seat) if a.name in c.banner)
    if k == Kind.LOSE:
        return s.pools[seat][a.name]
    if k == Kind.KEEP:
        return card_value(lib.cards[a.name])
    if k in (Kind.BOTTOM, Kind.DISCARD):
        return -card_value(lib.cards[a.name])
    if k == Kind.END_TURN:
        # actions beyond two are wasted at the cap of five next turn
        return -0.3 * max(0, pools["actions"] + 3 - 5)
    return 0.0  # pass, yes, first N, don't unleash


def _mode_score(s: IvionState, seat: int, mode: int) -> float:
    """Which effect to choose: what it is worth now (damage, a heal as far as HP is missing, a draw
    while the deck allows)."""
    assert s.staged is not None
    c = s.card(s.staged.card)
    v = effects_value(c.modes[mode])
    for e in c.modes[mode]:
        p: Any = e.params
        if e.verb == "heal":
            v -= 0.5 * p.amount - 0.8 * min(p.amount, s.max_hp[seat] - s.hp[seat])
        elif e.verb == "draw":
            v -= (0.0 if _may_draw(s, seat) else 2.0) + _exhausting(s, seat, p.n)
        elif e.verb == "damage" and damage(c, mode=mode) >= s.hp[1 - seat]:
            v += 100.0
    return v


def choose(view: State, rng: Rng) -> Action:
    s = view
    assert isinstance(s, IvionState)
    seat = s.current_player
    assert seat is not None
    legal = s.legal_actions()
    foot = _Footing(s, seat)
    scored = [(_score(s, seat, a, foot), rng.random(), a) for a in legal]  # type: ignore[arg-type]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


#: the evaluation's weights on the log-odds of seat 0 winning, per unit of seat 0's lead in each:
#: fitted by logistic regression to the winners of medium-vs-medium games over the 15 pairings of
#: the starters, at the start of turns (bench/ivion_evaluate_fit.py; docs/agents.md, "Ivion's
#: evaluation"). HP counts as a fraction of the hero's maximum; cards in hand include those shown;
#: attached: the seat's own cards attached to heroes, cards or tiles (snares, wards, auras).
EVAL_WEIGHTS = {"hp": 7.86, "deck": 0.112, "hand": 0.204, "power": 0.179, "attached": 0.318}


def evaluate(state: State) -> list[float]:
    """Estimated returns: seat 0's chance to win from its leads in HP, cards in deck and in hand, power and
    attached cards (`EVAL_WEIGHTS`), as a return in (-1, 1) (2 p - 1)."""
    s = state
    assert isinstance(s, IvionState)
    attached = [0, 0]
    for cards in s.attached.values():
        for c in cards:
            attached[s.owner(c)] += 1
    w = EVAL_WEIGHTS
    logit = (w["hp"] * (s.hp[0] / s.max_hp[0] - s.hp[1] / s.max_hp[1])
             + w["deck"] * (len(s.deck[0]) - len(s.deck[1]))
             + w["hand"] * (len(_hand(s, 0)) - len(_hand(s, 1)))
             + w["power"] * (s.pools[0]["power"] - s.pools[1]["power"])
             + w["attached"] * (attached[0] - attached[1]))
    x = math.tanh(0.5 * logit)  # 2 p - 1 for p = 1 / (1 + exp(-logit))
    return [x, -x]
