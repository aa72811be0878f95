"""Hidden units of the trained policy (sim/core/policy.py): the richer policy class of issue 28's
item 2, its files, its training and its place in fields and best-response searches."""
import json
from typing import NamedTuple

import numpy as np
import pytest

from analysis.field import FieldBuild
from analysis.training import train
from sim import field as F
from sim import trained as T
from sim.core.policy import dense_features, policy_choice
from sim.errors import RunError, StrategyError
from sim.games import get_game
from sim.runner import simulate
from sim.strategy import lookup, trained_from_file, trained_player
import games.parthian.strategies as S

PARTHIAN = get_game("parthian")
SUNZI = get_game("sunzi")


def reference_scores(phi, decision, params):
    """The score of every action, written out with numpy from the layout's description."""
    f, h = int(params[T.FEATURES]), int(params[T.HIDDEN])
    width = T.block_width(f, h)
    block = np.asarray(params[T.WEIGHTS + decision * width:T.WEIGHTS + (decision + 1) * width])
    linear, units = block[:f], block[f:].reshape(h, f + 2)
    x = phi[:, :f]
    return x @ linear + np.tanh(x @ units[:, :f].T + units[:, f]) @ units[:, f + 1]


def test_the_kernel_scores_every_action_as_the_network_written_out_in_numpy():
    rng = np.random.default_rng(3)
    n_actions, n_features, hidden, n_types = 9, 5, 3, 2
    weights = rng.normal(size=(n_types, T.block_width(n_features, hidden)))
    weights[1, n_features + n_features + 1] = 0.0   # an untrained unit: skipped, adds nothing
    params = np.zeros(T.WEIGHTS + weights.size)
    params[T.FEATURES], params[T.HIDDEN] = n_features, hidden
    params[T.WEIGHTS:] = weights.ravel()
    streams = np.zeros(4, np.uint64)
    for decision in range(n_types):
        phi = np.zeros((n_actions, n_features + 1))
        phi[:, :n_features] = rng.normal(size=(n_actions, n_features))
        legal = np.ones(n_actions, np.bool_)
        legal[4] = False
        pick = policy_choice(phi, 0, decision, legal, params, streams)
        expected = reference_scores(phi, decision, params)
        assert np.allclose(phi[legal, -1], expected[legal])
        assert pick == int(np.argmax(np.where(legal, expected, -np.inf)))


@pytest.mark.parametrize("temperature", [0.0, 0.7])
def test_sparse_features_score_and_play_as_their_dense_matrix_to_the_last_bit(temperature):
    """A game may write each action's nonzero features as (index, value) pairs (SPARSE_FEATURES,
    Leduc poker): the scores, the action and the draw at a temperature are the dense ones
    exactly, hidden units included, and rows that end early (index -1) keep only their pairs."""
    rng = np.random.default_rng(11)
    n_actions, n_features, hidden, per_action = 7, 12, 2, 3
    weights = rng.normal(size=(2, T.block_width(n_features, hidden)))
    params = np.zeros(T.WEIGHTS + weights.size)
    params[T.TEMPERATURE], params[T.FEATURES], params[T.HIDDEN] = temperature, n_features, hidden
    params[T.WEIGHTS:] = weights.ravel()
    legal = np.ones(n_actions, np.bool_)
    legal[2] = False
    for trial in range(40):
        sparse = np.zeros((n_actions, n_features + 1))
        dense = np.zeros((n_actions, n_features + 1))
        for a in range(n_actions):
            kept = int(rng.integers(0, per_action + 1))
            # pairs after the end are left over from an earlier decision: never read
            sparse[a, :2 * per_action] = rng.integers(0, n_features, 2 * per_action)
            for j, f in enumerate(np.sort(rng.choice(n_features, kept, replace=False))):
                sparse[a, 2 * j], sparse[a, 2 * j + 1] = f, rng.normal()
                dense[a, f] = sparse[a, 2 * j + 1]
            if kept < per_action:
                sparse[a, 2 * kept] = -1.0
        assert np.array_equal(dense_features(sparse, per_action, n_features),
                              dense[:, :n_features])
        decision = trial % 2
        one, two = np.full(2, trial, np.uint64), np.full(2, trial, np.uint64)
        picked = policy_choice(sparse, per_action, decision, legal, params, one)
        assert picked == policy_choice(dense, 0, decision, legal, params, two)
        assert np.array_equal(sparse[legal, -1], dense[legal, -1])   # bit for bit
        assert np.array_equal(one, two)                              # the same draws


