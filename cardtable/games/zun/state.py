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

from ...core.actions import Action
from ...core.rng import Rng, as_rng
from ...core.state import State, zero_sum_returns
from .actions import Kind, ZunAction
from .decisions import (
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
    decision_from_json,
)
from .options import HAND, START_HP
from .runes import Rune
from .verbs import amount_of

if TYPE_CHECKING:
    from .game import Zun

OVERDRAW_AT = 10   # Overdraw: "When you have 10 cards in your hand ... each additional card"
MULLIGAN_DRAW = 3  # Start of Turn 2: "draw 3 new cards"
MAX_HP = 12
TIER = 4           # tiers 1-4, 5-8, 9-12


def tier_of(hp: int) -> int:
    """0 when Defeated, else 1 (1-4), 2 (5-8) or 3 (9-12)."""
    return 0 if hp <= 0 else (min(hp, MAX_HP) - 1) // TIER + 1


Frame = dict[str, Any]


class ZunState(State):
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

    # -- legal actions -----------------------------------------------------------------------

    def _distinct(self, cards: list[int], kind: str | None = None) -> list[int]:
        seen: list[int] = []
        for r in sorted(cards):
            if (kind is None or self.runes[r].kind == kind) and (not seen or seen[-1] != r):
                seen.append(r)
        return seen

    def _modifiers_allowed(self, f: Frame) -> list[int]:
        rune = self.runes[f["rune"]]
        hand = self.hands[f["player"]]
        out = []
        for r in self._distinct(hand, "modifier"):
            m = self.runes[r]
            if m.name not in rune.charms:
                continue
            if m.modifier == "share":
                as_rune = self.runes[f["as"]] if f["as"] >= 0 else rune
                if len(self.candidates(as_rune)) < 2 + f["shares"]:
                    continue
            out.append(r)
        return out

    def _legal_actions(self) -> list[Action]:
        d = self.pending[-1]
        sp = self.game.space
        seat = d.seat
        hand = self.hands[seat]
        kind = type(d)
        if kind is ActionPhase:
            out: list[Action] = [sp.play[r] for r in self._distinct(hand, "action")]
            out.append(sp.end_phase)
            return out
        if kind is Modify:
            f = self.frames[-1]
            return [*(sp.modify[r] for r in self._modifiers_allowed(f)), sp.done_modifying]
        if kind is DeclareTarget:
            # Action Phase 3 then 4: until the first target is declared, modifiers may still be added.
            f = self.frames[-1]
            rune = self.runes[f["as"]] if f["as"] >= 0 else self.runes[f["rune"]]
            mods: list[Action] = [] if f["targets"] else [sp.modify[r] for r in self._modifiers_allowed(f)]
            return mods + [sp.target[s] for s in self.candidates(rune) if s not in f["targets"]]
        if kind is ChooseBlamed:
            return [sp.blame[s] for s in self.living() if s != seat]
        if kind is ReactionWindow:
            out = []
            f = self.frames[-1]
            others = [s for s in self._redirect_targets(f, seat)]
            for r in self._distinct(hand, "reaction"):
                rr = self.runes[r]
                if any(v == "redirect" for v, _ in rr.effects) and not others:
                    continue
                out.append(sp.react[r])
            out.append(sp.no_reaction)
            return out
        if kind is ChooseRedirect:
            return [sp.redirect[s] for s in self._redirect_targets(self.frames[-2], seat)]
        if kind is ChooseDiscard:
            return list(sp.discard[r] for r in self._distinct(hand))
        if kind is Recovery:
            return [*(sp.discard[r] for r in self._distinct(hand)), sp.done_discarding]
        if kind is Mulligan:
            return [sp.mulligan, sp.keep]
        # OrderTriggers
        runes = sorted({self._ongoing(t)["rune"] for t in self.triggers})
        return [sp.trigger[r] for r in runes]

    def _redirect_targets(self, f: Frame, seat: int) -> list[int]:
        """Redirect: any other player the redirected rune could target."""
        rune = self.runes[f["as"]] if f["as"] >= 0 else self.runes[f["rune"]]
        return [s for s in self.candidates(rune) if s != seat]

    # -- transitions -----------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        assert isinstance(action, ZunAction)
        d = self.pending.pop()
        seat = d.seat
        k = action.kind
        if k == Kind.PLAY:
            self._play(seat, action.rune)
        elif k == Kind.END_PHASE:
            self.phase = "recovery"
        elif k == Kind.MODIFY:
            self._modify(seat, action.rune)
        elif k == Kind.DONE_MODIFYING:
            self._done_modifying()
        elif k == Kind.TARGET:
            f = self.frames[-1]
            f["targets"].append(action.seat)
            self.emit("declared", seat=seat, target=action.seat, card=self._name(f["rune"]), order=len(f["targets"]))
        elif k == Kind.BLAME:
            self.frames[-1]["actor"] = action.seat
            self.emit("blamed", seat=seat, blamed=action.seat)
            self.frames[-1]["stage"] = "window"
        elif k == Kind.REACT:
            self._react(seat, action.rune)
        elif k == Kind.NO_REACTION:
            pass
        elif k == Kind.REDIRECT:
            self.frames.pop()  # the Redirect is done; the Action now targets the chosen player
            f = self.frames[-1]
            f["cur"] = action.seat
            f["stage"] = "window"
            self.emit("redirected", seat=seat, new_target=action.seat, card=self._name(f["rune"]))
        elif k == Kind.DISCARD:
            self.hands[seat].remove(action.rune)
            self.discard.append(action.rune)
            self.emit("discarded", seat=seat, card=self._name(action.rune))
            if isinstance(d, ChooseDiscard):
                if d.count > 1 and self.hands[seat]:
                    self.pending.append(ChooseDiscard(seat, d.count - 1))
            else:
                self.pending.append(Recovery(seat))
        elif k == Kind.DONE_DISCARDING:
            # Recovery 2: below 5 cards, draw until you have 5.
            self._draw(seat, max(0, HAND - len(self.hands[seat])))
            self.phase = "end"
        elif k == Kind.MULLIGAN:
            hand = self.hands[seat]
            self.emit("mulligan", seat=seat, hand=self._names(hand))
            self.discard.extend(hand)
            self.hands[seat] = []
            self._draw(seat, MULLIGAN_DRAW)
            self.phase = "action"
        elif k == Kind.KEEP:
            self.phase = "action"
        else:  # TRIGGER: the oldest (ongoing) rune of that name affecting you
            for t in self.triggers:
                if self._ongoing(t)["rune"] == action.rune:
                    self._fire(t)
                    break
        self._run()

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

    def invariants(self) -> dict[str, int]:
        return {
            "cards": len(self.deck) + len(self.discard) + sum(len(h) for h in self.hands) + len(self.table)
            + len(self.ongoing)
        }

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self.game.players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    def _why_illegal(self, action: Action) -> str:
        assert isinstance(action, ZunAction)
        d = self.pending[-1]
        seat = d.seat
        what = _WAITING[d.kind]
        legal = ", ".join(a.text for a in self.legal_actions()[:10])
        hand = self.hands[seat]
        if action.rune >= 0 and action.kind in (Kind.PLAY, Kind.MODIFY, Kind.REACT, Kind.DISCARD):
            name = self._name(action.rune)
            if action.rune not in hand and type(d) in _USES_HAND.get(action.kind, ()):
                return f"seat {seat} holds no {name}; legal now: {legal}"
            if isinstance(d, Modify | DeclareTarget) and action.kind == Kind.MODIFY:
                if self.frames[-1]["targets"]:
                    return "modifiers go on before the targets are declared (Action Phase 3, then 4)"
                card = self.runes[self.frames[-1]["rune"]]
                if name not in card.charms:
                    charms = ", ".join(card.charms) or "none"
                    return f"{name} is not a charm of {card.name} (its legal modifiers: {charms})"
                return (f"Share adds a different target, and there are not enough players to target "
                        f"(you may not target the same player twice); legal now: {legal}")
        if isinstance(d, DeclareTarget) and action.kind == Kind.TARGET:
            f = self.frames[-1]
            if action.seat in f["targets"]:
                return f"seat {action.seat} is already a target: you may not declare the same player twice"
            if action.seat >= self.game.players:
                return f"there is no seat {action.seat} at this table"
            return f"seat {action.seat} is Defeated and cannot be targeted by {self._name(f['as'] if f['as'] >= 0 else f['rune'])}"
        return f"{action.text!r} is not possible now: seat {seat} {what}; legal now: {legal}"

    # -- what a seat may know ----------------------------------------------------------------------

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

    def determinize(self, seat: int, rng: Rng | int | None = None) -> ZunState:
        """Other hands (unless Exposed) and the deck order resampled from what `seat` cannot see."""
        r = as_rng(rng)
        new = self._clone_for_view()
        new.seed = None
        new.rng = r.spawn()
        new.history = []
        shown = set(self.exposed())
        hidden = [s for s in range(self.game.players) if s != seat and s not in shown]
        pool = list(self.deck)
        for s in hidden:
            pool.extend(self.hands[s])
        r.shuffle(pool)
        i = len(self.deck)
        new.deck = pool[:i]
        for s in hidden:
            k = len(self.hands[s])
            new.hands[s] = pool[i:i + k]
            i += k
        new._legal = None
        return new

    def clone(self) -> ZunState:
        new = ZunState.__new__(ZunState)
        self._copy_base_into(new)
        new.hp = self.hp.copy()
        new.hands = [h.copy() for h in self.hands]
        new.deck = self.deck.copy()
        new.discard = self.discard.copy()
        new.table = [e.copy() for e in self.table]
        new.ongoing = [{**o, "affects": o["affects"].copy()} for o in self.ongoing]
        new.frames = [{**f, "targets": f["targets"].copy(), "absorb": f["absorb"].copy()} for f in self.frames]
        new.played = self.played.copy()
        new.turn = self.turn
        new.turns = self.turns
        new.phase = self.phase
        new.triggers = self.triggers.copy()
        new.serial = self.serial
        new.turn_serial = self.turn_serial
        new.final_winners = self.final_winners.copy()
        new.by_limit = self.by_limit
        return new

    _FIELDS = ("hp", "hands", "deck", "discard", "table", "ongoing", "frames", "played", "turn", "turns", "phase",
               "triggers", "serial", "turn_serial", "final_winners", "by_limit")

    def _snapshot(self) -> dict[str, Any]:
        c = self.clone()
        return {f: getattr(c, f) for f in self._FIELDS}

    def _restore(self, data: dict[str, Any], pending: list[dict[str, Any]]) -> None:
        for f in self._FIELDS:
            setattr(self, f, data[f])
        self.pending = [decision_from_json(p) for p in pending]
        self._legal = None


_WAITING = {
    "order_triggers": "must choose which (ongoing) rune triggers next",
    "mulligan": "holds no Action and may mulligan (discard the hand, draw 3) or keep the hand",
    "action_phase": "may play an Action from their hand or end the Action Phase",
    "modify": "may add modifiers (the rune's charms) or be done modifying",
    "declare_target": "must declare the next target",
    "blame": "must choose whom the Blame names as the Action's player",
    "reaction": "is targeted and may play a Reaction, or not",
    "redirect": "must choose the new target of the redirected Action",
    "discard": "must discard cards of their choice",
    "recovery": "may discard any cards, then draws to 5",
}

_USES_HAND: dict[Kind, tuple[type, ...]] = {
    Kind.PLAY: (ActionPhase,), Kind.MODIFY: (Modify, DeclareTarget), Kind.REACT: (ReactionWindow,),
    Kind.DISCARD: (Recovery, ChooseDiscard),
}

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
