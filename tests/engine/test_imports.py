"""Any module can be imported first (a notebook may start with `from games.parthian.strategies import ...`)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted({f"games.{p.parent.name}.{p.stem}" for p in (ROOT / "games").glob("*/*.py")
                  if p.stem != "__init__"}
                 | {f"sim.{p.parent.name}.{p.stem}" for p in (ROOT / "sim").glob("*/*.py")})


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first_in_a_fresh_process(module):
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-1500:]
