"""Leduc poker's pieces for the interventional card table (analysis/interventions.py).

LP-1 deals from six fixed cards: no rule option changes a card, so the table's rows are the
numbers the rules print, the ante (LP-2), the two raise sizes (LP-4) and the raise cap (LP-3),
each one step up and down, read on the first seat's advantage (its win rate minus the fair
share). Leduc poker is a calibration game (games/leduc/RULES.md).
"""
from __future__ import annotations

from games.leduc.rules import LIMITS

from analysis.interventions import DOWN, UP, Card


def _step(option: str, rules) -> dict:
    value, (low, high) = getattr(rules, option), LIMITS[option]
    changes = {}
    if value < high:
        changes[UP] = {option: value + 1}
    if value > low:
        changes[DOWN] = {option: value - 1}
    return changes


def cards(rules) -> list[Card]:
    return [Card(option.replace("_", " "), "chips", _step(option, rules),
                 owner="first_seat_advantage", value=float(getattr(rules, option)))
            for option in ("ante", "small_raise", "big_raise", "max_raises")]
