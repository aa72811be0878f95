"""Sunzi / Dynasties rules as Numba kernels (rule ids SZ-n and open points OP-n refer to
shared/rules/sunzi_dynasties.md).

The state is a :class:`State`: the engine's ``core`` and one record of int64 arrays whose fields
are named in layout.py: ``pub`` (what both sides see), ``hid`` (one row per side: what only that
side knows; a strategy is handed its own row only), ``ks`` (kernel-only: deck order and
bookkeeping for the record) and the rules. Sets (hands, legal actions) are bitmasks. Every
decision goes through the engine's ``ask_set`` (sim/core/protocol.py), wrapped in Sunzi's
per-decision context (begin_ask, end_ask); this module holds only the rules: the set-up, the
game loop, what a seat observes, the redeal and the record. Nothing here allocates per game:
play_chunk allocates the state once.

Speed and compile time (measured, Numba 0.68):
- everything below play_chunk runs without reference counting (``_nrt=False``; +20% here, as in
  Parthian Shot), so nothing below it may allocate;
- every array of the state is passed on the stack to every call that is not inlined (one more
  array cost 18% of the run time), so Sunzi's fixed-size arrays are one record
  (layout.STATE_DTYPE) and a call with ``g`` costs about 0.5% of a random game per call a game:
  the frequent decisions are inlined where they are asked;
- Numba's inliner copies an inlined function's whole code for each call and each level of
  inlining, at a cost that grows with the square of its size, and the engine's ``ask_set`` is
  large: so ``ask_set`` is inlined directly into the function that asks (never inside another
  inlined function), once per frequent decision type, and the seldom ones share one called
  copy (ask_seldom, move_armies). That took the cold compile from 200 s to under 60 s;
- Numba compiles a separate copy of a function for every constant (literal) argument value it is
  called with, so no plain constant is passed to a function that is not inlined: seats come from
  loops or variables, other constants are wrapped in np.int64();
- inlined functions read one state field per assignment (several in one tuple assignment were
  once miscompiled).
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.sunzi.strategies import N_FEATURES, builtin_decide, features

from sim import core
from sim.bits import lowest_bit, nth_bit, popcount
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import shuffle
from . import layout as L
from .layout import (CARD, END, EV, H, K, LOG_WIDTH, N_ACTIONS, N_DECISIONS, N_ROUNDS, P, PASS,
                     POWER, R, RG, ST, S, WHY, WHITE, BLACK, C, D, battle, card_value, region_at,
                     seat_at)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")
PLACEABLE = (1 << CARD.LEADER) - 1   # the leader card is held, never placed
DISCARDABLE = ((1 << (CARD.PLAGUE + 1)) - 1) & ~L.YELLOWS   # SZ-2: white cards and the Plague
TILE_DRAW = 3          # State.deal[TILE_DRAW]: the tile draw (SZ-4)


class State(NamedTuple):
    core: core.Core
    rec: np.ndarray        # STATE_DTYPE[1]: the game's fixed-size arrays in one record (layout.py):
                           # rules (R.*), pub (the public state: P.*, seat_at(seat, S.*),
                           # region_at(region, RG.*)), hid (each side's private row, H.*), ks
                           # (kernel-only: deck order, record bookkeeping, K.*) and the board's
                           # set-up data (adjacency, fixed decks and tiles)
    deal: np.ndarray       # int64[4, n_tiles]: the tile set (OP-2), deal[k, t] = tile t's value
                           # after round 3 (k + 1); row TILE_DRAW: the tile draw of SZ-4


class Observation(NamedTuple):
    """What a side's strategy is handed (games/sunzi/strategies.py documents the fields)."""
    pub: np.ndarray        # int64[PUB_SIZE]: the public state. Read only.
    mine: np.ndarray       # int64[HID_SIZE]: the side's own private row; mine[H.MEMORY:] is the
                           # strategy's scratch memory, the rest is read only.


OBSERVATION = (("pub", np.int64, 1), ("mine", np.int64, 1))


# --- asking a side ----------------------------------------------------------------------------

@inline
def begin_ask(g, seat, mask):
    """Sunzi's context of a decision while it is asked, around the engine's ``ask_set``::

        a = end_ask(g, core.ask_set(g, D.X, seat, begin_ask(g, seat, mask), N_ACTIONS))

    asks the seat for one action of the bitmask ``mask`` (a single legal action is taken
    without asking; an illegal answer is reported and replaced by the lowest legal action). The
    mask is in pub[P.LEGAL] and mine[H.DECISIONS] counts the decisions the seat is asked while
    it decides; pub[P.REGION], P.AMOUNT and P.AUX (set by the caller) end with the decision.
    Written as two calls around the engine's, not as one function that calls it: Numba copies an
    inlined function's whole code once per level of inlining, and ``ask_set`` is large (one
    level less took a fifth off the inliner's work)."""
    g.rec[0].pub[P.LEGAL] = mask
    if mask & (mask - 1) != 0:  # two or more legal actions: the seat is asked
        g.rec[0].hid[seat, H.DECISIONS] += 1
    return mask


@inline
def end_ask(g, action):
    """The decision's context ends with it (see begin_ask)."""
    pub = g.rec[0].pub
    pub[P.REGION] = -1
    pub[P.AMOUNT] = 0
    pub[P.AUX] = 0
    pub[P.LEGAL] = 0
    return action


@jit
def ask_seldom(g, decision, seat, mask):
    """begin_ask/ask_set/end_ask for the decisions a game asks seldom (leaders, leader powers,
    the 6 power): one copy of the protocol for all of them, called instead of inlined, since
    every inlined copy costs compile time. Pass it no constants (np.int64(...)): see the
    module's notes."""
    return end_ask(g, core.ask_set(g, decision, seat, begin_ask(g, seat, mask), N_ACTIONS))


@njit(cache=True, inline="always")  # not _nrt=False: Python and tests may call it too
def observe(g, decision, seat):
    """A side sees the public state and its own private row."""
    st = g.rec[0]
    return Observation(st.pub[:], st.hid[seat])  # [:]: a plain array, as the row (not Numba's
                                                 # record-field type): one Observation type


@jit
def off_script(g, decision, seat, legal):
    """A script's answer to a decision it does not list: PASS if allowed (buy nothing, keep a
    leader power), else the lowest legal action."""
    if legal[PASS]:
        return PASS
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


@inline
def stat(seat, field):
    return K.STATS + seat * L.N_STATS + field


