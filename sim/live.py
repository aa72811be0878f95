"""A live game: one game played by its cached kernel in a coroutine (a greenlet), paused at every
decision of the seats driven from Python, so that a caller plays it one decision at a time.

This is the engine's step-by-step interface (the adapters, sim/adapters, are built on it). The
seats driven from Python (strategy ``None``) sit at the table as a Python agent (sim/agents.py):
when the kernel asks one of them, the callback switches back to the caller with the decision
and resumes when the caller answers; every other seat plays its strategy inside the kernel
(built-ins, a user's strategy, the search player). Nothing is replayed while a game goes on, so
a step costs the same at the start and at the end of a long game.

Why a greenlet and not a thread: both keep the kernel's C stack alive while Python decides, but
a thread hands over through the operating system (and the GIL) twice per decision: measured
here on Goofspiel, 13,000 decisions/s with two locks and a thread, 66,000/s with a greenlet
switch. A greenlet is switched only from the thread that made it: play a live game in one thread.

A game continued from its history (``history``: the action of every decision asked so far, in
order) is replayed inside the kernel by the decision controller (``new_ctl(plan=...,
replay=True)``, sim/core/control.py) up to the next decision: that is how a state is copied
(OpenSpiel's ``clone``). With ``redeal=(ask, seat, seed)`` the game redeals, before decision
``ask`` of ``seat``, everything that seat has not observed (the game's ``redeal`` hook): a world
resampled for that seat; another seat's hidden choice drawn again in that redeal is answered
at random from its own (redrawn) stream.

Determinism: the game's random streams come from (seed, game_index) exactly as in ``simulate``,
so a live game whose Python seats answer what a strategy would have answered plays the same game.
"""
from __future__ import annotations

import atexit
import weakref
from typing import NamedTuple

import numpy as np

from .core.header import H
from .errors import RunError, StrategyError
from .game import RECORD_WINNERS
from .games import get_game
from .rng import choose_legal, master_key
from .strategy import Strategy, resolve_seats

try:
    from greenlet import GreenletExit, getcurrent, greenlet
except ImportError:  # the rl extra: sim.adapters needs it, the rest of the engine does not
    greenlet = None

MAX_EVENTS = 8192
_OPEN: "weakref.WeakSet[LiveGame]" = weakref.WeakSet()  # games paused in their kernel


class Decision(NamedTuple):
    """A decision the game waits for. ``obs`` and ``legal`` are views of the kernel's memory,
    valid until the decision is answered: copy what you keep."""
    ask: int          # index of this decision among all the decisions asked in the game
    decision: int     # decision type (spec.decision_names)
    seat: int
    obs: tuple        # the game's Observation (NamedTuple of numpy arrays)
    legal: np.ndarray  # bool[n]: the legal mask


class _Channel:
    """What the kernel's callback and the caller share."""

    def __init__(self, redeal):
        self.kernel = None                  # the greenlet that plays the kernel
        self.answers: dict[int, int] = {}   # ask -> action, for replays after a search pause
        self.redeal = redeal
        self.ctl = None
        self.abandoned = False

    def answer(self, obs, legal, decision, seat, rng):
        """The Python seats' strategy, called by the kernel: hand the decision to the caller."""
        k = int(self.ctl[H.ASKS])
        if k in self.answers:
            return self.answers[k]
        if self.redeal is not None and k == self.redeal[0] and seat != self.redeal[1]:
            return choose_legal(legal, rng, 0)
        if self.abandoned:
            return int(np.argmax(legal))
        try:
            action = self.kernel.parent.switch(Decision(k, int(decision), int(seat), obs, legal))
        except GreenletExit:  # the game was closed or collected: end the kernel at once
            self.abandoned = True
            self.ctl[H.STOPPED] = 1
            return int(np.argmax(legal))
        self.answers[k] = action
        return action


class _Kernel(greenlet if greenlet is not None else object):
    """The greenlet that plays a live game's kernel; its channel answers the Python seats."""
    channel: _Channel


def _answer(obs, legal, decision, seat, rng):
    """The strategy of every seat played from Python: the live game being played answers."""
    return getcurrent().channel.answer(obs, legal, decision, seat, rng)


PYTHON = Strategy("python", agent=_answer)
_SEATS: dict = {}   # (game, rules, strategies) -> SeatPlan
_KEYS: dict = {}    # seed -> master key


def _seat_plan(spec, strategies, rules):
    key = (spec.name, rules, tuple(PYTHON if s is None else s for s in strategies))
    try:
        plan = _SEATS.get(key)
    except TypeError:  # an unhashable strategy: not kept
        return resolve_seats(spec, list(key[2]), rules.n_seats, rules)
    if plan is None:
        if len(_SEATS) > 256:
            _SEATS.clear()
        plan = _SEATS[key] = resolve_seats(spec, list(key[2]), rules.n_seats, rules)
    return plan


def _master_key(seed):
    if seed not in _KEYS:
        _KEYS[seed] = master_key(seed)
    return _KEYS[seed]


