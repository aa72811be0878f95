"""Samurai Sword rules as Numba kernels (rule ids SS-n and open points OP-n refer to
shared/rules/samurai_sword.md).

The rules are straight-line code that asks a seat through this module's :func:`ask` whenever
the rules give it a choice, reactions out of turn included; every decision goes through the
engine's protocol (sim/core/protocol.py: forced moves, random and scripted seats, the
controller, illegal answers). The state is a :class:`State` of int64 arrays whose fields are
named in layout.py: ``pub`` (every public fact), ``hid`` (one private row per seat: role, hand,
the strategy's scratch memory; a strategy is handed its own row only) and ``ks`` (kernel-only:
deck and discard order, statistics for the record). Sets (legal actions, targets) are bitmasks.

Random streams (layout.STREAM, sim.rng): the deck (first shuffle and every reshuffle), the role
deal, the character deal, random cards taken from a hand (Geisha, Diversion), then one stream per
(seat, decision type); so one more decision never shifts a deal.

Speed: everything below play_chunk runs without reference counting (``_nrt=False``) and
allocates nothing; constants passed to functions that are not inlined are wrapped in
``np.int64`` (Numba compiles one copy per literal value otherwise). Inlined functions read one
state field per assignment (several in one tuple assignment were once miscompiled).
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from games.samurai.strategies import N_FEATURES, builtin_decide, features

from sim import core
from sim.bits import lowest_bit, nth_bit, popcount
from sim.core import control, log_event
from sim.game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS
from sim.rng import rand_below, shuffle
from . import layout as L
from .layout import (ACT, CARD, CH, CT, END, EV, HONOUR, LOG_WIDTH, MAX_SEATS, N_ACTIONS,
                     N_CHANCE, N_DECISIONS, N_TYPES, N_WEAPONS, ROLE, STREAM, TEAM, WHY, C, D, H,
                     K, P, R, S, ST, seat_at)

LOG_WIDTH = LOG_WIDTH
jit = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


class State(NamedTuple):
    """The whole state of one game (allocated once per chunk: every game reuses it)."""
    core: core.Core
    rules: np.ndarray      # int64[N_RULES]: R.*
    cards: np.ndarray      # int64[N_TYPES, N_CARD_COLUMNS]: count, difficulty, damage (CT.*)
    resilience: np.ndarray  # int64[N_CHARACTERS]: each character's resilience (SS-3)
    deck_order: np.ndarray  # int64[DECK_MAX]: a stacked deck, top first (R.FIXED_DECK)
    pub: np.ndarray        # int64[PUB_SIZE]: the public state, P.*, seat_at(seat, S.*)
    hid: np.ndarray        # int64[n, HID_SIZE]: each seat's private row, H.*
    ks: np.ndarray         # int64[KS_SIZE]: kernel-only (deck, discard pile, bookkeeping), K.*


class Observation(NamedTuple):
    """What a seat's strategy is handed (games/samurai/strategies.py documents the fields)."""
    pub: np.ndarray        # int64[PUB_SIZE]: every public fact. Read only.
    mine: np.ndarray       # int64[HID_SIZE]: the seat's own private row; mine[H.MEMORY:] is the
                           # strategy's scratch memory, the rest is read only.


OBSERVATION = (("pub", np.int64, 1), ("mine", np.int64, 1))


@inline
def over(g):
    return g.ks[K.END] >= 0


@inline
def stat(seat, field):
    return K.STATS + seat * L.N_STATS + field


@inline
def harmless(pub, s):
    """SS-11: 0 resilience or no cards in hand."""
    return pub[seat_at(s, S.RESILIENCE)] == 0 or pub[seat_at(s, S.HAND)] == 0


@inline
def is_character(pub, s, c):
    return pub[seat_at(s, S.CHARACTER)] == c


@inline
def others(n, s):
    return ((1 << n) - 1) & ~(1 << s)


# --- asking a seat ----------------------------------------------------------------------------

@inline
def ask(g, decision, seat, mask):
    """The seat's strategy picks one action of the bitmask ``mask`` (never empty): the engine's
    ``ask_set`` (a single legal action is taken without asking; an illegal answer is reported
    and replaced by the lowest legal action). The forced move is taken here, inline; any other
    decision is asked through one call of :func:`ask_seat`."""
    if mask & (mask - 1) == 0:
        return lowest_bit(mask)
    return ask_seat(g, np.int64(decision), seat, mask)


@jit
def ask_seat(g, decision, seat, mask):
    """Samurai's context of a decision: its mask in pub[P.LEGAL] and its code in
    pub[P.DECISION] (what the caller set with set_context stays until the next decision sets
    its own: all of it is public)."""
    pub = g.pub
    pub[P.LEGAL] = mask
    pub[P.DECISION] = decision
    return core.ask_set(g, decision, seat, mask, N_ACTIONS)


@inline
def observe(g, decision, seat):
    """A seat sees the public state and its own private row (role, hand, memory)."""
    return Observation(g.pub, g.hid[seat])


@jit
def off_script(g, decision, seat, legal):
    """A script's answer to a decision it does not list: passive (end the play phase, take the
    wound, else the lowest legal action)."""
    if legal[ACT.END]:
        return ACT.END
    if legal[ACT.TAKE]:
        return ACT.TAKE
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


@inline
def set_context(pub, seat, target, card, amount):
    """What the next decision is about (all public: who plays what on whom)."""
    pub[P.CTX_SEAT] = seat
    pub[P.CTX_TARGET] = target
    pub[P.CTX_CARD] = card
    pub[P.CTX_AMOUNT] = amount


# --- cards moving ----------------------------------------------------------------------------

@inline
def add_to_hand(g, s, t):
    pub = g.pub
    hid = g.hid
    ks = g.ks
    hid[s, H.HAND + t] += 1
    pub[seat_at(s, S.HAND)] += 1
    if t < N_WEAPONS:
        ks[stat(s, ST.HELD_W)] |= 1 << t
    else:
        ks[stat(s, ST.HELD_A)] |= 1 << (t - N_WEAPONS)


@inline
def remove_from_hand(g, s, t):
    pub = g.pub
    hid = g.hid
    ks = g.ks
    hid[s, H.HAND + t] -= 1
    pub[seat_at(s, S.HAND)] -= 1
    known = K.KNOWN + s * N_TYPES + t
    if ks[known] > 0:
        ks[known] -= 1
    for p in range(MAX_SEATS):  # a card seen leaving s's hand is no longer known to be there
        private = K.PRIVATE + (p * MAX_SEATS + s) * N_TYPES + t
        if ks[private] > 0:
            ks[private] -= 1


