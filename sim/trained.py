"""Trained policies as seats: policy files, the shipped ones, and ``-s trained[:FILE]``.

A trained policy (sim/core/policy.py) is a weight vector per decision type over the game's
features (strategies/<game>.py: ``features``, ``N_FEATURES``). Its file is JSON::

    {"format": "balance-policy/1", "game": "parthian", "n_players": 4, "variant": {...},
     "features": 16, "feature_code": "<hash of the game's strategies module>",
     "temperature": 0.0, "weights": [[w_0 ... w_15] per decision type],
     "provenance": {"method": ..., "seed": ..., "version": ..., ...}}

``-s trained:FILE`` seats a file; a plain ``-s trained`` seats the shipped policy that fits the
variant (strategies/policies/<game>-<n>p.json, or <game>.json for a game with one count),
``balance train`` writes new ones. A file trained against other features (another
``feature_code``) is refused: the weights would mean something else. The seats themselves are
made in sim/strategy.py (``trained_player``, ``trained_from_file``), which reads this module.
"""
from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

import numpy as np

from .core.policy import FEATURES, TEMPERATURE, WEIGHTS
from .errors import StrategyError
from .game import GameSpec

FORMAT = "balance-policy/1"
SHIPPED = Path(__file__).resolve().parent.parent / "strategies" / "policies"


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
    import importlib

    return importlib.import_module(f"strategies.{spec.name}")


def parameters(spec: GameSpec, weights, temperature: float = 0.0) -> tuple[float, ...]:
    """A trained seat's parameter array from weights[decision type][feature]."""
    weights = np.asarray(weights, float)
    d, f = len(spec.decision_names or ("decision",)), n_features(spec)
    if f == 0:
        raise StrategyError(f"{spec.title} declares no features (strategies/{spec.name}.py: "
                            "N_FEATURES, features): it has no trained policy yet")
    if weights.shape != (d, f):
        raise StrategyError(f"a {spec.title} policy has {d} x {f} weights (decision types x "
                            f"features), got {weights.shape}")
    if not temperature >= 0:
        raise StrategyError(f"temperature must be >= 0, got {temperature}")
    values = np.zeros(WEIGHTS + d * f)
    values[TEMPERATURE], values[FEATURES] = temperature, f
    values[WEIGHTS:] = weights.ravel()
    if len(values) > spec.n_strategy_params:
        raise StrategyError(f"{spec.title}: {len(values)} policy parameters do not fit in "
                            f"{spec.n_strategy_params}")
    return tuple(float(v) for v in values)


def save(path, spec: GameSpec, weights, n_players: int, variant: dict, provenance: dict,
         temperature: float = 0.0) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"format": FORMAT, "game": spec.name, "n_players": int(n_players),
            "variant": variant, "features": n_features(spec), "feature_code": feature_code(spec),
            "temperature": float(temperature),
            "weights": [[round(float(w), 6) for w in row] for row in np.asarray(weights)],
            "provenance": provenance}
    path.write_text(json.dumps(body, indent=1) + "\n")
    return path


def load(path, spec: GameSpec) -> dict:
    path = Path(path)
    if not path.is_file():
        raise StrategyError(f"policy file {str(path)!r} not found")
    try:
        body = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as failure:
        raise StrategyError(f"policy file {str(path)!r} is not a policy (JSON): {failure}") from None
    if body.get("format") != FORMAT:
        raise StrategyError(f"policy file {str(path)!r}: format {body.get('format')!r}, "
                            f"expected {FORMAT!r}")
    if body.get("game") != spec.name:
        raise StrategyError(f"policy file {str(path)!r} is for {body.get('game')!r}, not "
                            f"{spec.name!r}")
    if body.get("feature_code") != feature_code(spec):
        raise StrategyError(f"policy file {str(path)!r} was trained on other {spec.title} "
                            "features (strategies/" + spec.name + ".py changed since): retrain "
                            f"it with `balance train {spec.name}`")
    return body


def shipped_path(spec: GameSpec, n_players: int | None) -> Path | None:
    """The shipped policy for this player count, if any."""
    candidates = [SHIPPED / f"{spec.name}-{n_players}p.json"] if n_players else []
    candidates.append(SHIPPED / f"{spec.name}.json")
    return next((p for p in candidates if p.is_file()), None)
