"""Issue 59's silent or misleading inputs about policies, fields, training, agents and run
folders: each is refused with one line that says what is wrong, or works as asked."""
import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest


import analysis.field
import analysis.training
from analysis.training import train
from cli.main import main
from sim import field as F
from sim import trained as T
from sim.checkpoint import RunDir
from sim.errors import RulesError, RunError, StrategyError
from sim.games import game_names, get_game, home
from sim.runner import as_rules, simulate
from sim.strategy import Strategy, lookup, load_strategy

SHIPPED = home("parthian").policies   # the built-in game's policies folder

PARTHIAN = get_game("parthian")
KUHN = get_game("kuhn")
AGENT = "import numpy as np\n\n\ndef first(obs, legal):\n    return int(np.flatnonzero(legal)[0])\n"


def write(path: Path, body) -> Path:
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    return path


def cli(args, capsys) -> tuple[int, str]:
    capsys.readouterr()
    status = main(args)
    return status, capsys.readouterr().err


# 1. Player counts -------------------------------------------------------------------------------

def test_a_policy_or_field_of_another_player_count_is_refused_naming_both_counts(capsys):
    with pytest.raises(StrategyError, match="parthian-4p.json' was made for 4 players, not the 6 "
                       "this table seats"):
        lookup(PARTHIAN, f"trained:{SHIPPED / 'parthian-4p.json'}", 6)
    with pytest.raises(StrategyError, match="parthian-3p.field.json' was made for 3 players, not "
                       "the 4 this table seats.*balance field parthian --players 4"):
        lookup(PARTHIAN, f"strong:{SHIPPED / 'parthian-3p.field.json'}", 4)
    # a search that rolls out with the field is refused the same way
    with pytest.raises(StrategyError, match="made for 3 players, not the 4"):
        lookup(PARTHIAN, f"ismcts:rollout=strong:{SHIPPED / 'parthian-3p.field.json'}", 4)
    status, err = cli(["simulate", "parthian", "--players", "6", "-s",
                       f"trained:{SHIPPED / 'parthian-4p.json'}", "--games", "10"], capsys)
    assert status == 2 and "made for 4 players, not the 6" in err and "Traceback" not in err


def test_a_file_without_the_key_is_checked_by_the_count_its_variant_or_provenance_names(tmp_path):
    body = json.loads((SHIPPED / "parthian-4p.json").read_text())
    del body["n_players"]
    with pytest.raises(StrategyError, match="made for 4 players, not the 5"):  # variant's
        lookup(PARTHIAN, f"trained:{write(tmp_path / 'a.json', body)}", 5)
    body["variant"] = {}
    with pytest.raises(StrategyError, match="made for 4 players, not the 5"):  # provenance's
        lookup(PARTHIAN, f"trained:{write(tmp_path / 'b.json', body)}", 5)
    body["provenance"] = {}   # nothing says: it seats at any count, as before
    assert lookup(PARTHIAN, f"trained:{write(tmp_path / 'c.json', body)}", 5).source
    with pytest.raises(StrategyError, match="'n_players' is 'four'; it must be a whole number"):
        lookup(PARTHIAN, f"trained:{write(tmp_path / 'd.json', {**body, 'n_players': 'four'})}", 4)


@pytest.mark.parametrize("name", game_names())
def test_every_shipped_policy_and_field_seats_at_the_counts_it_is_used_at(name):
    spec = get_game(name)
    for n in T.shipped_policies(spec):
        assert lookup(spec, "trained", n or 2).source
    for n in F.shipped_fields(spec):
        assert lookup(spec, "strong", n or 2).source
    for n, _, path in F.shipped_variants(spec):
        rules = as_rules(spec, F.variant_of(spec, path))
        assert lookup(spec, "strong", rules.n_seats, rules).source == str(path)


# 2. Field files ---------------------------------------------------------------------------------

def kuhn_field(tmp_path, members, name="k.field.json") -> str:
    return f"strong:{F.save(tmp_path / name, KUHN, members, 2, {}, {})}"


