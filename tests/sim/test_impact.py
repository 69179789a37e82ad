"""Card impact: each measure by hand on a few seat-games, and each one recovering an effect
planted in generated games while ignoring what it must adjust for."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
import pytest

from cardtable.sim import analyze
from cardtable.sim.impact import MEASURES
from cardtable.sim.stats import Z95

from .test_report import frame, row


def impact(rows: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
    cards = analyze(frame(rows)).cards
    return {(r["agent"], r["measure"], r["card"]): r for r in cards.iter_rows(named=True)}


def test_played_compares_seats_that_played_equally_many_cards() -> None:
    # Seats that played 1 card all won, seats that played 3 all lost. Raw, playing X looks good
    # (2 of 3 wins against 1 of 3) and playing Y bad (1 of 4 against 2 of 2); among seats with
    # the same number of plays neither makes any difference.
    rows = [row(0, ["A", "A"], 0, [0], [1, 0], 5, [(0, "played", "X", 1), (1, "played", "X", 1), (1, "played", "Y", 2)]),
            row(1, ["A", "A"], 0, [0], [1, 0], 5, [(0, "played", "X", 1), (1, "played", "Y", 3)]),
            row(2, ["A", "A"], 0, [0], [1, 0], 5, [(0, "played", "Y", 1), (1, "played", "Y", 3)])]
    got = impact(rows)
    x, y = got["A", "played", "X"], got["A", "played", "Y"]
    assert (x["with_n"], x["with_rate"], x["without_rate"]) == (3, pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert (y["with_n"], y["with_rate"], y["without_rate"]) == (4, 0.25, 1.0)
    assert x["estimate"] == 0.0 and y["estimate"] == 0.0
    assert not x["estimated"]  # far fewer than MIN_SEAT_GAMES: shown in tables, not plotted or ranked


def test_played_with_one_group_of_seats_is_the_plain_difference_with_its_usual_variance() -> None:
    # one stratum (every seat played 1 card): Mantel-Haenszel is p1 - p0, and Sato's variance
    # is the textbook p1(1-p1)/n1 + p0(1-p0)/n0
    rows = []
    for i in range(100):
        card = "X" if i < 40 else "Y"
        won = i < 30 or 40 <= i < 70  # X: 30 of 40 seat-games won, Y: 30 of 60
        rows.append(row(i, ["A", "B"], 0, [0] if won else [1], [0, 0], 5, [(0, "played", card, 1)]))
    x = impact(rows)["A", "played", "X"]
    p1, p0 = 30 / 40, 30 / 60
    se = math.sqrt(p1 * (1 - p1) / 40 + p0 * (1 - p0) / 60)
    assert x["estimate"] == pytest.approx(p1 - p0) and x["se"] == pytest.approx(se)
    assert (x["low"], x["high"]) == pytest.approx((p1 - p0 - Z95 * se, p1 - p0 + Z95 * se))


def test_dealt_is_the_change_in_win_rate_per_copy_by_hand() -> None:
    # hands of two: XX won, XY won, XY lost, YY lost: one more X (one Y fewer) is +50 points
    hands = [(["X", "X"], True), (["X", "Y"], True), (["X", "Y"], False), (["Y", "Y"], False)]
    rows = []
    for i, (hand, won) in enumerate(hands):
        cards = [(0, "dealt", c, hand.count(c)) for c in sorted(set(hand))]
        rows.append(row(i, ["A", "B"], 0, [0] if won else [1], [0, 0], 5, cards))
    got = impact(rows)
    assert got["A", "dealt", "X"]["estimate"] == pytest.approx(0.5)
    assert got["A", "dealt", "Y"]["estimate"] == pytest.approx(-0.5)
    assert got["A", "dealt", "X"]["mean_count"] == pytest.approx(4 / 3)


def _planted(seed: int, n: int = 3000) -> list[dict[str, Any]]:
    """Games of one agent in two seats: hands of 5 of 12 cards dealt at random; card "K" is
    worth +15 points per copy dealt; seats draw 0-7 cards and each draw costs 5 points (the
    cards drawn are random, so no drawn card matters); seats that play more cards win more."""
    rng = np.random.default_rng(seed)
    names = [f"c{i}" for i in range(11)] + ["K"]
    rows = []
    for g in range(n):
        cards: list[tuple[int, str, str, int]] = []
        strength = []
        for seat in range(2):
            hand = rng.choice(12, size=5)
            drawn = rng.choice(12, size=int(rng.integers(0, 8)))
            plays = int(rng.integers(1, 6))
            for counter, picks in (("dealt", hand), ("drawn", drawn)):
                for c, k in zip(*np.unique(picks, return_counts=True), strict=True):
                    cards.append((seat, counter, names[c], int(k)))
            for c in rng.choice(12, size=plays, replace=False):
                cards.append((seat, "played", names[c], 1))
            strength.append(0.15 * int((hand == 11).sum()) - 0.05 * len(drawn) + 0.08 * plays)
        p0 = min(max(0.5 + (strength[0] - strength[1]) / 2, 0.0), 1.0)
        winner = 0 if rng.random() < p0 else 1
        rows.append(row(g, ["A", "A"], 0, [winner], [0, 0], 10, cards))
    return rows


def test_each_measure_finds_a_planted_effect_and_nothing_else() -> None:
    cards = analyze(frame(_planted(seed=1))).cards
    assert set(cards["measure"]) == set(MEASURES)
    dealt = cards.filter(measure="dealt")
    k = dealt.filter(card="K").row(0, named=True)
    # the seat's own +15 and the other seat's matching chances: about +7.5 points per copy
    assert k["low"] < 0.075 < k["high"] and k["low"] > 0.03 and k["stands_out"] == "high"
    assert dealt.filter(pl.col("stands_out").is_not_null())["card"].to_list() == ["K"]
    # drawing is bad luck (-2.5 points per card) but no card drawn matters more than another
    drawn = cards.filter(measure="drawn")
    covered = drawn.filter((pl.col("low") < 0) & (pl.col("high") > 0)).height
    assert covered >= 10 and drawn.filter(pl.col("stands_out").is_not_null()).height == 0
    # more plays win more games, yet no card played stands out once plays are compared alike
    played = cards.filter(measure="played")
    assert played.filter(pl.col("stands_out").is_not_null()).height == 0
    assert played.filter((pl.col("low") < 0) & (pl.col("high") > 0)).height >= 10
    raw = played.select((pl.col("with_rate") - pl.col("without_rate")).mean()).item()
    assert raw > 0.03  # what the raw comparison would have said of every card


def test_degrees_of_freedom_fall_when_a_few_games_carry_the_measure() -> None:
    from cardtable.sim.impact import design_effect

    rng = np.random.default_rng(5)
    games = np.repeat(np.arange(400), 2)           # 400 games of two seats
    even = rng.normal(size=(800, 1))               # every game alike: about 399 degrees of freedom
    heavy = even.copy()
    heavy[:10] *= 30                               # five games carry most of the variance
    deff, df = design_effect(np.hstack([even, heavy]), games)
    assert df[0] > 250 and df[1] < 20
    assert df.max() <= 399                         # never more than the games less one
    # the seats of one game pulling one way: the design effect is about 2; independent: 1 (never less)
    same = np.repeat(rng.normal(size=400), 2)[:, None]
    assert design_effect(same, games)[0][0] == pytest.approx(2.0)
    assert design_effect(even, games)[0][0] >= 1.0
    # Satterthwaite's df for iid normal game sums is about the number of games less one (2 G^2 / Var)
    normal = rng.normal(size=(20_000, 1))
    assert design_effect(normal, np.arange(20_000))[1][0] == pytest.approx(20_000, rel=0.05)
