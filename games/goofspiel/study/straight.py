"""A minimal straight-line kernel of Goofspiel, for the benchmark only (its ``Bench.straight``).

It plays the game's default rules with uniformly random players in one flat loop and writes the
same record row as the engine (the same columns, the same values): no state tuple, no decision
protocol, no event log, no seat rotation, no controller, nothing of the engine. ``balance
bench --startup`` times it beside the engine in the same run, so that the engine's overhead is a
measured ratio of equal work; tests/engine/test_straight_kernels.py checks that both write
identical tables.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.bits import nth_bit, popcount
from sim.rng import rand_below, seed_game


@njit(cache=True, nogil=True)
def goofspiel(n_cards, key, out):
    """Goofspiel, 2 players, n_cards, random prize order (GS-1..GS-7): one record row per game."""
    deck = np.zeros(n_cards, np.int64)
    streams = np.zeros(3, np.uint64)
    full = (1 << n_cards) - 1
    for game in range(out.shape[0]):
        seed_game(key, game, streams)
        for i in range(n_cards):
            deck[i] = i + 1
        for i in range(n_cards - 1, 0, -1):
            j = rand_below(streams, 0, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hand0, hand1, points0, points1, prizes0, prizes1, tied, discarded = full, full, 0, 0, 0, 0, 0, 0
        for t in range(n_cards):
            b0, b1 = nth_bit(hand0, 0), nth_bit(hand1, 0)
            if t < n_cards - 1:  # GS-6: the last card is played without a decision
                b0 = nth_bit(hand0, rand_below(streams, 1, popcount(hand0)))
                b1 = nth_bit(hand1, rand_below(streams, 2, popcount(hand1)))
            hand0 &= ~(1 << b0)
            hand1 &= ~(1 << b1)
            if b0 > b1:
                points0 += deck[t]
                prizes0 += 1
            elif b1 > b0:
                points1 += deck[t]
                prizes1 += 1
            else:
                tied += 1
                discarded += deck[t]
        mask = 1 if points0 > points1 else 2 if points1 > points0 else 3
        out[game, 0], out[game, 1], out[game, 2] = n_cards, 2 if mask == 3 else 0, mask
        out[game, 3], out[game, 4] = tied, discarded
        out[game, 5], out[game, 6], out[game, 7], out[game, 8] = points0, prizes0, points1, prizes1


def straight(variant, key, out):
    """The straight-line game at ``variant``'s card count (2 players, random prize order)."""
    return goofspiel(variant.num_cards, key, out)
