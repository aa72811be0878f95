"""Held-out Parthian Shot players, written from shared/rules/parthian_shot.md alone (never
trained against: see heldout/__init__.py). Rule ids PS-n and OP-n are the brief's.

What they read: the public table of games/parthian/kernel.py's Observation (``obs.players``, one
row per seat: hand, cards in front, charges, wounds, merits; ``obs.info``: this round's legion,
the legions left, the threshold). Everything there is public in the real game (hands are the
complement of the shots in front, PS-5). Action v - 1 plays shooting card v; action 6 charges.

The rules that shape both players:
- PS-5 a legion falls when the total of every revealed value is above its strength; PS-6/7/8
  the unique highest value takes the merit, ties quarrel and pass it down, at most three
  distinct values deep (OP-2 as written), two or more chargers always quarrel;
- PS-9/10/12 on a breakthrough the highest non-charger(s) lose a charge card, or are routed
  if they hold none, unless somebody charged (OP-3 as written: a charger spares everyone);
- PS-4/13/14 a charge needs more than 9 in front and is worth that sum; charging, damage and the
  fifth shot bring the shots back to hand;
- PS-15/16 score = merits + charge cards in hand: at victory (7 legions down) the highest score
  wins, but at a defeat the routed seats lose and the *lowest* score wins (tie: the lower best
  legion). With random seats most games end in a defeat, so a merit or a kept charge card is
  not always worth having: both players weigh the two endings.

- ``steward`` (the risk manager): every round it samples the other seats' cards (each seat
  uniformly among its legal options, 64 samples shared by all its own options) and scores each
  of its options by the round's outcome: the merit and who gets it, damage and routing,
  charges spent, and the game's end when the round ends it (PS-15/16 applied exactly). A round
  that does not end the game is valued as a mixture of the two endings: with probability d a
  defeat (lowest score wins), else a victory (highest score wins), each a logistic in the score
  gap to the best rival; d grows with the legions left and with the seats holding no charge
  card (those a breakthrough can rout). Holding no charge card itself costs a risk term, larger
  when the hand holds only high shots; shots kept in hand are worth a little.
- ``jackal`` (the opportunist): no sampling; it tracks each rival's hand (the complement of
  the shots in front) as a range, the lowest, mean and highest value it can show (a charge
  included), and sums them into the table's lowest, expected and highest total. It plays for a
  victory only in the last legions (and only when no rival without a charge card holds only
  high shots, i.e. a rout is not close): there it snipes a merit with the cheapest shot sure to
  be the unique top on a legion sure to fall, or its strongest shot when that is well above
  every rival's mean, or charges for the last legion, and otherwise helps the legion fall with
  a shot below the rivals' means. Everywhere else it expects a defeat (PS-16) and keeps its
  score low and itself unroutable: on a legion sure to fall (no damage possible) it dumps the
  highest shot below the rivals' best mean (it wants no merit); with a spare charge card it
  sheds one as damage, showing its top shot where the expected total stays at or below the
  strength (damage costs a point of score and refills the hand, PS-9); with no charge card it
  shows a shot some rival surely beats, or charges to spare itself (PS-10) when even its lowest
  shot may top the table; else it shows the highest shot some rival surely beats, keeping its
  low shots for the rounds that need them.

Knobs (``params``), each added to its default, so all zeros is the player as described.
steward: params[0] + 0.75: base defeat hazard per legion left (times 1/N); params[1] + 0.9:
extra hazard per seat holding no charge card; params[2] + 1.5: logistic slope of the score gap;
params[3] + 0.8: cost of holding no charge card (win-chance units, times 0.5 + its lowest
shot / 6); params[4] + 0.01: worth of each pip of shots kept in hand.
jackal: int(params[0]) + 2: legions left (the revealed one included) at which it plays for the
victory; int(params[1]) + 1: charge cards it keeps (sheds above that); params[2] + 0: the gap
below the strength the expected total plus its top shot must leave before it sheds;
params[3] + 1: how far above every rival's mean its strongest shot must be to snipe;
int(params[4]) + 1: score lead over every rival at which it stops chasing merits;
params[5] + 0: how far below the rivals' highest shot its top shot may be and still shed.
``KNOBS`` gives each knob's search range for ``heldout.tune``.

How the defaults were set: written from the rules, then a handful of one-knob-at-a-time
settings (2,000-3,000 games each, 3 and 5 players, seeds 41-46, seats rotated, one held-out
seat among the others) against ``random`` and the built-in ``cautious`` and ``glory`` played by
name as black boxes (their code unread; ``strong`` and ``trained`` were never played). The
steward's first defaults (0.5 hazard per bare seat, 0.25 for holding no charge card) became
0.9 and 0.8: being without a charge card costs more than the first guess, against every one
of the three. The jackal's defaults held: shedding more eagerly (a larger gap) lost at 3
players and against cautious; its other knobs moved little. Measured on fresh games (seed 47,
4,000 games, share of the decided games, one held-out seat; the other seats' mean in
brackets): steward vs random 3p 0.65 (0.17), 5p 0.36 (0.16), vs cautious 3p 0.58 (0.21), 5p 0.34
(0.17); jackal vs random 3p 0.55 (0.22), 5p 0.26 (0.19), vs cautious 3p 0.87 (0.07), 5p 0.59
(0.10); against glory both won every decided game. Both play legal games at 3 to 6 players.
"""
import numpy as np
from numba import njit

