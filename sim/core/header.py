"""The decision controller's array: its header's named fields and its sections.

The controller (sim/core/control.py) is one int64 array, so that a kernel takes it as one
argument and a search can keep its whole tree in it. Its header fields are named here, once,
and numbered by their order (``H.ASKS``); the sections that follow the header (trace rows, the
search seats' committed decisions, every action of the real game, the iteration's path, the
tree's nodes and its hash table) start at the offsets the header holds (``ctl[H.O_TRACE]``).
Both the controller and the search read this module; neither imports the other's constants.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np


class Header(NamedTuple):
    FLAGS: int          # bit set of TRACE, ONE_DECISION, REPLAY
    ASKS: int           # decisions asked so far in the current game (or replay)
    PERTURB_AT: int     # ask index whose action is replaced by another legal one (-1 none)
    REDEAL_AT: int      # ask index before which the game redeals hidden information (-1 none)
    RNG: int            # the controller's own random stream (redeals)
    GAME: int           # global index of the current game
    TRACE_ROWS: int     # trace rows written
    PERTURBED: int      # 1 once the perturbation took place (a decision with 2+ legal actions)
    STOPPED: int        # 1 = the game is being abandoned (a search paused it): finish it fast
    MODE: int           # PLAIN, REAL (a search seat plays) or ITERATE (inside a search)
    SLOW: int           # 1 = decisions go through the controller (0: a rollout out of the tree)
    PENDING_SEAT: int   # search seat whose decision paused the real game (-1 none)
    FORK: int           # ask index of the searched decision
    SEARCHER: int       # seat searched for
    PLAN_N: int         # committed search decisions of this game
    PLAN_CURSOR: int    # next committed decision to replay
    N_SEATS: int
    SEARCHING: int      # 1 = a search seat plays in this game
    ITERATIONS: int     # search iterations run by this controller (for the benchmark)
    PLAN_PRESET: int    # search decisions given in advance (a game continued from a history)
    N_ACTIONS: int      # actions per node (the game's legal-mask length)
    N_NODES: int
    PATH_N: int
    NODE: int           # the iteration's current tree node (-1: out of the tree)
    LAST_ACTION: int
    BUDGET: int
    C_UCT: int          # exploration constant x 1e6
    SEARCH_RNG: int
    WIDEN: int          # progressive widening's W x 1e6 (0: every legal action is tried first)
    WIDEN_ALPHA: int    # progressive widening's exponent x 1e6
    WIDEN_AT: int       # 1 + the node whose new action the rollout policy is suggesting (0 none)
    PAIRED: int         # 1 = root actions are compared on the same worlds (search.root_world)
    WORLD_SEED: int     # the search's seed of its worlds
    ROOT_PICK: int      # 2 + the root action chosen before the world was drawn (1: a new one)
    O_TRACE: int        # each section: its offset, then its capacity
    TRACE_CAP: int
    O_PLAN: int
    PLAN_CAP: int
    O_ALL: int
    ALL_CAP: int
    O_PATH: int
    PATH_CAP: int
    O_NODES: int
    NODE_CAP: int
    O_TABLE: int
    TABLE_CAP: int
    SEAT_KIND: int      # + seat (MAX_SEATS fields): the strategy kind seated this game


MAX_SEATS = 8
H = Header(*range(len(Header._fields)))
HEADER = len(Header._fields) + MAX_SEATS

TRACE = 1
ONE_DECISION = 2       # stop the game after its first searched decision (a game continued)
REPLAY = 4             # the plan's decisions are taken at every seat, not only at search seats
PLAIN, REAL, ITERATE = 0, 1, 2

# Trace rows: one per decision a strategy was asked for.
T_SEAT, T_DECISION, T_OBS_HASH, T_ACTION, T_EVENTS = 0, 1, 2, 3, 4
TRACE_WIDTH = 5
PLAN_WIDTH = 2         # (ask index, action)


def node_size(n_actions: int) -> int:
    """int64 fields of one search node: its key, then visits, reward and availability per action."""
    return 1 + 3 * n_actions


def new_ctl(trace_rows: int = 0, perturb_at: int = -1, redeal_at: int = -1, seed: int = 0,
            search_nodes: int = 0, n_actions: int = 0, plan_rows: int = 0, max_asks: int = 0,
            plan=(), one_decision: bool = False, replay: bool = False) -> np.ndarray:
    """A controller for one kernel call (a kernel called without one plays the plain path).

    The runner makes one with room for a search (``search_nodes`` tree nodes of ``n_actions``
    actions, ``plan_rows`` search decisions and ``max_asks`` decisions per game) when a search
    player is seated; tests add a trace, a perturbation or a redeal. ``plan``: (decision index,
    action) pairs a search seat replays before it searches, and ``one_decision`` stops after
    the first searched decision: together they continue a game from its history.
    ``replay``: every seat takes the plan's decisions (a game replayed from its history, every
    decision asked so far, by a live game: sim/live.py); with ``redeal_at`` the seat asked at
    that index has everything it has not observed redealt first (a resampled world), without
    tracing anything.
    """
    plan_rows = max(plan_rows, len(plan))
    sections = ((H.O_TRACE, trace_rows, trace_rows * TRACE_WIDTH),
                (H.O_PLAN, plan_rows, plan_rows * PLAN_WIDTH),
                (H.O_ALL, max_asks, max_asks),
                (H.O_PATH, max_asks, 2 * max_asks),
                (H.O_NODES, search_nodes, search_nodes * node_size(n_actions)),
                (H.O_TABLE, 4 * search_nodes, 4 * search_nodes))
    ctl = np.zeros(HEADER + sum(size for _, _, size in sections), np.int64)
    offset = HEADER
    for field, capacity, size in sections:
        ctl[field], ctl[field + 1] = offset, capacity
        offset += size
    ctl[H.N_ACTIONS] = n_actions
    traced = trace_rows or perturb_at >= 0 or (redeal_at >= 0 and not replay)
    ctl[H.FLAGS] = ((TRACE if traced else 0) | (ONE_DECISION if one_decision else 0)
                    | (REPLAY if replay else 0))
    ctl[H.PERTURB_AT] = perturb_at
    ctl[H.REDEAL_AT] = redeal_at
    ctl[H.RNG] = _rng_state(int(seed))
    if len(plan):
        start = ctl[H.O_PLAN]
        ctl[start:start + len(plan) * PLAN_WIDTH] = np.asarray(plan, np.int64).reshape(-1)
    ctl[H.PLAN_PRESET] = len(plan)
    return ctl


@lru_cache(maxsize=4096)
def _rng_state(seed: int) -> int:
    """The controller's first random state for a seed (SeedSequence is slow: live games make
    a controller per game)."""
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint64).view(np.int64)[0])


def last_searched(ctl: np.ndarray) -> int:
    """The action of the latest searched decision (-1 if none)."""
    n = int(ctl[H.PLAN_N])
    return int(ctl[ctl[H.O_PLAN] + (n - 1) * PLAN_WIDTH + 1]) if n > int(ctl[H.PLAN_PRESET]) else -1


def root_visits(ctl: np.ndarray) -> np.ndarray:
    """Visits per action at the root of the latest search (its node 0; read after a
    ``one_decision`` call, before another search reuses the nodes)."""
    start = int(ctl[H.O_NODES]) + 1
    return ctl[start:start + int(ctl[H.N_ACTIONS])].copy()


def trace_of(ctl: np.ndarray) -> np.ndarray:
    """The trace rows written by the last game: int64[rows, TRACE_WIDTH]."""
    rows, start = int(ctl[H.TRACE_ROWS]), int(ctl[H.O_TRACE])
    return ctl[start:start + rows * TRACE_WIDTH].reshape(rows, TRACE_WIDTH)


def perturbed(ctl: np.ndarray) -> bool:
    """True when the last game's perturbation took place."""
    return bool(ctl[H.PERTURBED])


def iterations(ctl: np.ndarray) -> int:
    """Search iterations run with this controller."""
    return int(ctl[H.ITERATIONS])
