"""`balance compare` (issue 18, item 5): a sequential test (GSPRT) on paired games with rotated
seats decides a planted difference early, accepts "no difference" for identical sides, gives the
same result at any --jobs and after a resume, and its error rates are those asked for."""
import json

import numpy as np
import pandas as pd
import pytest

from analysis.stats import wilson
from analysis.workbench.compare import SPRT, compare, parse_side, plan
from analysis.workbench.specs import WorkbenchError
from cli.main import main
from sim.errors import RunError
from sim.games import get_game


def test_a_planted_difference_is_decided_long_before_the_cap():
    # One charge card per player instead of two: team victory drops by about 18 pp (ablation).
    rules = compare("parthian", "n_players=4", "n_players=4,charges=1", max_games=200_000)
    assert rules.decision == "H1" and "lower" in rules["verdict"]
    assert rules["games"] <= 4_000 and rules["ci_high"] < -0.1
    assert rules["games"] < rules["fixed_games"] < rules["unpaired_games"]
    # A strategy set: greedy against random in Goofspiel, the first strategy's win rate (side_0).
    seats = compare("goofspiel", a_strategies=["random", "random"],
                    b_strategies=["greedy", "random"], max_games=200_000)
    assert seats["metric"] == "side_0" and seats.decision == "H1" and "higher" in seats["verdict"]
    assert seats["games"] <= 4_000 and seats["ci_low"] > 0.2


def test_identical_sides_accept_no_difference_with_an_interval_covering_zero():
    same = compare("goofspiel", "num_cards=6", "num_cards=6")
    assert same.decision == "H0" and same["diff"] == 0 and same["ci_low"] <= 0 <= same["ci_high"]
    assert same["corr"] == pytest.approx(1.0) and np.isnan(same["saving"])
    # Not just the degenerate case: swapping the seat order of two strategies leaves the
    # first-seat advantage unchanged under rotation (by symmetry) while every game differs.
    swapped = compare("goofspiel", a_strategies=["greedy", "random"],
                      b_strategies=["random", "greedy"], metric="first_seat_advantage", delta=3)
    assert swapped.decision == "H0" and swapped["ci_low"] <= 0 <= swapped["ci_high"]
    assert swapped.steps["sd"].iloc[-1] > 0.3


def test_the_result_is_the_same_at_any_jobs():
    settings = dict(a="n_players=4", b="n_players=4,charge_threshold=8", seed=0)
    one, two = compare("parthian", jobs=1, **settings), compare("parthian", jobs=2, **settings)
    assert len(one.steps) > 3          # several steps: the schedule itself is compared too
    pd.testing.assert_frame_equal(one.table, two.table)
    pd.testing.assert_frame_equal(one.steps, two.steps)
    assert one.table.attrs["provenance"] == two.table.attrs["provenance"]


def test_a_run_dir_resumes_to_the_same_result_and_refuses_another_request(tmp_path, capsys):
    settings = dict(a="n_players=4", b="n_players=4,charge_threshold=8", seed=0, jobs=2)
    first = compare("parthian", run_dir=tmp_path, **settings)
    steps = sorted(p for p in tmp_path.glob("*-games-*") if p.is_dir())
    assert len(steps) == 2 * len(first.steps)
    for folder in steps[-3:]:        # three steps' chunks lost, as if killed before them
        for file in [f for f in folder.iterdir() if f.is_file()]:
            file.unlink()
    capsys.readouterr()
    again = compare("parthian", run_dir=tmp_path, **settings)
    assert "resumed" in capsys.readouterr().err
    pd.testing.assert_frame_equal(first.table, again.table)
    with pytest.raises(RunError, match="another request"):
        compare("parthian", run_dir=tmp_path, **{**settings, "b": "n_players=4,charge_threshold=7"})


def _sequential_runs(test_args, mean, runs=2000, block=25, checks=400, seed=1):
    """Decisions of the SPRT core on normal data (sd 1) checked every ``block`` observations:
    each block's sum and within-block sum of squares are drawn exactly (normal, chi-square)."""
    rng = np.random.default_rng(seed)
    sums = mean * block + np.sqrt(block) * rng.standard_normal((runs, checks))
    within = rng.chisquare(block - 1, (runs, checks))
    total, squares = np.cumsum(sums, 1), np.cumsum(within + sums ** 2 / block, 1)
    decisions, games = [], []
    for r in range(runs):
        test = SPRT(*test_args)
        for c in range(checks):
            n = block * (c + 1)
            m = total[r, c] / n
            decision = test.update(n, m, (squares[r, c] - n * m * m) / (n - 1))
            if decision:
                break
        decisions.append(decision or ("undecided", 0))
        games.append(n)
    return decisions, np.mean(games), test


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_the_error_rates_are_those_asked_for(alternative):
    """False positives under H0 and misses under H1, each with a 99.9% Wilson interval: the
    interval must reach down to the rate asked (no more errors than asked, beyond chance) and up
    past half of it (the test spends its error budget rather than wasting games)."""
    alpha, power, delta = 0.05, 0.9, 0.1
    h0, h0_games, test = _sequential_runs((delta, alpha, power, alternative), 0.0)
    false_positive = sum(kind == "H1" for kind, _ in h0)
    low, high = wilson(false_positive, len(h0), 0.999)
    assert low <= alpha and high >= alpha / 2
    h1, h1_games, _ = _sequential_runs((delta, alpha, power, alternative), delta, seed=2)
    missed = sum(kind != "H1" or side < 0 for kind, side in h1)
    low, high = wilson(missed, len(h1), 0.999)
    assert low <= 1 - power and high >= (1 - power) / 2
    # Both means are well under the fixed-size test at the same error rates.
    assert max(h0_games, h1_games) < 0.8 * test.fixed_games(1.0)


