"""The fresh held-out Sunzi players (heldout/sunzi_fresh.py: solver, rusher): they answer only
with legal actions, in the basic game and in the advanced warlord game (decisions the basic game
never asks: D.BUY, D.LEADER, D.POWER, D.TARGET), play the same games from the same seed, beat
random with an interval, and heldout.measure / heldout.tune find them next to the other held-out
modules' players. Small batches: a check of the plumbing and of a floor, not a measure
(heldout.measure is the measure)."""
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

import heldout.sunzi_fresh as fresh  # noqa: E402
from analysis.training import shares  # noqa: E402
from heldout.measure import modules, players  # noqa: E402
from heldout.tune import knobs  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.runner import as_rules, simulate  # noqa: E402

NAMES = ("solver", "rusher")
WARLORD = {"mode": "advanced", "warlord": True}


def test_the_fresh_players_are_found_with_their_knobs():
    assert fresh in modules("sunzi")
    roster = players("sunzi")
    assert set(NAMES) <= set(roster)
    assert set(fresh.PLAYERS) == set(NAMES) == set(fresh.KNOBS)
    for name in NAMES:
        assert roster[name] is fresh.PLAYERS[name]
        ranges = knobs("sunzi", name)
        assert 3 <= len(ranges) <= 6 and ranges == [tuple(map(float, r))
                                                     for r in fresh.KNOBS[name]]
        for lo, hi in ranges:
            assert lo < hi and lo <= 0 <= hi, (name, lo, hi)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rules, n_games", [(None, 300), (WARLORD, 200)])
def test_a_fresh_player_answers_only_legal_actions(name, rules, n_games):
    """An illegal answer would stop the batch with a StrategyError; every game ends by a rule
    (SZ-19, SZ-20), never by a broken invariant, and has its win shared out."""
    records = simulate("sunzi", rules, [players("sunzi")[name], "random"], n_games, seed=9,
                       rotate_seats=True, progress=False).records
    assert len(records) == n_games
    assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()
    assert ((records["win_0"] + records["win_1"]).round(9) == 1).all()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
def test_a_fresh_player_uses_the_warlord_and_advanced_decisions(name):
    """In the advanced warlord game its leader power is used (Sun Wu a at set-up, Chu d in
    round 6) and it buys armies when its supply runs out (SZ-2): those decisions get answers
    that act, not only legal ones."""
    records = simulate("sunzi", WARLORD, [players("sunzi")[name], "random"], 100, seed=4,
                       rotate_seats=True, progress=False).records
    mine = records["strategy_0"] == name
    used = records["leader_round_0"].where(mine, records["leader_round_1"])
    bought = records["bought_0"].where(mine, records["bought_1"])
    assert (used >= 0).any() and (bought > 0).any()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
def test_a_fresh_player_plays_the_same_games_from_the_same_seed(name):
    """Its randomness comes from its own stream (sim.rng), its memory is zeroed every game."""
    runs = [simulate("sunzi", WARLORD, [players("sunzi")[name], "random"], 40, seed=5,
                     rotate_seats=True, progress=False).records for _ in range(2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
def test_a_fresh_player_beats_random(name):
    spec = get_game("sunzi")
    result = shares(spec, as_rules(spec, None), [players("sunzi")[name], "random"], 300, seed=10)
    assert result["low"] > 0.8, f"{name} wins only {result['share']:.3f} against random"
