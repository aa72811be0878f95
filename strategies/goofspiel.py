"""Goofspiel strategies (rule ids GS-n: docs/goofspiel.md).

Signature of every strategy (built-in or user-written, a ``numba.njit`` function)::

    strategy(seat, players, info, legal, params, rng) -> action
      seat     int            this player's seat
      players  int64[N, F]    what this seat sees of each player (sim.goofspiel.layout: HAND,
                              POINTS, PRIZES, LAST_BID, CARDS_LEFT). With imp_info (GS-9) the
                              other seats' HAND is UNKNOWN (-1) and their LAST_BID 0. Read only.
      info     int64[K]       public turn info (I_TURN, I_PRIZE, I_UNSEEN prize bitmask, I_CARDS...)
      legal    bool[num_cards] legal[v-1]: card v is in this seat's hand
      params   float64[P]     this seat's parameters
      rng      uint64[1]      this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int            v - 1 to bid card v

A seat never sees another seat's bid of the current turn (GS-3: bids are simultaneous), nor the
order of the prize cards still to come. The last card of a hand is played without asking (GS-6).
"""
import numpy as np
from numba import njit

from sim.goofspiel.layout import I_CARDS, I_PRIZE, I_TURN, I_UNSEEN
from sim.rng import choose_legal
from sim.strategy import Strategy

RANDOM, MATCH, GREEDY, SCRIPT = 0, 1, 2, 9


@njit(cache=True, inline="always")
def random_play(seat, players, info, legal, params, rng):
    """Uniformly random card from the hand."""
    return choose_legal(legal, rng, 0)


@njit(cache=True)
def match(seat, players, info, legal, params, rng):
    """Bid the card equal to the prize shifted by params[0] (rounded), or the nearest card left
    (the lower one when two are equally near). A classic baseline: it spends its cards in
    proportion to the prizes."""
    n = legal.shape[0]
    target = min(max(info[I_PRIZE] - 1 + np.int64(np.round(params[0])), 0), n - 1)
    for d in range(n):  # outward from the target: usually found at once
        if target - d >= 0 and legal[target - d]:
            return target - d
        if target + d < n and legal[target + d]:
            return target + d
    return -1


@njit(cache=True)
def greedy(seat, players, info, legal, params, rng):
    """High on high prizes: the highest card when the prize ranks at or above the params[0]
    quantile of the prizes still in play (this one and the unseen ones; 0.5 = the median),
    otherwise the lowest card (throw it away cheaply)."""
    prize = info[I_PRIZE]
    pool = info[I_UNSEEN] | (1 << (prize - 1))
    total, below = 0, 0
    for v in range(info[I_CARDS]):
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


@njit(cache=True)
def scripted(seat, players, info, legal, params, rng):
    """Bids params[turn - 1] (an action: card - 1) - for scripted situations and golden games."""
    if info[I_TURN] > params.shape[0]:
        return -1  # the script ran out: reported as an illegal action, never a wild read
    return np.int64(params[info[I_TURN] - 1])


@njit(cache=True, inline="always")
def builtin_decide(kind, seat, players, info, legal, params, rng):
    if kind == MATCH:
        return match(seat, players, info, legal, params, rng)
    if kind == GREEDY:
        return greedy(seat, players, info, legal, params, rng)
    if kind == SCRIPT:
        return scripted(seat, players, info, legal, params, rng)
    return random_play(seat, players, info, legal, params, rng)


BUILTINS = {
    "random": Strategy("random", builtin=RANDOM, doc="uniformly random card"),
    "match": Strategy("match", builtin=MATCH, params=(0.0,),
                      doc="bids the card equal to the prize (+ params[0]), or the nearest one left"),
    "greedy": Strategy("greedy", builtin=GREEDY, params=(0.5,),
                       doc="highest card on prizes above the median of those in play, else lowest"),
}


def script(bids_by_turn) -> Strategy:
    """A seat that bids the given card values (1..N), turn by turn (tests and golden games)."""
    return Strategy("script", builtin=SCRIPT, params=tuple(float(v - 1) for v in bids_by_turn))
