"""Strategies at the seats of a batch: built-ins by id, user-written ones by address.

Every game's strategies share one signature (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action

Built-in strategies are dispatched inside the kernel by an integer id and tuned by a parameter
array, so the kernel compiles once and is served from Numba's disk cache. The engine answers
``random`` and scripted seats itself, for every game. A user strategy is a ``numba.njit``
function with the signature above; the engine compiles a small C-callable wrapper of it and hands
the kernel its address (sim/core/userfn.py), so the game kernel itself stays cached and a user
strategy costs only its own compile. A Python agent, any callable ``agent(obs, legal) -> action``
(optionally also taking ``decision``, ``seat`` or ``rng`` by name), sits at the table through a
ctypes callback of the same C signature (sim/agents.py): slower, the same determinism.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

import numpy as np
from numba.core.registry import CPUDispatcher

from .core import mixture
from .core.header import new_ctl
from . import confine, field as fields, trained
from .core.state import MIXTURE, RANDOM, SCRIPT, SEARCH_KIND, TRAINED, USER_KIND, Batch
from .errors import StrategyError
from .game import GameSpec


@dataclass(frozen=True)
class Strategy:
    """A player at a seat: ``builtin`` (an id the kernel knows), ``fn`` (a user's numba.njit
    strategy) or ``agent`` (a Python callable ``agent(obs, legal) -> action``; sim/agents.py)."""

    name: str
    builtin: int | None = None
    fn: object = None
    params: tuple[float, ...] = ()
    doc: str = field(default="", compare=False)
    agent: object = None
    # the file it was read from (a policy file): a run folder records that file's contents
    source: str | None = field(default=None, compare=False)

    def __post_init__(self):
        if sum(x is not None for x in (self.builtin, self.fn, self.agent)) != 1:
            raise StrategyError(f"strategy {self.name!r} needs exactly one of builtin=, fn= or agent=")
        if self.fn is not None and not isinstance(self.fn, CPUDispatcher):
            raise StrategyError(
                f"strategy {self.name!r}: fn must be a numba.njit function, got {type(self.fn).__name__}")
        if self.agent is not None and (not callable(self.agent) or isinstance(self.agent, CPUDispatcher)):
            raise StrategyError(f"strategy {self.name!r}: agent must be a Python callable "
                                f"agent(obs, legal) -> action, got {type(self.agent).__name__}")

    def with_params(self, *values: float, name: str | None = None) -> "Strategy":
        """The same strategy with other parameters (e.g. for a tuner or a sweep)."""
        return replace(self, params=tuple(float(v) for v in values), name=name or self.name)

    def describe(self) -> str:
        """The name, with the parameters when there are few enough to read."""
        if self.builtin == SCRIPT:
            return f"{self.name}({int(self.params[0])} decisions)"
        if not self.params:
            return self.name
        if len(self.params) > 6:
            return f"{self.name}({len(self.params)} parameters)"
        return f"{self.name}({', '.join(f'{p:g}' for p in self.params)})"


ONE_KERNEL_ENV = "BALANCE_ONE_KERNEL"  # set by sim.runner.one_kernel (inherited by workers)


@dataclass(frozen=True)
class SeatPlan:
    """Strategies resolved to what the kernel takes."""

    labels: tuple[str, ...]
    kinds: np.ndarray          # int64[S]
    params: np.ndarray         # float64[S, P]
    user_fns: tuple = ()       # per user kind: a numba.njit strategy, or a Strategy with an agent
    sources: tuple = ()        # the files the seats were read from (Strategy.source)
    # True: play on the one kernel that has every path compiled in (the trained policy's
    # features and an idle controller), whatever the seats; the records are the same, and a
    # job that seats search, trained and plain players (a report) compiles one kernel per game,
    # not three (sim.runner.one_kernel)
    one_kernel: bool = field(default_factory=lambda: os.environ.get(ONE_KERNEL_ENV) == "1")

    def without_agents(self) -> "SeatPlan":
        """The same seats with the random player in the Python agents' places."""
        agents = [USER_KIND + k for k, fn in enumerate(self.user_fns) if isinstance(fn, Strategy)]
        if not agents:
            return self
        return replace(self, kinds=np.where(np.isin(self.kinds, agents), RANDOM, self.kinds))

    @property
    def searching(self) -> bool:
        return bool((self.kinds == SEARCH_KIND).any())

    def controller(self, spec: GameSpec, **test_options) -> np.ndarray | None:
        """The kernel's decision controller (sim/core/control.py): None (the plain path) unless
        a search player is seated or a test traces, perturbs or redeals (``test_options``)."""
        if not self.searching:
            return new_ctl(**test_options) if test_options or self.one_kernel else None
        budget = int(self.params[self.kinds == SEARCH_KIND, 0].max())
        return new_ctl(search_nodes=budget + 2, n_actions=spec.n_actions,
                       plan_rows=MAX_DECISIONS, max_asks=MAX_DECISIONS, **test_options)

    def batch(self, spec: GameSpec, key, first_game: int, rotate: bool = False) -> Batch:
        """What the kernel gets besides its rules and output (sim.core.state.Batch); user
        strategies are compiled here, in the process that plays."""
        from .agents import as_answer, callback_address
        from .core.userfn import address_of

        users = np.zeros(len(self.user_fns), np.int64)
        for k, fn in enumerate(self.user_fns):
            if isinstance(fn, Strategy):  # a Python agent: a ctypes callback, made here
                users[k] = callback_address(as_answer(fn.agent), spec.observation,
                                            spec.observation_class, users, fn.name)
            else:
                users[k] = address_of(fn, spec.observation, spec.observation_class)
        # a search seat's rollouts may be a trained policy: its kernel gets the buffer too
        trained = np.zeros(0) if self.one_kernel or np.isin(self.kinds, (TRAINED, SEARCH_KIND,
                                                                          MIXTURE)).any() else None
        return Batch(self.kinds, self.params, users, np.uint64(key), np.int64(first_game),
                     np.bool_(rotate), np.full(4, -1, np.int64), trained)


