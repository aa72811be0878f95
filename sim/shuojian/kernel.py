"""Shuo Jian rules as Numba kernels (rule ids SJ-n and open points OP-n refer to
shared/rules/shuo_jian.md).

A game's state is int64 arrays whose fields are named in layout.py: ``pub`` (what both seats see),
``hid`` (one row per seat: its hand and swordsman; a strategy is handed its own row only), ``ks``
(kernel-only bookkeeping) and ``deck`` (the draw pile, card types, drawn from ``ks[K_TOP]``).
Hands, the table and the discards are counts per card type (layout.py). Every function below takes
``g = (rules, types, cmask, deck_init, swords, pub, hid, ks, deck, plays, legal, pool, kinds,
params, streams, error, log, ctl, tbits)``, so that any of them can ask a strategy for a decision.

The rules are straight-line code that asks a seat whenever the rules need a decision (``ask``,
the only place a strategy is called). Conditions (OP-2) arrive as precomputed bitmasks of the
numbers each condition allows (``cmask``), so a user's Python predicate costs nothing here.

Speed: everything below play_chunk runs without reference counting (``_nrt=False``), so nothing
below it allocates; constants passed to non-inlined functions are wrapped in np.int64() (Numba
compiles a copy of a function per literal argument value).
"""
import numpy as np
from numba import njit

from strategies.shuojian import builtin_decide

from .. import control
from ..bits import lowest_bit, popcount
from ..game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS, USER_KIND_BASE
from ..rng import rand_below, seat_stream, seed_game, shuffle, stream_count
from .layout import (
    ALL_NUMBERS, ANSWER_COUNTER, ANSWER_LEFT, ANSWER_RIGHT, COUNTER, C_FACED, C_FIRST, C_PASSED,
    C_PLAYED, C_SEAT0, DODGE_LEFT, DODGE_RIGHT, DRAW_EVERY_PLAY, DRAW_EXCHANGE_START,
    DRAW_FIRST_PLAY, D_ANSWER, D_ATTACK, D_FOLLOW, D_GUESS, D_REPLY, END_BROKEN, END_CAP,
    END_COUNTER, END_DECK_OUT, END_DRAW, END_SLASH, END_THRUST, END_VOID_DODGE, EV_ATTACK,
    EV_CLEAR, EV_CONDITION, EV_COUNTER, EV_DODGE, EV_DRAW, EV_DRAWN, EV_END, EV_FIRST, EV_FOLLOW,
    EV_HIT, EV_NO_LEAD, EV_PASS, EV_PLACE, EV_REDRAW, EV_REPLY, EV_REVEAL, EV_SWORDSMAN,
    EV_SWORDSMAN_HIDDEN, EV_TAKE, EV_TYPE, FIRST_NUMBER, FOLLOW_SLASH, FOLLOW_THRUST, G_C, G_H,
    G_V, G_X, HAND_SIZE, H_HAND, H_MEMORY, H_NUMBERS, H_PRESENT, H_SWORD, H_SWORD_VALUE, KS_SIZE,
    K_COUNTERS, K_COUNTERS_RIGHT, K_DODGES, K_DRAWS, K_END, K_FACED, K_FOLLOW_UPS, K_MASKS,
    K_N_CARDS, K_PASSED, K_PASSES, K_PLAYED, K_REPLIES, K_ROW, K_SLASHES, K_SWORD, K_TAKEN,
    K_THRUSTS, K_TOP, K_WINNERS, LOG_WIDTH, MAX_CARDS, MAX_REDRAWS, MIN_OPENING_NUMBERS,
    M_HELD, M_OPENING, M_PLAYED, NO_FOLLOW, N_DECISIONS, N_MASKS, N_SEAT_COLUMNS, PLAY_FIELDS, PL_ACTION,
    PL_CONDS, PL_NUMBER, PL_TENS, PL_UNITS, PUB_SIZE, P_ATTACKER, P_BLOW, P_CONDITIONS, P_DECK,
    P_DISCARD, P_DYNAMIC, P_EXCHANGE, P_FACING, P_FIRST, P_LAST_ACTION, P_LAST_CONDS,
    P_LAST_NUMBER, P_LAST_SEAT, P_N_CONDITIONS, P_N_PLAYS, P_N_TYPES, P_SEEN, P_TABLE,
    P_TABLE_CARDS, P_TURN, P_TYPES, P_VOLUNTARY, R_DRAWS, R_END_AT_LAST, R_FIRST, R_FIXED_DECK,
    R_FIXED_SWORDS, R_HIGH_FIRST, R_LITERAL_EXTRA, R_MAX_TURNS, R_N_CARDS, R_N_CONDITIONS,
    R_N_TYPES, R_ONE_REPLY, R_SEE_OWN, R_START, R_TENS_ONLY, R_TIE_NOBODY, R_VOLUNTARY, R_KEEP_WRONG_COUNTER, R_DRAW_FOR_LEAD, R_ZEROS_OPEN,
    P_SEATS, SEAT_STRIDE, SLASH, START_FACING, START_LEFT, START_RIGHT, STRAIGHT, SWEEP, S_HAND, S_KNOWN, S_PASSES, S_PLAYS,
    S_POS, S_WRONG, THRUST, TY_ACTION, TY_COND, TY_COPIES, TY_VALUE, TYPE_FIELDS, ZERO,
    HID_SIZE, MAX_TYPES, MAX_CONDITIONS, CONDITION_WORDS, N_ACTIONS, MAX_PLAYS)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")
# Random streams (sim.rng): 0 deck shuffles, 1 first player, 2 swordsmen; then one per (seat,
# decision type).
N_CHANCE = 3
FIRST_STREAM, SWORD_STREAM = 1, 2
LOST, DODGED, TURNED = 0, 1, 2   # outcomes of answering a blow


@njit(cache=True)
def decide_custom(k, decision, seat, pub, mine, plays, legal, params, rng):
    """Placeholder for user strategies; sim.strategy recompiles the kernel with the real ones."""
    return -1


