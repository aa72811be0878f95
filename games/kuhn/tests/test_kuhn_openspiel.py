"""Kuhn poker against OpenSpiel's ``kuhn_poker`` (PyPI open_spiel, extra ``calibration``):

1. under uniformly random play the outcomes (seat 0's payoff) have OpenSpiel's exact
   distribution, computed from its game tree;
2. the game's value under Nash play, -1/18 for the first seat, is reproduced by simulation, with
   an interval, seating Kuhn's closed-form equilibrium and OpenSpiel's CFR average policy;
3. a table of ours and OpenSpiel's TabularPolicy are the same policy: OpenSpiel's exact value
   of the CFR policy lies in our simulated interval.
"""
import numpy as np
import pytest
from scipy import stats

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel (PyPI open_spiel, extra 'calibration') is NOT installed: the "
    "Kuhn poker calibration against OpenSpiel was NOT checked")

from sim.runner import simulate  # noqa: E402
from games.kuhn.strategies import from_openspiel_policy, nash  # noqa: E402

NASH_VALUE = -1 / 18


def openspiel_random_outcomes() -> dict[int, float]:
    """P(seat 0's payoff = v) under uniform random play, by walking OpenSpiel's tree."""
    game = pyspiel.load_game("kuhn_poker")
    found: dict[int, float] = {}

    def walk(state, p):
        if state.is_terminal():
            v = int(round(state.returns()[0]))
            found[v] = found.get(v, 0.0) + p
        elif state.is_chance_node():
            for action, q in state.chance_outcomes():
                walk(state.child(action), p * q)
        else:
            legal = state.legal_actions()
            for action in legal:
                walk(state.child(action), p / len(legal))

    walk(game.new_initial_state(), 1.0)
    return found


def mean_interval(values):
    values = np.asarray(values, float)
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    return values.mean() - half, values.mean() + half


def test_random_play_outcomes_have_openspiels_distribution():
    expected = openspiel_random_outcomes()
    payoffs = simulate("kuhn", None, "random", 60_000, seed=3).records["payoff_0"]
    values = sorted(expected)
    observed = np.array([(payoffs == v).sum() for v in values])
    assert observed.sum() == len(payoffs)  # no outcome OpenSpiel does not have
    _, p = stats.chisquare(observed, np.array([expected[v] for v in values]) * len(payoffs))
    assert p > 0.001, (dict(zip(values, observed / len(payoffs))), expected)


@pytest.mark.timeout(600)
def test_closed_form_nash_play_reproduces_the_value_minus_one_eighteenth():
    payoffs = simulate("kuhn", None, nash(), 400_000, seed=4, jobs=2).records["payoff_0"]
    low, high = mean_interval(payoffs)
    assert low < NASH_VALUE < high and high - low < 0.01


@pytest.mark.timeout(600)
def test_openspiels_cfr_policy_seated_as_a_strategy_plays_its_exact_value():
    from open_spiel.python.algorithms import cfr, expected_game_score

    game = pyspiel.load_game("kuhn_poker")
    solver = cfr.CFRSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    exact = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
    assert abs(exact - NASH_VALUE) < 0.005  # CFR is near the equilibrium after 300 iterations
    cfr_seat = from_openspiel_policy(average, "cfr")
    payoffs = simulate("kuhn", None, cfr_seat, 400_000, seed=5, jobs=2).records["payoff_0"]
    low, high = mean_interval(payoffs)
    assert low < exact < high and low < NASH_VALUE < high


def test_exploitability_is_exact_zero_at_nash_and_eleven_twelfths_for_uniform_play():
    """The calibration's yardsticks (issue 16 item 4): the closed-form equilibrium has NashConv 0
    and uniform random play OpenSpiel's 11/12, so the measure itself is checked first."""
    from games.kuhn.study.calibration import nash_conv

    assert nash_conv(np.asarray(nash(0.1).params, float)) == pytest.approx(0, abs=1e-12)
    assert nash_conv(np.full(12, 0.5)) == pytest.approx(11 / 12, abs=1e-12)


def test_the_shipped_trained_policy_is_within_two_hundredths_of_an_equilibrium():
    """Issue 16 item 4's target: the shipped Kuhn policy's NashConv at most 0.02 (it was trained
    on minus its exact NashConv; a retrained or corrupted file that drifts fails here)."""
    from games.kuhn.study.calibration import nash_conv, shipped_bets

    assert nash_conv(shipped_bets()) <= 0.02


def test_the_search_is_a_best_response_to_its_rollouts_not_an_equilibrium():
    """ISMCTS answers its rollout model: with random rollouts it bets the King and folds the Jack
    to a bet every time, a pure strategy far from equilibrium (docs/training.md records how far)."""
    from games.kuhn.study.calibration import nash_conv, search_bets

    bets = search_bets(64, runs=40, seed=3)
    assert bets[4 * 2 + 0] >= 0.9 and bets[4 * 0 + 2] <= 0.1   # K opens with a bet; J folds
    assert nash_conv(bets) > 0.3


def test_a_fields_single_bet_table_plays_as_its_mixture_of_members():
    """A field draws one member per game (sim/core/mixture.py); its equivalent table
    (calibration.mixture_bets, Kuhn's theorem) must score against any opponent exactly the
    members' values averaged by their probabilities, from either seat: the first seat's
    "pass, then face a bet" decision is weighted by how often each member passes first."""
    from open_spiel.python.algorithms.expected_game_score import policy_value

    from games.kuhn.study.calibration import mixture_bets, tabular_policy

    rng = np.random.default_rng(4)
    members, weights = rng.uniform(size=(3, 12)), np.array([0.5, 0.3, 0.2])
    opponent = tabular_policy(rng.uniform(size=12))
    game = pyspiel.load_game("kuhn_poker")
    for seat in (0, 1):
        def value(bets):
            seats = [tabular_policy(bets), opponent] if seat == 0 else [opponent, tabular_policy(bets)]
            return policy_value(game.new_initial_state(), seats)[seat]
        mixed = value(mixture_bets(members, weights))
        assert mixed == pytest.approx(sum(w * value(m) for w, m in zip(weights, members)), abs=1e-12)
        if seat == 0:  # where it matters, plain averaging of the tables is not the same
            naive = (weights[:, None] * members).sum(axis=0)
            assert value(naive) != pytest.approx(mixed, abs=1e-6)
