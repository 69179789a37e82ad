"""Per-card counters: how often each seat played each card, and what it still held at the end.

A game may provide a better hook: an optional `State` method

    def card_counters(self, seat: int) -> dict[str, dict[str, int]]:
        return {"played": {"Red 7": 2, ...}, "held": {...}, "drafted": {...}}

called on the final state, mapping a counter name to `{card name: count}` for that seat.
When the hook exists the simulator plays with event recording off (faster). Otherwise the
counters are built from the events the game emits (event recording on):

* one counter per event kind: every event (public or private) whose data carries an integer
  `seat` and a card name `card` counts for that seat and card under the event's kind — `count`
  times when the data has an integer `count`, else once. JUNO gives `played`; IUNU gives
  `played`, `took` (from the Forum), `placed`, `afterlife_card`, `ability_skipped`;
* `held`: the `hand` list of the final `observation(seat)`, when the observation has one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.events import Event
from ..core.state import State

#: one counted card: (seat, counter, card, count)
CardCount = tuple[int, str, str, int]


def has_hook(state: State) -> bool:
    """Whether the game's State provides `card_counters(seat)`."""
    return callable(getattr(state, "card_counters", None))


class EventCounter:
    """Counts (seat, event kind, card) as events are drained from a state during play."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[tuple[int, str, str], int] = {}

    def feed(self, events: Iterable[Event]) -> None:
        counts = self.counts
        for e in events:
            data = e.data
            seat, card = data.get("seat"), data.get("card")
            if type(seat) is not int or type(card) is not str:
                continue
            n = data.get("count", 1)
            key = (seat, e.kind, card)
            counts[key] = counts.get(key, 0) + (n if type(n) is int else 1)


def card_counts(final: State, counter: EventCounter | None) -> list[CardCount]:
    """The counters of a finished game, sorted (seat, counter, card) so rows compare exactly."""
    out: list[CardCount] = []
    players = final.game.players
    if has_hook(final):
        hook: Any = final.card_counters  # type: ignore[attr-defined]
        for seat in range(players):
            for name, counts in hook(seat).items():
                out.extend((seat, str(name), str(card), int(n)) for card, n in counts.items() if n)
    else:
        if counter is not None:
            out.extend((seat, kind, card, n) for (seat, kind, card), n in counter.counts.items() if n)
        for seat in range(players):
            hand = final.observation(seat).get("hand")
            if isinstance(hand, list):
                held: dict[str, int] = {}
                for card in hand:
                    if isinstance(card, str):
                        held[card] = held.get(card, 0) + 1
                out.extend((seat, "held", card, n) for card, n in held.items())
    out.sort()
    return out
