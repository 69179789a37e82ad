"""Build a precise JUNO position for a scenario test.

`position(game, hands=[...], discard=[...], ...)` starts from a fresh state and sets the hands,
the piles, the color in play, whose turn it is and the pending decision directly, so a test can
state the exact cards of a rule clause. Cards are written by name ("red 7", "blue skip",
"wild draw four"); a pile is listed bottom to top, so its last card is the top card.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import cardtable
from cardtable.core.state import Decision
from cardtable.games.juno.cards import CARD_BY_NAME, CARD_COLOR, CARD_NAME, COLORS, NO_COLOR
from cardtable.games.juno.decisions import Turn
from cardtable.games.juno.game import Juno
from cardtable.games.juno.state import JunoState

Cards = str | Iterable[str]


def juno(**options: Any) -> Juno:
    """A JUNO game; a single round unless the test asks for match play."""
    options.setdefault("match", False)
    game = cardtable.make("juno", **options)
    assert isinstance(game, Juno)
    return game


def cards(names: Cards) -> list[int]:
    """'red 3, wild' or ['red 3', 'wild'] -> card types."""
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    return [CARD_BY_NAME[" ".join(n.split()).lower()] for n in names]


def names(types: Iterable[int]) -> list[str]:
    return sorted(CARD_NAME[t] for t in types)


def hand(state: JunoState, seat: int) -> list[str]:
    return names(state.hands[seat])


def position(
    game: Juno,
    hands: list[Cards],
    discard: Cards = "red 5",
    draw: Cards = "green 1, green 2, green 3, green 4",
    color: str | None = None,
    turn: int = 0,
    direction: int = 1,
    dealer: int | None = None,
    pending: list[Decision] | None = None,
    penalty: int = 0,
    scores: list[int] | None = None,
    record_events: bool = True,
) -> JunoState:
    """A state with exactly these cards and this decision pending (default: `turn`'s Turn)."""
    n = game.players
    assert len(hands) == n, f"give {n} hands"
    state = game.new_state(seed=1, record_events=record_events)
    state.hands = [cards(h) for h in hands]
    state.discard = cards(discard)
    state.draw = cards(draw)
    top = state.discard[-1]
    state.color = COLORS.index(color) if color is not None else CARD_COLOR[top]
    assert state.color != NO_COLOR, "a wild on top needs color="
    state.direction = direction
    state.turn = turn
    state.dealer = (turn - 1) % n if dealer is None else dealer
    state.pending = [Turn(turn)] if pending is None else list(pending)
    state.penalty = penalty
    state.skips = 0
    state.blocked = 0
    state._derive()  # nothing is believed of hands set by hand (`voids`)
    if scores is not None:
        state.scores = list(scores)
    if state.events is not None:
        state.events = []
    state._legal = None
    return state


def legal(state: JunoState) -> list[str]:
    return [a.text for a in state.legal_actions()]


def snapshot(state: JunoState) -> str:
    import json

    return json.dumps(state.to_json(), sort_keys=True)


def kinds(state: JunoState, seat: int | None = None) -> list[str]:
    """Kinds of the recorded events `seat` may see (all of them when seat is -1)."""
    assert state.events is not None
    return [e.kind for e in state.events if seat == -1 or e.visible_to(seat)]
