"""Ivion's balance matrix (issue 34): every pairing of the six starter heroes, heuristic against
heuristic, each pairing a `cardtable simulate` run of its own with the seeds docs/games/ivion.md
gives (13,000,000 + 100,000 i + 10,000 j for heroes i < j in the starters' order), then the
report's figures: the row hero's win rate against each column hero with its Wilson 95% interval,
the first player over every game, and the cards that stand out on the "played" measure.

    python scripts/ivion_matrix.py GAMES --workers W --out DIR [--pairs 0,5,...]

A pairing whose folder already holds GAMES games is not played again (`cardtable simulate` goes
on from a stopped run), so a rerun only reports.
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
from pathlib import Path

from cardtable.games.ivion.decks import builder_info
from cardtable.sim import load
from cardtable.sim.analysis import analyze
from cardtable.sim.stats import wilson
from cardtable.sim.store import read_job

STARTERS: list[str] = list(builder_info()["starters"])
PAIRS = list(itertools.combinations(range(len(STARTERS)), 2))
#: the name a table column shows: the first name, past a title
SHORT = {h: h.split()[1] if h.split()[0] in ("Sir", "Brother", "Marshal") else h.split()[0] for h in STARTERS}


def seed_of(i: int, j: int) -> int:
    return 13_000_000 + 100_000 * i + 10_000 * j


def run(games: int, workers: int, out: Path, which: list[int]) -> None:
    for k in which:
        i, j = PAIRS[k]
        decks = f'decks=["{STARTERS[i]}","{STARTERS[j]}"]'
        cmd = [sys.executable, "-m", "cardtable.cli", "simulate", "ivion", "-a", "heuristic", "-n", str(games),
               "-w", str(workers), "--seed", str(seed_of(i, j)), "-o", decks, "--out", str(out / f"p{i}{j}")]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def summary(out: Path, which: list[int]) -> str:
    rate: dict[tuple[int, int], float] = {}
    lines = ["| pairing (seat 0 vs seat 1) | games | seat 0 wins | Wilson 95% | within 42-58% | first player wins "
             "| median decisions | cards standing out (played) |", "|---|---|---|---|---|---|---|---|"]
    first_wins = first_games = inside = 0
    for k in which:
        i, j = PAIRS[k]
        folder = out / f"p{i}{j}"
        r = analyze(load(folder), read_job(folder).to_json())
        n = r.games
        wins = int(r.seats.filter(r.seats["seat"] == 0)["wins"][0])
        low, high = wilson(wins, n)
        rate[i, j] = wins / n
        rate[j, i] = 1 - wins / n
        ok = 0.42 <= wins / n <= 0.58
        inside += ok
        fp = r.first_player
        first_wins += int(fp["wins"])
        first_games += int(fp["games"])
        marks = r.cards.filter((r.cards["measure"] == "played") & r.cards["stands_out"].is_not_null())
        cards = ", ".join(f"{c['card']} {c['stands_out']} ({100 * c['estimate']:+.1f})" for c in marks.iter_rows(named=True))
        lines.append(f"| {STARTERS[i]} vs {STARTERS[j]} | {n:,} | {100 * wins / n:.1f}% | [{100 * low:.1f}, {100 * high:.1f}] "
                     f"| {'yes' if ok else '**no**'} | {100 * fp['win_rate']:.1f}% | {int(r.lengths['length'].median())} "
                     f"| {cards or 'none'} |")
    low, high = wilson(first_wins, first_games)
    lines += ["", f"Within 42-58%: {inside} of {len(which)}. First player overall: {100 * first_wins / first_games:.1f}% "
              f"[{100 * low:.1f}, {100 * high:.1f}] of {first_games:,} games ({first_wins:,}).", ""]
    heroes = range(len(STARTERS))
    lines += ["| row wins vs column | " + " | ".join(SHORT[h] for h in STARTERS) + " | overall |",
              "|---|" + "---|" * (len(STARTERS) + 1)]
    for a in heroes:
        cells = [f"{100 * rate[a, b]:.1f}" if (a, b) in rate else "—" for b in heroes]
        mine = [rate[a, b] for b in heroes if (a, b) in rate]
        overall = f"{100 * sum(mine) / len(mine):.1f}" if mine else "—"
        lines.append(f"| **{SHORT[STARTERS[a]]}** | " + " | ".join(cells) + f" | {overall} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--pairs", default=None, help="only these pairings (indices 0-14, comma-separated)")
    args = parser.parse_args()
    which = [int(x) for x in args.pairs.split(",")] if args.pairs else list(range(len(PAIRS)))
    run(args.games, args.workers, args.out, which)
    print(summary(args.out, which))


if __name__ == "__main__":
    main()
