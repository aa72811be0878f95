"""Shuo Jian (說劍) strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function)::

    strategy(decision, seat, pub, mine, plays, legal, params, rng) -> action
      decision int           what is asked (sim.shuojian.layout D_*):
                             D_ATTACK lead: an index into plays | D_REPLY reply: an index into
                             plays, or len(plays) = pass when the rules allow a voluntary pass
                             (OP-13; legal[len(plays)] says so) | D_FOLLOW after the opponent
                             passed: NO_FOLLOW, FOLLOW_SLASH, FOLLOW_THRUST | D_ANSWER answer the
                             blow pub[P_BLOW] (SLASH, THRUST, or COUNTER = a right Counter-kill):
                             ANSWER_LEFT, ANSWER_RIGHT (dodges), ANSWER_COUNTER | D_GUESS the
                             number 0..9 named for a Counter-kill
      seat     int           0 or 1
      pub      int64[...]    the public state (layout P_*; per seat P_SEATS + seat * SEAT_STRIDE
                             + S_*: hand size, square, numbers named wrongly / rightly for its
                             swordsman): the play to answer, the table and the discards as counts
                             per card type, the cards known to be in each hand (taken from the
                             table), the mat, and the static type table (P_TYPES) and condition
                             table (P_CONDITIONS). Read only.
      mine     int64[...]    this seat's private row: hand as counts per card type (H_HAND + t),
                             number cards in hand, own swordsman (H_SWORD, -1 when OP-15 hides
                             it). mine[H_MEMORY:] is the strategy's own scratch memory (zeroed
                             every game); the rest is read only.
      plays    int64[n, 5]   D_ATTACK / D_REPLY: the legal plays (layout PL_*: tens card type,
                             units card type or -1, number, action, conditions imposed); empty
                             for the other decisions
      legal    bool[k]       legal[a]: action a is allowed. Never all false; a single legal
                             action is taken without asking.
      params   float64[128]  this seat's parameters
      rng      uint64[1]     this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int           an index with legal[action] true

A strategy never sees the opponent's hand, swordsman or the deck order: only the opponent's hand
size, the cards it took from the table, the cards played and discarded, and the mat.
"""
import numpy as np
from numba import njit

from sim.bits import popcount
from sim.rng import choose_legal, rand_below
from sim.shuojian.layout import (
    ALL_NUMBERS, ANSWER_COUNTER, ANSWER_LEFT, ANSWER_RIGHT, CONDITION_WORDS, D_ANSWER,
    D_ATTACK, D_FOLLOW, D_GUESS, D_REPLY, FIRST_NUMBER, FOLLOW_SLASH, FOLLOW_THRUST, H_HAND,
    H_MEMORY, H_SWORD_VALUE, MAX_TYPES, NO_FOLLOW, N_STRATEGY_PARAMS, PL_ACTION, PL_CONDS,
    PL_NUMBER, PL_UNITS, P_BLOW, P_CONDITIONS, P_DISCARD, P_N_TYPES, P_SEATS, P_SEEN, P_TABLE,
    P_TYPES, SEAT_STRIDE, S_KNOWN, S_POS, S_WRONG, TY_COPIES, TY_VALUE, TYPE_FIELDS)
from sim.strategy import Strategy

RANDOM, THRIFTY, COUNTING, SCRIPT = 0, 1, 2, 9
PASS_CODE = -1            # scripts: a voluntary pass
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@inline
def random_play(decision, seat, pub, mine, plays, legal, params, rng):
    """Uniformly random legal action (plays and guesses are all legal: no scan needed)."""
    if decision == D_ATTACK or decision == D_REPLY or decision == D_GUESS:
        return rand_below(rng, 0, legal.shape[0])
    return choose_legal(legal, rng, 0)


@inline
def looseness(pub, conds):
    """How many numbers 1..99 pass the conditions in bitmask `conds` (99 = no condition)."""
    lo, hi = ALL_NUMBERS, ALL_NUMBERS
    c = 0
    while conds:
        if conds & 1:
            lo &= pub[P_CONDITIONS + c * CONDITION_WORDS]
            hi &= pub[P_CONDITIONS + c * CONDITION_WORDS + 1]
        conds >>= 1
        c += 1
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
        cards = 2 if plays[i, PL_UNITS] >= 0 else 1
        score = 1000.0 * cards - looseness(pub, plays[i, PL_CONDS]) - 0.01 * plays[i, PL_NUMBER]
        if score > best:
            best, pick = score, i
    return pick


@jit
def best_guess(pub, mine, seat, rng, counting):
    """The number to name for the opponent's swordsman and its chance of being right. Counting:
    the value with the most unseen copies; otherwise uniform over the numbers not yet ruled
    out. Numbers named wrongly before are ruled out; a number named rightly is certain."""
    opp = 1 - seat
    known = pub[P_SEATS + opp * SEAT_STRIDE + S_KNOWN]
    if known >= 0:
        return known, 1.0
    wrong = pub[P_SEATS + opp * SEAT_STRIDE + S_WRONG]
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
        for t in range(FIRST_NUMBER, pub[P_N_TYPES]):
            if pub[P_TYPES + t * TYPE_FIELDS + TY_VALUE] == v:
                n += pub[P_TYPES + t * TYPE_FIELDS + TY_COPIES] - mine[H_HAND + t] - \
                    pub[P_TABLE + t] - pub[P_DISCARD + t] - pub[P_SEEN + t] - \
                    pub[P_SEEN + MAX_TYPES + t]
        if mine[H_SWORD_VALUE] == v:
            n -= 1.0
        n = max(n, 0.0)
        total += n
        if n > best:
            best, pick = n, v
    return pick, (best / total if total > 0 else 0.0)


