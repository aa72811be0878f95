"""The trained policy (sim/core/policy.py, sim/trained.py) and its training (analysis/training.py)."""
import json

import numpy as np
import pytest

from analysis.training import seat_share, strength_table, train
from sim import trained as T
from sim.strategy import trained_from_file, trained_player
from sim.errors import StrategyError
from sim.games import game_names, get_game, home
from sim.runner import as_rules, simulate
import games.parthian.strategies as S

PARTHIAN = get_game("parthian")


def imitation(feature: int):
    weights = np.zeros((1, S.N_FEATURES))
    weights[0, feature] = 1.0
    return trained_player(PARTHIAN, weights, "imitation")


def test_a_policy_weighing_only_a_heuristics_choice_plays_exactly_that_heuristic():
    """Feature 6 is "cautious would play this card": with weight 1 and the rest 0 the argmax is
    cautious's card in every decision, so the tables are identical game by game."""
    field = ["random", "glory", "random"]
    ours = simulate("parthian", {"n_players": 4}, [imitation(6), *field], 3000, seed=2).records
    theirs = simulate("parthian", {"n_players": 4}, ["cautious", *field], 3000, seed=2).records
    assert ours.equals(theirs)


def test_a_temperature_samples_and_zero_weights_play_the_lowest_legal_action():
    zero = trained_player(PARTHIAN, np.zeros((1, S.N_FEATURES)), "zero")
    ours = simulate("parthian", {"n_players": 3}, [zero, "random", "random"], 2000, seed=4).records
    theirs = simulate("parthian", {"n_players": 3}, ["lowball", "random", "random"], 2000,
                      seed=4).records
    assert ours.equals(theirs)  # all scores tie: the lowest legal card, like lowball
    warm = trained_player(PARTHIAN, np.ones((1, S.N_FEATURES)), "warm", temperature=1.0)
    hot = simulate("parthian", {"n_players": 3}, [warm, "random", "random"], 2000, seed=4).records
    assert not hot.equals(theirs)


def test_policy_files_round_trip_and_refuse_other_games_and_other_features(tmp_path):
    path = T.save(tmp_path / "p.json", PARTHIAN, np.arange(S.N_FEATURES)[None, :] / 10, 4,
                  {"n_players": 4}, {"method": "test"})
    seat = trained_from_file(PARTHIAN, path)
    assert seat.params[T.WEIGHTS:] == tuple(np.arange(S.N_FEATURES) / 10)
    body = json.loads(path.read_text())
    (tmp_path / "goof.json").write_text(json.dumps({**body, "game": "goofspiel"}))
    with pytest.raises(StrategyError, match="is for 'goofspiel'"):
        trained_from_file(PARTHIAN, tmp_path / "goof.json")
    (tmp_path / "old.json").write_text(json.dumps({**body, "feature_code": "0" * 12}))
    with pytest.raises(StrategyError, match="other Parthian Shot features"):
        trained_from_file(PARTHIAN, tmp_path / "old.json")
    with pytest.raises(StrategyError, match="not found"):
        trained_from_file(PARTHIAN, tmp_path / "missing.json")
    records = simulate("parthian", {"n_players": 4}, [f"trained:{path}"] + ["random"] * 3, 50)
    assert len(records.records) == 50


def test_the_seat_share_of_a_rotated_batch_follows_the_slot():
    results = simulate("parthian", {"n_players": 3}, ["glory", "random", "random"], 900, seed=1,
                       rotate_seats=True)
    share = seat_share(results.records, 3)
    by_strategy = results.records  # strategy_<seat> names the strategy at each seat
    glory_wins = sum(by_strategy.loc[by_strategy[f"strategy_{s}"] == "glory", f"win_{s}"].sum()
                     for s in range(3))
    assert share.sum() == pytest.approx(glory_wins)


