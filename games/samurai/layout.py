"""Samurai Sword: integer encodings shared by the kernel, strategies and narratives.

Rule ids SS-n and open points OP-n refer to shared/rules/samurai_sword.md. Seats go clockwise
in increasing order (seat s + 1 is on s's left). Card *types* are the 25 kinds of play card;
hands are counts per type.

Constants are grouped by what they index (vectorbt's enums): ``CARD.PARRY`` is a card type,
``P.TURN`` a field of the public state, ``S.HONOUR`` of a seat's public block, ``H.HAND`` of a
seat's private row, ``D.REACT`` a decision, ``ACT.TAKE`` an action, ``EV.PLAY`` an event code,
``END.HONOUR`` an end reason. Each group is a NamedTuple instance, a compile-time constant
inside jitted code.
"""
from typing import NamedTuple

from numba import njit

from sim.game import NOBODY, OWNER, PUBLIC

MAX_SEATS = 7
MIN_SEATS = 3
N_STRATEGY_PARAMS = 256   # a scripted seat: 127 (decision, action) pairs (sim.strategy.script)

# --- cards (data/cards.csv gives the counts and weapon stats; this fixes the order) ---------
CARD_NAMES = ("Bokken", "Bo", "Kiseru", "Kusarigama", "Shuriken", "Naginata", "Nagayari",
              "Kanabo", "Daikyu", "Tanegashima", "Wakizashi", "Katana", "Nodachi",
              "Parry", "Geisha", "Diversion", "Tea Ceremony", "Battle Cry", "Jujutsu",
              "Breathing", "Daimyo", "Focus", "Armor", "Fast Draw", "Bushido")


class Card(NamedTuple):
    """Card types (CARD_NAMES order): 13 weapons, then the action cards, then the properties
    that are played in front of a player (Focus, Armor, Fast Draw; Bushido in front of anyone)."""
    BOKKEN: int
    BO: int
    KISERU: int
    KUSARIGAMA: int
    SHURIKEN: int
    NAGINATA: int
    NAGAYARI: int
    KANABO: int
    DAIKYU: int
    TANEGASHIMA: int
    WAKIZASHI: int
    KATANA: int
    NODACHI: int
    PARRY: int
    GEISHA: int
    DIVERSION: int
    TEA: int             # Tea Ceremony
    BATTLE_CRY: int
    JUJUTSU: int
    BREATHING: int
    DAIMYO: int
    FOCUS: int
    ARMOR: int
    FAST_DRAW: int
    BUSHIDO: int


CARD = Card(*range(len(Card._fields)))
N_TYPES = len(CARD)
N_WEAPONS = 13                     # types 0..12 are weapons
FIRST_PROPERTY = CARD.FOCUS
WEAPON_MASK = (1 << N_WEAPONS) - 1
PROPERTY_MASK = ((1 << N_TYPES) - 1) & ~((1 << FIRST_PROPERTY) - 1)


class CardColumn(NamedTuple):
    """Card table columns ``cards[t, CT.*]`` (from SamuraiRules.kernel_args())."""
    COUNT: int
    DIFFICULTY: int
    DAMAGE: int


CT = CardColumn(0, 1, 2)
N_CARD_COLUMNS = len(CT)
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


class Character(NamedTuple):
    """Characters (CHARACTER_NAMES order); Plain4 and Plain5 are ability-less yardsticks."""
    BENKEI: int
    CHIYOME: int
    GINCHIYO: int
    GOEMON: int
    HANZO: int
    HIDEYOSHI: int
    IEYASU: int
    KOJIRO: int
    MUSASHI: int
    NOBUNAGA: int
    TOMOE: int
    USHIWAKA: int
    PLAIN4: int
    PLAIN5: int


CH = Character(*range(len(Character._fields)))
N_CHARACTERS = len(CH)
N_PRINTED_CHARACTERS = 12
RANDOM_CHARACTER = -1              # rules value: drawn at random (SS-3)

# --- roles and teams (SS-1, SS-19) --------------------------------------------------------------
ROLE_NAMES = ("shogun", "samurai", "ninja", "ronin")


class Role(NamedTuple):
    SHOGUN: int
    SAMURAI: int
    NINJA: int
    RONIN: int


ROLE = Role(0, 1, 2, 3)
N_ROLES = len(ROLE)
TEAM_NAMES = ("shogun", "ninja", "ronin")   # the Shogun's team is Shogun + Samurai


class Team(NamedTuple):
    SHOGUN: int          # the Shogun and the Samurai
    NINJA: int
    RONIN: int


