"""`balance play samurai` tells the whole game: roles, characters, every card and target,
every reaction, honour changes, the end and the scores."""
from cli.main import main


def test_play_narrates_a_five_player_game(capsys):
    assert main(["play", "samurai", "--players", "5", "-s", "loyal", "-s", "shrewd", "-s", "random",
                 "-s", "loyal", "-s", "shrewd", "--seed", "0"]) == 0
    text = capsys.readouterr().out
    for fragment in ("is secretly", "reveals the Shogun card", "resilience", "Turn 1:", " plays ",
                     " on P", "takes it", "honour:", "Game over after", "Scores (SS-19):",
                     "points", "Winner: team"):
        assert fragment in text, fragment
    assert text.index("Game over after") < text.index("Scores (SS-19):") < text.index("Winner:")


def test_simulate_runs_from_the_command_line(capsys):
    assert main(["simulate", "samurai", "--players", "5", "--games", "300"]) == 0
    assert "seat" in capsys.readouterr().out
