"""Play one ladder pair's games again with another entrant in its place, on the same deals.

    .venv/bin/python scripts/same_deals.py juno medium ismcts:time_limit=0.5:rollout=heuristic:cutoff=20:root=rollouts \\
        --instead ismcts:time_limit=5.0:rollout=heuristic:cutoff=20:root=rollouts \\
        -o match=false --games 200 --seed 0 --workers 2 --out /tmp/juno-5s [--against LADDER_FOLDER]

`cardtable ladder` seeds a pair's games from the ladder's seed and the two entrants' names
(`cardtable.sim.ladder.pair_seed`), so two searchers that differ only in a parameter are dealt
different games, and their difference carries the noise of the deals as well as theirs. This plays
the pair `FIRST` v `SECOND`'s games (the same game seeds, seats and bots' seeds) with `--instead`
in `SECOND`'s place, through the ladder's own `_play`, on the CPU clock, and writes them as a
ladder folder does (`part-*.parquet`). With `--against` (a ladder folder holding the pair as
`SECOND`), it prints the paired comparison: each share, the games won by only one of the two,
and McNemar's z. docs/agents.md, "JUNO: four and ten times the thinking", is made with it.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from cardtable.commands.play import parse_options
from cardtable.sim import ladder
from cardtable.sim.backends import start_pool
from cardtable.sim.stats import wilson


def won(folder: Path, entrant: str) -> dict[tuple[int, int], float]:
    """(game index, game seed) -> `entrant`'s score in that game, as the ladder counts it."""
    return {(r["index"], r["seed"]): ladder.score(r, entrant) for r in ladder.read_games(folder).to_pylist()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", help="the pair's first entrant, as the ladder names it (kept)")
    parser.add_argument("second", help="the pair's second entrant (whose games are played again)")
    parser.add_argument("--instead", required=True, help="the entrant that plays in SECOND's place")
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option, key=value (as the ladder's)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="the ladder's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--against", type=Path, default=None, help="a ladder folder with the pair's games")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {**parse_options(2, None, None, args.option), "players": 2}
    base = ladder.pair_seed(args.seed, args.first, args.second)
    tasks = [(args.game, options, args.first, args.instead, base, i, "cpu") for i in range(args.games)]
    args.out.mkdir(parents=True, exist_ok=True)
    part = args.out / "part-00000.parquet"
    rows: list[dict[str, Any]] = []
    def keep(row: dict[str, Any]) -> None:
        rows.append(row)
        if len(rows) % 10 == 0:  # an interrupted run keeps what it played
            pq.write_table(pa.Table.from_pylist(rows, schema=ladder.SCHEMA), part)

    if args.workers <= 1:
        for task in tasks:
            keep(ladder._play(task))
    else:
        with start_pool(multiprocessing.get_context("spawn"), args.workers) as pool:
            for row in pool.imap_unordered(ladder._play, tasks, chunksize=1):
                keep(row)
    pq.write_table(pa.Table.from_pylist(rows, schema=ladder.SCHEMA), part)
    now = won(args.out, args.instead)
    score = sum(now.values())
    low, high = wilson(score, len(now))
    print(f"{args.instead} against {args.first}: {score / len(now):.1%} [{low:.1%}, {high:.1%}] of {len(now)} games")
    if args.against:
        before = won(args.against, args.second)
        common = sorted(set(now) & set(before))
        only_before = sum(1 for k in common if before[k] > now[k])
        only_now = sum(1 for k in common if now[k] > before[k])
        z = (only_now - only_before) / math.sqrt(max(1, only_now + only_before))
        print(f"paired, {len(common)} games: {args.second} {sum(before[k] for k in common) / len(common):.1%}, "
              f"{args.instead} {sum(now[k] for k in common) / len(common):.1%}; won only by the first {only_before}, "
              f"only by the second {only_now}; McNemar z {z:.2f}")


if __name__ == "__main__":
    main()
