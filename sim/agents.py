"""Python callables at the table: a ctypes callback with the C signature of a user strategy.

A user strategy compiled by Numba is called by the kernel through an address (sim/core/userfn.py:
a C-callable wrapper that takes the decision, the seat, then a data pointer and the dimensions of
each array). A Python callable sits at the table through the same address: a ctypes callback
(``ctypes.CFUNCTYPE``) of that C signature, so the game's cached kernel calls Python directly,
game by game, with no replay. The kernel runs without the GIL (``nogil``); the callback takes it
back for the call and gives it up again when it returns.

Every call rebuilds the arrays as numpy views of the kernel's memory (cached by address and
shape): they are valid during the call only, so an agent that keeps anything copies it.

A callback is made in the process that plays (``SeatPlan.batch``), from the Python callable,
which travels to worker processes pickled (cloudpickle, so lambdas and closures travel too).
An exception raised by the callable cannot cross the kernel: the callback keeps it, answers an
illegal action (the kernel ends the chunk after that game), and the runner raises it
(:func:`failure`, :meth:`Callback.report`). An answer that is no action code (a text, a bool, a
NaN, 1.7, an integer beyond 64 bits, which C would silently wrap into a legal code) is kept the
same way and reported as the agent's illegal answer; a Ctrl-C that lands while the agent runs
is the user's interruption, raised again as KeyboardInterrupt, not blamed on the agent, while
a KeyboardInterrupt the agent raises itself (no Ctrl-C came: :func:`ctrl_c_counted`) is the
agent's failure like any other exception.
"""
from __future__ import annotations

import contextlib
import ctypes
import inspect
import math
import operator
import signal
import threading
import weakref
from functools import lru_cache

import numpy as np

from .core.userfn import MISMATCH, expected_code
from .errors import StrategyError

_C_TYPES = {np.dtype(np.int64): ctypes.c_int64, np.dtype(np.int32): ctypes.c_int32,
            np.dtype(np.int16): ctypes.c_int16, np.dtype(np.int8): ctypes.c_int8,
            np.dtype(np.uint64): ctypes.c_uint64, np.dtype(np.uint8): ctypes.c_uint8,
            np.dtype(np.float64): ctypes.c_double, np.dtype(np.float32): ctypes.c_float,
            np.dtype(np.bool_): ctypes.c_bool}
_INT64 = (-(1 << 63), (1 << 63) - 1)
_MAX_VIEWS = 4096
_LIVE: dict[int, "Callback"] = {}   # address -> callback, while its batch's users array lives
_CTRL_C = [0]   # Ctrl-Cs received while agents played (ctrl_c_counted)


def arrays(observation) -> list[tuple[str, np.dtype, int]]:
    """(name, dtype, ndim) of every array the kernel passes: the observation's, then legal,
    params and rng (the order of sim.core.userfn.c_signature)."""
    return [*((name, np.dtype(dtype), ndim) for name, dtype, ndim in observation),
            ("legal", np.dtype(np.bool_), 1), ("params", np.dtype(np.float64), 1),
            ("rng", np.dtype(np.uint64), 1)]


class IllegalAnswer(Exception):
    """An agent's answer that is no action code (kept by the callback, reported by the runner)."""


def action_code(answer) -> int:
    """The action code an agent answered: an integer (Python or numpy, or a float holding a whole
    number) within 64 bits; anything else raises IllegalAnswer saying what came back."""
    if isinstance(answer, (bool, np.bool_)):
        raise IllegalAnswer(f"{answer!r} (a bool, not an action code)")
    if isinstance(answer, (float, np.floating)):
        if not math.isfinite(answer) or not float(answer).is_integer():
            raise IllegalAnswer(f"{answer!r} (a float that is no whole number)")
        code = int(answer)
    else:
        try:
            code = operator.index(answer)
        except TypeError:
            raise IllegalAnswer(f"{_shown(answer)} (a {type(answer).__name__}, not an integer "
                                "action code)") from None
    if not _INT64[0] <= code <= _INT64[1]:
        raise IllegalAnswer(f"{code} (outside the 64-bit range of action codes)")
    return code


def _shown(value) -> str:
    try:
        text = repr(value)
    except Exception:  # a user's object whose repr fails is still reported
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


@lru_cache(maxsize=None)
def _expected_code(observation) -> int:
    return expected_code(observation)


@lru_cache(maxsize=None)
def _prototype(n_arguments: int):
    """The ctypes function type: every argument (decision, seat, pointers, dimensions) an int64."""
    return ctypes.CFUNCTYPE(ctypes.c_int64, *[ctypes.c_int64] * n_arguments)


