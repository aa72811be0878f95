"""Goofspiel rules as Numba kernels (rule ids GS-n: games/goofspiel/RULES.md).

The state is a :class:`State`: the engine's core and one record of small integer arrays
(layout.STATE_DTYPE, sized for the largest variant; fields named in layout.py); hands are
bitmasks (bit v-1 = card v). Every bid goes through the engine's ``ask``
(sim/core/protocol.py); this module holds only the rules. Nothing here allocates per game.
Bids are asked in seat order but are simultaneous (GS-3): no seat's strategy is handed anything
that another seat chose this turn.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.goofspiel.strategies import builtin_decide

from sim import core
from sim.bits import nth_bit, popcount
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import shuffle
from .layout import (CHANCE, END, EV, G, I, INFO_SIZE, LOG_WIDTH, N_CHANCE, N_DECISIONS, N_FIELDS,
                     N_GAME_FIELDS, N_RULES, N_SEAT_COLUMNS, ORDER_RANDOM, STATE_DTYPE, UNKNOWN, C,
                     P, R)

LOG_WIDTH = LOG_WIDTH
RESAMPLE_ATTEMPTS = 400    # imp_info redeal: restarts of the whole bid history
RESAMPLE_TRIES = 200       # imp_info redeal: draws of one turn's bids before restarting
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


class State(NamedTuple):
    core: core.Core
    rec: np.ndarray        # STATE_DTYPE[1]: the game's arrays in one record (layout.py), each
                           # sized for the largest variant (n players and N cards use the first
                           # rows): rules (R.*), prizes, pl and seen (players' rows, P.*), deck,
                           # gs (G.*), info (I.*), bids, history, trial, wins, avail


class Observation(NamedTuple):
    """What a seat's strategy is handed."""
    players: np.ndarray    # int64[n, N_FIELDS]: what this seat sees of each player (P.*): with
                           # imp_info (GS-9) the others' HAND is UNKNOWN and LAST_BID 0. Read only.
    info: np.ndarray       # int64[INFO_SIZE]: public turn info (I.*). Read only.


OBSERVATION = (("players", np.int64, 2), ("info", np.int64, 1))


@jit
def setup(g):
    """GS-1 every hand holds cards 1..N; GS-2 the prize deck in its order (shuffled: random)."""
    st = g.rec[0]
    rules, pl, deck, gs, info = st.rules, st.pl, st.deck, st.gs, st.info
    n_cards = rules[R.CARDS]
    full = (np.int64(1) << n_cards) - 1
    for p in range(rules[R.PLAYERS]):
        for f in range(N_FIELDS):
            pl[p, f] = 0
        pl[p, P.HAND] = full
        pl[p, P.CARDS_LEFT] = n_cards
    for i in range(n_cards):
        deck[i] = st.prizes[i]
    if rules[R.ORDER] == ORDER_RANDOM and rules[R.FIXED_DECK] == 0:
        shuffle(st.deck[:], n_cards, g.core.streams, np.int64(CHANCE))
    for f in range(N_GAME_FIELDS):
        gs[f] = 0
    gs[G.END] = -1
    for f in range(INFO_SIZE):
        info[f] = 0
    info[I.UNSEEN] = full
    info[I.CARDS] = n_cards
    info[I.PLAYERS] = rules[R.PLAYERS]
    info[I.TURNS] = rules[R.TURNS]
    info[I.ORDER] = rules[R.ORDER]
    info[I.IMP_INFO] = rules[R.IMP_INFO]


@njit(cache=True, inline="always")  # not _nrt=False: Python and tests call it too
def observe(g, decision, p):
    """What seat p sees of the players: everything (hands are public: every bid is revealed,
    GS-4), or under imp_info (GS-9) its own row and the others' public points only. The arrays
    are plain views of the record's first n rows (n players), as a strategy expects them."""
    st = g.rec[0]
    n = st.rules[R.PLAYERS]
    pl = st.pl[:n]
    if st.rules[R.IMP_INFO] == 0:
        return Observation(pl, st.info[:])
    seen = st.seen[:n]
    for q in range(n):
        for f in range(N_FIELDS):
            seen[q, f] = pl[q, f]
        if q != p:
            seen[q, P.HAND] = UNKNOWN
            seen[q, P.LAST_BID] = 0
    return Observation(seen, st.info[:])


