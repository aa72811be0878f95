"""Hidden information: redeal(g, seat) re-randomises only what the seat has not observed."""
from collections import Counter

import numpy as np
from .conftest import Table, card, many_games

from sim.core.header import new_ctl
from games.samurai import kernel as K
from games.samurai import layout as L
from games.samurai.strategies import script


def roles(t):
    return [(int(t.hid[s, L.H.ROLE]), int(t.hid[s, L.H.STARS])) for s in range(t.n)]


def test_redeal_keeps_everything_the_seat_observed():
    """The public state and the seat's own row never change; the Shogun stays revealed; the
    other roles are a reshuffle of the same cards; every card stays in one place."""
    t = Table(6, seed=3, ctl=new_ctl())
    pub, mine = t.pub.copy(), t.hid[2].copy()
    before = Counter(roles(t)[s] for s in (1, 3, 4, 5))
    first = roles(t)
    changed = False
    for _ in range(8):
        K.redeal(t.g, 2)
        assert (t.pub == pub).all() and (t.hid[2] == mine).all()
        assert roles(t)[0] == (L.ROLE.SHOGUN, 0)
        assert Counter(roles(t)[s] for s in (1, 3, 4, 5)) == before
        assert t.conserved()
        changed |= roles(t) != first
    assert changed


def test_redeal_keeps_the_card_a_diversion_took_from_the_seat():
    """The victim of a Diversion saw which card the thief took: its redeals keep that card in
    the thief's hand; another seat's redeals may move it."""
    t = Table(5, seats=[script(), script((L.D.TARGET, 0))] + [script()] * 3, ctl=new_ctl())
    t.set_hand(0, "Katana")
    t.set_hand(1, "Diversion", "Bo")
    t.begin_turn(1)
    K.play_card(t.g, 1, L.CARD.DIVERSION)
    assert t.hand(1)["Katana"] == 1
    for _ in range(10):
        K.redeal(t.g, 0)
        assert t.hid[1, L.H.HAND + card("Katana")] == 1 and t.conserved()
    moved = 0
    for _ in range(20):
        K.redeal(t.g, 3)
        moved += t.hid[1, L.H.HAND + card("Katana")] == 0
        assert t.conserved()
    assert moved > 0


@many_games(0.5)
def test_ss21_shogun_bushido_choice_sees_only_what_he_observed():
    """SS-21, shogun_bushido="choose": the 3-player Shogun's own Bushido decision (discard a
    weapon to pass it on, or discard it at no honour) is an `ask` like any other, so the
    engine's observation check (tests/observation.py) applies to it at exactly that decision:
    redealing what he has not seen leaves the arrays handed to him unchanged, and another
    answer of his changes nothing the other seats are handed before they see it. The generic
    test (tests/engine/test_observation.py, observation_variants) samples decisions at random
    and may miss this one, so it is checked here at every game that reaches it."""
    from observation import first_leak, play_world, view

    from sim.core.header import T_DECISION, T_SEAT
    from sim.games import get_game
    from sim.runner import as_rules
    from sim.strategy import resolve_seats

    spec = get_game("samurai")
    rules = as_rules(spec, {"n_players": 3, "shogun_bushido": "choose"})
    seats = resolve_seats(spec, "random", 3)
    vis = spec.event_visibility
    checked = 0
    for game in range(12):
        base = play_world(spec, rules, seats, 11, game)
        shogun = next(int(e[2]) for e in base.events if e[0] == L.EV.SHOGUN)
        points = [k for k, row in enumerate(base.trace)
                  if row[T_DECISION] == L.D.BUSHIDO and row[T_SEAT] == shogun]
        for k in points:
            before = {s: int(np.sum(base.trace[:k, T_SEAT] == s)) for s in range(3)}
            redealt = play_world(spec, rules, seats, 11, game, redeal_at=k)
            leak, _, compared = first_leak(view(base, shogun, vis), view(redealt, shogun, vis),
                                           before[shogun])
            assert leak is None, (game, k, leak)
            assert compared[:1] == [L.D.BUSHIDO], (game, k, compared)
            moved = play_world(spec, rules, seats, 11, game, perturb_at=k)
            assert moved.perturbed
            for s in range(3):
                if s != shogun:
                    leak, _, _ = first_leak(view(base, s, vis), view(moved, s, vis), before[s])
                    assert leak is None, (game, k, s, leak)
            checked += 1
    assert checked >= 3
