"""The report on a terminal (`summary`), as one self-contained HTML page (`report_html`: plots
inline as base64 PNG) and as files (`write_tables`: CSV and Parquet of every table)."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Group
from rich.table import Table
from rich.text import Text

from .analysis import Report, length_stats, significance
from .impact import MEASURES, MIN_SEAT_GAMES

UNITS = {"played": "points, played minus not played", "dealt": "points per copy dealt",
         "drawn": "points per copy drawn"}


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%" if x == x else "  n/a"


def _ci(lo: float, hi: float) -> str:
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}" if x == x else "n/a"


def _pts_ci(lo: float, hi: float) -> str:
    return f"[{_pts(lo)}, {_pts(hi)}]"


def _card_rows(part: pl.DataFrame, top: int) -> list[dict[str, Any] | None]:
    """The `top` highest and lowest rows (None marks the gap between them)."""
    rows: list[dict[str, Any] | None] = list(part.head(top).iter_rows(named=True))
    if part.height > 2 * top:
        rows += [None, *part.tail(top).iter_rows(named=True)]
    elif part.height > top:
        rows += list(part.tail(part.height - top).iter_rows(named=True))
    return rows


def _groups(cards: pl.DataFrame) -> Iterable[tuple[str, str, pl.DataFrame]]:
    for measure in MEASURES:
        part = cards.filter(pl.col("measure") == measure)
        for agent in sorted(set(part["agent"])):
            yield measure, agent, part.filter(pl.col("agent") == agent)


# -- the terminal ------------------------------------------------------------------------------

def summary(report: Report, top: int = 8) -> Group:
    """A rich renderable: the whole report in a terminal."""
    parts: list[Any] = [Text(f"Balance report: {report.title}", style="bold")]
    parts += [Text(f"! {n}", style="bold yellow") for n in report.notes]
    parts += [Text(f"• {h}") for h in report.headline]
    for key, frame in (("agent", report.agents), ("seat", report.seats)):
        t = Table(title=f"win rate per {key} (Wilson 95%)", title_justify="left")
        for col in (key, "seat-games", "wins", "win rate", "95% interval", "mean score"):
            t.add_column(col, justify="left" if col == key else "right")
        for r in frame.iter_rows(named=True):
            t.add_row(str(r[key]), f"{r['seat_games']:,}", f"{r['wins']:,}", _pct(r["win_rate"]),
                      _ci(r["low"], r["high"]), f"{r['mean_score']:.2f}")
        parts.append(t)
    if report.decks is not None:
        t = Table(title="win rate per deck: the hero each seat played (Wilson 95%)", title_justify="left")
        for col in ("seat", "deck", "seat-games", "wins", "win rate", "95% interval"):
            t.add_column(col, justify="left" if col in ("seat", "deck") else "right")
        for r in report.decks.iter_rows(named=True):
            t.add_row(str(r["seat"]), r["deck"], f"{r['seat_games']:,}", f"{r['wins']:,}", _pct(r["win_rate"]),
                      _ci(r["low"], r["high"]))
        parts.append(t)
    fp = report.first_player
    parts.append(Text(
        f"First player wins {_pct(fp['win_rate']).strip()} {_ci(fp['low'], fp['high'])} of {fp['games']:,} games; "
        f"no advantage would be {_pct(report.expected_rate).strip()}. Exact binomial test: p = {fp['p_value']:.3g} "
        f"({significance(fp['p_value'])})."
    ))
    ls = length_stats(report.lengths["length"].to_numpy())
    parts.append(Text(
        f"Game length (decisions): mean {ls['mean']:.1f}, median {ls['median']:.0f}, "
        f"10%-90% {ls['p10']:.0f}-{ls['p90']:.0f}, range {ls['min']:.0f}-{ls['max']:.0f}."
    ))
    if len(report.winner_scores):
        ws = report.winner_scores
        parts.append(Text(f"Winner's score: mean {ws.mean():.1f}, median {np.median(ws):.0f}, "
                          f"10%-90% {np.percentile(ws, 10):.0f}-{np.percentile(ws, 90):.0f}."))
    for measure, agent, part in _groups(report.cards.filter(pl.col("estimated"))):
        t = Table(title=f"card impact, {measure}, seats played by {agent} ({UNITS[measure]}; top and bottom {top}, "
                        f"all in the HTML report)\n{MEASURES[measure]}", title_justify="left")
        for col in ("card", "seat-games with", "win rate with", "without", "impact", "95% interval", "stands out"):
            t.add_column(col, justify="left" if col == "card" else "right")
        for row in _card_rows(part, top):
            if row is None:
                t.add_row("…", "", "", "", "", "", "")
                continue
            t.add_row(row["card"], f"{row['with_n']:,}", _pct(row["with_rate"]), _pct(row["without_rate"]),
                      _pts(row["estimate"]), _pts_ci(row["low"], row["high"]), row["stands_out"] or "")
        parts.append(t)
    return Group(*parts)


# -- files ----------------------------------------------------------------------------------------

def write_tables(tables: dict[str, pl.DataFrame], folder: str | Path) -> list[Path]:
    """Each table as NAME.csv and NAME.parquet in `folder`; returns the paths written."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in tables.items():
        flat = frame.with_columns(pl.col(c).cast(pl.List(pl.String)).list.join(" ")
                                  for c, t in frame.schema.items() if isinstance(t, pl.List))
        flat.write_csv(target / f"{name}.csv")
        frame.write_parquet(target / f"{name}.parquet")
        written += [target / f"{name}.csv", target / f"{name}.parquet"]
    return written


