"""Python agents at the table (issue 19): any callable agent(obs, legal) sits wherever a strategy
can, called by the cached kernel through a ctypes callback of the user-strategy C signature
(sim/agents.py), with the same determinism (worker processes included) and provenance."""
import numpy as np
import pytest

from analysis.ladder import play_ladder, ratings
from sim.errors import StrategyError
from sim.games import game_names
from sim.rng import choose_legal
from sim.runner import simulate
from sim.strategy import Strategy


def random_agent(obs, legal, rng):
    """The engine's random player, written as a Python agent: the same draws from the seat's
    own stream."""
    return choose_legal(legal, rng, 0)


@pytest.mark.parametrize("name", game_names())
def test_a_python_agent_plays_exactly_as_the_compiled_strategy(name):
    agent = Strategy("py-random", agent=random_agent)
    ours = simulate(name, None, agent, 40, seed=5)
    theirs = simulate(name, None, "random", 40, seed=5)
    assert ours.records.equals(theirs.records)
    assert ours.provenance["strategies"][0] == "py-random"


def test_worker_processes_rebuild_the_callback_and_keep_determinism():
    agent = Strategy("py-random", agent=random_agent)
    one = simulate("goofspiel", {"num_cards": 6}, [agent, "greedy"], 400, seed=2).records
    two = simulate("goofspiel", {"num_cards": 6}, [agent, "greedy"], 400, seed=2, jobs=2,
                   chunk_size=100).records
    assert one.equals(two)
    lam = simulate("goofspiel", {"num_cards": 6}, [lambda obs, legal: int(legal.argmax()), "random"],
                   200, seed=2, jobs=2, chunk_size=50).records  # a lambda travels too
    assert (lam["win_0"] + lam["win_1"]).eq(1).all()


def test_the_agent_sees_the_observation_and_chooses():
    seen = []

    def highest(obs, legal, decision, seat):
        seen.append((decision, seat, obs.info.copy(), legal.copy()))
        return int(np.flatnonzero(legal)[-1])

    simulate("goofspiel", {"num_cards": 5}, [highest, "random"], 10, seed=1)
    # 4 bids with a choice per game (the last card is forced), and no warm-up game: the
    # runner's compile game seats the random player in an agent's place
    assert len(seen) == 10 * 4
    assert {s for _, s, _, _ in seen} == {0} and {d for d, _, _, _ in seen} == {0}
    assert [info[0] for _, _, info, _ in seen[:4]] == [1, 2, 3, 4]  # info[I.TURN]
    assert [int(legal.sum()) for _, _, _, legal in seen[:4]] == [5, 4, 3, 2]


def test_an_agent_that_raises_or_answers_wrong_gets_a_clear_error():
    def broken(obs, legal):
        raise ValueError("no policy loaded")

    with pytest.raises(StrategyError, match=r"agent 'broken' at seat 1 raised ValueError: no "
                       r"policy loaded \(game 0\)"):
        simulate("kuhn", None, ["random", broken], 5)
    with pytest.raises(StrategyError, match="returned illegal action 7"):
        simulate("kuhn", None, [lambda obs, legal: 7, "random"], 5)
    with pytest.raises(StrategyError,
                       match=r"agent '<lambda>' at seat 0 returned 'bet' \(a str, not an integer"):
        simulate("kuhn", None, [lambda obs, legal: "bet", "random"], 5)
    with pytest.raises(StrategyError, match="agent must be a Python callable"):
        Strategy("x", agent=3)


def test_a_python_agent_plays_in_the_ladder():
    def first(obs, legal):
        return int(np.flatnonzero(legal)[0])

    games = play_ladder("kuhn", [Strategy("always-pass", agent=first), "random", "nash"], n_games=60)
    table = ratings(games, resamples=20)
    assert set(table["strategy"]) == {"always-pass", "random", "nash"}
    assert table["games"].sum() == 3 * 2 * 60


def test_a_python_agent_sits_in_the_workbench():
    from analysis.workbench import sweep

    table = sweep("kuhn", {"bet": [1, 2]}, None, [Strategy("py-random", agent=random_agent), "nash"],
                  n_games=300, seed=1)
    same = sweep("kuhn", {"bet": [1, 2]}, None, ["random", "nash"], n_games=300, seed=1)
    assert len(table) == 2
    assert table.drop(columns=[], errors="ignore").select_dtypes("number").equals(
        same.select_dtypes("number"))
