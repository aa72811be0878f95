"""Observation conformance for every registered game (issue 6; tests/observation.py says how).

A strategy may be handed only what its seat has observed. For random decision points of every
decision type, the other seats' choices are changed or everything the deciding seat has not
seen is redealt, and the arrays handed to the strategies must not change while the events they
saw are the same. The test also shows that it catches a kernel that leaks a private choice.
"""
import pytest
from numba import njit
from observation import check

from sim.conformance import check_observation
from sim.games import game_names


@pytest.mark.parametrize("name", game_names())
def test_strategies_see_only_what_their_seat_observed(name):
    check_observation(name)   # also what a plugin game's tests run (sim/conformance.py)


def test_the_check_catches_a_kernel_that_shows_a_private_choice():
    """A Parthian Shot kernel whose observation writes the previous seat's card of this round
    into the public round number (the shape of Sunzi's warlord leak: a public field set by a
    private choice). The leaky game is a subclass of the state, registered with its own hooks."""
    from sim import core
    from games.parthian import kernel as K
    from games.parthian.layout import I

    class LeakyState(K.State):
        pass

    @njit
    def leaky_observe(g, decision, seat):
        if seat > 0:
            g.info[I.ROUND] = 100 + g.actions[seat - 1]
        return K.Observation(g.pl, g.info)

    core.register(LeakyState, 1, 1, play_game=K.play_game, observe=leaky_observe, redeal=K.redeal,
                  strategy=K.builtin_decide)

    @njit
    def leaky(rules, legions, batch, out, log, ctl):
        g = K.new_state(rules, legions, batch, log, ctl)
        core.run_chunk(LeakyState(g.core, g.rules, g.legions, g.pl, g.deck, g.gs, g.info,
                                  g.actions, g.values), batch, out)

    report = check("parthian", [{"n_players": 4}], games=4, points=6, kernel=leaky)
    # Another seat's perturbed card shows; so does a redeal of the cards chosen before the seat
    assert {kind for kind, _ in report.leaks} == {"perturb", "redeal"}
    clean = check("parthian", [{"n_players": 4}], games=4, points=6)
    assert not clean.leaks
