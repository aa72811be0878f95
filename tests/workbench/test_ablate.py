"""Ablation: paired effects with known answers (no effect -> exactly none; monotone -> its sign)."""
import numpy as np
import pytest

from analysis.markdown import Doc
from analysis.workbench import ablate, ablation_section, paired_effects, tornado
from sim.errors import BalanceError


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_merit_ties_has_no_effect_with_three_to_six_players(players):
    """OP-2: with 3-6 players the two readings of merit ties give the same games, so every
    paired difference is exactly zero (and has no interval: nothing varies)."""
    table = paired_effects("parthian", {"n_players": players}, "random",
                           {"any": {"merit_ties": "any"}}, n_games=2000, seed=1)
    assert (table["diff"] == 0).all()
    assert table["ci_low"].isna().all()


def test_stronger_legions_lower_team_victory():
    """OP-1 / PS-15: one step of legion_offset up makes every legion stronger, so the team wins
    less; one step down, more. The paired intervals exclude zero in the expected direction."""
    table = ablate("parthian", {"n_players": 4}, "random", 4000, seed=2, knobs=["legion_offset"])
    victory = table[table["metric"] == "victory"].set_index("step")
    assert victory.loc[1, "ci_high"] < 0 < victory.loc[-1, "ci_low"]
    assert set(victory["status"]) == {"ok"}


def test_charge_threshold_has_no_effect_without_charge_cards():
    """PS-4: with no charge cards (charges=0) the charge threshold is never consulted."""
    table = ablate("parthian", {"n_players": 4, "charges": 0}, "random", 2000,
                   knobs=["charge_threshold"])
    assert (table["diff"] == 0).all()


def test_steps_outside_the_bounds_are_listed_not_played():
    table = ablate("parthian", {"n_players": 3, "charges": 9}, "random", 1000, knobs=["charges"])
    up = table[(table["step"] == 1)]
    assert set(up["status"]) == {"out of bounds"} and up["diff"].isna().all()
    assert set(table[table["step"] == -1]["status"]) == {"ok"}


def test_every_tunable_is_ablated_and_drawn(tmp_path):
    table = ablate("parthian", {"n_players": 4}, "random", 1000)
    assert set(table["parameter"]) == {*(f"legions[{i}]" for i in range(7)), "legion_offset",
                                       "charge_threshold", "charges"}
    assert np.isfinite(table.loc[table["status"] == "ok", "diff"]).all()
    tornado(table).savefig(tmp_path / "t.png")
    doc = Doc(tmp_path / "report")
    ablation_section(doc, "parthian", {"n_players": 4}, "random", 500)
    assert (tmp_path / "report" / "ablation_tornado.png").exists()
    assert "Ablation" in doc.markdown()


def test_unknown_parameter_is_named():
    with pytest.raises(BalanceError, match="'wounds' is not a tunable"):
        ablate("parthian", None, "random", 100, knobs=["wounds"])
