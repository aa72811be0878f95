"""Kuhn poker rules as Numba kernels (rule ids KP-n: games/kuhn/RULES.md).

Every decision goes through the engine's ``ask`` (sim/core); this module holds only the rules.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.kuhn.strategies import N_FEATURES, builtin_decide, features

from sim import core
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import rand_below
from .layout import (BET, END, EV, LOG_WIDTH, MAX_ACTIONS, N_ACTIONS, N_CARDS, N_CHANCE,
                     N_DECISIONS, N_SEAT_COLUMNS, PASS, PUB_SIZE, C, R, U)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)


class State(NamedTuple):
    core: core.Core
    rules: np.ndarray      # int64[N_RULES]: R.*
    pub: np.ndarray        # int64[PUB_SIZE]: the public table, U.*
    cards: np.ndarray      # int64[2]: each seat's card (0 J, 1 Q, 2 K); hidden from the other
    end: np.ndarray        # int64[1]: the end reason, -1 while betting


class Observation(NamedTuple):
    """What a seat's strategy is handed: the public betting and its own card."""
    pub: np.ndarray        # int64[PUB_SIZE]: U.* (read only)
    card: np.ndarray       # int64[1]: its own card (read only)


OBSERVATION = (("pub", np.int64, 1), ("card", np.int64, 1))


@jit
def setup(g):
    """KP-1 one card to each seat from the three (seat 0 first); KP-2 both ante."""
    rules, pub, cards = g.rules, g.pub, g.cards
    if rules[R.FIXED_DEAL]:
        cards[0], cards[1] = rules[R.CARD0], rules[R.CARD1]
    else:
        cards[0] = rand_below(g.core.streams, 0, N_CARDS)
        cards[1] = (cards[0] + 1 + rand_below(g.core.streams, 0, N_CARDS - 1)) % N_CARDS
    pub[:] = -1
    pub[U.ACTED] = 0
    pub[U.POT0] = pub[U.POT1] = rules[R.ANTE]
    g.end[0] = -1
    for seat in range(2):
        log_event(g, EV.DEAL, 0, seat, cards[seat], 0, 0)


@njit(cache=True, inline="always")  # not _nrt=False: Python and tests call it too
def observe(g, decision, seat):
    return Observation(g.pub, g.cards[seat:seat + 1])


@jit
def redeal(g, seat):
    """The other seat's card: either card the seat does not hold, from the controller's stream."""
    other = 1 - seat
    pick = control.rand_below(g.core.ctl, N_CARDS - 1)
    g.cards[other] = (g.cards[seat] + 1 + pick) % N_CARDS


@jit
def bet_round(g):
    """KP-3/KP-4: seat 0 acts, then seat 1; after pass-bet seat 0 acts once more. A pass facing a
    bet folds; a bet facing a bet calls."""
    pub, legal = g.pub, g.core.legal
    seat, facing = 0, False
    for k in range(MAX_ACTIONS):
        if core.stopped(g):
            return
        legal[PASS] = legal[BET] = True
        a = core.ask(g, 0, seat, N_ACTIONS)
        pub[U.ACTION0 + k] = a
        pub[U.ACTED] = k + 1
        if a == BET:
            pub[U.POT0 + seat] += g.rules[R.BET]
        log_event(g, EV.ACT, k + 1, seat, a, pub[U.POT0 + seat], 0)
        if facing:  # a called bet or a fold ends the betting
            g.end[0] = END.SHOWDOWN if a == BET else END.FOLD
            return
        if a == BET:
            facing = True
        elif seat == 1:  # pass-pass
            g.end[0] = END.SHOWDOWN
            return
        seat = 1 - seat


@jit
def write_record(g, out, row):
    """KP-4 a fold gives the pot to the other seat; KP-5 at a showdown the higher card wins it."""
    pub, cards = g.pub, g.cards
    if g.end[0] == END.FOLD:
        winner = 1 - (pub[U.ACTED] - 1) % 2  # the seat that acted last folded
    else:
        winner = 0 if cards[0] > cards[1] else 1
        for seat in range(2):
            log_event(g, EV.SHOW, pub[U.ACTED], seat, cards[seat], 0, 0)
    out[row, RECORD_LENGTH] = pub[U.ACTED]
    out[row, RECORD_END] = g.end[0]
    out[row, RECORD_WINNERS] = 1 << winner
    out[row, C.POT] = pub[U.POT0] + pub[U.POT1]
    for seat in range(2):
        c = C.SEAT0 + seat * N_SEAT_COLUMNS
        loser_stake = pub[U.POT0 + 1 - winner]
        out[row, c] = loser_stake if seat == winner else -pub[U.POT0 + seat]
        out[row, c + 1] = cards[seat]
    log_event(g, EV.END, pub[U.ACTED], -1, g.end[0], 1 << winner, pub[U.POT0] + pub[U.POT1])


@jit
def play_game(g, out, row):
    setup(g)
    bet_round(g)
    write_record(g, out, row)


core.register(State, N_CHANCE, N_DECISIONS, play_game=play_game, observe=observe, redeal=redeal,
              strategy=builtin_decide, features=features)


@njit(cache=True)
def new_state(rules, batch, log, ctl):
    return State(core.new_core(batch, 2, N_CHANCE, N_DECISIONS, N_ACTIONS, log, ctl, N_FEATURES),
                 rules,
                 np.zeros(PUB_SIZE, np.int64), np.zeros(2, np.int64), np.zeros(1, np.int64))


@njit(cache=True, nogil=True)
def play_chunk(rules, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, batch, log, ctl), batch, out)
