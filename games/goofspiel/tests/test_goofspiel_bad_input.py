"""Bad input: the API raises the specific sim.errors exception naming the bad value; the CLI
exits with status 2 and no traceback (rule ids: games/goofspiel/RULES.md)."""
import subprocess
import sys

import pytest

from cli.main import main
from sim.errors import RulesError, StrategyError
from games.goofspiel.rules import GoofspielRules, returns
from sim.runner import simulate
from games.goofspiel.strategies import script


@pytest.mark.parametrize("options, fragment", [
    ({"num_cards": 0}, "num_cards=0"),
    ({"num_cards": 31}, "num_cards=31"),
    ({"num_cards": 2.5}, "num_cards=2.5"),
    ({"players": 1}, "players=1"),
    ({"players": 9}, "players=9"),
    ({"points_order": "shuffled"}, "points_order='shuffled'"),
    ({"returns_type": "elo"}, "returns_type='elo'"),
    ({"num_turns": 0}, "num_turns=0"),
    ({"num_cards": 5, "num_turns": 6}, "num_turns=6"),
    ({"imp_info": "maybe"}, "imp_info='maybe'"),
    ({"num_cards": 3, "prize_order": (1, 2, 2)}, "prize_order=(1, 2, 2)"),
    ({"num_cards": 3, "prize_order": (1, 2)}, "prize_order=(1, 2)"),
    ({"num_cards": 3, "prize_order": (3, 2, 1), "points_order": "descending"},
     "points_order='descending'"),
])
def test_bad_rules_name_the_value(options, fragment):
    with pytest.raises(RulesError) as caught:
        GoofspielRules(**options)
    assert fragment in str(caught.value)


def test_unknown_option():
    with pytest.raises(RulesError, match="unknown option 'cards'"):
        GoofspielRules.from_options({"cards": "5"})


def test_bad_returns_type_in_returns():
    with pytest.raises(RulesError, match="returns_type='elo'"):
        returns([[1, 2]], "elo")


def test_illegal_bid_is_a_strategy_error_naming_the_seat():
    """GS-5: bidding a card already played is illegal."""
    with pytest.raises(StrategyError, match=r"'script\(2 decisions\)' at seat 1 returned illegal action 0"):
        simulate("goofspiel", {"num_cards": 3}, ["random", script([1, 1])], 1)


@pytest.mark.parametrize("argv, fragment", [
    (["simulate", "goofspiel", "-o", "num_cards=40"], "num_cards=40"),
    (["simulate", "goofspiel", "-o", "points_order=sideways"], "points_order='sideways'"),
    (["simulate", "goofspiel", "-o", "players=nine"], "players='nine'"),
    (["simulate", "goofspiel", "-s", "telepath"], "unknown strategy 'telepath'"),
])
def test_cli_bad_input_is_a_clear_error(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_cli_process_exits_2_without_traceback():
    done = subprocess.run([sys.executable, "-m", "cli.main", "simulate", "goofspiel", "-o",
                           "num_turns=99", "--games", "10"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "num_turns=99" in done.stderr and "Traceback" not in done.stderr
