"""Goofspiel strategies (rule ids GS-n: games/goofspiel/RULES.md).

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int            always 0: the bid of the turn (the game's one decision type)
      seat     int            this player's seat
      obs      Observation    obs.players int64[N, F]: what this seat sees of each player
                              (games.goofspiel.layout.P: HAND, POINTS, PRIZES, LAST_BID,
                              CARDS_LEFT); with imp_info (GS-9) the other seats' HAND is UNKNOWN
                              (-1) and their LAST_BID 0. obs.info int64[K]: public turn info
                              (layout.I: TURN, PRIZE, UNSEEN prize bitmask, CARDS...). Read only.
      legal    bool[num_cards] legal[v-1]: card v is in this seat's hand
      params   float64[P]     this seat's parameters
      rng      uint64[1]      this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int            v - 1 to bid card v

A seat never sees another seat's bid of the current turn (GS-3: bids are simultaneous), nor the
order of the prize cards still to come. The last card of a hand is played without asking (GS-6).
"""
import numpy as np
from numba import njit

from games.goofspiel.layout import I
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script

MATCH, GREEDY = 1, 2

# The built-ins are inline="always": a decision takes tens of nanoseconds, and a call to a
# strategy costs as much as its body (greedy played at 0.82x of the pre-core kernel when called,
# 1.08x inlined; docs/benchmarks.md, "The kernel core"). The kernel inlines the dispatch to them as well
# (core.register(..., inline_strategies=True) in games/goofspiel/kernel.py).


@njit(cache=True, inline="always")
def match(info, legal, params):
    """Bid the card equal to the prize shifted by params[0] (rounded), or the nearest card left
    (the lower one when two are equally near). A classic baseline: it spends its cards in
    proportion to the prizes."""
    n = legal.shape[0]
    target = min(max(info[I.PRIZE] - 1 + np.int64(np.round(params[0])), 0), n - 1)
    for d in range(n):  # outward from the target: usually found at once
        if target - d >= 0 and legal[target - d]:
            return target - d
        if target + d < n and legal[target + d]:
            return target + d
    return -1


@njit(cache=True, inline="always")
def greedy(info, legal, params):
    """High on high prizes: the highest card when the prize ranks at or above the params[0]
    quantile of the prizes still in play (this one and the unseen ones; 0.5 = the median),
    otherwise the lowest card (throw it away cheaply)."""
    prize = info[I.PRIZE]
    pool = info[I.UNSEEN] | (1 << (prize - 1))
    total, below = 0, 0
    for v in range(info[I.CARDS]):
        if (pool >> v) & 1:
            total += 1
            if v + 1 < prize:
                below += 1
    high = below >= params[0] * (total - 1)
    if high:
        for v in range(legal.shape[0] - 1, -1, -1):
            if legal[v]:
                return v
    for v in range(legal.shape[0]):
        if legal[v]:
            return v
    return -1


@njit(cache=True, inline="always")
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == MATCH:
        return match(obs.info, legal, params)
    if kind == GREEDY:
        return greedy(obs.info, legal, params)
    return -1


BUILTINS = {
    "random": RANDOM_PLAYER,
    "match": Strategy("match", builtin=MATCH, params=(0.0,),
                      doc="bids the card equal to the prize (+ params[0]), or the nearest one left"),
    "greedy": Strategy("greedy", builtin=GREEDY, params=(0.5,),
                       doc="highest card on prizes above the median of those in play, else lowest"),
}


def script(bids_by_turn) -> Strategy:
    """A seat that bids the given card values (1..N), turn by turn (tests and golden games); the
    last card is played without a decision (GS-6), so its entry may be left out."""
    return sim_script((0, v - 1) for v in bids_by_turn)
