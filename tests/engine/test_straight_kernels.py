"""The benchmark's minimal straight-line kernels (a study's ``Bench.straight``: Parthian Shot's and
Goofspiel's) play exactly the engine's games: same streams, same rules, so the same record row
for every game. The engine's overhead the benchmark reports is then a ratio of equal work."""
import numpy as np
import pytest

from analysis.studies import study_of
from sim.games import game_names, get_game
from sim.rng import master_key
from sim.runner import as_rules, play_kernel
from sim.strategy import resolve_seats

STRAIGHT = [game for game in game_names() if study_of(game).bench.straight is not None]


def engine_table(game, options, n_games, seed):
    spec = get_game(game)
    rules = as_rules(spec, options)
    seats = resolve_seats(spec, "random", rules.n_seats)
    return rules, play_kernel(spec, rules.kernel_args(), seats, master_key(seed), 0, n_games)


def test_two_games_have_a_straight_kernel():
    assert {"parthian", "goofspiel"} <= set(STRAIGHT)


@pytest.mark.parametrize("game", STRAIGHT)
def test_the_straight_kernel_writes_the_engines_table_at_its_bench_rules(game):
    bench = study_of(game).bench
    rules, engine = engine_table(game, dict(bench.straight_rules), 3000, 6)
    out = np.zeros_like(engine)
    bench.straight(rules, master_key(6), out)
    assert np.array_equal(out, engine)


@pytest.mark.parametrize("n", [3, 6])
def test_the_parthian_straight_kernel_holds_at_other_player_counts(n):
    rules, engine = engine_table("parthian", {"n_players": n}, 3000, 5)
    out = np.zeros_like(engine)
    study_of("parthian").bench.straight(rules, master_key(5), out)
    assert np.array_equal(out, engine)
