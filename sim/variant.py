"""Rule variants: validated dataclasses whose fields are the documented rule options.

Each game's ``rules.py`` subclasses :class:`Variant`. A field's metadata carries its help text,
the rule id or open point it implements, and (optionally) its allowed choices, so that the CLI
``--option`` flags, error messages and docs are generated from one place.

Tunable parameters (the designer's workbench, ``analysis.workbench``)
--------------------------------------------------------------------
An option that is numeric design data (a card value, a number of armies, a track length) is
declared tunable where it is declared, with ``tune=Tunable(low, high, step)``::

    charge_threshold: int = option(9, "a charge needs ...", "PS-4", tune=Tunable(0, 99))
    legions: tuple | None = option(None, "7 legion strengths ...", "OP-1",
                                   tune=Tunable(0, 99, span=10, per=("n_players",)))

``low``/``high`` bound every value the workbench may try; ``step`` is one ablation step;
``span`` (optional) narrows the default search range to current +- span; ``per`` names the
options the current value depends on (Parthian's legion strengths differ per player count, so a
tuner run over several player counts tunes them separately at each count).

Every workbench command (sweep, ablate, sensitivity, tune) reads ``rules.tunables()``: one
:class:`Knob` per scalar, so a vector option (a tuple of numbers) gives one knob per element,
named ``legions[0]``, ``legions[1]``, ... A new game gets the workbench by declaring ``tune=``
on its options; three optional hooks cover derived values:

- ``tunable_value(name)`` - the option's current value when its field holds a placeholder
  (``None`` meaning "the shipped table" or "the mode's default"); default ``getattr``;
- ``tunable_changes(name, values)`` - the option values that set a vector option to the flat
  ``values`` (e.g. regroup tile values into tiles); default ``{name: values}``;
- ``tuned_file(variants)`` (classmethod) - a data file that ``-o`` accepts, written from tuned
  variants (Parthian: a legion table CSV for ``-o legion_table=``); default none.
"""
from __future__ import annotations

import dataclasses
import functools
import typing

import numpy as np

from .errors import RulesError


def option(default, help: str, rule: str = "", choices: tuple = (), parse=None,
           tune: "Tunable | None" = None):
    """A rule option: a dataclass field with its documentation (``tune``: see module docstring)."""
    return dataclasses.field(default=default, metadata={
        "help": help, "rule": rule, "choices": choices, "parse": parse, "tune": tune})


@dataclasses.dataclass(frozen=True)
class Tunable:
    """Declares an option as numeric design data that the workbench may vary (module docstring).

    low, high : every value the workbench tries lies in [low, high] (the rules may still refuse
        some, e.g. a deck that no longer fits; the workbench reports those).
    step : one ablation step (one step up and one step down from the current value).
    span : default search range = current +- span, clipped to [low, high]; None = [low, high].
    per : options the current value depends on (tuned separately at each of their values).
    """

    low: float
    high: float
    step: float = 1
    span: float | None = None
    per: tuple[str, ...] = ()

    @property
    def integer(self) -> bool:
        return all(float(v).is_integer() for v in (self.low, self.high, self.step))


@dataclasses.dataclass(frozen=True)
class Knob:
    """One scalar tunable parameter of a concrete variant (an option, or one element of one)."""

    name: str            # "charge_threshold" or "legions[3]"
    option: str          # the option it belongs to
    index: int | None    # element of a vector option, None for a scalar
    value: float         # current value in this variant
    low: float
    high: float
    step: float
    integer: bool
    span: float | None = None
    per: tuple[str, ...] = ()

    def search_range(self) -> tuple[float, float]:
        """Default range for tuning and sensitivity: current +- span, within [low, high]."""
        if self.span is None:
            return self.low, self.high
        return max(self.low, self.value - self.span), min(self.high, self.value + self.span)

    def cast(self, value: float):
        return int(round(value)) if self.integer else float(value)


def parse_int_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in str(text).replace(" ", "").split(",") if part)


PLAYER_OPTIONS = ("n_players", "players")


