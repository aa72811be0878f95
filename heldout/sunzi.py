"""Held-out Sunzi / Dynasties players, written from shared/rules/sunzi_dynasties.md (never trained
against: see heldout/__init__.py). Rule ids SZ-n are the brief's.

- ``concentrate``: its strongest cards on the regions that score most at the coming scoring
  (SZ-18), white cards saved for the scoring rounds 3, 6 and 9 (they are used once, SZ-13), low
  yellows elsewhere, the yellow 1 played outside scoring rounds for its extra card (SZ-14); keeps
  the stronger card when it draws (SZ-13); a Plague where the opponent's armies are many more.
- ``spread``: in a scoring round cedes the region the opponent most wants with its -1 (which
  loses by just 1 whatever it meets, SZ-11) and wins the others; spends white cards more freely,
  one in a quiet round when it holds several, to build armies early; Plague wherever the opponent
  leads; now and then (a bluff) plays a concentrated round instead, so it cannot be read.
- ``builder``: markers first: every round its yellow 6 goes where a marker (SZ-15, never removed)
  is worth most, its strong cards go to the regions it can still take, and it keeps armies in
  supply (removing rather than placing, SZ-10), which also breaks a central tie (SZ-20).
- ``mixer``: a Blotto player that cannot be read: every round it draws at random which regions
  to fight for (a region worth more at the coming scoring is likelier) and which to cede with its
  weakest cards, and which white cards to spend (mostly at scorings, now and then in a quiet
  round); the +1 (wins by 1 whatever it meets, SZ-11) goes where the opponent's best card is
  expected, the -1 (loses by just 1) on a ceded region.
- ``attrition``: spends a white card in each of the first rounds to win armies, removing the
  opponent's (they leave the game, SZ-10), while the opponent saves its own; then defends: it
  reads the opponent's remaining strength from its used cards (public, S.GONE) and deck count,
  calls a lead safe once it is more than those cards can swing by the scoring, and fights only
  where the margin is still open.

``mixer`` and ``attrition`` were written later, from the rules brief and the observation API
only; their defaults were set from the rules and then checked on a few settings against
``counter`` and ``random`` (never against the trained policy or a field).

Knobs (``params``): params[i] is added to knob i's default, so all zeros is the player as
described (a seat from the command line gets zeros). ``PLAYERS`` seats them with their names;
``KNOBS`` gives each knob's search range for ``heldout.tune``.
"""
import numpy as np
from numba import njit

from sim.bits import popcount
from sim.rng import rand_unit
from sim.strategy import Strategy
from games.sunzi.layout import (AUX_MARCH_TO, CARD, DECK_ADVANCED, DECK_BASIC, D, H, N_ACTIONS,
                              N_ROUNDS, P, PASS, POWER, RG, S, SCORING_EVERY, WHITE, region_at,
                              seat_at)

jit = njit  # not cached: a file seated as FILE.py:FUNCTION loads under another module name

PLACEABLE = (1 << CARD.LEADER) - 1                                # the leader card is never placed
STRONG = sum(1 << c for c in range(CARD.W7, CARD.PLUS3 + 1))      # 7-10, +1..+3: beat any yellow
NO_CARD = 15                                                      # an empty slot of a packed plan
PLAN_ROUND, PLAN = 0, 1                                           # mine[H.MEMORY + ...]


# --- reading the board ----------------------------------------------------------------------

@jit
def held(pub, r, seat):
    """A side's strength in region r at scoring: armies plus markers (SZ-15, SZ-18)."""
    return pub[region_at(r, RG.ARMIES + seat)] + pub[region_at(r, RG.MARKERS + seat)]


@jit
def scoring_index(pub):
    """Which scoring comes next: 0 after round 3, 1 after 6, 2 after 9 (SZ-18)."""
    return (max(pub[P.ROUND], 1) - 1) // SCORING_EVERY


@jit
def rounds_left_to_scoring(pub):
    """Rounds still to play up to and including the coming scoring (1 in a scoring round)."""
    return (SCORING_EVERY - pub[P.ROUND] % SCORING_EVERY) % SCORING_EVERY + 1


@jit
def importance(pub, seat, r, later, reach):
    """What region r is worth fighting for now: its tile at the coming scoring plus ``later``
    times the later tiles, scaled down when the region is settled (a lead larger than the armies
    that the rounds left can swing, ``reach`` a round). Symmetric: the opponent sees the same."""
    k = scoring_index(pub)
    value = float(pub[region_at(r, RG.TILE + k)])
    for j in range(k + 1, 3):
        value += later * pub[region_at(r, RG.TILE + j)]
    lead = abs(held(pub, r, seat) - held(pub, r, 1 - seat))
    span = reach * rounds_left_to_scoring(pub)
    return value * (0.25 + 0.75 * max(0.0, 1.0 - lead / span))


@jit
def fight(c):
    """A card's strength in battle (SZ-9, SZ-11): numbers by value; +1..+3 win against any number
    (+2/+3 cost armies); -1 loses by 1; the Plague does not fight."""
    if c <= CARD.W10:
        return c + 1.0
    if c == CARD.PLUS1:
        return 7.5
    if c == CARD.PLUS2:
        return 7.7
    if c == CARD.PLUS3:
        return 7.9
    if c == CARD.MINUS1:
        return 0.5
    return 0.0


