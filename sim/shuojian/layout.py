"""Shuo Jian (說劍): integer encodings shared by the kernel, strategies and narratives.

Rule ids SJ-n and open points OP-n refer to shared/rules/shuo_jian.md.

Cards are grouped into *card types*: copies with the same kind, action, value and condition are
interchangeable, so hands, the table and the discards are counts per type. Types 0..4 are the
finishing-blow cards; types 5.. are number cards in the order of the condition table (rules.py
builds the type table ``types[t, TY_*]``).
"""
N_SEATS = 2
N_STRATEGY_PARAMS = 128   # a scripted seat: 64 (decision, action) pairs
HAND_SIZE = 7             # SJ-2
MIN_OPENING_NUMBERS = 2   # SJ-2: an opening hand needs at least 2 number cards (0s count, OP-16)
MAX_REDRAWS = 64          # SJ-2 redraws per seat (only a custom deck with few numbers gets near)

# Card types 0..4: the finishing-blow cards (SJ-8..SJ-12).
DODGE_LEFT, DODGE_RIGHT, SLASH, THRUST, COUNTER = 0, 1, 2, 3, 4
FIRST_NUMBER = 5          # number card types follow, one per distinct (action, value, condition)
SPECIAL_LABELS = ("DL", "DR", "SL", "TH", "CK")
SPECIAL_NAMES = ("Dodge left", "Dodge right", "Slash", "Thrust", "Counter-kill")
MAX_TYPES = 64
MAX_CARDS = 160
MAX_CONDITIONS = 15       # condition bitmasks fit an int16 record column
MAX_PLAYS = (MAX_TYPES - FIRST_NUMBER) * (MAX_TYPES - FIRST_NUMBER + 1)

# Actions of number cards (SJ-4): straight cut (直斬, "V") and sweep (橫掃, "H"); 0 is either.
STRAIGHT, SWEEP, ZERO = 0, 1, 2
ACTION_LETTERS = ("V", "H", "")
NO_CONDITION = -1         # a 0 (and a finishing-blow card) carries no condition (OP-3)

# Type table types[t, field] (static, public; also copied into pub at P_TYPES).
TY_ACTION = 0             # STRAIGHT / SWEEP / ZERO, -1 for a finishing-blow card
TY_VALUE = 1              # 0..9, -1 for a finishing-blow card
TY_COND = 2               # condition id, NO_CONDITION for 0s and finishing-blow cards
TY_COPIES = 3             # copies of this type in the deck
TYPE_FIELDS = 4
# Condition table: allowed numbers of condition c as two 50-bit masks (numbers 0..49, 50..99).
CONDITION_WORDS = 2
ALL_NUMBERS = (1 << 50) - 1

# Decisions: the `decision` argument of a strategy; the meaning of an action index per decision.
D_ATTACK = 0    # SJ-4 / OP-4: action = index into plays[:n] (the legal leads)
D_REPLY = 1     # SJ-5 / SJ-6: index into plays[:n]; index n = pass (only when OP-13 allows)
D_FOLLOW = 2    # SJ-8 / SJ-12 after the opponent passed: NO_FOLLOW, FOLLOW_SLASH, FOLLOW_THRUST
D_ANSWER = 3    # SJ-8 / SJ-11: answer the blow pub[P_BLOW]: ANSWER_LEFT, ANSWER_RIGHT, ANSWER_COUNTER
D_GUESS = 4     # SJ-11: the number 0..9 named for a Counter-kill
N_DECISIONS = 5
DECISION_NAMES = ("attack", "reply", "follow", "answer", "guess")
NO_FOLLOW, FOLLOW_SLASH, FOLLOW_THRUST = 0, 1, 2
ANSWER_LEFT, ANSWER_RIGHT, ANSWER_COUNTER = 0, 1, 2
N_ACTIONS = MAX_PLAYS + 1

# A listed play plays[i, PL_*] (D_ATTACK / D_REPLY).
PL_TENS = 0     # type of the tens card (the only card of a one-card play)
PL_UNITS = 1    # type of the units card, -1 for a one-card play
PL_NUMBER = 2   # the number formed, 1..99
PL_ACTION = 3   # STRAIGHT / SWEEP (a 0 takes its partner's action)
PL_CONDS = 4    # bitmask of the conditions this play imposes on the reply (OP-3)
PLAY_FIELDS = 5

