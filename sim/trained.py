"""Trained policies as seats: policy files, the shipped ones, and ``-s trained[:FILE]``.

A trained policy (sim/core/policy.py) is a weight vector per decision type over the game's
features (games/<game>/strategies.py: ``features``, ``N_FEATURES``). Its file is JSON::

    {"format": "balance-policy/1", "game": "parthian", "n_players": 4, "variant": {...},
     "features": 16, "feature_code": "<hash of the game's strategies module>",
     "temperature": 0.0, "weights": [[w_0 ... w_15] per decision type],
     "provenance": {"method": ..., "seed": ..., "version": ..., ...}}

A policy with hidden units (``balance train --hidden H``) adds ``"hidden": H`` and H x (features
+ 2) numbers to every row of weights (sim/core/policy.py says what they are).

``-s trained:FILE`` seats a file; a plain ``-s trained`` seats the shipped policy that fits the
variant (<game>-<n>p.json, or <game>.json for a game with one count, in the game's policies
folder: games/<game>/policies/, or <package>/policies/ for a plugin game),
``balance train`` writes new ones. A file trained against other features (another
``feature_code``) is refused: the weights would mean something else; so is one trained for
another player count (``n_players``) than the table's: it would play, but the game it learnt
is another. The seats themselves are
made in sim/strategy.py (``trained_player``, ``trained_from_file``), which reads this module.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import math
from pathlib import Path

import numpy as np

from .core.policy import FEATURES, HIDDEN, TEMPERATURE, WEIGHTS
from .errors import StrategyError
from .game import GameSpec
from .games import home, strategies_module

FORMAT = "balance-policy/1"


def n_features(spec: GameSpec) -> int:
    """Features per action the game declares (0: none, no trained policy possible)."""
    return int(getattr(_strategies_module(spec), "N_FEATURES", 0))


def feature_code(spec: GameSpec) -> str:
    """A hash of the game's feature function's source: a policy is only valid with it."""
    function = getattr(_strategies_module(spec), "features", None)
    if function is None:
        return ""
    source = inspect.getsource(getattr(function, "py_func", function))
    return hashlib.sha1(source.encode()).hexdigest()[:12]


def _strategies_module(spec: GameSpec):
    return strategies_module(spec)


def no_features(spec: GameSpec) -> str:
    """The reason a game has no trained policy, with where to declare its features."""
    return (f"{spec.title} declares no features ({home(spec).strategies}: N_FEATURES, features, "
            "and features= in core.register; docs/training.md says how)")


def block_width(n_features: int, hidden: int) -> int:
    """Numbers per decision type: the linear weights, then per hidden unit its input weights,
    bias and output weight (sim/core/policy.py)."""
    return n_features + hidden * (n_features + 2)


def hidden_units(width: int, n_features: int) -> int | None:
    """The hidden units a row of ``width`` numbers holds, or None if no count fits."""
    extra = width - n_features
    if n_features <= 0 or extra < 0 or extra % (n_features + 2):
        return None
    return extra // (n_features + 2)


def widen(weights, n_features: int, hidden: int, seed: int = 0) -> np.ndarray:
    """A linear policy's weights (decision types x features) with ``hidden`` units added that
    change nothing yet: output weights 0, input weights small and seeded (all zero, a unit's
    output weight would move no score, so a search would see no slope to climb)."""
    weights = np.asarray(weights, float)
    have = hidden_units(weights.shape[1], n_features)
    if have == hidden:
        return weights.copy()
    if have != 0:
        raise StrategyError(f"only a linear policy can be given hidden units; these weights "
                            f"already have {have}")
    rng = np.random.default_rng(seed)
    units = np.zeros((weights.shape[0], hidden, n_features + 2))
    units[:, :, :n_features] = rng.normal(0.0, 1.0 / math.sqrt(n_features),
                                          (weights.shape[0], hidden, n_features))
    return np.concatenate([weights, units.reshape(weights.shape[0], -1)], axis=1)


def scores(row, phi) -> np.ndarray:
    """The kernel's scores (sim/core/policy.py) computed with numpy for one decision type's
    ``row`` of weights over features ``phi[..., F]``: for exact measures that enumerate every
    information state (Leduc poker's NashConv) rather than play."""
    row, phi = np.asarray(row, float), np.asarray(phi, float)
    f = phi.shape[-1]
    hidden = hidden_units(row.shape[0], f)
    if hidden is None:
        raise StrategyError(f"a row of {row.shape[0]} weights fits no policy over {f} features")
    units = row[f:].reshape(hidden, f + 2)
    return phi @ row[:f] + np.tanh(phi @ units[:, :f].T + units[:, f]) @ units[:, f + 1]


def parameters(spec: GameSpec, weights, temperature: float = 0.0) -> tuple[float, ...]:
    """A trained seat's parameter array from weights[decision type][...]: F features' weights,
    then, with hidden units, each unit's block (``block_width``)."""
    weights = np.asarray(weights, float)
    d, f = len(spec.decision_names or ("decision",)), n_features(spec)
    if f == 0:
        raise StrategyError(f"{no_features(spec)}: it has no trained policy yet")
    hidden = hidden_units(weights.shape[1], f) if weights.ndim == 2 else None
    if weights.ndim != 2 or weights.shape[0] != d or hidden is None:
        raise StrategyError(f"a {spec.title} policy has {d} x {f} weights (decision types x "
                            f"features), or {d} x ({f} + H x {f + 2}) with H hidden units; got "
                            f"{weights.shape}")
    if not temperature >= 0:
        raise StrategyError(f"temperature must be >= 0, got {temperature}")
    values = np.zeros(WEIGHTS + weights.size)
    values[TEMPERATURE], values[FEATURES], values[HIDDEN] = temperature, f, hidden
    values[WEIGHTS:] = weights.ravel()
    # No cap at spec.n_strategy_params: sim.strategy.resolve_seats makes the parameter rows as
    # wide as the longest seat's (a policy, a script, a field), so any number of weights fits.
    return tuple(float(v) for v in values)


def weights_of(spec: GameSpec, params) -> np.ndarray:
    """A trained seat's weights (decision types x block) from its parameters (``parameters``'s
    inverse)."""
    return np.asarray(params[WEIGHTS:], float).reshape(len(spec.decision_names or ("decision",)),
                                                       -1)


def save(path, spec: GameSpec, weights, n_players: int, variant: dict, provenance: dict,
         temperature: float = 0.0) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    hidden = hidden_units(np.asarray(weights).shape[1], n_features(spec))
    body = {"format": FORMAT, "game": spec.name, "n_players": int(n_players),
            "variant": variant, "features": n_features(spec), "feature_code": feature_code(spec),
            "temperature": float(temperature), **({"hidden": hidden} if hidden else {}),
            "weights": [[round(float(w), 6) for w in row] for row in np.asarray(weights)],
            "provenance": provenance}
    path.write_text(json.dumps(body, indent=1) + "\n")
    return path


def load(path, spec: GameSpec, n_players: int | None = None) -> dict:
    """The body of the policy file at ``path``, checked: any file that is not a policy for this
    game's features raises a StrategyError naming the file and the key at fault; with
    ``n_players``, so does a policy trained for another player count."""
    path = Path(path)
    name = f"policy file {str(path)!r}"
    if path.is_dir():
        raise StrategyError(f"{name} is a folder; give the policy's .json file")
    if not path.is_file():
        raise StrategyError(f"{name} not found")
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as failure:
        raise StrategyError(f"{name} is not a policy (JSON): {failure}") from None
    except OSError as failure:
        raise StrategyError(f"{name} cannot be read: {failure.strerror or failure}") from None
    if not isinstance(body, dict):
        raise StrategyError(f"{name} holds a JSON {type(body).__name__}, not a policy object "
                            f'{{"format": "{FORMAT}", "weights": [...], ...}}; write one with '
                            f"`balance train {spec.name}`")
    if body.get("format") != FORMAT:
        raise StrategyError(f"{name}: format {_short(body.get('format'))}, expected {FORMAT!r}")
    if body.get("game") != spec.name:
        raise StrategyError(f"{name} is for {_short(body.get('game'))}, not {spec.name!r}")
    if body.get("feature_code") != feature_code(spec):
        raise StrategyError(f"{name} was trained on other {spec.title} features "
                            f"({home(spec).strategies} changed since): retrain it with "
                            f"`balance train {spec.name}`")
    _check_weights(body, spec, name)
    temperature = body.get("temperature", 0.0)
    if not _is_number(temperature) or not temperature >= 0:
        raise StrategyError(f"{name}: 'temperature' is {_short(temperature)}; it must be a "
                            "number >= 0 (0 plays the best-scored action)")
    check_players(body, name, n_players, f"`balance train {spec.name} --players {n_players}`")
    return body


def stored_players(body: dict) -> int | None:
    """The player count a policy or field file was made for: its 'n_players', else its variant's
    or provenance's (files written before the key); None where none says."""
    for where in (body, body.get("variant"), body.get("provenance")):
        count = where.get("n_players") if isinstance(where, dict) else None
        if isinstance(count, int) and not isinstance(count, bool) and count > 0:
            return count
    return None


def check_players(body: dict, name: str, n_players: int | None, remedy: str) -> None:
    """Refuse a file made for another player count than the table's: its features read the
    same at any count, so it would play, but as a policy (or field) of another game."""
    count = body.get("n_players")
    if count is not None and not (isinstance(count, int) and not isinstance(count, bool)
                                  and count > 0):
        raise StrategyError(f"{name}: 'n_players' is {_short(count)}; it must be a whole number "
                            ">= 1 (the player count the file was made for)")
    made = stored_players(body)
    if n_players is not None and made is not None and made != n_players:
        raise StrategyError(f"{name} was made for {made} players, not the {n_players} this table "
                            f"seats; give a {n_players}-player file (make one with {remedy})")


def _is_number(value) -> bool:
    """A finite JSON number (Python's json reads NaN and Infinity; true is no number here)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:   # an integer beyond any float
        return False


def _check_weights(body: dict, spec: GameSpec, name: str) -> None:
    """'weights' is a (decision types x features) matrix of finite numbers, or with 'hidden': H
    units, H x (features + 2) more a row: a NaN weight would make every score NaN, and the seat
    would answer no legal action."""
    d, f = len(spec.decision_names or ("decision",)), n_features(spec)
    if f == 0:
        raise StrategyError(f"{name}: {no_features(spec)}, so it has no trained policy")
    hidden = body.get("hidden", 0) if isinstance(body, dict) else 0
    if isinstance(hidden, bool) or not isinstance(hidden, int) or hidden < 0:
        raise StrategyError(f"{name}: 'hidden' is {_short(hidden)}; it must be a whole number "
                            ">= 0 (the hidden units per decision type)")
    width = block_width(f, hidden)
    shape = f"{d} list(s) of {width} numbers, one list per decision type" + (
        f" ({f} features + {hidden} hidden units x {f + 2})" if hidden else "")
    if "weights" not in body:
        raise StrategyError(f"{name} has no 'weights' key; a {spec.title} policy's weights are "
                            f"{shape}")
    weights = body["weights"]
    if not isinstance(weights, list) or len(weights) != d or \
            not all(isinstance(row, list) and len(row) == width for row in weights):
        raise StrategyError(f"{name}: 'weights' must be {shape}; got {_shown(weights)}")
    for i, row in enumerate(weights):
        for j, value in enumerate(row):
            if not _is_number(value):
                raise StrategyError(f"{name}: 'weights'[{i}][{j}] is {_short(value)}; every "
                                    "weight must be a finite number")


def _shown(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _short(value) -> str:
    """A value as Python writes it, cut for a one-line message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def shipped_path(spec: GameSpec, n_players: int | None) -> Path | None:
    """The shipped policy for this player count, if any."""
    folder = home(spec).policies
    candidates = [folder / f"{spec.name}-{n_players}p.json"] if n_players else []
    candidates.append(folder / f"{spec.name}.json")
    return next((p for p in candidates if p.is_file()), None)


def shipped_policies(spec: GameSpec) -> dict[int | None, Path]:
    """Every shipped policy of the game, by player count (None: the file for any count)."""
    found: dict[int | None, Path] = {}
    folder = home(spec).policies
    for path in sorted(folder.glob(f"{spec.name}-*p.json")):
        count = path.stem[len(spec.name) + 1:-1]
        if count.isdigit():
            found[int(count)] = path
    general = folder / f"{spec.name}.json"
    if general.is_file():
        found[None] = general
    return dict(sorted(found.items(), key=lambda item: (item[0] is None, item[0] or 0)))
