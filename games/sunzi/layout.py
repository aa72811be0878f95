"""Sunzi / Dynasties: integer encodings shared by the kernel, strategies and narratives.

Seat 0 is White (Sun Wu), seat 1 is Black (King Zhao of Chu). Rule ids SZ-n and open points
OP-n refer to shared/rules/sunzi_dynasties.md. Constants are grouped by what they index
(vectorbt's enums): ``P.ROUND`` is a field of the public state, ``RG.ARMIES`` of a region's
block, ``H.HAND`` of a seat's private row, ``D.PLACE`` a decision, ``EV.BATTLE`` an event code.
Each group is a NamedTuple instance, a compile-time constant inside jitted code.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

N_SEATS = 2
N_STRATEGY_PARAMS = 256   # a scripted seat: 127 (decision, action) pairs (sim.strategy.script);
                          # a trained one: 2 + 10 decision types x 16 features
WHITE, BLACK = 0, 1
MAX_REGIONS = 6        # every round needs one card per region; the 6 yellow cards always suffice
N_ROUNDS = 9
SCORING_EVERY = 3      # SZ-18: scoring after rounds 3, 6, 9 (tile value k = round // 3 - 1)


class Card(NamedTuple):
    """Card ids: one per card of a side's 19 (SZ-6); the leader card exists only with OP-9
    "deck". Yellow 1..6 and white 7..10 have id = value - 1."""
    Y1: int              # yellow 1 (yellows are reusable)
    Y6: int              # yellow 6
    W7: int              # white 7 (whites are used once)
    W10: int             # white 10
    PLUS1: int
    PLUS2: int
    PLUS3: int
    MINUS1: int
    PLAGUE: int
    LEADER: int          # OP-9 "deck": the leader card drawn like any other card (never placed)


CARD = Card(0, 5, 6, 9, 10, 11, 12, 13, 14, 15)
N_CARDS = 16
YELLOWS = (1 << 6) - 1
DECK_ADVANCED = ((1 << 15) - 1) & ~YELLOWS         # 7-10, +1, +2, +3, -1, Plague
DECK_BASIC = DECK_ADVANCED & ~((1 << CARD.PLUS2) | (1 << CARD.PLUS3))   # SZ-1
DECK_MAX = 10
CARD_LABELS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "+1", "+2", "+3", "-1",
               "Plague", "leader")
# Record bitmask columns opening/drawn/played: bit i = card id RECORD_CARD_SHIFT + i, i.e.
# bit 0..3 = 7, 8, 9, 10; bit 4..6 = +1, +2, +3; bit 7 = -1; bit 8 = Plague; bit 9 = leader card.
RECORD_CARD_SHIFT = 6

# Leaders (SZ-3): index 0..3 = power a..d of SZ-16 (White) or SZ-17 (Black).
LEADER_NONE = -1       # also a rules value: the side has no leader (the yardstick, SZ-3)
LEADER_STRATEGY = 4    # rules value: the side's strategy picks (decision D.LEADER)


class Power(NamedTuple):
    A: int
    B: int
    C: int
    D: int


POWER = Power(0, 1, 2, 3)


class Decision(NamedTuple):
    """The ``decision`` argument of a strategy; the meaning of an action index per decision."""
    LEADER: int          # warlord, leader chosen by strategy: action = power 0..3 (a..d)
    BUY: int             # advanced (SZ-2, OP-11): action = card id to discard for 1 army, or PASS
    PLACE: int           # SZ-7: action = card id to place face down on region P.REGION
    ORDER: int           # SZ-8: action = region to reveal next (the whole order is fixed first)
    SPLIT: int           # SZ-10: action = how many of the loser's armies to remove (the rest placed)
    SOURCE: int          # SZ-12 shortage: action = region to take one of your armies from
    KEEP: int            # SZ-13/14: action = card id (among mine[H.DRAWN]) to keep
    POWER: int           # use a leader power now? action 0 = no, 1 = yes; P.AUX = power (0..3)
    TARGET: int          # leader power target: action = region, or PASS = do not use; P.AUX = power
    SIX: int             # SZ-15 "may": use the 6 power on region P.REGION now? 0 = no, 1 = yes


D = Decision(*range(len(Decision._fields)))
N_DECISIONS = len(D)
DECISION_NAMES = ("leader", "buy", "place", "order", "split", "source", "keep", "power", "target",
                  "six")
PASS = 16
N_ACTIONS = 17
AUX_MARCH_TO = 4       # D.TARGET, Sun Wu d, second step: the adjacent region to move to


class Why(NamedTuple):
    """P.AUX of D.SOURCE: why an army is needed."""
    PLACE: int
    COST: int
    MARKER: int


WHY = Why(0, 1, 2)


class PublicField(NamedTuple):
    """The public state ``pub[P.*]``: what both sides see, from the table's point of view.
    Per-seat and per-region blocks are reached with seat_at / region_at below."""
    ROUND: int           # 1..9 (0 during set-up)
    GENERAL: int         # score general: > 0 towards White's red zone, < 0 towards Black's (SZ-5)
    TRACK: int           # steps from the centre to a red zone (OP-3)
    N_REGIONS: int
    ADVANCED: int        # 1 = advanced mode
    DECIDER: int         # seat choosing this round's reveal order, -1 = left to right (SZ-8)
    # REGION, AMOUNT and AUX describe the decision being asked and are cleared as soon as it is
    # answered: left set, they told the other side about a private decision (the warlord leak).
    REGION: int          # the region the current decision is about (-1 none)
    AMOUNT: int          # D.SPLIT: the difference d; D.SOURCE: armies still needed; D.KEEP: to keep
    AUX: int             # D.SPLIT: loser's armies there; D.SOURCE: WHY.*; D.POWER/D.TARGET: power
    REVEALED: int        # regions revealed so far this round
    LEGAL: int           # the legal actions of the current decision as a bitmask (bit a = legal[a])
    SEATS: int           # start of the per-seat blocks (seat_at)
    REGIONS: int         # start of the per-region blocks (region_at)


SEAT_STRIDE = 10
REGION_STRIDE = 13
P = PublicField(*range(11), 11, 11 + 2 * SEAT_STRIDE)
PUB_SIZE = P.REGIONS + MAX_REGIONS * REGION_STRIDE


class SeatField(NamedTuple):
    """A seat's public block ``pub[seat_at(seat, S.*)]``."""
    SUPPLY: int
    REMOVED: int         # armies that left the game
    BOUGHT: int          # armies bought (SZ-2)
    HAND: int            # cards in hand (the count is public, the cards are not)
    DECK: int            # cards left in the deck
    GONE: int            # bitmask of cards that left the game (played whites, discards for armies)
    LEADER: int          # chosen leader 0..3, -1 none or not yet shown (leaders="hidden": shown
                         # when its power is first used)
    LEADER_ROUND: int    # round its power was used (0 = at game start), -1 = not used
    POINTS: int          # points scored so far (SZ-18)