@inline
def decide(kind, decision, seat, pub, mine, plays, legal, params, rng):
    if kind >= USER_KIND_BASE:
        return decide_custom(kind - USER_KIND_BASE, decision, seat, pub, mine, plays, legal,
                             params, rng)
    return builtin_decide(kind, decision, seat, pub, mine, plays, legal, params, rng)


@inline
def log_event(log, event, turn, seat, a, b, c, d, e):
    if log.shape[0] == 0:
        return
    k = log[0, 0] + 1
    if k < log.shape[0]:
        log[k, 0], log[k, 1], log[k, 2], log[k, 3] = event, turn, seat, a
        log[k, 4], log[k, 5], log[k, 6], log[k, 7] = b, c, d, e
        log[0, 0] = k


@inline
def seat_at(seat, field):
    return P_SEATS + seat * SEAT_STRIDE + field


@inline
def allows(conds_lo, conds_hi, m):
    """Number m (0..99) passes the conditions whose allowed-number masks are (lo, hi)."""
    if m < 50:
        return (conds_lo >> m) & 1 == 1
    return (conds_hi >> (m - 50)) & 1 == 1


@inline
def ten_numbers(lo, hi, start):
    """Bits 0..9: which of the numbers start..start+9 (start = 10..90) the masks allow."""
    if start >= 50:
        return (hi >> (start - 50)) & 1023
    if start + 9 < 50:
        return (lo >> start) & 1023
    return ((lo >> start) | (hi << (50 - start))) & 1023


@inline
def masks_of(cmask, bits):
    """Allowed-number masks (lo, hi) of the conjunction of the conditions in `bits`."""
    lo, hi = ALL_NUMBERS, ALL_NUMBERS
    while bits:
        c = 0
        while (bits >> c) & 1 == 0:
            c += 1
        bits &= bits - 1
        lo &= cmask[c, 0]
        hi &= cmask[c, 1]
    return lo, hi


# --- cards moving ---------------------------------------------------------------------------

@inline
def card_bit(types, t, group):
    """Bit of type t in the record masks of `group` (layout: v, h, x, c), 0 if none."""
    action = types[t, TY_ACTION]
    if group == G_V:
        return 1 << (types[t, TY_VALUE] - 1) if action == STRAIGHT else 0
    if group == G_H:
        return 1 << (types[t, TY_VALUE] - 1) if action == 1 else 0
    if group == G_X:
        if t < FIRST_NUMBER:
            return 1 << (t + 1)
        return 1 if action == ZERO else 0
    c = types[t, TY_COND]
    return 1 << c if c >= 0 and t >= FIRST_NUMBER else 0


@inline
def mark(g, seat, t, which):
    """Record that seat held / played card type t (record masks, layout MASK_NAMES)."""
    ks, tbits = g[7], g[18]
    base = K_MASKS + seat * N_MASKS + which
    for group in range(4):
        ks[base + 3 * group] |= tbits[t, group]


@inline
def add_card(g, seat, t):
    pub, hid = g[5], g[6]
    hid[seat, H_HAND + t] += 1
    pub[seat_at(seat, S_HAND)] += 1
    if t >= FIRST_NUMBER:
        hid[seat, H_NUMBERS] += 1
        hid[seat, H_PRESENT] |= 1 << (t - FIRST_NUMBER)
    mark(g, seat, t, M_HELD)


@inline
def remove_card(g, seat, t):
    """Seat plays card type t from its hand (public: the seen-cards lower bound drops too)."""
    pub, hid = g[5], g[6]
    hid[seat, H_HAND + t] -= 1
    pub[seat_at(seat, S_HAND)] -= 1
    if t >= FIRST_NUMBER:
        hid[seat, H_NUMBERS] -= 1
        if hid[seat, H_HAND + t] == 0:
            hid[seat, H_PRESENT] &= ~(1 << (t - FIRST_NUMBER))
    seen = P_SEEN + seat * MAX_TYPES + t
    if pub[seen] > 0:
        pub[seen] -= 1
    mark(g, seat, t, M_PLAYED)


@jit
def finish(g, reason, winners):
    ks = g[7]
    if ks[K_END] < 0:
        ks[K_END] = reason
        ks[K_WINNERS] = winners


@jit
def deck_out(g):
    """SJ-14: the deck is exhausted: fewer cards in hand wins; equal hands draw (OP-8)."""
    rules, pub = g[0], g[5]
    h0, h1 = pub[seat_at(0, S_HAND)], pub[seat_at(1, S_HAND)]
    if h0 < h1:
        finish(g, np.int64(END_DECK_OUT), np.int64(1))
    elif h1 < h0:
        finish(g, np.int64(END_DECK_OUT), np.int64(2))
    else:
        finish(g, np.int64(END_DRAW), np.int64(0 if rules[R_TIE_NOBODY] else 3))


@jit
def draw(g, seat, why):
    """SJ-3: seat draws the top card. False when the game ends: the deck was empty (OP-12
    default), or this draw took the last card and OP-12 says that ends the game."""
    rules, pub, ks, deck, log = g[0], g[5], g[7], g[8], g[16]
    top = ks[K_TOP]
    if top >= ks[K_N_CARDS]:
        deck_out(g)
        return False
    t = deck[top]
    ks[K_TOP] = top + 1
    pub[P_DECK] -= 1
    add_card(g, seat, t)
    ks[K_DRAWS + seat] += 1
    log_event(log, EV_DRAW, pub[P_TURN], seat, t, why, 0, 0, 0)
    log_event(log, EV_DRAWN, pub[P_TURN], seat, why, pub[P_DECK], pub[seat_at(seat, S_HAND)], 0, 0)
    if rules[R_END_AT_LAST] and ks[K_TOP] >= ks[K_N_CARDS]:
        deck_out(g)
        return False
    return True


# --- set-up ---------------------------------------------------------------------------------

