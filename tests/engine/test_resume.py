"""Resumable runs (issue 11, item 2): a run folder keeps every finished chunk, atomically and
with checksums; the same command resumes to the identical table, another command is refused."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.checkpoint import MANIFEST, RunDir
from cli.main import main
from sim.errors import RunError
from sim.results import read_parquet
from sim.runner import simulate

MIX = ["cautious", "glory", "random", "lowball"]
ROOT = Path(__file__).resolve().parents[2]


def checksums(folder: Path) -> list[Path]:
    return sorted(folder.glob("games-*.sha256"))


def test_a_run_killed_with_sigkill_resumes_to_the_identical_table(tmp_path):
    run_dir, out = tmp_path / "run", tmp_path / "resumed.parquet"
    command = [sys.executable, "-m", "cli.main", "simulate", "parthian", "-s", "cautious",
               "-s", "glory", "-s", "random", "-s", "lowball", "--games", "200000",
               "--chunk-size", "5000", "--seed", "5", "--run-dir", str(run_dir),
               "--out", str(out), "--no-progress"]
    # Its own process group: the run uses every core by default, and SIGKILL on the parent alone
    # would leave its joblib workers holding the pipes open (communicate() would never return).
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    deadline = time.monotonic() + 600
    while len(checksums(run_dir)) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)   # the whole run, workers included, as a crash
    process.communicate()
    assert process.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    finished = len(checksums(run_dir))
    assert 3 <= finished < 40 and not out.exists()

    resumed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    reused = int(resumed.stderr.split("resumed ")[1].split(" of 40")[0])
    assert reused >= finished - 1  # the chunk being written when killed may be redone
    table, provenance = read_parquet(out)
    uninterrupted = simulate("parthian", None, MIX, 200_000, seed=5)
    pd.testing.assert_frame_equal(table, uninterrupted.records, check_categorical=False)
    assert provenance == uninterrupted.provenance


def test_corrupted_partial_and_unmarked_chunks_are_redone(tmp_path, capsys):
    reference = simulate("parthian", None, MIX, 6000, seed=2, chunk_size=1000, run_dir=tmp_path)
    pieces = sorted(p for p in tmp_path.glob("games-*") if p.suffix != ".sha256")
    assert len(pieces) == 6 and (tmp_path / MANIFEST).is_file()
    flipped = bytearray(pieces[0].read_bytes())
    flipped[-1] ^= 0xFF
    pieces[0].write_bytes(bytes(flipped))                       # corrupted
    pieces[1].write_bytes(pieces[1].read_bytes()[:100])         # partial
    Path(f"{pieces[2]}.sha256").unlink()                        # written, never marked whole
    (tmp_path / ".games-x.tmp").write_bytes(b"junk")            # a write cut short
    capsys.readouterr()
    again = simulate("parthian", None, MIX, 6000, seed=2, run_dir=tmp_path)  # chunk size kept
    assert "resumed 3 of 6 chunks" in capsys.readouterr().err
    pd.testing.assert_frame_equal(again.records, reference.records)
    assert again.summary.to_dict() == reference.summary.to_dict()


def test_streamed_runs_resume_from_exact_summaries(tmp_path):
    first = simulate("parthian", {"n_players": 5}, "random", 5000, seed=4, stream=True,
                     chunk_size=1000, run_dir=tmp_path)
    (tmp_path / "games-000000002000-1000").unlink()
    again = simulate("parthian", {"n_players": 5}, "random", 5000, seed=4, stream=True,
                     chunk_size=1000, run_dir=tmp_path)
    assert again.summary.to_dict() == first.summary.to_dict()


@pytest.mark.parametrize("change, named", [
    ({"seed": 3}, "seed"), ({"n_games": 7000}, "n_games"), ({"strategies": "random"}, "strategies"),
    ({"rules": {"n_players": 4, "charges": 1}}, "variant"), ({"chunk_size": 500}, "chunk_size"),
    ({"stream": True}, "stream"), ({"rotate_seats": True}, "rotate_seats")])
def test_another_request_against_the_same_folder_is_refused(tmp_path, change, named):
    request = {"rules": None, "strategies": MIX, "n_games": 3000, "seed": 2, "chunk_size": 1000}
    simulate("parthian", **request, run_dir=tmp_path)
    with pytest.raises(RunError, match=f"belongs to another request.*{named}"):
        simulate("parthian", **{**request, **change}, run_dir=tmp_path)


def test_the_cli_refuses_another_command_without_a_traceback(tmp_path, capsys):
    base = ["simulate", "parthian", "--games", "2000", "--run-dir", str(tmp_path), "--no-progress"]
    assert main(base) == 0
    capsys.readouterr()
    assert main([*base, "--seed", "9"]) == 2
    err = capsys.readouterr().err
    assert "belongs to another request" in err and "seed" in err and "Traceback" not in err


def test_run_dir_api_for_other_long_jobs(tmp_path):
    """The per-point use a sweep or a tuner makes of a run folder."""
    store = RunDir(tmp_path / "sweep", {"command": "sweep", "points": [1, 2, 3]})
    assert store.load_json("point-1") is None
    store.save_json("point-1", {"victory": 0.25, "n": 10**12})
    store.save_array("point-2", np.arange(5, dtype=np.int16))
    again = RunDir(tmp_path / "sweep", {"command": "sweep", "points": (1, 2, 3)})  # same as JSON
    assert again.load_json("point-1") == {"victory": 0.25, "n": 10**12}
    assert again.load_array("point-2").tolist() == [0, 1, 2, 3, 4]
    assert again.names() == ["point-1", "point-2"]
    with pytest.raises(RunError, match="points"):
        RunDir(tmp_path / "sweep", {"command": "sweep", "points": [1, 2]})
    with pytest.raises(RunError, match="piece name"):
        store.save_json("../escape", {})
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunError, match="is a file"):
        RunDir(tmp_path / "file", {})
