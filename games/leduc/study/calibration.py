"""Leduc poker against the truth: the exact exploitability (NashConv) of any policy our engine
plays, computed on OpenSpiel's ``leduc_poker`` game tree.

A policy of ours is a function of what a seat observes (games/leduc/kernel.py's Observation). The
tree is walked once: at each of OpenSpiel's 936 information states the walk builds the
observation our kernel hands a seat there (its public table and its card), so a strategy's
action probabilities there are read from our own code (``games.leduc.strategies``: a built-in's
``builtin_probabilities``, a trained policy's ``features`` and weights) and become an OpenSpiel
``TabularPolicy``. ``nash_conv`` is OpenSpiel's ``exploitability.nash_conv`` of that policy (the
reference); ``fast_nash_conv`` computes the same number from arrays of the same tree in about a
millisecond (best responses by backward induction), what training minimises. The tests check
that both agree and that the walk's observations are the kernel's (games/leduc/tests). Needs OpenSpiel
(the calibration extra).
"""
from __future__ import annotations

import re
import time
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from sim.errors import RunError
from games.leduc import layout as L

DEFAULT_RULES = {"ante": 1, "raises": (2, 4), "max_raises": 2}   # OpenSpiel's leduc_poker
CHANCE, DECISION, TERMINAL = 0, 1, 2


def require_openspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise RunError("Leduc poker's exploitability needs OpenSpiel: pip install "
                       "'balance-toolkit[calibration]'") from None


def load_game():
    require_openspiel()
    import pyspiel

    return pyspiel.load_game("leduc_poker")


class Tree(NamedTuple):
    """OpenSpiel's leduc_poker tree as arrays, nodes in walk order (a parent before its children)."""
    keys: list             # information state strings, in TabularPolicy's row order
    observations: list     # our Observation at each information state
    legal: np.ndarray      # bool[I, 3]
    owner: np.ndarray      # int64[I]: the seat that acts there
    kind: np.ndarray       # int64[N]: CHANCE, DECISION, TERMINAL
    depth: np.ndarray      # int64[N]
    parent: np.ndarray     # int64[N] (-1 at the root)
    action: np.ndarray     # int64[N]: the action (or chance outcome) that led here
    chance: np.ndarray     # float64[N]: its probability after a chance node, else 1
    infoset: np.ndarray    # int64[N]: the information state of a decision node, else -1
    player: np.ndarray     # int64[N]: the seat acting at a decision node, else -1
    utility: np.ndarray    # float64[N]: seat 0's return at a terminal node, else 0
    child: np.ndarray      # int64[N, 3]: a decision node's child per action, -1 if illegal


def _after(pub, seat, action):
    """The public table after ``seat`` plays ``action`` (the kernel's bookkeeping, LP-3/LP-4)."""
    pub = pub.copy()
    rnd, k = pub[L.U.ROUND], pub[L.U.ACTED]
    pub[L.U.ACTIONS + L.ROUND_SLOTS * rnd + k] = action
    pub[L.U.ACTED] = k + 1
    if action != L.FOLD:
        pub[L.U.POT0 + seat] = pub[L.U.POT0 + 1 - seat]
    if action == L.RAISE:
        pub[L.U.POT0 + seat] += DEFAULT_RULES["raises"][rnd]
        pub[L.U.RAISES] += 1
    return pub


def _dealt(pub, card):
    """Round 2 begins with the public card (LP-5)."""
    pub = pub.copy()
    pub[L.U.ROUND], pub[L.U.PUBLIC], pub[L.U.RAISES], pub[L.U.ACTED] = 1, card, 0, 0
    return pub


