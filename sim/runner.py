"""Run plan: n games + master seed -> chunks -> parallel workers -> Results.

Game g always gets the random streams of (seed, g), so the table is the same whatever the
number of jobs, the backend or the chunk size. Workers are joblib workers: processes ("loky")
by default; "threading" also runs in parallel because the kernels release the GIL; any joblib
backend name works (e.g. "dask" after registering a Dask client).
"""
from __future__ import annotations

import math
import os
import sys

import numpy as np
from joblib import Parallel, delayed
from numba.core.errors import NumbaError
from tqdm.auto import tqdm

from . import __version__
from .errors import RunError, StrategyError
from .game import GameSpec, get_game
from .results import Results, Summary, records_frame
from .rng import master_key
from .strategy import SeatPlan, kernel_for, resolve_seats

DEFAULT_CHUNK = 100_000
STREAM_CHUNK = 250_000


def simulate(game, rules=None, strategies="random", n_games: int = 10_000, seed: int = 0, *,
             jobs: int = 1, chunk_size: int | None = None, backend: str = "loky",
             stream: bool = False, progress: bool | None = None, first_game: int = 0) -> Results:
    """Play ``n_games`` games and return their Results.

    Parameters
    ----------
    game : str or GameSpec, e.g. "parthian".
    rules : the game's rules dataclass, a dict of its options, or None for the defaults.
    strategies : a strategy (name, Strategy or njit function) for every seat, or one per seat.
    n_games, seed : batch size and master seed (same seed -> same table).
    jobs : parallel workers (-1 = all cores). chunk_size : games per task.
    backend : joblib backend ("loky" processes, "threading", "sequential", or registered ones).
    stream : keep only the mergeable Summary (bounded memory; no per-game table).
    progress : show a progress bar; None = only for long runs on a terminal.
    first_game : play games first_game .. first_game + n_games - 1 of the seed's sequence, so
        that a batch can grow in steps (analysis.workbench.simulate_precise) and the union of
        the steps is exactly the batch of games 0..n-1.
    """
    spec = get_game(game)
    rules = as_rules(spec, rules)
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games <= 0:
        raise RunError(f"number of games must be a positive integer, got {n_games!r}")
    n_games = int(n_games)
    if not isinstance(jobs, (int, np.integer)) or jobs == 0 or jobs < -1:
        raise RunError(f"jobs must be a positive integer or -1 (all cores), got {jobs!r}")
    jobs = os.cpu_count() or 1 if jobs == -1 else int(jobs)
    key = master_key(seed)
    seats = resolve_seats(spec, strategies, rules.n_seats)
    chunk = _chunk_size(chunk_size, n_games, jobs, stream)
    if isinstance(first_game, bool) or not isinstance(first_game, (int, np.integer)) or first_game < 0:
        raise RunError(f"first game must be a non-negative integer, got {first_game!r}")
    end = int(first_game) + n_games
    starts = list(range(int(first_game), end, chunk))
    args = rules.kernel_args()

    # Compile (or load from cache) once here, so that workers find a warm disk cache.
    _play(spec, args, seats, key, 0, 1)

    tasks = (delayed(_play_task)(spec.name, args, seats, key, start, min(chunk, end - start),
                                 stream, rules.n_seats) for start in starts)
    show = progress if progress is not None else (n_games >= 1_000_000 and sys.stderr.isatty())
    bar = tqdm(total=n_games, unit="game", unit_scale=True, disable=not show,
               desc=f"{spec.name} {rules.n_seats}p")
    summary, parts = Summary.empty(spec, rules.n_seats), []
    if jobs == 1 or len(starts) == 1:
        outputs = (task[0](*task[1], **task[2]) for task in tasks)
    else:
        outputs = Parallel(n_jobs=min(jobs, len(starts)), backend=backend, return_as="generator")(tasks)
    for start, (part_summary, matrix) in zip(starts, outputs):
        summary = summary + part_summary
        if matrix is not None:
            parts.append(matrix)
        bar.update(part_summary.n_games)
    bar.close()

    records = None
    if not stream:
        records = records_frame(spec, rules.n_seats, np.concatenate(parts), int(first_game))
    provenance = {"game": spec.name, "variant": rules.to_dict(), "strategies": list(seats.labels),
                  "n_games": n_games, "seed": int(seed), "version": __version__}
    if first_game:
        provenance["first_game"] = int(first_game)
    return Results(provenance, summary, records)


def as_rules(spec: GameSpec, rules):
    if rules is None:
        return spec.rules_class()
    if isinstance(rules, dict):
        return spec.rules_class.from_options(rules)
    if not isinstance(rules, spec.rules_class):
        raise RunError(f"rules for {spec.title} must be a {spec.rules_class.__name__} or a dict, "
                       f"got {type(rules).__name__}")
    return rules


def _chunk_size(chunk_size, n_games, jobs, stream) -> int:
    if chunk_size is None:
        target = STREAM_CHUNK if stream else DEFAULT_CHUNK
        return max(1, min(target, math.ceil(n_games / max(jobs, 1))))
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0:
        raise RunError(f"chunk size must be a positive integer, got {chunk_size!r}")
    return int(chunk_size)


def _play(spec: GameSpec, args: tuple, seats: SeatPlan, key, start: int, count: int,
          log: np.ndarray | None = None) -> np.ndarray:
    """Play games start..start+count-1 in this process; return their record matrix."""
    from .game import RECORD_DTYPE

    kernel = kernel_for(spec, seats.user_fns)
    out = np.zeros((count, spec.record_width(len(seats.kinds))), RECORD_DTYPE)
    error = np.full(4, -1, np.int64)
    if log is None:
        log = np.zeros((0, 1), np.int64)
    try:
        kernel(*args, seats.kinds, seats.params, key, np.int64(start), out, error, log)
    except NumbaError as failure:
        if not seats.user_fns:
            raise
        reason = str(failure).strip().splitlines()[-1]
        raise StrategyError(
            f"a user strategy among {list(seats.labels)} does not compile inside the "
            f"{spec.title} kernel: {reason}. Strategies run without Numba's reference counting, "
            "so they must not create arrays (np.zeros, slice copies); see "
            f"strategies/{spec.name}.py for the signature") from None
    if error[3] == 1:
        row, seat, action = int(error[0]), int(error[1]), int(error[2])
        raise StrategyError(
            f"strategy {seats.labels[seat]!r} at seat {seat} returned illegal action {action} "
            f"in game {start + row}; see {spec.kernel.__name__.replace('.kernel', '.layout')} "
            "for the action codes")
    return out


def _play_task(game_name, args, seats, key, start, count, stream, n_seats):
    spec = get_game(game_name)
    matrix = _play(spec, args, seats, key, start, count)
    summary = Summary.of(spec, n_seats, matrix)
    return summary, (None if stream else matrix)


def play_one(game, rules=None, strategies="random", seed: int = 0, game_index: int = 0,
             max_events: int = 4096):
    """Play a single game with its event log (for narratives and golden games).

    Returns (record row as dict, event log int64[E, W]).
    """
    spec = get_game(game)
    rules = as_rules(spec, rules)
    seats = resolve_seats(spec, strategies, rules.n_seats)
    log = np.zeros((max_events, spec.kernel.LOG_WIDTH), np.int64)
    matrix = _play(spec, rules.kernel_args(), seats, master_key(seed), game_index, 1, log)
    record = records_frame(spec, rules.n_seats, matrix, game_index).iloc[0].to_dict()
    n_events = int(log[0, 0])
    return record, log[1:1 + n_events], seats
