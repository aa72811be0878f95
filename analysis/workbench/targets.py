"""Balance goals: what ``balance tune`` (and a study file) aims at, written as a designer says it.

One goal is ``EXPRESSION OP NUMBER``:

- ``EXPRESSION`` is a metric: a headline one (``victory``, ``win_0``, ``first_seat_advantage``,
  ``decided``, ``rounds_mean``), one the game's study declares (Samurai Sword's ``team_ninja``,
  Sunzi's ``win_white`` ...; ``balance metrics GAME`` lists them), or
  - ``max_gap(PATTERN)``: the largest minus the smallest of the metrics whose names match the
    shell-style PATTERN (``max_gap(team_*)``: how far apart the teams' win rates are);
  - ``match(A,B)``: the win rate of strategy A with every other seat played by B, seats rotated
    (``match(trained,random)``: how much skill pays; a strategy-by-strategy matrix is a set of
    these).
- ``OP`` is ``=`` (be at NUMBER), ``<=`` or ``>=`` (stay on that side of it);
- ``NUMBER`` is a number, a fraction (``1/3``) or a percentage (``33.3%``).

A goal's *deviation* is how far the measured value is from satisfying it: ``|x - v|`` for
``=``, ``max(0, x - v)`` for ``<=`` and ``max(0, v - x)`` for ``>=``. The tuner minimises the
largest deviation over all goals and points (``distance="max"``), or their root mean square
(``distance="rms"``, the usual score of a matrix of target rates); a verified goal is *hit*
when its deviation is at most the tolerance.

``--balance GROUP`` is ``max_gap(PATTERN)=0`` for a group the game declares (its study's
``BALANCE``: Samurai Sword ``teams`` = ``team_*``); ``seats`` (``win_*``) exists for every game.
A *target file* (CSV, or any table sim.datafile reads) holds one goal per row: ``metric,target``
(optionally ``op``), or a strategy matrix ``a,b,target`` (each row the goal ``match(a,b)=target``).
Any other column restricts its rows: it is named like a rule option of the game (``n_players``),
``strategies`` or an ``--over`` name, and a row with a value there is a goal only where the run
plays that value; an empty cell applies everywhere. The restriction holds with or without
``--over``: at the run's own player count when nothing varies it. A row whose restriction
matches no point of the run is refused (a designer who wrote a goal for 3 players expects it to
be checked, not skipped: add ``--over n_players=...``), and so is a point where no goal applies.
A column of any other name is refused with the accepted names: a goal meant for one point must
never silently apply at another.

Values are checked when the goals are read: a target must be a finite number; a rate (any
metric but a mean length ``*_mean``) lies in [0, 1] (an advantage or an edge, in [-1, 1]), so
that 40 meant as 40 % is refused with the way to write it (``0.40`` or ``40%``). In a file not
separated by commas a decimal comma reads as a point (``0,45``), as the data files read it.
Two goals for one expression that can apply at one point and cannot both hold (``victory=0.4``
and ``victory=0.6``, or ``>=0.6`` and ``<=0.4``) are refused, naming both (:func:`check_consistent`).
"""
from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
from scipy import stats

from sim.games import get_game

from . import metrics as M
from ..studies import study_of
from .specs import WorkbenchError

OPS = ("<=", ">=", "==", "=")
GAP = re.compile(r"^max_gap\((?P<pattern>[^()]+)\)$")
MATCH = re.compile(r"^match\((?P<a>[^,()]+),(?P<b>[^,()]+)\)$")
GENERIC_BALANCE = {"seats": "win_[0-9]*"}
GOAL_COLUMNS = ("metric", "target", "op", "a", "b")
SIGNED = ("advantage", "edge")   # rates of a difference: between -1 and 1