@pytest.mark.timeout(600)
def test_training_is_deterministic_whatever_the_jobs_and_resumes(tmp_path):
    options = dict(generations=3, games=60, seed=5, check_every=3, check_games=200)
    one = train("parthian", {"n_players": 3}, jobs=1, **options)
    two = train("parthian", {"n_players": 3}, jobs=2, **options)
    assert np.array_equal(one.weights, two.weights)
    train("parthian", {"n_players": 3}, jobs=1, run_dir=tmp_path / "run",
          **{**options, "generations": 2})
    resumed = train("parthian", {"n_players": 3}, jobs=1, run_dir=tmp_path / "run", **options)
    assert np.array_equal(one.weights, resumed.weights)


@pytest.mark.timeout(600)
def test_training_beats_its_starting_point_against_the_pool():
    """A short training run that starts as glory (weight 1 on "glory would play this"), weak
    against cautious at a 3-player table (about 24%), improves on it by an interval."""
    start = np.zeros((1, S.N_FEATURES))
    start[0, 7] = 1.0
    result = train("parthian", {"n_players": 3}, opponents=["cautious"], generations=12,
                   games=150, seed=1, start=start, check_every=12, check_games=300)
    table = strength_table("parthian", {"n_players": 3}, result.player(), ["cautious"], 1500)
    before = strength_table("parthian", {"n_players": 3}, "glory", ["cautious"], 1500)
    assert table["low"].iloc[0] > before["high"].iloc[0]


def test_strength_is_judged_against_the_field_not_one_over_n():
    """In Samurai Sword a team's win is shared by its members (SS-19): a random seat among
    random seats gets what the field gets, not 1/n, and must not be said to beat it."""
    table = strength_table("samurai", {"n_players": 5}, "random", ["random"], 1500)
    row = table.iloc[0]
    assert abs(row["share"] - row["field"]) < 0.04 and not row["beats"]
    assert row["fair"] == 0.2


def test_the_field_fitness_tells_denying_an_unbeatable_table_from_losing_to_it():
    """At Parthian Shot's 4-player table of lowball nobody can win (PS-16: seats routed together
    leave no survivor; the search with a perfect model of the table wins nothing either).
    Mirroring lowball denies the table every win; cautious hands it all the decided games. The
    fair-share fitness scores both alike (the candidate wins nothing either way); the field
    fitness (relative_to="field") ranks the denial above the loss."""
    from analysis.training import fitness
    rules = PARTHIAN.rules_class.from_options({"n_players": 4})
    fair = [fitness("parthian", rules, c, ["lowball"], 400, 7) for c in ("lowball", "cautious")]
    field = [fitness("parthian", rules, c, ["lowball"], 400, 7, relative_to="field")
             for c in ("lowball", "cautious")]
    assert fair[0] == fair[1]
    assert field[0] == 0.0 and field[1] < -1.0
    with pytest.raises(Exception, match="relative to"):
        fitness("parthian", rules, "lowball", ["lowball"], 10, 7, relative_to="best")


def test_the_field_fitness_counts_a_table_beaten_by_a_quarter_as_beaten():
    """FIELD_CAP: glory never wins against cautious's table (about 0 of the decided games), so
    cautious among glory seats is far above the field, and its fitness is exactly the cap."""
    from analysis.training import FIELD_CAP, fitness
    rules = PARTHIAN.rules_class.from_options({"n_players": 4})
    assert fitness("parthian", rules, "cautious", ["glory"], 400, 3,
                   relative_to="field") == pytest.approx(FIELD_CAP)


def test_a_recipe_changes_what_it_says_for_one_player_count_only():
    """TRAINING["per_players"] (analysis.training.recipe): Parthian Shot's 5-player policy is
    trained with another seed and pool growth; the other counts keep the recipe's own."""
    from analysis.training import recipe
    base, five = recipe("parthian", 4), recipe("parthian", 5)
    assert "per_players" not in base and base["seed"] == recipe("parthian")["seed"]
    assert five["seed"] != base["seed"] and five["pool_every"] == 20
    assert {k: v for k, v in five.items() if k not in ("seed", "pool_every")} == \
        {k: v for k, v in base.items() if k not in ("seed", "pool_every")}
    assert recipe("sunzi", None)["generations"] > 0 and recipe("no_such_game") is None