@lru_cache(maxsize=1)
def tree() -> Tree:
    from open_spiel.python import policy as openspiel_policy

    from sim.games import get_game

    Observation = get_game("leduc").observation_class   # registers the game's kernel cache first
    game = load_game()
    lookup = openspiel_policy.TabularPolicy(game).state_lookup
    keys = sorted(lookup, key=lookup.get)
    observations, legal, owner = [None] * len(keys), np.zeros((len(keys), 3), bool), \
        np.zeros(len(keys), np.int64)
    nodes = []   # (kind, depth, parent, action, chance, infoset, player, utility)
    start = np.full(L.PUB_SIZE, -1, np.int64)
    start[[L.U.ROUND, L.U.RAISES, L.U.ACTED]] = 0
    start[[L.U.POT0, L.U.POT1]] = DEFAULT_RULES["ante"]
    stack = [(game.new_initial_state(), start, 0, -1, -1, 1.0)]
    while stack:
        state, pub, depth, parent, action, p = stack.pop()
        me = len(nodes)
        if state.is_terminal():
            nodes.append((TERMINAL, depth, parent, action, p, -1, -1, state.returns()[0]))
            continue
        if state.is_chance_node():
            nodes.append((CHANCE, depth, parent, action, p, -1, -1, 0.0))
            in_round_2 = len(state.history()) >= 2
            for outcome, q in state.chance_outcomes():
                stack.append((state.child(outcome), _dealt(pub, outcome) if in_round_2 else pub,
                              depth + 1, me, outcome, q))
            continue
        seat = state.current_player()
        key = state.information_state_string(seat)
        i = lookup[key]
        if observations[i] is None:
            money = [int(m) for m in re.search(r"\[Money: (\d+) (\d+)\]", key).groups()]
            if [100 - m for m in money] != [pub[L.U.POT0], pub[L.U.POT1]]:
                raise AssertionError(f"the walk's pots {pub[2:4]} are not OpenSpiel's at {key}")
            card = state.history()[seat]
            observations[i] = Observation(pub, np.array([card], np.int64))
            legal[i, state.legal_actions()] = True
            owner[i] = seat
        nodes.append((DECISION, depth, parent, action, p, i, seat, 0.0))
        for a in state.legal_actions():
            stack.append((state.child(a), _after(pub, seat, a), depth + 1, me, a, 1.0))
    kind, depth, parent, action, chance, infoset, player, utility = map(np.array, zip(*nodes))
    child = np.full((len(nodes), 3), -1, np.int64)
    decided = kind[parent[1:]] == DECISION
    child[parent[1:][decided], action[1:][decided]] = np.arange(1, len(nodes))[decided]
    return Tree(keys, observations, legal, owner, kind, depth, parent, action,
                chance.astype(float), infoset, player, utility.astype(float), child)


# --- a strategy's action probabilities at every information state ------------------------------

def uniform_probs() -> np.ndarray:
    legal = tree().legal
    return legal / legal.sum(axis=1, keepdims=True)


def builtin_probs(kind: int, params) -> np.ndarray:
    t = tree()
    from games.leduc.strategies import builtin_probabilities

    params = np.asarray(params, float)
    return np.array([builtin_probabilities(kind, obs, legal, params)
                     for obs, legal in zip(t.observations, t.legal)])


@lru_cache(maxsize=1)
def feature_tensor() -> np.ndarray:
    """phi[I, action, feature]: the trained policy's features at every information state,
    from games.leduc.strategies.features itself."""
    t = tree()
    from sim.core.policy import dense_features
    from games.leduc.strategies import N_FEATURES, SPARSE_FEATURES, features

    phi = np.zeros((len(t.keys), L.N_ACTIONS, N_FEATURES + 1))
    rng = np.zeros(1, np.uint64)
    for i, (obs, legal) in enumerate(zip(t.observations, t.legal)):
        features(0, t.owner[i], obs, legal, rng, phi[i])
    return dense_features(phi, SPARSE_FEATURES, N_FEATURES)


