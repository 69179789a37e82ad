"""How a decent person plays Iuno Avatar: plan to empty Heaven (rulebook "Playing Iuno": "A
player wins the game as soon as they have no more cards in Heaven").

Every turn brings a card into Heaven and, in the end, one die; a die lets one card out. So a
Heaven empties only through what sheds more than one card a die, and the plan counts cards out:

- **A roll** goes to the play that sends the most cards out of Heaven: the card itself, the gem
  cards that pay for it (they leave Heaven too), and what its effect sheds (a card discarded, a
  die more to roll, a card given to an opponent). A high roll summons a figure (it must exceed
  the figures on Earth), a low one casts a spell (the first spell of a turn needs any roll): the
  roll a figure needs is the scarce one. The card that empties Heaven wins at once.
- **Gems** are kept for the cards still to pay: a play or an activation that spends them counts
  against itself, more when they will be short.
- **A figure is activated** only for an effect that sheds over the turns left (a card discarded,
  a die, a card given away, every turn it answers), never levelled up (a level does nothing but
  hold more gems), except with gems that the end of turn would discard anyway.
- **Effects**: a yes when what it brings beats what it replaces. An effect is a sequence of
  steps offered as one (each step happens only if the one before it could), so every step counts:
  a card into my Heaven is a card more to shed, one out of it a card less; a card into an
  opponent's Heaven slows them, one out of it brings them nearer their win (so a swap, a card
  taken from an opponent then one given back, is about even); a die is worth a roll in my turn
  and, taken or discarded from an opponent in theirs, a roll less for them.
- **What to let go** (the end-of-turn discard down to six, a "discard a card" effect, a card to
  give away): the card least likely to leave otherwise: a gem card no card of mine can use, then
  a figure the figures on Earth make hard to summon, then the dearest card.
- **Opponents**: the one with the fewest cards in Heaven is the one to slow down.

It decides only from what its seat may see: its own Heaven, the dice, gems and Earths on the
table (`view` is a determinized copy; other Heavens in it are guesses and are never read).
"""

from __future__ import annotations

import math
from typing import Any, Final, cast

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from ...core.verbs import Effect
from .actions import AvatarAction, Kind
from .facts import CardFacts, Step, step_of
from .options import KEEP
from .state import DIE_FACES, MAX_FIGURES, AvatarState

#: ISMCTS compares the root's moves in paired rounds (cardtable/agents/ismcts.py): the dice decide
#: so much that moves compared on different luck cannot be told apart in a move's budget (hard
#: against medium at 0.1 s a move: 11 of 15 paired, 4 of 15 with UCB at the root; docs/agents.md).
#: Below the root the tree expands the heuristic's move first and biases toward it (`bias` 1): with
#: a few dozen iterations a root move, a random second move (the answer to an ability, the roll
#: after a take) scored it by a move nobody would play (hard against medium, 0.5 s, seed 2930: 80
#: of 100 with the bias, 72 without; docs/games/iuno_avatar.md)
SEARCH = {"root": "paired", "bias": 1.0}

WIN: Final = 100.0     # a play that empties Heaven
DIE: Final = 0.7       # a die more this turn: about one card out (a roll may allow nothing)
GEM: Final = 0.25      # a gem more: part of a card's cost
CARD: Final = 1.0      # a card out of my Heaven
OPP: Final = 0.8       # a card into an opponent's Heaven (out of it: the same against me)
SPELL: Final = 0.4     # a spell coming into effect (what its effect brings, on average)
ACTIVATE: Final = 0.3  # a gem moved onto my figure by an effect: the figure comes into effect
GEM_COST: Final = 0.3  # a gem spent, when gems are plentiful; more when they will be short
#: how often, per turn of mine, an activity of each kind happens (for what a figure's effect is worth)
RATE: Final = {"take": 1.0, "move_spell": 0.5, "move_figure": 0.3, "discard_card": 0.4, "roll": 1.5, "pay_gems": 0.6,
        "activate": 0.3, "other": 0.05}


