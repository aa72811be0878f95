"""A held-out Sunzi / Dynasties player that keeps a ledger of army margins, written from
shared/rules/sunzi_dynasties.md, the layout constants (games/sunzi/layout.py) and the strategy
signature only (never trained against: see heldout/__init__.py). It was written without reading
the other held-out players (heldout/sunzi.py, heldout/sunzi_reader_gambler.py) or the built-in heuristics
(games/sunzi/strategies.py). Rule ids SZ-n and open points OP-n are the brief's.

- ``accountant``: thinks in army margins at the coming scoring (SZ-18: a region goes to the side
  with more armies, markers included). For each region it estimates the chance of controlling it
  at the next scoring from the margin there and the rounds of fighting left before it: a logistic
  in margin / (scale * sqrt(rounds left)), where after this round's battles the rounds left,
  counted from the next round, are those still to come before the scoring, and none left (a
  scoring round) makes it a step (a tie, which nobody scores, OP-8, counts half). A region is
  worth its tile at the coming scoring plus a weight times its later tiles. Once a round, at its
  first placement (SZ-7), it assigns its cards to the regions to maximise the sum of worth x
  control chance after this round's battles (SZ-9..SZ-11, SZ-15: a 6 adds a marker where its
  power is unused), with the opponent's card in each region a distribution, not a guess: a yellow
  1-6 uniformly, or, with a chance that grows with the opponent's public hand size (S.HAND) and
  with the round being a scoring round, one of the white cards it may still hold (its deck less
  the cards it has used, S.GONE, each equally likely). The assignment is greedy (the best
  region-card pair first) and then improved by pairwise swaps (two regions trade cards, or a
  region takes a card still in hand), and is kept in the strategy's memory (mine[H.MEMORY:]) for
  the round's other placements. White cards (7-10, +1, +2, +3) carry a price, the threshold
  knob, so one is spent only where its gain in worth x control chance over the card it replaces
  exceeds it (no price in the last round, when an unspent card is worth nothing); +2 and +3 also
  pay for the armies they cost (SZ-11). The -1 (it loses by 1 whatever it meets) plays only in a
  scoring round, where it cedes a region cheaply; the Plague (it halves both sides' armies, SZ-11)
  only where the opponent's armies exceed its own by the plague-gap knob, at the white price. The
  yellow 1 earns a bonus for the extra card it draws (SZ-14), except in the last round.

Every other decision has a simple answer: the reveal order (SZ-8) runs from the least worth
region to the most; a won battle removes as many of the loser's armies as it may (SZ-10: they
leave the game, its own supply is kept); a shortage (SZ-12) takes the army where one army
changes the least worth x control chance; the drawn card kept (SZ-13, SZ-14) is the strongest
by a fixed ranking (10, 9, 8, 7, +3, +2, +1, Plague, -1; a leader card first); the 6 power is
always used (a marker is never removed, SZ-15); no army is bought (SZ-2) except, after the last
round's battles, with every card left; leaders (SZ-3): Sun Wu's a (a marker on the region whose
tiles add up most) or Chu's d; leader powers act where one army changes the most, Sun Wu's c
(a 7-10 as a 6) is never used, Chu's a shields two or more armies, his b wipes when that helps
him more than the halving, his c is always used.

Knobs (``params``): params[i] is added to knob i's default, so all zeros is the player as
described (a seat from the command line gets zeros). ``PLAYERS`` seats it with its name;
``KNOBS`` gives each knob's search range for ``heldout.tune``; heldout.measure and heldout.tune
find it next to heldout/sunzi.py's players (heldout.measure.modules).

  k0 scale of the logistic per sqrt(round), default 2.5 armies
  k1 weight of the later tiles in a region's worth, default 0.5
  k2 price of a white card (the threshold), default 0.6 tile points
  k3 opponent's white-card propensity, a multiplier, default 1
  k4 bonus of the yellow 1 (its extra card), default 0.3 tile points
  k5 plague gap: opponent's armies minus its own, at least, default 2
"""
import math

from numba import njit

from sim.strategy import Strategy
from games.sunzi.layout import (CARD, D, DECK_ADVANCED, DECK_BASIC, H, P, PASS, POWER, RG, S,
                              AUX_MARCH_TO, BLACK, N_ROUNDS, SCORING_EVERY, WHITE, region_at,
                              seat_at)

