"""The adapters used wrongly, or at their edges (issue 27, docs/adapters.md): a refused action
leaves an OpenSpiel state whole; the chance node lists a game's deals exactly where it can;
utility bounds come from the game's declared payoffs; misuse gets a clear BalanceError (or
OpenSpiel's own SpielError where OpenSpiel's games give one)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402

import sim.adapters.openspiel as spiel  # noqa: E402
from sim.adapters.gymnasium import env as gym_env  # noqa: E402
from sim.adapters.pettingzoo import env as pz_env  # noqa: E402
from sim.errors import BalanceError, RunError, StrategyError  # noqa: E402
from sim.games import game_names  # noqa: E402

GAMES = game_names()


def load(name, **params):
    return pyspiel.load_game(spiel.PREFIX + name, params)


def first_decision(game):
    state = game.new_initial_state()
    state.apply_action(0)
    return state


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_action_leaves_the_state_whole(name):
    """An illegal action (and an unknown chance outcome) is refused before it is recorded:
    the state's history, clones, children and serialization still work afterwards."""
    game = load(name)
    root = game.new_initial_state()
    with pytest.raises(StrategyError, match="not one of the deals"):
        root.apply_action(game.max_chance_outcomes())
    assert root.history() == [] and root.is_chance_node()
    state = first_decision(game)
    illegal = sorted(set(range(game.num_distinct_actions() + 1)) - set(state.legal_actions()))[0]
    before = state.history()
    with pytest.raises(StrategyError, match="not legal"):
        state.apply_action(illegal)
    assert state.history() == before
    legal = state.legal_actions()[0]
    assert state.clone().history() == before
    assert state.child(legal).history() == [*before, legal]
    again = game.deserialize_state(state.serialize())
    assert again.history() == before and again.legal_actions() == state.legal_actions()
    again.apply_action(legal)  # the copy replays its history and plays on
    assert again.history() == [*before, legal]


def test_a_terminal_state_says_the_game_is_over():
    state = first_decision(load("kuhn"))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(StrategyError, match="the game is over"):
        state.apply_action(0)


def test_no_information_state_tensor_as_in_openspiels_own_games():
    """OpenSpiel's games without an information-state tensor say so in their type and raise
    SpielError when asked (tic_tac_toe); so do the adapter's, and the rl_environment then
    hands the observation tensor."""
    game = load("kuhn")
    state = first_decision(game)
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        state.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("tic_tac_toe").new_initial_state().information_state_tensor(0)
    assert state.information_state_string(0).startswith("p0")
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() > 0
    from open_spiel.python import rl_environment

    time_step = rl_environment.Environment(game).reset()
    assert len(time_step.observations["info_state"][0]) == game.observation_tensor_size()


def test_the_chance_node_lists_the_games_deals_exactly_where_it_can():
    """Kuhn poker's 6 card orders and small Goofspiel's prize orders are listed with their
    probabilities; a given deal is one outcome; big games and deals=N keep N stream deals."""
    kuhn = load("kuhn").new_initial_state().chance_outcomes()
    assert [a for a, _ in kuhn] == list(range(6))
    assert all(p == pytest.approx(1 / 6) for _, p in kuhn)
    listed = load("kuhn").chance.listed
    assert len({options["deal"] for options, _ in listed}) == 6
    assert load("kuhn", deal="K,J").max_chance_outcomes() == 1
    assert load("kuhn", deals=100).max_chance_outcomes() == 100
    for cards, count in [(4, 24), (8, math.factorial(8)), (9, spiel.STREAM_DEALS),
                         (13, spiel.STREAM_DEALS)]:
        assert load("goofspiel", num_cards=cards).max_chance_outcomes() == count, cards
    assert load("goofspiel", num_cards=4, points_order="descending").max_chance_outcomes() == 1
    orders = {options["prize_order"] for options, _ in load("goofspiel", num_cards=4).chance.listed}
    assert len(orders) == 24 and all(sorted(o) == [1, 2, 3, 4] for o in orders)


@pytest.mark.parametrize("params, bounds, utility", [
    ({}, (0.0, 1.0), "GENERAL_SUM"),
    ({"returns": "payoff"}, (-2.0, 2.0), "ZERO_SUM"),
    ({"returns": "payoff", "ante": 2, "bet": 3}, (-5.0, 5.0), "ZERO_SUM"),
])
def test_kuhn_utility_bounds_come_from_its_declared_payoff(params, bounds, utility):
    game = load("kuhn", **params)
    assert (game.min_utility(), game.max_utility()) == bounds
    assert game.get_type().utility == getattr(pyspiel.GameType.Utility, utility)
    if utility == "ZERO_SUM":
        assert game.utility_sum() == 0.0
        from open_spiel.python import policy
        from open_spiel.python.algorithms import exploitability

        assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) > 0


