"""Adapters that open every registered game to game-AI research code (docs/adapters.md).

- ``sim.adapters.pettingzoo``: ``env(game, **options)``, a PettingZoo AEC environment;
- ``sim.adapters.gymnasium``: ``env(game, seat=0, opponents=..., **options)``, one seat against
  chosen strategies, for single-agent RL libraries;
- ``sim.adapters.openspiel``: every game registered with pyspiel as ``python_balance_<game>``.

They share :class:`~sim.adapters.table.Table` (a variant, its flat observation vector, the
returns) and play through the engine's live game (sim/live.py): the game's cached kernel runs in
a greenlet that pauses at each decision, so nothing is replayed while a game goes on. They need
the optional extra ``pip install 'balance-toolkit[rl]'``; no game is named here.
"""
from .table import Layout, Table

__all__ = ["Layout", "Table"]
