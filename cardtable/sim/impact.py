"""Per-card impact: measures a designer can act on, each with a 95% interval.

Every measure compares seat-games of one agent only, so an agent's strength never passes for a
card's (a strong agent plays its good cards more and wins more for reasons of its own).

* **played** — the win rate of seat-games in which the seat played the card against those in
  which it did not, compared within groups of seat-games that played equally many cards in
  all (Mantel-Haenszel risk difference, Sato's variance). A seat that had more turns, and so
  more chances to play anything, does not count as the card's merit.
* **dealt** — the change in win rate per copy of the card in the opening hand, instead of
  another card (least squares on the copies dealt, robust HC1 standard error). The deal is
  random, so this one is an effect of the card, not only an association.
* **drawn** — the same per copy drawn during the game, comparing seats that drew equally many
  cards (the number of cards drawn is a covariate): drawing at all is bad luck, which card
  came is not.

The seats of one game are not independent samples: they share one deck (a card in one hand is
not in the other) and one outcome (one seat's win is the other's loss). Both pull every
measure's two seats the same way, so a standard error that counts seat-games as independent is
too small (two runs of one JUNO job flagged three times as many cards as chance allows). Each
standard error is therefore widened by the measure's design effect over games: the variance of
its influence summed per game over the variance summed per seat-game (never narrowed).

A standard error is itself estimated, from the games' influences, and when a few games carry
much of a measure's information (a seat that drew thirty cards weighs heavily in "drawn") it is
a noisy estimate: the estimate over its standard error then has heavier tails than the normal's.
Each measure therefore carries its degrees of freedom, Satterthwaite's for a variance summed over
independent games, 2 V^2 / Var(V) with V the sum of the squared per-game influences (at most
the number of games less one): the estimate over its standard error is read as a Student's t
with that many degrees of freedom (`cardtable report A B` does, `compare.py`).

A card **stands out** when its estimate lies beyond the Tukey fences (1.5 interquartile ranges
past the quartiles) of the other cards' estimates and differs from their median by more than
chance allows across all the cards and measures compared (a Bonferroni-corrected interval
excludes it).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np
import polars as pl

from .stats import Z95

#: a card needs this many seat-games with it, and as many without, before it is estimated
MIN_SEAT_GAMES = 30

#: the measures in the order the report shows them, each explained in one sentence
MEASURES: dict[str, str] = {
    "played": "Win rate of seat-games that played the card minus those that did not, compared among seat-games "
              "that played equally many cards in all, so more turns do not pass for the card's merit "
              "(Mantel-Haenszel).",
    "dealt": "Change in win rate for each copy of the card in the opening hand instead of another card; the deal "
             "is random, so this is the card's effect, not only an association.",
    "drawn": "Change in win rate for each copy of the card drawn during the game instead of another card, "
             "comparing seats that drew equally many cards.",
}

SCHEMA: dict[str, Any] = {
    "agent": pl.String, "measure": pl.String, "card": pl.String, "seat_games": pl.Int64, "with_n": pl.Int64,
    "mean_count": pl.Float64, "with_rate": pl.Float64, "without_rate": pl.Float64, "estimate": pl.Float64,
    "se": pl.Float64, "df": pl.Float64, "low": pl.Float64, "high": pl.Float64, "estimated": pl.Boolean, "stands_out": pl.String,
}


def design_effect(influence: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column of `influence` (seat-games x cards: each seat-game's term of an estimate's
    linearized error, `games`: a game's index per row): the design effect over games, the
    variance of its sum when the seat-games of one game move together over the variance when
    they are independent (at least 1); and the degrees of freedom of that per-game variance
    (Satterthwaite: 2 V^2 / Var(V), V the sum over games of the squared per-game sums, Var(V)
    estimated from their spread; from 1 to the number of games less one)."""
    _, game = np.unique(games, return_inverse=True)
    g = int(game.max()) + 1 if len(game) else 0
    per_game = np.zeros((g, influence.shape[1]))
    np.add.at(per_game, game, influence)
    apart = (influence * influence).sum(axis=0)
    squares = per_game * per_game
    together = squares.sum(axis=0)
    ratio = np.divide(together, apart, out=np.ones_like(apart), where=apart > 0)
    spread = (squares * squares).sum(axis=0) - together * together / max(g, 1)
    df = np.divide(2 * together * together, spread, out=np.full_like(together, np.inf), where=spread > 0)
    return np.maximum(ratio, 1.0), np.clip(df, 1.0, max(g - 1, 1))


