"""Global sensitivity: Morris screening and Sobol indices (SALib) over chosen ranges.

Ablation moves one value one step from the current design; this moves all chosen values at once
over whole ranges. SALib draws the points (Morris trajectories; Saltelli's scheme for Sobol),
each point is played on the same master seed (common random numbers, so the index measures the
parameters, not the deals), and SALib's analysers give the indices with bootstrap 95% intervals.
Integer knobs are rounded to their grid; a point seen twice is played once.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.errors import RulesError

from . import metrics as M
from . import specs
from .precision import check_precision, open_run, run_batch

METHODS = ("morris", "sobol")


def sensitivity(game, vary: Sequence[str] | Mapping, rules=None, strategies="random",
                n_games: int = 2_000, seed: int = 0, *, methods: Sequence[str] = METHODS,
                samples: int = 32, metrics: Sequence[str] | None = None,
                precision: float | None = None, max_games: int | None = None, jobs: int = 1,
                progress: bool = False, run_dir=None) -> pd.DataFrame:
    """Morris mu* / sigma and Sobol S1 / ST of each varied knob on each metric.

    Parameters
    ----------
    vary : ``["legions", "charge_threshold=6..12"]`` or ``{"charge_threshold": (6, 12)}``
        (a bare name takes the knob's declared search range).
    samples : Morris trajectories, and Sobol's base sample N (a power of 2; N * (D + 2) runs).
    metrics : headline metrics to analyse (default: the game's headline ends, the first-seat
        advantage and the mean length).
    run_dir : a folder that keeps every finished chunk: the same call resumes a killed run.
    n_games, precision : games per point, or the precision the current variant is grown to
        (every point then plays that many games).

    Returns
    -------
    DataFrame, one row per (method, metric, parameter, index): value, ci_low, ci_high
    (bootstrap 95%), n_points (distinct variants played), n_games per point.
    """
    from SALib.analyze import morris as morris_analyze
    from SALib.analyze import sobol as sobol_analyze
    from SALib.sample import morris as morris_sample
    from SALib.sample import sobol as sobol_sample

    check_precision(precision, max_games)
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise specs.WorkbenchError(f"unknown method(s) {unknown or methods}; choose from {', '.join(METHODS)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise specs.WorkbenchError(f"samples must be an integer >= 2, got {samples!r}")
    spec, base = specs.resolve(game, rules)
    ranges = specs.parse_ranges(vary, base)
    names = list(ranges)
    knobs = base.tunables()
    wanted = list(metrics) if metrics else [*spec.headline_ends, "first_seat_advantage",
                                            f"{spec.length_name}_mean"]
    known = M.metric_names(spec, base.n_seats)
    bad = [m for m in wanted if m not in known]
    if bad and M.declares_metrics(spec):   # the study's own: named by a small batch
        known += [m for m in M.measured(run_batch(spec, base, strategies, 200, seed, jobs=jobs,
                                                  stream=False), spec, base.n_seats)
                  if m not in known and not m.endswith(("_low", "_high")) and m != "n_games"]
        bad = [m for m in wanted if m not in known]
    if bad:
        raise specs.WorkbenchError(f"unknown metric(s) {', '.join(bad)}; choose from {', '.join(known)}")
    run_dir = open_run(run_dir, "sensitivity", spec, base, strategies, seed=seed,
                       n_games=n_games, ranges={k: list(v) for k, v in ranges.items()},
                       methods=list(methods), samples=samples, precision=precision,
                       max_games=max_games)
    if precision is not None:
        n_games = run_batch(spec, base, strategies, None, seed, precision=precision,
                            max_games=max_games, jobs=jobs, run_dir=run_dir).provenance["n_games"]
    problem = {"num_vars": len(names), "names": names,
               "bounds": [list(ranges[name]) for name in names]}
    cache: dict[tuple, dict] = {}
    batches = []

    def evaluate(X: np.ndarray) -> np.ndarray:
        out = np.empty((len(X), len(wanted)))
        for i, x in enumerate(tqdm(X, desc=f"sensitivity {spec.name}", unit="point",
                                   disable=not progress, leave=False)):
            key = tuple(knobs[n].cast(v) for n, v in zip(names, x))
            if key not in cache:
                try:
                    variant = base.with_knobs(dict(zip(names, key)))
                except RulesError as refused:
                    # a name given without a range took its Tunable's default range
                    raise specs.WorkbenchError(
                        f"the rules refuse a point of the ranges {ranges} ({refused}); narrow "
                        "them: give --vary NAME=LO..HI, or narrow the option's Tunable(low, "
                        "high, span=...) in the game's rules.py, which a NAME without a range "
                        "takes (docs/new_game.md, Tunables)") from None
                result = run_batch(spec, variant, strategies, n_games, seed, jobs=jobs,
                                   stream=not M.declares_metrics(spec), run_dir=run_dir)
                cache[key] = M.measured(result, spec, variant.n_seats)
                batches.append(result.provenance)
            out[i] = [cache[key][m] for m in wanted]
        return out

    rows = []
    rng_seed = int(seed) % (2 ** 32)
    if "morris" in methods:
        X = morris_sample.sample(problem, samples, num_levels=4, seed=rng_seed)
        Y = evaluate(X)
        for j, metric in enumerate(wanted):
            result = morris_analyze.analyze(problem, X, Y[:, j], conf_level=0.95, num_resamples=200,
                                            seed=rng_seed)
            for k, name in enumerate(names):
                mu, conf = float(result["mu_star"][k]), float(result["mu_star_conf"][k])
                rows += [_row("morris", metric, name, "mu_star", mu, mu - conf, mu + conf),
                         _row("morris", metric, name, "sigma", float(result["sigma"][k]))]
    if "sobol" in methods:
        base_n = 1 << max(1, int(np.ceil(np.log2(samples))))
        X = sobol_sample.sample(problem, base_n, calc_second_order=False, seed=rng_seed)
        Y = evaluate(X)
        for j, metric in enumerate(wanted):
            y = Y[:, j]
            if np.ptp(y) == 0:  # nothing varies: every index is 0 (SALib would divide by 0)
                result = {key: np.zeros(len(names)) for key in ("S1", "S1_conf", "ST", "ST_conf")}
            else:
                result = sobol_analyze.analyze(problem, y, calc_second_order=False, conf_level=0.95,
                                               num_resamples=200, seed=rng_seed)
            for k, name in enumerate(names):
                for index in ("S1", "ST"):
                    v, conf = float(result[index][k]), float(result[f"{index}_conf"][k])
                    rows.append(_row("sobol", metric, name, index, v, v - conf, v + conf))
    table = pd.DataFrame(rows)
    table["n_points"] = len(cache)
    table["n_games"] = n_games
    table.attrs["provenance"] = {
        "command": "sensitivity", "game": spec.name, "ranges": {k: list(v) for k, v in ranges.items()},
        "methods": list(methods), "samples": samples, "seed": int(seed), "n_games": n_games,
        "precision_pp": precision, "version": __version__, "batches": batches}
    return table


def _row(method, metric, parameter, index, value, low=np.nan, high=np.nan) -> dict:
    return {"method": method, "metric": metric, "parameter": parameter, "index": index,
            "value": value, "ci_low": low, "ci_high": high}


def sensitivity_figure(table: pd.DataFrame, metric: str | None = None):
    """Bar chart of one metric: Morris mu* and Sobol ST (and S1) per parameter, with intervals."""
    from matplotlib.figure import Figure
    from .ablate import _describable
    from ..plots import _title

    metric = metric or table["metric"].iloc[0]
    part = table[table["metric"] == metric]
    panels = [(m, [i for i in ("mu_star", "S1", "ST") if ((part["method"] == m) & (part["index"] == i)).any()])
              for m in METHODS if (part["method"] == m).any()]
    fig = Figure(figsize=(4.0 * len(panels) + 1, 3.8), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (method, indices) in zip(axes, panels):
        names = list(dict.fromkeys(part["parameter"]))
        x = np.arange(len(names))
        width = 0.8 / len(indices)
        for i, index in enumerate(indices):
            rows = part[(part["method"] == method) & (part["index"] == index)].set_index("parameter").loc[names]
            v = rows["value"].to_numpy(float)
            err = np.nan_to_num(np.maximum(np.vstack([v - rows["ci_low"], rows["ci_high"] - v]), 0))
            ax.bar(x - 0.4 + width * (i + 0.5), v, width, yerr=err, capsize=3, label=index)
        ax.set_xticks(x, names, rotation=45, ha="right", fontsize=8)
        ax.set_title(f"{method} ({metric})", fontsize=9)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8)
    _title(axes[0], f"Sensitivity of {metric}", _describable(table), None)
    return fig
