"""Bad input through the Python API: each raises the specific sim.errors exception, and its
message names the offending value. Also: a user-written njit strategy seated next to built-ins."""
import re

import numpy as np
import pytest
from numba import njit

from sim.errors import RulesError, RunError, StrategyError
from games.parthian.rules import ParthianRules
from sim.runner import simulate
from sim.strategy import Strategy
from games.parthian.strategies import script

HEADER = "strength,p3,p4,p5,p6"
GOOD_ROWS = [f"{s},1,1,1,1" for s in (10, 11, 12, 13, 14, 15, 16)]


@pytest.mark.parametrize("n", [2, 7])
def test_player_count_must_be_3_to_6(n):
    with pytest.raises(RulesError, match=f"n_players={n} is not allowed"):
        ParthianRules(n_players=n)
    with pytest.raises(RulesError, match=f"n_players={n} is not allowed"):
        ParthianRules.from_options({"n_players": str(n)})


def write_table(tmp_path, lines):
    path = tmp_path / "legions.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_legion_table_missing_column(tmp_path):
    path = write_table(tmp_path, ["strength,p3,p4,p6"] + [f"{s},1,1,1" for s in range(10, 17)])
    with pytest.raises(RulesError, match=r"lacks the column\(s\) p5;"):
        ParthianRules(n_players=3, legion_table=path)


def test_legion_table_non_integer_strength(tmp_path):
    path = write_table(tmp_path, [HEADER, "twelve,1,1,1,1"] + GOOD_ROWS[1:])
    with pytest.raises(RulesError, match="line 2: .*'twelve'"):
        ParthianRules(n_players=3, legion_table=path)


def test_legion_table_with_six_cards_for_one_count(tmp_path):
    rows = GOOD_ROWS[:-1] + ["16,1,1,0,1"]  # the last card is not marked for 5 players
    path = write_table(tmp_path, [HEADER] + rows)
    with pytest.raises(RulesError, match="6 cards are marked for 5 players"):
        ParthianRules(n_players=3, legion_table=path)


def test_legion_table_that_does_not_exist(tmp_path):
    missing = str(tmp_path / "nope.csv")
    with pytest.raises(RulesError, match="nope.csv"):
        ParthianRules(n_players=3, legion_table=missing)


def test_unknown_option():
    with pytest.raises(RulesError, match="unknown option 'bogus'"):
        ParthianRules.from_options({"bogus": 1})


def test_unknown_strategy_name():
    with pytest.raises(StrategyError, match="unknown strategy 'bogus'"):
        simulate("parthian", {"n_players": 3}, ["random", "bogus", "random"], n_games=10)


@pytest.mark.parametrize("n_games", [0, -5])
def test_number_of_games_must_be_positive(n_games):
    with pytest.raises(RunError, match=f"got {n_games}"):
        simulate("parthian", None, "random", n_games=n_games)


@njit
def mine(decision, seat, obs, legal, params, rng):
    """Lowest legal shooting card, like the built-in lowball; params = (1, a) plays a instead."""
    if params[0] == 1.0:
        return np.int64(params[1])
    for v in range(6):
        if legal[v]:
            return v
    return -1


@pytest.mark.parametrize("bad", [6, 9, -1])  # a charge with nothing in front; not an action
def test_user_strategy_returning_an_illegal_action(bad):
    seats = ["random", Strategy("mine", fn=mine, params=(1.0, float(bad))), "glory"]
    with pytest.raises(StrategyError, match=rf"'mine\(1, {bad}\)' at seat 1 returned illegal action {bad}"):
        simulate("parthian", {"n_players": 3}, seats, n_games=5)


def test_user_strategy_plays_next_to_builtins():
    # Seat streams are independent, so swapping lowball for an identical user strategy must
    # leave every game unchanged.
    others = ["random", "cautious", "glory"]
    ours = simulate("parthian", {"n_players": 4}, [Strategy("mine", fn=mine), *others], n_games=300, seed=7)
    builtin = simulate("parthian", {"n_players": 4}, ["lowball", *others], n_games=300, seed=7)
    assert ours.provenance["strategies"][0] == "mine"
    assert ours.records.equals(builtin.records)


@pytest.mark.parametrize("options, fragment", [
    ({"charges": 10}, "charges=10"), ({"charges": -1}, "charges=-1"),
    ({"charge_threshold": -2}, "charge_threshold=-2"), ({"legion_offset": 990}, "between 0 and 999"),
    ({"legion_offset": -11}, "offset -11"), ({"legions": (1, 2, 3)}, "exactly 7")])
def test_out_of_range_options_are_refused_before_any_kernel_runs(options, fragment):
    """Bounds keep record values inside int16 and loops short (PS-1, PS-4, OP-1 options)."""
    with pytest.raises(RulesError, match=re.escape(fragment)):
        ParthianRules(**options)


def test_a_script_that_runs_out_is_a_clear_error():
    short = script([0])  # one round of actions: the second round has no answer
    with pytest.raises(StrategyError, match=r"'script\(1 decisions\)' at seat 0 returned illegal action -1"):
        simulate("parthian", {"n_players": 3}, [short, "random", "random"], n_games=1)
