"""Goofspiel rules as Numba kernels (rule ids GS-n: docs/goofspiel.md).

State is small integer arrays whose fields are named in layout.py; hands are bitmasks (bit v-1 =
card v). Nothing here allocates per game: play_chunk allocates the scratch arrays once and reuses
them for every game. Bids are asked in seat order but are simultaneous (GS-3): no seat's
strategy is handed anything that another seat chose this turn.
"""
import numpy as np
from numba import njit

from strategies.goofspiel import builtin_decide

from .. import control
from ..bits import lowest_bit, nth_bit, popcount
from ..game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS, USER_KIND_BASE
from ..rng import seat_stream, seed_game, shuffle, stream_count
from .layout import (C_DISCARDED, C_SEAT0, C_TIED, CARDS_LEFT, CHANCE, END_DRAW, END_SHARED,
                     END_WON, EV_BID, EV_END, EV_PRIZE, EV_REVEAL, EV_SCORE, EV_TURN, G_DISCARDED,
                     G_END, G_TIED, G_TURN, HAND, I_CARDS, I_DISCARDED, I_IMP_INFO, I_ORDER,
                     I_PLAYERS, I_PRIZE, I_TURN, I_TURNS, I_UNSEEN, INFO_SIZE, LAST_BID, LOG_WIDTH,
                     N_CHANCE, N_DECISIONS, N_FIELDS, N_GAME_FIELDS, N_SEAT_COLUMNS, ORDER_RANDOM,
                     POINTS, PRIZES,
                     R_CARDS, R_FIXED_DECK, R_IMP_INFO, R_ORDER, R_PLAYERS, R_TURNS, UNKNOWN)

LOG_WIDTH = LOG_WIDTH
RESAMPLE_ATTEMPTS = 400    # imp_info redeal: restarts of the whole bid history
RESAMPLE_TRIES = 200       # imp_info redeal: draws of one turn's bids before restarting


@njit(cache=True)
def decide_custom(k, seat, players, info, legal, params, rng):
    """Placeholder for user strategies; sim.strategy recompiles the kernel with the real ones."""
    return -1


@njit(cache=True, inline="always")
def decide(kind, seat, players, info, legal, params, rng):
    if kind >= USER_KIND_BASE:
        return decide_custom(kind - USER_KIND_BASE, seat, players, info, legal, params, rng)
    return builtin_decide(kind, seat, players, info, legal, params, rng)


@njit(cache=True, inline="always")
def log_event(log, event, turn, seat, a, b, c):
    if log.shape[0] == 0:
        return
    k = log[0, 0] + 1
    if k < log.shape[0]:
        log[k, 0], log[k, 1], log[k, 2], log[k, 3], log[k, 4], log[k, 5] = event, turn, seat, a, b, c
        log[0, 0] = k


@njit(cache=True)
def setup(rules, prizes, pl, deck, gs, info, streams):
    """GS-1 every hand holds cards 1..N; GS-2 the prize deck in its order (shuffled: random)."""
    n_cards = rules[R_CARDS]
    full = (np.int64(1) << n_cards) - 1
    for p in range(pl.shape[0]):
        pl[p, :] = 0
        pl[p, HAND] = full
        pl[p, CARDS_LEFT] = n_cards
    for i in range(n_cards):
        deck[i] = prizes[i]
    if rules[R_ORDER] == ORDER_RANDOM and rules[R_FIXED_DECK] == 0:
        shuffle(deck, n_cards, streams, np.int64(CHANCE))
    gs[:] = 0
    gs[G_END] = -1
    info[:] = 0
    info[I_UNSEEN] = full
    info[I_CARDS] = n_cards
    info[I_PLAYERS] = rules[R_PLAYERS]
    info[I_TURNS] = rules[R_TURNS]
    info[I_ORDER] = rules[R_ORDER]
    info[I_IMP_INFO] = rules[R_IMP_INFO]


@njit(cache=True, inline="always")
def legal_bids(pl, p, legal):
    """GS-3: any card still in hand."""
    for v in range(legal.shape[0]):
        legal[v] = (pl[p, HAND] >> v) & 1 == 1


@njit(cache=True, inline="always")
def observe(rules, pl, view, p):
    """What seat p sees of the players: everything (hands are public: every bid is revealed,
    GS-4), or under imp_info (GS-9) its own row and the others' public points only."""
    if rules[R_IMP_INFO] == 0:
        return pl
    for q in range(pl.shape[0]):
        for f in range(N_FIELDS):
            view[q, f] = pl[q, f]
        if q != p:
            view[q, HAND] = UNKNOWN
            view[q, LAST_BID] = 0
    return view


