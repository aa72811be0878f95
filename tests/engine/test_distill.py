"""Distilling a search into a trained policy (analysis/distill.py): the recorded samples do not
depend on the chunking, and the fit moves the policy towards the search's visit counts."""
import numpy as np

from analysis import distill
from sim import trained as T
from sim.games import get_game

SEARCH = "ismcts:budget=32,rollout=broad"


def _recorded(chunk):
    return distill.record("sunzi", SEARCH, ["striker", "counter"], 2, seed=5, chunk=chunk)


def test_samples_are_the_same_at_any_chunk_size():
    one, two = _recorded(1), _recorded(2)
    assert len(one) == len(two) > 10
    for a, b in zip(one, two):
        assert (a.game, a.decision, a.chosen) == (b.game, b.decision, b.chosen)
        assert np.array_equal(a.phi, b.phi) and np.array_equal(a.visits, b.visits)
        assert a.visits.sum() > 0 and a.visits[a.chosen] == a.visits.max()


def test_fit_matches_the_visits_better_than_its_start_and_plays():
    samples = _recorded(2)
    spec = get_game("sunzi")
    start = np.asarray(T._strategies_module(spec).START_WEIGHTS, float)
    weights = distill.fit("sunzi", samples, hidden=0, sharpen=1.0, lam=0.0)
    place = spec.decision_names.index("place")
    X, group, target, _ = distill._stack(samples, place, 1.0)
    f = T.n_features(spec)
    ones = np.ones(f)
    before, _ = distill._loss(start[place], X, group, target, f, 0, start[place], 0.0, ones)
    after, _ = distill._loss(weights[place], X, group, target, f, 0, start[place], 0.0, ones)
    assert after < before
    assert len(T.parameters(spec, distill.fit("sunzi", samples, hidden=2)))
