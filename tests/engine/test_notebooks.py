"""Every notebook in notebooks/ runs top to bottom in a real Jupyter kernel (nbclient), with small
batches, so that its examples cannot rot.

A notebook reads its batch size from the environment variable BALANCE_NOTEBOOK_GAMES (its
``parameters`` cell; see notebooks/README.md); this test sets it small. New notebooks are picked up
by the glob.
"""
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SMALL = "2000"
ENV = "BALANCE_NOTEBOOK_GAMES"


def test_worked_studies_and_a_variant_comparison_exist():
    # Each game's engineer adds that game's notebook; these are the ones this suite relies on.
    names = {path.stem for path in NOTEBOOKS}
    assert {"parthian_quickstart", "sunzi_study", "compare_variants"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    notebook = nbformat.read(path, as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert ENV in code, (f"{path.name} must read its batch size from the environment variable "
                         f"{ENV} (see notebooks/README.md), or CI would run it at full size")
    monkeypatch.setenv(ENV, SMALL)  # the kernel inherits this process's environment
    # Generous limits: a kernel can take minutes to start, and a cold Numba compile minutes more,
    # on a loaded 2-core machine.
    client = NotebookClient(notebook, timeout=1200, startup_timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError, with the failing cell and traceback
    errors = [out for cell in notebook.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors
