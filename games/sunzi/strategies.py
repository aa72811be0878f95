"""Sunzi / Dynasties strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int           what is asked (games.sunzi.layout D.*; the action's meaning depends on it):
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
      params   float64[256]  this seat's parameters
      rng      uint64[1]     this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int           an index with legal[action] true

A strategy never sees the opponent's hand, deck or face-down cards: the opponent's used cards are
pub[seat_at(opp, S.GONE)], its hand size pub[seat_at(opp, S.HAND)]. Card ids (layout.CARD):
0..5 yellow 1-6, 6..9 white 7-10, 10 +1, 11 +2, 12 +3, 13 -1, 14 Plague, 15 the leader card
(OP-9 "deck" only). The engine answers ``random`` and scripted seats itself (sim/core/protocol.py).
"""
import math
from typing import NamedTuple

import numpy as np
from numba import njit

from sim.bits import nth_bit, popcount
from sim.core import scratch
from sim.rng import mix64, next_u64, rand_below, rand_unit
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script
from games.sunzi.layout import (CARD, DECK_ADVANCED, DECK_BASIC, MAX_REGIONS, D, H, N_ACTIONS,
                              N_STRATEGY_PARAMS, P, PASS, POWER, RG, S, SCORING_EVERY, battle,
                              region_at, seat_at)
from games.sunzi.layout import YELLOWS as YELLOW_CARDS

GREEDY, COUNTER, RESERVE, SETTLE, PLANNER, HOLDER, BANKER, MIRROR, TEMPO = range(1, 10)


# Named parameter slots (compile-time constants inside jitted code, like the layout's groups).
class HeuristicSlot(NamedTuple):
    """params[...] of the heuristic family (GREEDY .. HOLDER): heuristic's docstring says what
    each does; the last six are HOLDER's knobs (HolderKnob's order)."""
    LEADER: int
    JITTER: int
    RESERVE: int
    QUIET: int
    REACH: int
    HOLD: int
    LATER: int
    SPREAD: int
    TRUST: int
    Y1_BONUS: int
    WHITE_PRICE: int
    ARMY_PRICE: int
    SETTLED: int
    MARKER_VALUE: int
    QUIET_PRICE: int


class HolderKnob(NamedTuple):
    """HOLDER's prices, the ``knobs`` tuple of plan_round and card_worth."""
    Y1_BONUS: int
    WHITE_PRICE: int
    ARMY_PRICE: int
    SETTLED: int
    MARKER_VALUE: int
    QUIET_PRICE: int


class BankerKnob(NamedTuple):
    """BANKER's and MIRROR's knobs (BANKER_PARAMS says what each is)."""
    SLOPE: int
    DOUBT: int
    LATER: int
    ONE_USE_PRICE: int
    SCORING_FACTOR: int
    Y1_DRAW: int
    OPPOSING_ONE_USE: int
    ARMY_PRICE: int
    BEYOND_SUPPLY: int
    REMOVED_ARMY: int
    LEAN: int
    MARKER_BONUS: int


HS = HeuristicSlot(*range(15))
HK = HolderKnob(*range(6))
BK = BankerKnob(*range(12))
STRONG = sum(1 << c for c in range(CARD.W7, CARD.PLUS3 + 1))   # 7-10, +1..+3: beat any yellow
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
def priority(pub, seat, r, reach=0.0, later=0.3):
    """How much region r matters now: the tile value at the next scoring (later ones count
    ``later`` as much), plus a bonus for close contests: a region far ahead or far behind needs
    no card.
    With ``reach`` > 0 (settle) the value is scaled down instead where the lead is more than
    ``reach`` armies a round can swing until the scoring: such a region is settled, and a card
    there is wasted (a round's battle moves a few armies, SZ-10)."""
    k = (max(pub[P.ROUND], 1) - 1) // SCORING_EVERY
    value = 0.0
    for j in range(k, 3):
        value += pub[region_at(r, RG.TILE + j)] * (1.0 if j == k else later)
    margin = total(pub, r, seat) - total(pub, r, 1 - seat)
    if reach > 0.0:
        swing = reach * (SCORING_EVERY - (pub[P.ROUND] - 1) % SCORING_EVERY)
        return value * (0.25 + 0.75 * max(0.0, 1.0 - abs(margin) / swing))
    return value + 2.0 - 0.5 * min(abs(margin), 4)


@inline
def noise(seed, r):
    """A fixed pseudo-random number in [0, 1) for (seed, region)."""
    return (mix64(np.uint64(seed) + np.uint64(r + 1) * GOLDEN) >> np.uint64(11)) * (1.0 / 2.0 ** 53)


@jit
def rank_of(pub, seat, r, skip_a, skip_b, seed, jitter, reach, later):
    """Region r's place (0 = first) among the regions by priority plus this round's jitter,
    skipping two regions."""
    pr, rank = priority(pub, seat, r, reach, later) + jitter * noise(seed, r), 0
    for q in range(pub[P.N_REGIONS]):
        if q != r and q != skip_a and q != skip_b:
            pq = priority(pub, seat, q, reach, later) + jitter * noise(seed, q)
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
def selection(c, scoring, spent):
    """Which cards to play this round: yellows always; strong cards only the ``spent`` ones
    (strong_spend: saved for the scoring rounds, where reserve keeps some for the later
    scorings; settle spends one in a quiet round); the yellow 1 outside scoring rounds for its
    extra draw (SZ-14); -1 and Plague never (counter places those itself)."""
    if c == CARD.Y1 and not scoring:
        return 6.5
    if c >= CARD.W7 and not spent:
        return -1.0
    if c == CARD.MINUS1 or c == CARD.PLAGUE or c == CARD.LEADER:
        return -1.0
    return strength(c)


@jit
def strong_spend(pub, hand, reserve, quiet, hold):
    """How many strong cards (7-10, +1..+3) a round spends. A scoring round: all of them at the
    last scoring (round 9) or when ``reserve`` >= 1; otherwise that share of them, rounded up,
    so the rest meet an opponent who spent everything at the earlier scoring. A quiet round:
    ``quiet`` of them once at least ``hold`` are held (armies won early stay on the map and
    count at every scoring, SZ-10, SZ-18)."""
    held = popcount(hand & STRONG)
    if pub[P.ROUND] % SCORING_EVERY != 0:
        return min(quiet, held) if held >= hold else 0
    if reserve >= 1.0 or pub[P.ROUND] >= 3 * SCORING_EVERY:
        return held
    return int(np.ceil(held * max(reserve, 0.0) - 1e-9))


@jit
def spent_mask(hand, spend):
    """The ``spend`` strongest strong cards of ``hand`` as a bitmask (ties broken by card id):
    computed once a call, so that the plan's card ranking stays quadratic in the cards."""
    strong, mask = hand & STRONG, 0
    if spend >= popcount(strong):   # counter and greedy: every one
        return strong
    for c in range(CARD.LEADER):
        if (strong >> c) & 1:
            rank = 0
            for d in range(CARD.LEADER):
                if d != c and (strong >> d) & 1 and (strength(d) > strength(c) or (
                        strength(d) == strength(c) and d > c)):
                    rank += 1
            if rank < spend:
                mask |= 1 << c
    return mask


@jit
def plan_card(pub, mine, seat, r, plague_r, minus_r, seed, jitter, reserve, quiet, reach, hold,
              later):
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
    spent = spent_mask(hand, strong_spend(pub, hand, reserve, quiet, hold))
    chosen = 0
    for c in range(CARD.LEADER):  # the `slots` cards with the best selection score
        if (hand >> c) & 1 == 0:
            continue
        better = 0
        for d in range(CARD.LEADER):
            if d != c and (hand >> d) & 1 == 1:
                sd = selection(d, scoring, (spent >> d) & 1)
                sc = selection(c, scoring, (spent >> c) & 1)
                if sd > sc or (sd == sc and d > c):
                    better += 1
        if better < slots:
            chosen |= 1 << c
    want = rank_of(pub, seat, r, plague_r, minus_r, seed, jitter, reach, later)
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
def planned_gain(pub, seat, c, r, spread, later, expected, army_price=0.0, settled=0.0):
    """What card c on region r is worth to the planner: the region's tiles (the coming scoring's,
    later ones weighing ``later``, SZ-18) times the chance to hold it at the coming scoring after
    this round's battle. The battle moves the margin by the card's strength over the card a
    heuristic opponent is expected to place there (``expected``; SZ-9, SZ-10: the winner places or
    removes the difference), and the rounds left until the scoring leave ``spread`` armies of
    doubt a round either way. -1 and Plague are placed by their own rule and count nothing.
    HOLDER also pays ``army_price`` for each army the win places beyond a lead of ``settled``:
    such armies hold nothing more, and once supply is out every one is pulled off a contested
    region (SZ-12). A field without this price piled 15 armies on a region an opponent conceded
    with its yellow 1 each round (docs/training.md, "Sunzi's fifth field")."""
    if c < 0 or c == CARD.MINUS1 or c == CARD.PLAGUE:
        return 0.0
    k = (max(pub[P.ROUND], 1) - 1) // SCORING_EVERY
    value = 0.0
    for j in range(k, 3):
        value += pub[region_at(r, RG.TILE + j)] * (1.0 if j == k else later)
    left = SCORING_EVERY - (pub[P.ROUND] - 1) % SCORING_EVERY
    margin = total(pub, r, seat) - total(pub, r, 1 - seat) + strength(c) - expected
    gain = value / (1.0 + np.exp(-margin / (spread * np.sqrt(left))))
    if army_price > 0.0:
        before = total(pub, r, seat) - total(pub, r, 1 - seat)
        gain -= army_price * max(0.0, armies_placed(pub, seat, c, r, expected)
                                 - max(0.0, settled - before))
    return gain


@inline
def armies_placed(pub, seat, c, r, expected):
    """Armies a win with card c on region r is expected to take from supply: the margin over
    ``expected`` less the opposing armies there, which the winner removes instead (SZ-10, the
    built-ins' split); a +1..+3 wins by its own margin (SZ-11). Armies beyond supply are pulled
    off other regions (SZ-12), so a big win where the opponent has nothing drains them."""
    if CARD.PLUS1 <= c <= CARD.PLUS3:
        d = 1.0 + (c - CARD.PLUS1)
    else:
        d = strength(c) - expected
    return max(0.0, d - pub[region_at(r, RG.ARMIES + 1 - seat)])


@inline
def expected_against(pub, seat, r, trust, settled=0.0):
    """The opposing card the planner expects on region r: ``trust`` times expected_card's (a
    heuristic opponent's strongest cards on the regions that matter most), the rest an average
    yellow (3.5): how much it believes the opponent plays like the built-ins. With ``settled``
    (HOLDER) a region it leads by that many is conceded: the opponent's weakest card, the yellow
    1, is expected there, so that any card above it is seen to place armies (planned_gain)."""
    if settled > 0.0 and total(pub, r, seat) - total(pub, r, 1 - seat) >= settled:
        return 1.0
    return trust * expected_card(pub, seat, region_rank(pub, seat, r, 0)) + (1.0 - trust) * 3.5


@inline
def expected_or_none(pub, seat, r, trust, settled):
    return expected_against(pub, seat, r, trust, settled) if r < pub[P.N_REGIONS] else 0.0


assert MAX_REGIONS == 6, "expected_everywhere names every region"


@jit
def expected_everywhere(pub, seat, trust, settled):
    """expected_against on every region, once a plan (the swap passes ask each region many
    times), as a tuple of MAX_REGIONS so that the plan allocates nothing."""
    return (expected_or_none(pub, seat, 0, trust, settled),
            expected_or_none(pub, seat, 1, trust, settled),
            expected_or_none(pub, seat, 2, trust, settled),
            expected_or_none(pub, seat, 3, trust, settled),
            expected_or_none(pub, seat, 4, trust, settled),
            expected_or_none(pub, seat, 5, trust, settled))


@inline
def card_bonus(pub, seat, c, r, y1_bonus, white_price, marker_value=0.0, quiet_price=0.0):
    """HOLDER's price of placing card c on region r beyond the battle: the yellow 1's extra draw
    (SZ-14) is worth ``y1_bonus`` before the last round; a one-use card (SZ-13) costs
    ``white_price``, less as the rounds run out (in round 9 it costs nothing); a yellow 6 where
    this side has no marker yet earns one (SZ-15), worth ``marker_value`` per 10 points the
    region's tiles still give: a marker holds for every later scoring and no battle removes it.
    A one-use card played in a quiet round (not 3, 6 or 9: nothing scores after it, SZ-18) costs
    ``quiet_price`` more: its armies can be removed before they count, where the same card in a
    scoring round holds a region at once."""
    bonus = 0.0
    if (marker_value > 0.0 and c == CARD.Y6 and pub[region_at(r, RG.SIX_USED + seat)] == 0
            and pub[seat_at(seat, S.SUPPLY)] > 0):
        k = (max(pub[P.ROUND], 1) - 1) // SCORING_EVERY
        bonus += marker_value * tiles_left(pub, r, k) / 10.0
    if c == CARD.Y1 and pub[P.ROUND] < 3 * SCORING_EVERY:
        bonus += y1_bonus
    if CARD.W7 <= c <= CARD.PLUS3:
        bonus -= white_price * (3 * SCORING_EVERY - pub[P.ROUND]) / (3.0 * SCORING_EVERY)
        if pub[P.ROUND] % SCORING_EVERY != 0:
            bonus -= quiet_price
    return bonus


@inline
def card_worth(pub, seat, c, r, spread, later, expected, knobs):
    """planned_gain plus card_bonus: what HOLDER's plan adds up (knobs: y1_bonus, white_price,
    army_price, settled, marker_value, quiet_price)."""
    return (planned_gain(pub, seat, c, r, spread, later, expected, knobs[HK.ARMY_PRICE],
                         knobs[HK.SETTLED])
            + card_bonus(pub, seat, c, r, knobs[HK.Y1_BONUS], knobs[HK.WHITE_PRICE],
                         knobs[HK.MARKER_VALUE], knobs[HK.QUIET_PRICE]))


@jit
def plan_round(pub, mine, seat, plague_r, minus_r, seed, jitter, reserve, quiet, reach, hold,
               later, spread, trust, exchange=False, knobs=(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)):
    """PLANNER's and HOLDER's cards for the whole round, a 5-bit card id per region: settle's
    cards and its strongest-on-most-valuable assignment to start, then, while a move raises the
    sum of card_worth against expected_against's cards: swaps of two regions' cards, and with
    ``exchange`` (HOLDER) a region's card for one left in hand, so that which cards to play is
    part of the same optimisation. ``knobs`` are HOLDER's prices (card_worth); all zero is
    planner's plan."""
    n = pub[P.N_REGIONS]
    packed, placed = 0, 0
    for r in range(n):
        c = plan_card(pub, mine, seat, r, plague_r, minus_r, seed, jitter, reserve, quiet, reach,
                      hold, later)
        packed |= (c & 31) << (5 * r)
        if 0 <= c < CARD.LEADER:
            placed |= 1 << c
    spare = 0  # fighting cards in hand that the start plan leaves out
    if exchange:
        spare = mine[H.HAND]
        for q in range(n):
            if mine[H.PLACED + q] >= 0:
                spare |= 1 << mine[H.PLACED + q]
        spare &= ~placed & ((1 << (CARD.PLUS3 + 1)) - 1)
    expected = expected_everywhere(pub, seat, trust, knobs[HK.SETTLED])
    for _ in range(4 * n * n):  # each pass keeps only improving moves: it ends well before this
        improved = False
        for a in range(n):
            if a == plague_r or a == minus_r:
                continue
            ea = expected[a]
            ca = (packed >> (5 * a)) & 31
            if ca == 31:
                continue
            now_a = card_worth(pub, seat, ca, a, spread, later, ea, knobs)
            for d in range(CARD.PLUS3 + 1):  # a card left in hand instead of ca
                if (spare >> d) & 1 == 0:
                    continue
                if card_worth(pub, seat, d, a, spread, later, ea, knobs) > now_a + 1e-9:
                    packed = (packed & ~(31 << (5 * a))) | (d << (5 * a))
                    spare = (spare & ~(1 << d)) | (1 << ca)
                    ca, improved = d, True
                    now_a = card_worth(pub, seat, ca, a, spread, later, ea, knobs)
            for b in range(a + 1, n):
                if b == plague_r or b == minus_r:
                    continue
                eb = expected[b]
                ca, cb = (packed >> (5 * a)) & 31, (packed >> (5 * b)) & 31
                if ca == 31 or cb == 31:
                    continue
                now = (card_worth(pub, seat, ca, a, spread, later, ea, knobs)
                       + card_worth(pub, seat, cb, b, spread, later, eb, knobs))
                swapped = (card_worth(pub, seat, cb, a, spread, later, ea, knobs)
                           + card_worth(pub, seat, ca, b, spread, later, eb, knobs))
                if swapped > now + 1e-9:
                    packed &= ~((31 << (5 * a)) | (31 << (5 * b)))
                    packed |= (cb << (5 * a)) | (ca << (5 * b))
                    improved = True
        if not improved:
            break
    return packed


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


# --- leader powers (SZ-16, SZ-17): one play for every built-in --------------------------------
# Every power is optional (the kernel asks), so a strong player never loses by holding it. The
# built-ins used to answer "yes" or "no" by rule (banker: always; tempo: never), and the paired
# card table measured the powers costing their own side (Sun Wu c: 3.7 pp at `strong`). Each use
# is now weighed by what it does to the scoring stakes (stake) and taken only where that is
# positive; the pick (D.LEADER) is the strong grid's equilibrium (LEADER_PICK).
LATER_STAKE = 0.3   # a later scoring's tile against the coming one (priority's default)
ARMY_STAKE = 0.05   # an army kept or removed, in tile points, where no scoring changes hands


@inline
def stake(pub, r, m):
    """What a lead m on region r is worth from here (SZ-18: the coming scoring's tile, later
    ones at LATER_STAKE; a tie scores nobody, OP-8)."""
    k = min((max(pub[P.ROUND], 1) - 1) // SCORING_EVERY, 2)
    value = 0.0
    for j in range(k, 3):
        value += pub[region_at(r, RG.TILE + j)] * (1.0 if j == k else LATER_STAKE)
    return value * (1.0 if m > 0 else (-1.0 if m < 0 else 0.0))


@inline
def stake_gain(pub, seat, r, change):
    """The stake won by moving the seat's lead on r by ``change`` armies (a marker counts too)."""
    m = total(pub, r, seat) - total(pub, r, 1 - seat)
    return stake(pub, r, m + change) - stake(pub, r, m)


@jit
def march_gain(pub, q):
    """Sun Wu d (SZ-16d): what moving one army from q to the best region next to it gains."""
    best = -1e18
    for r in range(pub[P.N_REGIONS]):
        if (pub[region_at(q, RG.ADJ)] >> r) & 1:
            best = max(best, stake_gain(pub, 0, r, 1))
    return best + stake_gain(pub, 0, q, -1)


@jit
def wipe_gain(pub, seat, r):
    """Chu b (SZ-17b, OP-10): what wiping every side down to one army on r gains over the
    Plague's halving (OP-4, the seed's rounding): the lead's stake, then the armies."""
    mine_n = pub[region_at(r, RG.ARMIES + seat)]
    theirs_n = pub[region_at(r, RG.ARMIES + 1 - seat)]
    mine_h, theirs_h = mine_n - (mine_n + 1) // 2, theirs_n - (theirs_n + 1) // 2
    mine_w, theirs_w = min(mine_n, 1), min(theirs_n, 1)
    m = total(pub, r, seat) - total(pub, r, 1 - seat)
    halved = m - (mine_n - mine_h) + (theirs_n - theirs_h)
    wiped = m - (mine_n - mine_w) + (theirs_n - theirs_w)
    armies = (mine_w - mine_h) - (theirs_w - theirs_h)
    return stake(pub, r, wiped) - stake(pub, r, halved) + ARMY_STAKE * armies


# SZ-3: the leader a built-in picks when its side's strategy chooses (leader_*=strategy): a draw
# from the equilibrium of the zero-sum game of the 16 fixed pairings at strong play (White's win
# rate, 8,000 games a pairing, seed 7; games/sunzi/RULES.md, "Leader picks"), per mode. Both
# modes have a saddle point, Sun Wu a against Chu c: a side that picks another leader can only
# lose by it. Rows: basic, advanced; White, Black; a..d.
LEADER_PICK = np.array([[[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]],
                        [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]]])


@jit
def leader_pick(seat, pub, legal, rng):
    """D.LEADER: a leader drawn from LEADER_PICK for the mode (P.ADVANCED) and side."""
    u, pick = rand_unit(rng, 0), first_legal(legal)
    for a in range(4):
        if legal[a]:
            pick = a
            u -= LEADER_PICK[1 if pub[P.ADVANCED] else 0, seat, a]
            if u < 0.0:
                return a
    return pick


@jit
def leader_power(decision, seat, pub, mine, legal):
    """D.POWER (use now: 1, keep: 0) and D.TARGET (a region, or PASS) for leader power
    pub[P.AUX], taken only where it gains (see above)."""
    power, here, n = pub[P.AUX], pub[P.REGION], pub[P.N_REGIONS]
    if decision == D.POWER:
        if seat == 0 and power == POWER.C:   # SZ-16c: a 7-10 fights as a 6 and may mark
            c = mine[H.PLACED + here]
            marks = pub[region_at(here, RG.SIX_USED)] == 0 and pub[seat_at(0, S.SUPPLY)] > 0
            # the card's strength above 6 is the armies the battle gives up, a marker one kept
            return 1 if marks and c == CARD.W7 and pub[P.ROUND] % SCORING_EVERY != 0 else 0
        if seat == 1 and power == POWER.B:   # SZ-17b
            return 1 if wipe_gain(pub, seat, here) > 0.0 else 0
        return 1   # Chu a (no loss to a Plague), Chu c (a second marker): only gains
    if power == POWER.D and seat == 0 and here < 0:   # SZ-16d's first step: from where
        best, pick = 0.0, PASS
        for q in range(n):
            if legal[q] and march_gain(pub, q) > best:
                best, pick = march_gain(pub, q), q
        return pick
    best, pick = -1e18, first_legal(legal)
    for r in range(n):
        if legal[r]:
            if power == POWER.A:   # SZ-16a at set-up: a marker counts at all three scorings
                v = 0.0 + pub[region_at(r, RG.TILE)] + pub[region_at(r, RG.TILE + 1)] + \
                    pub[region_at(r, RG.TILE + 2)]
            else:   # Sun Wu b (an army), d's second step, Chu d (one of theirs off): these come
                v = stake_gain(pub, seat, r, 1)   # once, in round 6 (OP-9): any gain is taken
            if v > best:
                best, pick = v, r
    return pick


