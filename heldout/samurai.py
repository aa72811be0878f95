"""Held-out Samurai Sword player, written from shared/rules/samurai_sword.md (never trained
against: see heldout/__init__.py). Rule ids SS-n and OP-n are the brief's.

- ``avenger``: a role-aware fighter that reads only the public harm and attack matrices
  (who hurt whom). Its own guess of each other seat's side is a score, "enemy-ness":
  - Shogun / Samurai (SS-1, SS-19): the Shogun is revealed; a seat that attacked or hurt him is
    an enemy, a seat that attacked his attackers is likely a friend; unknown seats start from
    the share of enemies among them. A Samurai never attacks the Shogun.
  - Ninja: the Shogun is the enemy; a seat that defends him (attacks his attackers) is a likely
    Samurai; a seat that attacks him is a likely fellow Ninja. At 3 players the other seat is
    known to be the other Ninja and is left alone.
  - Ronin (team of one, x2/x3 at 5-7 players, SS-19): everyone is fair game; late in the game
    (someone at 1 honour) it goes for the honour leader.
  Defeating a player takes 1 honour from them (SS-12), so a target the blow can defeat is worth
  more. It attacks the best target a weapon can reach (SS-9, SS-10: difficulty by seats,
  skipping harmless players (SS-11), Armor, Benkei; Kojiro reaches any), with the hardest-hitting
  weapon that reaches, while its weapon limit allows (SS-7). It plays properties at once
  (SS-17), draw cards at once (Daimyo, Tea Ceremony: SS-15, SS-16; the knob below can hold
  Daimyo for their point late), Breathing as soon as it holds one (SS-14 allows it at full
  resilience; the card it hands out goes to the friendliest seat), Geisha and Diversion on
  enemies (SS-16, taking Armor, Focus or Fast Draw first), Battle Cry and Jujutsu when they hurt
  more enemies than friends (SS-13), Bushido in front of an enemy (SS-18). It parries an attack
  whenever it holds a Parry (SS-10, OP-4; Hanzo uses a spare weapon), answers Battle Cry /
  Jujutsu with a card when low or when it can spare one, passes Bushido on with its weakest
  weapon rather than lose honour, and discards its least useful cards (SS-8). Every answer
  falls back to a legal action.

Knobs (``params``), each added to its default, so all zeros is the player as described:
params[0] + max resilience: Breathing is played at or below it; params[1] (default 0: never):
Daimyo are kept once some player is down to this honour; params[2] + 1: Parries kept before
one is spent on a Battle Cry; params[3] + 1: the honour that makes the Ronin's game "late";
params[4], params[5]: added to the prior enemy-ness of an unknown seat for the Shogun's team
(0.5) and for a Ninja (0.2). ``KNOBS`` gives each knob's search range for ``heldout.tune``.

The defaults were set from the rules, then checked once on a handful of knob settings (2,000
games each, 3/5/7 players, a seed apart from heldout.measure's) against the strong fields:
playing Daimyo, Tea Ceremony and Breathing at once did better than holding them.
"""
import numpy as np
from numba import njit

from games.samurai.layout import (ACT, CARD, CH, MAX_SEATS, N_WEAPONS, ROLE, D, H, P, S,
                                seat_at)
from sim.strategy import Strategy

jit = njit  # not cached: a file seated as FILE.py:FUNCTION loads under another module name

FRIEND = -100.0   # enemy-ness of a seat never to hurt


@jit
def first_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return 0


@jit
def harmless(pub, q):  # SS-11
    return pub[seat_at(q, S.RESILIENCE)] <= 0 or pub[seat_at(q, S.HAND)] <= 0


@jit
def difficulty(pub, me, q):
    """SS-9: fewest seats either way round, harmless ones skipped, +Armor, +1 Benkei."""
    n = pub[P.N]
    best = 1 << 20
    for way in range(2):
        step = 1 if way == 0 else n - 1
        d, s = 1, (me + step) % n
        while s != q:
            if not harmless(pub, s):
                d += 1
            s = (s + step) % n
        best = min(best, d)
    best += pub[seat_at(q, S.ARMOR)]
    if pub[seat_at(q, S.CHARACTER)] == CH.BENKEI:
        best += 1
    return best


