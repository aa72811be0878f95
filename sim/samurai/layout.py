"""Samurai Sword: integer encodings shared by the kernel, strategies and narratives.

Rule ids SS-n and open points OP-n refer to shared/rules/samurai_sword.md. Seats go clockwise
in increasing order (seat s + 1 is on s's left). Card *types* are the 25 kinds of play card;
hands are counts per type.
"""
import numpy as np
from numba import njit

MAX_SEATS = 7
MIN_SEATS = 3
N_STRATEGY_PARAMS = 256   # a scripted seat: 128 (decision, action) pairs

# --- cards (data/cards.csv gives the counts and weapon stats; this fixes the order) ---------
CARD_NAMES = ("Bokken", "Bo", "Kiseru", "Kusarigama", "Shuriken", "Naginata", "Nagayari",
              "Kanabo", "Daikyu", "Tanegashima", "Wakizashi", "Katana", "Nodachi",
              "Parry", "Geisha", "Diversion", "Tea Ceremony", "Battle Cry", "Jujutsu",
              "Breathing", "Daimyo", "Focus", "Armor", "Fast Draw", "Bushido")
N_TYPES = 25
N_WEAPONS = 13                     # types 0..12 are weapons
PARRY, GEISHA, DIVERSION, TEA, BATTLE_CRY, JUJUTSU, BREATHING, DAIMYO = range(13, 21)
FOCUS, ARMOR, FAST_DRAW, BUSHIDO = range(21, 25)
FIRST_PROPERTY = FOCUS
WEAPON_MASK = (1 << N_WEAPONS) - 1
PROPERTY_MASK = ((1 << N_TYPES) - 1) & ~((1 << FIRST_PROPERTY) - 1)
# Card table columns (cards[t, column], from SamuraiRules.kernel_args()).
CT_COUNT, CT_DIFFICULTY, CT_DAMAGE = 0, 1, 2
N_CARD_COLUMNS = 3
DECK_MAX = 1024                    # the most cards a (user-edited) deck may hold
# OP-3: a turn that reshuffles more often than this is cut and the game reported as "capped".
# Only a turn that can never end gets there: a play phase is finite unless the deck is rebuilt
# again and again, and while a reshuffle costs honour (SS-6, reshuffle_honour >= 1) every
# other player loses 1 per reshuffle and gains none in that turn, so the game ends on honour
# after at most their honour (under 7 x 99 = 693) reshuffles. With reshuffle_honour=0 a
# heuristic Shogun who plays a Tea Ceremony, redraws it from the one-card deck and plays it
# again would otherwise loop for ever (the turn cap counts turns, and this turn never ends).
MAX_TURN_RESHUFFLES = 1000

# --- characters (data/characters.csv gives resilience; abilities are code) --------------------
CHARACTER_NAMES = ("Benkei", "Chiyome", "Ginchiyo", "Goemon", "Hanzo", "Hideyoshi", "Ieyasu",
                   "Kojiro", "Musashi", "Nobunaga", "Tomoe", "Ushiwaka", "Plain4", "Plain5")
(BENKEI, CHIYOME, GINCHIYO, GOEMON, HANZO, HIDEYOSHI, IEYASU, KOJIRO, MUSASHI, NOBUNAGA,
 TOMOE, USHIWAKA, PLAIN4, PLAIN5) = range(14)
N_CHARACTERS = 14
N_PRINTED_CHARACTERS = 12
RANDOM_CHARACTER = -1              # rules value: drawn at random (SS-3)

# --- roles and teams (SS-1, SS-19) --------------------------------------------------------------
ROLE_NAMES = ("shogun", "samurai", "ninja", "ronin")
SHOGUN, SAMURAI, NINJA, RONIN = 0, 1, 2, 3
N_ROLES = 4
TEAM_NAMES = ("shogun", "ninja", "ronin")   # the Shogun's team is Shogun + Samurai
TEAM_SHOGUN, TEAM_NINJA, TEAM_RONIN = 0, 1, 2
N_TEAMS = 3
ROLE_TEAM = (TEAM_SHOGUN, TEAM_SHOGUN, TEAM_NINJA, TEAM_RONIN)
HIDDEN = -1                        # pub role of a seat whose role is secret

