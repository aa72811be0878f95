"""Parthian Shot rules as Numba kernels (rule ids PS-n refer to shared/rules/parthian_shot.md).

The state is a :class:`State` of small integer arrays whose fields are named in layout.py. Every
decision goes through the engine's ``ask`` (sim/core/protocol.py); this module holds only the
rules: the set-up, the game loop, what a seat observes, the redeal and the record. Nothing here
allocates per game: play_chunk allocates the state once and every game reuses it.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.parthian.strategies import N_FEATURES, builtin_decide, features

from sim import core
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import choose_legal, shuffle
from .layout import (CHARGE, END, EV, G, I, INFO_SIZE, LOG_WIDTH, N_ACTIONS, N_CHANCE,
                     N_DECISIONS, N_FIELDS, N_GAME_FIELDS, N_LEGIONS, N_SEAT_COLUMNS, P, R, SHOTS,
                     C)

ALL_SHOTS = (1 << SHOTS) - 1
LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


class State(NamedTuple):
    core: core.Core
    rules: np.ndarray      # int64[N_RULES]: R.*
    legions: np.ndarray    # int64[7]: the legion set of this variant (PS-2)
    pl: np.ndarray         # int64[n, N_FIELDS]: each player's row, P.*
    deck: np.ndarray       # int64[7]: legion strengths, a ring from G.HEAD
    gs: np.ndarray         # int64[N_GAME_FIELDS]: G.*
    info: np.ndarray       # int64[INFO_SIZE]: the public round info, I.*
    actions: np.ndarray    # int64[n]: this round's choices (hidden until PS-5's reveal)
    values: np.ndarray     # int64[n]: the value each choice is worth this round


class Observation(NamedTuple):
    """What a seat's strategy is handed: everything on the table is public in the real game
    (hands are the complement of the cards in front); only the other players' choices this
    round and the deck's order are hidden."""
    players: np.ndarray    # int64[n, N_FIELDS]: every player's row (P.*). Read only.
    info: np.ndarray       # int64[INFO_SIZE]: the public round info (I.*). Read only.


OBSERVATION = (("players", np.int64, 2), ("info", np.int64, 1))


@jit
def setup(g):
    """PS-1 hands of shots 1-6 and charge cards; PS-2 the 7 legions, shuffled."""
    pl, deck, gs, rules = g.pl, g.deck, g.gs, g.rules
    for p in range(pl.shape[0]):
        pl[p, :] = 0
        pl[p, P.HAND] = ALL_SHOTS
        pl[p, P.CHARGES] = rules[R.CHARGES]
    for i in range(N_LEGIONS):
        deck[i] = g.legions[i]
    if rules[R.FIXED_DECK] == 0:
        shuffle(deck, N_LEGIONS, g.core.streams, 0)
    gs[:] = 0
    gs[G.LEFT] = N_LEGIONS
    gs[G.UNSEEN] = N_LEGIONS
    gs[G.END] = -1
    start_info(g)


@inline
def legal_actions(g, p):
    """PS-3 any shooting card in hand; PS-4 a charge only when the shots in front exceed 9."""
    legal, pl = g.core.legal, g.pl
    for v in range(SHOTS):
        legal[v] = (pl[p, P.HAND] >> v) & 1 == 1
    legal[CHARGE] = pl[p, P.CHARGES] > 0 and pl[p, P.FRONT_SUM] > g.rules[R.THRESHOLD]


@inline
def legal_set(g, p):
    """legal_actions as a bitmask: bit v for shooting card v + 1, bit CHARGE for a charge."""
    can_charge = g.pl[p, P.CHARGES] > 0 and g.pl[p, P.FRONT_SUM] > g.rules[R.THRESHOLD]
    return g.pl[p, P.HAND] | (np.int64(can_charge) << CHARGE)


@njit(cache=True, inline="always")  # not _nrt=False: Python and tests call it too
def observe(g, decision, seat):
    """PS-3: a seat chooses its card for the round seeing the public table only."""
    return Observation(g.pl, g.info)