def test_the_benchmark_has_a_row_for_every_shipped_policy_and_measures_it():
    """`balance bench --trained` (cli.bench.trained_cases): every shipped policy file is a row,
    and a row measures both rates (the speed target is a ratio of them, docs/training.md); a
    game with a shipped strong field also measures the field (issue 28: at least 1/4), and every
    row the policy with hidden units (issue 28's richer class: at least 1/4)."""
    from cli.bench import measure_trained, trained_cases
    from sim import field as F
    rows = {T.shipped_path(get_game(g), r.get("n_players", 2)).name for g, r in trained_cases()}
    policies = [home(g).policies for g in game_names()]
    shipped = {p.name for folder in policies for p in folder.glob("*.json") if p.name.count(".") == 1}
    assert shipped == rows
    fields = {F.shipped_path(get_game(g), r.get("n_players", 2), as_rules(get_game(g), r))
              for g, r in trained_cases()}   # a field built for a variant: a row in that variant
    assert {p.name for folder in policies for p in folder.glob("*.field.json")} == \
        {p.name for p in fields if p}
    r = measure_trained("parthian", {"n_players": 3}, 300, min_seconds=0.05)
    assert r["heuristic"] == "cautious" and r["trained_per_s"] > 0 and r["heuristic_per_s"] > 0
    assert r["strong_per_s"] > 0  # parthian-3p.field.json
    assert r["network_per_s"] > 0 and r["network_ratio"] == r["network_per_s"] / r["heuristic_per_s"]
    r = measure_trained("kuhn", {}, 300, min_seconds=0.05)
    assert r["strong_per_s"] > 0 and r["strong_ratio"] == r["strong_per_s"] / r["heuristic_per_s"]


def test_double_oracle_rounds_train_against_the_exploit_searchs_best_response(tmp_path):
    """analysis.training.train_recipe with exploit_rounds: each round's exploiter joins the
    opponents, the history runs on across rounds, and a stopped run resumes to the same weights
    (the rounds keep their own run folders)."""
    from analysis.training import train_recipe
    plan = {"against": ["cautious"], "generations": 2, "games": 30, "seed": 3, "population": 4,
            "exploit_rounds": 1, "exploit_generations": 1, "exploit_games": 30,
            "round_generations": 2}
    rules = {"n_players": 3}
    whole = train_recipe("parthian", rules, plan)
    assert whole.provenance["opponents"] == ["cautious", "exploiter 1"]
    assert whole.provenance["exploit_rounds"][0]["round"] == 1
    assert list(whole.history["round"]) == [0, 0, 1, 1]
    assert list(whole.history["generation"]) == [1, 2, 3, 4]
    first = train_recipe("parthian", rules, dict(plan, exploit_rounds=0), run_dir=tmp_path)
    resumed = train_recipe("parthian", rules, plan, run_dir=tmp_path)
    assert np.array_equal(first.weights, train_recipe("parthian", rules, dict(
        plan, exploit_rounds=0)).weights)
    assert np.array_equal(resumed.weights, whole.weights)


def test_the_exploit_search_can_start_from_the_trained_fields_own_weights():
    """balance exploit --start field: the searching seat starts as the field plays (the shipped
    file's weights), a non-trained field is refused, and the line says where it started."""
    from analysis.training import exploit, field_weights
    from sim.errors import RunError
    shipped = np.asarray(json.loads(T.shipped_path(PARTHIAN, 3).read_text())["weights"])
    assert np.allclose(field_weights(PARTHIAN, "trained", 3), shipped)
    with pytest.raises(RunError, match="trained policy"):
        field_weights(PARTHIAN, "cautious", 3)
    probe = exploit("parthian", {"n_players": 3}, generations=1, population=4, games=20,
                    check_games=200, start="field")
    assert "field's own play" in probe.line and probe.training.provenance["exploit_start"] == "field"
    # more than two players: the search's fitness is its share over the field's seats in the
    # same games (a table can end with no winner), unless the fair share is asked for
    assert probe.training.provenance["fitness"] == "log share over the field"
    fair = exploit("parthian", {"n_players": 3}, generations=1, population=4, games=20,
                   check_games=200, relative_to="fair")
    assert fair.training.provenance["fitness"] == "log share over the fair share"
