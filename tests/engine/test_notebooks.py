"""The notebooks run top to bottom (with small batches), so their examples cannot rot."""
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_code_runs(path):
    cells = json.loads(path.read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    small = re.sub(r"\b\d{1,3}(_\d{3})+\b", "2_000", code)  # 200_000 games -> 2_000
    exec(compile(small, str(path), "exec"), {})
