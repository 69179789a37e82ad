"""The ladder: a round robin between the bots' levels (and any agents named), rated on one scale.

Every pair of entrants plays `games` two-player games, seats rotated (the arena's games: each agent
is handed `state.determinize(seat, rng)` through `cardtable.play`). The results are kept one row per
game in Parquet files in a folder, as the simulator keeps its runs (`ladder.json` says which game
and options; a rerun into the folder must be the same ladder, and then plays only the games not
there yet: more games a pair, or a new entrant, extend the ladder and the fit is made again).

Ratings: the Bradley-Terry model, P(i beats j) = 1 / (1 + exp(-(r_i - r_j))), fitted by maximum
likelihood (Newton's method); a game without a winner counts half a win to each side. The first
entrant is the anchor (rating 0). Intervals: 95%, from the likelihood's curvature (the inverse of the
observed information, the anchor held at 0), so each is the uncertainty of that entrant's rating
relative to the anchor. Shown on the Elo scale: 400 / ln(10) Elo points per unit of r, so 100 Elo
points ahead is a 64% win chance. `prior` virtual games between each pair that played (half won by
each) keep a pair that one side won every time finite; 1 by default, 0 for the pure fit.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from .. import agents
from ..core import CardtableError, make, play
from .backends import start_pool
from .job import parse_agent
from .stats import Z95, wilson

#: the levels a person chooses, weakest first
LEVELS = list(agents.DIFFICULTY)
#: Elo points per unit of the Bradley-Terry rating
ELO = 400 / math.log(10)
#: the share of the games expected of an entrant 100 Elo points ahead (the scale, in a player's words)
SHARE_100_AHEAD = 1 / (1 + math.exp(-100 / ELO))
LADDER_FILE = "ladder.json"
#: the ladders the lobby shows, one entry per game, written by `cardtable ladder --publish` (package data)
PUBLISHED = Path(__file__).resolve().parents[1] / "agents" / "ladders.json"

SCHEMA = pa.schema([
    ("a", pa.string()),              # the pair, in entrant order
    ("b", pa.string()),
    ("index", pa.int32()),           # the game's number within the pair
    ("seed", pa.int64()),
    ("seats", pa.list_(pa.string())),  # the entrant in each seat
    ("winners", pa.list_(pa.string())),
    ("decisions", pa.int32()),
])


def pair_seed(seed: int, a: str, b: str) -> int:
    """A pair's base seed: from the ladder's seed and the two names, so a new entrant changes no other pair's games."""
    digest = hashlib.sha256(f"{seed} {a} {b}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


_GAMES: dict[str, Any] = {}


def _play(task: tuple[str, dict[str, Any], str, str, int, int, str]) -> dict[str, Any]:
    """Game `index` of a pair, in a worker (top level, so `spawn` workers import it): the seats
    alternate from game to game, and each game has its own seed and its own agents' seeds."""
    game, options, a, b, seed, index, clock = task
    key = json.dumps([game, options], sort_keys=True)
    g = _GAMES.get(key) or _GAMES.setdefault(key, make(game, **options))
    gseed = (seed * 1_000_003 + index) & ((1 << 63) - 1)
    names = [a, b] if index % 2 == 0 else [b, a]  # the entrant in each seat
    specs = [_timed(*_spec(n), clock) for n in names]
    bots = [agents.make(n, **p, seed=(gseed * 31 + s + 1) & ((1 << 63) - 1)) for s, (n, p) in enumerate(specs)]
    final = play(g, bots, seed=gseed, record_events=False)
    return {"a": a, "b": b, "index": index, "seed": gseed, "seats": names,
            "winners": sorted({names[s] for s in final.winners()}), "decisions": len(final.history)}


def _spec(text: str) -> tuple[str, dict[str, Any]]:
    name, params = parse_agent(text)
    if "seed" in params:
        raise CardtableError(f"{text}: the ladder seeds every agent itself; give no seed")
    return name, params


def _timed(name: str, params: dict[str, Any], clock: str) -> tuple[str, dict[str, Any]]:
    """A searching entrant (`ismcts`, or a level made of it) counts its `time_limit` on the ladder's clock,
    unless its own name says which: "cpu" makes a ladder played on a busy machine the ladder an idle one
    plays, where the search's CPU time and the real time a person waits are the same."""
    base = agents.DIFFICULTY[name][0] if name in agents.DIFFICULTY else name
    if base == "ismcts" and "clock" not in params:
        return name, {**params, "clock": clock}
    return name, params


def read_games(folder: Path) -> pa.Table:
    parts = sorted(folder.glob("part-*.parquet"))
    if not parts:
        return SCHEMA.empty_table()
    return pa.concat_tables([pq.read_table(p, schema=SCHEMA) for p in parts])


def _open(folder: Path, game: str, options: dict[str, Any], clock: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LADDER_FILE
    # a ladder on real time writes no clock, as every ladder did before the clock could be chosen
    here = {"game": game, "options": options, **({"clock": clock} if clock != "wall" else {})}
    if path.exists():
        there = json.loads(path.read_text())
        if there != here:
            raise CardtableError(f"{folder} holds the ladder of {there['game']} {there['options']} on the "
                                 f"{there.get('clock', 'wall')} clock, not of {game} {options} on the {clock} clock: "
                                 "give another folder")
    else:
        path.write_text(json.dumps(here, indent=1) + "\n")


def run(
    game: str,
    entrants: list[str],
    games: int,
    folder: Path,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    workers: int = 1,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    clock: str = "wall",
    adjacent: bool = False,
    on_start: Callable[[int], None] | None = None,
) -> pa.Table:
    """Play what the ladder in `folder` lacks for `games` games a pair between `entrants`; every game there.
    `clock`: what the searching entrants' `time_limit` counts, "wall" (real time) or "cpu" (`_timed`).
    `adjacent`: only each entrant against the next (the levels' steps, what "65% against the level
    below" reads), not every pair: a chain links every entrant to the first, so the fit is made all
    the same, on k - 1 pairs instead of k (k - 1) / 2. `on_start` is told how many games are to be played,
    before the first; `on_game` is given each game's row as it finishes."""
    options = {**(options or {}), "players": 2}
    if len(entrants) < 2 or len(set(entrants)) != len(entrants):
        raise CardtableError("a ladder needs at least two different entrants")
    if games < 1:
        raise CardtableError("--games must be at least 1 a pair")
    make(game, **options)  # the game and its options are checked here, not in a worker
    if clock not in ("wall", "cpu"):
        raise CardtableError(f"the clock is 'wall' (real time) or 'cpu' (CPU time), not {clock!r}")
    for text in entrants:
        name, params = _timed(*_spec(text), clock)
        agents.make(name, **params, seed=0)
    _open(folder, game, options, clock)
    have = read_games(folder)
    done = {(a, b, i) for a, b, i in zip(have["a"].to_pylist(), have["b"].to_pylist(), have["index"].to_pylist(), strict=True)}
    matches = list(pairwise(entrants)) if adjacent else list(combinations(entrants, 2))
    tasks = [(game, options, a, b, pair_seed(seed, a, b), i, clock) for a, b in matches
             for i in range(games) if (a, b, i) not in done]
    if on_start is not None:
        on_start(len(tasks))
    rows: list[dict[str, Any]] = []
    part = folder / f"part-{len(list(folder.glob('part-*.parquet'))):05d}.parquet"

    def keep(row: dict[str, Any]) -> None:
        rows.append(row)
        if on_game is not None:
            on_game(row)
        if len(rows) % 20 == 0:  # an interrupted run keeps what it played
            pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMA), part)

    try:
        if workers <= 1 or len(tasks) <= 1:
            for t in tasks:
                keep(_play(t))
        else:
            with start_pool(multiprocessing.get_context("spawn"), min(workers, len(tasks))) as pool:
                for row in pool.imap_unordered(_play, tasks, chunksize=1):
                    keep(row)
    finally:  # Ctrl-C (KeyboardInterrupt) too: every game finished is kept, and a rerun plays the rest
        if rows:
            pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMA), part)
    return read_games(folder)


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float  # wins, a game without a winner counted half


