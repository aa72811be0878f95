"""Samurai Sword strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function)::

    strategy(decision, seat, pub, mine, legal, params, rng) -> action
      decision int           what is asked (sim.samurai.layout D_*; the action's meaning depends on it):
                             D_PLAY card type to play, END or NOBUNAGA_TRADE | D_TARGET a seat for
                             the card pub[P_CTX_CARD] | D_REACT PARRY, a weapon (Hanzo) or TAKE
                             when pub[P_CTX_SEAT] attacks you for pub[P_CTX_AMOUNT] damage |
                             D_BATTLE_CRY PARRY, a weapon (Hanzo) or TAKE | D_JUJUTSU a weapon or
                             TAKE | D_BREATHING the seat that draws 1 | D_GEISHA a property type of
                             pub[P_CTX_TARGET] or FROM_HAND | D_BUSHIDO a weapon to discard or
                             TAKE (lose 1 honour) | D_IEYASU 0 deck, 1 top of the discard pile
                             (pub[P_CTX_CARD]) | D_DISCARD a card type to discard (hand limit)
      seat     int           your seat (seats go clockwise: seat + 1 is on your left)
      pub      int64[...]    every public fact (layout P_*, seat_at(seat, S_*)): characters,
                             resilience, honour, hand sizes, properties in play, the discard pile
                             by type, every card each seat played (S_PLAYED + type), the harm each
                             seat did to each other seat (P_HARM + a * MAX_SEATS + b) and the
                             attacks it aimed (P_ATTACKS + ...), the Shogun's seat. Read only.
      mine     int64[...]    your private row: H_ROLE, H_STARS, H_TEAM, your hand by type
                             (H_HAND + type). mine[H_MEMORY:] is your own scratch memory (zeroed
                             every game); the rest is read only.
      legal    bool[29]      legal[a]: action a is allowed (also as a bitmask in pub[P_LEGAL]).
                             Never all false; a single legal action is taken without asking.
      params   float64[256]  this seat's parameters
      rng      uint64[1]     your stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int           an index with legal[action] true

A strategy never sees another seat's hand or hidden role (only the Shogun is revealed), nor the
deck order; OP-12: strategies share no hidden information.
"""
import numpy as np
from numba import njit

from sim.bits import lowest_bit, nth_bit, popcount
from sim.rng import rand_below
from sim.samurai.layout import (
    ARMOR, BATTLE_CRY, BREATHING, BUSHIDO, D_BATTLE_CRY, D_BREATHING, D_BUSHIDO, D_DISCARD,
    D_GEISHA, D_IEYASU, D_JUJUTSU, D_PLAY, D_REACT, D_TARGET, DAIMYO, DIVERSION, END,
    FAST_DRAW, FOCUS, FROM_HAND, GEISHA, H_HAND, H_MEMORY, H_ROLE, JUJUTSU, MAX_SEATS,
    N_ACTIONS, N_WEAPONS, NINJA, NOBUNAGA_TRADE, P_ATTACKS, P_CTX_CARD, P_CTX_SEAT,
    P_CTX_TARGET, P_HARM, P_LEGAL, P_N, P_SHOGUN, P_WEAPON_DAMAGE, P_WEAPON_DIFFICULTY, PARRY,
    RONIN, S_ARMOR, S_CHARACTER, S_HAND, S_HONOUR, S_MAX_RESILIENCE, S_RESILIENCE, SAMURAI,
    SHOGUN, TAKE, TEA, BENKEI, KOJIRO, seat_at)
from sim.strategy import Strategy

RANDOM, LOYAL, SHREWD, SCRIPT = 0, 1, 2, 9
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@inline
def random_play(decision, seat, pub, mine, legal, params, rng):
    """Uniformly random legal action, whatever the decision."""
    mask = pub[P_LEGAL]
    return nth_bit(mask, rand_below(rng, 0, popcount(mask)))


@inline
def passive(legal):
    """End the phase, take the wound, or the lowest legal action."""
    if legal[END]:
        return END
    if legal[TAKE]:
        return TAKE
    for a in range(N_ACTIONS):
        if legal[a]:
            return a
    return -1


@jit
def scripted(decision, seat, pub, mine, legal, params, rng):
    """Plays the (decision, action) pairs params[1..2k] in order (k = params[0]); a decision that
    does not match the next pair gets a passive answer (END, TAKE, else the lowest legal action).
    The position is kept in mine[H_MEMORY]."""
    pos = int(mine[H_MEMORY])
    if pos < params[0] and 2 * pos + 2 < params.shape[0] and params[1 + 2 * pos] == decision:
        mine[H_MEMORY] = pos + 1
        return np.int64(params[2 + 2 * pos])
    return passive(legal)


