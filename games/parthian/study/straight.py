"""A minimal straight-line kernel of Parthian Shot, for the benchmark only (its ``Bench.straight``).

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

ALL_SHOTS = (1 << 6) - 1


@njit(cache=True, nogil=True)
def parthian(legions, n, key, out):
    """Parthian Shot with n players and the default options (PS-1..PS-16, OP-2 third value,
    OP-3 a charger spares everyone, OP-4 shared ties): one record row per game into ``out``."""
    hand, front, front_sum = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    charges, wounds, played = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    merits, best_merit, routed = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    plays, values = np.zeros(n, np.int64), np.zeros(n, np.int64)
    deck = np.zeros(7, np.int64)
    streams = np.zeros(1 + n, np.uint64)
    for game in range(out.shape[0]):
        seed_game(key, game, streams)
        for i in range(7):
            deck[i] = legions[i]
        for i in range(6, 0, -1):
            j = rand_below(streams, 0, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for p in range(n):
            hand[p], front[p], front_sum[p], charges[p] = ALL_SHOTS, 0, 0, 2
            wounds[p] = played[p] = merits[p] = best_merit[p] = routed[p] = 0
        head, left, end, rounds, defeated, unclaimed = 0, 7, -1, 0, 0, 0
        while end < 0:
            rounds += 1
            strength = deck[head]
            total, chargers = 0, 0
            for p in range(n):  # a random legal card (PS-3, PS-4)
                mask = hand[p] | ((1 if charges[p] > 0 and front_sum[p] > 9 else 0) << 6)
                a = nth_bit(mask, rand_below(streams, 1 + p, popcount(mask)))
                plays[p] = a
                if a == 6:
                    values[p] = front_sum[p]
                    charges[p] -= 1
                    played[p] += 1
                    chargers += 1
                else:
                    values[p] = a + 1
                    hand[p] &= ~(1 << a)
                    front[p] |= 1 << a
                    front_sum[p] += a + 1
                total += values[p]
            out_of_play = 0
            if total > strength:  # PS-6/7/8: the unique highest among the top 3 values
                excluded, level, winner = 0, 0, -1
                if chargers >= 2:
                    for p in range(n):
                        if plays[p] == 6:
                            excluded |= 1 << p
                    level = 1
                while level < 3 and winner < 0:
                    best, count, who = -1, 0, -1
                    for p in range(n):
                        if (excluded >> p) & 1 == 0:
                            if values[p] > best:
                                best, count, who = values[p], 1, p
                            elif values[p] == best:
                                count += 1
                    if count == 0:
                        break
                    if count == 1:
                        winner = who
                    for p in range(n):
                        if values[p] == best:
                            excluded |= 1 << p
                    level += 1
                if winner >= 0:
                    merits[winner] += 1
                    best_merit[winner] = max(best_merit[winner], strength)
                else:
                    unclaimed += 1
                defeated += 1
                head = (head + 1) % 7
                left -= 1
            else:  # PS-9..12
                if chargers == 0:
                    best = 0
                    for p in range(n):
                        best = max(best, values[p])
                    for p in range(n):
                        if values[p] == best:
                            if charges[p] > 0:
                                charges[p] -= 1
                                wounds[p] += 1
                                hand[p], front[p], front_sum[p] = ALL_SHOTS, 0, 0
                            else:
                                routed[p] = 1
                                out_of_play += 1
                deck[(head + left) % 7] = strength
                head = (head + 1) % 7
            for p in range(n):  # PS-13, PS-14
                if (plays[p] == 6 and front[p] != 0) or (
                        plays[p] != 6 and hand[p] != 0 and hand[p] & (hand[p] - 1) == 0):
                    hand[p], front[p], front_sum[p] = ALL_SHOTS, 0, 0
            if out_of_play > 0:
                end = 2 if out_of_play == n else 1
            elif left == 0:
                end = 0
        mask = 0
        if end < 2:  # PS-15/16: the best score (victory) or the lowest (defeat) wins
            sign = 1 if end == 0 else -1
            best_score, best_tie = -(1 << 30), -(1 << 30)
            for p in range(n):
                if routed[p] == 0:
                    score, tie = sign * (merits[p] + charges[p]), sign * best_merit[p]
                    if score > best_score or (score == best_score and tie > best_tie):
                        best_score, best_tie, mask = score, tie, 1 << p
                    elif score == best_score and tie == best_tie:
                        mask |= 1 << p
        out[game, 0], out[game, 1], out[game, 2] = rounds, end, mask
        out[game, 3], out[game, 4], out[game, 5] = defeated, rounds - defeated, unclaimed
        for p in range(n):
            c = 6 + 6 * p
            out[game, c], out[game, c + 1] = merits[p] + charges[p], merits[p]
            out[game, c + 2], out[game, c + 3] = best_merit[p], wounds[p]
            out[game, c + 4], out[game, c + 5] = played[p], routed[p]


def straight(variant, key, out):
    """The straight-line game at ``variant``'s legions and player count."""
    return parthian(variant.kernel_args()[1], variant.n_seats, key, out)
