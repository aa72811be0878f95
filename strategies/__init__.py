"""Pluggable players. One module per game; each defines its built-ins and the strategy signature.

Write your own strategy as a ``numba.njit`` function with the game's signature and seat it with
``sim.strategy.Strategy("my-name", fn=my_function)``; see strategies/parthian.py for an example.
"""
from sim.strategy import Strategy  # noqa: F401  (re-exported for users)
