"""``balance new-game NAME``: write a new game's parts, ready to run and to be filled in.

The parts are a small working example game (cli/templates/new_game: each seat holds a hidden
card and may swap it once; the highest card wins) under the new game's name, with TODOs where
its own rules go. Because it runs from the first minute, the engine-wide tests (observation
conformance, fuzzing, search, rotation, the workbench) run on it at once; a scripted golden game
is recorded so that the golden-game test has something to replay (check it by hand, then
replace it by a game of your own rules). docs/new_game.md walks through the parts.
"""
from __future__ import annotations

import keyword
import re
from pathlib import Path

from sim.errors import BalanceError

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).resolve().parent / "templates" / "new_game"

# template file -> where it goes (relative to the project root)
PARTS = {
    "__init__.py.tmpl": "sim/{game}/__init__.py",
    "layout.py.tmpl": "sim/{game}/layout.py",
    "rules.py.tmpl": "sim/{game}/rules.py",
    "kernel.py.tmpl": "sim/{game}/kernel.py",
    "log.py.tmpl": "sim/{game}/log.py",
    "spec.py.tmpl": "sim/{game}/spec.py",
    "strategies.py.tmpl": "strategies/{game}.py",
    "tests/test_rules.py.tmpl": "tests/{game}/test_{game}_rules.py",
    "tests/test_golden.py.tmpl": "tests/{game}/test_{game}_golden.py",
    "doc.md.tmpl": "docs/{game}.md",
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
            "__ID_LOWER__": rule_id.lower(), "__ID__": rule_id}


def create(name: str, title: str | None = None, rule_id: str | None = None,
           root: Path = ROOT, golden: bool = True) -> list[Path]:
    """Write the new game's parts under ``root``; returns the files written."""
    values = words(name, title, rule_id)
    if (root / "sim" / name).exists():
        raise BalanceError(f"sim/{name} exists already: choose another name")
    if name in {p.stem for p in (root / "sim").glob("*.py")} | {"core"}:
        raise BalanceError(f"{name!r} is the name of an engine module: choose another name")
    written = []
    for template, target in PARTS.items():
        text = (TEMPLATES / template).read_text()
        for placeholder, value in values.items():
            text = text.replace(placeholder, value)
        path = root / target.format(game=name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    if golden:
        written.append(record_golden_game(name, root))
    return written


def record_golden_game(name: str, root: Path) -> Path:
    """Play one scripted game of the new game and store it as its first golden game."""
    import json
    import subprocess
    import sys

    path = root / "tests" / name / "golden" / "first_game.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    game = {"game": name, "title": "the example game: seat 0 swaps, seat 1 keeps",
            "rules": {"deck_order": list(range(1, 11))}, "actions_by_seat": [[1], [0]],
            "why": "TODO: check this game by hand against the rules, then replace it by a game "
                   "of your own rules (seat 0 holds the 1 and swaps it for the 3; seat 1 keeps "
                   "the 2; the 3 wins).",
            "expected": {"record": {}, "events": []}}
    code = (f"import json; from sim.runner import play_one; from sim.strategy import script\n"
            f"game = json.loads({json.dumps(json.dumps(game))})\n"
            f"record, events, _ = play_one(game['game'], game['rules'], "
            f"[script([(0, a) for a in acts]) for acts in game['actions_by_seat']])\n"
            f"record = {{k: (v.item() if hasattr(v, 'item') else v) for k, v in record.items() "
            f"if k not in ('game_id', 'n_players')}}\n"
            f"print(json.dumps({{'record': record, 'events': [[int(x) for x in e] for e in events]}}))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise BalanceError(f"the new game does not play yet:\n{done.stderr[-3000:]}")
    game["expected"] = json.loads(done.stdout.strip().splitlines()[-1])
    path.write_text(json.dumps(game, indent=2) + "\n")
    return path