# --- role-aware heuristics --------------------------------------------------------------------
# Memory: mine[H_MEMORY + q] = suspicion that seat q is an enemy of the Shogun (x100), updated
# from the public harm matrix at each decision (who hurt the Shogun, who hurt his attackers).

M_SUSPECT = H_MEMORY        # + seat
M_SEEN_HARM = H_MEMORY + 8  # + a * MAX_SEATS + b: harm already read


@jit
def update_suspicion(seat, pub, mine):
    """Everybody infers hidden roles from who attacks whom: hurting the Shogun makes a seat
    suspect (+); hurting a suspect makes it look loyal (-)."""
    n = pub[P_N]
    shogun = pub[P_SHOGUN]
    for a in range(n):
        for b in range(n):
            k = a * MAX_SEATS + b
            new = pub[P_HARM + k] + pub[P_ATTACKS + k] - mine[M_SEEN_HARM + k]
            if new <= 0 or a == b:
                continue
            mine[M_SEEN_HARM + k] += new
            if a == shogun:
                mine[M_SUSPECT + b] += 40 * new    # the Shogun hits those he suspects
            elif b == shogun:
                mine[M_SUSPECT + a] += 100 * new
            elif mine[M_SUSPECT + b] > 0:
                mine[M_SUSPECT + a] -= 30 * new


@jit
def enemy_value(seat, q, pub, mine, shrewd):
    """How much seat wants q hurt (higher = more). The Shogun's team hunts suspects; the Ninja
    hunt the Shogun and whoever defends him; the Ronin hits whoever leads in honour (the
    shrewd Ronin also keeps the weakest side alive)."""
    role = mine[H_ROLE]
    shogun = pub[P_SHOGUN]
    if role == SHOGUN or role == SAMURAI:
        if q == shogun:
            return -1000.0
        return float(mine[M_SUSPECT + q])
    if role == NINJA:
        if q == shogun:
            return 500.0
        # a seat that hurt the Shogun is probably a fellow Ninja; one he trusts is his Samurai
        return -float(mine[M_SUSPECT + q])
    # Ronin: everyone is an enemy; the one with most honour first
    v = 10.0 * pub[seat_at(q, S_HONOUR)]
    if shrewd:
        v -= 4.0 * pub[seat_at(q, S_RESILIENCE)]
    return v


@inline
def is_harmless(pub, q):
    return pub[seat_at(q, S_RESILIENCE)] == 0 or pub[seat_at(q, S_HAND)] == 0


@jit
def reach_needed(pub, a, b):
    """The difficulty of an attack by a on b (SS-9), as the kernel counts it; 0 for Kojiro."""
    if pub[seat_at(a, S_CHARACTER)] == KOJIRO:
        return 0
    n = pub[P_N]
    right, q = 1, (a + 1) % n
    while q != b:
        right += 0 if is_harmless(pub, q) else 1
        q = (q + 1) % n
    left, q = 1, (a + n - 1) % n
    while q != b:
        left += 0 if is_harmless(pub, q) else 1
        q = (q + n - 1) % n
    d = min(left, right) + pub[seat_at(b, S_ARMOR)]
    return d + 1 if pub[seat_at(b, S_CHARACTER)] == BENKEI else d


@jit
def best_weapon(seat, pub, mine, legal, shrewd):
    """The most damaging legal weapon that reaches a seat this player wants hurt, or -1."""
    best_w, best_v = -1, -1.0
    for w in range(N_WEAPONS):
        if not legal[w]:
            continue
        for q in range(pub[P_N]):
            if q == seat or is_harmless(pub, q):
                continue
            if (reach_needed(pub, seat, q) <= pub[P_WEAPON_DIFFICULTY + w]
                    and enemy_value(seat, q, pub, mine, shrewd) > 0):
                # damage first; among equals the shorter reach (keep long weapons for later)
                v = 10.0 * pub[P_WEAPON_DAMAGE + w] - 0.1 * pub[P_WEAPON_DIFFICULTY + w]
                if v > best_v:
                    best_v, best_w = v, w
                break
    return best_w


@jit
def best_target(seat, pub, mine, legal, shrewd, hurt):
    """The legal target seat this player most wants to hurt (hurt=True) or help."""
    best, pick = -1e18, -1
    for q in range(pub[P_N]):
        if legal[q]:
            v = enemy_value(seat, q, pub, mine, shrewd)
            if not hurt:
                v = -v
            v += 0.01 * q  # deterministic tie-break
            if v > best:
                best, pick = v, q
    return pick


