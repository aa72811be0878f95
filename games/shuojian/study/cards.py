"""Shuo Jian's cards for the interventional card table (analysis/interventions.py, issue 17).

Rule ids refer to shared/rules/shuo_jian.md. Every card is changed through a rule option of
games/shuojian/rules.py, and every effect is read on the seats dealt the card in the unchanged
game (the opening-hand masks ``opening_v/h/x/c_{seat}``: the seats are symmetric, SJ-3):

- **finishing-blow cards and dodges** (OP-1: ``dodge_left``, ``dodge_right``, ``slashes``,
  ``thrusts``, ``counter_kills``; SJ-8..SJ-12): ``remove one`` is one copy fewer; ``neutral``
  replaces one copy by a 0 (a number card with no value and no condition, OP-3: the blank of the
  deck), so the deck keeps its size.
- **number cards** by action and value (V1..V9 straight, H1..H9 sweep, SJ-4; the 0s): ``remove
  one`` drops one copy from the condition table (OP-2; its first row: in the default table the
  unconditioned copy), ``+1`` / ``-1`` moves that copy's number by one (V9 has no +1, V1 no -1).
- **printed conditions** (SJ-6, OP-2): every copy that carries the condition gets the next looser
  (``+1``) or the next harsher (``-1``) condition of the vocabulary, ordered by how many of the
  numbers 1..99 it allows (games/shuojian/conditions.py: any 99, composite 73, odd 50, even 49,
  multiple_of_3 33, prime 25, multiple_of_4 24, multiple_of_5 19, palindrome 18, triangular 13,
  fibonacci 10, square 9, cube 4). A condition binds the *reply* (SJ-6), so a looser condition
  helps the holder's opponent: ``+1`` looseness weakens the card.

The swordsmen (SJ-1, OP-6) are not cards of the table: they are drawn at random from the number
cards before the deal and never played, and their only option (``swordsmen``) scripts them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from games.shuojian import conditions as C
from games.shuojian import layout as L

from analysis.interventions import HOLDER, NEUTRAL, REMOVE, UP, DOWN, Card

SPECIALS = {  # option -> (name, bit of opening_x / held_x)
    "dodge_left": ("Dodge left", 1), "dodge_right": ("Dodge right", 2),
    "slashes": ("Slash", 3), "thrusts": ("Thrust", 4), "counter_kills": ("Counter-kill", 5)}
ZERO = (L.ACT.ZERO, 0, "any")


def _allowed(cond: C.Condition) -> int:
    lo, hi = cond.mask()
    return sum(((lo if n < 50 else hi) >> (n % 50)) & 1 for n in range(1, 100))


LADDER = sorted((C.condition(name) for name in C.VOCABULARY), key=_allowed, reverse=True)


def looser(cond: C.Condition, step: int) -> C.Condition | None:
    """The vocabulary condition one step looser (step +1: the fewest-allowing one that allows
    more) or harsher (step -1: the most-allowing one that allows fewer); None at either end."""
    n = _allowed(cond)
    if step > 0:
        wider = [c for c in LADDER if _allowed(c) > n]
        return wider[-1] if wider else None
    narrower = [c for c in LADDER if _allowed(c) < n]
    return narrower[0] if narrower else None


def _rows(rules) -> list:
    return list(C.table_rows(rules.conditions))


def _table(rows) -> tuple:
    """Rows as the ``conditions`` option takes them (a 0 is written with no condition, OP-3)."""
    return tuple((a, v, "any") if a == L.ACT.ZERO else (a, v, c) for a, v, c in rows)


def _special(option: str, neutral: bool):
    def change(rules):
        changed = {option: getattr(rules, option) - 1}
        if neutral:
            changed["conditions"] = _table(_rows(rules) + [ZERO])
        return rules.replace(**changed)
    return change


def _number(action: int, value: int, step: int | None):
    """Drop (step None) or renumber by step the first copy of (action, value) in the table."""
    def change(rules):
        rows = _rows(rules)
        i = next(k for k, (a, v, _) in enumerate(rows) if a == action and v == value)
        if step is None:
            del rows[i]
        else:
            rows[i] = (action, value + step, rows[i][2])
        return rules.replace(conditions=_table(rows))
    return change


def _condition(masks: tuple[int, int], new: C.Condition):
    def change(rules):
        rows = [(a, v, new if a != L.ACT.ZERO and c.mask() == masks else c)
                for a, v, c in _rows(rules)]
        return rules.replace(conditions=_table(rows))
    return change


def special_cards(rules) -> list[Card]:
    out = []
    for option, (name, bit) in SPECIALS.items():
        copies = getattr(rules, option)
        if copies < 1:
            continue
        out.append(Card(name, "finishing blow" if option in ("slashes", "thrusts", "counter_kills")
                        else "dodge", {REMOVE: _special(option, False),
                                       NEUTRAL: _special(option, True)},
                        held=("opening_x_{seat}", bit), drawn="held_x_{seat}",
                        value=float(copies)))
    return out


def number_cards(rules) -> list[Card]:
    present = {(a, v) for a, v, _ in _rows(rules)}
    out = []
    for action, key in ((L.ACT.STRAIGHT, "v"), (L.ACT.SWEEP, "h")):
        for value in range(1, 10):
            if (action, value) not in present:
                continue
            changes = {REMOVE: _number(action, value, None)}
            if value < 9:
                changes[UP] = _number(action, value, +1)
            if value > 1:
                changes[DOWN] = _number(action, value, -1)
            out.append(Card(C.card_label(action, value), "number card", changes,
                            held=(f"opening_{key}_{{seat}}", value - 1),
                            drawn=f"held_{key}_{{seat}}", value=float(value)))
    if (L.ACT.ZERO, 0) in present:
        out.append(Card("0", "number card", {REMOVE: _number(L.ACT.ZERO, 0, None)},
                        held=("opening_x_{seat}", 0), drawn="held_x_{seat}", value=0.0))
    return out


def condition_cards(rules) -> list[Card]:
    out = []
    for k, (name, masks) in enumerate(C.distinct_conditions(_rows(rules))):
        cond = C.Condition(name, lambda n, m=masks: bool(((m[0] if n < 50 else m[1]) >> (n % 50)) & 1))
        changes = {}
        for label, step in ((UP, +1), (DOWN, -1)):
            new = looser(cond, step)
            if new is not None:
                changes[label] = _condition(masks, new)
        out.append(Card(f"condition {name}", "condition (looseness)", changes,
                        held=("opening_c_{seat}", k), drawn="held_c_{seat}",
                        value=float(_allowed(cond)), up_helps=False))
    return out


def cards(rules) -> list[Card]:
    """Every card of this variant with the interventions that make sense for it."""
    return [*special_cards(rules), *number_cards(rules), *condition_cards(rules)]


def game_metrics(records: pd.DataFrame, n_seats: int) -> dict[str, np.ndarray]:
    """Per game: the first player's win share (SJ-3; a draw 1/2, OP-8) and its advantage, the
    first player's share minus the second's (+1, 0 or -1)."""
    first = records["first"].to_numpy()
    w0, w1 = records["win_0"].to_numpy(float), records["win_1"].to_numpy(float)
    share = np.where(first == 0, w0, w1)
    return {"first_player_win": share,
            "first_player_advantage": share - np.where(first == 0, w1, w0)}
