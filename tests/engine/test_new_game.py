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


def test_the_kernel_sizes_the_feature_buffer_by_n_features(tmp_path):
    """Issue 59, item 1: without N_FEATURES, new_core's buffer held one or two features and the
    scaffold's three were written past it. (tests/engine/test_boundscheck.py trains the
    scaffold with every index checked; tests/engine/test_feature_buffer.py, the engine's check.)"""
    create("dice_duel", folder=tmp_path / "mine", golden=False)
    kernel = (tmp_path / "mine" / "dice_duel" / "kernel.py").read_text()
    calls = re.findall(r"core\.new_core\(([^)]*)\)", kernel)
    assert calls and all(args.replace(" ", "").endswith(",N_FEATURES") for args in calls), calls
    assert "from .strategies import N_FEATURES" in kernel


def test_the_tests_dependencies_are_declared_and_the_readme_says_so(tmp_path):
    """Issue 59, item 3: the generated tests need pytest and hypothesis (sim.conformance's
    fuzzing); the package declares them as its `test` extra."""
    import tomllib

    create("dice_duel", folder=tmp_path / "mine", golden=False)
    project = tomllib.loads((tmp_path / "mine" / "pyproject.toml").read_text())["project"]
    wanted = {re.split(r"[<>=\[ ]", need)[0] for need in project["optional-dependencies"]["test"]}
    assert {"pytest", "hypothesis"} <= wanted
    assert "pip install -e '.[test]'" in (tmp_path / "mine" / "README.md").read_text()


def test_the_readme_trains_with_out_and_the_recipe_lists_its_player_counts(tmp_path):
    """Issue 59, item 5: the README shows where a policy goes (--out), and the recipe's
    `players`, one policy per count listed, is spelled out where a designer edits it."""
    create("dice_duel", folder=tmp_path / "mine", golden=False)
    readme = (tmp_path / "mine" / "README.md").read_text()
    assert "balance train dice_duel --players 2 --out dice_duel/policies/dice_duel-2p.json" in readme
    study = (tmp_path / "mine" / "dice_duel" / "study.py").read_text()
    assert '"players": (2,)' in study and "every count" in study


def test_a_new_golden_game_without_expected_is_recorded(tmp_path, monkeypatch, capsys):
    """Issue 59, item 4: re-recording a brand-new golden file (no "expected" yet) raised
    KeyError; now --write records it, and the replay test says it is not recorded yet."""
    import json

    from sim import conformance

    record = {"game_id": 0, "n_players": 2, "card_0": 3, "win_0": 1.0}
    monkeypatch.setattr(conformance, "replay", lambda game, seats: (record, [[1, 0, 0]]))
    path = tmp_path / "new.json"
    path.write_text(json.dumps({"game": "dice_duel", "rules": {}, "script_by_seat": [],
                                "why": "seat 0 wins"}))
    with pytest.raises(AssertionError, match="not recorded yet"):
        conformance.assert_replays_exactly(path, lambda game: [])
    assert conformance.regenerate(lambda game: [], [str(path)]) == 0
    assert "not recorded yet" in capsys.readouterr().out
    assert "expected" not in json.loads(path.read_text())   # shown only, without --write
    assert conformance.regenerate(lambda game: [], [str(path), "--write"]) == 0
    game = json.loads(path.read_text())
    assert game["expected"] == {"record": {"card_0": 3, "win_0": 1.0}, "events": [[1, 0, 0]]}
    assert game["why"] == "seat 0 wins"
    conformance.assert_replays_exactly(path, lambda game: [])


def _parts(folder) -> set[str]:
    """A game package's parts: a module and a package of that name are the same part (a
    built-in game's study is a package of several modules, a scaffolded one's a module)."""
    return {path.stem if path.suffix == ".py" else path.name for path in folder.iterdir()
            if path.name != "__pycache__"}


def test_every_builtin_game_has_the_parts_of_a_scaffolded_one(tmp_path):
    """Issue 60: one shape for every game. The built-in games are the packages under games/,
    each with every part that `balance new-game` writes, and found the same way (entry points)."""
    from sim.games import game_names, home

    create("dice_duel", folder=tmp_path / "mine", golden=False)
    scaffold = _parts(tmp_path / "mine" / "dice_duel")
    assert {"spec", "kernel", "strategies", "study", "RULES.md", "policies", "tests"} <= scaffold
    builtins = [name for name in game_names() if home(name).builtin]
    assert len(builtins) == 7
    for name in builtins:
        folder = home(name).rules_brief.parent
        assert folder.parent.name == "games" and home(name).package == f"games.{name}"
        missing = scaffold - _parts(folder)
        assert not missing, f"games/{name} lacks {sorted(missing)}"
        tests = [path.name for path in (folder / "tests").glob("test_*.py")]
        assert any("golden" in test for test in tests) and any("rules" in test for test in tests)
        assert list((folder / "tests" / "golden").glob("*.json")), name


def test_shared_packages_name_no_game():
    """Issue 60: sim/, analysis/ and cli/ serve every game, plugins included: none of their code
    picks a game by name (a name or a string that is a built-in game's name, or imports one of
    games/). Help texts and docstrings may still use a game in an example."""
    import ast
    from pathlib import Path

    from sim.games import game_names, home

    root = Path(__file__).resolve().parents[2]
    words = {name for name in game_names() if home(name).builtin}
    found = []
    for package in ("sim", "analysis", "cli"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    named = node.value if node.value in words else None
                elif isinstance(node, ast.Name):
                    named = node.id if node.id in words else None
                elif isinstance(node, ast.FunctionDef):
                    named = node.name if node.name in words else None
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) \
                        else [node.module or ""] * (node.level == 0)
                    named = next((m for m in modules if m and m.split(".")[0] == "games"), None)
                else:
                    continue
                if named:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {named}")
    assert not found, "\n".join(found)
