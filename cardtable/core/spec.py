"""The static facts of a game, declared once as data (STYLE.md principle 1)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameSpec:
    name: str                       # registry name: cardtable.make(name)
    title: str                      # how people write it
    min_players: int
    max_players: int
    variants: tuple[str, ...] = ()
    information: str = "imperfect"  # "perfect" or "imperfect"
    chance: str = "sampled"         # randomness is sampled inside the state
    rules: str = ""                 # the rulebook file in shared/rules/
    summary: str = ""
    extra: dict[str, object] = field(default_factory=dict)
