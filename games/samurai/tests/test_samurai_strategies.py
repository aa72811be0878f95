"""The role-aware heuristics play their role: scripted situations on the strategy itself, and
paired comparisons against random play on common random numbers (fixed roles, same seeds)."""
import numpy as np
import pytest
from .conftest import Table, card, many_games

from analysis.stats import paired_difference
from sim.runner import simulate
from games.samurai import layout as L
from games.samurai.strategies import heuristic

ROLES = "shogun,samurai,ninja1,ninja2,ronin"   # seats 0..4


def decide(t, decision, seat, legal_actions):
    legal = np.zeros(L.N_ACTIONS, np.bool_)
    mask = 0
    for a in legal_actions:
        legal[a] = True
        mask |= 1 << a
    t.pub[L.P.LEGAL] = mask
    return heuristic(decision, seat, t.pub, t.hid[seat], legal, np.zeros(L.N_STRATEGY_PARAMS),
                     np.ones(1, np.uint64), False)


def test_ninja_attacks_the_shogun():
    """A Ninja with a weapon that reaches the Shogun plays it, and at him."""
    t = Table(5)
    t.set_hand(2, "Bo", "Daimyo")
    assert decide(t, L.D.PLAY, 2, [card("Bo"), L.ACT.END]) == card("Bo")
    assert decide(t, L.D.TARGET, 2, [0, 1, 3, 4]) == 0


def test_samurai_protects_the_shogun_and_hunts_his_attacker():
    """The Samurai never attacks the Shogun; it attacks whoever hurt him (the public harm
    matrix), and gives Breathing's card to the Shogun."""
    t = Table(5)
    t.pub[L.P.HARM + 3 * L.MAX_SEATS + 0] = 2   # seat 3 hurt the Shogun
    t.set_hand(1, "Bo", "Daimyo")
    assert decide(t, L.D.TARGET, 1, [0, 2, 3]) == 3
    assert decide(t, L.D.BREATHING, 1, [0, 2, 3, 4]) == 0


def test_loyal_side_holds_fire_without_suspects():
    """With nobody suspected yet, the Shogun's side does not attack at random."""
    t = Table(5)
    t.set_hand(1, "Bo", "Daimyo")
    assert decide(t, L.D.PLAY, 1, [card("Bo"), L.ACT.END]) == L.ACT.END


@pytest.mark.parametrize("seats, team", [((2, 3), L.TEAM.NINJA), ((0, 1), L.TEAM.SHOGUN),
                                         ((4,), L.TEAM.RONIN)])
@many_games(0.5)
@pytest.mark.parametrize("name", ["loyal", "shrewd"])
def test_heuristics_beat_random_in_every_role(name, seats, team):
    """Replacing random players by a heuristic in one team's seats raises that team's win rate
    (paired on the same deals; the 95% interval of the difference lies above zero)."""
    rules = {"n_players": 5, "roles": ROLES}
    mix = [name if s in seats else "random" for s in range(5)]
    base = simulate("samurai", rules, "random", 1500, seed=3).records
    test = simulate("samurai", rules, mix, 1500, seed=3).records
    d = paired_difference((test["winning_team"] == team).to_numpy(float),
                          (base["winning_team"] == team).to_numpy(float))
    assert d["ci_low"] > 0, d
