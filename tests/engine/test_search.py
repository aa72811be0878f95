"""The search player (sim/search.py, sim/control.py) on every registered game.

It never uses what its seat could not know: with an opponent's private choice changed, it makes
the same decisions as long as the events it saw are the same (tests/observation.py). It plays
better than random, is deterministic, and rejects bad settings clearly.
"""
import numpy as np
import pytest
from observation import first_leak, play_world, view

from analysis.stats import wilson
from sim.errors import StrategyError
from sim.game import game_names, get_game
from sim.runner import as_rules, simulate
from sim.strategy import resolve_seats

SEARCH = "ismcts:budget=24,rollout=random"


@pytest.mark.parametrize("name", game_names())
def test_search_decisions_ignore_what_the_seat_cannot_see(name):
    spec = get_game(name)
    rules = as_rules(spec, None)
    n = rules.n_seats
    me = n - 1  # the last seat asked: the others' choices of a round are hidden from it
    seats = resolve_seats(spec, ["random"] * (n - 1) + [SEARCH], n)
    rng = np.random.default_rng(5)
    compared = 0
    for game in range(3):
        base = play_world(spec, rules, seats, 3, game)
        others = np.flatnonzero(base.trace[:, 0] != me)
        for k in rng.choice(others, size=min(4, len(others)), replace=False):
            moved = play_world(spec, rules, seats, 3, game, perturb_at=int(k))
            if not moved.perturbed:
                continue
            before = int(np.sum(base.trace[:k, 0] == me))
            leak, _, seen = first_leak(view(base, me, spec.event_visibility, actions=True),
                                       view(moved, me, spec.event_visibility, actions=True), before)
            assert leak is None, (f"{name}: the search's decision changed with another seat's "
                                  f"hidden choice (game {game}, decision {k})")
            compared += len(seen)
    if compared == 0:
        pytest.skip(f"{name}: every choice of another seat is public the moment it is made, so "
                    "no perturbed world looks the same to the search seat; its hidden cards are "
                    "covered by the redeal check of tests/engine/test_observation.py")


@pytest.mark.parametrize("name", game_names())
def test_search_beats_random(name):
    """Against random players the search (24 iterations, random rollouts) wins more than its
    fair share: the lower end of its 95% Wilson interval is above 1/N."""
    spec = get_game(name)
    n = spec.rules_class().n_seats
    results = simulate(name, None, [SEARCH] + ["random"] * (n - 1), 150, seed=7)
    decided = results.records[[f"win_{s}" for s in range(n)]].sum(axis=1) > 0
    low, _ = wilson(results.records["win_0"].sum(), len(results.records))
    assert low > 1 / n * decided.mean(), (name, results.records["win_0"].mean())


def test_search_is_deterministic_across_jobs_and_chunks():
    a = simulate("parthian", {"n_players": 3}, [SEARCH, "random", "random"], 40, seed=2)
    b = simulate("parthian", {"n_players": 3}, [SEARCH, "random", "random"], 40, seed=2,
                 jobs=2, chunk_size=7, backend="threading")
    assert a.records.equals(b.records)


@pytest.mark.parametrize("text", ["ismcts:budget=0", "ismcts:depth=3", "ismcts:rollout=nobody",
                                  "ismcts:c=-1", "ismcts:budget=ten"])
def test_bad_search_settings_are_named(text):
    with pytest.raises(StrategyError, match="ismcts"):
        simulate("parthian", None, [text] * 4, 10)
