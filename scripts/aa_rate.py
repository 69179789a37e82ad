"""The A/A rate of `cardtable report A B` on real games (issue 35): how often two runs of the very
same job, only the seeds differing, flag a card measure as changed clearly.

    python scripts/aa_rate.py DIR --games 100 [--first 0] [--runs 140] [--out pairs.parquet]

DIR holds saved runs of one job, `run-000.parquet`, `run-001.parquet`, ... (each a results table
of 400 JUNO games, 2 players, single rounds, heuristic against itself, seeds 400 i to 400 i + 399;
missing ones are simulated and saved first, one worker). Their games, in the order of their
seeds, are cut into runs of `--games` games and the runs paired, 2j with 2j + 1: pairs of
disjoint seeds, independent of one another, so the pairs flagging a card are a binomial count and
its Wilson interval holds. Per pair: the card measures compared, the smallest `p_all` and how many
are clear. Smaller runs than the issue's 400 games test the same procedure (the permutation is
exact at any size) and give many more pairs from the same games.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import polars as pl

from cardtable.sim import analyze, run
from cardtable.sim.compare import compare
from cardtable.sim.stats import wilson

SAVED = 400  # games in a saved run


def saved(folder: Path, i: int) -> pl.DataFrame:
    path = folder / f"run-{i:03d}.parquet"
    if not path.exists():
        run("juno", ["heuristic"], games=SAVED, seed=SAVED * i, players=2, options={"match": False},
            workers=1).write_parquet(path)
    return pl.read_parquet(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--games", type=int, default=100, help="games in each run of a pair")
    ap.add_argument("--first", type=int, default=0, help="the first saved run to use")
    ap.add_argument("--runs", type=int, default=140, help="saved runs of 400 games to use")
    ap.add_argument("--out", type=Path, help="write the pairs' table here (Parquet)")
    args = ap.parse_args()
    if SAVED % args.games:
        ap.error(f"--games must divide {SAVED}")
    games = pl.concat([saved(args.folder, i) for i in range(args.first, args.first + args.runs)]).sort("seed")
    seeds = games["seed"].to_list()
    cut = [seeds[k:k + args.games] for k in range(0, len(seeds) - args.games + 1, args.games)]
    rows = []
    for j in range(len(cut) // 2):
        a, b = (analyze(games.filter(pl.col("seed").is_in(s))) for s in (cut[2 * j], cut[2 * j + 1]))
        cards = compare(a, b).cards
        rows.append({"pair": j, "games": args.games, "measures": cards.height,
                     "smallest_p_all": cards["p_all"].min() if cards.height else 1.0,
                     "clear": int(cards["clear"].sum())})
        print(rows[-1], flush=True)
    pairs = pl.DataFrame(rows)
    if args.out:
        pairs.write_parquet(args.out)
    n, k = pairs.height, int((pairs["clear"] > 0).sum())
    low, high = wilson(k, n)
    print(f"{args.games}-game runs: {k} of {n} pairs flag a card ({100 * k / n:.1f}%, Wilson 95% "
          f"[{100 * low:.1f}, {100 * high:.1f}]); smallest p_all below 0.05 / 0.10 / 0.20 / 0.50: "
          + " / ".join(str(int((pairs["smallest_p_all"] < q).sum())) for q in (0.05, 0.10, 0.20, 0.50)))


if __name__ == "__main__":
    main()