@pytest.mark.parametrize("probabilities, message", [
    ((0.3, 0.3), "the members' probabilities sum to 0.6, not 1"),
    ((0.7, 0.7), "sum to 1.4, not 1"),
    ((1e308, 1e308), "the members' probabilities sum past the largest number"),
])
def test_field_probabilities_that_do_not_sum_to_one_are_refused(tmp_path, probabilities, message):
    members = [{"name": n, "probability": p, "strategy": n}
               for n, p in zip(("nash", "honest"), probabilities)]
    with pytest.raises(StrategyError, match=message):
        lookup(KUHN, kuhn_field(tmp_path, members), 2)


def test_probabilities_rounded_to_six_places_still_sum_to_one(tmp_path):
    members = [{"name": n, "probability": 0.333333, "strategy": n}
               for n in ("nash", "honest", "aggressive")]
    assert lookup(KUHN, kuhn_field(tmp_path, members), 2).source


def test_a_member_strategy_that_is_no_name_is_refused_naming_the_member(tmp_path):
    members = [{"name": "nash", "probability": 0.5, "strategy": "nash"},
               {"name": "odd", "probability": 0.5, "strategy": ["nash"]}]
    with pytest.raises(StrategyError, match=r"member 1: 'strategy' is \['nash'\]; it must be a "
                       "built-in's name, a string"):
        lookup(KUHN, kuhn_field(tmp_path, members), 2)


# 3. balance field --out -------------------------------------------------------------------------

def test_balance_field_refuses_an_out_it_cannot_write_before_building(tmp_path, capsys,
                                                                     monkeypatch):
    def build_field(*args, **kwargs):
        raise AssertionError("built before --out was checked")

    monkeypatch.setattr(analysis.field, "build_field", build_field)
    (tmp_path / "file").write_text("")
    outs = [tmp_path / "file" / "k.field.json"] + ([Path("/proc/x/y")] if
                                                    Path("/proc").is_dir() else [])
    for out in outs:
        status, err = cli(["field", "kuhn", "--out", str(out), "--no-progress"], capsys)
        assert status == 2 and f"--out '{out}'" in err and "nothing was built" in err
        assert "Traceback" not in err


# 4 and 5. --against and --field ------------------------------------------------------------------

def test_train_refuses_a_bad_opponent_before_any_generation(tmp_path, capsys, monkeypatch):
    def cma_search(*args, **kwargs):
        raise AssertionError("trained before the opponents were read")

    monkeypatch.setattr(analysis.training, "cma_search", cma_search)
    bad = write(tmp_path / "bad.field.json", "{")
    for game, against, said in [
            ("kuhn", "strong:NOT-JSON", "field file 'NOT-JSON' not found"),
            ("kuhn", f"strong:{bad}", "is not a field (JSON)"),
            ("parthian", f"strong:{bad}", "is not a field (JSON)"),
            ("kuhn", "nash", "maximises an objective (objective) and plays no opponents")]:
        players = ["--players", "3"] if game == "parthian" else []
        status, err = cli(["train", game, *players, "--against", against, "--out",
                           str(tmp_path / "p.json"), "--no-progress"], capsys)
        assert status == 2 and said in err and "Traceback" not in err, err


def test_against_and_field_read_a_python_agent_as_dash_s_does(tmp_path, capsys, monkeypatch):
    agent = write(tmp_path / "agent.py", AGENT)
    seen = {}

    def stop(key):
        def record(*args, **kwargs):
            seen[key] = kwargs.get("field") or args[2]["against"]
            raise RunError("stopped by the test")
        return record

    monkeypatch.setattr(analysis.training, "train_recipe", stop("train"))
    monkeypatch.setattr(analysis.training, "exploit", stop("exploit"))
    assert cli(["train", "parthian", "--players", "3", "--against", f"{agent}:first",
                "--against", "cautious", "--out", str(tmp_path / "p.json")], capsys)[0] == 2
    assert cli(["exploit", "kuhn", "--field", f"{agent}:first", "--out", str(tmp_path / "x")],
               capsys)[0] == 2
    first, cautious = seen["train"]
    assert isinstance(first, Strategy) and first.agent is not None and cautious == "cautious"
    assert isinstance(seen["exploit"], Strategy) and seen["exploit"].agent is not None
    status, err = cli(["train", "parthian", "--players", "3", "--against",
                       f"{tmp_path / 'none.py'}:first", "--out", str(tmp_path / "p.json")], capsys)
    assert status == 2 and "none.py' not found" in err
    # the text itself, given to the API, says how to read it (not "pass a Python agent")
    with pytest.raises(StrategyError, match="names a strategy file: read it with "
                       "sim.strategy.load_strategy"):
        lookup(PARTHIAN, f"{agent}:first", 3)


