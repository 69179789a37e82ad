"""The balance report's figures: who wins, from which seat, how long games last, which cards matter.

`analyze(table, job, status)` computes every figure from a results table (one row per game),
with what the run says about itself (its job, whether it is still being written); the
summary at the top of the report is written from the figures (`headline`). The terminal and
HTML renderings live in `render.py`, the comparison of two runs in `compare.py`.

Rates carry Wilson 95% intervals; differences of rates Newcombe's interval; the first-player
advantage an exact binomial test; card measures are described in `impact.py`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from .impact import card_impact, counted
from .job import SimError, current_version
from .stats import binomial_test, newcombe, wilson
from .store import describe_version


@dataclass
class Report:
    games: int
    title: str
    agents: pl.DataFrame        # agent, seat_games, wins, win_rate, low, high, mean_score
    seats: pl.DataFrame         # seat, seat_games, wins, win_rate, low, high, mean_score
    first_player: dict[str, float]
    expected_rate: float        # a seat's win rate if every seat and agent were equal
    lengths: pl.DataFrame       # seed, length, winners, by_limit (one row per game)
    scores: pl.DataFrame        # agent, score (one row per seat-game)
    winner_scores: np.ndarray
    cards: pl.DataFrame         # impact.SCHEMA: agent, measure, card, estimate, low, high, stands_out, ...
    job: dict[str, Any] | None = None
    rotated: bool | None = None  # None: unknown (no job) or irrelevant (one agent)
    notes: list[str] = field(default_factory=list)     # what the reader must know before the figures
    headline: list[str] = field(default_factory=list)  # the summary at the top
    decks: pl.DataFrame | None = None  # seat, deck, seat_games, wins, win_rate, low, high, mean_score: a deck
    #                                    (Ivion: a hero) per seat, from the job's `decks` option
    units: tuple[pl.DataFrame, pl.DataFrame] | None = None  # the card measures' seat-games (`impact.counted`,
    #                                    and seed, seat, agent, win), which a comparison permutes

    def tables(self) -> dict[str, pl.DataFrame]:
        """Every table of the report, by file name (the report writes each as CSV and Parquet)."""
        fp = pl.DataFrame([{**self.first_player, "expected_rate": self.expected_rate}])
        out = {"agents": self.agents, "seats": self.seats, "first_player": fp, "games": self.lengths,
               "card_impact": self.cards}
        if self.decks is not None:
            out["decks"] = self.decks
        return out


def _rates(frame: pl.DataFrame, key: str) -> pl.DataFrame:
    agg = (
        frame.group_by(key)
        .agg(seat_games=pl.len(), wins=pl.col("win").sum().cast(pl.Int64), mean_score=pl.col("score").mean())
        .sort(key)
    )
    bounds = [wilson(k, n) for k, n in zip(agg["wins"], agg["seat_games"], strict=True)]
    return agg.with_columns(
        win_rate=pl.col("wins") / pl.col("seat_games"),
        low=pl.Series([b[0] for b in bounds], dtype=pl.Float64),
        high=pl.Series([b[1] for b in bounds], dtype=pl.Float64),
    ).select(key, "seat_games", "wins", "win_rate", "low", "high", "mean_score")


def seat_games(table: pl.DataFrame) -> pl.DataFrame:
    """One row per (game, seat): seed, seat, agent, win, score."""
    return (
        table.select("seed", "players", "agents", "winners", "scores")
        .with_columns(seat=pl.int_ranges(0, pl.col("players")).cast(pl.List(pl.Int16)))
        .explode("agents", "scores", "seat")
        .with_columns(win=pl.col("winners").list.contains(pl.col("seat")).fill_null(False))
        .rename({"agents": "agent", "scores": "score"})
        .select("seed", "seat", "agent", "win", "score")
    )


def check_one_job(table: pl.DataFrame) -> None:
    """A report is about one job: games of other games or options would mix."""
    jobs = table.select("game", "options").unique()
    if jobs.height > 1:
        shown = "; ".join(f"{r['game']} {r['options']}" for r in jobs.head(3).iter_rows(named=True))
        raise SimError(f"these results mix {jobs.height} different jobs ({shown}{' ...' if jobs.height > 3 else ''}); "
                       "report each on its own, or compare two with `cardtable report A B`")


def analyze(table: pl.DataFrame, job: dict[str, Any] | None = None,
            status: dict[str, Any] | None = None) -> Report:
    """Every figure of the report. `job`: the run's job.json (for its agents, rotation and
    version); `status`: `store.run_status` of its folder (a run still being written)."""
    if table.height == 0:
        if status is not None and status.get("alive"):
            raise SimError("no game has finished yet: the run is still being written; report again in a moment")
        raise SimError("there are no finished games to report on")
    check_one_job(table)
    seats = seat_games(table)
    first = table.select(
        won=pl.col("winners").list.contains(pl.col("first_player")).fill_null(False),
        share=pl.col("winners").list.len() / pl.col("players"),
    )
    n, k = first.height, int(first["won"].sum())
    # Under "no seat is favoured", the first player wins as often as a seat picked at random.
    expected = float(first["share"].mean())  # type: ignore[arg-type]
    low, high = wilson(k, n)
    games = table.height
    names = sorted(set(table["game"]))
    variants = sorted({v for v in table["variant"] if v})
    players = sorted(set(table["players"]))
    title = f"{', '.join(names)}{' (' + ', '.join(variants) + ')' if variants else ''}, " \
            f"{'/'.join(map(str, players))} players, {games:,} games"
    report = Report(
        games=games,
        title=title,
        agents=_rates(seats, "agent"),
        seats=_rates(seats, "seat"),
        first_player={"games": n, "wins": k, "win_rate": k / n, "low": low, "high": high,
                      "p_value": binomial_test(k, n, expected)},
        expected_rate=expected,
        lengths=table.select("seed", "length", winners=pl.col("winners").cast(pl.List(pl.String)).list.join(" "),
                             by_limit="by_limit"),
        scores=seats.select("agent", "score"),
        winner_scores=table.select(
            pl.col("scores").list.gather(pl.col("winners")).list.max()
        ).to_series().drop_nulls().to_numpy(),
        cards=card_impact(table, seats),
        job=job,
    )
    report.decks = deck_rates(seats, job)
    report.units = (counted(table, seats), seats.select("seed", "seat", "agent", "win"))
    report.rotated = _rotated(table, job)
    report.notes = _notes(report, job, status, names[0])
    report.headline = headline(report)
    return report


def deck_name(deck: Any) -> str:
    """A deck option's name: a starter's name, a hero file's stem, or a hero table's `name`."""
    if isinstance(deck, dict):
        return str(deck.get("name") or "a deck table")
    text = str(deck)
    return text.rsplit("/", 1)[-1].rsplit(".", 1)[0] if text.endswith((".toml", ".json")) else text


def deck_rates(seats: pl.DataFrame, job: dict[str, Any] | None) -> pl.DataFrame | None:
    """Win rates per seat's deck when the run gave each seat a deck (`-o decks=[...]`): who wins
    a pairing of heroes, with intervals. The first player is drawn at random each game, so a
    deck's seat does not favour it; the first-player figure is separate."""
    decks = ((job or {}).get("options") or {}).get("decks")
    if not isinstance(decks, list) or not decks:
        return None
    names = [deck_name(d) for d in decks]
    return _rates(seats, "seat").with_columns(deck=pl.col("seat").map_elements(lambda s: names[s % len(names)],
                                                                return_dtype=pl.String)).select(
        "seat", "deck", "seat_games", "wins", "win_rate", "low", "high", "mean_score")