S = SeatField(*range(len(SeatField._fields)))


class RegionField(NamedTuple):
    """A region's public block ``pub[region_at(region, RG.*)]``."""
    ARMIES: int          # + seat: armies in the region (removable)
    MARKERS: int         # + seat: markers beside the name (count for control, never removed; SZ-15)
    SIX_USED: int        # + seat: times the 6 power was used here (SZ-15, SZ-17c)
    CARD: int            # + seat: card revealed here this round, -1 while face down
    REVEAL: int          # position in this round's reveal order once chosen, -1 unknown
    TILE: int            # + k: tile value at scoring k = 0, 1, 2 (after rounds 3, 6, 9)
    ADJ: int             # bitmask of adjacent regions (OP-1)


RG = RegionField(ARMIES=0, MARKERS=2, SIX_USED=4, CARD=6, REVEAL=8, TILE=9, ADJ=12)


class HiddenField(NamedTuple):
    """A seat's private row ``hid[seat, H.*]``: what only that seat knows. A strategy gets its
    own row (``obs.mine``)."""
    HAND: int            # bitmask of card ids in hand
    DRAWN: int           # bitmask of cards drawn and waiting for D.KEEP
    POWER: int           # 1 = my leader power is in hand and unused
    AS_SIX: int          # region where Sun Wu c turns my card into a 6 this round, -1 none
    DECISIONS: int       # decisions asked so far this game
    PLACED: int          # + region: card placed face down this round, -1 none
    LEADER: int          # my leader 0..3 (-1 none); public too unless hidden
    MEMORY: int          # mine[H.MEMORY:] is the strategy's own scratch, zeroed every game