def effect_value(p: Step, mine: bool = True) -> float:
    """How good one step of an effect is for its controller, in cards out of their Heaven (a
    shedding game: my cards out, an opponent's in; dice and gems get cards out later). `mine`: it
    happens in my turn (dice are discarded at the end of every turn, so a die is worth nothing in
    another's, and an opponent holds dice only in their own turn)."""
    n = float(p.n)
    black = p.verb != "move" and p.owner == "black"  # (a move's owners are its from and to owners)
    if p.verb == "take":
        if p.what == "die":
            if black:  # an opponent's die: theirs only in their turn, where taking it is a roll less for them
                return (DIE if mine else OPP * DIE) * n
            return (DIE if mine else 0.0) * n
        if p.what == "gem":
            return GEM * n + (0.1 * n if black else 0.0)
        # a card: one more in my Heaven (and, for black, one less in theirs: closer to their win)
        return -CARD * n - (OPP * n if black else 0.0)
    if p.verb == "discard":
        if p.what == "die":
            if black:
                return 0.0 if mine else OPP * DIE * n
            return -(DIE if mine else 0.0) * n
        if p.what.endswith("card"):
            return -OPP if black else CARD  # black: a card out of theirs (closer to their win)
        return 0.1 * n if black else -GEM * n
    if p.what == "gem":
        return ACTIVATE if p.to_area == "earth" else -GEM * n  # a gem onto my figure: it comes into effect
    value = 0.0
    if p.from_area == "heaven":
        value += CARD if p.from_owner == "white" else -OPP
    if p.to_area == "heaven":
        value += -CARD if p.to_owner == "white" else OPP
    if p.from_area == "earth":
        # an opponent's figure gone (its effect with it); one of mine gone: my summons need lower rolls
        value += 0.3 if p.from_owner == "black" else -0.1
    if p.to_area == "earth" and p.what == "spell card":
        value += SPELL  # a spell comes into effect
    elif p.to_area == "earth" and p.from_area != "heaven":
        value -= 0.2  # a figure more on my Earth: my summons need higher rolls
    return value


def sequence_value(steps: tuple[Step, ...], mine: bool = True) -> float:
    """What a whole effect (its steps, in order) brings its controller: every step counts (a step
    happens only if the one before it could, so a sequence is offered and judged as one)."""
    return sum(effect_value(e, mine=mine) for e in steps)


def _rate(card: CardFacts) -> float:
    """How often a figure's `when` happens per turn of mine (a rough count): the turn's actions
    often, what only a card's effect does (a card of a type taken from an opponent, a figure taken
    from my Earth, a card brought from Hell onto an opponent's Earth) rarely."""
    p = card.when
    assert p is not None
    if p.verb == "take":
        return RATE["take"] if p.what in ("die", "card", "gem") else RATE["other"]
    if p.verb == "move" and p.what == "gem":
        return RATE["pay_gems"] if p.to_area == "middle" else RATE["activate"]
    if p.verb == "move" and p.from_area == "heaven" and p.to_area == "earth":
        return RATE["move_spell"] if p.what == "spell card" else RATE["move_figure"]
    if p.verb == "discard" and p.what == "die":
        return RATE["roll"]
    if p.verb == "discard" and p.what.endswith("card"):
        return RATE["discard_card"]
    return RATE["other"]


def engine_value(card: CardFacts) -> float:
    """What an active figure brings per turn of mine: how often it answers times what its whole
    effect brings (an exclusive one: what it brings more than the activity it replaces; a roll
    replaced is a die lost). A card's own data decides it: worked out once per card."""
    known = _ENGINE_VALUES.get(id(card))
    if known is not None and known[0] is card:
        return known[1]
    p = card.when
    assert card.steps and p is not None
    mine = (p.from_owner if p.verb == "move" else p.owner) == "white"
    gain = sequence_value(card.steps, mine=mine)
    if card.exclusive and mine:
        gain -= DIE if (p.verb == "discard" and p.what == "die") else effect_value(p)
    value = max(0.0, gain * _rate(card))
    _ENGINE_VALUES[id(card)] = (card, value)
    return value


