"""Two more held-out Sunzi / Dynasties players, written from shared/rules/sunzi_dynasties.md and
the observation layout only (never trained against: see heldout/__init__.py). They were written
without reading the other held-out players (heldout/sunzi.py) or the built-in heuristics
(games/sunzi/strategies.py), so that they add independent styles to the measure. Rule ids SZ-n and
open points OP-n are the brief's.

- ``reader``: models the opponent from public information. Every round it ranks the regions as
  the opponent would see them (the tile at the coming scoring, SZ-18, discounted when the
  margin there is more than the rounds left can swing) and predicts the opponent's cards there:
  its white cards (how many it may hold follows from its public hand count and the cards it has
  used, S.HAND and S.GONE) on the regions it wants most, at a scoring, its high yellows below
  them. It then answers like a Blotto player: it cedes the region the opponent most likely
  contests with its -1 (which loses by just 1 whatever it meets, SZ-11) or a low yellow (the
  yellow 1 also draws an extra card, SZ-14), and wins the regions the opponent likely neglects
  with its mid-strength cards, choosing the cards by a small local search over the margins they
  would leave. White cards (7-10, +1) and the Plague are saved for the scoring rounds 3, 6 and 9
  (they are used once, SZ-13), spent freely at the last one.
- ``gambler``: a mixed strategy that cannot be read. Every round it draws (from its own random
  stream, ``rng``) which 2 or 3 regions it fights for, each drawn with a weight that grows with
  its worth at the coming scoring (a softmax with a temperature), and puts its strongest cards
  there; white cards are spent at the scorings (each with a chance at the first two, all at the
  last) and, now and then, in a quiet round; the -1 (at a scoring) and the yellow 1 (in a quiet
  round, for its extra card, SZ-14) go to the least worth regions it does not fight for; the
  Plague (it halves both sides' armies, SZ-11) where the opponent's armies exceed its own by
  enough.

Both answer every other decision the same way: the reveal order (SZ-8) starts with the regions
where their own card matters most; a won battle removes as many of the loser's armies as it
may (SZ-10: they leave the game, the winner's supply is kept); a shortage (SZ-12) takes the army
from the region where one army changes the least; the stronger drawn card is kept (SZ-13); the
6 power is always used (a marker is never removed, SZ-15); no army is bought (SZ-2); leader
powers (SZ-16, SZ-17) are used where one army counts most, except Sun Wu's c (a 7-10 as a 6).

Knobs (``params``): params[i] is added to knob i's default, so all zeros is the player as
described (a seat from the command line gets zeros). ``PLAYERS`` seats them with their names;
``KNOBS`` gives each knob's search range for ``heldout.tune``; heldout.measure and heldout.tune
find them next to heldout/sunzi.py's players (heldout.measure.modules).
"""
import numpy as np
from numba import njit

from sim.rng import rand_unit
from sim.strategy import Strategy
from games.sunzi.layout import (BLACK, CARD, DECK_ADVANCED, DECK_BASIC, D, H,
                              MAX_REGIONS, N_ACTIONS, N_ROUNDS, P, PASS, POWER, RG, S,
                              SCORING_EVERY, WHITE, region_at, seat_at)

jit = njit  # not cached: a file seated as FILE.py:FUNCTION loads under another module name

PLACEABLE = (1 << CARD.LEADER) - 1                                # the leader card is never placed
FIGHTERS = sum(1 << c for c in range(CARD.W7, CARD.PLUS3 + 1))    # 7-10, +1..+3: beat any yellow
NO_CARD = 15                                                      # an empty slot of a packed plan
MEM_ROUND, MEM_PLAN = H.MEMORY, H.MEMORY + 1                      # scratch: the round's plan
OPP_QUIET_SPEND = 0.15          # reader's guess: share of its whites the opponent spends when quiet


# --- reading the board ----------------------------------------------------------------------

@jit
def held(pub, r, seat):
    """A side's control of region r: armies plus markers (SZ-15, SZ-18)."""
    return pub[region_at(r, RG.ARMIES + seat)] + pub[region_at(r, RG.MARKERS + seat)]


