"""Goofspiel through the OpenSpiel adapter (``python_balance_goofspiel``, sim/adapters) against
OpenSpiel's native ``goofspiel`` (issue 19): the same actions give the same points and returns
(the native game through its turn-based wrapper, which asks the seats in order as our kernel
does), and random play through the adapter has the native outcome distribution. Small
variants list their prize orders as the chance node's outcomes (issue 27): each outcome plays
its listed order."""
import math

import numpy as np
import pytest
from scipy import stats

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is NOT installed: the Goofspiel "
                              "adapter was NOT compared with OpenSpiel's goofspiel")
pytest.importorskip("greenlet")

import sim.adapters.openspiel as spiel  # noqa: E402
from games.goofspiel.study.calibration import openspiel_random_points, outcome_counts  # noqa: E402
from games.goofspiel import layout as L  # noqa: E402
from games.goofspiel.rules import GoofspielRules  # noqa: E402


def play(game, rng, deal):
    """A random game through the adapter: its terminal state."""
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return state


def prizes_of(game, deal, decisions):
    """The prizes the kernel revealed in that game of the adapter (its event log, replayed)."""
    live = game.table.live(0, deal, history=decisions[:-1], deal=game.chance.deal(deal))
    live.play(decisions[-1])
    return [int(e[3]) for e in live.events() if e[0] == L.EV.PRIZE]


@pytest.mark.parametrize("options", [{"num_cards": 6}, {"num_cards": 5, "points_order": "descending"},
                                     {"num_cards": 5, "players": 3}],
                         ids=["random-order", "descending", "3p"])
def test_same_actions_same_points_and_returns_as_native(options):
    rules = GoofspielRules(**options)
    points = pyspiel.load_game(spiel.PREFIX + "goofspiel", {**options, "returns": "points"})
    wins = pyspiel.load_game(spiel.PREFIX + "goofspiel", options)
    native = {kind: pyspiel.convert_to_turn_based(pyspiel.load_game(
        "goofspiel", {**rules.openspiel_params(), "returns_type": kind}))
        for kind in ("total_points", "win_loss")}
    rng = np.random.default_rng(1)
    assert points.max_chance_outcomes() == (1 if rules.points_order == "descending"
                                            else math.factorial(rules.num_cards))
    for g in range(25):
        deal = int(rng.integers(points.max_chance_outcomes()))
        ours = play(points, rng, deal)
        decisions = ours.history()[1:]
        revealed = prizes_of(points, deal, decisions)
        if points.chance.listed[deal][0]:  # GS-2: the listed prize order is the one played
            assert revealed == list(points.chance.listed[deal][0]["prize_order"])
        for kind, theirs_game in native.items():
            prizes = iter(revealed)
            theirs = theirs_game.new_initial_state()
            actions = iter(decisions)
            while not theirs.is_terminal():
                if theirs.is_chance_node():
                    theirs.apply_action(next(prizes) - 1)
                else:
                    legal = theirs.legal_actions()
                    theirs.apply_action(next(actions) if len(legal) > 1 else legal[0])
            if kind == "total_points":
                assert theirs.returns() == ours.returns()
            else:  # win_loss: +1 each winner, -1 each loser, 0 all round in a draw (2 players:
                #   2 x our share of the win - 1)
                shares = np.array(replay(wins, deal, decisions).returns())
                if rules.players == 2:
                    assert theirs.returns() == pytest.approx(list(2 * shares - 1))
                else:  # GS-7: all seats equal is a draw, 1/N each here and 0 each natively
                    winners = shares > 0 if len(set(shares)) > 1 else shares < 0
                    assert (np.array(theirs.returns()) > 0).tolist() == winners.tolist()


def replay(game, deal, decisions):
    state = game.new_initial_state()
    for action in [deal, *decisions]:
        state.apply_action(action)
    return state


def test_random_play_through_the_adapter_has_the_native_outcomes():
    """Seat 0's win/draw/loss counts, 3,000 random games through the adapter against 3,000 of
    OpenSpiel's own (chi-square test of homogeneity); the test tells a shorter game apart."""
    options = {"num_cards": 6}
    rng = np.random.default_rng(7)
    game = pyspiel.load_game(spiel.PREFIX + "goofspiel", {**options, "returns": "points"})
    ours = np.array([play(game, rng, int(rng.integers(game.max_chance_outcomes()))).returns()
                     for _ in range(3000)])
    theirs = openspiel_random_points(options, 3000, seed=5)
    table = np.array([outcome_counts(ours), outcome_counts(theirs)])
    assert stats.chi2_contingency(table).pvalue > 0.001
    short = pyspiel.load_game(spiel.PREFIX + "goofspiel", {**options, "num_turns": 4,
                                                           "returns": "points"})
    other = np.array([play(short, rng, int(rng.integers(short.max_chance_outcomes()))).returns()
                      for _ in range(3000)])
    table = np.array([outcome_counts(other), outcome_counts(theirs)])
    assert stats.chi2_contingency(table).pvalue < 1e-6
