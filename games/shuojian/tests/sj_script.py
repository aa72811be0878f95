"""Helpers for the Shuo Jian rule tests (rule ids: shared/rules/shuo_jian.md).

A scripted duel fixes the deck: ``hands=(seat 0's 7 cards, seat 1's 7 cards)`` and ``draws``
(the next cards, in draw order) are put on top, the swordsmen are V9 (seat 0) and H4 (seat 1)
unless given (two different numbers, so that a test can tell whose swordsman a Counter-kill
names, SJ-11; ``swordsmen=`` takes any two number-card labels), seat 0 attacks first (unless
``first_player=`` says otherwise), and every card has the condition "any" unless the table is
given. Each seat plays its list of steps (games.shuojian.strategies.script); any other decision gets its
lowest legal action. Games run through the real engine and are read from the event log.
"""
from __future__ import annotations

from sim.runner import play_one
from games.shuojian import layout as L
from games.shuojian.strategies import script


class Duel:
    """A finished game: its record (dict) and event rows (event, turn, seat, a, b, c, d, e)."""

    def __init__(self, record: dict, events, labels):
        self.record = record
        self.rows = [tuple(int(x) for x in row) for row in events]
        self.labels = labels

    def events(self, code, seat=None) -> list[tuple]:
        return [r for r in self.rows if r[0] == code and (seat is None or r[2] == seat)]

    @property
    def end(self) -> str:
        return self.record["end_reason"]

    @property
    def winners(self) -> list[int]:
        return [s for s in (0, 1) if self.record[f"win_{s}"] > 0]

    def swordsman(self, seat: int) -> int:
        """The number of seat's swordsman (the record's, as revealed at the end)."""
        return int(self.record[f"swordsman_{seat}"])

    def numbers(self, code, seat=None) -> list[int]:
        """The numbers played in EV.ATTACK / EV.REPLY events."""
        return [r[5] for r in self.events(code, seat)]


SWORDSMEN = ("V9", "H4")   # seat 0's and seat 1's scripted swordsmen: numbers 9 and 4


def duel(hands=((), ()), draws=(), steps=((), ()), swordsmen=SWORDSMEN, seed=0, **options) -> Duel:
    rules = {"conditions": "any", "first_player": "seat0", "swordsmen": tuple(swordsmen),
             "deck_order": tuple(hands[0]) + tuple(hands[1]) + tuple(draws), **options}
    record, events, seats = play_one("shuojian", rules, [script(*steps[0]), script(*steps[1])],
                                     seed=seed)
    return Duel(record, events, seats.labels)


def labels_of(rules) -> list[str]:
    return rules.card_labels()


__all__ = ["Duel", "duel", "L", "SWORDSMEN"]
