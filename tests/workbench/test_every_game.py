"""Sweep, ablate and sensitivity work on every registered game, from its declarations alone."""
import numpy as np
import pytest

from analysis.workbench import ablate, sensitivity, sweep
from analysis.workbench import metrics as M
from sim.games import game_names, get_game


@pytest.mark.parametrize("game", game_names())
def test_workbench_runs_on_every_game(game):
    table = sweep(game, {"strategies": ["random"]}, n_games=200)
    rules = get_game(game).rules_class()
    names = M.metric_names(game, rules.n_seats)
    assert np.isfinite(table[names].to_numpy(float)).all()
    knobs = list(rules.tunables())
    if not knobs:
        pytest.skip(f"{game} declares no tunable parameters yet (sim.variant: tune=Tunable(...))")
    effects = ablate(game, None, "random", 200, knobs=knobs[:1])
    assert set(effects["parameter"]) == {knobs[0]}
    indices = sensitivity(game, knobs[:1], n_games=100, samples=2, methods=["morris"])
    assert (indices["parameter"] == knobs[0]).all()
