"""The decision controller: the engine's hand on every decision a kernel asks a strategy for.

Every game routes each strategy call through one ``ask`` in its kernel, and that ``ask`` hands
the controller array ``ctl`` (int64, the last argument of ``play_chunk``) the decision before and
after the strategy answers. With nothing switched on it costs one branch per decision. It serves:

- fair seats: ``begin_game`` gives each seat its strategy for this game (rotated by the game
  index when ``ROTATE`` is set), so that no strategy keeps a seat with a turn-order advantage;
- the observation conformance test (tests/engine/test_observation.py): ``TRACE`` records every
  decision (seat, decision type, a hash of exactly the arrays handed to the strategy, action);
  ``perturb_at`` makes one decision take another legal action; ``redeal_at`` asks the game to
  re-randomise everything the deciding seat has not observed before that decision;
- the search player (sim/search.py): replaying a recorded history and forking from it.

Layout of ``ctl``: a header of HEADER fields, then TRACE rows of TRACE_WIDTH fields.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .rng import mix64

# Header fields.
FLAGS = 0              # bit set of ROTATE, TRACE
ASKS = 1               # decisions asked so far in the current game
PERTURB_AT = 2         # ask index whose action is replaced by another legal one (-1 none)
REDEAL_AT = 3          # ask index before which the game redeals hidden information (-1 none)
RNG = 4                # the controller's own random stream (perturbation, redeal)
GAME = 5               # global index of the current game
TRACE_ROWS = 6         # trace rows written
PERTURBED = 7          # 1 once the perturbation took place (a decision with 2+ legal actions)
STOPPED = 8            # 1 = the game is being abandoned (search pauses it): finish it fast
HEADER = 16

ROTATE = 1
TRACE = 2

# Trace rows: one per decision a strategy was asked for.
T_SEAT, T_DECISION, T_OBS_HASH, T_ACTION, T_EVENTS = 0, 1, 2, 3, 4
TRACE_WIDTH = 5


def new_ctl(rotate: bool = False, trace_rows: int = 0, perturb_at: int = -1,
            redeal_at: int = -1, seed: int = 0) -> np.ndarray:
    """A controller for one kernel call (the runner passes one with only ``rotate`` set)."""
    ctl = np.zeros(HEADER + trace_rows * TRACE_WIDTH, np.int64)
    ctl[FLAGS] = (ROTATE if rotate else 0) | (TRACE if trace_rows or perturb_at >= 0
                                               or redeal_at >= 0 else 0)
    ctl[PERTURB_AT] = perturb_at
    ctl[REDEAL_AT] = redeal_at
    ctl[RNG] = np.random.SeedSequence(seed).generate_state(1, np.uint64).view(np.int64)[0]
    return ctl


def trace_of(ctl: np.ndarray) -> np.ndarray:
    """The trace rows written by the last game: int64[rows, TRACE_WIDTH]."""
    rows = int(ctl[TRACE_ROWS])
    return ctl[HEADER:HEADER + rows * TRACE_WIDTH].reshape(rows, TRACE_WIDTH)


@njit(cache=True)
def begin_game(ctl, game, first, kinds, params, seat_kinds, seat_params):
    """Start game ``game`` (``first``: the chunk's first game): reset the per-game counters and
    seat the strategies.

    ``kinds``/``params`` are per strategy slot as the user listed them; ``seat_kinds`` and
    ``seat_params`` receive what each seat plays this game. With ROTATE, seat s plays slot
    (s + game) mod N; the rotation of game g is therefore g mod N (recorded by the runner).
    """
    ctl[ASKS] = 0
    ctl[TRACE_ROWS] = 0
    ctl[PERTURBED] = 0
    ctl[STOPPED] = 0
    ctl[GAME] = game
    rotate = ctl[FLAGS] & ROTATE != 0
    if not (rotate or first):
        return  # unrotated seats keep what the chunk's first game gave them
    n = kinds.shape[0]
    shift = game % n if rotate else 0
    for s in range(n):
        slot = (s + shift) % n
        seat_kinds[s] = kinds[slot]
        for i in range(params.shape[1]):
            seat_params[s, i] = params[slot, i]


@njit(cache=True, inline="always")
def active(ctl):
    """True when anything beyond seat rotation is switched on (the slow path of ``ask``)."""
    return ctl[FLAGS] & TRACE != 0


@njit(cache=True)
def hash_ints(values, h):
    """Fold an integer or boolean array into the running hash h (uint64)."""
    for i in range(values.size):
        h = mix64(h ^ (np.uint64(np.int64(values.flat[i])) + np.uint64(i + 1)))
    return h


@njit(cache=True)
def hash_floats(values, h):
    """Fold a float array into the running hash h (by value, not by bits)."""
    for i in range(values.size):
        h = mix64(h ^ (np.uint64(np.int64(values.flat[i] * 1048576.0)) + np.uint64(i + 1)))
    return h


@njit(cache=True)
def redeal_due(ctl):
    """True when the game must redeal hidden information before the decision now being asked."""
    return ctl[FLAGS] & TRACE != 0 and ctl[ASKS] == ctl[REDEAL_AT]


@njit(cache=True)
def rand_below(ctl, n):
    """Uniform integer in [0, n) from the controller's own stream (redeal, perturbation)."""
    state = np.uint64(ctl[RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ctl[RNG] = np.int64(state)
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle_ints(values, count, ctl):
    """Fisher-Yates shuffle of values[:count] from the controller's stream (for redeals)."""
    for i in range(count - 1, 0, -1):
        j = rand_below(ctl, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True, inline="always")
def stopped(ctl):
    """True when the current game is abandoned: the game's main loop ends it at once."""
    return ctl[STOPPED] != 0


@njit(cache=True)
def before_decision(ctl, seat, decision, obs_hash, legal):
    """An action the controller takes itself (a replayed history, a search), or -1 to let the
    seat's strategy decide. A stopped game takes its lowest legal action."""
    if ctl[STOPPED] != 0:
        for a in range(legal.shape[0]):
            if legal[a]:
                return a
    return -1


@njit(cache=True)
def after_decision(ctl, seat, decision, obs_hash, legal, action, n_events):
    """Record the decision and return the action to take (another legal one when perturbed).

    ``legal`` is the boolean mask the strategy was shown; ``n_events`` the number of events in
    the game's log when the decision was asked (to interleave decisions with events).
    """
    k = ctl[ASKS]
    ctl[ASKS] = k + 1
    if k == ctl[PERTURB_AT] and 0 <= action < legal.shape[0]:
        n_other = 0
        for a in range(legal.shape[0]):
            if legal[a] and a != action:
                n_other += 1
        if n_other > 0:
            pick = rand_below(ctl, n_other)
            for a in range(legal.shape[0]):
                if legal[a] and a != action:
                    if pick == 0:
                        action = a
                        break
                    pick -= 1
            ctl[PERTURBED] = 1
    row = ctl[TRACE_ROWS]
    base = HEADER + row * TRACE_WIDTH
    if base + TRACE_WIDTH <= ctl.shape[0]:
        ctl[base + T_SEAT] = seat
        ctl[base + T_DECISION] = decision
        ctl[base + T_OBS_HASH] = np.int64(obs_hash)
        ctl[base + T_ACTION] = action
        ctl[base + T_EVENTS] = n_events
        ctl[TRACE_ROWS] = row + 1
    return action
