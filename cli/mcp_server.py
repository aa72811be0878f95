"""`balance mcp`: the toolkit's questions as Model Context Protocol tools, over stdio.

Built on the official ``mcp`` SDK (``MCPServer``, the SDK 2 name of FastMCP). An assistant
asks what a designer would: which games, options, strategies and metrics there are; then
simulate, compare, cards, tune and exploit. Every answer is JSON with its 95% intervals, the
level of play and the provenance (game, variant, strategies, games, seed, version). An answer
that did not reach the requested precision within its budget says ``"status": "undecided"``
and gives no verdict. Long calls report progress (games played, or seconds where the work has
no steps to count). Every error is a tool error whose text is JSON naming the argument it
concerns (or null) and its cause: ``{"error": {"argument": "players", "message": "..."}}``,
also when it was raised in the worker thread.

A client is not trusted: every numeric argument has a range (``RANGES``), checked before any
work; a call reads only its game's shipped files (sim.confine, around every tool); a cancelled
call stops at the work's next look, a second or so (``Progress``, precision.play_pieces); and a
long ``simulate`` keeps running sums, not its games (precision.Folded).

Nothing here names a game: every tool works for every registered game (sim.games).
"""
# No `from __future__ import annotations`: the SDK reads the tools' annotations (Context, the
# argument types) from the functions, and Context is imported where the tools are built.
import argparse
import contextlib
import contextvars
import functools
import inspect
import json
import math
import textwrap
import threading
import time
import traceback
import types
import typing
from pathlib import Path
from typing import Annotated, Any

import anyio

INSTRUCTIONS = """Balance analysis for board games with full rules and honest intervals.
Start with list_games, then list_options / list_metrics for a game. `compare` answers "is my
change better?" on paired games (common random numbers, seats rotated); `simulate` measures one
variant; `cards` says what each card is worth; `tune` searches values that hit a goal; `exploit`
searches a dominant line. Rates are proportions (0.5 = 50%); differences are given in
percentage points (pp) too. An answer with "status": "undecided" did not reach the requested
precision within its budget: say so, do not read a verdict into it. Every numeric argument has
a range (in each tool's input schema); a bad argument is an error naming it."""

LEVEL_HELP = ("level of play: one name for every seat or one per seat, from list_strategies' "
              "levels (random, heuristic, trained, strong where the game has them), or a "
              "built-in strategy name")

# Every numeric argument's range, checked before any work starts, with an error naming the
# argument; the tools' input schemas (minimum, maximum) and descriptions and docs/explore.md's
# MCP section cite this table. "tool.argument" overrides "argument" for that tool. The caps
# keep a call's memory and the wait for a cancel bounded: simulate keeps running sums only, so
# it may play 10^8 games; compare keeps one value per game and side, cards every version's
# per-game table, tune's verification its table when a goal reads a declared metric.
# argument: (JSON type, lowest, highest, what the bounds mean where it is not plain)
RANGES: dict[str, tuple[str, int | float, int | float, str]] = {
    "players": ("integer", 1, 64, "then one of the game's player counts: list_options"),
    "seed": ("integer", 0, 2 ** 63 - 1, ""),
    "exploit.seed": ("integer", 0, 2 ** 32 - 1, "CMA-ES seeds a 32-bit generator"),
    "precision_pp": ("number", 0.05, 50, "percentage points of a 95% half-width"),
    "delta_pp": ("number", 0.05, 100, "percentage points for a rate, else the metric's units"),
    "simulate.max_games": ("integer", 1_000, 10 ** 8, "one step plays 1,000 games"),
    "compare.max_games": ("integer", 2, 10 ** 6, "per side; at least one game per seat"),
    "cards.max_games": ("integer", 1_000, 100_000, "per version; one step plays 1,000 games"),
    "tune.max_games": ("integer", 1_000, 10 ** 6, "the verification's; one step plays 1,000"),
    "trials": ("integer", 1, 500, ""),
    "search_games": ("integer", 1_000, 100_000, "the most games a search trial plays"),
    "tolerance": ("number", 0.001, 0.5, "a rate's distance from its goal (0.02 = 2 pp)"),
    "generations": ("integer", 1, 200, ""),
    "games": ("integer", 10, 100_000, "games per table and candidate"),
    "check_games": ("integer", 100, 200_000, "games of the final measure"),
}

