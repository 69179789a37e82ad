"""How often two levels pick the same move in the same positions: what more thinking can change.

    .venv/bin/python scripts/agreement.py zun --games 3 [--every 6] [-o match=false] [--levels medium,hard,expert]

A ladder pair's games cost hours when both sides search (Zun's hard against expert: about 270
CPU-seconds a game); this asks the cheaper question first. It plays `--games` games of medium
against medium (2 players), keeps every `--every`-th position where the seat to move has a
choice, and there asks each level twice for its move, with two seeds of its own (no level shares
another's random numbers), every time handed the same determinized view of the position (what
the ladder hands them: never a hidden card), a searching level's `time_limit` counted on the CPU
clock, as the ladder plays them. It prints how often each level picks its own move again (its
noise: a search that agrees with itself 85% of the time cannot agree with anything more often)
and how often each pair of levels picks the same move (each level's first pick), with Wilson 95%
intervals.

If expert (four times hard's thinking) picks hard's move about as often as hard picks its own
move again, four times the thinking mostly buys the same moves, and a ladder pair can only show a
small margin (docs/agents.md, "Every game's ladder").
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from cardtable import agents, make
from cardtable.commands.play import parse_options
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.sim import ladder
from cardtable.sim.stats import wilson


def positions(game: str, options: dict[str, Any], games: int, every: int) -> list[tuple[State, int]]:
    """Every `every`-th position with a choice, of `games` medium-against-medium games (seeds 1000, 1001, ...)."""
    g = make(game, **options)
    medium = agents.make("medium", seed=0)
    kept: list[tuple[State, int]] = []
    for s in range(games):
        state = g.new_state(1000 + s, record_events=False)
        k = 0
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if len(state.legal_actions()) > 1:
                k += 1
                if k % every == 0:
                    kept.append((state.clone(), seat))
            state.apply(medium.act(state.determinize(seat, Rng(7919 * s + k))))
    return kept


def agent(level: str, seed: int) -> agents.Agent:
    """`level` (a level or an agent spec, as the ladder names entrants) on the CPU clock, as the ladder plays it."""
    name, params = ladder._timed(*ladder._spec(level), "cpu")
    return agents.make(name, **params, seed=seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--levels", default="medium,hard,expert", help="comma-separated")
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option, key=value")
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    options: dict[str, Any] = {**parse_options(2, None, None, args.option), "players": 2}
    kept = positions(args.game, options, args.games, args.every)
    rows = [(f"{lv}, another seed", lv, lv, 1) for lv in levels]
    rows += [(f"{a} and {b}", a, b, 0) for i, a in enumerate(levels) for b in levels[i + 1:]]
    same = dict.fromkeys((r[0] for r in rows), 0)
    cpu = time.process_time()
    for j, (state, seat) in enumerate(kept):
        view = state.determinize(seat, Rng(j))
        picks = {lv: [agent(lv, 2 * (len(levels) * j + k) + rep + 1).act(view.clone()).index for rep in (0, 1)]
                 for k, lv in enumerate(levels)}
        for label, a, b, rep in rows:
            same[label] += picks[a][0] == picks[b][rep]
    n = len(kept)
    print(f"{args.game}: {n} positions of {args.games} medium-against-medium games, every {args.every}th choice; "
          f"{time.process_time() - cpu:.0f} CPU-seconds")
    print("| the same move | positions | share | Wilson 95% |")
    print("|---|---:|---:|---|")
    for label, k in same.items():
        low, high = wilson(k, n)
        print(f"| {label} | {k} of {n} | {k / n:.0%} | [{low:.0%}, {high:.0%}] |")


if __name__ == "__main__":
    main()
