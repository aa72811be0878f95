"""Per-game random streams.

Every game g of a batch gets its own streams derived from (master seed, g), so a game's result
does not depend on which process, thread or chunk played it. We use SplitMix64 (Steele, Lea &
Flood 2014) rather than Numba's global ``np.random``: Numba seeds its Mersenne Twister from a
32-bit integer, and 10^8 games drawn from 2^32 seeds would repeat a few percent of games.
Layout of a game's streams: first the game's chance streams (stream 0 shuffles the deck; a game
may keep more, one per kind of chance, e.g. Samurai Sword's role deal), then one stream per
(seat, decision type) for the seat's strategy (``seat_stream``). Changing one seat's strategy
leaves the deals unchanged, and a variant that adds decisions of one type (a leader power, a
purchase) does not shift the random choices of the other types: the k-th placement of a seat
draws the same numbers in both variants (common random numbers; docs/statistics.md measures
what this buys).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .errors import RunError

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


def master_key(seed: int) -> np.uint64:
    """Expand a user seed (any non-negative int) into the 64-bit key of a batch."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RunError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.SeedSequence(int(seed)).generate_state(1, np.uint64)[0]


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_game(key, game_index, streams):
    """Fill ``streams`` (uint64[k]) with the independent stream states of one game."""
    base = mix64(key ^ mix64(np.uint64(game_index) * _GOLDEN + _GOLDEN))
    for s in range(streams.shape[0]):
        streams[s] = mix64(base + np.uint64(s + 1) * _STREAM)


@njit(cache=True, inline="always")
def stream_count(n_chance, n_seats, n_decisions):
    """How many streams a game needs (see the module's layout)."""
    return n_chance + n_seats * n_decisions


@njit(cache=True, inline="always")
def seat_stream(n_chance, n_decisions, seat, decision):
    """Index of the stream seat ``seat`` draws from when it decides a decision of one type."""
    return n_chance + seat * n_decisions + decision


@njit(cache=True, inline="always")
def next_u64(streams, s):
    streams[s] += _GOLDEN
    return mix64(streams[s])


@njit(cache=True, inline="always")
def rand_below(streams, s, n):
    """Uniform integer in [0, n) from stream s (multiply-shift; bias below n / 2^32)."""
    return np.int64(((next_u64(streams, s) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def rand_unit(streams, s):
    """Uniform float in [0, 1) from stream s."""
    return (next_u64(streams, s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(values, count, streams, s):
    """Fisher-Yates shuffle of values[:count] in place, drawing from stream s."""
    for i in range(count - 1, 0, -1):
        j = rand_below(streams, s, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True, inline="always")
def choose_legal(legal, streams, s):
    """A uniformly random index i with legal[i] true (legal must not be all false)."""
    n_legal = 0
    for i in range(legal.shape[0]):
        if legal[i]:
            n_legal += 1
    pick = rand_below(streams, s, n_legal)
    for i in range(legal.shape[0]):
        if legal[i]:
            if pick == 0:
                return i
            pick -= 1
    return -1