from games.parthian.layout import CHARGE, I, N_ACTIONS, P, SHOTS
from sim.rng import rand_below
from sim.strategy import Strategy

jit = njit  # not cached: a file seated as FILE.py:FUNCTION loads under another module name

SAMPLES = 64
MERIT_DEPTH = 3     # OP-2 as written


@jit
def first_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return 0


@jit
def options(pl, q, threshold, vals, chg):
    """The values seat q may show this round (PS-3, PS-4); returns how many."""
    k = 0
    for v in range(SHOTS):
        if (pl[q, P.HAND] >> v) & 1:
            vals[k] = v + 1
            chg[k] = 0
            k += 1
    if pl[q, P.CHARGES] > 0 and pl[q, P.FRONT_SUM] > threshold:
        vals[k] = pl[q, P.FRONT_SUM]
        chg[k] = 1
        k += 1
    return k


@jit
def merit_winner(vals, chg, n):
    """PS-6/7/8, OP-2 as written: who takes a defeated legion, -1 nobody."""
    out = 0
    level = 0
    chargers = 0
    for p in range(n):
        chargers += chg[p]
    if chargers >= 2:
        for p in range(n):
            if chg[p]:
                out |= 1 << p
        level = 1
    while level < MERIT_DEPTH:
        best, count, who = -1, 0, -1
        for p in range(n):
            if (out >> p) & 1 == 0:
                if vals[p] > best:
                    best, count, who = vals[p], 1, p
                elif vals[p] == best:
                    count += 1
        if count == 0:
            return -1
        if count == 1:
            return who
        for p in range(n):
            if vals[p] == best:
                out |= 1 << p
        level += 1
    return -1


@jit
def lowest_shot(hand):
    for v in range(SHOTS):
        if (hand >> v) & 1:
            return v + 1
    return 0


@jit
def hand_sum(hand):
    s = 0
    for v in range(SHOTS):
        if (hand >> v) & 1:
            s += v + 1
    return s


@jit
def end_share(sc, best, routed, me, n, victory):
    """PS-15 (victory: highest score, then highest best legion) or PS-16 (defeat: lowest score
    among the unrouted, then lowest best legion); OP-4: a tie left shares the win."""
    if routed[me]:
        return 0.0
    sign = 1 if victory else -1
    top, tie, k = -(1 << 30), -(1 << 30), 0
    for p in range(n):
        if routed[p]:
            continue
        s, t = sign * sc[p], sign * best[p]
        if s > top or (s == top and t > tie):
            top, tie, k = s, t, 1
        elif s == top and t == tie:
            k += 1
    if sign * sc[me] == top and sign * best[me] == tie:
        return 1.0 / k
    return 0.0


@jit
def logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


@jit
def steward_outcome(pl, info, me, n, vals, chg, sc, best, charges, routed, hands,
                    base, extra, slope, bare_cost, pip):
    """The worth (about a win chance) of one revealed round for seat ``me``."""
    strength = info[I.LEGION]
    left = info[I.DECK_LEFT]
    total = 0
    any_charge = 0
    for p in range(n):
        sc[p] = pl[p, P.MERITS] + pl[p, P.CHARGES]
        best[p] = pl[p, P.BEST_MERIT]
        charges[p] = pl[p, P.CHARGES]
        routed[p] = 0
        total += vals[p]
        any_charge += chg[p]
        if chg[p]:              # PS-4 a charge card spent, PS-13 shots back
            sc[p] -= 1
            charges[p] -= 1
            hands[p] = (1 << SHOTS) - 1
        else:
            hands[p] = pl[p, P.HAND] & ~(1 << (vals[p] - 1))
            if hands[p] & (hands[p] - 1) == 0:      # PS-14 camel resupply
                hands[p] = (1 << SHOTS) - 1
    n_routed = 0
    if total > strength:        # PS-5/6/7
        w = merit_winner(vals, chg, n)
        if w >= 0:
            sc[w] += 1
            best[w] = max(best[w], strength)
        left -= 1
        if left == 0:           # PS-15 victory
            return end_share(sc, best, routed, me, n, True)
    elif any_charge == 0:       # PS-9/12 (PS-10: a charger spares everyone)
        top = 0
        for p in range(n):
            top = max(top, vals[p])
        for p in range(n):
            if vals[p] == top:
                if charges[p] > 0:
                    charges[p] -= 1
                    sc[p] -= 1
                    hands[p] = (1 << SHOTS) - 1
                else:
                    routed[p] = 1
                    n_routed += 1
    if n_routed > 0:            # PS-16 defeat
        return end_share(sc, best, routed, me, n, False)
    # the game goes on: a mixture of the two endings
    bare = 0
    for p in range(n):
        if charges[p] == 0:
            bare += 1
    d = 1.0 - np.exp(-left * (base + extra * bare) / n)
    d = min(max(d, 0.0), 1.0)
    hi, lo = -1e9, 1e9
    for p in range(n):
        if p != me:
            x = sc[p] + best[p] * 0.01
            hi = max(hi, x)
            lo = min(lo, x)
    mine = sc[me] + best[me] * 0.01
    value = (1.0 - d) * logistic(slope * (mine - hi + 0.5)) + d * logistic(slope * (lo - mine + 0.5))
    if charges[me] == 0:
        value -= bare_cost * (0.5 + lowest_shot(hands[me]) / 6.0)
    value += pip * hand_sum(hands[me])
    return value


