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
A *target file* (CSV) holds one goal per row: ``metric,target`` (optionally ``op``, and columns
named like ``--over`` options, such as ``n_players``, that restrict the row to those points), or
a strategy matrix ``a,b,target`` (each row the goal ``match(a,b)=target``).
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
from ..studies import study_module
from .specs import WorkbenchError

OPS = ("<=", ">=", "==", "=")
GAP = re.compile(r"^max_gap\((?P<pattern>[^()]+)\)$")
MATCH = re.compile(r"^match\((?P<a>[^,()]+),(?P<b>[^,()]+)\)$")
GENERIC_BALANCE = {"seats": "win_[0-9]*"}


@dataclass(frozen=True)
class Goal:
    """One balance goal (see the module)."""

    expression: str                 # metric name, max_gap(PATTERN) or match(A,B)
    op: str                         # "=", "<=" or ">="
    value: float
    where: Mapping[str, str] = field(default_factory=dict)  # only at these --over points

    @property
    def text(self) -> str:
        at = "".join(f" [{k}={v}]" for k, v in self.where.items())
        return f"{self.expression}{self.op}{self.value:g}{at}"

    @property
    def match(self) -> tuple[str, str] | None:
        found = MATCH.match(self.expression)
        return (found["a"].strip(), found["b"].strip()) if found else None

    def applies(self, assignment: Mapping) -> bool:
        return all(str(assignment.get(k)) == str(v) for k, v in self.where.items())

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


def parse_number(text: str, goal: str) -> float:
    raw = str(text).strip()
    try:
        if raw.endswith("%"):
            return float(raw[:-1]) / 100
        if "/" in raw:
            top, bottom = raw.split("/", 1)
            return float(top) / float(bottom)
        return float(raw)
    except (ValueError, ZeroDivisionError):
        raise WorkbenchError(f"goal {goal!r}: {text!r} is not a number (write 0.5, 1/3 or "
                             "33.3%)") from None


def parse_goal(text: str, where: Mapping | None = None) -> Goal:
    """``victory=0.5``, ``max_gap(team_*)<=0.02``, ``match(trained,random)>=0.6``."""
    if not isinstance(text, str) or not text.strip():
        raise WorkbenchError(f"goal {text!r} is empty; write METRIC=VALUE, METRIC<=VALUE, "
                             "max_gap(PATTERN)<=VALUE or match(A,B)>=VALUE")
    compact = text.replace(" ", "")
    for op in OPS:
        left, sep, right = compact.partition(op)
        if sep and left and right:
            return Goal(left, "=" if op == "==" else op, parse_number(right, text),
                        dict(where or {}))
    raise WorkbenchError(f"goal {text!r} has no comparison; write METRIC=VALUE, METRIC<=VALUE "
                         "or METRIC>=VALUE")


def balance_goal(game, group: str) -> Goal:
    """``--balance GROUP``: the gap between the group's metrics at 0."""
    spec = get_game(game)
    study = study_module(spec.name)
    groups = {**GENERIC_BALANCE, **dict(getattr(study, "BALANCE", {}))}
    if group not in groups:
        raise WorkbenchError(f"{spec.title} has no balance group {group!r}; its groups: "
                             f"{', '.join(f'{k} ({v})' for k, v in groups.items())}")
    return Goal(f"max_gap({groups[group]})", "=", 0.0)


def read_target_file(path, over_names: Sequence[str] = ()) -> list[Goal]:
    """Goals from a CSV (see the module): ``metric,target[,op][,<over option>...]`` or
    ``a,b,target`` for a strategy matrix."""
    from sim.datafile import read_table
    from sim.errors import RulesError

    try:
        table = read_table(path, "target file", ("target",),
                           hint="it needs a 'target' column, with 'metric' (one goal per row) "
                           "or 'a' and 'b' (a strategy matrix)")
    except RulesError as error:
        raise WorkbenchError(str(error)) from None
    columns = {c.strip().lower(): c for c in table.columns}
    goals = []
    for line, row in table:
        at = f"{table.label} line {line}"
        value = parse_number(row[columns["target"]], at)
        op = row[columns["op"]].strip() if "op" in columns else "="
        if op not in OPS:
            raise WorkbenchError(f"{at}: op {op!r} must be one of {', '.join(OPS)}")
        if "a" in columns and "b" in columns:
            expression = f"match({row[columns['a']].strip()},{row[columns['b']].strip()})"
        elif "metric" in columns:
            expression = row[columns["metric"]].strip()
        else:
            raise WorkbenchError(f"{table.label}: needs a 'metric' column, or 'a' and 'b'")
        where = {name: row[columns[name]].strip() for name in over_names
                 if name in columns and row[columns[name]].strip()}
        goals.append(Goal(expression, "=" if op == "==" else op, value, where))
    if not goals:
        raise WorkbenchError(f"{table.label} has no rows")
    return goals


def parse_goals(game, goals: Sequence[str] | Mapping[str, float] = (), *,
                balance: Sequence[str] = (), files: Sequence = (),
                over_names: Sequence[str] = ()) -> list[Goal]:
    """Every goal of a request: ``--target`` texts (or a {metric: value} dict), ``--balance``
    groups and target files."""
    if isinstance(goals, Mapping):
        parsed = [Goal(name, "=", float(value)) for name, value in goals.items()]
    else:
        parsed = [parse_goal(text) for text in goals]
    parsed += [balance_goal(game, group) for group in balance]
    for path in files:
        parsed += read_target_file(path, over_names)
    if not parsed:
        raise WorkbenchError("give at least one goal: --target METRIC=VALUE, --balance GROUP "
                             "or --target-file FILE.csv")
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