#: engine_value by card (the card is kept with its value, so its id cannot stand for another card)
_ENGINE_VALUES: Final[dict[int, tuple[CardFacts, float]]] = {}


class Plan:
    """What the deciding seat knows of its own position, and the arithmetic of emptying Heaven.

    A plan is made for one decision and the state does not change while it is used, so what it
    works out (each card's payment, whether a cost can be paid, whether gems will be short) is
    worked out once, when first asked: the rollouts of the search ask a plan at every choice."""

    def __init__(self, s: AvatarState, seat: int) -> None:
        self.s = s
        self.seat = seat
        self.heaven = list(s.heaven[seat])
        self.cards = [s.fact(c) for c in self.heaven]
        self.figures = len(s.figures(seat))
        self.gems = s.gems[seat]
        mine = s.turn == seat
        self.dice = s.dice[seat] if mine else 0
        self.spells_cast = s.spells_cast if mine else 0
        self._gem_pairs = [(c, card.element_index, card.symbols) for c, card in zip(self.heaven, self.cards, strict=True) if card.gem]
        self._payments: dict[int, tuple[int, int]] = {}
        self._payable: dict[int, bool] = {}
        self._short: bool | None = None

    @property
    def short(self) -> bool:
        """Whether the rest of my Heaven would cost more gems, beyond the gem cards that can pay
        it, than I have (and two more)."""
        if self._short is None:
            owed = 0
            for c, card in zip(self.heaven, self.cards, strict=True):
                if not card.gem:
                    owed += self.payment(card, c)[1]
            self._short = owed > self.gems + 2
        return self._short

    # -- paying ---------------------------------------------------------------------------------

    def gem_cards(self, skip: int = -1) -> list[int]:
        return [c for c, _, _ in self._gem_pairs if c != skip]

    def payment(self, card: CardFacts, c: int) -> tuple[int, int]:
        """(gem cards paid, gems paid) of the payment that sends the most gem cards out of Heaven."""
        done = self._payments.get(c)
        if done is None:
            cost = list(card.cost)
            n, symbols = _most_cards(cost, [(e, k) for g, e, k in self._gem_pairs if g != c])
            done = self._payments[c] = (n, sum(cost) - symbols)
        return done

    def can_pay(self, c: int) -> bool:
        """Whether card `c`'s cost can be paid exactly now (the rules' `can_pay`), asked once."""
        ok = self._payable.get(c)
        if ok is None:
            ok = self._payable[c] = self.s.can_pay(self.seat, self.s.fact(c).cost)
        return ok

    def gem_weight(self) -> float:
        return GEM_COST * (2.0 if self.short else 1.0)

    # -- how hard each card is to get out ---------------------------------------------------------

    def matched(self, g: int, without: int = -1) -> bool:
        """Whether a gem card can pay some card of mine (a cost with enough of its element)."""
        facts = self.s.facts
        gem = facts[g]
        e, k = gem.element_index, gem.symbols
        return any(not facts[c].gem and facts[c].cost[e] >= k for c in self.heaven if c not in (g, without))

    def keep(self, c: int) -> float:
        """How much a card helps me empty my Heaven (low: let it go first)."""
        card = self.s.fact(c)
        if card.gem:
            return 1.5 if self.matched(c) else -2.0  # a gem card no card of mine can use only leaves by a discard
        used, gems = self.payment(card, c)
        value = 0.6 * used - 0.35 * gems
        if not self.can_pay(c):
            value -= 0.8
        if card.spell:
            value += 1.0 + 0.5 * max(0.0, sequence_value(card.steps))
        else:
            room = max(0, DIE_FACES - self.figures) / DIE_FACES  # the chance a roll exceeds my figures
            value += 1.5 * room - 0.5 + 2.0 * engine_value(card)
            if self.figures >= MAX_FIGURES:
                value -= 2.0
        return value

    def hardest(self, choices: list[int]) -> int:
        return min(choices, key=lambda c: (self.keep(c), c))

    # -- a roll ------------------------------------------------------------------------------------

    def play_value(self, a: AvatarAction, roll: int) -> float:
        s = self.s
        k = a.kind
        if k in (Kind.SUMMON, Kind.CAST):
            card = s.fact(a.card)
            used, gems = self.payment(card, a.card)
            out = 1 + used
            if out >= len(self.heaven):
                return WIN
            value = CARD * out - self.gem_weight() * gems
            if card.spell:
                assert card.first is not None
                if self.can_do(card.first, a.card):
                    value += max(0.0, sequence_value(card.steps))
                # a later spell this turn needs a roll above the spells cast: keep low rolls for spells
                value -= 0.05 * roll
            else:
                # summon with the roll it needs now; a later one needs more (one figure more on Earth)
                value += 0.4 * self.figures / DIE_FACES + 0.1 * roll
                if self.figures + 1 > MAX_FIGURES:
                    value -= 5.0
            return value
        if k == Kind.ACTIVATE:
            card = s.fact(a.card)
            horizon = min(6.0, 1.0 + len(self.heaven) / 1.5)
            return engine_value(card) * horizon - self.gem_weight() - 0.2
        if k == Kind.LEVEL_UP:
            return 0.01 if self.gems > KEEP else -1.0  # only gems the end of turn would discard anyway
        return 0.0

    def can_do(self, p: Step, spell: int) -> bool:
        """Whether a spell's effect on my own Heaven will find a card there (once the spell is out)."""
        if (p.verb == "discard" and p.owner == "white") or (
                p.verb == "move" and p.from_area == "heaven" and p.from_owner == "white"):
            facts = self.s.facts
            return any(c != spell and p.is_a(facts[c].type) for c in self.heaven)
        return True

    def die_value(self) -> float:
        """What one more roll is worth now, in cards out (the average over the six faces)."""
        playable = [(card, 1.0 + self.payment(card, c)[0]) for c, card in zip(self.heaven, self.cards, strict=True)
                    if not card.gem and self.can_pay(c)]
        total = 0.0
        for roll in range(1, DIE_FACES + 1):
            best = 0.0
            for card, out in playable:
                if (card.figure and roll > self.figures) or (card.spell and roll > self.spells_cast):
                    best = max(best, out)
            total += best
        return total / DIE_FACES


