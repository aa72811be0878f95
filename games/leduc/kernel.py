"""Leduc poker rules as Numba kernels (rule ids LP-n: games/leduc/RULES.md).

Every decision goes through the engine's ``ask`` (sim/core); this module holds only the rules.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.leduc.strategies import N_FEATURES, SPARSE_FEATURES, builtin_decide, features

from sim import core
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import rand_below
from .layout import (CALL, END, EV, FOLD, LOG_WIDTH, N_ACTIONS, N_CARDS, N_CHANCE, N_DECISIONS,
                     N_RANKS, N_ROUNDS, N_SEAT_COLUMNS, N_SUITS, PUB_SIZE, RAISE, ROUND_SLOTS, C,
                     R, U)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)


class State(NamedTuple):
    core: core.Core
    rules: np.ndarray      # int64[N_RULES]: R.*
    pub: np.ndarray        # int64[PUB_SIZE]: the public table, U.*
    cards: np.ndarray      # int64[2]: each seat's card; hidden from the other
    end: np.ndarray        # int64[2]: the end reason (-1 while betting), the seat that folded


class Observation(NamedTuple):
    """What a seat's strategy is handed: the public table and its own card."""
    pub: np.ndarray        # int64[PUB_SIZE]: U.* (read only)
    card: np.ndarray       # int64[1]: its own card (read only)


OBSERVATION = (("pub", np.int64, 1), ("card", np.int64, 1))


@jit
def unseen_card(g, k, skip_a, skip_b):
    """The k-th card, in card order, that is neither skip_a nor skip_b."""
    for card in range(N_CARDS):
        if card != skip_a and card != skip_b:
            if k == 0:
                return card
            k -= 1
    return -1


@jit
def setup(g):
    """LP-1 one private card to each seat from the six (seat 0 first); LP-2 both ante."""
    rules, pub, cards = g.rules, g.pub, g.cards
    if rules[R.FIXED_DEAL]:
        cards[0], cards[1] = rules[R.CARD0], rules[R.CARD1]
    else:
        cards[0] = rand_below(g.core.streams, 0, N_CARDS)
        cards[1] = unseen_card(g, rand_below(g.core.streams, 0, N_CARDS - 1), cards[0], -1)
    for i in range(PUB_SIZE):
        pub[i] = -1
    pub[U.ROUND] = pub[U.RAISES] = pub[U.ACTED] = 0
    pub[U.POT0] = pub[U.POT1] = rules[R.ANTE]
    g.end[0] = g.end[1] = -1
    for seat in range(2):
        log_event(g, EV.DEAL, 1, seat, cards[seat], 0, 0)


@njit(cache=True, inline="always")  # not _nrt=False: Python and tests call it too
def observe(g, decision, seat):
    return Observation(g.pub, g.cards[seat:seat + 1])


@jit
def redeal(g, seat):
    """The other seat's card: any card neither the seat's own nor the public one, from the
    controller's stream (an undealt public card is drawn later from the reseeded chance stream)."""
    pick = control.rand_below(g.core.ctl, N_CARDS - 1 if g.pub[U.PUBLIC] < 0 else N_CARDS - 2)
    g.cards[1 - seat] = unseen_card(g, pick, g.cards[seat], g.pub[U.PUBLIC])


@jit
def bet_round(g, rnd):
    """LP-3: seat 0 acts first; a call ends the round once both have acted (check-check or a
    called raise), a fold ends the game; LP-4 a raise puts in what is owed plus the round's raise
    size, at most ``max_raises`` times a round."""
    pub, rules = g.pub, g.rules
    raise_size = rules[R.RAISE1] if rnd == 0 else rules[R.RAISE2]
    pub[U.ROUND], pub[U.RAISES], pub[U.ACTED] = rnd, 0, 0
    seat = 0
    for k in range(rules[R.MAX_RAISES] + 2):
        if core.stopped(g):
            return
        mine, theirs = U.POT0 + seat, U.POT0 + 1 - seat
        mask = 1 << CALL
        if pub[theirs] > pub[mine]:
            mask |= 1 << FOLD
        if pub[U.RAISES] < rules[R.MAX_RAISES]:
            mask |= 1 << RAISE
        a = core.ask_set(g, 0, seat, mask, N_ACTIONS)
        pub[U.ACTIONS + ROUND_SLOTS * rnd + k] = a
        pub[U.ACTED] = k + 1
        if a == FOLD:
            log_event(g, EV.ACT, rnd + 1, seat, a, pub[mine], 0)
            g.end[0], g.end[1] = END.FOLD, seat
            return
        pub[mine] = pub[theirs]
        if a == RAISE:
            pub[mine] += raise_size
            pub[U.RAISES] += 1
        log_event(g, EV.ACT, rnd + 1, seat, a, pub[mine], 0)
        if a == CALL and k > 0:
            return
        seat = 1 - seat


