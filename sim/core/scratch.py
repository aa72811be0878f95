"""A built-in's scratch table on the stack, for kernels compiled without Numba's runtime.

Why: built-ins run inside kernels compiled with ``_nrt=False`` (they allocate nothing, so they
need no reference counting), and there ``np.empty`` and even ``numba.carray`` are unavailable.
A planner that tabulates values once per round and then searches over them still needs a
table. ``floats(n)`` reserves ``n`` float64 in the calling function's own stack frame (LLVM
``alloca`` in its entry block: freed on return, no heap, no per-call cost beyond the frame), and
``get`` / ``put`` read and write it by flat index. No bounds are checked: the caller sizes the
table from constants (games/sunzi/strategies.py: MAX_REGIONS rows).
"""
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def floats(typingctx, size):
    """A pointer to ``size`` (a literal int) float64 slots in the caller's stack frame."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    n = size.literal_value

    def codegen(context, builder, signature, args):
        return cgutils.alloca_once(builder, context.get_value_type(types.float64), size=n)
    return types.CPointer(types.float64)(size), codegen


@intrinsic
def get(typingctx, table, i):
    """table[i]."""
    def codegen(context, builder, signature, args):
        return builder.load(builder.gep(args[0], [args[1]]))
    return types.float64(table, i), codegen


@intrinsic
def put(typingctx, table, i, value):
    """table[i] = value."""
    def codegen(context, builder, signature, args):
        cast = context.cast(builder, args[2], signature.args[2], types.float64)
        builder.store(cast, builder.gep(args[0], [args[1]]))
        return context.get_dummy_value()
    return types.void(table, i, value), codegen