def _most_cards(cost: list[int], gem_cards: list[tuple[int, int]]) -> tuple[int, int]:
    """(cards, symbols): the most gem cards ((element, symbols) each) that fit in `cost` without
    overpaying, and the symbols they pay (the most, among payments with that many cards)."""
    best = (0, 0)
    for i, (e, k) in enumerate(gem_cards):
        if cost[e] >= k:
            cost[e] -= k
            n, paid = _most_cards(cost, gem_cards[i + 1:])
            cost[e] += k
            best = max(best, (n + 1, paid + k))
    return best


def _ability_value(s: AvatarState, seat: int, d: Any, plan: Plan) -> float:
    """What using an offered effect brings: every step of its sequence, in order (a step happens only
    if the one before it could), less what it replaces."""
    ability = d.ability
    mine = s.turn == seat
    value = 0.0
    shed = 0  # cards out of my Heaven, to see whether the effect empties it
    for effect in ability.effects:
        p = step_of(effect)
        value += _step_value(s, seat, p, ability, plan, mine)
        if (p.verb == "discard" and p.owner == "white" and p.what.endswith("card")) or (
                p.verb == "move" and p.from_area == "heaven" and p.from_owner == "white"):
            shed += 1
        elif (p.verb == "take" and p.what.endswith("card")) or (
                p.verb == "move" and p.to_area == "heaven" and p.to_owner == "white"):
            shed -= 1
    if shed > 0 and len(plan.heaven) <= shed:
        return WIN
    if ability.instead and d.replacing is not None:
        rp = step_of(d.replacing.effect)
        if rp.verb == "take" and rp.what == "die" and mine:
            value -= plan.die_value()
        elif rp.verb == "discard" and rp.what == "die" and mine:
            value -= plan.die_value()  # the roll does not happen: the die is spent
        elif rp.verb == "move" and rp.from_area == "earth" and rp.to_area == "hell":
            value += 0.5  # the figure stays on Earth
        elif rp.verb == "move" and rp.from_area == "heaven" and rp.to_area == "earth":
            value -= CARD  # the summon or cast does not happen: the card goes back to Heaven
        else:
            value -= effect_value(rp, mine=mine) if d.replacing.context.controller == seat else 0.0
    return value


