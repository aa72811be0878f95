"""Which files a request from outside may make the toolkit read.

The command line is its user's own: ``-o legion_table=FILE``, ``-s strong:FILE`` and
``-s FILE.py:FUNCTION`` read whatever the user names. A request to a server (the explore page,
the MCP tools) comes from a client the server does not trust, so while it is handled the
toolkit reads only under the folders it is confined to: the game's shipped data and policies
and the session's own folder. Every reader of a named file asks :func:`check_file` first, before
it looks at the file, so a refusal says nothing about whether the file exists or what it holds.

The confinement is a context variable: it covers the thread that handles the request and the
threads it starts through anyio or ``contextvars.copy_context`` (the MCP tools' workers), and no
other code (the command line in the same process stays free).
"""
from __future__ import annotations

import contextlib
import contextvars
import importlib.resources
from pathlib import Path

from .errors import BalanceError

_ROOTS: contextvars.ContextVar[tuple[Path, ...] | None] = contextvars.ContextVar(
    "balance_confined_roots", default=None)


class ConfinedError(BalanceError):
    """A request named a file outside the folders it may read; ``field`` names the input."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@contextlib.contextmanager
def confined(*roots):
    """Handle a request: only files under ``roots`` (folders) may be read inside."""
    token = _ROOTS.set(tuple(Path(root).resolve() for root in roots))
    try:
        yield
    finally:
        _ROOTS.reset(token)


def is_confined() -> bool:
    return _ROOTS.get() is not None


def check_file(path, what: str) -> None:
    """Refuse ``path`` inside a request unless it lies under a confinement root. The message
    names the input, never the file's state or content."""
    roots = _ROOTS.get()
    if roots is None:
        return
    text = str(path)
    if "\x00" in text:
        raise ConfinedError(f"{what}: a file name may not contain a NUL character", what)
    real = Path(text).resolve()
    if not any(real.is_relative_to(root) for root in roots):
        raise ConfinedError(
            f"{what}: a request may name only the game's shipped data and policy files or the "
            "session's own tables, not other files on this machine", what)


def check_code(text: str, what: str) -> None:
    """Refuse a strategy that imports code from a file (FILE.py:FUNCTION) inside a request:
    running a client's choice of module is the command line's right only."""
    if is_confined():
        raise ConfinedError(f"{what}: a request may seat levels and built-in strategies, not "
                            f"code from a file ({text!r})", what)


def game_folders(spec) -> tuple[Path, ...]:
    """The folders a request about ``spec`` may read: its rules package's data and its shipped
    policies and fields."""
    from .games import home

    package = spec.rules_class.__module__.rpartition(".")[0]
    data = Path(str(importlib.resources.files(package) / "data"))
    return data, Path(home(spec).policies)
