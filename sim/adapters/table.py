"""What every adapter shares: a game with its rules, the flat observation vector, the returns.

:class:`Table` holds one game variant (``Table("goofspiel", {"num_cards": 6})``): its spec, its
rules, the kernel's arguments (computed once), how an observation is laid out as one flat
vector (:class:`Layout`), and the returns of a finished game. ``table.live(...)`` starts a game
(sim.live.LiveGame) on it.

The flat observation vector (what PettingZoo, Gymnasium and OpenSpiel are handed) is the
strategy's ``decision`` argument followed by every array of its ``obs``, flattened in C order,
in the order of ``spec.observation``. An array whose length can change during a game (a list
of legal plays, a slice of a seat's own card) is laid out at its largest size - the size of the
state array it is a view of - with one element before it holding its current length, and zeros
after its values. The layout is found once per variant, from a fresh kernel state and the game's
own ``observe`` called from Python (``sim.runner.kernel_state``): every observation array is a
view of a state array (the kernel contract: "views of the state, no copies").
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..errors import RunError
from ..game import RECORD_DTYPE, GameSpec
from ..games import get_game


class Field(NamedTuple):
    name: str
    dtype: np.dtype
    shape: tuple       # the largest shape
    varying: bool      # True: its length is written before its values
    offset: int        # where it starts in the vector (its length element, when varying)


class Layout:
    """How one variant's observation is laid out as a flat vector (see the module)."""

    def __init__(self, spec: GameSpec, rules, dtype=None):
        from ..runner import kernel_state

        g = kernel_state(spec, rules)
        containers = _arrays(g)
        largest: list[int] = []
        varying: list[bool] = []
        views = []
        for decision in range(max(1, len(spec.decision_names))):
            for seat in range(rules.n_seats):
                obs = spec.kernel.observe(g, np.int64(decision), np.int64(seat))
                views.append(obs)
                for k, view in enumerate(obs):
                    bound = _leading_bound(view, containers)
                    if k == len(largest):
                        largest.append(bound)
                        varying.append(bound != view.shape[0])
                    largest[k] = max(largest[k], bound)
                    varying[k] |= bound != view.shape[0]
        self.fields: list[Field] = []
        offset = 1  # the decision
        for k, ((name, kind, _), view) in enumerate(zip(spec.observation, views[0])):
            shape = (largest[k], *view.shape[1:])
            self.fields.append(Field(name, np.dtype(kind), shape, varying[k], offset))
            offset += int(varying[k]) + int(np.prod(shape))
        self.size = offset
        self._capacity = [math.prod(f.shape) for f in self.fields]
        natural = np.result_type(*[f.dtype for f in self.fields], np.int64)
        self.dtype = np.dtype(dtype) if dtype is not None else natural
        self.observation_class = spec.observation_class

    def flatten(self, decision: int, obs) -> np.ndarray:
        """The flat vector of one observation (a new array)."""
        out = np.zeros(self.size, self.dtype)
        out[0] = decision
        for field, capacity, view in zip(self.fields, self._capacity, obs):
            start = field.offset
            if field.varying:
                out[start] = view.shape[0]
                start += 1
            if view.size > capacity:
                raise RunError(f"observation array {field.name!r} has shape {view.shape}, larger "
                               f"than its layout {field.shape}")
            out[start:start + view.size] = view.ravel()
        return out

    def unflatten(self, vector) -> tuple[int, tuple]:
        """(decision, Observation) back from a flat vector (copies, in each field's own dtype)."""
        vector = np.asarray(vector)
        arrays = []
        for field in self.fields:
            start, shape = field.offset, field.shape
            if field.varying:
                shape = (int(vector[start]), *shape[1:])
                start += 1
            size = int(np.prod(shape))
            arrays.append(vector[start:start + size].astype(field.dtype).reshape(shape))
        return int(vector[0]), self.observation_class(*arrays)

    def bounds(self) -> tuple[float, float]:
        """Lowest and highest value of the vector's dtype (observations are not bounded more
        tightly: the games do not declare their ranges)."""
        if np.issubdtype(self.dtype, np.integer):
            info = np.iinfo(self.dtype)
            return info.min, info.max
        return -np.inf, np.inf