H = HiddenField(HAND=0, DRAWN=1, POWER=2, AS_SIX=3, DECISIONS=4, PLACED=5,
                LEADER=5 + MAX_REGIONS, MEMORY=6 + MAX_REGIONS)
MEMORY_SIZE = 8
HID_SIZE = H.MEMORY + MEMORY_SIZE

N_CHANCE = 1  # random streams (sim.rng): 0 = tiles and decks; then one per (seat, decision type)


class Stat(NamedTuple):
    """Per-seat statistics for the record, ``ks[stat(seat, ST.*)]``."""
    OPENING: int         # bitmask of the opening hand's deck cards
    DRAWN: int           # bitmask of the deck cards ever held
    PLAYED: int          # bitmask of the deck cards played on a region
    MOVED: int
    BATTLES: int
    REGIONS: int
    ORDERS: int


ST = Stat(*range(len(Stat._fields)))
N_STATS = len(ST)


class KernelField(NamedTuple):
    """Kernel-only state ``ks[K.*]``: hidden from everyone (deck order, bookkeeping)."""
    END: int             # end reason, -1 while playing
    WINNERS: int
    LAST_DECIDER: int
    LAST_LEADER: int     # last side that led after a scoring (+1 White, -1 Black, 0 none yet)
    LEAD_CHANGES: int
    DECK_HEAD: int       # + seat
    STATS: int           # + seat * N_STATS + ST.*
    DECKS: int           # + seat * DECK_MAX: deck cards, circular from DECK_HEAD
    ORDER: int           # + i: region revealed i-th this round
    UNSEEN: int          # + seat: cards on top of the deck its owner never saw (a card put back
                         # at the bottom, SZ-13, stays known to its owner)


K = KernelField(END=0, WINNERS=1, LAST_DECIDER=2, LAST_LEADER=3, LEAD_CHANGES=4, DECK_HEAD=5,
                STATS=7, DECKS=7 + 2 * N_STATS, ORDER=7 + 2 * N_STATS + 2 * DECK_MAX,
                UNSEEN=7 + 2 * N_STATS + 2 * DECK_MAX + MAX_REGIONS)
KS_SIZE = K.UNSEEN + 2


class RuleField(NamedTuple):
    """Rule parameters ``rules[R.*]`` (from SunziRules.kernel_args())."""
    N_REGIONS: int
    ADVANCED: int        # SZ-1 / SZ-2
    WARLORD: int         # SZ-3
    LEADER: int          # + seat: 0..3 fixed, LEADER_STRATEGY = chosen by the side's strategy
    TRACK: int           # OP-3
    ARMIES: int          # SZ-1 / SZ-2
    PLAGUE_RULING: int   # OP-4: 1 = halve rounding down, never below 1; 0 = remove round-half-up(n/2)
    FEWER_SUPPLY: int    # OP-5: 1 = compare supplies; 0 = armies on the map (markers included)
    REMOVE_FIRST: int    # OP-6: 1 = remove the loser's armies first; 0 = the winner's choice
    COST_REGION_FIRST: int  # OP-7: 1 = contested region before supply
    TIE_MARKERS: int     # OP-8: 1 = markers break a tied region; 0 = nobody scores it
    LEADER_IN_DECK: int  # OP-9: 1 = the leader card is shuffled into the deck
    ROUND6_AT_START: int  # OP-9: 1 = round-6 powers at the start of round 6
    AS_SIX_VALUE: int    # OP-10: 1 = Sun Wu c changes only the value (no marker power)
    WIPE_OPPONENT: int   # OP-10: 1 = Chu b wipes only the opponent's armies (his own are halved)
    BUY_AT_END: int      # OP-11: 1 = buy after the battles instead of at the start of a round
    TIE_NOBODY: int      # OP-12: 1 = a full tie has no winner; 0 = draw (half each)
    ORDER_BEFORE: int    # OP-13: 1 = the reveal order is chosen before placement
    REMOVED_TO_SUPPLY: int  # removed armies return to their owner's supply instead of leaving
    SCORE_NET: int       # 1 = a scoring moves the general once by the net points
    FIXED_TILES: int     # 1 = tiles beside the regions are the given ones (scripted games)
    SIX_ALWAYS: int      # SZ-15: 1 = the 6 power is always used when allowed; 0 = the owner decides
    LEADERS_HIDDEN: int  # SZ-3: 1 = a leader is shown only when its power is first used
    MARKERS_MOVE: int    # SZ-15 "unless used for other actions": 1 = markers may cover a shortage
    ORDER_EACH: int      # SZ-8: 1 = the decider picks the next region after each reveal
    SIX_SPENT: int       # SZ-15 (silent): 1 = an always-used 6 that can place no marker still spends the power
    REMOVED: int         # SZ-6: bitmask of card ids taken out of both decks (card interventions)
    AMOUNTS: int         # + POWER_AMOUNTS index: the leader powers' numbers (leader_amounts)


