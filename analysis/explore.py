"""The designer's live loop: an edited variant against the default, played in the background.

``balance explore`` (cli/explore.py, a web page) and ``balance mcp`` (cli/mcp_server.py, tools
for AI assistants) share this module. Nothing here names a game: the form comes from the rules
dataclass (sim.variant: every option with its help, choices and ``Tunable`` declaration), the
player count from its player option, the levels of play from
``analysis.interventions.levels`` and the metrics from ``analysis.workbench.metrics``.

The loop is the workbench's paired comparison (analysis.workbench.compare): side A is the
default rules at the chosen player count and levels, side B the edited rules; both play games
n..n+k-1 of one seed (common random numbers) with seats rotated, in growing steps, so the
games played after any step are exactly games 0..n-1 of the seed, as ``balance compare``
plays them. Only running sums are kept (per side and per paired difference), so a session
can run for millions of games in constant memory.
"""
from __future__ import annotations

import dataclasses
import importlib.resources
import math
import threading
import time
import typing
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from sim.errors import BalanceError, RulesError
from sim.games import code_versions, get_game
from sim.request import RequestError, request
from sim.runner import simulate
from sim.variant import PLAYER_OPTIONS

from .stats import ConfidenceSequence
from .workbench import metrics as M
from .workbench import specs
from .workbench.compare import Side, metric_values

DEFAULT_PRECISION = 0.5      # pp: the half-width every rate's paired difference is grown to
DEFAULT_MAX_GAMES = 2_000_000
FIRST_STEP = 240             # games per side in the first step: first numbers well within 1 s
STEP_SECONDS = 0.4           # later steps aim at this wall time, so the page updates steadily
MAX_STEP = 200_000
Z95 = float(stats.norm.ppf(0.975))