@jit
def lead(pub, r, seat):
    """The seat's control margin in region r (positive: it would score the region now)."""
    return held(pub, r, seat) - held(pub, r, 1 - seat)


@jit
def coming_scoring(pub):
    """Index 0, 1, 2 of the scoring after rounds 3, 6, 9 that comes next (SZ-18)."""
    return min((max(pub[P.ROUND], 1) - 1) // SCORING_EVERY, 2)


@jit
def rounds_to_scoring(pub):
    """Rounds to play up to and including the coming scoring (1 in a scoring round)."""
    return SCORING_EVERY - (max(pub[P.ROUND], 1) - 1) % SCORING_EVERY


@jit
def worth(pub, r, later):
    """Region r's tile at the coming scoring plus ``later`` times its tiles at later ones."""
    k = coming_scoring(pub)
    value = float(pub[region_at(r, RG.TILE + k)])
    for j in range(k + 1, 3):
        value += later * pub[region_at(r, RG.TILE + j)]
    return value


@jit
def control(m, scale):
    """Expected share of a region's tile at margin m, from -1 (theirs) to +1 (mine); a tie
    scores for nobody (OP-8). ``scale``: how uncertain the margin still is."""
    return 2.0 / (1.0 + np.exp(-m / scale)) - 1.0


@jit
def open_scale(pub):
    """Uncertainty of a margin at the coming scoring: the rounds after this one still swing it."""
    return 1.5 + 2.5 * (rounds_to_scoring(pub) - 1)


@jit
def strength(c):
    """How well a card fights (SZ-9, SZ-11): numbers by value; +1..+3 win against any number,
    by little; -1 always loses; the Plague does not fight."""
    if c <= CARD.W10:
        return float(c + 1)
    if c == CARD.PLUS1:
        return 8.5
    if c == CARD.PLUS2:
        return 9.0
    if c == CARD.PLUS3:
        return 9.5
    if c == CARD.MINUS1:
        return 0.0
    return -1.0


@jit
def keep_rank(c):
    """SZ-13: which drawn card is worth keeping most."""
    if c == CARD.LEADER:
        return 20.0
    if c == CARD.PLAGUE:
        return 6.5
    if c == CARD.MINUS1:
        return 5.0
    return strength(c)


@jit
def expected_margin(c, e):
    """My margin with card c against an opponent card of expected value e (SZ-9, SZ-11)."""
    if c <= CARD.W10:
        return (c + 1) - e
    if c == CARD.PLUS1:
        return 1.0
    if c == CARD.PLUS2:
        return 1.5          # wins by 2, costs an army (SZ-11)
    if c == CARD.PLUS3:
        return 2.0          # wins by 3, costs two
    if c == CARD.MINUS1:
        return -1.0
    return 0.0


@jit
def plague_lead(pub, r, seat):
    """My margin in region r after a Plague: each side loses round-half-up(n/2) armies, markers
    are spared (SZ-11, OP-4's default reading)."""
    a = pub[region_at(r, RG.ARMIES + seat)]
    b = pub[region_at(r, RG.ARMIES + 1 - seat)]
    return (a - (a + 1) // 2) - (b - (b + 1) // 2) + pub[region_at(r, RG.MARKERS + seat)] \
        - pub[region_at(r, RG.MARKERS + 1 - seat)]


@jit
def sort_desc(values, n, order):
    """order[:n] = indices 0..n-1 sorted by values, largest first (insertion sort, stable)."""
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        j = i
        while j > 0 and values[order[j]] > values[order[j - 1]]:
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1


@jit
def first_legal(legal):
    for a in range(N_ACTIONS):
        if legal[a]:
            return a
    return -1


# --- every decision but placement -------------------------------------------------------------

@jit
def one_army_change(pub, seat, r, later):
    """What one more army of mine in region r is worth (its tile times the change in control)."""
    m = float(lead(pub, r, seat))
    scale = open_scale(pub)
    return worth(pub, r, later) * (control(m + 1.0, scale) - control(m, scale))


@jit
def answer_other(decision, seat, pub, mine, legal):
    """Reveal order, split, shortage source, keep, six, buy, leader powers; anything else: the
    first legal action."""
    n = pub[P.N_REGIONS]
    later = 0.3
    if decision == D.SPLIT:                 # remove the most: they leave the game, supply kept
        for a in range(N_ACTIONS - 1, -1, -1):
            if legal[a]:
                return a
    if decision == D.KEEP:
        best, best_value = -1, -1e9
        for c in range(N_ACTIONS):
            if legal[c] and keep_rank(c) > best_value:
                best, best_value = c, keep_rank(c)
        return best
    if decision == D.SIX:
        return 1 if legal[1] else first_legal(legal)
    if decision == D.BUY:
        return PASS if legal[PASS] else first_legal(legal)
    if decision == D.ORDER:                 # where my own card matters most, first
        best, best_value = -1, -1e9
        for r in range(n):
            if legal[r]:
                c = mine[H.PLACED + r]
                s = strength(c) if c >= 0 else 0.0
                if c == CARD.PLAGUE:
                    s = 3.0
                value = worth(pub, r, later) * (1.0 + s)
                if value > best_value:
                    best, best_value = r, value
        return best if best >= 0 else first_legal(legal)
    if decision == D.SOURCE:                # the army that changes the least where it stands
        best, best_value = -1, 1e18
        for r in range(n):
            if legal[r]:
                m = float(lead(pub, r, seat))
                scale = open_scale(pub)
                value = worth(pub, r, later) * (control(m, scale) - control(m - 1.0, scale))
                if value < best_value:
                    best, best_value = r, value
        return best if best >= 0 else first_legal(legal)
    if decision == D.LEADER:                # Sun Wu a (a marker at once), Chu d (round 6)
        want = POWER.A if seat == WHITE else POWER.D
        return want if legal[want] else first_legal(legal)
    if decision == D.POWER:
        power = pub[P.AUX]
        r = pub[P.REGION]
        answer = 1
        if seat == WHITE and power == POWER.C:
            answer = 0                      # a 7-10 kept at its value
        elif seat == BLACK and power == POWER.B and 0 <= r < n:
            answer = 1 if pub[region_at(r, RG.ARMIES + WHITE)] > pub[region_at(r, RG.ARMIES
                                                                                + BLACK)] else 0
        return answer if legal[answer] else first_legal(legal)
    if decision == D.TARGET:
        power = pub[P.AUX]
        # Sun Wu d asks twice: the region to march from (P.AUX = d), then to (AUX_MARCH_TO)
        source = seat == WHITE and power == POWER.D
        best, best_value = -1, -1e18
        for r in range(n):
            if legal[r]:
                gain = one_army_change(pub, seat, r, 1.0)
                value = -gain if source else gain
                if value > best_value:
                    best, best_value = r, value
        if best >= 0:
            return best
        return PASS if legal[PASS] else first_legal(legal)
    return first_legal(legal)


# --- placement: a plan for the whole round, kept in the scratch memory ------------------------

@jit
def plan_card(pub, mine, legal):
    """This region's card from the round's plan; the strongest legal yellow if there is none."""
    r = pub[P.REGION]
    if mine[MEM_ROUND] == pub[P.ROUND] and 0 <= r < MAX_REGIONS:
        c = (mine[MEM_PLAN] >> (4 * r)) & 15
        if c != NO_CARD and legal[c]:
            return c
    for c in range(CARD.Y6, -1, -1):
        if legal[c]:
            return c
    return first_legal(legal)


@jit
def store_plan(pub, mine, plan, first):
    packed = 0
    for r in range(MAX_REGIONS):
        c = plan[r] if r >= first and r < pub[P.N_REGIONS] and plan[r] >= 0 else NO_CARD
        packed |= c << (4 * r)
    mine[MEM_PLAN] = packed
    mine[MEM_ROUND] = pub[P.ROUND]


# --- reader -------------------------------------------------------------------------------------

@jit
def predict_opponent(pub, seat, later, trust, pred):
    """pred[r]: the value of the card the opponent is expected to play in region r, from public
    information only: the regions it wants most (worth at the coming scoring, SZ-18, discounted
    when the margin is beyond the rounds left) get its strongest cards, whites first (as many
    as its public hand count and used cards say it may hold, S.HAND, S.DECK, S.GONE; all at the
    last scoring, most at the others, few in a quiet round), then its yellows 6, 5, 4, ...
    ``trust`` blends that ranked guess with the mean of its cards."""
    opp = 1 - seat
    n = pub[P.N_REGIONS]
    desire = np.zeros(MAX_REGIONS)
    swing = 2.0 + 3.0 * rounds_to_scoring(pub)
    for r in range(n):
        desire[r] = worth(pub, r, later) * np.exp(-abs(lead(pub, r, opp)) / swing)
    order = np.zeros(MAX_REGIONS, np.int64)
    sort_desc(desire, n, order)
    extra = max(0, pub[seat_at(opp, S.HAND)] - 6)              # cards beyond its six yellows
    deck = max(0, pub[seat_at(opp, S.DECK)])
    full = DECK_ADVANCED if pub[P.ADVANCED] else DECK_BASIC
    pool = full & ~pub[seat_at(opp, S.GONE)]                  # in its hand or its deck
    n_fight, total = 0, 0.0
    for c in range(CARD.W7, CARD.PLUS3 + 1):
        if (pool >> c) & 1:
            n_fight += 1
            total += strength(c)
    mean_white = total / n_fight if n_fight > 0 else 0.0
    held_whites = n_fight * extra / max(1, extra + deck)
    if pub[P.ROUND] >= N_ROUNDS:
        spend = 1.0
    elif pub[P.ROUND] % SCORING_EVERY == 0:
        spend = 0.75
    else:
        spend = OPP_QUIET_SPEND
    w = min(held_whites * spend, float(n))
    whole = int(w)
    values = np.zeros(MAX_REGIONS)
    mean = 0.0
    for i in range(n):
        yellow = 6.0 - (i - whole) if i >= whole else 6.0
        if i < whole:
            v = mean_white
        elif i == whole:
            v = (w - whole) * mean_white + (1.0 - (w - whole)) * yellow
        else:
            v = max(yellow, 1.0)
        values[i] = v
        mean += v
    mean /= max(n, 1)
    for i in range(n):
        pred[order[i]] = trust * values[i] + (1.0 - trust) * mean
    return order[0]


@jit
def reader_utility(pub, seat, r, c, pred, later, scale, save, last):
    """What card c on region r is worth: the tile's expected share at the margin it leaves
    against the predicted card, less the value of a used-once card kept for later."""
    m = float(lead(pub, r, seat))
    if c == CARD.PLAGUE:
        after = float(plague_lead(pub, r, seat))
    else:
        after = m + expected_margin(c, pred[r])
    value = worth(pub, r, later) * control(after, scale) + 0.02 * (after - m)
    if not last:
        if (FIGHTERS >> c) & 1:
            value -= save * strength(c) / 10.0
        elif c == CARD.PLAGUE:
            value -= save * 0.8
        elif c == CARD.MINUS1:
            value -= 0.3 * save
        elif c == CARD.Y1:
            value += 0.4                    # SZ-14: an extra card at the round's end
    return value


@jit
def reader_allowed(c, ceded, scoring, whites_used, quiet_whites):
    if ceded:
        return c == CARD.MINUS1 or c == CARD.Y1 or c == CARD.Y1 + 1
    if c <= CARD.Y6:
        return True
    if c == CARD.MINUS1:
        return True
    if scoring:
        return True
    return whites_used < quiet_whites        # 7-10, +1..+3, Plague: saved for the scorings


@jit
def reader_plan(pub, mine, seat, params):
    trust = min(max(0.75 + params[0], 0.0), 1.0)
    n_cede = min(max(int(np.floor(1.5 + params[1])), 0), 2)
    save_early = max(1.0 + params[2], 0.0)
    quiet_whites = min(max(int(np.floor(params[3])), 0), 3)
    later = max(0.3 + params[4], 0.0)
    n = pub[P.N_REGIONS]
    first = max(pub[P.REGION], 0)
    rnd = pub[P.ROUND]
    last = rnd >= N_ROUNDS
    scoring = rnd % SCORING_EVERY == 0 or last
    k = coming_scoring(pub)
    save = 0.0 if last else (save_early if k == 0 else 0.7 * save_early)
    if not scoring:
        save = 1.5 * save_early
    scale = 1.5 if scoring else open_scale(pub)
    pred = np.zeros(MAX_REGIONS)
    predict_opponent(pub, seat, later, trust, pred)
    # ceded: the regions with the strongest predicted opponent cards, among those still open
    ceded = np.zeros(MAX_REGIONS, np.bool_)
    order = np.zeros(MAX_REGIONS, np.int64)
    sort_desc(pred, n, order)
    count = 0
    for i in range(n):
        if count >= n_cede or n - first - count <= 1:
            break
        r = order[i]
        if r >= first:
            ceded[r] = True
            count += 1
    hand = mine[H.HAND] & PLACEABLE
    plan = np.full(MAX_REGIONS, -1, np.int64)
    used = 0
    whites_used = 0
    # greedy: regions by worth (ceded first, they take the low cards), each the best allowed card
    prio = np.zeros(MAX_REGIONS)
    for r in range(n):
        prio[r] = (100.0 if ceded[r] else 0.0) + worth(pub, r, later) if r >= first else -1e9
    sort_desc(prio, n, order)
    for i in range(n):
        r = order[i]
        if r < first:
            continue
        best, best_value = -1, -1e18
        for c in range(CARD.LEADER):
            if (hand >> c) & 1 and not (used >> c) & 1 and \
                    reader_allowed(c, ceded[r], scoring, whites_used, quiet_whites):
                v = reader_utility(pub, seat, r, c, pred, later, scale, save, last)
                if v > best_value:
                    best, best_value = c, v
        if best < 0:                        # nothing allowed left: any card in hand
            for c in range(CARD.LEADER):
                if (hand >> c) & 1 and not (used >> c) & 1:
                    best = c
                    break
        if best < 0:
            continue
        plan[r] = best
        used |= 1 << best
        if best > CARD.Y6 and best != CARD.MINUS1:
            whites_used += 1
    # local search: swap two regions' cards, or trade a region's card for an unused one
    for _ in range(8):
        improved = False
        for a in range(first, n):
            for b in range(a + 1, n):
                ca, cb = plan[a], plan[b]
                if ca < 0 or cb < 0 or ceded[a] != ceded[b]:
                    continue
                before = reader_utility(pub, seat, a, ca, pred, later, scale, save, last) + \
                    reader_utility(pub, seat, b, cb, pred, later, scale, save, last)
                after = reader_utility(pub, seat, a, cb, pred, later, scale, save, last) + \
                    reader_utility(pub, seat, b, ca, pred, later, scale, save, last)
                if after > before + 1e-9:
                    plan[a], plan[b] = cb, ca
                    improved = True
        for r in range(first, n):
            cr = plan[r]
            if cr < 0:
                continue
            cur = reader_utility(pub, seat, r, cr, pred, later, scale, save, last)
            w_other = whites_used - (1 if cr > CARD.Y6 and cr != CARD.MINUS1 else 0)
            for c in range(CARD.LEADER):
                if (hand >> c) & 1 and not (used >> c) & 1 and \
                        reader_allowed(c, ceded[r], scoring, w_other, quiet_whites):
                    v = reader_utility(pub, seat, r, c, pred, later, scale, save, last)
                    if v > cur + 1e-9:
                        used = (used & ~(1 << cr)) | (1 << c)
                        whites_used = w_other + (1 if c > CARD.Y6 and c != CARD.MINUS1 else 0)
                        plan[r], cr, cur = c, c, v
                        w_other = whites_used - (1 if c > CARD.Y6 and c != CARD.MINUS1 else 0)
                        improved = True
        if not improved:
            break
    store_plan(pub, mine, plan, first)


@jit
def reader(decision, seat, obs, legal, params, rng):
    """Reads where the opponent will fight from public information, cedes that region with
    the -1 or a low yellow and wins the regions it neglects with mid cards; whites saved for
    the scoring rounds."""
    pub, mine = obs.pub, obs.mine
    if decision != D.PLACE:
        return answer_other(decision, seat, pub, mine, legal)
    if mine[MEM_ROUND] != pub[P.ROUND]:
        reader_plan(pub, mine, seat, params)
    return plan_card(pub, mine, legal)


# --- gambler ------------------------------------------------------------------------------------

@jit
def gambler_plan(pub, mine, seat, params, rng):
    temperature = max(1.0 + params[0], 0.05)
    n_mean = min(max(2.5 + params[1], 1.0), 5.0)
    quiet_share = min(max(0.1 + params[2], 0.0), 1.0)
    early_share = min(max(0.7 + params[3], 0.0), 1.0)
    plague_excess = 3.0 + params[4]
    n = pub[P.N_REGIONS]
    first = max(pub[P.REGION], 0)
    rnd = pub[P.ROUND]
    last = rnd >= N_ROUNDS
    scoring = rnd % SCORING_EVERY == 0 or last
    swing = 2.0 + 3.0 * rounds_to_scoring(pub)
    # the draw: Gumbel-top-k over worth / temperature = a softmax draw without replacement
    score = np.zeros(MAX_REGIONS)
    key = np.full(MAX_REGIONS, -1e18)
    for r in range(first, n):
        closeness = np.exp(-abs(lead(pub, r, seat)) / swing)
        score[r] = worth(pub, r, 0.3) * (0.3 + 0.7 * closeness)
        u = min(max(rand_unit(rng, 0), 1e-12), 1.0 - 1e-12)
        key[r] = score[r] / temperature - np.log(-np.log(u))
    n_open = n - first
    n_fight = int(n_mean)
    if rand_unit(rng, 0) < n_mean - n_fight:
        n_fight += 1
    n_fight = min(max(n_fight, 1), n_open)
    order = np.zeros(MAX_REGIONS, np.int64)
    sort_desc(key, n, order)
    fought = np.zeros(MAX_REGIONS, np.bool_)
    for i in range(n_fight):
        fought[order[i]] = True
    hand = mine[H.HAND] & PLACEABLE
    plan = np.full(MAX_REGIONS, -1, np.int64)
    used = 0
    # which whites it spends this round
    share = 1.0 if last else (early_share if scoring else quiet_share)
    spent = 0
    for c in range(CARD.PLUS3, CARD.W7 - 1, -1):
        if (hand >> c) & 1 and (FIGHTERS >> c) & 1:
            if last or rand_unit(rng, 0) < share:
                spent |= 1 << c
    # the Plague: where the opponent's armies exceed mine by enough (less needed at the end)
    plague_at = -1
    if (hand >> CARD.PLAGUE) & 1:
        best = (min(plague_excess, 1.0) if last else plague_excess) - 1e-9
        for r in range(first, n):
            excess = pub[region_at(r, RG.ARMIES + 1 - seat)] - pub[region_at(r, RG.ARMIES + seat)]
            if excess >= best:
                plague_at, best = r, float(excess)
        if plague_at >= 0:                  # it replaces a fight there
            plan[plague_at] = CARD.PLAGUE
            used |= 1 << CARD.PLAGUE
            fought[plague_at] = False
    # fought regions, in the order drawn: the strongest spent whites, then the high yellows
    for i in range(n):
        r = order[i]
        if r < first or not fought[r] or plan[r] >= 0:
            continue
        best, best_value = -1, -1e9
        for c in range(CARD.LEADER):
            if (hand >> c) & 1 and not (used >> c) & 1 and (c <= CARD.Y6 or (spent >> c) & 1):
                if strength(c) > best_value:
                    best, best_value = c, strength(c)
        if best >= 0:
            plan[r] = best
            used |= 1 << best
    # the rest, least worth first: the -1 at a scoring, the yellow 1 in a quiet round (SZ-14:
    # an extra card), then the strongest cards left (spent whites at the last round, yellows)
    rest = np.zeros(MAX_REGIONS)
    for r in range(n):
        rest[r] = -score[r] if r >= first and plan[r] < 0 else -1e18
    sort_desc(rest, n, order)
    for i in range(n):
        r = order[i]
        if r < first or plan[r] >= 0:
            continue
        c = -1
        if scoring and (hand >> CARD.MINUS1) & 1 and not (used >> CARD.MINUS1) & 1:
            c = CARD.MINUS1
        elif not scoring and (hand >> CARD.Y1) & 1 and not (used >> CARD.Y1) & 1:
            c = CARD.Y1
        if c >= 0:
            plan[r] = c
            used |= 1 << c
    for i in range(n - 1, -1, -1):          # the most worth first among the rest
        r = order[i]
        if r < first or plan[r] >= 0:
            continue
        best, best_value = -1, -1e9
        for c in range(CARD.LEADER):
            if (hand >> c) & 1 and not (used >> c) & 1 and c != CARD.PLAGUE and \
                    (c <= CARD.Y6 or (spent >> c) & 1 or c == CARD.MINUS1):
                if strength(c) > best_value:
                    best, best_value = c, strength(c)
        if best < 0:
            for c in range(CARD.LEADER):
                if (hand >> c) & 1 and not (used >> c) & 1:
                    best = c
                    break
        if best >= 0:
            plan[r] = best
            used |= 1 << best
    store_plan(pub, mine, plan, first)


@jit
def gambler(decision, seat, obs, legal, params, rng):
    """A mixed Blotto player: each round it draws which 2-3 regions to fight for, weighted by
    their worth, and puts its strongest cards there."""
    pub, mine = obs.pub, obs.mine
    if decision != D.PLACE:
        return answer_other(decision, seat, pub, mine, legal)
    if mine[MEM_ROUND] != pub[P.ROUND]:
        gambler_plan(pub, mine, seat, params, rng)
    return plan_card(pub, mine, legal)


PLAYERS = {
    "reader": Strategy("heldout-reader", fn=reader,
                       doc="predicts the opponent's strong cards from public information, cedes "
                           "the region it contests and wins the ones it neglects"),
    "gambler": Strategy("heldout-gambler", fn=gambler,
                        doc="each round draws 2-3 regions to fight for, weighted by worth, and "
                            "puts its strongest cards there"),
}

# Search ranges for heldout.tune: one (lo, hi) per params index, the value added to the default,
# each range holding 0 (the player as described).
KNOBS = {
    "reader": [(-0.75, 0.25),         # trust in the read: 0 .. 1 (0 = the opponent's mean card)
               (-1.5, 1.49),          # regions ceded: 0, 1, 2
               (-1.0, 1.5),           # cost of spending a white before the last scoring: 0 .. 2.5
               (0.0, 2.99),           # whites allowed in a quiet round: 0, 1, 2
               (-0.3, 0.7)],          # later tiles' weight: 0 .. 1
    "gambler": [(-0.8, 3.0),          # temperature of the draw: 0.2 .. 4
                (-1.5, 1.5),          # regions fought for, on average: 1 .. 4
                (-0.1, 0.6),          # chance to spend each white in a quiet round: 0 .. 0.7
                (-0.7, 0.3),          # the same at the first two scorings: 0 .. 1
                (-2.0, 4.0)],         # Plague excess: 1 .. 7 armies
}
