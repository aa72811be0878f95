"""Kuhn poker: integer encodings shared by the kernel, strategies and narratives (KP-n rule ids:
games/kuhn/RULES.md). Constants are grouped by what they index."""
from typing import NamedTuple

N_CARDS = 3                # KP-1: the Jack, the Queen and the King
CARD_NAMES = ("J", "Q", "K")
PASS, BET = 0, 1           # KP-3: check or fold / bet or call (OpenSpiel's action ids)
N_ACTIONS = 2
MAX_ACTIONS = 3            # KP-4: pass-bet-pass or pass-bet-bet is the longest betting


class PublicField(NamedTuple):
    """The public table ``pub[U.*]``, the same for both seats."""
    ACTED: int             # actions taken so far (0..3)
    POT0: int              # chips seat 0 has put in (ante included)
    POT1: int
    ACTION0: int           # the betting so far, PASS/BET, -1 where not yet taken
    ACTION1: int
    ACTION2: int


U = PublicField(*range(len(PublicField._fields)))
PUB_SIZE = len(U)


class RuleField(NamedTuple):
    ANTE: int              # KP-2 (1)
    BET: int               # KP-3 (1)
    FIXED_DEAL: int        # 1 = the cards are dealt as given (scripted and golden games)
    CARD0: int             # the given deal
    CARD1: int


R = RuleField(*range(len(RuleField._fields)))
N_RULES = len(R)


class EndReason(NamedTuple):
    SHOWDOWN: int          # KP-5: both checked, or a bet was called: the higher card wins
    FOLD: int              # KP-4: a seat passed facing a bet: the other takes the pot


END = EndReason(0, 1)
END_REASONS = ("showdown", "fold")

GAME_COLUMNS = ("pot",)
SEAT_COLUMNS = ("payoff", "card")


class Column(NamedTuple):
    POT: int
    SEAT0: int


C = Column(3, 4)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)


class Event(NamedTuple):
    """Event log rows: (event, action index, seat, a, b, c)."""
    DEAL: int              # seat is dealt card a (only that seat sees it)
    ACT: int               # seat plays a (PASS/BET); b = its chips in the pot after it
    SHOW: int              # showdown: seat shows card a
    END: int               # a = end reason, b = winners bitmask, c = the pot


EV = Event(*range(1, len(Event._fields) + 1))
LOG_WIDTH = 6
PUBLIC, OWNER = 0, 1
EVENT_VISIBILITY = (0, OWNER, PUBLIC, PUBLIC, PUBLIC)
DECISION_NAMES = ("act",)
N_DECISIONS = len(DECISION_NAMES)
N_CHANCE = 1               # stream 0: the deal

# Information sets of a seat: (its card, the betting it faces), as OpenSpiel's TabularPolicy
# orders them: the first to act, the second after a pass, the second after a bet, the first
# after pass-bet. A tabular strategy's params[i] is P(BET) at information set i = 4 * card + s.
SITUATIONS = ("first", "after pass", "after bet", "after pass-bet")
N_INFOSETS = N_CARDS * len(SITUATIONS)
N_STRATEGY_PARAMS = 64
