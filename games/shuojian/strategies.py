"""Shuo Jian (說劍) strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int           what is asked (games.shuojian.layout D.*):
                             D.ATTACK lead: an index into obs.plays | D.REPLY reply: an index
                             into obs.plays, or len(obs.plays) = pass when the rules allow a
                             voluntary pass (OP-13; legal[len(obs.plays)] says so) | D.FOLLOW
                             after the opponent passed: FOLLOW.NONE, FOLLOW.SLASH, FOLLOW.THRUST |
                             D.ANSWER answer the blow pub[P.BLOW] (CARD.SLASH, CARD.THRUST, or
                             CARD.COUNTER = a right Counter-kill): ANSWER.LEFT, ANSWER.RIGHT
                             (dodges), ANSWER.COUNTER | D.GUESS the number 0..9 named for a
                             Counter-kill
      seat     int           0 or 1
      obs      Observation   (games.shuojian.kernel.Observation)
        obs.pub   int64[...]    the public state (layout P.*; per seat P.SEATS + seat *
                                SEAT_STRIDE + S.*: hand size, square, numbers named wrongly /
                                rightly for its swordsman): the play to answer, the table and
                                the discards as counts per card type, the cards known to be in
                                each hand (taken from the table), the mat, and the static type
                                table (P.TYPES) and condition table (P.CONDITIONS). Read only.
        obs.mine  int64[...]    this seat's private row (layout H.*): hand as counts per card
                                type (H.HAND + t), number cards in hand, own swordsman (H.SWORD,
                                -1 when OP-15 hides it). mine[H.MEMORY:] is the strategy's own
                                scratch memory (zeroed every game); the rest is read only.
        obs.plays int64[n, 5]   D.ATTACK / D.REPLY: the legal plays (layout PL.*: tens card
                                type, units card type or -1, number, action, conditions
                                imposed); empty for the other decisions
      legal    bool[k]       legal[a]: action a is allowed. Never all false; a single legal
                             action is taken without asking.
      params   float64[128]  this seat's parameters
      rng      uint64[1]     this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int           an index with legal[action] true

A strategy never sees the opponent's hand, swordsman or the deck order: only the opponent's hand
size, the cards it took from the table, the cards played and discarded, and the mat. The engine
answers ``random`` and scripted seats itself (``script`` below builds a script).
"""
import numpy as np
from numba import njit

from sim.bits import popcount
from sim.rng import choose_legal, rand_below
from games.shuojian.layout import (ACT, ALL_NUMBERS, ANSWER, CARD, CONDITION_WORDS, D,
                                 FIRST_NUMBER, FOLLOW, MAX_TYPES, N_STRATEGY_PARAMS, SEAT_STRIDE,
                                 TYPE_FIELDS, H, P, PL, S, TY)
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script

THRIFTY, COUNTING = 1, 2
PASS_CODE = -1            # scripts: a voluntary pass
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@inline
def looseness(pub, conds):
    """How many numbers 1..99 pass the conditions in bitmask `conds` (99 = no condition)."""
    lo, hi = allowed_masks(pub, conds)
    return popcount(lo & ~1) + popcount(hi)


@jit
def thrifty_play(pub, plays, legal):
    """Keep the hand small: the play that sheds the most cards; among those, the one whose
    conditions leave the fewest numbers to answer with; then the lowest number (the cheapest
    that does the job). Never a voluntary pass."""
    best, pick = -1e18, 0
    for i in range(plays.shape[0]):
        if not legal[i]:
            continue
        cards = 2 if plays[i, PL.UNITS] >= 0 else 1
        score = 1000.0 * cards - looseness(pub, plays[i, PL.CONDS]) - 0.01 * plays[i, PL.NUMBER]
        if score > best:
            best, pick = score, i
    return pick