TEAM = Team(0, 1, 2)
N_TEAMS = len(TEAM)
ROLE_TEAM = (TEAM.SHOGUN, TEAM.SHOGUN, TEAM.NINJA, TEAM.RONIN)
HIDDEN = -1                        # pub role of a seat whose role is secret


# --- decisions: the `decision` argument of a strategy -----------------------------------------
class Decision(NamedTuple):
    """The ``decision`` argument of a strategy; the meaning of an action per decision."""
    PLAY: int        # SS-7 play phase: action = card type to play, ACT.END, or ACT.NOBUNAGA_TRADE (SS-3)
    TARGET: int      # target of the card pub[P.CTX_CARD]: action = seat
    REACT: int       # SS-10 / OP-4 attacked: action = PARRY, a weapon (Hanzo), or ACT.TAKE the wound
    BATTLE_CRY: int  # SS-13: action = PARRY, a weapon (Hanzo), or ACT.TAKE (lose 1 resilience)
    JUJUTSU: int     # SS-13: action = a weapon to discard, or ACT.TAKE (lose 1 resilience)
    BREATHING: int   # SS-14: action = the seat that draws 1
    GEISHA: int      # SS-16: action = the property type to discard from pub[P.CTX_TARGET], or ACT.FROM_HAND
    BUSHIDO: int     # SS-18 weapon flipped: action = a weapon to discard (pass Bushido), or ACT.TAKE
                     # (discard Bushido and lose pub[P.CTX_AMOUNT] honour: 1, or 0 for the
                     # 3-player Shogun with the option shogun_bushido="choose", SS-21)
    IEYASU: int      # SS-3 first draw: action 0 = from the deck, 1 = the top of the discard pile
    DISCARD: int     # SS-8 discard down to 7: action = card type to discard


D = Decision(*range(len(Decision._fields)))
N_DECISIONS = len(D)
DECISION_NAMES = ("play", "target", "react", "battle_cry", "jujutsu", "breathing", "geisha",
                  "bushido", "ieyasu", "discard")


class Stream(NamedTuple):
    """Random streams (sim.rng): chance first, then one per (seat, decision type), so that one
    more decision never shifts a deal, nor a seat's choices of another type."""
    DECK: int            # the first shuffle and every reshuffle
    ROLE: int            # the role deal (SS-1)
    CHARACTER: int       # the character deal (SS-3)
    TAKE: int            # random cards taken from a hand (Geisha, Diversion)


STREAM = Stream(0, 1, 2, 3)
N_CHANCE = len(STREAM)


class Action(NamedTuple):
    """Actions besides card types (0..24) and seats."""
    END: int             # D.PLAY: end the play phase
    TAKE: int            # take the wound / lose the resilience / lose the honour
    NOBUNAGA_TRADE: int  # D.PLAY: Nobunaga loses 1 resilience to draw 1
    FROM_HAND: int       # D.GEISHA: a random card from the target's hand


ACT = Action(25, 26, 27, 28)
N_ACTIONS = 29


# --- public state pub[...] ----------------------------------------------------------------------
class PublicField(NamedTuple):
    """The public state ``pub[P.*]``; per-seat blocks are reached with seat_at(seat, S.*)."""
    N: int               # number of players
    TURN: int            # turns begun so far (1 = the Shogun's first turn)
    CURRENT: int         # seat whose turn it is
    SHOGUN: int          # the Shogun's seat (SS-1: revealed)
    DECK: int            # cards in the deck
    DISCARD_N: int       # cards in the discard pile
    DISCARD_TOP: int     # type of the top discard, -1 if empty (Ieyasu)
    RESHUFFLES: int
    BUSHIDO: int         # seat holding Bushido, -1 none (SS-18)
    WEAPONS_PLAYED: int  # weapons the current player played this turn
    WEAPON_LIMIT: int    # the current player's weapon limit (SS-7, SS-21)
    LEGAL: int           # the legal actions of the current decision as a bitmask
    DECISION: int        # the decision being asked
    CTX_SEAT: int        # the player whose card or attack the decision answers (-1 none)
    CTX_TARGET: int      # its target (-1 none)
    CTX_CARD: int        # the card type (-1 none)
    CTX_AMOUNT: int      # D.REACT: the damage if taken; D.DISCARD: cards still to discard;
                         # D.BUSHIDO: the honour ACT.TAKE costs
    DISCARDS: int        # + type: copies of each type in the discard pile
    HARM: int            # + a * MAX_SEATS + b: resilience a made b lose
    ATTACKS: int         # + a * MAX_SEATS + b: attacks (weapons, Battle Cry, Jujutsu) a aimed at b
    WEAPON_DIFFICULTY: int   # + weapon type (public design data)
    WEAPON_DAMAGE: int   # + weapon type
    SEATS: int           # start of the per-seat blocks (seat_at)