@jit
def redeal(g, p):
    """Re-randomise what seat p cannot know: the order of the legions never revealed, and the
    cards the seats before p chose this round (hidden until PS-5's reveal), chosen again by
    their own strategies (in a search: the model of those players) on fresh random streams."""
    gs, deck = g.gs, g.deck
    ctl = g.core.ctl
    unseen = gs[G.UNSEEN]
    for i in range(unseen - 1, 0, -1):
        j = control.rand_below(ctl, i + 1)
        a, b = (gs[G.HEAD] + 1 + i) % N_LEGIONS, (gs[G.HEAD] + 1 + j) % N_LEGIONS
        deck[a], deck[b] = deck[b], deck[a]
    legal = g.core.legal[:N_ACTIONS]  # the buffer's upper half holds the asked decision's
    for q in range(p):
        legal_actions(g, q)
        a = core.decide(g, 0, q, legal)
        if a < 0 or a >= N_ACTIONS or not legal[a]:
            a = choose_legal(legal, g.core.streams, core.stream(g, q, 0))
        g.actions[q] = a


@jit
def start_info(g):
    """What every player knows from the start: the 7 strengths (PS-2), strongest first."""
    info = g.info
    info[:] = 0
    info[I.THRESHOLD] = g.rules[R.THRESHOLD]
    info[I.N_PLAYERS] = g.rules[R.PLAYERS]
    for i in range(N_LEGIONS):  # insertion sort
        v = g.legions[i]
        j = I.LEGIONS + i
        while j > I.LEGIONS and info[j - 1] < v:
            info[j] = info[j - 1]
            j -= 1
        info[j] = v


@inline
def forget_legion(info, strength):
    """A defeated legion leaves the public list of strengths still to come."""
    j = I.LEGIONS
    while info[j] != strength:
        j += 1
    while j < I.LEGIONS + N_LEGIONS - 1:
        info[j] = info[j + 1]
        j += 1
    info[I.LEGIONS + N_LEGIONS - 1] = 0


@inline
def merit_winner(values, actions, n_chargers, depth):
    """PS-6/7/8 and OP-2: the player who gets a defeated legion, or -1 for nobody.

    Distinct values are searched from the highest down; a tied value quarrels and passes the
    merit on, at most ``depth`` values deep. Two or more chargers are one tied top group.
    """
    n = values.shape[0]
    excluded = 0
    level = 0
    if n_chargers >= 2:
        for p in range(n):
            if actions[p] == CHARGE:
                excluded |= 1 << p
        level = 1
    while level < depth:
        best, count, who = -1, 0, -1
        for p in range(n):
            if (excluded >> p) & 1 == 0:
                if values[p] > best:
                    best, count, who = values[p], 1, p
                elif values[p] == best:
                    count += 1
        if count == 0:
            return -1
        if count == 1:
            return who
        for p in range(n):
            if values[p] == best:
                excluded |= 1 << p
        level += 1
    return -1


@inline
def return_shots(pl, p):
    pl[p, P.HAND] = ALL_SHOTS
    pl[p, P.FRONT] = 0
    pl[p, P.FRONT_SUM] = 0