def _step_value(s: AvatarState, seat: int, p: Step, ability: Any, plan: Plan, mine: bool) -> float:
    """One step of an effect, with what the seat sees of the table."""
    value = effect_value(p, mine=mine)
    if p.verb == "take" and p.what == "die" and p.owner == "white" and mine:
        return plan.die_value() * 0.9
    if p.verb == "discard" and p.what == "die" and p.owner == "white" and mine:
        return -plan.die_value()
    if p.verb == "move" and p.what == "figure card" and p.to_area == "earth" and p.from_area != "heaven":
        # a figure more on my Earth (Excavate, Soul Theft): worth it for an engine I can activate
        best = max((engine_value(s.fact(c)) for c in _move_sources(s, seat, p, ability)), default=0.0)
        value = best * 3.0 - 0.4 * sum(1 for c in plan.cards if c.figure) / 2 + (0.3 if p.from_area == "earth" else 0.0)
        if plan.gems == 0 or plan.figures >= MAX_FIGURES:
            value -= 1.0
    elif p.verb == "move" and p.what == "spell card" and p.to_area == "earth" and p.from_area == "hell":
        # a spell from Hell comes into effect: the best one there
        value = max((sequence_value(s.fact(c).steps) for c in s.hell if s.fact(c).spell), default=0.0)
    elif p.verb == "move" and p.what == "gem" and p.to_area == "earth":
        # a gem onto my figure: the best inactive engine comes into effect
        best = max((engine_value(s.fact(c)) for c in s.figures(seat) if not s.charge[c]), default=0.0)
        value = best * min(6.0, 1.0 + len(plan.heaven) / 1.5) - GEM_COST
    elif p.verb == "move" and p.from_area == "earth" and p.from_owner == "black" and p.to_area == "hell":
        # an opponent's figure to Hell: worth it only for an active one (a figure less lets them summon)
        best = max((engine_value(s.fact(c)) for o in s.opponents(seat) for c in s.figures(o) if s.charge[c]),
                   default=0.0)
        value = best * 3.0 - 0.2
    return value


def _move_sources(s: AvatarState, seat: int, p: Step, ability: Any) -> list[int]:
    if p.from_area == "hell":
        return [c for c in s.hell if s.fact(c).figure]
    if p.from_area == "earth" and p.from_owner == "black":
        return [c for o in s.opponents(seat) for c in s.figures(o)]
    return []


def _hard_for_anyone(card: CardFacts) -> float:
    """How hard a card is to get out of a Heaven I cannot see (one I give an opponent)."""
    if card.gem:
        return 3.0 + card.symbols
    return sum(card.cost) + (1.0 if card.figure else 0.0)


