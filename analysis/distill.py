"""Expert iteration's distillation step: fit a trained policy to a search player's choices.

``record`` plays games of a search seat (``ismcts:...``) against opponents, one kernel call per
searched decision (the game's history as the controller's plan, ``one_decision``), and keeps the
root's visit counts: how strongly the search preferred each legal action, not only which one it
took. Each game is then replayed in ``sim.live.LiveGame`` to compute the policy's features of
every legal action at those decisions. ``fit`` fits the policy class of sim/core/policy.py
(linear scores, optionally tanh units) to the visit counts by cross-entropy, per decision type.

Why visit counts, sharpened: at its default budget the search's top two actions are often a few
visits apart, so its argmax is a noisy label. Fitting the argmax (hard labels) or the raw visit
shares (nearly uniform, so the fit flattens every score and reorders the argmax) gave Sunzi
policies weaker than ``counter``; visit counts raised to 1/sharpen (0.3) gave one level with the
shipped field (docs/training.md, "Expert iteration, measured").
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed
from scipy.optimize import minimize

from sim import trained as T
from sim.errors import RunError
from sim.games import get_game


class Sample(NamedTuple):
    """One searched decision with at least two legal actions."""
    game: int              # game index (seed's stream)
    decision: int          # decision type
    phi: np.ndarray        # float[n_legal, n_features]: the policy's features per legal action
    visits: np.ndarray     # float[n_legal]: the search's root visits per legal action
    chosen: int            # position in the legal actions of the action the search took


def _record_games(game, search, opponents, seed, games):
    from sim.core.header import H, PLAN_WIDTH, last_searched, root_visits
    from sim.live import LiveGame
    from sim.rng import master_key
    from sim.runner import as_rules, play_kernel
    from sim.strategy import resolve_seats

    spec = get_game(game)
    rules = as_rules(spec, None)
    n, features = rules.n_seats, T._strategies_module(spec).features
    f = T.n_features(spec)
    phi = np.zeros((spec.n_actions, f + 1))
    samples = []
    for g in games:
        seat = (g // len(opponents)) % n
        lineup = [opponents[g % len(opponents)]] * n
        lineup[seat] = search
        seats = resolve_seats(spec, lineup, n)
        plan, visits = [], {}
        while True:
            ctl = seats.controller(spec, plan=plan, one_decision=True)
            play_kernel(spec, rules.kernel_args(), seats, master_key(seed), g, 1, None, ctl)
            action = last_searched(ctl)
            if action < 0:
                break
            ask = int(ctl[ctl[H.O_PLAN] + (int(ctl[H.PLAN_N]) - 1) * PLAN_WIDTH])
            visits[ask] = root_visits(ctl)
            plan.append((ask, action))
        taken = dict(plan)
        live = LiveGame(game, None, [None] * n, seed, g)
        everything = ctl[ctl[H.O_ALL]:ctl[H.O_ALL] + int(ctl[H.ASKS])].copy()
        while live.pending is not None:
            d = live.pending
            action = int(everything[d.ask])
            legal = np.flatnonzero(d.legal)
            if d.ask in taken and len(legal) > 1:
                phi[:] = 0.0
                # a fresh stream per decision, so that features which draw (a heuristic's
                # jitter) do not depend on which decisions this process computed before
                features(d.decision, d.seat, d.obs, d.legal.copy(), np.zeros(1, np.uint64), phi)
                samples.append(Sample(g, int(d.decision), phi[legal, :f].copy(),
                                      visits[d.ask][legal].astype(float),
                                      int(np.searchsorted(legal, action))))
            live.play(action)
    return samples


def record(game: str, search: str, opponents, n_games: int, seed: int = 0, jobs: int = 1,
           chunk: int = 25) -> list[Sample]:
    """The search's decisions in ``n_games`` games: game g seats it at seat (g // k) mod n
    against opponent g mod k (k opponents, the others seats too). The samples depend on the
    seed and game indices only, not on ``jobs`` or ``chunk``."""
    opponents = [opponents] if isinstance(opponents, str) else list(opponents)
    if not opponents or n_games < 1 or chunk < 1:
        raise RunError(f"record needs at least one opponent, one game and chunk >= 1; got "
                       f"{len(opponents)} opponents, n_games={n_games}, chunk={chunk}")
    if not T.n_features(get_game(game)):
        raise RunError(T.no_features(get_game(game)))
    parts = Parallel(n_jobs=jobs)(
        delayed(_record_games)(game, search, opponents, seed, range(s, min(s + chunk, n_games)))
        for s in range(0, n_games, chunk))
    return [s for part in parts for s in part]


def _stack(samples, decision, sharpen):
    rows = [s for s in samples if s.decision == decision]
    if not rows:
        return None
    group = np.concatenate([np.full(len(s.phi), i) for i, s in enumerate(rows)])
    target = []
    for s in rows:
        q = s.visits ** (1.0 / sharpen) if s.visits.sum() > 0 else np.eye(len(s.phi))[s.chosen]
        target.append(q / q.sum())
    chosen = np.cumsum([0] + [len(s.phi) for s in rows[:-1]]) + [s.chosen for s in rows]
    return np.vstack([s.phi for s in rows]), group, np.concatenate(target), chosen


def _scores(theta, X, f, hidden):
    s = X @ theta[:f]
    if not hidden:
        return s, None, None
    units = theta[f:].reshape(hidden, f + 2)
    z = np.tanh(X @ units[:, :f].T + units[:, f])
    return s + z @ units[:, f + 1], z, units


def _loss(theta, X, group, target, f, hidden, prior, lam, free):
    s, z, units = _scores(theta, X, f, hidden)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    e = np.exp(s - np.maximum.reduceat(s, starts)[group])
    p = e / np.add.reduceat(e, starts)[group]
    n = len(starts)
    loss = -np.sum(target * np.log(p + 1e-300)) / n
    ds = (p - target) / n
    grad = np.zeros_like(theta)
    grad[:f] = X.T @ ds
    if hidden:
        dz = np.outer(ds, units[:, f + 1]) * (1 - z ** 2)
        g_units = np.zeros_like(units)
        g_units[:, :f], g_units[:, f], g_units[:, f + 1] = dz.T @ X, dz.sum(0), z.T @ ds
        grad[f:] = g_units.ravel()
    step = theta - prior
    return loss + lam * np.sum(step * step * free), (grad + 2 * lam * step * free) * free


def agreement(row, samples, decision) -> float:
    """The share of the decision type's samples where the policy row's best action is the one
    the search took."""
    stacked = _stack(samples, decision, 1.0)
    if stacked is None:
        return float("nan")
    X, group, _, chosen = stacked
    s = T.scores(row, X)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    best = [st + np.argmax(seg) for st, seg in zip(starts, np.split(s, starts[1:]))]
    return float(np.mean(np.asarray(best) == chosen))


def fit(game: str, samples, hidden: int = 6, sharpen: float = 0.3, lam: float = 1e-4,
        start=None, seed: int = 0, max_iterations: int = 1500) -> np.ndarray:
    """Weights (decision types x block, sim/trained.py) whose softmax matches the search's visit
    counts raised to 1/``sharpen``, by L-BFGS per decision type. The linear part is pulled
    towards ``start`` (default: the game's START_WEIGHTS) with an L2 penalty ``lam``, and only
    the game's TRAINABLE slots move. Decision types without samples keep the start."""
    spec = get_game(game)
    module, f = T._strategies_module(spec), T.n_features(spec)
    n_types = len(spec.decision_names or ("decision",))
    if not sharpen > 0:
        raise RunError(f"sharpen must be > 0, got {sharpen}")
    start = np.asarray(getattr(module, "START_WEIGHTS", np.zeros((n_types, f)))
                       if start is None else start, float).reshape(n_types, f)
    trainable = np.asarray(getattr(module, "TRAINABLE", np.ones((n_types, f))), float)
    weights = T.widen(start, f, hidden, seed)
    for d in range(n_types):
        stacked = _stack(samples, d, sharpen)
        if stacked is None:
            continue
        X, group, target, _ = stacked
        # the penalty pulls the linear part towards the start and the units towards zero
        prior = np.zeros(weights.shape[1])
        prior[:f] = start[d]
        free = np.r_[trainable[d], np.tile(np.r_[trainable[d], 1.0, 1.0], hidden)]
        result = minimize(_loss, weights[d] * free + prior * (1 - free),
                          args=(X, group, target, f, hidden, prior, lam, free),
                          jac=True, method="L-BFGS-B", options={"maxiter": max_iterations})
        weights[d] = result.x
    return weights
