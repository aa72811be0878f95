"""Strong fields: the mixture seat (sim/core/mixture.py), field files (sim/field.py) and their
construction by PSRO (analysis/field.py)."""
import json
from types import SimpleNamespace

import numpy as np
import pytest

from scipy.stats import binomtest

from analysis.field import (build_field, mixture_player, nash_zero_sum, over_all_games,
                            replicator)
from sim import field as F
from sim.core import mixture
from sim.errors import RunError, StrategyError
from sim.games import get_game, home
from sim.rng import master_key
from sim.runner import as_rules, simulate
from sim.strategy import lookup

SHIPPED = home("parthian").policies   # the built-in game's policies folder

PARTHIAN = get_game("parthian")
KUHN = get_game("kuhn")
OTHERS = ["random", "lowball", "random"]


def field_of(spec, names, probabilities):
    return mixture_player(spec, [spec.strategies[n] for n in names], probabilities)


@pytest.mark.parametrize("rotate", [False, True])
def test_each_game_plays_exactly_the_member_drawn_for_it(rotate):
    """The draw never touches the game's streams, so game g of a field's table is game g of the
    drawn member's own table, row for row; and the draws follow the probabilities."""
    seed, n = 5, 3000
    mixed = simulate("parthian", {"n_players": 4}, [field_of(PARTHIAN, ["cautious", "glory"],
                                                             [0.3, 0.7])] + OTHERS,
                     n, seed=seed, rotate_seats=rotate).records
    pure = {name: simulate("parthian", {"n_players": 4}, [name] + OTHERS, n, seed=seed,
                           rotate_seats=rotate).records for name in ("cautious", "glory")}
    draws = np.array([mixture.member_draw(master_key(seed), g, 0) for g in range(n)])
    picked = np.where(draws < 0.3, "cautious", "glory")
    play = [c for c in mixed.columns if not c.startswith("strategy_")]  # labels differ, not play
    for name in ("cautious", "glory"):
        rows = picked == name
        assert mixed.loc[rows, play].reset_index(drop=True).equals(
            pure[name].loc[rows, play].reset_index(drop=True))
    assert pure["cautious"][play].ne(pure["glory"][play]).any(axis=1).mean() > 0.3  # they differ
    assert binomtest(int((picked == "cautious").sum()), n, 0.3).pvalue > 1e-4


def test_a_heuristic_member_plays_as_alone_after_a_policy_member_in_the_same_seat():
    """A member's parameters follow the previous game's member's in the seat's row: everything
    past its own must read as zeros, as when it plays alone (a heuristic after a trained
    policy's weights)."""
    seed, n = 6, 2000
    members = [lookup(PARTHIAN, "trained", 4), PARTHIAN.strategies["lowball"]]
    mixed = simulate("parthian", {"n_players": 4}, [mixture_player(PARTHIAN, members, [0.5, 0.5])]
                     + OTHERS, n, seed=seed).records
    alone = simulate("parthian", {"n_players": 4}, ["lowball"] + OTHERS, n, seed=seed).records
    draws = np.array([mixture.member_draw(master_key(seed), g, 0) for g in range(n)])
    rows = draws >= 0.5
    play = [c for c in mixed.columns if not c.startswith("strategy_")]
    assert mixed.loc[rows, play].reset_index(drop=True).equals(
        alone.loc[rows, play].reset_index(drop=True))


def test_a_field_gives_the_same_table_at_any_jobs_and_chunk_size():
    seats = [field_of(PARTHIAN, ["cautious", "glory", "lowball"], [0.2, 0.5, 0.3])] * 2 + \
        ["random", "cautious"]
    tables = [simulate("parthian", {"n_players": 4}, seats, 4000, seed=9, jobs=jobs,
                       chunk_size=chunk).records for jobs, chunk in ((1, None), (2, 333), (1, 1000))]
    assert tables[0].equals(tables[1]) and tables[0].equals(tables[2])


def test_two_field_seats_draw_their_members_apart():
    """Each slot draws its own member: two seats of one field do not always play the same one."""
    key = master_key(3)
    draws = np.array([[mixture.member_draw(key, g, s) for s in range(2)] for g in range(2000)])
    assert 0.2 < np.mean((draws[:, 0] < 0.5) != (draws[:, 1] < 0.5)) < 0.8


def test_a_one_member_field_is_that_member():
    alone = simulate("parthian", {"n_players": 4}, [field_of(PARTHIAN, ["glory"], [1.0])] + OTHERS,
                     2000, seed=1).records
    plain = simulate("parthian", {"n_players": 4}, ["glory"] + OTHERS, 2000, seed=1).records
    assert alone.equals(plain)


