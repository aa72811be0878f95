"""Run plan: n games + master seed -> chunks -> parallel workers -> Results.

Game g always gets the random streams of (seed, g), so the table is the same whatever the
number of jobs, the backend or the chunk size. Workers are joblib workers: processes ("loky")
by default; "threading" also runs in parallel because the kernels release the GIL; "dask" runs
the chunks on a dask.distributed cluster (docs/scaling.md). With a run folder every finished
chunk is kept on disk (sim.checkpoint), so a killed run resumes where it stopped.
"""
from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager, nullcontext
from typing import Sequence

import numpy as np
from joblib import Parallel, delayed
from numba.core.errors import NumbaError
from tqdm.auto import tqdm

from . import __version__
from .errors import RunError, StrategyError
from .game import GameSpec
from .games import game_version, get_game
from .results import Results, Summary, records_frame
from .rng import master_key
from .agents import ctrl_c_counted, failure as agent_failure
from .core.userfn import MISMATCH
from .strategy import ONE_KERNEL_ENV, SeatPlan, resolve_seats
from .trained import shipped_path

DEFAULT_CHUNK = 100_000
STREAM_CHUNK = 250_000


def simulate(game, rules=None, strategies="random", n_games: int = 10_000, seed: int = 0, *,
             jobs: int = 1, chunk_size: int | None = None, backend: str = "loky",
             stream: bool = False, progress: bool | None = None, first_game: int = 0,
             rotate_seats: bool = False, run_dir=None) -> Results:
    """Play ``n_games`` games and return their Results.

    Parameters
    ----------
    game : str or GameSpec, e.g. "parthian".
    rules : the game's rules dataclass, a dict of its options, or None for the defaults.
    strategies : a strategy (name, Strategy or njit function) for every seat, or one per seat.
    n_games, seed : batch size and master seed (same seed -> same table).
    jobs : parallel workers (-1 = all cores). chunk_size : games per task.
    backend : joblib backend ("loky" processes, "threading", "sequential") or "dask": the chunks
        run on the current dask.distributed Client (see :func:`dask_client`), as many at once as
        the cluster has worker threads.
    stream : keep only the mergeable Summary (bounded memory; no per-game table).
    progress : show a progress bar; None = only for long runs on a terminal.
    first_game : play games first_game .. first_game + n_games - 1 of the seed's sequence, so
        that a batch can grow in steps (analysis.workbench.simulate_precise) and the union of
        the steps is exactly the batch of games 0..n-1.
    rotate_seats : fair seats: game g seats the strategy list rotated by g mod N (seat s plays
        strategy (s + g) mod N), so that every strategy plays every seat equally often. The
        per-game table gains ``rotation`` and ``strategy_<seat>`` columns.
    run_dir : a folder that keeps every finished chunk (see sim.checkpoint): running the same
        request again resumes from them, and a different request is refused.
    """
    spec = get_game(game)
    rules = as_rules(spec, rules)
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games <= 0:
        raise RunError(f"number of games must be a positive integer, got {n_games!r}")
    n_games = int(n_games)
    if not isinstance(jobs, (int, np.integer)) or jobs == 0 or jobs < -1:
        raise RunError(f"jobs must be a positive integer or -1 (all cores), got {jobs!r}")
    jobs = all_cores() if jobs == -1 else int(jobs)
    if not isinstance(rotate_seats, (bool, np.bool_)):
        raise RunError(f"rotate_seats must be True or False, got {rotate_seats!r}")
    rotate_seats = bool(rotate_seats)
    if backend == "dask":
        jobs = max(jobs, _dask_width())
    key = master_key(seed)
    seats = resolve_seats(spec, strategies, rules.n_seats, rules)
    if backend == "dask":
        _ship_by_value(seats.user_fns)
    chunk = _chunk_size(chunk_size, n_games, jobs, stream)
    if isinstance(first_game, bool) or not isinstance(first_game, (int, np.integer)) or first_game < 0:
        raise RunError(f"first game must be a non-negative integer, got {first_game!r}")
    end = int(first_game) + n_games
    args = rules.kernel_args()
    provenance = {"game": spec.name, "variant": rules.to_dict(), "strategies": list(seats.labels),
                  "n_games": n_games, "seed": int(seed), "version": __version__}
    if game_version(spec) is not None:   # a plugin game: its own code, beside the toolkit's
        provenance["game_version"] = game_version(spec)
    if first_game:
        provenance["first_game"] = int(first_game)
    if rotate_seats:
        provenance["rotate_seats"] = True
    store = None
    if run_dir is not None:
        store, chunk = _open_run_dir(run_dir, provenance, rules, seats, chunk_size, chunk, stream)
    starts = list(range(int(first_game), end, chunk))
    sizes = {start: min(chunk, end - start) for start in starts}

    # Compile (or load from cache) once here, so that workers find a warm disk cache. A user
    # strategy's kernel is never disk-cached: Dask workers compile their own, so skip it there.
    # Python agents sit this game out (the random player takes their seats): an agent with a
    # memory never sees a game that is not in the table.
    if not (backend == "dask" and seats.user_fns):
        play_kernel(spec, args, seats.without_agents(), key, 0, 1)

    show = progress if progress is not None else (n_games >= 1_000_000 and sys.stderr.isatty())
    bar = tqdm(total=n_games, unit="game", unit_scale=True, disable=not show,
               desc=f"{spec.name} {rules.n_seats}p")
    done = {}
    for start in starts if store is not None else ():
        piece = _load_chunk(store, spec, rules.n_seats, start, sizes[start], stream, rotate_seats)
        if piece is not None:
            done[start] = piece
            bar.update(sizes[start])
    todo = [start for start in starts if start not in done]
    tasks = [delayed(_play_task)(spec.name, args, seats, key, start, sizes[start], stream,
                                 rules.n_seats, rotate_seats) for start in todo]
    for start, piece in zip(todo, _outputs(tasks, jobs, backend)):
        if store is not None:
            _save_chunk(store, start, sizes[start], piece)
        done[start] = piece
        bar.update(sizes[start])
    bar.close()
    if store is not None and len(todo) < len(starts):
        print(f"resumed {len(starts) - len(todo)} of {len(starts)} chunks from {store.path}",
              file=sys.stderr)

    summary = Summary.empty(spec, rules.n_seats, rotate_seats)
    for start in starts:
        summary = summary + done[start][0]
    records = None
    if not stream:
        matrix = np.concatenate([done[start][1] for start in starts])
        records = records_frame(spec, rules.n_seats, matrix, int(first_game),
                                seats.labels if rotate_seats else None)
    return Results(provenance, summary, records)