def test_sides_parse_like_vary_and_values_may_hold_commas():
    spec = get_game("parthian")
    assert parse_side("legions=1,2,3,4,5,6,7,charge_threshold=3", spec) == \
        {"legions": "1,2,3,4,5,6,7", "charge_threshold": "3"}
    assert parse_side(["strategies=ismcts:budget=64,rollout=greedy+random", "legions[3]=9"],
                      spec) == {"strategies": "ismcts:budget=64,rollout=greedy+random",
                                "legions[3]": "9"}
    with pytest.raises(WorkbenchError, match="colour"):
        parse_side("colour=red", spec)


def test_plan_from_a_pilot_and_from_a_stated_sd():
    pilot = plan("parthian", "n_players=4", "n_players=4,charge_threshold=10").iloc[0]
    assert pilot["pilot_games"] == 2000 and 0.5 < pilot["corr"] < 1
    assert pilot["sequential_h1"] < pilot["fixed_games"] < pilot["unpaired_games"]
    stated = plan("parthian", "n_players=4", "n_players=4,charge_threshold=10", sd=30).iloc[0]
    # (1.96 + 1.28)^2 * 30^2 / 1^2 games per side
    assert stated["fixed_games"] == pytest.approx(9457, abs=2) and stated["pilot_games"] == 0


def test_the_cli_prints_a_table_writes_it_with_provenance_and_plans(tmp_path, capsys):
    out = tmp_path / "cmp.csv"
    assert main(["compare", "goofspiel", "--b-strategy", "greedy", "--b-strategy", "random",
                 "--a-strategy", "random", "--out", str(out), "--no-progress", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "| decision | H1: B is higher" in text and "fixed-size test would need" in text
    row = pd.read_csv(out).iloc[0]
    assert row["decision"] == "H1" and row["strategies_b"] == "greedy+random"
    provenance = json.loads(out.with_suffix(".provenance.json").read_text())
    assert provenance["seed"] == 0 and provenance["strategies_b"] == ["greedy", "random"]
    assert {"game", "version", "variant_a", "variant_b", "n_games"} <= set(provenance)
    parquet = tmp_path / "cmp.parquet"
    assert main(["compare", "parthian", "--players", "4", "--b", "charge_threshold=10",
                 "--plan", "--out", str(parquet), "--no-progress"]) == 0
    assert "fixed-size paired test" in capsys.readouterr().out
    assert pd.read_parquet(parquet).attrs["provenance"]["command"] == "compare --plan"


def test_help_explains_the_method(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = capsys.readouterr().out
    assert "GSPRT" in text and "common random numbers" in text and "--delta" in text


@pytest.mark.parametrize("argv, message", [
    (["--metric", "nope"], "unknown metric 'nope'"),
    (["--delta", "0"], "delta must be a positive"),
    (["--delta=-1pp"], "delta is a size"),
    (["--delta", "-1pp"], "give --delta 1pp and --alternative less"),   # not argparse's "expected one argument"
    (["--delta", "-0.5"], "delta is a size"),
    (["--delta", "lots"], "--delta 'lots'"),
    (["--alpha", "1.5"], "alpha must be a number in (0, 1)"),
    (["--power", "0"], "power must be a number in (0, 1)"),
    (["--b", "colour=red"], "colour"),
    (["--max-games", "100"], "max games 100 must be at least the batch"),
    (["--metric", "turns_mean", "--delta", "1pp"], "not a rate"),
    (["--metric", "win_3"], "unknown metric 'win_3'"),
])
def test_bad_input_exits_2_with_a_message(argv, message, capsys):
    assert main(["compare", "goofspiel", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_compare_reads_a_metric_the_study_declares():
    """Samurai Sword's team win rates (SS-19) are declared by its study: `--metric team_ninja`
    pairs them game by game; one more point of Ninja starting honour (SS-2) is a large change."""
    result = compare("samurai", None, "role_honour[ninja]=4", rules={"n_players": 5},
                     strategies="shrewd", metric="team_ninja", delta=5.0, batch=500,
                     max_games=4000)
    assert result.decision == "H1" and result["diff"] > 0.05