def test_leducs_sparse_features_are_one_indicator_of_144_an_action():
    """Leduc's hook (SPARSE_FEATURES = 1) as the dense matrix: call and raise each have one 1,
    in their own half, and fold none."""
    from games.leduc.study.calibration import feature_tensor
    from games.leduc import strategies as leduc

    phi = feature_tensor()
    assert phi.shape[1:] == (3, leduc.N_FEATURES)
    assert np.array_equal(np.count_nonzero(phi, axis=2).sum(0), [0, len(phi), len(phi)])
    half = leduc.N_SITUATIONS
    assert (np.argmax(phi[:, 1], axis=1) < half).all() and (np.argmax(phi[:, 2], axis=1) >= half).all()
    assert len(set(np.argmax(phi[:, 1], axis=1))) == half   # every situation is reached


def test_a_sparse_count_that_does_not_fit_the_features_buffer_is_refused_by_name():
    """Pairs that do not fit N_FEATURES + 1 columns would be written past the buffer in compiled
    code, so register refuses them, and a count that is not a count, before compiling anything."""
    from sim.core.hooks import register
    from games.leduc import strategies as leduc

    class Toy(NamedTuple):
        core: int

    hooks = dict(play_game=leduc.features, observe=leduc.features, redeal=leduc.features,
                 strategy=leduc.features, features=leduc.features)
    with pytest.raises(TypeError, match=r"sparse_features=73: .* need 146 feature columns.*"
                                        r"N_FEATURES = 144"):
        register(Toy, 1, 1, sparse_features=73, **hooks)
    with pytest.raises(TypeError, match="sparse_features must be a count"):
        register(Toy, 1, 1, sparse_features=-1, **hooks)
    with pytest.raises(TypeError, match="N_FEATURES = 0"):   # no features hook, no buffer
        register(Toy, 1, 1, sparse_features=1, **{k: v for k, v in hooks.items()
                                                  if k != "features"})


def test_units_with_zero_output_weights_play_exactly_the_linear_policy():
    """``widen`` adds units that change no score: the shipped Sunzi policy with 4 units (random
    input weights, output 0) gives the same table, game by game."""
    linear = T.load(T.shipped_path(SUNZI, 2), SUNZI)["weights"]
    wide = T.widen(linear, T.n_features(SUNZI), 4, seed=1)
    assert wide.shape == (len(SUNZI.decision_names), T.block_width(T.n_features(SUNZI), 4))
    assert np.abs(wide[:, T.n_features(SUNZI):]).sum() > 0   # input weights are not all zero
    ours = simulate("sunzi", None, [trained_player(SUNZI, wide), "counter"], 400, seed=8).records
    theirs = simulate("sunzi", None, ["trained", "counter"], 400, seed=8).records
    assert ours.equals(theirs)


def test_one_unit_on_a_heuristics_choice_plays_that_heuristic_and_its_negation_does_not():
    """Parthian Shot's feature 6 is "cautious would play this card" (PS rules: one card a
    round). A unit reading only it, with a positive output weight, scores cautious's card
    highest (tanh is increasing): the table is cautious's, game by game. A negative output weight
    avoids that card, so it is another table."""
    f = S.N_FEATURES
    weights = np.zeros((1, T.block_width(f, 1)))
    weights[0, f + 6] = 3.0       # the unit's input weight on feature 6
    weights[0, f + f] = -0.5      # its bias: the unit is not centred, the order still holds
    weights[0, f + f + 1] = 1.0   # its output weight
    field = ["random", "glory", "random"]
    ours = simulate("parthian", {"n_players": 4}, [trained_player(PARTHIAN, weights), *field],
                    2000, seed=2).records
    theirs = simulate("parthian", {"n_players": 4}, ["cautious", *field], 2000, seed=2).records
    assert ours.equals(theirs)
    weights[0, f + f + 1] = -1.0
    avoid = simulate("parthian", {"n_players": 4}, [trained_player(PARTHIAN, weights), *field],
                     2000, seed=2).records
    assert not avoid.equals(theirs)


