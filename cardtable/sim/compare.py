"""Two runs side by side (`cardtable report A B`): variants, decks or agent versions, with
every difference and its 95% interval (Newcombe's for win rates, normal ones for means, Student's
t for card impacts, whose two runs are independent samples).

A card measure is said to have changed "clearly" only when the change exceeds chance across
every card measure compared: with some 300 card measures, 95% intervals alone would exclude 0 for
about 15 of them in two runs of the very same job. The `low`/`high` columns and `p` stay each
measure's own (Student's t with Welch-Satterthwaite's degrees of freedom, from the two runs'
standard errors and their own degrees of freedom, `impact.py`); `p_all` is its p-value across all
of them and `clear` the decision at 5%.

`p_all` is a permutation test, not a reading of a t table: under "the runs do not differ" the
games of A and B are exchangeable, so the two runs' games are pooled, every card measure is
linearized over the pool (each game's term of its estimate, `impact.influences`), and the
games are dealt again between A and B 4,000 times (a seeded generator: the same runs give the
same report); when both runs played the very same seeds (the lab's variant and base) a seed's
two games share a deal and the unit is the seed: its two games are swapped, and the statistic is
the paired t. Westfall and Young's step-down max-|t| over the measures (`stats.max_t_permutation`)
holds the chance that two runs of one job flag any card at 5% exactly, whatever the measures'
tails and however they correlate. At 400 JUNO games the `played` and `drawn` differences have
heavier tails than the normal's and than Student's t, so Holm's step-down over the t p-values
flagged a card in 10% of pairs of runs of one job instead of 5% (docs/simulation.md)."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import impact
from .analysis import Report
from .render import UNITS, error_bars, page, png, table_html, write_tables
from .stats import Z95, max_t_permutation, newcombe, t_bound, t_two_sided, welch_df
from .store import _differences


@dataclass
class Comparison:
    a: Report
    b: Report
    names: tuple[str, str]
    differences: list[str]         # how the two jobs differ
    agents: pl.DataFrame           # agent_a, agent_b, rate_a, rate_b, diff, low, high
    seats: pl.DataFrame            # seat, rate_a, rate_b, diff, low, high
    overall: pl.DataFrame          # figure, a, b, diff, low, high (first player, mean length)
    cards: pl.DataFrame            # agent_a, agent_b, measure, card, a, b, diff, low, high, p, clear
    headline: list[str] = field(default_factory=list)
    family: int = 0                # card measures the p_all are across (`_permuted`): the rows and any more the runs hold

    def tables(self) -> dict[str, pl.DataFrame]:
        return {"compare_agents": self.agents, "compare_seats": self.seats, "compare_overall": self.overall,
                "compare_cards": self.cards}


def _pairs(a: Report, b: Report) -> list[tuple[str, str]]:
    """Which agent of A faces which of B: the same name, or else the same place in the jobs'
    agent lists (comparing agent versions: `ismcts:iterations=100` then `=400`)."""
    names_a, names_b = list(a.agents["agent"]), list(b.agents["agent"])
    same = [(x, x) for x in names_a if x in names_b]
    if len(same) == len(names_a) == len(names_b):
        return same
    order_a = list(dict.fromkeys((a.job or {}).get("agents", names_a)))
    order_b = list(dict.fromkeys((b.job or {}).get("agents", names_b)))
    if len(order_a) == len(order_b):
        return [(x, y) for x, y in zip(order_a, order_b, strict=True) if x in names_a and y in names_b]
    return same


def _rate_diffs(fa: pl.DataFrame, fb: pl.DataFrame, pairs: list[tuple[Any, Any]], key: str) -> list[dict[str, Any]]:
    ra = {r[key]: r for r in fa.iter_rows(named=True)}
    rb = {r[key]: r for r in fb.iter_rows(named=True)}
    rows = []
    for x, y in pairs:
        p, q = ra[x], rb[y]
        d, lo, hi = newcombe(p["wins"], p["seat_games"], q["wins"], q["seat_games"])
        rows.append({f"{key}_a": str(x), f"{key}_b": str(y), "rate_a": p["win_rate"], "rate_b": q["win_rate"],
                     "diff": d, "low": lo, "high": hi})
    return rows


def compare(a: Report, b: Report, names: tuple[str, str] = ("A", "B")) -> Comparison:
    pairs = _pairs(a, b)
    agents = pl.DataFrame(_rate_diffs(a.agents, b.agents, pairs, "agent"),
                          schema={"agent_a": pl.String, "agent_b": pl.String, "rate_a": pl.Float64,
                                  "rate_b": pl.Float64, "diff": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    seat_pairs = [(s, s) for s in a.seats["seat"] if s in set(b.seats["seat"])]
    seats = pl.DataFrame(_rate_diffs(a.seats, b.seats, seat_pairs, "seat")).drop("seat_b").rename(
        {"seat_a": "seat"}) if seat_pairs else pl.DataFrame()
    fa, fb = a.first_player, b.first_player
    d, lo, hi = newcombe(fa["wins"], fa["games"], fb["wins"], fb["games"])
    la, lb = a.lengths["length"].to_numpy().astype(float), b.lengths["length"].to_numpy().astype(float)
    dl, low, high = _length_diff(a.lengths, b.lengths, paired_seeds(a, b))
    figures = [
        {"figure": "first player's win rate", "a": fa["win_rate"], "b": fb["win_rate"], "diff": d, "low": lo, "high": hi},
        {"figure": "mean game length (decisions)", "a": float(la.mean()), "b": float(lb.mean()), "diff": dl,
         "low": low, "high": high},
    ]
    ta, tb = a.lengths["by_limit"].drop_nulls(), b.lengths["by_limit"].drop_nulls()
    if len(ta) and len(tb):  # a game with a turn limit of its own: how often it ended the game
        ka, kb = int(ta.sum()), int(tb.sum())
        d, lo, hi = newcombe(ka, len(ta), kb, len(tb))
        figures.append({"figure": "turn-limit rate (share of games it ended)", "a": ka / len(ta), "b": kb / len(tb),
                        "diff": d, "low": lo, "high": hi})
    overall = pl.DataFrame(figures)
    cards, family = _card_diffs(a, b, pairs)
    said = (f"in {names[0]}", f"in {names[1]}")
    out = Comparison(a, b, names, _differences(a.job or {}, b.job or {}, names=said), agents, seats, overall, cards,
                     family=family)
    out.headline = _headline(out)
    return out


def paired_seeds(a: Report, b: Report) -> bool:
    """Whether the two runs played the very same seeds (the designers' lab's variant and base,
    or two `cardtable simulate` runs from one `--seed`): their games can be compared seed by seed."""
    sa, sb = a.lengths["seed"], b.lengths["seed"]
    return sa.len() > 1 and sa.len() == sb.len() and set(sa) == set(sb)


def _length_diff(la: pl.DataFrame, lb: pl.DataFrame, paired: bool) -> tuple[float, float, float]:
    """The mean game length of A minus B with its 95% interval. On the same seeds, from the
    differences seed by seed (`paired`: a seed deals both runs alike, so what it makes long or
    short cancels): their mean and Student's t with n - 1 degrees of freedom; otherwise two
    independent samples (normal)."""
    if paired:
        j = la.select("seed", "length").join(lb.select("seed", "length"), on="seed", suffix="_b")
        d = (j["length"] - j["length_b"]).cast(pl.Float64).to_numpy()
        mean, half = float(d.mean()), t_bound(0.05, len(d) - 1) * float(d.std(ddof=1)) / math.sqrt(len(d))
        return mean, mean - half, mean + half
    x, y = la["length"].to_numpy().astype(float), lb["length"].to_numpy().astype(float)
    se = math.sqrt((x.var(ddof=1) / len(x) if len(x) > 1 else 0.0) + (y.var(ddof=1) / len(y) if len(y) > 1 else 0.0))
    mean = float(x.mean() - y.mean())
    return mean, mean - Z95 * se, mean + Z95 * se


def _card_diffs(a: Report, b: Report, pairs: list[tuple[str, str]]) -> tuple[pl.DataFrame, int]:
    """Every card measure estimated in both runs, A minus B with its 95% interval and two-sided p
    (Student's t, Welch-Satterthwaite's degrees of freedom); `p_all`, its p across the family of
    measures (`_permuted`), and `clear` when that is below 0.05 (see the module); and the number of
    measures in the family."""
    schema = {"agent_a": pl.String, "agent_b": pl.String, "measure": pl.String, "card": pl.String, "a": pl.Float64,
              "b": pl.Float64, "diff": pl.Float64, "low": pl.Float64, "high": pl.Float64, "df": pl.Float64,
              "p": pl.Float64, "p_all": pl.Float64, "clear": pl.Boolean}
    keep = ["measure", "card", "estimate", "se", "df"]
    rows = []
    for x, y in pairs:
        left = a.cards.filter((pl.col("agent") == x) & pl.col("estimated")).select(keep)
        right = b.cards.filter((pl.col("agent") == y) & pl.col("estimated")).select(keep)
        for r in left.join(right, on=["measure", "card"], suffix="_b").iter_rows(named=True):
            va, vb = r["se"] ** 2, r["se_b"] ** 2
            se, diff = math.sqrt(va + vb), r["estimate"] - r["estimate_b"]
            df = welch_df(va, r["df"], vb, r["df_b"])
            half = t_bound(0.05, df) * se if se == se else math.nan
            rows.append({"agent_a": x, "agent_b": y, "measure": r["measure"], "card": r["card"], "a": r["estimate"],
                         "b": r["estimate_b"], "diff": diff, "low": diff - half, "high": diff + half, "df": df,
                         "p": t_two_sided(diff / se, df) if se > 0 else math.nan})
    if not rows:
        return pl.DataFrame(schema=schema), 0
    p_all, family = _permuted(a, b, pairs, [(r["agent_a"], r["agent_b"], r["measure"], r["card"]) for r in rows])
    for r, p in zip(rows, p_all, strict=True):
        r["p_all"], r["clear"] = p, bool(p < 0.05)
    return pl.DataFrame(rows, schema=schema).sort(pl.col("diff").abs(), descending=True), family


def _permuted(a: Report, b: Report, pairs: list[tuple[str, str]],
              measures: list[tuple[str, str, str, str]]) -> tuple[list[float], int]:
    """Each card measure's p-value (agent in A, agent in B, measure, card: `measures`, those
    estimated in both runs) across the family of measures the two runs hold: the two runs' games
    pooled, every measure linearized over them (`impact.influences`), and Westfall-Young's
    step-down max-|t| over permutations of the games between the runs, or, when both runs played
    the very same seeds, of each seed's two games (`stats.max_t_permutation`), which holds the
    chance of any false flag at 5% whatever the measures' tails.

    The family is every measure with `2 * MIN_SEAT_GAMES` seat-games with the card and as many
    without in the two runs together: chosen from the pool, so the same however the games are
    dealt between the runs, as a permutation test needs. Choosing it as the rows are chosen, the
    measures estimated in both runs (each with `MIN_SEAT_GAMES` of either), would make the family
    depend on the very split being tested, which in 100-game JUNO runs, where many cards are near
    that bound, made two runs of one job flag a card in 6.4% of pairs (docs/simulation.md). A
    measure estimated in both runs is always in the family (30 in each are 60 together; it is
    added should a rounding of counts ever say otherwise). Also returns the family's size."""
    if a.units is None or b.units is None:
        raise ValueError("a comparison needs reports from `analyze` (they carry the card measures' seat-games)")
    games = [np.unique(seats["seed"].to_numpy()) for _, seats in (a.units, b.units)]
    n_a = len(games[0])
    family: list[np.ndarray] = []
    keys: list[tuple[str, str, str, str]] = []
    for x, y in pairs:
        parts = []
        for k, ((counts, seats), agent) in enumerate(zip((a.units, b.units), (x, y), strict=True)):
            # a game's seed, made one of the pooled games': A's first, then B's
            index = pl.DataFrame({"seed": games[k], "game": np.arange(len(games[k])) + k * n_a},
                                 schema={"seed": seats.schema["seed"], "game": pl.Int64})
            parts.append(tuple(f.filter(pl.col("agent") == agent).with_columns(agent=pl.lit(x))
                               .join(index, on="seed").drop("seed").rename({"game": "seed"}) for f in (counts, seats)))
        pooled_counts = pl.concat([p[0] for p in parts])
        pooled_seats = pl.concat([p[1] for p in parts])
        seat_games = pooled_seats.height
        having = {(m, c): n for m, c, n in pooled_counts.group_by("counter", "card")
                  .agg(pl.struct("seed", "seat").n_unique()).iter_rows()}
        game, measured, per_game = impact.influences(pooled_counts, pooled_seats, x)
        shown = {(m, c) for a_, b_, m, c in measures if (a_, b_) == (x, y)}
        for j, (measure, card) in enumerate(measured):
            n = having.get((measure, card), 0)
            # (read when called: a test may lower the bound)
            if min(n, seat_games - n) >= 2 * impact.MIN_SEAT_GAMES or (measure, card) in shown:
                column = np.zeros(n_a + len(games[1]))
                column[game] = per_game[:, j]
                family.append(column)
                keys.append((x, y, measure, card))
    where = {m: i for i, m in enumerate(keys)}
    in_a = np.arange(n_a + len(games[1])) < n_a
    # the same seeds in both runs (the lab's variant and base): A's i-th game and B's i-th game
    # share a seed, and the seeds' two games are swapped rather than all games dealt freely
    paired = bool(np.array_equal(games[0], games[1]))
    p = max_t_permutation(np.column_stack(family), in_a, paired=paired)
    return [float(p[where[m]]) for m in measures], len(keys)


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}" if x == x else "n/a"