def trained_probs(weights, temperature: float = 1.0) -> np.ndarray:
    """A trained policy's probabilities (sim/core/policy.py: softmax of the scores, linear or
    with hidden units, over the legal actions at ``temperature``; 0 plays the first
    best-scored action)."""
    from sim.trained import scores as policy_scores

    legal = tree().legal
    scores = np.where(legal, policy_scores(np.asarray(weights, float).reshape(-1),
                                           feature_tensor()), -np.inf)
    if temperature <= 0:
        return np.eye(L.N_ACTIONS)[scores.argmax(axis=1)]
    z = np.exp((scores - scores.max(axis=1, keepdims=True)) / temperature)
    return z / z.sum(axis=1, keepdims=True)


def strategy_probs(strategy) -> np.ndarray:
    """The probabilities of a seat: a built-in name or Strategy, or a trained one (``trained``,
    ``trained:FILE``)."""
    from sim.core.policy import FEATURES, HIDDEN, TEMPERATURE, WEIGHTS
    from sim.core.state import RANDOM, TRAINED
    from sim.games import get_game
    from sim.strategy import resolve_seats
    from sim.trained import block_width

    spec = get_game("leduc")
    seat = resolve_seats(spec, [strategy, "random"], 2)
    kind, params = int(seat.kinds[0]), np.asarray(seat.params[0], float)
    if kind == RANDOM:
        return uniform_probs()
    if kind == TRAINED:
        width = block_width(int(params[FEATURES]), int(params[HIDDEN]))
        return trained_probs(params[WEIGHTS:WEIGHTS + width], params[TEMPERATURE])
    return builtin_probs(kind, params)


def field_exactly(path) -> tuple[float, str]:
    """The FIELD recipe's ``exact`` measure of a one-member field file (sim/field.py): its
    member's NashConv. (A mixture of several members would need each information state's
    probabilities weighted by how often each member reaches it; the shipped field has one.)"""
    from sim import field as F
    from sim.games import get_game

    body = F.load(path, get_game("leduc"))
    if len(body["members"]) != 1:
        raise RunError(f"{path}: the exact NashConv is computed for a one-member field only")
    member = body["members"][0]
    probs = (trained_probs(member["weights"], member.get("temperature", 0.0)) if "weights" in member
             else strategy_probs(member["strategy"]))
    return nash_conv(probs), "exact NashConv (OpenSpiel, chips; 0 at an equilibrium)"


# --- exploitability ---------------------------------------------------------------------------

def tabular_policy(probs):
    """OpenSpiel's TabularPolicy of leduc_poker with these probabilities (rows: information
    states in ``tree().keys`` order, which is the policy's own)."""
    from open_spiel.python import policy as openspiel_policy

    policy = openspiel_policy.TabularPolicy(load_game())
    policy.action_probability_array[:] = np.asarray(probs, float)
    return policy


def nash_conv(probs) -> float:
    """OpenSpiel's exact NashConv of the policy (0 at an equilibrium)."""
    from open_spiel.python.algorithms import exploitability

    return float(exploitability.nash_conv(load_game(), tabular_policy(probs)))


@lru_cache(maxsize=2)
def _levels(seat: int) -> tuple[list, list]:
    """The tree's levels as index arrays for ``best_response_value`` of ``seat``: going down,
    (nodes, parents, chance weights, which of them follow the other seat's decision, at which
    information state and action); going up, (children whose value passes to their parent,
    those parents, the seat's own decision nodes, their information states, their children)."""
    t = tree()
    down, up = [], []
    for d in range(1, t.depth.max() + 1):
        at = np.flatnonzero(t.depth == d)
        parents = t.parent[at]
        weight = np.where(t.kind[parents] == CHANCE, t.chance[at], 1.0)
        theirs = np.flatnonzero((t.kind[parents] == DECISION) & (t.player[parents] != seat))
        down.append((at, parents, weight, theirs, t.infoset[parents[theirs]], t.action[at[theirs]]))
    for d in range(t.depth.max() - 1, -1, -1):
        at = np.flatnonzero((t.depth == d) & (t.kind != TERMINAL))
        mine = at[(t.kind[at] == DECISION) & (t.player[at] == seat)]
        below = np.flatnonzero(t.depth == d + 1)
        passing = below[~np.isin(t.parent[below], mine)]
        up.append((passing, t.parent[passing], mine, t.infoset[mine], t.child[mine]))
    return down, up


