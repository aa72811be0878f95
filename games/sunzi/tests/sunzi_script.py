"""Helpers for the Sunzi / Dynasties rule tests (rule ids: shared/rules/sunzi_dynasties.md).

A scripted game fixes the tiles (Xinjiang 1-2-4, Tibet 1-3-5, Qinghai 1-4-3, Mongolia 2-3-2,
Mandarin 2-3-4) and both decks (in card order unless given), and plays each side from a list of
(decision, action) pairs: a pair is used when the next decision asked of that side is of its kind;
any other decision gets PASS where allowed, else the lowest legal action (so unscripted
placements are the lowest cards, left to right, and both sides tie). ``place("7 2 3 4 5")``
scripts one round's five placements.
Games run through the real engine (sim.runner.play_one) and are read from the event log.
"""
from __future__ import annotations

import numpy as np

from sim.runner import play_one
from games.sunzi import layout as L
from games.sunzi.rules import SunziRules
from games.sunzi.strategies import script

CARD = {label.lower(): i for i, label in enumerate(L.CARD_LABELS)}
TILES = (0, 1, 2, 3, 4)


def card(label) -> int:
    return CARD[str(label).lower()]


def place(cards: str) -> list[tuple[int, int]]:
    """One round's placements, left to right, e.g. place("7 2 3 4 5")."""
    return [(L.D.PLACE, card(c)) for c in cards.split()]


def deck(*first, mode="basic", **options) -> tuple[str, ...]:
    """A deck order: the given cards on top, then the rest of the mode's deck in card order."""
    ids = SunziRules(mode=mode, **options).deck_cards()
    top = [card(c) for c in first]
    return tuple(L.CARD_LABELS[c] for c in top + [c for c in ids if c not in top])


class Game:
    """A finished game: its record (dict) and event rows (event, round, seat, a, b, c, d, e)."""

    def __init__(self, record: dict, events: np.ndarray):
        self.record = record
        self.rows = [tuple(int(x) for x in row) for row in events]

    def events(self, code, rnd=None, seat=None) -> list[tuple]:
        return [r for r in self.rows if r[0] == code and (rnd is None or r[1] == rnd)
                and (seat is None or r[2] == seat)]

    def battle(self, rnd: int, region: int):
        """(White's effective card, Black's card, White's margin) of a region's battle."""
        (row,) = [r for r in self.events(L.EV.BATTLE, rnd) if r[3] == region]
        return row[4], row[5], row[6]

    def split(self, rnd: int, region: int):
        """(winner, removed, placed, unplaced) of a region won (SZ-10)."""
        (row,) = [r for r in self.events(L.EV.SPLIT, rnd) if r[3] == region]
        return row[2], row[4], row[5], row[6]

    def board(self, rnd: int) -> dict[int, tuple[int, int, int, int]]:
        """{region: (White armies, White markers, Black armies, Black markers)} after a round."""
        return {r[3]: r[4:8] for r in self.events(L.EV.STATE, rnd)}

    def order(self, rnd: int) -> list[int]:
        (row,) = self.events(L.EV.ORDER, rnd)
        return [(row[3] >> (4 * i)) & 15 for i in range(row[4])]

    def decider(self, rnd: int) -> int:
        (row,) = self.events(L.EV.DECIDER, rnd)
        return row[2]

    @property
    def winners(self) -> list[int]:
        return [s for s in (0, 1) if self.record[f"win_{s}"] > 0]


def make_rules(**options) -> SunziRules:
    """Scripted games use the 6 power whenever allowed (six_power="always") unless told
    otherwise, so that a script need not answer every SZ-15 decision."""
    kind = {k: options[k] for k in ("mode", "warlord", "leader_card") if k in options}
    base = {"tile_order": TILES, "deck_white": deck(**kind), "deck_black": deck(**kind),
            "six_power": "always"}
    return SunziRules(**{**base, **options})


def play_game(white=(), black=(), **options) -> Game:
    record, events, _ = play_one("sunzi", make_rules(**options), [script(*white), script(*black)])
    return Game(record, events)