@inline
def regions_where(pub, seat, field, skip):
    """Bitmask of the regions (but `skip`) where pub[region_at(r, field + seat)] > 0."""
    mask = 0
    for r in range(pub[P.N_REGIONS]):  # branch-free: the branch mispredicted on random boards
        mask |= np.int64(pub[region_at(r, field + seat)] > 0) << r
    return mask & ~(1 << skip) if skip >= 0 else mask


# --- armies ---------------------------------------------------------------------------------

@inline
def remove_armies(g, seat, r, n):
    """Armies removed by a battle, a Plague or Chu d: they leave the game (default) or, with
    removed_armies="supply", go back to their owner's supply."""
    pub = g.rec[0].pub
    pub[region_at(r, RG.ARMIES + seat)] -= n
    if g.rec[0].rules[R.REMOVED_TO_SUPPLY]:
        pub[seat_at(seat, S.SUPPLY)] += n
    else:
        pub[seat_at(seat, S.REMOVED)] += n


@inline
def sources(g, seat, target, why):
    """SZ-12: the regions (not `target`) the seat may take one of its armies from, adjacent
    regions first (not for a marker, SZ-15): a bitmask, 0 if there is none. Markers never move."""
    pub = g.rec[0].pub
    mask = regions_where(pub, seat, RG.ARMIES, target)
    if g.rec[0].rules[R.MARKERS_MOVE]:  # SZ-15 "unless used for other actions"
        mask |= regions_where(pub, seat, RG.MARKERS, target)
    if why != WHY.MARKER and mask & pub[region_at(target, RG.ADJ)] != 0:
        mask &= pub[region_at(target, RG.ADJ)]
    return mask


@inline
def lift_army(pub, seat, q):
    """Take one of the seat's armies off region q: an army, or a marker where only markers
    are left (possible only with markers_move, SZ-15)."""
    if pub[region_at(q, RG.ARMIES + seat)] > 0:
        pub[region_at(q, RG.ARMIES + seat)] -= 1
    else:
        pub[region_at(q, RG.MARKERS + seat)] -= 1


@jit
def move_armies(g, seat, r, count, why):
    """SZ-12: up to `count` of the seat's armies, taken one at a time from its other regions
    (D.SOURCE: the seat picks which): placed on region r to cover a shortage (WHY.PLACE), for a marker beside r
    (WHY.MARKER; the caller puts it there) or leaving the game for a +2/+3 on r (WHY.COST).
    Returns how many were found. (Called, not inlined, so that the protocol's ``ask`` has one
    copy here for all three: see the module's notes; some 14 placements of a random game run
    short, markers and costs seldom.)"""
    st = g.rec[0]
    pub = st.pub
    for i in range(count):
        mask = sources(g, seat, r, why)
        if mask == 0:
            return i
        pub[P.REGION] = r
        pub[P.AMOUNT] = count - i  # armies still needed
        pub[P.AUX] = why
        q = end_ask(g, core.ask_set(g, D.SOURCE, seat, begin_ask(g, seat, mask), N_ACTIONS))
        lift_army(pub, seat, q)
        st.ks[stat(seat, ST.MOVED)] += 1
        log_event(g, EV.MOVE, pub[P.ROUND], seat, q, -1 if why == WHY.COST else r, why)
        if why == WHY.PLACE:
            pub[region_at(r, RG.ARMIES + seat)] += 1
        elif why == WHY.COST:
            pub[seat_at(seat, S.REMOVED)] += 1
    return count


@inline
def place_armies(g, seat, r, n):
    """Place n armies on region r (SZ-10), covering a shortage as SZ-12; returns how many."""
    pub = g.rec[0].pub
    from_supply = min(n, pub[seat_at(seat, S.SUPPLY)])
    pub[seat_at(seat, S.SUPPLY)] -= from_supply
    pub[region_at(r, RG.ARMIES + seat)] += from_supply
    if from_supply == n:
        return n
    return from_supply + move_armies(g, seat, r, n - from_supply, np.int64(WHY.PLACE))


@jit
def put_marker(g, seat, r, why):
    """A marker beside region r's name (SZ-15, SZ-17c): from supply, else from any other
    region ("from his other regions": no adjacency preference)."""
    pub = g.rec[0].pub
    supply = seat_at(seat, S.SUPPLY)
    if pub[supply] > 0:
        pub[supply] -= 1
    elif move_armies(g, seat, r, np.int64(1), np.int64(WHY.MARKER)) == 0:
        return False
    pub[region_at(r, RG.MARKERS + seat)] += 1
    log_event(g, EV.MARKER, pub[P.ROUND], seat, r, why)
    return True


@jit
def pay_cost(g, seat, r, n):
    """SZ-11 "loses n armies" for a +2/+3: they leave the game. OP-7: from supply first, then
    from the contested region (or the other way round), then from other regions as SZ-12."""
    pub = g.rec[0].pub
    supply, here = seat_at(seat, S.SUPPLY), region_at(r, RG.ARMIES + seat)
    first, second = (here, supply) if g.rec[0].rules[R.COST_REGION_FIRST] else (supply, here)
    paid = 0
    while paid < n and (pub[first] > 0 or pub[second] > 0):
        if pub[first] > 0:
            pub[first] -= 1
        else:
            pub[second] -= 1
        pub[seat_at(seat, S.REMOVED)] += 1
        paid += 1
    unpaid = 0
    if paid < n:  # nothing refills supply or region meanwhile: the rest from other regions
        unpaid = n - paid - move_armies(g, seat, r, n - paid, np.int64(WHY.COST))
    log_event(g, EV.COST, pub[P.ROUND], seat, n, r, unpaid)


# --- leaders (SZ-3, SZ-16, SZ-17, OP-9) ------------------------------------------------------

@inline
def power_ready(g, seat, power):
    hid = g.rec[0].hid
    return hid[seat, H.LEADER] == power and hid[seat, H.POWER] == 1


@jit
def show_leader(g, seat):
    """The seat's leader becomes public (at set-up, or at its first use when leaders are hidden)."""
    st = g.rec[0]
    pub = st.pub
    hid = st.hid
    if pub[seat_at(seat, S.LEADER)] < 0 and hid[seat, H.LEADER] >= 0:
        pub[seat_at(seat, S.LEADER)] = hid[seat, H.LEADER]
        log_event(g, EV.LEADER_SHOWN, pub[P.ROUND], seat, hid[seat, H.LEADER])


