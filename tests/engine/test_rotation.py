"""Fair seats (issue 11, item 4): rotate_seats seats strategy (s + g) mod N at seat s in game g,
the tables record the rotation, and by-strategy tables are free of seat effects."""
import numpy as np
import pandas as pd
import pytest

from analysis import tables as T
from sim.conformance import check_rotation
from sim.games import game_names
from sim.runner import play_one, simulate
from sim.strategy import Strategy
from games.leduc.strategies import RAISER as LEDUC_RAISER

MIX = ["cautious", "glory", "random", "lowball"]


@pytest.fixture(scope="module")
def rotated():
    return simulate("parthian", None, MIX, 4000, seed=21, rotate_seats=True, chunk_size=999)


def test_the_table_records_the_rotation_and_the_strategy_at_every_seat(rotated):
    records = rotated.records
    assert (records["rotation"] == records["game_id"] % 4).all()
    for seat in range(4):
        expected = [MIX[(seat + g) % 4] for g in records["game_id"]]
        assert records[f"strategy_{seat}"].astype(str).tolist() == expected
    assert rotated.provenance["rotate_seats"] is True
    assert rotated.provenance["strategies"] == MIX


@pytest.mark.parametrize("game_index", [0, 1, 2, 3, 6, 3999])
def test_rotated_game_g_is_the_fixed_seat_game_with_the_list_rotated_by_g(rotated, game_index):
    seated = [MIX[(s + game_index) % 4] for s in range(4)]
    record, _, _ = play_one("parthian", None, seated, seed=21, game_index=game_index)
    row = rotated.records.iloc[game_index]
    for column in ("rounds", "winners", "score_0", "score_3", "wounds_2"):
        if column in record:
            assert record[column] == row[column], column


def test_summary_by_rotation_matches_the_records(rotated):
    records, summary = rotated.records, rotated.summary
    assert summary.rotated and summary.rotation_games.tolist() == [1000] * 4
    shares = records[[f"win_{s}" for s in range(4)]].to_numpy()
    for r in range(4):
        np.testing.assert_allclose(summary.win_sums_by_rotation[r],
                                   shares[records["rotation"].to_numpy() == r].sum(axis=0))
    # wins of each strategy slot, read seat by seat from the per-game table
    by_slot = np.zeros(4)
    for seat in range(4):
        for j, label in enumerate(MIX):
            by_slot[j] += shares[records[f"strategy_{seat}"].astype(str) == label, seat].sum()
    np.testing.assert_allclose(summary.slot_win_sums, by_slot)


def test_streamed_rotated_summary_equals_the_kept_one(rotated):
    streamed = simulate("parthian", None, MIX, 4000, seed=21, rotate_seats=True, stream=True,
                        chunk_size=1500, jobs=2, backend="threading")
    assert streamed.summary.to_dict() == rotated.summary.to_dict()


def test_strategy_and_seat_tables_of_a_rotated_batch(rotated):
    by_strategy = T.strategy_table(rotated).set_index("strategy")
    seats = T.strategy_seat_table(rotated)
    assert len(seats) == 16 and (seats["n_games"] == 1000).all()
    pooled = seats.groupby("strategy")["wins"].sum()
    for label in MIX:
        assert by_strategy.loc[label, "wins"] == pytest.approx(pooled[label])
    assert set(T.seat_table(rotated)["strategy"]) == {"rotated"}
    assert (seats["ci_low"] <= seats["win_rate"]).all() and (seats["win_rate"] <= seats["ci_high"]).all()


@pytest.mark.parametrize("game", game_names())
def test_every_game_kernel_rotates_the_seats(game):
    check_rotation(game)   # sim/conformance.py: what a plugin game's tests run too


def test_fixed_seat_tables_are_unchanged_without_rotation():
    plain = simulate("parthian", None, MIX, 500, seed=2)
    assert "rotation" not in plain.records.columns and "rotate_seats" not in plain.provenance
    pd.testing.assert_frame_equal(T.strategy_table(plain).drop(columns="seats"),
                                  T.seat_table(plain).drop(columns="seat"), check_dtype=False)


RAISER_A = Strategy("raiser-a", builtin=LEDUC_RAISER, params=(0.7, 0.45, 0.2))
RAISER_B = Strategy("raiser-b", builtin=LEDUC_RAISER, params=(0.55, 0.3, 0.6))


@pytest.mark.parametrize("game, lineup", [
    ("leduc", [RAISER_A, RAISER_B]),                       # one kind, other parameters
    ("leduc", [RAISER_A, RAISER_A]),                       # the same: the rows are kept
    ("kuhn", ["ismcts:budget=8,rollout=strong", "strong"]),  # a search and a field seat
])
def test_every_game_of_a_rotated_batch_plays_its_own_seats_parameters(game, lineup):
    """A seat's row is copied only when it must change (core SEATED, SAME_AS): game g of a
    rotated batch is still the game play_one plays alone, from a fresh core, with the list
    rotated by g. (That a search's seats get their rows back after its rollouts wrote them:
    test_search's test_the_last_search_of_a_game_runs_its_whole_budget.)"""
    batch = simulate(game, None, lineup, 24, seed=5, rotate_seats=True, chunk_size=24).records
    for g in (0, 1, 2, 7, 22, 23):
        seated = [lineup[(s + g) % 2] for s in range(2)]
        record, _, _ = play_one(game, None, seated, seed=5, game_index=g)
        for column, value in record.items():
            if column in batch.columns and not column.startswith("strategy_"):
                assert batch.iloc[g][column] == value or (pd.isna(value) and pd.isna(
                    batch.iloc[g][column])), (g, column)
