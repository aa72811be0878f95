"""Play is bit-identical to the stored tables (tests/table_hashes.py): 78 tables, every built-in
game at each level it ships, default rules and two variants. A refactor must not move one bit."""
import pytest

from tests import table_hashes


@pytest.mark.parametrize("game", sorted(table_hashes.VARIANTS))
def test_tables_are_bit_identical_to_the_stored_ones(game):
    stored = table_hashes.stored()
    computed = table_hashes.compute([game])
    assert len(computed) >= 6
    changed = [key for key, value in computed.items() if stored.get(key) != value]
    assert not changed, f"tables changed (re-record only if play is meant to change): {changed}"


def test_the_hash_sees_one_changed_value():
    from sim.runner import simulate

    records = simulate("kuhn", None, "random", 50, 1, progress=False).records
    before = table_hashes.table_hash(records)
    records.iloc[7, records.columns.get_loc("win_0")] += 1
    assert table_hashes.table_hash(records) != before
