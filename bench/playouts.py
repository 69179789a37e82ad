"""Random-playout speed of every registered game, in one process (issue 30: "random-playout speed
of every game is unchanged or better, bench before and after in one run").

    python bench/playouts.py [--games N] [--only GAME ...]

For each game (default options), plays N seeded games (default 100) with every action drawn
uniformly from the legal actions and event recording off, and prints games and decisions per second
of wall time (`perf_counter`: this sandbox's process clock ticks too coarsely for the small games). To compare two trees, run this file with each tree on PYTHONPATH, alternated (children
of one shell loop or a whole-process timer's pairing), and compare medians, not single figures.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import cardtable


def playouts(name: str, games: int, clock: Callable[[], float] = time.perf_counter,
             **options: Any) -> tuple[int, float]:
    """(decisions, seconds on `clock`) of `games` uniformly random games of `name` with `options`,
    seeds 0..games-1."""
    game = cardtable.make(name, **options)
    game.new_state(seed=games, record_events=False)  # untimed: a game's first state loads its cards
    decisions = 0
    start = clock()
    for seed in range(games):
        state = game.new_state(seed=seed, record_events=False)
        choice = random.Random(seed).choice
        while not state.is_over:
            state.apply(choice(state.legal_actions()))
            decisions += 1
    return decisions, clock() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--only", nargs="*", default=None, help="games to run (default: every game)")
    args = ap.parse_args()
    for name in args.only or cardtable.games():
        decisions, cpu = playouts(name, args.games)
        print(f"{name:12} {args.games} games {decisions:8d} decisions {cpu:7.2f} s     "
              f"{args.games / cpu:8.1f} games/s {decisions / cpu:10,.0f} decisions/s", flush=True)


if __name__ == "__main__":
    main()
