"""The statistics of the report, written out so they need nothing beyond numpy.

* Wilson score interval for a proportion (Wilson 1927): good coverage even near 0 or 1 and
  for small samples, unlike the normal ("Wald") interval.
* Newcombe's hybrid score interval for a difference of two independent proportions
  (Newcombe 1998, method 10), built from the two Wilson intervals.
* The exact two-sided binomial test (the "minimum likelihood" p-value: the total probability
  of every outcome no more likely than the one observed), as in R's binom.test.
"""

from __future__ import annotations

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
