"""The balance report: who wins, from which seat, how long games last, which cards matter.

`analyze(table)` computes every figure from a results table (one row per game); `summary`
renders it for the terminal and `report_html` writes a self-contained HTML page with the
plots embedded as PNG data URIs. Rates carry Wilson 95% intervals; differences of rates
carry Newcombe's interval; the first-player advantage has an exact binomial test.
"""

from __future__ import annotations

import base64
import html
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Group
from rich.table import Table
from rich.text import Text

from .stats import binomial_test, newcombe, wilson

#: a card counter needs this many seat-games on each side before its impact is shown
MIN_SEAT_GAMES = 30


@dataclass
class Report:
    games: int
    title: str
    agents: pl.DataFrame        # agent, seat_games, wins, win_rate, low, high, mean_score
    seats: pl.DataFrame         # seat, seat_games, wins, win_rate, low, high, mean_score
    first_player: dict[str, float]
    expected_rate: float        # a seat's win rate if every seat and agent were equal
    lengths: np.ndarray
    scores: pl.DataFrame        # agent, score (one row per seat-game)
    winner_scores: np.ndarray
    cards: pl.DataFrame         # agent, counter, card, with_*, without_*, diff, diff_low, diff_high


def _rates(frame: pl.DataFrame, key: str) -> pl.DataFrame:
    agg = (
        frame.group_by(key)
        .agg(seat_games=pl.len(), wins=pl.col("win").sum(), mean_score=pl.col("score").mean())
        .sort(key)
    )
    lows, highs = zip(*(wilson(k, n) for k, n in zip(agg["wins"], agg["seat_games"], strict=True)), strict=True) \
        if agg.height else ((), ())
    return agg.with_columns(
        win_rate=pl.col("wins") / pl.col("seat_games"),
        low=pl.Series(lows, dtype=pl.Float64),
        high=pl.Series(highs, dtype=pl.Float64),
    ).select(key, "seat_games", "wins", "win_rate", "low", "high", "mean_score")


def seat_games(table: pl.DataFrame) -> pl.DataFrame:
    """One row per (game, seat): seed, seat, agent, win, score."""
    return (
        table.select("seed", "players", "agents", "winners", "scores")
        .with_columns(seat=pl.int_ranges(0, pl.col("players")).cast(pl.List(pl.Int16)))
        .explode("agents", "scores", "seat")
        .with_columns(win=pl.col("winners").list.contains(pl.col("seat")))
        .rename({"agents": "agent", "scores": "score"})
        .select("seed", "seat", "agent", "win", "score")
    )


