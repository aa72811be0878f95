"""Parthian Shot: integer encodings shared by the kernel, strategies and narratives.

Constants are grouped by what they index (vectorbt's enums): ``P.HAND`` is a field of a
player's row, ``I.LEGION`` of the public info, ``EV.PLAY`` an event code. Each group is a
NamedTuple instance, a compile-time constant inside jitted code.
"""
from typing import NamedTuple

MAX_PLAYERS = 6
N_LEGIONS = 7          # PS-2: legions used in one game
SHOTS = 6              # PS-1: shooting cards 1..6

# Actions (a seat's choice each round). Shooting card v is action v - 1.
CHARGE = 6             # PS-4: play a charge card
N_ACTIONS = 7


class PlayerField(NamedTuple):
    """A player's row ``pl[p, P.*]`` (public knowledge: the hand is the complement of the
    shooting cards in front, and charge cards in hand = start - charges played - wounds)."""
    HAND: int            # bitmask: bit v-1 set = shooting card v in hand
    FRONT: int           # bitmask: shooting cards lying face up in front of the player
    FRONT_SUM: int       # sum of the shooting cards in front (a charge's power, PS-4)
    CHARGES: int         # charge cards in hand
    WOUNDS: int          # charge cards discarded as damage (PS-9)
    CHARGES_PLAYED: int
    MERITS: int          # legion cards won (PS-6)
    BEST_MERIT: int      # strongest legion among the merits (tie-break, PS-15/16); 0 = none
    ROUTED: int          # 1 = could not pay damage (PS-12)


P = PlayerField(*range(len(PlayerField._fields)))
N_FIELDS = len(P)


class InfoField(NamedTuple):
    """The public round info ``info[I.*]`` handed to strategies."""
    ROUND: int           # 1-based round number
    LEGION: int          # strength of this round's legion (PS-3)
    DECK_LEFT: int       # legion cards still in the deck, the revealed one included
    THRESHOLD: int       # a charge is allowed when FRONT_SUM > this (PS-4)
    N_PLAYERS: int
    LEGIONS: int         # LEGIONS .. LEGIONS+6: strengths still in the deck, strongest first, 0-padded


I = InfoField(*range(len(InfoField._fields)))
INFO_SIZE = I.LEGIONS + N_LEGIONS


class RuleField(NamedTuple):
    """Rule parameters ``rules[R.*]`` (from ParthianRules.kernel_args())."""
    PLAYERS: int
    THRESHOLD: int       # PS-4 (9 in the printed game)
    CHARGES: int         # PS-1 charge cards per player (2)
    MERIT_DEPTH: int     # OP-2: distinct values searched for a unique one (3 = as written)
    CHARGER_SHIELDS: int  # OP-3: 1 = a charger spares everyone (PS-10); 0 = only chargers spared
    SHARE_TIES: int      # OP-4: 1 = unbroken ties share the win; 0 = nobody wins
    FIXED_DECK: int      # 1 = legions are dealt in the given order (scripted games), 0 = shuffled


R = RuleField(*range(len(RuleField._fields)))
N_RULES = len(R)


class GameField(NamedTuple):
    """The game's scalars ``gs[G.*]`` inside the kernel."""
    HEAD: int            # index in deck[] of the legion on top
    LEFT: int            # legion cards left in the deck
    ROUND: int
    DEFEATED: int
    BREAKTHROUGHS: int
    UNCLAIMED: int       # defeated legions nobody got (PS-7)
    END: int             # end reason, -1 while playing
    UNSEEN: int          # legions after the head never revealed yet: they lie on top of the
                         # returned ones (PS-11 puts a breakthrough at the bottom, in public view)


G = GameField(*range(len(GameField._fields)))
N_GAME_FIELDS = len(G)


class EndReason(NamedTuple):
    VICTORY: int         # PS-15: all 7 legions defeated
    DEFEAT: int          # PS-16: someone could not pay damage
    NO_SURVIVOR: int     # PS-16 with every player routed: nobody can win
    CAP: int             # safety cap (7 + 2N rounds, which the rules never exceed)


END = EndReason(*range(4))
END_REASONS = ("victory", "defeat", "defeat_no_survivor", "round_cap")

# Record columns after the shared ones (sim.game): game-level, then per seat.
GAME_COLUMNS = ("legions_defeated", "breakthroughs", "merits_unclaimed")
SEAT_COLUMNS = ("score", "merits", "best_merit", "wounds", "charges_played", "routed")


class Column(NamedTuple):
    DEFEATED: int
    BREAKTHROUGHS: int
    UNCLAIMED: int
    SEAT0: int           # the first seat's columns (SEAT_COLUMNS, seat-major)


C = Column(3, 4, 5, 6)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)


class Event(NamedTuple):
    """Event log rows: (event, round, player, a, b, c)."""
    LEGION: int          # a = strength, b = legions left in deck
    PLAY: int            # player plays: a = action, b = value
    DEFEATED: int        # a = total, b = strength, c = merit winner (-1 none)
    BREAKTHROUGH: int    # a = total, b = strength, c = 1 if a charger spared everyone
    DAMAGE: int          # player takes damage: a = charges left (-1 = could not pay: routed)
    RESUPPLY: int        # player's shooting cards return: a = 13 (charge), 14 (camel), 9 (damage)
    END: int             # a = end reason, b = winners bitmask
    SCORE: int           # player: a = score, b = best merit


EV = Event(*range(1, len(Event._fields) + 1))
LOG_WIDTH = 6
# Who sees each event (tests/engine/test_observation.py): every event is public; the choices
# of a round are logged only when they are revealed together (PS-5).
EVENT_VISIBILITY = (0,) * (len(EV) + 1)
DECISION_NAMES = ("card",)
N_DECISIONS = len(DECISION_NAMES)
N_CHANCE = 1  # random streams (sim.rng): 0 = the deck; then one per (seat, decision type)

N_STRATEGY_PARAMS = 64  # a script needs a (decision, action) pair per round: 1 + 2 x 31
