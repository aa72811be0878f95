"""The trained policy: a linear scorer over features each game declares once.

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

Parameters of a trained seat: params[TEMPERATURE], params[FEATURES] (the feature count the
weights were trained with), then the weights, decision type-major: params[WEIGHTS + d * F + f].
"""
import numpy as np
from numba import njit

from ..rng import rand_unit

TEMPERATURE, FEATURES, WEIGHTS = 0, 1, 2


@njit(cache=True, _nrt=False)
def linear_choice(phi, decision, legal, params, rng):
    """The action of a linear policy with features ``phi`` (rows: actions; the last column
    receives the scores)."""
    n_features = np.int64(params[FEATURES])
    scores = phi[:, phi.shape[1] - 1]
    base = WEIGHTS + decision * n_features
    best, pick = -np.inf, -1
    for a in range(legal.shape[0]):
        if legal[a]:
            score = 0.0
            for f in range(n_features):
                score += phi[a, f] * params[base + f]
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