@dataclass(frozen=True)
class Goal:
    """One balance goal (see the module)."""

    expression: str                 # metric name, max_gap(PATTERN) or match(A,B)
    op: str                         # "=", "<=" or ">="
    value: float
    where: Mapping[str, str] = field(default_factory=dict)  # only at these points
    source: str = field(default="", compare=False)  # "target file 'x.csv' line 3", for messages

    @property
    def text(self) -> str:
        at = "".join(f" [{k}={v}]" for k, v in self.where.items())
        return f"{self.expression}{self.op}{self.value:g}{at}"

    @property
    def match(self) -> tuple[str, str] | None:
        found = MATCH.match(self.expression)
        return (found["a"].strip(), found["b"].strip()) if found else None

    def applies(self, point: Mapping) -> bool:
        """Whether the goal holds at a point: ``point`` maps names to the point's values (see
        :func:`point_values`: its rule options, strategies and --over values)."""
        return all(k in point and same_value(point[k], v) for k, v in self.where.items())

    def measure(self, row: Mapping) -> tuple[float, float, float]:
        """(estimate, low, high) of the expression from a row of metrics with intervals. A gap's
        interval is conservative: from the ends of its metrics' own intervals."""
        gap = GAP.match(self.expression)
        if gap:
            names = [m for m in row if not m.endswith(("_low", "_high")) and m != "n_games"
                     and fnmatch.fnmatchcase(m, gap["pattern"].strip())]
            if len(names) < 2:
                raise WorkbenchError(f"{self.expression}: the pattern matches "
                                     f"{names or 'no metric'}; it needs two or more of: "
                                     f"{', '.join(known(row))}")
            est = [row[m] for m in names]
            low = [row.get(f"{m}_low", row[m]) for m in names]
            high = [row.get(f"{m}_high", row[m]) for m in names]
            return (max(est) - min(est), max(0.0, max(low) - min(high)), max(high) - min(low))
        if self.expression not in row:
            raise WorkbenchError(f"unknown metric {self.expression!r} in goal {self.text!r}; "
                                 f"the metrics are: {', '.join(known(row))}")
        x = row[self.expression]
        return x, row.get(f"{self.expression}_low", x), row.get(f"{self.expression}_high", x)

    def deviation(self, row: Mapping) -> float:
        x = self.measure(row)[0]
        if self.op == "<=":
            return max(0.0, x - self.value)
        if self.op == ">=":
            return max(0.0, self.value - x)
        return abs(x - self.value)


def known(row: Mapping) -> list[str]:
    return [m for m in row if not m.endswith(("_low", "_high")) and m != "n_games"]


def parse_number(text: str, where: str) -> float:
    """A goal's value: a number, a fraction or a percentage; ``where`` names it in messages."""
    raw = str(text).strip()
    try:
        if raw.endswith("%"):
            value = float(raw[:-1]) / 100
        elif "/" in raw:
            top, bottom = raw.split("/", 1)
            value = float(top) / float(bottom)
        else:
            value = float(raw)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise WorkbenchError(f"{where}: {text!r} is not a number (write 0.5, 1/3 or "
                             "33.3%)") from None
    if not math.isfinite(value):  # float() reads 'nan' and 'inf': no game can aim at them
        raise WorkbenchError(f"{where}: {text!r} is not a finite number (write 0.5, 1/3 "
                             "or 33.3%)")
    return value


def is_rate(expression: str) -> bool:
    """Every metric is a rate but a mean (``rounds_mean``) and a gap between means."""
    gap = GAP.match(expression)
    name = gap["pattern"].strip() if gap else expression
    return not name.endswith("_mean")


def checked(goal: Goal, where: str) -> Goal:
    """The goal, if its value can be a value of its metric; ``where`` names it in messages."""
    if not is_rate(goal.expression):
        return goal
    low = -1.0 if any(word in goal.expression for word in SIGNED) else 0.0
    if not low <= goal.value <= 1:
        percent = f"{goal.value / 100:.2f} or {goal.value:g}%" if 1 < abs(goal.value) <= 100 \
            else "a fraction such as 0.40, or a percentage such as 40%"
        raise WorkbenchError(f"{where}: {goal.expression} is a rate between {low:g} and 1, so "
                             f"its target {goal.value:g} can never be met; write {percent}")
    return goal


def same_value(value, wanted) -> bool:
    """A point's value against a restriction's text: 4 and '4.0' and ' 4 ' are the same, so are
    True and 'true'."""
    def plain(x):
        text = str(x).strip().lower()
        try:
            return float(text)
        except ValueError:
            return text
    return plain(value) == plain(wanted)


def point_values(rules, strategies, assignment: Mapping) -> dict:
    """What a goal's restriction is compared with at a point: the point's rule options, its
    strategies (joined by +) and the --over values that made it."""
    names = [strategies] if isinstance(strategies, str) else list(strategies or ())
    labels = [getattr(s, "name", s) for s in names]
    joined = "+".join(map(str, labels))
    return {**rules.to_dict(options_only=True), "strategies": joined, "strategy": joined,
            **assignment}


