"""`balance study FILE.toml`: run a study written as a file (analysis/study_file.py)."""
from __future__ import annotations

import argparse
from pathlib import Path

EXAMPLE = """\
example (studies/ holds the shipped ones):
  balance study studies/samurai_teams.toml
  balance study my_study.toml --check          # validate everything the run will need; play nothing
"""


def add_commands(commands) -> None:
    from sim.runner import all_cores

    parser = commands.add_parser(
        "study", help="run a study written as a TOML file; writes a report like the built-in ones",
        description="Run every section of a study file (game, variant, strategies, sample sizes "
        "or precision, seed, then summary / sweep / ablate / cards / tune / compare / skill "
        "sections; analysis/study_file.py documents the keys) and write its report (Markdown + "
        "HTML, CSVs, PNGs). The file and its SHA-256 go into the provenance.\n\n" + EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="the study file (.toml)")
    parser.add_argument("--out", type=Path, default=None,
                        help="report folder (default reports/studies/<file name>)")
    parser.add_argument("--check", action="store_true",
                        help="validate the file and everything its sections need (the check a "
                        "run starts with); play nothing")
    cores = all_cores()
    parser.add_argument("--jobs", type=int, default=cores,
                        help=f"parallel threads per batch (default: every core, {cores} here)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    parser.set_defaults(run=run_study)


def run_study(args) -> int:
    from analysis import study_file

    study = study_file.read(args.file)
    if args.check:   # the check the run starts with (study_file.check): nothing is played
        study_file.check(study)
        print(f"{args.file}: {study.game}, {len(study.sections)} sections "
              f"({', '.join(s['kind'] for s in study.sections)}): OK")
        return 0
    path = study_file.run(study, args.out, jobs=args.jobs, progress=not args.no_progress)
    print(f"report written: {path} (and index.html)")
    return 0