class LiveGame:
    """One game, played decision by decision.

    Parameters: the game, its rules (as in ``simulate``), ``strategies`` (one per seat: a
    strategy as in ``simulate``, or None for a seat driven from Python; default: every seat
    from Python), the master ``seed`` and the ``game_index`` whose random streams it plays,
    ``history`` (actions of the decisions already taken) and ``redeal`` (see the module);
    ``args``: the rules' kernel arguments when the caller keeps them (``rules.kernel_args()``).

    ``pending`` is the decision the game waits for (None once it is over); ``play(action)``
    answers it and returns the next one. ``history``, ``events()``, ``winners`` and
    ``record`` say what happened.
    """

    def __init__(self, game, rules=None, strategies=None, seed: int = 0, game_index: int = 0, *,
                 history=(), redeal=None, max_events: int = MAX_EVENTS, args=None):
        from .runner import as_rules

        self.spec = get_game(game)
        self.rules = as_rules(self.spec, rules)
        n = self.rules.n_seats
        if strategies is None:
            strategies = [None] * n
        strategies = list(strategies)
        if len(strategies) != n:
            raise StrategyError(f"{len(strategies)} strategies given for {n} seats; give one per "
                                "seat (None: a seat played from Python)")
        self._channel = channel = _Channel(redeal)
        self.python_seats = tuple(s for s, strategy in enumerate(strategies) if strategy is None)
        self.seats = _seat_plan(self.spec, strategies, self.rules)
        if redeal is not None and self.seats.searching:
            raise StrategyError("a resampled world (redeal) cannot seat the search player")
        self.seed, self.game_index = seed, int(game_index)
        self.history = [int(a) for a in history]
        plan = list(enumerate(self.history))
        options = {"plan": plan, "replay": True}
        if redeal is not None:
            options.update(redeal_at=int(redeal[0]), seed=int(redeal[2]))
        channel.ctl = self.seats.controller(self.spec, **options)
        # not zeroed: the kernel sets the count log[0, 0] and writes the rows up to it
        self.log = np.empty((max_events, self.spec.kernel.LOG_WIDTH), np.int64)
        self.out = None
        self.pending: Decision | None = None
        if greenlet is None:
            raise RunError("a live game needs greenlet: pip install 'balance-toolkit[rl]'")
        args = (self.spec, args if args is not None else self.rules.kernel_args(), self.seats,
                _master_key(seed), self.game_index, 1, self.log, channel.ctl)
        channel.kernel = _Kernel(lambda: _Finished(_play_kernel(*args)))
        channel.kernel.channel = channel
        _OPEN.add(self)
        self._resume(None)

    def _resume(self, action):
        """Run the kernel until its next Python decision or its end."""
        kernel = self._channel.kernel
        kernel.parent = getcurrent()  # the kernel comes back (or raises) to whoever resumed it
        step = kernel.switch(action) if action is not None else kernel.switch()
        if isinstance(step, _Finished):
            self.out, self.pending = step.out, None
            _OPEN.discard(self)
        else:
            self.pending = step
        if self.log[0, 0] >= len(self.log) - 1:
            self.close()
            raise RunError(f"the game logged more than {len(self.log) - 2} events, the live "
                           "game's log is full: pass a larger max_events")

    @property
    def over(self) -> bool:
        """True once the game is finished or closed."""
        return self.pending is None

    def play(self, action: int) -> Decision | None:
        """Answer the pending decision with ``action`` (it must be legal) and return the next
        decision the game waits for (None when the game is over)."""
        pending = self.pending
        if pending is None:
            raise StrategyError("the game is over: there is no decision to answer")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise StrategyError(f"an action is an integer, got {action!r}")
        action = int(action)
        if not (0 <= action < len(pending.legal) and pending.legal[action]):
            raise StrategyError(f"action {action} is not legal for seat {pending.seat} at "
                                f"{self.decision_name(pending.decision)} (legal: "
                                f"{np.flatnonzero(pending.legal).tolist()})")
        self.history.append(action)
        self.pending = None
        self._resume(action)
        return self.pending

    def decision_name(self, decision: int) -> str:
        names = self.spec.decision_names
        return names[decision] if 0 <= decision < len(names) else f"decision {decision}"

    def events(self) -> np.ndarray:
        """The event log so far (a copy): one row per event, (event, round, seat, ...)."""
        return self.log[1:1 + int(self.log[0, 0])].copy()

    @property
    def winners(self) -> int:
        """Bitmask of the seats sharing the win (0: nobody); -1 while the game goes on."""
        return int(self.out[0, RECORD_WINNERS]) if self.out is not None else -1

    def shares(self) -> np.ndarray:
        """Each seat's share of the win (1/k for k co-winners), zeros while the game goes on."""
        n = self.rules.n_seats
        w = max(self.winners, 0)
        won = np.array([(w >> s) & 1 for s in range(n)], np.float64)
        return won / won.sum() if won.sum() else won

    @property
    def record(self) -> dict | None:
        """The game's record row (as ``play_one`` returns it), None while it goes on."""
        if self.out is None:
            return None
        from .results import records_frame

        return records_frame(self.spec, self.rules.n_seats, self.out, self.game_index).iloc[0].to_dict()

    def close(self) -> None:
        """Abandon the game: its kernel ends at once (also when the game is collected)."""
        kernel = self._channel.kernel
        if self.out is None and kernel is not None and not kernel.dead:
            kernel.parent = getcurrent()
            kernel.throw()  # the kernel ends the game at once (its record is not kept)
        self.pending = None
        _OPEN.discard(self)

    def __del__(self):
        try:
            self.close()
        except Exception:  # collected in another thread: greenlet ends it when it can
            pass


@atexit.register
def _close_open_games():
    """End every paused kernel while the interpreter still runs (a greenlet killed during the
    interpreter's shutdown would resume a kernel that has no thread state to return to)."""
    for game in list(_OPEN):
        try:
            game.close()
        except Exception:
            pass


class _Finished(NamedTuple):
    out: np.ndarray


def _play_kernel(*args):
    from .runner import play_kernel

    return play_kernel(*args)