class ExploreError(BalanceError):
    """A request the live loop cannot serve: ``field`` names the input (or argument) at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


# --- the form: every input, from the rules' declarations ---------------------------------------

def player_option(spec) -> str | None:
    return spec.rules_class.player_option()


def base_rules(spec, players: int | None = None):
    """The default rules, at ``players`` (sim.request: the one request every front end
    builds)."""
    try:
        return request(spec, None, players).rules
    except RequestError as error:
        raise ExploreError(str(error), error.field) from None


def levels_of(spec, rules) -> dict[str, object]:
    from .interventions import levels

    return levels(spec, rules)


def seats_of(spec, rules, levels: typing.Sequence[str] | str | None):
    """One strategy per seat from one level name per seat (or one for every seat)."""
    known = levels_of(spec, rules)
    n = rules.n_seats
    chosen = [levels] * n if levels is None or isinstance(levels, str) else list(levels)
    chosen = [level or "random" for level in chosen]
    if len(chosen) != n:
        raise ExploreError(f"give one level per seat ({n}), got {len(chosen)}", "levels")
    seats = []
    for level in chosen:
        if level not in known:
            raise ExploreError(f"unknown level {level!r}; {spec.title} at {n} players has "
                               f"{', '.join(known)}", "levels")
        strategy = known[level]
        seats.append(strategy if isinstance(strategy, str) else strategy[len(seats)])
    return chosen, seats


def _kind(spec, name, f) -> str:
    hint = typing.get_type_hints(spec.rules_class)[name]
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    base = typing.get_origin(args[0]) or args[0]
    if f.metadata.get("choices"):
        return "choice"
    return {bool: "bool", int: "int", float: "float"}.get(base, "text")


def data_options(spec) -> dict[str, str]:
    """{option: path of the shipped data file it reads by default} for every option that takes
    a data file: found by asking the rules which of the game package's data files each
    file-less option (default None) accepts, so no game declares anything for it."""
    folder = importlib.resources.files(spec.rules_class.__module__.rpartition(".")[0]) / "data"
    if not folder.is_dir():
        return {}
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".csv")),
                   key=lambda f: ("default" not in f.name, f.name))
    base = spec.rules_class()
    found = {}
    for name, f in spec.rules_class.options().items():
        if f.default is not None or f.metadata.get("tune") or _kind(spec, name, f) != "text":
            continue
        for file in files:
            try:
                base.replace(**{name: str(file)}).kernel_args()
            except (BalanceError, ValueError, KeyError, TypeError):
                continue
            found[name] = str(file)
            break
    return found


def read_grid(path: str) -> list[list[str]]:
    """A data file as rows of cells (its header first), for the page's grid."""
    import csv

    from sim.datafile import decode_text

    data = open(path, "rb").read()
    text, _ = decode_text(data, lambda why: RulesError(f"{path}: {why}"))
    lines = [line for line in text.removeprefix("\ufeff").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    return [row for row in csv.reader(lines)]


def form(game, players: int | None = None) -> dict:
    """Everything the page (or an assistant) needs to ask for a variant: the player count, each
    option with its label (the declared help), rule id, kind and default, the tunable knobs of
    this player count with their bounds, the data-file options with their shipped table, the
    levels of play and the metrics."""
    spec = get_game(game)
    rules = base_rules(spec, players)
    knobs = rules.tunables()
    tables = data_options(spec)
    options = []
    for name, f in spec.rules_class.options().items():
        meta = f.metadata
        entry = {"name": name, "label": meta.get("help", ""), "rule": meta.get("rule", ""),
                 "kind": _kind(spec, name, f), "value": _text(getattr(rules, name)),
                 "choices": [str(c) for c in meta.get("choices") or ()]}
        mine = [k for k in knobs.values() if k.option == name]
        if mine:
            entry["kind"] = "knobs"
            entry["knobs"] = [{"name": k.name, "value": k.value, "low": k.low, "high": k.high,
                               "step": k.step, "integer": k.integer} for k in mine]
        if name in tables:
            entry["kind"] = "table"
            entry["grid"] = read_grid(tables[name])
        if name == player_option(spec):
            entry["kind"] = "players"
        options.append(entry)
    from .study_file import metric_names

    return {"game": spec.name, "title": spec.title, "players": rules.n_seats,
            "player_option": player_option(spec), "options": options,
            "levels": list(levels_of(spec, rules)), "metrics": metric_names(spec, rules.n_seats),
            "headline": headline_metric(spec), "precision": DEFAULT_PRECISION}


def headline_metric(spec) -> str:
    """The metric the verdict is about: the study's declared edge, else the headline rate."""
    from .interventions import CardsError, edge_metric

    try:
        return edge_metric(spec)
    except CardsError:   # a study without cards declares no edge
        return M.primary_metric(spec)


def _text(value) -> str:
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)


# --- a view: what the page shows, as one request ----------------------------------------------

@dataclass
class View:
    """The edited variant and its setting: the player count, one level per seat, the changed
    options (option name -> text, as ``-o`` takes it), the changed knobs (knob -> number), the
    precision (pp), the seed and the games cap."""
    game: str
    players: int | None = None
    levels: list | str | None = None
    options: dict = field(default_factory=dict)
    knobs: dict = field(default_factory=dict)
    precision: float = DEFAULT_PRECISION
    seed: int = 0
    max_games: int = DEFAULT_MAX_GAMES


@dataclass
class Resolved:
    spec: object
    a: Side
    b: Side
    levels: list
    changes: dict          # option -> text: B's options that differ from A's (knobs included)
    assignment: dict = field(default_factory=dict)   # the edits as asked: options, then knobs
    strong_play: str = ""  # where strong plays B's variant unfitted: the field's transfer there


