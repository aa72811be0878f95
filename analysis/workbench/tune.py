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
import textwrap
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
from . import targets as T
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
    front: pd.DataFrame | None = None   # with pareto: every front point, verified

    @property
    def hit(self) -> bool:
        return bool(self.verified["within_tolerance"].all())

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write values.csv, verified.csv, trials.csv and the data file; return their paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {}
        for name in ("values", "verified", "trials", "front"):
            if getattr(self, name) is None:
                continue
            path = out / f"{name}.csv"
            getattr(self, name).to_csv(path, index=False)
            paths[name] = path
        if self.front is not None and len(self.front):
            paths["front_plot"] = out / "front.png"
            front_figure(self.front).savefig(paths["front_plot"], dpi=110)
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
         jobs: int = 1, progress: bool = False, run_dir=None, balance: Sequence[str] = (),
         target_files: Sequence = (), distance: str = "max", pareto: bool = False,
         should_stop=None) -> TuneResult:
    """Search values of the varied knobs that bring every target metric to its value at every
    ``over`` point; verify the winner on a fresh seed.

    Parameters
    ----------
    targets : goals (analysis.workbench.targets): ``["victory=0.5"]``, ``{"victory": 0.5}``,
        ``["max_gap(team_*)<=0.02", "match(trained,random)>=0.6"]``.
    balance : groups whose gap is aimed at 0 (``["teams"]``: the study's ``BALANCE``).
    target_files : CSVs of goals (a matrix of target rates, or strategy-by-strategy rates).
    distance : "max" (the largest deviation over goals and points) or "rms".
    pareto : search the front of (distance, number of changed values, size of the changes)
        with Optuna's multi-objective TPE, and verify every front point on the fresh seed
        (``TuneResult.front``); the tuned values are then the front point with the fewest
        changes whose verified distance is within the tolerance (else the closest).
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
    should_stop : asked between trials and between the pieces of every batch, search and
        verification (precision.stop_point); a true answer raises precision.Stopped.
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
    grid = specs.parse_grid(over or {}, "--over")
    goals = T.parse_goals(spec, targets or (), balance=balance, files=target_files,
                          over_names=list(grid))
    T.distance([], distance)  # checks the name
    specs.check_names(spec, base, grid)
    assignments = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
    points = [(a, *specs.point(spec, base, strategies, a)) for a in assignments]
    T.check_coverage(goals, [T.point_values(r, s, a) for a, r, s in points])
    for point in points:  # names checked on a small batch
        applicable = _applicable(goals, point)
        row = measure(spec, point[1], point[2], 200, seed, applicable, jobs=jobs)
        for goal in applicable:
            goal.measure(row)
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
    run_dir = open_run(run_dir, "tune", spec, base, strategies, seed=seed,
                       targets=[g.text for g in goals], distance=distance, pareto=pareto,
                       vary=vary, over={k: list(map(str, v)) for k, v in grid.items()},
                       trials=trials, search_games=search_games, tolerance=tolerance,
                       fewest_changes=fewest_changes, precision=precision, max_games=max_games)

    trial_rows, tuned, front_rows = [], {}, []
    bar = tqdm(total=trials * len(groups), desc=f"tune {spec.name}", unit="trial", disable=not progress)
    for group in groups:
        search = _Search(spec, [points[i] for i in group], ranges[group[0]], knobs[group[0]], goals,
                         strategies, seed, search_games, tolerance, fewest_changes, jobs, run_dir,
                         distance, should_stop=should_stop)
        label = _label(points[group[0]][0]) if len(group) == 1 else "all"
        if pareto:
            front, rows = search.front(optuna, trials, bar)
            verified_front = _verify_front(search, front, seed + 1, precision, max_games)
            front_rows += [{"point": label, **row} for row in verified_front]
            best = _pick(verified_front, tolerance)
        else:
            best, rows = search.run(optuna, trials, bar)
        for i in group:
            tuned[i] = best
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
        applicable = _applicable(goals, points[i])
        row, provenance = measure(spec, variant, point_strategies, None, verify_seed, applicable,
                                  precision=precision, max_games=max_games, jobs=jobs,
                                  run_dir=run_dir, with_provenance=True, should_stop=should_stop)
        batches.append(provenance)
        for goal in applicable:
            estimate, low, high = goal.measure(row)
            verified_rows.append({
                **assignment, "metric": goal.expression, "op": goal.op, "target": goal.value,
                "verified": estimate, "ci_low": low, "ci_high": high,
                "deviation": goal.deviation(row),
                "within_tolerance": goal.deviation(row) <= tolerance,
                "n_games": row["n_games"], "seed": verify_seed})
    provenance = {
        "command": "tune", "game": spec.name, "targets": [g.text for g in goals],
        "distance": distance, "pareto": pareto, "vary": list(vary) if not
        isinstance(vary, Mapping) else {k: list(v) if isinstance(v, (tuple, list)) else v
                                        for k, v in vary.items()},
        "over": {k: list(map(str, v)) for k, v in grid.items()}, "search_seed": int(seed),
        "verify_seed": verify_seed, "trials": trials, "search_games": search_games,
        "tolerance": tolerance, "fewest_changes": fewest_changes, "precision_pp": precision,
        "version": __version__, "batches": batches}
    tables = [specs.numeric_columns(pd.DataFrame(rows), grid)
              for rows in (value_rows, verified_rows, trial_rows, front_rows)]
    for table in tables:
        table.attrs["provenance"] = provenance
    front_table = tables.pop()
    # Vector knobs (legions[i]) travel in the game's data file; scalar knobs as -o flags.
    vectors = any(knobs[0][name].index is not None for name in ranges[0])
    file = spec.rules_class.tuned_file(variants) if vectors else None
    flags = sorted({f"-o {name}={value}" for values in tuned.values() for name, value in values.items()
                    if knobs[0][name].index is None})
    return TuneResult(*tables, file=file, flags=flags, front=front_table if pareto else None)


def measure(spec, rules, strategies, n_games, seed, goals, *, precision=None, max_games=None,
            jobs: int = 1, run_dir=None, with_provenance: bool = False, should_stop=None):
    """The metrics the goals name, with intervals, from one batch (grown to ``precision`` when
    given): headline metrics, the study's declared metrics when a goal may need them (the batch
    then keeps its records), and a rotated match batch per ``match(A,B)`` goal."""
    records = M.declares_metrics(spec) and any(g.match is None and g.expression not in
                                             M.metric_names(spec, rules.n_seats) for g in goals)
    result = run_batch(spec, rules, strategies, n_games, seed, precision=precision,
                       max_games=max_games, jobs=jobs, stream=not records, run_dir=run_dir,
                       should_stop=should_stop)
    while True:
        row = M.measured(result, spec, rules.n_seats)
        for goal in goals:
            if goal.match is not None:
                row.update(T.match_rate(spec, rules, *goal.match, row["n_games"], seed,
                                        jobs=jobs, run_dir=run_dir))
        n = row["n_games"]
        # The headline rates reached the precision; a goal's own metric (a gap, a match, a
        # declared rate) may be wider: grow on the same schedule until it is not.
        widest = max([(hi - lo) / 2 for lo, hi in (g.measure(row)[1:] for g in goals)
                      if np.isfinite(hi - lo)] or [0.0])
        if precision is None or widest <= precision / 100 or n >= max_games:
            break
        n = min(max_games, max(2 * n, int(n * (widest / (precision / 100)) ** 2)))
        result = run_batch(spec, rules, strategies, 1000 * math.ceil(n / 1000), seed, jobs=jobs,
                           stream=not records, run_dir=run_dir, should_stop=should_stop)
    return (row, result.provenance) if with_provenance else row


def _verify_front(search, front: list[dict], seed: int, precision: float, max_games: int) -> list[dict]:
    """Every front point re-played on the fresh seed, grown to the precision."""
    rows = []
    for number, values in enumerate(front):
        deviations, verified = [], {}
        for assignment, rules, strategies in search.points:
            goals = _applicable(search.goals, (assignment, rules, strategies))
            row = measure(search.spec, rules.with_knobs(values), strategies, None, seed, goals,
                          precision=precision, max_games=max_games, jobs=search.jobs,
                          run_dir=search.run_dir, should_stop=search.should_stop)
            for goal in goals:
                estimate, low, high = goal.measure(row)
                name = f"{_label(assignment)}: {goal.expression}"
                verified.update({name: estimate, f"{name}_low": low, f"{name}_high": high})
                deviations.append(goal.deviation(row))
        changed = {k: v for k, v in values.items() if v != search.knobs[k].value}
        rows.append({"front_point": number, "changes": search.changes(values),
                     "size": search.size(values),
                     "changed": ", ".join(f"{k}={v:g}" for k, v in changed.items()) or "(none)",
                     "verified_distance": T.distance(deviations, search.distance),
                     "values": values, **verified})
    return rows


def _pick(front_rows: list[dict], tolerance: float) -> dict:
    """The front point a designer would take by default: the fewest changes within tolerance,
    else the closest."""
    hits = [r for r in front_rows if r["verified_distance"] <= tolerance]
    chosen = min(hits, key=lambda r: (r["changes"], r["size"], r["verified_distance"])) if hits \
        else min(front_rows, key=lambda r: r["verified_distance"])
    return chosen["values"]


def front_figure(front: pd.DataFrame):
    """Verified distance against the number of changed values, one dot per front point."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.5, 4.0), layout="constrained")
    ax = fig.add_subplot()
    from matplotlib.ticker import MaxNLocator

    for point, part in front.groupby("point", sort=False):
        dots = ax.plot(part["changes"], 100 * part["verified_distance"], "o", alpha=0.6)[0]
        best = part.groupby("changes")["verified_distance"].min()  # the best at each count
        ax.step(best.index, 100 * best.to_numpy(), where="post", color=dots.get_color(),
                label=f"{point}: best at each number of changes")
        for row in part.itertuples():
            ax.annotate(textwrap.shorten(row.changed, 40), (row.changes,
                                                            100 * row.verified_distance),
                        fontsize=6, xytext=(3, 3), textcoords="offset points")
    tolerance = front.attrs.get("provenance", {}).get("tolerance")
    if tolerance:
        ax.axhline(100 * tolerance, color="grey", linestyle="--", linewidth=1, label="tolerance")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("values changed")
    ax.set_ylabel("distance to the goals, pp (verified on a fresh seed)")
    ax.set_title("Fewest changes: the Pareto front", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return fig


def _applicable(goals, point) -> list:
    """The goals that hold at a point (assignment, rules, strategies): a goal restricted to a
    player count holds where the point plays it, whether --over varies the count or not."""
    assignment, rules, strategies = point
    values = T.point_values(rules, strategies, assignment)
    return [g for g in goals if g.applies(values)]


def _label(assignment: Mapping) -> str:
    return ", ".join(f"{k}={v}" for k, v in assignment.items()) or "all"


class _Search:
    """One Optuna study over one set of knobs, evaluated at one or several points."""

    def __init__(self, spec, points, ranges, knobs, goals, strategies, seed, search_games,
                 tolerance, fewest_changes, jobs, run_dir=None, distance="max", should_stop=None):
        self.spec, self.points, self.ranges, self.knobs = spec, points, ranges, knobs
        self.distance = distance
        self.goals, self.seed, self.jobs, self.run_dir = goals, seed, jobs, run_dir
        self.tolerance, self.fewest = tolerance, fewest_changes
        self.floor = tolerance / 8            # the search's finest half-width
        self.max_games = search_games
        self.cache: dict[tuple, float] = {}
        self.should_stop = should_stop   # asked before every trial's batches (tune's hook)

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
        deviations, estimates = [], {}
        for assignment, rules, strategies in self.points:
            try:
                variant = rules.with_knobs(values)
            except RulesError:
                self.cache[key] = (math.inf, {})
                return self.cache[key]
            goals = _applicable(self.goals, (assignment, rules, strategies))
            row = measure(self.spec, variant, strategies, n, self.seed, goals, jobs=self.jobs,
                          run_dir=self.run_dir, should_stop=self.should_stop)
            for goal in goals:
                estimates[f"{_label(assignment)}: {goal.expression}"] = goal.measure(row)[0]
                deviations.append(goal.deviation(row))
        self.cache[key] = (T.distance(deviations, self.distance), estimates)
        return self.cache[key]

    def size(self, values: dict) -> float:
        """How much the values moved, in steps of each knob (the front's third objective)."""
        return float(sum(abs(value - self.knobs[name].value) / (self.knobs[name].step or 1)
                         for name, value in values.items()))

    def front(self, optuna, n_trials: int, bar) -> tuple[list[dict], list[dict]]:
        """The Pareto front of (distance, changed values, size of the changes): multi-objective
        TPE (seeded), every trial on the search seed's games at a fixed size."""
        sampler = optuna.samplers.TPESampler(seed=int(self.seed) % (2 ** 32), multivariate=True,
                                             n_startup_trials=10)
        study = optuna.create_study(directions=["minimize", "minimize", "minimize"],
                                    sampler=sampler)
        fewest, self.fewest = self.fewest, True  # every knob may stay as it is
        n = self.max_games // 4 if self.max_games >= 4000 else self.max_games
        n = max(1000, 1000 * (n // 1000))
        rows = []

        def objective(trial):
            values = self.suggest(trial)
            deviation, estimates = self.deviation(values, n)
            trial.set_user_attr("values", values)
            rows.append({"trial": trial.number, "n_games": n, "deviation": deviation,
                         "changes": self.changes(values), "size": self.size(values),
                         **estimates, **values})
            bar.update(1)
            return deviation, self.changes(values), self.size(values)

        current = {name: self.knobs[name].value for name in self.ranges}
        unchanged = {f"change {k}": False for k in current}
        study.enqueue_trial({**current, **unchanged})
        # A designer's first guesses: each value one step up or down alone, so that the front
        # holds every single change that helps before the sampler combines them.
        for name, (low, high) in self.ranges.items():
            knob = self.knobs[name]
            for direction in (-1, 1):
                value = knob.cast(knob.value + direction * knob.step)
                if low <= value <= high:
                    study.enqueue_trial({**current, **unchanged, name: value,
                                         f"change {name}": True})
        study.optimize(objective, n_trials=max(n_trials, len(study.trials) + 10))
        self.fewest = fewest
        seen, front = set(), []
        for t in sorted(study.best_trials, key=lambda t: (t.values[1], t.values[0])):
            key = tuple(sorted(t.user_attrs["values"].items()))
            if key not in seen and np.isfinite(t.values[0]):
                seen.add(key)
                front.append(t.user_attrs["values"])
        return front, rows

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
