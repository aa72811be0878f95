"""Shuo Jian rules as Numba kernels (rule ids SJ-n and open points OP-n refer to
shared/rules/shuo_jian.md).

The state is a :class:`State` of int64 arrays whose fields are named in layout.py: ``pub`` (what
both seats see), ``hid`` (one row per seat: its hand and swordsman; a strategy is handed its own
row only), ``ks`` (kernel-only bookkeeping) and ``deck`` (the draw pile, card types, drawn from
``ks[K.TOP]``). Hands, the table and the discards are counts per card type (layout.py).

Every decision goes through the engine's ``ask`` (sim/core/protocol.py); this module holds only
the rules: straight-line code that asks a seat whenever the rules need a decision. Conditions
(OP-2) arrive as precomputed bitmasks of the numbers each condition allows (``cmask``), so a
user's Python predicate costs nothing here.

Speed: everything below play_chunk runs without reference counting (``_nrt=False``), so nothing
below it allocates; constants passed to non-inlined functions are wrapped in np.int64() (Numba
compiles a copy of a function per literal argument value).
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.shuojian.strategies import N_FEATURES, PASS_CODE, builtin_decide, features

from sim import core
from sim.bits import lowest_bit
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import rand_below, shuffle
from . import layout as L
from .layout import (ACT, ANSWER, CARD, CHANCE, DRAW, END, EV, FOLLOW, GROUP, MASK, N_CHANCE,
                     N_DECISIONS, START, WHY, C, D, H, K, P, PL, R, S, TY)

LOG_WIDTH = L.LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")
LOST, DODGED, TURNED = 0, 1, 2   # outcomes of answering a blow


class State(NamedTuple):
    core: core.Core
    rules: np.ndarray      # int64[N_RULES]: R.*
    types: np.ndarray      # int64[MAX_TYPES, TYPE_FIELDS]: the card type table, TY.*
    cmask: np.ndarray      # int64[MAX_CONDITIONS, 2]: numbers each condition allows (0..49, 50..99)
    deck_init: np.ndarray  # int64[MAX_CARDS]: the deck before the shuffle (card types)
    swords: np.ndarray     # int64[2]: the scripted swordsmen (R.FIXED_SWORDS)
    pub: np.ndarray        # int64[PUB_SIZE]: the public state, P.*
    hid: np.ndarray        # int64[2, HID_SIZE]: each seat's private row, H.*
    ks: np.ndarray         # int64[KS_SIZE]: kernel-only bookkeeping, K.*
    deck: np.ndarray       # int64[MAX_CARDS]: the draw pile (card types) from ks[K.TOP]
    plays: np.ndarray      # int64[MAX_PLAYS, PLAY_FIELDS]: the listed plays, PL.*
    pool: np.ndarray       # int64[MAX_CARDS]: the redeal's unseen cards
    tbits: np.ndarray      # int64[MAX_TYPES + 1, 4]: record-mask bits of each type (card_bit);
                           # row MAX_TYPES: bitmask of the number types of each action (bit
                           # t - FIRST_NUMBER), zeros included with both actions


class Observation(NamedTuple):
    """What a seat's strategy is handed: the public state, its own private row and, for an
    attack or a reply, the legal plays; never the opponent's hand, swordsman or the deck order."""
    pub: np.ndarray        # int64[PUB_SIZE]: P.* (read only)
    mine: np.ndarray       # int64[HID_SIZE]: this seat's row, H.*; mine[H.MEMORY:] is the
                           # strategy's own scratch, the rest read only
    plays: np.ndarray      # int64[n, PLAY_FIELDS]: D.ATTACK / D.REPLY's legal plays (PL.*);
                           # empty for the other decisions


OBSERVATION = (("pub", np.int64, 1), ("mine", np.int64, 1), ("plays", np.int64, 2))


@inline
def seat_at(seat, field):
    return P.SEATS + seat * L.SEAT_STRIDE + field


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
    lo, hi = L.ALL_NUMBERS, L.ALL_NUMBERS
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
    """Bit of type t in the record masks of `group` (GROUP.V, H, X, C), 0 if none."""
    action = types[t, TY.ACTION]
    if group == GROUP.V:
        return 1 << (types[t, TY.VALUE] - 1) if action == ACT.STRAIGHT else 0
    if group == GROUP.H:
        return 1 << (types[t, TY.VALUE] - 1) if action == ACT.SWEEP else 0
    if group == GROUP.X:
        if t < L.FIRST_NUMBER:
            return 1 << (t + 1)
        return 1 if action == ACT.ZERO else 0
    c = types[t, TY.COND]
    return 1 << c if c >= 0 and t >= L.FIRST_NUMBER else 0


@inline
def mark(g, seat, t, which):
    """Record that seat held / played card type t (record masks, layout MASK_NAMES)."""
    ks = g.ks
    tbits = g.tbits
    base = K.MASKS + seat * L.N_MASKS + which
    for group in range(4):
        ks[base + 3 * group] |= tbits[t, group]