@jit
def heuristic(decision, seat, pub, mine, legal, leader, jitter, rng, counter, reserve=1.0,
              quiet=0, reach=0.0, hold=1, later=0.3, spread=0.0, trust=0.0, exchange=False,
              knobs=(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)):
    """GREEDY, COUNTER, RESERVE, SETTLE, PLANNER and HOLDER: everything but placement is the
    same play.

    leader (params[0]): leader to choose in warlord mode (0..3 = a..d; < 0: random).
    jitter (params[1]): jitter added to region priorities when placing (a fixed random number in
    [0, jitter) per region and round), so that two copies do not mirror each other.
    reserve (params[2], RESERVE and SETTLE): the share of its strong cards a scoring round
    before the last spends (strong_spend); 1 spends them all, as counter does.
    quiet, reach, hold, later (params[3:7], SETTLE only): ``quiet`` strong cards spent in a
    quiet round once ``hold`` are held (strong_spend); regions ranked by a priority that
    discounts a lead more than ``reach`` armies a round can swing, later scorings' tiles
    weighing ``later`` (priority). The defaults here play counter.
    spread, trust (params[7:9], PLANNER only): with spread > 0 the round's cards are assigned by
    plan_round, once a round (mine[H.MEMORY + 3] holds the round, mine[H.MEMORY + 4] the plan).
    knobs (params[9:15], HOLDER only): plan_round also chooses which cards to play
    (``exchange``), pricing the yellow 1's draw and the one-use cards (y1_bonus, white_price:
    card_bonus); an army placed beyond a lead of ``settled``, where the opponent is expected to
    concede (army_price, settled: planned_gain, expected_against); a new marker
    (marker_value: card_bonus); and a one-use card played in a quiet round (quiet_price:
    card_bonus).
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
        if spread > 0.0:
            if mine[H.MEMORY + 3] != pub[P.ROUND]:
                mine[H.MEMORY + 3] = pub[P.ROUND]
                mine[H.MEMORY + 4] = plan_round(pub, mine, seat, plague_r, minus_r,
                                                mine[H.MEMORY + 2], jitter, reserve, quiet,
                                                reach, hold, later, spread, trust, exchange,
                                                knobs)
            c = (mine[H.MEMORY + 4] >> (5 * here)) & 31
            if c < CARD.LEADER and legal[c]:
                return c
        c = plan_card(pub, mine, seat, here, plague_r, minus_r, mine[H.MEMORY + 2], jitter,
                      reserve, quiet, reach, hold, later)
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
        if leader >= 0 and legal[int(leader)]:
            return int(leader)
        return leader_pick(seat, pub, legal, rng)
    if decision == D.SIX:  # a marker is worth it unless it has to be pulled off the map
        return 1 if pub[seat_at(seat, S.SUPPLY)] > 0 else 0
    if decision == D.POWER or decision == D.TARGET:
        return leader_power(decision, seat, pub, mine, legal)
    # D.SPLIT: remove as many as possible: the same margin as placing, and it costs no supply
    for a in range(N_ACTIONS - 1, -1, -1):
        if legal[a]:
            return a
    return pick


# --- banker: a round's five cards planned together against a spread of opposing cards --------
# Written by a helper (2026-12-06) from the rules brief and the observation's layout only, to
# the idea the held-out `accountant` was written on (each region's chance of being held at the
# coming scoring, against a distribution of the opponent's card), without reading the other
# built-ins or the held-out players, so that the field's oracle searches a family that grew
# out of none of the others (docs/training.md, "Sunzi's ninth field"). Its knobs
# (params, absolute values): 0 the slope of tanh(slope x margin), 1 doubt per round left before
# the scoring, 2 the weight of later scorings, 3 the price of a one-use card (less as the rounds
# run out), 4 that price's factor in a scoring round, 5 the yellow 1's draw, 6 the share of the
# opponent's one-use cards in hand expected on the table, 7 the price of an army placed or lost
# to +2/+3, 8 the extra price of one placed beyond supply (SZ-12), 9 the value of an army
# removed, 10 how far the opponent's high yellows lean to the regions that matter to it, 11 a
# new 6 marker's bonus (SZ-15).
BANKER_PARAMS = (0.45, 0.85, 0.35, 6.3, 0.5, 0.7, 0.6, 0.10, 0.98, 0.116, 0.3, 0.6)
BANK_KNOBS = len(BANKER_PARAMS)
ONE_USE_WEIGHT = (0.75, 1.0, 1.2, 1.4, 0.8, 0.9, 1.0, 0.6, 1.0)   # ids 6..14: 7-10, +1..+3, -1, P
KEEP_ORDER = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 5.0, 7.0, 9.0, 4.0, 5.5, 6.5, 2.5, 6.0, 1.0)
SPAN = 12                     # margins m0 - SPAN .. m0 + SPAN are tabulated per region
# A region's row of bank_plan's table: the 16 cards' worth, the tabulated margins' values, the
# region's weight to the opponent, the opposing yellows' exp(lean) terms, each scoring's tile
# weight and the yellows' lean (computed once a round: the plan's cost is its transcendental
# calls).
MARGINS = 16
REGION_WEIGHT = MARGINS + 2 * SPAN + 1
YELLOWS = REGION_WEIGHT + 1
TILE_WEIGHTS = YELLOWS + 6
LEAN_AT = TILE_WEIGHTS + 3
ROW = LEAN_AT + 1
# After the rows, shared by every region because the slopes depend on the round and not on the
# region: each scoring's slope, tanh(slope x m) for margins |m| up to REACH (filled when first
# needed), then for the region being filled the chances of the opposing cards and the armies'
# price of each battle margin -REACH_D..REACH_D.
REACH = 40
SLOPES = MAX_REGIONS * ROW
TANHS = SLOPES + 3
CHANCES = TANHS + 3 * (REACH + 1)
MEET_COSTS = CHANCES + 16
REACH_D = 12
TABLE = MEET_COSTS + 2 * REACH_D + 1
UNKNOWN = -1e300              # a margin's value not computed yet this round
# battle(c, o)'s margin for every pair of cards but the Plague: the planners' inner loops read
# it instead of branching on the cards (the same rule, games/sunzi/layout.py)
MARGIN_OF = np.array([[battle(c, o)[0] for o in range(CARD.PLAGUE)] for c in range(CARD.PLAGUE)],
                     np.int64)


@jit
def margin_now(pub, seat, r):
    return total(pub, r, seat) - total(pub, r, 1 - seat)


@inline
def slope(knobs, j, rnd):
    """Scoring j's slope in round rnd: flatter the more rounds are left before it."""
    return knobs[BK.SLOPE] / math.sqrt(max(1.0 + knobs[BK.DOUBT] * (3 * (j + 1) - rnd), 0.05))


@inline
def tile_weight(pub, r, j, k, knobs):
    """Region r's tile at scoring j, the later scorings than the coming one (k) weighted."""
    return (1.0 if j == k else knobs[BK.LATER]) * pub[region_at(r, RG.TILE) + j]


@jit
def scoring_value(pub, r, m, k, rnd, knobs, derivative):
    """What region r is worth at margin m (or, with ``derivative``, one army more of it): the
    coming scoring k's tile, the later ones weighted, each times tanh(slope x margin)."""
    v = 0.0
    for j in range(k, 3):
        s = slope(knobs, j, rnd)
        t = math.tanh(s * m)
        v += tile_weight(pub, r, j, k, knobs) * (s * (1.0 - t * t) if derivative else t)
    return v


@jit
def card_meets(c, o, m0, mine_there, theirs_there, supply, knobs, my_six, their_six):
    """The margin on a region after card c meets o, and the armies' price in tile points."""
    m, cost = m0, 0.0
    if c == CARD.PLAGUE or o == CARD.PLAGUE:
        swing = (theirs_there + 1) // 2 - (mine_there + 1) // 2
        m += swing
        cost -= knobs[BK.REMOVED_ARMY] * swing
    else:
        d = battle(c, o)[0]
        cost += margin_price(d, mine_there, theirs_there, supply, knobs)
        m += d
        if CARD.PLUS2 <= c <= CARD.PLUS3:
            cost += (c - CARD.PLUS1) * knobs[BK.ARMY_PRICE]
    if c == CARD.Y6 and my_six:
        m += 1
        cost += knobs[BK.ARMY_PRICE] - knobs[BK.MARKER_BONUS]
    if o == CARD.Y6 and their_six:
        m -= 1
    return m, cost


@inline
def margin_price(d, mine_there, theirs_there, supply, knobs):
    """The armies' price in tile points of a battle won (d > 0) or lost by d: placed from
    supply, beyond supply (SZ-12) or removed from the loser (SZ-10)."""
    if d > 0:
        removed = min(d, theirs_there)
        placed = d - removed
        return (placed * knobs[BK.ARMY_PRICE] - knobs[BK.REMOVED_ARMY] * removed
                + max(placed - supply, 0) * knobs[BK.BEYOND_SUPPLY])
    if d < 0:
        return knobs[BK.REMOVED_ARMY] * min(-d, mine_there)
    return 0.0


@inline
def tabulated_value(table, row, i, m, k):
    """scoring_value at margin m from the row's slopes and tile weights, computed once per
    round and margin (most of the plan's time is these tanh calls, and a round needs only the
    margins its cards can reach)."""
    v = scratch.get(table, row + MARGINS + i)
    if v == UNKNOWN:
        v = 0.0
        for j in range(k, 3):   # a zero weight adds nothing (the sum is never -0.0): no call
            w = scratch.get(table, row + TILE_WEIGHTS + j)
            if w != 0.0:
                v += w * shared_tanh(table, j, m)
        scratch.put(table, row + MARGINS + i, v)
    return v


@inline
def shared_tanh(table, j, m):
    """tanh(slope_j x m), computed once a round per scoring and margin for every region."""
    a = abs(m)
    if a <= REACH:   # tanh is odd (exactly, in the C library too): one call serves m and -m
        at = TANHS + j * (REACH + 1) + a
        t = scratch.get(table, at)
        if t == UNKNOWN:
            t = math.tanh(scratch.get(table, SLOPES + j) * a)
            scratch.put(table, at, t)
        return t if m >= 0 else -t
    return math.tanh(scratch.get(table, SLOPES + j) * m)


@inline
def margins_reached(hand, table, chances, above, my_six, their_six):
    """A bit per margin change (offset by SPAN) that a card of ``hand`` but the Plague can
    make against an opposing card but the Plague whose chance (table[chances + card]) is above
    ``above``, the yellow 6's markers counted (SZ-15). The planners value these first: their
    inner loops then call nothing and keep their sums in registers (twice as fast)."""
    needed = 0
    for c in range(CARD.PLAGUE):
        if (hand >> c) & 1:
            shift = SPAN + (1 if c == CARD.Y6 and my_six else 0)
            for o in range(CARD.PLAGUE):
                if scratch.get(table, chances + o) > above:
                    needed |= 1 << (MARGIN_OF[c, o] + shift
                                    - (1 if o == CARD.Y6 and their_six else 0))
    return needed


