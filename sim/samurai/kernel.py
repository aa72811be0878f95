"""Samurai Sword rules as Numba kernels (rule ids SS-n and open points OP-n refer to
shared/rules/samurai_sword.md).

Callback style, as Sunzi's kernel: the rules are straight-line code that asks a seat through
one ``ask`` whenever the rules give it a choice, reactions out of turn included. State is int64
arrays whose fields are named in layout.py: ``pub`` (every public fact), ``hid`` (one private
row per seat: role, hand, the strategy's scratch memory; a strategy is handed its own row only)
and ``ks`` (kernel-only: deck and discard order, statistics for the record). Every function
takes ``g = (rules, cards, resilience, pub, hid, ks, legal, kinds, params, streams, error, log,
ctl)``. Sets (legal actions, targets) are bitmasks.

Random streams (layout.N_CHANCE, sim.rng): the deck (first shuffle and every reshuffle), the role
deal, the character deal, random cards taken from a hand (Geisha, Diversion), then one stream per
(seat, decision type); so one more decision never shifts a deal.

Speed: everything below play_chunk runs without reference counting (``_nrt=False``) and
allocates nothing; constants passed to functions that are not inlined are wrapped in
``np.int64`` (Numba compiles one copy per literal value otherwise).
"""
import numpy as np
from numba import njit

from strategies.samurai import builtin_decide

from .. import control
from ..bits import lowest_bit, nth_bit, popcount
from ..game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS, USER_KIND_BASE
from ..rng import rand_below, seat_stream, seed_game, shuffle, stream_count
from .layout import (
    ARMOR, BATTLE_CRY, BENKEI, BREATHING, BUSHIDO, CHARACTER_STREAM, DECK_STREAM, N_CHANCE,
    ROLE_STREAM, TAKE_STREAM, C_GAME0, C_SEAT0, CHIYOME, CT_DAMAGE,
    CT_DIFFICULTY, D_BATTLE_CRY, D_BREATHING, D_BUSHIDO, D_DISCARD, D_GEISHA, D_IEYASU,
    D_JUJUTSU, N_DECISIONS, D_PLAY, D_REACT, D_TARGET, DAIMYO, DIVERSION, END, END_CAPPED, END_HONOUR,
    END_SWORDMASTER, END_TEAMMATE_DEFEAT, EV_BUSHIDO, EV_CARD, EV_CHARACTER, EV_DEFEAT, EV_DISCARD, EV_DRAWS, EV_END,
    END_BROKEN, EV_HONOUR, EV_LOST, EV_NOBUNAGA, EV_PLAY, EV_PROPERTY_LOST, EV_REACT, EV_RECOVER,
    EV_RESHUFFLE, EV_ROLE, EV_SCORE, EV_SHOGUN, EV_STEAL, EV_TEAM, EV_TURN, EV_WOUND,
    FAST_DRAW, FOCUS, HID_SIZE, KS_SIZE, PUB_SIZE, FROM_HAND, GEISHA, GINCHIYO, GOEMON, H_HAND, H_ROLE, H_STARS, H_TEAM,
    HANZO, HIDDEN, HIDEYOSHI, HONOUR_BUSHIDO, HONOUR_DEFEAT, HONOUR_RESHUFFLE, IEYASU,
    JUJUTSU, K_DEADLY_TEAM, K_DECK, K_DISCARD, K_END, K_KNOWN, K_LAST_DEFEATER, K_LAST_VICTIM,
    K_PRIVATE, K_REMOVED_NINJA, K_ROW, K_SCRATCH, K_STATS, K_SWORDMASTER, K_TEAM_SCORE, K_WIN_TEAM,
    K_WINNERS, KOJIRO, LOG_WIDTH, MAX_SEATS, MAX_TURN_RESHUFFLES, MUSASHI, N_ACTIONS, N_ROLES, N_SEAT_COLUMNS,
    N_STATS, N_TEAMS, N_TYPES, N_WEAPONS, NINJA, NOBUNAGA, NOBUNAGA_TRADE, P_ATTACKS,
    P_BUSHIDO, P_CTX_AMOUNT, P_CTX_CARD, P_CTX_SEAT, P_CTX_TARGET, P_CURRENT, P_DECISION,
    P_DECK, P_DISCARD_N, P_DISCARD_TOP, P_DISCARDS, P_HARM, P_LEGAL, P_N, P_RESHUFFLES,
    P_SHOGUN, P_TURN, P_WEAPON_DAMAGE, P_WEAPON_DIFFICULTY, P_WEAPON_LIMIT, P_WEAPONS_PLAYED, PARRY, R_ANSWER_CCW, R_AUTO_PARRY,
    R_CHARACTER, R_CHECK_EVERY_TURN, R_DEADLY_ANY, R_DECK_SIZE, R_FIXED_DECK, R_FIXED_ROLES, R_GEISHA_SELF,
    R_HAND_LIMIT, R_HONOUR, R_MULT, R_N_ROLES, R_OP7_HONOUR, R_OPENING, R_PLAYERS, R_POOL,
    R_REMOVED, R_RESHUFFLE_HONOUR, R_RESHUFFLE_PHASE, R_ROLE, R_STARS, R_SUBTRACT_FIRST,
    R_SHOGUN_BUSHIDO_CHOICE, R_SWORD_HONOUR, R_TOP_STARS_MULT, R_TURN_CAP, R_USHI_DAMAGE, RONIN, S_ARMOR,
    S_CHARACTER, S_DAIMYO_PLAYED, S_FAST_DRAW, S_FOCUS, S_HAND, S_HONOUR, S_MAX_RESILIENCE,
    S_PLAYED, S_RESILIENCE, S_ROLE, SAMURAI, SHOGUN, ST_ATTACKS, ST_DEALT, ST_DEFEATED,
    ST_DEFEATS, ST_HELD_A, ST_HELD_W, ST_OPEN_A, ST_OPEN_W, ST_PARRIES, ST_PLAYED_A,
    ST_PLAYED_W, ST_SCORE, ST_TAKEN, ST_TURNS, TAKE, TEA, TEAM_NINJA, TEAM_RONIN, TEAM_SHOGUN,
    TOMOE, USHIWAKA, WEAPON_MASK, WHY_ANSWER, WHY_BUSHIDO, WHY_FLIP, WHY_GEISHA,
    WHY_HAND_LIMIT, seat_at)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@njit(cache=True)
def decide_custom(k, decision, seat, pub, mine, legal, params, rng):
    """Placeholder for user strategies; sim.strategy recompiles the kernel with the real ones."""
    return -1


@inline
def decide(kind, decision, seat, pub, mine, legal, params, rng):
    if kind >= USER_KIND_BASE:
        return decide_custom(kind - USER_KIND_BASE, decision, seat, pub, mine, legal, params, rng)
    return builtin_decide(kind, decision, seat, pub, mine, legal, params, rng)


@inline
def log_event(log, event, turn, seat, a, b, c, d):
    if log.shape[0] == 0:
        return
    k = log[0, 0] + 1
    if k < log.shape[0]:
        log[k, 0], log[k, 1], log[k, 2], log[k, 3] = event, turn, seat, a
        log[k, 4], log[k, 5], log[k, 6] = b, c, d
        log[0, 0] = k


@inline
def over(g):
    return g[5][K_END] >= 0


