"""Strategies at the seats of a batch: built-ins by id, user-written ones by function.

Built-in strategies are dispatched inside the kernel by an integer id and tuned by a parameter
array, so the kernel compiles once and is served from Numba's disk cache. A user strategy is a
``numba.njit`` function with the game's strategy signature (see ``strategies/<game>.py``); when
one is seated, the engine compiles a private copy of the game kernel in which the placeholder
``decide_custom`` calls it. That copy is compiled once per process (a few seconds) and is not
cached on disk, because Numba cannot cache code that closes over user functions.
"""
from __future__ import annotations

import types
from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from .errors import StrategyError
from .game import USER_KIND_BASE, GameSpec


@dataclass(frozen=True)
class Strategy:
    """A player at a seat. Either ``builtin`` (an id the kernel knows) or ``fn`` (user code)."""

    name: str
    builtin: int | None = None
    fn: object = None
    params: tuple[float, ...] = ()
    doc: str = field(default="", compare=False)

    def __post_init__(self):
        if (self.builtin is None) == (self.fn is None):
            raise StrategyError(f"strategy {self.name!r} needs exactly one of builtin= or fn=")
        if self.fn is not None and not isinstance(self.fn, CPUDispatcher):
            raise StrategyError(
                f"strategy {self.name!r}: fn must be a numba.njit function, got {type(self.fn).__name__}")

    def with_params(self, *values: float, name: str | None = None) -> "Strategy":
        """The same strategy with other parameters (e.g. for a tuner or a sweep)."""
        return replace(self, params=tuple(float(v) for v in values), name=name or self.name)

    def describe(self) -> str:
        """The name, with the parameters when there are few enough to read."""
        if not self.params:
            return self.name
        if len(self.params) > 6:
            return f"{self.name}({len(self.params)} parameters)"
        return f"{self.name}({', '.join(f'{p:g}' for p in self.params)})"


@dataclass(frozen=True)
class SeatPlan:
    """Strategies resolved to what the kernel takes."""

    labels: tuple[str, ...]
    kinds: np.ndarray          # int64[S]
    params: np.ndarray         # float64[S, P]
    user_fns: tuple = ()

    def controller(self, spec: GameSpec, rotate: bool = False, **test_options) -> np.ndarray:
        """The kernel's decision controller (sim.control), with room for a search when a search
        player is seated; ``test_options`` are new_ctl's tracing and perturbation arguments."""
        from .control import SEARCH_KIND, new_ctl

        searching = self.kinds == SEARCH_KIND
        if not searching.any():
            return new_ctl(rotate=rotate, **test_options)
        budget = int(self.params[searching, 0].max())
        return new_ctl(rotate=rotate, search_nodes=budget + 2, n_actions=spec.n_actions,
                       plan_rows=MAX_DECISIONS, max_asks=MAX_DECISIONS, **test_options)


MAX_DECISIONS = 4096  # decisions of one game a search can replay
SEARCH_NAMES = ("ismcts",)
SEARCH_DEFAULTS = {"budget": 256.0, "c": 0.7, "rollout": "random", "widen": 1.0, "alpha": 0.5,
                   "paired": 1.0}


def resolve_seats(spec: GameSpec, strategies, n_seats: int) -> SeatPlan:
    """Turn a name, a Strategy, or one of those per seat into kernel inputs."""
    if isinstance(strategies, (str, Strategy)):
        strategies = [strategies] * n_seats
    strategies = list(strategies)
    if len(strategies) == 1:
        strategies = strategies * n_seats
    if len(strategies) != n_seats:
        raise StrategyError(
            f"{len(strategies)} strategies given for {n_seats} seats; give one, or one per seat")
    resolved = [lookup(spec, s) for s in strategies]
    user_fns: list = []
    kinds = np.empty(n_seats, np.int64)
    params = np.zeros((n_seats, spec.n_strategy_params), np.float64)
    for seat, strategy in enumerate(resolved):
        if strategy.fn is not None:
            if strategy.fn not in user_fns:
                user_fns.append(strategy.fn)
            kinds[seat] = USER_KIND_BASE + user_fns.index(strategy.fn)
        else:
            kinds[seat] = strategy.builtin
        if len(strategy.params) > spec.n_strategy_params:
            raise StrategyError(
                f"strategy {strategy.name!r} has {len(strategy.params)} parameters; "
                f"{spec.title} allows at most {spec.n_strategy_params}")
        params[seat, :len(strategy.params)] = strategy.params
    labels = tuple(s.name if spec.strategies.get(s.name) == s or s.name.startswith(SEARCH_NAMES)
                   else s.describe() for s in resolved)
    return SeatPlan(labels, kinds, params, tuple(user_fns))


def lookup(spec: GameSpec, strategy) -> Strategy:
    if isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str) and strategy in spec.strategies:
        return spec.strategies[strategy]
    if isinstance(strategy, str) and strategy.split(":", 1)[0] in SEARCH_NAMES:
        return search_player(spec, strategy)
    if isinstance(strategy, CPUDispatcher):
        return Strategy(strategy.py_func.__name__, fn=strategy)
    raise StrategyError(
        f"unknown strategy {strategy!r} for {spec.title}; built-ins: {', '.join(spec.strategies)}; "
        "or pass a Strategy(name, fn=<numba.njit function>)")


