"""Samurai Sword strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int           what is asked (games.samurai.layout D.*; the action's meaning depends
                             on it): D.PLAY card type to play, ACT.END or ACT.NOBUNAGA_TRADE |
                             D.TARGET a seat for the card pub[P.CTX_CARD] | D.REACT CARD.PARRY, a
                             weapon (Hanzo) or ACT.TAKE when pub[P.CTX_SEAT] attacks you for
                             pub[P.CTX_AMOUNT] damage | D.BATTLE_CRY CARD.PARRY, a weapon (Hanzo)
                             or ACT.TAKE | D.JUJUTSU a weapon or ACT.TAKE | D.BREATHING the seat
                             that draws 1 | D.GEISHA a property type of pub[P.CTX_TARGET] or
                             ACT.FROM_HAND | D.BUSHIDO a weapon to discard or ACT.TAKE (lose
                             pub[P.CTX_AMOUNT] honour) | D.IEYASU 0 deck, 1 top of the discard pile
                             (pub[P.CTX_CARD]) | D.DISCARD a card type to discard (hand limit)
      seat     int           your seat (seats go clockwise: seat + 1 is on your left)
      obs      Observation   obs.pub int64[...]: every public fact (layout P.*, seat_at(seat,
                             S.*)): characters, resilience, honour, hand sizes, properties in
                             play, the discard pile by type, every card each seat played
                             (S.PLAYED + type), the harm each seat did to each other seat
                             (P.HARM + a * MAX_SEATS + b) and the attacks it aimed (P.ATTACKS +
                             ...), the Shogun's seat, the decision's legal mask (P.LEGAL). Read
                             only. obs.mine int64[...]: your private row: H.ROLE, H.STARS,
                             H.TEAM, your hand by type (H.HAND + type); mine[H.MEMORY:] is your
                             own scratch memory (zeroed every game), the rest is read only.
      legal    bool[29]      legal[a]: action a is allowed (also as a bitmask in pub[P.LEGAL]).
                             Never all false; a single legal action is taken without asking.
      params   float64[256]  this seat's parameters
      rng      uint64[1]     your stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int           an index with legal[action] true

A strategy never sees another seat's hand or hidden role (only the Shogun is revealed), nor the
deck order; OP-12: strategies share no hidden information. The engine answers ``random`` and
scripted seats itself (sim.strategy.RANDOM_PLAYER, sim.strategy.script).
"""
import numpy as np
from numba import njit

from sim.bits import lowest_bit
from games.samurai.layout import (ACT, CARD, CH, MAX_SEATS, N_WEAPONS, ROLE, D, H, P, S,
                                seat_at)
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script

LOYAL, SHREWD = 1, 2
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


# --- role-aware heuristics --------------------------------------------------------------------
# Memory: mine[H.MEMORY + q] = suspicion that seat q is an enemy of the Shogun (x100), updated
# from the public harm matrix at each decision (who hurt the Shogun, who hurt his attackers).

M_SUSPECT = H.MEMORY        # + seat
M_SEEN_HARM = H.MEMORY + 8  # + a * MAX_SEATS + b: harm already read


@jit
def update_suspicion(seat, pub, mine):
    """Everybody infers hidden roles from who attacks whom: hurting the Shogun makes a seat
    suspect (+); hurting a suspect makes it look loyal (-)."""
    n = pub[P.N]
    shogun = pub[P.SHOGUN]
    for a in range(n):
        for b in range(n):
            k = a * MAX_SEATS + b
            new = pub[P.HARM + k] + pub[P.ATTACKS + k] - mine[M_SEEN_HARM + k]
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
    role = mine[H.ROLE]
    shogun = pub[P.SHOGUN]
    if role == ROLE.SHOGUN or role == ROLE.SAMURAI:
        if q == shogun:
            return -1000.0
        return float(mine[M_SUSPECT + q])
    if role == ROLE.NINJA:
        if q == shogun:
            return 500.0
        # a seat that hurt the Shogun is probably a fellow Ninja; one he trusts is his Samurai
        return -float(mine[M_SUSPECT + q])
    # Ronin: everyone is an enemy; the one with most honour first
    v = 10.0 * pub[seat_at(q, S.HONOUR)]
    if shrewd:
        v -= 4.0 * pub[seat_at(q, S.RESILIENCE)]
    return v


@inline
def is_harmless(pub, q):
    return pub[seat_at(q, S.RESILIENCE)] == 0 or pub[seat_at(q, S.HAND)] == 0


