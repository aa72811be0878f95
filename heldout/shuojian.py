"""Held-out Shuo Jian players, written from shared/rules/shuo_jian.md (never trained against: see
heldout/__init__.py). Rule ids SJ-n and OP-n are the brief's.

- ``tracker``: a card counter. It keeps the count of every card it has not seen (in no hand it
  knows of, not on the table, not discarded, not its own swordsman) and from it estimates the
  chance that the opponent, after its draw, holds no legal reply (SJ-5, SJ-6) to each of its own
  possible plays, and plays for that chance: a pass (SJ-7) is mostly followed by a Slash that
  ends the game. Between plays equally likely to stick it sheds one card, not two: a card kept
  is one more way to answer. It names the most probable swordsman number (SJ-11) and spends its
  Counter-kill only when that guess is likely enough or no dodge is left; it follows up every
  pass (SJ-8: the follow-up costs nothing), with the Thrust while the opponent may still hold
  the Counter-kill (SJ-12).
- ``aggressor``: sheds cards as fast as it can: two cards a play whenever it may, the play that
  leaves the opponent the fewest numbers to answer with; every pass is followed up at once
  (Thrust when the swordsmen face each other, else Slash), and a Counter-kill is played the
  first time a Slash comes.

Knobs (``params``): params[i] is added to knob i's default, so all zeros is the player as
described (a seat from the command line gets zeros). ``PLAYERS`` seats them with their names;
``KNOBS`` gives each knob's search range for ``heldout.tune``.
"""
import numpy as np
from numba import njit

from games.shuojian.layout import (ACT, ANSWER, CARD, CONDITION_WORDS, D, FIRST_NUMBER, FOLLOW,
                                 MAX_TYPES, SEAT_STRIDE, TYPE_FIELDS, H, P, PL, S, TY)
from sim.strategy import Strategy

jit = njit  # not cached: a file seated as FILE.py:FUNCTION loads under another module name

ZERO_ROW = 2      # bucket row of the 0s (rows 0 and 1: straight and sweep, ACT.*)


# --- reading the table ----------------------------------------------------------------------

@jit
def seat_field(pub, seat, field):
    return pub[P.SEATS + seat * SEAT_STRIDE + field]


@jit
def type_field(pub, t, field):
    return pub[P.TYPES + t * TYPE_FIELDS + field]


@jit
def allowed(pub, conds, number):
    """Does ``number`` pass every condition in the bitmask ``conds`` (SJ-6, OP-3)?"""
    word, bit = number // 50, number % 50
    c = 0
    while conds >> c:
        if (conds >> c) & 1 and (pub[P.CONDITIONS + c * CONDITION_WORDS + word] >> bit) & 1 == 0:
            return False
        c += 1
    return True


@jit
def may_answer(pub, number, action, conds, reply, reply_action):
    """SJ-5 / SJ-6: may ``reply`` (of ``reply_action``) answer the play (number, action, conds)?"""
    if reply_action == action:
        if reply <= number:
            return False
    elif reply > number:
        return False
    return allowed(pub, conds, reply)


@jit
def unseen_cards(pub, mine, seat, numbers, specials):
    """The cards this seat has not seen anywhere: ``numbers[row, value]`` (row ACT.STRAIGHT,
    ACT.SWEEP or ZERO_ROW) and ``specials[type]`` of the finishing-blow cards. They are in the
    deck, in the unknown part of the opponent's hand, or its swordsman. Returns their total."""
    opp = 1 - seat
    numbers[:, :] = 0
    specials[:] = 0
    total = 0
    for t in range(pub[P.N_TYPES]):
        k = (type_field(pub, t, TY.COPIES) - mine[H.HAND + t] - pub[P.TABLE + t]
             - pub[P.DISCARD + t] - pub[P.SEEN + opp * MAX_TYPES + t])
        if mine[H.SWORD] == t:
            k -= 1
        k = max(k, 0)
        total += k
        if t < FIRST_NUMBER:
            specials[t] += k
        else:
            action = type_field(pub, t, TY.ACTION)
            numbers[ZERO_ROW if action == ACT.ZERO else action, type_field(pub, t, TY.VALUE)] += k
    return total


@jit
def known_in_opponent_hand(pub, seat, known):
    """The opponent's cards everyone saw it take from the table (SJ-7), by bucket."""
    opp = 1 - seat
    known[:, :] = 0
    count = 0
    for t in range(FIRST_NUMBER, pub[P.N_TYPES]):
        k = pub[P.SEEN + opp * MAX_TYPES + t]
        if k > 0:
            action = type_field(pub, t, TY.ACTION)
            known[ZERO_ROW if action == ACT.ZERO else action, type_field(pub, t, TY.VALUE)] += k
            count += k
    return count


