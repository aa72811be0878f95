"""Helpers for the Samurai Sword rule tests (rule ids: shared/rules/samurai_sword.md).

``Table`` holds the kernel state of one game after set-up (SS-1..SS-4) and lets a test arrange
hands, characters, properties and the deck, then call one rule of the kernel (an attack, a
card, a draw phase, a Bushido check, the scoring) and read the state and the events. The state
is the kernel's own (sim.runner.kernel_state: seated, seeded and reset for game 0, then set up
by the kernel's ``setup``). Seats answer their decisions from scripts
(games.samurai.strategies.script: (decision, action) pairs; any other decision gets a passive answer:
ACT.END, ACT.TAKE, else the lowest legal action: the kernel's off_script).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games import get_game
from sim.results import records_frame
from sim.runner import kernel_state
from games.samurai import kernel as K
from games.samurai import layout as L
from games.samurai.rules import CARD_IDS, CHARACTER_IDS, SamuraiRules, _key
from games.samurai.strategies import script

SPEC = get_game("samurai")

# A many-game test must fail, not hang, when a kernel fault makes a game (or one turn) endless.
# Its limit: a cold compile of the Samurai kernel inside the test (about 1 minute on the idle
# 2-core machine, a few minutes when other jobs compete) plus 4x its warm duration. "thread":
# a hang is inside Numba code, which the "signal" method cannot interrupt; the thread method
# dumps every stack and ends the process (under xdist, the worker: the test fails).
COMPILE_S = 240


def many_games(warm_seconds: float):
    """pytest.mark.timeout for a test that takes `warm_seconds` with a warm kernel cache."""
    return pytest.mark.timeout(COMPILE_S + round(4 * warm_seconds), method="thread")


def card(name) -> int:
    return CARD_IDS[_key(name)]


def character(name) -> int:
    return CHARACTER_IDS[_key(name)]


class Table:
    def __init__(self, n=5, seats=None, seed=0, roles=None, characters=None, ctl=None, **options):
        """``ctl``: a controller (sim.core.header.new_ctl) for tests that redeal (K.redeal draws
        from the controller's stream); None plays the plain path, as the real kernel does."""
        if roles is None:
            roles = ("shogun", "samurai", "ninja1", "ninja2", "ronin", "ninja3", "samurai")[:n]
            if n == 3:
                roles = ("shogun", "ninja1", "ninja2")
            elif n == 4:
                roles = ("shogun", "samurai", "ninja1", "ninja2")
            elif n == 6:
                roles = ("shogun", "samurai", "ninja1", "ninja2", "ronin", "ninja3")
        chars = characters or ["plain5"] * n
        self.variant = SamuraiRules(n_players=n, roles=tuple(roles), characters=tuple(chars), **options)
        self.n = n
        self.g = kernel_state("samurai", self.variant, seats or [script()] * n, seed=seed,
                              max_events=4096, ctl=ctl)
        self.pub, self.hid, self.ks = self.g.pub, self.g.hid, self.g.ks
        self.log = self.g.core.log
        K.setup(self.g)
        self.mark = int(self.log[0, 0])

    # --- arranging the table --------------------------------------------------------------
    def seat(self, s, field):
        return int(self.pub[L.seat_at(s, field)])

    def set(self, s, field, value):
        self.pub[L.seat_at(s, field)] = value

    def hand(self, s) -> dict[str, int]:
        return {L.CARD_NAMES[t]: int(self.hid[s, L.H.HAND + t]) for t in range(L.N_TYPES)
                if self.hid[s, L.H.HAND + t]}

    def set_hand(self, s, *names):
        """Replace seat s's hand (the old cards are put back on the deck's bottom: the table
        stays a complete deck)."""
        for t in range(L.N_TYPES):
            for _ in range(int(self.hid[s, L.H.HAND + t])):
                self._deck_bottom(t)
            self.hid[s, L.H.HAND + t] = 0
        for name in names:
            t = card(name)
            self._take_from_deck(t)
            self.hid[s, L.H.HAND + t] += 1
        self.set(s, L.S.HAND, len(names))

    def stack(self, *names):
        """Put these cards on top of the deck (first name = top card)."""
        for name in reversed(names):
            t = card(name)
            self._take_from_deck(t)
            self.ks[L.K.DECK + self.pub[L.P.DECK]] = t
            self.pub[L.P.DECK] += 1

    def empty_deck_into_discard(self):
        while self.pub[L.P.DECK] > 0:
            self.pub[L.P.DECK] -= 1
            t = self.ks[L.K.DECK + self.pub[L.P.DECK]]
            self.ks[L.K.DISCARD + self.pub[L.P.DISCARD_N]] = t
            self.pub[L.P.DISCARD_N] += 1
            self.pub[L.P.DISCARDS + t] += 1
            self.pub[L.P.DISCARD_TOP] = t

    def _deck_bottom(self, t):
        d = self.ks[L.K.DECK:L.K.DECK + self.pub[L.P.DECK]].copy()
        self.ks[L.K.DECK] = t
        self.ks[L.K.DECK + 1:L.K.DECK + 1 + len(d)] = d
        self.pub[L.P.DECK] += 1

    def _take_from_deck(self, t):
        d = list(self.ks[L.K.DECK:L.K.DECK + self.pub[L.P.DECK]])
        if t not in d:  # swap it out of another hand for a deck card of another type
            q = next(q for q in range(self.n) if self.hid[q, L.H.HAND + t] > 0)
            other = next(x for x in reversed(d) if x != t)
            d.remove(other)
            self.hid[q, L.H.HAND + other] += 1
            self.hid[q, L.H.HAND + t] -= 1
            self.pub[L.P.DECK] = len(d)
            self.ks[L.K.DECK:L.K.DECK + len(d)] = d
            return
        i = d.index(t)
        del d[i]
        self.pub[L.P.DECK] = len(d)
        self.ks[L.K.DECK:L.K.DECK + len(d)] = d

    def conserved(self) -> bool:
        return bool(K.conserved(self.g))

    # --- reading what happened --------------------------------------------------------------
    def events(self, code=None, seat=None) -> list[tuple]:
        rows = [tuple(int(x) for x in row) for row in self.log[1 + self.mark:1 + self.log[0, 0]]]
        return [r for r in rows if (code is None or r[0] == code) and (seat is None or r[2] == seat)]

    @property
    def ended(self) -> int:
        return int(self.ks[L.K.END])

    def record(self) -> dict:
        """Score the game as it stands (SS-19, SS-20) and return its record row, labelled as in
        sim.results (end_reason by name, swordmaster_seat, deadly_strike_team, win_<s>...)."""
        K.score(self.g)
        out = np.zeros((1, SPEC.record_width(self.n)), np.int16)
        K.write_record(self.g, out, 0)
        return records_frame(SPEC, self.n, out, 0).iloc[0].to_dict()

    def begin_turn(self, s):
        self.pub[L.P.CURRENT] = s
        self.pub[L.P.WEAPONS_PLAYED] = 0
        self.pub[L.P.WEAPON_LIMIT] = K.weapon_limit(self.g, s)


@pytest.fixture
def Tab():
    return Table
