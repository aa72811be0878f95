"""Target files and goals given wrong (issue 27): every malformed input is a one-line
WorkbenchError (a BalanceError) naming the file and line, and no goal meant for one point is
applied at another. All of it is checked before a game is played."""
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.workbench import targets as T
from analysis.workbench import tune
from analysis.workbench.specs import WorkbenchError
from sim.errors import BalanceError
from sim.games import get_game

PARTHIAN = get_game("parthian")


def target_file(tmp_path, text: str, name: str = "goals.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def points(n_players_values):
    rules = PARTHIAN.rules_class()
    return [T.point_values(rules.replace(n_players=n), "cautious", {}) for n in n_players_values]


# --- a: restriction columns ----------------------------------------------------------------

def test_an_n_players_column_restricts_its_rows_without_over(tmp_path):
    """PS-2: the deck differs by player count, so a goal for 3 players must not steer 4."""
    path = target_file(tmp_path, "metric,target,n_players\nvictory,0.3,3\nvictory,0.5,4\n")
    goals = T.read_target_file(path, game="parthian")     # no --over names at all
    assert [g.where for g in goals] == [{"n_players": "3"}, {"n_players": "4"}]
    at_four = points([4])[0]
    assert [g.value for g in goals if g.applies(at_four)] == [0.5]
    assert [g.value for g in goals if g.applies(points([3])[0])] == [0.3]


def test_a_row_for_a_player_count_the_run_never_plays_is_refused_before_any_game(tmp_path):
    path = target_file(tmp_path, "metric,target,n_players\nvictory,0.3,3\nvictory,0.5,4\n")
    with pytest.raises(WorkbenchError, match=r"goals.csv' line 2: goal victory=0.3 \[n_players=3\] "
                       r"applies at no point of this run \(it plays n_players=4\)"):
        tune("parthian", [], ["charge_threshold"], rules={"n_players": 4}, strategies="cautious",
             target_files=[path])
    goals = T.read_target_file(path, game="parthian")
    T.check_coverage(goals, points([3, 4]))           # --over n_players=3,4: every row applies


def test_a_point_without_any_goal_is_refused(tmp_path):
    path = target_file(tmp_path, "metric,target,n_players\nvictory,0.3,3\n")
    goals = T.read_target_file(path, game="parthian")
    with pytest.raises(WorkbenchError, match="no goal applies at the point n_players=5"):
        T.check_coverage(goals, points([3, 5]))


def test_an_unknown_column_is_refused_with_the_accepted_names(tmp_path):
    path = target_file(tmp_path, "metric,target,players\nvictory,0.3,3\n")
    with pytest.raises(WorkbenchError, match=r"unknown column 'players'.*n_players") as error:
        T.read_target_file(path, game="parthian")
    assert "metric (or a and b), target, op" in str(error.value)


def test_restriction_values_compare_as_numbers_and_options():
    goal = T.Goal("victory", "=", 0.5, {"n_players": "4.0"})
    assert goal.applies({"n_players": 4}) and not goal.applies({"n_players": 5})
    assert not goal.applies({})                         # a point that lacks the name: no
    assert T.same_value(True, "true") and not T.same_value("any", "third")


# --- b to e: cells -------------------------------------------------------------------------

def test_a_row_shorter_than_its_header_names_the_file_and_line(tmp_path):
    path = target_file(tmp_path, "metric,target,op\nvictory,0.5,>=\nwin_0\n")
    with pytest.raises(WorkbenchError, match=r"goals.csv' line 3: the row ends before its "
                       r"'target' cell"):
        T.read_target_file(path)


def test_a_row_longer_than_its_header_is_refused(tmp_path):
    path = target_file(tmp_path, "metric,target\nvictory,0.5,3\n")
    with pytest.raises(WorkbenchError, match="line 2: more cells than the header's 2"):
        T.read_target_file(path)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN%", "1e999"])
def test_a_target_that_is_no_finite_number_is_refused_when_read(tmp_path, value):
    path = target_file(tmp_path, f"metric,target\nvictory,0.5\nvictory,{value}\n")
    with pytest.raises(WorkbenchError, match="line 3.*(not a finite number|not a number)"):
        T.read_target_file(path)
    with pytest.raises(WorkbenchError, match="finite|not a number"):
        T.parse_goal(f"victory={value}")


def test_a_rate_written_as_a_percentage_number_is_refused_with_the_way_to_write_it(tmp_path):
    path = target_file(tmp_path, "metric,target\nvictory,40\n")
    with pytest.raises(WorkbenchError, match=r"line 2: victory is a rate between 0 and 1.*"
                       r"write 0.40 or 40%"):
        T.read_target_file(path)
    with pytest.raises(WorkbenchError, match="write 0.40 or 40%"):
        T.parse_goal("victory=40")
    with pytest.raises(WorkbenchError, match="a rate between 0 and 1"):
        T.parse_goals("parthian", {"victory": 40})
    with pytest.raises(WorkbenchError, match="a rate between -1 and 1"):
        T.parse_goal("first_seat_advantage>=-2")
    assert T.parse_goal("victory=40%").value == pytest.approx(0.4)
    assert T.parse_goal("first_seat_advantage>=-0.1").value == -0.1     # an advantage may be < 0
    assert T.parse_goal("rounds_mean=40").value == 40                   # a mean is no rate
    assert T.parse_goal("max_gap(team_*)<=0.02").value == 0.02


def test_decimal_commas_read_in_a_semicolon_file_as_in_the_data_files(tmp_path):
    """sim/datafile.py: ';' separates, ',' is the decimal mark (a European spreadsheet)."""
    path = target_file(tmp_path, "metric;target;op\nvictory;0,45;>=\nwin_0;33,3%;=\n")
    goals = T.read_target_file(path)
    assert [g.value for g in goals] == [pytest.approx(0.45), pytest.approx(0.333)]
    tab = target_file(tmp_path, "metric\ttarget\nvictory\t0,5\n", "goals.tsv")
    assert T.read_target_file(tab)[0].value == 0.5


def test_a_policy_json_given_as_a_target_file_says_it_is_json(tmp_path):
    path = target_file(tmp_path, '{"format": "balance-policy/1", "weights": [[1]]}', "p.csv")
    with pytest.raises(WorkbenchError, match="is a policy file \\(JSON\\), not a table"):
        T.read_target_file(path)


# --- the property: anything malformed is a BalanceError -------------------------------------

CELLS = st.sampled_from(["victory", "win_0", "rounds_mean", "first_seat_advantage", "match(a,b)",
                         "max_gap(win_*)", "0.5", "0,5", "40", "40%", "1/3", "1/0", "nan", "inf",
                         "-1", "", " ", "=", "<=", ">=", "==", "!", "3", "4", "x", '"', "é",
                         "n_players", "players", "metric", "target", "op", "a", "b", "\t"])
LINES = st.lists(CELLS, min_size=0, max_size=5)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=LINES, rows=st.lists(LINES, max_size=4), separator=st.sampled_from([",", ";", "\t"]))
def test_any_malformed_target_file_is_a_balance_error(tmp_path, header, rows, separator):
    text = "\n".join(separator.join(line) for line in [header, *rows])
    path = target_file(tmp_path, text)
    try:
        goals = T.read_target_file(path, game="parthian")
    except BalanceError:
        return
    for goal in goals:   # what is accepted is a goal the tuner can aim at
        assert math.isfinite(goal.value) and goal.op in ("=", "<=", ">=")
        assert not T.is_rate(goal.expression) or -1 <= goal.value <= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_any_bytes_as_a_target_file_are_a_balance_error_or_goals(tmp_path, data):
    path = tmp_path / "bytes.csv"
    path.write_bytes(data)
    try:
        T.read_target_file(path, game="parthian")
    except BalanceError:
        pass


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=30))
def test_any_goal_text_is_a_goal_or_a_balance_error(text):
    try:
        goal = T.parse_goal(text)
    except BalanceError:
        return
    assert math.isfinite(goal.value)
