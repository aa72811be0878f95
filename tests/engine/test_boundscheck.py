"""Every game's conformance and golden games with Numba's bounds checks on (issue 59, item 2).

Compiled code does not check indices: a kernel that writes past an array (a features buffer
too narrow for the game's features) corrupts memory silently, or crashes far from the cause.
With ``NUMBA_BOUNDSCHECK=1`` every index is checked and such a write is an IndexError. The
checked kernels compile anew, so they run in a process of their own with a kernel cache of its
own. What runs:

- every registered game, the toolkit's and every installed plugin: the seat-rotation check and
  its golden games, on the plain kernel;
- a package freshly written by ``balance new-game``, registered in the process: the observation
  conformance, rotation, search and fuzz checks, its golden game and one generation of
  training (its features fill a trained seat's buffer), all on one kernel
  (``sim.runner.one_kernel``: the controller and the features compiled in);
- with ``--full``, every game as the scaffold (without training): the observation check
  exercises the controller and each game's redeal, and compiles about twice as much.

The test below runs it; by hand, on some games or all (the scaffold only when none is named)::

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=/tmp/bounds python tests/engine/test_boundscheck.py [--full] [GAME ...]

On the idle 2-core machine the whole run took 7 minutes of CPU in one process, almost all of it
compiling (Sunzi's kernel 3 minutes, Samurai Sword's 1.3); ``--full`` about 12.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCAFFOLD = "bounds_demo"


def golden_seats(name: str):
    """The function that seats a game's golden games: a built-in game's from its golden test
    module (games/<game>/tests/test_*golden.py), a plugin's from ``<package>.tests.golden``."""
    from sim.games import home

    place = home(name)
    if not place.builtin:
        return importlib.import_module(f"{place.package}.tests.golden").seats
    path = next((place.sources[0] / "tests").glob("test_*golden.py"))
    return importlib.import_module(f"{place.package}.tests.{path.stem}").seats


def check_game(name: str, full: bool = False) -> None:
    """Seat rotation and the golden games; with ``full`` the observation conformance too (the
    controller and the game's redeal: the one kernel), the search and a few fuzzed cases."""
    from sim import conformance as C

    if full:
        C.check_observation(name)
    C.check_rotation(name)
    files = C.golden_files(name)
    assert files, f"{name}: no golden game"
    seats = golden_seats(name)
    for path in files:
        C.assert_replays_exactly(path, seats)
    if full:
        C.check_search(name)
        C.check_fuzz(name, examples=6)


def scaffold(folder: Path) -> str:
    """A new game's package, written by ``balance new-game`` and registered in this process."""
    from cli.new_game import create
    from sim.games import register

    create(SCAFFOLD, folder=folder / SCAFFOLD)
    sys.path.insert(0, str(folder / SCAFFOLD))
    register(importlib.import_module(f"{SCAFFOLD}.spec").SPEC)
    return SCAFFOLD


def train_one_generation(name: str) -> None:
    from analysis.training import train

    result = train(name, generations=1, population=4, games=8, check_games=20, jobs=1,
                   progress=False)
    assert result.weights.size and result.history["generation"].max() == 1


def main(argv: list[str]) -> int:
    from contextlib import nullcontext

    from sim.games import game_names
    from sim.runner import one_kernel

    full = "--full" in argv
    names = [arg for arg in argv if not arg.startswith("-")]
    todo = [(name, full) for name in names or game_names()]
    failed = []
    with tempfile.TemporaryDirectory() as scratch:
        if not names:
            todo.append((SCAFFOLD, True))
        for name, everything in todo:
            start, cpu = time.perf_counter(), time.process_time()
            try:
                # the full checks share one kernel per game; seat rotation and the golden games
                # alone, the plain one (half the compiling)
                with one_kernel() if everything else nullcontext():
                    if name == SCAFFOLD:
                        scaffold(Path(scratch))
                    check_game(name, everything)
                    if name == SCAFFOLD:
                        train_one_generation(name)
                verdict = "ok"
            except Exception as error:   # every game is checked; the failures are listed
                failed.append(name)
                verdict = f"FAILED: {type(error).__name__}: {str(error)[:2000]}"
            print(f"{name}: {verdict} ({time.perf_counter() - start:.0f} s, "
                  f"{time.process_time() - cpu:.0f} s of CPU)", flush=True)
    print(f"bounds-checked: {len(todo) - len(failed)} of {len(todo)} games passed"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


@pytest.mark.timeout(1800)
def test_every_game_runs_with_bounds_checks(tmp_path):
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, __file__], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "FAILED" not in done.stdout and f"{SCAFFOLD}: ok" in done.stdout, done.stdout


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    raise SystemExit(main(sys.argv[1:]))
