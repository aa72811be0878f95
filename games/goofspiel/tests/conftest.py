"""Helpers for the Goofspiel rule tests (rule ids GS-n: games/goofspiel/RULES.md).

``play(prizes, bids_by_seat, **options)`` deals the prizes in the given order and plays each
seat's bids (card values, turn by turn) through the real engine (sim.runner.play_one).
"""
from __future__ import annotations

import pytest

from games.goofspiel import layout as L
from sim.runner import play_one
from games.goofspiel.strategies import script


class Game:
    """A finished game: its record (dict) and event rows (event, turn, seat, a, b, c)."""

    def __init__(self, record: dict, events, n: int):
        self.record, self.n = record, n
        self.rows = [tuple(int(x) for x in row) for row in events]

    def events(self, code, turn=None, seat=None) -> list[tuple]:
        return [r for r in self.rows if r[0] == code and (turn is None or r[1] == turn)
                and (seat is None or r[2] == seat)]

    def seats(self, column: str) -> list:
        return [self.record[f"{column}_{p}"] for p in range(self.n)]

    def taker(self, turn: int) -> int:
        (row,) = self.events(L.EV.TURN, turn)
        return row[2]


def play_game(prizes, bids_by_seat, **options) -> Game:
    n = len(bids_by_seat)
    rules = {"num_cards": len(prizes), "players": n, "prize_order": tuple(prizes), **options}
    record, events, _ = play_one("goofspiel", rules, [script(b) for b in bids_by_seat])
    return Game(record, events, n)


@pytest.fixture
def play():
    return play_game