@jit
def best_guess(pub, mine, seat, rng, counting):
    """The number to name for the opponent's swordsman and its chance of being right. Counting:
    the value with the most unseen copies; otherwise uniform over the numbers not yet ruled
    out. Numbers named wrongly before are ruled out; a number named rightly is certain."""
    opp = 1 - seat
    known = pub[P.SEATS + opp * SEAT_STRIDE + S.KNOWN]
    if known >= 0:
        return known, 1.0
    wrong = pub[P.SEATS + opp * SEAT_STRIDE + S.WRONG]
    left = 0
    for v in range(10):
        left += (wrong >> v) & 1 == 0
    if not counting:
        k = rand_below(rng, 0, max(left, 1))
        for v in range(10):
            if (wrong >> v) & 1 == 0:
                if k == 0:
                    return v, 1.0 / left
                k -= 1
        return 0, 0.1
    total, best, pick = 0.0, -1.0, 0
    for v in range(10):
        if (wrong >> v) & 1:
            continue
        n = 0.0
        for t in range(FIRST_NUMBER, pub[P.N_TYPES]):
            if pub[P.TYPES + t * TYPE_FIELDS + TY.VALUE] == v:
                n += pub[P.TYPES + t * TYPE_FIELDS + TY.COPIES] - mine[H.HAND + t] - \
                    pub[P.TABLE + t] - pub[P.DISCARD + t] - pub[P.SEEN + t] - \
                    pub[P.SEEN + MAX_TYPES + t]
        if mine[H.SWORD_VALUE] == v:
            n -= 1.0
        n = max(n, 0.0)
        total += n
        if n > best:
            best, pick = n, v
    return pick, (best / total if total > 0 else 0.0)


@jit
def heuristic(decision, seat, pub, mine, plays, legal, threshold, rng, counting):
    """THRIFTY and COUNTING: the same plays (thrifty_play) and follow-ups; they differ in the
    Counter-kill: COUNTING names the most probable number by counting cards and counter-kills
    when that number is right with probability >= threshold (params[0]); THRIFTY names a number
    at random and counter-kills only when it has no dodge that keeps it alive."""
    if decision == D.ATTACK or decision == D.REPLY:
        return thrifty_play(pub, plays, legal)
    if decision == D.FOLLOW:  # a Thrust cannot be countered (SJ-12): it comes first
        if legal[FOLLOW.THRUST]:
            return FOLLOW.THRUST
        if legal[FOLLOW.SLASH]:
            return FOLLOW.SLASH
        return FOLLOW.NONE
    if decision == D.GUESS:
        guess, _ = best_guess(pub, mine, seat, rng, counting)
        return guess
    # D.ANSWER: a dodge that finds a square (SJ-9), unless a Counter-kill is worth it
    pos = pub[P.SEATS + seat * SEAT_STRIDE + S.POS]
    safe = ANSWER.LEFT if pos == 1 else ANSWER.RIGHT
    if legal[ANSWER.COUNTER] and counting:
        _, chance = best_guess(pub, mine, seat, rng, counting)
        if chance >= threshold:
            return ANSWER.COUNTER
    if legal[safe]:
        return safe
    if legal[ANSWER.COUNTER]:
        return ANSWER.COUNTER
    return choose_legal(legal, rng, 0)


@inline
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == THRIFTY or kind == COUNTING:
        return heuristic(decision, seat, obs.pub, obs.mine, obs.plays, legal, params[0], rng,
                         kind == COUNTING)
    return -1


# --- features of the trained policy (sim/core/policy.py) -------------------------------------
# One row of phi per legal action; the slots mean different things per decision type (each type
# has its own weight row). Slots 0 and 1 in every type: "counter / thrifty would play this", so
# weight 1 on slot 0 and 0 elsewhere plays exactly counter (START_WEIGHTS: training starts from
# the best heuristic and learns where to depart from it). Everything is read from the
# observation: the public state (hand sizes, table, discards, the cards known to be in the
# opponent's hand, the mat) and the seat's own row (its hand, its swordsman). A reply lists
# hundreds of plays (ask_all), so a play's features cost a few bit operations: what the
# opponent may answer with is counted once per decision, by (action, value), packed in integers.

N_FEATURES = 12
COUNTER_PICK, THRIFTY_PICK = 0, 1
COUNTER_THRESHOLD = 0.3   # counter's params[0]
BITS = 6                  # unseen copies per (action, value), packed 6 bits a value (<= 63)


@inline
def range_count(lo, hi, a, b):
    """How many numbers in a..b the masks lo (0..49) and hi (50..99) allow."""
    n = 0
    if a > b:
        return 0
    if a <= 49:
        top = min(b, 49)
        n += popcount(lo & ((1 << (top + 1)) - 1) & ~((1 << a) - 1))
    if b >= 50:
        a2, b2 = max(a, 50) - 50, b - 50
        n += popcount(hi & ((1 << (b2 + 1)) - 1) & ~((1 << a2) - 1))
    return n


