"""Statistics for batches of games: pure functions on lists of numbers, no dependencies.

- ``mean``, ``sd`` (sample, n - 1), ``quantile`` (linear interpolation between order
  statistics, numpy's default), ``describe`` (mean, sd, min, p25, median, p75, max);
- ``wilson`` the Wilson score interval for a proportion (good near 0 and 1 and for small n);
- ``proportion_test`` a one-sample z-test of a proportion against a value p0;
- ``paired_t`` the paired t-test on per-game differences (mean, 95% CI, t, p);
- the normal and Student t distributions (``normal_cdf``, ``t_cdf``, ``t_ppf``) computed with
  math.erfc and the regularised incomplete beta function (Numerical Recipes' continued fraction).
"""
from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054   # the 97.5% quantile of the standard normal


# ---------------------------------------------------------------------- descriptive
def mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def sd(xs: Sequence[float]) -> float | None:
    """The sample standard deviation (n - 1); 0.0 for one value, None for none."""
    n = len(xs)
    if n == 0:
        return None
    if n == 1:
        return 0.0
    m = sum(xs) / n
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))


def quantile(xs: Sequence[float], q: float) -> float | None:
    """The q-quantile (0 <= q <= 1), linear between order statistics (numpy's default, R type 7)."""
    if not xs:
        return None
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile q must be in [0, 1], got {q}")
    s = sorted(xs)
    h = (len(s) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def describe(xs: Sequence[float]) -> dict:
    """mean, sd, min, p25, median, p75, max of the values (all None when there are none)."""
    return {"mean": mean(xs), "sd": sd(xs), "min": min(xs) if xs else None,
            "p25": quantile(xs, 0.25), "median": quantile(xs, 0.5), "p75": quantile(xs, 0.75),
            "max": max(xs) if xs else None}


# ---------------------------------------------------------------------- distributions
def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 3e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(lbeta)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_ppf(p: float, df: float) -> float:
    """The p-quantile of Student's t (bisection on t_cdf; |error| < 1e-10)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"t_ppf needs 0 < p < 1, got {p}")
    if p == 0.5:
        return 0.0
    lo, hi = -1.0, 1.0
    while t_cdf(lo, df) > p:
        lo *= 2.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


# ---------------------------------------------------------------------- intervals and tests
def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for successes/n (successes may be fractional: shared wins)."""
    if n <= 0:
        return None
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    # the interval always holds p; rounding alone could put p = 0 a hair below its lower end
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def proportion_test(successes: float, n: int, p0: float) -> dict | None:
    """One-sample z-test of successes/n against p0 (two-sided), variance under the null.

    Returns {"rate", "expected", "diff", "z", "p"}."""
    if n <= 0 or not 0.0 < p0 < 1.0:
        return None
    rate = successes / n
    z = (rate - p0) / math.sqrt(p0 * (1 - p0) / n)
    return {"rate": rate, "expected": p0, "diff": rate - p0, "z": z, "p": 2.0 * (1.0 - normal_cdf(abs(z)))}


def paired_t(diffs: Sequence[float], level: float = 0.95) -> dict | None:
    """The paired t-test on per-pair differences (B - A): is the mean difference zero?

    Returns {"n", "mean", "sd", "ci": [lo, hi], "t", "p"}; with every difference equal the
    sd is 0: p is 1.0 when they are all 0 and 0.0 otherwise, and the CI is that one value."""
    n = len(diffs)
    if n < 2:
        return None
    m, s = mean(diffs), sd(diffs)
    assert m is not None and s is not None   # (n >= 2)
    if s == 0.0:
        return {"n": n, "mean": m, "sd": 0.0, "ci": [m, m], "t": None, "p": 1.0 if m == 0 else 0.0}
    se = s / math.sqrt(n)
    t = m / se
    df = n - 1
    q = t_ppf(1.0 - (1.0 - level) / 2.0, df)
    return {"n": n, "mean": m, "sd": s, "ci": [m - q * se, m + q * se], "t": t,
            "p": min(1.0, 2.0 * (1.0 - t_cdf(abs(t), df)))}