# The argument a toolkit error raised without one (inside the worker thread) most likely
# concerns, per tool; None: none in particular.
LIKELY = {"list_games": None, "list_options": "game", "list_strategies": "game",
          "list_metrics": "game", "simulate": "levels", "compare": "b", "cards": "level",
          "tune": "goals", "exploit": "game"}

# Seconds of play between two looks at a cancel (analysis.workbench.precision.play_pieces).
STEP_SECONDS = 0.5


def _range(tool: str, name: str):
    return RANGES.get(f"{tool}.{name}", RANGES.get(name))


def _span(kind: str, low, high) -> str:
    def show(x):
        if kind == "integer" and x >= 2 ** 31:
            return f"2^{round(math.log2(x + 1))}-1" if x + 1 == 2 ** round(math.log2(x + 1)) \
                else f"{x:,}"
        return f"{x:,}" if kind == "integer" else f"{x:g}"
    return f"{'an integer' if kind == 'integer' else 'a number'} from {show(low)} to {show(high)}"


def ranges_text(tool: str, names) -> str:
    """The ranges of a tool's numeric arguments, as its description cites them."""
    parts = []
    for name in names:
        if _range(tool, name) is not None:
            kind, low, high, note = _range(tool, name)
            parts.append(f"{name}: {_span(kind, low, high)[3 if kind == 'integer' else 2:]}"
                         + (f" ({note})" if note else ""))
    return "; ".join(parts)


class ArgumentError(Exception):
    """A bad argument: ``argument`` names it."""

    def __init__(self, argument: str | None, message: str):
        super().__init__(message)
        self.argument = argument


# The arguments of the tool being called (set by the tool wrapper): an error's ``field`` is
# reported as the argument only when it is one of them.
_ARGUMENTS: contextvars.ContextVar[tuple] = contextvars.ContextVar("mcp_tool_arguments",
                                                                  default=())


def _one_line(text) -> str:
    return " ".join(str(text).split())


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _as_argument_error(error, fallback: str | None) -> ArgumentError:
    """A toolkit error (BalanceError) as an ArgumentError: its ``field`` where that is one of
    the tool's arguments, else ``fallback``."""
    field = getattr(error, "field", None)
    return ArgumentError(field if field in _ARGUMENTS.get() else fallback, _one_line(error))


@contextlib.contextmanager
def blame(argument: str):
    """Turn the toolkit's one-line errors raised inside into an ArgumentError on ``argument``
    (or on the argument the error's ``field`` names)."""
    from sim.errors import BalanceError

    try:
        yield
    except ArgumentError:
        raise
    except BalanceError as error:
        raise _as_argument_error(error, argument) from None


# --- argument types and ranges, checked before any work -------------------------------------

def _type_ok(annotation, value) -> bool:
    """Whether ``value`` (as JSON gave it) is of the declared type: a bool is no number, a NaN
    or an infinity no number either, a string no list."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(a, value) for a in typing.get_args(annotation))
    if annotation is Any:
        return True
    if annotation is type(None):
        return value is None
    if annotation is str:
        return isinstance(value, str)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value)
    if origin is list:
        (item,) = typing.get_args(annotation)
        return isinstance(value, list) and all(_type_ok(item, v) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    return False


def _type_words(annotation) -> str:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_words(a) for a in typing.get_args(annotation))
    if origin is list:
        return f"a list of {_type_words(typing.get_args(annotation)[0]).split(' ', 1)[1]}s"
    return {str: "a string", int: "an integer", float: "a finite number",
            type(None): "null"}.get(annotation, "an object" if origin is dict else "a value")


def check_argument(tool: str, name: str, annotation, value) -> None:
    """Refuse ``value`` for ``name`` unless it has the declared type and lies in its range."""
    if not _type_ok(annotation, value):
        raise ArgumentError(name, f"{name} must be {_type_words(annotation)}, got {_shown(value)}")
    bounds = _range(tool, name)
    if bounds is None or value is None:
        return
    kind, low, high, note = bounds
    if kind == "integer" and not (isinstance(value, int) and not isinstance(value, bool)):
        raise ArgumentError(name, f"{name} must be an integer, got {_shown(value)}")
    if not low <= value <= high:
        raise ArgumentError(name, f"{name} must be {_span(kind, low, high)}"
                            + (f" ({note})" if note else "") + f", got {_shown(value)}")


def _check_changes(name: str, changes) -> None:
    """Option or tunable changes (``options``, ``a``, ``b``): names to a string, a finite
    number, a bool or a list of strings and numbers."""
    def plain(v):
        return isinstance(v, (str, bool)) or (isinstance(v, (int, float))
                                              and math.isfinite(v))
    for key, value in (changes or {}).items():
        if not (plain(value) or (isinstance(value, list) and value
                                 and all(plain(v) and not isinstance(v, bool) for v in value))):
            raise ArgumentError(name, f"{name}: {key} must be a string, a finite number or a "
                                f"list of them, got {_shown(value)}")


def _schema(tool: str, name: str, annotation) -> dict:
    """The input schema of one argument: its declared type, its range from RANGES."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(annotation).json_schema()
    bounds = _range(tool, name)
    if bounds is not None:
        kind, low, high, note = bounds
        if "anyOf" in schema:   # integer | null
            schema = {"type": [kind, "null"]}
        else:
            schema = {"type": kind}
        schema.update(minimum=low, maximum=high,
                      description=_span(kind, low, high) + (f" ({note})" if note else ""))
    schema["title"] = name.replace("_", " ").title()
    return schema


