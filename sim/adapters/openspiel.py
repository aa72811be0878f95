"""Every registered game as an OpenSpiel Python game: ``python_balance_<game>`` (docs/adapters.md).

    import pyspiel
    import sim.adapters.openspiel            # registers every game with pyspiel
    game = pyspiel.load_game("python_balance_kuhn")
    game = pyspiel.load_game("python_balance_goofspiel", {"num_cards": 6, "returns": "points"})

The game's parameters are its rule options (an option whose default is None takes "" for
None; a list takes its values separated by ";", e.g. "12;10;8": a comma would end the value
in OpenSpiel's game string) and three of the adapter's:

- ``deals`` (default 0): the first node of every game is one chance node that decides every
  chance event of the game (the deal, the deck order, ...). With 0, where the game lists its
  variant's deals (``spec.deals``: Kuhn poker's 6 card orders, Goofspiel's prize orders up to
  8 cards) and there are at most 65,536 of them, its outcomes are those deals with their exact
  probabilities: the adapter's game is then exactly the game. Otherwise (or with ``deals`` = N)
  it has N (65,536) equally likely outcomes, outcome d playing the random streams of game d of
  the master seed (sim/rng.py): a sample of the deals. The kernels draw chance from their
  streams, so the adapter cannot show each draw as a node of its own (docs/adapters.md);
- ``seed`` (default 0): the master seed;
- ``returns`` (default "win"): a seat's return at the end: its share of the win (1/k for k
  co-winners, 0 otherwise), or a seat column the game declares a score (``spec.payoffs``:
  Kuhn poker's ``payoff``, Goofspiel's ``points``), with the game's declared bounds.

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
its history inside the kernel. A clone carries the deal, the game's whole future chance with
it: an algorithm that searches a state without resampling it sees what is to come.
"""
from __future__ import annotations

import dataclasses
import hashlib

import numpy as np
import pyspiel

from ..core.header import MAX_SEATS
from ..errors import BalanceError, RunError, StrategyError
from ..game import OWNER, PUBLIC
from ..games import game_names, get_game
from .table import Table

PREFIX = "python_balance_"
DEFAULTS = {"deals": 0, "seed": 0, "returns": "win"}
STREAM_DEALS = 1 << 16     # deals=0 in a game that does not list its deals (or lists more)
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


def _table(name: str, params: dict) -> tuple[Table, "Chance", dict]:
    """The Table and Chance of these parameters (one per process and parameters), and the
    parameters."""
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
        table = Table(name, options, str(full["returns"]))
        _TABLES[key] = table, Chance(table, int(full["deals"]))
    return (*_TABLES[key], full)


class Chance:
    """The root chance node (see the module): the variant's listed deals, each with its
    probability, or ``count`` equally likely stream deals."""

    def __init__(self, table: Table, deals: int):
        if not 0 <= deals <= 1 << 24:
            raise RunError(f"deals={deals}: choose 0 (the game's own deals where it lists them) "
                           f"or 1 .. {1 << 24} stream deals")
        listed = None
        if deals == 0 and table.spec.deals is not None:
            listed = table.spec.deals(table.rules, STREAM_DEALS)
        self.table, self.listed = table, listed
        self.count = len(listed) if listed is not None else (deals or STREAM_DEALS)
        self._listed_outcomes = None
        if listed is not None:
            self._listed_outcomes = [(d, float(p)) for d, (_, p) in enumerate(listed)]
            if abs(sum(p for _, p in self._listed_outcomes) - 1.0) > 1e-9:
                raise RunError(f"{table.spec.title}'s listed deals have probabilities that do "
                               "not sum to 1 (spec.deals)")
        self._deals: dict = {}

    def outcomes(self) -> list:
        """(outcome, probability) of every deal (stream deals: made on demand, up to 2^24)."""
        if self._listed_outcomes is not None:
            return self._listed_outcomes
        p = 1.0 / self.count
        return [(d, p) for d in range(self.count)]

    def deal(self, outcome: int):
        """(rules, kernel args) of a listed deal; None for a stream deal (the table's own)."""
        if self.listed is None:
            return None
        if outcome not in self._deals:
            rules = dataclasses.replace(self.table.rules, **self.listed[outcome][0])
            self._deals[outcome] = rules, rules.kernel_args()
        return self._deals[outcome]