def test_field_files_round_trip_and_refuse_what_is_no_field(tmp_path):
    policy = json.loads((SHIPPED / "parthian-4p.json").read_text())
    members = [{"name": "cautious", "probability": 0.25, "strategy": "cautious"},
               {"name": "trained", "probability": 0.75, "weights": policy["weights"]}]
    path = F.save(tmp_path / "p.field.json", PARTHIAN, members, 4, {"n_players": 4}, {})
    seat = lookup(PARTHIAN, f"strong:{path}", 4)
    assert seat.name == "strong:p" and seat.source == str(path)
    table = simulate("parthian", {"n_players": 4}, [seat] + OTHERS, 500, seed=2).records
    assert len(table) == 500
    body = json.loads(path.read_text())
    cases = {
        "not-json": ("{", "is not a field"),
        "list": ([], "not a 'balance-field/1' object"),
        "other-game": ({**body, "game": "sunzi"}, "is for 'sunzi'"),
        "no-members": ({**body, "members": []}, "non-empty list"),
        "negative": ({**body, "members": [{**members[0], "probability": -1}]}, "probability"),
        "nan": ({**body, "members": [{**members[0], "probability": float("nan")}]}, "probability"),
        "both": ({**body, "members": [{**members[0], "weights": policy["weights"]}]}, "either"),
        "unknown": ({**body, "members": [{**members[0], "strategy": "nosuch"}]}, "not a built-in"),
        "search": ({**body, "members": [{**members[0], "strategy": "ismcts"}]}, "not a built-in"),
        "old-features": ({**body, "feature_code": "0" * 12}, "other Parthian Shot features"),
        "zero": ({**body, "members": [{**members[0], "probability": 0}]}, "all 0"),
        "bad-weights": ({**body, "members": [{**members[1], "weights": [[1, 2]]}]}, "weights"),
    }
    for name, (content, message) in cases.items():
        bad = tmp_path / f"{name}.field.json"
        bad.write_text(content if isinstance(content, str) else json.dumps(content))
        with pytest.raises(StrategyError, match=message):
            lookup(PARTHIAN, f"strong:{bad}", 4)
    with pytest.raises(StrategyError, match="not found"):
        lookup(PARTHIAN, f"strong:{tmp_path / 'missing.json'}", 4)


def test_the_search_can_roll_out_with_a_field(tmp_path):
    """ismcts with rollout=strong:FILE models the other seats by the field's members, drawn per
    iteration; the run is deterministic and the search still beats random."""
    path = F.save(tmp_path / "k.field.json", KUHN,
                  [{"name": n, "probability": 0.5, "strategy": n} for n in ("nash", "honest")],
                  2, {}, {})
    seats = [f"ismcts:budget=32,rollout=strong:{path}", "random"]
    first = simulate("kuhn", None, seats, 300, seed=4, rotate_seats=True).records
    again = simulate("kuhn", None, seats, 300, seed=4, rotate_seats=True, jobs=2).records
    assert first.equals(again)


def test_a_broad_rollout_is_the_fields_support_and_every_heuristic_equally_likely(tmp_path):
    """ismcts:rollout=broad[:FILE] (sim.strategy.broad_field): the field's members with
    probability above 0 and each built-in but random, each drawn with the same probability; a
    game without a shipped field is refused with the way out."""
    path = F.save(tmp_path / "k.field.json", KUHN,
                  [{"name": "nash", "probability": 0.9, "strategy": "nash"},
                   {"name": "honest", "probability": 0.1, "strategy": "honest"},
                   {"name": "aggressive", "probability": 0.0, "strategy": "aggressive"}],
                  2, {}, {})
    seat = lookup(KUHN, f"ismcts:budget=16,rollout=broad:{path}", 2)
    assert "rollout=broad:k" in seat.name
    members = mixture.unpack(seat.params[8:])
    heuristics = [s for s in KUHN.strategies.values() if s.name != "random"]
    assert [kind for _, kind, _ in members] == \
        [KUHN.strategies["nash"].builtin, KUHN.strategies["honest"].builtin] + \
        [s.builtin for s in heuristics]
    assert np.allclose([p for p, _, _ in members], 1 / len(members))
    seats = [f"ismcts:budget=16,rollout=broad:{path}", "random"]
    first = simulate("kuhn", None, seats, 200, seed=4, rotate_seats=True).records
    assert first.equals(simulate("kuhn", None, seats, 200, seed=4, rotate_seats=True,
                                 jobs=2).records)
    with pytest.raises(StrategyError, match="no strong Goofspiel field"):
        lookup(get_game("goofspiel"), "ismcts:rollout=broad", 2)


