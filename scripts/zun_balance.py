"""Does any rune dominate? Random-agent games, and per rune the win rate of a player who
played it versus one who did not, with a 95% interval on the difference.

    python scripts/zun_balance.py --players 2 --games 2000

Kept out of the test suite (its CPU budget); docs/games/zun.md shows the table it printed.
The random agent picks uniformly among the deciding seat's legal actions, which never depend
on hidden cards (the conformance suite checks this), so it is handed the true state here to
save the cost of a determinized copy per decision.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable import agents
from cardtable.games.zun.actions import Kind, ZunAction
from cardtable.games.zun.game import Zun


@dataclass
class Tally:
    played: list[int] = field(default_factory=lambda: [0, 0])      # [player-games, wins]
    not_played: list[int] = field(default_factory=lambda: [0, 0])


#: Only plays in the first rounds count: over a whole game nearly every rune gets played (the
#: deck cycles), so "played at all" would mostly measure how long the game lasted.
EARLY_ROUNDS = 5


def run(players: int, games: int, teams: int | None = None, seed: int = 0) -> dict[str, Any]:
    game = cardtable.make("zun", players=players, teams=teams)
    assert isinstance(game, Zun)
    runes = game.rune_set.runes
    tallies = {r.name: Tally() for r in runes}
    whole = {r.name: Tally() for r in runes}
    seat_wins = [0] * players
    turns = 0
    limit = 0
    bots = [agents.make("random", seed=seed * 1000 + s) for s in range(players)]
    for g in range(games):
        state = game.new_state(seed * 1_000_000 + g, record_events=False)
        used: list[set[int]] = [set() for _ in range(players)]
        early: list[set[int]] = [set() for _ in range(players)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state)
            assert isinstance(action, ZunAction)
            if action.kind in (Kind.PLAY, Kind.REACT, Kind.MODIFY):
                used[seat].add(action.rune)
                if state.turns <= EARLY_ROUNDS * players:
                    early[seat].add(action.rune)
            state.apply(action)
        winners = set(state.winners())
        turns += state.turns
        limit += state.by_limit
        for s in range(players):
            won = s in winners and len(winners) < players
            seat_wins[s] += won
            for r in runes:
                for tally, seen in ((tallies, early), (whole, used)):
                    t = tally[r.name].played if r.index in seen[s] else tally[r.name].not_played
                    t[0] += 1
                    t[1] += won
    return {"players": players, "teams": teams, "games": games, "tallies": tallies, "whole": whole, "seat_wins": seat_wins,
            "mean_turns": turns / games, "turn_limit_endings": limit}


def interval(t: Tally) -> tuple[float, float, float, float]:
    """Win rates played / not played, their difference and its 95% half-width (normal approximation)."""
    n1, w1 = t.played
    n0, w0 = t.not_played
    p1 = w1 / n1 if n1 else 0.0
    p0 = w0 / n0 if n0 else 0.0
    se = math.sqrt((p1 * (1 - p1) / n1 if n1 else 0) + (p0 * (1 - p0) / n0 if n0 else 0))
    return p1, p0, p1 - p0, 1.96 * se


def table(result: dict[str, Any]) -> str:
    mode = "free-for-all" if result["teams"] is None else f"{result['teams']} teams"
    lines = [
        f"{result['players']} players, {mode}: {result['games']} random-agent games, mean {result['mean_turns']:.1f} turns, "
        f"{result['turn_limit_endings']} ended by the turn limit; wins by seat {result['seat_wins']}",
        "",
        f"| rune | played in the first {EARLY_ROUNDS} rounds | win rate played | not played | difference (95% CI) "
        "| whole game: played | difference (95% CI) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in result["tallies"].items():
        p1, p0, d, h = interval(t)
        w = result["whole"][name]
        _, _, wd, wh = interval(w)
        lines.append(f"| {name} | {t.played[0]} | {p1:.3f} | {p0:.3f} | {d:+.3f} ± {h:.3f} | {w.played[0]} "
                     f"| {wd:+.3f} ± {wh:.3f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teams", type=int, default=None)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(table(run(args.players, args.games, args.teams, args.seed)))


if __name__ == "__main__":
    main()
