"""Headline metrics from a Summary agree with their per-game definitions."""
import numpy as np
import pytest

from analysis.stats import mean_interval
from analysis.workbench import metrics as M
from sim.runner import simulate


@pytest.mark.parametrize("players", [3, 6])
def test_summary_metrics_match_per_game_means(players):
    result = simulate("parthian", {"n_players": players}, "random", 4000, seed=2)
    row = M.headline(result.summary)
    values = M.per_game(result.records, "parthian", players)
    assert set(values) == set(M.metric_names("parthian", players))
    for name, per_game in values.items():
        assert row[name] == pytest.approx(per_game.mean(), abs=1e-12)
        assert row[f"{name}_low"] <= row[name] <= row[f"{name}_high"]
    # the first-seat advantage interval is the t-interval of its per-game values
    x = values["first_seat_advantage"]
    t = mean_interval(x.sum(), (x * x).sum(), len(x))
    assert row["first_seat_advantage_low"] == pytest.approx(float(t["ci_low"]), abs=1e-4)
    # PS-15: the team victory rate is the share of games ending in victory
    assert row["victory"] == pytest.approx(np.mean(result.records["end_reason"] == "victory"))


def test_rates_exclude_the_mean_length():
    assert "rounds_mean" not in M.rate_names("parthian", 4)
    assert M.primary_metric("parthian") == "victory"
