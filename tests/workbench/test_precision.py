"""Adaptive sample size: deterministic, a prefix of the seed's games, and as precise as asked."""
import pandas as pd
import pytest

from analysis.workbench import metrics as M
from analysis.workbench.precision import simulate_precise
from sim.errors import RunError
from sim.runner import simulate


def test_first_game_batches_join_into_the_same_table():
    whole = simulate("parthian", {"n_players": 4}, "random", 3000, seed=5)
    parts = [simulate("parthian", {"n_players": 4}, "random", n, seed=5, first_game=start)
             for start, n in ((0, 1000), (1000, 2000))]
    joined = pd.concat([p.records for p in parts], ignore_index=True)
    pd.testing.assert_frame_equal(whole.records, joined)
    assert parts[1].provenance["first_game"] == 1000


def test_same_seed_and_precision_give_the_same_n_and_table():
    a = simulate_precise("parthian", {"n_players": 5}, "random", 1.5, seed=3)
    b = simulate_precise("parthian", {"n_players": 5}, "random", 1.5, seed=3)
    assert a.provenance["n_games"] == b.provenance["n_games"] > 1000
    assert a.provenance["steps"] == b.provenance["steps"]
    pd.testing.assert_frame_equal(a.records, b.records)


def test_precise_batch_is_the_prefix_and_meets_the_precision():
    result = simulate_precise("parthian", {"n_players": 3}, "random", 1.5, seed=8)
    n = result.provenance["n_games"]
    plain = simulate("parthian", {"n_players": 3}, "random", n, seed=8)
    pd.testing.assert_frame_equal(result.records, plain.records)
    row = M.headline(result.summary)
    assert result.provenance["precision_met"]
    assert max(M.half_widths(row, "parthian", 3).values()) <= 0.015
    # the step before was not precise enough (otherwise it would have stopped there)
    before = simulate("parthian", {"n_players": 3}, "random", result.provenance["steps"][-2], seed=8)
    assert not M.precision_reached(M.headline(before.summary), "parthian", 3, 1.5)


def test_max_games_caps_and_says_so():
    result = simulate_precise("parthian", None, "random", 0.1, seed=0, max_games=2000, stream=True)
    assert result.provenance["n_games"] == 2000 and not result.provenance["precision_met"]


@pytest.mark.parametrize("precision, max_games", [(0, None), (-1, None), ("1", None), (60, None),
                                                  (1, 10), (1, 2.5)])
def test_bad_precision_or_cap_is_refused(precision, max_games):
    with pytest.raises(RunError):
        simulate_precise("parthian", None, "random", precision, max_games=max_games)


def test_negative_first_game_is_refused():
    with pytest.raises(RunError, match="first game"):
        simulate("parthian", None, "random", 10, first_game=-1)


def test_simulate_options_pass_through_without_changing_the_table():
    """Chunk size and threads change how games are played, never which: same n, same table."""
    a = simulate_precise("parthian", {"n_players": 4}, "random", 2.0, seed=4)
    b = simulate_precise("parthian", {"n_players": 4}, "random", 2.0, seed=4, jobs=2,
                         backend="threading", chunk_size=700)
    pd.testing.assert_frame_equal(a.records, b.records)