def _rotated(table: pl.DataFrame, job: dict[str, Any] | None) -> bool | None:
    """Whether the agents took turns in the seats; None when only one agent plays."""
    if len(set(table["agents"].explode().drop_nulls())) <= 1:
        return None
    if job is not None and "rotate" in job:
        return bool(job["rotate"])
    return table["agents"].n_unique() > 1


def _notes(report: Report, job: dict[str, Any] | None, status: dict[str, Any] | None, game: str) -> list[str]:
    notes = []
    if status is not None:
        planned = int(status.get("end_seed", 0)) - int(status.get("first_seed", 0))
        if status.get("alive"):
            notes.append(f"This run is still being written: {report.games:,} games have finished"
                         f"{f' of the {planned:,} asked for' if planned else ''}. Every figure will change.")
        else:
            notes.append(f"The run writing this folder stopped before it finished ({report.games:,} games"
                         f"{f' of {planned:,}' if planned else ''}); run the same command again to finish it.")
    if job is not None:
        there = {str(k): str(v) for k, v in (job.get("version") or {}).items()}
        here = current_version(game)
        if there != here:
            notes.append(f"These games were played by {describe_version(there)}; this installation is "
                         f"{describe_version(here)}. The figures are those of the version that played them.")
    if report.rotated is False:
        notes.append("The seats were not rotated: each agent kept its seats, so the seat and agent figures mix "
                     "seat advantage with agent strength. Rotate them (the default) to separate the two.")
    return notes


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


#: how each card measure reads in a sentence
UNITS = {"played": "pts when played", "dealt": "pts per copy dealt", "drawn": "pts per copy drawn"}


