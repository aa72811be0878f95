"""Leduc poker: integer encodings shared by the kernel, strategies and narratives (LP-n rule ids:
games/leduc/RULES.md). Constants are grouped by what they index."""
from typing import NamedTuple

# LP-1: six cards, the Jack, Queen and King in two suits; card c has rank c // 2 and suit c % 2,
# OpenSpiel's numbering (its chance outcomes 0..5).
N_CARDS = 6
N_SUITS = 2
N_RANKS = 3
RANK_NAMES = ("J", "Q", "K")
CARD_NAMES = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")
FOLD, CALL, RAISE = 0, 1, 2    # LP-3: OpenSpiel's action ids; a call with nothing to call checks
N_ACTIONS = 3
N_ROUNDS = 2
MAX_RAISES_LIMIT = 4           # the largest `max_raises` option
ROUND_SLOTS = MAX_RAISES_LIMIT + 2   # the longest betting round: check, every raise, a call
MAX_ACTIONS = N_ROUNDS * ROUND_SLOTS


class PublicField(NamedTuple):
    """The public table ``pub[U.*]``, the same for both seats."""
    ROUND: int             # the betting round, 0 or 1
    PUBLIC: int            # LP-5: the public card, -1 until it is dealt
    POT0: int              # chips seat 0 has put in (ante included)
    POT1: int
    RAISES: int            # raises so far in this round (LP-3: at most `max_raises`)
    ACTED: int             # actions so far in this round
    ACTIONS: int           # the betting: ACTIONS + ROUND_SLOTS * round + k, -1 where not taken


U = PublicField(*range(len(PublicField._fields)))
PUB_SIZE = U.ACTIONS + MAX_ACTIONS


class RuleField(NamedTuple):
    ANTE: int              # LP-2 (1)
    RAISE1: int            # LP-4: the raise in round 1 (2)
    RAISE2: int            # LP-4: the raise in round 2 (4)
    MAX_RAISES: int        # LP-3 (2)
    FIXED_DEAL: int        # 1 = the cards are dealt as given (scripted and golden games)
    CARD0: int             # the given deal: seat 0's card, seat 1's, the public card
    CARD1: int
    PUBLIC: int


R = RuleField(*range(len(RuleField._fields)))
N_RULES = len(R)


class EndReason(NamedTuple):
    SHOWDOWN: int          # LP-7: the better hand takes the pot
    SPLIT: int             # LP-7: equal ranks share it
    FOLD: int              # LP-6: a seat folded, the other takes the pot


END = EndReason(0, 1, 2)
END_REASONS = ("showdown", "split", "fold")

GAME_COLUMNS = ("pot", "public")
SEAT_COLUMNS = ("payoff", "card")


class Column(NamedTuple):
    POT: int
    PUBLIC: int            # the public card, -1 when a fold ended round 1
    SEAT0: int


C = Column(3, 4, 5)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)


class Event(NamedTuple):
    """Event log rows: (event, betting round 1 or 2, seat, a, b, c)."""
    DEAL: int              # seat is dealt card a (only that seat sees it)
    ACT: int               # seat plays a (FOLD/CALL/RAISE); b = its chips in the pot after it
    FLOP: int              # the public card a is dealt face up
    SHOW: int              # showdown: seat shows card a
    END: int               # a = end reason, b = winners bitmask, c = the pot


EV = Event(*range(1, len(Event._fields) + 1))
LOG_WIDTH = 6
PUBLIC, OWNER = 0, 1
EVENT_VISIBILITY = (0, OWNER, PUBLIC, PUBLIC, PUBLIC, PUBLIC)
DECISION_NAMES = ("act",)
N_DECISIONS = len(DECISION_NAMES)
N_CHANCE = 1               # stream 0: the deal and the public card
