"""The static facts of a game, declared once as data (STYLE.md principle 1).

A game is one package (`cardtable/games/<name>/`) registered once (core/registry.py). Its spec
names the package's other parts, each loaded on first use so `import cardtable` stays light:
`heuristic` (the module with the heuristic bot's `choose` and `evaluate`), `encoder` (the RL
observation encoder, "module:Class"), `text` (terminal rendering: `render`, `narrate`) and
`web_view` (the browser view's script in cardtable/web/views/). A part left empty does not exist
yet, and the front ends say so.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    web_view: str = "generic.js"    # script in cardtable/web/views/