@njit(cache=True, inline="always")
def ask(rules, pl, view, deck, gs, info, legal, bids, history, trial, wins, avail, kinds, params,
        streams, log, ctl, p):
    """GS-3: seat p chooses its bid, seeing its hand and the public table only."""
    legal_bids(pl, p, legal)
    own = seat_stream(N_CHANCE, N_DECISIONS, p, 0)
    rng = streams[own:own + 1]
    players = observe(rules, pl, view, p)
    if not control.active(ctl):
        return decide(kinds[p], p, players, info, legal, params[p], rng)
    if control.redeal_due(ctl):
        redeal(rules, pl, deck, gs, info, legal, bids, history, trial, wins, avail, ctl, p)
        control.reseed(ctl, streams, own, N_DECISIONS)
        legal_bids(pl, p, legal)
        players = observe(rules, pl, view, p)
    h = np.uint64(0)
    if control.needs_hash(ctl, p):
        h = control.hash_ints(players, np.uint64(p))
        h = control.hash_ints(info, h)
        h = control.hash_ints(legal, h)
        h = control.hash_floats(params[p], h)
        h = control.hash_ints(rng, h)
    a = control.before_decision(ctl, p, np.int64(0), h, legal)
    if a < 0:
        a = decide(kinds[p], p, players, info, legal, params[p], rng)
    return control.after_decision(ctl, p, np.int64(0), h, legal, a, log[0, 0] if log.shape[0] else 0)


@njit(cache=True, inline="always")
def random_card(hand, ctl):
    """A uniformly random card index of the bitmask ``hand`` from the controller's stream."""
    return nth_bit(hand, control.rand_below(ctl, popcount(hand)))


@njit(cache=True)
def redeal(rules, pl, deck, gs, info, legal, bids, history, trial, wins, avail, ctl, p):
    """Re-randomise what seat p cannot know: the order of the prizes not yet revealed (GS-2,
    random order only: a fixed prize_order counts as one outcome of the shuffle), the bids that
    seats asked before p made this turn (GS-3), and under imp_info (GS-9) every other seat's
    past bids, consistent with who took each prize."""
    t = gs[G_TURN]  # deck[t - 1] is this turn's prize, already revealed
    if rules[R_ORDER] == ORDER_RANDOM:
        k = 0
        for v in range(rules[R_CARDS]):  # canonical order first: never read the hidden one
            if (info[I_UNSEEN] >> v) & 1:
                deck[t + k] = v + 1
                k += 1
        for i in range(k - 1, 0, -1):  # Fisher-Yates from the controller's stream
            j = control.rand_below(ctl, i + 1)
            deck[t + i], deck[t + j] = deck[t + j], deck[t + i]
    if rules[R_IMP_INFO] != 0:
        resample_bid_history(rules, pl, history, trial, wins, avail, ctl, p, t - 1)
    for q in range(p):
        bids[q] = random_card(pl[q, HAND], ctl)


@njit(cache=True)
def resample_bid_history(rules, pl, history, trial, wins, avail, ctl, p, done):
    """GS-9: draw the other seats' bids of the ``done`` finished turns again so that each turn
    has the same taker (or tie) as in the game seat p saw; their hands follow.

    Rejection sampling turn by turn with restarts. The true history is one consistent answer, so
    one exists; if none is found within the budget the world is left as it is (never seen in
    tests: a 13-card game needs a few restarts at most).
    """
    n = pl.shape[0]
    full = (np.int64(1) << rules[R_CARDS]) - 1
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
                pl[q, HAND] = avail[q]
                pl[q, LAST_BID] = trial[done - 1, q] + 1 if done > 0 else 0
            return


@njit(cache=True, inline="always")
def resolve_turn(rules, pl, gs, info, bids, history, wins, prize, log):
    """GS-4: bids are revealed; the unique highest bid takes the prize, a tie for the highest
    discards it. GS-5: the bid cards leave the hands."""
    n = pl.shape[0]
    t = gs[G_TURN]
    best, count, who = -1, 0, -1
    for p in range(n):
        if bids[p] > best:
            best, count, who = bids[p], 1, p
        elif bids[p] == best:
            count += 1
    taker = who if count == 1 else -1
    for p in range(n):
        pl[p, HAND] &= ~(np.int64(1) << bids[p])
        pl[p, CARDS_LEFT] -= 1
        pl[p, LAST_BID] = bids[p] + 1
        history[t - 1, p] = bids[p]
        if rules[R_IMP_INFO] == 0:
            log_event(log, EV_REVEAL, t, p, bids[p] + 1, 0, 0)
    wins[t - 1] = taker
    if taker >= 0:
        pl[taker, POINTS] += prize
        pl[taker, PRIZES] += 1
        log_event(log, EV_TURN, t, taker, prize, pl[taker, POINTS], 0)
    else:
        gs[G_TIED] += 1
        gs[G_DISCARDED] += prize
        info[I_DISCARDED] += prize
        log_event(log, EV_TURN, t, -1, prize, 0, 0)


