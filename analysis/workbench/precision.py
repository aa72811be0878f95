"""Adaptive sample size: play more games until every headline rate is as precise as asked.

The batch grows in steps, each step playing the next games of the same seed
(``simulate(..., first_game=n)``), so after any number of steps the batch is exactly games
0..n-1 of the seed: the same table a single ``simulate(n_games=n)`` gives. The size of the next
step depends only on the games played so far, so the same seed and precision always give the
same n and the same table.
"""
from __future__ import annotations

import math

import pandas as pd

from sim.errors import RunError
from sim.results import Results
from sim.runner import as_rules, simulate
from sim.game import get_game

from . import metrics as M

FIRST_STEP = 1_000       # games in the first step; every n is a multiple of it
DEFAULT_MAX_GAMES = 10_000_000
MAX_GROWTH = 8           # a step at most multiplies n by this (early estimates are rough)


def check_precision(precision: float | None, max_games: int | None) -> None:
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, (int, float))
                                  or not 0 < precision <= 50):
        raise RunError(f"precision must be a number of percentage points in (0, 50], got {precision!r}")
    if max_games is not None and (isinstance(max_games, bool) or not isinstance(max_games, int)
                                  or max_games < FIRST_STEP):
        raise RunError(f"max games must be an integer >= {FIRST_STEP}, got {max_games!r}")


def next_size(row: dict, game, n_seats: int, precision: float, max_games: int) -> int:
    """The batch size after this step: the estimate of what is needed, at least double (so the
    number of steps stays logarithmic), at most MAX_GROWTH times, on the FIRST_STEP grid."""
    n = row["n_games"]
    wanted = M.games_needed(row, game, n_seats, precision)
    grown = min(max(wanted, 2 * n), MAX_GROWTH * n)
    return min(max_games, FIRST_STEP * math.ceil(grown / FIRST_STEP))


def simulate_precise(game, rules=None, strategies="random", precision: float = 1.0, seed: int = 0,
                     *, max_games: int = DEFAULT_MAX_GAMES, progress: bool | None = False,
                     **options) -> Results:
    """Play games 0..n-1 of ``seed`` with the smallest n on the growth schedule at which every
    headline rate's 95% half-width is at most ``precision`` percentage points (or n reaches
    ``max_games``).

    Returns Results whose provenance adds ``precision_pp``, ``precision_met`` and ``steps``
    (the batch sizes tried). ``options`` go to every ``simulate`` step (jobs, backend, stream,
    chunk_size...).
    """
    check_precision(precision, max_games)
    spec = get_game(game)
    rules = as_rules(spec, rules)
    n, parts, summary, first, steps = 0, [], None, None, []
    target = min(FIRST_STEP, max_games)
    while True:
        part = simulate(spec, rules, strategies, target - n, seed, progress=progress,
                        first_game=n, **options)
        first = first or part
        summary = part.summary if summary is None else summary + part.summary
        if part.records is not None:
            parts.append(part.records)
        n = target
        steps.append(n)
        row = M.headline(summary)
        met = M.precision_reached(row, spec, rules.n_seats, precision)
        if met or n >= max_games:
            break
        target = next_size(row, spec, rules.n_seats, precision, max_games)
    provenance = {**first.provenance, "n_games": n, "precision_pp": float(precision),
                  "precision_met": bool(met), "steps": steps}
    provenance.pop("first_game", None)
    records = pd.concat(parts, ignore_index=True) if parts else None
    return Results(provenance, summary, records)


def run_batch(game, rules, strategies, n_games: int | None, seed: int, *, precision=None,
              max_games=None, jobs: int = 1, stream: bool = True) -> Results:
    """One batch at a fixed size, or grown to a precision when ``precision`` is given: the one
    entry point of every workbench command."""
    if precision is not None:
        return simulate_precise(game, rules, strategies, precision, seed,
                                max_games=max_games or DEFAULT_MAX_GAMES, jobs=jobs,
                                backend="threading", stream=stream)
    return simulate(game, rules, strategies, n_games, seed, jobs=jobs, backend="threading",
                    stream=stream, progress=False)
