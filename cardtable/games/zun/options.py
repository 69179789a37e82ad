"""Runes of Zun options: `cardtable.make("zun", players=6, teams=3)`; no `teams` is free-for-all."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from ...core.options import GameOptions, card_file
from .runes import BASE_FILE, Rune, RuneSet, base_set, build, read_file

#: "Player Count" table: the team splits it suggests (players -> numbers of teams).
#: 4: teams of 2; 6: teams of 2 or 3; 8: teams of 4. Free-for-all is open to every count.
TEAM_GAMES: dict[int, tuple[int, ...]] = {4: (2,), 6: (3, 2), 8: (2,)}
HAND = 5          # Setup 6: "Have each player draw 5 cards"
START_HP = 12     # Setup 5: "HP marked to 12"


def _checked_runes(runes: Any) -> Any:
    build(runes, "runes")
    return runes


class ZunOptions(GameOptions):
    players: int = Field(2, ge=2, le=8, description="2 to 8 players")
    teams: int | None = Field(None, description="number of teams (None: free-for-all); 4p: 2, 6p: 2 or 3, 8p: 2")
    runes: Annotated[list[dict[str, Any]] | None, card_file(read_file, _checked_runes, noun="rune", base=BASE_FILE, schema=Rune)] = Field(
        None, description="your own rune set: a file path or a list of runes"
    )
    sets: int | None = Field(
        None, ge=1, le=4,
        description="copies of the rune set shuffled into the deck; default 1 (60 cards) for 2-4 players, "
        "2 (120) for 5-8, as the Player Count table suggests",
    )
    turn_limit: int = Field(
        400, ge=1, le=100_000,
        description="turns before the game stops (the rulebook has no bound): the side with the most HP wins",
    )

    @model_validator(mode="after")
    def _check(self) -> ZunOptions:
        if self.teams is not None:
            allowed = TEAM_GAMES.get(self.players, ())
            if self.teams not in allowed:
                table = "; ".join(f"{p} players: teams={' or '.join(map(str, t))}" for p, t in TEAM_GAMES.items())
                raise ValueError(
                    f"{self.players} players cannot play in {self.teams} teams; the game types table allows "
                    f"{table} (leave teams out for free-for-all)"
                )
        size = sum(self.rune_set().counts()) * self.deck_sets()
        if size < HAND * self.players + 1:
            raise ValueError(f"a deck of {size} runes cannot deal {HAND} to each of {self.players} players")
        return self

    def rune_set(self) -> RuneSet:
        return base_set() if self.runes is None else build(self.runes, "runes")

    def deck_sets(self) -> int:
        if self.sets is not None:
            return self.sets
        return 1 if self.players <= 4 else 2

    def team_of(self, seat: int) -> int:
        """Teams sit alternately in turn order (seat s is on team s mod teams)."""
        return seat if self.teams is None else seat % self.teams
