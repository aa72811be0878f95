"""Sunzi tables (games.sunzi.study.tables) against the per-game records of small real batches.

The first test to run compiles the Sunzi kernel if the disk cache is cold (about 100 s).
"""
import numpy as np
import pandas as pd
import pytest

from games.sunzi.study import tables as SZ
from sim.runner import simulate

N = 3000


def run(rules, strategies="random", seed=4, n=N):
    return simulate("sunzi", rules, strategies, n, seed=seed, backend="threading", jobs=2)


@pytest.fixture(scope="module")
def advanced():
    return run({"mode": "advanced"})


@pytest.fixture(scope="module")
def basic():
    return run({"mode": "basic"})


def test_side_rates_count_a_draw_as_half(advanced):
    table = SZ.side_table(advanced)
    records = advanced.records
    assert list(table["side"]) == ["White (Sun Wu)", "Black (Chu)"]
    assert table["win_rate"].sum() == pytest.approx(1.0)   # every game decided or drawn
    draws = (records["end_reason"] == "draw").to_numpy()
    assert draws.any()   # guards the next line: it must exercise the half wins
    assert ((records["win_0"] == 0.5) == draws).all()   # OP-12: a draw, and only a draw, halves
    white = (records["win_0"] == 1).sum() + 0.5 * draws.sum()
    assert table["win_rate"].iloc[0] == pytest.approx(white / N)
    assert (table["ci_low"] < table["win_rate"]).all() and (table["win_rate"] < table["ci_high"]).all()


def test_outcomes_split_red_zone_wins_by_round(advanced):
    table = SZ.outcome_table(advanced).set_index("outcome")
    records = advanced.records
    red = records["end_reason"] == "red_zone"
    assert table["games"].sum() == N
    for r in (3, 6, 9):
        assert table.loc[f"red zone, round {r}", "games"] == (red & (records["rounds"] == r)).sum()
    assert table["white_wins"].sum() == pytest.approx(records["win_0"].sum())
    assert table.loc["draw", "white_share"] == 0.5
    stages = SZ.stage_table(advanced).set_index("stage")
    assert stages.loc["early", "games"] == (red & (records["rounds"] < 9)).sum() > 0
    assert stages.loc["round 9", "games"] + stages.loc["early", "games"] == N


def test_margin_spikes_are_the_red_zone_wins(advanced):
    margin = SZ.margin_counts(advanced).set_index("general")
    assert list(margin.index) == list(range(-9, 10))
    assert margin["share"].sum() == pytest.approx(1.0)
    red = advanced.records["end_reason"] == "red_zone"
    assert margin.loc[[-9, 9], "games"].sum() == red.sum()
    leads = SZ.lead_change_counts(advanced)
    assert list(leads["lead_changes"]) == [0, 1, 2]
    assert (leads["games"] * leads["lead_changes"]).sum() == advanced.records["lead_changes"].sum()


def test_card_table_covers_the_mode_deck(basic, advanced):
    cards_basic, cards_adv = SZ.card_table(basic), SZ.card_table(advanced)
    assert list(cards_basic["card"].unique()) == ["7", "8", "9", "10", "+1", "-1", "Plague"]
    assert len(cards_adv) == 2 * 9
    for table in (cards_basic, cards_adv):
        # SZ-6: each side's opening hand holds 4 deck cards.
        assert (table.groupby("seat")["n_oh"].sum() == 4 * N).all()
        assert ((0 <= table["play_rate"]) & (table["play_rate"] <= 1)).all()
        assert (table["n_gih"] + table["n_gns"] == N).all()


def test_mode_comparison_of_identical_variants_is_exactly_zero():
    # Common random numbers: the same rules on the same seed replay every game exactly.
    a, b = run({"mode": "advanced"}, seed=9, n=2000), run({"mode": "advanced"}, seed=9, n=2000)
    table = SZ.mode_comparison([({"mode": "basic"}, a), ({"mode": "again"}, b)])
    row = table.iloc[0]
    assert row["comparison"] == "again - basic" and row["n"] == 2000
    assert row["diff"] == 0.0 and np.isnan(row["ci_low"]) and np.isnan(row["p"])
    assert row["same_opening"] == 1.0 and row["corr"] == pytest.approx(1.0)


def test_mode_comparison_pairs_within_each_group(basic, advanced):
    counter_basic = run({"mode": "basic", "warlord": True}, strategies="counter")
    counter_base = run({"mode": "basic"}, strategies="counter")
    table = SZ.mode_comparison([
        ({"pairing": "random", "mode": "basic"}, basic),
        ({"pairing": "random", "mode": "advanced"}, advanced),
        ({"pairing": "counter", "mode": "basic"}, counter_base),
        ({"pairing": "counter", "mode": "warlord basic"}, counter_basic)])
    assert list(table["comparison"]) == ["advanced - basic", "warlord basic - basic"]
    assert list(table["pairing"]) == ["random", "counter"]
    np.testing.assert_allclose(
        table["diff"], [advanced.records["win_0"].mean() - basic.records["win_0"].mean(),
                        counter_basic.records["win_0"].mean() - counter_base.records["win_0"].mean()])
    assert (table["p_holm"] >= table["p"]).all()
    # Basic and warlord basic deal the same opening hands; basic and advanced decks differ.
    assert table["same_opening"].iloc[1] == 1.0 and table["same_opening"].iloc[0] < 0.2


def test_mode_comparison_refuses_different_seeds(basic):
    other = run({"mode": "advanced"}, seed=5)
    with pytest.raises(ValueError, match="different seeds"):
        SZ.mode_comparison([({"mode": "basic"}, basic), ({"mode": "advanced"}, other)])
    with pytest.raises(ValueError, match="no mode='basic' batch"):
        SZ.mode_comparison([({"mode": "advanced"}, other)])


def test_leader_grid_and_picks():
    batches = [({"leader_white": lw, "leader_black": lb},
                run({"mode": "basic", "warlord": True, "leader_white": lw, "leader_black": lb},
                    n=500))
               for lw in "ab" for lb in "cd"]
    grid = SZ.leader_grid(batches)
    assert list(zip(grid["leader_white"], grid["leader_black"])) == [
        ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]
    assert list(grid["white_leader"].unique()) == ["a: outpost", "b: reinforce"]
    np.testing.assert_allclose(grid["white_win_rate"],
                               [b.records["win_0"].mean() for _, b in batches])
    assert (grid["p_holm"] >= grid["p"]).all()
    picks = SZ.leader_picks(batches[1][1]).set_index(["seat", "leader"])
    assert picks.loc[(0, "a"), "share"] == 1.0 and picks.loc[(1, "d"), "share"] == 1.0
    assert picks.loc[(0, "b"), "games"] == 0 and np.isnan(picks.loc[(0, "b"), "win_rate"])
