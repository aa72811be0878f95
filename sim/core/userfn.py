"""User strategies at the table: called through an address, so the game kernel stays cached.

A user strategy is a ``numba.njit`` function with the one strategy signature of every game::

    strategy(decision, seat, obs, legal, params, rng) -> action

(``obs`` is the game's observation, a NamedTuple of arrays; games/<game>/kernel.py documents it).
The kernel does not compile it in: that would make a private copy of the whole game kernel, which
Numba cannot cache (it closes over the user's function) and which took minutes to compile for
the larger games. Instead the engine compiles a small C-callable wrapper of the strategy
(``numba.cfunc``) and hands the kernel its address; the kernel calls it with a plain C calling
convention: the decision, the seat, then a data pointer and the dimensions of each array
(every observation array, the legal mask, the parameters), and the random stream's pointer.
The same convention lets a Python callable sit at the table through a ctypes callback
(sim/agents.py), and the adapters (sim/adapters) build on that.

The wrapper and the kernel agree on the arrays' element types and dimensions through the game's
declared observation (``spec.observation``); the kernel passes a code of what it really passes
as the first argument, and a wrapper that expected something else answers ``MISMATCH`` (the
runner turns that into a clear error instead of reading memory wrongly).
"""
from __future__ import annotations

import zlib

import numpy as np
from llvmlite import ir
from numba import types
from numba.np.numpy_support import from_dtype
from numba.extending import intrinsic

MISMATCH = -(1 << 62)   # a wrapper's answer when the kernel passes other arrays than it expects


def _arrays(obs, legal, params, rng):
    members = list(obs.types) if isinstance(obs, types.BaseTuple) else [obs]
    return members, [legal, params, rng]


def layout_code(descriptions) -> int:
    """A 31-bit code of (element type, dimensions) of every array passed, in order."""
    text = ";".join(f"{dtype}/{ndim}" for dtype, ndim in descriptions)
    return zlib.crc32(text.encode()) & 0x7FFFFFFF


def _describe(ty) -> tuple[str, int]:
    return str(ty.dtype), ty.ndim


@intrinsic
def call_user(typingctx, address, decision, seat, obs, legal, params, rng):
    """Call the C-callable strategy at ``address`` (an int64) on these arrays."""
    members, rest = _arrays(obs, legal, params, rng)
    for ty in members + rest:
        if not isinstance(ty, types.Array) or ty.layout != "C":
            raise TypeError(f"a user strategy can only be handed C-contiguous arrays, not {ty}")
    code = layout_code([_describe(ty) for ty in members + rest])
    signature = types.int64(address, decision, seat, obs, legal, params, rng)

    def codegen(context, builder, sig, args):
        address_v, decision_v, seat_v, obs_v, legal_v, params_v, rng_v = args
        i64 = ir.IntType(64)
        values = [ir.Constant(i64, code),
                  context.cast(builder, decision_v, sig.args[1], types.int64),
                  context.cast(builder, seat_v, sig.args[2], types.int64)]
        obs_values = ([builder.extract_value(obs_v, k) for k in range(len(members))]
                      if isinstance(sig.args[3], types.BaseTuple) else [obs_v])
        for ty, value in zip(members + rest, obs_values + [legal_v, params_v, rng_v]):
            array = context.make_array(ty)(context, builder, value)
            values.append(array.data)
            for dim in range(ty.ndim):
                values.append(builder.extract_value(array.shape, dim))
        function_type = ir.FunctionType(i64, [v.type for v in values])
        function = builder.inttoptr(address_v, function_type.as_pointer())
        return builder.call(function, values)

    return signature, codegen


def c_signature(observation):
    """The wrapper's Numba signature for a game's observation: ((name, dtype, ndim), ...)."""
    arguments = [types.int64, types.int64, types.int64]
    for _, dtype, ndim in _all_arrays(observation):
        arguments.append(types.CPointer(from_dtype(np.dtype(dtype))))
        arguments += [types.int64] * ndim
    return types.int64(*arguments)


def _all_arrays(observation):
    return [*observation, ("legal", np.bool_, 1), ("params", np.float64, 1), ("rng", np.uint64, 1)]


def expected_code(observation) -> int:
    return layout_code([(str(from_dtype(np.dtype(dtype))), ndim)
                        for _, dtype, ndim in _all_arrays(observation)])


def wrapper_source(observation, name="wrapper") -> tuple[str, list[str]]:
    """Source of ``wrapper(code, decision, seat, <pointer, dims>...)`` that rebuilds the arrays
    with ``carray`` and calls ``strategy(decision, seat, Observation(...), legal, params, rng)``."""
    arguments, arrays = ["code", "decision", "seat"], []
    for field, _, ndim in _all_arrays(observation):
        dims = [f"{field}_n{d}" for d in range(ndim)]
        arguments += [f"{field}_ptr", *dims]
        shape = "(" + ", ".join(dims) + ("," if ndim == 1 else "") + ")"
        arrays.append(f"carray({field}_ptr, {shape})")
    obs = ", ".join(arrays[:len(observation)])
    legal, params, rng = arrays[len(observation):]
    source = (f"def {name}({', '.join(arguments)}):\n"
              f"    if code != EXPECTED:\n"
              f"        return MISMATCH\n"
              f"    return strategy(decision, seat, Observation({obs}), {legal}, {params}, {rng})\n")
    return source, arguments


_compiled: dict = {}


def address_of(strategy, observation, observation_class) -> int:
    """The address of a C-callable wrapper of the jitted ``strategy`` for this observation
    (compiled once per process and strategy; a few seconds, whatever the game's size)."""
    from numba import carray, cfunc

    key = (id(strategy), tuple(observation), observation_class)
    if key not in _compiled:
        source, _ = wrapper_source(observation)
        namespace = {"carray": carray, "strategy": strategy, "Observation": observation_class,
                     "EXPECTED": expected_code(observation), "MISMATCH": MISMATCH}
        exec(source, namespace)
        _compiled[key] = cfunc(c_signature(observation), nopython=True)(namespace["wrapper"])
    return _compiled[key].address


def empty_users() -> np.ndarray:
    return np.zeros(0, np.int64)

