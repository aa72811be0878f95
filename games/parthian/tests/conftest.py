"""Helpers for the Parthian Shot rule tests (rule ids: shared/rules/parthian_shot.md).

Scripted games are written round by round as card values: 1-6 for a shooting card, "C" for a
charge card. ``play(order, rounds)`` deals the legions in ``order`` (which is also the game's
legion set) and plays the game through the real engine (sim.runner.play_one).
``table(n, order)`` gives the kernel state itself, for checks the record cannot show.
"""
from __future__ import annotations

import numpy as np
import pytest

from games.parthian import kernel as K
from games.parthian import layout as L
from games.parthian.rules import ParthianRules
from sim.runner import kernel_state, play_one
from games.parthian.strategies import script


def action(card) -> int:
    return L.CHARGE if card == "C" else int(card) - 1


class Game:
    """A finished scripted game: its record (dict) and event rows (event, round, player, a, b, c)."""

    def __init__(self, record: dict, events: np.ndarray, n: int):
        self.record, self.n = record, n
        self.rows = [tuple(int(x) for x in row) for row in events]

    def events(self, code, rnd=None, player=None) -> list[tuple]:
        return [r for r in self.rows if r[0] == code and (rnd is None or r[1] == rnd)
                and (player is None or r[2] == player)]

    def seats(self, column: str) -> list:
        return [self.record[f"{column}_{p}"] for p in range(self.n)]

    @property
    def winners(self) -> list[int]:
        return [p for p in range(self.n) if self.record[f"win_{p}"] > 0]

    def merit_to(self, rnd: int) -> int:
        """Who got the legion defeated in round ``rnd`` (-1 = nobody)."""
        (row,) = self.events(L.EV.DEFEATED, rnd)
        return row[5]

    def damaged(self, rnd: int) -> dict[int, int]:
        """{player: charge cards left (-1 = routed)} for the damage taken in round ``rnd``."""
        return {r[2]: r[3] for r in self.events(L.EV.DAMAGE, rnd)}

    def resupplied(self, rnd: int) -> dict[int, int]:
        """{player: why (13 charge, 14 camel, 9 damage)} for round ``rnd``."""
        return {r[2]: r[3] for r in self.events(L.EV.RESUPPLY, rnd)}

    def legions(self) -> list[int]:
        return [r[3] for r in self.events(L.EV.LEGION)]


def make_rules(order, n, **options) -> ParthianRules:
    return ParthianRules(n_players=n, legions=tuple(order), deck_order=tuple(order), **options)


def play_game(order, rounds, **options) -> Game:
    n = len(rounds[0])
    seats = [script([action(r[p]) for r in rounds]) for p in range(n)]
    record, events, _ = play_one("parthian", make_rules(order, n, **options), seats)
    return Game(record, events, n)


class Table:
    """Kernel state of one game, advanced one round at a time with resolve_round."""

    def __init__(self, n, order, **options):
        self.g = kernel_state("parthian", make_rules(order, n, **options), max_events=64)
        K.setup(self.g)
        self.pl, self.gs, self.info = self.g.pl, self.g.gs, self.g.info

    def legal(self, p) -> np.ndarray:
        K.legal_actions(self.g, p)
        return self.g.core.legal.copy()

    def play(self, cards) -> list[tuple]:
        """Resolve one round with these cards; return its event rows."""
        self.gs[L.G.ROUND] += 1
        log = self.g.core.log
        log[0, 0] = 0
        self.g.actions[:] = [action(c) for c in cards]
        K.resolve_round(self.g)
        return [tuple(int(x) for x in row) for row in log[1:1 + log[0, 0]]]

    def hand(self, p) -> set[int]:
        return {v + 1 for v in range(L.SHOTS) if (self.pl[p, L.P.HAND] >> v) & 1}


@pytest.fixture
def play():
    return play_game


@pytest.fixture
def table():
    return Table