def _arrays(value) -> list[np.ndarray]:
    """Every numpy array in a (nested) state NamedTuple."""
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, tuple):
        return [a for item in value for a in _arrays(item)]
    return []


def _leading_bound(view: np.ndarray, containers: list[np.ndarray]) -> int:
    """How long the view's first axis can get: as far as the state array that holds it goes
    along that axis from where the view starts."""
    if view.ndim == 0:
        return 0
    start = view.__array_interface__["data"][0]
    for array in containers:
        base = array.__array_interface__["data"][0]
        if not (array.size and base <= start < base + array.nbytes):
            continue
        offset = start - base
        for axis in range(array.ndim):
            if array.strides[axis] == view.strides[0] and array.shape[axis + 1:] == view.shape[1:]:
                outer = array.strides[axis - 1] if axis > 0 else array.nbytes
                return max(view.shape[0], array.shape[axis] - (offset % outer) // array.strides[axis])
    return view.shape[0]


class Table:
    """One variant of one game, ready for the adapters (see the module).

    ``returns``: what a seat gets at the end of a game: ``"win"`` (its share of the win, 1/k for
    k co-winners, 0 for a loss and in a game nobody wins) or one of the seat columns the game
    declares a score (``spec.payoffs``, e.g. Kuhn poker's ``payoff``), read from the game's
    record.
    """

    def __init__(self, game, rules=None, returns: str = "win", dtype=None):
        from ..runner import as_rules

        self.spec = get_game(game)
        self.rules = as_rules(self.spec, rules)
        self.n_seats = self.rules.n_seats
        self.n_actions = self.spec.n_actions
        self.args = self.rules.kernel_args()
        valid = ["win", *self.spec.payoffs]
        if returns not in valid:
            raise RunError(f"returns={returns!r} is not one of {self.spec.title}'s returns: "
                           f"choose {', '.join(map(repr, valid))}")
        self.layout = Layout(self.spec, self.rules, dtype)
        self.returns_name = returns
        columns = self.spec.record_columns(self.n_seats)
        self._columns = None if returns == "win" else [columns.index(f"{returns}_{s}")
                                                       for s in range(self.n_seats)]

    def live(self, seed: int = 0, game_index: int = 0, strategies=None, *, deal=None, **options):
        """A new live game on this table (sim.live.LiveGame); ``deal``: (rules, kernel args) of
        one of the variant's listed deals (sim.adapters.openspiel) instead of the table's own."""
        from ..live import LiveGame

        rules, args = deal if deal is not None else (self.rules, self.args)
        return LiveGame(self.spec, rules, strategies, seed, game_index, args=args, **options)

    def mask(self, legal: np.ndarray, dtype=np.int8) -> np.ndarray:
        """The legal mask padded to ``spec.n_actions`` (a game asks with the first n actions)."""
        mask = np.zeros(self.n_actions, dtype)
        mask[:len(legal)] = legal
        return mask

    def returns(self, live) -> np.ndarray:
        """Each seat's return of a finished live game (float64[n_seats])."""
        if self._columns is None:
            return live.shares()
        return live.out[0, self._columns].astype(np.float64)

    def utility_range(self) -> tuple[float, float]:
        """Lowest and highest return a seat can get: the game's declared bounds of its payoff
        column, else the record dtype's range."""
        if self._columns is None:
            return 0.0, 1.0
        bounds = self.spec.payoffs[self.returns_name].bounds
        if bounds is not None:
            low, high = bounds(self.rules)
            return float(low), float(high)
        info = np.iinfo(RECORD_DTYPE)
        return float(info.min), float(info.max)

    def utility_sum(self) -> float | None:
        """What the seats' returns always sum to (None: it varies)."""
        return None if self._columns is None else self.spec.payoffs[self.returns_name].total

    def narrative(self, live, labels=None) -> str:
        """The game's narrative so far (every event, hidden ones too: a referee's view)."""
        labels = labels or [f"player_{s}" for s in range(self.n_seats)]
        if self.spec.narrate is None:
            return "\n".join(" ".join(map(str, row)) for row in live.events())
        return self.spec.narrate(live.events(), labels)
