"""Adaptive sample size: play more games until every headline rate is as precise as asked.

The batch grows in steps, each step playing the next games of the same seed
(``simulate(..., first_game=n)``), so after any number of steps the batch is exactly games
0..n-1 of the seed: the same table a single ``simulate(n_games=n)`` gives. The size of the next
step depends only on the games played so far, so the same seed and precision always give the
same n and the same table.

Every workbench command can keep its work in a run folder (``run_dir``, CLI ``--run-dir``): each
batch it plays gets a sub-folder named by a digest of its request, where ``simulate`` keeps the
batch's finished chunks (sim.checkpoint). A sweep, ablation or tuning run that is killed resumes
when the same command runs again: finished batches load from disk, a half-played one resumes at
its last finished chunk, and the table is identical to an uninterrupted run.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pandas as pd

from sim.errors import RunError
from sim.results import Results
from sim.checkpoint import RunDir
from sim.games import get_game
from sim.runner import as_rules, run_inputs, simulate
from sim.strategy import resolve_seats

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
                     run_dir=None, on_step=None, **options) -> Results:
    """Play games 0..n-1 of ``seed`` with the smallest n on the growth schedule at which every
    headline rate's 95% half-width is at most ``precision`` percentage points (or n reaches
    ``max_games``).

    Returns Results whose provenance adds ``precision_pp``, ``precision_met`` and ``steps``
    (the batch sizes tried). ``options`` go to every ``simulate`` step (jobs, backend, stream,
    chunk_size...). ``run_dir``: a folder that keeps every step's chunks (one sub-folder per
    step), so that a killed run resumes where it stopped. ``on_step(games, max_games)`` is called
    after each step (progress outside a terminal: the MCP server's notifications).
    """
    check_precision(precision, max_games)
    spec = get_game(game)
    rules = as_rules(spec, rules)
    n, parts, summary, first, steps = 0, [], None, None, []
    target = min(FIRST_STEP, max_games)
    while True:
        step_dir = None if run_dir is None else Path(run_dir) / f"games-{n}-{target}"
        part = simulate(spec, rules, strategies, target - n, seed, progress=progress,
                        first_game=n, run_dir=step_dir, **options)
        first = first or part
        summary = part.summary if summary is None else summary + part.summary
        if part.records is not None:
            parts.append(part.records)
        n = target
        steps.append(n)
        row = M.headline(summary)
        met = M.precision_reached(row, spec, rules.n_seats, precision)
        if on_step is not None:
            on_step(n, max_games)
        if met or n >= max_games:
            break
        target = next_size(row, spec, rules.n_seats, precision, max_games)
    provenance = {**first.provenance, "n_games": n, "precision_pp": float(precision),
                  "precision_met": bool(met), "steps": steps}
    provenance.pop("first_game", None)
    records = pd.concat(parts, ignore_index=True) if parts else None
    return Results(provenance, summary, records)


def run_batch(game, rules, strategies, n_games: int | None, seed: int, *, precision=None,
              max_games=None, jobs: int = 1, stream: bool = True, run_dir=None) -> Results:
    """One batch at a fixed size, or grown to a precision when ``precision`` is given: the one
    entry point of every workbench command. ``run_dir``: the command's run folder (see
    :func:`open_run`); the batch keeps its chunks in a sub-folder of it."""
    folder = None
    if run_dir is not None:
        spec = get_game(game)
        rules = as_rules(spec, rules)
        request = {"game": spec.name, "variant": rules.to_dict(), "seed": int(seed),
                   "strategies": list(resolve_seats(spec, strategies, rules.n_seats).labels),
                   "n_games": n_games, "precision": precision, "max_games": max_games,
                   "stream": bool(stream)}
        digest = hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode())
        folder = Path(run_dir) / f"batch-{digest.hexdigest()[:20]}"
    if precision is not None:
        return simulate_precise(game, rules, strategies, precision, seed,
                                max_games=max_games or DEFAULT_MAX_GAMES, jobs=jobs,
                                backend="threading", stream=stream, run_dir=folder)
    return simulate(game, rules, strategies, n_games, seed, jobs=jobs, backend="threading",
                    stream=stream, progress=False, run_dir=folder)


def open_run(run_dir, command: str, spec, rules, strategies, **settings) -> Path | None:
    """The run folder of one workbench command, or None when none was asked for. Its manifest
    holds the command's request (``settings``: everything else that shapes its result), so that
    running another command against it is refused (sim.checkpoint.RunDir), and so is a run whose
    input files (policy files, data files, agents' modules) were edited since; the batches keep
    their chunks in sub-folders."""
    if run_dir is None:
        return None
    seats = resolve_seats(spec, strategies, rules.n_seats)
    request = {"command": command, "game": spec.name, "variant": rules.to_dict(),
               "strategies": list(seats.labels), **settings, **run_inputs(rules, seats)}
    return RunDir(run_dir, json.loads(json.dumps(request, sort_keys=True, default=str))).path
