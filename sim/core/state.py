"""The engine's part of every game's state, and what a batch hands the kernel.

Every game's state is a NamedTuple whose first field is ``core``, a :class:`Core`: the seats'
strategies for the current game, the random streams, the legal mask of the decision being
asked, the event log, the error report and the decision controller. The game's own fields
follow (games/<game>/kernel.py documents them). The engine reads and writes only ``g.core``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

# Strategy kinds the engine answers itself, for every game; a game's own built-ins are
# numbered 1 .. FIRST_ENGINE_KIND - 1 (games/<game>/strategies.py).
RANDOM = 0             # a uniformly random legal action
SCRIPT = 90            # (decision, action) pairs in order (sim.strategy.script)
TRAINED = 91           # a linear policy over the game's features (sim/core/policy.py)
MIXTURE = 92           # a field: one member strategy drawn per game and slot (sim/core/mixture.py)
FIRST_ENGINE_KIND = 90
SEARCH_KIND = 999      # the search player (sim/core/search.py): answered by the controller
USER_KIND = 1000       # + k: the k-th user strategy of the batch, called through its address

# core.ints[...]: the engine's integers, in one array (every array more in a state that is passed
# to a non-inlined function is copied on every call: Samurai Sword's random play lost 11% to
# four small arrays here)
ROW = 0                # the current game's row in the chunk's output
GAME = 1               # its global index (the key of its random streams)
LOGGING = 2            # 1: events go to core.log (the real game of a logged chunk); 0: no
                       # log; -1: a search's own game (no log, and no illegal-answer report)
ERROR = 3              # 4 fields: (row, seat, action, 1) after the first illegal answer
SEATS = 7              # SEATS + seat * SEAT_FIELDS + field: the current game's strategy at a seat
KIND = 0               # strategy kind (above, or a game's built-in id)
SLOT = 1               # which of the batch's strategies (the seat rotation moves them)
CURSOR = 2             # a script's position
SEATED = 3             # whose parameters the seat's row holds: SAME_AS of the slot * 2**32 + the
                       # first index copied (a field's member); -1: none (a search's rollouts)
SAME_AS = 4            # in seat k's fields, for slot k: the first slot with the same kind and
                       # parameters (seats and slots are both 0..n-1), so that re-seating a
                       # rotated or field seat copies nothing when the row already holds them
SEAT_FIELDS = 5
# then the user strategies' addresses (kind USER_KIND + k): at users(core) + k

# batch.error (copied from core.ints[ERROR:] when the chunk ends)
E_ROW, E_SEAT, E_ACTION, E_SET = 0, 1, 2, 3


class Batch(NamedTuple):
    """What the runner hands a kernel besides the rules: built by sim.strategy.SeatPlan."""
    kinds: np.ndarray      # int64[S]: strategy kind per slot, in the order the user listed them
    params: np.ndarray     # float64[S, P]: parameters per slot
    users: np.ndarray      # int64[U]: addresses of the user strategies (kind USER_KIND + k)
    key: np.uint64         # the batch key (sim.rng.master_key): game g's streams come from (key, g)
    first_game: np.int64   # global index of the chunk's first game (out[0])
    rotate: np.bool_       # True: game g seats slot (s + g) mod S at seat s
    error: np.ndarray      # int64[4]: (row, seat, action, 1) after the first illegal answer
    trained: object        # None: no trained policy plays (its features are not compiled into
                           # the kernel: Sunzi's cold start 80 s -> 50 s); else an empty float64
                           # array, and the core gets the features' buffer


class Core(NamedTuple):
    """The engine's fields of a game's state (``g.core``)."""
    ints: np.ndarray       # int64[...]: ROW, GAME, LOGGING, the error, the seats, the users
    params: np.ndarray     # float64[n_seats, P]: each seat's parameters this game
    streams: np.ndarray    # uint64[N_CHANCE + n_seats * N_DECISIONS]: the game's random streams
    legal: np.ndarray      # bool[2 * n_actions]: legal mask of the decision being asked (the game
                           # fills legal[:n] before it asks); the second half keeps the mask while
                           # the game redeals
    phi: object            # float64[n_actions, n_features + 1]: a trained policy's features of
                           # each action, and its score in the last column; None when the batch
                           # has no trained policy (batch.trained)
    log: np.ndarray        # int64[E, W]: event log; log[0, 0] counts the events (E = 0: none)
    ctl: object            # None (the plain path) or the decision controller, int64[...]


@njit(cache=True, inline="always")
def seat_at(seat, field):
    """Index in core.ints of a seat's field (KIND, SLOT, CURSOR)."""
    return SEATS + seat * SEAT_FIELDS + field


@njit(cache=True, inline="always")
def users_at(c):
    """Index in core.ints of the first user strategy's address."""
    return SEATS + c.params.shape[0] * SEAT_FIELDS


@njit(cache=True)
def new_core(batch, n_seats, n_chance, n_decisions, n_actions, log, ctl, n_features=1):
    """The engine's state for one chunk (allocated once; every game reuses it): room for the
    game's ``n_chance`` chance streams and one per (seat, decision type), and for a trained
    policy's ``n_features`` features of each action (games/<game>/strategies.py: N_FEATURES)."""
    ints = np.zeros(SEATS + n_seats * SEAT_FIELDS + batch.users.shape[0], np.int64)
    ints[ERROR:ERROR + 4] = -1
    for slot in range(n_seats):
        ints[seat_at(slot, SEATED)] = -1
        ints[seat_at(slot, SAME_AS)] = slot
        for first in range(slot):
            if batch.kinds[first] == batch.kinds[slot] and np.array_equal(batch.params[first],
                                                                          batch.params[slot]):
                ints[seat_at(slot, SAME_AS)] = first
                break
    for k in range(batch.users.shape[0]):
        ints[SEATS + n_seats * SEAT_FIELDS + k] = batch.users[k]
    return Core(ints, np.zeros((n_seats, batch.params.shape[1]), np.float64),
                np.zeros(n_chance + n_seats * n_decisions, np.uint64),
                np.zeros(2 * n_actions, np.bool_),
                feature_buffer(batch.trained, n_actions, n_features), log, ctl)


def feature_buffer(trained, n_actions, n_features):
    """The trained policy's buffer, or None (typed: decided when the kernel compiles)."""
    raise NotImplementedError


@overload(feature_buffer)
def _feature_buffer(trained, n_actions, n_features):
    if isinstance(trained, types.NoneType):
        return lambda trained, n_actions, n_features: None
    return lambda trained, n_actions, n_features: np.zeros((n_actions, n_features + 1),
                                                           np.float64)