class Callback:
    """A C-callable function of the strategy signature that calls ``answer(decision, seat, obs,
    legal, params, rng) -> action`` with numpy views of the kernel's arrays."""

    def __init__(self, answer, observation, observation_class, label: str = "agent"):
        self.answer, self.label = answer, label
        self.error: BaseException | None = None
        self.by_user = False   # the error is a Ctrl-C that landed in the call
        self._ctrl_c = _CTRL_C[0]
        self._fields = arrays(observation)
        self._n_obs = len(observation)
        self._class = observation_class
        self._expected = _expected_code(tuple(observation))
        self._views: dict = {}
        self._spans, at = [], 0   # per array: its pointer's and its dimensions' arguments
        for k, (_, _, ndim) in enumerate(self._fields):
            self._spans.append((k, at, at + 1 + ndim))
            at += 1 + ndim
        self._function = _prototype(3 + sum(1 + ndim for _, _, ndim in self._fields))(self._call)
        self.address = ctypes.cast(self._function, ctypes.c_void_p).value

    def _view(self, k: int, pointer: int, shape: tuple) -> np.ndarray:
        key = (k, pointer, shape)
        view = self._views.get(key)
        if view is None:
            if len(self._views) >= _MAX_VIEWS:
                self._views.clear()
            dtype = self._fields[k][1]
            size = math.prod(shape)
            if size == 0 or pointer == 0:
                view = np.zeros(shape, dtype)
            else:
                buffer = (_C_TYPES[dtype] * size).from_address(pointer)
                view = np.frombuffer(buffer, dtype).reshape(shape)
            self._views[key] = view
        return view

    def _call(self, code, decision, seat, *rest):
        if code != self._expected:
            return MISMATCH
        if self.error is not None:
            return -1
        try:
            views = [self._view(k, rest[at], rest[at + 1:end]) for k, at, end in self._spans]
            obs = self._class(*views[:self._n_obs])
            legal, params, rng = views[self._n_obs:]
            return action_code(self.answer(decision, seat, obs, legal, params, rng))
        except BaseException as failure:  # it cannot cross the kernel: the runner raises it
            self.error = failure
            self.by_user = isinstance(failure, KeyboardInterrupt) and _CTRL_C[0] > self._ctrl_c
            return -1

    def report(self, seat: int, game: int) -> BaseException:
        """What the runner raises for this callback's kept error, at ``seat`` in game ``game``."""
        error = self.error
        if self.by_user:
            return error  # Ctrl-C while the agent ran: the user's interruption, not the agent's
        if isinstance(error, KeyboardInterrupt):
            report = StrategyError(f"agent {self.label!r} at seat {seat} raised "
                                   f"KeyboardInterrupt itself, with no Ctrl-C pressed (game "
                                   f"{game}); an agent that gives up should raise another error")
        elif isinstance(error, IllegalAnswer):
            report = StrategyError(f"agent {self.label!r} at seat {seat} returned {error}, an "
                                   f"illegal answer in game {game}; it must return the integer "
                                   "code of a legal action")
        else:
            report = StrategyError(f"agent {self.label!r} at seat {seat} raised "
                                   f"{type(error).__name__}: {error} (game {game})")
        report.__cause__ = error
        return report


def callback_address(answer, observation, observation_class, users: np.ndarray, label: str) -> int:
    """The address of a new callback of ``answer``, alive as long as the array ``users`` (the
    batch's addresses) is."""
    callback = Callback(answer, observation, observation_class, label)
    _LIVE[callback.address] = callback
    weakref.finalize(users, _LIVE.pop, callback.address, None)
    return callback.address


@contextlib.contextmanager
def ctrl_c_counted():
    """While agents play, count the Ctrl-Cs that arrive (the process's own handler still runs
    and raises KeyboardInterrupt), so that a KeyboardInterrupt an agent raises itself is told
    from the user's. Off the main thread no Ctrl-C is raised, so there is nothing to count."""
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous) or threading.current_thread() is not threading.main_thread():
        yield
        return

    def counted(signum, frame):
        _CTRL_C[0] += 1
        previous(signum, frame)

    signal.signal(signal.SIGINT, counted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def failure(users: np.ndarray) -> "Callback | None":
    """The first callback of a batch (its ``users`` addresses) whose callable raised."""
    for address in users.tolist():
        callback = _LIVE.get(address)
        if callback is not None and callback.error is not None:
            return callback
    return None


AGENT_EXTRAS = ("decision", "seat", "rng")


def _extras(agent) -> tuple[str, ...]:
    """The keywords among AGENT_EXTRAS that ``agent`` takes (kept per function)."""
    function = getattr(agent, "__func__", agent)
    try:
        return _EXTRAS[function]
    except (KeyError, TypeError):
        pass
    wanted = _signature_extras(agent)
    try:
        if len(_EXTRAS) > 1024:
            _EXTRAS.clear()
        _EXTRAS[function] = wanted
    except TypeError:  # unhashable callable object
        pass
    return wanted


_EXTRAS: dict = {}


def _signature_extras(agent) -> tuple[str, ...]:
    try:
        parameters = inspect.signature(agent).parameters
    except (TypeError, ValueError):  # a builtin or C callable: obs and legal only
        return ()
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return AGENT_EXTRAS
    return tuple(name for name in AGENT_EXTRAS if name in parameters)


def as_answer(agent):
    """``agent(obs, legal, [decision=..., seat=..., rng=...]) -> action`` as a function of the
    strategy signature: it is handed the keywords among decision, seat and rng that it names
    (or all of them if it takes ``**kwargs``)."""
    wanted = _extras(agent)
    if not wanted:
        return lambda decision, seat, obs, legal, params, rng: agent(obs, legal)

    def answer(decision, seat, obs, legal, params, rng):
        given = {"decision": decision, "seat": seat, "rng": rng}
        return agent(obs, legal, **{name: given[name] for name in wanted})
    return answer