def _spec(game):
    from sim.games import get_game

    if not isinstance(game, str):
        raise ArgumentError("game", f"game must be a game's name, got {game!r}")
    with blame("game"):
        return get_game(game)


def _rules(spec, players, options):
    from analysis.explore import base_rules
    from analysis.workbench import specs

    with blame("players"):
        rules = base_rules(spec, players)
    if options:
        _check_changes("options", options)
        with blame("options"):
            specs.check_names(spec, rules, list(options))
            rules, _ = specs.point(spec, rules, "random", {k: _plain(v) for k, v in options.items()})
            rules.kernel_args()
    return rules


def _plain(value):
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def _seats(spec, rules, levels):
    """(level names, strategies) from a level per seat or one for every seat; a name that is no
    level but a built-in strategy seats that strategy."""
    from analysis.explore import levels_of
    from sim.strategy import resolve_seats

    known = levels_of(spec, rules)
    n = rules.n_seats
    chosen = [levels] * n if isinstance(levels, str) else list(levels or ["random"])
    if len(chosen) == 1:
        chosen = chosen * n
    if len(chosen) != n:
        raise ArgumentError("levels", f"give one level for every seat or one per seat ({n}), "
                            f"got {len(chosen)}")
    # Levels and built-in names only: a strategy file (FILE.py:FUNCTION) would let a client
    # make the server import code from disk, which the command line may do but a tool may not.
    allowed = [*known, *(name for name in spec.strategies if name not in known)]
    for level in chosen:
        if level not in allowed:
            raise ArgumentError("levels", f"unknown level {level!r}; {spec.title} at {n} players "
                                f"has the levels {', '.join(known)} and the strategies "
                                f"{', '.join(spec.strategies)}")
    seats = [known.get(level, level) for level in chosen]
    with blame("levels"):
        labels = resolve_seats(spec, seats, n).labels
    return chosen, seats, list(labels)


def _interval(estimate, low, high, rate: bool = True) -> dict:
    out = {"estimate": _num(estimate), "ci_low": _num(low), "ci_high": _num(high),
           "confidence": 0.95}
    if rate and out["ci_low"] is not None:
        out["half_width_pp"] = 100 * (out["ci_high"] - out["ci_low"]) / 2
    return out


def _num(value):
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def _provenance(spec, rules, labels, games, seed, **extra) -> dict:
    from sim import __version__

    return {"game": spec.name, "variant": rules.to_dict(), "strategies": labels,
            "n_games": int(games), "seed": int(seed), "version": __version__, **extra}


def _strong_play(spec, rules, levels) -> dict | None:
    """Where a level seats the strong field: which field, whether it was fitted to this
    variant, and its transfer where measured (analysis/fitted.py). A tool call does not
    measure one (its work stays bounded): the ``strong_transfer`` tool or `balance field
    --transfer` does, once per variant."""
    from analysis.explore import levels_of
    from analysis.fitted import seats_strong, strong_fit

    known = levels_of(spec, rules)
    if not any(seats_strong(known.get(level, level)) for level in levels):
        return None
    fit = strong_fit(spec.name, rules)
    if fit is None:
        return None
    return {"field": Path(fit.field).name, "fitted_to_this_variant": fit.own,
            "fitted_to": fit.fitted_to, "transfer": fit.transfer, "line": fit.line()}