@inline
def stat(seat, field):
    return K_STATS + seat * N_STATS + field


@inline
def harmless(pub, s):
    """SS-11: 0 resilience or no cards in hand."""
    return pub[seat_at(s, S_RESILIENCE)] == 0 or pub[seat_at(s, S_HAND)] == 0


@inline
def is_character(pub, s, c):
    return pub[seat_at(s, S_CHARACTER)] == c


@inline
def others(n, s):
    return ((1 << n) - 1) & ~(1 << s)


# --- the one door to the strategies -----------------------------------------------------------

@inline
def ask(g, decision, seat, mask):
    """The seat's strategy picks one action of the bitmask `mask` (never empty); a single legal
    action is taken without asking."""
    if mask & (mask - 1) == 0:
        return lowest_bit(mask)
    return ask_strategy(g, np.int64(decision), seat, mask)


@jit
def ask_strategy(g, decision, seat, mask):
    """Show the seat its legal actions and ask its strategy (sim/parthian/kernel.py ``ask`` is
    the reference for the controller calls). It is handed the public state, its own private row
    (role, hand, scratch memory), its parameters and its own random stream, nothing else. An
    illegal answer is reported through `error` (the engine raises) and the game goes on with the
    lowest legal action, so that nothing here has to unwind."""
    pub, hid, ks, legal, kinds, params, streams, error, log, ctl = (
        g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12])
    for a in range(N_ACTIONS):
        legal[a] = (mask >> a) & 1 == 1
    pub[P_LEGAL] = mask
    pub[P_DECISION] = decision
    mine = hid[seat]
    own = seat_stream(N_CHANCE, N_DECISIONS, seat, decision)
    rng = streams[own:own + 1]
    if not control.active(ctl):
        a = decide(kinds[seat], decision, seat, pub, mine, legal, params[seat], rng)
    else:
        if control.redeal_due(ctl):
            redeal(g, seat)
            control.reseed(ctl, streams, seat_stream(N_CHANCE, N_DECISIONS, seat, 0), N_DECISIONS)
        h = np.uint64(0)
        if control.needs_hash(ctl, seat):
            h = control.hash_ints(pub, np.uint64(seat))
            h = control.hash_ints(mine, h)
            h = control.hash_ints(legal, h)
            h = control.hash_floats(params[seat], h)
            h = control.hash_ints(rng, h)
        a = control.before_decision(ctl, seat, decision, h, legal)
        if a < 0:
            a = decide(kinds[seat], decision, seat, pub, mine, legal, params[seat], rng)
        a = control.after_decision(ctl, seat, decision, h, legal, a,
                                   log[0, 0] if log.shape[0] else 0)
    if a < 0 or a >= N_ACTIONS or (mask >> a) & 1 == 0:
        if error[3] != 1:
            error[0], error[1], error[2], error[3] = ks[K_ROW], seat, a, 1
        return lowest_bit(mask)
    return a


@inline
def set_context(pub, seat, target, card, amount):
    """What the next decision is about (all public: who plays what on whom)."""
    pub[P_CTX_SEAT], pub[P_CTX_TARGET], pub[P_CTX_CARD], pub[P_CTX_AMOUNT] = seat, target, card, amount


# --- cards moving ----------------------------------------------------------------------------

@inline
def add_to_hand(g, s, t):
    pub, hid, ks = g[3], g[4], g[5]
    hid[s, H_HAND + t] += 1
    pub[seat_at(s, S_HAND)] += 1
    if t < N_WEAPONS:
        ks[stat(s, ST_HELD_W)] |= 1 << t
    else:
        ks[stat(s, ST_HELD_A)] |= 1 << (t - N_WEAPONS)


@inline
def remove_from_hand(g, s, t):
    pub, hid, ks = g[3], g[4], g[5]
    hid[s, H_HAND + t] -= 1
    pub[seat_at(s, S_HAND)] -= 1
    known = K_KNOWN + s * N_TYPES + t
    if ks[known] > 0:
        ks[known] -= 1
    for p in range(MAX_SEATS):  # a card seen leaving s's hand is no longer known to be there
        private = K_PRIVATE + (p * MAX_SEATS + s) * N_TYPES + t
        if ks[private] > 0:
            ks[private] -= 1


@inline
def to_discard(g, t):
    pub, ks = g[3], g[5]
    ks[K_DISCARD + pub[P_DISCARD_N]] = t
    pub[P_DISCARD_N] += 1
    pub[P_DISCARDS + t] += 1
    pub[P_DISCARD_TOP] = t


@inline
def mark_played(ks, s, t):
    """Record bitmask of the card types a seat played (in turn, or a Parry out of turn)."""
    if t < N_WEAPONS:
        ks[stat(s, ST_PLAYED_W)] |= 1 << t
    else:
        ks[stat(s, ST_PLAYED_A)] |= 1 << (t - N_WEAPONS)


@inline
def forget_hand(ks, b):
    """b lost a random card: nobody knows any more which of b's cards are still there."""
    ks[K_KNOWN + b * N_TYPES:K_KNOWN + (b + 1) * N_TYPES] = 0
    for p in range(MAX_SEATS):
        base = K_PRIVATE + (p * MAX_SEATS + b) * N_TYPES
        ks[base:base + N_TYPES] = 0


@jit
def random_hand_card(g, s):
    """A card drawn at random from seat s's hand (Geisha, Diversion); -1 if empty."""
    pub, hid, streams = g[3], g[4], g[9]
    size = pub[seat_at(s, S_HAND)]
    if size == 0:
        return -1
    k = rand_below(streams, TAKE_STREAM, size)
    for t in range(N_TYPES):
        k -= hid[s, H_HAND + t]
        if k < 0:
            return t
    return -1


@jit
def lose_honour_all(g, amount):
    """SS-6: every player loses honour at a reshuffle; the game ends if anyone reaches 0."""
    pub, ks, log = g[3], g[5], g[11]
    n = pub[P_N]
    for s in range(n):
        h = max(pub[seat_at(s, S_HONOUR)] - amount, 0)
        log_event(log, EV_HONOUR, pub[P_TURN], s, h - pub[seat_at(s, S_HONOUR)], h,
                  HONOUR_RESHUFFLE, 0)
        pub[seat_at(s, S_HONOUR)] = h
    for s in range(n):
        if pub[seat_at(s, S_HONOUR)] == 0:
            ks[K_END] = END_HONOUR


@jit
def take_top(g, any_effect):
    """The top card of the deck, or -1. OP-10: an empty deck is rebuilt from the shuffled
    discard pile as soon as any effect must draw (any_effect=0 with the option "draw_phase":
    only the draw phase rebuilds it); every player loses honour then (SS-6)."""
    rules, pub, ks, streams, log = g[0], g[3], g[5], g[9], g[11]
    if pub[P_DECK] == 0:
        n = pub[P_DISCARD_N]
        if n == 0 or (any_effect == 1 and rules[R_RESHUFFLE_PHASE] == 1):
            return -1
        for i in range(n):
            ks[K_DECK + i] = ks[K_DISCARD + i]
        for t in range(N_TYPES):
            pub[P_DISCARDS + t] = 0
        pub[P_DISCARD_N] = 0
        pub[P_DISCARD_TOP] = -1
        pub[P_DECK] = n
        shuffle(ks[K_DECK:K_DECK + n], n, streams, DECK_STREAM)
        pub[P_RESHUFFLES] += 1
        log_event(log, EV_RESHUFFLE, pub[P_TURN], -1, n, pub[P_RESHUFFLES], 0, 0)
        lose_honour_all(g, rules[R_RESHUFFLE_HONOUR])
        if over(g):
            return -1
    pub[P_DECK] -= 1
    return ks[K_DECK + pub[P_DECK]]


