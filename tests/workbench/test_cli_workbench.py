"""The CLI commands run end to end, write their files, and refuse bad input without a traceback."""
import pytest

from cli.main import main


def test_sweep_ablate_sensitivity_write_tables_and_plots(tmp_path, capsys):
    assert main(["sweep", "parthian", "--vary", "n_players=3,4", "--games", "500", "--out",
                 str(tmp_path / "s"), "--no-progress"]) == 0
    assert {p.name for p in (tmp_path / "s").iterdir()} >= {"sweep.csv", "sweep.parquet", "sweep.png"}
    assert main(["ablate", "parthian", "--param", "charges", "--games", "500", "--out",
                 str(tmp_path / "a"), "--no-progress"]) == 0
    assert (tmp_path / "a" / "ablate.png").exists()
    assert main(["sensitivity", "parthian", "--vary", "charges=1..3", "--method", "morris",
                 "--samples", "4", "--games", "300", "--out", str(tmp_path / "m"), "--no-progress"]) == 0
    assert (tmp_path / "m" / "sensitivity_victory.png").exists()


def test_simulate_with_precision_reports_the_games_it_took(capsys):
    assert main(["simulate", "parthian", "--precision", "3", "--no-progress"]) == 0
    assert "precision 3.0 pp reached" in capsys.readouterr().out


def test_tune_writes_a_legion_table_that_simulate_accepts(tmp_path, capsys):
    code = main(["tune", "parthian", "--target", "victory=0.5", "--over", "n_players=4", "--vary",
                 "legions", "-s", "cautious", "--trials", "30", "--search-games", "4000",
                 "--precision", "2", "--tolerance", "0.1", "--out", str(tmp_path), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "verified on a fresh seed" in out
    assert main(["simulate", "parthian", "--players", "4", "-o",
                 f"legion_table={tmp_path / 'legion_table.csv'}", "--games", "100"]) == 0


@pytest.mark.parametrize("argv, message", [
    (["sweep", "parthian", "--vary", "colour=red"], "colour"),
    (["sensitivity", "parthian", "--vary", "charges=3..1"], "increasing"),
    (["ablate", "parthian", "--param", "nope"], "nope"),
    (["tune", "parthian", "--target", "victory", "--vary", "charges"], "has no comparison"),
    (["simulate", "parthian", "--precision", "0"], "precision"),
])
def test_bad_input_exits_2_with_a_message(argv, message, capsys):
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cards_metrics_and_study_run_from_the_command_line(tmp_path, capsys):
    """`balance cards` (issue 17), `balance metrics` and `balance study` (issue 18)."""
    assert main(["cards", "parthian", "--list"]) == 0
    listed = capsys.readouterr().out
    assert "legion" in listed and "levels: random = random" in listed
    assert main(["cards", "parthian", "--players", "3", "--level", "heuristic", "--card",
                 "charge card", "--games", "400", "--out", str(tmp_path / "c"),
                 "--no-progress"]) == 0
    assert {"cards.csv", "cards.parquet", "cards.provenance.json"} <= \
        {p.name for p in (tmp_path / "c").iterdir()}
    assert main(["metrics", "samurai", "--games", "100"]) == 0
    assert "team_ninja" in capsys.readouterr().out
    study = tmp_path / "s.toml"
    study.write_text('game = "parthian"\ngames = 300\n[[section]]\nkind = "summary"\n')
    assert main(["study", str(study), "--check"]) == 0
    assert main(["study", str(study), "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    assert (tmp_path / "r" / "index.html").exists()


@pytest.mark.parametrize("argv, message", [
    (["cards", "parthian", "--games", "1"], "games per version must be an integer >= 2"),
    (["cards", "parthian", "--card", "joker"], "no card 'joker'"),
    (["cards", "parthian", "--level", "expert"], "no level 'expert'"),
    (["tune", "parthian", "--balance", "teams", "--vary", "charges"], "no balance group 'teams'"),
])
def test_cards_and_goals_refuse_bad_input_with_what_exists(argv, message, capsys):
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_bad_study_file_exits_2_naming_the_line(tmp_path, capsys):
    study = tmp_path / "bad.toml"
    study.write_text('game = "parthian"\n[[section]]\nkind = "summary"\nmetrcs = ["win_0"]\n')
    assert main(["study", str(study)]) == 2
    assert "line 4" in capsys.readouterr().err