@jit
def own_cards(mine, n):
    """The placeable cards this side held at the start of the round: hand plus placed ones."""
    cards = mine[H.HAND]
    for r in range(n):
        if mine[H.PLACED + r] >= 0:
            cards |= 1 << mine[H.PLACED + r]
    return cards & PLACEABLE


@jit
def strongest(cards):
    """The card of the bitmask that fights best (-1 if none)."""
    best, pick = -1.0, -1
    for c in range(CARD.LEADER):
        if (cards >> c) & 1 and fight(c) > best:
            best, pick = fight(c), c
    return pick


@jit
def weakest_filler(cards, use_minus):
    """The card to throw on a ceded region: the -1 (it loses by just 1), else the lowest yellow."""
    if use_minus and (cards >> CARD.MINUS1) & 1:
        return CARD.MINUS1
    for c in range(CARD.Y6 + 1):
        if (cards >> c) & 1:
            return c
    return -1


@jit
def plague_region(pub, seat, imp, gap):
    """Where a Plague hurts the opponent most (it halves both sides' armies, SZ-11): the region
    whose value times the opponent's army lead is largest, among leads of at least ``gap``."""
    best, pick = 0.0, -1
    for r in range(pub[P.N_REGIONS]):
        theirs = pub[region_at(r, RG.ARMIES + 1 - seat)]
        lead = theirs - pub[region_at(r, RG.ARMIES + seat)]
        if theirs >= 3 and lead >= gap and imp[r] * lead > best:
            best, pick = imp[r] * lead, r
    return pick


# --- a round's placement plan ----------------------------------------------------------------

@jit
def plan_round(pub, mine, seat, later, reach, plague_gap, spend_first, spend_second,
               quiet_spend, quiet_hold, cede, cede_any, play_one):
    """Every region's card for this round (SZ-7), packed 4 bits a region. Strong cards: a share
    of those held at the first two scorings (spend_first, spend_second), all at the last; in a
    quiet round quiet_spend of them if at least quiet_hold are held. The ``cede`` regions the
    opponent wants most get the weakest cards; the others the chosen cards, strongest on the most
    important; a region is ceded with a yellow only if ``cede_any``, else only with the -1."""
    n = pub[P.N_REGIONS]
    cards = own_cards(mine, n)
    scoring = pub[P.ROUND] % SCORING_EVERY == 0
    last = pub[P.ROUND] >= N_ROUNDS
    imp = np.empty(n)
    for r in range(n):
        imp[r] = importance(pub, seat, r, later, reach)
    plan = np.full(n, -1, np.int64)
    free = n
    if (cards >> CARD.PLAGUE) & 1:
        r = plague_region(pub, seat, imp, plague_gap)
        if r >= 0:
            plan[r] = CARD.PLAGUE
            cards &= ~(1 << CARD.PLAGUE)
            free -= 1
    # ceded regions: the most wanted ones, the weakest cards (the -1 only where whites may land)
    for i in range(min(cede, free - 1)):
        top, pick = -1.0, -1
        for r in range(n):
            if plan[r] < 0 and imp[r] > top:
                top, pick = imp[r], r
        c = weakest_filler(cards, scoring)
        if pick < 0 or c < 0 or (c != CARD.MINUS1 and not cede_any):
            break
        plan[pick] = c
        cards &= ~(1 << c)
        free -= 1
    strong = cards & STRONG
    held_strong = popcount(strong)
    if scoring:
        share = 1.0 if last else min(max(spend_first if scoring_index(pub) == 0 else spend_second,
                                         0.0), 1.0)
        spend = int(np.ceil(held_strong * share - 1e-9))
    else:
        spend = quiet_spend if held_strong >= quiet_hold else 0
    spend = min(spend, free)
    chosen = 0
    for i in range(spend):
        c = strongest(strong & ~chosen)
        chosen |= 1 << c
    # yellows for the rest: the 1 first when its extra card is wanted (SZ-14; no draw after
    # the last round), then from the 6 down
    need = free - spend
    if play_one and not last and (cards >> CARD.Y1) & 1 and need > 0 and (not scoring or need >= 5):
        chosen |= 1 << CARD.Y1
        need -= 1
    for c in range(CARD.Y6, -1, -1):
        if need > 0 and (cards >> c) & 1 and not (chosen >> c) & 1:
            chosen |= 1 << c
            need -= 1
    while need > 0:  # too few yellows (cards spent elsewhere): anything left, strongest first
        c = strongest(cards & ~chosen & ~(1 << CARD.PLAGUE))
        if c < 0:
            plague_left = (cards >> CARD.PLAGUE) & 1 and not (chosen >> CARD.PLAGUE) & 1
            c = CARD.PLAGUE if plague_left else -1
        if c < 0:
            break
        chosen |= 1 << c
        need -= 1
    # match: strongest chosen card to the most important free region, and so on
    while chosen != 0:
        c = strongest(chosen)
        if c < 0:
            c = CARD.PLAGUE
        top, pick = -1.0, -1
        for r in range(n):
            if plan[r] < 0 and imp[r] > top:
                top, pick = imp[r], r
        if pick < 0:
            break
        plan[pick] = c
        chosen &= ~(1 << c)
    packed = 0
    for r in range(n):
        packed |= (plan[r] if plan[r] >= 0 else NO_CARD) << (4 * r)
    return packed


