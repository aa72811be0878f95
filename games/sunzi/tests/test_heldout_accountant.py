"""The accountant, a held-out Sunzi player (heldout/sunzi_accountant.py: accountant): it answers only with
legal actions, against random and counter, with each leader power fixed and with rule options
that ask the other decisions differently, and at the corners of its knob ranges; it beats random
in the warlord game too. tests/engine/test_heldout.py and games/sunzi/tests/test_heldout_players.py
hold what every held-out player is checked for. Small batches: a check of the plumbing and of a
floor, not a measure (heldout.measure is the measure)."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

from analysis.training import shares  # noqa: E402
from heldout.measure import players  # noqa: E402
from heldout.tune import knobs  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.runner import as_rules, simulate  # noqa: E402

NAME = "accountant"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("rules, n_games", [
    # every leader power in play (SZ-16, SZ-17), whoever holds it
    ({"mode": "advanced", "warlord": True, "leader_white": "b", "leader_black": "a"}, 60),
    ({"mode": "advanced", "warlord": True, "leader_white": "c", "leader_black": "b"}, 60),
    ({"mode": "advanced", "warlord": True, "leader_white": "d", "leader_black": "c"}, 60),
    # the other readings that change what is asked and when (OP-9, OP-11, OP-13, SZ-8, SZ-15)
    ({"mode": "basic", "warlord": True, "leader_card": "deck", "buy_timing": "after_battles",
      "order_choice": "region_by_region"}, 60),
    ({"mode": "advanced", "buy_timing": "after_battles", "six_power": "always",
      "order_timing": "before_placement"}, 60),
])
def test_the_ledger_player_answers_only_legal_actions(rules, n_games):
    """An illegal answer would stop the batch with a StrategyError; every game ends by a rule
    (SZ-19, SZ-20), never by a broken invariant, and has its win shared out."""
    for opponent in ("random", "counter"):
        records = simulate("sunzi", rules, [players("sunzi")[NAME], opponent], n_games, seed=9,
                           rotate_seats=True, progress=False).records
        assert len(records) == n_games
        assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()
        assert ((records["win_0"] + records["win_1"]).round(9) == 1).all()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("rules", [{"mode": "advanced", "warlord": True}])
def test_the_ledger_player_beats_random(rules):
    spec = get_game("sunzi")
    result = shares(spec, as_rules(spec, rules), [players("sunzi")[NAME], "random"], 400, seed=10)
    assert result["low"] > 0.5, f"{NAME} wins only {result['share']:.3f} against random"


@pytest.mark.timeout(300)
def test_knob_settings_at_the_ends_of_the_ranges_still_play_legal_games():
    """heldout.tune draws settings anywhere in the ranges: the corners must play too."""
    ranges = knobs("sunzi", NAME)
    for values in ([lo for lo, _ in ranges], [hi for _, hi in ranges]):
        tuned = players("sunzi")[NAME].with_params(*values, name="heldout-accountant-corner")
        records = simulate("sunzi", {"mode": "advanced", "warlord": True}, [tuned, "random"],
                           60, seed=3, rotate_seats=True, progress=False).records
        assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()
