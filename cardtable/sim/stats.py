"""The statistics of the report, written out so they need nothing beyond numpy.

* Wilson score interval for a proportion (Wilson 1927): good coverage even near 0 or 1 and
  for small samples, unlike the normal ("Wald") interval.
* Newcombe's hybrid score interval for a difference of two independent proportions
  (Newcombe 1998, method 10), built from the two Wilson intervals.
* The exact two-sided binomial test (the "minimum likelihood" p-value: the total probability
  of every outcome no more likely than the one observed), as in R's binom.test.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for successes/trials; (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # In exact arithmetic the interval holds p and stays in [0, 1]; rounding can leave the low
    # bound at 1e-17 for 0 successes (or the high one below 1 for all), which would put p outside
    # its own interval (and give a plot negative error bars). Clamp to what is true.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def newcombe(k1: float, n1: float, k2: float, n2: float, z: float = Z95) -> tuple[float, float, float]:
    """p1 - p2 with its 95% interval (Newcombe's hybrid score method)."""
    if n1 <= 0 or n2 <= 0:
        return math.nan, -1.0, 1.0
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def binomial_pmf(n: int, p: float) -> np.ndarray:
    """P(X = k) for k = 0..n, X ~ Binomial(n, p), computed in log space (n up to millions)."""
    k = np.arange(n + 1, dtype=np.float64)
    if p <= 0.0 or p >= 1.0:
        out = np.zeros(n + 1)
        out[0 if p <= 0.0 else n] = 1.0
        return out
    lgamma = np.vectorize(math.lgamma, otypes=[np.float64])
    log_choose = math.lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)
    pmf: np.ndarray = np.exp(log_choose + k * math.log(p) + (n - k) * math.log1p(-p))
    return pmf


def binomial_test(k: int, n: int, p: float) -> float:
    """Exact two-sided p-value of k successes in n trials against success probability p."""
    if n == 0:
        return 1.0
    pmf = binomial_pmf(n, p)
    # outcomes at most as likely as the observed one; the relative tolerance is R's (1 + 1e-7)
    return float(min(1.0, pmf[pmf <= pmf[k] * (1 + 1e-7)].sum()))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz;
    Press et al., Numerical Recipes, 6.4), converging for x < (a + 1) / (a + b + 2)."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    out = d
    for m in range(1, 500):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            out *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return out


def beta_regularized(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's T with `df` degrees of freedom (any df > 0, not only whole
    ones: Welch-Satterthwaite's are fractions); the normal's tail when df is infinite."""
    if t != t or df != df:
        return math.nan
    if math.isinf(df):
        return math.erfc(abs(t) / math.sqrt(2.0))
    return beta_regularized(df / 2.0, 0.5, df / (df + t * t))


def t_bound(alpha: float, df: float) -> float:
    """The t beyond which Student's T with `df` degrees of freedom lies with two-sided
    probability `alpha` (1.96 for 0.05 and infinite df); by bisection of `t_two_sided`."""
    if math.isinf(df):
        lo, hi = 0.0, 40.0
    else:
        lo, hi = 0.0, 1.0
        while t_two_sided(hi, df) > alpha:
            hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_two_sided(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2.0


def welch_df(v1: float, df1: float, v2: float, df2: float) -> float:
    """Welch-Satterthwaite's degrees of freedom of a sum of two independent variance estimates
    `v1` and `v2` with `df1` and `df2` degrees of freedom."""
    total = v1 + v2
    parts = (v1 * v1 / df1 if v1 else 0.0) + (v2 * v2 / df2 if v2 else 0.0)
    return total * total / parts if parts > 0 else math.inf


def welch_t(per_game: np.ndarray, in_a: np.ndarray) -> np.ndarray:
    """Per column of `per_game` (games x measures), Welch's t of the games in A (`in_a`, one
    row of booleans per labelling: labellings x games) against the rest: the difference of the
    two groups' means over its standard error (0 where both groups are constant)."""
    a = in_a.astype(np.float64)
    n1 = a.sum(axis=1, keepdims=True)
    n0 = per_game.shape[0] - n1
    s1, q1 = a @ per_game, a @ (per_game * per_game)
    s0, q0 = per_game.sum(axis=0) - s1, (per_game * per_game).sum(axis=0) - q1
    v1 = np.maximum(q1 - s1 * s1 / n1, 0.0) / (n1 - 1)
    v0 = np.maximum(q0 - s0 * s0 / n0, 0.0) / (n0 - 1)
    se = np.sqrt(v1 / n1 + v0 / n0)
    diff = s1 / n1 - s0 / n0
    t: np.ndarray = np.divide(diff, se, out=np.zeros_like(diff), where=se > 1e-12 * (np.abs(diff) + 1e-300))
    return t