@inline
def random_card(hand, ctl):
    """A uniformly random card index of the bitmask ``hand`` from the controller's stream."""
    return nth_bit(hand, control.rand_below(ctl, popcount(hand)))


@jit
def redeal(g, p):
    """Re-randomise what seat p cannot know: the order of the prizes not yet revealed (GS-2,
    random order only: a fixed prize_order counts as one outcome of the shuffle), the bids that
    seats asked before p made this turn (GS-3), and under imp_info (GS-9) every other seat's
    past bids, consistent with who took each prize."""
    st = g.rec[0]
    rules, deck, info, pl = st.rules, st.deck, st.info, st.pl
    ctl = g.core.ctl
    n = rules[R.PLAYERS]
    t = st.gs[G.TURN]  # deck[t - 1] is this turn's prize, already revealed
    if rules[R.ORDER] == ORDER_RANDOM:
        k = 0
        for v in range(rules[R.CARDS]):  # canonical order first: never read the hidden one
            if (info[I.UNSEEN] >> v) & 1:
                deck[t + k] = v + 1
                k += 1
        for i in range(k - 1, 0, -1):  # Fisher-Yates from the controller's stream
            j = control.rand_below(ctl, i + 1)
            deck[t + i], deck[t + j] = deck[t + j], deck[t + i]
    if rules[R.IMP_INFO] != 0:
        turns = rules[R.TURNS]
        resample_bid_history(rules[:], pl[:n], st.history[:turns, :n], st.trial[:turns, :n],
                             st.wins[:turns], st.avail[:n], ctl, p, t - 1)
    for q in range(p):
        st.bids[q] = random_card(pl[q, P.HAND], ctl)


@jit
def resample_bid_history(rules, pl, history, trial, wins, avail, ctl, p, done):
    """GS-9: draw the other seats' bids of the ``done`` finished turns again so that each turn
    has the same taker (or tie) as in the game seat p saw; their hands follow.

    Rejection sampling turn by turn with restarts. The true history is one consistent answer, so
    one exists; if none is found within the budget the world is left as it is (never seen in
    tests: a 13-card game needs a few restarts at most).
    """
    n = pl.shape[0]
    full = (np.int64(1) << rules[R.CARDS]) - 1
    for _ in range(RESAMPLE_ATTEMPTS):
        for q in range(n):
            avail[q] = full
        ok = True
        for s in range(done):
            found = False
            for _ in range(RESAMPLE_TRIES):
                best, count, who = -1, 0, -1
                for q in range(n):
                    b = history[s, p] if q == p else random_card(avail[q], ctl)
                    trial[s, q] = b
                    if b > best:
                        best, count, who = b, 1, q
                    elif b == best:
                        count += 1
                if (who if count == 1 else -1) == wins[s]:
                    found = True
                    break
            if not found:
                ok = False
                break
            for q in range(n):
                avail[q] &= ~(np.int64(1) << trial[s, q])
        if ok:
            for q in range(n):
                if q == p:
                    continue
                for s in range(done):
                    history[s, q] = trial[s, q]
                pl[q, P.HAND] = avail[q]
                pl[q, P.LAST_BID] = trial[done - 1, q] + 1 if done > 0 else 0
            return


@inline
def resolve_turn(g, prize):
    """GS-4: bids are revealed; the unique highest bid takes the prize, a tie for the highest
    discards it. GS-5: the bid cards leave the hands."""
    st = g.rec[0]
    pl = st.pl
    gs = st.gs
    bids = st.bids
    history = st.history
    n = st.rules[R.PLAYERS]
    imp_info = st.rules[R.IMP_INFO]
    t = gs[G.TURN]
    best, count, who = -1, 0, -1
    for p in range(n):
        if bids[p] > best:
            best, count, who = bids[p], 1, p
        elif bids[p] == best:
            count += 1
    taker = who if count == 1 else -1
    for p in range(n):
        pl[p, P.HAND] &= ~(np.int64(1) << bids[p])
        pl[p, P.CARDS_LEFT] -= 1
        pl[p, P.LAST_BID] = bids[p] + 1
        history[t - 1, p] = bids[p]
        if imp_info == 0:
            log_event(g, EV.REVEAL, t, p, bids[p] + 1, 0, 0)
    st.wins[t - 1] = taker
    if taker >= 0:
        pl[taker, P.POINTS] += prize
        pl[taker, P.PRIZES] += 1
        log_event(g, EV.TURN, t, taker, prize, pl[taker, P.POINTS], 0)
    else:
        gs[G.TIED] += 1
        gs[G.DISCARDED] += prize
        st.info[I.DISCARDED] += prize
        log_event(g, EV.TURN, t, -1, prize, 0, 0)


