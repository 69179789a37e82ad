"""Runes of Zun rules: the state and its transitions.

Rule references are to ../shared/rules/runes-of-zun.txt (sections "Setup", "On Your Turn"
with its four phases, "Rule Priority", "Drawing cards", "Playing cards", "Discarding cards",
Overdraw, Underdraw, "Changing your HP", "If you're Defeated", the glossary) and the Runes
of Zun part of ../shared/rules/NOTES.md. Interpretations are listed in docs/games/zun.md.

How a turn runs: `_run` drives the phase machine until a player must decide, then pushes
exactly one decision (so a defeat never leaves another seat's decision behind). Cards being
resolved are *frames* on `frames` (a stack): an Action against its declared targets, a
Reaction against the Action it answers (or against the Action's player), or an (ongoing)
rune's start-of-turn trigger. A frame goes through its stages — modify, declare, blame, then
for each target: reaction window, resolve, effects — and effects are run by one handler per
verb (`_VERB_HANDLERS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.state import State, zero_sum_returns
from ...core.zones import Form, Layout, Order, StateLayout, Visibility, Zone
from .decisions import (
    DECISIONS,
    ActionPhase,
    ChooseBlamed,
    ChooseDiscard,
    ChooseRedirect,
    DeclareTarget,
    Modify,
    Mulligan,
    OrderTriggers,
    ReactionWindow,
    Recovery,
)
from .options import HAND, START_HP
from .runes import Rune
from .verbs import amount_of

if TYPE_CHECKING:
    from .game import Zun

OVERDRAW_AT = 10   # Overdraw: "When you have 10 cards in your hand ... each additional card"
MAX_HP = 12
TIER = 4           # tiers 1-4, 5-8, 9-12


def tier_of(hp: int) -> int:
    """0 when Defeated, else 1 (1-4), 2 (5-8) or 3 (9-12)."""
    return 0 if hp <= 0 else (min(hp, MAX_HP) - 1) // TIER + 1


Frame = dict[str, Any]


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
        lists=("hp", "played", "triggers", "final_winners"),
        records=("frames",),
        decisions=DECISIONS,
    )
    __slots__ = (
        "hp", "hands", "deck", "discard", "table", "ongoing", "frames", "played", "turn", "turns",
        "phase", "triggers", "serial", "turn_serial", "final_winners", "by_limit",
    )

    game: Zun
    hp: list[int]
    hands: list[list[int]]
    deck: list[int]                # top of the deck is the end of the list
    discard: list[int]
    table: list[list[int]]         # cards played this turn: [rune, owner, returns (Reserve), serial]
    ongoing: list[dict[str, Any]]  # (ongoing) runes in play: rune, as, owner, serial, boosts, immune, affects
    frames: list[Frame]            # runes being resolved (a stack)
    played: list[int]              # Actions played this turn (Mimic), as runes whose effects they used
    turn: int
    turns: int                     # turns begun so far
    phase: str                     # start, mulligan, action, recovery, end
    triggers: list[int]            # serials of (ongoing) runes still to trigger this Start of Turn
    serial: int                    # play order: newer cards have higher serials (immune: newer wins)
    turn_serial: int               # first serial of this turn ("cards you played this turn")
    final_winners: list[int]
    by_limit: bool

    # -- helpers ------------------------------------------------------------------------

    @property
    def runes(self) -> tuple[Rune, ...]:
        return self.game.rune_set.runes

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
        n = self.game.players
        self.deck = [r for r, k in enumerate(self.game.counts) for _ in range(k)]
        self.rng.shuffle(self.deck)  # Setup 4: shuffle the runes into a deck
        self.discard = []
        self.hp = [START_HP] * n     # Setup 5
        self.hands = [[] for _ in range(n)]
        self.table = []
        self.ongoing = []
        self.frames = []
        self.played = []
        self.triggers = []
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

    def _prevented(self, seat: int, f: Frame) -> bool:
        """Rule priority 4 gives preventative effects the edge (Defend's ward, Absorb); priority 2:
        an (immune) rune ignores them, unless the preventing rune is (immune) and newer."""
        immune, serial = f["immune"], f["serial"]
        for o in self.ongoing:
            if (seat in o["affects"] and "ward" in self.runes[o["as"]].statuses()
                    and (not immune or (o["immune"] and o["serial"] > serial))):
                return True
        return False

    def _lose_hp(self, seat: int, amount: int, f: Frame) -> None:
        if not self.alive(seat):
            return
        ab = f["absorb"]
        if ab and ab[0] == seat and (not f["immune"] or (ab[2] and ab[1] > f["serial"])):
            self.emit("absorbed", seat=seat, amount=amount)
            self._gain(seat, amount, False, why=self._name(f["rune"]))
            return
        if self._prevented(seat, f):
            self.emit("prevented", seat=seat, amount=amount, card=self._name(f["rune"]))
            return
        self._reduce(seat, amount, rule=self._name(f["rune"]))

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
        self.triggers = [t for t in self.triggers if any(o["serial"] == t for o in self.ongoing)]
        self._check_victory()

    def _check_victory(self) -> None:
        sides = {self.team(s) for s in self.living()}
        if len(sides) <= 1 and not self.is_over:
            self._end([s for s in range(self.game.players) if self.team(s) in sides])

    def _end(self, winners: list[int]) -> None:
        self.final_winners = winners
        self.is_over = True
        self.pending = []
        self.frames = []  # nothing resolves after the game is over (the cards stay where they are)
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
        # Start of Turn 1: every (ongoing) rune affecting you triggers, in the order you choose.
        self.triggers = [o["serial"] for o in self.ongoing if seat in o["affects"]]
        self.emit("turn", seat=seat, number=self.turns)

    def _run(self) -> None:
        """Advance until a decision is pending or the game is over."""
        while not self.is_over and not self.pending:
            if self.frames:
                self._step_frame()
                continue
            phase = self.phase
            seat = self.turn
            if not self.alive(seat) and phase != "end":
                self.phase = "end"  # Defeated on your own turn: the turn is over
                continue
            if phase == "start":
                if not self.triggers:
                    self.phase = "mulligan"
                elif len({self._ongoing(t)["rune"] for t in self.triggers}) > 1:
                    self.pending.append(OrderTriggers(seat))
                else:
                    self._fire(self.triggers[0])
            elif phase == "mulligan":
                # Start of Turn 2: only a hand without Action cards may mulligan.
                if any(self.runes[r].kind == "action" for r in self.hands[seat]):
                    self.phase = "action"
                else:
                    self.pending.append(Mulligan(seat))
            elif phase == "action":
                self.pending.append(ActionPhase(seat))
            elif phase == "recovery":
                self.pending.append(Recovery(seat))
            else:
                self._end_of_turn()

    def _ongoing(self, serial: int) -> dict[str, Any]:
        for o in self.ongoing:
            if o["serial"] == serial:
                return o
        raise KeyError(serial)

    def _fire(self, serial: int) -> None:
        """An (ongoing) rune's start-of-turn trigger: its effects, then it stops affecting you."""
        self.triggers.remove(serial)
        o = self._ongoing(serial)
        o["pending"] += 1
        self.emit("triggered", seat=self.turn, card=self._name(o["rune"]))
        self.frames.append(self._frame("trigger", o["rune"], o["owner"], o["serial"], as_rune=o["as"],
                                       stage="resolve", boosts=o["boosts"], immune=o["immune"],
                                       targets=[self.turn], ongoing=serial))

    def _end_of_turn(self) -> None:
        """End of Turn 1: modified with Reserve, a rune returns to its player's hand; 2: every
        other card played this turn is discarded (ongoing ones stay in play)."""
        self.frames = []
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

    # -- frames ----------------------------------------------------------------------------

    def _frame(self, kind: str, rune: int, player: int, serial: int, **kw: Any) -> Frame:
        f: Frame = {
            "kind": kind, "rune": rune, "as": rune, "player": player, "actor": player, "serial": serial,
            "stage": "modify", "boosts": 0, "shares": 0, "blames": 0, "targets": [], "i": 0, "cur": -1,
            "eff": 0, "cancel": False, "absorb": [], "immune": self.runes[rune].immune, "ongoing": -1,
        }
        f.update(kw)
        return f

    def _in_play(self, serial: int) -> bool:
        """The frame's card is still on the table (or in play as an (ongoing) rune)."""
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
        f = self.frames[-1]
        if f["kind"] != "trigger" and not self._in_play(f["serial"]):
            self._close(f, discarded=True)  # its card was discarded (its player was Defeated)
            return
        stage = f["stage"]
        rune = self.runes[f["rune"]]
        as_rune = self.runes[f["as"]] if f["as"] >= 0 else None
        if stage == "modify":
            if f["kind"] == "action" and not (as_rune is not None and as_rune.all_players):
                f["stage"] = "declare"  # modifiers are offered with the first target (Action Phase 3-4)
            elif not rune.charms:
                self._done_modifying()  # nothing can modify it (its charms are printed: no secret)
            else:
                self.pending.append(Modify(f["player"]))
        elif stage == "declare":
            if as_rune is not None and as_rune.all_players and f["kind"] == "action":
                f["targets"] = self._round_from(f["player"])
                f["stage"] = "window"
            elif len(f["targets"]) < 1 + f["shares"]:
                self.pending.append(DeclareTarget(f["player"]))
            else:
                f["stage"] = "blame" if f["blames"] else "window"
        elif stage == "blame":
            if f["actor"] == f["player"]:
                self.pending.append(ChooseBlamed(f["player"]))
            else:
                f["stage"] = "window"
        elif stage == "window":
            if f["i"] >= len(f["targets"]):
                self._close(f)
                return
            if f["cur"] < 0:
                f["cur"] = f["targets"][f["i"]]
            cur = f["cur"]
            used = as_rune or rune  # a Mimic with nothing to copy still targets (and does nothing)
            if not self.alive(cur) and not used.revives:
                self._next_target(f)  # the target was Defeated meanwhile
                return
            f["stage"] = "resolve"
            all_players = used.all_players and f["kind"] == "action"
            if not rune.forced and not all_players and f["kind"] != "trigger":
                self.pending.append(ReactionWindow(cur))
        elif stage == "resolve":
            if f["cancel"]:
                self.emit("fizzled", seat=f["cur"], card=self._name(f["rune"]))
                self._next_target(f)
                return
            f["stage"] = "effects"
            f["eff"] = 0
        else:  # effects
            if as_rune is None:
                self._next_target(f)
                return
            effects = as_rune.at_start if f["kind"] == "trigger" else as_rune.effects
            cur = f["cur"] if f["cur"] >= 0 else f["targets"][f["i"]]
            while f["eff"] < len(effects) and not self.is_over and not self.pending:
                verb, params = effects[f["eff"]]
                f["eff"] += 1
                who = f["player"] if params.get("who") == "self" else cur
                _VERB_HANDLERS[verb](self, f, who, params)
            if self.pending or self.is_over:
                return
            if self.frames and self.frames[-1] is f and f["eff"] >= len(effects):
                if f["kind"] == "action" and as_rune.ongoing and self.alive(cur):
                    self._attach(f, cur)
                self._next_target(f)

    def _round_from(self, seat: int) -> list[int]:
        n = self.game.players
        return [s for k in range(n) if self.alive(s := (seat + k) % n)]

    def _next_target(self, f: Frame) -> None:
        f["i"] += 1
        f["cur"] = -1
        f["cancel"] = False
        f["absorb"] = []
        f["stage"] = "window"
        if f["kind"] == "trigger":
            self._close(f)

    def _attach(self, f: Frame, seat: int) -> None:
        """An (ongoing) Action that resolved stays in play affecting its target."""
        o = next((o for o in self.ongoing if o["serial"] == f["serial"]), None)
        if o is None:
            o = {"rune": f["rune"], "as": f["as"], "owner": f["player"], "serial": f["serial"], "boosts": f["boosts"],
                 "immune": f["immune"], "affects": [], "pending": 0}
            self.ongoing.append(o)
            self.table = [e for e in self.table if e[3] != f["serial"]]
        if seat not in o["affects"]:
            o["affects"].append(seat)

    def _close(self, f: Frame, discarded: bool = False) -> None:
        self.frames.pop()
        if f["kind"] == "trigger":
            o = next((o for o in self.ongoing if o["serial"] == f["ongoing"]), None)
            if o is not None:
                o["pending"] -= 1
                if f["targets"][0] in o["affects"]:
                    o["affects"].remove(f["targets"][0])
                if not o["affects"] and not o["pending"]:
                    self.ongoing.remove(o)
                    self.discard.append(o["rune"])
                    self.emit("expired", card=self._name(o["rune"]))
            return
        if discarded:
            self.emit("canceled", card=self._name(f["rune"]))

    # -- verbs: one handler each (verbs.py declares them) ----------------------------------------

    def _v_lose_hp(self, f: Frame, who: int, p: dict[str, Any]) -> None:
        self._lose_hp(who, amount_of(p, f["boosts"]), f)

    def _v_gain_hp(self, f: Frame, who: int, p: dict[str, Any]) -> None:
        self._gain(who, amount_of(p, f["boosts"]), bool(p["revive"]), why=self._name(f["rune"]))

    def _v_draw(self, f: Frame, who: int, p: dict[str, Any]) -> None:
        self._draw(who, amount_of(p, f["boosts"]))

    def _v_discard(self, f: Frame, who: int, p: dict[str, Any]) -> None:
        if not self.alive(who):
            return
        n = amount_of(p, f["boosts"])
        have = len(self.hands[who])
        self._lack(who, n - have)
        if self.alive(who) and min(n, have) > 0 and not self.is_over:
            self.pending.append(ChooseDiscard(who, min(n, have)))

    def _v_steal(self, f: Frame, who: int, p: dict[str, Any]) -> None:
        n = amount_of(p, f["boosts"])
        thief = f["player"]
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

    def _v_banish_ongoing(self, f: Frame, who: int, p: dict[str, Any]) -> None:
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
        self.triggers = [t for t in self.triggers if any(o["serial"] == t for o in keep)]

    def _v_none(self, f: Frame, who: int, p: dict[str, Any]) -> None:
        """Verbs resolved elsewhere: mimic (when played), ward and expose (statuses), reactions."""

    # -- Action Phase: plays, modifiers and reactions (the decisions' actions) -------------------

    def _play(self, seat: int, r: int) -> None:
        """Action Phase 2: the Action goes on the table; Mimic takes the effects of the last
        other Action played this turn."""
        self.hands[seat].remove(r)
        self.serial += 1
        self.table.append([r, seat, 0, self.serial])
        rune = self.runes[r]
        as_rune = r
        if any(v == "mimic" for v, _ in rune.effects):
            as_rune = next((x for x in reversed(self.played) if not any(v == "mimic" for v, _ in self.runes[x].effects)), -1)
        self.played.append(r)
        self.emit("played", seat=seat, card=rune.name, mimics=self._name(as_rune) if as_rune not in (-1, r) else None)
        f = self._frame("action", r, seat, self.serial, as_rune=-1)
        f["as"] = as_rune
        if as_rune >= 0:
            f["immune"] = rune.immune or self.runes[as_rune].immune
        self.frames.append(f)

    def _modify(self, seat: int, r: int) -> None:
        """Action Phase 3: a modifier goes next to the rune it modifies."""
        f = self.frames[-1]
        self.hands[seat].remove(r)
        self.serial += 1
        self.table.append([r, seat, 0, self.serial])
        verb = self.runes[r].modifier
        if verb == "boost":
            f["boosts"] += 1
        elif verb == "share":
            f["shares"] += 1
        elif verb == "blame":
            f["blames"] += 1
        else:  # reserve: the modified rune returns to its player's hand at the end of the turn
            for e in self.table:
                if e[3] == f["serial"]:
                    e[2] = 1
        self.emit("modified", seat=seat, card=self._name(f["rune"]), modifier=self._name(r))

    def _done_modifying(self) -> None:
        f = self.frames[-1]
        if f["kind"] == "action":
            f["stage"] = "declare"
            return
        parent = self.frames[-2]
        rune = self.runes[f["rune"]]
        if rune.target == "actor":  # the Reaction targets the Action's player (or whom Blame names)
            f["targets"] = [parent["actor"]]
            f["stage"] = "window"
            return
        verb = rune.effects[0][0]
        if verb == "redirect":
            self.pending.append(ChooseRedirect(f["player"]))
            return
        self.frames.pop()
        if verb == "cancel":
            parent["cancel"] = True
        else:  # absorb
            parent["absorb"] = [f["player"], f["serial"], f["immune"]]

    def _react(self, seat: int, r: int) -> None:
        """Action Phase 5: a targeted player plays a Reaction."""
        self.hands[seat].remove(r)
        self.serial += 1
        self.table.append([r, seat, 0, self.serial])
        parent = self.frames[-1]
        self.emit("reacted", seat=seat, card=self._name(r), against=self._name(parent["rune"]))
        f = self._frame("reaction", r, seat, self.serial)
        self.frames.append(f)

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
            if "expose" in self.runes[o["as"]].statuses():
                out.update(o["affects"])
        return sorted(out)

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.game.players
        d = self.decision
        exposed = self.exposed()
        decision: dict[str, Any] | None = None
        if d is not None:
            decision = {"kind": d.kind, "seat": d.seat}
            if isinstance(d, ChooseDiscard):
                decision["count"] = d.count
        name = self._name

        def frame_view(f: Frame) -> dict[str, Any]:
            return {"kind": f["kind"], "card": name(f["rune"]), "as": name(f["as"]) if f["as"] >= 0 else None,
                    "player": f["player"], "actor": f["actor"], "targets": list(f["targets"]),
                    "current_target": f["cur"], "boosts": f["boosts"], "shares": f["shares"],
                    "fizzled": f["cancel"], "stage": f["stage"]}

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
            "decision": decision,
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
            "resolving": [frame_view(f) for f in self.frames],
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


_VERB_HANDLERS = {
    "lose_hp": ZunState._v_lose_hp,
    "gain_hp": ZunState._v_gain_hp,
    "draw": ZunState._v_draw,
    "discard": ZunState._v_discard,
    "steal": ZunState._v_steal,
    "banish_ongoing": ZunState._v_banish_ongoing,
    "mimic": ZunState._v_none,
    "ward": ZunState._v_none,
    "expose": ZunState._v_none,
    "cancel": ZunState._v_none,
    "absorb": ZunState._v_none,
    "redirect": ZunState._v_none,
}
