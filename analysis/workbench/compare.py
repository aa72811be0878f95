"""Is B better than A? A sequential test on paired games (``balance compare``).

Two sides -- two rule variants, or two strategy sets -- play the same games of one master seed
(common random numbers: game g has the same deal and random streams on both sides) with rotated
seats (game g seats strategy (s + g) mod N at seat s, on both sides). Each game gives one paired
difference d = metric(B) - metric(A); most of the luck both sides share cancels in d.

The test is a GSPRT (generalised sequential probability ratio test) on the mean of d, as
chess-engine testing (Fishtest, cutechess-cli) runs it: under the normal approximation the log
likelihood ratio of H1 (mean d = delta) against H0 (mean d = 0) after n games is

    LLR = n * delta * (mean - delta / 2) / var,

var being the sample variance of d (the "generalised" part: the variance is estimated from the
data, not assumed). Wald's bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha) give the
error rates alpha (false positive) and beta = 1 - power (missing a real delta). A two-sided test
runs two one-sided tests, for +delta and -delta, at alpha / 2 each: B differs as soon as one of
them accepts its H1; there is no difference of delta once both have accepted H0 (a side that
accepted H0 stays closed, so each side is a proper SPRT and the error rates add up).

Games are played in steps (``batch`` games per side, then a quarter more of what was played),
each step the *next* games of the seed, so the schedule and the decision depend only on the seed
and the games: the result is the same at any ``jobs``, and with ``run_dir`` every step's chunks
are kept so a killed comparison resumes to the same result. Checking after a step rather than
after every game only overshoots the bounds, which makes the test slightly conservative.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats
from tqdm.auto import tqdm

from sim import __version__
from sim.runner import simulate
from sim.strategy import resolve_seats

from . import metrics as M
from . import specs
from .precision import PIECE_SECONDS, open_run, play_pieces
from ..stats import paired_difference

ALTERNATIVES = ("two-sided", "greater", "less")
DEFAULT_BATCH = 2_000
DEFAULT_MAX_GAMES = 1_000_000
GROWTH = 0.25     # after the first steps, each step adds this share of the games played so far
# The smallest rate difference worth asking for: 0.001 pp already needs some 10^10 games per
# side at a rate's largest spread; below it no run could ever decide.
MIN_RATE_DELTA_PP = 0.001
# Games counts beyond this are "more than any run" (inf): the tables keep 64-bit integers.
MAX_COUNT = 2 ** 53


class SPRT:
    """The sequential test on the running mean and variance of the paired differences.

    Pure Python, no games: ``update(n, mean, var)`` after each step returns ``("H1", +1)``
    (B higher by delta), ``("H1", -1)`` (B lower), ``("H0", 0)`` (no difference of delta) or None
    (play on). ``delta`` is in the metric's units (0.01 for 1 pp of a rate).
    """

    def __init__(self, delta: float, alpha: float = 0.05, power: float = 0.9,
                 alternative: str = "two-sided"):
        check_levels(delta, alpha, power, alternative)
        self.delta, self.alpha, self.power, self.alternative = float(delta), alpha, power, alternative
        self.sides = {"two-sided": (+1, -1), "greater": (+1,), "less": (-1,)}[alternative]
        self.side_alpha = alpha / len(self.sides)
        beta = 1 - power
        self.lower = math.log(beta / (1 - self.side_alpha))
        self.upper = math.log((1 - beta) / self.side_alpha)
        self.open = set(self.sides)
        self.llr: dict[int, float] = {}

    def llr_of(self, side: int, n: int, mean: float, var: float) -> float:
        mu1 = side * self.delta
        push = n * mu1 * (mean - mu1 / 2)
        if var <= 0:   # every difference equal: the data are certain, the ratio infinite
            return math.copysign(math.inf, push) if push else 0.0
        return push / var

    def update(self, n: int, mean: float, var: float):
        for side in self.sides:
            self.llr[side] = self.llr_of(side, n, mean, var)
        for side in sorted(self.open):
            if self.llr[side] >= self.upper:
                return "H1", side
        self.open = {side for side in self.open if self.llr[side] > self.lower}
        return None if self.open else ("H0", 0)

    def fixed_games(self, sd: float) -> int:
        """Games per side a single fixed-size paired z-test at the same alpha, power and delta
        needs for a per-game difference of this standard deviation."""
        z = stats.norm.ppf(1 - self.side_alpha) + stats.norm.ppf(self.power)
        return _count(max(2.0, (z * sd / self.delta) ** 2))

    def expected_games(self, sd: float) -> tuple[int, int]:
        """Wald's approximate mean number of games under H0 and under H1 (no overshoot)."""
        step = self.delta ** 2 / (2 * sd * sd)      # mean LLR per game at mean 0 (-) or delta (+)
        beta, a = 1 - self.power, self.side_alpha
        under_h0 = ((1 - a) * -self.lower - a * self.upper) / step
        under_h1 = ((1 - beta) * self.upper + beta * self.lower) / step
        return _count(under_h0), _count(under_h1)