# Public state pub[...]: what both seats see.
P_TURN = 0             # plays and passes so far
P_DECK = 1             # cards left in the deck
P_ATTACKER = 2         # seat attacking in this exchange
P_FIRST = 3            # seat that attacked first (SJ-3)
P_TABLE_CARDS = 4      # number cards on the table
P_LAST_NUMBER = 5      # the play to answer: its number, -1 when nothing is to be answered
P_LAST_ACTION = 6      # ... its action
P_LAST_CONDS = 7       # ... bitmask of the conditions it imposes (OP-3)
P_LAST_SEAT = 8        # ... who played it
P_BLOW = 9             # D_ANSWER: the blow answered: SLASH, THRUST or COUNTER (a right Counter-kill)
P_FACING = 10          # 1 = the swordsmen face each other (OP-5)
P_N_PLAYS = 11         # plays listed in `plays` for the current decision (0 for other decisions)
P_EXCHANGE = 12        # exchanges started so far
P_VOLUNTARY = 13       # 1 = OP-13 voluntary pass allowed
P_SEATS = 16
SEAT_STRIDE = 8
S_HAND = 0             # cards in hand (public count)
S_POS = 1              # swordsman's square in its owner's row: 0 = owner's left, 1 = owner's right
S_WRONG = 2            # bitmask of numbers 0..9 named wrongly for this seat's swordsman (SJ-11)
S_KNOWN = 3            # this swordsman's number once a Counter-kill named it rightly, else -1
S_PLAYS = 4            # plays of number cards so far
S_PASSES = 5
P_TABLE = P_SEATS + 2 * SEAT_STRIDE          # + type: number cards on the table (this exchange)
P_DISCARD = P_TABLE + MAX_TYPES              # + type: cards out of play (SJ-13)
P_SEEN = P_DISCARD + MAX_TYPES               # + seat * MAX_TYPES + type: cards publicly known to be
                                             # in a seat's hand (taken from the table, OP-16)
P_DYNAMIC = P_SEEN + 2 * MAX_TYPES           # everything before is reset every game
P_N_TYPES = P_DYNAMIC                        # static part, written once per chunk
P_N_CONDITIONS = P_DYNAMIC + 1
P_TYPES = P_DYNAMIC + 2                      # + t * TYPE_FIELDS + TY_*
P_CONDITIONS = P_TYPES + MAX_TYPES * TYPE_FIELDS   # + c * 2 + word
PUB_SIZE = P_CONDITIONS + MAX_CONDITIONS * CONDITION_WORDS

# Private state hid[seat, ...]: a strategy gets its own row (`mine`).
H_SWORD = 0            # my swordsman's card type, -1 when I may not look at it (OP-15)
H_SWORD_VALUE = 1      # its number, -1 when hidden
H_NUMBERS = 2          # number cards in my hand
H_PRESENT = 3          # bitmask of the number types in my hand: bit t - FIRST_NUMBER
H_HAND = 4             # + type: my hand, as counts per type
H_MEMORY = H_HAND + MAX_TYPES
MEMORY_SIZE = 8        # mine[H_MEMORY:] is the strategy's own scratch, zeroed every game
HID_SIZE = H_MEMORY + MEMORY_SIZE

# Kernel-only state ks[...].
K_ROW = 0
K_END = 1              # end reason, -1 while playing
K_WINNERS = 2
K_TOP = 3              # index in deck[] of the next card to draw
K_N_CARDS = 4          # cards in deck[] at the start (the swordsmen taken out)
K_SWORD = 5            # + seat: the swordsmen's card types
K_DRAWS = 7            # + seat: cards drawn, deal included
K_TAKEN = 9            # + seat: cards taken from the table
K_PASSES_ASKED = 11
K_FOLLOW_UPS = 12      # slashes + thrusts
K_SLASHES = 13
K_THRUSTS = 14
K_COUNTERS = 15
K_COUNTERS_RIGHT = 16
K_DODGES = 17
K_REPLIES = 18
K_PASSES = 19
K_MASKS = 20           # + seat * N_MASKS + mask: the card bitmasks of the record (below)
N_MASKS = 12
K_FACED = K_MASKS + 2 * N_MASKS   # + condition: replies asked against a play bound by it
K_PASSED = K_FACED + MAX_CONDITIONS
K_PLAYED = K_PASSED + MAX_CONDITIONS
KS_SIZE = K_PLAYED + MAX_CONDITIONS

# Rule parameters rules[...] (from ShuoJianRules.kernel_args()).
R_N_TYPES = 0
R_N_CARDS = 1          # cards in the deck, swordsmen included
R_N_CONDITIONS = 2
R_FIRST = 3            # SJ-3: -1 random, else the seat that attacks first
R_FIXED_DECK = 4       # 1 = deal deck_init in order (scripted games)
R_FIXED_SWORDS = 5     # 1 = the swordsmen are swords[0], swords[1] (scripted games)
R_TENS_ONLY = 6        # OP-3: 1 = only the tens card's condition binds
R_HIGH_FIRST = 7       # OP-4: 1 = two non-zero cards only high digit first
R_START = 8            # OP-5: START_RIGHT, START_LEFT, START_FACING
R_LITERAL_EXTRA = 9    # OP-10: 1 = SJ-10's draw comes on top of the SJ-3 draw
R_DRAWS = 10           # OP-11: DRAW_EVERY_PLAY, DRAW_FIRST_PLAY, DRAW_EXCHANGE_START
R_END_AT_LAST = 11     # OP-12: 1 = the game ends as soon as the last card is drawn
R_VOLUNTARY = 12       # OP-13: 1 = a player may pass with a legal reply
R_ONE_REPLY = 13       # OP-14: 1 = one reply only, then the replier attacks
R_SEE_OWN = 14         # OP-15: 1 = a player may look at their own swordsman
R_TIE_NOBODY = 15      # OP-8: 1 = equal hands at SJ-14: nobody wins; 0 = a draw
R_MAX_TURNS = 16       # OP-9 safety cap (never reached by the rules)
R_KEEP_WRONG_COUNTER = 17  # OP-7: 1 = a wrong Counter-kill card goes back to hand
R_DRAW_FOR_LEAD = 18   # OP-16: 1 = an attacker with no legal lead draws until it has one
R_ZEROS_OPEN = 19      # OP-16: 1 = 0s count as number cards for SJ-2
N_RULES = 20
START_RIGHT, START_LEFT, START_FACING = 0, 1, 2
DRAW_EVERY_PLAY, DRAW_FIRST_PLAY, DRAW_EXCHANGE_START = 0, 1, 2

