"""JUNO's pending decisions. The top of the stack owns the current player and the legal actions.

Each decision owns its behaviour (cardtable/core/state.py, `Decision`): its legal actions, how
an action resolves it (through the rules of `JunoState`), what it asks and why an action is
refused. Each is immutable (clones share them) and knows its JSON form.

The matching rule of "Let's play" is written here once, as tables: the legal plays of a turn and
of a drawn card are read from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.actions import Action
from ...core.state import Decision
from .actions import CATCH, CHALLENGE, CHOOSE, DRAW, MAX_SEATS, PASS, PLAY, SWAP, JunoAction, Kind
from .cards import CARD_COLOR, CARD_NAME, CARD_RANK, COLORS, NO_COLOR, NUM_TYPES, RANK_NAMES, WILD_DRAW_FOUR

if TYPE_CHECKING:
    from .state import JunoState

MAX_STACK: Final = 3  # serious: "Each player can stack a maximum of 3 cards"

# "Let's play": on (color in play, rank on top) you may put down a card of that color, a colored card
# of that number or symbol, or a wild; the Wild Draw Four's color condition is then checked against
# the hand. MATCH[color][rank][t] is 1 when card type t matches.
MATCH: Final[tuple[tuple[bytes, ...], ...]] = tuple(
    tuple(
        bytes(
            CARD_COLOR[t] == NO_COLOR or (c != NO_COLOR and CARD_COLOR[t] == c) or CARD_RANK[t] == r
            for t in range(NUM_TYPES)
        )
        for r in range(15)
    )
    for c in range(5)
)
# The same table as bit masks, bit t for card type t: what a hand without a playable card holds
# none of (the state's `voids`, what the other seats infer from a draw).
MATCH_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << t for t in range(NUM_TYPES) if row[t]) for row in rows) for rows in MATCH
)
# Serious stacking: cards of the same value (SAME_RANK[rank][t] is 1 when t has that rank).
SAME_RANK: Final[tuple[bytes, ...]] = tuple(bytes(CARD_RANK[t] == r for t in range(NUM_TYPES)) for r in range(15))
# The colored cards of each color: a Wild Draw Four needs a hand without any of the color in play.
COLOR_CARDS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(t for t in range(NUM_TYPES) if CARD_COLOR[t] == c and c != NO_COLOR) for c in range(5)
)
# The same as bit masks: what a hand that may play a Wild Draw Four holds none of (the state's `voids`).
COLOR_MASK: Final[tuple[int, ...]] = tuple(sum(1 << t for t in cards) for cards in COLOR_CARDS)
_PLAY_ONLY: Final[tuple[Action, ...]] = tuple(PLAY[t][0] for t in range(NUM_TYPES))  # the play without a call
_PLAY_WD4: Final = _PLAY_ONLY[WILD_DRAW_FOUR]
_PLAY_KIND: Final = Kind.PLAY
_DRAW_KIND: Final = Kind.DRAW
_CATCH_KIND: Final = Kind.CATCH
_CHALLENGE_KIND: Final = Kind.CHALLENGE


def playable(state: JunoState, card: int, hand: list[int]) -> bool:
    """ "Let's play": match by number, color or symbol; Wild anywhere; Wild Draw Four only without a
    card of the color in play (unless the challenge rule is on). The rule the tables above encode."""
    color = state.color
    return bool(MATCH[color][CARD_RANK[state.discard[-1]]][card]) and (
        card != WILD_DRAW_FOUR or state._challenge or COLOR_CARDS[color].isdisjoint(hand)
    )


def _with_calls(plays: list[Action]) -> list[Action]:
    """Each play also in its form that calls UNO (when it leaves one card in hand)."""
    return [a for p in plays for a in PLAY[p.card]]  # type: ignore[attr-defined]


class _Plays(Decision):
    """A decision in which a card may be played (a turn, a drawn card, a serious stack)."""

    __slots__ = ()

    def why_illegal(self, state: JunoState, action: JunoAction) -> str:
        if action.kind is not _PLAY_KIND:
            return f"{action.text!r} is not possible now: {self.describe(state)}"
        hand = state.hands[self.seat]
        if action.card not in hand:
            return f"seat {self.seat} holds no {CARD_NAME[action.card]}"
        if action.uno and len(hand) != 2:
            return "UNO is called only with your next-to-last card (you would not be left with one card)"
        return self._unplayable(state, action)

    def _unplayable(self, state: JunoState, action: JunoAction) -> str:
        """Why this decision's rule refuses a card that is held, with a right call."""
        raise NotImplementedError


