"""The adapters (issue 19, docs/adapters.md), for every registered game: PettingZoo's api_test and
seed_test, Gymnasium's check_env, OpenSpiel's random simulation test and a full game of
OpenSpiel's ISMCTSBot; the flat observation is exactly what a strategy is handed; live games
replay, resample and seat the search player as the kernel plays them."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import sim.adapters.openspiel as spiel  # noqa: E402
from sim.adapters import Table  # noqa: E402
from sim.adapters.gymnasium import env as gym_env  # noqa: E402
from sim.adapters.pettingzoo import env as pz_env  # noqa: E402
from sim.errors import RunError, StrategyError  # noqa: E402
from sim.games import game_names  # noqa: E402
from sim.live import LiveGame  # noqa: E402
from sim.runner import play_one  # noqa: E402

GAMES = game_names()


def pick(vector, legal) -> int:
    """A deterministic choice that depends on the whole observation vector (so that two runs
    choose alike only if they are handed the same thing)."""
    actions = np.flatnonzero(legal)
    return int(actions[int(np.asarray(vector, np.int64).sum()) % len(actions)])


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(name):
    api_test(pz_env(name), num_cycles=60)
    seed_test(lambda: pz_env(name), num_cycles=30)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name):
    env = gym_env(name, seat=1, opponents="random")
    check_env(env, skip_render_check=False)
    env.close()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_and_ismcts(name):
    game = pyspiel.load_game(spiel.PREFIX + name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    from open_spiel.python.algorithms import ismcts, mcts

    random_state = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), 2.0, 8,
                           random_state=random_state)
    state = game.new_initial_state()
    deal = 11 % game.max_chance_outcomes()
    state.apply_action(deal)
    decisions = 0
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        decisions += 1
    assert decisions > 0
    # the returns are the shares of the win of the same game played by the kernel
    rules = game.chance.deal(deal)[0] if game.chance.listed else None
    live = LiveGame(name, rules, None, 0, deal, history=state._pos.history[:-1])
    live.play(state._pos.history[-1])
    assert live.pending is None
    assert state.returns() == pytest.approx(list(live.shares()))


@pytest.mark.parametrize("name", GAMES)
def test_the_flat_observation_is_what_a_strategy_is_handed(name):
    """PettingZoo's observations against those a Python agent is handed in play_one, choosing
    by the same rule: the same vectors, the same game."""
    table = Table(name)
    env = pz_env(name)
    env.reset(seed=4)
    seen, final = [], {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        seen.append(obs["observation"])
        env.step(pick(obs["observation"], obs["action_mask"]))
    handed = []

    def agent(obs, legal, decision):
        vector = table.layout.flatten(decision, obs)
        handed.append(vector)
        return pick(vector, legal)

    record, _, _ = play_one(name, None, [agent] * table.n_seats, seed=4, game_index=0)
    assert len(seen) == len(handed) > 0
    assert all(np.array_equal(a, b) for a, b in zip(seen, handed))
    shares = [record[f"win_{s}"] for s in range(table.n_seats)]
    assert [final[a] for a in env.possible_agents] == pytest.approx(shares)
    decision, back = table.layout.unflatten(seen[-1])
    assert table.layout.flatten(decision, back).tolist() == seen[-1].tolist()


@pytest.mark.parametrize("name", GAMES)
def test_a_live_game_replays_its_history_and_resamples_for_the_seat(name):
    table = Table(name)

    def choose(decision):
        return pick(table.layout.flatten(decision.decision, decision.obs), decision.legal)

    full = table.live(2, 5)
    while full.pending is not None:
        full.play(choose(full.pending))
    history = full.history[:len(full.history) // 2]
    live = table.live(2, 5)
    for action in history:
        live.play(action)
    now = live.pending
    vector = table.layout.flatten(now.decision, now.obs)
    copy = table.live(2, 5, history=history)
    assert copy.pending.ask == now.ask == len(history) and copy.pending.seat == now.seat
    assert np.array_equal(table.layout.flatten(copy.pending.decision, copy.pending.obs), vector)
    assert np.array_equal(copy.events(), live.events())
    while copy.pending is not None:
        copy.play(choose(copy.pending))
    assert copy.record == full.record and np.array_equal(copy.events(), full.events())
    for seed in range(3):  # a resampled world: the seat is handed the same
        world = table.live(2, 5, history=history, redeal=(now.ask, now.seat, seed))
        assert np.array_equal(table.layout.flatten(world.pending.decision, world.pending.obs), vector)
        world.close()
    with pytest.raises(StrategyError, match="not legal"):
        live.play(len(now.legal) + 5)


def test_openspiel_resampling_keeps_the_information_state():
    """Kuhn poker: the resampled states keep the first player's information state, and the
    other card is drawn again (both other cards appear)."""
    game = pyspiel.load_game(spiel.PREFIX + "kuhn", {"returns": "payoff"})
    state = game.new_initial_state()
    state.apply_action(3)
    others = set()
    for _ in range(12):
        world = state.resample_from_infostate(0, None)
        assert world.information_state_string(0) == state.information_state_string(0)
        world.apply_action(0)
        others.add(tuple(world.observation_tensor(1)))
    assert len(others) == 2
    with pytest.raises(StrategyError, match="resampled"):
        world.resample_from_infostate(1, None)


def test_a_live_game_seats_the_search_player_as_the_kernel_does():
    def lowest(obs, legal):
        return int(np.flatnonzero(legal)[0])

    search = "ismcts:budget=8,rollout=random"
    record, events, _ = play_one("goofspiel", {"num_cards": 5}, [lowest, search], seed=3)
    live = LiveGame("goofspiel", {"num_cards": 5}, [None, search], seed=3)
    while live.pending is not None:
        live.play(int(np.flatnonzero(live.pending.legal)[0]))
    assert live.record == record
    assert np.array_equal(live.events(), events)


def test_gymnasium_plays_one_seat_against_strategies_and_tolerates_illegal_actions():
    env = gym_env("goofspiel", seat=1, opponents="greedy", num_cards=5)
    obs, info = env.reset(seed=9)
    assert obs.shape == env.observation_space.shape and info["action_mask"].sum() == 5
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert info["illegal_action"] and not terminated and reward == 0
    rewards = []
    while not terminated:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        rewards.append(reward)
    assert rewards[-1] in (0.0, 0.5, 1.0) and set(rewards[:-1]) <= {0.0}
    with pytest.raises(RunError, match="reset"):
        env.step(0)
    with pytest.raises(RunError, match="opponents"):
        gym_env("goofspiel", seat=0, opponents=["random", "random"])
    with pytest.raises(RunError, match="seat"):
        gym_env("kuhn", seat=2)


def test_rewards_can_be_a_seat_column_and_bad_options_are_refused():
    env = pz_env("kuhn", returns="payoff", ante=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert sum(env.game.out[0, [4, 6]]) == 0  # a zero-sum payoff
    with pytest.raises(RunError, match="not both"):
        pz_env("kuhn", rules={"ante": 2}, bet=2)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'antes'"):
        pyspiel.load_game(spiel.PREFIX + "kuhn", {"antes": 2})
    with pytest.raises(RunError, match="deals"):
        pyspiel.load_game(spiel.PREFIX + "kuhn", {"deals": -1})
    # a list option travels with ";" (a comma would end it in OpenSpiel's game string)
    game = pyspiel.load_game(spiel.PREFIX + "goofspiel", {"num_cards": 3, "prize_order": "3;1;2"})
    assert game.table.rules.prize_order == (3, 1, 2)
    assert pyspiel.load_game(str(game)).table.rules.prize_order == (3, 1, 2)


def test_render_is_the_games_narrative():
    env = pz_env("kuhn", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "dealt" in text and text.count("\n") >= 1


def test_the_benchmark_measures_every_adapter():
    from cli.bench import measure_adapters

    r = measure_adapters("kuhn", {}, seconds=0.05)
    rates = ["kernel", "live", "pettingzoo", "gymnasium", "openspiel", "agent"]
    assert all(r[k] > 0 for k in rates) and 1 <= r["decisions_per_game"] <= 3
    assert r["kernel"] > max(r[k] for k in rates[1:])  # a step costs more than a kernel decision


def test_live_games_of_one_game_with_different_seat_counts():
    for n in (3, 5, 4):
        live = Table("parthian", {"n_players": n}).live(1, 0)
        seats = set()
        while live.pending is not None:
            seats.add(live.pending.seat)
            live.play(int(np.flatnonzero(live.pending.legal)[0]))
        assert seats == set(range(n)) and len(live.shares()) == n
