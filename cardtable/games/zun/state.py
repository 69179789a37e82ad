"""Runes of Zun rules: the state and its transitions, on the core's effect layer.

Rule references are to ../shared/rules/runes-of-zun.txt (sections "Setup", "On Your Turn"
with its four phases, "Rule Priority", "Drawing cards", "Playing cards", "Discarding cards",
Overdraw, Underdraw, "Changing your HP", "If you're Defeated", the glossary) and the Runes
of Zun part of ../shared/rules/NOTES.md. Interpretations are listed in docs/games/zun.md.

How a turn runs: `_run` drives the phase machine until a player must decide, then pushes
exactly one decision (so a defeat never leaves another seat's decision behind). Runes being
resolved are typed items (`Resolving`) on the core's response stack (`STACK`): an Action against
its declared targets, or a Reaction against the Action it answers (or against the Action's
player). An item goes through its stages — modify, declare, blame, then for each target: the
reaction window (the core's priority decision: react, or pass), resolve, effects. Its effects run
as one effect sequence of the core (`EFFECTS`), each through its verb's one handler (verbs.py).
(Ongoing) runes are standing abilities: at the start of the affected player's turn they trigger
through the core's triggers, in the order that player chooses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from ...core.actions import Action
from ...core.effects import (
    Ability,
    Context,
    EffectActions,
    Effects,
    Finish,
    GameEvent,
    ResponseStack,
    StackItem,
    evolve,
)
from ...core.state import State, zero_sum_returns
from ...core.verbs import Effect
from ...core.zones import Form, Layout, Order, StateLayout, Visibility, Zone
from .actions import Kind, ZunAction
from .decisions import (
    DECISIONS,
    ActionPhase,
    ChooseBlamed,
    ChooseDiscard,
    ChooseRedirect,
    DeclareTarget,
    Modify,
    Mulligan,
    Recovery,
    kind_refusal,
    legal_now,
    reactions,
)
from .options import HAND, START_HP
from .runes import Rune
from .verbs import VERBS

if TYPE_CHECKING:
    from .game import Zun

OVERDRAW_AT = 10   # Overdraw: "When you have 10 cards in your hand ... each additional card"
MAX_HP = 12
TIER = 4           # tiers 1-4, 5-8, 9-12
TURN_START = "turn_start"


def tier_of(hp: int) -> int:
    """0 when Defeated, else 1 (1-4), 2 (5-8) or 3 (9-12)."""
    return 0 if hp <= 0 else (min(hp, MAX_HP) - 1) // TIER + 1


# a plain Python class in the compiled build (cardtable/_native.py), as the core's `StackItem` it
# extends: the stack changes it through its `__dict__` (`change_top`, `evolve`)
@mypyc_attr(native_class=False)
@dataclass
class Resolving(StackItem):
    """A rune being resolved: an item of the response stack. `card` is its serial (the runes in a
    deck are not told apart; a rune in play is known by when it was played), `owner` and
    `controller` its player, `targets` its declared targets, `countered` that a Cancel answered it
    for the current target. The rest is how far it has got."""

    kind: str = "action"            # action | reaction
    rune: int = -1
    copy: int = -1                  # the rune whose effects it has (Mimic: the copied Action; -1: none)
    actor: int = -1                 # whom Reactions treat as the Action's player (Blame)
    stage: str = "modify"           # modify, declare, blame, window, resolve, effects, applied
    boosts: int = 0
    shares: int = 0
    blames: int = 0
    i: int = 0                      # the target being resolved (its place among `targets`)
    cur: int = -1                   # that target's seat (a Redirect changes it)
    absorb: tuple[int, ...] = ()    # an Absorb answering it: (seat, serial, immune)
    immune: bool = False

    @property
    def player(self) -> int:
        return self.controller

    @property
    def serial(self) -> int:
        return self.card


#: a rune just played, before its fields are set (`evolve` from it is cheaper than `Resolving(...)`
#: setting its sixteen fields one by one: a rune is played at about one decision in six)
_PLAYED: Final = Resolving(-1, -1, -1)


# A plain Python class in the compiled build (cardtable/_native.py), so that
# copies and pickles (an encoder's copy holds the game) work as for any Python object.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Source:
    """What an effect's handler needs of the rune it comes from."""

    rune: int
    serial: int
    boosts: int
    immune: bool
    absorb: tuple[int, ...] = ()


# -- the core's effect layer and response stack: ZunState answers them (its hooks below) --------------

EFFECTS = Effects(VERBS, kinds={"first_trigger": "order_triggers"}, answerable=frozenset(), told=True,
                  names_first=True, asks={"first_trigger": "must choose which ongoing rune triggers next"})
#: Runes of Zun resolves its stack target by target (`ZunState._step_frame`): a pass goes back to it
STACK = ResponseStack(None, item=Resolving, kinds={"priority": "reaction"}, staged=True)
NO_ACTIONS = EffectActions()  # every trigger is mandatory, and its order is chosen by rune (`trigger_action`)