@settings(max_examples=40, deadline=None)
@given(cards=st.integers(3, 7), turns=st.integers(1, 7), seed=st.integers(0, 10_000))
def test_goofspiel_points_stay_within_the_declared_bounds(cards, turns, seed):
    """GS-4/GS-6: the points bound is the sum of the highest prizes of the turns played; random
    games stay within it, and one that takes every prize reaches it."""
    turns = min(turns, cards)
    game = load("goofspiel", num_cards=cards, num_turns=turns, returns="points")
    low, high = game.min_utility(), game.max_utility()
    assert (low, high) == (0, sum(range(cards - turns + 1, cards + 1)))
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    state.apply_action(int(rng.integers(game.max_chance_outcomes())))
    while not state.is_terminal():
        legal = state.legal_actions()
        # seat 0 bids its highest card, so it takes every prize the others do not tie
        state.apply_action(legal[-1] if state.current_player() == 0
                           else legal[int(rng.integers(len(legal)))])
    assert all(low <= r <= high for r in state.returns())


def test_goofspiel_seat_zero_outbidding_everyone_reaches_the_points_bound():
    game = load("goofspiel", num_cards=4, num_turns=2, returns="points")
    # 4 > 3 then 3 > 2 with the prize order 4, 3, ...: seat 0 takes the two highest prizes
    deal = next(d for d, (o, _) in enumerate(game.chance.listed) if o["prize_order"][:2] == (4, 3))
    state = game.new_initial_state()
    state.apply_action(deal)
    for action in (3, 2, 2, 1):  # bids are card - 1: seat 0 bids 4, seat 1 bids 3, ...
        state.apply_action(action)
    assert state.is_terminal() and state.returns()[0] == game.max_utility() == 7


@pytest.mark.parametrize("adapter", ["pettingzoo", "gymnasium", "openspiel"])
def test_unknown_returns_are_refused_at_construction_listing_the_valid_ones(adapter):
    make = {"pettingzoo": lambda r: pz_env("kuhn", returns=r),
            "gymnasium": lambda r: gym_env("kuhn", returns=r),
            "openspiel": lambda r: load("kuhn", returns=r)}[adapter]
    for returns in ("card", "chips"):  # a seat column that is no score, and no column at all
        with pytest.raises(RunError, match="choose 'win', 'payoff'"):
            make(returns)
    assert make("payoff") is not None


def test_pettingzoo_step_before_reset_and_after_the_end_says_what_to_do():
    env = pz_env("kuhn")
    with pytest.raises(RunError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    with pytest.raises(RunError, match="every agent is done: call reset"):
        env.step(0)
    env.reset()  # and it plays on
    agent = env.agent_selection
    with pytest.raises(StrategyError, match="not legal"):
        env.step(7)
    assert env.agent_selection == agent  # the refused action changed nothing
    env.step(0)


def test_gymnasium_refuses_actions_that_are_not_whole_numbers_and_unknown_opponents():
    with pytest.raises(StrategyError, match="opponents: unknown strategy 'nosuch'"):
        gym_env("kuhn", opponents="nosuch")
    env = gym_env("kuhn", seat=0, opponents="random")
    with pytest.raises(RunError, match="reset"):
        env.step(0)
    env.reset(seed=5)
    for action in (1.7, True, "1", [0, 1], float("nan")):
        with pytest.raises(RunError, match="not a whole number"):
            env.step(action)
    assert env.game.history == []  # nothing was played
    _, _, _, _, info = env.step(np.array(1.0))  # a whole number in any numeric form is taken
    assert not info["illegal_action"] and env.game.history[0] == 1


def test_every_refusal_is_a_balance_error():
    """What a user sees from the adapters is a BalanceError (one clear line), except where
    OpenSpiel's own games raise a SpielError."""
    for make in (lambda: pz_env("kuhn", returns="card"), lambda: gym_env("kuhn", opponents="x"),
                 lambda: load("kuhn", deals=-3), lambda: gym_env("kuhn").step(1)):
        with pytest.raises(BalanceError) as info:
            make()
        assert "\n" not in str(info.value)