@jit
def draw_cards(g, s, k, any_effect):
    """Seat s draws k cards (fewer if the deck and discard pile run out or the game ends)."""
    pub, log = g[3], g[11]
    got = 0
    for i in range(k):
        t = take_top(g, any_effect)
        if t < 0:
            break
        add_to_hand(g, s, t)
        log_event(log, EV_CARD, pub[P_TURN], s, t, 0, 0, 0)
        got += 1
    log_event(log, EV_DRAWS, pub[P_TURN], s, got, 0, -1, 0)
    return got


# --- attacks (SS-9..SS-12) ----------------------------------------------------------------------

@jit
def difficulty(pub, a, b):
    """SS-9: fewest seats between a and b either way round (adjacent = 1), harmless players
    not counted; +1 per Armor on b; +1 against Benkei."""
    n = pub[P_N]
    right, q = 1, (a + 1) % n
    while q != b:
        right += 0 if harmless(pub, q) else 1
        q = (q + 1) % n
    left, q = 1, (a + n - 1) % n
    while q != b:
        left += 0 if harmless(pub, q) else 1
        q = (q + n - 1) % n
    d = min(left, right) + pub[seat_at(b, S_ARMOR)]
    if is_character(pub, b, BENKEI):
        d += 1
    return d


@jit
def weapon_targets(g, a, reach):
    """SS-10/11: the seats a weapon of difficulty `reach` may attack (Kojiro: any)."""
    pub = g[3]
    n = pub[P_N]
    kojiro = is_character(pub, a, KOJIRO)
    mask = 0
    for b in range(n):
        if b != a and not harmless(pub, b) and (kojiro or difficulty(pub, a, b) <= reach):
            mask |= 1 << b
    return mask


@jit
def easiest_target(g, a):
    """The lowest difficulty of any attack seat a could make now (99 if none)."""
    pub = g[3]
    n = pub[P_N]
    best = 99
    for b in range(n):
        if b != a and not harmless(pub, b):
            d = 0 if is_character(pub, a, KOJIRO) else difficulty(pub, a, b)
            best = min(best, d)
    return best


@jit
def damage(g, a, b, w):
    """SS-10 and OP-11: the weapon's damage, +1 per attacker's Fast Draw, +1 Musashi, -1
    Ginchiyo (minimum 1); by default Ginchiyo subtracts last."""
    rules, cards, pub = g[0], g[1], g[3]
    base = cards[w, CT_DAMAGE]
    bonus = pub[seat_at(a, S_FAST_DRAW)] + (1 if is_character(pub, a, MUSASHI) else 0)
    if not is_character(pub, b, GINCHIYO):
        return base + bonus
    if rules[R_SUBTRACT_FIRST]:
        return max(base - 1, 1) + bonus
    return max(base + bonus - 1, 1)


@jit
def defeat(g, b, a):
    """SS-12: b lost the last resilience point to a: b gives a 1 honour. SS-19/20, OP-1, OP-6,
    OP-7: the game may end by honour, by Swordmaster or, when a teammate's defeat leaves one
    player standing, with no Swordmaster (END_TEAMMATE_DEFEAT, scored as SS-19)."""
    rules, pub, hid, ks, log = g[0], g[3], g[4], g[5], g[11]
    n = pub[P_N]
    turn = pub[P_TURN]
    log_event(log, EV_DEFEAT, turn, b, a, 0, 0, 0)
    ks[stat(a, ST_DEFEATS)] += 1
    ks[stat(b, ST_DEFEATED)] += 1
    ks[K_LAST_VICTIM], ks[K_LAST_DEFEATER] = b, a
    if pub[seat_at(b, S_HONOUR)] > 0:
        pub[seat_at(b, S_HONOUR)] -= 1
        pub[seat_at(a, S_HONOUR)] += 1
        log_event(log, EV_HONOUR, turn, b, -1, pub[seat_at(b, S_HONOUR)], HONOUR_DEFEAT, a)
        log_event(log, EV_HONOUR, turn, a, 1, pub[seat_at(a, S_HONOUR)], HONOUR_DEFEAT, b)
    honour_end = pub[seat_at(b, S_HONOUR)] == 0
    master = -1
    if n > 3:  # SS-21: no Swordmaster victory with 3 players
        standing, last = 0, -1
        for q in range(n):
            field = S_HONOUR if rules[R_SWORD_HONOUR] else S_RESILIENCE
            if pub[seat_at(q, field)] > 0:
                standing += 1
                last = q
        if standing == 1:
            master = last
    teammate = hid[b, H_TEAM] == hid[a, H_TEAM]
    if master >= 0 and not (honour_end and rules[R_OP7_HONOUR]):
        if teammate:  # SS-20: the game ends, scored as SS-19, Deadly strike included
            ks[K_END] = END_TEAMMATE_DEFEAT
            ks[K_DEADLY_TEAM] = hid[b, H_TEAM]
        else:
            ks[K_END] = END_SWORDMASTER
            ks[K_SWORDMASTER] = master
    elif honour_end:
        ks[K_END] = END_HONOUR
        if teammate or rules[R_DEADLY_ANY]:
            ks[K_DEADLY_TEAM] = hid[b, H_TEAM]


@jit
def wound(g, b, a, amount, by_weapon):
    """b loses `amount` resilience to a (excess ignored, SS-12); returns the wounds taken."""
    pub, ks, log = g[3], g[5], g[11]
    left = pub[seat_at(b, S_RESILIENCE)]
    taken = min(amount, left)
    pub[seat_at(b, S_RESILIENCE)] = left - taken
    pub[P_HARM + a * MAX_SEATS + b] += taken
    ks[stat(a, ST_DEALT)] += taken
    ks[stat(b, ST_TAKEN)] += taken
    log_event(log, EV_WOUND, pub[P_TURN], b, taken, a, left - taken, by_weapon)
    if taken > 0 and left - taken == 0:
        defeat(g, b, a)
    return taken


@inline
def hanzo_weapons(pub, hid, b):
    """Hanzo may answer with a weapon as a Parry unless it is his last card (SS-3)."""
    if not is_character(pub, b, HANZO) or pub[seat_at(b, S_HAND)] <= 1:
        return 0
    mask = 0
    for t in range(N_WEAPONS):
        if hid[b, H_HAND + t] > 0:
            mask |= 1 << t
    return mask


@inline
def parry_answers(pub, hid, b):
    """Cards seat b may parry with (OP-4): a Parry, or Hanzo's weapons."""
    mask = hanzo_weapons(pub, hid, b)
    if hid[b, H_HAND + PARRY] > 0:
        mask |= 1 << PARRY
    return mask


@jit
def react(g, decision, b, answers):
    """OP-4: the reacting seat chooses among its answers and TAKE (option "always_parry":
    a Parry if it has one, else Hanzo's lowest weapon)."""
    rules = g[0]
    if answers == 0:
        return TAKE
    if rules[R_AUTO_PARRY]:
        return PARRY if (answers >> PARRY) & 1 else lowest_bit(answers)
    return ask(g, decision, b, answers | (1 << TAKE))


