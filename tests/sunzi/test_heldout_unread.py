"""The unread held-out Sunzi players (heldout/sunzi_unread.py: reader, gambler): they answer
only with legal actions, in the basic game and in the advanced warlord game (decisions the basic
game never asks), beat random with an interval, and heldout.measure / heldout.tune find them
next to heldout/sunzi.py's players. Small batches: a check of the plumbing and of a floor, not a
measure (heldout.measure is the measure)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

import heldout.sunzi_unread as unread  # noqa: E402
from analysis.training import shares  # noqa: E402
from heldout.measure import players  # noqa: E402
from heldout.tune import knobs  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.runner import as_rules, simulate  # noqa: E402

NAMES = ("reader", "gambler")


def test_the_unread_players_are_found_with_their_knobs():
    roster = players("sunzi")
    assert set(NAMES) <= set(roster)
    assert set(unread.PLAYERS) == set(NAMES) == set(unread.KNOBS)
    for name in NAMES:
        assert roster[name] is unread.PLAYERS[name]
        ranges = knobs("sunzi", name)
        assert 3 <= len(ranges) <= 6 and ranges == [tuple(map(float, r))
                                                     for r in unread.KNOBS[name]]
        for lo, hi in ranges:
            assert lo < hi and lo <= 0 <= hi, (name, lo, hi)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rules, n_games", [(None, 300),
                                            ({"mode": "advanced", "warlord": True}, 100)])
def test_an_unread_player_answers_only_legal_actions(name, rules, n_games):
    """An illegal answer would stop the batch with a StrategyError; every game ends by a rule
    (SZ-19, SZ-20), never by a broken invariant, and has its win shared out."""
    records = simulate("sunzi", rules, [players("sunzi")[name], "random"], n_games, seed=9,
                       rotate_seats=True, progress=False).records
    assert len(records) == n_games
    assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()
    assert ((records["win_0"] + records["win_1"]).round(9) == 1).all()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
def test_an_unread_player_beats_random(name):
    spec = get_game("sunzi")
    result = shares(spec, as_rules(spec, None), [players("sunzi")[name], "random"], 400, seed=10)
    assert result["low"] > 0.5, f"{name} wins only {result['share']:.3f} against random"
