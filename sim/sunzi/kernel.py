"""Sunzi / Dynasties rules as Numba kernels (rule ids SZ-n and open points OP-n refer to
shared/rules/sunzi_dynasties.md).

A game's state is int64 arrays whose fields are named in layout.py: ``pub`` (what both sides
see), ``hid`` (one row per side: what only that side knows; a strategy is handed its own row
only) and ``ks`` (kernel-only: deck order and bookkeeping for the record). pub, hid, the
strategy parameters and the random streams are views of one record, ``state``
(layout.STATE_DTYPE), so that asking a strategy passes one array. Every function below takes
``g = (rules, pub, hid, ks, ctl, kinds, state, legal, error, log)``, so that any of them can
ask a strategy for a decision (``ctl``: the engine's decision controller, sim.control). The
random streams are reached through ``state``: every array more in ``g`` is passed on the stack
to every call (one more cost 18% of the run time). Sets (hands, legal actions) are bitmasks.

Speed (measured): everything below play_chunk runs without reference counting (``_nrt=False``;
+20% here, as in Parthian Shot), so nothing below it may allocate. Numba compiles a separate
copy of a function for every constant (literal) argument value it is called with (this once
took compilation from 35 s to 160 s), so no constant is passed to a function that is not
inlined: seats come from loops or variables, and other constants are wrapped in np.int64(),
which makes them plain ints.
"""
import numpy as np
from numba import njit

from strategies.sunzi import builtin_decide

from .. import control
from ..bits import lowest_bit, nth_bit, popcount
from ..game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS, USER_KIND_BASE
from ..rng import seat_stream, seed_game, shuffle
from .layout import (
    ADJ, ARMIES, AUX_MARCH_TO, BLACK, CARD, C_GENERAL, C_LEAD_CHANGES, C_SEAT0, DECK_ADVANCED,
    DECK_BASIC, DECK_MAX, D_BUY, D_KEEP, D_LEADER, D_ORDER, D_PLACE, D_POWER, D_SOURCE, D_SPLIT,
    D_SIX, D_TARGET, END_BROKEN, END_DRAW, END_GENERAL, END_RED_ZONE, END_SUPPLY, EV_BATTLE, EV_BUY,
    EV_COST, EV_DECIDER, EV_DRAW, EV_END, EV_HAND, EV_LEADER, EV_MARKER, EV_MOVE, EV_ORDER,
    EV_DRAWN, EV_LEADER_SHOWN, EV_PLACE, EV_PLAGUE, EV_POWER, EV_REVEAL, EV_SCORE, EV_SHIELD, EV_SPLIT, EV_STATE, EV_TILE,
    H_AS_SIX, H_DECISIONS, H_DRAWN, H_HAND, H_LEADER, H_MEMORY, H_PLACED, H_POWER, HID_SIZE,
    KS_SIZE, N_CHANCE, N_DECISIONS, K_DECKS, K_DECK_HEAD, K_END, K_LAST_DECIDER, K_LAST_LEADER, K_LEAD_CHANGES, K_ORDER,
    K_ROW, K_STATS, K_UNSEEN, K_WINNERS,
    LEADER_CARD, LEADER_STRATEGY, LOG_WIDTH, MARKERS, MAX_REGIONS, MINUS1, N_ACTIONS, N_ROUNDS,
    N_SEAT_COLUMNS, N_STATS, PASS, PLAGUE, PLUS1, PLUS2, PLUS3, POWER_A, POWER_B, POWER_C,
    POWER_D, P_ADVANCED, P_AMOUNT, P_AUX, P_DECIDER, P_GENERAL, P_LEGAL, P_N_REGIONS, P_REGION,
    P_REVEALED, P_ROUND, P_TRACK, RECORD_CARD_SHIFT, REVEAL, R_ADVANCED, R_ARMIES,
    R_AS_SIX_VALUE, R_BUY_AT_END, R_COST_REGION_FIRST, R_FEWER_SUPPLY, R_FIXED_TILES, R_LEADER,
    R_LEADER_IN_DECK, R_LEADERS_HIDDEN, R_MARKERS_MOVE, R_N_REGIONS, R_ORDER_BEFORE, R_ORDER_EACH,
    R_PLAGUE_RULING, R_REMOVED_TO_SUPPLY, R_REMOVE_FIRST, R_ROUND6_AT_START, R_SIX_ALWAYS, R_SCORE_NET, R_TIE_MARKERS, R_TIE_NOBODY, R_TRACK,
    R_WARLORD, R_WIPE_OPPONENT, SCORING_EVERY, SIX_USED, STATE_DTYPE, ST_BATTLES, ST_DRAWN,
    ST_MOVED, ST_OPENING, ST_ORDERS, ST_PLAYED, ST_REGIONS, S_BOUGHT, S_DECK, S_GONE, S_HAND,
    S_LEADER, S_LEADER_ROUND, S_POINTS, S_REMOVED, S_SUPPLY, TILE, W10, W7, WHITE, WHY_COST,
    WHY_MARKER, WHY_PLACE, Y1, Y6, YELLOWS, card_value, region_at, seat_at)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")
PLACEABLE = (1 << LEADER_CARD) - 1   # the leader card is held, never placed
DISCARDABLE = ((1 << (PLAGUE + 1)) - 1) & ~YELLOWS   # SZ-2: white cards and the Plague


@njit(cache=True)
def decide_custom(k, decision, seat, pub, mine, legal, params, rng):
    """Placeholder for user strategies; sim.strategy recompiles the kernel with the real ones."""
    return -1


@inline
def decide(kind, decision, seat, pub, mine, legal, params, rng):
    if kind >= USER_KIND_BASE:
        return decide_custom(kind - USER_KIND_BASE, decision, seat, pub, mine, legal, params, rng)
    return builtin_decide(kind, decision, seat, pub, mine, legal, params, rng)


@inline
def log_event(log, event, rnd, seat, a, b, c, d, e):
    if log.shape[0] == 0:
        return
    k = log[0, 0] + 1
    if k < log.shape[0]:
        log[k, 0], log[k, 1], log[k, 2], log[k, 3] = event, rnd, seat, a
        log[k, 4], log[k, 5], log[k, 6], log[k, 7] = b, c, d, e
        log[0, 0] = k