def _count(games: float):
    """A number of games rounded up; inf where it exceeds MAX_COUNT (a tiny delta), so that a
    table holding it still fits 64-bit columns (CSV, Parquet)."""
    return math.ceil(games) if games <= MAX_COUNT else math.inf


def check_rate_delta(delta_pp: float) -> None:
    """A rate's difference lies in [MIN_RATE_DELTA_PP, 100] percentage points."""
    if not MIN_RATE_DELTA_PP <= delta_pp <= 100:
        raise specs.WorkbenchError(
            f"delta {delta_pp:g} pp is out of range for a rate: give {MIN_RATE_DELTA_PP:g} to 100 "
            "percentage points (--delta 1pp); a smaller difference needs more games than any "
            "run can play")


def check_levels(delta, alpha, power, alternative) -> None:
    def number(x):
        return isinstance(x, (int, float, np.floating)) and not isinstance(x, bool) and math.isfinite(x)

    if not number(delta) or delta <= 0:
        raise specs.WorkbenchError(f"delta must be a positive number, got {delta!r}: it is the "
                                   "size of the difference worth detecting; the alternative "
                                   "('greater', 'less') gives its direction")
    if not number(alpha) or not 0 < alpha < 1:
        raise specs.WorkbenchError(f"alpha must be a number in (0, 1), got {alpha!r}")
    if not number(power) or not 0 < power < 1:
        raise specs.WorkbenchError(f"power must be a number in (0, 1), got {power!r}")
    if alternative not in ALTERNATIVES:
        raise specs.WorkbenchError(f"alternative must be one of {', '.join(ALTERNATIVES)}, "
                                   f"got {alternative!r}")
    if power <= alpha / (2 if alternative == "two-sided" else 1):
        raise specs.WorkbenchError(f"power {power} must exceed alpha {alpha}")


# --- the two sides -------------------------------------------------------------------------

@dataclass
class Side:
    label: str            # "A" or "B"
    text: str             # what the user asked for, for the table
    rules: object
    strategies: object
    labels: tuple = field(default=())


def parse_side(text, spec) -> dict:
    """``"n_players=4,charge_threshold=3"`` (or a list of such, or a dict) -> {name: value}.

    Names are what ``--vary`` takes: rule options, ``strategies`` (seats joined by +) and tunable
    knobs (``legions[3]``). A comma starts a new assignment only where a known name and ``=``
    follow it, so values that contain commas (``legions=1,2,3,...``,
    ``strategies=ismcts:budget=64,rollout=greedy``) stay whole.
    """
    if text is None:
        return {}
    if isinstance(text, Mapping):
        return dict(text)
    items = [text] if isinstance(text, str) else list(text)
    options = spec.rules_class.options()
    out: dict = {}
    for item in items:
        name = None
        for piece in str(item).split(","):
            key, sep, value = piece.partition("=")
            key = key.strip()
            if sep and (key in options or key in specs.STRATEGIES or re.fullmatch(r"\w+\[\w+\]", key)):
                if key in out:
                    raise specs.WorkbenchError(f"{item!r} sets {key!r} twice")
                name, out[key] = key, value.strip()
            elif name is None:
                if not piece.strip():
                    continue
                raise specs.WorkbenchError(
                    f"{piece.strip()!r} in {item!r} is not NAME=VALUE with a rule option, "
                    f"'strategies' or a tunable of {spec.title}; options: {', '.join(options)}")
            else:
                out[name] += "," + piece
    return out


