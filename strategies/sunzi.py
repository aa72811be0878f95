"""Sunzi / Dynasties strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int           what is asked (sim.sunzi.layout D.*; the action's meaning depends on it):
                             D.LEADER power 0..3 | D.BUY card id or PASS | D.PLACE card id for
                             region pub[P.REGION] | D.ORDER next region to reveal | D.SPLIT how
                             many of the loser's armies to remove (SZ-10) | D.SOURCE region to take
                             an army from (SZ-12) | D.KEEP card id to keep | D.POWER 0/1 use leader
                             power pub[P.AUX] now | D.TARGET region or PASS for power pub[P.AUX] |
                             D.SIX 0/1 use the 6 power (a marker) on region pub[P.REGION] (SZ-15)
      seat     int           0 = White (Sun Wu), 1 = Black (Chu)
      obs      Observation   obs.pub int64[...]: the public state: round, general, supplies,
                             leaders, every region's armies, markers, tiles, adjacency and the
                             cards revealed this round (layout: P.*, seat_at(seat, S.*),
                             region_at(region, RG.*)). Read only.
                             obs.mine int64[...]: this seat's private knowledge: hand (H.HAND, a
                             bitmask of card ids), cards placed face down this round
                             (H.PLACED + region), cards just drawn (H.DRAWN), leader power in hand
                             (H.POWER). mine[H.MEMORY:] is the strategy's own scratch memory
                             (zeroed every game); the rest is read only.
      legal    bool[17]      legal[a]: action a is allowed (also as a bitmask in pub[P.LEGAL]).
                             Never all false; a single legal action is taken without asking.
      params   float64[128]  this seat's parameters
      rng      uint64[1]     this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int           an index with legal[action] true

A strategy never sees the opponent's hand, deck or face-down cards: the opponent's used cards are
pub[seat_at(opp, S.GONE)], its hand size pub[seat_at(opp, S.HAND)]. Card ids (layout.CARD):
0..5 yellow 1-6, 6..9 white 7-10, 10 +1, 11 +2, 12 +3, 13 -1, 14 Plague, 15 the leader card
(OP-9 "deck" only). The engine answers ``random`` and scripted seats itself (sim/core/protocol.py).
"""
import numpy as np
from numba import njit

from sim.rng import choose_legal, mix64, next_u64
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script
from sim.sunzi.layout import (CARD, D, H, N_ACTIONS, N_STRATEGY_PARAMS, P, PASS, POWER, RG, S,
                              SCORING_EVERY, region_at, seat_at)

GREEDY, COUNTER = 1, 2
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# Built-ins allocate nothing, so they run without reference counting like the kernel.
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@inline
def first_legal(legal):
    for a in range(N_ACTIONS):
        if legal[a]:
            return a
    return -1


@inline
def total(pub, r, seat):
    """A side's strength in a region for scoring (SZ-18): armies plus markers."""
    return pub[region_at(r, RG.ARMIES + seat)] + pub[region_at(r, RG.MARKERS + seat)]


@jit
def priority(pub, seat, r):
    """How much region r matters now: the tile value at the next scoring (later ones count
    less), plus a bonus for close contests: a region far ahead or far behind needs no card."""
    k = (max(pub[P.ROUND], 1) - 1) // SCORING_EVERY
    value = 0.0
    for j in range(k, 3):
        value += pub[region_at(r, RG.TILE + j)] * (1.0 if j == k else 0.3)
    margin = total(pub, r, seat) - total(pub, r, 1 - seat)
    return value + 2.0 - 0.5 * min(abs(margin), 4)


@inline
def noise(seed, r):
    """A fixed pseudo-random number in [0, 1) for (seed, region)."""
    return (mix64(np.uint64(seed) + np.uint64(r + 1) * GOLDEN) >> np.uint64(11)) * (1.0 / 2.0 ** 53)


@jit
def rank_of(pub, seat, r, skip_a, skip_b, seed, jitter):
    """Region r's place (0 = first) among the regions by priority plus this round's jitter,
    skipping two regions."""
    pr, rank = priority(pub, seat, r) + jitter * noise(seed, r), 0
    for q in range(pub[P.N_REGIONS]):
        if q != r and q != skip_a and q != skip_b:
            pq = priority(pub, seat, q) + jitter * noise(seed, q)
            if pq > pr or (pq == pr and q < r):
                rank += 1
    return rank


@inline
def strength(c):
    """A card's fighting value: +1..+3 beat any number, but +2/+3 cost armies (SZ-11)."""
    if c <= CARD.W10:
        return c + 1.0
    if c == CARD.PLUS1:
        return 7.5
    if c == CARD.PLUS2:
        return 8.0
    if c == CARD.PLUS3:
        return 8.5
    if c == CARD.MINUS1:
        return 0.5
    return 0.0


