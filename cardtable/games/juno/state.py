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

from array import array
from hashlib import shake_128
from typing import TYPE_CHECKING, Any, Final

from ...core.actions import Action
from ...core.rng import Rng, as_rng
from ...core.state import State, zero_sum_returns
from .actions import CATCH, CHALLENGE, CHOOSE, DRAW, MAX_SEATS, PASS, PLAY, SWAP, JunoAction, Kind
from .cards import (
    CARD_COLOR,
    CARD_NAME,
    CARD_POINTS,
    CARD_RANK,
    COLORS,
    DEALER_VALUE,
    DRAW_TWO,
    NO_COLOR,
    NUM_TYPES,
    RANK_NAMES,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_RANK,
    WILD_RANK,
    expand,
)
from .decisions import AfterDraw, Catch, Challenge, ChooseColor, StackMore, SwapHands, Turn, decision_from_json
from .observation import observe

if TYPE_CHECKING:
    from .game import Juno

MAX_STACK: Final = 3  # serious: "Each player can stack a maximum of 3 cards"
MAX_SKIPS: Final = 3  # serious: "the effect sum up to 3"

# -- precomputed tables for the hot path (legal actions and transitions) -------------------
# "Let's play": on (color in play, rank on top) you may put down a card of that color, a colored card
# of that number or symbol, or a wild; the Wild Draw Four's color condition is then checked against
# the hand. _MATCH[color][rank][t] is 1 when card type t matches.
_MATCH: Final[tuple[tuple[bytes, ...], ...]] = tuple(
    tuple(
        bytes(
            CARD_COLOR[t] == NO_COLOR or (c != NO_COLOR and CARD_COLOR[t] == c) or CARD_RANK[t] == r
            for t in range(NUM_TYPES)
        )
        for r in range(15)
    )
    for c in range(5)
)
# Serious stacking: cards of the same value (_SAME_RANK[rank][t] is 1 when t has that rank).
_SAME_RANK: Final[tuple[bytes, ...]] = tuple(bytes(CARD_RANK[t] == r for t in range(NUM_TYPES)) for r in range(15))
_COLOR_CARDS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(t for t in range(NUM_TYPES) if CARD_COLOR[t] == c and c != NO_COLOR) for c in range(5)
)
_PLAY_ONLY: Final[tuple[Action, ...]] = tuple(PLAY[t][0] for t in range(NUM_TYPES))  # the play without a call
_PLAY_WD4: Final = _PLAY_ONLY[WILD_DRAW_FOUR]
_PLAY_KIND: Final = Kind.PLAY
_DRAW_KIND: Final = Kind.DRAW
_CATCH_KIND: Final = Kind.CATCH
_CHALLENGE_KIND: Final = Kind.CHALLENGE
# Decisions are immutable, so the common ones are made once and shared.
_TURN: Final[tuple[Turn, ...]] = tuple(Turn(s) for s in range(MAX_SEATS))
_AFTER_DRAW: Final[tuple[tuple[AfterDraw, ...], ...]] = tuple(
    tuple(AfterDraw(s, t) for t in range(NUM_TYPES)) for s in range(MAX_SEATS)
)


def _permute(items: list[int], key: int) -> list[int]:
    """A uniformly random order of `items` drawn from the 64-bit `key` (for determinization).

    Each item gets a 32-bit sort key from SHAKE-128 of `key`; the sort runs in C, which makes
    this several times faster than a Fisher-Yates loop in Python. Ties (about one in a million
    for a 100-card pool) keep their order."""
    n = len(items)
    keys = array("I", shake_128(key.to_bytes(8, "little")).digest(4 * n))
    order = sorted(range(n), key=keys.__getitem__)
    return [items[i] for i in order]


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[t] for t in sorted(cards)]


