"""The study runs end to end on small batches and writes every section's table."""
import pandas as pd

from analysis.report import study_module
from analysis.studies import shuojian


def test_the_report_finds_the_study():
    assert study_module("shuojian") is shuojian


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
