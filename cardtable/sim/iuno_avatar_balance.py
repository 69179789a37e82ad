"""Iuno Avatar's balance, read from `cardtable simulate iuno_avatar` folders (the lab's `cardtable
report` gives the seats and the per-card impact; this adds what only this game has):

- the pace: how many games ended at the turn limit (no empty Heaven: the fewest cards won), and
  the median game in turns (every player's turns counted, the `turns` column) and in decisions;
- the first player's win rate against an equal share (the avatar decides the turn order);
- each avatar element's win rate (NOTES.md: Fire first and Dark never starts), with its Wilson 95%
  interval;
- each element's cards: the win rate of seat-games that played a card of that element against
  those that did not;
- each card's **played share**: of the seat-games in which its owner held it (dealt into Heaven or
  drawn), the share in which they played it (a figure or spell announced, a gem card paid with).
  A card nobody wants to play is dead weight in a shedding game.

The rows carry no avatar and no opening Heaven: both are dealt from the game's seed, so they are
dealt again here from each row's seed and options (the same setup `cardtable.play` played).

    python -m cardtable.sim.iuno_avatar_balance FOLDER [FOLDER ...]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from statistics import median
from typing import Any

from ..core import make
from ..games.iuno_avatar.game import IunoAvatar
from ..games.iuno_avatar.language import ELEMENTS
from .stats import wilson
from .store import read_table

#: the lab's counters that say a seat played a card: a figure or spell announced (the game's
#: `card_counter_kinds` names it `played`), a gem card paid with (`paid_card`, its own event kind)
PLAYED = ("played", "paid_card")


def _rate(wins: int, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"seat_games": n, "wins": wins, "rate": wins / n if n else 0.0, "low": low, "high": high}


def element_balance(folders: list[Path]) -> dict[str, Any]:
    """Pace, first player, per avatar element, per element of cards played, per card played share."""
    games: dict[str, IunoAvatar] = {}
    avatar: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    played: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # with: wins, n; without: wins, n
    share: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # card: seat-games played, seat-games held
    first = [0, 0]
    equal = 0.0
    rows = 0
    limited = [0, 0]  # games ended at the turn limit, games that say (folders before the column: none)
    lengths: list[int] = []
    turns: list[int] = []
    for folder in folders:
        for row in read_table(folder).to_pylist():
            if row["game"] != "iuno_avatar":
                continue
            rows += 1
            if row["by_limit"] is not None:
                limited[0] += row["by_limit"]
                limited[1] += 1
            lengths.append(row["length"])
            if row.get("turns") is not None:
                turns.append(row["turns"])
            game = games.get(row["options"])
            if game is None:
                made = make("iuno_avatar", **json.loads(row["options"]))
                assert isinstance(made, IunoAvatar)
                game = games[row["options"]] = made
            dealt = game.new_state(row["seed"], record_events=False)
            element_of = {c.name: c.element for c in game.cards}
            winners = set(row["winners"])
            first[0] += int(row["first_player"] in winners)
            first[1] += 1
            equal += 1 / row["players"]
            kinds: dict[int, set[str]] = defaultdict(set)
            held: dict[int, set[str]] = {s: {game.cards[c].name for c in dealt.heaven[s]} for s in range(row["players"])}
            used: dict[int, set[str]] = defaultdict(set)
            for c in row["cards"] or []:
                if c["count"] <= 0:
                    continue
                if c["counter"] == "drawn":
                    held[c["seat"]].add(c["card"])
                elif c["counter"] in PLAYED:
                    used[c["seat"]].add(c["card"])
                    if c["counter"] == "played":
                        kinds[c["seat"]].add(element_of[c["card"]])
            for seat in range(row["players"]):
                won = int(seat in winners)
                a = avatar[ELEMENTS[dealt.avatars[seat]]]
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
                for name in held[seat]:
                    s = share[name]
                    s[0] += int(name in used[seat])
                    s[1] += 1
    lengths.sort()
    return {
        "games": rows,
        "by_limit": _rate(*limited),
        "median_length": median(lengths) if lengths else 0,
        "median_turns": median(turns) if turns else None,
        "first_player": {**_rate(*first), "equal": equal / rows if rows else 0.0},
        "avatar": {e: _rate(*avatar[e]) for e in ELEMENTS if avatar[e][1]},
        "played": {e: {"with": _rate(*played[e][:2]), "without": _rate(*played[e][2:])} for e in ELEMENTS},
        "played_share": dict(sorted(((k, _rate(*v)) for k, v in share.items()), key=lambda kv: kv[1]["rate"])),
    }


def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def render(result: dict[str, Any], cards: int = 10) -> str:
    """The result as text; `cards`: how many of the least played cards to list (all: -1)."""
    lim = result["by_limit"]
    turns = result["median_turns"]
    fp = result["first_player"]
    out = [f"Iuno Avatar by element: {result['games']:,} games",
           (f"ended at the turn limit: {lim['wins']:,} of {lim['seat_games']:,} ({_pct(lim).strip()})"
            if lim["seat_games"] else "ended at the turn limit: not recorded")
           + (f"; median game {turns:.0f} turns" if turns is not None else "")
           + f", {result['median_length']:.0f} decisions",
           f"first player wins {_pct(fp).strip()} ({fp['seat_games']:,} games; an equal share is "
           f"{100 * fp['equal']:.1f}%)",
           "", "avatar element: win rate [95% interval] (seat-games)"]
    for e, r in result["avatar"].items():
        out.append(f"  {e:<6} {_pct(r)} ({r['seat_games']:,})")
    out += ["", "cards of an element played: win rate with / without [95% intervals]"]
    for e, r in result["played"].items():
        w, wo = r["with"], r["without"]
        out.append(f"  {e:<6} {_pct(w)} ({w['seat_games']:,})  /  {_pct(wo)} ({wo['seat_games']:,})")
    shares = list(result["played_share"].items())
    shown = shares if cards < 0 else shares[:cards]
    out += ["", f"played share (of the seat-games its owner held it): the {len(shown)} least played of {len(shares)}"]
    for name, r in shown:
        out.append(f"  {name:<16} {_pct(r)} ({r['seat_games']:,})")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    folders = [a for a in argv if a != "--all-cards"]
    if not folders:
        print(__doc__)
        return 2
    print(render(element_balance([Path(a) for a in folders]), -1 if "--all-cards" in argv else 10))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
