"""Styles with knobs (analysis.training.tune_style, ``STYLE_KNOBS``): a best response searched
within a built-in's family, and fields that keep such a tuned built-in as a member."""
import json

import numpy as np
import pytest

from analysis.field import ORACLE_STARTS, FieldBuild, expand_starts
from analysis.training import exploit, exploit_starts, style_knobs, tune_style
from sim import field as F
from sim.errors import RunError, StrategyError
from sim.games import get_game
from sim.runner import simulate
import games.sunzi.strategies as S

SUNZI = get_game("sunzi")


def test_sunzi_declares_settles_knobs_and_the_oracle_starts_there_too():
    assert style_knobs(SUNZI) == S.STYLE_KNOBS and "settle" in S.STYLE_KNOBS
    assert exploit_starts(SUNZI)[-8:] == ("reserve", "settle", "planner", "holder", "striker",
                                          "banker", "mirror", "tempo")
    assert expand_starts(SUNZI, ORACLE_STARTS) == ["heuristic", "field", "reserve", "settle",
                                                   "planner", "holder", "striker", "banker",
                                                   "mirror", "tempo"]
    for style, knobs in S.STYLE_KNOBS.items():   # every search starts inside its box
        for index, (low, high) in knobs.items():
            assert low <= S.BUILTINS[style].params[index] <= high, (style, index)


@pytest.mark.timeout(600)
def test_tuning_a_style_moves_only_its_knobs_inside_their_box_at_any_jobs(tmp_path):
    options = dict(generations=2, games=40, seed=4, population=4)
    one = tune_style("sunzi", None, "settle", "counter", jobs=1, **options)
    two = tune_style("sunzi", None, "settle", "counter", jobs=2, **options)
    assert np.array_equal(one.weights, two.weights)
    knobs = S.STYLE_KNOBS["settle"]
    for i, value in enumerate(one.weights):
        if i in knobs:
            assert knobs[i][0] <= value <= knobs[i][1]
        else:
            assert value == S.SETTLE_PARAMS[i]
    assert not np.allclose(one.weights, S.SETTLE_PARAMS)
    player = one.player("tuned")
    assert player.builtin == S.SETTLE and player.params == tuple(one.weights)
    path = one.save(tmp_path / "tuned.json")
    assert json.loads(path.read_text())["strategy"] == "settle"
    resumed_dir = tmp_path / "run"
    tune_style("sunzi", None, "settle", "counter", jobs=1, run_dir=resumed_dir,
               **{**options, "generations": 1})
    resumed = tune_style("sunzi", None, "settle", "counter", jobs=1, run_dir=resumed_dir,
                         **options)
    assert np.array_equal(one.weights, resumed.weights)
    with pytest.raises(RunError, match="no knobs for 'counter'"):
        tune_style("sunzi", None, "counter", "greedy", generations=1)
    with pytest.raises(RunError, match="tunes a built-in's knobs: hidden units"):
        exploit("sunzi", None, field="counter", start="settle", generations=1, hidden=2)


def test_a_field_keeps_a_tuned_built_in_with_its_parameters(tmp_path):
    tuned = SUNZI.strategies["settle"].with_params(-1.0, 1.0, 0.1, 2.0, 4.3, 4.0, 0.6,
                                                   name="response 3")
    build = FieldBuild([SUNZI.strategies["counter"], tuned], np.array([0.5, 0.5]), None,
                       {"line": "test"}, {"n_players": 2, "variant": {}}, spec=SUNZI)
    path = build.save(tmp_path / "f.field.json")
    body = F.load(path, SUNZI)
    counter, member = body["members"]
    assert "params" not in counter and counter["strategy"] == "counter"
    assert member["strategy"] == "settle" and member["name"] == "response 3"
    assert F.members_of(SUNZI, body)[1][2] == tuned.params
    ours = simulate("sunzi", None, [f"strong:{path}", "greedy"], 300, seed=5).records
    assert len(ours) == 300
    for bad in ([1.0, 2.0], [-1.0, 1.0, 0.1, 2.0, 4.3, 4.0, float("nan")], "fast"):
        body_bad = json.loads(path.read_text())
        body_bad["members"][1]["params"] = bad
        (tmp_path / "bad.json").write_text(json.dumps(body_bad))
        with pytest.raises(StrategyError, match="'params' of 'settle' must be a list of 7"):
            F.load(tmp_path / "bad.json", SUNZI)