MAX_DECISIONS = 4096  # decisions of one game a search can replay
SEARCH_NAMES = ("ismcts",)
SEARCH_DEFAULTS = {"budget": 256.0, "c": 0.7, "rollout": "default", "widen": 1.0, "alpha": 0.5,
                   "paired": 1.0}


def resolve_seats(spec: GameSpec, strategies, n_seats: int, rules=None) -> SeatPlan:
    """Turn a name, a Strategy, or one of those per seat into kernel inputs (``rules``: the
    variant played, which picks the shipped field that ``strong`` seats)."""
    if isinstance(strategies, (str, Strategy)):
        strategies = [strategies] * n_seats
    strategies = list(strategies)
    if len(strategies) == 1:
        strategies = strategies * n_seats
    if len(strategies) != n_seats:
        raise StrategyError(
            f"{len(strategies)} strategies given for {n_seats} seats; give one, or one per seat")
    resolved = [lookup(spec, s, n_seats, rules) for s in strategies]
    user_fns: list = []
    kinds = np.empty(n_seats, np.int64)
    # wide enough for the longest strategy (a script, a field of policies): no silent cap
    width = max([spec.n_strategy_params] + [len(s.params) for s in resolved])
    params = np.zeros((n_seats, width), np.float64)
    for seat, strategy in enumerate(resolved):
        user = strategy.fn if strategy.fn is not None else strategy if strategy.agent is not None else None
        if user is not None:
            if user not in user_fns:
                user_fns.append(user)
            kinds[seat] = USER_KIND + user_fns.index(user)
        else:
            kinds[seat] = strategy.builtin
        params[seat, :len(strategy.params)] = strategy.params
    labels = tuple(s.name if spec.strategies.get(s.name) == s or s.name.startswith(SEARCH_NAMES)
                   or s.builtin in (TRAINED, MIXTURE)  # its name says which; its weights are many
                   else s.describe() for s in resolved)
    sources = tuple(dict.fromkeys(s.source for s in resolved if s.source is not None))
    return SeatPlan(labels, kinds, params, tuple(user_fns), sources)


