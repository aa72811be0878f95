"""``balance new-game NAME [--dir PATH]``: write a new game as its own installable package.

The package (default: a new folder NAME in the current directory) holds a small working example
game (cli/templates/new_game: each seat holds a hidden card and may swap it once; the highest
card wins) under the new game's name, with TODOs where its own rules go::

    PATH/pyproject.toml         the balance.games entry point (sim/games.py finds the game by it)
    PATH/README.md              what each file holds, how to install, test and re-record
    PATH/NAME/                  rules, layout, kernel, log, spec, strategies (with training
                                features), study (the default report, the card table), RULES.md,
                                policies/
    PATH/NAME/tests/            rule tests, a golden game with its re-record command
                                (python -m NAME.tests.golden --write) and the engine's
                                conformance checks (sim/conformance.py)

Because it runs from the first minute, ``pip install -e PATH`` makes every command work on it
(simulate, report, cards, train, ladder, the adapters) and its own tests pass; the first golden
game is recorded here (check it by hand, then replace it by a game of your own rules).
docs/new_game.md walks through the parts with a worked example.
"""
from __future__ import annotations

import keyword
import re
from pathlib import Path

from sim.errors import BalanceError

TEMPLATES = Path(__file__).resolve().parent / "templates" / "new_game"

# template file -> where it goes in the package folder
PARTS = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "__init__.py.tmpl": "{game}/__init__.py",
    "layout.py.tmpl": "{game}/layout.py",
    "rules.py.tmpl": "{game}/rules.py",
    "kernel.py.tmpl": "{game}/kernel.py",
    "log.py.tmpl": "{game}/log.py",
    "spec.py.tmpl": "{game}/spec.py",
    "strategies.py.tmpl": "{game}/strategies.py",
    "study.py.tmpl": "{game}/study.py",
    "doc.md.tmpl": "{game}/RULES.md",
    "policies.md.tmpl": "{game}/policies/README.md",
    "tests/__init__.py.tmpl": "{game}/tests/__init__.py",
    "tests/golden.py.tmpl": "{game}/tests/golden.py",
    "tests/test_rules.py.tmpl": "{game}/tests/test_rules.py",
    "tests/test_golden.py.tmpl": "{game}/tests/test_golden.py",
    "tests/test_conformance.py.tmpl": "{game}/tests/test_conformance.py",
}


def words(name: str, title: str | None, rule_id: str | None) -> dict[str, str]:
    """The placeholders' values; a clear error for a name that cannot be a game."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{1,30}", name) or keyword.iskeyword(name):
        raise BalanceError(f"game name {name!r} must be a lowercase Python identifier (letters, "
                           "digits, _), 2 to 31 characters, starting with a letter")
    rule_id = rule_id or "".join(part[0] for part in name.split("_"))[:2].upper()
    if len(rule_id) < 2:
        rule_id = name[:2].upper()
    if not re.fullmatch(r"[A-Z]{2,4}", rule_id):
        raise BalanceError(f"rule id prefix {rule_id!r} must be 2 to 4 capital letters")
    return {"__GAME__": name, "__TITLE__": title or name.replace("_", " ").title(),
            "__CLASS__": "".join(part.title() for part in name.split("_")),
            "__ID_LOWER__": rule_id.lower(), "__ID__": rule_id,
            "__DIST__": "balance-game-" + name.replace("_", "-")}


def refuse_taken(name: str) -> None:
    """A registered game's name, or a module Python or the toolkit already has, would be
    shadowed by the new package or would shadow it."""
    import importlib.util

    from sim.games import game_names

    if name in game_names():
        raise BalanceError(f"{name!r} is a registered game already: choose another name")
    if name in {"sim", "strategies", "analysis", "cli", "tests", "core"} or \
            importlib.util.find_spec(name) is not None:
        raise BalanceError(f"{name!r} is the name of a Python module already installed here; "
                           "the game's package would clash with it: choose another name")


def create(name: str, title: str | None = None, rule_id: str | None = None,
           folder: Path | None = None, golden: bool = True) -> list[Path]:
    """Write the new game's package in ``folder`` (default ./NAME); returns the files written."""
    values = words(name, title, rule_id)
    refuse_taken(name)
    folder = Path(folder) if folder is not None else Path.cwd() / name
    if folder.exists() and any(folder.iterdir()):
        raise BalanceError(f"{folder} exists and is not empty: give an empty or new folder "
                           "with --dir")
    written = []
    for template, target in PARTS.items():
        text = (TEMPLATES / template).read_text()
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        path = folder / target.format(game=name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    if golden:
        written.append(record_golden_game(name, folder))
    return written


def record_golden_game(name: str, folder: Path) -> Path:
    """Play one scripted game of the new game and store it as its first golden game. The
    package is not installed yet, so the recording process registers it by hand
    (sim.games.register) and records through the package's own re-record command."""
    import json
    import os
    import subprocess
    import sys

    path = folder / name / "tests" / "golden" / "first_game.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    game = {"game": name, "title": "the example game: seat 0 swaps, seat 1 keeps",
            "rules": {"deck_order": list(range(1, 11))},
            "script_by_seat": [[[0, 1]], [[0, 0]]],   # (decision type, action): swap; keep
            "why": "TODO: check this game by hand against the rules, then replace it by a game "
                   "of your own rules (seat 0 holds the 1 and swaps it for the 3; seat 1 keeps "
                   "the 2; the 3 wins)."}
    path.write_text(json.dumps(game) + "\n")
    code = (f"import sim.games, {name}.spec; sim.games.register({name}.spec.SPEC)\n"
            f"from {name}.tests.golden import main; raise SystemExit(main(['--write']))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(folder.resolve()), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise BalanceError(f"the new game does not play yet:\n{done.stderr[-3000:]}")
    return path