def resolve(view: View) -> Resolved:
    """The two sides of a view; a refused value raises ExploreError naming its input."""
    try:
        spec = get_game(view.game)
    except RulesError as error:
        raise ExploreError(str(error), "game") from None
    if isinstance(view.precision, bool) or not isinstance(view.precision, (int, float)) or \
            not 0.01 <= view.precision <= 50:
        raise ExploreError(f"precision must be 0.01 to 50 percentage points, got "
                           f"{view.precision!r}", "precision")
    if isinstance(view.seed, bool) or not isinstance(view.seed, int) or view.seed < 0:
        raise ExploreError(f"seed must be a non-negative integer, got {view.seed!r}", "seed")
    if isinstance(view.max_games, bool) or not isinstance(view.max_games, int) or \
            view.max_games < 2:
        raise ExploreError(f"max_games must be an integer >= 2, got {view.max_games!r}",
                           "max_games")
    a_rules = base_rules(spec, view.players)
    levels, seats = seats_of(spec, a_rules, view.levels)
    assignment = {}
    for name, value in {**view.options, **view.knobs}.items():
        if name in PLAYER_OPTIONS and name == player_option(spec):
            raise ExploreError("the player count is set with players, not as an option", name)
        assignment[name] = value
    rules = a_rules
    # One change at a time, options before knobs (knobs may depend on them, as in
    # specs.point), so that a refused value is named by its own input.
    ordered = sorted(assignment.items(), key=lambda kv: kv[0] in view.knobs)
    for name, value in ordered:
        try:
            specs.check_names(spec, rules, [name])
            rules, _ = specs.point(spec, rules, seats, {name: value})
        except BalanceError as error:
            raise ExploreError(str(error), name) from None
    try:
        rules.kernel_args()   # some rules read their data files only here
    except BalanceError as error:
        raise ExploreError(str(error), ordered[-1][0] if ordered else "options") from None
    before, after = a_rules.to_dict(), rules.to_dict()
    options = spec.rules_class.options()    # to_dict may add derived values (not options)
    changes = {k: _text(v) for k, v in after.items() if k in options and before.get(k) != v}
    a = Side("A", "(default)", a_rules, seats)
    asked = {name: _value_text(value) for name, value in ordered if name in view.knobs or
             _text(getattr(a_rules, name, None)) != _value_text(value)}
    b = Side("B", ", ".join(f"{k}={v}" for k, v in asked.items()) or "(default)", rules, seats)
    from sim.strategy import resolve_seats

    a.labels = b.labels = tuple(resolve_seats(spec, seats, a_rules.n_seats).labels)
    return Resolved(spec, a, b, levels, changes, asked if changes else {},
                    _strong_play(spec, b.rules, seats))