# --- decisions: the `decision` argument of a strategy -----------------------------------------
D_PLAY = 0        # SS-7 play phase: action = card type to play, END, or NOBUNAGA (SS-3)
D_TARGET = 1      # target of the card pub[P_CTX_CARD]: action = seat
D_REACT = 2       # SS-10 / OP-4 attacked: action = PARRY, a weapon (Hanzo), or TAKE the wound
D_BATTLE_CRY = 3  # SS-13: action = PARRY, a weapon (Hanzo), or TAKE (lose 1 resilience)
D_JUJUTSU = 4     # SS-13: action = a weapon to discard, or TAKE (lose 1 resilience)
D_BREATHING = 5   # SS-14: action = the seat that draws 1
D_GEISHA = 6      # SS-16: action = the property type to discard from pub[P_CTX_TARGET], or FROM_HAND
D_BUSHIDO = 7     # SS-18 weapon flipped: action = a weapon to discard (pass Bushido), or TAKE (discard
                  # Bushido and lose pub[P_CTX_AMOUNT] honour: 1, or 0 for the 3-player Shogun
                  # with the option shogun_bushido="choose", SS-21)
D_IEYASU = 8      # SS-3 first draw: action 0 = from the deck, 1 = the top of the discard pile
D_DISCARD = 9     # SS-8 discard down to 7: action = card type to discard
N_DECISIONS = 10
# Random streams (sim.rng): chance first, then one per (seat, decision type), so that one more
# decision never shifts a deal, nor a seat's choices of another type.
DECK_STREAM, ROLE_STREAM, CHARACTER_STREAM, TAKE_STREAM = 0, 1, 2, 3
N_CHANCE = 4
DECISION_NAMES = ("play", "target", "react", "battle_cry", "jujutsu", "breathing", "geisha",
                  "bushido", "ieyasu", "discard")
END = 25          # D_PLAY: end the play phase
TAKE = 26         # take the wound / lose the resilience / lose the honour
NOBUNAGA_TRADE = 27   # D_PLAY: Nobunaga loses 1 resilience to draw 1
FROM_HAND = 28    # D_GEISHA: a random card from the target's hand
N_ACTIONS = 29

# --- public state pub[...] ----------------------------------------------------------------------
P_N = 0                # number of players
P_TURN = 1             # turns begun so far (1 = the Shogun's first turn)
P_CURRENT = 2          # seat whose turn it is
P_SHOGUN = 3           # the Shogun's seat (SS-1: revealed)
P_DECK = 4             # cards in the deck
P_DISCARD_N = 5        # cards in the discard pile
P_DISCARD_TOP = 6      # type of the top discard, -1 if empty (Ieyasu)
P_RESHUFFLES = 7
P_BUSHIDO = 8          # seat holding Bushido, -1 none (SS-18)
P_WEAPONS_PLAYED = 9   # weapons the current player played this turn
P_WEAPON_LIMIT = 10    # the current player's weapon limit (SS-7, SS-21)
P_LEGAL = 11           # the legal actions of the current decision as a bitmask
P_DECISION = 12        # the decision being asked
P_CTX_SEAT = 13        # the player whose card or attack the decision answers (-1 none)
P_CTX_TARGET = 14      # its target (-1 none)
P_CTX_CARD = 15        # the card type (-1 none)
P_CTX_AMOUNT = 16      # D_REACT: the damage if taken; D_DISCARD: cards still to discard
P_DISCARDS = 17        # + type: copies of each type in the discard pile
P_HARM = P_DISCARDS + N_TYPES          # + a * MAX_SEATS + b: resilience a made b lose
P_ATTACKS = P_HARM + MAX_SEATS * MAX_SEATS   # + a * MAX_SEATS + b: attacks (weapons, BC, Jujutsu) a aimed at b
P_WEAPON_DIFFICULTY = P_ATTACKS + MAX_SEATS * MAX_SEATS   # + weapon type (public design data)
P_WEAPON_DAMAGE = P_WEAPON_DIFFICULTY + N_WEAPONS            # + weapon type
P_SEATS = P_WEAPON_DAMAGE + N_WEAPONS
S_CHARACTER = 0
S_RESILIENCE = 1
S_MAX_RESILIENCE = 2
S_HONOUR = 3
S_HAND = 4             # cards in hand (the count is public, the cards are not)
S_FOCUS = 5            # properties in play in front of the seat
S_ARMOR = 6
S_FAST_DRAW = 7
S_ROLE = 8             # the role if public (the Shogun), else HIDDEN
S_DAIMYO_PLAYED = 9
S_PLAYED = 10          # + type: cards of each type this seat played
SEAT_STRIDE = S_PLAYED + N_TYPES
PUB_SIZE = P_SEATS + MAX_SEATS * SEAT_STRIDE


@njit(cache=True, inline="always")
def seat_at(seat, field):
    return P_SEATS + seat * SEAT_STRIDE + field


# --- a seat's private row hid[seat, ...] (its strategy gets its own row as `mine`) ------------
H_ROLE = 0
H_STARS = 1            # Ninja stars 1..3, 0 otherwise
H_TEAM = 2
H_HAND = 3             # + type: copies in hand
H_MEMORY = H_HAND + N_TYPES   # the strategy's own scratch memory (zeroed every game)
MEMORY_SIZE = 96
HID_SIZE = H_MEMORY + MEMORY_SIZE