@inline
def add_card(g, seat, t):
    pub = g.pub
    hid = g.hid
    hid[seat, H.HAND + t] += 1
    pub[seat_at(seat, S.HAND)] += 1
    if t >= L.FIRST_NUMBER:
        hid[seat, H.NUMBERS] += 1
        hid[seat, H.PRESENT] |= 1 << (t - L.FIRST_NUMBER)
    mark(g, seat, t, MASK.HELD)


@inline
def remove_card(g, seat, t):
    """Seat plays card type t from its hand (public: the seen-cards lower bound drops too)."""
    pub = g.pub
    hid = g.hid
    hid[seat, H.HAND + t] -= 1
    pub[seat_at(seat, S.HAND)] -= 1
    if t >= L.FIRST_NUMBER:
        hid[seat, H.NUMBERS] -= 1
        if hid[seat, H.HAND + t] == 0:
            hid[seat, H.PRESENT] &= ~(1 << (t - L.FIRST_NUMBER))
    seen = P.SEEN + seat * L.MAX_TYPES + t
    if pub[seen] > 0:
        pub[seen] -= 1
    mark(g, seat, t, MASK.PLAYED)


@jit
def finish(g, reason, winners):
    ks = g.ks
    if ks[K.END] < 0:
        ks[K.END] = reason
        ks[K.WINNERS] = winners


@jit
def deck_out(g):
    """SJ-14: the deck is exhausted: fewer cards in hand wins; equal hands draw (OP-8)."""
    pub = g.pub
    h0, h1 = pub[seat_at(0, S.HAND)], pub[seat_at(1, S.HAND)]
    if h0 < h1:
        finish(g, np.int64(END.DECK_OUT), np.int64(1))
    elif h1 < h0:
        finish(g, np.int64(END.DECK_OUT), np.int64(2))
    else:
        finish(g, np.int64(END.DRAW), np.int64(0 if g.rules[R.TIE_NOBODY] else 3))


@jit
def draw(g, seat, why):
    """SJ-3: seat draws the top card. False when the game ends: the deck was empty (OP-12
    default), or this draw took the last card and OP-12 says that ends the game."""
    pub, ks, deck = g.pub, g.ks, g.deck
    top = ks[K.TOP]
    if top >= ks[K.N_CARDS]:
        deck_out(g)
        return False
    t = deck[top]
    ks[K.TOP] = top + 1
    pub[P.DECK] -= 1
    add_card(g, seat, t)
    ks[K.DRAWS + seat] += 1
    log_event(g, EV.DRAW, pub[P.TURN], seat, t, why)
    log_event(g, EV.DRAWN, pub[P.TURN], seat, why, pub[P.DECK], pub[seat_at(seat, S.HAND)])
    if g.rules[R.END_AT_LAST] and ks[K.TOP] >= ks[K.N_CARDS]:
        deck_out(g)
        return False
    return True


# --- set-up ---------------------------------------------------------------------------------

@jit
def take_swordsman(g, seat, n):
    """SJ-1 / OP-6: a number card out of deck[:n] (a random one, or the scripted one), order
    of the rest kept. Returns its type."""
    deck = g.deck
    pick = -1
    if g.rules[R.FIXED_SWORDS]:
        for i in range(n):
            if deck[i] == g.swords[seat]:
                pick = i
                break
    else:
        count = 0
        for i in range(n):
            count += deck[i] >= L.FIRST_NUMBER
        k = rand_below(g.core.streams, CHANCE.SWORD, count)
        for i in range(n):
            if deck[i] >= L.FIRST_NUMBER:
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
    rules = g.rules
    hid = g.hid
    if rules[R.ZEROS_OPEN]:
        return hid[seat, H.NUMBERS]
    types = g.types
    n = 0
    for t in range(L.FIRST_NUMBER, rules[R.N_TYPES]):
        if types[t, TY.ACTION] != ACT.ZERO:
            n += hid[seat, H.HAND + t]
    return n


@jit
def deal(g, seat):
    """SJ-2: 7 cards; fewer than 2 number cards (0s count unless opening_zeros is off, OP-16):
    shuffle back and redraw."""
    pub, hid, ks, deck = g.pub, g.hid, g.ks, g.deck
    for i in range(L.HAND_SIZE):
        draw(g, seat, np.int64(WHY.DEAL))
    tries = 0
    counted = opening_numbers(g, seat)
    masks = K.MASKS + seat * L.N_MASKS
    while counted < L.MIN_OPENING_NUMBERS and tries < L.MAX_REDRAWS:
        tries += 1
        # the count the rule used (OP-16: without the 0s when opening_zeros is off), and the 0s
        # it left out
        log_event(g, EV.REDRAW, 0, seat, counted, hid[seat, H.NUMBERS] - counted)
        top = ks[K.TOP]
        for t in range(g.rules[R.N_TYPES]):  # the hand goes back just above the remaining deck
            while hid[seat, H.HAND + t] > 0:
                hid[seat, H.HAND + t] -= 1
                top -= 1
                deck[top] = t
        hid[seat, H.NUMBERS] = 0
        hid[seat, H.PRESENT] = 0
        pub[seat_at(seat, S.HAND)] = 0
        pub[P.DECK] += L.HAND_SIZE
        ks[K.DRAWS + seat] -= L.HAND_SIZE
        ks[K.TOP] = top
        shuffle(deck[top:], ks[K.N_CARDS] - top, g.core.streams, np.int64(CHANCE.DECK))
        for group in range(4):
            ks[masks + 3 * group + MASK.HELD] = 0
        for i in range(L.HAND_SIZE):
            draw(g, seat, np.int64(WHY.DEAL))
        counted = opening_numbers(g, seat)
    for group in range(4):  # the opening hand is what is held now
        ks[masks + 3 * group + MASK.OPENING] = ks[masks + 3 * group + MASK.HELD]


