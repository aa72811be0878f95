"""What every registered game must have (OpenSpiel's rule: no game without a golden playthrough)."""
import pytest
from golden_games import golden_files

from sim.games import game_names, get_game


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_a_golden_game_and_builtin_random(name):
    assert golden_files(name), f"tests/{name}/golden/ has no golden game"
    assert "random" in get_game(name).strategies


def test_games_with_alike_states_do_not_share_compiled_code():
    """Kuhn's and Leduc's states hold the same fields; Numba names a NamedTuple type after its
    class and fields, so both were one type name and a process that played Kuhn's live game
    first played Kuhn's rules in Leduc's (sim.core.hooks names the classes after their module)."""
    import importlib

    from sim.live import LiveGame
    from sim.runner import simulate

    names = [importlib.import_module(get_game(g).kernel.__name__).State.__name__
             for g in game_names()]
    assert len(set(names)) == len(names)

    def first_legal_game(name):
        game = LiveGame(name, strategies=["random", "random"], seed=4)
        return game.record

    alone = simulate("leduc", None, "random", 1, seed=4).records.iloc[0].to_dict()
    first_legal_game("kuhn")
    after_kuhn = first_legal_game("leduc")
    assert {k: after_kuhn[k] for k in ("actions", "end_reason", "public", "payoff_0")} == \
        {k: alone[k] for k in ("actions", "end_reason", "public", "payoff_0")}
