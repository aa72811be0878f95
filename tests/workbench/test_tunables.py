"""The tunable declaration (sim.variant): knobs, setting them, bounds, and the tuned data file."""
import pytest

from sim.errors import RulesError
from games.parthian.rules import ParthianRules, legion_table, legion_table_csv
from games.sunzi.rules import SunziRules


def test_parthian_declares_legions_per_player_count_and_scalars():
    """OP-1: the 7 legion strengths of the current player count are knobs, tuned per count."""
    knobs = ParthianRules(n_players=5).tunables()
    assert [k for k in knobs if k.startswith("legions[")] == [f"legions[{i}]" for i in range(7)]
    assert tuple(knobs[f"legions[{i}]"].value for i in range(7)) == legion_table()[5]
    assert knobs["legions[0]"].per == ("n_players",)
    assert {"legion_offset", "charge_threshold", "charges"} <= set(knobs)
    assert "merit_ties" not in knobs  # a rule reading, not numeric design data


def test_with_knobs_sets_one_legion_and_keeps_the_others():
    rules = ParthianRules(n_players=4).with_knobs({"legions[2]": 3, "charge_threshold": 8})
    assert rules.legions == (10, 12, 3, 14, 15, 16, 18)
    assert rules.charge_threshold == 8 and rules.n_players == 4


def test_with_knobs_rejects_unknown_out_of_range_and_non_numbers():
    rules = ParthianRules()
    with pytest.raises(RulesError, match="'legions\\[9\\]' is not a tunable"):
        rules.with_knobs({"legions[9]": 3})
    with pytest.raises(RulesError, match="outside its range"):
        rules.with_knobs({"charges": 12})
    with pytest.raises(RulesError, match="must be a number"):
        rules.with_knobs({"charges": "three"})


def test_sunzi_tiles_armies_and_track_are_tunable():
    """SZ-1/SZ-2 armies follow the mode; OP-2 tiles are flat knobs regrouped into tiles."""
    assert SunziRules().tunables()["armies"].value == 21
    assert SunziRules(mode="advanced").tunables()["armies"].value == 18
    rules = SunziRules().with_knobs({"tiles[4]": 7, "track_length": 11})
    assert rules.tile_set()[1] == (1, 7, 5) and rules.track_length == 11


def test_legion_table_csv_round_trips_and_merges_shared_strengths(tmp_path):
    """The tuned file is a legion table that -o legion_table= reads back exactly (OP-1)."""
    table = {3: (1, 2, 2, 5, 6, 7, 9), 4: (2, 2, 2, 3, 4, 5, 6), 5: legion_table()[5], 6: legion_table()[6]}
    path = tmp_path / "t.csv"
    path.write_text(legion_table_csv(table))
    assert legion_table(str(path)) == {n: tuple(sorted(v)) for n, v in table.items()}
    # strength 2: three copies (4 players need three, 3 players two of them)
    assert sum(line.startswith("2,") for line in path.read_text().splitlines()) == 3


def test_tuned_file_keeps_the_offset_out_of_the_table(tmp_path):
    variant = ParthianRules(n_players=3, legion_offset=1).with_knobs({"legions[0]": 2})
    option, text = ParthianRules.tuned_file([variant])
    path = tmp_path / "t.csv"
    path.write_text(text)
    assert option == "legion_table"
    assert legion_table(str(path))[3] == tuple(sorted((2, *legion_table()[3][1:])))
    assert legion_table(str(path))[4] == legion_table()[4]
