"""Two held-out Sunzi / Dynasties players written from the rules brief alone (shared/rules/
sunzi_dynasties.md) and the observation layout (games/sunzi/layout.py); nobody who builds or tunes
a field reads this file (heldout/__init__.py).

- ``solver``: once a round, before its first card goes down, it builds a handful of candidate
  whole-round placements for itself and as many guesses of the opponent's placement (the
  opponent's yellows 1-6 are certain; its other cards are sampled from the public facts: its
  deck's cards that have not left the game, as many as it has kept), scores every (mine,
  theirs) pair by the expected effect on holding the regions at the coming scoring (SZ-18 tile
  values; SZ-9/10/11 move a region's army margin by the card difference; SZ-15 markers) and
  later scorings (discounted), minus what the one-use cards spent are worth later, solves that
  small zero-sum matrix game by regret matching and samples its placement from the mixture.
  The plan is kept in scratch memory so that the round's five D.PLACE calls agree.
- ``rusher``: goes for the first scoring (round 3, SZ-18/19): in rounds 1-3 it picks the
  regions with the highest round-3 tiles that it can still hold (its targets), frees a budget
  of one-use cards (the strongest, spread over the three rounds, at no cost) and places its
  cards to win the targets at round 3, the other regions and the later scorings counting
  little, so its weakest cards (the 1 for its extra card, SZ-14; the -1) go there; afterwards
  it plays for every scoring to come with the regions it leads weighted up (it defends its
  leads) and one-use cards at a price. Each round's placement is the best assignment of its
  cards to regions against an opponent answering with a yellow at random (greedy, then swaps
  until none helps): one plan, no mixing, kept in scratch memory for the round.

Both answer every decision (advanced SZ-2 and warlord SZ-3 included): splits remove the
loser's armies first (the margin moves by d either way and the supply is spared), shortages
take from the region where an army is worth least, kept cards by a fixed ranking, leader powers
where a +1 in a region is worth most at the coming scoring.

Knobs (``params``; all zeros = the player as described), ranges in ``KNOBS``:

solver   k0 weight of later scorings (0.3 + k0); k1 cost of a one-use card (0.8 + k1 per point
         of its edge over a yellow, early in the game); k2 spread of the guesses and candidates
         (1.0 + k2); k3 candidates per side (8 + round(k3), 2..10); k4 how soft a margin is
         before its scoring (3.0 + k4, per sqrt(round)); k5 worth of the yellow 1's extra card
         (0.6 + k5).
rusher   k0 regions targeted for the first scoring (4 + round(k0), at least 1); k1 one-use
         cards freed for rounds 1-3 (3 + round(k1)); k2 weight of the other regions in rounds
         1-3 (0.25 + k2); k3 weight of the later scorings (0.3 + k3); k4 cost of a one-use card
         after round 3 (0.8 + k4, as the solver's k1); k5 extra weight of the regions it leads
         after round 3 (0.3 + k5).

How the defaults were chosen: a few settings were tried against the built-in greedy, counter
and settle seats (played against, never read; 400-600 games each) and the choice confirmed in
self-play (the solver's defaults beat its first defaults 61%; this rusher beat a first,
hand-written rule version 80%).
"""
import math

import numpy as np
from numba import njit

from sim.rng import rand_unit
from sim.strategy import Strategy
from games.sunzi.layout import (D, DECK_ADVANCED, DECK_BASIC, H, P, PASS, RG, S,
                              YELLOWS, region_at, seat_at)

N_PLACEABLE = 15                 # card ids 0..14 go on regions; 15 (the leader card) never does
PLACEABLE = (1 << N_PLACEABLE) - 1
Y1, Y6 = 0, 5
W7, W10 = 6, 9
PLUS1, PLUS2, PLUS3, MINUS1, PLAGUE = 10, 11, 12, 13, 14
NONE = 31                        # "no card" in a packed plan (5 bits a region)
MAX_CAND = 10

