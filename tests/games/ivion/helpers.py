"""Build exact Ivion positions for scenario tests: which cards are where, who is where, what each has."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.core.registry import game_class, register
from cardtable.games.ivion.actions import tile_name
from cardtable.games.ivion.cards import base_library
from cardtable.games.ivion.decisions import Main
from cardtable.games.ivion.state import IvionState

try:
    game_class("ivion")
except Exception:  # before the game is registered
    register("ivion", "cardtable.games.ivion.game:Ivion")

EDDA, LIO = "Sir Edda Vane", "Lio Marrow"


def variant(hero: str, swap: dict[str, int]) -> dict[str, Any]:
    """A starter as a Make Your Own Hero deck with some cards swapped (card -> copies, 0: none):
    for a scenario with a card its starter no longer holds (issue 34: Vow of Honour and Dispel left
    Edda's and Lio's decks; chivalry and counters are still rules, and their cards are in the pools)."""
    lib = base_library()
    h = lib.heroes[hero]
    cards = {c.name: c.marked for a in (*h.classes, h.specialization) for c in lib.archetype_cards(a) if c.marked}
    cards = {name: n for name, n in {**cards, **swap}.items() if n}
    return {"name": hero, "mode": "custom", "classes": list(h.classes), "specialization": h.specialization,
            "traits": list(h.traits), "cards": cards}


#: Sir Edda Vane with Vow of Honour (chivalry) for Oath of Mending, as she was before issue 34's fifth retune
EDDA_VOW = variant(EDDA, {"Vow of Honour": 1, "Oath of Mending": 0})
#: Lio Marrow with Dispel (a counter) for Mana Well
LIO_DISPEL = variant(LIO, {"Dispel": 1, "Mana Well": 0})


def tile(name: str, size: int = 4) -> int:
    """'a1' -> 0 (columns a.., rows 1.. from seat 0's side)."""
    t = (int(name[1:]) - 1) * size + "abcdefgh".index(name[0])
    assert tile_name(t, size) == name
    return t


def take(s: IvionState, seat: int, name: str, dest: list[int]) -> int:
    """Move a card named `name` of `seat` out of its deck into `dest`."""
    card = next(c for c in s.deck[seat] if s.name(c) == name)
    s.deck[seat].remove(card)
    dest.append(card)
    return card


def position(*, hands: tuple[list[str], list[str]] = ([], []), at: tuple[str, str] = ("b2", "c2"), turn: int = 0,
             actions: tuple[int, int] = (3, 0), power: tuple[int, int] = (0, 0), initiative: tuple[int, int] = (1, 0),
             decks: tuple[Any, Any] = (EDDA, LIO), **options: Any) -> IvionState:
    """Seat `turn` to decide in its turn (its main step, nothing unresolved), everything else as given."""
    game = cardtable.make("ivion", decks=list(decks), **options)
    s: IvionState = game.new_state(seed=1)
    size = game.options.board
    for seat in range(2):
        s.deck[seat] += s.hand[seat]
        s.hand[seat] = []
        for name in hands[seat]:
            take(s, seat, name, s.hand[seat])
    s.turn = turn
    s.first = 1 - turn
    s.turn_number = 3
    s.pos = [tile(at[0], size), tile(at[1], size)]
    s.pools = [{"actions": actions[i], "power": power[i]} for i in range(2)]
    s.initiative = list(initiative)
    s.events = []
    s.pending = [Main(turn)]
    s._legal = None
    return s


def names(s: IvionState, cards: list[int]) -> list[str]:
    return sorted(s.name(c) for c in cards)


def texts(s: IvionState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def play(s: IvionState, *moves: str) -> IvionState:
    for m in moves:
        s.apply(m)
    return s


def tide_content() -> dict[str, Any]:
    """Content of our own as one table, as a content file holds it (and as the web sends it inline): a
    class and a specialization of 15 Herocrafting-marked cards each, an ultimate, two traits and the
    starter hero Nerei Tide who plays them."""
    cards: list[dict[str, Any]] = []
    for arch, cost in (("Tidecaller", 1), ("Tidewarden", 2)):
        cards += [{"name": f"{arch} Wave {k + 1}", "archetype": arch, "marked": 1, "actions": cost if k % 4 else 0,
                   "power": 1 if k % 3 == 0 else -1 if k % 5 == 1 else 0, "effects": [{"verb": "draw", "n": 1}]}
                  for k in range(15)]
    cards += [{"name": "High Tide", "archetype": "Tidewarden", "feat": "ultimate", "hp": 30, "passive": True},
              {"name": "Undertow", "feat": "trait", "pips": ["blue"], "marked": 1, "passive": True},
              {"name": "Riptide", "feat": "trait", "pips": ["blue"], "marked": 1, "passive": True}]
    return {"class": [{"name": "Tidecaller", "colour": "blue", "description": "Pulls the enemy into the deep."}],
            "specialization": [{"name": "Tidewarden", "colours": ["blue"]}],
            "card": cards,
            "hero": [{"name": "Nerei Tide", "mode": "herocrafting", "classes": ["Tidecaller", "Tidecaller"],
                      "specialization": "Tidewarden", "traits": ["Undertow", "Riptide"]}]}
