"""The shared engine: determinism across jobs/backends/chunks, streaming, seat symmetry."""
import numpy as np
import pandas as pd
import pytest
from numba import njit

from sim.errors import RunError, StrategyError
from games.parthian.layout import CHARGE
from sim.results import Summary, read_parquet
from sim.runner import play_one, simulate
from sim.strategy import Strategy
from analysis.stats import wilson

MIX = ["cautious", "glory", "random", "lowball"]


def test_same_seed_same_table_and_other_seed_differs():
    a = simulate("parthian", None, MIX, 3000, seed=11).records
    b = simulate("parthian", None, MIX, 3000, seed=11).records
    c = simulate("parthian", None, MIX, 3000, seed=12).records
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)


@pytest.mark.parametrize("jobs, backend, chunk", [(1, "loky", 7), (2, "loky", 1000), (2, "threading", 333),
                                                  (1, "sequential", None)])
def test_table_does_not_depend_on_jobs_backend_or_chunk_size(jobs, backend, chunk):
    reference = simulate("parthian", {"n_players": 5}, "random", 4000, seed=3).records
    other = simulate("parthian", {"n_players": 5}, "random", 4000, seed=3, jobs=jobs,
                     backend=backend, chunk_size=chunk).records
    pd.testing.assert_frame_equal(reference, other)


def test_streaming_summary_equals_summary_of_the_table():
    full = simulate("parthian", None, MIX, 5000, seed=5, chunk_size=1234)
    streamed = simulate("parthian", None, MIX, 5000, seed=5, stream=True, jobs=2, chunk_size=999)
    assert streamed.records is None
    for field in ("sums", "sumsq", "mins", "maxs", "win_sums", "end_counts", "win_sums_by_end"):
        np.testing.assert_allclose(getattr(full.summary, field), getattr(streamed.summary, field))
    np.testing.assert_array_equal(full.summary.length_hist, streamed.summary.length_hist)
    # and the summary agrees with the table itself
    assert full.summary.n_games == len(full.records) == 5000
    np.testing.assert_allclose(full.summary.win_sums,
                               full.records[[f"win_{s}" for s in range(4)]].sum().to_numpy())


def test_play_one_replays_game_g_of_a_batch():
    batch = simulate("parthian", {"n_players": 3}, ["glory", "random", "cautious"], 50, seed=9).records
    record, events, _ = play_one("parthian", {"n_players": 3}, ["glory", "random", "cautious"], seed=9,
                                 game_index=37)
    assert record["rounds"] == batch.loc[37, "rounds"]
    assert record["score_1"] == batch.loc[37, "score_1"]
    assert len(events) > 0


def test_win_shares_sum_to_one_for_games_with_a_winner():
    records = simulate("parthian", {"n_players": 6}, "lowball", 3000, seed=2).records
    total = records[[f"win_{s}" for s in range(6)]].sum(axis=1)
    has_winner = records["end_reason"].isin(["victory", "defeat"]) & (total > 0)
    assert np.allclose(total[has_winner], 1.0)
    assert set(np.round(total, 9)) <= {0.0, 1.0}


@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
def test_seat_symmetry_with_identical_strategies(n_players):
    """Same strategy at every seat: every seat's 99.9% Wilson interval holds the mean seat rate."""
    summary = simulate("parthian", {"n_players": n_players}, "random", 60_000, seed=100 + n_players,
                       jobs=2, stream=True).summary
    rates = summary.win_sums / summary.n_games
    low, high = wilson(summary.win_sums, summary.n_games, confidence=0.999)
    assert np.all((low <= rates.mean()) & (rates.mean() <= high)), (rates, low, high)


def test_seat_symmetry_test_can_fail():
    """The same check flags a real seat advantage (a cautious player among random ones)."""
    summary = simulate("parthian", None, ["cautious", "random", "random", "random"], 60_000,
                       seed=7, stream=True).summary
    rates = summary.win_sums / summary.n_games
    low, high = wilson(summary.win_sums, summary.n_games, confidence=0.999)
    assert not np.all((low <= rates.mean()) & (rates.mean() <= high))


