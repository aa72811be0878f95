"""The layers of the code (issue 20): no import circles between files, and each package imports
only the layers below it.

    cli/         the `balance` command: above everything but the games
    games/       one package per game (rules, kernel, strategies, study): imports sim/ and
                 analysis/ (its study), never another game; nothing shared imports a game
    analysis/    statistics, tables, plots, reports, the workbench: imports sim/
    sim/         the engine core, the runner, fields and policies: imports nothing above it

Imports inside functions count as much as those at the top of a file: a circle hidden in a
function is still a circle. The scan reads the source (ast), so it needs no import to run.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sim", "analysis", "cli", "games")
ALLOWED = {"sim": {"sim"}, "analysis": {"analysis", "sim"}, "cli": {"cli", "analysis", "sim"},
           "games": {"games", "analysis", "sim"}}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "tests" not in path.relative_to(ROOT).parts:   # a game's tests may use anything
                found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Project modules that ``name`` imports anywhere in its file."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    modules = project_modules()
    edges = {name: imports_of(name, path, modules) for name, path in modules.items()}
    # a package's __init__ is imported with any of its modules: not a circle of its own making
    return {name: {t for t in targets if not name.startswith(t + ".")}
            for name, targets in edges.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others():
    assert cycles(graph()) == []


def test_each_package_imports_only_the_layers_below_it():
    wrong = [(name, target) for name, targets in graph().items() for target in targets
             if target.split(".")[0] not in ALLOWED[name.split(".")[0]]]
    assert wrong == []


def test_no_game_imports_another_game():
    """A game's package is whole: it reaches others only through the shared packages."""
    wrong = [(name, target) for name, targets in graph().items() if name.startswith("games.")
             for target in targets if target.startswith("games.")
             and target.split(".")[:2] != name.split(".")[:2] and target != "games"]
    assert wrong == []


def test_the_scan_sees_a_planted_circle(tmp_path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
