"""Policy files given wrong (issue 27): sim/trained.py's ``load`` answers every malformed file
with one StrategyError (a BalanceError) naming the file and the key, before a game is played."""
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim import trained as T
from sim.errors import BalanceError, StrategyError
from sim.games import game_names, get_game
from sim.strategy import trained_from_file

PARTHIAN = get_game("parthian")
GOOD = json.loads(T.shipped_path(PARTHIAN, 4).read_text())


def policy(tmp_path, body, name="p.json"):
    path = tmp_path / name
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    return path


@pytest.mark.parametrize("name", game_names())
def test_every_shipped_policy_passes_the_checks(name):
    spec = get_game(name)
    for path in T.shipped_policies(spec).values():
        assert T.load(path, spec)["game"] == name


@pytest.mark.parametrize("body, message", [
    ([1, 2, 3], "holds a JSON list, not a policy object"),
    ("7", "holds a JSON int, not a policy object"),
    ({k: v for k, v in GOOD.items() if k != "weights"}, "has no 'weights' key"),
    ({**GOOD, "weights": "heavy"}, "'weights' must be 1 list\\(s\\) of 14 numbers"),
    ({**GOOD, "weights": [[1.0] * 3]}, "'weights' must be 1 list\\(s\\) of 14 numbers"),
    ({**GOOD, "weights": [[1.0] * 13 + ["x"]]}, r"'weights'\[0\]\[13\] is 'x'"),
    ({**GOOD, "weights": [[True] + [1.0] * 13]}, r"'weights'\[0\]\[0\] is True"),
    ({**GOOD, "temperature": "warm"}, "'temperature' is 'warm'; it must be a number >= 0"),
    ({**GOOD, "temperature": -1}, "'temperature' is -1"),
    ({**GOOD, "format": None}, "format None, expected 'balance-policy/1'"),
])
def test_a_malformed_policy_is_a_one_line_error_naming_the_file_and_key(tmp_path, body, message):
    path = policy(tmp_path, body)
    with pytest.raises(StrategyError, match=f"policy file '{path}'.*{message}") as error:
        trained_from_file(PARTHIAN, path)
    assert "\n" not in str(error.value)


def test_nan_weights_are_refused_as_weights_not_reported_as_an_illegal_action(tmp_path):
    """Python's json reads NaN: every score would be NaN and the seat would answer no legal
    action; the file is what is wrong."""
    text = json.dumps({**GOOD, "weights": [[float("nan")] + [0.0] * 13]})
    assert "NaN" in text
    with pytest.raises(StrategyError, match=r"'weights'\[0\]\[0\] is nan; every weight must be "
                       "a finite number"):
        trained_from_file(PARTHIAN, policy(tmp_path, text))
    with pytest.raises(StrategyError, match="'temperature' is inf"):
        trained_from_file(PARTHIAN, policy(tmp_path, json.dumps({**GOOD, "temperature": 1e999})))


def test_unreadable_files(tmp_path):
    with pytest.raises(StrategyError, match="is not a policy \\(JSON\\)"):
        trained_from_file(PARTHIAN, policy(tmp_path, "{not json"))
    path = tmp_path / "latin.json"
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(StrategyError, match="is not a policy \\(JSON\\)"):
        trained_from_file(PARTHIAN, path)
    with pytest.raises(StrategyError, match="is a folder; give the policy's .json file"):
        trained_from_file(PARTHIAN, tmp_path)
    with pytest.raises(StrategyError, match=r"'weights'\[0\]\[2\] is 1000"):
        trained_from_file(PARTHIAN, policy(tmp_path, json.dumps(
            {**GOOD, "weights": [[0.0, 0.0, 10 ** 400] + [0.0] * 11]})))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20)
KEYS = st.sampled_from(["format", "game", "feature_code", "weights", "temperature", "n_players"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(KEYS, JSON, max_size=3), dropped=st.sets(KEYS, max_size=2),
       weight=st.one_of(st.none(), st.tuples(st.integers(0, 13), JSON)))
def test_any_malformed_policy_is_a_balance_error_or_a_policy_that_seats(tmp_path, changes,
                                                                       dropped, weight):
    body = {k: v for k, v in {**GOOD, **changes}.items() if k not in dropped}
    if weight is not None and isinstance(body.get("weights"), list) and body["weights"] \
            and isinstance(body["weights"][0], list) and len(body["weights"][0]) > weight[0]:
        body["weights"] = [list(body["weights"][0])]
        body["weights"][0][weight[0]] = weight[1]
    path = policy(tmp_path, json.dumps(body))
    try:
        seat = trained_from_file(PARTHIAN, path)
    except BalanceError:
        return
    assert np.isfinite(seat.params).all()   # what loads is a seat the kernel can play


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(top=JSON)
def test_any_json_document_is_a_balance_error_or_a_policy(tmp_path, top):
    try:
        trained_from_file(PARTHIAN, policy(tmp_path, json.dumps(top)))
    except BalanceError:
        pass