@inline
def resolve_round(g):
    """PS-3..PS-14: reveal the chosen cards and apply the round's outcome."""
    rules = g.rules
    pl = g.pl
    deck = g.deck
    gs = g.gs
    info = g.info
    actions = g.actions
    values = g.values
    n = pl.shape[0]
    rnd = gs[G.ROUND]
    strength = deck[gs[G.HEAD]]
    total, n_chargers = 0, 0
    for p in range(n):  # PS-5 reveal; played shots stay face up in front
        a = actions[p]
        if a == CHARGE:
            values[p] = pl[p, P.FRONT_SUM]  # PS-4: a charge's power is the sum in front
            pl[p, P.CHARGES] -= 1
            pl[p, P.CHARGES_PLAYED] += 1
            n_chargers += 1
        else:
            values[p] = a + 1
            pl[p, P.HAND] &= ~(1 << a)
            pl[p, P.FRONT] |= 1 << a
            pl[p, P.FRONT_SUM] += a + 1
        total += values[p]
        log_event(g, EV.PLAY, rnd, p, a, values[p], 0)

    routed = 0
    if total > strength:  # PS-5/6/7/8: the legion is defeated and leaves the deck
        winner = merit_winner(values, actions, n_chargers, rules[R.MERIT_DEPTH])
        if winner >= 0:
            pl[winner, P.MERITS] += 1
            pl[winner, P.BEST_MERIT] = max(pl[winner, P.BEST_MERIT], strength)
        else:
            gs[G.UNCLAIMED] += 1
        gs[G.DEFEATED] += 1
        forget_legion(info, strength)
        gs[G.HEAD] = (gs[G.HEAD] + 1) % N_LEGIONS
        gs[G.LEFT] -= 1
        log_event(g, EV.DEFEATED, rnd, -1, total, strength, winner)
    else:  # PS-9..PS-12: the legion breaks through
        gs[G.BREAKTHROUGHS] += 1
        spared = n_chargers > 0 and rules[R.CHARGER_SHIELDS] == 1
        log_event(g, EV.BREAKTHROUGH, rnd, -1, total, strength, 1 if spared else 0)
        if not spared:  # PS-9 the highest value(s) take damage (OP-3: chargers never do)
            best = -1
            for p in range(n):
                if actions[p] != CHARGE and values[p] > best:
                    best = values[p]
            for p in range(n):
                if actions[p] != CHARGE and values[p] == best:
                    if pl[p, P.CHARGES] > 0:
                        pl[p, P.CHARGES] -= 1
                        pl[p, P.WOUNDS] += 1
                        return_shots(pl, p)
                        log_event(g, EV.DAMAGE, rnd, p, pl[p, P.CHARGES], 0, 0)
                        log_event(g, EV.RESUPPLY, rnd, p, 9, 0, 0)
                    else:  # PS-12 routed
                        pl[p, P.ROUTED] = 1
                        routed += 1
                        log_event(g, EV.DAMAGE, rnd, p, -1, 0, 0)
        # PS-11 to the bottom of the deck (a lone last legion simply stays in play)
        bottom = (gs[G.HEAD] + gs[G.LEFT]) % N_LEGIONS
        deck[bottom] = strength
        gs[G.HEAD] = (gs[G.HEAD] + 1) % N_LEGIONS

    for p in range(n):  # PS-13 charge resupply, PS-14 camel resupply (OP-5: once)
        if actions[p] == CHARGE and pl[p, P.FRONT] != 0:
            return_shots(pl, p)
            log_event(g, EV.RESUPPLY, rnd, p, 13, 0, 0)
        elif actions[p] != CHARGE and pl[p, P.HAND] != 0 and pl[p, P.HAND] & (pl[p, P.HAND] - 1) == 0:
            return_shots(pl, p)
            log_event(g, EV.RESUPPLY, rnd, p, 14, 0, 0)

    if routed > 0:
        gs[G.END] = END.NO_SURVIVOR if routed == n else END.DEFEAT
    elif gs[G.LEFT] == 0:
        gs[G.END] = END.VICTORY


@jit
def winners(rules, pl, end):
    """PS-15/16 and OP-4: bitmask of the seats that share the win."""
    n = pl.shape[0]
    if end != END.VICTORY and end != END.DEFEAT:
        return 0
    sign = 1 if end == END.VICTORY else -1  # defeat: the lowest score escapes
    best_score, best_tie, mask = -(1 << 30), -(1 << 30), 0
    for p in range(n):
        if pl[p, P.ROUTED] == 1:
            continue
        score = sign * (pl[p, P.MERITS] + pl[p, P.CHARGES])
        tie = sign * pl[p, P.BEST_MERIT]  # victory: strongest merit wins; defeat: beheaded first
        if score > best_score or (score == best_score and tie > best_tie):
            best_score, best_tie, mask = score, tie, 1 << p
        elif score == best_score and tie == best_tie:
            mask |= 1 << p
    if mask & (mask - 1) != 0 and rules[R.SHARE_TIES] == 0:
        return 0
    return mask