@inline
def to_discard(g, t):
    pub = g.pub
    ks = g.ks
    ks[K.DISCARD + pub[P.DISCARD_N]] = t
    pub[P.DISCARD_N] += 1
    pub[P.DISCARDS + t] += 1
    pub[P.DISCARD_TOP] = t


@inline
def mark_played(ks, s, t):
    """Record bitmask of the card types a seat played (in turn, or a Parry out of turn)."""
    if t < N_WEAPONS:
        ks[stat(s, ST.PLAYED_W)] |= 1 << t
    else:
        ks[stat(s, ST.PLAYED_A)] |= 1 << (t - N_WEAPONS)


@inline
def forget_hand(ks, b):
    """b lost a random card: nobody knows any more which of b's cards are still there."""
    ks[K.KNOWN + b * N_TYPES:K.KNOWN + (b + 1) * N_TYPES] = 0
    for p in range(MAX_SEATS):
        base = K.PRIVATE + (p * MAX_SEATS + b) * N_TYPES
        ks[base:base + N_TYPES] = 0


@jit
def random_hand_card(g, s):
    """A card drawn at random from seat s's hand (Geisha, Diversion); -1 if empty."""
    pub, hid, streams = g.pub, g.hid, g.core.streams
    size = pub[seat_at(s, S.HAND)]
    if size == 0:
        return -1
    k = rand_below(streams, STREAM.TAKE, size)
    for t in range(N_TYPES):
        k -= hid[s, H.HAND + t]
        if k < 0:
            return t
    return -1


@jit
def lose_honour_all(g, amount):
    """SS-6: every player loses honour at a reshuffle; the game ends if anyone reaches 0."""
    pub, ks = g.pub, g.ks
    n = pub[P.N]
    for s in range(n):
        h = max(pub[seat_at(s, S.HONOUR)] - amount, 0)
        log_event(g, EV.HONOUR, pub[P.TURN], s, h - pub[seat_at(s, S.HONOUR)], h,
                  HONOUR.RESHUFFLE, 0)
        pub[seat_at(s, S.HONOUR)] = h
    for s in range(n):
        if pub[seat_at(s, S.HONOUR)] == 0:
            ks[K.END] = END.HONOUR


@jit
def take_top(g, any_effect):
    """The top card of the deck, or -1. OP-10: an empty deck is rebuilt from the shuffled
    discard pile as soon as any effect must draw (any_effect=0 with the option "draw_phase":
    only the draw phase rebuilds it); every player loses honour then (SS-6)."""
    rules, pub, ks, streams = g.rules, g.pub, g.ks, g.core.streams
    if pub[P.DECK] == 0:
        n = pub[P.DISCARD_N]
        if n == 0 or (any_effect == 1 and rules[R.RESHUFFLE_PHASE] == 1):
            return -1
        for i in range(n):
            ks[K.DECK + i] = ks[K.DISCARD + i]
        for t in range(N_TYPES):
            pub[P.DISCARDS + t] = 0
        pub[P.DISCARD_N] = 0
        pub[P.DISCARD_TOP] = -1
        pub[P.DECK] = n
        shuffle(ks[K.DECK:K.DECK + n], n, streams, STREAM.DECK)
        pub[P.RESHUFFLES] += 1
        log_event(g, EV.RESHUFFLE, pub[P.TURN], -1, n, pub[P.RESHUFFLES], 0, 0)
        lose_honour_all(g, rules[R.RESHUFFLE_HONOUR])
        if over(g):
            return -1
    pub[P.DECK] -= 1
    return ks[K.DECK + pub[P.DECK]]


@jit
def draw_cards(g, s, k, any_effect):
    """Seat s draws k cards (fewer if the deck and discard pile run out or the game ends)."""
    pub = g.pub
    got = 0
    for i in range(k):
        t = take_top(g, any_effect)
        if t < 0:
            break
        add_to_hand(g, s, t)
        log_event(g, EV.CARD, pub[P.TURN], s, t, 0, 0, 0)
        got += 1
    log_event(g, EV.DRAWS, pub[P.TURN], s, got, 0, -1, 0)
    return got


# --- attacks (SS-9..SS-12) ----------------------------------------------------------------------

@jit
def difficulty(pub, a, b):
    """SS-9: fewest seats between a and b either way round (adjacent = 1), harmless players
    not counted; +1 per Armor on b; +1 against Benkei."""
    n = pub[P.N]
    right, q = 1, (a + 1) % n
    while q != b:
        right += 0 if harmless(pub, q) else 1
        q = (q + 1) % n
    left, q = 1, (a + n - 1) % n
    while q != b:
        left += 0 if harmless(pub, q) else 1
        q = (q + n - 1) % n
    d = min(left, right) + pub[seat_at(b, S.ARMOR)]
    if is_character(pub, b, CH.BENKEI):
        d += 1
    return d


@jit
def weapon_targets(g, a, reach):
    """SS-10/11: the seats a weapon of difficulty `reach` may attack (Kojiro: any)."""
    pub = g.pub
    n = pub[P.N]
    kojiro = is_character(pub, a, CH.KOJIRO)
    mask = 0
    for b in range(n):
        if b != a and not harmless(pub, b) and (kojiro or difficulty(pub, a, b) <= reach):
            mask |= 1 << b
    return mask


@jit
def easiest_target(g, a):
    """The lowest difficulty of any attack seat a could make now (99 if none)."""
    pub = g.pub
    n = pub[P.N]
    best = 99
    for b in range(n):
        if b != a and not harmless(pub, b):
            d = 0 if is_character(pub, a, CH.KOJIRO) else difficulty(pub, a, b)
            best = min(best, d)
    return best


@jit
def damage(g, a, b, w):
    """SS-10 and OP-11: the weapon's damage, +1 per attacker's Fast Draw, +1 Musashi, -1
    Ginchiyo (minimum 1); by default Ginchiyo subtracts last."""
    rules, cards, pub = g.rules, g.cards, g.pub
    base = cards[w, CT.DAMAGE]
    bonus = pub[seat_at(a, S.FAST_DRAW)] + (1 if is_character(pub, a, CH.MUSASHI) else 0)
    if not is_character(pub, b, CH.GINCHIYO):
        return base + bonus
    if rules[R.SUBTRACT_FIRST]:
        return max(base - 1, 1) + bonus
    return max(base + bonus - 1, 1)


