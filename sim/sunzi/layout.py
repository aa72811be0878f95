"""Sunzi / Dynasties: integer encodings shared by the kernel, strategies and narratives.

Seat 0 is White (Sun Wu), seat 1 is Black (King Zhao of Chu). Rule ids SZ-n and open points
OP-n refer to shared/rules/sunzi_dynasties.md.
"""
import numpy as np
from numba import njit

N_SEATS = 2
N_STRATEGY_PARAMS = 128   # a scripted seat: 64 (decision, action) pairs
WHITE, BLACK = 0, 1
MAX_REGIONS = 6        # every round needs one card per region; the 6 yellow cards always suffice
N_ROUNDS = 9
SCORING_EVERY = 3      # SZ-18: scoring after rounds 3, 6, 9 (tile value k = round // 3 - 1)

# Cards: one id per card of a side's 19 (SZ-6); the leader card exists only with OP-9 "deck".
Y1, Y6 = 0, 5          # yellow 1..6: id = value - 1 (reusable)
W7, W10 = 6, 9         # white 7..10: id = value - 1 (used once)
PLUS1, PLUS2, PLUS3, MINUS1, PLAGUE = 10, 11, 12, 13, 14
LEADER_CARD = 15       # OP-9 "deck": the leader card drawn like any other card (never placed)
N_CARDS = 16
YELLOWS = (1 << 6) - 1
DECK_ADVANCED = ((1 << 15) - 1) & ~YELLOWS         # 7-10, +1, +2, +3, -1, Plague
DECK_BASIC = DECK_ADVANCED & ~((1 << PLUS2) | (1 << PLUS3))   # SZ-1
DECK_MAX = 10
CARD_LABELS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "+1", "+2", "+3", "-1",
               "Plague", "leader")
# Record bitmask columns opening/drawn/played: bit i = card id RECORD_CARD_SHIFT + i, i.e.
# bit 0..3 = 7, 8, 9, 10; bit 4..6 = +1, +2, +3; bit 7 = -1; bit 8 = Plague; bit 9 = leader card.
RECORD_CARD_SHIFT = 6

# Leaders (SZ-3): index 0..3 = power a..d of SZ-16 (White) or SZ-17 (Black).
LEADER_NONE = -1
LEADER_STRATEGY = 4    # rules value: the side's strategy picks (decision D_LEADER)
POWER_A, POWER_B, POWER_C, POWER_D = 0, 1, 2, 3

# Decisions: the `decision` argument of a strategy; the meaning of an action index per decision.
D_LEADER = 0   # warlord, leader chosen by strategy: action = power 0..3 (a..d)
D_BUY = 1      # advanced (SZ-2, OP-11): action = card id to discard for 1 army, or PASS to stop
D_PLACE = 2    # SZ-7: action = card id to place face down on region P_REGION
D_ORDER = 3    # SZ-8: action = region to reveal next (the whole order is fixed before revealing)
D_SPLIT = 4    # SZ-10: action = how many of the loser's armies to remove (the rest is placed)
D_SOURCE = 5   # SZ-12 shortage: action = region to take one of your armies from
D_KEEP = 6     # SZ-13/14: action = card id (among mine[H_DRAWN]) to keep
D_POWER = 7    # use a leader power now? action 0 = no, 1 = yes; P_AUX = power (0..3)
D_TARGET = 8   # leader power target: action = region, or PASS = do not use; P_AUX = power
D_SIX = 9      # SZ-15 "may": use the 6 power on region P_REGION now? action 0 = no, 1 = yes
N_DECISIONS = 10
DECISION_NAMES = ("leader", "buy", "place", "order", "split", "source", "keep", "power", "target",
                  "six")
PASS = 16
N_ACTIONS = 17
AUX_MARCH_TO = 4       # D_TARGET, Sun Wu d, second step: the adjacent region to move to
# P_AUX of D_SOURCE: why an army is needed
WHY_PLACE, WHY_COST, WHY_MARKER = 0, 1, 2

