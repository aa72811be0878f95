"""heldout.tune (issue 28): the reviewers' check, a random search over a held-out player's knobs
against a strategy, the best setting re-measured on fresh games. Tiny budgets: these test the
plumbing (settings, seeds, jobs, errors), not the figures."""
import importlib
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

import heldout.tune as T  # noqa: E402
from heldout.measure import GAMES, players  # noqa: E402
from sim.errors import BalanceError  # noqa: E402

TINY = dict(n_settings=3, n_games=100, n_check=200, seed=11)


@pytest.fixture(scope="module")
def tiny():
    return T.tune("sunzi", "counter", "concentrate", **TINY)


def test_every_heldout_player_declares_knob_ranges_around_its_defaults():
    for game in GAMES:
        module = importlib.import_module(f"heldout.{game}")
        assert set(module.KNOBS) == set(module.PLAYERS), game
        for name, ranges in module.KNOBS.items():
            assert ranges, name
            for lo, hi in ranges:
                assert lo < hi and lo <= 0 <= hi, (name, lo, hi)


def test_a_tiny_search_tries_the_defaults_first_then_settings_in_the_ranges(tiny):
    table = tiny["settings"]
    ranges = T.knobs("sunzi", "concentrate")
    knobs = table[[f"k{i}" for i in range(len(ranges))]].to_numpy()
    assert list(table["setting"]) == [0, 1, 2] and (table["games"] == 100).all()
    assert (knobs[0] == 0).all()
    lo, hi = np.array(ranges).T
    assert ((knobs[1:] >= lo) & (knobs[1:] <= hi)).all()
    assert ((table["low"] <= table["share"]) & (table["share"] <= table["high"])).all()
    assert (table["score"] == table["share"]).all()  # two players: the share is the score
    assert tiny["best"]["score"] == table["score"].max()
    assert tiny["check"]["games"] == tiny["default"]["games"] == 200


def test_the_search_is_deterministic_for_a_seed(tiny):
    again = T.tune("sunzi", "counter", "concentrate", **TINY)
    pd.testing.assert_frame_equal(again["settings"], tiny["settings"])
    assert again["check"] == tiny["check"]
    other = T.tune("sunzi", "counter", "concentrate", **{**TINY, "seed": 12})
    assert not np.array_equal(other["settings"]["k1"], tiny["settings"]["k1"])


@pytest.mark.timeout(300)
def test_two_jobs_give_the_table_of_one(tiny):
    two = T.tune("sunzi", "counter", "concentrate", **TINY, jobs=2)
    pd.testing.assert_frame_equal(two["settings"], tiny["settings"])
    assert two["check"] == tiny["check"]


def test_the_remeasure_plays_fresh_games_not_the_searchs(monkeypatch):
    seeds = []
    measure = T.measure

    def spy(game, player, values, strategy, n_games, seed, n_players=None, undecided="apart",
            options=None):
        seeds.append((n_games, seed))
        return measure(game, player, values, strategy, n_games, seed, n_players, undecided,
                       options)

    monkeypatch.setattr(T, "measure", spy)
    result = T.tune("sunzi", "random", "mixer", n_settings=2, n_games=50, n_check=60, seed=5)
    assert seeds[:2] == [(50, 5), (50, 5)]              # every setting on the same games
    # the best setting, and the defaults unless they are the best, on fresh games
    assert seeds[2:] == [(60, result["check_seed"])] * (1 if result["best"]["setting"] == 0 else 2)
    assert result["check_seed"] != 5
    assert len({T.check_seed(s) for s in range(100)} | set(range(100))) == 200


def test_more_players_search_the_margin_over_the_field():
    result = T.tune("samurai", "random", "avenger", n_settings=2, n_games=40, n_check=40,
                    seed=3, n_players=3)
    table = result["settings"]
    assert result["players"] == 3
    assert np.allclose(table["score"], table["share"] - table["field"])
    assert set(result["check"]) >= {"share", "field", "margin"}


