"""What JUNO's hard bot does at every search iteration, alone: determinize a position for the seat
deciding (`state.determinize`, the table's inferences included: `JunoState.voids`) and play the copy
out with the heuristic (hard's rollout policy), 500 times in each of 40 positions (6 random moves
into seeded 2-player single rounds).

    .venv/bin/python bench/juno_search_playouts.py

Prints the decisions played and the CPU seconds. To compare two trees, run it with each on
PYTHONPATH, alternated, and compare medians of the whole process (bench/README.md, "JUNO's
beliefs in the playouts").
"""

from __future__ import annotations

import time

import cardtable
from cardtable.agents.heuristics import policy_for
from cardtable.core.rng import Rng


def main(positions: int = 40, playouts: int = 500) -> None:
    game = cardtable.make("juno", players=2, match=False)
    policy = policy_for("juno")
    r = Rng(7)
    decisions = 0
    start = time.process_time()
    for seed in range(positions):
        state = game.new_state(seed, record_events=False)
        for _ in range(6):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[r.below(len(legal))])
        seat = state.current_player
        if seat is None:
            continue
        for _ in range(playouts):
            copy = state.determinize(seat, r)
            while not copy.is_over:
                copy.apply(policy(copy, r))
                decisions += 1
    print(f"{decisions} decisions in {time.process_time() - start:.3f} CPU-s")


if __name__ == "__main__":
    main()
