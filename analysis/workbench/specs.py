"""What a workbench command varies: parsing ``NAME=V1,V2``, ``NAME=LO..HI`` and ``METRIC=VALUE``,
and building the rule variant of one point.

A varied NAME is one of:

- a rule option (``n_players``, ``merit_ties``, ...): any value its ``--option`` accepts;
- ``strategies``: a strategy per point, one name for every seat or seat names joined by ``+``
  (``cautious+random+random``);
- a tunable knob (``charge_threshold``, ``legions[3]``; see sim.variant), or a vector tunable
  option (``legions``) that stands for all of its knobs.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from sim.errors import BalanceError
from sim.game import GameSpec
from sim.games import get_game
from sim.runner import as_rules

STRATEGIES = ("strategies", "strategy")


class WorkbenchError(BalanceError):
    """A bad workbench request: unknown parameter or metric, bad range or value."""


def split_assignment(text: str, what: str) -> tuple[str, str | None]:
    if not isinstance(text, str) or not text.strip():
        raise WorkbenchError(f"{what} {text!r} is empty; write NAME=VALUES")
    name, sep, values = text.partition("=")
    return name.strip(), (values.strip() if sep else None)


def parse_grid(items: Sequence[str] | Mapping[str, Sequence], what: str = "--vary") -> dict[str, list]:
    """``["n_players=3,4", "merit_ties=third,any"]`` (or a dict) -> {name: [values]}."""
    if isinstance(items, Mapping):
        grid = {name: list(values) for name, values in items.items()}
    else:
        grid = {}
        for item in items:
            name, values = split_assignment(item, what)
            if not values:
                raise WorkbenchError(f"{what} {item!r} needs values: NAME=V1,V2,...")
            if name in grid:
                raise WorkbenchError(f"{what} names {name!r} twice")
            grid[name] = [v.strip() for v in values.split(",") if v.strip()]
    for name, values in grid.items():
        if not values:
            raise WorkbenchError(f"{what} {name!r} has no values")
    return grid


def parse_ranges(items: Sequence[str] | Mapping, rules) -> dict[str, tuple[float, float]]:
    """``["legions", "charge_threshold=6..12"]`` -> {knob: (low, high)} over this variant's knobs.

    A bare name takes each knob's default search range (sim.variant.Knob.search_range); a
    vector option's name stands for every element, each with the given range or its own.
    """
    knobs = rules.tunables()
    pairs = list(items.items()) if isinstance(items, Mapping) else \
        [split_assignment(item, "--vary") for item in items]
    ranges: dict[str, tuple[float, float]] = {}
    for name, text in pairs:
        names = knob_names(name, rules)
        for knob_name in names:
            knob = knobs[knob_name]
            if text is None:
                low, high = knob.search_range()
            elif isinstance(text, (tuple, list)):
                low, high = (float(v) for v in text)
            else:
                low, high = parse_range(text, knob_name)
            if not knob.low <= low < high <= knob.high:
                raise WorkbenchError(f"range {low:g}..{high:g} of {knob_name} must be increasing "
                                     f"and inside its bounds {knob.low:g}..{knob.high:g}")
            ranges[knob_name] = (low, high)
    if not ranges:
        raise WorkbenchError("nothing to vary: give at least one --vary NAME[=LO..HI]")
    return ranges


def parse_range(text: str, name: str) -> tuple[float, float]:
    low, sep, high = text.partition("..")
    try:
        if not sep:
            raise ValueError
        return float(low), float(high)
    except ValueError:
        raise WorkbenchError(f"range {name}={text!r} must look like LO..HI with two numbers, "
                             "e.g. 6..12") from None


def knob_names(name: str, rules) -> list[str]:
    """The knobs a name stands for: itself, or every element of a vector tunable option."""
    knobs = rules.tunables()
    if name in knobs:
        return [name]
    elements = [k for k, knob in knobs.items() if knob.option == name]
    if elements:
        return elements
    raise WorkbenchError(f"{name!r} is not a tunable parameter of this {type(rules).__name__}; "
                         f"tunable: {', '.join(tunable_options(rules))}")


def tunable_options(rules) -> list[str]:
    """Option names with a tunable declaration (vector options once, not per element)."""
    return list(dict.fromkeys(knob.option for knob in rules.tunables().values()))


def parse_targets(items: Sequence[str] | Mapping[str, float]) -> dict[str, float]:
    pairs = items.items() if isinstance(items, Mapping) else \
        [split_assignment(item, "--target") for item in items]
    targets = {}
    for name, value in pairs:
        try:
            targets[name] = float(value)
        except (TypeError, ValueError):
            raise WorkbenchError(f"--target {name}={value!r}: the target must be a number, "
                                 "e.g. victory=0.5") from None
    if not targets:
        raise WorkbenchError("give at least one --target METRIC=VALUE")
    return targets


def check_names(spec: GameSpec, rules, names) -> None:
    """Every varied name must be an option, 'strategies' or a tunable knob of the game."""
    options = spec.rules_class.options()
    for name in names:
        if name in options or name in STRATEGIES:
            continue
        knob_names(name, rules)  # raises with the list of tunables


def point(spec: GameSpec, base_rules, base_strategies, assignment: Mapping):
    """(rules, strategies) of one grid point: options first (player count, mode...), then knobs
    (whose current values may depend on those options), then the strategies."""
    options = spec.rules_class.options()
    rules, strategies, knob_values = as_rules(spec, base_rules), base_strategies, {}
    option_values = {}
    for name, value in assignment.items():
        if name in STRATEGIES:
            strategies = value.split("+") if isinstance(value, str) else value
        elif name in options:
            option_values[name] = value
        else:
            knob_values[name] = value
    if option_values:
        rules = rules.replace(**{k: _option_value(v) for k, v in option_values.items()})
    if knob_values:
        converted = {}
        for name, value in knob_values.items():
            knob_names(name, rules)
            try:
                converted[name] = float(value)
            except (TypeError, ValueError):
                raise WorkbenchError(f"{name}={value!r} must be a number") from None
        rules = rules.with_knobs(converted)
    return rules, strategies


def _option_value(value):
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def resolve(game, rules):
    """(GameSpec, rules dataclass) from a game name and rules (dataclass, dict or None)."""
    spec = get_game(game)
    return spec, as_rules(spec, rules)


def numeric_columns(table, names):
    """Columns of grid values that are all numbers become numbers (for plots and lookups)."""
    import pandas as pd

    for name in names:
        if name in table:
            converted = pd.to_numeric(table[name], errors="coerce")
            if converted.notna().all():
                table[name] = converted
    return table
