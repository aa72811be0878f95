"""Resumable runs: a folder that keeps every finished piece of a long job.

A :class:`RunDir` holds a manifest (the full request that the pieces answer: game, rules,
strategies, number of games, seed, chunk size, package version...) and one file per finished
piece, each with a SHA-256 checksum beside it. Every file is written atomically (a temporary
file in the same folder, flushed and fsync'ed, then ``os.replace``), so a run killed at any
instant leaves only whole pieces, stray temporary files (ignored) or a piece without its
checksum (redone). A piece whose bytes do not match its checksum is detected and redone.

Opening a folder with a different request is refused with a :class:`RunError` that names what
differs, so a resumed run can never mix pieces of two requests. A request names its input files
with the SHA-256 of their contents (``"inputs"``: :func:`file_digests`), so an edited policy file,
data file or agent module is a different request too, and the refusal names the file that
changed. The runner stores one piece per
chunk of games; other long jobs (sweeps, tuning) can store one piece per point::

    store = RunDir("runs/sweep", {"command": "sweep", "game": "parthian", ...})
    table = store.load_json("point-3")
    if table is None:
        table = compute_point(3)
        store.save_json("point-3", table)
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
from pathlib import Path

import numpy as np

from .errors import RunError

MANIFEST = "manifest.json"
_NAME = re.compile(r"^[A-Za-z0-9_.=+-]+$")


class RunDir:
    """A run folder bound to one request (a JSON-able dict)."""

    def __init__(self, path: str | os.PathLike, request: dict):
        self.path = Path(path)
        self.request = _normalised(request)
        if self.path.exists() and not self.path.is_dir():
            raise RunError(f"run folder {str(self.path)!r} is a file, not a folder")
        self.path.mkdir(parents=True, exist_ok=True)
        existing = self.existing_request(self.path)
        if existing is None:
            _write_atomic(self.path / MANIFEST, _dumps({"request": self.request}))
        elif existing != self.request:
            raise RunError(_mismatch(self.path, existing, self.request))

    @staticmethod
    def existing_request(path: str | os.PathLike) -> dict | None:
        """The request a folder was made for, or None for a new (or empty) folder."""
        manifest = Path(path) / MANIFEST
        if not manifest.is_file():
            return None
        try:
            return json.loads(manifest.read_text())["request"]
        except (ValueError, KeyError, TypeError):
            raise RunError(f"{str(manifest)!r} is not a run manifest (unreadable); point "
                           "--run-dir at a new folder or delete this one") from None

    # Raw pieces ---------------------------------------------------------------------------------

    def save_bytes(self, name: str, payload: bytes) -> None:
        """Store a piece: its bytes first, then its checksum (the mark that it is whole)."""
        data, check = self._paths(name)
        _write_atomic(data, payload)
        _write_atomic(check, _dumps({"sha256": hashlib.sha256(payload).hexdigest(),
                                     "bytes": len(payload)}))

    def load_bytes(self, name: str) -> bytes | None:
        """A stored piece, or None if it is missing, partial or corrupted (then it is removed)."""
        data, check = self._paths(name)
        if not check.is_file():
            return None
        try:
            expected = json.loads(check.read_text())["sha256"]
            payload = data.read_bytes()
        except (OSError, ValueError, KeyError, TypeError):
            payload, expected = None, None
        if payload is None or hashlib.sha256(payload).hexdigest() != expected:
            self.discard(name)
            return None
        return payload

    def discard(self, name: str) -> None:
        for path in self._paths(name)[::-1]:  # the checksum first: no half-marked piece
            path.unlink(missing_ok=True)

    def names(self) -> list[str]:
        """Names of the pieces that have a checksum (not yet verified)."""
        return sorted(p.name[:-len(".sha256")] for p in self.path.glob("*.sha256"))

    # Typed pieces -------------------------------------------------------------------------------

    def save_array(self, name: str, array: np.ndarray) -> None:
        buffer = io.BytesIO()
        np.save(buffer, np.ascontiguousarray(array), allow_pickle=False)
        self.save_bytes(name, buffer.getvalue())

    def load_array(self, name: str) -> np.ndarray | None:
        payload = self.load_bytes(name)
        return None if payload is None else np.load(io.BytesIO(payload), allow_pickle=False)

    def save_json(self, name: str, value) -> None:
        self.save_bytes(name, _dumps(value))

    def load_json(self, name: str):
        payload = self.load_bytes(name)
        return None if payload is None else json.loads(payload)

    def _paths(self, name: str) -> tuple[Path, Path]:
        if not _NAME.match(name) or name == MANIFEST:
            raise RunError(f"piece name {name!r} must be letters, digits and ._=+- only")
        return self.path / name, self.path / f"{name}.sha256"


def _dumps(value) -> bytes:
    return json.dumps(value, sort_keys=True, indent=1).encode()


def _normalised(request: dict) -> dict:
    """The request as it reads back from JSON (tuples become lists...), to compare like with like."""
    try:
        return json.loads(json.dumps(request, sort_keys=True))
    except TypeError as failure:
        raise RunError(f"a run request must be plain data (JSON): {failure}") from None


def file_digests(paths) -> dict[str, str]:
    """The SHA-256 of each file's contents, by the path it was given as: a run request's
    ``"inputs"``, which key a run folder by what the run reads, not by the files' names."""
    digests = {}
    for path in paths:
        try:
            digests[str(path)] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError as failure:
            raise RunError(f"input file {str(path)!r} cannot be read: "
                           f"{failure.strerror or failure}") from None
    return digests


def _mismatch(path: Path, old: dict, new: dict) -> str:
    where = f"run folder {str(path)!r}"
    fix = "use a new --run-dir, or delete the folder to start again"
    if old.get("command") != new.get("command"):
        return f"{where} was made by {_maker(old)}, not {_maker(new)}: {fix}"
    shown = _input_changes(old.get("inputs") or {}, new.get("inputs") or {})
    keys = sorted(k for k in set(old) | set(new) if k != "inputs" and old.get(k) != new.get(k))
    shown += [f"{k}: folder has {old.get(k)!r}, this run asks {new.get(k)!r}" for k in keys]
    return (f"{where} belongs to another request ({'; '.join(shown)}); re-run the same command "
            f"with the same input files to resume it, or {fix}")


def _maker(request: dict) -> str:
    command = request.get("command")
    return f"`balance {command}`" if command else "another kind of run"


def _input_changes(old: dict, new: dict) -> list[str]:
    """What differs between two requests' input files, one phrase per file."""
    changes = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            changes.append(f"this run also reads {name!r}")
        elif name not in new:
            changes.append(f"the folder's run read {name!r}, this run does not")
        elif old[name] != new[name]:
            changes.append(f"input {name!r} changed since the folder's run (its contents differ)")
    return changes


def _write_atomic(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` so that a crash leaves either the old file or the new one."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