@jit
def planned_card(pub, mine, legal, packed):
    """This region's card from the plan, or the strongest legal card if the plan has none."""
    c = (packed >> (4 * pub[P.REGION])) & 15
    if c < N_ACTIONS and legal[c]:
        return c
    best, pick = -1.0, -1
    for a in range(CARD.LEADER):
        if legal[a] and fight(a) > best:
            best, pick = fight(a), a
    return pick


# --- everything but placement ---------------------------------------------------------------

@jit
def keep_value(c, plague_value):
    """SZ-13: which drawn card to keep: the leader card, then the strongest fighter."""
    if c == CARD.LEADER:
        return 100.0
    if c == CARD.PLAGUE:
        return plague_value
    return fight(c)


@jit
def best_region(pub, seat, legal, later, reach):
    """The legal region that matters most (or -1)."""
    best, pick = -1.0, -1
    for r in range(pub[P.N_REGIONS]):
        if legal[r]:
            v = importance(pub, seat, r, later, reach)
            if v > best:
                best, pick = v, r
    return pick


@jit
def answer_other(decision, seat, pub, mine, legal, later, reach, plague_value, keep_supply):
    """Every decision but placement. keep_supply: prefer regions with armies to spare as sources
    and decline a 6 marker that would have to come off the map."""
    n = pub[P.N_REGIONS]
    opp = 1 - seat
    if decision == D.KEEP:
        best, pick = -1.0, -1
        for c in range(N_ACTIONS):
            if legal[c] and keep_value(c, plague_value) > best:
                best, pick = keep_value(c, plague_value), c
        return pick
    if decision == D.SPLIT:
        # removing changes the margin as much as placing and spares the supply (SZ-10, SZ-20)
        for a in range(N_ACTIONS - 1, -1, -1):
            if legal[a]:
                return a
    if decision == D.ORDER:  # SZ-8, SZ-12: the supply covers the first regions revealed
        return best_region(pub, seat, legal, later, reach)
    if decision == D.SOURCE:  # SZ-12: an army where losing it changes no control
        best, pick = -1e18, -1
        for r in range(n):
            if legal[r]:
                lead = held(pub, r, seat) - held(pub, r, opp)
                at_risk = 0 <= lead <= 1
                worth = importance(pub, seat, r, later, reach)
                v = -worth * (1.0 if at_risk else 0.2) + 0.01 * lead
                if v > best:
                    best, pick = v, r
        return pick
    if decision == D.SIX:  # SZ-15: a marker is never removed by battle
        if pub[seat_at(seat, S.SUPPLY)] > 0:
            return 1
        return 0 if keep_supply or not legal[1] else 1
    if decision == D.BUY:  # SZ-2: the -1 is worth less than an army
        return CARD.MINUS1 if legal[CARD.MINUS1] else PASS
    if decision == D.LEADER:  # SZ-16a / SZ-17a..: the first power, else any
        for a in range(4):
            if legal[a]:
                return a
    here = pub[P.REGION]
    if decision == D.POWER:
        aux = pub[P.AUX]
        if seat == WHITE and aux == POWER.C:  # a 7 as a 6 buys a marker for one point of value
            return 1 if legal[1] and mine[H.PLACED + here] == CARD.W7 else 0
        if seat != WHITE and aux == POWER.B:  # wiping down to one must hurt them more
            theirs = pub[region_at(here, RG.ARMIES + opp)]
            return 1 if legal[1] and theirs > pub[region_at(here, RG.ARMIES + seat)] else 0
        return 1 if legal[1] else 0
    if decision == D.TARGET:
        aux = pub[P.AUX]
        if seat == WHITE and aux == POWER.D:  # march from where the lead is widest
            best, pick = -1e18, -1
            for r in range(n):
                if legal[r] and held(pub, r, seat) - held(pub, r, opp) > best:
                    best, pick = held(pub, r, seat) - held(pub, r, opp), r
            if pick >= 0:
                return pick
        if aux == AUX_MARCH_TO or aux != POWER.D or seat == WHITE:
            pick = best_region(pub, seat, legal, later, reach)
        else:  # Chu d: remove an army where theirs are
            best, pick = -1.0, -1
            for r in range(n):
                if legal[r] and pub[region_at(r, RG.ARMIES + opp)] > 0:
                    v = importance(pub, seat, r, later, reach)
                    if v > best:
                        best, pick = v, r
        if pick >= 0:
            return pick
        if legal[PASS]:
            return PASS
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


# --- the players ----------------------------------------------------------------------------

