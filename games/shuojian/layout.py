"""Shuo Jian (說劍): integer encodings shared by the kernel, strategies and narratives.

Rule ids SJ-n and open points OP-n refer to shared/rules/shuo_jian.md.

Cards are grouped into *card types*: copies with the same kind, action, value and condition are
interchangeable, so hands, the table and the discards are counts per type. Types 0..4 are the
finishing-blow cards (``CARD.*``); types 5.. are number cards in the order of the condition
table (rules.py builds the type table ``types[t, TY.*]``).

Constants are grouped by what they index (vectorbt's enums): ``P.TURN`` is a field of the
public state, ``H.HAND`` of a seat's private row, ``EV.PASS`` an event code. Each group is a
NamedTuple instance, a compile-time constant inside jitted code.
"""
from typing import NamedTuple

N_SEATS = 2
N_STRATEGY_PARAMS = 128   # a scripted seat: 1 + 2 x 63 (decision, action) pairs
HAND_SIZE = 7             # SJ-2
MIN_OPENING_NUMBERS = 2   # SJ-2: an opening hand needs at least 2 number cards (0s count, OP-16)
MAX_REDRAWS = 64          # SJ-2 redraws per seat (only a custom deck with few numbers gets near)


class Card(NamedTuple):
    """Card types 0..4: the finishing-blow cards (SJ-8..SJ-12). SLASH, THRUST and COUNTER are
    also the blows a seat answers (P.BLOW, EV.HIT)."""
    DODGE_LEFT: int
    DODGE_RIGHT: int
    SLASH: int
    THRUST: int
    COUNTER: int


CARD = Card(*range(len(Card._fields)))
FIRST_NUMBER = len(CARD)  # number card types follow, one per distinct (action, value, condition)
SPECIAL_LABELS = ("DL", "DR", "SL", "TH", "CK")
SPECIAL_NAMES = ("Dodge left", "Dodge right", "Slash", "Thrust", "Counter-kill")
MAX_TYPES = 64
MAX_CARDS = 160
MAX_CONDITIONS = 15       # condition bitmasks fit an int16 record column
MAX_PLAYS = (MAX_TYPES - FIRST_NUMBER) * (MAX_TYPES - FIRST_NUMBER + 1)


class NumberAction(NamedTuple):
    """Actions of number cards (SJ-4): straight cut (直斬, "V") and sweep (橫掃, "H"); 0 is
    either."""
    STRAIGHT: int
    SWEEP: int
    ZERO: int


ACT = NumberAction(*range(len(NumberAction._fields)))
ACTION_LETTERS = ("V", "H", "")
NO_CONDITION = -1         # a 0 (and a finishing-blow card) carries no condition (OP-3)


class TypeField(NamedTuple):
    """The type table ``types[t, TY.*]`` (static, public; also copied into pub at P.TYPES)."""
    ACTION: int           # ACT.*, -1 for a finishing-blow card
    VALUE: int            # 0..9, -1 for a finishing-blow card
    COND: int             # condition id, NO_CONDITION for 0s and finishing-blow cards
    COPIES: int           # copies of this type in the deck


TY = TypeField(*range(len(TypeField._fields)))
TYPE_FIELDS = len(TY)
# Condition table: allowed numbers of condition c as two 50-bit masks (numbers 0..49, 50..99).
CONDITION_WORDS = 2
ALL_NUMBERS = (1 << 50) - 1


class Decision(NamedTuple):
    """Decisions: the ``decision`` argument of a strategy; the meaning of an action index."""
    ATTACK: int   # SJ-4 / OP-4: action = index into obs.plays (the legal leads)
    REPLY: int    # SJ-5 / SJ-6: index into obs.plays; index n = pass (only when OP-13 allows)
    FOLLOW: int   # SJ-8 / SJ-12 after the opponent passed: FOLLOW.*
    ANSWER: int   # SJ-8 / SJ-11: answer the blow pub[P.BLOW]: ANSWER.*
    GUESS: int    # SJ-11: the number 0..9 named for a Counter-kill