@jit
def spend_power(g, seat, a, b):
    """A leader power is used (once per game); the use is public from now on."""
    pub = g.rec[0].pub
    hid = g.rec[0].hid
    hid[seat, H.POWER] = 0
    if (hid[seat, H.HAND] >> CARD.LEADER) & 1:  # OP-9 "deck": the leader card leaves the game
        hid[seat, H.HAND] &= ~(1 << CARD.LEADER)
    pub[seat_at(seat, S.LEADER_ROUND)] = pub[P.ROUND]
    show_leader(g, seat)
    log_event(g, EV.POWER, pub[P.ROUND], seat, hid[seat, H.LEADER], a, b)


@inline
def ask_power(g, seat, power, r):
    """D.POWER: use leader power `power` now (on region r)? 0 = no, 1 = yes."""
    pub = g.rec[0].pub
    pub[P.REGION] = r
    pub[P.AUX] = power
    return ask_seldom(g, np.int64(D.POWER), np.int64(seat), np.int64(3)) == 1


@inline
def ask_target(g, seat, aux, regions):
    """D.TARGET: one of the regions in the bitmask, or PASS (keep the power)."""
    pub = g.rec[0].pub
    pub[P.REGION] = -1
    pub[P.AUX] = aux
    return ask_seldom(g, np.int64(D.TARGET), np.int64(seat), np.int64(regions | (1 << PASS)))


@inline
def choose_leaders(g):
    """SZ-3: each side's leader is fixed by the study or chosen by its strategy. Both choose
    before either choice is made public."""
    st = g.rec[0]
    rules = st.rules
    hid = st.hid
    white, black = rules[R.LEADER + WHITE], rules[R.LEADER + BLACK]
    for seat in range(2):
        if rules[R.LEADER + seat] == L.LEADER_STRATEGY:
            pick = ask_seldom(g, np.int64(D.LEADER), seat, np.int64(15))
            if seat == WHITE:
                white = pick
            else:
                black = pick
    hid[WHITE, H.LEADER] = white
    hid[BLACK, H.LEADER] = black
    for seat in range(2):
        # a side without a leader (rules value LEADER_NONE: the yardstick) has no power
        hid[seat, H.POWER] = 1 - rules[R.LEADER_IN_DECK] if hid[seat, H.LEADER] >= 0 else 0
        log_event(g, EV.LEADER, 0, seat, hid[seat, H.LEADER])
    if not rules[R.LEADERS_HIDDEN]:  # SZ-3: public from set-up (default reading)
        for seat in range(2):
            show_leader(g, seat)


@inline
def outpost(g):
    """SZ-16a: at game start Sun Wu may put a marker on his side of one region."""
    pub = g.rec[0].pub
    if not power_ready(g, WHITE, POWER.A) or pub[seat_at(WHITE, S.SUPPLY)] == 0:
        return
    r = ask_target(g, WHITE, POWER.A, (1 << pub[P.N_REGIONS]) - 1)
    if r != PASS:
        spend_power(g, np.int64(WHITE), r, np.int64(-1))
        k = min(g.rec[0].rules[R.AMOUNTS + 0], pub[seat_at(WHITE, S.SUPPLY)])
        pub[seat_at(WHITE, S.SUPPLY)] -= k
        pub[region_at(r, RG.MARKERS + WHITE)] += k
        log_event(g, EV.MARKER, pub[P.ROUND], WHITE, r, 0)


@jit
def round6_powers(g):
    """SZ-16b, SZ-16d, SZ-17d: the round-6 powers (OP-9: after round 6's battles by default),
    each moving the number of armies its card prints (1; rules[R.AMOUNTS + k])."""
    pub, rules = g.rec[0].pub, g.rec[0].rules
    n_regions = pub[P.N_REGIONS]
    if power_ready(g, WHITE, POWER.B) and pub[seat_at(WHITE, S.SUPPLY)] > 0:
        r = ask_target(g, WHITE, POWER.B, (1 << n_regions) - 1)
        if r != PASS:
            spend_power(g, np.int64(WHITE), r, np.int64(-1))
            k = min(rules[R.AMOUNTS + 1], pub[seat_at(WHITE, S.SUPPLY)])
            pub[seat_at(WHITE, S.SUPPLY)] -= k
            pub[region_at(r, RG.ARMIES + WHITE)] += k
    if power_ready(g, WHITE, POWER.D):
        movable = 0
        for r in range(n_regions):
            if pub[region_at(r, RG.ARMIES + WHITE)] > 0 and pub[region_at(r, RG.ADJ)] != 0:
                movable |= 1 << r
        q = ask_target(g, WHITE, POWER.D, movable)
        if q != PASS:
            pub[P.REGION] = q
            pub[P.AUX] = L.AUX_MARCH_TO
            r = ask_seldom(g, np.int64(D.TARGET), np.int64(WHITE), pub[region_at(q, RG.ADJ)])
            spend_power(g, np.int64(WHITE), q, r)
            k = min(rules[R.AMOUNTS + 2], pub[region_at(q, RG.ARMIES + WHITE)])
            pub[region_at(q, RG.ARMIES + WHITE)] -= k
            pub[region_at(r, RG.ARMIES + WHITE)] += k
    if power_ready(g, BLACK, POWER.D):  # the opponent's armies only; markers cannot be removed
        r = ask_target(g, BLACK, POWER.D, regions_where(pub, WHITE, RG.ARMIES, -1))
        if r != PASS:
            spend_power(g, np.int64(BLACK), r, np.int64(-1))
            remove_armies(g, WHITE, r, min(rules[R.AMOUNTS + 4],
                                           pub[region_at(r, RG.ARMIES + WHITE)]))


# --- cards ----------------------------------------------------------------------------------

@inline
def deck_slot(ks, seat, i):
    return K.DECKS + seat * L.DECK_MAX + (ks[K.DECK_HEAD + seat] + i) % L.DECK_MAX


@jit
def draw(g, seat, n_draw, n_keep):
    """SZ-13/14: draw n_draw, keep n_keep, the rest to the bottom of the deck. With fewer cards
    left, draw what there is and keep up to n_keep of them."""
    st = g.rec[0]
    pub, hid, ks = st.pub, st.hid, st.ks
    deck = seat_at(seat, S.DECK)
    take = min(n_draw, pub[deck])
    drawn = 0
    for i in range(take):
        drawn |= 1 << ks[deck_slot(ks, seat, 0)]
        ks[K.DECK_HEAD + seat] = (ks[K.DECK_HEAD + seat] + 1) % L.DECK_MAX
    pub[deck] -= take
    ks[K.UNSEEN + seat] = max(0, ks[K.UNSEEN + seat] - take)
    hid[seat, H.DRAWN] = drawn
    log_event(g, EV.DRAWN, pub[P.ROUND], seat, drawn)
    keep = min(n_keep, take)
    kept = 0
    for i in range(keep):
        pub[P.AMOUNT] = keep - i
        c = core.ask_set(g, D.KEEP, seat, begin_ask(g, seat, drawn & ~kept), N_ACTIONS)
        kept |= 1 << end_ask(g, c)
    back = drawn & ~kept
    if back != 0:  # at most one card: n_draw - n_keep is 1
        ks[deck_slot(ks, seat, pub[deck])] = lowest_bit(back)
        pub[deck] += 1
    hid[seat, H.DRAWN] = 0
    hid[seat, H.HAND] |= kept
    if (kept >> CARD.LEADER) & 1:
        hid[seat, H.POWER] = 1
    ks[stat(seat, ST.DRAWN)] |= kept
    log_event(g, EV.DRAW, pub[P.ROUND], seat, drawn, kept)


