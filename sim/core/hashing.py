"""Hashes of exactly what a strategy is handed: the conformance test compares them between worlds
and the search keys its tree on them (sim/core/control.py)."""
import numpy as np
from numba import literal_unroll, njit, types
from numba.extending import overload

from ..rng import mix64


@njit(_nrt=False)
def hash_observation(h, obs, legal, params, rng):
    """A hash of exactly what a strategy is handed (the conformance test and the search tree
    key on it)."""
    h = mix64(h)
    for values in literal_unroll(obs):
        h = hash_array(values, h)
    h = hash_array(legal, h)
    h = hash_array(params, h)
    return hash_array(rng, h)


def hash_array(values, h):
    pass


@overload(hash_array, jit_options={"_nrt": False})
def _hash_array(values, h):
    if isinstance(values.dtype, types.Float):
        def by_value(values, h):  # floats by value, not by bits
            for i in range(values.size):
                h = mix64(h ^ (np.uint64(np.int64(values.flat[i] * 1048576.0)) + np.uint64(i + 1)))
            return h
        return by_value

    def of_ints(values, h):
        for i in range(values.size):
            h = mix64(h ^ (np.uint64(np.int64(values.flat[i])) + np.uint64(i + 1)))
        return h
    return of_ints