# How strong a card is to place (the order cards go to regions); +1/+2/+3 win by a sure margin.
STRENGTH = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 7.5, 8.0, 8.5, 0.5, 6.5,
                     0.0])
# What a card in hand is worth keeping (SZ-13): the leader card (OP-9 deck) above all.
KEEP = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 4.0, 5.0, 6.0, 4.5, 4.3, 4.8, 1.5, 2.5, 20.0])
# A one-use card's edge over a yellow: what spending it now gives up (solver's card cost).
EDGE = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 3.0, 4.0, 5.0, 3.0, 3.0, 3.5, 1.5, 2.5, 0.0])
S0, S1 = 0.7, 3.0                # a margin's softness before a scoring: S0 + S1 * sqrt(rounds left)
ARMY_COST = 0.2                  # an army lost to a +2/+3 (OP-7), in points
# The solver's candidates (mine) and guesses (theirs): the yellows the other side is assumed to
# answer with are shifted by *_SHIFT; one-use cards cost *_COST times the usual.
MY_SHIFT = np.array([0, 1, 0, 2, -1, 1, 0, 1, 2, 0], np.int64)
MY_COST = np.array([1.0, 1.0, 0.5, 1.0, 1.5, 0.5, 1.0, 2.0, 0.5, 1.5])
OP_SHIFT = np.array([0, 1, 0, 2, -1, 1, 0, 1, 2, 0], np.int64)
OP_COST = np.array([1.0, 0.5, 1.0, 1.0, 1.5, 0.5, 1.0, 2.0, 0.5, 1.5])


# --------------------------------------------------------------------------- shared helpers

@njit(cache=True)
def _margin(pub, seat, r):
    """Armies plus markers of ``seat`` minus the other's in region r (SZ-18 control)."""
    a = region_at(r, RG.ARMIES)
    k = region_at(r, RG.MARKERS)
    return pub[a + seat] + pub[k + seat] - pub[a + 1 - seat] - pub[k + 1 - seat]


@njit(cache=True)
def _value(pub, r, rnd, m, later_w, s0, s1):
    """Expected points of region r for a side whose margin there is m: each scoring still to
    come weighs its tile by tanh(m / softness), the softness growing with the rounds left
    before it (none left: nearly a step; a tie scores nothing, OP-8)."""
    if rnd < 1:
        rnd = 1
    k = (rnd - 1) // 3
    v = 0.0
    for j in range(k, 3):
        left = 3 * (j + 1) - rnd
        s = s0 + s1 * math.sqrt(left)
        w = 1.0 if j == k else later_w
        v += w * pub[region_at(r, RG.TILE) + j] * math.tanh(m / s)
    return v


@njit(cache=True)
def _battle(a, b):
    """SZ-9/SZ-11 for cards a (mine) and b (theirs), neither the Plague: (my margin change,
    armies I lose, armies they lose)."""
    ca = 1 if a == PLUS2 else (2 if a == PLUS3 else 0)
    cb = 1 if b == PLUS2 else (2 if b == PLUS3 else 0)
    if a <= W10 and b <= W10:
        return a - b, 0, 0
    if a <= W10:                       # a number against a special
        if b == MINUS1:
            return 1, ca, cb
        return -(b - PLUS1 + 1), ca, cb
    if b <= W10:                       # a special against a number
        if a == MINUS1:
            return -1, ca, cb
        return a - PLUS1 + 1, ca, cb
    sa = 0 if a == MINUS1 else a - PLUS1 + 1
    sb = 0 if b == MINUS1 else b - PLUS1 + 1
    return sa - sb, ca, cb


@njit(cache=True)
def _six_free(pub, s, r):
    """Can seat s still use the 6 power in region r (SZ-15; Chu c: twice, SZ-17)?"""
    limit = 1
    if s == 1 and pub[seat_at(1, S.LEADER)] == 2:
        limit = 2
    return pub[region_at(r, RG.SIX_USED) + s] < limit


@njit(cache=True)
def _first_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return 0


