"""analysis.stats against scipy and against hand-computed values on constructed inputs."""
import numpy as np
import pytest
from scipy import stats

from analysis.stats import (balance, holm, mean_interval, paired_difference, proportion_ztest,
                            seat_advantage_test, uniformity_test, wilson)


@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_wilson_matches_scipy_binomtest(confidence):
    cases = [(0, 10), (1, 10), (3, 10), (10, 10), (0, 1), (1, 1), (517, 2000), (49_990, 100_000)]
    k, n = np.array(cases).T
    low, high = wilson(k, n, confidence)
    for i, (ki, ni) in enumerate(cases):
        ci = stats.binomtest(int(ki), int(ni)).proportion_ci(confidence, method="wilson")
        assert low[i] == pytest.approx(ci.low, abs=1e-12)
        assert high[i] == pytest.approx(ci.high, abs=1e-12)


def test_wilson_broadcasts_and_takes_fractional_wins():
    low, high = wilson(np.array([[2.0, 2.5, 3.0]]), np.array([[10], [20]]))
    assert low.shape == high.shape == (2, 3)
    # A fractional count sits between its integer neighbours, bound by bound.
    assert low[0, 0] < low[0, 1] < low[0, 2]
    assert high[0, 0] < high[0, 1] < high[0, 2]
    assert np.all(low[1] < low[0])  # same count of more games: lower rate


def test_wilson_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson(11, 10)
    with pytest.raises(ValueError):
        wilson(1, 0)


def test_holm_on_constructed_p_values():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])  # capped at 1
    with_nan = holm([0.01, np.nan, 0.02])  # NaN is not a test: m = 2
    np.testing.assert_allclose(with_nan[[0, 2]], [0.02, 0.02])
    assert np.isnan(with_nan[1])


def test_balance_is_one_minus_largest_gap():
    assert balance([0.25, 0.25, 0.25, 0.25]) == pytest.approx(1.0)
    assert balance([0.4, 0.2, 0.2, 0.2]) == pytest.approx(0.8)
    np.testing.assert_allclose(balance([[0.5, 0.5], [1.0, 0.0]]), [1.0, 0.0])


def test_ztest_and_seat_advantage_on_constructed_counts():
    z, p = proportion_ztest(60, 100, 0.5)  # (0.6 - 0.5) / sqrt(0.25 / 100) = 2
    assert z == pytest.approx(2.0)
    assert p == pytest.approx(2 * stats.norm.sf(2.0))
    fair = seat_advantage_test([25, 25, 25, 25], 100)
    np.testing.assert_allclose(fair["z"], 0)
    np.testing.assert_allclose(fair["p_holm"], 1)
    skewed = seat_advantage_test([400, 200, 200, 200], 1000)
    assert skewed["share"][0] == pytest.approx(0.4)
    assert skewed["p_holm"][0] < 1e-20 and skewed["z"][0] > 0
    assert np.all(skewed["p_holm"] >= skewed["p"])


def test_uniformity_test_on_constructed_counts():
    assert uniformity_test([25, 25, 25, 25])[1] == pytest.approx(1.0)
    chi2, p = uniformity_test([40, 20, 20, 20])  # (15^2 + 3 * 5^2) / 25 = 12
    assert chi2 == pytest.approx(12.0)
    assert p == pytest.approx(stats.chi2.sf(12.0, 3))


def test_mean_interval_from_sums_matches_the_samples():
    x = np.random.default_rng(1).integers(0, 9, size=500).astype(float)
    got = mean_interval(x.sum(), (x * x).sum(), x.size)
    low, high = stats.t.interval(0.95, x.size - 1, loc=x.mean(), scale=stats.sem(x))
    assert got["mean"] == pytest.approx(x.mean())
    assert got["sd"] == pytest.approx(x.std(ddof=1))
    assert (got["ci_low"], got["ci_high"]) == (pytest.approx(low), pytest.approx(high))


def test_paired_difference_uses_the_pairing():
    rng = np.random.default_rng(2)
    shared = rng.normal(0, 10, 2000)  # common random numbers: large shared noise
    a, b = shared + 0.5 + rng.normal(0, 0.1, 2000), shared
    result = paired_difference(a, b)
    assert result["diff"] == pytest.approx(0.5, abs=0.02)
    assert result["ci_low"] < result["diff"] < result["ci_high"]
    assert result["ci_high"] - result["ci_low"] < 0.05  # unpaired it would be ~ +-0.6
    assert result["p"] < 1e-10
    same = paired_difference(b, b)
    assert same["diff"] == 0 and np.isnan(same["p"])
    with pytest.raises(ValueError):
        paired_difference(a, b[:-1])