D = Decision(*range(len(Decision._fields)))
N_DECISIONS = len(D)
DECISION_NAMES = ("attack", "reply", "follow", "answer", "guess")


class Follow(NamedTuple):
    """D.FOLLOW's actions."""
    NONE: int
    SLASH: int
    THRUST: int


FOLLOW = Follow(*range(len(Follow._fields)))


class Answer(NamedTuple):
    """D.ANSWER's actions."""
    LEFT: int             # Dodge left
    RIGHT: int            # Dodge right
    COUNTER: int          # Counter-kill (then D.GUESS names the number)


ANSWER = Answer(*range(len(Answer._fields)))
N_ACTIONS = MAX_PLAYS + 1


class PlayField(NamedTuple):
    """A listed play ``plays[i, PL.*]`` (D.ATTACK / D.REPLY)."""
    TENS: int     # type of the tens card (the only card of a one-card play)
    UNITS: int    # type of the units card, -1 for a one-card play
    NUMBER: int   # the number formed, 1..99
    ACTION: int   # ACT.STRAIGHT / ACT.SWEEP (a 0 takes its partner's action)
    CONDS: int    # bitmask of the conditions this play imposes on the reply (OP-3)


PL = PlayField(*range(len(PlayField._fields)))
PLAY_FIELDS = len(PL)


class SeatField(NamedTuple):
    """Each seat's public fields ``pub[P.SEATS + seat * SEAT_STRIDE + S.*]``."""
    HAND: int             # cards in hand (public count)
    POS: int              # swordsman's square in its owner's row: 0 = owner's left, 1 = right
    WRONG: int            # bitmask of numbers 0..9 named wrongly for this seat's swordsman (SJ-11)
    KNOWN: int            # this swordsman's number once a Counter-kill named it rightly, else -1
    PLAYS: int            # plays of number cards so far
    PASSES: int


S = SeatField(*range(len(SeatField._fields)))
SEAT_STRIDE = 8


class PubField(NamedTuple):
    """The public state ``pub[P.*]``: what both seats see."""
    TURN: int             # plays and passes so far
    DECK: int             # cards left in the deck
    ATTACKER: int         # seat attacking in this exchange
    FIRST: int            # seat that attacked first (SJ-3)
    TABLE_CARDS: int      # number cards on the table
    LAST_NUMBER: int      # the play to answer: its number, -1 when nothing is to be answered
    LAST_ACTION: int      # ... its action
    LAST_CONDS: int       # ... bitmask of the conditions it imposes (OP-3)
    LAST_SEAT: int        # ... who played it
    BLOW: int             # D.ANSWER: the blow answered: CARD.SLASH, CARD.THRUST or CARD.COUNTER
                          # (a right Counter-kill)
    FACING: int           # 1 = the swordsmen face each other (OP-5)
    N_PLAYS: int          # plays listed in `plays` for the current decision (0 for other decisions)
    EXCHANGE: int         # exchanges started so far
    VOLUNTARY: int        # 1 = OP-13 voluntary pass allowed
    SEATS: int            # + seat * SEAT_STRIDE + S.*: each seat's public fields
    TABLE: int            # + type: number cards on the table (this exchange)
    DISCARD: int          # + type: cards out of play (SJ-13)
    SEEN: int             # + seat * MAX_TYPES + type: cards publicly known to be in a seat's
                          # hand (taken from the table, OP-16)
    DYNAMIC: int          # everything before is reset every game
    N_TYPES: int          # static part, written once per chunk
    N_CONDITIONS: int
    TYPES: int            # + t * TYPE_FIELDS + TY.*
    CONDITIONS: int       # + c * CONDITION_WORDS + word


_SEATS = 16
_TABLE = _SEATS + 2 * SEAT_STRIDE
_DYNAMIC = _TABLE + 4 * MAX_TYPES
P = PubField(*range(14), SEATS=_SEATS, TABLE=_TABLE, DISCARD=_TABLE + MAX_TYPES,
             SEEN=_TABLE + 2 * MAX_TYPES, DYNAMIC=_DYNAMIC, N_TYPES=_DYNAMIC,
             N_CONDITIONS=_DYNAMIC + 1, TYPES=_DYNAMIC + 2,
             CONDITIONS=_DYNAMIC + 2 + MAX_TYPES * TYPE_FIELDS)
