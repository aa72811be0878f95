"""Each game's balance report: run its default study, write Markdown + PNG + CSV.

    python -m analysis.report --games 200000 --jobs 2 --out reports/parthian
    python -m analysis.report --game sunzi --jobs 2

The studies live in analysis/<game>_report.py (Sunzi's tables in analysis/sunzi.py); this
module only knows which games have one.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from sim.errors import BalanceError

from .parthian_report import parthian_report
from .sunzi_report import sunzi_report

# Each game's default study; `balance report` (sim/cli.py) runs them through write_reports.
REPORTS = {"parthian": parthian_report, "sunzi": sunzi_report}


def write_reports(games: Sequence[str] | None = None, out_dir: str | Path = "reports",
                  n_games: int | None = None, seed: int = 0, jobs: int = 1,
                  progress: bool = False) -> list[Path]:
    """Write the default report of each game under ``out_dir/<game>/``; return the index paths.

    ``games=None`` means every game that has a report; ``n_games=None`` each study's default.
    """
    names = list(REPORTS) if games is None else list(games)
    missing = [name for name in names if name not in REPORTS]
    if missing:
        raise BalanceError(f"no report for {', '.join(missing)} yet; reports exist for "
                           f"{', '.join(REPORTS)}")
    sized = {} if n_games is None else {"n_games": n_games}
    return [REPORTS[name](Path(out_dir) / name, seed=seed, jobs=jobs, progress=progress, **sized)
            for name in names]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write one game's balance report.")
    parser.add_argument("--game", choices=list(REPORTS), default="parthian",
                        help="which game's study (default parthian)")
    parser.add_argument("--out", default=None, help="output folder (default reports/<game>)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per batch (default: the study's own)")
    parser.add_argument("--seed", type=int, default=0, help="master seed")
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers (-1 = all cores)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    args = parser.parse_args(argv)
    sized = {} if args.games is None else {"n_games": args.games}
    print(REPORTS[args.game](args.out or f"reports/{args.game}", seed=args.seed, jobs=args.jobs,
                             progress=args.progress, **sized))


if __name__ == "__main__":
    main()
