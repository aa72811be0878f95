"""Rule variants: validated dataclasses whose fields are the documented rule options.

Each game's ``rules.py`` subclasses :class:`Variant`. A field's metadata carries its help text,
the rule id or open point it implements, and (optionally) its allowed choices, so that the CLI
``--option`` flags, error messages and docs are generated from one place.
"""
from __future__ import annotations

import dataclasses
import typing

from .errors import RulesError


def option(default, help: str, rule: str = "", choices: tuple = (), parse=None):
    """A rule option: a dataclass field with its documentation."""
    return dataclasses.field(default=default, metadata={
        "help": help, "rule": rule, "choices": choices, "parse": parse})


def parse_int_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in str(text).replace(" ", "").split(",") if part)


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
    def from_options(cls, options: dict) -> "Variant":
        """Build from a dict of option -> value; string values (CLI, TOML) are converted."""
        known = cls.options()
        values = {}
        for name, value in options.items():
            key = name.replace("-", "_")
            if key not in known:
                raise RulesError(f"unknown option {name!r} for {cls.__name__}; "
                                 f"allowed: {', '.join(known)}")
            values[key] = _convert(cls, known[key], value) if isinstance(value, str) else value
        return cls(**values)

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


def _convert(cls, field: dataclasses.Field, text: str):
    if field.metadata.get("parse"):
        parse = field.metadata["parse"]
    else:
        hint = typing.get_type_hints(cls)[field.name]
        base = next((t for t in typing.get_args(hint) if t is not type(None)), hint)
        parse = {bool: _parse_bool, int: int, float: float}.get(base, str)
    if text.lower() in ("none", "") and field.default is None:
        return None
    try:
        return parse(text)
    except ValueError:
        raise RulesError(f"option {field.name}={text!r} is not valid: {field.metadata['help']}") from None


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _plain(value):
    return list(value) if isinstance(value, tuple) else value
