"""Iuno Avatar beside JUNO: random-playout decisions/s, clone() and determinize() cost, in one run.

Usage: .venv/bin/python bench/avatar_bench.py [--rounds 5] [--quick]

Per round, one after the other (A B C ... A B C ...), then medians over the rounds, CPU time
(`time.process_time`: the machine is shared): uniformly random playouts through the public contract
(`legal_actions()`, `apply()`, events off) of Iuno Avatar 2p and 3p and JUNO classic 2p (one round),
and `clone()` / `determinize()` on mid-game states of each. Both games run on the same engine
(compiled or pure Python: `cardtable._native.REASON` is printed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import cardtable
from cardtable import _native

GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("Iuno Avatar 2p", "iuno_avatar", {"players": 2}),
    ("Iuno Avatar 3p", "iuno_avatar", {"players": 3}),
    ("JUNO classic 2p", "juno", {"players": 2, "match": False}),
]


def playouts(name: str, options: dict[str, Any], n: int, seed: int) -> tuple[int, float]:
    game = cardtable.make(name, **options)
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    for k in range(n):
        s = game.new_state(seed * 1000 + k, record_events=False)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            decisions += 1
    return decisions, time.process_time() - start


def copy_costs(name: str, options: dict[str, Any], reps: int) -> tuple[float, float]:
    game = cardtable.make(name, **options)
    rng = random.Random(1)
    states = []
    for seed in range(40):
        s = game.new_state(seed, record_events=False)
        for _ in range(rng.randrange(5, 300)):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            states.append(s)
    det = cardtable.Rng(7)
    start = time.process_time()
    for _ in range(reps):
        for s in states:
            s.clone()
    clone = (time.process_time() - start) / (reps * len(states)) * 1e6
    start = time.process_time()
    for _ in range(reps):
        for s in states:
            s.determinize(s.current_player or 0, det)
    determinize = (time.process_time() - start) / (reps * len(states)) * 1e6
    return clone, determinize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds, games, reps = (2, 5, 5) if args.quick else (args.rounds, 40, 50)
    rates: dict[str, list[float]] = {label: [] for label, _, _ in GAMES}
    lengths: dict[str, list[float]] = {label: [] for label, _, _ in GAMES}
    copies: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in GAMES}
    for r in range(rounds):
        for label, name, options in GAMES:
            d, t = playouts(name, options, games, r)
            rates[label].append(d / t)
            lengths[label].append(d / games)
            copies[label].append(copy_costs(name, options, reps))
    print(f"engine: {_native.REASON}; {rounds} rounds, medians, CPU time")
    print("| game | decisions/s | decisions/game | clone() us | determinize() us |")
    print("|---|---:|---:|---:|---:|")
    for label, _, _ in GAMES:
        c = statistics.median(x for x, _ in copies[label])
        dz = statistics.median(y for _, y in copies[label])
        print(f"| {label} | {statistics.median(rates[label]):,.0f} | {statistics.median(lengths[label]):,.0f} "
              f"| {c:.1f} | {dz:.1f} |")


if __name__ == "__main__":
    main()
