"""JUNO rules: the state and its transitions.

Rule references are to ../shared/rules/juno.txt (sections "Setup", "Let's play",
"Functions of Action Cards", "Going out", "Scoring", "Seven-o Rules", "Serious rules") and to
the JUNO part of ../shared/rules/NOTES.md. Interpretations are listed in docs/games/juno.md.

A play runs as a short pipeline (`_continue`): the card(s) go down and their effects are
noted; then, each as a decision of its own, the Wild's color, the seven-o swap, the
Wild Draw Four challenge and the UNO catch window; then the effects land on the next player
and the next turn starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.actions import Action
from ...core.rng import Rng, as_rng
from ...core.state import State, zero_sum_returns
from ...core.zones import Layout, Order, StateLayout, Visibility, Zone
from .actions import PLAY
from .cards import (
    CARD_COLOR,
    CARD_NAME,
    CARD_POINTS,
    CARD_RANK,
    DEALER_VALUE,
    DRAW_TWO,
    NO_COLOR,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_RANK,
    WILD_RANK,
    expand,
)
from .decisions import (
    AFTER_DRAW,
    COLOR_MASK,
    DECISIONS,
    MATCH_MASK,
    MAX_STACK,
    TURN,
    Catch,
    Challenge,
    ChooseColor,
    StackMore,
    SwapHands,
    playable,
)
from .observation import observe

if TYPE_CHECKING:
    from .game import Juno

MAX_SKIPS: Final = 3  # serious: "the effect sum up to 3"


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[t] for t in sorted(cards)]


def _constraints(mask: int) -> int:
    return bin(mask).count("1")


def _without(masks: tuple[int, ...], card: int) -> tuple[int, ...]:
    """A hand's masks after `card` left it. Which of the masks the card fits was its own is not
    known, so one of them goes and the others keep only what all of them forbid (what stays true
    whichever went). When none fits, the hand was not played as the masks assume (a player who drew
    by choice): they are all dropped."""
    fits = [k for k, m in enumerate(masks) if not m >> card & 1]
    if not fits:
        return (0,) * (len(masks) - 1)
    common = masks[fits[0]]
    for k in fits:
        common &= masks[k]
    gone = fits[0]
    return tuple(common if k in fits else m for k, m in enumerate(masks) if k != gone)


class JunoState(State):
    # Setup and "Going out": the DRAW pile (face down), the DISCARD pile (face up), each player's hand.
    layout = StateLayout(
        zones=(
            Zone("draw", Visibility.HIDDEN, Order.PILE),
            Zone("discard", Visibility.PUBLIC, Order.PILE),
            Zone("hands", Visibility.OWNER, Order.SET, Layout.PER_SEAT),
        ),
        values=("color", "direction", "turn", "dealer", "round", "penalty", "skips", "need_color", "need_swap",
                "challenge_prev", "called", "missed", "pass_hands", "blocked"),
        lists=("scores", "final_winners"),
        nested=("round_results",),
        derived=("_players", "_seven_o", "_serious", "_challenge", "voids", "_dealt"),
        decisions=DECISIONS,
    )
    __slots__ = (
        "hands", "draw", "discard", "color", "direction", "turn", "dealer", "scores", "round",
        "penalty", "skips", "need_color", "need_swap", "challenge_prev", "called", "missed",
        "pass_hands", "blocked", "round_results", "final_winners",
        "_players", "_seven_o", "_serious", "_challenge", "voids", "_dealt",
    )

    game: Juno
    hands: list[list[int]]
    draw: list[int]          # the DRAW pile; its top is the end of the list
    discard: list[int]       # the DISCARD pile; its top is the end of the list
    color: int               # the color in play (a Wild's chosen color lives here, never on the card)
    direction: int           # +1: to the left (seat + 1); -1: to the right
    turn: int                # whose turn it is (decisions of other seats may interrupt it)
    dealer: int
    scores: list[int]
    round: int
    penalty: int             # cards the next player must draw (serious: the stacked sum)
    skips: int               # players the current play skips
    need_color: bool         # a Wild in this play still needs its color
    need_swap: bool          # seven-o: a 7 in this play still needs its trade
    challenge_prev: int | None  # challenge rule: the color in play before the Wild Draw Four
    called: bool             # the card that left one card in hand was played with "uno"
    missed: int | None       # a seat that did not call UNO, before the catch window opens
    pass_hands: bool         # seven-o: a 0 in this play passes every hand on
    blocked: int             # consecutive turns on which nothing could be played or drawn
    round_results: list[dict[str, Any]]
    final_winners: list[int]
    # The options the rules consult on every turn, copied from the game when the state is made or
    # loaded: attributes of the state are read natively in the compiled build (cardtable/_native.py),
    # the game's are Python lookups.
    _players: int
    _seven_o: bool
    _serious: bool
    _challenge: bool
    # What every seat can infer from public play about the cards in each hand (not a rule: a belief
    # the bots' determinizations use, `determinize`). Per seat, one mask per card in hand (bit t: the
    # card cannot be of type t): a seat that draws at its turn is taken to have held no card it could
    # play ("If you don't have a card that matches ... you must take a card"), and a drawn card the
    # turn passes over unplayed was not playable either. A card played takes one of the masks it
    # fits, and the others keep only what those masks share (`_without`); a play that fits none (a
    # player who drew by choice, "You may also choose NOT to play") drops what was believed of that hand. Immutable tuples (copied by reference by clones);
    # not saved: a loaded game starts believing nothing.
    voids: tuple[tuple[int, ...], ...]
    # A determinized copy (`determinize`): what searches and playouts move on. It keeps `voids` for
    # its own determinizations (a bot's view is one, determinized again at every search iteration),
    # and drops them at its first move, which nothing determinizes again, so no playout pays their
    # upkeep (`_tracking`).
    _dealt: bool

    def _derive(self) -> None:
        game = self.game
        self._players = game.players
        self._seven_o = game.seven_o
        self._serious = game.serious
        self._challenge = game.challenge
        self.voids = tuple((0,) * len(hand) for hand in self.hands)
        self._dealt = False

    # -- setup (rulebook "Setup") ----------------------------------------------------------

    def _setup(self) -> None:
        self.hands = []
        self._derive()
        n = self._players
        self.scores = [0] * n
        self.round = 0
        self.round_results = []
        self.final_winners = []
        self.direction = 1
        self._start_round(self._choose_dealer())

    def _choose_dealer(self) -> int:
        """Setup 1: each player draws a card; the highest number deals (symbols count as
        zero). Tied players draw again (NOTES.md)."""
        # The deck is shuffled and the cards are taken off its top (`shuffled_pops` gives the same
        # cards and leaves the RNG where a whole shuffle would, without shuffling what is not drawn).
        deck = expand(self.game.counts)
        pops = self.rng.shuffled_pops(deck)
        drawing = list(range(self._players))
        while True:
            drawn = {}
            for seat in drawing:
                if not deck:
                    deck = expand(self.game.counts)
                    pops = self.rng.shuffled_pops(deck)
                drawn[seat] = next(pops)
            if self.events is not None:  # the event's card names cost more than the draw itself
                self.emit("dealer_draw", draws=[[s, CARD_NAME[t]] for s, t in drawn.items()])
            best = max(DEALER_VALUE[t] for t in drawn.values())
            drawing = [s for s in drawing if DEALER_VALUE[drawn[s]] == best]
            if len(drawing) == 1:
                return drawing[0]

    def _start_round(self, dealer: int) -> None:
        n = self._players
        self.dealer = dealer
        self.round += 1
        self.draw = expand(self.game.counts)
        self.rng.shuffle(self.draw)
        self.hands = [[] for _ in range(n)]
        for _ in range(self.game.hand_size):  # Setup 2: deal, one card at a time from the dealer's left
            for k in range(1, n + 1):
                self.hands[(dealer + k) % n].append(self.draw.pop())
        self.voids = () if self._dealt else tuple((0,) * len(hand) for hand in self.hands)
        self.discard = []
        self.direction = 1
        self.penalty = 0
        self.skips = 0
        self.need_color = False
        self.need_swap = False
        self.challenge_prev = None
        self.called = False
        self.missed = None
        self.pass_hands = False
        self.blocked = 0
        self.pending = []
        if self.events is not None:
            self.emit("round_started", round=self.round, dealer=dealer, hand_size=self.game.hand_size)
            for seat in range(n):
                self.emit("dealt", to=(seat,), seat=seat, cards=_names(self.hands[seat]))
        self._turn_start_card()

    def _turn_start_card(self) -> None:
        """Setup 4 and the start-card rules (NOTES.md: the rulebook's text is cut off)."""
        n = self._players
        while True:
            card = self.draw.pop()
            if card != WILD_DRAW_FOUR:
                break
            # "If turned up at the beginning of play, return this card to the deck and pick another card."
            self.draw.insert(self.rng.below(len(self.draw) + 1), card)
            self.emit("start_card_returned", card=CARD_NAME[card])
        self.discard.append(card)
        self.color = CARD_COLOR[card]
        self.emit("start_card", card=CARD_NAME[card])
        first = (self.dealer + 1) % n
        rank = CARD_RANK[card]
        if rank == DRAW_TWO:  # "If turned up at the beginning of play, the same rule applies."
            self._draw(first, 2)
            self._start_turn((first + 1) % n)
        elif rank == REVERSE:  # "the dealer goes first, then play moves to the right"
            self.direction = -1
            self._start_turn(self.dealer)
        elif rank == SKIP:  # "the player to the left of the dealer is skipped"
            self._start_turn((first + 1) % n)
        elif card == WILD:  # "the person to the left of the dealer chooses the color"
            self.turn = first
            self.pending.append(ChooseColor(first, True))
        else:
            self._start_turn(first)

    # -- what the others infer (`voids`) ----------------------------------------------------

    def _tracking(self) -> bool:
        """Whether this state keeps `voids` up to date: not once a determinized copy has moved
        (`_dealt`), which drops them then (an empty `voids` believes nothing of any hand)."""
        if self._dealt:
            self.voids = ()
            return False
        return True

    def _believe(self, seat: int, masks: tuple[int, ...]) -> None:
        voids = list(self.voids)
        voids[seat] = masks
        self.voids = tuple(voids)

    def determinize(self, seat: int, rng: Rng | int | None = None) -> State:
        """The core's determinization (the cards `seat` cannot see dealt anew), then each other
        hand of which something is inferred (`voids`) dealt again from its cards and the DRAW pile
        so that every card fits its mask: a constrained mask takes a random card of that pool that
        fits (none fits: any card), the unconstrained ones keep the cards dealt. Only public play
        shapes it, so it shows `seat` nothing it may not know. The copy keeps the masks until its
        first move (`_dealt`)."""
        r = as_rng(rng)
        new = super().determinize(seat, r)
        assert isinstance(new, JunoState)
        new._dealt = True
        for other, masks in enumerate(self.voids):
            if other != seat and any(masks):
                new._deal_by_voids(other, masks, r)
        return new

    def _deal_by_voids(self, seat: int, masks: tuple[int, ...], r: Rng) -> None:
        hand = self.hands[seat]
        pool = hand + self.draw
        size = len(pool)
        constrained = sorted((m for m in masks if m), reverse=True, key=_constraints)[:len(hand)]
        for k, m in enumerate(constrained):
            pick = -1
            for _ in range(8):  # most cards fit (a mask forbids one color, one rank and the wilds)
                j = k + r.below(size - k)
                if not m >> pool[j] & 1:
                    pick = j
                    break
            if pick < 0:
                fits = [j for j in range(k, size) if not m >> pool[j] & 1]
                pick = fits[r.below(len(fits))] if fits else k
            pool[k], pool[pick] = pool[pick], pool[k]
        n = len(hand)
        self.hands[seat] = pool[:n]
        self.draw = pool[n:]
        self._legal = None

    # -- drawing (rulebook "Going out": reshuffle the DISCARD pile when the DRAW pile is used up)

    def _draw(self, seat: int, count: int) -> list[int]:
        got: list[int] = []
        hand = self.hands[seat]
        for _ in range(count):
            if not self.draw and not self._reshuffle():
                break
            card = self.draw.pop()
            hand.append(card)
            got.append(card)
        if got and self._tracking():
            self._believe(seat, self.voids[seat] + (0,) * len(got))
        if self.events is not None:
            self.emit("drew", seat=seat, count=len(got), wanted=count)
            if got:
                self.emit("drew_cards", to=(seat,), seat=seat, cards=[CARD_NAME[t] for t in got])
        return got

    def _reshuffle(self) -> bool:
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        self.draw = self.discard
        self.discard = [top]
        self.rng.shuffle(self.draw)
        self.emit("reshuffled", cards=len(self.draw))
        return True

    # -- whose turn --------------------------------------------------------------------

    def _next(self, seat: int) -> int:
        return (seat + self.direction) % self._players

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.pending.append(TURN[seat])

    # -- a play ("Let's play", "Functions of Action Cards"; each decision resolves through these) --

    def _play(self, seat: int, card: int, uno: bool, count: int, stackable: bool) -> None:
        hand = self.hands[seat]
        tracking = self._tracking()
        if tracking:
            self._believe(seat, _without(self.voids[seat], card))
        if count == 1:
            self.blocked = 0
            if card == WILD_DRAW_FOUR and self._challenge:
                self.challenge_prev = self.color
        if tracking and card == WILD_DRAW_FOUR and count == 1 and not self._challenge and not self.penalty:
            # "You may only play this card when you do NOT have another card in your hand that
            # matches the COLOR on the DISCARD pile": the cards left hold none of that color
            off = COLOR_MASK[self.color]
            self._believe(seat, tuple(m | off for m in self.voids[seat]))
        hand.remove(card)
        self.discard.append(card)
        self.called = uno
        color = CARD_COLOR[card]
        if color != NO_COLOR:
            self.color = color
        if self.events is not None:
            self.emit("played", seat=seat, card=CARD_NAME[card], uno=uno, left=len(hand))
        rank = CARD_RANK[card]
        if rank < 10:  # a number card: only seven-o gives numbers an effect
            if self._seven_o:
                if rank == 7:
                    self.need_swap = True
                elif rank == 0:
                    self.pass_hands = True
        elif rank == SKIP:
            self.skips += 1
        elif rank == REVERSE:
            if self._players == 2:  # NOTES.md: with two players Reverse acts as Skip
                self.skips += 1
            else:  # serious: "each card performs the turn reversing"
                self.direction = -self.direction
        elif rank == DRAW_TWO:
            self.penalty += 2
        elif rank == WILD_RANK:
            self.need_color = True
        elif rank == WILD_DRAW_FOUR_RANK:
            self.penalty += 4
            self.need_color = True
        if not hand:
            self._go_out(seat)
            return
        if stackable and self._serious and count < MAX_STACK:
            for t in hand:
                if CARD_RANK[t] == rank:
                    self.pending.append(StackMore(seat, rank, count))
                    return
        if len(hand) > 1 and not (self.need_color or self.need_swap or self.pass_hands or self.challenge_prev is not None):
            # Nothing else to settle (the common case): straight to the next turn.
            if self.penalty or self.skips:
                self._end_of_play()
            else:  # `_end_of_play` with no draw and no skip
                self._start_turn(self._next(self.turn))
        else:
            self._complete_play(seat)

    def _complete_play(self, seat: int) -> None:
        if len(self.hands[seat]) == 1 and not self.called:
            self.missed = seat
        if self.pass_hands:  # seven-o 1: "all players pass their hands to the next player"
            self.pass_hands = False
            n = self._players
            old = self.hands
            self.hands = [old[(s - self.direction) % n] for s in range(n)]
            if self._tracking():
                self.voids = tuple(self.voids[(s - self.direction) % n] for s in range(n))
            self.emit("hands_passed", direction="left" if self.direction == 1 else "right")
            # the hand that missed its UNO call has moved on: whoever holds it now called nothing
            # wrong, and the player holds someone else's cards (docs/games/juno.md, going out)
            self.missed = None
        if self.need_color or self.need_swap or self.challenge_prev is not None or self.missed is not None:
            self._continue()
        else:
            self._end_of_play()

    def _continue(self) -> None:
        """The rest of a play, one decision at a time, then the next turn."""
        if self.need_color:
            self.pending.append(ChooseColor(self.turn))
            return
        if self.need_swap:
            self.pending.append(SwapHands(self.turn))
            return
        if self.challenge_prev is not None:
            self.pending.append(Challenge(self._next(self.turn), self.turn, self.challenge_prev))
            self.challenge_prev = None
            return
        if self.missed is not None:
            target = self.missed
            self.missed = None
            # Catchable only while the player still holds one card (their own: a seven-o trade or
            # pass clears `missed` above).
            if len(self.hands[target]) == 1:
                n = self._players
                # Every other seat may catch, in the order of play from the next player.
                catchers = tuple((target + self.direction * k) % n for k in range(1, n))
                self.emit("uno_missed", seat=target)
                self.pending.append(Catch(catchers[0], target, catchers[1:]))
                return
        self._end_of_play()

    def _end_of_play(self) -> None:
        n = self._players
        step = self.direction
        nxt = (self.turn + step) % n
        if self.penalty and not self._serious:
            # Draw Two / Wild Draw Four: "the next player must draw ... and miss their turn".
            self._draw(nxt, self.penalty)
            self.penalty = 0
            nxt = (nxt + step) % n
        if self.skips:
            nxt = (nxt + step * min(self.skips, MAX_SKIPS)) % n
            self.skips = 0
        self._start_turn(nxt)

    def _take_penalty(self, seat: int) -> None:
        """Serious: the first player who does not match draws the stacked sum and loses the turn."""
        amount = self.penalty
        self.penalty = 0
        self._draw(seat, amount)
        self._start_turn(self._next(seat))

    def _draw_on_turn(self, seat: int) -> None:
        if self.draw or self._reshuffle():
            card = self.draw.pop()
            self.hands[seat].append(card)
            if self.events is not None:
                self.emit("drew", seat=seat, count=1, wanted=1)
                self.emit("drew_cards", to=(seat,), seat=seat, cards=[CARD_NAME[card]])
            self.blocked = 0
            seen = playable(self, card, self.hands[seat])
            if self._tracking():
                # what the others infer (`voids`): the hand held nothing that matches the top card
                # (a reshuffle keeps the top card and the color in play)
                held = MATCH_MASK[self.color][CARD_RANK[self.discard[-1]]]
                self._believe(seat, tuple(m | held for m in self.voids[seat]) + ((0,) if seen else (held,)))
            if seen:
                # "If the card you picked up can be played, you are free to put it down"
                self.pending.append(AFTER_DRAW[seat][card])
            else:
                # "Otherwise, play moves on to the next person in turn": no question is asked
                if self.events is not None:
                    self.emit("kept", seat=seat)
                self._start_turn(self._next(seat))
            return
        self.emit("drew", seat=seat, count=0, wanted=1)
        # Neither pile has a card to give: the turn passes. If that happens to every player in
        # a row the round is blocked (docs/games/juno.md: our rule for a locked table).
        self.blocked += 1
        self.emit("could_not_draw", seat=seat)
        if self.blocked >= self._players:
            self._end_round(self._blocked_winner(seat), blocked=True)
        else:
            self._start_turn(self._next(seat))

    def _blocked_winner(self, seat: int) -> int:
        n = self._players
        order = [(seat + self.direction * k) % n for k in range(1, n + 1)]
        return min(order, key=lambda s: sum(CARD_POINTS[t] for t in self.hands[s]))

    def _swap_hands(self, seat: int, other: int) -> None:
        """Seven-o 2: the player of a 7 trades hands with the player of their choice."""
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        if self._tracking():
            voids = list(self.voids)
            voids[seat], voids[other] = voids[other], voids[seat]
            self.voids = tuple(voids)
        self.need_swap = False
        if self.missed == seat:  # their one-card hand went to `other` (see the pass above)
            self.missed = None
        self.emit("swapped", seat=seat, other=other)
        self._continue()

    def _resolve_challenge(self, seat: int, offender: int, prev_color: int, challenged: bool) -> None:
        if not challenged:
            self.emit("challenge_declined", seat=seat)
            self._continue()
            return
        hand = self.hands[offender]
        guilty = any(CARD_COLOR[t] == prev_color for t in hand)
        # The challenged player shows their hand to the challenger only.
        self.emit("hand_shown", to=(seat,), seat=offender, cards=_names(hand))
        self.emit("challenged", seat=seat, offender=offender, guilty=guilty)
        if guilty:  # NOTES.md: guilty, the player who played it draws 4 instead
            self.penalty = 0
            self._draw(offender, 4)
        else:  # innocent: the challenger draws 6 (and still loses the turn)
            self.penalty = 6
        self._continue()

    # -- end of a round and of the game ("Going out", "Scoring") --------------------------

    def _go_out(self, seat: int) -> None:
        self.emit("went_out", seat=seat)
        if self.penalty:
            # "If the last card played in a round is a Draw Two or Wild Draw Four card, the next
            # player must draw the 2 or 4 cards respectively. These cards are counted."
            self._draw(self._next(seat), self.penalty)
        self._end_round(seat, blocked=False)

    def _end_round(self, winner: int, blocked: bool) -> None:
        n = self._players
        # Serious: "One single win will grant you 1000 points each time."
        points = 1000 if self._serious else sum(CARD_POINTS[t] for s in range(n) if s != winner for t in self.hands[s])
        self.scores[winner] += points
        result: dict[str, Any] = {"round": self.round, "winner": winner, "points": points, "blocked": blocked}
        self.round_results.append(result)
        if self.events is not None:
            self.emit("round_over", **result, hands=[_names(h) for h in self.hands])
        self.pending = []
        self.penalty = 0
        if not self.game.match or self.scores[winner] >= self.game.target:
            self.final_winners = [winner]
            self.is_over = True
            self.emit("game_over", winners=[winner], scores=list(self.scores))
            return
        self._start_round((self.dealer + 1) % n)  # the deal passes to the left

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self._players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    # -- what a seat may know ------------------------------------------------------------------

    def card_moves(self, seat: int) -> dict[str, list[Action]]:
        """ "Let's play": each card of the hand is played with `play X`; with the next-to-last card
        also with `play X uno` ("Going out": calling UNO is part of playing it). At every decision:
        the core's `card_status` gives each its reason from the decision's `why_illegal` (a card that
        does not match; while a colour is chosen or a catch asked, no card is played)."""
        hand = self.hands[seat]
        return {CARD_NAME[t]: list(PLAY[t]) if len(hand) == 2 else [PLAY[t][0]] for t in dict.fromkeys(hand)}

    def observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)