def headline(r: Report) -> list[str]:
    """The summary at the top of the report: who wins and how sure, seat advantage, the
    longest and shortest games, the cards that stand out; each one sentence."""
    out = []
    agents = r.agents.sort("win_rate", descending=True)
    if agents.height == 1:
        out.append(f"One agent ({agents['agent'][0]}) plays every seat: the figures describe the game, not the agents.")
    else:
        best, second = agents.row(0, named=True), agents.row(1, named=True)
        d, lo, hi = newcombe(best["wins"], best["seat_games"], second["wins"], second["seat_games"])
        sure = "a clear lead" if lo > 0 else "not a clear lead: the interval includes no difference"
        out.append(f"{best['agent']} wins most: {100 * best['win_rate']:.1f}% [{100 * best['low']:.1f}, "
                   f"{100 * best['high']:.1f}] of its seat-games (equal agents would win {100 * r.expected_rate:.1f}%), "
                   f"against {100 * second['win_rate']:.1f}% for {second['agent']}; {_pts(d)} points "
                   f"[{_pts(lo)}, {_pts(hi)}], {sure}.")
    fp = r.first_player
    sig = fp["p_value"] < 0.05
    out.append(f"The first player wins {100 * fp['win_rate']:.1f}% [{100 * fp['low']:.1f}, {100 * fp['high']:.1f}] "
               f"of games where equal seats would give {100 * r.expected_rate:.1f}% (p = {fp['p_value']:.2g}: "
               f"{'a real seat advantage' if sig and fp['win_rate'] > r.expected_rate else 'a real disadvantage' if sig else 'no clear advantage'}).")
    if r.decks is not None and r.decks.height == 2:
        a, b = r.decks.row(0, named=True), r.decks.row(1, named=True)
        verdict = ("within 40-60%" if 0.4 <= a["win_rate"] <= 0.6 else "outside 40-60%: unbalanced")
        out.append(f"{a['deck']} (seat 0) wins {100 * a['win_rate']:.1f}% [{100 * a['low']:.1f}, {100 * a['high']:.1f}] "
                   f"of games against {b['deck']} (seat 1), {verdict}.")
    if r.rotated is True:
        out.append("Seats rotated: every agent sat in every seat equally often.")
    elif r.rotated is False:
        out.append("Seats NOT rotated: seat and agent strength are mixed up.")
    longest = r.lengths.sort(["length", "seed"], descending=[True, False]).row(0, named=True)
    shortest = r.lengths.sort(["length", "seed"]).row(0, named=True)
    median = float(np.median(r.lengths["length"].to_numpy()))
    out.append(f"Games last {median:.0f} decisions (median); the shortest "
               f"{shortest['length']} (seed {shortest['seed']}), the longest {longest['length']} (seed {longest['seed']}).")
    limited = r.lengths["by_limit"].drop_nulls()
    if len(limited):  # only games with a turn limit of their own say whether it ended the game
        k, n = int(limited.sum()), len(limited)
        low, high = wilson(k, n)
        out.append(f"{k:,} of {n:,} games ({100 * k / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]) ended at the "
                   f"game's turn limit.")
    marked = r.cards.filter(pl.col("stands_out").is_not_null())
    if marked.height:
        # one entry per card (and agent), its measures together, the largest first
        several = r.agents.height > 1
        cards = (marked.group_by("agent", "card").agg(pl.col("measure"), pl.col("estimate"),
                                                        top=pl.col("estimate").abs().max())
                 .sort(["top", "card"], descending=[True, False]))
        shown = []
        for c in cards.head(6).iter_rows(named=True):
            figures = ", ".join(f"{_pts(e)} {UNITS[m]}" for m, e in sorted(zip(c["measure"], c["estimate"], strict=True),
                                                                       key=lambda x: list(UNITS).index(x[0])))
            who = f" ({c['agent']})" if several else ""
            shown.append(f"{c['card']}{who}: {figures}")
        out.append(f"Cards that stand out from the rest: {'; '.join(shown)}"
                   f"{f'; and {cards.height - 6} more' if cards.height > 6 else ''}.")
    elif r.cards.filter(pl.col("estimated")).height:
        out.append("No card stands out from the rest on any measure.")
    else:
        out.append("Too few games to estimate any card's impact (each card needs 30 seat-games with it and 30 "
                   "without).")
    return out


def length_stats(lengths: np.ndarray) -> dict[str, float]:
    if not len(lengths):
        return {k: math.nan for k in ("mean", "p10", "median", "p90", "min", "max")}
    q = np.percentile(lengths, [10, 50, 90])
    return {"mean": float(lengths.mean()), "p10": float(q[0]), "median": float(q[1]), "p90": float(q[2]),
            "min": float(lengths.min()), "max": float(lengths.max())}


def significance(p: float) -> str:
    return "significant at 5%" if p < 0.05 else "not significant at 5%"
