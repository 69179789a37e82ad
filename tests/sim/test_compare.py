"""`cardtable report A B`: a card's change is called clear only beyond chance across all the card
measures compared (a permutation of the games between the runs, max-|t| over the measures), so two
runs of one job rarely flag a card, while a planted change is found."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest

from cardtable.sim import analyze
from cardtable.sim.compare import compare
from cardtable.sim.stats import t_bound, t_two_sided

from .test_report import frame, row

CARDS = [f"c{i}" for i in range(11)] + ["K"]


#: the deck: 4 copies of each of the 12 cards
DECK = np.repeat(np.arange(12), 4)


def games(seed: int, n: int, k_per_copy: float = 0.0) -> pl.DataFrame:
    """Games of one agent in two seats, as a real card game deals them: one shuffled deck of 48
    cards, hands of 5 and 0-7 draws per seat from it (a card in one hand is not in the other),
    1-5 plays per seat, and one winner. Drawing is bad luck and more plays win more (what the
    measures adjust for); no card matters, except card "K" worth `k_per_copy` per copy dealt when
    planted."""
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for g in range(n):
        cards: list[tuple[int, str, str, int]] = []
        strength = []
        deck = rng.permutation(DECK)
        for seat in range(2):
            hand = deck[5 * seat:5 * seat + 5]
            draws = int(rng.integers(0, 8))
            drawn, deck = deck[10:10 + draws], np.concatenate([deck[:10], deck[10 + draws:]])
            plays = int(rng.integers(1, 6))
            for counter, picks in (("dealt", hand), ("drawn", drawn)):
                for c, k in zip(*np.unique(picks, return_counts=True), strict=True):
                    cards.append((seat, counter, CARDS[c], int(k)))
            for c in rng.choice(12, size=plays, replace=False):
                cards.append((seat, "played", CARDS[c], 1))
            strength.append(k_per_copy * int((hand == 11).sum()) - 0.05 * len(drawn) + 0.08 * plays)
        p0 = min(max(0.5 + (strength[0] - strength[1]) / 2, 0.0), 1.0)
        rows.append(row(seed * 10_000 + g, ["A", "A"], g % 2, [0 if rng.random() < p0 else 1], [0, 0], 10, cards))
    return frame(rows)


def test_each_card_change_is_a_t_test_with_welch_satterthwaites_degrees_of_freedom() -> None:
    a, b = analyze(games(7, 400)), analyze(games(8, 400))
    c = compare(a, b)
    runs = [r.cards.filter(agent="A").select("measure", "card", **{f"se_{k}": "se", f"df_{k}": "df"})
            for r, k in ((a, "a"), (b, "b"))]
    j = c.cards.join(runs[0], on=["measure", "card"]).join(runs[1], on=["measure", "card"])
    assert j.height == c.cards.height == 36
    for r in j.iter_rows(named=True):
        va, vb = r["se_a"] ** 2, r["se_b"] ** 2
        assert 1 <= r["df_a"] <= 399 and 1 <= r["df_b"] <= 399  # a run's: at most its games less one
        df = (va + vb) ** 2 / (va ** 2 / r["df_a"] + vb ** 2 / r["df_b"])
        assert r["df"] == pytest.approx(df)
        assert r["p"] == pytest.approx(t_two_sided(r["diff"] / (va + vb) ** 0.5, df))
        assert r["high"] - r["diff"] == pytest.approx(t_bound(0.05, df) * (va + vb) ** 0.5)
    # clear: the p across all the measures (permutation, max-|t|) below 0.05; never below a
    # measure's own p by much (the family is 36 measures), and the same on a second comparison
    assert (c.cards["clear"] == (c.cards["p_all"] < 0.05)).all()
    assert ((c.cards["p_all"] > 0) & (c.cards["p_all"] <= 1)).all()
    assert c.cards["p_all"].min() > 10 * c.cards["p"].min()
    assert compare(a, b).cards["p_all"].to_list() == c.cards["p_all"].to_list()


def test_runs_of_one_job_flag_a_card_in_at_most_5_percent_of_pairs() -> None:
    # 100 pairs of 400-game runs (the example: two 400-game runs of one JUNO job)
    pairs = 100
    flagged = uncorrected = 0
    smallest = []
    for i in range(pairs):
        c = compare(analyze(games(2 * i, 400)), analyze(games(2 * i + 1, 400)))
        assert c.cards.height == 36  # 12 cards, 3 measures, all estimated
        flagged += c.cards["clear"].any()
        uncorrected += ((c.cards["low"] > 0) | (c.cards["high"] < 0)).any()
        smallest.append(c.cards["p_all"].min())
    # The permutation makes the chance that a pair flags a card 5%, no more (and no less: the
    # test is exact), so the pairs flagging one are Binomial(100, 0.05): 10 or fewer but for 1
    # time in 100; and a pair's smallest p across the measures is uniform: half below 0.5
    # (give or take 15, outside about 1 time in 500 by chance)
    assert flagged <= 10
    assert 35 <= sum(p <= 0.5 for p in smallest) <= 65, sorted(smallest)
    # what the comparison said before: some card's 95% interval excludes 0 in most pairs
    assert uncorrected > pairs / 2


def test_a_planted_change_of_one_card_is_found_first() -> None:
    base = analyze(games(1000, 1500))
    for seed in range(1001, 1004):
        c = compare(analyze(games(seed, 1500, k_per_copy=0.3)), base)
        clear = c.cards.filter(pl.col("clear"))
        assert clear.row(0, named=True)["card"] == "K" and clear.row(0, named=True)["measure"] == "dealt"
        # "dealt" is per copy instead of another card: a hand holds 5, so where K got better the
        # others may look a little worse; nothing else moves
        others = clear.filter(pl.col("card") != "K")
        assert (others["measure"] == "dealt").all() and (others["diff"] < 0).all()
        k = c.cards.filter(card="K", measure="dealt").row(0, named=True)
        assert k["diff"] > 0 and k["p"] < 0.05 / c.cards.height and k["p_all"] < 0.05
        assert any("card measures changed clearly" in h and "K (dealt" in h for h in c.headline)


def test_on_the_same_seeds_game_length_is_compared_seed_by_seed() -> None:
    base = games(40, 60)
    rng = np.random.default_rng(41)
    # lengths that vary much from seed to seed; the variant: the same seeds, each game 3 decisions
    # longer give or take 1
    longer = base.with_columns(length=pl.col("length") * pl.Series(rng.integers(1, 40, base.height)))
    variant = longer.with_columns(length=pl.col("length") + 3 + pl.Series(rng.integers(-1, 2, base.height)))
    c = compare(analyze(variant), analyze(longer))
    d = (variant["length"] - longer["length"]).cast(pl.Float64).to_numpy()
    half = t_bound(0.05, len(d) - 1) * d.std(ddof=1) / len(d) ** 0.5
    length = c.overall.filter(figure="mean game length (decisions)").row(0, named=True)
    assert length["diff"] == pytest.approx(d.mean())
    assert (length["low"], length["high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    assert "Both runs played the same seeds: game length is compared seed by seed." in c.headline
    # other seeds: two independent samples, whose spread of lengths makes the interval far wider
    apart = compare(analyze(variant.with_columns(pl.col("seed") + 1_000_000)), analyze(longer))
    wide = apart.overall.filter(figure="mean game length (decisions)").row(0, named=True)
    assert wide["diff"] == pytest.approx(d.mean()) and wide["high"] - wide["low"] > 5 * (length["high"] - length["low"])
    assert not any("same seeds" in h for h in apart.headline)


def test_on_the_same_seeds_a_seeds_two_games_are_swapped_and_a_smaller_change_is_found() -> None:
    # The lab's design: variant and base on the same seeds, so the same deals, and the same draw
    # decides a game unless K's planted worth tips it. The permutation swaps a seed's two games
    # (paired t): K's smaller change (0.15 a copy dealt) is found in 400 games. The very same
    # games as two runs of other seeds (dealt freely, Welch's t) cannot tell it from chance.
    base, variant = games(1000, 400), games(1000, 400, k_per_copy=0.15)
    paired = compare(analyze(variant), analyze(base))
    k = paired.cards.filter(card="K", measure="dealt").row(0, named=True)
    assert k["p_all"] < 0.01 and paired.cards.filter(pl.col("clear"))["card"].to_list() == ["K"]
    apart = compare(analyze(variant), analyze(base.with_columns(pl.col("seed") + 1_000_000)))
    assert apart.cards.filter(card="K", measure="dealt")["p_all"].item() > 0.5
    assert not apart.cards["clear"].any()


def test_the_family_of_measures_is_the_same_however_the_games_are_split() -> None:
    # The permutation deals the pooled games between the runs again, so the measures its max-|t|
    # runs over must not depend on the split: they are chosen from the pool (60 seat-games with
    # the card and 60 without, together). The rows shown, the measures estimated in both runs,
    # do depend on it; they are always among the family.
    pool = pl.concat([games(50, 60), games(51, 60)])
    splits = [(pool.head(60), pool.tail(60)), (pool.gather_every(2), pool.gather_every(2, offset=1))]
    families, rows = set(), set()
    for a, b in splits:
        c = compare(analyze(a), analyze(b))
        families.add(c.family)
        rows.add(c.cards.height)
        assert c.family >= c.cards.height > 0
        assert any(f"across the {c.family} card measures of the two runs" in h for h in c.headline)
    assert len(families) == 1 and len(rows) == 2
