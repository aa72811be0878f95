"""The layers of the code (issue 20): no import circles between files, and each package imports
only the layers below it.

    cli/         the `balance` command: above everything
    analysis/    statistics, tables, plots, reports, the workbench: imports sim/ and strategies/
    strategies/  built-in strategies: imports sim/ (layouts, the strategy type, random streams)
    sim/         rules, kernels, the engine core, the runner: imports nothing of the above but
                 strategies/ (a game's kernel compiles its built-in strategies in)

Imports inside functions count as much as those at the top of a file: a circle hidden in a
function is still a circle. The scan reads the source (ast), so it needs no import to run.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sim", "strategies", "analysis", "cli")
ALLOWED = {"sim": {"sim", "strategies"}, "strategies": {"strategies", "sim"},
           "analysis": {"analysis", "sim", "strategies"},
           "cli": {"cli", "analysis", "sim", "strategies"}}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
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


def test_shared_engine_modules_name_no_game():
    """sim/*.py and sim/core/*.py are shared: no game package is imported there."""
    games = {p.name for p in (ROOT / "sim").iterdir() if (p / "spec.py").exists()}
    edges = graph()
    shared = [n for n in edges if n.count(".") <= 1 or n.startswith("sim.core")]
    shared = [n for n in shared if n.split(".")[0] == "sim" and not any(
        n.startswith(f"sim.{g}") for g in games)]
    wrong = [(n, t) for n in shared for t in edges[n] if any(t.startswith(f"sim.{g}") for g in games)]
    assert wrong == []


def test_the_scan_sees_a_planted_circle(tmp_path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
