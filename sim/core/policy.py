"""The trained policy: a linear scorer over features each game declares once, with optional
hidden units.

A seat of kind TRAINED scores every legal action ``a`` of a decision of type ``d`` as
``w_d . phi(obs, a)``, where ``phi`` is the game's ``features(decision, seat, obs, legal, rng,
phi)`` (games/<game>/strategies.py, N_FEATURES per action) and ``w_d`` the weights of that decision
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

Sparse features: a game whose actions each have only a few nonzero features of many (a table
of indicators, as Leduc poker's) may declare ``SPARSE_FEATURES = k`` beside N_FEATURES and
write each action's nonzero features as k (index, value) pairs in increasing index order
(``put_feature``, ``end_features``: row a holds pair j in its columns 2j and 2j + 1, and an
index below 0 ends the row early); the engine then reads the pairs and nothing else, to the
same scores. ``dense_features`` spreads them out for code that wants the matrix.

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
def policy_choice(phi, per_action, decision, legal, params, rng):
    """The action of a trained policy (linear, with hidden units if any) with features ``phi``
    (rows: actions; the last column receives the scores): dense (``per_action`` 0: phi[a, f]),
    or sparse (``per_action`` pairs an action, ``put_feature``)."""
    n_features, hidden = np.int64(params[FEATURES]), np.int64(params[HIDDEN])
    scores = phi[:, phi.shape[1] - 1]
    base = WEIGHTS + decision * (n_features + hidden * (n_features + 2))
    best, pick = -np.inf, -1
    for a in range(legal.shape[0]):
        if legal[a]:
            score = _weighted_sum(phi, a, per_action, n_features, params, base, 0.0)
            unit = base + n_features
            for _ in range(hidden):
                if params[unit + n_features + 1] != 0.0:  # a unit not trained here costs nothing
                    z = _weighted_sum(phi, a, per_action, n_features, params, unit,
                                      params[unit + n_features])
                    score += params[unit + n_features + 1] * np.tanh(z)
                unit += n_features + 2
            scores[a] = score
            if score > best:
                best, pick = score, a
    return _play(scores, best, pick, legal, params[TEMPERATURE], rng)


@njit(cache=True, _nrt=False, inline="always")
def _weighted_sum(phi, a, per_action, n_features, params, at, total):
    """total + the sum of action a's features times params[at + feature], over its nonzero
    features only, in increasing feature order: one-hot and count features are mostly zero,
    and a sum through them is a chain of dependent adds that add nothing. Dense or sparse, the
    same terms in the same order, so the same score to the last bit."""
    if per_action == 0:
        for f in range(n_features):
            x = phi[a, f]
            if x != 0.0:
                total += x * params[at + f]
        return total
    for j in range(per_action):
        f = np.int64(phi[a, 2 * j])
        if f < 0:
            break
        total += phi[a, 2 * j + 1] * params[at + f]
    return total


@njit(cache=True, _nrt=False, inline="always")
def put_feature(phi, action, j, feature, value):
    """A sparse ``features`` hook's j-th nonzero feature of ``action`` (SPARSE_FEATURES)."""
    phi[action, 2 * j] = feature
    phi[action, 2 * j + 1] = value


@njit(cache=True, _nrt=False, inline="always")
def end_features(phi, action, j):
    """A sparse row that ends before its ``per_action`` pairs: ``action`` has only j."""
    phi[action, 2 * j] = -1.0


@njit(cache=True, _nrt=False, inline="always")
def _play(scores, best, pick, legal, temperature, rng):
    """The best-scored action at temperature 0, else a draw from softmax(scores / temperature)."""
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


def dense_features(phi, per_action: int, n_features: int) -> np.ndarray:
    """Features ``phi[..., action, column]`` as the dense ``[..., action, F]`` that exact
    measures and tests read (sim.trained.scores): a sparse game's pairs (per_action of them an
    action, SPARSE_FEATURES) spread out; a dense game's columns as they are."""
    phi = np.asarray(phi, float)
    if not per_action:
        return phi[..., :n_features]
    dense = np.zeros(phi.shape[:-1] + (n_features,))
    for at in np.ndindex(*phi.shape[:-1]):
        for j in range(per_action):
            feature = int(phi[at + (2 * j,)])
            if feature < 0:
                break
            dense[at + (feature,)] = phi[at + (2 * j + 1,)]
    return dense


@njit(cache=True, _nrt=False)
def no_features(decision, seat, obs, legal, rng, phi):
    """The default ``features`` hook of a game that declares none: every action scores 0."""
    for a in range(legal.shape[0]):
        phi[a, 0] = 0.0
