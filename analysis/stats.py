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


class ConfidenceSequence:
    """A 95% interval for the mean of independent observations in [low, high] that stays valid
    however often it is read: the chance that it ever excludes the mean, at any of the
    infinitely many looks, is at most ``alpha``. A fixed-sample interval read after every batch
    and acted on when it first excludes zero is wrong far more often than 5%.

    Waudby-Smith & Ramdas (2023, JRSSB), "Estimating means of bounded random variables by
    betting", Theorem 2: the predictable plug-in empirical-Bernstein confidence sequence. With
    x scaled to [0, 1], predictable bets lambda_i in [0, 1) and v_i = 4 (x_i - m_{i-1})^2, both
    exp(sum lambda_i (x_i - mu) - v_i psi(lambda_i)) and its mirror in 1 - x are nonnegative
    supermartingales (Fan et al.'s inequality), so by Ville's inequality, at alpha / 2 each,

        mu in  sum(lambda x) / sum(lambda)  +-  (log(2 / alpha) + sum(v psi(lambda))) / sum(lambda)

    at every t at once, psi(l) = (-log(1 - l) - l) / 4. Any predictable bets keep it valid; the
    paper's choice, lambda_t = min(sqrt(2 log(2/alpha) / (s2_{t-1} t log(1 + t))), 1/2) with
    running estimates m and s2 of the mean and variance, adapts its width to the variance, so
    paired games whose differences are mostly 0 get a narrow interval. Given the half-width the
    caller wants (``target``, on the observations' scale), the bets aim at it instead: the
    bound's half-width near t observations is about log(2/alpha) / (t lambda) + s2 lambda / 2,
    which lambda = target / s2 brings to ``target`` after 2 log(2/alpha) s2 / target^2
    observations, about 1.4 times the fixed-sample interval's width there (the log schedule is
    about 3 times as wide at 10^5 observations). Past that point the bets shrink as
    sqrt(2 log(2/alpha) / (s2 t)), so the interval keeps narrowing. The running intersection
    of the intervals is kept (still valid, never wider). Only running sums are stored: constant
    memory for any number of observations, and the same result for the same observations in
    the same order however they are batched.
    """

    CAP = 0.5

    def __init__(self, low: float, high: float, alpha: float = 0.05,
                 target: float | None = None):
        if not high > low:
            raise ValueError(f"need low < high, got [{low}, {high}]")
        if target is not None and not target > 0:
            raise ValueError(f"the target half-width must be positive, got {target}")
        self.low, self.high, self.alpha = float(low), float(high), float(alpha)
        self.target = None if target is None else float(target) / (self.high - self.low)
        self.n = 0
        self._sum = self._squares = 0.0          # of x, and of (x_i - m_i)^2
        self._bets = self._bet_x = self._penalty = 0.0
        self._lo, self._hi = 0.0, 1.0            # the running intersection, on [0, 1]

    def update(self, values) -> None:
        """Add observations, in their order (a ValueError if one lies outside [low, high])."""
        y = np.asarray(values, float).ravel()
        if y.size == 0:
            return
        if np.isnan(y).any() or y.min() < self.low or y.max() > self.high:
            raise ValueError(f"an observation lies outside [{self.low:g}, {self.high:g}]")
        x = (y - self.low) / (self.high - self.low)
        t0, i = self.n, self.n + np.arange(1, y.size + 1, dtype=float)
        means = (0.5 + self._sum + np.cumsum(x)) / (i + 1)
        squares = self._squares + np.cumsum((x - means) ** 2)
        variances = (0.25 + squares) / (i + 1)
        # the estimates before each observation: what a bet on it may depend on
        mean_before = np.concatenate([[(0.5 + self._sum) / (t0 + 1)], means[:-1]])
        var_before = np.concatenate([[(0.25 + self._squares) / (t0 + 1)], variances[:-1]])
        log_term = np.log(2 / self.alpha)
        if self.target is None:
            bets = np.sqrt(2 * log_term / (var_before * i * np.log1p(i)))
        else:
            bets = np.minimum(self.target / var_before, np.sqrt(2 * log_term / (var_before * i)))
        bets = np.minimum(bets, self.CAP)
        penalty = 4 * (x - mean_before) ** 2 * (-np.log1p(-bets) - bets) / 4
        self.n += y.size
        self._sum += float(x.sum())
        self._squares = float(squares[-1])
        self._bets += float(bets.sum())
        self._bet_x += float((bets * x).sum())
        self._penalty += float(penalty.sum())
        centre = self._bet_x / self._bets
        half = (log_term + self._penalty) / self._bets
        self._lo, self._hi = max(self._lo, centre - half), min(self._hi, centre + half)

    def interval(self) -> tuple[float, float, float]:
        """(mean, low, high) on the observations' own scale; NaN before the first one."""
        if self.n == 0:
            return (np.nan, np.nan, np.nan)
        scale = self.high - self.low
        mean = self.low + scale * self._sum / self.n
        low, high = self._lo, self._hi
        if low > high:   # the running intersection emptied: a (rare) miss; show the point
            low = high = min(max(self._sum / self.n, high), low)
        return (mean, self.low + scale * low, self.low + scale * high)