@inline
def selection(c, scoring):
    """Which cards to play this round: yellows always; whites only in scoring rounds (saved for
    them); the yellow 1 outside scoring rounds for its extra draw (SZ-14); -1 and Plague never
    (the counter strategy places those itself)."""
    if c == CARD.Y1 and not scoring:
        return 6.5
    if c >= CARD.W7 and not scoring:
        return -1.0
    if c == CARD.MINUS1 or c == CARD.PLAGUE or c == CARD.LEADER:
        return -1.0
    return strength(c)


@jit
def plan_card(pub, mine, seat, r, plague_r, minus_r, seed, jitter):
    """Card for region r in this round's plan: the strongest chosen cards on the regions that
    matter most. The plan depends only on the board and the hand before placement, so every
    call of one round agrees with the others."""
    if r == plague_r:
        return CARD.PLAGUE
    if r == minus_r:
        return CARD.MINUS1
    n = pub[P.N_REGIONS]
    scoring = pub[P.ROUND] % SCORING_EVERY == 0
    hand = mine[H.HAND]
    for q in range(n):
        if mine[H.PLACED + q] >= 0:
            hand |= 1 << mine[H.PLACED + q]
    if plague_r >= 0:
        hand &= ~(1 << CARD.PLAGUE)
    if minus_r >= 0:
        hand &= ~(1 << CARD.MINUS1)
    slots = n - (1 if plague_r >= 0 else 0) - (1 if minus_r >= 0 else 0)
    chosen = 0
    for c in range(CARD.LEADER):  # the `slots` cards with the best selection score
        if (hand >> c) & 1 == 0:
            continue
        better = 0
        for d in range(CARD.LEADER):
            if d != c and (hand >> d) & 1 == 1:
                if selection(d, scoring) > selection(c, scoring) or (
                        selection(d, scoring) == selection(c, scoring) and d > c):
                    better += 1
        if better < slots:
            chosen |= 1 << c
    want = rank_of(pub, seat, r, plague_r, minus_r, seed, jitter)
    for c in range(CARD.LEADER):  # the chosen card whose strength rank matches r's rank
        if (chosen >> c) & 1 == 0:
            continue
        stronger = 0
        for d in range(CARD.LEADER):
            if d != c and (chosen >> d) & 1 == 1:
                if strength(d) > strength(c) or (strength(d) == strength(c) and d > c):
                    stronger += 1
        if stronger == want:
            return c
    return -1


@jit
def counter_targets(pub, mine, seat):
    """Counter: Plague where the opponent's armies outnumber ours the most (at least 2 more
    and 3 in all); -1 in scoring rounds on the most valuable region while the opponent may hold
    white cards (a -1 loses by exactly 1, however strong the card it meets)."""
    opp = 1 - seat
    n = pub[P.N_REGIONS]
    hand = mine[H.HAND]
    for q in range(n):
        if mine[H.PLACED + q] >= 0:
            hand |= 1 << mine[H.PLACED + q]
    plague_r, minus_r = -1, -1
    if (hand >> CARD.PLAGUE) & 1:
        best = 1
        for q in range(n):
            theirs = pub[region_at(q, RG.ARMIES + opp)]
            gap = theirs - pub[region_at(q, RG.ARMIES + seat)]
            if theirs >= 3 and gap > best:
                best, plague_r = gap, q
    opp_whites = pub[seat_at(opp, S.HAND)] > 6
    if (hand >> CARD.MINUS1) & 1 and opp_whites and pub[P.ROUND] % SCORING_EVERY == 0:
        best = -1e18
        for q in range(n):
            if q != plague_r and priority(pub, seat, q) > best:
                best, minus_r = priority(pub, seat, q), q
    return plague_r, minus_r


@jit
def keep_value(c, counter):
    if c == CARD.LEADER:
        return 100.0
    if counter and c == CARD.PLAGUE:
        return 9.5
    if counter and c == CARD.MINUS1:
        return 7.0
    if c == CARD.PLAGUE:
        return 3.0
    return strength(c)


