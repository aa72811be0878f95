"""Studies as files: one TOML file describes a study, ``balance study FILE`` runs it and writes a
report that looks like the built-in ones (Markdown + HTML, CSVs, PNGs, provenance).

A file names the game and what every section shares, then its sections in order::

    title = "Samurai Sword: are the teams even at 5 players?"
    game = "samurai"
    players = 5                       # optional: n_players
    options = { turn_cap = 600 }      # optional: rule options, as -o takes them
    strategies = ["loyal", "shrewd", "random", "loyal", "shrewd"]   # one, or one per seat
    games = 20000                     # games per batch (or precision = 1.0, in pp)
    seed = 1

    [[section]]
    kind = "summary"                  # the headline and declared metrics, with intervals

    [[section]]
    kind = "tune"
    balance = ["teams"]               # goals: target = [...], balance = [...], target_file = ...
    vary = ["role_honour"]
    pareto = true

A section may override ``games``, ``precision``, ``strategies``, ``options`` and ``seed``.
Section kinds and their own keys (the workbench commands of the same names; docs/workbench.md):

==========  ========================================================================================
summary     metrics (names to show; leave it out for all: an empty list is refused)
sweep       vary (list of NAME=V1,V2), metric (the plotted one)
ablate      params (list), metric
cards       level (list), cards (list), interactions (k)
tune        target, balance, target_file (lists), vary, over (lists), pareto, fewest_changes,
            trials, search_games, tolerance, distance
compare     a, b (lists of NAME=VALUE,...), a_strategies, b_strategies, metric, delta (pp),
            alpha, power, alternative, max_games
skill       best (the heuristic), budgets (search iterations, e.g. [16, 64])
==========  ========================================================================================

Strategies are what ``-s`` takes: a built-in name, ``ismcts:budget=64``, ``trained`` or
``trained:FILE.json``, or ``FILE.py:FUNCTION`` (a numba.njit strategy or a Python agent); like a
target file, a relative FILE is found beside the study file.

The file may be UTF-8 (with or without a byte-order mark), UTF-16 or UTF-32 with a byte-order mark
(sim.datafile reads the same), or a Windows editor's "ANSI" (cp1252, which covers Latin-1 text).

One validation path: :func:`read` checks the file itself (keys, the type of every value, the
files it names) and :func:`check` resolves everything each section will need, without playing a
game (the variant, the seats, the metrics, sweep points, goals, card levels, search budgets).
``balance study --check`` and :func:`run` both call them, and :func:`run` before it plays
anything, so a run never stops half-way on something the file could have told. Every problem is
a :class:`StudyFileError` naming the file, the line, the section and the key. A section that
fails anyway (a bug, Ctrl-C) leaves the report of the sections before it written. The file's
path and its SHA-256 go into the provenance of every table the study writes.
"""
from __future__ import annotations

import contextlib
import hashlib
import itertools
import math
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Callable

import pandas as pd

from sim import __version__
from sim.datafile import decode_text
from sim.errors import BalanceError, StrategyError
from sim.games import game_names, get_game
from sim.request import RequestError, request

SHARED = {"games", "precision", "strategies", "options", "seed"}
TOP = {"title", "game", "players", "description", *SHARED}
KINDS = {
    "summary": {"metrics"},
    "sweep": {"vary", "metric"},
    "ablate": {"params", "metric"},
    "cards": {"level", "cards", "interactions"},
    "tune": {"target", "balance", "target_file", "vary", "over", "pareto", "fewest_changes",
             "trials", "search_games", "tolerance", "distance"},
    "compare": {"a", "b", "a_strategies", "b_strategies", "metric", "delta", "alpha", "power",
                "alternative", "max_games"},
    "skill": {"best", "budgets"},
}
REQUIRED = {"sweep": ("vary",), "tune": ("vary",)}
SEAT_KEYS = ("strategies", "a_strategies", "b_strategies")
MAX_BUDGET = 100_000   # the search player's own limit (sim.strategy.search_player)


class StudyFileError(BalanceError):
    """A study file that cannot be run: the message names the file and the line."""


# --- the type of every key ----------------------------------------------------------------------