def test_a_policy_file_with_hidden_units_round_trips_and_bad_ones_are_refused(tmp_path):
    f = S.N_FEATURES
    weights = np.arange(T.block_width(f, 2))[None, :] / 100
    path = T.save(tmp_path / "p.json", PARTHIAN, weights, 4, {"n_players": 4}, {"method": "test"})
    body = json.loads(path.read_text())
    assert body["hidden"] == 2 and len(body["weights"][0]) == f + 2 * (f + 2)
    seat = trained_from_file(PARTHIAN, path)
    assert seat.params[T.HIDDEN] == 2
    assert np.allclose(T.weights_of(PARTHIAN, seat.params), weights)
    linear = T.save(tmp_path / "l.json", PARTHIAN, np.zeros((1, f)), 4, {"n_players": 4}, {})
    assert "hidden" not in json.loads(linear.read_text())  # linear files are as before
    for bad, message in (({"hidden": 3}, "must be 1 list"), ({"hidden": -1}, "whole number"),
                         ({"hidden": True}, "whole number"), ({"hidden": 0}, f"of {f} numbers")):
        (tmp_path / "bad.json").write_text(json.dumps({**body, **bad}))
        with pytest.raises(StrategyError, match=message):
            trained_from_file(PARTHIAN, tmp_path / "bad.json")
    with pytest.raises(StrategyError, match="H hidden units"):
        T.parameters(PARTHIAN, np.zeros((1, f + 5)))
    with pytest.raises(StrategyError, match="already have 2"):
        T.widen(weights, f, 3)


@pytest.mark.timeout(600)
def test_training_with_hidden_units_is_deterministic_and_moves_only_the_slots_it_trains():
    options = dict(opponents=["cautious"], generations=3, games=60, seed=5, check_every=3,
                   check_games=200, hidden=2, features=10)
    one = train("parthian", {"n_players": 3}, jobs=1, **options)
    two = train("parthian", {"n_players": 3}, jobs=2, **options)
    assert np.array_equal(one.weights, two.weights)
    f = S.N_FEATURES
    assert one.weights.shape == (1, T.block_width(f, 2)) and one.provenance["hidden"] == 2
    start = T.widen(S.START_WEIGHTS, f, 2, seed=5)
    outputs = [f + j * (f + 2) + f + 1 for j in range(2)]
    assert not np.allclose(one.weights[0, outputs], 0.0)   # the units now change the scores
    # slots 10.. are not trained (features=10): neither their weights nor the units' inputs
    units = one.weights[0, f:].reshape(2, f + 2)[:, :f]
    assert np.array_equal(units[:, 10:], start[0, f:].reshape(2, f + 2)[:, 10:f])
    assert np.array_equal(one.weights[0, 10:f], start[0, 10:f])
    assert not np.array_equal(units[:, :10], start[0, f:].reshape(2, f + 2)[:, :10])
    with pytest.raises(RunError, match="whole number"):
        train("parthian", {"n_players": 3}, generations=1, hidden=-2)
    with pytest.raises(RunError, match="already has 2"):
        train("parthian", {"n_players": 3}, generations=1, start=one.weights, hidden=3)


def test_hidden_units_train_only_where_the_game_says_the_play_is_decided():
    """Sunzi names ``place`` in HIDDEN_DECISIONS: the other types' units keep their start."""
    import games.sunzi.strategies as Z
    result = train("sunzi", None, opponents=["counter"], generations=1, games=20, seed=2,
                   check_every=5, hidden=1, population=4)
    f = Z.N_FEATURES
    start = T.widen(Z.START_WEIGHTS, f, 1, seed=2)
    place = Z.D.PLACE
    changed = ~np.isclose(result.weights[:, f:], start[:, f:]).all(axis=1)
    assert changed[place] and changed.sum() == 1


def test_a_field_keeps_a_member_with_hidden_units(tmp_path):
    f = S.N_FEATURES
    wide = T.widen(S.START_WEIGHTS, f, 2, seed=4)
    wide[0, f + f + 1] = 0.7
    member = trained_player(PARTHIAN, wide, "wide")
    build = FieldBuild([lookup(PARTHIAN, "cautious", 3), member], np.array([0.4, 0.6]),
                       None, {"line": "test"}, {"n_players": 3, "variant": {"n_players": 3}},
                       spec=PARTHIAN)
    path = build.save(tmp_path / "f.field.json")
    body = F.load(path, PARTHIAN)
    assert body["members"][1]["hidden"] == 2
    params = F.members_of(PARTHIAN, body)[1][2]
    assert np.allclose(T.weights_of(PARTHIAN, params), wide, atol=1e-6)
    table = simulate("parthian", {"n_players": 3}, [f"strong:{path}", "random", "random"], 200,
                     seed=3).records
    assert len(table) == 200


def test_the_command_line_refuses_a_negative_number_of_hidden_units(capsys):
    from cli.main import main
    code = main(["exploit", "parthian", "--players", "3", "--hidden", "-1", "--generations",
                 "1", "--no-progress"])
    assert code == 2
    assert "--hidden must be 0 or more" in capsys.readouterr().err