@jit
def concentrate(decision, seat, obs, legal, params, rng):
    """Strongest cards where the coming scoring pays most; whites saved for scoring rounds.

    params (added to defaults): 0 later tiles' weight (0.35), 1 armies a round can swing (4),
    2 share of strong cards spent at the first two scorings (0.34 / 0.5), 3 the opponent's army
    lead that earns a Plague (3), 4 play the yellow 1 outside scoring rounds (1: yes, <= 0.5: no),
    5 strong cards spent in a quiet round (0)."""
    pub, mine = obs.pub, obs.mine
    later, reach = 0.35 + params[0], max(4.0 + params[1], 0.5)
    if decision == D.PLACE:
        if mine[H.MEMORY + PLAN_ROUND] != pub[P.ROUND]:
            mine[H.MEMORY + PLAN_ROUND] = pub[P.ROUND]
            mine[H.MEMORY + PLAN] = plan_round(
                pub, mine, seat, later, reach, 3.0 + params[3], 0.34 + params[2],
                0.5 + params[2], int(max(params[5], 0.0)), 1, 0, False,
                1.0 + params[4] > 0.5)
        return planned_card(pub, mine, legal, mine[H.MEMORY + PLAN])
    return answer_other(decision, seat, pub, mine, legal, later, reach, 5.0, False)


@jit
def spread(decision, seat, obs, legal, params, rng):
    """Cede the most wanted region with the -1, win the rest; early whites; Plague wherever the
    opponent leads; a round now and then played concentrated (a bluff).

    params (added to defaults): 0 chance of a concentrated round (0.2), 1 regions ceded (1),
    2 share of strong cards spent at the first two scorings (0.5 / 0.67), 3 the opponent's army
    lead that earns a Plague (2), 4 strong cards held before one is spent in a quiet round (3),
    5 cede with a yellow when the -1 is gone (0: no; > 0.5: yes)."""
    pub, mine = obs.pub, obs.mine
    later, reach = 0.35, 4.0
    if decision == D.PLACE:
        if mine[H.MEMORY + PLAN_ROUND] != pub[P.ROUND]:
            mine[H.MEMORY + PLAN_ROUND] = pub[P.ROUND]
            if rand_unit(rng, 0) < 0.2 + params[0]:
                packed = plan_round(pub, mine, seat, later, reach, 3.0, 0.34, 0.5, 0, 1, 0, False,
                                    True)
            else:
                packed = plan_round(pub, mine, seat, later, reach, 2.0 + params[3],
                                    0.5 + params[2], 0.67 + params[2], 1,
                                    int(3 + params[4]), int(max(1 + params[1], 0.0)),
                                    params[5] > 0.5, True)
            mine[H.MEMORY + PLAN] = packed
        return planned_card(pub, mine, legal, mine[H.MEMORY + PLAN])
    return answer_other(decision, seat, pub, mine, legal, later, reach, 8.0, False)


@jit
def builder(decision, seat, obs, legal, params, rng):
    """Markers and supply: the 6 where a marker is worth most over the rest of the game, strong
    cards on the regions it can still take, armies kept in supply.

    params (added to defaults): 0 later tiles' weight (1.0: every scoring counts alike),
    1 armies a round can swing (3), 2 share of strong cards spent at the first two scorings
    (0.5 / 0.5)."""
    pub, mine = obs.pub, obs.mine
    later, reach = 1.0 + params[0], max(3.0 + params[1], 0.5)
    if decision == D.PLACE:
        if mine[H.MEMORY + PLAN_ROUND] != pub[P.ROUND]:
            mine[H.MEMORY + PLAN_ROUND] = pub[P.ROUND]
            packed = plan_round(pub, mine, seat, later, reach, 3.0, 0.5 + params[2],
                                0.5 + params[2], 0, 1, 0, False, True)
            mine[H.MEMORY + PLAN] = move_six_to_marker(pub, mine, seat, packed, later)
        return planned_card(pub, mine, legal, mine[H.MEMORY + PLAN])
    return answer_other(decision, seat, pub, mine, legal, later, reach, 5.0, True)


@jit
def move_six_to_marker(pub, mine, seat, packed, later):
    """Swap the yellow 6 onto the region where a marker (SZ-15) pays most over the scorings
    left and the 6 power is still unused there; the card planned there takes the 6's place."""
    n = pub[P.N_REGIONS]
    at = -1
    for r in range(n):
        if (packed >> (4 * r)) & 15 == CARD.Y6:
            at = r
    if at < 0:
        return packed
    k = scoring_index(pub)
    best, target = -1.0, at
    for r in range(n):
        c = (packed >> (4 * r)) & 15
        if pub[region_at(r, RG.SIX_USED + seat)] > 0 or c == CARD.PLAGUE or c == NO_CARD:
            continue
        worth = 0.0
        for j in range(k, 3):
            worth += pub[region_at(r, RG.TILE + j)] * (1.0 if j == k else later)
        if worth > best:
            best, target = worth, r
    if target == at:
        return packed
    other = (packed >> (4 * target)) & 15
    packed &= ~((15 << (4 * at)) | (15 << (4 * target)))
    return packed | (CARD.Y6 << (4 * target)) | (other << (4 * at))


# --- mixer and attrition ---------------------------------------------------------------------
# Written later and apart from the three players above (only from the rules brief and the
# observation API), sharing with them only the helpers that read a rule off the board (held,
# scoring_index, rounds_left_to_scoring, own_cards): their reading of what matters is their own.

MIX_ROUND, MIX_PLAN = 2, 3                                        # mine[H.MEMORY + ...]
WHITES = sum(1 << c for c in range(CARD.W7, CARD.PLUS1 + 1))      # 7-10 and +1: the punches