def counted(table: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """One row per (seed, seat, counter, card) with a positive count, with the seat's agent."""
    return (
        table.lazy()
        .select("seed", "cards")
        .explode("cards")
        .drop_nulls("cards")
        .unnest("cards")
        .filter((pl.col("count") > 0) & pl.col("counter").is_in(list(MEASURES)))
        .join(seats.lazy().select("seed", "seat", "agent", "win"), on=["seed", "seat"])
        .select("seed", "seat", "agent", "win", "counter", "card", "count")
        .collect()
    )


def card_impact(table: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """Every measure for every agent and card (columns: `SCHEMA`), sorted by measure, agent and
    estimate (highest first)."""
    counts = counted(table, seats)
    parts = [_played(counts, seats)]
    for measure in ("dealt", "drawn"):
        for agent in sorted(set(counts.filter(pl.col("counter") == measure)["agent"])):
            parts.append(_per_copy(counts, seats, measure, agent))
    frame = pl.concat([p for p in parts if p.height], how="vertical") if any(p.height for p in parts) \
        else pl.DataFrame(schema=SCHEMA)
    frame = _stand_out(frame.select(list(SCHEMA)))
    order = {m: i for i, m in enumerate(MEASURES)}
    return (frame.with_columns(_order=pl.col("measure").replace_strict(order, return_dtype=pl.Int64))
            .sort("_order", "agent", "estimate", descending=[False, False, True], nulls_last=True)
            .drop("_order"))


def _played(counts: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    played = counts.filter(pl.col("counter") == "played")
    if not played.height:
        return pl.DataFrame(schema=SCHEMA)
    total = played.group_by("seed", "seat").agg(stratum=pl.col("count").sum())
    sg = (seats.select("seed", "seat", "agent", "win")
          .join(total, on=["seed", "seat"], how="left").with_columns(pl.col("stratum").fill_null(0)))
    strata = sg.group_by("agent", "stratum").agg(N=pl.len(), Y=pl.col("win").sum())
    agent_totals = sg.group_by("agent").agg(agent_n=pl.len().cast(pl.Int64), agent_wins=pl.col("win").sum().cast(pl.Int64))
    cells = (
        played.join(sg.select("seed", "seat", "stratum"), on=["seed", "seat"])
        .group_by("agent", "card", "stratum")
        .agg(n1=pl.len(), y1=pl.col("win").sum(), copies=pl.col("count").sum())
        .join(strata, on=["agent", "stratum"])
        # floats: the variance's terms are differences, which unsigned counts cannot hold
        .with_columns(pl.col("n1", "y1", "N", "Y").cast(pl.Float64))
        .with_columns(n0=pl.col("N") - pl.col("n1"), y0=pl.col("Y") - pl.col("y1"))
        .with_columns(
            w=pl.col("n1") * pl.col("n0") / pl.col("N"),
            # Sato (1989): a variance that holds for many sparse strata as well as few large ones
            P=(pl.col("n1") ** 2 * pl.col("y0") - pl.col("n0") ** 2 * pl.col("y1")
               + pl.col("n1") * pl.col("n0") * (pl.col("n0") - pl.col("n1")) / 2) / pl.col("N") ** 2,
            Q=(pl.col("y1") * (pl.col("n0") - pl.col("y0")) + pl.col("y0") * (pl.col("n1") - pl.col("y1")))
            / (2 * pl.col("N")),
        )
        .with_columns(
            term=pl.when(pl.col("n0") > 0)
            .then(pl.col("w") * (pl.col("y1") / pl.col("n1") - pl.col("y0") / pl.col("n0"))).otherwise(0.0)
        )
    )
    agg = (
        cells.group_by("agent", "card")
        .agg(with_n=pl.col("n1").sum().cast(pl.Int64), with_wins=pl.col("y1").sum().cast(pl.Int64),
             copies=pl.col("copies").sum(),
             W=pl.col("w").sum(), T=pl.col("term").sum(), P=pl.col("P").sum(), Q=pl.col("Q").sum())
        .join(agent_totals, on="agent")
    )
    deff = _played_design_effect(played, sg)
    rows = []
    for r in agg.iter_rows(named=True):
        n1, n0 = r["with_n"], r["agent_n"] - r["with_n"]
        rd = r["T"] / r["W"] if r["W"] > 0 else math.nan
        d, df = deff.get((r["agent"], r["card"]), (1.0, math.inf))
        var = d * (rd * r["P"] + r["Q"]) / r["W"] ** 2 if r["W"] > 0 else math.nan
        se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
        rows.append({
            "agent": r["agent"], "measure": "played", "card": r["card"], "seat_games": r["agent_n"], "with_n": n1,
            "mean_count": r["copies"] / n1, "with_rate": r["with_wins"] / n1,
            "without_rate": (r["agent_wins"] - r["with_wins"]) / n0 if n0 else math.nan,
            "estimate": rd, "se": se, "df": df,
            "low": max(-1.0, rd - Z95 * se) if se == se else math.nan,
            "high": min(1.0, rd + Z95 * se) if se == se else math.nan,
            "estimated": n1 >= MIN_SEAT_GAMES and n0 >= MIN_SEAT_GAMES and se == se,
        })
    return pl.DataFrame(rows, schema={k: v for k, v in SCHEMA.items() if k != "stands_out"}) \
        .with_columns(stands_out=pl.lit(None, pl.String))


def _played_design_effect(played: pl.DataFrame, sg: pl.DataFrame) -> dict[tuple[str, str], tuple[float, float]]:
    """The design effect over games of each card's Mantel-Haenszel difference and the degrees of
    freedom of its variance (`design_effect`, from `_played_influence`)."""
    out: dict[tuple[str, str], tuple[float, float]] = {}
    for (agent,), units in sg.group_by("agent"):
        seeds, cards, influence = _played_influence(played.filter(pl.col("agent") == agent), units)
        deff, df = design_effect(influence, seeds)
        for card, d, f in zip(cards, deff, df, strict=True):
            out[str(agent), card] = (float(d), float(f))
    return out


def _played_influence(played: pl.DataFrame, units: pl.DataFrame) -> tuple[np.ndarray, list[str], np.ndarray]:
    """One agent's seat-games (`units`: seed, seat, win, stratum) and the cards it played: each
    seat-game's seed and its term of each card's Mantel-Haenszel difference in the large-strata
    linearization: a seat-game that played the card adds n0/N (win - p1) of its stratum, one that
    did not -n1/N (win - p0)."""
    units = units.with_row_index("row")
    mine = played.join(units.select("seed", "seat", "row"), on=["seed", "seat"])
    cards = sorted(set(mine["card"]))
    seeds = units["seed"].to_numpy()
    if not cards:
        return seeds, cards, np.zeros((units.height, 0))
    col = {c: i for i, c in enumerate(cards)}
    has = np.zeros((units.height, len(cards)))
    has[mine["row"].to_numpy(), np.array([col[c] for c in mine["card"]], dtype=np.int64)] = 1.0
    y = units["win"].cast(pl.Float64).to_numpy()
    _, stratum = np.unique(units["stratum"].to_numpy(), return_inverse=True)
    one_hot = np.zeros((units.height, int(stratum.max()) + 1))
    one_hot[np.arange(units.height), stratum] = 1.0
    n = one_hot.sum(axis=0)[:, None]                      # strata x 1
    n1 = one_hot.T @ has                                   # strata x cards
    y1 = one_hot.T @ (has * y[:, None])
    y0 = (one_hot.T @ y)[:, None] - y1
    n0 = n - n1
    p1 = np.divide(y1, n1, out=np.zeros_like(y1), where=n1 > 0)
    p0 = np.divide(y0, n0, out=np.zeros_like(y0), where=n0 > 0)
    k = stratum
    influence = (has * (n0[k] / n[k]) * (y[:, None] - p1[k])
                 - (1 - has) * (n1[k] / n[k]) * (y[:, None] - p0[k]))
    return seeds, cards, influence


def _per_copy_fit(counts: pl.DataFrame, sg: pl.DataFrame, measure: str, agent: str) \
        -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """One agent's least squares of win on the copies of each card (`_per_copy`), as the cards,
    the seat-games' card counts, their residuals after the covariates, each seat-game's residual
    of win after the card's slope, the slopes (NaN where a card's copies never vary) and the
    number of covariates."""
    part = counts.filter((pl.col("counter") == measure) & (pl.col("agent") == agent)) \
        .join(sg.select("seed", "seat", "row"), on=["seed", "seat"])
    cards = sorted(set(part["card"]))
    n = sg.height
    col = {c: i for i, c in enumerate(cards)}
    m = np.zeros((n, len(cards)))
    np.add.at(m, (part["row"].to_numpy(), np.array([col[c] for c in part["card"]], dtype=np.int64)),
              part["count"].to_numpy().astype(float))
    y = sg["win"].cast(pl.Float64).to_numpy()
    total = m.sum(axis=1)
    z = np.column_stack([np.ones(n), total]) if np.ptp(total) > 0 else np.ones((n, 1))
    # residuals of the card counts and of the outcome after the covariates (Frisch-Waugh)
    rm = m - z @ np.linalg.lstsq(z, m, rcond=None)[0]
    ry = y - z @ np.linalg.lstsq(z, y, rcond=None)[0]
    sxx = (rm * rm).sum(axis=0)
    ok = sxx > 1e-9
    slope = np.where(ok, rm.T @ ry / np.where(ok, sxx, 1.0), np.nan)
    resid = ry[:, None] - rm * np.nan_to_num(slope)
    return cards, m, rm, resid, slope, z.shape[1]


def influences(counts: pl.DataFrame, seats: pl.DataFrame, agent: str) -> tuple[np.ndarray, list[tuple[str, str]], np.ndarray]:
    """Every card measure of one agent linearized, for a permutation test (`compare.py`): the
    games (one per seed) and, per game, its term of each (measure, card)'s estimate: the
    Mantel-Haenszel difference's for "played" (`_played_influence`), the slope's score (the card's
    residual count times the residual win) for "dealt" and "drawn", summed over the game's seats.
    `counts`: `counted`'s rows; `seats`: seed, seat, agent, win."""
    sg = seats.filter(pl.col("agent") == agent).sort("seed", "seat").select("seed", "seat", "win")
    keys: list[tuple[str, str]] = []
    parts = []
    played = counts.filter((pl.col("counter") == "played") & (pl.col("agent") == agent))
    total = played.group_by("seed", "seat").agg(stratum=pl.col("count").sum())
    units = sg.join(total, on=["seed", "seat"], how="left", maintain_order="left") \
        .with_columns(pl.col("stratum").fill_null(0))
    seeds, cards, influence = _played_influence(played, units)
    keys += [("played", c) for c in cards]
    parts.append(influence)
    rows = sg.with_row_index("row")
    for measure in ("dealt", "drawn"):
        cards, _, rm, resid, _, _ = _per_copy_fit(counts, rows, measure, agent)
        keys += [(measure, c) for c in cards]
        parts.append(rm * resid)
    game_seeds, game = np.unique(seeds, return_inverse=True)
    per_game = np.zeros((len(game_seeds), len(keys)))
    np.add.at(per_game, game, np.concatenate(parts, axis=1))
    return game_seeds, keys, per_game


def _per_copy(counts: pl.DataFrame, seats: pl.DataFrame, measure: str, agent: str) -> pl.DataFrame:
    """Least squares of win (0/1) on the copies of each card, with the seat's total count of
    that measure as a covariate when it varies; one regression per card."""
    sg = seats.filter(pl.col("agent") == agent).select("seed", "seat", "win").with_row_index("row")
    n = sg.height
    if n < 3:
        return pl.DataFrame(schema=SCHEMA)
    cards, m, rm, resid, slope, covariates = _per_copy_fit(counts, sg, measure, agent)
    if not cards:
        return pl.DataFrame(schema=SCHEMA)
    y = sg["win"].cast(pl.Float64).to_numpy()
    sxx = (rm * rm).sum(axis=0)
    ok = ~np.isnan(slope)
    dof = max(n - covariates - 1, 1)
    deff, df = design_effect(rm * resid, sg["seed"].to_numpy())
    se = np.where(ok, np.sqrt(deff * (rm * rm * resid * resid).sum(axis=0) * n / dof) / np.where(ok, sxx, 1.0), np.nan)
    has = m > 0
    with_n = has.sum(axis=0)
    wins_with = (has * y[:, None]).sum(axis=0)
    rows = []
    for i, card in enumerate(cards):
        k = int(with_n[i])
        rows.append({
            "agent": agent, "measure": measure, "card": card, "seat_games": n, "with_n": k,
            "mean_count": float(m[:, i].sum() / k) if k else math.nan,
            "with_rate": float(wins_with[i] / k) if k else math.nan,
            "without_rate": float((y.sum() - wins_with[i]) / (n - k)) if n > k else math.nan,
            "estimate": float(slope[i]), "se": float(se[i]), "df": float(df[i]),
            "low": float(slope[i] - Z95 * se[i]), "high": float(slope[i] + Z95 * se[i]),
            "estimated": bool(ok[i]) and k >= MIN_SEAT_GAMES and n - k >= MIN_SEAT_GAMES,
            "stands_out": None,
        })
    return pl.DataFrame(rows, schema=SCHEMA)


def _stand_out(frame: pl.DataFrame) -> pl.DataFrame:
    """Mark the cards whose estimate lies outside the rest (see the module's docstring)."""
    marks: dict[tuple[str, str, str], str] = {}
    estimated = frame.filter(pl.col("estimated"))
    # With dozens of cards and three measures, a few would leave a 95% interval by chance alone:
    # the distance to the others' median must exceed chance across everything compared for
    # that agent (Bonferroni).
    tests = dict(estimated.group_by("agent").len().iter_rows())
    for (agent, measure), part in estimated.group_by("agent", "measure"):
        est = part["estimate"].to_numpy()
        if len(est) < 6:
            continue
        z = NormalDist().inv_cdf(1 - 0.025 / tests[agent])
        for i, r in enumerate(part.iter_rows(named=True)):
            others = np.delete(est, i)
            q1, med, q3 = np.percentile(others, [25, 50, 75])
            fence = 1.5 * (q3 - q1)
            if r["estimate"] > q3 + fence and r["estimate"] - z * r["se"] > med:
                marks[str(agent), str(measure), r["card"]] = "high"
            elif r["estimate"] < q1 - fence and r["estimate"] + z * r["se"] < med:
                marks[str(agent), str(measure), r["card"]] = "low"
    if not marks:
        return frame
    return frame.with_columns(stands_out=pl.struct("agent", "measure", "card").map_elements(
        lambda s: marks.get((s["agent"], s["measure"], s["card"])), return_dtype=pl.String))
