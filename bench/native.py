"""The compiled engine against its pure-Python fallback, every game, in one run (issue 37).

    python bench/native.py [--rounds R] [--games N] [--positions P] [--iterations I] [--only GAME ...]

For each game, R rounds of two child processes, alternated: one on the compiled build, one with
`CARDTABLE_PURE=1`. Each child measures, in process CPU time:

- random playouts: N seeded 2-player games, uniformly random legal actions, event recording off
  (as bench/playouts.py), in decisions per CPU-second;
- the hard bot's search (ISMCTS, `agents.make("hard")`): I iterations, no early stop, at each of P
  positions of a seeded medium-vs-medium game (decisions with more than one legal action, as the
  seat to move sees them), in iterations per CPU-second.

Printed: the medians of each engine and compiled / pure (the median of the rounds' ratios). The
build must be in place (`python setup.py build_ext --inplace`, or `pip install -e .`); the child
says which engine ran and the run stops if the compiled one did not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(name: str, games: int, positions: int, iterations: int) -> dict[str, object]:
    from playouts import playouts  # bench/playouts.py, beside this script

    import cardtable
    from cardtable import _native, agents
    from cardtable.core.rng import Rng

    decisions, playout_cpu = playouts(name, games, time.process_time, players=2)
    game = cardtable.make(name, players=2)

    views = []
    rng = Rng(5)
    seed = 1000
    while len(views) < positions:
        state = game.new_state(seed, record_events=False)
        medium = agents.make("medium", seed=seed)
        seed += 1
        while not state.is_over and len(views) < positions:
            seat = state.current_player
            assert seat is not None
            view = state.determinize(seat, rng.spawn())
            if len(view.legal_actions()) > 1 and rng.below(4) == 0:
                views.append(view)
            state.apply(medium.act(state.determinize(seat, rng.spawn())))
    done = 0
    start = time.process_time()
    for i, view in enumerate(views):
        bot = agents.make("hard", seed=i, iterations=iterations, time_limit=1e9, early_stop=False)
        bot.act(view)
        done += getattr(bot, "last_iterations", iterations)
    search_cpu = time.process_time() - start
    return {"compiled": _native.COMPILED, "reason": _native.REASON, "decisions": decisions / playout_cpu,
            "iterations": done / search_cpu}


def run_child(name: str, pure: bool, args: argparse.Namespace) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_PURE"}
    # this checkout's package (a child's sys.path starts at bench/, so without it an installed
    # cardtable, another checkout's, would be measured)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    if pure:
        env["CARDTABLE_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, "--games", str(args.games), "--positions", str(args.positions),
         "--iterations", str(args.iterations)],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    if result["compiled"] == pure:
        sys.exit(f"{name}: expected the {'pure' if pure else 'compiled'} engine, got {result['reason']}")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.games, args.positions, args.iterations)))
        return
    import cardtable

    print("| game | decisions/CPU-s pure | compiled | x | ISMCTS iterations/CPU-s pure | compiled | x |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.only or cardtable.games():
        rows: dict[bool, list[dict[str, float]]] = {True: [], False: []}
        for _ in range(args.rounds):
            for pure in (True, False):
                rows[pure].append(run_child(name, pure, args))
        cells = []
        for key in ("decisions", "iterations"):
            p = [r[key] for r in rows[True]]
            c = [r[key] for r in rows[False]]
            ratio = statistics.median(b / a for a, b in zip(p, c, strict=True))
            cells += [f"{statistics.median(p):,.0f}", f"{statistics.median(c):,.0f}", f"{ratio:.2f}"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