# Public state pub[...]: what both sides see. Everything is from the table's point of view;
# per-seat and per-region blocks are reached with seat_at / region_at below.
P_ROUND = 0            # 1..9 (0 during set-up)
P_GENERAL = 1          # score general: > 0 towards White's red zone, < 0 towards Black's (SZ-5)
P_TRACK = 2            # steps from the centre to a red zone (OP-3)
P_N_REGIONS = 3
P_ADVANCED = 4         # 1 = advanced mode
P_DECIDER = 5          # seat choosing this round's reveal order, -1 = left to right (SZ-8)
# P_REGION, P_AMOUNT and P_AUX describe the decision being asked and are cleared as soon as it
# is answered: left set, they told the other side about a private decision (the warlord leak).
P_REGION = 6           # the region the current decision is about (-1 none)
P_AMOUNT = 7           # D_SPLIT: the difference d; D_SOURCE: armies still needed; D_KEEP: cards to keep
P_AUX = 8              # D_SPLIT: loser's armies there; D_SOURCE: WHY_*; D_POWER/D_TARGET: power
P_REVEALED = 9         # regions revealed so far this round
P_LEGAL = 10           # the legal actions of the current decision as a bitmask (bit a = legal[a])
P_SEATS = 11
SEAT_STRIDE = 10
S_SUPPLY = 0
S_REMOVED = 1          # armies that left the game
S_BOUGHT = 2           # armies bought (SZ-2)
S_HAND = 3             # cards in hand (the count is public, the cards are not)
S_DECK = 4             # cards left in the deck
S_GONE = 5             # bitmask of cards that left the game (played whites, discards for armies)
S_LEADER = 6           # chosen leader 0..3, -1 none or not yet shown (leaders="hidden": shown
                       # when its power is first used)
S_LEADER_ROUND = 7     # round its power was used (0 = at game start), -1 = not used
S_POINTS = 8           # points scored so far (SZ-18)
P_REGIONS = P_SEATS + 2 * SEAT_STRIDE
REGION_STRIDE = 13
ARMIES = 0             # + seat: armies in the region (removable)
MARKERS = 2            # + seat: markers beside the name (count for control, never removed; SZ-15)
SIX_USED = 4           # + seat: times the 6 power was used here (SZ-15, SZ-17c)
CARD = 6               # + seat: card revealed here this round, -1 while face down
REVEAL = 8             # position in this round's reveal order once chosen, -1 unknown
TILE = 9               # + k: tile value at scoring k = 0, 1, 2 (after rounds 3, 6, 9)
ADJ = 12               # bitmask of adjacent regions (OP-1)
PUB_SIZE = P_REGIONS + MAX_REGIONS * REGION_STRIDE

# Private state hid[seat, ...]: what only that seat knows. A strategy gets its own row (`mine`).
H_HAND = 0             # bitmask of card ids in hand
H_DRAWN = 1            # bitmask of cards drawn and waiting for D_KEEP
H_POWER = 2            # 1 = my leader power is in hand and unused
H_AS_SIX = 3           # region where Sun Wu c turns my card into a 6 this round, -1 none
H_DECISIONS = 4        # decisions asked so far this game
H_PLACED = 5           # + region: card placed face down this round, -1 none
H_LEADER = H_PLACED + MAX_REGIONS   # my leader 0..3 (-1 none); public too unless hidden
H_MEMORY = H_LEADER + 1
MEMORY_SIZE = 8        # mine[H_MEMORY:] is the strategy's own scratch, zeroed every game
HID_SIZE = H_MEMORY + MEMORY_SIZE