def _value_text(value) -> str:
    """A knob's number as the CLI writes it (8, not 8.0); an option's text as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return _text(value)


# --- running sums of paired games ---------------------------------------------------------------

def value_range(name: str) -> tuple[float, float] | None:
    """The range a metric's per-game value lies in, known before any game: a share of a game
    (a win, a team's win, an end) in [0, 1]; the first seat's advantage, a win less the fair
    share, in [-1, 1]; None for a mean of a count (``*_mean``, e.g. the rounds), which has no
    bound an interval could rely on."""
    if name.endswith("_mean"):
        return None
    return (-1.0, 1.0) if name == "first_seat_advantage" else (0.0, 1.0)


class Sums:
    """Per metric: the running sums of A, B and B - A, and their anytime-valid intervals.

    The page is read at every step, and a designer acts on what it shows at the moment they
    look, so every interval of a bounded metric is a confidence sequence
    (analysis.stats.ConfidenceSequence): valid at every step at once. Its observations are one
    block of ``unit`` consecutive games each (one full rotation of the seats), so the blocks are
    independent and identically distributed even where the levels differ by seat. A metric
    with no bound (``*_mean``), or one whose values leave the range :func:`value_range` assumed,
    gets the fixed-sample t-interval, marked ``"fixed-sample"``: it is shown but never decides.
    """

    def __init__(self, target: float | None = None):
        self.values: dict[str, np.ndarray] = {}
        self.sequences: dict[str, dict | None] = {}
        self.target = target           # the half-width the bets aim at (ConfidenceSequence)

    def add(self, name: str, a: np.ndarray, b: np.ndarray, unit: int = 1) -> None:
        """The games of one step, in game order (a whole number of ``unit`` blocks)."""
        a, b = np.asarray(a, float), np.asarray(b, float)
        self._add_sums(name, a, b)
        bounds = value_range(name)
        if name not in self.sequences:
            self.sequences[name] = None if bounds is None else {
                side: ConfidenceSequence(*(bounds if side != "d" else
                                           (bounds[0] - bounds[1], bounds[1] - bounds[0])),
                                         target=self.target) for side in "abd"}
        sequences = self.sequences[name]
        if sequences is None:
            return
        blocks = _block_means(a, b, unit if a.size % unit == 0 else 1)
        try:
            for side, values in zip("abd", blocks):
                sequences[side].update(values)
        except ValueError:   # a value outside the assumed range: no bound to rely on
            self.sequences[name] = None

    def _add_sums(self, name: str, a: np.ndarray, b: np.ndarray) -> None:
        keep = ~(np.isnan(a) | np.isnan(b))
        a, b = a[keep], b[keep]
        d = b - a
        row = np.array([a.size, a.sum(), (a * a).sum(), b.sum(), (b * b).sum(), d.sum(),
                        (d * d).sum()])
        old = self.values.get(name)
        self.values[name] = row if old is None else old + row

    def kind(self, name: str) -> str:
        return "anytime" if self.sequences.get(name) is not None else "fixed-sample"

    def interval(self, name: str, side: str) -> dict:
        """{mean, low, high} as plain floats, None where there is no value yet (JSON has no
        NaN)."""
        return {k: None if v is None or math.isnan(v) else float(v)
                for k, v in self._interval(name, side).items()}

    def _interval(self, name: str, side: str) -> dict:
        n, *s = self.values[name]
        total, squares = {"a": (s[0], s[1]), "b": (s[2], s[3]), "d": (s[4], s[5])}[side]
        mean = total / n if n else math.nan
        sequences = self.sequences.get(name)
        if sequences is not None:
            # the bets weigh the blocks unequally, so the sequence's own centre is not the
            # games' mean; widened to hold the mean shown (wider stays valid)
            _, low, high = sequences[side].interval()
            return {"mean": mean, "low": min(low, mean), "high": max(high, mean)}
        if n < 2:
            return {"mean": mean, "low": math.nan, "high": math.nan}
        var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
        half = float(stats.t.ppf(0.975, n - 1)) * math.sqrt(var / n)
        return {"mean": mean, "low": mean - half, "high": mean + half}


def _block_means(a: np.ndarray, b: np.ndarray, unit: int) -> tuple[np.ndarray, ...]:
    """The means of A, B and B - A over each block of ``unit`` games, over the games where both
    have a value (a metric defined only in some games); a block with none is left out."""
    both = ~(np.isnan(a) | np.isnan(b))
    count = both.reshape(-1, unit).sum(axis=1)
    keep = count > 0
    sums = [np.where(both, x, 0.0).reshape(-1, unit).sum(axis=1)[keep] / count[keep]
            for x in (a, b)]
    return sums[0], sums[1], sums[1] - sums[0]


def metric_list(spec, side: Side) -> list[str]:
    from .study_file import metric_names

    n = side.rules.n_seats
    names = metric_names(spec, n)
    if len(set(side.labels)) > 1:   # levels differ: each level's share wherever it sat
        names += [f"side_{k}" for k in range(n)]
    return names


def is_rate(name: str) -> bool:
    return not name.endswith("_mean")


def summary(resolved: Resolved, sums: Sums, games: int, seconds: float, precision: float,
            max_games: int, seed: int, finished: bool = False) -> dict:
    """What the page and the tools show: every metric of A and B with its interval, the paired
    difference with its interval, whether the precision is reached, and a verdict in words."""
    spec, a, b = resolved.spec, resolved.a, resolved.b
    headline = headline_metric(spec)
    rows = []
    for name in sums.values:
        rows.append({"metric": name, "rate": is_rate(name), "group": _group(name, spec),
                     "interval": sums.kind(name),
                     "a": sums.interval(name, "a"), "b": sums.interval(name, "b"),
                     "diff": sums.interval(name, "d")})
    target = precision / 100
    widths = [max(_half(r["diff"]), _half(r["b"])) for r in rows
              if r["rate"] and r["interval"] == "anytime"]
    reached = bool(games) and bool(widths) and all(w <= target + 1e-12 for w in widths)
    main = next((r for r in rows if r["metric"] == headline), rows[0] if rows else None)
    decided, verdict = _verdict(main, resolved, games, precision, reached, games >= max_games)
    return {"game": spec.name, "title": spec.title, "games": games,
            "games_per_s": 2 * games / seconds if seconds > 0 else 0.0,
            "seconds": seconds, "precision_pp": precision, "precision_reached": reached,
            "done": reached or games >= max_games or finished, "decided": decided,
            "verdict": " ".join(filter(None, (verdict, resolved.strong_play))),
            "headline": headline, "levels": resolved.levels,
            "metrics": rows, "provenance": provenance(resolved, games, seed, precision)}


def _half(interval: dict) -> float:
    if interval["high"] is None or interval["mean"] is None:
        return math.inf
    return interval["high"] - interval["mean"]


def _group(name: str, spec) -> str:
    if name.startswith("win_"):
        return "seat"
    if name.startswith("side_"):
        return "level"
    if name in ("first_seat_advantage", "decided") or name in spec.headline_ends or \
            name.endswith("_mean"):
        return "headline"
    return "declared"   # the study's own: sides, teams, roles...


def _verdict(row, resolved: Resolved, games: int, precision: float, reached: bool,
             out_of_budget: bool) -> tuple[bool, str]:
    if row is None or games == 0:
        return False, "playing the first games..."
    metric = row["metric"]
    scale, unit = (100, " pp") if row["rate"] else (1, "")
    d = row["diff"]
    if d["low"] is None:
        return False, f"{metric}: after {games:,} games; too few games for an interval."
    shown = f"{scale * d['mean']:+.2f}{unit} ({scale * d['low']:+.2f} to {scale * d['high']:+.2f})"
    if row["interval"] != "anytime":   # a fixed-sample interval read at every step misleads
        return False, (f"{metric}: {shown} after {games:,} paired games (a fixed-sample "
                       "interval: no live verdict on this metric).")
    if not resolved.changes:
        b = row["b"]
        if b["low"] is None:
            return False, f"Default rules: {metric} after {games:,} games; too few for an interval."
        return reached, (f"Default rules: {metric} {scale * b['mean']:.2f}{unit} "
                         f"({scale * b['low']:.2f} to {scale * b['high']:.2f}) after {games:,} "
                         "games; move a value to compare.")
    if d["low"] > 0 or d["high"] < 0:
        way = "raises" if d["low"] > 0 else "lowers"
        return True, f"The edit {way} {metric} by {shown}, after {games:,} paired games."
    if row["rate"] and max(-d["low"], d["high"]) <= precision / 100:
        return True, (f"The edit changes {metric} by less than {precision:g}{unit}: {shown}, "
                      f"after {games:,} paired games.")
    if reached:
        return False, (f"Undecided at ±{precision:g}{unit}: {metric} {shown} after {games:,} "
                       "paired games; the edit's effect cannot be told from zero at this "
                       "precision.")
    tail = " (the games cap is reached: undecided)" if out_of_budget else ""
    return False, f"Undecided so far: {metric} {shown} after {games:,} paired games{tail}."


def _strong_play(spec, rules, seats) -> str:
    """The stored transfer of the strong field to the edited variant, where a seat plays it
    and the variant is not its own (analysis/fitted.py); the page does not measure one."""
    from .fitted import seats_strong, strong_fit

    if not any(seats_strong(getattr(s, "name", s)) for s in seats):
        return ""
    fit = strong_fit(spec.name, rules)
    return "" if fit is None or fit.own else fit.line()


def provenance(resolved: Resolved, games: int, seed: int, precision: float) -> dict:
    return {"game": resolved.spec.name, "variant_a": resolved.a.rules.to_dict(),
            "variant_b": resolved.b.rules.to_dict(), "changes": resolved.changes,
            "levels": resolved.levels, "strategies": list(resolved.a.labels),
            "n_games": games, "seed": int(seed), "rotate_seats": True,
            "common_random_numbers": True, "precision_pp": precision,
            **code_versions(resolved.spec)}


# --- the background loop --------------------------------------------------------------------------

def play_step(resolved: Resolved, sums: Sums, names: list[str], start: int, count: int,
              seed: int, jobs: int, unit: int = 1) -> None:
    """Games start..start+count-1 of the seed on both sides (seats rotated), into the sums."""
    spec = resolved.spec
    values = {}
    for side in (resolved.a, resolved.b):
        part = simulate(spec, side.rules, side.strategies, count, seed, jobs=jobs,
                        backend="threading", progress=False, first_game=start, rotate_seats=True)
        per_game = M.per_game(part.records, spec, side.rules.n_seats)
        values[side.label] = {m: per_game[m] if m in per_game else
                              metric_values(part.records, spec, side, m) for m in names}
    for m in names:
        sums.add(m, values["A"][m], values["B"][m], unit)


def next_step(games: int, seconds: float, unit: int, max_games: int) -> int:
    """Games per side in the next step: FIRST_STEP first, then what STEP_SECONDS of play gives
    at the speed seen so far, at most doubling the games played; on the rotation grid."""
    if games == 0:
        want = FIRST_STEP
    else:
        rate = games / max(seconds, 1e-3)
        want = min(max(rate * STEP_SECONDS, FIRST_STEP), games, MAX_STEP)
    step = unit * max(1, math.ceil(want / unit))
    return max(0, min(step, max_games - games))


class Session:
    """One view played in a background thread until its precision or cap, or :meth:`stop`.

    ``snapshot()`` is the latest :func:`summary` (safe to call from any thread); ``on_step`` (if
    given) is called from the thread with each new snapshot."""

    def __init__(self, view: View, jobs: int = 1, on_step=None):
        self.view, self.jobs, self.on_step = view, jobs, on_step
        self.resolved = resolve(view)          # raises ExploreError before any thread starts
        self.names = metric_list(self.resolved.spec, self.resolved.a)
        self.sums = Sums(target=view.precision / 100)
        self.games, self.seconds = 0, 0.0
        self.error: str | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._snapshot = self._summary()
        self.thread = threading.Thread(target=self._run, daemon=True, name="explore")

    def start(self) -> "Session":
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def snapshot(self) -> dict:
        with self._lock:
            return dict(self._snapshot)

    def _summary(self, finished=False) -> dict:
        out = summary(self.resolved, self.sums, self.games, self.seconds, self.view.precision,
                      self.view.max_games, self.view.seed, finished)
        out["error"] = self.error
        out["running"] = not out["done"] and not self._stop.is_set() and self.error is None
        return out

    def run_until_done(self, deadline: float | None = None) -> dict:
        """Play in this thread (the MCP tools, the benchmark) until done or ``deadline``
        (time.monotonic()); returns the final snapshot."""
        self._run(deadline)
        return self.snapshot()

    def _run(self, deadline: float | None = None) -> None:
        unit = math.lcm(self.resolved.a.rules.n_seats, self.resolved.b.rules.n_seats)
        began = time.perf_counter()
        try:
            while not self._stop.is_set():
                count = next_step(self.games, self.seconds, unit, self.view.max_games)
                if count == 0 or (deadline is not None and time.monotonic() >= deadline):
                    break
                play_step(self.resolved, self.sums, self.names, self.games, count,
                          self.view.seed, self.jobs, unit)
                self.games += count
                self.seconds = time.perf_counter() - began
                snap = self._summary()
                with self._lock:
                    self._snapshot = snap
                if self.on_step is not None:
                    self.on_step(snap)
                if snap["done"]:
                    break
        except BalanceError as error:   # e.g. a strategy the rules refuse mid-run
            self.error = " ".join(str(error).split())
        with self._lock:
            self._snapshot = self._summary(finished=True)


# --- what the view reproduces as: a study file and a command ----------------------------------

def _toml(value) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def study_toml(view: View) -> str:
    """The view as a study file (analysis/study_file.py): the default rules' summary, the edited
    variant's metrics (a one-point sweep, which takes knobs as ``--vary`` does) and the paired
    comparison, at the view's player count, levels and precision."""
    r = resolve(view)
    spec = r.spec
    lines = [f"title = {_toml(f'{spec.title}: ' + (r.b.text if r.changes else 'the default rules'))}",
             f"game = {_toml(spec.name)}"]
    name = player_option(spec)
    if name == "n_players" and view.players is not None:
        lines.append(f"players = {int(view.players)}")
    elif name is not None and view.players is not None:
        lines.append(f"options = {{ {name} = {_toml(str(view.players))} }}")
    lines += [f"strategies = {_toml(list(r.a.strategies))}", f"precision = {view.precision:g}",
              f"seed = {int(view.seed)}", "", "[[section]]", 'kind = "summary"']
    if r.changes:
        options = {k: v for k, v in r.assignment.items() if k not in view.knobs}
        knobs = [f"{k}={v}" for k, v in r.assignment.items() if k in view.knobs]
        lines += ["", "[[section]]", f'kind = "{"sweep" if knobs else "summary"}"']
        if options:
            lines.append("options = { " + ", ".join(f"{k} = {_toml(v)}" for k, v in options.items())
                         + " }")
        if knobs:
            lines.append(f"vary = {_toml(knobs)}")
        lines += ["", "[[section]]", 'kind = "compare"',
                  f"b = {_toml([','.join(f'{k}={v}' for k, v in r.assignment.items())])}",
                  f"metric = {_toml(headline_metric(spec))}",
                  f"delta = {max(view.precision, 0.001):g}"]
    return "\n".join(lines) + "\n"


def check_study(text: str) -> None:
    """Validate a study text with study_file's own check (read, then check), as ``balance study
    --check`` does; raises its StudyFileError."""
    import tempfile
    from pathlib import Path

    from . import study_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "explore.toml"
        path.write_text(text)
        study_file.load(path)


def command_line(view: View) -> str:
    """The `balance compare` command that plays the same paired games to the same question."""
    import shlex

    r = resolve(view)
    parts = ["balance", "compare", r.spec.name]
    name = player_option(r.spec)
    if view.players is not None and name == "n_players":
        parts += ["--players", str(int(view.players))]
    elif view.players is not None and name is not None:
        parts += ["-o", f"{name}={int(view.players)}"]
    for strategy in r.a.strategies:
        parts += ["-s", str(strategy)]
    if r.changes:
        parts += ["--b", ",".join(f"{k}={v}" for k, v in r.assignment.items())]
    parts += ["--metric", headline_metric(r.spec), "--delta", f"{view.precision:g}pp",
              "--seed", str(int(view.seed))]
    return " ".join(shlex.quote(p) for p in parts)


# Inputs a view may not take as options or knobs: each has the view's own field (the copied
# command and study file would otherwise name another experiment than the one played).
RESERVED = {"strategies": "levels", "levels": "levels", "players": "players",
            "n_players": "players"}


def _shown(value, limit: int = 60) -> str:
    """A client's value in a message: its repr, one line, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _check_text(value, field: str, what: str, limit: int = 200) -> str:
    """Text of at most ``limit`` characters (a name, a level: 200; an option's value, which may
    be a path: 4096), with no NUL character."""
    if not isinstance(value, str):
        raise ExploreError(f"{what} must be text, got {_shown(value)}", field)
    if "\x00" in value:
        raise ExploreError(f"{what} may not contain a NUL character", field)
    if len(value) > limit:
        raise ExploreError(f"{what} must be at most {limit:,} characters", field)
    return value


def _field_of(name, default: str) -> str:
    """The field an error about ``name`` names: the name itself where it could be an input's
    (``num_cards``, ``legions[0]``), else ``default`` (an odd name is not echoed as a field)."""
    import re

    plain = isinstance(name, str) and len(name) <= 60 and \
        re.fullmatch(r"[A-Za-z_][\w.\[\]]*", name)
    return name if plain else default


def _is_number(value) -> bool:
    """A finite number, and an integer no bigger than 2^53 (a float holds it exactly)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) <= 2**53 if isinstance(value, int) else math.isfinite(value)