def card_impact(table: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """For each agent, counter and card: the win rate of that agent's seat-games where the count
    is positive ("with": played it, held it at the end) against its other seat-games
    ("without"). Comparing within one agent keeps agent strength out of a card's impact (a
    strong agent plays its good cards more often, and wins more, for reasons of its own)."""
    totals = {r["agent"]: (r["n"], r["wins"])
              for r in seats.group_by("agent").agg(n=pl.len(), wins=pl.col("win").sum()).iter_rows(named=True)}
    counted = (
        table.lazy()
        .select("winners", "agents", "cards")
        .explode("cards")
        .drop_nulls("cards")
        .unnest("cards")
        .filter(pl.col("count") > 0)
        .with_columns(
            win=pl.col("winners").list.contains(pl.col("seat")),
            agent=pl.col("agents").list.get(pl.col("seat").cast(pl.Int64)),
        )
        .group_by("agent", "counter", "card")
        .agg(with_n=pl.len(), with_wins=pl.col("win").sum(), mean_count=pl.col("count").mean())
        .collect()
    )
    out: list[dict[str, Any]] = []
    for r in counted.iter_rows(named=True):
        total, total_wins = totals[r["agent"]]
        n1, k1 = r["with_n"], r["with_wins"]
        n2, k2 = total - n1, total_wins - k1
        d, dlo, dhi = newcombe(k1, n1, k2, n2)
        lo1, hi1 = wilson(k1, n1)
        lo2, hi2 = wilson(k2, n2)
        out.append({
            "agent": r["agent"], "counter": r["counter"], "card": r["card"], "mean_count": r["mean_count"],
            "with_n": n1, "with_rate": k1 / n1 if n1 else float("nan"), "with_low": lo1, "with_high": hi1,
            "without_n": n2, "without_rate": k2 / n2 if n2 else float("nan"), "without_low": lo2,
            "without_high": hi2, "diff": d, "diff_low": dlo, "diff_high": dhi,
        })
    schema = {"agent": pl.String, "counter": pl.String, "card": pl.String, "mean_count": pl.Float64, "with_n": pl.Int64,
              "with_rate": pl.Float64, "with_low": pl.Float64, "with_high": pl.Float64, "without_n": pl.Int64,
              "without_rate": pl.Float64, "without_low": pl.Float64, "without_high": pl.Float64,
              "diff": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64}
    return pl.DataFrame(out, schema=schema).sort("counter", "agent", "diff", descending=[False, False, True])


def analyze(table: pl.DataFrame) -> Report:
    if table.height == 0:
        raise ValueError("there are no finished games to report on")
    seats = seat_games(table)
    first = table.select(
        won=pl.col("winners").list.contains(pl.col("first_player")),
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
    return Report(
        games=games,
        title=title,
        agents=_rates(seats, "agent"),
        seats=_rates(seats, "seat"),
        first_player={"games": n, "wins": k, "win_rate": k / n, "low": low, "high": high,
                      "p_value": binomial_test(k, n, expected)},
        expected_rate=expected,
        lengths=table["length"].to_numpy(),
        scores=seats.select("agent", "score"),
        winner_scores=table.select(
            pl.col("scores").list.gather(pl.col("winners")).list.max()
        ).to_series().drop_nulls().to_numpy(),
        cards=card_impact(table, seats),
    )


# -- the terminal ------------------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _ci(lo: float, hi: float) -> str:
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _length_stats(lengths: np.ndarray) -> dict[str, float]:
    q = np.percentile(lengths, [10, 50, 90])
    return {"mean": float(lengths.mean()), "p10": float(q[0]), "median": float(q[1]), "p90": float(q[2]),
            "min": float(lengths.min()), "max": float(lengths.max())}


def significance(p: float) -> str:
    return "significant at 5%" if p < 0.05 else "not significant at 5%"


def summary(report: Report, top: int = 8) -> Group:
    """A rich renderable: the whole report in a terminal."""
    parts: list[Any] = [Text(f"Balance report: {report.title}", style="bold")]
    for key, frame in (("agent", report.agents), ("seat", report.seats)):
        t = Table(title=f"win rate per {key} (Wilson 95%)", title_justify="left")
        for col in (key, "seat-games", "wins", "win rate", "95% interval", "mean score"):
            t.add_column(col, justify="left" if col == key else "right")
        for r in frame.iter_rows(named=True):
            t.add_row(str(r[key]), f"{r['seat_games']:,}", f"{r['wins']:,}", _pct(r["win_rate"]),
                      _ci(r["low"], r["high"]), f"{r['mean_score']:.2f}")
        parts.append(t)
    fp = report.first_player
    parts.append(Text(
        f"First player wins {_pct(fp['win_rate']).strip()} {_ci(fp['low'], fp['high'])} of {fp['games']:,} games; "
        f"no advantage would be {_pct(report.expected_rate).strip()}. Exact binomial test: p = {fp['p_value']:.3g} "
        f"({significance(fp['p_value'])})."
    ))
    ls = _length_stats(report.lengths)
    parts.append(Text(
        f"Game length (decisions): mean {ls['mean']:.1f}, median {ls['median']:.0f}, "
        f"10%-90% {ls['p10']:.0f}-{ls['p90']:.0f}, range {ls['min']:.0f}-{ls['max']:.0f}."
    ))
    if len(report.winner_scores):
        ws = report.winner_scores
        parts.append(Text(f"Winner's score: mean {ws.mean():.1f}, median {np.median(ws):.0f}, "
                          f"10%-90% {np.percentile(ws, 10):.0f}-{np.percentile(ws, 90):.0f}."))
    shown = report.cards.filter((pl.col("with_n") >= MIN_SEAT_GAMES) & (pl.col("without_n") >= MIN_SEAT_GAMES))
    for counter, agent in sorted(set(zip(shown["counter"], shown["agent"], strict=True))):
        part = shown.filter((pl.col("counter") == counter) & (pl.col("agent") == agent)).sort("diff", descending=True)
        t = Table(title=f"per-card impact, {counter}, seats played by {agent}: win rate with the card vs without "
                        f"(top and bottom {top}; all in the HTML report)", title_justify="left")
        for col in ("card", "seat-games with", "win rate with", "without", "difference", "95% interval"):
            t.add_column(col, justify="left" if col == "card" else "right")
        rows: list[dict[str, Any] | None] = list(part.head(top).iter_rows(named=True))
        if part.height > 2 * top:
            rows += [None, *part.tail(top).iter_rows(named=True)]
        elif part.height > top:
            rows += list(part.tail(part.height - top).iter_rows(named=True))
        for row in rows:
            if row is None:
                t.add_row("…", "", "", "", "", "")
                continue
            t.add_row(row["card"], f"{row['with_n']:,}",
                      f"{_pct(row['with_rate'])} {_ci(row['with_low'], row['with_high'])}",
                      _pct(row["without_rate"]), f"{100 * row['diff']:+.1f} pts",
                      f"[{100 * row['diff_low']:+.1f}, {100 * row['diff_high']:+.1f}]")
        parts.append(t)
    return Group(*parts)


# -- the HTML page -------------------------------------------------------------------------------

def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _rate_plot(frame: pl.DataFrame, key: str, expected: float) -> str:
    import matplotlib.pyplot as plt

    labels = [str(x) for x in frame[key]]
    rate = frame["win_rate"].to_numpy()
    err = np.vstack([rate - frame["low"].to_numpy(), frame["high"].to_numpy() - rate])
    fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.45 * max(2, len(labels))))
    ax.barh(labels, rate, xerr=err, color="#4a7ebb", capsize=4)
    ax.axvline(expected, color="#c0392b", linestyle="--", label=f"all equal: {expected:.1%}")
    ax.set_xlabel("win rate (Wilson 95% interval)")
    ax.set_xlim(0, min(1.0, max(1.2 * float(frame["high"].max()), expected * 1.5)))  # type: ignore[arg-type]
    ax.invert_yaxis()
    ax.legend(loc="lower right")
    ax.set_title(f"win rate per {key}")
    return _png(fig)