@njit(cache=True)
def _gain_target(pub, seat, legal, later_w):
    """The legal region where one more army (or one fewer of theirs) is worth most."""
    n = pub[P.N_REGIONS]
    rnd = pub[P.ROUND]
    best = -1e18
    pick = -1
    for r in range(n):
        if not legal[r]:
            continue
        m = _margin(pub, seat, r)
        g = _value(pub, r, rnd, m + 1, later_w, S0, S1) - _value(pub, r, rnd, m, later_w, S0,
                                                                    S1)
        if g > best:
            best = g
            pick = r
    return pick


@njit(cache=True)
def _common(decision, seat, pub, mine, legal, later_w):
    """Every decision but D.PLACE (and D.PLACE's fallback)."""
    n = pub[P.N_REGIONS]
    rnd = pub[P.ROUND]
    if decision == D.LEADER:           # Sun Wu a: a marker for the whole game; Chu d: round 6
        want = 0 if seat == 0 else 3
        if legal[want]:
            return want
        return _first_legal(legal)
    if decision == D.SPLIT:            # remove as many of theirs as allowed (SZ-10)
        for a in range(PASS - 1, -1, -1):
            if legal[a]:
                return a
        return _first_legal(legal)
    if decision == D.SIX:
        return 1 if legal[1] else 0
    if decision == D.KEEP:
        best = -1.0
        pick = -1
        for c in range(16):
            if legal[c] and KEEP[c] > best:
                best = KEEP[c]
                pick = c
        return pick if pick >= 0 else _first_legal(legal)
    if decision == D.SOURCE:           # the army whose loss costs least
        best = 1e18
        pick = -1
        for r in range(n):
            if not legal[r]:
                continue
            m = _margin(pub, seat, r)
            loss = _value(pub, r, rnd, m, later_w, S0, S1) - _value(pub, r, rnd, m - 1,
                                                                       later_w, S0, S1)
            if loss < best:
                best = loss
                pick = r
        return pick if pick >= 0 else _first_legal(legal)
    if decision == D.BUY:
        hand = mine[H.HAND]
        whites = hand & PLACEABLE & ~YELLOWS
        supply = pub[seat_at(seat, S.SUPPLY)]
        buy = supply <= 1
        if rnd >= 9 and (legal[MINUS1] or _count(whites) > 5):
            buy = True
        if not buy and legal[PASS]:
            return PASS
        best = 1e18
        pick = -1
        for c in range(16):
            if legal[c] and c != PASS and KEEP[c] < best:
                best = KEEP[c]
                pick = c
        if pick >= 0:
            return pick
        return PASS if legal[PASS] else _first_legal(legal)
    if decision == D.POWER:
        power = pub[P.AUX]
        r = pub[P.REGION]
        want = 1
        if seat == 0 and power == 2:   # Sun Wu c: a 7 played as a 6 for a marker, else no
            want = 0
            if 0 <= r < n and mine[H.PLACED + r] == W7 and _six_free(pub, 0, r):
                want = 1
        elif seat == 1 and power == 1 and 0 <= r < n:   # Chu b: only where they have more
            a = region_at(r, RG.ARMIES)
            want = 1 if pub[a + 0] > pub[a + 1] else 0
        if legal[want]:
            return want
        return 1 - want if legal[1 - want] else _first_legal(legal)
    if decision == D.TARGET:
        power = pub[P.AUX]
        if seat == 0 and power == 3:   # Sun Wu d, first step: the army to move
            best = 0.0
            pick = -1
            for r in range(n):
                if not legal[r]:
                    continue
                m = _margin(pub, seat, r)
                loss = _value(pub, r, rnd, m, later_w, S0, S1) - _value(pub, r, rnd, m - 1,
                                                                           later_w, S0, S1)
                adj = pub[region_at(r, RG.ADJ)]
                for x in range(n):
                    if (adj >> x) & 1:
                        mx = _margin(pub, seat, x)
                        g = _value(pub, x, rnd, mx + 1, later_w, S0, S1) - _value(
                            pub, x, rnd, mx, later_w, S0, S1)
                        if g - loss > best:
                            best = g - loss
                            pick = r
            if pick >= 0:
                return pick
            if legal[PASS]:
                return PASS
        # AUX_MARCH_TO (Sun Wu d's second step), Sun Wu a/b, Chu d: where a +1 is worth most
        pick = _gain_target(pub, seat, legal, later_w)
        if pick >= 0:
            return pick
        return PASS if legal[PASS] else _first_legal(legal)
    if decision == D.ORDER:
        return _first_legal(legal)
    return _first_legal(legal)