@jit
def steward(decision, seat, obs, legal, params, rng):
    """The risk manager of the module docstring (samples from ``rng``)."""
    pl, info = obs.players, obs.info
    n = info[I.N_PLAYERS]
    threshold = info[I.THRESHOLD]
    base = 0.75 + params[0]
    extra = 0.9 + params[1]
    slope = 1.5 + params[2]
    bare_cost = 0.8 + params[3]
    pip = 0.01 + params[4]
    ov = np.zeros((SAMPLES, n), np.int64)
    oc = np.zeros((SAMPLES, n), np.int64)
    tv = np.zeros(N_ACTIONS + 1, np.int64)
    tc = np.zeros(N_ACTIONS + 1, np.int64)
    for q in range(n):
        if q == seat:
            continue
        k = options(pl, q, threshold, tv, tc)
        for s in range(SAMPLES):
            j = rand_below(rng, 0, k) if k > 1 else 0
            ov[s, q] = tv[j]
            oc[s, q] = tc[j]
    vals = np.zeros(n, np.int64)
    chg = np.zeros(n, np.int64)
    sc = np.zeros(n, np.int64)
    best = np.zeros(n, np.int64)
    charges = np.zeros(n, np.int64)
    routed = np.zeros(n, np.int64)
    hands = np.zeros(n, np.int64)
    pick, top = -1, -1e18
    for a in range(N_ACTIONS):
        if not legal[a]:
            continue
        total = 0.0
        for s in range(SAMPLES):
            for q in range(n):
                vals[q] = ov[s, q]
                chg[q] = oc[s, q]
            if a == CHARGE:
                vals[seat] = pl[seat, P.FRONT_SUM]
                chg[seat] = 1
            else:
                vals[seat] = a + 1
                chg[seat] = 0
            total += steward_outcome(pl, info, seat, n, vals, chg, sc, best, charges, routed,
                                     hands, base, extra, slope, bare_cost, pip)
        if total > top:
            top, pick = total, a
    return pick if pick >= 0 else first_legal(legal)


@jit
def seat_range(pl, q, threshold):
    """(lowest, mean, highest) value seat q can show this round."""
    lo, hi, s, k = 99, 0, 0, 0
    for v in range(SHOTS):
        if (pl[q, P.HAND] >> v) & 1:
            lo = min(lo, v + 1)
            hi = max(hi, v + 1)
            s += v + 1
            k += 1
    if pl[q, P.CHARGES] > 0 and pl[q, P.FRONT_SUM] > threshold:
        hi = max(hi, pl[q, P.FRONT_SUM])
        s += pl[q, P.FRONT_SUM]
        k += 1
    return lo, s / max(k, 1), hi


@jit
def lowest_legal_shot(legal):
    for a in range(SHOTS):
        if legal[a]:
            return a
    return -1


@jit
def highest_legal_shot(legal):
    for a in range(SHOTS - 1, -1, -1):
        if legal[a]:
            return a
    return -1


