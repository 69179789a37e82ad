"""Random-playout speed of every registered game, in one process (issue 30: "random-playout speed
of every game is unchanged or better, bench before and after in one run").

    python bench/playouts.py [--games N] [--only GAME ...]

For each game (default options), plays N seeded games (default 100) with every action drawn
uniformly from the legal actions and event recording off, and prints games and decisions per second
of wall time (`perf_counter`: this sandbox's process clock ticks too coarsely for the small games). To compare two trees, run this file with each tree on PYTHONPATH, alternated (children
of one shell loop or a whole-process timer's pairing), and compare medians, not single figures.

    python bench/playouts.py --rlcard [--rounds 5] [--games N] [--only GAME ...]

Against a peer in the same run (issue 37 gives its goals as multiples of such ratios): each
round plays every game's N playouts and then RLCard's `UnoGame` (2 players, uniformly random legal
actions, the driver of bench/juno_bench.py) for 2,000 games, on this process's CPU clock, and the
medians over the rounds are printed with each game's decisions per second over RLCard's.
"""

from __future__ import annotations

import argparse
import random
import statistics
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


def against_rlcard(names: list[str], games: int, rounds: int) -> None:
    """Medians over alternating rounds of decisions per CPU-second, each game's and RLCard's."""
    from juno_bench import rlcard_game  # (this folder's; RLCard is the `bench` extra)

    peer = rlcard_game()
    rates: dict[str, list[float]] = {name: [] for name in [*names, "RLCard UnoGame"]}
    for r in range(rounds):
        for name in names:
            decisions, cpu = playouts(name, games, time.process_time)
            rates[name].append(decisions / cpu)
        _, decisions, cpu = peer(2000, r, time.process_time)
        rates["RLCard UnoGame"].append(decisions / cpu)
        print(f"round {r + 1}/{rounds} done", flush=True)
    base = statistics.median(rates["RLCard UnoGame"])
    print(f"\n{cardtable._native.REASON}, {rounds} rounds, CPU time\n")
    print("| game | decisions/s | / RLCard UnoGame |\n|---|---:|---:|")
    for name, got in rates.items():
        print(f"| {name} | {statistics.median(got):,.0f} | {statistics.median(got) / base:.2f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--only", nargs="*", default=None, help="games to run (default: every game)")
    ap.add_argument("--rlcard", action="store_true", help="also RLCard's UnoGame, alternated, in CPU time")
    ap.add_argument("--rounds", type=int, default=5, help="rounds with --rlcard")
    args = ap.parse_args()
    names = args.only or cardtable.games()
    if args.rlcard:
        against_rlcard(names, args.games, args.rounds)
        return
    for name in names:
        decisions, cpu = playouts(name, args.games)
        print(f"{name:12} {args.games} games {decisions:8d} decisions {cpu:7.2f} s     "
              f"{args.games / cpu:8.1f} games/s {decisions / cpu:10,.0f} decisions/s", flush=True)


if __name__ == "__main__":
    main()