@njit(cache=True)
def _count(mask):
    c = 0
    while mask:
        mask &= mask - 1
        c += 1
    return c


@njit(cache=True)
def _place_fallback(pub, mine, legal, region):
    """A legal card for ``region`` when the round's plan cannot be followed: the strongest legal
    card that the plan does not keep for another region still open."""
    n = pub[P.N_REGIONS]
    reserved = 0
    packed = mine[H.MEMORY + 1]
    for r in range(n):
        if r != region and mine[H.PLACED + r] < 0:
            c = (packed >> (5 * r)) & 31
            if c < N_PLACEABLE:
                reserved |= 1 << c
    best = -1.0
    pick = -1
    for c in range(N_PLACEABLE):
        if legal[c] and not (reserved >> c) & 1 and STRENGTH[c] > best:
            best = STRENGTH[c]
            pick = c
    if pick >= 0:
        return pick
    return _first_legal(legal)


@njit(cache=True)
def _pack(plan, n):
    packed = 0
    for r in range(n):
        c = plan[r]
        packed |= (c if 0 <= c < N_PLACEABLE else NONE) << (5 * r)
    for r in range(n, 6):
        packed |= NONE << (5 * r)
    return packed


@njit(cache=True)
def _gauss(rng):
    return (rand_unit(rng, 0) + rand_unit(rng, 0) + rand_unit(rng, 0) - 1.5) * 2.0


# --------------------------------------------------------------------------------- solver

@njit(cache=True)
def _val(W, SC, r, m):
    v = 0.0
    for j in range(3):
        if W[r, j] != 0.0:
            v += W[r, j] * math.tanh(m / SC[r, j])
    return v


