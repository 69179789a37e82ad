"""Is hard's move the search's or its determinizations' luck? (Ivion, issue 34.)

Positions from medium-vs-medium games over the 15 pairings of the starters (one decision in 12
with 4 or more legal actions, as the seat to move sees it); at each, `hard` (0.5 s of CPU, with
the parameters given over its defaults) decides twice, on seeds 1 and 2. Printed: how often the
two searches play the same move, how often each plays the heuristic's move, and the median
iterations (rollouts, with paired rollouts).

    python bench/ivion_search_noise.py POSITIONS '{"root": "ucb"}'      # the tree
    python bench/ivion_search_noise.py POSITIONS '{}'                   # Ivion's default: paired rollouts

A search whose move changes with its seed at most positions is ranking moves by noise.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
from collections.abc import Iterator

import cardtable
from cardtable import agents
from cardtable.agents.heuristics import policy_for
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.ivion.decks import builder_info


def positions(count: int, min_legal: int, one_in: int) -> Iterator[tuple[State, int]]:
    """`count` positions of medium-vs-medium games over the starter pairings in turn (seeds 900, 901,
    ...): at one decision in `one_in` with at least `min_legal` legal actions, the deciding seat's
    determinized view and the heuristic's move there. The caller searches clones of the view."""
    pairs = list(itertools.combinations(builder_info()["starters"], 2))
    heuristic = policy_for("ivion")
    rng = Rng(11)
    found = game = 0
    while found < count:
        state = cardtable.make("ivion", decks=list(pairs[game % len(pairs)])).new_state(900 + game, record_events=False)
        game += 1
        medium = agents.make("medium", seed=game)
        while not state.is_over and found < count:
            seat = state.current_player
            assert seat is not None
            view = state.determinize(seat, rng.spawn())
            if len(view.legal_actions()) >= min_legal and rng.below(one_in) == 0:
                yield view, heuristic(view.clone(), Rng(5)).index
                found += 1
            state.apply(medium.act(view))


def main() -> None:
    count, params = int(sys.argv[1]), json.loads(sys.argv[2])
    found = same = agree = 0
    iterations: list[int] = []
    for view, own in positions(count, 4, 12):
        moves = []
        for seed in (1, 2):
            bot = agents.make("hard", seed=seed, clock="cpu", **params)
            moves.append(bot.act(view.clone()).index)
            iterations.append(getattr(bot, "last_iterations", 0))
        same += moves[0] == moves[1]
        agree += sum(m == own for m in moves)
        found += 1
    print(f"{params}: {found} positions; the same move on both seeds at {same}; the heuristic's move "
          f"{agree} of {2 * found}; median iterations {statistics.median(iterations)}")

if __name__ == "__main__":
    main()
