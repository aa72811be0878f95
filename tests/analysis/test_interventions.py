"""The interventional card table's shared machinery (analysis/interventions.py), on cards
declared in the test itself so that it depends on no game's declarations."""
import numpy as np
import pandas as pd
import pytest

from analysis import interventions as I
from sim.games import get_game

PARTHIAN = get_game("parthian")
BASE = PARTHIAN.rules_class(n_players=4)


def legion_shift(i: int, by: int):
    def change(rules):
        strengths = list(rules.tunable_value("legions"))
        strengths[i] += by
        return rules.replace(legions=tuple(strengths))
    return change


def legion(i: int, planted: int = 0) -> I.Card:
    """PS-2: legion i of the deck; planted: an extra intervention that moves it a lot."""
    changes = {I.UP: legion_shift(i, 1), I.DOWN: legion_shift(i, -1)}
    if planted:
        changes["planted"] = legion_shift(i, planted)
    return I.Card(f"legion {i}", "legion", changes, owner="victory")


def test_holder_values_average_the_dealt_seats_wins_and_skip_games_nobody_was_dealt():
    records = pd.DataFrame({"win_0": [1.0, 0.0, 0.5, 0.0], "win_1": [0.0, 1.0, 0.5, 1.0],
                            "opening_0": [0b10, 0b10, 0b10, 0], "opening_1": [0, 0b10, 0b10, 0]})
    card = I.Card("c", "card", {I.REMOVE: {}}, held=("opening_{seat}", 1))
    dealt = I.holders(records, card, 2)
    assert dealt.tolist() == [[True, False], [True, True], [True, True], [False, False]]
    values = I.holder_values(records, dealt)
    assert values[:3].tolist() == [1.0, 0.5, 0.5] and np.isnan(values[3])


def test_a_planted_strong_change_comes_out_on_top_with_an_interval_that_excludes_zero():
    """PS-2, PS-15: seven legions' strengths; one is raised by 12 (planted). Its effect on the
    team's victory must be the largest in the table, negative (a stronger legion is harder to
    beat), and real after the FDR correction."""
    cards = [legion(0), legion(3), legion(6, planted=12)]
    table = I.interventions(PARTHIAN, BASE, cards=cards, strategies="cautious", n_games=3000,
                            precision=None, seed=5)
    top = table.loc[table["effect"].abs().idxmax()]
    assert (top["card"], top["intervention"]) == ("legion 6", "planted")
    assert top["ci_high"] < 0 and top["significant"]
    tested = table.dropna(subset=["p"])
    assert (tested["q"] >= tested["p"] - 1e-12).all()   # BH never lowers a p-value


def test_effects_grow_to_the_precision_and_the_table_does_not_depend_on_jobs(tmp_path):
    cards = [legion(2), legion(5)]
    one = I.interventions(PARTHIAN, BASE, cards=cards, strategies="random", precision=1.5,
                          max_games=16_000, seed=7, jobs=1)
    two = I.interventions(PARTHIAN, BASE, cards=cards, strategies="random", precision=1.5,
                          max_games=16_000, seed=7, jobs=2, run_dir=tmp_path)
    pd.testing.assert_frame_equal(one, two)
    half = (one["ci_high"] - one["ci_low"]) / 2
    assert ((half <= 0.015 + 1e-12) | (one["n"] >= 16_000) | half.isna()).all()
    resumed = I.interventions(PARTHIAN, BASE, cards=cards, strategies="random", precision=1.5,
                              max_games=16_000, seed=7, jobs=2, run_dir=tmp_path)
    pd.testing.assert_frame_equal(resumed, one)
    assert one.attrs["provenance"]["version"] and one.attrs["provenance"]["seed"] == 7


def test_shapley_shares_add_up_to_the_joint_change_and_synergy_is_symmetric():
    chosen = [(legion(1), I.UP), (legion(3), I.UP), (legion(5), I.DOWN)]
    synergy, shapley = I.coalitions(PARTHIAN, BASE, chosen, "cautious", 2000, seed=3,
                                    metric="victory")
    assert shapley["share"].sum() == pytest.approx(shapley.attrs["total"], abs=1e-12)
    pairs = synergy.set_index(["a", "b"])["synergy"]
    for (a, b), value in pairs.items():
        assert pairs[(b, a)] == pytest.approx(value)
    assert (shapley["ci_low"] <= shapley["share"]).all() and len(synergy) == 6


def test_sign_changes_flag_an_effect_that_reverses_between_levels():
    table = pd.DataFrame({
        "level": ["random", "heuristic", "random", "heuristic"], "card": ["a", "a", "b", "b"],
        "intervention": [I.UP] * 4, "effect": [0.05, -0.04, 0.01, 0.02],
        "significant": [True, True, False, True], "status": ["ok"] * 4})
    flagged = I.sign_changes(table)
    assert flagged["card"].tolist() == ["a"] and flagged["verdict"].tolist() == ["reverses"]


def test_bad_requests_say_what_exists(monkeypatch):
    import dataclasses

    import games.kuhn.study as kuhn_study

    # a game whose study declares no cards
    monkeypatch.setattr(kuhn_study, "STUDY", dataclasses.replace(kuhn_study.STUDY, cards=None))
    with pytest.raises(I.CardsError, match="declares no cards"):
        I.interventions("kuhn", None, n_games=100)
    with pytest.raises(I.CardsError, match="games per version"):
        I.interventions(PARTHIAN, BASE, cards=[legion(0)], strategies="random", n_games=1)
    with pytest.raises(I.CardsError, match="held"):
        I.Card("x", "card", {I.REMOVE: {}})


@pytest.mark.parametrize("game", ["goofspiel", "kuhn"])
def test_the_calibration_games_declare_cards_too(game):
    """`balance cards` works for every game: Goofspiel's top card (GS-1), Kuhn poker's stakes
    (KP-2, KP-3), whose effect on who wins is exactly zero (no built-in looks at the stakes)."""
    table = I.interventions(game, None, "random", n_games=600, precision=None, seed=2)
    assert (table["status"] == "ok").all() and len(table) >= 1
    if game == "kuhn":
        assert (table["effect"] == 0).all()
    else:   # 1..13 = 91 points tie only when tied turns discard some; 1..12 = 78 split 39-39
        assert table["ci_low"].iloc[0] > 0