@jit
def deal_public(g):
    """LP-5: the public card, from the four cards neither seat holds."""
    if g.rules[R.FIXED_DEAL]:
        g.pub[U.PUBLIC] = g.rules[R.PUBLIC]
    else:
        g.pub[U.PUBLIC] = unseen_card(g, rand_below(g.core.streams, 0, N_CARDS - 2), g.cards[0],
                                      g.cards[1])
    log_event(g, EV.FLOP, 2, -1, g.pub[U.PUBLIC], 0, 0)


@jit
def hand_strength(card, public):
    """LP-7: a pair with the public card beats every unpaired hand, else the higher rank."""
    rank = card // N_SUITS
    return rank + N_RANKS * (rank == public // N_SUITS)


@jit
def write_record(g, out, row):
    """LP-6 a fold gives the pot to the other seat; LP-7 a showdown gives it to the better hand,
    or splits it. A winner gains what the loser put in."""
    pub, cards = g.pub, g.cards
    if g.end[0] == END.FOLD:
        winners = 1 << (1 - g.end[1])
    else:
        for seat in range(2):
            log_event(g, EV.SHOW, N_ROUNDS, seat, cards[seat], 0, 0)
        s0, s1 = hand_strength(cards[0], pub[U.PUBLIC]), hand_strength(cards[1], pub[U.PUBLIC])
        winners = 1 if s0 > s1 else 2 if s1 > s0 else 3
        g.end[0] = END.SPLIT if winners == 3 else END.SHOWDOWN
    acted = 0
    for i in range(N_ROUNDS * ROUND_SLOTS):
        acted += pub[U.ACTIONS + i] >= 0
    out[row, RECORD_LENGTH] = acted
    out[row, RECORD_END] = g.end[0]
    out[row, RECORD_WINNERS] = winners
    out[row, C.POT] = pub[U.POT0] + pub[U.POT1]
    out[row, C.PUBLIC] = pub[U.PUBLIC]
    for seat in range(2):
        c = C.SEAT0 + seat * N_SEAT_COLUMNS
        if winners == 3:
            out[row, c] = 0
        elif (winners >> seat) & 1:
            out[row, c] = pub[U.POT0 + 1 - seat]
        else:
            out[row, c] = -pub[U.POT0 + seat]
        out[row, c + 1] = cards[seat]
    log_event(g, EV.END, pub[U.ROUND] + 1, -1, g.end[0], winners, pub[U.POT0] + pub[U.POT1])


@jit
def play_game(g, out, row):
    setup(g)
    bet_round(g, 0)
    if g.end[0] < 0 and not core.stopped(g):
        deal_public(g)
        bet_round(g, 1)
    write_record(g, out, row)


core.register(State, N_CHANCE, N_DECISIONS, play_game=play_game, observe=observe, redeal=redeal,
              strategy=builtin_decide, features=features, sparse_features=SPARSE_FEATURES)


@njit(cache=True)
def new_state(rules, batch, log, ctl):
    return State(core.new_core(batch, 2, N_CHANCE, N_DECISIONS, N_ACTIONS, log, ctl, N_FEATURES),
                 rules,
                 np.zeros(PUB_SIZE, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64))


@njit(cache=True, nogil=True)
def play_chunk(rules, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, batch, log, ctl), batch, out)
