"""Sweep: a grid on common random numbers, one tidy row per point, clear errors."""
import pytest

from analysis.workbench import WorkbenchError, sweep, sweep_figure
from analysis.workbench import metrics as M
from sim.errors import BalanceError
from sim.runner import simulate


def test_grid_rows_match_single_batches_on_the_same_seed():
    table = sweep("parthian", ["n_players=3,4", "legion_offset=-1,1"], n_games=2000, seed=4)
    assert list(table[["n_players", "legion_offset"]].itertuples(index=False, name=None)) == \
        [(3, -1), (3, 1), (4, -1), (4, 1)]
    alone = simulate("parthian", {"n_players": 4, "legion_offset": 1}, "random", 2000, seed=4, stream=True)
    row = M.headline(alone.summary)
    assert table.iloc[3]["victory"] == row["victory"]
    assert table.iloc[3]["win_3_high"] == row["win_3_high"]
    assert len(table.attrs["provenance"]["batches"]) == 4
    assert sweep_figure(table) is not None


def test_a_rule_with_no_effect_gives_identical_points():
    """OP-2 (merit ties) cannot matter with 3-6 players (games/parthian/RULES.md): with common
    random numbers both points are the very same games."""
    table = sweep("parthian", {"merit_ties": ["third", "any"]}, {"n_players": 5}, n_games=3000)
    metrics = [m for m in M.metric_names("parthian", 5)]
    assert (table.iloc[0][metrics] == table.iloc[1][metrics]).all()


def test_strategies_and_knobs_can_be_swept():
    table = sweep("parthian", {"strategies": ["random", "cautious+random+random+random"],
                               "legions[0]": [5, 10]}, {"n_players": 4}, n_games=1000)
    assert len(table) == 4 and list(table["legions[0]"]) == [5, 10, 5, 10]
    assert sweep_figure(table, "win_0") is not None


def test_precision_grows_each_point():
    table = sweep("parthian", {"n_players": [3]}, precision=2.0)
    assert table["n_games"].iloc[0] > 1000
    assert table.attrs["provenance"]["precision_pp"] == 2.0


@pytest.mark.parametrize("vary, message", [
    (["colour=red,blue"], "not a tunable parameter"),
    (["n_players="], "needs values"),
    (["n_players=2,3"], "n_players=2"),
    (["legions[0]=five"], "must be a number"),
    (["legion_offset"], "needs values"),
])
def test_bad_grids_fail_clearly(vary, message):
    with pytest.raises(BalanceError, match=message):
        sweep("parthian", vary, n_games=100)


def test_unknown_plot_metric_is_named():
    table = sweep("parthian", {"n_players": [4]}, n_games=500)
    with pytest.raises(WorkbenchError, match="bogus"):
        sweep_figure(table, "bogus")


def test_same_seed_and_precision_give_the_same_sweep():
    a = sweep("parthian", {"n_players": [3, 6]}, precision=2.0, seed=11)
    b = sweep("parthian", {"n_players": [3, 6]}, precision=2.0, seed=11)
    assert a.equals(b) and (a["n_games"] > 1000).all()