@jit
def margin_at(pub, r, seat):
    """My control margin in region r (SZ-18: armies plus markers, mine minus theirs)."""
    return held(pub, r, seat) - held(pub, r, 1 - seat)


@jit
def tiles_ahead(pub, r, later):
    """Region r's tile at the coming scoring plus ``later`` times each later one (SZ-18)."""
    k = scoring_index(pub)
    worth = float(pub[region_at(r, RG.TILE + k)])
    for j in range(k + 1, 3):
        worth += later * pub[region_at(r, RG.TILE + j)]
    return worth


@jit
def punch(c):
    """What a card adds to a region's margin against an average yellow (3.5), SZ-9 / SZ-11: a
    number by its value; the +1 wins by 1 whatever it meets, worth a strong number; the -1
    loses by just 1, worth little as a punch; the Plague none."""
    if c <= CARD.W10:
        return c + 1.0 - 3.5
    if c == CARD.PLUS1:
        return 4.0
    if c == CARD.MINUS1:
        return -1.0
    return -3.5


@jit
def live_punch(pub, seat, deck):
    """The opponent's reach beyond its yellows (SZ-6, SZ-13): of its deck cards not yet gone
    (public, S.GONE), it holds as many as are neither gone nor left in its deck; assume the
    strongest of them (it keeps the better card it draws). Returns the sum of their punches."""
    opp = 1 - seat
    live = deck & ~pub[seat_at(opp, S.GONE)]
    holding = popcount(live) - pub[seat_at(opp, S.DECK)]
    total = 0.0
    for i in range(max(holding, 0)):
        best, pick = -1e9, -1
        for c in range(CARD.LEADER):
            if (live >> c) & 1 and punch(c) > best:
                best, pick = punch(c), c
        if pick < 0:
            break
        live &= ~(1 << pick)
        total += max(best, 0.0)
    return total


@jit
def by_rank(values, count):
    """Indices 0..count-1 sorted by values, largest first (count is at most 6: insertion)."""
    order = np.arange(count)
    for i in range(1, count):
        j = i
        while j > 0 and values[order[j]] > values[order[j - 1]]:
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    return order


@jit
def pick_best_card(cards):
    """The card of the bitmask with the largest punch (-1 if none)."""
    best, pick = -1e9, -1
    for c in range(CARD.LEADER):
        if (cards >> c) & 1 and punch(c) > best:
            best, pick = punch(c), c
    return pick


@jit
def pick_worst_card(cards):
    """The card of the bitmask with the smallest punch, the Plague never (-1 if none)."""
    best, pick = 1e9, -1
    for c in range(CARD.LEADER):
        if c != CARD.PLAGUE and (cards >> c) & 1 and punch(c) < best:
            best, pick = punch(c), c
    return pick


@jit
def fill_yellows(cards, chosen, need, keep_one):
    """Add ``need`` yellows to ``chosen``, from the 6 down; anything else left if the yellows
    run out. With ``keep_one`` and all five slots for yellows, the 1 goes in for the 2: one point
    of strength for an extra card (SZ-14); with fewer slots it would cost more."""
    if keep_one and need >= 5 and (cards >> CARD.Y1) & 1 and not (chosen >> CARD.Y1) & 1:
        chosen |= 1 << CARD.Y1
        need -= 1
    for c in range(CARD.Y6, -1, -1):
        if need > 0 and (cards >> c) & 1 and not (chosen >> c) & 1:
            chosen |= 1 << c
            need -= 1
    while need > 0:
        c = pick_best_card(cards & ~chosen & ~(1 << CARD.PLAGUE))
        if c < 0:
            break
        chosen |= 1 << c
        need -= 1
    return chosen


@jit
def draws_left(pub, seat):
    """Is the yellow 1's extra card (SZ-14) worth a point now: a quiet round (not one that
    scores) with at least two cards left in my deck to choose from."""
    return pub[P.ROUND] % SCORING_EVERY != 0 and pub[seat_at(seat, S.DECK)] >= 2


@jit
def plague_target(pub, seat, worth, gap):
    """SZ-11: a Plague halves both sides' armies; where the opponent's armies outnumber mine by
    ``gap`` or more, it takes more from them. The region where that pays most, or -1."""
    best, pick = 0.0, -1
    for r in range(pub[P.N_REGIONS]):
        theirs = pub[region_at(r, RG.ARMIES + 1 - seat)]
        excess = theirs - pub[region_at(r, RG.ARMIES + seat)]
        if excess >= gap and theirs >= 2 and worth[r] * excess > best:
            best, pick = worth[r] * excess, r
    return pick


@jit
def pack(plan, n):
    packed = 0
    for r in range(n):
        packed |= (plan[r] if plan[r] >= 0 else NO_CARD) << (4 * r)
    return packed