def test_a_games_default_rollout_may_be_its_field_and_falls_back_to_its_heuristic():
    """Plain ismcts rolls out GameSpec.rollout: Sunzi's is its broad field; a game whose
    default names a field (or policy) that its player count lacks rolls out its heuristic."""
    from dataclasses import replace

    assert "rollout=broad:sunzi)" in lookup(get_game("sunzi"), "ismcts", 2).name
    for default in ("broad", "strong", "trained"):
        goofspiel = replace(get_game("goofspiel"), rollout=default)
        assert "rollout=match)" in lookup(goofspiel, "ismcts:budget=8", 2).name


def test_nash_of_rock_paper_scissors_and_of_a_dominated_game():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
    assert np.allclose(nash_zero_sum(rps), 1 / 3, atol=1e-6)
    dominant = np.array([[0, 0.2, 0.3], [-0.2, 0, 0.1], [-0.3, -0.1, 0]])
    assert np.allclose(nash_zero_sum(dominant), [1, 0, 0], atol=1e-6)


def test_replicator_dynamics_move_to_the_better_member():
    mix = replicator(lambda m: np.array([1.2, 0.8]), 2, steps=20)
    assert mix[0] > 0.95 and mix[1] >= 1e-3 / 2


def test_psro_adds_a_best_response_each_iteration_and_records_its_exploitability(tmp_path):
    build = build_field("kuhn", None, iterations=1, oracle_generations=2, oracle_games=60,
                        table_games=300, check_games=300, seed=3, start=[KUHN.strategies["honest"],
                                                                         KUHN.strategies["aggressive"]])
    assert [m.name for m in build.members] == ["honest", "aggressive", "response 1"]
    assert build.probabilities.sum() == pytest.approx(1) and len(build.history) == 2
    assert build.table.shape == (3, 3) and np.allclose(np.diag(build.table), 0.5)
    assert 0 <= build.exploitability["low"] <= build.exploitability["best_response_share"] \
        <= build.exploitability["high"] <= 1
    assert "2 x 60" in build.exploitability["line"]
    path = build.save(tmp_path / "kuhn.field.json")
    seat = lookup(KUHN, f"strong:{path}", 2)
    assert len(simulate("kuhn", None, [seat, "random"], 200, seed=1).records) == 200


def test_pack_and_unpack_are_inverse_and_the_exploit_can_start_from_a_fields_policy(tmp_path):
    from analysis.training import field_weights

    members = [(0.25, 3, (1.0, 2.0)), (0.75, 91, (0.0, 14.0, *range(14)))]
    assert [(round(p, 12), k, v) for p, k, v in mixture.unpack(mixture.pack(members))] == members
    policy = json.loads((SHIPPED / "parthian-4p.json").read_text())
    path = F.save(tmp_path / "p.field.json", PARTHIAN,
                  [{"name": "cautious", "probability": 0.6, "strategy": "cautious"},
                   {"name": "trained", "probability": 0.4, "weights": policy["weights"]}],
                  4, {"n_players": 4}, {})
    assert np.allclose(field_weights(PARTHIAN, f"strong:{path}", 4), policy["weights"])


@pytest.mark.parametrize("game", ["kuhn", "leduc", "shuojian", "samurai", "parthian", "sunzi"])
def test_every_shipped_field_plays_and_records_its_exploitability_at_the_full_budget(game):
    """Issue 28: a shipped field's exploitability is measured at no less than `balance
    exploit`'s default budget (60 generations x 300 games), and it seats with -s strong."""
    spec = get_game(game)
    found = [(n, path, {}) for n, path in F.shipped_fields(spec).items()]
    assert found, f"no field shipped for {game}"
    found += [(n, path, F.variant_of(spec, path)) for n, _, path in F.shipped_variants(spec)]
    for n, path, variant in found:
        body = F.load(path, spec)
        record = body["exploitability"]
        generations, games = map(int, record["oracle"].split(" x "))
        assert generations >= 60 and games >= 300 and record["games"] >= 4000
        assert record["low"] <= record["best_response_share"] <= record["high"]
        assert "exploitability" in record["line"]
        seats = 2 if n is None else n
        rules = {**variant, **({} if n is None else {"n_players": n})} or None
        assert lookup(spec, "strong", seats, as_rules(spec, rules)).source == str(path)
        table = simulate(game, rules, ["strong"] + ["random"] * (seats - 1), 200, seed=1,
                         rotate_seats=True).records
        assert len(table) == 200
        if seats > 2:  # the multi-player target: within 5 points of the field's own share
            assert record["best_response_share"] - record["field_share"] <= 0.05
        if record.get("undecided") == "loss":  # shares of all games, the decided ones beside
            assert record["games"] >= record["decided"] >= 0 and "decided_share" in record


