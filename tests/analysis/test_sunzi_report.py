"""The Sunzi report writes Markdown, CSVs, PNGs and provenance for a small study.

Compiles the Sunzi kernel if the disk cache is cold (about 100 s); the study itself takes a few
seconds at this size.
"""
import json
import re

import pandas as pd
import pytest
from types import SimpleNamespace

from analysis import report
from analysis.report import write_reports
from games.sunzi.study.report import SUNZI_GRID_MODES, SUNZI_PAIRINGS

N = 300


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    paths = write_reports(["sunzi"], out_dir=out, n_games=N, seed=3, jobs=2)
    assert paths == [out / "sunzi" / "index.md"]
    return paths[0]


def test_report_writes_its_files(index):
    text = index.read_text()
    assert "seed 3" in text and f"n={N}" in text and "OP-12" in text
    links = re.findall(r"\]\(([^)]+)\)", text)
    pngs = {name for name in links if name.endswith(".png")}
    assert pngs >= {"a_white_win_rate.png", "a_outcomes.png", "a_margin_0.png",
                    "a_lead_changes.png", "b_mode_paired.png", "c_cards_0.png", "d_leaders_0.png",
                    "e_strategy_pairings.png"}
    for name in links:
        assert (index.parent / name).stat().st_size > 0, name
    csvs = {p.name for p in index.parent.glob("*.csv")}
    provenance = json.loads((index.parent / "provenance.json").read_text())
    assert set(provenance) == csvs
    assert csvs >= {"a_sides.csv", "a_outcomes.csv", "a_margin.csv", "a_lead_changes.csv",
                    "b_mode_paired.csv", "c_cards.csv", "d_leader_grid.csv"}
    # Every CSV linked from the text has a provenance line; the figures say how to read them.
    assert text.count("*Provenance:*") >= len(set(links) & csvs)
    assert text.count("![") == len(pngs)


def test_report_tables(index):
    folder = index.parent
    n_modes = len(SUNZI_PAIRINGS) * 4
    sides = pd.read_csv(folder / "a_sides.csv")
    assert len(sides) == 2 * n_modes and (sides["n_games"] == N).all()
    assert sides.groupby(["pairing", "mode"])["win_rate"].sum().round(12).eq(1).all()
    outcomes = pd.read_csv(folder / "a_outcomes.csv")
    assert outcomes.groupby(["pairing", "mode"])["games"].sum().eq(N).all()
    paired = pd.read_csv(folder / "b_mode_paired.csv")
    assert len(paired) == 3 * len(SUNZI_PAIRINGS)
    assert set(paired["comparison"]) == {"advanced - basic", "warlord basic - basic",
                                         "warlord advanced - basic"}
    assert (paired["p_holm"].dropna() >= paired["p"].dropna()).all()
    grid = pd.read_csv(folder / "d_leader_grid.csv")
    assert len(grid) == len(SUNZI_PAIRINGS) * len(SUNZI_GRID_MODES) * 16
    assert grid.groupby(["pairing", "base"]).size().eq(16).all()
    assert set(zip(grid["leader_white"], grid["leader_black"])) == {
        (w, b) for w in "abcd" for b in "abcd"}
    # (1e-12: at a rate of exactly 0 or 1, float rounding can leave a bound a hair inside)
    assert (grid["ci_low"] <= grid["white_win_rate"] + 1e-12).all()
    assert (grid["white_win_rate"] <= grid["ci_high"] + 1e-12).all()
    # issue 61: the four modes at strong play, each with the field -s strong seats there
    strong = pd.read_csv(folder / "b2_strong_modes.csv")
    assert set(strong["comparison"]) == {"advanced - basic", "warlord basic - basic",
                                         "warlord advanced - basic"}
    assert (strong["n"] == N).all()
    fields = pd.read_csv(folder / "b2_strong_fields.csv")
    assert list(fields["mode"]) == ["basic", "advanced", "warlord basic", "warlord advanced"]
    assert fields.loc[fields["mode"] == "basic", "field"].item() == "sunzi.field.json"
    assert fields.loc[fields["mode"] == "advanced", "field"].item() == "sunzi.advanced.field.json"
    assert fields["how far it holds"].str.contains("best response").all()
    cards = pd.read_csv(folder / "c_cards.csv")
    basic = cards[cards["mode"] == "basic"]
    assert not basic["card"].isin(["+2", "+3"]).any()
    assert cards[cards["mode"] == "advanced"].groupby("pairing").size().eq(18).all()


def test_write_reports_without_games_runs_every_study(tmp_path, monkeypatch):
    calls = []

    def fake(name):
        def write_report(out_dir, *, n_games=None, seed=2026, jobs=1, progress=False,
                         quick=False):
            calls.append((name, out_dir, n_games, quick))
            return out_dir / "index.md"
        return SimpleNamespace(write_report=write_report)

    monkeypatch.setattr(report, "studies", lambda: {"parthian": fake("parthian"),
                                                    "sunzi": fake("sunzi")})
    assert write_reports(None, out_dir=tmp_path) == [tmp_path / "parthian" / "index.md",
                                                     tmp_path / "sunzi" / "index.md"]
    # n_games=None leaves each study its own default; a given n goes to every study.
    assert calls == [("parthian", tmp_path / "parthian", None, False),
                     ("sunzi", tmp_path / "sunzi", None, False)]
    write_reports(["sunzi"], out_dir=tmp_path, n_games=50, quick=True)
    assert calls[-1] == ("sunzi", tmp_path / "sunzi", 50, True)


def test_every_registered_game_with_a_study_module_is_found():
    from sim.games import game_names

    found = report.studies()
    assert {"parthian", "sunzi"} <= set(found) <= set(game_names())
    for module in found.values():
        assert callable(module.write_report)
