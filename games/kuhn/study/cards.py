"""Kuhn poker's pieces for the interventional card table (analysis/interventions.py).

KP-1 deals one of three cards (J, Q, K) to each seat: no rule option changes a card, so the
table's rows are the two numbers the rules print, the ante (KP-2) and the bet (KP-3), each one
chip up and down, read on the first seat's advantage (its win rate minus the fair share). Under
every built-in strategy the table is exactly zero, with no interval: none of them looks at the
stakes, so the same deals are won by the same seat, only for more or fewer chips (the chips are
the records' ``payoff_<seat>``). Kuhn poker is a calibration game (games/kuhn/RULES.md).
"""
from __future__ import annotations

from analysis.interventions import DOWN, UP, Card


def _chips(option: str, rules) -> dict:
    value = getattr(rules, option)
    changes = {}
    if value < 10:
        changes[UP] = {option: value + 1}
    if value > 1:
        changes[DOWN] = {option: value - 1}
    return changes


def cards(rules) -> list[Card]:
    return [Card(name, "chips", _chips(option, rules), owner="first_seat_advantage",
                 value=float(getattr(rules, option)))
            for name, option in (("ante", "ante"), ("bet", "bet"))]