@jit
def attack(g, a, b, w):
    """SS-10: a attacks b with weapon w (already discarded). b may parry (OP-4); otherwise b
    takes the damage; Tomoe and Ushiwaka draw (SS-3, OP-9)."""
    rules, pub, hid, ks, log = g[0], g[3], g[4], g[5], g[11]
    amount = damage(g, a, b, w)
    set_context(pub, a, b, w, amount)
    pub[P_ATTACKS + a * MAX_SEATS + b] += 1
    ks[stat(a, ST_ATTACKS)] += 1
    r = react(g, np.int64(D_REACT), b, parry_answers(pub, hid, b))
    log_event(log, EV_REACT, pub[P_TURN], b, r, w, a, 0)
    if r != TAKE:
        remove_from_hand(g, b, r)
        to_discard(g, r)
        ks[stat(b, ST_PARRIES)] += 1
        mark_played(ks, b, r)
        return
    taken = wound(g, b, a, amount, np.int64(1))
    if over(g):
        return
    if taken > 0 and is_character(pub, a, TOMOE):
        draw_cards(g, a, np.int64(1), np.int64(1))
        if over(g):
            return
    if is_character(pub, b, USHIWAKA):
        draw_cards(g, b, amount if rules[R_USHI_DAMAGE] else taken, np.int64(1))


@jit
def everyone_answers(g, s, card):
    """SS-13 / OP-8: Battle Cry or Jujutsu, answered one player at a time clockwise from s
    (option: counter-clockwise); harmless players and Chiyome are immune."""
    rules, pub, hid, ks, log = g[0], g[3], g[4], g[5], g[11]
    n = pub[P_N]
    step = n - 1 if rules[R_ANSWER_CCW] else 1
    q = s
    for i in range(n - 1):
        q = (q + step) % n
        if harmless(pub, q) or is_character(pub, q, CHIYOME):
            continue
        set_context(pub, s, q, card, 1)
        pub[P_ATTACKS + s * MAX_SEATS + q] += 1
        if card == BATTLE_CRY:
            r = react(g, np.int64(D_BATTLE_CRY), q, parry_answers(pub, hid, q))
        else:
            weapons = 0
            for t in range(N_WEAPONS):
                if hid[q, H_HAND + t] > 0:
                    weapons |= 1 << t
            r = TAKE if weapons == 0 else ask(g, D_JUJUTSU, q, weapons | (1 << TAKE))
        log_event(log, EV_REACT, pub[P_TURN], q, r, card, s, 0)
        if r == TAKE:
            wound(g, q, s, np.int64(1), np.int64(0))
            if over(g):
                return
        else:
            remove_from_hand(g, q, r)
            to_discard(g, r)
            if card == BATTLE_CRY:
                mark_played(ks, q, r)


# --- the play phase (SS-7, SS-13..SS-18) -------------------------------------------------------

@jit
def weapon_limit(g, s):
    """SS-7, SS-21: 1 weapon a turn, +1 per Focus in play, +1 Goemon, +1 the 3-player Shogun."""
    pub = g[3]
    limit = 1 + pub[seat_at(s, S_FOCUS)]
    if is_character(pub, s, GOEMON):
        limit += 1
    if pub[P_N] == 3 and s == pub[P_SHOGUN]:
        limit += 1
    return limit


@jit
def play_mask(g, s):
    """The legal actions of s's play phase. Parry is never played in one's own turn (SS-7)."""
    cards, pub, hid = g[1], g[3], g[4]
    mask = 1 << END
    if pub[P_WEAPONS_PLAYED] < pub[P_WEAPON_LIMIT]:
        reach = -1
        for t in range(N_WEAPONS):
            if hid[s, H_HAND + t] > 0:
                if reach < 0:
                    reach = easiest_target(g, s)
                if cards[t, CT_DIFFICULTY] >= reach:
                    mask |= 1 << t
    for t in range(GEISHA, N_TYPES):
        if hid[s, H_HAND + t] > 0 and (t != BUSHIDO or pub[P_BUSHIDO] < 0):
            mask |= 1 << t
    if is_character(pub, s, NOBUNAGA) and pub[seat_at(s, S_RESILIENCE)] > 1:
        mask |= 1 << NOBUNAGA_TRADE
    return mask


@jit
def properties_of(pub, q):
    """Property types in play in front of q, as a bitmask of card types."""
    mask = 0
    if pub[seat_at(q, S_FOCUS)] > 0:
        mask |= 1 << FOCUS
    if pub[seat_at(q, S_ARMOR)] > 0:
        mask |= 1 << ARMOR
    if pub[seat_at(q, S_FAST_DRAW)] > 0:
        mask |= 1 << FAST_DRAW
    if pub[P_BUSHIDO] == q:
        mask |= 1 << BUSHIDO
    return mask


@jit
def geisha(g, s):
    """SS-16 / OP-5: s makes a player discard a property in play or a random card from hand."""
    rules, pub, ks, log = g[0], g[3], g[5], g[11]
    n = pub[P_N]
    targets = others(n, s)
    if rules[R_GEISHA_SELF] and properties_of(pub, s) != 0:
        targets |= 1 << s
    set_context(pub, s, -1, np.int64(GEISHA), 0)
    b = ask(g, D_TARGET, s, targets)
    log_event(log, EV_PLAY, pub[P_TURN], s, GEISHA, b, 0, 0)
    to_discard(g, np.int64(GEISHA))
    choices = properties_of(pub, b)
    if b != s and pub[seat_at(b, S_HAND)] > 0:
        choices |= 1 << FROM_HAND
    if choices == 0:
        return
    set_context(pub, s, b, np.int64(GEISHA), 0)
    c = ask(g, D_GEISHA, s, choices)
    if c == FROM_HAND:
        t = random_hand_card(g, b)
        remove_from_hand(g, b, t)
        forget_hand(ks, b)
        to_discard(g, t)
        log_event(log, EV_DISCARD, pub[P_TURN], b, t, WHY_GEISHA, s, 0)
        return
    if c == BUSHIDO:
        pub[P_BUSHIDO] = -1
    else:
        pub[seat_at(b, S_FOCUS + c - FOCUS)] -= 1
    to_discard(g, c)
    log_event(log, EV_PROPERTY_LOST, pub[P_TURN], b, c, s, 0, 0)


@jit
def diversion(g, s):
    """SS-16: s takes a random card from another player's hand (any difficulty)."""
    pub, ks, log = g[3], g[5], g[11]
    set_context(pub, s, -1, np.int64(DIVERSION), 0)
    b = ask(g, D_TARGET, s, others(pub[P_N], s))
    log_event(log, EV_PLAY, pub[P_TURN], s, DIVERSION, b, 0, 0)
    to_discard(g, np.int64(DIVERSION))
    t = random_hand_card(g, b)
    if t < 0:
        return
    remove_from_hand(g, b, t)
    forget_hand(ks, b)  # a random card left: unknown now
    add_to_hand(g, s, t)
    ks[K_PRIVATE + (b * MAX_SEATS + s) * N_TYPES + t] += 1  # the victim saw which card went
    log_event(log, EV_STEAL, pub[P_TURN], s, b, 0, 0, 0)
    log_event(log, EV_LOST, pub[P_TURN], b, t, s, 0, 0)
    log_event(log, EV_CARD, pub[P_TURN], s, t, 1, 0, 0)


