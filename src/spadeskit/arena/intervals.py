"""Exact intervals and tests for win rates: Clopper-Pearson and the sign test.

Pure Python (no SciPy): the binomial distribution summed directly and its inverse found
by bisection.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def clopper_pearson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Return the exact (Clopper-Pearson) ``level`` interval of a binomial proportion.

    >>> low, high = clopper_pearson(55, 100)
    >>> round(low, 3), round(high, 3)
    (0.447, 0.65)
    """
    if trials <= 0:
        return 0.0, 1.0
    alpha = 1 - level

    def tail_at_least(p: float) -> float:
        return 1 - _binomial_cdf(successes - 1, trials, p) if successes > 0 else 1.0

    def tail_at_most(p: float) -> float:
        return _binomial_cdf(successes, trials, p)

    low = (
        0.0 if successes == 0 else _bisect(lambda p: tail_at_least(p) - alpha / 2, increasing=True)
    )
    high = (
        1.0
        if successes == trials
        else _bisect(lambda p: tail_at_most(p) - alpha / 2, increasing=False)
    )
    return low, high


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """Return P(X <= k) for X ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p <= 0:
        return 1.0
    if p >= 1:
        return 0.0
    logp, logq = math.log(p), math.log1p(-p)
    total = 0.0
    for i in range(k + 1):
        total += math.exp(
            math.lgamma(n + 1)
            - math.lgamma(i + 1)
            - math.lgamma(n - i + 1)
            + i * logp
            + (n - i) * logq
        )
    return min(1.0, total)


def _bisect(f: Callable[[float], float], increasing: bool) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        value = f(mid)
        if (value < 0) == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def sign_test(plus: int, minus: int) -> float:
    """Return the two-sided p-value of a sign test (ties already dropped).

    >>> round(sign_test(60, 40), 4)
    0.0569
    """
    n = plus + minus
    if n == 0:
        return 1.0
    return min(1.0, 2 * _binomial_cdf(min(plus, minus), n, 0.5))