@jit
def write_record(g, out, row):
    """GS-7: the most points wins; seats tied for the most share the win; all equal is a draw."""
    st = g.rec[0]
    pl, gs = st.pl, st.gs
    n = st.rules[R.PLAYERS]
    best, mask = -1, 0
    for p in range(n):
        if pl[p, P.POINTS] > best:
            best, mask = pl[p, P.POINTS], 1 << p
        elif pl[p, P.POINTS] == best:
            mask |= 1 << p
    k = popcount(mask)
    end = END.WON if k == 1 else (END.DRAW if k == n else END.SHARED)
    gs[G.END] = end
    out[row, RECORD_LENGTH] = gs[G.TURN]
    out[row, RECORD_END] = end
    out[row, RECORD_WINNERS] = mask
    out[row, C.TIED] = gs[G.TIED]
    out[row, C.DISCARDED] = gs[G.DISCARDED]
    for p in range(n):
        c = C.SEAT0 + p * N_SEAT_COLUMNS
        out[row, c] = pl[p, P.POINTS]
        out[row, c + 1] = pl[p, P.PRIZES]
        log_event(g, EV.SCORE, gs[G.TURN], p, pl[p, P.POINTS], pl[p, P.PRIZES], 0)
    log_event(g, EV.END, gs[G.TURN], -1, end, mask, 0)


# _nrt=False: no reference counting inside the game loop (see README "Writing a kernel");
# nothing below play_chunk may allocate arrays.
@jit
def play_game(g, out, row):
    """One game from the deal to the record."""
    st = g.rec[0]
    pl, gs, info, bids = st.pl, st.gs, st.info, st.bids
    n, n_cards, turns = st.rules[R.PLAYERS], st.rules[R.CARDS], st.rules[R.TURNS]
    setup(g)
    while gs[G.TURN] < turns and not core.stopped(g):
        t = gs[G.TURN] + 1
        gs[G.TURN] = t
        prize = st.deck[t - 1]
        info[I.TURN] = t
        info[I.PRIZE] = prize  # GS-3: the prize is revealed before anyone bids
        info[I.UNSEEN] &= ~(np.int64(1) << (prize - 1))
        log_event(g, EV.PRIZE, t, -1, prize, popcount(info[I.UNSEEN]), 0)
        for p in range(n):  # GS-3 any card in hand; GS-6: the last card is played without a
            a = core.ask_set(g, 0, p, pl[p, P.HAND], n_cards)  # decision (a forced move)
            bids[p] = a
            log_event(g, EV.BID, t, p, a + 1, 0, 0)
        resolve_turn(g, prize)
    write_record(g, out, row)


# one ask, decisions of a few nanoseconds: the strategies are inlined (core.register says why)
core.register(State, N_CHANCE, N_DECISIONS, inline_strategies=True, play_game=play_game,
              observe=observe, redeal=redeal, strategy=builtin_decide)


@njit(cache=True)
def new_state(rules, prizes, batch, log, ctl):
    """The state of one chunk's games (allocated once; every game reuses it)."""
    rec = np.zeros(1, STATE_DTYPE)
    st = rec[0]
    for i in range(N_RULES):
        st.rules[i] = rules[i]
    for i in range(prizes.shape[0]):
        st.prizes[i] = prizes[i]
    return State(core.new_core(batch, rules[R.PLAYERS], N_CHANCE, N_DECISIONS, rules[R.CARDS], log,
                               ctl), rec)


@njit(cache=True, nogil=True)
def play_chunk(rules, prizes, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, prizes, batch, log, ctl), batch, out)