@inline
def ask(g, decision, seat, mask):
    """The seat's strategy picks one action of the bitmask `mask` (never empty); a single
    legal action is taken without asking. An illegal answer is reported through `error` (the
    engine raises) and the game finishes with the lowest legal action, so that nothing here has
    to unwind."""
    if popcount(mask) <= 1:
        return lowest_bit(mask)
    rules, pub, hid, ks, ctl, kinds, state, legal, error, log = g
    if control.active(ctl) and control.redeal_due(ctl):
        control.reseed(ctl, state[0].streams, seat_stream(N_CHANCE, N_DECISIONS, seat, 0), N_DECISIONS)
        redeal(g, np.int64(seat))
    if control.active(ctl):
        a = ask_controlled(g, np.int64(decision), np.int64(seat), np.int64(mask))
    else:
        a = ask_strategy(kinds[seat], np.int64(decision), np.int64(seat), state, legal,
                         np.int64(mask))
    if a < 0 or a >= N_ACTIONS or (mask >> a) & 1 == 0:
        if error[3] != 1:
            error[0], error[1], error[2], error[3] = ks[K_ROW], seat, a, 1
        return lowest_bit(mask)
    return a


@jit
def ask_strategy(kind, decision, seat, state, legal, mask):
    """Show the strategy its legal actions and ask it. It gets views of the public state, its own
    private row, its parameters and its own random stream (see layout.STATE_DTYPE for why they
    come out of one record). The decision's context in pub ends with the decision."""
    st = state[0]
    own = seat_stream(N_CHANCE, N_DECISIONS, seat, decision)
    pub, mine, params, rng = st.pub, st.hid[seat], st.params[seat], st.streams[own:own + 1]
    for a in range(N_ACTIONS):
        legal[a] = (mask >> a) & 1 == 1
    pub[P_LEGAL] = mask
    mine[H_DECISIONS] += 1
    a = decide(kind, decision, seat, pub, mine, legal, params, rng)
    pub[P_REGION], pub[P_AMOUNT], pub[P_AUX], pub[P_LEGAL] = -1, 0, 0, 0
    return a


@jit
def ask_controlled(g, decision, seat, mask):
    """ask_strategy with the decision controller (sim.control) taking part: it may answer
    itself (a replay, a search) and records what the strategy was handed. Kept apart so that the
    plain path passes no more arrays than it needs (each one costs on every decision)."""
    ctl, kinds, state, legal, log = g[4], g[5], g[6], g[7], g[9]
    st = state[0]
    own = seat_stream(N_CHANCE, N_DECISIONS, seat, decision)
    pub, mine, params, rng = st.pub, st.hid[seat], st.params[seat], st.streams[own:own + 1]
    for a in range(N_ACTIONS):
        legal[a] = (mask >> a) & 1 == 1
    pub[P_LEGAL] = mask
    mine[H_DECISIONS] += 1
    h = np.uint64(0)
    if control.needs_hash(ctl, seat):
        h = control.hash_ints(pub, np.uint64(decision * 2 + seat))
        h = control.hash_ints(mine, h)
        h = control.hash_ints(legal, h)
        h = control.hash_floats(params, h)
        h = control.hash_ints(rng, h)
    a = control.before_decision(ctl, seat, decision, h, legal)
    if a < 0:
        a = decide(kinds[seat], decision, seat, pub, mine, legal, params, rng)
    a = control.after_decision(ctl, seat, decision, h, legal, a,
                               log[0, 0] if log.shape[0] > 0 else 0)
    pub[P_REGION], pub[P_AMOUNT], pub[P_AUX], pub[P_LEGAL] = -1, 0, 0, 0
    return a


@inline
def stat(seat, field):
    return K_STATS + seat * N_STATS + field


@inline
def regions_where(pub, seat, field, skip):
    """Bitmask of the regions (but `skip`) where pub[region_at(r, field + seat)] > 0."""
    mask = 0
    for r in range(pub[P_N_REGIONS]):  # branch-free: the branch mispredicted on random boards
        mask |= np.int64(pub[region_at(r, field + seat)] > 0) << r
    return mask & ~(1 << skip) if skip >= 0 else mask


# --- armies ---------------------------------------------------------------------------------

@inline
def remove_armies(g, seat, r, n):
    """Armies removed by a battle, a Plague or Chu d: they leave the game (default) or, with
    removed_armies="supply", go back to their owner's supply."""
    rules, pub = g[0], g[1]
    pub[region_at(r, ARMIES + seat)] -= n
    if rules[R_REMOVED_TO_SUPPLY]:
        pub[seat_at(seat, S_SUPPLY)] += n
    else:
        pub[seat_at(seat, S_REMOVED)] += n


@inline
def pick_source(g, seat, target, why, need):
    """SZ-12: a region (not `target`) to take one of the seat's armies from, adjacent regions
    first (not for a marker, SZ-15); -1 if there is none. Markers never move."""
    rules, pub = g[0], g[1]
    mask = regions_where(pub, seat, ARMIES, target)
    if rules[R_MARKERS_MOVE]:  # SZ-15 "unless used for other actions"
        mask |= regions_where(pub, seat, MARKERS, target)
    if mask == 0:
        return -1
    if why != WHY_MARKER and mask & pub[region_at(target, ADJ)] != 0:
        mask &= pub[region_at(target, ADJ)]
    pub[P_REGION], pub[P_AMOUNT], pub[P_AUX] = target, need, why
    return ask(g, D_SOURCE, seat, mask)


@inline
def lift_army(pub, seat, q):
    """Take one of the seat's armies off region q: an army, or a marker where only markers
    are left (possible only with markers_move, SZ-15)."""
    if pub[region_at(q, ARMIES + seat)] > 0:
        pub[region_at(q, ARMIES + seat)] -= 1
    else:
        pub[region_at(q, MARKERS + seat)] -= 1


@inline
def take_army(g, seat, target, why, need):
    """One army for `target`: from supply, else moved from another region (SZ-12, SZ-15).
    The caller puts it in the region or beside its name. False if there is none."""
    pub, ks, log = g[1], g[3], g[9]
    supply = seat_at(seat, S_SUPPLY)
    if pub[supply] > 0:
        pub[supply] -= 1
        return True
    q = pick_source(g, seat, target, why, need)
    if q < 0:
        return False
    lift_army(pub, seat, q)
    ks[stat(seat, ST_MOVED)] += 1
    log_event(log, EV_MOVE, pub[P_ROUND], seat, q, target, why, 0, 0)
    return True


@inline
def place_armies(g, seat, r, n):
    """Place n armies on region r (SZ-10), covering a shortage as SZ-12; returns how many."""
    pub = g[1]
    from_supply = min(n, pub[seat_at(seat, S_SUPPLY)])
    pub[seat_at(seat, S_SUPPLY)] -= from_supply
    pub[region_at(r, ARMIES + seat)] += from_supply
    for i in range(from_supply, n):
        if not take_army(g, seat, r, np.int64(WHY_PLACE), n - i):
            return i
        pub[region_at(r, ARMIES + seat)] += 1
    return n