@jit
def take_swordsman(g, seat, n):
    """SJ-1 / OP-6: a number card out of deck[:n] (a random one, or the scripted one), order
    of the rest kept. Returns its type."""
    rules, types, swords, deck, streams = g[0], g[1], g[4], g[8], g[14]
    pick = -1
    if rules[R_FIXED_SWORDS]:
        for i in range(n):
            if deck[i] == swords[seat]:
                pick = i
                break
    else:
        count = 0
        for i in range(n):
            count += deck[i] >= FIRST_NUMBER
        k = rand_below(streams, SWORD_STREAM, count)
        for i in range(n):
            if deck[i] >= FIRST_NUMBER:
                if k == 0:
                    pick = i
                    break
                k -= 1
    t = deck[pick]
    for i in range(pick, n - 1):
        deck[i] = deck[i + 1]
    return t


@inline
def opening_numbers(g, seat):
    """Number cards in hand for SJ-2 (OP-16: 0s count unless the option says otherwise)."""
    rules, types, hid = g[0], g[1], g[6]
    if rules[R_ZEROS_OPEN]:
        return hid[seat, H_NUMBERS]
    n = 0
    for t in range(FIRST_NUMBER, rules[R_N_TYPES]):
        if types[t, TY_ACTION] != ZERO:
            n += hid[seat, H_HAND + t]
    return n


@jit
def deal(g, seat):
    """SJ-2: 7 cards; fewer than 2 number cards (0s count unless opening_zeros is off, OP-16):
    shuffle back and redraw."""
    pub, hid, ks, deck, streams, log = g[5], g[6], g[7], g[8], g[14], g[16]
    for i in range(HAND_SIZE):
        draw(g, seat, np.int64(0))
    tries = 0
    counted = opening_numbers(g, seat)
    while counted < MIN_OPENING_NUMBERS and tries < MAX_REDRAWS:
        tries += 1
        # the count the rule used (OP-16: without the 0s when opening_zeros is off), and the 0s
        # it left out
        log_event(log, EV_REDRAW, 0, seat, counted, hid[seat, H_NUMBERS] - counted, 0, 0, 0)
        top = ks[K_TOP]
        for t in range(g[0][R_N_TYPES]):  # the hand goes back just above the remaining deck
            while hid[seat, H_HAND + t] > 0:
                hid[seat, H_HAND + t] -= 1
                top -= 1
                deck[top] = t
        hid[seat, H_NUMBERS] = 0
        hid[seat, H_PRESENT] = 0
        pub[seat_at(seat, S_HAND)] = 0
        pub[P_DECK] += HAND_SIZE
        ks[K_DRAWS + seat] -= HAND_SIZE
        ks[K_TOP] = top
        shuffle(deck[top:], ks[K_N_CARDS] - top, streams, np.int64(0))
        ks[K_MASKS + seat * N_MASKS + M_HELD] = 0
        ks[K_MASKS + seat * N_MASKS + M_HELD + 3] = 0
        ks[K_MASKS + seat * N_MASKS + M_HELD + 6] = 0
        ks[K_MASKS + seat * N_MASKS + M_HELD + 9] = 0
        for i in range(HAND_SIZE):
            draw(g, seat, np.int64(0))
        counted = opening_numbers(g, seat)
    for group in range(4):  # the opening hand is what is held now
        ks[K_MASKS + seat * N_MASKS + 3 * group + M_OPENING] = \
            ks[K_MASKS + seat * N_MASKS + 3 * group + M_HELD]


@jit
def setup(g, row):
    rules, types, cmask, deck_init = g[0], g[1], g[2], g[3]
    pub, hid, ks, deck, streams, log = g[5], g[6], g[7], g[8], g[14], g[16]
    pub[:P_DYNAMIC] = 0
    hid[:, :] = 0
    ks[:] = 0
    ks[K_ROW] = row
    ks[K_END] = -1
    n_types = rules[R_N_TYPES]
    if log.shape[0] > 0:
        for c in range(rules[R_N_CONDITIONS]):
            log_event(log, EV_CONDITION, 0, -1, c, cmask[c, 0], cmask[c, 1], 0, 0)
        for t in range(n_types):
            log_event(log, EV_TYPE, 0, -1, t, types[t, TY_ACTION], types[t, TY_VALUE],
                      types[t, TY_COND], types[t, TY_COPIES])
    n = rules[R_N_CARDS]
    for i in range(n):
        deck[i] = deck_init[i]
    for seat in range(2):  # SJ-1, OP-6: the swordsmen leave the deck before the shuffle
        t = take_swordsman(g, seat, n)
        n -= 1
        ks[K_SWORD + seat] = t
        if rules[R_SEE_OWN]:  # OP-15
            hid[seat, H_SWORD] = t
            hid[seat, H_SWORD_VALUE] = types[t, TY_VALUE]
            log_event(log, EV_SWORDSMAN, 0, seat, t, types[t, TY_VALUE], 0, 0, 0)
        else:
            hid[seat, H_SWORD], hid[seat, H_SWORD_VALUE] = -1, -1
            log_event(log, EV_SWORDSMAN_HIDDEN, 0, seat, t, types[t, TY_VALUE], 0, 0, 0)
        pub[seat_at(seat, S_KNOWN)] = -1
    start = rules[R_START]  # OP-5: squares in each owner's own row (0 left, 1 right)
    pub[seat_at(0, S_POS)] = 0 if start == START_LEFT else 1
    pub[seat_at(1, S_POS)] = 1 if start == START_RIGHT else 0
    ks[K_N_CARDS] = n
    pub[P_DECK] = n
    if rules[R_FIXED_DECK] == 0:
        shuffle(deck, n, streams, np.int64(0))
    for seat in range(2):
        log_event(log, EV_PLACE, 0, seat, pub[seat_at(seat, S_POS)], 0, 0, 0, 0)
    for seat in range(2):
        deal(g, seat)
    first = rules[R_FIRST]
    if first < 0:  # SJ-3
        first = rand_below(streams, FIRST_STREAM, 2)
    pub[P_FIRST] = first
    pub[P_VOLUNTARY] = rules[R_VOLUNTARY]
    pub[P_LAST_NUMBER] = -1
    pub[P_LAST_SEAT] = -1
    pub[P_BLOW] = -1
    update_facing(pub)
    log_event(log, EV_FIRST, 0, first, 0, 0, 0, 0, 0)
    return first


