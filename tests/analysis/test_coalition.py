"""Issue 61, item 5: where the strong field's games are rarely won, a single deviation and a
coalition toward winning are measured, and the report says whether the verdict is the game's."""
import numpy as np
import pandas as pd
import pytest

from analysis.coalition import coalition_reading, coalition_table


def table(field, alone, whole, n=4):
    """A coalition table: the field's per-seat share, a lone joiner's, a whole table's (each a
    (share, low, high))."""
    rows = [{"joiner": "fighter", "k": 0, "joiners_share": np.nan, "joiners_low": np.nan,
             "joiners_high": np.nan, "field_share": field[0], "field_low": field[1],
             "field_high": field[2], "decided": 0.02}]
    for k in range(1, n + 1):
        share = alone if k == 1 else whole if k == n else (0.0, 0.0, 0.0)
        rows.append({"joiner": "fighter", "k": k, "joiners_share": share[0],
                     "joiners_low": share[1], "joiners_high": share[2], "field_share": 0.0,
                     "field_low": 0.0, "field_high": 0.0, "decided": 0.3 if k == n else 0.02})
    return pd.DataFrame(rows)


def test_a_lone_seat_that_gains_makes_the_verdict_the_meta_games():
    kind, text = coalition_reading(table((0.004, 0.003, 0.005), (0.05, 0.04, 0.06),
                                         (0.2, 0.19, 0.21)))
    assert kind == "deviation" and "not an equilibrium" in text and "5.0%" in text


def test_a_table_that_gains_only_together_is_a_social_dilemma():
    kind, text = coalition_reading(table((0.004, 0.003, 0.005), (0.001, 0.0, 0.002),
                                         (0.2, 0.19, 0.21)))
    assert kind == "dilemma" and "social dilemma" in text and "20.0% each" in text
    assert "hands the win to the others" in text


def test_fighting_that_pays_at_no_size_is_said_so():
    kind, text = coalition_reading(table((0.004, 0.003, 0.005), (0.001, 0.0, 0.002),
                                         (0.004, 0.003, 0.006)))
    assert kind == "neither"


def test_overlapping_intervals_decide_nothing():
    """A lone joiner's interval that touches the field's is no gain (the interval, not luck)."""
    kind, _ = coalition_reading(table((0.010, 0.008, 0.012), (0.013, 0.0115, 0.0145),
                                      (0.011, 0.009, 0.013)))
    assert kind == "neither"


@pytest.mark.timeout(600)
def test_a_real_table_counts_every_seat_and_game():
    """Parthian Shot at 3 players, the shipped field against cautious: one row per k, the
    field alone once (the same row for every joiner), every share a chance in [0, 1], and the
    shares of a seat-rotated table add up to the games won (a shared win splits)."""
    found = coalition_table("parthian", {"n_players": 3}, joiners=["cautious", "glory"],
                            n_games=600, seed=3)
    assert list(found["k"]) == [0, 1, 2, 3] * 2
    first = found[found["k"] == 0]
    assert first.drop(columns="joiner").nunique().max() == 1
    shares = found[["joiners_share", "field_share", "decided"]].to_numpy()
    assert np.nanmin(shares) >= 0 and np.nanmax(shares) <= 1
    for row in found.itertuples():
        seats = (row.k * (0 if np.isnan(row.joiners_share) else row.joiners_share)
                 + (3 - row.k) * (0 if np.isnan(row.field_share) else row.field_share))
        assert seats == pytest.approx(row.decided, abs=1e-9)
    assert found.attrs["provenance"]["field"] == "strong"
