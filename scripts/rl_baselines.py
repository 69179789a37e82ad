"""The baselines table of docs/rl.md ("Baselines"): per game, what each kind of player wins against
the random bot and against the game's heuristic bot, 2 players, one round (the research defaults).

    .venv/bin/python scripts/rl_baselines.py --games 400 --ppo /work/runs/ppo --out /work/runs/baselines
    .venv/bin/python scripts/rl_baselines.py --ismcts-games 60 ...   # ISMCTS (the "hard" level) too

- random and heuristic: cardtable's bots, played against each other (and each against itself) by
  the ladder's machinery (`cardtable.sim.ladder.run`: seats alternate from game to game, every
  game seeded, a rerun into the same folder plays only what is missing).
- ISMCTS: the lobby's "hard" level (`cardtable.agents.DIFFICULTY`) with `clock=cpu`, so the
  search gets the same work per move on this shared machine as on an idle one.
- PPO: the JSON files `examples/train_maskable_ppo.py --json` writes (its own evaluation: the
  deterministic policy at a random seat, 300 seeds never used in training).

A game without a winner counts half (the ladder's rule). Intervals are Wilson's, 95%.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cardtable.rl.defaults import research_options
from cardtable.sim import ladder
from cardtable.sim.stats import wilson

GAMES = ("juno", "iunu", "zun", "iuno_avatar", "ivion")
ISMCTS = "hard:clock=cpu"


def cell(score: float, games: float) -> str:
    if not games:
        return "—"
    low, high = wilson(score, games)
    return f"{score / games:.1%} [{low:.0%}, {high:.0%}] ({games:g})"


def measured(game: str, entrants: list[str], games: int, folder: Path, workers: int) -> dict[tuple[str, str], tuple[float, float]]:
    """(a, b) -> (a's score against b, games) for every pair of `entrants`."""
    table = ladder.run(game, entrants, games, folder, options=research_options(game), workers=workers)
    names, wins, played = ladder.tally(table, entrants)
    return {(a, b): (float(wins[i, j]), float(played[i, j])) for i, a in enumerate(names) for j, b in enumerate(names) if i != j}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games a pair between the bots")
    parser.add_argument("--ismcts-games", type=int, default=0, help="games a pair for ISMCTS (0: not measured)")
    parser.add_argument("--ppo", type=Path, default=None, help="folder of train_maskable_ppo.py --json files (GAME.json)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the games played (one ladder folder per game)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated games")
    args = parser.parse_args()
    rows = ["| game | player | wins against random | wins against the heuristic |", "|---|---|---:|---:|"]
    for game in args.only.split(","):
        bots = measured(game, ["random", "heuristic"], args.games, args.out / game, args.workers)
        rows.append(f"| {game} | random | — | {cell(*bots['random', 'heuristic'])} |")
        rows.append(f"| | heuristic | {cell(*bots['heuristic', 'random'])} | — |")
        if args.ismcts_games:
            search = {**measured(game, [ISMCTS, "random"], args.ismcts_games, args.out / f"{game}-ismcts", args.workers),
                      **measured(game, [ISMCTS, "heuristic"], args.ismcts_games, args.out / f"{game}-ismcts", args.workers)}
            rows.append(f"| | ISMCTS (hard) | {cell(*search[ISMCTS, 'random'])} | {cell(*search[ISMCTS, 'heuristic'])} |")
        ppo = args.ppo / f"{game}.json" if args.ppo else None
        if ppo is not None and ppo.exists():
            r: dict[str, Any] = json.loads(ppo.read_text())
            n = r["eval_games"]
            rows.append(f"| | PPO, {r['minutes']:g} CPU-min | {cell(r['vs']['random']['ppo'] * n, n)} | "
                        f"{cell(r['vs']['heuristic']['ppo'] * n, n)} |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
