"""Scenario tables for Iuno Avatar tests: a state with chosen cards in each place."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.core.effects import Context
from cardtable.games.iuno_avatar.cards import DECK_FILE, read_file
from cardtable.games.iuno_avatar.decisions import EFFECTS, Turn, UseRoll
from cardtable.games.iuno_avatar.language import VERBS
from cardtable.games.iuno_avatar.state import AvatarState

#: The cards as the rule tests were written with them, where issue 29's balance pass (a medium that
#: plays to win, games that end) changed them in deck.toml: a rule test shows a rule with an example
#: card, and a rebalanced deck must not change what it shows. `table()` plays these unless a test
#: passes `cards`; the per-card tests (test_avatar_cards.py) play the deck itself.
EXAMPLES: dict[str, dict[str, Any]] = {
    "Phoenix": {"when": {"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "white",
                         "to_area": "hell"},
                "effect": {"verb": "take", "what": "gem", "owner": "white", "n": 2}},
    "Fire Titan": {"kind": "exclusive", "when": {"verb": "discard", "what": "gem", "owner": "white"},
                   "effect": {"verb": "discard", "what": "gem", "owner": "black"}},
    "Gnome": {"effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Golem": {"kind": "exclusive", "when": {"verb": "move", "what": "figure card", "from_area": "earth",
                                            "from_owner": "white", "to_area": "hell"}},
    "Mole": {"when": {"verb": "take", "what": "card", "owner": "white"},
             "effect": {"verb": "discard", "what": "card", "owner": "white"}},
    "Seraph": {"cost": ["light", "light", "life"]},
    "Lantern Sprite": {"when": {"verb": "discard", "what": "card", "owner": "white"},
                       "effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Blessing": {"effect": {"verb": "move", "what": "figure card", "from_area": "heaven", "from_owner": "white",
                            "to_area": "heaven", "to_owner": "black"}},
    "Treant": {"cost": ["life", "life", "earth"]},
    "Undine": {"effect": {"verb": "discard", "what": "card", "owner": "white"}},
    "Leviathan": {"cost": ["water", "water", "dark"]},
    "Kraken": {"kind": "inclusive",
               "when": {"verb": "move", "what": "spell card", "from_area": "heaven", "from_owner": "black",
                        "to_area": "earth", "to_owner": "black"},
               "effect": {"verb": "discard", "what": "gem", "owner": "black"}},
    "Tide": {"effect": {"verb": "discard", "what": "card", "owner": "white"}},
    "Lich": {"when": {"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "black",
                      "to_area": "hell"}},
    "Shade": {"when": {"verb": "take", "what": "die", "owner": "black"},
              "effect": {"verb": "discard", "what": "gem", "owner": "black"}},
    "Demon": {"cost": ["dark", "dark", "fire", "fire"]},
    "Plunder": {"effect": {"verb": "discard", "what": "card", "owner": "white"}},
    **{name: {"symbols": 2} for name in ("Mountain Topaz", "Star Diamond", "Heart Emerald", "Ocean Sapphire",
                                         "Void Onyx")},
}

#: The cards as the rule tests were written with them, where the deck that uses every row of the
#: language table (issue 29, second pass: effects of several steps, figures answering every activity
#: the rules allow) changed them: the fields it changed, as the deck had them before.
WHOLE_LANGUAGE: dict[str, dict[str, Any]] = {
    "Fireball": {"effect": {"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "black", "to_area": "hell"}},
    "Kindle": {"effect": {"verb": "take", "what": "die", "owner": "white"}},
    "Wildfire": {"effect": {"verb": "discard", "what": "gem", "owner": "black", "n": 2}},
    "Gnome": {"kind": "inclusive", "when": {"verb": "take", "what": "die", "owner": "white"}},
    "Golem": {"effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Bury": {"effect": {"verb": "discard", "what": "gem card", "owner": "white"}},
    "Rockslide": {"effect": {"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "black", "to_area": "hell"}},
    "Excavate": {"effect": {"verb": "move", "what": "figure card", "from_area": "hell", "to_area": "earth", "to_owner": "white"}},
    "Seraph": {"when": {"verb": "take", "what": "card", "owner": "white"}, "effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Revelation": {"effect": {"verb": "take", "what": "gem", "owner": "white", "n": 2}},
    "Smite": {"effect": {"verb": "discard", "what": "gem", "owner": "black"}},
    "Dryad": {"effect": {"verb": "discard", "what": "card", "owner": "white"}},
    "Unicorn": {"when": {"verb": "take", "what": "gem", "owner": "black"}, "effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Regrowth": {"effect": {"verb": "move", "what": "gem card", "from_area": "hell", "to_area": "heaven", "to_owner": "white"}},
    "Harvest": {"effect": {"verb": "take", "what": "gem", "owner": "white", "n": 3}},
    "Renewal": {"effect": {"verb": "move", "what": "figure card", "from_area": "heaven", "from_owner": "white", "to_area": "earth", "to_owner": "white"}},
    "Undine": {"kind": "exclusive", "when": {"verb": "take", "what": "die", "owner": "white"}},
    "Leviathan": {"when": {"verb": "take", "what": "gem", "owner": "black"}, "effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Kraken": {"cost": ["water", "water"]},
    "Whirlpool": {"effect": {"verb": "move", "what": "card", "from_area": "hell", "to_area": "heaven", "to_owner": "black"}},
    "Siphon": {"effect": {"verb": "take", "what": "gem", "owner": "black"}},
    "Lich": {"effect": {"verb": "take", "what": "gem", "owner": "white"}},
    "Demon": {"when": {"verb": "discard", "what": "card", "owner": "white"}, "effect": {"verb": "move", "what": "card", "from_area": "hell", "to_area": "heaven", "to_owner": "black"}},
    "Curse": {"effect": {"verb": "move", "what": "spell card", "from_area": "heaven", "from_owner": "white", "to_area": "heaven", "to_owner": "black"}},
    "Soul Theft": {"effect": {"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "black", "to_area": "earth", "to_owner": "white"}},
}
for _name, _fields in WHOLE_LANGUAGE.items():
    EXAMPLES[_name] = {**_fields, **EXAMPLES.get(_name, {})}


def table(players: int = 2, *, heaven: dict[int, list[str]] | None = None, earth: dict[int, dict[str, int]] | None = None,
          hell: list[str] | None = None, stack_top: list[str] | None = None, gems: list[int] | None = None,
          dice: list[int] | None = None, middle: int | None = None, turn: int = 0, seed: int = 0,
          **options: Any) -> AvatarState:
    """A game whose cards are where the test puts them (every other card in the stack, `stack_top`
    on top), seat `turn` to act with a `Turn` decision and (unless `dice` says otherwise) one die
    to roll, no effect running. (With no die left there is no `Turn`: the turn ends.) Its cards
    are the rule tests' examples (`EXAMPLES`) unless `cards` says otherwise."""
    if "cards" not in options:
        options["cards"] = deck_with()
    game = cardtable.make("iuno_avatar", players=players, **options)
    s = game.new_state(seed)
    index = {c.name: c.index for c in game.cards}
    placed: list[int] = []

    def ids(names: list[str]) -> list[int]:
        out = [index[n] for n in names]
        placed.extend(out)
        return out

    s.heaven = [ids((heaven or {}).get(p, [])) for p in range(players)]
    s.earth = [[] for _ in range(players)]
    s.charge = [0] * len(game.cards)
    for p, figures in (earth or {}).items():
        for name, on in figures.items():
            s.earth[p].extend(ids([name]))
            s.charge[index[name]] = on
    s.hell = ids(hell or [])
    top = ids(stack_top or [])
    s.announced = []
    s.stack = [c for c in range(len(game.cards)) if c not in placed] + list(reversed(top))
    s.gems = list(gems) if gems is not None else [3] * players
    s.dice = list(dice) if dice is not None else [int(p == turn) for p in range(players)]
    s.middle = middle if middle is not None else 6 - sum(s.dice)
    s.purse = 30 - sum(s.gems) - sum(s.charge)
    s.turn = turn
    s.turns = 1
    s.spells_cast = 0
    s.phase = "action"
    s.sequence = EFFECTS.record()
    s.pending = [Turn(turn)]
    s._legal = None
    return s


