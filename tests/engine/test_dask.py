"""Chunks on a real dask.distributed cluster give the same table as local processes (issue 11).

The cluster is a real LocalCluster with two worker processes (one thread each), not a mock:
the workers import the package, load the kernels from the shared disk cache, and receive the
seat plan (user strategies included) by pickling.
"""
import textwrap

import pandas as pd
import pytest

pytest.importorskip("distributed")

from distributed import get_task_stream  # noqa: E402

from cli.main import main  # noqa: E402
from sim.strategy import load_strategy  # noqa: E402
from sim.errors import RunError  # noqa: E402
from sim.runner import current_dask_client, dask_client, simulate  # noqa: E402

MIX = ["cautious", "glory", "random", "lowball", "random"]


@pytest.fixture(scope="module")
def client():
    with dask_client("local", n_workers=2) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        yield client


def test_dask_table_equals_the_loky_table(client):
    loky = simulate("parthian", {"n_players": 5}, MIX, 6000, seed=3, jobs=2, chunk_size=700)
    with get_task_stream(client) as stream:
        dask = simulate("parthian", {"n_players": 5}, MIX, 6000, seed=3, backend="dask",
                        chunk_size=700)
    pd.testing.assert_frame_equal(loky.records, dask.records)
    assert dask.provenance == loky.provenance
    assert len(stream.data) >= 9  # the 9 chunks really ran on the cluster's workers
    assert len({task["worker"] for task in stream.data}) == 2


def test_streamed_dask_summary_equals_the_local_one(client):
    local = simulate("parthian", None, "random", 5000, seed=8, stream=True, chunk_size=900)
    dask = simulate("parthian", None, "random", 5000, seed=8, stream=True, chunk_size=900,
                    backend="dask")
    assert dask.summary.to_dict() == local.summary.to_dict()


def test_a_user_strategy_from_a_file_reaches_the_workers(client, tmp_path):
    """The user's copy of the built-in random player, from a file the workers never see: the
    table must equal the all-built-in one (same streams), so only a worker compiles it."""
    path = tmp_path / "my_strategies.py"
    path.write_text(textwrap.dedent("""
        from numba import njit
        from sim.rng import choose_legal

        @njit
        def my_random(seat, players, info, legal, params, rng):
            return choose_legal(legal, rng, 0)
    """))
    seats = [load_strategy(f"{path}:my_random"), "random", "random"]
    builtin = simulate("parthian", {"n_players": 3}, "random", 600, seed=1)
    with get_task_stream(client) as stream:
        dask = simulate("parthian", {"n_players": 3}, seats, 600, seed=1, backend="dask",
                        chunk_size=600)
    pd.testing.assert_frame_equal(builtin.records, dask.records)
    assert dask.provenance["strategies"][0] == "my_random" and len(stream.data) == 1


def test_cli_joins_a_running_scheduler(client, capsys):
    address = client.scheduler.address
    assert main(["simulate", "parthian", "--games", "2000", "--chunk-size", "500",
                 "--dask", address, "--no-progress"]) == 0
    remote = capsys.readouterr().out
    assert main(["simulate", "parthian", "--games", "2000", "--no-progress"]) == 0
    assert capsys.readouterr().out == remote


def test_backend_dask_without_a_client_says_how_to_get_one(monkeypatch):
    import distributed

    def no_client():
        raise ValueError("No clients found")

    monkeypatch.setattr(distributed, "get_client", no_client)
    with pytest.raises(RunError, match="running dask.distributed Client"):
        current_dask_client()


@pytest.mark.parametrize("address", ["nowhere", "udp:/x"])
def test_bad_dask_addresses_are_refused(address):
    with pytest.raises(RunError, match="--dask"):
        with dask_client(address):
            pass


def test_a_strong_field_builds_the_same_on_the_cluster(client):
    """Issue 28: PSRO's tables and best-response searches run on the cluster's workers
    (analysis.training.on_cluster's backend) and give the field local processes give."""
    import numpy as np
    from joblib import parallel_config

    from analysis.field import build_field
    from sim.games import get_game

    kuhn = get_game("kuhn")
    settings = dict(iterations=1, oracle_generations=2, oracle_games=60, table_games=300,
                    check_games=300, seed=3, jobs=2,
                    start=[kuhn.strategies["honest"], kuhn.strategies["aggressive"]])
    local = build_field("kuhn", None, **settings)
    with get_task_stream(client) as stream, parallel_config(backend="dask", n_jobs=-1):
        remote = build_field("kuhn", None, **settings)
    assert len(stream.data) > 0   # the tasks ran on the workers
    pd.testing.assert_frame_equal(local.history, remote.history)
    assert np.array_equal(local.probabilities, remote.probabilities)
    assert [m.params for m in local.members] == [m.params for m in remote.members]


def test_balance_field_and_train_take_dask(tmp_path, capsys):
    """The command line: --dask local runs the same command on a cluster of its own."""
    out = tmp_path / "k.field.json"
    assert main(["field", "kuhn", "--iterations", "0", "--oracle-generations", "1",
                 "--oracle-games", "40", "--table-games", "100", "--check-games", "200",
                 "--dask", "local", "--jobs", "2", "--out", str(out), "--no-progress"]) == 0
    assert out.is_file() and "exploitability" in capsys.readouterr().out
