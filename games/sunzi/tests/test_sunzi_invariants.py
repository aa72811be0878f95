"""Invariants over many games of every mode, and seat balance under mirrored strategies.

Army conservation (supply + map + markers + removed = start + bought, no count below zero) is
checked by the kernel itself after every round: a violation ends the game with end reason
"invariant_broken". These batches check that it never fires, and the final records too.
"""
import pytest

from analysis.stats import wilson
from sim.runner import kernel_state, simulate
from games.sunzi import kernel as K
from games.sunzi import layout as L
from games.sunzi.rules import SunziRules

VARIANTS = {
    "basic": {},
    "advanced": {"mode": "advanced"},
    "warlord basic": {"warlord": True},
    "warlord advanced, deck leaders": {"warlord": True, "mode": "advanced", "leader_card": "deck",
                                       "round6_powers": "round_start"},
    "every other reading": {"mode": "advanced", "warlord": True, "plague_rounding": "ruling",
                            "fewer_armies": "supply", "split": "remove_first", "cost_from": "region_first",
                            "tied_region": "markers", "as_six": "value", "chu_plague": "opponent",
                            "buy_timing": "after_battles", "full_tie": "nobody",
                            "order_timing": "before_placement", "removed_armies": "supply",
                            "scoring_steps": "net"},
    "ring of 6, few armies": {"regions": ("A", "B", "C", "D", "E", "F"), "armies": 7, "track_length": 5,
                              "adjacency": ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0))},
}


# The many-game tests have a time limit so that a hang fails (issue 21): each case takes
# under 1 s warm, but the first to run compiles Sunzi's kernels, 202 s cold on the busy 2-core
# machine.
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", VARIANTS)
def test_armies_are_conserved_and_records_are_consistent(name):
    rules = SunziRules(**VARIANTS[name])
    table = simulate("sunzi", rules, ["random", "counter"], 6000, seed=7).records
    mirror = simulate("sunzi", rules, ["greedy", "random"], 2000, seed=8).records
    for t in (table, mirror):
        assert (t.end_reason != "invariant_broken").all()
        for s in (0, 1):
            total = t[f"supply_{s}"] + t[f"armies_{s}"] + t[f"markers_{s}"] + t[f"removed_{s}"]
            assert (total == rules.start_armies() + t[f"bought_{s}"]).all()
            assert (t[[f"supply_{s}", f"armies_{s}", f"markers_{s}"]] >= 0).all().all()
        track = rules.track_length
        assert t.rounds.isin([3, 6, 9]).all() and (t.general.abs() <= track).all()
        red = t.end_reason == "red_zone"
        assert (t.general[red].abs() == track).all() and (t.rounds[~red] == 9).all()
        white_won = t.win_0 == 1
        assert (t.general[white_won & (t.end_reason != "supply")] > 0).all()
        assert ((t.win_0 + t.win_1)[t.end_reason != "draw"] == 1).all()


def test_the_kernels_conservation_check_catches_a_lost_army():
    g = kernel_state("sunzi", SunziRules())
    pub = g.rec[0]["pub"]
    pub[L.P.N_REGIONS] = 5
    for s in (0, 1):  # 21 armies in each supply, none on the map
        pub[L.seat_at(s, L.S.SUPPLY)] = 21
    assert K.conserved(g)
    pub[L.region_at(2, L.RG.ARMIES + 1)] += 1  # an army appears on the map from nowhere
    assert not K.conserved(g)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("mode", ["basic", "advanced"])
@pytest.mark.parametrize("strategy, n", [("random", 60_000), ("greedy", 20_000)])
def test_sides_win_equally_with_the_same_strategy(mode, strategy, n):
    """Both sides have the same rules outside warlord mode, so with the same strategy on both
    seats White's win share (draws count half) must be 1/2: 0.5 lies inside its 99.9% Wilson
    interval (half-width about 0.7 points at 60,000 games)."""
    summary = simulate("sunzi", {"mode": mode}, strategy, n, seed=2026, stream=True).summary
    low, high = wilson(summary.win_sums[0], n, confidence=0.999)
    assert low < 0.5 < high
    black_low, black_high = wilson(summary.win_sums[1], n, confidence=0.999)
    assert black_low < 0.5 < black_high


@pytest.mark.timeout(600)
def test_every_leader_pairing_runs():
    """Warlord mode: all 4 x 4 fixed pairings (SZ-3) play without error and record the pick."""
    for white in "abcd":
        for black in "abcd":
            rules = {"warlord": True, "mode": "advanced", "leader_white": white, "leader_black": black}
            t = simulate("sunzi", rules, ["greedy", "counter"], 200, seed=3).records
            assert (t.leader_0 == "abcd".index(white)).all() and (t.leader_1 == "abcd".index(black)).all()
            assert (t.end_reason != "invariant_broken").all()