@njit(cache=True)
def _fill_q(q, avail, n, marg, arm, six, W, SC, shift, noise, cost_scale, future, bonus, rng,
            Q):
    """Q[c, r]: the worth, for side q (0 me, 1 the opponent), of card c on region r against an
    opponent card drawn from the yellows (values shifted by ``shift``), minus what spending c
    gives up; each region's worth scaled by a random factor (``noise``)."""
    for r in range(n):
        mult = 1.0
        if noise > 0.0:
            mult = math.exp(noise * _gauss(rng))
        base = marg[r] if q == 0 else -marg[r]
        own = arm[r, q]
        oth = arm[r, 1 - q]
        for c in range(N_PLACEABLE):
            if not (avail >> c) & 1:
                continue
            sgn = 1.0 if q == 0 else -1.0
            if c == PLAGUE:
                mm = base - (own - own // 2) + (oth - oth // 2)
                v = sgn * _val(W, SC, r, sgn * mm)
                lost = 0
            else:
                v = 0.0
                lost = 0
                for y in range(6):
                    b = y + shift
                    if b < 0:
                        b = 0
                    if b > W10:
                        b = W10
                    d, ca, cb = _battle(c, b)
                    lost = ca
                    mm = base + d
                    if c == Y6 and six[r, q]:
                        mm += 1
                    if b == Y6 and six[r, 1 - q]:
                        mm -= 1
                    v += sgn * _val(W, SC, r, sgn * mm)
                v /= 6.0
            worth = mult * v - cost_scale * EDGE[c] * future - ARMY_COST * lost
            if c == Y1:
                worth += bonus
            Q[c, r] = worth


@njit(cache=True)
def _assign(Q, avail, n, plan):
    """Distinct cards of ``avail`` for the regions with plan[r] < 0 maximising the sum of
    Q[card, region]: greedy, then swaps and replacements until none helps."""
    used = 0
    for r in range(n):
        if plan[r] >= 0:
            used |= 1 << plan[r]
    free = avail & ~used
    todo = 0
    for r in range(n):
        if plan[r] < 0:
            todo |= 1 << r
    fixed = ~todo
    while todo:
        best = -1e18
        br = -1
        bc = -1
        for r in range(n):
            if not (todo >> r) & 1:
                continue
            low = 1e18
            for c in range(N_PLACEABLE):
                if (free >> c) & 1 and Q[c, r] < low:
                    low = Q[c, r]
            for c in range(N_PLACEABLE):
                if (free >> c) & 1 and Q[c, r] - low > best:
                    best = Q[c, r] - low
                    br = r
                    bc = c
        if br < 0:
            break
        plan[br] = bc
        free &= ~(1 << bc)
        todo &= ~(1 << br)
    for _ in range(12):
        changed = False
        for r1 in range(n):
            if (fixed >> r1) & 1 or plan[r1] < 0:
                continue
            for r2 in range(r1 + 1, n):
                if (fixed >> r2) & 1 or plan[r2] < 0:
                    continue
                a = plan[r1]
                b = plan[r2]
                if Q[b, r1] + Q[a, r2] > Q[a, r1] + Q[b, r2] + 1e-9:
                    plan[r1] = b
                    plan[r2] = a
                    changed = True
        for r in range(n):
            if (fixed >> r) & 1 or plan[r] < 0:
                continue
            for c in range(N_PLACEABLE):
                if (free >> c) & 1 and Q[c, r] > Q[plan[r], r] + 1e-9:
                    free |= 1 << plan[r]
                    free &= ~(1 << c)
                    plan[r] = c
                    changed = True
        if not changed:
            break


@njit(cache=True)
def _payoff(A, B, n, marg, arm, six, W, SC, cost_me, cost_op, future, bonus_me, bonus_op):
    """My expected points for my plan A against their plan B."""
    u = 0.0
    for r in range(n):
        a = A[r]
        b = B[r]
        if a == PLAGUE or b == PLAGUE:
            mm = marg[r] - (arm[r, 0] - arm[r, 0] // 2) + (arm[r, 1] - arm[r, 1] // 2)
        else:
            d, ca, cb = _battle(a, b)
            mm = marg[r] + d
            u -= ARMY_COST * (ca - cb)
        if a == Y6 and six[r, 0]:
            mm += 1
        if b == Y6 and six[r, 1]:
            mm -= 1
        u += _val(W, SC, r, mm)
        if a >= 0:
            u -= cost_me * EDGE[a] * future
        if b >= 0:
            u += cost_op * EDGE[b] * future
        if a == Y1:
            u += bonus_me
        if b == Y1:
            u -= bonus_op
    return u


@njit(cache=True)
def _solve(M, na, nb, iters, x_avg):
    """Regret matching+ with linear averaging on the zero-sum game M (row player maximises);
    x_avg gets the row player's average mixture."""
    rx = np.zeros(na)
    ry = np.zeros(nb)
    x = np.empty(na)
    y = np.empty(nb)
    ux = np.empty(na)
    for i in range(na):
        x_avg[i] = 0.0
    for it in range(iters):
        s = 0.0
        for i in range(na):
            s += rx[i]
        for i in range(na):
            x[i] = rx[i] / s if s > 0 else 1.0 / na
        s = 0.0
        for j in range(nb):
            s += ry[j]
        for j in range(nb):
            y[j] = ry[j] / s if s > 0 else 1.0 / nb
        v = 0.0
        for i in range(na):
            t = 0.0
            for j in range(nb):
                t += M[i, j] * y[j]
            ux[i] = t
            v += x[i] * t
        for j in range(nb):
            t = 0.0
            for i in range(na):
                t += x[i] * M[i, j]
            ry[j] = max(ry[j] + v - t, 0.0)
        for i in range(na):
            rx[i] = max(rx[i] + ux[i] - v, 0.0)
            x_avg[i] += (it + 1) * x[i]


@njit(cache=True)
def _sample_whites(pool, k, rng):
    """k distinct cards drawn from the bitmask pool."""
    out = 0
    for _ in range(k):
        left = pool & ~out
        cnt = _count(left)
        if cnt == 0:
            break
        pick = int(rand_unit(rng, 0) * cnt)
        if pick >= cnt:
            pick = cnt - 1
        for c in range(N_PLACEABLE):
            if (left >> c) & 1:
                if pick == 0:
                    out |= 1 << c
                    break
                pick -= 1
    return out


@njit(cache=True)
def _solver_plan(pub, mine, seat, params, rng):
    """The solver's placement for the whole round, packed 5 bits a region (module docstring)."""
    n = pub[P.N_REGIONS]
    rnd = max(1, pub[P.ROUND])
    opp = 1 - seat
    later_w = max(0.0, 0.3 + params[0])
    card_cost = max(0.0, 0.8 + params[1])
    spread = max(0.0, 1.0 + params[2])
    n_cand = int(round(8 + params[3]))
    n_cand = min(MAX_CAND, max(2, n_cand))
    s1 = max(0.2, 3.0 + params[4])
    one_bonus = 0.6 + params[5]
    s0 = 0.7
    future = (9 - rnd) / 8.0

    marg = np.empty(n, np.int64)
    arm = np.empty((n, 2), np.int64)
    six = np.empty((n, 2), np.bool_)
    W = np.zeros((n, 3))
    SC = np.ones((n, 3))
    k = (rnd - 1) // 3
    for r in range(n):
        marg[r] = _margin(pub, seat, r)
        a = region_at(r, RG.ARMIES)
        arm[r, 0] = pub[a + seat]
        arm[r, 1] = pub[a + opp]
        six[r, 0] = _six_free(pub, seat, r)
        six[r, 1] = _six_free(pub, opp, r)
        for j in range(k, 3):
            W[r, j] = (1.0 if j == k else later_w) * pub[region_at(r, RG.TILE) + j]
            SC[r, j] = s0 + s1 * math.sqrt(3 * (j + 1) - rnd)

    # my cards: the hand less what is already down this round (those regions stay as they are)
    fixed = np.full(n, -1, np.int64)
    placed = 0
    for r in range(n):
        c = mine[H.PLACED + r]
        if c >= 0:
            fixed[r] = c
            placed |= 1 << c
    avail = mine[H.HAND] & PLACEABLE & ~placed
    my_bonus = one_bonus * future if pub[seat_at(seat, S.DECK)] > 0 else 0.0
    op_bonus = one_bonus * future if pub[seat_at(opp, S.DECK)] > 0 else 0.0

    # the opponent's unknown cards: its deck's cards not gone, as many as it has kept
    deck = DECK_ADVANCED if pub[P.ADVANCED] else DECK_BASIC
    gone = pub[seat_at(opp, S.GONE)]
    pool = deck & ~gone
    kept = _count(deck) - pub[seat_at(opp, S.DECK)] - _count(gone & deck)
    n_unknown = min(max(kept, 0), _count(pool))

    Q = np.zeros((N_PLACEABLE, n))
    A = np.full((n_cand, n), -1, np.int64)
    B = np.full((n_cand, n), -1, np.int64)
    plan = np.empty(n, np.int64)
    for i in range(n_cand):
        shift = MY_SHIFT[i]
        noise = 0.0 if i < 2 else spread
        cmult = MY_COST[i]
        _fill_q(0, avail, n, marg, arm, six, W, SC, shift, noise, card_cost * cmult, future,
                my_bonus, rng, Q)
        for r in range(n):
            plan[r] = fixed[r]
        _assign(Q, avail, n, plan)
        for r in range(n):
            A[i, r] = plan[r]
    for j in range(n_cand):
        shift = OP_SHIFT[j]
        noise = 0.0 if j == 0 else spread
        cmult = OP_COST[j]
        hand = YELLOWS | _sample_whites(pool, n_unknown, rng)
        _fill_q(1, hand, n, marg, arm, six, W, SC, shift, noise, card_cost * cmult, future,
                op_bonus, rng, Q)
        for r in range(n):
            plan[r] = -1
        _assign(Q, hand, n, plan)
        for r in range(n):
            B[j, r] = plan[r]

    M = np.empty((n_cand, n_cand))
    for i in range(n_cand):
        for j in range(n_cand):
            M[i, j] = _payoff(A[i], B[j], n, marg, arm, six, W, SC, card_cost, card_cost, future,
                              my_bonus, op_bonus)
    x = np.empty(n_cand)
    _solve(M, n_cand, n_cand, 300, x)
    total = 0.0
    for i in range(n_cand):
        total += x[i]
    u = rand_unit(rng, 0) * total
    pick = n_cand - 1
    for i in range(n_cand):
        u -= x[i]
        if u < 0:
            pick = i
            break
    for r in range(n):
        plan[r] = A[pick, r]
    return _pack(plan, n)


@njit(cache=True)
def solver(decision, seat, obs, legal, params, rng):
    """The matrix-game player (module docstring)."""
    pub = obs.pub
    mine = obs.mine
    if decision == D.PLACE:
        region = pub[P.REGION]
        rnd = pub[P.ROUND]
        if mine[H.MEMORY] != rnd:
            mine[H.MEMORY + 1] = _solver_plan(pub, mine, seat, params, rng)
            mine[H.MEMORY] = rnd
        c = (mine[H.MEMORY + 1] >> (5 * region)) & 31
        if c < N_PLACEABLE and legal[c]:
            return c
        return _place_fallback(pub, mine, legal, region)
    return _common(decision, seat, pub, mine, legal, max(0.0, 0.3 + params[0]))


# --------------------------------------------------------------------------------- rusher

@njit(cache=True)
def _rusher_plan(pub, mine, seat, params, rng):
    """The rusher's placement for the whole round, packed (module docstring); mine[H.MEMORY + 2]
    counts the one-use cards it spent in rounds 1-3."""
    n = pub[P.N_REGIONS]
    rnd = max(1, pub[P.ROUND])
    opp = 1 - seat
    n_targets = min(n, max(1, int(round(4 + params[0]))))
    budget = int(round(3 + params[1]))
    others = max(0.0, 0.25 + params[2])
    later = max(0.0, 0.3 + params[3])
    card_cost = max(0.0, 0.8 + params[4])
    defend = max(0.0, 0.3 + params[5])
    spent = mine[H.MEMORY + 2]
    rush = rnd <= 3
    k = (rnd - 1) // 3
    left = 3 * (k + 1) - rnd
    future = (9 - rnd) / 8.0

    marg = np.empty(n, np.int64)
    arm = np.empty((n, 2), np.int64)
    six = np.empty((n, 2), np.bool_)
    W = np.zeros((n, 3))
    SC = np.ones((n, 3))
    score = np.empty(n)
    target = np.zeros(n, np.bool_)
    for r in range(n):
        m = _margin(pub, seat, r)
        marg[r] = m
        a = region_at(r, RG.ARMIES)
        arm[r, 0] = pub[a + seat]
        arm[r, 1] = pub[a + opp]
        six[r, 0] = _six_free(pub, seat, r)
        six[r, 1] = _six_free(pub, opp, r)
        t = region_at(r, RG.TILE)
        holdable = m > -(4 + 3 * left)
        score[r] = (pub[t] + 0.25 * later * (pub[t + 1] + pub[t + 2])) \
            * (1.0 if holdable else 0.2) * (1.0 + 0.1 * rand_unit(rng, 0))
    if rush:
        for _ in range(n_targets):
            best = -1.0
            pick = -1
            for r in range(n):
                if not target[r] and score[r] > best:
                    best = score[r]
                    pick = r
            if pick >= 0:
                target[pick] = True
    # rounds 1-3: the first scoring's tiles on the targets; then every scoring to come, the
    # regions it leads weighted up (leads are what it defends)
    for r in range(n):
        t = region_at(r, RG.TILE)
        for j in range(k, 3):
            w = 1.0 if j == k else later
            if rush:
                w *= 1.0 if target[r] else others
                if j > 0:
                    w *= 0.5
            elif marg[r] > 0:
                w *= 1.0 + defend
            W[r, j] = w * pub[t + j]
            SC[r, j] = 0.7 + 2.0 * math.sqrt(3 * (j + 1) - rnd)
    fixed = np.full(n, -1, np.int64)
    placed = 0
    for r in range(n):
        c = mine[H.PLACED + r]
        if c >= 0:
            fixed[r] = c
            placed |= 1 << c
    avail = mine[H.HAND] & PLACEABLE & ~placed
    whites = avail & ~YELLOWS & ~(1 << PLAGUE) & ~(1 << MINUS1)
    if rush:
        rounds_left = 4 - rnd
        left_budget = max(0, budget - spent)
        use = min(_count(whites), (left_budget + rounds_left - 1) // rounds_left, n_targets)
        keep = 0
        for _ in range(use):
            best = -1.0
            pick = -1
            for c in range(N_PLACEABLE):
                if (whites >> c) & 1 and not (keep >> c) & 1 and STRENGTH[c] > best:
                    best = STRENGTH[c]
                    pick = c
            keep |= 1 << pick
        avail = (avail & ~whites) | keep
        cost = 0.0
    else:
        cost = card_cost
    bonus = 0.6 * future if pub[seat_at(seat, S.DECK)] > 0 else 0.0
    Q = np.zeros((N_PLACEABLE, n))
    _fill_q(0, avail, n, marg, arm, six, W, SC, 0, 0.0, cost, future, bonus, rng, Q)
    plan = np.empty(n, np.int64)
    for r in range(n):
        plan[r] = fixed[r]
    _assign(Q, avail, n, plan)
    if rush:
        w = 0
        for r in range(n):
            c = plan[r]
            if c >= W7 and ((placed >> c) & 1) == 0:
                w += 1
        mine[H.MEMORY + 2] = spent + w
    return _pack(plan, n)


@njit(cache=True)
def rusher(decision, seat, obs, legal, params, rng):
    """The first-scoring rusher (module docstring)."""
    pub = obs.pub
    mine = obs.mine
    if decision == D.PLACE:
        region = pub[P.REGION]
        rnd = pub[P.ROUND]
        if mine[H.MEMORY] != rnd:
            mine[H.MEMORY + 1] = _rusher_plan(pub, mine, seat, params, rng)
            mine[H.MEMORY] = rnd
        c = (mine[H.MEMORY + 1] >> (5 * region)) & 31
        if c < N_PLACEABLE and legal[c]:
            return c
        return _place_fallback(pub, mine, legal, region)
    return _common(decision, seat, pub, mine, legal, max(0.0, 0.3 + params[3]))


PLAYERS = {
    "solver": Strategy("solver", fn=solver,
                       doc="held-out (fresh): a small matrix game over whole-round placements, "
                           "solved by regret matching, played mixed"),
    "rusher": Strategy("rusher", fn=rusher,
                       doc="held-out (fresh): spends its strong cards on the best round-3 tiles "
                           "to win the first scoring, then defends its leads"),
}

KNOBS = {
    "solver": [(-0.3, 0.6), (-0.6, 0.8), (-0.8, 1.0), (-5.0, 2.0), (-2.0, 2.0), (-0.6, 1.0)],
    "rusher": [(-2.4, 1.4), (-3.0, 3.0), (-0.25, 0.5), (-0.3, 0.7), (-0.6, 0.8), (-0.3, 0.7)],
}
