"""Global sensitivity: a parameter with no effect gets zero indices; an active one does not."""
import pytest

from analysis.workbench import sensitivity, sensitivity_figure
from sim.errors import BalanceError


def test_inactive_parameter_has_zero_indices():
    """PS-4: with charges=0 the charge threshold never acts; legion strength (OP-1) does (on the
    game length: without charges the team almost never wins, so victory barely moves)."""
    table = sensitivity("parthian", ["charge_threshold=5..13", "legion_offset=-2..2"],
                        {"n_players": 4, "charges": 0}, "random", n_games=1000, samples=8,
                        metrics=["rounds_mean"])
    value = table.set_index(["method", "parameter", "index"])["value"]
    assert value[("morris", "charge_threshold", "mu_star")] == 0
    assert value[("morris", "legion_offset", "mu_star")] > 0.3   # rounds
    assert value[("sobol", "charge_threshold", "ST")] == pytest.approx(0, abs=1e-9)
    assert value[("sobol", "legion_offset", "ST")] > 0.5
    assert sensitivity_figure(table) is not None


@pytest.mark.parametrize("vary, message", [
    (["charge_threshold=9..5"], "must be increasing"),
    (["charge_threshold=5..x"], "LO..HI"),
    (["charges=0..20"], "inside its bounds"),
    (["nothing"], "not a tunable"),
])
def test_bad_ranges_fail_clearly(vary, message):
    with pytest.raises(BalanceError, match=message):
        sensitivity("parthian", vary, n_games=100, samples=4)


def test_unknown_method_and_metric_are_named():
    with pytest.raises(BalanceError, match="fast"):
        sensitivity("parthian", ["charges"], methods=["fast"])
    with pytest.raises(BalanceError, match="bogus"):
        sensitivity("parthian", ["charges"], metrics=["bogus"])
