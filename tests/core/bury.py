"""A small game whose cards never change owner, to test `Pool.OWNER` and `known_positions`.

"Bury": 2 players, each with a deck of their own six cards (seat 0 owns 0-5, seat 1 owns 6-11),
two of them dealt to the hand. On your turn you `draw` the top of your deck, or `bury N`: card N
from your hand goes face down to the bottom of your deck, where you know it is (as Ivion's second
wind puts the rest of the top five at the bottom of a deck in the order its player chose). The game
ends after 10 turns; most cards in hand wins.

So a determinized copy for a seat deals the other seat's hidden cards among that seat's own hand
and deck only (a card never changes owner), and leaves the cards the seat buried where they are.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import IntEnum
from typing import Any

from pydantic import Field

from cardtable.core import (
    Action,
    ActionSpace,
    CardAction,
    Decision,
    Game,
    GameOptions,
    GameSpec,
    Layout,
    Order,
    Pool,
    Rng,
    State,
    StateLayout,
    Visibility,
    Zone,
    zero_sum_returns,
)

CARDS = 6    # per seat
TURNS = 10


class Kind(IntEnum):
    DRAW = 0
    BURY = 1


SPACE = ActionSpace("bury", "Bury", [
    (CardAction(Kind.DRAW), "draw"),
    *((CardAction(Kind.BURY, c), f"bury {c}") for c in range(2 * CARDS)),
])


class BuryOptions(GameOptions):
    players: int = Field(2, ge=2, le=2)


class Turn(Decision):
    __slots__ = ()
    kind = "turn"

    def legal_actions(self, state: BuryState) -> list[Action]:
        out: list[Action] = [SPACE.find(Kind.DRAW)] if state.deck[self.seat] else []
        return out + [SPACE.find(Kind.BURY, c) for c in sorted(state.hand[self.seat])]

    def resolve(self, state: BuryState, action: CardAction) -> None:
        seat = self.seat
        deck = state.deck[seat]
        if action.kind == Kind.DRAW:
            state.hand[seat].append(deck.pop())
            state.buried[seat] = min(state.buried[seat], len(deck))
        else:
            state.hand[seat].remove(action.card)
            deck.insert(0, action.card)
            state.buried[seat] += 1
        state.turns += 1
        if state.turns >= TURNS:
            state.is_over = True
        else:
            state.pending.append(Turn(state.turns % 2))

    def describe(self, state: BuryState) -> str:
        return f"seat {self.seat} draws or buries a card"


class BuryState(State):
    layout = StateLayout(
        zones=(
            Zone("deck", Visibility.HIDDEN, Order.PILE, Layout.PER_SEAT, pool=Pool.OWNER),
            Zone("hand", Visibility.OWNER, Order.SET, Layout.PER_SEAT, pool=Pool.OWNER),
        ),
        values=("turns",),
        lists=("buried",),
        decisions=(Turn,),
    )
    __slots__ = ("deck", "hand", "turns", "buried")

    deck: list[list[int]]
    hand: list[list[int]]
    turns: int
    buried: list[int]    # per seat: how many cards at the bottom of its deck it put there itself

    def known_positions(self, seat: int) -> dict[tuple[str, int | str | None], Collection[int]]:
        return {("deck", seat): range(self.buried[seat])} if self.buried[seat] else {}

    def observation(self, seat: int | None) -> dict[str, Any]:
        d = self.decision
        return {
            "decks": [len(x) for x in self.deck],
            "hands": [len(x) for x in self.hand],
            "hand": None if seat is None else sorted(self.hand[seat]),
            "buried": None if seat is None else self.deck[seat][: self.buried[seat]],
            "turns": self.turns,
            "decision": None if d is None else [d.kind, d.seat],
        }

    def _returns(self) -> list[float]:
        return zero_sum_returns(self._winners(), 2)

    def _winners(self) -> list[int]:
        most = max(len(h) for h in self.hand)
        return [s for s in range(2) if len(self.hand[s]) == most]


class Bury(Game[BuryState]):
    spec = GameSpec(name="bury", title="Bury", min_players=2, max_players=2)
    Options = BuryOptions

    def _build_action_space(self) -> ActionSpace[Any]:
        return SPACE

    def _empty_state(self) -> BuryState:
        return BuryState.__new__(BuryState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> BuryState:
        state = BuryState.__new__(BuryState)
        state._init_base(self, seed, Rng(seed), record_events)
        state.deck = [list(range(s * CARDS, (s + 1) * CARDS)) for s in range(2)]
        for deck in state.deck:
            state.rng.shuffle(deck)
        state.hand = [[deck.pop(), deck.pop()] for deck in state.deck]
        state.turns = 0
        state.buried = [0, 0]
        state.pending.append(Turn(0))
        return state
