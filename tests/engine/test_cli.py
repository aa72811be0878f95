"""The `balance` command: help everywhere, summaries, narratives, clear errors without tracebacks."""
import subprocess
import sys

import pytest

from cli.main import main
from sim.results import read_parquet


@pytest.mark.parametrize("command", [[], ["simulate"], ["play"], ["report"], ["bench"], ["options"],
                                     ["strategies"], ["compare"]])
def test_help_everywhere(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    assert "usage: balance" in capsys.readouterr().out


def test_simulate_prints_seat_table_and_writes_parquet(tmp_path, capsys):
    out = tmp_path / "runs" / "p3.parquet"
    assert main(["simulate", "parthian", "--players", "3", "-s", "cautious", "-s", "random", "-s", "glory",
                 "--games", "2000", "--seed", "4", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "cautious" in text and "glory" in text and "95%" in text
    frame, provenance = read_parquet(out)
    assert len(frame) == 2000 and provenance["strategies"] == ["cautious", "random", "glory"]


@pytest.mark.parametrize("game, players", [("goofspiel", 3), ("parthian", 5)])
def test_players_reaches_the_option_each_game_spells(game, players, tmp_path):
    """--players is the one spelling of the player count whatever the game calls its option
    (Goofspiel's `players`, after OpenSpiel; Parthian Shot's `n_players`)."""
    out = tmp_path / "run.parquet"
    assert main(["simulate", game, "--players", str(players), "--games", "200",
                 "--out", str(out), "--no-progress"]) == 0
    frame, provenance = read_parquet(out)
    assert len(provenance["strategies"]) == players and f"win_{players - 1}" in frame


def test_play_prints_a_narrative(capsys):
    assert main(["play", "parthian", "--players", "4", "-s", "glory", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "Round 1: a legion of strength" in text and "Game over after" in text and "Winner" in text


def test_user_strategy_file(tmp_path, capsys):
    source = tmp_path / "mine.py"
    source.write_text("from numba import njit\n\n@njit\ndef lowest(seat, players, info, legal, params, rng):\n"
                      "    for v in range(6):\n        if legal[v]:\n            return v\n    return -1\n")
    # --jobs 1: a user strategy compiles once per process, so the default (every core) would
    # compile it again in each worker
    assert main(["simulate", "parthian", "-s", f"{source}:lowest", "-s", "random", "-s", "random",
                 "--players", "3", "--games", "300", "--jobs", "1", "--no-progress"]) == 0
    assert "lowest" in capsys.readouterr().out


@pytest.mark.parametrize("argv, fragment", [
    (["simulate", "parthian", "--players", "7"], "n_players=7"),
    (["simulate", "parthian", "--players", "2"], "3 to 6 players"),
    (["simulate", "parthian", "-s", "telepath"], "unknown strategy 'telepath'"),
    (["simulate", "parthian", "--games", "0"], "number of games"),
    (["simulate", "parthian", "-o", "bogus=1"], "unknown option 'bogus'"),
    (["simulate", "parthian", "-o", "merit_ties=fourth"], "merit_ties='fourth'"),
    (["simulate", "parthian", "-o", "legion_table=/no/such.csv"], "no such file"),
    (["simulate", "parthian", "-o", "charge_threshold"], "KEY=VALUE"),
    (["simulate", "parthian", "-s", "nofile.py:f"], "not found"),
    (["report", "chess"], "balance report --game chess"),  # one spelling: --game NAME
])
def test_bad_input_is_a_clear_error(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_malformed_legion_table_from_the_command_line(tmp_path):
    table = tmp_path / "legions.csv"
    table.write_text("strength,p3,p4,p5\n5,1,1,1\n")
    done = subprocess.run([sys.executable, "-m", "cli.main", "simulate", "parthian", "-o",
                           f"legion_table={table}", "--games", "10"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "strength, p3, p4, p5, p6" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["simulate", "parthian"], ["report"],
                                     ["ladder", "sunzi", "-s", "random", "-s", "greedy"],
                                     ["sweep", "parthian", "--vary", "n_players=3,4"],
                                     ["ablate", "parthian"],
                                     ["sensitivity", "parthian", "--vary", "charge_threshold=6..12"],
                                     ["tune", "parthian", "--target", "victory=0.5", "--vary",
                                      "legions"],
                                     ["compare", "parthian", "--b", "charge_threshold=8"]])
def test_commands_that_play_games_use_every_core_by_default(command, monkeypatch):
    """Issue 21 item 5: simulate used one core while report used all; the results are the same
    at any --jobs (tests/engine/test_runner.py), so every command defaults to every core."""
    from cli.main import build_parser
    from sim.runner import all_cores

    assert build_parser().parse_args(command).jobs == all_cores()
    monkeypatch.setattr("sim.runner.all_cores", lambda: 7)   # the default is the machine's count
    assert build_parser().parse_args(command).jobs == 7
    assert build_parser().parse_args([*command, "--jobs", "1"]).jobs == 1


def test_all_cores_is_the_cores_this_process_may_use():
    import os

    from sim.runner import all_cores

    expected = (os.process_cpu_count() if hasattr(os, "process_cpu_count") else
                len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())
    assert all_cores() == expected >= 1


def test_simulate_help_states_the_jobs_default(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "default: every core" in " ".join(capsys.readouterr().out.split())
