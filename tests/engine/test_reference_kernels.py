"""The benchmark's minimal straight-line kernels (cli/reference_kernels.py) play exactly the
engine's games: same streams, same rules, so the same record row for every game. The engine's
overhead the benchmark reports is then a ratio of equal work."""
import numpy as np
import pytest

from cli import reference_kernels as ref
from sim.games import get_game
from sim.rng import master_key
from sim.runner import as_rules, play_kernel
from sim.strategy import resolve_seats


def engine_table(game, options, n_games, seed):
    spec = get_game(game)
    rules = as_rules(spec, options)
    seats = resolve_seats(spec, "random", rules.n_seats)
    return rules, play_kernel(spec, rules.kernel_args(), seats, master_key(seed), 0, n_games)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_the_parthian_reference_writes_the_engines_table(n):
    rules, engine = engine_table("parthian", {"n_players": n}, 3000, 5)
    out = np.zeros_like(engine)
    ref.parthian(rules.kernel_args()[1], n, master_key(5), out)
    assert np.array_equal(out, engine)


def test_the_goofspiel_reference_writes_the_engines_table():
    _, engine = engine_table("goofspiel", {"num_cards": 13}, 3000, 6)
    out = np.zeros_like(engine)
    ref.goofspiel(13, master_key(6), out)
    assert np.array_equal(out, engine)