@jit
def bank_plan(seat, pub, hand, knobs, foreseen, trust):
    """The round's cards, 4 bits a region: each card's expected worth on each region against
    the opponent's spread of cards (bank_table), then the assignment that maximises the sum."""
    table = scratch.floats(TABLE)
    bank_table(seat, pub, hand, stack_knobs(knobs), foreseen, trust, table)
    return assign(table, hand, np.int64(0), pub[P.N_REGIONS])


@inline
def stack_knobs(knobs):
    """banker's knobs copied to the stack: bank_table then has one argument type for a seat's
    knobs and for foresee's model (Numba compiles a function once per argument types, into
    every Sunzi kernel)."""
    copy = scratch.floats(BANK_KNOBS)
    for i in range(BANK_KNOBS):
        scratch.put(copy, i, knobs[i])
    return copy


@jit
def bank_table(seat, pub, hand, knobs, foreseen, trust, table):
    """Each card in ``hand``'s expected worth on each region against the opponent's spread of
    cards: yellow 1-6 leaning to where the region matters to it, its unseen one-use cards in
    proportion. With ``trust`` > 0 the spread is blended with ``foreseen`` (region x 16
    probabilities of the opposing card: mirror's model of the opponent)."""
    op = 1 - seat
    n_regions = pub[P.N_REGIONS]
    rnd = max(pub[P.ROUND], 1)
    k = min((rnd - 1) // SCORING_EVERY, 2)
    scoring = rnd % SCORING_EVERY == 0
    supply = pub[seat_at(seat, S.SUPPLY)]
    unseen = (DECK_ADVANCED if pub[P.ADVANCED] == 1 else DECK_BASIC) & ~pub[seat_at(op, S.GONE)]
    n_unseen = popcount(unseen)
    in_hand = max(n_unseen - pub[seat_at(op, S.DECK)], 0)
    expected_out = min(knobs[BK.OPPOSING_ONE_USE] * in_hand * (1.5 if scoring else 1.0),
                       float(in_hand))
    for j in range(k, 3):   # scoring_value's terms, computed once for the whole table
        scratch.put(table, SLOPES + j, slope(knobs, j, rnd))
    for i in range(k * (REACH + 1), 3 * (REACH + 1)):
        scratch.put(table, TANHS + i, UNKNOWN)
    weight_sum = 0.0
    for r in range(n_regions):   # scoring_value's derivative at today's margin, term by term
        m0 = margin_now(pub, seat, r)
        weight = 0.0
        for j in range(k, 3):
            w = tile_weight(pub, r, j, k, knobs)
            scratch.put(table, r * ROW + TILE_WEIGHTS + j, w)
            if w != 0.0:
                s = scratch.get(table, SLOPES + j)
                t = shared_tanh(table, j, m0)
                weight += w * (s * (1.0 - t * t))
        weight += 0.01
        scratch.put(table, r * ROW + REGION_WEIGHT, weight)
        weight_sum += weight
    for r in range(n_regions):
        row = r * ROW
        m0 = margin_now(pub, seat, r)
        weight = scratch.get(table, row + REGION_WEIGHT)
        below = 0
        for r2 in range(n_regions):
            if r2 != r:
                w2 = scratch.get(table, r2 * ROW + REGION_WEIGHT)
                if w2 < weight or (w2 == weight and r2 < r):
                    below += 1
        lean = knobs[BK.LEAN] * (2.0 * below / (n_regions - 1.0) - 1.0) if n_regions > 1 else 0.0
        q = min(expected_out * weight / weight_sum, 0.9) if n_unseen > 0 and in_hand > 0 else 0.0
        twin = -1   # a region leaning the other way by as much: the same terms, reversed
        for r2 in range(r):
            if scratch.get(table, r2 * ROW + LEAN_AT) == -lean:
                twin = r2
        scratch.put(table, row + LEAN_AT, lean)
        yellow_sum = 0.0
        for v in range(6):
            e = (scratch.get(table, twin * ROW + YELLOWS + 5 - v) if twin >= 0
                 else math.exp(lean * (v - 2.5)))
            scratch.put(table, row + YELLOWS + v, e)
            yellow_sum += e
        mine_there = pub[region_at(r, RG.ARMIES) + seat]
        theirs_there = pub[region_at(r, RG.ARMIES) + op]
        my_six = pub[region_at(r, RG.SIX_USED) + seat] == 0
        their_six = pub[region_at(r, RG.SIX_USED) + op] == 0
        for i in range(2 * SPAN + 1):   # filled when first needed (tabulated_value)
            scratch.put(table, row + MARGINS + i, UNKNOWN)
        for d in range(-REACH_D, REACH_D + 1):   # card_meets's sum, 0.0 plus the price
            scratch.put(table, MEET_COSTS + d + REACH_D,
                        0.0 + margin_price(d, mine_there, theirs_there, supply, knobs))
        for o in range(15):
            if o < 6:
                p = (1.0 - q) * scratch.get(table, row + YELLOWS + o) / yellow_sum
            elif q > 0.0 and (unseen >> o) & 1:
                p = q / n_unseen
            else:
                p = 0.0
            if trust > 0.0:
                p = (1.0 - trust) * p + trust * scratch.get(foreseen, r * 16 + o)
            scratch.put(table, CHANCES + o, p)
        needed = margins_reached(hand, table, CHANCES, 0.0, my_six, their_six)
        while needed:
            i = nth_bit(needed, 0)
            tabulated_value(table, row, i, m0 + i - SPAN, k)
            needed &= needed - 1
        six_cost = knobs[BK.ARMY_PRICE] - knobs[BK.MARKER_BONUS]
        p_plague = scratch.get(table, CHANCES + CARD.PLAGUE)
        # against the Plague every card but a marking 6 meets the same (card_meets)
        against_plague = (meet_worth(pub, r, CARD.Y1, CARD.PLAGUE, m0, mine_there, theirs_there,
                                     supply, knobs, my_six, their_six, table, row, k)
                          if p_plague != 0.0 else 0.0)
        for c in range(15):
            if not (hand >> c) & 1:
                scratch.put(table, row + c, -1e9)
                continue
            worth = 0.0
            if c == CARD.PLAGUE:
                for o in range(15):
                    p = scratch.get(table, CHANCES + o)
                    if p != 0.0:
                        worth += p * meet_worth(pub, r, c, o, m0, mine_there, theirs_there,
                                                supply, knobs, my_six, their_six, table, row, k)
            else:   # card_meets's sums in its order, the margin's price tabulated
                mark = c == CARD.Y6 and my_six
                extra = ((c - CARD.PLUS1) * knobs[BK.ARMY_PRICE]
                         if CARD.PLUS2 <= c <= CARD.PLUS3 else 0.0)
                for o in range(CARD.PLAGUE):
                    p = scratch.get(table, CHANCES + o)
                    if p == 0.0:
                        continue
                    d = MARGIN_OF[c, o]
                    m = m0 + d
                    cost = scratch.get(table, MEET_COSTS + d + REACH_D) + extra
                    if mark:
                        m += 1
                        cost += six_cost
                    if o == CARD.Y6 and their_six:
                        m -= 1
                    worth += p * (scratch.get(table, row + MARGINS + m - m0 + SPAN) - cost)
                if p_plague != 0.0:
                    worth += p_plague * (meet_worth(pub, r, c, CARD.PLAGUE, m0, mine_there,
                                                    theirs_there, supply, knobs, my_six,
                                                    their_six, table, row, k)
                                         if mark else against_plague)
            if c >= CARD.W7:
                worth -= (knobs[BK.ONE_USE_PRICE] * ONE_USE_WEIGHT[c - CARD.W7] * (9 - rnd) / 8.0
                          * (knobs[BK.SCORING_FACTOR] if scoring else 1.0))
            elif c == CARD.Y1 and rnd < 9 and pub[seat_at(seat, S.DECK)] > 0:
                worth += knobs[BK.Y1_DRAW]
            scratch.put(table, row + c, worth)


@inline
def meet_worth(pub, r, c, o, m0, mine_there, theirs_there, supply, knobs, my_six, their_six,
               table, row, k):
    """Card c against o on region r (bank_table's row): the margin's value less its price."""
    m, cost = card_meets(c, o, m0, mine_there, theirs_there, supply, knobs, my_six, their_six)
    i = m - m0 + SPAN
    value = (tabulated_value(table, row, i, m, k) if 0 <= i <= 2 * SPAN
             else scoring_value(pub, r, m, k, max(pub[P.ROUND], 1), knobs, False))
    return value - cost


@inline
def region_best(table, hand, used, r, best_value, best_card):
    """Region r's best card of ``hand`` not ``used`` (the first of equals) and its worth."""
    best, pick = -1e18, -1
    for c in range(15):
        if (hand >> c) & 1 and not (used >> c) & 1 and scratch.get(table, r * ROW + c) > best:
            best, pick = scratch.get(table, r * ROW + c), c
    scratch.put(best_value, r, best)
    scratch.put(best_card, r, pick)


@jit
def assign(table, hand, first, n_regions):
    """The cards of ``hand`` that maximise the sum of the table's worth (row r * ROW), one a
    region from ``first`` on: greedy, then swaps and exchanges with the hand until nothing
    improves. The plan holds card id << (4 * region)."""
    plan, used, done = 0, 0, 0
    # greedy: the best (region, card) left, the first of equals; each region's best is kept
    # and found again only when another region takes its card
    best_value = scratch.floats(MAX_REGIONS)
    best_card = scratch.floats(MAX_REGIONS)
    for r in range(first, n_regions):
        region_best(table, hand, used, r, best_value, best_card)
    for _ in range(first, n_regions):
        best, best_r = -1e18, -1
        for r in range(first, n_regions):
            if not (done >> r) & 1 and scratch.get(best_value, r) > best:
                best, best_r = scratch.get(best_value, r), r
        if best_r < 0:
            break
        best_c = int(scratch.get(best_card, best_r))
        done |= 1 << best_r
        used |= 1 << best_c
        plan |= best_c << (4 * best_r)
        for r in range(first, n_regions):
            if not (done >> r) & 1 and int(scratch.get(best_card, r)) == best_c:
                region_best(table, hand, used, r, best_value, best_card)
    for _ in range(12):
        improved = False
        for r1 in range(first, n_regions):
            c1 = (plan >> (4 * r1)) & 15
            for r2 in range(r1 + 1, n_regions):
                c2 = (plan >> (4 * r2)) & 15
                if (scratch.get(table, r1 * ROW + c2) + scratch.get(table, r2 * ROW + c1)
                        > scratch.get(table, r1 * ROW + c1) + scratch.get(table, r2 * ROW + c2)
                        + 1e-9):
                    plan &= ~((15 << (4 * r1)) | (15 << (4 * r2)))
                    plan |= (c2 << (4 * r1)) | (c1 << (4 * r2))
                    c1 = c2
                    improved = True
            rest = hand & ~used & 32767
            while rest:   # the cards left in the hand, in order (an exchange frees a card)
                c = nth_bit(rest, 0)
                if scratch.get(table, r1 * ROW + c) > scratch.get(table, r1 * ROW + c1) + 1e-9:
                    used = (used & ~(1 << c1)) | (1 << c)
                    plan = (plan & ~(15 << (4 * r1))) | (c << (4 * r1))
                    c1 = c
                    improved = True
                rest = hand & ~used & 32767 & ~((2 << c) - 1)
        if not improved:
            break
    return plan


# mirror is banker that also foresees: it deals the opponent's unseen hand at random a few
# times, plans each deal as banker with banker's defaults would, and blends the cards those
# plans put on each region into the spread it plans against. A best response needs a model of
# the opponent; banker's spread is a guess at anyone, mirror's at the players the fields are
# made of. Its knobs: banker's twelve, then 12 how far it trusts the model, 13 the deals a round.
MIRROR_PARAMS = BANKER_PARAMS + (0.7, 4.0)
TRUST, DEALS = 12, 13
FORESEEN = MAX_REGIONS * 16


@jit
def foresee(seat, pub, knobs, rng, foreseen):
    """foreseen[r * 16 + o]: the share of dealt hands whose banker plan puts card o on region r."""
    op = 1 - seat
    unseen = (DECK_ADVANCED if pub[P.ADVANCED] == 1 else DECK_BASIC) & ~pub[seat_at(op, S.GONE)]
    n_unseen = popcount(unseen)
    in_hand = min(max(n_unseen - pub[seat_at(op, S.DECK)], 0), n_unseen)
    deals = max(int(knobs[DEALS] + 0.5), 1)
    for i in range(FORESEEN):
        scratch.put(foreseen, i, 0.0)
    # a card's worth does not depend on the rest of the hand: one table serves every deal
    # (the model plans at trust 0, so its own ``foreseen`` argument is never read)
    table = scratch.floats(TABLE)
    bank_table(op, pub, YELLOW_CARDS | unseen, stack_knobs(BANKER_PARAMS), table, 0.0, table)
    for _ in range(deals):
        hand, left = np.int64(YELLOW_CARDS), unseen
        for n_left in range(n_unseen, n_unseen - in_hand, -1):
            c = nth_bit(left, rand_below(rng, 0, n_left))
            hand |= 1 << c
            left &= ~(1 << c)
        plan = assign(table, hand, np.int64(0), pub[P.N_REGIONS])
        for r in range(pub[P.N_REGIONS]):
            i = r * 16 + ((plan >> (4 * r)) & 15)
            scratch.put(foreseen, i, scratch.get(foreseen, i) + 1.0 / deals)


@jit
def round_plan(seat, pub, hand, knobs, rng, mirror):
    foreseen = scratch.floats(FORESEEN)
    trust = 0.0
    if mirror:
        foresee(seat, pub, knobs, rng, foreseen)
        trust = min(max(knobs[TRUST], 0.0), 1.0)
    return bank_plan(seat, pub, hand, knobs, foreseen, trust)


@jit
def margin_gain(pub, seat, r, knobs, sign):
    """What one army more (sign +1) or less (-1) on region r is worth now."""
    rnd = max(pub[P.ROUND], 1)
    k = min((rnd - 1) // SCORING_EVERY, 2)
    m = margin_now(pub, seat, r)
    return (scoring_value(pub, r, m + sign, k, rnd, knobs, False)
            - scoring_value(pub, r, m, k, rnd, knobs, False))


@jit
def banker(decision, seat, pub, mine, legal, knobs, rng, mirror):
    if decision == D.PLACE:
        r = pub[P.REGION]
        memory = H.MEMORY
        if mine[memory + 1] != pub[P.ROUND] or r < 0:
            mine[memory] = round_plan(seat, pub, mine[H.HAND], knobs, rng, mirror)
            mine[memory + 1] = pub[P.ROUND]
        if r >= 0:
            c = (mine[memory] >> (4 * r)) & 15
            if c < N_ACTIONS and legal[c]:
                return c
            # the plan broke: replan
            mine[memory] = round_plan(seat, pub, mine[H.HAND], knobs, rng, mirror)
            c = (mine[memory] >> (4 * r)) & 15
            if c < N_ACTIONS and legal[c]:
                return c
        for c in range(6):
            if legal[c]:
                return c
        return first_legal(legal)
    if decision == D.SPLIT:   # remove as many of the loser's armies as allowed: it saves supply
        for a in range(N_ACTIONS - 1, -1, -1):
            if legal[a]:
                return a
    if decision == D.POWER or decision == D.TARGET:
        return leader_power(decision, seat, pub, mine, legal)
    if decision == D.SOURCE:   # SZ-12: take an army from where it costs least
        best, pick = -1e18, -1
        for r in range(pub[P.N_REGIONS]):
            if legal[r] and margin_gain(pub, seat, r, knobs, -1) > best:
                best, pick = margin_gain(pub, seat, r, knobs, -1), r
        if pick >= 0:
            return pick
        return first_legal(legal)
    if decision == D.ORDER:   # the regions of the highest coming tile first, while supplies last
        k = min(max(pub[P.ROUND] - 1, 0) // SCORING_EVERY, 2)
        best, pick = -1e18, -1
        for r in range(pub[P.N_REGIONS]):
            if legal[r] and pub[region_at(r, RG.TILE) + k] - 0.01 * r > best:
                best, pick = pub[region_at(r, RG.TILE) + k] - 0.01 * r, r
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.KEEP:
        best, pick = -1.0, -1
        for c in range(16):
            if legal[c] and KEEP_ORDER[c] > best:
                best, pick = KEEP_ORDER[c], c
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.SIX:
        return 1 if legal[1] else first_legal(legal)
    if decision == D.BUY:   # SZ-2: a weak one-use card for an army, only late, with cards to spare
        rnd = pub[P.ROUND]
        if rnd >= 8 and popcount(mine[H.HAND] & ~63) > 5 * (10 - rnd) // 2:
            for c in (13, 10, 6, 7, 11, 8, 14, 12, 9):
                if legal[c]:
                    return c
        return PASS if legal[PASS] else first_legal(legal)
    if decision == D.LEADER:
        return leader_pick(seat, pub, legal, rng)
    return first_legal(legal)


# --- tempo: the whole game's worth, armies and one-use cards priced as stocks ----------------
# Written by a helper (2026-12-07) from the rules brief, the engine and the observation's layout
# only, without reading the other built-ins or the held-out players, to an idea taken from the
# games (not the code) of held-out players tuned against the fields: play for the whole game,
# not the coming scoring; armies in supply are a stock a big win on an empty region drains
# (SZ-10) and a shortage pays for with held regions (SZ-12); concede cheaply with the 1, mark
# with the 6 where no marker is yet, keep one-use cards for the rounds that decide a scoring
# (docs/training.md, "`tempo`, and Sunzi's twelfth field"). Its knobs (params): 0 the weight
# of each later scoring against the coming one, 1 the doubt about a lead per round left before
# a scoring, 2 the price of an army placed from supply (falling with the rounds), 3 the price of
# one pulled off a region in a shortage (half of it a gain when the opponent runs short), 4 the
# price of a one-use card per point of its strength, 5 that price's factor in a scoring round or
# against an opponent with 3 armies or fewer in supply, 6 a new marker's value per region worth,
# 7 the yellow 1's extra draw, 8 how far the opponent's yellows lean to the regions that matter,
# 9 how likely the opponent spends a one-use card on a region. Written for basic play: in
# advanced games it knows the +2/+3 only as unseen cards and never buys an army (SZ-2).
TEMPO_PARAMS = (0.7, 1.5, 0.3, 1.0, 0.6, 0.3, 0.5, 2.0, 1.0, 0.3)
(LATER, DOUBT, SUPPLY_PRICE, PULL_PRICE, ONE_USE_PRICE, DECIDING, MARKER_WORTH, ONE_DRAW, LEAN,
 OPPOSING_ONE_USE) = range(10)
# tempo_plan's table: each (region, card)'s value in assign's rows, each region's lean, then for
# the region being valued the opposing card's chances and the worth of each lead a battle can
# leave (computed once per region and lead: most of a plan's time is these tanh calls).
TEMPO_LEAN = MAX_REGIONS * ROW
TEMPO_CHANCES = TEMPO_LEAN + MAX_REGIONS
TEMPO_SPAN = SPAN             # the offset of margins_reached's bits
TEMPO_WORTHS = TEMPO_CHANCES + 16
# Then, shared by every region since a lead's doubt depends on the round and the scoring only,
# each scoring's width and tanh(lead / width) for leads |lead| up to TEMPO_REACH (filled when
# first needed: a plan's leads overlap from region to region), and for the region being valued
# the armies' price or gain of each battle margin (army_gain).
TEMPO_REACH = 40
TEMPO_WIDTHS = TEMPO_WORTHS + 2 * TEMPO_SPAN + 1
TEMPO_TANHS = TEMPO_WIDTHS + 3
TEMPO_GAINS = TEMPO_TANHS + 3 * (TEMPO_REACH + 1)
TEMPO_TABLE = TEMPO_GAINS + 2 * REACH_D + 1


@jit
def whole_game_worth(pub, r, lead, knobs):
    """A lead on region r after this round, summed over the scorings still to come (SZ-18):
    each later one weighs LATER times the one before, and a lead far from its scoring is doubted
    (tanh over a width growing with the rounds left)."""
    rnd = pub[P.ROUND]
    total_worth, w = 0.0, 1.0
    for k in range((rnd - 1) // SCORING_EVERY, 3):
        width = knobs[DOUBT] * math.sqrt(SCORING_EVERY * (k + 1) - rnd) + 0.35
        total_worth += w * pub[region_at(r, RG.TILE) + k] * math.tanh(lead / width)
        w *= knobs[LATER]
    return total_worth


@jit
def tempo_widths(pub, knobs, table):
    """whole_game_worth's widths for this round into the table, its tanh terms marked unknown."""
    rnd = pub[P.ROUND]
    for k in range((rnd - 1) // SCORING_EVERY, 3):
        scratch.put(table, TEMPO_WIDTHS + k,
                    knobs[DOUBT] * math.sqrt(SCORING_EVERY * (k + 1) - rnd) + 0.35)
    for i in range(3 * (TEMPO_REACH + 1)):
        scratch.put(table, TEMPO_TANHS + i, UNKNOWN)


@inline
def lead_tanh(table, k, lead):
    """tanh(lead / width) of scoring k for an integer lead, computed once a plan."""
    a = abs(lead)
    if a <= TEMPO_REACH:   # tanh is odd, exactly: one call serves lead and -lead
        at = TEMPO_TANHS + k * (TEMPO_REACH + 1) + a
        t = scratch.get(table, at)
        if t == UNKNOWN:
            t = math.tanh(a / scratch.get(table, TEMPO_WIDTHS + k))
            scratch.put(table, at, t)
        return t if lead >= 0 else -t
    return math.tanh(lead / scratch.get(table, TEMPO_WIDTHS + k))


@jit
def planned_worth(pub, r, lead, knobs, table):
    """whole_game_worth of an integer lead, the same sums with the plan's shared tanh terms
    (tempo_widths first)."""
    total_worth, w = 0.0, 1.0
    for k in range((pub[P.ROUND] - 1) // SCORING_EVERY, 3):
        weight = w * pub[region_at(r, RG.TILE) + k]
        if weight != 0.0:   # adds nothing (the sum is never -0.0): no tanh
            total_worth += weight * lead_tanh(table, k, lead)
        w *= knobs[LATER]
    return total_worth


# A card's price scale and keep ranking for tempo, by card id (the yellows never priced): a 7-10
# its number, +1 nearly a 9 (it wins by 1 against even a 10), Plague 5, the rest 2.
ONE_USE_STRENGTH = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 8.5, 2.0, 2.0, 2.0, 5.0,
                    2.0)


@jit
def tempo_chances(pub, me, lean, knobs, table):
    """The opposing card's chances on a region whose swing leans ``lean``, into the table (-1:
    a card the opponent cannot hold)."""
    op = 1 - me
    scoring = pub[P.ROUND] % SCORING_EVERY == 0
    unseen = (DECK_ADVANCED if pub[P.ADVANCED] == 1 else DECK_BASIC) & ~pub[seat_at(op, S.GONE)]
    n_unseen = popcount(unseen)
    their_one_use = max(0, pub[seat_at(op, S.HAND)] - 6)
    p_one_use = 0.0
    if n_unseen > 0:
        p_one_use = min(0.8, knobs[OPPOSING_ONE_USE] * their_one_use * (1.5 if scoring else 1.0)
                        / pub[P.N_REGIONS])
    yellow_sum = 0.0
    for v in range(6):   # each yellow's weight, kept in its own slot until its chance replaces it
        e = math.exp(knobs[LEAN] * lean * (v - 2.5) / 2.5)
        scratch.put(table, TEMPO_CHANCES + v, e)
        yellow_sum += e
    for o in range(CARD.PLAGUE + 1):
        if o < 6:
            p = (1.0 - p_one_use) * scratch.get(table, TEMPO_CHANCES + o) / yellow_sum
        elif (unseen >> o) & 1:
            p = p_one_use / n_unseen
        else:
            p = -1.0
        scratch.put(table, TEMPO_CHANCES + o, p)
    for i in range(2 * TEMPO_SPAN + 1):
        scratch.put(table, TEMPO_WORTHS + i, UNKNOWN)


@inline
def tempo_worth(pub, r, lead, after, knobs, table):
    """whole_game_worth of the lead a battle leaves, computed once per lead and region."""
    i = after - lead + TEMPO_SPAN
    if 0 <= i <= 2 * TEMPO_SPAN:
        v = scratch.get(table, TEMPO_WORTHS + i)
        if v == UNKNOWN:
            v = planned_worth(pub, r, after, knobs, table)
            scratch.put(table, TEMPO_WORTHS + i, v)
        return v
    return planned_worth(pub, r, after, knobs, table)


@inline
def tempo_pair(pub, me, r, c, hand, knobs, table):
    """Card c on region r: its expected whole-game worth against the opposing card's chances
    (tempo_chances), with the armies it places or pulls priced, plus the bonus or price of
    playing the card itself."""
    op = 1 - me
    rnd = pub[P.ROUND]
    lead = margin_now(pub, me, r)
    mine_there = pub[region_at(r, RG.ARMIES + me)]
    theirs_there = pub[region_at(r, RG.ARMIES + op)]
    supply = pub[seat_at(me, S.SUPPLY)]
    their_supply = pub[seat_at(op, S.SUPPLY)]
    army_price = knobs[SUPPLY_PRICE] * (10 - rnd) / 9.0 + 0.05
    scoring = rnd % SCORING_EVERY == 0
    bonus = 0.0
    mark = 1 if c == CARD.Y6 and pub[region_at(r, RG.SIX_USED + me)] == 0 else 0
    if mark:   # SZ-15: a marker no battle removes, paid with an army from supply
        bonus += (knobs[MARKER_WORTH] * planned_worth(pub, r, 1, knobs, table)
                  / (1e-9 + math.tanh(1.0 / 0.35)))
        bonus -= army_price if supply > 0 else knobs[PULL_PRICE]
        supply -= 1
    if c == CARD.Y1 and rnd < 9 and pub[seat_at(me, S.DECK)] > 0:
        bonus += knobs[ONE_DRAW]
    if c >= CARD.W7:   # more one-use cards held than rounds left: each is cheaper
        held = popcount(hand & DECK_ADVANCED)
        price = knobs[ONE_USE_PRICE] * ONE_USE_STRENGTH[c] * min(1.0, (9 - rnd) / max(1, held))
        if scoring or their_supply <= 3:
            price *= knobs[DECIDING]
        bonus -= price
    their_six = pub[region_at(r, RG.SIX_USED + op)] == 0
    plague_swing = (theirs_there + 1) // 2 - (mine_there + 1) // 2   # OP-4's default: each
    expected = 0.0                                                    # side loses half
    if c != CARD.PLAGUE:   # the leads it leaves are valued (tempo_plan): no call, no spill
        for o in range(CARD.PLAGUE):
            p = scratch.get(table, TEMPO_CHANCES + o)
            if p < 0.0:
                continue
            d = MARGIN_OF[c, o]
            i = mark - (1 if o == CARD.Y6 and their_six else 0) + d + TEMPO_SPAN
            gain = (army_gain(d, mine_there, theirs_there, supply, their_supply, army_price, knobs)
                    if mark else scratch.get(table, TEMPO_GAINS + d + REACH_D))
            expected += p * (scratch.get(table, TEMPO_WORTHS + i) + gain)
    for o in range(0 if c == CARD.PLAGUE else CARD.PLAGUE, CARD.PLAGUE + 1):
        p = scratch.get(table, TEMPO_CHANCES + o)
        if p >= 0.0:
            after = lead + mark - (1 if o == CARD.Y6 and their_six else 0) + plague_swing
            expected += p * tempo_worth(pub, r, lead, after, knobs, table)
    return expected + bonus


@inline
def army_gain(d, mine_there, theirs_there, supply, their_supply, army_price, knobs):
    """The armies' price (negative) or gain of a battle won (d > 0) or lost by d."""
    gain = 0.0
    if d > 0:   # SZ-10: the loser's armies removed first, the rest placed
        placed = max(0, d - theirs_there)
        gain -= (army_price * min(placed, max(supply, 0))
                 + knobs[PULL_PRICE] * max(0, placed - max(supply, 0)))
    elif d < 0:   # the opponent's placements may run its supply out (SZ-12)
        placed = max(0, -d - mine_there)
        gain += knobs[PULL_PRICE] * 0.5 * max(0, placed - their_supply)
    return gain


@jit
def tempo_plan(pub, mine, me, knobs):
    """The round's cards from region pub[P.REGION] on, 4 bits a region (assign's plan): each
    card's whole-game worth on each region (tempo_pair), then the assignment of the hand that
    maximises their sum."""
    table = scratch.floats(TEMPO_TABLE)
    n = pub[P.N_REGIONS]
    first = pub[P.REGION]
    hand = mine[H.HAND] & ((1 << (CARD.PLAGUE + 1)) - 1)
    tempo_widths(pub, knobs, table)
    top = 1e-9
    for r in range(first, n):   # how much a swing of 2 armies matters there
        lead = margin_now(pub, me, r)
        swing = (planned_worth(pub, r, lead + 2, knobs, table)
                 - planned_worth(pub, r, lead - 2, knobs, table))
        scratch.put(table, TEMPO_LEAN + r, swing)
        top = max(top, swing)
    army_price = knobs[SUPPLY_PRICE] * (10 - pub[P.ROUND]) / 9.0 + 0.05
    for r in range(first, n):
        tempo_chances(pub, me, scratch.get(table, TEMPO_LEAN + r) / top, knobs, table)
        for d in range(-REACH_D, REACH_D + 1):   # tempo_pair's army_gain, but for a new marker
            scratch.put(table, TEMPO_GAINS + d + REACH_D,
                        army_gain(d, pub[region_at(r, RG.ARMIES + me)],
                                  pub[region_at(r, RG.ARMIES + 1 - me)],
                                  pub[seat_at(me, S.SUPPLY)], pub[seat_at(1 - me, S.SUPPLY)],
                                  army_price, knobs))
        needed = margins_reached(hand, table, TEMPO_CHANCES, -0.5,
                                 pub[region_at(r, RG.SIX_USED + me)] == 0,
                                 pub[region_at(r, RG.SIX_USED + 1 - me)] == 0)
        lead = margin_now(pub, me, r)
        while needed:
            i = nth_bit(needed, 0)
            tempo_worth(pub, r, lead, lead + i - TEMPO_SPAN, knobs, table)
            needed &= needed - 1
        for c in range(CARD.PLAGUE + 1):
            if (hand >> c) & 1:
                scratch.put(table, r * ROW + c, tempo_pair(pub, me, r, c, mine[H.HAND], knobs,
                                                           table))
    return assign(table, hand, first, n)


@jit
def tempo(decision, seat, pub, mine, legal, knobs):
    n = pub[P.N_REGIONS]
    if decision == D.PLACE:   # planned once a round: nothing it sees changes while it places
        r = pub[P.REGION]
        for attempt in range(2):
            if attempt == 1 or mine[H.MEMORY + 1] != pub[P.ROUND]:
                mine[H.MEMORY] = tempo_plan(pub, mine, seat, knobs)
                mine[H.MEMORY + 1] = pub[P.ROUND]
            c = (mine[H.MEMORY] >> (4 * r)) & 15
            if c < N_ACTIONS and legal[c]:
                return c
    elif decision == D.SPLIT:   # remove first: the same margin, no supply spent
        for a in range(N_ACTIONS - 1, -1, -1):
            if legal[a]:
                return a
    elif decision == D.SIX:
        return 1 if legal[1] else first_legal(legal)
    elif decision == D.POWER or decision == D.TARGET:
        return leader_power(decision, seat, pub, mine, legal)
    elif decision == D.SOURCE:   # SZ-12: take the army where losing it costs least
        best, pick = 1e18, -1
        for r in range(n):
            if legal[r]:
                lead = margin_now(pub, seat, r)
                loss = (whole_game_worth(pub, r, lead, knobs)
                        - whole_game_worth(pub, r, lead - 1.0, knobs))
                if loss < best:
                    best, pick = loss, r
        if pick >= 0:
            return pick
    elif decision == D.ORDER:   # a strong card on a region that matters first; a new marker
        best, pick = -1e18, -1   # first of all, since it is paid from supply
        for r in range(n):
            if legal[r]:
                lead = margin_now(pub, seat, r)
                swing = (whole_game_worth(pub, r, lead + 2.0, knobs)
                         - whole_game_worth(pub, r, lead - 2.0, knobs))
                c = mine[H.PLACED + r]
                v = swing * (ONE_USE_STRENGTH[c] if c >= CARD.W7 else c + 1.0)
                if c == CARD.Y6 and pub[region_at(r, RG.SIX_USED + seat)] == 0:
                    v += 100.0
                if v > best:
                    best, pick = v, r
        if pick >= 0:
            return pick
    elif decision == D.KEEP:
        best, pick = -1.0, -1
        for c in range(PASS):
            if legal[c] and ONE_USE_STRENGTH[c] > best:
                best, pick = ONE_USE_STRENGTH[c], c
        if pick >= 0:
            return pick
    return PASS if legal[PASS] else first_legal(legal)


@inline
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == GREEDY or kind == COUNTER:
        return heuristic(decision, seat, obs.pub, obs.mine, legal, params[HS.LEADER],
                         params[HS.JITTER], rng, kind == COUNTER)
    if RESERVE <= kind <= HOLDER:
        # one call for the four, heuristic's own defaults (its signature) where a kind has no
        # parameter: Numba compiles a function once per call signature, into every Sunzi kernel
        settle, plans, holder = kind != RESERVE, kind >= PLANNER, kind == HOLDER
        return heuristic(decision, seat, obs.pub, obs.mine, legal, params[HS.LEADER],
                         params[HS.JITTER], rng, True, params[HS.RESERVE],
                         int(params[HS.QUIET] + 0.5) if settle else 0,
                         params[HS.REACH] if settle else 0.0,
                         int(params[HS.HOLD] + 0.5) if settle else 1,
                         params[HS.LATER] if settle else 0.3,
                         params[HS.SPREAD] if plans else 0.0,
                         params[HS.TRUST] if plans else 0.0, holder,
                         (params[HS.Y1_BONUS], params[HS.WHITE_PRICE], params[HS.ARMY_PRICE],
                          params[HS.SETTLED], params[HS.MARKER_VALUE], params[HS.QUIET_PRICE])
                         if holder else (0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    if kind == BANKER or kind == MIRROR:
        return banker(decision, seat, obs.pub, obs.mine, legal, params, rng, kind == MIRROR)
    if kind == TEMPO:
        if decision == D.LEADER:   # (tempo draws nothing else: its signature has no stream)
            return leader_pick(seat, obs.pub, legal, rng)
        return tempo(decision, seat, obs.pub, obs.mine, legal, params)
    return -1


# --- features of the trained policy (sim/core/policy.py) -------------------------------------
# One row of phi per legal action; the slots mean different things per decision type (each type
# has its own weight row). Slots 0 and 1 in every type: "counter / greedy would play this", so
# weight 1 on slot 0 and 0 elsewhere plays exactly counter (START_WEIGHTS: training starts from
# the best heuristic and learns where to depart from it). Everything is read from the
# observation: the public state and the seat's own row (hand, own face-down cards).

N_FEATURES = 19
RESERVE_SHARE = 0.5   # reserve's default (BUILTINS) and the plan features 16 follows
# settle: leader, jitter, share spent at the first two scorings, strong cards spent in a quiet
# round, armies a round can swing (a lead beyond that times the rounds left is settled), strong
# cards held before a quiet spend, the weight of later scorings' tiles. Found 2026-12-02 as the
# first style that beats the first shipped field (57.5%); docs/training.md says how, and which
# held-out players it drew on.
SETTLE_PARAMS = (-1.0, 1.0, RESERVE_SHARE, 1.0, 4.0, 3.0, 0.3)
# planner: settle's plan, assigned for the chance to hold each region at the scoring (plan_round)
PLANNER_PARAMS = SETTLE_PARAMS + (0.5, 0.5)
# holder: planner, choosing the cards too (plan_round's exchange): the yellow 1's draw worth 0.5
# tile points, a one-use card 1.5 at the start of the game; an army placed beyond a lead of 6
# costs 0.3, and on a region led by 6 the opponent is expected to concede (its yellow 1). Its
# first knob setting; the field's oracle tunes them (STYLE_KNOBS). The price on a one-use card in
# a quiet round is off (0): the oracle searches it from striker.
# striker: holder from another corner of its family. Its one-use cards cost 5 tile points in a
# quiet round and nothing more (white_price 0), a new marker is worth 3 per 10 tile points and the
# yellow 1's draw 2, up to 3 strong cards a quiet round once 2 are held, later scorings weigh 0.8,
# armies 1.5 each beyond a lead of 12. Tuned (analysis.training.tune_style, 60 x 300, seed 3) from
# holder's defaults with those three prices set by hand after counting the play of a held-out
# player from outside (its games, not its code: docs/training.md, "Sunzi's eighth field"); it
# beat the seventh field 56.6% and its main holder 67.4% (4,000 games each), so the oracle starts
# from it too.
HOLDER_PARAMS = PLANNER_PARAMS + (0.5, 1.5, 0.3, 6.0, 0.0, 0.0)
STRIKER_PARAMS = (-1.0, 1.0, 0.2, 3.0, 0.0, 2.0, 0.8, 3.0, 0.4, 2.0, 0.0, 1.5, 12.0, 3.0, 5.0)
COUNTER_PICK, GREEDY_PICK = 0, 1


@inline
def tiles_left(pub, r, k):
    """Points region r still gives, from scoring k on (SZ-18)."""
    v = 0
    for j in range(k, 3):
        v += pub[region_at(r, RG.TILE + j)]
    return v


@jit
def region_rank(pub, seat, r, first):
    """r's place (0 = first) by priority among the regions from index ``first`` on."""
    pr, rank = priority(pub, seat, r), 0
    for q in range(first, pub[P.N_REGIONS]):
        if q != r:
            pq = priority(pub, seat, q)
            if pq > pr or (pq == pr and q < r):
                rank += 1
    return rank


@jit
def expected_card(pub, seat, rank):
    """The strength a heuristic opponent is expected to place on the region of this priority
    rank (priority is the same from both sides but for the jitter): its strongest cards on the
    top regions, as greedy and counter play. In a scoring round its white cards first: as many
    as its deck cards in hand (hand size - 6 yellows, public) times the share of strong cards
    among its unplayed deck cards (S.GONE is public, SZ-13); then yellows 6, 5, 4... Outside
    scoring rounds its yellows, the 1 last (kept for its extra draw, SZ-14)."""
    opp = 1 - seat
    if pub[P.ROUND] % SCORING_EVERY != 0:
        return 1.0 if rank == pub[P.N_REGIONS] - 1 else 6.0 - rank
    left = (DECK_ADVANCED if pub[P.ADVANCED] else DECK_BASIC) & ~pub[seat_at(opp, S.GONE)]
    k = 0
    if left != 0:
        held = max(pub[seat_at(opp, S.HAND)] - 6, 0)
        k = int(held * popcount(left & STRONG) / popcount(left) + 0.5)
    return 8.5 if rank < k else 6.0 - (rank - k)


@inline
def fighting(c):
    """A card that fights by value (not the -1, the Plague or the leader card)."""
    return c <= CARD.PLUS3


@jit
def hand_rank(legal, c):
    """c's place (0 = strongest) among the fighting cards it may be placed with."""
    rank = 0
    for d in range(CARD.LEADER):
        if d != c and legal[d] and fighting(d):
            if strength(d) > strength(c) or (strength(d) == strength(c) and d > c):
                rank += 1
    return rank


@jit
def features(decision, seat, obs, legal, rng, phi):
    """What the trained policy weighs for each legal action (see the slots below). counter's and
    greedy's choices are asked first with counter's parameters (random leader, jitter 1), so
    they draw from this seat's streams exactly as counter would."""
    pub, mine = obs.pub, obs.mine
    opp = 1 - seat
    pick_c = heuristic(decision, seat, pub, mine, legal, -1.0, 1.0, rng, True)
    pick_g = pick_c  # greedy differs from counter only where counter places a Plague or a -1,
    different = decision == D.BUY  # keeps one, or buys
    if decision == D.PLACE:
        plague_r, minus_r = counter_targets(pub, mine, seat)
        different = plague_r >= 0 or minus_r >= 0
    elif decision == D.KEEP:
        different = legal[CARD.PLAGUE] or legal[CARD.MINUS1]
    if different:  # (asking greedy only then keeps the policy at a third of counter's speed)
        pick_g = heuristic(decision, seat, pub, mine, legal, -1.0, 1.0, rng, False)
    n = pub[P.N_REGIONS]
    k = (max(pub[P.ROUND], 1) - 1) // SCORING_EVERY
    scoring = pub[P.ROUND] % SCORING_EVERY == 0
    pick_r = pick_c  # reserve differs from counter only in the placements of an early scoring
    spent_now = 0    # strong cards already placed this round (on the regions to the left)
    if decision == D.PLACE:
        if scoring and k < 2:  # (its round seed is counter's, cached: no draw from the stream)
            pick_r = heuristic(decision, seat, pub, mine, legal, -1.0, 1.0, rng, True,
                               RESERVE_SHARE)
        for q in range(n):
            if mine[H.PLACED + q] >= 0 and (STRONG >> mine[H.PLACED + q]) & 1:
                spent_now += 1
    supply = pub[seat_at(seat, S.SUPPLY)]
    r = pub[P.REGION]
    margin, pr, rr, expected, fillers = 0, 0.0, 0, 0.0, 0
    if decision == D.PLACE:  # per region, before the loop: the region's context
        margin = total(pub, r, seat) - total(pub, r, opp)
        pr = priority(pub, seat, r)
        rr = region_rank(pub, seat, r, r)       # among the regions still to fill (left to right)
        expected = expected_card(pub, seat, region_rank(pub, seat, r, 0))
        fillers = 0
        for d in range(CARD.LEADER):
            if legal[d] and fighting(d):
                fillers += 1
    for a in range(legal.shape[0]):
        if not legal[a]:
            continue
        for f in range(N_FEATURES):
            phi[a, f] = 0.0
        phi[a, COUNTER_PICK] = 1.0 if a == pick_c else 0.0
        phi[a, GREEDY_PICK] = 1.0 if a == pick_g else 0.0
        if decision == D.PLACE:  # card a on region r (SZ-7)
            s = strength(a)
            phi[a, 2] = s / 10.0
            phi[a, 3] = s / 10.0 * pr / 8.0              # strong cards where it matters
            phi[a, 4] = 1.0 if CARD.W7 <= a and not scoring else 0.0  # a one-use card spent
            if fighting(a):                               # outside a scoring round (SZ-13)
                phi[a, 5] = 1.0 if s > expected else 0.0  # expected to win the region (SZ-9)
                phi[a, 6] = min(max((s - expected) / 5.0, -1.0), 1.0)
                cr = hand_rank(legal, a)
                phi[a, 11] = -abs(cr - rr) / 4.0          # strength rank = region rank (greedy)
                # the Blotto answer to that: the weakest card on the top region, each other
                # region one rank stronger than the opponent's expected card
                phi[a, 12] = 1.0 if (rr == 0 and cr == fillers - 1) or (rr > 0 and cr == rr - 1) else 0.0
            if a == CARD.PLAGUE:  # halves both sides' armies (SZ-11): good where they lead
                phi[a, 7] = (pub[region_at(r, RG.ARMIES + opp)] - pub[region_at(r, RG.ARMIES + seat)]) / 5.0
            if a == CARD.MINUS1 and scoring:  # loses by exactly 1 whatever it meets (SZ-11)
                phi[a, 8] = pub[region_at(r, RG.TILE + k)] / 5.0
            if a == CARD.Y6 and pub[region_at(r, RG.SIX_USED + seat)] == 0:  # a marker (SZ-15)
                phi[a, 9] = tiles_left(pub, r, k) / 10.0
            if a == CARD.Y1 and pub[P.ROUND] < 9:  # draw 3 keep 2 (SZ-14)
                phi[a, 10] = 1.0
            phi[a, 13] = s / 10.0 if abs(margin) <= 2 else 0.0    # a close contest
            phi[a, 14] = s / 10.0 if margin >= 3 else 0.0         # a safe lead
            phi[a, 15] = s / 10.0 if supply <= 2 else 0.0  # a win places armies (SZ-10, SZ-12)
            # when to spend the one-use cards (SZ-13): reserve's plan, a strong card at the
            # first two scorings, and one more beside those already placed this round
            phi[a, 16] = 1.0 if a == pick_r else 0.0
            if (STRONG >> a) & 1:
                phi[a, 17] = 1.0 if scoring and k < 2 else 0.0
                phi[a, 18] = spent_now / 2.0
        elif decision == D.ORDER:  # reveal region a next (SZ-8: supply runs out, SZ-12)
            mine_card = mine[H.PLACED + a]
            phi[a, 2] = priority(pub, seat, a) / 8.0
            phi[a, 3] = pub[region_at(a, RG.TILE + k)] / 5.0
            phi[a, 4] = strength(mine_card) / 10.0 if mine_card >= 0 else 0.0
            phi[a, 5] = 1.0 if mine_card == CARD.PLAGUE or mine_card == CARD.MINUS1 else 0.0
            phi[a, 6] = min(max((total(pub, a, seat) - total(pub, a, opp)) / 5.0, -1.0), 1.0)
            phi[a, 7] = 1.0 if mine_card == CARD.Y6 else 0.0
        elif decision == D.SPLIT:  # remove a of the loser's armies, place the rest (SZ-10)
            d = max(pub[P.AMOUNT], 1)
            phi[a, 2] = a / d
            phi[a, 3] = 1.0 if d - a > supply else 0.0    # placing would run short (SZ-12)
            phi[a, 4] = 1.0 if a == pub[P.AUX] else 0.0   # clears the loser out of the region
            phi[a, 5] = a / d if scoring else 0.0
            phi[a, 6] = a / d * supply / 21.0
        elif decision == D.SOURCE:  # take an army from region a (SZ-12)
            margin_a = total(pub, a, seat) - total(pub, a, opp)
            phi[a, 2] = min(max(margin_a / 5.0, -1.0), 1.0)
            phi[a, 3] = priority(pub, seat, a) / 8.0
            phi[a, 4] = 1.0 if margin_a > 1 else 0.0
            phi[a, 5] = 1.0 if pub[region_at(a, RG.ARMIES + seat)] == 1 else 0.0
            phi[a, 6] = pub[region_at(a, RG.TILE + k)] / 5.0
        elif decision == D.KEEP:  # keep card a (SZ-13, SZ-14)
            phi[a, 2] = strength(a) / 10.0
            phi[a, 3] = 1.0 if a == CARD.PLAGUE else 0.0
            phi[a, 4] = 1.0 if a == CARD.MINUS1 else 0.0
            phi[a, 5] = 1.0 if CARD.W7 <= a <= CARD.W10 else 0.0
            phi[a, 6] = 1.0 if a == CARD.LEADER else 0.0
            phi[a, 7] = 1.0 if CARD.PLUS1 <= a <= CARD.PLUS3 else 0.0
        elif decision == D.SIX:  # a = 1: a marker beside region r (SZ-15)
            phi[a, 2] = a
            phi[a, 3] = a if supply > 0 else 0.0
            phi[a, 4] = a * tiles_left(pub, r, k) / 10.0
            phi[a, 5] = a if supply <= 2 else 0.0
            phi[a, 6] = a * min(max((total(pub, r, seat) - total(pub, r, opp)) / 5.0, -1.0), 1.0)
        else:  # leader, buy, power, target: passing or using (rare; trained as counter plays)
            phi[a, 2] = 1.0 if a == PASS or (decision == D.POWER and a == 1) else 0.0


# The weights each decision type's features fill (training moves only these), and the start.
_USED = {D.PLACE: 19, D.ORDER: 8, D.SPLIT: 7, D.SOURCE: 7, D.KEEP: 8, D.SIX: 7}
TRAINABLE = np.array([[f < _USED.get(d, 3) for f in range(N_FEATURES)] for d in range(len(D))])
START_WEIGHTS = np.zeros((len(D), N_FEATURES))
START_WEIGHTS[:, COUNTER_PICK] = 1.0
# Styles an exploit search may start from (analysis.training.style_weights): reserve places by
# its own plan (slot 16) and plays counter everywhere else. Sunzi's styles beat each other in a
# ring (reserve beats counter 80%, the trained policy beats reserve), so a best response searched
# only from counter's weights misses the lines near reserve.
RESERVE_WEIGHTS = START_WEIGHTS.copy()
RESERVE_WEIGHTS[D.PLACE] = 0.0
RESERVE_WEIGHTS[D.PLACE, 16] = 1.0
STYLE_WEIGHTS = {"reserve": RESERVE_WEIGHTS}
# Styles with knobs (analysis.training.style_knobs): a best-response search may tune these of a
# built-in's parameters (index: low, high) instead of a policy's weights. settle's family is
# beyond the features: the first field with settle in it lost 67.5% to a tuned settle (share
# 0.03, 2 strong cards a quiet round, reach 4.3, hold 4), so PSRO searches it too; the weight of
# later tiles joined once a tuned held-out player that weighs every scoring alike won 67%.
# holder's two prices are searched because a holder tuned against the third field won 62.1%,
# a line no other family reached (docs/training.md, "Sunzi's fourth field").
_SETTLE_BOX = {HS.RESERVE: (0.0, 1.0), HS.QUIET: (0.0, 3.0), HS.REACH: (0.0, 8.0),
               HS.HOLD: (1.0, 5.0), HS.LATER: (0.0, 1.0)}
_PLANNER_BOX = {**_SETTLE_BOX, HS.SPREAD: (0.2, 3.0), HS.TRUST: (0.0, 1.0)}
STYLE_KNOBS = {"settle": _SETTLE_BOX, "planner": _PLANNER_BOX,
               "holder": {**_PLANNER_BOX, HS.Y1_BONUS: (0.0, 3.0), HS.WHITE_PRICE: (0.0, 5.0),
                          HS.ARMY_PRICE: (0.0, 2.0), HS.SETTLED: (3.0, 15.0),
                          HS.MARKER_VALUE: (0.0, 3.0)}}
# striker is holder with other defaults, searched from another corner of the same family, with
# the quiet price too; its tunes against the seventh field pressed on the edges of holder's box
# (spread, army price, marker value), so its box is wider there. holder's box leaves the quiet
# price out, so that the shipped field's recipe still builds the seventh field.
STYLE_KNOBS["striker"] = {**STYLE_KNOBS["holder"], HS.SPREAD: (0.2, 6.0),
                          HS.ARMY_PRICE: (0.0, 3.0), HS.MARKER_VALUE: (0.0, 5.0),
                          HS.QUIET_PRICE: (0.0, 8.0)}
# banker's twelve knobs, each over the range its author searched around its defaults.
STYLE_KNOBS["banker"] = {BK.SLOPE: (0.1, 1.25), BK.DOUBT: (0.0, 3.0), BK.LATER: (0.0, 1.0),
                         BK.ONE_USE_PRICE: (0.0, 12.0), BK.SCORING_FACTOR: (0.0, 1.0),
                         BK.Y1_DRAW: (0.0, 2.2), BK.OPPOSING_ONE_USE: (0.0, 0.95),
                         BK.ARMY_PRICE: (0.0, 0.5), BK.BEYOND_SUPPLY: (0.0, 3.0),
                         BK.REMOVED_ARMY: (0.0, 0.6), BK.LEAN: (-0.7, 1.8),
                         BK.MARKER_BONUS: (0.0, 2.1)}
STYLE_KNOBS["mirror"] = {**STYLE_KNOBS["banker"], TRUST: (0.0, 1.0)}
# tempo's ten, over the ranges its author searched; the marker's and the 1's reach past where its
# first search found the best (5 and 8, after 3 and 5 pressed on their edges).
STYLE_KNOBS["tempo"] = {LATER: (0.0, 1.5), DOUBT: (0.3, 4.0), SUPPLY_PRICE: (0.0, 1.5),
                        PULL_PRICE: (0.0, 3.0), ONE_USE_PRICE: (0.0, 1.5), DECIDING: (0.0, 1.0),
                        MARKER_WORTH: (0.0, 5.0), ONE_DRAW: (0.0, 8.0), LEAN: (-1.0, 3.0),
                        OPPOSING_ONE_USE: (0.0, 1.0)}
# Hidden units (analysis.training.train's ``hidden``) go where the game is decided: placement.
# The other nine types are rare or follow from it, and a unit there would add 21 dimensions
# that CMA-ES searches for nothing.
HIDDEN_DECISIONS = ("place",)


BUILTINS = {
    "random": RANDOM_PLAYER,
    "greedy": Strategy("greedy", builtin=GREEDY, params=(-1.0, 1.0),
                       doc="strongest cards on the regions that matter most; white cards saved "
                           "for scoring rounds; removes before placing"),
    "counter": Strategy("counter", builtin=COUNTER, params=(-1.0, 1.0),
                        doc="greedy, but answers the opponent's strength: Plague on its biggest "
                            "army, -1 where its white cards will land"),
    "reserve": Strategy("reserve", builtin=RESERVE, params=(-1.0, 1.0, RESERVE_SHARE),
                        doc="counter, but spends only half its strong cards at the first two "
                            "scorings and keeps the rest for the later ones"),
    "settle": Strategy("settle", builtin=SETTLE, params=SETTLE_PARAMS,
                       doc="reserve, but spends one strong card in a quiet round once it holds "
                           "3, and leaves regions whose lead the rounds left cannot swing"),
    "planner": Strategy("planner", builtin=PLANNER, params=PLANNER_PARAMS,
                        doc="settle's cards, each placed where it most raises the chance to hold "
                            "a region at the coming scoring against the expected opposing card"),
    "holder": Strategy("holder", builtin=HOLDER, params=HOLDER_PARAMS,
                       doc="planner, but chooses which cards to play in the same optimisation: "
                           "a one-use card when its armies are worth its price, the yellow 1 "
                           "only when its extra draw is worth the battle it loses"),
    "striker": Strategy("striker", builtin=HOLDER, params=STRIKER_PARAMS,
                        doc="holder, but keeps its one-use cards for the scoring rounds and "
                            "spends the quiet ones on markers and on the yellow 1's draw"),
    "banker": Strategy("banker", builtin=BANKER, params=BANKER_PARAMS,
                       doc="plans the round's five cards together against a spread of opposing "
                           "cards, for the chance to hold each region at the coming scoring; "
                           "banks its one-use cards at a price"),
    "mirror": Strategy("mirror", builtin=MIRROR, params=MIRROR_PARAMS,
                       doc="banker, planning against the cards banker would play from a few "
                           "random deals of the opponent's unseen hand"),
    "tempo": Strategy("tempo", builtin=TEMPO, params=TEMPO_PARAMS,
                      doc="plans each round's cards for the whole game's scorings, with armies "
                          "in supply and one-use cards priced as stocks: concedes with the 1, "
                          "marks with the 6, spends whites where a scoring is decided"),
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
