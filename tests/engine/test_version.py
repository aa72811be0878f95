"""Provenance names the exact code (issue 20): the version changes when the code does."""
import re
import shutil

import sim
from sim.results import read_parquet
from sim.runner import simulate


def test_the_version_is_the_package_version_and_a_hash_of_the_code():
    assert re.fullmatch(r"\d+(\.\d+)*\+code\.[0-9a-f]{12}", sim.__version__)
    assert sim.__version__.endswith(sim.code_hash())


def test_editing_any_source_or_data_file_changes_the_hash(tmp_path):
    for package in ("sim", "analysis", "cli", "games"):
        shutil.copytree(sim._ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    before = sim.code_hash(tmp_path)
    assert before == sim.code_hash()
    layout = tmp_path / "games" / "parthian" / "layout.py"
    layout.write_text(layout.read_text() + "\n# an edit\n")
    edited = sim.code_hash(tmp_path)
    table = next((tmp_path / "games" / "parthian" / "data").glob("*.csv"))
    table.write_text(table.read_text() + "\n")
    assert len({before, edited, sim.code_hash(tmp_path)}) == 3


def test_every_table_and_parquet_file_carries_it(tmp_path):
    results = simulate("parthian", None, "random", 20)
    assert results.provenance["version"] == sim.__version__
    path = tmp_path / "run.parquet"
    results.to_parquet(path)
    table, provenance = read_parquet(path)
    assert provenance["version"] == sim.__version__ and len(table) == 20