def best_response_value(probs, seat: int) -> float:
    """What a best response of ``seat`` earns against the policy at the other seat, by
    backward induction over the tree's levels: an information state of ``seat`` takes the
    action whose children's values, weighted by the chance and the other seat's reach, sum
    highest over its histories."""
    t = tree()
    probs = np.asarray(probs, float)
    down, up = _levels(seat)
    reach = np.ones(len(t.kind))
    for at, parents, weight, theirs, infosets, actions in down:
        weight = weight.copy()
        weight[theirs] = probs[infosets, actions]
        reach[at] = reach[parents] * weight
    value = np.where(t.kind == TERMINAL, (1.0 if seat == 0 else -1.0) * t.utility * reach, 0.0)
    q = np.zeros((len(t.keys), L.N_ACTIONS))
    for passing, parents, mine, infosets, children in up:
        np.add.at(value, parents, value[passing])
        if len(mine):
            q[:] = 0.0
            np.add.at(q, infosets, np.where(children >= 0, value[children], 0.0))
            best = np.where(t.legal, q, -np.inf).argmax(axis=1)
            value[mine] = value[children[np.arange(len(mine)), best[infosets]]]
    return float(value[0])


def fast_nash_conv(probs) -> float:
    """The NashConv of the policy from the tree's arrays (Leduc is zero-sum: the sum of both
    seats' best-response values)."""
    return best_response_value(probs, 0) + best_response_value(probs, 1)


def objective(weights) -> float:
    """Training objective (analysis.training.train(objective=...)): minus the NashConv of the
    trained policy at temperature 1."""
    return -fast_nash_conv(trained_probs(weights, 1.0))


# --- the table games/leduc/RULES.md records -----------------------------------------------------

def cfr_after(seconds: float) -> tuple[float, int]:
    """OpenSpiel's CFR (its Python CFRSolver) run for ``seconds`` of CPU time: the NashConv of
    its average policy, and the iterations done."""
    from open_spiel.python.algorithms import cfr, exploitability

    game = load_game()
    solver = cfr.CFRSolver(game)
    start, done = time.process_time(), 0
    while time.process_time() - start < seconds:
        solver.evaluate_and_update_policy()
        done += 1
    return float(exploitability.nash_conv(game, solver.average_policy())), done


def calibration_table(policy=None, cfr_seconds: float | None = None):
    """One row per policy: its exact NashConv (OpenSpiel's). ``policy``: a trained policy file to
    include (default: the shipped one, if any); ``cfr_seconds``: add OpenSpiel's CFR after that
    much CPU time (e.g. the trained policy's training time)."""
    import pandas as pd

    from sim import trained as T
    from sim.games import get_game

    spec = get_game("leduc")
    named = {name: strategy_probs(name) for name in spec.strategies}
    path = policy or T.shipped_path(spec, 2)
    if path is not None:
        named[f"trained ({path})"] = strategy_probs(f"trained:{path}")
    rows = [{"policy": name, "nash_conv": nash_conv(p)} for name, p in named.items()]
    if cfr_seconds:
        value, iterations = cfr_after(cfr_seconds)
        rows.append({"policy": f"OpenSpiel CFR, {iterations} iterations ({cfr_seconds:.0f} s "
                               "CPU)", "nash_conv": value})
    return pd.DataFrame(rows)


__all__ = ["tree", "uniform_probs", "builtin_probs", "trained_probs", "strategy_probs",
           "tabular_policy", "nash_conv", "fast_nash_conv", "best_response_value", "objective",
           "cfr_after", "calibration_table"]


if __name__ == "__main__":  # python -m games.leduc.study.calibration [POLICY] [CFR_SECONDS]
    import sys

    args = sys.argv[1:]
    print(calibration_table(args[0] if args else None,
                            float(args[1]) if len(args) > 1 else None)
          .to_string(index=False, float_format="%.4f"))
