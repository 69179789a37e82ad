"""Runes of Zun random playouts: decisions per second (bench/README.md, "Runes of Zun").

    python bench/zun_bench.py [GAMES] [PLAYERS]

Plays GAMES games (default 300) of PLAYERS players (default 4), each action drawn uniformly from
the legal actions, and prints games and decisions per second of CPU time. Compare two trees with
farm-bench (`--vs`), children alternated, rather than with absolute times.
"""

from __future__ import annotations

import random
import sys
import time

import cardtable


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    game = cardtable.make("zun", players=players)
    pick = random.Random(0)
    decisions = 0
    t0 = time.process_time()
    for seed in range(games):
        state = game.new_state(seed=seed, record_events=False)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
            decisions += 1
    cpu = time.process_time() - t0
    print(f"zun {players}p: {games} games, {decisions} decisions in {cpu:.2f} s CPU: "
          f"{games / cpu:.1f} games/s, {decisions / cpu:,.0f} decisions/s")


if __name__ == "__main__":
    main()