@njit(cache=True)
def write_record(pl, gs, out, row, log):
    """GS-7: the most points wins; seats tied for the most share the win; all equal is a draw."""
    n = pl.shape[0]
    best, mask = -1, 0
    for p in range(n):
        if pl[p, POINTS] > best:
            best, mask = pl[p, POINTS], 1 << p
        elif pl[p, POINTS] == best:
            mask |= 1 << p
    k = popcount(mask)
    end = END_WON if k == 1 else (END_DRAW if k == n else END_SHARED)
    gs[G_END] = end
    out[row, RECORD_LENGTH] = gs[G_TURN]
    out[row, RECORD_END] = end
    out[row, RECORD_WINNERS] = mask
    out[row, C_TIED] = gs[G_TIED]
    out[row, C_DISCARDED] = gs[G_DISCARDED]
    for p in range(n):
        c = C_SEAT0 + p * N_SEAT_COLUMNS
        out[row, c] = pl[p, POINTS]
        out[row, c + 1] = pl[p, PRIZES]
        log_event(log, EV_SCORE, gs[G_TURN], p, pl[p, POINTS], pl[p, PRIZES], 0)
    log_event(log, EV_END, gs[G_TURN], -1, end, mask, 0)


# _nrt=False: no reference counting inside the game loop (see README "Writing a kernel");
# nothing below play_chunk may allocate arrays.
@njit(cache=True, _nrt=False)
def play_game(rules, prizes, kinds, params, streams, pl, view, deck, gs, info, legal, bids,
              history, trial, wins, avail, out, row, error, log, ctl):
    """One game from the deal to the record. Returns False if a strategy made an illegal bid."""
    n = pl.shape[0]
    setup(rules, prizes, pl, deck, gs, info, streams)
    while gs[G_TURN] < rules[R_TURNS] and not control.stopped(ctl):
        t = gs[G_TURN] + 1
        gs[G_TURN] = t
        prize = deck[t - 1]
        info[I_TURN] = t
        info[I_PRIZE] = prize  # GS-3: the prize is revealed before anyone bids
        info[I_UNSEEN] &= ~(np.int64(1) << (prize - 1))
        log_event(log, EV_PRIZE, t, -1, prize, popcount(info[I_UNSEEN]), 0)
        for p in range(n):
            if pl[p, CARDS_LEFT] == 1:  # GS-6: the last card is played without a decision
                a = lowest_bit(pl[p, HAND])
            else:
                a = ask(rules, pl, view, deck, gs, info, legal, bids, history, trial, wins, avail,
                        kinds, params, streams, log, ctl, p)
                if a < 0 or a >= legal.shape[0] or not legal[a]:
                    error[0], error[1], error[2], error[3] = row, p, a, 1
                    return False
            bids[p] = a
            log_event(log, EV_BID, t, p, a + 1, 0, 0)
        resolve_turn(rules, pl, gs, info, bids, history, wins, prize, log)
    write_record(pl, gs, out, row, log)
    return True


@njit(cache=True, nogil=True)
def play_chunk(rules, prizes, kinds, params, key, first_game, out, error, log, ctl):
    """Play out.shape[0] games (see sim.game for the contract)."""
    n, n_cards, turns = rules[R_PLAYERS], rules[R_CARDS], rules[R_TURNS]
    pl = np.zeros((n, N_FIELDS), np.int64)
    view = np.zeros((n, N_FIELDS), np.int64)
    deck = np.zeros(n_cards, np.int64)
    gs = np.zeros(N_GAME_FIELDS, np.int64)
    info = np.zeros(INFO_SIZE, np.int64)
    legal = np.zeros(n_cards, np.bool_)
    bids = np.zeros(n, np.int64)
    history = np.zeros((turns, n), np.int64)
    trial = np.zeros((turns, n), np.int64)
    wins = np.zeros(turns, np.int64)
    avail = np.zeros(n, np.int64)
    streams = np.zeros(stream_count(N_CHANCE, n, N_DECISIONS), np.uint64)
    seat_kinds = np.zeros(n, np.int64)
    seat_params = np.zeros(params.shape, np.float64)
    trial_out, trial_error = out[:1].copy(), error.copy()
    no_log = np.zeros((0, log.shape[1]), np.int64)
    for row in range(out.shape[0]):
        game = first_game + row
        control.begin_game(ctl, game, row == 0, kinds, params, seat_kinds, seat_params)
        while True:  # a search seat pauses the game at each of its decisions (sim.control)
            seed_game(key, game, streams)
            if log.shape[0] > 0:
                log[0, 0] = 0
            ok = play_game(rules, prizes, seat_kinds, seat_params, streams, pl, view, deck, gs,
                           info, legal, bids, history, trial, wins, avail, out, row, error, log, ctl)
            if not control.search_pending(ctl):
                break
            for _ in range(control.begin_search(ctl, seat_params)):
                seed_game(key, game, streams)
                control.begin_iteration(ctl, seat_kinds, seat_params)
                play_game(rules, prizes, seat_kinds, seat_params, streams, pl, view, deck, gs, info,
                          legal, bids, history, trial, wins, avail, trial_out, 0, trial_error,
                          no_log, ctl)
                control.end_iteration(ctl, trial_out[0, RECORD_WINNERS])
            control.end_search(ctl, kinds, params, seat_kinds, seat_params)
        if not ok:
            return
