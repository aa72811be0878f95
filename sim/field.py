"""Strong fields as seats: field files, the shipped ones, and ``-s strong[:FILE]``.

A field is a population of strategies and a probability over them: the meta-strategy that an
equilibrium search (PSRO, analysis/field.py) settles on. Seated, it plays one member per game
and seat, drawn apart from the game's random streams (sim/core/mixture.py), so the same seed
gives the same table at any parallelism. A field file is JSON and holds its members whole, so
that the one file is the field (a run folder's digest of it covers every member)::

    {"format": "balance-field/1", "game": "sunzi", "n_players": 2, "variant": {...},
     "feature_code": "<hash of the game's features>",
     "members": [{"name": "counter", "probability": 0.25, "strategy": "counter"},
                 {"name": "psro-3", "probability": 0.75, "temperature": 0.0,
                  "weights": [[...] per decision type]}],
     "exploitability": {...}, "provenance": {...}}

A member is a built-in strategy by name (with ``"params"`` when a best response tuned its
knobs: analysis.training.tune_style) or a trained policy by its weights (sim/trained.py; with
``"hidden"`` when it has hidden units). The probabilities sum to 1 (PROBABILITY_TOLERANCE), and
a field seats only at the player count it was built for (``n_players``).
``-s strong`` seats the shipped field for the variant's player count
(<game>-<n>p.field.json, or <game>.field.json for any count, in the game's policies folder:
games/<game>/policies/ for a built-in game, <package>/policies/ for a plugin, sim/games.py), or
the one built for the variant itself where one is shipped (<game>[-<n>p].<tag>.field.json: a
field built in one mode of a game can lose in another; shipped_path); ``-s strong:FILE`` seats
a file.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from pathlib import Path

from . import trained
from .core import mixture
from .core.state import TRAINED
from .errors import StrategyError
from .game import GameSpec
from .games import home

FORMAT = "balance-field/1"
SUFFIX = ".field.json"
# how far the members' probabilities may sum from 1: a file rounds each to 6 places
PROBABILITY_TOLERANCE = 1e-3


def shipped_path(spec: GameSpec, n_players: int | None, rules=None) -> Path | None:
    """The shipped field for this player count, if any; with ``rules``, the field built for
    that variant where one is shipped or fitted (the first of nearest_fields), else the count's
    own field."""
    found = nearest_fields(spec, n_players, rules)
    return found[0] if found else None


def nearest_fields(spec: GameSpec, n_players: int | None, rules=None) -> list[Path]:
    """Every field that may play this variant, nearest first: those built for a variant whose
    every changed option this one shares (shipped_variants, fitted_fields), the most specific
    first and then the player count's own, and last the count's default field."""
    folder = home(spec).policies
    candidates = [folder / f"{spec.name}-{n_players}p{SUFFIX}"] if n_players else []
    candidates.append(folder / f"{spec.name}{SUFFIX}")
    default = [next((p for p in candidates if p.is_file()), None)]
    if rules is None:
        return [p for p in default if p is not None]
    here, ranked = as_json(rules.to_dict()), []
    for n, _, path in shipped_variants(spec) + fitted_fields(spec):
        own = variant_of(spec, path)
        if n in (n_players, None) and own and all(here.get(k) == v for k, v in own.items()):
            ranked.append(((len(own), n is not None), path))   # stable: the first of a rank wins
    ranked.sort(key=lambda item: item[0], reverse=True)
    return [path for _, path in ranked] + [p for p in default if p is not None]


def _parts(spec: GameSpec, path: Path) -> tuple[int | None, str | None] | None:
    """(player count or None, variant tag or None) of a shipped field's file name, or None for
    a name that is not one: <game>[-<n>p][.<tag>].field.json."""
    stem = path.name[:-len(SUFFIX)]
    if not stem.startswith(spec.name):
        return None
    head, dot, tag = stem[len(spec.name):].partition(".")
    if dot and not (tag and all(ch.isalnum() or ch in "-_" for ch in tag)):
        return None
    if head == "":
        return None, tag or None
    if head.startswith("-") and head.endswith("p") and head[1:-1].isdigit():
        return int(head[1:-1]), tag or None
    return None


def shipped_fields(spec: GameSpec) -> dict[int | None, Path]:
    """Every shipped field of the game's default variant, by player count (None: the file for
    any count); fields built for another variant: shipped_variants."""
    found = {n: path for n, tag, path in _shipped(spec) if tag is None}
    return dict(sorted(found.items(), key=lambda item: (item[0] is None, item[0] or 0)))


def shipped_variants(spec: GameSpec) -> list[tuple[int | None, str, Path]]:
    """(player count or None, tag, path) of every shipped field built for a variant other than
    the game's default: <game>[-<n>p].<tag>.field.json, seated by ``-s strong`` in the games
    whose rules agree with every option the file was built with that differs from the default
    (variant_of). A recipe builds them from its ``variants`` (analysis.field.field_recipe)."""
    return [(n, tag, path) for n, tag, path in _shipped(spec) if tag is not None]


def fitted_folder() -> Path:
    """Where the fields fitted on this machine (``balance field GAME -o KEY=VALUE --from
    strong``) and the measured transfers (analysis/fitted.py) are kept: $BALANCE_FIELDS, else
    $XDG_DATA_HOME/balance-toolkit/fields. Not a cache: a fit takes minutes."""
    base = os.environ.get("BALANCE_FIELDS") or os.path.join(
        os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")),
        "balance-toolkit", "fields")
    return Path(base)


def variant_key(spec: GameSpec, rules) -> str:
    """The variant's content hash (12 hex digits) over the game, the player count and every
    option that differs from the defaults: the name a variant's fitted field and its measured
    transfer are stored under, so that the same variant is never fitted twice."""
    changed = dict(sorted(variant_of_rules(spec, rules).items()))
    text = json.dumps([spec.name, int(rules.n_seats), changed], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def variant_of_rules(spec: GameSpec, rules) -> dict:
    """The options of ``rules`` that differ from the game's defaults (as variant_of reads a
    field file's), as a field file records them."""
    here, defaults = as_json(rules.to_dict()), as_json(spec.rules_class().to_dict())
    return {k: v for k, v in here.items() if k in defaults and v != defaults[k]}