@jit
def put_marker(g, seat, r, why):
    """A marker beside region r's name (SZ-15, SZ-17c): from supply, else from any other
    region ("from his other regions": no adjacency preference)."""
    pub, log = g[1], g[9]
    if take_army(g, seat, r, np.int64(WHY_MARKER), np.int64(1)):
        pub[region_at(r, MARKERS + seat)] += 1
        log_event(log, EV_MARKER, pub[P_ROUND], seat, r, why, 0, 0, 0)
        return True
    return False


@jit
def pay_cost(g, seat, r, n):
    """SZ-11 "loses n armies" for a +2/+3: they leave the game. OP-7: from supply first, then
    from the contested region (or the other way round), then from other regions as SZ-12."""
    rules, pub, ks, log = g[0], g[1], g[3], g[9]
    supply, here = seat_at(seat, S_SUPPLY), region_at(r, ARMIES + seat)
    first, second = (here, supply) if rules[R_COST_REGION_FIRST] else (supply, here)
    unpaid = 0
    for i in range(n):
        if pub[first] > 0:
            pub[first] -= 1
        elif pub[second] > 0:
            pub[second] -= 1
        else:
            q = pick_source(g, seat, r, np.int64(WHY_COST), n - i)
            if q < 0:
                unpaid = n - i
                break
            lift_army(pub, seat, q)
            ks[stat(seat, ST_MOVED)] += 1
            log_event(log, EV_MOVE, pub[P_ROUND], seat, q, -1, WHY_COST, 0, 0)
        pub[seat_at(seat, S_REMOVED)] += 1
    log_event(log, EV_COST, pub[P_ROUND], seat, n, r, unpaid, 0, 0)


# --- leaders (SZ-3, SZ-16, SZ-17, OP-9) ------------------------------------------------------

@inline
def power_ready(g, seat, power):
    hid = g[2]
    return hid[seat, H_LEADER] == power and hid[seat, H_POWER] == 1


@jit
def show_leader(g, seat):
    """The seat's leader becomes public (at set-up, or at its first use when leaders are hidden)."""
    pub, hid, log = g[1], g[2], g[9]
    if pub[seat_at(seat, S_LEADER)] < 0 and hid[seat, H_LEADER] >= 0:
        pub[seat_at(seat, S_LEADER)] = hid[seat, H_LEADER]
        log_event(log, EV_LEADER_SHOWN, pub[P_ROUND], seat, hid[seat, H_LEADER], 0, 0, 0, 0)


@inline
def spend_power(g, seat, a, b):
    """A leader power is used (once per game); the use is public from now on."""
    pub, hid, log = g[1], g[2], g[9]
    hid[seat, H_POWER] = 0
    if (hid[seat, H_HAND] >> LEADER_CARD) & 1:  # OP-9 "deck": the leader card leaves the game
        hid[seat, H_HAND] &= ~(1 << LEADER_CARD)
    pub[seat_at(seat, S_LEADER_ROUND)] = pub[P_ROUND]
    show_leader(g, seat)
    log_event(log, EV_POWER, pub[P_ROUND], seat, hid[seat, H_LEADER], a, b, 0, 0)


@inline
def ask_power(g, seat, power, r):
    """D_POWER: use leader power `power` now (on region r)? 0 = no, 1 = yes."""
    pub = g[1]
    pub[P_REGION], pub[P_AUX] = r, power
    return ask(g, D_POWER, seat, 3) == 1


@inline
def ask_target(g, seat, aux, regions):
    """D_TARGET: one of the regions in the bitmask, or PASS (keep the power)."""
    pub = g[1]
    pub[P_REGION], pub[P_AUX] = -1, aux
    return ask(g, D_TARGET, seat, regions | (1 << PASS))


@jit
def choose_leaders(g):
    """SZ-3: each side's leader is fixed by the study or chosen by its strategy. Both choose
    before either choice is made public."""
    rules, pub, hid, log = g[0], g[1], g[2], g[9]
    white, black = rules[R_LEADER + WHITE], rules[R_LEADER + BLACK]
    for seat in range(2):
        if rules[R_LEADER + seat] == LEADER_STRATEGY:
            pick = ask(g, D_LEADER, seat, 15)
            if seat == WHITE:
                white = pick
            else:
                black = pick
    hid[WHITE, H_LEADER] = white
    hid[BLACK, H_LEADER] = black
    for seat in range(2):
        hid[seat, H_POWER] = 1 - rules[R_LEADER_IN_DECK]
        log_event(log, EV_LEADER, 0, seat, hid[seat, H_LEADER], 0, 0, 0, 0)
    if not rules[R_LEADERS_HIDDEN]:  # SZ-3: public from set-up (default reading)
        for seat in range(2):
            show_leader(g, seat)


@jit
def outpost(g):
    """SZ-16a: at game start Sun Wu may put a marker on his side of one region."""
    pub, log = g[1], g[9]
    if not power_ready(g, WHITE, POWER_A) or pub[seat_at(WHITE, S_SUPPLY)] == 0:
        return
    r = ask_target(g, WHITE, POWER_A, (1 << pub[P_N_REGIONS]) - 1)
    if r != PASS:
        spend_power(g, WHITE, r, -1)
        pub[seat_at(WHITE, S_SUPPLY)] -= 1
        pub[region_at(r, MARKERS + WHITE)] += 1
        log_event(log, EV_MARKER, pub[P_ROUND], WHITE, r, 0, 0, 0, 0)


@jit
def round6_powers(g):
    """SZ-16b, SZ-16d, SZ-17d: the round-6 powers (OP-9: after round 6's battles by default)."""
    pub = g[1]
    n_regions = pub[P_N_REGIONS]
    if power_ready(g, WHITE, POWER_B) and pub[seat_at(WHITE, S_SUPPLY)] > 0:
        r = ask_target(g, WHITE, POWER_B, (1 << n_regions) - 1)
        if r != PASS:
            spend_power(g, WHITE, r, -1)
            pub[seat_at(WHITE, S_SUPPLY)] -= 1
            pub[region_at(r, ARMIES + WHITE)] += 1
    if power_ready(g, WHITE, POWER_D):
        movable = 0
        for r in range(n_regions):
            if pub[region_at(r, ARMIES + WHITE)] > 0 and pub[region_at(r, ADJ)] != 0:
                movable |= 1 << r
        q = ask_target(g, WHITE, POWER_D, movable)
        if q != PASS:
            pub[P_REGION], pub[P_AUX] = q, AUX_MARCH_TO
            r = ask(g, D_TARGET, WHITE, pub[region_at(q, ADJ)])
            spend_power(g, WHITE, q, r)
            pub[region_at(q, ARMIES + WHITE)] -= 1
            pub[region_at(r, ARMIES + WHITE)] += 1
    if power_ready(g, BLACK, POWER_D):  # the opponent's armies only; markers cannot be removed
        r = ask_target(g, BLACK, POWER_D, regions_where(pub, WHITE, ARMIES, -1))
        if r != PASS:
            spend_power(g, BLACK, r, -1)
            remove_armies(g, WHITE, r, 1)


