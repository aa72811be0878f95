"""Hidden information: redeal(g, seat) re-randomises only what the seat has not observed."""
from collections import Counter

import numpy as np
from conftest import Table, card

from sim.samurai import kernel as K
from sim.samurai import layout as L
from strategies.samurai import script


def roles(t):
    return [(int(t.hid[s, L.H_ROLE]), int(t.hid[s, L.H_STARS])) for s in range(t.n)]


def test_redeal_keeps_everything_the_seat_observed():
    """The public state and the seat's own row never change; the Shogun stays revealed; the
    other roles are a reshuffle of the same cards; every card stays in one place."""
    t = Table(6, seed=3)
    pub, mine = t.pub.copy(), t.hid[2].copy()
    before = Counter(roles(t)[s] for s in (1, 3, 4, 5))
    first = roles(t)
    changed = False
    for _ in range(8):
        K.redeal(t.g, 2)
        assert (t.pub == pub).all() and (t.hid[2] == mine).all()
        assert roles(t)[0] == (L.SHOGUN, 0)
        assert Counter(roles(t)[s] for s in (1, 3, 4, 5)) == before
        assert t.conserved()
        changed |= roles(t) != first
    assert changed


def test_redeal_keeps_the_card_a_diversion_took_from_the_seat():
    """The victim of a Diversion saw which card the thief took: its redeals keep that card in
    the thief's hand; another seat's redeals may move it."""
    t = Table(5, seats=[script(), script((L.D_TARGET, 0))] + [script()] * 3)
    t.set_hand(0, "Katana")
    t.set_hand(1, "Diversion", "Bo")
    t.begin_turn(1)
    K.play_card(t.g, 1, L.DIVERSION)
    assert t.hand(1)["Katana"] == 1
    for _ in range(10):
        K.redeal(t.g, 0)
        assert t.hid[1, L.H_HAND + card("Katana")] == 1 and t.conserved()
    moved = 0
    for _ in range(20):
        K.redeal(t.g, 3)
        moved += t.hid[1, L.H_HAND + card("Katana")] == 0
        assert t.conserved()
    assert moved > 0
