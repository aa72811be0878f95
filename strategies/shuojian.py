"""Shuo Jian (說劍) strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int           what is asked (sim.shuojian.layout D.*):
                             D.ATTACK lead: an index into obs.plays | D.REPLY reply: an index
                             into obs.plays, or len(obs.plays) = pass when the rules allow a
                             voluntary pass (OP-13; legal[len(obs.plays)] says so) | D.FOLLOW
                             after the opponent passed: FOLLOW.NONE, FOLLOW.SLASH, FOLLOW.THRUST |
                             D.ANSWER answer the blow pub[P.BLOW] (CARD.SLASH, CARD.THRUST, or
                             CARD.COUNTER = a right Counter-kill): ANSWER.LEFT, ANSWER.RIGHT
                             (dodges), ANSWER.COUNTER | D.GUESS the number 0..9 named for a
                             Counter-kill
      seat     int           0 or 1
      obs      Observation   (sim.shuojian.kernel.Observation)
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
from numba import njit

from sim.bits import popcount
from sim.rng import choose_legal, rand_below
from sim.shuojian.layout import (ALL_NUMBERS, ANSWER, CONDITION_WORDS, D, FIRST_NUMBER, FOLLOW,
                                 MAX_TYPES, N_STRATEGY_PARAMS, SEAT_STRIDE, TYPE_FIELDS, H, P, PL,
                                 S, TY)
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script

THRIFTY, COUNTING = 1, 2
PASS_CODE = -1            # scripts: a voluntary pass
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@inline
def looseness(pub, conds):
    """How many numbers 1..99 pass the conditions in bitmask `conds` (99 = no condition)."""
    lo, hi = ALL_NUMBERS, ALL_NUMBERS
    c = 0
    while conds:
        if conds & 1:
            lo &= pub[P.CONDITIONS + c * CONDITION_WORDS]
            hi &= pub[P.CONDITIONS + c * CONDITION_WORDS + 1]
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
def heuristic(decision, seat, pub, mine, plays, legal, params, rng, counting):
    """THRIFTY and COUNTING: the same plays (thrifty_play) and follow-ups; they differ in the
    Counter-kill: COUNTING names the most probable number by counting cards and counter-kills
    when that number is right with probability >= params[0]; THRIFTY names a number at random
    and counter-kills only when it has no dodge that keeps it alive."""
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
        if chance >= params[0]:
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
        return heuristic(decision, seat, obs.pub, obs.mine, obs.plays, legal, params, rng,
                         kind == COUNTING)
    return -1


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
