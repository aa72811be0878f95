"""Studies as files (analysis/study_file.py, `balance study`)."""
import json

import pandas as pd
import pytest

from analysis import study_file as S

GOOD = """title = "Parthian Shot at 3 players"
game = "parthian"
players = 3
strategies = "cautious"
games = 600
seed = 4

[[section]]
kind = "summary"

[[section]]
kind = "sweep"
vary = ["charge_threshold=8,10"]
metric = "victory"
"""


def write(tmp_path, text, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_study_file_runs_every_section_and_its_hash_is_in_the_provenance(tmp_path):
    path = write(tmp_path, GOOD)
    study = S.load(path)
    assert study.rules.n_players == 3 and [s["kind"] for s in study.sections] == ["summary", "sweep"]
    index = S.run(study, tmp_path / "out")
    text = index.read_text()
    assert "## 1. Summary" in text and "## 2. Sweep over charge_threshold" in text
    summary = pd.read_csv(tmp_path / "out" / "s1_summary.csv", comment="#")
    assert {"victory", "first_seat_advantage"} <= set(summary["metric"])
    stamped = json.dumps(json.loads((tmp_path / "out" / "provenance.json").read_text()))
    assert study.digest in stamped
    sweep = pd.read_csv(tmp_path / "out" / "s2_sweep.csv", comment="#")
    assert sweep["charge_threshold"].tolist() == [8, 10]


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("seed = 4", "sed = 4"), r"line 6: unknown key 'sed'"),
    (GOOD.replace('metric = "victory"', 'metrik = "victory"'), r"line 14: section 2 \(sweep\): unknown key 'metrik'"),
    (GOOD.replace('kind = "sweep"', 'kind = "sweeep"'), r"line 12: section 2: kind 'sweeep'"),
    (GOOD.replace('game = "parthian"', 'game = "chess"'), r"line 2: unknown game 'chess'"),
    (GOOD.replace("games = 600", "games = 1"), r"line 5: games must be an integer >= 2"),
    (GOOD.replace('vary = ["charge_threshold=8,10"]', 'vary = "charge_threshold=8,10"'),
     r"line 13: section 2 \(sweep\): vary must be a list"),
    (GOOD.replace("players = 3", "players = 9"), r"line 3: .*3 to 6"),
    (GOOD + "[[", "not valid TOML"),
    (GOOD + '[[section]]\nkind = "tune"\nvary = ["charges"]\ntolerance = 0\n',
     r"line 18: section 3 \(tune\): tolerance must be a number in \(0, 1\), got 0"),
])
def test_bad_files_are_refused_with_the_line(tmp_path, text, message):
    with pytest.raises(S.StudyFileError, match=message):
        S.load(write(tmp_path, text))


def test_the_shipped_study_files_are_valid():
    from pathlib import Path

    shipped = sorted((Path(__file__).parents[2] / "studies").glob("*.toml"))
    assert shipped
    for path in shipped:
        S.load(path)


def test_a_section_may_change_the_options_and_a_bad_one_is_refused_with_the_line(tmp_path):
    study = S.load(write(tmp_path, GOOD + '\n[[section]]\nkind = "summary"\noptions = { charges = 3 }\n'))
    assert S.section_rules(study.rules, study.sections[2]).charges == 3
    with pytest.raises(S.StudyFileError, match=r"line 18: section 3 \(summary\):.*charges"):
        S.load(write(tmp_path, GOOD + '\n[[section]]\nkind = "summary"\noptions = { charges = "many" }\n'))