def lookup(spec: GameSpec, strategy, n_seats: int | None = None, rules=None) -> Strategy:
    """A Strategy from a name: a built-in, ``trained`` (the shipped policy for ``n_seats``
    players) or ``trained:FILE``, ``strong`` (the shipped field; with ``rules``, the one built
    for that variant where one is shipped) or ``strong:FILE``, ``ismcts:...``, or a numba.njit
    function."""
    if isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str) and strategy in spec.strategies:
        return spec.strategies[strategy]
    if isinstance(strategy, str) and strategy.split(":", 1)[0] == "trained":
        _, _, path = strategy.partition(":")
        if path:
            confine.check_file(path, "strategies")
        return trained_from_file(spec, path, n_players=n_seats) if path else \
            trained_shipped(spec, n_seats)
    if isinstance(strategy, str) and strategy.split(":", 1)[0] == "strong":
        _, _, path = strategy.partition(":")
        if path:
            confine.check_file(path, "strategies")
        return field_from_file(spec, path, n_players=n_seats) if path else \
            field_shipped(spec, n_seats, rules)
    if isinstance(strategy, str) and strategy.split(":", 1)[0] in SEARCH_NAMES:
        return search_player(spec, strategy, n_seats=n_seats, rules=rules)
    if isinstance(strategy, CPUDispatcher):
        return Strategy(strategy.py_func.__name__, fn=strategy)
    if callable(strategy):
        return Strategy(getattr(strategy, "__name__", type(strategy).__name__), agent=strategy)
    if isinstance(strategy, str) and strategy.rpartition(":")[0].endswith(".py"):
        # read once by the caller, not here: every lookup would import the file anew (and
        # compile a numba.njit strategy again) in every worker and generation
        raise StrategyError(f"{strategy!r} names a strategy file: read it with "
                            "sim.strategy.load_strategy (as -s does) and pass the Strategy it "
                            "returns")
    raise StrategyError(
        f"unknown strategy {strategy!r} for {spec.title}; built-ins: {', '.join(spec.strategies)}; "
        "or pass a Strategy(name, fn=<numba.njit function>) or a Python agent(obs, legal)")


def trained_player(spec: GameSpec, weights, name: str = "trained", temperature: float = 0.0,
           doc: str = "") -> Strategy:
    """A seat playing the linear policy ``weights`` (decision types x features; sim/trained.py)."""
    return Strategy(name, builtin=TRAINED, params=trained.parameters(spec, weights, temperature),
                    doc=doc or "a trained linear policy over the game's features")


def trained_from_file(spec: GameSpec, path, name: str | None = None,
                      n_players: int | None = None) -> Strategy:
    """A seat playing the policy file at ``path`` (refused if it is for other features, or with
    ``n_players``, for another player count)."""
    body = trained.load(path, spec, n_players)
    player = trained_player(spec, body["weights"], name or f"trained:{Path(path).stem}",
                            body.get("temperature", 0.0), doc=f"trained policy {path}")
    return replace(player, source=str(path))


def trained_shipped(spec: GameSpec, n_players: int | None) -> Strategy:
    """``-s trained``: the shipped policy for the variant's player count."""
    path = trained.shipped_path(spec, n_players)
    if path is None:
        raise StrategyError(f"no trained {spec.title} policy is shipped for "
                            f"{n_players or 'this'} players; train one with `balance train "
                            f"{spec.name}` and seat it with -s trained:FILE")
    return trained_from_file(spec, path, name="trained", n_players=n_players)


def field_from_file(spec: GameSpec, path, name: str | None = None,
                    n_players: int | None = None) -> Strategy:
    """A seat playing the field file at ``path``: one member drawn per game (sim/field.py;
    with ``n_players``, refused if built for another player count)."""
    body = fields.load(path, spec, n_players)
    return Strategy(name or f"strong:{Path(path).name.removesuffix(fields.SUFFIX)}",
                    builtin=MIXTURE, params=fields.parameters(spec, body),
                    doc=f"strong field {path} ({len(body['members'])} members)", source=str(path))