def _check_names(values, field: str, what: str, spec) -> dict:
    """``options`` or ``knobs``: an object of name -> scalar, no name that has its own field."""
    if not isinstance(values, dict):
        raise ExploreError(f"{field} must be an object of name: value, got {_shown(values)}", field)
    options = spec.rules_class.options()
    players = player_option(spec)
    for name, value in values.items():
        _check_text(name, field, f"a name in {field}")
        at = _field_of(name, field)
        own = RESERVED.get(name) or ("players" if name == players else None)
        if own:
            raise ExploreError(f"{name} is not {what}: use the view's own {own!r} field", name)
        if field == "options" and name not in options:
            raise ExploreError(f"{_shown(name)} is not a rule option of {spec.title}; options: "
                               f"{', '.join(n for n in options if n != players)}", at)
        if field == "knobs":
            if not _is_number(value):
                raise ExploreError(f"{name} must be a finite number (up to 2^53), got "
                                   f"{_shown(value)}", at)
        elif isinstance(value, str):
            _check_text(value, at, name, limit=4096)
        elif not (_is_number(value) or isinstance(value, bool)):
            raise ExploreError(f"{name} must be text, a number (up to 2^53) or true/false, got "
                               f"{_shown(value)}", at)
    return dict(values)


def view_from(data: dict, game: str | None = None) -> View:
    """A View from JSON (the page's request, an MCP tool's arguments). Every value is checked
    for its type here, so a wrong one is an ExploreError naming its field, never a TypeError
    later: unknown keys, text with a NUL character, options that are not rule options of the
    game or that have a field of their own (``strategies``, ``levels``, the player count),
    knobs that are not numbers. Ranges and the rules' own checks stay with :func:`resolve`."""
    if not isinstance(data, dict):
        raise ExploreError("the view must be a JSON object", "view")
    known = {f.name for f in dataclasses.fields(View)}
    for key in data:
        if key not in known:
            raise ExploreError(f"unknown key {_shown(key)}; a view has "
                               f"{', '.join(sorted(known))}", _field_of(key, "view"))
    data = {**data, **({"game": game} if game else {})}
    if not isinstance(data.get("game"), str):
        raise ExploreError("name the game", "game")
    _check_text(data["game"], "game", "game")
    try:
        spec = get_game(data["game"])
    except RulesError as error:
        raise ExploreError(str(error), "game") from None
    players = data.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or abs(players) > 10**6):
        raise ExploreError(f"players must be a whole number, got {_shown(players)}", "players")
    levels = data.get("levels")
    if isinstance(levels, list):
        for level in levels:
            _check_text(level, "levels", "a level")
    elif levels is not None:
        _check_text(levels, "levels", "levels (one level, or a list of one per seat)")
    data["options"] = _check_names(data.get("options", {}), "options", "a rule option", spec)
    data["knobs"] = _check_names(data.get("knobs", {}), "knobs", "a knob", spec)
    for key, kind in (("precision", "a number"), ("seed", "an integer"),
                      ("max_games", "an integer")):
        value = data.get(key)
        if key in data and (isinstance(value, bool) or not isinstance(
                value, (int, float) if key == "precision" else int)):
            raise ExploreError(f"{key} must be {kind}, got {_shown(value)}", key)
    if "seed" in data and data["seed"] >= 2**63:
        raise ExploreError(f"seed must be below 2^63, got {_shown(data['seed'])}", "seed")
    return View(**data)
