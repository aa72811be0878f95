"""sim.runner.one_kernel: a report plays every batch on the kernel with every path compiled in
(the trained features and an idle controller), so that it compiles one kernel per game. The
tables must not depend on which kernel played them."""
import os

import pytest

from sim.games import game_names, get_game
from sim.runner import one_kernel, simulate
from sim.strategy import ONE_KERNEL_ENV, resolve_seats


def seats(game: str) -> list[str]:
    spec = get_game(game)
    n = spec.rules_class().n_seats
    heuristic = next(name for name in spec.strategies if name != "random")
    return [heuristic] + ["random"] * (n - 1)


@pytest.mark.parametrize("game", game_names())
def test_one_kernel_plays_the_same_games_as_the_plain_kernel(game):
    plain = simulate(game, None, seats(game), 400, seed=11).records
    with one_kernel():
        one = simulate(game, None, seats(game), 400, seed=11).records
    assert one.equals(plain)


def test_one_kernel_is_only_inside_the_block_and_travels_with_the_seats():
    spec = get_game("parthian")
    with one_kernel():
        inside = resolve_seats(spec, "random", 4)
        assert os.environ[ONE_KERNEL_ENV] == "1"
    outside = resolve_seats(spec, "random", 4)
    assert inside.one_kernel and inside.controller(spec) is not None
    assert inside.batch(spec, 0, 0).trained is not None
    assert not outside.one_kernel and outside.controller(spec) is None
    assert outside.batch(spec, 0, 0).trained is None
    assert ONE_KERNEL_ENV not in os.environ