def fitted_path(spec: GameSpec, rules) -> Path:
    """Where the field fitted to this variant is stored: <game>-<n>p.v<key>.field.json."""
    return fitted_folder() / f"{spec.name}-{rules.n_seats}p.v{variant_key(spec, rules)}{SUFFIX}"


def fitted_fields(spec: GameSpec) -> list[tuple[int | None, str, Path]]:
    """(player count, tag, path) of every field fitted on this machine (fitted_path), seated
    by ``-s strong`` in its variant like a shipped variant's field."""
    folder = fitted_folder()
    if not folder.is_dir():
        return []
    return [(n, tag, path) for n, tag, path in _found(spec, folder) if tag is not None]


def _shipped(spec: GameSpec) -> list[tuple[int | None, str | None, Path]]:
    return _found(spec, home(spec).policies)


def _found(spec: GameSpec, folder: Path) -> list[tuple[int | None, str | None, Path]]:
    found = []
    for path in sorted(folder.glob(f"{spec.name}*{SUFFIX}")):
        parts = _parts(spec, path)
        if parts is not None:
            found.append((*parts, path))
    return found


def variant_of(spec: GameSpec, path) -> dict:
    """The options a field file was built with that differ from the game's defaults: the
    variant it is for (empty: the default variant)."""
    path = Path(path)
    return dict(_variant_of(spec.name, str(path), path.stat().st_mtime_ns))


@functools.lru_cache(maxsize=64)
def _variant_of(game: str, path: str, mtime_ns: int) -> tuple:
    from .games import get_game

    try:
        built = json.loads(Path(path).read_text(encoding="utf-8")).get("variant") or {}
    except (OSError, ValueError):
        return ()
    defaults = as_json(get_game(game).rules_class().to_dict())
    return tuple((k, v) for k, v in as_json(built).items()
                 if k in defaults and v != defaults[k])


def as_json(value):
    """A value as a JSON file holds it (tuples as lists): how a field file records its rules."""
    return json.loads(json.dumps(value, default=str))


