"""The report's statistics against published reference values."""

from __future__ import annotations

import math

import pytest

from cardtable.sim.stats import binomial_pmf, binomial_test, newcombe, wilson


def test_wilson_matches_the_published_intervals() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(15, 148)
    assert (round(lo, 4), round(hi, 4)) == (0.0624, 0.1605)


def test_wilson_stays_inside_zero_and_one_at_the_extremes() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775  # Newcombe (1998), 0/10 -> 0 to 0.2775
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and round(lo, 4) == 0.7225
    assert wilson(0, 0) == (0.0, 1.0)


def test_newcombe_difference_matches_the_published_example() -> None:
    # Newcombe (1998), table II example (a): 56/70 - 48/80 -> +0.0524 to +0.3339
    d, lo, hi = newcombe(56, 70, 48, 80)
    assert math.isclose(d, 0.2)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


@pytest.mark.parametrize(
    ("k", "n", "p", "expected"),
    [
        (7, 20, 0.5, 0.2632),     # R: binom.test(7, 20)
        (682, 925, 0.75, 0.3825),  # R: binom.test(682, 925, p = 0.75)
        (10, 10, 0.5, 0.001953),   # 2 * 0.5**10
        (3, 10, 0.25, 0.7184),     # every outcome but k = 2 (the only one likelier than k = 3)
    ],
)
def test_exact_binomial_test_matches_r(k: int, n: int, p: float, expected: float) -> None:
    assert binomial_test(k, n, p) == pytest.approx(expected, rel=1e-3)


def test_binomial_pmf_is_a_distribution_for_large_n() -> None:
    pmf = binomial_pmf(100_000, 0.5)
    assert pmf.sum() == pytest.approx(1.0)
    assert int(pmf.argmax()) == 50_000
    assert binomial_test(50_000, 100_000, 0.5) == pytest.approx(1.0)
    assert binomial_test(51_000, 100_000, 0.5) < 1e-9
