"""Card conditions as data (OP-2): a vocabulary of named predicates on 0..99 and condition tables.

A *condition* is any predicate on the numbers 0..99 (SJ-6: a reply must satisfy the condition
printed on the card it answers). A *condition table* gives one condition to every copy of every
number card; its rows are the number cards of the deck, so it fixes the deck's composition of
number cards too (OP-1). It is given as

- a preset name: ``default`` (the shipped table, data/conditions_default.csv), ``any``,
  ``harsh``, ``random`` or ``random:SEED``, or any condition name (every card gets it);
- a CSV file: columns ``action,value,condition``, one row per card copy (action ``straight`` /
  ``V``, ``sweep`` / ``H`` or ``zero``; value 0..9; an empty condition means ``any``); read by
  :mod:`sim.datafile`, so also semicolon or tab separated, UTF-16, or an ``.xlsx`` workbook;
- from Python: a sequence of ``(action, value, condition)`` rows, or a mapping from a card label
  (``"V8"``, ``"H3"``, ``"0"``) to the conditions of its copies, where a condition is a name, a
  :class:`Condition` or any callable ``f(n) -> bool``.

Each condition is evaluated once here, in Python, into a 100-bit mask of the numbers it allows;
the kernel only reads bits, so a user's own predicate costs nothing during the simulation.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sim.datafile import is_table_path, parse_table, read_packaged, read_table
from sim.errors import RulesError
from .layout import ACT, MAX_CONDITIONS


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))


def _is_square(n: int) -> bool:
    return n >= 1 and math.isqrt(n) ** 2 == n


_FIBONACCI = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
_TRIANGULAR = {k * (k + 1) // 2 for k in range(1, 14)}

# The named conditions, loosest first (share of 1..99 allowed in brackets).
VOCABULARY: dict[str, Callable[[int], bool]] = {
    "any": lambda n: True,                                          # 99
    "odd": lambda n: n % 2 == 1,                                    # 50
    "even": lambda n: n % 2 == 0,                                   # 49
    "composite": lambda n: n >= 4 and not _is_prime(n),             # 73
    "multiple_of_3": lambda n: n % 3 == 0,                          # 33
    "multiple_of_4": lambda n: n % 4 == 0,                          # 24
    "prime": _is_prime,                                             # 25
    "multiple_of_5": lambda n: n % 5 == 0,                          # 19
    "palindrome": lambda n: n < 10 or (n < 100 and n % 11 == 0),    # 18
    "triangular": lambda n: n in _TRIANGULAR,                       # 13
    "fibonacci": lambda n: n in _FIBONACCI,                         # 10
    "square": _is_square,                                           # 9
    "cube": lambda n: n in (1, 8, 27, 64),                          # 4
}
HARSH = ("square", "triangular", "fibonacci", "palindrome", "cube", "multiple_of_5")
PRESETS = ("default", "any", "harsh", "random", "random:SEED")
ACTIONS = {"straight": ACT.STRAIGHT, "v": ACT.STRAIGHT, "sweep": ACT.SWEEP, "h": ACT.SWEEP,
           "zero": ACT.ZERO, "0": ACT.ZERO}
ACTION_NAMES = ("straight", "sweep", "zero")


@dataclass(frozen=True)
class Condition:
    """A named predicate on 0..99. ``Condition("lucky", lambda n: n in (7, 77))``."""

    name: str
    predicate: Callable[[int], bool]

    def mask(self) -> tuple[int, int]:
        """The numbers it allows as two 50-bit masks (0..49, 50..99); RulesError if the
        predicate raises or answers something other than true / false. Evaluated once per
        Condition (kept on the instance: a card table builds many variants of one table)."""
        cached = self.__dict__.get("_mask")
        if cached is not None:
            return cached
        words = [0, 0]
        for n in range(100):
            try:
                answer = self.predicate(n)
            except Exception as failure:  # noqa: BLE001 - any error in user code is reported
                raise RulesError(f"condition {self.name!r} raised {type(failure).__name__} at "
                                 f"{n}: {failure}") from None
            if answer not in (True, False):  # bool, numpy bool, 0 and 1 pass
                raise RulesError(f"condition {self.name!r} answered {answer!r} for {n}; a "
                                 "condition must answer true or false")
            if answer:
                words[n // 50] |= 1 << (n % 50)
        _NAMES.setdefault(tuple(words), self.name)
        object.__setattr__(self, "_mask", (words[0], words[1]))
        return words[0], words[1]

    def allowed(self) -> list[int]:
        lo, hi = self.mask()
        return [n for n in range(100) if (lo if n < 50 else hi) >> (n % 50) & 1]


_NAMES: dict[tuple[int, int], str] = {}   # allowed-number masks -> name (for narratives)
_VOCABULARY_CONDITIONS: dict[str, Condition] = {}


def normalise(name: str) -> str:
    return "_".join(str(name).strip().lower().replace("-", " ").split())


def condition(spec) -> Condition:
    """A Condition from a name (``"prime"``, ``"multiple of 7"``), a Condition or a callable."""
    if isinstance(spec, Condition):
        return spec
    if callable(spec):
        return Condition(getattr(spec, "__name__", "custom").replace("<lambda>", "custom"), spec)
    if not isinstance(spec, str):
        raise RulesError(f"condition {spec!r} must be a name, a Condition or a function of n")
    key = normalise(spec) or "any"
    if key in VOCABULARY:  # one shared instance per name, so its mask is evaluated once
        return _VOCABULARY_CONDITIONS.setdefault(key, Condition(key, VOCABULARY[key]))
    if key.startswith("multiple_of_") and key[12:].isdigit() and 1 <= int(key[12:]) <= 99:
        k = int(key[12:])
        return Condition(key, lambda n: n % k == 0)
    raise RulesError(f"unknown condition {spec!r}; known: {', '.join(VOCABULARY)}, "
                     "multiple_of_N (N = 1..99), or give your own predicate from Python")


def name_of(lo: int, hi: int) -> str:
    """The name of a condition from its masks (vocabulary or any condition built here)."""
    if (lo, hi) in _NAMES:
        return _NAMES[(lo, hi)]
    for name in VOCABULARY:
        if Condition(name, VOCABULARY[name]).mask() == (lo, hi):
            return name
    allowed = [n for n in range(100) if (lo if n < 50 else hi) >> (n % 50) & 1]
    return "custom {" + ", ".join(map(str, allowed[:8])) + (", ..." if len(allowed) > 8 else "") + "}"


# --- tables ---------------------------------------------------------------------------------

Row = tuple[int, int, Condition]   # (action, value, condition)


def card_label(action: int, value: int) -> str:
    return "0" if action == ACT.ZERO else ("V" if action == ACT.STRAIGHT else "H") + str(value)


def _row(action, value, cond, where: str) -> Row:
    key = str(action).strip().lower()
    if key not in ACTIONS:
        raise RulesError(f"{where}: action {action!r} is not one of straight (V), sweep (H), zero")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise RulesError(f"{where}: value {value!r} is not a number 0..9") from None
    kind = ACTIONS[key]
    if not 0 <= number <= 9 or (number == 0) != (kind == ACT.ZERO):
        raise RulesError(f"{where}: {ACTION_NAMES[kind]} {number} is not a card; number cards are "
                         "straight or sweep 1..9, and zero 0 (SJ-4)")
    if kind == ACT.ZERO:  # OP-3: a 0 carries no condition
        if not (cond is None or (isinstance(cond, str) and normalise(cond) in ("", "any"))):
            raise RulesError(f"{where}: a 0 carries no condition (OP-3), got {cond!r}")
        cond = "any"
    return kind, number, condition("any" if cond is None else cond)


_COLUMNS = ("action", "value", "condition")
_HINT = "a condition table has the columns action,value,condition (one row per card copy)"


def read_csv(path) -> list[Row]:
    """One row per card copy: action,value,condition (header line required; lines starting with
    # are comments). Any form sim.datafile reads: CSV with comma, semicolon or tab, in UTF-8 or
    UTF-16, or an .xlsx workbook (``FILE.xlsx#Sheet`` for a named sheet)."""
    return _rows(read_table(path, "condition table", _COLUMNS, comment="#", hint=_HINT))


def parse_csv(text: str | bytes, source: str) -> list[Row]:
    """The rows of a condition table given as text (or a file's bytes), named source in messages."""
    return _rows(parse_table(text, source, _COLUMNS, comment="#", hint=_HINT))


def _rows(table) -> list[Row]:
    source, needed = table.label, _COLUMNS
    rows = []
    for line, raw in table:
        row = {normalise(k): v for k, v in raw.items() if k is not None}
        if None in raw or any(row.get(f) is None for f in needed[:2]):
            raise RulesError(f"{source}, line {line}: expected 3 fields action,value,condition, "
                             f"got {list(raw.values())}")
        rows.append(_row(row["action"], row["value"], row.get("condition") or "any",
                         f"{source}, line {line}"))
    if not rows:
        raise RulesError(f"{source} has no cards")
    return rows


def uniform_rows(cond, copies: int = 3, zeros: int = 4) -> list[Row]:
    """Every number card with the same condition (OP-1 composition: 3 copies, 4 zeros)."""
    c = condition(cond)
    return [(a, v, c) for a in (ACT.STRAIGHT, ACT.SWEEP) for v in range(1, 10)
            for _ in range(copies)] + [(ACT.ZERO, 0, condition("any"))] * zeros


def harsh_rows() -> list[Row]:
    """Every card a harsh condition (cycling through HARSH): replies are rare."""
    rows, k = [], 0
    for a in (ACT.STRAIGHT, ACT.SWEEP):
        for v in range(1, 10):
            for _ in range(3):
                rows.append((a, v, condition(HARSH[k % len(HARSH)])))
                k += 1
    return rows + [(ACT.ZERO, 0, condition("any"))] * 4


def random_rows(seed: int) -> list[Row]:
    """Every copy a condition drawn uniformly from the vocabulary (reproducible by seed)."""
    rng = random.Random(seed)
    names = list(VOCABULARY)
    return [(a, v, condition(rng.choice(names))) for a in (ACT.STRAIGHT, ACT.SWEEP)
            for v in range(1, 10) for _ in range(3)] + [(ACT.ZERO, 0, condition("any"))] * 4


def table_rows(spec) -> list[Row]:
    """The rows of a condition table given in any of the forms of the module docstring."""
    if isinstance(spec, str):
        text = spec.strip()
        key = normalise(text)
        if key == "default":
            return _rows(read_packaged("games.shuojian", "conditions_default.csv", "condition table",
                                       _COLUMNS, comment="#", hint=_HINT))
        if key == "harsh":
            return harsh_rows()
        if key == "random" or key.startswith("random:"):
            seed = key.partition(":")[2] or "0"
            if not seed.isdigit():
                raise RulesError(f"conditions={spec!r}: write random or random:SEED (SEED >= 0)")
            return random_rows(int(seed))
        if is_table_path(text) or "/" in text or Path(text).is_file():
            return read_csv(text)
        try:
            return uniform_rows(text)
        except RulesError:
            raise RulesError(f"conditions={spec!r} is neither a preset ({', '.join(PRESETS)}), a "
                             f"condition name ({', '.join(VOCABULARY)}, multiple_of_N) nor a CSV "
                             "file") from None
    if isinstance(spec, dict):
        rows = []
        for label, conds in spec.items():
            action, value = _parse_label(label)
            if isinstance(conds, (str, Condition)) or callable(conds):
                conds = [conds]
            for cond in conds:
                rows.append(_row(action, value, cond, f"conditions[{label!r}]"))
        return rows
    if isinstance(spec, (list, tuple)):
        rows = []
        for i, item in enumerate(spec):
            if not isinstance(item, (list, tuple)) or len(item) != 3:
                raise RulesError(f"conditions[{i}] = {item!r} must be (action, value, condition)")
            action = ACTION_NAMES[item[0]] if isinstance(item[0], int) and 0 <= item[0] <= 2 else item[0]
            rows.append(_row(action, item[1], item[2], f"conditions[{i}]"))
        return rows
    raise RulesError(f"conditions={spec!r} must be a preset name, a CSV path, rows or a mapping")


def _parse_label(label) -> tuple[str, int]:
    text = str(label).strip().upper()
    if text == "0":
        return "zero", 0
    if len(text) == 2 and text[0] in "VH" and text[1].isdigit():
        return ("straight" if text[0] == "V" else "sweep"), int(text[1])
    raise RulesError(f"card label {label!r} must be V1..V9 (straight), H1..H9 (sweep) or 0")


def distinct_conditions(rows: list[Row]) -> list[tuple[str, tuple[int, int]]]:
    """(name, masks) of each distinct condition, in order of first appearance (zeros skipped)."""
    seen: dict[tuple[int, int], str] = {}
    for action, _, cond in rows:
        if action == ACT.ZERO:
            continue
        masks = cond.mask()
        seen.setdefault(masks, cond.name)
    if len(seen) > MAX_CONDITIONS:
        raise RulesError(f"the condition table uses {len(seen)} different conditions; at most "
                         f"{MAX_CONDITIONS} fit the records ({', '.join(seen.values())})")
    return [(name, masks) for masks, name in seen.items()]


def to_csv(rows: list[Row]) -> str:
    lines = ["action,value,condition"]
    lines += [f"{ACTION_NAMES[a]},{v},{'' if a == ACT.ZERO else c.name}" for a, v, c in rows]
    return "\n".join(lines) + "\n"