PUB_SIZE = P.CONDITIONS + MAX_CONDITIONS * CONDITION_WORDS


class HidField(NamedTuple):
    """A seat's private row ``hid[seat, H.*]``: a strategy gets its own row (``obs.mine``)."""
    SWORD: int            # my swordsman's card type, -1 when I may not look at it (OP-15)
    SWORD_VALUE: int      # its number, -1 when hidden
    NUMBERS: int          # number cards in my hand
    PRESENT: int          # bitmask of the number types in my hand: bit t - FIRST_NUMBER
    HAND: int             # + type: my hand, as counts per card type
    MEMORY: int           # mine[H.MEMORY:] is the strategy's own scratch, zeroed every game


H = HidField(0, 1, 2, 3, 4, 4 + MAX_TYPES)
MEMORY_SIZE = 8
HID_SIZE = H.MEMORY + MEMORY_SIZE


class KernelField(NamedTuple):
    """Kernel-only state ``ks[K.*]`` (no strategy sees it)."""
    END: int              # end reason, -1 while playing
    WINNERS: int
    TOP: int              # index in deck[] of the next card to draw
    N_CARDS: int          # cards in deck[] at the start (the swordsmen taken out)
    SWORD: int            # + seat: the swordsmen's card types
    DRAWS: int            # + seat: cards drawn, deal included
    TAKEN: int            # + seat: cards taken from the table
    FOLLOW_UPS: int       # slashes + thrusts
    SLASHES: int
    THRUSTS: int
    COUNTERS: int
    COUNTERS_RIGHT: int
    DODGES: int
    REPLIES: int
    PASSES: int
    MASKS: int            # + seat * N_MASKS + mask: the card bitmasks of the record (below)
    FACED: int            # + condition: replies asked against a play bound by it
    PASSED: int           # + condition: of those, passes
    PLAYED: int           # + condition: number cards with the condition played


N_MASKS = 12
_MASKS = 18
K = KernelField(0, 1, 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 15, 16, 17, MASKS=_MASKS,
                FACED=_MASKS + 2 * N_MASKS, PASSED=_MASKS + 2 * N_MASKS + MAX_CONDITIONS,
                PLAYED=_MASKS + 2 * N_MASKS + 2 * MAX_CONDITIONS)
KS_SIZE = K.PLAYED + MAX_CONDITIONS


class RuleField(NamedTuple):
    """Rule parameters ``rules[R.*]`` (from ShuoJianRules.kernel_args())."""
    N_TYPES: int
    N_CARDS: int          # cards in the deck, swordsmen included
    N_CONDITIONS: int
    FIRST: int            # SJ-3: -1 random, else the seat that attacks first
    FIXED_DECK: int       # 1 = deal deck_init in order (scripted games)
    FIXED_SWORDS: int     # 1 = the swordsmen are swords[0], swords[1] (scripted games)
    TENS_ONLY: int        # OP-3: 1 = only the tens card's condition binds
    HIGH_FIRST: int       # OP-4: 1 = two non-zero cards only high digit first
    START: int            # OP-5: START.*
    LITERAL_EXTRA: int    # OP-10: 1 = SJ-10's draw comes on top of the SJ-3 draw
    DRAWS: int            # OP-11: DRAW.*
    END_AT_LAST: int      # OP-12: 1 = the game ends as soon as the last card is drawn
    VOLUNTARY: int        # OP-13: 1 = a player may pass with a legal reply
    ONE_REPLY: int        # OP-14: 1 = one reply only, then the replier attacks
    SEE_OWN: int          # OP-15: 1 = a player may look at their own swordsman
    TIE_NOBODY: int       # OP-8: 1 = equal hands at SJ-14: nobody wins; 0 = a draw
    MAX_TURNS: int        # OP-9 safety cap (never reached by the rules)
    KEEP_WRONG_COUNTER: int  # OP-7: 1 = a wrong Counter-kill card goes back to hand
    DRAW_FOR_LEAD: int    # OP-16: 1 = an attacker with no legal lead draws until it has one
    ZEROS_OPEN: int       # OP-16: 1 = 0s count as number cards for SJ-2


