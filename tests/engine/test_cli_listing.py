"""What the CLI lists and prints, and the options it refuses (issue 27): `balance strategies`
lists trained and the shipped policies, rotated seats print each strategy's own share, and
`metrics`, `tune` and `compare` refuse values they used to bend or overflow on."""
import math
import re
from types import SimpleNamespace

import pandas as pd
import pytest
from scipy.stats import norm

from analysis.tables import strategy_table
from analysis.workbench.compare import SPRT
from cli.main import main
from cli.workbench import METRICS_MAX_GAMES, replay_command
from sim import trained
from sim.games import get_game
from sim.runner import simulate


def run(argv, capsys):
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_strategies_lists_trained_with_the_shipped_policy_of_each_player_count(capsys):
    status, out, _ = run(["strategies", "parthian"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert any(line.startswith("ismcts ") for line in lines)
    trained_line = next(i for i, line in enumerate(lines) if line.startswith("trained "))
    shipped = lines[trained_line + 1]
    for n in (3, 4, 5, 6):   # PS-1: 3 to 6 players, one shipped policy each
        assert f"{n} players: games/parthian/policies/parthian-{n}p.json" in shipped
    assert set(trained.shipped_policies(get_game("parthian"))) == {3, 4, 5, 6}


def test_strategies_says_when_a_game_has_no_trained_policy(capsys):
    _, out, _ = run(["strategies", "goofspiel"], capsys)
    assert "trained      not available: Goofspiel declares no features" in out
    _, out, _ = run(["strategies", "kuhn"], capsys)
    assert "shipped: games/kuhn/policies/kuhn.json" in out


def test_rotated_seats_print_each_strategys_own_share_with_its_interval(capsys):
    argv = ["simulate", "goofspiel", "-s", "random", "-s", "greedy", "--games", "2000",
            "--rotate-seats", "--jobs", "1", "--no-progress"]
    status, out, _ = run(argv, capsys)
    assert status == 0
    assert "Win rate per strategy (seats rotated" in out
    expected = strategy_table(simulate("goofspiel", None, ["random", "greedy"], 2000,
                                       rotate_seats=True))
    shown = out.split("Win rate per strategy")[1]
    for row in expected.itertuples():
        assert f"{row.strategy}" in shown
        assert f"{row.win_rate:.4f}" in shown and f"{row.ci_low:.4f}" in shown
    status, out, _ = run(argv[:6] + ["--precision", "5", "--rotate-seats", "--jobs", "1",
                                     "--no-progress"], capsys)
    assert status == 0 and "Win rate per strategy (seats rotated" in out
    _, out, _ = run(argv[:-4] + ["--jobs", "1", "--no-progress"], capsys)
    assert "Win rate per strategy" not in out     # without rotation the seat rows say it all


@pytest.mark.parametrize("games", ["1000000000000", str(METRICS_MAX_GAMES + 1), "0", "-5"])
def test_metrics_refuses_samples_out_of_range(games, capsys):
    status, _, err = run(["metrics", "goofspiel", "--games", games], capsys)
    assert status == 2 and f"--games {games}" in err and "1,000,000 games" in err


def test_metrics_shows_a_progress_bar_on_long_samples(monkeypatch, capsys):
    import sim.runner

    seen = []

    def stop(*args, progress=None, **kwargs):
        seen.append(progress)
        raise KeyboardInterrupt   # no need to play them

    monkeypatch.setattr(sim.runner, "simulate", stop)
    assert main(["metrics", "goofspiel", "--games", "200000"]) == 130
    assert main(["metrics", "goofspiel", "--games", "500"]) == 130
    assert main(["metrics", "goofspiel", "--games", "200000", "--no-progress"]) == 130
    assert seen == [True, False, False]


@pytest.mark.parametrize("flag, value, message", [
    ("--precision", "0", "precision must be a number of percentage points in \\(0, 50\\], got 0"),
    ("--precision", "-1", "precision must be"),
    ("--max-games", "0", "max games must be an integer >= 1000, got 0"),
])
def test_tune_refuses_a_precision_it_used_to_replace(flag, value, message, capsys):
    status, _, err = run(["tune", "parthian", "--target", "victory=0.5", "--vary",
                          "charge_threshold", flag, value], capsys)
    assert status == 2 and re.search(message, err), err


def test_simulate_precision_refuses_zero_max_games(capsys):
    status, _, err = run(["simulate", "goofspiel", "--precision", "1", "--max-games", "0"], capsys)
    assert status == 2 and "max games must be an integer >= 1000, got 0" in err


def test_the_tuned_replay_command_keeps_the_seats_and_options():
    args = SimpleNamespace(players=4, option=["merit_ties=any", "charge_threshold=9"],
                           strategy=["cautious", "my agent.py:play", "random", "random"])
    verified = pd.DataFrame()
    verified.attrs["provenance"] = {"over": {}}
    result = SimpleNamespace(flags=["-o charge_threshold=7"], file=None, verified=verified)
    command = replay_command(args, get_game("parthian"), result, {})
    assert command == ("balance simulate parthian --players 4 -o merit_ties=any "
                       "-o charge_threshold=7 -s cautious -s 'my agent.py:play' -s random -s random")
    verified.attrs["provenance"] = {"over": {"n_players": ["3", "4"]}}
    command = replay_command(args, get_game("parthian"), result, {})
    assert "--players" not in command and command.endswith("-o n_players=<one of 3, 4>")
    assert "-s cautious" in command


def test_compare_refuses_a_rate_delta_no_run_can_decide(capsys):
    for delta in ("1e-9", "1e-9pp", "150pp"):
        status, _, err = run(["compare", "goofspiel", "--b", "num_cards=5", "--delta", delta],
                             capsys)
        assert status == 2 and "out of range for a rate" in err, err


def test_a_tiny_delta_on_a_mean_writes_its_table(tmp_path, capsys):
    """A mean has no natural scale to bound delta by: the games a fixed test would need are
    then beyond any count (inf), and the Parquet table is still written."""
    assert SPRT(1e-12).fixed_games(0.5) == float("inf")
    z = norm.ppf(1 - 0.05 / 2) + norm.ppf(0.9)      # two-sided: alpha / 2 per side
    assert SPRT(0.01).fixed_games(0.5) == math.ceil((z * 0.5 / 0.01) ** 2)   # an ordinary count
    out = tmp_path / "c.parquet"
    status, text, err = run(["compare", "kuhn", "--a-strategy", "random", "--b-strategy", "nash",
                             "--metric", "actions_mean", "--delta", "1e-10", "--batch", "1000",
                             "--max-games", "2000", "--jobs", "1", "--no-progress", "--out",
                             str(out)], capsys)
    assert status == 0, err
    table = pd.read_parquet(out)
    assert table["fixed_games"].iloc[0] == float("inf") and table["games"].iloc[0] == 2000


def test_a_json_file_given_as_a_table_option_says_it_is_json(tmp_path, capsys):
    policy = tmp_path / "policy.json"
    policy.write_text(trained.shipped_path(get_game("parthian"), 4).read_text())
    status, _, err = run(["simulate", "parthian", "-o", f"legion_table={policy}", "--games",
                          "10"], capsys)
    assert status == 2
    assert f"legion_table '{policy}' is a policy file (JSON), not a table" in err
    assert "appear more than once" not in err