_DISCARDS = 17
_HARM = _DISCARDS + N_TYPES
_ATTACKS = _HARM + MAX_SEATS * MAX_SEATS
_DIFFICULTY = _ATTACKS + MAX_SEATS * MAX_SEATS
P = PublicField(*range(_DISCARDS), _DISCARDS, _HARM, _ATTACKS, _DIFFICULTY,
                _DIFFICULTY + N_WEAPONS, _DIFFICULTY + 2 * N_WEAPONS)


class SeatField(NamedTuple):
    """A seat's public block ``pub[seat_at(seat, S.*)]``."""
    CHARACTER: int
    RESILIENCE: int
    MAX_RESILIENCE: int
    HONOUR: int
    HAND: int            # cards in hand (the count is public, the cards are not)
    FOCUS: int           # properties in play in front of the seat (Focus, Armor, Fast Draw:
    ARMOR: int           # S.FOCUS + t - CARD.FOCUS for property type t)
    FAST_DRAW: int
    ROLE: int            # the role if public (the Shogun), else HIDDEN
    DAIMYO_PLAYED: int
    PLAYED: int          # + type: cards of each type this seat played


S = SeatField(*range(len(SeatField._fields)))
SEAT_STRIDE = S.PLAYED + N_TYPES
PUB_SIZE = P.SEATS + MAX_SEATS * SEAT_STRIDE


@njit(cache=True, inline="always")
def seat_at(seat, field):
    """Index into pub of a per-seat field."""
    return P.SEATS + seat * SEAT_STRIDE + field


# --- a seat's private row hid[seat, H.*] (its strategy gets its own row as obs.mine) ----------
class HiddenField(NamedTuple):
    ROLE: int
    STARS: int           # Ninja stars 1..3, 0 otherwise
    TEAM: int
    HAND: int            # + type: copies in hand
    MEMORY: int          # the strategy's own scratch memory (zeroed every game)


H = HiddenField(0, 1, 2, 3, 3 + N_TYPES)
MEMORY_SIZE = 96
HID_SIZE = H.MEMORY + MEMORY_SIZE


# --- kernel-only state ks[K.*] -----------------------------------------------------------------
class Stat(NamedTuple):
    """Per-seat statistics for the record, ``ks[K.STATS + seat * N_STATS + ST.*]``."""
    DEALT: int
    TAKEN: int
    DEFEATS: int
    DEFEATED: int
    ATTACKS: int
    PARRIES: int
    TURNS: int
    HELD_W: int          # bitmasks of card types: weapons (bit t) ...
    HELD_A: int          # ... and the others (bit t - N_WEAPONS)
    OPEN_W: int
    OPEN_A: int
    PLAYED_W: int
    PLAYED_A: int
    SCORE: int


ST = Stat(*range(len(Stat._fields)))
N_STATS = len(ST)


class KernelField(NamedTuple):
    """Kernel-only state ``ks[K.*]``: hidden from everyone (deck order, bookkeeping)."""
    END: int             # end reason, -1 while playing
    WINNERS: int
    WIN_TEAM: int        # winning team, -1 none
    SWORDMASTER: int     # seat whose team won by Swordmaster, -1 none
    DEADLY_TEAM: int     # team that lost 3 points to a Deadly strike, -1 none
    LAST_VICTIM: int     # the last defeat (for Deadly strike)
    LAST_DEFEATER: int
    REMOVED_NINJA: int   # stars of the Ninja card removed unseen (0 none)
    TEAM_SCORE: int      # + team
    STATS: int           # + seat * N_STATS + ST.*
    KNOWN: int           # + seat * N_TYPES: cards publicly known in a hand
    PRIVATE: int         # + (p * MAX_SEATS + q) * N_TYPES: cards p alone knows q holds (the card
                         # q took from p by Diversion)
    DECK: int            # deck stack (top = last), DECK_MAX
    DISCARD: int         # discard stack (top = last), DECK_MAX
    SCRATCH: int         # work space (role deal, redeal pool), DECK_MAX


