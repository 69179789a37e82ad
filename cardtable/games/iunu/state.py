"""IUNU rules: the state and its transitions.

Rule references are to ../shared/rules/iunu.txt (sections SETUP, GAMEPLAY, DYNASTY PHASE,
REJUVENATION PHASE, END OF THE ROUND, GAME END, VARIANTS FOR IUNU WITH 2 PLAYERS, CITIZEN
ABILITIES, AFTERLIFE CARDS) and to the IUNU part of ../shared/rules/NOTES.md. Every reading we
chose where the rulebook is silent is listed in docs/games/iunu.md.

A turn is a short pipeline: start of turn (game end trigger, Pharaoh reroll), Dynasty phase
(the card, a second card, the ability), Rejuvenation phase (Artisan discount, place, take,
refill, reveal); each choice on the way is a decision of its own. Citizen cards of one type
are identical, so hands, piles and the Forum hold type numbers, and a Dynasty is a count per type
(with a count of fed cards per type: Bread sits on a card, and all cards of a type are alike).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.actions import Action
from ...core.state import State, zero_sum_returns
from ...core.zones import Form, Hidden, Layout, Order, StateLayout, Visibility, Zone
from .cards import ARTISAN, BAKER, CITIZENS, FARMER, MERCHANT, NOBLE, NUM_TYPES, PHARAOH, PRIEST, SCRIBE, SOLDIER
from .decisions import (
    DECISIONS,
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
from .options import FORUM_SIZE, HAND_SIZE, HELIOPOLIS_START

if TYPE_CHECKING:
    from .game import Iunu

BREAD_TOKENS = 20   # NOTES.md: Bread is limited to the 20 tokens
START_DEBENS = 3    # Setup 3
MAX_BREAD = 3       # BAKER: "buy up to 3 Bread"
DEBENS_PER_VP = 3   # GAME END: "Every 3 Debens are worth one VP"
HELIOPOLIS = -1     # the dummy player's turn marker (it is not a seat)
CITIZEN_CARDS = "citizen cards"      # the groups of cards the conformance suite counts
AFTERLIFE_CARDS = "afterlife cards"


def _names(cards: list[int]) -> list[str]:
    return [CITIZENS[t] for t in sorted(cards)]


def _per_type(counts: list[int]) -> dict[str, int]:
    return {CITIZENS[t]: n for t, n in enumerate(counts) if n}


class SeatView(NamedTuple):
    """Part of `IunuState.observation(seat)` as numbers (`IunuState.seat_view`), for the RL hot path
    (cardtable/games/iunu/encoder.py); each field names the dict entry it stands for. Citizen types
    index `CITIZENS`, Afterlife cards `game.afterlife_names`; -1 (0 for a count) stands for an
    absent entry. Per-seat lists are in seat order (`"dynasties"`), per-type lists have `NUM_TYPES`
    counts (the dict's `{name: count}` of the types it holds). Lists may be the state's own:
    read them at once, never change or keep them."""

    players: int                 # "players"
    seat: int | None             # "seat"
    hand: list[int]              # "hand", sorted by type (empty for a spectator)
    scribed: list[int]           # "scribed", sorted by type (empty for a spectator)
    afterlife: int               # "afterlife" (-1: none, or a spectator)
    forum: list[int]             # "forum", oldest first
    dice: list[int]              # "dice" (0: removed from play, None in the dict)
    deck: int                    # "deck"
    afterlife_deck: int          # "afterlife_deck"
    bread_supply: int            # "bread_supply"
    removed: list[int]           # "removed", sorted by type
    dynasty: list[list[int]]     # "dynasties"[s]["dynasty"], per type
    fed: list[list[int]]         # "dynasties"[s]["fed"], per type
    debens: list[int]            # "dynasties"[s]["debens"]
    hand_size: list[int]         # "dynasties"[s]["hand_size"]
    scribe_cards: list[int]      # "dynasties"[s]["scribe_cards"]
    has_afterlife: list[bool]    # "dynasties"[s]["has_afterlife"]
    round: int                   # "round"
    starter: int                 # "starter"
    turn: int | None             # "turn": a seat, HELIOPOLIS for "heliopolis", None once over
    final_turns: bool            # "final_turns"
    decision: str | None         # "decision"["kind"]
    decision_seat: int           # "decision"["seat"] (-1 without a decision)
    citizen: int                 # "decision"["citizen"]
    price: int                   # "decision"["price"] (Bake), the next six likewise (0: absent)
    baked: int
    least: int                   # (Artisan)
    most: int
    remaining: int               # (Place, Take)
    die: int                     # (Priest's keep: the die, 1-3, and the cards drawn)
    drawn_count: int
    thief: int                   # "decision"["thief"] (Tribute)
    drawn: list[int]             # "decision"["drawn"], sorted: only in `seat`'s own priest_keep
    fresh: int                   # "decision"["fresh"] (Take: the last Forum cards, just placed)
    heliopolis_dynasty: list[int] | None  # "heliopolis"["dynasty"], per type (None without Heliopolis)
    heliopolis_fed: list[int] | None      # "heliopolis"["fed"]
    heliopolis_afterlife: int             # "heliopolis"["afterlife"]


class IunuState(State):
    # SETUP: the Citizen deck (face down), the Forum (face up), the hands; each competitor's Dynasty
    # (face up; a count per type, as a Citizen type's cards are alike); the cards under a Scribe
    # (face down, revealed at GAME END); Rise of Aten's cards removed from the game. The Afterlife
    # deck and the cards returned to the box (face down), and each competitor's Afterlife card, face
    # down under its Priests until GAME END (Heliopolis' is face up: `zone_visible`).
    layout = StateLayout(
        zones=(
            Zone("deck", Visibility.HIDDEN, Order.PILE, group=CITIZEN_CARDS),
            Zone("forum", Visibility.PUBLIC, Order.PILE, group=CITIZEN_CARDS),
            Zone("hands", Visibility.OWNER, Order.SET, Layout.PER_SEAT, group=CITIZEN_CARDS),
            Zone("dynasty", Visibility.PUBLIC, Order.SET, Layout.PER_SEAT, Form.COUNTS, group=CITIZEN_CARDS),
            Zone("scribed", Visibility.OWNER, Order.SET, Layout.PER_SEAT, group=CITIZEN_CARDS,
                 revealed_when_over=True),
            Zone("removed", Visibility.PUBLIC, Order.SET, group=CITIZEN_CARDS),
            Zone("afterlife_deck", Visibility.HIDDEN, Order.PILE, group=AFTERLIFE_CARDS),
            Zone("afterlife_box", Visibility.HIDDEN, Order.SET, group=AFTERLIFE_CARDS),
            Zone("held", Visibility.OWNER, form=Form.SLOT, group=AFTERLIFE_CARDS, revealed_when_over=True),
        ),
        values=("bread", "round", "starter", "k", "turn", "ending"),
        lists=("debens", "dice", "final_winners"),
        nested=("fed",),
        shared=("scores",),  # made once, at GAME END, and never changed
        decisions=DECISIONS,
    )
    __slots__ = (
        "deck", "forum", "hands", "dynasty", "fed", "scribed", "debens", "bread", "dice", "afterlife_deck",
        "afterlife_box", "held", "removed", "round", "starter", "k", "turn", "ending", "scores", "final_winners",
    )

    game: Iunu
    deck: list[int]                # the Citizen deck; its top is the end of the list
    forum: list[int]               # the Forum, oldest (leftmost) first
    hands: list[list[int]]
    dynasty: list[list[int]]       # per competitor (seats, then Heliopolis), cards per type
    fed: list[list[int]]           # per competitor, cards per type with a Bread token
    scribed: list[list[int]]       # per seat, the cards under its Scribe (hidden)
    debens: list[int]
    bread: int                     # Bread tokens left in the supply
    dice: list[int]                # 0: removed from play until the next round
    afterlife_deck: list[int]      # the 5 dealt Afterlife cards not held; top is the end
    afterlife_box: list[int]       # the Afterlife cards returned to the box (Setup 2)
    held: list[int]                # per competitor, the Afterlife card held (-1: none)
    removed: list[int]             # Rise of Aten: Forum cards removed from the game
    round: int
    starter: int                   # the Starting Player of this round
    k: int                         # turns taken in this round
    turn: int                      # whose turn (HELIOPOLIS for the dummy player)
    ending: bool                   # GAME END triggered: the rest of the round is Dynasty-only
    scores: list[dict[str, int]]   # the score table, once over
    final_winners: list[int]

    # -- setup (SETUP) ---------------------------------------------------------------------

    def _setup(self) -> None:
        g = self.game
        n = g.players
        cs = g.cards
        self.deck = [t for t, c in enumerate(cs.citizens) for _ in range(c.cards)]
        self.rng.shuffle(self.deck)  # Setup 1
        afterlife = list(range(len(cs.afterlife)))
        self.rng.shuffle(afterlife)  # Setup 2: 5 dealt face down, the rest to the box
        self.afterlife_deck = afterlife[:5]
        self.afterlife_box = afterlife[5:]
        self.debens = [START_DEBENS] * n  # Setup 3
        self.bread = BREAD_TOKENS
        self.hands = [[self.deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]  # Setup 4
        self.forum = [self.deck.pop() for _ in range(FORUM_SIZE)]
        competitors = n + (1 if g.heliopolis else 0)
        self.dynasty = [[0] * NUM_TYPES for _ in range(competitors)]
        self.fed = [[0] * NUM_TYPES for _ in range(competitors)]
        self.held = [-1] * competitors
        self.scribed = [[] for _ in range(n)]
        self.removed = []
        if g.heliopolis:  # Memphis and Thebes, Setup: 4 cards face up for Heliopolis
            for _ in range(HELIOPOLIS_START):
                self.dynasty[n][self.deck.pop()] += 1
        self.round = 0
        self.ending = False
        self.scores = []
        self.final_winners = []
        self.pending = []
        self.emit("setup", forum=_names(self.forum), heliopolis=_per_type(self.dynasty[n]) if g.heliopolis else None)
        for seat in range(n):
            self.emit("dealt", to=(seat,), seat=seat, cards=_names(self.hands[seat]))
        # Setup 5: the table picks the Starting Player; cardtable seats them at seat 0.
        self._start_round(0)

    # -- rounds and turns (GAMEPLAY, END OF THE ROUND) ---------------------------------------------

    def _start_round(self, starter: int) -> None:
        self.round += 1
        self.starter = starter
        self.k = 0
        self.dice = [self.rng.below(4) + 1 for _ in range(3)]
        rolled = list(self.dice)
        if self.game.variant != "standard":
            # Both 2-player variants, "Starting the round": each die is reduced by 1; 0 leaves play.
            self.dice = [v - 1 for v in self.dice]
        self.emit("round_started", round=self.round, starter=starter, rolled=rolled, dice=list(self.dice))
        self._begin_turn()

    def _turn_seat(self) -> int:
        n = self.game.players
        return HELIOPOLIS if self.k >= n else (self.starter + self.k) % n

    def _begin_turn(self) -> None:
        seat = self._turn_seat()
        self.turn = seat
        if not self.deck and not self.ending:
            # GAME END: "triggered when the Citizen deck is empty at the beginning of a player's turn";
            # this turn and the rest of the round are final, Dynasty-only turns.
            self.ending = True
            self.emit("game_end_triggered", seat=seat)
        if seat == HELIOPOLIS:
            self._heliopolis_turn()
            return
        self.emit("turn_started", seat=seat, final=self.ending)
        if self.dynasty[seat][PHARAOH] and any(self.dice):
            self.pending.append(PharaohReroll(seat))
            return
        self._dynasty_phase(seat)

    def _end_turn(self) -> None:
        self.k += 1
        if self.k < self.game.players + (1 if self.game.heliopolis else 0):
            self._begin_turn()
        elif self.ending:
            self._game_over()
        else:  # "the next player clockwise from the current Starting Player rolls all 3 dice"
            self._start_round((self.starter + 1) % self.game.players)

    # -- Dynasty phase ---------------------------------------------------------------------

    def _dynasty_phase(self, seat: int) -> None:
        if not self.hands[seat]:
            # Only possible when the Citizen deck is spent: nothing to play (docs: "empty hand").
            self.emit("no_card", seat=seat)
            self._rejuvenation(seat)
            return
        self.pending.append(PlayCitizen(seat))

    def _play(self, seat: int, t: int) -> None:
        self.hands[seat].remove(t)
        self.dynasty[seat][t] += 1

    def _ability(self, seat: int, t: int) -> None:
        """CITIZEN ABILITIES: used once, however many cards were played; each is optional."""
        if t == SCRIBE:
            if self.debens[seat] >= 1 and self.hands[seat]:
                self.pending.append(ScribeTuck(seat))
                return
        elif t == NOBLE:
            if any(self.dice):
                self.pending.append(UseAbility(seat, t))
                return
        elif t == MERCHANT:
            self.pending.append(UseAbility(seat, t))
            return
        elif t == PRIEST:
            if self._priest_dice(seat):
                self.pending.append(PriestDie(seat))
                return
        elif t == SOLDIER:
            if self._victims(seat):
                self.pending.append(SoldierSteal(seat))
                return
        elif t == BAKER:
            price = self._bread_price(seat)
            if self._bread_targets(seat, price, 0):
                self.pending.append(Bake(seat, price, 0))
                return
        # Pharaoh, Artisan and Farmer: "No effect when played".
        self._rejuvenation(seat)

    def _reduce(self, die: int) -> None:
        """A die reduced below 1 is removed from play until the next round."""
        if self.dice[die] > 0:
            self.dice[die] -= 1

    def _highest_die(self) -> int:
        """The index of the die with the highest value in play (-1 when every die is removed)."""
        best = -1
        for i, v in enumerate(self.dice):
            if v > 0 and (best < 0 or v > self.dice[best]):
                best = i
        return best

    def _priest_dice(self, seat: int) -> list[int]:
        if not self.afterlife_deck:
            return []
        return [i for i, v in enumerate(self.dice) if 0 < v <= self.debens[seat]]

    def _victims(self, seat: int) -> list[int]:
        """SOLDIER: a Farmer without Bread, not guarded: each Soldier protects 2 Farmers. Heliopolis'
        Farmers cannot be taken. Protection covers unfed Farmers first (docs: "Soldier protection")."""
        out = []
        for s in range(self.game.players):
            if s == seat:
                continue
            d = self.dynasty[s]
            if d[FARMER] - self.fed[s][FARMER] > 2 * d[SOLDIER]:
                out.append(s)
        return out

    def _bread_price(self, seat: int) -> int:
        """BAKER: the highest die value showing; FARMER: 1 less per 2 Farmers; at least 1 Deben."""
        best = self._highest_die()
        high = self.dice[best] if best >= 0 else 0
        return max(1, high - self.dynasty[seat][FARMER] // 2)

    def _bread_targets(self, seat: int, price: int, baked: int) -> list[int]:
        if baked >= MAX_BREAD or self.bread <= 0 or self.debens[seat] < price:
            return []
        d, f = self.dynasty[seat], self.fed[seat]
        return [t for t in range(NUM_TYPES) if d[t] > f[t]]

    def _take_farmer(self, thief: int, victim: int) -> None:
        """SOLDIER: the victim paid no tribute, so the thief takes the Farmer."""
        self.dynasty[victim][FARMER] -= 1
        self.dynasty[thief][FARMER] += 1
        self.emit("farmer_stolen", seat=thief, victim=victim)
        self._rejuvenation(thief)

    # -- Rejuvenation phase ----------------------------------------------------------------

    def _rejuvenation(self, seat: int) -> None:
        if self.ending:  # GAME END: "the Rejuvenation Phase is skipped in these final turns"
            self._end_turn()
            return
        most = min(2, len(self.hands[seat]))
        discount = min(self.dynasty[seat][ARTISAN], self.debens[seat], most)
        if discount:
            self.pending.append(ArtisanDiscount(seat, most - discount, most))
            return
        self._place(seat, most, 0)

    def _place(self, seat: int, remaining: int, placed: int) -> None:
        if remaining:
            self.pending.append(PlaceCard(seat, remaining, placed))
            return
        # Take 1 more card than placed (3 for 2; ARTISAN), only from the cards there before, and
        # never above the 4-card hand limit.
        take = min(placed + 1, len(self.forum) - placed, HAND_SIZE - len(self.hands[seat]))
        if take > 0:
            self.pending.append(TakeCard(seat, take, placed))
            return
        self._refill(seat)

    def _refill(self, seat: int) -> None:
        hand = self.hands[seat]
        got: list[int] = []
        while len(hand) + len(got) < HAND_SIZE and self.deck:  # Rejuvenation 2 (and the exhausted-deck note)
            got.append(self.deck.pop())
        hand.extend(got)
        if self.events is not None and got:
            self.emit("drew", seat=seat, count=len(got))
            self.emit("drew_cards", to=(seat,), seat=seat, cards=_names(got))
        if self.game.variant == "rise-of-aten":
            # Rise of Aten: the oldest Forum card leaves the game and 2 new cards join on the right.
            if self.forum:
                gone = self.forum.pop(0)
                self.removed.append(gone)
                self.emit("forum_removed", card=CITIZENS[gone])
            for _ in range(2):
                self._reveal()
        else:
            self._reveal()  # Rejuvenation 3
        self._end_turn()

    def _reveal(self) -> None:
        if self.deck:
            card = self.deck.pop()
            self.forum.append(card)
            self.emit("revealed", card=CITIZENS[card])

    # -- Heliopolis (Memphis and Thebes) -----------------------------------------------------------

    def heliopolis_choice(self) -> int:
        """The Forum card Heliopolis takes: a type it controls, the one it controls most of, ties
        broken by the highest Citizen VP; else the highest Citizen VP. Equal Citizen VP (possible
        only with custom values): the higher type in the rulebook's order, Pharaoh first."""
        helio = self.dynasty[self.game.players]
        vp = self.game.citizen_vp
        types = set(self.forum)
        owned = [t for t in types if helio[t] > 0]
        if owned:
            return max(owned, key=lambda t: (helio[t], vp[t], -t))
        return max(types, key=lambda t: (vp[t], -t))

    def _heliopolis_turn(self) -> None:
        n = self.game.players
        if self.forum:  # Heliopolis Dynasty Phase
            t = self.heliopolis_choice()
            self.forum.remove(t)
            self.dynasty[n][t] += 1
            self.emit("heliopolis_took", card=CITIZENS[t])
        if not self.ending:  # Heliopolis Rejuvenation Phase: a card from the deck to the Forum
            self._reveal()
        self._end_turn()

    # -- game end and scoring (GAME END, AFTERLIFE CARDS) ------------------------------------------

    def _game_over(self) -> None:
        g = self.game
        n = g.players
        self.pending = []
        # "each card under a Scribe card is revealed and added to the matching column"
        self.emit("scribes_revealed", cards=[_names(c) for c in self.scribed])
        if g.heliopolis:
            self._heliopolis_end()
        self.scores = self.score_table()
        seats = self.scores[:n]
        best = max((s["total"], s["debens"]) for s in seats)
        # "In case of a tie, the tied player with the most Debens wins ... all tied players share the victory."
        self.final_winners = [i for i, s in enumerate(seats) if (s["total"], s["debens"]) == best]
        self.is_over = True
        self.emit("game_over", winners=list(self.final_winners), scores=[dict(s) for s in self.scores],
                  afterlife=[self.game.afterlife_names[h] if h >= 0 else None for h in self.held])

    def _heliopolis_end(self) -> None:
        """Memphis and Thebes, End of the game: 2 Bread per Baker on its highest-Bread-VP cards,
        an Afterlife card if it controls a Priest, and +1 VP per Merchant (in `score_table`)."""
        h = self.game.players
        d, f = self.dynasty[h], self.fed[h]
        tokens = min(2 * d[BAKER], self.bread)
        order = sorted(range(NUM_TYPES), key=lambda t: (-self.game.bread_vp[t], t))
        for t in order:
            while tokens and f[t] < d[t]:
                f[t] += 1
                tokens -= 1
                self.bread -= 1
        if d[PRIEST] and self.afterlife_deck:
            self.held[h] = self.afterlife_deck.pop()
        self.emit("heliopolis_end", fed=_per_type(f),
                  afterlife=self.game.afterlife_names[self.held[h]] if self.held[h] >= 0 else None)

    def columns(self, who: int) -> list[int]:
        """A competitor's Citizen cards per type, with the cards under its Scribe."""
        cols = list(self.dynasty[who])
        if who < self.game.players:
            for t in self.scribed[who]:
                cols[t] += 1
        return cols

    def _majorities(self, cols: list[list[int]]) -> list[list[int]]:
        """Per competitor, the Citizen types whose Majority it holds (`cols`: every competitor's
        `columns`)."""
        majority_of: list[list[int]] = [[] for _ in cols]
        for t in range(NUM_TYPES):
            counts = [c[t] for c in cols]
            top = max(counts)
            if top > 0 and counts.count(top) == 1:  # "Players tied for most cards do not receive any such VP"
                majority_of[counts.index(top)].append(t)
        return majority_of

    def _afterlife(self, w: int, cols: list[list[int]], majority_of: list[list[int]] | None = None) -> tuple[int, int]:
        """AFTERLIFE CARDS at GAME END: the VP `w`'s held card scores, and the Debens a VP costs
        `w` (3, or the card's). `majority_of`: `_majorities(cols)`, when already worked out."""
        g = self.game
        if self.held[w] < 0:
            return 0, DEBENS_PER_VP
        card = g.cards.afterlife[self.held[w]]
        e = card.effect
        c = cols[w]
        who = range(len(cols))
        if e == "double_majority":
            mine = (majority_of if majority_of is not None else self._majorities(cols))[w]
            return max((g.majority_vp[t] for t in mine), default=0), DEBENS_PER_VP
        if e == "sets":
            return card.vp * min(c[t] for t in card.types), DEBENS_PER_VP
        if e == "guardians":
            return (c[SOLDIER] * g.citizen_vp[SOLDIER] if c[SOLDIER] >= c[FARMER] else 0), DEBENS_PER_VP
        if e == "debens_per_vp":
            return 0, card.debens
        if e == "most_fed":
            fed_total = [sum(f) for f in self.fed]
            return (card.vp if all(fed_total[w] > fed_total[o] for o in who if o != w) else 0), DEBENS_PER_VP
        kinds = [sum(1 for x in col if x) for col in cols]  # most_types
        return (card.vp if kinds[w] > max((kinds[o] for o in who if o != w), default=-1) else 0), DEBENS_PER_VP

    def _citizen_vp(self, c: list[int]) -> int:
        vp = self.game.citizen_vp
        return sum(c[t] * vp[t] for t in range(NUM_TYPES))

    def _bread_vp(self, w: int) -> int:
        fed, vp = self.fed[w], self.game.bread_vp
        return sum(fed[t] * vp[t] for t in range(NUM_TYPES))

    def score_table(self) -> list[dict[str, int]]:
        """GAME END scoring, one row per competitor (seats in order, then Heliopolis)."""
        g = self.game
        cols = [self.columns(w) for w in range(len(self.dynasty))]
        majority_of = self._majorities(cols)
        rows = []
        for w, c in enumerate(cols):
            debens = self.debens[w] if w < g.players else 0  # Heliopolis receives no Debens
            afterlife, rate = self._afterlife(w, cols, majority_of)
            row = {
                "citizen": self._citizen_vp(c),
                "bread": self._bread_vp(w),
                "majority": sum(g.majority_vp[t] for t in majority_of[w]),
                "afterlife": afterlife,
                "merchant_bonus": c[MERCHANT] if w >= g.players else 0,
                "debens": debens,
                "deben_vp": debens // rate,
            }
            row["total"] = (row["citizen"] + row["bread"] + row["majority"] + row["afterlife"]
                            + row["merchant_bonus"] + row["deben_vp"])
            rows.append(row)
        return rows

    def dynasty_vp(self, cols: list[list[int]]) -> list[tuple[int, int]]:
        """Per seat, what `score_table` scores it besides its Majorities and its Debens (Citizen,
        Bread and Afterlife VP), and the Debens a VP costs it: the part of GAME END scoring a
        position's evaluation reads, without the rest of the table (`cols`: every competitor's
        `columns`)."""
        out = []
        for w in range(self.game.players):
            afterlife, rate = self._afterlife(w, cols)
            out.append((self._citizen_vp(cols[w]) + self._bread_vp(w) + afterlife, rate))
        return out

    def heliopolis_first(self) -> bool:
        """Memphis and Thebes: Heliopolis scored more than every player (shown, not a seat's win)."""
        if not self.is_over or not self.game.heliopolis:
            return False
        h = self.scores[self.game.players]
        return all((h["total"], 0) > (s["total"], s["debens"]) for s in self.scores[: self.game.players])

    def invariants(self) -> dict[str, int]:
        """The cards of the zones, with the Afterlife cards a Priest is looking at; the 20 Bread tokens."""
        out = super().invariants()
        d = self.decision
        if isinstance(d, PriestKeep):
            out[AFTERLIFE_CARDS] += len(d.drawn)
        out["bread"] = self.bread + sum(map(sum, self.fed))
        return out

    def zone_visible(self, zone: Zone, owner: int | str | None, seat: int) -> bool:
        # Memphis and Thebes: Heliopolis (index `players` of the per-competitor zones) holds its cards
        # face up, its Afterlife card too ("place it next to its play area, face up").
        return owner == self.game.players or super().zone_visible(zone, owner, seat)

    def hidden_outside_zones(self, seat: int) -> list[Hidden]:
        """PRIEST: the Afterlife cards another seat is looking at, held by its pending `PriestKeep`."""
        d = self.decision
        if not isinstance(d, PriestKeep) or d.seat == seat:
            return []
        return [Hidden(AFTERLIFE_CARDS, list(d.drawn), _redraw(d))]

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self.game.players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    # -- what a seat may know ------------------------------------------------------------------

    def card_moves(self, seat: int) -> dict[str, list[Action]]:
        """The move that takes each Citizen card of the hand at the decision now: the Scribe's tuck,
        REJUVENATION 1's place in the Forum, the second card of the type just played, and at every
        other decision DYNASTY PHASE's play (the core's `card_status` gives each move's verdict: at
        a decision that takes no card of the hand, the reason says what it asks instead)."""
        d = self.decision
        lookup = self.game.lookup
        moves = lookup.scribe if isinstance(d, ScribeTuck) else lookup.place if isinstance(d, PlaceCard) else lookup.play
        out: dict[str, list[Action]] = {CITIZENS[t]: [moves[t]] for t in sorted(set(self.hands[seat]))}
        if isinstance(d, SecondCard) and CITIZENS[d.citizen] in out:
            out[CITIZENS[d.citizen]] = [lookup.second]
        return out

    def observation(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        n = g.players
        d = self.decision
        names = g.afterlife_names
        over = self.is_over
        players = []
        for s in range(n):
            p: dict[str, Any] = {
                "dynasty": _per_type(self.dynasty[s]),
                "fed": _per_type(self.fed[s]),
                "debens": self.debens[s],
                "hand_size": len(self.hands[s]),
                "scribe_cards": len(self.scribed[s]),
                "has_afterlife": self.held[s] >= 0,
            }
            if over:  # revealed at game end
                p["scribed"] = _names(self.scribed[s])
                p["afterlife"] = names[self.held[s]] if self.held[s] >= 0 else None
            players.append(p)
        obs: dict[str, Any] = {
            "game": "iunu",
            "variant": g.variant,
            "players": n,
            "seat": seat,
            "round": self.round,
            "starter": self.starter,
            "turn": None if over else ("heliopolis" if self.turn == HELIOPOLIS else self.turn),
            "current_player": self.current_player,
            "decision": None if d is None else d.view(self, seat),
            "final_turns": self.ending,
            "forum": [CITIZENS[t] for t in self.forum],
            "dice": [v if v > 0 else None for v in self.dice],
            "deck": len(self.deck),
            "afterlife_deck": len(self.afterlife_deck),
            "bread_supply": self.bread,
            "dynasties": players,
            "removed": _names(self.removed),
            "heliopolis": None,
            "is_over": over,
            "winners": self.winners(),
            "scores": [dict(r) for r in self.scores] if over else None,
        }
        if g.heliopolis:
            h = self.held[n]
            obs["heliopolis"] = {"dynasty": _per_type(self.dynasty[n]), "fed": _per_type(self.fed[n]),
                                 "afterlife": names[h] if h >= 0 else None, "first": self.heliopolis_first()}
        if seat is not None:
            obs["hand"] = _names(self.hands[seat])
            obs["scribed"] = _names(self.scribed[seat])
            obs["afterlife"] = names[self.held[seat]] if self.held[seat] >= 0 else None
            if d is not None and d.seat == seat:
                obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    def seat_view(self, seat: int | None) -> SeatView:
        """`observation(seat)`'s numbers for an encoder, without names, texts or legal actions: the
        same view (tests/rl/test_encoders.py reads it back from the dict, in every state of random
        games). A decision shows its `shown` fields and its `details`, as in the dict."""
        g = self.game
        n = g.players
        d = self.decision
        kind: str | None = None
        decider = citizen = thief = -1
        price = baked = least = most = remaining = die = drawn_count = fresh = 0
        drawn: list[int] = []
        if d is not None:
            kind, decider = d.kind, d.seat
            cls = type(d)
            if cls is SecondCard or cls is UseAbility:
                citizen = d.citizen  # type: ignore[attr-defined]
            elif cls is Bake:
                price, baked = d.price, d.baked  # type: ignore[attr-defined]
            elif cls is ArtisanDiscount:
                least, most = d.least, d.most  # type: ignore[attr-defined]
            elif cls is PlaceCard:
                remaining = d.remaining  # type: ignore[attr-defined]
            elif cls is TakeCard:
                remaining, fresh = d.remaining, d.fresh  # type: ignore[attr-defined]
            elif cls is Tribute:
                thief = d.thief  # type: ignore[attr-defined]
            elif cls is PriestKeep:
                keep: PriestKeep = d  # type: ignore[assignment]
                die, drawn_count, drawn = keep.die + 1, len(keep.drawn), keep.drawn_seen_by(seat)
        # the seats' rows: all of them, but for Heliopolis' (the last), shown apart
        dynasty, fed, held = self.dynasty, self.fed, self.held
        helio_dynasty = helio_fed = None
        helio_afterlife = -1
        if g.heliopolis:
            helio_dynasty, helio_fed, helio_afterlife = dynasty[n], fed[n], held[n]
            dynasty, fed, held = dynasty[:n], fed[:n], held[:n]
        # The tuple made directly: calling SeatView(...) goes through the named tuple's Python-level
        # `__new__`, which cost more than the rest of seat_view (1.5 us of 37 fields, compiled).
        return tuple.__new__(SeatView, (
            n,
            seat,
            sorted(self.hands[seat]) if seat is not None else [],
            sorted(self.scribed[seat]) if seat is not None else [],
            held[seat] if seat is not None else -1,
            self.forum,
            self.dice,
            len(self.deck),
            len(self.afterlife_deck),
            self.bread,
            sorted(self.removed),
            dynasty,
            fed,
            self.debens,
            [len(h) for h in self.hands],
            [len(c) for c in self.scribed],
            [h >= 0 for h in held],
            self.round,
            self.starter,
            None if self.is_over else self.turn,
            self.ending,
            kind,
            decider,
            citizen,
            price,
            baked,
            least,
            most,
            remaining,
            die,
            drawn_count,
            thief,
            drawn,
            fresh,
            helio_dynasty,
            helio_fed,
            helio_afterlife,
        ))


def _redraw(keep: PriestKeep) -> Callable[[State, list[int]], None]:
    """Put resampled cards in the place of the cards a pending `PriestKeep` holds."""

    def place(new: State, cards: list[int]) -> None:
        new.pending[-1] = PriestKeep(keep.seat, keep.die, tuple(cards))

    return place
