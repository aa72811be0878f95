"""Kuhn poker through the OpenSpiel adapter (``python_balance_kuhn``, sim/adapters) against
OpenSpiel's native ``kuhn_poker`` (issues 19, 27): the same deal and actions give the same
returns, random play through the adapter has the native distribution of seat 0's payoff, and
the adapter's game at its default deals is exactly Kuhn poker: the uniform policy's NashConv is
11/12 and CFR gives native CFR's NashConv and value, iteration for iteration."""
import numpy as np
import pytest
from scipy import stats

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is NOT installed: the Kuhn poker "
                              "adapter was NOT compared with OpenSpiel's kuhn_poker")
pytest.importorskip("greenlet")

import sim.adapters.openspiel as spiel  # noqa: E402
from games.kuhn.layout import CARD_NAMES  # noqa: E402
from sim.runner import play_one  # noqa: E402

PAYOFFS = [-2, -1, 1, 2]


def random_game(game, rng):
    state = game.new_initial_state()
    state.apply_action(int(rng.integers(game.max_chance_outcomes())))
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return state


def test_same_deal_and_actions_same_returns_as_native():
    game = pyspiel.load_game(spiel.PREFIX + "kuhn", {"returns": "payoff"})
    native = pyspiel.load_game("kuhn_poker")
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(120):
        ours = random_game(game, rng)
        deal, *actions = ours.history()
        options = game.chance.listed[deal][0]  # KP-1: the listed deal, e.g. {"deal": "J,Q"}
        cards = [CARD_NAMES.index(c) for c in options["deal"].split(",")]
        record, _, _ = play_one("kuhn", options, "random", seed=0, game_index=deal)
        assert [int(record["card_0"]), int(record["card_1"])] == cards
        theirs = native.new_initial_state()
        for action in [*cards, *actions]:
            theirs.apply_action(action)
        assert theirs.is_terminal() and theirs.returns() == ours.returns()
        seen.add((tuple(cards), tuple(actions)))
    assert len(seen) >= 20  # many deals and betting lines were compared


def test_random_play_through_the_adapter_has_the_native_payoffs():
    game = pyspiel.load_game(spiel.PREFIX + "kuhn", {"returns": "payoff"})
    native = pyspiel.load_game("kuhn_poker")
    rng = np.random.default_rng(11)

    def native_game():
        state = native.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, p = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=p)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
        return state

    counts = [np.bincount([PAYOFFS.index(int(s.returns()[0])) for s in games], minlength=4)
              for games in ([random_game(game, rng) for _ in range(3000)],
                            [native_game() for _ in range(3000)])]
    assert stats.chi2_contingency(np.array(counts)).pvalue > 0.001


def test_the_default_deals_are_kuhns_six_card_orders_with_native_nash_conv():
    """KP-1: the chance node is the 6 orders of two cards, 1/6 each, as native kuhn_poker's two
    chance nodes give them (seat 0's card first); the uniform policy's NashConv is then 11/12
    exactly (65,536 stream deals, unevenly spread over the 6 orders, gave 0.9192)."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    game = pyspiel.load_game(spiel.PREFIX + "kuhn", {"returns": "payoff"})
    native = pyspiel.load_game("kuhn_poker")
    root = native.new_initial_state()
    orders = []
    for first, p_first in root.chance_outcomes():
        child = root.child(first)
        orders += [((first, second), p_first * p) for second, p in child.chance_outcomes()]
    listed = [(tuple(CARD_NAMES.index(c) for c in options["deal"].split(",")), p)
              for options, p in game.chance.listed]
    assert [o for o, _ in listed] == [o for o, _ in orders]
    assert [p for _, p in listed] == pytest.approx([p for _, p in orders], abs=1e-15)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert uniform == pytest.approx(11 / 12, abs=1e-12)
    native_uniform = exploitability.nash_conv(native, policy.UniformRandomPolicy(native))
    assert uniform == pytest.approx(native_uniform, abs=1e-12)


def test_cfr_through_the_adapter_is_native_cfr():
    """CFR on the adapter's game and on native kuhn_poker, 200 iterations each: the same NashConv
    and the same value of the average policy (near the game's value, -1/18 for seat 0)."""
    from open_spiel.python.algorithms import cfr, exploitability, expected_game_score

    results = []
    for game in (pyspiel.load_game(spiel.PREFIX + "kuhn", {"returns": "payoff"}),
                 pyspiel.load_game("kuhn_poker")):
        solver = cfr.CFRSolver(game)
        for _ in range(200):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        value = expected_game_score.policy_value(game.new_initial_state(), [average] * 2)
        results.append((exploitability.nash_conv(game, average), value[0]))
    (ours, our_value), (theirs, their_value) = results
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)
    assert our_value == pytest.approx(their_value, abs=1e-12)
    assert ours < 0.01 and our_value == pytest.approx(-1 / 18, abs=0.001)  # 0.0067, -0.0559