def test_a_python_agent_is_an_opponent_training_plays(tmp_path):
    agent = load_strategy(f"{write(tmp_path / 'agent.py', AGENT)}:first")
    result = train("parthian", {"n_players": 3}, opponents=[agent], generations=1, population=2,
                   games=10, check_games=20, run_dir=tmp_path / "run")
    assert result.provenance["opponents"] == ["first"]   # its name, not an address
    assert str(tmp_path / "agent.py") in RunDir.existing_request(tmp_path / "run")["inputs"]


# 6. An agent's KeyboardInterrupt ----------------------------------------------------------------

def test_an_agent_that_raises_keyboard_interrupt_itself_is_the_agents_failure():
    def quits(obs, legal):
        raise KeyboardInterrupt

    with pytest.raises(StrategyError, match="agent 'quits' at seat 1 raised KeyboardInterrupt "
                       "itself, with no Ctrl-C pressed"):
        simulate("kuhn", None, ["random", quits], 5)


def test_a_ctrl_c_while_the_agent_runs_is_still_the_users_interruption():
    def pressed(obs, legal):
        os.kill(os.getpid(), signal.SIGINT)   # as the terminal sends it
        return int(legal.argmax())

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            simulate("kuhn", None, [pressed, "random"], 5)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, previous)


# 7. A run folder covers an agent's helper modules -----------------------------------------------

def test_an_edited_helper_module_of_an_agent_is_refused_by_name(tmp_path, monkeypatch):
    folder = tmp_path / "bot"
    folder.mkdir()
    helper = write(folder / "issue59_helper.py", "PICK = 0\n")
    write(folder / "bot.py", "import numpy as np\nimport issue59_helper as helper\n\n\n"
          "def agent(obs, legal):\n    return int(np.flatnonzero(legal)[helper.PICK])\n")
    monkeypatch.syspath_prepend(str(folder))
    seats = lambda: [load_strategy(f"{folder / 'bot.py'}:agent"), "random"]  # noqa: E731
    try:
        simulate("kuhn", None, seats(), 40, seed=2, run_dir=tmp_path / "run")
        inputs = RunDir.existing_request(tmp_path / "run")["inputs"]
        assert str(helper.resolve()) in inputs and str(folder / "bot.py") in inputs
        assert not any("site-packages" in name or "/sim/" in name for name in inputs)
        simulate("kuhn", None, seats(), 40, seed=2, run_dir=tmp_path / "run")  # resumes
        helper.write_text("PICK = -1\n")   # the agent's own file is unchanged
        with pytest.raises(RunError, match=re.escape(f"input '{helper.resolve()}' changed")):
            simulate("kuhn", None, seats(), 40, seed=2, run_dir=tmp_path / "run")
    finally:
        sys.modules.pop("issue59_helper", None)


# 8. A folder where a file is expected -----------------------------------------------------------

def test_a_folder_given_for_a_file_is_called_a_folder(tmp_path, capsys):
    with pytest.raises(RulesError, match="legion_table '.*' is a folder; give a data file"):
        as_rules(PARTHIAN, {"legion_table": str(tmp_path)})
    with pytest.raises(StrategyError, match="field file '.*' is a folder; give the field's "
                       ".field.json file"):
        lookup(PARTHIAN, f"strong:{tmp_path}", 4)
    with pytest.raises(StrategyError, match="policy file '.*' is a folder"):
        lookup(PARTHIAN, f"trained:{tmp_path}", 4)
    status, err = cli(["simulate", "parthian", "-o", f"legion_table={tmp_path}"], capsys)
    assert status == 2 and "is a folder" in err and "no such file" not in err
