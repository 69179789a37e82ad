"""Build a precise IUNU position for a scenario test.

`position(game, hands=[...], dynasty=[...], ...)` starts from a fresh state and sets hands,
Dynasties, Bread, Debens, dice, the Forum and the decks directly, so a test can state the exact
cards of a rule clause. Citizens are written by name ("Noble, Farmer"); a Dynasty is a mapping
{"Farmer": 3}; the Citizen deck is listed bottom to top (its last card is drawn first).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import cardtable
from cardtable.core.state import Decision
from cardtable.games.iunu.cards import CITIZENS
from cardtable.games.iunu.decisions import PlayCitizen
from cardtable.games.iunu.game import Iunu
from cardtable.games.iunu.state import IunuState

Cards = str | Iterable[str]
AFTERLIFE = {
    "peret": 0, "akhet": 1, "shemu": 2, "hatshepsut": 3, "amenhotep": 4, "anubis": 5, "osiris": 6,
    "nephthys": 7, "khufu": 8,
}


def iunu(**options: Any) -> Iunu:
    game = cardtable.make("iunu", **options)
    assert isinstance(game, Iunu)
    return game


def cards(names: Cards) -> list[int]:
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    return [[c.lower() for c in CITIZENS].index(n.strip().lower()) for n in names]


def names(types: Iterable[int]) -> list[str]:
    return sorted(CITIZENS[t] for t in types)


def counts(d: Mapping[str, int] | None) -> list[int]:
    out = [0] * len(CITIZENS)
    for name, n in (d or {}).items():
        out[cards(name)[0]] = n
    return out


def position(
    game: Iunu,
    hands: list[Cards] | None = None,
    dynasty: list[Mapping[str, int]] | None = None,
    fed: list[Mapping[str, int]] | None = None,
    debens: list[int] | None = None,
    dice: list[int] | None = None,
    forum: Cards | None = None,
    deck: Cards | None = None,
    turn: int = 0,
    pending: list[Decision] | None = None,
    held: list[int] | None = None,
    afterlife_deck: list[int] | None = None,
    record_events: bool = True,
) -> IunuState:
    state = game.new_state(0, record_events=record_events)
    n = game.players
    competitors = len(state.dynasty)
    if hands is not None:
        state.hands = [cards(h) for h in hands]
    if dynasty is not None:
        state.dynasty = [counts(d) for d in dynasty] + [[0] * 9 for _ in range(competitors - len(dynasty))]
    if fed is not None:
        state.fed = [counts(f) for f in fed] + [[0] * 9 for _ in range(competitors - len(fed))]
    if debens is not None:
        state.debens = list(debens)
    if dice is not None:
        state.dice = list(dice)
    if forum is not None:
        state.forum = cards(forum)
    if deck is not None:
        state.deck = cards(deck)
    if held is not None:
        state.held = list(held) + [-1] * (competitors - len(held))
    if afterlife_deck is not None:
        state.afterlife_deck = list(afterlife_deck)
    state.turn = turn
    state.starter = turn
    state.k = 0
    state.pending = list(pending) if pending is not None else [PlayCitizen(turn)]
    state._legal = None
    assert n == len(state.hands)
    return state


def legal(state: IunuState) -> list[str]:
    return [a.text for a in state.legal_actions()]


def snapshot(state: IunuState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def hand(state: IunuState, seat: int) -> list[str]:
    return names(state.hands[seat])


def col(state: IunuState, seat: int, name: str) -> int:
    return state.dynasty[seat][cards(name)[0]]
