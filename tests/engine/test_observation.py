"""Observation conformance for every registered game (issue 6; tests/observation.py says how).

A strategy may be handed only what its seat has observed. For random decision points of every
decision type, the other seats' choices are changed or everything the deciding seat has not
seen is redealt, and the arrays handed to the strategies must not change while the events they
saw are the same. The test also shows that it catches a kernel that leaks a private choice.
"""
import dataclasses

import numpy as np
import pytest
from numba import njit
from observation import check

from sim.games import game_names, get_game
from sim.strategy import _rebind


def variants(spec) -> list[dict]:
    """The defaults, every value of every choice option on its own, and the game's own list."""
    found = [{}]
    for name, f in spec.rules_class.options().items():
        choices = f.metadata.get("choices") or ((True, False) if isinstance(f.default, bool) else ())
        found += [{name: c} for c in choices if c != f.default]
    return found + [dict(v) for v in spec.observation_variants]


@pytest.mark.parametrize("name", game_names())
def test_strategies_see_only_what_their_seat_observed(name):
    spec = get_game(name)
    report = check(name, variants(spec), games=3, points=2)
    assert not report.leaks, f"{name}: arrays handed to a strategy changed with hidden information: {report.leaks[:5]}"
    names = spec.decision_names or ("decision",)
    unchecked = [d for d in names if report.compared.get(d, 0) == 0]
    assert not unchecked, (f"{name}: no decision of type {unchecked} was compared; add rule "
                           f"variants that reach them to the spec's observation_variants "
                           f"(compared: {report.compared})")


def test_the_check_catches_a_kernel_that_shows_a_private_choice():
    """A Parthian Shot kernel that writes the previous seat's card of this round into the public
    round number (the shape of Sunzi's warlord leak: a public field set by a private choice)."""
    from sim.parthian import kernel as K
    from sim.parthian.layout import I_ROUND

    honest = K.ask

    @njit
    def leaky_ask(rules, pl, deck, gs, info, legal, kinds, params, streams, actions, log, ctl, p):
        if p > 0:
            info[I_ROUND] = 100 + actions[p - 1]
        return honest(rules, pl, deck, gs, info, legal, kinds, params, streams, actions, log, ctl, p)

    leaky = _rebind(K, {"ask": leaky_ask})["play_chunk"]
    report = check("parthian", [{"n_players": 4}], games=4, points=6, kernel=leaky)
    assert report.leaks and all(kind == "perturb" for kind, _ in report.leaks)
    clean = check("parthian", [{"n_players": 4}], games=4, points=6)
    assert not clean.leaks
