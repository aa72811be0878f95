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

A caller that may be stopped (the MCP server's tools: a client cancels) passes ``should_stop``,
asked between batches, and gets bounded steps: every step is then played in pieces of about
``PIECE_SECONDS`` each (:func:`play_pieces`), which changes nothing in the games or the table,
only how long a stop waits. ``keep_records=False`` keeps no per-game table: each piece is folded
into running sums (the Summary, and the study's declared metrics in :class:`Folded`) and
dropped, so a long batch holds a bounded amount of memory; :func:`measured` reads those sums.
"""
from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from sim.errors import RunError
from sim.results import Results
from sim.checkpoint import RunDir
from sim.games import get_game
from sim.runner import as_rules, run_inputs, simulate
from sim.strategy import resolve_seats

from ..studies import study_of
from . import metrics as M

FIRST_STEP = 1_000       # games in the first step; every n is a multiple of it
DEFAULT_MAX_GAMES = 10_000_000
MAX_GROWTH = 8           # a step at most multiplies n by this (early estimates are rough)
# A stoppable caller's pieces: about this many seconds of play each, starting at FIRST_PIECE
# games, growing at most PIECE_GROWTH times a piece, never below MIN_PIECE games (a call costs
# some milliseconds); a stop waits for the piece in flight.
PIECE_SECONDS = 0.5
FIRST_PIECE = 200
MIN_PIECE = 100
PIECE_GROWTH = 4


class Stopped(Exception):
    """The caller's ``should_stop`` answered true: the work stopped between two batches. Not a
    BalanceError: nothing was wrong with the request."""


def stop_point(should_stop) -> None:
    """Raise :class:`Stopped` when ``should_stop`` (a callable, or None for never) says so: the
    check every long analysis makes between its batches."""
    if should_stop is not None and should_stop():
        raise Stopped("the caller asked the work to stop")


def play_pieces(game, rules, strategies, n_games: int, seed: int, *, first_game: int = 0,
                seconds: float | None = None, should_stop=None, **options):
    """Games ``first_game .. first_game + n_games - 1`` of ``seed`` as successive Results, each
    piece played by one ``simulate(first_game=...)`` call: all at once when ``seconds`` is None,
    else pieces of about ``seconds`` each (FIRST_PIECE games, then sized from the rate measured
    on the piece before, at most PIECE_GROWTH times it, at least MIN_PIECE games).
    ``should_stop`` is asked before every piece (:func:`stop_point`). The pieces' summaries add
    up to the one-call summary exactly and their records concatenate to its table: only the
    time between two checks changes."""
    done, size = 0, FIRST_PIECE
    while done < n_games:
        stop_point(should_stop)
        count = n_games - done if seconds is None else min(size, n_games - done)
        began = time.monotonic()
        part = simulate(game, rules, strategies, count, seed, first_game=first_game + done,
                        **options)
        elapsed = time.monotonic() - began
        done += count
        if seconds is not None:
            size = max(MIN_PIECE, min(PIECE_GROWTH * count,
                                      int(count * seconds / max(elapsed, 1e-6))))
        yield part
        del part


class Folded:
    """A study's declared per-game metrics (``game_metrics`` in analysis.studies.<game>)
    folded piece by piece into running sums: per metric the count of its defined (non-NaN)
    values, their sum and their sum of squared deviations (combined as in Chan et al.), and the
    games seen. What :func:`measured` needs, in constant memory."""

    def __init__(self):
        self.n_games = 0
        self.sums: dict[str, tuple[int, float, float]] = {}

    def add(self, values: dict, n_games: int) -> None:
        self.n_games += int(n_games)
        for name, column in values.items():
            column = np.asarray(column, float)
            column = column[~np.isnan(column)]
            count, total, m2 = self.sums.get(name, (0, 0.0, 0.0))
            if column.size:
                mean = float(column.mean())
                piece_m2 = float(((column - mean) ** 2).sum())
                if count:
                    delta = mean - total / count
                    m2 += piece_m2 + delta * delta * count * column.size / (count + column.size)
                else:
                    m2 = piece_m2
                total, count = total + float(column.sum()), count + int(column.size)
            self.sums[name] = (count, total, m2)


@dataclass
class FoldedResults(Results):
    """A batch that kept no per-game table (``records`` is None): ``declared`` holds the
    study's declared metrics folded into sums (None when the game declares none)."""

    declared: Folded | None = None


def measured(results, game, n_seats: int, confidence: float = 0.95) -> dict:
    """:func:`analysis.workbench.metrics.measured` of a batch, also of a :class:`FoldedResults`:
    the same numbers from the folded sums as from the per-game table of the same games."""
    folded = getattr(results, "declared", None)
    if folded is None:
        return M.measured(results, game, n_seats, confidence)
    row = M.headline(results.summary, confidence)
    t = float(stats.t.ppf(0.5 + confidence / 2, max(folded.n_games - 1, 1)))
    for name, (count, total, m2) in folded.sums.items():
        mean = total / count if count else np.nan
        half = t * math.sqrt(m2 / (count - 1)) / math.sqrt(count) if count > 1 else np.nan
        row.update({name: mean, f"{name}_low": mean - half, f"{name}_high": mean + half})
    return row


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
                     run_dir=None, on_step=None, should_stop=None, step_seconds: float | None = None,
                     keep_records: bool = True, **options) -> Results:
    """Play games 0..n-1 of ``seed`` with the smallest n on the growth schedule at which every
    headline rate's 95% half-width is at most ``precision`` percentage points (or n reaches
    ``max_games``).

    Returns Results whose provenance adds ``precision_pp``, ``precision_met`` and ``steps``
    (the batch sizes tried). ``options`` go to every ``simulate`` step (jobs, backend, stream,
    chunk_size...). ``run_dir``: a folder that keeps every step's chunks (one sub-folder per
    step), so that a killed run resumes where it stopped. ``on_step(games, max_games)`` is called
    after each step, or each piece (progress outside a terminal: the MCP server's
    notifications; it may raise to stop the work).

    ``should_stop``: asked before every piece; a true answer raises :class:`Stopped`. A caller
    that gives it (and no ``run_dir``) gets pieces of about PIECE_SECONDS; ``step_seconds``
    sets that length (not with ``run_dir``, whose sub-folders are whole steps). The pieces
    change neither n, nor the steps, nor the games.

    ``keep_records=False``: no per-game table is kept (bounded memory however long the batch):
    a game without declared metrics streams, and a game with them folds each piece's metrics
    into sums and drops the piece's records. The result is then a :class:`FoldedResults`
    whose :func:`measured` row equals the one of the kept table.
    """
    check_precision(precision, max_games)
    if step_seconds is not None and run_dir is not None:
        raise RunError("a run folder keeps whole steps: give it or step seconds, not both")
    if step_seconds is not None and not (isinstance(step_seconds, (int, float))
                                         and not isinstance(step_seconds, bool)
                                         and 0 < step_seconds < math.inf):
        raise RunError(f"step seconds must be a positive number, got {step_seconds!r}")
    spec = get_game(game)
    rules = as_rules(spec, rules)
    seconds = step_seconds if step_seconds is not None else (
        PIECE_SECONDS if should_stop is not None and run_dir is None else None)
    folded, declared = None, None
    if not keep_records:
        declared = study_of(spec.name).metrics
        folded = Folded() if declared is not None else None
        options["stream"] = declared is None    # records only to fold the declared metrics
    n, parts, summary, provenance, steps = 0, [], None, None, []
    target = min(FIRST_STEP, max_games)
    try:
        while True:
            step_dir = None if run_dir is None else Path(run_dir) / f"games-{n}-{target}"
            done = n
            for part in play_pieces(spec, rules, strategies, target - n, seed, first_game=n,
                                    seconds=seconds, should_stop=should_stop, progress=progress,
                                    run_dir=step_dir, **options):
                provenance = provenance or part.provenance
                summary = part.summary if summary is None else summary + part.summary
                done += part.summary.n_games
                if part.records is not None:
                    if keep_records:
                        parts.append(part.records)
                    elif folded is not None:
                        folded.add(declared(part.records, rules.n_seats), len(part.records))
                del part
                if on_step is not None and done < target:
                    on_step(done, max_games)
            n = target
            steps.append(n)
            row = M.headline(summary)
            met = M.precision_reached(row, spec, rules.n_seats, precision)
            if on_step is not None:
                on_step(n, max_games)
            if met or n >= max_games:
                break
            target = next_size(row, spec, rules.n_seats, precision, max_games)
    except BaseException:   # stopped or failed: let go of what was played at once
        parts.clear()
        summary = folded = None
        raise
    provenance = {**provenance, "n_games": n, "precision_pp": float(precision),
                  "precision_met": bool(met), "steps": steps}
    provenance.pop("first_game", None)
    if not keep_records:
        return FoldedResults(provenance, summary, None, folded)
    records = pd.concat(parts, ignore_index=True) if parts else None
    return Results(provenance, summary, records)


def run_batch(game, rules, strategies, n_games: int | None, seed: int, *, precision=None,
              max_games=None, jobs: int = 1, stream: bool = True, run_dir=None,
              should_stop=None) -> Results:
    """One batch at a fixed size, or grown to a precision when ``precision`` is given: the one
    entry point of every workbench command. ``run_dir``: the command's run folder (see
    :func:`open_run`); the batch keeps its chunks in a sub-folder of it. ``should_stop``: asked
    between pieces of about PIECE_SECONDS (:func:`play_pieces`; the same games and table), a
    true answer raises :class:`Stopped`."""
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
                                backend="threading", stream=stream, run_dir=folder,
                                should_stop=should_stop)
    if should_stop is None or folder is not None:
        stop_point(should_stop)
        return simulate(game, rules, strategies, n_games, seed, jobs=jobs, backend="threading",
                        stream=stream, progress=False, run_dir=folder)
    pieces = list(play_pieces(game, rules, strategies, n_games, seed, seconds=PIECE_SECONDS,
                              should_stop=should_stop, jobs=jobs, backend="threading",
                              stream=stream, progress=False))
    summary = pieces[0].summary
    for part in pieces[1:]:
        summary = summary + part.summary
    provenance = {**pieces[0].provenance, "n_games": int(summary.n_games)}
    provenance.pop("first_game", None)
    records = None if stream else pd.concat([p.records for p in pieces], ignore_index=True)
    return Results(provenance, summary, records)


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