@njit
def always_charge_if_possible(seat, players, info, legal, params, rng):
    if legal[CHARGE]:
        return CHARGE
    for v in range(5, -1, -1):
        if legal[v]:
            return v
    return -1


@njit
def play_three(seat, players, info, legal, params, rng):
    if legal[2]:
        return 2
    for v in range(6):
        if legal[v]:
            return v
    return -1


def test_user_strategies_from_own_code_next_to_builtins():
    mine = Strategy("charger", fn=always_charge_if_possible)
    other = Strategy("threes", fn=play_three)
    results = simulate("parthian", None, [mine, "random", other, mine], 2000, seed=4, jobs=2,
                       backend="threading")
    assert results.provenance["strategies"] == ["charger", "random", "threes", "charger"]
    # the user code really ran: the charger charges, the "threes" player never does
    assert results.records["charges_played_0"].sum() > 0
    assert results.records["charges_played_2"].sum() == 0
    same = simulate("parthian", None, [mine, "random", other, mine], 2000, seed=4).records
    pd.testing.assert_frame_equal(results.records, same)


def test_parquet_round_trip_keeps_provenance(tmp_path):
    results = simulate("parthian", {"n_players": 3, "merit_ties": "any"}, "cautious", 500, seed=8)
    frame, provenance = read_parquet(results.to_parquet(tmp_path / "r.parquet"))
    pd.testing.assert_frame_equal(frame, results.records, check_categorical=False)
    assert provenance["game"] == "parthian"
    assert provenance["variant"]["merit_ties"] == "any"
    assert provenance["strategies"] == ["cautious"] * 3
    assert provenance["n_games"] == 500 and provenance["seed"] == 8 and provenance["version"]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"n_games": 0}, "number of games"), ({"n_games": -5}, "number of games"),
    ({"n_games": 2.5}, "number of games"), ({"seed": -1}, "seed"), ({"jobs": 0}, "jobs"),
    ({"chunk_size": 0}, "chunk size")])
def test_bad_run_requests(kwargs, fragment):
    request = {"n_games": 10, **kwargs}
    with pytest.raises(RunError, match=fragment):
        simulate("parthian", None, "random", **request)


def test_wrong_number_of_strategies():
    with pytest.raises(StrategyError, match="3 strategies given for 4 seats"):
        simulate("parthian", None, ["random"] * 3, 10)


def test_summary_merge_refuses_other_games():
    a = simulate("parthian", {"n_players": 3}, "random", 10, stream=True).summary
    b = simulate("parthian", {"n_players": 4}, "random", 10, stream=True).summary
    with pytest.raises(RunError):
        a + b
    assert isinstance(a + a, Summary) and (a + a).n_games == 20


@njit
def allocates(decision, seat, obs, legal, params, rng):
    """The lowest legal shooting card, found through a scratch array (an allocation)."""
    scratch = np.flatnonzero(legal[:6])
    return np.int64(scratch[0])


def test_a_user_strategy_may_allocate():
    """A user strategy runs in a wrapper of its own with Numba's reference counting, so it may
    create arrays (slower, but correct): this one plays exactly like the built-in lowball."""
    others = ["random", "cautious", "glory"]
    ours = simulate("parthian", None, [Strategy("alloc", fn=allocates), *others], 200, seed=3)
    builtin = simulate("parthian", None, ["lowball", *others], 200, seed=3)
    assert ours.records.equals(builtin.records)


@njit
def wrong_signature(seat, players, info, legal, params, rng):
    """Written for the old Parthian Shot signature: players is an integer here."""
    return np.int64(players[seat, 0] % 6)


def test_a_user_strategy_with_the_old_signature_gets_a_clear_error():
    with pytest.raises(StrategyError, match=r"strategy\(decision, seat, obs, legal, params, rng\)"):
        simulate("parthian", None, [Strategy("old", fn=wrong_signature), "random", "random",
                                    "random"], 10)


def test_long_parameter_lists_make_short_labels():
    from sim.games import get_game
    from sim.strategy import resolve_seats
    from games.parthian.strategies import script

    seats = resolve_seats(get_game("parthian"), [script([5] * 20), "cautious", "glory"], 3)
    assert seats.labels == ("script(20 decisions)", "cautious", "glory")
