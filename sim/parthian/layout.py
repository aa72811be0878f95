"""Parthian Shot: integer encodings shared by the kernel, strategies and narratives."""

MAX_PLAYERS = 6
N_LEGIONS = 7          # PS-2: legions used in one game
SHOTS = 6              # PS-1: shooting cards 1..6

# Actions (a seat's choice each round). Shooting card v is action v - 1.
CHARGE = 6             # PS-4: play a charge card
N_ACTIONS = 7

# Per-player state table pl[p, field] (public knowledge: the hand is the complement of the
# shooting cards in front, and charge cards in hand = start - charges played - wounds).
HAND = 0               # bitmask: bit v-1 set = shooting card v in hand
FRONT = 1              # bitmask: shooting cards lying face up in front of the player
FRONT_SUM = 2          # sum of the shooting cards in front (a charge's power, PS-4)
CHARGES = 3            # charge cards in hand
WOUNDS = 4             # charge cards discarded as damage (PS-9)
CHARGES_PLAYED = 5
MERITS = 6             # legion cards won (PS-6)
BEST_MERIT = 7         # strongest legion among the merits (tie-break, PS-15/16); 0 = none
ROUTED = 8             # 1 = could not pay damage (PS-12)
N_FIELDS = 9

# Public game info handed to strategies: info[field].
I_ROUND = 0            # 1-based round number
I_LEGION = 1           # strength of this round's legion (PS-3)
I_DECK_LEFT = 2        # legion cards still in the deck, the revealed one included
I_THRESHOLD = 3        # charge allowed when FRONT_SUM > this (PS-4)
I_N_PLAYERS = 4
I_LEGIONS = 5          # I_LEGIONS .. I_LEGIONS+6: strengths still in the deck, 0-padded
INFO_SIZE = I_LEGIONS + N_LEGIONS

# Rule parameters rules_arr[field] (from ParthianRules.kernel_args()).
R_PLAYERS = 0
R_THRESHOLD = 1        # PS-4 (9 in the printed game)
R_CHARGES = 2          # PS-1 charge cards per player (2)
R_MERIT_DEPTH = 3      # OP-2: distinct values searched for a unique one (3 = as written)
R_CHARGER_SHIELDS = 4  # OP-3: 1 = a charger spares everyone (PS-10); 0 = only chargers spared
R_SHARE_TIES = 5       # OP-4: 1 = unbroken ties share the win; 0 = nobody wins
R_FIXED_DECK = 6       # 1 = legions are dealt in the given order (scripted games), 0 = shuffled
N_RULES = 7

# End reasons (record column end_reason).
END_VICTORY = 0        # PS-15: all 7 legions defeated
END_DEFEAT = 1         # PS-16: someone could not pay damage
END_NO_SURVIVOR = 2    # PS-16 with every player routed: nobody can win
END_CAP = 3            # safety cap (7 + 2N rounds, which the rules never exceed)
END_REASONS = ("victory", "defeat", "defeat_no_survivor", "round_cap")

# Record columns after the shared ones (sim.game): game-level, then per seat.
GAME_COLUMNS = ("legions_defeated", "breakthroughs", "merits_unclaimed")
SEAT_COLUMNS = ("score", "merits", "best_merit", "wounds", "charges_played", "routed")
C_DEFEATED, C_BREAKTHROUGHS, C_UNCLAIMED = 3, 4, 5
C_SEAT0 = 6
N_SEAT_COLUMNS = 6

# Event log rows: (event, round, player, a, b, c).
LOG_WIDTH = 6
EV_LEGION = 1          # a = strength, b = legions left in deck
EV_PLAY = 2            # player plays: a = action, b = value
EV_DEFEATED = 3        # a = total, b = strength, c = merit winner (-1 none)
EV_BREAKTHROUGH = 4    # a = total, b = strength, c = 1 if a charger spared everyone
EV_DAMAGE = 5          # player takes damage: a = charges left (-1 = could not pay: routed)
EV_RESUPPLY = 6        # player's shooting cards return: a = 13 (charge), 14 (camel), 9 (damage)
EV_END = 7             # a = end reason, b = winners bitmask
EV_SCORE = 8           # player: a = score, b = best merit
# Who sees each event (sim.control, tests/engine/test_observation.py): every event is public;
# the choices of a round are logged only when they are revealed together (PS-5).
EVENT_VISIBILITY = (0,) * 9
DECISION_NAMES = ("card",)
N_DECISIONS = len(DECISION_NAMES)
N_CHANCE = 1  # random streams (sim.rng): 0 = the deck; then one per (seat, decision type)

# Game scalars gs[field] inside the kernel.
G_HEAD = 0             # index in deck[] of the legion on top
G_LEFT = 1             # legion cards left in the deck
G_ROUND = 2
G_DEFEATED = 3
G_BREAKTHROUGHS = 4
G_UNCLAIMED = 5        # defeated legions nobody got (PS-7)
G_END = 6              # end reason, -1 while playing
G_UNSEEN = 7           # legions after the head never revealed yet: they lie on top of the
                       # returned ones (PS-11 puts a breakthrough at the bottom, in public view)
N_GAME_FIELDS = 8

N_STRATEGY_PARAMS = 64  # a scripted seat needs one action per round (at most 7 + 9 charges x 6 players)