def paired_t(d: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Per column of `d` (pairs x measures: each pair's A term minus its B term), the paired t of
    each labelling of `keep` (labellings x pairs: True where the pair stays as it is, False where
    its two games are swapped, which turns its difference round): the mean difference over its
    standard error (0 where the differences are all alike)."""
    n = d.shape[0]
    signs = np.where(keep, 1.0, -1.0)
    mean = signs @ d / n
    squares = (d * d).sum(axis=0)                # the same whatever the signs
    se = np.sqrt(np.maximum(squares - n * mean * mean, 0.0) / ((n - 1) * n))
    t: np.ndarray = np.divide(mean, se, out=np.zeros_like(mean), where=se > 1e-12 * (np.abs(mean) + 1e-300))
    return t


def max_t_permutation(per_game: np.ndarray, in_a: np.ndarray, rounds: int = 4000, seed: int = 0,
                      paired: bool = False) -> np.ndarray:
    """Familywise-adjusted two-sided p-values of the measures (the columns of `per_game`, one
    row per game, `in_a` the games of run A): Westfall and Young's step-down max-|t| (1993,
    algorithm 2.8) over the labellings of the games that are as likely as the observed one when
    the runs do not differ. A measure's p is the share of labellings whose largest |t| over it
    and every measure less significant reaches its |t|, made monotone. Every labelling when there
    are at most `rounds` (an exact p); otherwise the observed one and `rounds` drawn at random
    from a generator seeded with `seed`, so the answer is reproducible.

    Two designs, each permuted at its own unit:

    * independent runs (`paired` False): under "the runs do not differ" every game is
      exchangeable with every other; a labelling deals the games between the runs again, each
      run keeping its number of games, and the statistic is Welch's t (`welch_t`).
    * the same seeds in both runs (`paired`: A's i-th game and B's i-th game, in the order of
      the rows, played one seed): a seed's two games share a deal, so they are not exchangeable
      with other seeds' games; the unit is the seed: a labelling swaps some seeds' two games, and
      the statistic is the paired t of the seeds' differences (`paired_t`)."""
    g, m = per_game.shape
    if m == 0:
        return np.zeros(0)
    fixed: int | None
    if paired:
        rows_a, rows_b = np.flatnonzero(in_a), np.flatnonzero(~in_a)
        if len(rows_a) != len(rows_b):
            raise ValueError(f"paired games need as many in A as in B (got {len(rows_a)} and {len(rows_b)})")
        d = per_game[rows_a] - per_game[rows_b]
        units, fixed, observed_labels = len(rows_a), None, np.ones((1, len(rows_a)), dtype=bool)
        enough, count = units >= 2, 2 ** units

        def statistic(labels: np.ndarray) -> np.ndarray:
            return paired_t(d, labels)
    else:
        units, fixed, observed_labels = g, int(in_a.sum()), in_a[None, :]
        enough, count = 2 <= fixed <= g - 2, math.comb(g, fixed)

        def statistic(labels: np.ndarray) -> np.ndarray:
            return welch_t(per_game, labels)
    if not enough:
        return np.ones(m)
    observed = np.abs(statistic(observed_labels))[0]
    order = np.argsort(observed)                # least significant first
    reach = np.zeros(m)
    if count <= rounds:
        chunks = [_every_labelling(units, fixed)]
        total = len(chunks[0])
    else:
        rng = np.random.default_rng(seed)
        sizes = [min(500, rounds - i) for i in range(0, rounds, 500)]
        chunks = [rng.random((size, units)) < 0.5 if fixed is None else rng.permuted(np.tile(in_a, (size, 1)), axis=1)
                  for size in sizes]
        total = rounds + 1
        reach += 1.0                             # the observed labelling counts as one of them
    for labels in chunks:
        running = np.maximum.accumulate(np.abs(statistic(labels))[:, order], axis=1)
        reach += (running >= observed[order] * (1 - 1e-12)).sum(axis=0)
    p = np.maximum.accumulate((reach / total)[::-1])[::-1]   # never below a more significant measure's
    out = np.empty(m)
    out[order] = p
    return out


def _every_labelling(units: int, fixed: int | None) -> np.ndarray:
    """Every labelling of `units` as rows of booleans: each choice of `fixed` of them, or (None)
    every subset."""
    sizes = [fixed] if fixed is not None else list(range(units + 1))
    rows = [c for k in sizes for c in itertools.combinations(range(units), k)]
    out = np.zeros((len(rows), units), dtype=bool)
    for row, c in enumerate(rows):
        out[row, list(c)] = True
    return out
