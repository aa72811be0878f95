"""Bit tricks for jitted kernels that keep sets (legal actions, hands) as integer bitmasks.

A loop over a boolean array with a data-dependent branch mispredicts on random sets; on
Sunzi's ~200 decisions a game that cost more than the decisions themselves. These compile to
single CPU instructions (popcnt, tzcnt).
"""
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


def _as_int64(context, builder, signature, args):
    return context.cast(builder, args[0], signature.args[0], types.int64)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (as int64)."""
    if not isinstance(types.unliteral(x), types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(_as_int64(context, builder, signature, args))
    return types.int64(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(types.unliteral(x), types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(_as_int64(context, builder, signature, args), ir.Constant(ir.IntType(1), 0))
    return types.int64(x), codegen


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """Index of the lowest set bit of mask, -1 if mask is 0."""
    return _cttz(mask) if mask != 0 else -1


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """Index of the k-th (0-based, from the lowest) set bit of mask; -1 if there is none."""
    for _ in range(k):
        mask &= mask - 1
    return lowest_bit(mask)
