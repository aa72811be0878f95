"""A kernel whose ``core.new_core`` is not given the game's N_FEATURES (issue 59, item 1).

Its trained policy's feature buffer is then narrower than the features written into it. The
scaffold's kernel once left the argument out; a designer's game with 10 features then broke the
heap ("double free or corruption") far from the cause. The engine now checks the buffer's width
before the features are written and names the fix.
"""
import pytest
from numba import njit

from sim import core
from sim.errors import StrategyError
from sim.games import get_game
from games.kuhn import kernel as K
from games.kuhn.layout import N_ACTIONS, N_CHANCE, N_DECISIONS
from sim.rng import master_key
from sim.runner import play_kernel
from sim.strategy import resolve_seats
from games.kuhn.strategies import N_FEATURES, builtin_decide, features


class NarrowState(K.State):
    pass


core.register(NarrowState, N_CHANCE, N_DECISIONS, play_game=K.play_game, observe=K.observe,
              redeal=K.redeal, strategy=builtin_decide, features=features)


@njit
def narrow_chunk(rules, batch, out, log, ctl):
    g = K.new_state(rules, batch, log, ctl)
    thin = core.new_core(batch, 2, N_CHANCE, N_DECISIONS, N_ACTIONS, log, ctl)   # no N_FEATURES
    core.run_chunk(NarrowState(thin, g.rules, g.pub, g.cards, g.end), batch, out)


@pytest.mark.timeout(600)
def test_a_buffer_narrower_than_the_features_is_a_clear_error():
    assert N_FEATURES > 1   # new_core's default buffer holds one feature
    spec = get_game("kuhn")
    rules = spec.rules_class()
    seats = resolve_seats(spec, ["trained", "random"], 2, rules)
    with pytest.raises(StrategyError, match=f"narrower than N_FEATURES = {N_FEATURES}; pass "
                                            r"N_FEATURES to core.new_core"):
        play_kernel(spec, rules.kernel_args(), seats, master_key(0), 0, 20, chunk=narrow_chunk)