@jit
def jackal(decision, seat, obs, legal, params, rng):
    """The opportunist of the module docstring (deterministic; ``rng`` unused)."""
    pl, info = obs.players, obs.info
    n = info[I.N_PLAYERS]
    threshold = info[I.THRESHOLD]
    strength = info[I.LEGION]
    left = info[I.DECK_LEFT]
    late = 2 + int(params[0])           # legions left at which it plays for the victory
    reserve = 1 + int(params[1])        # charge cards it keeps before it stops shedding
    shed_gap = 0.0 + params[2]          # how far below the strength the mean total must be
    snipe = 1.0 + params[3]             # a shot this far above every rival's mean snipes
    lead_stop = 1 + int(params[4])      # a merit lead over every rival that ends the chase
    slack = 0.0 + params[5]             # how far below the rivals' highest shot it still sheds

    low_sum, mean_sum, high_sum = 0, 0.0, 0
    top_low, top_mean, top_high = 0, 0.0, 0    # the rivals' highest lows, means, highs
    bare_rival_risk = 0                        # a bare rival whose lowest shot is high
    best_rival = -1
    for q in range(n):
        if q == seat:
            continue
        lo, mu, hi = seat_range(pl, q, threshold)
        low_sum += lo
        mean_sum += mu
        high_sum += hi
        top_low = max(top_low, lo)
        top_mean = max(top_mean, mu)
        top_high = max(top_high, hi)
        if pl[q, P.CHARGES] == 0 and lo >= 3:
            bare_rival_risk += 1
        best_rival = max(best_rival, pl[q, P.MERITS] + pl[q, P.CHARGES])
    charges = pl[seat, P.CHARGES]
    score = pl[seat, P.MERITS] + charges
    low_a = lowest_legal_shot(legal)
    high_a = highest_legal_shot(legal)
    if low_a < 0:
        return first_legal(legal)
    can_charge = legal[CHARGE]
    power = pl[seat, P.FRONT_SUM]
    victory = left <= late and bare_rival_risk == 0

    if victory:   # PS-15: merits and charge cards both count; take legions cheaply
        if score - best_rival < lead_stop:
            for a in range(SHOTS):           # the cheapest shot sure to be the unique top
                if legal[a] and a + 1 > top_high and low_sum + a + 1 > strength:
                    return a
            if can_charge and power > top_high and low_sum + power > strength and left == 1:
                return CHARGE                # the last legion: a charge that surely wins it
            if mean_sum + high_a + 1 > strength and high_a + 1 > top_mean + snipe:
                return high_a
        # help the legion fall without topping the table
        for a in range(SHOTS):
            if legal[a] and mean_sum + a + 1 > strength and a + 1 < top_mean:
                return a
        return low_a

    # PS-16: a defeat is the likelier ending; keep the score low and never be routed
    sure_fall = low_sum + low_a + 1 > strength
    if sure_fall:
        # no damage this round: dump the highest shot that is unlikely to be the unique top
        pick = low_a
        for a in range(SHOTS):
            if legal[a] and a + 1 < top_mean:
                pick = a
        return pick
    if charges > reserve:
        # shed a charge card: be the highest where the legion will likely break (PS-9):
        # damage costs a point of score and brings the shots back
        if mean_sum + high_a + 1 + shed_gap <= strength and high_a + 1 >= top_high - slack:
            return high_a
    if charges == 0:
        # bare: a breakthrough where it is highest routs it (PS-12)
        for a in range(SHOTS):
            if legal[a] and a + 1 < top_low:
                return a                     # somebody surely shows more
        if can_charge and low_a + 1 >= top_mean:
            return CHARGE                    # spare itself (PS-10)
        return low_a
    # keep the low shots for the bare rounds: the highest shot some rival surely beats, else
    # the lowest
    for a in range(SHOTS - 1, -1, -1):
        if legal[a] and a + 1 < top_low:
            return a
    return low_a


PLAYERS = {
    "steward": Strategy("heldout-steward", fn=steward,
                        doc="samples the rivals' cards and weighs merits, damage, routing and "
                            "both endings (PS-15/16) round by round"),
    "jackal": Strategy("heldout-jackal", fn=jackal,
                       doc="reads the rivals' hands as ranges: snipes sure merits while a "
                           "victory is likely, else ducks to rout a rival with no charge card"),
}

# Search ranges of the knobs for heldout.tune: one (lo, hi) per params index, the value added
# to the default, each range holding 0 (the player as described). Counts are read with int(),
# which truncates towards zero.
KNOBS = {
    "steward": [(-0.5, 1.0),          # base defeat hazard 0.25 .. 1.75
                (-0.6, 0.6),          # hazard per bare seat 0.3 .. 1.5
                (-1.0, 1.5),          # logistic slope 0.5 .. 3.0
                (-0.6, 0.6),          # cost of holding no charge card 0.2 .. 1.4
                (-0.01, 0.03)],       # worth of a pip kept in hand 0 .. 0.04
    "jackal": [(-3.0, 3.0),           # victory mode at legions left <= 0 .. 4 (int)
               (-2.0, 2.0),           # charge cards kept before shedding: 0 .. 2 (int)
               (-4.0, 4.0),           # shedding: mean total + its top shot <= strength - gap
               (-1.0, 2.0),           # sniping edge over the rivals' means: 0 .. 3
               (-2.0, 3.0),           # stop chasing merits at a score lead of 0 .. 3 (int)
               (-2.0, 3.0)],          # sheds with a shot up to this below the rivals' top
}
