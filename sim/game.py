"""What every game provides to the shared engine.

A game is a package ``games/<game>/`` with the same parts in every game:

- ``rules.py``  - the variant dataclass: validated options, ``kernel_args()`` for the kernel;
- ``layout.py`` - integer constants grouped by what they index (``P.HAND``, ``EV.PLAY``): state
                  fields, actions, events, record columns (usable in jitted code);
- ``kernel.py`` - the rules as jitted code: the state (a NamedTuple whose first field is the
                  engine's ``core``), the game loop, what a seat observes, its redeal and its
                  record; every decision goes through the engine's ``ask`` (sim/core);
- ``log.py``    - a readable narrative of one game from its event log;
- ``spec.py``   - the ``SPEC`` (a :class:`GameSpec`): the game's static facts;
- ``strategies.py`` - its built-in strategies and the observation they read;
- ``study``     - its study (a module or a package): report, cards, recipes (analysis.studies.Study);
- ``policies/``, ``RULES.md``, ``tests/`` - shipped policies and fields, the rules page, its tests.

The engine (sim/core) owns the decision protocol, the chunk driver, the controller and the
search: docs/new_game.md walks through adding a game, and ``balance new-game NAME`` writes the
parts. The registry (sim/games.py) finds every package of ``sim/`` that has a ``spec.py``.

Kernel contract (``kernel.play_chunk``)::

    play_chunk(*rules.kernel_args(), batch, out, log, ctl) -> None
      batch   sim.core.state.Batch: the strategies per slot, the user strategies' addresses,
              the batch key, the index of out[0], seat rotation, and the error report
      out     int16[n, C]   one row per game: RECORD_LENGTH, RECORD_END, RECORD_WINNERS, then
                            the game's own columns, then per-seat columns seat-major
      log     int64[E, W]   event log of the first game, for narratives; zero rows = no logging.
                            log[0, 0] counts the events; row k >= 1 is (event, round, seat, ...):
                            the first three columns mean the same in every game.
      ctl     None (the plain path: nothing of the controller is compiled) or the decision
              controller (sim/core/control.py): tracing, perturbation and redeals for the
              conformance test, search

Observation contract (checked for every game by tests/engine/test_observation.py): a
strategy is handed ``observe(g, decision, seat)``, and nothing of it may depend on what the seat
has not observed; ``redeal(g, seat)`` re-randomises, from the controller's stream
(``control.rand_below``), everything ``seat`` has not observed (the other seats' hidden cards and
pending private choices, the order of every unseen deck) and reads nothing hidden to decide what
to draw (collect the unseen cards in a canonical order before shuffling);
``layout.EVENT_VISIBILITY[event]`` says who sees each logged event: PUBLIC (everyone), OWNER
(only the event's seat, column 2), NOBODY (bookkeeping). The log must name every public fact a
seat learns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping, NamedTuple

import numpy as np

# Columns every game writes first (the cross-game table contract).
RECORD_LENGTH = 0
RECORD_END = 1
RECORD_WINNERS = 2  # bit s set = seat s shares the win; empty = nobody won (capped / no survivor)
RECORD_FIRST_GAME_COLUMN = 3

RECORD_DTYPE = np.int16

# Who sees a logged event (layout.EVENT_VISIBILITY).
PUBLIC, OWNER, NOBODY = 0, 1, 2


class Payoff(NamedTuple):
    """A seat column that can be a seat's return in the adapters (``returns="<column>"``)."""
    # rules -> (lowest, highest) value a seat can get in that variant; None: not declared (the
    # adapters then give the record dtype's range)
    bounds: Callable | None = None
    total: float | None = None   # what the seats' values always sum to (0: zero-sum); None: varies


def card_orders(cards, dealt: int):
    """A ``GameSpec.deals`` for a game whose whole chance is one deal of ``dealt`` of ``cards``
    in order (Kuhn's two, Leduc's three), each order equally likely; a variant whose ``deal``
    option fixes the cards has the one deal."""
    from itertools import permutations

    def deals(rules, limit):
        if rules.deal is not None:
            return [({}, 1.0)]
        orders = list(permutations(cards, dealt))
        if len(orders) > limit:
            return None
        return [({"deal": ",".join(order)}, 1 / len(orders)) for order in orders]

    return deals


# What a game's layout module declares under these names: GameSpec.from_layout reads them.
LAYOUT_FACTS = {"end_reasons": "END_REASONS", "game_columns": "GAME_COLUMNS",
                "seat_columns": "SEAT_COLUMNS", "n_strategy_params": "N_STRATEGY_PARAMS",
                "decision_names": "DECISION_NAMES", "n_actions": "N_ACTIONS",
                "event_visibility": "EVENT_VISIBILITY"}


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
    # The strongest built-in heuristic (measured: the skill ladder's and the card table's
    # heuristic level), and the search's default rollout: a built-in name, "trained" (the
    # shipped policy for the player count), "strong" (the shipped field) or "broad" (the field's
    # support and the built-in heuristics, sim.strategy.broad_field); ``heuristic`` where the
    # count has no such policy or field.
    heuristic: str = "random"
    rollout: str = "random"
    # Seat columns that are a seat's score (the adapters' ``returns=``), each with what is known
    # of its range (:class:`Payoff`).
    payoffs: Mapping[str, Payoff] = field(default_factory=dict)
    # The variant's deals, where they can be listed: ``deals(rules, limit)`` -> a list of
    # (rule options that fix every chance event of the game, probability), or None where there
    # are more than ``limit`` of them (the OpenSpiel adapter's exact chance node).
    deals: Callable | None = field(repr=False, default=None)

    @classmethod
    def from_layout(cls, layout: ModuleType, **facts) -> "GameSpec":
        """The spec of a game whose ``layout`` module declares its tables under the usual names
        (LAYOUT_FACTS: END_REASONS, GAME_COLUMNS, ...); ``facts`` give the rest and override."""
        found = {name: getattr(layout, constant) for name, constant in LAYOUT_FACTS.items()
                 if hasattr(layout, constant)}
        return cls(**{**found, **facts})

    @property
    def observation(self) -> tuple:
        """(name, dtype, ndim) of each array of what a strategy is handed (kernel.OBSERVATION)."""
        return self.kernel.OBSERVATION

    @property
    def observation_class(self) -> type:
        return self.kernel.Observation

    def record_columns(self, n_seats: int) -> list[str]:
        names = [self.length_name, "end_reason", "winners", *self.game_columns]
        names += [f"{column}_{seat}" for seat in range(n_seats) for column in self.seat_columns]
        return names

    def record_width(self, n_seats: int) -> int:
        return RECORD_FIRST_GAME_COLUMN + len(self.game_columns) + n_seats * len(self.seat_columns)