def load(path, spec: GameSpec, n_players: int | None = None) -> dict:
    """The body of the field file at ``path``, checked: anything that is not a field of this
    game's strategies raises a StrategyError naming the file and the member at fault; with
    ``n_players``, so does a field built for another player count."""
    path = Path(path)
    name = f"field file {str(path)!r}"
    if path.is_dir():
        raise StrategyError(f"{name} is a folder; give the field's {SUFFIX} file")
    if not path.is_file():
        raise StrategyError(f"{name} not found")
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as failure:
        raise StrategyError(f"{name} is not a field (JSON): {failure}") from None
    except OSError as failure:
        raise StrategyError(f"{name} cannot be read: {failure.strerror or failure}") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise StrategyError(f"{name}: not a {FORMAT!r} object; write one with "
                            f"`balance field {spec.name}`")
    if body.get("game") != spec.name:
        raise StrategyError(f"{name} is for {body.get('game')!r}, not {spec.name!r}")
    members = body.get("members")
    if not isinstance(members, list) or not members:
        raise StrategyError(f"{name}: 'members' must be a non-empty list")
    uses_weights = any(isinstance(m, dict) and "weights" in m for m in members)
    if uses_weights and body.get("feature_code") != trained.feature_code(spec):
        raise StrategyError(f"{name} was trained on other {spec.title} features "
                            f"(strategies/{spec.name}.py changed since): rebuild it with "
                            f"`balance field {spec.name}`")
    for k, member in enumerate(members):
        _check_member(member, spec, f"{name}, member {k}")
    total = sum(m["probability"] for m in members)
    if total == 0:
        raise StrategyError(f"{name}: the members' probabilities are all 0")
    # Not rescaled: 0.3 + 0.3 is a typo more often than a wish, and a sum that overflows
    # (1e308 + 1e308) would leave one member playing every game.
    if not math.isfinite(total):
        raise StrategyError(f"{name}: the members' probabilities sum past the largest number; "
                            "give each member's share of the games, summing to 1")
    if abs(total - 1) > PROBABILITY_TOLERANCE:
        raise StrategyError(f"{name}: the members' probabilities sum to {total:.6g}, not 1 (within "
                            f"{PROBABILITY_TOLERANCE:g}); give each member's share of the games")
    trained.check_players(body, name, n_players,
                          f"`balance field {spec.name} --players {n_players}`")
    return body


def _check_member(member, spec: GameSpec, name: str) -> None:
    if not isinstance(member, dict):
        raise StrategyError(f"{name} is a JSON {type(member).__name__}, not an object")
    probability = member.get("probability")
    if not trained._is_number(probability) or probability < 0:
        raise StrategyError(f"{name}: 'probability' is {probability!r}; it must be a number >= 0")
    if ("strategy" in member) == ("weights" in member):
        raise StrategyError(f"{name}: give either 'strategy' (a built-in's name) or 'weights' "
                            "(a linear policy), not both or neither")
    if "weights" in member:
        trained._check_weights(member, spec, name)
        temperature = member.get("temperature", 0.0)
        if not trained._is_number(temperature) or temperature < 0:
            raise StrategyError(f"{name}: 'temperature' is {temperature!r}; it must be a number >= 0")
    elif not isinstance(member["strategy"], str):
        raise StrategyError(f"{name}: 'strategy' is {trained._short(member['strategy'])}; it must "
                            f"be a built-in's name, a string ({', '.join(spec.strategies)})")
    elif member["strategy"] not in spec.strategies or \
            spec.strategies[member["strategy"]].builtin is None:
        raise StrategyError(f"{name}: strategy {member['strategy']!r} is not a built-in "
                            f"{spec.title} strategy ({', '.join(spec.strategies)})")
    elif "params" in member:  # a built-in with tuned parameters (a best response of its family)
        params, default = member["params"], spec.strategies[member["strategy"]].params
        if not isinstance(params, list) or len(params) != len(default) or \
                not all(trained._is_number(v) for v in params):
            raise StrategyError(f"{name}: 'params' of {member['strategy']!r} must be a list of "
                                f"{len(default)} finite numbers, as its defaults "
                                f"{list(default)}")


def members_of(spec: GameSpec, body: dict) -> list[tuple[float, int, tuple[float, ...]]]:
    """(probability, kind, parameters) of each member, as a mixture seat packs them."""
    out = []
    for member in body["members"]:
        if "weights" in member:
            out.append((member["probability"], TRAINED,
                        trained.parameters(spec, member["weights"], member.get("temperature", 0.0))))
        else:
            strategy = spec.strategies[member["strategy"]]
            out.append((member["probability"], strategy.builtin,
                        tuple(float(v) for v in member.get("params", strategy.params))))
    return out


def parameters(spec: GameSpec, body: dict) -> tuple[float, ...]:
    """A mixture seat's parameter array (sim/core/mixture.py) for a checked field body."""
    return mixture.pack(members_of(spec, body))


def save(path, spec: GameSpec, members: list[dict], n_players: int, variant: dict,
         provenance: dict, exploitability: dict | None = None) -> Path:
    """Write a field file; ``members`` are dicts as in the module's docstring."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"format": FORMAT, "game": spec.name, "n_players": int(n_players), "variant": variant,
            "feature_code": trained.feature_code(spec), "members": members,
            "exploitability": exploitability or {}, "provenance": provenance}
    path.write_text(json.dumps(body, indent=1) + "\n")
    return path

