"""The study runs end to end on small batches and writes every section's table."""
import pandas as pd
import pytest

from analysis.studies import study_module
from games.shuojian import study as shuojian

# Many-game tests carry a time limit, so that a hang fails (issue 21): about 4x the warm duration
# plus up to 5 minutes for a cold kernel compile on a loaded machine (60-75 s measured at load
# 2-3; about 3 minutes reported under heavy load).
# method="thread": a hang inside a Numba loop never returns to the interpreter, so the default
# signal method could not stop it.


def test_the_report_finds_the_study():
    assert study_module("shuojian") is shuojian


@pytest.mark.timeout(320, method="thread")  # ~2 s warm
def test_the_study_writes_every_table(tmp_path):
    index = shuojian.write_report(tmp_path, n_games=600)
    text = index.read_text()
    for name in ("a_first_player", "b_end_reasons", "b_length", "c_conditions", "d_cards",
                 "e_tables", "e_paired"):
        assert (tmp_path / f"{name}.csv").exists(), name
    tables = pd.read_csv(tmp_path / "e_tables.csv")
    assert set(tables["table"]) == set(shuojian.TABLES)
    assert "Verdict" in text and "## (e) Condition tables side by side" in text
    conditions = pd.read_csv(tmp_path / "c_conditions.csv")
    assert ((conditions.pass_rate >= 0) & (conditions.pass_rate <= 1)).all()
