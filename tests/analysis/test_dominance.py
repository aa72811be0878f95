"""The card table's dominance check (issue 61, item 4): an optional power whose removal helps
its owner significantly is a play artifact of that level, never a balance finding (SZ-3,
SZ-16, SZ-17: Sunzi's leader powers, which the kernel offers before each use)."""
import pandas as pd

from analysis import interventions as I


def table(rows) -> pd.DataFrame:
    base = {"card": "White leader c", "intervention": I.YARDSTICK, "status": "ok",
            "optional": True}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_an_optional_power_that_costs_its_owner_significantly_is_an_artifact():
    t = table([{"level": "random", "effect": 0.007, "significant": False},
               {"level": "strong", "effect": 0.039, "significant": True},
               {"level": "heuristic", "effect": -0.12, "significant": True}])
    assert I.play_artifact(t).tolist() == [False, True, False]


def test_a_power_that_is_not_optional_is_a_finding_either_way():
    t = table([{"level": "strong", "effect": 0.039, "significant": True, "optional": False}])
    assert not I.play_artifact(t).any()


def test_a_plus_one_is_no_removal_and_never_an_artifact():
    t = table([{"level": "strong", "effect": 0.05, "significant": True,
                "intervention": I.UP}])
    assert not I.play_artifact(t).any()


def test_a_sign_change_that_rests_on_an_optional_cost_is_not_reported():
    """The report once said "the effect of White leader (strategy's pick) changes sign between
    levels of play (random +0.7 pp, heuristic -12.4 pp, strong -28.3 pp)": random play's cost
    reading is how random play uses the leader, so no sign change is left."""
    t = table([{"level": "random", "effect": 0.007, "significant": False},
               {"level": "heuristic", "effect": -0.124, "significant": True},
               {"level": "strong", "effect": -0.283, "significant": True}])
    assert I.sign_changes(t).empty
    plain = t.assign(optional=False)       # the same numbers for a forced card: a finding
    assert I.sign_changes(plain)["verdict"].tolist() == ["changes"]


def test_sunzis_leaders_are_declared_optional_and_nothing_else_is():
    from games.sunzi.study.cards import cards
    from sim.games import get_game

    rules = get_game("sunzi").rules_class.from_options({"warlord": "true", "leader_white": "c"})
    declared = cards(rules)
    leaders = [c for c in declared if c.kind.startswith("leader")]
    assert leaders and all(c.optional for c in leaders)
    assert not any(c.optional for c in declared if not c.kind.startswith("leader"))
