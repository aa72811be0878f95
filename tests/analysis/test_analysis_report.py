"""The Parthian report writes Markdown, CSVs, PNGs and provenance for a small study."""
import json
import re

import pandas as pd

import pytest

from games.parthian.study import MIXES, OFFSETS, write_report
from analysis.report import main, write_reports
from sim.errors import BalanceError


def test_report_writes_its_files(tmp_path):
    index = write_report(tmp_path / "r", n_games=300, seed=7)
    assert index == tmp_path / "r" / "index.md"
    text = index.read_text()
    assert "OP-1" in text and "seed 7" in text and "n=300" in text
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert {name for name in links if name.endswith(".png")} >= {
        "a_seat_win_rates.png", "a_length.png", "b_strategy_win_rates.png", "c_sweep_victory.png"}
    for name in links:
        assert (index.parent / name).stat().st_size > 0, name
    provenance = json.loads((index.parent / "provenance.json").read_text())
    csvs = {p.name for p in index.parent.glob("*.csv")}
    assert set(provenance) == csvs
    assert text.count("*Provenance:*") == len(set(links) & csvs)  # one line per shown table
    seats = pd.read_csv(index.parent / "a_seat_win_rates.csv")
    assert len(seats) == 3 + 4 + 5 + 6
    sweep = pd.read_csv(index.parent / "c_sweep.csv")
    assert len(sweep) == 4 * len(OFFSETS) and (sweep["n_games"] == 300).all()
    assert len(pd.read_csv(index.parent / "b_overview.csv")) == len(MIXES)


def test_command_line(tmp_path, capsys):
    main(["--game", "parthian", "--out", str(tmp_path), "--n-games", "200", "--seed", "1"])
    index = tmp_path / "parthian" / "index.md"
    assert capsys.readouterr().out.strip() == str(index)
    assert "n=200" in index.read_text()


def test_write_reports_puts_each_game_in_its_folder(tmp_path):
    assert write_reports(["parthian"], out_dir=tmp_path, n_games=200) == [
        tmp_path / "parthian" / "index.md"]
    with pytest.raises(BalanceError, match="no report for nosuchgame"):
        write_reports(["nosuchgame"], out_dir=tmp_path)


def test_shared_analysis_modules_name_no_game():
    """Game-specific code lives in games/<game>/study; the shared modules serve every game."""
    from pathlib import Path

    import analysis
    from sim.games import game_names, get_game

    root = Path(analysis.__file__).parent
    shared = [root / f"{name}.py" for name in ("stats", "tables", "cards", "plots", "markdown",
                                               "html", "report", "provenance")]
    shared += list((root / "templates").glob("*"))
    words = {name.lower() for name in game_names()}
    words |= {get_game(name).title.split(" /")[0].split(":")[0].lower() for name in game_names()}
    for path in shared:
        text = path.read_text().lower()
        named = sorted(word for word in words if word in text)
        assert not named, f"{path.relative_to(root.parent)} names {named}"


def test_a_studys_closing_line_says_whose_compiling_it_counts(monkeypatch):
    """The report's time line keeps the study's own run apart from compiling, and when the
    games of one run compiled side by side it says the time is theirs together."""
    import time

    from analysis import report

    started = time.perf_counter()
    monkeypatch.setattr(report, "COMPILED", {"kuhn": (12.5, 1), "sunzi": (40.0, 3)})
    assert "compiling its kernels before it took 12.5 s more" in report.ran_in("kuhn", started, "x")
    together = report.ran_in("sunzi", started, "x")
    assert "with those of the 2 other games of this run, took 40.0 s more" in together
    assert "is not included" in report.ran_in("leduc", started, "x")
