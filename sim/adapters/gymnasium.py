"""A Gymnasium environment: one seat of a game against chosen strategies (docs/adapters.md).

    from sim.adapters.gymnasium import env
    e = env("goofspiel", seat=0, opponents="greedy", num_cards=6)
    obs, info = e.reset(seed=1)
    while True:
        action = policy(obs, info["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated:
            break

The learner plays ``seat``; every other seat plays ``opponents``: one strategy for all of them
or one per other seat, as ``simulate`` takes them (a built-in name, the search player
``"ismcts:budget=64"``, a Strategy, a numba.njit function or a Python agent). They play inside
the kernel; only the learner's decisions come back to Python. The observation is the flat
vector of what the seat's strategy would be handed (sim.adapters.table), the legal mask is
``info["action_mask"]`` (and ``action_masks()``, the convention of masked-action libraries).
The reward is 0 until the end, then the seat's return (``returns="win"``: its share of the win).

An action outside the mask is answered as the engine answers any illegal action: the lowest
legal action is played instead, and ``info["illegal_action"]`` is True (so that libraries that
sample unmasked actions still run); an action that is not a whole number (1.7) is refused.
Seeds work as in sim.adapters.pettingzoo: ``reset(seed=s)`` plays game 0 of master seed s,
later resets the next games; a game in which the seat is never asked (every decision forced)
is skipped.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ..errors import RunError, StrategyError
from ..strategy import lookup
from .table import Table


def env(game, seat: int = 0, opponents="random", *, rules=None, render_mode: str | None = None,
        returns: str = "win", dtype=None, **options) -> "SeatEnv":
    """The Gymnasium environment of ``seat`` of ``game`` against ``opponents``; rule options by
    keyword (or ``rules=``, as in ``simulate``)."""
    if rules is not None and options:
        raise RunError("give the rule options either as rules=... or as keywords, not both")
    return SeatEnv(Table(game, rules if rules is not None else options, returns, dtype), seat,
                   opponents, render_mode)


class SeatEnv(gymnasium.Env):
    """One seat of one game as a Gymnasium environment (see the module)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, table: Table, seat: int = 0, opponents="random",
                 render_mode: str | None = None):
        n = table.n_seats
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise RunError(f"seat={seat!r}: {table.spec.title} has seats 0..{n - 1}")
        if render_mode not in (None, "human", "ansi"):
            raise RunError(f"render_mode={render_mode!r}: use None, 'human' or 'ansi'")
        others = [opponents] * (n - 1) if not isinstance(opponents, (list, tuple)) else list(opponents)
        if len(others) != n - 1:
            raise RunError(f"{len(others)} opponents given for the {n - 1} other seats; give one, "
                           "or one per other seat")
        for strategy in others:  # an unknown name is refused now, not at the first reset
            try:
                lookup(table.spec, strategy, n)
            except StrategyError as err:
                raise StrategyError(f"opponents: {err}") from None
        self.table, self.seat, self.render_mode = table, int(seat), render_mode
        self.strategies = others[:seat] + [None] + others[seat:]
        low, high = table.layout.bounds()
        self.observation_space = spaces.Box(low, high, (table.layout.size,), table.layout.dtype)
        self.action_space = spaces.Discrete(table.n_actions)
        self._seed, self._next_game = 0, 0
        self.game = None
        self._mask = np.zeros(table.n_actions, np.int8)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._next_game = int(seed), 0
        while True:
            if self.game is not None:
                self.game.close()
            self.game = self.table.live(self._seed, self._next_game, self.strategies)
            self._next_game += 1
            if self.game.pending is not None:
                return self._observation(), self._info()

    def _observation(self) -> np.ndarray:
        pending = self.game.pending
        self._mask = self.table.mask(pending.legal, np.int8)
        return self.table.layout.flatten(pending.decision, pending.obs)

    def _info(self, illegal: bool = False) -> dict:
        return {"action_mask": self._mask, "illegal_action": illegal}

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)

    def step(self, action):
        if self.game is None:
            raise RunError("reset() needs to be called before step()")
        if self.game.pending is None:
            raise RunError("the episode is over: call reset()")
        action = self._whole_number(action)
        illegal = not (0 <= action < len(self._mask) and self._mask[action])
        if illegal:
            action = int(np.argmax(self._mask))
        self.game.play(action)
        if self.render_mode == "human":
            self.render()
        if self.game.pending is None:
            reward = float(self.table.returns(self.game)[self.seat])
            self._mask = np.zeros(self.table.n_actions, np.int8)
            final = np.zeros(self.table.layout.size, self.table.layout.dtype)
            return final, reward, True, False, self._info(illegal)
        return self._observation(), 0.0, False, False, self._info(illegal)

    def _whole_number(self, action) -> int:
        """The action as an int: an integer, or a float or one-element array holding one."""
        value = np.asarray(action)
        if value.size == 1:
            value = value.reshape(())
            if np.issubdtype(value.dtype, np.integer):
                return int(value)
            if np.issubdtype(value.dtype, np.floating) and float(value).is_integer():
                return int(value)
        raise RunError(f"action {action!r} is not a whole number: the action space is "
                       f"{self.action_space}, pick an action index from the mask")

    def render(self):
        if self.game is None:
            return None
        labels = ["learner" if s == self.seat else f"player_{s}" for s in range(self.table.n_seats)]
        text = self.table.narrative(self.game, labels)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        if self.game is not None:
            self.game.close()
