"""``balance new-game NAME`` refuses names and folders it must not use; what it writes is
installed and run in tests/engine/test_plugin_game.py."""
import re

import pytest

from cli.new_game import create, words
from sim.errors import BalanceError


@pytest.mark.parametrize("name", ["Kuhn", "2cards", "class", "a", "x-y"])
def test_bad_names_are_refused_with_the_rule(name):
    with pytest.raises(BalanceError, match="lowercase Python identifier"):
        words(name, None, None)


@pytest.mark.parametrize("name, why", [("kuhn", "registered game already"),
                                       ("numpy", "Python module already installed"),
                                       ("sim", "Python module already installed")])
def test_a_taken_name_is_refused(tmp_path, name, why):
    with pytest.raises(BalanceError, match=why):
        create(name, folder=tmp_path / name, golden=False)
    assert not (tmp_path / name).exists()


def test_a_folder_with_files_is_not_overwritten(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BalanceError, match="not empty"):
        create("dice_duel", folder=tmp_path, golden=False)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_package_lands_in_the_folder_given_and_nowhere_else(tmp_path):
    written = create("dice_duel", folder=tmp_path / "mine", golden=False)
    assert all(path.is_relative_to(tmp_path / "mine") for path in written)
    assert 'dice_duel = "dice_duel.spec:SPEC"' in (tmp_path / "mine" / "pyproject.toml").read_text()
    left = [path.name for path in written if re.search(r"__[A-Z][A-Z_]*__", path.read_text())]
    assert not left, f"placeholders left in {left}"
