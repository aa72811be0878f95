"""Tables from small real simulations: internally consistent and equal to the per-game records."""
import numpy as np
import pandas as pd
import pytest

from analysis import tables as T
from sim.runner import simulate

N = 4000
MIX = ["cautious", "glory", "random", "random"]


@pytest.fixture(scope="module")
def mixed():
    return simulate("parthian", {"n_players": 4}, MIX, N, seed=11)


@pytest.fixture(scope="module")
def three():
    # 3 random players: some games end with every player routed (no winner).
    return simulate("parthian", {"n_players": 3}, "random", N, seed=5)


def no_winner_share(records):
    wins = records.filter(regex=r"^win_\d+$")
    return float((wins.sum(axis=1) == 0).mean())


@pytest.mark.parametrize("batch", ["mixed", "three"])
def test_seat_table_is_consistent_with_records(batch, request):
    result = request.getfixturevalue(batch)
    table = T.seat_table(result)
    records = result.records
    assert len(table) == result.summary.n_seats
    assert (table["n_games"] == N).all()
    assert table["win_rate"].sum() == pytest.approx(1 - no_winner_share(records))
    np.testing.assert_allclose(table["wins"], [records[f"win_{s}"].sum() for s in table["seat"]])
    assert ((table["ci_low"] <= table["win_rate"]) & (table["win_rate"] <= table["ci_high"])).all()
    assert (table["n_decided"] == round(N * (1 - no_winner_share(records)))).all()
    fair = (1 - no_winner_share(records)) / len(table)
    np.testing.assert_allclose(table["fair"], fair)
    np.testing.assert_allclose(table["advantage"], table["win_rate"] - fair)
    assert (table["p_holm"] >= table["p"]).all()
    assert list(table["strategy"]) == result.provenance["strategies"]
    assert table.attrs["provenance"] == result.provenance


def test_no_winner_games_exist_in_the_three_player_fixture(three):
    # Guards the test above: it must exercise win rates that do not sum to 1.
    assert no_winner_share(three.records) > 0


def test_strategy_table_pools_seats(mixed):
    table = T.strategy_table(mixed).set_index("strategy")
    seats = T.seat_table(mixed)
    random = seats[seats["strategy"] == "random"]
    assert table.loc["random", "seats"] == 2
    assert table.loc["random", "wins"] == pytest.approx(random["wins"].sum())
    assert table.loc["random", "win_rate"] == pytest.approx(random["win_rate"].mean())
    assert (table["win_rate"] * table["seats"]).sum() == pytest.approx(seats["win_rate"].sum())


def test_end_reason_table(mixed):
    table = T.end_reason_table(mixed).set_index("end_reason")
    assert table["games"].sum() == N
    victory = (mixed.records["end_reason"] == "victory").mean()
    assert table.loc["victory", "rate"] == pytest.approx(victory)
    assert table.loc["victory", "ci_low"] < victory < table.loc["victory", "ci_high"]
    assert table.loc["round_cap", "unfinished"] and not table.loc["victory", "unfinished"]


def test_length_tables_match_per_game_lengths(mixed):
    rounds = mixed.records["rounds"].to_numpy()
    row = T.length_table(mixed).iloc[0]
    assert row["n_games"] == N
    assert row["mean"] == pytest.approx(rounds.mean())
    assert row["sd"] == pytest.approx(rounds.std(ddof=1))
    assert (row["min"], row["max"]) == (rounds.min(), rounds.max())
    for q, column in zip(T.QUANTILES, ["q05", "q25", "q50", "q75", "q95"]):
        assert row[column] == np.quantile(rounds, q, method="inverted_cdf")
    counts = T.length_counts(mixed)
    assert counts["games"].sum() == N
    assert counts.set_index("rounds")["games"].to_dict() == {
        k: v for k, v in pd.Series(rounds).value_counts().items()} | {
        k: 0 for k in range(rounds.min(), rounds.max() + 1) if k not in set(rounds)}


def test_seat_means_match_per_game_columns(mixed):
    table = T.seat_means_table(mixed, ["merits", "wounds"])
    assert len(table) == 4 * 2
    for row in table.itertuples():
        column = mixed.records[f"{row.metric}_{row.seat}"]
        assert row.mean == pytest.approx(column.mean())
        assert row.sd == pytest.approx(column.std(ddof=1))
        assert row.ci_low < row.mean < row.ci_high


def test_streamed_batch_gives_the_same_tables(mixed):
    # Several chunks merged by Summary.__add__, and no per-game table.
    streamed = simulate("parthian", {"n_players": 4}, MIX, N, seed=11, stream=True, chunk_size=700)
    assert streamed.records is None
    for make in (T.seat_table, T.strategy_table, T.end_reason_table, T.length_table,
                 T.length_counts, T.seat_means_table):
        pd.testing.assert_frame_equal(make(streamed), make(mixed))


def test_bare_summary_gets_a_minimal_provenance(mixed):
    table = T.seat_table(mixed.summary)
    assert table.attrs["provenance"]["n_games"] == N
    assert table["win_rate"].tolist() == T.seat_table(mixed)["win_rate"].tolist()


def test_batch_table_and_stack(mixed, three):
    table = T.batch_table([({"players": 4}, mixed), ({"players": 3}, three)], end_reason="victory")
    assert table["players"].tolist() == [4, 3]
    assert len(table.attrs["provenance"]["batches"]) == 2
    victory = (three.records["end_reason"] == "victory").mean()
    assert table.loc[1, "victory"] == pytest.approx(victory)
    assert table.loc[1, "victory_low"] < victory < table.loc[1, "victory_high"]
    assert table.loc[1, "rounds_mean"] == pytest.approx(three.records["rounds"].mean())
    stacked = T.stack([({"players": 4}, T.seat_table(mixed)), ({"players": 3}, T.seat_table(three))])
    assert len(stacked) == 7 and stacked.columns[0] == "players"
    assert stacked.attrs["provenance"]["batches"][1] == three.provenance


def test_paired_table_on_common_random_numbers():
    base = simulate("parthian", {"n_players": 4}, "random", 3000, seed=2)
    weaker = simulate("parthian", {"n_players": 4, "legion_offset": -1}, "random", 3000, seed=2)
    table = T.paired_table(weaker, base, ["victory", "rounds"]).set_index("metric")
    gap = (weaker.records["end_reason"] == "victory").mean() - (base.records["end_reason"] == "victory").mean()
    assert table.loc["victory", "diff"] == pytest.approx(gap)
    assert table.loc["victory", "ci_low"] > 0  # weaker legions: more team victories
    assert table.attrs["provenance"]["a"]["variant"]["legion_offset"] == -1
    other_seed = simulate("parthian", {"n_players": 4}, "random", 3000, seed=3)
    with pytest.raises(ValueError, match="different seeds"):
        T.paired_table(other_seed, base, ["victory"])


def test_summary_text_names_the_batch_and_every_seat(mixed):
    text = T.summary_text(mixed)
    assert text.startswith("Parthian Shot: 4 players") and "n=4,000" in text
    assert all(label in text for label in ("cautious", "glory", "victory", "q95"))