# defaults of the knobs (params[i] is added to each)
SCALE, LATER, PRICE, PROPENSITY, ONE_BONUS, PLAGUE_GAP = 2.5, 0.5, 0.6, 1.0, 0.3, 2.0
ARMY_COST = 0.15          # worth of one army lost to a +2 / +3 (tile points)
WHITE_SHARE_QUIET = 0.25  # share of its white cards the opponent is taken to play in a quiet round
WHITE_SHARE_SCORING = 0.6  # ... in a scoring round (rounds 3 and 6)
WHITE_CAP = 0.95          # the opponent's white chance in a region, at most
NO_CARD = -1.0e9          # a card the plan may not put there
N_YELLOW = 6
SPENT = ((1 << (CARD.PLAGUE + 1)) - 1) & ~((1 << N_YELLOW) - 1)   # one-use cards: 7-10 .. Plague
# keep ranking (SZ-13): higher is kept first; index = card id
KEEP_RANK = (0, 1, 2, 3, 4, 5, 90, 91, 92, 93, 60, 70, 80, 10, 20, 100)


@njit(cache=True)
def first_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return 0


@njit(cache=True)
def knob(params, i, default):
    return default + params[i]


@njit(cache=True)
def next_scoring(rnd):
    """The round after which the coming scoring takes place (3, 6 or 9)."""
    if rnd < 1:
        return SCORING_EVERY
    return ((rnd - 1) // SCORING_EVERY + 1) * SCORING_EVERY


@njit(cache=True)
def control(margin, left, scale):
    """Chance of controlling a region at the coming scoring with ``margin`` (own armies and
    markers minus the opponent's) and ``left`` rounds of fighting still to come before it: a
    logistic in margin / (scale * sqrt(left)); a step when none is left (a tie counts half)."""
    if left <= 0:
        if margin > 0:
            return 1.0
        if margin < 0:
            return 0.0
        return 0.5
    z = margin / (scale * math.sqrt(left))
    if z > 30.0:
        return 1.0
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


@njit(cache=True)
def worth(pub, r, later):
    """A region's tile at the coming scoring plus ``later`` times its later tiles (SZ-18)."""
    rnd = pub[P.ROUND]
    k = 0 if rnd < 1 else (rnd - 1) // SCORING_EVERY
    v = float(pub[region_at(r, RG.TILE + k)])
    for j in range(k + 1, 3):
        v += later * pub[region_at(r, RG.TILE + j)]
    return v


@njit(cache=True)
def margin_of(pub, seat, r):
    opp = 1 - seat
    return (pub[region_at(r, RG.ARMIES + seat)] + pub[region_at(r, RG.MARKERS + seat)]
            - pub[region_at(r, RG.ARMIES + opp)] - pub[region_at(r, RG.MARKERS + opp)])


@njit(cache=True)
def rounds_left_now(pub):
    """Rounds of fighting still to come before the coming scoring, seen from now: this round's
    too while none of its regions has been revealed."""
    rnd = pub[P.ROUND]
    left = next_scoring(rnd) - max(rnd, 1)
    if rnd < 1 or pub[P.REVEALED] == 0:
        left += 1
    return left


@njit(cache=True)
def is_special(c):
    return CARD.PLUS1 <= c <= CARD.MINUS1


@njit(cache=True)
def bonus(c):
    return -1 if c == CARD.MINUS1 else c - CARD.PLUS1 + 1


@njit(cache=True)
def clash(a, b):
    """SZ-9, SZ-11: the margin card a wins by over card b (neither a Plague)."""
    if is_special(a) and is_special(b):
        return max(bonus(a), 0) - max(bonus(b), 0)
    if is_special(a):
        return bonus(a)
    if is_special(b):
        return -bonus(b)
    return (a + 1) - (b + 1)


@njit(cache=True)
def opponent_whites(pub, seat):
    """The white cards the opponent may still hold (its deck less what it has used) as a
    bitmask, and how many of them it holds (its public hand less its six yellows)."""
    opp = 1 - seat
    deck = DECK_ADVANCED if pub[P.ADVANCED] else DECK_BASIC
    possible = deck & ~pub[seat_at(opp, S.GONE)] & SPENT
    n_possible = 0
    for c in range(N_YELLOW, CARD.PLAGUE + 1):
        n_possible += (possible >> c) & 1
    held = max(0, pub[seat_at(opp, S.HAND)] - N_YELLOW)
    return possible, n_possible, min(held, n_possible)


@njit(cache=True)
def white_chance(pub, seat, params):
    """The opponent's chance of a white card in an average region this round: its white cards
    in hand times the share it is taken to play (more in a scoring round, all in the last),
    spread over the regions."""
    possible, n_possible, held = opponent_whites(pub, seat)
    if held == 0 or n_possible == 0:
        return 0.0
    rnd = pub[P.ROUND]
    if rnd >= N_ROUNDS:
        share = 1.0
    elif rnd % SCORING_EVERY == 0:
        share = WHITE_SHARE_SCORING
    else:
        share = WHITE_SHARE_QUIET
    share *= max(0.0, knob(params, 3, PROPENSITY))
    n = pub[P.N_REGIONS]
    expected = min(held * share, float(held), float(n))
    return expected / n


@njit(cache=True)
def expected_control(pub, seat, r, c, pw, possible, n_possible, left, scale):
    """Chance of controlling region r after this round's battle there when this seat plays card
    c, the opponent's card being a yellow 1-6 (uniform) or, with chance pw, one of its possible
    white cards (each equally likely)."""
    opp = 1 - seat
    mine_a = pub[region_at(r, RG.ARMIES + seat)]
    mine_m = pub[region_at(r, RG.MARKERS + seat)]
    opp_a = pub[region_at(r, RG.ARMIES + opp)]
    opp_m = pub[region_at(r, RG.MARKERS + opp)]
    base = mine_a + mine_m - opp_a - opp_m
    halved = mine_a // 2 + mine_m - opp_a // 2 - opp_m      # SZ-11 Plague, OP-4 (seed reading)
    my_six = 1 if (c == CARD.Y6 and pub[region_at(r, RG.SIX_USED + seat)] == 0) else 0
    opp_six_free = pub[region_at(r, RG.SIX_USED + opp)] == 0
    total = 0.0
    for o in range(CARD.PLAGUE + 1):
        if o < N_YELLOW:
            p = (1.0 - pw) / N_YELLOW
        elif (possible >> o) & 1:
            p = pw / n_possible
        else:
            continue
        if p <= 0.0:
            continue
        six = my_six - (1 if (o == CARD.Y6 and opp_six_free) else 0)
        if c == CARD.PLAGUE or o == CARD.PLAGUE:
            m = halved + six
        else:
            m = base + clash(c, o) + six
        total += p * control(m, left, scale)
    return total


@njit(cache=True)
def allowed(pub, seat, r, c, params):
    """Whether the plan may put card c on region r (the -1 and the Plague rules)."""
    if c == CARD.MINUS1:
        return pub[P.ROUND] % SCORING_EVERY == 0
    if c == CARD.PLAGUE:
        gap = pub[region_at(r, RG.ARMIES + 1 - seat)] - pub[region_at(r, RG.ARMIES + seat)]
        return gap >= round(knob(params, 5, PLAGUE_GAP))
    return c < CARD.LEADER


@njit(cache=True)
def net(pub, seat, r, c, params, pw_avg, possible, n_possible, total_worth):
    """What card c on region r adds to the round's objective: worth x control chance after the
    battle, less a white card's price and a +2/+3's armies, plus the yellow 1's extra card."""
    if not allowed(pub, seat, r, c, params):
        return NO_CARD
    later = knob(params, 1, LATER)
    scale = max(0.25, knob(params, 0, SCALE))
    v = worth(pub, r, later)
    n = pub[P.N_REGIONS]
    # the opponent puts its white cards rather where a region is worth more
    pw = pw_avg
    if total_worth > 0.0:
        pw = pw_avg * (0.5 + 0.5 * n * v / total_worth)
    pw = min(max(pw, 0.0), WHITE_CAP)
    rnd = pub[P.ROUND]
    left = next_scoring(rnd) - rnd     # after this round's battles
    value = v * expected_control(pub, seat, r, c, pw, possible, n_possible, left, scale)
    last = rnd >= N_ROUNDS
    if (SPENT >> c) & 1 and c != CARD.MINUS1 and not last:
        value -= max(0.0, knob(params, 2, PRICE))
    if c == CARD.PLUS2:
        value -= ARMY_COST
    elif c == CARD.PLUS3:
        value -= 2 * ARMY_COST
    if c == CARD.Y1 and not last:
        value += knob(params, 4, ONE_BONUS)
    return value


@njit(cache=True)
def plan(pub, mine, seat, params):
    """The round's assignment of cards to regions, written to mine[H.MEMORY + 1 + r] (card + 1):
    greedy (the best region-card pair first), then pairwise swaps while one helps."""
    n = pub[P.N_REGIONS]
    hand = mine[H.HAND] & ((1 << CARD.LEADER) - 1)
    pw_avg = white_chance(pub, seat, params)
    possible, n_possible, _ = opponent_whites(pub, seat)
    later = knob(params, 1, LATER)
    total_worth = 0.0
    for r in range(n):
        total_worth += worth(pub, r, later)
    slot = H.MEMORY + 1
    for r in range(n):
        mine[slot + r] = 0
    used = 0
    free_regions = (1 << n) - 1
    for _ in range(n):
        best, best_r, best_c = -math.inf, -1, -1
        for r in range(n):
            if not (free_regions >> r) & 1:
                continue
            for c in range(CARD.LEADER):
                if not (hand >> c) & 1 or (used >> c) & 1:
                    continue
                x = net(pub, seat, r, c, params, pw_avg, possible, n_possible, total_worth)
                if x > best:
                    best, best_r, best_c = x, r, c
        if best_r < 0:
            break
        mine[slot + best_r] = best_c + 1
        used |= 1 << best_c
        free_regions &= ~(1 << best_r)
    # pairwise improvement: two regions trade cards, or a region swaps its card for one in hand
    for _ in range(12):
        better = False
        for i in range(n):
            ci = mine[slot + i] - 1
            if ci < 0:
                continue
            now_i = net(pub, seat, i, ci, params, pw_avg, possible, n_possible, total_worth)
            for j in range(i + 1, n):
                cj = mine[slot + j] - 1
                if cj < 0:
                    continue
                now = now_i + net(pub, seat, j, cj, params, pw_avg, possible, n_possible,
                                  total_worth)
                swapped = (net(pub, seat, i, cj, params, pw_avg, possible, n_possible,
                               total_worth)
                           + net(pub, seat, j, ci, params, pw_avg, possible, n_possible,
                                 total_worth))
                if swapped > now + 1e-9:
                    mine[slot + i], mine[slot + j] = cj + 1, ci + 1
                    ci = cj
                    now_i = net(pub, seat, i, ci, params, pw_avg, possible, n_possible,
                                total_worth)
                    better = True
            for c in range(CARD.LEADER):
                if not (hand >> c) & 1 or (used >> c) & 1:
                    continue
                x = net(pub, seat, i, c, params, pw_avg, possible, n_possible, total_worth)
                if x > now_i + 1e-9:
                    used = (used & ~(1 << ci)) | (1 << c)
                    mine[slot + i] = c + 1
                    ci, now_i = c, x
                    better = True
        if not better:
            break
    mine[H.MEMORY] = pub[P.ROUND]


@njit(cache=True)
def place(pub, mine, seat, legal, params):
    if mine[H.MEMORY] != pub[P.ROUND]:
        plan(pub, mine, seat, params)
    r = pub[P.REGION]
    c = mine[H.MEMORY + 1 + r] - 1 if 0 <= r < 6 else -1
    if 0 <= c < legal.shape[0] and legal[c]:
        return c
    # off plan (never expected): the best legal card for this region now
    pw_avg = white_chance(pub, seat, params)
    possible, n_possible, _ = opponent_whites(pub, seat)
    best, pick = -math.inf, -1
    for c in range(CARD.LEADER):
        if legal[c]:
            x = net(pub, seat, r, c, params, pw_avg, possible, n_possible, 0.0)
            if x > best:
                best, pick = x, c
    return pick if pick >= 0 else first_legal(legal)


@njit(cache=True)
def gain_one(pub, seat, r, params, sign):
    """Worth x control chance that one more (sign +1) or one fewer (sign -1) army of this
    seat's on region r changes, seen from now."""
    v = worth(pub, r, knob(params, 1, LATER))
    scale = max(0.25, knob(params, 0, SCALE))
    left = rounds_left_now(pub)
    m = margin_of(pub, seat, r)
    return v * (control(m + sign, left, scale) - control(m, left, scale))


@njit(cache=True)
def target(pub, seat, legal, params):
    """D.TARGET: where a leader power acts (P.AUX), or PASS."""
    n = pub[P.N_REGIONS]
    aux = pub[P.AUX]
    best, pick = -math.inf, -1
    if aux == POWER.A:              # Sun Wu a: a marker where the tiles add up most
        for r in range(n):
            if legal[r]:
                s = 0.0
                for k in range(3):
                    s += pub[region_at(r, RG.TILE + k)]
                if s > best:
                    best, pick = s, r
    elif aux == AUX_MARCH_TO:       # Sun Wu d, second step: the army moves from P.REGION
        for r in range(n):
            if legal[r]:
                x = gain_one(pub, seat, r, params, 1)
                if x > best:
                    best, pick = x, r
    elif aux == POWER.D and seat == WHITE:   # Sun Wu d: move one army to an adjacent region
        for q in range(n):
            if not legal[q]:
                continue
            loss = gain_one(pub, seat, q, params, -1)
            adj = pub[region_at(q, RG.ADJ)]
            for r in range(n):
                if (adj >> r) & 1:
                    x = loss + gain_one(pub, seat, r, params, 1)
                    if x > best:
                        best, pick = x, q
        if best <= 1e-9:
            pick = -1
    else:                           # Sun Wu b (one army more), Chu d (one of White's fewer)
        for r in range(n):
            if legal[r]:
                x = gain_one(pub, seat, r, params, 1)
                if x > best:
                    best, pick = x, r
    if pick >= 0 and legal[pick]:
        return pick
    if legal[PASS]:
        return PASS
    return first_legal(legal)


@njit(cache=True)
def power(pub, seat):
    """D.POWER: use leader power P.AUX now on region P.REGION? 1 = yes."""
    aux = pub[P.AUX]
    r = pub[P.REGION]
    if seat == WHITE:
        return 0 if aux == POWER.C else 1       # never a 7-10 as a 6
    if aux == POWER.A:                           # Chu a: shield two or more armies
        return 1 if r >= 0 and pub[region_at(r, RG.ARMIES + BLACK)] >= 2 else 0
    if aux == POWER.B and r >= 0:                # Chu b: wipe, if it beats the halving for him
        a0 = pub[region_at(r, RG.ARMIES + WHITE)]
        a1 = pub[region_at(r, RG.ARMIES + BLACK)]
        wipe = min(a1, 1) - min(a0, 1)
        halve = a1 // 2 - a0 // 2
        return 1 if wipe > halve else 0
    return 1


@njit(cache=True)
def accountant(decision, seat, obs, legal, params, rng):
    """Held-out player: the card assignment that maximises worth x control chance at the coming
    scoring, against a distribution over the opponent's cards (module docstring)."""
    pub = obs.pub
    mine = obs.mine
    n = pub[P.N_REGIONS]
    if decision == D.PLACE:
        return place(pub, mine, seat, legal, params)
    if decision == D.ORDER:         # the least worth region first
        best, pick = math.inf, -1
        for r in range(n):
            if legal[r]:
                v = worth(pub, r, knob(params, 1, LATER))
                if v < best:
                    best, pick = v, r
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.SPLIT:         # remove as many of the loser's armies as allowed
        for a in range(legal.shape[0] - 1, -1, -1):
            if legal[a] and a != PASS:
                return a
        return first_legal(legal)
    if decision == D.SOURCE:        # the army whose loss changes the least
        best, pick = math.inf, -1
        for r in range(n):
            if legal[r]:
                x = -gain_one(pub, seat, r, params, -1)
                if x < best:
                    best, pick = x, r
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.KEEP:
        best, pick = -1, -1
        for c in range(len(KEEP_RANK)):
            if legal[c] and KEEP_RANK[c] > best:
                best, pick = KEEP_RANK[c], c
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.SIX:
        return 1 if legal[1] else first_legal(legal)
    if decision == D.BUY:           # only after the last round's battles: every card left
        if pub[P.ROUND] >= N_ROUNDS and pub[P.REVEALED] >= n:
            for c in range(CARD.W7, CARD.PLAGUE + 1):
                if legal[c]:
                    return c
        return PASS if legal[PASS] else first_legal(legal)
    if decision == D.LEADER:        # Sun Wu a (an early marker), Chu d (one of White's fewer)
        pick = POWER.A if seat == WHITE else POWER.D
        return pick if legal[pick] else first_legal(legal)
    if decision == D.POWER:
        a = power(pub, seat)
        return a if legal[a] else first_legal(legal)
    if decision == D.TARGET:
        return target(pub, seat, legal, params)
    return first_legal(legal)


PLAYERS = {
    "accountant": Strategy("heldout-accountant", fn=accountant,
                           doc="assigns its cards to maximise worth x control chance at the "
                               "coming scoring against a distribution over the opponent's "
                               "cards; white cards only where they pay their price"),
}

# Search ranges of the knobs for heldout.tune: one (lo, hi) per params index, the value added
# to the default, each range holding 0 (the player as described).
KNOBS = {
    "accountant": [(-1.5, 2.5),      # logistic scale per sqrt(round): 1.0 .. 5.0 armies
                   (-0.5, 0.5),      # weight of the later tiles: 0 .. 1
                   (-0.6, 1.4),      # price of a white card: 0 .. 2 tile points
                   (-0.8, 1.0),      # opponent's white propensity: x0.2 .. x2
                   (-0.3, 0.5),      # yellow 1 bonus: 0 .. 0.8 tile points
                   (-1.0, 3.0)],     # plague gap: 1 .. 5 armies
}
