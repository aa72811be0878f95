"""`balance report` options, the simulate help text, and a closed pipe ending a command quietly."""
import os
import subprocess
import sys

import pytest

from cli import main as cli


def test_report_takes_games_as_repeatable_game_options(monkeypatch, tmp_path, capsys):
    calls = []

    def fake_write_reports(games, **options):
        calls.append((games, options))
        return [tmp_path / name / "index.md" for name in games or ["parthian"]]

    monkeypatch.setattr("analysis.report.write_reports", fake_write_reports)
    assert cli.main(["report", "--game", "sunzi", "--game", "parthian", "--quick", "--out",
                     str(tmp_path), "--no-progress"]) == 0
    games, options = calls[-1]
    assert games == ["sunzi", "parthian"]
    assert options["quick"] is True and options["out_dir"] == tmp_path
    assert options["progress"] is False and options["n_games"] is None
    assert f"open {tmp_path / 'index.html'}" in capsys.readouterr().out
    assert cli.main(["report", "--out", str(tmp_path)]) == 0
    assert calls[-1][0] is None and calls[-1][1]["quick"] is False  # None: every game


def test_report_names_the_one_spelling_for_games(capsys):
    assert cli.main(["report", "sunzi"]) == 2
    assert "balance report --game sunzi" in capsys.readouterr().err


def test_report_rejects_an_unknown_game(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["report", "--game", "nosuchgame"])
    assert exit_.value.code == 2 and "nosuchgame" in capsys.readouterr().err


def test_help_texts_print_single_percent_signs(capsys):
    """argparse formats `help=` strings with %, not descriptions: a '%%' there prints doubled."""
    commands = cli.build_parser()._subparsers._group_actions[0].choices
    for command in commands:
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        out = capsys.readouterr().out
        assert "%%" not in out, f"balance {command} --help prints '%%'"
        if command == "simulate":
            assert "95% Wilson" in out
        if command == "report":
            assert "--game NAME" in out and "--quick" in out


def test_a_closed_pipe_ends_the_command_quietly():
    """`balance play parthian | head`: the reader is gone before the narrative is written."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, however short the output
    done = subprocess.run([sys.executable, "-m", "cli.main", "play", "parthian", "--seed", "3"],
                          stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=300)
    os.close(write_end)
    assert done.returncode in (0, 141), done.stderr
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