_STATS = 8 + N_TEAMS
_KNOWN = _STATS + MAX_SEATS * N_STATS
_PRIVATE = _KNOWN + MAX_SEATS * N_TYPES
_DECK = _PRIVATE + MAX_SEATS * MAX_SEATS * N_TYPES
K = KernelField(*range(8), 8, _STATS, _KNOWN, _PRIVATE, _DECK, _DECK + DECK_MAX,
                _DECK + 2 * DECK_MAX)
KS_SIZE = K.SCRATCH + DECK_MAX


# --- rules array rules[R.*] (SamuraiRules.kernel_args) ------------------------------------------
class RuleField(NamedTuple):
    PLAYERS: int
    TURN_CAP: int        # OP-3
    SWORD_HONOUR: int    # OP-1: 1 = the seed's wording (only one player still has honour)
    GEISHA_SELF: int     # OP-5: 1 = Geisha may take one's own property
    DEADLY_ANY: int      # OP-6: 1 = any defeat that ends the game costs the defeated's team 3
    OP7_HONOUR: int      # OP-7: 1 = honour scoring decides a defeat that also makes a Swordmaster
    USHI_DAMAGE: int     # OP-9: 1 = Ushiwaka draws per point of damage, excess included
    AUTO_PARRY: int      # OP-4: 1 = reactions are not a choice: a Parry (else Hanzo's weapon) is always played
    ANSWER_CCW: int      # OP-8: 1 = Battle Cry / Jujutsu answered counter-clockwise
    RESHUFFLE_PHASE: int  # OP-10: 1 = only the draw phase reshuffles; other effects draw nothing
    SUBTRACT_FIRST: int  # OP-11: 1 = Ginchiyo subtracts before Fast Draw and Musashi add
    FIXED_DECK: int      # 1 = the deck is stacked in the given order (scripted games)
    FIXED_ROLES: int     # 1 = roles given per seat (scripted games)
    RESHUFFLE_HONOUR: int  # SS-6: honour each player loses at a reshuffle
    HAND_LIMIT: int      # SS-8
    DECK_SIZE: int
    POOL: int            # bitmask of characters drawn at random (SS-3; exclusions removed)
    HONOUR: int          # + role: starting honour (SS-2)
    MULT: int            # + role: multiplier (SS-19)
    TOP_STARS_MULT: int  # 4 players: the Ninja with most stars (0 = not used)
    CHARACTER: int       # + seat: fixed character or RANDOM_CHARACTER
    OPENING: int         # + i: opening hand of the i-th seat from the Shogun (SS-4)
    ROLE: int            # + seat: fixed role (R.FIXED_ROLES)
    STARS: int           # + seat: fixed Ninja stars
    N_ROLES: int         # + role: role cards in play by role (SS-1)
    REMOVED: int         # fixed roles: stars of the removed Ninja
    CHECK_EVERY_TURN: int  # 1 = check the invariants after every turn (tests)
    SHOGUN_BUSHIDO_CHOICE: int  # SS-21 (seed's reading): 1 = the 3-player Shogun who flips a
                         # weapon still chooses (D.BUSHIDO): pass Bushido on with a weapon, or
                         # discard it at no honour


_HONOUR = 17
_CHARACTER = _HONOUR + 2 * N_ROLES + 1
_N_ROLES = _CHARACTER + 4 * MAX_SEATS
R = RuleField(*range(_HONOUR), _HONOUR, _HONOUR + N_ROLES, _HONOUR + 2 * N_ROLES, _CHARACTER,
              _CHARACTER + MAX_SEATS, _CHARACTER + 2 * MAX_SEATS, _CHARACTER + 3 * MAX_SEATS,
              _N_ROLES, _N_ROLES + N_ROLES, _N_ROLES + N_ROLES + 1, _N_ROLES + N_ROLES + 2)
N_RULES = R.SHOGUN_BUSHIDO_CHOICE + 1


# --- end reasons ------------------------------------------------------------------------------
class EndReason(NamedTuple):
    """End reasons (record column end_reason)."""
    HONOUR: int          # SS-19: a player reached 0 honour
    SWORDMASTER: int     # SS-20: every player but one at 0 resilience; that player's team wins
    CAPPED: int          # OP-3: turn cap reached (never a win)
    BROKEN: int          # an invariant failed (a kernel bug; tests demand it never happens)
    TEAMMATE_DEFEAT: int  # SS-20's exception: every player but one at 0 resilience, but the
                         # defeat that did it was by a teammate: no Swordmaster; scored by SS-19,
                         # Deadly strike included (code 4, appended: the older codes keep theirs)


