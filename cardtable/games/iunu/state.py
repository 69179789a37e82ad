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

from typing import TYPE_CHECKING, Any

from ...core.actions import Action
from ...core.rng import Rng, as_rng
from ...core.state import State, zero_sum_returns
from .actions import IunuAction, Kind
from .cards import ARTISAN, BAKER, CITIZENS, FARMER, MERCHANT, NOBLE, NUM_TYPES, PHARAOH, PRIEST, SCRIBE, SOLDIER
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
    decision_from_json,
)
from .options import FORUM_SIZE, HAND_SIZE, HELIOPOLIS_START

if TYPE_CHECKING:
    from .game import Iunu

BREAD_TOKENS = 20   # NOTES.md: Bread is limited to the 20 tokens
START_DEBENS = 3    # Setup 3
MAX_BREAD = 3       # BAKER: "buy up to 3 Bread"
DEBENS_PER_VP = 3   # GAME END: "Every 3 Debens are worth one VP"
HELIOPOLIS = -1     # the dummy player's turn marker (it is not a seat)


def _names(cards: list[int]) -> list[str]:
    return [CITIZENS[t] for t in sorted(cards)]


def _per_type(counts: list[int]) -> dict[str, int]:
    return {CITIZENS[t]: n for t, n in enumerate(counts) if n}