@jit
def heuristic(decision, seat, pub, mine, legal, params, rng, counter):
    """GREEDY and COUNTER: everything but placement is the same sensible play.

    params[0]: leader to choose in warlord mode (0..3 = a..d; < 0: random).
    params[1]: jitter added to region priorities when placing (a fixed random number in
    [0, params[1]) per region and round), so that two copies do not mirror each other.
    """
    opp = 1 - seat
    n = pub[P.N_REGIONS]
    here = pub[P.REGION]
    best, pick = -1e18, first_legal(legal)
    if decision == D.PLACE:
        plague_r, minus_r = -1, -1
        if counter:
            plague_r, minus_r = counter_targets(pub, mine, seat)
        if mine[H.MEMORY + 1] != pub[P.ROUND]:  # one random seed per round keeps the plan fixed
            mine[H.MEMORY + 1] = pub[P.ROUND]
            mine[H.MEMORY + 2] = np.int64(next_u64(rng, 0) >> np.uint64(1))
        c = plan_card(pub, mine, seat, here, plague_r, minus_r, mine[H.MEMORY + 2], params[1])
        if c >= 0 and legal[c]:
            return c
        for c in range(N_ACTIONS):  # off plan (cannot happen): strongest legal card
            if legal[c] and strength(c) > best:
                best, pick = strength(c), c
        return pick
    if decision == D.ORDER:  # the regions that matter most first, while supply lasts (SZ-12)
        for r in range(n):
            if legal[r] and priority(pub, seat, r) > best:
                best, pick = priority(pub, seat, r), r
        return pick
    if decision == D.SOURCE:  # from where we are safest, least valuable first
        for r in range(n):
            if legal[r]:
                v = total(pub, r, seat) - total(pub, r, opp) - 0.5 * priority(pub, seat, r)
                if v > best:
                    best, pick = v, r
        return pick
    if decision == D.KEEP:
        for c in range(N_ACTIONS):
            if legal[c] and keep_value(c, counter) > best:
                best, pick = keep_value(c, counter), c
        return pick
    if decision == D.BUY:  # greedy never places -1 or Plague: turn them into armies
        if not counter:
            if legal[CARD.MINUS1]:
                return CARD.MINUS1
            if legal[CARD.PLAGUE]:
                return CARD.PLAGUE
        return PASS
    if decision == D.LEADER:
        if params[0] >= 0 and legal[int(params[0])]:
            return int(params[0])
        return choose_legal(legal, rng, 0)
    if decision == D.SIX:  # a marker is worth it unless it has to be pulled off the map
        return 1 if pub[seat_at(seat, S.SUPPLY)] > 0 else 0
    if decision == D.POWER:
        aux = pub[P.AUX]
        if seat == 0 and aux == POWER.C:  # a 7 played as a 6 buys a marker for 1 point
            return 1 if mine[H.PLACED + here] == CARD.W7 and pub[region_at(here, RG.SIX_USED)] == 0 else 0
        if seat == 1 and aux == POWER.B:  # wipe down to one only when it hurts them more
            return 1 if pub[region_at(here, RG.ARMIES + opp)] > pub[region_at(here, RG.ARMIES + seat)] else 0
        return 1
    if decision == D.TARGET:
        aux = pub[P.AUX]
        for r in range(n):
            if not legal[r]:
                continue
            if aux == POWER.A:  # a permanent marker where the tiles are worth most overall
                v = 0.0
                for k in range(3):
                    v += pub[region_at(r, RG.TILE + k)]
            elif aux == POWER.D and seat == 0:  # march from a region with armies to spare
                v = 0.0 + total(pub, r, seat) - total(pub, r, opp)
                if v < 2:
                    continue
            else:  # reinforce, march to, purge: the region that matters most
                v = priority(pub, seat, r)
            if v > best:
                best, pick = v, r
        if best == -1e18 and legal[PASS]:
            return PASS
        return pick
    # D.SPLIT: remove as many as possible: the same margin as placing, and it costs no supply
    for a in range(N_ACTIONS - 1, -1, -1):
        if legal[a]:
            return a
    return pick


@inline
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == GREEDY or kind == COUNTER:
        return heuristic(decision, seat, obs.pub, obs.mine, legal, params, rng, kind == COUNTER)
    return -1


BUILTINS = {
    "random": RANDOM_PLAYER,
    "greedy": Strategy("greedy", builtin=GREEDY, params=(-1.0, 1.0),
                       doc="strongest cards on the regions that matter most; white cards saved "
                           "for scoring rounds; removes before placing"),
    "counter": Strategy("counter", builtin=COUNTER, params=(-1.0, 1.0),
                        doc="greedy, but answers the opponent's strength: Plague on its biggest "
                            "army, -1 where its white cards will land"),
}


def script(*pairs) -> Strategy:
    """A seat that answers the given (decision, action) pairs in order (for tests and golden
    games); a decision that does not match the next pair gets PASS if allowed (buy nothing, keep
    a leader power), else its lowest legal action (the kernel's ``off_script``). Decisions with
    a single legal action are never asked, so they are not scripted."""
    if 1 + 2 * len(pairs) > N_STRATEGY_PARAMS:
        raise ValueError(f"a script holds at most {(N_STRATEGY_PARAMS - 1) // 2} pairs, "
                         f"got {len(pairs)}")
    return sim_script(pairs)