# Why a card is drawn (EV_DRAW / EV_DRAWN column b / a).
WHY_DEAL, WHY_PLAY, WHY_EXTRA, WHY_EXCHANGE = 0, 1, 2, 3

# End reasons (record column end_reason).
END_SLASH = 0          # SJ-8: a Slash not dodged
END_THRUST = 1         # SJ-12: a Thrust not dodged
END_COUNTER = 2        # SJ-11: a right Counter-kill not dodged
END_VOID_DODGE = 3     # SJ-9: a dodge with no square to move to
END_DECK_OUT = 4       # SJ-14: fewer cards in hand wins
END_DRAW = 5           # SJ-14 / OP-8: equal hands
END_CAP = 6            # safety cap (never expected)
END_BROKEN = 7         # card conservation failed (a kernel bug; never expected)
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
C_FIRST = 3
C_FACED = C_FIRST + 12
C_PASSED = C_FACED + MAX_CONDITIONS
C_PLAYED = C_PASSED + MAX_CONDITIONS
C_SEAT0 = C_PLAYED + MAX_CONDITIONS
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
X_ZERO = 0             # bit of a 0 in the x masks; finishing-blow type t is bit t + 1
M_OPENING, M_HELD, M_PLAYED = 0, 1, 2     # mask index = group * 3 + this
G_V, G_H, G_X, G_C = 0, 1, 2, 3

# Event log rows: (event, turn, seat, a, b, c, d, e); seat -1 = nobody in particular.
LOG_WIDTH = 8
EV_CONDITION = 1       # condition a allows the numbers in masks b (0..49) and c (50..99)
EV_TYPE = 2            # card type a: action b, value c, condition d, copies e
EV_SWORDSMAN = 3       # seat's swordsman (seen by its owner only): type a, number b
EV_SWORDSMAN_HIDDEN = 4  # seat's swordsman when its owner may not look (OP-15): type a, number b
EV_PLACE = 5           # seat puts its swordsman face down on square a of its row (SJ-1, OP-5)
EV_DRAW = 6            # seat draws card type a (b = why: WHY_*); only the drawer sees it
EV_DRAWN = 7           # seat draws a card: a = why, b = cards left in the deck, c = hand size
EV_REDRAW = 8          # seat's opening hand had fewer than 2 number cards: shuffled back (SJ-2);
                       # a = its number cards as SJ-2 counts them (OP-16 opening_zeros), b = 0s
                       # in it that were not counted (opening_zeros off)
EV_FIRST = 9           # seat attacks first (SJ-3)
EV_ATTACK = 10         # seat leads: tens type a, units type b (-1 none), number c, conditions d
EV_REPLY = 11          # seat replies: tens a, units b, number c; answering number d whose
                       # conditions e (bitmask) the reply satisfies (SJ-5, SJ-6)
EV_PASS = 12           # seat passes: a = 1 forced (no legal reply) / 0 voluntary (OP-13);
                       # b = the number not answered, c = its conditions, d = cards taken (SJ-7)
EV_TAKE = 13           # seat takes card type a from the table into its hand (SJ-7)
EV_NO_LEAD = 14        # seat has no legal lead and passes the attack (OP-16)
EV_FOLLOW = 15         # seat follows up a pass: a = NO_FOLLOW / FOLLOW_SLASH / FOLLOW_THRUST
EV_DODGE = 16          # seat dodges: a = ANSWER_LEFT / ANSWER_RIGHT, b = new square, c = 1 void
EV_COUNTER = 17        # seat plays a Counter-kill naming a: b = 1 right, 0 wrong (SJ-11)
EV_HIT = 18            # seat cannot or does not answer blow a (SLASH / THRUST / COUNTER): loses
EV_CLEAR = 19          # OP-14 one reply: the table's a cards leave play
EV_END = 20            # a = end reason, b = winners bitmask, c, d = hand sizes, e = deck left
EV_REVEAL = 21         # end of game: seat's swordsman was type a, number b
PUBLIC, OWNER, NOBODY = 0, 1, 2
EVENT_VISIBILITY = (NOBODY, PUBLIC, PUBLIC, OWNER, NOBODY, PUBLIC, OWNER, PUBLIC, PUBLIC, PUBLIC,
                    PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC, PUBLIC,
                    PUBLIC, PUBLIC)
