"""The decision controller: the engine's hand on every decision of a controlled kernel.

A kernel runs controlled when the runner hands it a controller array ``ctl``
(sim/core/header.py lays it out); with ``ctl=None`` none of this is compiled (sim/core/hooks.py,
``by_controller``). The protocol's controlled ``ask`` (sim/core/protocol.py) hands the
controller each decision before and after the strategy answers. It serves:

- the observation conformance test (tests/engine/test_observation.py): ``TRACE`` records every
  decision (seat, decision type, a hash of exactly the arrays handed to the strategy, action);
  ``perturb_at`` makes one decision take another legal action; ``redeal_at`` asks the game to
  re-randomise everything the deciding seat has not observed before that decision;
- the search player (sim/core/search.py): a game with a search seat is replayed from its start
  up to each of that seat's decisions ("real" mode, which pauses there), and every search
  iteration replays it once more, forks at the decision with everything hidden redealt, and
  plays on ("iterate" mode). Replaying instead of copying a paused state keeps the rules as
  plain code that asks seats as it goes (docs/search.md measures both costs);
- a game continued from its history (a preset plan of decisions, ``new_ctl(plan=...)``): the
  search seats' decisions (a search continued), or with ``REPLAY`` every seat's (a live game
  replayed from its history, sim/live.py), optionally redealt for the seat asked at
  ``redeal_at`` (a world resampled for that seat).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..rng import mix64
from . import search
from .header import H, ITERATE, ONE_DECISION, PLAIN, PLAN_WIDTH, REAL, REPLAY, TRACE, \
    TRACE_WIDTH, T_ACTION, T_DECISION, T_EVENTS, T_OBS_HASH, T_SEAT, MAX_SEATS
from .hooks import by_controller
from .state import SEARCH_KIND


@njit(cache=True)
def seated(ctl, game, ints, first_kind, stride, n):
    """Start game ``game``: note which seats search (seat s's kind is ints[first_kind + s *
    stride]), and replay it from its start."""
    ctl[H.GAME] = game
    ctl[H.PLAN_N] = ctl[H.PLAN_PRESET]
    searching = False
    for s in range(min(n, MAX_SEATS)):
        kind = ints[first_kind + s * stride]
        ctl[H.SEAT_KIND + s] = kind
        searching |= kind == SEARCH_KIND
    ctl[H.N_SEATS] = n
    ctl[H.SEARCHING] = 1 if searching else 0
    ctl[H.MODE] = REAL if searching else PLAIN
    begin_replay(ctl)


@by_controller(lambda ctl, game, ints, first_kind, stride, n: None)
def begin_game(ctl, game, ints, first_kind, stride, n):
    seated(ctl, game, ints, first_kind, stride, n)


@njit(cache=True)
def begin_replay(ctl):
    """Play the current game (again) from its start."""
    ctl[H.ASKS] = 0
    ctl[H.TRACE_ROWS] = 0
    ctl[H.PERTURBED] = 0
    ctl[H.STOPPED] = 0
    ctl[H.PENDING_SEAT] = -1
    ctl[H.PLAN_CURSOR] = 0
    ctl[H.SLOW] = 1 if ctl[H.MODE] != PLAIN or ctl[H.FLAGS] & (TRACE | REPLAY) else 0


@by_controller(lambda ctl: False)
def active(ctl):
    """True when this decision must go through the controller (the protocol's controlled ask)."""
    return ctl[H.SLOW] != 0


@by_controller(lambda ctl: False)
def stopped(ctl):
    """True when the current game is abandoned: the game's main loop ends it at once."""
    return ctl[H.STOPPED] != 0


@by_controller(lambda ctl: False)
def search_pending(ctl):
    """True when the real game paused at a search seat's decision."""
    return ctl[H.PENDING_SEAT] >= 0


@njit(cache=True)
def redeal_due(ctl):
    """True when the game must redeal hidden information before the decision now being asked:
    at a search's fork, or where a test asked for it."""
    if ctl[H.MODE] == ITERATE:
        return ctl[H.ASKS] == ctl[H.FORK]
    return ctl[H.FLAGS] & (TRACE | REPLAY) != 0 and ctl[H.ASKS] == ctl[H.REDEAL_AT]


@njit(cache=True)
def rand_below(ctl, n):
    """Uniform integer in [0, n) from the controller's own stream (redeals)."""
    state = np.uint64(ctl[H.RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ctl[H.RNG] = np.int64(state)
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def reseed(ctl, streams, own_first, own_count):
    """Before a redeal, every random stream but the deciding seat's own (streams
    own_first .. own_first + own_count - 1, see sim.rng.seat_stream) is drawn anew: the other
    seats' future random choices and any later chance are hidden from it too."""
    for i in range(streams.shape[0]):
        if not own_first <= i < own_first + own_count:
            state = np.uint64(ctl[H.RNG]) + np.uint64(0x9E3779B97F4A7C15)
            ctl[H.RNG] = np.int64(state)
            streams[i] = mix64(state)


@njit(cache=True)
def needs_hash(ctl, seat):
    """True when the hash of what ``seat`` is handed at this decision is used: by a trace, by a
    search seat's pause in the real game, and inside a search only at the searched seat's
    decisions in the tree (the replayed prefix and the rollout need none, and hashing every
    decision there cost more than the game itself)."""
    if ctl[H.FLAGS] & TRACE:
        return True
    mode = ctl[H.MODE]
    if mode == ITERATE:
        return seat == ctl[H.SEARCHER] and ctl[H.NODE] >= 0 and ctl[H.ASKS] >= ctl[H.FORK]
    return mode == REAL and seat < MAX_SEATS and ctl[H.SEAT_KIND + seat] == SEARCH_KIND


@njit(cache=True)
def lowest_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


@njit(cache=True)
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
    committed decisions and pauses the game at a new one; with ``REPLAY`` every seat replays the
    plan's decisions, and asks its strategy past them. In a search iteration the decisions
    before the fork replay the real game; from the fork on the searched seat follows the tree
    while it can, and every other decision is left to the strategies (the rollout policy).
    Where the tree widens a node it returns -1 too: the seat's strategy (in an iteration, the
    rollout policy) suggests the new action, and ``after_decision`` hands it to the tree.
    (Forced decisions never reach the controller: the protocol takes them itself.)
    """
    if ctl[H.STOPPED] != 0:
        return lowest_legal(legal)
    mode = ctl[H.MODE]
    searcher = mode == REAL and seat < MAX_SEATS and ctl[H.SEAT_KIND + seat] == SEARCH_KIND
    if searcher or (mode != ITERATE and (ctl[H.FLAGS] & REPLAY) != 0):
        cursor = ctl[H.PLAN_CURSOR]
        row = ctl[H.O_PLAN] + cursor * PLAN_WIDTH
        if cursor < ctl[H.PLAN_N] and ctl[row] == ctl[H.ASKS]:
            ctl[H.PLAN_CURSOR] = cursor + 1
            return ctl[row + 1]
    if searcher:
        ctl[H.PENDING_SEAT], ctl[H.FORK], ctl[H.STOPPED] = seat, ctl[H.ASKS], 1
        ctl[H.SEARCH_RNG] = np.int64(mix64(np.uint64(obs_hash) ^ mix64(
            np.uint64(ctl[H.GAME] * 1024 + ctl[H.PLAN_N]))))
        return lowest_legal(legal)
    if mode == ITERATE:
        k = ctl[H.ASKS]
        if k < ctl[H.FORK]:
            return ctl[ctl[H.O_ALL] + k]
        if seat == ctl[H.SEARCHER] and ctl[H.NODE] >= 0:
            return search.tree_step(ctl, obs_hash, legal, k == ctl[H.FORK])
    return -1


@njit(cache=True)
def after_decision(ctl, seat, decision, obs_hash, legal, action, n_events):
    """Record the decision and return the action to take (another legal one when perturbed).

    ``legal`` is the boolean mask the strategy was shown; ``n_events`` the number of events in
    the game's log when the decision was asked (to interleave decisions with events).
    """
    k = ctl[H.ASKS]
    ctl[H.ASKS] = k + 1
    mode = ctl[H.MODE]
    if mode == ITERATE:
        if ctl[H.WIDEN_AT] > 0:  # the rollout policy suggested the node's new action
            action = search.widen(ctl, legal, action)
        if ctl[H.NODE] < 0 and k >= ctl[H.FORK]:
            ctl[H.SLOW] = 0  # out of the tree: the rollout needs the controller no more
        return action
    if k == ctl[H.PERTURB_AT] and 0 <= action < legal.shape[0]:
        # the next legal action, cyclically: the same in every replay of the game
        for step in range(1, legal.shape[0]):
            a = (action + step) % legal.shape[0]
            if legal[a]:
                action = a
                ctl[H.PERTURBED] = 1
                break
    if mode == REAL and ctl[H.STOPPED] == 0 and k < ctl[H.ALL_CAP]:
        ctl[ctl[H.O_ALL] + k] = action
    if ctl[H.FLAGS] & TRACE:
        row = ctl[H.TRACE_ROWS]
        if row < ctl[H.TRACE_CAP]:
            base = ctl[H.O_TRACE] + row * TRACE_WIDTH
            ctl[base + T_SEAT] = seat
            ctl[base + T_DECISION] = decision
            ctl[base + T_OBS_HASH] = np.int64(obs_hash)
            ctl[base + T_ACTION] = action
            ctl[base + T_EVENTS] = n_events
            ctl[H.TRACE_ROWS] = row + 1
    return action


# --- the search of a paused decision (sim/core/protocol.search_paused_decision) --------------

@njit(cache=True)
def begin_search(ctl, seat_params):
    """Set up the search of the paused decision; returns the number of iterations."""
    seat = ctl[H.PENDING_SEAT]
    if ctl[H.PLAN_N] >= ctl[H.PLAN_CAP] or ctl[H.FORK] >= ctl[H.ALL_CAP]:
        return 0  # no room left: the decision is taken by the rollout policy (see end_search)
    ctl[H.SEARCHER] = seat
    ctl[H.BUDGET] = max(1, np.int64(seat_params[seat, 0]))
    ctl[H.C_UCT] = np.int64(seat_params[seat, 1] * 1e6)
    ctl[H.WIDEN] = np.int64(seat_params[seat, 3] * 1e6)
    ctl[H.WIDEN_ALPHA] = np.int64(seat_params[seat, 4] * 1e6)
    ctl[H.PAIRED] = 1 if seat_params[seat, 5] > 0 else 0
    ctl[H.WORLD_SEED] = ctl[H.SEARCH_RNG]
    search.reset(ctl)
    return ctl[H.BUDGET]


@njit(cache=True)
def begin_iteration(ctl):
    """One more game from the start: the real game's decisions replay up to the fork, where the
    game redeals what the searched seat cannot know (from the search's own randomness, world by
    world when root actions are paired). The protocol seats the rollout policy at every seat."""
    ctl[H.MODE] = ITERATE
    ctl[H.ITERATIONS] += 1
    ctl[H.ASKS] = 0
    ctl[H.STOPPED] = 0
    ctl[H.SLOW] = 1
    ctl[H.NODE] = 0
    ctl[H.PATH_N] = 0
    ctl[H.WIDEN_AT] = 0
    ctl[H.ROOT_PICK] = 0
    state = np.uint64(ctl[H.SEARCH_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ctl[H.SEARCH_RNG] = np.int64(state)
    ctl[H.RNG] = np.int64(mix64(state))
    if ctl[H.PAIRED]:  # ... the same worlds for every root action
        world = np.uint64(search.root_world(ctl) + 1)
        ctl[H.RNG] = np.int64(mix64(np.uint64(ctl[H.WORLD_SEED]) + world * np.uint64(0x9E3779B97F4A7C15)))
    return ctl[H.SEARCHER]


@njit(cache=True)
def iteration_draw(ctl):
    """The current iteration's own random key (the world's, when root actions are paired)."""
    return np.uint64(ctl[H.RNG])


@njit(cache=True)
def end_iteration(ctl, winners):
    """Back the iteration's result (the searched seat's share of the win) up the tree."""
    seat = ctl[H.SEARCHER]
    share = 0.0
    if (winners >> seat) & 1:
        k = 0
        for s in range(ctl[H.N_SEATS]):
            k += (winners >> s) & 1
        share = 1.0 / k
    search.backup(ctl, share)


@njit(cache=True)
def end_search(ctl):
    """Commit the most visited action at the root and replay the real game."""
    row = ctl[H.O_PLAN] + ctl[H.PLAN_N] * PLAN_WIDTH
    if ctl[H.PLAN_N] < ctl[H.PLAN_CAP]:
        ctl[row] = ctl[H.FORK]
        ctl[row + 1] = search.best_root_action(ctl)
        ctl[H.PLAN_N] += 1
    ctl[H.MODE] = REAL
    begin_replay(ctl)
    if ctl[H.FLAGS] & ONE_DECISION:
        ctl[H.STOPPED] = 1
