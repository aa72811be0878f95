"""Simulation engine: rule variants -> jitted kernels -> per-game tables.

Importing this package points Numba's on-disk cache at a folder named after a hash of the
package sources. Numba only checks the timestamp of the file that holds a cached function,
not of the modules it calls or reads constants from; keying the folder by the whole source
tree means an edited strategy or layout constant can never be served from a stale cache.
"""
from __future__ import annotations

import hashlib
import os
from importlib import metadata
from pathlib import Path

try:
    __version__ = metadata.version("balance-toolkit")
except metadata.PackageNotFoundError:  # running from a source tree without install
    __version__ = "0+unknown"


# Modules that jitted code never reads (kernel constants live in each game's layout.py):
# editing them keeps the compiled kernels.
_NOT_KERNEL_CODE = {"cli.py", "bench.py", "runner.py", "variant.py", "errors.py", "rules.py",
                    "log.py", "strategy.py", "games.py", "spec.py", "__init__.py"}


def _source_hash() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for package in ("sim", "strategies"):
        for path in sorted((root / package).rglob("*.py")):
            if path.name in _NOT_KERNEL_CODE:
                continue
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cache_dir() -> Path:
    """Folder that holds this source tree's compiled kernels (safe to delete)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "balance-toolkit")
    return Path(base) / f"numba-{_source_hash()}"


def _point_numba_cache() -> None:
    import numba

    numba.config.CACHE_DIR = str(cache_dir())


_point_numba_cache()