# --- kernel-only state ks[...] -----------------------------------------------------------------
K_ROW = 0
K_END = 1              # end reason, -1 while playing
K_WINNERS = 2
K_WIN_TEAM = 3         # winning team, -1 none
K_SWORDMASTER = 4      # seat whose team won by Swordmaster, -1 none
K_DEADLY_TEAM = 5      # team that lost 3 points to a Deadly strike, -1 none
K_LAST_VICTIM = 6      # the last defeat (for Deadly strike)
K_LAST_DEFEATER = 7
K_REMOVED_NINJA = 8    # stars of the Ninja card removed unseen (0 none)
K_TEAM_SCORE = 9       # + team
K_STATS = K_TEAM_SCORE + N_TEAMS   # + seat * N_STATS
ST_DEALT, ST_TAKEN, ST_DEFEATS, ST_DEFEATED, ST_ATTACKS, ST_PARRIES, ST_TURNS = range(7)
ST_HELD_W, ST_HELD_A, ST_OPEN_W, ST_OPEN_A, ST_PLAYED_W, ST_PLAYED_A, ST_SCORE = range(7, 14)
N_STATS = 14
K_KNOWN = K_STATS + MAX_SEATS * N_STATS     # + seat * N_TYPES: cards publicly known in a hand
K_PRIVATE = K_KNOWN + MAX_SEATS * N_TYPES   # + (p * MAX_SEATS + q) * N_TYPES: cards p alone
                                            # knows q holds (the card q took from p by Diversion)
K_DECK = K_PRIVATE + MAX_SEATS * MAX_SEATS * N_TYPES   # deck stack (top = last), DECK_MAX
K_DISCARD = K_DECK + DECK_MAX               # discard stack (top = last), DECK_MAX
K_SCRATCH = K_DISCARD + DECK_MAX            # work space (role deal, redeal pool), DECK_MAX
KS_SIZE = K_SCRATCH + DECK_MAX

# --- rules array rules[...] (SamuraiRules.kernel_args) ------------------------------------------
R_PLAYERS = 0
R_TURN_CAP = 1         # OP-3
R_SWORD_HONOUR = 2     # OP-1: 1 = the seed's wording (only one player still has honour)
R_GEISHA_SELF = 3      # OP-5: 1 = Geisha may take one's own property
R_DEADLY_ANY = 4       # OP-6: 1 = any defeat that ends the game costs the defeated's team 3
R_OP7_HONOUR = 5       # OP-7: 1 = honour scoring decides a defeat that also makes a Swordmaster
R_USHI_DAMAGE = 6      # OP-9: 1 = Ushiwaka draws per point of damage, excess included
R_AUTO_PARRY = 7       # OP-4: 1 = reactions are not a choice: a Parry (else Hanzo's weapon) is always played
R_ANSWER_CCW = 8       # OP-8: 1 = Battle Cry / Jujutsu answered counter-clockwise
R_RESHUFFLE_PHASE = 9  # OP-10: 1 = only the draw phase reshuffles; other effects draw nothing
R_SUBTRACT_FIRST = 10  # OP-11: 1 = Ginchiyo subtracts before Fast Draw and Musashi add
R_FIXED_DECK = 11      # 1 = the deck is stacked in the given order (scripted games)
R_FIXED_ROLES = 12     # 1 = roles given per seat (scripted games)
R_RESHUFFLE_HONOUR = 13   # SS-6: honour each player loses at a reshuffle
R_HAND_LIMIT = 14      # SS-8
R_DECK_SIZE = 15
R_POOL = 16            # bitmask of characters drawn at random (SS-3; exclusions removed)
R_HONOUR = 17          # + role: starting honour (SS-2)
R_MULT = R_HONOUR + N_ROLES         # + role: multiplier (SS-19)
R_TOP_STARS_MULT = R_MULT + N_ROLES  # 4 players: the Ninja with most stars (0 = not used)
R_CHARACTER = R_TOP_STARS_MULT + 1   # + seat: fixed character or RANDOM_CHARACTER
R_OPENING = R_CHARACTER + MAX_SEATS  # + i: opening hand of the i-th seat from the Shogun (SS-4)
R_ROLE = R_OPENING + MAX_SEATS       # + seat: fixed role (R_FIXED_ROLES)
R_STARS = R_ROLE + MAX_SEATS         # + seat: fixed Ninja stars
R_N_ROLES = R_STARS + MAX_SEATS      # role cards in play by role (SS-1), + role
R_REMOVED = R_N_ROLES + N_ROLES      # fixed roles: stars of the removed Ninja
R_CHECK_EVERY_TURN = R_REMOVED + 1   # 1 = check the invariants after every turn (tests)
R_SHOGUN_BUSHIDO_CHOICE = R_CHECK_EVERY_TURN + 1   # SS-21 (seed's reading): 1 = the 3-player
                                     # Shogun who flips a weapon still chooses (D_BUSHIDO): pass
                                     # Bushido on with a weapon, or discard it at no honour