@jit
def deal_out(plan, chosen, contest, n_contest, cede, n_cede, plus_first):
    """Place the chosen cards: strongest to the contested regions in their order, weakest to the
    ceded ones; the +1 (wins by 1 even against a 10, SZ-11) and the -1 (loses by only 1) go where
    the opponent's strongest card is expected, the first contested / first ceded region."""
    if plus_first and n_contest > 0 and (chosen >> CARD.PLUS1) & 1:
        plan[contest[0]] = CARD.PLUS1
        chosen &= ~(1 << CARD.PLUS1)
    if n_cede > 0 and (chosen >> CARD.MINUS1) & 1:
        plan[cede[0]] = CARD.MINUS1
        chosen &= ~(1 << CARD.MINUS1)
    for i in range(n_contest):
        if plan[contest[i]] < 0:
            c = pick_best_card(chosen)
            if c < 0:
                break
            plan[contest[i]] = c
            chosen &= ~(1 << c)
    for i in range(n_cede):
        if plan[cede[i]] < 0:
            c = pick_worst_card(chosen)
            if c < 0:
                c = pick_best_card(chosen)
            if c < 0:
                break
            plan[cede[i]] = c
            chosen &= ~(1 << c)


@jit
def mixer_plan(pub, mine, seat, rng, contest_base, tilt, spend_scoring, spend_quiet,
               later, minus_chance, gap):
    """A mixed allocation (SZ-7), packed 4 bits a region: each region is contested at random,
    more likely the more it is worth now; each white card is spent at random (more likely in a
    scoring round, always in the last); contested regions get the strong cards."""
    n = pub[P.N_REGIONS]
    cards = own_cards(mine, n)
    scoring = pub[P.ROUND] % SCORING_EVERY == 0
    last = pub[P.ROUND] >= N_ROUNDS
    swing = 4.0 * rounds_left_to_scoring(pub)
    worth = np.empty(n)
    mean = 0.0
    for r in range(n):
        # a region one side holds by more than the rounds left can swing matters less
        worth[r] = tiles_ahead(pub, r, later) * max(0.2, 1.0 - abs(margin_at(pub, r, seat)) / swing)
        mean += worth[r] / n
    plan = np.full(n, -1, np.int64)
    free = n
    if (cards >> CARD.PLAGUE) & 1:
        r = plague_target(pub, seat, worth, gap)
        if r >= 0:
            plan[r] = CARD.PLAGUE
            free -= 1
    cards &= ~(1 << CARD.PLAGUE)
    # the coin flips, with a jitter on each region's rank so that equal regions are mixed too
    contest = np.empty(n, np.int64)
    cede = np.empty(n, np.int64)
    key = np.empty(n)
    for r in range(n):
        key[r] = worth[r] * (0.5 + rand_unit(rng, 0))
    n_contest, n_cede = 0, 0
    for i in by_rank(key, n):
        if plan[i] >= 0:
            continue
        chance = min(max(contest_base + tilt * (worth[i] / max(mean, 1e-9) - 1.0), 0.05), 0.95)
        if rand_unit(rng, 0) < chance:
            contest[n_contest] = i
            n_contest += 1
        else:
            cede[n_cede] = i
            n_cede += 1
    rate = 1.0 if last else (spend_scoring if scoring else spend_quiet)
    chosen = 0
    for c in range(CARD.W7, CARD.PLUS1 + 1):
        room = popcount(chosen) < min(n_contest, free)
        if (cards >> c) & 1 and room and rand_unit(rng, 0) < rate:
            chosen |= 1 << c
    if (cards >> CARD.MINUS1) & 1 and n_cede > 0 and (last or rand_unit(rng, 0) < minus_chance):
        chosen |= 1 << CARD.MINUS1
    chosen = fill_yellows(cards, chosen, free - popcount(chosen), draws_left(pub, seat))
    deal_out(plan, chosen, contest, n_contest, cede, n_cede, True)
    return pack(plan, n)


@jit
def attrition_plan(pub, mine, seat, early, early_rate, caution, later, gap, cut):
    """Early rounds: spend white cards to win armies (removing the opponent's, SZ-10) while it
    saves its own; later: defend. Each region's need is its tiles ahead times how far its margin
    is from settled, settled meaning beyond what the opponent's remaining cards (read from its
    used ones, S.GONE) or mine can swing by the scoring. Packed 4 bits a region."""
    n = pub[P.N_REGIONS]
    cards = own_cards(mine, n)
    rnd = pub[P.ROUND]
    scoring = rnd % SCORING_EVERY == 0
    last = rnd >= N_ROUNDS
    rounds = rounds_left_to_scoring(pub)
    deck = DECK_ADVANCED if pub[P.ADVANCED] else DECK_BASIC
    theirs = caution * (2.5 * rounds + live_punch(pub, seat, deck))
    mine_reach = 2.5 * rounds
    for c in range(CARD.W7, CARD.PLUS1 + 1):
        if (cards >> c) & 1:
            mine_reach += max(punch(c), 0.0)
    need = np.empty(n)
    for r in range(n):
        m = margin_at(pub, r, seat)
        reach = theirs if m >= 0 else mine_reach
        need[r] = tiles_ahead(pub, r, later) * max(0.0, 1.0 - abs(m) / max(reach, 1.0))
    plan = np.full(n, -1, np.int64)
    free = n
    if (cards >> CARD.PLAGUE) & 1:
        r = plague_target(pub, seat, need, gap)
        if r >= 0:
            plan[r] = CARD.PLAGUE
            free -= 1
    cards &= ~(1 << CARD.PLAGUE)
    order = by_rank(need, n)
    contest = np.empty(n, np.int64)
    cede = np.empty(n, np.int64)
    n_contest, n_cede = 0, 0
    for i in order:
        if plan[i] >= 0:
            continue
        if need[i] > cut * need[order[0]] and need[i] > 0.0:
            contest[n_contest] = i
            n_contest += 1
        else:
            cede[n_cede] = i
            n_cede += 1
    whites = popcount(cards & WHITES)
    if last:
        spend = whites
    elif rnd <= early:
        spend = int(np.ceil(whites * early_rate - 1e-9))
    elif scoring:
        spend = n_contest
    else:
        spend = 0
    # early, every region is a fight: armies won now stay on the map (SZ-10)
    if rnd <= early:
        n_contest, n_cede = 0, 0
        for i in order:
            if plan[i] >= 0:
                continue
            contest[n_contest] = i
            n_contest += 1
    spend = min(spend, free, n_contest)
    chosen = 0
    for i in range(spend):
        chosen |= 1 << pick_best_card(cards & WHITES & ~chosen)
    if (cards >> CARD.MINUS1) & 1 and n_cede > 0 and (scoring or last):
        chosen |= 1 << CARD.MINUS1
    chosen = fill_yellows(cards, chosen, free - popcount(chosen), draws_left(pub, seat))
    deal_out(plan, chosen, contest, n_contest, cede, n_cede, rnd > early)
    return pack(plan, n)