def search_player(spec: GameSpec, text: str = "ismcts", **settings) -> Strategy:
    """The search player (sim/search.py: information-set MCTS) as a seat's strategy.

    ``"ismcts:budget=256,c=0.7,rollout=greedy,widen=1,alpha=0.5"``: iterations per decision,
    UCB exploration constant, the built-in strategy that plays the rest of each iteration (for
    every seat), and progressive widening: a node visited n times may have tried
    ceil(widen * (n + 1) ** alpha) of its actions, each new one suggested by the rollout policy
    (widen=0: every action is tried once first, plain UCB)."""
    from .control import SEARCH_KIND

    name, _, rest = text.partition(":")
    values = dict(SEARCH_DEFAULTS)
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or key not in SEARCH_DEFAULTS:
            raise StrategyError(f"search setting {item!r} in {text!r}: use "
                                f"{', '.join(f'{k}=...' for k in SEARCH_DEFAULTS)}")
        values[key] = value
    values.update(settings)
    try:
        budget, c = int(float(values["budget"])), float(values["c"])
        widen, alpha = float(values["widen"]), float(values["alpha"])
        paired = float(values["paired"])
    except ValueError:
        raise StrategyError(f"{text!r}: budget must be an integer; c, widen and alpha numbers") \
            from None
    if not 1 <= budget <= 100_000 or not c >= 0:
        raise StrategyError(f"{text!r}: budget must be 1..100000 and c >= 0")
    if not 0 <= widen <= 1000 or not 0 < alpha <= 1:
        raise StrategyError(f"{text!r}: widen must be 0..1000 (0 = off) and alpha in (0, 1]")
    if paired not in (0, 1):
        raise StrategyError(f"{text!r}: paired must be 1 (root actions share worlds) or 0")
    rollout = spec.strategies.get(str(values["rollout"]))
    if rollout is None or rollout.builtin is None or rollout.builtin == SEARCH_KIND:
        raise StrategyError(f"{text!r}: rollout={values['rollout']!r} is not a built-in "
                            f"{spec.title} strategy; choose one of {', '.join(spec.strategies)}")
    if 8 + len(rollout.params) > spec.n_strategy_params:
        raise StrategyError(f"{spec.title}: no room for the rollout's parameters")
    label = f"ismcts(budget={budget}, c={c:g}, rollout={rollout.name}"
    if (widen, alpha) != (SEARCH_DEFAULTS["widen"], SEARCH_DEFAULTS["alpha"]):
        label += f", widen={widen:g}, alpha={alpha:g}"
    if paired != SEARCH_DEFAULTS["paired"]:
        label += f", paired={paired:g}"
    label += ")"
    params = (float(budget), c, float(rollout.builtin), widen, alpha, paired, 0, 0,
              *rollout.params)
    return Strategy(label, builtin=SEARCH_KIND, params=tuple(params),
                    doc="information-set MCTS: budget iterations per decision")


_compiled: dict[tuple, object] = {}


def kernel_for(spec: GameSpec, user_fns: Sequence) -> object:
    """The game's ``play_chunk``, or a private copy that calls the seated user strategies."""
    if not user_fns:
        return spec.kernel.play_chunk
    key = (spec.name, *map(id, user_fns))
    if key not in _compiled:
        _compiled[key] = _rebind(spec.kernel, {"decide_custom": _chain(list(user_fns))})["play_chunk"]
    return _compiled[key]


def _chain(fns):
    """One jitted dispatcher ``d(k, *args)`` that calls fns[k](*args)."""
    first = fns[0]
    if len(fns) == 1:
        @njit
        def dispatch_one(k, *args):
            return first(*args)
        return dispatch_one
    rest = _chain(fns[1:])

    @njit
    def dispatch(k, *args):
        if k == 0:
            return first(*args)
        return rest(k - 1, *args)
    return dispatch


def _rebind(module: types.ModuleType, replacements: dict) -> dict:
    """Recompile every jitted function of ``module`` against globals with ``replacements``."""
    namespace = dict(vars(module))
    namespace.update(replacements)
    for name, obj in vars(module).items():
        if (isinstance(obj, CPUDispatcher) and name not in replacements
                and obj.py_func.__module__ == module.__name__):
            py = obj.py_func
            clone = types.FunctionType(py.__code__, namespace, name, py.__defaults__, py.__closure__)
            # Keep each function's options (inline, _nrt=False, ...) but not the disk cache.
            # _nrt=False reaches the user's strategy too: it may not allocate arrays, which
            # keeps a user strategy as fast as a built-in (measured 437k vs 230k games/s).
            options = {k: v for k, v in obj.targetoptions.items()
                       if k not in ("cache", "nopython", "nogil")}
            namespace[name] = njit(nogil=True, **options)(clone)
    return namespace