# pub, hid, the seats' strategy parameters and random streams live in one record, so that asking
# a strategy passes one pointer instead of five arrays (numba passes an array as 7-9 machine words
# on the stack; ~150 asks a game made that a quarter of the run time).
N_CHANCE = 1  # random streams (sim.rng): 0 = tiles and decks; then one per (seat, decision type)
STATE_DTYPE = np.dtype([("pub", np.int64, (PUB_SIZE,)), ("hid", np.int64, (2, HID_SIZE)),
                        ("params", np.float64, (2, N_STRATEGY_PARAMS)),
                        ("streams", np.uint64, (N_CHANCE + 2 * N_DECISIONS,))])

# Kernel-only state ks[...]: hidden from everyone (deck order, bookkeeping for the record).
K_ROW = 0
K_END = 1              # end reason, -1 while playing
K_WINNERS = 2
K_LAST_DECIDER = 3
K_LAST_LEADER = 4      # last side that led after a scoring (+1 White, -1 Black, 0 none yet)
K_LEAD_CHANGES = 5
K_START_ARMIES = 6
K_DECK_HEAD = 7        # + seat
K_STATS = 9            # + seat * N_STATS
ST_OPENING, ST_DRAWN, ST_PLAYED, ST_MOVED, ST_BATTLES, ST_REGIONS, ST_ORDERS = 0, 1, 2, 3, 4, 5, 6
N_STATS = 7
K_DECKS = K_STATS + 2 * N_STATS    # + seat * DECK_MAX: deck cards, circular from K_DECK_HEAD
K_ORDER = K_DECKS + 2 * DECK_MAX   # + i: region revealed i-th this round
K_UNSEEN = K_ORDER + MAX_REGIONS   # + seat: cards on top of the deck its owner never saw (a card
                                   # put back at the bottom, SZ-13, stays known to its owner)
KS_SIZE = K_UNSEEN + 2

# Rule parameters rules[...] (from SunziRules.kernel_args()).
R_N_REGIONS = 0
R_ADVANCED = 1         # SZ-1 / SZ-2
R_WARLORD = 2          # SZ-3
R_LEADER = 3           # + seat: 0..3 fixed, LEADER_STRATEGY = chosen by the side's strategy
R_TRACK = 5            # OP-3
R_ARMIES = 6           # SZ-1 / SZ-2
R_PLAGUE_RULING = 7    # OP-4: 1 = halve rounding down, never below 1; 0 = remove round-half-up(n/2)
R_FEWER_SUPPLY = 8     # OP-5: 1 = compare supplies; 0 = armies on the map (markers included)
R_REMOVE_FIRST = 9     # OP-6: 1 = remove the loser's armies first; 0 = the winner's choice
R_COST_REGION_FIRST = 10  # OP-7: 1 = contested region before supply
R_TIE_MARKERS = 11     # OP-8: 1 = markers break a tied region; 0 = nobody scores it
R_LEADER_IN_DECK = 12  # OP-9: 1 = the leader card is shuffled into the deck
R_ROUND6_AT_START = 13  # OP-9: 1 = round-6 powers at the start of round 6
R_AS_SIX_VALUE = 14    # OP-10: 1 = Sun Wu c changes only the value (no marker power)
R_WIPE_OPPONENT = 15   # OP-10: 1 = Chu b wipes only the opponent's armies (his own are halved)
R_BUY_AT_END = 16      # OP-11: 1 = buy after the battles instead of at the start of a round
R_TIE_NOBODY = 17      # OP-12: 1 = a full tie has no winner; 0 = draw (half each)
R_ORDER_BEFORE = 18    # OP-13: 1 = the reveal order is chosen before placement
R_REMOVED_TO_SUPPLY = 19  # removed armies return to their owner's supply instead of leaving
R_SCORE_NET = 20       # 1 = a scoring moves the general once by the net points
R_FIXED_TILES = 21     # 1 = tiles beside the regions are the given ones (scripted games)
R_SIX_ALWAYS = 22      # SZ-15: 1 = the 6 power is always used when allowed; 0 = the owner decides
R_LEADERS_HIDDEN = 23  # SZ-3: 1 = a leader is shown only when its power is first used
R_MARKERS_MOVE = 24    # SZ-15 "unless used for other actions": 1 = markers may cover a shortage
R_ORDER_EACH = 25      # SZ-8: 1 = the decider picks the next region after each reveal
N_RULES = 26