@inline
def allowed_masks(pub, conds):
    """The numbers 0..99 the conditions in bitmask `conds` allow (SJ-6), as two 50-bit words."""
    lo, hi = ALL_NUMBERS, ALL_NUMBERS
    c = 0
    while conds:
        if conds & 1:
            lo &= pub[P.CONDITIONS + c * CONDITION_WORDS]
            hi &= pub[P.CONDITIONS + c * CONDITION_WORDS + 1]
        conds >>= 1
        c += 1
    return lo, hi


@inline
def unseen(pub, mine, opp, t):
    """Copies of card type t this seat cannot place: in the deck, in the opponent's hand
    beyond the cards it is known to hold (taken from the table, OP-16), or its swordsman."""
    n = pub[P.TYPES + t * TYPE_FIELDS + TY.COPIES] - mine[H.HAND + t] - pub[P.TABLE + t] - \
        pub[P.DISCARD + t] - pub[P.SEEN + opp * MAX_TYPES + t]
    if mine[H.SWORD] == t:
        n -= 1
    return max(n, 0)


@jit
def opponent_odds(pub, mine, opp):
    """The chance that one unseen card is in the opponent's hand: its cards not known to be
    there over every card this seat cannot place (public hand size, SJ-13 discards, OP-16)."""
    known, pool = 0, 0
    for t in range(pub[P.N_TYPES]):
        known += pub[P.SEEN + opp * MAX_TYPES + t]
        pool += unseen(pub, mine, opp, t)
    hidden = pub[P.SEATS + opp * SEAT_STRIDE + S.HAND] - known
    return max(hidden, 0) / pool if pool > 0 else 0.0


@inline
def holds(pub, mine, opp, t, odds):
    """The opponent's expected copies of card type t (1 when it is known to hold one), at most 1."""
    if pub[P.SEEN + opp * MAX_TYPES + t] > 0:
        return 1.0
    return min(unseen(pub, mine, opp, t) * odds, 1.0)