def all_cores() -> int:
    """The cores this process may run on: what ``jobs=-1`` means, and the default ``--jobs`` of
    every command that plays games (results do not depend on it)."""
    count = getattr(os, "process_cpu_count", None)   # Python 3.13+: honours the affinity mask
    if count is not None:
        return count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


@contextmanager
def one_kernel():
    """Within the block every batch plays on one kernel per game, the one with the trained
    policy's features and an idle controller compiled in (what a search seat needs), whatever
    its seats. The records are exactly those of the kernel the seats would get alone (tested
    for every game); a job that seats plain, trained and search players, as a report does,
    then compiles one kernel per game instead of three, and plain play pays one array read per
    decision. Worker processes started inside the block inherit it."""
    before = os.environ.get(ONE_KERNEL_ENV)
    os.environ[ONE_KERNEL_ENV] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ONE_KERNEL_ENV, None)
        else:
            os.environ[ONE_KERNEL_ENV] = before


def warm_kernels(games: Sequence[str], search: bool = True, jobs: int | None = None) -> None:
    """Compile (or load from the disk cache) the kernels of ``games`` side by side: one task per
    game and path (plain; with a trained policy where one is shipped for the game's default
    players; and with ``search`` the controlled one the search player uses; inside
    :func:`one_kernel` only that one), the slowest first.
    With an empty cache a report would otherwise compile them one after another, each game's
    workers compiling the same kernel at once; a warm cache makes this a few seconds of
    loading."""
    if os.environ.get(ONE_KERNEL_ENV) == "1":
        paths = ("search",)
    else:
        paths = ("search", "trained", "plain") if search else ("trained", "plain")
    tasks = [delayed(_warm_kernel)(game, path) for path in paths for game in games
             if path != "trained" or _ships_policy(game)]
    jobs = min(jobs or all_cores(), len(tasks))
    if jobs <= 1:
        for function, positional, named in tasks:
            function(*positional, **named)
    else:
        Parallel(n_jobs=jobs)(tasks)