def _utility(total) -> pyspiel.GameType.Utility:
    kinds = pyspiel.GameType.Utility
    if total is None:
        return kinds.GENERAL_SUM
    return kinds.ZERO_SUM if total == 0 else kinds.CONSTANT_SUM


def game_type(name: str, utility=pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    spec = get_game(name)
    return pyspiel.GameType(
        short_name=PREFIX + name, long_name=f"balance-toolkit {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
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
        self.table, self.chance, self.full_params = _table(name, dict(params or {}))
        low, high = self.table.utility_range()
        total = self.table.utility_sum()
        info = pyspiel.GameInfo(num_distinct_actions=self.table.n_actions,
                                max_chance_outcomes=self.chance.count,
                                num_players=self.table.n_seats, min_utility=low, max_utility=high,
                                utility_sum=total, max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type(name, _utility(total)), info, self.full_params)
        self.seed = int(self.full_params["seed"])
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

    def __init__(self, table: Table, chance: Chance, key, seed: int):
        self.table, self.chance, self.key, self.seed = table, chance, key, seed
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
        state.pop("table"), state.pop("chance"), state.pop("live")
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.table, self.chance, _ = _table(*self.key)
        self.live = None

    # --- playing --------------------------------------------------------------------------

    def start(self, redeal=None):
        """A live game of this deal, replayed up to this state's decisions."""
        return self.table.live(self.seed, self.deal, history=self.history, redeal=redeal,
                               deal=self.chance.deal(self.deal))

    def ensure_live(self):
        if self.live is None:
            self.live = self.start(self.redeal)
            if self.live.pending is None or self.live.pending.ask != len(self.history):
                raise RunError("a replayed history did not reach the same decision")
        return self.live

    def apply(self, action: int):
        """Play ``action``; an action that cannot be played is refused before anything of the
        state changes (so that its clones and serializations stay valid)."""
        action = int(action)
        if self.current == pyspiel.PlayerId.TERMINAL:
            raise StrategyError(f"the game is over: action {action} cannot be applied to a "
                                "terminal state")
        if self.current == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < self.chance.count:
                raise StrategyError(f"chance outcome {action} is not one of the deals "
                                    f"0..{self.chance.count - 1}")
            self.deal = action
            self.live = self.start()
        else:
            if action not in self.legal:
                raise StrategyError(f"action {action} is not legal for player {self.current} "
                                    f"(legal: {self.legal})")
            self.ensure_live().play(action)
            name = self.table.spec.decision_names
            label = name[self.decision] if self.decision < len(name) else str(self.decision)
            self.tokens[self.current].append(f"{label}={action}")
            self.history.append(action)
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
        self._pos = Position(game.table, game.chance, game._key, game.seed)

    def current_player(self):
        return self._pos.current

    def _legal_actions(self, player):
        return list(self._pos.legal)

    def chance_outcomes(self):
        return self._pos.chance.outcomes()

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
            live = pos.start(pos.redeal)
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
        resampled.live = resampled.start(resampled.redeal)
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
    """The information state: a string only (see the module). There is no tensor: a perfect
    recall vector grows with the game, and none of the games bounds its length; the game type
    says so (provides_information_state_tensor=False) and asking for one raises, as it does in
    OpenSpiel's own games without one."""

    def __init__(self, table: Table):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        raise pyspiel.SpielError("InformationStateTensor unimplemented: the balance-toolkit games "
                                 "give an information state string and an observation tensor")

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
        except (ImportError, BalanceError):  # a game (a plugin) that does not load: the
            continue                           # others still register; sim.games says why
        done.append(name)
    return done


REGISTERED = _register_all()