def test_the_oracle_takes_its_starts_in_turn_and_the_final_measure_keeps_the_best(monkeypatch):
    """Issue 28: a best response searched from one start only can miss the line another start
    reaches; the iterations alternate the starts and the final measure runs every one."""
    import analysis.field as field_module

    calls = []

    def fake_exploit(game, rules, field, generations, games, seed, jobs, check_games, progress,
                     start, relative_to=None):
        calls.append((start, seed))
        assert relative_to is None  # undecided="apart": the exploit search's own fitness
        share = {"heuristic": 0.52, "field": 0.61}[start]
        return SimpleNamespace(measured={"share": share},
                               training=SimpleNamespace(provenance={"exploit_start": start}))

    monkeypatch.setattr(field_module, "exploit", fake_exploit)
    members = [KUHN.strategies["honest"], lookup(KUHN, "trained", 2)]
    starts = ("heuristic", "field")
    turns = [field_module.best_response(KUHN, None, members, np.array([0.5, 0.5]), starts, False,
                                        k, 2, 60, 3, 1, 300) for k in range(3)]
    assert [t.training.provenance["exploit_start"] for t in turns] == ["heuristic", "field",
                                                                       "heuristic"]
    calls.clear()
    final = field_module.best_response(KUHN, None, members, np.array([0.5, 0.5]), starts, True,
                                       3, 2, 60, 3, 1, 300)
    assert [c[0] for c in calls] == ["heuristic", "field"] and len({c[1] for c in calls}) == 2
    assert final.measured["share"] == 0.61
    # without a trained member in the mixture there is no field policy to start from
    calls.clear()
    field_module.best_response(KUHN, None, members, np.array([1.0, 0.0]), starts, True, 3, 2, 60,
                               3, 1, 300)
    assert [c[0] for c in calls] == ["heuristic"]


def test_the_leading_schedule_searches_again_from_the_start_that_still_wins():
    """oracle_schedule="leading": every start once, then the start whose last search won most,
    a rested start gaining STALE_PER_ITERATION an iteration until it is searched again; a bad
    schedule name is refused."""
    import analysis.field as field_module

    usable = ["heuristic", "reserve", "banker"]
    history = []

    def row(k, start, share):
        history.append({"iteration": k, "oracle_start": start, "best_response_share": share})

    picks = []
    for k, share in enumerate([0.40, 0.45, 0.62]):   # the first three: each start once
        picks.append(field_module.scheduled_start(usable, k, history, "leading"))
        row(k, picks[-1], share)
    assert picks == usable
    assert field_module.scheduled_start(usable, 3, history, "leading") == "banker"
    row(3, "banker", 0.44)    # banker's line is now answered: reserve (0.45, older) leads
    assert field_module.scheduled_start(usable, 4, history, "leading") == "reserve"
    row(4, "reserve", 0.30)
    # at 5: heuristic 0.40 + 5 x 0.01 = 0.45 < banker 0.44 + 2 x 0.01; at 6, after banker's
    # 0.35, heuristic's 0.46 leads
    assert field_module.scheduled_start(usable, 5, history, "leading") == "banker"
    row(5, "banker", 0.35)
    assert field_module.scheduled_start(usable, 6, history, "leading") == "heuristic"
    assert [field_module.scheduled_start(usable, k, [], "rotate") for k in range(4)] == \
        usable + ["heuristic"]
    with pytest.raises(RunError, match="oracle schedule"):
        field_module.build_field("kuhn", iterations=0, oracle_schedule="turns")


def test_a_game_nobody_wins_can_count_as_lost_by_every_seat():
    """undecided="loss" (analysis.field.UNDECIDED): a best response's measure becomes win
    probabilities over every game, with the decided games' figures kept beside them: 26 wins of
    35 decided games in 4,000 is 0.65% of the games, not 74%."""
    measured = {"share": 26 / 35, "low": 0.58, "high": 0.86, "field": 0.129, "fair": 1 / 3,
                "games": 4000, "decided": 35}
    allgames = over_all_games(measured)
    assert allgames["share"] == pytest.approx(26 / 4000)
    assert allgames["low"] < 26 / 4000 < allgames["high"] < 0.012
    assert allgames["field"] == pytest.approx(0.129 * 35 / 4000)
    assert allgames["decided_share"] == pytest.approx(26 / 35) and allgames["decided"] == 35
    nobody = over_all_games({"share": np.nan, "low": np.nan, "high": np.nan, "field": np.nan,
                             "fair": 1 / 3, "games": 400, "decided": 0})
    assert nobody["share"] == nobody["field"] == nobody["low"] == 0 and nobody["high"] < 0.01
    assert nobody["decided_share"] is None