def _headline(c: Comparison) -> list[str]:
    na, nb = c.names
    out = [f"{na}: {c.a.title}. {nb}: {c.b.title}."]
    out.append("The runs differ in: " + "; ".join(c.differences) + "." if c.differences
               else "The two jobs are the same (only the seeds differ).")
    for r in c.agents.iter_rows(named=True):
        who = r["agent_a"] if r["agent_a"] == r["agent_b"] else f"{r['agent_a']} ({na}) / {r['agent_b']} ({nb})"
        clear = "a clear difference" if r["low"] > 0 or r["high"] < 0 else "no clear difference"
        out.append(f"{who}: {100 * r['rate_a']:.1f}% in {na}, {100 * r['rate_b']:.1f}% in {nb}; "
                   f"{_pts(r['diff'])} points [{_pts(r['low'])}, {_pts(r['high'])}], {clear}.")
    if paired_seeds(c.a, c.b):
        out.append("Both runs played the same seeds: game length is compared seed by seed.")
    for r in c.overall.iter_rows(named=True):
        scale = 100 if "rate" in r["figure"] else 1
        unit = " points" if scale == 100 else ""
        out.append(f"{r['figure']}: {scale * r['diff']:+.1f}{unit} [{scale * r['low']:+.1f}, {scale * r['high']:+.1f}] "
                   f"({na} minus {nb}).")
    changed = c.cards.filter(pl.col("clear"))
    beyond = f"beyond chance across the {c.family} card measures of the two runs"
    if changed.height:
        shown = [f"{r['card']} ({r['measure']}, {_pts(r['diff'])})" for r in changed.head(6).iter_rows(named=True)]
        out.append(f"{changed.height} card measures changed clearly ({beyond}); the largest: {', '.join(shown)}.")
    elif c.cards.height:
        out.append(f"No card's impact changed clearly between the runs ({beyond}).")
    return out


