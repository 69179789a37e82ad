"""A small game written only against the core, to test zones and decisions on every zone form.

"Tuck": 2-4 players, a deck of 12 cards (types 0-3, three copies each). Each player is dealt 3.
On your turn you either `play N` a card from your hand face up onto the card played before it (that
card hosts it: HOSTED; the first is hosted by "table"), `tuck N` it face down into your one-card
slot (SLOT, empty: -1), `bank N` it face down into your vault (COUNTS: a count per type), or
`draw`. `peek` (once a game) draws
the top two cards of the deck into a pending decision that asks which one to keep; the other goes
to the bottom of the deck (a decision holding hidden cards, like IUNU's Priest). The game ends
after 12 turns; most cards played and banked wins.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cardtable.core import (
    Action,
    ActionSpace,
    Decision,
    Form,
    Game,
    GameOptions,
    GameSpec,
    Hidden,
    Layout,
    Order,
    Rng,
    State,
    StateLayout,
    Visibility,
    Zone,
    zero_sum_returns,
)

TYPES = 4
TURNS = 12


class ToyAction(Action):
    __slots__ = ("kind", "card")

    def __init__(self, kind: str, card: int = -1) -> None:
        self.kind = kind
        self.card = card


SPACE = ActionSpace("toy", "Tuck", [
    *((ToyAction("play", t), f"play {t}") for t in range(TYPES)),
    *((ToyAction("tuck", t), f"tuck {t}") for t in range(TYPES)),
    *((ToyAction("bank", t), f"bank {t}") for t in range(TYPES)),
    (ToyAction("draw"), "draw"),
    (ToyAction("peek"), "peek"),
    *((ToyAction("keep", t), f"keep {t}") for t in range(TYPES)),
])
BY_TEXT = {a.text: a for a in SPACE}


class ToyOptions(GameOptions):
    players: int = Field(2, ge=2, le=4)


class Turn(Decision):
    __slots__ = ()
    kind = "turn"

    def legal_actions(self, state: ToyState) -> list[Action]:
        hand = sorted(set(state.hands[self.seat]))
        out: list[Action] = [BY_TEXT[f"play {t}"] for t in hand] + [BY_TEXT[f"bank {t}"] for t in hand]
        if state.tucked[self.seat] < 0:
            out += [BY_TEXT[f"tuck {t}"] for t in hand]
        if state.deck:
            out.append(BY_TEXT["draw"])
        if len(state.deck) >= 2 and not state.peeked[self.seat]:
            out.append(BY_TEXT["peek"])
        return out or [BY_TEXT["draw"]]

    def resolve(self, state: ToyState, action: ToyAction) -> None:
        seat = self.seat
        if action.kind == "play":
            host = state.last
            state.attached.setdefault(host, [])
            state.hands[seat].remove(action.card)
            state.attached[host].append(action.card)
            state.last = str(action.card)
            state.played[seat] += 1
        elif action.kind == "bank":
            state.hands[seat].remove(action.card)
            state.vault[seat][action.card] += 1
        elif action.kind == "tuck":
            state.hands[seat].remove(action.card)
            state.tucked[seat] = action.card
        elif action.kind == "peek":
            state.peeked[seat] = True
            state.pending.append(Keep(seat, (state.deck.pop(), state.deck.pop())))
            return
        elif state.deck:
            state.hands[seat].append(state.deck.pop())
        state.end_turn()

    def describe(self, state: ToyState) -> str:
        return f"seat {self.seat} plays, tucks or draws a card"

    def why_illegal(self, state: ToyState, action: ToyAction) -> str:
        if action.kind in ("play", "tuck", "bank") and action.card not in state.hands[self.seat]:
            return f"seat {self.seat} holds no {action.card}"
        if action.kind == "tuck":
            return "your slot already holds a tucked card"
        return super().why_illegal(state, action)


class Keep(Decision):
    """Which of the two peeked cards to keep (they are this seat's secret)."""

    __slots__ = ("cards",)
    kind = "keep"
    fields = ("cards",)

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        super().__init__(seat)
        self.cards = cards

    def legal_actions(self, state: ToyState) -> list[Action]:
        return [BY_TEXT[f"keep {t}"] for t in sorted(set(self.cards))]

    def resolve(self, state: ToyState, action: ToyAction) -> None:
        rest = list(self.cards)
        rest.remove(action.card)
        state.hands[self.seat].append(action.card)
        state.deck.insert(0, rest[0])
        state.end_turn()


class ToyState(State):
    layout = StateLayout(
        zones=(
            Zone("deck", Visibility.HIDDEN, Order.PILE),
            Zone("hands", Visibility.OWNER, Order.SET, Layout.PER_SEAT),
            Zone("attached", Visibility.PUBLIC, layout=Layout.HOSTED, host="card"),
            Zone("tucked", Visibility.OWNER, form=Form.SLOT, revealed_when_over=True),
            Zone("vault", Visibility.OWNER, Order.SET, Layout.PER_SEAT, Form.COUNTS),
        ),
        values=("turns", "last"),
        lists=("peeked", "played"),
        decisions=(Turn, Keep),
    )
    __slots__ = ("deck", "hands", "attached", "tucked", "vault", "turns", "last", "peeked", "played")

    deck: list[int]
    hands: list[list[int]]
    attached: dict[str, list[int]]  # host ("table", or the card played before) -> cards played on it
    tucked: list[int]
    vault: list[list[int]]          # per seat, banked cards per type
    turns: int
    last: str                       # the host of the next card played
    peeked: list[bool]
    played: list[int]

    def end_turn(self) -> None:
        self.turns += 1
        if self.turns >= TURNS:
            self.is_over = True
            return
        self.pending.append(Turn(self.turns % self.game.players))

    def hidden_outside_zones(self, seat: int) -> list[Hidden]:
        d = self.decision
        if isinstance(d, Keep) and d.seat != seat:
            return [Hidden("cards", list(d.cards), _put_keep)]
        return []

    def invariants(self) -> dict[str, int]:
        inv = super().invariants()
        d = self.decision
        inv["cards"] += len(d.cards) if isinstance(d, Keep) else 0
        return inv

    def observation(self, seat: int | None) -> dict[str, Any]:
        d = self.decision
        return {
            "deck": len(self.deck),
            "attached": {k: list(v) for k, v in self.attached.items()},
            "hands": [len(h) for h in self.hands],
            "hand": None if seat is None else sorted(self.hands[seat]),
            "tucked": [t >= 0 for t in self.tucked],
            "my_tucked": None if seat is None else self.tucked[seat],
            "revealed": list(self.tucked) if self.is_over else None,
            "keeping": list(d.cards) if isinstance(d, Keep) and d.seat == seat else None,
            "played": list(self.played),
            "banked": [sum(v) for v in self.vault],
            "my_vault": None if seat is None else list(self.vault[seat]),
            "decision": None if d is None else [d.kind, d.seat],
        }

    def _returns(self) -> list[float]:
        return zero_sum_returns(self._winners(), self.game.players)

    def _winners(self) -> list[int]:
        totals = [p + sum(v) for p, v in zip(self.played, self.vault, strict=True)]
        return [s for s, t in enumerate(totals) if t == max(totals)]


def _put_keep(state: State, cards: list[int]) -> None:
    d = state.pending[-1]
    state.pending[-1] = Keep(d.seat, tuple(cards))


class Toy(Game[ToyState]):
    spec = GameSpec(name="toy", title="Tuck", min_players=2, max_players=4)
    Options = ToyOptions

    def _build_action_space(self) -> ActionSpace[Any]:
        return SPACE

    def _empty_state(self) -> ToyState:
        return ToyState.__new__(ToyState)

    def new_state(self, seed: int = 0, record_events: bool = True) -> ToyState:
        state = ToyState.__new__(ToyState)
        state._init_base(self, seed, Rng(seed), record_events)
        n = self.players
        state.deck = [t for t in range(TYPES) for _ in range(3)]
        state.rng.shuffle(state.deck)
        state.hands = [[state.deck.pop() for _ in range(3)] for _ in range(n)]
        state.attached = {}
        state.tucked = [-1] * n
        state.vault = [[0] * TYPES for _ in range(n)]
        state.turns = 0
        state.last = "table"
        state.peeked = [False] * n
        state.played = [0] * n
        state.pending.append(Turn(0))
        return state