def test_a_field_built_with_undecided_games_as_losses_records_both_readings(monkeypatch):
    """The oracle maximises its own win probability (relative_to="fair"), and the field's record
    gives the all-games shares with the decided games' beside them; the same seed gives the
    same field."""
    import analysis.field as field_module

    fitnesses = []
    real = field_module.exploit

    def spy(*args, **kwargs):
        fitnesses.append(kwargs["relative_to"])
        return real(*args, **kwargs)

    monkeypatch.setattr(field_module, "exploit", spy)
    options = dict(iterations=1, oracle_generations=2, oracle_games=40, table_games=200,
                   check_games=400, seed=3, undecided="loss", oracle_starts=("heuristic",))
    build = build_field("parthian", {"n_players": 3}, **options)
    assert fitnesses == ["fair", "fair"] and build.provenance["undecided"] == "loss"
    record = build.exploitability
    assert record["undecided"] == "loss" and record["games"] == 400
    assert record["low"] <= record["best_response_share"] <= record["high"]
    if record["decided"]:
        assert record["best_response_share"] == pytest.approx(
            record["decided_share"] * record["decided"] / 400)
    assert "lost by every seat" in record["line"]
    again = build_field("parthian", {"n_players": 3}, **options)
    assert np.array_equal(again.probabilities, build.probabilities)
    assert again.exploitability == record
    with pytest.raises(RunError, match="undecided"):
        build_field("parthian", {"n_players": 3}, **{**options, "undecided": "draw"})


def test_the_command_line_takes_undecided_and_the_check_measures_as_the_file_was_built(
        tmp_path, capsys):
    from cli.main import main

    out = tmp_path / "p.field.json"
    small = ["--oracle-generations", "1", "--oracle-games", "30", "--check-games", "200",
             "--oracle-starts", "heuristic", "--jobs", "1", "--no-progress"]
    assert main(["field", "parthian", "--players", "3", "--iterations", "0", "--table-games",
                 "100", "--undecided", "loss", "--out", str(out), *small]) == 0
    assert "lost by every seat" in capsys.readouterr().out
    assert json.loads(out.read_text())["provenance"]["undecided"] == "loss"
    assert main(["field", "parthian", "--players", "3", "--check", str(out), *small]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["undecided"] == "loss" and checked["games"] == 200 and "decided_share" in checked


def test_the_check_plays_its_best_response_against_each_member_alone(capsys):
    """`balance field --check` shows which members the best response found beats: one row per
    member the mixture can draw, each seated alone on fresh games. The field's share is the
    probability-weighted mean of its members', so the weighted member shares agree with the
    check's own share within the two intervals. A negative count is refused by name."""
    from cli.main import main

    path = F.shipped_path(get_game("shuojian"), None)
    drawn = [m for m in json.loads(path.read_text())["members"] if m["probability"] > 0]
    small = ["--oracle-generations", "1", "--oracle-games", "30", "--check-games", "1500",
             "--oracle-starts", "heuristic", "--jobs", "1", "--no-progress"]
    assert main(["field", "shuojian", "--check", str(path), *small, "--members", "1500"]) == 0
    printed = capsys.readouterr()
    checked = json.loads(printed.out)
    rows = checked["members"]
    assert [r["member"] for r in rows] == [m["name"] for m in drawn]
    assert sum(r["probability"] for r in rows) == pytest.approx(1.0, abs=1e-6)
    weighted = sum(r["probability"] * r["share"] for r in rows)
    slack = sum(r["probability"] * (r["high"] - r["low"]) / 2 for r in rows)
    slack += (checked["high"] - checked["low"]) / 2
    assert abs(weighted - checked["best_response_share"]) <= slack
    assert "each member alone" in printed.err
    assert main(["field", "shuojian", "--check", str(path), *small, "--members", "0"]) == 0
    assert "members" not in json.loads(capsys.readouterr().out)
    assert main(["field", "shuojian", "--check", str(path), *small, "--members", "-1"]) == 2
    assert "--members must be >= 0" in capsys.readouterr().err


def test_the_oracle_starts_include_every_style_a_game_declares():
    """Issue 28: "styles" stands for the built-ins of another kind of play a game declares
    (STYLE_WEIGHTS; Sunzi: reserve) and the built-ins whose knobs it declares (STYLE_KNOBS;
    Sunzi: settle), so a field's best responses are also searched from there; a start a game
    does not have is refused by name."""
    from analysis.field import ORACLE_STARTS, expand_starts
    from analysis.training import exploit_starts

    sunzi = get_game("sunzi")
    assert expand_starts(sunzi, ORACLE_STARTS) == ["heuristic", "field", "reserve", "settle",
                                                   "planner", "holder", "striker", "banker",
                                                   "mirror", "tempo"]
    assert expand_starts(KUHN, ORACLE_STARTS) == ["heuristic", "field"]
    assert "reserve" in exploit_starts(sunzi) and "reserve" not in exploit_starts(KUHN)
    with pytest.raises(RunError, match="reserve"):
        expand_starts(KUHN, ("heuristic", "reserve"))


def fake_oracle(calls, hidden_units=None, schedules=None):
    """A best_response stand-in that records (iteration, final?, generations, games), the
    hidden units each search was asked for in ``hidden_units``, and the schedule with the
    number of earlier iterations' rows it was given in ``schedules``."""
    def best_response(spec, rules, members, mix, starts, every_start, k, generations, games,
                      seed, jobs, check_games, undecided="apart", hidden=0, schedule="rotate",
                      history=()):
        calls.append((k, every_start, generations, games))
        if hidden_units is not None:
            hidden_units.append(hidden)
        if schedules is not None:
            schedules.append((schedule, len(history)))
        measured = {"share": 0.5, "low": 0.45, "high": 0.55, "field": 0.5, "decided": 100,
                    "games": 100}
        response = KUHN.strategies["honest"].with_params(name="response")
        return SimpleNamespace(measured=measured, training=SimpleNamespace(
            provenance={"exploit_start": "heuristic"}, player=lambda name: response))
    return best_response


def test_a_build_hands_its_schedule_and_history_to_every_oracle_and_records_it(monkeypatch):
    """oracle_schedule reaches each iteration's oracle with the rows before it, and the field's
    provenance names it (the default, rotate, is left out so older runs still resume)."""
    import analysis.field as field_module

    calls, schedules = [], []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls, schedules=schedules))
    build = build_field("kuhn", None, iterations=2, table_games=100, check_games=100, seed=1,
                        oracle_schedule="leading")
    assert schedules == [("leading", 0), ("leading", 1), ("leading", 2)]
    assert build.provenance["oracle_schedule"] == "leading"
    assert "oracle_schedule" not in build_field("kuhn", None, iterations=0, table_games=100,
                                                check_games=100, seed=1).provenance