def _roots(game) -> list:
    """The folders a call about ``game`` may read (sim.confine): the game's shipped data and
    policies; every game's for a call that names none; nothing for a name that is no game."""
    from sim import confine
    from sim.games import game_names, get_game

    names = game_names() if game is None else [game] if game in game_names() else []
    roots = []
    for name in names:
        with contextlib.suppress(Exception):
            roots += confine.game_folders(get_game(name))
    return roots


class Cancelled(Exception):
    """The client went away (or cancelled the call): the worker stops at its next step."""


class Progress:
    """Progress of a blocking call run in a worker thread: the call reports (done, total)
    through :meth:`step`; otherwise the elapsed seconds are reported, so a client sees that a
    long call is alive. A cancelled call makes the next :meth:`step` raise and :meth:`stopped`
    answer True: every tool's work asks one of them between its batches (simulate and compare
    through ``on_step``, cards, tune and exploit through ``should_stop``) and ends there."""

    def __init__(self):
        self.done, self.total, self.began = 0.0, None, time.monotonic()
        self.lock = threading.Lock()
        self.cancelled = threading.Event()

    def step(self, done, total) -> None:
        if self.cancelled.is_set():
            raise Cancelled("the client cancelled the call")
        with self.lock:
            self.done, self.total = float(done), float(total)

    def stopped(self) -> bool:
        return self.cancelled.is_set()

    def read(self):
        with self.lock:
            if self.total is None:
                return time.monotonic() - self.began, None, "seconds elapsed"
            return self.done, self.total, f"{int(self.done):,} games"


async def _run(ctx, work, progress: Progress, every: float = 1.0):
    """Run ``work()`` in a thread, reporting progress every ``every`` seconds until it ends.

    A cancel of the calling task (the client cancelled or went away) tells the worker through
    ``progress``; the cancel completes when the worker has stopped at its next look. An
    exception of the worker is raised here as itself (not inside an exception group), so the
    tool's error says what it was."""
    from analysis.workbench.precision import Stopped

    result: dict = {}

    async def call():
        try:
            result["value"] = await anyio.to_thread.run_sync(work)
        except (Cancelled, Stopped) as stop:   # stopped because the call was cancelled:
            traceback.clear_frames(stop.__traceback__)   # let go of what the work held
        except Exception as error:
            result["error"] = error
        finally:
            result["done"] = True

    async with anyio.create_task_group() as group:
        group.start_soon(call)
        try:
            while "done" not in result:
                with anyio.move_on_after(every):
                    while "done" not in result:
                        await anyio.sleep(0.05)
                if "done" not in result:
                    await _report(ctx, progress)
        except BaseException:   # cancelled (the client closed): tell the worker thread
            progress.cancelled.set()
            raise
    if "error" in result:
        raise result.pop("error")
    await _report(ctx, progress)   # the last word: what was done, also for a short call
    return result["value"]


async def _report(ctx, progress: Progress) -> None:
    """One progress notification; best effort (a call made outside a client's request, e.g.
    ``MCPServer.call_tool`` in a test, has nobody to tell)."""
    if ctx is None:
        return
    done, total, message = progress.read()
    with contextlib.suppress(Exception):
        await ctx.report_progress(done, total, message)