def make_side(spec, base_rules, base_strategies, label, assignment, strategies=None) -> Side:
    assignment = parse_side(assignment, spec)
    specs.check_names(spec, base_rules, assignment)
    rules, seats = specs.point(spec, base_rules, base_strategies, assignment)
    if strategies is not None:
        seats = strategies
    text = ", ".join(f"{k}={v}" for k, v in assignment.items()) or "(base)"
    side = Side(label, text, rules, seats)
    side.labels = tuple(resolve_seats(spec, seats, rules.n_seats, rules).labels)
    return side


def metric_values(records: pd.DataFrame, spec, side: Side, metric: str) -> np.ndarray:
    """One value of the metric per game. ``side_<k>``: the win share of the k-th strategy of the
    list, wherever rotation seated it (seat (k - g) mod N in game g)."""
    n = side.rules.n_seats
    if metric.startswith("side_"):
        k = int(metric[5:])
        seat = (k - records["game_id"].to_numpy()) % n
        wins = np.column_stack([records[f"win_{s}"].to_numpy(float) for s in range(n)])
        return wins[np.arange(len(records)), seat]
    return M.per_game(records, spec, n)[metric]


def check_metric(spec, metric: str, sides: Sequence[Side]) -> None:
    for side in sides:
        n = side.rules.n_seats
        known = [*M.metric_names(spec, n), *(f"side_{k}" for k in range(n))]
        if metric not in known and M.declares_metrics(spec):   # the study's own, by name
            sample = simulate(spec, side.rules, side.strategies, 20, 0, progress=False)
            known += [m for m in M.per_game(sample.records, spec, n) if m not in known]
        if metric not in known:
            raise specs.WorkbenchError(f"unknown metric {metric!r} for {side.label} "
                                       f"({side.text}); metrics: {', '.join(known)}")


def is_rate(metric: str) -> bool:
    return not metric.endswith("_mean")


# --- the comparison ------------------------------------------------------------------------

@dataclass
class Comparison:
    """What :func:`compare` found: ``row`` (the result as a dict), ``table`` (the same as a
    one-row DataFrame with provenance, as written by the CLI) and ``steps`` (one row per step:
    games per side, difference, LLRs)."""
    row: dict
    table: pd.DataFrame
    steps: pd.DataFrame

    def __getitem__(self, key):
        return self.row[key]

    @property
    def decision(self) -> str:
        return self.row["decision"]


def setup(game, a, b, rules, strategies, a_strategies, b_strategies, metric):
    spec, base = specs.resolve(game, rules)
    sides = (make_side(spec, base, strategies, "A", a, a_strategies),
             make_side(spec, base, strategies, "B", b, b_strategies))
    if metric is None:   # a strategy comparison asks how the first strategy does
        metric = "side_0" if sides[0].labels != sides[1].labels else M.primary_metric(spec)
    check_metric(spec, metric, sides)
    return spec, sides, metric