def summary(c: Comparison, top: int = 10) -> Group:
    na, nb = c.names
    parts: list[Any] = [Text(f"Comparison: {na} vs {nb}", style="bold")]
    for note in c.a.notes:
        parts.append(Text(f"! {na}: {note}", style="bold yellow"))
    for note in c.b.notes:
        parts.append(Text(f"! {nb}: {note}", style="bold yellow"))
    parts += [Text(f"• {h}") for h in c.headline]
    for name, table in (("agents", c.agents), ("seats", c.seats), ("overall", c.overall)):
        if table.height:
            parts.append(_rich(table, f"{name}: {na} minus {nb}, 95% interval"))
    if c.cards.height:
        parts.append(_rich(c.cards.head(top), f"card impact, largest {top} changes ({na} minus {nb}, points)"))
    return Group(*parts)


def _shown(frame: pl.DataFrame) -> pl.DataFrame:
    """The table as people read it: one agent column when both runs name them alike."""
    if {"agent_a", "agent_b"} <= set(frame.columns) and frame.height and (frame["agent_a"] == frame["agent_b"]).all():
        frame = frame.drop("agent_b").rename({"agent_a": "agent"})
    return frame


def _cell(value: Any, column: str, row: dict[str, Any]) -> str:
    """Rates and impacts in points; differences signed; game lengths as they are."""
    if isinstance(value, bool):
        return "yes" if value else ""
    if not isinstance(value, float):
        return "" if value is None else str(value)
    if value != value:
        return "n/a"
    if column in ("p", "p_all"):
        return f"{value:.2g}"
    if column == "df":  # degrees of freedom: a count of games' worth of information
        return "inf" if math.isinf(value) else f"{value:.0f}"
    if "length" in str(row.get("figure", "")):
        return f"{value:+.1f}" if column in ("diff", "low", "high") else f"{value:.1f}"
    signed = column in ("diff", "low", "high") or "measure" in row
    return f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}"