class Turn(_Plays):
    """A player's turn: play a matching card or draw (facing a serious stack: stack or take it)."""

    __slots__ = ()
    kind = "turn"

    def legal_actions(self, state: JunoState) -> list[Action]:
        hand = state.hands[self.seat]
        if state.penalty:  # serious: facing a stacked draw, match its value or take it
            ok = SAME_RANK[CARD_RANK[state.discard[-1]]]
            plays = [_PLAY_ONLY[t] for t in dict.fromkeys(hand) if ok[t]]
            out = _with_calls(plays) if len(hand) == 2 else plays
            out.append(DRAW)
            return out
        # The distinct cards of the hand that may be played, in the order of the hand (`playable`
        # states the rule; MATCH is the same rule as a table).
        color = state.color
        ok = MATCH[color][CARD_RANK[state.discard[-1]]]
        out = [_PLAY_ONLY[t] for t in hand if ok[t]]
        if len(out) > 1 and len(set(out)) < len(out):  # one action per distinct card, first seen first
            out = list(dict.fromkeys(out))
        if _PLAY_WD4 in out and not state._challenge and not COLOR_CARDS[color].isdisjoint(hand):
            out.remove(_PLAY_WD4)
        if len(hand) == 2:
            out = _with_calls(out)
        # "You may also choose NOT to play a playable card ... you must draw": declining needs a
        # card to draw. With both piles spent, `draw` only passes a turn that has no play.
        if not out or state.draw or len(state.discard) > 1:
            out.append(DRAW)
        return out

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        if action.kind is _PLAY_KIND:
            state._play(self.seat, action.card, action.uno, 1, True)
        elif state.penalty:
            state._take_penalty(self.seat)
        else:
            state._draw_on_turn(self.seat)

    def question(self, state: JunoState) -> str:
        if state.penalty:  # serious: the stacked draw is matched or taken
            return f"must add a card of the same value or draw the {state.penalty} stacked cards"
        return "must play a matching card or draw"

    def why_illegal(self, state: JunoState, action: JunoAction) -> str:
        if action.kind is _DRAW_KIND:
            return (
                "the DRAW pile is empty and the DISCARD pile has only its top card, so there is nothing to draw: "
                "you must play a card you can"
            )
        return super().why_illegal(state, action)

    def _unplayable(self, state: JunoState, action: JunoAction) -> str:
        top = state.discard[-1]
        if state.penalty:
            return f"you face a draw of {state.penalty}: stack another {RANK_NAMES[CARD_RANK[top]]} or draw"
        if action.card == WILD_DRAW_FOUR:
            held = next(CARD_NAME[t] for t in state.hands[self.seat] if CARD_COLOR[t] == state.color)
            return f"Wild Draw Four only when you hold no {COLORS[state.color]} card; you hold {held}"
        return (f"{CARD_NAME[action.card]} does not match the {CARD_NAME[top]} on the discard pile "
                f"(color in play: {COLORS[state.color]})")


class AfterDraw(_Plays):
    """The card just drawn may be played ("Let's play": playable drawn card) or kept."""

    __slots__ = ("card",)
    kind = "after_draw"
    fields = ("card",)

    def details(self, state: JunoState, viewer: int | None) -> dict[str, Any]:
        return {"drawn": CARD_NAME[self.card]} if viewer == self.seat else {}  # only its drawer saw it

    def __init__(self, seat: int, card: int) -> None:
        super().__init__(seat)
        self.card = card

    def legal_actions(self, state: JunoState) -> list[Action]:
        hand = state.hands[self.seat]
        card = self.card
        if playable(state, card, hand):
            return [*PLAY[card], PASS] if len(hand) == 2 else [_PLAY_ONLY[card], PASS]
        return [PASS]

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        if action.kind is _PLAY_KIND:
            # "you may not play any other card from your hand after the draw" (no stacking)
            state._play(self.seat, action.card, action.uno, 1, False)
        else:  # keep the drawn card
            if state.events is not None:
                state.emit("kept", seat=self.seat)
            state._start_turn(state._next(self.seat))

    def question(self, state: JunoState) -> str:
        # (the drawn card is not named: everyone at the table reads the question)
        return "may play the card just drawn, or keep it and pass"

    def _unplayable(self, state: JunoState, action: JunoAction) -> str:
        if action.card != self.card:
            return f"after drawing you may play only the card you drew ({CARD_NAME[self.card]}) or pass"
        return f"the drawn {CARD_NAME[action.card]} does not match; pass to keep it"

    def resampled(self, state: JunoState, viewer: int) -> Decision:
        # The drawn card is the last card of the hand; for another seat it was dealt anew.
        if self.seat == viewer:
            return self
        return AFTER_DRAW[self.seat][state.hands[self.seat][-1]]


