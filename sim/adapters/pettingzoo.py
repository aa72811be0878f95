"""A PettingZoo AEC environment for every registered game (docs/adapters.md).

    from sim.adapters.pettingzoo import env
    e = env("goofspiel", num_cards=6)            # rule options as in simulate (or rules=...)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``player_0 .. player_{n-1}`` (the seats). ``observation["observation"]`` is the flat
vector of what the seat's strategy would be handed (sim.adapters.table: the decision, then the
observation's arrays), ``observation["action_mask"]`` the legal mask (int8, ``spec.n_actions``
long). A seat's observation is the one it was handed at its latest decision (zeros before its
first): the engine computes an observation only for the seat it asks, as a strategy sees it.
At the end every agent gets its return (``returns="win"``: its share of the win; or a seat
column of the record) and is terminated. An illegal action raises a StrategyError (and changes
nothing); ``step`` before ``reset``, or after every agent is done, a RunError saying what to do.

Seeds: ``reset(seed=s)`` plays game 0 of master seed s, each ``reset()`` after it the next game
of that seed (game 1, 2, ...), exactly the games ``simulate(..., seed=s)`` plays; before any
seed is given, the seed is 0. ``render()`` is the game's narrative so far (a referee's view:
hidden cards too): printed with ``render_mode="human"``, returned with ``"ansi"``.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import RunError
from .table import Table


def env(game, *, rules=None, render_mode: str | None = None, returns: str = "win", dtype=None,
        **options) -> "BalanceAEC":
    """The PettingZoo AEC environment of ``game``; rule options by keyword (or ``rules=`` a
    rules object or dict, as in ``simulate``)."""
    if rules is not None and options:
        raise RunError("give the rule options either as rules=... or as keywords, not both")
    return BalanceAEC(Table(game, rules if rules is not None else options, returns, dtype),
                      render_mode)


class BalanceAEC(AECEnv):
    """One game as a PettingZoo AEC environment (see the module)."""

    def __init__(self, table: Table, render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise RunError(f"render_mode={render_mode!r}: use None, 'human' or 'ansi'")
        self.table = table
        self.metadata = {"render_modes": ["human", "ansi"], "name": f"balance_{table.spec.name}",
                         "is_parallelizable": False}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(table.n_seats)]
        low, high = table.layout.bounds()
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, (table.layout.size,), table.layout.dtype),
            "action_mask": spaces.Box(0, 1, (table.n_actions,), np.int8)})
        self._action_space = spaces.Discrete(table.n_actions)
        self._seed, self._next_game = 0, 0
        self.game = None

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed, self._next_game = int(seed), 0
        if self.game is not None:
            self.game.close()
        self.game = self.table.live(self._seed, self._next_game)
        self._next_game += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        zero = np.zeros(self.table.layout.size, self.table.layout.dtype)
        self._observations = {a: zero for a in self.agents}
        self._masks = {a: np.zeros(self.table.n_actions, np.int8) for a in self.agents}
        self._take_decision()

    def _take_decision(self) -> None:
        """Point agent_selection at the seat the game asks, with what it is handed."""
        pending = self.game.pending
        if pending is None:  # the game is over
            for agent, value in zip(self.possible_agents, self.table.returns(self.game)):
                self.rewards[agent] = float(value)
                self.terminations[agent] = True
                self._masks[agent] = np.zeros(self.table.n_actions, np.int8)
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        agent = self.possible_agents[pending.seat]
        self._observations[agent] = self.table.layout.flatten(pending.decision, pending.obs)
        self._masks[agent] = self.table.mask(pending.legal, np.int8)
        self.agent_selection = agent

    def observe(self, agent):
        return {"observation": self._observations[agent], "action_mask": self._masks[agent]}

    def step(self, action) -> None:
        if self.game is None:
            raise RunError("reset() needs to be called before step()")
        if not self.agents:
            raise RunError("the game is over and every agent is done: call reset() to play "
                           "another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.play(int(action) if isinstance(action, np.integer) else action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._take_decision()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.game is None:
            return None
        text = self.table.narrative(self.game, self.possible_agents)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        if self.game is not None:
            self.game.close()
