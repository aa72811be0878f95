"""Resumable workbench runs (issue 11, item 2: "sweeps and tuning runs use the same mechanism"):
every batch a command plays keeps its chunks in a sub-folder of the run folder, so a killed
sweep resumes to the identical table, a finished one replays from disk, and another command
against the same folder is refused."""
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from analysis.workbench import metrics as M
from analysis.workbench.precision import run_batch
from analysis.workbench.sweep import sweep
from analysis.workbench.tune import tune
from sim.errors import RunError

ROOT = Path(__file__).resolve().parents[2]


def finished_chunks(run_dir: Path) -> list[Path]:
    return sorted(run_dir.glob("batch-*/games-*.sha256"))


def test_a_sweep_killed_with_sigkill_resumes_to_the_identical_table(tmp_path):
    run_dir, out = tmp_path / "run", tmp_path / "out"
    command = [sys.executable, "-m", "cli.main", "sweep", "parthian", "--vary", "n_players=3,4,5,6",
               "-s", "cautious", "--games", "400000", "--seed", "4", "--run-dir", str(run_dir),
               "--out", str(out), "--no-progress"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 600
    while len(finished_chunks(run_dir)) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL, "the sweep ended before it could be killed"
    assert not (out / "sweep.csv").exists()

    resumed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed" in resumed.stderr  # the finished chunks were not played again
    table = pd.read_csv(out / "sweep.csv")
    uninterrupted = sweep("parthian", ["n_players=3,4,5,6"], strategies="cautious",
                          n_games=400_000, seed=4)
    pd.testing.assert_frame_equal(table, uninterrupted, check_dtype=False)


def test_a_finished_run_replays_from_disk_and_another_command_is_refused(tmp_path, capsys):
    settings = dict(strategies="random", n_games=3000, seed=2)
    first = sweep("sunzi", ["track_length=8,9"], run_dir=tmp_path, **settings)
    assert len(list(tmp_path.glob("batch-*"))) == 2
    capsys.readouterr()
    again = sweep("sunzi", ["track_length=8,9"], run_dir=tmp_path, **settings)
    assert capsys.readouterr().err.count("resumed 1 of 1 chunks") == 2
    pd.testing.assert_frame_equal(first, again)
    with pytest.raises(RunError, match="another request"):
        sweep("sunzi", ["track_length=7,8"], run_dir=tmp_path, **settings)
    refused = subprocess.run([sys.executable, "-m", "cli.main", "ablate", "sunzi", "--games", "1000",
                              "--run-dir", str(tmp_path), "--no-progress"],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert refused.returncode != 0
    assert "was made by `balance sweep`, not `balance ablate`" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_batches_grown_to_a_precision_resume_step_by_step(tmp_path):
    grown = run_batch("parthian", {"n_players": 4}, "random", None, seed=6, precision=2.0,
                      run_dir=tmp_path)
    steps = sorted(p.name for p in tmp_path.glob("batch-*/games-*-*") if p.is_dir())
    assert len(steps) == len(grown.provenance["steps"])
    again = run_batch("parthian", {"n_players": 4}, "random", None, seed=6, precision=2.0,
                      run_dir=tmp_path)
    assert again.provenance == grown.provenance
    assert M.headline(again.summary) == M.headline(grown.summary)


def test_a_tuning_run_resumes_to_the_same_result(tmp_path):
    """The search is deterministic, so a second call with the same run folder replays every
    trial from disk and lands on the same values and verification."""
    settings = dict(rules={"n_players": 4}, trials=6, search_games=4000, precision=2.0, seed=3)
    first = tune("parthian", {"victory": 0.3}, ["legion_offset=-4..2"], run_dir=tmp_path, **settings)
    folders = sorted(tmp_path.glob("batch-*"))
    again = tune("parthian", {"victory": 0.3}, ["legion_offset=-4..2"], run_dir=tmp_path, **settings)
    assert sorted(tmp_path.glob("batch-*")) == folders  # nothing new was played
    pd.testing.assert_frame_equal(first.values, again.values)
    pd.testing.assert_frame_equal(first.verified, again.verified)
