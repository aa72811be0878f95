"""A mixture seat: a field of strategies, one member drawn per game and slot.

The strong field of a game (sim/field.py) is a population of policies and a probability over
them, the meta-strategy an equilibrium search (PSRO) settles on. A seat of kind MIXTURE plays
one member in each game; which one comes from a hash of (batch key, game, slot), not from the
game's random streams, so the draw neither shifts any other random number (common random
numbers hold when a field replaces a seat) nor depends on the chunk or process that plays the
game.

Parameters of a mixture seat: ``[M, c_1 .. c_M, block_1, .., block_M]``, where c_m is the
cumulative probability of members 1..m (c_M = 1) and each member's block is ``[kind, n,
p_1 .. p_n]``: the member's strategy kind and its n parameters, as any seat's.
"""
import numpy as np
from numba import njit

from ..rng import mix64

_FIELD_SALT = np.uint64(0x6A09E667F3BCC909)
_SLOT = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def member_draw(key, game, slot):
    """A uniform number in [0, 1) for (key, game, slot), apart from the game's streams."""
    z = mix64(key ^ _FIELD_SALT ^ (np.uint64(game) * np.uint64(0x9E3779B97F4A7C15)))
    z = mix64(z ^ (np.uint64(slot + 1) * _SLOT))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def member_at(params, u):
    """(kind, first parameter's index, parameter count) of the member that ``u`` picks."""
    m = np.int64(params[0])
    pick = m - 1
    for i in range(m):
        if u < params[1 + i]:
            pick = i
            break
    start = 1 + m
    for _ in range(pick):
        start += 2 + np.int64(params[start + 1])
    return np.int64(params[start]), start + 2, np.int64(params[start + 1])


def pack(members) -> tuple[float, ...]:
    """A mixture seat's parameters from (probability, kind, parameters) per member."""
    weights = np.array([p for p, _, _ in members], float)
    if len(weights) == 0 or not (weights >= 0).all() or weights.sum() <= 0:
        raise ValueError("a mixture needs members with non-negative weights, not all zero")
    cumulative = np.cumsum(weights / weights.sum())
    cumulative[-1] = 1.0
    values = [float(len(members)), *cumulative]
    for _, kind, params in members:
        values += [float(kind), float(len(params)), *map(float, params)]
    return tuple(values)


def unpack(params) -> list[tuple[float, int, tuple[float, ...]]]:
    """(probability, kind, parameters) per member of a mixture seat's parameters (``pack``'s
    inverse)."""
    m = int(params[0])
    cumulative = np.r_[0.0, np.asarray(params[1:1 + m], float)]
    members, start = [], 1 + m
    for i in range(m):
        kind, count = int(params[start]), int(params[start + 1])
        members.append((float(cumulative[i + 1] - cumulative[i]), kind,
                        tuple(float(v) for v in params[start + 2:start + 2 + count])))
        start += 2 + count
    return members
