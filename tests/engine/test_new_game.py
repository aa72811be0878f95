"""``balance new-game NAME`` writes a game that runs at once, and the engine-wide tests pick it up
(issue 20): the scaffold is made in a copy of the project, then the copy's own tests run on it."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.new_game import words
from sim.errors import BalanceError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["Kuhn", "2cards", "class", "a", "x-y"])
def test_bad_names_are_refused_with_the_rule(name):
    with pytest.raises(BalanceError, match="lowercase Python identifier"):
        words(name, None, None)


def test_an_existing_game_is_not_overwritten(tmp_path):
    from cli.new_game import create
    (tmp_path / "sim" / "kuhn").mkdir(parents=True)
    with pytest.raises(BalanceError, match="exists already"):
        create("kuhn", root=tmp_path, golden=False)


@pytest.mark.timeout(900)
def test_a_new_game_runs_and_the_engine_wide_tests_pick_it_up(tmp_path):
    for part in ("sim", "strategies", "analysis", "cli", "tests"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    made = subprocess.run([sys.executable, "-m", "cli.main", "new-game", "demo"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert "wrote sim/demo/kernel.py" in made.stdout
    tests = ["tests/demo", "tests/engine/test_games.py", "tests/engine/test_observation.py",
             "tests/engine/test_rotation.py", "tests/engine/test_fuzz.py"]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-k", "demo", *tests], cwd=tmp_path, env=env, capture_output=True,
                         text=True)
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert " passed" in ran.stdout and "failed" not in ran.stdout