def _rows(frame: pl.DataFrame) -> list[list[str]]:
    return [[_cell(v, k, r) for k, v in r.items()] for r in frame.iter_rows(named=True)]


def _rich(frame: pl.DataFrame, title: str) -> Table:
    frame = _shown(frame)
    t = Table(title=title, title_justify="left")
    for col in frame.columns:
        t.add_column(col, justify="left" if frame.schema[col] == pl.String else "right")
    for row in _rows(frame):
        t.add_row(*row)
    return t


def _diff_plot(frame: pl.DataFrame, label: str, title: str, xlabel: str) -> str:
    import matplotlib.pyplot as plt

    labels = [str(x) for x in frame[label]]
    d = frame["diff"].to_numpy() * 100
    err = error_bars(d, frame["low"].to_numpy() * 100, frame["high"].to_numpy() * 100)
    fig, ax = plt.subplots(figsize=(5.2, 0.8 + 0.26 * max(2, len(labels))))
    # red: a clear change (for card measures, clear across all of them; else the 95% interval excludes 0)
    clear = frame["clear"] if "clear" in frame.columns else (frame["low"] > 0) | (frame["high"] < 0)
    colours = ["#c0392b" if c else "#4a7ebb" for c in clear]
    for y in range(len(labels)):
        ax.errorbar(d[y], y, xerr=err[:, y:y + 1], fmt="o", color=colours[y], capsize=3)
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return png(fig)


