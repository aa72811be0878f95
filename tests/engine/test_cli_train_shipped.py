"""`balance train --shipped [GAME ...]`: the command line that regenerates the shipped policies
(analysis.training.regenerate_shipped). Only the parsing and the call are checked here: a real
regeneration trains every recipe for minutes."""
import pytest

import analysis.training
from cli.main import build_parser, main


def test_help_shows_the_shipped_option(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["train", "--help"])
    text = capsys.readouterr().out
    assert "--shipped" in text and "GAME" in text


def test_shipped_takes_any_number_of_games():
    parser = build_parser()
    assert parser.parse_args(["train", "--shipped"]).game == []
    args = parser.parse_args(["train", "--shipped", "sunzi", "shuojian", "--jobs", "1"])
    assert args.shipped and args.game == ["sunzi", "shuojian"] and args.jobs == 1
    assert parser.parse_args(["train", "sunzi"]).shipped is False


def test_shipped_calls_regenerate_shipped_with_the_games(monkeypatch, tmp_path, capsys):
    calls = []

    def fake(games=None, jobs=1, progress=True, out=None):
        calls.append((games, jobs, progress, out))
        return [tmp_path / "sunzi.json"]

    monkeypatch.setattr(analysis.training, "regenerate_shipped", fake)
    assert main(["train", "--shipped", "sunzi", "--jobs", "1", "--no-progress",
                 "--out", str(tmp_path)]) == 0
    assert calls == [(["sunzi"], 1, False, tmp_path)]
    assert "sunzi.json" in capsys.readouterr().out
    assert main(["train", "--shipped", "--jobs", "1"]) == 0
    assert calls[-1][0] is None  # every game with a recipe


def test_train_refuses_several_games_without_shipped_and_unknown_games(capsys):
    assert main(["train", "sunzi", "kuhn"]) == 2
    assert "one game" in capsys.readouterr().err
    assert main(["train", "--shipped", "chess"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["train"]) == 2