@inline
def update_facing(pub):
    """OP-5: seats sit opposite, so seat 1's left is seat 0's right: seat 0's square s is column
    s, seat 1's square s is column 1 - s. Facing = same column."""
    pub[P_FACING] = 1 if pub[P_SEATS + S_POS] == 1 - pub[P_SEATS + SEAT_STRIDE + S_POS] else 0


# --- asking a seat --------------------------------------------------------------------------

@jit
def ask(g, decision, seat, n):
    """The only place a strategy is called: seat chooses among actions 0..n-1 with legal[:n]
    (set by the caller; for D_ATTACK / D_REPLY plays[:pub[P_N_PLAYS]] lists the plays). A single
    legal action is taken without asking. The strategy sees the public state, its own private
    row, the listed plays, its parameters and its own random stream, nothing else (the
    observation contract of sim.game). An illegal answer is reported through `error` and the
    game goes on with the lowest legal action."""
    rules, pub, hid, ks, plays, legal = g[0], g[5], g[6], g[7], g[9], g[10]
    kinds, params, streams, error, log, ctl = g[12], g[13], g[14], g[15], g[16], g[17]
    n_legal, first = n, 0
    if decision > D_REPLY:  # plays (and a voluntary pass) are all legal; the rest may not be
        n_legal, first = 0, -1
        for a in range(n):
            if legal[a]:
                n_legal += 1
                if first < 0:
                    first = a
    if n_legal <= 1 and not control.active(ctl):
        return first
    own = seat_stream(N_CHANCE, N_DECISIONS, seat, decision)
    mine, lg, rng = hid[seat], legal[:n], streams[own:own + 1]
    pl = plays[:pub[P_N_PLAYS]]
    if not control.active(ctl):
        a = decide(kinds[seat], decision, seat, pub, mine, pl, lg, params[seat], rng)
    else:
        if control.redeal_due(ctl):
            redeal(g, seat)
            control.reseed(ctl, streams, seat_stream(N_CHANCE, N_DECISIONS, seat, 0), N_DECISIONS)
        h = np.uint64(0)
        if control.needs_hash(ctl, seat):
            h = control.hash_ints(pub, np.uint64(seat * 8 + decision))
            h = control.hash_ints(mine, h)
            h = control.hash_ints(pl, h)
            h = control.hash_ints(lg, h)
            h = control.hash_floats(params[seat], h)
            h = control.hash_ints(rng, h)
        a = control.before_decision(ctl, seat, decision, h, lg)
        if a < 0:
            if n_legal <= 1:
                a = first
            else:
                a = decide(kinds[seat], decision, seat, pub, mine, pl, lg, params[seat], rng)
        a = control.after_decision(ctl, seat, decision, h, lg, a,
                                   log[0, 0] if log.shape[0] else 0)
    if a < 0 or a >= n or not legal[a]:
        if error[3] != 1:
            error[0], error[1], error[2], error[3] = ks[K_ROW], seat, a, 1
        return first
    return a