def choose(view: State, rng: Rng) -> Action:
    s = cast(AvatarState, view)
    legal = cast(list[AvatarAction], s.legal_actions())
    d = s.decision
    assert d is not None
    seat = d.seat
    kind = d.kind
    if kind == "turn":
        return legal[0]  # roll while a die is left (a die kept is discarded at the end of the turn)
    plan = Plan(s, seat)
    if kind == "use_roll":
        roll: int = d.value  # type: ignore[attr-defined]
        return max(legal, key=lambda a: plan.play_value(a, roll))
    if kind == "pay":
        cards = [a for a in legal if a.kind == Kind.PAY_CARD]
        if not cards:
            return legal[0]
        remaining = list(d.remaining)  # type: ignore[attr-defined]

        def after(a: AvatarAction) -> tuple[int, float]:
            g = s.fact(a.card)
            rest = list(remaining)
            rest[g.element_index] -= g.symbols
            others = [(s.fact(o).element_index, s.fact(o).symbols) for o in plan.gem_cards(a.card)]
            # the most gem cards in all, then keep those my other cards can use
            return 1 + _most_cards(rest, others)[0], -plan.keep(a.card)
        return max(cards, key=after)
    if kind == "use_ability":
        yes, no = legal[0], legal[1]
        return yes if _ability_value(s, seat, d, plan) > 0 else no
    if kind == "choose_opponent":
        return min(legal, key=lambda a: (len(s.heaven[a.n]), -s.gems[a.n], a.n))
    if kind == "choose_card":
        effect: Effect = d.effect  # type: ignore[attr-defined]
        p = step_of(effect)
        cards_ = [a.card for a in legal]
        if p.verb == "move" and p.what == "gem":  # a gem onto my figure: the best engine not yet active
            return max(legal, key=lambda a: (s.charge[a.card] == 0, engine_value(s.fact(a.card)), a.card))
        if p.verb == "move" and p.from_area == "earth" and p.from_owner == "white":  # my figure to go: the least
            return min(legal, key=lambda a: (s.charge[a.card] > 0, engine_value(s.fact(a.card)), a.card))
        if p.verb == "move" and p.from_area == "earth":  # an opponent's figure: the best engine
            return max(legal, key=lambda a: (s.charge[a.card] > 0, engine_value(s.fact(a.card)), a.card))
        if p.verb == "move" and p.from_area == "hell":
            if p.to_area == "heaven" and p.to_owner == "black":  # into an opponent's Heaven: a hard card
                return max(legal, key=lambda a: (_hard_for_anyone(s.fact(a.card)), a.card))
            if p.to_area == "heaven":  # into mine: the one that helps me most
                return max(legal, key=lambda a: (plan.keep(a.card), a.card))
            if p.what == "spell card":  # onto my Earth: the spell whose effect brings most
                return max(legal, key=lambda a: (sequence_value(s.fact(a.card).steps), a.card))
            return max(legal, key=lambda a: (engine_value(s.fact(a.card)) if s.fact(a.card).figure else 0.0, a.card))
        if p.verb == "move" and p.from_area == "heaven" and p.to_area == "earth":  # a free summon: the dearest
            return max(legal, key=lambda a: (sum(s.fact(a.card).cost), a.card))
        c = plan.hardest(cards_)
        return s.game.space.choose[c]
    if kind == "discard_down":
        c = plan.hardest([a.card for a in legal])
        return s.game.space.discard[c]
    return legal[0]


#: `evaluate`'s weights, in cards out of Heaven, and the log-odds of winning a card is worth: fitted
#: by logistic regression on 47,918 positions of 1,000 two-player medium games (seeds 50000-50999,
#: `bench/search_probe.py calibration`'s sampling), log-loss on the quarter of the games held out
#: 0.666 against 0.716 for the previous weights (a gem 0.25, an active figure 0.3, a card 0.5 of
#: log-odds) and 0.692 for the base rate: a gem is worth far less than a card. Whose turn it is
#: predicts a little more (0.664) but is left out: a search scores cut rollouts by it, and a move
#: that makes the cut fall in its own turn (a longer turn) would gain by it without gaining the game.
EVAL_GEM: Final = 0.14
EVAL_ACTIVE: Final = 0.42
EVAL_LOGIT: Final = 0.21


def evaluate(state: State) -> list[float]:
    """Estimated `returns()`: fewer cards in Heaven is closer to winning; gems and active figures
    help get there. Each seat's chance of winning is a softmax of these scores (with two players,
    the fitted logistic model), mapped to the range of `returns()`."""
    s = cast(AvatarState, state)
    n = s.game.players
    score = []
    for seat in range(n):
        active = sum(1 for c in s.figures(seat) if s.charge[c])
        score.append(EVAL_LOGIT * (-len(s.heaven[seat]) + EVAL_GEM * s.gems[seat] + EVAL_ACTIVE * active))
    top = max(score)
    w = [math.exp(v - top) for v in score]
    total = sum(w)
    lose = 1.0 / (n - 1)
    return [x / total * (1 + lose) - lose for x in w]
