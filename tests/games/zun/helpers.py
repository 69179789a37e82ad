"""Build Runes of Zun positions for scenario tests: chosen hands, deck, HP and whose turn."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.games.zun.decisions import ActionPhase
from cardtable.games.zun.state import EFFECTS, STACK, ZunState


def position(
    players: int = 2,
    hands: dict[int, list[str]] | None = None,
    deck: list[str] | None = None,
    hp: dict[int, int] | None = None,
    turn: int = 0,
    **options: Any,
) -> ZunState:
    """A state at `turn`'s Action Phase. `deck` lists the next cards drawn, first drawn first;
    the rest of the runes lie under them. Every rune is accounted for (conservation)."""
    game = cardtable.make("zun", players=players, **options)
    s: ZunState = game.new_state(0)
    pool = [r for r, k in enumerate(game.counts) for _ in range(k)]
    by_name = {r.name: r.index for r in game.rune_set.runes}

    def take(name: str) -> int:
        r = by_name[name]
        pool.remove(r)
        return r

    s.hands = [[take(c) for c in (hands or {}).get(seat, [])] for seat in range(players)]
    top = [take(c) for c in (deck or [])]
    s.deck = pool + list(reversed(top))
    s.discard = []
    s.hp = [(hp or {}).get(seat, 12) for seat in range(players)]
    s.table, s.ongoing, s.played = [], [], []
    s.chain, s.sequence = STACK.record(), EFFECTS.record()
    s.turn = turn
    s.turns = 1
    s.phase = "action"
    s.pending = [ActionPhase(turn)]
    s._legal = None
    if s.events is not None:
        s.events.clear()
    return s


def start_turn(s: ZunState, seat: int) -> None:
    """Begin `seat`'s turn from its Start of Turn Phase."""
    s.pending = []
    s.chain = STACK.record()
    s._begin_turn(seat)
    s._run()
    s._legal = None


def play(s: ZunState, *actions: str) -> None:
    for a in actions:
        s.apply(a)


def legal(s: ZunState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def names(s: ZunState, cards: list[int]) -> list[str]:
    return sorted(s.game.rune_set.runes[r].name for r in cards)


def total(s: ZunState) -> int:
    return s.invariants()["cards"]


def events(s: ZunState, kind: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in (s.events or []) if e.kind == kind]
