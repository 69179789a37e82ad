"""The report's statistics against published reference values."""

from __future__ import annotations

import math

import pytest

from cardtable.sim.stats import binomial_pmf, binomial_test, holm, newcombe, t_bound, t_two_sided, welch_df, wilson


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


def _t_closed(t: float, df: int) -> float:
    """P(|T| >= t) in closed form for 1, 2 and 3 degrees of freedom (Student's t's distribution function)."""
    if df == 1:
        return 1 - 2 / math.pi * math.atan(t)
    if df == 2:
        return 1 - t / math.sqrt(2 + t * t)
    u = t / math.sqrt(3)
    return 1 - 2 / math.pi * (math.atan(u) + u / (1 + u * u))


@pytest.mark.parametrize("df", [1, 2, 3])
@pytest.mark.parametrize("t", [0.0, 0.5, 1.0, 3.0, 12.706, 40.0])
def test_student_t_tail_matches_its_closed_forms(t: float, df: int) -> None:
    assert t_two_sided(t, df) == pytest.approx(_t_closed(t, df), rel=1e-9, abs=1e-15)
    assert t_two_sided(-t, df) == t_two_sided(t, df)


def test_student_t_tail_matches_published_quantiles_and_tends_to_the_normal() -> None:
    # the 97.5% quantiles of t tables: 2.228 (10 df), 2.042 (30 df)
    assert t_two_sided(2.228138852, 10) == pytest.approx(0.05, rel=1e-8)
    assert t_two_sided(2.042272456, 30) == pytest.approx(0.05, rel=1e-8)
    assert t_two_sided(3.61, 1e7) == pytest.approx(math.erfc(3.61 / math.sqrt(2)), rel=1e-5)
    assert t_two_sided(3.61, math.inf) == math.erfc(3.61 / math.sqrt(2))


def test_t_bound_inverts_the_tail_and_is_the_normals_at_infinite_df() -> None:
    assert t_bound(0.05, math.inf) == pytest.approx(1.959963984540054, rel=1e-9)
    assert t_bound(0.05, 10) == pytest.approx(2.228138852, rel=1e-8)
    for df in (3.5, 40.0, 800.0):
        assert t_two_sided(t_bound(0.05 / 162, df), df) == pytest.approx(0.05 / 162, rel=1e-8)
    # fewer degrees of freedom, a heavier tail, a farther bound
    assert t_bound(0.05 / 162, 30) > t_bound(0.05 / 162, 300) > t_bound(0.05 / 162, math.inf)


def test_welch_df_of_two_equal_variances_adds_their_degrees_of_freedom() -> None:
    assert welch_df(1.0, 10.0, 1.0, 10.0) == pytest.approx(20.0)
    assert welch_df(4.0, 10.0, 0.0, 3.0) == pytest.approx(10.0)  # all of it from the first
    assert welch_df(1.0, math.inf, 2.0, math.inf) == math.inf


def test_holm_steps_down_and_stops_at_the_first_p_above_its_bound() -> None:
    # m = 4: 0.005 < 0.05/4, 0.01 < 0.05/3, then 0.03 > 0.05/2 stops (0.04 is not reached)
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.001, 0.02, 0.03]) == [True, True, True]
    assert holm([0.03, 0.03]) == [False, False]  # the first step is Bonferroni's: 0.03 > 0.05/2
    assert holm([0.02, 0.03]) == [True, True]    # 0.02 < 0.05/2, then 0.03 < 0.05/1
    assert holm([float("nan"), 0.01]) == [False, True]  # a measure without a p is no test