END = EndReason(*range(len(EndReason._fields)))
END_REASONS = ("honour", "swordmaster", "capped", "invariant_broken", "teammate_defeat")

# --- record columns ---------------------------------------------------------------------------
GAME_COLUMNS = ("shogun_seat", "winning_team", "score_shogun_team", "score_ninja", "score_ronin",
                "reshuffles", "deadly_strike_team", "swordmaster_seat", "removed_ninja")
SEAT_COLUMNS = ("role", "stars", "team", "character", "honour", "resilience", "score", "daimyo",
                "dealt", "taken", "defeats", "defeated", "attacks", "parries", "turns",
                "held_w", "held_a", "opening_w", "opening_a", "played_w", "played_a")


class Column(NamedTuple):
    """Record columns after the shared ones (sim.game): GAME_COLUMNS, then SEAT_COLUMNS per seat."""
    SHOGUN: int
    WIN_TEAM: int
    TEAM_SCORE: int      # + team
    RESHUFFLES: int
    DEADLY_TEAM: int
    SWORDMASTER: int
    REMOVED_NINJA: int
    SEAT0: int           # the first seat's columns (SEAT_COLUMNS, seat-major)


C = Column(3, 4, 5, 5 + N_TEAMS, 6 + N_TEAMS, 7 + N_TEAMS, 8 + N_TEAMS, 3 + len(GAME_COLUMNS))
N_SEAT_COLUMNS = len(SEAT_COLUMNS)
# Card masks in the record: *_w bit t = weapon type t; *_a bit t - 13 = action/property type t.
WEAPON_BITS = {t: CARD_NAMES[t] for t in range(N_WEAPONS)}
ACTION_BITS = {t - N_WEAPONS: CARD_NAMES[t] for t in range(N_WEAPONS, N_TYPES)}


# --- event log rows: (event, turn, seat, a, b, c, d) --------------------------------------------
class Event(NamedTuple):
    ROLE: int            # OWNER seat: a = role, b = stars
    SHOGUN: int          # seat is the Shogun (public)
    CHARACTER: int       # seat: a = character, b = resilience, c = honour
    TURN: int            # seat's turn begins
    RECOVER: int         # seat recovers to a resilience (SS-5)
    DRAWS: int           # seat draws: a = how many, b = source (0 deck, 1 discard top, c = that card)
    CARD: int            # OWNER seat receives card a (b = 0 from the deck, 1 stolen, 2 Ieyasu's pick)
    PLAY: int            # seat plays card a at target b (-1 none)
    REACT: int           # seat answers c's card b with a (a card type, or ACT.TAKE)
    WOUND: int           # seat loses a resilience to b (c = resilience left, d = 1 by a weapon)
    DEFEAT: int          # seat is defeated by a
    HONOUR: int          # seat's honour changes by a to b; c = why (HONOUR.*)
    RESHUFFLE: int       # the discard pile (a cards) becomes the deck
    DISCARD: int         # seat discards card a; b = why (WHY.*)
    STEAL: int           # seat takes a random card from a (Diversion; the card is private)
    LOST: int            # OWNER seat loses card a to b's Diversion
    BUSHIDO: int         # Bushido: a = flipped card, b = new holder (-1 discarded)
    NOBUNAGA: int        # seat trades 1 resilience for a card
    PROPERTY_LOST: int   # seat's property a is discarded (Geisha by b)
    END: int             # a = end reason, b = winners mask, c = winning team, d = deadly strike team
    SCORE: int           # seat: a = role, b = stars, c = score, d = daimyo in hand
    TEAM: int            # a = team, b = team score


EV = Event(*range(1, len(Event._fields) + 1))
N_EVENTS = len(EV) + 1
LOG_WIDTH = 7
# Who sees each event (sim.game PUBLIC / OWNER / NOBODY; tests/engine/test_observation.py).
EVENT_VISIBILITY = tuple(OWNER if e in (EV.ROLE, EV.CARD, EV.LOST) else PUBLIC
                         for e in range(N_EVENTS))


class HonourWhy(NamedTuple):
    """EV.HONOUR's c: why the honour changed."""
    DEFEAT: int
    RESHUFFLE: int
    BUSHIDO: int


HONOUR = HonourWhy(0, 1, 2)


class DiscardWhy(NamedTuple):
    """EV.DISCARD's b: why the card was discarded."""
    PLAYED: int
    HAND_LIMIT: int
    GEISHA: int
    ANSWER: int
    FLIP: int
    BUSHIDO: int


WHY = DiscardWhy(*range(6))