class StackMore(_Plays):
    """Serious: add another card of the same value to this play (at most 3 in one play)."""

    __slots__ = ("rank", "count")
    kind = "stack"
    fields = ("rank", "count")

    def details(self, state: JunoState, viewer: int | None) -> dict[str, Any]:
        return {"value": RANK_NAMES[self.rank], "count": self.count}

    def __init__(self, seat: int, rank: int, count: int) -> None:
        super().__init__(seat)
        self.rank = rank
        self.count = count

    def legal_actions(self, state: JunoState) -> list[Action]:
        hand = state.hands[self.seat]
        plays = [_PLAY_ONLY[t] for t in dict.fromkeys(hand) if CARD_RANK[t] == self.rank]  # same value only
        out = _with_calls(plays) if len(hand) == 2 else plays
        out.append(PASS)
        return out

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        if action.kind is _PLAY_KIND:
            state._play(self.seat, action.card, action.uno, self.count + 1, True)
        else:
            state._complete_play(self.seat)

    def question(self, state: JunoState) -> str:
        return f"may add another {RANK_NAMES[self.rank]} to the play ({self.count} played, at most {MAX_STACK}), or pass"

    def _unplayable(self, state: JunoState, action: JunoAction) -> str:
        return f"only another {RANK_NAMES[self.rank]} can be added to this play (at most {MAX_STACK} cards), or pass"


class _NoPlay(Decision):
    """A decision in which no card is played (a color, a trade, a challenge, a catch)."""

    __slots__ = ()

    def why_illegal(self, state: JunoState, action: JunoAction) -> str:
        if action.kind is _PLAY_KIND:
            return f"no card can be played now: {self.describe(state)}"
        return f"{action.text!r} is not possible now: {self.describe(state)}"


class ChooseColor(_NoPlay):
    """After a Wild (or a Wild turned up to start: `opening`), the color that continues play."""

    __slots__ = ("opening",)
    kind = "choose_color"
    asks = "must choose the color that continues play"
    fields = ("opening",)

    def __init__(self, seat: int, opening: bool = False) -> None:
        super().__init__(seat)
        self.opening = opening

    def legal_actions(self, state: JunoState) -> list[Action]:
        return list(CHOOSE)

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        state.color = action.color
        state.need_color = False
        if state.events is not None:
            state.emit("color_chosen", seat=self.seat, color=COLORS[action.color])
        if self.opening:
            state._start_turn(self.seat)
        else:
            state._continue()


class SwapHands(_NoPlay):
    """Seven-o: the player of a 7 trades hands with a player of their choice."""

    __slots__ = ()
    kind = "swap"
    asks = "must choose a player to trade hands with"

    def legal_actions(self, state: JunoState) -> list[Action]:
        return [SWAP[s] for s in range(state._players) if s != self.seat]

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        state._swap_hands(self.seat, action.seat)


class Challenge(_NoPlay):
    """Challenge rule: the next player may challenge the Wild Draw Four just played."""

    __slots__ = ("offender", "prev_color")
    kind = "challenge"
    fields = ("offender", "prev_color")
    shown = ("offender",)

    def __init__(self, seat: int, offender: int, prev_color: int) -> None:
        super().__init__(seat)
        self.offender = offender
        self.prev_color = prev_color

    def legal_actions(self, state: JunoState) -> list[Action]:
        return [CHALLENGE, PASS]

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        state._resolve_challenge(self.seat, self.offender, self.prev_color, action.kind is _CHALLENGE_KIND)

    def question(self, state: JunoState) -> str:
        return f"may challenge seat {self.offender}'s Wild Draw Four, or pass"


class Catch(_NoPlay):
    """The catch window: `target` did not call UNO; each other seat in turn may catch them."""

    __slots__ = ("target", "rest")
    kind = "catch"
    fields = ("target", "rest")
    shown = ("target",)

    def __init__(self, seat: int, target: int, rest: tuple[int, ...]) -> None:
        super().__init__(seat)
        self.target = target
        self.rest = rest

    def legal_actions(self, state: JunoState) -> list[Action]:
        return [CATCH, PASS]

    def resolve(self, state: JunoState, action: JunoAction) -> None:
        if action.kind is _CATCH_KIND:  # "If you don't yell UNO and you are caught ... you must draw two cards."
            state.emit("caught", seat=self.seat, target=self.target)
            state._draw(self.target, 2)
            state._continue()
        elif self.rest:
            state.pending.append(Catch(self.rest[0], self.target, self.rest[1:]))
        else:
            state._continue()

    def question(self, state: JunoState) -> str:
        return f"may catch seat {self.target} for not calling UNO, or pass"


DECISIONS: Final[tuple[type[Decision], ...]] = (Turn, AfterDraw, StackMore, ChooseColor, SwapHands, Challenge, Catch)
# Decisions are immutable, so the common ones are made once and shared.
TURN: Final[tuple[Turn, ...]] = tuple(Turn(s) for s in range(MAX_SEATS))
AFTER_DRAW: Final[tuple[tuple[AfterDraw, ...], ...]] = tuple(
    tuple(AfterDraw(s, t) for t in range(NUM_TYPES)) for s in range(MAX_SEATS)
)
