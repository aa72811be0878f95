"""The engine's kernel core: what every game's kernel is made of, written once.

- ``state``: the engine's part of every game's state (``g.core``) and the batch a kernel gets;
- ``protocol``: the decision protocol (``ask``), event logging and the chunk driver;
- ``hooks``: how the protocol calls a game (its registered hooks), and the plain path versus
  the controlled one, both decided at compile time;
- ``control`` and ``header``: the decision controller (search, tracing, redeals);
- ``search``: the search player's tree (information-set MCTS);
- ``userfn``: user strategies called through an address, so that kernels stay cached.

A game imports what it needs from here (docs/new_game.md walks through a game).
"""
from .hooks import register
from .protocol import ask, ask_all, ask_set, decide, log_event, run_chunk, stopped, stream
from .state import Batch, Core, new_core

__all__ = ["Batch", "Core", "ask", "ask_all", "ask_set", "decide", "log_event", "new_core",
           "register", "run_chunk", "stopped", "stream"]