@jit
def damage(pub, me, q, w):
    """SS-10 / OP-11: weapon damage + Fast Draw + Musashi, then Ginchiyo's -1, minimum 1."""
    d = pub[P.WEAPON_DAMAGE + w] + pub[seat_at(me, S.FAST_DRAW)]
    if pub[seat_at(me, S.CHARACTER)] == CH.MUSASHI:
        d += 1
    if pub[seat_at(q, S.CHARACTER)] == CH.GINCHIYO:
        d -= 1
    return max(d, 1)


@jit
def is_late(pub, late_honour):
    for q in range(pub[P.N]):
        if pub[seat_at(q, S.HONOUR)] <= late_honour:
            return True
    return False


@jit
def enemy_scores(pub, mine, me, late_honour, shift_loyal, shift_ninja):
    """How much each seat looks like an enemy (FRIEND: never hurt it); the seat itself FRIEND."""
    n, sh, role = pub[P.N], pub[P.SHOGUN], mine[H.ROLE]
    hostile = np.zeros(MAX_SEATS)   # attacks and harm aimed at the Shogun
    defends = np.zeros(MAX_SEATS)   # attacks aimed at those who aimed at the Shogun
    for q in range(n):
        hostile[q] = pub[P.ATTACKS + q * MAX_SEATS + sh] + pub[P.HARM + q * MAX_SEATS + sh]
    for q in range(n):
        for r in range(n):
            if r != q and r != sh and hostile[r] > 0:
                defends[q] += pub[P.ATTACKS + q * MAX_SEATS + r]
    score = np.full(MAX_SEATS, FRIEND)
    late = is_late(pub, late_honour)
    top = 0
    for q in range(n):
        top = max(top, pub[seat_at(q, S.HONOUR)])
    for q in range(n):
        if q == me:
            continue
        if role == ROLE.RONIN:
            score[q] = 1.0
            if late and pub[seat_at(q, S.HONOUR)] == top:
                score[q] += 1.5
        elif role == ROLE.NINJA:
            if q == sh:
                score[q] = 3.0
            elif n == 3:
                continue                       # the other Ninja (SS-1)
            else:
                score[q] = 0.2 + shift_ninja + defends[q] - hostile[q]
        else:                                   # Shogun or Samurai
            if q == sh:
                continue
            score[q] = 0.5 + shift_loyal + 2.0 * hostile[q] - 1.5 * defends[q]
    return score


@jit
def kill_bonus(pub, me, q, dmg):
    if pub[seat_at(q, S.RESILIENCE)] <= dmg:
        return 1.0
    return 0.0


@jit
def best_weapon_for(pub, mine, me, q, legal):
    """The legal weapon that reaches q and hurts most (the cheapest such); -1 none."""
    reach = difficulty(pub, me, q)
    kojiro = pub[seat_at(me, S.CHARACTER)] == CH.KOJIRO
    best, pick = -1.0, -1
    for w in range(N_WEAPONS):
        if legal[w] and mine[H.HAND + w] > 0 and (kojiro or pub[P.WEAPON_DIFFICULTY + w] >= reach):
            value = min(damage(pub, me, q, w), pub[seat_at(q, S.RESILIENCE)]) * 10.0 \
                - pub[P.WEAPON_DIFFICULTY + w] - pub[P.WEAPON_DAMAGE + w] * 0.5
            if value > best:
                best, pick = value, w
    return pick