def plots(c: Comparison, top: int = 24) -> list[tuple[str, str]]:
    """The comparison's plots as (title, inline PNG data URI): the win rate per agent, then the
    largest changes of each card measure (the HTML page and the designers' lab show them)."""
    import matplotlib

    matplotlib.use("Agg")
    na, nb = c.names
    out = []
    if c.agents.height:
        labelled = c.agents.with_columns(label=pl.when(pl.col("agent_a") == pl.col("agent_b")).then(pl.col("agent_a"))
                                         .otherwise(pl.col("agent_a") + " / " + pl.col("agent_b")))
        out.append(("agents", _diff_plot(labelled, "label", "win rate per agent", f"{na} minus {nb} (points, 95%)")))
    several = c.cards["agent_a"].n_unique() > 1  # name the agent only when there is a choice
    for measure in UNITS:
        part = c.cards.filter(pl.col("measure") == measure).head(top)
        if part.height:
            labelled = part.with_columns(label=pl.col("card") + " (" + pl.col("agent_a") + ")" if several
                                         else pl.col("card"))
            out.append((f"cards {measure}", _diff_plot(labelled, "label", f"largest changes: {measure}",
                                                       f"{na} minus {nb}: {UNITS[measure]}")))
    return out


def compare_html(c: Comparison, path: str | Path, top: int = 24) -> Path:
    target = Path(path)
    files = write_tables(c.tables(), target.with_name(target.stem + "-tables"))
    na, nb = c.names
    out = [f"<h1>Comparison: {html.escape(na)} vs {html.escape(nb)}</h1>"]
    out += [f"<div class='warn'>{html.escape(na)}: {html.escape(n)}</div>" for n in c.a.notes]
    out += [f"<div class='warn'>{html.escape(nb)}: {html.escape(n)}</div>" for n in c.b.notes]
    out.append("<div class='summary'><ul>" + "".join(f"<li>{html.escape(h)}</li>" for h in c.headline) + "</ul></div>")
    out.append("<div class='grid'>")
    out += [f"<img alt='{html.escape(alt)}' src='{src}'>" for alt, src in plots(c, top)]
    out.append("</div>")
    out.append("<p class='note'>Every table as CSV and Parquet: " + ", ".join(
        f"<a href='{html.escape(str(f.relative_to(target.parent)))}'>{html.escape(f.name)}</a>" for f in files) + "</p>")
    for title, frame in (("Agents", c.agents), ("Seats", c.seats), ("Overall", c.overall)):
        if frame.height:
            out.append(f"<h2>{title}</h2>" + table_html(_shown(frame).columns, _rows(_shown(frame))))
    if c.cards.height:
        out.append(f"<h2>Card impact</h2><p class='note'>Each card measure of {html.escape(na)} minus the same "
                   f"measure of {html.escape(nb)}, points, with its 95% interval, degrees of freedom and p-value "
                   f"(Student's t), the {c.cards.height} measures estimated in both runs; p_all: its p-value across "
                   f"all {c.family} card measures of the two runs (60 seat-games with the card and 60 without, "
                   f"together), from a permutation test (the games dealt again between the runs at random, or "
                   f"on the same seeds each seed's two games swapped; the largest |t| over the measures); "
                   f"clear: p_all below 0.05, a change beyond chance across all of them.</p>")
        out.append(table_html(_shown(c.cards).columns, _rows(_shown(c.cards))))
    target.write_text(page(f"cardtable comparison: {na} vs {nb}", out), encoding="utf-8")
    return target