R = RuleField(0, 1, 2, 3, *range(5, 5 + len(RuleField._fields) - 4))
# The numbers printed on the leader powers (SZ-16, SZ-17), in this order, each 1 on the cards:
# Sun Wu a markers placed, b armies placed, d armies moved; Chu b armies left by the Plague,
# d armies removed. rules[R.AMOUNTS + k].
POWER_AMOUNTS = ("white_a_markers", "white_b_armies", "white_d_moved", "black_b_left",
                 "black_d_removed")
N_RULES = R.AMOUNTS + len(POWER_AMOUNTS)


# The kernel's fixed-size arrays live in one record (games/sunzi/kernel.py State.rec), so that
# a call that is not inlined passes one array instead of seven: numba passes every array as 7-9
# machine words on the stack, and one more array in the state cost 18% of the run time.
STATE_DTYPE = np.dtype([("rules", np.int64, (N_RULES,)), ("pub", np.int64, (PUB_SIZE,)),
                        ("hid", np.int64, (2, HID_SIZE)), ("ks", np.int64, (KS_SIZE,)),
                        ("adj", np.int64, (MAX_REGIONS,)), ("decks", np.int64, (2, DECK_MAX)),
                        ("fixed_tiles", np.int64, (MAX_REGIONS,))])


class EndReason(NamedTuple):
    """End reasons (record column end_reason)."""
    RED_ZONE: int        # SZ-19
    GENERAL: int         # SZ-20: after round 9 the general is on one side
    SUPPLY: int          # SZ-20: general central, more armies in supply
    DRAW: int            # OP-12: full tie
    BROKEN: int          # army conservation failed (a kernel bug; never expected)


END = EndReason(*range(len(EndReason._fields)))
END_REASONS = ("red_zone", "general", "supply", "draw", "invariant_broken")

# Record columns after the shared ones (sim.game; "rounds" = rounds played: 3, 6 or 9), game-level
# then per seat (suffix _0 White, _1 Black):
#   general        the score general's final position, > 0 towards White (White's margin);
#                  +-track_length after a red-zone win (end_reason "red_zone", SZ-19)
#   lead_changes   times the general's side changed between scorings (a central general is no side)
#   points         points scored over the game (SZ-18); supply, armies (on the map, markers not
#   included), markers, removed (left the game), bought (SZ-2): at the end. Conservation:
#   supply + armies + markers + removed = starting armies + bought
#   moved          armies moved to cover a shortage or a marker (SZ-12, SZ-15)
#   battles_won    regions won in battle (SZ-10); regions_won: regions scored (SZ-18)
#   orders         rounds in which the seat chose the reveal order (SZ-8)
#   leader         leader card 0..3 = a..d (-1 none); leader_round: round its power was used
#                  (0 = at game start, -1 = never)
#   opening, drawn, played   bitmasks of the seat's deck cards (RECORD_CARD_SHIFT): in the
#                  opening hand; ever held (opening or kept at SZ-13/14); played on a region
GAME_COLUMNS = ("general", "lead_changes")
SEAT_COLUMNS = ("points", "supply", "armies", "markers", "removed", "bought", "moved",
                "battles_won", "regions_won", "orders", "leader", "leader_round",
                "opening", "drawn", "played")


class Column(NamedTuple):
    GENERAL: int
    LEAD_CHANGES: int
    SEAT0: int           # the first seat's columns (SEAT_COLUMNS, seat-major)


C = Column(3, 4, 5)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)