def schedule(batch: int, max_games: int, unit: int):
    """Games per side after each step: batch, 2 batch, ..., then a quarter more each step, on a
    grid of ``unit`` games (every rotation equally often), never past max_games."""
    grid = lambda x: unit * math.ceil(x / unit)
    cap = unit * (max_games // unit)
    n = min(grid(batch), cap)
    while True:
        yield n
        if n >= cap:
            return
        n = min(cap, n + max(grid(batch), grid(GROWTH * n)))


def _check_sizes(batch, max_games, unit):
    for name, value in (("batch", batch), ("max games", max_games)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
            raise specs.WorkbenchError(f"{name} must be an integer >= 2, got {value!r}")
    if max_games < max(batch, unit):
        raise specs.WorkbenchError(f"max games {max_games} must be at least the batch {batch}")


def _play(spec, side: Side, start: int, count: int, seed: int, jobs: int, run_dir, metric,
          should_stop=None):
    """Games start..start+count-1 of the seed on one side: their metric values and provenance.
    A caller that may be stopped (the MCP server) gets the same games in pieces of about
    PIECE_SECONDS, asked between pieces, since a late step can take minutes."""
    if should_stop is not None and run_dir is None:
        values, provenance = [], []
        for part in play_pieces(spec, side.rules, side.strategies, count, seed, first_game=start,
                                seconds=PIECE_SECONDS, should_stop=should_stop, jobs=jobs,
                                backend="threading", progress=False, rotate_seats=True):
            values.append(metric_values(part.records, spec, side, metric))
            provenance.append(part.provenance)
        return np.concatenate(values), provenance
    folder = None if run_dir is None else Path(run_dir) / f"{side.label}-games-{start}-{start + count}"
    part = simulate(spec, side.rules, side.strategies, count, seed, jobs=jobs, backend="threading",
                    progress=False, first_game=start, rotate_seats=True, run_dir=folder)
    return metric_values(part.records, spec, side, metric), [part.provenance]


def compare(game, a=None, b=None, *, rules=None, strategies="random", a_strategies=None,
            b_strategies=None, metric: str | None = None, delta: float = 1.0, alpha: float = 0.05,
            power: float = 0.9, alternative: str = "two-sided", seed: int = 0,
            batch: int = DEFAULT_BATCH, max_games: int = DEFAULT_MAX_GAMES, jobs: int = 1,
            progress: bool = False, run_dir=None, on_step=None, should_stop=None) -> Comparison:
    """Play A and B on the same games until the sequential test decides, or ``max_games``.

    Parameters
    ----------
    game : e.g. "parthian".
    a, b : each side's changes from ``rules``/``strategies``: ``"n_players=4,charge_threshold=3"``,
        a list of such strings or a dict (rule options, ``strategies``, tunable knobs).
    a_strategies, b_strategies : each side's seats (one strategy, or one per seat), overriding.
    metric : any headline metric (analysis.workbench.metrics: win_<s>, first_seat_advantage,
        decided, victory, rounds_mean...) or ``side_<k>``, the win rate of the k-th strategy of
        the list wherever rotation seats it. Default: ``side_0`` when the sides' strategies
        differ, else the game's headline rate (Parthian: victory; else first_seat_advantage).
    delta : the difference worth detecting, in percentage points for a rate, in the metric's
        units for a mean (``rounds_mean``).
    alpha, power, alternative : false-positive rate, chance of detecting delta, and whether B
        may differ either way ("two-sided") or only be higher ("greater") / lower ("less").
    batch, max_games : games per side in the first step, and the cap.
    run_dir : a folder that keeps every finished chunk: the same call resumes a killed run.
    on_step : called after each step with (games per side so far, max_games), for progress
        outside a terminal (the MCP server's progress notifications).
    should_stop : asked about every PIECE_SECONDS of play; when it answers true the comparison
        raises analysis.workbench.precision.Stopped (a cancelled MCP call).

    Returns
    -------
    Comparison: ``row`` with decision ("H1", "H0" or "undecided"), verdict (in words), games
    (per side), mean_a, mean_b, diff (B - A) with its paired 95% interval ci_low..ci_high, corr
    (the per-game correlation of A and B that pairing exploits), llr and its bounds, fixed_games
    (what a fixed-size paired test needs at the same alpha/power/delta), unpaired_games (the same
    for two independent batches), saving (1 - games / fixed_games), seed, version.
    """
    spec, sides, metric = setup(game, a, b, rules, strategies, a_strategies, b_strategies, metric)
    check_levels(delta, alpha, power, alternative)
    scale = 100 if is_rate(metric) else 1     # delta is in pp for a rate
    if scale == 100:
        check_rate_delta(delta)
    test = SPRT(delta / scale, alpha, power, alternative)
    unit = math.lcm(sides[0].rules.n_seats, sides[1].rules.n_seats)
    _check_sizes(batch, max_games, unit)
    settings = dict(b_variant=sides[1].rules.to_dict(), b_strategies=list(sides[1].labels),
                    metric=metric, delta=delta, alpha=alpha, power=power, alternative=alternative,
                    seed=seed, batch=batch, max_games=max_games)
    run_dir = open_run(run_dir, "compare", spec, sides[0].rules, sides[0].strategies, **settings)

    values = {"A": [], "B": []}
    rows, batches, decision, n = [], {"A": [], "B": []}, None, 0
    bar = tqdm(total=max_games, desc=f"compare {spec.name}", unit="game", unit_scale=True,
               disable=not progress)
    for target in schedule(batch, max_games, unit):
        for side in sides:
            v, provenance = _play(spec, side, n, target - n, seed, jobs, run_dir, metric,
                                  should_stop)
            values[side.label].append(v)
            batches[side.label].extend(provenance)
        bar.update(target - n)
        n = target
        d = np.concatenate(values["B"]) - np.concatenate(values["A"])
        decision = test.update(n, float(d.mean()), float(d.var(ddof=1)))
        rows.append({"games": n, "diff": float(d.mean()), "sd": float(d.std(ddof=1)),
                     **{f"llr_{'plus' if s > 0 else 'minus'}": test.llr[s] for s in test.sides}})
        bar.set_postfix(diff=f"{scale * d.mean():+.2f}", llr=f"{max(test.llr.values()):.2f}")
        if on_step is not None:
            on_step(n, max_games)
        if decision is not None:
            break
    bar.close()
    a_values, b_values = np.concatenate(values["A"]), np.concatenate(values["B"])
    row = _result_row(spec, sides, metric, test, decision, a_values, b_values, scale)
    row.update(seed=int(seed), version=__version__)
    table = pd.DataFrame([row])
    table.attrs["provenance"] = {
        "command": "compare", "game": spec.name, "version": __version__, "seed": int(seed),
        "a": sides[0].text, "b": sides[1].text,
        "variant_a": sides[0].rules.to_dict(), "variant_b": sides[1].rules.to_dict(),
        "strategies_a": list(sides[0].labels), "strategies_b": list(sides[1].labels),
        "rotate_seats": True, "metric": metric, "delta": delta,
        "delta_units": "pp" if scale == 100 else "metric units", "alpha": alpha, "power": power,
        "alternative": alternative, "batch": batch, "max_games": max_games, "n_games": n,
        "steps": [r["games"] for r in rows], "batches": batches["A"] + batches["B"]}
    return Comparison(row, table, pd.DataFrame(rows))


def _result_row(spec, sides, metric, test: SPRT, decision, a_values, b_values, scale) -> dict:
    d = paired_difference(b_values, a_values)     # B - A: its "mean_a" is B's mean
    if np.isnan(d["ci_low"]):   # every paired difference equal: no spread, the interval is a point
        d["ci_low"] = d["ci_high"] = d["diff"]
    sd_paired = float(np.std(b_values - a_values, ddof=1))
    sd_unpaired = math.sqrt(float(np.var(a_values, ddof=1) + np.var(b_values, ddof=1)))
    # Identical games on both sides (every difference 0): no fixed-size figure to compare with.
    fixed = test.fixed_games(sd_paired) if sd_paired > 0 else math.nan
    n = int(a_values.size)
    kind, side = decision or ("undecided", 0)
    units = "pp" if scale == 100 else "units"
    # What an SPRT decides: which hypothesis the data favour, not that |diff| >= delta.
    size = f"{test.delta * scale:g} {units}"
    verdict = {("H1", 1): f"B is higher than A (the data favour +{size} over 0)",
               ("H1", -1): f"B is lower than A (the data favour -{size} over 0)",
               ("H0", 0): f"no difference of {size} (the data favour 0 over "
                          f"{'+-' if len(test.sides) > 1 else '+' if test.sides[0] > 0 else '-'}{size})",
               ("undecided", 0): "undecided at the games cap"}[(kind, side)]
    d = {k: float(v) for k, v in d.items()}
    return {"game": spec.name, "metric": metric, "a": sides[0].text, "b": sides[1].text,
            "strategies_a": "+".join(sides[0].labels), "strategies_b": "+".join(sides[1].labels),
            "decision": kind, "verdict": verdict, "games": n, "mean_a": d["mean_b"],
            "mean_b": d["mean_a"], "diff": d["diff"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
            "corr": d["corr"], "llr": test.llr[side] if side else max(test.llr.values()),
            "llr_lower": test.lower, "llr_upper": test.upper, "delta": test.delta,
            "alpha": test.alpha, "power": test.power, "alternative": test.alternative,
            "fixed_games": fixed, "unpaired_games": test.fixed_games(sd_unpaired),
            "saving": 1 - n / fixed}


def plan(game, a=None, b=None, *, rules=None, strategies="random", a_strategies=None,
         b_strategies=None, metric: str | None = None, delta: float = 1.0, alpha: float = 0.05,
         power: float = 0.9, alternative: str = "two-sided", seed: int = 0,
         pilot: int = DEFAULT_BATCH, sd: float | None = None, jobs: int = 1) -> pd.DataFrame:
    """How many games a difference of ``delta`` needs, without running the comparison.

    The per-game standard deviation of the paired difference comes from a pilot of ``pilot``
    paired games (games 0..pilot-1 of the seed, as :func:`compare` plays first), or is stated as
    ``sd`` (in the units of delta: pp for a rate). Returns a one-row DataFrame: sd (in the
    metric's units: a proportion for a rate), corr (pilot
    only), fixed_games (paired fixed-size test), unpaired_games (two independent batches), and
    Wald's approximate mean games of the sequential test when there is no difference
    (sequential_h0) and when there is one of delta (sequential_h1).
    """
    spec, sides, metric = setup(game, a, b, rules, strategies, a_strategies, b_strategies, metric)
    check_levels(delta, alpha, power, alternative)
    scale = 100 if is_rate(metric) else 1
    if scale == 100:
        check_rate_delta(delta)
    test = SPRT(delta / scale, alpha, power, alternative)
    row = {"game": spec.name, "metric": metric, "a": sides[0].text, "b": sides[1].text,
           "strategies_a": "+".join(sides[0].labels), "strategies_b": "+".join(sides[1].labels),
           "delta": delta, "alpha": alpha, "power": power, "alternative": alternative}
    if sd is not None:
        if isinstance(sd, bool) or not isinstance(sd, (int, float)) or not sd > 0:
            raise specs.WorkbenchError(f"sd must be a positive number, got {sd!r}")
        sd_paired, corr, unpaired, pilot_games = sd / scale, np.nan, np.nan, 0
    else:
        unit = math.lcm(sides[0].rules.n_seats, sides[1].rules.n_seats)
        if isinstance(pilot, bool) or not isinstance(pilot, (int, np.integer)) or pilot < 2:
            raise specs.WorkbenchError(f"pilot must be an integer >= 2 games, got {pilot!r}")
        pilot_games = unit * math.ceil(pilot / unit)
        a_values, _ = _play(spec, sides[0], 0, pilot_games, seed, jobs, None, metric)
        b_values, _ = _play(spec, sides[1], 0, pilot_games, seed, jobs, None, metric)
        sd_paired = float(np.std(b_values - a_values, ddof=1))
        corr = paired_difference(b_values, a_values)["corr"]
        unpaired = test.fixed_games(math.sqrt(np.var(a_values, ddof=1) + np.var(b_values, ddof=1)))
        row["pilot_diff"] = float(np.mean(b_values - a_values))
    if sd_paired <= 0:
        raise specs.WorkbenchError("every paired difference in the pilot is equal (A and B play "
                                   "the same games): there is nothing to plan")
    h0, h1 = test.expected_games(sd_paired)
    row.update(pilot_games=pilot_games, sd=sd_paired, corr=corr,
               fixed_games=test.fixed_games(sd_paired), unpaired_games=unpaired,
               sequential_h0=h0, sequential_h1=h1, seed=int(seed), version=__version__)
    table = pd.DataFrame([row])
    table.attrs["provenance"] = {"command": "compare --plan", "game": spec.name, "seed": int(seed),
                                 "version": __version__, "variant_a": sides[0].rules.to_dict(),
                                 "variant_b": sides[1].rules.to_dict(), "metric": metric,
                                 "pilot_games": pilot_games, "sd": sd}
    return table