@jit
def redeal(g, seat):
    """Re-randomise what `seat` has not observed: the deck's order, the opponent's hand but for
    the cards publicly known to be in it (taken from the table), the opponent's swordsman (and
    its own when OP-15 hides it from its owner), keeping every public fact: hand sizes, numbers
    named wrongly or rightly for a swordsman (SJ-11). Unseen cards are collected by type in
    ascending order before the shuffle, so the result never depends on the hidden truth.
    Inferences from a pass (the passer held no legal reply) are not kept: the redeal samples
    the cards, not the history that produced them."""
    rules, types, pub, hid, ks, deck, pool, ctl = g[0], g[1], g[5], g[6], g[7], g[8], g[11], g[17]
    opp = 1 - seat
    n_types = rules[R_N_TYPES]
    count = np.int64(0)
    for t in range(n_types):  # canonical order: unseen copies of each type, by type
        k = hid[opp, H_HAND + t] - pub[P_SEEN + opp * MAX_TYPES + t]
        for i in range(ks[K_TOP], ks[K_N_CARDS]):
            k += deck[i] == t
        k += ks[K_SWORD + opp] == t
        if rules[R_SEE_OWN] == 0:
            k += ks[K_SWORD + seat] == t
        for i in range(k):
            pool[count] = t
            count += 1
    for i in range(count - 1, 0, -1):  # Fisher-Yates from the controller's stream
        j = control.rand_below(ctl, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for who in range(2):
        if who == seat and rules[R_SEE_OWN]:
            continue
        known, wrong = pub[seat_at(who, S_KNOWN)], pub[seat_at(who, S_WRONG)]
        fits = np.int64(0)
        for i in range(count):
            fits += swordsman_fits(types, pool[i], known, wrong)
        k = control.rand_below(ctl, fits)
        for i in range(count):
            if swordsman_fits(types, pool[i], known, wrong):
                if k == 0:
                    t = pool[i]
                    pool[i] = pool[count - 1]
                    count -= 1
                    ks[K_SWORD + who] = t
                    if rules[R_SEE_OWN]:
                        hid[who, H_SWORD] = t
                        hid[who, H_SWORD_VALUE] = types[t, TY_VALUE]
                    break
                k -= 1
    i = 0
    hid[opp, H_NUMBERS] = 0
    for t in range(n_types):
        unknown = hid[opp, H_HAND + t] - pub[P_SEEN + opp * MAX_TYPES + t]
        hid[opp, H_HAND + t] = pub[P_SEEN + opp * MAX_TYPES + t]
        i += unknown
    for j in range(i):
        t = pool[j]
        hid[opp, H_HAND + t] += 1
    hid[opp, H_PRESENT] = 0
    for t in range(FIRST_NUMBER, n_types):
        hid[opp, H_NUMBERS] += hid[opp, H_HAND + t]
        if hid[opp, H_HAND + t] > 0:
            hid[opp, H_PRESENT] |= 1 << (t - FIRST_NUMBER)
    for j in range(ks[K_TOP], ks[K_N_CARDS]):
        deck[j] = pool[i]
        i += 1


@inline
def swordsman_fits(types, t, known, wrong):
    if t < FIRST_NUMBER:
        return False
    v = types[t, TY_VALUE]
    if known >= 0:
        return v == known
    return (wrong >> v) & 1 == 0


# --- plays ----------------------------------------------------------------------------------

@jit
def list_plays(g, seat, answering):
    """SJ-4 / OP-4: every distinct play of 1 or 2 number cards in seat's hand; when
    `answering`, only replies that beat the play to answer (SJ-5) and pass its conditions
    (SJ-6, OP-3). Fills plays[:n] in a canonical order (by card type) and returns n."""
    rules, types, cmask, pub, hid, plays = g[0], g[1], g[2], g[5], g[6], g[9]
    hand = hid[seat]
    high_first = rules[R_HIGH_FIRST]
    last, last_action = pub[P_LAST_NUMBER], pub[P_LAST_ACTION]
    # The numbers a reply may form, as two 100-bit masks (two 50-bit words each): with the
    # answered play's action (greater, SJ-5) and with the other action (at most equal), both
    # within its conditions (SJ-6). A lead may form any number.
    same_lo, same_hi, other_lo, other_hi = ALL_NUMBERS, ALL_NUMBERS, ALL_NUMBERS, ALL_NUMBERS
    if answering:
        lo, hi = masks_of(cmask, pub[P_LAST_CONDS])
        cut = last + 1  # numbers below `cut` are <= last
        below_lo = ALL_NUMBERS if cut >= 50 else (1 << cut) - 1
        below_hi = 0 if cut <= 50 else (1 << (cut - 50)) - 1
        same_lo, same_hi = lo & ~below_lo, hi & ~below_hi
        other_lo, other_hi = lo & below_lo, hi & below_hi
    tbits = g[18]
    same_or_zero = tbits[MAX_TYPES, STRAIGHT], tbits[MAX_TYPES, SWEEP]
    zeros = tbits[MAX_TYPES, ZERO]
    pair_conds = rules[R_TENS_ONLY] == 0
    held = hand[H_PRESENT]
    n = 0
    tens_bits = held & ~zeros  # SJ-4: a 0 is never alone and never the tens digit
    while tens_bits:
        a = FIRST_NUMBER + lowest_bit(tens_bits)
        tens_bits &= tens_bits - 1
        va, action = types[a, TY_VALUE], types[a, TY_ACTION]
        if action == last_action:
            m_lo, m_hi = same_lo, same_hi
        else:
            m_lo, m_hi = other_lo, other_hi
        if allows(m_lo, m_hi, va):
            plays[n, PL_TENS], plays[n, PL_UNITS] = a, -1
            plays[n, PL_NUMBER], plays[n, PL_ACTION] = va, action
            plays[n, PL_CONDS] = tbits[a, G_C]
            n += 1
        window = ten_numbers(m_lo, m_hi, 10 * va)  # bit u: 10 * va + u may be formed
        if window == 0:
            continue  # no two-card number from this tens card is allowed
        # SJ-4: both cards share one action (a 0 is either)
        units_bits = held & (same_or_zero[0] if action == STRAIGHT else same_or_zero[1])
        while units_bits:
            b = FIRST_NUMBER + lowest_bit(units_bits)
            units_bits &= units_bits - 1
            vb = types[b, TY_VALUE]
            if (window >> vb) & 1 == 0 or (b == a and hand[H_HAND + b] < 2):
                continue
            if high_first and vb > va:
                continue  # OP-4 "high_first"
            plays[n, PL_TENS], plays[n, PL_UNITS] = a, b
            plays[n, PL_NUMBER], plays[n, PL_ACTION] = 10 * va + vb, action
            plays[n, PL_CONDS] = tbits[a, G_C] | tbits[b, G_C] if pair_conds else tbits[a, G_C]
            n += 1
    pub[P_N_PLAYS] = n
    return n


@jit
def make_play(g, seat, i, answering):
    """Play plays[i]: its cards go from the hand to the table and become the play to answer."""
    types, pub, ks, plays, log = g[1], g[5], g[7], g[9], g[16]
    tens, units = plays[i, PL_TENS], plays[i, PL_UNITS]
    number, action, conds = plays[i, PL_NUMBER], plays[i, PL_ACTION], plays[i, PL_CONDS]
    checked = pub[P_LAST_CONDS]
    answered = pub[P_LAST_NUMBER]
    for t in (tens, units):
        if t >= 0:
            remove_card(g, seat, t)
            pub[P_TABLE + t] += 1
            pub[P_TABLE_CARDS] += 1
            c = types[t, TY_COND]
            if c >= 0:
                ks[K_PLAYED + c] += 1
    pub[P_TURN] += 1
    pub[seat_at(seat, S_PLAYS)] += 1
    if answering:
        ks[K_REPLIES] += 1
        log_event(log, EV_REPLY, pub[P_TURN], seat, tens, units, number, answered, checked)
    else:
        log_event(log, EV_ATTACK, pub[P_TURN], seat, tens, units, number, conds, 0)
    pub[P_LAST_NUMBER], pub[P_LAST_ACTION], pub[P_LAST_CONDS] = number, action, conds
    pub[P_LAST_SEAT] = seat


@jit
def take_table(g, seat):
    """SJ-7: the passer takes every number card on the table into its hand (in public view)."""
    rules, pub, ks, log = g[0], g[5], g[7], g[16]
    taken = pub[P_TABLE_CARDS]
    for t in range(FIRST_NUMBER, rules[R_N_TYPES]):
        while pub[P_TABLE + t] > 0:
            pub[P_TABLE + t] -= 1
            add_card(g, seat, t)
            pub[P_SEEN + seat * MAX_TYPES + t] += 1
            log_event(log, EV_TAKE, pub[P_TURN], seat, t, 0, 0, 0, 0)
    pub[P_TABLE_CARDS] = 0
    ks[K_TAKEN + seat] += taken
    return taken


@jit
def clear_table(g):
    """OP-14 "one reply": the exchange's cards leave play (nobody took them)."""
    rules, pub, log = g[0], g[5], g[16]
    log_event(log, EV_CLEAR, pub[P_TURN], -1, pub[P_TABLE_CARDS], 0, 0, 0, 0)
    for t in range(FIRST_NUMBER, rules[R_N_TYPES]):
        pub[P_DISCARD + t] += pub[P_TABLE + t]
        pub[P_TABLE + t] = 0
    pub[P_TABLE_CARDS] = 0


@inline
def count_faced(g, passed):
    """Per condition of the play answered: a reply was asked for; `passed`: it was a pass."""
    pub, ks = g[5], g[7]
    bits = pub[P_LAST_CONDS]
    c = 0
    while bits:
        if bits & 1:
            ks[K_FACED + c] += 1
            ks[K_PASSED + c] += passed
        bits >>= 1
        c += 1


# --- finishing blows ------------------------------------------------------------------------

@jit
def discard(g, seat, t):
    """SJ-13: a used finishing-blow card leaves play."""
    pub = g[5]
    remove_card(g, seat, t)
    pub[P_DISCARD + t] += 1


@jit
def dodge(g, seat, answer):
    """SJ-9: move one square left / right in the owner's row; no square = void: it loses."""
    pub, ks, log = g[5], g[7], g[16]
    discard(g, seat, np.int64(DODGE_LEFT if answer == ANSWER_LEFT else DODGE_RIGHT))
    ks[K_DODGES] += 1
    pos = pub[seat_at(seat, S_POS)]
    target = pos - 1 if answer == ANSWER_LEFT else pos + 1
    void = target < 0 or target > 1
    if not void:
        pub[seat_at(seat, S_POS)] = target
        update_facing(pub)
    log_event(log, EV_DODGE, pub[P_TURN], seat, answer, pub[seat_at(seat, S_POS)],
              1 if void else 0, 0, 0)
    if void:
        finish(g, np.int64(END_VOID_DODGE), np.int64(1 << (1 - seat)))
        return False
    return True


@inline
def answer_options(g, seat, counter_ok):
    """legal[0..2] for D_ANSWER: the dodges and the Counter-kill held. Returns False when the
    seat has no real answer: nothing held, or only dodges that would be void (SJ-9); playing a
    void dodge is then no different from taking the blow, so the blow lands. A void dodge
    stays legal beside a real answer (a blunder that loses, end reason void_dodge)."""
    pub, hid, legal = g[5], g[6], g[10]
    pos = pub[seat_at(seat, S_POS)]
    legal[ANSWER_LEFT] = hid[seat, H_HAND + DODGE_LEFT] > 0
    legal[ANSWER_RIGHT] = hid[seat, H_HAND + DODGE_RIGHT] > 0
    legal[ANSWER_COUNTER] = counter_ok and hid[seat, H_HAND + COUNTER] > 0
    real = legal[ANSWER_COUNTER] or (legal[ANSWER_LEFT] and pos == 1) or \
        (legal[ANSWER_RIGHT] and pos == 0)
    return real


@jit
def answer_blow(g, passer, blow):
    """SJ-8 / SJ-11 / SJ-12: the passer answers a Slash or a Thrust. Returns DODGED (the striker
    attacks again, SJ-10), TURNED (a right Counter-kill was dodged: the passer attacks next) or
    LOST (the game is over)."""
    rules, types, pub, ks, log = g[0], g[1], g[5], g[7], g[16]
    striker = 1 - passer
    counter_ok = blow == SLASH  # SJ-12: a Thrust cannot be answered by a Counter-kill
    while True:
        pub[P_BLOW] = blow
        pub[P_N_PLAYS] = 0
        if not answer_options(g, passer, counter_ok):
            log_event(log, EV_HIT, pub[P_TURN], passer, blow, 0, 0, 0, 0)
            finish(g, np.int64(END_SLASH if blow == SLASH else END_THRUST), np.int64(1 << striker))
            return LOST
        a = ask(g, np.int64(D_ANSWER), passer, np.int64(3))
        if a != ANSWER_COUNTER:
            return DODGED if dodge(g, passer, a) else LOST
        # SJ-11: name the striker's swordsman
        discard(g, passer, np.int64(COUNTER))
        ks[K_COUNTERS] += 1
        legal = g[10]
        for v in range(10):
            legal[v] = True
        guess = ask(g, np.int64(D_GUESS), passer, np.int64(10))
        right = guess == types[ks[K_SWORD + striker], TY_VALUE]
        log_event(log, EV_COUNTER, pub[P_TURN], passer, guess, 1 if right else 0, 0, 0, 0)
        if not right:  # OP-7: the card is lost (or kept); the passer must still dodge
            pub[seat_at(striker, S_WRONG)] |= 1 << guess
            if rules[R_KEEP_WRONG_COUNTER]:
                pub[P_DISCARD + COUNTER] -= 1
                add_card(g, passer, np.int64(COUNTER))
            counter_ok = False
            continue
        ks[K_COUNTERS_RIGHT] += 1
        pub[seat_at(striker, S_KNOWN)] = guess
        pub[P_BLOW] = COUNTER  # the striker must dodge the Counter-kill or lose
        if not answer_options(g, striker, False):
            log_event(log, EV_HIT, pub[P_TURN], striker, COUNTER, 0, 0, 0, 0)
            finish(g, np.int64(END_COUNTER), np.int64(1 << passer))
            return LOST
        a = ask(g, np.int64(D_ANSWER), striker, np.int64(3))
        return TURNED if dodge(g, striker, a) else LOST


@jit
def after_pass(g, striker):
    """SJ-8..SJ-12 after the other seat passed: the striker may follow up with a Slash or a
    Thrust. Returns the next attacker, -1 when the game is over."""
    rules, pub, hid, ks, legal, log = g[0], g[5], g[6], g[7], g[10], g[16]
    passer = 1 - striker
    legal[NO_FOLLOW] = True
    legal[FOLLOW_SLASH] = hid[striker, H_HAND + SLASH] > 0
    legal[FOLLOW_THRUST] = hid[striker, H_HAND + THRUST] > 0 and pub[P_FACING] == 1  # SJ-12
    pub[P_N_PLAYS] = 0
    pub[P_BLOW] = -1
    follow = ask(g, np.int64(D_FOLLOW), striker, np.int64(3))
    log_event(log, EV_FOLLOW, pub[P_TURN], striker, follow, 0, 0, 0, 0)
    if follow != NO_FOLLOW:
        blow = SLASH if follow == FOLLOW_SLASH else THRUST
        discard(g, striker, np.int64(blow))
        ks[K_FOLLOW_UPS] += 1
        if blow == SLASH:
            ks[K_SLASHES] += 1
        else:
            ks[K_THRUSTS] += 1
        outcome = answer_blow(g, passer, np.int64(blow))
        pub[P_BLOW] = -1
        if outcome == LOST:
            return -1
        if outcome == TURNED:
            return passer  # SJ-11: the counter-killer attacks next
    # SJ-10: no follow-up, or the passer dodged: the striker draws 1 more and attacks again
    if rules[R_LITERAL_EXTRA] and not draw(g, striker, np.int64(2)):
        return -1
    return striker


# --- an exchange ----------------------------------------------------------------------------

@jit
def exchange(g, attacker):
    """SJ-4..SJ-7: one exchange from the lead to a pass. Returns the next attacker, -1 when the
    game is over."""
    rules, pub, hid, ks, legal, log = g[0], g[5], g[6], g[7], g[10], g[16]
    policy = rules[R_DRAWS]
    pub[P_ATTACKER] = attacker
    pub[P_EXCHANGE] += 1
    pub[P_LAST_NUMBER], pub[P_LAST_ACTION], pub[P_LAST_CONDS], pub[P_LAST_SEAT] = -1, -1, 0, -1
    if policy == DRAW_EXCHANGE_START:  # OP-11: both draw as the exchange starts
        if not draw(g, attacker, np.int64(3)) or not draw(g, 1 - attacker, np.int64(3)):
            return -1
    elif not draw(g, attacker, np.int64(1)):  # SJ-3: draw before playing
        return -1
    n = list_plays(g, attacker, False)
    while n == 0 and rules[R_DRAW_FOR_LEAD]:  # OP-16 "draw": draw until a lead is possible
        if not draw(g, attacker, np.int64(1)):
            return -1
        n = list_plays(g, attacker, False)
    if n == 0:  # OP-16: no legal lead: the attack passes to the opponent
        log_event(log, EV_NO_LEAD, pub[P_TURN], attacker, hid[attacker, H_NUMBERS], 0, 0, 0, 0)
        return 1 - attacker
    for i in range(n):
        legal[i] = True
    make_play(g, attacker, ask(g, np.int64(D_ATTACK), attacker, n), False)
    replier = 1 - attacker
    replied = 0   # bit s: seat s has played in this exchange (OP-11 "first_play")
    replied |= 1 << attacker
    while True:
        if control.stopped(g[17]):
            return -1  # a search abandons this replay (sim.control)
        if pub[P_TURN] >= rules[R_MAX_TURNS]:
            finish(g, np.int64(END_CAP), np.int64(0))
            return -1
        if policy == DRAW_EVERY_PLAY or (policy == DRAW_FIRST_PLAY and (replied >> replier) & 1 == 0):
            if not draw(g, replier, np.int64(1)):  # SJ-5: the responder first draws 1
                return -1
        n = list_plays(g, replier, True)
        voluntary = rules[R_VOLUNTARY] == 1 and n > 0
        for i in range(n):
            legal[i] = True
        legal[n] = voluntary  # OP-13: index n = pass
        a = n
        if n > 0:
            a = ask(g, np.int64(D_REPLY), replier, n + 1 if voluntary else n)
        count_faced(g, np.int64(1 if a == n else 0))
        if a == n:  # SJ-7: pass and take the table
            pub[P_TURN] += 1
            pub[seat_at(replier, S_PASSES)] += 1
            ks[K_PASSES] += 1
            log_event(log, EV_PASS, pub[P_TURN], replier, 1 if n == 0 else 0, pub[P_LAST_NUMBER],
                      pub[P_LAST_CONDS], pub[P_TABLE_CARDS], 0)
            take_table(g, replier)
            pub[P_LAST_NUMBER], pub[P_LAST_ACTION], pub[P_LAST_CONDS] = -1, -1, 0
            return after_pass(g, 1 - replier)
        make_play(g, replier, a, True)
        replied |= 1 << replier
        if rules[R_ONE_REPLY]:  # OP-14: one reply, then the replier attacks
            clear_table(g)
            return replier
        replier = 1 - replier


# --- the game -------------------------------------------------------------------------------

@jit
def conserved(g):
    """Every card is in the deck, a hand, on the table, out of play or on the mat."""
    rules, pub, hid, ks = g[0], g[5], g[6], g[7]
    total = ks[K_N_CARDS] - ks[K_TOP] + 2
    for t in range(rules[R_N_TYPES]):
        total += hid[0, H_HAND + t] + hid[1, H_HAND + t] + pub[P_TABLE + t] + pub[P_DISCARD + t]
        if hid[0, H_HAND + t] < 0 or hid[1, H_HAND + t] < 0:
            return False
    hands = 0
    for t in range(rules[R_N_TYPES]):
        hands += hid[0, H_HAND + t]
    return total == rules[R_N_CARDS] and hands == pub[seat_at(0, S_HAND)] \
        and ks[K_N_CARDS] - ks[K_TOP] == pub[P_DECK]


@jit
def write_record(g, out, row):
    rules, types, pub, hid, ks, log = g[0], g[1], g[5], g[6], g[7], g[16]
    out[row, RECORD_LENGTH] = pub[P_TURN]
    out[row, RECORD_END] = ks[K_END]
    out[row, RECORD_WINNERS] = ks[K_WINNERS]
    discards = 0
    for t in range(rules[R_N_TYPES]):
        discards += pub[P_DISCARD + t]
    c = C_FIRST
    for v in (pub[P_FIRST], pub[P_EXCHANGE], ks[K_REPLIES], ks[K_PASSES], ks[K_SLASHES],
              ks[K_THRUSTS], ks[K_COUNTERS], ks[K_COUNTERS_RIGHT], ks[K_DODGES], pub[P_DECK],
              pub[P_TABLE_CARDS], discards):
        out[row, c] = v
        c += 1
    for k in range(MAX_CONDITIONS):
        out[row, C_FACED + k] = ks[K_FACED + k]
        out[row, C_PASSED + k] = ks[K_PASSED + k]
        out[row, C_PLAYED + k] = ks[K_PLAYED + k]
    for seat in range(2):
        c = C_SEAT0 + seat * N_SEAT_COLUMNS
        out[row, c] = pub[seat_at(seat, S_HAND)]
        out[row, c + 1] = types[ks[K_SWORD + seat], TY_VALUE]
        out[row, c + 2] = pub[seat_at(seat, S_PLAYS)]
        out[row, c + 3] = pub[seat_at(seat, S_PASSES)]
        out[row, c + 4] = ks[K_TAKEN + seat]
        out[row, c + 5] = ks[K_DRAWS + seat]
        for m in range(N_MASKS):
            out[row, c + 6 + m] = ks[K_MASKS + seat * N_MASKS + m]
        log_event(log, EV_REVEAL, pub[P_TURN], seat, ks[K_SWORD + seat],
                  types[ks[K_SWORD + seat], TY_VALUE], 0, 0, 0)
    log_event(log, EV_END, pub[P_TURN], -1, ks[K_END], ks[K_WINNERS],
              pub[seat_at(0, S_HAND)], pub[seat_at(1, S_HAND)], pub[P_DECK])


@jit
def play_game(g, out, row):
    """One game from set-up to record."""
    ks, ctl = g[7], g[17]
    attacker = setup(g, row)
    while ks[K_END] < 0 and attacker >= 0 and not control.stopped(ctl):
        attacker = exchange(g, attacker)
    if ks[K_END] >= 0 and not conserved(g):
        ks[K_END] = END_BROKEN
        ks[K_WINNERS] = 0
    if ks[K_END] < 0:  # abandoned by the controller
        ks[K_END] = END_CAP
    write_record(g, out, row)


@njit(cache=True, nogil=True)
def play_chunk(rules, types, cmask, deck_init, swords, kinds, params, key, first_game, out,
               error, log, ctl):
    """Play out.shape[0] games (see sim.game for the contract)."""
    pub = np.zeros(PUB_SIZE, np.int64)
    hid = np.zeros((2, HID_SIZE), np.int64)
    ks = np.zeros(KS_SIZE, np.int64)
    deck = np.zeros(MAX_CARDS, np.int64)
    plays = np.zeros((MAX_PLAYS, PLAY_FIELDS), np.int64)
    legal = np.zeros(N_ACTIONS, np.bool_)
    pool = np.zeros(MAX_CARDS, np.int64)
    streams = np.zeros(stream_count(N_CHANCE, 2, N_DECISIONS), np.uint64)
    seat_kinds = np.zeros(2, np.int64)
    seat_params = np.zeros(params.shape, np.float64)
    pub[P_N_TYPES] = rules[R_N_TYPES]  # the static part of pub: the type and condition tables
    pub[P_N_CONDITIONS] = rules[R_N_CONDITIONS]
    for t in range(MAX_TYPES):
        for f in range(TYPE_FIELDS):
            pub[P_TYPES + t * TYPE_FIELDS + f] = types[t, f]
    for c in range(MAX_CONDITIONS):
        for w in range(CONDITION_WORDS):
            pub[P_CONDITIONS + c * CONDITION_WORDS + w] = cmask[c, w]
    # tbits[t, group]: record-mask bits of type t (card_bit); row MAX_TYPES: bitmask of the
    # number types of each action (bit t - FIRST_NUMBER), zeros included with both actions
    tbits = np.zeros((MAX_TYPES + 1, 4), np.int64)
    for t in range(rules[R_N_TYPES]):
        for group in range(4):
            tbits[t, group] = card_bit(types, t, group)
        if t >= FIRST_NUMBER:
            action = types[t, TY_ACTION]
            tbits[MAX_TYPES, action] |= 1 << (t - FIRST_NUMBER)
    zero_bits = tbits[MAX_TYPES, ZERO]
    tbits[MAX_TYPES, STRAIGHT] |= zero_bits
    tbits[MAX_TYPES, SWEEP] |= zero_bits
    g = (rules, types, cmask, deck_init, swords, pub, hid, ks, deck, plays, legal, pool,
         seat_kinds, seat_params, streams, error, log, ctl, tbits)
    trial, trial_error = out[:1].copy(), error.copy()
    no_log = np.zeros((0, log.shape[1]), np.int64)
    trial_g = (rules, types, cmask, deck_init, swords, pub, hid, ks, deck, plays, legal, pool,
               seat_kinds, seat_params, streams, trial_error, no_log, ctl, tbits)
    for row in range(out.shape[0]):
        game = first_game + row
        control.begin_game(ctl, game, row == 0, kinds, params, seat_kinds, seat_params)
        while True:  # a search seat pauses the game at each of its decisions (sim.control)
            seed_game(key, game, streams)
            if log.shape[0] > 0:
                log[0, 0] = 0
            play_game(g, out, row)
            if not control.search_pending(ctl):
                break
            for _ in range(control.begin_search(ctl, seat_params)):
                seed_game(key, game, streams)
                control.begin_iteration(ctl, seat_kinds, seat_params)
                play_game(trial_g, trial, np.int64(0))
                control.end_iteration(ctl, trial[0, RECORD_WINNERS])
            control.end_search(ctl, kinds, params, seat_kinds, seat_params)
        if error[3] == 1:
            return