def test_the_iterations_can_search_at_a_smaller_budget_than_the_final_measure(monkeypatch):
    """response_budget: the iterations' own oracles at (generations, games), the final measure
    (the exploitability) at the full oracle budget."""
    import analysis.field as field_module

    calls = []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls))
    build = build_field("kuhn", None, iterations=2, oracle_generations=60, oracle_games=300,
                        table_games=100, check_games=100, seed=1, response_budget=(5, 40))
    assert calls == [(0, False, 5, 40), (1, False, 5, 40), (2, True, 60, 300)]
    assert build.provenance["response_budget"] == [5, 40]
    assert "60 x 300" in build.exploitability["line"]
    for bad in ((0, 40), (5,), (5.5, 40)):
        with pytest.raises(RunError, match="response budget"):
            build_field("kuhn", None, iterations=1, response_budget=bad)
    for bad in (-1, 1.5, True):  # refused by name before any table is played
        with pytest.raises(RunError, match="--oracle-hidden"):
            build_field("kuhn", None, iterations=1, oracle_hidden=bad)


def test_a_resumed_run_keeps_the_final_measure_apart_from_the_iterations_oracle(monkeypatch,
                                                                                  tmp_path):
    """Iteration k's oracle searches from one start, a run's final measure from every start:
    a longer run resumed from a shorter one's folder searches iteration k anew instead of
    taking the shorter run's final measure for it."""
    import analysis.field as field_module

    calls = []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls))
    options = dict(oracle_generations=2, oracle_games=60, table_games=100, check_games=100,
                   seed=1, run_dir=tmp_path / "run")
    build_field("kuhn", None, iterations=1, **options)
    assert [c[:2] for c in calls] == [(0, False), (1, True)]
    calls.clear()
    build_field("kuhn", None, iterations=2, **options)
    assert [c[:2] for c in calls] == [(1, False), (2, True)]
    calls.clear()
    build_field("kuhn", None, iterations=1, **options)   # all kept: nothing searched again
    assert calls == []


def test_a_recipes_caveat_stands_beside_the_exploitability_of_the_field_it_ships(monkeypatch,
                                                                                   tmp_path):
    """A measure the build cannot repeat (held-out players tuned against the field: Sunzi's
    recipe) is a recipe's "caveat": the shipped file's line, which every report prints beside
    the strong rung, carries it after the best response's figure."""
    import analysis.field as field_module

    calls = []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls))
    recipe = {"iterations": 0, "seed": 1, "table_games": 100,
              "caveat": "Held-out players win up to 73%"}
    monkeypatch.setattr(field_module, "field_recipe", lambda game, n=None, rules=None: recipe)
    [path] = field_module.regenerate_shipped(["kuhn"], out=tmp_path, progress=False)
    record = F.load(path, KUHN)["exploitability"]
    assert record["line"].startswith("exploitability: the best response found wins 50.0%")
    assert record["line"].endswith(". Held-out players win up to 73%")
    assert record["caveat"] == "Held-out players win up to 73%"
    shipped = F.load(F.shipped_path(get_game("sunzi"), 2), get_game("sunzi"))["exploitability"]
    assert "tuned against this field" in shipped["line"]