def field_members(spec: GameSpec, strategy, n_seats: int | None = None) -> list[tuple[float, Strategy]]:
    """(probability, seat) of each member of the field ``strategy`` (``strong`` or
    ``strong:FILE``) that the mixture can draw, each seated alone: to see which member a player
    beats. A field's share against a player averages its members' (weighted by probability), so
    one brittle member shows here and not in the whole field's figure."""
    seat = lookup(spec, strategy, n_seats)
    if seat.builtin != MIXTURE or seat.source is None:
        raise StrategyError(f"{seat.name!r} is not a strong field (strong or strong:FILE)")
    body = fields.load(seat.source, spec)
    out = []
    for member, (probability, kind, params) in zip(body["members"], fields.members_of(spec, body)):
        if probability > 0:
            out.append((probability, Strategy(
                member.get("name", "member"), builtin=MIXTURE,
                params=mixture.pack([(1.0, kind, params)]),
                doc=f"member {member.get('name')!r} of {seat.source}", source=seat.source)))
    return out


def field_shipped(spec: GameSpec, n_players: int | None, rules=None) -> Strategy:
    """``-s strong``: the shipped field for the variant's player count (and for the variant
    itself where one is shipped: sim.field.shipped_variants)."""
    path = fields.shipped_path(spec, n_players, rules)
    if path is None:
        raise StrategyError(f"no strong {spec.title} field is shipped for {n_players or 'this'} "
                            f"players; build one with `balance field {spec.name}` and seat it "
                            "with -s strong:FILE")
    return field_from_file(spec, path, name="strong", n_players=n_players)


def broad_field(spec: GameSpec, text: str = "broad", n_seats: int | None = None,
                rules=None) -> Strategy:
    """``broad`` or ``broad:FILE``: the field's support (its members the mixture can draw) and
    every built-in heuristic of the game (all but random), equally likely: a search's model of
    its opponents (``ismcts:rollout=broad``). A field's support is a few members, often
    deterministic; a search that rolls out only those plans against the moves they make and
    loses to a player who randomizes (docs/search.md, "Rolling out a broad field")."""
    _, _, path = text.partition(":")
    field_seat = lookup(spec, f"strong:{path}" if path else "strong", n_seats, rules)
    members = [(1.0, kind, params) for p, kind, params in mixture.unpack(field_seat.params)
               if p > 0]
    members += [(1.0, s.builtin, s.params) for s in spec.strategies.values()
                if s.builtin not in (RANDOM, SEARCH_KIND, None)]
    return Strategy(f"broad:{Path(field_seat.source).name.removesuffix(fields.SUFFIX)}",
                    builtin=MIXTURE, params=mixture.pack(members), source=field_seat.source,
                    doc=f"the support of {field_seat.source} and the built-in heuristics, "
                        "equally likely")