@jit
def defeat(g, b, a):
    """SS-12: b lost the last resilience point to a: b gives a 1 honour. SS-19/20, OP-1, OP-6,
    OP-7: the game may end by honour, by Swordmaster or, when a teammate's defeat leaves one
    player standing, with no Swordmaster (END.TEAMMATE_DEFEAT, scored as SS-19)."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    n = pub[P.N]
    turn = pub[P.TURN]
    log_event(g, EV.DEFEAT, turn, b, a, 0, 0, 0)
    ks[stat(a, ST.DEFEATS)] += 1
    ks[stat(b, ST.DEFEATED)] += 1
    ks[K.LAST_VICTIM], ks[K.LAST_DEFEATER] = b, a
    if pub[seat_at(b, S.HONOUR)] > 0:
        pub[seat_at(b, S.HONOUR)] -= 1
        pub[seat_at(a, S.HONOUR)] += 1
        log_event(g, EV.HONOUR, turn, b, -1, pub[seat_at(b, S.HONOUR)], HONOUR.DEFEAT, a)
        log_event(g, EV.HONOUR, turn, a, 1, pub[seat_at(a, S.HONOUR)], HONOUR.DEFEAT, b)
    honour_end = pub[seat_at(b, S.HONOUR)] == 0
    master = -1
    if n > 3:  # SS-21: no Swordmaster victory with 3 players
        standing, last = 0, -1
        for q in range(n):
            field = S.HONOUR if rules[R.SWORD_HONOUR] else S.RESILIENCE
            if pub[seat_at(q, field)] > 0:
                standing += 1
                last = q
        if standing == 1:
            master = last
    teammate = hid[b, H.TEAM] == hid[a, H.TEAM]
    if master >= 0 and not (honour_end and rules[R.OP7_HONOUR]):
        if teammate:  # SS-20: the game ends, scored as SS-19, Deadly strike included
            ks[K.END] = END.TEAMMATE_DEFEAT
            ks[K.DEADLY_TEAM] = hid[b, H.TEAM]
        else:
            ks[K.END] = END.SWORDMASTER
            ks[K.SWORDMASTER] = master
    elif honour_end:
        ks[K.END] = END.HONOUR
        if teammate or rules[R.DEADLY_ANY]:
            ks[K.DEADLY_TEAM] = hid[b, H.TEAM]


@jit
def wound(g, b, a, amount, by_weapon):
    """b loses `amount` resilience to a (excess ignored, SS-12); returns the wounds taken."""
    pub, ks = g.pub, g.ks
    left = pub[seat_at(b, S.RESILIENCE)]
    taken = min(amount, left)
    pub[seat_at(b, S.RESILIENCE)] = left - taken
    pub[P.HARM + a * MAX_SEATS + b] += taken
    ks[stat(a, ST.DEALT)] += taken
    ks[stat(b, ST.TAKEN)] += taken
    log_event(g, EV.WOUND, pub[P.TURN], b, taken, a, left - taken, by_weapon)
    if taken > 0 and left - taken == 0:
        defeat(g, b, a)
    return taken


@inline
def hanzo_weapons(pub, hid, b):
    """Hanzo may answer with a weapon as a Parry unless it is his last card (SS-3)."""
    if not is_character(pub, b, CH.HANZO) or pub[seat_at(b, S.HAND)] <= 1:
        return 0
    mask = 0
    for t in range(N_WEAPONS):
        if hid[b, H.HAND + t] > 0:
            mask |= 1 << t
    return mask


@inline
def parry_answers(pub, hid, b):
    """Cards seat b may parry with (OP-4): a Parry, or Hanzo's weapons."""
    mask = hanzo_weapons(pub, hid, b)
    if hid[b, H.HAND + CARD.PARRY] > 0:
        mask |= 1 << CARD.PARRY
    return mask


@jit
def react(g, decision, b, answers):
    """OP-4: the reacting seat chooses among its answers and ACT.TAKE (option "always_parry":
    a Parry if it has one, else Hanzo's lowest weapon)."""
    rules = g.rules
    if answers == 0:
        return ACT.TAKE
    if rules[R.AUTO_PARRY]:
        return CARD.PARRY if (answers >> CARD.PARRY) & 1 else lowest_bit(answers)
    return ask(g, decision, b, answers | (1 << ACT.TAKE))


@jit
def attack(g, a, b, w):
    """SS-10: a attacks b with weapon w (already discarded). b may parry (OP-4); otherwise b
    takes the damage; Tomoe and Ushiwaka draw (SS-3, OP-9)."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    amount = damage(g, a, b, w)
    set_context(pub, a, b, w, amount)
    pub[P.ATTACKS + a * MAX_SEATS + b] += 1
    ks[stat(a, ST.ATTACKS)] += 1
    r = react(g, np.int64(D.REACT), b, parry_answers(pub, hid, b))
    log_event(g, EV.REACT, pub[P.TURN], b, r, w, a, 0)
    if r != ACT.TAKE:
        remove_from_hand(g, b, r)
        to_discard(g, r)
        ks[stat(b, ST.PARRIES)] += 1
        mark_played(ks, b, r)
        return
    taken = wound(g, b, a, amount, np.int64(1))
    if over(g):
        return
    if taken > 0 and is_character(pub, a, CH.TOMOE):
        draw_cards(g, a, np.int64(1), np.int64(1))
        if over(g):
            return
    if is_character(pub, b, CH.USHIWAKA):
        draw_cards(g, b, amount if rules[R.USHI_DAMAGE] else taken, np.int64(1))


@jit
def everyone_answers(g, s, card):
    """SS-13 / OP-8: Battle Cry or Jujutsu, answered one player at a time clockwise from s
    (option: counter-clockwise); harmless players and Chiyome are immune."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    n = pub[P.N]
    step = n - 1 if rules[R.ANSWER_CCW] else 1
    q = s
    for i in range(n - 1):
        q = (q + step) % n
        if harmless(pub, q) or is_character(pub, q, CH.CHIYOME):
            continue
        set_context(pub, s, q, card, 1)
        pub[P.ATTACKS + s * MAX_SEATS + q] += 1
        if card == CARD.BATTLE_CRY:
            r = react(g, np.int64(D.BATTLE_CRY), q, parry_answers(pub, hid, q))
        else:
            weapons = 0
            for t in range(N_WEAPONS):
                if hid[q, H.HAND + t] > 0:
                    weapons |= 1 << t
            r = ACT.TAKE if weapons == 0 else ask(g, D.JUJUTSU, q, weapons | (1 << ACT.TAKE))
        log_event(g, EV.REACT, pub[P.TURN], q, r, card, s, 0)
        if r == ACT.TAKE:
            wound(g, q, s, np.int64(1), np.int64(0))
            if over(g):
                return
        else:
            remove_from_hand(g, q, r)
            to_discard(g, r)
            if card == CARD.BATTLE_CRY:
                mark_played(ks, q, r)