# --- cards ----------------------------------------------------------------------------------

@inline
def deck_slot(ks, seat, i):
    return K_DECKS + seat * DECK_MAX + (ks[K_DECK_HEAD + seat] + i) % DECK_MAX


@jit
def draw(g, seat, n_draw, n_keep):
    """SZ-13/14: draw n_draw, keep n_keep, the rest to the bottom of the deck. With fewer cards
    left, draw what there is and keep up to n_keep of them."""
    pub, hid, ks, log = g[1], g[2], g[3], g[9]
    deck = seat_at(seat, S_DECK)
    take = min(n_draw, pub[deck])
    drawn = 0
    for i in range(take):
        drawn |= 1 << ks[deck_slot(ks, seat, 0)]
        ks[K_DECK_HEAD + seat] = (ks[K_DECK_HEAD + seat] + 1) % DECK_MAX
    pub[deck] -= take
    ks[K_UNSEEN + seat] = max(0, ks[K_UNSEEN + seat] - take)
    hid[seat, H_DRAWN] = drawn
    log_event(log, EV_DRAWN, pub[P_ROUND], seat, drawn, 0, 0, 0, 0)
    keep = min(n_keep, take)
    kept = 0
    for i in range(keep):
        pub[P_AMOUNT] = keep - i
        kept |= 1 << ask(g, D_KEEP, seat, drawn & ~kept)
    back = drawn & ~kept
    if back != 0:  # at most one card: n_draw - n_keep is 1
        ks[deck_slot(ks, seat, pub[deck])] = lowest_bit(back)
        pub[deck] += 1
    hid[seat, H_DRAWN] = 0
    hid[seat, H_HAND] |= kept
    if (kept >> LEADER_CARD) & 1:
        hid[seat, H_POWER] = 1
    ks[stat(seat, ST_DRAWN)] |= kept
    log_event(log, EV_DRAW, pub[P_ROUND], seat, drawn, kept, 0, 0, 0)


@jit
def buy(g, seat):
    """SZ-2: discard white cards or the Plague, one army each, until the strategy passes."""
    pub, hid, log = g[1], g[2], g[9]
    while True:
        c = ask(g, D_BUY, seat, (hid[seat, H_HAND] & DISCARDABLE) | (1 << PASS))
        if c == PASS:
            return
        hid[seat, H_HAND] &= ~(1 << c)
        pub[seat_at(seat, S_GONE)] |= 1 << c
        pub[seat_at(seat, S_HAND)] -= 1
        pub[seat_at(seat, S_SUPPLY)] += 1
        pub[seat_at(seat, S_BOUGHT)] += 1
        log_event(log, EV_BUY, pub[P_ROUND], seat, c, pub[seat_at(seat, S_SUPPLY)], 0, 0, 0)


@jit
def place_cards(g, seat):
    """SZ-7: one card face down on the seat's side of every region, region by region. Sun Wu c
    (SZ-16c) is declared when the 7-10 is placed; it stays hidden until the region is revealed."""
    pub, hid, log = g[1], g[2], g[9]
    for r in range(pub[P_N_REGIONS]):
        pub[P_REGION] = r
        c = ask(g, D_PLACE, seat, hid[seat, H_HAND] & PLACEABLE)
        hid[seat, H_HAND] &= ~(1 << c)
        hid[seat, H_PLACED + r] = c
        as_six = 0
        if W7 <= c <= W10 and seat == WHITE and power_ready(g, WHITE, POWER_C):
            if ask_power(g, WHITE, POWER_C, r):
                hid[WHITE, H_AS_SIX] = r
                hid[WHITE, H_POWER] = 0  # made public (S_LEADER_ROUND) at the reveal
                hid[WHITE, H_HAND] &= ~(1 << LEADER_CARD)  # OP-9 "deck": the card is spent
                as_six = 1
        log_event(log, EV_PLACE, pub[P_ROUND], seat, c, r, as_six, 0, 0)


@jit
def end_round(g, last):
    """SZ-13/14: used white cards leave the game, yellows return; each side draws (not after
    the last round, when a drawn card could never be played)."""
    pub, hid = g[1], g[2]
    for seat in range(2):
        placed = 0
        for r in range(pub[P_N_REGIONS]):
            placed |= 1 << hid[seat, H_PLACED + r]
            hid[seat, H_PLACED + r] = -1
            pub[region_at(r, CARD + seat)] = -1
        hid[seat, H_HAND] |= placed & YELLOWS
        pub[seat_at(seat, S_GONE)] |= placed & ~YELLOWS
        hid[seat, H_AS_SIX] = -1
        if not last:
            played_one = (placed >> Y1) & 1  # SZ-14
            draw(g, seat, 2 + played_one, 1 + played_one)
        pub[seat_at(seat, S_HAND)] = popcount(hid[seat, H_HAND])


# --- a round --------------------------------------------------------------------------------

@inline
def armies_of(pub, seat, supply):
    """OP-5: a seat's armies on the map, markers included (or in supply)."""
    if supply:
        return pub[seat_at(seat, S_SUPPLY)]
    total = 0
    for r in range(pub[P_N_REGIONS]):
        total += pub[region_at(r, ARMIES + seat)] + pub[region_at(r, MARKERS + seat)]
    return total


@jit
def set_decider(g):
    """SZ-8: fewer armies decides; equal: last round's decider again; round 1: left to right."""
    rules, pub, ks, log = g[0], g[1], g[3], g[9]
    a0 = armies_of(pub, WHITE, rules[R_FEWER_SUPPLY])
    a1 = armies_of(pub, BLACK, rules[R_FEWER_SUPPLY])
    decider = ks[K_LAST_DECIDER]
    if pub[P_ROUND] == 1:
        decider = -1
    elif a0 < a1:
        decider = WHITE
    elif a1 < a0:
        decider = BLACK
    ks[K_LAST_DECIDER] = decider
    pub[P_DECIDER] = decider
    if decider >= 0:
        ks[stat(decider, ST_ORDERS)] += 1
    log_event(log, EV_DECIDER, pub[P_ROUND], decider, a0, a1, 0, 0, 0)


