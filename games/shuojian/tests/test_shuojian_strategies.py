"""The built-in strategies: the heuristics beat random play, and card counting names the
opponent's swordsman better than a guess (SJ-11). Intervals, not luck: 99.9% Wilson intervals."""
import pytest

from analysis.stats import wilson
from sim.runner import simulate

# Many-game tests carry a time limit, so that a hang fails (issue 21): about 4x the warm duration
# plus up to 5 minutes for a cold kernel compile on a loaded machine (60-75 s measured at load
# 2-3; about 3 minutes reported under heavy load).
# method="thread": a hang inside a Numba loop never returns to the interpreter, so the default
# signal method could not stop it.


def win_share(strategies, n=6000, seed=31, **options):
    """Share of seat 0 over games with the seats swapped half the time (first player random)."""
    a = simulate("shuojian", options or None, strategies, n, seed=seed).records
    b = simulate("shuojian", options or None, strategies[::-1], n, seed=seed + 1).records
    return a.win_0.sum() + b.win_1.sum(), 2 * n


@pytest.mark.timeout(300, method="thread")  # ~0.3 s warm
def test_thrifty_and_counter_beat_random():
    for strategy in ("thrifty", "counter"):
        wins, n = win_share([strategy, "random"])
        low, _ = wilson(wins, n, confidence=0.999)
        assert low > 0.5, strategy


@pytest.mark.timeout(300, method="thread")  # ~0.5 s warm
def test_counting_cards_names_the_swordsman_more_often():
    """SJ-11: the counter strategy's Counter-kills are right more often than thrifty's guesses."""
    rates = {}
    for strategy in ("thrifty", "counter"):
        t = simulate("shuojian", {"counter_kills": 4}, strategy, 20_000, seed=8).records
        rates[strategy] = (t.counter_kills_right.sum(), t.counter_kills.sum())
    (k_t, n_t), (k_c, n_c) = rates["thrifty"], rates["counter"]
    _, high_t = wilson(k_t, n_t, confidence=0.999)
    low_c, _ = wilson(k_c, n_c, confidence=0.999)
    assert low_c > high_t


@pytest.mark.timeout(300, method="thread")  # ~0.1 s warm
def test_the_heuristics_never_throw_a_game_away_with_a_void_dodge():
    t = simulate("shuojian", None, ["thrifty", "counter"], 5000, seed=4).records
    assert (t.end_reason != "void_dodge").all()