# --- the play phase (SS-7, SS-13..SS-18) -------------------------------------------------------

@jit
def weapon_limit(g, s):
    """SS-7, SS-21: 1 weapon a turn, +1 per Focus in play, +1 Goemon, +1 the 3-player Shogun."""
    pub = g.pub
    limit = 1 + pub[seat_at(s, S.FOCUS)]
    if is_character(pub, s, CH.GOEMON):
        limit += 1
    if pub[P.N] == 3 and s == pub[P.SHOGUN]:
        limit += 1
    return limit


@jit
def play_mask(g, s):
    """The legal actions of s's play phase. Parry is never played in one's own turn (SS-7)."""
    cards, pub, hid = g.cards, g.pub, g.hid
    mask = 1 << ACT.END
    if pub[P.WEAPONS_PLAYED] < pub[P.WEAPON_LIMIT]:
        reach = -1
        for t in range(N_WEAPONS):
            if hid[s, H.HAND + t] > 0:
                if reach < 0:
                    reach = easiest_target(g, s)
                if cards[t, CT.DIFFICULTY] >= reach:
                    mask |= 1 << t
    for t in range(CARD.GEISHA, N_TYPES):
        if hid[s, H.HAND + t] > 0 and (t != CARD.BUSHIDO or pub[P.BUSHIDO] < 0):
            mask |= 1 << t
    if is_character(pub, s, CH.NOBUNAGA) and pub[seat_at(s, S.RESILIENCE)] > 1:
        mask |= 1 << ACT.NOBUNAGA_TRADE
    return mask


@jit
def properties_of(pub, q):
    """Property types in play in front of q, as a bitmask of card types."""
    mask = 0
    if pub[seat_at(q, S.FOCUS)] > 0:
        mask |= 1 << CARD.FOCUS
    if pub[seat_at(q, S.ARMOR)] > 0:
        mask |= 1 << CARD.ARMOR
    if pub[seat_at(q, S.FAST_DRAW)] > 0:
        mask |= 1 << CARD.FAST_DRAW
    if pub[P.BUSHIDO] == q:
        mask |= 1 << CARD.BUSHIDO
    return mask


@jit
def geisha(g, s):
    """SS-16 / OP-5: s makes a player discard a property in play or a random card from hand."""
    rules, pub, ks = g.rules, g.pub, g.ks
    n = pub[P.N]
    targets = others(n, s)
    if rules[R.GEISHA_SELF] and properties_of(pub, s) != 0:
        targets |= 1 << s
    set_context(pub, s, -1, np.int64(CARD.GEISHA), 0)
    b = ask(g, D.TARGET, s, targets)
    log_event(g, EV.PLAY, pub[P.TURN], s, CARD.GEISHA, b, 0, 0)
    to_discard(g, np.int64(CARD.GEISHA))
    choices = properties_of(pub, b)
    if b != s and pub[seat_at(b, S.HAND)] > 0:
        choices |= 1 << ACT.FROM_HAND
    if choices == 0:
        return
    set_context(pub, s, b, np.int64(CARD.GEISHA), 0)
    c = ask(g, D.GEISHA, s, choices)
    if c == ACT.FROM_HAND:
        t = random_hand_card(g, b)
        remove_from_hand(g, b, t)
        forget_hand(ks, b)
        to_discard(g, t)
        log_event(g, EV.DISCARD, pub[P.TURN], b, t, WHY.GEISHA, s, 0)
        return
    if c == CARD.BUSHIDO:
        pub[P.BUSHIDO] = -1
    else:
        pub[seat_at(b, S.FOCUS + c - CARD.FOCUS)] -= 1
    to_discard(g, c)
    log_event(g, EV.PROPERTY_LOST, pub[P.TURN], b, c, s, 0, 0)


@jit
def diversion(g, s):
    """SS-16: s takes a random card from another player's hand (any difficulty)."""
    pub, ks = g.pub, g.ks
    set_context(pub, s, -1, np.int64(CARD.DIVERSION), 0)
    b = ask(g, D.TARGET, s, others(pub[P.N], s))
    log_event(g, EV.PLAY, pub[P.TURN], s, CARD.DIVERSION, b, 0, 0)
    to_discard(g, np.int64(CARD.DIVERSION))
    t = random_hand_card(g, b)
    if t < 0:
        return
    remove_from_hand(g, b, t)
    forget_hand(ks, b)  # a random card left: unknown now
    add_to_hand(g, s, t)
    ks[K.PRIVATE + (b * MAX_SEATS + s) * N_TYPES + t] += 1  # the victim saw which card went
    log_event(g, EV.STEAL, pub[P.TURN], s, b, 0, 0, 0)
    log_event(g, EV.LOST, pub[P.TURN], b, t, s, 0, 0)
    log_event(g, EV.CARD, pub[P.TURN], s, t, 1, 0, 0)