class Event(NamedTuple):
    """Event log rows: (event, round, seat, a, b, c, d, e); seat -1 = nobody in particular."""
    TILE: int            # region a: tile values b, c, d; e = the tile's index in the tile set
    LEADER: int          # seat chose leader a
    HAND: int            # seat's opening hand: a = bitmask of card ids
    BUY: int             # seat discards card a for an army (supply now b)
    DECIDER: int         # seat decides the reveal order (-1: left to right); a, b = armies compared
    PLACE: int           # seat places card a face down on region b; c = 1 if played as a 6 (SZ-16c)
    ORDER: int           # a = reveal order packed 4 bits per region, first in the low bits; b = count
    REVEAL: int          # region a: White's card b, Black's card c
    MARKER: int          # seat puts a marker on region a; b = 6 for the 6 power, 0 Sun Wu a, 2 Chu c
    BATTLE: int          # region a: effective cards b (White) and c (Black); d = White's margin
    COST: int            # seat loses a armies for a +2/+3 on region b (c = how many could not be paid)
    SPLIT: int           # seat won region a: removes b of the loser's armies, places c (d = unplaced)
    MOVE: int            # seat moves an army from region a to region b (c = WHY.*); b = -1: the
                         # army leaves the game to pay a +2/+3 cost
    PLAGUE: int          # region a: White loses b, Black loses c; d = 0 halving, 1 Chu b wipe
    POWER: int           # seat uses leader power a with target b (and c)
    DRAW: int            # seat drew a (bitmask) and kept b (bitmask)
    SCORE: int           # region a won by seat for b points; general now c
    END: int             # a = end reason, b = winners bitmask, c = general, d, e = supplies
    SHIELD: int          # seat's armies on region a are spared by Chu a (would have lost b)
    STATE: int           # region a after the round: White b armies + c markers, Black d + e
    LEADER_SHOWN: int    # seat's leader a becomes public (at set-up, or at its first use if hidden)
    DRAWN: int           # seat sees the cards a (bitmask) it drew, before choosing which to keep


EV = Event(*range(1, len(Event._fields) + 1))
LOG_WIDTH = 8

# Who sees each event (sim.game PUBLIC / OWNER / NOBODY; tests/engine/test_observation.py).
_OWNER_EVENTS = (EV.LEADER, EV.HAND, EV.PLACE, EV.DRAW, EV.DRAWN)
EVENT_VISIBILITY = tuple(1 if e in _OWNER_EVENTS else 0 for e in range(len(EV) + 1))


# Index helpers. Not inlined by Numba (LLVM inlines them anyway): with hundreds of calls in the
# kernel, Numba's inliner spent more time on them than on the rest of the compile.
@njit(cache=True)
def seat_at(seat, field):
    """Index into pub of a per-seat field."""
    return P.SEATS + seat * SEAT_STRIDE + field


@njit(cache=True)
def region_at(region, field):
    """Index into pub of a per-region field."""
    return P.REGIONS + region * REGION_STRIDE + field


@njit(cache=True)
def card_value(card):
    """Face value of a number card (ids 0..9); 0 for the special cards."""
    return card + 1 if card <= CARD.W10 else 0


# The battle table lives beside the card ids, not in the kernel, so that a built-in that
# weighs a duel before playing it reads the same rule the kernel applies (games/sunzi/strategies.py).
@njit(cache=True, _nrt=False, inline="always")
def is_special(c):
    return CARD.PLUS1 <= c <= CARD.MINUS1


@njit(cache=True, _nrt=False, inline="always")
def bonus(c):
    return -1 if c == CARD.MINUS1 else c - CARD.PLUS1 + 1


@njit(cache=True, _nrt=False, inline="always")
def cost(c):
    return 1 if c == CARD.PLUS2 else (2 if c == CARD.PLUS3 else 0)


@njit(cache=True, _nrt=False)
def battle(a, b):
    """SZ-9, SZ-11: (margin of card a over card b, armies a loses, armies b loses); no Plague.

    A special card is the opponent's value plus its bonus, so against a number card it wins
    (or, for -1, loses) by its bonus whatever the number; between two special cards the bonuses
    are compared with -1 counting as 0 (the table's +1 vs -1 and -1 vs -1 rows). A +2 or +3
    always costs its player 1 or 2 armies.
    """
    if is_special(a) and is_special(b):
        margin = max(bonus(a), 0) - max(bonus(b), 0)
    elif is_special(a):
        margin = bonus(a)
    elif is_special(b):
        margin = -bonus(b)
    else:
        margin = card_value(a) - card_value(b)
    return margin, cost(a), cost(b)
