"""Goofspiel: integer encodings shared by the kernel, strategies and narratives (GS-n rule ids:
docs/goofspiel.md)."""

MIN_CARDS, MAX_CARDS = 1, 30   # GS-1: cards 1..N per player; points stay within int16 records
MIN_PLAYERS, MAX_PLAYERS = 2, 8

# Actions: bidding card v is action v - 1 (OpenSpiel's encoding too), so there are N actions.

# Per-player table pl[p, field]. Everything but HAND and LAST_BID is public in every mode; with
# imp_info (GS-9) a seat sees the other seats' HAND as UNKNOWN and their LAST_BID as 0.
HAND = 0               # bitmask: bit v-1 set = card v still in hand
POINTS = 1             # prize points won so far (GS-4)
PRIZES = 2             # prize cards won so far
LAST_BID = 3           # card value bid last turn (0 = none yet, or hidden)
CARDS_LEFT = 4         # cards in hand (public in every mode)
N_FIELDS = 5
UNKNOWN = -1           # HAND of another seat under imp_info

# Public game info handed to strategies: info[field].
I_TURN = 0             # 1-based turn number
I_PRIZE = 1            # value of this turn's prize card (GS-3)
I_UNSEEN = 2           # bitmask: bit v-1 set = prize v not revealed yet (this turn's excluded)
I_CARDS = 3            # N
I_PLAYERS = 4
I_TURNS = 5            # turns in the game (GS-6)
I_ORDER = 6            # ORDER_RANDOM / ORDER_DESCENDING / ORDER_ASCENDING (GS-2)
I_IMP_INFO = 7         # 1 = bids are never revealed (GS-9)
I_DISCARDED = 8        # prize points discarded after tied bids so far (GS-4)
INFO_SIZE = 9

# Rule parameters rules_arr[field] (from GoofspielRules.kernel_args()).
R_CARDS = 0
R_PLAYERS = 1
R_TURNS = 2
R_ORDER = 3
R_RETURNS = 4          # RETURNS_* (GS-8); the kernel does not need it, a search player may
R_IMP_INFO = 5
R_FIXED_DECK = 6       # 1 = prizes come in the given order (scripted games), 0 = as R_ORDER says
N_RULES = 7

ORDER_RANDOM, ORDER_DESCENDING, ORDER_ASCENDING = 0, 1, 2
POINTS_ORDERS = ("random", "descending", "ascending")
RETURNS_WIN_LOSS, RETURNS_POINT_DIFFERENCE, RETURNS_TOTAL_POINTS = 0, 1, 2
RETURNS_TYPES = ("win_loss", "point_difference", "total_points")

# End reasons (record column end_reason), GS-7.
END_WON = 0            # one seat has the most points
END_SHARED = 1         # several (not all) seats tie for the most points: they share the win
END_DRAW = 2           # every seat has the same points: a draw (all share; OpenSpiel: return 0)
END_REASONS = ("won", "shared", "draw")

# Record columns after the shared ones (sim.game): game-level, then per seat.
GAME_COLUMNS = ("tied_turns", "points_discarded")
SEAT_COLUMNS = ("points", "prizes")
C_TIED, C_DISCARDED = 3, 4
C_SEAT0 = 5
N_SEAT_COLUMNS = 2

# Event log rows: (event, turn, seat, a, b, c).
LOG_WIDTH = 6
EV_PRIZE = 1           # a = prize value revealed, b = prize cards still unseen after it
EV_BID = 2             # seat bids: a = card value (private: only the bidder knows it)
EV_REVEAL = 3          # seat's bid is shown: a = card value (not logged under imp_info)
EV_TURN = 4            # seat = taker (-1: tied, discarded), a = prize, b = taker's points
EV_SCORE = 5           # seat: a = points, b = prizes won
EV_END = 6             # a = end reason, b = winners bitmask
# Who sees each event (sim.game PUBLIC=0 / OWNER=1 / NOBODY=2): a bid is the bidder's secret
# until every bid is in (GS-3); the reveal and the turn's result are public (GS-4).
EVENT_VISIBILITY = (2, 0, 1, 0, 0, 0, 0)
DECISION_NAMES = ("bid",)
N_DECISIONS = len(DECISION_NAMES)
N_CHANCE = 1  # random streams (sim.rng): 0 = the deck; then one per (seat, decision type)

# Game scalars gs[field] inside the kernel.
G_TURN = 0             # turns started
G_END = 1              # end reason, -1 while playing
G_TIED = 2             # turns whose prize was discarded
G_DISCARDED = 3        # points discarded
N_GAME_FIELDS = 4

# Random streams: 0 = chance (the prize shuffle), 1+s = seat s's strategy.
CHANCE = 0

N_STRATEGY_PARAMS = 32  # a scripted seat needs one bid per turn (at most MAX_CARDS turns)