def search_player(spec: GameSpec, text: str = "ismcts", n_seats: int | None = None,
                  rules=None, **settings) -> Strategy:
    """The search player (sim/core/search.py: information-set MCTS) as a seat's strategy.

    ``"ismcts:budget=256,c=0.7,rollout=greedy,widen=1,alpha=0.5"``: iterations per decision,
    UCB exploration constant, the built-in strategy that plays the rest of each iteration (for
    every seat; by default the game's measured best model of the other seats,
    ``GameSpec.rollout``, with its best heuristic where that needs a policy or field the player
    count lacks; ``trained`` the shipped policy, ``strong`` the shipped field's
    mixture, ``broad`` its support and the built-in heuristics equally likely: ``broad_field``),
    and progressive widening: a node visited n times may have tried
    ceil(widen * (n + 1) ** alpha) of its actions, each new one suggested by the rollout policy
    (widen=0: every action is tried once first, plain UCB)."""
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
    if values["rollout"] == "default":  # the game's measured best model (GameSpec.rollout)
        values["rollout"] = spec.rollout
        shipped = {"trained": trained.shipped_path, "strong": fields.shipped_path,
                   "broad": fields.shipped_path}.get(spec.rollout)
        if shipped is not None and shipped(spec, n_seats) is None:
            values["rollout"] = spec.heuristic
    family = str(values["rollout"]).split(":", 1)[0]
    rollout = spec.strategies.get(str(values["rollout"]))
    if family in ("trained", "strong"):
        rollout = lookup(spec, str(values["rollout"]), n_seats, rules)
    elif family == "broad":
        rollout = broad_field(spec, str(values["rollout"]), n_seats, rules)
    if rollout is None or rollout.builtin is None or rollout.builtin == SEARCH_KIND:
        raise StrategyError(f"{text!r}: rollout={values['rollout']!r} is not a built-in "
                            f"{spec.title} strategy; choose one of {', '.join(spec.strategies)}, "
                            "trained[:FILE], strong[:FILE] or broad[:FILE]")
    label = f"ismcts(budget={budget}, c={c:g}, rollout={rollout.name}"
    if (widen, alpha) != (SEARCH_DEFAULTS["widen"], SEARCH_DEFAULTS["alpha"]):
        label += f", widen={widen:g}, alpha={alpha:g}"
    if paired != SEARCH_DEFAULTS["paired"]:
        label += f", paired={paired:g}"
    label += ")"
    params = (float(budget), c, float(rollout.builtin), widen, alpha, paired, 0, 0,
              *rollout.params)
    return Strategy(label, builtin=SEARCH_KIND, params=tuple(params),
                    doc="information-set MCTS: budget iterations per decision",
                    source=rollout.source)


RANDOM_PLAYER = Strategy("random", builtin=RANDOM, doc="uniformly random legal action")


def script(pairs, name: str = "script") -> Strategy:
    """A seat that answers the given (decision, action) pairs in order (tests and golden games);
    a decision that does not match the next pair gets the game's off-script answer."""
    flat = [0.0]
    for decision, action in pairs:
        flat += [float(decision), float(action)]
    flat[0] = float((len(flat) - 1) // 2)
    return Strategy(name, builtin=SCRIPT, params=tuple(flat))


def load_strategy(text: str):
    """What ``-s TEXT`` (and a study file's seat) names: a built-in name (the search player with its settings: ismcts:budget=256,rollout=greedy),
    or FILE.py:FUNCTION naming a user's numba.njit strategy or a Python agent (any other
    callable, ``agent(obs, legal) -> action``: sim/agents.py)."""
    if ":" not in text or not text.rpartition(":")[0].endswith(".py"):
        return text
    path, _, name = text.rpartition(":")
    confine.check_code(text, "strategies")
    if not Path(path).is_file():
        raise StrategyError(f"strategy file {path!r} not found (from --strategy {text!r})")
    digest = hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:10]
    module_name = f"balance_user_{Path(path).stem}_{digest}"
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as failure:  # the user's module: any error there is theirs to fix
        raise StrategyError(f"strategy file {path!r} failed to import: "
                            f"{type(failure).__name__}: {failure} (from {text!r})") from None
    if not hasattr(module, name):
        raise StrategyError(f"{path!r} has no function {name!r} (from --strategy {text!r})")
    found = getattr(module, name)
    if isinstance(found, CPUDispatcher):
        # Registered under a name of its own: Numba's cache reloads a cached function's module
        # by name, and a module missing from sys.modules made a cached strategy fail on its
        # second run (ModuleNotFoundError: '<dynamic>'). The prefix and the path's digest keep
        # a user's random.py from standing in for the standard library's. A Python agent's
        # module stays unregistered, so worker processes get it by value, not by a name they
        # cannot import.
        sys.modules[module_name] = module
        return Strategy(name, fn=found)
    if not callable(found):
        raise StrategyError(f"{name!r} in {path!r} is not a function (from --strategy {text!r})")
    return Strategy(name, agent=found)
