"""Statistics for balance tables: intervals, seat-advantage tests, balance, paired differences.

Win counts here may be fractional: a game whose win is shared by k seats gives each of them 1/k
(METRICS.md). A per-game win share x lies in [0, 1], so its
variance E[x^2] - p^2 is at most the binomial p(1 - p). Every interval and test below that uses
the binomial variance is therefore conservative (never too narrow, p-values never too small)
when wins are shared, and exact in its usual large-sample sense when they are not.
"""
from __future__ import annotations

import numpy as np
from scipy import stats


def _z(confidence: float) -> float:
    """Two-sided normal quantile, e.g. 1.96 for 0.95."""
    return float(stats.norm.ppf(0.5 + confidence / 2))


def wilson(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for proportions, elementwise.

    The same interval as ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``, which
    takes one integer ``k`` at a time; this one is vectorised and takes fractional counts.

    Parameters
    ----------
    successes : array_like, shape (...)
        Success counts, 0 <= successes <= n; may be fractional (shared wins count 1/k).
    n : array_like, broadcastable with ``successes``
        Number of trials (games), > 0.
    confidence : float
        Coverage, 0.95 by default.

    Returns
    -------
    low, high : ndarray, the broadcast shape of ``successes`` and ``n``

    Notes
    -----
    With shared wins the interval is conservative (see the module docstring).
    """
    k, n = np.broadcast_arrays(np.asarray(successes, float), np.asarray(n, float))
    if np.any(n <= 0) or np.any(k < 0) or np.any(k > n * (1 + 1e-12)):
        raise ValueError("need 0 <= successes <= n and n > 0")
    z2 = _z(confidence) ** 2
    p = np.minimum(k / n, 1.0)
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = np.sqrt(z2 * p * (1 - p) / n + z2 * z2 / (4 * n * n)) / denom
    # Clip only float rounding at p = 0 or 1; the formula itself stays inside [0, 1].
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def proportion_ztest(successes, n, p0) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided score z-test of ``successes / n == p0``, elementwise.

    Parameters
    ----------
    successes, n, p0 : array_like, broadcastable, shape (...)
        Counts (fractional allowed), trials, and the null proportions (0 < p0 < 1).

    Returns
    -------
    z, p : ndarray, shape (...)
        The statistic (observed - p0) / sqrt(p0 (1 - p0) / n) and its two-sided normal p-value.
        With shared wins the null variance p0 (1 - p0) is an upper bound, so p is conservative.
    """
    k, n, p0 = (np.asarray(a, float) for a in (successes, n, p0))
    z = (k / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    return z, 2 * stats.norm.sf(np.abs(z))


def holm(p) -> np.ndarray:
    """Holm's step-down adjustment of p-values (family-wise error control).

    scipy.stats has only false-discovery-rate control (``false_discovery_control``), so Holm is
    written here: the i-th smallest of m p-values is multiplied by m - i (i from 0), then a running
    maximum keeps the adjusted values in the original order of significance, capped at 1.

    Parameters
    ----------
    p : array_like, shape (m,)
        Raw p-values; NaN entries are left NaN and do not count towards m.

    Returns
    -------
    ndarray, shape (m,)
        Adjusted p-values, in the input order.
    """
    p = np.asarray(p, float)
    order = np.argsort(p)  # NaN sorts last, so it never enters the running maximum of real ones
    m = np.count_nonzero(~np.isnan(p))
    scaled = (m - np.arange(p.size)) * p[order]
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(np.fmax.accumulate(scaled), 1.0)
    adjusted[np.isnan(p)] = np.nan
    return adjusted


def seat_advantage_test(wins, n_decided, fair=None) -> dict[str, np.ndarray]:
    """Test each seat's (or seat group's) share of the decided games against its fair share.

    Parameters
    ----------
    wins : array_like, shape (S,)
        Win shares summed over games (fractional when wins are shared); over the decided games
        (those with a winner) they sum to ``n_decided``.
    n_decided : float
        Games that somebody won. Games without a winner (capped, everyone routed) are left out:
        they are nobody's win and nobody's loss to a rival seat.
    fair : array_like, shape (S,), optional
        Null share per entry; default 1/S. A group of k seats out of N has fair share k/N.

    Returns
    -------
    dict of ndarray, each shape (S,)
        ``share`` (wins / n_decided), ``z``, ``p`` (two-sided, per entry) and ``p_holm``
        (Holm-adjusted over the S entries).

    Notes
    -----
    Per-seat z-tests use the binomial null variance fair (1 - fair) / n_decided: conservative when
    wins are shared. The S tests are not independent (shares sum to 1); Holm is valid under any
    dependence.
    """
    wins = np.asarray(wins, float)
    fair = np.full(wins.shape, 1 / wins.size) if fair is None else np.asarray(fair, float)
    z, p = proportion_ztest(wins, n_decided, fair)
    return {"share": wins / n_decided, "z": z, "p": p, "p_holm": holm(p)}


def uniformity_test(wins) -> tuple[float, float]:
    """One overall chi-square test that every seat wins equally often.

    Parameters
    ----------
    wins : array_like, shape (S,)
        Win shares per seat summed over the decided games.

    Returns
    -------
    chi2, p : float
        ``scipy.stats.chisquare`` against equal expected counts, S - 1 degrees of freedom.

    Notes
    -----
    The test treats each decided game as one multinomial draw of a single winner. A shared win
    splits that draw, which makes the seat counts less variable than multinomial: the
    statistic is then smaller than it would be, so the test is conservative.
    """
    result = stats.chisquare(np.asarray(wins, float))
    return float(result.statistic), float(result.pvalue)


def balance(win_rates, axis: int = -1) -> np.ndarray:
    """Ludii's balance: 1 - the largest gap between any two seats' win rates.

    Parameters
    ----------
    win_rates : array_like, shape (..., S)
        Win rate per seat (along ``axis``).

    Returns
    -------
    ndarray, shape (...)
        1 for a perfectly balanced game, 0 when one seat always wins.
    """
    rates = np.asarray(win_rates, float)
    return 1 - (rates.max(axis=axis) - rates.min(axis=axis))


def mean_interval(sums, sumsq, n, confidence: float = 0.95) -> dict[str, np.ndarray]:
    """Mean, sample sd and t-interval of the mean from running sums (as kept by a Summary).

    Parameters
    ----------
    sums, sumsq : array_like, shape (...)
        Sum and sum of squares of a per-game value.
    n : int
        Number of games (> 1).

    Returns
    -------
    dict of ndarray, each shape (...)
        ``mean``, ``sd`` (ddof=1), ``ci_low``, ``ci_high``.
    """
    sums, sumsq = np.asarray(sums, float), np.asarray(sumsq, float)
    mean = sums / n
    sd = np.sqrt(np.maximum(sumsq - n * mean * mean, 0) / (n - 1))
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * sd / np.sqrt(n)
    return {"mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half}


def paired_difference(a, b, confidence: float = 0.95) -> dict[str, float]:
    """Mean paired difference a - b of two variants played on the same seeds.

    With common random numbers (the same game_id gets the same deal and the same random
    streams in both variants) most chance cancels in a - b, so this interval is usually much
    narrower than the one for two independent batches of the same size.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        One value per game (e.g. a win share or the game length), aligned by game_id.
    confidence : float

    Returns
    -------
    dict
        ``n``, ``mean_a``, ``mean_b``, ``diff`` (mean of a - b), ``ci_low``, ``ci_high``
        (t-interval from ``scipy.stats.ttest_rel``) and ``p`` (paired t-test of diff == 0).
        NaN interval and p when every difference is equal (nothing varies). Also what the
        pairing bought: ``corr``, the correlation of a and b per game (NaN when one side never
        varies), and ``unpaired_half``, the half-width two independent batches of this size
        would give (the paired half-width is about ``unpaired_half * sqrt(1 - corr)``).
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape or a.ndim != 1 or a.size < 2:
        raise ValueError(f"need two aligned 1-d samples of 2+ games, got shapes {a.shape}, {b.shape}")
    with np.errstate(divide="ignore", invalid="ignore"):
        corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else np.nan
    unpaired = float(stats.norm.ppf(0.5 + confidence / 2)
                     * np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size))
    out = {"n": a.size, "mean_a": a.mean(), "mean_b": b.mean(), "diff": (a - b).mean(),
           "ci_low": np.nan, "ci_high": np.nan, "p": np.nan, "corr": corr,
           "unpaired_half": unpaired}
    if np.ptp(a - b) == 0:  # no spread: the t statistic is undefined (scipy would warn)
        return out
    result = stats.ttest_rel(a, b)
    ci = result.confidence_interval(confidence)
    return {**out, "ci_low": float(ci.low), "ci_high": float(ci.high), "p": float(result.pvalue)}


def paired_where_both(a, b, confidence: float = 0.95) -> dict[str, float]:
    """:func:`paired_difference` over the games where both values exist (a metric that is
    defined only in some games, e.g. the win of the seats dealt a card: NaN elsewhere); all NaN
    when fewer than two games have both."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    both = ~(np.isnan(a) | np.isnan(b))
    if both.sum() < 2:
        return {"n": int(both.sum()), "mean_a": np.nan, "mean_b": np.nan, "diff": np.nan,
                "ci_low": np.nan, "ci_high": np.nan, "p": np.nan, "corr": np.nan,
                "unpaired_half": np.nan}
    return paired_difference(a[both], b[both], confidence)


def wilson_or_nan(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilson`, but NaN (not an error) where n is 0: a group with no games has no rate."""
    k, n = np.broadcast_arrays(np.asarray(successes, float), np.asarray(n, float))
    low, high = np.full(k.shape, np.nan), np.full(k.shape, np.nan)
    some = n > 0
    if np.any(some):
        low[some], high[some] = wilson(k[some], n[some], confidence)
    return low, high


def newcombe_difference(k1, n1, k2, n2, confidence: float = 0.95) -> dict[str, np.ndarray]:
    """Difference p1 - p2 of two proportions from independent samples, with Newcombe's interval.

    Newcombe's hybrid score interval (method 10 of Newcombe 1998, "Interval estimation for the
    difference between independent proportions") combines the two :func:`wilson` intervals;
    it stays inside [-1, 1] and keeps its coverage near 0 and 1, where the Wald interval fails.
    Use it for two disjoint groups of games of one batch, e.g. games in which a seat held a card
    against games in which it never saw it (IWD).

    Parameters
    ----------
    k1, n1, k2, n2 : array_like, broadcastable
        Successes (fractional allowed) and trials of each sample. A sample with n = 0 gives NaN.

    Returns
    -------
    dict of ndarray
        ``diff``, ``ci_low``, ``ci_high``.
    """
    k1, n1, k2, n2 = np.broadcast_arrays(*(np.asarray(a, float) for a in (k1, n1, k2, n2)))
    l1, u1 = wilson_or_nan(k1, n1, confidence)
    l2, u2 = wilson_or_nan(k2, n2, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = np.where(n1 > 0, k1 / n1, np.nan), np.where(n2 > 0, k2 / n2, np.nan)
    diff = p1 - p2
    return {"diff": diff, "ci_low": diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            "ci_high": diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)}