def check_coverage(goals: Sequence[Goal], points: Sequence[Mapping]) -> None:
    """Every goal applies at a point of the run, and every point has a goal (see the module)."""
    shown = lambda point, names: ", ".join(f"{k}={point.get(k)}" for k in names) or "its options"
    for goal in goals:
        if not any(goal.applies(p) for p in points):
            played = sorted({shown(p, goal.where) for p in points})
            where = f"{goal.source}: " if goal.source else ""
            raise WorkbenchError(
                f"{where}goal {goal.text} applies at no point of this run (it plays "
                f"{'; '.join(played)}); play that point (-o or --over "
                f"{', '.join(f'{k}=...' for k in goal.where)}) or remove the goal")
    restricted = sorted({k for g in goals for k in g.where})
    for point in points:
        if not any(g.applies(point) for g in goals):
            raise WorkbenchError(f"no goal applies at the point {shown(point, restricted)}; "
                                 "give it a goal (a target-file row without a restriction "
                                 "applies everywhere) or leave it out of --over")


def check_consistent(goals: Sequence[Goal]) -> None:
    """Refuse two goals for one expression that can apply at one point (their restrictions
    agree where both have one) and cannot both hold: two values to be at, or bounds that leave
    no value between them. Otherwise the tuner would aim between them and report one missed,
    whatever the game does."""
    def bounds(goal):   # the values that satisfy the goal
        return (goal.value if goal.op in ("=", ">=") else -math.inf,
                goal.value if goal.op in ("=", "<=") else math.inf)

    def named(goal):
        return f"{goal.text} ({goal.source})" if goal.source else goal.text

    for i, first in enumerate(goals):
        for second in goals[i + 1:]:
            if first.expression != second.expression or not all(
                    same_value(first.where[k], second.where[k])
                    for k in first.where.keys() & second.where.keys()):
                continue
            low = max(bounds(first)[0], bounds(second)[0])
            high = min(bounds(first)[1], bounds(second)[1])
            if low > high + 1e-12:   # 1/3 and 0.3333333333333333 are one value
                raise WorkbenchError(f"contradictory goals for {first.expression}: "
                                     f"{named(first)} and {named(second)} cannot both hold; "
                                     "keep one")


def parse_goal(text: str, where: Mapping | None = None) -> Goal:
    """``victory=0.5``, ``max_gap(team_*)<=0.02``, ``match(trained,random)>=0.6``."""
    if not isinstance(text, str) or not text.strip():
        raise WorkbenchError(f"goal {text!r} is empty; write METRIC=VALUE, METRIC<=VALUE, "
                             "max_gap(PATTERN)<=VALUE or match(A,B)>=VALUE")
    compact = text.replace(" ", "")
    for op in OPS:
        left, sep, right = compact.partition(op)
        if sep and left and right:
            at = f"goal {text!r}"
            return checked(Goal(left, "=" if op == "==" else op, parse_number(right, at),
                                dict(where or {})), at)
    raise WorkbenchError(f"goal {text!r} has no comparison; write METRIC=VALUE, METRIC<=VALUE "
                         "or METRIC>=VALUE")


def balance_groups(game) -> dict[str, str]:
    """``--balance`` group -> metric pattern: the generic groups and the study's own."""
    return {**GENERIC_BALANCE, **dict(study_of(get_game(game).name).balance)}


def balance_goal(game, group: str) -> Goal:
    """``--balance GROUP``: the gap between the group's metrics at 0."""
    spec = get_game(game)
    groups = balance_groups(spec)
    if group not in groups:
        raise WorkbenchError(f"{spec.title} has no balance group {group!r}; its groups: "
                             f"{', '.join(f'{k} ({v})' for k, v in groups.items())}")
    return Goal(f"max_gap({groups[group]})", "=", 0.0)