@jit
def features(decision, seat, obs, legal, rng, phi):
    """What the trained policy weighs for each legal action (see the slots below). counter's
    choice is asked first with counter's parameters, then thrifty's where they differ (the
    Counter-kill: answer and guess), so each draws from this seat's streams as it would."""
    pub, mine, plays = obs.pub, obs.mine, obs.plays
    opp = 1 - seat
    n = legal.shape[0]
    for a in range(n):
        for f in range(N_FEATURES):
            phi[a, f] = 0.0
    if decision == D.ATTACK or decision == D.REPLY:  # SJ-4..SJ-7: play plays[a], or pass
        odds = opponent_odds(pub, mine, opp)
        # the opponent's one-card replies by (action, value 1..9): unseen copies and the
        # copies it is known to hold (a 0 never plays alone, SJ-4)
        packed_s, packed_w, known_s, known_w = 0, 0, 0, 0
        for t in range(FIRST_NUMBER, pub[P.N_TYPES]):
            v = pub[P.TYPES + t * TYPE_FIELDS + TY.VALUE]
            act = pub[P.TYPES + t * TYPE_FIELDS + TY.ACTION]
            if v <= 0 or act == ACT.ZERO:
                continue
            u = unseen(pub, mine, opp, t)
            k = 1 if pub[P.SEEN + opp * MAX_TYPES + t] > 0 else 0
            if act == ACT.STRAIGHT:
                old = (packed_s >> (BITS * v)) & 63
                packed_s += min(u, 63 - old) << (BITS * v)
                known_s |= k << v
            else:
                old = (packed_w >> (BITS * v)) & 63
                packed_w += min(u, 63 - old) << (BITS * v)
                known_w |= k << v
        best, pick = -1e18, 0
        numbers = mine[H.NUMBERS]
        for i in range(plays.shape[0]):
            if not legal[i]:
                continue
            two = plays[i, PL.UNITS] >= 0
            cards = 2 if two else 1
            number, act = plays[i, PL.NUMBER], plays[i, PL.ACTION]
            lo, hi = allowed_masks(pub, plays[i, PL.CONDS])
            loose = popcount(lo & ~1) + popcount(hi)
            score = 1000.0 * cards - loose - 0.01 * number   # thrifty_play's score
            if score > best:
                best, pick = score, i
            # replies to this play (SJ-5, SJ-6): same action greater, the other at most equal
            same_p = packed_s if act == ACT.STRAIGHT else packed_w
            other_p = packed_w if act == ACT.STRAIGHT else packed_s
            same_k = known_s if act == ACT.STRAIGHT else known_w
            other_k = known_w if act == ACT.STRAIGHT else known_s
            single, known = 0, 0
            for v in range(1, 10):
                if (lo >> v) & 1 == 0:
                    continue
                if v > number:
                    single += (same_p >> (BITS * v)) & 63
                    known |= (same_k >> v) & 1
                else:
                    single += (other_p >> (BITS * v)) & 63
                    known |= (other_k >> v) & 1
            phi[i, 2] = cards - 1.0                      # sheds two cards (SJ-14: fewer wins)
            phi[i, 3] = loose / 99.0                     # numbers its conditions let through
            phi[i, 4] = number / 99.0
            phi[i, 5] = min(single * odds, 3.0) / 3.0    # the opponent's expected one-card replies
            phi[i, 6] = known                            # a card it is known to hold replies
            phi[i, 7] = range_count(lo, hi, max(number + 1, 10), 99) / 90.0  # two-card replies,
            phi[i, 8] = range_count(lo, hi, 10, number) / 90.0               # same / other action
            if two and pub[P.TYPES + plays[i, PL.UNITS] * TYPE_FIELDS + TY.VALUE] == 0:
                phi[i, 9] = 1.0                          # spends a 0 (either action, SJ-4)
            if numbers - cards == 0:
                phi[i, 11] = 1.0                         # no number card left to reply with
        if plays.shape[0] > 0:
            phi[pick, COUNTER_PICK] = 1.0
            phi[pick, THRIFTY_PICK] = 1.0
        if n > plays.shape[0] and legal[plays.shape[0]]:
            phi[plays.shape[0], 10] = 1.0                # a voluntary pass (OP-13, SJ-7)
        return
    pick_c = heuristic(decision, seat, pub, mine, plays, legal, COUNTER_THRESHOLD, rng, True)
    pick_t = pick_c
    if decision == D.ANSWER or decision == D.GUESS:
        pick_t = heuristic(decision, seat, pub, mine, plays, legal, 1.0, rng, False)
    for a in range(n):
        if legal[a]:
            phi[a, COUNTER_PICK] = 1.0 if a == pick_c else 0.0
            phi[a, THRIFTY_PICK] = 1.0 if a == pick_t else 0.0
    if decision == D.FOLLOW:  # SJ-8 Slash, SJ-12 Thrust (facing only; no Counter-kill)
        odds = opponent_odds(pub, mine, opp)
        opp_pos = pub[P.SEATS + opp * SEAT_STRIDE + S.POS]
        dodge = holds(pub, mine, opp, CARD.DODGE_LEFT if opp_pos == 1 else CARD.DODGE_RIGHT, odds)
        wrong = pub[P.SEATS + seat * SEAT_STRIDE + S.WRONG]
        right = 1.0 if pub[P.SEATS + seat * SEAT_STRIDE + S.KNOWN] >= 0 else \
            1.0 / max(10 - popcount(wrong), 1)
        counter = holds(pub, mine, opp, CARD.COUNTER, odds) * right   # SJ-11 against my Slash
        late = 1.0 - min(pub[P.DECK], 40) / 40.0
        for a in range(1, 3):
            if legal[a]:
                phi[a, 2] = 1.0 if a == FOLLOW.SLASH else 0.0
                phi[a, 3] = 1.0 if a == FOLLOW.THRUST else 0.0
                phi[a, 4] = dodge                        # it dodges (SJ-9), I draw again (SJ-10)
                phi[a, 5] = counter if a == FOLLOW.SLASH else 0.0
                phi[a, 6] = late                         # one card fewer near the deck-out (SJ-14)
    elif decision == D.ANSWER:  # SJ-9 dodges, SJ-11 Counter-kill
        pos = pub[P.SEATS + seat * SEAT_STRIDE + S.POS]
        safe = ANSWER.LEFT if pos == 1 else ANSWER.RIGHT
        for a in range(2):
            if legal[a]:
                phi[a, 2] = 1.0 if a == safe else 0.0
                phi[a, 3] = 0.0 if a == safe else 1.0    # a void dodge loses (SJ-9)
                if a == safe:
                    phi[a, 7] = 1.0 if mine[H.HAND + CARD.DODGE_LEFT + a] > 1 else 0.0
        if legal[ANSWER.COUNTER]:
            _, chance = best_guess(pub, mine, seat, rng, True)
            phi[ANSWER.COUNTER, 4] = 1.0
            phi[ANSWER.COUNTER, 5] = chance
            phi[ANSWER.COUNTER, 6] = 1.0 if mine[H.HAND + CARD.DODGE_LEFT + safe] > 0 else 0.0
    elif decision == D.GUESS:  # SJ-11: name the striker's swordsman
        wrong = pub[P.SEATS + opp * SEAT_STRIDE + S.WRONG]
        total = 0.0
        for v in range(10):
            c = 0.0
            for t in range(FIRST_NUMBER, pub[P.N_TYPES]):
                if pub[P.TYPES + t * TYPE_FIELDS + TY.VALUE] == v:
                    c += unseen(pub, mine, opp, t)
            phi[v, 2] = c
            total += c
        for v in range(10):
            phi[v, 2] = phi[v, 2] / total if total > 0 else 0.1
            phi[v, 3] = 1.0 if (wrong >> v) & 1 else 0.0    # named wrongly before