def _ships_policy(game: str) -> bool:
    spec = get_game(game)
    return shipped_path(spec, spec.rules_class().n_seats) is not None


def _warm_kernel(game: str, path: str) -> None:
    spec = get_game(game)
    seats = ["random"] * spec.rules_class().n_seats
    seats[0] = {"search": "ismcts:budget=2", "trained": "trained", "plain": "random"}[path]
    simulate(game, None, seats, 2, seed=0, jobs=1)


def _outputs(tasks: list, jobs: int, backend: str):
    """Run the chunk tasks; yield their outputs in task order."""
    if backend == "dask":
        from joblib import parallel_config

        # joblib registers its Dask backend only through parallel_config; it sends the tasks
        # to the current distributed.Client, all its worker threads at once.
        with parallel_config(backend="dask", n_jobs=-1):
            yield from Parallel(return_as="generator")(tasks)
    elif jobs == 1 or len(tasks) <= 1:
        for function, positional, named in tasks:
            yield function(*positional, **named)
    else:
        yield from Parallel(n_jobs=min(jobs, len(tasks)), backend=backend,
                            return_as="generator")(tasks)


def _open_run_dir(run_dir, provenance: dict, rules, seats: SeatPlan, chunk_size, chunk: int,
                  stream: bool):
    """The run folder for this request; a resumed run keeps the chunk size it started with."""
    from .checkpoint import RunDir

    previous = RunDir.existing_request(run_dir)
    if chunk_size is None and previous and isinstance(previous.get("chunk_size"), int):
        chunk = previous["chunk_size"]  # the default depends on --jobs, which may differ now
    request = {"command": "simulate", **provenance, "chunk_size": chunk, "stream": bool(stream),
               "user_strategies": [_code_digest(fn) for fn in seats.user_fns],
               **run_inputs(rules, seats)}
    return RunDir(run_dir, request), chunk


def run_inputs(rules, *seat_plans: SeatPlan) -> dict:
    """``{"inputs": {path: sha256}}`` for every file a run with these rules and seats reads:
    data files given as rule options, policy files, and the source file of each user strategy's
    module (a module constant it reads is part of what it plays) with the local modules it
    imported (:func:`_code_files`); ``{}`` for a run that reads
    none. Every command that keeps a run folder puts this in its request, so that a folder
    whose inputs were edited since is refused (sim.checkpoint), naming the file."""
    from .checkpoint import file_digests

    files = [*_data_files(rules)]
    for seats in seat_plans:
        files += [*seats.sources, *(f for fn in seats.user_fns for f in _code_files(fn))]
    digests = file_digests(dict.fromkeys(files))
    return {"inputs": digests} if digests else {}


def _data_files(rules) -> list[str]:
    """The files named by rule options (sim.datafile reads them; ``FILE.xlsx#Sheet`` is the
    workbook FILE.xlsx)."""
    import dataclasses

    files = []
    for option in dataclasses.fields(rules):
        value = getattr(rules, option.name)
        if not isinstance(value, str) or value in option.metadata.get("choices", ()):
            continue
        path = value if os.path.isfile(value) else value.rpartition("#")[0]
        if path and os.path.isfile(path):
            files.append(path)
    return files


def _code_file(fn) -> str | None:
    """The source file of a user strategy's module (None for code typed into a notebook)."""
    code = fn.py_func if hasattr(fn, "py_func") else fn.agent
    for routine in (code, getattr(type(code), "__call__", None)):  # a function, or an object
        filename = getattr(getattr(routine, "__code__", None), "co_filename", None)
        if filename and os.path.isfile(filename):
            return filename
    return None


# the toolkit's own packages: an agent beside the checkout imports them, but they are the
# toolkit's code (its version), not the agent's
_TOOLKIT = ("sim", "analysis", "cli", "games", "heldout", "tests")


