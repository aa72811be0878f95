"""One study per game: ``analysis.studies.<game>`` (a module or a package) runs that game's
default balance study and writes its report.

Each study exposes ``write_report(out_dir, *, n_games=None, seed=2026, jobs=1, progress=False,
quick=False) -> Path`` (the path of the written ``index.md``). ``analysis.report`` finds a study
by the game's registered name, so a new game joins ``balance report`` and the HTML site by
adding its module here. Game-specific tables live with the study, not in the shared modules.
"""
