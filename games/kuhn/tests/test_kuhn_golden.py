"""Golden games of Kuhn poker: stored scripted games replayed exactly (golden/*.json)."""
import pytest
from golden_games import assert_replays_exactly, golden_files

from sim.strategy import script

GOLDEN = golden_files("kuhn")


def seats(game: dict):
    return [script([(0, a) for a in actions]) for actions in game["actions_by_seat"]]


def test_there_is_a_golden_game():
    assert GOLDEN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    assert_replays_exactly(path, seats)
