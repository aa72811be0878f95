"""Summaries stay exact however many games are merged (issue 11, item 6).

Merging is tested on synthetic summaries whose counts pass 10^9 (and 2^53, where float64 sums
stop counting by one), not by simulating that many games.
"""
from fractions import Fraction

import numpy as np
import pytest

from sim.errors import RunError
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.games import get_game
from sim.results import Summary

SPEC = get_game("parthian")
N_SEATS = 3


def matrix(rows):
    """A record matrix for 3 seats from (length, end, winners bitmask, value of the last column)."""
    m = np.zeros((len(rows), SPEC.record_width(N_SEATS)), np.int16)
    for i, (length, end, winners, last) in enumerate(rows):
        m[i, RECORD_LENGTH], m[i, RECORD_END], m[i, RECORD_WINNERS], m[i, -1] = length, end, winners, last
    return m


def scaled(summary: Summary, factor: int) -> Summary:
    """The summary of ``factor`` copies of the same games, built as a real merge would leave it."""
    s = Summary.from_dict(summary.to_dict())
    s.n_games *= factor
    s.column_sums = s.column_sums * factor
    s.column_squares = s.column_squares * factor
    s.win_counts = s.win_counts * factor
    s.end_counts = s.end_counts * factor
    s.length_hist = s.length_hist * factor
    s.rotation_games = s.rotation_games * factor
    return s


BASE = Summary.of(SPEC, N_SEATS, matrix([(7, 0, 0b001, 32767), (9, 1, 0b011, -32768),
                                          (5, 0, 0b111, 3), (4, 2, 0, 1)]))


def test_a_chunk_counts_shared_wins_by_number_of_winners():
    # win_counts[rotation, end, k - 1, seat]
    assert BASE.win_counts[0, 0, 0].tolist() == [1, 0, 0]
    assert BASE.win_counts[0, 1, 1].tolist() == [1, 1, 0]
    assert BASE.win_counts[0, 0, 2].tolist() == [1, 1, 1]
    np.testing.assert_allclose(BASE.win_sums, [1 + 1 / 2 + 1 / 3, 1 / 2 + 1 / 3, 1 / 3])
    assert BASE.n_decided == 3


def test_merged_counts_past_a_billion_games_stay_exact():
    factor = 10**9 + 7
    big = scaled(BASE, factor)
    merged = big + big + BASE
    n = 2 * factor + 1
    assert merged.n_games == 4 * n and merged.n_decided == 3 * n
    assert merged.end_counts.sum() == 4 * n
    last = merged.columns[-1]
    # 32767 - 32768 + 3 + 1 = 3 per copy; sum of squares 2 * 32767.5^2-ish: exact integers
    assert merged.column_sums[-1] == 3 * n
    assert merged.column_squares[-1] == (32767**2 + 32768**2 + 9 + 1) * n
    assert merged.mean(last) == 3 / 4
    exact_var = Fraction(32767**2 + 32768**2 + 10, 4) - Fraction(3, 4) ** 2
    assert merged.std(last) == pytest.approx(float(exact_var) ** 0.5, rel=1e-15)
    # a float64 accumulator would have lost these: 2^53 is about 9e15
    assert merged.column_squares[-1] > 2**53


def test_win_shares_are_exact_fractions_rounded_once():
    factor = 3 * 10**15 + 1   # past 2^53 / 3: summing 1/3 as floats would drift
    big = scaled(BASE, factor) + BASE
    n = factor + 1
    expected = [Fraction(11, 6) * n, Fraction(5, 6) * n, Fraction(1, 3) * n]
    assert big.win_sums.tolist() == [float(x) for x in expected]
    squares = [1 + Fraction(1, 4) + Fraction(1, 9), Fraction(1, 4) + Fraction(1, 9), Fraction(1, 9)]
    assert big.win_sumsq.tolist() == [float(x * n) for x in squares]
    assert big.n_decided == 3 * n


def test_counts_past_int64_are_refused_not_wrapped():
    huge = scaled(BASE, 2**61)
    with pytest.raises(RunError, match="2\\^63"):
        huge + huge + huge + huge + huge


def test_round_trip_through_plain_data_is_exact():
    big = scaled(BASE, 10**12) + BASE
    back = Summary.from_dict(big.to_dict())
    for name in ("column_sums", "column_squares", "win_counts", "end_counts", "length_hist",
                 "mins", "maxs"):
        assert np.array_equal(getattr(back, name), getattr(big, name)), name
    assert back.n_games == big.n_games