@jit
def heuristic(decision, seat, pub, mine, plays, legal, params, rng, counting):
    """THRIFTY and COUNTING: the same plays (thrifty_play) and follow-ups; they differ in the
    Counter-kill: COUNTING names the most probable number by counting cards and counter-kills
    when that number is right with probability >= params[0]; THRIFTY names a number at random
    and counter-kills only when it has no dodge that keeps it alive."""
    if decision == D_ATTACK or decision == D_REPLY:
        return thrifty_play(pub, plays, legal)
    if decision == D_FOLLOW:  # a Thrust cannot be countered (SJ-12): it comes first
        if legal[FOLLOW_THRUST]:
            return FOLLOW_THRUST
        if legal[FOLLOW_SLASH]:
            return FOLLOW_SLASH
        return NO_FOLLOW
    if decision == D_GUESS:
        guess, _ = best_guess(pub, mine, seat, rng, counting)
        return guess
    # D_ANSWER: a dodge that finds a square (SJ-9), unless a Counter-kill is worth it
    pos = pub[P_SEATS + seat * SEAT_STRIDE + S_POS]
    safe = ANSWER_LEFT if pos == 1 else ANSWER_RIGHT
    if legal[ANSWER_COUNTER] and counting:
        _, chance = best_guess(pub, mine, seat, rng, counting)
        if chance >= params[0]:
            return ANSWER_COUNTER
    if legal[safe]:
        return safe
    if legal[ANSWER_COUNTER]:
        return ANSWER_COUNTER
    return choose_legal(legal, rng, 0)


@jit
def scripted(decision, seat, pub, mine, plays, legal, params, rng):
    """Plays the (decision, code) pairs in params in order. For D_ATTACK / D_REPLY the code is
    action * 100 + number (action 0 straight, 1 sweep; script_code("V35")), the first listed play
    with that number and action; PASS_CODE = a voluntary pass. Other decisions: the action
    itself. A decision that does not match the next pair gets its lowest legal action. The
    position is kept in mine[H_MEMORY]."""
    pos = int(mine[H_MEMORY])
    if 2 * pos + 1 < params.shape[0] and params[2 * pos] == decision:
        code = int(params[2 * pos + 1])
        mine[H_MEMORY] = pos + 1
        if decision == D_ATTACK or decision == D_REPLY:
            if code == PASS_CODE:
                return plays.shape[0]
            for i in range(plays.shape[0]):
                if plays[i, PL_ACTION] * 100 + plays[i, PL_NUMBER] == code:
                    return i
            return -1  # a script asking for a play that is not legal: an error, as it should
        return code
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


@inline
def builtin_decide(kind, decision, seat, pub, mine, plays, legal, params, rng):
    if kind == RANDOM:
        return random_play(decision, seat, pub, mine, plays, legal, params, rng)
    if kind == THRIFTY or kind == COUNTING:
        return heuristic(decision, seat, pub, mine, plays, legal, params, rng, kind == COUNTING)
    return scripted(decision, seat, pub, mine, plays, legal, params, rng)


BUILTINS = {
    "random": Strategy("random", builtin=RANDOM, doc="uniformly random legal action"),
    "thrifty": Strategy("thrifty", builtin=THRIFTY, params=(1.0,),
                        doc="keeps its hand small: sheds two cards when it can, with the "
                            "harshest conditions for the reply, lowest number first; always "
                            "follows up (Thrust first); dodges to a free square"),
    "counter": Strategy("counter", builtin=COUNTING, params=(0.3,),
                        doc="thrifty, but counts cards: names the most probable swordsman number "
                            "and counter-kills when it is right with probability >= params[0]"),
}

DECISION_CODES = {"attack": D_ATTACK, "reply": D_REPLY, "follow": D_FOLLOW, "answer": D_ANSWER,
                  "guess": D_GUESS}
ACTION_CODES = {"none": NO_FOLLOW, "slash": FOLLOW_SLASH, "thrust": FOLLOW_THRUST,
                "left": ANSWER_LEFT, "right": ANSWER_RIGHT, "counter": ANSWER_COUNTER}


def script_code(play: str) -> int:
    """'V35' (straight 35), 'H8' (sweep 8) or 'pass' as a script code."""
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
    flat = []
    for decision, value in steps:
        code = DECISION_CODES[decision] if isinstance(decision, str) else int(decision)
        if code in (D_ATTACK, D_REPLY) and isinstance(value, str):
            value = script_code(value)
        elif isinstance(value, str):
            value = ACTION_CODES[value.lower()]
        flat += [float(code), float(value)]
    if len(flat) > N_STRATEGY_PARAMS:
        raise ValueError(f"a script holds at most {N_STRATEGY_PARAMS // 2} steps, got {len(steps)}")
    return Strategy("script", builtin=SCRIPT,
                    params=tuple(flat + [-9.0] * (N_STRATEGY_PARAMS - len(flat))))