@jit
def choose_order(g):
    """SZ-8: the decider fixes the whole reveal order, one region at a time (OP-13: after the
    cards are placed by default); it is public as soon as it is chosen."""
    pub, ks, log = g[1], g[3], g[9]
    n_regions = pub[P_N_REGIONS]
    decider = pub[P_DECIDER]
    left = (1 << n_regions) - 1
    packed = 0
    pub[P_REGION] = -1
    for i in range(n_regions):
        r = ask(g, D_ORDER, decider, left) if decider >= 0 else i
        left &= ~(1 << r)
        ks[K_ORDER + i] = r
        pub[region_at(r, REVEAL)] = i
        packed |= r << (4 * i)
    log_event(log, EV_ORDER, pub[P_ROUND], decider, packed, n_regions, 0, 0, 0)


@jit
def reveal_each(g):
    """SZ-8 with order_choice="region_by_region": the decider picks the next region to reveal
    after seeing the previous region's battle."""
    pub, ks, log = g[1], g[3], g[9]
    n_regions = pub[P_N_REGIONS]
    decider = pub[P_DECIDER]
    left = (1 << n_regions) - 1
    for i in range(n_regions):
        r = ask(g, D_ORDER, decider, left)
        left &= ~(1 << r)
        ks[K_ORDER + i] = r
        pub[region_at(r, REVEAL)] = i
        log_event(log, EV_ORDER, pub[P_ROUND], decider, r, 1, 0, 0, 0)
        resolve_region(g, r)


@inline
def is_special(c):
    return PLUS1 <= c <= MINUS1


@inline
def bonus(c):
    return -1 if c == MINUS1 else c - PLUS1 + 1


@inline
def cost(c):
    return 1 if c == PLUS2 else (2 if c == PLUS3 else 0)


@jit
def battle(a, b):
    """SZ-9, SZ-11: (margin of card a over card b, armies a loses, armies b loses); no Plague.

    A special card is the opponent's value plus its bonus, so against a number card it wins
    (or, for -1, loses) by its bonus whatever the number; between two special cards the bonuses
    are compared with -1 counting as 0 (the table's +1 vs -1 and -1 vs -1 rows). A +2 or +3
    always costs its player 1 or 2 armies.
    """
    if is_special(a) and is_special(b):
        margin = max(bonus(a), 0) - max(bonus(b), 0)
    elif is_special(a):
        margin = bonus(a)
    elif is_special(b):
        margin = -bonus(b)
    else:
        margin = card_value(a) - card_value(b)
    return margin, cost(a), cost(b)


