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
- the search player (sim/search.py): a game with a search seat is replayed from its start up to
  each of that seat's decisions ("real" mode, which pauses there), and every search iteration
  replays it once more, forks at the decision with everything hidden redealt, and plays on
  ("iterate" mode). Replaying instead of copying a paused state keeps the rules as plain code
  that asks seats as it goes (docs/search.md measures both costs).

Layout: a header of HEADER fields; then sections whose offsets are in the header (trace rows,
the search seats' committed decisions, every action of the real game, the current iteration's
path, the tree's nodes and its hash table).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import search
from .rng import mix64

# Header fields.
FLAGS = 0              # bit set of ROTATE, TRACE
ASKS = 1               # decisions asked so far in the current game (or replay)
PERTURB_AT = 2         # ask index whose action is replaced by another legal one (-1 none)
REDEAL_AT = 3          # ask index before which the game redeals hidden information (-1 none)
RNG = 4                # the controller's own random stream (redeals)
GAME = 5               # global index of the current game
TRACE_ROWS = 6         # trace rows written
PERTURBED = 7          # 1 once the perturbation took place (a decision with 2+ legal actions)
STOPPED = 8            # 1 = the game is being abandoned (search pauses it): finish it fast
MODE = 9               # PLAIN, REAL (a search seat plays) or ITERATE (inside a search)
SLOW = 10              # 1 = decisions go through the controller (see `active`)
PENDING_SEAT = 11      # search seat whose decision paused the real game (-1 none)
FORK = 12              # ask index of the searched decision
SEARCHER = 13          # seat searched for
PLAN_N = 14            # committed search decisions of this game
PLAN_CURSOR = 15       # next committed decision to replay
N_SEATS = 16
SEAT_KIND = 17         # + seat (up to MAX_SEATS): the strategy kind seated this game
MAX_SEATS = 8
O_TRACE, TRACE_CAP = 25, 26
O_PLAN, PLAN_CAP = 27, 28
O_ALL, ALL_CAP = 29, 30
O_PATH, PATH_CAP = 31, 32
O_NODES, NODE_CAP = 33, 34
N_ACTIONS = 35         # actions per node (the game's legal-mask length)
O_TABLE, TABLE_CAP = 36, 37
N_NODES = 38
PATH_N = 39
NODE = 40              # the iteration's current tree node (-1: out of the tree)
LAST_ACTION = 41
BUDGET = 42
C_UCT = 43             # exploration constant x 1e6
SEARCH_RNG = 44
SEARCHING = 45         # 1 = a search seat plays in this game
ITERATIONS = 46        # search iterations run by this controller (for the benchmark)
PLAN_PRESET = 47       # search decisions given in advance (a game continued from a history)
WIDEN = 48             # progressive widening's W x 1e6 (0: every legal action is tried first)
WIDEN_ALPHA = 49       # progressive widening's exponent x 1e6
WIDEN_AT = 50          # 1 + the node whose new action the rollout policy is suggesting (0 none)
PAIRED = 51            # 1 = root actions are compared on the same worlds (search.root_world)
WORLD_SEED = 52        # the search's seed of its worlds
ROOT_PICK = 53         # 2 + the root action chosen before the world was drawn (1: a new one)
HEADER = 54

ROTATE = 1
TRACE = 2
ONE_DECISION = 4       # stop the game after its first searched decision (sim.calibration)
PLAIN, REAL, ITERATE = 0, 1, 2
SEARCH_KIND = 999      # the search player's strategy kind in every game (below USER_KIND_BASE)

# Trace rows: one per decision a strategy was asked for.
T_SEAT, T_DECISION, T_OBS_HASH, T_ACTION, T_EVENTS = 0, 1, 2, 3, 4
TRACE_WIDTH = 5
PLAN_WIDTH = 2         # (ask index, action)


def new_ctl(rotate: bool = False, trace_rows: int = 0, perturb_at: int = -1,
            redeal_at: int = -1, seed: int = 0, search_nodes: int = 0,
            n_actions: int = 0, plan_rows: int = 0, max_asks: int = 0, plan=(),
            one_decision: bool = False) -> np.ndarray:
    """A controller for one kernel call.

    The runner passes one with ``rotate`` only, or with room for a search (``search_nodes``
    tree nodes of ``n_actions`` actions, ``plan_rows`` search decisions and ``max_asks``
    decisions per game); tests add a trace, a perturbation or a redeal. ``plan``: (decision
    index, action) pairs a search seat replays before it searches, and ``one_decision`` stops
    after the first searched decision: together they continue a game from its history.
    """
    sizes = [trace_rows * TRACE_WIDTH, plan_rows * PLAN_WIDTH, max_asks, 2 * max_asks,
             search_nodes * search.node_size(n_actions), 4 * search_nodes]
    ctl = np.zeros(HEADER + sum(sizes), np.int64)
    offset = HEADER
    for field, cap, size in zip((O_TRACE, O_PLAN, O_ALL, O_PATH, O_NODES, O_TABLE),
                                (trace_rows, plan_rows, max_asks, max_asks, search_nodes,
                                 4 * search_nodes), sizes):
        ctl[field], ctl[field + 1] = offset, cap
        offset += size
    ctl[N_ACTIONS] = n_actions
    ctl[FLAGS] = (ROTATE if rotate else 0) | (TRACE if trace_rows or perturb_at >= 0
                                               or redeal_at >= 0 else 0)
    ctl[PERTURB_AT] = perturb_at
    ctl[REDEAL_AT] = redeal_at
    ctl[RNG] = np.random.SeedSequence(seed).generate_state(1, np.uint64).view(np.int64)[0]
    if one_decision:
        ctl[FLAGS] |= ONE_DECISION
    for i, (ask, action) in enumerate(plan):
        ctl[ctl[O_PLAN] + i * PLAN_WIDTH:ctl[O_PLAN] + (i + 1) * PLAN_WIDTH] = ask, action
    ctl[PLAN_PRESET] = len(plan)
    return ctl


def last_searched(ctl: np.ndarray) -> int:
    """The action of the latest searched decision (-1 if none)."""
    n = int(ctl[PLAN_N])
    return int(ctl[ctl[O_PLAN] + (n - 1) * PLAN_WIDTH + 1]) if n > int(ctl[PLAN_PRESET]) else -1


def trace_of(ctl: np.ndarray) -> np.ndarray:
    """The trace rows written by the last game: int64[rows, TRACE_WIDTH]."""
    rows, start = int(ctl[TRACE_ROWS]), int(ctl[O_TRACE])
    return ctl[start:start + rows * TRACE_WIDTH].reshape(rows, TRACE_WIDTH)


@njit(cache=True)
def seat_strategies(ctl, kinds, params, seat_kinds, seat_params):
    """Give each seat its strategy for the current game: with ROTATE, seat s plays slot
    (s + game) mod N, so the rotation of game g is g mod N (recorded by the runner)."""
    n = kinds.shape[0]
    shift = ctl[GAME] % n if ctl[FLAGS] & ROTATE else 0
    searching = False
    for s in range(n):
        slot = (s + shift) % n
        seat_kinds[s] = kinds[slot]
        if s < MAX_SEATS:
            ctl[SEAT_KIND + s] = kinds[slot]
        searching |= kinds[slot] == SEARCH_KIND
        for i in range(params.shape[1]):
            seat_params[s, i] = params[slot, i]
    ctl[N_SEATS] = n
    ctl[SEARCHING] = 1 if searching else 0


@njit(cache=True)
def begin_game(ctl, game, first, kinds, params, seat_kinds, seat_params):
    """Start game ``game`` (``first``: the chunk's first game): reset the per-game counters and
    seat the strategies (``kinds``/``params`` per strategy slot as the user listed them;
    ``seat_kinds``/``seat_params`` receive what each seat plays this game)."""
    ctl[GAME] = game
    ctl[PLAN_N] = ctl[PLAN_PRESET]
    if ctl[FLAGS] & ROTATE or first:
        seat_strategies(ctl, kinds, params, seat_kinds, seat_params)
    ctl[MODE] = REAL if ctl[SEARCHING] else PLAIN
    begin_replay(ctl)


@njit(cache=True)
def begin_replay(ctl):
    """Play the current game (again) from its start."""
    ctl[ASKS] = 0
    ctl[TRACE_ROWS] = 0
    ctl[PERTURBED] = 0
    ctl[STOPPED] = 0
    ctl[PENDING_SEAT] = -1
    ctl[PLAN_CURSOR] = 0
    ctl[SLOW] = 1 if ctl[MODE] != PLAIN or ctl[FLAGS] & TRACE else 0


@njit(cache=True, inline="always")
def active(ctl):
    """True when this decision must go through the controller (the slow path of ``ask``)."""
    return ctl[SLOW] != 0


@njit(cache=True, inline="always")
def stopped(ctl):
    """True when the current game is abandoned: the game's main loop ends it at once."""
    return ctl[STOPPED] != 0


@njit(cache=True)
def redeal_due(ctl):
    """True when the game must redeal hidden information before the decision now being asked:
    at a search's fork, or where a test asked for it."""
    if ctl[MODE] == ITERATE:
        return ctl[ASKS] == ctl[FORK]
    return ctl[FLAGS] & TRACE != 0 and ctl[ASKS] == ctl[REDEAL_AT]


@njit(cache=True)
def rand_below(ctl, n):
    """Uniform integer in [0, n) from the controller's own stream (redeals)."""
    state = np.uint64(ctl[RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ctl[RNG] = np.int64(state)
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def reseed(ctl, streams, own_first, own_count):
    """After a redeal, every random stream but the deciding seat's own (streams
    own_first .. own_first + own_count - 1, see sim.rng.seat_stream) is drawn anew: the other
    seats' future random choices and any later chance are hidden from it too."""
    for i in range(streams.shape[0]):
        if not own_first <= i < own_first + own_count:
            state = np.uint64(ctl[RNG]) + np.uint64(0x9E3779B97F4A7C15)
            ctl[RNG] = np.int64(state)
            streams[i] = mix64(state)


@njit(cache=True)
def needs_hash(ctl, seat):
    """True when the hash of what ``seat`` is handed at this decision is used: by a trace, by a
    search seat's pause in the real game, and inside a search only at the searched seat's
    decisions in the tree (the replayed prefix and the rollout need none, and hashing every
    decision there cost more than the game itself)."""
    if ctl[FLAGS] & TRACE:
        return True
    mode = ctl[MODE]
    if mode == ITERATE:
        return seat == ctl[SEARCHER] and ctl[NODE] >= 0 and ctl[ASKS] >= ctl[FORK]
    return mode == REAL and seat < MAX_SEATS and ctl[SEAT_KIND + seat] == SEARCH_KIND


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


@njit(cache=True, inline="always")
def lowest_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


@njit(cache=True, inline="always")
def forced(legal):
    """True when at most one action is legal: nothing for a search to decide."""
    seen = 0
    for a in range(legal.shape[0]):
        if legal[a]:
            seen += 1
            if seen > 1:
                return False
    return True


@njit(cache=True)
def before_decision(ctl, seat, decision, obs_hash, legal):
    """An action the controller takes itself, or -1 to let the seat's strategy decide.

    A stopped game takes its lowest legal action. In a real game a search seat replays its
    committed decisions and pauses the game at a new one (not at a forced one: a single legal
    action is taken, and the tree skips such decisions too). In a search iteration the decisions
    before the fork replay the real game; from the fork on the searched seat follows the tree
    while it can, and every other decision is left to the strategies (the rollout policy).
    Where the tree widens a node it returns -1 too: the seat's strategy (in an iteration, the
    rollout policy) suggests the new action, and ``after_decision`` hands it to the tree.
    """
    if ctl[STOPPED] != 0:
        return lowest_legal(legal)
    mode = ctl[MODE]
    if mode == REAL and seat < MAX_SEATS and ctl[SEAT_KIND + seat] == SEARCH_KIND:
        cursor = ctl[PLAN_CURSOR]
        row = ctl[O_PLAN] + cursor * PLAN_WIDTH
        if cursor < ctl[PLAN_N] and ctl[row] == ctl[ASKS]:
            ctl[PLAN_CURSOR] = cursor + 1
            return ctl[row + 1]
        if forced(legal):
            return lowest_legal(legal)
        ctl[PENDING_SEAT], ctl[FORK], ctl[STOPPED] = seat, ctl[ASKS], 1
        ctl[SEARCH_RNG] = np.int64(mix64(np.uint64(obs_hash) ^ mix64(
            np.uint64(ctl[GAME] * 1024 + ctl[PLAN_N]))))
        return lowest_legal(legal)
    if mode == ITERATE:
        k = ctl[ASKS]
        if k < ctl[FORK]:
            return ctl[ctl[O_ALL] + k]
        if seat == ctl[SEARCHER] and ctl[NODE] >= 0 and (k == ctl[FORK] or not forced(legal)):
            return search.tree_step(ctl, obs_hash, legal, k == ctl[FORK])
    return -1


@njit(cache=True)
def after_decision(ctl, seat, decision, obs_hash, legal, action, n_events):
    """Record the decision and return the action to take (another legal one when perturbed).

    ``legal`` is the boolean mask the strategy was shown; ``n_events`` the number of events in
    the game's log when the decision was asked (to interleave decisions with events).
    """
    k = ctl[ASKS]
    ctl[ASKS] = k + 1
    mode = ctl[MODE]
    if mode == ITERATE:
        if ctl[WIDEN_AT] > 0:  # the rollout policy suggested the node's new action
            action = search.widen(ctl, legal, action)
        if ctl[NODE] < 0 and k >= ctl[FORK]:
            ctl[SLOW] = 0  # out of the tree: the rollout needs the controller no more
        return action
    if k == ctl[PERTURB_AT] and 0 <= action < legal.shape[0]:
        # the next legal action, cyclically: the same in every replay of the game
        for step in range(1, legal.shape[0]):
            a = (action + step) % legal.shape[0]
            if legal[a]:
                action = a
                ctl[PERTURBED] = 1
                break
    if mode == REAL and ctl[STOPPED] == 0 and k < ctl[ALL_CAP]:
        ctl[ctl[O_ALL] + k] = action
    if ctl[FLAGS] & TRACE:
        row = ctl[TRACE_ROWS]
        if row < ctl[TRACE_CAP]:
            base = ctl[O_TRACE] + row * TRACE_WIDTH
            ctl[base + T_SEAT] = seat
            ctl[base + T_DECISION] = decision
            ctl[base + T_OBS_HASH] = np.int64(obs_hash)
            ctl[base + T_ACTION] = action
            ctl[base + T_EVENTS] = n_events
            ctl[TRACE_ROWS] = row + 1
    return action


# --- the search driver: called by each game's play_chunk (see sim/game.py) --------------------

@njit(cache=True, inline="always")
def search_pending(ctl):
    """True when the real game paused at a search seat's decision."""
    return ctl[PENDING_SEAT] >= 0


@njit(cache=True)
def begin_search(ctl, seat_params):
    """Set up the search of the paused decision; returns the number of iterations."""
    seat = ctl[PENDING_SEAT]
    if ctl[PLAN_N] >= ctl[PLAN_CAP] or ctl[FORK] >= ctl[ALL_CAP]:
        return 0  # no room left: the decision is taken by the rollout policy (see end_search)
    ctl[SEARCHER] = seat
    ctl[BUDGET] = max(1, np.int64(seat_params[seat, 0]))
    ctl[C_UCT] = np.int64(seat_params[seat, 1] * 1e6)
    ctl[WIDEN] = np.int64(seat_params[seat, 3] * 1e6)
    ctl[WIDEN_ALPHA] = np.int64(seat_params[seat, 4] * 1e6)
    ctl[PAIRED] = 1 if seat_params[seat, 5] > 0 else 0
    ctl[WORLD_SEED] = ctl[SEARCH_RNG]
    search.reset(ctl)
    return ctl[BUDGET]


@njit(cache=True)
def begin_iteration(ctl, seat_kinds, seat_params):
    """One more game from the start: the real game's decisions replay up to the fork, where the
    game redeals what the searched seat cannot know. From there every seat plays the searched
    seat's rollout policy (its params[2], with parameters from params[8:]): the search models
    the other players by that policy, never by the strategies really seated, so that it cannot
    exploit knowing an opponent's program."""
    ctl[MODE] = ITERATE
    ctl[ITERATIONS] += 1
    ctl[ASKS] = 0
    ctl[STOPPED] = 0
    ctl[SLOW] = 1
    ctl[NODE] = 0
    ctl[PATH_N] = 0
    ctl[WIDEN_AT] = 0
    ctl[ROOT_PICK] = 0
    state = np.uint64(ctl[SEARCH_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ctl[SEARCH_RNG] = np.int64(state)
    ctl[RNG] = np.int64(mix64(state))  # the redeal draws from the search's own randomness
    if ctl[PAIRED]:  # ... world by world, the same worlds for every root action
        world = np.uint64(search.root_world(ctl) + 1)
        ctl[RNG] = np.int64(mix64(np.uint64(ctl[WORLD_SEED]) + world * np.uint64(0x9E3779B97F4A7C15)))
    me = ctl[SEARCHER]
    if seat_kinds[me] != SEARCH_KIND:
        return  # seated for the rollout by this search's first iteration (end_search re-seats)
    rollout = np.int64(seat_params[me, 2])
    for s in range(seat_kinds.shape[0]):
        if s != me:
            seat_kinds[s] = rollout
            for i in range(seat_params.shape[1]):
                seat_params[s, i] = seat_params[me, i + 8] if i + 8 < seat_params.shape[1] else 0.0
    seat_kinds[me] = rollout
    for i in range(seat_params.shape[1]):
        seat_params[me, i] = seat_params[me, i + 8] if i + 8 < seat_params.shape[1] else 0.0


@njit(cache=True)
def end_iteration(ctl, winners):
    """Back the iteration's result (the searched seat's share of the win) up the tree."""
    seat = ctl[SEARCHER]
    share = 0.0
    if (winners >> seat) & 1:
        k = 0
        for s in range(ctl[N_SEATS]):
            k += (winners >> s) & 1
        share = 1.0 / k
    search.backup(ctl, share)


@njit(cache=True)
def end_search(ctl, kinds, params, seat_kinds, seat_params):
    """Commit the most visited action at the root, re-seat the strategies, and replay."""
    row = ctl[O_PLAN] + ctl[PLAN_N] * PLAN_WIDTH
    if ctl[PLAN_N] < ctl[PLAN_CAP]:
        ctl[row] = ctl[FORK]
        ctl[row + 1] = search.best_root_action(ctl)
        ctl[PLAN_N] += 1
    ctl[MODE] = REAL
    seat_strategies(ctl, kinds, params, seat_kinds, seat_params)
    begin_replay(ctl)
    if ctl[FLAGS] & ONE_DECISION:
        ctl[STOPPED] = 1
