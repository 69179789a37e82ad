"""Per-card counters: which cards each seat was dealt, drew and played in a game.

A game may provide a better hook: an optional `State` method

    def card_counters(self, seat: int) -> dict[str, dict[str, int]]:
        return {"played": {"Red 7": 2, ...}, "dealt": {...}, "drawn": {...}}

called on the final state, mapping a counter name to `{card name: count}` for that seat.
When the hook exists the simulator plays with event recording off (faster). Otherwise the
counters are built from the events the game emits (event recording on):

* one counter per event kind: every event (public or private) whose data carries an integer
  `seat` and a card name `card` counts for that seat and card under the event's kind — `count`
  times when the data has an integer `count`, else once. JUNO gives `played`; IUNU gives
  `played`, `took` (from the Forum), `placed`, `afterlife_card`, `ability_skipped`;
* events whose data carries a `seat` and a list of card names `cards` count each card once.
  Two kinds have a meaning the report relies on: `dealt` (JUNO, IUNU) counts as **dealt**, and
  `drew_cards` counts as **drawn**, except the draws made before the game's first decision
  (the opening hand of Runes of Zun is drawn, not dealt), which count as **dealt**.

The final hand is not counted: who holds cards at the end is mostly who lost (in a shedding
game the winner holds none), which says nothing about any one card.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.events import Event
from ..core.state import State

#: one counted card: (seat, counter, card, count)
CardCount = tuple[int, str, str, int]

#: event kinds carrying a list of cards, and the counter they feed (others keep their kind)
_LIST_COUNTERS = {"dealt": "dealt", "drew_cards": "drawn"}


def has_hook(state: State) -> bool:
    """Whether the game's State provides `card_counters(seat)`."""
    return callable(getattr(state, "card_counters", None))


class EventCounter:
    """Counts (seat, counter, card) of a game's events. `kinds` renames
    a game's event kinds to the report's counters (a State's optional `card_counter_kinds`, e.g. Iuno
    Avatar's `{"announced": "played"}`); other kinds keep their name."""

    __slots__ = ("counts", "kinds")

    def __init__(self, kinds: dict[str, str] | None = None) -> None:
        self.counts: dict[tuple[int, str, str], int] = {}
        self.kinds = kinds or {}

    def feed(self, events: Iterable[Event], opening: bool = False) -> None:
        """Count `events`; `opening`: they happened before the first decision, so cards drawn
        then are the seat's opening hand (dealt)."""
        counts = self.counts
        for e in events:
            data = e.data
            seat = data.get("seat")
            if type(seat) is not int:
                continue
            card, cards = data.get("card"), data.get("cards")
            if type(card) is str:
                n = data.get("count", 1)
                key = (seat, self.kinds.get(e.kind, e.kind), card)
                counts[key] = counts.get(key, 0) + (n if type(n) is int else 1)
            elif type(cards) is list:
                kind = "dealt" if opening and e.kind == "drew_cards" else _LIST_COUNTERS.get(e.kind, e.kind)
                for c in cards:
                    if type(c) is str:
                        key = (seat, kind, c)
                        counts[key] = counts.get(key, 0) + 1


def card_counts(final: State, counter: EventCounter | None) -> list[CardCount]:
    """The counters of a finished game, sorted (seat, counter, card) so rows compare exactly."""
    out: list[CardCount] = []
    if has_hook(final):
        hook: Any = final.card_counters  # type: ignore[attr-defined]
        for seat in range(final.game.players):
            for name, counts in hook(seat).items():
                out.extend((seat, str(name), str(card), int(n)) for card, n in counts.items() if n)
    elif counter is not None:
        out.extend((seat, kind, card, n) for (seat, kind, card), n in counter.counts.items() if n)
    out.sort()
    return out