class JunoState(State):
    __slots__ = (
        "hands", "draw", "discard", "color", "direction", "turn", "dealer", "scores", "round",
        "penalty", "skips", "need_color", "need_swap", "challenge_prev", "called", "missed",
        "pass_hands", "blocked", "round_results", "final_winners",
        "_players", "_seven_o", "_serious", "_challenge",
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

    def _read_options(self) -> None:
        game = self.game
        self._players = game.players
        self._seven_o = game.seven_o
        self._serious = game.serious
        self._challenge = game.challenge

    # -- setup (rulebook "Setup") ----------------------------------------------------------

    def _setup(self) -> None:
        self._read_options()
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
        self.pending.append(_TURN[seat])

    # -- legal actions -----------------------------------------------------------------

    def _playable(self, card: int, hand: list[int]) -> bool:
        """ "Let's play": match by number, color or symbol; Wild anywhere; Wild Draw Four
        only without a card of the color in play (unless the challenge rule is on)."""
        color = CARD_COLOR[card]
        if color == NO_COLOR:
            if card == WILD or self._challenge:
                return True
            c = self.color
            for t in hand:
                if CARD_COLOR[t] == c:
                    return False
            return True
        return color == self.color or CARD_RANK[card] == CARD_RANK[self.discard[-1]]

    def _plays(self, cards: list[int], hand: list[int], out: list[Action]) -> list[Action]:
        """Play actions for the distinct `cards`; with the "uno" form when one card will remain."""
        seen = 0
        with_call = len(hand) == 2
        for t in cards:
            bit = 1 << t
            if seen & bit:
                continue
            seen |= bit
            pair = PLAY[t]
            out.append(pair[0])
            if with_call:
                out.append(pair[1])
        return out

    def legal_actions(self) -> list[Action]:
        """The legal actions of the pending decision (cached until the next `apply`, as in State).

        JUNO computes the list here rather than in the `_legal_actions` hook: this runs once per
        decision, and one Python call less is a measurable share of a decision's cost."""
        out = self._legal
        if out is not None:
            return out
        if self.is_over:
            out = self._legal = []
            return out
        d = self.pending[-1]
        kind = d.__class__
        hand = self.hands[d.seat]
        if kind is Turn:
            # The distinct cards of the hand that may be played, in the order of the hand
            # (`_playable` states the rule; `_MATCH` is the same rule as a table).
            if self.penalty:  # serious: facing a stacked draw, match its value or take it
                ok = _SAME_RANK[CARD_RANK[self.discard[-1]]]
                plays = [t for t in dict.fromkeys(hand) if ok[t]]
                out = [a for t in plays for a in PLAY[t]] if len(hand) == 2 else [_PLAY_ONLY[t] for t in plays]
                out.append(DRAW)
            else:
                color = self.color
                ok = _MATCH[color][CARD_RANK[self.discard[-1]]]
                out = [_PLAY_ONLY[t] for t in hand if ok[t]]
                if len(out) > 1 and len(set(out)) < len(out):  # one action per distinct card, first seen first
                    out = list(dict.fromkeys(out))
                if _PLAY_WD4 in out and not self._challenge and not _COLOR_CARDS[color].isdisjoint(hand):
                    out.remove(_PLAY_WD4)
                if len(hand) == 2:  # each play also in its form that calls UNO
                    out = [a for p in out for a in PLAY[p.card]]  # type: ignore[attr-defined]
                # "You may also choose NOT to play a playable card ... you must draw": declining needs a
                # card to draw. With both piles spent, `draw` only passes a turn that has no play.
                if not out or self.draw or len(self.discard) > 1:
                    out.append(DRAW)
        elif kind is AfterDraw:  # the drawn card, if it matches (the rule of `_playable`), or keep it
            card = d.card  # type: ignore[attr-defined]
            color = self.color
            if _MATCH[color][CARD_RANK[self.discard[-1]]][card] and (
                card != WILD_DRAW_FOUR or self._challenge or _COLOR_CARDS[color].isdisjoint(hand)
            ):
                out = [*PLAY[card], PASS] if len(hand) == 2 else [_PLAY_ONLY[card], PASS]
            else:
                out = [PASS]
        elif kind is ChooseColor:
            out = list(CHOOSE)
        elif kind is StackMore:
            rank = d.rank  # type: ignore[attr-defined]
            out = self._plays([t for t in hand if CARD_RANK[t] == rank], hand, []) + [PASS]  # same value only
        elif kind is Catch:
            out = [CATCH, PASS]
        elif kind is Challenge:
            out = [CHALLENGE, PASS]
        else:  # SwapHands
            out = [SWAP[s] for s in range(self._players) if s != d.seat]
        self._legal = out
        return out

    def _legal_actions(self) -> list[Action]:
        # The State hook; `legal_actions` above computes and caches the list itself.
        return JunoState.legal_actions(self)

    # -- transitions -----------------------------------------------------------------------

    def apply(self, action: Any) -> None:  # Any: see State.apply
        """State.apply, with the same checks, errors and history. An action object of the cached
        legal list (how bots and simulations play) takes a short way, with a turn's play or draw and
        the keeping of a drawn card handled here; anything else goes through State.apply."""
        legal = self._legal
        if legal is None or action not in legal:
            State.apply(self, action)  # coerces text and indices; refuses with a reason, state unchanged
            return
        a: JunoAction = action  # an element of the legal list (typed: compiled code reads it natively)
        self._legal = None
        self.history.append(a.index)
        pending = self.pending
        d = pending[-1]
        kind = d.__class__
        if kind is Turn:  # the same as in `_apply`
            pending.pop()
            if a.kind is _PLAY_KIND:
                self._play(d.seat, a.card, a.uno, 1, True)
            elif self.penalty:
                self._take_penalty(d.seat)
            elif self.draw and self.events is None:  # `_draw_on_turn` when the DRAW pile has a card
                seat = d.seat
                card = self.draw.pop()
                self.hands[seat].append(card)
                self.blocked = 0
                pending.append(_AFTER_DRAW[seat][card])
            else:
                self._draw_on_turn(d.seat)
        elif kind is AfterDraw and a is PASS and self.events is None:  # keep the drawn card
            nxt = self.turn = (d.seat + self.direction) % self._players
            pending[-1] = _TURN[nxt]
        else:
            self._apply(a)

    def _apply(self, action: JunoAction) -> None:  # type: ignore[override]
        d = self.pending.pop()
        kind = type(d)
        seat = d.seat
        if kind is Turn:
            if action.kind is _PLAY_KIND:
                self._play(seat, action.card, action.uno, 1, True)
            elif self.penalty:
                self._take_penalty(seat)
            else:
                self._draw_on_turn(seat)
        elif kind is AfterDraw:
            if action.kind is _PLAY_KIND:
                # "you may not play any other card from your hand after the draw" (no stacking)
                self._play(seat, action.card, action.uno, 1, stackable=False)
            else:
                if self.events is not None:
                    self.emit("kept", seat=seat)
                nxt = self.turn = (seat + self.direction) % self._players
                self.pending.append(_TURN[nxt])
        elif kind is StackMore:
            if action.kind is _PLAY_KIND:
                self._play(seat, action.card, action.uno, d.count + 1, stackable=True)  # type: ignore[attr-defined]
            else:
                self._complete_play(seat)
        elif kind is ChooseColor:
            self.color = action.color
            self.need_color = False
            if self.events is not None:
                self.emit("color_chosen", seat=seat, color=COLORS[action.color])
            if d.opening:  # type: ignore[attr-defined]
                self._start_turn(seat)
            else:
                self._continue()
        elif kind is SwapHands:
            other = action.seat
            self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
            self.need_swap = False
            self.emit("swapped", seat=seat, other=other)
            self._continue()
        elif kind is Challenge:
            self._resolve_challenge(seat, d, action.kind is _CHALLENGE_KIND)  # type: ignore[arg-type]
        else:  # Catch
            self._resolve_catch(seat, d, action.kind is _CATCH_KIND)  # type: ignore[arg-type]

    def _play(self, seat: int, card: int, uno: bool, count: int, stackable: bool) -> None:
        hand = self.hands[seat]
        if count == 1:
            self.blocked = 0
            if card == WILD_DRAW_FOUR and self._challenge:
                self.challenge_prev = self.color
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
                nxt = self.turn = (self.turn + self.direction) % self._players
                self.pending.append(_TURN[nxt])
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
            self.emit("hands_passed", direction="left" if self.direction == 1 else "right")
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
            # Catchable only while the player still holds one card (a seven-o trade may change it).
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
        self.turn = nxt
        self.pending.append(_TURN[nxt])

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
            self.pending.append(_AFTER_DRAW[seat][card])
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

    def _resolve_challenge(self, seat: int, d: Challenge, challenged: bool) -> None:
        if not challenged:
            self.emit("challenge_declined", seat=seat)
            self._continue()
            return
        offender = d.offender
        hand = self.hands[offender]
        guilty = any(CARD_COLOR[t] == d.prev_color for t in hand)
        # The challenged player shows their hand to the challenger only.
        self.emit("hand_shown", to=(seat,), seat=offender, cards=_names(hand))
        self.emit("challenged", seat=seat, offender=offender, guilty=guilty)
        if guilty:  # NOTES.md: guilty, the player who played it draws 4 instead
            self.penalty = 0
            self._draw(offender, 4)
        else:  # innocent: the challenger draws 6 (and still loses the turn)
            self.penalty = 6
        self._continue()

    def _resolve_catch(self, seat: int, d: Catch, caught: bool) -> None:
        if caught:  # "If you don't yell UNO and you are caught ... you must draw two cards."
            self.emit("caught", seat=seat, target=d.target)
            self._draw(d.target, 2)
            self._continue()
        elif d.rest:
            self.pending.append(Catch(d.rest[0], d.target, d.rest[1:]))
        else:
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

    def invariants(self) -> dict[str, int]:
        return {"cards": len(self.draw) + len(self.discard) + sum(len(h) for h in self.hands)}

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.final_winners, self._players)

    def _winners(self) -> list[int]:
        return list(self.final_winners)

    # -- why an action is refused ------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str:
        assert isinstance(action, JunoAction)
        d = self.pending[-1]
        seat = d.seat
        hand = self.hands[seat]
        waiting = {
            Turn: f"it is seat {seat}'s turn: play a matching card or draw",
            AfterDraw: f"seat {seat} just drew and may only play the drawn card or pass",
            StackMore: f"seat {seat} may add another card of the same value to the play, or pass",
            ChooseColor: f"seat {seat} must choose the color that continues play",
            SwapHands: f"seat {seat} must choose a player to trade hands with",
            Challenge: f"seat {seat} may challenge the Wild Draw Four or pass",
            Catch: f"seat {seat} may catch seat {getattr(d, 'target', '?')} for not calling UNO, or pass",
        }[type(d)]
        if action.kind is _DRAW_KIND and type(d) is Turn:
            return (
                "the DRAW pile is empty and the DISCARD pile has only its top card, so there is nothing to draw: "
                "you must play a card you can"
            )
        if action.kind is not _PLAY_KIND:
            return f"{action.text!r} is not possible now: {waiting}"
        card = action.card
        name = CARD_NAME[card]
        if type(d) not in (Turn, AfterDraw, StackMore):
            return f"no card can be played now: {waiting}"
        if card not in hand:
            return f"seat {seat} holds no {name}"
        if action.uno and len(hand) != 2:
            return "UNO is called only with your next-to-last card (you would not be left with one card)"
        if isinstance(d, AfterDraw) and card != d.card:
            return f"after drawing you may play only the card you drew ({CARD_NAME[d.card]}) or pass"
        if isinstance(d, AfterDraw) and not self._playable(card, hand):
            return f"the drawn {name} does not match; pass to keep it"
        if isinstance(d, StackMore):
            return f"only another {RANK_NAMES[d.rank]} can be added to this play (at most {MAX_STACK} cards), or pass"
        top = CARD_NAME[self.discard[-1]]
        if self.penalty:
            return f"you face a draw of {self.penalty}: stack another {RANK_NAMES[CARD_RANK[self.discard[-1]]]} or draw"
        if card == WILD_DRAW_FOUR:
            held = next(CARD_NAME[t] for t in hand if CARD_COLOR[t] == self.color)
            return f"Wild Draw Four only when you hold no {COLORS[self.color]} card; you hold {held}"
        return f"{name} does not match the {top} on the discard pile (color in play: {COLORS[self.color]})"

    # -- what a seat may know ------------------------------------------------------------------

    def observation(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)

    def determinize(self, seat: int, rng: Rng | int | None = None) -> JunoState:
        """Other hands and the DRAW pile resampled from the cards `seat` cannot see."""
        r = as_rng(rng)
        new = self._clone_for_view()
        new.seed = None
        new.rng = r.spawn()
        new.history = []
        others = [s for s in range(self._players) if s != seat]
        pool = list(self.draw)
        for s in others:
            pool.extend(self.hands[s])
        pool = _permute(pool, r.next64())
        i = len(self.draw)
        new.draw = pool[:i]
        for s in others:
            k = len(self.hands[s])
            new.hands[s] = pool[i : i + k]
            i += k
        # A drawn card being considered by another seat is the last card of that hand.
        new.pending = [
            _AFTER_DRAW[d.seat][new.hands[d.seat][-1]] if type(d) is AfterDraw and d.seat != seat else d
            for d in self.pending
        ]
        new._legal = None
        return new

    def clone(self) -> JunoState:
        new = JunoState.__new__(JunoState)
        self._copy_base_into(new)
        new.hands = [h.copy() for h in self.hands]
        new.draw = self.draw.copy()
        new.discard = self.discard.copy()
        new.color = self.color
        new.direction = self.direction
        new.turn = self.turn
        new.dealer = self.dealer
        new.scores = self.scores.copy()
        new.round = self.round
        new.penalty = self.penalty
        new.skips = self.skips
        new.need_color = self.need_color
        new.need_swap = self.need_swap
        new.challenge_prev = self.challenge_prev
        new.called = self.called
        new.missed = self.missed
        new.pass_hands = self.pass_hands
        new.blocked = self.blocked
        new.round_results = self.round_results.copy()
        new.final_winners = self.final_winners.copy()
        new._players = self._players
        new._seven_o = self._seven_o
        new._serious = self._serious
        new._challenge = self._challenge
        return new

    # -- JSON --------------------------------------------------------------------------------

    _FIELDS = (
        "draw", "discard", "color", "direction", "turn", "dealer", "scores", "round", "penalty", "skips",
        "need_color", "need_swap", "challenge_prev", "called", "missed", "pass_hands", "blocked",
        "round_results", "final_winners",
    )

    def _snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": [list(h) for h in self.hands]}
        for f in self._FIELDS:
            v = getattr(self, f)
            out[f] = list(v) if isinstance(v, list) else v
        return out

    def _restore(self, data: dict[str, Any], pending: list[dict[str, Any]]) -> None:
        self._read_options()
        self.hands = [[int(t) for t in h] for h in data["hands"]]
        for f in self._FIELDS:
            setattr(self, f, data[f])
        self.round_results = [dict(r) for r in data["round_results"]]
        self.pending = [decision_from_json(p) for p in pending]
        self._legal = None
