"""Issue 59, workbench and data files: goals that contradict each other, a data-table row given
twice, an empty metrics list and a negative --delta are refused with one line that says what to
do, before any game is played."""
from pathlib import Path

import pytest

from analysis import interventions as I
from analysis import study_file as S
from analysis.workbench import targets as T
from analysis.workbench.specs import WorkbenchError
from cli.main import glue_signed_values, main
from sim.errors import RulesError
from sim.games import get_game

SAMURAI = get_game("samurai")


# --- 4. contradictory goals --------------------------------------------------------------------

def test_two_values_for_one_metric_in_a_target_file_are_refused_naming_both(tmp_path):
    path = tmp_path / "goals.csv"
    path.write_text("metric,target\nvictory,0.4\nvictory,0.6\n")
    with pytest.raises(WorkbenchError) as refused:
        T.parse_goals("parthian", files=[path])
    message = str(refused.value)
    assert "contradictory goals for victory" in message and "\n" not in message
    assert "victory=0.4 (target file" in message and "line 2)" in message
    assert "victory=0.6 (target file" in message and "line 3)" in message


@pytest.mark.parametrize("goals", [["victory>=0.6", "victory<=0.4"], ["victory=0.5", "victory<=0.4"],
                                   ["win_0=0.3", "win_0>=1/3"]])
def test_bounds_that_cannot_both_hold_are_refused(goals):
    with pytest.raises(WorkbenchError, match="contradictory goals"):
        T.parse_goals("parthian", goals)


@pytest.mark.parametrize("goals", [["victory>=0.4", "victory<=0.6"], ["victory=0.5", "victory>=0.4"],
                                   ["victory=0.5", "victory=0.5"], ["victory=1/3", "victory=0.3333333333333333"],
                                   ["victory=0.4", "win_0=0.6"]])
def test_goals_that_can_hold_together_are_kept(goals):
    assert len(T.parse_goals("parthian", goals)) == 2


def test_goals_for_different_points_do_not_contradict(tmp_path):
    path = tmp_path / "goals.csv"
    path.write_text("metric,target,n_players\nvictory,0.3,3\nvictory,0.5,4\nvictory,0.6,\n")
    with pytest.raises(WorkbenchError, match=r"victory=0.3 \[n_players=3\].*victory=0.6"):
        T.parse_goals("parthian", files=[path])   # the last row applies at every count
    path.write_text("metric,target,n_players\nvictory,0.3,3\nvictory,0.5,4\n")
    assert len(T.parse_goals("parthian", files=[path])) == 2


def test_a_matrix_file_giving_one_pair_twice_is_refused(tmp_path):
    path = tmp_path / "matrix.csv"
    path.write_text("a,b,target\ntrained,random,0.7\ncautious,random,0.6\ntrained,random,0.8\n")
    with pytest.raises(WorkbenchError, match=r"match\(trained,random\).*line 2.*line 4"):
        T.parse_goals("parthian", files=[path])


def test_a_study_goal_contradicting_its_target_file_is_refused(tmp_path):
    (tmp_path / "t.csv").write_text("metric,target\nvictory,0.6\n")
    path = tmp_path / "study.toml"
    path.write_text('game = "parthian"\nplayers = 3\nstrategies = "cautious"\n\n[[section]]\n'
                    'kind = "tune"\ntarget = ["victory=0.4"]\nvary = ["charges"]\n'
                    'target_file = ["t.csv"]\n')
    with pytest.raises(S.StudyFileError, match="contradictory goals for victory"):
        S.load(path)


# --- 5. a data-table row given twice ------------------------------------------------------------

ROLES = """players,role,count,honour,multiplier,top_stars_multiplier
3,shogun,1,6,2,
3,ninja,2,3,1,
4,shogun,1,6,2,
4,ninja,2,3,1,
4,ronin,1,3,1,
3,ninja,2,4,1,
"""


def test_a_role_given_twice_is_refused_naming_both_lines(tmp_path):
    path = tmp_path / "roles.csv"
    path.write_text(ROLES)
    with pytest.raises(RulesError, match=r"roles.csv'.*: lines 3 and 7 both give the ninja at "
                                         r"3 players; keep one"):
        SAMURAI.rules_class(n_players=4, role_table=str(path))   # even where 3 is not played


def test_a_card_given_twice_is_refused_naming_both_lines(tmp_path):
    import games.samurai

    shipped = (Path(games.samurai.__file__).parent / "data" / "cards.csv").read_text().splitlines()
    path = tmp_path / "cards.csv"
    path.write_text("\n".join([*shipped, shipped[1]]) + "\n")   # the first card again, at the end
    name = shipped[1].split(",")[0]
    with pytest.raises(RulesError, match=rf"lines 2 and {len(shipped) + 1} both give the card {name}"):
        SAMURAI.rules_class(n_players=4, card_table=str(path))


def test_the_shipped_tables_read_and_the_study_declares_every_card_once():
    for n in range(3, 8):
        SAMURAI.rules_class(n_players=n)
    names = [card.name for card in I.declared_cards("samurai", {"n_players": 5})]
    assert len(names) == len(set(names))


def test_two_declared_cards_of_one_name_are_refused():
    card = I.Card("c", "card", {"same": {}}, owner="victory")
    with pytest.raises(I.CardsError, match="'c' more than once"):
        I.declared_cards("parthian", None, [card, card])


# --- 6. an empty metrics list -----------------------------------------------------------------

def test_an_empty_metrics_list_is_refused_saying_to_leave_it_out(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text('game = "parthian"\nplayers = 3\n\n[[section]]\nkind = "summary"\n'
                    'metrics = []\n')
    with pytest.raises(S.StudyFileError, match=r"line 6: section 1 \(summary\): metrics = \[\] "
                                               r"names no metric; leave metrics out for every metric"):
        S.load(path)


# --- 7. a negative --delta ------------------------------------------------------------------------

def test_a_negative_delta_reaches_the_command_and_is_refused_as_a_size(capsys):
    assert glue_signed_values(["compare", "x", "--delta", "-1pp", "--delta", "2"]) == \
        ["compare", "x", "--delta=-1pp", "--delta", "2"]
    assert main(["compare", "goofspiel", "--no-progress", "--delta", "-1pp"]) == 2
    err = capsys.readouterr().err
    assert "expected one argument" not in err
    assert "delta is a size" in err and "--alternative less" in err
