"""Every registered game as an OpenSpiel Python game: ``python_balance_<game>`` (docs/adapters.md).

    import pyspiel
    import sim.adapters.openspiel            # registers every game with pyspiel
    game = pyspiel.load_game("python_balance_kuhn")
    game = pyspiel.load_game("python_balance_goofspiel", {"num_cards": 6, "returns": "points"})

The game's parameters are its rule options (an option whose default is None takes "" for
None; a list takes its values separated by ";", e.g. "12;10;8": a comma would end the value
in OpenSpiel's game string) and three of the adapter's:

- ``deals`` (default 65,536): the first node of every game is a chance node with this many
  equally likely outcomes; outcome d plays the random streams of game d of the master seed
  (sim/rng.py), which decide every chance event of the game (the deal, the deck order, ...).
  The kernels draw chance from their streams, so the adapter cannot show each draw as a node of
  its own;
- ``seed`` (default 0): the master seed;
- ``returns`` (default "win"): a seat's return at the end: its share of the win (1/k for k
  co-winners, 0 otherwise), or the name of a seat column of the game's record (Kuhn poker's
  ``payoff``, Goofspiel's ``points``).

After the deal every node is one decision the kernel asks (forced moves are played without
asking, as everywhere in the engine). The observation tensor is the flat vector of what the
seat's strategy is handed (sim.adapters.table), the one it was handed at its latest decision;
the observation string is the same, readable. The information state string is perfect recall:
every logged event the seat saw (``spec.event_visibility``), its own decisions in order, and a
digest of its latest observation. ``resample_from_infostate(player)`` (what OpenSpiel's
``ISMCTSBot`` asks for) uses the game's own redeal: the state is replayed with everything that
seat has not observed drawn again (sim/live.py), once per state (a resampled state cannot be
resampled again). States play through the engine's live game (a greenlet), so
``apply_action`` steps the kernel; ``clone()`` is free until the copy is stepped, which replays
its history inside the kernel.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pyspiel

from ..core.header import MAX_SEATS
from ..errors import RunError, StrategyError
from ..game import OWNER, PUBLIC
from ..games import game_names, get_game
from .table import Table

PREFIX = "python_balance_"
DEFAULTS = {"deals": 1 << 16, "seed": 0, "returns": "win"}
MAX_GAME_LENGTH = 1 << 16  # decisions of one game; none of the games declares a bound
_TABLES: dict = {}


def _option_default(value):
    if value is None:
        return ""
    if isinstance(value, (tuple, list)):  # ";": a comma would end the value in a game string
        return ";".join(map(str, value))
    return value


def parameters(game: str) -> dict:
    """The pyspiel parameters of ``python_balance_<game>`` with their defaults."""
    spec = get_game(game)
    options = {name: _option_default(f.default) for name, f in spec.rules_class.options().items()}
    clash = set(options) & set(DEFAULTS)
    if clash:
        raise RunError(f"{spec.title}'s options {sorted(clash)} clash with the OpenSpiel "
                       "adapter's own parameters")
    return {**options, **DEFAULTS}


def _table(name: str, params: dict) -> tuple[Table, dict]:
    """The Table of these parameters (one per process and parameters), and the parameters."""
    defaults = parameters(name)
    unknown = set(params) - set(defaults)
    if unknown:
        raise RunError(f"unknown parameters {sorted(unknown)} for {PREFIX}{name}; "
                       f"allowed: {', '.join(defaults)}")
    full = {**defaults, **params}
    key = (name, tuple(sorted((k, str(v)) for k, v in full.items())))
    if key not in _TABLES:
        options = {k: str(v).replace(";", ",") for k, v in full.items()
                   if k not in DEFAULTS and v != defaults[k]}
        _TABLES[key] = Table(name, options, str(full["returns"]))
    return _TABLES[key], full


def game_type(name: str) -> pyspiel.GameType:
    spec = get_game(name)
    return pyspiel.GameType(
        short_name=PREFIX + name, long_name=f"balance-toolkit {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_SEATS, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters(name))


class BalanceGame(pyspiel.Game):
    """One game of this toolkit, its variant given by the pyspiel parameters; subclassed per
    game (``NAME``) by :func:`register`."""

    NAME = ""

    def __init__(self, params=None):
        name = self.NAME
        self.table, self.full_params = _table(name, dict(params or {}))
        deals = int(self.full_params["deals"])
        if not 1 <= deals <= 1 << 24:
            raise RunError(f"deals={deals}: choose 1 .. {1 << 24}")
        low, high = self.table.utility_range()
        info = pyspiel.GameInfo(num_distinct_actions=self.table.n_actions,
                                max_chance_outcomes=deals, num_players=self.table.n_seats,
                                min_utility=low, max_utility=high, utility_sum=None,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type(name), info, self.full_params)
        self.deals, self.seed = deals, int(self.full_params["seed"])
        self._key = (name, dict(params or {}))

    def new_initial_state(self):
        return BalanceState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise RunError(f"observer parameters are not supported, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return InfoStateObserver(self.table) if recall else ObservationObserver(self.table)


class Position:
    """The Python side of a state: the deal, the decisions taken, and the live game that plays
    them (None in a copy until it is stepped: the copy then replays its history)."""

    def __init__(self, table: Table, key, seed: int, deals: int):
        self.table, self.key, self.seed, self.deals = table, key, seed, deals
        self.deal: int | None = None
        self.history: list[int] = []
        self.redeal = None
        self.live = None
        self.current = pyspiel.PlayerId.CHANCE
        self.decision = 0
        self.legal: list[int] = []
        n = table.n_seats
        self.vectors: list = [None] * n          # each seat's latest flat observation
        self.tokens: list[list[str]] = [[] for _ in range(n)]  # what each seat has seen
        self.events_seen = 0
        self.returns = None
        self.resamples = 0

    def __deepcopy__(self, memo):
        copy = Position.__new__(Position)
        copy.__dict__.update(self.__dict__)
        copy.history = list(self.history)
        copy.legal = list(self.legal)
        copy.vectors = list(self.vectors)
        copy.tokens = [list(t) for t in self.tokens]
        copy.live, copy.resamples = None, 0
        return copy

    def __getstate__(self):  # OpenSpiel's serialize: the live game and the table are rebuilt
        state = dict(self.__dict__)
        state.pop("table"), state.pop("live")
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.table = _table(*self.key)[0]
        self.live = None

    # --- playing --------------------------------------------------------------------------

    def ensure_live(self):
        if self.live is None:
            self.live = self.table.live(self.seed, self.deal, history=self.history,
                                        redeal=self.redeal)
            if self.live.pending is None or self.live.pending.ask != len(self.history):
                raise RunError("a replayed history did not reach the same decision")
        return self.live

    def apply(self, action: int):
        if self.current == pyspiel.PlayerId.CHANCE:
            self.deal = int(action)
            self.live = self.table.live(self.seed, self.deal)
        else:
            live = self.ensure_live()
            name = self.table.spec.decision_names
            label = name[self.decision] if self.decision < len(name) else str(self.decision)
            self.tokens[self.current].append(f"{label}={action}")
            self.history.append(int(action))
            live.play(int(action))
        self.sync()

    def sync(self):
        """Read what the live game says now: new events, the next decision or the end."""
        live, table = self.live, self.table
        events = live.log[1:1 + int(live.log[0, 0])]
        visibility = table.spec.event_visibility
        tokens, n_seats = self.tokens, table.n_seats
        for row in events[self.events_seen:].tolist():
            seen = visibility[row[0]] if row[0] < len(visibility) else PUBLIC
            if seen == PUBLIC:
                token = str(row)
                for seat_tokens in tokens:
                    seat_tokens.append(token)
            elif seen == OWNER and 0 <= row[2] < n_seats:
                tokens[row[2]].append(str(row))
        self.events_seen = len(events)
        pending = live.pending
        if pending is None:
            self.returns = [float(r) for r in table.returns(live)]
            self.current, self.legal, self.live = pyspiel.PlayerId.TERMINAL, [], None
            return
        if len(self.history) + 1 >= MAX_GAME_LENGTH:
            raise RunError(f"a game longer than {MAX_GAME_LENGTH} decisions")
        self.current, self.decision = pending.seat, pending.decision
        self.legal = np.flatnonzero(pending.legal).tolist()
        self.vectors[pending.seat] = table.layout.flatten(pending.decision, pending.obs)

    # --- what players see -----------------------------------------------------------------

    def vector(self, player: int) -> np.ndarray:
        v = self.vectors[player]
        return v if v is not None else np.zeros(self.table.layout.size, self.table.layout.dtype)

    def info_state(self, player: int) -> str:
        digest = hashlib.blake2b(self.vector(player).tobytes(), digest_size=8).hexdigest()
        return f"p{player} " + " ".join(self.tokens[player]) + f" o{digest}"

    def observation_text(self, player: int) -> str:
        if self.vectors[player] is None:
            return f"p{player}: nothing handed yet"
        decision, obs = self.table.layout.unflatten(self.vectors[player])
        names = self.table.spec.decision_names
        label = names[decision] if decision < len(names) else f"decision {decision}"
        arrays = " ".join(f"{f}={np.array2string(a, threshold=10**9, max_line_width=10**9)}"
                          for f, a in zip(obs._fields, obs))
        return f"p{player} {label}: {arrays}"


class BalanceState(pyspiel.State):
    """A state of a balance-toolkit game (see the module)."""

    def __init__(self, game: BalanceGame):
        super().__init__(game)
        self._pos = Position(game.table, game._key, game.seed, game.deals)

    def current_player(self):
        return self._pos.current

    def _legal_actions(self, player):
        return list(self._pos.legal)

    def chance_outcomes(self):
        p = 1.0 / self._pos.deals
        return [(d, p) for d in range(self._pos.deals)]

    def _apply_action(self, action):
        self._pos.apply(action)

    def _action_to_string(self, player, action):
        return f"deal {action}" if player == pyspiel.PlayerId.CHANCE else f"action {action}"

    def is_terminal(self):
        return self._pos.current == pyspiel.PlayerId.TERMINAL

    def returns(self):
        return list(self._pos.returns) if self._pos.returns is not None else \
            [0.0] * self._pos.table.n_seats

    def __str__(self):
        pos = self._pos
        return f"deal={pos.deal} decisions={pos.history}" + (" (resampled)" if pos.redeal else "")

    def narrative(self) -> str:
        """The game's narrative so far (every event: a referee's view)."""
        pos = self._pos
        if pos.deal is None:
            return ""
        if pos.live is None:  # a copy, or a finished game: replay the history to read its log
            live = pos.table.live(pos.seed, pos.deal, history=pos.history, redeal=pos.redeal)
            text = pos.table.narrative(live)
            live.close()
            return text
        return pos.table.narrative(pos.live)

    def resample_from_infostate(self, player, sampler=None):
        """A state that ``player`` cannot tell from this one: everything it has not observed
        drawn again by the game's redeal (the sampler is not used: the draws come from the
        state's own deterministic sequence)."""
        pos = self._pos
        if player != pos.current:
            raise StrategyError(f"resample_from_infostate({player}): the engine redeals for the "
                                f"seat about to decide ({pos.current})")
        if pos.redeal is not None:
            raise StrategyError("a resampled state cannot be resampled again")
        pos.resamples += 1
        seed = (pos.deal * 1_000_003 + len(pos.history)) * 65_537 + pos.resamples
        copy = self.clone()
        resampled = copy._pos
        resampled.redeal = (len(pos.history), player, seed)
        resampled.live = pos.table.live(pos.seed, pos.deal, history=pos.history,
                                        redeal=resampled.redeal)
        resampled.sync()
        return copy


class ObservationObserver:
    """The observation: the flat vector of the seat's latest observation, and its text."""

    def __init__(self, table: Table):
        self.tensor = np.zeros(table.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state._pos.vector(player)

    def string_from(self, state, player):
        return state._pos.observation_text(player)


class InfoStateObserver:
    """The information state: a string only (see the module)."""

    def __init__(self, table: Table):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state._pos.info_state(player)


def register(name: str) -> None:
    """Register ``python_balance_<name>`` with pyspiel (done for every game on import)."""
    if PREFIX + name in pyspiel.registered_names():
        return
    # A class, not a closure: pyspiel drops its reference after the interpreter has stopped,
    # and a closure freed then aborts the process (a class lives on in its own cycles).
    game_class = type(f"BalanceGame_{name}", (BalanceGame,), {"NAME": name})
    globals()[game_class.__name__] = game_class
    pyspiel.register_game(game_type(name), game_class)


def _register_all() -> list[str]:
    done = []
    for name in game_names():
        try:
            register(name)
        except ImportError:  # a game whose package does not import: listed by unregistered()
            continue
        done.append(name)
    return done


REGISTERED = _register_all()