@jit
def from_plan(pub, legal, packed):
    """This region's planned card, else the legal card with the largest punch."""
    c = (packed >> (4 * pub[P.REGION])) & 15
    if c < N_ACTIONS and legal[c]:
        return c
    best, pick = -1e9, -1
    for a in range(CARD.LEADER):
        if legal[a] and punch(a) > best:
            best, pick = punch(a), a
    return pick if pick >= 0 else any_legal(legal)


@jit
def any_legal(legal):
    for a in range(legal.shape[0]):
        if legal[a]:
            return a
    return -1


@jit
def answer_rest(decision, seat, pub, legal, later):
    """Every decision but placement, read from the rules alone."""
    n = pub[P.N_REGIONS]
    if decision == D.SPLIT:  # SZ-10: removed armies leave the game, placed ones cost my supply
        for a in range(N_ACTIONS - 1, -1, -1):
            if legal[a]:
                return a
    if decision == D.KEEP:  # SZ-13: the leader card (a power, OP-9), else the best punch
        if legal[CARD.LEADER]:
            return CARD.LEADER
        best, pick = -1e9, -1
        for c in range(CARD.LEADER):
            if legal[c]:
                v = 1.0 if c == CARD.PLAGUE else punch(c)
                if v > best:
                    best, pick = v, c
        if pick >= 0:
            return pick
    if decision == D.SIX:  # SZ-15: a marker is control that battle never removes
        if legal[1] and (pub[seat_at(seat, S.SUPPLY)] > 0
                         or tiles_ahead(pub, pub[P.REGION], later) >= 3.0):
            return 1
        return 0 if legal[0] else 1
    if decision == D.ORDER or decision == D.SOURCE or decision == D.TARGET:
        # ORDER (SZ-8): my supply covers the first regions, so the most valuable first. SOURCE
        # (SZ-12): an army from where it changes least: a big lead, or a region worth little.
        # TARGET: a leader power where the region is worth most.
        best, pick = -1e18, -1
        for r in range(n):
            if legal[r]:
                worth = tiles_ahead(pub, r, later)
                if decision == D.SOURCE:
                    m = margin_at(pub, r, seat)
                    v = (m - 1.0) if m > 1 else -worth - (10.0 if m == 1 else 0.0)
                else:
                    v = worth
                if v > best:
                    best, pick = v, r
        if pick >= 0:
            return pick
        if legal[PASS]:
            return PASS
    if decision == D.BUY:  # SZ-2: only the -1, the card worth least, goes for an army
        return CARD.MINUS1 if legal[CARD.MINUS1] else (PASS if legal[PASS] else any_legal(legal))
    if decision == D.POWER:  # a once-a-game power unused is wasted
        return 1 if legal[1] else any_legal(legal)
    return any_legal(legal)


@jit
def mixer(decision, seat, obs, legal, params, rng):
    """A mixed allocation every round: which regions to fight for and which to cede, and which
    white cards to spend, are drawn at random (a Blotto player that cannot be read), weighted by
    what each region is worth now.

    params (added to defaults): 0 chance to contest a region of average worth (0.8), 1 how much
    a region's worth tilts that chance (0.5), 2 chance to spend each white card in a scoring
    round (0.8), 3 the same in a quiet round (0.1: a bluff now and then), 4 later tiles' weight
    (0: the coming scoring only), 5 chance to cede with the -1 outside the last round (0.5),
    6 the opponent's army excess that earns a Plague (3)."""
    pub, mine = obs.pub, obs.mine
    later = max(params[4], 0.0)
    if decision == D.PLACE:
        if mine[H.MEMORY + MIX_ROUND] != pub[P.ROUND]:
            mine[H.MEMORY + MIX_ROUND] = pub[P.ROUND]
            mine[H.MEMORY + MIX_PLAN] = mixer_plan(
                pub, mine, seat, rng, 0.8 + params[0], 0.5 + params[1], 0.8 + params[2],
                0.1 + params[3], later, 0.5 + params[5], 3.0 + params[6])
        return from_plan(pub, legal, mine[H.MEMORY + MIX_PLAN])
    return answer_rest(decision, seat, pub, legal, later)


