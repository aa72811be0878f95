"""Goofspiel: integer encodings shared by the kernel, strategies and narratives (GS-n rule ids:
games/goofspiel/RULES.md). Constants are grouped by what they index (``P.HAND``, ``EV.BID``)."""
from typing import NamedTuple

import numpy as np

MIN_CARDS, MAX_CARDS = 1, 30   # GS-1: cards 1..N per player; points stay within int16 records
MIN_PLAYERS, MAX_PLAYERS = 2, 8

# Actions: bidding card v is action v - 1 (OpenSpiel's encoding too), so there are N actions.



class PlayerField(NamedTuple):
    """A player's row ``pl[p, P.*]``. Everything but HAND and LAST_BID is public in every mode;
    with imp_info (GS-9) a seat sees the other seats' HAND as UNKNOWN and their LAST_BID as 0."""
    HAND: int            # bitmask: bit v-1 set = card v still in hand
    POINTS: int          # prize points won so far (GS-4)
    PRIZES: int          # prize cards won so far
    LAST_BID: int        # card value bid last turn (0 = none yet, or hidden)
    CARDS_LEFT: int      # cards in hand (public in every mode)


P = PlayerField(*range(len(PlayerField._fields)))
N_FIELDS = len(P)
UNKNOWN = -1           # HAND of another seat under imp_info


class InfoField(NamedTuple):
    """Public game info ``info[I.*]`` handed to strategies."""
    TURN: int            # 1-based turn number
    PRIZE: int           # value of this turn's prize card (GS-3)
    UNSEEN: int          # bitmask: bit v-1 set = prize v not revealed yet (this turn's excluded)
    CARDS: int           # N
    PLAYERS: int
    TURNS: int           # turns in the game (GS-6)
    ORDER: int           # ORDER_RANDOM / ORDER_DESCENDING / ORDER_ASCENDING (GS-2)
    IMP_INFO: int        # 1 = bids are never revealed (GS-9)
    DISCARDED: int       # prize points discarded after tied bids so far (GS-4)


I = InfoField(*range(len(InfoField._fields)))
INFO_SIZE = len(I)


class RuleField(NamedTuple):
    """Rule parameters ``rules[R.*]`` (from GoofspielRules.kernel_args())."""
    CARDS: int
    PLAYERS: int
    TURNS: int
    ORDER: int
    RETURNS: int         # RETURNS_* (GS-8); the kernel does not need it, a search player may
    IMP_INFO: int
    FIXED_DECK: int      # 1 = prizes come in the given order (scripted games), 0 = as R.ORDER says


R = RuleField(*range(len(RuleField._fields)))
N_RULES = len(R)

ORDER_RANDOM, ORDER_DESCENDING, ORDER_ASCENDING = 0, 1, 2
POINTS_ORDERS = ("random", "descending", "ascending")
RETURNS_WIN_LOSS, RETURNS_POINT_DIFFERENCE, RETURNS_TOTAL_POINTS = 0, 1, 2
RETURNS_TYPES = ("win_loss", "point_difference", "total_points")



class EndReason(NamedTuple):
    """End reasons (record column end_reason), GS-7."""
    WON: int             # one seat has the most points
    SHARED: int          # several (not all) seats tie for the most points: they share the win
    DRAW: int            # every seat has the same points: a draw (all share; OpenSpiel: return 0)


END = EndReason(0, 1, 2)
END_REASONS = ("won", "shared", "draw")

# Record columns after the shared ones (sim.game): game-level, then per seat.
GAME_COLUMNS = ("tied_turns", "points_discarded")
SEAT_COLUMNS = ("points", "prizes")


class Column(NamedTuple):
    TIED: int
    DISCARDED: int
    SEAT0: int           # the first seat's columns (SEAT_COLUMNS, seat-major)


C = Column(3, 4, 5)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)


class Event(NamedTuple):
    """Event log rows: (event, turn, seat, a, b, c)."""
    PRIZE: int           # a = prize value revealed, b = prize cards still unseen after it
    BID: int             # seat bids: a = card value (private: only the bidder knows it)
    REVEAL: int          # seat's bid is shown: a = card value (not logged under imp_info)
    TURN: int            # seat = taker (-1: tied, discarded), a = prize, b = taker's points
    SCORE: int           # seat: a = points, b = prizes won
    END: int             # a = end reason, b = winners bitmask


EV = Event(*range(1, len(Event._fields) + 1))
LOG_WIDTH = 6
# Who sees each event (sim.game PUBLIC=0 / OWNER=1 / NOBODY=2): a bid is the bidder's secret
# until every bid is in (GS-3); the reveal and the turn's result are public (GS-4).
EVENT_VISIBILITY = (2, 0, 1, 0, 0, 0, 0)
DECISION_NAMES = ("bid",)
N_DECISIONS = len(DECISION_NAMES)
N_CHANCE = 1  # random streams (sim.rng): 0 = the deck; then one per (seat, decision type)



class GameField(NamedTuple):
    """The game's scalars ``gs[G.*]`` inside the kernel."""
    TURN: int            # turns started
    END: int             # end reason, -1 while playing
    TIED: int            # turns whose prize was discarded
    DISCARDED: int       # points discarded


G = GameField(*range(len(GameField._fields)))
N_GAME_FIELDS = len(G)

CHANCE = 0  # stream 0: the prize shuffle

# The kernel's arrays live in one record (games/goofspiel/kernel.py State.rec), sized for the
# largest variant, so that a call that is not inlined passes one array instead of twelve: Numba
# passes every array as 7-9 machine words on the stack, and the state went to setup, play_game
# and write_record in every game (the engine's share of random play: docs/benchmarks.md).
STATE_DTYPE = np.dtype([
    ("rules", np.int64, (N_RULES,)),              # R.*
    ("prizes", np.int64, (MAX_CARDS,)),           # the prize values in their printed order (GS-2)
    ("pl", np.int64, (MAX_PLAYERS, N_FIELDS)),    # each player's row, P.*
    ("seen", np.int64, (MAX_PLAYERS, N_FIELDS)),  # what the deciding seat sees of them (GS-9)
    ("deck", np.int64, (MAX_CARDS,)),             # the prize deck; deck[t - 1] is turn t's prize
    ("gs", np.int64, (N_GAME_FIELDS,)),           # G.*
    ("info", np.int64, (INFO_SIZE,)),             # the public turn info, I.*
    ("bids", np.int64, (MAX_PLAYERS,)),           # this turn's bids (actions: card - 1)
    ("history", np.int64, (MAX_CARDS, MAX_PLAYERS)),  # [turn - 1, seat]: every turn's bids
    ("trial", np.int64, (MAX_CARDS, MAX_PLAYERS)),    # the imp_info redeal's draft of a history
    ("wins", np.int64, (MAX_CARDS,)),             # [turn - 1]: each turn's taker (-1: tied)
    ("avail", np.int64, (MAX_PLAYERS,)),          # the imp_info redeal's cards left per seat
])

N_STRATEGY_PARAMS = 64  # a script needs a (decision, action) pair per turn: 1 + 2 x MAX_CARDS
