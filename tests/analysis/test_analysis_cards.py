"""Card tables (analysis.cards) on a hand-built record table whose answers are worked out by hand."""
import numpy as np
import pandas as pd
import pytest

from analysis.cards import card_table
from analysis.stats import newcombe_difference, wilson

A, B, C = 1, 2, 4   # bits of cards "A", "B", "C"


@pytest.fixture
def records():
    # Five games. Seat 0's masks include the opening hand in `drawn`; seat 1's `drawn` holds only
    # the cards drawn later (game 0: A only in the opening hand), so card_table must add them.
    frame = pd.DataFrame({
        "win_0":     [1.0,   0.0, 0.5,   1.0, 0.0],
        "opening_0": [A,     B,   A,     0,   A | B],
        "drawn_0":   [A | B, B,   A | C, C,   A | B],
        "played_0":  [A,     B,   C,     0,   A | B],
        "opening_1": [A,     0,   0,     0,   0],
        "drawn_1":   [0,     0,   0,     0,   C],
        "played_1":  [A,     0,   0,     0,   0],
    })
    frame["win_1"] = 1 - frame["win_0"]
    return frame


def row(table, seat, card):
    return table[(table["seat"] == seat) & (table["card"] == card)].iloc[0]


def test_seat_0_by_hand(records):
    table = card_table(records, ["A", "B", "C"], seats=[0])
    assert list(table["card"]) == ["A", "B", "C"] and (table["n_games"] == 5).all()
    assert table["win_rate"].iloc[0] == pytest.approx(2.5 / 5)
    a, b, c = (row(table, 0, k) for k in "ABC")
    # A: held in games 0, 2, 4 (wins 1 + 0.5 + 0), always from the opening hand; played in 0, 4.
    assert (a["n_gih"], a["gih_wr"]) == (3, pytest.approx(0.5))
    assert (a["n_oh"], a["oh_wr"], a["n_gd"]) == (3, pytest.approx(0.5), 0)
    assert np.isnan(a["gd_wr"]) and np.isnan(a["gd_low"])
    assert (a["n_gns"], a["gns_wr"], a["iwd"]) == (2, pytest.approx(0.5), pytest.approx(0.0))
    assert (a["n_played"], a["played_wr"], a["play_rate"]) == (2, pytest.approx(0.5),
                                                                pytest.approx(2 / 3))
    # B: held in 0, 1, 4 (wins 1); opening in 1, 4 (wins 0); drawn later in 0 (won).
    assert b["gih_wr"] == pytest.approx(1 / 3) and b["oh_wr"] == 0.0 and b["gd_wr"] == 1.0
    assert b["gns_wr"] == pytest.approx(0.75) and b["iwd"] == pytest.approx(1 / 3 - 0.75)
    assert b["noh_wr"] == pytest.approx(2.5 / 3) and b["oh_gain"] == pytest.approx(-2.5 / 3)
    assert b["played_wr"] == 0.0 and b["n_played"] == 2
    # C: never in an opening hand; held in 2, 3 (wins 1.5); played in 2.
    assert c["n_oh"] == 0 and np.isnan(c["oh_wr"]) and np.isnan(c["oh_gain"])
    assert c["gd_wr"] == pytest.approx(0.75) and c["gns_wr"] == pytest.approx(1 / 3)
    assert c["iwd"] == pytest.approx(0.75 - 1 / 3) and c["play_rate"] == pytest.approx(0.5)


def test_intervals(records):
    table = card_table(records, ["A", "B", "C"], seats=[0])
    b = row(table, 0, "B")
    low, high = wilson(1.0, 3)
    assert (b["gih_low"], b["gih_high"]) == (pytest.approx(low), pytest.approx(high))
    low, high = wilson(2, 3)    # play rate of B: played in 2 of the 3 games it was held
    assert (b["play_rate_low"], b["play_rate_high"]) == (pytest.approx(low), pytest.approx(high))
    iwd = newcombe_difference(1.0, 3, 1.5, 2)
    assert (b["iwd_low"], b["iwd_high"]) == (pytest.approx(iwd["ci_low"]), pytest.approx(iwd["ci_high"]))
    for name in ("gih", "oh", "gd", "gns", "played"):
        valid = table[f"n_{name}"] > 0
        assert (table.loc[valid, f"{name}_low"] <= table.loc[valid, f"{name}_wr"] + 1e-12).all()
        assert (table.loc[valid, f"{name}_wr"] <= table.loc[valid, f"{name}_high"] + 1e-12).all()


def test_held_includes_the_opening_hand(records):
    # Seat 1's `drawn` lacks A in game 0, but A was in its opening hand: it was held.
    table = card_table(records, {0: "A", 2: "C"}, seats={1: "Black"})
    assert list(table["card"]) == ["A", "C"] and (table["side"] == "Black").all()
    a = row(table, 1, "A")
    assert (a["n_gih"], a["gih_wr"], a["play_rate"]) == (1, 0.0, 1.0)
    assert row(table, 1, "C")["n_gih"] == 1


def test_default_seats_and_optional_masks(records):
    table = card_table(records, ["A", "B", "C"], opening=None, played=None)
    assert sorted(table["seat"].unique()) == [0, 1]
    assert not any(c.startswith(("oh", "gd", "noh", "played", "play_rate", "n_oh")) for c in table)
    assert "iwd" in table and "oh_gain" not in table


def test_contradicting_masks_are_an_error(records):
    records.loc[3, "played_0"] = B          # played B in a game it never held B
    with pytest.raises(ValueError, match="played card 'B' without holding it"):
        card_table(records, ["A", "B", "C"])
    with pytest.raises(KeyError, match="no record column 'seen_0'"):
        card_table(records, ["A"], held="seen_{seat}")


def test_newcombe_matches_the_published_example():
    # Newcombe (1998), Table II example (b): 56/70 vs 48/80, method 10: 0.0524 to 0.3339.
    out = newcombe_difference(56, 70, 48, 80)
    assert out["diff"] == pytest.approx(0.2)
    assert (out["ci_low"], out["ci_high"]) == (pytest.approx(0.0524, abs=1e-4),
                                               pytest.approx(0.3339, abs=1e-4))
    assert np.isnan(newcombe_difference(1, 0, 1, 2)["diff"])
