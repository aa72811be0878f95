"""Sweep: a grid over any options (player count, rule options, tunable knobs, strategies), every
point on the same master seed, so game g gets the same deal at every point (common random
numbers) and neighbouring points differ by the change, not by luck."""
from __future__ import annotations

import itertools
from typing import Mapping, Sequence

import pandas as pd
from tqdm.auto import tqdm

from sim import __version__

from . import metrics as M
from . import specs
from .precision import check_precision, open_run, run_batch


def sweep(game, vary: Sequence[str] | Mapping[str, Sequence], rules=None, strategies="random",
          n_games: int = 10_000, seed: int = 0, *, precision: float | None = None,
          max_games: int | None = None, jobs: int = 1, progress: bool = False,
          run_dir=None) -> pd.DataFrame:
    """One row per grid point: the varied values, n_games, and every headline metric and every
    metric the game's study declares, with its 95% interval (columns ``m``, ``m_low``,
    ``m_high``; see analysis.workbench.metrics).

    Parameters
    ----------
    game : e.g. "parthian".
    vary : ``["n_players=3,4,5,6", "legion_offset=-2,0,2"]`` or ``{"n_players": [3, 4]}``;
        the grid is their product, the first name varying slowest.
    rules, strategies : the base variant and seats; a point overrides what it varies.
    n_games, seed : games per point and the master seed shared by every point.
    precision, max_games : grow each point until every rate's half-width <= precision pp.
    run_dir : a folder that keeps every finished chunk: the same call resumes a killed sweep.
    """
    check_precision(precision, max_games)
    spec, base = specs.resolve(game, rules)
    grid = specs.parse_grid(vary)
    specs.check_names(spec, base, grid)
    points = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
    run_dir = open_run(run_dir, "sweep", spec, base, strategies, seed=seed, n_games=n_games,
                       vary={k: list(map(str, v)) for k, v in grid.items()},
                       precision=precision, max_games=max_games)
    rows, batches = [], []
    for assignment in tqdm(points, desc=f"sweep {spec.name}", unit="point", disable=not progress):
        point_rules, point_strategies = specs.point(spec, base, strategies, assignment)
        result = run_batch(spec, point_rules, point_strategies, n_games, seed,
                           precision=precision, max_games=max_games, jobs=jobs,
                           stream=not M.declares_metrics(spec), run_dir=run_dir)
        rows.append({**assignment, **M.measured(result, spec, point_rules.n_seats)})
        batches.append(result.provenance)
    table = specs.numeric_columns(pd.DataFrame(rows), grid)
    table.attrs["provenance"] = {
        "command": "sweep", "game": spec.name, "vary": {k: list(map(str, v)) for k, v in grid.items()},
        "seed": int(seed), "n_games": None if precision else n_games, "precision_pp": precision,
        "version": __version__, "batches": batches}
    return table


def sweep_figure(table: pd.DataFrame, metric: str | None = None):
    """A line plot with its band (one varied name) or a heat map (two); None for more."""
    from .. import plots

    varied = list(table.attrs["provenance"]["vary"])
    metric = metric or M.primary_metric(table.attrs["provenance"]["game"])
    if metric not in table:
        raise specs.WorkbenchError(f"metric {metric!r} is not in the sweep table; choose one of "
                                   f"{', '.join(c for c in table if f'{c}_low' in table)}")
    if len(varied) == 1:
        return plots.sweep_plot(table, varied[0], metric)
    if len(varied) == 2:
        return plots.heatmap(table, varied[0], varied[1], metric)
    return None