@jit
def reach_needed(pub, a, b):
    """The difficulty of an attack by a on b (SS-9), as the kernel counts it; 0 for Kojiro."""
    if pub[seat_at(a, S.CHARACTER)] == CH.KOJIRO:
        return 0
    n = pub[P.N]
    right, q = 1, (a + 1) % n
    while q != b:
        right += 0 if is_harmless(pub, q) else 1
        q = (q + 1) % n
    left, q = 1, (a + n - 1) % n
    while q != b:
        left += 0 if is_harmless(pub, q) else 1
        q = (q + n - 1) % n
    d = min(left, right) + pub[seat_at(b, S.ARMOR)]
    return d + 1 if pub[seat_at(b, S.CHARACTER)] == CH.BENKEI else d


@jit
def best_weapon(seat, pub, mine, legal, shrewd):
    """The most damaging legal weapon that reaches a seat this player wants hurt, or -1."""
    best_w, best_v = -1, -1.0
    for w in range(N_WEAPONS):
        if not legal[w]:
            continue
        for q in range(pub[P.N]):
            if q == seat or is_harmless(pub, q):
                continue
            if (reach_needed(pub, seat, q) <= pub[P.WEAPON_DIFFICULTY + w]
                    and enemy_value(seat, q, pub, mine, shrewd) > 0):
                # damage first; among equals the shorter reach (keep long weapons for later)
                v = 10.0 * pub[P.WEAPON_DAMAGE + w] - 0.1 * pub[P.WEAPON_DIFFICULTY + w]
                if v > best_v:
                    best_v, best_w = v, w
                break
    return best_w


@jit
def best_target(seat, pub, mine, legal, shrewd, hurt):
    """The legal target seat this player most wants to hurt (hurt=True) or help."""
    best, pick = -1e18, -1
    for q in range(pub[P.N]):
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
    role = mine[H.ROLE]
    res = pub[seat_at(seat, S.RESILIENCE)]
    if decision == D.PLAY:
        # properties first, then draw cards, then weapons on a worthwhile target
        for t in (CARD.FOCUS, CARD.ARMOR, CARD.FAST_DRAW, CARD.DAIMYO, CARD.TEA):
            if legal[t]:
                return t
        if legal[CARD.BREATHING] and res < pub[seat_at(seat, S.MAX_RESILIENCE)] - 1:
            return CARD.BREATHING
        w = best_weapon(seat, pub, mine, legal, shrewd)
        if w >= 0:
            return w
        if legal[CARD.BATTLE_CRY] or legal[CARD.JUJUTSU]:
            # loyal players avoid blanket attacks when the Shogun is weak
            shogun_resilience = pub[seat_at(pub[P.SHOGUN], S.RESILIENCE)]
            if role == ROLE.NINJA or role == ROLE.RONIN or shogun_resilience > 2:
                return CARD.BATTLE_CRY if legal[CARD.BATTLE_CRY] else CARD.JUJUTSU
        if legal[CARD.GEISHA]:
            return CARD.GEISHA
        if legal[CARD.DIVERSION]:
            return CARD.DIVERSION
        if legal[CARD.BUSHIDO]:
            return CARD.BUSHIDO
        if legal[ACT.NOBUNAGA_TRADE] and res > 3:
            return ACT.NOBUNAGA_TRADE
        return ACT.END
    if decision == D.TARGET:
        card = pub[P.CTX_CARD]
        if card == CARD.BUSHIDO:
            return best_target(seat, pub, mine, legal, shrewd, True)
        t = best_target(seat, pub, mine, legal, shrewd, True)
        return t if t >= 0 else lowest_bit(pub[P.LEGAL])
    if decision == D.REACT or decision == D.BATTLE_CRY:
        # parry when the hit would hurt a lot or defeat us; the shrewd player keeps a Parry for
        # later when the wound is harmless
        if legal[CARD.PARRY]:
            if not shrewd or res <= 2 or decision == D.REACT:
                return CARD.PARRY
        for w in range(N_WEAPONS):
            if legal[w] and res <= 2:
                return w
        return ACT.TAKE
    if decision == D.JUJUTSU:
        if res <= 2 or not shrewd:
            for w in range(N_WEAPONS):
                if legal[w]:
                    return w
        return ACT.TAKE
    if decision == D.BREATHING:
        return best_target(seat, pub, mine, legal, shrewd, False)
    if decision == D.GEISHA:
        if pub[P.CTX_TARGET] == seat:
            return lowest_bit(pub[P.LEGAL])
        for t in (CARD.FOCUS, CARD.FAST_DRAW, CARD.ARMOR, CARD.BUSHIDO):
            if legal[t]:
                return t
        return ACT.FROM_HAND
    if decision == D.BUSHIDO:
        if pub[seat_at(seat, S.HONOUR)] > 2 and shrewd:
            return ACT.TAKE
        for w in range(N_WEAPONS):
            if legal[w]:
                return w
        return ACT.TAKE
    if decision == D.IEYASU:
        top = pub[P.CTX_CARD]
        return 1 if top == CARD.PARRY or top < N_WEAPONS or top == CARD.DAIMYO else 0
    if decision == D.DISCARD:
        # keep Parries and weapons; drop the least useful first
        for t in (CARD.BUSHIDO, CARD.GEISHA, CARD.DIVERSION, CARD.JUJUTSU, CARD.BATTLE_CRY,
                  CARD.BREATHING, CARD.TEA, 0, 1, 2):
            if legal[t]:
                return t
        return lowest_bit(pub[P.LEGAL])
    return lowest_bit(pub[P.LEGAL])  # never reached: every decision is handled above