def _code_files(fn) -> list[str]:
    """A user strategy's source file, then the local modules it imported: every module loaded
    from a file under that file's folder, but for installed packages, the toolkit's own and
    other strategy files. A helper module holds what the strategy plays as much as its own
    file does. (A module it imports only while playing is not loaded yet, so not covered.)"""
    from pathlib import Path

    own = _code_file(fn)
    if own is None:
        return []
    folder, root = Path(own).resolve().parent, Path(__file__).resolve().parents[1]
    installed = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    helpers = set()
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py") or name == "__main__" \
                or name.startswith("balance_user_"):   # __main__, other strategy files
            continue
        real = Path(path).resolve()
        if not real.is_relative_to(folder) or {"site-packages", "dist-packages"} & set(real.parts) \
                or any(real.is_relative_to(p) for p in installed) \
                or (name.split(".")[0] in _TOOLKIT and real.is_relative_to(root)):
            continue
        helpers.add(str(real))
    helpers.discard(str(Path(own).resolve()))
    return [own, *sorted(helpers)]


def _code_digest(fn) -> str:
    """What identifies a user strategy's code across processes (its name alone does not); for
    a Python agent, the source of its callable (or its type's, for an object). The rest of its
    module is in the request's inputs (:func:`run_inputs`)."""
    import hashlib
    import inspect

    code = fn.py_func if hasattr(fn, "py_func") else fn.agent
    try:
        text = inspect.getsource(code if inspect.isroutine(code) else type(code))
    except (OSError, TypeError):
        text = repr(getattr(code, "__code__", type(code)))
    name = getattr(code, "__name__", type(code).__name__)
    return f"{name}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def _chunk_name(start: int, count: int) -> str:
    return f"games-{start:012d}-{count}"


def _save_chunk(store, start: int, count: int, piece) -> None:
    summary, matrix = piece
    if matrix is None:   # streamed: the chunk's exact summary is all there is
        store.save_json(_chunk_name(start, count), summary.to_dict())
    else:                # the records; the summary is rebuilt from them on resume
        store.save_array(_chunk_name(start, count), matrix)


def _load_chunk(store, spec: GameSpec, n_seats: int, start: int, count: int, stream: bool,
                rotated: bool):
    if stream:
        data = store.load_json(_chunk_name(start, count))
        return None if data is None else (Summary.from_dict(data), None)
    matrix = store.load_array(_chunk_name(start, count))
    if matrix is None:
        return None
    return Summary.of(spec, n_seats, matrix, start, rotated), matrix


def _dask_width() -> int:
    """Worker threads of the current dask.distributed Client."""
    client = current_dask_client()
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def _ship_by_value(user_fns) -> None:
    """Send user strategies to Dask workers as code, not as a module name to import there.

    Numba pickles a jitted function's Python source with its own copy of cloudpickle, which
    refers to functions of importable modules by name; a worker on another machine has no such
    module (a notebook's functions and ``FILE.py:FUNCTION`` strategies already travel by value).
    """
    from numba import cloudpickle

    for fn in user_fns:
        code = fn.py_func if hasattr(fn, "py_func") else fn.agent
        module = sys.modules.get(getattr(code, "__module__", None) or type(code).__module__)
        if module is not None and module.__name__ != "__main__":
            cloudpickle.register_pickle_by_value(module)


def current_dask_client():
    """The running distributed.Client, or a RunError saying how to get one."""
    try:
        from distributed import get_client
    except ImportError:
        raise RunError("backend 'dask' needs dask.distributed: pip install "
                       "'balance-toolkit[dask]'") from None
    try:
        return get_client()
    except ValueError:
        raise RunError("backend 'dask' needs a running dask.distributed Client: create one "
                       "(distributed.Client(...)) or use sim.runner.dask_client('local') / "
                       "--dask local") from None