@dataclass(frozen=True)
class PairResult:
    a: str
    b: str
    games: int
    a_score: float
    interval: tuple[float, float]  # Wilson, of a's share


def tally(table: pa.Table, entrants: list[str] | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(entrants, wins[i, j]: i's score against j, games[i, j]) from the ladder's rows."""
    rows = table.to_pylist()
    names = list(entrants) if entrants is not None else list(dict.fromkeys(n for r in rows for n in (r["a"], r["b"])))
    at = {n: k for k, n in enumerate(names)}
    k = len(names)
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for r in rows:
        if r["a"] not in at or r["b"] not in at:
            continue
        i, j = at[r["a"]], at[r["b"]]
        games[i, j] += 1
        games[j, i] += 1
        wins[i, j] += score(r, r["a"])
        wins[j, i] += score(r, r["b"])
    return names, wins, games


def score(row: dict[str, Any], entrant: str) -> float:
    """`entrant`'s score in one game of a pair (a ladder's row): 1 when it alone won, 0 when the other
    alone did, half when nobody won or both did (a shared win)."""
    won = set(row["winners"])
    if won == {entrant}:
        return 1.0
    return 0.0 if won == {row["b"] if entrant == row["a"] else row["a"]} else 0.5


def fit(names: list[str], wins: np.ndarray, games: np.ndarray, prior: float = 1.0) -> list[Rating]:
    """Bradley-Terry ratings (Elo scale, the first name at 0) with 95% likelihood intervals."""
    k = len(names)
    w = wins + prior * 0.5 * (games > 0)
    n = games + prior * (games > 0)
    _check_connected(names, n)
    r = np.zeros(k)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))  # p[i, j]: i beats j
        grad = (w - n * p).sum(axis=1)
        info = n * p * (1 - p)
        hess = np.diag(info.sum(axis=1)) - info            # observed information
        step = np.linalg.solve(hess[1:, 1:], grad[1:])
        r[1:] += step
        if np.max(np.abs(step)) < 1e-12:
            break
    if not np.all(np.isfinite(r)) or np.max(np.abs(r)) > 30:
        raise CardtableError("the ratings do not converge: an entrant won (or lost) every game; fit with a prior above 0")
    p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))
    info = n * p * (1 - p)
    cov = np.linalg.inv((np.diag(info.sum(axis=1)) - info)[1:, 1:])
    sd = np.concatenate([[0.0], np.sqrt(np.diag(cov))])
    return [Rating(names[i], r[i] * ELO, (r[i] - Z95 * sd[i]) * ELO, (r[i] + Z95 * sd[i]) * ELO,
                   int(games[i].sum()), float(wins[i].sum())) for i in range(k)]


def _check_connected(names: list[str], n: np.ndarray) -> None:
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.nonzero(n[i] > 0)[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    if len(seen) < len(names):
        lost = ", ".join(names[i] for i in range(len(names)) if i not in seen)
        raise CardtableError(f"no games link {lost} to {names[0]}: play them against the others first")


def pairs(names: list[str], wins: np.ndarray, games: np.ndarray) -> list[PairResult]:
    return [PairResult(names[i], names[j], int(games[i, j]), float(wins[i, j]), wilson(wins[i, j], games[i, j]))
            for i, j in combinations(range(len(names)), 2) if games[i, j] > 0]


def plot(ratings: list[Rating], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 0.6 * len(ratings) + 1.4))
    ys = list(range(len(ratings)))
    ax.errorbar([x.elo for x in ratings], ys, xerr=[[x.elo - x.low for x in ratings], [x.high - x.elo for x in ratings]],
                fmt="o", capsize=4)
    ax.set_yticks(ys, [x.name for x in ratings])
    ax.invert_yaxis()
    ax.set_xlabel(f"Elo (Bradley-Terry, {ratings[0].name} = 0), 95% interval")
    # the title names the game, its options, the games and the clock: wrapped, so a long one stays on the figure
    ax.set_title(textwrap.fill(title, 60), fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def publish(game: str, options: dict[str, Any], ratings: list[Rating], games: int, path: Path | None = None,
            clock: str = "wall") -> Path:
    """The ratings the lobby shows for `game`: its entry in the package's ladder file, the other games' kept."""
    path = path or PUBLISHED
    data = json.loads(path.read_text()) if path.is_file() else {}
    data[game] = {
        "options": options, "games": games, "anchor": ratings[0].name, "clock": clock,
        "ratings": {x.name: {"elo": round(x.elo), "low": round(x.low), "high": round(x.high)} for x in ratings},
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


def rated_on(entry: dict[str, Any] | None) -> str:
    """What a published ladder measured, in a player's words (the lobby's line under its bot seats):
    how many games, how many players, single rounds or matches, and what the ratings are against."""
    if not entry:
        return ""
    options = entry.get("options", {})
    rounds = ", one round each" if options.get("match") is False else ""
    return (f"Levels rated in {entry['games']:,} games between them, {options.get('players', 2)} players{rounds}; "
            f"Elo against {entry['anchor']} (100 points ahead: {SHARE_100_AHEAD:.0%} of the games won).")


def published(game: str, path: Path | None = None) -> dict[str, Any] | None:
    """The published ladder of `game` (looked up by the game's name in the package's file, never read from a
    path a client gave), or None."""
    path = path or PUBLISHED
    if not path.is_file():
        return None
    entry = json.loads(path.read_text()).get(game)
    return entry if isinstance(entry, dict) else None
