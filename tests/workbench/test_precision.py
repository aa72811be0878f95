"""Adaptive sample size: deterministic, a prefix of the seed's games, and as precise as asked."""
import pandas as pd
import pytest

from analysis.workbench import metrics as M
from analysis.workbench.precision import simulate_precise
from sim.errors import RunError
from sim.runner import simulate


def test_first_game_batches_join_into_the_same_table():
    whole = simulate("parthian", {"n_players": 4}, "random", 3000, seed=5)
    parts = [simulate("parthian", {"n_players": 4}, "random", n, seed=5, first_game=start)
             for start, n in ((0, 1000), (1000, 2000))]
    joined = pd.concat([p.records for p in parts], ignore_index=True)
    pd.testing.assert_frame_equal(whole.records, joined)
    assert parts[1].provenance["first_game"] == 1000


def test_same_seed_and_precision_give_the_same_n_and_table():
    a = simulate_precise("parthian", {"n_players": 5}, "random", 1.5, seed=3)
    b = simulate_precise("parthian", {"n_players": 5}, "random", 1.5, seed=3)
    assert a.provenance["n_games"] == b.provenance["n_games"] > 1000
    assert a.provenance["steps"] == b.provenance["steps"]
    pd.testing.assert_frame_equal(a.records, b.records)


def test_precise_batch_is_the_prefix_and_meets_the_precision():
    result = simulate_precise("parthian", {"n_players": 3}, "random", 1.5, seed=8)
    n = result.provenance["n_games"]
    plain = simulate("parthian", {"n_players": 3}, "random", n, seed=8)
    pd.testing.assert_frame_equal(result.records, plain.records)
    row = M.headline(result.summary)
    assert result.provenance["precision_met"]
    assert max(M.half_widths(row, "parthian", 3).values()) <= 0.015
    # the step before was not precise enough (otherwise it would have stopped there)
    before = simulate("parthian", {"n_players": 3}, "random", result.provenance["steps"][-2], seed=8)
    assert not M.precision_reached(M.headline(before.summary), "parthian", 3, 1.5)


def test_max_games_caps_and_says_so():
    result = simulate_precise("parthian", None, "random", 0.1, seed=0, max_games=2000, stream=True)
    assert result.provenance["n_games"] == 2000 and not result.provenance["precision_met"]


@pytest.mark.parametrize("precision, max_games", [(0, None), (-1, None), ("1", None), (60, None),
                                                  (1, 10), (1, 2.5)])
def test_bad_precision_or_cap_is_refused(precision, max_games):
    with pytest.raises(RunError):
        simulate_precise("parthian", None, "random", precision, max_games=max_games)


def test_negative_first_game_is_refused():
    with pytest.raises(RunError, match="first game"):
        simulate("parthian", None, "random", 10, first_game=-1)


def test_simulate_options_pass_through_without_changing_the_table():
    """Chunk size and threads change how games are played, never which: same n, same table."""
    a = simulate_precise("parthian", {"n_players": 4}, "random", 2.0, seed=4)
    b = simulate_precise("parthian", {"n_players": 4}, "random", 2.0, seed=4, jobs=2,
                         backend="threading", chunk_size=700)
    pd.testing.assert_frame_equal(a.records, b.records)


# --- pieces, stops and folded sums (the MCP server's bounded calls) ----------------------------

def test_pieces_join_into_the_one_call_table_and_summary():
    from analysis.workbench.precision import play_pieces

    whole = simulate("goofspiel", None, "random", 5000, seed=2, first_game=300, rotate_seats=True)
    pieces = list(play_pieces("goofspiel", None, "random", 5000, 2, first_game=300,
                              seconds=1e-4, rotate_seats=True))
    assert len(pieces) > 3
    joined = pd.concat([p.records for p in pieces], ignore_index=True)
    pd.testing.assert_frame_equal(whole.records, joined)
    summary = pieces[0].summary
    for part in pieces[1:]:
        summary = summary + part.summary
    assert M.headline(summary) == M.headline(whole.summary)


