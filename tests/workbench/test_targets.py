"""Balance goals (analysis/workbench/targets.py) and the tuner's Pareto front of fewest changes."""
import numpy as np
import pytest

from analysis.workbench import targets as T
from analysis.workbench import tune
from analysis.workbench.specs import WorkbenchError
from sim.games import get_game

ROW = {"win_0": 0.30, "win_0_low": 0.28, "win_0_high": 0.32,
       "win_1": 0.40, "win_1_low": 0.38, "win_1_high": 0.42,
       "win_2": 0.34, "win_2_low": 0.33, "win_2_high": 0.35, "n_games": 1000}


def test_goals_parse_as_written_and_measure_their_deviation():
    assert T.parse_goal("win_0=1/3").value == pytest.approx(1 / 3)
    assert T.parse_goal("win_0 >= 45%").op == ">=" and T.parse_goal("win_0>=45%").value == 0.45
    assert T.parse_goal("win_0=0.25").deviation(ROW) == pytest.approx(0.05)
    assert T.parse_goal("win_0<=0.35").deviation(ROW) == 0.0
    assert T.parse_goal("win_0>=0.35").deviation(ROW) == pytest.approx(0.05)
    gap = T.parse_goal("max_gap(win_*)<=0.02")
    estimate, low, high = gap.measure(ROW)
    assert estimate == pytest.approx(0.10) and low == pytest.approx(0.06) and high == pytest.approx(0.14)
    assert gap.deviation(ROW) == pytest.approx(0.08)
    assert T.parse_goal("match(trained, random)>=0.6").match == ("trained", "random")
    assert T.distance([0.03, 0.04], "rms") == pytest.approx(np.sqrt(0.00125))


@pytest.mark.parametrize("text, message", [
    ("win_0", "no comparison"), ("win_0=abc", "not a number"), ("", "empty"),
])
def test_bad_goals_say_how_to_write_them(text, message):
    with pytest.raises(WorkbenchError, match=message):
        T.parse_goal(text)


def test_unknown_metrics_and_patterns_list_the_metrics():
    with pytest.raises(WorkbenchError, match="the metrics are: win_0, win_1, win_2"):
        T.parse_goal("team_ninja=0.3").measure(ROW)
    with pytest.raises(WorkbenchError, match="needs two or more"):
        T.parse_goal("max_gap(team_*)=0").measure(ROW)
    with pytest.raises(WorkbenchError, match="no balance group 'teams'"):
        T.balance_goal("parthian", "teams")
    assert T.balance_goal("parthian", "seats").expression == "max_gap(win_[0-9]*)"


def test_a_target_file_is_a_matrix_of_goals_with_points_and_its_errors_name_the_line(tmp_path):
    rates = tmp_path / "rates.csv"
    rates.write_text("metric,target,n_players,op\nwin_0,1/3,3,=\nvictory,0.5,,>=\n")
    goals = T.read_target_file(rates, ["n_players"])
    assert [g.text for g in goals] == ["win_0=0.333333 [n_players=3]", "victory>=0.5"]
    assert goals[0].applies({"n_players": 3}) and not goals[0].applies({"n_players": 4})
    matrix = tmp_path / "matrix.csv"
    matrix.write_text("a,b,target\ncautious,random,0.4\nrandom,cautious,0.3\n")
    assert [g.expression for g in T.read_target_file(matrix)] == [
        "match(cautious,random)", "match(random,cautious)"]
    bad = tmp_path / "bad.csv"
    bad.write_text("metric,target\nwin_0,0.5\nwin_1,half\n")
    with pytest.raises(WorkbenchError, match="line 3"):
        T.read_target_file(bad)
    with pytest.raises(WorkbenchError, match="target"):
        (tmp_path / "none.csv").write_text("metric,value\nwin_0,1\n")
        T.read_target_file(tmp_path / "none.csv")


def test_a_match_between_identical_strategies_gives_the_fair_share_within_its_interval():
    """Identical strategies at every seat, rotated: the first strategy's rate is 1/N (PS-15:
    Parthian Shot's wins are shared inside the team, so its seats' rates are equal by rule)."""
    spec = get_game("goofspiel")
    row = T.match_rate(spec, spec.rules_class(), "random", "random", 4000, seed=5)
    assert row["match(random,random)_low"] <= 0.5 <= row["match(random,random)_high"]
    stronger = T.match_rate(spec, spec.rules_class(), "greedy", "random", 4000, seed=5)
    assert stronger["match(greedy,random)_low"] > 0.5


def test_the_pareto_front_is_verified_on_a_fresh_seed_and_starts_at_no_change(tmp_path):
    """PS-4, PS-15: team victory under cautious play moves with the charge threshold and the
    charges per player; the front trades the distance to a victory target against changes."""
    result = tune("parthian", ["victory=0.3"], ["charge_threshold", "charges"],
                  rules={"n_players": 4}, strategies="cautious", seed=1, trials=10,
                  search_games=4000, precision=2.0, max_games=20_000, pareto=True)
    front = result.front
    assert front["changes"].min() == 0 and (front["changes"] == 0).sum() == 1
    best = front.groupby("changes")["verified_distance"].min()
    assert best.iloc[-1] <= best.iloc[0]       # changing something gets closer
    paths = result.write(tmp_path)
    assert paths["front"].exists() and paths["front_plot"].exists()
    assert result.verified["seed"].unique().tolist() == [2]
    chosen = result.values.set_index("parameter")["tuned"].to_dict()
    picked = front[front["values"].map(lambda v: v == chosen)]
    assert len(picked) == 1


def test_gap_and_match_goals_drive_the_tuner():
    result = tune("parthian", ["max_gap(win_*)<=0.01", "match(cautious,random)>=0.3"],
                  ["charge_threshold"], ["n_players=3,4"], None, "cautious", 1, trials=4,
                  search_games=2000, precision=3.0, max_games=8000)
    assert set(result.verified["metric"]) == {"max_gap(win_*)", "match(cautious,random)"}
    assert (result.verified["ci_low"] <= result.verified["verified"]).all()