@jit
def write_record(g, out, row):
    pl, gs = g.pl, g.gs
    n = pl.shape[0]
    mask = winners(g.rules, pl, gs[G.END])
    out[row, RECORD_LENGTH] = gs[G.ROUND]
    out[row, RECORD_END] = gs[G.END]
    out[row, RECORD_WINNERS] = mask
    out[row, C.DEFEATED] = gs[G.DEFEATED]
    out[row, C.BREAKTHROUGHS] = gs[G.BREAKTHROUGHS]
    out[row, C.UNCLAIMED] = gs[G.UNCLAIMED]
    for p in range(n):
        c = C.SEAT0 + p * N_SEAT_COLUMNS
        score = pl[p, P.MERITS] + pl[p, P.CHARGES]
        out[row, c] = score
        out[row, c + 1] = pl[p, P.MERITS]
        out[row, c + 2] = pl[p, P.BEST_MERIT]
        out[row, c + 3] = pl[p, P.WOUNDS]
        out[row, c + 4] = pl[p, P.CHARGES_PLAYED]
        out[row, c + 5] = pl[p, P.ROUTED]
        log_event(g, EV.SCORE, gs[G.ROUND], p, score, pl[p, P.BEST_MERIT], 0)
    log_event(g, EV.END, gs[G.ROUND], -1, gs[G.END], mask, 0)


# _nrt=False: no reference counting inside the game loop. Numba otherwise pays an atomic
# incref/decref for every array view and argument, which cost 40% of the run time here
# (benchmark: 325k -> 565k games/s). Nothing below play_chunk may allocate arrays.
@jit
def play_game(g, out, row):
    """One game from set-up to record."""
    pl, gs, info, deck = g.pl, g.gs, g.info, g.deck
    n = pl.shape[0]
    setup(g)
    max_rounds = N_LEGIONS + n * g.rules[R.CHARGES]  # every breakthrough costs a charge card
    while gs[G.END] < 0 and not core.stopped(g):
        if gs[G.ROUND] == max_rounds:
            gs[G.END] = END.CAP
            break
        gs[G.ROUND] += 1
        info[I.ROUND] = gs[G.ROUND]
        info[I.LEGION] = deck[gs[G.HEAD]]
        info[I.DECK_LEFT] = gs[G.LEFT]
        if gs[G.UNSEEN] > 0:  # the head was still unseen (returned legions lie below)
            gs[G.UNSEEN] -= 1
        log_event(g, EV.LEGION, gs[G.ROUND], -1, info[I.LEGION], gs[G.LEFT], 0)
        for p in range(n):  # PS-3 simultaneous: everyone decides on the same information
            g.actions[p] = core.ask_set(g, 0, p, legal_set(g, p), N_ACTIONS)
        resolve_round(g)
    write_record(g, out, row)


core.register(State, N_CHANCE, N_DECISIONS, play_game=play_game, observe=observe, redeal=redeal,
              strategy=builtin_decide, features=features)


@njit(cache=True)
def new_state(rules, legions, batch, log, ctl):
    """The state of one chunk's games (allocated once; every game reuses it)."""
    n = rules[R.PLAYERS]
    return State(core.new_core(batch, n, N_CHANCE, N_DECISIONS, N_ACTIONS, log, ctl, N_FEATURES),
                 rules,
                 legions, np.zeros((n, N_FIELDS), np.int64), np.zeros(N_LEGIONS, np.int64),
                 np.zeros(N_GAME_FIELDS, np.int64), np.zeros(INFO_SIZE, np.int64),
                 np.zeros(n, np.int64), np.zeros(n, np.int64))


@njit(cache=True, nogil=True)
def play_chunk(rules, legions, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, legions, batch, log, ctl), batch, out)
