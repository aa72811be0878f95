"""Leduc poker through the OpenSpiel adapter (``python_balance_leduc``, sim/adapters) against
OpenSpiel's native ``leduc_poker``: the adapter's exact chance node lists the 120 deals in
OpenSpiel's order, and the same deal and actions give the same returns."""
from itertools import permutations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is NOT installed: the Leduc poker "
                              "adapter was NOT compared with OpenSpiel's leduc_poker")
pytest.importorskip("greenlet")

import sim.adapters.openspiel as spiel  # noqa: E402

DEALS = list(permutations(range(6), 3))   # seat 0's card, seat 1's, the public card


def test_the_deal_is_one_exact_chance_node_of_120_equally_likely_deals():
    game = pyspiel.load_game(spiel.PREFIX + "leduc", {"returns": "payoff"})
    outcomes = game.new_initial_state().chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(len(DEALS)))
    assert np.allclose([p for _, p in outcomes], 1 / len(DEALS))


def test_same_deal_and_actions_same_returns_as_native():
    game = pyspiel.load_game(spiel.PREFIX + "leduc", {"returns": "payoff"})
    native = pyspiel.load_game("leduc_poker")
    rng = np.random.default_rng(3)
    lines = set()
    for _ in range(60):
        ours = game.new_initial_state()
        ours.apply_action(int(rng.integers(len(DEALS))))
        while not ours.is_terminal():
            legal = ours.legal_actions()
            ours.apply_action(legal[rng.integers(len(legal))])
        deal, *actions = ours.history()
        c0, c1, public = DEALS[deal]
        theirs = native.new_initial_state()
        theirs.apply_action(c0)
        theirs.apply_action(c1)
        for action in actions:
            if theirs.is_chance_node():
                theirs.apply_action(public)
            assert action in theirs.legal_actions()
            theirs.apply_action(action)
        assert theirs.is_terminal() and theirs.returns() == ours.returns()
        lines.add(tuple(actions))
    assert len(lines) >= 15   # many betting lines were compared
