"""The registered games: every package of ``sim/`` with a ``spec.py`` (its ``SPEC``).

A game is found by its folder, so a new game (``balance new-game NAME``) is registered the
moment its package exists, and the engine-wide tests run on it at once. A game's package is
imported only when it is asked for; before anything of it compiles, its jitted functions are
pointed at the game's own cache folder (sim/__init__.py says why).
"""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from . import use_game_cache
from .errors import RulesError
from .game import GameSpec

_SIM = Path(__file__).resolve().parent
_LOADED: dict[str, GameSpec] = {}


def game_names() -> list[str]:
    """Every game's name (its package under sim/), sorted."""
    return sorted(info.name for info in pkgutil.iter_modules([str(_SIM)])
                  if info.ispkg and (_SIM / info.name / "spec.py").exists())


def get_game(name: "str | GameSpec") -> GameSpec:
    if isinstance(name, GameSpec):
        return name
    if name not in _LOADED:
        if not isinstance(name, str) or name not in game_names():
            raise RulesError(f"unknown game {name!r}; available: {', '.join(game_names())}")
        spec = importlib.import_module(f"sim.{name}.spec").SPEC
        use_game_cache(name)
        _LOADED[name] = spec
    return _LOADED[name]
