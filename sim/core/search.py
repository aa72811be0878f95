"""The search player's tree: information-set Monte Carlo tree search (Cowling, Powley &
Whitehouse 2012), kept in the decision controller's int64 array (sim/core/control.py, laid out by
sim/core/header.py).

A node is an information set of the searched seat: the hash of everything it was handed at a
decision, chained to the node and action before it. Every iteration samples a world consistent
with what the seat has seen (the game's redeal at the fork), so a node's statistics pool all the
worlds the seat cannot tell apart. Each node holds, per action, its visits N, total reward W
(win share x 1e6, kept integral so that a node stays one int64 row) and availability AV (how
often the action was legal when the node was visited: the ISMCTS form of UCB's parent count).
Other seats play their strategy (for a search seat: its rollout policy) throughout.

A node does not try all its legal actions before it tries one again (a Shuo Jian reply may have
hundreds): progressive widening lets it have tried ceil(W (n + 1)^alpha) of them after n visits,
and each new one is the rollout policy's suggestion, so the policy acts as the prior and the
search spends its budget on the plays the policy favours and on their best alternatives.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..rng import mix64
from .header import H, node_size

SCALE = 1e6
ROOT_KEY = 1


@njit(cache=True)
def reset(ctl):
    """An empty tree with its root."""
    for i in range(ctl[H.TABLE_CAP]):
        ctl[ctl[H.O_TABLE] + i] = 0
    for i in range(1 + 3 * ctl[H.N_ACTIONS]):
        ctl[ctl[H.O_NODES] + i] = 0
    ctl[ctl[H.O_NODES]] = ROOT_KEY
    ctl[H.N_NODES] = 1


@njit(cache=True)
def _lookup(ctl, key, create):
    """Node index of `key`, creating it if asked; -1 if absent (or no room)."""
    slots = ctl[H.TABLE_CAP] // 2
    if slots == 0:
        return -1
    i = np.int64(np.uint64(key) % np.uint64(slots))
    for _ in range(slots):
        at = ctl[H.O_TABLE] + 2 * i
        if ctl[at] == key:
            return ctl[at + 1]
        if ctl[at] == 0:
            if not create or ctl[H.N_NODES] >= ctl[H.NODE_CAP]:
                return -1
            node = ctl[H.N_NODES]
            ctl[H.N_NODES] = node + 1
            base = ctl[H.O_NODES] + node * (1 + 3 * ctl[H.N_ACTIONS])
            for j in range(1 + 3 * ctl[H.N_ACTIONS]):
                ctl[base + j] = 0
            ctl[base] = key
            ctl[at], ctl[at + 1] = key, node
            return node
        i = (i + 1) % slots
    return -1


@njit(cache=True)
def _rand_below(ctl, n):
    """Uniform integer in [0, n) from the search's own stream."""
    state = np.uint64(ctl[H.SEARCH_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    ctl[H.SEARCH_RNG] = np.int64(state)
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def _random_untried(ctl, n_o, legal):
    """One of the legal actions never tried at the node, uniformly (-1 if none)."""
    untried = 0
    for a in range(legal.shape[0]):
        untried += legal[a] and ctl[n_o + a] == 0
    if untried == 0:
        return -1
    r = _rand_below(ctl, untried)
    for a in range(legal.shape[0]):
        if legal[a] and ctl[n_o + a] == 0:
            if r == 0:
                return a
            r -= 1
    return -1


@njit(cache=True)
def widening_limit(widen, alpha, visits, n_legal):
    """How many of a node's legal actions may have been tried after `visits` visits: progressive
    widening, ceil(widen * (visits + 1) ** alpha), at least one; widen = 0 switches it off
    (every legal action is tried once before any is tried again: plain UCB)."""
    if widen <= 0.0:
        return n_legal
    return min(n_legal, max(1, np.int64(np.ceil(widen * (visits + 1.0) ** alpha - 1e-9))))


@njit(cache=True)
def _choose(ctl, node, legal, width, from_av):
    """The node's choice: -1 when it is due a new action (below its widening limit), otherwise
    the tried action with the best UCB value. ``from_av``: before the visit, reading the legal
    actions from the availability counts (the legal set is part of a node's key, so every legal
    action has been counted at each earlier visit; ``legal`` is not read then)."""
    A = ctl[H.N_ACTIONS]
    base = ctl[H.O_NODES] + node * (1 + 3 * A)
    n_o, w_o, av_o = base + 1, base + 1 + A, base + 1 + 2 * A
    n_legal, tried, visits = 0, 0, 0
    for a in range(width):
        if ctl[av_o + a] > 0 if from_av else legal[a]:
            n_legal += 1
            tried += ctl[n_o + a] > 0
            visits += ctl[n_o + a]
    if tried < widening_limit(ctl[H.WIDEN] / SCALE, ctl[H.WIDEN_ALPHA] / SCALE, visits, n_legal):
        return -1
    c = ctl[H.C_UCT] / SCALE
    best, pick = -1e300, -1
    for a in range(width):
        n = ctl[n_o + a]
        if n > 0 and (ctl[av_o + a] > 0 if from_av else legal[a]):
            v = ctl[w_o + a] / (SCALE * n) + c * np.sqrt(np.log(ctl[av_o + a] + from_av) / n)
            if v > best:
                best, pick = v, a
    return pick


@njit(cache=True)
def root_world(ctl):
    """Choose the root's action before the iteration's world is drawn, and return which world
    to draw: the k-th iteration through a root action plays world k (the same k-th world for
    every action), so that root actions are compared on the same worlds (common random
    numbers: with deterministic rollouts most of the outcome is the world's)."""
    pick = _choose(ctl, 0, ctl, ctl[H.N_ACTIONS], True)
    ctl[H.ROOT_PICK] = pick + 2
    return ctl[ctl[H.O_NODES] + 1 + pick] if pick >= 0 else 0


@njit(cache=True)
def _descend(ctl, node, pick, added):
    """Put (node, pick) on the iteration's path; after a new node the iteration leaves the tree."""
    depth = ctl[H.PATH_N]
    if depth < ctl[H.PATH_CAP] // 2:
        ctl[ctl[H.O_PATH] + 2 * depth] = node
        ctl[ctl[H.O_PATH] + 2 * depth + 1] = pick
        ctl[H.PATH_N] = depth + 1
    ctl[H.NODE] = -1 if added else node
    ctl[H.LAST_ACTION] = pick


@njit(cache=True)
def tree_step(ctl, obs_hash, legal, at_root):
    """The searched seat decides inside the tree: find (or add) its node, then either widen it
    (return -1: the rollout policy suggests the new action, see `widen`) or pick among the
    actions tried there by UCB. After adding a node the iteration leaves the tree; -1 with no
    widening pending = no room: the rollout decides."""
    A = ctl[H.N_ACTIONS]
    added = False
    if at_root:
        node = 0
    else:
        parent = ctl[H.O_NODES] + ctl[H.NODE] * (1 + 3 * A)
        key = np.int64(mix64(np.uint64(ctl[parent]) ^ mix64(np.uint64(obs_hash)
                                                            + np.uint64(ctl[H.LAST_ACTION] + 7))))
        if key == 0:
            key = 2
        node = _lookup(ctl, key, False)
        if node < 0:
            node = _lookup(ctl, key, True)
            added = True
            if node < 0:
                ctl[H.NODE] = -1
                return -1
    base = ctl[H.O_NODES] + node * (1 + 3 * A)
    n_o, av_o = base + 1, base + 1 + 2 * A
    lg = legal[:min(A, legal.shape[0])]
    for a in range(lg.shape[0]):
        if lg[a]:
            ctl[av_o + a] += 1
    pick = -2
    if at_root and ctl[H.ROOT_PICK] != 0:  # chosen before the world was drawn (root_world)
        pick = ctl[H.ROOT_PICK] - 2
        if pick >= 0 and not (pick < lg.shape[0] and lg[pick] and ctl[n_o + pick] > 0):
            pick = -2
    if pick == -2:
        pick = _choose(ctl, node, lg, lg.shape[0], False)
    if pick < 0:  # a new action
        if ctl[H.WIDEN] > 0:
            ctl[H.WIDEN_AT] = node + 1
            ctl[H.NODE] = -1 if added else node
            return -1
        pick = _random_untried(ctl, n_o, lg)
    _descend(ctl, node, pick, added)
    return pick


@njit(cache=True)
def widen(ctl, legal, suggested):
    """The node pending widening takes its new action: the one the rollout policy suggested
    (the policy is the prior), or a random untried legal one when that was tried already or is
    not legal. Returns the action to play."""
    node = ctl[H.WIDEN_AT] - 1
    ctl[H.WIDEN_AT] = 0
    added = ctl[H.NODE] < 0
    A = ctl[H.N_ACTIONS]
    n_o = ctl[H.O_NODES] + node * (1 + 3 * A) + 1
    lg = legal[:min(A, legal.shape[0])]
    pick = suggested
    if not (0 <= pick < lg.shape[0] and lg[pick] and ctl[n_o + pick] == 0):
        other = _random_untried(ctl, n_o, lg)
        pick = other if other >= 0 else suggested
    if 0 <= pick < lg.shape[0]:
        _descend(ctl, node, pick, added)
    else:
        ctl[H.NODE] = -1
    return pick


@njit(cache=True)
def backup(ctl, share):
    """Add the iteration's reward to every (node, action) on its path."""
    A = ctl[H.N_ACTIONS]
    reward = np.int64(share * SCALE + 0.5)
    for d in range(ctl[H.PATH_N]):
        node, a = ctl[ctl[H.O_PATH] + 2 * d], ctl[ctl[H.O_PATH] + 2 * d + 1]
        base = ctl[H.O_NODES] + node * (1 + 3 * A)
        ctl[base + 1 + a] += 1
        ctl[base + 1 + A + a] += reward


@njit(cache=True)
def best_root_action(ctl):
    """The most visited action at the root (-1 if none was tried)."""
    A = ctl[H.N_ACTIONS]
    base = ctl[H.O_NODES]
    best, pick = 0, -1
    for a in range(A):
        if ctl[base + 1 + a] > best:
            best, pick = ctl[base + 1 + a], a
    return pick