class IunuState(State):
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

    # -- legal actions ---------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        d = self.pending[-1]
        kind = type(d)
        seat = d.seat
        L = self.game.lookup
        if kind is PlayCitizen:
            return [L.play[t] for t in sorted(set(self.hands[seat]))]
        if kind is SecondCard:
            return [L.second, L.no_second]
        if kind is PharaohReroll:
            return [L.reroll[i] for i, v in enumerate(self.dice) if v > 0] + [L.keep_dice]
        if kind is UseAbility:
            return [L.use, L.skip]
        if kind is ScribeTuck:
            return [L.scribe[t] for t in sorted(set(self.hands[seat]))] + [L.skip]
        if kind is PriestDie:
            return [L.priest_die[i] for i in self._priest_dice(seat)] + [L.skip]
        if kind is PriestKeep:
            out = [L.keep_afterlife[a] for a in sorted(set(d.drawn))]  # type: ignore[attr-defined]
            if self.held[seat] >= 0:
                out.append(L.keep_current)
            return out
        if kind is SoldierSteal:
            return [L.steal[s] for s in self._victims(seat)] + [L.skip]
        if kind is Tribute:
            return [L.tribute, L.give_farmer]
        if kind is Bake:
            targets = self._bread_targets(seat, d.price, d.baked)  # type: ignore[attr-defined]
            return [L.bread[t] for t in targets] + [L.stop_baking]
        if kind is ArtisanDiscount:
            return [L.place_count[k] for k in range(d.least, d.most + 1)]  # type: ignore[attr-defined]
        if kind is PlaceCard:
            return [L.place[t] for t in sorted(set(self.hands[seat]))]
        # TakeCard: only cards that were in the Forum before this turn's placing
        old = self.forum[: len(self.forum) - d.fresh]  # type: ignore[attr-defined]
        return [L.take[t] for t in sorted(set(old))]

    # -- transitions -----------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        assert isinstance(action, IunuAction)
        d = self.pending.pop()
        seat = d.seat
        handler = _HANDLERS[type(d)]
        handler(self, d, seat, action)

    def _on_play(self, d: Any, seat: int, a: IunuAction) -> None:
        t = a.arg
        self._play(seat, t)
        self.emit("played", seat=seat, card=CITIZENS[t], count=1)
        if t in self.hands[seat] and self.debens[seat] >= 1:
            self.pending.append(SecondCard(seat, t))
            return
        self._ability(seat, t)

    def _on_second(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.SECOND:
            self.debens[seat] -= 1  # "they must first pay 1 Deben back to the common supply"
            self._play(seat, d.citizen)
            self.emit("played", seat=seat, card=CITIZENS[d.citizen], count=2)
        self._ability(seat, d.citizen)

    def _on_reroll(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.REROLL:
            old = self.dice[a.arg]
            self.dice[a.arg] = self.rng.below(4) + 1
            self.emit("rerolled", seat=seat, die=a.arg + 1, old=old, new=self.dice[a.arg])
        self._dynasty_phase(seat)

    def _on_use(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.USE:
            if d.citizen == NOBLE:
                # NOBLE: Debens equal to all dice in play, then each die down by 1.
                gain = sum(self.dice)
                self.debens[seat] += gain
                for i in range(3):
                    self._reduce(i)
                self.emit("noble", seat=seat, gained=gain, dice=list(self.dice))
            else:
                # MERCHANT: the highest die's value +1 per Merchant (including those just played).
                best = self._highest_die()
                gain = (self.dice[best] if best >= 0 else 0) + self.dynasty[seat][MERCHANT]
                self.debens[seat] += gain
                if best >= 0:
                    self._reduce(best)
                self.emit("merchant", seat=seat, gained=gain, dice=list(self.dice))
        else:
            self.emit("ability_skipped", seat=seat, card=CITIZENS[d.citizen])
        self._rejuvenation(seat)

    def _on_scribe(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.SCRIBE:
            self.debens[seat] -= 1
            self.hands[seat].remove(a.arg)
            self.scribed[seat].append(a.arg)
            self.emit("scribed", seat=seat)
            self.emit("scribed_card", to=(seat,), seat=seat, card=CITIZENS[a.arg])
            if self.deck:
                card = self.deck.pop()
                self.hands[seat].append(card)
                self.emit("drew", seat=seat, count=1)
                self.emit("drew_cards", to=(seat,), seat=seat, cards=[CITIZENS[card]])
        else:
            self.emit("ability_skipped", seat=seat, card="Scribe")
        self._rejuvenation(seat)

    def _on_priest_die(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.SKIP:
            self.emit("ability_skipped", seat=seat, card="Priest")
            self._rejuvenation(seat)
            return
        value = self.dice[a.arg]
        self.debens[seat] -= value  # "paying the value of the die in Debens"
        count = min(value, len(self.afterlife_deck))  # "up to the number of cards available"
        drawn = tuple(self.afterlife_deck.pop() for _ in range(count))
        self.emit("priest", seat=seat, die=a.arg + 1, paid=value, drew=count)
        if self.events is not None:
            self.emit("afterlife_seen", to=(seat,), seat=seat, cards=[self.game.afterlife_names[x] for x in drawn])
        self.pending.append(PriestKeep(seat, a.arg, drawn))

    def _on_priest_keep(self, d: Any, seat: int, a: IunuAction) -> None:
        back = list(d.drawn)
        if a.kind == Kind.KEEP_AFTERLIFE:
            back.remove(a.arg)
            if self.held[seat] >= 0:  # the replaced card goes back too
                back.append(self.held[seat])
            self.held[seat] = a.arg
            self.emit("afterlife_kept", seat=seat, replaced=len(back) > len(d.drawn) - 1)
            self.emit("afterlife_card", to=(seat,), seat=seat, card=self.game.afterlife_names[a.arg])
        else:
            self.emit("afterlife_kept", seat=seat, replaced=False)
        self.afterlife_deck.extend(back)
        self.rng.shuffle(self.afterlife_deck)  # "shuffled back into the Afterlife deck"
        self._reduce(d.die)
        self._rejuvenation(seat)

    def _on_steal(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.SKIP:
            self.emit("ability_skipped", seat=seat, card="Soldier")
            self._rejuvenation(seat)
            return
        victim = a.arg
        self.emit("steal", seat=seat, victim=victim)
        if self.debens[victim] >= 1:
            self.pending.append(Tribute(victim, seat))  # the victim chooses, out of turn
            return
        self._take_farmer(seat, victim)

    def _take_farmer(self, thief: int, victim: int) -> None:
        self.dynasty[victim][FARMER] -= 1
        self.dynasty[thief][FARMER] += 1
        self.emit("farmer_stolen", seat=thief, victim=victim)
        self._rejuvenation(thief)

    def _on_tribute(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.TRIBUTE:
            self.debens[seat] -= 1
            self.debens[d.thief] += 1
            self.emit("tribute", seat=seat, thief=d.thief)
            self._rejuvenation(d.thief)
            return
        self._take_farmer(d.thief, seat)

    def _on_bake(self, d: Any, seat: int, a: IunuAction) -> None:
        if a.kind == Kind.BREAD:
            self.debens[seat] -= d.price
            self.bread -= 1
            self.fed[seat][a.arg] += 1
            self.emit("bread", seat=seat, card=CITIZENS[a.arg], price=d.price)
            if self._bread_targets(seat, d.price, d.baked + 1):
                self.pending.append(Bake(seat, d.price, d.baked + 1))
                return
            baked = d.baked + 1
        else:
            baked = d.baked
        if baked:
            # "After baking bread, rotate the die with the value that was used down by one value."
            best = self._highest_die()
            if best >= 0:
                self._reduce(best)
        self.emit("baked", seat=seat, count=baked, dice=list(self.dice))
        self._rejuvenation(seat)

    def _on_artisan(self, d: Any, seat: int, a: IunuAction) -> None:
        place = a.arg
        paid = d.most - place
        self.debens[seat] -= paid
        if paid:
            self.emit("artisan", seat=seat, paid=paid, place=place)
        self._place(seat, place, 0)

    def _on_place(self, d: Any, seat: int, a: IunuAction) -> None:
        self.hands[seat].remove(a.arg)
        self.forum.append(a.arg)  # newest on the right (Rise of Aten keeps the row in this order)
        self.emit("placed", seat=seat, card=CITIZENS[a.arg])
        self._place(seat, d.remaining - 1, d.placed + 1)

    def _on_take(self, d: Any, seat: int, a: IunuAction) -> None:
        # Of several cards of the type, the oldest (leftmost) is taken.
        self.forum.remove(a.arg)
        self.hands[seat].append(a.arg)
        self.emit("took", seat=seat, card=CITIZENS[a.arg])
        if d.remaining > 1:
            old = len(self.forum) - d.fresh
            if old > 0:
                self.pending.append(TakeCard(seat, d.remaining - 1, d.fresh))
                return
        self._refill(seat)

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

    def score_table(self) -> list[dict[str, int]]:
        """GAME END scoring, one row per competitor (seats in order, then Heliopolis)."""
        g = self.game
        cs = g.cards.citizens
        who = range(len(self.dynasty))
        cols = [self.columns(w) for w in who]
        majority_of: list[list[int]] = [[] for _ in who]
        for t in range(NUM_TYPES):
            counts = [c[t] for c in cols]
            top = max(counts)
            if top > 0 and counts.count(top) == 1:  # "Players tied for most cards do not receive any such VP"
                majority_of[counts.index(top)].append(t)
        fed_total = [sum(f) for f in self.fed]
        kinds = [sum(1 for x in c if x) for c in cols]
        rows = []
        for w in who:
            c = cols[w]
            debens = self.debens[w] if w < g.players else 0  # Heliopolis receives no Debens
            row = {
                "citizen": sum(c[t] * cs[t].citizen_vp for t in range(NUM_TYPES)),
                "bread": sum(self.fed[w][t] * cs[t].bread_vp for t in range(NUM_TYPES)),
                "majority": sum(cs[t].majority_vp for t in majority_of[w]),
                "afterlife": 0,
                "merchant_bonus": c[MERCHANT] if w >= g.players else 0,
                "debens": debens,
            }
            rate = DEBENS_PER_VP
            if self.held[w] >= 0:
                card = g.cards.afterlife[self.held[w]]
                e = card.effect
                if e == "double_majority":
                    row["afterlife"] = max((cs[t].majority_vp for t in majority_of[w]), default=0)
                elif e == "sets":
                    row["afterlife"] = card.vp * min(c[t] for t in card.types)
                elif e == "guardians":
                    if c[SOLDIER] >= c[FARMER]:
                        row["afterlife"] = c[SOLDIER] * cs[SOLDIER].citizen_vp
                elif e == "debens_per_vp":
                    rate = card.debens
                elif e == "most_fed":
                    if all(fed_total[w] > fed_total[o] for o in who if o != w):
                        row["afterlife"] = card.vp
                elif kinds[w] > max((kinds[o] for o in who if o != w), default=-1):  # most_types
                    row["afterlife"] = card.vp
            row["deben_vp"] = debens // rate
            row["total"] = (row["citizen"] + row["bread"] + row["majority"] + row["afterlife"]
                            + row["merchant_bonus"] + row["deben_vp"])
            rows.append(row)
        return rows

    def heliopolis_first(self) -> bool:
        """Memphis and Thebes: Heliopolis scored more than every player (shown, not a seat's win)."""
        if not self.is_over or not self.game.heliopolis:
            return False
        h = self.scores[self.game.players]
        return all((h["total"], 0) > (s["total"], s["debens"]) for s in self.scores[: self.game.players])

    def invariants(self) -> dict[str, int]:
        cards = (len(self.deck) + len(self.forum) + sum(len(h) for h in self.hands) + sum(map(sum, self.dynasty))
                 + sum(len(s) for s in self.scribed) + len(self.removed))
        d = self.decision
        drawn = len(d.drawn) if isinstance(d, PriestKeep) else 0
        after = len(self.afterlife_deck) + len(self.afterlife_box) + sum(1 for h in self.held if h >= 0) + drawn
        return {"citizen cards": cards, "afterlife cards": after, "bread": self.bread + sum(map(sum, self.fed))}

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self.game.players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    # -- why an action is refused ------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str:
        assert isinstance(action, IunuAction)
        d = self.pending[-1]
        seat = d.seat
        waiting = {
            PlayCitizen: "play a Citizen card from hand",
            SecondCard: "play a second card of the same type for 1 Deben, or not",
            PharaohReroll: "reroll one die in play (Pharaoh) or keep the dice",
            UseAbility: "use the ability or skip it",
            ScribeTuck: "put a card from hand under the Scribe for 1 Deben, or skip",
            PriestDie: "choose a die for the Priest (you pay its value) or skip",
            PriestKeep: "choose which Afterlife card to keep",
            SoldierSteal: "steal a Farmer from a player, or skip",
            Tribute: "pay 1 Deben tribute or give up a Farmer",
            Bake: "put Bread on a Citizen without Bread, or stop baking",
            ArtisanDiscount: "choose how many cards to place in the Forum (Artisans)",
            PlaceCard: "place a card from hand in the Forum",
            TakeCard: "take a card that was in the Forum before you placed yours",
        }[type(d)]
        t = action.arg
        name = CITIZENS[t] if action.kind in (Kind.PLAY, Kind.SCRIBE, Kind.PLACE, Kind.TAKE, Kind.BREAD) else ""
        expected = {
            Kind.PLAY: PlayCitizen, Kind.SCRIBE: ScribeTuck, Kind.PLACE: PlaceCard, Kind.TAKE: TakeCard,
            Kind.BREAD: Bake, Kind.STEAL: SoldierSteal, Kind.PRIEST_DIE: PriestDie, Kind.REROLL: PharaohReroll,
            Kind.KEEP_AFTERLIFE: PriestKeep,
        }.get(action.kind)
        if expected is type(d):
            if action.kind in (Kind.PLAY, Kind.SCRIBE, Kind.PLACE):
                return f"seat {seat} holds no {name}"
            if action.kind == Kind.TAKE:
                return f"there is no {name} in the Forum that you may take (not one you just placed)"
            if action.kind == Kind.BREAD:
                if self.debens[seat] < d.price:  # type: ignore[attr-defined]
                    return f"Bread costs {d.price} Deben(s) and seat {seat} has {self.debens[seat]}"  # type: ignore[attr-defined]
                if self.bread <= 0:
                    return "the 20 Bread tokens are all in use"
                return f"seat {seat} has no {name} without Bread (one Bread per Citizen)"
            if action.kind == Kind.STEAL:
                if action.arg == seat or action.arg >= self.game.players:
                    return f"seat {action.arg} is not another player at this table"
                return (f"seat {action.arg} has no Farmer you can steal: Farmers with Bread are safe and each of "
                        "their Soldiers protects 2 Farmers")
            if action.kind == Kind.PRIEST_DIE:
                if self.dice[action.arg] == 0:
                    return f"die {action.arg + 1} is out of play until the next round"
                return f"die {action.arg + 1} shows {self.dice[action.arg]}: the Priest would pay that many Debens, seat {seat} has {self.debens[seat]}"
            if action.kind == Kind.REROLL:
                return f"die {action.arg + 1} is out of play until the next round and cannot be rolled"
            return f"{action.text!r} is not one of the Afterlife cards you drew"
        if action.kind == Kind.SECOND and isinstance(d, SecondCard):
            return "a second card costs 1 Deben"
        if action.kind == Kind.PLACE_COUNT and isinstance(d, ArtisanDiscount):
            return f"you may place {d.least} to {d.most} cards (1 Deben per Artisan for each card fewer than {d.most})"
        if action.kind == Kind.KEEP_CURRENT and isinstance(d, PriestKeep):
            return "you hold no Afterlife card yet: keep one of the drawn cards"
        if action.kind == Kind.TRIBUTE and isinstance(d, Tribute):
            return "you have no Deben for the tribute"
        return f"{action.text!r} is not possible now: seat {seat} must {waiting}"

    # -- what a seat may know ------------------------------------------------------------------

    def observation(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        n = g.players
        d = self.decision
        names = g.afterlife_names
        decision: dict[str, Any] | None = None
        if d is not None:
            decision = {"kind": d.kind, "seat": d.seat}
            for f in ("citizen",):
                if hasattr(d, f):
                    decision[f] = CITIZENS[getattr(d, f)]
            for f in ("price", "baked", "least", "most", "remaining", "fresh", "thief"):
                if hasattr(d, f):
                    decision[f] = getattr(d, f)
            if isinstance(d, PriestKeep):
                decision["die"] = d.die + 1
                decision["drawn_count"] = len(d.drawn)
                if d.seat == seat:
                    decision["drawn"] = [names[x] for x in sorted(d.drawn)]
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
            "decision": decision,
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

    def determinize(self, seat: int, rng: Rng | int | None = None) -> IunuState:
        """Resample what `seat` cannot see: the Citizen deck, other hands and other Scribe cards;
        the face-down Afterlife cards (deck, box, others' held cards, others' Priest draws)."""
        r = as_rng(rng)
        new = self._clone_for_view()
        new.seed = None
        new.rng = r.spawn()
        new.history = []
        n = self.game.players
        others = [s for s in range(n) if s != seat]
        over = self.is_over
        pool = list(self.deck)
        for s in others:
            pool.extend(self.hands[s])
            if not over:
                pool.extend(self.scribed[s])
        r.shuffle(pool)
        i = len(self.deck)
        new.deck = pool[:i]
        for s in others:
            k = len(self.hands[s])
            new.hands[s] = pool[i : i + k]
            i += k
            if not over:
                k = len(self.scribed[s])
                new.scribed[s] = pool[i : i + k]
                i += k
        d = self.decision
        other_draw = isinstance(d, PriestKeep) and d.seat != seat
        apool = list(self.afterlife_deck) + list(self.afterlife_box)
        hidden_held = [] if over else [s for s in others if self.held[s] >= 0]
        apool.extend(self.held[s] for s in hidden_held)
        if other_draw:
            apool.extend(d.drawn)  # type: ignore[union-attr]
        r.shuffle(apool)
        j = len(self.afterlife_deck)
        new.afterlife_deck = apool[:j]
        new.afterlife_box = apool[j : j + len(self.afterlife_box)]
        j += len(self.afterlife_box)
        for s in hidden_held:
            new.held[s] = apool[j]
            j += 1
        if other_draw:
            assert isinstance(d, PriestKeep)
            new.pending = self.pending[:-1] + [PriestKeep(d.seat, d.die, tuple(apool[j : j + len(d.drawn)]))]
        new._legal = None
        return new

    def clone(self) -> IunuState:
        new = IunuState.__new__(IunuState)
        self._copy_base_into(new)
        new.deck = self.deck.copy()
        new.forum = self.forum.copy()
        new.hands = [h.copy() for h in self.hands]
        new.dynasty = [c.copy() for c in self.dynasty]
        new.fed = [c.copy() for c in self.fed]
        new.scribed = [c.copy() for c in self.scribed]
        new.debens = self.debens.copy()
        new.bread = self.bread
        new.dice = self.dice.copy()
        new.afterlife_deck = self.afterlife_deck.copy()
        new.afterlife_box = self.afterlife_box.copy()
        new.held = self.held.copy()
        new.removed = self.removed.copy()
        new.round = self.round
        new.starter = self.starter
        new.k = self.k
        new.turn = self.turn
        new.ending = self.ending
        new.scores = self.scores  # rows are never mutated after the game ends
        new.final_winners = self.final_winners.copy()
        return new

    # -- JSON --------------------------------------------------------------------------------

    _FIELDS = (
        "deck", "forum", "hands", "dynasty", "fed", "scribed", "debens", "bread", "dice", "afterlife_deck",
        "afterlife_box", "held", "removed", "round", "starter", "k", "turn", "ending", "scores", "final_winners",
    )

    def _snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in self._FIELDS:
            v = getattr(self, f)
            if isinstance(v, list):
                v = [x.copy() if isinstance(x, (list, dict)) else x for x in v]
            out[f] = v
        return out

    def _restore(self, data: dict[str, Any], pending: list[dict[str, Any]]) -> None:
        for f in self._FIELDS:
            v = data[f]
            if isinstance(v, list):
                v = [list(x) if isinstance(x, list) else (dict(x) if isinstance(x, dict) else x) for x in v]
            setattr(self, f, v)
        for f in ("bread", "round", "starter", "k", "turn"):
            setattr(self, f, int(data[f]))
        self.ending = bool(data["ending"])
        self.pending = [decision_from_json(p) for p in pending]
        self._legal = None


_HANDLERS = {
    PlayCitizen: IunuState._on_play,
    SecondCard: IunuState._on_second,
    PharaohReroll: IunuState._on_reroll,
    UseAbility: IunuState._on_use,
    ScribeTuck: IunuState._on_scribe,
    PriestDie: IunuState._on_priest_die,
    PriestKeep: IunuState._on_priest_keep,
    SoldierSteal: IunuState._on_steal,
    Tribute: IunuState._on_tribute,
    Bake: IunuState._on_bake,
    ArtisanDiscount: IunuState._on_artisan,
    PlaceCard: IunuState._on_place,
    TakeCard: IunuState._on_take,
}
