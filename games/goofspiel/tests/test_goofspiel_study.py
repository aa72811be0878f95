"""The Goofspiel report study runs end to end and states its findings with intervals."""
from games.goofspiel.study import write_report


def test_study_writes_its_report(tmp_path):
    index = write_report(tmp_path, n_games=600, seed=1)
    text = index.read_text()
    assert "Verdict" in text and "95% CI" in text
    for name in ("a_overview.csv", "a_seat_win_rates.csv", "a_points.csv", "b_pairs.csv",
                 "a_point_difference.png"):
        assert (tmp_path / name).exists(), name
