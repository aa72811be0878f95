"""What every game provides to the shared engine.

A game is a package ``sim/<game>/`` with the same parts in every game:

- ``rules.py``  - the variant dataclass: validated options, ``kernel_args()`` for the kernel;
- ``layout.py`` - integer constants: state fields, actions, record columns (usable in jitted code);
- ``kernel.py`` - the jitted rules, entry point ``play_chunk`` (contract below);
- ``log.py``    - a readable narrative of one game from its event log;
- ``spec.py``   - the ``SPEC`` (a :class:`GameSpec`) that registers the game.

Kernel contract (``kernel.play_chunk``)::

    play_chunk(*rules.kernel_args(), kinds, params, key, first_game, out, error, log) -> None
      kinds   int64[S]      strategy kind per seat (built-in id, or USER_KIND_BASE + k)
      params  float64[S,P]  strategy parameters per seat
      key     uint64        batch key from sim.rng.master_key(seed)
      first_game int64      global index of out[0]; game g seeds its streams from (key, g)
      out     int16[n, C]   one row per game: RECORD_LENGTH, RECORD_END, RECORD_WINNERS, then
                            the game's own columns, then per-seat columns seat-major
      error   int64[4]      set to (row, seat, action, 1) if a strategy returned an illegal action;
                            the kernel stops there and the engine raises a StrategyError
      log     int64[E, W]   event log of the first game, for narratives; zero rows = no logging

The kernel module must also define ``decide_custom(k, ...)``: a placeholder that the engine
replaces with the user's jitted strategies when any are seated (see sim.strategy).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

# Columns every game writes first (the cross-game table contract).
RECORD_LENGTH = 0
RECORD_END = 1
RECORD_WINNERS = 2  # bit s set = seat s shares the win; empty = nobody won (capped / no survivor)
RECORD_FIRST_GAME_COLUMN = 3

RECORD_DTYPE = np.int16
USER_KIND_BASE = 1000


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    rules_class: type
    kernel: ModuleType
    length_name: str                      # "rounds" or "turns"
    end_reasons: tuple[str, ...]          # label of each end-reason code
    unfinished_reasons: tuple[str, ...]   # reasons that mark a capped / unfinished game
    game_columns: tuple[str, ...]
    seat_columns: tuple[str, ...]
    strategies: Mapping[str, "object"]   # name -> sim.strategy.Strategy (built-ins)
    n_strategy_params: int
    narrate: Callable = field(repr=False, default=None)
    # End reasons whose share is a headline rate of the workbench (e.g. Parthian's team
    # "victory"); the generic ones (seat win rates, first-seat advantage, decided share, mean
    # length) come for every game from analysis.workbench.metrics.
    headline_ends: tuple[str, ...] = ()

    def record_columns(self, n_seats: int) -> list[str]:
        names = [self.length_name, "end_reason", "winners", *self.game_columns]
        names += [f"{column}_{seat}" for seat in range(n_seats) for column in self.seat_columns]
        return names

    def record_width(self, n_seats: int) -> int:
        return RECORD_FIRST_GAME_COLUMN + len(self.game_columns) + n_seats * len(self.seat_columns)


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    from . import use_game_cache

    use_game_cache(spec.name)
    _REGISTRY[spec.name] = spec
    return spec


def get_game(name: "str | GameSpec") -> GameSpec:
    from .errors import RulesError
    from . import games  # noqa: F401  (imports every game package so that it registers)

    if isinstance(name, GameSpec):
        return name
    if name not in _REGISTRY:
        raise RulesError(f"unknown game {name!r}; available: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name]


def game_names() -> list[str]:
    from . import games  # noqa: F401

    return sorted(_REGISTRY)