@jit
def play_card(g, s, t):
    """SS-10, SS-13..SS-18: seat s plays card type t from its hand."""
    cards, pub, ks = g.cards, g.pub, g.ks
    n = pub[P.N]
    turn = pub[P.TURN]
    remove_from_hand(g, s, t)
    pub[seat_at(s, S.PLAYED + t)] += 1
    mark_played(ks, s, t)
    if t < N_WEAPONS:
        set_context(pub, s, -1, t, 0)
        b = ask(g, D.TARGET, s, weapon_targets(g, s, cards[t, CT.DIFFICULTY]))
        pub[P.WEAPONS_PLAYED] += 1
        log_event(g, EV.PLAY, turn, s, t, b, 0, 0)
        to_discard(g, t)
        attack(g, s, b, t)
    elif t == CARD.GEISHA:
        geisha(g, s)
    elif t == CARD.DIVERSION:
        diversion(g, s)
    elif t == CARD.TEA:  # SS-16: draw 3; every other player draws 1
        log_event(g, EV.PLAY, turn, s, t, -1, 0, 0)
        to_discard(g, t)
        draw_cards(g, s, np.int64(3), np.int64(1))
        for i in range(1, n):
            if over(g):
                return
            draw_cards(g, (s + i) % n, np.int64(1), np.int64(1))
    elif t == CARD.BATTLE_CRY or t == CARD.JUJUTSU:
        log_event(g, EV.PLAY, turn, s, t, -1, 0, 0)
        to_discard(g, t)
        everyone_answers(g, s, t)
    elif t == CARD.BREATHING:  # SS-14: full resilience for oneself, then another player draws 1
        pub[seat_at(s, S.RESILIENCE)] = pub[seat_at(s, S.MAX_RESILIENCE)]
        set_context(pub, s, -1, t, 0)
        b = ask(g, D.BREATHING, s, others(n, s))
        log_event(g, EV.PLAY, turn, s, t, b, 0, 0)
        to_discard(g, t)
        draw_cards(g, b, np.int64(1), np.int64(1))
    elif t == CARD.DAIMYO:  # SS-15
        pub[seat_at(s, S.DAIMYO_PLAYED)] += 1
        log_event(g, EV.PLAY, turn, s, t, -1, 0, 0)
        to_discard(g, t)
        draw_cards(g, s, np.int64(2), np.int64(1))
    elif t == CARD.BUSHIDO:  # SS-18: in front of any player
        set_context(pub, s, -1, t, 0)
        b = ask(g, D.TARGET, s, (1 << n) - 1)
        pub[P.BUSHIDO] = b
        log_event(g, EV.PLAY, turn, s, t, b, 0, 0)
    else:  # SS-17: Focus, Armor, Fast Draw in front of oneself
        pub[seat_at(s, S.FOCUS + t - CARD.FOCUS)] += 1
        log_event(g, EV.PLAY, turn, s, t, s, 0, 0)


@jit
def bushido_check(g, s):
    """SS-18: the holder flips the top card of the deck. A weapon: lose 1 honour and discard
    Bushido, or discard a weapon and pass it left (no weapon: the honour). Anything else: pass
    it left. SS-21: the 3-player Shogun just discards it (default); with the option
    shogun_bushido="choose" (the seed's wording) he still chooses, and discarding Bushido
    costs him no honour."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    n = pub[P.N]
    turn = pub[P.TURN]
    t = take_top(g, np.int64(1))
    if over(g):
        return
    if t >= 0:
        to_discard(g, t)
        log_event(g, EV.DISCARD, turn, s, t, WHY.FLIP, 0, 0)
    if t < 0 or t >= N_WEAPONS:
        pub[P.BUSHIDO] = (s + 1) % n
        log_event(g, EV.BUSHIDO, turn, s, t, pub[P.BUSHIDO], 0, 0)
        return
    free = n == 3 and s == pub[P.SHOGUN]   # SS-21: he never loses honour to Bushido
    if free and rules[R.SHOGUN_BUSHIDO_CHOICE] == 0:
        pub[P.BUSHIDO] = -1
        to_discard(g, np.int64(CARD.BUSHIDO))
        log_event(g, EV.BUSHIDO, turn, s, t, -1, 0, 0)
        return
    weapons = 0
    for w in range(N_WEAPONS):
        if hid[s, H.HAND + w] > 0:
            weapons |= 1 << w
    set_context(pub, s, s, np.int64(CARD.BUSHIDO), 0 if free else 1)   # the honour ACT.TAKE costs
    c = ask(g, D.BUSHIDO, s, weapons | (1 << ACT.TAKE))
    if c == ACT.TAKE:
        pub[P.BUSHIDO] = -1
        to_discard(g, np.int64(CARD.BUSHIDO))
        if free:  # SS-21, seed's reading: he discards Bushido instead of losing the honour
            log_event(g, EV.BUSHIDO, turn, s, t, -1, 0, 0)
            return
        h = pub[seat_at(s, S.HONOUR)] - 1
        pub[seat_at(s, S.HONOUR)] = h
        log_event(g, EV.BUSHIDO, turn, s, t, -1, 0, 0)
        log_event(g, EV.HONOUR, turn, s, -1, h, HONOUR.BUSHIDO, 0)
        if h <= 0:
            pub[seat_at(s, S.HONOUR)] = 0
            ks[K.END] = END.HONOUR
        return
    remove_from_hand(g, s, c)
    to_discard(g, c)
    log_event(g, EV.DISCARD, turn, s, c, WHY.BUSHIDO, 0, 0)
    pub[P.BUSHIDO] = (s + 1) % n
    log_event(g, EV.BUSHIDO, turn, s, t, pub[P.BUSHIDO], 0, 0)


@jit
def draw_phase(g, s):
    """SS-6, SS-3 (Hideyoshi +1, Ieyasu's first draw from the discard pile), SS-21 (+1 for the
    3-player Shogun)."""
    pub, ks = g.pub, g.ks
    k = 2
    if is_character(pub, s, CH.HIDEYOSHI):
        k += 1
    if pub[P.N] == 3 and s == pub[P.SHOGUN]:
        k += 1
    if is_character(pub, s, CH.IEYASU) and pub[P.DISCARD_N] > 0:  # OP-10: else from the deck
        top = pub[P.DISCARD_TOP]
        set_context(pub, s, -1, top, 0)
        if ask(g, D.IEYASU, s, np.int64(3)) == 1:
            pub[P.DISCARD_N] -= 1
            pub[P.DISCARDS + top] -= 1
            pub[P.DISCARD_TOP] = ks[K.DISCARD + pub[P.DISCARD_N] - 1] if pub[P.DISCARD_N] > 0 else -1
            add_to_hand(g, s, top)
            ks[K.KNOWN + s * N_TYPES + top] += 1   # everyone saw which card he took
            log_event(g, EV.CARD, pub[P.TURN], s, top, 2, 0, 0)
            log_event(g, EV.DRAWS, pub[P.TURN], s, 1, 1, top, 0)
            k -= 1
    draw_cards(g, s, k, np.int64(0))


@jit
def play_turn(g, s):
    """One turn: recover (SS-5), Bushido (SS-18), draw (SS-6), play (SS-7), discard (SS-8).
    OP-3: a play phase that rebuilds the deck more than MAX_TURN_RESHUFFLES times can never end
    (possible only when reshuffles cost no honour): the game is cut as "capped"."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    pub[P.CURRENT] = s
    pub[P.TURN] += 1
    ks[stat(s, ST.TURNS)] += 1
    turn = pub[P.TURN]
    log_event(g, EV.TURN, turn, s, 0, 0, 0, 0)
    set_context(pub, -1, -1, -1, 0)
    if pub[seat_at(s, S.RESILIENCE)] == 0:
        pub[seat_at(s, S.RESILIENCE)] = pub[seat_at(s, S.MAX_RESILIENCE)]
        log_event(g, EV.RECOVER, turn, s, pub[seat_at(s, S.RESILIENCE)], 0, 0, 0)
    if pub[P.BUSHIDO] == s:
        bushido_check(g, s)
        if over(g):
            return
    draw_phase(g, s)
    if over(g):
        return
    pub[P.WEAPONS_PLAYED] = 0
    reshuffles = pub[P.RESHUFFLES]
    while not core.stopped(g):
        if pub[P.RESHUFFLES] - reshuffles > L.MAX_TURN_RESHUFFLES:  # OP-3: a turn with no end
            ks[K.END] = END.CAPPED
            return
        pub[P.WEAPON_LIMIT] = weapon_limit(g, s)
        set_context(pub, -1, -1, -1, 0)
        a = ask(g, D.PLAY, s, play_mask(g, s))
        if a == ACT.END:
            break
        if a == ACT.NOBUNAGA_TRADE:  # SS-3: lose 1 resilience (never the last) to draw 1
            pub[seat_at(s, S.RESILIENCE)] -= 1
            log_event(g, EV.NOBUNAGA, turn, s, pub[seat_at(s, S.RESILIENCE)], 0, 0, 0)
            draw_cards(g, s, np.int64(1), np.int64(1))
        else:
            play_card(g, s, a)
        if over(g):
            return
    while pub[seat_at(s, S.HAND)] > rules[R.HAND_LIMIT]:  # SS-8
        mask = 0
        for t in range(N_TYPES):
            if hid[s, H.HAND + t] > 0:
                mask |= 1 << t
        set_context(pub, s, -1, -1, pub[seat_at(s, S.HAND)] - rules[R.HAND_LIMIT])
        t = ask(g, D.DISCARD, s, mask)
        remove_from_hand(g, s, t)
        to_discard(g, t)
        log_event(g, EV.DISCARD, turn, s, t, WHY.HAND_LIMIT, 0, 0)