def _next(f: Resolving) -> str:
    """The rune goes on to its next target (a Cancel or an Absorb answered only the last); the
    stage it is in."""
    f.i += 1
    f.cur = -1
    f.countered = False
    f.absorb = ()
    return "window"


class Frame(NamedTuple):
    """A rune on the resolving stack as `ZunState.observation` shows it ("resolving"), as numbers:
    runes index the game's rune set; each field names the dict entry it stands for."""

    kind: str                    # "kind": action, reaction or trigger
    card: int                    # "card"
    played_as: int               # "as" (-1: None)
    player: int                  # "player"
    actor: int                   # "actor"
    targets: tuple[int, ...]     # "targets"
    current_target: int          # "current_target" (-1: none)
    boosts: int                  # "boosts"
    shares: int                  # "shares"
    fizzled: bool                # "fizzled"
    stage: str                   # "stage"


class Ongoing(NamedTuple):
    """An (ongoing) rune in play as the observation shows it ("ongoing"), as numbers."""

    card: int                    # "card"
    played_as: int               # "as"
    player: int                  # "player"
    affects: list[int]           # "affects"
    boosts: int                  # "boosts"


class SeatView(NamedTuple):
    """Part of `ZunState.observation(seat)` as numbers (`ZunState.seat_view`), for the RL hot path
    (cardtable/games/zun/encoder.py); each field names the dict entry it stands for. Runes index
    the game's rune set. Lists may be the state's own: read them at once, never change or keep them."""

    players: int                 # "players"
    seat: int | None             # "seat"
    team_of: list[int]           # "team_of"
    hand: list[int]              # "hand", sorted (empty for a spectator)
    exposed: list[int]           # the seats of "exposed_hands", in order
    exposed_hands: list[list[int]]  # their hands, sorted
    hp: list[int]                # "hp"
    tiers: list[int]             # "tiers"
    hand_counts: list[int]       # "hand_counts"
    deck: int                    # "deck"
    discard: list[int]           # "discard", bottom to top
    turn: int | None             # "turn"
    turn_number: int             # "turn_number"
    turn_limit: int              # "turn_limit"
    phase: str                   # "phase"
    decision: str | None         # "decision"["kind"]
    decision_seat: int           # "decision"["seat"] (-1 without a decision)
    to_discard: int              # "decision"["count"] (discard; 0 when absent)
    in_play: list[tuple[int, int, bool]]  # "in_play": (card, player, returns)
    ongoing: list[Ongoing]       # "ongoing"
    resolving: list[Frame]       # "resolving", bottom to top
    played_this_turn: list[int]  # "played_this_turn"