def test_every_oracle_searches_policies_with_the_hidden_units_asked_for(monkeypatch):
    """oracle_hidden (--oracle-hidden): the iterations and the final measure search policies
    with that many hidden units (sim/core/policy.py), and the field's line says so."""
    import analysis.field as field_module

    calls, hidden = [], []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls, hidden))
    build = build_field("kuhn", None, iterations=2, oracle_generations=60, oracle_games=300,
                        table_games=100, check_games=100, seed=1, oracle_hidden=3)
    assert hidden == [3, 3, 3]
    assert build.provenance["oracle_hidden"] == 3
    assert "policies with 3 hidden units" in build.exploitability["line"]
    assert "3 hidden units" in build.exploitability["oracle"]


@pytest.mark.parametrize("seed", range(5))
def test_a_generalist_mixture_is_an_equilibrium_within_its_tolerance_that_does_best_overall(seed):
    """generalist_mixture: no member beats it by more than the tolerance, its mean share against
    the whole population is at least the Nash mixture's, and at tolerance 0 no member beats it
    at all (it is a Nash mixture). Random share tables of 12 members: t[i, j] + t[j, i] = 1."""
    from analysis.field import generalist_mixture

    rng = np.random.default_rng(seed)
    raw = rng.random((12, 12))
    table = (raw + 1.0 - raw.T) / 2.0
    nash = nash_zero_sum(table - table.T)
    for tolerance in (0.0, 0.02, 0.05):
        mix = generalist_mixture(table, tolerance)
        assert mix.min() >= 0 and abs(mix.sum() - 1) < 1e-9
        assert (table @ mix).max() <= 0.5 + tolerance + 1e-7
        assert mix @ table.mean(axis=1) >= nash @ table.mean(axis=1) - 1e-7
    for bad in (-0.01, 0.5, True, "0.02"):
        with pytest.raises(RunError, match="tolerance"):
            generalist_mixture(table, bad)


def test_a_build_ships_the_generalist_mixture_of_its_final_table_when_asked(monkeypatch):
    """final_generalist: the iterations are PSRO's (Nash mixtures), the final mixture is
    generalist_mixture of the final table, the provenance says so, and a game of more than two
    seats is refused before any table is played."""
    import analysis.field as field_module
    from analysis.field import generalist_mixture

    calls = []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls))
    build = build_field("kuhn", None, iterations=1, table_games=200, check_games=100, seed=1,
                        final_generalist=0.02)
    assert np.allclose(build.probabilities, generalist_mixture(build.table, 0.02))
    assert build.provenance["final_mixture"] == "generalist, tolerance 0.02"
    assert [c[:2] for c in calls] == [(0, False), (1, True)]
    with pytest.raises(RunError, match="two-player"):
        build_field("parthian", {"n_players": 4}, iterations=0, final_generalist=0.02)


SUNZI = get_game("sunzi")


def shipped_here(monkeypatch, folder):
    """Point the shipped fields of every game at ``folder``."""
    monkeypatch.setattr(F, "home", lambda spec: SimpleNamespace(policies=folder))


def one_member_field(spec, strategy, options, path):
    from sim.runner import as_rules

    variant = json.loads(json.dumps(as_rules(spec, options).to_dict(), default=str))
    return F.save(path, spec, [{"name": strategy, "probability": 1.0, "strategy": strategy}],
                  2, variant, {"game": spec.name},
                  {"line": f"exploitability: {strategy} only: 99%"})


