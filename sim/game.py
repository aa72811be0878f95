"""What every game provides to the shared engine.

A game is a package ``sim/<game>/`` with the same parts in every game:

- ``rules.py``  - the variant dataclass: validated options, ``kernel_args()`` for the kernel;
- ``layout.py`` - integer constants: state fields, actions, record columns (usable in jitted code);
- ``kernel.py`` - the jitted rules, entry point ``play_chunk`` (contract below);
- ``log.py``    - a readable narrative of one game from its event log;
- ``spec.py``   - the ``SPEC`` (a :class:`GameSpec`) that registers the game.

Kernel contract (``kernel.play_chunk``)::

    play_chunk(*rules.kernel_args(), kinds, params, key, first_game, out, error, log, ctl) -> None
      kinds   int64[S]      strategy kind per strategy slot (built-in id, or USER_KIND_BASE + k)
      params  float64[S,P]  strategy parameters per slot
      key     uint64        batch key from sim.rng.master_key(seed)
      first_game int64      global index of out[0]; game g seeds its streams from (key, g)
      out     int16[n, C]   one row per game: RECORD_LENGTH, RECORD_END, RECORD_WINNERS, then
                            the game's own columns, then per-seat columns seat-major
      error   int64[4]      set to (row, seat, action, 1) if a strategy returned an illegal action;
                            the kernel stops there and the engine raises a StrategyError
      log     int64[E, W]   event log of the first game, for narratives; zero rows = no logging.
                            log[0, 0] counts the events; row k >= 1 is (event, round, seat, ...):
                            the first three columns mean the same in every game.
      ctl     int64[...]    the decision controller (sim.control): seat rotation, tracing,
                            perturbation and redeals for the conformance test, search

Per game, ``play_chunk`` calls ``control.begin_game(ctl, g, row == 0, kinds, params,
seat_kinds, seat_params)`` before seeding game g and plays it with ``seat_kinds/seat_params``.

Observation contract (checked for every game by tests/engine/test_observation.py):

- every strategy call goes through one ``ask`` in the kernel. When ``control.active(ctl)``,
  ``ask`` first calls the game's ``redeal`` if ``control.redeal_due(ctl)``, then hashes exactly
  the arrays it hands the strategy (``control.hash_ints`` / ``hash_floats``: observation,
  legal mask, parameters, the seat's random stream), takes
  ``a = control.before_decision(ctl, seat, decision, hash, legal)`` (the hash may be 0 where
  ``control.needs_hash(ctl, seat)`` is false) and asks the strategy only
  if ``a < 0``, and returns
  ``control.after_decision(ctl, seat, decision, hash, legal, a, log[0, 0])``
  (sim/parthian/kernel.py ``ask`` is the reference); the game's main loop also ends when
  ``control.stopped(ctl)`` (a search abandons a game it only replayed to reach a decision);
- ``redeal(..., ctl, seat)`` re-randomises, from the controller's stream
  (``control.rand_below``), everything ``seat`` has not observed: the other seats' hidden cards
  and pending private choices, the order of every unseen deck. It reads nothing hidden to
  decide what to draw (collect the unseen cards in a canonical order before shuffling);
- ``layout.EVENT_VISIBILITY[event]`` says who sees each logged event: PUBLIC (everyone),
  OWNER (only the event's seat, column 2), NOBODY (bookkeeping). The log must name every
  public fact a seat learns; the test checks that two worlds a seat cannot tell apart by the
  events it saw hand its strategy identical arrays.

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

# Who sees a logged event (layout.EVENT_VISIBILITY).
PUBLIC, OWNER, NOBODY = 0, 1, 2


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
    decision_names: tuple[str, ...] = ()      # decision type codes -> names (layout.DECISION_NAMES)
    event_visibility: tuple[int, ...] = ()    # event code -> PUBLIC / OWNER / NOBODY
    # Rule variants (option dicts) that the observation conformance test must cover besides
    # every single choice option: combinations that reach decisions no single option does.
    observation_variants: tuple[dict, ...] = ()
    n_actions: int = 0                        # length of the legal mask (search tree width)

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