def test_a_bad_player_or_game_is_refused_clearly(capsys):
    with pytest.raises(BalanceError, match="no held-out sunzi player 'nope'; .*concentrate"):
        T.tune("sunzi", "counter", "nope", **TINY)
    with pytest.raises(BalanceError, match="no held-out players for 'kuhn'"):
        T.tune("kuhn", "random", "concentrate", **TINY)
    with pytest.raises(BalanceError, match="number of settings must be a positive integer"):
        T.tune("sunzi", "counter", "concentrate", n_settings=0)
    with pytest.raises(BalanceError, match="seed must be a non-negative integer"):
        T.tune("sunzi", "counter", "concentrate", seed=-1)
    with pytest.raises(BalanceError, match="jobs must be a positive integer or -1"):
        T.tune("sunzi", "counter", "concentrate", jobs=0)
    with pytest.raises(BalanceError, match="member games must be a whole number >= 0"):
        T.tune("sunzi", "strong", "concentrate", **{**TINY, "n_members": -1})
    with pytest.raises(SystemExit) as exit_:
        T.main(["sunzi", "counter", "--player", "nope"])
    assert exit_.value.code == 2
    assert "no held-out sunzi player 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        T.main(["sunzi", "no-such-strategy", "--player", "mixer"])
    assert "unknown strategy 'no-such-strategy'" in capsys.readouterr().err


def test_the_command_prints_both_figures_and_writes_every_setting(tmp_path, capsys):
    out = tmp_path / "tried.csv"
    T.main(["sunzi", "counter", "--player", "attrition", "--settings", "3", "--games", "60",
            "--check", "80", "--seed", "2", "--out", str(out)])
    text = capsys.readouterr().out
    assert "search's best" in text and "biased upward" in text
    assert "re-measured on 80 fresh games" in text and "the result" in text
    assert len(pd.read_csv(out)) == 3


def test_the_new_sunzi_players_answer_every_decision_of_the_advanced_warlord_game():
    """Advanced mode (SZ-2: buying armies) with leaders (SZ-3, SZ-16, SZ-17): decisions the
    default game never asks; an illegal answer would stop the batch."""
    from sim.runner import simulate
    for name in ("mixer", "attrition"):
        records = simulate("sunzi", {"mode": "advanced", "warlord": True},
                           [players("sunzi")[name], "random"], 100, seed=4,
                           rotate_seats=True).records
        assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()


def test_against_a_field_the_best_setting_meets_each_member_alone_and_they_average_to_the_field():
    """The field draws one member per game with its probability, so its share against a player
    is the members' shares weighted by probability: the table's weighted share lies within the
    field's own interval widened by the members' (Wilson 95%, fresh games each). Against a plain
    strategy, or with 0 member games, there is no table."""
    from sim.games import get_game
    from sim.strategy import field_members

    result = T.tune("sunzi", "strong", "concentrate", n_settings=2, n_games=100, n_check=3000,
                    seed=5, n_members=1500)
    members, check = result["members"], result["check"]
    drawn = [p for p, _ in field_members(get_game("sunzi"), "strong", 2)]
    assert list(members["probability"]) == drawn and len(drawn) >= 2
    assert abs(members["probability"].sum() - 1.0) < 1e-4  # (the file rounds to 6 places)
    assert (members["games"] == 1500).all()
    weighted = (members["probability"] * members["share"]).sum()
    spread = (members["probability"] * (members["high"] - members["low"]) / 2).sum()
    half = (check["high"] - check["low"]) / 2
    assert abs(weighted - check["share"]) <= half + spread, (weighted, check)
    assert T.tune("sunzi", "counter", "concentrate", **TINY)["members"] is None
    assert T.tune("sunzi", "strong", "concentrate", **{**TINY, "n_members": 0})["members"] is None


def test_only_a_field_has_members_to_seat():
    from sim.errors import StrategyError
    from sim.games import get_game
    from sim.strategy import field_members

    with pytest.raises(StrategyError, match="'counter' is not a strong field"):
        field_members(get_game("sunzi"), "counter", 2)


def test_a_parthian_tune_scores_all_the_games_as_its_fields_are_measured():
    """Parthian Shot's fields count a game nobody wins as lost by every seat (PS-12, PS-16), so
    the tuner's margin is over all the games too: a setting cannot raise it by leaving fewer
    games decided. The decided games' share stays beside it."""
    result = T.tune("parthian", "cautious", "jackal", n_settings=2, n_games=80, n_check=120,
                    seed=3, n_players=4, n_members=0)
    assert result["undecided"] == "loss"
    table = result["settings"]
    assert (table["score"] == table["margin"]).all()
    assert (table["decided"] < table["games"]).any()  # some games nobody won: the readings differ
    for row in [result["check"], *table.to_dict("records")]:
        assert 0 <= row["decided"] <= row["games"]
        if row["decided"]:
            assert row["share"] * row["games"] == pytest.approx(
                row["decided_share"] * row["decided"])
    apart = T.tune("parthian", "cautious", "jackal", n_settings=2, n_games=80, n_check=120,
                   seed=3, n_players=4, n_members=0, undecided="apart")
    assert apart["undecided"] == "apart" and "decided_share" not in apart["check"]
