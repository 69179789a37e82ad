"""Ivion beside JUNO, in one run: random-playout decisions per second, and the cost of `clone()` and
`determinize()` on mid-game states (Ivion also in the middle of the response stack).

    .venv/bin/python bench/ivion_bench.py            # 5 alternating rounds, medians (about a minute)
    .venv/bin/python bench/ivion_bench.py --quick    # a smoke run

Every workload is driven through the public contract (`legal_actions()` / `apply()`) with uniformly
random choices from Python's `random.Random` and event recording off. CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardtable  # noqa: E402


def playouts(name: str, options: dict[str, Any], games: int, seed0: int) -> tuple[float, float]:
    """(decisions/s, decisions/game) over `games` uniformly random games."""
    game = cardtable.make(name, **options)
    decisions = 0
    start = time.process_time()
    for seed in range(seed0, seed0 + games):
        s = game.new_state(seed, record_events=False)
        choice = random.Random(seed).choice
        while not s.is_over:
            s.apply(choice(s.legal_actions()))
            decisions += 1
    spent = time.process_time() - start
    return decisions / spent, decisions / games


def midgame_states(name: str, options: dict[str, Any], n: int, stack: bool = False) -> list[Any]:
    """States taken a random way into random games (for Ivion with `stack`: with cards unresolved)."""
    game = cardtable.make(name, **options)
    out = []
    seed = 0
    while len(out) < n:
        s = game.new_state(seed, record_events=False)
        r = random.Random(seed)
        stop = r.randrange(20, 200)
        steps = 0
        while not s.is_over and steps < stop:
            s.apply(r.choice(s.legal_actions()))
            steps += 1
            if stack and getattr(s, "chain", None) is not None and s.chain.items and not s.is_over:
                break
        if not s.is_over and (not stack or s.chain.items):
            out.append(s)
        seed += 1
    return out


def per_call_us(states: list[Any], fn: Any, repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rounds = 1 if args.quick else args.rounds
    juno_games, ivion_games, repeat = (20, 5, 2) if args.quick else (200, 60, 20)
    workloads = {
        "JUNO classic 2p, uniform": ("juno", {"players": 2, "match": False}, juno_games),
        "Ivion, Edda v Lio, uniform": ("ivion", {}, ivion_games),
        "Ivion, Lio v Lio, uniform": ("ivion", {"decks": ["Lio Marrow", "Lio Marrow"]}, ivion_games),
    }
    rates: dict[str, list[float]] = {k: [] for k in workloads}
    lengths: dict[str, list[float]] = {k: [] for k in workloads}
    for r in range(rounds):
        for label, (name, options, games) in workloads.items():
            rate, length = playouts(name, options, games, seed0=1000 * r)
            rates[label].append(rate)
            lengths[label].append(length)
    print("| workload | decisions/s | decisions/game |")
    print("|---|---:|---:|")
    for label in workloads:
        print(f"| {label} | {statistics.median(rates[label]):,.0f} | {statistics.median(lengths[label]):,.0f} |")
    rng = cardtable.Rng(7)
    print()
    print("| states | clone() us | determinize() us |")
    print("|---|---:|---:|")
    for label, (name, options, stack) in {
        "JUNO classic 2p, mid-game": ("juno", {"players": 2, "match": False}, False),
        "Ivion, mid-game": ("ivion", {}, False),
        "Ivion, cards unresolved on the stack": ("ivion", {}, True),
    }.items():
        states = midgame_states(name, options, 50, stack)
        clone = per_call_us(states, lambda s: s.clone(), repeat * 10)
        det = per_call_us(states, lambda s: s.determinize(s.current_player, rng), repeat)
        print(f"| {label} | {clone:.1f} | {det:.1f} |")
    engine = getattr(cardtable, "_native", None)
    print(f"\nengine: {getattr(engine, 'REASON', 'unknown')}")


if __name__ == "__main__":
    main()
