"""Every game's speed figures, two trees in one run (issue 37's bench table).

    python bench/speed.py --tree before=PATH --tree after=PATH [--rounds 3] [--only GAME ...]
    python bench/speed.py --child GAME      # one tree's figures for one game (the tree on PYTHONPATH)

Each tree runs as it is built (its compiled modules, when it has a build that matches its sources);
`CARDTABLE_PURE=1` in the environment makes every child pure Python.

For each game (2 players; JUNO a single round), a child process with the tree on `PYTHONPATH`
measures, in CPU time of its own process (`time.process_time`):

- **raw**: seeded games driven straight through the contract (`legal_actions()`, `apply()`, events
  off), each seat choosing as the random agent does (its own `Rng`, `below(len(legal))`) from the
  seed the simulator gives that seat's agent (`agent_seeds`), so these are exactly the games of
  the next two lines (checked: the same number of decisions);
- **play**: the same games through `cardtable.play` with `random` agents (events off, as the arena);
- **simulate**: the same games through the simulator (`cardtable.sim.job.play_game`, `random`
  agents, the per-card counters on: what `cardtable simulate` and the designers' lab play);
- **medium**: seeded games of the `medium` bot (the game's heuristic) against itself through
  `cardtable.play` (events off);
- **clone / determinize**: microseconds a call on mid-game states (a third of the way into random games);
- **ISMCTS**: iterations per CPU-second of the `hard` search (heuristic rollouts cut off after 20
  decisions), a fixed number of iterations on each of those mid-game states, early stop off.

The driver runs the children of every tree in turn (before, after, before, after ...) for each
round and prints the medians over the rounds and the ratio after / before of each figure's
median. Machines here are shared: read the ratios, measured side by side, not the absolute rates.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: per game: options, games per playout figure, mid-game states, ISMCTS iterations per state
PLAN: dict[str, tuple[dict[str, Any], int, int, int]] = {
    "juno": ({"players": 2, "match": False}, 60, 12, 60),
    "iunu": ({"players": 2}, 200, 12, 60),
    "zun": ({"players": 2}, 80, 12, 60),
    "ivion": ({"players": 2}, 12, 8, 20),
    "iuno_avatar": ({"players": 2}, 12, 8, 20),
}

FIGURES = [
    ("raw_games", "raw games/s"),
    ("raw_decisions", "raw decisions/s"),
    ("play_games", "play games/s"),
    ("sim_games", "simulate games/s"),
    ("medium_games", "medium games/s"),
    ("clone_us", "clone us"),
    ("determinize_us", "determinize us"),
    ("ismcts", "ISMCTS iterations/s"),
]


def child(name: str) -> dict[str, float]:
    import cardtable
    from cardtable import agents
    from cardtable.core.rng import Rng
    from cardtable.sim.job import Job, agent_seeds, play_game

    options, games, states, iterations = PLAN[name]
    game = cardtable.make(name, **options)
    players = game.players
    job = Job.build(name, options, ["random"])
    # untimed: a game's first state loads its cards, the first bots import their modules
    cardtable.play(game, [agents.make("random", seed=s) for s in range(players)], seed=10**6, record_events=False)
    play_game(job, 10**6)

    clock = time.process_time
    out: dict[str, float] = {}
    decisions = 0
    start = clock()
    for seed in range(games):
        state = game.new_state(seed, record_events=False)
        rngs = [Rng(s) for s in agent_seeds(seed, players)]
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rngs[state.current_player].below(len(legal))])  # type: ignore[index]
            decisions += 1
    took = clock() - start
    out["raw_games"], out["raw_decisions"] = games / took, decisions / took

    played = 0
    start = clock()
    for seed in range(games):
        final = cardtable.play(game, [agents.make("random", seed=s) for s in agent_seeds(seed, players)],
                               seed=seed, record_events=False)
        played += len(final.history)
    out["play_games"] = games / (clock() - start)
    assert played == decisions, "the play loop's random agents played other games than the raw loop"

    simulated = 0
    start = clock()
    for seed in range(games):
        simulated += play_game(job, seed)["length"]
    out["sim_games"] = games / (clock() - start)
    assert simulated == decisions, "the simulator's random agents played other games than the raw loop"

    start = clock()
    for seed in range(games):
        cardtable.play(game, [agents.make("medium", seed=s) for s in agent_seeds(seed, players)], seed=seed,
                       record_events=False)
    out["medium_games"] = games / (clock() - start)

    mids = []
    for seed in range(states):
        state = game.new_state(1000 + seed, record_events=False)
        rng = Rng(seed)
        trail = []
        while not state.is_over:
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        mids.append(next(s for s in trail[len(trail) // 3:] if len(s.legal_actions()) > 1))
    # The last game's copies, kept alive, would be scanned by every full garbage collection in the
    # timed searches: one of those costs as much as a 60-iteration search (IUNU, Zun), so the figure
    # measured the heap the bench left behind rather than the search (bench/README.md, issue 37).
    del trail
    gc.collect()
    reps = 200
    start = clock()
    for _ in range(reps):
        for s in mids:
            s.clone()
    out["clone_us"] = (clock() - start) / (reps * len(mids)) * 1e6
    start = clock()
    for i in range(reps):
        for s in mids:
            s.determinize(s.current_player, i)  # type: ignore[arg-type]
    out["determinize_us"] = (clock() - start) / (reps * len(mids)) * 1e6

    hard = {k: v for k, v in agents.DIFFICULTY["hard"][1].items() if k != "time_limit"}
    hard.update(iterations=iterations, early_stop=False)
    # untimed: the first search imports the game's heuristic and evaluation (tens of milliseconds)
    agents.make("ismcts", **hard, seed=0).act(mids[0].determinize(mids[0].current_player, 0))  # type: ignore[arg-type]
    searched = 0
    start = clock()
    for i, s in enumerate(mids):
        bot = agents.make("ismcts", **hard, seed=i)
        bot.act(s.determinize(s.current_player, i))  # type: ignore[arg-type]
        searched += bot.last_iterations  # type: ignore[attr-defined]
    out["ismcts"] = searched / (clock() - start)
    return out


def drive(trees: list[tuple[str, str]], rounds: int, games: list[str]) -> None:
    here = Path(__file__).resolve()
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(rounds):
        for name in games:
            for label, path in trees:
                env = {**os.environ, "PYTHONPATH": path}  # CARDTABLE_PURE=1 in the driver's environment: pure Python
                done = subprocess.run([sys.executable, str(here), "--child", name], env=env, check=True,
                                      capture_output=True, text=True)
                results.setdefault((name, label), []).append(json.loads(done.stdout.strip().splitlines()[-1]))
                print(f"round {r + 1}/{rounds} {name} {label}: {done.stdout.strip().splitlines()[-1]}",
                      file=sys.stderr, flush=True)
    labels = [label for label, _ in trees]
    for name in games:
        print(f"\n### {name} ({json.dumps(PLAN[name][0])})\n")
        print("| figure | " + " | ".join(labels) + f" | {labels[-1]} / {labels[0]} |")
        print("|---|" + "---:|" * (len(labels) + 1))
        for key, text in FIGURES:
            med = [statistics.median(x[key] for x in results[(name, label)]) for label in labels]
            cells = " | ".join(f"{m:,.1f}" if m < 100 else f"{m:,.0f}" for m in med)
            print(f"| {text} | {cells} | {med[-1] / med[0]:.2f}x |")
        for label in labels:
            runs = results[(name, label)]
            raw = statistics.median(x["raw_games"] for x in runs)
            print(f"\n{label}: raw / play {raw / statistics.median(x['play_games'] for x in runs):.2f}x, "
                  f"raw / simulate {raw / statistics.median(x['sim_games'] for x in runs):.2f}x", end="")
        print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", help="measure one game with the tree on PYTHONPATH and print its figures")
    ap.add_argument("--tree", action="append", default=[], help="LABEL=PATH of a tree to measure (two or more)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None, help="games to run (default: all five)")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    trees = [tuple(t.split("=", 1)) for t in args.tree]
    if len(trees) < 2 or any(len(t) != 2 for t in trees):
        ap.error("give --tree LABEL=PATH for each tree to compare (at least two)")
    drive(trees, args.rounds, args.only or list(PLAN))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
