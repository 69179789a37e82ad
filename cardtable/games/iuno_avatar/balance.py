"""Iuno Avatar's balance by element, read from `cardtable simulate iuno_avatar` folders (the lab's
`cardtable report` gives the seats and the per-card impact; this adds what only this game has):

- each avatar element's win rate (the avatar decides the turn order: NOTES.md, Fire first and Dark
  never starts), with its Wilson 95% interval;
- each element's cards: the win rate of seat-games that played a card of that element against
  those that did not;
- how many games ended at the turn limit (no empty Heaven: the fewest cards won), and the median
  game in decisions.

The rows carry no avatar: it is dealt from the game's seed, so it is dealt again here from each
row's seed and options (the same setup `cardtable.play` played).

    python -m cardtable.games.iuno_avatar.balance FOLDER [FOLDER ...]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from statistics import median
from typing import Any

from ...core import make
from ...sim.stats import wilson
from ...sim.store import read_table
from .game import IunoAvatar
from .language import ELEMENTS


def _rate(wins: int, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"seat_games": n, "wins": wins, "rate": wins / n if n else 0.0, "low": low, "high": high}


def element_balance(folders: list[Path]) -> dict[str, Any]:
    """Per avatar element and per element of cards played: win rates with intervals."""
    games: dict[str, IunoAvatar] = {}
    avatar: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    played: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # with: wins, n; without: wins, n
    rows = 0
    limited = [0, 0]  # games ended at the turn limit, games that say (folders before the column: none)
    lengths: list[int] = []
    for folder in folders:
        for row in read_table(folder).to_pylist():
            if row["game"] != "iuno_avatar":
                continue
            rows += 1
            if row["by_limit"] is not None:
                limited[0] += row["by_limit"]
                limited[1] += 1
            lengths.append(row["length"])
            game = games.get(row["options"])
            if game is None:
                made = make("iuno_avatar", **json.loads(row["options"]))
                assert isinstance(made, IunoAvatar)
                game = games[row["options"]] = made
            dealt = game.new_state(row["seed"], record_events=False).avatars
            element_of = {c.name: c.element for c in game.cards}
            winners = set(row["winners"])
            kinds: dict[int, set[str]] = defaultdict(set)
            for c in row["cards"] or []:
                if c["counter"] == "played" and c["count"] > 0:
                    kinds[c["seat"]].add(element_of[c["card"]])
            for seat in range(row["players"]):
                won = int(seat in winners)
                a = avatar[ELEMENTS[dealt[seat]]]
                a[0] += won
                a[1] += 1
                for e in ELEMENTS:
                    p = played[e]
                    if e in kinds[seat]:
                        p[0] += won
                        p[1] += 1
                    else:
                        p[2] += won
                        p[3] += 1
    lengths.sort()
    return {
        "games": rows,
        "by_limit": _rate(*limited),
        "median_length": median(lengths) if lengths else 0,
        "avatar": {e: _rate(*avatar[e]) for e in ELEMENTS if avatar[e][1]},
        "played": {e: {"with": _rate(*played[e][:2]), "without": _rate(*played[e][2:])} for e in ELEMENTS},
    }


def render(result: dict[str, Any]) -> str:
    lim = result["by_limit"]
    out = [f"Iuno Avatar by element: {result['games']:,} games",
           (f"ended at the turn limit: {lim['wins']:,} of {lim['seat_games']:,} ({100 * lim['rate']:.1f}% "
            f"[{100 * lim['low']:.1f}, {100 * lim['high']:.1f}])" if lim["seat_games"] else "ended at the turn limit: "
            "not recorded") + f"; median game {result['median_length']:.0f} decisions",
           "", "avatar element: win rate [95% interval] (seat-games)"]
    for e, r in result["avatar"].items():
        out.append(f"  {e:<6} {100 * r['rate']:5.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}] ({r['seat_games']:,})")
    out += ["", "cards of an element played: win rate with / without [95% intervals]"]
    for e, r in result["played"].items():
        w, wo = r["with"], r["without"]
        out.append(f"  {e:<6} {100 * w['rate']:5.1f}% [{100 * w['low']:.1f}, {100 * w['high']:.1f}] ({w['seat_games']:,})"
                   f"  /  {100 * wo['rate']:5.1f}% [{100 * wo['low']:.1f}, {100 * wo['high']:.1f}] ({wo['seat_games']:,})")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    print(render(element_balance([Path(a) for a in argv])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