@jit
def attrition(decision, seat, obs, legal, params, rng):
    """Spends its white cards early to win armies while the opponent saves its own, then
    defends its leads, reading the opponent's remaining strength from its used cards.

    params (added to defaults): 0 rounds of early spending (3), 1 share of the white cards held
    spent in each early round (0.25: one of four), 2 caution: the opponent's reach is
    multiplied by 1 + this, 3 later tiles' weight (0.5), 4 the opponent's army excess that
    earns a Plague (3), 5 a region is fought for if its need is above this share of the
    neediest region's (0.3)."""
    pub, mine = obs.pub, obs.mine
    later = 0.5 + params[3]
    if decision == D.PLACE:
        if mine[H.MEMORY + MIX_ROUND] != pub[P.ROUND]:
            mine[H.MEMORY + MIX_ROUND] = pub[P.ROUND]
            mine[H.MEMORY + MIX_PLAN] = attrition_plan(
                pub, mine, seat, 3.0 + params[0], 0.25 + params[1], max(1.0 + params[2], 0.1),
                later, 3.0 + params[4], 0.3 + params[5])
        return from_plan(pub, legal, mine[H.MEMORY + MIX_PLAN])
    return answer_rest(decision, seat, pub, legal, later)


PLAYERS = {
    "concentrate": Strategy("heldout-concentrate", fn=concentrate,
                            doc="strongest cards where the coming scoring pays most; whites saved "
                                "for scoring rounds"),
    "spread": Strategy("heldout-spread", fn=spread,
                       doc="cedes the most wanted region with its weakest card, wins the rest; "
                           "Plague where the opponent leads; bluffs"),
    "builder": Strategy("heldout-builder", fn=builder,
                        doc="markers where they pay most, strong cards where it can still win, "
                            "armies kept in supply"),
    "mixer": Strategy("heldout-mixer", fn=mixer,
                      doc="a mixed allocation each round: which regions to fight for and which "
                          "whites to spend drawn at random, weighted by worth"),
    "attrition": Strategy("heldout-attrition", fn=attrition,
                          doc="spends whites early to win armies, then defends its leads against "
                              "the opponent's remaining cards (read from its used ones)"),
}

# Search ranges of each player's knobs for heldout.tune: one (lo, hi) per params index, the
# value added to the default, each range holding 0 (the player as described) and spanning the
# sensible settings around it (a weight from 0 up, a share of cards from none to all, a count
# from 0 to a few; a knob read as a yes/no by a threshold covers both sides of it).
KNOBS = {
    "concentrate": [(-0.35, 0.65),    # later tiles' weight: 0 .. 1
                    (-3.0, 4.0),      # armies a round swings: 1 .. 8
                    (-0.34, 0.5),     # strong cards spent at scorings 1-2: 0 .. 0.84 / 0.16 .. 1
                    (-3.0, 3.0),      # Plague lead: 0 .. 6
                    (-1.0, 0.0),      # yellow 1 outside scorings: yes above -0.5
                    (0.0, 3.0)],      # strong cards in a quiet round: 0, 1, 2
    "spread": [(-0.2, 0.5),           # chance of a concentrated round: 0 .. 0.7
               (-1.0, 2.0),           # regions ceded: 0, 1, 2
               (-0.5, 0.33),          # strong cards spent at scorings 1-2: 0 .. 0.83 / 0.17 .. 1
               (-2.0, 4.0),           # Plague lead: 0 .. 6
               (-2.0, 3.0),           # strong cards held before a quiet spend: 1 .. 5
               (0.0, 1.0)],           # cede with a yellow: yes above 0.5
    "builder": [(-0.8, 1.0),          # later tiles' weight: 0.2 .. 2
                (-2.0, 5.0),          # armies a round swings: 1 .. 8
                (-0.5, 0.5)],         # strong cards spent at scorings 1-2: 0 .. 1
    "mixer": [(-0.6, 0.2),            # chance to contest an average region: 0.2 .. 1
              (-0.5, 1.0),            # tilt of that chance by worth: 0 .. 1.5
              (-0.6, 0.2),            # chance to spend a white at a scoring: 0.2 .. 1
              (-0.1, 0.4),            # the same in a quiet round: 0 .. 0.5
              (0.0, 1.0),             # later tiles' weight: 0 .. 1
              (-0.5, 0.5),            # chance to cede with the -1: 0 .. 1
              (-3.0, 4.0)],           # Plague excess: 0 .. 7
    "attrition": [(-3.0, 3.0),        # rounds of early spending: 0 .. 6
                  (-0.25, 0.75),      # share of whites spent each early round: 0 .. 1
                  (-0.5, 1.0),        # caution, the opponent's reach times 0.5 .. 2
                  (-0.5, 0.5),        # later tiles' weight: 0 .. 1
                  (-3.0, 4.0),        # Plague excess: 0 .. 7
                  (-0.3, 0.5)],       # need, as a share of the neediest, to fight: 0 .. 0.8
}