@jit
def buy(g, seat):
    """SZ-2: discard white cards or the Plague, one army each, until the strategy passes."""
    st = g.rec[0]
    pub, hid = st.pub, st.hid
    while True:
        mask = (hid[seat, H.HAND] & DISCARDABLE) | (1 << PASS)
        c = end_ask(g, core.ask_set(g, D.BUY, seat, begin_ask(g, seat, mask), N_ACTIONS))
        if c == PASS:
            return
        hid[seat, H.HAND] &= ~(1 << c)
        pub[seat_at(seat, S.GONE)] |= 1 << c
        pub[seat_at(seat, S.HAND)] -= 1
        pub[seat_at(seat, S.SUPPLY)] += 1
        pub[seat_at(seat, S.BOUGHT)] += 1
        log_event(g, EV.BUY, pub[P.ROUND], seat, c, pub[seat_at(seat, S.SUPPLY)])


@jit
def place_cards(g, seat):
    """SZ-7: one card face down on the seat's side of every region, region by region. Sun Wu c
    (SZ-16c) is declared when the 7-10 is placed; it stays hidden until the region is revealed."""
    st = g.rec[0]
    pub, hid = st.pub, st.hid
    for r in range(pub[P.N_REGIONS]):
        pub[P.REGION] = r
        mask = hid[seat, H.HAND] & PLACEABLE
        c = end_ask(g, core.ask_set(g, D.PLACE, seat, begin_ask(g, seat, mask), N_ACTIONS))
        hid[seat, H.HAND] &= ~(1 << c)
        hid[seat, H.PLACED + r] = c
        as_six = 0
        if CARD.W7 <= c <= CARD.W10 and seat == WHITE and power_ready(g, WHITE, POWER.C):
            if ask_power(g, WHITE, POWER.C, r):
                hid[WHITE, H.AS_SIX] = r
                hid[WHITE, H.POWER] = 0  # made public (S.LEADER_ROUND) at the reveal
                hid[WHITE, H.HAND] &= ~(1 << CARD.LEADER)  # OP-9 "deck": the card is spent
                as_six = 1
        log_event(g, EV.PLACE, pub[P.ROUND], seat, c, r, as_six)


@inline
def end_round(g, last):
    """SZ-13/14: used white cards leave the game, yellows return; each side draws (not after
    the last round, when a drawn card could never be played)."""
    st = g.rec[0]
    pub = st.pub
    hid = st.hid
    for seat in range(2):
        placed = 0
        for r in range(pub[P.N_REGIONS]):
            placed |= 1 << hid[seat, H.PLACED + r]
            hid[seat, H.PLACED + r] = -1
            pub[region_at(r, RG.CARD + seat)] = -1
        hid[seat, H.HAND] |= placed & L.YELLOWS
        pub[seat_at(seat, S.GONE)] |= placed & ~L.YELLOWS
        hid[seat, H.AS_SIX] = -1
        if not last:
            played_one = (placed >> CARD.Y1) & 1  # SZ-14
            draw(g, seat, 2 + played_one, 1 + played_one)
        pub[seat_at(seat, S.HAND)] = popcount(hid[seat, H.HAND])


# --- a round --------------------------------------------------------------------------------

@inline
def armies_of(pub, seat, supply):
    """OP-5: a seat's armies on the map, markers included (or in supply)."""
    if supply:
        return pub[seat_at(seat, S.SUPPLY)]
    total = 0
    for r in range(pub[P.N_REGIONS]):
        total += pub[region_at(r, RG.ARMIES + seat)] + pub[region_at(r, RG.MARKERS + seat)]
    return total


@inline
def set_decider(g):
    """SZ-8: fewer armies decides; equal: last round's decider again; round 1: left to right."""
    st = g.rec[0]
    pub = st.pub
    ks = st.ks
    a0 = armies_of(pub, WHITE, g.rec[0].rules[R.FEWER_SUPPLY])
    a1 = armies_of(pub, BLACK, g.rec[0].rules[R.FEWER_SUPPLY])
    decider = ks[K.LAST_DECIDER]
    if pub[P.ROUND] == 1:
        decider = -1
    elif a0 < a1:
        decider = WHITE
    elif a1 < a0:
        decider = BLACK
    ks[K.LAST_DECIDER] = decider
    pub[P.DECIDER] = decider
    if decider >= 0:
        ks[stat(decider, ST.ORDERS)] += 1
    log_event(g, EV.DECIDER, pub[P.ROUND], decider, a0, a1)


@jit
def choose_order(g, first, count):
    """SZ-8: the decider chooses the regions revealed first .. first + count - 1, one at a time:
    the whole order at once (OP-13: after the cards are placed by default), or with
    order_choice="region_by_region" the next one after each battle. Round 1, and a tie with
    nobody having decided yet, reveal left to right. Each choice is public at once."""
    st = g.rec[0]
    pub, ks = st.pub, st.ks
    decider = pub[P.DECIDER]
    left = (1 << pub[P.N_REGIONS]) - 1
    for i in range(first):
        left &= ~(1 << ks[K.ORDER + i])
    packed = 0
    pub[P.REGION] = -1
    for i in range(first, first + count):
        r = i  # round 1, or nobody decided yet: left to right
        if decider >= 0:
            r = core.ask_set(g, D.ORDER, decider, begin_ask(g, decider, left), N_ACTIONS)
            r = end_ask(g, r)
        left &= ~(1 << r)
        ks[K.ORDER + i] = r
        pub[region_at(r, RG.REVEAL)] = i
        packed |= r << (4 * (i - first))
    log_event(g, EV.ORDER, pub[P.ROUND], decider, packed, count)