@jit
def plague_loss(rules, n):
    """OP-4: armies a Plague removes from n: round-half-up(n/2) (seed), or halving rounded
    down but never below 1 (the designer's ruling)."""
    if rules[R_PLAGUE_RULING]:
        return n - max(1, n // 2) if n > 0 else 0
    return (n + 1) // 2


@inline
def plague(g, r, black_played):
    """SZ-11 Plague: no battle; each side's armies in the region are halved (two Plagues act
    once; markers are spared). SZ-17b: Chu's Plague may wipe them down to one instead; SZ-17a:
    Chu may spare his own."""
    rules, pub, log = g[0], g[1], g[9]
    wipe = False
    if black_played and power_ready(g, BLACK, POWER_B) and ask_power(g, BLACK, POWER_B, r):
        spend_power(g, BLACK, r, -1)
        wipe = True
    lost0, lost1 = 0, 0
    for seat in range(2):
        n = pub[region_at(r, ARMIES + seat)]
        if wipe and (seat == WHITE or not rules[R_WIPE_OPPONENT]):
            lose = max(n - 1, 0)
        else:
            lose = plague_loss(rules, n)
        if seat == BLACK and lose > 0 and power_ready(g, BLACK, POWER_A):
            if ask_power(g, BLACK, POWER_A, r):
                spend_power(g, BLACK, r, -1)
                log_event(log, EV_SHIELD, pub[P_ROUND], BLACK, r, lose, 0, 0, 0)
                lose = 0
        remove_armies(g, seat, r, lose)
        if seat == WHITE:
            lost0 = lose
        else:
            lost1 = lose
    log_event(log, EV_PLAGUE, pub[P_ROUND], -1, r, lost0, lost1, 1 if wipe else 0, 0)


@inline
def win_region(g, seat, r, d):
    """SZ-10: the winner removes k of the loser's armies there and places d - k (OP-6: the
    winner's choice, or as many removals as possible first)."""
    rules, pub, ks, log = g[0], g[1], g[3], g[9]
    loser_armies = pub[region_at(r, ARMIES + 1 - seat)]
    k = 0
    if loser_armies > 0:
        top = min(d, loser_armies)
        if rules[R_REMOVE_FIRST]:
            k = top
        else:
            pub[P_REGION], pub[P_AMOUNT], pub[P_AUX] = r, d, loser_armies
            k = ask(g, D_SPLIT, seat, (1 << (top + 1)) - 1)
    remove_armies(g, 1 - seat, r, k)
    placed = place_armies(g, seat, r, d - k)
    ks[stat(seat, ST_BATTLES)] += 1
    log_event(log, EV_SPLIT, pub[P_ROUND], seat, r, k, placed, d - k - placed, 0)


@inline
def has_army(rules, pub, seat, r):
    """Can the seat find an army for a marker on r: supply, or another region (SZ-15)?"""
    if pub[seat_at(seat, S_SUPPLY)] > 0 or regions_where(pub, seat, ARMIES, r) != 0:
        return True
    return rules[R_MARKERS_MOVE] != 0 and regions_where(pub, seat, MARKERS, r) != 0


@inline
def six_power(g, seat, r):
    """SZ-15: a 6 may ("可") put a marker beside the region, once per side and region (SZ-17c:
    Chu may do it a second time in one region). The owner decides (six_power="choice") or it is
    always used (six_power="always"); it counts as used only when a marker was placed."""
    rules, pub = g[0], g[1]
    used = region_at(r, SIX_USED + seat)
    if not has_army(rules, pub, seat, r):
        return
    if pub[used] == 0:
        if not rules[R_SIX_ALWAYS]:
            pub[P_REGION] = r
            if ask(g, D_SIX, seat, 3) == 0:
                return
        if put_marker(g, seat, r, np.int64(6)):
            pub[used] = 1
    elif pub[used] == 1 and seat == BLACK and power_ready(g, BLACK, POWER_C):
        if ask_power(g, BLACK, POWER_C, r):
            spend_power(g, BLACK, r, -1)
            if put_marker(g, seat, r, np.int64(POWER_C)):
                pub[used] = 2


@inline
def resolve_region(g, r):
    """SZ-9..SZ-12, SZ-15: reveal region r's two cards and apply the result."""
    rules, pub, hid, ks, log = g[0], g[1], g[2], g[3], g[9]
    rnd = pub[P_ROUND]
    c0, c1 = hid[WHITE, H_PLACED + r], hid[BLACK, H_PLACED + r]
    pub[region_at(r, CARD + WHITE)] = c0
    pub[region_at(r, CARD + BLACK)] = c1
    pub[P_REVEALED] += 1
    ks[stat(WHITE, ST_PLAYED)] |= 1 << c0
    ks[stat(BLACK, ST_PLAYED)] |= 1 << c1
    log_event(log, EV_REVEAL, rnd, -1, r, c0, c1, 0, 0)
    e0, six0 = c0, c0 == Y6
    if hid[WHITE, H_AS_SIX] == r:  # SZ-16c, OP-10
        pub[seat_at(WHITE, S_LEADER_ROUND)] = rnd
        show_leader(g, np.int64(WHITE))
        log_event(log, EV_POWER, rnd, WHITE, POWER_C, r, c0, 0, 0)
        e0, six0 = Y6, rules[R_AS_SIX_VALUE] == 0
    for seat in range(2):
        if (six0 if seat == WHITE else c1 == Y6):
            six_power(g, seat, r)
    if c0 == PLAGUE or c1 == PLAGUE:
        plague(g, r, c1 == PLAGUE)
        return
    margin, lose0, lose1 = battle(e0, c1)
    log_event(log, EV_BATTLE, rnd, -1, r, e0, c1, margin, 0)
    for seat in range(2):  # the cost is paid as the attack is made, before the winner places
        lose = lose0 if seat == WHITE else lose1
        if lose > 0:
            pay_cost(g, seat, r, lose)
    if margin != 0:
        win_region(g, WHITE if margin > 0 else BLACK, r, abs(margin))


@jit
def score(g):
    """SZ-18/19: each region's majority (markers included) scores its tile value for this
    scoring; the general moves one step per point, region by region left to right, and a red
    zone wins at once. OP-8: a tied region scores for nobody (or for more markers). With
    scoring_steps="net" the general moves once by the net points."""
    rules, pub, ks, log = g[0], g[1], g[3], g[9]
    rnd = pub[P_ROUND]
    k = rnd // SCORING_EVERY - 1
    track = pub[P_TRACK]
    net = 0
    for r in range(pub[P_N_REGIONS]):
        m0 = pub[region_at(r, MARKERS + WHITE)]
        m1 = pub[region_at(r, MARKERS + BLACK)]
        t0 = pub[region_at(r, ARMIES + WHITE)] + m0
        t1 = pub[region_at(r, ARMIES + BLACK)] + m1
        if t0 == t1 and rules[R_TIE_MARKERS]:
            t0, t1 = m0, m1
        if t0 == t1:
            continue
        seat = WHITE if t0 > t1 else BLACK
        points = pub[region_at(r, TILE + k)]
        pub[seat_at(seat, S_POINTS)] += points
        ks[stat(seat, ST_REGIONS)] += 1
        step = points if seat == WHITE else -points
        if rules[R_SCORE_NET]:
            net += step
            log_event(log, EV_SCORE, rnd, seat, r, points, pub[P_GENERAL] + net, 0, 0)
            continue
        pub[P_GENERAL] = max(-track, min(track, pub[P_GENERAL] + step))
        log_event(log, EV_SCORE, rnd, seat, r, points, pub[P_GENERAL], 0, 0)
        if abs(pub[P_GENERAL]) == track:
            break
    pub[P_GENERAL] = max(-track, min(track, pub[P_GENERAL] + net))
    general = pub[P_GENERAL]
    side = 1 if general > 0 else (-1 if general < 0 else 0)
    if side != 0:  # lead changes (METRICS.md): the general's side after each scoring
        if ks[K_LAST_LEADER] != 0 and side != ks[K_LAST_LEADER]:
            ks[K_LEAD_CHANGES] += 1
        ks[K_LAST_LEADER] = side
    if abs(general) == track:
        ks[K_END] = END_RED_ZONE
        ks[K_WINNERS] = 1 << (WHITE if general > 0 else BLACK)


@jit
def final_result(g):
    """SZ-20 after round 9: the general's side wins; central: more armies in supply; OP-12."""
    rules, pub, ks = g[0], g[1], g[3]
    general = pub[P_GENERAL]
    s0, s1 = pub[seat_at(WHITE, S_SUPPLY)], pub[seat_at(BLACK, S_SUPPLY)]
    if general != 0:
        ks[K_END] = END_GENERAL
        ks[K_WINNERS] = 1 << (WHITE if general > 0 else BLACK)
    elif s0 != s1:
        ks[K_END] = END_SUPPLY
        ks[K_WINNERS] = 1 << (WHITE if s0 > s1 else BLACK)
    else:
        ks[K_END] = END_DRAW
        ks[K_WINNERS] = 0 if rules[R_TIE_NOBODY] else 3


@jit
def conserved(g):
    """Army conservation: supply + map + markers + removed = start + bought, for both sides,
    and no count below zero."""
    rules, pub = g[0], g[1]
    for seat in range(2):
        total = pub[seat_at(seat, S_SUPPLY)] + pub[seat_at(seat, S_REMOVED)]
        low = min(pub[seat_at(seat, S_SUPPLY)], 0)
        for r in range(pub[P_N_REGIONS]):
            a = pub[region_at(r, ARMIES + seat)]
            m = pub[region_at(r, MARKERS + seat)]
            total += a + m
            low = min(low, a, m)
        if total != rules[R_ARMIES] + pub[seat_at(seat, S_BOUGHT)] or low < 0:
            return False
    return True


# --- hidden information (sim.control) --------------------------------------------------------

@jit
def redeal(g, seat):
    """Re-randomise everything `seat` has not observed, consistently with what it has: the
    order of its own deck's unseen top, and the opponent's hand, deck, face-down cards of this
    round, undeclared Sun Wu c and hidden leader. Reads only what `seat` may know to decide what
    to draw: the unseen cards are collected in card-id order before shuffling."""
    rules, pub, hid, ks, ctl = g[0], g[1], g[2], g[3], g[4]
    # The seat's own deck: its unseen top cards, in a new order (put-back cards stay below).
    head, unseen = ks[K_DECK_HEAD + seat], ks[K_UNSEEN + seat]
    for i in range(unseen - 1, 0, -1):
        j = control.rand_below(ctl, i + 1)
        a, b = deck_slot(ks, seat, i), deck_slot(ks, seat, j)
        ks[a], ks[b] = ks[b], ks[a]
    opp = 1 - seat
    cards = DECK_ADVANCED if rules[R_ADVANCED] else DECK_BASIC
    if rules[R_WARLORD] and rules[R_LEADER_IN_DECK] and pub[seat_at(opp, S_LEADER_ROUND)] < 0:
        cards |= 1 << LEADER_CARD
    revealed = 0
    for r in range(pub[P_N_REGIONS]):
        if pub[region_at(r, CARD + opp)] >= 0:
            revealed |= 1 << pub[region_at(r, CARD + opp)]
    whites = cards & ~pub[seat_at(opp, S_GONE)] & ~revealed & ~YELLOWS
    yellows = YELLOWS & ~revealed
    n_deck = pub[seat_at(opp, S_DECK)]
    # Which whites lie in the deck (the rest are in hand or face down), in a random order.
    in_hand = whites
    for i in range(n_deck):
        pick = nth_bit(in_hand, control.rand_below(ctl, popcount(in_hand)))
        in_hand &= ~(1 << pick)
        ks[deck_slot(ks, opp, i)] = pick
    # Face-down cards of this round: placed again from the redealt hand by the opponent's own
    # strategy (its model in a search; uniform when it is random), region by region.
    for i in range(H_MEMORY, HID_SIZE):  # the opponent strategy's own memory is its secret
        hid[opp, i] = 0
    hid[opp, H_HAND] = in_hand | yellows
    hid[opp, H_DRAWN] = 0
    st = g[6][0]
    legal = g[7]
    asked = pub[P_REGION]  # the context of the decision being asked, restored below
    for r in range(pub[P_N_REGIONS]):
        if hid[opp, H_PLACED + r] >= 0 and pub[region_at(r, CARD + opp)] < 0:
            mask = hid[opp, H_HAND] & PLACEABLE
            for a in range(N_ACTIONS):
                legal[a] = (mask >> a) & 1 == 1
            pub[P_REGION] = r
            own = seat_stream(N_CHANCE, N_DECISIONS, opp, D_PLACE)
            c = decide(g[5][opp], np.int64(D_PLACE), np.int64(opp), pub, st.hid[opp], legal,
                       st.params[opp], st.streams[own:own + 1])
            if c < 0 or c >= N_ACTIONS or not legal[c]:
                c = nth_bit(mask, control.rand_below(ctl, popcount(mask)))
            hid[opp, H_HAND] &= ~(1 << c)
            hid[opp, H_PLACED + r] = c
    pub[P_REGION] = asked
    held = hid[opp, H_HAND]
    # Leader: hidden ones are drawn anew; an unused power is in hand (held, or its card drawn).
    if rules[R_WARLORD]:
        if pub[seat_at(opp, S_LEADER)] < 0:
            hid[opp, H_LEADER] = control.rand_below(ctl, 4)
        unused = pub[seat_at(opp, S_LEADER_ROUND)] < 0
        in_play = (held >> LEADER_CARD) & 1 if rules[R_LEADER_IN_DECK] else 1
        hid[opp, H_POWER] = 1 if unused and in_play else 0
        # Sun Wu c may have been declared on a face-down 7-10 (hidden until its reveal).
        if opp == WHITE and unused:
            hid[opp, H_AS_SIX] = -1
        if opp == WHITE and unused and hid[opp, H_LEADER] == POWER_C:
            for r in range(pub[P_N_REGIONS]):
                c = hid[opp, H_PLACED + r]
                if (pub[region_at(r, CARD + opp)] < 0 and W7 <= c <= W10
                        and hid[opp, H_POWER] == 1 and control.rand_below(ctl, 2) == 1):
                    hid[opp, H_AS_SIX] = r
                    hid[opp, H_POWER] = 0
                    hid[opp, H_HAND] &= ~(1 << LEADER_CARD)


# --- a game ---------------------------------------------------------------------------------

@jit
def setup(g, tiles, adj, fixed_decks, fixed_tiles, scratch, row):
    """SZ-4..SZ-6, SZ-3, SZ-16a."""
    rules, pub, hid, ks, streams, log = g[0], g[1], g[2], g[3], g[6][0].streams, g[9]
    pub[:] = 0
    hid[:, :] = 0
    ks[:] = 0
    ks[K_ROW] = row
    ks[K_END] = -1
    ks[K_LAST_DECIDER] = -1
    n_regions = rules[R_N_REGIONS]
    pub[P_TRACK] = rules[R_TRACK]
    pub[P_N_REGIONS] = n_regions
    pub[P_ADVANCED] = rules[R_ADVANCED]
    pub[P_DECIDER] = -1
    pub[P_REGION] = -1
    for seat in range(2):
        pub[seat_at(seat, S_SUPPLY)] = rules[R_ARMIES]
        pub[seat_at(seat, S_LEADER)] = -1
        pub[seat_at(seat, S_LEADER_ROUND)] = -1
        hid[seat, H_AS_SIX] = -1
        hid[seat, H_LEADER] = -1
        for r in range(MAX_REGIONS):
            hid[seat, H_PLACED + r] = -1
    n_tiles = tiles.shape[0]
    for i in range(n_tiles):
        scratch[i] = i
    if rules[R_FIXED_TILES] == 0:  # SZ-4: a random tile beside each region
        shuffle(scratch, n_tiles, streams, 0)
    for r in range(MAX_REGIONS):
        pub[region_at(r, CARD + WHITE)] = -1
        pub[region_at(r, CARD + BLACK)] = -1
        pub[region_at(r, REVEAL)] = -1
        if r < n_regions:
            t = fixed_tiles[r] if rules[R_FIXED_TILES] else scratch[r]
            for k in range(3):
                pub[region_at(r, TILE + k)] = tiles[t, k]
            pub[region_at(r, ADJ)] = adj[r]
            log_event(log, EV_TILE, 0, -1, r, tiles[t, 0], tiles[t, 1], tiles[t, 2], t)
    if rules[R_WARLORD]:
        choose_leaders(g)
    for seat in range(2):  # SZ-6: own deck of the remaining cards, shuffled; draw 4
        cards = DECK_ADVANCED if rules[R_ADVANCED] else DECK_BASIC
        if rules[R_WARLORD] and rules[R_LEADER_IN_DECK]:
            cards |= 1 << LEADER_CARD
        base = K_DECKS + seat * DECK_MAX
        fixed = fixed_decks[seat, 0] >= 0
        count = 0
        while cards:
            c = lowest_bit(cards)
            cards &= cards - 1
            ks[base + count] = fixed_decks[seat, count] if fixed else c
            count += 1
        if not fixed:
            shuffle(ks[base:base + DECK_MAX], count, streams, 0)
        pub[seat_at(seat, S_DECK)] = count - 4
        ks[K_UNSEEN + seat] = count - 4
        hand = YELLOWS
        for i in range(4):
            hand |= 1 << ks[base + i]
        ks[K_DECK_HEAD + seat] = 4
        hid[seat, H_HAND] = hand
        if (hand >> LEADER_CARD) & 1:
            hid[seat, H_POWER] = 1
        pub[seat_at(seat, S_HAND)] = 10
        ks[stat(seat, ST_OPENING)] = hand & ~YELLOWS
        ks[stat(seat, ST_DRAWN)] = hand & ~YELLOWS
        log_event(log, EV_HAND, 0, seat, hand, 0, 0, 0, 0)
    outpost(g)


@jit
def write_record(g, out, row):
    pub, ks, log = g[1], g[3], g[9]
    out[row, RECORD_LENGTH] = pub[P_ROUND]
    out[row, RECORD_END] = ks[K_END]
    out[row, RECORD_WINNERS] = ks[K_WINNERS]
    out[row, C_GENERAL] = pub[P_GENERAL]
    out[row, C_LEAD_CHANGES] = ks[K_LEAD_CHANGES]
    for seat in range(2):
        armies, markers = 0, 0
        for r in range(pub[P_N_REGIONS]):
            armies += pub[region_at(r, ARMIES + seat)]
            markers += pub[region_at(r, MARKERS + seat)]
        c = C_SEAT0 + seat * N_SEAT_COLUMNS
        out[row, c] = pub[seat_at(seat, S_POINTS)]
        out[row, c + 1] = pub[seat_at(seat, S_SUPPLY)]
        out[row, c + 2] = armies
        out[row, c + 3] = markers
        out[row, c + 4] = pub[seat_at(seat, S_REMOVED)]
        out[row, c + 5] = pub[seat_at(seat, S_BOUGHT)]
        out[row, c + 6] = ks[stat(seat, ST_MOVED)]
        out[row, c + 7] = ks[stat(seat, ST_BATTLES)]
        out[row, c + 8] = ks[stat(seat, ST_REGIONS)]
        out[row, c + 9] = ks[stat(seat, ST_ORDERS)]
        out[row, c + 10] = g[2][seat, H_LEADER]
        out[row, c + 11] = pub[seat_at(seat, S_LEADER_ROUND)]
        out[row, c + 12] = ks[stat(seat, ST_OPENING)] >> RECORD_CARD_SHIFT
        out[row, c + 13] = ks[stat(seat, ST_DRAWN)] >> RECORD_CARD_SHIFT
        out[row, c + 14] = ks[stat(seat, ST_PLAYED)] >> RECORD_CARD_SHIFT
    log_event(log, EV_END, pub[P_ROUND], -1, ks[K_END], ks[K_WINNERS], pub[P_GENERAL],
              pub[seat_at(WHITE, S_SUPPLY)], pub[seat_at(BLACK, S_SUPPLY)])


@jit
def log_board(g):
    """The board after a round, for the narrative."""
    pub, log = g[1], g[9]
    for r in range(pub[P_N_REGIONS]):
        log_event(log, EV_STATE, pub[P_ROUND], -1, r, pub[region_at(r, ARMIES + WHITE)],
                  pub[region_at(r, MARKERS + WHITE)], pub[region_at(r, ARMIES + BLACK)],
                  pub[region_at(r, MARKERS + BLACK)])


@jit
def play_game(g, tiles, adj, fixed_decks, fixed_tiles, scratch, out, row):
    """One game from set-up to record."""
    rules, pub, ks, log, ctl = g[0], g[1], g[3], g[9], g[4]
    setup(g, tiles, adj, fixed_decks, fixed_tiles, scratch, row)
    n_regions = rules[R_N_REGIONS]
    for rnd in range(1, N_ROUNDS + 1):
        if control.stopped(ctl):
            break
        pub[P_ROUND] = rnd
        pub[P_REVEALED] = 0
        for r in range(n_regions):
            pub[region_at(r, REVEAL)] = -1
        if rnd == 6 and rules[R_ROUND6_AT_START]:
            round6_powers(g)
        for seat in range(2):
            if rules[R_ADVANCED] and not rules[R_BUY_AT_END]:  # OP-11
                buy(g, seat)
        set_decider(g)
        if rules[R_ORDER_BEFORE]:  # OP-13
            choose_order(g)
        for seat in range(2):
            place_cards(g, seat)
        if rules[R_ORDER_EACH] and pub[P_DECIDER] >= 0:
            reveal_each(g)
        else:
            if not rules[R_ORDER_BEFORE]:
                choose_order(g)
            for i in range(n_regions):
                resolve_region(g, ks[K_ORDER + i])
        if rnd == 6 and not rules[R_ROUND6_AT_START]:  # OP-9
            round6_powers(g)
        for seat in range(2):
            if rules[R_ADVANCED] and rules[R_BUY_AT_END]:
                buy(g, seat)
        if log.shape[0] > 0:
            log_board(g)
        if not conserved(g):
            ks[K_END] = END_BROKEN
            break
        if rnd % SCORING_EVERY == 0:
            score(g)
            if ks[K_END] >= 0:
                break
        end_round(g, rnd == N_ROUNDS)
    if ks[K_END] < 0:
        final_result(g)
    write_record(g, out, row)


@njit(cache=True, nogil=True)
def play_chunk(rules, tiles, adj, fixed_decks, fixed_tiles, kinds, params, key, first_game,
               out, error, log, ctl):
    """Play out.shape[0] games (see sim.game for the contract)."""
    # Views of a record do not hold a reference to its array: `state` itself travels in g, which
    # keeps it alive while they are used.
    state = np.zeros(1, STATE_DTYPE)
    st = state[0]
    pub, hid, streams = st.pub, st.hid, st.streams
    ks = np.zeros(KS_SIZE, np.int64)
    scratch = np.zeros(tiles.shape[0], np.int64)
    legal = np.zeros(N_ACTIONS, np.bool_)
    seat_kinds = np.zeros(2, np.int64)
    g = (rules, pub, hid, ks, ctl, seat_kinds, state, legal, error, log)
    trial, trial_error = out[:1].copy(), error.copy()
    no_log = np.zeros((0, log.shape[1]), np.int64)
    g_trial = (rules, pub, hid, ks, ctl, seat_kinds, state, legal, trial_error, no_log)
    for row in range(out.shape[0]):
        game = first_game + row
        control.begin_game(ctl, game, row == 0, kinds, params, seat_kinds, st.params)
        while True:  # a search seat pauses the game at each of its decisions (sim.control)
            seed_game(key, game, streams)
            if log.shape[0] > 0:
                log[0, 0] = 0
            play_game(g, tiles, adj, fixed_decks, fixed_tiles, scratch, out, row)
            if not control.search_pending(ctl):
                break
            for _ in range(control.begin_search(ctl, st.params)):
                seed_game(key, game, streams)
                control.begin_iteration(ctl, seat_kinds, st.params)
                play_game(g_trial, tiles, adj, fixed_decks, fixed_tiles, scratch, trial, 0)
                control.end_iteration(ctl, trial[0, RECORD_WINNERS])
            control.end_search(ctl, kinds, params, seat_kinds, st.params)
        if error[3] == 1:
            return
