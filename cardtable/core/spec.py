"""The static facts of a game, declared once as data (STYLE.md principle 1).

A game is one package (`cardtable/games/<name>/`) registered once (core/registry.py). Its spec
names the package's other parts (`PARTS`), each loaded on first use by `registry.game_part`, the
one place every front end finds them, so `import cardtable` stays light: `heuristic` (the module
with the heuristic bot's `choose` and `evaluate`), `encoder` (the RL observation encoder,
"module:Class"), `text` (terminal rendering: `render(observation, game=None)`, `narrate`, and
what `OPTIONAL` lists), `decks` (the deck builder:
`builder_info`, `check_deck`) and `web_view` (the browser view's script in cardtable/web/views/,
served as a file). A part left empty does not exist, and the front ends say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: The parts a spec may name, each with what the module it names must define ("module:Class"
#: parts name a class and define nothing further).
PARTS: Final[dict[str, tuple[str, ...]]] = {
    "heuristic": ("choose", "evaluate"),
    "encoder": (),
    "text": ("render", "narrate"),
    "decks": ("builder_info", "check_deck"),
}
#: What a part may define beside what it must, each found through `registry.part_member` (None where
#: the game's module leaves it out): a text module's `choices(observation, move_texts)` (the
#: terminal's order and labels of the moves), `points(observation)` (each seat's points at the
#: end), `card_catalog(game)` (every card's text) and `pictogram_legend(game)` (its symbols).
OPTIONAL: Final[dict[str, tuple[str, ...]]] = {
    "heuristic": (),
    "encoder": (),
    "text": ("choices", "points", "card_catalog", "pictogram_legend"),
    "decks": (),
}


@dataclass(frozen=True)
class GameSpec:
    name: str                       # registry name: cardtable.make(name)
    title: str                      # how people write it
    min_players: int
    max_players: int
    variants: tuple[str, ...] = ()
    information: str = "imperfect"  # "perfect" or "imperfect"
    rules: str = ""                 # the rulebook file in shared/rules/
    summary: str = ""
    heuristic: str = ""             # module of the game's package: "heuristic"
    encoder: str = ""               # "module:Class" of the game's package: "encoder:JunoEncoder"
    text: str = ""                  # module of the game's package: "text"
    decks: str = ""                 # module of the game's package with the deck builder: "decks"
    web_view: str = "generic.js"    # script in cardtable/web/views/
    #: the core's shared layers the game's state hosts (core/effects/): "sequence" (the effect
    #: layer: `Effects`, its state an `EffectHost`) and "stack" (the response stack:
    #: `ResponseStack`, its state a `StackHost`, or a `StagedStackHost`); tests/conformance checks
    #: the state implements what the layers it declares ask of it
    effects: tuple[str, ...] = ()