def test_should_stop_stops_between_pieces():
    from analysis.workbench.precision import Stopped

    asked = []

    def should_stop():
        asked.append(1)
        return len(asked) > 2

    with pytest.raises(Stopped):
        simulate_precise("goofspiel", None, "random", 0.05, seed=1, max_games=10 ** 7,
                         should_stop=should_stop, step_seconds=0.01)
    assert len(asked) == 3


def test_a_stoppable_run_is_the_same_run():
    """Pieces change when a stop is looked at, never which games are played: same n, steps,
    table."""
    a = simulate_precise("goofspiel", None, "random", 1.0, seed=6)
    b = simulate_precise("goofspiel", None, "random", 1.0, seed=6, should_stop=lambda: False,
                         step_seconds=1e-4)
    assert a.provenance == b.provenance
    pd.testing.assert_frame_equal(a.records, b.records)


def test_folded_results_measure_what_the_kept_table_measures():
    """keep_records=False keeps no per-game table; measured() reads the folded sums and gives
    the numbers metrics.measured gives from the whole table of the same games (goofspiel
    declares a per-game metric, draw)."""
    from analysis.workbench.precision import measured

    kept = simulate_precise("goofspiel", None, "random", 0.5, seed=9, max_games=30_000,
                            rotate_seats=True)
    folded = simulate_precise("goofspiel", None, "random", 0.5, seed=9, max_games=30_000,
                              rotate_seats=True, keep_records=False, step_seconds=1e-4)
    assert folded.records is None and folded.declared.n_games == kept.provenance["n_games"]
    assert folded.provenance == kept.provenance
    want, got = M.measured(kept, "goofspiel", 2), measured(folded, "goofspiel", 2)
    assert "draw" in want and list(got) == list(want)
    for name, value in want.items():
        assert got[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name
    assert measured(kept, "goofspiel", 2) == want


def test_folded_sums_equal_numpy_with_undefined_values():
    """A declared metric may be NaN in some games (samurai's character wins): the fold counts
    the defined values only, as metrics.measured does."""
    import numpy as np

    from analysis.workbench.precision import Folded

    rng = np.random.default_rng(3)
    values = rng.normal(0.3, 2.0, 10_001)
    values[rng.random(values.size) < 0.3] = np.nan
    fold = Folded()
    for piece in np.array_split(values, [1, 2, 500, 4000, 9000]):
        fold.add({"x": piece}, piece.size)
    count, total, m2 = fold.sums["x"]
    defined = values[~np.isnan(values)]
    assert fold.n_games == values.size and count == defined.size
    assert total / count == pytest.approx(defined.mean(), rel=1e-12)
    assert np.sqrt(m2 / (count - 1)) == pytest.approx(defined.std(ddof=1), rel=1e-12)


def test_a_long_folded_batch_holds_no_records(tracked_records):
    import gc

    import analysis.workbench.precision as P

    alive, most = tracked_records
    result = P.simulate_precise("goofspiel", None, "random", 0.05, seed=0, max_games=50_000,
                                keep_records=False, step_seconds=0.05)
    gc.collect()
    assert len(alive) > 3 and most[0] == 0 and not any(ref() for ref in alive)
    assert result.records is None and result.provenance["n_games"] == 50_000


def test_a_game_without_declared_metrics_streams_when_records_are_not_kept():
    result = simulate_precise("kuhn", None, "random", 0.5, seed=0, max_games=5_000,
                              keep_records=False)
    assert result.records is None and result.declared is None


def test_run_batch_with_should_stop_is_the_same_batch():
    from analysis.workbench.precision import run_batch

    a = run_batch("goofspiel", None, "random", 7_000, 4, stream=False)
    b = run_batch("goofspiel", None, "random", 7_000, 4, stream=False, should_stop=lambda: False)
    pd.testing.assert_frame_equal(a.records, b.records)
    assert M.headline(a.summary) == M.headline(b.summary)
    assert a.provenance == b.provenance