class Variant:
    """Base class of every game's rules dataclass."""

    @property
    def n_seats(self) -> int:
        raise NotImplementedError

    def kernel_args(self) -> tuple:
        raise NotImplementedError

    @classmethod
    def options(cls) -> dict[str, dataclasses.Field]:
        return {f.name: f for f in dataclasses.fields(cls)}

    @classmethod
    def player_option(cls) -> str | None:
        """The option that holds the player count (games spell it ``n_players`` or, after
        OpenSpiel, ``players``), or None where the count is fixed. Every front end's
        ``--players`` / ``players`` goes through it."""
        options = cls.options()
        return next((name for name in PLAYER_OPTIONS if name in options), None)

    @classmethod
    def from_options(cls, options: dict) -> "Variant":
        """Build from a dict of option -> value; string values (CLI, TOML) are converted."""
        known = cls.options()
        values = {}
        for name, value in options.items():
            key = name.replace("-", "_")
            if key not in known:
                raise RulesError(f"unknown option {name!r} for {cls.__name__}; "
                                 f"allowed: {', '.join(known)}")
            values[key] = (_convert(cls, known[key], value) if isinstance(value, str)
                           else _check_type(cls, known[key], value))
        return cls(**values)

    # --- tunable parameters (see the module docstring) -------------------------------------

    def tunable_value(self, name: str):
        """Current value of a tunable option (override where the field holds a placeholder)."""
        return getattr(self, name)

    def tunable_changes(self, name: str, values: tuple) -> dict:
        """Option values that set the vector option ``name`` to the flat ``values``."""
        return {name: tuple(values)}

    @classmethod
    def tuned_file(cls, variants: list["Variant"]) -> "tuple[str, str] | None":
        """(option name, file text) that makes ``-o option=FILE`` play the tuned variants."""
        return None

    def knob_labels(self, name: str):
        """Names of the elements of the vector tunable ``name`` in knob names (``name[label]``),
        None for an element that is no knob in this variant; None: ``name[0]``, ``name[1]``..."""
        return None

    def tunables(self) -> dict[str, Knob]:
        """Every scalar tunable parameter of this variant, by knob name, in declaration order."""
        knobs = {}
        for name, f in self.options().items():
            tune = f.metadata.get("tune")
            if tune is None:
                continue
            value = self.tunable_value(name)
            labels = self.knob_labels(name) if isinstance(value, (tuple, list)) else None
            scalars = [(name, None, value)] if not isinstance(value, (tuple, list)) else \
                [(f"{name}[{i if labels is None else labels[i]}]", i, v)
                 for i, v in enumerate(value) if labels is None or labels[i] is not None]
            for knob, index, v in scalars:
                knobs[knob] = Knob(knob, name, index, v, tune.low, tune.high, tune.step,
                                   tune.integer, tune.span, tuple(tune.per))
        return knobs

    def with_knobs(self, values: dict) -> "Variant":
        """A copy with the given knobs (names from :meth:`tunables`) set; validated by the rules."""
        knobs = self.tunables()
        vectors: dict[str, list] = {}
        changes: dict = {}
        for name, value in values.items():
            if name not in knobs:
                raise RulesError(f"{name!r} is not a tunable parameter of {type(self).__name__}; "
                                 f"tunable: {', '.join(knobs) or 'none'}")
            knob = knobs[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
                raise RulesError(f"{name}={value!r} must be a number")
            if not knob.low <= float(value) <= knob.high:
                raise RulesError(f"{name}={value!r} is outside its range {knob.low:g}..{knob.high:g}")
            if knob.index is None:
                changes[knob.option] = knob.cast(float(value))
            else:
                current = vectors.setdefault(knob.option, list(self.tunable_value(knob.option)))
                current[knob.index] = knob.cast(float(value))
        for option, flat in vectors.items():
            changes.update(self.tunable_changes(option, tuple(flat)))
        return self.replace(**changes) if changes else self

    def replace(self, **changes) -> "Variant":
        return type(self).from_options({**self.to_dict(options_only=True), **changes})

    def to_dict(self, options_only: bool = False) -> dict:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def check_choices(self) -> None:
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            if choices and getattr(self, f.name) not in choices:
                raise RulesError(f"option {f.name}={getattr(self, f.name)!r} is not allowed; "
                                 f"choose one of {', '.join(map(repr, choices))}")


@functools.cache
def _type_hints(cls) -> dict:
    """The options' declared types: resolving them is slow, and a workbench command builds
    thousands of variants (a card table: one per card and change)."""
    return typing.get_type_hints(cls)


def _convert(cls, field: dataclasses.Field, text: str):
    if field.metadata.get("parse"):
        parse = field.metadata["parse"]
    else:
        hint = _type_hints(cls)[field.name]
        base = next((t for t in typing.get_args(hint) if t is not type(None)), hint)
        parse = {bool: _parse_bool, int: int, float: float}.get(base, str)
    if text.lower() in ("none", "") and field.default is None:
        return None
    try:
        return parse(text)
    except ValueError:
        raise RulesError(f"option {field.name}={text!r} is not valid: {field.metadata['help']}") from None


_EXPECTED = {bool: ((bool, np.bool_), "true or false"), int: ((int, np.integer), "an integer"),
             float: ((int, float, np.integer, np.floating), "a number"), str: ((str,), "a text"),
             tuple: ((tuple, list), "a list of values")}


def _check_type(cls, field: dataclasses.Field, value):
    """A Python value (not CLI text) must have the option's declared type (found by fuzzing:
    without this, ``legions=5`` or ``warlord=None`` failed deep inside a game's checks)."""
    hint = _type_hints(cls)[field.name]
    args = typing.get_args(hint)
    if value is None:
        if type(None) in args or field.default is None:
            return None
        raise RulesError(f"option {field.name}=None is not allowed: {field.metadata['help']}")
    if type(None) in args:
        hint = next(a for a in args if a is not type(None))
    base = typing.get_origin(hint) or hint
    if base not in _EXPECTED:
        return value  # a free-form option: the game's own checks judge it
    kinds, wanted = _EXPECTED[base]
    if not isinstance(value, kinds) or (base is int and isinstance(value, (bool, np.bool_))):
        raise RulesError(f"option {field.name}={value!r} must be {wanted}: {field.metadata['help']}")
    return value


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _plain(value):
    return list(value) if isinstance(value, tuple) else value