# The weights each decision type's features fill (training moves only these), and the start.
_USED = {D.ATTACK: (2, 3, 4, 5, 6, 7, 8, 9, 11), D.REPLY: (2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
         D.FOLLOW: (2, 3, 4, 5, 6), D.ANSWER: (2, 3, 4, 5, 6, 7), D.GUESS: (2, 3)}
TRAINABLE = np.array([[f in _USED[d] for f in range(N_FEATURES)] for d in range(len(D))])
START_WEIGHTS = np.zeros((len(D), N_FEATURES))
START_WEIGHTS[:, COUNTER_PICK] = 1.0


BUILTINS = {
    "random": RANDOM_PLAYER,
    "thrifty": Strategy("thrifty", builtin=THRIFTY, params=(1.0,),
                        doc="keeps its hand small: sheds two cards when it can, with the "
                            "harshest conditions for the reply, lowest number first; always "
                            "follows up (Thrust first); dodges to a free square"),
    "counter": Strategy("counter", builtin=COUNTING, params=(0.3,),
                        doc="thrifty, but counts cards: names the most probable swordsman number "
                            "and counter-kills when it is right with probability >= params[0]"),
}

DECISION_CODES = {"attack": D.ATTACK, "reply": D.REPLY, "follow": D.FOLLOW, "answer": D.ANSWER,
                  "guess": D.GUESS}
ACTION_CODES = {"none": FOLLOW.NONE, "slash": FOLLOW.SLASH, "thrust": FOLLOW.THRUST,
                "left": ANSWER.LEFT, "right": ANSWER.RIGHT, "counter": ANSWER.COUNTER}
MAX_SCRIPT_STEPS = (N_STRATEGY_PARAMS - 1) // 2   # sim.strategy.script: a count, then pairs


def script_code(play: str) -> int:
    """'V35' (straight 35), 'H8' (sweep 8) or 'pass' as a script code: the kernel's
    script_action resolves it against the listed plays (action * 100 + number)."""
    text = play.strip().upper()
    if text == "PASS":
        return PASS_CODE
    if text[:1] not in ("V", "H") or not text[1:].isdigit():
        raise ValueError(f"{play!r} is not a play; write V<number> (straight) or H<number> (sweep)")
    return (0 if text[0] == "V" else 1) * 100 + int(text[1:])


def script(*steps) -> Strategy:
    """A seat that answers the given decisions in order, e.g.
    ``script(("attack", "V35"), ("reply", "H8"), ("follow", "slash"), ("answer", "left"),
    ("guess", 7))``; any decision that does not match the next step gets its lowest legal action.
    Decisions with a single legal action are never asked, so they are not scripted."""
    pairs = []
    for decision, value in steps:
        code = DECISION_CODES[decision] if isinstance(decision, str) else int(decision)
        if code in (D.ATTACK, D.REPLY) and isinstance(value, str):
            value = script_code(value)
        elif isinstance(value, str):
            value = ACTION_CODES[value.lower()]
        pairs.append((code, int(value)))
    if len(pairs) > MAX_SCRIPT_STEPS:
        raise ValueError(f"a script holds at most {MAX_SCRIPT_STEPS} steps, got {len(steps)}")
    return sim_script(pairs)
