"""Iuno Avatar rules: the state and its transitions.

Rule references are to ../shared/rules/iuno-avatar.txt ("Playing Iuno", "Operators", "Card
types") and to the Iuno Avatar part of ../shared/rules/NOTES.md; every reading chosen where the
rulebook is silent is on docs/games/iuno_avatar.md with its test.

A turn: take a die, a card and a gem (each an activity effects answer), then roll dice one at a
time, each allowing one action (summon, cast, activate or level up) finished before the next,
then every player discards down. Activities run through the core effect layer (`EFFECTS`, decisions.py), asking the state's hooks: the
three turn-start takes, a summoned figure or cast spell arriving on Earth, and every card effect.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

from ...core.actions import Action
from ...core.effects import Ability, Context, EffectActions, GameEvent, UseAbility
from ...core.state import State, zero_sum_returns
from ...core.verbs import Effect, Params
from ...core.zones import Layout, Order, StateLayout, Visibility, Zone
from .actions import AvatarAction, Kind
from .cards import Card
from .decisions import (
    ANSWERS,
    DECISIONS,
    EFFECTS,
    GEM_CARD_PAYS,
    ChooseCard,
    ChooseOpponent,
    DiscardDown,
    Pay,
    Turn,
    UseRoll,
)
from .facts import CardFacts, Step, step_of
from .language import ELEMENTS, VERBS, Discard, Move, Take
from .options import DICE, GEMS, GEMS_START, HEAVEN_START, HELL_START, KEEP

if TYPE_CHECKING:
    from .game import IunoAvatar

MAX_FIGURES: Final = 6   # "If a player controls more than six figure cards on Earth, all are moved to Hell"
DIE_FACES: Final = 6
#: the turn-start activities: "a player first takes a die, a card, a gem"
TAKE_DIE: Final = VERBS.parse({"verb": "take", "what": "die"}, "the turn start")
TAKE_CARD: Final = VERBS.parse({"verb": "take", "what": "card"}, "the turn start")
TAKE_GEM: Final = VERBS.parse({"verb": "take", "what": "gem"}, "the turn start")
#: rolling a die discards it: "The player can then roll and discard their dies to perform actions"
ROLL: Final = VERBS.parse({"verb": "discard", "what": "die"}, "a roll")
#: activating / levelling up: "by moving a(nother) gem on top of it" (the figure: the context's card)
GEM_ON: Final = VERBS.parse({"verb": "move", "what": "gem", "from_owner": "white", "to_area": "earth", "to_owner": "white"},
                     "activating a figure")
#: paying with a gem card: it goes from its player's Heaven to Hell (the card: the context's card)
PAY_CARD: Final = VERBS.parse({"verb": "move", "what": "gem card", "from_area": "heaven", "from_owner": "white",
                        "to_area": "hell"}, "a payment")
#: summoning and casting: "moving it from Heaven to Earth"
SUMMON: Final = VERBS.parse({"verb": "move", "what": "figure card", "from_area": "heaven", "from_owner": "white",
                      "to_area": "earth", "to_owner": "white"}, "a summon")
CAST: Final = VERBS.parse({"verb": "move", "what": "spell card", "from_area": "heaven", "from_owner": "white",
                    "to_area": "earth", "to_owner": "white"}, "a cast")
NEXT_PHASE: Final = {"die": ("card", TAKE_CARD), "card": ("gem", TAKE_GEM)}

#: paying the rest in gems: `n` of the player's own gems go to the middle, by `n` (an effect is
#: immutable, so one per amount is parsed once and shared)
_PAY_GEMS: Final[dict[int, Effect]] = {}


def _pay_gems(n: int) -> Effect:
    effect = _PAY_GEMS.get(n)
    if effect is None:
        effect = _PAY_GEMS[n] = VERBS.parse({"verb": "move", "what": "gem", "from_owner": "white", "to_area": "middle",
                                             "n": n}, "a payment")
    return effect


#: an event's kind is the activity's words, by position: (verb, what, from area, to area); "" where
#: the verb has none (a take, a discard; a gem's move has no from area)
NOTHING: Final = GameEvent(("nothing", "", "", ""))   # an effect that can do nothing now: no effect answers it
CHOOSING: Final = GameEvent(("choosing", "", "", ""))  # an effect waiting for its player's choice: it happens once chosen


class AvatarState(State):
    #: the lab's per-card counters (cardtable/sim/counters.py): a card announced (summoned or cast,
    #: then paid) is played; a card taken from the stack is drawn
    card_counter_kinds: ClassVar[dict[str, str]] = {"announced": "played", "drew": "drawn"}

    # "Playing Iuno": the card stack (face down), each player's Heaven (their hand: theirs only),
    # Earth (in front of them) and the shared Hell (face up); the card being paid for is announced
    # (face up) until it arrives on Earth.
    layout = StateLayout(
        zones=(
            Zone("stack", Visibility.HIDDEN, Order.PILE),
            Zone("heaven", Visibility.OWNER, Order.SET, Layout.PER_SEAT),
            Zone("earth", Visibility.PUBLIC, Order.SET, Layout.PER_SEAT),
            Zone("hell", Visibility.PUBLIC, Order.PILE),
            Zone("announced", Visibility.PUBLIC, Order.SET),
        ),
        values=("turn", "turns", "spells_cast", "phase", "middle", "purse", "by_limit"),
        lists=("dice", "gems", "charge", "avatars", "order", "final_winners", "owed"),
        typed=(("sequence", EFFECTS.record),),
        decisions=DECISIONS,
        derived=("completed", "rotations", "facts"),
    )
    __slots__ = ("stack", "heaven", "earth", "hell", "announced", "turn", "turns", "spells_cast", "phase", "middle",
                 "purse", "dice", "gems", "charge", "avatars", "order", "final_winners", "by_limit", "sequence", "owed",
                 "completed", "rotations", "facts")
    #: the choices of the effect the effect layer is about to carry out, worked out once
    #: (`event_of`) for its verb to use (`_prepare`): (its parameters, its context, `_complete`'s answer)
    completed: tuple[Any, Context, tuple[str, Context]] | None
    #: per seat, the seats in turn order from it (`order` never changes once dealt): `turn_order`,
    #: asked at every activity, builds no list (each is shared by the clones: read, never changed)
    rotations: tuple[list[int], ...]
    #: the game's `facts`, per card (read in place at every activity, not through the game)
    facts: tuple[CardFacts, ...]

    game: IunoAvatar
    stack: list[int]          # the card stack; its top is the end of the list
    heaven: list[list[int]]
    earth: list[list[int]]    # figures (and, while they resolve, spells)
    hell: list[int]
    announced: list[int]      # the card the player whose turn it is is paying for
    turn: int                 # whose turn
    turns: int                # turns begun
    spells_cast: int          # "the number of spells already casted this turn"
    phase: str                # what the turn does when the running effect sequence is over: "die", "card",
    #                           "gem" (the turn start's takes), "roll" / "rolled" (a die being rolled), "pay" /
    #                           "paid" (a payment), "action" (anything else: the player goes on)
    middle: int               # dice in the middle of the table
    purse: int                # gems in the purse
    dice: list[int]           # per seat
    gems: list[int]           # per seat, in front of the player
    charge: list[int]         # per card: gems on top of it (figures on Earth)
    avatars: list[int]        # per seat, its element (index in ELEMENTS)
    order: list[int]          # the seats in turn order
    final_winners: list[int]
    by_limit: bool            # the game ended at our turn limit, not by an empty Heaven
    owed: list[int]           # while paying: the symbols of the announced card still owed (ELEMENTS order)

    # -- setup ----------------------------------------------------------------------------------

    def _setup(self) -> None:
        g = self.game
        n = g.players
        opts = g.options
        if opts.avatars is None:
            elements = list(range(len(ELEMENTS)))
            self.rng.shuffle(elements)
            self.avatars = elements[:n]
        else:
            self.avatars = [ELEMENTS.index(e) for e in opts.avatars]
        # NOTES.md: seat order follows the element list (Fire first; Dark never starts)
        self.order = sorted(range(n), key=lambda s: self.avatars[s])
        self._rotate()
        self.facts = g.facts
        self.stack = list(range(len(g.cards)))
        self.rng.shuffle(self.stack)
        self.heaven = [[self.stack.pop() for _ in range(HEAVEN_START)] for _ in range(n)]
        self.hell = [self.stack.pop() for _ in range(HELL_START)]
        self.earth = [[] for _ in range(n)]
        self.announced = []
        self.middle = DICE
        self.dice = [0] * n
        self.gems = [GEMS_START] * n
        self.purse = GEMS - GEMS_START * n
        self.charge = [0] * len(g.cards)
        self.final_winners = []
        self.by_limit = False
        self.owed = []
        self.turns = 0
        self.sequence = EFFECTS.record()
        self.completed = None
        self.emit("setup", order=list(self.order), avatars=[ELEMENTS[a] for a in self.avatars],
                  hell=self._names(self.hell))
        self._begin_turn(self.order[0])

    # -- reading the table ----------------------------------------------------------------------

    def card(self, c: int) -> Card:
        return self.game.cards[c]

    def fact(self, c: int) -> CardFacts:
        """What the rules read of card `c` at every activity (facts.py)."""
        return self.facts[c]

    def _names(self, cards: Iterable[int]) -> list[str]:
        return [self.game.cards[c].name for c in cards]

    def turn_order(self) -> list[int]:
        """The seats in turn order from the player whose turn it is (not to be changed)."""
        return self.rotations[self.turn]

    def _rotate(self) -> None:
        order = self.order
        rotations: list[list[int]] = [[] for _ in order]
        for i, seat in enumerate(order):
            rotations[seat] = order[i:] + order[:i]
        self.rotations = tuple(rotations)

    def figures(self, seat: int) -> list[int]:
        facts = self.facts  # (Earth holds figures, and spells while they resolve)
        return [c for c in self.earth[seat] if not facts[c].spell]

    def opponents(self, seat: int) -> list[int]:
        return [s for s in self.turn_order() if s != seat]

    # -- the turn ("Playing Iuno") -----------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.turns += 1
        self.spells_cast = 0
        self.phase = "die"
        self.emit("turn", seat=seat, turn=self.turns)
        EFFECTS.start(self, TAKE_DIE, Context(seat))

    def effects_done(self) -> None:
        """An effect sequence is over: spells on Earth go to Hell ("spell cards are moved to Hell
        after their effect has been completed"), and the turn goes on by its phase: a rolled die
        shows its number; a payment goes on, or the paid card arrives; a card whose payment or
        arrival was replaced goes back to Heaven (what was paid is spent); a replaced roll spent
        its die."""
        facts = self.facts
        for seat, earth in enumerate(self.earth):
            if not any(facts[c].spell for c in earth):
                continue
            for c in [c for c in earth if facts[c].spell]:
                earth.remove(c)
                self.hell.append(c)
                self.emit("to_hell", seat=seat, card=facts[c].name, why="spell resolved")
        phase = self.phase
        if phase == "rolled":  # the die was rolled (discarded): its number allows an action
            self.phase = "action"
            value = self.rng.below(DIE_FACES) + 1
            self.emit("rolled", seat=self.turn, value=value)
            self.pending.append(UseRoll(self.turn, value))
            return
        if phase == "roll":  # the roll was replaced: the die performed that action instead
            self.phase = "action"
            self.dice[self.turn] -= 1
            self.middle += 1
            self.emit("die_discarded", seat=self.turn)
            self._go_on(self.turn)
            return
        if phase == "paid" and self.announced and (not sum(self.owed) or self.can_pay(self.turn, tuple(self.owed))):
            self.phase = "action"
            if sum(self.owed):
                self.pending.append(Pay(self.turn, self.announced[0], tuple(self.owed)))
                return
            self.owed = []
            EFFECTS.start(self, SUMMON if facts[self.announced[0]].figure else CAST,
                          Context(self.turn, -1, (-1, self.announced[0])))
            return
        # (a payment replaced, or what it set off left the rest unpayable: the card is not paid for)
        self.owed = []
        if self.announced:
            c = self.announced.pop()
            self.heaven[self.turn].append(c)
            self.emit("not_arrived", seat=self.turn, card=facts[c].name)
        step = NEXT_PHASE.get(phase)
        if step is not None:
            self.phase, effect = step
            EFFECTS.start(self, effect, Context(self.turn))
        else:
            self.phase = "action"
            self._go_on(self.turn)

    def roll(self, seat: int) -> None:
        """Roll a die: an activity, "roll and discard their dies" (`ROLL`); it is discarded at once
        ("Discarded dies are put back in the middle") and shows its number when what its discard
        sets off is over (`effects_done`)."""
        self.phase = "roll"
        EFFECTS.start(self, ROLL, Context(seat))

    def roll_actions(self, seat: int, value: int) -> list[Action]:
        sp = self.game.space
        facts = self.facts
        out: list[Action] = []
        for c in sorted(self.heaven[seat]):
            if self.why_not_play(seat, value, c) is None:
                out.append(sp.summon[c] if facts[c].figure else sp.cast[c])
        for c in self.figures(seat):
            if self.why_not_raise(seat, value, c) is None:
                out.append(sp.level_up[c] if self.charge[c] else sp.activate[c])
        out.append(sp.forgo)
        return out

    def why_not_play(self, seat: int, value: int, c: int) -> str | None:
        """Why card `c` of the seat's Heaven cannot be summoned or cast with a roll of `value`
        (None: it can): "If the rolled number exceeds the number of figures on Earth, they can
        summon a figure card by paying its cost", "... exceeds the number of spells already casted
        this turn, they can cast a spell card", and "players must not overpay"."""
        card = self.fact(c)
        if card.gem:
            return "a gem card pays for figures and spells: it is not played"
        if card.figure and value <= (n := len(self.figures(seat))):
            return f"the roll ({value}) must exceed your figures on Earth ({n})"
        if card.spell and value <= self.spells_cast:
            return f"the roll ({value}) must exceed the spells cast this turn ({self.spells_cast})"
        if not self.can_pay(seat, card.cost):
            return f"its cost ({self.card(c).cost_text()}) cannot be paid exactly with your gems and gem cards"
        return None

    def why_not_raise(self, seat: int, value: int, c: int) -> str | None:
        """Why the seat's figure `c` on Earth cannot be activated or levelled up with a roll of
        `value` (None: it can): "If the rolled number exceeds the number of gems on top of a certain
        figure on Earth, they can activate/level up this figure by moving a(nother) gem on top of
        it"; "Figure cards can be leveled up with at most as many gems as their level"."""
        on, level = self.charge[c], self.fact(c).level
        if self.gems[seat] == 0:
            return "you have no gem to put on it"
        if on >= level:
            return f"level {level}: it holds at most {_gems_text(level)}"
        if value <= on:
            return f"the roll ({value}) must exceed the gems on it ({on})"
        return None

    def why_not_roll(self, seat: int, value: int, action: Any) -> str:
        """Why a roll of `value` does not allow `action`: the rule the legal moves use
        (`why_not_play`, `why_not_raise`), so a refusal and a card's why-not are the same words."""
        kind = getattr(action, "kind", None)
        card = getattr(action, "card", -1)
        name = self.card(card).name if card >= 0 else ""
        if kind in (Kind.SUMMON, Kind.CAST):
            if card not in self.heaven[seat]:
                return f"{name} is not in your Heaven"
            return self.why_not_play(seat, value, card) or f"{action.text!r} is not possible now"
        if kind in (Kind.ACTIVATE, Kind.LEVEL_UP):
            if card not in self.earth[seat]:
                return f"{name} is not on your Earth"
            if kind == Kind.ACTIVATE and self.charge[card]:
                return f"{name} is active already: level it up"
            if kind == Kind.LEVEL_UP and not self.charge[card]:
                return f"{name} is inactive: activate it first"
            return self.why_not_raise(seat, value, card) or f"{action.text!r} is not possible now"
        if kind == Kind.PAY_CARD:
            return GEM_CARD_PAYS
        return f"{getattr(action, 'text', action)!r} is not possible now: use the roll of {value} or discard the die"

    def use_roll(self, seat: int, action: AvatarAction) -> None:
        k = action.kind
        if k in (Kind.SUMMON, Kind.CAST):
            c = action.card
            card = self.fact(c)
            self.heaven[seat].remove(c)
            self.announced.append(c)
            self.owed = list(card.cost)
            self.emit("announced", seat=seat, card=card.name, action="summon" if k == Kind.SUMMON else "cast")
            self.pending.append(Pay(seat, c, card.cost))
        elif k in (Kind.ACTIVATE, Kind.LEVEL_UP):
            # "activate/level up this figure by moving a(nother) gem on top of it": an activity
            EFFECTS.start(self, GEM_ON, Context(seat, -1, (-1, action.card)))
        else:
            self.emit("die_discarded", seat=seat)
            self._go_on(seat)

    def _go_on(self, seat: int) -> None:
        """The player may roll another die or end the turn; with no die left the turn ends, since
        nothing else is possible ("roll and discard their dies to perform actions") and the dice
        are public: a question with one answer is not asked."""
        if self.dice[seat] > 0:
            self.pending.append(Turn(seat))
        else:
            self.end_turn()

    # -- paying ("Figure and spell cards can be paid in either combination of gems and gem cards") --

    def _gem_cards(self, seat: int) -> list[tuple[int, int]]:
        facts = self.facts
        return [(facts[c].element_index, facts[c].symbols) for c in self.heaven[seat] if facts[c].gem]

    def can_pay(self, seat: int, cost: tuple[int, ...]) -> bool:
        if sum(cost) <= self.gems[seat]:  # (gems pay any element: no gem card needed)
            return True
        return _payable(list(cost), self._gem_cards(seat), self.gems[seat])

    def pay_actions(self, seat: int, remaining: tuple[int, ...]) -> list[Action]:
        sp = self.game.space
        facts = self.facts
        out: list[Action] = []
        for c in sorted(self.heaven[seat]):
            if facts[c].gem and self.why_not_pay_with(seat, remaining, c) is None:
                out.append(sp.pay_card[c])
        if self.why_not_pay_gems(seat, remaining) is None:
            out.append(sp.pay_gems)
        return out

    def why_not_pay_gems(self, seat: int, remaining: tuple[int, ...]) -> str | None:
        """Why the seat cannot pay the rest with gems now (None: it can): gems pay any element, one
        symbol each."""
        owed, gems = sum(remaining), self.gems[seat]
        return None if owed <= gems else f"you have {_gems_text(gems)}, {owed} owed"

    def why_not_pay(self, seat: int, remaining: tuple[int, ...], action: Any) -> str:
        """Why a payment refuses `action`: the rule the legal moves use (`why_not_pay_with`,
        `why_not_pay_gems`), so a refusal and a card's why-not are the same words."""
        kind = getattr(action, "kind", None)
        if kind == Kind.PAY_CARD:
            if action.card not in self.heaven[seat]:
                return f"{self.card(action.card).name} is not in your Heaven"
            return self.why_not_pay_with(seat, remaining, action.card) or f"{action.text!r} is not possible now"
        if kind == Kind.PAY_GEMS:
            return self.why_not_pay_gems(seat, remaining) or f"{action.text!r} is not possible now"
        owed = ", ".join(f"{n} {e.title()}" for e, n in zip(ELEMENTS, remaining, strict=True) if n)
        return f"{getattr(action, 'text', action)!r} is not possible now: pay {owed} with gems or gem cards"

    def why_not_pay_with(self, seat: int, remaining: tuple[int, ...], c: int) -> str | None:
        """Why gem card `c` of the seat's Heaven cannot pay now (None: it can): a gem card pays
        symbols of its own element still owed, never more ("players must not overpay"), and what is
        left must stay payable with the seat's other gem cards and gems."""
        facts = self.facts
        card = facts[c]
        e, k = card.element_index, card.symbols
        if not card.gem:
            return "only gems and gem cards pay"
        if remaining[e] == 0:
            element = ELEMENTS[e].title()
            return f"players must not overpay: it pays {element}, and no {element} is owed"
        if remaining[e] < k:
            return f"players must not overpay: it pays {k} {ELEMENTS[e].title()}, only {remaining[e]} owed"
        rest = list(remaining)
        rest[e] -= k
        others = [(facts[o].element_index, facts[o].symbols) for o in self.heaven[seat] if o != c and facts[o].gem]
        if not _payable(rest, others, self.gems[seat]):
            return "the rest could not be paid exactly afterwards"
        return None

    def pay(self, decision: Pay, action: AvatarAction) -> None:
        """A payment is an activity: a gem card moves from Heaven to Hell (`PAY_CARD`), the rest in
        gems moves to the middle; when what it sets off is over, the next payment or the arrival
        follows (`effects_done`)."""
        seat = decision.seat
        self.phase = "pay"
        if action.kind == Kind.PAY_CARD:
            EFFECTS.start(self, PAY_CARD, Context(seat, -1, (-1, action.card)))
        else:
            EFFECTS.start(self, _pay_gems(sum(decision.remaining)), Context(seat))

    # -- end of turn ("In the end of each turn, each player must discard ...") -----------------------

    def end_turn(self) -> None:
        self.emit("end_turn", seat=self.turn)
        for s in self.turn_order():
            if self.dice[s]:  # all remaining dies
                self.middle += self.dice[s]
                self.dice[s] = 0
            extra = self.gems[s] - KEEP  # all but six gems
            if extra > 0:
                self.gems[s] = KEEP
                self.purse += extra
                self.emit("gems_discarded", seat=s, gems=extra)
        self._discard_down_next()

    def _discard_down_next(self) -> None:
        for s in self.turn_order():
            if len(self.heaven[s]) > KEEP:  # all but six cards: the player chooses which go to Hell
                self.pending.append(DiscardDown(s))
                return
        if self.turns >= self.game.options.turn_limit:
            self._finish_by_limit()
            return
        i = self.order.index(self.turn)
        self._begin_turn(self.order[(i + 1) % len(self.order)])

    def discard_down(self, seat: int, c: int) -> None:
        self.heaven[seat].remove(c)
        self.hell.append(c)
        self.emit("discarded", seat=seat, card=self.fact(c).name)
        self._discard_down_next()

    # -- winning ("A player wins the game as soon as they have no more cards in Heaven") ------------

    def _left_heaven(self, seat: int) -> None:
        if not self.heaven[seat] and not (self.announced and seat == self.turn) and not self.is_over:
            self.final_winners = [seat]
            self.is_over = True
            self.pending.clear()
            self.emit("won", seat=seat)

    def _finish_by_limit(self) -> None:
        fewest = min(len(h) for h in self.heaven)
        self.final_winners = [s for s in range(self.game.players) if len(self.heaven[s]) == fewest]
        self.by_limit = True
        self.is_over = True
        self.emit("turn_limit", winners=list(self.final_winners))

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self.game.players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    # -- the effect layer's hooks (EffectHost, ChainedHost): which abilities answer an activity -------
    #
    # A figure's effect is in force "when the figure card is active with at least one gem on top of
    # it"; inclusive effects are triggers, exclusive ones replacements; a spell's effect is a
    # trigger of its own arrival on Earth; every one is optional ("Players can always choose whether
    # they want a specific effect to take place or not"); the loop rule is the core's.

    def _derive(self) -> None:
        self.completed = None  # (nothing is about to be carried out between two decisions)
        self._rotate()
        self.facts = self.game.facts

    def card_name(self, card: int) -> str:
        return self.game.cards[card].name

    def effect_actions(self) -> EffectActions:
        return ANSWERS

    def abilities(self, event: GameEvent) -> list[Ability]:
        kind = event.kind
        assert isinstance(kind, tuple), kind  # an activity's words (NOTHING, CHOOSING: no activity yet)
        verb, what, src, dst = kind
        if verb in ("nothing", "choosing"):
            return []
        facts = self.facts
        charge = self.charge
        arrival = verb == "move" and dst == "earth"
        out: list[Ability] = []
        for seat in self.turn_order():
            for c in self.earth[seat]:
                card = facts[c]
                if card.spell:
                    # a spell's effect comes into effect on its own arrival, before anything else
                    # that answers the arrival ("immediately come into effect once the spell card
                    # arrives on Earth")
                    if arrival and c == event.card:
                        ctx = Context(seat, c)
                        if card.first is not None and self._possible(card.first, ctx):
                            out.append(Ability(c, 0, seat, "arrival", card.effects, ctx, first=True,
                                               chained=card.chained))
                    continue
                if not charge[c] or card.answers != verb:
                    continue  # "in effect when the figure card is active with at least one gem on top of it"
                when, first = card.when, card.first
                assert when is not None and first is not None
                ctx = Context(seat, c)
                if _matches(when, seat, verb, what, src, dst, event) and self._possible(first, ctx):
                    out.append(Ability(c, 0, seat, event.kind, card.effects, ctx, instead=card.exclusive,
                                       chained=card.chained))
        return out

    def event_of(self, effect: Effect, ctx: Context) -> GameEvent:
        """The activity an effect is, once its choices are made (seat: whose activity; for a move,
        the owner of the area it leaves, target: of the area it enters; -1 for Hell). Its choices
        are kept for the verb, which the effect layer runs next unless an ability replaces it."""
        step = step_of(effect)
        done = self._complete(step, ctx)
        self.completed = (effect.params, ctx, done)
        status, ctx2 = done
        if status == "impossible":
            return NOTHING
        if status != "ready":
            return CHOOSING
        opp, card = _targets(ctx2)
        me = ctx2.controller
        what = step.what
        if card >= 0 and step.is_card:
            what = self.fact(card).named
        if step.verb == "take":
            return GameEvent(("take", what, "", ""), me, card, -1, step.n)
        if step.verb == "discard":
            return GameEvent(("discard", what, "", ""), me if step.owner == "white" else opp, card, -1, step.n)
        src = -1 if step.from_area == "hell" else (me if step.from_owner == "white" else opp)
        dst = -1 if step.to_area in ("hell", "middle") else (me if step.to_owner == "white" else opp)
        return GameEvent(("move", what, step.from_area or "", step.to_area or ""), src, card, dst, step.n)

    def possible(self, effect: Effect, ctx: Context) -> bool:
        """Whether an effect can be tried, from what its player can see (so whether it is offered
        tells nobody what an opponent's Heaven holds)."""
        return self._possible(step_of(effect), ctx)

    def _possible(self, step: Step, ctx: Context) -> bool:
        return self._complete(step, ctx, hidden=False)[0] != "impossible"

    # -- choices an effect needs ---------------------------------------------------------------------

    def opponent_choices(self, effect: Effect, ctx: Context) -> list[int]:
        """Opponents for whom a black effect can do something, as far as the player can see: a card
        from an opponent's Heaven needs a card there, whatever its type (the types are hidden)."""
        return self._opponent_choices(step_of(effect), ctx)

    def _opponent_choices(self, step: Step, ctx: Context) -> list[int]:
        me = ctx.controller
        out = []
        for o in self.opponents(me):
            if step.verb in ("take", "discard"):
                if step.owner != "black":
                    continue
                if step.what == "die":
                    ok = self.dice[o] > 0
                elif step.what == "gem":
                    ok = self.gems[o] > 0
                else:
                    ok = bool(self.heaven[o])
            elif step.from_owner == "black":
                ok = bool(self.heaven[o]) if step.from_area == "heaven" else bool(self._sources(step, me, o))
            else:
                ok = bool(self._sources(step, me, -1))
            if ok:
                out.append(o)
        return out

    def _sources(self, step: Step, me: int, opp: int) -> list[int]:
        """The cards a move can take from its area."""
        if step.from_area == "hell":
            cards = self.hell
        else:
            who = me if step.from_owner == "white" else opp
            if who < 0:
                return []
            cards = self.heaven[who] if step.from_area == "heaven" else self.figures(who)
        facts = self.facts
        return sorted([c for c in cards if step.is_a(facts[c].type)])

    def card_choices(self, effect: Effect, ctx: Context) -> list[int]:
        return self._card_choices(step_of(effect), ctx)

    def _card_choices(self, step: Step, ctx: Context) -> list[int]:
        opp = _targets(ctx)[0]
        facts = self.facts
        if step.verb == "move" and step.what == "gem":  # "Figure cards can be leveled up with at most as many gems as their level"
            return [c for c in self.figures(ctx.controller) if self.charge[c] < facts[c].level]
        if step.verb == "discard":
            return sorted([c for c in self.heaven[ctx.controller] if step.is_a(facts[c].type)])
        return self._sources(step, ctx.controller, opp)

    def _complete(self, step: Step, ctx: Context, hidden: bool = True) -> tuple[str, Context]:
        """("ready", context with its choices), ("opponent" | "card", context): a choice is still
        to be made, or ("impossible", context): the effect can do nothing now. A choice with one
        candidate is made at once. `hidden`: also look into the chosen opponent's Heaven (a card of
        a type taken from it that is not there: nothing happens); without, what the player sees."""
        opp, card = _targets(ctx)
        me = ctx.controller
        verb, what, black = step.verb, step.what, step.black
        if verb == "move" and what == "gem":  # my own gems (effects and the rules move only those)
            if self.gems[me] < step.n:
                return "impossible", ctx
            if step.to_area == "middle":
                return "ready", ctx
        if verb == "take" and not black:
            # (a white take of a card is the stack's top, whatever its type: language.py, FACE_DOWN)
            left = (self.middle + sum(self.dice) - self.dice[me] if what == "die"
                    else self.purse + sum(self.gems) - self.gems[me] if what == "gem"
                    else len(self.stack) + len(self.hell))
            return ("ready" if left > 0 else "impossible"), ctx
        if verb == "discard" and not black:
            if what == "die":
                return ("ready" if self.dice[me] else "impossible"), ctx
            if what == "gem":
                return ("ready" if self.gems[me] else "impossible"), ctx
        if black and opp < 0:
            choices = self._opponent_choices(step, ctx)
            if not choices:
                return "impossible", ctx
            if len(choices) > 1:
                return "opponent", ctx
            opp = choices[0]
            ctx = Context(me, ctx.source, (opp, card))
        if hidden and opp >= 0 and step.from_hidden_heaven:
            facts = self.facts
            if not any(step.is_a(facts[c].type) for c in self.heaven[opp]):
                return "impossible", ctx
        if not step.needs_card:
            return "ready", ctx
        if card >= 0:
            return "ready", ctx
        choices = self._card_choices(step, ctx)
        if not choices:
            return "impossible", ctx
        if len(choices) > 1:
            return "card", ctx
        return "ready", Context(me, ctx.source, (opp, choices[0]))

    # -- the operators (language.py's verbs call these) ---------------------------------------------

    def _prepare(self, verb: str, p: Params, ctx: Context) -> Context | None:
        """The context of the effect (`verb`, `p`) with its choices made, or None: a player chooses
        first (pushed), or it can do nothing. Worked out once: `event_of` did it just before, for the
        same effect (the effect layer asks what an effect is, then runs it; nothing changes in
        between), and then no `Effect` is made again (an interpreted record, at every activity)."""
        completed, self.completed = self.completed, None
        if completed is not None and completed[0] is p and completed[1] is ctx:
            status, ctx2 = completed[2]
        else:
            status, ctx2 = self._complete(_params_step(p), ctx)
        if status == "opponent" or status == "card":
            ask = ChooseOpponent if status == "opponent" else ChooseCard
            self.pending.append(ask(ctx.controller, Effect(verb, p), ctx2))
        return ctx2 if status == "ready" else None

    def do_take(self, ctx0: Context, p: Take) -> None:
        ctx = self._prepare("take", p, ctx0)
        if ctx is None:
            return
        step = _params_step(p)
        facts = self.facts
        me = ctx.controller
        opp = _targets(ctx)[0]
        what = step.what
        for _ in range(step.n):
            if step.is_card:
                if step.owner == "white":
                    self._refill()  # (Hell was empty when the stack ran out: it may hold cards now)
                    if not self.stack:
                        return
                    c = self.stack.pop()
                    self.heaven[me].append(c)
                    self.emit("took_card", seat=me)
                    self.emit("drew", to=(me,), seat=me, card=facts[c].name)
                    self._refill()
                else:
                    # at random: the player cannot see that Heaven (of the type named, if one is)
                    choices = [c for c in self.heaven[opp] if step.is_a(facts[c].type)]
                    if not choices:
                        return
                    c = choices[self.rng.below(len(choices))]
                    self.heaven[opp].remove(c)
                    self.heaven[me].append(c)
                    self.emit("took_card", seat=me, source=opp)
                    self.emit("drew", to=(me, opp), seat=me, card=facts[c].name)
                    self._left_heaven(opp)
                continue
            pool = self.dice if what == "die" else self.gems
            source = opp
            if step.owner == "white":
                has_middle = self.middle if what == "die" else self.purse
                if has_middle:
                    if what == "die":
                        self.middle -= 1
                    else:
                        self.purse -= 1
                    pool[me] += 1
                    self.emit("took", seat=me, what=what)
                    continue
                # "If there would be no dies or gems left in the middle of the table, the player can
                # take a die or gem from the players with the most dies/gems" (ties: the first of
                # them in turn order after the taker)
                order = self.turn_order()
                at = order.index(me)
                others = order[at + 1:] + order[:at]
                source = max(others, key=lambda s: (pool[s], -others.index(s)))
            if pool[source] <= 0:
                return
            pool[source] -= 1
            pool[me] += 1
            self.emit("took", seat=me, what=what, source=source)

    def _refill(self) -> None:
        """"If there are no cards left in the card stack, Hell gets shuffled and replaces the stack
        face down": at once, when the last card leaves the stack (so no effect picks from a Hell
        that should already be the stack)."""
        if not self.stack and self.hell:
            self.stack, self.hell = self.hell, []
            self.rng.shuffle(self.stack)
            self.emit("hell_shuffled", cards=len(self.stack))

    def do_discard(self, ctx0: Context, p: Discard) -> None:
        ctx = self._prepare("discard", p, ctx0)
        if ctx is None:
            return
        step = _params_step(p)
        what, white = step.what, step.owner == "white"
        opp, card = _targets(ctx)
        who = ctx.controller if white else opp
        if self.phase == "roll" and ctx.source < 0 and what == "die" and white:
            # the roll (`ROLL`): its number is shown when what the discard sets off is over
            self.dice[who] -= 1
            self.middle += 1
            self.phase = "rolled"
            return
        if what in ("die", "gem"):
            pool = self.dice if what == "die" else self.gems
            n = min(step.n, pool[who])
            pool[who] -= n
            if what == "die":
                self.middle += n
            else:
                self.purse += n
            self.emit("discarded_" + what, seat=who, n=n)
            return
        facts = self.facts
        if not white:  # an opponent's Heaven: the player cannot see it, so at random
            choices = [c for c in self.heaven[who] if step.is_a(facts[c].type)]
            card = choices[self.rng.below(len(choices))]
        self.heaven[who].remove(card)
        self.hell.append(card)
        self.emit("discarded", seat=who, card=facts[card].name)
        self._left_heaven(who)

    def do_move(self, ctx0: Context, p: Move) -> None:
        ctx = self._prepare("move", p, ctx0)
        if ctx is None:
            return
        step = _params_step(p)
        me = ctx.controller
        opp, card = _targets(ctx)
        if step.what == "gem":
            self._move_gems(me, card, step)
            return
        facts = self.facts
        src = me if step.from_owner == "white" else opp
        dst = me if step.to_owner == "white" else opp
        paying = self.phase == "pay" and ctx.source < 0  # the rules' `PAY_CARD`, not an effect
        # take the card from where it is
        if step.from_area == "heaven":
            if card in self.announced:  # the card being summoned or cast
                self.announced.remove(card)
                # a cast counts once the spell arrives on Earth: a cast replaced by an exclusive
                # effect is no spell "already casted this turn"
                if step.to_area == "earth" and facts[card].spell:
                    self.spells_cast += 1
            elif step.from_owner == "black":
                choices = [c for c in self.heaven[src] if step.is_a(facts[c].type)]
                card = choices[self.rng.below(len(choices))]
                self.heaven[src].remove(card)
            else:
                self.heaven[src].remove(card)
        elif step.from_area == "earth":
            self.earth[src].remove(card)
            if self.charge[card]:  # its gems go back to the purse
                self.purse += self.charge[card]
                self.charge[card] = 0
        else:
            self.hell.remove(card)
        # and put it where it goes
        moved = facts[card]
        name = moved.name
        if step.to_area == "heaven":
            self.heaven[dst].append(card)
            # a card from a Heaven (a hand) is seen by the two players it passes between only
            private = step.from_area == "heaven"
            self.emit("moved", seat=me, to_area="heaven", to_seat=dst, card=None if private else name)
            if private:
                self.emit("moved_card", to=(src, dst), card=name)
        elif step.to_area == "hell":
            self.hell.append(card)
            if paying:  # a gem card pays symbols of its own element
                self.owed[moved.element_index] -= moved.symbols
                self.phase = "paid"
                self.emit("paid_card", seat=me, card=name)
            else:
                self.emit("moved", seat=me, to_area="hell", to_seat=-1, card=name)
        else:
            self.earth[dst].append(card)
            self.emit("arrived", seat=dst, card=name)
            if len(self.figures(dst)) > MAX_FIGURES:
                # "If a player controls more than six figure cards on Earth, all are moved to Hell"
                for c in self.figures(dst):
                    self.earth[dst].remove(c)
                    self.purse += self.charge[c]
                    self.charge[c] = 0
                    self.hell.append(c)
                self.emit("all_figures_to_hell", seat=dst)
        if step.from_area == "heaven":
            self._left_heaven(src)

    def _move_gems(self, me: int, card: int, step: Step) -> None:
        if step.to_area == "middle":  # paying the rest of a cost in gems (only the rules move gems there)
            self.gems[me] -= step.n
            self.purse += step.n
            self.owed = [0] * len(ELEMENTS)
            self.phase = "paid"
            self.emit("paid_gems", seat=me, gems=step.n)
            return
        # "activate/level up this figure by moving a(nother) gem on top of it"
        self.gems[me] -= 1
        self.charge[card] += 1
        self.emit("gem_on", seat=me, card=self.fact(card).name, gems=self.charge[card])

    # -- hidden information --------------------------------------------------------------------------

    def invariants(self) -> dict[str, int]:
        out = super().invariants()
        out["gems"] = self.purse + sum(self.gems) + sum(self.charge)
        out["dice"] = self.middle + sum(self.dice)
        return out

    def seen_heaven(self, seat: int | None) -> list[int]:
        """The Heaven cards `seat` sees: its own (Heaven is its player's only; a spectator sees none)."""
        return self.heaven[seat] if seat is not None else []

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What `seat` sees as a JSON dict (`seat_view`: the part an encoder reads, as numbers)."""
        g = self.game
        cards = g.cards
        d = self.decision
        players = []
        for s in range(g.players):
            players.append({
                "avatar": ELEMENTS[self.avatars[s]],
                "heaven_size": len(self.heaven[s]),
                "earth": [{"name": cards[c].name, "type": cards[c].type, "gems": self.charge[c], "level": cards[c].level}
                          for c in self.earth[s]],
                "dice": self.dice[s],
                "gems": self.gems[s],
            })
        obs: dict[str, Any] = {
            "game": "iuno_avatar",
            "players": g.players,
            "seat": seat,
            "order": list(self.order),
            "turn": None if self.is_over else self.turn,
            "turns": self.turns,
            "turn_limit": g.options.turn_limit,
            "phase": self.phase,
            "spells_cast": self.spells_cast,
            "current_player": self.current_player,
            "decision": None if d is None else d.view(self, seat),
            "middle": self.middle,
            "purse": self.purse,
            "stack": len(self.stack),
            "hell": self._names(self.hell),
            "announced": self._names(self.announced),
            "seats": players,
            "is_over": self.is_over,
            "winners": self.winners(),
            "by_limit": self.by_limit,
        }
        shown = [c for e in self.earth for c in e] + self.announced
        if seat is not None:
            heaven = self.seen_heaven(seat)
            obs["heaven"] = sorted(self._names(heaven))
            shown += heaven
        obs["card_texts"] = {cards[c].name: g.texts[c] for c in shown}
        # what the terminal's tables print beside each card shown: its type, element, cost and level
        obs["card_facts"] = {cards[c].name: {"type": cards[c].type, "element": cards[c].element, "level": cards[c].level,
                                             "cost": [e for e, n in zip(ELEMENTS, cards[c].cost, strict=False) for _ in range(n)]}
                             for c in shown}
        if seat is not None and d is not None and d.seat == seat:
            obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    def seat_view(self, seat: int | None) -> AvatarView:
        """`observation(seat)`'s numbers for an encoder, without card names, texts or facts
        (cardtable/games/iuno_avatar/encoder.py): nothing the dict does not show (`AvatarView`)."""
        d = self.decision
        kind: str | None = None
        decider = -1
        value = card = -1
        remaining: tuple[int, ...] = ()
        instead = False
        if d is not None:
            kind, decider = d.kind, d.seat
            if kind == "use_roll":
                value = cast(UseRoll, d).value
            elif kind == "pay":
                pay = cast(Pay, d)
                card, remaining = pay.card, pay.remaining
            elif kind == "use_ability":
                ability = cast(UseAbility, d).ability
                card, instead = ability.card, ability.instead
        charge = self.charge
        return AvatarView(
            self.game.players, seat, self.seen_heaven(seat), self.earth, [[charge[c] for c in e] for e in self.earth],
            self.hell, self.announced, [len(h) for h in self.heaven], self.dice, self.gems, self.avatars, self.middle,
            self.purse, len(self.stack), self.spells_cast, None if self.is_over else self.turn, kind, decider, value,
            remaining, card, instead)

    def card_moves(self, seat: int) -> dict[str, list[Action]]:
        """The move that plays each card of the seat, at every decision: a figure or spell of its
        Heaven is summoned or cast, a gem card pays, a figure on its Earth is activated or levelled
        up ("Playing Iuno": with a rolled die; a gem card while paying, with the seat's `gems`); at
        the end of the turn a card of its Heaven is discarded; while an effect chooses a card, every
        card it may choose (in Hell or on another Earth too) and the seat's own are chosen. Each
        move's why-not is the rule the legal moves use (`why_not_play`, `why_not_raise`,
        `why_not_pay_with`, `why_not_pay_gems`), or what the decision asks instead, through
        `check` (the core's `card_status`)."""
        d = self.decision
        sp = self.game.space
        cards = self.game.cards
        heaven = sorted(self.heaven[seat], key=lambda c: cards[c].name)
        figures = self.figures(seat)
        if isinstance(d, ChooseCard):
            return {cards[c].name: [sp.choose[c]] for c in (*self.card_choices(d.effect, d.context), *heaven, *figures)}
        if isinstance(d, DiscardDown):
            out: dict[str, list[Action]] = {cards[c].name: [sp.discard[c]] for c in heaven}
        else:
            out = {cards[c].name: [sp.pay_card[c] if cards[c].gem else sp.summon[c] if cards[c].figure else sp.cast[c]]
                   for c in heaven}
        out.update({cards[c].name: [sp.level_up[c] if self.charge[c] else sp.activate[c]] for c in figures})
        if isinstance(d, Pay):
            out["gems"] = [sp.pay_gems]
        return out


class AvatarView:
    """Part of `AvatarState.observation(seat)` as numbers (`seat_view`); each field says which dict
    entry it stands for. Cards are card ids (`game.cards`), elements index `ELEMENTS`. A list the
    dict shows as it is is the state's own, not a copy: a view is read at once, never changed or
    kept. (A plain class, not a NamedTuple: compiled, it is made and read natively.)"""

    def __init__(self, players: int, seat: int | None, heaven: list[int], earth: list[list[int]],
                 earth_gems: list[list[int]], hell: list[int], announced: list[int], heaven_size: list[int],
                 dice: list[int], gems: list[int], avatar: list[int], middle: int, purse: int, stack: int,
                 spells_cast: int, turn: int | None, decision: str | None, decision_seat: int, value: int,
                 remaining: tuple[int, ...], card: int, instead: bool) -> None:
        self.players: Final = players              # "players"
        self.seat: Final = seat                    # "seat"
        self.heaven: Final = heaven                # "heaven": my Heaven (empty for a spectator), unordered
        self.earth: Final = earth                  # "seats"[s]["earth"][i]["name"]
        self.earth_gems: Final = earth_gems        # "seats"[s]["earth"][i]["gems"]
        self.hell: Final = hell                    # "hell"
        self.announced: Final = announced          # "announced"
        self.heaven_size: Final = heaven_size      # "seats"[s]["heaven_size"]
        self.dice: Final = dice                    # "seats"[s]["dice"]
        self.gems: Final = gems                    # "seats"[s]["gems"]
        self.avatar: Final = avatar                # "seats"[s]["avatar"]
        self.middle: Final = middle                # "middle"
        self.purse: Final = purse                  # "purse"
        self.stack: Final = stack                  # "stack"
        self.spells_cast: Final = spells_cast      # "spells_cast"
        self.turn: Final = turn                    # "turn"
        self.decision: Final = decision            # "decision"["kind"]
        self.decision_seat: Final = decision_seat  # "decision"["seat"] (-1 without a decision)
        self.value: Final = value                  # "decision"["value"]: the die rolled (use_roll; else -1)
        self.remaining: Final = remaining          # "decision"["remaining"], per element in ELEMENTS order (pay; else ())
        self.card: Final = card                    # "decision"["card"] (pay, use_ability; else -1)
        self.instead: Final = instead              # "decision"["instead"] (use_ability)


def _gems_text(n: int) -> str:
    return f"{n} gem" if n == 1 else f"{n} gems"


def _targets(ctx: Context) -> tuple[int, int]:
    t = ctx.targets
    return (t[0] if t else -1, t[1] if len(t) > 1 else -1)


def _params_step(params: Params) -> Step:
    """An operator's parameters (language.py's `Take`, `Discard`, `Move`) as the rules read them."""
    p: Any = params
    step: Step = p.step
    return step


def _colour(seat: int, controller: int) -> str | None:
    """Whose `seat` is, from `controller`'s side: white itself, black an opponent (None: no seat)."""
    return None if seat < 0 else ("white" if seat == controller else "black")


def _matches(when: Step, controller: int, verb: str, what: str, src: str, dst: str, event: GameEvent) -> bool:
    """Whether an activity pattern (a figure's `when`) answers an event, from its controller's side:
    white is the controller, black an opponent."""
    if when.verb != verb:
        return False
    if when.what != what and not (when.what == "card" and what.endswith("card")):
        return False
    if verb == "move":
        return bool((when.from_area or "") == src and when.to_area == dst
                    and when.from_owner == _colour(event.seat, controller)
                    and when.to_owner == _colour(event.target, controller))
    return bool(when.owner == _colour(event.seat, controller))


def _payable(cost: list[int], gem_cards: list[tuple[int, int]], gems: int) -> bool:
    """Whether `cost` (symbols per element) can be paid exactly with some of `gem_cards` ((element,
    symbols) each, matching elements only) and gems (any element)."""
    if sum(cost) <= gems:
        return True
    for i, (e, k) in enumerate(gem_cards):
        if cost[e] >= k:
            cost[e] -= k
            ok = _payable(cost, gem_cards[i + 1:], gems)
            cost[e] += k
            if ok:
                return True
    return False

