"""Hard's variants, each at the same Ivion positions (issue 34): what each plays and what it costs.

Positions from medium-vs-medium games over the 15 pairings of the starters (one decision in 6
with 2 or more legal actions, as the seat to move sees it); at each, `hard` with each variant's
parameters over its defaults (0.5 s of CPU, seed 1) decides once. Printed per variant: how often
it plays the heuristic's move, its median rollouts (iterations), its mean CPU-seconds of search a
decision, how many searches stopped early; then at how many positions each variant played the
first variant's move.

    python bench/ivion_search_variants.py POSITIONS '{"early_stop": false}' '{}'   # the race against none
"""

from __future__ import annotations

import json
import statistics
import sys

from ivion_search_noise import positions  # bench/ivion_search_noise.py, beside this script

from cardtable import agents
from cardtable.agents.ismcts import IsmctsAgent


def main() -> None:
    count, variants = int(sys.argv[1]), [json.loads(a) for a in sys.argv[2:]]
    rows: list[list[tuple[int, bool, int, float, bool]]] = []  # per position, per variant
    for view, own in positions(count, 2, 6):
        row = []
        for params in variants:
            bot = agents.make("hard", seed=1, clock="cpu", **params)
            assert isinstance(bot, IsmctsAgent)
            move = bot.act(view.clone()).index
            row.append((move, move == own, bot.last_iterations, bot.last_seconds, bot.last_stopped_early))
        rows.append(row)
    for k, params in enumerate(variants):
        col = [r[k] for r in rows]
        print(f"{params}: the heuristic's move at {sum(c[1] for c in col)} of {len(col)}; median rollouts "
              f"{statistics.median(c[2] for c in col)}; mean CPU {statistics.mean(c[3] for c in col):.3f} s a "
              f"decision; stopped early at {sum(c[4] for c in col)}")
    print("the first variant's move at:", [sum(r[0][0] == r[k][0] for r in rows) for k in range(len(variants))])


if __name__ == "__main__":
    main()