@jit
def share_in_hand(pub, seat, unseen_total, known_count, extra):
    """The chance that one particular unseen card is in the opponent's hand (plus ``extra``
    cards it is about to draw): its unknown cards over the unseen ones (less its swordsman)."""
    unknown = seat_field(pub, 1 - seat, S.HAND) - known_count + extra
    pool = unseen_total - 1
    if pool <= 0:
        return 0.0
    return min(max(unknown / pool, 0.0), 1.0)


@jit
def at_least(k_known, k_unseen, q, copies):
    """P(the opponent holds at least ``copies`` of a bucket): known ones plus unseen ones, each
    in its hand with probability q."""
    need = copies - k_known
    if need <= 0:
        return 1.0
    none = (1.0 - q) ** k_unseen
    if need == 1:
        return 1.0 - none
    one = k_unseen * q * (1.0 - q) ** max(k_unseen - 1, 0)
    return max(1.0 - none - one, 0.0)


@jit
def chance_stuck(pub, number, action, conds, numbers, known, q):
    """P(the opponent has no legal reply to the play (number, action, conds)): every number card
    value of each action enables a reply alone (SJ-5) or as the tens digit of a pair with a card
    of its action or a 0 (SJ-4); the buckets are taken as independent."""
    stuck = 1.0
    p_zero = at_least(known[ZERO_ROW, 0], numbers[ZERO_ROW, 0], q, 1)
    for a in range(2):
        for v in range(1, 10):
            p_tens = at_least(known[a, v], numbers[a, v], q, 1)
            if p_tens == 0.0:
                continue
            if may_answer(pub, number, action, conds, v, a):
                stuck *= 1.0 - p_tens
                continue
            no_partner = 1.0
            for u in range(10):
                if not may_answer(pub, number, action, conds, 10 * v + u, a):
                    continue
                if u == 0:
                    p_unit = p_zero
                elif u == v:  # a second copy, given the first
                    p_unit = at_least(known[a, v], numbers[a, v], q, 2) / p_tens
                else:
                    p_unit = at_least(known[a, u], numbers[a, u], q, 1)
                no_partner *= 1.0 - p_unit
            stuck *= 1.0 - p_tens * (1.0 - no_partner)
    return stuck


@jit
def reply_room(pub, number, action, conds):
    """How many numbers 1..99 of either action may answer the play: a count of the open door."""
    room = 0
    for reply in range(1, 100):
        for a in range(2):
            if may_answer(pub, number, action, conds, reply, a):
                room += 1
    return room


@jit
def valid_dodge(pub, seat):
    """SJ-9: the only dodge that finds a square (0 = the owner's left, 1 = right)."""
    return ANSWER.LEFT if seat_field(pub, seat, S.POS) == 1 else ANSWER.RIGHT


@jit
def guess_swordsman(pub, seat, numbers):
    """SJ-11: the opponent's swordsman number: known once named rightly, else the value with the
    most unseen copies (the swordsman was drawn at random from the number cards, OP-6), never a
    number already named wrongly. Returns (number, its chance)."""
    opp = 1 - seat
    if seat_field(pub, opp, S.KNOWN) >= 0:
        return seat_field(pub, opp, S.KNOWN), 1.0
    wrong = seat_field(pub, opp, S.WRONG)
    best, pick, total = -1, 0, 0
    for v in range(10):
        if (wrong >> v) & 1:
            continue
        k = numbers[0, v] + numbers[1, v] + numbers[ZERO_ROW, v]
        total += k
        if k > best:
            best, pick = k, v
    return pick, (best / total if total > 0 else 0.0)


@jit
def first_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return 0


# --- the players ----------------------------------------------------------------------------