# End reasons (record column end_reason).
END_RED_ZONE = 0       # SZ-19
END_GENERAL = 1        # SZ-20: after round 9 the general is on one side
END_SUPPLY = 2         # SZ-20: general central, more armies in supply
END_DRAW = 3           # OP-12: full tie
END_BROKEN = 4         # army conservation failed (a kernel bug; never expected)
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
C_GENERAL, C_LEAD_CHANGES = 3, 4
C_SEAT0 = 5
N_SEAT_COLUMNS = len(SEAT_COLUMNS)

# Event log rows: (event, round, seat, a, b, c, d, e); seat -1 = nobody in particular.
LOG_WIDTH = 8
EV_TILE = 1        # region a: tile values b, c, d; e = the tile's index in the tile set
EV_LEADER = 2      # seat chose leader a
EV_HAND = 3        # seat's opening hand: a = bitmask of card ids
EV_BUY = 4         # seat discards card a for an army (supply now b)
EV_DECIDER = 5     # seat decides the reveal order (-1: left to right); a, b = armies compared
EV_PLACE = 6       # seat places card a face down on region b; c = 1 if played as a 6 (SZ-16c)
EV_ORDER = 7       # a = reveal order packed 4 bits per region, first in the low bits; b = count
EV_REVEAL = 8      # region a: White's card b, Black's card c
EV_MARKER = 9      # seat puts a marker on region a; b = 6 for the 6 power, 0 Sun Wu a, 2 Chu c
EV_BATTLE = 10     # region a: effective cards b (White) and c (Black); d = White's margin
EV_COST = 11       # seat loses a armies for a +2/+3 on region b (c = how many could not be paid)
EV_SPLIT = 12      # seat won region a: removes b of the loser's armies, places c (d = unplaced)
EV_MOVE = 13       # seat moves an army from region a to region b (c = WHY_*); b = -1: the army
                   # leaves the game to pay a +2/+3 cost
EV_PLAGUE = 14     # region a: White loses b, Black loses c; d = 0 halving, 1 Chu b wipe
EV_POWER = 15      # seat uses leader power a with target b (and c)
EV_DRAW = 16       # seat drew a (bitmask) and kept b (bitmask)
EV_SCORE = 17      # region a won by seat for b points; general now c
EV_END = 18        # a = end reason, b = winners bitmask, c = general, d, e = supplies
EV_SHIELD = 19     # seat's armies on region a are spared by Chu a (would have lost b)
EV_STATE = 20      # region a after the round: White b armies + c markers, Black d + e
EV_LEADER_SHOWN = 21  # seat's leader a becomes public (at set-up, or at its first use if hidden)
EV_DRAWN = 22      # seat sees the cards a (bitmask) it drew, before choosing which to keep

# Who sees each event (sim.game PUBLIC / OWNER / NOBODY; tests/engine/test_observation.py).
_OWNER_EVENTS = (EV_LEADER, EV_HAND, EV_PLACE, EV_DRAW, EV_DRAWN)
EVENT_VISIBILITY = tuple(1 if e in _OWNER_EVENTS else 0 for e in range(EV_DRAWN + 1))



@njit(cache=True, inline="always")
def seat_at(seat, field):
    """Index into pub of a per-seat field."""
    return P_SEATS + seat * SEAT_STRIDE + field


@njit(cache=True, inline="always")
def region_at(region, field):
    """Index into pub of a per-region field."""
    return P_REGIONS + region * REGION_STRIDE + field


@njit(cache=True, inline="always")
def card_value(card):
    """Face value of a number card (ids 0..9); 0 for the special cards."""
    return card + 1 if card <= W10 else 0