@jit
def play_card(g, s, t):
    """SS-10, SS-13..SS-18: seat s plays card type t from its hand."""
    cards, pub, ks, log = g[1], g[3], g[5], g[11]
    n = pub[P_N]
    turn = pub[P_TURN]
    remove_from_hand(g, s, t)
    pub[seat_at(s, S_PLAYED + t)] += 1
    mark_played(ks, s, t)
    if t < N_WEAPONS:
        set_context(pub, s, -1, t, 0)
        b = ask(g, D_TARGET, s, weapon_targets(g, s, cards[t, CT_DIFFICULTY]))
        pub[P_WEAPONS_PLAYED] += 1
        log_event(log, EV_PLAY, turn, s, t, b, 0, 0)
        to_discard(g, t)
        attack(g, s, b, t)
    elif t == GEISHA:
        geisha(g, s)
    elif t == DIVERSION:
        diversion(g, s)
    elif t == TEA:  # SS-16: draw 3; every other player draws 1
        log_event(log, EV_PLAY, turn, s, t, -1, 0, 0)
        to_discard(g, t)
        draw_cards(g, s, np.int64(3), np.int64(1))
        for i in range(1, n):
            if over(g):
                return
            draw_cards(g, (s + i) % n, np.int64(1), np.int64(1))
    elif t == BATTLE_CRY or t == JUJUTSU:
        log_event(log, EV_PLAY, turn, s, t, -1, 0, 0)
        to_discard(g, t)
        everyone_answers(g, s, t)
    elif t == BREATHING:  # SS-14: full resilience for oneself, then another player draws 1
        pub[seat_at(s, S_RESILIENCE)] = pub[seat_at(s, S_MAX_RESILIENCE)]
        set_context(pub, s, -1, t, 0)
        b = ask(g, D_BREATHING, s, others(n, s))
        log_event(log, EV_PLAY, turn, s, t, b, 0, 0)
        to_discard(g, t)
        draw_cards(g, b, np.int64(1), np.int64(1))
    elif t == DAIMYO:  # SS-15
        pub[seat_at(s, S_DAIMYO_PLAYED)] += 1
        log_event(log, EV_PLAY, turn, s, t, -1, 0, 0)
        to_discard(g, t)
        draw_cards(g, s, np.int64(2), np.int64(1))
    elif t == BUSHIDO:  # SS-18: in front of any player
        set_context(pub, s, -1, t, 0)
        b = ask(g, D_TARGET, s, (1 << n) - 1)
        pub[P_BUSHIDO] = b
        log_event(log, EV_PLAY, turn, s, t, b, 0, 0)
    else:  # SS-17: Focus, Armor, Fast Draw in front of oneself
        pub[seat_at(s, S_FOCUS + t - FOCUS)] += 1
        log_event(log, EV_PLAY, turn, s, t, s, 0, 0)


@jit
def bushido_check(g, s):
    """SS-18: the holder flips the top card of the deck. A weapon: lose 1 honour and discard
    Bushido, or discard a weapon and pass it left (no weapon: the honour). Anything else: pass
    it left. SS-21: the 3-player Shogun just discards it (default); with the option
    shogun_bushido="choose" (the seed's wording) he still chooses, and discarding Bushido
    costs him no honour."""
    rules, pub, hid, ks, log = g[0], g[3], g[4], g[5], g[11]
    n = pub[P_N]
    turn = pub[P_TURN]
    t = take_top(g, np.int64(1))
    if over(g):
        return
    if t >= 0:
        to_discard(g, t)
        log_event(log, EV_DISCARD, turn, s, t, WHY_FLIP, 0, 0)
    if t < 0 or t >= N_WEAPONS:
        pub[P_BUSHIDO] = (s + 1) % n
        log_event(log, EV_BUSHIDO, turn, s, t, pub[P_BUSHIDO], 0, 0)
        return
    free = n == 3 and s == pub[P_SHOGUN]   # SS-21: he never loses honour to Bushido
    if free and rules[R_SHOGUN_BUSHIDO_CHOICE] == 0:
        pub[P_BUSHIDO] = -1
        to_discard(g, np.int64(BUSHIDO))
        log_event(log, EV_BUSHIDO, turn, s, t, -1, 0, 0)
        return
    weapons = 0
    for w in range(N_WEAPONS):
        if hid[s, H_HAND + w] > 0:
            weapons |= 1 << w
    set_context(pub, s, s, np.int64(BUSHIDO), 0 if free else 1)   # the honour TAKE costs
    c = ask(g, D_BUSHIDO, s, weapons | (1 << TAKE))
    if c == TAKE:
        pub[P_BUSHIDO] = -1
        to_discard(g, np.int64(BUSHIDO))
        if free:  # SS-21, seed's reading: he discards Bushido instead of losing the honour
            log_event(log, EV_BUSHIDO, turn, s, t, -1, 0, 0)
            return
        h = pub[seat_at(s, S_HONOUR)] - 1
        pub[seat_at(s, S_HONOUR)] = h
        log_event(log, EV_BUSHIDO, turn, s, t, -1, 0, 0)
        log_event(log, EV_HONOUR, turn, s, -1, h, HONOUR_BUSHIDO, 0)
        if h <= 0:
            pub[seat_at(s, S_HONOUR)] = 0
            ks[K_END] = END_HONOUR
        return
    remove_from_hand(g, s, c)
    to_discard(g, c)
    log_event(log, EV_DISCARD, turn, s, c, WHY_BUSHIDO, 0, 0)
    pub[P_BUSHIDO] = (s + 1) % n
    log_event(log, EV_BUSHIDO, turn, s, t, pub[P_BUSHIDO], 0, 0)


@jit
def draw_phase(g, s):
    """SS-6, SS-3 (Hideyoshi +1, Ieyasu's first draw from the discard pile), SS-21 (+1 for the
    3-player Shogun)."""
    pub, ks, log = g[3], g[5], g[11]
    k = 2
    if is_character(pub, s, HIDEYOSHI):
        k += 1
    if pub[P_N] == 3 and s == pub[P_SHOGUN]:
        k += 1
    if is_character(pub, s, IEYASU) and pub[P_DISCARD_N] > 0:  # OP-10: else from the deck
        top = pub[P_DISCARD_TOP]
        set_context(pub, s, -1, top, 0)
        if ask(g, D_IEYASU, s, np.int64(3)) == 1:
            pub[P_DISCARD_N] -= 1
            pub[P_DISCARDS + top] -= 1
            pub[P_DISCARD_TOP] = ks[K_DISCARD + pub[P_DISCARD_N] - 1] if pub[P_DISCARD_N] > 0 else -1
            add_to_hand(g, s, top)
            ks[K_KNOWN + s * N_TYPES + top] += 1   # everyone saw which card he took
            log_event(log, EV_CARD, pub[P_TURN], s, top, 2, 0, 0)
            log_event(log, EV_DRAWS, pub[P_TURN], s, 1, 1, top, 0)
            k -= 1
    draw_cards(g, s, k, np.int64(0))