@jit
def tracker(decision, seat, obs, legal, params, rng):
    """Card counter.

    params (added to defaults): 0 worth of a card shed, against the chance that the opponent
    is stuck (-0.02: a card kept is one more way to answer), 1 chance of a right guess that earns
    a Counter-kill (0.34), 2 chance that the opponent holds no Counter-kill below which a Thrust
    is played rather than a Slash (1: whenever one might), 3 worth of each card the opponent
    would take from the table (0.1)."""
    pub, mine, plays = obs.pub, obs.mine, obs.plays
    numbers = np.zeros((3, 10), np.int64)
    specials = np.zeros(FIRST_NUMBER, np.int64)
    unseen = unseen_cards(pub, mine, seat, numbers, specials)
    if decision == D.ATTACK or decision == D.REPLY:
        known = np.zeros((3, 10), np.int64)
        known_count = known_in_opponent_hand(pub, seat, known)
        q = share_in_hand(pub, seat, unseen, known_count, 1)  # it draws before replying (SJ-5)
        table = pub[P.TABLE_CARDS]
        finisher = mine[H.HAND + CARD.SLASH] + mine[H.HAND + CARD.THRUST] > 0
        best, pick = -1e18, first_legal(legal)
        for i in range(plays.shape[0]):
            if not legal[i]:
                continue
            cards = 2 if plays[i, PL.UNITS] >= 0 else 1
            stuck = chance_stuck(pub, plays[i, PL.NUMBER], plays[i, PL.ACTION], plays[i, PL.CONDS],
                                 numbers, known, q)
            # stuck: it faces my follow-up (SJ-8; most games end there) and takes the table
            # with my cards (SJ-7); a card kept is one more way to answer the next play
            value = stuck * ((2.0 if finisher else 1.0) + (0.1 + params[3]) * (table + cards)) \
                + (-0.02 + params[0]) * cards
            value -= 0.001 * plays[i, PL.NUMBER]  # equal otherwise: keep the high cards
            if value > best:
                best, pick = value, i
        return pick
    if decision == D.FOLLOW:
        # a follow-up costs nothing (SJ-10's draw comes either way) and sheds a card; the
        # count only says which blow is likelier to land (a Thrust cannot be Counter-killed)
        q = share_in_hand(pub, seat, unseen, 0, 0)
        no_counter = (1.0 - q) ** specials[CARD.COUNTER]
        if legal[FOLLOW.THRUST] and (no_counter < 1.0 + params[2] or not legal[FOLLOW.SLASH]):
            return FOLLOW.THRUST  # SJ-12
        if legal[FOLLOW.SLASH]:
            return FOLLOW.SLASH
        return FOLLOW.NONE
    if decision == D.ANSWER:
        dodge = valid_dodge(pub, seat)
        if legal[ANSWER.COUNTER]:
            _, chance = guess_swordsman(pub, seat, numbers)
            if chance >= 0.34 + params[1] or not legal[dodge]:
                return ANSWER.COUNTER
        return dodge if legal[dodge] else first_legal(legal)
    if decision == D.GUESS:
        number, _ = guess_swordsman(pub, seat, numbers)
        return number
    return first_legal(legal)


@jit
def aggressor(decision, seat, obs, legal, params, rng):
    """Sheds two cards a play, the fewest answers left to the opponent; follows up every pass;
    Counter-kills at the first Slash.

    params (added to defaults): 0 weight of a card shed against the numbers left to answer
    with (100: shedding first)."""
    pub, mine, plays = obs.pub, obs.mine, obs.plays
    if decision == D.ATTACK or decision == D.REPLY:
        best, pick = -1e18, first_legal(legal)
        for i in range(plays.shape[0]):
            if not legal[i]:
                continue
            cards = 2 if plays[i, PL.UNITS] >= 0 else 1
            room = reply_room(pub, plays[i, PL.NUMBER], plays[i, PL.ACTION], plays[i, PL.CONDS])
            value = (100.0 + params[0]) * cards - room
            if value > best:
                best, pick = value, i
        return pick
    if decision == D.FOLLOW:
        if legal[FOLLOW.THRUST]:
            return FOLLOW.THRUST
        if legal[FOLLOW.SLASH]:
            return FOLLOW.SLASH
        return FOLLOW.NONE
    if decision == D.ANSWER:
        if legal[ANSWER.COUNTER]:
            return ANSWER.COUNTER
        dodge = valid_dodge(pub, seat)
        return dodge if legal[dodge] else first_legal(legal)
    if decision == D.GUESS:  # the value it holds least of: the others are more likely out there
        counts = np.zeros(10, np.int64)
        for t in range(FIRST_NUMBER, pub[P.N_TYPES]):
            counts[type_field(pub, t, TY.VALUE)] += mine[H.HAND + t]
        wrong = seat_field(pub, 1 - seat, S.WRONG)
        best, pick = 1 << 30, 5
        for v in range(1, 10):
            if not (wrong >> v) & 1 and counts[v] < best:
                best, pick = counts[v], v
        return pick
    return first_legal(legal)


PLAYERS = {
    "tracker": Strategy("heldout-tracker", fn=tracker,
                        doc="counts the unseen cards: plays what the opponent is least likely "
                            "to answer, guesses the swordsman, saves blows for when they land"),
    "aggressor": Strategy("heldout-aggressor", fn=aggressor,
                          doc="sheds two cards a play, harshest numbers first; follows up every "
                              "pass; Counter-kills at once"),
}

# Search ranges of each player's knobs for heldout.tune: one (lo, hi) per params index, the
# value added to the default, each range holding 0 (the player as described) and spanning the
# values where the knob changes a decision (the chances compared with it lie in 0..1).
KNOBS = {
    "tracker": [(-0.2, 0.2),          # worth of a card shed: -0.22 .. 0.18 against P(stuck)
                (-0.3, 0.6),          # guess chance earning a Counter-kill: 0.04 .. 0.94
                (-1.0, 0.0),          # Thrust below this P(no Counter-kill): never .. always
                (-0.1, 0.4)],         # worth of each card the opponent takes: 0 .. 0.5
    "aggressor": [(-100.0, 150.0)],   # weight of a card shed: 0 .. 250 (room to reply: 0..198)
}