class ZunState(State):
    # Setup: the deck (face down), the discard pile, each player's hand; "Playing cards": the
    # cards played this turn and the (ongoing) runes that stay in play.
    layout = StateLayout(
        zones=(
            Zone("deck", Visibility.HIDDEN, Order.PILE),
            Zone("discard", Visibility.PUBLIC, Order.PILE),
            Zone("hands", Visibility.OWNER, Order.SET, Layout.PER_SEAT),
            Zone("table", Visibility.PUBLIC, form=Form.RECORDS),
            Zone("ongoing", Visibility.PUBLIC, form=Form.RECORDS),
        ),
        values=("turn", "turns", "phase", "serial", "turn_serial", "by_limit"),
        lists=("hp", "played", "final_winners"),
        typed=(("chain", STACK.record), ("sequence", EFFECTS.record)),
        decisions=(*DECISIONS, STACK.Priority, *EFFECTS.decisions),
        derived=("runes",),
    )
    __slots__ = (
        "hp", "hands", "deck", "discard", "table", "ongoing", "chain", "sequence", "played", "turn", "turns",
        "phase", "serial", "turn_serial", "final_winners", "by_limit", "runes",
    )

    game: Zun
    hp: list[int]
    hands: list[list[int]]
    deck: list[int]                # top of the deck is the end of the list
    discard: list[int]
    table: list[list[int]]         # cards played this turn: [rune, owner, returns (Reserve), serial]
    ongoing: list[dict[str, Any]]  # (ongoing) runes in play: rune, as, owner, serial, boosts, immune, affects
    played: list[int]              # Actions played this turn (Mimic), as runes whose effects they used
    turn: int
    turns: int                     # turns begun so far
    phase: str                     # start, mulligan, action, recovery, end
    serial: int                    # play order: newer cards have higher serials (immune: newer wins)
    turn_serial: int               # first serial of this turn ("cards you played this turn")
    final_winners: list[int]
    by_limit: bool

    runes: tuple[Rune, ...]        # the game's rune set (derived: read at almost every step)

    # -- helpers ------------------------------------------------------------------------

    def _derive(self) -> None:
        self.runes = self.game.runes

    def _name(self, r: int) -> str:
        return self.runes[r].name

    def _names(self, cards: list[int]) -> list[str]:
        return [self.runes[r].name for r in sorted(cards)]

    def alive(self, seat: int) -> bool:
        return self.hp[seat] > 0

    def living(self) -> list[int]:
        return [s for s in range(self.game.players) if self.hp[s] > 0]

    def team(self, seat: int) -> int:
        return self.game.team_of[seat]

    # -- Setup ----------------------------------------------------------------------------

    def _setup(self) -> None:
        self._derive()
        n = self.game.players
        self.deck = [r for r, k in enumerate(self.game.counts) for _ in range(k)]
        self.rng.shuffle(self.deck)  # Setup 4: shuffle the runes into a deck
        self.discard = []
        self.hp = [START_HP] * n     # Setup 5
        self.hands = [[] for _ in range(n)]
        self.table = []
        self.ongoing = []
        self.chain = STACK.empty
        self.sequence = EFFECTS.idle
        self.played = []
        self.serial = 0
        self.turn_serial = 0
        self.turns = 0
        self.final_winners = []
        self.by_limit = False
        self.phase = "start"
        self.emit("setup", players=n, teams=[self.team(s) for s in range(n)], deck=len(self.deck))
        for seat in range(n):  # Setup 6: draw 5 in turn order (seat 0 first)
            self._draw(seat, HAND)
        self._begin_turn(0)    # Setup 7
        self._run()

    # -- drawing, hands and HP ---------------------------------------------------------------

    def _reshuffle(self) -> bool:
        """Drawing cards: with the deck empty, shuffle the discard pile into a new deck."""
        if not self.discard:
            return False
        self.deck = self.discard
        self.discard = []
        self.rng.shuffle(self.deck)
        self.emit("reshuffled", cards=len(self.deck))
        return True

    def _draw(self, seat: int, count: int) -> int:
        got: list[int] = []
        for _ in range(count):
            if not self.alive(seat) or (not self.deck and not self._reshuffle()):
                break
            card = self.deck.pop()
            got.append(card)
            self._to_hand(seat, card, announce=False)
        if self.events is not None:
            self.emit("drew", seat=seat, count=len(got), wanted=count)
            if got:
                self.emit("drew_cards", to=(seat,), seat=seat, cards=[self._name(r) for r in got])
        return len(got)

    def _to_hand(self, seat: int, card: int, announce: bool = True) -> None:
        """Overdraw: each card placed into a hand already holding 10 or more costs 1 HP
        (priority 1: no card prevents it)."""
        hand = self.hands[seat]
        if not self.alive(seat):
            self.discard.append(card)
            return
        hand.append(card)
        if len(hand) > OVERDRAW_AT:
            self.emit("overdraw", seat=seat, hand=len(hand))
            self._reduce(seat, 1, rule="overdraw")

    def _reduce(self, seat: int, amount: int, rule: str) -> None:
        if amount <= 0 or not self.alive(seat):
            return
        self.hp[seat] = max(0, self.hp[seat] - amount)
        self.emit("hp", seat=seat, hp=self.hp[seat], change=-amount, why=rule)
        if self.hp[seat] == 0:
            self._defeat(seat)

    def _gain(self, seat: int, amount: int, revive: bool, why: str) -> None:
        """Changing your HP: the tracker never moves up into a higher tier unless the card says
        so. A Revive brings a Defeated player back with the HP it gives (it says so)."""
        hp = self.hp[seat]
        if hp == 0:
            if not revive:
                return
            new = min(amount, MAX_HP)
            self.emit("revived", seat=seat)
        else:
            new = min(hp + amount, tier_of(hp) * TIER)
        if new != hp:
            self.hp[seat] = new
            self.emit("hp", seat=seat, hp=new, change=new - hp, why=why)

    def _prevented(self, seat: int, src: Resolving | Source) -> bool:
        """Rule priority 4 gives preventative effects the edge (Defend's ward, Absorb); priority 2:
        an (immune) rune ignores them, unless the preventing rune is (immune) and newer."""
        for o in self.ongoing:
            if (seat in o["affects"] and self.runes[o["as"]].holds("ward")
                    and (not src.immune or (o["immune"] and o["serial"] > src.serial))):
                return True
        return False

    def _lose_hp(self, seat: int, amount: int, src: Resolving | Source) -> None:
        if not self.alive(seat):
            return
        ab = src.absorb
        if ab and ab[0] == seat and (not src.immune or (ab[2] and ab[1] > src.serial)):
            self.emit("absorbed", seat=seat, amount=amount)
            self._gain(seat, amount, False, why=self._name(src.rune))
            return
        if self._prevented(seat, src):
            self.emit("prevented", seat=seat, amount=amount, card=self._name(src.rune))
            return
        self._reduce(seat, amount, rule=self._name(src.rune))

    def _lack(self, seat: int, missing: int) -> None:
        """Underdraw: 1 HP for each card you must produce but lack (priority 1)."""
        if missing > 0 and self.alive(seat):
            self.emit("underdraw", seat=seat, missing=missing)
            self._reduce(seat, missing, rule="underdraw")

    # -- defeat and victory ----------------------------------------------------------------

    def _defeat(self, seat: int) -> None:
        """If you're Defeated: discard your hand, the cards you played this turn and every card
        affecting you (without resolving them); flip the tracker."""
        self.emit("defeated", seat=seat, hand=self._names(self.hands[seat]))
        self.discard.extend(self.hands[seat])
        self.hands[seat] = []
        keep = []
        for e in self.table:
            (self.discard.append(e[0]) if e[1] == seat else keep.append(e))
        self.table = keep
        still = []
        for o in self.ongoing:
            if o["owner"] == seat and o["serial"] >= self.turn_serial:
                o["affects"] = []
            elif seat in o["affects"]:
                o["affects"] = [s for s in o["affects"] if s != seat]
            if o["affects"] or o["pending"]:
                still.append(o)
            else:
                self.discard.append(o["rune"])
        self.ongoing = still
        self._check_victory()

    def _check_victory(self) -> None:
        sides = {self.team(s) for s in self.living()}
        if len(sides) <= 1 and not self.is_over:
            self._end([s for s in range(self.game.players) if self.team(s) in sides])

    def _end(self, winners: list[int]) -> None:
        self.final_winners = winners
        self.is_over = True
        self.pending = []
        self.chain = STACK.empty  # nothing resolves after the game is over (the cards stay where they are)
        self.emit("game_over", winners=winners, hp=list(self.hp), by_limit=self.by_limit)

    # -- the phase machine -------------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        if self.turns >= self.game.options.turn_limit:
            # Our bound (the rulebook has none): the side with the most HP wins; ties share.
            self.by_limit = True
            sides: dict[int, int] = {}
            for s in self.living():
                sides[self.team(s)] = sides.get(self.team(s), 0) + self.hp[s]
            best = max(sides.values())
            self._end([s for s in range(self.game.players) if sides.get(self.team(s)) == best])
            return
        self.turn = seat
        self.turns += 1
        self.turn_serial = self.serial
        self.played = []
        self.phase = "start"
        self.emit("turn", seat=seat, number=self.turns)

    def _run(self) -> None:
        """Advance until a decision is pending or the game is over. An effect sequence under way
        goes first; when it is over the core calls `effects_done`, which comes back here."""
        while not self.is_over and not self.pending:
            if self.sequence.work:
                EFFECTS.run(self)
                return
            if self.chain.items:
                self._step_frame()
                continue
            phase = self.phase
            seat = self.turn
            if not self.alive(seat) and phase != "end":
                self.phase = "end"  # Defeated on your own turn: the turn is over
                continue
            if phase == "start":
                # Start of Turn 1: every (ongoing) rune affecting you triggers, in the order you choose.
                EFFECTS.happen(self, GameEvent(TURN_START, seat))
                return
            if phase == "mulligan":
                # Start of Turn 2: only a hand without Action cards may mulligan.
                if any(self.runes[r].kind == "action" for r in self.hands[seat]):
                    self.phase = "action"
                else:
                    self.pending.append(Mulligan(seat))
            elif phase == "action":
                self.pending.append(ActionPhase(seat))
            elif phase == "recovery":
                if self.hands[seat]:
                    self.pending.append(Recovery(seat))
                else:  # nothing to discard: no question (the hand's size is public)
                    self._recover(seat)
            else:
                self._end_of_turn()

    # -- the effect layer's hooks (EffectHost, ToldHost, ChoosingHost) -------------------------------

    def abilities(self, event: GameEvent) -> list[Ability]:
        """Start of Turn 1: every (ongoing) rune affecting the player whose turn starts triggers (and
        then stops affecting them). Nothing else in Zun answers an event."""
        if event.kind != TURN_START or not self.ongoing:
            return []
        seat = event.seat
        return [Ability(o["serial"], 0, seat, TURN_START, self._at_start(o), Context(o["owner"], o["serial"], (seat,)),
                        optional=False)
                for o in self.ongoing if seat in o["affects"]]

    def event_of(self, effect: Effect, context: Context) -> GameEvent:
        return GameEvent(effect.verb, context.controller, context.source, context.targets[0] if context.targets else -1)

    def turn_order(self) -> list[int]:
        n = self.game.players
        return [(self.turn + k) % n for k in range(n)]

    def effects_done(self) -> None:
        """An effect sequence is over: after the Start of Turn triggers comes the mulligan."""
        if self.phase == "start":
            self.phase = "mulligan"
        self._run()

    def card_name(self, card: int) -> str:
        """An (ongoing) rune in play, known by its serial."""
        return self._name(self._ongoing(card)["rune"])

    def effect_actions(self) -> EffectActions:
        return NO_ACTIONS

    def trigger_action(self, ability: Ability) -> Action:
        """Copies of one rune are one choice (the oldest of them triggers first): the action names the rune."""
        return self.game.space.trigger[self._ongoing(ability.card)["rune"]]

    # -- the reaction window's hooks (StagedStackHost) ------------------------------------------------

    def responses(self, seat: int) -> list[Action]:
        return reactions(self, seat)

    def respond(self, seat: int, action: Action) -> None:
        self._react(seat, action.card)  # type: ignore[attr-defined]
        self._run()

    def pass_action(self) -> Action:
        return self.game.space.no_reaction

    def next_priority(self, seat: int) -> int:
        return seat  # the window is the targeted player's (`_step_frame` opens it)

    def priority_question(self, seat: int) -> str:
        return f"may play a Reaction to {self.rune_words(seat)}, or not"

    def priority_refusal(self, seat: int, action: Action) -> str:
        rune = getattr(action, "card", -1)
        if action in self.game.space.react.values() and rune not in self.hands[seat]:
            return f"seat {seat} holds no {self._name(rune)}; legal now: {legal_now(self)}"
        kind = kind_refusal(action) if isinstance(action, ZunAction) and action.kind != Kind.REACT else None
        if kind is not None:  # an Action or a modifier of the hand: when its kind is played
            return kind
        window = self.decision  # the reaction window that refuses it
        assert window is not None
        return f"{action.text!r} is not possible now: {window.describe(self)}; legal now: {legal_now(self)}"

    def priority_passed(self, seat: int) -> None:
        self._run()  # no Reaction: the Action resolves on this target (its stage is `resolve`)

    def _ongoing(self, serial: int) -> dict[str, Any]:
        for o in self.ongoing:
            if o["serial"] == serial:
                return o
        raise KeyError(serial)

    def _at_start(self, o: dict[str, Any]) -> tuple[Effect, ...]:
        """What an (ongoing) rune does at the start of the affected player's turn: a Mimic that
        copied an (ongoing) Action does what that Action does (as its statuses do)."""
        rune: Rune = self.runes[o["as"]]
        return rune.at_start

    def ability_used(self, a: Ability) -> None:
        """An (ongoing) rune triggers; it stays in play until its effects are over."""
        o = self._ongoing(a.card)
        o["pending"] += 1
        self.emit("triggered", seat=self.turn, card=self._name(o["rune"]))

    def ability_finished(self, a: Ability) -> None:
        """Its effects over, the (ongoing) rune stops affecting the player; affecting nobody, it is
        discarded ("Discarded at the start of the affected player's next turn")."""
        o = next((o for o in self.ongoing if o["serial"] == a.card), None)
        if o is None:
            return
        o["pending"] -= 1
        seat = a.context.targets[0]
        if seat in o["affects"]:
            o["affects"].remove(seat)
        if not o["affects"] and not o["pending"]:
            self.ongoing.remove(o)
            self.discard.append(o["rune"])
            self.emit("expired", card=self._name(o["rune"]))

    def _recover(self, seat: int) -> None:
        """Recovery 2: below 5 cards, draw until you have 5."""
        self._draw(seat, max(0, HAND - len(self.hands[seat])))
        self.phase = "end"

    def _end_of_turn(self) -> None:
        """End of Turn 1: modified with Reserve, a rune returns to its player's hand; 2: every
        other card played this turn is discarded (ongoing ones stay in play)."""
        self.chain = STACK.empty
        for e in list(self.table):
            if e[2] and e in self.table:
                self.table.remove(e)
                self.emit("reserved", seat=e[1], card=self._name(e[0]))
                self._to_hand(e[1], e[0])
                if self.is_over:
                    return
        for e in self.table:
            self.discard.append(e[0])
        self.table = []
        self.played = []
        n = self.game.players
        nxt = (self.turn + 1) % n
        while not self.alive(nxt):
            nxt = (nxt + 1) % n
        self._begin_turn(nxt)

    # -- runes being resolved (items of the response stack) -------------------------------------

    def top(self) -> Resolving:
        """The rune being resolved now."""
        f: Resolving = self.chain.items[-1]  # type: ignore[assignment]
        return f

    def rune_words(self, seat: int, item: StackItem | None = None) -> str:
        """The rune being resolved (or `item`), as a question to `seat` names it: "their Fireball"
        when it is theirs, "seat 2's Mimic (as Fireball)"; an ongoing rune's trigger under way comes
        before the runes on the stack, as in the observation's `resolving`."""
        rune, copy, player = -1, -1, -1
        if item is None:
            finishing = [w for w in self.sequence.work if isinstance(w, Finish)]
            if finishing:
                o = self._ongoing(finishing[-1].ability.card)
                rune, copy, player = o["rune"], o["as"], o["owner"]
            elif self.chain.items:
                item = self.chain.items[-1]
        if item is not None:
            f: Resolving = item  # type: ignore[assignment]
            rune, copy, player = f.rune, f.copy, f.controller
        if rune < 0:
            return "the rune"
        words = self._name(rune) + (f" (as {self._name(copy)})" if copy >= 0 and copy != rune else "")
        owner = "their" if player == seat else f"seat {player}'s"
        return f"{owner} {words}"

    def _set(self, f: Resolving, **changes: Any) -> Resolving:
        """The progress of `f`, the top rune (changed in place: it belongs to this state)."""
        new: Resolving = STACK.change_top(self, **changes)
        return new

    def source(self, serial: int) -> Resolving | Source:
        """The rune an effect comes from: being resolved (its stack item), or an (ongoing) rune
        that triggered. Either tells its rune, serial, boosts, (immune) and any Absorb."""
        for f in reversed(self.chain.items):
            if f.card == serial:
                return f  # type: ignore[return-value]
        o = self._ongoing(serial)
        return Source(o["rune"], serial, o["boosts"], o["immune"])

    def _in_play(self, serial: int) -> bool:
        """The rune is still on the table (or in play as an (ongoing) rune)."""
        for e in self.table:
            if e[3] == serial:
                return True
        for o in self.ongoing:
            if o["serial"] == serial:
                return True
        return False

    def candidates(self, rune: Rune) -> list[int]:
        """Players a rune may target: living ones (you may target yourself); a rune that
        revives may also target the Defeated."""
        n = self.game.players
        return list(range(n)) if rune.revives else self.living()

    def _step_frame(self) -> None:
        """Take the rune being resolved through its stages until a player must decide, its
        effects start, or it is done. Its record changes in place (a stack item belongs to this
        state: cardtable/core/effects/, `StackItem`); `stage` is written before a decision or an
        effect can read it."""
        while True:  # once more after effects that are over at once (what `_run` would do next)
            f: Resolving = self.chain.items[-1]  # type: ignore[assignment]
            stage = f.stage
            if stage == "applied":  # its effects are over on this target
                if f.kind == "action" and f.copy >= 0 and self.runes[f.copy].ongoing and self.alive(f.cur):
                    self._attach(f, f.cur)
                stage = _next(f)
            if not self._in_play(f.card):
                self._close(discarded=True)  # its card was discarded (its player was Defeated)
                return
            rune = self.runes[f.rune]
            copy = self.runes[f.copy] if f.copy >= 0 else None
            all_players = copy is not None and copy.all_players and f.kind == "action"
            while True:
                if stage == "modify":
                    if f.kind == "action" and not all_players:
                        stage = "declare"  # modifiers are offered with the first target (Action Phase 3-4)
                        continue
                    f.stage = stage
                    if not rune.charms:
                        self._done_modifying()  # nothing can modify it (its charms are printed: no secret)
                    else:
                        self.pending.append(Modify(f.controller))
                    return
                if stage == "declare":
                    if all_players:
                        f.targets = tuple(self._round_from(f.controller))
                        stage = "window"
                    elif len(f.targets) < 1 + f.shares:
                        f.stage = stage
                        self.pending.append(DeclareTarget(f.controller))
                        return
                    else:
                        stage = "blame" if f.blames else "window"
                elif stage == "blame":
                    if f.actor == f.controller:
                        f.stage = stage
                        self.pending.append(ChooseBlamed(f.controller))
                        return
                    stage = "window"
                elif stage == "window":
                    i = f.i
                    if i >= len(f.targets):
                        STACK.pop(self)  # resolved on every target
                        return
                    cur = f.cur
                    if cur < 0:
                        cur = f.cur = f.targets[i]
                    used = copy or rune  # a Mimic with nothing to copy still targets (and does nothing)
                    if not self.alive(cur) and not used.revives:
                        _next(f)  # the target was Defeated meanwhile
                        continue
                    stage = "resolve"
                    if not rune.forced and not all_players:
                        f.stage = stage
                        STACK.window(self, cur)  # Action Phase 5: the target may react
                        return
                elif stage == "resolve":
                    if f.countered:  # a Cancel answered it: "The Action has no effect on you"
                        self.emit("fizzled", seat=f.cur, card=self._name(f.rune))
                        stage = _next(f)
                    else:
                        stage = "effects"
                elif copy is None:  # effects, of nothing
                    stage = _next(f)
                else:  # effects: one effect sequence on this target (the turn goes on from `applied`)
                    f.stage = "applied"
                    if not EFFECTS.carry_out(self, copy.effects, Context(f.controller, f.card, (f.cur,))):
                        return  # a player decides first, or the game is over
                    break  # the effects are over at once: on to the next target, in this call

    def _round_from(self, seat: int) -> list[int]:
        n = self.game.players
        return [s for k in range(n) if self.alive(s := (seat + k) % n)]

    def _attach(self, f: Resolving, seat: int) -> None:
        """An (ongoing) Action that resolved stays in play affecting its target."""
        o = next((o for o in self.ongoing if o["serial"] == f.card), None)
        if o is None:
            o = {"rune": f.rune, "as": f.copy, "owner": f.controller, "serial": f.card, "boosts": f.boosts,
                 "immune": f.immune, "affects": [], "pending": 0}
            self.ongoing.append(o)
            self.table = [e for e in self.table if e[3] != f.card]
        if seat not in o["affects"]:
            o["affects"].append(seat)

    def _close(self, discarded: bool = False) -> None:
        f = STACK.pop(self)
        if discarded:
            self.emit("canceled", card=self._name(f.rune))  # type: ignore[attr-defined]

    # -- what effects do to players (the verbs' handlers call these: verbs.py) -------------------

    def _discard_effect(self, who: int, n: int) -> None:
        """A card effect makes `who` discard `n` cards of their choice (Underdraw for what they lack)."""
        if not self.alive(who):
            return
        have = len(self.hands[who])
        self._lack(who, n - have)
        if self.alive(who) and min(n, have) > 0 and not self.is_over:
            self.pending.append(ChooseDiscard(who, min(n, have)))

    def _steal(self, thief: int, who: int, n: int) -> None:
        hand = self.hands[who]
        took = []
        for _ in range(min(n, len(hand))):
            took.append(hand.pop(self.rng.below(len(hand))))
        if took:
            self.emit("stole", seat=thief, target=who, count=len(took))
            self.emit("stolen_cards", to=tuple(sorted({thief, who})), seat=thief, target=who, cards=self._names(took))
        for card in took:
            self._to_hand(thief, card)
        self._lack(who, n - len(took))

    def _banish(self, who: int) -> None:
        """Every (ongoing) rune affecting `who` is discarded (one triggering now finishes first)."""
        keep = []
        for o in self.ongoing:
            if who in o["affects"] and not o["pending"]:
                o["affects"].remove(who)
                self.emit("banished", seat=who, card=self._name(o["rune"]))
            if o["affects"] or o["pending"]:
                keep.append(o)
            else:
                self.discard.append(o["rune"])
        self.ongoing = keep

    # -- Action Phase: plays, modifiers and reactions (the decisions' actions) -------------------

    def _put(self, seat: int, r: int) -> int:
        """A rune from `seat`'s hand goes on the table; its serial."""
        self.hands[seat].remove(r)
        self.serial += 1
        self.table.append([r, seat, 0, self.serial])
        return self.serial

    def _play(self, seat: int, r: int) -> None:
        """Action Phase 2: the Action goes on the table; Mimic takes the effects of the last
        other Action played this turn."""
        serial = self._put(seat, r)
        rune = self.runes[r]
        copy = r
        if rune.mimics:
            copy = next((x for x in reversed(self.played) if not self.runes[x].mimics), -1)
        self.played.append(r)
        self.emit("played", seat=seat, card=rune.name, mimics=self._name(copy) if copy not in (-1, r) else None)
        immune = rune.immune or (copy >= 0 and self.runes[copy].immune)
        STACK.push(self, evolve(_PLAYED, card=serial, owner=seat, controller=seat, rune=r, copy=copy, actor=seat,
                                immune=immune))

    def _modify(self, seat: int, r: int) -> None:
        """Action Phase 3: a modifier goes next to the rune it modifies."""
        f = self.top()
        self._put(seat, r)
        modifier = self.runes[r].modifier
        assert modifier is not None
        VERBS.run(self, Context(seat, f.card), modifier)  # its verb (verbs.py, the modifiers)
        self.emit("modified", seat=seat, card=self._name(f.rune), modifier=self._name(r))

    def _done_modifying(self) -> None:
        f = self.top()
        if f.kind == "action":
            self._set(f, stage="declare")
            return
        parent = self.chain.items[-2]
        assert isinstance(parent, Resolving)
        rune = self.runes[f.rune]
        if rune.target == "actor":  # the Reaction targets the Action's player (or whom Blame names)
            self._set(f, targets=(parent.actor,), stage="window")
            return
        self._answer(f, rune.answer_verb)

    def _answer(self, f: Resolving, answer: str) -> None:
        """A Reaction answering the Action it reacts to (its verb is an answer: verbs.py)."""
        if answer == "redirect":
            self.pending.append(ChooseRedirect(f.controller))
            return
        STACK.pop(self)
        parent = self.top()
        if answer == "cancel":
            STACK.counter(self, parent.card)
        else:  # absorb
            self._set(parent, absorb=(f.controller, f.card, int(f.immune)))

    def _react(self, seat: int, r: int) -> None:
        """Action Phase 5: a targeted player plays a Reaction: a response on the stack."""
        serial = self._put(seat, r)
        parent = self.top()
        self.emit("reacted", seat=seat, card=self._name(r), against=self._name(parent.rune))
        STACK.push(self, evolve(_PLAYED, card=serial, owner=seat, controller=seat, kind="reaction", rune=r, copy=r,
                                actor=seat, immune=self.runes[r].immune))

    # -- results --------------------------------------------------------------------------

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self.game.players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    # -- what a seat may know ----------------------------------------------------------------------

    def zone_visible(self, zone: Zone, owner: int | str | None, seat: int) -> bool:
        """An Exposed hand is face up: everyone sees it (so `determinize` keeps it)."""
        return super().zone_visible(zone, owner, seat) or (zone.attr == "hands" and owner in self.exposed())

    def exposed(self) -> list[int]:
        """Seats whose hand is face up (an (ongoing) rune with `expose` affects them)."""
        out: set[int] = set()
        for o in self.ongoing:
            if self.runes[o["as"]].holds("expose"):
                out.update(o["affects"])
        return sorted(out)

    def card_moves(self, seat: int) -> dict[str, list[Action]]:
        """The move that plays each rune of the hand, at every decision: any rune when discarding;
        otherwise the move of the rune's own kind, an Action (`play`), a modifier (`modify with`)
        or a Reaction (`react with`). The core's `card_status` gives each its reason from the
        decision now: a Reaction outside the reaction window, an Action while another resolves, a
        modifier that is not the rune's charm or comes after a target, each says why (the rules'
        "Playing cards")."""
        sp = self.game.space
        held = sorted(set(self.hands[seat]))
        if isinstance(self.decision, (ChooseDiscard, Recovery)):
            return {self._name(r): [sp.discard[r]] for r in held}
        by_kind = {"action": sp.play, "modifier": sp.modify, "reaction": sp.react}
        return {self._name(r): [by_kind[self.runes[r].kind][r]] for r in held}

    def resolving(self) -> list[Frame]:
        """The resolving stack as every seat sees it, bottom to top: the runes being resolved (the
        response stack), then the (ongoing) runes whose triggered effects are under way."""
        # Each named tuple made directly (`seat_view` says why).
        frames = []
        for item in self.chain.items:
            f: Resolving = item  # type: ignore[assignment]
            frames.append(tuple.__new__(Frame, (f.kind, f.rune, f.copy, f.controller, f.actor, f.targets, f.cur,
                                                f.boosts, f.shares, f.countered, f.stage)))
        for w in self.sequence.work:
            if isinstance(w, Finish):
                a = w.ability
                o = self._ongoing(a.card)
                frames.append(tuple.__new__(Frame, ("trigger", o["rune"], o["rune"], o["owner"], o["owner"],
                                                    a.context.targets, -1, o["boosts"], 0, False, "effects")))
        return frames

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.game.players
        d = self.decision
        exposed = self.exposed()
        name = self._name

        def frame_view(f: Frame) -> dict[str, Any]:
            return {"kind": f.kind, "card": name(f.card), "as": name(f.played_as) if f.played_as >= 0 else None,
                    "player": f.player, "actor": f.actor, "targets": list(f.targets),
                    "current_target": f.current_target, "boosts": f.boosts, "shares": f.shares,
                    "fizzled": f.fizzled, "stage": f.stage}

        obs: dict[str, Any] = {
            "game": "zun",
            "players": n,
            "teams": self.game.options.teams,
            "team_of": [self.team(s) for s in range(n)],
            "seat": seat,
            "turn": None if self.is_over else self.turn,
            "turn_number": self.turns,
            "turn_limit": self.game.options.turn_limit,
            "phase": self.phase,
            "current_player": self.current_player,
            "decision": None if d is None else d.view(self, seat),
            "hp": list(self.hp),
            "tiers": [tier_of(h) for h in self.hp],
            "defeated": [h == 0 for h in self.hp],
            "hand_counts": [len(h) for h in self.hands],
            "exposed_hands": {str(s): self._names(self.hands[s]) for s in exposed},
            "deck": len(self.deck),
            "discard": [name(r) for r in self.discard],
            "in_play": [{"card": name(e[0]), "player": e[1], "returns": bool(e[2])} for e in self.table],
            "ongoing": [{"card": name(o["rune"]), "as": name(o["as"]), "player": o["owner"], "affects": list(o["affects"]),
                         "boosts": o["boosts"]} for o in self.ongoing],
            "resolving": [frame_view(f) for f in self.resolving()],
            "played_this_turn": [name(r) for r in self.played],
            "is_over": self.is_over,
            "winners": self.winners(),
            "by_limit": self.by_limit,
        }
        if seat is not None:
            obs["hand"] = self._names(self.hands[seat])
            if d is not None and d.seat == seat:
                obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    def seat_view(self, seat: int | None) -> SeatView:
        """`observation(seat)`'s numbers for an encoder, without names, texts or legal actions: the
        same view (tests/rl/test_encoders.py reads it back from the dict, in every state of random
        games). A decision shows its `shown` fields, as in the dict (only a discard has one)."""
        g = self.game
        n = g.players
        d = self.decision
        hands = self.hands
        exposed = self.exposed()
        # The tuples made directly: calling a named tuple goes through its Python-level `__new__`,
        # which cost as much as the rest of seat_view (compiled).
        return tuple.__new__(SeatView, (
            n,
            seat,
            g.team_of,
            sorted(hands[seat]) if seat is not None else [],
            exposed,
            [sorted(hands[s]) for s in exposed],
            self.hp,
            [tier_of(h) for h in self.hp],
            [len(h) for h in hands],
            len(self.deck),
            self.discard,
            None if self.is_over else self.turn,
            self.turns,
            g.options.turn_limit,
            self.phase,
            None if d is None else d.kind,
            -1 if d is None else d.seat,
            d.count if isinstance(d, ChooseDiscard) else 0,
            [(e[0], e[1], bool(e[2])) for e in self.table],
            [tuple.__new__(Ongoing, (o["rune"], o["as"], o["owner"], o["affects"], o["boosts"])) for o in self.ongoing],
            self.resolving(),
            self.played,
        ))
