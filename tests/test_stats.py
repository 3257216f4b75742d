"""interpreter.play.simulation.stats: known values (checked against scipy / textbook figures, hard-coded here)."""
import math

import pytest

from interpreter.play.simulation import stats


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol


def test_mean_sd_quantiles():
    xs = [2, 4, 4, 4, 5, 5, 7, 9]
    assert stats.mean(xs) == 5
    assert close(stats.sd(xs), math.sqrt(32 / 7))          # sample sd (n - 1)
    assert stats.quantile([1, 2, 3, 4], 0.25) == 1.75      # numpy's default (linear)
    assert stats.quantile([1, 2, 3, 4], 0.5) == 2.5
    assert stats.quantile([7], 0.9) == 7
    d = stats.describe([3, 1, 2, 5, 4])
    assert d == {"mean": 3, "sd": d["sd"], "min": 1, "p25": 2, "median": 3, "p75": 4, "max": 5}
    assert close(d["sd"], math.sqrt(2.5))


def test_empty_and_single():
    assert stats.mean([]) is None and stats.sd([]) is None and stats.quantile([], 0.5) is None
    assert stats.sd([4]) == 0.0
    assert stats.describe([])["median"] is None
    with pytest.raises(ValueError):
        stats.quantile([1, 2], 1.5)


def test_wilson_known_values():
    lo, hi = stats.wilson(8, 10)
    assert close(lo, 0.4901624715, 1e-9) and close(hi, 0.9433178485, 1e-9)
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and close(hi, 0.2775327999, 1e-9)
    lo, hi = stats.wilson(10, 10)
    assert close(lo, 0.7224672001, 1e-9) and hi <= 1.0
    lo, hi = stats.wilson(2.5, 10)       # fractional successes (shared wins) are accepted
    assert lo < 0.25 < hi
    assert stats.wilson(1, 0) is None


def test_wilson_interval_always_holds_the_rate():
    """Rounding once put a rate of 0 below its interval (0 of 3: lower end 5.6e-17), which broke
    the error bars of a plot."""
    for n in range(1, 200):
        for k in (0, n / 3, n / 2, n):
            lo, hi = stats.wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0, (k, n, lo, hi)


def test_normal_and_t_distributions():
    assert close(stats.normal_cdf(1.959963984540054), 0.975, 1e-12)
    assert close(stats.t_cdf(2.0, 5), 0.9490302605850708, 1e-12)
    assert close(stats.t_cdf(-1.3, 3), 0.14223375436394853, 1e-12)
    assert close(stats.t_ppf(0.975, 9), 2.262157162798205, 1e-9)
    assert close(stats.t_ppf(0.975, 1000), 1.9623390808264083, 1e-9)
    assert close(stats.t_ppf(0.025, 4), -2.7764451051977943, 1e-9)
    assert stats.t_ppf(0.5, 7) == 0.0


def test_proportion_test():
    r = stats.proportion_test(30, 100, 0.25)
    assert close(r["z"], 1.1547005383792512, 1e-12)
    assert close(r["p"], 0.24821307898992373, 1e-9)
    assert stats.proportion_test(5, 0, 0.5) is None


def test_paired_t_matches_scipy():
    r = stats.paired_t([1.0, 2.0, -0.5, 3.0, 0.5, 1.5])
    # scipy.stats.ttest_1samp(d, 0): statistic 2.521097420448054, pvalue 0.05310349175179786,
    # confidence_interval (-0.024535156191756, 2.524535156191756)
    assert close(r["t"], 2.521097420448054, 1e-12)
    assert close(r["p"], 0.05310349175179786, 1e-9)
    assert close(r["ci"][0], -0.024535156191756, 1e-9) and close(r["ci"][1], 2.524535156191756, 1e-9)
    assert r["n"] == 6 and r["mean"] == 1.25


def test_paired_t_degenerate():
    assert stats.paired_t([1.0]) is None
    r = stats.paired_t([0, 0, 0])
    assert r["p"] == 1.0 and r["ci"] == [0, 0]
    r = stats.paired_t([2, 2, 2])
    assert r["p"] == 0.0 and r["mean"] == 2
