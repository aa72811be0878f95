"""sim.core.scratch: a table on the stack for kernels compiled without Numba's runtime."""
from numba import njit

from sim.core import scratch

SIZE = 12


@njit(_nrt=False)
def fill_and_sum(base, depth):
    """Fills its own table, recurses, then reads its table back: every call has its own."""
    table = scratch.floats(SIZE)
    for i in range(SIZE):
        scratch.put(table, i, base + i)
    inner = fill_and_sum(base * 10.0, depth - 1) if depth > 0 else 0.0
    total = 0.0
    for i in range(SIZE):
        total += scratch.get(table, i)
    return total + inner


@njit(_nrt=False)
def many_calls(n):
    """The table is freed when its function returns: a million calls do not grow the stack."""
    total = 0.0
    for k in range(n):
        total += fill_and_sum(float(k), 0)
    return total


def test_a_scratch_table_is_the_callers_own_and_freed_on_return():
    expected = sum(1.0 + i for i in range(SIZE)) + sum(10.0 + i for i in range(SIZE))
    assert fill_and_sum(1.0, 1) == expected
    n = 1_000_000
    assert many_calls(n) == sum(SIZE * k + SIZE * (SIZE - 1) / 2 for k in range(n))