@jit
def card_value(pub, mine, t):
    """How much a card in hand is worth keeping (discard the lowest, SS-8)."""
    if t == CARD.PARRY:
        return 9.0
    if t == CARD.DAIMYO:
        return 6.0 if mine[H.ROLE] != ROLE.RONIN else 3.0
    if t == CARD.BREATHING:
        return 5.0
    if t < N_WEAPONS:
        return 1.0 + 1.5 * pub[P.WEAPON_DAMAGE + t] + 0.5 * pub[P.WEAPON_DIFFICULTY + t]
    if t == CARD.FOCUS or t == CARD.ARMOR or t == CARD.FAST_DRAW:
        return 5.5
    return 4.0


@jit
def cheapest(pub, mine, legal, lo, hi):
    """The legal card type in lo..hi-1 held that is worth least; -1 none."""
    best, pick = 1e9, -1
    for t in range(lo, hi):
        if legal[t] and mine[H.HAND + t] > 0:
            v = card_value(pub, mine, t)
            if v < best:
                best, pick = v, t
    return pick


@jit
def count_weapons(mine):
    c = 0
    for w in range(N_WEAPONS):
        c += mine[H.HAND + w]
    return c


@jit
def area_worth(pub, score, me):
    """Battle Cry / Jujutsu: enemies hurt minus friends hurt (SS-13), never the own Shogun at 1."""
    total = 0.0
    for q in range(pub[P.N]):
        if q == me or harmless(pub, q):
            continue
        if score[q] > 0:
            total += 1.0
        else:
            total -= 1.0
            if score[q] <= FRIEND and pub[seat_at(q, S.RESILIENCE)] <= 1:
                total -= 10.0
    return total