@jit
def play_turn(g, s):
    """One turn: recover (SS-5), Bushido (SS-18), draw (SS-6), play (SS-7), discard (SS-8).
    OP-3: a play phase that rebuilds the deck more than MAX_TURN_RESHUFFLES times can never end
    (possible only when reshuffles cost no honour): the game is cut as "capped"."""
    rules, pub, hid, ks, log, ctl = g[0], g[3], g[4], g[5], g[11], g[12]
    pub[P_CURRENT] = s
    pub[P_TURN] += 1
    ks[stat(s, ST_TURNS)] += 1
    turn = pub[P_TURN]
    log_event(log, EV_TURN, turn, s, 0, 0, 0, 0)
    set_context(pub, -1, -1, -1, 0)
    if pub[seat_at(s, S_RESILIENCE)] == 0:
        pub[seat_at(s, S_RESILIENCE)] = pub[seat_at(s, S_MAX_RESILIENCE)]
        log_event(log, EV_RECOVER, turn, s, pub[seat_at(s, S_RESILIENCE)], 0, 0, 0)
    if pub[P_BUSHIDO] == s:
        bushido_check(g, s)
        if over(g):
            return
    draw_phase(g, s)
    if over(g):
        return
    pub[P_WEAPONS_PLAYED] = 0
    reshuffles = pub[P_RESHUFFLES]
    while not control.stopped(ctl):
        if pub[P_RESHUFFLES] - reshuffles > MAX_TURN_RESHUFFLES:  # OP-3: a turn with no end
            ks[K_END] = END_CAPPED
            return
        pub[P_WEAPON_LIMIT] = weapon_limit(g, s)
        set_context(pub, -1, -1, -1, 0)
        a = ask(g, D_PLAY, s, play_mask(g, s))
        if a == END:
            break
        if a == NOBUNAGA_TRADE:  # SS-3: lose 1 resilience (never the last) to draw 1
            pub[seat_at(s, S_RESILIENCE)] -= 1
            log_event(log, EV_NOBUNAGA, turn, s, pub[seat_at(s, S_RESILIENCE)], 0, 0, 0)
            draw_cards(g, s, np.int64(1), np.int64(1))
        else:
            play_card(g, s, a)
        if over(g):
            return
    while pub[seat_at(s, S_HAND)] > rules[R_HAND_LIMIT]:  # SS-8
        mask = 0
        for t in range(N_TYPES):
            if hid[s, H_HAND + t] > 0:
                mask |= 1 << t
        set_context(pub, s, -1, -1, pub[seat_at(s, S_HAND)] - rules[R_HAND_LIMIT])
        t = ask(g, D_DISCARD, s, mask)
        remove_from_hand(g, s, t)
        to_discard(g, t)
        log_event(log, EV_DISCARD, turn, s, t, WHY_HAND_LIMIT, 0, 0)


# --- hidden information -----------------------------------------------------------------------

@jit
def role_cards(rules, scratch):
    """The role cards of this player count (SS-1), Ninja with all their stars, in a fixed
    order: scratch[i] = role * 8 + stars. Returns how many."""
    k = 0
    for r in range(N_ROLES):
        count = rules[R_N_ROLES + r]
        if r == NINJA:
            copies = 3 if count == 2 else count  # SS-1: one of the three removed unseen
            for stars in range(1, copies + 1):
                scratch[k] = r * 8 + stars
                k += 1
        else:
            for i in range(count):
                scratch[k] = r * 8
                k += 1
    return k


@jit
def ctl_shuffle(values, count, ctl):
    """Fisher-Yates shuffle of values[:count] from the controller's stream (redeals)."""
    for i in range(count - 1, 0, -1):
        j = control.rand_below(ctl, i + 1)
        values[i], values[j] = values[j], values[i]


@jit
def nth_ninja(scratch, k, j):
    """Index in scratch[:k] of the j-th Ninja card."""
    for i in range(k):
        if scratch[i] // 8 == NINJA:
            if j == 0:
                return i
            j -= 1
    return -1


@inline
def known_to(ks, hid, p, q, t):
    """Copies of card t that seat p knows are in q's hand: publicly known (Ieyasu's pick) or
    taken from p by q's Diversion; never more than q holds."""
    known = ks[K_KNOWN + q * N_TYPES + t] + ks[K_PRIVATE + (p * MAX_SEATS + q) * N_TYPES + t]
    return min(known, hid[q, H_HAND + t])


@jit
def redeal(g, p):
    """Re-randomise what seat p has not observed, from the controller's stream: the hidden
    roles of the other seats (and which Ninja card was removed), the cards in the other hands
    that are not publicly known (Ieyasu's pick from the discard pile is) and the deck order.
    Unseen cards are collected by type, in a fixed order, before shuffling."""
    rules, pub, hid, ks, ctl = g[0], g[3], g[4], g[5], g[12]
    n = pub[P_N]
    shogun = pub[P_SHOGUN]
    scratch = ks[K_SCRATCH:K_SCRATCH + 64]
    k = role_cards(rules, scratch)
    for drop in (hid[shogun, H_ROLE] * 8 + hid[shogun, H_STARS], hid[p, H_ROLE] * 8 + hid[p, H_STARS]):
        for i in range(k):
            if scratch[i] == drop:
                scratch[i] = scratch[k - 1]
                k -= 1
                break
    others_left = n - 1 if p == shogun else n - 2
    if k > others_left:  # which Ninja was removed is unseen too
        ninjas = 0
        for i in range(k):
            ninjas += 1 if scratch[i] // 8 == NINJA else 0
        i = nth_ninja(scratch, k, control.rand_below(ctl, ninjas))
        ks[K_REMOVED_NINJA] = scratch[i] % 8
        scratch[i] = scratch[k - 1]
        k -= 1
    # the remaining cards in a canonical (sorted) order, then shuffled
    for i in range(1, k):
        j = i
        while j > 0 and scratch[j - 1] > scratch[j]:
            scratch[j - 1], scratch[j] = scratch[j], scratch[j - 1]
            j -= 1
    ctl_shuffle(scratch, k, ctl)
    i = 0
    for q in range(n):
        if q == p or q == shogun:
            continue
        hid[q, H_ROLE] = scratch[i] // 8
        hid[q, H_STARS] = scratch[i] % 8
        hid[q, H_TEAM] = 0 if hid[q, H_ROLE] <= SAMURAI else (1 if hid[q, H_ROLE] == NINJA else 2)
        i += 1
    # cards
    pool = ks[K_SCRATCH:K_SCRATCH + rules[R_DECK_SIZE]]
    counts = ks[K_SCRATCH + rules[R_DECK_SIZE]:K_SCRATCH + rules[R_DECK_SIZE] + N_TYPES]
    counts[:] = 0
    for i in range(pub[P_DECK]):
        counts[ks[K_DECK + i]] += 1
    for q in range(n):
        if q != p:
            for t in range(N_TYPES):
                counts[t] += hid[q, H_HAND + t] - known_to(ks, hid, p, q, t)
    size = 0
    for t in range(N_TYPES):
        for c in range(counts[t]):
            pool[size] = t
            size += 1
    ctl_shuffle(pool, size, ctl)
    i = 0
    for q in range(n):
        if q == p:
            continue
        unknown = pub[seat_at(q, S_HAND)]
        for t in range(N_TYPES):
            hid[q, H_HAND + t] = known_to(ks, hid, p, q, t)
            unknown -= hid[q, H_HAND + t]
        for c in range(unknown):
            hid[q, H_HAND + pool[i]] += 1
            i += 1
    for j in range(pub[P_DECK]):
        ks[K_DECK + j] = pool[i]
        i += 1


