"""Every held-out Sunzi player (heldout/sunzi.py and every heldout/sunzi_*.py module) in the
advanced warlord game, which asks decisions the basic game never does (D.BUY, D.LEADER, D.POWER,
D.TARGET; SZ-2, SZ-3): it answers only with legal actions and plays the same games from the same
seed. tests/engine/test_heldout.py covers the basic game, the win against random and the knobs
for every game's held-out players. Small batches: a check of the plumbing, not a measure
(heldout.measure is the measure)."""
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

from heldout.measure import players  # noqa: E402
from sim.runner import simulate  # noqa: E402

NAMES = list(players("sunzi"))
WARLORD = {"mode": "advanced", "warlord": True}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
def test_a_heldout_player_answers_only_legal_actions_in_the_warlord_game(name):
    """An illegal answer would stop the batch with a StrategyError; every game ends by a rule
    (SZ-19, SZ-20), never by a broken invariant, and has its win shared out."""
    records = simulate("sunzi", WARLORD, [players("sunzi")[name], "random"], 100, seed=9,
                       rotate_seats=True, progress=False).records
    assert len(records) == 100
    assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()
    assert ((records["win_0"] + records["win_1"]).round(9) == 1).all()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NAMES)
def test_a_heldout_player_plays_the_same_games_from_the_same_seed(name):
    """Its randomness comes from its own stream (sim.rng), its memory is zeroed every game."""
    runs = [simulate("sunzi", WARLORD, [players("sunzi")[name], "random"], 40, seed=5,
                     rotate_seats=True, progress=False).records for _ in range(2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", ["solver", "rusher"])
def test_the_fresh_players_use_the_warlord_and_advanced_decisions(name):
    """What heldout/sunzi_solver_rusher.py's author says they do: in the advanced warlord game the leader
    power is used and armies are bought when supply runs out (SZ-2, SZ-3), answers that act, not
    only legal ones."""
    records = simulate("sunzi", WARLORD, [players("sunzi")[name], "random"], 100, seed=4,
                       rotate_seats=True, progress=False).records
    mine = records["strategy_0"] == name
    used = records["leader_round_0"].where(mine, records["leader_round_1"])
    bought = records["bought_0"].where(mine, records["bought_1"])
    assert (used >= 0).any() and (bought > 0).any()
