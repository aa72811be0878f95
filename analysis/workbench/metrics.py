"""Headline metrics of a batch, for every game, from the cross-game table contract.

Every game's records start with length, end reason and winners (sim/game.py), so these
metrics exist for every registered game, including games added later:

- ``win_<s>``: seat s's win rate (a shared win counts 1/k), Wilson interval;
- ``first_seat_advantage``: seat 0's win rate minus its fair share of the decided games
  (decided share / N); per game it is ``win_0 - decided / N``, so its interval is the normal
  interval of a mean, from the Summary's sums of squares;
- ``decided``: share of games somebody won, Wilson interval;
- ``<end>`` for each end reason in the game's ``GameSpec.headline_ends`` (Parthian: ``victory``,
  the team's win), Wilson interval;
- ``<length>_mean`` (``rounds_mean``): mean game length, t-interval.

All but the length are *rates*: :func:`precision_reached` asks every rate's 95% half-width to be
at most the requested number of percentage points. :func:`per_game` gives the same metrics one
value per game (for paired differences on common random numbers).
"""
from __future__ import annotations


import numpy as np
import pandas as pd
from scipy import stats

from sim.games import get_game
from sim.results import Summary

from ..stats import mean_interval, wilson
from ..studies import study_of

Z95 = float(stats.norm.ppf(0.975))


def metric_names(game, n_seats: int) -> list[str]:
    """Headline metric names of a game at a seat count, rates first, the mean length last."""
    spec = get_game(game)
    return [*rate_names(spec, n_seats), f"{spec.length_name}_mean"]


def rate_names(game, n_seats: int) -> list[str]:
    spec = get_game(game)
    return [*(f"win_{s}" for s in range(n_seats)), "first_seat_advantage", "decided",
            *spec.headline_ends]


def primary_metric(game) -> str:
    """The metric a plot shows by default: the game's first headline end, else the first-seat
    advantage."""
    spec = get_game(game)
    return spec.headline_ends[0] if spec.headline_ends else "first_seat_advantage"


def headline(summary: Summary, confidence: float = 0.95) -> dict:
    """{metric: estimate, metric_low, metric_high} plus n_games, for one batch's Summary."""
    spec = get_game(summary.game)
    n, seats = summary.n_games, summary.n_seats
    row: dict = {"n_games": n}
    z = float(stats.norm.ppf(0.5 + confidence / 2))

    def rate(name, count):
        low, high = wilson(count, n, confidence)
        row.update({name: count / n, f"{name}_low": float(low), f"{name}_high": float(high)})

    for s in range(seats):
        rate(f"win_{s}", float(summary.win_sums[s]))
    decided = float(round(summary.win_sums.sum(), 6))
    # x = w0 - d/N per game; w0 > 0 only in decided games, so E[w0 d] = E[w0].
    mean = (summary.win_sums[0] - decided / seats) / n
    second = (summary.win_sumsq[0] - 2 * summary.win_sums[0] / seats + decided / seats ** 2) / n
    variance = max(second - mean * mean, 0.0) * n / max(n - 1, 1)   # sample variance (ddof=1)
    half = z * np.sqrt(variance / n)
    row.update({"first_seat_advantage": mean, "first_seat_advantage_low": mean - half,
                "first_seat_advantage_high": mean + half})
    rate("decided", min(decided, n))
    for end in spec.headline_ends:
        rate(end, float(summary.end_counts[summary.end_labels.index(end)]))
    i = summary.columns.index(summary.length_name)
    length = mean_interval(summary.sums[i], summary.sumsq[i], n, confidence) if n > 1 else \
        {"mean": summary.sums[i] / n, "ci_low": np.nan, "ci_high": np.nan}
    name = f"{summary.length_name}_mean"
    row.update({name: float(length["mean"]), f"{name}_low": float(length["ci_low"]),
                f"{name}_high": float(length["ci_high"])})
    return row


def half_widths(row: dict, game, n_seats: int) -> dict[str, float]:
    """95% half-width of every headline rate of a :func:`headline` row, in proportion units."""
    return {m: (row[f"{m}_high"] - row[f"{m}_low"]) / 2 for m in rate_names(game, n_seats)}


def precision_reached(row: dict, game, n_seats: int, precision_pp: float) -> bool:
    return max(half_widths(row, game, n_seats).values()) <= precision_pp / 100 + 1e-12


def games_needed(row: dict, game, n_seats: int, precision_pp: float) -> int:
    """Games that would bring every rate's half-width to the target, from this row's estimates
    (the normal approximation: n = n_now * (half-width now / target)^2)."""
    target = precision_pp / 100
    worst = max(half_widths(row, game, n_seats).values())
    return int(np.ceil(row["n_games"] * (worst / target) ** 2))


def per_game(records: pd.DataFrame, game, n_seats: int) -> dict[str, np.ndarray]:
    """Every headline metric as one value per game (a records frame from sim.results), then
    the metrics the game's study declares (``game_metrics(records, n_seats)`` in
    ``analysis.studies.<game>``: a side's or team's win rate, ...)."""
    spec = get_game(game)
    wins = np.column_stack([records[f"win_{s}"].to_numpy(float) for s in range(n_seats)])
    decided = wins.sum(axis=1)
    values = {f"win_{s}": wins[:, s] for s in range(n_seats)}
    values["first_seat_advantage"] = wins[:, 0] - decided / n_seats
    values["decided"] = decided
    for end in spec.headline_ends:
        values[end] = (records["end_reason"] == end).to_numpy(float)
    values[f"{spec.length_name}_mean"] = records[spec.length_name].to_numpy(float)
    declared = study_of(spec.name).metrics
    if declared is not None:
        values.update(declared(records, n_seats))
    return values


def declares_metrics(game) -> bool:
    """True when the game's study declares per-game metrics (read from the per-game records, so
    a batch that needs them keeps its records)."""
    return study_of(get_game(game).name).metrics is not None


def measured(results, game, n_seats: int, confidence: float = 0.95) -> dict:
    """:func:`headline`, plus the study's declared metrics as means with t-intervals when the
    batch kept its records: the row every workbench command reads its metrics from."""
    row = headline(results.summary, confidence)
    declared = study_of(get_game(game).name).metrics
    if results.records is None or declared is None:
        return row
    t = float(stats.t.ppf(0.5 + confidence / 2, max(len(results.records) - 1, 1)))
    for name, values in declared(results.records, n_seats).items():
        values = np.asarray(values, float)
        values = values[~np.isnan(values)]
        mean = float(values.mean()) if values.size else np.nan
        half = t * float(values.std(ddof=1)) / np.sqrt(values.size) if values.size > 1 else np.nan
        row.update({name: mean, f"{name}_low": mean - half, f"{name}_high": mean + half})
    return row