# --- a game -----------------------------------------------------------------------------------

@jit
def setup(g, deck_order, row):
    """SS-1 roles, SS-2 honour, SS-3 characters, SS-4 opening hands."""
    rules, cards, resilience, pub, hid, ks, streams, log = (
        g[0], g[1], g[2], g[3], g[4], g[5], g[9], g[11])
    n = rules[R_PLAYERS]
    pub[:] = 0
    hid[:, :] = 0
    ks[:] = 0
    ks[K_ROW] = row
    ks[K_END] = -1
    ks[K_WIN_TEAM] = -1
    ks[K_SWORDMASTER] = -1
    ks[K_DEADLY_TEAM] = -1
    ks[K_LAST_VICTIM] = -1
    ks[K_LAST_DEFEATER] = -1
    pub[P_N] = n
    for t in range(N_WEAPONS):
        pub[P_WEAPON_DIFFICULTY + t] = cards[t, CT_DIFFICULTY]
        pub[P_WEAPON_DAMAGE + t] = cards[t, CT_DAMAGE]
    pub[P_BUSHIDO] = -1
    pub[P_DISCARD_TOP] = -1
    # SS-1: the role cards, one Ninja removed unseen when only two are used
    if rules[R_FIXED_ROLES]:
        for s in range(n):
            hid[s, H_ROLE] = rules[R_ROLE + s]
            hid[s, H_STARS] = rules[R_STARS + s]
        ks[K_REMOVED_NINJA] = rules[R_REMOVED]
    else:
        scratch = ks[K_SCRATCH:K_SCRATCH + 64]
        k = role_cards(rules, scratch)
        if k > n:  # SS-1: one of the three Ninja removed unseen, at random
            i = nth_ninja(scratch, k, rand_below(streams, ROLE_STREAM, np.int64(3)))
            ks[K_REMOVED_NINJA] = scratch[i] % 8
            scratch[i] = scratch[k - 1]
            k -= 1
        shuffle(scratch, k, streams, ROLE_STREAM)
        for s in range(n):
            hid[s, H_ROLE] = scratch[s] // 8
            hid[s, H_STARS] = scratch[s] % 8
    shogun = 0
    for s in range(n):
        role = hid[s, H_ROLE]
        if role == SHOGUN:
            shogun = s
        hid[s, H_TEAM] = TEAM_SHOGUN if role <= SAMURAI else (TEAM_NINJA if role == NINJA else TEAM_RONIN)
        pub[seat_at(s, S_ROLE)] = SHOGUN if role == SHOGUN else HIDDEN
        pub[seat_at(s, S_HONOUR)] = rules[R_HONOUR + role]  # SS-2
        log_event(log, EV_ROLE, 0, s, role, hid[s, H_STARS], 0, 0)
    pub[P_SHOGUN] = shogun
    log_event(log, EV_SHOGUN, 0, shogun, 0, 0, 0, 0)
    # SS-3: characters fixed per seat or drawn at random from the pool, face up
    taken = 0
    for s in range(n):
        if rules[R_CHARACTER + s] >= 0:
            taken |= 1 << rules[R_CHARACTER + s]
    for s in range(n):
        c = rules[R_CHARACTER + s]
        if c < 0:
            free = rules[R_POOL] & ~taken
            c = nth_bit(free, rand_below(streams, CHARACTER_STREAM, popcount(free)))
            taken |= 1 << c
        pub[seat_at(s, S_CHARACTER)] = c
        pub[seat_at(s, S_RESILIENCE)] = resilience[c]
        pub[seat_at(s, S_MAX_RESILIENCE)] = resilience[c]
        log_event(log, EV_CHARACTER, 0, s, c, resilience[c], pub[seat_at(s, S_HONOUR)], 0)
    # the deck: shuffled, or stacked as given (deck_order lists it top first)
    size = rules[R_DECK_SIZE]
    if rules[R_FIXED_DECK]:
        for i in range(size):
            ks[K_DECK + i] = deck_order[size - 1 - i]
    else:
        i = 0
        for t in range(N_TYPES):
            for c in range(cards[t, 0]):
                ks[K_DECK + i] = t
                i += 1
        shuffle(ks[K_DECK:K_DECK + size], size, streams, DECK_STREAM)
    pub[P_DECK] = size
    # SS-4: opening hands, clockwise from the Shogun
    for i in range(n):
        s = (shogun + i) % n
        draw_cards(g, s, rules[R_OPENING + i], np.int64(1))
        ks[stat(s, ST_OPEN_W)] = ks[stat(s, ST_HELD_W)]
        ks[stat(s, ST_OPEN_A)] = ks[stat(s, ST_HELD_A)]


@jit
def score(g):
    """SS-19: honour x role multiplier + Daimyo in hand (not the Ronin); Deadly strike -3;
    the highest team wins, ties: Ninja beat all, the Shogun's team beats the Ronin. SS-20: a
    Swordmaster's team wins outright; a teammate's defeat that left one player standing is
    scored as SS-19. A capped game (OP-3) has no winner."""
    rules, pub, hid, ks = g[0], g[3], g[4], g[5]
    n = pub[P_N]
    top_stars = 0
    for s in range(n):
        if hid[s, H_ROLE] == NINJA:
            top_stars = max(top_stars, hid[s, H_STARS])
    present = 0
    for t in range(N_TEAMS):
        ks[K_TEAM_SCORE + t] = 0
    for s in range(n):
        role = hid[s, H_ROLE]
        mult = rules[R_MULT + role]
        if role == NINJA and rules[R_TOP_STARS_MULT] > 0 and hid[s, H_STARS] == top_stars:
            mult = rules[R_TOP_STARS_MULT]
        points = pub[seat_at(s, S_HONOUR)] * mult
        if role != RONIN:
            points += hid[s, H_HAND + DAIMYO]
        ks[stat(s, ST_SCORE)] = points
        ks[K_TEAM_SCORE + hid[s, H_TEAM]] += points
        present |= 1 << hid[s, H_TEAM]
    if ks[K_DEADLY_TEAM] >= 0:
        ks[K_TEAM_SCORE + ks[K_DEADLY_TEAM]] -= 3
    end = ks[K_END]
    win = -1
    if end == END_SWORDMASTER:
        win = hid[ks[K_SWORDMASTER], H_TEAM]
    elif end == END_HONOUR or end == END_TEAMMATE_DEFEAT:
        best = -(1 << 30)
        for team in (TEAM_NINJA, TEAM_SHOGUN, TEAM_RONIN):  # tie priority
            if (present >> team) & 1 and ks[K_TEAM_SCORE + team] > best:
                best = ks[K_TEAM_SCORE + team]
                win = team
    ks[K_WIN_TEAM] = win
    mask = 0
    if win >= 0:
        for s in range(n):
            if hid[s, H_TEAM] == win:
                mask |= 1 << s
    ks[K_WINNERS] = mask


