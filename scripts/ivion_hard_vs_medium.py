"""Ivion's hard against medium over the whole cast (issue 34: "Hard (ISMCTS, 0.5 s a move) wins at
least 75% against medium with the new content"): game i puts the starter pair (i // 2) mod 15 on
the table (all 15 pairings of the 6 starters in turn) and seats the agents as `cardtable arena`
does (they swap every game), so over 30 games hard plays every hero against every other from
both sides. Seeds as the arena's (`game_seed(seed, i)`), so a game is the same whatever the
number of workers (time-limited searches aside).

    python scripts/ivion_hard_vs_medium.py GAMES --seed S --workers W --out FILE.jsonl [--hard JSON]

`--hard '{"iterations": 250, "time_limit": 1e9}'` changes hard's parameters (a probe of the search
on a fixed budget, which load cannot change); the default is hard as people meet it, timed on the
CPU clock.

One JSON line per finished game in FILE (a rerun skips the games already there, so a run stopped
at a deadline keeps its games and can go on); then the hard agent's wins with the Wilson 95%
interval, its wins per hero, and the search's CPU time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import statistics
from pathlib import Path
from typing import Any

import cardtable
from cardtable import agents
from cardtable.commands.arena import game_seed, run_game, seat_agents
from cardtable.games.ivion.decks import builder_info
from cardtable.sim.stats import wilson

AGENTS: list[tuple[str, dict[str, Any]]] = [("hard", {"clock": "cpu"}), ("medium", {})]
PAIRS = list(itertools.combinations(builder_info()["starters"], 2))


def one(task: tuple[int, int, dict[str, Any]]) -> dict[str, Any]:
    seed, i, hard = task
    decks = list(PAIRS[(i // 2) % len(PAIRS)])
    game = cardtable.make("ivion", decks=decks)
    gseed = game_seed(seed, i)
    seats = seat_agents(i, 2, len(AGENTS))
    specs = [(AGENTS[0][0], {**AGENTS[0][1], **hard}), AGENTS[1]]
    bots = [agents.make(n, **p, seed=(gseed * 31 + k + 1) & ((1 << 63) - 1)) for k, (n, p) in enumerate(specs)]
    r = run_game(game, bots, seats, gseed, i)
    hard_seat = seats.index(0)
    return {"i": i, "decks": decks, "seats": seats, "winners": r.winners, "hard_hero": decks[hard_seat],
            "decisions": r.decisions, "hard_choices": len(r.times[0]), "hard_search_s": r.search_seconds[0]}


def summary(rows: list[dict[str, Any]]) -> str:
    n = len(rows)
    wins = sum(0 in r["winners"] for r in rows)
    ties = sum(len(r["winners"]) != 1 for r in rows)
    low, high = wilson(wins, n)
    out = [f"hard vs medium, Ivion, the 6 starters in turn: {n} games, hard won {wins} "
           f"({100 * wins / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]), ties {ties}"]
    per: dict[str, list[int]] = {}
    for r in rows:
        t = per.setdefault(r["hard_hero"], [0, 0])
        t[0] += 0 in r["winners"]
        t[1] += 1
    out.append("hard's hero: " + ", ".join(f"{h} {w}/{k}" for h, (w, k) in sorted(per.items())))
    search = [r["hard_search_s"] for r in rows]
    out.append(f"hard's search CPU a game: median {statistics.median(search):.1f} s; "
               f"{sum(r['hard_choices'] for r in rows):,} choices")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hard", type=json.loads, default={}, help="hard's parameters over its defaults (JSON)")
    args = parser.parse_args()
    done = {json.loads(line)["i"] for line in args.out.read_text().splitlines()} if args.out.exists() else set()
    todo = [(args.seed, i, args.hard) for i in range(args.games) if i not in done]
    with args.out.open("a") as f, multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for row in pool.imap_unordered(one, todo):
            f.write(json.dumps(row) + "\n")
            f.flush()
    rows = [json.loads(line) for line in args.out.read_text().splitlines()]
    print(summary(rows))


if __name__ == "__main__":
    main()