# --- hidden information -----------------------------------------------------------------------

@jit
def role_cards(rules, scratch):
    """The role cards of this player count (SS-1), Ninja with all their stars, in a fixed
    order: scratch[i] = role * 8 + stars. Returns how many."""
    k = 0
    for r in range(L.N_ROLES):
        count = rules[R.N_ROLES + r]
        if r == ROLE.NINJA:
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
        if scratch[i] // 8 == ROLE.NINJA:
            if j == 0:
                return i
            j -= 1
    return -1


@inline
def known_to(ks, hid, p, q, t):
    """Copies of card t that seat p knows are in q's hand: publicly known (Ieyasu's pick) or
    taken from p by q's Diversion; never more than q holds."""
    known = ks[K.KNOWN + q * N_TYPES + t] + ks[K.PRIVATE + (p * MAX_SEATS + q) * N_TYPES + t]
    return min(known, hid[q, H.HAND + t])


@jit
def redeal(g, p):
    """Re-randomise what seat p has not observed, from the controller's stream: the hidden
    roles of the other seats (and which Ninja card was removed), the cards in the other hands
    that are not publicly known (Ieyasu's pick from the discard pile is) and the deck order.
    Unseen cards are collected by type, in a fixed order, before shuffling."""
    rules, pub, hid, ks, ctl = g.rules, g.pub, g.hid, g.ks, g.core.ctl
    n = pub[P.N]
    shogun = pub[P.SHOGUN]
    scratch = ks[K.SCRATCH:K.SCRATCH + 64]
    k = role_cards(rules, scratch)
    for drop in (hid[shogun, H.ROLE] * 8 + hid[shogun, H.STARS], hid[p, H.ROLE] * 8 + hid[p, H.STARS]):
        for i in range(k):
            if scratch[i] == drop:
                scratch[i] = scratch[k - 1]
                k -= 1
                break
    others_left = n - 1 if p == shogun else n - 2
    if k > others_left:  # which Ninja was removed is unseen too
        ninjas = 0
        for i in range(k):
            ninjas += 1 if scratch[i] // 8 == ROLE.NINJA else 0
        i = nth_ninja(scratch, k, control.rand_below(ctl, ninjas))
        ks[K.REMOVED_NINJA] = scratch[i] % 8
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
        hid[q, H.ROLE] = scratch[i] // 8
        hid[q, H.STARS] = scratch[i] % 8
        role = hid[q, H.ROLE]
        hid[q, H.TEAM] = (TEAM.SHOGUN if role <= ROLE.SAMURAI
                          else TEAM.NINJA if role == ROLE.NINJA else TEAM.RONIN)
        i += 1
    # cards
    pool = ks[K.SCRATCH:K.SCRATCH + rules[R.DECK_SIZE]]
    counts = ks[K.SCRATCH + rules[R.DECK_SIZE]:K.SCRATCH + rules[R.DECK_SIZE] + N_TYPES]
    counts[:] = 0
    for i in range(pub[P.DECK]):
        counts[ks[K.DECK + i]] += 1
    for q in range(n):
        if q != p:
            for t in range(N_TYPES):
                counts[t] += hid[q, H.HAND + t] - known_to(ks, hid, p, q, t)
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
        unknown = pub[seat_at(q, S.HAND)]
        for t in range(N_TYPES):
            hid[q, H.HAND + t] = known_to(ks, hid, p, q, t)
            unknown -= hid[q, H.HAND + t]
        for c in range(unknown):
            hid[q, H.HAND + pool[i]] += 1
            i += 1
    for j in range(pub[P.DECK]):
        ks[K.DECK + j] = pool[i]
        i += 1


# --- a game -----------------------------------------------------------------------------------

