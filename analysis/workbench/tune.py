"""Tuner: find design values that hit one or several targets, then verify them on fresh games.

Why Optuna's TPE sampler: the objective (distance of simulated rates from their targets) has no
gradient, is noisy, is cheap but not free (milliseconds to a second a point), and its
parameters are bounded integers (card values) or floats, sometimes only meaningful together
("change this value or keep it", for --fewest-changes). TPE handles integer and conditional
parameters natively, needs no smoothness, is robust to noise, is deterministic with a seed, and
Optuna is well kept and widely used. (Bayesian optimisation with Gaussian processes models
integer grids and conditional parameters poorly; CMA-ES needs continuous parameters and many
more evaluations; a grid explodes with 7 card values.)

How the noise is handled:

- the first trials are the current values and the current values all moved together by a
  fraction of their range (a designer's first guesses; the objective is flat where every
  legion is far too strong, so purely random starts can miss the interesting region);
- every trial plays the same games (the search seed, games 0..n-1): two trials at the same n
  differ only by their parameters (common random numbers);
- the sample size grows as the search narrows: a trial plays enough games that its 95%
  half-width is about half the best distance found so far (never below ``tolerance / 8``,
  never above ``search_games``), on a grid of powers of two so the games stay a prefix;
- the search's own estimates are never reported: the best candidates are re-played on four
  times the search's largest sample, the winner is chosen there, and it is then re-run on a fresh seed never
  used during the search (``seed + 1``), grown to ``precision``; that verified figure, with its
  interval, is the result.

``--over`` points (e.g. player counts) share the varied values, unless the varied option is
declared ``per`` that option (Parthian's legion strengths are per player count): then each
point is tuned on its own and gets its own values.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.errors import RulesError

from . import metrics as M
from . import specs
from .precision import check_precision, open_run, run_batch

CANDIDATES = 8        # best trials re-played before the winner is chosen
FINAL_FACTOR = 4      # ... on this many times the search's largest sample
# First guesses besides the current values: every varied knob moved together by these
# fractions of the way to the end of its range (a designer's "all a bit weaker / stronger").
SHIFTS = (-0.75, -0.5, -0.25, 0.25, 0.5)


@dataclass
class TuneResult:
    """The tuned values and their verification; every table carries provenance."""

    values: pd.DataFrame        # one row per (point, knob): current, tuned, changed
    verified: pd.DataFrame      # one row per (point, target): verified estimate and interval
    trials: pd.DataFrame        # every search trial (point, number, n_games, deviation, params)
    file: tuple[str, str] | None = None   # (option, text) of a data file -o accepts
    flags: list[str] = field(default_factory=list)   # -o flags that play the tuned values

    @property
    def hit(self) -> bool:
        return bool(self.verified["within_tolerance"].all())

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write values.csv, verified.csv, trials.csv and the data file; return their paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {}
        for name in ("values", "verified", "trials"):
            path = out / f"{name}.csv"
            getattr(self, name).to_csv(path, index=False)
            paths[name] = path
        if self.file is not None:
            option, text = self.file
            path = out / f"{option}.csv"
            path.write_text(text)
            paths[option] = path
        import json
        (out / "provenance.json").write_text(json.dumps(self.verified.attrs["provenance"], indent=1,
                                                        default=str))
        return paths


def tune(game, targets: Sequence[str] | Mapping[str, float], vary: Sequence[str] | Mapping,
         over: Sequence[str] | Mapping | None = None, rules=None, strategies="random",
         seed: int = 0, *, trials: int = 150, search_games: int = 64_000, tolerance: float = 0.02,
         fewest_changes: bool = False, precision: float = 0.5, max_games: int = 1_000_000,
         jobs: int = 1, progress: bool = False, run_dir=None) -> TuneResult:
    """Search values of the varied knobs that bring every target metric to its value at every
    ``over`` point; verify the winner on a fresh seed.

    Parameters
    ----------
    targets : ``["victory=0.5"]`` or ``{"victory": 0.5}``: headline metrics and their targets.
    vary : ``["legions"]``, ``["charge_threshold=6..12"]``: knobs and optional ranges.
    over : ``["n_players=3,4,5,6"]``: points at which every target must hold.
    trials : Optuna trials per search (one search per point when the values are per point).
    search_games : the most games a search trial plays.
    tolerance : a verified metric within this distance of its target is a hit (0.02 = 2 pp).
    fewest_changes : prefer changing as few knobs as possible from their current values.
    precision, max_games : the verification batch grows until every rate's half-width is at
        most ``precision`` pp (or ``max_games``).
    run_dir : a folder that keeps every finished chunk. The search is deterministic (seeded
        sampler, batches on the search seed), so the same call replays the finished trials from
        disk and resumes a killed run to the same result.
    """
    import optuna

    check_precision(precision, max_games)
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
        raise specs.WorkbenchError(f"trials must be a positive integer, got {trials!r}")
    if not 0 < tolerance < 1:
        raise specs.WorkbenchError(f"tolerance must lie in (0, 1), got {tolerance!r}")
    if not isinstance(search_games, int) or search_games < 1000:
        raise specs.WorkbenchError(f"search games must be an integer >= 1000, got {search_games!r}")
    spec, base = specs.resolve(game, rules)
    goals = specs.parse_targets(targets)
    grid = specs.parse_grid(over or {}, "--over")
    specs.check_names(spec, base, grid)
    assignments = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
    points = [(a, *specs.point(spec, base, strategies, a)) for a in assignments]
    for _, point_rules, _ in points:
        known = M.metric_names(spec, point_rules.n_seats)
        bad = [m for m in goals if m not in known]
        if bad:
            raise specs.WorkbenchError(f"unknown target metric(s) {', '.join(bad)}; choose from "
                                       f"{', '.join(known)}")
    ranges = [specs.parse_ranges(vary, point_rules) for _, point_rules, _ in points]
    knobs = [point_rules.tunables() for _, point_rules, _ in points]
    per_point = [bool(set(knobs[0][n].per) & set(grid)) for n in ranges[0]]
    if not any(per_point):
        groups = [list(range(len(points)))]          # one search, values shared by every point
    elif all(per_point):
        groups = [[i] for i in range(len(points))]   # one search per point
    else:
        raise specs.WorkbenchError(
            "the varied parameters mix values per --over point and shared values; tune them in "
            "two runs (" + ", ".join(n for n in ranges[0] if set(knobs[0][n].per) & set(grid))
            + " are per point)")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    run_dir = open_run(run_dir, "tune", spec, base, strategies, seed=seed, targets=goals,
                       vary=vary, over={k: list(map(str, v)) for k, v in grid.items()},
                       trials=trials, search_games=search_games, tolerance=tolerance,
                       fewest_changes=fewest_changes, precision=precision, max_games=max_games)

    trial_rows, tuned = [], {}
    bar = tqdm(total=trials * len(groups), desc=f"tune {spec.name}", unit="trial", disable=not progress)
    for group in groups:
        search = _Search(spec, [points[i] for i in group], ranges[group[0]], knobs[group[0]], goals,
                         strategies, seed, search_games, tolerance, fewest_changes, jobs, run_dir)
        best, rows = search.run(optuna, trials, bar)
        for i in group:
            tuned[i] = best
        label = _label(points[group[0]][0]) if len(group) == 1 else "all"
        trial_rows += [{"point": label, **row} for row in rows]
    bar.close()

    value_rows, verified_rows, variants, batches = [], [], [], []
    verify_seed = int(seed) + 1
    for i, (assignment, point_rules, point_strategies) in enumerate(points):
        variant = point_rules.with_knobs(tuned[i])
        variants.append(variant)
        for name, value in tuned[i].items():
            current = knobs[i][name].value
            value_rows.append({**assignment, "parameter": name, "current": current,
                               "tuned": value, "changed": value != current})
        result = run_batch(spec, variant, point_strategies, None, verify_seed,
                           precision=precision, max_games=max_games, jobs=jobs, run_dir=run_dir)
        batches.append(result.provenance)
        row = M.headline(result.summary)
        for metric, target in goals.items():
            verified_rows.append({
                **assignment, "metric": metric, "target": target, "verified": row[metric],
                "ci_low": row[f"{metric}_low"], "ci_high": row[f"{metric}_high"],
                "deviation": row[metric] - target,
                "within_tolerance": abs(row[metric] - target) <= tolerance,
                "n_games": row["n_games"], "seed": verify_seed})
    provenance = {
        "command": "tune", "game": spec.name, "targets": goals, "vary": list(vary) if not
        isinstance(vary, Mapping) else {k: list(v) if isinstance(v, (tuple, list)) else v
                                        for k, v in vary.items()},
        "over": {k: list(map(str, v)) for k, v in grid.items()}, "search_seed": int(seed),
        "verify_seed": verify_seed, "trials": trials, "search_games": search_games,
        "tolerance": tolerance, "fewest_changes": fewest_changes, "precision_pp": precision,
        "version": __version__, "batches": batches}
    tables = [specs.numeric_columns(pd.DataFrame(rows), grid)
              for rows in (value_rows, verified_rows, trial_rows)]
    for table in tables:
        table.attrs["provenance"] = provenance
    # Vector knobs (legions[i]) travel in the game's data file; scalar knobs as -o flags.
    vectors = any(knobs[0][name].index is not None for name in ranges[0])
    file = spec.rules_class.tuned_file(variants) if vectors else None
    flags = sorted({f"-o {name}={value}" for values in tuned.values() for name, value in values.items()
                    if knobs[0][name].index is None})
    return TuneResult(*tables, file=file, flags=flags)


def _label(assignment: Mapping) -> str:
    return ", ".join(f"{k}={v}" for k, v in assignment.items()) or "all"


class _Search:
    """One Optuna study over one set of knobs, evaluated at one or several points."""

    def __init__(self, spec, points, ranges, knobs, goals, strategies, seed, search_games,
                 tolerance, fewest_changes, jobs, run_dir=None):
        self.spec, self.points, self.ranges, self.knobs = spec, points, ranges, knobs
        self.goals, self.seed, self.jobs, self.run_dir = goals, seed, jobs, run_dir
        self.tolerance, self.fewest = tolerance, fewest_changes
        self.floor = tolerance / 8            # the search's finest half-width
        self.max_games = search_games
        self.cache: dict[tuple, float] = {}

    def games_for(self, best_deviation: float) -> int:
        """Games for a half-width of about half the best distance so far (powers of 2 x 1000)."""
        half = max(best_deviation / 2, self.floor)
        needed = M.Z95 ** 2 * 0.25 / half ** 2
        n = 1000 * 2 ** max(0, math.ceil(math.log2(max(needed, 1000) / 1000)))
        return min(n, self.max_games)

    def deviation(self, values: dict, n: int) -> tuple[float, dict]:
        """Largest |metric - target| over the points and targets, at n games of the search seed."""
        key = (tuple(sorted(values.items())), n)
        if key in self.cache:
            return self.cache[key]
        worst, estimates = 0.0, {}
        for assignment, rules, strategies in self.points:
            try:
                variant = rules.with_knobs(values)
            except RulesError:
                self.cache[key] = (math.inf, {})
                return self.cache[key]
            row = M.headline(run_batch(self.spec, variant, strategies, n, self.seed,
                                       jobs=self.jobs, run_dir=self.run_dir).summary)
            for metric, target in self.goals.items():
                estimates[f"{_label(assignment)}: {metric}"] = row[metric]
                worst = max(worst, abs(row[metric] - target))
        self.cache[key] = (worst, estimates)
        return self.cache[key]

    def changes(self, values: dict) -> int:
        return sum(value != self.knobs[name].value for name, value in values.items())

    def score(self, deviation: float, values: dict) -> float:
        """What the search minimises: the distance, or with --fewest-changes, the distance
        floored at half the tolerance plus half the tolerance per changed knob."""
        if not self.fewest:
            return deviation
        return max(deviation, self.tolerance / 2) + self.tolerance / 2 * self.changes(values)

    def suggest(self, trial) -> dict:
        values = {}
        for name, (low, high) in self.ranges.items():
            knob = self.knobs[name]
            if self.fewest and not trial.suggest_categorical(f"change {name}", [False, True]):
                values[name] = knob.value
                continue
            if knob.integer:
                values[name] = trial.suggest_int(name, int(math.ceil(low)), int(math.floor(high)),
                                                 step=max(1, int(knob.step)))
            else:
                values[name] = trial.suggest_float(name, low, high)
        return values

    def run(self, optuna, n_trials: int, bar) -> tuple[dict, list[dict]]:
        sampler = optuna.samplers.TPESampler(seed=int(self.seed) % (2 ** 32), multivariate=True,
                                             n_startup_trials=10)
        study = optuna.create_study(direction="minimize", sampler=sampler)
        current = {name: min(max(self.knobs[name].value, low), high)
                   for name, (low, high) in self.ranges.items()}
        study.enqueue_trial({**current, **({f"change {n}": False for n in current} if self.fewest else {})})
        for shift in SHIFTS:
            moved = {}
            for name, (low, high) in self.ranges.items():
                end = low if shift < 0 else high
                moved[name] = self.knobs[name].cast(current[name] + abs(shift) * (end - current[name]))
            study.enqueue_trial({**moved, **({f"change {n}": True for n in moved} if self.fewest else {})})
        best = [1.0]   # best deviation so far (sets the sample size)
        rows = []

        def objective(trial):
            values = self.suggest(trial)
            n = self.games_for(best[0])
            deviation, estimates = self.deviation(values, n)
            best[0] = min(best[0], deviation)
            trial.set_user_attr("values", values)
            rows.append({"trial": trial.number, "n_games": n, "deviation": deviation,
                         "changes": self.changes(values), **estimates, **values})
            bar.update(1)
            if n >= self.max_games and deviation <= self.floor and not self.fewest:
                study.stop()   # as close as the search can see: stop early
            return self.score(deviation, values)

        study.optimize(objective, n_trials=n_trials)
        done = [t for t in study.trials if t.value is not None and np.isfinite(t.value)]
        if not done:
            raise specs.WorkbenchError("every trial was refused by the rules; widen or move the ranges")
        ranked, seen = [], set()
        for t in sorted(done, key=lambda t: t.value):
            key = tuple(sorted(t.user_attrs["values"].items()))
            if key not in seen:
                seen.add(key)
                ranked.append(t.user_attrs["values"])
            if len(ranked) == CANDIDATES:
                break
        # Re-play the best candidates on more games than any trial had: never trust the
        # search's own (smaller, selected) estimates.
        final_n = FINAL_FACTOR * self.max_games
        final = [(self.score(self.deviation(v, final_n)[0], v), i, v) for i, v in enumerate(ranked)]
        return min(final)[2], rows


def tuned_section(doc, game, over: Mapping[str, Sequence], rules, strategies,
                  targets: Mapping[str, float], n_games: int, seed: int, jobs: int = 1,
                  tolerance: float = 0.02, heading: str = "Tuned set", note: str = "") -> pd.DataFrame:
    """A report section that re-verifies a shipped tuned set (e.g. a legion table written by
    ``balance tune``) on the report's own seed: every target at every ``over`` point, with its
    95% interval and whether it lies within ``tolerance``. ``doc`` is an analysis.markdown.Doc."""
    from ..markdown import pct_text
    from .sweep import sweep

    table = sweep(game, {k: list(v) for k, v in over.items()}, rules, strategies, n_games, seed,
                  jobs=jobs)
    view = table[list(over)].copy()
    for metric, target in targets.items():
        view[f"{metric} (95% CI)"] = pct_text(table[metric], table[f"{metric}_low"],
                                              table[f"{metric}_high"])
        view[f"within {100 * tolerance:g} pp of {target:g}"] = \
            ["yes" if abs(v - target) <= tolerance else "no" for v in table[metric]]
    doc.text(f"## {heading}\n\n{note}")
    doc.table("tuned_set", table, view)
    return table