@jit
def avenger(decision, seat, obs, legal, params, rng):
    """The player of the module docstring; ``rng`` is unused (it plays deterministically)."""
    pub, mine = obs.pub, obs.mine
    breathe_at = pub[seat_at(seat, S.MAX_RESILIENCE)] + int(params[0])
    hold_daimyo = int(params[1])
    keep_parries = 1 + int(params[2])
    score = enemy_scores(pub, mine, seat, 1 + int(params[3]), params[4], params[5])
    n = pub[P.N]
    res = pub[seat_at(seat, S.RESILIENCE)]
    if decision == D.PLAY:
        for t in (CARD.FOCUS, CARD.ARMOR, CARD.FAST_DRAW):
            if legal[t]:
                return t
        late = is_late(pub, hold_daimyo)
        if legal[CARD.DAIMYO] and (not late or mine[H.ROLE] == ROLE.RONIN):
            return CARD.DAIMYO
        if legal[CARD.TEA]:
            return CARD.TEA
        if legal[CARD.BREATHING] and res <= breathe_at:
            return CARD.BREATHING
        has_enemy = False
        for q in range(n):
            if score[q] > 0 and not harmless(pub, q):
                has_enemy = True
        if legal[CARD.BUSHIDO] and has_enemy:
            return CARD.BUSHIDO
        if legal[CARD.GEISHA] and has_enemy:
            return CARD.GEISHA
        if legal[CARD.DIVERSION] and has_enemy:
            return CARD.DIVERSION
        worth = area_worth(pub, score, seat)
        if legal[CARD.BATTLE_CRY] and worth > 0:
            return CARD.BATTLE_CRY
        if legal[CARD.JUJUTSU] and worth > 0:
            return CARD.JUJUTSU
        best, pick = 0.0, -1            # the best (target, weapon) with a positive worth
        for q in range(n):
            if score[q] <= 0 or harmless(pub, q):
                continue
            w = best_weapon_for(pub, mine, seat, q, legal)
            if w >= 0:
                value = score[q] + kill_bonus(pub, seat, q, damage(pub, seat, q, w))
                if value > best:
                    best, pick = value, w
        if pick >= 0:
            return pick
        if legal[ACT.NOBUNAGA_TRADE] and res > 3:
            return ACT.NOBUNAGA_TRADE
        if legal[ACT.END]:
            return ACT.END
        return first_legal(legal)
    if decision == D.TARGET:
        card = pub[P.CTX_CARD]
        best, pick = -1e9, -1
        for q in range(n):
            if not legal[q]:
                continue
            value = score[q]
            if 0 <= card < N_WEAPONS:
                value += kill_bonus(pub, seat, q, damage(pub, seat, q, card))
            elif card == CARD.GEISHA or card == CARD.DIVERSION:
                value += 0.1 * pub[seat_at(q, S.HAND)]
            if value > best:
                best, pick = value, q
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.REACT:
        if legal[CARD.PARRY]:
            return CARD.PARRY
        if pub[P.CTX_AMOUNT] >= res or count_weapons(mine) >= 2:   # Hanzo: a weapon as a Parry
            w = cheapest(pub, mine, legal, 0, N_WEAPONS)
            if w >= 0:
                return w
        return ACT.TAKE if legal[ACT.TAKE] else first_legal(legal)
    if decision == D.BATTLE_CRY:
        if legal[CARD.PARRY] and (res <= 1 or mine[H.HAND + CARD.PARRY] > keep_parries):
            return CARD.PARRY
        if res <= 1 or count_weapons(mine) >= 3:
            w = cheapest(pub, mine, legal, 0, N_WEAPONS)
            if w >= 0:
                return w
        return ACT.TAKE if legal[ACT.TAKE] else first_legal(legal)
    if decision == D.JUJUTSU or decision == D.BUSHIDO:
        if decision == D.BUSHIDO or res <= 2 or count_weapons(mine) >= 2:
            w = cheapest(pub, mine, legal, 0, N_WEAPONS)
            if w >= 0:
                return w
        return ACT.TAKE if legal[ACT.TAKE] else first_legal(legal)
    if decision == D.BREATHING:         # the friendliest seat draws the card
        best, pick = 1e9, -1
        for q in range(n):
            if legal[q] and score[q] < best:
                best, pick = score[q], q
        return pick if pick >= 0 else first_legal(legal)
    if decision == D.GEISHA:
        target = pub[P.CTX_TARGET]
        friendly = target == seat or (0 <= target < n and score[target] <= 0)
        for t in (CARD.ARMOR, CARD.FOCUS, CARD.FAST_DRAW):
            if legal[t] and not friendly:
                return t
        if legal[CARD.BUSHIDO] and friendly:
            return CARD.BUSHIDO
        return ACT.FROM_HAND if legal[ACT.FROM_HAND] else first_legal(legal)
    if decision == D.IEYASU:
        top = pub[P.CTX_CARD]
        if legal[1] and top >= 0 and card_value(pub, mine, top) >= 5.0:
            return 1
        return 0 if legal[0] else first_legal(legal)
    if decision == D.DISCARD:
        t = cheapest(pub, mine, legal, 0, CARD.BUSHIDO + 1)
        return t if t >= 0 else first_legal(legal)
    return first_legal(legal)


PLAYERS = {
    "avenger": Strategy("heldout-avenger", fn=avenger,
                        doc="reads the public harm matrix for sides: hits the Shogun's enemies "
                            "(or the Shogun, as a Ninja), parries, draws early, breathes when "
                            "low"),
}

# Search ranges of the knobs for heldout.tune: one (lo, hi) per params index, the value added
# to the default, each range holding 0 (the player as described). The counts are read with
# int(), which truncates towards zero, so (-4, 1) gives -3 .. 0.
KNOBS = {
    "avenger": [(-4.0, 1.0),          # Breathing at max resilience -3 .. max
                (0.0, 4.0),           # keep Daimyo once someone is at 0 (never) .. 3 honour
                (-1.0, 3.0),          # Parries kept before a Battle Cry parry: 1 .. 3
                (-1.0, 3.0),          # the Ronin's "late" honour: 1 .. 3
                (-1.0, 1.0),          # Shogun's team: prior enemy-ness -0.5 .. 1.5
                (-1.0, 1.0)],         # Ninja: prior enemy-ness -0.8 .. 1.2
}
