"""Run folders are keyed by content (issue 27, item 2): a run request records the SHA-256 of
every file the run reads (policy files, data files given as rule options, a user strategy's
module), so a folder whose inputs were edited since is refused, naming the file, instead of
resuming with stale chunks; and a folder made by another command is refused, naming it.
Also the `balance train` checks that must come before any training (--out, --hold-out)."""
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

import analysis.training
from analysis.training import train
from analysis.workbench.sweep import sweep
from cli.main import main
from sim.strategy import load_strategy
from sim.checkpoint import MANIFEST, RunDir, file_digests
from sim.errors import RunError
from sim.runner import simulate
from sim.games import home

SHIPPED = home("parthian").policies

ROOT = Path(__file__).resolve().parents[2]
AGENT = """import numpy as np

CHOICE = {choice}  # which legal action: a module constant the agent reads, outside the agent


def agent(obs, legal):
    return int(np.flatnonzero(legal)[CHOICE])
"""


@pytest.fixture
def policy(tmp_path) -> Path:
    """A copy of the shipped 4-player Parthian policy, to edit."""
    path = tmp_path / "mine.json"
    shutil.copy(SHIPPED / "parthian-4p.json", path)
    return path


def edit_weight(path: Path) -> None:
    body = json.loads(path.read_text())
    body["weights"][0][0] += 1.0
    path.write_text(json.dumps(body))


def test_an_unchanged_policy_file_resumes_and_an_edited_one_is_refused_by_name(policy, tmp_path,
                                                                               capsys):
    seats = [f"trained:{policy}", "cautious", "glory", "random"]
    first = simulate("parthian", None, seats, 2000, seed=1, chunk_size=1000, run_dir=tmp_path / "run")
    capsys.readouterr()
    again = simulate("parthian", None, seats, 2000, seed=1, run_dir=tmp_path / "run")
    assert "resumed 2 of 2 chunks" in capsys.readouterr().err
    pd.testing.assert_frame_equal(again.records, first.records)

    edit_weight(policy)
    with pytest.raises(RunError, match=f"input '{policy}' changed.*new --run-dir"):
        simulate("parthian", None, seats, 2000, seed=1, run_dir=tmp_path / "run")


def test_the_cli_names_the_edited_policy_file_in_one_line(policy, tmp_path, capsys):
    command = ["simulate", "parthian", "-s", f"trained:{policy}", "-s", "random", "-s", "random",
               "-s", "random", "--games", "1000", "--run-dir", str(tmp_path / "run"),
               "--no-progress"]
    assert main(command) == 0
    edit_weight(policy)
    capsys.readouterr()
    assert main(command) == 2
    err = capsys.readouterr().err
    assert f"input '{policy}' changed" in err and "Traceback" not in err


def test_the_shipped_policy_behind_plain_trained_is_an_input_too(tmp_path):
    simulate("parthian", None, ["trained", "random", "random", "random"], 1000, seed=0, run_dir=tmp_path)
    inputs = RunDir.existing_request(tmp_path)["inputs"]
    assert inputs == file_digests([SHIPPED / "parthian-4p.json"])


def test_an_agent_module_constant_edited_outside_the_agent_is_refused_by_name(tmp_path):
    module = tmp_path / "my_agent.py"
    module.write_text(AGENT.format(choice=0))
    first = load_strategy(f"{module}:agent")
    simulate("parthian", {"n_players": 3}, [first, "random", "random"], 40, seed=2,
             run_dir=tmp_path / "run")
    assert simulate("parthian", {"n_players": 3}, [load_strategy(f"{module}:agent"), "random",
                                                   "random"], 40, seed=2, run_dir=tmp_path / "run")
    module.write_text(AGENT.format(choice=-1))  # the agent function's own source is unchanged
    edited = load_strategy(f"{module}:agent")
    with pytest.raises(RunError, match=f"input '{module}' changed"):
        simulate("parthian", {"n_players": 3}, [edited, "random", "random"], 40, seed=2,
                 run_dir=tmp_path / "run")


def test_an_edited_data_file_option_is_refused_by_name(tmp_path):
    """OP-1: a legion table given with -o legion_table=FILE. The edit changes only the 3-player
    cards, so the 4-player variant (and its legion_strengths) reads the same: only the file's
    digest tells the two runs apart."""
    table = tmp_path / "legions.csv"
    shutil.copy(ROOT / "games" / "parthian" / "data" / "legions_default.csv", table)
    rules = {"n_players": 4, "legion_table": str(table)}
    simulate("parthian", rules, "random", 1000, seed=3, run_dir=tmp_path / "run")
    text = table.read_text()
    assert "\n7,1,0,0,0\n" in text
    table.write_text(text.replace("\n7,1,0,0,0\n", "\n6,1,0,0,0\n"))
    with pytest.raises(RunError, match=f"input '{table}' changed"):
        simulate("parthian", rules, "random", 1000, seed=3, run_dir=tmp_path / "run")


