"""Parthian Shot's cards for the interventional card table (analysis/interventions.py).

The cards of PS-1 / PS-2 and the rule options that change them (games/parthian/rules.py), each
made as a function of the rules it is applied to, so that several changes combine:

- **The 7 legion cards** of the player count (PS-2, OP-1): ``legion <strength>`` ``+1`` / ``-1``
  moves that one card's strength (``legions``, the 7 strengths in the order of the legion
  table), and ``neutral`` gives it the strength of the weakest legion of the set (the weakest
  legion itself has no neutral row). There is no ``remove one``: a game uses exactly 7
  legions (PS-2, PS-15).
- **The charge cards** (PS-1, PS-4): ``charge card`` ``+1`` / ``-1`` gives every player one
  more or one fewer (``charges``, 0..9). A charge card is both a shot (its power is the sum in
  front, PS-4) and a life: damage discards one (PS-9), and a player with none left routs the
  team (PS-12).
- **The charge condition** (PS-4): ``charge condition`` ``+1`` / ``-1`` moves the sum the shots
  in front must exceed (``charge_threshold``, printed 9): +1 is a *stricter* condition.

The shooting cards 1..6 (PS-1) have no rule option, so they have no row.

Legions, charges and the condition belong to nobody: every player holds the same hand and the
legions are the common enemy, so each effect is read on ``victory``, the team's win (all 7
legions defeated, PS-15). How to read the table: a *stronger* legion (``+1``) lowers victory,
so its effect is negative; ``neutral`` (a legion as weak as the weakest) raises it. One more
charge card (``+1``) is expected to raise victory, a stricter condition to lower it.
"""
from __future__ import annotations

from games.parthian.rules import ParthianRules

from analysis.interventions import DOWN, NEUTRAL, UP, Card

OWNER = "victory"


def _legion(i: int, delta: int | None):
    """rules -> rules with legion i moved by delta, or set to the weakest (delta None)."""
    def change(rules: ParthianRules) -> ParthianRules:
        strengths = list(rules.tunable_value("legions"))
        strengths[i] = min(strengths) if delta is None else strengths[i] + delta
        return rules.replace(legions=tuple(strengths))
    return change


def _step(option: str, delta: int):
    def change(rules: ParthianRules) -> ParthianRules:
        return rules.replace(**{option: getattr(rules, option) + delta})
    return change


def legion_names(strengths) -> list[str]:
    """``legion 13``; a strength printed twice in one set: ``legion 16``, ``legion 16 b``."""
    names, seen = [], {}
    for value in strengths:
        k = seen.get(value, 0)
        seen[value] = k + 1
        names.append(f"legion {value}" + (f" {chr(ord('a') + k)}" if k else ""))
    return names


def cards(rules: ParthianRules) -> list[Card]:
    """The legions of this player count, the charge cards and the charge condition."""
    base = tuple(int(v) for v in rules.tunable_value("legions"))
    offset = rules.legion_offset
    weakest = min(base)
    out = []
    for i, (name, value) in enumerate(zip(legion_names(v + offset for v in base), base)):
        changes = {UP: _legion(i, +1)}
        if value + offset > 0:
            changes[DOWN] = _legion(i, -1)
        if value != weakest:
            changes[NEUTRAL] = _legion(i, None)
        out.append(Card(name, "legion", changes, owner=OWNER, value=value + offset,
                        up_helps=False))  # a stronger legion is harder to beat (PS-2)
    charges = {UP: _step("charges", +1)} if rules.charges < 9 else {}
    if rules.charges > 0:
        charges[DOWN] = _step("charges", -1)
    out.append(Card("charge card", "charge", charges, owner=OWNER, value=rules.charges))
    condition = {UP: _step("charge_threshold", +1)} if rules.charge_threshold < 99 else {}
    if rules.charge_threshold > 0:
        condition[DOWN] = _step("charge_threshold", -1)
    out.append(Card("charge condition", "condition", condition, owner=OWNER,
                    value=rules.charge_threshold))
    return out