@jit
def setup(g):
    rules, types, cmask = g.rules, g.types, g.cmask
    pub, hid, ks, deck = g.pub, g.hid, g.ks, g.deck
    streams = g.core.streams
    for i in range(P.DYNAMIC):
        pub[i] = 0
    hid[:, :] = 0
    ks[:] = 0
    ks[K.END] = -1
    n_types = rules[R.N_TYPES]
    if g.core.log.shape[0] > 0:
        for c in range(rules[R.N_CONDITIONS]):
            log_event(g, EV.CONDITION, 0, -1, c, cmask[c, 0], cmask[c, 1])
        for t in range(n_types):
            log_event(g, EV.TYPE, 0, -1, t, types[t, TY.ACTION], types[t, TY.VALUE],
                      types[t, TY.COND], types[t, TY.COPIES])
    n = rules[R.N_CARDS]
    for i in range(n):
        deck[i] = g.deck_init[i]
    for seat in range(2):  # SJ-1, OP-6: the swordsmen leave the deck before the shuffle
        t = take_swordsman(g, seat, n)
        n -= 1
        ks[K.SWORD + seat] = t
        if rules[R.SEE_OWN]:  # OP-15
            hid[seat, H.SWORD] = t
            hid[seat, H.SWORD_VALUE] = types[t, TY.VALUE]
            log_event(g, EV.SWORDSMAN, 0, seat, t, types[t, TY.VALUE])
        else:
            hid[seat, H.SWORD], hid[seat, H.SWORD_VALUE] = -1, -1
            log_event(g, EV.SWORDSMAN_HIDDEN, 0, seat, t, types[t, TY.VALUE])
        pub[seat_at(seat, S.KNOWN)] = -1
    start = rules[R.START]  # OP-5: squares in each owner's own row (0 left, 1 right)
    pub[seat_at(0, S.POS)] = 0 if start == START.LEFT else 1
    pub[seat_at(1, S.POS)] = 1 if start == START.RIGHT else 0
    ks[K.N_CARDS] = n
    pub[P.DECK] = n
    if rules[R.FIXED_DECK] == 0:
        shuffle(deck, n, streams, np.int64(CHANCE.DECK))
    for seat in range(2):
        log_event(g, EV.PLACE, 0, seat, pub[seat_at(seat, S.POS)])
    for seat in range(2):
        deal(g, seat)
    first = rules[R.FIRST]
    if first < 0:  # SJ-3
        first = rand_below(streams, CHANCE.FIRST, 2)
    pub[P.FIRST] = first
    pub[P.VOLUNTARY] = rules[R.VOLUNTARY]
    pub[P.LAST_NUMBER] = -1
    pub[P.LAST_SEAT] = -1
    pub[P.BLOW] = -1
    update_facing(pub)
    log_event(g, EV.FIRST, 0, first)
    return first


@inline
def update_facing(pub):
    """OP-5: seats sit opposite, so seat 1's left is seat 0's right: seat 0's square s is column
    s, seat 1's square s is column 1 - s. Facing = same column."""
    pub[P.FACING] = 1 if pub[seat_at(0, S.POS)] == 1 - pub[seat_at(1, S.POS)] else 0


# --- asking a seat ----------------------------------------------------------------------------

@jit
def ask(g, decision, seat, n):
    """The engine's ask (sim/core/protocol.py), compiled once for the rare decisions (follow,
    answer, guess): core.ask inlines the whole strategy dispatch into each call site, which cost
    compile time; the frequent ones (attack, reply) call core.ask inline, which is faster."""
    return core.ask(g, decision, seat, n)


# --- what a seat observes, and what it does not -------------------------------------------------

@njit(cache=True, inline="always")  # not _nrt=False: Python and tests call it too
def observe(g, decision, seat):
    """A strategy sees the public state, its own private row and the listed plays
    (plays[:pub[P.N_PLAYS]]: empty but for D.ATTACK / D.REPLY)."""
    return Observation(g.pub, g.hid[seat], g.plays[:g.pub[P.N_PLAYS]])