@jit
def setup(g):
    """SS-1 roles, SS-2 honour, SS-3 characters, SS-4 opening hands."""
    rules, deck_order, cards, resilience = g.rules, g.deck_order, g.cards, g.resilience
    pub, hid, ks, streams = g.pub, g.hid, g.ks, g.core.streams
    n = rules[R.PLAYERS]
    pub[:] = 0
    hid[:, :] = 0
    ks[:] = 0
    ks[K.END] = -1
    ks[K.WIN_TEAM] = -1
    ks[K.SWORDMASTER] = -1
    ks[K.DEADLY_TEAM] = -1
    ks[K.LAST_VICTIM] = -1
    ks[K.LAST_DEFEATER] = -1
    pub[P.N] = n
    for t in range(N_WEAPONS):
        pub[P.WEAPON_DIFFICULTY + t] = cards[t, CT.DIFFICULTY]
        pub[P.WEAPON_DAMAGE + t] = cards[t, CT.DAMAGE]
    pub[P.BUSHIDO] = -1
    pub[P.DISCARD_TOP] = -1
    # SS-1: the role cards, one Ninja removed unseen when only two are used
    if rules[R.FIXED_ROLES]:
        for s in range(n):
            hid[s, H.ROLE] = rules[R.ROLE + s]
            hid[s, H.STARS] = rules[R.STARS + s]
        ks[K.REMOVED_NINJA] = rules[R.REMOVED]
    else:
        scratch = ks[K.SCRATCH:K.SCRATCH + 64]
        k = role_cards(rules, scratch)
        if k > n:  # SS-1: one of the three Ninja removed unseen, at random
            i = nth_ninja(scratch, k, rand_below(streams, STREAM.ROLE, np.int64(3)))
            ks[K.REMOVED_NINJA] = scratch[i] % 8
            scratch[i] = scratch[k - 1]
            k -= 1
        shuffle(scratch, k, streams, STREAM.ROLE)
        for s in range(n):
            hid[s, H.ROLE] = scratch[s] // 8
            hid[s, H.STARS] = scratch[s] % 8
    shogun = 0
    for s in range(n):
        role = hid[s, H.ROLE]
        if role == ROLE.SHOGUN:
            shogun = s
        hid[s, H.TEAM] = (TEAM.SHOGUN if role <= ROLE.SAMURAI
                          else TEAM.NINJA if role == ROLE.NINJA else TEAM.RONIN)
        pub[seat_at(s, S.ROLE)] = ROLE.SHOGUN if role == ROLE.SHOGUN else L.HIDDEN
        pub[seat_at(s, S.HONOUR)] = rules[R.HONOUR + role]  # SS-2
        log_event(g, EV.ROLE, 0, s, role, hid[s, H.STARS], 0, 0)
    pub[P.SHOGUN] = shogun
    log_event(g, EV.SHOGUN, 0, shogun, 0, 0, 0, 0)
    # SS-3: characters fixed per seat or drawn at random from the pool, face up
    taken = 0
    for s in range(n):
        if rules[R.CHARACTER + s] >= 0:
            taken |= 1 << rules[R.CHARACTER + s]
    for s in range(n):
        c = rules[R.CHARACTER + s]
        if c < 0:
            free = rules[R.POOL] & ~taken
            c = nth_bit(free, rand_below(streams, STREAM.CHARACTER, popcount(free)))
            taken |= 1 << c
        pub[seat_at(s, S.CHARACTER)] = c
        pub[seat_at(s, S.RESILIENCE)] = resilience[c]
        pub[seat_at(s, S.MAX_RESILIENCE)] = resilience[c]
        log_event(g, EV.CHARACTER, 0, s, c, resilience[c], pub[seat_at(s, S.HONOUR)], 0)
    # the deck: shuffled, or stacked as given (deck_order lists it top first)
    size = rules[R.DECK_SIZE]
    if rules[R.FIXED_DECK]:
        for i in range(size):
            ks[K.DECK + i] = deck_order[size - 1 - i]
    else:
        i = 0
        for t in range(N_TYPES):
            for c in range(cards[t, 0]):
                ks[K.DECK + i] = t
                i += 1
        shuffle(ks[K.DECK:K.DECK + size], size, streams, STREAM.DECK)
    pub[P.DECK] = size
    # SS-4: opening hands, clockwise from the Shogun
    for i in range(n):
        s = (shogun + i) % n
        draw_cards(g, s, rules[R.OPENING + i], np.int64(1))
        ks[stat(s, ST.OPEN_W)] = ks[stat(s, ST.HELD_W)]
        ks[stat(s, ST.OPEN_A)] = ks[stat(s, ST.HELD_A)]


@jit
def score(g):
    """SS-19: honour x role multiplier + Daimyo in hand (not the Ronin); Deadly strike -3;
    the highest team wins, ties: Ninja beat all, the Shogun's team beats the Ronin. SS-20: a
    Swordmaster's team wins outright; a teammate's defeat that left one player standing is
    scored as SS-19. A capped game (OP-3) has no winner."""
    rules, pub, hid, ks = g.rules, g.pub, g.hid, g.ks
    n = pub[P.N]
    top_stars = 0
    for s in range(n):
        if hid[s, H.ROLE] == ROLE.NINJA:
            top_stars = max(top_stars, hid[s, H.STARS])
    present = 0
    for t in range(L.N_TEAMS):
        ks[K.TEAM_SCORE + t] = 0
    for s in range(n):
        role = hid[s, H.ROLE]
        mult = rules[R.MULT + role]
        if role == ROLE.NINJA and rules[R.TOP_STARS_MULT] > 0 and hid[s, H.STARS] == top_stars:
            mult = rules[R.TOP_STARS_MULT]
        points = pub[seat_at(s, S.HONOUR)] * mult
        if role != ROLE.RONIN:
            points += hid[s, H.HAND + CARD.DAIMYO]
        ks[stat(s, ST.SCORE)] = points
        ks[K.TEAM_SCORE + hid[s, H.TEAM]] += points
        present |= 1 << hid[s, H.TEAM]
    if ks[K.DEADLY_TEAM] >= 0:
        ks[K.TEAM_SCORE + ks[K.DEADLY_TEAM]] -= 3
    end = ks[K.END]
    win = -1
    if end == END.SWORDMASTER:
        win = hid[ks[K.SWORDMASTER], H.TEAM]
    elif end == END.HONOUR or end == END.TEAMMATE_DEFEAT:
        best = -(1 << 30)
        for team in (TEAM.NINJA, TEAM.SHOGUN, TEAM.RONIN):  # tie priority
            if (present >> team) & 1 and ks[K.TEAM_SCORE + team] > best:
                best = ks[K.TEAM_SCORE + team]
                win = team
    ks[K.WIN_TEAM] = win
    mask = 0
    if win >= 0:
        for s in range(n):
            if hid[s, H.TEAM] == win:
                mask |= 1 << s
    ks[K.WINNERS] = mask