def build_server():
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("balance-toolkit", instructions=INSTRUCTIONS)

    def tool(fn):
        """Register ``fn`` as a tool. Before its body runs, every argument is checked against
        its declared type and RANGES (an error names it); the whole body, its worker thread
        included (a context variable), reads only the game's shipped files (sim.confine); every
        error becomes a tool error whose text is {"error": {"argument", "message"}}: a toolkit
        error on its ``field`` or the tool's likely argument, anything else an internal error
        with its type and message."""
        from pydantic import WithJsonSchema

        from sim import confine
        from sim.errors import BalanceError

        name = fn.__name__
        signature = inspect.signature(fn)
        declared = {p.name: p.annotation for p in signature.parameters.values()
                    if p.annotation is not Context}
        # The schema tells a client each argument's type and range; the values reach the body
        # as JSON gave them (Any), so that check_argument, not a silent conversion, judges them
        parameters = [p if p.annotation is Context else p.replace(annotation=Annotated[
            Any, WithJsonSchema(_schema(name, p.name, p.annotation))])
            for p in signature.parameters.values()]

        def failure(argument, message) -> ToolError:
            return ToolError(json.dumps({"error": {"argument": argument, "message": message}}))

        @functools.wraps(fn)
        async def wrapper(**kwargs):
            token = _ARGUMENTS.set(tuple(declared))
            try:
                for argument, annotation in declared.items():
                    if argument in kwargs:
                        check_argument(name, argument, annotation, kwargs[argument])
                with confine.confined(*_roots(kwargs.get("game"))):
                    return await fn(**kwargs)
            except ArgumentError as error:
                raise failure(error.argument, _one_line(error)) from None
            except BalanceError as error:
                error = _as_argument_error(error, LIKELY.get(name))
                raise failure(error.argument, str(error)) from None
            except Exception as error:   # a bug: say what it was, not only that it failed
                raise failure(None, f"internal error: {type(error).__name__}: "
                              f"{_one_line(error)[:500]}") from None
            finally:
                _ARGUMENTS.reset(token)

        wrapper.__signature__ = signature.replace(parameters=parameters)
        wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
        ranges = ranges_text(name, declared)
        wrapper.__doc__ = inspect.cleandoc(fn.__doc__ or "") + (
            f"\n\nRanges, checked before any work (docs/explore.md): {ranges}." if ranges else "")
        server.tool(structured_output=False)(wrapper)
        return wrapper

    def answer(data: dict) -> str:
        return json.dumps(data, indent=1, default=str)

    @tool
    async def list_games() -> str:
        """Every registered game: name, title and player count of its default rules."""
        from analysis.explore import player_option
        from sim.games import game_names, get_game

        games = []
        for name in game_names():
            spec = get_game(name)
            games.append({"name": name, "title": spec.title,
                          "default_players": spec.rules_class().n_seats,
                          "player_option": player_option(spec)})
        return answer({"games": games})

    @tool
    async def list_options(game: str, players: int | None = None) -> str:
        """A game's rule options with their labels, rule ids and defaults, the tunable values
        (knobs) with their bounds at this player count, and the data-file options."""
        from analysis.explore import form

        spec = _spec(game)
        with blame("players"):
            described = form(spec.name, players)
        for option in described["options"]:
            option.pop("grid", None)   # the shipped tables are long; list_options names them
        return answer({k: described[k] for k in ("game", "title", "players", "player_option",
                                                 "options")})

    @tool
    async def list_strategies(game: str, players: int | None = None) -> str:
        """A game's built-in strategies and its levels of play (what `levels` takes)."""
        from analysis.explore import base_rules, levels_of

        spec = _spec(game)
        with blame("players"):
            rules = base_rules(spec, players)
        return answer({"game": spec.name, "strategies": {name: s.doc for name, s in
                                                         spec.strategies.items()},
                       "levels": {k: v if isinstance(v, str) else list(v)
                                  for k, v in levels_of(spec, rules).items()}})

    @tool
    async def list_metrics(game: str, players: int | None = None) -> str:
        """The metrics a game's answers carry at a player count (seat win rates, first-seat
        advantage, decided share, the game's headline ends and length, and the metrics its
        study declares), and the headline metric verdicts are about."""
        from analysis.explore import base_rules, headline_metric
        from analysis.study_file import metric_names

        spec = _spec(game)
        with blame("players"):
            rules = base_rules(spec, players)
        return answer({"game": spec.name, "players": rules.n_seats,
                       "metrics": metric_names(spec, rules.n_seats),
                       "headline": headline_metric(spec)})

    @tool
    async def simulate(game: str, ctx: Context, players: int | None = None,
                       options: dict[str, Any] | None = None, levels: str | list[str] = "random",
                       precision_pp: float = 1.0, max_games: int = 200_000, seed: int = 0) -> str:
        """Play one variant (seats rotated) until every rate's 95% interval is within
        precision_pp percentage points, or max_games; every metric with its interval. Keeps
        running sums only (no per-game table), so a long call holds little memory."""
        from analysis.workbench.precision import measured, simulate_precise

        spec = _spec(game)
        rules = _rules(spec, players, options)
        chosen, seats, labels = _seats(spec, rules, levels)
        progress = Progress()
        results = await _run(ctx, lambda: simulate_precise(
            spec, rules, seats, precision_pp, seed, max_games=max_games, rotate_seats=True,
            backend="threading", on_step=progress.step, should_stop=progress.stopped,
            step_seconds=STEP_SECONDS, keep_records=False), progress)
        row = measured(results, spec, rules.n_seats)
        p = results.provenance
        met = bool(p["precision_met"])
        metrics = {name: _interval(row[name], row[f"{name}_low"], row[f"{name}_high"],
                                   not name.endswith("_mean"))
                   for name in row if f"{name}_low" in row}
        return answer({"status": "decided" if met else "undecided",
                       "why": None if met else f"precision {precision_pp:g} pp not reached "
                       f"within max_games={max_games:,}",
                       "metrics": metrics, "levels": chosen,
                       "strong_play": _strong_play(spec, rules, chosen),
                       "provenance": _provenance(spec, rules, labels, p["n_games"], seed,
                                                 rotate_seats=True, precision_pp=precision_pp,
                                                 steps=p["steps"])})

    @tool
    async def compare(game: str, ctx: Context, b: dict[str, Any],
                      a: dict[str, Any] | None = None, players: int | None = None,
                      levels: str | list[str] = "random", metric: str | None = None,
                      delta_pp: float = 1.0, max_games: int = 200_000, seed: int = 0) -> str:
        """Is variant B different from A? Both play the same games (common random numbers,
        seats rotated) until a sequential test decides that B differs by delta_pp or does not,
        or max_games per side (then "undecided"). `a` and `b` are option or tunable changes,
        e.g. {"num_cards": 8} or {"legions[3]": 12}; `a` defaults to the default rules. A
        "strategies" change names levels' strategies or built-ins; one naming a file is
        refused."""
        from analysis.explore import headline_metric
        from analysis.workbench import compare as run_compare
        from analysis.workbench.compare import (DEFAULT_BATCH, _check_sizes, check_levels,
                                                check_metric, check_rate_delta, is_rate,
                                                make_side)

        spec = _spec(game)
        base = _rules(spec, players, None)
        chosen, seats, labels = _seats(spec, base, levels)
        if not isinstance(b, dict) or not b:
            raise ArgumentError("b", "b must name at least one change, e.g. {\"charges\": 3}")
        _check_changes("a", a)
        _check_changes("b", b)
        sides = {}
        for label, changes in (("a", a or {}), ("b", b)):
            with blame(label):
                sides[label] = make_side(spec, base, seats, label.upper(),
                                           {k: _plain(v) for k, v in changes.items()})
        metric = metric or headline_metric(spec)
        with blame("metric"):
            check_metric(spec, metric, list(sides.values()))
        with blame("delta_pp"):
            check_levels(delta_pp, 0.05, 0.9, "two-sided")
            if is_rate(metric):
                check_rate_delta(delta_pp)
        with blame("max_games"):
            unit = math.lcm(sides["a"].rules.n_seats, sides["b"].rules.n_seats)
            batch = max(2, min(DEFAULT_BATCH, max_games))   # a small budget is one step
            _check_sizes(batch, max_games, unit)
        progress = Progress()
        result = await _run(ctx, lambda: run_compare(
            spec, {k: _plain(v) for k, v in (a or {}).items()},
            {k: _plain(v) for k, v in b.items()}, rules=base, strategies=seats,
            metric=metric, delta=delta_pp, seed=seed, batch=batch, max_games=max_games, jobs=1,
            on_step=progress.step, should_stop=progress.stopped), progress)
        row = result.row
        rate = is_rate(metric)
        decided = row["decision"] != "undecided"
        return answer({
            "status": "decided" if decided else "undecided",
            "decision": row["decision"], "verdict": row["verdict"] if decided else None,
            "metric": metric, "games_per_side": row["games"],
            "a": {"mean": _num(row["mean_a"]), "variant": row["a"]},
            "b": {"mean": _num(row["mean_b"]), "variant": row["b"]},
            "difference_b_minus_a": _interval(row["diff"], row["ci_low"], row["ci_high"], rate),
            "paired_correlation": _num(row["corr"]),
            "saving_vs_fixed_size_test": _num(row["saving"]),   # 1 - games / fixed-size games
            "levels": chosen,
            "strong_play": {side.label: _strong_play(spec, side.rules, chosen)
                            for side in sides.values()},
            # every step's batch provenance is in `balance compare`'s files; an answer keeps
            # what identifies the games
            "provenance": {k: v for k, v in result.table.attrs["provenance"].items()
                           if k != "batches"} | {"strategies": labels}})

    @tool
    async def cards(game: str, ctx: Context, players: int | None = None,
                    options: dict[str, Any] | None = None, level: str | None = None,
                    precision_pp: float = 2.0, max_games: int = 50_000, seed: int = 0) -> str:
        """What each card the game's study declares is worth: remove, neutralise or shift it,
        play the changed game on the same games, and give the change in its owner's win rate
        with a paired 95% interval and a Benjamini-Hochberg q; each effect grows to
        precision_pp or max_games (then that row is "undecided"). A row whose paired
        differences are all equal (the change altered no game) says "identical games", one on
        too few games "too few games": neither has an interval nor a verdict."""
        from analysis import interventions as I
        from analysis.evidence import unmeasured

        spec = _spec(game)
        rules = _rules(spec, players, options)
        known = I.levels(spec, rules)
        if level is not None and level not in known:
            raise ArgumentError("level", f"unknown level {level!r}; {spec.title} has "
                                f"{', '.join(known)}")
        level = level or list(known)[-1]     # the strongest level: where a verdict is read
        with blame("game"):
            I.declared_cards(spec, rules)
        progress = Progress()
        table = await _run(ctx, lambda: I.interventions(
            spec, rules, level, precision=precision_pp, max_games=max_games, seed=seed,
            should_stop=progress.stopped), progress)
        rows = []
        for row in table.itertuples():
            if row.status != "ok":
                rows.append({"card": row.card, "intervention": row.intervention,
                             "status": "not played", "why": row.status})
                continue
            why = unmeasured(row.n, row.ci_low, row.ci_high)
            if why is not None:   # too few games, or no spread (identical games): no interval
                rows.append({"card": row.card, "intervention": row.intervention,
                             "status": why, "effect": _interval(row.effect, None, None),
                             "q": None, "significant": False, "games": int(row.n)})
                continue
            half = 100 * (row.ci_high - row.ci_low) / 2
            rows.append({"card": row.card, "intervention": row.intervention,
                         "status": "decided" if half <= precision_pp + 1e-9 else "undecided",
                         "effect": _interval(row.effect, row.ci_low, row.ci_high),
                         "q": _num(row.q), "significant": bool(row.significant),
                         "games": int(row.n)})
        p = table.attrs["provenance"]
        return answer({"level": level, "strategies": known[level], "cards": rows,
                       "strong_play": _strong_play(spec, rules, [level]),
                       "provenance": _provenance(spec, rules, p.get("strategies", {}),
                                                 p.get("games_played", 0), seed,
                                                 precision_pp=precision_pp, fdr=p.get("fdr"))})

    @tool
    async def tune(game: str, ctx: Context, goals: list[str], vary: list[str],
                   players: int | None = None, options: dict[str, Any] | None = None,
                   levels: str | list[str] = "random", trials: int = 30,
                   search_games: int = 4_000, tolerance: float = 0.02,
                   precision_pp: float = 1.0, max_games: int = 200_000, seed: int = 0) -> str:
        """Search values of the `vary` tunables (e.g. ["charges", "legion_offset=-3..3"]) that
        meet the goals (e.g. ["victory=0.4", "first_seat_advantage<=0.02"]), then verify the
        best on a fresh seed to precision_pp; "undecided" where the verification's interval
        did not reach the precision within max_games."""
        from analysis.workbench import tune as run_tune

        spec = _spec(game)
        rules = _rules(spec, players, options)
        chosen, seats, labels = _seats(spec, rules, levels)
        for name, value in (("goals", goals), ("vary", vary)):
            if not isinstance(value, list) or not value or \
                    not all(isinstance(v, str) for v in value):
                raise ArgumentError(name, f"{name} must be a non-empty list of strings")
        with blame("vary"):
            from analysis.workbench import specs
            specs.parse_ranges(vary, rules)
        progress = Progress()
        with blame("goals"):
            result = await _run(ctx, lambda: run_tune(
                spec, goals, vary, rules=rules, strategies=seats, seed=seed, trials=trials,
                search_games=search_games, tolerance=tolerance, precision=precision_pp,
                max_games=max_games, should_stop=progress.stopped), progress)
        verified = []
        for row in result.verified.to_dict("records"):
            half = 100 * (row["ci_high"] - row["ci_low"]) / 2
            ok = half <= precision_pp + 1e-9
            verified.append({"goal": f"{row['metric']}{row['op']}{row['target']:g}",
                             "verified": _interval(row["verified"], row["ci_low"], row["ci_high"]),
                             "status": ("hit" if row["within_tolerance"] else "missed")
                             if ok else "undecided"})
        values = [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                  for r in result.values.to_dict("records")]
        return answer({"status": "undecided" if any(v["status"] == "undecided" for v in verified)
                       else ("hit" if result.hit else "missed"),
                       "values": values, "verified": verified, "flags": result.flags,
                       "levels": chosen,
                       "provenance": {k: v for k, v in
                                      result.verified.attrs.get("provenance", {}).items()
                                      if k != "batches"} | {"strategies": labels}})

    @tool
    async def exploit(game: str, ctx: Context, players: int | None = None,
                      options: dict[str, Any] | None = None, field: str = "heuristic",
                      generations: int = 10, games: int = 200, check_games: int = 4_000,
                      seed: int = 0) -> str:
        """Train one seat (CMA-ES over the game's features) against `field` at every other seat
        (a level or strategy name), then measure its share of decided games on fresh seeds: a
        dominant line when the interval's lower end is clearly above the fair share; "undecided"
        when the interval straddles that margin."""
        from analysis.explore import levels_of
        from analysis.training import DOMINANCE_MARGIN
        from analysis.training import exploit as run_exploit

        spec = _spec(game)
        rules = _rules(spec, players, options)
        known = levels_of(spec, rules)
        if field not in known and field not in spec.strategies:
            raise ArgumentError("field", f"unknown field {field!r}; use a level "
                                f"({', '.join(known)}) or a built-in strategy "
                                f"({', '.join(spec.strategies)})")
        opponent = known.get(field, field)
        with blame("field"):
            from sim.strategy import resolve_seats
            resolve_seats(spec, opponent, rules.n_seats)
        progress = Progress()
        with blame("game"):
            report = await _run(ctx, lambda: run_exploit(
                spec.name, rules, field=opponent, generations=generations, games=games,
                seed=seed, check_games=check_games, progress=False,
                should_stop=progress.stopped), progress)
        m = report.measured
        bar = m["fair"] + DOMINANCE_MARGIN
        if m.get("decided", 0) == 0 or m["low"] is None or math.isnan(m["low"]):
            status = "undecided"
        elif m["low"] >= bar:
            status = "dominant"
        elif m["high"] < bar:
            status = "no dominant line found"
        else:
            status = "undecided"
        return answer({"status": status, "verdict": report.line if status != "undecided" else None,
                       "exploiter_share": _interval(m["share"], m["low"], m["high"]),
                       "fair_share": m["fair"], "dominance_margin": DOMINANCE_MARGIN,
                       "level": field,
                       "provenance": _provenance(spec, rules, [f"exploiter vs {opponent}"],
                                                 m.get("games", check_games), seed,
                                                 generations=generations, games_per_table=games)})

    return server


def add_commands(commands) -> None:
    parser = commands.add_parser(
        "mcp", help="serve the toolkit to AI assistants (Model Context Protocol, stdio)",
        description=textwrap.fill("Run a Model Context Protocol server on stdin/stdout for an assistant "
        "(Claude Desktop, an IDE...). Tools: list_games, list_options, list_strategies, "
        "list_metrics, simulate, compare, cards, tune, exploit; every answer is JSON with 95% "
        "intervals, the level of play and the provenance, and 'undecided' where the precision "
        "was not reached within the budget. docs/explore.md shows a session and the client "
        "configuration."),
        epilog='client configuration:\n  {"mcpServers": {"balance": {"command": "balance", '
               '"args": ["mcp"]}}}', formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(run=run_mcp)


def run_mcp(args) -> int:
    build_server().run("stdio")
    return 0
