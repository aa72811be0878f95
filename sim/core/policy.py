"""The trained policy: a linear scorer over features each game declares once, with optional
hidden units.

A seat of kind TRAINED scores every legal action ``a`` of a decision of type ``d`` as
``w_d . phi(obs, a)``, where ``phi`` is the game's ``features(decision, seat, obs, legal, rng,
phi)`` (strategies/<game>.py, N_FEATURES per action) and ``w_d`` the weights of that decision
type, and plays the best action (temperature 0) or samples softmax(score / temperature).

Why this form serves every game: it works whatever the number of actions (Shuo Jian's replies
list hundreds of plays, Kuhn poker's two), costs N_FEATURES multiply-adds per legal action, sees
only the observation (so the conformance test covers it like any strategy), its parameters are
an array (evolution strategies tune it with no recompile, and a logistic fit of the search's
choices gives the same model), and its weights can be read: a designer sees what the policy
values. Features may include "a built-in heuristic would play this action", so the policy
starts from the best heuristic and learns where to depart from it.

Hidden units (``balance train --hidden H``), where a weighted sum is too weak: each decision
type may add H tanh units over the same features, so the score becomes
``w_d . phi + sum_j v_dj tanh(b_dj + u_dj . phi)``: a one-hidden-layer network beside the
linear part. Output weights v = 0 play exactly the linear policy, so training starts from it
and can only add what it finds. Per legal action that costs H x (N_FEATURES + 1) multiply-adds
and H tanh more, with no buffer: each unit is summed and used at once; a unit whose output
weight is 0 (a decision type whose units were not trained) is skipped.

Parameters of a trained seat: params[TEMPERATURE], params[FEATURES] (the feature count F the
weights were trained with), params[HIDDEN] (H, 0 for a linear policy), then one block of
F + H x (F + 2) numbers per decision type: the F linear weights, then per unit its F input
weights, its bias and its output weight (sim/trained.py: ``parameters``, ``block_width``).
"""
import numpy as np
from numba import njit

from ..rng import rand_unit

TEMPERATURE, FEATURES, HIDDEN, WEIGHTS = 0, 1, 2, 3


@njit(cache=True, _nrt=False)
def policy_choice(phi, decision, legal, params, rng):
    """The action of a trained policy (linear, with hidden units if any) with features ``phi``
    (rows: actions; the last column receives the scores)."""
    n_features, hidden = np.int64(params[FEATURES]), np.int64(params[HIDDEN])
    scores = phi[:, phi.shape[1] - 1]
    base = WEIGHTS + decision * (n_features + hidden * (n_features + 2))
    best, pick = -np.inf, -1
    for a in range(legal.shape[0]):
        if legal[a]:
            score = 0.0
            for f in range(n_features):
                # one-hot and count features are mostly zero: skipping them cuts the chain of
                # dependent adds (Leduc's 144 features hold one 1), and adds nothing that counts
                x = phi[a, f]
                if x != 0.0:
                    score += x * params[base + f]
            unit = base + n_features
            for _ in range(hidden):
                if params[unit + n_features + 1] != 0.0:  # a unit not trained here costs nothing
                    z = params[unit + n_features]
                    for f in range(n_features):
                        z += phi[a, f] * params[unit + f]
                    score += params[unit + n_features + 1] * np.tanh(z)
                unit += n_features + 2
            scores[a] = score
            if score > best:
                best, pick = score, a
    temperature = params[TEMPERATURE]
    if temperature <= 0.0:
        return pick
    total = 0.0
    for a in range(legal.shape[0]):
        if legal[a]:
            scores[a] = np.exp((scores[a] - best) / temperature)
            total += scores[a]
    u = rand_unit(rng, 0) * total
    for a in range(legal.shape[0]):
        if legal[a]:
            u -= scores[a]
            if u <= 0.0:
                return a
    return pick


@njit(cache=True, _nrt=False)
def no_features(decision, seat, obs, legal, rng, phi):
    """The default ``features`` hook of a game that declares none: every action scores 0."""
    for a in range(legal.shape[0]):
        phi[a, 0] = 0.0