def test_a_workbench_run_folder_names_the_edited_policy_file(policy, tmp_path):
    settings = dict(strategies=[f"trained:{policy}", "random", "random", "random"], n_games=1000,
                    seed=2, run_dir=tmp_path)
    first = sweep("parthian", ["charges=1,2"], **settings)
    pd.testing.assert_frame_equal(sweep("parthian", ["charges=1,2"], **settings), first)
    edit_weight(policy)
    with pytest.raises(RunError, match=f"input '{policy}' changed"):
        sweep("parthian", ["charges=1,2"], **settings)


def test_a_training_run_folder_names_the_edited_opponent_policy(policy, tmp_path):
    settings = dict(opponents=[f"trained:{policy}"], generations=1, population=2, games=10,
                    check_games=50, run_dir=tmp_path)
    train("parthian", None, **settings)
    assert str(policy) in RunDir.existing_request(tmp_path)["inputs"]
    edit_weight(policy)
    with pytest.raises(RunError, match=f"input '{policy}' changed"):
        train("parthian", None, **settings)


def test_a_folder_of_another_command_is_refused_naming_that_command(tmp_path, capsys):
    assert main(["simulate", "parthian", "--games", "1000", "--run-dir", str(tmp_path),
                 "--no-progress"]) == 0
    before = sorted(p.name for p in tmp_path.iterdir())
    capsys.readouterr()
    assert main(["cards", "parthian", "--games", "100", "--card", "legion 12", "--level", "random",
                 "--run-dir", str(tmp_path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "made by `balance simulate`, not `balance cards`" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing was played into it


def test_the_refusal_names_each_input_that_differs(tmp_path):
    RunDir(tmp_path, {"command": "x", "seed": 1, "inputs": {"a.json": "1", "b.csv": "2"}})
    with pytest.raises(RunError) as refused:
        RunDir(tmp_path, {"command": "x", "seed": 2, "inputs": {"a.json": "9", "c.py": "3"}})
    message = str(refused.value)
    assert "input 'a.json' changed" in message
    assert "the folder's run read 'b.csv', this run does not" in message
    assert "this run also reads 'c.py'" in message and "seed: folder has 1" in message
    with pytest.raises(RunError, match="input file 'gone.json' cannot be read"):
        file_digests(["gone.json"])


def no_training(*args, **kwargs):
    raise AssertionError("training started before the command line was checked")


@pytest.mark.parametrize("make_out, expected", [
    (lambda tmp: tmp, "is a folder"),
    (lambda tmp: tmp / "file.txt" / "policy.json", "is a file, not a folder"),
    (lambda tmp: (tmp / "policy.strength.csv").mkdir() or tmp / "policy.json", "is a folder"),
])
def test_train_refuses_an_unwritable_out_before_training(tmp_path, monkeypatch, capsys,
                                                         make_out, expected):
    (tmp_path / "file.txt").write_text("x")
    out = make_out(tmp_path)
    monkeypatch.setattr(analysis.training, "train_recipe", no_training)
    assert main(["train", "parthian", "--generations", "1", "--out", str(out),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "--out" in err and expected in err and "nothing was trained" in err


def test_exploit_refuses_a_file_as_its_out_folder(tmp_path, monkeypatch, capsys):
    out = tmp_path / "exploit.txt"
    out.write_text("x")
    monkeypatch.setattr(analysis.training, "exploit", no_training)
    assert main(["exploit", "parthian", "--generations", "1", "--out", str(out)]) == 2
    assert "is a file; give a folder path" in capsys.readouterr().err


def test_train_refuses_an_unknown_held_out_strategy_listing_the_built_ins(tmp_path, capsys):
    assert main(["train", "parthian", "--hold-out", "nosuch", "--generations", "1",
                 "--out", str(tmp_path / "p.json"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "'nosuch' is not a Parthian Shot built-in" in err and "cautious" in err
    assert not (tmp_path / "p.json").exists()
    with pytest.raises(RunError, match="held-out strategy 'nosuch'"):
        train("parthian", None, hold_out="nosuch", generations=1, run_dir=tmp_path / "run")
    assert not (tmp_path / "run" / MANIFEST).exists()


def test_a_user_strategy_module_can_be_imported_back_by_name_and_shadows_nothing(tmp_path):
    """Numba's cache reloads a cached function's module by its name: a FILE.py:FUNCTION module
    missing from sys.modules made a cached strategy fail on its second run (ModuleNotFoundError:
    '<dynamic>'). The module is registered under a name of its own, so a user's random.py does
    not stand in for the standard library's."""
    import importlib
    import random
    import sys

    module = tmp_path / "random.py"
    module.write_text("from numba import njit\n\n\n@njit(cache=True)\n"
                      "def first(decision, seat, obs, legal, params, rng):\n"
                      "    for a in range(legal.shape[0]):\n"
                      "        if legal[a]:\n"
                      "            return a\n    return -1\n")
    strategy = load_strategy(f"{module}:first")
    name = strategy.fn.py_func.__module__
    assert name != "random" and importlib.import_module(name).first is strategy.fn
    assert sys.modules["random"] is random