R = RuleField(*range(len(RuleField._fields)))
N_RULES = len(R)


class Start(NamedTuple):
    """OP-5: where the swordsmen start (R.START)."""
    RIGHT: int
    LEFT: int
    FACING: int


START = Start(*range(len(Start._fields)))


class DrawPolicy(NamedTuple):
    """OP-11: when a player draws (R.DRAWS)."""
    EVERY_PLAY: int
    FIRST_PLAY: int
    EXCHANGE_START: int


DRAW = DrawPolicy(*range(len(DrawPolicy._fields)))


class Why(NamedTuple):
    """Why a card is drawn (EV.DRAW column b, EV.DRAWN column a)."""
    DEAL: int
    PLAY: int             # SJ-3: before playing
    EXTRA: int            # SJ-10: 1 more
    EXCHANGE: int         # OP-11: as the exchange starts


WHY = Why(*range(len(Why._fields)))


class EndReason(NamedTuple):
    """End reasons (record column end_reason)."""
    SLASH: int            # SJ-8: a Slash not dodged
    THRUST: int           # SJ-12: a Thrust not dodged
    COUNTER: int          # SJ-11: a right Counter-kill not dodged
    VOID_DODGE: int       # SJ-9: a dodge with no square to move to
    DECK_OUT: int         # SJ-14: fewer cards in hand wins
    DRAW: int             # SJ-14 / OP-8: equal hands
    CAP: int              # safety cap (never expected)
    BROKEN: int           # card conservation failed (a kernel bug; never expected)


END = EndReason(*range(len(EndReason._fields)))
END_REASONS = ("slash", "thrust", "counter_kill", "void_dodge", "deck_out", "draw", "turn_cap",
               "invariant_broken")
DECISIVE_ENDS = ("slash", "thrust", "counter_kill", "void_dodge")

# Record columns after the shared ones (sim.game; "turns" = plays of number cards and passes).
# Game level:
#   first          seat that attacked first (SJ-3)
#   exchanges, replies, passes   exchanges started, replies made, passes (forced or voluntary)
#   slashes, thrusts, counter_kills, counter_kills_right, dodges   finishing-blow cards played
#   deck, table, discards        cards left in the deck / on the table / out of play at the end
#   faced_cK       replies asked against a play bound by condition K (K = the condition's id in
#                  this variant's table, rules.condition_names()); passed_cK: of those, passes
#   played_cK      number cards with condition K played (attacks and replies)
# Per seat (suffix _0, _1): hand (final hand size), swordsman (its number), plays, passes,
#   taken (cards taken from the table), drawn (cards drawn, deal included), and card bitmasks
#   opening_*/held_*/played_* of: v = straight 1..9 (bit v-1), h = sweep 1..9 (bit v-1),
#   x = other cards (bit 0 = a 0, 1 Dodge left, 2 Dodge right, 3 Slash, 4 Thrust, 5 Counter-kill),
#   c = conditions (bit K = a number card with condition K)
GAME_COLUMNS = ("first", "exchanges", "replies", "passes", "slashes", "thrusts", "counter_kills",
                "counter_kills_right", "dodges", "deck", "table", "discards",
                *(f"faced_c{k}" for k in range(MAX_CONDITIONS)),
                *(f"passed_c{k}" for k in range(MAX_CONDITIONS)),
                *(f"played_c{k}" for k in range(MAX_CONDITIONS)))
MASK_NAMES = ("opening_v", "held_v", "played_v", "opening_h", "held_h", "played_h",
              "opening_x", "held_x", "played_x", "opening_c", "held_c", "played_c")
SEAT_COLUMNS = ("hand", "swordsman", "plays", "passes", "taken", "drawn", *MASK_NAMES)


class Column(NamedTuple):
    """Record columns: the first of each group."""
    FIRST: int            # first .. discards (12 columns)
    FACED: int            # + condition
    PASSED: int           # + condition
    PLAYED: int           # + condition
    SEAT0: int            # the first seat's columns (SEAT_COLUMNS, seat-major)


