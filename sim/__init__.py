"""Simulation engine: rule variants -> jitted kernels -> per-game tables.

``__version__`` names the exact code behind every result: the package version, then a hash of
every source and data file of the project's packages (``0.1.0+code.1a2b3c4d5e6f``), so that two
tables carry the same version only when the same code made them, with or without git.

Importing this package also points Numba's on-disk cache at a folder named after a hash of the
kernel sources. Numba only checks the timestamp of the file that holds a cached function,
not of the modules it calls or reads constants from; keying the folder by a hash of the source
means an edited strategy or layout constant can never be served from a stale cache. Each game
gets its own folder (hash of its own files and the shared kernel modules), so editing one game
never recompiles the others.
"""
from __future__ import annotations

import hashlib
import os
from importlib import metadata
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("sim", "analysis", "cli", "games")


def code_hash(root: Path = _ROOT) -> str:
    """12 hex digits of a hash of every .py and data file (csv, json, templates) of the project's
    packages under ``root``: what makes the tables, and nothing else (not the tests, not docs)."""
    digest = hashlib.sha1()
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix in (
                    ".py", ".csv", ".json", ".html", ".css", ".js", ".npz", ".toml"):
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


try:
    _BASE_VERSION = metadata.version("balance-toolkit")
except metadata.PackageNotFoundError:  # running from a source tree without install
    _BASE_VERSION = "0"
__version__ = f"{_BASE_VERSION}+code.{code_hash()}"


# Modules that jitted code never reads (kernel constants live in each game's layout.py):
# editing them keeps the compiled kernels.
_NOT_KERNEL_CODE = {"cli.py", "bench.py", "runner.py", "variant.py", "errors.py", "rules.py",
                    "log.py", "strategy.py", "games.py", "spec.py", "__init__.py", "workbench.py",
                    "checkpoint.py", "ladder.py", "calibration.py", "datafile.py",
                    "agents.py", "live.py", "conformance.py",
                    # policy and field files and their checks, and the request confinement:
                    # Python only, no jitted code reads them
                    "trained.py", "field.py", "confine.py", "request.py",
                    # a plugin game's study and golden-game script (sim/games.py: GameHome)
                    "study.py", "golden.py",
                    # results.py's own jitted summary is checked by Numba (its file stamp); no
                    # game kernel reads it, so editing it need not recompile the games.
                    "results.py"}


def _builtin_sources(game: str) -> list[Path]:
    """A built-in game's kernel sources: its package under games/."""
    return [_ROOT / "games" / game]


def _kernel_files(game: str | None, sources: list[Path] | None = None) -> list[tuple[str, Path]]:
    """(name in the hash, file) of the shared kernel modules (sim/*.py and the engine core
    sim/core/*.py that jitted code reads), plus one game's own: its ``sources`` (folders or
    files; default the built-in game's), without their tests and study (no kernel reads them)."""
    files = [(p.relative_to(_ROOT).as_posix(), p)
             for p in [*(_ROOT / "sim").glob("*.py"), *(_ROOT / "sim" / "core").glob("*.py")]
             if p.name not in _NOT_KERNEL_CODE]
    if game is not None:
        for source in sources if sources is not None else _builtin_sources(game):
            found = sorted(source.rglob("*.py")) if source.is_dir() else [source] * source.is_file()
            # named from the project root for a built-in game (the names are part of the hash)
            top = _ROOT if source.is_relative_to(_ROOT) else source.parent
            files += [(p.relative_to(top).as_posix(), p) for p in found
                      if p.name not in _NOT_KERNEL_CODE
                      and not {"tests", "study"} & set(p.relative_to(source).parts)]
    return sorted(files, key=lambda item: Path(item[0]).parts)


def _source_hash(game: str | None = None, sources: list[Path] | None = None) -> str:
    digest = hashlib.sha1()
    for name, path in _kernel_files(game, sources):
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cache_dir(game: str | None = None, sources: list[Path] | None = None) -> Path:
    """Folder that holds the compiled kernels of one game (or the shared ones); safe to delete.

    Each game has its own folder, keyed by a hash of its own kernel source (``sources``: a
    plugin game's package folder; default the built-in game's files) and the shared kernel
    modules it calls: editing one game never recompiles another.
    """
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "balance-toolkit")
    name = f"numba-{game}-{_source_hash(game, sources)}" if game else f"numba-{_source_hash()}"
    return Path(base) / name


def _point_numba_cache() -> None:
    import numba

    numba.config.CACHE_DIR = str(cache_dir())


def use_game_cache(game: str, modules: tuple[str, ...] | None = None,
                   sources: list[Path] | None = None) -> None:
    """Move the disk cache of every jitted function of the game's modules (``modules``: names
    or package prefixes; default ``games.<game>``) into the game's own
    folder. Called when a game registers, before anything is compiled."""
    import sys

    import numba
    from numba.core.registry import CPUDispatcher

    modules = modules or (f"games.{game}",)
    shared = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(cache_dir(game, sources))
    try:
        for name, module in list(sys.modules.items()):
            if not any(name == m or name.startswith(m + ".") for m in modules):
                continue
            for obj in list(vars(module).values()):
                if (isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == name
                        and obj._cache.__class__.__name__ == "FunctionCache"):
                    obj.enable_caching()
    finally:
        numba.config.CACHE_DIR = shared


_point_numba_cache()