N_RULES = R_SHOGUN_BUSHIDO_CHOICE + 1

# --- end reasons ------------------------------------------------------------------------------
END_HONOUR = 0         # SS-19: a player reached 0 honour
END_SWORDMASTER = 1    # SS-20: every player but one at 0 resilience; that player's team wins
END_CAPPED = 2         # OP-3: turn cap reached (never a win)
END_BROKEN = 3         # an invariant failed (a kernel bug; tests demand it never happens)
END_TEAMMATE_DEFEAT = 4   # SS-20's exception: every player but one at 0 resilience, but the
                          # defeat that did it was by a teammate: no Swordmaster; scored by SS-19,
                          # Deadly strike included (code 4, appended: the older codes keep theirs)
END_REASONS = ("honour", "swordmaster", "capped", "invariant_broken", "teammate_defeat")

# --- record columns ---------------------------------------------------------------------------
GAME_COLUMNS = ("shogun_seat", "winning_team", "score_shogun_team", "score_ninja", "score_ronin",
                "reshuffles", "deadly_strike_team", "swordmaster_seat", "removed_ninja")
SEAT_COLUMNS = ("role", "stars", "team", "character", "honour", "resilience", "score", "daimyo",
                "dealt", "taken", "defeats", "defeated", "attacks", "parries", "turns",
                "held_w", "held_a", "opening_w", "opening_a", "played_w", "played_a")
C_GAME0 = 3
C_SEAT0 = C_GAME0 + len(GAME_COLUMNS)
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
# Card masks in the record: *_w bit t = weapon type t; *_a bit t - 13 = action/property type t.
WEAPON_BITS = {t: CARD_NAMES[t] for t in range(N_WEAPONS)}
ACTION_BITS = {t - N_WEAPONS: CARD_NAMES[t] for t in range(N_WEAPONS, N_TYPES)}

# --- event log rows: (event, turn, seat, a, b, c, d) --------------------------------------------
LOG_WIDTH = 7
EV_ROLE = 1        # OWNER seat: a = role, b = stars
EV_SHOGUN = 2      # seat is the Shogun (public)
EV_CHARACTER = 3   # seat: a = character, b = resilience, c = honour
EV_TURN = 4        # seat's turn begins
EV_RECOVER = 5     # seat recovers to a resilience (SS-5)
EV_DRAWS = 6       # seat draws: a = how many, b = source (0 deck, 1 discard top, c = that card)
EV_CARD = 7        # OWNER seat receives card a (from the deck, or stolen: b = 1)
EV_PLAY = 8        # seat plays card a at target b (-1 none)
EV_REACT = 9       # seat answers c's card b with a (a card type, or TAKE)
EV_WOUND = 10      # seat loses a resilience to b (c = resilience left, d = 1 by a weapon)
EV_DEFEAT = 11     # seat is defeated by a
EV_HONOUR = 12     # seat's honour changes by a to b; c = why (HONOUR_*)
EV_RESHUFFLE = 13  # the discard pile (a cards) becomes the deck
EV_DISCARD = 14    # seat discards card a; b = why (WHY_*)
EV_STEAL = 15      # seat takes a random card from a (Diversion; the card is private)
EV_LOST = 16       # OWNER seat loses card a to b's Diversion
EV_BUSHIDO = 17    # Bushido: a = flipped card, b = new holder (-1 discarded)
EV_NOBUNAGA = 18   # seat trades 1 resilience for a card
EV_PROPERTY_LOST = 19  # seat's property a is discarded (Geisha by b)
EV_END = 20        # a = end reason, b = winners mask, c = winning team, d = deadly strike team
EV_SCORE = 21      # seat: a = role, b = stars, c = score, d = daimyo in hand
EV_TEAM = 22       # a = team, b = team score
N_EVENTS = 23
PUBLIC, OWNER, NOBODY = 0, 1, 2
EVENT_VISIBILITY = tuple(OWNER if e in (EV_ROLE, EV_CARD, EV_LOST) else PUBLIC
                         for e in range(N_EVENTS))
HONOUR_DEFEAT, HONOUR_RESHUFFLE, HONOUR_BUSHIDO = 0, 1, 2
WHY_PLAYED, WHY_HAND_LIMIT, WHY_GEISHA, WHY_ANSWER, WHY_FLIP, WHY_BUSHIDO = 0, 1, 2, 3, 4, 5

STATE_DTYPE = np.int64