def _integer_bins(values: np.ndarray, most: int = 60) -> Any:
    """Bins of a whole width on whole numbers (scores, lengths), so no bin catches one more
    integer than its neighbours and shows a false spike."""
    if not len(values) or not np.all(np.equal(np.mod(values, 1), 0)):
        return most
    lo, hi = int(values.min()), int(values.max())
    width = max(1, -(-(hi - lo + 1) // most))
    return np.arange(lo, hi + width + 1, width) - 0.5


def _hist(values: np.ndarray, title: str, xlabel: str, log: bool = False) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    bins: Any = _integer_bins(values)
    if log and len(values) and values.min() > 0:
        bins = np.geomspace(values.min(), values.max() + 1, 50)
        ax.set_xscale("log")
    ax.hist(values, bins=bins, color="#4a7ebb")
    ax.axvline(float(np.median(values)), color="#c0392b", linestyle="--", label=f"median {np.median(values):.0f}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    ax.legend()
    return _png(fig)


def _score_plot(scores: pl.DataFrame) -> str:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    bins = _integer_bins(scores["score"].to_numpy())
    for agent in sorted(set(scores["agent"])):
        values = scores.filter(pl.col("agent") == agent)["score"].to_numpy()
        ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=agent)
    ax.set_xlabel("final score of a seat")
    ax.set_ylabel("seat-games")
    ax.set_title("score distribution per agent")
    ax.legend()
    return _png(fig)


def _card_plot(cards: pl.DataFrame, counter: str, agent: str, top: int = 15) -> str:
    import matplotlib.pyplot as plt

    part = cards.sort("diff", descending=True)
    if part.height > 2 * top:
        part = pl.concat([part.head(top), part.tail(top)])
    labels = list(part["card"])
    d = part["diff"].to_numpy() * 100
    err = np.vstack([d - part["diff_low"].to_numpy() * 100, part["diff_high"].to_numpy() * 100 - d])
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.28 * len(labels)))
    ax.errorbar(d, range(len(labels)), xerr=err, fmt="o", color="#4a7ebb", capsize=3)
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("win rate with the card minus without (points, 95% interval)")
    ax.set_title(f"per-card impact: {counter} ({agent})")
    return _png(fig)


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child{text-align:left}h2{margin-top:1.6em}.grid{display:flex;flex-wrap:wrap;gap:16px}
.note{color:#555;font-size:0.9em}details{margin-bottom:1em}"""


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def report_html(report: Report, path: str | Path, job: dict[str, Any] | None = None) -> Path:
    """Write the report as one self-contained HTML page (plots inline) and return its path."""
    import matplotlib

    matplotlib.use("Agg")
    fp = report.first_player
    ls = _length_stats(report.lengths)
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>cardtable report: {html.escape(report.title)}"
           f"</title><style>{_CSS}</style></head><body>",
           f"<h1>Balance report</h1><p>{html.escape(report.title)}</p>"]
    if job is not None:
        out.append(f"<p class='note'>job: <code>{html.escape(json.dumps(job, sort_keys=True))}</code></p>")
    out.append("<h2>Win rates</h2><div class='grid'>")
    out.append(f"<img alt='win rate per agent' src='{_rate_plot(report.agents, 'agent', report.expected_rate)}'>")
    out.append(f"<img alt='win rate per seat' src='{_rate_plot(report.seats, 'seat', report.expected_rate)}'>")
    out.append("</div>")
    for key, frame in (("agent", report.agents), ("seat", report.seats)):
        out.append(_table([key, "seat-games", "wins", "win rate", "Wilson 95% interval", "mean score"], [
            [str(r[key]), f"{r['seat_games']:,}", f"{r['wins']:,}", _pct(r["win_rate"]), _ci(r["low"], r["high"]),
             f"{r['mean_score']:.2f}"] for r in frame.iter_rows(named=True)]))
    out.append(
        f"<h2>First-player advantage</h2><p>The first seat to decide won <b>{_pct(fp['win_rate']).strip()}</b> "
        f"{_ci(fp['low'], fp['high'])} of {fp['games']:,} games; with no advantage it would win "
        f"{_pct(report.expected_rate).strip()}. Exact two-sided binomial test: <b>p = {fp['p_value']:.3g}</b> "
        f"({significance(fp['p_value'])}).</p>")
    if job is not None and not job.get("rotate") and len(set(job.get("agents", []))) > 1:
        out.append("<p class='note'>These games ran with different agents and no --rotate, so seat and agent "
                   "strength are mixed up; rotate the seats to separate them.</p>")
    out.append("<h2>Game length and scores</h2>")
    out.append(f"<p>Decisions per game: mean {ls['mean']:.1f}, median {ls['median']:.0f}, 10%-90% "
               f"{ls['p10']:.0f}-{ls['p90']:.0f}, range {ls['min']:.0f}-{ls['max']:.0f}.</p><div class='grid'>")
    skewed = ls["max"] > 20 * max(ls["median"], 1)
    out.append(f"<img alt='game length' src='{_hist(report.lengths.astype(float), 'game length', 'decisions per game', log=skewed)}'>")
    if len(report.winner_scores):
        out.append(f"<img alt='winner score' src='{_hist(report.winner_scores, 'winner score', 'score of the winner')}'>")
    out.append(f"<img alt='scores per agent' src='{_score_plot(report.scores)}'></div>")
    out.append("<h2>Per-card impact</h2><p class='note'>For each agent and card: the win rate of the agent's "
               "seat-games in which the count is positive (the seat played the card / still held it at the end) against its other seat-games, "
               "with Wilson intervals, and the difference with Newcombe's 95% interval. This is association, not "
               f"cause. Cards with fewer than {MIN_SEAT_GAMES} seat-games on either side are left out of the plots.</p>")
    for counter, agent in sorted(set(zip(report.cards["counter"], report.cards["agent"], strict=True))):
        part = report.cards.filter((pl.col("counter") == counter) & (pl.col("agent") == agent))
        plotted = part.filter((pl.col("with_n") >= MIN_SEAT_GAMES) & (pl.col("without_n") >= MIN_SEAT_GAMES))
        out.append(f"<h3>{html.escape(counter)}, seats played by {html.escape(agent)}</h3>")
        if plotted.height:
            out.append(f"<img alt='card impact {html.escape(counter)} {html.escape(agent)}' "
                       f"src='{_card_plot(plotted, counter, agent)}'>")
        out.append(f"<details><summary>all {part.height} cards</summary>")
        out.append(_table(
            ["card", "mean count", "seat-games with", "win rate with", "interval", "without", "win rate without",
             "interval", "difference", "95% interval"],
            [[r["card"], f"{r['mean_count']:.2f}", f"{r['with_n']:,}", _pct(r["with_rate"]),
              _ci(r["with_low"], r["with_high"]), f"{r['without_n']:,}", _pct(r["without_rate"]),
              _ci(r["without_low"], r["without_high"]), f"{100 * r['diff']:+.1f}",
              f"[{100 * r['diff_low']:+.1f}, {100 * r['diff_high']:+.1f}]"] for r in part.iter_rows(named=True)]))
        out.append("</details>")
    out.append("</body></html>")
    target = Path(path)
    target.write_text("\n".join(out), encoding="utf-8")
    return target