@jit
def write_record(g, out, row):
    pub, hid, ks, log = g[3], g[4], g[5], g[11]
    n = pub[P_N]
    turn = pub[P_TURN]
    out[row, RECORD_LENGTH] = turn
    out[row, RECORD_END] = ks[K_END]
    out[row, RECORD_WINNERS] = ks[K_WINNERS]
    out[row, C_GAME0] = pub[P_SHOGUN]
    out[row, C_GAME0 + 1] = ks[K_WIN_TEAM]
    for t in range(N_TEAMS):
        out[row, C_GAME0 + 2 + t] = ks[K_TEAM_SCORE + t]
    out[row, C_GAME0 + 5] = pub[P_RESHUFFLES]
    out[row, C_GAME0 + 6] = ks[K_DEADLY_TEAM]
    out[row, C_GAME0 + 7] = ks[K_SWORDMASTER]
    out[row, C_GAME0 + 8] = ks[K_REMOVED_NINJA]
    for s in range(n):
        c = C_SEAT0 + s * N_SEAT_COLUMNS
        out[row, c] = hid[s, H_ROLE]
        out[row, c + 1] = hid[s, H_STARS]
        out[row, c + 2] = hid[s, H_TEAM]
        out[row, c + 3] = pub[seat_at(s, S_CHARACTER)]
        out[row, c + 4] = pub[seat_at(s, S_HONOUR)]
        out[row, c + 5] = pub[seat_at(s, S_RESILIENCE)]
        out[row, c + 6] = ks[stat(s, ST_SCORE)]
        out[row, c + 7] = hid[s, H_HAND + DAIMYO]
        out[row, c + 8] = min(ks[stat(s, ST_DEALT)], 32767)
        out[row, c + 9] = min(ks[stat(s, ST_TAKEN)], 32767)
        out[row, c + 10] = min(ks[stat(s, ST_DEFEATS)], 32767)
        out[row, c + 11] = min(ks[stat(s, ST_DEFEATED)], 32767)
        out[row, c + 12] = min(ks[stat(s, ST_ATTACKS)], 32767)
        out[row, c + 13] = min(ks[stat(s, ST_PARRIES)], 32767)
        out[row, c + 14] = ks[stat(s, ST_TURNS)]
        out[row, c + 15] = ks[stat(s, ST_HELD_W)]
        out[row, c + 16] = ks[stat(s, ST_HELD_A)]
        out[row, c + 17] = ks[stat(s, ST_OPEN_W)]
        out[row, c + 18] = ks[stat(s, ST_OPEN_A)]
        out[row, c + 19] = ks[stat(s, ST_PLAYED_W)]
        out[row, c + 20] = ks[stat(s, ST_PLAYED_A)]
        log_event(log, EV_SCORE, turn, s, hid[s, H_ROLE], hid[s, H_STARS], ks[stat(s, ST_SCORE)],
                  hid[s, H_HAND + DAIMYO])
    for t in range(N_TEAMS):
        log_event(log, EV_TEAM, turn, -1, t, ks[K_TEAM_SCORE + t], 0, 0)
    log_event(log, EV_END, turn, -1, ks[K_END], ks[K_WINNERS], ks[K_WIN_TEAM], ks[K_DEADLY_TEAM])


@jit
def conserved(g):
    """Invariants checked after every turn: every card of every type is in exactly one place
    (deck, discard pile, a hand, in play); public counts match the hidden ones; resilience within
    0..maximum; honour never negative."""
    rules, cards, pub, hid, ks = g[0], g[1], g[3], g[4], g[5]
    n = pub[P_N]
    scratch = ks[K_SCRATCH:K_SCRATCH + N_TYPES]
    scratch[:] = 0
    for i in range(pub[P_DECK]):
        scratch[ks[K_DECK + i]] += 1
    for i in range(pub[P_DISCARD_N]):
        scratch[ks[K_DISCARD + i]] += 1
    for t in range(N_TYPES):
        if pub[P_DISCARDS + t] < 0:
            return False
    for s in range(n):
        size = 0
        for t in range(N_TYPES):
            if hid[s, H_HAND + t] < 0:
                return False
            scratch[t] += hid[s, H_HAND + t]
            size += hid[s, H_HAND + t]
        if size != pub[seat_at(s, S_HAND)]:
            return False
        for t in range(FOCUS, BUSHIDO):
            scratch[t] += pub[seat_at(s, S_FOCUS + t - FOCUS)]
        r = pub[seat_at(s, S_RESILIENCE)]
        if r < 0 or r > pub[seat_at(s, S_MAX_RESILIENCE)] or pub[seat_at(s, S_HONOUR)] < 0:
            return False
    if pub[P_BUSHIDO] >= 0:
        scratch[BUSHIDO] += 1
    for t in range(N_TYPES):
        if scratch[t] != cards[t, 0]:
            return False
    return True


@jit
def play_game(g, deck_order, out, row):
    """One game from set-up to record; the Shogun starts, then clockwise (SS-5..SS-8)."""
    rules, pub, ks, ctl = g[0], g[3], g[5], g[12]
    setup(g, deck_order, row)
    n = pub[P_N]
    s = pub[P_SHOGUN]
    while not over(g):
        if pub[P_TURN] >= rules[R_TURN_CAP] or control.stopped(ctl):  # OP-3
            ks[K_END] = END_CAPPED
            break
        play_turn(g, s)
        if rules[R_CHECK_EVERY_TURN] and not conserved(g):
            ks[K_END] = END_BROKEN
        s = (s + 1) % n
    if not conserved(g):  # always at the end; after every turn with check_invariants
        ks[K_END] = END_BROKEN
    score(g)
    write_record(g, out, row)


@njit(cache=True, nogil=True)
def play_chunk(rules, cards, resilience, deck_order, kinds, params, key, first_game, out, error,
               log, ctl):
    """Play out.shape[0] games (see sim.game for the contract)."""
    n = rules[R_PLAYERS]
    pub = np.zeros(PUB_SIZE, np.int64)
    hid = np.zeros((n, HID_SIZE), np.int64)
    ks = np.zeros(KS_SIZE, np.int64)
    legal = np.zeros(N_ACTIONS, np.bool_)
    streams = np.zeros(stream_count(N_CHANCE, n, N_DECISIONS), np.uint64)
    seat_kinds = np.zeros(n, np.int64)
    seat_params = np.zeros(params.shape, np.float64)
    g = (rules, cards, resilience, pub, hid, ks, legal, seat_kinds, seat_params, streams, error,
         log, ctl)
    trial, trial_error = out[:1].copy(), error.copy()
    no_log = np.zeros((0, log.shape[1]), np.int64)
    trial_g = (rules, cards, resilience, pub, hid, ks, legal, seat_kinds, seat_params, streams,
               trial_error, no_log, ctl)
    for row in range(out.shape[0]):
        game = first_game + row
        control.begin_game(ctl, game, row == 0, kinds, params, seat_kinds, seat_params)
        while True:  # a search seat pauses the game at each of its decisions (sim.control)
            seed_game(key, game, streams)
            if log.shape[0] > 0:
                log[0, 0] = 0
            play_game(g, deck_order, out, row)
            if not control.search_pending(ctl):
                break
            for _ in range(control.begin_search(ctl, seat_params)):
                seed_game(key, game, streams)
                control.begin_iteration(ctl, seat_kinds, seat_params)
                play_game(trial_g, deck_order, trial, 0)
                control.end_iteration(ctl, trial[0, RECORD_WINNERS])
            control.end_search(ctl, kinds, params, seat_kinds, seat_params)
        if error[3] == 1:
            return