def test_a_field_built_for_a_variant_seats_in_that_variant_and_the_most_specific_wins(
        monkeypatch, tmp_path):
    """A field built in one mode loses in another (the basic Sunzi field loses 73% of advanced
    games to banker), so -s strong seats <game>[-<n>p].<tag>.field.json in the games whose rules
    agree with every option it was built with that differs from the defaults; the field with
    the most such options wins, and any other game seats the count's own field."""
    from analysis.skill import field_exploit_line, field_exploitability

    shipped_here(monkeypatch, tmp_path)
    base = one_member_field(SUNZI, "counter", None, tmp_path / "sunzi.field.json")
    advanced = one_member_field(SUNZI, "banker", {"mode": "advanced"},
                                tmp_path / "sunzi.advanced.field.json")
    warlord = one_member_field(SUNZI, "holder", {"mode": "advanced", "warlord": True},
                               tmp_path / "sunzi-2p.warlord.field.json")
    (tmp_path / "sunzi-advanced.field.json").write_text("{}")   # no field's name: ignored
    assert F.shipped_fields(SUNZI) == {None: base}
    assert sorted(F.shipped_variants(SUNZI), key=str) == [(2, "warlord", warlord),
                                                          (None, "advanced", advanced)]
    assert F.variant_of(SUNZI, advanced) == {"mode": "advanced"}
    assert F.variant_of(SUNZI, base) == {}

    def seated(options):
        rules = as_rules(SUNZI, options)
        return F.shipped_path(SUNZI, 2, rules), lookup(SUNZI, "strong", 2, rules).source

    assert F.shipped_path(SUNZI, 2) == base
    assert seated(None) == (base, str(base))
    assert seated({"mode": "advanced"}) == (advanced, str(advanced))
    assert seated({"mode": "advanced", "warlord": True}) == (warlord, str(warlord))
    assert seated({"mode": "basic", "warlord": True}) == (base, str(base))
    # simulate seats it: the one-member field plays banker's games exactly, in advanced mode only
    for options, member in (({"mode": "advanced"}, "banker"), (None, "counter")):
        field_games = simulate("sunzi", options, ["strong", "random"], 60, seed=4).records
        member_games = simulate("sunzi", options, [member, "random"], 60, seed=4).records
        assert field_games.filter(like="win_").equals(member_games.filter(like="win_"))
    # the report's line is the variant's own, flagged where the game differs from it
    assert field_exploitability("sunzi", {"mode": "advanced"}) == \
        "exploitability: banker only: 99%"
    flagged = field_exploitability("sunzi", {"mode": "advanced", "leaders": "hidden"})
    assert "banker only" in flagged and "(leaders=public)" in flagged
    assert "`balance field sunzi -o mode=advanced --check`" in field_exploit_line(
        "sunzi", {"mode": "advanced"})
    assert "`balance field sunzi --check`" in field_exploit_line("sunzi")


def test_a_recipe_builds_a_field_of_its_own_for_each_variant_it_names(monkeypatch, tmp_path):
    """FIELD["variants"][tag] = {"options": ..., changes}: `balance field --shipped` builds one
    more field per variant, in that variant's rules, with the variant's changes to the recipe,
    named <game>.<tag>.field.json; field_recipe hands a game in that variant the same plan."""
    import analysis.field as field_module
    import analysis.studies as studies

    recipe = {"iterations": 0, "seed": 1, "table_games": 100, "caveat": "base",
              "variants": {"antes": {"options": {"ante": 2}, "seed": 5, "caveat": "antes"}}}
    monkeypatch.setattr(studies, "study_module", lambda game: SimpleNamespace(FIELD=recipe))
    assert field_module.recipe_variants("kuhn") == {"antes": {"ante": 2}}
    assert field_module.field_recipe("kuhn")["caveat"] == "base"
    assert field_module.field_recipe("kuhn", None, as_rules(KUHN, {"ante": 2}))["seed"] == 5
    assert field_module.field_recipe("kuhn", None, as_rules(KUHN, {"ante": 3}))["seed"] == 1
    calls = []
    monkeypatch.setattr(field_module, "best_response", fake_oracle(calls))
    written = field_module.regenerate_shipped(["kuhn"], out=tmp_path, progress=False)
    assert [p.name for p in written] == ["kuhn.field.json", "kuhn.antes.field.json"]
    base, antes = (F.load(p, KUHN) for p in written)
    assert base["variant"]["ante"] == 1 and antes["variant"]["ante"] == 2
    assert antes["exploitability"]["caveat"] == "antes"
    assert antes["provenance"]["seed"] == 5
    assert (tmp_path / "kuhn.antes.field-history.csv").is_file()


def test_the_search_against_the_field_is_measured_and_recorded_beside_it(tmp_path):
    """Issue 61, item 6: the search with the field as its rollouts, against the field, seats
    rotated; the record sits beside the field file and the report's field line states it."""
    import shutil

    from analysis.field import search_against_field, search_line, search_path
    from analysis.skill import field_exploit_line

    field = tmp_path / "kuhn.field.json"
    shutil.copy(home("kuhn").policies / "kuhn.field.json", field)
    record = search_against_field("kuhn", None, n_games=60, budget=8, seed=5, path=field)
    assert search_path(field).is_file() and 0 <= record["low"] <= record["share"] <= record["high"] <= 1
    assert record["games"] == 60 and record["search"] == "ismcts:rollout=strong,budget=8"
    assert "ismcts(budget=8" in search_line(field) and f"{record['share']:.1%}" in search_line(field)
    assert search_line(tmp_path / "none.field.json") == ""
    shipped = home("kuhn").policies / "kuhn.search.json"
    assert ("search with the field" in field_exploit_line("kuhn")) == shipped.is_file()
    with pytest.raises(Exception, match="2-player"):
        search_against_field("parthian", {"n_players": 3}, n_games=10)