@jit
def redeal(g, seat):
    """Re-randomise what `seat` has not observed: the deck's order, the opponent's hand but for
    the cards publicly known to be in it (taken from the table), the opponent's swordsman (and
    its own when OP-15 hides it from its owner), keeping every public fact: hand sizes, numbers
    named wrongly or rightly for a swordsman (SJ-11). Unseen cards are collected by type in
    ascending order before the shuffle, so the result never depends on the hidden truth.
    Inferences from a pass (the passer held no legal reply) are not kept: the redeal samples
    the cards, not the history that produced them."""
    rules, types, pub, hid, ks, deck, pool = g.rules, g.types, g.pub, g.hid, g.ks, g.deck, g.pool
    ctl = g.core.ctl
    opp = 1 - seat
    n_types = rules[R.N_TYPES]
    count = np.int64(0)
    for t in range(n_types):  # canonical order: unseen copies of each type, by type
        k = hid[opp, H.HAND + t] - pub[P.SEEN + opp * L.MAX_TYPES + t]
        for i in range(ks[K.TOP], ks[K.N_CARDS]):
            k += deck[i] == t
        k += ks[K.SWORD + opp] == t
        if rules[R.SEE_OWN] == 0:
            k += ks[K.SWORD + seat] == t
        for i in range(k):
            pool[count] = t
            count += 1
    for i in range(count - 1, 0, -1):  # Fisher-Yates from the controller's stream
        j = control.rand_below(ctl, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for who in range(2):
        if who == seat and rules[R.SEE_OWN]:
            continue
        known, wrong = pub[seat_at(who, S.KNOWN)], pub[seat_at(who, S.WRONG)]
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
                    ks[K.SWORD + who] = t
                    if rules[R.SEE_OWN]:
                        hid[who, H.SWORD] = t
                        hid[who, H.SWORD_VALUE] = types[t, TY.VALUE]
                    break
                k -= 1
    i = 0
    hid[opp, H.NUMBERS] = 0
    for t in range(n_types):
        unknown = hid[opp, H.HAND + t] - pub[P.SEEN + opp * L.MAX_TYPES + t]
        hid[opp, H.HAND + t] = pub[P.SEEN + opp * L.MAX_TYPES + t]
        i += unknown
    for j in range(i):
        t = pool[j]
        hid[opp, H.HAND + t] += 1
    hid[opp, H.PRESENT] = 0
    for t in range(L.FIRST_NUMBER, n_types):
        hid[opp, H.NUMBERS] += hid[opp, H.HAND + t]
        if hid[opp, H.HAND + t] > 0:
            hid[opp, H.PRESENT] |= 1 << (t - L.FIRST_NUMBER)
    for j in range(ks[K.TOP], ks[K.N_CARDS]):
        deck[j] = pool[i]
        i += 1


@inline
def swordsman_fits(types, t, known, wrong):
    if t < L.FIRST_NUMBER:
        return False
    v = types[t, TY.VALUE]
    if known >= 0:
        return v == known
    return (wrong >> v) & 1 == 0


@jit
def script_action(g, decision, seat, obs, legal, code):
    """A script's code (games.shuojian.strategies.script): for D.ATTACK / D.REPLY action * 100 +
    number (script_code("V35")), the first listed play with that number and action, PASS_CODE
    a voluntary pass (index len(plays)); for the other decisions the action itself. A play
    that is not listed answers -1: an illegal action, reported."""
    if decision == D.ATTACK or decision == D.REPLY:
        plays = obs.plays
        if code == PASS_CODE:
            return plays.shape[0]
        for i in range(plays.shape[0]):
            if plays[i, PL.ACTION] * 100 + plays[i, PL.NUMBER] == code:
                return i
        return -1
    return code


@jit
def off_script(g, decision, seat, legal):
    """A decision a script does not list gets its lowest legal action."""
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


# --- plays ----------------------------------------------------------------------------------

@jit
def list_plays(g, seat, answering):
    """SJ-4 / OP-4: every distinct play of 1 or 2 number cards in seat's hand; when
    `answering`, only replies that beat the play to answer (SJ-5) and pass its conditions
    (SJ-6, OP-3). Fills plays[:n] in a canonical order (by card type) and returns n."""
    rules, types, pub, plays, tbits = g.rules, g.types, g.pub, g.plays, g.tbits
    hand = g.hid[seat]
    high_first = rules[R.HIGH_FIRST]
    last, last_action = pub[P.LAST_NUMBER], pub[P.LAST_ACTION]
    # The numbers a reply may form, as two 100-bit masks (two 50-bit words each): with the
    # answered play's action (greater, SJ-5) and with the other action (at most equal), both
    # within its conditions (SJ-6). A lead may form any number.
    same_lo, same_hi = L.ALL_NUMBERS, L.ALL_NUMBERS
    other_lo, other_hi = L.ALL_NUMBERS, L.ALL_NUMBERS
    if answering:
        lo, hi = masks_of(g.cmask, pub[P.LAST_CONDS])
        cut = last + 1  # numbers below `cut` are <= last
        below_lo = L.ALL_NUMBERS if cut >= 50 else (1 << cut) - 1
        below_hi = 0 if cut <= 50 else (1 << (cut - 50)) - 1
        same_lo, same_hi = lo & ~below_lo, hi & ~below_hi
        other_lo, other_hi = lo & below_lo, hi & below_hi
    straight_or_zero = tbits[L.MAX_TYPES, ACT.STRAIGHT]
    sweep_or_zero = tbits[L.MAX_TYPES, ACT.SWEEP]
    zeros = tbits[L.MAX_TYPES, ACT.ZERO]
    pair_conds = rules[R.TENS_ONLY] == 0
    held = hand[H.PRESENT]
    n = 0
    tens_bits = held & ~zeros  # SJ-4: a 0 is never alone and never the tens digit
    while tens_bits:
        a = L.FIRST_NUMBER + lowest_bit(tens_bits)
        tens_bits &= tens_bits - 1
        va, action = types[a, TY.VALUE], types[a, TY.ACTION]
        if action == last_action:
            m_lo, m_hi = same_lo, same_hi
        else:
            m_lo, m_hi = other_lo, other_hi
        if allows(m_lo, m_hi, va):
            plays[n, PL.TENS], plays[n, PL.UNITS] = a, -1
            plays[n, PL.NUMBER], plays[n, PL.ACTION] = va, action
            plays[n, PL.CONDS] = tbits[a, GROUP.C]
            n += 1
        window = ten_numbers(m_lo, m_hi, 10 * va)  # bit u: 10 * va + u may be formed
        if window == 0:
            continue  # no two-card number from this tens card is allowed
        # SJ-4: both cards share one action (a 0 is either)
        units_bits = held & (straight_or_zero if action == ACT.STRAIGHT else sweep_or_zero)
        while units_bits:
            b = L.FIRST_NUMBER + lowest_bit(units_bits)
            units_bits &= units_bits - 1
            vb = types[b, TY.VALUE]
            if (window >> vb) & 1 == 0 or (b == a and hand[H.HAND + b] < 2):
                continue
            if high_first and vb > va:
                continue  # OP-4 "high_first"
            plays[n, PL.TENS], plays[n, PL.UNITS] = a, b
            plays[n, PL.NUMBER], plays[n, PL.ACTION] = 10 * va + vb, action
            plays[n, PL.CONDS] = tbits[a, GROUP.C] | tbits[b, GROUP.C] if pair_conds \
                else tbits[a, GROUP.C]
            n += 1
    pub[P.N_PLAYS] = n
    return n


@jit
def make_play(g, seat, i, answering):
    """Play plays[i]: its cards go from the hand to the table and become the play to answer."""
    types, pub, ks, plays = g.types, g.pub, g.ks, g.plays
    tens, units = plays[i, PL.TENS], plays[i, PL.UNITS]
    number, action, conds = plays[i, PL.NUMBER], plays[i, PL.ACTION], plays[i, PL.CONDS]
    checked = pub[P.LAST_CONDS]
    answered = pub[P.LAST_NUMBER]
    for t in (tens, units):
        if t >= 0:
            remove_card(g, seat, t)
            pub[P.TABLE + t] += 1
            pub[P.TABLE_CARDS] += 1
            c = types[t, TY.COND]
            if c >= 0:
                ks[K.PLAYED + c] += 1
    pub[P.TURN] += 1
    pub[seat_at(seat, S.PLAYS)] += 1
    if answering:
        ks[K.REPLIES] += 1
        log_event(g, EV.REPLY, pub[P.TURN], seat, tens, units, number, answered, checked)
    else:
        log_event(g, EV.ATTACK, pub[P.TURN], seat, tens, units, number, conds)
    pub[P.LAST_NUMBER], pub[P.LAST_ACTION], pub[P.LAST_CONDS] = number, action, conds
    pub[P.LAST_SEAT] = seat


@jit
def take_table(g, seat):
    """SJ-7: the passer takes every number card on the table into its hand (in public view)."""
    pub = g.pub
    taken = pub[P.TABLE_CARDS]
    for t in range(L.FIRST_NUMBER, g.rules[R.N_TYPES]):
        while pub[P.TABLE + t] > 0:
            pub[P.TABLE + t] -= 1
            add_card(g, seat, t)
            pub[P.SEEN + seat * L.MAX_TYPES + t] += 1
            log_event(g, EV.TAKE, pub[P.TURN], seat, t)
    pub[P.TABLE_CARDS] = 0
    g.ks[K.TAKEN + seat] += taken
    return taken


@jit
def clear_table(g):
    """OP-14 "one reply": the exchange's cards leave play (nobody took them)."""
    pub = g.pub
    log_event(g, EV.CLEAR, pub[P.TURN], -1, pub[P.TABLE_CARDS])
    for t in range(L.FIRST_NUMBER, g.rules[R.N_TYPES]):
        pub[P.DISCARD + t] += pub[P.TABLE + t]
        pub[P.TABLE + t] = 0
    pub[P.TABLE_CARDS] = 0


@inline
def count_faced(g, passed):
    """Per condition of the play answered: a reply was asked for; `passed`: it was a pass."""
    ks = g.ks
    bits = g.pub[P.LAST_CONDS]
    c = 0
    while bits:
        if bits & 1:
            ks[K.FACED + c] += 1
            ks[K.PASSED + c] += passed
        bits >>= 1
        c += 1


# --- finishing blows ------------------------------------------------------------------------

@jit
def discard(g, seat, t):
    """SJ-13: a used finishing-blow card leaves play."""
    remove_card(g, seat, t)
    g.pub[P.DISCARD + t] += 1


@jit
def dodge(g, seat, answer):
    """SJ-9: move one square left / right in the owner's row; no square = void: it loses."""
    pub = g.pub
    discard(g, seat, np.int64(CARD.DODGE_LEFT if answer == ANSWER.LEFT else CARD.DODGE_RIGHT))
    g.ks[K.DODGES] += 1
    pos = pub[seat_at(seat, S.POS)]
    target = pos - 1 if answer == ANSWER.LEFT else pos + 1
    void = target < 0 or target > 1
    if not void:
        pub[seat_at(seat, S.POS)] = target
        update_facing(pub)
    log_event(g, EV.DODGE, pub[P.TURN], seat, answer, pub[seat_at(seat, S.POS)],
              1 if void else 0)
    if void:
        finish(g, np.int64(END.VOID_DODGE), np.int64(1 << (1 - seat)))
        return False
    return True


@inline
def answer_options(g, seat, counter_ok):
    """legal[0..2] for D.ANSWER: the dodges and the Counter-kill held. Returns False when the
    seat has no real answer: nothing held, or only dodges that would be void (SJ-9); playing a
    void dodge is then no different from taking the blow, so the blow lands. A void dodge
    stays legal beside a real answer (a blunder that loses, end reason void_dodge)."""
    hid = g.hid
    legal = g.core.legal
    pos = g.pub[seat_at(seat, S.POS)]
    legal[ANSWER.LEFT] = hid[seat, H.HAND + CARD.DODGE_LEFT] > 0
    legal[ANSWER.RIGHT] = hid[seat, H.HAND + CARD.DODGE_RIGHT] > 0
    legal[ANSWER.COUNTER] = counter_ok and hid[seat, H.HAND + CARD.COUNTER] > 0
    real = legal[ANSWER.COUNTER] or (legal[ANSWER.LEFT] and pos == 1) or \
        (legal[ANSWER.RIGHT] and pos == 0)
    return real


@jit
def answer_blow(g, passer, blow):
    """SJ-8 / SJ-11 / SJ-12: the passer answers a Slash or a Thrust. Returns DODGED (the striker
    attacks again, SJ-10), TURNED (a right Counter-kill was dodged: the passer attacks next) or
    LOST (the game is over)."""
    pub, ks = g.pub, g.ks
    striker = 1 - passer
    counter_ok = blow == CARD.SLASH  # SJ-12: a Thrust cannot be answered by a Counter-kill
    while True:
        pub[P.BLOW] = blow
        pub[P.N_PLAYS] = 0
        if not answer_options(g, passer, counter_ok):
            log_event(g, EV.HIT, pub[P.TURN], passer, blow)
            finish(g, np.int64(END.SLASH if blow == CARD.SLASH else END.THRUST),
                   np.int64(1 << striker))
            return LOST
        a = ask(g, np.int64(D.ANSWER), passer, np.int64(3))
        if a != ANSWER.COUNTER:
            return DODGED if dodge(g, passer, a) else LOST
        # SJ-11: name the striker's swordsman
        discard(g, passer, np.int64(CARD.COUNTER))
        ks[K.COUNTERS] += 1
        legal = g.core.legal
        for v in range(10):
            legal[v] = True
        guess = ask(g, np.int64(D.GUESS), passer, np.int64(10))
        right = guess == g.types[ks[K.SWORD + striker], TY.VALUE]
        log_event(g, EV.COUNTER, pub[P.TURN], passer, guess, 1 if right else 0)
        if not right:  # OP-7: the card is lost (or kept); the passer must still dodge
            pub[seat_at(striker, S.WRONG)] |= 1 << guess
            if g.rules[R.KEEP_WRONG_COUNTER]:
                pub[P.DISCARD + CARD.COUNTER] -= 1
                add_card(g, passer, np.int64(CARD.COUNTER))
            counter_ok = False
            continue
        ks[K.COUNTERS_RIGHT] += 1
        pub[seat_at(striker, S.KNOWN)] = guess
        pub[P.BLOW] = CARD.COUNTER  # the striker must dodge the Counter-kill or lose
        if not answer_options(g, striker, False):
            log_event(g, EV.HIT, pub[P.TURN], striker, CARD.COUNTER)
            finish(g, np.int64(END.COUNTER), np.int64(1 << passer))
            return LOST
        a = ask(g, np.int64(D.ANSWER), striker, np.int64(3))
        return TURNED if dodge(g, striker, a) else LOST


@jit
def after_pass(g, striker):
    """SJ-8..SJ-12 after the other seat passed: the striker may follow up with a Slash or a
    Thrust. Returns the next attacker, -1 when the game is over."""
    pub, hid, ks = g.pub, g.hid, g.ks
    legal = g.core.legal
    passer = 1 - striker
    legal[FOLLOW.NONE] = True
    legal[FOLLOW.SLASH] = hid[striker, H.HAND + CARD.SLASH] > 0
    legal[FOLLOW.THRUST] = hid[striker, H.HAND + CARD.THRUST] > 0 and pub[P.FACING] == 1  # SJ-12
    pub[P.N_PLAYS] = 0
    pub[P.BLOW] = -1
    follow = ask(g, np.int64(D.FOLLOW), striker, np.int64(3))
    log_event(g, EV.FOLLOW, pub[P.TURN], striker, follow)
    if follow != FOLLOW.NONE:
        blow = CARD.SLASH if follow == FOLLOW.SLASH else CARD.THRUST
        discard(g, striker, np.int64(blow))
        ks[K.FOLLOW_UPS] += 1
        if blow == CARD.SLASH:
            ks[K.SLASHES] += 1
        else:
            ks[K.THRUSTS] += 1
        outcome = answer_blow(g, passer, np.int64(blow))
        pub[P.BLOW] = -1
        if outcome == LOST:
            return -1
        if outcome == TURNED:
            return passer  # SJ-11: the counter-killer attacks next
    # SJ-10: no follow-up, or the passer dodged: the striker draws 1 more and attacks again
    if g.rules[R.LITERAL_EXTRA] and not draw(g, striker, np.int64(WHY.EXTRA)):
        return -1
    return striker


# --- an exchange ----------------------------------------------------------------------------

@jit
def exchange(g, attacker):
    """SJ-4..SJ-7: one exchange from the lead to a pass. Returns the next attacker, -1 when the
    game is over."""
    rules, pub, ks = g.rules, g.pub, g.ks
    legal = g.core.legal
    policy = rules[R.DRAWS]
    pub[P.ATTACKER] = attacker
    pub[P.EXCHANGE] += 1
    pub[P.LAST_NUMBER], pub[P.LAST_ACTION], pub[P.LAST_CONDS], pub[P.LAST_SEAT] = -1, -1, 0, -1
    if policy == DRAW.EXCHANGE_START:  # OP-11: both draw as the exchange starts
        if not draw(g, attacker, np.int64(WHY.EXCHANGE)) or \
                not draw(g, 1 - attacker, np.int64(WHY.EXCHANGE)):
            return -1
    elif not draw(g, attacker, np.int64(WHY.PLAY)):  # SJ-3: draw before playing
        return -1
    n = list_plays(g, attacker, False)
    while n == 0 and rules[R.DRAW_FOR_LEAD]:  # OP-16 "draw": draw until a lead is possible
        if not draw(g, attacker, np.int64(WHY.PLAY)):
            return -1
        n = list_plays(g, attacker, False)
    if n == 0:  # OP-16: no legal lead: the attack passes to the opponent
        log_event(g, EV.NO_LEAD, pub[P.TURN], attacker, g.hid[attacker, H.NUMBERS])
        return 1 - attacker
    for i in range(n):
        legal[i] = True
    make_play(g, attacker, core.ask_all(g, np.int64(D.ATTACK), attacker, n), False)
    replier = 1 - attacker
    replied = 0   # bit s: seat s has played in this exchange (OP-11 "first_play")
    replied |= 1 << attacker
    while True:
        if core.stopped(g):
            return -1  # a search abandons this replay (sim/core/control.py)
        if pub[P.TURN] >= rules[R.MAX_TURNS]:
            finish(g, np.int64(END.CAP), np.int64(0))
            return -1
        if policy == DRAW.EVERY_PLAY or (policy == DRAW.FIRST_PLAY
                                         and (replied >> replier) & 1 == 0):
            if not draw(g, replier, np.int64(WHY.PLAY)):  # SJ-5: the responder first draws 1
                return -1
        n = list_plays(g, replier, True)
        voluntary = rules[R.VOLUNTARY] == 1 and n > 0
        for i in range(n):
            legal[i] = True
        legal[n] = voluntary  # OP-13: index n = pass
        a = n
        if n > 0:
            a = core.ask_all(g, np.int64(D.REPLY), replier, n + 1 if voluntary else n)  # all legal
        count_faced(g, np.int64(1 if a == n else 0))
        if a == n:  # SJ-7: pass and take the table
            pub[P.TURN] += 1
            pub[seat_at(replier, S.PASSES)] += 1
            ks[K.PASSES] += 1
            log_event(g, EV.PASS, pub[P.TURN], replier, 1 if n == 0 else 0, pub[P.LAST_NUMBER],
                      pub[P.LAST_CONDS], pub[P.TABLE_CARDS])
            take_table(g, replier)
            pub[P.LAST_NUMBER], pub[P.LAST_ACTION], pub[P.LAST_CONDS] = -1, -1, 0
            return after_pass(g, 1 - replier)
        make_play(g, replier, a, True)
        replied |= 1 << replier
        if rules[R.ONE_REPLY]:  # OP-14: one reply, then the replier attacks
            clear_table(g)
            return replier
        replier = 1 - replier


# --- the game -------------------------------------------------------------------------------

@jit
def conserved(g):
    """Every card is in the deck, a hand, on the table, out of play or on the mat."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    total = ks[K.N_CARDS] - ks[K.TOP] + 2
    for t in range(rules[R.N_TYPES]):
        total += hid[0, H.HAND + t] + hid[1, H.HAND + t] + pub[P.TABLE + t] + pub[P.DISCARD + t]
        if hid[0, H.HAND + t] < 0 or hid[1, H.HAND + t] < 0:
            return False
    hands = 0
    for t in range(rules[R.N_TYPES]):
        hands += hid[0, H.HAND + t]
    return total == rules[R.N_CARDS] and hands == pub[seat_at(0, S.HAND)] \
        and ks[K.N_CARDS] - ks[K.TOP] == pub[P.DECK]


@jit
def write_record(g, out, row):
    types, pub, ks = g.types, g.pub, g.ks
    out[row, RECORD_LENGTH] = pub[P.TURN]
    out[row, RECORD_END] = ks[K.END]
    out[row, RECORD_WINNERS] = ks[K.WINNERS]
    discards = 0
    for t in range(g.rules[R.N_TYPES]):
        discards += pub[P.DISCARD + t]
    c = C.FIRST
    for v in (pub[P.FIRST], pub[P.EXCHANGE], ks[K.REPLIES], ks[K.PASSES], ks[K.SLASHES],
              ks[K.THRUSTS], ks[K.COUNTERS], ks[K.COUNTERS_RIGHT], ks[K.DODGES], pub[P.DECK],
              pub[P.TABLE_CARDS], discards):
        out[row, c] = v
        c += 1
    for k in range(L.MAX_CONDITIONS):
        out[row, C.FACED + k] = ks[K.FACED + k]
        out[row, C.PASSED + k] = ks[K.PASSED + k]
        out[row, C.PLAYED + k] = ks[K.PLAYED + k]
    for seat in range(2):
        c = C.SEAT0 + seat * L.N_SEAT_COLUMNS
        out[row, c] = pub[seat_at(seat, S.HAND)]
        out[row, c + 1] = types[ks[K.SWORD + seat], TY.VALUE]
        out[row, c + 2] = pub[seat_at(seat, S.PLAYS)]
        out[row, c + 3] = pub[seat_at(seat, S.PASSES)]
        out[row, c + 4] = ks[K.TAKEN + seat]
        out[row, c + 5] = ks[K.DRAWS + seat]
        for m in range(L.N_MASKS):
            out[row, c + 6 + m] = ks[K.MASKS + seat * L.N_MASKS + m]
        log_event(g, EV.REVEAL, pub[P.TURN], seat, ks[K.SWORD + seat],
                  types[ks[K.SWORD + seat], TY.VALUE])
    log_event(g, EV.END, pub[P.TURN], -1, ks[K.END], ks[K.WINNERS],
              pub[seat_at(0, S.HAND)], pub[seat_at(1, S.HAND)], pub[P.DECK])


@jit
def play_game(g, out, row):
    """One game from set-up to record."""
    ks = g.ks
    attacker = setup(g)
    while ks[K.END] < 0 and attacker >= 0 and not core.stopped(g):
        attacker = exchange(g, attacker)
    if ks[K.END] >= 0 and not conserved(g):
        ks[K.END] = END.BROKEN
        ks[K.WINNERS] = 0
    if ks[K.END] < 0:  # abandoned by the controller
        ks[K.END] = END.CAP
    write_record(g, out, row)


core.register(State, N_CHANCE, N_DECISIONS, play_game=play_game, observe=observe, redeal=redeal,
              strategy=builtin_decide, script_action=script_action, off_script=off_script,
              features=features)


@njit(cache=True)
def new_state(rules, types, cmask, deck_init, swords, batch, log, ctl):
    """The state of one chunk's games (allocated once; every game reuses it), with the static
    part of pub (the type and condition tables) and the record bits of each card type."""
    pub = np.zeros(L.PUB_SIZE, np.int64)
    pub[P.N_TYPES] = rules[R.N_TYPES]
    pub[P.N_CONDITIONS] = rules[R.N_CONDITIONS]
    for t in range(L.MAX_TYPES):
        for f in range(L.TYPE_FIELDS):
            pub[P.TYPES + t * L.TYPE_FIELDS + f] = types[t, f]
    for c in range(L.MAX_CONDITIONS):
        for w in range(L.CONDITION_WORDS):
            pub[P.CONDITIONS + c * L.CONDITION_WORDS + w] = cmask[c, w]
    tbits = np.zeros((L.MAX_TYPES + 1, 4), np.int64)
    for t in range(rules[R.N_TYPES]):
        for group in range(4):
            tbits[t, group] = card_bit(types, t, group)
        if t >= L.FIRST_NUMBER:
            tbits[L.MAX_TYPES, types[t, TY.ACTION]] |= 1 << (t - L.FIRST_NUMBER)
    zero_bits = tbits[L.MAX_TYPES, ACT.ZERO]
    tbits[L.MAX_TYPES, ACT.STRAIGHT] |= zero_bits
    tbits[L.MAX_TYPES, ACT.SWEEP] |= zero_bits
    return State(core.new_core(batch, L.N_SEATS, N_CHANCE, N_DECISIONS, L.N_ACTIONS, log, ctl,
                                N_FEATURES),
                 rules, types, cmask, deck_init, swords, pub,
                 np.zeros((L.N_SEATS, L.HID_SIZE), np.int64), np.zeros(L.KS_SIZE, np.int64),
                 np.zeros(L.MAX_CARDS, np.int64),
                 np.zeros((L.MAX_PLAYS, L.PLAY_FIELDS), np.int64),
                 np.zeros(L.MAX_CARDS, np.int64), tbits)


@njit(cache=True, nogil=True)
def play_chunk(rules, types, cmask, deck_init, swords, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, types, cmask, deck_init, swords, batch, log, ctl), batch, out)