_FACED = 3 + 12
C = Column(3, _FACED, _FACED + MAX_CONDITIONS, _FACED + 2 * MAX_CONDITIONS,
           _FACED + 3 * MAX_CONDITIONS)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
X_ZERO = 0             # bit of a 0 in the x masks; finishing-blow type t is bit t + 1


class Mask(NamedTuple):
    """Which record mask of a group: mask index = group * 3 + MASK.* (MASK_NAMES)."""
    OPENING: int
    HELD: int
    PLAYED: int


MASK = Mask(*range(len(Mask._fields)))


class MaskGroup(NamedTuple):
    """The record masks' card groups (MASK_NAMES): v, h, x, c."""
    V: int                # straight 1..9
    H: int                # sweep 1..9
    X: int                # the other cards (a 0, the finishing-blow cards)
    C: int                # conditions


GROUP = MaskGroup(*range(len(MaskGroup._fields)))


class Event(NamedTuple):
    """Event log rows: (event, turn, seat, a, b, c, d, e); seat -1 = nobody in particular."""
    CONDITION: int        # condition a allows the numbers in masks b (0..49) and c (50..99)
    TYPE: int             # card type a: action b, value c, condition d, copies e
    SWORDSMAN: int        # seat's swordsman (seen by its owner only): type a, number b
    SWORDSMAN_HIDDEN: int  # seat's swordsman when its owner may not look (OP-15): type a, number b
    PLACE: int            # seat puts its swordsman face down on square a of its row (SJ-1, OP-5)
    DRAW: int             # seat draws card type a (b = why: WHY.*); only the drawer sees it
    DRAWN: int            # seat draws a card: a = why, b = cards left in the deck, c = hand size
    REDRAW: int           # seat's opening hand had fewer than 2 number cards: shuffled back
                          # (SJ-2); a = its number cards as SJ-2 counts them (OP-16
                          # opening_zeros), b = 0s in it that were not counted (opening_zeros off)
    FIRST: int            # seat attacks first (SJ-3)
    ATTACK: int           # seat leads: tens type a, units type b (-1 none), number c, conditions d
    REPLY: int            # seat replies: tens a, units b, number c; answering number d whose
                          # conditions e (bitmask) the reply satisfies (SJ-5, SJ-6)
    PASS: int             # seat passes: a = 1 forced (no legal reply) / 0 voluntary (OP-13);
                          # b = the number not answered, c = its conditions, d = cards taken (SJ-7)
    TAKE: int             # seat takes card type a from the table into its hand (SJ-7)
    NO_LEAD: int          # seat has no legal lead and passes the attack (OP-16)
    FOLLOW: int           # seat follows up a pass: a = FOLLOW.*
    DODGE: int            # seat dodges: a = ANSWER.LEFT / ANSWER.RIGHT, b = new square, c = 1 void
    COUNTER: int          # seat plays a Counter-kill naming a: b = 1 right, 0 wrong (SJ-11)
    HIT: int              # seat cannot or does not answer blow a (CARD.SLASH / THRUST / COUNTER)
    CLEAR: int            # OP-14 one reply: the table's a cards leave play
    END: int              # a = end reason, b = winners bitmask, c, d = hand sizes, e = deck left
    REVEAL: int           # end of game: seat's swordsman was type a, number b


EV = Event(*range(1, len(Event._fields) + 1))
LOG_WIDTH = 8
PUBLIC, OWNER, NOBODY = 0, 1, 2
EVENT_VISIBILITY = (NOBODY, PUBLIC, PUBLIC, OWNER, NOBODY, PUBLIC, OWNER, PUBLIC, PUBLIC, PUBLIC,
                    PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC,
                    PUBLIC, PUBLIC)


class Chance(NamedTuple):
    """The game's chance streams (sim.rng): then one per (seat, decision type)."""
    DECK: int             # deck shuffles
    FIRST: int            # the first player (SJ-3)
    SWORD: int            # the swordsmen (OP-6)


CHANCE = Chance(*range(len(Chance._fields)))
N_CHANCE = len(CHANCE)