def deck_with(**cards: dict[str, Any]) -> list[dict[str, Any]]:
    """The deck's card file with the rule tests' example cards (`EXAMPLES`) and some more cards'
    fields set, so that a rule test keeps its example card when the deck is rebalanced:
    `deck_with(Undine={"when": {...}})` (spaces in names: `**{"Fire Titan": ...}`)."""
    raw: list[dict[str, Any]] = read_file(DECK_FILE)
    for card in raw:
        card.update(EXAMPLES.get(card["name"], {}))
        card.update(cards.get(card["name"], {}))
    return raw


def the_deck() -> list[dict[str, Any]]:
    """The deck itself (deck.toml), for the tests of each of its cards."""
    return read_file(DECK_FILE)


def cid(s: AvatarState, name: str) -> int:
    return s.game.deck.by_name(name).index


def names(s: AvatarState, cards: list[int]) -> list[str]:
    return sorted(s.card(c).name for c in cards)


def rolled(s: AvatarState, value: int, seat: int | None = None) -> None:
    """The seat to act has rolled `value` (its die already back in the middle)."""
    s.pending = [UseRoll(s.turn if seat is None else seat, value)]
    s._legal = None


def texts(s: AvatarState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def do(s: AvatarState, *moves: str) -> None:
    for m in moves:
        s.apply(m)


def start(s: AvatarState, seat: int, effect: dict[str, Any]) -> None:
    """Run an activity (an effect in the pictogram language) for `seat`, as a card or the rules would."""
    s.pending = []
    s._legal = None
    EFFECTS.start(s, VERBS.parse(effect, "test"), Context(seat))


def counts(s: AvatarState) -> dict[str, Any]:
    return {"dice": list(s.dice), "gems": list(s.gems), "heaven": [len(h) for h in s.heaven],
            "earth": [len(e) for e in s.earth], "hell": len(s.hell), "middle": s.middle, "purse": s.purse,
            "stack": len(s.stack)}