def read_target_file(path, over_names: Sequence[str] = (), *, game=None) -> list[Goal]:
    """Goals from a table (see the module): ``metric,target[,op][,restriction...]`` or
    ``a,b,target`` for a strategy matrix. A restriction column is named like a rule option of
    ``game``, ``strategies`` or one of ``over_names``."""
    from sim.datafile import column_key, read_table
    from sim.errors import RulesError

    try:
        table = read_table(path, "target file", ("target",),
                           hint="it needs a 'target' column, with 'metric' (one goal per row) "
                           "or 'a' and 'b' (a strategy matrix)")
    except RulesError as error:
        raise WorkbenchError(str(error)) from None
    restrictions = list(over_names)
    if game is not None:
        restrictions += [n for n in get_game(game).rules_class.options() if n not in restrictions]
    restrictions += [n for n in ("strategies",) if n not in restrictions]
    accepted = {column_key(n): n for n in (*GOAL_COLUMNS, *restrictions)}
    columns = {}   # accepted name -> the file's spelling
    for name in table.columns:
        if column_key(name) not in accepted:
            raise WorkbenchError(
                f"{table.label}: unknown column {name!r}; the columns are metric (or a and b), "
                f"target, op, and columns that restrict a row to some points: "
                f"{', '.join(restrictions)}")
        columns[accepted[column_key(name)]] = name
    if "a" in columns and "b" in columns:
        def expression(row):
            return f"match({cell(row, 'a')},{cell(row, 'b')})"
    elif "metric" in columns:
        def expression(row):
            return cell(row, "metric")
    else:
        raise WorkbenchError(f"{table.label}: needs a 'metric' column, or 'a' and 'b'")

    def cell(row, name) -> str:
        value = row.get(columns[name])
        if value is None:  # a row shorter than the header
            raise WorkbenchError(f"{at}: the row ends before its {columns[name]!r} cell; give "
                                 f"every row the {len(table.columns)} cells of the header "
                                 f"({', '.join(table.columns)})")
        return value.strip()

    goals = []
    for line, row in table:
        at = f"{table.label} line {line}"
        if None in row:
            raise WorkbenchError(f"{at}: more cells than the header's {len(table.columns)} "
                                 f"({', '.join(table.columns)})")
        what = expression(row)
        if not what or not re.fullmatch(r"[^=<>]+", what):
            raise WorkbenchError(f"{at}: {what!r} is not a metric; `balance metrics GAME` "
                                 "lists them")
        value = parse_number(table.decimal(cell(row, "target")), at)
        op = cell(row, "op") if "op" in columns else "="
        op = op or "="
        if op not in OPS:
            raise WorkbenchError(f"{at}: op {op!r} must be one of {', '.join(OPS)}")
        where = {name: cell(row, name) for name in restrictions
                 if name in columns and cell(row, name)}
        goals.append(checked(Goal(what, "=" if op == "==" else op, value, where, at), at))
    if not goals:
        raise WorkbenchError(f"{table.label} has no rows")
    return goals


def parse_goals(game, goals: Sequence[str] | Mapping[str, float] = (), *,
                balance: Sequence[str] = (), files: Sequence = (),
                over_names: Sequence[str] = ()) -> list[Goal]:
    """Every goal of a request: ``--target`` texts (or a {metric: value} dict), ``--balance``
    groups and target files."""
    if isinstance(goals, Mapping):
        parsed = [checked(Goal(str(name), "=", parse_number(value, f"goal {name}={value}")),
                          f"goal {name}={value}") for name, value in goals.items()]
    else:
        parsed = [parse_goal(text) for text in goals]
    parsed += [balance_goal(game, group) for group in balance]
    for path in files:
        parsed += read_target_file(path, over_names, game=game)
    if not parsed:
        raise WorkbenchError("give at least one goal: --target METRIC=VALUE, --balance GROUP "
                             "or --target-file FILE.csv")
    check_consistent(parsed)
    return parsed


def distance(deviations: Sequence[float], how: str = "max") -> float:
    if not deviations:
        return 0.0
    if how == "max":
        return float(max(deviations))
    if how == "rms":
        return float(math.sqrt(np.mean(np.square(deviations))))
    raise WorkbenchError(f"distance must be 'max' or 'rms', got {how!r}")


# --- measuring what the goals name ---------------------------------------------------------------

def match_rate(spec, rules, a, b, n_games: int, seed: int, *, jobs: int = 1, run_dir=None,
               confidence: float = 0.95) -> dict:
    """Win rate of strategy ``a`` at one seat, every other seat ``b``, seats rotated."""
    from sim.runner import simulate

    seats = [a] + [b] * (rules.n_seats - 1)
    folder = None if run_dir is None else Path(run_dir) / f"match-{a}-{b}-{n_games}".replace(":", "_")
    result = simulate(spec, rules, seats, n_games, seed, jobs=jobs, backend="threading",
                      rotate_seats=True, progress=False, run_dir=folder)
    records = result.records
    wins = np.column_stack([records[f"win_{s}"].to_numpy(float) for s in range(rules.n_seats)])
    # game g seats strategy (s + g) mod N at seat s: a (strategy 0) sits at seat -g mod N
    seat_of_a = (-records["rotation"].to_numpy(np.int64)) % rules.n_seats
    per_game = wins[np.arange(len(records)), seat_of_a]
    n = per_game.size
    mean = float(per_game.mean())
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1) * per_game.std(ddof=1) / math.sqrt(n))
    name = f"match({a},{b})"
    return {name: mean, f"{name}_low": mean - half, f"{name}_high": mean + half}
