"""Every game's balance report: run each game's default study, write Markdown + HTML + PNG + CSV.

    balance report                         # every game that has a study -> reports/
    balance report --game NAME --quick     # one game, small batches
    python -m analysis.report --game NAME --n-games 200000 --jobs 2

A game has a report when its study (``analysis.studies.<game>``, or a plugin game's
``<package>.study``: analysis/studies/__init__.py) writes one; this module finds the studies by
the registered game names and knows no game itself.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from sim.errors import BalanceError
from sim.games import game_names
from sim.runner import one_kernel, warm_kernels

from .studies import Study, study_of

# Seconds write_reports spent compiling each game's kernels before its study ran (ran_in).
COMPILED: dict[str, tuple[float, int]] = {}   # game -> (seconds, games compiled together)


def ran_in(game: str, started: float, detail: str) -> str:
    """A study's closing line: how long it ran and, apart, how long compiling took before it
    (write_reports compiles every kernel first, so a study's own clock starts warm)."""
    import time

    took = time.perf_counter() - started
    seconds, together = COMPILED.get(game, (None, 1))
    if seconds is None:
        before = "; compiling, if any was needed, is not included"
    elif together == 1:
        before = f"; compiling its kernels before it took {seconds:.1f} s more"
    else:   # the games of one run compile side by side: their time is shared, not this game's
        before = (f"; compiling its kernels before it, with those of the {together - 1} other "
                  f"games of this run, took {seconds:.1f} s more")
    return f"_Study ran in {took:.1f} s ({detail}){before}._"


def studies() -> dict[str, Study]:
    """Every registered game whose study writes a report, by name (sorted). A study without
    ``write_report`` (a calibration game's, which only checks the engine) has no report."""
    found = {game: study_of(game) for game in game_names()}
    return {game: study for game, study in found.items() if study.write_report is not None}


def write_reports(games: Sequence[str] | None = None, out_dir: str | Path = "reports",
                  n_games: int | None = None, seed: int = 2026, jobs: int = 1,
                  progress: bool = False, quick: bool = False) -> list[Path]:
    """Write the default report of each game under ``out_dir/<game>/`` and the HTML site.

    ``games=None`` means every game that has a study; ``n_games=None`` each study's default
    (or its quick size with ``quick``). Returns the paths of the Markdown indexes written.
    The site index ``out_dir/index.html`` lists every game report found in ``out_dir``, so
    writing one game keeps the links to the others written before.
    """
    from .html import write_site

    available = studies()
    names = list(available) if games is None else list(dict.fromkeys(games))
    missing = [name for name in names if name not in available]
    if missing:
        raise BalanceError(f"no report for {', '.join(missing)} yet; reports exist for "
                           f"{', '.join(available)}")
    out = Path(out_dir)
    with one_kernel():  # a report seats plain, trained and search players: compile one kernel
        import time

        started = time.perf_counter()
        warm_kernels(names, jobs=jobs)  # side by side on every core, not one game at a time
        COMPILED.update(dict.fromkeys(names, (time.perf_counter() - started, len(names))))
        written = [available[name].write_report(out / name, n_games=n_games, seed=seed,
                                                jobs=jobs, progress=progress, quick=quick)
                   for name in names]
    write_site(out)
    return written


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the balance reports (Markdown + HTML).")
    parser.add_argument("--game", action="append", dest="games", metavar="NAME",
                        help="a game's report (repeatable; default every game with a study)")
    parser.add_argument("--out", default="reports", help="output folder (default reports)")
    parser.add_argument("--n-games", type=int, default=None,
                        help="games per batch (default: each study's own)")
    parser.add_argument("--seed", type=int, default=2026, help="master seed (default 2026)")
    from sim.runner import all_cores

    parser.add_argument("--jobs", type=int, default=all_cores(),
                        help="parallel workers (default: every core, as `balance report`)")
    parser.add_argument("--quick", action="store_true", help="small batches (about a minute)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    args = parser.parse_args(argv)
    for path in write_reports(args.games, out_dir=args.out, n_games=args.n_games, seed=args.seed,
                              jobs=args.jobs, progress=args.progress, quick=args.quick):
        print(path)


if __name__ == "__main__":
    main()