# -- plots ---------------------------------------------------------------------------------------

def png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def error_bars(value: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """matplotlib's xerr (distances below and above), never negative: an interval clamped at a
    bound (0% or 100%, an impact of -100 points) may touch its estimate."""
    bars: np.ndarray = np.clip(np.nan_to_num(np.vstack([value - low, high - value])), 0.0, None)
    return bars


def rate_plot(frame: pl.DataFrame, key: str, expected: float) -> str:
    import matplotlib.pyplot as plt

    labels = [str(x) for x in frame[key]]
    rate = frame["win_rate"].to_numpy()
    err = error_bars(rate, frame["low"].to_numpy(), frame["high"].to_numpy())
    fig, ax = plt.subplots(figsize=(5.2, 0.8 + 0.4 * max(2, len(labels))))
    ax.barh(labels, rate, xerr=err, color="#4a7ebb", capsize=4)
    ax.axvline(expected, color="#c0392b", linestyle="--", label=f"all equal: {expected:.1%}")
    for y, (r, up) in enumerate(zip(rate, err[1], strict=True)):
        inside = r > 0.15  # a short bar has no room for its label: it goes past the error bar
        ax.text(0.01 if inside else r + up + 0.02, y, f"{r:.1%}", va="center", ha="left",
                color="white" if inside else "#222", fontweight="bold")
    ax.set_xlabel("win rate (Wilson 95% interval)")
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.legend(loc="lower right", fontsize="small")
    ax.set_title(f"win rate per {key}")
    return png(fig)


def integer_bins(values: np.ndarray, most: int = 60) -> Any:
    """Bins of a whole width on whole numbers (scores, lengths), so no bin catches one more
    integer than its neighbours and shows a false spike."""
    if not len(values) or not np.all(np.equal(np.mod(values, 1), 0)):
        return most
    lo, hi = int(values.min()), int(values.max())
    width = max(1, -(-(hi - lo + 1) // most))
    return np.arange(lo, hi + width + 1, width) - 0.5


def hist(values: np.ndarray, title: str, xlabel: str, log: bool = False) -> str:
    import matplotlib.pyplot as plt

    values = values[np.isfinite(values)]
    fig, ax = plt.subplots(figsize=(5.2, 2.8))
    bins: Any = integer_bins(values)
    if log and len(values) and values.min() > 0 and values.max() > values.min():
        bins = np.geomspace(values.min(), values.max() + 1, 50)
        ax.set_xscale("log")
    ax.hist(values, bins=bins, color="#4a7ebb")
    if len(values):
        ax.axvline(float(np.median(values)), color="#c0392b", linestyle="--", label=f"median {np.median(values):.0f}")
        ax.legend()
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    return png(fig)


def score_plot(scores: pl.DataFrame) -> str:
    import matplotlib.pyplot as plt

    scores = scores.filter(pl.col("score").is_finite())
    fig, ax = plt.subplots(figsize=(5.2, 2.8))
    bins = integer_bins(scores["score"].to_numpy())
    for agent in sorted(set(scores["agent"])):
        values = scores.filter(pl.col("agent") == agent)["score"].to_numpy()
        ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=agent)
    ax.set_xlabel("final score of a seat")
    ax.set_ylabel("seat-games")
    ax.set_title("score distribution per agent")
    if scores.height:
        ax.legend()
    return png(fig)


def card_plot(part: pl.DataFrame, measure: str, agent: str, top: int = 12) -> str:
    """The estimates with their intervals, highest first; cards that stand out in colour."""
    import matplotlib.pyplot as plt

    part = part.sort("estimate", descending=True)
    if part.height > 2 * top:
        part = pl.concat([part.head(top), part.tail(top)])
    labels = list(part["card"])
    d = part["estimate"].to_numpy() * 100
    err = error_bars(d, part["low"].to_numpy() * 100, part["high"].to_numpy() * 100)
    colours = ["#c0392b" if s == "high" else "#8e44ad" if s == "low" else "#4a7ebb" for s in part["stands_out"]]
    fig, ax = plt.subplots(figsize=(5.2, 0.8 + 0.24 * len(labels)))
    for y in range(len(labels)):
        ax.errorbar(d[y], y, xerr=err[:, y:y + 1], fmt="o", color=colours[y], capsize=3)
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"{UNITS[measure]} (95% interval)")
    ax.set_title(f"{measure}: seats played by {agent}")
    return png(fig)


# -- the HTML page ---------------------------------------------------------------------------

CSS = """body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1120px;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child{text-align:left}h2{margin-top:1.6em}.grid{display:flex;flex-wrap:wrap;gap:12px}
.note{color:#555;font-size:0.9em}details{margin-bottom:1em}.warn{background:#fff3cd;border:1px solid #e0c36a;
padding:0.5em 1em;margin:0.5em 0}.summary{background:#f4f7fb;border-left:4px solid #4a7ebb;padding:0.6em 1.2em}
.summary li{margin:0.25em 0}.high{color:#c0392b;font-weight:bold}.low{color:#8e44ad;font-weight:bold}"""


def table_html(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def page(title: str, body: list[str]) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _links(files: list[Path], target: Path) -> str:
    if not files:
        return ""
    rel = [f.relative_to(target.parent) if f.is_relative_to(target.parent) else f for f in files]
    return ("<p class='note'>Every table as CSV and Parquet: " + ", ".join(
        f"<a href='{html.escape(str(r))}'>{html.escape(str(r))}</a>" for r in rel) + "</p>")


def report_html(report: Report, path: str | Path, tables: bool = True) -> Path:
    """Write the report as one self-contained HTML page (plots inline) and return its path;
    with `tables`, every table also goes to CSV and Parquet in PATH's folder, `<stem>-tables/`."""
    import matplotlib

    matplotlib.use("Agg")
    target = Path(path)
    files = write_tables(report.tables(), target.with_name(target.stem + "-tables")) if tables else []
    fp = report.first_player
    ls = length_stats(report.lengths["length"].to_numpy())
    out = [f"<h1>Balance report</h1><p><b>{html.escape(report.title)}</b></p>"]
    out += [f"<div class='warn'>{html.escape(n)}</div>" for n in report.notes]
    out.append("<div class='summary'><ul>" + "".join(f"<li>{html.escape(h)}</li>" for h in report.headline)
               + "</ul></div>")
    out.append("<div class='grid'>")
    out.append(f"<img alt='win rate per agent' src='{rate_plot(report.agents, 'agent', report.expected_rate)}'>")
    out.append(f"<img alt='win rate per seat' src='{rate_plot(report.seats, 'seat', report.expected_rate)}'>")
    out.append("</div>")
    if report.job is not None:
        out.append(f"<p class='note'>job: <code>{html.escape(json.dumps(report.job, sort_keys=True))}</code></p>")
    out.append(_links(files, target))
    out.append("<h2>Win rates</h2>")
    for key, frame in (("agent", report.agents), ("seat", report.seats)):
        out.append(table_html([key, "seat-games", "wins", "win rate", "Wilson 95% interval", "mean score"], [
            [str(r[key]), f"{r['seat_games']:,}", f"{r['wins']:,}", _pct(r["win_rate"]), _ci(r["low"], r["high"]),
             f"{r['mean_score']:.2f}"] for r in frame.iter_rows(named=True)]))
    if report.decks is not None:
        out.append("<h2>Heroes (a deck per seat)</h2>")
        out.append(table_html(["seat", "deck", "seat-games", "wins", "win rate", "Wilson 95% interval"], [
            [str(r["seat"]), html.escape(r["deck"]), f"{r['seat_games']:,}", f"{r['wins']:,}", _pct(r["win_rate"]),
             _ci(r["low"], r["high"])] for r in report.decks.iter_rows(named=True)]))
    out.append(
        f"<h2>First-player advantage</h2><p>The first seat to decide won <b>{_pct(fp['win_rate']).strip()}</b> "
        f"{_ci(fp['low'], fp['high'])} of {fp['games']:,} games; with no advantage it would win "
        f"{_pct(report.expected_rate).strip()}. Exact two-sided binomial test: <b>p = {fp['p_value']:.3g}</b> "
        f"({significance(fp['p_value'])}).</p>")
    out.append("<h2>Game length and scores</h2>")
    out.append(f"<p>Decisions per game: mean {ls['mean']:.1f}, median {ls['median']:.0f}, 10%-90% "
               f"{ls['p10']:.0f}-{ls['p90']:.0f}, range {ls['min']:.0f}-{ls['max']:.0f}.</p><div class='grid'>")
    lengths = report.lengths["length"].to_numpy().astype(float)
    skewed = ls["max"] > 20 * max(ls["median"], 1)
    out.append(f"<img alt='game length' src='{hist(lengths, 'game length', 'decisions per game', log=skewed)}'>")
    if len(report.winner_scores):
        out.append(f"<img alt='winner score' src='{hist(report.winner_scores, 'winner score', 'score of the winner')}'>")
    out.append(f"<img alt='scores per agent' src='{score_plot(report.scores)}'></div>")
    out.append(_card_section(report.cards))
    target.write_text(page(f"cardtable report: {report.title}", out), encoding="utf-8")
    return target


def _card_section(cards: pl.DataFrame) -> str:
    out = ["<h2>Card impact</h2><p class='note'>Each measure compares seat-games of one agent, so an agent's "
           "strength never passes for a card's. Intervals are 95%. A card <span class='high'>stands out high</span> "
           "or <span class='low'>low</span> when its estimate lies beyond the Tukey fences (1.5 interquartile "
           "ranges past the quartiles) of the other cards' estimates and differs from their median by more than "
           "chance allows across all the cards and measures compared (Bonferroni). "
           f"A card needs {MIN_SEAT_GAMES} seat-games with it and {MIN_SEAT_GAMES} without to be estimated.</p>"]
    if not cards.height:
        out.append("<p>No per-card counts in these results (run without --no-cards to get them).</p>")
    for measure in MEASURES:
        part = cards.filter(pl.col("measure") == measure)
        if not part.height:
            continue
        out.append(f"<h3>{measure}</h3><p><i>{html.escape(MEASURES[measure])}</i></p><div class='grid'>")
        for _, agent, rows in _groups(part):
            shown = rows.filter(pl.col("estimated"))
            if shown.height:
                out.append(f"<img alt='{html.escape(measure)} {html.escape(agent)}' "
                           f"src='{card_plot(shown, measure, agent)}'>")
            else:
                out.append(f"<p>{html.escape(agent)}: too few seat-games to estimate any card.</p>")
        out.append("</div>")
        for _, agent, rows in _groups(part):
            out.append(f"<details><summary>all {rows.height} cards, {html.escape(measure)}, seats played by "
                       f"{html.escape(agent)}</summary>")
            out.append(table_html(
                ["card", "seat-games with", "mean count", "win rate with", "without", "impact (points)",
                 "95% interval", "stands out"],
                [[r["card"], f"{r['with_n']:,}", f"{r['mean_count']:.2f}", _pct(r["with_rate"]),
                  _pct(r["without_rate"]), _pts(r["estimate"]) if r["estimated"] else "too few",
                  _pts_ci(r["low"], r["high"]) if r["estimated"] else "", r["stands_out"] or ""]
                 for r in rows.iter_rows(named=True)]))
            out.append("</details>")
    return "\n".join(out)
