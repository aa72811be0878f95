"""What every registered game must have (OpenSpiel's rule: no game without a golden playthrough)."""
import pytest
from golden_games import golden_files

from sim.games import game_names, get_game


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_a_golden_game_and_builtin_random(name):
    assert golden_files(name), f"tests/{name}/golden/ has no golden game"
    assert "random" in get_game(name).strategies