@inline
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == LOYAL or kind == SHREWD:
        return heuristic(decision, seat, obs.pub, obs.mine, legal, params, rng, kind == SHREWD)
    return -1


# --- features of the trained policy (sim/core/policy.py) -------------------------------------
# Slot 0 is "loyal would play this action", slot 1 "shrewd would": weight 1 on slot 1 and 0
# elsewhere plays exactly shrewd (START_WEIGHTS: training starts from shrewd). Everything below
# reads the public state and the seat's own row only (its role, its hand, its memory: the
# suspicion both heuristics keep, updated from the public harm matrix).

N_FEATURES = 14
LOYAL_PICK, SHREWD_PICK = 0, 1


@jit
def _clip(x):
    return min(max(x, -1.0), 1.0)


@jit
def features(decision, seat, obs, legal, rng, phi):
    """What the trained policy weighs for each legal action (slots below). Both heuristics are
    asked first (they draw nothing from rng; update_suspicion reads each new harm once, so
    the second call sees what the first did)."""
    pub, mine = obs.pub, obs.mine
    pick_l = heuristic(decision, seat, pub, mine, legal, phi[0], rng, False)
    pick_s = heuristic(decision, seat, pub, mine, legal, phi[0], rng, True)
    n = pub[P.N]
    role = mine[H.ROLE]
    shogun = pub[P.SHOGUN]
    res = pub[seat_at(seat, S.RESILIENCE)]
    top = pub[seat_at(seat, S.MAX_RESILIENCE)]
    loyalist = role == ROLE.SHOGUN or role == ROLE.SAMURAI
    for a in range(legal.shape[0]):
        if not legal[a]:
            continue
        for f in range(N_FEATURES):
            phi[a, f] = 0.0
        phi[a, LOYAL_PICK] = 1.0 if a == pick_l else 0.0
        phi[a, SHREWD_PICK] = 1.0 if a == pick_s else 0.0
        if decision == D.PLAY:  # SS-7: play card a (or end the phase / Nobunaga's trade, SS-3)
            if a < N_WEAPONS:  # a weapon: the best target it reaches (SS-9, SS-10)
                dmg = pub[P.WEAPON_DAMAGE + a]
                best, kill, any_enemy = -1e9, 0.0, 0.0
                for q in range(n):
                    if q == seat or is_harmless(pub, q):
                        continue
                    if reach_needed(pub, seat, q) <= pub[P.WEAPON_DIFFICULTY + a]:
                        v = enemy_value(seat, q, pub, mine, True)
                        best = max(best, v)
                        if v > 0:
                            any_enemy = 1.0
                            if pub[seat_at(q, S.RESILIENCE)] <= dmg:  # a defeat (SS-12)
                                kill = 1.0
                phi[a, 2] = any_enemy * dmg / 3.0
                phi[a, 3] = _clip(best / 200.0) if best > -1e9 else -1.0
                phi[a, 4] = kill
                phi[a, 5] = pub[P.WEAPON_DIFFICULTY + a] / 5.0
            elif a == ACT.END:
                phi[a, 6] = 1.0
                phi[a, 7] = pub[seat_at(seat, S.HAND)] / 7.0  # cards kept for Parries (SS-10)
            elif a >= CARD.FOCUS and a <= CARD.FAST_DRAW or a == CARD.DAIMYO or a == CARD.TEA:
                phi[a, 8] = 1.0  # properties (SS-17) and draws (SS-15)
            elif a == CARD.BREATHING:  # SS-14
                phi[a, 9] = (top - res) / 5.0
            elif a == CARD.BATTLE_CRY or a == CARD.JUJUTSU:  # SS-13: everyone else answers
                phi[a, 10] = 1.0 if loyalist else -1.0
                phi[a, 11] = pub[seat_at(shogun, S.RESILIENCE)] / 5.0 if loyalist else 0.0
            elif a == CARD.GEISHA or a == CARD.DIVERSION:  # SS-16
                phi[a, 12] = 1.0
            elif a == CARD.BUSHIDO:  # SS-18
                phi[a, 13] = 1.0
            elif a == ACT.NOBUNAGA_TRADE:  # SS-3
                phi[a, 9] = -(top - res) / 5.0
        elif decision == D.TARGET:  # seat a for card pub[P.CTX_CARD]
            card = pub[P.CTX_CARD]
            r = pub[seat_at(a, S.RESILIENCE)]
            phi[a, 2] = _clip(enemy_value(seat, a, pub, mine, False) / 200.0)
            phi[a, 3] = 1.0 if a == shogun else 0.0
            if card < N_WEAPONS:
                phi[a, 4] = 1.0 if r <= pub[P.WEAPON_DAMAGE + card] else 0.0  # a defeat (SS-12)
            phi[a, 5] = r / 5.0
            phi[a, 6] = pub[seat_at(a, S.HONOUR)] / 5.0
            phi[a, 7] = pub[seat_at(a, S.HAND)] / 7.0  # fewer cards, fewer Parries (SS-10)
            phi[a, 8] = pub[seat_at(a, S.PLAYED + CARD.PARRY)] / 3.0
            phi[a, 9] = pub[P.HARM + a * MAX_SEATS + seat] / 5.0   # it hurt me
            phi[a, 10] = pub[P.HARM + a * MAX_SEATS + shogun] / 5.0  # it hurt the Shogun
            phi[a, 11] = pub[P.HARM + shogun * MAX_SEATS + a] / 5.0  # the Shogun hurt it
            phi[a, 12] = 1.0 if role == ROLE.NINJA and a == shogun else 0.0
            phi[a, 13] = (1.0 if loyalist else -1.0) * pub[P.ATTACKS + a * MAX_SEATS + shogun] / 3.0
        elif decision == D.REACT or decision == D.BATTLE_CRY or decision == D.JUJUTSU:
            amount = pub[P.CTX_AMOUNT] if decision == D.REACT else 1  # SS-10, SS-13
            if a == ACT.TAKE:
                phi[a, 2] = 1.0
                phi[a, 3] = 1.0 if res <= amount else 0.0  # taking it defeats us (SS-12)
                phi[a, 4] = amount / 3.0
                phi[a, 5] = res / 5.0
                phi[a, 6] = mine[H.HAND + CARD.PARRY] / 3.0
                phi[a, 7] = 1.0 if pub[P.CTX_SEAT] == shogun and loyalist else 0.0
        else:  # breathing, geisha, bushido, ieyasu, discard: kept as shrewd plays them
            phi[a, 2] = 1.0 if a == ACT.TAKE or a == ACT.FROM_HAND else 0.0


# The weights each decision type's features fill (training moves only these), and the start.
_USED = {D.PLAY: 14, D.TARGET: 14, D.REACT: 8, D.BATTLE_CRY: 8, D.JUJUTSU: 8}
TRAINABLE = np.array([[f < _USED.get(d, 3) for f in range(N_FEATURES)] for d in range(len(D))])
START_WEIGHTS = np.zeros((len(D), N_FEATURES))
START_WEIGHTS[:, SHREWD_PICK] = 1.0


BUILTINS = {
    "random": RANDOM_PLAYER,
    "loyal": Strategy("loyal", builtin=LOYAL,
                      doc="role-aware: the Shogun's side hunts suspects, Ninja hunt the Shogun "
                          "and his defenders, the Ronin hits the honour leader; always parries"),
    "shrewd": Strategy("shrewd", builtin=SHREWD,
                       doc="loyal, but saves Parries against light blows, pays Bushido with "
                           "honour when rich, and its Ronin spares the weakest"),
}


def script(*pairs) -> Strategy:
    """A seat that answers the given (decision, action) pairs in order and answers anything else
    passively (ACT.END, ACT.TAKE, else its lowest legal action: the kernel's off_script): for
    tests and golden games."""
    return sim_script(pairs)