@inline
def plague_loss(rules, n):
    """OP-4: armies a Plague removes from n: round-half-up(n/2) (seed), or halving rounded
    down but never below 1 (the designer's ruling)."""
    if rules[R.PLAGUE_RULING]:
        return n - max(1, n // 2) if n > 0 else 0
    return (n + 1) // 2


@jit
def plague(g, r, black_played):
    """SZ-11 Plague: no battle; each side's armies in the region are halved (two Plagues act
    once; markers are spared). SZ-17b: Chu's Plague may wipe them down to one instead; SZ-17a:
    Chu may spare his own."""
    rules = g.rec[0].rules
    pub = g.rec[0].pub
    wipe = False
    if black_played and power_ready(g, BLACK, POWER.B) and ask_power(g, BLACK, POWER.B, r):
        spend_power(g, np.int64(BLACK), r, np.int64(-1))
        wipe = True
    lost0, lost1 = 0, 0
    for seat in range(2):
        n = pub[region_at(r, RG.ARMIES + seat)]
        if wipe and (seat == WHITE or not rules[R.WIPE_OPPONENT]):
            lose = max(n - rules[R.AMOUNTS + 3], 0)
        else:
            lose = plague_loss(rules, n)
        if seat == BLACK and lose > 0 and power_ready(g, BLACK, POWER.A):
            if ask_power(g, BLACK, POWER.A, r):
                spend_power(g, np.int64(BLACK), r, np.int64(-1))
                log_event(g, EV.SHIELD, pub[P.ROUND], BLACK, r, lose)
                lose = 0
        remove_armies(g, seat, r, lose)
        if seat == WHITE:
            lost0 = lose
        else:
            lost1 = lose
    log_event(g, EV.PLAGUE, pub[P.ROUND], -1, r, lost0, lost1, 1 if wipe else 0)


@inline
def win_region(g, seat, r, d):
    """SZ-10: the winner removes k of the loser's armies there and places d - k (OP-6: the
    winner's choice, or as many removals as possible first)."""
    pub = g.rec[0].pub
    loser_armies = pub[region_at(r, RG.ARMIES + 1 - seat)]
    k = 0
    if loser_armies > 0:
        top = min(d, loser_armies)
        if g.rec[0].rules[R.REMOVE_FIRST]:
            k = top
        else:
            pub[P.REGION] = r
            pub[P.AMOUNT] = d
            pub[P.AUX] = loser_armies
            mask = (1 << (top + 1)) - 1
            k = end_ask(g, core.ask_set(g, D.SPLIT, seat, begin_ask(g, seat, mask), N_ACTIONS))
    remove_armies(g, 1 - seat, r, k)
    placed = place_armies(g, seat, r, d - k)
    g.rec[0].ks[stat(seat, ST.BATTLES)] += 1
    log_event(g, EV.SPLIT, pub[P.ROUND], seat, r, k, placed, d - k - placed)


@inline
def has_army(rules, pub, seat, r):
    """Can the seat find an army for a marker on r: supply, or another region (SZ-15)?"""
    if pub[seat_at(seat, S.SUPPLY)] > 0 or regions_where(pub, seat, RG.ARMIES, r) != 0:
        return True
    return rules[R.MARKERS_MOVE] != 0 and regions_where(pub, seat, RG.MARKERS, r) != 0


@jit
def six_power(g, seat, r):
    """SZ-15: a 6 may ("可") put a marker beside the region, once per side and region (SZ-17c:
    Chu may do it a second time in one region). The owner decides (six_power="choice") or it is
    always used (six_power="always"); it counts as used only when a marker was placed, unless
    six_unplaceable="spent" (SZ-15 is silent on an always-used 6 with no army)."""
    rules = g.rec[0].rules
    pub = g.rec[0].pub
    used = region_at(r, RG.SIX_USED + seat)
    if not has_army(rules, pub, seat, r):
        if pub[used] == 0 and rules[R.SIX_ALWAYS] and rules[R.SIX_SPENT]:
            pub[used] = 1
        return
    if pub[used] == 0:
        if not rules[R.SIX_ALWAYS]:
            pub[P.REGION] = r
            if ask_seldom(g, np.int64(D.SIX), seat, np.int64(3)) == 0:
                return
        if put_marker(g, seat, r, np.int64(6)) or (rules[R.SIX_ALWAYS] and rules[R.SIX_SPENT]):
            pub[used] = 1
    elif pub[used] == 1 and seat == BLACK and power_ready(g, BLACK, POWER.C):
        if ask_power(g, BLACK, POWER.C, r):
            spend_power(g, np.int64(BLACK), r, np.int64(-1))
            if put_marker(g, seat, r, np.int64(POWER.C)):
                pub[used] = 2


@inline
def resolve_region(g, r):
    """SZ-9..SZ-11, SZ-15: reveal region r's two cards and apply the battle's costs; returns
    White's margin (0: nobody wins the region, also after a Plague)."""
    rules = g.rec[0].rules
    pub = g.rec[0].pub
    hid = g.rec[0].hid
    ks = g.rec[0].ks
    rnd = pub[P.ROUND]
    c0 = hid[WHITE, H.PLACED + r]
    c1 = hid[BLACK, H.PLACED + r]
    pub[region_at(r, RG.CARD + WHITE)] = c0
    pub[region_at(r, RG.CARD + BLACK)] = c1
    pub[P.REVEALED] += 1
    ks[stat(WHITE, ST.PLAYED)] |= 1 << c0
    ks[stat(BLACK, ST.PLAYED)] |= 1 << c1
    log_event(g, EV.REVEAL, rnd, -1, r, c0, c1)
    e0, six0 = c0, c0 == CARD.Y6
    if hid[WHITE, H.AS_SIX] == r:  # SZ-16c, OP-10
        pub[seat_at(WHITE, S.LEADER_ROUND)] = rnd
        show_leader(g, np.int64(WHITE))
        log_event(g, EV.POWER, rnd, WHITE, POWER.C, r, c0)
        e0, six0 = CARD.Y6, rules[R.AS_SIX_VALUE] == 0
    for seat in range(2):
        if (six0 if seat == WHITE else c1 == CARD.Y6):
            six_power(g, seat, r)
    if c0 == CARD.PLAGUE or c1 == CARD.PLAGUE:
        plague(g, r, c1 == CARD.PLAGUE)
        return 0
    margin, lose0, lose1 = battle(e0, c1)
    log_event(g, EV.BATTLE, rnd, -1, r, e0, c1, margin)
    for seat in range(2):  # the cost is paid as the attack is made, before the winner places
        lose = lose0 if seat == WHITE else lose1
        if lose > 0:
            pay_cost(g, seat, r, lose)
    return margin


@jit
def battles(g):
    """SZ-8, SZ-9: the regions are revealed and resolved in the reveal order: the whole order
    chosen first (after placement by default, OP-13), or with order_choice="region_by_region"
    the decider picks the next region after seeing the previous region's battle."""
    st = g.rec[0]
    rules, pub, ks = st.rules, st.pub, st.ks
    n_regions = pub[P.N_REGIONS]
    each = rules[R.ORDER_EACH] != 0 and pub[P.DECIDER] >= 0
    if not each and not rules[R.ORDER_BEFORE]:
        choose_order(g, np.int64(0), n_regions)
    for i in range(n_regions):
        if each:
            choose_order(g, i, np.int64(1))
        r = ks[K.ORDER + i]
        margin = resolve_region(g, r)
        if margin != 0:  # SZ-10
            win_region(g, WHITE if margin > 0 else BLACK, r, abs(margin))


@inline
def score(g):
    """SZ-18/19: each region's majority (markers included) scores its tile value for this
    scoring; the general moves one step per point, region by region left to right, and a red
    zone wins at once. OP-8: a tied region scores for nobody (or for more markers). With
    scoring_steps="net" the general moves once by the net points."""
    st = g.rec[0]
    rules = st.rules
    pub = st.pub
    ks = st.ks
    rnd = pub[P.ROUND]
    k = rnd // L.SCORING_EVERY - 1
    track = pub[P.TRACK]
    net = 0
    for r in range(pub[P.N_REGIONS]):
        m0 = pub[region_at(r, RG.MARKERS + WHITE)]
        m1 = pub[region_at(r, RG.MARKERS + BLACK)]
        t0 = pub[region_at(r, RG.ARMIES + WHITE)] + m0
        t1 = pub[region_at(r, RG.ARMIES + BLACK)] + m1
        if t0 == t1 and rules[R.TIE_MARKERS]:
            t0, t1 = m0, m1
        if t0 == t1:
            continue
        seat = WHITE if t0 > t1 else BLACK
        points = pub[region_at(r, RG.TILE + k)]
        pub[seat_at(seat, S.POINTS)] += points
        ks[stat(seat, ST.REGIONS)] += 1
        step = points if seat == WHITE else -points
        if rules[R.SCORE_NET]:
            net += step
            log_event(g, EV.SCORE, rnd, seat, r, points, pub[P.GENERAL] + net)
            continue
        pub[P.GENERAL] = max(-track, min(track, pub[P.GENERAL] + step))
        log_event(g, EV.SCORE, rnd, seat, r, points, pub[P.GENERAL])
        if abs(pub[P.GENERAL]) == track:
            break
    pub[P.GENERAL] = max(-track, min(track, pub[P.GENERAL] + net))
    general = pub[P.GENERAL]
    side = 1 if general > 0 else (-1 if general < 0 else 0)
    if side != 0:  # lead changes (METRICS.md): the general's side after each scoring
        if ks[K.LAST_LEADER] != 0 and side != ks[K.LAST_LEADER]:
            ks[K.LEAD_CHANGES] += 1
        ks[K.LAST_LEADER] = side
    if abs(general) == track:
        ks[K.END] = END.RED_ZONE
        ks[K.WINNERS] = 1 << (WHITE if general > 0 else BLACK)


@inline
def final_result(g):
    """SZ-20 after round 9: the general's side wins; central: more armies in supply; OP-12."""
    st = g.rec[0]
    pub = st.pub
    ks = st.ks
    general = pub[P.GENERAL]
    s0, s1 = pub[seat_at(WHITE, S.SUPPLY)], pub[seat_at(BLACK, S.SUPPLY)]
    if general != 0:
        ks[K.END] = END.GENERAL
        ks[K.WINNERS] = 1 << (WHITE if general > 0 else BLACK)
    elif s0 != s1:
        ks[K.END] = END.SUPPLY
        ks[K.WINNERS] = 1 << (WHITE if s0 > s1 else BLACK)
    else:
        ks[K.END] = END.DRAW
        ks[K.WINNERS] = 0 if g.rec[0].rules[R.TIE_NOBODY] else 3


@inline
def conserved(g):
    """Army conservation: supply + map + markers + removed = start + bought, for both sides,
    and no count below zero."""
    pub = g.rec[0].pub
    for seat in range(2):
        total = pub[seat_at(seat, S.SUPPLY)] + pub[seat_at(seat, S.REMOVED)]
        low = min(pub[seat_at(seat, S.SUPPLY)], 0)
        for r in range(pub[P.N_REGIONS]):
            a = pub[region_at(r, RG.ARMIES + seat)]
            m = pub[region_at(r, RG.MARKERS + seat)]
            total += a + m
            low = min(low, a, m)
        if total != g.rec[0].rules[R.ARMIES] + pub[seat_at(seat, S.BOUGHT)] or low < 0:
            return False
    return True


# --- hidden information (sim/core/control.py) -------------------------------------------------

@jit
def redeal(g, seat):
    """Re-randomise everything `seat` has not observed, consistently with what it has: the
    order of its own deck's unseen top, and the opponent's hand, deck, face-down cards of this
    round, undeclared Sun Wu c and hidden leader. Reads only what `seat` may know to decide what
    to draw: the unseen cards are collected in card-id order before shuffling."""
    st = g.rec[0]
    rules, pub, hid, ks = st.rules, st.pub, st.hid, st.ks
    ctl = g.core.ctl
    # The seat's own deck: its unseen top cards, in a new order (put-back cards stay below).
    unseen = ks[K.UNSEEN + seat]
    for i in range(unseen - 1, 0, -1):
        j = control.rand_below(ctl, i + 1)
        a, b = deck_slot(ks, seat, i), deck_slot(ks, seat, j)
        ks[a], ks[b] = ks[b], ks[a]
    opp = 1 - seat
    cards = (L.DECK_ADVANCED if rules[R.ADVANCED] else L.DECK_BASIC) & ~rules[R.REMOVED]
    if rules[R.WARLORD] and rules[R.LEADER_IN_DECK] and pub[seat_at(opp, S.LEADER_ROUND)] < 0:
        cards |= 1 << CARD.LEADER
    revealed = 0
    for r in range(pub[P.N_REGIONS]):
        if pub[region_at(r, RG.CARD + opp)] >= 0:
            revealed |= 1 << pub[region_at(r, RG.CARD + opp)]
    whites = cards & ~pub[seat_at(opp, S.GONE)] & ~revealed & ~L.YELLOWS
    yellows = L.YELLOWS & ~revealed
    n_deck = pub[seat_at(opp, S.DECK)]
    # Which whites lie in the deck (the rest are in hand or face down), in a random order.
    in_hand = whites
    for i in range(n_deck):
        pick = nth_bit(in_hand, control.rand_below(ctl, popcount(in_hand)))
        in_hand &= ~(1 << pick)
        ks[deck_slot(ks, opp, i)] = pick
    # Face-down cards of this round: placed again from the redealt hand by the opponent's own
    # strategy (its model in a search; uniform when it is random), region by region, each with
    # the context it had when it placed (the asked decision's is restored below).
    for i in range(H.MEMORY, L.HID_SIZE):  # the opponent strategy's own memory is its secret
        hid[opp, i] = 0
    hid[opp, H.HAND] = in_hand | yellows
    hid[opp, H.DRAWN] = 0
    legal = g.core.legal[:N_ACTIONS]  # the buffer's upper half holds the asked decision's
    asked_region, asked_amount = pub[P.REGION], pub[P.AMOUNT]
    asked_aux, asked_legal = pub[P.AUX], pub[P.LEGAL]
    pub[P.AMOUNT] = 0
    pub[P.AUX] = 0
    for r in range(pub[P.N_REGIONS]):
        if hid[opp, H.PLACED + r] >= 0 and pub[region_at(r, RG.CARD + opp)] < 0:
            mask = hid[opp, H.HAND] & PLACEABLE
            for a in range(N_ACTIONS):
                legal[a] = (mask >> a) & 1 == 1
            pub[P.REGION] = r
            pub[P.LEGAL] = mask
            c = core.decide(g, np.int64(D.PLACE), opp, legal)
            if c < 0 or c >= N_ACTIONS or not legal[c]:
                c = nth_bit(mask, control.rand_below(ctl, popcount(mask)))
            hid[opp, H.HAND] &= ~(1 << c)
            hid[opp, H.PLACED + r] = c
    pub[P.REGION] = asked_region
    pub[P.AMOUNT] = asked_amount
    pub[P.AUX] = asked_aux
    pub[P.LEGAL] = asked_legal
    held = hid[opp, H.HAND]
    # Leader: hidden ones are drawn anew; an unused power is in hand (held, or its card drawn).
    if rules[R.WARLORD]:
        if pub[seat_at(opp, S.LEADER)] < 0 and rules[R.LEADER + opp] != L.LEADER_NONE:
            hid[opp, H.LEADER] = control.rand_below(ctl, 4)
        unused = pub[seat_at(opp, S.LEADER_ROUND)] < 0
        in_play = (held >> CARD.LEADER) & 1 if rules[R.LEADER_IN_DECK] else 1
        hid[opp, H.POWER] = 1 if unused and in_play and hid[opp, H.LEADER] >= 0 else 0
        # Sun Wu c may have been declared on a face-down 7-10 (hidden until its reveal).
        if opp == WHITE and unused:
            hid[opp, H.AS_SIX] = -1
        if opp == WHITE and unused and hid[opp, H.LEADER] == POWER.C:
            for r in range(pub[P.N_REGIONS]):
                c = hid[opp, H.PLACED + r]
                if (pub[region_at(r, RG.CARD + opp)] < 0 and CARD.W7 <= c <= CARD.W10
                        and hid[opp, H.POWER] == 1 and control.rand_below(ctl, 2) == 1):
                    hid[opp, H.AS_SIX] = r
                    hid[opp, H.POWER] = 0
                    hid[opp, H.HAND] &= ~(1 << CARD.LEADER)


# --- a game ---------------------------------------------------------------------------------

@jit
def setup(g):
    """SZ-4..SZ-6, SZ-3, SZ-16a."""
    st = g.rec[0]
    rules = st.rules
    pub = st.pub
    hid = st.hid
    ks = st.ks
    deal = g.deal
    streams = g.core.streams
    for i in range(L.PUB_SIZE):  # loops: a slice assignment compiles to much more
        pub[i] = 0
    for seat in range(2):
        for i in range(L.HID_SIZE):
            hid[seat, i] = 0
    for i in range(L.KS_SIZE):
        ks[i] = 0
    ks[K.END] = -1
    ks[K.LAST_DECIDER] = -1
    n_regions = rules[R.N_REGIONS]
    pub[P.TRACK] = rules[R.TRACK]
    pub[P.N_REGIONS] = n_regions
    pub[P.ADVANCED] = rules[R.ADVANCED]
    pub[P.DECIDER] = -1
    pub[P.REGION] = -1
    for seat in range(2):
        pub[seat_at(seat, S.SUPPLY)] = rules[R.ARMIES]
        pub[seat_at(seat, S.LEADER)] = -1
        pub[seat_at(seat, S.LEADER_ROUND)] = -1
        hid[seat, H.AS_SIX] = -1
        hid[seat, H.LEADER] = -1
        for r in range(L.MAX_REGIONS):
            hid[seat, H.PLACED + r] = -1
    n_tiles = deal.shape[1]
    draw_order = deal[TILE_DRAW]
    for i in range(n_tiles):
        draw_order[i] = i
    if rules[R.FIXED_TILES] == 0:  # SZ-4: a random tile beside each region
        shuffle(draw_order, n_tiles, streams, 0)
    for r in range(L.MAX_REGIONS):
        pub[region_at(r, RG.CARD + WHITE)] = -1
        pub[region_at(r, RG.CARD + BLACK)] = -1
        pub[region_at(r, RG.REVEAL)] = -1
        if r < n_regions:
            t = st.fixed_tiles[r] if rules[R.FIXED_TILES] else draw_order[r]
            for k in range(3):
                pub[region_at(r, RG.TILE + k)] = deal[k, t]
            pub[region_at(r, RG.ADJ)] = st.adj[r]
            log_event(g, EV.TILE, 0, -1, r, deal[0, t], deal[1, t], deal[2, t], t)
    if rules[R.WARLORD]:
        choose_leaders(g)
    decks = st.decks
    for seat in range(2):  # SZ-6: own deck of the remaining cards, shuffled; draw 4
        cards = (L.DECK_ADVANCED if rules[R.ADVANCED] else L.DECK_BASIC) & ~rules[R.REMOVED]
        if rules[R.WARLORD] and rules[R.LEADER_IN_DECK]:
            cards |= 1 << CARD.LEADER
        base = K.DECKS + seat * L.DECK_MAX
        fixed = decks[seat, 0] >= 0
        count = 0
        while cards:
            c = lowest_bit(cards)
            cards &= cards - 1
            ks[base + count] = decks[seat, count] if fixed else c
            count += 1
        if not fixed:
            shuffle(ks[base:base + L.DECK_MAX], count, streams, 0)
        pub[seat_at(seat, S.DECK)] = count - 4
        ks[K.UNSEEN + seat] = count - 4
        hand = L.YELLOWS
        for i in range(4):
            hand |= 1 << ks[base + i]
        ks[K.DECK_HEAD + seat] = 4
        hid[seat, H.HAND] = hand
        if (hand >> CARD.LEADER) & 1:
            hid[seat, H.POWER] = 1
        pub[seat_at(seat, S.HAND)] = 10
        ks[stat(seat, ST.OPENING)] = hand & ~L.YELLOWS
        ks[stat(seat, ST.DRAWN)] = hand & ~L.YELLOWS
        log_event(g, EV.HAND, 0, seat, hand)
    outpost(g)


@inline
def write_record(g, out, row):
    st = g.rec[0]
    pub = st.pub
    hid = st.hid
    ks = st.ks
    out[row, RECORD_LENGTH] = pub[P.ROUND]
    out[row, RECORD_END] = ks[K.END]
    out[row, RECORD_WINNERS] = ks[K.WINNERS]
    out[row, C.GENERAL] = pub[P.GENERAL]
    out[row, C.LEAD_CHANGES] = ks[K.LEAD_CHANGES]
    for seat in range(2):
        armies, markers = 0, 0
        for r in range(pub[P.N_REGIONS]):
            armies += pub[region_at(r, RG.ARMIES + seat)]
            markers += pub[region_at(r, RG.MARKERS + seat)]
        c = C.SEAT0 + seat * L.N_SEAT_COLUMNS
        out[row, c] = pub[seat_at(seat, S.POINTS)]
        out[row, c + 1] = pub[seat_at(seat, S.SUPPLY)]
        out[row, c + 2] = armies
        out[row, c + 3] = markers
        out[row, c + 4] = pub[seat_at(seat, S.REMOVED)]
        out[row, c + 5] = pub[seat_at(seat, S.BOUGHT)]
        out[row, c + 6] = ks[stat(seat, ST.MOVED)]
        out[row, c + 7] = ks[stat(seat, ST.BATTLES)]
        out[row, c + 8] = ks[stat(seat, ST.REGIONS)]
        out[row, c + 9] = ks[stat(seat, ST.ORDERS)]
        out[row, c + 10] = hid[seat, H.LEADER]
        out[row, c + 11] = pub[seat_at(seat, S.LEADER_ROUND)]
        out[row, c + 12] = ks[stat(seat, ST.OPENING)] >> L.RECORD_CARD_SHIFT
        out[row, c + 13] = ks[stat(seat, ST.DRAWN)] >> L.RECORD_CARD_SHIFT
        out[row, c + 14] = ks[stat(seat, ST.PLAYED)] >> L.RECORD_CARD_SHIFT
    log_event(g, EV.END, pub[P.ROUND], -1, ks[K.END], ks[K.WINNERS], pub[P.GENERAL],
              pub[seat_at(WHITE, S.SUPPLY)], pub[seat_at(BLACK, S.SUPPLY)])


@inline
def log_board(g):
    """The board after a round, for the narrative."""
    pub = g.rec[0].pub
    for r in range(pub[P.N_REGIONS]):
        log_event(g, EV.STATE, pub[P.ROUND], -1, r, pub[region_at(r, RG.ARMIES + WHITE)],
                  pub[region_at(r, RG.MARKERS + WHITE)], pub[region_at(r, RG.ARMIES + BLACK)],
                  pub[region_at(r, RG.MARKERS + BLACK)])


@jit
def play_game(g, out, row):
    """One game from set-up to record."""
    st = g.rec[0]
    rules, pub, ks = st.rules, st.pub, st.ks
    setup(g)
    n_regions = rules[R.N_REGIONS]
    for rnd in range(1, N_ROUNDS + 1):
        if core.stopped(g):
            break
        pub[P.ROUND] = rnd
        pub[P.REVEALED] = 0
        for r in range(n_regions):
            pub[region_at(r, RG.REVEAL)] = -1
        if rnd == 6 and rules[R.ROUND6_AT_START]:
            round6_powers(g)
        for seat in range(2):
            if rules[R.ADVANCED] and not rules[R.BUY_AT_END]:  # OP-11
                buy(g, seat)
        set_decider(g)
        if rules[R.ORDER_BEFORE]:  # OP-13
            choose_order(g, np.int64(0), n_regions)
        for seat in range(2):
            place_cards(g, seat)
        battles(g)
        if rnd == 6 and not rules[R.ROUND6_AT_START]:  # OP-9
            round6_powers(g)
        for seat in range(2):
            if rules[R.ADVANCED] and rules[R.BUY_AT_END]:
                buy(g, seat)
        if g.core.log.shape[0] > 0:
            log_board(g)
        if not conserved(g):
            ks[K.END] = END.BROKEN
            break
        if rnd % L.SCORING_EVERY == 0:
            score(g)
            if ks[K.END] >= 0:
                break
        end_round(g, rnd == N_ROUNDS)
    if ks[K.END] < 0:
        final_result(g)
    write_record(g, out, row)


core.register(State, L.N_CHANCE, N_DECISIONS, play_game=play_game, observe=observe,
              redeal=redeal, strategy=builtin_decide, off_script=off_script, features=features)


@njit(cache=True)
def new_state(rules, tiles, adj, fixed_decks, fixed_tiles, batch, log, ctl):
    """The state of one chunk's games (allocated once; every game reuses it)."""
    rec = np.zeros(1, L.STATE_DTYPE)
    st = rec[0]
    for i in range(L.N_RULES):
        st.rules[i] = rules[i]
    for r in range(L.MAX_REGIONS):
        st.adj[r] = adj[r]
        st.fixed_tiles[r] = fixed_tiles[r]
    for seat in range(2):
        for i in range(L.DECK_MAX):
            st.decks[seat, i] = fixed_decks[seat, i]
    deal = np.zeros((TILE_DRAW + 1, tiles.shape[0]), np.int64)
    for t in range(tiles.shape[0]):
        for k in range(3):
            deal[k, t] = tiles[t, k]
    return State(core.new_core(batch, L.N_SEATS, L.N_CHANCE, N_DECISIONS, N_ACTIONS, log, ctl,
                                N_FEATURES),
                 rec, deal)


@njit(cache=True, nogil=True)
def play_chunk(rules, tiles, adj, fixed_decks, fixed_tiles, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, tiles, adj, fixed_decks, fixed_tiles, batch, log, ctl),
                   batch, out)