@jit
def heuristic(decision, seat, pub, mine, legal, params, rng, shrewd):
    """Plays the way people do: attack enemies of one's side with the strongest weapon, parry
    when it matters, keep Parries, use Breathing when hurt, help teammates with draws."""
    update_suspicion(seat, pub, mine)
    role = mine[H_ROLE]
    res = pub[seat_at(seat, S_RESILIENCE)]
    if decision == D_PLAY:
        # properties first, then draw cards, then weapons on a worthwhile target
        for t in (FOCUS, ARMOR, FAST_DRAW, DAIMYO, TEA):
            if legal[t]:
                return t
        if legal[BREATHING] and res < pub[seat_at(seat, S_MAX_RESILIENCE)] - 1:
            return BREATHING
        w = best_weapon(seat, pub, mine, legal, shrewd)
        if w >= 0:
            return w
        if legal[BATTLE_CRY] or legal[JUJUTSU]:
            # loyal players avoid blanket attacks when the Shogun is weak
            if role == NINJA or role == RONIN or pub[seat_at(pub[P_SHOGUN], S_RESILIENCE)] > 2:
                return BATTLE_CRY if legal[BATTLE_CRY] else JUJUTSU
        if legal[GEISHA]:
            return GEISHA
        if legal[DIVERSION]:
            return DIVERSION
        if legal[BUSHIDO]:
            return BUSHIDO
        if legal[NOBUNAGA_TRADE] and res > 3:
            return NOBUNAGA_TRADE
        return END
    if decision == D_TARGET:
        card = pub[P_CTX_CARD]
        if card == BUSHIDO:
            return best_target(seat, pub, mine, legal, shrewd, True)
        t = best_target(seat, pub, mine, legal, shrewd, True)
        return t if t >= 0 else lowest_bit(pub[P_LEGAL])
    if decision == D_REACT or decision == D_BATTLE_CRY:
        # parry when the hit would hurt a lot or defeat us; the shrewd player keeps a Parry for
        # later when the wound is harmless
        if legal[PARRY]:
            if not shrewd or res <= 2 or decision == D_REACT:
                return PARRY
        for w in range(N_WEAPONS):
            if legal[w] and res <= 2:
                return w
        return TAKE
    if decision == D_JUJUTSU:
        if res <= 2 or not shrewd:
            for w in range(N_WEAPONS):
                if legal[w]:
                    return w
        return TAKE
    if decision == D_BREATHING:
        return best_target(seat, pub, mine, legal, shrewd, False)
    if decision == D_GEISHA:
        if pub[P_CTX_TARGET] == seat:
            return lowest_bit(pub[P_LEGAL])
        for t in (FOCUS, FAST_DRAW, ARMOR, BUSHIDO):
            if legal[t]:
                return t
        return FROM_HAND
    if decision == D_BUSHIDO:
        if pub[seat_at(seat, S_HONOUR)] > 2 and shrewd:
            return TAKE
        for w in range(N_WEAPONS):
            if legal[w]:
                return w
        return TAKE
    if decision == D_IEYASU:
        top = pub[P_CTX_CARD]
        return 1 if top == PARRY or top < N_WEAPONS or top == DAIMYO else 0
    if decision == D_DISCARD:
        # keep Parries and weapons; drop the least useful first
        for t in (BUSHIDO, GEISHA, DIVERSION, JUJUTSU, BATTLE_CRY, BREATHING, TEA, 0, 1, 2):
            if legal[t]:
                return t
        return lowest_bit(pub[P_LEGAL])
    return random_play(decision, seat, pub, mine, legal, params, rng)


@inline
def builtin_decide(kind, decision, seat, pub, mine, legal, params, rng):
    if kind == RANDOM:
        return random_play(decision, seat, pub, mine, legal, params, rng)
    if kind == LOYAL or kind == SHREWD:
        return heuristic(decision, seat, pub, mine, legal, params, rng, kind == SHREWD)
    return scripted(decision, seat, pub, mine, legal, params, rng)


BUILTINS = {
    "random": Strategy("random", builtin=RANDOM, doc="uniformly random legal action"),
    "loyal": Strategy("loyal", builtin=LOYAL,
                      doc="role-aware: the Shogun's side hunts suspects, Ninja hunt the Shogun "
                          "and his defenders, the Ronin hits the honour leader; always parries"),
    "shrewd": Strategy("shrewd", builtin=SHREWD,
                       doc="loyal, but saves Parries against light blows, pays Bushido with "
                           "honour when rich, and its Ronin spares the weakest"),
}


def script(*pairs) -> Strategy:
    """A seat that answers the given (decision, action) pairs in order and answers anything else
    passively (END, TAKE, else its lowest legal action): for tests and golden games."""
    flat = [float(len(pairs))]
    for decision, action in pairs:
        flat += [float(decision), float(action)]
    return Strategy("script", builtin=SCRIPT, params=tuple(flat))