def _integer(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _strings(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _scalar(v) -> bool:
    return isinstance(v, (str, bool)) or _number(v)


@dataclass(frozen=True)
class ValueType:
    name: str                     # what a message calls it: "a list of strings"
    test: Callable[[object], bool]
    example: str                  # a value of the type, for messages


STRING = ValueType("a string", lambda v: isinstance(v, str), '"..."')
INTEGER = ValueType("an integer", _integer, "1000")
NUMBER = ValueType("a finite number", _number, "0.5")
BOOLEAN = ValueType("true or false", lambda v: isinstance(v, bool), "true")
STRINGS = ValueType("a list of strings", _strings, '["..."]')
INTEGERS = ValueType("a list of integers", lambda v: isinstance(v, list) and all(map(_integer, v)),
                     "[16, 64]")
SEATS = ValueType("a strategy name or a list of them, one per seat",
                  lambda v: isinstance(v, str) or (_strings(v) and len(v) > 0),
                  '"random" or ["random", "cautious"]')
TABLE = ValueType("a table", lambda v: isinstance(v, dict), '{ mode = "advanced" }')
TYPES = {
    "title": STRING, "game": STRING, "players": INTEGER, "description": STRING,
    "games": INTEGER, "precision": NUMBER, "seed": INTEGER, "strategies": SEATS, "options": TABLE,
    "kind": STRING, "metrics": STRINGS, "vary": STRINGS, "metric": STRING, "params": STRINGS,
    "level": STRINGS, "cards": STRINGS, "interactions": INTEGER, "target": STRINGS,
    "balance": STRINGS, "target_file": STRINGS, "over": STRINGS, "pareto": BOOLEAN,
    "fewest_changes": BOOLEAN, "trials": INTEGER, "search_games": INTEGER, "tolerance": NUMBER,
    "distance": STRING, "a": STRINGS, "b": STRINGS, "a_strategies": SEATS, "b_strategies": SEATS,
    "delta": NUMBER, "alpha": NUMBER, "power": NUMBER, "alternative": STRING,
    "max_games": INTEGER, "best": STRING, "budgets": INTEGERS,
}
EXAMPLES = {"players": "4", "games": "20000", "seed": "1", "options": '{ mode = "advanced" }',
            "vary": '["charge_threshold=6,8,10"]',
            "kind": '"summary"', "game": '"parthian"', "target": '["victory=0.4"]',
            "metrics": '["victory", "win_0"]', "over": '["n_players=3,4"]',
            "a": '["charge_threshold=8"]', "b": '["charge_threshold=10"]',
            "target_file": '["targets.csv"]', "budgets": "[16, 64]"}


def _what(value) -> str:
    """A TOML value's type and (short) value, for messages."""
    if isinstance(value, bool):
        kind = "true/false"
    elif isinstance(value, int):
        kind = "an integer"
    elif isinstance(value, float):
        kind = "a number"
    elif isinstance(value, str):
        kind = "a string"
    elif isinstance(value, list):
        kind = "a list"
    elif isinstance(value, dict):
        kind = "a table"
    elif isinstance(value, (datetime, date, time)):
        kind = "a date/time"
    else:
        kind = type(value).__name__
    shown = repr(value)
    return f"{kind} ({shown if len(shown) <= 60 else shown[:57] + '...'})"


# --- the file -----------------------------------------------------------------------------------

@dataclass
class Study:
    path: Path
    text: str
    title: str
    game: str
    rules: object
    shared: dict
    sections: list[dict] = field(default_factory=list)
    raw: bytes | None = None                               # the file's bytes, for its digest
    top: dict = field(default_factory=dict)                # the top-level table as read
    starts: list[int] = field(default_factory=list)        # the line of each [[section]]

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.raw if self.raw is not None else self.text.encode()).hexdigest()

    def provenance(self) -> dict:
        return {"study_file": str(self.path), "study_sha256": self.digest, "version": __version__}

    def line_of(self, key: str | None, number: int = 0) -> int:
        """The file line of ``key`` in section ``number`` (0: the top level; a key the section
        does not set is the top level's, which it inherits), for messages."""
        start = self.starts[number - 1] if 0 < number <= len(self.starts) else 0
        if number and (key is None or key not in self.sections[number - 1]):
            if key is None or key not in self.top:
                return start or 1
            start = 0
        return _line(self.text, key, start) if key else 1

    def error(self, message: str, key: str | None = None, number: int = 0) -> StudyFileError:
        kind = self.sections[number - 1].get("kind") if number else None
        where = "" if not number else f"section {number} ({kind}): " if \
            isinstance(kind, str) and kind in KINDS else f"section {number}: "
        message = " ".join(str(message).split())   # one line, whatever the cause's message held
        return StudyFileError(f"{self.path}, line {self.line_of(key, number)}: {where}{message}")

    @contextlib.contextmanager
    def blame(self, key: str | None, number: int = 0):
        """Turn a BalanceError raised inside into a StudyFileError at ``key``'s line."""
        try:
            yield
        except StudyFileError:
            raise
        except BalanceError as error:
            raise self.error(str(error), key, number) from None


def _line(text: str, key: str, after: int = 0) -> int:
    """The file line of ``key = ...`` (the first at or after line ``after``), for messages."""
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= after and pattern.match(line):
            return number
    return after or 1


def _table_line(text: str) -> int:
    """The line of a ``section = ...`` or ``[section]`` that is not an array of tables."""
    wrong = re.compile(r"^\s*(\[\s*[\"']?section[\"']?\s*\]|[\"']?section[\"']?\s*=)")
    return next((n for n, line in enumerate(text.splitlines(), start=1) if wrong.match(line)), 1)


def _section_lines(text: str) -> list[int]:
    header = re.compile(r"^\s*\[\[\s*[\"']?section[\"']?\s*\]\]")
    return [n for n, line in enumerate(text.splitlines(), start=1) if header.match(line)]


def _decode(path: Path) -> tuple[bytes, str]:
    def unreadable(why: str) -> StudyFileError:
        return StudyFileError(f"study file {str(path)!r} cannot be read: {why}; save it as UTF-8")

    if not path.is_file():
        raise StudyFileError(f"study file {str(path)!r}: no such file")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise unreadable(error.strerror or str(error)) from None
    # the data files' decoding (sim.datafile), plus the "ANSI" files of Windows editors
    text, _ = decode_text(data, unreadable, fallback="cp1252")
    return data, text.removeprefix("\ufeff")


def load(path) -> Study:
    """Read a study file and check everything it asks for (:func:`read`, then :func:`check`);
    every problem is a StudyFileError naming its line."""
    study = read(path)
    check(study)
    return study


def read(path) -> Study:
    """Read a study file: its TOML, its keys, the type and range of every value, the variant and
    the files it names. :func:`check` then resolves what the sections need."""
    path = Path(path)
    raw, text = _decode(path)
    try:
        data = tomllib.loads(text)
    except ValueError as error:   # TOMLDecodeError, or an integer of more than 4300 digits
        raise StudyFileError(f"{path}: not valid TOML: {' '.join(str(error).split())}") from None
    except RecursionError:
        raise StudyFileError(f"{path}: not valid TOML: nested too deeply") from None
    too_big = _outside_int64(data)
    if too_big is not None:
        key, value = too_big
        shown = key if key.isprintable() else repr(key)   # a quoted TOML key may hold a newline
        raise StudyFileError(f"{path}, line {_line(text, key)}: {shown}: {value} is outside "
                             "TOML's 64-bit integers")
    starts = _section_lines(text)
    sections = data.get("section", [])
    if not isinstance(sections, list) or not all(isinstance(s, dict) for s in sections):
        raise StudyFileError(f"{path}, line {_table_line(text)}: section must be "
                             "[[section]] tables (double brackets), each with kind = \"...\"; got "
                             f"{_what(sections)}")
    study = Study(path, text, "", "", None, {}, [dict(s) for s in sections], raw,
                  {k: v for k, v in data.items() if k != "section"}, starts)
    fail = study.error

    for key, value in study.top.items():
        if key not in TOP:
            raise fail(f"unknown key {key!r}; a study file's keys are {', '.join(sorted(TOP))} "
                       "and [[section]] tables", key)
        _check_type(study, key, value, 0)
    if "game" not in data:
        raise fail(f"no game: add game = \"NAME\" (one of {', '.join(game_names())})")
    if data["game"] not in game_names():
        raise fail(f"unknown game {data['game']!r}; the games are {', '.join(game_names())}",
                   "game")
    spec = get_game(data["game"])
    options = dict(data.get("options", {}))
    _check_options(study, options, 0)
    try:   # sim.request: the one request every front end builds
        rules = request(spec, {k: _text(v) for k, v in options.items()}, data.get("players")).rules
    except RequestError as error:
        raise fail(str(error), error.field) from None
    shared = {k: data[k] for k in SHARED - {"options"} if k in data}
    _check_shared(study, shared, 0)
    if not sections:
        raise fail("no sections: add at least one [[section]] with kind = \"summary\" (or sweep, "
                   "ablate, cards, tune, compare, skill)")
    for number, section in enumerate(study.sections, start=1):
        _read_section(study, section, number, rules)
    for table, number in ((shared, 0), *((s, n) for n, s in enumerate(study.sections, start=1))):
        for key in SEAT_KEYS:
            if key in table:
                with study.blame(key, number):
                    table[key] = _seats(table[key], path.parent)
    study.title = data.get("title", f"{spec.title}: a study")
    study.game, study.rules, study.shared = spec.name, rules, shared
    return study


def _outside_int64(value, key: str = "") -> tuple[str, int] | None:
    """(key, value) of the first integer TOML's 64 bits cannot hold (tomllib reads any size)."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((key, v) for v in value)
    else:
        return (key, value) if _integer(value) and not -2 ** 63 <= value < 2 ** 63 else None
    for name, v in items:
        found = _outside_int64(v, name)
        if found:
            return found
    return None


def _check_type(study: Study, key: str, value, number: int) -> None:
    wanted = TYPES[key]
    if not wanted.test(value):
        raise study.error(f"{key} must be {wanted.name}, e.g. {key} = "
                          f"{EXAMPLES.get(key, wanted.example)}; got {_what(value)}", key, number)


def _check_options(study: Study, options: dict, number: int) -> None:
    for name, value in options.items():
        if not (_scalar(value) or isinstance(value, list) and all(map(_scalar, value))):
            raise study.error(f"options: {name} must be a string, a number, true/false or a "
                              f"list of those, as -o {name}=... takes it; got {_what(value)}",
                              "options", number)


def _read_section(study: Study, section: dict, number: int, rules) -> None:
    fail = study.error
    kind = section.get("kind")
    if "kind" not in section:
        raise fail(f"no kind: add kind = \"...\" (one of {', '.join(KINDS)})", None, number)
    _check_type(study, "kind", kind, number)
    if kind not in KINDS:
        raise fail(f"kind {kind!r} must be one of {', '.join(KINDS)}", "kind", number)
    for key, value in section.items():
        if key != "kind" and key not in KINDS[kind] and key not in SHARED:
            raise fail(f"unknown key {key!r}; a {kind} section takes "
                       f"{', '.join(sorted(KINDS[kind] | SHARED))}", key, number)
        _check_type(study, key, value, number)
    for key in REQUIRED.get(kind, ()):
        if key not in section:
            raise fail(f"no {key}: a {kind} section needs {key} = {EXAMPLES[key]}", None, number)
    _check_shared(study, section, number)
    _check_values(study, section, number)
    if "options" in section:
        _check_options(study, section["options"], number)
        with study.blame("options", number):
            section_rules(rules, section)
    if "target_file" in section:  # a file named in a study is found beside the study
        section["target_file"] = [str(_beside(study.path.parent, f))
                                  for f in section["target_file"]]
        for f in section["target_file"]:
            if not Path(f).is_file():
                raise fail(f"target file {f!r}: no such file", "target_file", number)


def _beside(folder: Path, name: str) -> Path:
    """A file a study names: a relative path is found beside the study file (in ``folder``)."""
    return Path(name) if Path(name).is_absolute() else folder.absolute() / name


def _seats(value, folder: Path):
    """The strategies as ``-s`` takes them (sim.strategy.load_strategy), a FILE relative to the
    study's folder: FILE.py:FUNCTION is loaded once here, trained:FILE stays a name."""
    from sim.strategy import load_strategy   # the command line's own reader of -s

    def one(text: str):
        name, _, function = text.rpartition(":")
        head, _, policy = text.partition(":")
        if head in ("trained", "strong") and policy:
            return f"{head}:{_beside(folder, policy)}"
        if not name.endswith(".py"):
            return text
        return load_strategy(f"{_beside(folder, name)}:{function}")

    return one(value) if isinstance(value, str) else [one(v) for v in value]


VALUE_CHECKS = {  # key: (test, what a good value is)
    "tolerance": (lambda v: 0 < v < 1, "a number in (0, 1)"),
    "trials": (lambda v: v >= 1, "an integer >= 1"),
    "search_games": (lambda v: v >= 1000, "an integer >= 1000"),
    "max_games": (lambda v: v >= 1000, "an integer >= 1000"),
    "interactions": (lambda v: v == 0 or 2 <= v <= 8, "0 or 2 to 8"),
    "distance": (lambda v: v in ("max", "rms"), "\"max\" or \"rms\""),
    "alternative": (lambda v: v in ("two-sided", "greater", "less"),
                    "\"two-sided\", \"greater\" or \"less\""),
    "alpha": (lambda v: 0 < v < 0.5, "a number in (0, 0.5)"),
    "power": (lambda v: 0.5 < v < 1, "a number in (0.5, 1)"),
    "delta": (lambda v: v > 0, "a positive number (pp), a size: alternative gives the direction"),
    "budgets": (lambda v: len(v) == 2 and all(1 <= b <= MAX_BUDGET for b in v),
                f"two search budgets, each 1 to {MAX_BUDGET}, e.g. [16, 64]"),
}


# Lists whose absence means "every one": an empty list would read the same, so `metrics = []`
# (a list emptied while editing) would silently show every metric. Refused instead.
EVERY_WHEN_LEFT_OUT = {"metrics": "metric", "level": "level of play", "cards": "card"}


def _check_values(study: Study, section: dict, number: int) -> None:
    """Each value's range (its type is checked already)."""
    for key, (good, wanted) in VALUE_CHECKS.items():
        if key in section and not good(section[key]):
            raise study.error(f"{key} must be {wanted}, got {section[key]!r}", key, number)
    for key, what in EVERY_WHEN_LEFT_OUT.items():
        if section.get(key) == []:
            raise study.error(f"{key} = [] names no {what}; leave {key} out for every {what}",
                              key, number)


def _check_shared(study: Study, table: dict, number: int) -> None:
    from sim.rng import master_key

    from .workbench.precision import check_precision

    if "games" in table and table["games"] < 2:
        raise study.error(f"games must be an integer >= 2, got {table['games']!r}", "games",
                          number)
    if "precision" in table:
        with study.blame("precision", number):
            check_precision(table["precision"], None)
    if "seed" in table:
        with study.blame("seed", number):
            master_key(table["seed"])


# --- the check: everything a section will need, no game played --------------------------------

def check(study: Study) -> None:
    """Resolve everything every section will need, without playing a game: its variant, its
    seats (sim.strategy), its metrics (the headline ones and those the game's study declares),
    sweep and tune points, goals, varied knobs and their ranges, card levels and cards, the
    comparison's sides and levels, the skill ladder's search players. ``balance study --check``
    and :func:`run` both call it; a problem is a StudyFileError at the key's line."""
    from sim.strategy import resolve_seats

    spec = get_game(study.game)
    for number, section in enumerate(study.sections, start=1):
        with study.blame("options", number):
            rules = section_rules(study.rules, section)
        settings = {**study.shared, **{k: v for k, v in section.items() if k in SHARED}}
        seats = settings.get("strategies", "random")
        with study.blame("strategies", number):
            resolve_seats(spec, seats, rules.n_seats)
        CHECKS[section["kind"]](study, spec, rules, seats, section, number)


def metric_names(spec, n_seats: int) -> list[str]:
    """Every metric a batch measures at this seat count: the headline ones and those the game's
    study declares (named by asking its ``game_metrics`` about an empty records table, so no
    game is played)."""
    import numpy as np

    from sim.results import records_frame

    from .studies import study_of
    from .workbench import metrics as M

    names = M.metric_names(spec, n_seats)
    declared = study_of(spec.name).metrics
    if declared is not None:
        empty = records_frame(spec, n_seats, np.zeros((0, spec.record_width(n_seats)), np.int64))
        names += [m for m in declared(empty, n_seats) if m not in names]
    return names


def _unknown(metrics, known) -> str | None:
    missing = [m for m in metrics if m not in known]
    return f"unknown metric(s) {', '.join(missing)}; the metrics: {', '.join(known)}" \
        if missing else None


def _points(spec, rules, seats, grid: dict):
    """(assignment, rules, seats) of every point of a grid (workbench.specs.point)."""
    from .workbench import specs

    for values in itertools.product(*grid.values()):
        assignment = dict(zip(grid, values))
        yield (assignment, *specs.point(spec, rules, seats, assignment))


def _check_summary(study, spec, rules, seats, section, number):
    problem = _unknown(section.get("metrics", []), metric_names(spec, rules.n_seats))
    if problem:
        raise study.error(problem, "metrics", number)


def _check_sweep(study, spec, rules, seats, section, number):
    from sim.strategy import resolve_seats

    from .workbench import specs

    known = []
    with study.blame("vary", number):
        grid = specs.parse_grid(section["vary"])
        specs.check_names(spec, rules, grid)
        for _, point_rules, point_seats in _points(spec, rules, seats, grid):
            resolve_seats(spec, point_seats, point_rules.n_seats)
            known += [m for m in metric_names(spec, point_rules.n_seats) if m not in known]
    problem = _unknown([section["metric"]] if "metric" in section else [], known)
    if problem:
        raise study.error(problem, "metric", number)


def _check_ablate(study, spec, rules, seats, section, number):
    from .workbench import specs

    with study.blame("params", number):
        names = [k for name in section.get("params", rules.tunables()) for k in
                 specs.knob_names(name, rules)]
    if not names:
        raise study.error("nothing to ablate: params is empty" if "params" in section else
                          f"{spec.title} declares no tunable parameters to ablate", "params",
                          number)
    problem = _unknown([section["metric"]] if "metric" in section else [],
                       metric_names(spec, rules.n_seats))
    if problem:
        raise study.error(problem, "metric", number)


def _check_cards(study, spec, rules, seats, section, number):
    from sim.strategy import resolve_seats

    from . import interventions as I

    with study.blame("level", number):
        for level_seats in I._levels(spec, rules, section.get("level"), None).values():
            resolve_seats(spec, level_seats, rules.n_seats)
    with study.blame("cards", number):
        I.declared_cards(spec, rules, section.get("cards"))


def _check_tune(study, spec, rules, seats, section, number):
    from sim.strategy import resolve_seats

    from .workbench import specs
    from .workbench import targets as T

    with study.blame("over", number):
        grid = specs.parse_grid(section.get("over", {}), "--over")
        specs.check_names(spec, rules, grid)
        points = list(_points(spec, rules, seats, grid))
    goals = []   # (the key it came from, the goal), read as tune reads them
    for key, request in (("target", {"goals": section.get("target")}),
                         ("balance", {"balance": section.get("balance")}),
                         ("target_file", {"files": section.get("target_file")})):
        if section.get(key):
            with study.blame(key, number):
                goals += [(key, goal) for goal in T.parse_goals(spec, **request,
                                                                 over_names=list(grid))]
    if not goals:
        raise study.error("no goal: give target = [\"METRIC=VALUE\"], balance = [\"GROUP\"] or "
                          "target_file = [\"FILE.csv\"]", None, number)
    with study.blame(goals[-1][0], number):   # a goal of `target` against a file's row too
        T.check_consistent([goal for _, goal in goals])
    at = [T.point_values(point_rules, point_seats, a) for a, point_rules, point_seats in points]
    # only a target file's rows are restricted to some points
    with study.blame("target_file" if "target_file" in section else None, number):
        T.check_coverage([goal for _, goal in goals], at)
    for (_, point_rules, point_seats), values in zip(points, at):
        with study.blame("strategies" if "strategies" not in grid else "over", number):
            resolve_seats(spec, point_seats, point_rules.n_seats)
        known = metric_names(spec, point_rules.n_seats)
        row = {name: 0.0 for m in known for name in (m, f"{m}_low", f"{m}_high")}
        for key, goal in goals:
            if not goal.applies(values):
                continue
            with study.blame(key, number):
                if goal.match is None:
                    goal.measure(row)   # names a metric (or two, for a gap) the point measures
                else:
                    a, b = goal.match
                    try:
                        resolve_seats(spec, [a] + [b] * (point_rules.n_seats - 1),
                                      point_rules.n_seats)
                    except BalanceError as error:
                        raise type(error)(f"goal {goal.text}: {error}") from None
    with study.blame("vary", number):
        ranges = [specs.parse_ranges(section["vary"], point_rules) for _, point_rules, _ in points]
        # as tune: the values are all per over point, or all shared by every point
        knobs = points[0][1].tunables()
        per_point = {bool(set(knobs[n].per) & set(grid)) for n in ranges[0]}
        if len(per_point) > 1:
            raise specs.WorkbenchError("the varied parameters mix values per over point and "
                                       "shared values; tune them in two sections")


def _check_compare(study, spec, rules, seats, section, number):
    from .workbench import metrics as M
    from .workbench.compare import (DEFAULT_BATCH, DEFAULT_MAX_GAMES, check_levels,
                                    check_rate_delta, is_rate, make_side)
    from .workbench.compare import _check_sizes   # the run's own check of the sizes

    sides = []
    for label in ("a", "b"):
        key = label if label in section or f"{label}_strategies" not in section else \
            f"{label}_strategies"
        with study.blame(key, number):
            sides.append(make_side(spec, rules, seats, label.upper(), section.get(label),
                                   section.get(f"{label}_strategies")))
    metric = section.get("metric")
    if metric is None:   # as compare.setup: a strategy comparison asks how the first one does
        metric = "side_0" if sides[0].labels != sides[1].labels else M.primary_metric(spec)
    for side in sides:
        n = side.rules.n_seats
        problem = _unknown([metric], [*metric_names(spec, n), *(f"side_{k}" for k in range(n))])
        if problem:
            raise study.error(f"{problem} (side {side.label}: {side.text})", "metric", number)
    with study.blame("power", number):
        check_levels(section.get("delta", 1.0), section.get("alpha", 0.05),
                     section.get("power", 0.9), section.get("alternative", "two-sided"))
    if is_rate(metric):
        with study.blame("delta", number):
            check_rate_delta(section.get("delta", 1.0))
    with study.blame("max_games", number):
        _check_sizes(DEFAULT_BATCH, section.get("max_games", DEFAULT_MAX_GAMES),
                     math.lcm(sides[0].rules.n_seats, sides[1].rules.n_seats))


def _check_skill(study, spec, rules, seats, section, number):
    from sim.strategy import resolve_seats

    from .skill import has_trained, ladder_levels

    best = section.get("best", "random")
    # the budgets' range is checked with the file; what remains is best, which plays a rung of
    # its own and the search rungs' rollouts
    for label, strategy in ladder_levels(best, *section.get("budgets", (16, 64)),
                                         trained=has_trained(spec.name, rules)):
        try:
            resolve_seats(spec, strategy, rules.n_seats)
        except BalanceError as error:
            raise study.error(f"best {best!r} must be a built-in strategy of {spec.title} (it "
                              f"plays the search player's rollouts): {error}", "best",
                              number) from None


CHECKS = {"summary": _check_summary, "sweep": _check_sweep, "ablate": _check_ablate,
          "cards": _check_cards, "tune": _check_tune, "compare": _check_compare,
          "skill": _check_skill}


# --- running ------------------------------------------------------------------------------------

def run(study: Study | str | Path, out_dir=None, *, jobs: int = 1, progress: bool = False) -> Path:
    """Check the study (:func:`check`, the one ``--check`` runs), then run every section in
    order and write the report; returns its index.md. A section that fails leaves the report of
    those before it written, and the error names the section."""
    from .markdown import Doc

    if not isinstance(study, Study):
        study = read(study)
    check(study)   # before anything plays
    out = Path(out_dir) if out_dir else Path("reports") / "studies" / study.path.stem
    doc = Doc(out)
    spec = get_game(study.game)
    doc.text(f"# {study.title}\n\nA study file (`{study.path.name}`, SHA-256 "
             f"`{study.digest[:16]}`) run by `balance study` (balance-toolkit {__version__}) on "
             f"{spec.title}, {_variant_text(study.rules)}.")
    for number, section in enumerate(study.sections, start=1):
        settings = {**study.shared, **{k: v for k, v in section.items() if k in SHARED}}
        rules = section_rules(study.rules, section)
        kept = len(doc.blocks), dict(doc.provenance), len(doc.findings)
        try:
            RUNNERS[section["kind"]](doc, spec, rules, section, settings, number, jobs, progress,
                                     study.provenance())
        except BaseException as error:   # Ctrl-C too: keep what finished
            _write_partial(doc, kept, number, section["kind"], error)
            finished = f"the report of the {number - 1} finished section(s): {out / 'index.md'}"
            if isinstance(error, BalanceError):
                raise StudyFileError(f"{study.path}: section {number} ({section['kind']}) "
                                     f"failed: {' '.join(str(error).split())}; {finished}") \
                    from None
            error.add_note(f"balance study: section {number} ({section['kind']}) failed; "
                           f"{finished}")
            raise
    return doc.write()


def _write_partial(doc, kept, number: int, kind: str, error: BaseException) -> None:
    """The report of the sections that finished, and a line saying which one did not."""
    blocks, provenance, findings = kept
    del doc.blocks[blocks:], doc.findings[findings:]
    doc.provenance = provenance
    why = str(error).strip() or type(error).__name__
    doc.text(f"## {number}. {kind.capitalize()}: did not finish\n\n"
             f"This section stopped ({type(error).__name__}: {why}); the sections after it did "
             "not run. The sections above are complete.")
    with contextlib.suppress(Exception):   # the section's own error is the one to report
        doc.write()


def _text(value) -> str:
    """A TOML value as the text ``-o`` takes (lists joined by commas): the one conversion of
    option values, the command line's."""
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def section_rules(rules, section: dict):
    """The study's variant with a section's own ``options``."""
    if "options" not in section:
        return rules
    if not isinstance(section["options"], dict):
        raise StudyFileError("options must be a table, e.g. options = { mode = \"advanced\" }")
    return rules.replace(**{k: _text(v) for k, v in section["options"].items()})


def _variant_text(rules) -> str:
    return ", ".join(f"{k}={v}" for k, v in rules.to_dict(options_only=True).items()
                     if v is not None) or "default rules"


def _strategies(settings):
    s = settings.get("strategies", "random")
    return s if isinstance(s, str) or len(s) != 1 else s[0]


def _stamp(table: pd.DataFrame, study_provenance: dict) -> pd.DataFrame:
    table.attrs["provenance"] = {**table.attrs.get("provenance", {}), **study_provenance}
    return table


def _summary(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .markdown import pct_text
    from .workbench import metrics as M
    from .workbench.precision import run_batch

    result = run_batch(spec, rules, _strategies(settings), settings.get("games", 10_000),
                       settings.get("seed", 0), precision=settings.get("precision"), jobs=jobs,
                       stream=not M.declares_metrics(spec))
    row = M.measured(result, spec, rules.n_seats)
    names = section.get("metrics") or [m for m in row if f"{m}_low" in row]
    missing = [m for m in names if m not in row]
    if missing:
        raise StudyFileError(f"section {number} (summary): unknown metric(s) "
                             f"{', '.join(missing)}; the metrics: "
                             f"{', '.join(m for m in row if f'{m}_low' in row)}")
    table = _stamp(pd.DataFrame([{"metric": m, "estimate": row[m], "ci_low": row[f"{m}_low"],
                                  "ci_high": row[f"{m}_high"]} for m in names]),
                   {**result.provenance, **provenance})
    view = pd.DataFrame({"metric": table["metric"], "estimate (95% CI)": [
        pct_text([e], [lo], [hi], signed=m == "first_seat_advantage")[0]
        if not m.endswith("_mean") else f"{e:.2f} ({lo:.2f} to {hi:.2f})"
        for m, e, lo, hi in zip(table["metric"], table["estimate"], table["ci_low"],
                                table["ci_high"])]})
    doc.text(f"## {number}. Summary\n\n{row['n_games']:,} games, every metric with its 95% "
             "interval.")
    doc.table(f"s{number}_summary", table, view)


def _sweep(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .workbench.sweep import sweep, sweep_figure

    table = _stamp(sweep(spec, section["vary"], rules, _strategies(settings),
                         settings.get("games", 10_000), settings.get("seed", 0),
                         precision=settings.get("precision"), jobs=jobs, progress=progress),
                   provenance)
    metric = section.get("metric")
    varied = list(table.attrs["provenance"]["vary"])
    shown = [c for c in table.columns if c in varied or (f"{c}_low" in table and
                                                         (metric is None or c == metric))]
    doc.text(f"## {number}. Sweep over {', '.join(varied)}\n\nEvery point plays the same games "
             "of the seed (common random numbers).")
    doc.table(f"s{number}_sweep", table, table[shown].round(4))
    figure = sweep_figure(table, metric)
    if figure is not None:
        doc.figure(f"s{number}_sweep", figure, "Each point with its 95% interval.")


def _ablate(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .markdown import pp_text
    from .workbench.ablate import ablate, tornado
    from .workbench.metrics import primary_metric

    table = _stamp(ablate(spec, rules, _strategies(settings), settings.get("games", 10_000),
                          settings.get("seed", 0), knobs=section.get("params"),
                          precision=settings.get("precision"), jobs=jobs, progress=progress),
                   provenance)
    metric = section.get("metric") or primary_metric(spec)
    part = table[table["metric"] == metric]
    doc.text(f"## {number}. Ablation on `{metric}`\n\nEvery tunable one step up and down, "
             "paired against the current values; p Holm-corrected.")
    doc.table(f"s{number}_ablate", table, pd.DataFrame({
        "parameter": part["parameter"], "step": part["step"],
        f"change in {metric}, pp (95% CI)": pp_text(part["diff"], part["ci_low"], part["ci_high"]),
        "status": part["status"]}))
    doc.figure(f"s{number}_ablate", tornado(table, metric), "Paired change per step, longest first.")


def _cards(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from . import interventions as I

    precision = settings.get("precision")
    table = I.card_section(doc, spec, rules, n_games=None if precision else
                           settings.get("games", I.REPORT_GAMES), precision=precision,
                           level=section.get("level"), cards=section.get("cards"),
                           seed=settings.get("seed", 0), jobs=jobs,
                           k=section.get("interactions", I.INTERACTION_CARDS),
                           file_prefix=f"s{number}_cards")
    _stamp(table, provenance)


def _tune(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .workbench.tune import front_figure, tune

    result = tune(spec, section.get("target", []), section["vary"], section.get("over"), rules,
                  _strategies(settings), settings.get("seed", 0),
                  trials=section.get("trials", 150), search_games=section.get("search_games",
                                                                              64_000),
                  tolerance=section.get("tolerance", 0.02),
                  fewest_changes=section.get("fewest_changes", False),
                  precision=settings.get("precision", 0.5), jobs=jobs, progress=progress,
                  balance=section.get("balance", []), target_files=section.get("target_file", []),
                  distance=section.get("distance", "max"), pareto=section.get("pareto", False))
    for table in (result.values, result.verified, *( [result.front] if result.front is not None else [])):
        _stamp(table, provenance)
    doc.text(f"## {number}. Tuning\n\nGoals: "
             + ", ".join(f"`{t}`" for t in result.verified.attrs["provenance"]["targets"])
             + ". The winner is re-played on a seed the search never used; "
             + ("every target is hit." if result.hit else "NOT every target is hit."))
    doc.table(f"s{number}_values", result.values, result.values)
    doc.table(f"s{number}_verified", result.verified, result.verified.round(4))
    if result.front is not None and len(result.front):
        front = result.front.drop(columns=["values"])
        doc.table(f"s{number}_front", front, front[["point", "changes", "changed",
                                                    "verified_distance"]].round(4))
        doc.figure(f"s{number}_front", front_figure(result.front),
                   "Each dot a front point verified on a fresh seed; the steps are the best "
                   "distance reached with that many changes. Pick the leftmost point under the "
                   "tolerance line.")


def _compare(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .workbench.compare import compare

    result = compare(spec, section.get("a"), section.get("b"), rules=rules,
                     strategies=_strategies(settings), a_strategies=section.get("a_strategies"),
                     b_strategies=section.get("b_strategies"), metric=section.get("metric"),
                     delta=section.get("delta", 1.0), alpha=section.get("alpha", 0.05),
                     power=section.get("power", 0.9),
                     alternative=section.get("alternative", "two-sided"),
                     seed=settings.get("seed", 0),
                     max_games=section.get("max_games", 1_000_000), jobs=jobs, progress=progress)
    _stamp(result.table, provenance)
    doc.text(f"## {number}. Is B different from A?\n\n{result['verdict']}")
    doc.table(f"s{number}_compare", result.table, result.table.T.reset_index())


def _skill(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .skill import skill_section

    games = settings.get("games", 2000)
    skill_section(doc, spec.name, rules, section.get("best", "random"),
                  (games, games, max(games // 10, 50), max(games // 20, 50)),
                  settings.get("seed", 0), jobs, tuple(section.get("budgets", (16, 64))))


RUNNERS = {"summary": _summary, "sweep": _sweep, "ablate": _ablate, "cards": _cards,
           "tune": _tune, "compare": _compare, "skill": _skill}