@contextmanager
def dask_client(address: str = "local", n_workers: int | None = None):
    """A dask.distributed Client for the duration of a ``with`` block.

    ``address`` is "local" (start a LocalCluster of ``n_workers`` worker processes, one thread
    each; default: one per core) or a scheduler address such as "tcp://10.0.0.5:8786" (join a
    running cluster; see docs/scaling.md). Numba compiles do not like sharing a process with
    other threads, so local workers are processes with one thread each.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("--dask needs dask.distributed: pip install 'balance-toolkit[dask]'") from None
    if address == "local":
        workers = n_workers if n_workers and n_workers > 0 else all_cores()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client
    elif isinstance(address, str) and "://" in address:
        try:
            client = Client(address, timeout="20s")
        except OSError as failure:
            raise RunError(f"cannot reach the Dask scheduler at {address!r}: {failure}") from None
        with client:
            yield client
    else:
        raise RunError(f"--dask {address!r}: use 'local' or a scheduler address like "
                       "tcp://host:8786")


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


def play_kernel(spec: GameSpec, args: tuple, seats: SeatPlan, key, start: int, count: int,
                log: np.ndarray | None = None, ctl: np.ndarray | None = None,
                rotate: bool = False, chunk=None) -> np.ndarray:
    """Play games start..start+count-1 in this process; return their record matrix.

    This is the one place a kernel is called (sim/game.py has its contract): ``ctl`` None plays
    the plain path unless a search player is seated; ``chunk`` replaces the game's play_chunk
    (a test's planted fault)."""
    from .game import RECORD_DTYPE

    out = np.zeros((count, spec.record_width(len(seats.kinds))), RECORD_DTYPE)
    if log is None:
        log = np.zeros((0, spec.kernel.LOG_WIDTH), np.int64)
    if ctl is None:
        ctl = seats.controller(spec)
    try:
        batch = seats.batch(spec, key, start, rotate)
    except NumbaError as failure:
        reason = str(failure).strip().splitlines()[-1]
        raise StrategyError(
            f"a user strategy among {list(seats.labels)} does not compile for {spec.title}: "
            f"{reason}. Its signature is strategy(decision, seat, obs, legal, params, rng) "
            f"(strategies/{spec.name}.py documents obs); strategies run without Numba's "
            "reference counting, so they must not create arrays (np.zeros, slice copies)") from None
    # with agents seated, a Ctrl-C is told from an agent's own KeyboardInterrupt
    with ctrl_c_counted() if seats.user_fns else nullcontext():
        (chunk or spec.kernel.play_chunk)(*args, batch, out, log, ctl)
    error = batch.error
    if error[3] == 1:
        row, seat, action = int(error[0]), int(error[1]), int(error[2])
        failed = agent_failure(batch.users)
        if failed is not None:
            raise failed.report(seat, start + row)
        if action == MISMATCH:
            raise StrategyError(
                f"strategy {seats.labels[seat]!r} at seat {seat} was compiled for other arrays "
                f"than {spec.title} hands it; rebuild it for this game")
        raise StrategyError(
            f"strategy {seats.labels[seat]!r} at seat {seat} returned illegal action {action} "
            f"in game {start + row}; see {spec.kernel.__name__.replace('.kernel', '.layout')} "
            "for the action codes")
    return out


def _play_task(game_name, args, seats, key, start, count, stream, n_seats, rotate=False):
    spec = get_game(game_name)
    matrix = play_kernel(spec, args, seats, key, start, count, rotate=rotate)
    summary = Summary.of(spec, n_seats, matrix, start, rotate)
    return summary, (None if stream else matrix)


def kernel_state(game, rules=None, strategies="random", seed: int = 0, game_index: int = 0,
                 max_events: int = 0, ctl: np.ndarray | None = None):
    """A game's kernel state (its ``State``), seated, seeded and reset for one game but not
    played: for tests that drive the rules step by step (``spec.kernel.setup(g)``, ...)."""
    from .core.protocol import prepare

    spec = get_game(game)
    rules = as_rules(spec, rules)
    seats = resolve_seats(spec, strategies, rules.n_seats, rules)
    batch = seats.batch(spec, master_key(seed), game_index)
    log = np.zeros((max_events, spec.kernel.LOG_WIDTH), np.int64)
    g = spec.kernel.new_state(*rules.kernel_args(), batch, log, ctl)
    prepare(g, batch, np.int64(game_index))
    return g


def play_one(game, rules=None, strategies="random", seed: int = 0, game_index: int = 0,
             max_events: int = 4096, ctl: np.ndarray | None = None):
    """Play a single game with its event log (for narratives and golden games).

    ``ctl`` (sim.core.header.new_ctl) traces, perturbs or redeals its decisions.
    Returns (record row as dict, event log int64[E, W], the seats).
    """
    spec = get_game(game)
    rules = as_rules(spec, rules)
    seats = resolve_seats(spec, strategies, rules.n_seats, rules)
    log = np.zeros((max_events, spec.kernel.LOG_WIDTH), np.int64)
    matrix = play_kernel(spec, rules.kernel_args(), seats, master_key(seed), game_index, 1, log, ctl)
    record = records_frame(spec, rules.n_seats, matrix, game_index).iloc[0].to_dict()
    n_events = int(log[0, 0])
    return record, log[1:1 + n_events], seats