@jit
def write_record(g, out, row):
    pub, hid, ks = g.pub, g.hid, g.ks
    n = pub[P.N]
    turn = pub[P.TURN]
    out[row, RECORD_LENGTH] = turn
    out[row, RECORD_END] = ks[K.END]
    out[row, RECORD_WINNERS] = ks[K.WINNERS]
    out[row, C.SHOGUN] = pub[P.SHOGUN]
    out[row, C.WIN_TEAM] = ks[K.WIN_TEAM]
    for t in range(L.N_TEAMS):
        out[row, C.TEAM_SCORE + t] = ks[K.TEAM_SCORE + t]
    out[row, C.RESHUFFLES] = pub[P.RESHUFFLES]
    out[row, C.DEADLY_TEAM] = ks[K.DEADLY_TEAM]
    out[row, C.SWORDMASTER] = ks[K.SWORDMASTER]
    out[row, C.REMOVED_NINJA] = ks[K.REMOVED_NINJA]
    for s in range(n):
        c = C.SEAT0 + s * L.N_SEAT_COLUMNS
        out[row, c] = hid[s, H.ROLE]
        out[row, c + 1] = hid[s, H.STARS]
        out[row, c + 2] = hid[s, H.TEAM]
        out[row, c + 3] = pub[seat_at(s, S.CHARACTER)]
        out[row, c + 4] = pub[seat_at(s, S.HONOUR)]
        out[row, c + 5] = pub[seat_at(s, S.RESILIENCE)]
        out[row, c + 6] = ks[stat(s, ST.SCORE)]
        out[row, c + 7] = hid[s, H.HAND + CARD.DAIMYO]
        out[row, c + 8] = min(ks[stat(s, ST.DEALT)], 32767)
        out[row, c + 9] = min(ks[stat(s, ST.TAKEN)], 32767)
        out[row, c + 10] = min(ks[stat(s, ST.DEFEATS)], 32767)
        out[row, c + 11] = min(ks[stat(s, ST.DEFEATED)], 32767)
        out[row, c + 12] = min(ks[stat(s, ST.ATTACKS)], 32767)
        out[row, c + 13] = min(ks[stat(s, ST.PARRIES)], 32767)
        out[row, c + 14] = ks[stat(s, ST.TURNS)]
        out[row, c + 15] = ks[stat(s, ST.HELD_W)]
        out[row, c + 16] = ks[stat(s, ST.HELD_A)]
        out[row, c + 17] = ks[stat(s, ST.OPEN_W)]
        out[row, c + 18] = ks[stat(s, ST.OPEN_A)]
        out[row, c + 19] = ks[stat(s, ST.PLAYED_W)]
        out[row, c + 20] = ks[stat(s, ST.PLAYED_A)]
        log_event(g, EV.SCORE, turn, s, hid[s, H.ROLE], hid[s, H.STARS], ks[stat(s, ST.SCORE)],
                  hid[s, H.HAND + CARD.DAIMYO])
    for t in range(L.N_TEAMS):
        log_event(g, EV.TEAM, turn, -1, t, ks[K.TEAM_SCORE + t], 0, 0)
    log_event(g, EV.END, turn, -1, ks[K.END], ks[K.WINNERS], ks[K.WIN_TEAM], ks[K.DEADLY_TEAM])


@jit
def conserved(g):
    """Invariants checked after every turn: every card of every type is in exactly one place
    (deck, discard pile, a hand, in play); public counts match the hidden ones; resilience within
    0..maximum; honour never negative."""
    cards, pub, hid, ks = g.cards, g.pub, g.hid, g.ks
    n = pub[P.N]
    scratch = ks[K.SCRATCH:K.SCRATCH + N_TYPES]
    scratch[:] = 0
    for i in range(pub[P.DECK]):
        scratch[ks[K.DECK + i]] += 1
    for i in range(pub[P.DISCARD_N]):
        scratch[ks[K.DISCARD + i]] += 1
    for t in range(N_TYPES):
        if pub[P.DISCARDS + t] < 0:
            return False
    for s in range(n):
        size = 0
        for t in range(N_TYPES):
            if hid[s, H.HAND + t] < 0:
                return False
            scratch[t] += hid[s, H.HAND + t]
            size += hid[s, H.HAND + t]
        if size != pub[seat_at(s, S.HAND)]:
            return False
        for t in range(CARD.FOCUS, CARD.BUSHIDO):
            scratch[t] += pub[seat_at(s, S.FOCUS + t - CARD.FOCUS)]
        r = pub[seat_at(s, S.RESILIENCE)]
        if r < 0 or r > pub[seat_at(s, S.MAX_RESILIENCE)] or pub[seat_at(s, S.HONOUR)] < 0:
            return False
    if pub[P.BUSHIDO] >= 0:
        scratch[CARD.BUSHIDO] += 1
    for t in range(N_TYPES):
        if scratch[t] != cards[t, 0]:
            return False
    return True


@jit
def play_game(g, out, row):
    """One game from set-up to record; the Shogun starts, then clockwise (SS-5..SS-8)."""
    rules, pub, ks = g.rules, g.pub, g.ks
    setup(g)
    n = pub[P.N]
    s = pub[P.SHOGUN]
    while not over(g):
        if pub[P.TURN] >= rules[R.TURN_CAP] or core.stopped(g):  # OP-3
            ks[K.END] = END.CAPPED
            break
        play_turn(g, s)
        if rules[R.CHECK_EVERY_TURN] and not conserved(g):
            ks[K.END] = END.BROKEN
        s = (s + 1) % n
    if not conserved(g):  # always at the end; after every turn with check_invariants
        ks[K.END] = END.BROKEN
    score(g)
    write_record(g, out, row)


core.register(State, N_CHANCE, N_DECISIONS, play_game=play_game, observe=observe, redeal=redeal,
              strategy=builtin_decide, off_script=off_script, features=features)


@njit(cache=True)
def new_state(rules, cards, resilience, deck_order, batch, log, ctl):
    """The state of one chunk's games (allocated once; every game reuses it)."""
    n = rules[R.PLAYERS]
    return State(core.new_core(batch, n, N_CHANCE, N_DECISIONS, N_ACTIONS, log, ctl, N_FEATURES),
                 rules,
                 cards, resilience, deck_order, np.zeros(L.PUB_SIZE, np.int64),
                 np.zeros((n, L.HID_SIZE), np.int64), np.zeros(L.KS_SIZE, np.int64))


@njit(cache=True, nogil=True)
def play_chunk(rules, cards, resilience, deck_order, batch, out, log, ctl):
    """Play out.shape[0] games (sim/game.py has the contract)."""
    core.run_chunk(new_state(rules, cards, resilience, deck_order, batch, log, ctl), batch, out)
